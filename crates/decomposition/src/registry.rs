//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).

use ndlearn_core::registry::Entry;

use crate::{Pca, TruncatedSvd};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::invertible_transformer::<Pca>(
            "pca",
            "principal component analysis (full / covariance / Gram / randomized solvers)",
        ),
        Entry::invertible_transformer::<TruncatedSvd>(
            "truncated_svd",
            "truncated SVD without centring (randomized or exact)",
        ),
    ]
}
