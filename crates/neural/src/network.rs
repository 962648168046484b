//! Dense feed-forward networks: layers, output losses, the forward pass and backpropagation.
//!
//! # Weight convention
//!
//! One convention throughout the crate, scikit-learn's `coefs_`: the weight matrix of a layer
//! with `fan_in` inputs and `fan_out` units is `W ∈ ℝ^{fan_in × fan_out}` (**rows = inputs,
//! columns = units**), the bias `b ∈ ℝ^{fan_out}`, and a batch `A ∈ ℝ^{n × fan_in}` (one sample
//! per row) maps to
//!
//! ```text
//! Z = A W + 1 bᵀ        (n × fan_out, the pre-activations)
//! A' = f(Z)             (element-wise, or row-wise for the softmax)
//! ```
//!
//! For one sample `x` (a column vector) this is `z = Wᵀx + b`, the course notes' `σ(Wᵀx + b)`.
//! Whole batches go through one BLAS gemm per layer and direction.
//!
//! # Backpropagation
//!
//! The forward pass caches every layer's `Z_l` and `A_l` (`A_0 = X`). With
//! `δ_l = ∂ℓ/∂Z_l` (the gradient with respect to the **pre-activation**), for `L` layers:
//!
//! ```text
//! δ_L = ∂ℓ/∂Z_L                                   (= (A_L − Y)/n for a matched output/loss pair)
//! ∇W_l = A_{l−1}ᵀ δ_l,   ∇b_l = 1ᵀ δ_l
//! δ_{l−1} = (δ_l W_lᵀ) ⊙ f′_{l−1}(Z_{l−1})         (a vector–Jacobian product for the softmax)
//! ```
//!
//! # Losses ([`OutputLoss`])
//!
//! With sample weights `s_i` (all 1 by default) and `S = Σ s_i`, targets `Y` (`n × k`) and
//! outputs `A = f(Z)` of the last layer:
//!
//! | loss | objective term `ℓ` | `δ_L` | output activation |
//! |---|---|---|---|
//! | `SquaredError` | `(1/S) Σᵢ sᵢ ½‖aᵢ − yᵢ‖²` | `sᵢ(aᵢ − yᵢ)/S` (× `f′` unless identity) | any |
//! | `Huber { delta }` | `(1/S) Σᵢ sᵢ Σⱼ huber_δ(yᵢⱼ − aᵢⱼ)` ([`Loss::Huber`]) | from [`Loss::gradient`] (× `f′`) | any |
//! | `BinaryCrossEntropy` | `(1/S) Σᵢ sᵢ Σⱼ [log(1 + e^{zᵢⱼ}) − yᵢⱼ zᵢⱼ]`, from the logits | `sᵢ(σ(zᵢⱼ) − yᵢⱼ)/S` | logistic |
//! | `SoftmaxCrossEntropy` | `(1/S) Σᵢ sᵢ [log Σⱼ e^{zᵢⱼ} − Σⱼ yᵢⱼ zᵢⱼ]`, from the logits | `sᵢ(softmax(zᵢ) − yᵢ)/S` | softmax |
//!
//! The cross-entropies are computed from the logits `Z` with [`log1pexp`] and
//! [`log_sum_exp_rows`], never as `log` of a probability, so they stay finite when the
//! probabilities round to 0 or 1. The L2 penalty `(α/(2S)) Σ_l ‖W_l‖²_F` (biases not
//! penalised) is scikit-learn's scaling; it adds `α W_l / S` to `∇W_l`.
//!
//! scikit-learn reports the squared error of a `k`-output regressor as the mean over outputs,
//! `(1/S) Σᵢ sᵢ ½‖aᵢ − yᵢ‖² / k`, while its gradient is the one of the sum over outputs above;
//! [`LossValue::reported`] gives scikit-learn's number, [`LossValue::objective`] the value
//! whose gradient is computed (they agree for `k = 1` and for every other loss).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, Zip};
use ndlearn_core::linalg::{gemm, matmul};
use ndlearn_core::loss::Loss;
use ndlearn_core::numeric::{log_sum_exp_rows, log1pexp};
use ndlearn_core::random::{self, Rng};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result};

use crate::activation::Activation;

/// Checks a dropout rate: `0 ≤ rate < 1`.
///
/// # Errors
/// [`Error::InvalidParam`] naming `dropout`.
pub fn check_dropout(rate: f64) -> Result<()> {
    if rate.is_finite() && (0.0..1.0).contains(&rate) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "dropout",
            format!("must lie in [0, 1), got {rate}"),
        ))
    }
}
use crate::init::{BiasInit, WeightInit, init_layer};

/// The loss at the output layer (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum OutputLoss {
    /// `½‖a − y‖²` per sample.
    #[default]
    SquaredError,
    /// Huber's loss with threshold `delta > 0` per output.
    Huber {
        /// Threshold between the quadratic and the linear part.
        delta: f64,
    },
    /// Binary cross-entropy of logistic outputs (binary and multi-label classification).
    BinaryCrossEntropy,
    /// Softmax cross-entropy (multiclass classification with one-hot targets).
    SoftmaxCrossEntropy,
}

impl OutputLoss {
    /// Checks the loss and its pairing with the output activation (the cross-entropies need
    /// the logistic / softmax output they are computed from).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming `loss`.
    pub fn validate(&self, output: Activation) -> Result<()> {
        match (*self, output) {
            (Self::Huber { delta }, _) if !(delta.is_finite() && delta > 0.0) => {
                Err(Error::invalid_param(
                    "loss",
                    format!("huber delta must be finite and > 0, got {delta}"),
                ))
            }
            (Self::BinaryCrossEntropy, a) if a != Activation::Logistic => {
                Err(Error::invalid_param(
                    "loss",
                    format!(
                        "binary cross-entropy needs a logistic output layer, got {}",
                        a.name()
                    ),
                ))
            }
            (Self::SoftmaxCrossEntropy, a) if a != Activation::Softmax => {
                Err(Error::invalid_param(
                    "loss",
                    format!(
                        "softmax cross-entropy needs a softmax output layer, got {}",
                        a.name()
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Whether `δ_L = A − Y` (the loss is matched to its output activation).
    fn canonical(&self, output: Activation) -> bool {
        matches!(
            (*self, output),
            (Self::SquaredError, Activation::Identity)
                | (Self::BinaryCrossEntropy, Activation::Logistic)
                | (Self::SoftmaxCrossEntropy, Activation::Softmax)
        )
    }
}

/// One dense (fully connected) layer: `A' = f(A W + 1 bᵀ)`, `W` is `fan_in × fan_out`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dense<F: Float> {
    /// Weights, `fan_in × fan_out` (scikit-learn's `coefs_[l]`).
    pub weights: Array2<F>,
    /// Biases, `fan_out` (scikit-learn's `intercepts_[l]`).
    pub bias: Array1<F>,
    /// The activation of the layer's units.
    pub activation: Activation,
    /// Batch normalisation of the pre-activations (before the activation), if any.
    #[cfg_attr(feature = "serde", serde(default))]
    pub batch_norm: Option<BatchNorm<F>>,
}

/// Batch normalisation of a layer's pre-activations (Ioffe & Szegedy, 2015):
///
/// ```text
/// training:   ẑ = (z − μ_B) / √(σ²_B + ε),   z' = γ ⊙ ẑ + β     (μ_B, σ²_B: batch mean and biased variance per unit)
/// prediction: z' = γ ⊙ (z − μ_run) / √(σ²_run + ε) + β
/// ```
///
/// The running statistics follow `μ_run ← (1 − m) μ_run + m μ_B` and
/// `σ²_run ← (1 − m) σ²_run + m σ²_B·n/(n − 1)` (the unbiased batch variance, as PyTorch) after
/// every training batch ([`Network::update_running_stats`]). `γ` and `β` are trained and not
/// penalised; sample weights do not enter the batch statistics.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BatchNorm<F: Float> {
    /// Scale `γ` (starts at 1).
    pub gamma: Array1<F>,
    /// Shift `β` (starts at 0).
    pub beta: Array1<F>,
    /// Running mean (starts at 0).
    pub running_mean: Array1<F>,
    /// Running variance (starts at 1).
    pub running_var: Array1<F>,
    /// Momentum `m` of the running statistics (default 0.1).
    pub momentum: f64,
    /// `ε` added to the variance (default `1e-5`).
    pub eps: f64,
}

impl<F: Float> BatchNorm<F> {
    /// Identity-initialised batch normalisation of `units` units.
    pub fn new(units: usize) -> Self {
        Self {
            gamma: Array1::ones(units),
            beta: Array1::zeros(units),
            running_mean: Array1::zeros(units),
            running_var: Array1::ones(units),
            momentum: 0.1,
            eps: 1e-5,
        }
    }

    /// `z' = γ (z − μ_run)/√(σ²_run + ε) + β` in place (prediction mode).
    fn apply_running(&self, z: &mut Array2<F>) {
        let eps = F::cast(self.eps);
        for mut row in z.rows_mut() {
            Zip::from(&mut row)
                .and(&self.gamma)
                .and(&self.beta)
                .and(&self.running_mean)
                .and(&self.running_var)
                .for_each(|z, &g, &b, &m, &v| *z = g * (*z - m) / (v + eps).sqrt() + b);
        }
    }
}

impl<F: Float> Dense<F> {
    /// A layer without batch normalisation.
    pub fn new(weights: Array2<F>, bias: Array1<F>, activation: Activation) -> Self {
        Self {
            weights,
            bias,
            activation,
            batch_norm: None,
        }
    }

    /// Number of inputs.
    pub fn fan_in(&self) -> usize {
        self.weights.nrows()
    }
    /// Number of units.
    pub fn fan_out(&self) -> usize {
        self.weights.ncols()
    }
}

/// The value of the training objective on a batch (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LossValue<F> {
    /// Data term plus L2 penalty, the function whose gradient is returned.
    pub objective: F,
    /// scikit-learn's reported loss (the squared error averaged over outputs).
    pub reported: F,
}

/// Buffers of one forward/backward pass (activations, pre-activations, deltas and gradients),
/// reused across batches of the same size.
#[derive(Debug, Clone, Default)]
pub struct Workspace<F: Float> {
    z: Vec<Array2<F>>,
    a: Vec<Array2<F>>,
    delta: Vec<Array2<F>>,
    /// `∇W_l` after [`Network::loss_gradient`].
    pub grad_w: Vec<Array2<F>>,
    /// `∇b_l` after [`Network::loss_gradient`].
    pub grad_b: Vec<Array1<F>>,
    /// Inverted-dropout masks of the hidden layers (entries `0` or `1/keep`).
    mask: Vec<Array2<F>>,
    /// Hidden outputs after dropout, `A_l ⊙ M_l` (the next layer's input while training).
    dropped: Vec<Array2<F>>,
    /// Batch normalisation: `ẑ` per layer (empty for layers without it).
    bn_xhat: Vec<Array2<F>>,
    /// Batch normalisation: batch mean and biased variance per layer.
    bn_stats: Vec<(Array1<F>, Array1<F>)>,
    /// `∇γ_l` after [`Network::loss_gradient`] (empty without batch normalisation).
    pub grad_gamma: Vec<Array1<F>>,
    /// `∇β_l` after [`Network::loss_gradient`].
    pub grad_beta: Vec<Array1<F>>,
}

impl<F: Float> Workspace<F> {
    fn ensure(&mut self, net: &Network<F>, n: usize) {
        let fits = self.z.len() == net.layers.len()
            && self
                .z
                .iter()
                .zip(&net.layers)
                .all(|(z, l)| z.dim() == (n, l.fan_out()));
        if !fits {
            let shapes = || net.layers.iter().map(|l| Array2::zeros((n, l.fan_out())));
            self.z = shapes().collect();
            self.a = shapes().collect();
            self.delta = shapes().collect();
        }
        let grads_fit = self.grad_w.len() == net.layers.len()
            && self
                .grad_w
                .iter()
                .zip(&net.layers)
                .all(|(g, l)| g.dim() == l.weights.dim());
        if !grads_fit {
            self.grad_w = net
                .layers
                .iter()
                .map(|l| Array2::zeros(l.weights.dim()))
                .collect();
            self.grad_b = net
                .layers
                .iter()
                .map(|l| Array1::zeros(l.fan_out()))
                .collect();
        }
        let bn_units = |l: &Dense<F>| l.batch_norm.as_ref().map_or(0, |_| l.fan_out());
        let bn_fits = self.bn_xhat.len() == net.layers.len()
            && self
                .bn_xhat
                .iter()
                .zip(&net.layers)
                .all(|(x, l)| x.ncols() == bn_units(l) && (x.nrows() == n || bn_units(l) == 0));
        if !bn_fits {
            self.bn_xhat = net
                .layers
                .iter()
                .map(|l| Array2::zeros((n, bn_units(l))))
                .collect();
            self.bn_stats = net
                .layers
                .iter()
                .map(|l| (Array1::zeros(bn_units(l)), Array1::zeros(bn_units(l))))
                .collect();
            self.grad_gamma = net
                .layers
                .iter()
                .map(|l| Array1::zeros(bn_units(l)))
                .collect();
            self.grad_beta = self.grad_gamma.clone();
        }
    }

    /// The cached output `A_L` of the last forward pass.
    pub fn output(&self) -> Option<&Array2<F>> {
        self.a.last()
    }

    /// The cached `(Z_l, A_l)` of layer `l` (0-based) of the last forward pass.
    pub fn layer_cache(&self, l: usize) -> Option<(&Array2<F>, &Array2<F>)> {
        Some((self.z.get(l)?, self.a.get(l)?))
    }

    /// The cached `δ_l = ∂ℓ/∂Z_l` of layer `l` of the last backward pass.
    pub fn delta(&self, l: usize) -> Option<&Array2<F>> {
        self.delta.get(l)
    }
}

/// A feed-forward network of [`Dense`] layers with an [`OutputLoss`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Network<F: Float> {
    layers: Vec<Dense<F>>,
    loss: OutputLoss,
    /// `(l, λ)`: an L1 penalty `(λ/S) Σᵢ sᵢ ‖A_l[i]‖₁` on the outputs of layer `l` (sparse
    /// codes of autoencoders).
    #[cfg_attr(feature = "serde", serde(default))]
    activity_l1: Option<(usize, f64)>,
}

impl<F: Float> Network<F> {
    /// A freshly initialised network with layer widths `sizes = [n_in, h_1, …, n_out]`,
    /// activation `hidden` on the hidden layers and `output` on the last one.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for fewer than two sizes, a zero width, invalid activations or
    /// a loss that does not match `output`.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        sizes: &[usize],
        hidden: Activation,
        output: Activation,
        loss: OutputLoss,
        weight_init: WeightInit,
        bias_init: BiasInit,
        seed: u64,
    ) -> Result<Self> {
        if sizes.len() < 2 || sizes.contains(&0) {
            return Err(Error::invalid_param(
                "hidden_layer_sizes",
                format!("every layer needs at least one unit, got sizes {sizes:?}"),
            ));
        }
        hidden.validate()?;
        output.validate()?;
        bias_init.validate()?;
        loss.validate(output)?;
        let n = sizes.len() - 1;
        let layers = (0..n)
            .map(|l| {
                let act = if l + 1 == n { output } else { hidden };
                // scikit-learn's Glorot factor depends on the hidden activation for every layer.
                let (w, b) = init_layer(
                    sizes[l],
                    sizes[l + 1],
                    hidden,
                    weight_init,
                    bias_init,
                    seed,
                    l as u64,
                );
                Dense::new(w, b, act)
            })
            .collect();
        Ok(Self {
            layers,
            loss,
            activity_l1: None,
        })
    }

    /// A network from given weights (`coefs[l]` is `fan_in × fan_out`, scikit-learn's
    /// `coefs_`) and biases (`intercepts_`), e.g. to start from another library's weights.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when consecutive shapes do not chain or the counts differ,
    /// [`Error::NonFinite`] for a non-finite weight, [`Error::InvalidParam`] as [`Network::new`].
    pub fn from_weights(
        coefs: Vec<Array2<F>>,
        intercepts: Vec<Array1<F>>,
        hidden: Activation,
        output: Activation,
        loss: OutputLoss,
    ) -> Result<Self> {
        hidden.validate()?;
        output.validate()?;
        loss.validate(output)?;
        if coefs.is_empty() || coefs.len() != intercepts.len() {
            return Err(Error::ShapeMismatch {
                context: "network weights",
                expected: "as many bias vectors as weight matrices, at least one".into(),
                found: format!("{} matrices, {} vectors", coefs.len(), intercepts.len()),
            });
        }
        for l in 0..coefs.len() {
            let (fi, fo) = coefs[l].dim();
            if fi == 0
                || fo == 0
                || intercepts[l].len() != fo
                || (l > 0 && coefs[l - 1].ncols() != fi)
            {
                return Err(Error::ShapeMismatch {
                    context: "network weights",
                    expected: "W_l of shape (fan_in, fan_out) chained, b_l of length fan_out"
                        .into(),
                    found: format!(
                        "layer {l}: W {:?}, b {}",
                        coefs[l].dim(),
                        intercepts[l].len()
                    ),
                });
            }
            ndlearn_core::validate::check_finite_2d(&coefs[l], "network weights")?;
            ndlearn_core::validate::check_finite_1d(&intercepts[l], "network biases")?;
        }
        let n = coefs.len();
        let layers = coefs
            .into_iter()
            .zip(intercepts)
            .enumerate()
            .map(|(l, (weights, bias))| {
                Dense::new(weights, bias, if l + 1 == n { output } else { hidden })
            })
            .collect();
        Ok(Self {
            layers,
            loss,
            activity_l1: None,
        })
    }

    /// A network from explicit layers (each with its own activation), e.g. an autoencoder's
    /// encoder and decoder.
    ///
    /// # Errors
    /// As [`Network::from_weights`].
    pub fn from_layers(layers: Vec<Dense<F>>, loss: OutputLoss) -> Result<Self> {
        let Some(last) = layers.last() else {
            return Err(Error::ShapeMismatch {
                context: "network layers",
                expected: "at least one layer".into(),
                found: "none".into(),
            });
        };
        loss.validate(last.activation)?;
        for (l, layer) in layers.iter().enumerate() {
            layer.activation.validate()?;
            let (fi, fo) = layer.weights.dim();
            if fi == 0
                || fo == 0
                || layer.bias.len() != fo
                || (l > 0 && layers[l - 1].fan_out() != fi)
            {
                return Err(Error::ShapeMismatch {
                    context: "network layers",
                    expected: "W_l of shape (fan_in, fan_out) chained, b_l of length fan_out"
                        .into(),
                    found: format!(
                        "layer {l}: W {:?}, b {}",
                        layer.weights.dim(),
                        layer.bias.len()
                    ),
                });
            }
        }
        Ok(Self {
            layers,
            loss,
            activity_l1: None,
        })
    }

    /// Adds the L1 activity penalty `(λ/S) Σᵢ sᵢ ‖A_l[i]‖₁` on the outputs of layer `l` to the
    /// objective (its subgradient uses `sign(0) = 0`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a layer index out of range or `λ` negative / non-finite.
    pub fn with_activity_l1(mut self, layer: usize, lambda: f64) -> Result<Self> {
        ndlearn_core::validate::check_non_negative("l1", lambda)?;
        if layer >= self.layers.len() {
            return Err(Error::invalid_param(
                "l1",
                format!("layer {layer} out of range"),
            ));
        }
        self.activity_l1 = (lambda > 0.0).then_some((layer, lambda));
        Ok(self)
    }

    /// The outputs `A_l` of layer `l` (0-based) for a batch, without caching.
    pub fn activations(&self, x: &ArrayRef2<F>, l: usize) -> Array2<F> {
        let mut a = x.to_owned();
        for k in 0..=l.min(self.layers.len() - 1) {
            let mut next = self.affine(k, &a.view());
            self.layers[k].activation.forward_inplace(&mut next);
            a = next;
        }
        a
    }

    /// Maps `a` (the outputs of layer `from − 1`) through layers `from..` to the output.
    pub fn forward_from(&self, a: &ArrayRef2<F>, from: usize) -> Array2<F> {
        let mut a = a.to_owned();
        for k in from..self.layers.len() {
            let mut next = self.affine(k, &a.view());
            self.layers[k].activation.forward_inplace(&mut next);
            a = next;
        }
        a
    }

    /// The layers, input side first.
    pub fn layers(&self) -> &[Dense<F>] {
        &self.layers
    }

    /// Mutable access to the layers (shapes must be kept).
    pub fn layers_mut(&mut self) -> &mut [Dense<F>] {
        &mut self.layers
    }

    /// The output loss.
    pub fn loss(&self) -> OutputLoss {
        self.loss
    }

    /// Number of inputs.
    pub fn n_inputs(&self) -> usize {
        self.layers[0].fan_in()
    }

    /// Number of outputs.
    pub fn n_outputs(&self) -> usize {
        self.layers[self.layers.len() - 1].fan_out()
    }

    /// Number of trainable parameters `Σ_l (fan_in + 1)·fan_out` (plus `2·fan_out` for `γ`, `β`
    /// of a batch-normalised layer).
    pub fn n_params(&self) -> usize {
        self.layers
            .iter()
            .map(|l| {
                (l.fan_in() + 1) * l.fan_out()
                    + l.batch_norm.as_ref().map_or(0, |_| 2 * l.fan_out())
            })
            .sum()
    }

    /// All parameters in one vector, in scikit-learn's `_pack` order: every `W_l` row-major,
    /// then every `b_l` (then `γ_l`, `β_l` of the batch-normalised layers).
    pub fn pack(&self) -> Array1<F> {
        let mut out = Vec::with_capacity(self.n_params());
        for l in &self.layers {
            out.extend(l.weights.iter().copied());
        }
        for l in &self.layers {
            out.extend(l.bias.iter().copied());
        }
        for bn in self.layers.iter().filter_map(|l| l.batch_norm.as_ref()) {
            out.extend(bn.gamma.iter().chain(bn.beta.iter()).copied());
        }
        Array1::from(out)
    }

    /// The inverse of [`Network::pack`].
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `theta.len() != n_params()`.
    pub fn unpack(&mut self, theta: &ArrayRef1<F>) -> Result<()> {
        if theta.len() != self.n_params() {
            return Err(Error::ShapeMismatch {
                context: "network parameters",
                expected: format!("{} values", self.n_params()),
                found: format!("{} values", theta.len()),
            });
        }
        let mut it = theta.iter().copied();
        for l in &mut self.layers {
            l.weights
                .iter_mut()
                .for_each(|w| *w = it.next().unwrap_or_else(F::zero));
        }
        for l in &mut self.layers {
            l.bias
                .iter_mut()
                .for_each(|b| *b = it.next().unwrap_or_else(F::zero));
        }
        for bn in self.layers.iter_mut().filter_map(|l| l.batch_norm.as_mut()) {
            bn.gamma
                .iter_mut()
                .chain(bn.beta.iter_mut())
                .for_each(|v| *v = it.next().unwrap_or_else(F::zero));
        }
        Ok(())
    }

    /// Packs gradients stored in a [`Workspace`] in the order of [`Network::pack`].
    pub fn pack_gradient(&self, ws: &Workspace<F>) -> Array1<F> {
        let mut out = Vec::with_capacity(self.n_params());
        for g in &ws.grad_w {
            out.extend(g.iter().copied());
        }
        for g in &ws.grad_b {
            out.extend(g.iter().copied());
        }
        for (l, layer) in self.layers.iter().enumerate() {
            if layer.batch_norm.is_some() {
                out.extend(
                    ws.grad_gamma[l]
                        .iter()
                        .chain(ws.grad_beta[l].iter())
                        .copied(),
                );
            }
        }
        Array1::from(out)
    }

    /// The network's outputs `A_L` for a batch `x` (`n × n_inputs`), without caching. Above
    /// `2·PREDICT_BLOCK` rows the rows go through in blocks of `PREDICT_BLOCK`, in parallel
    /// (each block's activations stay in cache; rows are independent, so the result is the
    /// same for any number of threads).
    pub fn predict(&self, x: &ArrayRef2<F>) -> Array2<F> {
        const PREDICT_BLOCK: usize = 1024;
        if x.nrows() > 2 * PREDICT_BLOCK {
            let blocks = ndlearn_core::par::map_row_chunks(x, PREDICT_BLOCK, |_, xb| {
                self.predict_block(&xb)
            });
            let views: Vec<_> = blocks.iter().map(|b| b.view()).collect();
            return ndarray::concatenate(Axis(0), &views).expect("blocks of equal width");
        }
        self.predict_block(x)
    }

    fn predict_block(&self, x: &ArrayRef2<F>) -> Array2<F> {
        let mut a = self.affine(0, &x.view());
        self.layers[0].activation.forward_inplace(&mut a);
        for l in 1..self.layers.len() {
            let mut next = self.affine(l, &a.view());
            self.layers[l].activation.forward_inplace(&mut next);
            a = next;
        }
        a
    }

    /// The pre-activations `Z_L` of the output layer (logits for classifiers).
    pub fn logits(&self, x: &ArrayRef2<F>) -> Array2<F> {
        let last = self.layers.len() - 1;
        let mut a = x.to_owned();
        for l in 0..last {
            let mut next = self.affine(l, &a.view());
            self.layers[l].activation.forward_inplace(&mut next);
            a = next;
        }
        self.affine(last, &a.view())
    }

    fn affine(&self, l: usize, a: &ArrayView2<'_, F>) -> Array2<F> {
        let layer = &self.layers[l];
        let mut z = matmul(a, &layer.weights);
        z += &layer.bias;
        if let Some(bn) = &layer.batch_norm {
            bn.apply_running(&mut z);
        }
        z
    }

    /// Adds batch normalisation (identity-initialised) to every hidden layer.
    pub fn with_batch_norm(mut self) -> Self {
        let n = self.layers.len();
        for layer in &mut self.layers[..n - 1] {
            layer.batch_norm = Some(BatchNorm::new(layer.fan_out()));
        }
        self
    }

    /// Updates the running statistics of every batch-normalised layer from the batch statistics
    /// of the last training pass in `ws` (see [`BatchNorm`]).
    pub fn update_running_stats(&mut self, ws: &Workspace<F>) {
        for (l, layer) in self.layers.iter_mut().enumerate() {
            let (Some(bn), Some((mean, var))) = (layer.batch_norm.as_mut(), ws.bn_stats.get(l))
            else {
                continue;
            };
            if mean.is_empty() {
                continue;
            }
            let n = ws.z[l].nrows();
            let unbias = if n > 1 {
                F::cast(n as f64 / (n as f64 - 1.0))
            } else {
                F::one()
            };
            let m = F::cast(bn.momentum);
            let keep = F::one() - m;
            Zip::from(&mut bn.running_mean)
                .and(mean)
                .for_each(|r, &v| *r = keep * *r + m * v);
            Zip::from(&mut bn.running_var)
                .and(var)
                .for_each(|r, &v| *r = keep * *r + m * v * unbias);
        }
    }

    /// Sets the running statistics of every batch-normalised layer to the statistics of the
    /// whole of `x` (after full-batch training such as L-BFGS).
    pub fn set_running_stats(&mut self, x: &ArrayRef2<F>) {
        let mut ws = Workspace::default();
        self.forward_impl(x, &mut ws, None, true);
        let n = x.nrows();
        let unbias = if n > 1 {
            F::cast(n as f64 / (n as f64 - 1.0))
        } else {
            F::one()
        };
        for (l, layer) in self.layers.iter_mut().enumerate() {
            if let (Some(bn), Some((mean, var))) = (layer.batch_norm.as_mut(), ws.bn_stats.get(l))
                && !mean.is_empty()
            {
                bn.running_mean.assign(mean);
                bn.running_var.assign(&var.mapv(|v| v * unbias));
            }
        }
    }

    /// The forward pass on batch `x`, caching every `Z_l` and `A_l` in `ws`.
    /// Batch-normalised layers use the batch's statistics (training mode).
    pub fn forward(&self, x: &ArrayRef2<F>, ws: &mut Workspace<F>) {
        self.forward_impl(x, ws, None, true);
    }

    fn forward_impl(
        &self,
        x: &ArrayRef2<F>,
        ws: &mut Workspace<F>,
        drop: Option<(f64, &mut Rng)>,
        training: bool,
    ) {
        ws.ensure(self, x.nrows());
        let n_layers = self.layers.len();
        let dropping = drop.is_some();
        if dropping
            && (ws.mask.len() != n_layers - 1
                || ws.mask.first().is_some_and(|m| m.nrows() != x.nrows()))
        {
            ws.mask = ws.a[..n_layers - 1]
                .iter()
                .map(|a| Array2::zeros(a.raw_dim()))
                .collect();
            ws.dropped = ws.mask.clone();
        }
        let mut drop = drop;
        for l in 0..n_layers {
            let layer = &self.layers[l];
            let z = &mut ws.z[l];
            if l == 0 {
                gemm(F::one(), x, &layer.weights, F::zero(), z);
            } else if dropping {
                gemm(F::one(), &ws.dropped[l - 1], &layer.weights, F::zero(), z);
            } else {
                gemm(F::one(), &ws.a[l - 1], &layer.weights, F::zero(), z);
            }
            *z += &layer.bias;
            if let Some(bn) = &layer.batch_norm {
                if training {
                    let n = F::cast(z.nrows().max(1));
                    let eps = F::cast(bn.eps);
                    let (mean, var) = &mut ws.bn_stats[l];
                    mean.assign(&(z.sum_axis(Axis(0)) / n));
                    var.fill(F::zero());
                    for row in z.rows() {
                        Zip::from(&mut *var)
                            .and(&row)
                            .and(&*mean)
                            .for_each(|v, &z, &m| *v += (z - m) * (z - m));
                    }
                    var.mapv_inplace(|v| v / n);
                    let xhat = &mut ws.bn_xhat[l];
                    for (mut xr, mut zr) in xhat.rows_mut().into_iter().zip(z.rows_mut()) {
                        Zip::from(&mut xr)
                            .and(&mut zr)
                            .and(&*mean)
                            .and(&*var)
                            .and(&bn.gamma)
                            .and(&bn.beta)
                            .for_each(|xh, zv, &m, &v, &g, &b| {
                                *xh = (*zv - m) / (v + eps).sqrt();
                                *zv = g * *xh + b;
                            });
                    }
                } else {
                    bn.apply_running(z);
                }
            }
            ws.a[l].assign(z);
            layer.activation.forward_inplace(&mut ws.a[l]);
            if let (Some((keep, rng)), true) = (drop.as_mut(), l + 1 < n_layers) {
                let scale = F::cast(1.0 / *keep);
                let keep = *keep;
                ws.mask[l].mapv_inplace(|_| {
                    if random::uniform(rng, 0.0, 1.0) < keep {
                        scale
                    } else {
                        F::zero()
                    }
                });
                Zip::from(&mut ws.dropped[l])
                    .and(&ws.a[l])
                    .and(&ws.mask[l])
                    .for_each(|d, &a, &m| *d = a * m);
            }
        }
    }

    /// [`Network::loss_gradient`] with inverted dropout on the hidden layers: each hidden
    /// output is kept with probability `1 − rate` and then scaled by `1/(1 − rate)`, so its
    /// expectation is the output without dropout and nothing changes at prediction time. The
    /// masks are drawn from `rng` (same stream, same masks) and the gradient is exact for them;
    /// `rate = 0` is [`Network::loss_gradient`].
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `0 ≤ rate < 1`.
    pub fn loss_gradient_dropout(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        alpha: F,
        (rate, rng): (f64, &mut Rng),
        ws: &mut Workspace<F>,
    ) -> Result<LossValue<F>> {
        check_dropout(rate)?;
        let drop = (rate > 0.0).then_some((1.0 - rate, rng));
        Ok(self.loss_gradient_impl(x, y, sample_weight, alpha, drop, ws))
    }

    /// The training objective on batch `(x, y)` and its gradient (into `ws.grad_w`,
    /// `ws.grad_b`): forward pass, loss, backward pass (see the [module docs](self)).
    /// `alpha` is the L2 strength; `sample_weight` optional per-row weights.
    ///
    /// The shapes are the caller's responsibility (`x`: `n × n_inputs`, `y`: `n × n_outputs`,
    /// weights: `n`, `n ≥ 1`); the estimators validate them.
    pub fn loss_gradient(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        alpha: F,
        ws: &mut Workspace<F>,
    ) -> LossValue<F> {
        self.loss_gradient_impl(x, y, sample_weight, alpha, None, ws)
    }

    fn loss_gradient_impl(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        alpha: F,
        drop: Option<(f64, &mut Rng)>,
        ws: &mut Workspace<F>,
    ) -> LossValue<F> {
        let dropping = drop.is_some();
        self.forward_impl(x, ws, drop, true);
        let last = self.layers.len() - 1;
        let n = x.nrows();
        let s_sum = sample_weight.map_or_else(|| F::cast(n), |w| w.sum());
        let out_act = self.layers[last].activation;
        // Data term, unscaled by S, summed over rows with the sample weights.
        let data = self.data_loss(&ws.z[last], &ws.a[last], y, sample_weight);
        let act = self.activity_l1.map_or_else(F::zero, |(l, lambda)| {
            F::cast(lambda) * weighted_l1(&ws.a[l], sample_weight)
        });
        // δ_L (before the 1/S scaling, which goes into the gradients as scikit-learn does).
        {
            let delta = &mut ws.delta[last];
            if self.loss.canonical(out_act) {
                Zip::from(&mut *delta)
                    .and(&ws.a[last])
                    .and(y)
                    .for_each(|d, &a, &y| *d = a - y);
            } else {
                match self.loss {
                    OutputLoss::Huber { delta: h } => {
                        let loss = Loss::Huber { delta: h };
                        Zip::from(&mut *delta)
                            .and(&ws.a[last])
                            .and(y)
                            .for_each(|d, &a, &y| *d = loss.gradient(y, a));
                    }
                    _ => Zip::from(&mut *delta)
                        .and(&ws.a[last])
                        .and(y)
                        .for_each(|d, &a, &y| *d = a - y),
                }
                out_act.backward(&ws.z[last], &ws.a[last], delta);
            }
            if let Some(w) = sample_weight {
                Zip::from(delta.rows_mut())
                    .and(w)
                    .for_each(|mut r, &w| r *= w);
            }
        }
        let mut sq = F::zero();
        for l in (0..=last).rev() {
            let layer = &self.layers[l];
            sq += layer.weights.iter().fold(F::zero(), |s, &w| s + w * w);
            if let Some(bn) = &layer.batch_norm {
                // Through z' = γ ẑ + β, ẑ = (z − μ_B)/√(σ²_B + ε): with g = ∂ℓ/∂z',
                // ∂ℓ/∂z = γ/(n √(σ²_B + ε)) · (n g − Σᵢ g − ẑ Σᵢ g ẑ).
                let xhat = &ws.bn_xhat[l];
                let (_, var) = &ws.bn_stats[l];
                let d = &mut ws.delta[l];
                let nf = F::cast(d.nrows());
                let eps = F::cast(bn.eps);
                let g_beta = d.sum_axis(Axis(0));
                let mut g_gamma = Array1::zeros(d.ncols());
                for (dr, xr) in d.rows().into_iter().zip(xhat.rows()) {
                    Zip::from(&mut g_gamma)
                        .and(&dr)
                        .and(&xr)
                        .for_each(|s, &d, &x| *s += d * x);
                }
                for (mut dr, xr) in d.rows_mut().into_iter().zip(xhat.rows()) {
                    Zip::from(&mut dr)
                        .and(&xr)
                        .and(&g_beta)
                        .and(&g_gamma)
                        .and(&bn.gamma)
                        .and(var)
                        .for_each(|d, &x, &sb, &sg, &g, &v| {
                            *d = g / (nf * (v + eps).sqrt()) * (nf * *d - sb - x * sg);
                        });
                }
                ws.grad_beta[l].assign(&g_beta.mapv(|v| v / s_sum));
                ws.grad_gamma[l].assign(&g_gamma.mapv(|v| v / s_sum));
            }
            {
                let gw = &mut ws.grad_w[l];
                if l == 0 {
                    gemm(F::one(), &x.t(), &ws.delta[0], F::zero(), gw);
                } else if dropping {
                    gemm(
                        F::one(),
                        &ws.dropped[l - 1].t(),
                        &ws.delta[l],
                        F::zero(),
                        gw,
                    );
                } else {
                    gemm(F::one(), &ws.a[l - 1].t(), &ws.delta[l], F::zero(), gw);
                }
                gw.scaled_add(alpha, &layer.weights);
                gw.mapv_inplace(|g| g / s_sum);
                let gb = &mut ws.grad_b[l];
                gb.assign(&ws.delta[l].sum_axis(Axis(0)));
                gb.mapv_inplace(|g| g / s_sum);
            }
            if l > 0 {
                let (lo, hi) = ws.delta.split_at_mut(l);
                gemm(
                    F::one(),
                    &hi[0],
                    &layer.weights.t(),
                    F::zero(),
                    &mut lo[l - 1],
                );
                if dropping {
                    lo[l - 1] *= &ws.mask[l - 1];
                }
                if let Some((code, lambda)) = self.activity_l1
                    && code == l - 1
                {
                    let lam = F::cast(lambda);
                    let add = |d: &mut F, &a: &F, s: F| {
                        if a > F::zero() {
                            *d += lam * s;
                        } else if a < F::zero() {
                            *d -= lam * s;
                        }
                    };
                    match sample_weight {
                        Some(w) => Zip::from(lo[l - 1].rows_mut())
                            .and(ws.a[l - 1].rows())
                            .and(w)
                            .for_each(|dr, ar, &s| {
                                Zip::from(dr).and(ar).for_each(|d, a| add(d, a, s));
                            }),
                        None => Zip::from(&mut lo[l - 1])
                            .and(&ws.a[l - 1])
                            .for_each(|d, a| add(d, a, F::one())),
                    }
                }
                self.layers[l - 1]
                    .activation
                    .backward(&ws.z[l - 1], &ws.a[l - 1], &mut lo[l - 1]);
            }
        }
        let penalty = F::cast(0.5) * alpha * sq / s_sum;
        let objective = (data + act) / s_sum + penalty;
        let reported = match self.loss {
            OutputLoss::SquaredError => {
                data / s_sum / F::cast(self.n_outputs()) + act / s_sum + penalty
            }
            _ => objective,
        };
        LossValue {
            objective,
            reported,
        }
    }

    /// The gradient of the objective with respect to the **inputs**, `∂J/∂X = δ_0 W_0ᵀ`
    /// (`n × n_inputs`), e.g. for adversarial examples ([`Network::fgsm`]). The penalty does
    /// not depend on `X`; the scaling is the objective's (`1/S`).
    pub fn input_gradient(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        ws: &mut Workspace<F>,
    ) -> Array2<F> {
        self.loss_gradient_impl(x, y, sample_weight, F::zero(), None, ws);
        let s_sum = sample_weight.map_or_else(|| F::cast(x.nrows()), |w| w.sum());
        let mut g = matmul(&ws.delta[0], &self.layers[0].weights.t());
        g.mapv_inplace(|v| v / s_sum);
        g
    }

    /// Adversarial examples by the fast gradient sign method (Goodfellow, Shlens & Szegedy,
    /// 2015): `X_adv = X + ε · sign(∂J/∂X)`, the `L∞` step of size `ε` that increases the loss
    /// most to first order (an entry with zero gradient is left unchanged).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `ε ≥ 0` is finite; [`Error::ShapeMismatch`] for shapes
    /// that do not fit the network.
    pub fn fgsm(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>, epsilon: f64) -> Result<Array2<F>> {
        ndlearn_core::validate::check_non_negative("epsilon", epsilon)?;
        if x.ncols() != self.n_inputs() || y.ncols() != self.n_outputs() || x.nrows() != y.nrows() {
            return Err(Error::ShapeMismatch {
                context: "fgsm",
                expected: format!("x: n × {}, y: n × {}", self.n_inputs(), self.n_outputs()),
                found: format!("x: {:?}, y: {:?}", x.dim(), y.dim()),
            });
        }
        let mut ws = Workspace::default();
        let g = self.input_gradient(x, y, None, &mut ws);
        let eps = F::cast(epsilon);
        let mut adv = x.to_owned();
        Zip::from(&mut adv).and(&g).for_each(|a, &g| {
            if g > F::zero() {
                *a += eps;
            } else if g < F::zero() {
                *a -= eps;
            }
        });
        Ok(adv)
    }

    /// The objective on a batch without the gradient (forward pass only, in prediction mode:
    /// batch-normalised layers use their running statistics).
    pub fn loss_value(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        alpha: F,
    ) -> LossValue<F> {
        let logits = self.logits(x);
        let mut a = logits.clone();
        self.layers[self.layers.len() - 1]
            .activation
            .forward_inplace(&mut a);
        let data = self.data_loss(&logits, &a, y, sample_weight);
        let act = self.activity_l1.map_or_else(F::zero, |(l, lambda)| {
            F::cast(lambda) * weighted_l1(&self.activations(x, l), sample_weight)
        });
        let s_sum = sample_weight.map_or_else(|| F::cast(x.nrows()), |w| w.sum());
        let sq = self.layers.iter().fold(F::zero(), |s, l| {
            s + l.weights.iter().fold(F::zero(), |t, &w| t + w * w)
        });
        let penalty = F::cast(0.5) * alpha * sq / s_sum;
        let objective = (data + act) / s_sum + penalty;
        let reported = match self.loss {
            OutputLoss::SquaredError => {
                data / s_sum / F::cast(self.n_outputs()) + act / s_sum + penalty
            }
            _ => objective,
        };
        LossValue {
            objective,
            reported,
        }
    }

    /// `Σᵢ sᵢ ℓᵢ` (not divided by `S`).
    fn data_loss(
        &self,
        z: &Array2<F>,
        a: &Array2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> F {
        let half = F::cast(0.5);
        let per_row: Array1<F> = match self.loss {
            OutputLoss::SquaredError => Zip::from(a.rows()).and(y.rows()).map_collect(|a, y| {
                half * a
                    .iter()
                    .zip(y)
                    .fold(F::zero(), |s, (&a, &y)| s + (a - y) * (a - y))
            }),
            OutputLoss::Huber { delta } => {
                let loss = Loss::Huber { delta };
                Zip::from(a.rows()).and(y.rows()).map_collect(|a, y| {
                    a.iter()
                        .zip(y)
                        .fold(F::zero(), |s, (&a, &y)| s + loss.value(y, a))
                })
            }
            OutputLoss::BinaryCrossEntropy => {
                Zip::from(z.rows()).and(y.rows()).map_collect(|z, y| {
                    z.iter()
                        .zip(y)
                        .fold(F::zero(), |s, (&z, &y)| s + (log1pexp(z) - y * z))
                })
            }
            OutputLoss::SoftmaxCrossEntropy => {
                let lse = log_sum_exp_rows(z);
                Zip::from(z.rows())
                    .and(y.rows())
                    .and(&lse)
                    .map_collect(|z, y, &m| {
                        m * y.sum() - z.iter().zip(y).fold(F::zero(), |s, (&z, &y)| s + y * z)
                    })
            }
        };
        match sample_weight {
            Some(w) => per_row
                .iter()
                .zip(w)
                .fold(F::zero(), |s, (&l, &w)| s + l * w),
            None => per_row.sum(),
        }
    }
}

/// `Σᵢ sᵢ ‖aᵢ‖₁`.
fn weighted_l1<F: Float>(a: &Array2<F>, sample_weight: Option<&ArrayRef1<F>>) -> F {
    match sample_weight {
        Some(w) => a.rows().into_iter().zip(w).fold(F::zero(), |s, (r, &w)| {
            s + w * r.iter().fold(F::zero(), |t, v| t + v.abs())
        }),
        None => a.iter().fold(F::zero(), |s, v| s + v.abs()),
    }
}

impl<F: Float> CheckModel for Network<F> {
    /// At least one layer; every layer's weights `fan_in × fan_out` (both `≥ 1`) chained to the
    /// previous layer, its bias and batch-normalisation vectors `fan_out` long, all finite; valid
    /// activations, a loss matching the output activation, an activity penalty on a layer.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("Network");
        let Some(last) = self.layers.last() else {
            return Err(c.error("no layers"));
        };
        let bad = |e: Error| c.error(e.to_string());
        self.loss.validate(last.activation).map_err(bad)?;
        for (l, layer) in self.layers.iter().enumerate() {
            layer.activation.validate().map_err(bad)?;
            let (fi, fo) = layer.weights.dim();
            let chained = l == 0 || self.layers[l - 1].fan_out() == fi;
            c.that(fi >= 1 && fo >= 1 && chained, || {
                format!("layer {l}: weights {fi} × {fo} do not chain to the previous layer")
            })?;
            c.len("bias", layer.bias.len(), fo)?;
            c.finite("weights", &layer.weights)?;
            c.finite("bias", &layer.bias)?;
            if let Some(bn) = &layer.batch_norm {
                for (field, a) in [
                    ("gamma", &bn.gamma),
                    ("beta", &bn.beta),
                    ("running_mean", &bn.running_mean),
                    ("running_var", &bn.running_var),
                ] {
                    c.len(field, a.len(), fo)?;
                    c.finite(field, a)?;
                }
                c.non_negative("running_var", &bn.running_var)?;
                c.positive("eps", bn.eps)?;
                c.that((0.0..=1.0).contains(&bn.momentum), || {
                    format!("layer {l}: batch-norm momentum must lie in [0, 1]")
                })?;
            }
        }
        if let Some((l, lambda)) = self.activity_l1 {
            c.that(
                l < self.layers.len() && lambda.is_finite() && lambda >= 0.0,
                || "`activity_l1` needs a layer index and a finite λ ≥ 0".into(),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_network_and_rejects_broken_chains() {
        let mut net = Network::<f64>::new(
            &[3, 4, 2],
            Activation::Tanh,
            Activation::Identity,
            OutputLoss::SquaredError,
            WeightInit::LecunNormal,
            BiasInit::Auto,
            1,
        )
        .expect("valid")
        .with_batch_norm();
        assert!(net.check_model().is_ok());
        net.layers[1].weights = Array2::zeros((3, 2));
        assert!(matches!(net.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn pack_unpack_round_trip_and_param_count() {
        let net = Network::<f64>::new(
            &[3, 10, 1],
            Activation::Tanh,
            Activation::Identity,
            OutputLoss::SquaredError,
            WeightInit::LecunNormal,
            BiasInit::Auto,
            1,
        )
        .expect("valid");
        // (3 + 1)·10 + (10 + 1)·1 = 51 (the course notes' 50 plus the output bias).
        assert_eq!(net.n_params(), 51);
        let theta = net.pack();
        let mut other = net.clone();
        other.unpack(&theta.mapv(|v| v + 1.0)).expect("length");
        other.unpack(&theta).expect("length");
        assert_eq!(other, net);
        assert!(other.unpack(&array![1.0]).is_err());
    }

    #[test]
    fn mismatched_loss_and_shapes_are_errors() {
        let e = Network::<f64>::new(
            &[2, 3, 2],
            Activation::Relu,
            Activation::Identity,
            OutputLoss::SoftmaxCrossEntropy,
            WeightInit::GlorotUniform,
            BiasInit::GlorotUniform,
            0,
        );
        assert!(matches!(e, Err(Error::InvalidParam { .. })));
        assert!(
            Network::<f64>::new(
                &[2, 0, 1],
                Activation::Relu,
                Activation::Identity,
                OutputLoss::SquaredError,
                WeightInit::GlorotUniform,
                BiasInit::GlorotUniform,
                0
            )
            .is_err()
        );
        let bad = Network::from_weights(
            vec![Array2::<f64>::zeros((2, 3)), Array2::zeros((4, 1))],
            vec![Array1::zeros(3), Array1::zeros(1)],
            Activation::Relu,
            Activation::Identity,
            OutputLoss::SquaredError,
        );
        assert!(matches!(bad, Err(Error::ShapeMismatch { .. })));
    }

    #[test]
    fn cross_entropy_from_logits_stays_finite_when_saturated() {
        let net = Network::from_weights(
            vec![array![[1000.0_f64, -1000.0]]],
            vec![array![0.0, 0.0]],
            Activation::Identity,
            Activation::Softmax,
            OutputLoss::SoftmaxCrossEntropy,
        )
        .expect("valid");
        let v = net.loss_value(&array![[1.0]], &array![[0.0, 1.0]], None, 0.0);
        assert!((v.objective - 2000.0).abs() < 1e-9, "{v:?}");
    }
}
