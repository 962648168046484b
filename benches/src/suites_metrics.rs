//! The "metrics" suite: the two metrics with speed targets.
//!
//! - `roc_auc`: ROC AUC of 10⁶ binary labels (30 % positives) with scores
//!   `N(0, 1) + 0.5·y` rounded to 3 decimals (many ties).
//! - `silhouette`: silhouette score of 20,000 × 16 Gaussian blobs (8 clusters, centres
//!   `N(0, 4²)`, unit noise), labels = the generating cluster.
//!
//! `benches/sklearn/run.py` times `sklearn.metrics.roc_auc_score` and `silhouette_score` on data
//! generated **independently with the same distribution** (numpy's generator there, ndlearn's
//! here), so the quality values agree statistically, not digit for digit. `--quick` divides the
//! sizes by 5 (roc_auc) and 4 (silhouette).

use ndarray::{Array1, Array2};
use ndlearn_core::distance::Metric;
use ndlearn_core::metrics::{roc_auc_score, silhouette_score};
use ndlearn_core::random;

use crate::suites::SuiteOptions;
use crate::{Record, time_median};

fn record(algo: &str, (n, d): (usize, usize), seconds: f64, metric: &str, value: f64) -> Record {
    Record {
        suite: "metrics".into(),
        algo: algo.into(),
        dataset: "synthetic".into(),
        n,
        d,
        fit_s: seconds,
        predict_s: 0.0,
        metric: metric.into(),
        value,
        gflops: None,
        implementation: "ndlearn".into(),
        threads: ndlearn_core::par::current_num_threads(),
    }
}

/// Binary labels (30 % positives) and tied scores, as described in the module docs.
pub fn roc_data(n: usize, seed: u64) -> (Array1<usize>, Array1<f64>) {
    let mut rng = random::rng(seed);
    let y = Array1::from_shape_fn(n, |_| {
        usize::from(random::uniform(&mut rng, 0.0, 1.0) < 0.3)
    });
    let s = y.mapv(|v| {
        let z: f64 = random::standard_normal(&mut rng);
        ((z + 0.5 * v as f64) * 1000.0).round() / 1000.0
    });
    (y, s)
}

/// Gaussian blobs: `k` centres `N(0, 4²)` in `d` dimensions, unit noise, labels `i mod k`.
pub fn blob_data(n: usize, d: usize, k: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let centres = Array2::from_shape_fn((k, d), |_| 4.0 * random::standard_normal::<f64>(&mut rng));
    let labels = Array1::from_shape_fn(n, |i| i % k);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        centres[[labels[i], j]] + random::standard_normal::<f64>(&mut rng)
    });
    (x, labels)
}

/// Runs the metrics suite (each case repeated at most 3 times).
pub fn metrics_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let mut out = Vec::new();

    let n = if opts.quick { 200_000 } else { 1_000_000 };
    let (y, s) = roc_data(n, 21);
    let (t, auc) = time_median(r, || roc_auc_score(&y, &s, None));
    out.push(record("roc_auc", (n, 1), t, "auc", auc?));

    let n = if opts.quick { 5_000 } else { 20_000 };
    let (x, labels) = blob_data(n, 16, 8, 22);
    let (t, sil) = time_median(r, || silhouette_score(&x, &labels, &Metric::Euclidean));
    out.push(record("silhouette", (n, 16), t, "silhouette", sil?));
    Ok(out)
}
