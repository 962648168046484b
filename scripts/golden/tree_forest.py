"""Golden references for the ndlearn-tree forests: scikit-learn's RandomForestClassifier /
Regressor and ExtraTreesClassifier / Regressor with fixed random_state (ndlearn reproduces the
per-tree seeds, bootstrap samples and splitter streams, so the forests must be the same).

Writes datasets/golden/tree/forest.json: per case the estimator and its params, the node count
of every tree, probabilities or predictions on the training rows, importances and the
out-of-bag score / decision function / prediction where computed.

No absolute_error forest: on bootstrap samples (repeated rows) different splits often have
exactly the same absolute deviation, and which one wins then depends on the rounding of sums
that the two libraries accumulate in different orders (the single-tree goldens cover
absolute_error).

The params are stored as a JSON string (the file format has no booleans).
Inputs are float32-representable, as in tree.py (embedded data sets rounded through float32;
the generated regression data is stored).
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.ensemble import (
    AdaBoostClassifier,
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)

from common import load_dataset, write_json


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def gen_regression():
    rng = np.random.default_rng(20261129)
    n, d = 160, 4
    x = f32(rng.standard_normal((n, d)))
    y = 2.0 * x[:, 0] + np.sin(3.0 * x[:, 1]) + x[:, 2] * x[:, 3] + 0.3 * rng.standard_normal(n)
    return x, y


CLASSIFIERS = {"random_forest": RandomForestClassifier, "extra_trees": ExtraTreesClassifier}
REGRESSORS = {"random_forest": RandomForestRegressor, "extra_trees": ExtraTreesRegressor}


def main():
    cases = {}
    cls_settings = [
        ("rf_iris", "random_forest", "iris", dict(n_estimators=10, random_state=0, oob_score=True)),
        ("rf_breast_cancer", "random_forest", "breast_cancer",
         dict(n_estimators=8, random_state=3, oob_score=True, max_depth=6)),
        ("rf_wine_subsample", "random_forest", "wine",
         dict(n_estimators=6, random_state=11, class_weight="balanced_subsample", max_samples=0.7,
              oob_score=True)),
        ("rf_wine_entropy_half", "random_forest", "wine",
         dict(n_estimators=5, random_state=5, criterion="entropy", max_features=0.5,
              min_samples_leaf=2)),
        ("rf_iris_weighted", "random_forest", "iris",
         dict(n_estimators=5, random_state=2, class_weight="balanced")),
        ("et_wine", "extra_trees", "wine", dict(n_estimators=10, random_state=1)),
        ("et_breast_cancer_bootstrap", "extra_trees", "breast_cancer",
         dict(n_estimators=6, random_state=4, bootstrap=True, oob_score=True)),
    ]
    for name, kind, ds, params in cls_settings:
        x, y, _ = load_dataset(ds)
        x = f32(x)
        w = 0.5 + (np.arange(len(y)) % 3) if name.endswith("weighted") else None
        m = CLASSIFIERS[kind](**params).fit(x, y, sample_weight=w)
        case = dict(
            kind=kind, dataset=ds, params=json.dumps(params),
            node_counts=np.array([e.tree_.node_count for e in m.estimators_], dtype=np.int64),
            proba=m.predict_proba(x), pred=m.predict(x),
            feature_importances=m.feature_importances_,
        )
        if w is not None:
            case["sample_weight"] = w
        if params.get("oob_score"):
            case["oob_score"] = m.oob_score_
            case["oob_decision_function"] = np.nan_to_num(m.oob_decision_function_)
        cases[name] = case

    from sklearn.tree import DecisionTreeClassifier

    ada_settings = [
        ("ada_breast_cancer", "breast_cancer", dict(n_estimators=25, random_state=0), 1),
        ("ada_iris", "iris", dict(n_estimators=15, random_state=4), 1),
        ("ada_wine_depth2", "wine", dict(n_estimators=12, random_state=6, learning_rate=0.5), 2),
    ]
    for name, ds, params, depth in ada_settings:
        x, y, _ = load_dataset(ds)
        x = f32(x)
        m = AdaBoostClassifier(estimator=DecisionTreeClassifier(max_depth=depth), **params).fit(x, y)
        k = len(m.estimators_)
        cases[name] = dict(
            kind="ada_boost", dataset=ds, params=json.dumps(params), depth=depth,
            estimator_weights=m.estimator_weights_[:k], estimator_errors=m.estimator_errors_[:k],
            proba=m.predict_proba(x), pred=m.predict(x), feature_importances=m.feature_importances_,
            decision=np.atleast_2d(m.decision_function(x).T).T,
        )

    xg, yg = gen_regression()
    xd, yd, _ = load_dataset("diabetes")
    from common import diabetes_scaled

    xd = f32(diabetes_scaled(xd))
    reg_settings = [
        ("rfr_generated", "random_forest", "generated",
         dict(n_estimators=8, random_state=0, oob_score=True)),
        ("rfr_diabetes", "random_forest", "diabetes",
         dict(n_estimators=5, random_state=7, max_samples=0.5, max_features=0.6, oob_score=True,
              min_samples_leaf=3)),
        ("etr_generated", "extra_trees", "generated", dict(n_estimators=8, random_state=2)),
        ("etr_diabetes_sqrt", "extra_trees", "diabetes",
         dict(n_estimators=6, random_state=8, max_features="sqrt", max_leaf_nodes=30)),
    ]
    for name, kind, target, params in reg_settings:
        x, y = (xg, yg) if target == "generated" else (xd, yd)
        m = REGRESSORS[kind](**params).fit(x, y)
        case = dict(
            kind=kind, target=target, params=json.dumps(params),
            node_counts=np.array([e.tree_.node_count for e in m.estimators_], dtype=np.int64),
            pred=m.predict(x), feature_importances=m.feature_importances_,
        )
        if target == "generated":
            case["x"] = x
            case["y"] = y
        if name == "rfr_diabetes":
            case["x"] = x  # the scaled diabetes features as scikit-learn computed them
        if params.get("oob_score"):
            case["oob_score"] = m.oob_score_
            case["oob_prediction"] = m.oob_prediction_
        cases[name] = case

    write_json(
        "datasets/golden/tree/forest.json",
        cases,
        "scripts/golden/tree_forest.py",
        "float32-rounded inputs; fixed random_state; outputs on the training rows",
    )
    print("forest cases:", len(cases))


if __name__ == "__main__":
    main()
