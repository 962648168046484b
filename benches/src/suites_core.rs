//! The "core" suite: the neighbour index, pairwise distances and kernel Gram matrices at the
//! sizes the core-toolkit issue is judged on (5-NN of 10,000 queries against 200,000 × 16 with
//! the k-d tree and 100,000 × 64 by brute force; Euclidean distances 20,000 × 20,000 × 64; RBF
//! Gram 10,000 × 10,000 × 30). `--quick` divides the sizes by about 5.
//!
//! Then the products and factorisations the GEMM-bound estimators spend their time in, at the
//! shapes the BLAS decision (0029) was measured on: `XᵀX` of 375,000 × 100 (PCA, LDA, linear
//! models), `X W` of 100,000 × 100 by 100 × 100 and 20,000 × 784 by 784 × 100 (a dense layer),
//! a square 2,000 product, Cholesky of 2,000 and the symmetric eigen-decomposition of 1,000.
//! Each product runs through the portable GEMM (`gemm_*`) and the linked BLAS
//! (`gemm_*_blas`); scikit-learn's side times numpy's `@`, `cholesky` and `eigh`.

use ndarray::{Array2, Axis};
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::linalg::{self, GemmBackend};
use ndlearn_core::neighbors::{Algorithm, NeighborIndex};
use ndlearn_core::random;

use crate::suites::SuiteOptions;
use crate::{Record, time_median};

fn gaussian(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    Array2::from_shape_fn((n, d), |_| random::standard_normal(&mut rng))
}

fn record(
    algo: &str,
    (n, d): (usize, usize),
    fit_s: f64,
    predict_s: f64,
    flops: Option<f64>,
    metric: &str,
    value: f64,
) -> Record {
    Record {
        suite: "core".into(),
        algo: algo.into(),
        dataset: "synthetic".into(),
        n,
        d,
        fit_s,
        predict_s,
        metric: metric.into(),
        value,
        gflops: flops.map(|f| f / (fit_s + predict_s) / 1e9),
        implementation: "ndlearn".into(),
        threads: ndlearn_core::par::current_num_threads(),
    }
}

/// Runs the core suite (heavy cases are repeated at most 3 times).
pub fn core_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let scale = if opts.quick { 5 } else { 1 };
    let mut out = Vec::new();

    // 5-NN: index build is "fit", the 10,000 queries are "predict".
    for (algo, algorithm, n, d) in [
        ("knn5_kdtree", Algorithm::KdTree, 200_000 / scale, 16),
        ("knn5_brute", Algorithm::Brute, 100_000 / scale, 64),
    ] {
        let x = gaussian(n, d, 11);
        let q = gaussian(10_000 / scale, d, 12);
        let (fit_s, index) = time_median(r, || {
            NeighborIndex::build(x.clone(), Metric::Euclidean, algorithm, 30)
        });
        let index = index?;
        let (predict_s, res) = time_median(r, || index.kneighbors(&q, 5));
        let (dist, _) = res?;
        let mean_k = dist.index_axis(Axis(1), 4).mean().unwrap_or(f64::NAN);
        out.push(record(
            algo,
            (n, d),
            fit_s,
            predict_s,
            None,
            "mean_5th_distance",
            mean_k,
        ));
    }

    // Pairwise Euclidean distances (GEMM path).
    let n = 20_000 / scale;
    let x = gaussian(n, 64, 13);
    let (t, d) = time_median(r, || pairwise_distances(&x, &x, &Metric::Euclidean));
    let d = d?;
    let mean = d.mean().unwrap_or(f64::NAN);
    drop(d);
    out.push(record(
        "pairwise_euclidean",
        (n, 64),
        t,
        0.0,
        Some(2.0 * (n * n * 64) as f64),
        "mean_distance",
        mean,
    ));
    // The bare gemm of the same shape, for the "within 1.5x of gemm" check.
    let (t, g) = time_median(r, || linalg::matmul(&x, &x.t()));
    let tr = g.diag().sum();
    drop(g);
    out.push(record(
        "gemm_xxt",
        (n, 64),
        t,
        0.0,
        Some(2.0 * (n * n * 64) as f64),
        "trace",
        tr,
    ));
    drop(x);

    // RBF Gram matrix.
    let n = 10_000 / scale;
    let x = gaussian(n, 30, 14);
    let kernel = Kernel::rbf_gamma(1.0 / 30.0);
    let (t, k) = time_median(r, || kernel.gram(&x));
    let k = k?;
    let mean = k.mean().unwrap_or(f64::NAN);
    out.push(record(
        "rbf_gram",
        (n, 30),
        t,
        0.0,
        None,
        "mean_value",
        mean,
    ));
    drop(k);
    drop(x);
    products(r, scale, &mut out)?;
    Ok(out)
}

/// The GEMM shapes of decision 0029, through both backends, and two LAPACK factorisations.
fn products(r: usize, scale: usize, out: &mut Vec<Record>) -> ndlearn_core::Result<()> {
    let cases: [(&str, (usize, usize), usize, bool); 4] = [
        ("gemm_xtx", (375_000 / scale, 100), 100, true),
        ("gemm_xw", (100_000 / scale, 100), 100, false),
        (
            "gemm_square",
            (2_000 / scale.min(2), 2_000 / scale.min(2)),
            2_000 / scale.min(2),
            false,
        ),
        ("gemm_xw784", (20_000 / scale, 784), 100, false),
    ];
    for (algo, (n, d), m, gram) in cases {
        let x = gaussian(n, d, 15);
        let w = gaussian(d, m, 16);
        let flops = 2.0 * (n * d * m) as f64;
        for (backend, suffix) in [(GemmBackend::Portable, ""), (GemmBackend::Blas, "_blas")] {
            let (t, p) = time_median(r, || {
                if gram {
                    linalg::gram_with(backend, &x)
                } else {
                    linalg::matmul_with(backend, &x, &w)
                }
            });
            let tr = p.sum();
            drop(p);
            out.push(record(
                &format!("{algo}{suffix}"),
                (n, d),
                t,
                0.0,
                Some(flops),
                "sum",
                tr,
            ));
        }
    }
    let n = 2_000 / scale.min(2);
    let g = gaussian(n, n, 17);
    let spd = linalg::gram(&g) / n as f64 + Array2::<f64>::eye(n);
    let (t, l) = time_median(r, || linalg::cholesky(&spd));
    let logdet = l?.diag().iter().map(|v| 2.0 * v.ln()).sum::<f64>();
    out.push(record(
        "cholesky",
        (n, n),
        t,
        0.0,
        Some((n * n * n) as f64 / 3.0),
        "logdet",
        logdet,
    ));
    let n = 1_000 / scale.min(2);
    let spd = spd.slice(ndarray::s![..n, ..n]).to_owned();
    let (t, e) = time_median(r, || linalg::eigh(&spd));
    let (vals, _) = e?;
    out.push(record(
        "eigh",
        (n, n),
        t,
        0.0,
        None,
        "sum_eigenvalues",
        vals.sum(),
    ));
    Ok(())
}
