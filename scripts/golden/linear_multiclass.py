#!/usr/bin/env python3
"""Golden reference values for the multiclass reductions of ndlearn-linear.

Writes datasets/golden/linear/multiclass.json: scikit-learn's OneVsRestClassifier and
OneVsOneClassifier around LogisticRegression(solver='newton-cholesky', tol=1e-10) on iris (raw),
wine (standardised), a generated 4-class problem (make_classification) and a two-class subset
of it. Every case stores x, y, C and the outputs:

  ovr_decision  OneVsRestClassifier.decision_function (n x K; n x 1 for two classes)
  ovr_proba     OneVsRestClassifier.predict_proba (n x K)
  ovr_predict   OneVsRestClassifier.predict
  ovo_decision  OneVsOneClassifier.decision_function (n x K; n x 1 for two classes)
  ovo_predict   OneVsOneClassifier.predict

Each output is cross-checked before writing: the same reductions around an L-BFGS fit at tight
tolerance agree to 1e-6, and the one-vs-one decision function is recomputed by hand from the
pairwise models (votes + summed confidences / (3 (|.| + 1))).

Usage:  target/golden-venv/bin/python scripts/golden/linear_multiclass.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.multiclass import OneVsOneClassifier, OneVsRestClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/linear_multiclass.py"
NOTE = (
    "sklearn.multiclass.OneVsRestClassifier / OneVsOneClassifier around "
    "LogisticRegression(solver='newton-cholesky', tol=1e-10, max_iter=1000, C=c); "
    "decision functions 2-D (n x 1 for two classes), labels 0..K-1; one-vs-one pairs "
    "(0,1),(0,2),...; wine standardised with the population standard deviation."
)


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def base(C, solver="newton-cholesky"):
    if solver == "lbfgs":
        return LogisticRegression(C=C, solver="lbfgs", tol=1e-12, max_iter=100000)
    return LogisticRegression(C=C, solver=solver, tol=1e-10, max_iter=1000)


def as_2d(d):
    d = np.asarray(d, dtype=np.float64)
    return d[:, None] if d.ndim == 1 else d


def ovo_by_hand(ovo, x, k):
    votes = np.zeros((x.shape[0], k))
    conf = np.zeros((x.shape[0], k))
    t = 0
    for i in range(k):
        for j in range(i + 1, k):
            e = ovo.estimators_[t]
            h = e.predict(x)
            s = e.decision_function(x)
            votes[h == 0, i] += 1
            votes[h == 1, j] += 1
            conf[:, i] -= s
            conf[:, j] += s
            t += 1
    d = votes + conf / (3 * (np.abs(conf) + 1))
    return d[:, 1:2] if k == 2 else d


def case(x, y, C):
    k = int(y.max()) + 1
    ovr = OneVsRestClassifier(base(C)).fit(x, y)
    ovo = OneVsOneClassifier(base(C)).fit(x, y)
    out = {
        "x": x,
        "y": y.astype(np.int64),
        "c": float(C),
        "n_classes": k,
        "ovr_decision": as_2d(ovr.decision_function(x)),
        "ovr_proba": ovr.predict_proba(x),
        "ovr_predict": ovr.predict(x).astype(np.int64),
        "ovo_decision": as_2d(ovo.decision_function(x)),
        "ovo_predict": ovo.predict(x).astype(np.int64),
    }
    # Cross-checks: a second solver, and the one-vs-one rule recomputed by hand.
    ovr2 = OneVsRestClassifier(base(C, "lbfgs")).fit(x, y)
    ovo2 = OneVsOneClassifier(base(C, "lbfgs")).fit(x, y)
    d1, d2 = out["ovr_decision"], as_2d(ovr2.decision_function(x))
    scale = max(1.0, np.abs(d1).max())
    assert np.allclose(d1, d2, rtol=0, atol=1e-6 * scale), np.abs(d1 - d2).max()
    assert np.allclose(out["ovr_proba"], ovr2.predict_proba(x), rtol=0, atol=1e-7)
    assert np.allclose(out["ovo_decision"], as_2d(ovo2.decision_function(x)), rtol=0, atol=1e-6)
    assert np.allclose(out["ovo_decision"], ovo_by_hand(ovo, x, k), rtol=0, atol=1e-12)
    assert np.array_equal(out["ovr_predict"], ovr2.predict(x))
    assert np.array_equal(out["ovo_predict"], ovo2.predict(x))
    # No row sits on a knife edge: the runner-up is well below the winner (predictions are
    # then stable under solver-tolerance differences).
    for d in (out["ovr_decision"], out["ovo_decision"]):
        if d.shape[1] > 1:
            top2 = np.sort(d, axis=1)[:, -2:]
            assert (top2[:, 1] - top2[:, 0]).min() > 1e-6
    return out


def cases():
    out = {}
    x, y, _ = load_dataset("iris")
    out["iris"] = case(x, y, 1.0)
    x, y, _ = load_dataset("wine")
    out["wine"] = case(standardise(x), y, 0.5)
    x4, y4 = make_classification(
        n_samples=240,
        n_features=6,
        n_informative=4,
        n_redundant=1,
        n_classes=4,
        n_clusters_per_class=1,
        class_sep=1.2,
        random_state=20261125,
    )
    out["blobs4"] = case(x4, y4, 2.0)
    keep = y4 < 2
    out["binary"] = case(x4[keep], y4[keep], 1.0)
    return out


def main():
    path = write_json(GOLDEN_DIR / "linear" / "multiclass.json", cases(), GENERATOR, NOTE)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
