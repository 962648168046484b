//! Neural networks for ndlearn: dense feed-forward networks trained by backpropagation, and
//! scikit-learn's multilayer perceptrons.
//!
//! ```
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//! use ndlearn_neural::{Activation, MLPClassifier, Solver};
//!
//! let x = array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
//! let y = array![0usize, 1, 1, 0];
//! let fit = MLPClassifier::new(&[8])
//!     .activation(Activation::Tanh)
//!     .solver(Solver::Lbfgs)
//!     .alpha(1e-5)
//!     .seed(1)
//!     .fit(&x, &y)?;
//! assert_eq!(fit.predict(&x)?, y);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # Contents
//!
//! | item | what | scikit-learn |
//! |---|---|---|
//! | [`MLPClassifier`] | binary, multiclass (softmax on one-hot targets) and multi-label classification | `MLPClassifier` |
//! | [`MLPRegressor`] | single- and multi-output regression | `MLPRegressor` |
//! | [`Network`], [`Dense`], [`BatchNorm`] | layers `A' = f(A W + b)` (optionally batch-normalised) with `W` of shape `fan_in × fan_out`, forward pass, backpropagation with cached `Z`, `A`, `δ` | `coefs_`, `intercepts_` |
//! | [`Activation`] | identity, logistic, tanh, ReLU, leaky ReLU, ELU, GELU, softmax, step, sign, with derivatives | `activation` |
//! | [`OutputLoss`] | squared error, Huber, binary and softmax cross-entropy from logits | `loss` |
//! | [`WeightInit`], [`BiasInit`] | Glorot uniform (scikit-learn's), `N(0, 1/fan_in)`, He; bias policies | — |
//! | [`Autoencoder`] | plain, denoising, sparse (L1 code) and linear autoencoders; `transform` to the code, `inverse_transform` back | — |
//! | [`ShallowNetwork`] | `f̂ = aᵀσ(Wᵀx + b)` with explicit gradients | — |
//! | [`conv::output_size`] | output sizes of convolution and pooling layers | — |
//!
//! Optimizers (SGD with momentum / Nesterov, Adam in scikit-learn's and the paper's form,
//! L-BFGS), learning-rate schedules and the early-stopping rule come from
//! [`ndlearn_core::optim`] and [`ndlearn_core::training`].
//!
//! # Computation and determinism
//!
//! Every layer processes whole mini-batches with one GEMM per product
//! ([`ndlearn_core::linalg::gemm`]: portable kernels split over rayon, the same bits for any
//! thread count; decision 0029), no per-sample loops and no rayon tasks around them, in `f32`
//! or `f64`. Initial weights, shuffles and the validation split come from
//! [`ndlearn_core::random::stream`] with fixed task indices, so a seed gives the same model
//! for any rayon thread count. `NDLEARN_GEMM=blas` runs the products on the linked BLAS
//! instead, whose threading may round sums differently across thread counts.
//!
//! # Features
//!
//! `serde` (default): `Serialize`/`Deserialize` for hyperparameters and fitted models (the
//! optimizer's moment buffers are not saved: a `partial_fit` after reloading starts them
//! afresh), and [`registry()`].

pub mod activation;
pub mod autoencoder;
pub mod conv;
pub mod init;
pub mod mlp;
pub mod network;
#[cfg(feature = "serde")]
pub mod registry;
pub mod shallow;
mod train;

pub use activation::Activation;
pub use autoencoder::{Autoencoder, AutoencoderKind, FittedAutoencoder};
pub use init::{BiasInit, WeightInit};
pub use mlp::{
    ClassifierOutput, FittedMLPClassifier, FittedMLPRegressor, MLPClassifier, MLPRegressor,
};
pub use network::{BatchNorm, Dense, LossValue, Network, OutputLoss, Workspace};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use shallow::{ShallowGradient, ShallowNetwork};
pub use train::{AdamForm, Solver, TrainingHistory};
