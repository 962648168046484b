//! # ndlearn-core
//!
//! The foundation every ndlearn algorithm crate builds on:
//!
//! | module | what |
//! |---|---|
//! | [`Float`] | the element trait (`f32`, `f64`) |
//! | [`traits`] | [`Estimator`] (the hyperparameter contract), [`Fit`], [`FitWeighted`], [`FitUnsupervised`], [`FitUnsupervisedWeighted`], [`Predict`], [`PredictProba`], [`DecisionFunction`], [`OutlierDetector`], [`PredictWithNoise`], [`Transform`], [`InverseTransform`], [`PartialFit`], [`NFeaturesIn`], [`FeatureImportances`]; the [`setters!`] macro |
//! | [`numeric`] | stable sigmoid, log1pexp/softplus, log-sum-exp, softmax, log-softmax, argmax (one tie and NaN rule) |
//! | [`loss`] | pointwise losses of a raw score with gradient and hessian (squared, absolute, Huber, pinball, ε-insensitive, hinge, squared hinge, modified Huber, log-loss, exponential, Poisson, gamma, multinomial) |
//! | [`training`] | learning-rate schedules (scikit-learn's constant / optimal / invscaling / adaptive), early-stopping rules, validation split |
//! | [`calibration`] | Platt and temperature scaling, isotonic regression, `CalibratedClassifierCV` |
//! | [`Error`] | the one error type of the workspace |
//! | [`validate`] | input checks every estimator runs (shapes, NaN/Inf with position, labels, weights); `CheckModel` for a fitted state read back from a file |
//! | [`linalg`] | the facade over `ndarray-linalg`/LAPACK: solve, Cholesky, QR, SVD (thin, full, truncated, randomized), symmetric and generalized eigen, pinv, rank, null space, power iteration, pairwise distances |
//! | [`random`] | seeded streams from `(seed, task_index)`, shuffling, sampling, bootstrap, mini-batches |
//! | [`active_learning`] | pool-based and stream-based active learning, query strategies, membership-query learners |
//! | [`resampling`] | class imbalance: random under/over-sampling, SMOTE, class and sample weights |
//! | [`par`] | deterministic rayon helpers (fixed chunks, ordered reductions) |
//! | [`preprocessing`] | scalers (standard, min-max, max-abs, robust, mean absolute deviation, row norms), encoders (one-hot, ordinal, label), binning, imputation, polynomial / Vandermonde / RBF / Fourier / spline features, TF-IDF and token counts |
//! | [`distance`] | metrics and dissimilarities ([`distance::Metric`]), pairwise matrices, mixed-type (Gower), DTW |
//! | [`model_selection`] | train/test and three-way splits, K-fold and stratified CV, `cross_validate`, grid and randomized search, named scorers, learning and validation curves (SVG plots), .632 bootstrap, bias–variance Monte Carlo, majority-vote ensemble error |
//! | [`pipeline`] | `Pipeline`: transformer steps ending in any estimator, itself an estimator (refitted per fold inside CV and searches; step-prefixed parameters) |
//! | [`stats`] | means, variances, covariance, correlation, weighted versions; special functions (Γ, B, incomplete Γ/B, erf, normal quantile), χ² and z tests, entropy and mutual information |
//! | [`feature_selection`] | forward/backward/exhaustive wrapper search over a score closure, filter scores (correlation, binned MI, χ², F-tests), `SelectKBest`, `SelectFromModel`, RFE |
//! | [`neighbors`] | exact k-NN and radius search (brute, k-d tree, ball tree), kNN / ε graphs |
//! | [`observe`] | progress reports and early stopping for iterative estimators |
//! | `registry` | (feature `serde`) estimators by name: hyperparameters from `key=value`, fit/predict on f32 or f64, models as JSON |
//! | [`learning_theory`] | Hoeffding, union and VC bounds, growth functions, shattering by LP, SRM, Monte-Carlo experiments |
//! | [`tensor`] | fibers, slices, mode-k unfolding/folding, outer and mode-k products |
//! | [`metrics`] | classification (confusion matrix, precision/recall/F, log loss), ROC/PR curves and AUC, regression (MSE, R², ...), clustering (ARI, NMI/AMI, silhouette, ...), trustworthiness |
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

// The system OpenBLAS: on Linux the build script emits the link line; elsewhere openblas-src
// does (naming the crate keeps it in the link). The other backends come through ndarray-linalg.
#[cfg(all(feature = "openblas-system", not(target_os = "linux")))]
extern crate openblas_src as _;

pub use ndarray;

#[macro_use]
mod macros;

#[cfg(feature = "active_learning")]
pub mod active_learning;
#[cfg(feature = "calibration")]
pub mod calibration;
pub mod class_weight;
pub mod distance;
mod error;
#[cfg(feature = "feature_selection")]
pub mod feature_selection;
mod float;
pub mod kernel;
#[cfg(feature = "learning_theory")]
pub mod learning_theory;
pub mod linalg;
pub mod loss;
#[cfg(feature = "metrics")]
pub mod metrics;
#[cfg(feature = "model_selection")]
pub mod model_selection;
pub mod neighbors;
pub mod numeric;
pub mod observe;
pub mod optim;
pub mod par;
#[cfg(feature = "model_selection")]
pub mod pipeline;
#[cfg(feature = "preprocessing")]
pub mod preprocessing;
pub mod random;
#[cfg(feature = "serde")]
pub mod registry;
#[cfg(feature = "resampling")]
pub mod resampling;
pub mod simd;
pub mod stats;
#[cfg(feature = "tensor")]
pub mod tensor;
pub mod training;
pub mod traits;
pub mod validate;

pub use class_weight::ClassWeight;
pub use error::{Error, LinalgErrorKind, Result};
pub use float::Float;
pub use traits::{
    DecisionFunction, Estimator, FeatureImportances, Fit, FitMultiLabel, FitMultiOutput,
    FitUnsupervised, FitUnsupervisedWeighted, FitWeighted, InverseTransform, Labels, NFeaturesIn,
    OutlierDetector, PartialFit, Predict, PredictMultiLabel, PredictMultiOutput, PredictProba,
    PredictWithNoise, Transform,
};
pub use validate::CheckModel;
