"""numpy / scikit-learn side of the ndlearn `compare` runner.

Times the reference equivalent of every case of the Rust suites (same algorithm names, data
sets and shapes; synthetic data of the same shape) and prints one JSON line per case in the
same record format as `ndlearn_bench::Record`. Run by `cargo xtask bench` through the
`compare` binary, in the same environment (OpenBLAS variables unset for both sides).
"""

import argparse
import csv
import json
import os
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load(name):
    with open(os.path.join(ROOT, "datasets", "data", name + ".csv")) as f:
        rows = list(csv.reader(f))
    data = np.array(rows[1:], dtype=float)
    return data[:, :-1], data[:, -1]


def time_median(repeat, fn):
    """Median time of `repeat` calls after a warm-up; the previous result is freed before each
    timed call (as the Rust side), so freeing a large result is never timed."""
    last = fn()
    times = []
    for _ in range(max(repeat, 1)):
        last = None
        t = time.perf_counter()
        value = fn()
        times.append(time.perf_counter() - t)
        last = value
    times.sort()
    return times[len(times) // 2], last


def time_once(fn):
    """(seconds, result) of one call of `fn` (the suites timed once, as the Rust side's
    `time_once`)."""
    t = time.perf_counter()
    value = fn()
    return time.perf_counter() - t, value


def threads():
    try:
        from threadpoolctl import threadpool_info

        info = [i for i in threadpool_info() if i.get("internal_api") == "openblas"]
        if info:
            return int(info[0]["num_threads"])
    except Exception:  # threadpoolctl missing: fall back to the CPU count
        pass
    return os.cpu_count() or 1


def record(algo, dataset, shape, seconds, flops, metric, value, impl="numpy"):
    return {
        "suite": "linalg",
        "algo": algo,
        "dataset": dataset,
        "n": int(shape[0]),
        "d": int(shape[1]),
        "fit_s": seconds,
        "predict_s": 0.0,
        "metric": metric,
        "value": float(value),
        "gflops": None if flops is None else flops / seconds / 1e9,
        "implementation": impl,
        "threads": threads(),
    }


def linalg_suite(repeat, quick):
    rng = np.random.default_rng(0)
    out = []
    big = 512 if quick else 1024
    for n in (256, big):
        a = rng.standard_normal((n, n))
        b = rng.standard_normal((n, n))
        t, c = time_median(repeat, lambda: a @ b)
        ones = np.ones(n)
        err = np.abs(c @ ones - a @ (b @ ones)).sum() / np.abs(a @ (b @ ones)).sum()
        out.append(record("gemm", "synthetic", (n, n), t, 2.0 * n**3, "rel_check", err))

    n = 500 if quick else 1000
    g = rng.standard_normal((n, n))
    spd = g.T @ g / n + np.eye(n)
    t, l = time_median(repeat, lambda: np.linalg.cholesky(spd))
    res = np.linalg.norm(l @ l.T - spd) / np.linalg.norm(spd)
    out.append(record("cholesky", "synthetic", (n, n), t, n**3 / 3.0, "rel_residual", res))

    digits, _ = load("digits")
    tall = rng.standard_normal((1000 if quick else 2000, 200))
    for name, a in (("digits", digits), ("synthetic", tall)):
        t, (u, s, vt) = time_median(repeat, lambda: np.linalg.svd(a, full_matrices=False))
        res = np.linalg.norm((u * s) @ vt - a) / np.linalg.norm(a)
        out.append(record("svd_thin", name, a.shape, t, None, "rel_residual", res))

    from sklearn.utils.extmath import randomized_svd

    t, (u, s, vt) = time_median(repeat, lambda: randomized_svd(digits, 10, random_state=0))
    exact = np.linalg.svd(digits, compute_uv=False)
    err = np.max(np.abs(s - exact[:10]) / exact[:10])
    out.append(record("randomized_svd_k10", "digits", digits.shape, t, None, "max_rel_err_s", err, "scikit-learn"))

    t, cov = time_median(repeat, lambda: np.cov(digits, rowvar=False))
    nd, dd = digits.shape
    out.append(record("covariance", "digits", digits.shape, t, 2.0 * nd * dd**2, "trace", np.trace(cov)))
    sym_n = 300 if quick else 500
    gs = rng.standard_normal((sym_n, sym_n))
    sym = gs + gs.T
    for name, a in (("digits_cov", cov), ("synthetic", sym)):
        t, (w, v) = time_median(repeat, lambda: np.linalg.eigh(a))
        res = np.linalg.norm(a @ v - v * w) / np.linalg.norm(a)
        out.append(record("eigh", name, a.shape, t, None, "rel_residual", res))

    # Diabetes with scikit-learn's default scaling, plus an intercept column.
    x, y = load("diabetes")
    x = x - x.mean(axis=0)
    x = x / np.sqrt((x**2).sum(axis=0))
    xa = np.hstack([np.ones((x.shape[0], 1)), x])
    tss = ((y - y.mean()) ** 2).sum()
    t, sol = time_median(repeat, lambda: np.linalg.lstsq(xa, y, rcond=None))
    out.append(record("lstsq_svd", "diabetes", xa.shape, t, None, "r2", 1.0 - sol[1][0] / tss))

    def qr_solve():
        q, r = np.linalg.qr(xa)
        return np.linalg.solve(r, q.T @ y)  # r is triangular; scipy's solve_triangular is not numpy

    t, coef = time_median(repeat, qr_solve)
    resid = xa @ coef - y
    out.append(record("lstsq_qr", "diabetes", xa.shape, t, None, "r2", 1.0 - resid @ resid / tss))

    from sklearn.metrics.pairwise import euclidean_distances

    syn = rng.standard_normal((2000 if quick else 4000, 64))
    for name, a in (("digits", digits), ("synthetic", syn)):
        t, d = time_median(repeat, lambda: euclidean_distances(a, a, squared=True))
        direct = ((a - a[0]) ** 2).sum(axis=1)
        err = np.max(np.abs(d[0] - direct))
        n, dim = a.shape
        out.append(record("pairwise_sq_euclidean", name, a.shape, t, 2.0 * n * n * dim, "max_abs_err_row0", err, "scikit-learn"))
    return out


def core_suite(repeat, quick):
    from sklearn.metrics.pairwise import euclidean_distances, rbf_kernel
    from sklearn.neighbors import NearestNeighbors

    r = min(repeat, 3)
    scale = 5 if quick else 1
    rng = np.random.default_rng(0)
    out = []
    for algo, algorithm, n, d in (
        ("knn5_kdtree", "kd_tree", 200_000 // scale, 16),
        ("knn5_brute", "brute", 100_000 // scale, 64),
    ):
        x = rng.standard_normal((n, d))
        q = rng.standard_normal((10_000 // scale, d))
        fit_s, nn = time_median(r, lambda: NearestNeighbors(n_neighbors=5, algorithm=algorithm, leaf_size=30).fit(x))
        predict_s, (dist, _) = time_median(r, lambda: nn.kneighbors(q, 5))
        rec = record(algo, "synthetic", (n, d), fit_s, None, "mean_5th_distance", dist[:, 4].mean(), "scikit-learn")
        rec.update(suite="core", predict_s=predict_s)
        out.append(rec)
    n = 20_000 // scale
    x = rng.standard_normal((n, 64))
    t, dm = time_median(r, lambda: euclidean_distances(x, x))
    rec = record("pairwise_euclidean", "synthetic", (n, 64), t, 2.0 * n * n * 64, "mean_distance", dm.mean(), "scikit-learn")
    del dm
    rec.update(suite="core")
    out.append(rec)
    t, g = time_median(r, lambda: x @ x.T)
    rec = record("gemm_xxt", "synthetic", (n, 64), t, 2.0 * n * n * 64, "trace", np.trace(g))
    del g
    rec.update(suite="core")
    out.append(rec)
    n = 10_000 // scale
    x = rng.standard_normal((n, 30))
    t, k = time_median(r, lambda: rbf_kernel(x, gamma=1.0 / 30.0))
    rec = record("rbf_gram", "synthetic", (n, 30), t, None, "mean_value", k.mean(), "scikit-learn")
    rec.update(suite="core")
    out.append(rec)
    del k, x
    # The GEMM shapes of decision 0029 and two factorisations, through numpy (its bundled
    # OpenBLAS): `X.T @ X` (numpy calls syrk), `X @ W`, Cholesky and eigh.
    half = min(scale, 2)
    for algo, (n, d), m, gram in (
        ("gemm_xtx", (375_000 // scale, 100), 100, True),
        ("gemm_xw", (100_000 // scale, 100), 100, False),
        ("gemm_square", (2_000 // half, 2_000 // half), 2_000 // half, False),
        ("gemm_xw784", (20_000 // scale, 784), 100, False),
    ):
        x = rng.standard_normal((n, d))
        w = rng.standard_normal((d, m))
        t, p = time_median(r, (lambda: x.T @ x) if gram else (lambda: x @ w))
        rec = record(algo, "synthetic", (n, d), t, 2.0 * n * d * m, "sum", p.sum())
        rec.update(suite="core")
        out.append(rec)
        del p, x, w
    n = 2_000 // half
    g = rng.standard_normal((n, n))
    spd = g.T @ g / n + np.eye(n)
    t, low = time_median(r, lambda: np.linalg.cholesky(spd))
    rec = record("cholesky", "synthetic", (n, n), t, n ** 3 / 3.0, "logdet", 2.0 * np.log(np.diag(low)).sum())
    rec.update(suite="core")
    out.append(rec)
    n = 1_000 // half
    sub = spd[:n, :n].copy()
    t, (vals, _) = time_median(r, lambda: np.linalg.eigh(sub))
    rec = record("eigh", "synthetic", (n, n), t, None, "sum_eigenvalues", vals.sum())
    rec.update(suite="core")
    out.append(rec)
    return out


def metrics_suite(repeat, quick):
    """ROC AUC of 1e6 tied scores and the silhouette of 20,000 x 16 blobs (8 clusters).

    The data are generated here independently of the Rust side, with the same distribution
    (labels Bernoulli(0.3), scores N(0, 1) + 0.5 y rounded to 3 decimals; blob centres
    N(0, 4^2) in 16-D, unit noise, labels i mod 8), so the quality values agree statistically.
    """
    from sklearn.metrics import roc_auc_score, silhouette_score

    r = min(repeat, 3)
    rng = np.random.default_rng(0)
    out = []
    n = 200_000 if quick else 1_000_000
    y = (rng.random(n) < 0.3).astype(np.int64)
    s = np.round(rng.standard_normal(n) + 0.5 * y, 3)
    t, auc = time_median(r, lambda: roc_auc_score(y, s))
    rec = record("roc_auc", "synthetic", (n, 1), t, None, "auc", auc, "scikit-learn")
    rec.update(suite="metrics")
    out.append(rec)
    n, d, k = (5_000 if quick else 20_000), 16, 8
    centres = 4.0 * rng.standard_normal((k, d))
    labels = np.arange(n) % k
    x = centres[labels] + rng.standard_normal((n, d))
    t, sil = time_median(r, lambda: silhouette_score(x, labels))
    rec = record("silhouette", "synthetic", (n, d), t, None, "silhouette", sil, "scikit-learn")
    rec.update(suite="metrics")
    out.append(rec)
    return out


def preprocessing_suite(repeat, quick):
    from sklearn.preprocessing import PolynomialFeatures, StandardScaler

    r = min(repeat, 3)
    n = 100_000 if quick else 500_000
    d = 20
    x = np.random.default_rng(0).standard_normal((n, d))
    out = []

    fit_s, scaler = time_median(r, lambda: StandardScaler().fit(x))
    predict_s, z = time_median(r, lambda: scaler.transform(x))
    rec = record("standard_scaler", "synthetic", (n, d), fit_s, None, "mean_sq_z", float((z * z).mean()), "scikit-learn")
    del z
    rec.update(suite="preprocessing", predict_s=predict_s)
    out.append(rec)

    fit_s, poly = time_median(r, lambda: PolynomialFeatures(degree=3).fit(x))
    # 7 GB per output at full size: drop each result before the next call (as the Rust side).
    times, n_out = [], 0
    for rep in range(r + 1):
        t = time.perf_counter()
        z = poly.transform(x)
        dt = time.perf_counter() - t
        n_out = z.shape[1]
        del z
        if rep > 0:
            times.append(dt)
    times.sort()
    rec = record("polynomial_features_deg3", "synthetic", (n, d), fit_s, None, "n_features_out", n_out, "scikit-learn")
    rec.update(suite="preprocessing", predict_s=times[len(times) // 2])
    out.append(rec)
    return out


def on_two_threads(run):
    """Runs `run()` with numpy's BLAS limited to 2 threads (ndlearn's side uses 2), or as is
    when threadpoolctl is missing."""
    try:
        from threadpoolctl import threadpool_limits
    except Exception:
        run()
        return
    with threadpool_limits(limits=2):
        run()


def shifted(rng, n, d, k):
    """`n` rows of `k` shifted Gaussian classes (`y = i mod k`, class means N(0, 1) per
    coordinate, unit noise), as `shifted_classes` in benches/src/suites_classify.rs."""
    means = rng.standard_normal((k, d))
    y = np.arange(n) % k
    return means[y] + rng.standard_normal((n, d)), y


def shared_classes(name, xy):
    """The classify data set the Rust suite wrote (`shared_classes` in
    benches/src/suites_classify.rs), or the given fallback draw; labels as integers."""
    x, y = xy
    x, y = shared(f"classify_{name}", x.shape[0], x.shape[1], x, y)
    return x, np.asarray(y).astype(np.int64)


def linear_problem(rng, n, d, sparse):
    """X standard normal, y = X w + 0.5 + N(0, 1); w dense N(0, 1), or (sparse) 3 N(0, 1) on
    the first max(10, d // 20) features only (as benches/src/suites_linear.rs)."""
    x = rng.standard_normal((n, d))
    active = min(max(10, d // 20), d) if sparse else d
    w = np.zeros(d)
    w[:active] = (3.0 if sparse else 1.0) * rng.standard_normal(active)
    y = x @ w + 0.5 + rng.standard_normal(n)
    return x, y


SHARED_DIR = os.path.join("target", "ndlearn-bench", "shared")


def shared(name, n, d, x, y):
    """The data set the Rust suite wrote for this case (x row-major, then y, little-endian
    float64; benches/src/suites_linear.rs), or the given fallback draw when it is missing."""
    path = os.path.join(SHARED_DIR, f"{name}_{n}x{d}.f64")
    try:
        raw = np.fromfile(path, dtype="<f8")
    except OSError:
        return x, y
    if raw.size != n * d + n:
        return x, y
    print(f"note: {name} uses the data of the Rust suite ({path})", file=sys.stderr)
    return raw[: n * d].reshape(n, d).copy(), raw[n * d:].copy()


def linear_suite(repeat, quick):
    from sklearn.linear_model import ElasticNet, Lasso, LinearRegression, Ridge
    from sklearn.metrics import r2_score

    r = min(repeat, 3)
    scale = 5 if quick else 1
    rng = np.random.default_rng(0)
    out = []

    def case(algo, make, x, y):
        fit_s, model = time_median(r, lambda: make().fit(x, y))
        predict_s, pred = time_median(r, lambda: model.predict(x))
        rec = record(algo, "synthetic", x.shape, fit_s, None, "r2", r2_score(y, pred), "scikit-learn")
        rec.update(suite="linear", predict_s=predict_s)
        out.append(rec)

    def run():
        x, y = linear_problem(rng, 500_000 // scale, 100, False)
        case("ols", LinearRegression, x, y)
        case("ridge", lambda: Ridge(alpha=1.0), x, y)
        del x, y
        wide = (500, 1000) if quick else (1000, 2000)
        for n, d in (wide, (500_000 // scale, 100)):
            x, y = linear_problem(rng, n, d, True)
            if (n, d) == wide:
                x, y = shared("linear_wide", n, d, x, y)
            case("lasso", lambda: Lasso(alpha=0.1), x, y)
            case("elastic_net", lambda: ElasticNet(alpha=0.1, l1_ratio=0.5), x, y)
        from sklearn.linear_model import LogisticRegression

        for n, d, k in ((200_000 // scale, 50, 2), (50_000 // scale, 40, 5)):
            x = rng.standard_normal((n, d))
            w = rng.standard_normal((d, 1 if k == 2 else k))
            z = x @ w + rng.standard_normal((n, w.shape[1]))
            y = (z[:, 0] > 0).astype(int) if k == 2 else z.argmax(axis=1)
            x, y = shared(f"logistic_k{k}", n, d, x, y)
            y = y.astype(int)
            fit_s, model = time_median(r, lambda: LogisticRegression().fit(x, y))
            predict_s, pred = time_median(r, lambda: model.predict(x))
            rec = record("logistic", "synthetic", x.shape, fit_s, None, "accuracy",
                         float((pred == y).mean()), "scikit-learn")
            rec.update(suite="linear", predict_s=predict_s)
            out.append(rec)

        from sklearn.model_selection import KFold, cross_val_score

        x, y = linear_problem(rng, 200_000 // scale, 20, False)
        fit_s, scores = time_median(
            r, lambda: cross_val_score(Ridge(alpha=1.0), x, y, cv=KFold(5), scoring="r2", n_jobs=1)
        )
        rec = record("cross_val_score_ridge_5fold", "synthetic", x.shape, fit_s, None, "r2",
                     float(np.mean(scores)), "scikit-learn")
        rec.update(suite="linear", predict_s=0.0)
        out.append(rec)

        from sklearn.linear_model import SGDClassifier

        # Plain SGD, exactly 10 epochs (tol=None), shuffled; labels as the binary `logistic`.
        n, d = 200_000 // scale, 50
        x = rng.standard_normal((n, d))
        z = x @ rng.standard_normal((d, 1)) + rng.standard_normal((n, 1))
        y = (z[:, 0] > 0).astype(int)
        fit_s, model = time_median(
            r, lambda: SGDClassifier(max_iter=10, tol=None, random_state=0).fit(x, y)
        )
        predict_s, pred = time_median(r, lambda: model.predict(x))
        rec = record("sgd_classifier", "synthetic", x.shape, fit_s, None, "accuracy",
                     float((pred == y).mean()), "scikit-learn")
        rec.update(suite="linear", predict_s=predict_s)
        out.append(rec)

    on_two_threads(run)
    return out


def decomposition_suite(repeat, quick):
    """The cases of benches/src/suites_decomposition.rs (same shapes, same kind of data: a
    rank-30 signal plus unit noise for PCA and kernel PCA, 10 Gaussian classes for t-SNE)."""
    from sklearn.decomposition import PCA, KernelPCA
    from sklearn.manifold import TSNE, trustworthiness

    r = min(repeat, 3)
    scale = 5 if quick else 1
    rng = np.random.default_rng(2)
    out = []

    def low_rank(n, d):
        k = min(30, d)
        return rng.standard_normal((n, k)) @ rng.standard_normal((k, d)) + rng.standard_normal((n, d))

    def run():
        for algo, n, d, make in (("pca_k10", 500_000, 100, lambda: PCA(10)),
                                 ("pca_randomized_k20", 100_000, 1000,
                                  lambda: PCA(20, svd_solver="randomized", random_state=0))):
            x = low_rank(n // scale, d)
            fit_s, model = time_median(r, lambda: make().fit(x))
            predict_s, _ = time_median(r, lambda: model.transform(x))
            rec = record(algo, "synthetic", x.shape, fit_s, None, "explained_variance_ratio",
                         float(model.explained_variance_ratio_.sum()), "scikit-learn")
            rec.update(suite="decomposition", predict_s=predict_s)
            out.append(rec)
        x = low_rank(5000 // scale, 30)
        x = (x - x.mean(0)) / x.std(0)
        fit_s, model = time_median(r, lambda: KernelPCA(10, kernel="rbf").fit(x))
        predict_s, _ = time_median(r, lambda: model.transform(x))
        rec = record("kernel_pca_rbf_k10", "synthetic", x.shape, fit_s, None,
                     "eigenvalue_sum_over_n", float(model.eigenvalues_.sum() / x.shape[0]),
                     "scikit-learn")
        rec.update(suite="decomposition", predict_s=predict_s)
        out.append(rec)
        n = 5000 // scale
        centres = 4.0 * rng.standard_normal((10, 50))
        x = centres[np.arange(n) % 10] + rng.standard_normal((n, 50))
        fit_s, model = time_median(r, lambda: TSNE(2, random_state=0).fit(x))
        rec = record("tsne_bh", "synthetic", x.shape, fit_s, None, "trustworthiness",
                     float(trustworthiness(x, model.embedding_, n_neighbors=5)), "scikit-learn")
        rec.update(suite="decomposition", predict_s=0.0)
        out.append(rec)

    on_two_threads(run)
    return out


def cluster_suite(repeat, quick):
    """The clustering cases of benches/src/suites_cluster.rs (same shapes, same kind of data:
    k shifted Gaussian classes, y = i mod k)."""
    from sklearn.cluster import AgglomerativeClustering, MiniBatchKMeans
    from sklearn.metrics import adjusted_rand_score
    from sklearn.mixture import GaussianMixture

    r = min(repeat, 3)
    scale = 5 if quick else 1
    rng = np.random.default_rng(1)
    out = []

    def add(algo, x, fit_s, metric, value, predict_s=0.0):
        rec = record(algo, "synthetic", x.shape, fit_s, None, metric, float(value), "scikit-learn")
        rec.update(suite="cluster", predict_s=predict_s)
        out.append(rec)

    def run():
        x, y = shifted(rng, 20_000 // scale, 16, 8)
        fit_s, agg = time_median(r, lambda: AgglomerativeClustering(n_clusters=8).fit(x))
        add("agglomerative_ward", x, fit_s, "ari", adjusted_rand_score(y, agg.labels_))
        x, _ = shifted(rng, 1_000_000 // scale, 16, 8)
        fit_s, mb = time_median(r, lambda: MiniBatchKMeans(n_clusters=8, random_state=0).fit(x))
        add("minibatch_kmeans_k8", x, fit_s, "inertia_per_row", mb.inertia_ / len(x))
        x, _ = shifted(rng, 200_000 // scale, 16, 8)
        fit_s, gm = time_median(r, lambda: GaussianMixture(n_components=8, random_state=0).fit(x))
        predict_s, _ = time_median(r, lambda: gm.predict(x))
        add("gaussian_mixture_full_k8", x, fit_s, "mean_loglik", gm.score(x), predict_s)

    on_two_threads(run)
    return out


def classify_suite(repeat, quick):
    """k-NN, GaussianNB and LDA at the sizes of benches/src/suites_classify.rs (same shapes and
    the same kind of data: k shifted Gaussian classes, y = i mod k)."""
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier

    r = min(repeat, 3)
    scale = 5 if quick else 1
    rng = np.random.default_rng(0)
    out = []

    def case(algo, make, x, y, q, qy):
        fit_s, model = time_median(r, lambda: make().fit(x, y))
        predict_s, pred = time_median(r, lambda: model.predict(q))
        rec = record(algo, "synthetic", x.shape, fit_s, None, "accuracy",
                     float((pred == qy).mean()), "scikit-learn")
        rec.update(suite="classify", predict_s=predict_s)
        out.append(rec)

    def run():
        for n, nq, d in ((200_000, 50_000, 16), (50_000, 10_000, 64)):
            n, nq = n // scale, nq // scale
            x, y = shared_classes("knn", shifted(rng, n + nq, d, 5))
            case("knn_k5", lambda: KNeighborsClassifier(n_neighbors=5, n_jobs=2),
                 x[:n], y[:n], x[n:], y[n:])
        x, y = shared_classes("bayes", shifted(rng, 200_000 // scale, 50, 5))
        case("gaussian_nb", GaussianNB, x, y, x, y)
        case("lda", LinearDiscriminantAnalysis, x, y, x, y)
        from sklearn.datasets import make_classification

        n = 150_000 // scale
        x, y = shared("lda_redundant", n, 50,
                      *make_classification(n, 50, n_informative=10, n_redundant=10,
                                           random_state=37))
        y = np.asarray(y).astype(np.int64)
        case("lda_redundant", LinearDiscriminantAnalysis, x, y, x, y)
        from sklearn.cluster import DBSCAN, KMeans

        for n, d, eps in ((200_000, 2, 0.05), (50_000, 16, 3.0)):
            x, _ = shared_classes("dbscan", shifted(rng, n // scale, d, 8))
            fit_s, db = time_median(r, lambda: DBSCAN(eps=eps, min_samples=5, n_jobs=2).fit(x))
            n_clusters = int(db.labels_.max() + 1)
            rec = record("dbscan", "synthetic", x.shape, fit_s, None, "n_clusters", float(n_clusters),
                         "scikit-learn")
            rec.update(suite="classify", predict_s=0.0)
            out.append(rec)

        x, _ = shared_classes("kmeans", shifted(rng, 200_000 // scale, 16, 8))
        fit_s, models = time_median(
            r, lambda: [KMeans(n_clusters=8, n_init=1, random_state=s).fit(x) for s in range(5)])
        predict_s, _ = time_median(r, lambda: models[0].predict(x))
        rec = record("kmeans_k8_5seeds", "synthetic", x.shape, fit_s, None, "inertia",
                     float(np.mean([m.inertia_ for m in models])), "scikit-learn")
        rec.update(suite="classify", predict_s=predict_s)
        out.append(rec)

    on_two_threads(run)
    return out


def svm_suite(repeat, quick):
    """The cases of benches/src/suites_svm.rs on the data the Rust suite wrote (fallback: a
    make_classification / make_regression draw of the same design): SVC, LinearSVC and
    KernelRidge with scikit-learn's defaults. The two large SVC fits are timed once (they take
    minutes), as on the Rust side."""
    from sklearn.datasets import make_classification, make_regression
    from sklearn.kernel_ridge import KernelRidge
    from sklearn.metrics import r2_score
    from sklearn.svm import SVC, LinearSVC

    r = min(repeat, 3)
    scale = 5 if quick else 1
    out = []

    def classes(name, n, d, informative, redundant, n_classes, seed):
        fallback = make_classification(n, d, n_informative=informative, n_redundant=redundant,
                                       n_classes=n_classes, random_state=seed)
        x, y = shared(f"svm_{name}", n, d, *fallback)
        return x, np.asarray(y).astype(np.int64)

    def add(algo, dataset, shape, fit_s, predict_s, metric, value):
        rec = record(algo, dataset, shape, fit_s, None, metric, float(value), "scikit-learn")
        rec.update(suite="svm", predict_s=predict_s)
        out.append(rec)

    def run():
        n_train, n_test = 37_500 // scale, 12_500 // scale
        x, y = classes("5class", n_train + n_test, 40, 8, 8, 5, 41)
        fit_s, m = time_once(lambda: SVC().fit(x[:n_train], y[:n_train]))
        predict_s, pred = time_once(lambda: m.predict(x[n_train:]))
        add("svc_rbf_5class", "synthetic", (n_train, 40), fit_s, predict_s, "accuracy",
            (pred == y[n_train:]).mean())

        x, y = classes("binary", 20_000 // scale, 50, 10, 10, 2, 42)
        fit_s, m = time_once(lambda: SVC().fit(x, y))
        predict_s, pred = time_once(lambda: m.predict(x))
        add("svc_rbf_binary", "synthetic", x.shape, fit_s, predict_s, "accuracy", (pred == y).mean())

        x, y = load("digits")
        fit_s, m = time_median(r, lambda: SVC().fit(x, y))
        predict_s, pred = time_median(r, lambda: m.predict(x))
        add("svc_rbf", "digits", x.shape, fit_s, predict_s, "accuracy", (pred == y).mean())

        for algo, n, d, informative, seed in (("linear_svc", 150_000 // scale, 50, 10, 43),
                                              ("linear_svc_wide", 2_000 // scale, 5_000 // scale, 20, 44)):
            x, y = classes(algo, n, d, informative, informative, 2, seed)
            fit_s, m = time_median(r, lambda: LinearSVC().fit(x, y))
            predict_s, pred = time_median(r, lambda: m.predict(x))
            add(algo, "synthetic", x.shape, fit_s, predict_s, "accuracy", (pred == y).mean())

        n = 5_000 // scale
        x, y = shared("svm_kernel_ridge", n, 20,
                      *make_regression(n, 20, noise=10.0, random_state=45))
        fit_s, m = time_median(r, lambda: KernelRidge(kernel="rbf").fit(x, y))
        predict_s, pred = time_median(r, lambda: m.predict(x))
        add("kernel_ridge_rbf", "synthetic", x.shape, fit_s, predict_s, "r2", r2_score(y, pred))

    on_two_threads(run)
    return out


def tree_suite(repeat, quick):
    """The cases of benches/src/suites_tree.rs on the data the Rust suite wrote (fallback: a
    make_classification / make_regression draw of the same design): trees and tree ensembles
    with scikit-learn's defaults, fitted on the training rows and scored on the held-out rows;
    every case timed once."""
    from sklearn.datasets import make_classification, make_regression
    from sklearn.ensemble import (AdaBoostClassifier, BaggingClassifier, ExtraTreesClassifier,
                                  IsolationForest, RandomForestClassifier)
    from sklearn.metrics import r2_score
    from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

    scale = 10 if quick else 1
    out = []

    def add(algo, shape, fit_s, predict_s, metric, value):
        rec = record(algo, "synthetic", shape, fit_s, None, metric, float(value), "scikit-learn")
        rec.update(suite="tree", predict_s=predict_s)
        out.append(rec)

    def run():
        n_train, n_test = 150_000 // scale, 30_000 // scale
        n = n_train + n_test
        x, y = shared("tree_classes", n, 50,
                      *make_classification(n, 50, n_informative=10, n_redundant=10,
                                           random_state=51))
        y = np.asarray(y).astype(np.int64)
        xt, yt, xq, yq = x[:n_train], y[:n_train], x[n_train:], y[n_train:]
        # Ensembles on 2 processes (n_jobs=2), as ndlearn's side runs on 2 threads.
        for algo, make in (("decision_tree_clf", DecisionTreeClassifier),
                           ("random_forest_clf", lambda: RandomForestClassifier(n_jobs=2)),
                           ("extra_trees_clf", lambda: ExtraTreesClassifier(n_jobs=2)),
                           ("ada_boost_clf", AdaBoostClassifier),
                           ("bagging_clf", lambda: BaggingClassifier(n_jobs=2))):
            fit_s, m = time_once(lambda: make().fit(xt, yt))
            predict_s, pred = time_once(lambda: m.predict(xq))
            add(algo, xt.shape, fit_s, predict_s, "accuracy", (pred == yq).mean())
        fit_s, m = time_once(lambda: IsolationForest(n_jobs=2).fit(xt))
        predict_s, pred = time_once(lambda: m.predict(xq))
        add("isolation_forest", xt.shape, fit_s, predict_s, "outlier_fraction", (pred == -1).mean())

        n_train, n_test = 375_000 // scale, 25_000 // scale
        n = n_train + n_test
        x, y = shared("tree_regression", n, 100,
                      *make_regression(n, 100, noise=10.0, random_state=52))
        xt, yt, xq, yq = x[:n_train], y[:n_train], x[n_train:], y[n_train:]
        fit_s, m = time_once(lambda: DecisionTreeRegressor().fit(xt, yt))
        predict_s, pred = time_once(lambda: m.predict(xq))
        add("decision_tree_reg", xt.shape, fit_s, predict_s, "r2", r2_score(yq, pred))

    on_two_threads(run)
    return out


def gbdt_suite(repeat, quick, libs=("sklearn",)):
    """The cases of benches/src/suites_gbdt.rs on the data the Rust suite wrote (fallback: a
    make_classification / make_regression draw of the same design): histogram gradient boosting
    in scikit-learn and, when asked and installed, LightGBM and XGBoost (`hist`), all with 100
    iterations, 31 leaves, learning rate 0.1, 255 bins, 20 rows per leaf, no early stopping and
    2 threads; scikit-learn's exact GradientBoostingClassifier (100 trees of depth 3). Every
    case timed once."""
    from sklearn.datasets import make_classification, make_regression
    from sklearn.ensemble import (GradientBoostingClassifier, HistGradientBoostingClassifier,
                                  HistGradientBoostingRegressor)
    from sklearn.metrics import log_loss, r2_score

    scale = 10 if quick else 1
    out = []

    def add(algo, dataset, shape, fit_s, predict_s, metric, value, impl):
        rec = record(algo, dataset, shape, fit_s, None, metric, float(value), impl)
        rec.update(suite="gbdt", predict_s=predict_s)
        out.append(rec)

    def makers(kind, k):
        """(implementation, constructor) for every requested library."""
        found = []
        if "sklearn" in libs:
            if kind == "clf":
                found.append(("scikit-learn", lambda: HistGradientBoostingClassifier(
                    max_iter=100, early_stopping=False)))
            else:
                found.append(("scikit-learn", lambda: HistGradientBoostingRegressor(
                    max_iter=100, early_stopping=False)))
        common = dict(n_estimators=100, learning_rate=0.1)
        if "lightgbm" in libs:
            try:
                import lightgbm as lgb
                lgbm = dict(num_leaves=31, max_bin=255, min_child_samples=20, n_jobs=2,
                            verbose=-1, **common)
                cls = lgb.LGBMClassifier if kind == "clf" else lgb.LGBMRegressor
                found.append((f"lightgbm {lgb.__version__}", lambda: cls(**lgbm)))
            except ImportError:
                print("note: lightgbm is not installed", file=sys.stderr)
        if "xgboost" in libs:
            try:
                import xgboost as xgb
                xg = dict(tree_method="hist", grow_policy="lossguide", max_leaves=31,
                          max_depth=0, max_bin=255, n_jobs=2, **common)
                cls = xgb.XGBClassifier if kind == "clf" else xgb.XGBRegressor
                found.append((f"xgboost {xgb.__version__}", lambda: cls(**xg)))
            except ImportError:
                print("note: xgboost is not installed", file=sys.stderr)
        return found

    def classify(algo, xt, yt, xq, yq, candidates):
        for impl, make in candidates:
            fit_s, m = time_once(lambda: make().fit(xt, yt))
            predict_s, pred = time_once(lambda: m.predict(xq))
            proba = m.predict_proba(xq)
            add(algo, "synthetic", xt.shape, fit_s, predict_s, "accuracy",
                (np.asarray(pred) == yq).mean(), impl)
            add(algo, "synthetic-logloss", xt.shape, fit_s, predict_s, "log_loss",
                log_loss(yq, proba, labels=np.arange(proba.shape[1])), impl)

    def classes(name, n_train, n_test, d, k, seed):
        n = n_train + n_test
        x, y = shared(name, n, d, *make_classification(n, d, n_informative=10, n_redundant=10,
                                                        n_classes=k, random_state=seed))
        y = np.asarray(y).astype(np.int64)
        return x[:n_train], y[:n_train], x[n_train:], y[n_train:]

    def run():
        xt, yt, xq, yq = classes("gbdt_binary", 150_000 // scale, 50_000 // scale, 50, 2, 61)
        classify("hist_gb_clf", xt, yt, xq, yq, makers("clf", 2))
        if "sklearn" in libs:
            classify("gradient_boosting_clf", xt, yt, xq, yq,
                     [("scikit-learn", GradientBoostingClassifier)])
        xt, yt, xq, yq = classes("gbdt_multiclass", 37_500 // scale, 12_500 // scale, 40, 5, 62)
        classify("hist_gb_multiclass", xt, yt, xq, yq, makers("clf", 5))

        n_train, n_test = 375_000 // scale, 25_000 // scale
        n = n_train + n_test
        x, y = shared("gbdt_regression", n, 100,
                      *make_regression(n, 100, noise=10.0, random_state=63))
        xt, yt, xq, yq = x[:n_train], y[:n_train], x[n_train:], y[n_train:]
        for impl, make in makers("reg", 1):
            fit_s, m = time_once(lambda: make().fit(xt, yt))
            predict_s, pred = time_once(lambda: m.predict(xq))
            add("hist_gb_reg", "synthetic", xt.shape, fit_s, predict_s, "r2",
                r2_score(yq, pred), impl)

    on_two_threads(run)
    return out


# The network of the neural suite and the memory case (benches/src/suites_neural.rs): one hidden
# layer of 100 ReLU units, scikit-learn's Adam, mini-batches of 200, a fixed number of epochs.
MLP_SETTINGS = dict(hidden_layer_sizes=(100,), activation="relu", solver="adam", batch_size=200,
                    tol=0.0, n_iter_no_change=1000, early_stopping=False, shuffle=True,
                    random_state=0)


def neural_suite(repeat, quick, libs=("sklearn",)):
    """The cases of benches/src/suites_neural.rs on the data the Rust suite wrote (fallback: a
    make_classification / make_regression draw of the same design): one hidden layer of 100
    ReLU units, Adam (learning rate 1e-3), L2 alpha = 1e-4, mini-batches of 200 rows shuffled
    every epoch, a fixed number of epochs (tol = 0, no early stopping), Glorot-uniform initial
    weights; in scikit-learn and, when asked and installed, PyTorch on the CPU (2 threads).
    Both sides fit on the raw x and y (nothing standardised). Every case timed once."""
    import warnings

    from sklearn.datasets import make_classification, make_regression
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.metrics import r2_score
    from sklearn.neural_network import MLPClassifier, MLPRegressor

    scale = 10 if quick else 1
    out = []
    mlp = MLP_SETTINGS

    torch = None
    if "torch" in libs:
        try:
            import torch
        except ImportError:
            print("note: torch is not installed", file=sys.stderr)

    def add(algo, dataset, shape, fit_s, predict_s, metric, value, impl, n_threads=None):
        rec = record(algo, dataset, shape, fit_s, None, metric, float(value), impl)
        rec.update(suite="neural", predict_s=predict_s)
        if n_threads is not None:
            rec["threads"] = n_threads
        out.append(rec)

    def sklearn_case(algo, dataset, make, xt, yt, xq, yq):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            fit_s, m = time_once(lambda: make().fit(xt, yt))
        predict_s, pred = time_once(lambda: m.predict(xq))
        if xt.dtype == np.float32 and m.coefs_[0].dtype != np.float32:
            dataset += "-upcast"  # scikit-learn trained in float64 on float32 input
        if algo == "mlp_reg":
            add(algo, dataset, xt.shape, fit_s, predict_s, "r2", r2_score(yq, pred),
                "scikit-learn")
        else:
            add(algo, dataset, xt.shape, fit_s, predict_s, "accuracy", (pred == yq).mean(),
                "scikit-learn")

    def torch_fit(xt, yt, kind, k, epochs, seed=0, alpha=1e-4, batch=200):
        """scikit-learn's MLP in PyTorch: Linear(d, 100) -> ReLU -> Linear(100, k), trained
        on x and y as given (numpy arrays; their dtype is the training dtype), conversion to
        tensors included."""
        nn = torch.nn
        dtype = torch.float32 if xt.dtype == np.float32 else torch.float64
        g = torch.Generator().manual_seed(seed)
        x = torch.as_tensor(xt, dtype=dtype)
        if kind == "binary":
            y = torch.as_tensor(yt, dtype=dtype).reshape(-1, 1)
            loss_fn = nn.BCEWithLogitsLoss()  # mean over the batch, as scikit-learn's log loss
        elif kind == "multiclass":
            y = torch.as_tensor(yt, dtype=torch.int64)
            loss_fn = nn.CrossEntropyLoss()  # softmax + mean log loss
        else:
            y = torch.as_tensor(yt, dtype=dtype).reshape(-1, 1)
            mse = nn.MSELoss()  # scikit-learn's squared loss is mean((y - p)^2) / 2
            loss_fn = lambda p, t: 0.5 * mse(p, t)  # noqa: E731
        d = x.shape[1]
        model = nn.Sequential(nn.Linear(d, 100), nn.ReLU(), nn.Linear(100, k)).to(dtype)
        with torch.no_grad():
            # Glorot uniform as scikit-learn's `_init_coef` (ReLU: factor 6): weights AND
            # biases drawn from U(-b, b), b = sqrt(6 / (fan_in + fan_out)).
            for layer in (model[0], model[2]):
                bound = float(np.sqrt(6.0 / (layer.in_features + layer.out_features)))
                layer.weight.uniform_(-bound, bound, generator=g)
                layer.bias.uniform_(-bound, bound, generator=g)
        weights = [model[0].weight, model[2].weight]
        # Adam with scikit-learn's constants. (PyTorch adds eps to sqrt(v_hat), scikit-learn to
        # sqrt(v) with the bias correction folded into the step size: a difference of order
        # eps, immaterial here.)
        opt = torch.optim.Adam(model.parameters(), lr=1e-3, betas=(0.9, 0.999), eps=1e-8)
        n = x.shape[0]
        for _ in range(epochs):
            perm = torch.randperm(n, generator=g)
            for start in range(0, n, batch):
                idx = perm[start:start + batch]
                opt.zero_grad(set_to_none=True)
                # L2 penalty in the loss, exactly as scikit-learn: alpha / (2 * rows in this
                # batch) * sum of squared weights, weights only (no biases). Not weight_decay
                # (alpha / batch_size on a weights-only param group): that would use the
                # nominal batch size on a short last batch (digits: 1797 = 8 * 200 + 197).
                penalty = sum((w * w).sum() for w in weights) * (alpha / (2 * len(idx)))
                loss = loss_fn(model(x[idx]), y[idx]) + penalty
                loss.backward()
                opt.step()
        return model

    def torch_predict(model, xq, kind):
        with torch.no_grad():
            dtype = torch.float32 if xq.dtype == np.float32 else torch.float64
            z = model(torch.as_tensor(xq, dtype=dtype))
            if kind == "binary":
                return (z[:, 0] > 0).to(torch.int64).numpy()
            if kind == "multiclass":
                return z.argmax(dim=1).numpy()
            return z[:, 0].numpy()

    def torch_case(algo, dataset, kind, k, epochs, xt, yt, xq, yq):
        if torch is None:
            return
        impl = f"pytorch {torch.__version__}"
        fit_s, model = time_once(lambda: torch_fit(xt, yt, kind, k, epochs))
        predict_s, pred = time_once(lambda: torch_predict(model, xq, kind))
        if kind == "regression":
            add(algo, dataset, xt.shape, fit_s, predict_s, "r2", r2_score(yq, pred), impl,
                torch.get_num_threads())
        else:
            add(algo, dataset, xt.shape, fit_s, predict_s, "accuracy", (pred == yq).mean(),
                impl, torch.get_num_threads())

    def run():
        if torch is not None:
            torch.set_num_threads(2)
        sk = "sklearn" in libs

        n_train, n_test = 150_000 // scale, 50_000 // scale
        n = n_train + n_test
        x, y = shared("neural_binary", n, 50,
                      *make_classification(n, 50, n_informative=10, n_redundant=10,
                                           n_classes=2, random_state=71))
        y = np.asarray(y).astype(np.int64)
        xt, yt, xq, yq = x[:n_train], y[:n_train], x[n_train:], y[n_train:]
        xt32, xq32 = xt.astype(np.float32), xq.astype(np.float32)
        for dataset, a, b in (("synthetic-f64", xt, xq), ("synthetic-f32", xt32, xq32)):
            if sk:
                sklearn_case("mlp_clf", dataset, lambda: MLPClassifier(max_iter=20, **mlp),
                             a, yt, b, yq)
            torch_case("mlp_clf", dataset, "binary", 1, 20, a, yt, b, yq)

        x, y = load("digits")
        y = y.astype(np.int64)
        if sk:
            sklearn_case("mlp_clf", "digits", lambda: MLPClassifier(max_iter=100, **mlp),
                         x, y, x, y)
        torch_case("mlp_clf", "digits", "multiclass", int(y.max()) + 1, 100, x, y, x, y)

        n_train, n_test = 375_000 // scale, 25_000 // scale
        n = n_train + n_test
        x, y = shared("neural_regression", n, 100,
                      *make_regression(n, 100, noise=10.0, random_state=72))
        xt, yt, xq, yq = x[:n_train], y[:n_train], x[n_train:], y[n_train:]
        if sk:
            sklearn_case("mlp_reg", "synthetic-f64", lambda: MLPRegressor(max_iter=20, **mlp),
                         xt, yt, xq, yq)
        torch_case("mlp_reg", "synthetic-f64", "regression", 1, 20, xt, yt, xq, yq)

    on_two_threads(run)
    return out


# ---------------------------------------------------------------------------------------------
# Registry suites (`--serve`): one JSON request per stdin line from the Rust runner, one JSON
# reply per line. Same CSV files, same hyperparameters, the same metric as `ndlearn bench`.
# ---------------------------------------------------------------------------------------------

# ndlearn registry name -> (module, class, fixed keyword arguments). The fixed arguments only
# select dense outputs (the Rust side returns dense arrays); defaults are otherwise scikit-learn's,
# which ndlearn's defaults follow. Names without an entry have no scikit-learn equivalent.
SKLEARN = {
    # linear models
    "linear_regression": ("sklearn.linear_model", "LinearRegression", {}),
    "ridge": ("sklearn.linear_model", "Ridge", {}),
    "ridge_cv": ("sklearn.linear_model", "RidgeCV", {}),
    "lasso": ("sklearn.linear_model", "Lasso", {}),
    "elastic_net": ("sklearn.linear_model", "ElasticNet", {}),
    "lasso_cv": ("sklearn.linear_model", "LassoCV", {}),
    "elastic_net_cv": ("sklearn.linear_model", "ElasticNetCV", {}),
    "logistic_regression": ("sklearn.linear_model", "LogisticRegression", {}),
    # reductions over LogisticRegression (a tuple value is built as (module, class, kwargs));
    # OutputCodeClassifier draws its own random code, so random_bipartition compares in spirit
    "one_vs_rest": ("sklearn.multiclass", "OneVsRestClassifier",
                    {"estimator": ("sklearn.linear_model", "LogisticRegression", {})}),
    "one_vs_one": ("sklearn.multiclass", "OneVsOneClassifier",
                   {"estimator": ("sklearn.linear_model", "LogisticRegression", {})}),
    "random_bipartition": ("sklearn.multiclass", "OutputCodeClassifier",
                           {"estimator": ("sklearn.linear_model", "LogisticRegression", {}),
                            "random_state": 0}),
    "perceptron": ("sklearn.linear_model", "Perceptron", {}),
    # ndlearn's default is plain least squares (alpha = 0); predictions equal one-hot OLS
    "least_squares_classifier": ("sklearn.linear_model", "RidgeClassifier", {"alpha": 0.0}),
    "sgd_classifier": ("sklearn.linear_model", "SGDClassifier", {}),
    "sgd_regressor": ("sklearn.linear_model", "SGDRegressor", {}),
    "huber_regressor": ("sklearn.linear_model", "HuberRegressor", {}),
    "quantile_regressor": ("sklearn.linear_model", "QuantileRegressor", {}),
    # least absolute deviations = the 0.5-quantile without penalty (same LP)
    "lad_regressor": ("sklearn.linear_model", "QuantileRegressor", {"alpha": 0.0}),
    "bayesian_ridge": ("sklearn.linear_model", "BayesianRidge", {}),
    "ard_regression": ("sklearn.linear_model", "ARDRegression", {}),
    # Bayes classifiers
    "gaussian_nb": ("sklearn.naive_bayes", "GaussianNB", {}),
    "multinomial_nb": ("sklearn.naive_bayes", "MultinomialNB", {}),
    "bernoulli_nb": ("sklearn.naive_bayes", "BernoulliNB", {}),
    "categorical_nb": ("sklearn.naive_bayes", "CategoricalNB", {}),
    "complement_nb": ("sklearn.naive_bayes", "ComplementNB", {}),
    "lda": ("sklearn.discriminant_analysis", "LinearDiscriminantAnalysis", {}),
    "qda": ("sklearn.discriminant_analysis", "QuadraticDiscriminantAnalysis", {}),
    # neighbours
    "knn_classifier": ("sklearn.neighbors", "KNeighborsClassifier", {}),
    "knn_regressor": ("sklearn.neighbors", "KNeighborsRegressor", {}),
    "radius_neighbors_classifier": ("sklearn.neighbors", "RadiusNeighborsClassifier", {}),
    "radius_neighbors_regressor": ("sklearn.neighbors", "RadiusNeighborsRegressor", {}),
    "nearest_centroid": ("sklearn.neighbors", "NearestCentroid", {}),
    "nearest_neighbor_interpolator": ("sklearn.neighbors", "KNeighborsRegressor", {"n_neighbors": 1}),
    # clustering
    "kmeans": ("sklearn.cluster", "KMeans", {}),
    "minibatch_kmeans": ("sklearn.cluster", "MiniBatchKMeans", {}),
    "bisecting_kmeans": ("sklearn.cluster", "BisectingKMeans", {}),
    "agglomerative": ("sklearn.cluster", "AgglomerativeClustering", {}),
    "dbscan": ("sklearn.cluster", "DBSCAN", {}),
    "gaussian_mixture": ("sklearn.mixture", "GaussianMixture", {}),
    # ndlearn's default graph is the notes' kNN graph (10 neighbours) with 2 clusters
    "spectral_clustering": ("sklearn.cluster", "SpectralClustering",
                            {"affinity": "nearest_neighbors", "n_clusters": 2}),
    # support vector machines and kernel ridge
    "svc": ("sklearn.svm", "SVC", {}),
    "nu_svc": ("sklearn.svm", "NuSVC", {}),
    "svr": ("sklearn.svm", "SVR", {}),
    "nu_svr": ("sklearn.svm", "NuSVR", {}),
    "one_class_svm": ("sklearn.svm", "OneClassSVM", {}),
    "kernel_ridge": ("sklearn.kernel_ridge", "KernelRidge", {}),
    "linear_svc": ("sklearn.svm", "LinearSVC", {}),
    "linear_svr": ("sklearn.svm", "LinearSVR", {}),
    # decomposition and manifolds
    "pca": ("sklearn.decomposition", "PCA", {}),
    "incremental_pca": ("sklearn.decomposition", "IncrementalPCA", {}),
    "kernel_pca": ("sklearn.decomposition", "KernelPCA", {}),
    "truncated_svd": ("sklearn.decomposition", "TruncatedSVD", {}),
    "nmf": ("sklearn.decomposition", "NMF", {}),
    "fast_ica": ("sklearn.decomposition", "FastICA", {}),
    "tsne": ("sklearn.manifold", "TSNE", {}),
    "spectral_embedding": ("sklearn.manifold", "SpectralEmbedding", {}),
    "mds": ("sklearn.manifold", "MDS", {}),
    "classical_mds": ("sklearn.manifold", "ClassicalMDS", {}),
    # preprocessing
    "standard_scaler": ("sklearn.preprocessing", "StandardScaler", {}),
    "min_max_scaler": ("sklearn.preprocessing", "MinMaxScaler", {}),
    "max_abs_scaler": ("sklearn.preprocessing", "MaxAbsScaler", {}),
    "robust_scaler": ("sklearn.preprocessing", "RobustScaler", {}),
    "normalizer": ("sklearn.preprocessing", "Normalizer", {}),
    "one_hot_encoder": ("sklearn.preprocessing", "OneHotEncoder", {"sparse_output": False}),
    "ordinal_encoder": ("sklearn.preprocessing", "OrdinalEncoder", {}),
    "k_bins_discretizer": ("sklearn.preprocessing", "KBinsDiscretizer", {"encode": "onehot-dense"}),
    "polynomial_features": ("sklearn.preprocessing", "PolynomialFeatures", {}),
    "spline_transformer": ("sklearn.preprocessing", "SplineTransformer", {"sparse_output": False}),
    "simple_imputer": ("sklearn.impute", "SimpleImputer", {}),
    "tfidf_transformer": ("sklearn.feature_extraction.text", "TfidfTransformer", {}),
    # trees and forests (ndlearn's random_state defaults to 0; forests grow trees on 2 threads
    # on both sides)
    "decision_tree_classifier": ("sklearn.tree", "DecisionTreeClassifier", {"random_state": 0}),
    "decision_tree_regressor": ("sklearn.tree", "DecisionTreeRegressor", {"random_state": 0}),
    "random_forest_classifier": ("sklearn.ensemble", "RandomForestClassifier",
                                 {"random_state": 0, "n_jobs": 2}),
    "random_forest_regressor": ("sklearn.ensemble", "RandomForestRegressor",
                                {"random_state": 0, "n_jobs": 2}),
    "extra_trees_classifier": ("sklearn.ensemble", "ExtraTreesClassifier",
                               {"random_state": 0, "n_jobs": 2}),
    "extra_trees_regressor": ("sklearn.ensemble", "ExtraTreesRegressor",
                              {"random_state": 0, "n_jobs": 2}),
    "gradient_boosting_classifier": ("sklearn.ensemble", "GradientBoostingClassifier",
                                     {"random_state": 0}),
    "gradient_boosting_regressor": ("sklearn.ensemble", "GradientBoostingRegressor",
                                    {"random_state": 0}),
}


def load_table(path):
    """Features and the `target` column (last) of a CSV written for both sides."""
    with open(path if os.path.isabs(path) else os.path.join(ROOT, path)) as f:
        rows = list(csv.reader(f))
    head = rows[0]
    data = np.array(rows[1:], dtype=float)
    if "target" in head:
        k = head.index("target")
        return np.delete(data, k, axis=1), data[:, k]
    return data, None


def dense(a):
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a)


def differing_defaults(est, ours):
    """Hyperparameters named alike on both sides whose values differ (scalars only)."""
    if not isinstance(ours, dict):
        return []
    theirs = est.get_params(deep=False)
    out = []
    for k, v in ours.items():
        if k not in theirs or isinstance(v, (dict, list)) or v is None:
            continue
        t = theirs[k]
        if isinstance(t, bool) or isinstance(v, bool):
            same = t == v
        elif isinstance(t, (int, float)) and isinstance(v, (int, float)):
            same = abs(t - v) <= 1e-12 * max(abs(t), abs(v), 1.0)
        elif isinstance(t, str) and isinstance(v, str):
            same = t.replace("-", "_").lower() == v.replace("-", "_").lower()
        else:
            continue
        if not same:
            out.append(f"{k}: ndlearn {v!r}, scikit-learn {t!r}")
    return out


def measure_once(kind, make, x, y):
    """One fit + predict, timed as `ndlearn bench` times them, and the metric of the kind."""
    from sklearn import metrics as skm
    from sklearn.manifold import trustworthiness

    est = make()
    t = time.perf_counter()
    if kind in ("classifier", "regressor"):
        est.fit(x, y)
        fit_s = time.perf_counter() - t
        t = time.perf_counter()
        pred = est.predict(x)
        predict_s = time.perf_counter() - t
        if kind == "classifier":
            return fit_s, predict_s, "accuracy", skm.accuracy_score(y, pred)
        return fit_s, predict_s, "r2", skm.r2_score(y, pred)
    if kind == "outlier_detector":
        est.fit(x)
        fit_s = time.perf_counter() - t
        t = time.perf_counter()
        pred = est.predict(x)
        predict_s = time.perf_counter() - t
        return fit_s, predict_s, "outlier_fraction", float(np.mean(pred < 0))
    if kind == "clusterer":
        if hasattr(est, "predict"):
            est.fit(x)
            fit_s = time.perf_counter() - t
            t = time.perf_counter()
            labels = est.predict(x)
            predict_s = time.perf_counter() - t
        else:
            labels = est.fit_predict(x)
            fit_s, predict_s = time.perf_counter() - t, 0.0
        if y is not None:
            return fit_s, predict_s, "ari", skm.adjusted_rand_score(y, labels)
        if hasattr(est, "inertia_"):
            return fit_s, predict_s, "inertia", float(est.inertia_)
        return fit_s, predict_s, "silhouette", skm.silhouette_score(x, labels)
    # transformer
    if hasattr(est, "transform"):
        est.fit(x)
        fit_s = time.perf_counter() - t
        t = time.perf_counter()
        z = dense(est.transform(x))
        predict_s = time.perf_counter() - t
    else:
        z = dense(est.fit_transform(x))
        fit_s, predict_s = time.perf_counter() - t, 0.0
    if hasattr(est, "explained_variance_ratio_"):
        return fit_s, predict_s, "explained_variance_ratio", float(np.sum(est.explained_variance_ratio_))
    if hasattr(est, "inverse_transform"):
        try:
            back = dense(est.inverse_transform(z))
            return fit_s, predict_s, "reconstruction_error", float(np.mean((back - x) ** 2))
        except Exception:  # e.g. an inverse that needs fit_inverse_transform
            pass
    if z.shape[1] < x.shape[1] and z.shape[0] > 11:
        return fit_s, predict_s, "trustworthiness", trustworthiness(x, z, n_neighbors=5)
    return fit_s, predict_s, "n_output_features", float(z.shape[1])


def serve_one(req):
    algo = req["algo"]
    if algo not in SKLEARN:
        return {"skipped": "no scikit-learn equivalent"}
    import importlib
    import warnings

    module, cls, fixed = SKLEARN[algo]
    ctor = getattr(importlib.import_module(module), cls)
    kwargs = {
        k: (getattr(importlib.import_module(v[0]), v[1])(**v[2]) if isinstance(v, tuple) else v)
        for k, v in fixed.items()
    }
    kwargs.update(req.get("overrides") or {})
    x, y = load_table(req["path"])
    kind = req["kind"]
    if kind == "classifier":
        y = y.astype(int)
    elif kind in ("clusterer", "transformer") and y is not None:
        y = y.astype(int) if kind == "clusterer" else y
    note = differing_defaults(ctor(**kwargs), req.get("ours"))
    repeat, single = int(req.get("repeat", 3)), float(req.get("single_shot_s", 0.5))
    min_total, max_calls = float(req.get("min_total_s", 0.0)), int(req.get("max_calls", 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            first = measure_once(kind, lambda: ctor(**kwargs), x, y)
            runs = [first]
            if first[0] + first[1] <= single:
                # as the Rust side: `repeat` calls, more until they add up to min_total_s
                runs, total = [], 0.0
                while len(runs) < max(repeat, 1) or (total < min_total and len(runs) < max_calls):
                    r = measure_once(kind, lambda: ctor(**kwargs), x, y)
                    total += r[0] + r[1]
                    runs.append(r)
        except Exception as e:  # the reference refused the data: reported, not fatal
            msg = str(e).splitlines()[0][:120] if str(e) else type(e).__name__
            runs = [(0.0, 0.0, f"error: {msg}", float("nan"))]
    fits = sorted(r[0] for r in runs)
    preds = sorted(r[1] for r in runs)
    out = {
        "suite": "registry",
        "algo": algo,
        "dataset": req["dataset"],
        "n": int(x.shape[0]),
        "d": int(x.shape[1]),
        "fit_s": fits[len(fits) // 2],
        "predict_s": preds[len(preds) // 2],
        "metric": runs[-1][2],
        "value": float(runs[-1][3]),
        "gflops": None,
        "implementation": "scikit-learn",
        "threads": threads(),
    }
    if not np.isfinite(out["value"]):
        out["value"] = None
    if note:
        out["note"] = "; ".join(note)
    return out


def serve():
    import sklearn  # noqa: F401  (imported before the ready line: never timed)

    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        req = json.loads(line)
        if req.get("quit"):
            break
        try:
            reply = serve_one(req)
        except Exception as e:  # a broken request must not stop the run
            reply = {"skipped": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


def status_kib(key):
    """A `kB` field of /proc/self/status (`VmRSS`, `VmHWM`)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"no {key} in /proc/self/status")


def memory_case(request):
    """Peak memory of one case of benches/src/memory.rs, in this fresh process: imports numpy,
    scipy and scikit-learn, loads the case's data file (written by the Rust side), warms the
    BLAS with one 1024 x 1024 product, resets the high-water mark (/proc/self/clear_refs), reads
    the baseline RSS, runs the measured call, reads VmHWM. Prints one JSON line. With
    `"warm": true` the call first runs once on the first `warm_rows` rows (a predict case: a
    tenth as many queries) before the baseline, as the Rust side does."""
    import scipy  # noqa: F401  (part of the baseline, as the issue defines it)
    import sklearn  # noqa: F401
    from sklearn.cluster import AgglomerativeClustering, KMeans
    from sklearn.decomposition import PCA
    from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
    from sklearn.linear_model import LinearRegression, LogisticRegression, Ridge
    from sklearn.manifold import TSNE
    from sklearn.mixture import GaussianMixture
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.neural_network import MLPClassifier
    from sklearn.svm import SVC
    from threadpoolctl import threadpool_limits

    req = json.loads(request)
    name, n, d, n_fit = req["name"], req["n"], req["d"], req["n_fit"]
    raw = np.fromfile(req["path"], dtype="<f8")
    if raw.size != n * d + n:
        sys.exit(f"{req['path']}: {raw.size} values, not {n * d + n}")
    x = raw[: n * d].reshape(n, d)
    y = raw[n * d:].copy()
    labels = y.astype(np.int64)
    mlp = dict(MLP_SETTINGS, max_iter=20)
    makers = {
        "ols": (LinearRegression, y),
        "ridge": (lambda: Ridge(alpha=1.0), y),
        "logistic": (LogisticRegression, labels),
        "kmeans_k8": (lambda: KMeans(n_clusters=8, n_init=1, random_state=0), None),
        "gaussian_mixture_full_k8": (lambda: GaussianMixture(n_components=8, random_state=0), None),
        "pca_k10": (lambda: PCA(10), None),
        "knn_k5_predict": (lambda: KNeighborsClassifier(n_neighbors=5, n_jobs=2), labels),
        "agglomerative_ward": (lambda: AgglomerativeClustering(n_clusters=8), None),
        "tsne_bh": (lambda: TSNE(2, random_state=0), None),
        "svc_rbf_binary": (SVC, labels),
        "random_forest_clf": (lambda: RandomForestClassifier(n_jobs=2, random_state=0), labels),
        "hist_gb_clf": (lambda: HistGradientBoostingClassifier(max_iter=100, early_stopping=False,
                                                               random_state=0), labels),
        "mlp_clf": (lambda: MLPClassifier(**mlp), labels),
    }
    if name not in makers:
        sys.exit(f"unknown memory case {name}")
    make, target = makers[name]
    with threadpool_limits(limits=2):
        a = np.arange(1024 * 1024, dtype=float).reshape(1024, 1024) % 13
        (a @ a).sum()
        del a
        warm = bool(req.get("warm", False))
        k = int(req.get("warm_rows", 2000))
        if req["predict"]:
            model = make().fit(x[:n_fit], target[:n_fit])
            queries = np.ascontiguousarray(x[n_fit:])
            if warm:
                model.predict(queries[: k // 10])
            call = lambda: model.predict(queries)  # noqa: E731
        elif target is None:
            if warm:
                make().fit(x[:k])
            call = lambda: make().fit(x)  # noqa: E731
        else:
            if warm:
                make().fit(x[:k], target[:k])
            call = lambda: make().fit(x, target)  # noqa: E731
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        baseline = status_kib("VmRSS")
        file_before = status_kib("RssFile")
        faults_before = minor_faults()
        t = time.perf_counter()
        value = call()
        seconds = time.perf_counter() - t
        peak = status_kib("VmHWM")
        faults = minor_faults() - faults_before
        file_kib = max(status_kib("RssFile") - file_before, 0)
        del value
    print(json.dumps({"name": name, "implementation": "scikit-learn", "baseline_kib": baseline,
                      "peak_kib": peak, "seconds": seconds, "warm": warm,
                      "minor_faults": faults, "file_kib": file_kib}), flush=True)


def minor_faults():
    """Minor page faults of the whole process so far (field 10 of /proc/self/stat)."""
    with open("/proc/self/stat") as f:
        return int(f.read().rsplit(")", 1)[1].split()[7])


def blas_info():
    """numpy's BLAS as threadpoolctl reports it: library, version, kernel, threading."""
    import numpy as np
    try:
        from threadpoolctl import threadpool_info

        libs = [i for i in threadpool_info() if i.get("user_api") == "blas"]
    except Exception:  # threadpoolctl missing
        libs = []
    if not libs:
        return f"numpy {np.__version__}, BLAS unknown"
    b = libs[0]
    return (f"numpy {np.__version__}, {b.get('internal_api', 'blas')} {b.get('version')} "
            f"(kernel {b.get('architecture', 'unknown')}, {b.get('threading_layer', '?')})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--suite", default="linalg")
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--libs", default="sklearn",
                   help="comma list of reference libraries (gbdt suite: sklearn, lightgbm, "
                        "xgboost; neural suite: sklearn, torch)")
    p.add_argument("--serve", action="store_true", help="registry suites: answer JSON requests on stdin")
    p.add_argument("--memory-case", help="peak memory of one case (a JSON request from compare)")
    p.add_argument("--blas-info", action="store_true",
                   help="print numpy's BLAS (threadpoolctl: library, version, kernel) and exit")
    args = p.parse_args()
    if args.blas_info:
        print(blas_info(), flush=True)
        return
    if args.memory_case:
        memory_case(args.memory_case)
        return
    if args.serve:
        serve()
        return
    suites = {
        "linalg": [linalg_suite],
        "core": [core_suite],
        "metrics": [metrics_suite],
        "preprocessing": [preprocessing_suite],
        "linear": [linear_suite],
        "classify": [classify_suite],
        "cluster": [cluster_suite],
        "decomposition": [decomposition_suite],
        "svm": [svm_suite],
        "tree": [tree_suite],
        "gbdt": [gbdt_suite],
        "neural": [neural_suite],
        "all": [linalg_suite, core_suite, metrics_suite, preprocessing_suite, linear_suite,
                classify_suite, cluster_suite, decomposition_suite, svm_suite, tree_suite,
                gbdt_suite, neural_suite],
    }
    if args.suite not in suites:
        sys.exit(f"unknown suite {args.suite}")
    libs = tuple(x.strip() for x in args.libs.split(",")) if args.libs != "none" else ("sklearn",)
    for suite in suites[args.suite]:
        results = (suite(args.repeat, args.quick, libs) if suite in (gbdt_suite, neural_suite)
                   else suite(args.repeat, args.quick))
        for r in results:
            print(json.dumps(r), flush=True)


if __name__ == "__main__":
    main()
