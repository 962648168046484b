#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::kernel.

Writes datasets/golden/core/kernel.json: scikit-learn's
sklearn.metrics.pairwise.{linear,polynomial,rbf,laplacian,sigmoid}_kernel on
subsets of the embedded iris and wine data (x: 20 rows, y: 15 other rows),
with several parameters, plus the closure-rule combinations (sums, products,
scaling, exp, polynomial of a kernel, normalisation, weighting, sub-vector
kernels, quadratic form) computed in numpy from those matrices.  Every case
stores its inputs.  Each scikit-learn matrix is checked against a direct
numpy evaluation of the formula before writing.

Usage:  target/golden-venv/bin/python scripts/golden/core_kernel.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
from sklearn.metrics.pairwise import (
    cosine_similarity,
    laplacian_kernel,
    linear_kernel,
    polynomial_kernel,
    rbf_kernel,
    sigmoid_kernel,
)

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_kernel.py"
OUT = GOLDEN_DIR / "core" / "kernel.json"

NOTE = (
    "Each case: x (20 rows) and y (15 rows) of iris (all 4 features) or wine "
    "(features alcohol, malic_acid, flavanoids, color_intensity = columns 0, 1, 6, 9); "
    "k_xx = kernel(x, x) (scikit-learn called with Y=None), k_xy = kernel(x, y). "
    "kind names the kernel; parameters use scikit-learn's names (gamma, coef0, degree). "
    "poly: (gamma x.y + coef0)^degree; rbf: exp(-gamma |x-y|^2); laplacian: "
    "exp(-gamma |x-y|_1); sigmoid: tanh(gamma x.y + coef0). Cases with gamma_default "
    "use scikit-learn's default gamma = 1/n_features (stored as gamma). Combinations "
    "(computed in numpy from the scikit-learn matrices): sum_rbf_poly = rbf(gamma_rbf) + "
    "poly(degree, gamma_poly, coef0); product_laplacian_linear = laplacian(gamma) * linear; "
    "scaled_rbf = c * rbf(gamma); exp_linear = exp(c * linear); poly_of_rbf = "
    "sum_p coeffs[p] rbf(gamma)^p; normalized_poly = poly / sqrt(diag(poly(x,x)) "
    "diag(poly(y,y))^T); cosine = sklearn cosine_similarity; gaussian_weighted_exp = "
    "exp(-gamma|x|^2) exp(2 gamma x.y) exp(-gamma|y|^2) (equals rbf); subvector_product = "
    "rbf(gamma) on columns a_start..a_end times poly(degree, gamma_poly, coef0) on columns "
    "b_start..b_end; subvector_sum = laplacian(gamma) on a + linear on b; quadratic_form = "
    "x A y^T with A = B B^T (symmetrised)."
)

# Rows taken from each data set: spread over the classes, x and y disjoint.
IRIS_X = list(range(0, 150, 8)) + [149]  # 20 rows
IRIS_Y = list(range(3, 150, 10))  # 15 rows
WINE_X = list(range(1, 178, 9))  # 20 rows
WINE_Y = list(range(5, 178, 12))  # 15 rows
WINE_COLS = [0, 1, 6, 9]


def rows(name):
    x, _, _ = load_dataset(name)
    if name == "iris":
        xs, ys = x[IRIS_X], x[IRIS_Y]
    else:
        x = x[:, WINE_COLS]
        xs, ys = x[WINE_X], x[WINE_Y]
    assert xs.shape[0] == 20 and ys.shape[0] == 15, (xs.shape, ys.shape)
    assert not set(IRIS_X) & set(IRIS_Y) and not set(WINE_X) & set(WINE_Y)
    return np.ascontiguousarray(xs), np.ascontiguousarray(ys)


def close(a, b, tol=1e-12):
    scale = max(1.0, float(np.max(np.abs(b))))
    err = float(np.max(np.abs(a - b)))
    assert err <= tol * scale, f"check failed: err {err:.3e} > {tol:.1e} * {scale:.3e}"


# Direct formulas (loops over pairs) to check scikit-learn's vectorised results.
def direct(f, x, y):
    return np.array([[f(a, b) for b in y] for a in x])


def leaf(kind, x, y, **p):
    if kind == "linear":
        kx, ky = linear_kernel(x), linear_kernel(x, y)
        ref = lambda a, b: a @ b  # noqa: E731
    elif kind == "poly":
        kx = polynomial_kernel(x, degree=p["degree"], gamma=p["gamma"], coef0=p["coef0"])
        ky = polynomial_kernel(x, y, degree=p["degree"], gamma=p["gamma"], coef0=p["coef0"])
        ref = lambda a, b: (p["gamma"] * (a @ b) + p["coef0"]) ** p["degree"]  # noqa: E731
    elif kind == "rbf":
        kx, ky = rbf_kernel(x, gamma=p["gamma"]), rbf_kernel(x, y, gamma=p["gamma"])
        ref = lambda a, b: np.exp(-p["gamma"] * np.sum((a - b) ** 2))  # noqa: E731
    elif kind == "laplacian":
        kx = laplacian_kernel(x, gamma=p["gamma"])
        ky = laplacian_kernel(x, y, gamma=p["gamma"])
        ref = lambda a, b: np.exp(-p["gamma"] * np.sum(np.abs(a - b)))  # noqa: E731
    elif kind == "sigmoid":
        kx = sigmoid_kernel(x, gamma=p["gamma"], coef0=p["coef0"])
        ky = sigmoid_kernel(x, y, gamma=p["gamma"], coef0=p["coef0"])
        ref = lambda a, b: np.tanh(p["gamma"] * (a @ b) + p["coef0"])  # noqa: E731
    else:
        raise ValueError(kind)
    close(kx, direct(ref, x, x), 1e-12)
    close(ky, direct(ref, x, y), 1e-12)
    return kx, ky


def add(cases, name, data, kind, x, y, kx, ky, **params):
    cases[name] = {"kind": kind, "data": data, "x": x, "y": y, **params, "k_xx": kx, "k_xy": ky}


def leaf_cases(cases):
    specs = [
        ("linear", {}),
        ("poly", {"degree": 2, "gamma": 0.5, "coef0": 1.0}),
        ("poly", {"degree": 3, "gamma": 0.1, "coef0": 0.0}),
        ("poly", {"degree": 4, "gamma": None, "coef0": 1.0}),
        ("rbf", {"gamma": 0.1}),
        ("rbf", {"gamma": 0.5}),
        ("rbf", {"gamma": 2.0}),
        ("rbf", {"gamma": None}),
        ("laplacian", {"gamma": 0.1}),
        ("laplacian", {"gamma": 1.0}),
        ("sigmoid", {"gamma": 0.01, "coef0": 0.0}),
        ("sigmoid", {"gamma": 0.05, "coef0": -1.0}),
    ]
    wine_specs = [
        ("linear", {}),
        ("poly", {"degree": 3, "gamma": 0.01, "coef0": 1.0}),
        ("rbf", {"gamma": 0.05}),
        ("laplacian", {"gamma": 0.2}),
        ("sigmoid", {"gamma": 0.002, "coef0": 0.5}),
    ]
    for data, sp in [("iris", specs), ("wine", wine_specs)]:
        x, y = rows(data)
        for i, (kind, p) in enumerate(sp):
            p = dict(p)
            extra = {}
            if p.get("gamma", 0.0) is None:
                p["gamma"] = 1.0 / x.shape[1]  # scikit-learn's default
                extra["gamma_default"] = "1/n_features"
            kx, ky = leaf(kind, x, y, **p)
            add(cases, f"{kind}_{data}_{i}", data, kind, x, y, kx, ky, **p, **extra)


def combination_cases(cases):
    x, y = rows("iris")

    g_rbf, deg, g_poly, c0 = 0.5, 2, 1.0, 1.0
    rx, ry = leaf("rbf", x, y, gamma=g_rbf)
    px, py = leaf("poly", x, y, degree=deg, gamma=g_poly, coef0=c0)
    add(cases, "sum_rbf_poly", "iris", "sum_rbf_poly", x, y, rx + px, ry + py,
        gamma_rbf=g_rbf, degree=deg, gamma_poly=g_poly, coef0=c0)

    lx, ly = leaf("laplacian", x, y, gamma=0.3)
    nx, ny = leaf("linear", x, y)
    add(cases, "product_laplacian_linear", "iris", "product_laplacian_linear", x, y,
        lx * nx, ly * ny, gamma=0.3)

    rx, ry = leaf("rbf", x, y, gamma=0.2)
    add(cases, "scaled_rbf", "iris", "scaled_rbf", x, y, 2.5 * rx, 2.5 * ry, c=2.5, gamma=0.2)

    add(cases, "exp_linear", "iris", "exp_linear", x, y, np.exp(0.01 * nx), np.exp(0.01 * ny),
        c=0.01)

    coeffs = np.array([0.5, 1.0, 0.25])
    rx, ry = leaf("rbf", x, y, gamma=0.3)
    q = lambda k: coeffs[0] + coeffs[1] * k + coeffs[2] * k * k  # noqa: E731
    add(cases, "poly_of_rbf", "iris", "poly_of_rbf", x, y, q(rx), q(ry), coeffs=coeffs, gamma=0.3)

    p = {"degree": 3, "gamma": 0.5, "coef0": 1.0}
    px, py = leaf("poly", x, y, **p)
    pyy, _ = leaf("poly", y, y, **p)
    dx, dy = np.diag(px), np.diag(pyy)
    add(cases, "normalized_poly", "iris", "normalized_poly", x, y,
        px / np.sqrt(np.outer(dx, dx)), py / np.sqrt(np.outer(dx, dy)), **p)

    add(cases, "cosine", "iris", "cosine", x, y, cosine_similarity(x), cosine_similarity(x, y))

    g = 0.4
    wx = np.exp(-g * np.sum(x * x, axis=1))
    wy = np.exp(-g * np.sum(y * y, axis=1))
    kx = np.outer(wx, wx) * np.exp(2 * g * nx)
    ky = np.outer(wx, wy) * np.exp(2 * g * ny)
    close(kx, rbf_kernel(x, gamma=g), 1e-12)
    add(cases, "gaussian_weighted_exp", "iris", "gaussian_weighted_exp", x, y, kx, ky, gamma=g)

    # Sub-vector kernels: rbf on columns 0..2 times poly on 2..4; laplacian on 0..2 plus
    # linear on 1..4 (overlapping ranges are allowed).
    ax, ay = leaf("rbf", x[:, 0:2], y[:, 0:2], gamma=1.0)
    bx, by = leaf("poly", x[:, 2:4], y[:, 2:4], degree=2, gamma=1.0, coef0=1.0)
    add(cases, "subvector_product", "iris", "subvector_product", x, y, ax * bx, ay * by,
        a_start=0, a_end=2, b_start=2, b_end=4, gamma=1.0, degree=2, gamma_poly=1.0, coef0=1.0)
    ax, ay = leaf("laplacian", x[:, 0:2], y[:, 0:2], gamma=0.5)
    bx, by = leaf("linear", x[:, 1:4], y[:, 1:4])
    add(cases, "subvector_sum", "iris", "subvector_sum", x, y, ax + bx, ay + by,
        a_start=0, a_end=2, b_start=1, b_end=4, gamma=0.5)

    b = np.array([[1.0, 0.5, 0.0], [0.2, 1.0, -0.3], [0.0, 0.4, 0.8], [0.3, 0.0, 0.5]])
    a = b @ b.T
    a = 0.5 * (a + a.T)
    assert np.linalg.eigvalsh(a).min() > -1e-12
    add(cases, "quadratic_form", "iris", "quadratic_form", x, y, x @ a @ x.T, x @ a @ y.T, a=a)

    # Wine: a sum and a product with larger magnitudes.
    wx_, wy_ = rows("wine")
    rx, ry = leaf("rbf", wx_, wy_, gamma=0.05)
    px, py = leaf("poly", wx_, wy_, degree=2, gamma=0.01, coef0=1.0)
    add(cases, "product_rbf_poly_wine", "wine", "product_rbf_poly", wx_, wy_, rx * px, ry * py,
        gamma_rbf=0.05, degree=2, gamma_poly=0.01, coef0=1.0)


def main():
    cases = {}
    leaf_cases(cases)
    combination_cases(cases)
    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
