//! Multilayer perceptrons with scikit-learn's semantics: [`MLPClassifier`] and
//! [`MLPRegressor`].
//!
//! # Model
//!
//! A feed-forward [`Network`] of dense layers `A_l = f(A_{l−1} W_l + b_l)` with widths
//! `[n_features, hidden_layer_sizes…, n_outputs]`, the hidden `activation` on every hidden layer
//! and an output layer fixed by the task (weights `W_l` are `fan_in × fan_out`, scikit-learn's
//! `coefs_`; see [`crate::network`]):
//!
//! | task | output units | output activation | loss |
//! |---|---|---|---|
//! | regression (`k` targets) | `k` | identity | `½‖a − y‖²` (squared error) |
//! | binary classification | 1 | logistic | binary cross-entropy |
//! | `K ≥ 3` classes | `K` (one-hot targets) | softmax | softmax cross-entropy |
//! | multi-label (`K` labels) | `K` | logistic | binary cross-entropy per label |
//!
//! # Objective
//!
//! On a batch `B` (all rows for L-BFGS), with sample weights `sᵢ` (1 by default) and `S = Σ_B sᵢ`:
//!
//! ```text
//! J(W, b) = (1/S) Σ_{i∈B} sᵢ ℓ(yᵢ, f(xᵢ)) + (α / (2S)) Σ_l ‖W_l‖²_F
//! ```
//!
//! scikit-learn's scaling of the L2 penalty (`alpha`), biases not penalised. The cross-entropies
//! are computed from the logits (stable). The reported loss of a `k`-output regressor averages
//! the squared error over outputs, as scikit-learn's `loss_curve_` does.
//!
//! # Solvers
//!
//! | `solver` | updates | stops when |
//! |---|---|---|
//! | `adam` (default) | per mini-batch: Adam, in scikit-learn's form (`adam_form`; core's [`ndlearn_core::optim::Adam`]) | `max_iter` epochs, or the training loss (validation score with `early_stopping`) has not improved by `tol` for more than `n_iter_no_change` epochs |
//! | `sgd` | per mini-batch: `v ← μv − ηg`, `w ← w + v` (Nesterov: `w ← w + μv − ηg`) with `learning_rate` `constant`, `invscaling` (`η = η₀/(t + 1)^power_t`, `t` = samples seen, updated after each epoch) or `adaptive` (η divided by 5 when the rule fires, until `η ≤ 10⁻⁶`) | as `adam` |
//! | `lbfgs` | full-batch L-BFGS on the packed parameters (core's [`ndlearn_core::optim::lbfgs`]) | `max_iter` iterations, `max_fun` evaluations, `‖∇J‖₂ ≤ tol`, or a relative decrease below `2.2·10⁻⁹` (scipy's default) |
//!
//! Batches are `batch_size` consecutive rows (`None` = scikit-learn's `"auto"`,
//! `min(200, n)`), after a shuffle per epoch when `shuffle` (a fresh
//! [`ndlearn_core::random::LazyPermutation`] per epoch: O(1) memory, no index array; class
//! labels are one-hot encoded batch by batch, no `n × K` target matrix). The epoch loss is the mean of the
//! batch losses weighted by batch size. With `early_stopping`, `validation_fraction` of the
//! rows (stratified for single-label classification) are held out, scored after every epoch
//! (accuracy or R²), and the best weights are kept.
//!
//! # Warm start and partial fit
//!
//! scikit-learn's `warm_start=True` is [`MLPClassifier::fit_from`] / [`MLPRegressor::fit_from`]:
//! training continues from a fitted model's weights with a fresh optimizer (keeping
//! `loss_curve_`, `best_loss_` and `t_`). Models can be built from given weights with
//! `FittedMLP*::from_weights`, e.g. to start from scikit-learn's `coefs_`. `partial_fit`
//! ([`PartialFit`]) runs one epoch on the batch it is given and keeps the optimizer state
//! between calls (not across serialisation).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `hidden_layer_sizes` | `[100]` | `hidden_layer_sizes` | every width ≥ 1 (empty = no hidden layer) |
//! | `activation` | `relu` | `activation` | any [`Activation`] but `softmax` (`step`/`sign` have zero gradients) |
//! | `solver` | `adam` | `solver` | `lbfgs`, `sgd`, `adam` |
//! | `alpha` | `1e-4` | `alpha` | ≥ 0 |
//! | `batch_size` | `None` (auto) | `batch_size` | ≥ 1 |
//! | `learning_rate` | `constant` | `learning_rate` | `constant`, `invscaling`, `adaptive` (sgd only) |
//! | `learning_rate_init` | `1e-3` | `learning_rate_init` | > 0 |
//! | `power_t` | `0.5` | `power_t` | ≥ 0 |
//! | `max_iter` | 200 | `max_iter` | ≥ 1 |
//! | `shuffle` | `true` | `shuffle` | |
//! | `seed` | 0 | `random_state` | initial weights, shuffles, validation split |
//! | `tol` | `1e-4` | `tol` | ≥ 0 |
//! | `momentum` | 0.9 | `momentum` | `[0, 1)` |
//! | `nesterovs_momentum` | `true` | `nesterovs_momentum` | |
//! | `early_stopping` | `false` | `early_stopping` | |
//! | `validation_fraction` | 0.1 | `validation_fraction` | `(0, 1)` |
//! | `beta_1`, `beta_2` | 0.9, 0.999 | `beta_1`, `beta_2` | `[0, 1)` |
//! | `epsilon` | `1e-8` | `epsilon` | > 0 |
//! | `n_iter_no_change` | 10 | `n_iter_no_change` | ≥ 1 |
//! | `max_fun` | 15000 | `max_fun` | ≥ 1 |
//! | `adam_form` | `sklearn` | — | `sklearn`, `paper` |
//! | `weight_init`, `bias_init` | Glorot uniform (scikit-learn's) | — | see [`crate::init`] |
//! | `dropout` | 0 | — | `[0, 1)`; inverted dropout on hidden units while training (sgd, adam) |
//! | `batch_norm` | `false` | — | batch normalisation of the hidden layers (see [`crate::network::BatchNorm`]) |
//! | `input_noise` | 0 | — | ≥ 0; std of Gaussian noise added to the training inputs of every batch (sgd, adam) |
//!
//! # Complexity
//!
//! One epoch costs `O(n · Σ_l fan_in_l · fan_out_l)` in BLAS gemms (three per layer and batch:
//! forward, weight gradient, backward delta). Memory: the activations of one batch.
//!
//! # Errors
//!
//! Invalid hyperparameters ([`Error::InvalidParam`], before any data is read), empty or
//! non-finite input, mismatched lengths, a single class, a feature count at predict different
//! from the fit, and training that diverges to non-finite weights — all typed errors.
//!
//! # References
//!
//! - D. E. Rumelhart, G. E. Hinton, R. J. Williams, "Learning representations by
//!   back-propagating errors", Nature 323, 1986.
//! - X. Glorot, Y. Bengio, "Understanding the difficulty of training deep feedforward neural
//!   networks", AISTATS 2010.
//! - D. P. Kingma, J. Ba, "Adam: A method for stochastic optimization", ICLR 2015.
//! - scikit-learn's `MLPClassifier` / `MLPRegressor` (`sklearn.neural_network`).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis};
use ndlearn_core::numeric::argmax;
use ndlearn_core::training::LearningRate;
use ndlearn_core::validate::{
    CheckModel, ModelCheck, check_classification_input, check_fit_input, check_labels_below,
    check_predict_input, check_regression_input, check_sample_weight, check_target_len,
};
use ndlearn_core::{
    Error, Estimator, Fit, FitMultiLabel, FitMultiOutput, FitWeighted, Float, NFeaturesIn,
    PartialFit, Predict, PredictMultiLabel, PredictMultiOutput, PredictProba, Result,
};

use crate::activation::Activation;
use crate::init::{BiasInit, WeightInit};
use crate::network::{Network, OutputLoss};
use crate::train::{
    AdamForm, Hyper, OptState, ScoreFn, Solver, Targets, TrainingHistory, fit_lbfgs, fit_stochastic,
};

/// The accessors every fitted MLP shares (its `network` and training `history`).
macro_rules! fitted_network_accessors {
    () => {
        /// The trained network.
        pub fn network(&self) -> &Network<F> {
            &self.network
        }
        /// Weight matrices (scikit-learn's `coefs_`), input side first.
        pub fn coefs(&self) -> Vec<&Array2<F>> {
            self.network.layers().iter().map(|l| &l.weights).collect()
        }
        /// Bias vectors (scikit-learn's `intercepts_`).
        pub fn intercepts(&self) -> Vec<&Array1<F>> {
            self.network.layers().iter().map(|l| &l.bias).collect()
        }
        /// The training record (`loss_curve_`, `best_loss_`, `validation_scores_`, `n_iter_`, …).
        pub fn history(&self) -> &TrainingHistory {
            &self.history
        }
        /// scikit-learn's `loss_curve_`.
        pub fn loss_curve(&self) -> &[f64] {
            &self.history.loss_curve
        }
        /// scikit-learn's `loss_`.
        pub fn loss(&self) -> f64 {
            self.history.loss
        }
        /// scikit-learn's `n_iter_` (of the last fit call).
        pub fn n_iter(&self) -> usize {
            self.history.n_iter
        }
        /// Whether a stopping rule ended the last fit (not `max_iter`).
        pub fn converged(&self) -> bool {
            self.history.converged
        }
    };
}

macro_rules! mlp_estimator {
    ($(#[$meta:meta])* $name:ident { $($(#[$fmeta:meta])* $extra:ident : $ety:ty = $edef:expr),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
        #[cfg_attr(feature = "serde", serde(default))]
        #[non_exhaustive]
        pub struct $name {
            /// Widths of the hidden layers (default `[100]`).
            pub hidden_layer_sizes: Vec<usize>,
            /// Activation of the hidden units (default ReLU).
            pub activation: Activation,
            /// The optimiser (default Adam).
            pub solver: Solver,
            /// L2 penalty strength `α ≥ 0` (default `1e-4`).
            pub alpha: f64,
            /// Rows per mini-batch; `None` = `min(200, n)` (scikit-learn's `"auto"`).
            #[cfg_attr(feature = "serde", serde(with = "crate::train::batch_size_serde"))]
            pub batch_size: Option<usize>,
            /// SGD step schedule (default constant).
            pub learning_rate: LearningRate,
            /// Initial step size (default `1e-3`).
            pub learning_rate_init: f64,
            /// Exponent of the `invscaling` schedule (default 0.5).
            pub power_t: f64,
            /// Maximum epochs (stochastic) or iterations (L-BFGS) (default 200).
            pub max_iter: usize,
            /// Shuffle the rows every epoch (default `true`).
            pub shuffle: bool,
            /// Seed of the initial weights, the shuffles and the validation split
            /// (scikit-learn's `random_state`, default 0).
            #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
            pub seed: u64,
            /// Tolerance of the stopping rules (default `1e-4`).
            pub tol: f64,
            /// SGD momentum `μ ∈ [0, 1)` (default 0.9).
            pub momentum: f64,
            /// Use Nesterov's momentum with SGD (default `true`).
            pub nesterovs_momentum: bool,
            /// Hold out `validation_fraction` of the rows and stop on their score (default
            /// `false`).
            pub early_stopping: bool,
            /// Fraction held out for early stopping (default 0.1).
            pub validation_fraction: f64,
            /// Adam's first-moment decay (default 0.9).
            pub beta_1: f64,
            /// Adam's second-moment decay (default 0.999).
            pub beta_2: f64,
            /// Adam's `ε` (default `1e-8`).
            pub epsilon: f64,
            /// Epochs without improvement tolerated (default 10).
            pub n_iter_no_change: usize,
            /// Maximum objective evaluations of L-BFGS (default 15000).
            pub max_fun: usize,
            /// Adam's form (default scikit-learn's).
            pub adam_form: AdamForm,
            /// Weight initialisation (default scikit-learn's Glorot uniform).
            pub weight_init: WeightInit,
            /// Bias initialisation (default scikit-learn's Glorot uniform).
            pub bias_init: BiasInit,
            /// Inverted-dropout rate of the hidden units while training, `[0, 1)` (default 0;
            /// not in scikit-learn; sgd and adam only).
            pub dropout: f64,
            /// Standard deviation of Gaussian noise added to every training input of every
            /// batch (noise injection / data augmentation; default 0; sgd and adam only).
            pub input_noise: f64,
            /// Batch normalisation of every hidden layer's pre-activations (default `false`;
            /// not in scikit-learn; see [`crate::network::BatchNorm`]).
            pub batch_norm: bool,
            $($(#[$fmeta])* pub $extra: $ety,)*
        }

        impl Default for $name {
            fn default() -> Self {
                Self {
                    hidden_layer_sizes: vec![100],
                    activation: Activation::Relu,
                    solver: Solver::Adam,
                    alpha: 1e-4,
                    batch_size: None,
                    learning_rate: LearningRate::Constant,
                    learning_rate_init: 1e-3,
                    power_t: 0.5,
                    max_iter: 200,
                    shuffle: true,
                    seed: 0,
                    tol: 1e-4,
                    momentum: 0.9,
                    nesterovs_momentum: true,
                    early_stopping: false,
                    validation_fraction: 0.1,
                    beta_1: 0.9,
                    beta_2: 0.999,
                    epsilon: 1e-8,
                    n_iter_no_change: 10,
                    max_fun: 15000,
                    adam_form: AdamForm::Sklearn,
                    weight_init: WeightInit::GlorotUniform,
                    bias_init: BiasInit::GlorotUniform,
                    dropout: 0.0,
                    input_noise: 0.0,
                    batch_norm: false,
                    $($extra: $edef,)*
                }
            }
        }

        impl $name {
            /// The defaults with hidden layers of the given widths.
            pub fn new(hidden_layer_sizes: &[usize]) -> Self {
                Self { hidden_layer_sizes: hidden_layer_sizes.to_vec(), ..Self::default() }
            }

            ndlearn_core::setters! {
                hidden_layer_sizes: Vec<usize>,
                activation: Activation,
                solver: Solver,
                alpha: f64,
                batch_size: Option<usize>,
                learning_rate: LearningRate,
                learning_rate_init: f64,
                power_t: f64,
                max_iter: usize,
                shuffle: bool,
                /// Sets `seed` (scikit-learn's `random_state`).
                seed: u64,
                tol: f64,
                momentum: f64,
                nesterovs_momentum: bool,
                early_stopping: bool,
                validation_fraction: f64,
                beta_1: f64,
                beta_2: f64,
                epsilon: f64,
                n_iter_no_change: usize,
                max_fun: usize,
                adam_form: AdamForm,
                weight_init: WeightInit,
                bias_init: BiasInit,
                dropout: f64,
                input_noise: f64,
                batch_norm: bool,
                $($extra: $ety,)*
            }

            fn hyper(&self) -> Hyper {
                Hyper {
                    hidden_layer_sizes: self.hidden_layer_sizes.clone(),
                    solver: self.solver,
                    alpha: self.alpha,
                    batch_size: self.batch_size,
                    learning_rate: self.learning_rate,
                    learning_rate_init: self.learning_rate_init,
                    power_t: self.power_t,
                    max_iter: self.max_iter,
                    shuffle: self.shuffle,
                    seed: self.seed,
                    tol: self.tol,
                    momentum: self.momentum,
                    nesterovs_momentum: self.nesterovs_momentum,
                    early_stopping: self.early_stopping,
                    validation_fraction: self.validation_fraction,
                    beta_1: self.beta_1,
                    beta_2: self.beta_2,
                    epsilon: self.epsilon,
                    n_iter_no_change: self.n_iter_no_change,
                    max_fun: self.max_fun,
                    adam_form: self.adam_form,
                    dropout: self.dropout,
                    input_noise: self.input_noise,
                }
            }

            fn sizes(&self, n_in: usize, n_out: usize) -> Vec<usize> {
                let mut s = vec![n_in];
                s.extend(&self.hidden_layer_sizes);
                s.push(n_out);
                s
            }
        }

        impl Estimator for $name {
            fn validate(&self) -> Result<()> {
                self.hyper().validate()?;
                self.activation.validate()?;
                if self.activation == Activation::Softmax {
                    return Err(Error::invalid_param(
                        "activation",
                        "softmax is an output activation; choose identity, logistic, tanh, relu, ...",
                    ));
                }
                self.bias_init.validate()
            }
        }
    };
}

mlp_estimator! {
    /// A multilayer-perceptron classifier (scikit-learn's `MLPClassifier`). See the
    /// [module docs](self).
    ///
    /// ```
    /// use ndlearn_core::{Fit, Predict, PredictProba, ndarray::array};
    /// use ndlearn_neural::{MLPClassifier, Solver};
    ///
    /// // XOR needs a hidden layer.
    /// let x = array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
    /// let y = array![0usize, 1, 1, 0];
    /// let clf = MLPClassifier::new(&[8]).activation(ndlearn_neural::Activation::Tanh)
    ///     .solver(Solver::Lbfgs).alpha(1e-5).seed(1);
    /// let fit = clf.fit(&x, &y)?;
    /// assert_eq!(fit.predict(&x)?, y);
    /// let p = fit.predict_proba(&x)?;
    /// assert!((p.row(0).sum() - 1.0_f64).abs() < 1e-12);
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    MLPClassifier {
        /// Number of classes for `partial_fit` (scikit-learn's `classes` argument of the first
        /// call); `None` = `max label + 1` of the first batch.
        n_classes: Option<usize> = None,
    }
}

mlp_estimator! {
    /// A multilayer-perceptron regressor (scikit-learn's `MLPRegressor`), single or
    /// multi-output. See the [module docs](self).
    ///
    /// ```
    /// use ndlearn_core::{Fit, Predict, ndarray::{Array2, Array1}};
    /// use ndlearn_neural::{MLPRegressor, Solver};
    ///
    /// // y = sin(3x) on 40 points, fitted by L-BFGS.
    /// let x = Array2::from_shape_fn((40, 1), |(i, _)| i as f64 / 20.0 - 1.0);
    /// let y: Array1<f64> = x.column(0).mapv(|v| (3.0 * v).sin());
    /// let fit = MLPRegressor::new(&[20]).activation(ndlearn_neural::Activation::Tanh)
    ///     .solver(Solver::Lbfgs).max_iter(2000).seed(3).fit(&x, &y)?;
    /// let err = (&fit.predict(&x)? - &y).mapv(|e| e * e).mean().unwrap_or(f64::NAN);
    /// assert!(err < 1e-3, "mse {err}");
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    MLPRegressor {}
}

/// Accuracy of a classifier network on encoded targets (subset accuracy for multi-label).
fn accuracy<F: Float>(net: &Network<F>, x: &ArrayView2<'_, F>, y: &ArrayView2<'_, F>) -> f64 {
    let out = net.predict(x);
    let half = F::cast(0.5);
    let softmax = net.loss() == OutputLoss::SoftmaxCrossEntropy;
    let hits = out
        .rows()
        .into_iter()
        .zip(y.rows())
        .filter(|(o, t)| {
            if softmax {
                argmax(o.iter().copied()) == argmax(t.iter().copied())
            } else {
                o.iter()
                    .zip(t.iter())
                    .all(|(&o, &t)| (o > half) == (t > half))
            }
        })
        .count();
    hits as f64 / x.nrows().max(1) as f64
}

/// R² averaged over outputs (scikit-learn's `uniform_average`; a constant target scores 1 when
/// predicted exactly, else 0).
fn r2<F: Float>(net: &Network<F>, x: &ArrayView2<'_, F>, y: &ArrayView2<'_, F>) -> f64 {
    let out = net.predict(x);
    let k = y.ncols();
    let mut total = 0.0;
    for j in 0..k {
        let t = y.column(j);
        let p = out.column(j);
        let mean = t
            .iter()
            .map(|v| v.to_f64().unwrap_or(f64::NAN))
            .sum::<f64>()
            / t.len() as f64;
        let (mut num, mut den) = (0.0, 0.0);
        for (&tv, &pv) in t.iter().zip(p.iter()) {
            let (tv, pv) = (
                tv.to_f64().unwrap_or(f64::NAN),
                pv.to_f64().unwrap_or(f64::NAN),
            );
            num += (tv - pv) * (tv - pv);
            den += (tv - mean) * (tv - mean);
        }
        total += if den > 0.0 {
            1.0 - num / den
        } else if num == 0.0 {
            1.0
        } else {
            0.0
        };
    }
    total / k as f64
}

/// Which encoding of the labels a classifier was fitted on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ClassifierOutput {
    /// Two classes, one logistic unit (the probability of class 1).
    Binary,
    /// `K ≥ 3` classes, `K` softmax units.
    Multiclass,
    /// `K` independent labels, `K` logistic units.
    Multilabel,
}

/// A fitted [`MLPClassifier`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMLPClassifier<F: Float> {
    params: MLPClassifier,
    network: Network<F>,
    n_classes: usize,
    output: ClassifierOutput,
    history: TrainingHistory,
    #[cfg_attr(feature = "serde", serde(skip))]
    state: Option<OptState<F>>,
}

/// A fitted [`MLPRegressor`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMLPRegressor<F: Float> {
    params: MLPRegressor,
    network: Network<F>,
    history: TrainingHistory,
    #[cfg_attr(feature = "serde", serde(skip))]
    state: Option<OptState<F>>,
}

#[allow(clippy::too_many_arguments)]
fn train<F: Float>(
    h: &Hyper,
    net: &mut Network<F>,
    hist: &mut TrainingHistory,
    state: &mut Option<OptState<F>>,
    x: &ArrayRef2<F>,
    y: &Targets<'_, F>,
    w: Option<&ArrayRef1<F>>,
    strata: Option<&[usize]>,
    score: ScoreFn<'_, F>,
) -> Result<()> {
    if h.solver == Solver::Lbfgs {
        hist.n_iter = 0;
        fit_lbfgs(h, net, hist, x, &y.matrix(), w)
    } else {
        hist.n_iter = 0;
        fit_stochastic(h, net, hist, state, x, y, w, strata, score, false)
    }
}

/// The labels as a slice: borrowed when `y` is contiguous (no copy), else copied.
fn label_slice(y: &ArrayRef1<usize>) -> std::borrow::Cow<'_, [usize]> {
    y.as_slice().map_or_else(
        || std::borrow::Cow::Owned(y.to_vec()),
        std::borrow::Cow::Borrowed,
    )
}

fn check_weights<F: Float>(w: Option<&ArrayRef1<F>>, n: usize) -> Result<()> {
    if let Some(w) = w {
        check_sample_weight(w, n)?;
    }
    Ok(())
}

// ---------------------------------------------------------------- classifier

impl MLPClassifier {
    fn network<F: Float>(
        &self,
        n_in: usize,
        output: ClassifierOutput,
        n_classes: usize,
    ) -> Result<Network<F>> {
        let (units, act, loss) = match output {
            ClassifierOutput::Binary => (1, Activation::Logistic, OutputLoss::BinaryCrossEntropy),
            ClassifierOutput::Multiclass => (
                n_classes,
                Activation::Softmax,
                OutputLoss::SoftmaxCrossEntropy,
            ),
            ClassifierOutput::Multilabel => (
                n_classes,
                Activation::Logistic,
                OutputLoss::BinaryCrossEntropy,
            ),
        };
        let net = Network::new(
            &self.sizes(n_in, units),
            self.activation,
            act,
            loss,
            self.weight_init,
            self.bias_init,
            self.seed,
        )?;
        Ok(if self.batch_norm {
            net.with_batch_norm()
        } else {
            net
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn fit_encoded<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &Targets<'_, F>,
        labels: Option<&[usize]>,
        w: Option<&ArrayRef1<F>>,
        output: ClassifierOutput,
        n_classes: usize,
        warm: Option<FittedMLPClassifier<F>>,
    ) -> Result<FittedMLPClassifier<F>> {
        let mut model = match warm {
            Some(mut m) => {
                if m.output != output
                    || m.n_classes != n_classes
                    || m.network.n_inputs() != x.ncols()
                {
                    return Err(Error::ShapeMismatch {
                        context: "MLPClassifier warm start",
                        expected: format!(
                            "{} features, {} classes ({:?})",
                            m.network.n_inputs(),
                            m.n_classes,
                            m.output
                        ),
                        found: format!("{} features, {n_classes} classes ({output:?})", x.ncols()),
                    });
                }
                m.params = self.clone();
                m.state = None;
                m.history.learning_rate = 0.0;
                m
            }
            None => FittedMLPClassifier {
                params: self.clone(),
                network: self.network(x.ncols(), output, n_classes)?,
                n_classes,
                output,
                history: TrainingHistory::default(),
                state: None,
            },
        };
        let h = self.hyper();
        let strata = if output == ClassifierOutput::Multilabel {
            None
        } else {
            labels
        };
        train(
            &h,
            &mut model.network,
            &mut model.history,
            &mut model.state,
            x,
            y,
            w,
            strata,
            &accuracy,
        )?;
        Ok(model)
    }

    /// The output layer's kind for `n_classes` single-label classes.
    fn output_for(n_classes: usize) -> ClassifierOutput {
        if n_classes == 2 {
            ClassifierOutput::Binary
        } else {
            ClassifierOutput::Multiclass
        }
    }

    /// Continues training from `model`'s weights (scikit-learn's `warm_start=True`): a fresh
    /// optimizer, the loss curve, best loss and sample count `t_` kept. The classes must be
    /// the model's.
    ///
    /// # Errors
    /// As [`Fit::fit`]; [`Error::ShapeMismatch`] when the data do not match the model.
    pub fn fit_from<F: Float>(
        &self,
        model: FittedMLPClassifier<F>,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
    ) -> Result<FittedMLPClassifier<F>> {
        self.validate()?;
        check_classification_input(x, y, 1, "MLPClassifier")?;
        let k = model.n_classes;
        check_labels_below(y, k)?;
        let labels = label_slice(y);
        let targets = Targets::classes(&labels, k);
        self.fit_encoded(
            x,
            &targets,
            Some(&labels),
            None,
            Self::output_for(k),
            k,
            Some(model),
        )
    }
}

impl MLPClassifier {
    /// [`MLPClassifier::fit_from`] for an indicator matrix `y` (`n × n_labels`) and a
    /// multi-label model.
    ///
    /// # Errors
    /// As [`FitMultiLabel::fit_multilabel`]; [`Error::ShapeMismatch`] when the data do not
    /// match the model.
    pub fn fit_multilabel_from<F: Float>(
        &self,
        model: FittedMLPClassifier<F>,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<bool>,
    ) -> Result<FittedMLPClassifier<F>> {
        self.validate()?;
        check_target_len(x.nrows(), y.nrows(), "MLPClassifier")?;
        check_fit_input(x, 1, "MLPClassifier")?;
        let enc = y.mapv(|b| if b { F::one() } else { F::zero() });
        self.fit_encoded(
            x,
            &Targets::dense(&enc),
            None,
            None,
            ClassifierOutput::Multilabel,
            y.ncols(),
            Some(model),
        )
    }
}

impl<F: Float> Fit<F> for MLPClassifier {
    type Target = ArrayRef1<usize>;
    type Model = FittedMLPClassifier<F>;
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for MLPClassifier {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.validate()?;
        let k = check_classification_input(x, y, 2, "MLPClassifier")?;
        check_weights(sample_weight, x.nrows())?;
        // the labels are the targets (encoded batch by batch) and stratify an early-stopping
        // split; borrowed when contiguous (no copy of y)
        let labels = label_slice(y);
        let targets = Targets::classes(&labels, k);
        self.fit_encoded(
            x,
            &targets,
            Some(&labels),
            sample_weight,
            Self::output_for(k),
            k,
            None,
        )
    }
}

impl<F: Float> FitMultiLabel<F> for MLPClassifier {
    fn fit_multilabel(&self, x: &ArrayRef2<F>, y: &ArrayRef2<bool>) -> Result<Self::Model> {
        self.validate()?;
        check_target_len(x.nrows(), y.nrows(), "MLPClassifier")?;
        check_fit_input(x, 1, "MLPClassifier")?;
        if y.ncols() == 0 {
            return Err(Error::TooFewClasses {
                context: "MLPClassifier (multi-label)",
                needed: 1,
                found: 0,
            });
        }
        let enc = y.mapv(|b| if b { F::one() } else { F::zero() });
        self.fit_encoded(
            x,
            &Targets::dense(&enc),
            None,
            None,
            ClassifierOutput::Multilabel,
            y.ncols(),
            None,
        )
    }
}

impl<F: Float> PartialFit<F> for MLPClassifier {
    type Target = ArrayRef1<usize>;
    type Model = FittedMLPClassifier<F>;
    /// One epoch over the batch (scikit-learn's `partial_fit`; sgd and adam only). The first
    /// call fixes the classes: `n_classes` if set, else the batch's `max label + 1`.
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
    ) -> Result<Self::Model> {
        self.validate()?;
        if self.solver == Solver::Lbfgs {
            return Err(Error::invalid_param(
                "solver",
                "partial_fit needs solver sgd or adam",
            ));
        }
        check_classification_input(x, y, 1, "MLPClassifier")?;
        let mut model = match model {
            Some(m) => m,
            None => {
                let k = self
                    .n_classes
                    .unwrap_or_else(|| y.iter().copied().max().unwrap_or(0) + 1);
                if k < 2 {
                    return Err(Error::TooFewClasses {
                        context: "MLPClassifier",
                        needed: 2,
                        found: k,
                    });
                }
                let out = if k == 2 {
                    ClassifierOutput::Binary
                } else {
                    ClassifierOutput::Multiclass
                };
                FittedMLPClassifier {
                    params: self.clone(),
                    network: self.network(x.ncols(), out, k)?,
                    n_classes: k,
                    output: out,
                    history: TrainingHistory::default(),
                    state: None,
                }
            }
        };
        if model.output == ClassifierOutput::Multilabel {
            return Err(Error::invalid_param(
                "y",
                "this model was fitted on multi-label targets",
            ));
        }
        check_predict_input(x, model.network.n_inputs(), "MLPClassifier partial_fit")?;
        check_labels_below(y, model.n_classes)?;
        let labels = label_slice(y);
        let targets = Targets::classes(&labels, model.n_classes);
        let h = self.hyper();
        model.params = self.clone();
        model.history.n_iter = 0;
        fit_stochastic(
            &h,
            &mut model.network,
            &mut model.history,
            &mut model.state,
            x,
            &targets,
            None,
            None,
            &accuracy,
            true,
        )?;
        Ok(model)
    }
}

impl<F: Float> FittedMLPClassifier<F> {
    /// A model from given weights (`coefs[l]`: `fan_in × fan_out`, scikit-learn's `coefs_` and
    /// `intercepts_`), e.g. to continue training with [`MLPClassifier::fit_from`]. The output
    /// layer must have 1 unit for `n_classes = 2`, `n_classes` otherwise; `multilabel` selects
    /// independent logistic outputs.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for shapes that do not chain or fit `n_classes`;
    /// [`Error::InvalidParam`] for invalid hyperparameters.
    pub fn from_weights(
        params: MLPClassifier,
        coefs: Vec<Array2<F>>,
        intercepts: Vec<Array1<F>>,
        n_classes: usize,
        multilabel: bool,
    ) -> Result<Self> {
        params.validate()?;
        let output = if multilabel {
            ClassifierOutput::Multilabel
        } else if n_classes == 2 {
            ClassifierOutput::Binary
        } else {
            ClassifierOutput::Multiclass
        };
        let (act, loss, units) = match output {
            ClassifierOutput::Multiclass => (
                Activation::Softmax,
                OutputLoss::SoftmaxCrossEntropy,
                n_classes,
            ),
            ClassifierOutput::Binary => (Activation::Logistic, OutputLoss::BinaryCrossEntropy, 1),
            ClassifierOutput::Multilabel => (
                Activation::Logistic,
                OutputLoss::BinaryCrossEntropy,
                n_classes,
            ),
        };
        if n_classes < 2 && !multilabel {
            return Err(Error::TooFewClasses {
                context: "MLPClassifier",
                needed: 2,
                found: n_classes,
            });
        }
        let network = Network::from_weights(coefs, intercepts, params.activation, act, loss)?;
        let network = if params.batch_norm {
            network.with_batch_norm()
        } else {
            network
        };
        if network.n_outputs() != units
            || network.layers().len() != params.hidden_layer_sizes.len() + 1
        {
            return Err(Error::ShapeMismatch {
                context: "MLPClassifier::from_weights",
                expected: format!(
                    "{} layers ending in {units} units",
                    params.hidden_layer_sizes.len() + 1
                ),
                found: format!(
                    "{} layers ending in {} units",
                    network.layers().len(),
                    network.n_outputs()
                ),
            });
        }
        Ok(Self {
            params,
            network,
            n_classes,
            output,
            history: TrainingHistory::default(),
            state: None,
        })
    }

    /// The hyperparameters of the fit.
    pub fn params(&self) -> &MLPClassifier {
        &self.params
    }
    /// Number of classes (labels for a multi-label model).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// How the labels are encoded at the output.
    pub fn output(&self) -> ClassifierOutput {
        self.output
    }
    fitted_network_accessors!();

    fn check(&self, x: &ArrayRef2<F>) -> Result<()> {
        check_predict_input(x, self.network.n_inputs(), "MLPClassifier predict")
    }
}

impl<F: Float> NFeaturesIn for FittedMLPClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.network.n_inputs()
    }
}

impl<F: Float> Predict<F> for FittedMLPClassifier<F> {
    type Output = Array1<usize>;
    /// The most probable class (probability of class 1 above ½ for two classes). A multi-label
    /// model is an error here: use [`PredictMultiLabel::predict_multilabel`].
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        self.check(x)?;
        let out = self.network.predict(x);
        match self.output {
            ClassifierOutput::Binary => Ok(out.column(0).mapv(|p| usize::from(p > F::cast(0.5)))),
            ClassifierOutput::Multiclass => Ok(out
                .rows()
                .into_iter()
                .map(|r| argmax(r.iter().copied()))
                .collect()),
            ClassifierOutput::Multilabel => Err(Error::invalid_param(
                "predict",
                "the model was fitted on multi-label targets; use predict_multilabel",
            )),
        }
    }
}

impl<F: Float> PredictProba<F> for FittedMLPClassifier<F> {
    /// Class probabilities (`n × 2` for a binary model: `[1 − p, p]`); for a multi-label model
    /// the probability of each label (rows need not sum to one).
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.check(x)?;
        let out = self.network.predict(x);
        Ok(match self.output {
            ClassifierOutput::Binary => {
                let mut p = Array2::zeros((out.nrows(), 2));
                for (mut r, &q) in p.rows_mut().into_iter().zip(out.column(0)) {
                    r[0] = F::one() - q;
                    r[1] = q;
                }
                p
            }
            _ => out,
        })
    }
}

impl<F: Float> PredictMultiLabel<F> for FittedMLPClassifier<F> {
    fn is_multilabel(&self) -> bool {
        self.output == ClassifierOutput::Multilabel
    }
    fn predict_multilabel(&self, x: &ArrayRef2<F>) -> Result<Array2<bool>> {
        if !self.is_multilabel() {
            return Err(Error::invalid_param(
                "predict_multilabel",
                "the model was fitted on single labels",
            ));
        }
        self.check(x)?;
        Ok(self.network.predict(x).mapv(|p| p > F::cast(0.5)))
    }
}

/// The network of a fitted MLP: valid ([`Network`]'s check), hidden layers of the widths
/// `hidden` with the hidden `activation`, then an output layer (of `units` units when given)
/// with the `output` activation and `loss`; and the training record.
#[allow(clippy::too_many_arguments)]
fn check_mlp<F: Float>(
    c: &ModelCheck,
    network: &Network<F>,
    history: &TrainingHistory,
    hidden: &[usize],
    activation: Activation,
    units: Option<usize>,
    output: Activation,
    loss: OutputLoss,
) -> Result<()> {
    c.part("network", network)?;
    c.part("history", history)?;
    let layers = network.layers();
    c.len("network (layers)", layers.len(), hidden.len() + 1)?;
    for (l, (layer, &width)) in layers.iter().zip(hidden).enumerate() {
        c.that(
            layer.fan_out() == width && layer.activation == activation,
            || {
                format!(
                    "hidden layer {l} is not {width} {} units",
                    activation.name()
                )
            },
        )?;
    }
    let width = network.n_outputs();
    let last = &layers[layers.len() - 1];
    c.that(
        units.is_none_or(|u| u == width) && last.activation == output && network.loss() == loss,
        || {
            format!(
                "the output layer ({width} {} units) does not fit",
                last.activation.name()
            )
        },
    )
}

impl<F: Float> CheckModel for FittedMLPClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMLPClassifier");
        c.params(&self.params)?;
        let k = self.n_classes;
        let (min_classes, units, act, loss) = match self.output {
            ClassifierOutput::Binary => {
                (2, 1, Activation::Logistic, OutputLoss::BinaryCrossEntropy)
            }
            ClassifierOutput::Multiclass => {
                (3, k, Activation::Softmax, OutputLoss::SoftmaxCrossEntropy)
            }
            ClassifierOutput::Multilabel => {
                (1, k, Activation::Logistic, OutputLoss::BinaryCrossEntropy)
            }
        };
        c.at_least("n_classes", k, min_classes)?;
        if self.output == ClassifierOutput::Binary {
            c.len("n_classes", k, 2)?;
        }
        let p = &self.params;
        check_mlp(
            &c,
            &self.network,
            &self.history,
            &p.hidden_layer_sizes,
            p.activation,
            Some(units),
            act,
            loss,
        )
    }
}

// ---------------------------------------------------------------- regressor

impl MLPRegressor {
    fn fit_matrix<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        w: Option<&ArrayRef1<F>>,
        warm: Option<FittedMLPRegressor<F>>,
    ) -> Result<FittedMLPRegressor<F>> {
        let mut model = match warm {
            Some(mut m) => {
                if m.network.n_inputs() != x.ncols() || m.network.n_outputs() != y.ncols() {
                    return Err(Error::ShapeMismatch {
                        context: "MLPRegressor warm start",
                        expected: format!(
                            "{} features, {} outputs",
                            m.network.n_inputs(),
                            m.network.n_outputs()
                        ),
                        found: format!("{} features, {} outputs", x.ncols(), y.ncols()),
                    });
                }
                m.params = self.clone();
                m.state = None;
                m.history.learning_rate = 0.0;
                m
            }
            None => FittedMLPRegressor {
                params: self.clone(),
                network: self.network(x.ncols(), y.ncols())?,
                history: TrainingHistory::default(),
                state: None,
            },
        };
        let h = self.hyper();
        train(
            &h,
            &mut model.network,
            &mut model.history,
            &mut model.state,
            x,
            &Targets::dense(y),
            w,
            None,
            &r2,
        )?;
        Ok(model)
    }

    fn network<F: Float>(&self, n_in: usize, n_out: usize) -> Result<Network<F>> {
        let net = Network::new(
            &self.sizes(n_in, n_out),
            self.activation,
            Activation::Identity,
            OutputLoss::SquaredError,
            self.weight_init,
            self.bias_init,
            self.seed,
        )?;
        Ok(if self.batch_norm {
            net.with_batch_norm()
        } else {
            net
        })
    }

    fn check_matrix<F: Float>(x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<()> {
        check_target_len(x.nrows(), y.nrows(), "MLPRegressor")?;
        check_fit_input(x, 1, "MLPRegressor")?;
        if y.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: "MLPRegressor target",
                expected: "at least one column".into(),
                found: "0 columns".into(),
            });
        }
        ndlearn_core::validate::check_finite_2d(y, "y")
    }

    /// Continues training from `model`'s weights (scikit-learn's `warm_start=True`), on a
    /// target matrix `y` (`n × n_outputs`; one column for a single-output model).
    ///
    /// # Errors
    /// As [`Fit::fit`]; [`Error::ShapeMismatch`] when the data do not match the model.
    pub fn fit_from<F: Float>(
        &self,
        model: FittedMLPRegressor<F>,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedMLPRegressor<F>> {
        self.validate()?;
        Self::check_matrix(x, y)?;
        self.fit_matrix(x, y, None, Some(model))
    }
}

impl<F: Float> Fit<F> for MLPRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedMLPRegressor<F>;
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for MLPRegressor {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.validate()?;
        check_regression_input(x, y, 1, "MLPRegressor")?;
        check_weights(sample_weight, x.nrows())?;
        let y2 = y.to_owned().insert_axis(Axis(1));
        self.fit_matrix(x, &y2, sample_weight, None)
    }
}

impl<F: Float> FitMultiOutput<F> for MLPRegressor {
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        Self::check_matrix(x, y)?;
        self.fit_matrix(x, y, None, None)
    }
}

impl<F: Float> PartialFit<F> for MLPRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedMLPRegressor<F>;
    /// One epoch over the batch (scikit-learn's `partial_fit`; sgd and adam only).
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
    ) -> Result<Self::Model> {
        self.validate()?;
        if self.solver == Solver::Lbfgs {
            return Err(Error::invalid_param(
                "solver",
                "partial_fit needs solver sgd or adam",
            ));
        }
        check_regression_input(x, y, 1, "MLPRegressor")?;
        let mut model = match model {
            Some(m) => m,
            None => FittedMLPRegressor {
                params: self.clone(),
                network: self.network(x.ncols(), 1)?,
                history: TrainingHistory::default(),
                state: None,
            },
        };
        check_predict_input(x, model.network.n_inputs(), "MLPRegressor partial_fit")?;
        if model.network.n_outputs() != 1 {
            return Err(Error::ShapeMismatch {
                context: "MLPRegressor partial_fit",
                expected: format!("{} target columns", model.network.n_outputs()),
                found: "1".into(),
            });
        }
        let y2 = y.to_owned().insert_axis(Axis(1));
        let h = self.hyper();
        model.params = self.clone();
        model.history.n_iter = 0;
        fit_stochastic(
            &h,
            &mut model.network,
            &mut model.history,
            &mut model.state,
            x,
            &Targets::dense(&y2),
            None,
            None,
            &r2,
            true,
        )?;
        Ok(model)
    }
}

impl<F: Float> FittedMLPRegressor<F> {
    /// A model from given weights (`coefs[l]`: `fan_in × fan_out`, scikit-learn's `coefs_` and
    /// `intercepts_`), e.g. to continue training with [`MLPRegressor::fit_from`].
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for shapes that do not chain or do not match
    /// `hidden_layer_sizes`; [`Error::InvalidParam`] for invalid hyperparameters.
    pub fn from_weights(
        params: MLPRegressor,
        coefs: Vec<Array2<F>>,
        intercepts: Vec<Array1<F>>,
    ) -> Result<Self> {
        params.validate()?;
        let network = Network::from_weights(
            coefs,
            intercepts,
            params.activation,
            Activation::Identity,
            OutputLoss::SquaredError,
        )?;
        let network = if params.batch_norm {
            network.with_batch_norm()
        } else {
            network
        };
        let hidden: Vec<usize> = network.layers()[..network.layers().len() - 1]
            .iter()
            .map(|l| l.fan_out())
            .collect();
        if hidden != params.hidden_layer_sizes {
            return Err(Error::ShapeMismatch {
                context: "MLPRegressor::from_weights",
                expected: format!("hidden layers {:?}", params.hidden_layer_sizes),
                found: format!("hidden layers {hidden:?}"),
            });
        }
        Ok(Self {
            params,
            network,
            history: TrainingHistory::default(),
            state: None,
        })
    }

    /// The hyperparameters of the fit.
    pub fn params(&self) -> &MLPRegressor {
        &self.params
    }
    fitted_network_accessors!();
}

impl<F: Float> NFeaturesIn for FittedMLPRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.network.n_inputs()
    }
}

impl<F: Float> Predict<F> for FittedMLPRegressor<F> {
    type Output = Array1<F>;
    /// Predictions of a single-output model (use [`PredictMultiOutput::predict_multi`] for
    /// several outputs; here they are an error).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        if self.network.n_outputs() != 1 {
            return Err(Error::invalid_param(
                "predict",
                "the model has several outputs; use predict_multi",
            ));
        }
        Ok(self.predict_multi(x)?.column(0).to_owned())
    }
}

impl<F: Float> PredictMultiOutput<F> for FittedMLPRegressor<F> {
    fn n_outputs(&self) -> usize {
        self.network.n_outputs()
    }
    fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.network.n_inputs(), "MLPRegressor predict")?;
        Ok(self.network.predict(x))
    }
}

impl<F: Float> CheckModel for FittedMLPRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMLPRegressor");
        c.params(&self.params)?;
        let p = &self.params;
        // any number of targets: one output unit each
        check_mlp(
            &c,
            &self.network,
            &self.history,
            &p.hidden_layer_sizes,
            p.activation,
            None,
            Activation::Identity,
            OutputLoss::SquaredError,
        )
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_fits_and_rejects_broken_states() {
        let x = array![
            [0.0, 0.0],
            [0.0, 1.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [0.5, 0.5],
            [0.2, 0.9]
        ];
        let bad = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let clf = MLPClassifier::new(&[4]).max_iter(5);

        let mut m = clf.fit(&x, &array![0usize, 1, 1, 0, 1, 0]).expect("fit");
        assert!(m.check_model().is_ok());
        m.n_classes = 3; // a binary network (one logistic unit) cannot serve three classes
        assert!(bad(m.check_model()));

        let mut m = clf.fit(&x, &array![0usize, 1, 2, 0, 1, 2]).expect("fit");
        assert!(m.check_model().is_ok());
        m.network.layers_mut()[1].bias = array![0.0, 0.0];
        assert!(bad(m.check_model()));

        let reg = MLPRegressor::new(&[3]).max_iter(5);
        let mut m = reg
            .fit(&x, &array![0.0, 1.0, 1.0, 2.0, 1.0, 1.1])
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.network.layers_mut()[0].activation = Activation::Elu { alpha: -1.0 };
        assert!(bad(m.check_model()));
    }
}
