"""Golden references for ndlearn-cluster's fuzzy c-means (FuzzyCMeans), a plain numpy
implementation of the same algorithm from the same initial centres.

Writes datasets/golden/cluster/fuzzy.json.

scikit-learn has no fuzzy c-means. The algorithm (ndlearn's module docs; Bezdek 1981): given
centres, memberships M_ij = w_ij / sum_k w_ik with w_ij = (min_k d_ik^2 / d_ij^2)^(1/(p-1))
(= d_ij^(-2/(p-1)) up to a row factor); then rounds of
    centres c_j = sum_i M_ij^p x_i / sum_i M_ij^p,  memberships from those centres,
    sse = sum_ij M_ij^p |x_i - c_j|^2 (new centres, new memberships),
until the largest membership change of a round is <= tol. FuzzyCMeans takes no initial centres:
it starts from the rows random::sample_without_replacement(&mut random::rng(seed), n, c) (in
that order), which `RustRng` of core_bootstrap632.py reproduces bit for bit (`init_rows`; the
Rust test also checks them against ndlearn's generator). So both run the same iteration.

Per case: `x`, `n_clusters`, `fuzzifier`, `seed`, `tol`, `init_rows`;
* `centers`, `memberships`, `objective`: the fixed point (the iteration run until the membership
  change reaches the rounding floor, <= 1e-14, asserted);
* `n_iter`: rounds of the same iteration stopped at `tol` (the change of the last round is below
  tol(1 - 1e-4) and the one before above tol(1 + 1e-4), asserted, so rounding cannot move the
  stop); `sse_first`: the sse after round 1;
* `rho`: the largest ratio change_{k+1} / change_k of successive membership changes from round
  n_iter on (until the rounding floor, changes > 1e-13). Then for the iterate u_K where a run
  with `tol` stops, u_K - u* = sum_{k >= K} (u_k - u_{k+1}), so
  |u_K - u*|_max <= tol rho / (1 - rho), and |u_{K-1} - u*|_max <= tol / (1 - rho);
* `lipschitz_centers`: max_j p sum_i M_ij^(p-1) |x_i - c_j|_max / sum_i M_ij^p at the fixed point,
  the first-order bound of the centres' change per unit membership change (max norms); the
  centres of round K are C(u_{K-1}), so |c_K - c*|_max <= lipschitz_centers tol / (1 - rho);
* `max_weight`: max_j sum_i M_ij^p. The reduced objective J(c) = sse(c, M(c)) is stationary at
  c* and J(c) <= sse(c, M*) = J* + sum_j S_j |c_j - c*_j|^2 (fixed memberships: a quadratic), so
  0 <= J(c_K) - J* <= max_weight * c * d * |c_K - c*|_max^2, negligible next to rounding.
Rounding terms added by the Rust test (and by the check here): memberships n eps / (1 - rho)
(a centre update is a weighted mean over n rows, relative error <= n eps, damped by the
contraction), centres lipschitz_centers (tol / (1 - rho) + that) + n eps max|x|, objective
2 (n c + 10) eps J* (two evaluations of a sum of n c positive terms). The script checks these
bounds on its own run stopped at tol.
"""

from __future__ import annotations

import numpy as np

from common import blobs, load_dataset, write_json
from core_bootstrap632 import RustRng

EPS = np.finfo(np.float64).eps


def memberships(x, centers, p, allow_zero=False):
    """A row exactly on centres shares its membership equally among them (ndlearn's rule; it
    only happens for the initial centres, which are data rows)."""
    d2 = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    zero = d2 == 0
    assert allow_zero or not zero.any(), "a row on a centre"
    on = zero.any(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        w = (d2.min(axis=1, keepdims=True) / d2) ** (1.0 / (p - 1.0))
    w[on] = zero[on]
    return w / w.sum(axis=1, keepdims=True)


def sse(x, centers, u, p):
    d2 = ((x[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2)
    return float((u**p * d2).sum())


def run(x, init_rows, p, tol, max_iter):
    centers = x[init_rows].copy()
    u = memberships(x, centers, p, allow_zero=True)
    changes, history = [], []
    for _ in range(max_iter):
        w = u**p
        centers = (w.T @ x) / w.sum(axis=0)[:, None]
        nu = memberships(x, centers, p)
        history.append(sse(x, centers, nu, p))
        changes.append(float(np.abs(nu - u).max()))
        u = nu
        if changes[-1] <= tol:
            break
    return centers, u, np.array(changes), np.array(history)


def case(x, c, p, seed, tol):
    n, d = x.shape
    init = RustRng(seed, 0).sample_without_replacement(n, c)
    # the fixed point: run to the rounding floor
    cs, us, ch, hist = run(x, init, p, 0.0, 20000)
    floor = np.flatnonzero(ch <= 1e-14)
    assert floor.size, "no convergence to the rounding floor"
    cs, us, ch, hist = run(x, init, p, 0.0, int(floor[0]) + 1)
    assert np.all(np.diff(hist) <= 1e-12 * hist[0]), "sse increased"
    # the run stopped at tol
    ck, uk, chk, histk = run(x, init, p, tol, 20000)
    k = len(chk)
    assert chk[-1] < tol * (1 - 1e-4) and chk[-2] > tol * (1 + 1e-4), "stop decided by rounding"
    assert np.array_equal(chk, ch[:k])
    tail = ch[k - 1:]
    tail = tail[tail > 1e-13]
    rho = float((tail[1:] / tail[:-1]).max())
    assert rho < 0.9, rho
    w = us**p
    lip = max(
        p * (us[:, j] ** (p - 1) * np.abs(x - cs[j]).max(axis=1)).sum() / w[:, j].sum()
        for j in range(c)
    )
    # the bounds (with the rounding terms of the Rust test) hold for this run
    floor_u = n * EPS / (1 - rho)
    tol_u = tol * rho / (1 - rho) + floor_u
    tol_c = lip * (tol / (1 - rho) + floor_u) + n * EPS * np.abs(x).max()
    assert np.abs(uk - us).max() <= tol_u
    assert np.abs(ck - cs).max() <= tol_c
    jk, js = histk[-1], hist[-1]
    round_j = 2 * (n * c + 10) * EPS * js
    assert -round_j <= jk - js <= w.sum(axis=0).max() * c * d * tol_c**2 + round_j
    return dict(
        x=x, n_clusters=c, fuzzifier=p, seed=seed, tol=tol, init_rows=np.array(init),
        centers=cs, memberships=us, objective=js, n_iter=k, sse_first=hist[0],
        rho=rho, lipschitz_centers=lip, max_weight=float(w.sum(axis=0).max()),
        last_change=chk[-1],
    )


def main():
    iris = load_dataset("iris")[0]
    b = blobs()
    blobs120 = np.concatenate([b[150 * j: 150 * j + 30] for j in range(4)])
    cases = {
        "iris_c3_p2": case(iris, 3, 2.0, 0, 1e-9),
        "blobs120_c4_p1.5": case(blobs120, 4, 1.5, 2, 1e-9),
    }
    write_json(
        "datasets/golden/cluster/fuzzy.json", cases, "cluster_fuzzy.py",
        "numpy fuzzy c-means from ndlearn's initial rows (random::sample_without_replacement("
        "rng(seed), n, c), re-implemented bit for bit): fixed point (centers, memberships, "
        "objective) and the rounds n_iter of a run stopped at tol; rho = contraction of the "
        "membership changes after n_iter, bounds in the docstring",
    )


if __name__ == "__main__":
    main()
