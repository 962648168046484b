"""Golden references for ndlearn-bayes's FisherDiscriminant (the Fisher LDA transformer,
catalog CL-165): scikit-learn's LinearDiscriminantAnalysis(solver="eigen").

Writes datasets/golden/bayes/fisher.json: for iris, wine and breast cancer, the C - 1
discriminant directions (scalings_ columns scaled to unit length, the largest-magnitude entry
made positive), explained_variance_ratio_ and the (unit-direction) projection of the first 20
rows. The generalised eigenvalues of scikit-learn's covariance-based S_B, S_W equal those of the
scatter matrices (both are divided by n), so only their ratios are written.
"""

from __future__ import annotations

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from common import load_dataset, write_json


def main():
    cases = {}
    for name in ("iris", "wine", "breast_cancer"):
        x, y = load_dataset(name)[:2]
        lda = LinearDiscriminantAnalysis(solver="eigen").fit(x, y)
        c = len(np.unique(y))
        w = lda.scalings_[:, : c - 1].copy()
        w /= np.linalg.norm(w, axis=0)
        for j in range(w.shape[1]):
            if w[np.argmax(np.abs(w[:, j])), j] < 0:
                w[:, j] *= -1
        cases[name] = dict(dataset=name, components=w,
                           explained_variance_ratio=lda.explained_variance_ratio_,
                           transform=x[:20] @ w)
    write_json("datasets/golden/bayes/fisher.json", cases, "bayes_fisher.py",
               "Fisher LDA directions (unit, sign-fixed) and variance ratios from "
               "LinearDiscriminantAnalysis(solver='eigen')")


if __name__ == "__main__":
    main()
