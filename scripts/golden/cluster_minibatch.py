"""Golden references for ndlearn-cluster's MiniBatchKMeans: scikit-learn's final inertia.

Writes datasets/golden/cluster/minibatch.json.

* `<data>_k<k>`: the inertia of MiniBatchKMeans(n_clusters=k, batch_size=b, n_init=1,
  random_state=s) for s = 0..9 (`inertias`) and of KMeans(k, n_init=10) (`full_inertia`). The
  batches are random on both sides with different generators, so the Rust test compares the
  mean over seeds (within 2 %) and bounds it by the full k-means optimum.
* Data: iris (k = 3, b = 32), 600 points of 4 blobs (stored, k = 4, b = 64), digits (k = 10,
  b = 256).
"""

from __future__ import annotations

import numpy as np
from sklearn.cluster import KMeans, MiniBatchKMeans

from common import blobs, load_dataset, write_json


def main():
    cases = {}
    for name, x, k, b, store in (("iris", load_dataset("iris")[0], 3, 32, False),
                                 ("blobs", blobs(), 4, 64, True),
                                 ("digits", load_dataset("digits")[0], 10, 256, False)):
        inertias = [float(MiniBatchKMeans(n_clusters=k, batch_size=b, n_init=1,
                                          random_state=s).fit(x).inertia_) for s in range(10)]
        full = float(KMeans(n_clusters=k, n_init=10, random_state=0).fit(x).inertia_)
        c = dict(dataset=name, k=k, batch_size=b, inertias=inertias, full_inertia=full)
        if store:
            c["x"] = x
        cases[f"{name}_k{k}"] = c
    write_json("datasets/golden/cluster/minibatch.json", cases, "cluster_minibatch.py",
               "MiniBatchKMeans inertias over seeds 0..9 and the full KMeans optimum")


if __name__ == "__main__":
    main()
