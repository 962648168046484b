//! The "decomposition" suite: PCA at the sizes issue #9 is judged on.
//!
//! | algo | data | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `pca_k10` | 500,000 × 100 | `Pca::new(10)` (auto: covariance eigh) | `PCA(10)` (auto: covariance_eigh) |
//! | `pca_randomized_k20` | 100,000 × 1,000 | `Pca::new(20)`, randomized solver | `PCA(20, svd_solver="randomized")` |
//!
//! Data: a rank-30 signal (standard-normal scores times standard-normal loadings) plus unit
//! noise, generated separately on each side. Quality: the explained-variance ratio of the kept
//! components (higher is better). `predict_s` times `transform` of all rows. `--quick` divides
//! the rows by 5.

use ndarray::Array2;
use ndlearn_core::{FitUnsupervised, Transform, random};
use ndlearn_decomposition::{Pca, PcaSolver};

use crate::suites::SuiteOptions;
use crate::{Record, time_median};

/// `n × d` rows of a rank-30 signal plus unit noise.
fn low_rank(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    let r = 30.min(d);
    let scores = Array2::from_shape_fn((n, r), |_| random::standard_normal::<f64>(&mut rng));
    let loadings = Array2::from_shape_fn((r, d), |_| random::standard_normal::<f64>(&mut rng));
    let mut x = scores.dot(&loadings);
    x.mapv_inplace(|v| v + random::standard_normal::<f64>(&mut rng));
    x
}

fn record(algo: &str, (n, d): (usize, usize), fit_s: f64, predict_s: f64, value: f64) -> Record {
    let mut rec = crate::suites_classify::record(algo, (n, d), fit_s, predict_s, value);
    rec.suite = "decomposition".into();
    rec.metric = "explained_variance_ratio".into();
    rec
}

/// Runs the suite.
///
/// # Errors
/// Any estimator error.
pub fn decomposition_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let scale = if opts.quick { 5 } else { 1 };
    let mut out = Vec::new();
    for (algo, n, d, est) in [
        ("pca_k10", 500_000, 100, Pca::new(10)),
        (
            "pca_randomized_k20",
            100_000,
            1000,
            Pca::new(20).solver(PcaSolver::Randomized),
        ),
    ] {
        let x = low_rank(n / scale, d, 41);
        let (fit_s, model) = time_median(r, || est.fit(&x));
        let model = model?;
        let (predict_s, _) = time_median(r, || model.transform(&x));
        let ratio = model.explained_variance_ratio().sum();
        out.push(record(algo, x.dim(), fit_s, predict_s, ratio));
    }
    Ok(out)
}
