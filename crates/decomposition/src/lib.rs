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
//! [`FittedPca::scree_svg`] draws a scree plot (feature `plot`, on by default). The Fisher LDA
//! transformer of the course notes is `ndlearn_bayes::FisherDiscriminant` (every algorithm crate
//! depends only on core; decision 0013).
//!
//! ## Applications (the course notes' eigenfaces and latent semantic analysis; catalog D-12)
//!
//! **Eigendigits**: the digits images (8 × 8 pixels) as rows, their principal components as
//! "eigen-images"; a few dozen of the 64 reconstruct the images closely.
//!
//! ```
//! use ndlearn_decomposition::Pca;
//! use ndlearn_core::FitUnsupervised;
//!
//! let x = ndlearn_datasets::by_name("digits").expect("embedded").x().clone();
//! let mut last = f64::INFINITY;
//! for k in [5, 10, 20, 40] {
//!     let pca = Pca::new(k).fit(&x)?;
//!     let err = pca.reconstruction_error(&x)?.mean().unwrap_or(0.0);
//!     assert!(err < last); // more eigen-images, smaller error
//!     last = err;
//!     if k == 40 {
//!         assert!(pca.explained_variance_ratio().sum() > 0.95);
//!     }
//! }
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! **Latent semantic analysis**: a term–document count matrix (documents as rows) reduced by
//! [`TruncatedSvd`] (no centring, as for sparse counts); documents on the same topic end up
//! close in the latent space even when they share few words.
//!
//! ```
//! use ndlearn_decomposition::TruncatedSvd;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform};
//!
//! // terms: ball, goal, team, match | vote, party, law, election
//! let docs = array![
//!     [2.0f64, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0],
//!     [0.0, 2.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
//!     [1.0, 0.0, 2.0, 2.0, 0.0, 0.0, 0.0, 0.0],
//!     [0.0, 0.0, 0.0, 0.0, 2.0, 1.0, 0.0, 1.0],
//!     [0.0, 0.0, 0.0, 0.0, 1.0, 2.0, 2.0, 0.0],
//!     [0.0, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0, 2.0],
//! ];
//! let z = TruncatedSvd::new(2).fit(&docs)?.transform(&docs)?;
//! let cos = |a: usize, b: usize| {
//!     let (u, v) = (z.row(a), z.row(b));
//!     u.dot(&v) / (u.dot(&u).sqrt() * v.dot(&v).sqrt())
//! };
//! assert!(cos(0, 1) > 0.9 && cos(3, 5) > 0.9); // same topic
//! assert!(cos(0, 4).abs() < 0.1); // different topics
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

mod common;
pub mod fastica;
pub mod incremental_pca;
pub mod kernel_pca;
pub mod mds;
pub mod nmf;
pub mod pca;
#[cfg(feature = "serde")]
pub mod registry;
#[cfg(feature = "plot")]
mod scree;
pub mod spectral_embedding;
pub mod truncated_svd;
pub mod tsne;

pub use fastica::{FastIca, FittedFastIca, IcaAlgorithm, IcaFun, IcaWhiten, WhitenSolver};
pub use incremental_pca::{FittedIncrementalPca, IncrementalPca};
pub use kernel_pca::{FittedKernelPca, KernelPca, KernelPcaSolver};
pub use mds::{
    ClassicalMds, FittedClassicalMds, FittedMds, Mds, MdsDissimilarity, MdsInit, MdsInput, MdsLoss,
    MdsSolver, classical_mds_from_distances, classical_mds_from_similarities,
};
pub use nmf::{FittedNmf, Nmf, NmfInit, NmfSolver};
pub use pca::{FittedPca, NComponents, Pca, PcaSolver};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use spectral_embedding::{FittedSpectralEmbedding, SpectralAffinity, SpectralEmbedding};
pub use truncated_svd::{FittedTruncatedSvd, SvdAlgorithm, TruncatedSvd, low_rank_approximation};
pub use tsne::{FittedTsne, LearningRate, Tsne, TsneInit, TsneMethod};
