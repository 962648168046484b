"""Golden references for the Platt probabilities of ndlearn-svm's Svc against scikit-learn
1.9.1's SVC(probability=True) (libsvm's internal 5-fold cross-validation, Platt scaling per
pair, Wu-Lin-Weng pairwise coupling).

libsvm draws its folds from C's rand(), ndlearn from its own seeded stream, so the
probabilities differ row by row, and the fold assignment alone moves libsvm's log-loss by about
1.5 % (standard deviation over seeds) on these data. The reference is therefore the log-loss (on
the training rows and on held-out rows) for random_state = 0..9; the Rust test compares the mean
over ten of its own seeds with the mean of these, within 1 % relative or two standard errors
of the difference of the means, whichever is larger. Inputs: the embedded data sets, standardised (population standard
deviation); training rows i % 4 != 0, test rows i % 4 == 0. Writes datasets/golden/svm/svm_proba.json.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.metrics import log_loss
from sklearn.svm import SVC

from common import load_dataset, write_json


def standardize(x):
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    return (x - x.mean(axis=0)) / sd


SEEDS = 10


def main():
    cases = {}
    for name, c, kernel in [
        ("iris", 1.0, "rbf"),
        ("wine", 1.0, "rbf"),
        ("breast_cancer", 1.0, "rbf"),
        ("breast_cancer", 0.1, "linear"),
    ]:
        x, y, _ = load_dataset(name)
        x = standardize(x)
        train = np.arange(len(y)) % 4 != 0
        test = ~train
        losses_train, losses_test = [], []
        for seed in range(SEEDS):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                m = SVC(C=c, kernel=kernel, probability=True, random_state=seed, tol=1e-6)
                m.fit(x[train], y[train])
            losses_train.append(log_loss(y[train], m.predict_proba(x[train])))
            losses_test.append(log_loss(y[test], m.predict_proba(x[test])))
        cases[f"{name}_{kernel}_c{c}"] = {
            "dataset": name,
            "C": c,
            "kernel": kernel,
            "log_loss_train": np.array(losses_train),
            "log_loss_test": np.array(losses_test),
        }
    write_json(
        "datasets/golden/svm/svm_proba.json",
        cases,
        generator="scripts/golden/svm_proba.py",
        note="SVC(probability=True, random_state=0..9, tol=1e-6) log-losses on train (i % 4 != 0) and test rows",
    )


if __name__ == "__main__":
    main()
