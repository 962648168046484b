#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::distance (pairwise distance matrices).

Writes datasets/golden/core/distance.json. Every case stores its inputs (x, y and
metric parameters) and the scipy.spatial.distance.cdist output d. Before
writing, every matrix is cross-checked against a second implementation
(scipy's single-pair functions or sklearn.metrics.pairwise_distances).

Usage:  target/golden-venv/bin/python scripts/golden/core_distance.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.spatial.distance as ssd
from sklearn.metrics import pairwise_distances

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_distance.py"
OUT = GOLDEN_DIR / "core" / "distance.json"

NOTE = (
    "d = scipy.spatial.distance.cdist(x, y, metric, **params); matrices are row-major. "
    "metric names are scipy's: euclidean, sqeuclidean, cityblock (Manhattan), chebyshev, "
    "minkowski (field p), cosine (1 - cosine similarity; no zero rows in the inputs), "
    "mahalanobis (field vi = inverse of np.cov of the whole data set, ddof=1), hamming "
    "(fraction of differing coordinates), jaccard (scipy's definition; binary inputs). "
    "x/y are subsets of the embedded iris/wine data (raw, unscaled: wine's proline column "
    "is ~1e3, which stresses the Gram trick) or seeded random 0/1 data. Cases *_self have "
    "y == x and include duplicated rows (exact zeros off the diagonal). Every matrix was "
    "cross-checked against scipy's single-pair functions (and sklearn.metrics."
    "pairwise_distances for the metrics it shares) to 1e-12 relative."
)

SINGLE = {
    "euclidean": ssd.euclidean,
    "sqeuclidean": ssd.sqeuclidean,
    "cityblock": ssd.cityblock,
    "chebyshev": ssd.chebyshev,
    "cosine": ssd.cosine,
    "hamming": ssd.hamming,
    "jaccard": ssd.jaccard,
}


def single_pair(x, y, metric, params):
    if metric == "minkowski":
        f = lambda a, b: ssd.minkowski(a, b, params["p"])  # noqa: E731
    elif metric == "mahalanobis":
        f = lambda a, b: ssd.mahalanobis(a, b, params["VI"])  # noqa: E731
    else:
        f = SINGLE[metric]
    return np.array([[f(a, b) for b in y] for a in x])


def check(name, x, y, metric, d, params):
    ref = single_pair(x, y, metric, params)
    assert np.allclose(d, ref, rtol=1e-12, atol=1e-13), name
    sk_name = {"cityblock": "manhattan"}.get(metric, metric)
    if metric in ("cityblock", "chebyshev", "minkowski", "hamming"):
        kw = {"p": params["p"]} if metric == "minkowski" else {}
        sk = pairwise_distances(x, y, metric=sk_name, **kw)
        assert np.allclose(d, sk, rtol=1e-12, atol=1e-13), name


def case(cases, name, x, y, metric, **params):
    d = ssd.cdist(x, y, metric, **params)
    check(name, x, y, metric, d, params)
    entry = {"x": x, "y": y, "metric": metric, "d": d}
    if "p" in params:
        entry["p"] = float(params["p"])
    if "VI" in params:
        entry["vi"] = params["VI"]
    cases[name] = entry


def main() -> None:
    cases: dict = {}
    for data in ("iris", "wine"):
        full, _, _ = load_dataset(data)
        x = full[::15]
        y = full[7::20]
        vi = np.linalg.inv(np.cov(full, rowvar=False))
        vi = (vi + vi.T) / 2.0  # exactly symmetric
        for metric in ("euclidean", "sqeuclidean", "cityblock", "chebyshev", "cosine"):
            case(cases, f"{data}_{metric}", x, y, metric)
        case(cases, f"{data}_minkowski_3", x, y, "minkowski", p=3.0)
        case(cases, f"{data}_minkowski_1_5", x, y, "minkowski", p=1.5)
        case(cases, f"{data}_mahalanobis", x, y, "mahalanobis", VI=vi)

    # Self distances with duplicates: iris rows 101 and 142 are identical.
    iris, _, _ = load_dataset("iris")
    xs = iris[95:145]
    assert np.any(ssd.pdist(xs) == 0.0), "expected duplicated rows"
    for metric in ("euclidean", "sqeuclidean", "cityblock"):
        case(cases, f"iris_self_{metric}", xs, xs, metric)

    # Binary data for hamming / jaccard (and simple matching == hamming).
    rng = np.random.default_rng(20240611)
    xb = (rng.random((12, 20)) < 0.35).astype(np.float64)
    yb = (rng.random((9, 20)) < 0.5).astype(np.float64)
    yb[0] = 0.0  # an all-zero row
    xb[0] = 0.0  # jaccard(0, 0) = 0 by scipy's convention
    for metric in ("hamming", "jaccard"):
        case(cases, f"binary_{metric}", xb, yb, metric)
    # Iris thresholded at the column medians: binary real data.
    med = np.median(iris, axis=0)
    ib = (iris > med).astype(np.float64)
    for metric in ("hamming", "jaccard"):
        case(cases, f"iris_binary_{metric}", ib[::10], ib[3::12], metric)

    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
