//! # ndlearn-core
//!
//! The foundation every ndlearn algorithm crate builds on:
//!
//! | module | what |
//! |---|---|
//! | [`Float`] | the element trait (`f32`, `f64`) |
//! | [`traits`] | [`Fit`], [`FitUnsupervised`], [`Predict`], [`PredictProba`], [`Transform`], [`InverseTransform`], [`PartialFit`] |
//! | [`Error`] | the one error type of the workspace |
//! | [`validate`] | input checks every estimator runs (shapes, NaN/Inf with position, labels, weights) |
//! | [`linalg`] | the facade over `ndarray-linalg`/LAPACK: solve, Cholesky, QR, SVD (thin, full, truncated, randomized), symmetric and generalized eigen, pinv, rank, null space, power iteration, pairwise distances |
//! | [`random`] | seeded streams from `(seed, task_index)`, shuffling, sampling, bootstrap, mini-batches |
//! | [`par`] | deterministic rayon helpers (fixed chunks, ordered reductions) |
//! | [`stats`] | means, variances, covariance, correlation, weighted versions; special functions (Γ, B, incomplete Γ/B, erf, normal quantile), χ² and z tests, entropy and mutual information |
//! | [`distance`] | metrics and dissimilarities ([`distance::Metric`]), pairwise matrices, mixed-type (Gower), DTW |
//! | [`neighbors`] | exact k-NN and radius search (brute, k-d tree, ball tree), kNN / ε graphs |
//! | [`learning_theory`] | Hoeffding, union and VC bounds, growth functions, shattering by LP, SRM, Monte-Carlo experiments |
//! | [`tensor`] | fibers, slices, mode-k unfolding/folding, outer and mode-k products |
//!
//! ```
//! use ndlearn_core::{linalg, stats, ndarray::array};
//!
//! let x = array![[1.0, 2.0], [2.0, 3.9], [3.0, 6.1], [4.0, 8.0]];
//! let cov = stats::covariance(&x, 1)?;            // 2 x 2, unbiased
//! let (values, vectors) = linalg::eigh_descending(&cov)?;
//! assert!(values[0] > values[1]);
//! assert_eq!(vectors.dim(), (2, 2));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ## BLAS backend
//!
//! Features select the LAPACK/BLAS provider (forwarded to `ndarray-linalg`): `openblas-system`
//! (default; `apt-get install libopenblas-dev`, or `cargo xtask setup`), `openblas-static`,
//! `netlib-system`, `intel-mkl-static`. With `openblas-system` and no OpenBLAS installed, the build
//! stops with a message naming the package instead of a linker error.
//!
//! ## Threads and determinism
//!
//! Parallel code runs on the caller's rayon pool and is bitwise reproducible for any thread
//! count: see [`par`] and [`random`].

#![cfg_attr(docsrs, feature(doc_cfg))]

pub use ndarray;

pub mod distance;
mod error;
mod float;
pub mod kernel;
pub mod learning_theory;
pub mod linalg;
pub mod neighbors;
pub mod optim;
pub mod par;
pub mod random;
pub mod stats;
pub mod tensor;
pub mod traits;
pub mod validate;

pub use error::{Error, LinalgErrorKind, Result};
pub use float::Float;
pub use traits::{
    FeatureImportances, Fit, FitUnsupervised, InverseTransform, Labels, PartialFit, Predict,
    PredictProba, Transform,
};
