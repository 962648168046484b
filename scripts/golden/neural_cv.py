#!/usr/bin/env python3
"""Repeated 5 x 2-fold cross-validation of scikit-learn's default MLPs (issue #22's statistical
equality check).

Writes datasets/golden/neural/cv.json.

For each data set and repeat r = 0..4: perm = np.random.RandomState(r).permutation(n), halves
A = perm[:n // 2] and B = perm[n // 2:]; fit MLPClassifier() / MLPRegressor() with default
settings (random_state = 10 r + fold) on one half and score the other (accuracy / R^2), fold 0
trained on A, fold 1 on B. The permutations are stored, so the Rust test scores ndlearn's
defaults on the very same splits and compares the two sets of 10 scores.

Data: digits / 16; breast cancer, diabetes (x and y) standardised as in neural.py (the Rust
test reads them from mlp.json); generated classification (make_classification, 800 x 20) and
regression (make_regression, 800 x 10, y standardised), stored here.

Usage:  target/golden-venv/bin/python scripts/golden/neural_cv.py
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification, make_regression
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier, MLPRegressor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402
from neural import standardise  # noqa: E402  (the same scaling as the data of mlp.json)

GENERATOR = "scripts/golden/neural_cv.py"
NOTE = (
    "Repeated 5 x 2-fold CV of the default MLPClassifier / MLPRegressor: perms[r] is repeat r's "
    "permutation, fold 0 trains on perms[r][:n//2] and scores perms[r][n//2:], fold 1 the "
    "reverse; scores[2r + fold] (accuracy / R^2), random_state = 10 r + fold."
)

warnings.simplefilter("ignore", ConvergenceWarning)


def five_by_two(est, x, y):
    n = len(x)
    perms, scores = [], []
    for r in range(5):
        perm = np.random.RandomState(r).permutation(n)
        perms.append(perm)
        a, b = perm[: n // 2], perm[n // 2:]
        for fold, (train, test) in enumerate([(a, b), (b, a)]):
            m = est(random_state=10 * r + fold).fit(x[train], y[train])
            scores.append(float(m.score(x[test], y[test])))
    return np.array(perms, dtype=np.int64), scores


def main():
    cases = {}
    xdig, ydig, _ = load_dataset("digits")
    xb, yb, _ = load_dataset("breast_cancer")
    xd, yd, _ = load_dataset("diabetes")
    xc, yc = make_classification(n_samples=800, n_features=20, n_informative=10,
                                 n_redundant=5, random_state=0)
    xr, yr = make_regression(n_samples=800, n_features=10, n_informative=8, noise=10.0,
                             random_state=0)
    yr = (yr - yr.mean()) / yr.std()
    cases["data_generated_classification"] = {"x": xc, "y": yc.astype(int)}
    cases["data_generated_regression"] = {"x": xr, "y": yr}
    for name, x, y, est in [
        ("digits", xdig / 16.0, ydig, MLPClassifier),
        ("breast_cancer", standardise(xb), yb, MLPClassifier),
        ("diabetes", standardise(xd), (yd - yd.mean()) / yd.std(), MLPRegressor),
        ("generated_classification", xc, yc, MLPClassifier),
        ("generated_regression", xr, yr, MLPRegressor),
    ]:
        perms, scores = five_by_two(est, x, y)
        cases[f"cv_{name}"] = {"perms": perms, "scores": scores,
                               "metric": "accuracy" if est is MLPClassifier else "r2"}
        print(f"{name}: mean {np.mean(scores):.4f}, sd {np.std(scores, ddof=1):.4f}")

    write_json(GOLDEN_DIR / "neural" / "cv.json", cases, GENERATOR, NOTE)


if __name__ == "__main__":
    main()
