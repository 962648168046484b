"""Golden references for ndlearn-cluster's BisectingKMeans: scikit-learn's final inertia.

Writes datasets/golden/cluster/bisecting.json.

* `<data>_k<k>_<strategy>`: the inertia of BisectingKMeans(n_clusters=k,
  bisecting_strategy=strategy, random_state=s) for s = 0..9 (`inertias`; random initial rows,
  n_init = 1, as the defaults). The random rows differ between numpy and ndlearn, so the Rust
  test compares the mean over seeds (within 2 %).
* Data: iris (k = 3, 5), 600 points of 4 blobs (stored, k = 4), digits (k = 10).
"""

from __future__ import annotations

import numpy as np
from sklearn.cluster import BisectingKMeans

from common import blobs, load_dataset, write_json


def main():
    cases = {}
    iris = load_dataset("iris")[0]
    for name, x, k, store in (("iris", iris, 3, False), ("iris", iris, 5, False),
                              ("blobs", blobs(), 4, True),
                              ("digits", load_dataset("digits")[0], 10, False)):
        for strategy in ("biggest_inertia", "largest_cluster"):
            inertias = [float(BisectingKMeans(n_clusters=k, bisecting_strategy=strategy,
                                              random_state=s).fit(x).inertia_) for s in range(10)]
            c = dict(dataset=name, k=k, strategy=strategy, inertias=inertias)
            if store:
                c["x"] = x
            cases[f"{name}_k{k}_{strategy}"] = c
    write_json("datasets/golden/cluster/bisecting.json", cases, "cluster_bisecting.py",
               "BisectingKMeans inertias over seeds 0..9")


if __name__ == "__main__":
    main()
