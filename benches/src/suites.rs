//! The benchmark suites. Each case builds its data outside the timed closure, times the kernel
//! with [`crate::time_median`], then checks the result (the quality metric) outside the timing.
//!
//! Case names (`algo`, `dataset`, shape) are shared with `benches/sklearn/run.py`, which times the
//! numpy / scikit-learn equivalent of every case on data of the same shape.

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::{linalg, random, stats};
use ndlearn_datasets as datasets;

use crate::{Record, time_median};

/// Training rows, their labels, held-out rows, their labels.
pub(crate) type ClassSplit = (Array2<f64>, Array1<usize>, Array2<f64>, Array1<usize>);

/// Training rows, their targets, held-out rows, their targets.
pub(crate) type RegressionSplit = (Array2<f64>, Array1<f64>, Array2<f64>, Array1<f64>);

/// `make_classification` of `n_train + n_test` rows × `d` (10 informative, 10 redundant
/// features, `k` classes, `seed`), shared with the reference side as `name`, split into the
/// first `n_train` rows and the others.
///
/// # Errors
/// Generator errors.
pub(crate) fn classification_split(
    name: &str,
    (n_train, n_test, d, k, seed): (usize, usize, usize, usize, u64),
) -> ndlearn_core::Result<ClassSplit> {
    let (x, y) = datasets::MakeClassification::default()
        .n_samples(n_train + n_test)
        .n_features(d)
        .n_informative(10)
        .n_redundant(10)
        .n_classes(k)
        .seed(seed)
        .generate()?;
    crate::suites_linear::share_with_reference(name, &x, &y.mapv(|c| c as f64));
    Ok(split_rows(&x, &y, n_train))
}

/// `make_regression` of `n_train + n_test` rows × `d` (noise 10, `seed`), shared with the
/// reference side as `name`, split into the first `n_train` rows and the others.
///
/// # Errors
/// Generator errors.
pub(crate) fn regression_split(
    name: &str,
    (n_train, n_test, d, seed): (usize, usize, usize, u64),
) -> ndlearn_core::Result<RegressionSplit> {
    let (x, y) = datasets::MakeRegression::default()
        .n_samples(n_train + n_test)
        .n_features(d)
        .noise(10.0)
        .seed(seed)
        .generate()?;
    crate::suites_linear::share_with_reference(name, &x, &y);
    Ok(split_rows(&x, &y, n_train))
}

/// The first `n_train` rows of `(x, y)` and the others: training `x`, `y`, held-out `x`, `y`.
pub(crate) fn split_rows<A: Clone, B: Clone>(
    x: &Array2<A>,
    y: &Array1<B>,
    n_train: usize,
) -> (Array2<A>, Array1<B>, Array2<A>, Array1<B>) {
    (
        x.slice(ndarray::s![..n_train, ..]).to_owned(),
        y.slice(ndarray::s![..n_train]).to_owned(),
        x.slice(ndarray::s![n_train.., ..]).to_owned(),
        y.slice(ndarray::s![n_train..]).to_owned(),
    )
}

/// Options shared by all suites.
#[derive(Debug, Clone, Copy)]
pub struct SuiteOptions {
    /// Timed repetitions per case (median reported).
    pub repeat: usize,
    /// Smaller synthetic sizes (for a quick look; CI never runs the suites).
    pub quick: bool,
}

fn gaussian(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    Array2::from_shape_fn((n, d), |_| random::standard_normal(&mut rng))
}

fn frob(a: &ArrayRef2<f64>) -> f64 {
    a.iter().map(|v| v * v).sum::<f64>().sqrt()
}

fn record(
    algo: &str,
    dataset: &str,
    (n, d): (usize, usize),
    seconds: f64,
    flops: Option<f64>,
    metric: &str,
    value: f64,
) -> Record {
    Record {
        suite: "linalg".into(),
        algo: algo.into(),
        dataset: dataset.into(),
        n,
        d,
        fit_s: seconds,
        predict_s: 0.0,
        metric: metric.into(),
        value,
        gflops: flops.map(|f| f / seconds / 1e9),
        implementation: "ndlearn".into(),
        threads: ndlearn_core::par::current_num_threads(),
    }
}

/// The linear-algebra kernels: gemm, Cholesky, SVD, eigh, least squares, randomized SVD,
/// covariance and pairwise distances, on the embedded data sets and on synthetic matrices.
///
/// Errors from the facade are returned (they would be bugs: every input here is valid).
pub fn linalg_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat;
    let mut out = Vec::new();
    let big = if opts.quick { 512 } else { 1024 };

    // gemm: C = A B, checked by C·1 = A (B·1).
    for &n in &[256usize, big] {
        let a = gaussian(n, n, 1);
        let b = gaussian(n, n, 2);
        let (t, c) = time_median(r, || a.dot(&b));
        let ones = Array1::ones(n);
        let lhs = c.dot(&ones);
        let rhs = a.dot(&b.dot(&ones));
        let err = (&lhs - &rhs).mapv(f64::abs).sum() / rhs.mapv(f64::abs).sum();
        let flops = 2.0 * (n as f64).powi(3);
        out.push(record(
            "gemm",
            "synthetic",
            (n, n),
            t,
            Some(flops),
            "rel_check",
            err,
        ));
    }

    // Cholesky of an SPD matrix.
    let n = if opts.quick { 500 } else { 1000 };
    let g = gaussian(n, n, 3);
    let spd = g.t().dot(&g) / n as f64 + Array2::<f64>::eye(n);
    let (t, l) = time_median(r, || linalg::cholesky(&spd));
    let l = l?;
    let res = frob(&(l.dot(&l.t()) - &spd)) / frob(&spd);
    out.push(record(
        "cholesky",
        "synthetic",
        (n, n),
        t,
        Some((n as f64).powi(3) / 3.0),
        "rel_residual",
        res,
    ));

    // Thin SVD on digits and on a tall synthetic matrix.
    let digits = datasets::digits().x().clone();
    let tall = gaussian(if opts.quick { 1000 } else { 2000 }, 200, 4);
    for (name, a) in [("digits", &digits), ("synthetic", &tall)] {
        let (t, svd) = time_median(r, || linalg::svd_thin(a));
        let svd = svd?;
        let res = frob(&(svd.reconstruct() - a)) / frob(a);
        out.push(record(
            "svd_thin",
            name,
            a.dim(),
            t,
            None,
            "rel_residual",
            res,
        ));
    }

    // Randomized SVD (top 10) on digits.
    let (t, rs) = time_median(r, || {
        linalg::randomized_svd(&digits, 10, linalg::RandomizedSvdOptions::default().seed(0))
    });
    let rs = rs?;
    let exact = linalg::singular_values(&digits)?;
    let err = (0..10)
        .map(|i| (rs.s[i] - exact[i]).abs() / exact[i])
        .fold(0.0, f64::max);
    out.push(record(
        "randomized_svd_k10",
        "digits",
        digits.dim(),
        t,
        None,
        "max_rel_err_s",
        err,
    ));

    // Covariance (stats) and its symmetric eigen-decomposition.
    let (t, cov) = time_median(r, || stats::covariance(&digits, 1));
    let cov = cov?;
    let (n_d, d_d) = digits.dim();
    out.push(record(
        "covariance",
        "digits",
        (n_d, d_d),
        t,
        Some(2.0 * n_d as f64 * (d_d as f64).powi(2)),
        "trace",
        cov.diag().sum(),
    ));
    let sym_n = if opts.quick { 300 } else { 500 };
    let gs = gaussian(sym_n, sym_n, 5);
    let sym = &gs + &gs.t();
    for (name, a) in [("digits_cov", &cov), ("synthetic", &sym)] {
        let (t, e) = time_median(r, || linalg::eigh(a));
        let (w, v) = e?;
        let res = frob(&(a.dot(&v) - &v * &w)) / frob(a);
        out.push(record("eigh", name, a.dim(), t, None, "rel_residual", res));
    }

    // Least squares on diabetes (with intercept column): SVD and QR paths.
    let diab = datasets::diabetes();
    let x = diab.x();
    let y = diab
        .y_values()
        .cloned()
        .unwrap_or_else(|| Array1::zeros(x.nrows()));
    let mut xa = Array2::ones((x.nrows(), x.ncols() + 1));
    xa.slice_mut(ndarray::s![.., 1..]).assign(x);
    let (t, sol) = time_median(r, || linalg::lstsq(&xa, &y, None));
    let sol = sol?;
    let tss = y
        .mapv(|v| v - y.mean().unwrap_or(0.0))
        .mapv(|v| v * v)
        .sum();
    out.push(record(
        "lstsq_svd",
        "diabetes",
        xa.dim(),
        t,
        None,
        "r2",
        1.0 - sol.residual_ss / tss,
    ));
    let (t, q) = time_median(r, || linalg::lstsq_qr(&xa, &y));
    let q = q?;
    let resid = xa.dot(&q) - &y;
    out.push(record(
        "lstsq_qr",
        "diabetes",
        xa.dim(),
        t,
        None,
        "r2",
        1.0 - resid.dot(&resid) / tss,
    ));

    // Pairwise squared distances: digits × digits and a larger synthetic set.
    let syn_n = if opts.quick { 2000 } else { 4000 };
    let syn = gaussian(syn_n, 64, 6);
    for (name, a) in [("digits", &digits), ("synthetic", &syn)] {
        let (t, d) = time_median(r, || linalg::pairwise_sq_euclidean(a, a));
        let d = d?;
        let (n, dim) = a.dim();
        // Check one row against the direct definition.
        let row0 = a.row(0);
        let direct: Array1<f64> = a.map_axis(Axis(1), |x| (&x - &row0).mapv(|v| v * v).sum());
        let err = (&d.row(0) - &direct)
            .mapv(f64::abs)
            .fold(0.0, |m: f64, v| m.max(*v));
        let flops = 2.0 * (n * n * dim) as f64;
        out.push(record(
            "pairwise_sq_euclidean",
            name,
            (n, dim),
            t,
            Some(flops),
            "max_abs_err_row0",
            err,
        ));
    }
    Ok(out)
}
