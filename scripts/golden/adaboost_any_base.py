"""Golden references for ndlearn-tree's AdaBoost over a base that is not a tree
(`AdaBoostClassifier::new(AnyBase(GaussianNB))`, `AdaBoostRegressor::new(AnyBase(LinearRegression))`):
scikit-learn's AdaBoostClassifier(estimator=GaussianNB()) (SAMME, reweighting) and
AdaBoostRegressor(estimator=LinearRegression()) (AdaBoost.R2, weighted resampling).

AdaBoost keeps X in float64 for these bases (`validate_data(dtype=None)`), and neither base has a
`random_state`, so scikit-learn draws no per-round seed: the regressor's stream holds only the
bootstrap draws, as ndlearn's `AnyBase` rounds.

Writes datasets/golden/tree/adaboost_any_base.json: per case the kind, params, data, sample
weights if any, and scikit-learn's estimator_weights_, estimator_errors_ (kept rounds), and on
the training rows decision_function / predict_proba / predict (classifier) or predict and the
staged predictions at a few stages (regressor).
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import AdaBoostClassifier, AdaBoostRegressor
from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import GaussianNB

from common import write_json


def gen_classes(seed, n, d, k):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, size=n)
    centres = rng.standard_normal((k, d))
    x = rng.standard_normal((n, d)) * 1.3 + centres[y]
    return x, y


def gen_regression(seed=20261130, n=240, d=4):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    y = (1.5 * x[:, 0] - x[:, 1] + np.sin(3.0 * x[:, 2]) + x[:, 2] * x[:, 3]
         + 0.3 * rng.standard_t(3, size=n))
    return x, y


def kept(m):
    r = len(m.estimators_)
    return m.estimator_weights_[:r], m.estimator_errors_[:r]


def classifier_case(x, y, params, weights=None):
    m = AdaBoostClassifier(estimator=GaussianNB(), **params).fit(x, y, sample_weight=weights)
    w, e = kept(m)
    dec = m.decision_function(x)
    case = {
        "kind": "classifier",
        "params": params,
        "x": x,
        "y": y,
        "estimator_weights": w,
        "estimator_errors": e,
        "decision_function": dec.reshape(len(x), -1),
        "predict_proba": m.predict_proba(x),
        "predict": m.predict(x),
    }
    if weights is not None:
        case["sample_weight"] = weights
    return case


def regressor_case(x, y, params, weights=None):
    m = AdaBoostRegressor(estimator=LinearRegression(), **params).fit(x, y, sample_weight=weights)
    w, e = kept(m)
    staged = list(m.staged_predict(x))
    picks = sorted({0, len(staged) // 2, len(staged) - 1})
    case = {
        "kind": "regressor",
        "params": params,
        "x": x,
        "y": y,
        "estimator_weights": w,
        "estimator_errors": e,
        "predict": m.predict(x),
        "stages": picks,
        "staged": np.array([staged[i] for i in picks]),
    }
    if weights is not None:
        case["sample_weight"] = weights
    return case


def main():
    cases = {}
    x3, y3 = gen_classes(20261202, 300, 4, 3)
    cases["nb_three_classes"] = classifier_case(x3, y3, {"n_estimators": 12, "random_state": 0})
    cases["nb_three_classes_shrunk"] = classifier_case(
        x3, y3, {"n_estimators": 12, "learning_rate": 0.5, "random_state": 0})
    x2, y2 = gen_classes(20261203, 260, 3, 2)
    cases["nb_binary"] = classifier_case(x2, y2, {"n_estimators": 10, "random_state": 0})
    rng = np.random.default_rng(20261204)
    w2 = rng.uniform(0.2, 2.0, size=len(y2))
    cases["nb_binary_weighted"] = classifier_case(
        x2, y2, {"n_estimators": 10, "random_state": 0}, w2)
    xr, yr = gen_regression()
    for loss in ["linear", "square", "exponential"]:
        cases[f"linear_{loss}"] = regressor_case(
            xr, yr, {"n_estimators": 15, "loss": loss, "random_state": 7})
    wr = rng.uniform(0.2, 2.0, size=len(yr))
    cases["linear_weighted_shrunk"] = regressor_case(
        xr, yr, {"n_estimators": 15, "learning_rate": 0.7, "random_state": 3}, wr)
    write_json("datasets/golden/tree/adaboost_any_base.json", cases,
               "scripts/golden/adaboost_any_base.py",
               "AdaBoost over GaussianNB / LinearRegression bases (float64 X, no per-round seed)")


if __name__ == "__main__":
    main()
