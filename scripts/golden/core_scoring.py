#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::model_selection::Scorer and ndlearn_core::pipeline.

Writes datasets/golden/core/scoring.json with scikit-learn 1.9.1 values of
`get_scorer(name)(model, X_test, y_test)` for every scorer name ndlearn implements, and the
model outputs they read (so the core tests can check the array-level scoring without the model
crates, and the facade tests can refit the same models). Train rows `i % 4 != 0`, test rows
`i % 4 == 0` of the embedded data sets. Case name prefixes:

  score_   one model on one data set: y_true, y_pred, proba, decision (n x 1 for two classes),
           `scores` = {name: value} and `errors` = [names scikit-learn refuses]
  cvpipe_  cross_val_score(Pipeline(StandardScaler, model), X, y, cv=KFold(5), scoring=name)
  gridpipe_ GridSearchCV(Pipeline(StandardScaler, Ridge), {"ridge__alpha": ...}, cv=KFold(5),
           scoring=name): mean_test_score, split scores, best index

Usage:  target/golden-venv/bin/python scripts/golden/core_scoring.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import GridSearchCV, KFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_scoring.py"
OUT = GOLDEN_DIR / "core" / "scoring.json"

CLASSIFICATION = [
    "accuracy", "balanced_accuracy", "f1", "f1_macro", "f1_micro", "f1_weighted",
    "precision", "precision_macro", "precision_micro", "precision_weighted",
    "recall", "recall_macro", "recall_micro", "recall_weighted", "matthews_corrcoef",
    "adjusted_rand_score", "rand_score", "adjusted_mutual_info_score",
    "normalized_mutual_info_score", "mutual_info_score", "homogeneity_score",
    "completeness_score", "v_measure_score", "fowlkes_mallows_score",
    "neg_log_loss", "neg_brier_score", "roc_auc", "roc_auc_ovr", "roc_auc_ovr_weighted",
    "average_precision",
]
REGRESSION = [
    "r2", "explained_variance", "neg_mean_squared_error", "neg_root_mean_squared_error",
    "neg_mean_absolute_error", "neg_median_absolute_error", "neg_max_error",
    "neg_mean_absolute_percentage_error",
]

NOTE = (
    "scikit-learn 1.9.1 get_scorer(name)(model, X_test, y_test); train rows i % 4 != 0, test "
    "rows i % 4 == 0. `errors` = scikit-learn raises (ndlearn must return an error). decision is "
    "n x 1 for two classes. Threshold scorers (roc_auc, average_precision) read "
    "decision_function when the model has one (LDA), else predict_proba (GaussianNB)."
)


def split(x, y):
    idx = np.arange(len(y))
    tr, te = idx % 4 != 0, idx % 4 == 0
    return x[tr], y[tr], x[te], y[te]


def score_all(model, names, xte, yte):
    """({name: value}, [names scikit-learn refuses])."""
    out, errors = {}, []
    for name in names:
        try:
            out[name] = float(get_scorer(name)(model, xte, yte))
        except ValueError:
            errors.append(name)
    return out, errors


def main() -> None:
    cases = {}
    models = {"gaussian_nb": GaussianNB, "lda": LinearDiscriminantAnalysis}
    for data in ("breast_cancer", "wine"):
        x, y, _ = load_dataset(data)
        xtr, ytr, xte, yte = split(x, y)
        for mname, make in models.items():
            m = make().fit(xtr, ytr)
            scores, errors = score_all(m, CLASSIFICATION, xte, yte)
            case = {
                "data": data, "y_true": yte, "y_pred": m.predict(xte),
                "proba": m.predict_proba(xte), "scores": scores, "errors": errors,
            }
            if hasattr(m, "decision_function"):
                d = m.decision_function(xte)
                case["decision"] = d.reshape(len(yte), -1)
            cases[f"score_{mname}_{data}"] = case
    x, y, _ = load_dataset("diabetes")
    xtr, ytr, xte, yte = split(x, y)
    m = Ridge(alpha=1.0).fit(xtr, ytr)
    scores, errors = score_all(m, REGRESSION, xte, yte)
    cases["score_ridge_diabetes"] = {
        "data": "diabetes", "y_true": yte, "y_pred": m.predict(xte), "scores": scores,
        "errors": errors,
    }

    cv = KFold(5)
    for name in ("r2", "neg_mean_squared_error", "neg_mean_absolute_error"):
        pipe = Pipeline([("scaler", StandardScaler()), ("ridge", Ridge(alpha=1.0))])
        cases[f"cvpipe_ridge_diabetes_{name}"] = {
            "scoring": name, "scores": cross_val_score(pipe, x, y, cv=cv, scoring=name),
        }
    xb, yb, _ = load_dataset("breast_cancer")
    for name in ("accuracy", "roc_auc", "neg_log_loss", "f1"):
        pipe = Pipeline([("scaler", StandardScaler()), ("lda", LinearDiscriminantAnalysis())])
        cases[f"cvpipe_lda_breast_cancer_{name}"] = {
            "scoring": name, "scores": cross_val_score(pipe, xb, yb, cv=cv, scoring=name),
        }
    alphas = [0.01, 1.0, 10.0, 100.0]
    gs = GridSearchCV(
        Pipeline([("scaler", StandardScaler()), ("ridge", Ridge())]),
        {"ridge__alpha": alphas}, cv=cv, scoring="neg_mean_squared_error",
    ).fit(x, y)
    cases["gridpipe_ridge_diabetes"] = {
        "alphas": alphas,
        "scoring": "neg_mean_squared_error",
        "mean_test_score": gs.cv_results_["mean_test_score"],
        "split_test_scores": np.array(
            [gs.cv_results_[f"split{s}_test_score"] for s in range(5)]
        ).T,
        "best_index": int(gs.best_index_),
    }
    write_json(OUT, cases, GENERATOR, NOTE)


if __name__ == "__main__":
    main()
