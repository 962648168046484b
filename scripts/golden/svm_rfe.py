"""Golden references for SVM-RFE (recursive feature elimination with a linear SVM, Guyon et
al. 2002) against scikit-learn 1.9.1: RFE(SVC(kernel="linear")).ranking_ on the standardised
breast-cancer data (the first 200 rows, stored with the case), on a generated problem with
informative, redundant and noise features, and on the three-class wine data (ranked by the
squared weights summed over the one-vs-one pairs).

Writes datasets/golden/svm/svm_rfe.json. The SVC uses tol = 1e-10 so that the weights, and with
them the elimination order, do not depend on where libsvm stops. For each case the script also
records the smallest relative gap, over the rounds, between the largest |w_j| eliminated and the
smallest kept (`min_gap`, relative to max |w|): a ranking is a stable reference only when that
gap is well above the solvers' accuracy.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_classification
from sklearn.feature_selection import RFE
from sklearn.svm import SVC

from common import load_dataset, write_json

TOL = 1e-10


def standardize(x):
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    return (x - x.mean(axis=0)) / sd


def min_gap(x, y, c, k, step):
    """Smallest relative gap at the elimination cut over the rounds RFE runs."""
    remaining = list(range(x.shape[1]))
    gap = np.inf
    while len(remaining) > k:
        coef = SVC(kernel="linear", C=c, tol=TOL).fit(x[:, remaining], y).coef_
        w = np.sqrt((coef**2).sum(axis=0))
        s = np.sort(w)
        n_drop = min(step, len(remaining) - k)
        gap = min(gap, float((s[n_drop] - s[n_drop - 1]) / s[-1]))
        order = np.argsort(w, kind="stable")
        drop = set(order[:n_drop])
        remaining = [f for i, f in enumerate(remaining) if i not in drop]
    return gap


def main():
    cases = {}
    x, y, _ = load_dataset("breast_cancer")
    x = standardize(x[:200])
    y = y[:200]
    xg, yg = make_classification(
        n_samples=300,
        n_features=12,
        n_informative=4,
        n_redundant=3,
        n_repeated=0,
        random_state=3,
    )
    xg = standardize(xg)
    xw, yw, _ = load_dataset("wine")
    xw = standardize(xw)
    sets = [("breast_cancer", x, y, [(0.1, 5, 1), (1.0, 4, 3)])]
    sets.append(("generated", xg, yg, [(0.1, 5, 1), (1.0, 4, 3)]))
    sets.append(("wine", xw, yw, [(0.1, 4, 2)]))
    for name, xx, yy, settings in sets:
        for c, k, step in settings:
            rfe = RFE(SVC(kernel="linear", C=c, tol=TOL), n_features_to_select=k, step=step)
            rfe.fit(xx, yy)
            cases[f"{name}_c{c}_k{k}_step{step}"] = {
                "x": xx,
                "y": yy.astype(np.int64),
                "C": c,
                "n_features_to_select": k,
                "step": step,
                "ranking": rfe.ranking_.astype(np.int64),
                "support": rfe.support_.astype(np.int64),
                "min_gap": min_gap(xx, yy, c, k, step),
            }
    write_json(
        "datasets/golden/svm/svm_rfe.json",
        cases,
        generator="scripts/golden/svm_rfe.py",
        note="RFE(SVC(kernel='linear', C, tol=1e-10), n_features_to_select, step): ranking_, support_",
    )


if __name__ == "__main__":
    main()
