#!/usr/bin/env python3
"""Golden reference values for ndlearn-neural's MLPClassifier / MLPRegressor.

Writes datasets/golden/neural/mlp.json.

scikit-learn and ndlearn draw initial weights from different generators, so every parity case
starts both from the *same given weights*: Glorot-uniform draws made here with NumPy (seeded) and
stored in the case (init_coef<l>, init_intercept<l>, scikit-learn's coefs_ layout
fan_in x fan_out). scikit-learn is first fitted with max_iter=1 (to set up its label binarizer
and shapes), then its coefs_ / intercepts_ are overwritten with the given weights, its training
record is reset (loss_curve_ = [], best_loss_ = inf, t_ = 0, no-improvement count 0, optimizer
deleted) and it is fitted again with warm_start=True, shuffle=False and fixed batch sizes: a
deterministic run that ndlearn reproduces from `FittedMLP*::from_weights` + `fit_from`.
Outputs: loss_curve_, n_iter_, final coefs_ / intercepts_, and predict_proba / predict.

partial_* cases call partial_fit on consecutive batches (state after the last call).
lbfgs_* cases run L-BFGS to a tight tolerance (both libraries converge): final loss_.
default_* cases fit scikit-learn's defaults (random_state=0) on train rows i % 4 != 0 and
record the test accuracy / R^2 on rows i % 4 == 0.

Usage:  target/golden-venv/bin/python scripts/golden/neural.py
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.neural_network import MLPClassifier, MLPRegressor

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/neural.py"
NOTE = (
    "MLPClassifier / MLPRegressor from given initial weights (init_coef<l>, init_intercept<l>), "
    "shuffle=False, warm start. x is standardised (mean 0, ddof-0 std 1); y as stored. "
    "coef<l> / intercept<l> are the final weights; loss_curve per epoch."
)

warnings.simplefilter("ignore", ConvergenceWarning)


def standardise(x):
    sd = x.std(axis=0)
    sd[sd == 0] = 1.0
    return (x - x.mean(axis=0)) / sd


def glorot(rng, sizes, activation):
    factor = 2.0 if activation == "logistic" else 6.0
    coefs, intercepts = [], []
    for fan_in, fan_out in zip(sizes[:-1], sizes[1:]):
        bound = np.sqrt(factor / (fan_in + fan_out))
        coefs.append(rng.uniform(-bound, bound, (fan_in, fan_out)))
        intercepts.append(rng.uniform(-bound, bound, fan_out))
    return coefs, intercepts


def run_from(model, x, y, coefs, intercepts):
    """Set up `model` (max_iter=1 fit), overwrite its weights and fit again (warm start)."""
    max_iter = model.max_iter
    model.set_params(max_iter=1, warm_start=False)
    model.fit(x, y)
    model.coefs_ = [c.copy() for c in coefs]
    model.intercepts_ = [b.copy() for b in intercepts]
    model.loss_curve_ = []
    model.best_loss_ = np.inf
    model.t_ = 0
    model._no_improvement_count = 0
    if hasattr(model, "_optimizer"):
        del model._optimizer
    model.set_params(max_iter=max_iter, warm_start=True)
    model.fit(x, y)
    return model


def record(case, model, x, classifier):
    for l, (c, b) in enumerate(zip(model.coefs_, model.intercepts_)):
        case[f"coef{l}"] = c
        case[f"intercept{l}"] = b
    if hasattr(model, "loss_curve_"):
        case["loss_curve"] = np.asarray(model.loss_curve_)
    case["loss"] = float(model.loss_)
    case["n_iter"] = int(model.n_iter_)
    if classifier:
        case["proba"] = model.predict_proba(x)
    else:
        case["predict"] = np.asarray(model.predict(x)).reshape(len(x), -1)


def parity_case(name, cases, est, x, y, sizes, seed, data, **params):
    classifier = est is MLPClassifier
    rng = np.random.default_rng(seed)
    coefs, intercepts = glorot(rng, sizes, params.get("activation", "relu"))
    model = est(hidden_layer_sizes=tuple(sizes[1:-1]), shuffle=False, random_state=0, **params)
    model = run_from(model, x, y, coefs, intercepts)
    case = {"data": data, "hidden": list(sizes[1:-1])}
    case.update({k: (int(v) if isinstance(v, bool) else v) for k, v in params.items()})
    for l, (c, b) in enumerate(zip(coefs, intercepts)):
        case[f"init_coef{l}"] = c
        case[f"init_intercept{l}"] = b
    record(case, model, x, classifier)
    cases[name] = case


def main():
    cases = {}
    xi, yi, _ = load_dataset("iris")
    xi = standardise(xi)
    xb, yb, _ = load_dataset("breast_cancer")
    xb = standardise(xb)
    xd, yd, _ = load_dataset("diabetes")
    xd = standardise(xd)
    yd = (yd - yd.mean()) / yd.std()
    rng = np.random.default_rng(7)
    xm = rng.normal(size=(60, 3))
    ym = np.column_stack([np.sin(xm[:, 0]) + 0.5 * xm[:, 1], xm[:, 2] ** 2 - 1.0])
    yl = np.column_stack([xm[:, 0] > 0, xm[:, 1] + xm[:, 2] > 0, xm[:, 0] * xm[:, 1] > 0]).astype(int)
    cases["data_iris"] = {"x": xi, "y": yi.astype(int)}
    cases["data_breast_cancer"] = {"x": xb, "y": yb.astype(int)}
    cases["data_diabetes"] = {"x": xd, "y": yd}
    cases["data_multi"] = {"x": xm, "y": ym, "labels": yl}

    common = dict(tol=0.0, n_iter_no_change=1000, max_iter=5)
    n_i = len(xi)
    parity_case("iris_sgd_full_batch", cases, MLPClassifier, xi, yi, [4, 6, 3], 1, "iris",
                activation="tanh", solver="sgd", learning_rate_init=0.1, batch_size=n_i,
                alpha=1e-3, **common)
    parity_case("iris_sgd_momentum_invscaling", cases, MLPClassifier, xi, yi, [4, 5, 4, 3], 2, "iris",
                activation="relu", solver="sgd", learning_rate="invscaling", learning_rate_init=0.2,
                power_t=0.3, momentum=0.5, nesterovs_momentum=False, batch_size=32,
                alpha=1e-4, **common)
    parity_case("iris_adam_batches", cases, MLPClassifier, xi, yi, [4, 8, 3], 3, "iris",
                activation="logistic", solver="adam", learning_rate_init=0.01, batch_size=50,
                alpha=1e-2, **common)
    parity_case("breast_cancer_sgd_binary", cases, MLPClassifier, xb, yb, [30, 10, 1], 4,
                "breast_cancer", activation="relu", solver="sgd", learning_rate_init=0.01,
                batch_size=100, alpha=1e-4, **common)
    parity_case("breast_cancer_adam_binary", cases, MLPClassifier, xb, yb, [30, 7, 1], 5,
                "breast_cancer", activation="tanh", solver="adam", learning_rate_init=0.003,
                batch_size=128, alpha=1e-3, **common)
    parity_case("diabetes_adam", cases, MLPRegressor, xd, yd, [10, 12, 1], 6, "diabetes",
                activation="relu", solver="adam", learning_rate_init=0.01, batch_size=100,
                alpha=1e-3, **common)
    parity_case("diabetes_sgd_nesterov", cases, MLPRegressor, xd, yd, [10, 8, 8, 1], 7, "diabetes",
                activation="tanh", solver="sgd", learning_rate_init=0.01, batch_size=64,
                alpha=1e-4, **common)
    parity_case("multi_output_sgd", cases, MLPRegressor, xm, ym, [3, 6, 2], 8, "multi",
                activation="tanh", solver="sgd", learning_rate_init=0.05, batch_size=20,
                alpha=1e-3, **common)
    parity_case("multilabel_adam", cases, MLPClassifier, xm, yl, [3, 6, 3], 9, "multi",
                activation="relu", solver="adam", learning_rate_init=0.02, batch_size=25,
                alpha=1e-4, **common)
    parity_case("iris_adaptive_plateau", cases, MLPClassifier, xi, yi, [4, 3, 3], 10, "iris",
                activation="tanh", solver="sgd", learning_rate="adaptive", learning_rate_init=0.5,
                momentum=0.9, batch_size=n_i, alpha=1e-4, tol=1e-2, n_iter_no_change=2,
                max_iter=40)
    # L-BFGS to a tight tolerance: final loss (both converge; same start).
    parity_case("lbfgs_regression", cases, MLPRegressor, xm, ym[:, 0], [3, 4, 1], 11, "multi",
                activation="tanh", solver="lbfgs", alpha=1.0, tol=1e-12, max_iter=5000)
    parity_case("lbfgs_iris", cases, MLPClassifier, xi, yi, [4, 3, 3], 12, "iris",
                activation="tanh", solver="lbfgs", alpha=3.0, tol=1e-12, max_iter=5000)

    # partial_fit: three consecutive batches of diabetes from given weights.
    rng = np.random.default_rng(13)
    coefs, intercepts = glorot(rng, [10, 5, 1], "relu")
    model = MLPRegressor(hidden_layer_sizes=(5,), solver="sgd", learning_rate_init=0.01,
                         batch_size=40, shuffle=False, alpha=1e-4, random_state=0)
    model.partial_fit(xd[:10], yd[:10])
    model.coefs_ = [c.copy() for c in coefs]
    model.intercepts_ = [b.copy() for b in intercepts]
    model.loss_curve_ = []
    model.best_loss_ = np.inf
    model.t_ = 0
    model._no_improvement_count = 0
    del model._optimizer
    for lo, hi in [(0, 150), (150, 300), (300, 442)]:
        model.partial_fit(xd[lo:hi], yd[lo:hi])
    case = {"data": "diabetes", "hidden": [5], "solver": "sgd", "learning_rate_init": 0.01,
            "batch_size": 40, "alpha": 1e-4, "bounds": [0, 150, 300, 442]}
    for l, (c, b) in enumerate(zip(coefs, intercepts)):
        case[f"init_coef{l}"] = c
        case[f"init_intercept{l}"] = b
    record(case, model, xd, False)
    cases["partial_diabetes_sgd"] = case

    # Defaults end to end (held-out rows i % 4 == 0).
    xdig, ydig, _ = load_dataset("digits")
    for name, x, y, est in [("digits", xdig / 16.0, ydig, MLPClassifier),
                            ("breast_cancer", xb, yb, MLPClassifier),
                            ("diabetes", xd, yd, MLPRegressor)]:
        test = np.arange(len(x)) % 4 == 0
        m = est(random_state=0).fit(x[~test], y[~test])
        cases[f"default_{name}"] = {"data": name, "score": float(m.score(x[test], y[test])),
                                    "n_test": int(test.sum())}

    write_json(GOLDEN_DIR / "neural" / "mlp.json", cases, GENERATOR, NOTE)


if __name__ == "__main__":
    main()
