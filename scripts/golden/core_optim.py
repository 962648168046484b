#!/usr/bin/env python3
"""Golden reference values for ndlearn-core's constrained solvers (ndlearn_core::optim).

Writes datasets/golden/core/optim.json:

* lp_*   linear programs solved by scipy.optimize.linprog(method="highs"):
         textbook/mixed-bound/random problems, least-absolute-deviation (LAD)
         regressions, an infeasible and an unbounded one.
* qp_*   convex QPs  min 1/2 x^T Q x + c^T x  s.t.  A_eq x = b_eq, lo <= x <= hi:
         linear-kernel SVM duals on separable 2-D data (box [0, C], y^T a = 0)
         and random PSD QPs with bounds, solved by
         scipy.optimize.minimize(method="SLSQP", ftol=1e-15) and then refined
         by one exact KKT solve on SLSQP's active set (checked: the refined
         point has KKT residual <= 1e-10 and objective <= SLSQP's).
* logistic_*  L2-regularised logistic regression (scikit-learn
         LogisticRegression, solver "newton-cholesky", tol 1e-12), the
         objective  sum_i log(1 + exp(-s_i z_i)) + ||w||^2 / (2C)  with an
         unpenalised intercept; checked by its gradient norm.

Every case stores its inputs and outputs. Uniqueness of the optimal x is
checked (LP: minimise and maximise every x_j over the optimal face; QP: the
reduced KKT matrix is non-singular and the active bounds have multipliers
> 1e-8) and recorded as x_unique = 1/0; the Rust tests compare x only when it
is 1.

Usage:  target/golden-venv/bin/python scripts/golden/core_optim.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from scipy.optimize import linprog, minimize

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_optim.py"
OUT = GOLDEN_DIR / "core" / "optim.json"
BIG = 1e300

NOTE = (
    "Matrices are row-major lists of rows; an empty list means no rows (0 x n, n = len(c)). "
    "Bounds: lo/hi per variable with lo_inf/hi_inf flags (1 = -inf / +inf; the stored value "
    "is then 0). LP: status is scipy's 'optimal' | 'infeasible' | 'unbounded'; objective and "
    "x only for optimal cases; x_unique = 1 when every x_j is constant over the optimal "
    "face (checked by 2n auxiliary LPs over {c^T x <= v* + 1e-10 (1 + |v*|)}, range <= 1e-5). lad_*: LAD regression "
    "min sum_i |y_i - b0 - x_i . b| as an LP over (b0, b free; u+, u- >= 0) with "
    "A_eq = [1, X, I, -I], b_eq = y; coef = (b0, b); coef_unique likewise. "
    "QP: x is SLSQP's solution refined by an exact KKT solve on its active set; objective "
    "= 1/2 x^T Q x + c^T x; x_unique = 1 when the reduced KKT matrix is non-singular and "
    "strict complementarity holds (multipliers > 1e-8). svm_*: Q = (y y^T) * (X X^T), "
    "c = -1, A_eq = y^T, b_eq = 0, box [0, C]; labels y in {-1, +1}. logistic_*: "
    "coef, intercept from sklearn LogisticRegression(C, solver='newton-cholesky', tol=1e-12), "
    "objective = sum_i log(1 + exp(-s_i (x_i . w + b))) + ||w||^2 / (2 C), s_i = 2 y_i - 1, "
    "intercept unpenalised; grad_norm is the objective's gradient norm at the reference."
)


# ------------------------------------------------------------------ bounds encoding
def encode_bounds(bounds, n):
    lo = np.zeros(n)
    hi = np.zeros(n)
    lo_inf = np.zeros(n, dtype=np.int64)
    hi_inf = np.zeros(n, dtype=np.int64)
    for j, (l, h) in enumerate(bounds):
        if l is None or l == -np.inf:
            lo_inf[j] = 1
        else:
            lo[j] = l
        if h is None or h == np.inf:
            hi_inf[j] = 1
        else:
            hi[j] = h
    return {"lo": lo, "hi": hi, "lo_inf": lo_inf, "hi_inf": hi_inf}


def mat(a, n):
    a = np.asarray(a, dtype=np.float64)
    return a if a.size else np.zeros((0, n))


# ------------------------------------------------------------------ LP
STATUS = {0: "optimal", 1: "max_iter", 2: "infeasible", 3: "unbounded"}


def lp_solve(c, a_ub, b_ub, a_eq, b_eq, bounds):
    kw = {}
    if len(b_ub):
        kw.update(A_ub=a_ub, b_ub=b_ub)
    if len(b_eq):
        kw.update(A_eq=a_eq, b_eq=b_eq)
    return linprog(
        c,
        bounds=bounds,
        method="highs",
        options={"primal_feasibility_tolerance": 1e-10, "dual_feasibility_tolerance": 1e-10},
        **kw,
    )


def lp_unique(c, a_ub, b_ub, a_eq, b_eq, bounds, v_star, idx):
    """Range of x_j (j in idx) over {feasible, c^T x <= v* + tol}."""
    tol = 1e-10 * (1.0 + abs(v_star))
    a2 = np.vstack([a_ub, c[None, :]]) if len(b_ub) else c[None, :]
    b2 = np.concatenate([b_ub, [v_star + tol]]) if len(b_ub) else np.array([v_star + tol])
    worst = 0.0
    for j in idx:
        e = np.zeros(len(c))
        e[j] = 1.0
        lo = lp_solve(e, a2, b2, a_eq, b_eq, bounds)
        hi = lp_solve(-e, a2, b2, a_eq, b_eq, bounds)
        assert lo.status == 0 and hi.status == 0
        worst = max(worst, -hi.fun - lo.fun)
    return worst


def lp_case(c, a_ub, b_ub, a_eq, b_eq, bounds, expect_status="optimal"):
    n = len(c)
    c = np.asarray(c, dtype=np.float64)
    a_ub, a_eq = mat(a_ub, n), mat(a_eq, n)
    b_ub = np.asarray(b_ub, dtype=np.float64)
    b_eq = np.asarray(b_eq, dtype=np.float64)
    res = lp_solve(c, a_ub, b_ub, a_eq, b_eq, bounds)
    status = STATUS[res.status]
    assert status == expect_status, (status, res.message)
    case = {"c": c, "a_ub": a_ub, "b_ub": b_ub, "a_eq": a_eq, "b_eq": b_eq, "status": status}
    case.update(encode_bounds(bounds, n))
    if status == "optimal":
        x = res.x
        # Independent checks: feasibility and objective.
        if len(b_ub):
            assert np.all(a_ub @ x <= b_ub + 1e-8)
        if len(b_eq):
            assert np.allclose(a_eq @ x, b_eq, atol=1e-8)
        case["x"] = x
        case["objective"] = float(res.fun)
        rng = lp_unique(c, a_ub, b_ub, a_eq, b_eq, bounds, res.fun, range(n))
        case["x_unique"] = int(rng <= 1e-5)
    return case


def lad_case(x, y):
    n, p = x.shape
    nv = 1 + p + 2 * n
    c = np.concatenate([np.zeros(1 + p), np.ones(2 * n)])
    a_eq = np.hstack([np.ones((n, 1)), x, np.eye(n), -np.eye(n)])
    bounds = [(None, None)] * (1 + p) + [(0, None)] * (2 * n)
    res = lp_solve(c, np.zeros((0, nv)), np.zeros(0), a_eq, y, bounds)
    assert res.status == 0, res.message
    coef = res.x[: 1 + p]
    resid = y - coef[0] - x @ coef[1:]
    assert abs(np.abs(resid).sum() - res.fun) <= 1e-8 * (1 + res.fun)
    rng = lp_unique(c, np.zeros((0, nv)), np.zeros(0), a_eq, y, bounds, res.fun, range(1 + p))
    return {
        "x_data": x,
        "y_data": y,
        "coef": coef,
        "objective": float(res.fun),
        "coef_unique": int(rng <= 1e-5),
    }


def lp_cases():
    cases = {}
    # Textbook: max 3x + 5y s.t. x <= 4, 2y <= 12, 3x + 2y <= 18.
    cases["lp_textbook"] = lp_case(
        [-3.0, -5.0], [[1, 0], [0, 2], [3, 2]], [4, 12, 18], [], [], [(0, None)] * 2
    )
    # Mixed bounds: free, upper-only, boxed; equality + inequalities.
    cases["lp_mixed_bounds"] = lp_case(
        [1.0, 2.0, -1.0, 0.5],
        [[-1, 1, 0, 0], [0, 1, 1, 1], [1, 0, -2, 1]],
        [1, 6, 4],
        [[1, 1, 1, 0]],
        [4],
        [(-2, 3), (None, None), (None, 2), (0.5, 5)],
    )
    # Random feasible, bounded problems (built around an interior point).
    for k, seed in enumerate([11, 12, 13]):
        rng = np.random.default_rng(seed)
        n, m_ub, m_eq = 7, 9, 2
        a_ub = rng.normal(size=(m_ub, n))
        a_eq = rng.normal(size=(m_eq, n))
        x0 = rng.uniform(-0.5, 0.5, size=n)
        b_ub = a_ub @ x0 + rng.uniform(0.1, 1.0, size=m_ub)
        b_eq = a_eq @ x0
        c = rng.normal(size=n)
        bounds = [(-1.0, 1.0)] * n
        bounds[1] = (None, 1.5)
        bounds[2] = (-1.0, None)
        bounds[3] = (-2.0, 2.0)
        cases[f"lp_random_{k}"] = lp_case(c, a_ub, b_ub, a_eq, b_eq, bounds)
    # Redundant equalities and a degenerate vertex.
    cases["lp_redundant_eq"] = lp_case(
        [1.0, -1.0, 0.5],
        [[-1, -1, 0], [-1, -2, 0], [-2, -1, 0]],
        [0, 0, 0],
        [[1, 1, 1], [2, 2, 2], [1, 0, -1]],
        [3, 6, 0],
        [(0, 5)] * 3,
    )
    cases["lp_infeasible"] = lp_case(
        [1.0, 1.0], [[1, 1], [-1, -1]], [1, -3], [], [], [(0, None)] * 2, "infeasible"
    )
    cases["lp_unbounded"] = lp_case(
        [-1.0, 0.0], [[1, -1]], [1], [], [], [(0, None)] * 2, "unbounded"
    )
    # LAD regressions.
    rng = np.random.default_rng(5)
    xt = np.sort(rng.uniform(0, 10, size=12))[:, None]
    yt = 1.0 + 2.0 * xt[:, 0] + rng.normal(scale=0.5, size=12)
    yt[[3, 9]] += np.array([15.0, -12.0])  # outliers
    cases["lad_tiny"] = lad_case(xt, yt)
    xd, yd, _ = load_dataset("diabetes")
    cases["lad_diabetes60"] = lad_case(xd[:60, [2, 3]], yd[:60])
    rng = np.random.default_rng(6)
    xm = rng.normal(size=(150, 3))
    ym = xm @ np.array([1.5, -2.0, 0.5]) + 0.3 + rng.standard_t(df=2, size=150)
    cases["lad_random150"] = lad_case(xm, ym)
    return cases


# ------------------------------------------------------------------ QP
def qp_refine(q, c, a_eq, b_eq, lo, hi, x):
    """Exact KKT solve on the active set of x (SLSQP's point), with a few primal active-set
    corrections; returns (x, lam, nu_lo, nu_hi, unique)."""
    n, m = len(c), len(b_eq)
    tol = 1e-6 * (1 + np.abs(x).max())
    act_lo = np.isfinite(lo) & (x - lo <= tol)
    act_hi = np.isfinite(hi) & (hi - x <= tol) & ~act_lo
    for _ in range(100):
        free = ~(act_lo | act_hi)
        xa = np.where(act_lo, lo, np.where(act_hi, hi, 0.0))
        f = np.flatnonzero(free)
        k = np.zeros((len(f) + m, len(f) + m))
        k[: len(f), : len(f)] = q[np.ix_(f, f)]
        k[: len(f), len(f):] = a_eq[:, f].T
        k[len(f):, : len(f)] = a_eq[:, f]
        rhs = np.concatenate([-c[f] - q[f] @ xa, b_eq - a_eq @ xa])
        sol = np.linalg.lstsq(k, rhs, rcond=None)[0]
        x = xa.copy()
        x[f] = sol[: len(f)]
        lam = sol[len(f):]
        r = q @ x + c + a_eq.T @ lam
        # Free variables outside their bounds: fix the worst one at the bound.
        viol = np.maximum(np.where(np.isfinite(lo), lo - x, 0), np.where(np.isfinite(hi), x - hi, 0))
        viol[~free] = 0
        if viol.max() > 1e-12:
            j = int(np.argmax(viol))
            if x[j] < lo[j]:
                act_lo[j] = True
            else:
                act_hi[j] = True
            continue
        # Active bounds with a multiplier of the wrong sign: release the worst one.
        wrong = np.where(act_lo, -r, 0.0) + np.where(act_hi, r, 0.0)
        if wrong.max() > 1e-12:
            j = int(np.argmax(wrong))
            act_lo[j] = act_hi[j] = False
            continue
        break
    else:
        raise AssertionError("active-set refinement did not settle")
    nu_lo = np.where(act_lo, r, 0.0)
    nu_hi = np.where(act_hi, -r, 0.0)
    unique = bool(
        (len(k) == 0 or np.linalg.matrix_rank(k) == len(k))
        and np.all(nu_lo[act_lo] > 1e-8)
        and np.all(nu_hi[act_hi] > 1e-8)
    )
    return x, lam, nu_lo, nu_hi, unique


def kkt_max(q, c, a_eq, b_eq, lo, hi, x, lam, nu_lo, nu_hi):
    st = q @ x + c + a_eq.T @ lam - nu_lo + nu_hi
    pf = max(
        np.max(np.maximum(lo - x, 0), initial=0),
        np.max(np.maximum(x - hi, 0), initial=0),
        np.max(np.abs(a_eq @ x - b_eq), initial=0),
    )
    cs = max(
        np.max(np.abs(nu_lo * np.where(np.isfinite(lo), x - lo, 0)), initial=0),
        np.max(np.abs(nu_hi * np.where(np.isfinite(hi), hi - x, 0)), initial=0),
    )
    df = max(np.max(-nu_lo, initial=0), np.max(-nu_hi, initial=0))
    return max(np.abs(st).max(), pf, cs, df)


def qp_case(q, c, a_eq, b_eq, lo, hi):
    n = len(c)
    a_eq = mat(a_eq, n)
    b_eq = np.asarray(b_eq, dtype=np.float64)
    fun = lambda x: 0.5 * x @ q @ x + c @ x  # noqa: E731
    jac = lambda x: q @ x + c  # noqa: E731
    cons = [{"type": "eq", "fun": lambda x: a_eq @ x - b_eq, "jac": lambda x: a_eq}] if len(
        b_eq
    ) else []
    bnds = [(None if not np.isfinite(l) else l, None if not np.isfinite(h) else h) for l, h in zip(lo, hi)]
    x0 = np.clip(np.zeros(n), np.where(np.isfinite(lo), lo, -BIG), np.where(np.isfinite(hi), hi, BIG))
    res = minimize(
        fun, x0, jac=jac, bounds=bnds, constraints=cons, method="SLSQP",
        options={"ftol": 1e-15, "maxiter": 2000},
    )
    assert res.success, res.message
    x, lam, nu_lo, nu_hi, unique = qp_refine(q, c, a_eq, b_eq, lo, hi, res.x)
    k = kkt_max(q, c, a_eq, b_eq, lo, hi, x, lam, nu_lo, nu_hi)
    assert k <= 1e-10 * (1 + np.abs(c).max()), k
    assert fun(x) <= fun(res.x) + 1e-12 * (1 + abs(fun(res.x))), (fun(x), res.fun)
    assert np.abs(x - res.x).max() < 1e-5, np.abs(x - res.x).max()
    case = {"q": q, "c": c, "a_eq": a_eq, "b_eq": b_eq}
    case.update(encode_bounds(list(zip(lo, hi)), n))
    case.update({"x": x, "objective": float(fun(x)), "x_unique": int(unique)})
    return case


def svm_case(x, y, cbox):
    q = (y[:, None] * y[None, :]) * (x @ x.T)
    n = len(y)
    case = qp_case(q, -np.ones(n), y[None, :], [0.0], np.zeros(n), np.full(n, cbox))
    case["x_data"] = x
    case["y_data"] = y
    case["C"] = float(cbox)
    return case


def qp_cases():
    cases = {}
    rng = np.random.default_rng(21)
    # Separable 2-D blobs, labels +-1.
    xp = rng.normal(loc=(2.0, 2.0), scale=0.6, size=(10, 2))
    xn = rng.normal(loc=(-1.5, -1.0), scale=0.6, size=(10, 2))
    x = np.vstack([xp, xn])
    y = np.concatenate([np.ones(10), -np.ones(10)])
    for cbox in (0.1, 1.0, 100.0):
        cases[f"qp_svm_blobs_C{cbox:g}"] = svm_case(x, y, cbox)
    # A second, tighter data set (margin violators at C = 0.5).
    rng = np.random.default_rng(22)
    x2 = np.vstack([rng.normal((1.0, 0.5), 0.7, (12, 2)), rng.normal((-1.0, -0.5), 0.7, (12, 2))])
    y2 = np.concatenate([np.ones(12), -np.ones(12)])
    cases["qp_svm_overlap_C0.5"] = svm_case(x2, y2, 0.5)
    # Random PSD QPs with bounds (some infinite) and one equality.
    for k, seed in enumerate([31, 32]):
        rng = np.random.default_rng(seed)
        n = 8
        b = rng.normal(size=(n, n))
        q = b.T @ b / n + 0.05 * np.eye(n)
        c = rng.normal(size=n) * 2
        lo = rng.uniform(-1.0, -0.2, size=n)
        hi = rng.uniform(0.2, 1.0, size=n)
        lo[0], hi[1], lo[2], hi[2] = -np.inf, np.inf, -np.inf, np.inf
        a_eq = rng.normal(size=(1, n))
        b_eq = np.array([0.1])
        cases[f"qp_random_{k}"] = qp_case(q, c, a_eq, b_eq, lo, hi)
    # Rank-deficient Q (rank 3) on a box: the optimum may not be unique (objective only).
    rng = np.random.default_rng(33)
    b = rng.normal(size=(3, 6))
    cases["qp_rank_deficient"] = qp_case(
        b.T @ b, rng.normal(size=6), [], [], -np.ones(6), np.ones(6)
    )
    return cases


# ------------------------------------------------------------------ logistic
def logistic_case(x, y, cpen):
    from sklearn.linear_model import LogisticRegression

    m = LogisticRegression(C=cpen, solver="newton-cholesky", tol=1e-12, max_iter=1000)
    m.fit(x, y)
    w, b = m.coef_[0], m.intercept_[0]
    s = 2 * y - 1
    z = x @ w + b
    obj = np.logaddexp(0, -s * z).sum() + w @ w / (2 * cpen)
    p = 1 / (1 + np.exp(s * z))  # d/dz log(1+exp(-s z)) = -s p
    gw = x.T @ (-s * p) + w / cpen
    gb = np.sum(-s * p)
    gnorm = float(np.sqrt(gw @ gw + gb * gb))
    assert gnorm < 1e-8 * (1 + np.abs(x).sum()), gnorm
    return {
        "x_data": x, "y_data": y.astype(np.int64), "C": float(cpen),
        "coef": w, "intercept": float(b), "objective": float(obj), "grad_norm": gnorm,
    }


def logistic_cases():
    xi, yi, _ = load_dataset("iris")
    keep = yi > 0  # versicolor vs virginica: not separable
    x = xi[keep][:, [0, 1, 2, 3]]
    x = (x - x.mean(axis=0)) / x.std(axis=0)
    y = (yi[keep] == 2).astype(np.int64)
    return {
        "logistic_iris_C1": logistic_case(x, y, 1.0),
        "logistic_iris_C100": logistic_case(x, y, 100.0),
    }


def main() -> int:
    cases = {}
    cases.update(lp_cases())
    cases.update(qp_cases())
    cases.update(logistic_cases())
    path = write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {path} ({len(cases)} cases)")
    for name, case in cases.items():
        flag = case.get("x_unique", case.get("coef_unique", "-"))
        print(f"  {name}: {case.get('status', '')} objective={case.get('objective')} unique={flag}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
