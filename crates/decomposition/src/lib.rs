//! # ndlearn-decomposition
//!
//! Dimensionality reduction over [`ndlearn_core`].
//!
//! | estimator | scikit-learn | CLI name |
//! |---|---|---|
//! | [`Pca`] | `PCA` (full, covariance-eigh, randomized; plus a Gram-matrix solver) | `pca` |
//! | [`IncrementalPca`] | `IncrementalPCA` (`partial_fit`) | `incremental_pca` |
//! | [`KernelPca`] | `KernelPCA` (dense or subspace eigensolver; pre-image) | `kernel_pca` |
//! | [`TruncatedSvd`] | `TruncatedSVD` (randomized, exact) | `truncated_svd` |
//!
//! [`low_rank_approximation`] gives the Eckart–Young best rank-`k` approximation and its error.

mod common;
mod incremental_pca;
mod kernel_pca;
mod pca;
pub mod registry;
mod truncated_svd;

pub use incremental_pca::{FittedIncrementalPca, IncrementalPca};
pub use kernel_pca::{FittedKernelPca, KernelPca, KernelPcaSolver};
pub use pca::{FittedPca, NComponents, Pca, PcaSolver};
pub use registry::registry;
pub use truncated_svd::{FittedTruncatedSvd, SvdAlgorithm, TruncatedSvd, low_rank_approximation};
