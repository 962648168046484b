//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).

use ndlearn_core::registry::Entry;

use crate::{IncrementalPca, KernelPca, Pca, TruncatedSvd};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::invertible_transformer::<Pca>(
            "pca",
            "principal component analysis (full / covariance / Gram / randomized solvers)",
        ),
        Entry::invertible_transformer::<IncrementalPca>(
            "incremental_pca",
            "incremental PCA over batches of rows (bounded memory)",
        ),
        Entry::transformer::<KernelPca>(
            "kernel_pca",
            "kernel PCA on any core kernel (dense or subspace eigensolver)",
        ),
        Entry::invertible_transformer::<TruncatedSvd>(
            "truncated_svd",
            "truncated SVD without centring (randomized or exact)",
        ),
    ]
}
