"""Golden references for ndlearn-tree's HistGradientBoostingRegressor / Classifier:
scikit-learn's HistGradientBoosting* trees (every node of every predictor), baselines and raw
scores.

Writes datasets/golden/tree/hist_gradient_boosting.json. Every case has fewer than 200,000 rows
(no binning subsample) and continuous generated features (no equal-gain ties); early stopping
is off except in the training-loss case, whose stopping rule involves no random split.
Per case: the data (NaN stored as a 0/1 mask), the settings, `baseline`, the flattened node
table of every tree (`tree_sizes` gives the node count of each tree, in iteration-major order),
`n_iter`, `raw_train` / `raw_test` (n x K), and `train_score` where early stopping ran.
"""

from __future__ import annotations

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

from common import write_json

FIELDS = ["feature_idx", "num_threshold", "bin_threshold", "missing_go_to_left", "left",
          "right", "is_leaf", "value", "count", "depth"]


def nodes_table(est):
    tables, sizes = {f: [] for f in FIELDS}, []
    for per_iter in est._predictors:
        for pred in per_iter:
            nodes = pred.nodes
            sizes.append(len(nodes))
            for f in FIELDS:
                v = np.asarray(nodes[f], dtype=np.float64)
                if f == "num_threshold":
                    # Leaves carry 0; +inf (split on missing values only) stored as 1e300.
                    v = np.where(np.isinf(v), 1e300, v)
                tables[f].append(v)
    out = {f"node_{f}": np.concatenate(tables[f]) for f in FIELDS}
    out["tree_sizes"] = np.array(sizes, dtype=np.int64)
    return out


def data(rng, n, d, nan_cols=(), nan_rate=0.1):
    x = rng.standard_normal((n, d))
    x[:, 0] *= 3.0
    if d > 2:
        x[:, 2] = np.exp(x[:, 2])
    for j in nan_cols:
        x[rng.random(n) < nan_rate, j] = np.nan
    return x


def store_x(case, key, x):
    case[key] = np.nan_to_num(x, nan=0.0)
    case[key + "_nan_mask"] = np.isnan(x).astype(np.float64)


def main():
    rng = np.random.default_rng(20261129)
    cases = {}

    def reg_target(x, noise=0.3):
        z = np.nan_to_num(x, nan=0.5)
        return (np.sin(z[:, 0]) + 0.5 * z[:, 1] ** 2 - z[:, 2] + 0.3 * z[:, 3] * z[:, 1]
                + noise * rng.standard_normal(len(z)))

    def add(name, est, x, y, xt, w=None, settings=None):
        est.fit(x, y, sample_weight=w)
        case = dict(settings or {})
        store_x(case, "x", x)
        store_x(case, "x_test", xt)
        case["y"] = np.asarray(y, dtype=np.float64)
        if w is not None:
            case["sample_weight"] = w
        case["baseline"] = np.asarray(est._baseline_prediction, dtype=np.float64).ravel()
        case.update(nodes_table(est))
        case["n_iter"] = int(est.n_iter_)
        case["raw_train"] = np.asarray(est._raw_predict(x), dtype=np.float64)
        case["raw_test"] = np.asarray(est._raw_predict(xt), dtype=np.float64)
        if len(getattr(est, "train_score_", [])):
            case["train_score"] = np.asarray(est.train_score_, dtype=np.float64)
        cases[name] = case

    base = dict(max_iter=10, early_stopping=False, random_state=0)

    x = data(rng, 400, 6)
    xt = data(rng, 100, 6)
    y = reg_target(x)
    add("squared_default", HistGradientBoostingRegressor(**base), x, y, xt,
        settings=dict(loss="squared_error", max_iter=10))
    add("squared_small_leaves", HistGradientBoostingRegressor(
        max_leaf_nodes=7, min_samples_leaf=5, l2_regularization=1.0, max_bins=32, **base),
        x, y, xt, settings=dict(loss="squared_error", max_iter=10, max_leaf_nodes=7,
                                min_samples_leaf=5, l2_regularization=1.0, max_bins=32))
    add("squared_depth3", HistGradientBoostingRegressor(
        max_depth=3, max_leaf_nodes=None, learning_rate=0.3, **base), x, y, xt,
        settings=dict(loss="squared_error", max_iter=10, max_depth=3, max_leaf_nodes=0,
                      learning_rate=0.3))
    w = rng.uniform(0.2, 3.0, len(y))
    add("squared_weighted", HistGradientBoostingRegressor(**base), x, y, xt, w=w,
        settings=dict(loss="squared_error", max_iter=10))

    xm = data(rng, 400, 6, nan_cols=(1, 3), nan_rate=0.15)
    xmt = data(rng, 100, 6, nan_cols=(1, 3, 4), nan_rate=0.15)
    ym = reg_target(xm)
    ym[np.isnan(xm[:, 1])] += 2.0  # missingness carries signal
    add("squared_missing", HistGradientBoostingRegressor(**base), xm, ym, xmt,
        settings=dict(loss="squared_error", max_iter=10))

    add("absolute_error", HistGradientBoostingRegressor(loss="absolute_error", **base),
        x, y, xt, settings=dict(loss="absolute_error", max_iter=10))
    add("quantile_08", HistGradientBoostingRegressor(loss="quantile", quantile=0.8, **base),
        x, y, xt, settings=dict(loss="quantile", quantile=0.8, max_iter=10))
    lam = np.exp(0.4 * np.nan_to_num(x[:, 0]) + 0.3 * x[:, 1])
    yp = rng.poisson(lam).astype(np.float64)
    add("poisson", HistGradientBoostingRegressor(loss="poisson", **base), x, yp, xt,
        settings=dict(loss="poisson", max_iter=10))
    yg = rng.gamma(2.0, lam / 2.0)
    add("gamma", HistGradientBoostingRegressor(loss="gamma", **base), x, yg, xt,
        settings=dict(loss="gamma", max_iter=10))

    # Early stopping on the training loss (no random split): stops when 3 iterations in a row
    # do not improve by more than tol.
    add("early_stopping_train_loss", HistGradientBoostingRegressor(
        max_iter=200, early_stopping=True, validation_fraction=None, n_iter_no_change=3,
        tol=1e-2, random_state=0), x, y, xt,
        settings=dict(loss="squared_error", max_iter=200, early_stopping=1,
                      validation_fraction=0.0, n_iter_no_change=3, tol=1e-2))

    # Monotonic constraints (increasing in x0, decreasing in x2), with missing values.
    add("squared_monotonic", HistGradientBoostingRegressor(
        monotonic_cst=[1, 0, -1, 0, 0, 0], **base), xm, ym, xmt,
        settings=dict(loss="squared_error", max_iter=10,
                      monotonic_cst=np.array([1, 0, -1, 0, 0, 0], dtype=np.float64)))

    # Interaction constraints: {0, 1} and {2, 3}; features 4 and 5 form a third group.
    add("squared_interactions", HistGradientBoostingRegressor(
        interaction_cst=[[0, 1], [2, 3]], **base), x, y, xt,
        settings=dict(loss="squared_error", max_iter=10,
                      interaction_groups=np.array([0, 0, 1, 1, -1, -1], dtype=np.float64)))

    xc = data(rng, 400, 8, nan_cols=(5,))
    xct = data(rng, 100, 8, nan_cols=(5,))
    zc = np.nan_to_num(xc, nan=0.0)
    logit = zc[:, 0] - 1.5 * zc[:, 1] + np.sin(2 * zc[:, 3]) + 0.5 * rng.standard_normal(400)
    yc = (logit > 0).astype(np.int64)
    add("binary", HistGradientBoostingClassifier(**base), xc, yc, xct,
        settings=dict(max_iter=10))
    add("binary_monotonic", HistGradientBoostingClassifier(
        monotonic_cst=[1, -1, 0, 0, 0, 0, 0, 0], **base), xc, yc, xct,
        settings=dict(max_iter=10,
                      monotonic_cst=np.array([1, -1, 0, 0, 0, 0, 0, 0], dtype=np.float64)))
    wc = rng.uniform(0.5, 2.0, 400)
    add("binary_weighted", HistGradientBoostingClassifier(**base), xc, yc, xct, w=wc,
        settings=dict(max_iter=10))
    y4 = np.digitize(logit + 0.7 * zc[:, 4], [-1.5, 0.0, 1.5]).astype(np.int64)
    add("multiclass_4", HistGradientBoostingClassifier(max_leaf_nodes=15, **base), xc, y4, xct,
        settings=dict(max_iter=10, max_leaf_nodes=15))

    write_json("datasets/golden/tree/hist_gradient_boosting.json", cases,
               "scripts/golden/hist_gradient_boosting.py",
               "scikit-learn HistGradientBoosting* predictors, baselines and raw scores")


if __name__ == "__main__":
    main()
