//! Autoencoders: a network trained to reproduce its input through a narrow code layer
//! ([`Autoencoder`]), in four variants.
//!
//! # Model
//!
//! An encoder `x ↦ h = g(x)` of dense layers `[d, hidden_layer_sizes…, n_components]` and a
//! mirrored decoder `h ↦ x̂ = r(h)` of layers `[n_components, …reversed hidden…, d]`; the hidden
//! layers use `activation`, the code layer `code_activation`, the output is linear. Trained on
//!
//! ```text
//! J = (1/n) Σᵢ ½‖r(g(x̃ᵢ)) − xᵢ‖² + (λ/n) Σᵢ ‖g(x̃ᵢ)‖₁ + (α/(2n)) Σ_l ‖W_l‖²_F
//! ```
//!
//! | [`AutoencoderKind`] | `x̃ᵢ` | `λ` |
//! |---|---|---|
//! | `Plain` | `xᵢ` | 0 |
//! | `Denoising { noise }` | `xᵢ + ε`, `ε ~ N(0, noise²·I)` drawn afresh for every batch | 0 |
//! | `Sparse { l1 }` | `xᵢ` | `l1` (an L1 penalty on the code, so that few code units are active) |
//!
//! With `activation = code_activation = identity` and no hidden layer the model is a **linear
//! autoencoder**: its optimum reconstructs through the rank-`k` projection onto the top `k`
//! principal directions of the (centred) data, so the span of the decoder's weight rows is the
//! PCA subspace (the weights themselves are determined only up to an invertible `k × k` map).
//!
//! [`Transform`] gives the code `g(x)`, [`InverseTransform`] the reconstruction `r(h)` of a code.
//! Training uses the MLP solvers (`adam` by default; `lbfgs` for the deterministic variants).
//!
//! # Hyperparameters
//!
//! | field | default | valid |
//! |---|---|---|
//! | `n_components` | 2 | ≥ 1 |
//! | `hidden_layer_sizes` | `[]` | every width ≥ 1 |
//! | `activation`, `code_activation` | `tanh`, `identity` | any but `softmax` |
//! | `kind` | `plain` | `noise ≥ 0` (stochastic solvers), `l1 ≥ 0` |
//! | `solver`, `alpha`, `batch_size`, `learning_rate_init`, `max_iter`, `tol`, `n_iter_no_change`, `max_fun`, `shuffle`, `seed` | as [`crate::MLPRegressor`] (`alpha = 0`) | |
//!
//! ```
//! use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, ndarray::array};
//! use ndlearn_neural::{Activation, Autoencoder, Solver};
//!
//! // The rank-1 data of the course notes: a 1-unit linear autoencoder reconstructs it exactly.
//! let x = array![[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]];
//! let ae = Autoencoder::new(1).activation(Activation::Identity).solver(Solver::Lbfgs)
//!     .tol(1e-12).max_iter(5000);
//! let fit = ae.fit(&x)?;
//! let back = fit.inverse_transform(&fit.transform(&x)?)?;
//! assert!((&back - &x).iter().all(|e: &f64| e.abs() < 1e-4));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! - G. E. Hinton, R. R. Salakhutdinov, "Reducing the dimensionality of data with neural
//!   networks", Science 313, 2006.
//! - P. Baldi, K. Hornik, "Neural networks and principal component analysis: learning from
//!   examples without local minima", Neural Networks 2(1), 1989 (linear autoencoders and PCA).
//! - P. Vincent et al., "Extracting and composing robust features with denoising
//!   autoencoders", ICML 2008.

use ndarray::{Array2, ArrayRef2};
use ndlearn_core::training::LearningRate;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_at_least, check_fit_input, check_non_negative,
    check_predict_input,
};
use ndlearn_core::{
    Error, Estimator, FitUnsupervised, Float, InverseTransform, NFeaturesIn, Result, Transform,
};

use crate::activation::Activation;
use crate::init::{BiasInit, WeightInit, init_layer};
use crate::network::{Dense, Network, OutputLoss};
use crate::train::{AdamForm, Hyper, Solver, Targets, TrainingHistory, fit_lbfgs, fit_stochastic};

/// The autoencoder variant (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AutoencoderKind {
    /// Reconstruct the input.
    #[default]
    Plain,
    /// Reconstruct the clean input from a copy with Gaussian noise of standard deviation
    /// `noise`.
    Denoising {
        /// Standard deviation of the corruption.
        noise: f64,
    },
    /// L1 penalty `l1 · ‖h‖₁` on the code.
    Sparse {
        /// Strength of the penalty.
        l1: f64,
    },
}

/// An autoencoder (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Autoencoder {
    /// Width of the code layer (default 2).
    pub n_components: usize,
    /// Widths of the encoder's hidden layers before the code (mirrored in the decoder; default
    /// none).
    pub hidden_layer_sizes: Vec<usize>,
    /// Activation of the hidden layers (default tanh).
    pub activation: Activation,
    /// Activation of the code layer (default identity).
    pub code_activation: Activation,
    /// The variant (default plain).
    pub kind: AutoencoderKind,
    /// The optimiser (default Adam).
    pub solver: Solver,
    /// L2 penalty on the weights (default 0).
    pub alpha: f64,
    /// Rows per mini-batch; `None` = `min(200, n)`.
    #[cfg_attr(feature = "serde", serde(with = "crate::train::batch_size_serde"))]
    pub batch_size: Option<usize>,
    /// Step size (default `1e-3`).
    pub learning_rate_init: f64,
    /// Maximum epochs or L-BFGS iterations (default 200).
    pub max_iter: usize,
    /// Stopping tolerance (default `1e-4`).
    pub tol: f64,
    /// Epochs without improvement tolerated (default 10).
    pub n_iter_no_change: usize,
    /// Maximum objective evaluations of L-BFGS (default 15000).
    pub max_fun: usize,
    /// Shuffle the rows every epoch (default `true`).
    pub shuffle: bool,
    /// Seed of the weights, shuffles and noise (`random_state`, default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for Autoencoder {
    fn default() -> Self {
        Self {
            n_components: 2,
            hidden_layer_sizes: Vec::new(),
            activation: Activation::Tanh,
            code_activation: Activation::Identity,
            kind: AutoencoderKind::Plain,
            solver: Solver::Adam,
            alpha: 0.0,
            batch_size: None,
            learning_rate_init: 1e-3,
            max_iter: 200,
            tol: 1e-4,
            n_iter_no_change: 10,
            max_fun: 15000,
            shuffle: true,
            seed: 0,
        }
    }
}

impl Autoencoder {
    /// The defaults with a code of `n_components` units.
    pub fn new(n_components: usize) -> Self {
        Self {
            n_components,
            ..Self::default()
        }
    }

    ndlearn_core::setters! {
        n_components: usize,
        hidden_layer_sizes: Vec<usize>,
        /// Sets the activation of the hidden layers and of the code layer.
        activation: Activation,
        code_activation: Activation,
        kind: AutoencoderKind,
        solver: Solver,
        alpha: f64,
        batch_size: Option<usize>,
        learning_rate_init: f64,
        max_iter: usize,
        tol: f64,
        n_iter_no_change: usize,
        max_fun: usize,
        shuffle: bool,
        /// Sets `seed` (`random_state`).
        seed: u64,
    }

    fn hyper(&self) -> Hyper {
        Hyper {
            hidden_layer_sizes: self.hidden_layer_sizes.clone(),
            solver: self.solver,
            alpha: self.alpha,
            batch_size: self.batch_size,
            learning_rate: LearningRate::Constant,
            learning_rate_init: self.learning_rate_init,
            power_t: 0.5,
            max_iter: self.max_iter,
            shuffle: self.shuffle,
            seed: self.seed,
            tol: self.tol,
            momentum: 0.9,
            nesterovs_momentum: true,
            early_stopping: false,
            validation_fraction: 0.1,
            beta_1: 0.9,
            beta_2: 0.999,
            epsilon: 1e-8,
            n_iter_no_change: self.n_iter_no_change,
            max_fun: self.max_fun,
            adam_form: AdamForm::Sklearn,
            dropout: 0.0,
            input_noise: match self.kind {
                AutoencoderKind::Denoising { noise } => noise,
                _ => 0.0,
            },
        }
    }
}

impl Estimator for Autoencoder {
    fn validate(&self) -> Result<()> {
        check_at_least("n_components", self.n_components, 1)?;
        for a in [self.activation, self.code_activation] {
            a.validate()?;
            if a == Activation::Softmax {
                return Err(Error::invalid_param(
                    "activation",
                    "softmax is not an element-wise activation",
                ));
            }
        }
        if let AutoencoderKind::Sparse { l1 } = self.kind {
            check_non_negative("l1", l1)?;
        }
        if let AutoencoderKind::Denoising { noise } = self.kind {
            check_non_negative("noise", noise)?;
        }
        self.hyper().validate()
    }
}

/// A fitted [`Autoencoder`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedAutoencoder<F: Float> {
    params: Autoencoder,
    network: Network<F>,
    /// Index of the code layer.
    code: usize,
    history: TrainingHistory,
}

impl<F: Float> FitUnsupervised<F> for Autoencoder {
    type Model = FittedAutoencoder<F>;
    fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedAutoencoder<F>> {
        self.validate()?;
        check_fit_input(x, 1, "Autoencoder")?;
        let d = x.ncols();
        let mut sizes = vec![d];
        sizes.extend(&self.hidden_layer_sizes);
        sizes.push(self.n_components);
        sizes.extend(self.hidden_layer_sizes.iter().rev());
        sizes.push(d);
        let n_layers = sizes.len() - 1;
        let code = self.hidden_layer_sizes.len();
        let layers = (0..n_layers)
            .map(|l| {
                let act = if l == code {
                    self.code_activation
                } else if l + 1 == n_layers {
                    Activation::Identity
                } else {
                    self.activation
                };
                let (weights, bias) = init_layer(
                    sizes[l],
                    sizes[l + 1],
                    act,
                    WeightInit::GlorotUniform,
                    BiasInit::Constant(0.0),
                    self.seed,
                    l as u64,
                );
                Dense::new(weights, bias, act)
            })
            .collect();
        let mut network = Network::from_layers(layers, OutputLoss::SquaredError)?;
        if let AutoencoderKind::Sparse { l1 } = self.kind {
            network = network.with_activity_l1(code, l1)?;
        }
        let h = self.hyper();
        let mut history = TrainingHistory::default();
        if self.solver == Solver::Lbfgs {
            fit_lbfgs(&h, &mut network, &mut history, x, x, None)?;
        } else {
            let mut state = None;
            let score = |net: &Network<F>,
                         xv: &ndarray::ArrayView2<'_, F>,
                         _: &ndarray::ArrayView2<'_, F>| {
                -net.loss_value(xv, xv, None, F::zero())
                    .objective
                    .to_f64()
                    .unwrap_or(f64::NAN)
            };
            fit_stochastic(
                &h,
                &mut network,
                &mut history,
                &mut state,
                x,
                &Targets::dense(x),
                None,
                None,
                &score,
                false,
            )?;
        }
        Ok(FittedAutoencoder {
            params: self.clone(),
            network,
            code,
            history,
        })
    }
}

impl<F: Float> FittedAutoencoder<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &Autoencoder {
        &self.params
    }
    /// The whole network (encoder layers, then decoder layers).
    pub fn network(&self) -> &Network<F> {
        &self.network
    }
    /// The encoder's layers (the last one outputs the code).
    pub fn encoder(&self) -> &[Dense<F>] {
        &self.network.layers()[..=self.code]
    }
    /// The decoder's layers.
    pub fn decoder(&self) -> &[Dense<F>] {
        &self.network.layers()[self.code + 1..]
    }
    /// The training record.
    pub fn history(&self) -> &TrainingHistory {
        &self.history
    }
    /// Reconstruction loss of the fit (½ mean squared error per feature, plus penalties).
    pub fn loss(&self) -> f64 {
        self.history.loss
    }
}

impl<F: Float> NFeaturesIn for FittedAutoencoder<F> {
    fn n_features_in(&self) -> usize {
        self.network.n_inputs()
    }
}

impl<F: Float> Transform<F> for FittedAutoencoder<F> {
    /// The code `g(x)` (`n × n_components`).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.network.n_inputs(), "Autoencoder transform")?;
        Ok(self.network.activations(x, self.code))
    }
}

impl<F: Float> InverseTransform<F> for FittedAutoencoder<F> {
    /// The reconstruction `r(h)` of codes `h` (`n × n_components`).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(z, self.params.n_components, "Autoencoder inverse_transform")?;
        Ok(self.network.forward_from(z, self.code + 1))
    }
}

impl<F: Float> CheckModel for FittedAutoencoder<F> {
    /// The network of [`Autoencoder`]'s fit: encoder layers of the hidden widths, the code layer
    /// (`n_components` units, `code_activation`), the mirrored decoder and an identity output
    /// as wide as the input.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedAutoencoder");
        let p = &self.params;
        c.params(p)?;
        c.part("network", &self.network)?;
        c.part("history", &self.history)?;
        let hidden = &p.hidden_layer_sizes;
        c.len("code", self.code, hidden.len())?;
        let layers = self.network.layers();
        c.len("network (layers)", layers.len(), 2 * hidden.len() + 2)?;
        let d = self.network.n_inputs();
        let widths = hidden
            .iter()
            .chain([&p.n_components])
            .chain(hidden.iter().rev())
            .chain([&d]);
        for (l, (layer, &width)) in layers.iter().zip(widths).enumerate() {
            let act = if l == self.code {
                p.code_activation
            } else if l + 1 == layers.len() {
                Activation::Identity
            } else {
                p.activation
            };
            c.that(layer.fan_out() == width && layer.activation == act, || {
                format!("layer {l} is not {width} {} units", act.name())
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_misplaced_code_layer() {
        let x = array![
            [0.0, 1.0, 2.0],
            [1.0, 0.5, 0.0],
            [2.0, 2.0, 1.0],
            [0.3, 0.1, 0.9]
        ];
        let mut m = Autoencoder::new(2)
            .hidden_layer_sizes(vec![3])
            .max_iter(5)
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.code = 2;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
