#!/usr/bin/env python3
"""Golden reference values for ndlearn-linear's polynomial regression.

Writes datasets/golden/linear/polynomial.json: scikit-learn
make_pipeline(PolynomialFeatures(degree, include_bias, interaction_only),
LinearRegression(fit_intercept) or Ridge(alpha, fit_intercept)) on 1-D and 2-D problems:
the final estimator's coef_ (one entry per expanded column, bias column included) and
intercept_, and the pipeline's predictions on new raw inputs. Each case is cross-checked
against a direct numpy least-squares / ridge solve on the expanded design, and stores the
condition number of the centred design (the Rust test derives its tolerance from it).

Usage:  target/golden-venv/bin/python scripts/golden/linear_polynomial.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.linear_model import LinearRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import PolynomialFeatures

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, write_json  # noqa: E402

GENERATOR = "scripts/golden/linear_polynomial.py"

NOTE = (
    "make_pipeline(PolynomialFeatures(degree, include_bias, interaction_only), "
    "LinearRegression(fit_intercept) if alpha == 0 else Ridge(alpha, fit_intercept)). Inputs "
    "x, y, x_new, degree, alpha, include_bias / fit_intercept / interaction_only (0/1); "
    "outputs coef (final estimator's coef_, one per expanded column), intercept, pred "
    "(pipeline.predict(x_new)), cond (2-norm condition number of the design the solver sees: "
    "centred expanded features, bias column dropped, when fit_intercept); tol (present only "
    "when set: LinearRegression(tol=...), scipy lstsq's relative singular-value cut; "
    "scikit-learn's default 1e-6 would truncate the order-9 interpolation problem)."
)


def case(x, y, x_new, degree, alpha=0.0, include_bias=True, fit_intercept=True,
         interaction_only=False, tol=None):
    feats = PolynomialFeatures(degree, include_bias=include_bias,
                               interaction_only=interaction_only)
    ols_kw = {} if tol is None else {"tol": tol}
    reg = (LinearRegression(fit_intercept=fit_intercept, **ols_kw) if alpha == 0
           else Ridge(alpha=alpha, fit_intercept=fit_intercept))
    pipe = make_pipeline(feats, reg).fit(x, y)
    fitted = pipe[-1]
    phi = pipe[0].transform(x)
    if fit_intercept:
        keep = phi.std(axis=0) > 0
        a = phi[:, keep] - phi[:, keep].mean(axis=0)
        yc = y - y.mean()
    else:
        keep = np.ones(phi.shape[1], dtype=bool)
        a, yc = phi, y
    if alpha == 0:
        w = np.linalg.lstsq(a, yc, rcond=None)[0]
    else:
        w = np.linalg.solve(a.T @ a + alpha * np.eye(a.shape[1]), a.T @ yc)
    cond = np.linalg.cond(a)
    scale = np.abs(w).max()
    tol = max(1e-12, 1e-15 * cond)
    assert np.allclose(fitted.coef_[keep], w, rtol=tol * 10, atol=tol * 10 * scale), (cond,)
    assert np.all(fitted.coef_[~keep] == 0.0)
    if alpha == 0 and tol is None:
        # scikit-learn's default LinearRegression(tol=1e-6) drops singular values below
        # 1e-6·σ_max; the default cases must be far from that cut.
        assert cond < 1e5, cond
    out = {"x": x, "y": y, "x_new": x_new, "degree": degree, "alpha": float(alpha),
            "include_bias": int(include_bias), "fit_intercept": int(fit_intercept),
            "interaction_only": int(interaction_only), "coef": fitted.coef_,
            "intercept": float(fitted.intercept_), "pred": pipe.predict(x_new),
            "cond": float(cond)}
    if tol is not None:
        out["tol"] = float(tol)
    return out


def cases():
    out = {}
    rng = np.random.default_rng(20261125)
    # 1-D: the notes' sin(2πx) + noise curve-fitting problem.
    x = rng.uniform(0.0, 1.0, (30, 1))
    y = np.sin(2 * np.pi * x[:, 0]) + 0.2 * rng.standard_normal(30)
    xn = np.linspace(-0.1, 1.1, 13)[:, None]
    out["d1_deg3_ols"] = case(x, y, xn, 3)
    out["d1_deg5_ridge"] = case(x, y, xn, 5, alpha=1e-3)
    out["d1_deg4_ols_no_intercept"] = case(x, y, xn, 4, fit_intercept=False)
    out["d1_deg3_ridge_no_bias"] = case(x, y, xn, 3, alpha=0.5, include_bias=False)
    # 10 points, order 9: interpolation (the notes' over-fitting example).
    x10 = np.linspace(0.0, 1.0, 10)[:, None]
    y10 = np.sin(2 * np.pi * x10[:, 0]) + 0.3 * rng.standard_normal(10)
    # LinearRegression(tol=1e-6), the default, would cut the smallest singular value of this
    # design (condition ~1e7) and not interpolate; tol=1e-13 keeps every direction, the exact
    # least-squares solution that ndlearn computes (machine-precision cut).
    out["d1_deg9_interpolation"] = case(x10, y10, xn, 9, tol=1e-13)
    # 2-D.
    x2 = rng.standard_normal((60, 2))
    y2 = (1.0 + x2[:, 0] - 2.0 * x2[:, 1] + 0.5 * x2[:, 0] * x2[:, 1] - 0.3 * x2[:, 1] ** 3
          + 0.1 * rng.standard_normal(60))
    x2n = rng.standard_normal((8, 2))
    out["d2_deg3_ols"] = case(x2, y2, x2n, 3)
    out["d2_deg2_ridge"] = case(x2, y2, x2n, 2, alpha=2.0)
    out["d2_deg3_interaction_ols"] = case(x2, y2, x2n, 3, interaction_only=True)
    return out


def main():
    path = write_json(GOLDEN_DIR / "linear" / "polynomial.json", cases(), GENERATOR, NOTE)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
