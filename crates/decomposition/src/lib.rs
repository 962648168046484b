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
//! | [`ClassicalMds`] | `ClassicalMDS` (any metric, kernel, precomputed; Gower out-of-sample) | `classical_mds` |
//! | [`Mds`] | `MDS(metric_mds=True)` (SMACOF, restarts; gradient descent, squared stress) | `mds` |
//! | [`SpectralEmbedding`] | `SpectralEmbedding` (kNN, RBF, ε-graph, precomputed; Nyström) | `spectral_embedding` |
//! | [`Tsne`] | `TSNE` (exact, Barnes–Hut) | `tsne` |
//! | [`Nmf`] | `NMF` (Frobenius loss; coordinate descent, multiplicative updates) | `nmf` |
//! | [`FastIca`] | `FastICA` (parallel, deflation; logcosh, exp, cube) | `fast_ica` |
//!
//! [`low_rank_approximation`] gives the Eckart–Young best rank-`k` approximation and its error.

mod common;
mod fastica;
mod incremental_pca;
mod kernel_pca;
mod mds;
mod nmf;
mod pca;
pub mod registry;
#[cfg(feature = "plot")]
mod scree;
mod spectral_embedding;
mod truncated_svd;
mod tsne;

pub use fastica::{FastIca, FittedFastIca, IcaAlgorithm, IcaFun, IcaWhiten, WhitenSolver};
pub use incremental_pca::{FittedIncrementalPca, IncrementalPca};
pub use kernel_pca::{FittedKernelPca, KernelPca, KernelPcaSolver};
pub use mds::{
    ClassicalMds, FittedClassicalMds, FittedMds, Mds, MdsDissimilarity, MdsInit, MdsInput, MdsLoss,
    MdsSolver, classical_mds_from_distances, classical_mds_from_similarities,
};
pub use nmf::{FittedNmf, Nmf, NmfInit, NmfSolver};
pub use pca::{FittedPca, NComponents, Pca, PcaSolver};
pub use registry::registry;
pub use spectral_embedding::{FittedSpectralEmbedding, SpectralAffinity, SpectralEmbedding};
pub use truncated_svd::{FittedTruncatedSvd, SvdAlgorithm, TruncatedSvd, low_rank_approximation};
pub use tsne::{FittedTsne, LearningRate, Tsne, TsneInit, TsneMethod};
