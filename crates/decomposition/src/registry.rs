//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).

use ndlearn_core::registry::Entry;

use crate::{ClassicalMds, Mds, SpectralEmbedding};
use crate::{FastIca, Nmf, Tsne};
use crate::{IncrementalPca, KernelPca, Pca, TruncatedSvd};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::invertible_transformer::<Pca>(
            "pca",
            "principal component analysis (full / covariance / Gram / randomized solvers)",
        )
        .sklearn("PCA")
                .param_alias("solver", "svd_solver")
        .param_alias("n_iter", "iterated_power")
        .into(),
        Entry::invertible_transformer::<IncrementalPca>(
            "incremental_pca",
            "incremental PCA over batches of rows (bounded memory)",
        )
        .sklearn("IncrementalPCA")
        .partial_fit(true)
        .into(),
        Entry::transformer::<KernelPca>(
            "kernel_pca",
            "kernel PCA on any core kernel (dense or subspace eigensolver)",
        )
        .sklearn("KernelPCA")
        .heavy()
                .param_alias("solver", "eigen_solver")
        .into(),
        Entry::invertible_transformer::<TruncatedSvd>(
            "truncated_svd",
            "truncated SVD without centring (randomized or exact)",
        )
        .sklearn("TruncatedSVD")
        .into(),
        Entry::transformer::<ClassicalMds>(
            "classical_mds",
            "classical (Torgerson-Gower) MDS: double centring, top eigenvectors; Gower out-of-sample",
        )
        .sklearn("ClassicalMDS")
        .heavy()
        .into(),
        Entry::transformer::<Mds>(
            "mds",
            "metric stress MDS by SMACOF (restarts) or gradient descent; stress-minimising transform",
        )
        .sklearn("MDS")
        .heavy()
        .into(),
        Entry::transformer::<SpectralEmbedding>(
            "spectral_embedding",
            "Laplacian eigenmaps on a kNN / RBF / epsilon graph; Nystrom out-of-sample",
        )
        .sklearn("SpectralEmbedding")
        .heavy()
        .into(),
        Entry::transformer::<Tsne>(
            "tsne",
            "t-SNE (exact or Barnes-Hut); new rows placed by their affinity-weighted neighbours",
        )
        .sklearn("TSNE")
        .alias("t_sne")
        .heavy()
        .into(),
        Entry::invertible_transformer::<Nmf>(
            "nmf",
            "non-negative matrix factorisation (Frobenius loss; coordinate descent or multiplicative updates)",
        )
        .sklearn("NMF")
        .non_negative_input()
        .into(),
        Entry::invertible_transformer::<FastIca>(
            "fast_ica",
            "independent component analysis by FastICA (parallel or deflation)",
        )
        .sklearn("FastICA")
        .into(),
    ]
}
