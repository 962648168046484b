"""Golden references for ndlearn-decomposition's MDS and spectral embedding (scikit-learn).

Writes datasets/golden/decomposition/mds.json and spectral_embedding.json.

mds.json
* `classical_<data>_<metric>_k<k>`: ClassicalMDS(k, metric) (scikit-learn >= 1.8 has it):
  embedding_ (svd_flip signs on the eigenvector columns) and eigenvalues_; checked here against a
  numpy implementation (double centring, eigh); `negative_ratio` = sum|negative eigenvalues| /
  sum|eigenvalues| of the full spectrum (numpy). `input` is "data" (x = the data set or the
  stored `x`) or "precomputed" (x = the stored distance matrix).
* `classical_oos_<metric>`: ClassicalMDS fitted on the rows i % 3 != 0 of iris, and the
  out-of-sample positions (`transform`) of the rows i % 3 == 0 by Gower's formula
  z = -1/2 L^{-1/2} V^T (d^2 - mean_col(D^2) - mean(d^2) + mean(D^2)) computed with numpy
  (scikit-learn has no transform); with the Euclidean metric this is the PCA projection.
* `smacof_<name>`: MDS(k, metric_mds=True, n_init=1, max_iter, eps).fit_transform(x, init=init)
  from the stored `init`: embedding_, stress_ (raw stress, sum over i < j), n_iter_, and
  `stress1` (MDS(normalized_stress=True) on the same input). `input` as above;
  `init_kind` "given" or "classical" (MDS(init="classical_mds"), no stored init).

spectral_embedding.json
* `<data>_<affinity>_k<k>`: SpectralEmbedding(k, affinity, n_neighbors / gamma,
  eigen_solver="arpack", random_state=0).embedding_ on the stored `x`: standardised wine and a
  digits subset with a 1e-4 jitter (it breaks the distance ties of the integer-valued data) for
  the kNN graphs, which are then unambiguous (every row's k-th and (k+1)-th neighbour distances
  differ by more than 1e-9, asserted); iris (jittered the same way) and wine for the RBF
  affinity. `affinity` is "nearest_neighbors" (`n_neighbors`), "rbf" (`gamma`) or "precomputed"
  (x = the affinity matrix). Checked here against a dense numpy eigh of the
  normalised Laplacian (up to sign); the bottom k + 1 eigenvalues are asserted simple (gaps >
  1e-6), so the eigenvectors are unique up to sign. `eigenvalues` = those k + 1 eigenvalues of
  I - D^-1/2 W D^-1/2 (numpy), `n_connected` the number of connected components.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.sparse.csgraph import connected_components
from sklearn.manifold import MDS, ClassicalMDS, SpectralEmbedding
from sklearn.metrics import pairwise_distances
from sklearn.metrics.pairwise import rbf_kernel
from sklearn.neighbors import kneighbors_graph
from sklearn.preprocessing import StandardScaler

from common import load_dataset, write_json


def flip_cols(u):
    """svd_flip on columns: the largest-|.| entry of every column positive."""
    u = np.array(u, copy=True)
    for j in range(u.shape[1]):
        i = np.argmax(np.abs(u[:, j]))
        if u[i, j] < 0:
            u[:, j] *= -1
    return u


def numpy_classical(d, k):
    b = d**2
    b = b - b.mean(axis=0)
    b = b - b.mean(axis=1, keepdims=True)
    b *= -0.5
    w, v = np.linalg.eigh(b)
    w, v = w[::-1], v[:, ::-1]
    emb = flip_cols(v[:, :k]) * np.sqrt(w[:k])
    neg = np.abs(w[w < 0]).sum() / np.abs(w).sum()
    return emb, w, neg


def classical_cases(cases, iris, wine):
    data = {"iris": (iris, False), "wine_std": (wine, True)}
    for name, (x, store) in data.items():
        for metric, ks in (("euclidean", (2, 3)), ("manhattan", (2,))):
            for k in ks:
                m = ClassicalMDS(n_components=k, metric=metric).fit(x)
                d = pairwise_distances(x, metric=metric)
                emb, w, neg = numpy_classical(d, k)
                assert np.all(m.eigenvalues_ > 0)
                assert np.all(np.diff(w[: k + 1]) < -1e-6 * w[0]), "eigenvalues not simple"
                assert np.allclose(m.embedding_, emb, atol=1e-9 * np.abs(emb).max())
                c = dict(input="data", metric=metric, k=k, embedding=m.embedding_,
                         eigenvalues=m.eigenvalues_, negative_ratio=float(neg))
                if store:
                    c["x"] = x
                else:
                    c["dataset"] = name
                cases[f"classical_{name}_{metric}_k{k}"] = c
    # precomputed: Chebyshev distances of the first 60 standardised wine rows
    d = pairwise_distances(wine[:60], metric="chebyshev")
    m = ClassicalMDS(n_components=3, metric="precomputed").fit(d)
    emb, w, neg = numpy_classical(d, 3)
    assert np.all(m.eigenvalues_ > 0)
    assert np.allclose(m.embedding_, emb, atol=1e-9 * np.abs(emb).max())
    cases["classical_wine60_precomputed_k3"] = dict(
        input="precomputed", metric="chebyshev", k=3, x=d, embedding=m.embedding_,
        eigenvalues=m.eigenvalues_, negative_ratio=float(neg))
    # out of sample (Gower / landmark MDS), numpy
    idx = np.arange(iris.shape[0])
    train, test = iris[idx % 3 != 0], iris[idx % 3 == 0]
    for metric in ("euclidean", "manhattan"):
        m = ClassicalMDS(n_components=2, metric=metric).fit(train)
        d2 = pairwise_distances(train, metric=metric) ** 2
        w, v = np.linalg.eigh(-0.5 * (d2 - d2.mean(0) - d2.mean(1, keepdims=True) + d2.mean()))
        w, v = w[::-1][:2], v[:, ::-1][:, :2]
        v = m.embedding_ / np.sqrt(m.eigenvalues_)  # eigenvectors with scikit-learn's signs
        assert np.allclose(np.abs(v.T @ v), np.eye(2), atol=1e-10)
        assert np.allclose(w, m.eigenvalues_, rtol=1e-10)
        dn2 = pairwise_distances(test, train, metric=metric) ** 2
        b = -0.5 * (dn2 - d2.mean(0) - dn2.mean(1, keepdims=True) + d2.mean())
        z = b @ v / np.sqrt(m.eigenvalues_)
        if metric == "euclidean":
            # the PCA projection of the test rows, up to sign
            mu = train.mean(0)
            p = (test - mu) @ ((train - mu).T @ v / np.sqrt(m.eigenvalues_))
            assert np.allclose(p, z, atol=1e-9)
        # training rows are reproduced exactly
        bt = -0.5 * (d2 - d2.mean(0) - d2.mean(1, keepdims=True) + d2.mean())
        assert np.allclose(bt @ v / np.sqrt(m.eigenvalues_), m.embedding_, atol=1e-9)
        cases[f"classical_oos_{metric}"] = dict(
            input="data", metric=metric, k=2, dataset="iris", embedding=m.embedding_,
            eigenvalues=m.eigenvalues_, transform=z)


def smacof_case(x, init, k, max_iter, eps, precomputed, classical=False):
    kw = dict(n_components=k, metric_mds=True, n_init=1, max_iter=max_iter, eps=eps,
              metric="precomputed" if precomputed else "euclidean")
    if classical:
        m = MDS(init="classical_mds", **kw)
        emb = m.fit_transform(x)
        m1 = MDS(init="classical_mds", normalized_stress=True, **kw)
        m1.fit_transform(x)
    else:
        m = MDS(init="random", **kw)
        emb = m.fit_transform(x, init=init)
        m1 = MDS(init="random", normalized_stress=True, **kw)
        m1.fit_transform(x, init=init)
    assert np.array_equal(m1.embedding_, emb)
    d = pairwise_distances(emb)
    delta = x if precomputed else pairwise_distances(x)
    raw = ((d - delta) ** 2).sum() / 2
    assert abs(raw - m.stress_) <= 1e-9 * max(raw, 1e-300)
    c = dict(input="precomputed" if precomputed else "data", k=k, max_iter=max_iter, eps=eps,
             x=x, embedding=emb, stress=float(m.stress_), stress1=float(m1.stress_),
             n_iter=int(m.n_iter_), init_kind="classical" if classical else "given")
    if not classical:
        c["init"] = init
    return c


def smacof_cases(cases, iris, wine):
    rng = np.random.default_rng(20261201)
    iris50 = iris[:50]
    wine60 = wine[:60]
    init50 = rng.uniform(size=(50, 2))
    init60 = rng.uniform(size=(60, 2))
    init60_3 = rng.uniform(size=(60, 3))
    cases["smacof_iris50_default"] = smacof_case(iris50, init50, 2, 300, 1e-6, False)
    cases["smacof_iris50_5iter"] = smacof_case(iris50, init50, 2, 5, 1e-6, False)
    cases["smacof_wine60_eps1e-9"] = smacof_case(wine60, init60, 2, 3000, 1e-9, False)
    cases["smacof_wine60_k3"] = smacof_case(wine60, init60_3, 3, 300, 1e-6, False)
    dman = pairwise_distances(iris50, metric="manhattan")
    cases["smacof_iris50_precomputed_manhattan"] = smacof_case(dman, init50, 2, 300, 1e-6, True)
    cases["smacof_wine60_classical_init"] = smacof_case(wine60, None, 2, 300, 1e-6, False,
                                                        classical=True)


def knn_gaps_ok(x, k):
    d = np.sort(pairwise_distances(x), axis=1)  # column 0 is the row itself
    gap = d[:, k] - d[:, k - 1]
    return gap.min() > 1e-9


def laplacian_dense(w):
    w = np.array(w, dtype=np.float64, copy=True)
    np.fill_diagonal(w, 0)
    deg = w.sum(1)
    dd = np.where(deg == 0, 1, np.sqrt(deg))
    lap = -w / dd / dd[:, None]
    np.fill_diagonal(lap, 1)
    return lap, dd


def spectral_case(x, k, affinity, **kw):
    se = SpectralEmbedding(n_components=k, affinity=affinity, eigen_solver="arpack",
                           random_state=0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a disconnected graph would warn
        emb = se.fit_transform(x)
    w = se.affinity_matrix_
    w = w.toarray() if hasattr(w, "toarray") else np.asarray(w)
    n_conn = connected_components(w > 0)[0]
    lap, dd = laplacian_dense(w)
    vals, vecs = np.linalg.eigh(lap)
    assert np.all(np.diff(vals[: k + 2]) > 1e-6), f"bottom eigenvalues not simple: {vals[:k+2]}"
    mine = vecs[:, : k + 1] / dd[:, None]
    ours = flip_cols(mine)[:, 1:]
    theirs = flip_cols(emb)
    assert np.allclose(ours, theirs, atol=1e-7 * np.abs(theirs).max()), (
        np.abs(ours - theirs).max())
    c = dict(affinity=affinity, k=k, x=x, embedding=emb, eigenvalues=vals[: k + 1],
             n_connected=int(n_conn))
    c.update({kk: v for kk, v in kw.items()})
    return c


def spectral_cases():
    rng = np.random.default_rng(20261202)
    iris = load_dataset("iris")[0]
    iris_j = iris + 1e-4 * rng.standard_normal(iris.shape)
    digits = load_dataset("digits")[0][:200]
    digits_j = digits + 1e-4 * rng.standard_normal(digits.shape)
    wine = StandardScaler().fit_transform(load_dataset("wine")[0])
    cases = {}
    for name, x, k in (("wine", wine, 10), ("digits200", digits_j, 10)):
        assert knn_gaps_ok(x, k), name
        cases[f"{name}_knn10_k2"] = spectral_case(x, 2, "nearest_neighbors", n_neighbors=k)
    assert knn_gaps_ok(wine, 15)
    cases["wine_knn15_k3"] = spectral_case(wine, 3, "nearest_neighbors", n_neighbors=15)
    cases["wine_rbf_default_k2"] = spectral_case(wine, 2, "rbf", gamma=1.0 / wine.shape[1])
    cases["iris_rbf_gamma0.5_k3"] = spectral_case(iris_j, 3, "rbf", gamma=0.5)
    aff = rbf_kernel(wine[:60], gamma=0.05)
    c = spectral_case(aff, 2, "precomputed")
    cases["wine60_precomputed_k2"] = c
    # the kNN graph of the wine case really is the symmetrised connectivity with self loops
    a = kneighbors_graph(wine, 10, include_self=True).toarray()
    assert np.allclose(0.5 * (a + a.T), SpectralEmbedding(
        n_neighbors=10, eigen_solver="arpack", random_state=0).fit(wine).affinity_matrix_.toarray())
    return cases


def main():
    iris = load_dataset("iris")[0]
    wine = StandardScaler().fit_transform(load_dataset("wine")[0])
    cases = {}
    classical_cases(cases, iris, wine)
    smacof_cases(cases, iris, wine)
    write_json("datasets/golden/decomposition/mds.json", cases, "decomposition_manifold.py",
               "ClassicalMDS (svd_flip column signs), numpy Gower out-of-sample, SMACOF "
               "(MDS metric_mds=True) from given / classical inits; stress = raw stress over "
               "i < j, stress1 = normalized_stress=True; wine standardised (ddof 0)")
    write_json("datasets/golden/decomposition/spectral_embedding.json", spectral_cases(),
               "decomposition_manifold.py",
               "SpectralEmbedding (arpack), embeddings with scikit-learn's deterministic sign "
               "flip (largest-|.| entry of each column positive); jittered iris / digits")


if __name__ == "__main__":
    main()
