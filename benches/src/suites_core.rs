//! The "core" suite: the neighbour index, pairwise distances and kernel Gram matrices at the
//! sizes the core-toolkit issue is judged on (5-NN of 10,000 queries against 200,000 × 16 with
//! the k-d tree and 100,000 × 64 by brute force; Euclidean distances 20,000 × 20,000 × 64; RBF
//! Gram 10,000 × 10,000 × 30). `--quick` divides the sizes by about 5.

use ndarray::{Array2, Axis};
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::kernel::Kernel;
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
    let (t, g) = time_median(r, || x.dot(&x.t()));
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
    Ok(out)
}
