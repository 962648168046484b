#!/usr/bin/env python3
"""Golden reference values for ndlearn's first-order optimisers (core::optim).

Writes datasets/golden/core/optim_first_order.json.  Every case stores its
inputs and the optimum found by an independent scipy / scikit-learn solver;
each optimum is checked against its optimality conditions before writing.

  lasso_*        sklearn.linear_model.Lasso(fit_intercept=False) (coordinate
                 descent) for (1/2n)||y - Xw||^2 + alpha ||w||_1
  logistic_l2    sklearn.linear_model.LogisticRegression(lbfgs, no intercept)
                 with C = 1/(n alpha), i.e. the mean log-loss + (alpha/2)||w||^2
  box_qp         scipy.optimize.minimize(L-BFGS-B) on 1/2 w'Aw - b'w, lo <= w <= hi,
                 polished by solving the reduced system on the active set it found
  ball_qp        1/2 w'Aw - b'w, ||w|| <= r: scipy.optimize.minimize(SLSQP), polished
                 by the secular equation ||(A + mu I)^-1 b|| = r (brentq)
  simplex_*      Euclidean projection on {w >= 0, sum w = z} by root finding
                 (scipy.optimize.brentq on sum max(v - theta, 0) = z), an
                 algorithm independent of the sort-based one under test

Usage:  target/golden-venv/bin/python scripts/golden/core_optim_first_order.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.optimize
from sklearn.linear_model import Lasso, LogisticRegression

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_optim_first_order.py"
OUT = GOLDEN_DIR / "core" / "optim_first_order.json"

NOTE = (
    "Matrices are row-major lists of rows; inputs are stored with each case. "
    "Labels of logistic_l2 are 0/1 floats. Each optimum was checked against its "
    "optimality conditions (lasso subgradient conditions, gradient norm, KKT of the "
    "box / ball problems, sum and non-negativity of the projection)."
)


def lasso_case(seed: int, n: int, d: int, alpha: float) -> dict:
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, d))
    w_true = np.zeros(d)
    w_true[: d // 2] = rng.uniform(-2, 2, d // 2)
    y = x @ w_true + 0.1 * rng.standard_normal(n)
    model = Lasso(alpha=alpha, fit_intercept=False, tol=1e-14, max_iter=1_000_000)
    model.fit(x, y)
    w = model.coef_
    c = x.T @ (y - x @ w) / n
    on = w != 0
    assert np.all(np.abs(c[on] - alpha * np.sign(w[on])) < 1e-10), "lasso KKT (support)"
    assert np.all(np.abs(c[~on]) <= alpha + 1e-10), "lasso KKT (zeros)"
    return {"x": x, "y": y, "alpha": alpha, "coef": w}


def logistic_case(seed: int, n: int, alpha: float) -> dict:
    rng = np.random.default_rng(seed)
    x = np.column_stack([rng.uniform(-2, 2, (n, 2)), np.ones(n)])
    y = (x[:, 0] - x[:, 1] + 0.3 > 0).astype(np.float64)
    flip = rng.uniform(size=n) < 0.1
    y[flip] = 1.0 - y[flip]
    model = LogisticRegression(
        C=1.0 / (n * alpha), fit_intercept=False, tol=1e-12, max_iter=100_000
    )
    model.fit(x, y.astype(np.int64))
    w = model.coef_.ravel()
    p = 1.0 / (1.0 + np.exp(-(x @ w)))
    grad = x.T @ (p - y) / n + alpha * w
    assert np.linalg.norm(grad) < 1e-9, f"logistic gradient {np.linalg.norm(grad)}"
    return {"x": x, "y": y, "alpha": alpha, "coef": w}


def spd(rng, d: int) -> np.ndarray:
    m = rng.standard_normal((d, d))
    a = m @ m.T + d * np.eye(d)
    return (a + a.T) / 2


def box_case(seed: int, d: int) -> dict:
    rng = np.random.default_rng(seed)
    a = spd(rng, d)
    b = rng.uniform(-10, 10, d)
    lo = rng.uniform(-1.0, -0.2, d)
    hi = rng.uniform(0.2, 1.0, d)
    res = scipy.optimize.minimize(
        lambda w: 0.5 * w @ a @ w - b @ w,
        np.zeros(d),
        jac=lambda w: a @ w - b,
        method="L-BFGS-B",
        bounds=list(zip(lo, hi)),
        options={"ftol": 1e-16, "gtol": 1e-12, "maxiter": 100_000},
    )
    # Polish: keep the active set L-BFGS-B found and solve the reduced system exactly.
    w = np.clip(res.x, lo, hi)
    free = (w > lo + 1e-6) & (w < hi - 1e-6)
    w[~free] = np.where(np.abs(w[~free] - lo[~free]) < np.abs(w[~free] - hi[~free]), lo[~free], hi[~free])
    rhs = b[free] - a[np.ix_(free, ~free)] @ w[~free]
    w[free] = np.linalg.solve(a[np.ix_(free, free)], rhs)
    assert np.linalg.norm(w - res.x) < 1e-5, "polish stays next to L-BFGS-B's answer"
    g = a @ w - b
    # Projected-gradient residual ||w - clip(w - g)|| is the KKT measure.
    r = np.linalg.norm(w - np.clip(w - g, lo, hi))
    assert r < 1e-12, f"box KKT residual {r}"
    assert 0 < free.sum() < d, "some bounds active, some not"
    return {"a": a, "b": b, "lo": lo, "hi": hi, "x": w}


def ball_case(seed: int, d: int, radius: float) -> dict:
    rng = np.random.default_rng(seed)
    a = spd(rng, d)
    b = rng.uniform(-10, 10, d)
    assert np.linalg.norm(np.linalg.solve(a, b)) > radius, "constraint must be active"
    res = scipy.optimize.minimize(
        lambda w: 0.5 * w @ a @ w - b @ w,
        np.zeros(d),
        jac=lambda w: a @ w - b,
        method="SLSQP",
        constraints=[
            {
                "type": "ineq",
                "fun": lambda w: radius**2 - w @ w,
                "jac": lambda w: -2.0 * w,
            }
        ],
        options={"ftol": 1e-15, "maxiter": 10_000},
    )
    # Polish: w(mu) = (A + mu I)^-1 b with ||w(mu)|| = r (the secular equation), by brentq.
    eye = np.eye(d)

    def gap(mu):
        return np.linalg.norm(np.linalg.solve(a + mu * eye, b)) - radius

    mu = scipy.optimize.brentq(gap, 0.0, np.linalg.norm(b) / radius, xtol=1e-15, rtol=1e-15)
    w = np.linalg.solve(a + mu * eye, b)
    assert np.linalg.norm(w - res.x) < 1e-6, "SLSQP agrees with the secular equation"
    g = a @ w - b
    assert abs(np.linalg.norm(w) - radius) < 1e-12, "ball constraint active"
    assert mu > 0 and np.linalg.norm(g + mu * w) < 1e-12, "ball KKT"
    return {"a": a, "b": b, "radius": radius, "x": w, "mu": mu}


def simplex_case(seed: int, d: int, z: float) -> dict:
    rng = np.random.default_rng(seed)
    v = rng.uniform(-2, 2, d)

    def excess(theta):
        return np.maximum(v - theta, 0.0).sum() - z

    lo, hi = v.min() - z, v.max()
    theta = scipy.optimize.brentq(excess, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps)
    p = np.maximum(v - theta, 0.0)
    assert abs(p.sum() - z) < 1e-12 and np.all(p >= 0)
    return {"v": v, "z": z, "p": p}


def main() -> None:
    cases = {
        "lasso_small": lasso_case(11, 40, 8, 0.1),
        "lasso_wide": lasso_case(12, 20, 30, 0.05),
        "logistic_l2": logistic_case(13, 80, 0.05),
        "box_qp": box_case(14, 6),
        "ball_qp": ball_case(15, 5, 1.0),
        "simplex_d7": simplex_case(16, 7, 1.0),
        "simplex_d25": simplex_case(17, 25, 3.0),
    }
    write_json(OUT, cases, GENERATOR, NOTE)


if __name__ == "__main__":
    main()
