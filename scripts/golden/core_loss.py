#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::loss, ndlearn_core::numeric and the order
statistics of ndlearn_core::stats (quantile, weighted percentile / median).

Writes datasets/golden/core/loss.json. Every case stores its inputs next to the outputs.

* loss_<name>: scikit-learn's `sklearn._loss` classes (HalfSquaredError, AbsoluteError,
  PinballLoss, HuberLoss, HalfPoissonLoss, HalfGammaLoss, HalfBinomialLoss, ExponentialLoss):
  pointwise loss, gradient and hessian (`gradient_hessian`) at (y, raw), with and without
  sample weights, and `fit_intercept_only` (unweighted and weighted).
* sgd_<name>: scikit-learn's SGD losses (`sklearn.linear_model._sgd_fast`: Hinge(threshold),
  SquaredHinge(threshold), ModifiedHuber, EpsilonInsensitive, SquaredEpsilonInsensitive):
  `py_loss(p, y)` and `py_dloss(p, y)` (y in {-1, +1} for the classification losses).
* multinomial_*: HalfMultinomialLoss(n_classes): loss, gradient, hessian (diagonal) per row,
  fit_intercept_only.
* numeric_*: scipy.special.expit, log_expit (log sigmoid), logsumexp, softmax, log_softmax on
  rows with extreme values.
* wpct_*: sklearn.utils.stats._weighted_percentile(a, w, rank, average) for several arrays
  with ties and zero weights.
* quantile_*: numpy.quantile(a, q) (method "linear", numpy's default).

Usage:  target/golden-venv/bin/python scripts/golden/core_loss.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.special as sp
from sklearn._loss import loss as L
from sklearn.linear_model import _sgd_fast as sgd
from sklearn.utils.stats import _weighted_percentile

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_loss.py"
OUT = GOLDEN_DIR / "core" / "loss.json"
NOTE = (
    "loss_*: sklearn._loss.<Class>(...).loss / gradient_hessian at (y, raw) (pointwise, "
    "sample_weight w multiplies each entry in the *_w fields), fit_intercept_only(y) and "
    "(y, w); sgd_*: sklearn.linear_model._sgd_fast.<Class>.py_loss(p, y), py_dloss(p, y); "
    "multinomial_*: HalfMultinomialLoss; numeric_*: scipy.special; wpct_*: "
    "sklearn.utils.stats._weighted_percentile(a, w, rank, average); quantile_*: numpy.quantile "
    "(linear)."
)

RNG = np.random.default_rng(20261126)


def raw_grid():
    """Raw scores covering every branch of the stable formulas (the log1pexp cut-offs at -37,
    -2, 18 and 33.3 included) plus random values."""
    fixed = np.array(
        [-800.0, -60.0, -37.5, -37.0, -36.9, -20.0, -2.5, -2.0, -1.9, -0.5, 0.0, 1e-9, 0.3,
         1.0, 2.0, 17.9, 18.0, 18.1, 30.0, 33.3, 33.4, 50.0, 700.0]
    )
    return np.concatenate([fixed, RNG.normal(0.0, 3.0, 17)])


def regression_cases(cases):
    raw = raw_grid()
    n = raw.size
    y_real = RNG.normal(0.0, 2.0, n)
    # Make some residuals exactly 0 / on the Huber and pinball kinks.
    y_real[5] = raw[5]
    y_real[10] = raw[10] + 0.5  # |r| = delta for Huber(delta = 0.5)
    y_pos = RNG.gamma(2.0, 1.5, n)
    y_nonneg = RNG.poisson(2.0, n).astype(float)
    y01 = (RNG.random(n) < 0.4).astype(float)
    w = RNG.uniform(0.1, 3.0, n)
    w[3] = 0.0
    defs = [
        ("squared_error", L.HalfSquaredError(), y_real, {}),
        ("absolute_error", L.AbsoluteError(), y_real, {}),
        ("pinball_q0.3", L.PinballLoss(quantile=0.3), y_real, {"quantile": 0.3}),
        ("pinball_q0.9", L.PinballLoss(quantile=0.9), y_real, {"quantile": 0.9}),
        ("huber_d0.5", L.HuberLoss(quantile=0.9, delta=0.5), y_real, {"delta": 0.5}),
        ("poisson", L.HalfPoissonLoss(), y_nonneg, {}),
        ("gamma", L.HalfGammaLoss(), y_pos, {}),
        ("log_loss", L.HalfBinomialLoss(), y01, {}),
        ("exponential", L.ExponentialLoss(), y01, {}),
    ]
    for name, loss, y, params in defs:
        # The log-link losses overflow for raw = 700 in the squared terms of a few; keep the
        # grid where scikit-learn's values are finite.
        r = raw if name not in ("poisson", "gamma", "exponential") else np.clip(raw, -50, 50)
        value = loss.loss(y_true=y, raw_prediction=r)
        g, h = loss.gradient_hessian(y_true=y, raw_prediction=r)
        g_only = loss.gradient(y_true=y, raw_prediction=r)
        assert np.array_equal(g, g_only), name
        value_w = loss.loss(y_true=y, raw_prediction=r, sample_weight=w)
        gw, hw = loss.gradient_hessian(y_true=y, raw_prediction=r, sample_weight=w)
        case = {
            "y": y,
            "raw": r,
            "w": w,
            "value": value,
            "gradient": g,
            "hessian": h,
            "value_w": value_w,
            "gradient_w": gw,
            "hessian_w": hw,
            "mean_w": float(loss(y_true=y, raw_prediction=r, sample_weight=w)),
            "mean": float(loss(y_true=y, raw_prediction=r)),
            "intercept": float(loss.fit_intercept_only(y)),
            "intercept_w": float(loss.fit_intercept_only(y, sample_weight=w)),
        }
        case.update({k: float(v) for k, v in params.items()})
        cases[f"loss_{name}"] = case


def sgd_cases(cases):
    p = np.concatenate([[-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0], RNG.normal(0, 1.5, 13)])
    y_pm = np.where(RNG.random(p.size) < 0.5, -1.0, 1.0)
    y_real = p + RNG.normal(0, 0.8, p.size)
    y_real[:3] = p[:3] + np.array([0.1, -0.1, 0.0])  # on / inside the epsilon tube
    defs = [
        ("hinge_t1", sgd.Hinge(1.0), y_pm, {"threshold": 1.0}),
        ("hinge_t0", sgd.Hinge(0.0), y_pm, {"threshold": 0.0}),
        ("squared_hinge_t1", sgd.SquaredHinge(1.0), y_pm, {"threshold": 1.0}),
        ("modified_huber", sgd.ModifiedHuber(), y_pm, {}),
        ("epsilon_insensitive", sgd.EpsilonInsensitive(0.1), y_real, {"epsilon": 0.1}),
        (
            "squared_epsilon_insensitive",
            sgd.SquaredEpsilonInsensitive(0.1),
            y_real,
            {"epsilon": 0.1},
        ),
    ]
    for name, loss, y, params in defs:
        value = np.array([loss.py_loss(float(pi), float(yi)) for pi, yi in zip(p, y)])
        grad = np.array([loss.py_dloss(float(pi), float(yi)) for pi, yi in zip(p, y)])
        case = {"y": y, "raw": p, "value": value, "gradient": grad}
        case.update({k: float(v) for k, v in params.items()})
        cases[f"sgd_{name}"] = case


def multinomial_cases(cases):
    k = 4
    n = 12
    raw = RNG.normal(0, 2.0, (n, k))
    raw[0] = [800.0, -800.0, 0.0, 1.0]
    raw[1] = [0.0, 0.0, 0.0, 0.0]
    raw[2] = [-50.0, -50.0, -49.0, -700.0]
    y = RNG.integers(0, k, n).astype(float)
    y[:4] = [0, 1, 2, 3]
    w = RNG.uniform(0.2, 2.0, n)
    loss = L.HalfMultinomialLoss(n_classes=k)
    value = loss.loss(y_true=y, raw_prediction=raw)
    g, h = loss.gradient_hessian(y_true=y, raw_prediction=raw)
    cases["multinomial_k4"] = {
        "y": y.astype(np.int64),
        "raw": raw,
        "w": w,
        "value": value,
        "gradient": g,
        "hessian": h,
        "mean_w": float(loss(y_true=y, raw_prediction=raw, sample_weight=w)),
        "intercept": loss.fit_intercept_only(y),
        "intercept_w": loss.fit_intercept_only(y, sample_weight=w),
        "proba": loss.predict_proba(raw),
    }


def numeric_cases(cases):
    z = raw_grid()
    cases["numeric_sigmoid"] = {"z": z, "sigmoid": sp.expit(z), "log_sigmoid": sp.log_expit(z)}
    rows = np.vstack(
        [
            RNG.normal(0, 3.0, (6, 5)),
            [[1000.0, 999.0, -1000.0, 0.0, 5.0]],
            [[-1000.0, -1001.0, -1002.0, -1003.0, -1004.0]],
            [[0.0, 0.0, 0.0, 0.0, 0.0]],
            [[-745.0, -746.0, -744.0, -800.0, -710.0]],
        ]
    )
    cases["numeric_rows"] = {
        "rows": rows,
        "log_sum_exp": sp.logsumexp(rows, axis=1),
        "softmax": sp.softmax(rows, axis=1),
        "log_softmax": sp.log_softmax(rows, axis=1),
    }


def percentile_cases(cases):
    arrays = {
        "random": (RNG.normal(0, 1, 25), RNG.uniform(0.1, 2.0, 25)),
        "ties": (
            np.array([3.0, 1.0, 2.0, 2.0, 2.0, 5.0, 4.0, 4.0, 1.0, 3.0]),
            np.array([1.0, 2.0, 0.5, 0.5, 1.0, 1.0, 3.0, 0.0, 1.0, 1.0]),
        ),
        "zero_weights": (
            np.array([0.5, -1.0, 2.0, 7.0, 3.0, 3.5, -4.0]),
            np.array([0.0, 1.0, 0.0, 2.0, 0.0, 1.0, 0.0]),
        ),
        "unit": (np.arange(1.0, 9.0)[::-1].copy(), np.ones(8)),
        "integer_weights": (
            np.array([10.0, 20.0, 30.0, 40.0]),
            np.array([1.0, 2.0, 3.0, 4.0]),
        ),
    }
    ranks = np.array([0.0, 1.0, 10.0, 25.0, 33.3, 50.0, 60.0, 75.0, 90.0, 99.0, 100.0])
    for name, (a, w) in arrays.items():
        plain = np.array([float(_weighted_percentile(a, w, r)) for r in ranks])
        avg = np.array([float(_weighted_percentile(a, w, r, average=True)) for r in ranks])
        cases[f"wpct_{name}"] = {"a": a, "w": w, "ranks": ranks, "plain": plain, "average": avg}
    for name, a in {
        "random": RNG.normal(0, 1, 17),
        "ties": np.array([1.0, 1.0, 2.0, 3.0, 3.0, 3.0]),
        "single": np.array([4.5]),
    }.items():
        q = np.array([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 0.333])
        cases[f"quantile_{name}"] = {
            "a": a,
            "q": q,
            "linear": np.quantile(a, q),
            "median": float(np.median(a)),
        }


def main():
    cases = {}
    regression_cases(cases)
    sgd_cases(cases)
    multinomial_cases(cases)
    numeric_cases(cases)
    percentile_cases(cases)
    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
