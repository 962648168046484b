"""Golden references for ndlearn-bayes's LDA svd solver on rank-deficient data: scikit-learn's
LinearDiscriminantAnalysis(solver="svd") on make_classification data with redundant features
(exact linear combinations of the informative ones) and repeated columns, so the pooled
within-class covariance is singular and the solver's rank cut (tol = 1e-4) decides the
discriminant subspace.

Writes datasets/golden/bayes/lda_redundant.json: per case the training and test rows, the
labels, and scikit-learn's coef_, intercept_, explained_variance_ratio_, decision_function,
predict_proba, predict and transform on the test rows.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_classification
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

from common import write_json


def case(seed, n_classes, n_repeated):
    x, y = make_classification(n_samples=800, n_features=14, n_informative=5, n_redundant=4,
                               n_repeated=n_repeated, n_classes=n_classes, random_state=seed)
    xt, yt = x[:600], y[:600]
    xq = x[600:]
    m = LinearDiscriminantAnalysis(solver="svd").fit(xt, yt)
    dec = m.decision_function(xq)
    return {
        "x": xt,
        "y": yt,
        "xq": xq,
        "rank": int(np.linalg.matrix_rank(xt - m.means_[yt], tol=1e-8)),
        "coef": m.coef_,
        "intercept": m.intercept_,
        "explained_variance_ratio": m.explained_variance_ratio_,
        "decision": dec.reshape(len(xq), -1),
        "proba": m.predict_proba(xq),
        "pred": m.predict(xq),
        "transform": m.transform(xq),
    }


def main():
    cases = {
        "redundant_three_classes": case(20261130, 3, 0),
        "redundant_repeated_binary": case(20261131, 2, 2),
        "redundant_repeated_four_classes": case(20261132, 4, 3),
    }
    write_json("datasets/golden/bayes/lda_redundant.json", cases,
               "scripts/golden/bayes_lda_redundant.py",
               "LDA svd solver on rank-deficient (redundant / repeated feature) data")


if __name__ == "__main__":
    main()
