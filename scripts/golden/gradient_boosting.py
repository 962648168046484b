"""Golden references for ndlearn-tree's gradient boosting: scikit-learn's
GradientBoostingRegressor / GradientBoostingClassifier with fixed random_state (ndlearn replays
the subsample masks, the per-tree splitter seeds and the early-stopping split, so the ensembles
must be the same).

Writes datasets/golden/tree/gradient_boosting.json: per case the estimator kind, its params
(a JSON string), the data (generated and diabetes features stored, classification sets by
name), the sample weights if any, and scikit-learn's fitted results on the training rows:
node counts of every tree, the starting raw score, raw scores (decision_function / predict),
probabilities and labels (classifiers), the raw scores after a few stages, train_score_,
oob_scores_ / oob_improvement_ (subsample < 1), n_estimators_ and feature importances.

Every loss is covered (squared_error, absolute_error, huber, quantile; binomial and multinomial
log_loss, exponential), with subsampling, sample weights, early stopping, init="zero",
max_leaf_nodes, max_features, min_samples_leaf and ccp_alpha, and warm starts (warm_start=True
refits with more stages; one also switches to subsample < 1, one uses early stopping). Inputs are float32-representable
(scikit-learn converts X to float32).
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor

from common import diabetes_scaled, load_dataset, write_json


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def gen_regression(seed=20261127, n=240, d=5):
    rng = np.random.default_rng(seed)
    x = f32(rng.standard_normal((n, d)))
    y = (2.0 * x[:, 0] + np.sin(3.0 * x[:, 1]) + x[:, 2] * x[:, 3]
         + 0.5 * rng.standard_t(3, size=n))
    return x, y


def stage_picks(n_stages):
    return sorted({0, n_stages // 2, n_stages - 1})


def common_fields(m, x, raw_staged):
    n_stages = m.n_estimators_
    picks = stage_picks(n_stages)
    staged = [raw_staged[i] for i in picks]
    out = dict(
        node_counts=np.array([t.tree_.node_count for t in m.estimators_.ravel()],
                             dtype=np.int64),
        n_estimators=int(n_stages),
        train_score=m.train_score_,
        feature_importances=m.feature_importances_,
        staged_stages=np.array(picks, dtype=np.int64),
        staged=np.vstack(staged),
    )
    if hasattr(m, "oob_scores_"):
        out["oob_scores"] = m.oob_scores_
        out["oob_improvement"] = m.oob_improvement_
    return out


def main():
    cases = {}
    xg, yg = gen_regression()
    xd, yd, _ = load_dataset("diabetes")
    xd = f32(diabetes_scaled(xd))
    reg_settings = [
        ("reg_squared_diabetes", "diabetes", dict(n_estimators=25, random_state=0), False),
        ("reg_squared_generated_leaves", "generated",
         dict(n_estimators=25, max_leaf_nodes=6, min_samples_leaf=3, learning_rate=0.2,
              random_state=1), False),
        ("reg_absolute_diabetes", "diabetes",
         dict(loss="absolute_error", n_estimators=20, max_depth=2, random_state=0), False),
        ("reg_absolute_generated_weighted", "generated",
         dict(loss="absolute_error", n_estimators=15, random_state=4), True),
        ("reg_huber_generated", "generated",
         dict(loss="huber", alpha=0.8, n_estimators=25, random_state=2), False),
        ("reg_huber_diabetes_weighted_subsample", "diabetes",
         dict(loss="huber", n_estimators=15, subsample=0.8, random_state=5, max_depth=2), True),
        ("reg_quantile_generated", "generated",
         dict(loss="quantile", alpha=0.3, n_estimators=20, random_state=3), False),
        ("reg_quantile_diabetes_weighted", "diabetes",
         dict(loss="quantile", alpha=0.75, n_estimators=12, random_state=3,
              min_samples_leaf=5), True),
        ("reg_squared_diabetes_subsample", "diabetes",
         dict(n_estimators=20, subsample=0.7, random_state=3, max_features=0.5), False),
        ("reg_squared_generated_weighted", "generated",
         dict(n_estimators=20, random_state=6, min_weight_fraction_leaf=0.02), True),
        ("reg_squared_generated_early_stop", "generated",
         dict(n_estimators=300, learning_rate=0.3, n_iter_no_change=3, validation_fraction=0.2,
              random_state=7), False),
        ("reg_zero_init_ccp", "generated",
         dict(n_estimators=10, init="zero", ccp_alpha=0.01, max_depth=4, random_state=8,
              max_features=2), False),
    ]
    for name, target, params, weighted in reg_settings:
        x, y = (xg, yg) if target == "generated" else (xd, yd)
        w = 0.5 + (np.arange(len(y)) % 4) * 0.5 if weighted else None
        m = GradientBoostingRegressor(**params).fit(x, y, sample_weight=w)
        raw_staged = [r.reshape(-1, 1) for r in m.staged_predict(x)]
        case = dict(kind="regressor", params=json.dumps(params), x=x, y=y,
                    pred=m.predict(x), init=m._raw_predict_init(x)[0],
                    **common_fields(m, x, raw_staged))
        if w is not None:
            case["sample_weight"] = w
        cases[name] = case

    cls_settings = [
        ("clf_breast_cancer", "breast_cancer", dict(n_estimators=20, random_state=0), False),
        ("clf_breast_cancer_exponential", "breast_cancer",
         dict(loss="exponential", n_estimators=20, random_state=1, max_depth=2), False),
        ("clf_breast_cancer_weighted_subsample", "breast_cancer",
         dict(n_estimators=15, subsample=0.6, random_state=2, max_features="sqrt"), True),
        ("clf_iris", "iris", dict(n_estimators=15, random_state=0), False),
        ("clf_wine_subsample", "wine",
         dict(n_estimators=12, subsample=0.7, random_state=8, max_leaf_nodes=5), False),
        ("clf_wine_weighted_zero_init", "wine",
         dict(n_estimators=8, init="zero", random_state=3, learning_rate=0.3, max_depth=2), True),
        ("clf_iris_early_stop", "iris",
         dict(n_estimators=200, n_iter_no_change=2, validation_fraction=0.2, random_state=11,
              learning_rate=0.5), False),
        ("clf_breast_cancer_exponential_early_stop", "breast_cancer",
         dict(loss="exponential", n_estimators=200, n_iter_no_change=3, random_state=4,
              learning_rate=0.4, max_depth=2), False),
    ]
    for name, ds, params, weighted in cls_settings:
        x, y, _ = load_dataset(ds)
        x = f32(x)
        w = 0.5 + (np.arange(len(y)) % 3) if weighted else None
        m = GradientBoostingClassifier(**params).fit(x, y, sample_weight=w)
        raw_staged = [np.atleast_2d(r.T).T if r.ndim == 1 else r
                      for r in m.staged_decision_function(x)]
        dec = m.decision_function(x)
        case = dict(kind="classifier", dataset=ds, params=json.dumps(params),
                    decision=np.atleast_2d(dec.T).T, proba=m.predict_proba(x),
                    pred=m.predict(x), init=m._raw_predict_init(x)[0],
                    **common_fields(m, x, raw_staged))
        if w is not None:
            case["sample_weight"] = w
        cases[name] = case

    # Warm starts: fit `first` stages, then refit with warm_start=True and more stages.
    warm_settings = [
        ("warm_reg_huber_subsample", "regressor", None,
         dict(loss="huber", n_estimators=6, subsample=0.8, random_state=9), 14),
        ("warm_reg_squared_then_subsample", "regressor", None,
         dict(n_estimators=5, random_state=2, max_depth=2), 9),
        ("warm_clf_iris", "classifier", "iris",
         dict(n_estimators=4, subsample=0.9, random_state=12, max_depth=2), 8),
        ("warm_reg_early_stop", "regressor", None,
         dict(n_estimators=5, n_iter_no_change=2, learning_rate=0.3, random_state=5), 60),
    ]
    for name, kind, ds, params, more in warm_settings:
        if kind == "regressor":
            x, y = xg, yg
            m = GradientBoostingRegressor(warm_start=True, **params).fit(x, y)
        else:
            x, y, _ = load_dataset(ds)
            x = f32(x)
            m = GradientBoostingClassifier(warm_start=True, **params).fit(x, y)
        first = int(m.n_estimators_)
        m.set_params(n_estimators=more)
        if name == "warm_reg_squared_then_subsample":
            m.set_params(subsample=0.7)
        m.fit(x, y)
        if kind == "regressor":
            raw_staged = [r.reshape(-1, 1) for r in m.staged_predict(x)]
            extra = dict(pred=m.predict(x), x=x, y=y)
        else:
            raw_staged = [np.atleast_2d(r.T).T if r.ndim == 1 else r
                          for r in m.staged_decision_function(x)]
            extra = dict(decision=np.atleast_2d(m.decision_function(x).T).T,
                         proba=m.predict_proba(x), pred=m.predict(x), dataset=ds)
        cases[name] = dict(kind="warm_" + kind, params=json.dumps(params), first=first,
                           more=more, init=m._raw_predict_init(x)[0],
                           **extra, **common_fields(m, x, raw_staged))

    write_json(
        "datasets/golden/tree/gradient_boosting.json",
        cases,
        generator="scripts/golden/gradient_boosting.py",
        note="scikit-learn GradientBoostingRegressor / GradientBoostingClassifier, fixed "
        "random_state, float32-representable inputs; results on the training rows",
    )


if __name__ == "__main__":
    main()
