"""Golden references for ndlearn-tree's gradient boosting from a user `init` estimator:
scikit-learn's GradientBoostingRegressor / GradientBoostingClassifier with `init=estimator`.

scikit-learn fits the init estimator on X converted to float32; the init models here
(LinearRegression, GaussianNB) are wrapped to fit and predict on float64, so their computations
match ndlearn's float64 fits of the same float32-representable numbers (the trees see the same
values either way). A DecisionTreeRegressor init needs no wrapper (trees read float32 anyway).

Writes datasets/golden/tree/gradient_boosting_init.json: per case the estimator kind, the init
estimator, params (a JSON string), the data (generated features stored, classification sets by
name), sample weights if any, and scikit-learn's results on the training rows: the starting raw
scores (`_raw_predict_init`), node counts of every tree, predictions (regressors) or decision
function, probabilities and labels (classifiers), staged raw scores at a few stages,
train_score_, oob_scores_ (subsample < 1) and n_estimators_ (early stopping).
"""

from __future__ import annotations

import json

import numpy as np
from sklearn.ensemble import GradientBoostingClassifier, GradientBoostingRegressor
from sklearn.linear_model import LinearRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeRegressor

from common import load_dataset, write_json


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


class F64LinearRegression(LinearRegression):
    """LinearRegression fitted and evaluated on float64 (see the module docs)."""

    def fit(self, X, y, sample_weight=None):
        return super().fit(np.asarray(X, dtype=np.float64), y, sample_weight=sample_weight)

    def predict(self, X):
        return super().predict(np.asarray(X, dtype=np.float64))


class F64GaussianNB(GaussianNB):
    """GaussianNB fitted and evaluated on float64 (see the module docs)."""

    def fit(self, X, y, sample_weight=None):
        return super().fit(np.asarray(X, dtype=np.float64), y, sample_weight=sample_weight)

    def predict_proba(self, X):
        return super().predict_proba(np.asarray(X, dtype=np.float64))


INITS = {
    "linear_regression": F64LinearRegression,
    "gaussian_nb": F64GaussianNB,
    "tree_depth2": lambda: DecisionTreeRegressor(max_depth=2, random_state=0),
}


def gen_regression(seed=20261130, n=200, d=4):
    rng = np.random.default_rng(seed)
    x = f32(rng.standard_normal((n, d)))
    y = (1.5 * x[:, 0] - x[:, 1] + np.sin(3.0 * x[:, 2]) + x[:, 2] * x[:, 3]
         + 0.3 * rng.standard_t(3, size=n))
    return x, y


def gen_binary(seed=20261201, n=300, d=3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(np.int64)
    x = f32(rng.standard_normal((n, d)) + 0.8 * y[:, None] * np.array([1.0, -0.5, 0.3]))
    return x, y


def stage_picks(n_stages):
    return sorted({0, n_stages // 2, n_stages - 1})


def fields(m, x, raw_staged):
    picks = stage_picks(m.n_estimators_)
    out = dict(
        init_raw=m._raw_predict_init(x),
        node_counts=np.array([t.tree_.node_count for t in m.estimators_.ravel()],
                             dtype=np.int64),
        n_estimators=int(m.n_estimators_),
        train_score=m.train_score_,
        staged_stages=np.array(picks, dtype=np.int64),
        staged=np.vstack([raw_staged[i] for i in picks]),
    )
    if hasattr(m, "oob_scores_"):
        out["oob_scores"] = m.oob_scores_
    return out


def main():
    cases = {}
    xg, yg = gen_regression()
    reg = [
        ("reg_squared_linear", "linear_regression", dict(n_estimators=15, random_state=0), False),
        ("reg_huber_tree_weighted_subsample", "tree_depth2",
         dict(loss="huber", n_estimators=12, subsample=0.8, random_state=3, max_depth=2), True),
        ("reg_absolute_tree", "tree_depth2",
         dict(loss="absolute_error", n_estimators=10, random_state=1), False),
        ("reg_squared_linear_early_stop", "linear_regression",
         dict(n_estimators=200, learning_rate=0.3, n_iter_no_change=3, validation_fraction=0.2,
              random_state=7), False),
    ]
    for name, init, params, weighted in reg:
        w = 0.5 + (np.arange(len(yg)) % 4) * 0.5 if weighted else None
        m = GradientBoostingRegressor(init=INITS[init](), **params).fit(xg, yg, sample_weight=w)
        raw_staged = [r.reshape(-1, 1) for r in m.staged_predict(xg)]
        case = dict(kind="regressor", init_estimator=init, params=json.dumps(params), x=xg,
                    y=yg, pred=m.predict(xg), **fields(m, xg, raw_staged))
        if w is not None:
            case["sample_weight"] = w
        cases[name] = case

    # Two classes: overlapping generated classes, so the init probabilities stay inside
    # (1e-6, 1 - 1e-6). Near p = 1 the logit is ill-conditioned (1 / (1 - p)): an
    # overconfident init (Gaussian NB on breast cancer gives 1 - p at the last bits of a double)
    # starts from scores fixed by rounding alone, on either side.
    clf = [
        ("clf_binary_nb", "generated", dict(n_estimators=10, random_state=0), False),
        ("clf_binary_nb_exponential", "generated",
         dict(loss="exponential", n_estimators=10, random_state=1, max_depth=2), False),
        ("clf_iris_nb", "iris", dict(n_estimators=8, random_state=0), False),
        ("clf_wine_nb_weighted_subsample", "wine",
         dict(n_estimators=8, subsample=0.7, random_state=4, max_depth=2), True),
        # early stopping on overlapping classes: on iris the late stages fit residuals that
        # two features split identically on the training rows (an equal-gain tie, decision
        # 0021), and the validation rows, routed by the winner's threshold, then differ
        ("clf_binary_nb_early_stop", "generated",
         dict(n_estimators=100, n_iter_no_change=2, validation_fraction=0.2, random_state=11,
              learning_rate=0.5), False),
    ]
    xb, yb = gen_binary()
    for name, ds, params, weighted in clf:
        if ds == "generated":
            x, y = xb, yb
        else:
            x, y, _ = load_dataset(ds)
            x = f32(x)
        w = 0.5 + (np.arange(len(y)) % 3) if weighted else None
        m = GradientBoostingClassifier(init=F64GaussianNB(), **params).fit(x, y, sample_weight=w)
        raw_staged = [np.atleast_2d(r.T).T if r.ndim == 1 else r
                      for r in m.staged_decision_function(x)]
        if ds == "generated":
            stored = dict(x=x, y=y.astype(np.float64))
        else:
            stored = dict(dataset=ds)
        case = dict(kind="classifier", init_estimator="gaussian_nb", **stored,
                    params=json.dumps(params), decision=np.atleast_2d(m.decision_function(x).T).T,
                    proba=m.predict_proba(x), pred=m.predict(x), **fields(m, x, raw_staged))
        if w is not None:
            case["sample_weight"] = w
        cases[name] = case

    write_json(
        "datasets/golden/tree/gradient_boosting_init.json",
        cases,
        generator="scripts/golden/gradient_boosting_init.py",
        note="scikit-learn GradientBoostingRegressor / GradientBoostingClassifier with an init "
        "estimator (float64 LinearRegression / GaussianNB, DecisionTreeRegressor), fixed "
        "random_state, float32-representable inputs; results on the training rows",
    )


if __name__ == "__main__":
    main()
