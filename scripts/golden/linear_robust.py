"""Golden references for robust regression and total least squares (ndlearn-linear).

Writes datasets/golden/linear/robust.json with three families of cases:

* ``huber_*``     HuberRegressor (scikit-learn defaults: tol 1e-5, max_iter 100): coef_,
                  intercept_, scale_, outliers_ (0/1), n_iter_ and the objective
                  Σ(σ + H_ε(r/σ)σ) + α‖w‖² at the returned point; plus a tight reference
                  (``*_ref``): scipy's L-BFGS-B on scikit-learn's own
                  ``_huber_loss_and_gradient`` with gtol 1e-12, ftol 1e-15, maxiter 20000
                  (the same optimum, to many more digits than the default stop).
* ``quantile_*``  QuantileRegressor (solver "highs"): coef_, intercept_, predictions, the
                  objective (1/n) Σ pinball_τ(r) + α‖w‖₁, and for each parameter the range
                  [lo, hi] it takes over the optimal set (two extra LPs per parameter with
                  the objective capped at its optimum): hi − lo ≈ 0 means the parameter is
                  unique.
* ``tls_*``       total least squares from numpy's SVD of the centred [X Y]:
                  W = −V_xy V_yy⁻¹ (the right singular vectors of the k smallest singular
                  values), intercept ȳ − W x̄, singular values.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy import optimize
from scipy.optimize import linprog

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, diabetes_scaled, load_dataset, write_json  # noqa: E402

from sklearn.linear_model import HuberRegressor, QuantileRegressor  # noqa: E402
from sklearn.linear_model._huber import _huber_loss_and_gradient  # noqa: E402

GENERATOR = "scripts/golden/linear_robust.py"
NOTE = (
    "HuberRegressor (defaults and a tight L-BFGS-B reference on sklearn's own objective), "
    "QuantileRegressor (highs; objective, predictions, per-parameter optimal ranges), "
    "total least squares from numpy.linalg.svd of the centred [X Y]."
)


def diabetes():
    x, y, _ = load_dataset("diabetes")
    return diabetes_scaled(x), y


def outlier_set(seed=7, n=120):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, 3))
    y = x @ np.array([2.0, -1.0, 0.5]) + 1.5 + 0.3 * rng.standard_normal(n)
    idx = rng.choice(n, size=n // 10, replace=False)
    y[idx] += rng.choice([-1.0, 1.0], size=idx.size) * (15.0 + 10.0 * rng.random(idx.size))
    return x, y


def huber_objective(x, y, coef, intercept, scale, epsilon, alpha, fit_intercept):
    w = np.concatenate([coef, [intercept] if fit_intercept else [], [scale]])
    loss, _ = _huber_loss_and_gradient(w, x, y, epsilon, alpha, np.ones(x.shape[0]))
    return float(loss)


def huber_case(x, y, epsilon, alpha, fit_intercept=True):
    m = HuberRegressor(epsilon=epsilon, alpha=alpha, fit_intercept=fit_intercept).fit(x, y)
    d = x.shape[1]
    p0 = np.zeros(d + (2 if fit_intercept else 1))
    p0[-1] = 1.0
    bounds = [(-np.inf, np.inf)] * (p0.size - 1) + [(np.finfo(np.float64).eps * 10, np.inf)]
    res = optimize.minimize(
        _huber_loss_and_gradient, p0, method="L-BFGS-B", jac=True,
        args=(x, y, epsilon, alpha, np.ones(x.shape[0])),
        options={"maxiter": 20000, "gtol": 1e-12, "ftol": 1e-15, "maxcor": 30},
        bounds=bounds,
    )
    ref_coef = res.x[:d]
    ref_b = res.x[d] if fit_intercept else 0.0
    ref_s = res.x[-1]
    obj = huber_objective(x, y, m.coef_, m.intercept_, m.scale_, epsilon, alpha, fit_intercept)
    assert res.fun <= obj * (1 + 1e-12), (res.fun, obj)
    _, g = _huber_loss_and_gradient(res.x, x, y, epsilon, alpha, np.ones(x.shape[0]))
    resid = np.abs(y - x @ ref_coef - ref_b)
    return {
        "x": x, "y": y, "epsilon": epsilon, "alpha": alpha,
        "fit_intercept": int(fit_intercept),
        "coef": m.coef_, "intercept": float(m.intercept_), "scale": float(m.scale_),
        "outliers": m.outliers_.astype(int), "n_iter": int(m.n_iter_), "objective": obj,
        "coef_ref": ref_coef, "intercept_ref": float(ref_b), "scale_ref": float(ref_s),
        "objective_ref": float(res.fun), "ref_grad_max": float(np.max(np.abs(g))),
        "outliers_ref": (resid > ref_s * epsilon).astype(int),
        # distance of each residual from the outlier threshold, relative (for the mask test)
        "ref_margin": float(np.min(np.abs(resid - ref_s * epsilon)) / ref_s),
    }


def pinball(r, tau):
    return np.where(r >= 0, tau * r, (tau - 1.0) * r)


def quantile_lp(x, y, tau, alpha, fit_intercept):
    """sklearn's LP (same variable order), returned so the optimal set can be probed."""
    n, d = x.shape
    p = d + int(fit_intercept)
    c = np.concatenate([np.full(2 * p, n * alpha), np.full(n, tau), np.full(n, 1 - tau)])
    if fit_intercept:
        c[0] = 0
        c[p] = 0
        ones = np.ones((n, 1))
        a = np.hstack([ones, x, -ones, -x, np.eye(n), -np.eye(n)])
    else:
        a = np.hstack([x, -x, np.eye(n), -np.eye(n)])
    return c, a, p


def param_ranges(x, y, tau, alpha, fit_intercept, opt):
    c, a, p = quantile_lp(x, y, tau, alpha, fit_intercept)
    cap = opt + 1e-10 * max(1.0, abs(opt))
    lo, hi = [], []
    for j in range(p):
        e = np.zeros(c.size)
        e[j], e[p + j] = 1.0, -1.0
        vals = []
        for sgn in (1.0, -1.0):
            r = linprog(sgn * e, A_ub=c[None, :], b_ub=[cap], A_eq=a, b_eq=y, method="highs")
            assert r.status == 0, r.message
            vals.append(sgn * r.fun)
        lo.append(vals[0])
        hi.append(vals[1])
    # reorder to (coef..., intercept) to match the Rust layout
    lo, hi = np.array(lo), np.array(hi)
    if fit_intercept:
        lo = np.concatenate([lo[1:], lo[:1]])
        hi = np.concatenate([hi[1:], hi[:1]])
    return lo, hi


def quantile_case(x, y, tau, alpha, fit_intercept=True):
    m = QuantileRegressor(quantile=tau, alpha=alpha, fit_intercept=fit_intercept,
                          solver="highs").fit(x, y)
    pred = m.predict(x)
    n = x.shape[0]
    obj = float(np.sum(pinball(y - pred, tau)) / n + alpha * np.sum(np.abs(m.coef_)))
    c, a, p = quantile_lp(x, y, tau, alpha, fit_intercept)
    lp = linprog(c, A_eq=a, b_eq=y, method="highs")
    assert lp.status == 0
    assert abs(lp.fun / n - obj) <= 1e-9 * max(1.0, obj), (lp.fun / n, obj)
    lo, hi = param_ranges(x, y, tau, alpha, fit_intercept, lp.fun)
    return {
        "x": x, "y": y, "quantile": tau, "alpha": alpha, "fit_intercept": int(fit_intercept),
        "coef": m.coef_, "intercept": float(m.intercept_), "predictions": pred,
        "objective": obj, "param_lo": lo, "param_hi": hi,
    }


def tls_case(x, y, fit_intercept=True):
    y2 = y if y.ndim == 2 else y[:, None]
    z = np.hstack([x, y2])
    mean = z.mean(axis=0) if fit_intercept else np.zeros(z.shape[1])
    zc = z - mean
    _, s, vt = np.linalg.svd(zc, full_matrices=True)
    v = vt.T
    d, k = x.shape[1], y2.shape[1]
    vxy = v[:d, d:]
    vyy = v[d:, d:]
    w = -vxy @ np.linalg.inv(vyy)  # d × k
    coef = w.T  # k × d
    intercept = mean[d:] - coef @ mean[:d]
    return {
        "x": x, "y": y, "fit_intercept": int(fit_intercept), "coef": coef,
        "intercept": intercept, "singular_values": s,
    }


def huber_cases():
    cases = {}
    xd, yd = diabetes()
    cases["huber_diabetes_default"] = huber_case(xd, yd, 1.35, 1e-4)
    cases["huber_diabetes_e2_a01"] = huber_case(xd, yd, 2.0, 0.1)
    xo, yo = outlier_set()
    cases["huber_outliers_default"] = huber_case(xo, yo, 1.35, 1e-4)
    cases["huber_outliers_e15_a1"] = huber_case(xo, yo, 1.5, 1.0)
    cases["huber_outliers_no_intercept"] = huber_case(xo, yo, 1.35, 1e-4, fit_intercept=False)
    return cases


def quantile_cases():
    cases = {}
    rng = np.random.default_rng(11)
    n = 80
    x = rng.standard_normal((n, 3))
    y = x @ np.array([1.0, -0.5, 2.0]) + 0.7 + rng.standard_t(2, n)
    for tau in (0.1, 0.5, 0.9):
        for alpha in (0.0, 0.01):
            cases[f"quantile_t2_q{int(tau * 10)}_a{alpha:g}"] = quantile_case(x, y, tau, alpha)
    cases["quantile_t2_q5_no_intercept"] = quantile_case(x, y, 0.5, 0.0, fit_intercept=False)
    xd, yd = diabetes()
    cases["quantile_diabetes200_q5_a0"] = quantile_case(xd[:200], yd[:200], 0.5, 0.0)
    return cases


def tls_cases():
    cases = {}
    rng = np.random.default_rng(5)
    n = 60
    t = rng.uniform(-3, 3, n)
    x1 = (t + 0.3 * rng.standard_normal(n))[:, None]
    y1 = 1.0 + 2.0 * t + 0.3 * rng.standard_normal(n)
    cases["tls_line"] = tls_case(x1, y1)
    xt = rng.standard_normal((n, 3))
    yt = xt @ np.array([1.0, -2.0, 0.5]) + 3.0
    xn = xt + 0.1 * rng.standard_normal(xt.shape)
    yn = yt + 0.1 * rng.standard_normal(n)
    cases["tls_three_features"] = tls_case(xn, yn)
    cases["tls_three_features_no_intercept"] = tls_case(xn, yn, fit_intercept=False)
    ym = np.column_stack([yt, xt @ np.array([0.5, 0.5, -1.0]) - 1.0])
    ym = ym + 0.1 * rng.standard_normal(ym.shape)
    cases["tls_multi_output"] = tls_case(xn, ym)
    return cases


def main():
    cases = {**huber_cases(), **quantile_cases(), **tls_cases()}
    out = write_json(GOLDEN_DIR / "linear" / "robust.json", cases, GENERATOR, NOTE)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
