"""Spectral embedding references with eigengap-derived tolerances (scikit-learn's
SpectralEmbedding and an exact dense eigendecomposition of the same Laplacian).

Writes datasets/golden/decomposition/spectral_embedding_eigengap.json (the older
spectral_embedding.json of decomposition_manifold.py is left as it is).

The method (scikit-learn's `SpectralEmbedding`, and ndlearn-decomposition's `SpectralEmbedding`,
whose module docs spell out the same steps): an affinity W (the diagonal ignored), degrees
d_i = sum_{j != i} W_ij, the normalised Laplacian L = I - D^-1/2 W D^-1/2 with a unit diagonal,
its k + 1 smallest eigenpairs (L v = lambda v, |v| = 1), u = D^-1/2 v (scikit-learn's
`norm_laplacian=True`; ndlearn uses the same scaling, so no per-column scale is needed), the
sign of every u flipped so that its largest-|.| entry is positive, and the first (trivial) u
dropped (`drop_first=True`).

Cases
* `embedding_<data>_<affinity>_k<k>` -> ndlearn_decomposition::SpectralEmbedding:
  `embedding` = numpy `eigh` of L (dense, backward stable) put through the steps above;
  `embedding_sklearn` = SpectralEmbedding(k, affinity, gamma / n_neighbors,
  eigen_solver="arpack", random_state=0).embedding_. Affinities: "rbf" (W = exp(-gamma |xi-xj|^2))
  on 60 iris rows (i % 5 < 2) and "nearest_neighbors" (0.5 (A + A^T), A the kNN connectivity
  with the point itself among its n_neighbors) on 100 blob points (25 of each of the 4 blobs of
  common.blobs()). The kNN graph is unambiguous: for every row the n-th and (n+1)-th neighbour
  distances differ by more than 1e-9 (relative), asserted.
* `clustering_blobs_rbf_sigma2_k4` -> ndlearn_cluster::SpectralClustering with the Gaussian
  affinity exp(-|xi-xj|^2 / sigma^2), sigma = 2 (gamma = 1/4, exact in binary), the random-walk
  Laplacian and drop_first: its embedding is D^-1/2 v of the 3 eigenvectors after the trivial
  one, i.e. SpectralEmbedding(3, rbf, gamma=0.25)'s; `labels_sklearn` =
  SpectralClustering(4, affinity="rbf", gamma=0.25, random_state=0).labels_ and `labels_true`
  the blob of each row (the script asserts both give adjusted Rand 1).

Tolerances (stored ingredients; the Rust tests evaluate the formulas):
* eta: entrywise relative error of W. rbf: the squared distance is formed from norms and a dot
  product (scikit-learn; ndlearn similarly), abs. error <= (p + 3) eps (|xi|^2 + |xj|^2), so
  eta = eps (2 + gamma (p + 3) 2 max_i |xi|^2); kNN: W in {0, 1/2, 1} is exact, eta = 0.
* delta, a bound on the 2-norm of the difference between the two computed Laplacians'
  backward-error perturbations: the entries of D^-1/2 W D^-1/2 inherit a relative error
  <= 3 eta + n eps (degrees are sums of n positive terms), and for a non-negative matrix an
  entrywise relative error r gives a 2-norm error <= r |D^-1/2 W D^-1/2|_2 = r; each dense
  symmetric eigensolver is backward stable with |E|_2 <= n eps |L|_2 <= 2 n eps (two solvers):
  delta = 3 eta + 5 n eps.
* Eigenvalues (Weyl): |d lambda| <= delta.
* Column j (eigenvalue lambda_j simple, gap g_j = distance to the rest of the spectrum, stored
  in `gaps`): Davis-Kahan gives sin(theta) <= delta / (g_j - delta), so after sign alignment
  |dv|_2 <= sqrt(2) delta / (g_j - delta), and u = v / sqrt(d) adds the degree rounding:
  tol_j = sqrt(2) delta / (g_j - delta) / sqrt(min d) + (eta + n eps) max|u_j|.
  The script asserts scikit-learn's ARPACK embedding lies within tol_j of the numpy one (so a
  comparison with scikit-learn's may use 2 tol_j) and that every column's sign pivot is clear:
  `pivot_margin` (largest |u_ij| minus the largest |u_ij| of opposite sign) > 4 tol_j.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy.sparse.csgraph import connected_components
from sklearn.cluster import SpectralClustering
from sklearn.manifold import SpectralEmbedding
from sklearn.metrics import adjusted_rand_score, pairwise_distances

from common import blobs, load_dataset, write_json

EPS = np.finfo(np.float64).eps


def knn_graph_unambiguous(x, k):
    d = np.sort(pairwise_distances(x), axis=1)  # column 0: the point itself
    kth, nxt = d[:, k - 1], d[:, k]
    return bool(np.all(nxt - kth > 1e-9 * np.maximum(nxt, 1e-300)))


def laplacian(w):
    """scipy's laplacian(normed=True) with scikit-learn's unit diagonal; the diagonal of W is
    ignored."""
    w = np.array(w, dtype=np.float64, copy=True)
    np.fill_diagonal(w, 0.0)
    deg = w.sum(axis=1)
    assert np.all(deg > 0), "isolated node"
    dd = np.sqrt(deg)
    lap = -w / dd / dd[:, None]
    np.fill_diagonal(lap, 1.0)
    return lap, deg


def flip(u):
    """scikit-learn's _deterministic_vector_sign_flip on columns."""
    u = np.array(u, copy=True)
    for j in range(u.shape[1]):
        i = np.argmax(np.abs(u[:, j]))
        if u[i, j] < 0:
            u[:, j] *= -1.0
    return u


def pivot_margin(u):
    out = []
    for j in range(u.shape[1]):
        col = u[:, j]
        top = np.abs(col).max()
        s = np.sign(col[np.argmax(np.abs(col))])
        opposite = np.abs(col[np.sign(col) == -s])
        out.append(top - (opposite.max() if opposite.size else 0.0))
    return np.array(out)


def reference(x, w, k, eta):
    """Dense reference embedding of affinity w, with its tolerance ingredients."""
    n = w.shape[0]
    assert connected_components(w > 0)[0] == 1, "graph not connected"
    lap, deg = laplacian(w)
    vals, vecs = np.linalg.eigh(lap)
    gaps = np.array([min(vals[j] - vals[j - 1], vals[j + 1] - vals[j]) for j in range(1, k + 1)])
    delta = 3.0 * eta + 5.0 * n * EPS
    assert np.all(gaps > 10.0 * delta), (gaps, delta)
    u = flip(vecs[:, : k + 1] / np.sqrt(deg)[:, None])[:, 1:]
    tol = (np.sqrt(2.0) * delta / (gaps - delta) / np.sqrt(deg.min())
           + (eta + n * EPS) * np.abs(u).max(axis=0))
    margin = pivot_margin(u)
    assert np.all(margin > 4.0 * tol), (margin, tol)
    # the exact generalised problem (D - W) u = lambda D u and u^T D u = 1
    w0 = np.array(w, copy=True)
    np.fill_diagonal(w0, 0.0)
    for j in range(k):
        r = deg * u[:, j] - w0 @ u[:, j] - vals[j + 1] * deg * u[:, j]
        assert np.abs(r).max() < 1e-12 * deg.max(), np.abs(r).max()
        assert abs(u[:, j] @ (deg * u[:, j]) - 1.0) < 1e-12
    return dict(
        x=x, k=k, embedding=u, eigenvalues=vals[: k + 1], gaps=gaps, eta=eta, delta=delta,
        min_degree=deg.min(), tolerance=tol, pivot_margin=margin,
    )


def check_sklearn(ref, emb):
    """scikit-learn's (ARPACK) embedding against the dense one: within tol_j, same signs."""
    u, tol = ref["embedding"], ref["tolerance"]
    err = np.abs(emb - u).max(axis=0)
    assert np.all(err <= tol), (err, tol)
    return err


def rbf_eta(x, gamma):
    p = x.shape[1]
    return EPS * (2.0 + gamma * (p + 3) * 2.0 * (x**2).sum(axis=1).max())


def embedding_case(x, k, affinity, **kw):
    se = SpectralEmbedding(n_components=k, affinity=affinity, eigen_solver="arpack",
                           random_state=0, **kw)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a disconnected graph would warn
        emb = se.fit_transform(x)
    w = se.affinity_matrix_
    w = w.toarray() if hasattr(w, "toarray") else np.asarray(w)
    if affinity == "rbf":
        eta = rbf_eta(x, kw["gamma"])
    else:
        assert knn_graph_unambiguous(x, kw["n_neighbors"])
        assert set(np.unique(w)) <= {0.0, 0.5, 1.0}
        eta = 0.0
    ref = reference(x, w, k, eta)
    ref["sklearn_max_abs_error"] = check_sklearn(ref, emb)
    ref["embedding_sklearn"] = emb
    ref["affinity"] = affinity
    ref.update(kw)
    return ref


def clustering_case(x, truth, sigma):
    gamma = 1.0 / sigma**2
    k = int(truth.max()) + 1
    se = SpectralEmbedding(n_components=k - 1, affinity="rbf", gamma=gamma,
                           eigen_solver="arpack", random_state=0)
    emb = se.fit_transform(x)
    ref = reference(x, se.affinity_matrix_, k - 1, rbf_eta(x, gamma))
    ref["sklearn_max_abs_error"] = check_sklearn(ref, emb)
    ref["embedding_sklearn"] = emb
    sc = SpectralClustering(n_clusters=k, affinity="rbf", gamma=gamma, random_state=0).fit(x)
    assert adjusted_rand_score(truth, sc.labels_) == 1.0
    ref.update(sigma=sigma, gamma=gamma, n_clusters=k, labels_sklearn=sc.labels_.astype(np.int64),
               labels_true=truth.astype(np.int64))
    return ref


def main():
    iris = load_dataset("iris")[0]
    iris60 = iris[np.arange(len(iris)) % 5 < 2]
    b = blobs()
    blobs100 = np.concatenate([b[150 * c: 150 * c + 25] for c in range(4)])
    truth = np.repeat(np.arange(4), 25)
    cases = {
        "embedding_iris60_rbf_gamma0.5_k2": embedding_case(iris60, 2, "rbf", gamma=0.5),
        "embedding_iris60_rbf_gamma0.5_k3": embedding_case(iris60, 3, "rbf", gamma=0.5),
        "embedding_blobs100_knn8_k3": embedding_case(blobs100, 3, "nearest_neighbors",
                                                     n_neighbors=8),
        "clustering_blobs100_rbf_sigma2_k4": clustering_case(blobs100, truth, 2.0),
    }
    write_json(
        "datasets/golden/decomposition/spectral_embedding_eigengap.json", cases,
        "spectral_embedding.py",
        "u = D^-1/2 v from numpy eigh of L = I - D^-1/2 W D^-1/2 (diag(W) ignored), largest-|.| "
        "entry of each column positive, first column dropped; embedding_sklearn = "
        "SpectralEmbedding(arpack).embedding_; tolerance_j = sqrt(2) delta/(gap_j - delta)/"
        "sqrt(min d) + (eta + n eps) max|u_j| with delta = 3 eta + 5 n eps (see the docstring)",
    )


if __name__ == "__main__":
    main()
