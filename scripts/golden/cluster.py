"""Golden references for ndlearn-cluster: scikit-learn's KMeans (Lloyd).

Writes datasets/golden/cluster/kmeans.json.

* `lloyd_<data>_k<k>`: KMeans(init=<given centres>, n_init=1, algorithm="lloyd") from the rows
  at indices floor(i * n / k), i = 0..k-1 (stored as `init`): centres, labels, inertia, n_iter.
  Same init, same algorithm: the Rust test expects the same centres and labels.
* `plusplus_<data>_k<k>`: the final inertia of KMeans(init="k-means++", n_init=1,
  random_state=s) for s = 0..19 (`inertias`); the random streams differ between numpy and
  ndlearn, so the Rust test compares the mean over 20 seeds (within 1 %).
* `blobs` data: 600 points of 4 Gaussian blobs in 2-D generated here (stored as `x`).
* `dbscan_<data>_eps<eps>_min<m>`: DBSCAN labels (-1 = noise) and core sample indices on blobs,
  two moons (generated here, stored as `x`), iris and standardised wine.
"""

from __future__ import annotations

import numpy as np
from sklearn.cluster import DBSCAN, KMeans
from sklearn.datasets import make_moons

from common import blobs, load_dataset, write_json


def main():
    cases = {}
    data = {name: load_dataset(name)[0] for name in ("iris", "wine", "breast_cancer", "digits")}
    data["blobs"] = blobs()
    for name, k in (("iris", 3), ("wine", 3), ("breast_cancer", 2), ("digits", 10),
                    ("blobs", 4), ("iris", 8)):
        x = data[name]
        n = len(x)
        init = x[[i * n // k for i in range(k)]]
        m = KMeans(n_clusters=k, init=init, n_init=1, algorithm="lloyd").fit(x)
        c = dict(dataset=name, k=k, init=init, centers=m.cluster_centers_, labels=m.labels_,
                 inertia=float(m.inertia_), n_iter=int(m.n_iter_))
        if name == "blobs":
            c["x"] = x
        cases[f"lloyd_{name}_k{k}"] = c
    for name, k in (("iris", 3), ("wine", 5), ("digits", 10), ("blobs", 4)):
        x = data[name]
        inertias = [float(KMeans(n_clusters=k, n_init=1, random_state=s).fit(x).inertia_)
                    for s in range(20)]
        c = dict(dataset=name, k=k, inertias=inertias)
        if name == "blobs":
            c["x"] = x
        cases[f"plusplus_{name}_k{k}"] = c
    dcases = {}
    moons = make_moons(n_samples=400, noise=0.08, random_state=3)[0]
    wine = data["wine"]
    wine_std = (wine - wine.mean(axis=0)) / wine.std(axis=0)
    for name, x, eps, m, store in (("blobs", data["blobs"], 0.5, 5, True),
                                   ("moons", moons, 0.15, 5, True),
                                   ("iris", data["iris"], 0.5, 5, False),
                                   ("iris", data["iris"], 0.3, 3, False),
                                   ("wine_std", wine_std, 2.0, 4, True)):
        db = DBSCAN(eps=eps, min_samples=m).fit(x)
        c = dict(dataset=name, eps=eps, min_samples=m, labels=db.labels_,
                 core=np.asarray(db.core_sample_indices_))
        if store:
            c["x"] = x
        dcases[f"dbscan_{name}_eps{eps:g}_min{m}"] = c
    write_json("datasets/golden/cluster/dbscan.json", dcases, "cluster.py",
               "DBSCAN labels (-1 = noise) and core sample indices")
    write_json("datasets/golden/cluster/kmeans.json", cases, "cluster.py",
               "Lloyd from given centres (rows floor(i n / k)); k-means++ inertias over seeds 0..19")


if __name__ == "__main__":
    main()
