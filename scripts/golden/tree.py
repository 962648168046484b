"""Golden references for ndlearn-tree: scikit-learn's DecisionTreeClassifier /
DecisionTreeRegressor fitted trees (every node array), predictions, importances, and
cost-complexity pruning paths.

Writes datasets/golden/tree/{classifier,regressor}.json.

scikit-learn casts X to float32 and splits at midpoints of float32 values, so every input here is
float32-representable: the embedded data sets are rounded to float32 (the Rust tests do the same:
`x.mapv(|v| v as f32 as f64)`), the generated ones are drawn as float32.

Every case records "random_state" and "tie_free": whether the tree is the same for random_state
0..7 (the seed only orders the features a node visits, so it changes the tree exactly when two
splits tie). ndlearn reproduces scikit-learn's random streams (NumPy's MT19937 seeding and the
splitter's xorshift), so trees must match on the cases with ties as well.

Generated data (numpy default_rng, seeds below) is stored in the cases; embedded data sets are
referred to by name.
"""

from __future__ import annotations

import warnings

import numpy as np
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from common import load_dataset, write_json

SEEDS = range(8)


def f32(x):
    return np.asarray(x, dtype=np.float32).astype(np.float64)


def gen_classification():
    rng = np.random.default_rng(20261127)
    n, d = 240, 5
    x = f32(rng.standard_normal((n, d)))
    score = x[:, 0] + 0.8 * np.sin(2.0 * x[:, 1]) - 0.6 * x[:, 2] * x[:, 3]
    score += 0.4 * rng.standard_normal(n)
    y = np.digitize(score, np.quantile(score, [1 / 3, 2 / 3])).astype(np.int64)
    return x, y


def gen_regression():
    rng = np.random.default_rng(20261128)
    n, d = 200, 4
    x = f32(rng.standard_normal((n, d)))
    y = 2.0 * x[:, 0] + np.sin(3.0 * x[:, 1]) + x[:, 2] * x[:, 3] + 0.3 * rng.standard_normal(n)
    y2 = np.cos(x[:, 0]) - x[:, 3] + 0.2 * rng.standard_normal(n)
    counts = rng.poisson(np.exp(0.5 * x[:, 0] - 0.3 * x[:, 1] + 0.5)).astype(np.float64)
    return x, y, np.column_stack([y, y2]), counts


def tree_arrays(m):
    t = m.tree_
    return dict(
        node_count=int(t.node_count),
        children_left=t.children_left.astype(np.int64),
        children_right=t.children_right.astype(np.int64),
        feature=t.feature.astype(np.int64),
        threshold=t.threshold,
        impurity=t.impurity,
        n_node_samples=t.n_node_samples.astype(np.int64),
        weighted_n_node_samples=t.weighted_n_node_samples,
        value=t.value.reshape(t.node_count, -1),
        max_depth=int(m.get_depth()),
        n_leaves=int(m.get_n_leaves()),
        feature_importances=m.feature_importances_,
    )


def same_tree(a, b):
    ta, tb = a.tree_, b.tree_
    return (
        ta.node_count == tb.node_count
        and np.array_equal(ta.feature, tb.feature)
        and np.array_equal(ta.threshold, tb.threshold)
        and np.array_equal(ta.children_left, tb.children_left)
    )


def tie_free(cls, params, x, y, w, seed):
    fits = [cls(random_state=s, **params).fit(x, y, sample_weight=w) for s in SEEDS]
    ok = all(same_tree(fits[0], f) for f in fits[1:])
    return ok, cls(random_state=seed, **params).fit(x, y, sample_weight=w)


def classifier_cases(skipped):
    xg, yg = gen_classification()
    data = {
        "iris": load_dataset("iris")[:2],
        "wine": load_dataset("wine")[:2],
        "breast_cancer": load_dataset("breast_cancer")[:2],
        "generated": (xg, yg),
    }
    settings = [
        ("default", {}),
        ("entropy", {"criterion": "entropy"}),
        ("depth3", {"max_depth": 3}),
        ("leaf5", {"min_samples_leaf": 5}),
        ("split10", {"min_samples_split": 10}),
        ("leaf_frac", {"min_samples_leaf": 0.03}),
        ("leaves8", {"max_leaf_nodes": 8}),
        ("leaves8_entropy", {"max_leaf_nodes": 8, "criterion": "entropy"}),
        ("decrease", {"min_impurity_decrease": 0.01}),
        ("weight_frac", {"min_weight_fraction_leaf": 0.05}),
        ("balanced", {"class_weight": "balanced"}),
        ("weighted", {}),
        ("ccp", {"ccp_alpha": 0.01}),
    ]
    cases = {}
    for ds, (x, y) in data.items():
        x = f32(x)
        for j, (name, params) in enumerate(settings):
            w = 0.5 + (np.arange(len(y)) % 3) if name == "weighted" else None
            seed = j % 5
            ok, m = tie_free(DecisionTreeClassifier, params, x, y, w, seed)
            key = f"{ds}_{name}"
            if not ok:
                skipped.append(key)
            case = dict(dataset=ds, params=params, random_state=seed, tie_free=int(ok),
                        **tree_arrays(m))
            if ds == "generated":
                case["x"] = x
                case["y"] = y
            if w is not None:
                case["sample_weight"] = w
            case["proba"] = m.predict_proba(x)
            case["pred"] = m.predict(x)
            if name in ("default", "weighted", "balanced"):
                path = DecisionTreeClassifier(random_state=seed, **params).cost_complexity_pruning_path(
                    x, y, sample_weight=w
                )
                case["ccp_alphas"] = path.ccp_alphas
                case["ccp_impurities"] = path.impurities
            cases[key] = case
    return cases


def regressor_cases(skipped):
    xg, yg, y2, counts = gen_regression()
    xd, yd, _ = load_dataset("diabetes")
    from common import diabetes_scaled

    xd = diabetes_scaled(xd)
    settings = [
        ("default", "generated", {}),
        ("depth5", "generated", {"max_depth": 5}),
        ("friedman", "generated", {"criterion": "friedman_mse", "max_depth": 6}),
        ("absolute", "generated", {"criterion": "absolute_error", "max_depth": 4}),
        ("absolute_leaf3", "generated", {"criterion": "absolute_error", "min_samples_leaf": 3, "max_depth": 6}),
        ("poisson", "counts", {"criterion": "poisson", "max_depth": 4}),
        ("leaves12", "generated", {"max_leaf_nodes": 12}),
        ("leaf5", "generated", {"min_samples_leaf": 5}),
        ("decrease", "generated", {"min_impurity_decrease": 0.05}),
        ("weighted", "generated", {"max_depth": 6}),
        ("multi", "multi", {"max_depth": 5}),
        ("ccp", "generated", {"ccp_alpha": 0.02}),
        ("diabetes_default", "diabetes", {}),
        ("diabetes_depth4", "diabetes", {"max_depth": 4}),
        ("diabetes_leaves20", "diabetes", {"max_leaf_nodes": 20}),
        ("diabetes_absolute", "diabetes", {"criterion": "absolute_error", "max_depth": 3}),
        ("diabetes_leaf10", "diabetes", {"min_samples_leaf": 10}),
    ]
    targets = {
        "generated": (xg, yg),
        "counts": (xg, counts),
        "multi": (xg, y2),
        "diabetes": (f32(xd), yd),
    }
    cases = {}
    for j, (name, target, params) in enumerate(settings):
        x, y = targets[target]
        x = f32(x)
        w = 0.5 + (np.arange(len(y)) % 3) if name == "weighted" else None
        seed = j % 5
        ok, m = tie_free(DecisionTreeRegressor, params, x, y, w, seed)
        if not ok:
            skipped.append(name)
        case = dict(target=target, params=params, random_state=seed, tie_free=int(ok),
                    **tree_arrays(m))
        if target != "diabetes" or name == "diabetes_default":
            # (the scaled diabetes features once: the Rust side reads them from this case)
            case["x"] = x
            case["y"] = y
        if w is not None:
            case["sample_weight"] = w
        case["pred"] = m.predict(x)
        if name in ("default", "weighted", "diabetes_default", "poisson"):
            path = DecisionTreeRegressor(random_state=seed, **params).cost_complexity_pruning_path(
                x, y, sample_weight=w
            )
            case["ccp_alphas"] = path.ccp_alphas
            case["ccp_impurities"] = path.impurities
        cases[name] = case
    return cases


def main():
    warnings.simplefilter("ignore", FutureWarning)  # friedman_mse is an alias in 1.9
    skipped = []
    cls = classifier_cases(skipped)
    note_c = "float32-rounded inputs; tie_free = identical trees for random_state 0..7"
    write_json(
        "datasets/golden/tree/classifier.json",
        cls,
        "scripts/golden/tree.py",
        note_c + "; with ties: " + ", ".join(skipped),
    )
    skipped_c = list(skipped)
    skipped.clear()
    reg = regressor_cases(skipped)
    write_json(
        "datasets/golden/tree/regressor.json",
        reg,
        "scripts/golden/tree.py",
        note_c + "; with ties: " + ", ".join(skipped),
    )
    print("classifier cases:", len(cls), "with ties:", len(skipped_c))
    print("regressor cases:", len(reg), "with ties:", len(skipped))


if __name__ == "__main__":
    main()
