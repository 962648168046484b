"""Golden references for ndlearn-neighbors: scikit-learn's k-NN and radius classifiers and
regressors and NearestCentroid on the embedded data sets.

Writes datasets/golden/neighbors/knn.json.

Split for every case: training rows i % 4 != 0, test rows i % 4 == 0 (file order). Every case
stores "dataset". `tie` flags test rows whose k-th and (k+1)-th nearest training distances are
equal (relative 1e-12, computed by brute force in the case's metric): there the neighbour set
is not unique, scikit-learn leaves the choice unspecified and ndlearn takes the lower training
index, so those rows are not compared.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.spatial.distance import cdist
from sklearn.neighbors import (
    KNeighborsClassifier,
    KNeighborsRegressor,
    NearestCentroid,
    RadiusNeighborsClassifier,
    RadiusNeighborsRegressor,
)

from common import load_dataset, write_json

NOTE = ("train rows i % 4 != 0, test rows i % 4 == 0; tie = 1 where the k-th and (k+1)-th "
        "neighbour distances are equal, boundary = 1 where a training point lies on the radius "
        "sphere (rows not compared); counts from scipy cdist")


def split(name):
    x, y, _ = load_dataset(name)
    i = np.arange(len(y))
    tr, te = i % 4 != 0, i % 4 == 0
    return x[tr], y[tr], x[te], y[te]


def ties(x, xt, k, metric="euclidean", p=None):
    d = cdist(xt, x, metric, p=p) if p else cdist(xt, x, metric)
    d.sort(axis=1)
    kth, nxt = d[:, k - 1], d[:, k]
    return (np.abs(nxt - kth) <= 1e-12 * np.maximum(kth, 1e-300)).astype(int)


def main():
    cases = {}
    for ds in ("iris", "wine", "breast_cancer", "digits"):
        x, y, xt, _ = split(ds)
        algos = ("brute", "kd_tree", "ball_tree")
        for algo in algos:
            for weights in ("uniform", "distance"):
                ks = (1, 5, 15) if ds == "iris" and algo == "brute" else (5,)
                for k in ks:
                    m = KNeighborsClassifier(n_neighbors=k, algorithm=algo, weights=weights)
                    m.fit(x, y)
                    c = dict(dataset=ds, algorithm=algo, weights=weights, k=k,
                             proba=m.predict_proba(xt), pred=m.predict(xt), tie=ties(x, xt, k))
                    if algo == "brute" and weights == "uniform" and ds != "digits":
                        dist, ind = m.kneighbors(xt)
                        c.update(kn_dist=dist, kn_ind=ind)
                    cases[f"knn_clf_{ds}_{algo}_{weights}_k{k}"] = c
    x, y, xt, _ = split("iris")
    for name, metric, p in (("manhattan", "cityblock", None), ("chebyshev", "chebyshev", None),
                            ("minkowski_p3", "minkowski", 3)):
        kw = {"metric": "minkowski", "p": 3} if p else {"metric": name}
        m = KNeighborsClassifier(n_neighbors=5, algorithm="brute", **kw).fit(x, y)
        cases[f"knn_clf_iris_{name}"] = dict(
            dataset="iris", metric=name, k=5, proba=m.predict_proba(xt), pred=m.predict(xt),
            tie=ties(x, xt, 5, metric, p))

    x, y, xt, _ = split("diabetes")
    for algo in ("brute", "kd_tree", "ball_tree"):
        for weights in ("uniform", "distance"):
            m = KNeighborsRegressor(n_neighbors=5, algorithm=algo, weights=weights).fit(x, y)
            cases[f"knn_reg_diabetes_{algo}_{weights}_k5"] = dict(
                dataset="diabetes", algorithm=algo, weights=weights, k=5, pred=m.predict(xt),
                tie=ties(x, xt, 5))
    y2 = np.column_stack([y, np.sqrt(y)])
    m = KNeighborsRegressor(n_neighbors=5, algorithm="brute").fit(x, y2)
    cases["knn_reg_diabetes_brute_uniform_k5_multi"] = dict(
        dataset="diabetes", k=5, pred=m.predict(xt), tie=ties(x, xt, 5))

    def counts(x, xt, r):
        return (cdist(xt, x) <= r).sum(axis=1)

    def boundary(x, xt, r):
        """1 where a training point lies within 1e-12 r of the sphere: whether it counts
        depends on rounding (scikit-learn's trees and its brute force disagree there)."""
        return (np.abs(cdist(xt, x) - r) <= 1e-12 * r).any(axis=1).astype(int)

    for ds, r in (("iris", 1.0), ("wine", 60.0)):
        x, y, xt, _ = split(ds)
        n = counts(x, xt, r)
        assert n.min() >= 1, (ds, r)
        for weights in ("uniform", "distance"):
            m = RadiusNeighborsClassifier(radius=r, weights=weights).fit(x, y)
            cases[f"radius_clf_{ds}_r{r:g}_{weights}"] = dict(
                dataset=ds, radius=r, weights=weights, proba=m.predict_proba(xt),
                pred=m.predict(xt), counts=n, boundary=boundary(x, xt, r))
    x, y, xt, _ = split("diabetes")
    r = 60.0
    n = counts(x, xt, r)
    assert n.min() >= 1
    for weights in ("uniform", "distance"):
        m = RadiusNeighborsRegressor(radius=r, weights=weights).fit(x, y)
        cases[f"radius_reg_diabetes_r60_{weights}"] = dict(
            dataset="diabetes", radius=r, weights=weights, pred=m.predict(xt), counts=n,
            boundary=boundary(x, xt, r))

    for ds in ("iris", "wine", "digits"):
        x, y, xt, _ = split(ds)
        m = NearestCentroid().fit(x, y)
        cases[f"nearest_centroid_{ds}"] = dict(dataset=ds, centroids=m.centroids_,
                                               pred=m.predict(xt))
    x, y, xt, _ = split("iris")
    m = NearestCentroid(metric="manhattan").fit(x, y)
    cases["nearest_centroid_iris_manhattan"] = dict(dataset="iris", centroids=m.centroids_,
                                                    pred=m.predict(xt))
    x, y, xt, _ = split("wine")
    m = NearestCentroid(shrink_threshold=0.5).fit(x, y)
    cases["nearest_centroid_wine_shrink_0.5"] = dict(dataset="wine", shrink_threshold=0.5,
                                                     centroids=m.centroids_, pred=m.predict(xt))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        write_json("datasets/golden/neighbors/knn.json", cases, "neighbors.py", NOTE)


if __name__ == "__main__":
    main()
