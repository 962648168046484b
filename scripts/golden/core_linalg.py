#!/usr/bin/env python3
"""Golden reference values for ndlearn's core linear algebra and statistics.

Writes datasets/golden/core/linalg.json.  Every case stores its inputs as well
as the reference outputs; random inputs come from np.random.default_rng with a
fixed seed per case, so reruns are byte-identical for the pinned versions.
Before writing, every output is checked against its defining identity
(reconstruction, residual, Moore-Penrose conditions, ...).

Usage:  target/golden-venv/bin/python scripts/golden/core_linalg.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.linalg
import scipy.spatial.distance

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import (  # noqa: E402
    GOLDEN_DIR,
    diabetes_scaled,
    load_dataset,
    sign_normalize_columns,
    write_json,
)

GENERATOR = "scripts/golden/core_linalg.py"
OUT = GOLDEN_DIR / "core" / "linalg.json"
EPS = np.finfo(np.float64).eps

NOTE = (
    "Matrices are row-major lists of rows. Inputs are stored with each case. "
    "Eigenvectors (eigh_*) and left singular vectors (svd_* field u) are columns, "
    "sign-normalised so that the largest-|.| component of each column is positive "
    "(every stored column has a unique largest component by a relative margin of at "
    "least 1e-6); for svd the rows of vt are flipped together with the columns of u, "
    "so u diag(s) vt == a. eigh values ascending; svd s descending; u/vt are thin. "
    "eigh_generalized: scipy.linalg.eigh(a, b), vectors B-orthonormal (v^T b v = I) "
    "then sign-normalised. cholesky l is lower triangular (a = l l^T); logdet is "
    "np.linalg.slogdet(a)[1]. lstsq x: np.linalg.lstsq(a, b, rcond=None) "
    "(cutoff eps*max(m,n)*s_max, minimum-norm for rank-deficient a); residual_ss = "
    "||a x - b||^2. pinv: np.linalg.pinv(a) default (cutoff 1e-15*s_max). rank: "
    "np.linalg.matrix_rank default (tol = s_max*max(m,n)*eps). Rank-deficient inputs "
    "have small-integer entries so they are exactly rank-deficient, and every rank "
    "decision has a gap of many orders of magnitude around the cutoff. null_space: "
    "projector = N N^T for N = scipy.linalg.null_space(a) (basis independent), "
    "nullity = N.shape[1]. covariance_wine: var/cov with ddof as named, cov = "
    "np.cov(x, rowvar=False) (ddof=1), corr = np.corrcoef(x, rowvar=False). "
    "weighted_stats: mean = np.average(x, axis=0, weights=w), cov = np.cov(x, "
    "rowvar=False, aweights=w, bias=True) i.e. sum_i w_i (x_i-m)(x_i-m)^T / sum_i w_i. "
    "Data-set inputs come from the embedded datasets/data/*.csv; lstsq_diabetes uses "
    "sklearn's scaled diabetes features (load_diabetes() default) with a leading "
    "column of ones. cond (where present) is np.linalg.cond(a) (2-norm), for choosing "
    "tolerances."
)


def rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def close(a, b, tol):
    a, b = np.asarray(a), np.asarray(b)
    scale = max(1.0, float(np.max(np.abs(b))) if b.size else 1.0)
    err = float(np.max(np.abs(a - b))) if a.size else 0.0
    assert err <= tol * scale, f"check failed: err {err:.3e} > {tol:.1e} * {scale:.3e}"


def rank_gap_ok(s, m, n, cutoffs=None, below=4.0, above=1e6):
    """Assert every singular value is clearly on one side of each cutoff used:
    numerically-zero ones at least `below` times smaller (they are O(eps*s_max)
    by nature), genuine ones at least `above` times larger."""
    smax = s.max()
    if cutoffs is None:
        cutoffs = [smax * max(m, n) * EPS, 1e-15 * smax]
    for c in cutoffs:
        for v in s:
            assert v <= c / below or v >= c * above, (
                f"singular value {v:.3e} too near cutoff {c:.3e}"
            )


# ====================================================================== cases
def solve_cases(cases):
    for name, n, seed in [("solve_random_4", 4, 101), ("solve_random_25", 25, 102)]:
        r = rng(seed)
        a = r.standard_normal((n, n)) + n * np.eye(n)
        b = r.standard_normal(n)
        x = np.linalg.solve(a, b)
        close(a @ x, b, 1e-13)
        cases[name] = {"a": a, "b": b, "x": x, "cond": np.linalg.cond(a)}

    # small hand-written non-symmetric system (needs pivoting: a[0,0] == 0)
    a = np.array([[0.0, 2.0, 1.0], [1.0, -2.0, -3.0], [-1.0, 1.0, 2.0]])
    b = np.array([-8.0, 0.0, 3.0])
    x = np.linalg.solve(a, b)
    close(a @ x, b, 1e-14)
    cases["solve_pivoting_3"] = {"a": a, "b": b, "x": x, "cond": np.linalg.cond(a)}


def cholesky_case(cases, name, a, b):
    l = np.linalg.cholesky(a)
    assert np.allclose(np.triu(l, 1), 0.0)
    close(l @ l.T, a, 1e-14)
    sign, logdet = np.linalg.slogdet(a)
    assert sign == 1.0
    close(2.0 * np.sum(np.log(np.diag(l))), logdet, 1e-12)
    x = np.linalg.solve(a, b)
    close(a @ x, b, 1e-12)
    cases[name] = {"a": a, "l": l, "logdet": logdet, "b": b, "x": x, "cond": np.linalg.cond(a)}


def cholesky_cases(cases):
    for name, n, seed in [("cholesky_random_5", 5, 201), ("cholesky_random_30", 30, 202)]:
        r = rng(seed)
        m = r.standard_normal((n, n))
        a = m @ m.T + n * np.eye(n)
        a = 0.5 * (a + a.T)  # exactly symmetric
        cholesky_case(cases, name, a, r.standard_normal(n))
    x, _, _ = load_dataset("iris")
    a = np.cov(x, rowvar=False)
    cholesky_case(cases, "cholesky_iris_cov", a, rng(203).standard_normal(a.shape[0]))


def lstsq_cases(cases):
    # full-rank random
    r = rng(301)
    a = r.standard_normal((30, 5))
    b = r.standard_normal(30)
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=None)
    assert rank == 5
    close(a.T @ (a @ x - b), np.zeros(5), 1e-13)  # normal equations
    rss = float(res[0])
    close(rss, float(np.sum((a @ x - b) ** 2)), 1e-12)
    cases["lstsq_random"] = {"a": a, "b": b, "x": x, "residual_ss": rss, "rank": int(rank),
                             "cond": np.linalg.cond(a)}

    # diabetes: intercept column + sklearn-scaled features
    xr, y, _ = load_dataset("diabetes")
    xs = diabetes_scaled(xr)
    from sklearn.datasets import load_diabetes

    assert np.array_equal(xs, load_diabetes(return_X_y=True)[0])
    a = np.hstack([np.ones((xs.shape[0], 1)), xs])
    x, res, rank, s = np.linalg.lstsq(a, y, rcond=None)
    assert rank == 11
    close(a.T @ (a @ x - y), np.zeros(11), 1e-9)
    close(x[0], y.mean(), 1e-12)  # centred features -> intercept is mean(y)
    # cross-check against sklearn LinearRegression
    from sklearn.linear_model import LinearRegression

    lr = LinearRegression().fit(xs, y)
    close(x[1:], lr.coef_, 1e-9)
    close(x[0], lr.intercept_, 1e-9)
    cases["lstsq_diabetes"] = {"a": a, "b": y, "x": x, "residual_ss": float(res[0]),
                               "rank": int(rank), "cond": np.linalg.cond(a)}

    # rank deficient 20x6, rank 4, exact integer columns
    r = rng(303)
    base = r.integers(-5, 6, size=(20, 4)).astype(np.float64)
    a = np.column_stack([base[:, 0], base[:, 1], base[:, 0] + base[:, 1], base[:, 2],
                         base[:, 3], 2.0 * base[:, 2] - base[:, 3]])
    b = r.standard_normal(20)
    x, res, rank, s = np.linalg.lstsq(a, b, rcond=None)
    assert rank == 4 and np.linalg.matrix_rank(a) == 4
    rank_gap_ok(s, *a.shape, cutoffs=[s.max() * max(a.shape) * EPS])
    # minimum norm: x must equal pinv(a) b and lie in the row space of a
    close(x, np.linalg.pinv(a) @ b, 1e-12)
    close(a.T @ (a @ x - b), np.zeros(6), 1e-11)
    ns = scipy.linalg.null_space(a)
    close(ns.T @ x, np.zeros(ns.shape[1]), 1e-12)
    rss = float(np.sum((a @ x - b) ** 2))  # lstsq returns no residuals when rank < n
    assert res.size == 0
    cases["lstsq_rank_deficient"] = {"a": a, "b": b, "x": x, "residual_ss": rss, "rank": 4}


def pinv_case(cases, name, a, expected_rank):
    p = np.linalg.pinv(a)
    rank = int(np.linalg.matrix_rank(a))
    assert rank == expected_rank, (name, rank)
    rank_gap_ok(np.linalg.svd(a, compute_uv=False), *a.shape)
    # Moore-Penrose conditions
    close(a @ p @ a, a, 1e-12)
    close(p @ a @ p, p, 1e-12)
    close((a @ p).T, a @ p, 1e-12)
    close((p @ a).T, p @ a, 1e-12)
    # the cutoff choice does not matter for these inputs
    close(np.linalg.pinv(a, rtol=None), p, 1e-12)
    cases[name] = {"a": a, "pinv": p, "rank": rank}


def pinv_cases(cases):
    r = rng(401)
    pinv_case(cases, "pinv_square_5", r.standard_normal((5, 5)) + 2.0 * np.eye(5), 5)
    pinv_case(cases, "pinv_tall_10x4", rng(402).standard_normal((10, 4)), 4)
    pinv_case(cases, "pinv_wide_4x7", rng(403).standard_normal((4, 7)), 4)
    r = rng(404)
    bmat = r.integers(-4, 5, size=(8, 3)).astype(np.float64)
    cmat = r.integers(-4, 5, size=(3, 5)).astype(np.float64)
    pinv_case(cases, "pinv_rank_deficient_8x5", bmat @ cmat, 3)


def eigh_case(cases, name, a, gap_note=True):
    assert np.array_equal(a, a.T)
    w, v = np.linalg.eigh(a)
    assert np.all(np.diff(w) > 0), f"{name}: repeated eigenvalues"
    v, _ = sign_normalize_columns(v)
    close(v @ np.diag(w) @ v.T, a, 1e-13)
    close(v.T @ v, np.eye(len(w)), 1e-13)
    close(scipy.linalg.eigh(a, eigvals_only=True), w, 1e-13)
    rel_gap = float(np.min(np.diff(w)) / np.max(np.abs(w)))
    cases[name] = {"a": a, "values": w, "vectors": v, "min_rel_gap": rel_gap}


def eigh_cases(cases):
    m = rng(501).standard_normal((6, 6))
    eigh_case(cases, "eigh_random_6", 0.5 * (m + m.T))
    for ds in ("wine", "iris"):
        x, _, _ = load_dataset(ds)
        c = np.cov(x, rowvar=False, ddof=1)
        c = 0.5 * (c + c.T)
        eigh_case(cases, f"eigh_{ds}_cov", c)

    # generalized symmetric-definite problem a v = lambda b v
    r = rng(502)
    m = r.standard_normal((5, 5))
    a = 0.5 * (m + m.T)
    k = r.standard_normal((5, 5))
    b = k @ k.T + 5.0 * np.eye(5)
    b = 0.5 * (b + b.T)
    w, v = scipy.linalg.eigh(a, b)
    assert np.all(np.diff(w) > 0)
    close(v.T @ b @ v, np.eye(5), 1e-13)
    v, _ = sign_normalize_columns(v)
    close(a @ v, b @ v @ np.diag(w), 1e-12)
    close(v.T @ b @ v, np.eye(5), 1e-13)
    close(v.T @ a @ v, np.diag(w), 1e-12)
    cases["eigh_generalized"] = {"a": a, "b": b, "values": w, "vectors": v}


def svd_case(cases, name, a, with_uv):
    u, s, vt = np.linalg.svd(a, full_matrices=False)
    assert np.all(np.diff(s) <= 0)
    rank = int(np.linalg.matrix_rank(a))
    rank_gap_ok(s, *a.shape)
    close(np.linalg.svd(a, compute_uv=False), s, 1e-13)
    case = {"a": a, "s": s, "rank": rank}
    if with_uv:
        assert np.all(-np.diff(s) > 1e-8 * s[0]), f"{name}: near-repeated singular values"
        u, signs = sign_normalize_columns(u)
        vt = vt * signs[:, None]
        k = len(s)
        close(u @ np.diag(s) @ vt, a, 1e-13)
        close(u.T @ u, np.eye(k), 1e-13)
        close(vt @ vt.T, np.eye(k), 1e-13)
        case.update({"u": u, "vt": vt})
    cases[name] = case


def svd_cases(cases):
    svd_case(cases, "svd_random_12x7", rng(601).standard_normal((12, 7)), True)
    svd_case(cases, "svd_random_7x12", rng(602).standard_normal((7, 12)), True)
    x, _, _ = load_dataset("iris")
    svd_case(cases, "svd_iris", x, False)
    x, _, _ = load_dataset("digits")
    svd_case(cases, "svd_digits_300", x[:300], False)


def null_space_case(cases):
    r = rng(701)
    bmat = r.integers(-3, 4, size=(4, 3)).astype(np.float64)
    cmat = r.integers(-3, 4, size=(3, 6)).astype(np.float64)
    a = bmat @ cmat
    assert np.linalg.matrix_rank(a) == 3
    n = scipy.linalg.null_space(a)
    assert n.shape == (6, 3)
    close(a @ n, np.zeros((4, 3)), 1e-13)
    p = n @ n.T
    # basis independence: projector = I - pinv(a) a
    close(p, np.eye(6) - np.linalg.pinv(a) @ a, 1e-13)
    cases["null_space"] = {"a": a, "projector": p, "nullity": int(n.shape[1])}


def pairwise_case(cases):
    x, _, _ = load_dataset("iris")
    xa, ya = x[0:20], x[50:65]
    d = scipy.spatial.distance.cdist(xa, ya, "sqeuclidean")
    close(d, ((xa[:, None, :] - ya[None, :, :]) ** 2).sum(-1), 1e-13)
    cases["pairwise_sqeuclidean"] = {"x": xa, "y": ya, "d": d}


def stats_cases(cases):
    x, _, _ = load_dataset("wine")
    cov = np.cov(x, rowvar=False)
    corr = np.corrcoef(x, rowvar=False)
    close(np.diag(cov), x.var(axis=0, ddof=1), 1e-12)
    close(np.diag(corr), np.ones(x.shape[1]), 1e-14)
    cases["covariance_wine"] = {
        "x": x,
        "mean": x.mean(axis=0),
        "var_ddof0": x.var(axis=0, ddof=0),
        "var_ddof1": x.var(axis=0, ddof=1),
        "cov": cov,
        "corr": corr,
    }

    r = rng(801)
    x = r.standard_normal((10, 3)) * np.array([1.0, 3.0, 0.5]) + np.array([2.0, -1.0, 0.0])
    w = r.uniform(0.5, 2.0, size=10)
    mean = np.average(x, axis=0, weights=w)
    cov = np.cov(x, rowvar=False, aweights=w, bias=True)
    c = x - mean
    close(cov, (c * w[:, None]).T @ c / w.sum(), 1e-14)
    cases["weighted_stats"] = {"x": x, "w": w, "mean": mean, "cov": cov}


def main() -> int:
    cases: dict = {}
    solve_cases(cases)
    cholesky_cases(cases)
    lstsq_cases(cases)
    pinv_cases(cases)
    eigh_cases(cases)
    svd_cases(cases)
    null_space_case(cases)
    pairwise_case(cases)
    stats_cases(cases)
    path = write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {path} ({path.stat().st_size} bytes, {len(cases)} cases)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
