//! The "cluster" suite: the clustering cases at the sizes their issue is judged on (k-means and
//! DBSCAN live in the "classify" suite, where they were first measured).
//!
//! | algo | data | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `agglomerative_ward` | 20,000 × 16 (8 classes) | `Agglomerative::new(8)` (Ward, centroid NN-chain) | `AgglomerativeClustering(8)` (Ward) |
//! | `minibatch_kmeans_k8` | 1,000,000 × 16 (8 classes) | `MiniBatchKMeans::new(8)` (batch 1024) | `MiniBatchKMeans(8, random_state=0)` |
//! | `gaussian_mixture_full_k8` | 200,000 × 16 (8 classes) | `GaussianMixture::new(8)` (full, k-means init) | `GaussianMixture(8, random_state=0)` |
//!
//! Data: `X` standard normal plus a class-dependent shift, as in the classify suite. Quality:
//! the adjusted Rand index against the classes (Ward), the inertia per row (mini-batch, lower is
//! better), the mean log-likelihood (mixture, higher is better). `--quick` divides the sizes by
//! 5.

use ndlearn_cluster::{Agglomerative, GaussianMixture, MiniBatchKMeans};
use ndlearn_core::{FitUnsupervised, Predict};

use crate::suites::SuiteOptions;
use crate::suites_classify::shifted_classes;
use crate::suites_classify::synthetic_record;
use crate::{Record, time_median};

/// Runs the suite.
///
/// # Errors
/// Any estimator error.
pub fn cluster_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let scale = if opts.quick { 5 } else { 1 };
    let mut out = Vec::new();
    let (x, y) = shifted_classes(20_000 / scale, 16, 8, 37);
    let (fit_s, model) = time_median(r, || Agglomerative::new(8).fit(&x));
    let model = model?;
    let ari = ndlearn_core::metrics::adjusted_rand_score(&y, model.labels())?;
    out.push(synthetic_record(
        "cluster",
        "agglomerative_ward",
        x.dim(),
        fit_s,
        0.0,
        "ari",
        ari,
    ));

    let (x, _) = shifted_classes(1_000_000 / scale, 16, 8, 38);
    let (fit_s, model) = time_median(r, || MiniBatchKMeans::new(8).fit(&x));
    let model = model?;
    let per_row = model.inertia() / x.nrows() as f64;
    out.push(synthetic_record(
        "cluster",
        "minibatch_kmeans_k8",
        x.dim(),
        fit_s,
        0.0,
        "inertia_per_row",
        per_row,
    ));

    let (x, _) = shifted_classes(200_000 / scale, 16, 8, 39);
    let (fit_s, model) = time_median(r, || GaussianMixture::new(8).fit(&x));
    let model = model?;
    let (predict_s, _) = time_median(r, || model.predict(&x));
    let ll = model.score(&x)?;
    out.push(synthetic_record(
        "cluster",
        "gaussian_mixture_full_k8",
        x.dim(),
        fit_s,
        predict_s,
        "mean_loglik",
        ll,
    ));
    Ok(out)
}
