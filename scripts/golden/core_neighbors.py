#!/usr/bin/env python3
"""Golden reference values for ndlearn_core::neighbors (k-nearest neighbours).

Writes datasets/golden/core/neighbors.json: sklearn.neighbors.NearestNeighbors
(n_neighbors=5) fitted on the embedded iris / wine features, queried with a
subset of the training rows (each is its own nearest neighbour) and seeded
perturbations of other rows. Before writing, sklearn's answer is checked against
a plain scipy cdist + stable argsort.

Usage:  target/golden-venv/bin/python scripts/golden/core_neighbors.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import scipy.spatial.distance as ssd
from sklearn.neighbors import NearestNeighbors

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import GOLDEN_DIR, load_dataset, write_json  # noqa: E402

GENERATOR = "scripts/golden/core_neighbors.py"
OUT = GOLDEN_DIR / "core" / "neighbors.json"
K = 5

NOTE = (
    "NearestNeighbors(n_neighbors=5, algorithm, metric, p).fit(x).kneighbors(q): "
    "distances (n_q x 5) and indices (n_q x 5, 0-based ints), sorted by distance. "
    "x = raw embedded data set features; q = x[::3] (training rows, so each is its own "
    "neighbour) followed by x[1::7] + N(0, 0.05 * column std) noise (seed 7). "
    "tie_rows lists the query rows where two of the 6 smallest distances agree to "
    "1e-9 relative (duplicated rows, grid-valued features): there the neighbour order "
    "among equals is arbitrary in scikit-learn, so only the distances are compared. "
    "Checked against scipy cdist + stable argsort before writing."
)

METRICS = [
    ("euclidean", {"metric": "euclidean"}),
    ("manhattan", {"metric": "manhattan"}),
    ("chebyshev", {"metric": "chebyshev"}),
    ("minkowski_3", {"metric": "minkowski", "p": 3}),
]


def scipy_metric(params):
    m = params["metric"]
    if m == "minkowski":
        return "minkowski", {"p": params["p"]}
    return {"manhattan": "cityblock"}.get(m, m), {}


def main() -> None:
    cases: dict = {}
    rng = np.random.default_rng(7)
    for data in ("iris", "wine"):
        x, _, _ = load_dataset(data)
        noise = rng.normal(0.0, 1.0, x[1::7].shape) * 0.05 * x.std(axis=0)
        q = np.vstack([x[::3], x[1::7] + noise])
        for name, params in METRICS:
            for algorithm in ("kd_tree", "brute"):
                nn = NearestNeighbors(n_neighbors=K, algorithm=algorithm, **params).fit(x)
                dist, idx = nn.kneighbors(q)
                if algorithm == "kd_tree":
                    kd = (dist, idx)
            dist, idx = kd
            # Independent check and tie detection.
            sm, kw = scipy_metric(params)
            full = ssd.cdist(q, x, sm, **kw)
            order = np.argsort(full, axis=1, kind="stable")
            ref_d = np.take_along_axis(full, order, axis=1)
            assert np.allclose(dist, ref_d[:, :K], rtol=1e-12, atol=1e-13), (data, name)
            ties = []
            for i in range(q.shape[0]):
                top = ref_d[i, : K + 1]
                gaps = np.diff(top)
                if np.any(gaps <= 1e-9 * max(top[-1], 1e-300)):
                    ties.append(i)
                else:
                    assert np.array_equal(idx[i], order[i, :K]), (data, name, i)
            cases[f"{data}_{name}"] = {
                "x": x,
                "q": q,
                "metric": params["metric"],
                "p": float(params.get("p", 2)),
                "k": K,
                "distances": dist,
                "indices": idx.astype(np.int64),
                "tie_rows": np.array(ties, dtype=np.int64),
            }
    write_json(OUT, cases, GENERATOR, NOTE)
    print(f"wrote {OUT} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
