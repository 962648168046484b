"""Golden references for ndlearn-cluster's agglomerative clustering: scipy's `linkage`.

Writes datasets/golden/cluster/hierarchy.json.

* `<data>_<method>`: `scipy.cluster.hierarchy.linkage(x, method)` (Euclidean) as `z`
  ((n - 1) x 4), the flat labels of scikit-learn's `AgglomerativeClustering(n_clusters=k,
  linkage=method)` as `sk_labels` (compared up to a permutation), and scipy's
  `fcluster(z, t, "distance")` halfway between the two middle merge heights as `fcluster` (1-based).
* Data: 600 points of 4 Gaussian blobs in 2-D and 300 x 5 standard normal points (generated
  here, stored as `x`), standardised wine and breast cancer (continuous, so no two merges tie).
* `precomputed_<method>`: linkage of a condensed cityblock distance matrix of the 300 x 5
  points (the Rust side gets the square matrix through the core metric).
"""

from __future__ import annotations

import numpy as np
from scipy.cluster.hierarchy import fcluster, linkage
from scipy.spatial.distance import pdist
from sklearn.cluster import AgglomerativeClustering

from common import blobs, load_dataset, write_json


def standardise(x):
    return (x - x.mean(axis=0)) / x.std(axis=0)


def main():
    gauss = np.random.default_rng(7).standard_normal((300, 5))
    data = {
        "blobs": (blobs(), 4, True),
        "gauss": (gauss, 3, True),
        "wine_std": (standardise(load_dataset("wine")[0]), 3, False),
        "breast_cancer_std": (standardise(load_dataset("breast_cancer")[0]), 2, False),
    }
    cases = {}
    for name, (x, k, store) in data.items():
        for method in ("ward", "complete", "average", "single"):
            z = linkage(x, method)
            h = np.sort(z[:, 2])
            m = len(h) // 2
            t = float(0.5 * (h[m] + h[m + 1]))  # between two heights: no rounding ties
            sk = AgglomerativeClustering(n_clusters=k, linkage=method).fit(x).labels_
            c = dict(dataset=name, method=method, k=k, z=z, sk_labels=sk, t=t,
                     fcluster=fcluster(z, t, "distance"))
            if store:
                c["x"] = x
            cases[f"{name}_{method}"] = c
    for method in ("complete", "average", "single", "ward"):
        z = linkage(pdist(gauss, "cityblock"), method)
        cases[f"precomputed_{method}"] = dict(dataset="gauss", method=method, metric="cityblock",
                                              z=z)
    write_json("datasets/golden/cluster/hierarchy.json", cases, "cluster_hierarchy.py",
               "scipy linkage matrices, scikit-learn AgglomerativeClustering labels, fcluster cuts")


if __name__ == "__main__":
    main()
