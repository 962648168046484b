#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::model_selection.

Writes datasets/golden/core/model_selection.json with these case families:

* kfold_*            KFold(n_splits=k) (unshuffled) test folds for n samples.
* skfold_*           StratifiedKFold(n_splits=k) (unshuffled) test folds for a label vector
                     (iris, wine, imbalanced labels in shuffled order, one class < k members).
* tts_*              train_test_split sizes for (n, test_size, train_size); raises = 1 when
                     scikit-learn raises ValueError.
* strat_*            train_test_split(stratify=y) per-class train/test counts; only cases
                     whose counts are identical for 25 random states (no remainder ties) are
                     kept, so the counts are a property of the allocation, not of the generator.
* cvs_nearest_centroid_*  cross_val_score(NearestCentroid(), X, y, cv) on iris (KFold(5)) and
                     wine (StratifiedKFold(5)); accuracy per fold. Every test point's nearest
                     centroid beats the runner-up by a relative margin > 1e-9.
* grid_ridge_*       GridSearchCV(Ridge(fit_intercept=...), {"alpha": alphas}, cv=KFold(5))
                     on scaled diabetes, scoring R^2: split scores, mean, std (ddof 0), rank,
                     best index.
* lc_ridge           learning_curve(Ridge(alpha=1), diabetes, cv=KFold(5)) with the default
                     train sizes: absolute sizes, train/test R^2 (sizes x splits).
* vc_ridge           validation_curve(Ridge(), diabetes, "alpha", alphas, cv=KFold(5)).

Fold index sets are stored flat: test_indices = concatenation of the test folds (each
ascending), fold_sizes = their lengths. Matrices are row-major.

Usage:  target/golden-venv/bin/python scripts/golden/core_model_selection.py
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.linear_model import Ridge
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    StratifiedKFold,
    cross_val_score,
    learning_curve,
    train_test_split,
    validation_curve,
)
from sklearn.neighbors import NearestCentroid

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, diabetes_scaled, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_model_selection.py"
OUT = GOLDEN_DIR / "core" / "model_selection.json"

NOTE = (
    "KFold / StratifiedKFold unshuffled: test_indices is the concatenation of the test folds "
    "(ascending within each fold), fold_sizes their lengths. tts_*: train_test_split sizes; "
    "test_kind/train_kind are fraction, count or none; raises = 1 when scikit-learn raises. "
    "strat_*: per-class counts (classes ascending) of train_test_split(stratify=y), identical "
    "for 25 random states. cvs_*: NearestCentroid accuracy per fold. grid_ridge_*: "
    "GridSearchCV(Ridge) R^2 per (candidate, split), mean, std (ddof 0), rank (min method), "
    "best_index; grid_ridge_intercept uses load_diabetes(scaled=True), grid_ridge_no_intercept the columns standardised with ddof 0 and y - mean(y). lc_ridge / vc_ridge: learning and "
    "validation curves of Ridge with KFold(5), R^2."
)


def folds_case(splits):
    tests = [np.sort(te) for _, te in splits]
    return {
        "test_indices": np.concatenate(tests).astype(np.int64),
        "fold_sizes": np.array([len(t) for t in tests], dtype=np.int64),
    }


def imbalanced_labels():
    rng = np.random.default_rng(20240601)
    y = np.repeat(np.arange(4), [60, 25, 8, 3])
    return rng.permutation(y)


def kfold_cases(cases):
    for n, k in [(150, 5), (178, 10), (10, 3), (7, 7), (23, 4)]:
        c = folds_case(KFold(n_splits=k).split(np.zeros((n, 1))))
        c.update({"n": n, "k": k})
        cases[f"kfold_n{n}_k{k}"] = c


def skfold_cases(cases):
    _, y_iris, _ = load_dataset("iris")
    _, y_wine, _ = load_dataset("wine")
    label_sets = {
        "iris": y_iris,
        "wine": y_wine,
        "imbalanced": imbalanced_labels(),
        "wine_reversed": y_wine[::-1].copy(),
    }
    for name, y in label_sets.items():
        for k in (3, 5, 10):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", UserWarning)  # a class smaller than k
                splits = list(StratifiedKFold(n_splits=k).split(np.zeros((len(y), 1)), y))
            c = folds_case(splits)
            c.update({"y": y.astype(np.int64), "k": k})
            cases[f"skfold_{name}_k{k}"] = c


def size_spec(v):
    if v is None:
        return "none", 0
    if isinstance(v, float):
        return "fraction", v
    return "count", v


def tts_cases(cases):
    specs = [
        (10, None, None),
        (10, 0.33, None),
        (10, None, 0.67),
        (10, 3, 5),
        (150, 0.2, None),
        (150, 0.3, 0.5),
        (178, 0.25, None),
        (178, None, 100),
        (7, 0.1, None),
        (1000, 0.333, 0.333),
        (11, 0.5, None),
        (11, None, 0.5),
        # Errors in scikit-learn:
        (10, 0.6, 0.5),
        (10, 6, 5),
        (10, 10, None),
        (10, 0.0, None),
        (10, 1.0, None),
        (1, None, None),
        (3, None, 0.2),
    ]
    for i, (n, test, train) in enumerate(specs):
        tk, tv = size_spec(test)
        rk, rv = size_spec(train)
        case = {"n": n, "test_kind": tk, "test_size": tv, "train_kind": rk, "train_size": rv}
        try:
            tr, te = train_test_split(np.arange(n), test_size=test, train_size=train,
                                      random_state=0)
            case.update({"raises": 0, "n_train": len(tr), "n_test": len(te)})
        except ValueError:
            case.update({"raises": 1, "n_train": 0, "n_test": 0})
        cases[f"tts_{i:02d}"] = case


def strat_cases(cases):
    _, y_iris, _ = load_dataset("iris")
    _, y_wine, _ = load_dataset("wine")
    imb = imbalanced_labels()
    specs = [
        ("iris", y_iris, 0.2, None),
        ("iris", y_iris, 0.33, None),
        ("iris", y_iris, 50, 70),
        ("wine", y_wine, 0.25, None),
        ("wine", y_wine, 0.3, 0.6),
        ("wine", y_wine, 40, None),
        ("imbalanced", imb, 0.2, None),
        ("imbalanced", imb, 0.3, None),
        ("imbalanced", imb, 0.25, 0.5),
        ("imbalanced", imb, 17, None),
        ("imbalanced", imb, 0.1, None),
    ]
    kept = 0
    for name, y, test, train in specs:
        classes = np.unique(y)
        results = set()
        for rs in range(25):
            tr, te = train_test_split(np.arange(len(y)), test_size=test, train_size=train,
                                      random_state=rs, stratify=y)
            tc = tuple(int(np.sum(y[tr] == c)) for c in classes)
            ec = tuple(int(np.sum(y[te] == c)) for c in classes)
            results.add((tc, ec))
        if len(results) != 1:
            print(f"skipping strat {name} {test} {train}: counts depend on the generator")
            continue
        (tc, ec), = results
        tk, tv = size_spec(test)
        rk, rv = size_spec(train)
        cases[f"strat_{name}_{kept:02d}"] = {
            "y": y.astype(np.int64),
            "test_kind": tk,
            "test_size": tv,
            "train_kind": rk,
            "train_size": rv,
            "train_counts": np.array(tc, dtype=np.int64),
            "test_counts": np.array(ec, dtype=np.int64),
        }
        kept += 1
    assert kept >= 8, kept


def nearest_centroid_margin(x_train, y_train, x_test):
    classes = np.unique(y_train)
    cents = np.array([x_train[y_train == c].mean(axis=0) for c in classes])
    d = np.sqrt(((x_test[:, None, :] - cents[None, :, :]) ** 2).sum(axis=2))
    s = np.sort(d, axis=1)
    return float(np.min((s[:, 1] - s[:, 0]) / np.maximum(s[:, 1], 1e-300)))


def cvs_cases(cases):
    for name, cv in [("iris", KFold(n_splits=5)), ("wine", StratifiedKFold(n_splits=5))]:
        x, y, _ = load_dataset(name)
        scores = cross_val_score(NearestCentroid(), x, y, cv=cv)
        for tr, te in cv.split(x, y):
            m = nearest_centroid_margin(x[tr], y[tr], x[te])
            assert m > 1e-9, (name, m)
        cases[f"cvs_nearest_centroid_{name}"] = {
            "x": x,
            "y": y.astype(np.int64),
            "cv": type(cv).__name__,
            "k": 5,
            "scores": scores,
        }


def ridge_cases(cases):
    xr, y, _ = load_dataset("diabetes")
    x = diabetes_scaled(xr)
    # No intercept: standardised columns (ddof 0) and a centred target, so the model without
    # intercept is sensible. Both grids have their best alpha inside the range.
    xz = (xr - xr.mean(axis=0)) / xr.std(axis=0)
    yc = y - y.mean()
    setups = [
        (True, x, y, np.logspace(-5, -1, 9)),
        (False, xz, yc, np.logspace(-2, 3, 11)),
    ]
    for intercept, x, y, alphas in setups:
        gs = GridSearchCV(Ridge(fit_intercept=intercept), {"alpha": alphas}, cv=KFold(5))
        gs.fit(x, y)
        assert 0 < gs.best_index_ < len(alphas) - 1
        r = gs.cv_results_
        split = np.array([r[f"split{s}_test_score"] for s in range(5)]).T
        tag = "intercept" if intercept else "no_intercept"
        cases[f"grid_ridge_{tag}"] = {
            "x": x,
            "y": y,
            "alphas": alphas,
            "fit_intercept": int(intercept),
            "split_test_scores": split,
            "mean_test_score": r["mean_test_score"],
            "std_test_score": r["std_test_score"],
            "rank_test_score": r["rank_test_score"].astype(np.int64),
            "best_index": int(gs.best_index_),
            "best_alpha": float(gs.best_params_["alpha"]),
            "best_coef": gs.best_estimator_.coef_,
            "best_intercept": float(gs.best_estimator_.intercept_),
        }
    x = diabetes_scaled(xr)
    _, y, _ = load_dataset("diabetes")
    sizes, train, test = learning_curve(Ridge(alpha=1.0), x, y, cv=KFold(5))
    cases["lc_ridge"] = {
        "x": x,
        "y": y,
        "alpha": 1.0,
        "train_sizes": sizes.astype(np.int64),
        "train_scores": train,
        "test_scores": test,
    }
    vc_alphas = np.array([1e-2, 0.1, 1.0, 10.0])
    train, test = validation_curve(Ridge(), x, y, param_name="alpha", param_range=vc_alphas,
                                   cv=KFold(5))
    cases["vc_ridge"] = {
        "x": x,
        "y": y,
        "alphas": vc_alphas,
        "train_scores": train,
        "test_scores": test,
    }


def main():
    cases = {}
    kfold_cases(cases)
    skfold_cases(cases)
    tts_cases(cases)
    strat_cases(cases)
    cvs_cases(cases)
    ridge_cases(cases)
    path = write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {path} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
