//! Pointwise loss functions of a raw score, with value, gradient and hessian: the one place the
//! workspace's linear models, SVMs, gradient boosting and neural networks take them from.
//!
//! A loss `ℓ(y, f)` compares a target `y` with a *raw score* `f` (a linear score, a sum of trees,
//! a network output before its output activation). [`Loss`] holds the single-output losses,
//! [`MultinomialLoss`] the softmax cross-entropy over `K` scores. Every formula and every
//! branch follows scikit-learn (`sklearn._loss` for the smooth losses, the SGD losses of
//! `sklearn.linear_model` for the margin and ε-insensitive ones), operation by operation, so
//! values agree with scikit-learn's to the last bit in `f64` (checked against golden files).
//!
//! | variant | `ℓ(y, f)` | `∂ℓ/∂f` | hessian used | `y` | link `h(f)` |
//! |---|---|---|---|---|---|
//! | [`Loss::SquaredError`] | `½(f − y)²` | `f − y` | 1 | real | identity |
//! | [`Loss::AbsoluteError`] | `\|f − y\|` | `sign(f − y)` (`−1` at 0) | 1 (a stand-in, as scikit-learn) | real | identity |
//! | [`Loss::Huber`] `{ delta }` | `½r²` if `\|r\| ≤ δ`, else `δ(\|r\| − δ/2)`, `r = y − f` | `f − y`, clipped to `±δ` | 1 inside, 0 outside | real | identity |
//! | [`Loss::Pinball`] `{ quantile: τ }` | `τ(y − f)` if `y ≥ f`, else `(1 − τ)(f − y)` | `−τ` or `1 − τ` | 1 (stand-in) | real | identity |
//! | [`Loss::EpsilonInsensitive`] `{ epsilon }` | `max(0, \|y − f\| − ε)` | `±1` outside the tube, 0 inside | 0 | real | identity |
//! | [`Loss::SquaredEpsilonInsensitive`] `{ epsilon }` | `max(0, \|y − f\| − ε)²` | `±2(\|y − f\| − ε)` outside | 2 outside, 0 inside | real | identity |
//! | [`Loss::Hinge`] `{ threshold: θ }` | `max(0, θ − yf)` | `−y` if `yf ≤ θ` | 0 | `±1` | — |
//! | [`Loss::SquaredHinge`] `{ threshold: θ }` | `max(0, θ − yf)²` | `−2y(θ − yf)` if positive | 2 where active | `±1` | — |
//! | [`Loss::ModifiedHuber`] | `max(0, 1 − yf)²` for `yf ≥ −1`, `−4yf` below | `−2y(1 − yf)`, `−4y` | 2 on `[−1, 1)`, else 0 | `±1` | — |
//! | [`Loss::LogLoss`] | `log(1 + eᶠ) − yf` (half binomial deviance) | `σ(f) − y` | `σ(f)(1 − σ(f))` | `[0, 1]` | `σ(f)` |
//! | [`Loss::Exponential`] | `y e⁻ᶠ + (1 − y) eᶠ` (AdaBoost) | `−y e⁻ᶠ + (1 − y) eᶠ` | the loss | `[0, 1]` | `σ(2f)` |
//! | [`Loss::Poisson`] | `eᶠ − yf` (half deviance, constants dropped) | `eᶠ − y` | `eᶠ` | `≥ 0` | `eᶠ` |
//! | [`Loss::Gamma`] | `f + y e⁻ᶠ` (half deviance, constants dropped) | `1 − y e⁻ᶠ` | `y e⁻ᶠ` | `> 0` | `eᶠ` |
//! | [`MultinomialLoss`] | `log Σₖ e^{fₖ} − f_y` | `pₖ − [y = k]` | `pₖ(1 − pₖ)` (diagonal) | class `0..K` | softmax |
//!
//! Conventions: the margin losses (hinge, squared hinge, modified Huber) take `y ∈ {−1, +1}`
//! (the SVM convention); the probabilistic ones (log-loss, exponential) take `y ∈ {0, 1}` (or a
//! probability), as scikit-learn's `_loss` module. `Hinge { threshold: 0 }` is the perceptron
//! loss. Non-smooth losses report the derivative of the branch the point falls in (`sign(0) =
//! −1` for the absolute error, as scikit-learn); where the true second derivative is 0 almost
//! everywhere (absolute, pinball) the hessian is 1, as gradient boosting needs a positive one.
//! The scaling of every loss is the one in the table (the ½ of the squared error and of the
//! deviances is part of the definition): a mean over samples is [`Loss::mean`].
//!
//! Row forms ([`Loss::values`], [`Loss::gradients`], [`Loss::gradients_hessians`] and their
//! `*_into` slice versions) multiply by the sample weight when one is given and run in fixed
//! chunks in parallel for long inputs (element-wise, so the thread count never changes a bit).
//! [`Loss::intercept_only`] is scikit-learn's `fit_intercept_only`: the raw score of the best
//! constant model (gradient boosting's starting point).
//!
//! ```
//! use ndlearn_core::loss::Loss;
//!
//! let huber = Loss::Huber { delta: 1.0 };
//! assert_eq!(huber.value(3.0_f64, 0.5), 2.0);          // |r| = 2.5 > 1: 1·(2.5 − 0.5)
//! assert_eq!(huber.gradient(3.0_f64, 0.5), -1.0);
//! let (g, h) = Loss::LogLoss.gradient_hessian(1.0_f64, 0.0);
//! assert_eq!((g, h), (-0.5, 0.25));
//! assert_eq!(Loss::Hinge { threshold: 1.0 }.value(-1.0_f64, 0.25), 1.25);
//! ```
//!
//! # References
//!
//! - J. H. Friedman, "Greedy function approximation: a gradient boosting machine", Annals of
//!   Statistics 29(5), 2001 (the regression losses and their gradients).
//! - T. Zhang, "Solving large scale linear prediction problems using stochastic gradient descent
//!   algorithms", ICML 2004 (the modified Huber loss).
//! - scikit-learn's `sklearn/_loss/loss.py` and `sklearn/linear_model/_sgd_fast.pyx.tp`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use rayon::prelude::*;

use crate::numeric::{log1pexp, logit, sigmoid, softmax_rows};
use crate::stats::order::{QuantileMethod, weighted_percentiles_slices};
use crate::stats::order::{median_sorted, quantile_sorted, sort_ascending};
use crate::{Error, Float, Result, par};

/// Elements per parallel chunk of the row forms (fixed, so results do not depend on threads).
const CHUNK: usize = 8192;

/// A single-output loss of a raw score (see the [module docs](self) for the formulas).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Loss {
    /// `½(f − y)²`.
    SquaredError,
    /// `|f − y|`.
    AbsoluteError,
    /// Huber's loss with threshold `delta > 0`.
    Huber {
        /// The threshold `δ > 0` between the quadratic and the linear part.
        delta: f64,
    },
    /// The pinball (quantile) loss for the quantile `τ ∈ (0, 1)`.
    Pinball {
        /// The quantile `τ ∈ (0, 1)` (0.5: half the absolute error).
        quantile: f64,
    },
    /// `max(0, |y − f| − ε)` (support vector regression).
    EpsilonInsensitive {
        /// The half-width `ε ≥ 0` of the insensitive tube.
        epsilon: f64,
    },
    /// `max(0, |y − f| − ε)²`.
    SquaredEpsilonInsensitive {
        /// The half-width `ε ≥ 0` of the insensitive tube.
        epsilon: f64,
    },
    /// `max(0, θ − yf)`, `y ∈ {−1, +1}` (`θ = 1`: the SVM hinge; `θ = 0`: the perceptron).
    Hinge {
        /// The margin `θ ≥ 0`.
        threshold: f64,
    },
    /// `max(0, θ − yf)²`, `y ∈ {−1, +1}` (the L2-SVM loss for `θ = 1`).
    SquaredHinge {
        /// The margin `θ ≥ 0`.
        threshold: f64,
    },
    /// Zhang's modified Huber loss, `y ∈ {−1, +1}`.
    ModifiedHuber,
    /// The binomial log-loss (half deviance) `log(1 + eᶠ) − yf`, `y ∈ [0, 1]`.
    LogLoss,
    /// The exponential (AdaBoost) loss `y e⁻ᶠ + (1 − y) eᶠ`, `y ∈ [0, 1]`.
    Exponential,
    /// Half the Poisson deviance with log link, constants dropped: `eᶠ − yf`, `y ≥ 0`.
    Poisson,
    /// Half the gamma deviance with log link, constants dropped: `f + y e⁻ᶠ`, `y > 0`.
    Gamma,
}

/// The targets a loss accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TargetDomain {
    /// Any finite real number.
    Real,
    /// `y ≥ 0` (Poisson; at least one `y > 0` to fit an intercept).
    NonNegative,
    /// `y > 0` (gamma).
    Positive,
    /// `y ∈ [0, 1]` (log-loss, exponential; class labels 0/1 or probabilities).
    UnitInterval,
    /// `y ∈ {−1, +1}` (margin losses).
    PlusMinusOne,
}

/// The inverse link `h` mapping a raw score to a prediction (`h(f)` = mean, probability, ...).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Link {
    /// `h(f) = f`.
    Identity,
    /// `h(f) = eᶠ` (Poisson, gamma).
    Log,
    /// `h(f) = σ(f)` (log-loss).
    Logit,
    /// `h(f) = σ(2f)` (exponential loss: `f` is half the log-odds).
    HalfLogit,
}

impl Link {
    /// `h(f)`: the prediction of a raw score.
    #[inline]
    pub fn inverse<F: Float>(self, raw: F) -> F {
        match self {
            Link::Identity => raw,
            Link::Log => raw.exp(),
            Link::Logit => sigmoid(raw),
            Link::HalfLogit => sigmoid(raw + raw),
        }
    }

    /// `g(μ) = h⁻¹(μ)`: the raw score of a prediction.
    #[inline]
    pub fn link<F: Float>(self, mu: F) -> F {
        match self {
            Link::Identity => mu,
            Link::Log => mu.ln(),
            Link::Logit => logit(mu),
            Link::HalfLogit => F::cast(0.5) * logit(mu),
        }
    }
}

impl Loss {
    /// Checks the parameters: `delta > 0`, `quantile ∈ (0, 1)`, `epsilon ≥ 0`, `threshold ≥ 0`,
    /// all finite.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the parameter.
    pub fn validate(&self) -> Result<()> {
        use crate::validate::{check_non_negative, check_positive};
        match *self {
            Loss::Huber { delta } => check_positive("delta", delta),
            Loss::Pinball { quantile } => {
                if quantile > 0.0 && quantile < 1.0 {
                    Ok(())
                } else {
                    Err(Error::invalid_param(
                        "quantile",
                        format!("must be in (0, 1); got {quantile}"),
                    ))
                }
            }
            Loss::EpsilonInsensitive { epsilon } | Loss::SquaredEpsilonInsensitive { epsilon } => {
                check_non_negative("epsilon", epsilon)
            }
            Loss::Hinge { threshold } | Loss::SquaredHinge { threshold } => {
                check_non_negative("threshold", threshold)
            }
            _ => Ok(()),
        }
    }

    /// The targets this loss accepts.
    pub fn target_domain(&self) -> TargetDomain {
        match self {
            Loss::Hinge { .. } | Loss::SquaredHinge { .. } | Loss::ModifiedHuber => {
                TargetDomain::PlusMinusOne
            }
            Loss::LogLoss | Loss::Exponential => TargetDomain::UnitInterval,
            Loss::Poisson => TargetDomain::NonNegative,
            Loss::Gamma => TargetDomain::Positive,
            _ => TargetDomain::Real,
        }
    }

    /// The link between raw scores and predictions (`Identity` for the margin losses, whose
    /// raw score is the prediction's sign).
    pub fn link(&self) -> Link {
        match self {
            Loss::LogLoss => Link::Logit,
            Loss::Exponential => Link::HalfLogit,
            Loss::Poisson | Loss::Gamma => Link::Log,
            _ => Link::Identity,
        }
    }

    /// `true` for the losses of a two-class problem (margin and probabilistic losses).
    pub fn is_classification(&self) -> bool {
        matches!(
            self.target_domain(),
            TargetDomain::PlusMinusOne | TargetDomain::UnitInterval
        )
    }

    /// Checks that every target is in [`Loss::target_domain`].
    ///
    /// # Errors
    /// [`Error::NonFinite`] for NaN/∞, [`Error::InvalidParam`] naming the first bad entry.
    pub fn check_target<F: Float>(&self, y: &ArrayRef1<F>) -> Result<()> {
        crate::validate::check_finite_1d(y, "y")?;
        let (ok, what): (fn(F) -> bool, &str) = match self.target_domain() {
            TargetDomain::Real => return Ok(()),
            TargetDomain::NonNegative => (|v| v >= F::zero(), ">= 0"),
            TargetDomain::Positive => (|v| v > F::zero(), "> 0"),
            TargetDomain::UnitInterval => (|v| v >= F::zero() && v <= F::one(), "in [0, 1]"),
            TargetDomain::PlusMinusOne => (|v| v == F::one() || v == -F::one(), "-1 or +1"),
        };
        match y.iter().position(|&v| !ok(v)) {
            None => Ok(()),
            Some(i) => Err(Error::invalid_param(
                "y",
                format!("{self:?} needs targets {what}; entry {i} is {}", y[i]),
            )),
        }
    }

    /// `ℓ(y, f)`.
    #[inline]
    pub fn value<F: Float>(&self, y: F, raw: F) -> F {
        let (one, half) = (F::one(), F::cast(0.5));
        match *self {
            Loss::SquaredError => half * (raw - y) * (raw - y),
            Loss::AbsoluteError => (raw - y).abs(),
            Loss::Huber { delta } => {
                let d = F::cast(delta);
                let a = (y - raw).abs();
                if a <= d {
                    half * (a * a)
                } else {
                    d * (a - half * d)
                }
            }
            Loss::Pinball { quantile } => {
                let q = F::cast(quantile);
                if y >= raw {
                    q * (y - raw)
                } else {
                    (one - q) * (raw - y)
                }
            }
            Loss::EpsilonInsensitive { epsilon } => {
                let r = (y - raw).abs() - F::cast(epsilon);
                if r > F::zero() { r } else { F::zero() }
            }
            Loss::SquaredEpsilonInsensitive { epsilon } => {
                let r = (y - raw).abs() - F::cast(epsilon);
                if r > F::zero() { r * r } else { F::zero() }
            }
            Loss::Hinge { threshold } => {
                let (t, z) = (F::cast(threshold), raw * y);
                if z <= t { t - z } else { F::zero() }
            }
            Loss::SquaredHinge { threshold } => {
                let z = F::cast(threshold) - raw * y;
                if z > F::zero() { z * z } else { F::zero() }
            }
            Loss::ModifiedHuber => {
                let z = raw * y;
                if z >= one {
                    F::zero()
                } else if z >= -one {
                    (one - z) * (one - z)
                } else {
                    -F::cast(4.0) * z
                }
            }
            Loss::LogLoss => log1pexp(raw) - y * raw,
            Loss::Exponential => {
                let t = raw.exp();
                y / t + (one - y) * t
            }
            Loss::Poisson => raw.exp() - y * raw,
            Loss::Gamma => raw + y * (-raw).exp(),
        }
    }

    /// `∂ℓ/∂f (y, f)`.
    #[inline]
    pub fn gradient<F: Float>(&self, y: F, raw: F) -> F {
        let one = F::one();
        match *self {
            Loss::SquaredError => raw - y,
            Loss::AbsoluteError => {
                if raw > y {
                    one
                } else {
                    -one
                }
            }
            Loss::Huber { delta } => {
                let (d, r) = (F::cast(delta), raw - y);
                if r.abs() <= d {
                    r
                } else if r >= F::zero() {
                    d
                } else {
                    -d
                }
            }
            Loss::Pinball { quantile } => {
                let q = F::cast(quantile);
                if y >= raw { -q } else { one - q }
            }
            Loss::EpsilonInsensitive { epsilon } => {
                let e = F::cast(epsilon);
                if y - raw > e {
                    -one
                } else if raw - y > e {
                    one
                } else {
                    F::zero()
                }
            }
            Loss::SquaredEpsilonInsensitive { epsilon } => {
                let (e, z, two) = (F::cast(epsilon), y - raw, F::cast(2.0));
                if z > e {
                    -two * (z - e)
                } else if z < -e {
                    two * (-z - e)
                } else {
                    F::zero()
                }
            }
            Loss::Hinge { threshold } => {
                if raw * y <= F::cast(threshold) {
                    -y
                } else {
                    F::zero()
                }
            }
            Loss::SquaredHinge { threshold } => {
                let z = F::cast(threshold) - raw * y;
                if z > F::zero() {
                    -F::cast(2.0) * y * z
                } else {
                    F::zero()
                }
            }
            Loss::ModifiedHuber => {
                let z = raw * y;
                if z >= one {
                    F::zero()
                } else if z >= -one {
                    F::cast(2.0) * (one - z) * -y
                } else {
                    -F::cast(4.0) * y
                }
            }
            Loss::LogLoss => {
                if raw > F::cast(-37.0) {
                    let e = (-raw).exp();
                    ((one - y) - y * e) / (one + e)
                } else {
                    raw.exp() - y
                }
            }
            Loss::Exponential => {
                let t = raw.exp();
                -y / t + (one - y) * t
            }
            Loss::Poisson => raw.exp() - y,
            Loss::Gamma => one - y * (-raw).exp(),
        }
    }

    /// The hessian `∂²ℓ/∂f²` as the table of the module docs defines it.
    #[inline]
    pub fn hessian<F: Float>(&self, y: F, raw: F) -> F {
        self.gradient_hessian(y, raw).1
    }

    /// `(ℓ, ∂ℓ/∂f)` in one evaluation.
    #[inline]
    pub fn value_gradient<F: Float>(&self, y: F, raw: F) -> (F, F) {
        let one = F::one();
        match *self {
            Loss::LogLoss => {
                // scikit-learn's closs_grad_half_binomial: the same cut-offs as log1pexp.
                if raw <= F::cast(-37.0) {
                    let e = raw.exp();
                    (e - y * raw, e - y)
                } else if raw <= F::cast(-2.0) {
                    let e = raw.exp();
                    (e.ln_1p() - y * raw, ((one - y) * e - y) / (one + e))
                } else if raw <= F::cast(18.0) {
                    let e = (-raw).exp();
                    (e.ln_1p() + (one - y) * raw, ((one - y) - y * e) / (one + e))
                } else {
                    let e = (-raw).exp();
                    (e + (one - y) * raw, ((one - y) - y * e) / (one + e))
                }
            }
            _ => (self.value(y, raw), self.gradient(y, raw)),
        }
    }

    /// `(∂ℓ/∂f, ∂²ℓ/∂f²)` in one evaluation.
    #[inline]
    pub fn gradient_hessian<F: Float>(&self, y: F, raw: F) -> (F, F) {
        let (zero, one, two) = (F::zero(), F::one(), F::cast(2.0));
        match *self {
            Loss::SquaredError | Loss::AbsoluteError | Loss::Pinball { .. } => {
                (self.gradient(y, raw), one)
            }
            Loss::Huber { delta } => {
                let (d, r) = (F::cast(delta), raw - y);
                if r.abs() <= d {
                    (r, one)
                } else {
                    (if r >= zero { d } else { -d }, zero)
                }
            }
            Loss::EpsilonInsensitive { .. } | Loss::Hinge { .. } => (self.gradient(y, raw), zero),
            Loss::SquaredEpsilonInsensitive { epsilon } => {
                let g = self.gradient(y, raw);
                let outside = (y - raw).abs() > F::cast(epsilon);
                (g, if outside { two } else { zero })
            }
            Loss::SquaredHinge { threshold } => {
                let active = F::cast(threshold) - raw * y > zero;
                (
                    self.gradient(y, raw),
                    if active { two * y * y } else { zero },
                )
            }
            Loss::ModifiedHuber => {
                let z = raw * y;
                let h = if z < one && z >= -one {
                    two * y * y
                } else {
                    zero
                };
                (self.gradient(y, raw), h)
            }
            Loss::LogLoss => {
                if raw > F::cast(-37.0) {
                    let e = (-raw).exp();
                    (((one - y) - y * e) / (one + e), e / ((one + e) * (one + e)))
                } else {
                    let e = raw.exp();
                    (e - y, e)
                }
            }
            Loss::Exponential => {
                let t = raw.exp();
                (-y / t + (one - y) * t, y / t + (one - y) * t)
            }
            Loss::Poisson => {
                let e = raw.exp();
                (e - y, e)
            }
            Loss::Gamma => {
                let e = (-raw).exp();
                (one - y * e, e * y)
            }
        }
    }

    /// The prediction `h(f)` of a raw score (identity, `eᶠ`, `σ(f)`, `σ(2f)`).
    #[inline]
    pub fn inverse_link<F: Float>(&self, raw: F) -> F {
        self.link().inverse(raw)
    }

    /// Pointwise losses `wᵢ ℓ(yᵢ, fᵢ)` (`wᵢ = 1` without weights).
    ///
    /// # Panics
    /// If the lengths of `y`, `raw` and `sample_weight` differ (a programming error of the
    /// caller, which validated the data).
    pub fn values<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        raw: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Array1<F> {
        self.pointwise(y, raw, sample_weight, Self::values_into)
    }

    /// [`Loss::values`] into a slice.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn values_into<F: Float>(&self, y: &[F], raw: &[F], w: Option<&[F]>, out: &mut [F]) {
        self.pointwise_into(y, raw, w, out, |loss, yi, fi| loss.value(yi, fi));
    }

    /// Pointwise gradients `wᵢ ∂ℓ/∂f (yᵢ, fᵢ)`.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn gradients<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        raw: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Array1<F> {
        self.pointwise(y, raw, sample_weight, Self::gradients_into)
    }

    /// [`Loss::gradients`] into a slice.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn gradients_into<F: Float>(&self, y: &[F], raw: &[F], w: Option<&[F]>, out: &mut [F]) {
        self.pointwise_into(y, raw, w, out, |loss, yi, fi| loss.gradient(yi, fi));
    }

    /// Runs a slice form `into` on contiguous copies (or views) of the arrays.
    fn pointwise<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        raw: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        into: SliceForm<F>,
    ) -> Array1<F> {
        let (y, raw, w) = (
            contiguous(y),
            contiguous(raw),
            sample_weight.map(contiguous),
        );
        let mut out = vec![F::zero(); y.len()];
        into(self, &y, &raw, w.as_deref(), &mut out);
        Array1::from(out)
    }

    /// `out[i] = wᵢ · f(loss, yᵢ, rawᵢ)` over fixed chunks.
    fn pointwise_into<F: Float>(
        &self,
        y: &[F],
        raw: &[F],
        w: Option<&[F]>,
        out: &mut [F],
        f: impl Fn(Loss, F, F) -> F + Sync,
    ) {
        assert_lengths(y.len(), raw.len(), w.map(<[F]>::len), out.len());
        let loss = *self;
        zip_chunks(out, None, |start, o, _| {
            for (k, v) in o.iter_mut().enumerate() {
                let i = start + k;
                *v = f(loss, y[i], raw[i]) * w.map_or(F::one(), |w| w[i]);
            }
        });
    }

    /// Pointwise `(wᵢ gᵢ, wᵢ hᵢ)`: gradients and hessians.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn gradients_hessians<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        raw: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> (Array1<F>, Array1<F>) {
        let (y, raw, w) = (
            contiguous(y),
            contiguous(raw),
            sample_weight.map(contiguous),
        );
        let mut g = vec![F::zero(); y.len()];
        let mut h = vec![F::zero(); y.len()];
        self.gradients_hessians_into(&y, &raw, w.as_deref(), &mut g, &mut h);
        (Array1::from(g), Array1::from(h))
    }

    /// [`Loss::gradients_hessians`] into slices.
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn gradients_hessians_into<F: Float>(
        &self,
        y: &[F],
        raw: &[F],
        w: Option<&[F]>,
        g: &mut [F],
        h: &mut [F],
    ) {
        assert_lengths(y.len(), raw.len(), w.map(<[F]>::len), g.len());
        assert_eq!(
            g.len(),
            h.len(),
            "gradient and hessian buffers differ in length"
        );
        let loss = *self;
        zip_chunks(g, Some(h), |start, g, h| {
            let h = h.unwrap_or_default();
            for k in 0..g.len() {
                let i = start + k;
                let (gi, hi) = loss.gradient_hessian(y[i], raw[i]);
                let wi = w.map_or(F::one(), |w| w[i]);
                g[k] = gi * wi;
                h[k] = hi * wi;
            }
        });
    }

    /// The (weighted) mean loss `Σ wᵢ ℓᵢ / Σ wᵢ` (scikit-learn's `loss(y, raw, sample_weight)`),
    /// summed in fixed chunks (the same value for any thread count).
    ///
    /// # Panics
    /// If the lengths differ.
    pub fn mean<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        raw: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> F {
        let l = self.values(y, raw, sample_weight);
        let num = chunked_sum(l.as_slice().unwrap_or(&[]));
        let den = match sample_weight {
            Some(w) => chunked_sum(&contiguous(w)),
            None => F::cast(y.len()),
        };
        num / den
    }

    /// The raw score of the best constant model, scikit-learn's `fit_intercept_only`:
    /// the (weighted) mean for the squared error, the median for the absolute error (`np.median`
    /// without weights, [`weighted_median`](crate::stats::weighted_median) with), the `τ`
    /// percentile for the pinball loss, the median plus the mean clipped residual for Huber
    /// (Friedman's step), and `g(ȳ)` through the link for log-loss, exponential, Poisson and
    /// gamma (the mean clipped to `(10ε, 1 − 10ε)` or `≥ 10ε` first).
    ///
    /// # Errors
    /// Empty or non-finite data, bad weights, targets outside the loss's domain, and the margin
    /// and ε-insensitive losses, whose constant optimum is not unique
    /// ([`Error::InvalidParam`]).
    pub fn intercept_only<F: Float>(
        &self,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<F> {
        crate::validate::check_min_samples(y.len(), 1, "Loss::intercept_only")?;
        self.check_target(y)?;
        if let Some(w) = sample_weight {
            crate::validate::check_sample_weight(w, y.len())?;
        }
        let ys = contiguous(y);
        let ws = sample_weight.map(contiguous);
        let average = |v: &[F]| -> F {
            match &ws {
                None => chunked_sum(v) / F::cast(v.len()),
                Some(w) => {
                    let p: Vec<F> = v.iter().zip(w.iter()).map(|(&a, &b)| a * b).collect();
                    chunked_sum(&p) / chunked_sum(w)
                }
            }
        };
        let percentile = |rank: f64| -> Result<F> {
            match &ws {
                None => {
                    let mut s = ys.to_vec();
                    sort_ascending(&mut s);
                    Ok(if rank == 50.0 {
                        median_sorted(&s)
                    } else {
                        quantile_sorted(&s, rank / 100.0, QuantileMethod::Linear)
                    })
                }
                Some(w) => Ok(weighted_percentiles_slices(&ys, w, &[rank], false)?[0]),
            }
        };
        let eps = F::cast(10.0) * F::epsilon();
        Ok(match *self {
            Loss::SquaredError => average(&ys),
            Loss::AbsoluteError => percentile(50.0)?,
            Loss::Pinball { quantile } => percentile(100.0 * quantile)?,
            Loss::Huber { delta } => {
                let m = percentile(50.0)?;
                let d = F::cast(delta);
                let term: Vec<F> = ys
                    .iter()
                    .map(|&v| {
                        let diff = v - m;
                        diff.signum_or_zero() * diff.abs().min(d)
                    })
                    .collect();
                m + average(&term)
            }
            Loss::LogLoss | Loss::Exponential => {
                let p = average(&ys).max(eps).min(F::one() - eps);
                self.link().link(p)
            }
            Loss::Poisson | Loss::Gamma => average(&ys).max(eps).ln(),
            _ => {
                return Err(Error::invalid_param(
                    "loss",
                    format!("{self:?} has no unique constant optimum (no intercept-only fit)"),
                ));
            }
        })
    }
}

/// The half multinomial deviance (softmax cross-entropy) over `K` raw scores per row:
/// `ℓ(y, f) = log Σₖ exp(fₖ) − f_y`, scikit-learn's `HalfMultinomialLoss`. Labels are class
/// indices `0..K`; the gradient row is `softmax(f) − e_y`, the hessian row its diagonal
/// `pₖ(1 − pₖ)`.
///
/// ```
/// use ndlearn_core::loss::MultinomialLoss;
///
/// let f = [0.0_f64, 0.0];
/// assert!((MultinomialLoss::value_row(1, &f) - 2f64.ln()).abs() < 1e-15);
/// let mut g = [0.0; 2];
/// MultinomialLoss::gradient_row(1, &f, &mut g);
/// assert_eq!(g, [0.5, -0.5]);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MultinomialLoss;

impl MultinomialLoss {
    /// `(max fₖ, Σₖ exp(fₖ − max))` and the unnormalised `exp(fₖ − max)` into `p`.
    #[inline]
    fn max_sum_exp<F: Float>(raw: &[F], p: &mut [F]) -> (F, F) {
        let mut m = raw.first().copied().unwrap_or(F::zero());
        for &v in &raw[1.min(raw.len())..] {
            if m < v {
                m = v;
            }
        }
        let mut s = F::zero();
        for (pk, &v) in p.iter_mut().zip(raw) {
            *pk = (v - m).exp();
            s += *pk;
        }
        (m, s)
    }

    /// `ℓ(y, f)` of one row.
    ///
    /// # Panics
    /// If `y ≥ raw.len()`.
    pub fn value_row<F: Float>(y: usize, raw: &[F]) -> F {
        let mut p = vec![F::zero(); raw.len()];
        let (m, s) = Self::max_sum_exp(raw, &mut p);
        s.ln() + m - raw[y]
    }

    /// The gradient row `pₖ − [y = k]` into `g`.
    ///
    /// # Panics
    /// If `y ≥ raw.len()` or `g` has another length.
    pub fn gradient_row<F: Float>(y: usize, raw: &[F], g: &mut [F]) {
        assert_eq!(raw.len(), g.len(), "one gradient entry per class");
        let (_, s) = Self::max_sum_exp(raw, g);
        for (k, gk) in g.iter_mut().enumerate() {
            *gk /= s;
            if k == y {
                *gk -= F::one();
            }
        }
    }

    /// The gradient and the diagonal hessian `pₖ(1 − pₖ)` of one row.
    ///
    /// # Panics
    /// If `y ≥ raw.len()` or the buffers have another length.
    pub fn gradient_hessian_row<F: Float>(y: usize, raw: &[F], g: &mut [F], h: &mut [F]) {
        assert!(
            raw.len() == g.len() && g.len() == h.len(),
            "one entry per class"
        );
        let (_, s) = Self::max_sum_exp(raw, g);
        for (k, (gk, hk)) in g.iter_mut().zip(h.iter_mut()).enumerate() {
            let p = *gk / s;
            *hk = p * (F::one() - p);
            *gk = if k == y { p - F::one() } else { p };
        }
    }

    fn check<F: Float>(y: &ArrayRef1<usize>, raw: &ArrayRef2<F>, w: Option<&ArrayRef1<F>>) {
        assert_eq!(y.len(), raw.nrows(), "one label per row of raw scores");
        if let Some(w) = w {
            assert_eq!(w.len(), y.len(), "one weight per row");
        }
        assert!(
            y.iter().all(|&c| c < raw.ncols()),
            "labels must be below the number of score columns"
        );
    }

    /// Row losses `wᵢ ℓ(yᵢ, fᵢ)`.
    ///
    /// # Panics
    /// If the shapes disagree or a label is `≥ K` (the caller validated them).
    pub fn values<F: Float>(
        y: &ArrayRef1<usize>,
        raw: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Array1<F> {
        Self::check(y, raw, sample_weight);
        let raw = raw.as_standard_layout();
        let k = raw.ncols();
        let flat = raw.as_slice().unwrap_or(&[]);
        let parts = par::map_chunks(y.len(), CHUNK / k.max(1), |r| {
            let mut p = vec![F::zero(); k];
            r.map(|i| {
                let row = &flat[i * k..(i + 1) * k];
                let (m, s) = Self::max_sum_exp(row, &mut p);
                let v = s.ln() + m - row[y[i]];
                v * sample_weight.map_or(F::one(), |w| w[i])
            })
            .collect::<Vec<F>>()
        });
        Array1::from(parts.concat())
    }

    /// Gradient rows `wᵢ (softmax(fᵢ) − e_{yᵢ})` (`n × K`).
    ///
    /// # Panics
    /// As [`MultinomialLoss::values`].
    pub fn gradients<F: Float>(
        y: &ArrayRef1<usize>,
        raw: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Array2<F> {
        Self::gradients_hessians_impl(y, raw, sample_weight, false).0
    }

    /// Gradient and diagonal-hessian rows (`n × K` each), times the sample weights.
    ///
    /// # Panics
    /// As [`MultinomialLoss::values`].
    pub fn gradients_hessians<F: Float>(
        y: &ArrayRef1<usize>,
        raw: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> (Array2<F>, Array2<F>) {
        Self::gradients_hessians_impl(y, raw, sample_weight, true)
    }

    fn gradients_hessians_impl<F: Float>(
        y: &ArrayRef1<usize>,
        raw: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        with_hessian: bool,
    ) -> (Array2<F>, Array2<F>) {
        Self::check(y, raw, sample_weight);
        let (n, k) = raw.dim();
        let mut g = raw.as_standard_layout().into_owned();
        let mut h = if with_hessian {
            Array2::zeros((n, k))
        } else {
            Array2::zeros((0, k))
        };
        let rows = (CHUNK / k.max(1)).max(1);
        let fill = |start: usize, gb: &mut [F], hb: Option<&mut [F]>| {
            let mut hb = hb;
            for (r, grow) in gb.chunks_mut(k).enumerate() {
                let i = start + r;
                let raw_row: Vec<F> = grow.to_vec();
                let wi = sample_weight.map_or(F::one(), |w| w[i]);
                match hb.as_deref_mut() {
                    Some(hb) => {
                        let hrow = &mut hb[r * k..(r + 1) * k];
                        Self::gradient_hessian_row(y[i], &raw_row, grow, hrow);
                        hrow.iter_mut().for_each(|v| *v *= wi);
                    }
                    None => Self::gradient_row(y[i], &raw_row, grow),
                }
                grow.iter_mut().for_each(|v| *v *= wi);
            }
        };
        let gs = g.as_slice_mut().unwrap_or(&mut []);
        if with_hessian {
            let hs = h.as_slice_mut().unwrap_or(&mut []);
            gs.par_chunks_mut(rows * k)
                .zip(hs.par_chunks_mut(rows * k))
                .enumerate()
                .for_each(|(c, (gb, hb))| fill(c * rows, gb, Some(hb)));
        } else {
            gs.par_chunks_mut(rows * k)
                .enumerate()
                .for_each(|(c, gb)| fill(c * rows, gb, None));
        }
        (g, h)
    }

    /// The weighted mean loss `Σ wᵢ ℓᵢ / Σ wᵢ`.
    ///
    /// # Panics
    /// As [`MultinomialLoss::values`].
    pub fn mean<F: Float>(
        y: &ArrayRef1<usize>,
        raw: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> F {
        let l = Self::values(y, raw, sample_weight);
        let num = chunked_sum(l.as_slice().unwrap_or(&[]));
        let den = match sample_weight {
            Some(w) => chunked_sum(&contiguous(w)),
            None => F::cast(y.len()),
        };
        num / den
    }

    /// Class probabilities `softmax(fᵢ)` of every row.
    pub fn predict_proba<F: Float>(raw: &ArrayRef2<F>) -> Array2<F> {
        softmax_rows(raw)
    }

    /// The raw scores of the best constant model (scikit-learn's `fit_intercept_only`): the
    /// weighted class frequencies `pₖ`, clipped to `[ε, 1 − ε]`, mapped to `log pₖ − mean log p`
    /// (the multinomial logit with the geometric mean as reference).
    ///
    /// # Errors
    /// Empty data, a label `≥ n_classes`, bad weights.
    pub fn intercept_only<F: Float>(
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        n_classes: usize,
    ) -> Result<Array1<F>> {
        crate::validate::check_min_samples(y.len(), 1, "MultinomialLoss::intercept_only")?;
        crate::validate::check_labels_below(y, n_classes)?;
        if let Some(w) = sample_weight {
            crate::validate::check_sample_weight(w, y.len())?;
        }
        let mut counts = vec![F::zero(); n_classes];
        let mut total = F::zero();
        for (i, &c) in y.iter().enumerate() {
            let wi = sample_weight.map_or(F::one(), |w| w[i]);
            counts[c] += wi;
            total += wi;
        }
        let eps = F::epsilon();
        let logs: Vec<F> = counts
            .iter()
            .map(|&c| (c / total).max(eps).min(F::one() - eps).ln())
            .collect();
        let mean = logs.iter().copied().sum::<F>() / F::cast(n_classes);
        Ok(logs.iter().map(|&l| l - mean).collect())
    }
}

/// `sign(x)` with `sign(0) = 0` (numpy's `np.sign`).
trait SignumOrZero {
    fn signum_or_zero(self) -> Self;
}

impl<F: Float> SignumOrZero for F {
    #[inline]
    fn signum_or_zero(self) -> Self {
        if self > F::zero() {
            F::one()
        } else if self < F::zero() {
            -F::one()
        } else {
            F::zero()
        }
    }
}

/// The data of a 1-D array as a contiguous slice (borrowed when it already is).
fn contiguous<F: Float>(a: &ArrayRef1<F>) -> std::borrow::Cow<'_, [F]> {
    match a.as_slice() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(a.to_vec()),
    }
}

fn assert_lengths(ny: usize, nraw: usize, nw: Option<usize>, nout: usize) {
    assert!(
        ny == nraw && nout == ny && nw.is_none_or(|m| m == ny),
        "loss inputs differ in length: y {ny}, raw {nraw}, weights {nw:?}, output {nout}"
    );
}

/// Runs `f(start, chunk_a, chunk_b)` over fixed chunks of `a` (and of `b`, when given), in
/// parallel when the input is long.
/// A slice form of a row-vectorised loss method (`values_into`, `gradients_into`).
type SliceForm<F> = fn(&Loss, &[F], &[F], Option<&[F]>, &mut [F]);

fn zip_chunks<F: Float, G>(a: &mut [F], b: Option<&mut [F]>, f: G)
where
    G: Fn(usize, &mut [F], Option<&mut [F]>) + Sync + Send,
{
    if a.len() <= CHUNK {
        f(0, a, b);
        return;
    }
    match b {
        None => a
            .par_chunks_mut(CHUNK)
            .enumerate()
            .for_each(|(c, ca)| f(c * CHUNK, ca, None)),
        Some(b) => a
            .par_chunks_mut(CHUNK)
            .zip(b.par_chunks_mut(CHUNK))
            .enumerate()
            .for_each(|(c, (ca, cb))| f(c * CHUNK, ca, Some(cb))),
    }
}

/// Sum in fixed chunks folded in order (independent of the thread count).
fn chunked_sum<F: Float>(v: &[F]) -> F {
    par::reduce_chunks(
        v.len(),
        CHUNK,
        F::zero(),
        |r| v[r].iter().copied().sum::<F>(),
        |a, b| a + b,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    const ALL: [Loss; 13] = [
        Loss::SquaredError,
        Loss::AbsoluteError,
        Loss::Huber { delta: 0.7 },
        Loss::Pinball { quantile: 0.3 },
        Loss::EpsilonInsensitive { epsilon: 0.2 },
        Loss::SquaredEpsilonInsensitive { epsilon: 0.2 },
        Loss::Hinge { threshold: 1.0 },
        Loss::SquaredHinge { threshold: 1.0 },
        Loss::ModifiedHuber,
        Loss::LogLoss,
        Loss::Exponential,
        Loss::Poisson,
        Loss::Gamma,
    ];

    fn target_for(loss: Loss, i: usize) -> f64 {
        match loss.target_domain() {
            TargetDomain::PlusMinusOne => {
                if i % 2 == 0 {
                    1.0
                } else {
                    -1.0
                }
            }
            TargetDomain::UnitInterval => (i % 2) as f64,
            TargetDomain::NonNegative | TargetDomain::Positive => 0.5 + i as f64 * 0.3,
            TargetDomain::Real => i as f64 * 0.37 - 1.0,
        }
    }

    #[test]
    fn validation_and_domains() {
        for l in ALL {
            assert!(l.validate().is_ok(), "{l:?}");
        }
        assert!(Loss::Huber { delta: 0.0 }.validate().is_err());
        assert!(Loss::Pinball { quantile: 1.0 }.validate().is_err());
        assert!(
            Loss::EpsilonInsensitive { epsilon: -1.0 }
                .validate()
                .is_err()
        );
        assert!(
            Loss::Hinge {
                threshold: f64::NAN
            }
            .validate()
            .is_err()
        );
        assert!(Loss::Poisson.check_target(&array![0.0, 2.0]).is_ok());
        assert!(Loss::Poisson.check_target(&array![-1.0]).is_err());
        assert!(Loss::Gamma.check_target(&array![0.0]).is_err());
        assert!(Loss::LogLoss.check_target(&array![0.0, 1.0, 0.5]).is_ok());
        assert!(Loss::LogLoss.check_target(&array![2.0]).is_err());
        assert!(
            Loss::Hinge { threshold: 1.0 }
                .check_target(&array![0.0])
                .is_err()
        );
        assert!(Loss::SquaredError.check_target(&array![f64::NAN]).is_err());
        assert!(Loss::ModifiedHuber.is_classification());
        assert!(!Loss::Poisson.is_classification());
    }

    #[test]
    fn pair_forms_agree_with_the_single_forms() {
        for loss in ALL {
            for i in 0..25 {
                let y = target_for(loss, i);
                let raw = -40.0 + i as f64 * 3.7;
                let raw = if matches!(loss, Loss::Exponential | Loss::Poisson | Loss::Gamma) {
                    raw / 10.0
                } else {
                    raw
                };
                let (v, g) = loss.value_gradient(y, raw);
                let (g2, h) = loss.gradient_hessian(y, raw);
                // `log1pexp(f) − y f` cancels for large |f| (scikit-learn's closs form): error ~ ε|f|.
                let tol = 4.0 * f64::EPSILON * v.abs().max(raw.abs()).max(1.0);
                assert!(
                    (v - loss.value(y, raw)).abs() <= tol,
                    "{loss:?} value at {raw}"
                );
                // scikit-learn's closs_grad_half_binomial uses another (equally accurate)
                // formula below −2 than its cgradient: a few ulp apart.
                let tolg = 4.0 * f64::EPSILON * g.abs().max(1e-300);
                assert!(
                    (g - loss.gradient(y, raw)).abs() <= tolg,
                    "{loss:?} gradient at {raw}"
                );
                assert!((g2 - g).abs() <= tolg, "{loss:?} gradient_hessian at {raw}");
                assert_eq!(h, loss.hessian(y, raw));
                assert!(h >= 0.0, "{loss:?} convex");
            }
        }
    }

    #[test]
    fn row_forms_weights_and_threads() {
        let n = 20_000;
        for loss in ALL {
            let y: Array1<f64> = (0..n).map(|i| target_for(loss, i % 7)).collect();
            let raw: Array1<f64> = (0..n).map(|i| ((i % 13) as f64 - 6.0) * 0.31).collect();
            let w: Array1<f64> = (0..n).map(|i| 0.5 + (i % 3) as f64).collect();
            let (g, h) = loss.gradients_hessians(&y, &raw, Some(&w));
            let v = loss.values(&y, &raw, Some(&w));
            for i in [0, 1, 9_999, n - 1] {
                let (gi, hi) = loss.gradient_hessian(y[i], raw[i]);
                assert_eq!(g[i], gi * w[i]);
                assert_eq!(h[i], hi * w[i]);
                assert_eq!(v[i], loss.value(y[i], raw[i]) * w[i]);
            }
            assert_eq!(loss.gradients(&y, &raw, Some(&w)), g);
            let m = loss.mean(&y, &raw, Some(&w));
            let m1 = par::with_threads(1, || loss.mean(&y, &raw, Some(&w))).expect("pool");
            assert_eq!(m.to_bits(), m1.to_bits(), "{loss:?}");
            let g1 = par::with_threads(1, || loss.gradients(&y, &raw, Some(&w))).expect("pool");
            assert_eq!(g1, g);
        }
    }

    #[test]
    fn intercepts_minimise_the_mean_loss() {
        let y = array![0.5_f64, 1.0, 2.0, 4.0, 3.0, 1.5, 0.25];
        let w = array![1.0_f64, 2.0, 0.5, 1.0, 3.0, 1.0, 1.0];
        // (Unweighted, scikit-learn takes numpy's linearly interpolated percentile for the
        // pinball loss, which need not minimise it; the weighted rule, inverted CDF, does.)
        for (loss, weighted_only) in [
            (Loss::SquaredError, false),
            (Loss::AbsoluteError, false),
            (Loss::Pinball { quantile: 0.3 }, true),
            (Loss::Poisson, false),
            (Loss::Gamma, false),
        ] {
            for sw in [None, Some(&*w)] {
                if weighted_only && sw.is_none() {
                    continue;
                }
                let c = loss.intercept_only(&y, sw).expect("defined");
                let mean_at = |v: f64| loss.mean(&y, &y.mapv(|_| v), sw);
                let best = mean_at(c);
                for d in [-0.05, 0.05, -0.5, 0.5] {
                    assert!(best <= mean_at(c + d) + 1e-12, "{loss:?} {sw:?} at {d}");
                }
            }
        }
        let y01 = array![0.0_f64, 1.0, 1.0, 1.0];
        let c = Loss::LogLoss.intercept_only(&y01, None).expect("ok");
        assert!((sigmoid(c) - 0.75).abs() < 1e-15);
        let ce = Loss::Exponential.intercept_only(&y01, None).expect("ok");
        assert!((ce - 0.5 * 3f64.ln()).abs() < 1e-15);
        assert!(
            Loss::Hinge { threshold: 1.0 }
                .intercept_only(&array![1.0, -1.0], None)
                .is_err()
        );
        let all_one = array![1.0_f64, 1.0];
        assert!(
            Loss::LogLoss
                .intercept_only(&all_one, None)
                .expect("ok")
                .is_finite()
        );
    }

    /// The course notes' worked examples. Huber (catalog L-07): `h_{λ,μ}` with `μ = ½` is `½z²`
    /// below `λ` and `λ(|z| − λ/2)` beyond, i.e. `Huber { delta: λ }`; at `λ = 2` both branches
    /// give `h(2) = 2`. Hinge (S-03): the slack `ξ = max(0, 1 − yf)` is 0 outside the margin, in
    /// `(0, 1)` inside it on the right side, `≥ 1` when misclassified, and the subgradient is
    /// `−y` on the margin-violating side; the squared hinge (L2-SVM) is the square of the slack.
    #[test]
    fn notes_worked_examples() {
        let huber = Loss::Huber { delta: 2.0 };
        assert_eq!(huber.value(0.0, 2.0), 2.0);
        assert!((huber.value(0.0_f64, 2.0 - 1e-12) - 2.0).abs() < 1e-11);
        assert_eq!(huber.value(3.0, 0.0), 2.0 * (3.0 - 1.0));
        assert_eq!(huber.gradient(0.0, 5.0), 2.0);
        let hinge = Loss::Hinge { threshold: 1.0 };
        assert_eq!(hinge.value(1.0, 1.5), 0.0);
        assert_eq!(hinge.value(1.0, 0.25), 0.75);
        assert!(hinge.value(-1.0, 0.5) >= 1.0);
        assert_eq!(hinge.gradient(-1.0, 0.5), 1.0);
        assert_eq!(hinge.gradient(1.0, 2.0), 0.0);
        assert_eq!(
            Loss::SquaredHinge { threshold: 1.0 }.value(1.0, 0.25),
            0.75 * 0.75
        );
        assert_eq!(Loss::ModifiedHuber.value(1.0, -3.0), 12.0);
        assert!((Loss::LogLoss.value(1.0, 0.0) - std::f64::consts::LN_2).abs() < 1e-15);
    }

    #[test]
    fn multinomial_rows() {
        let raw = array![[1.0_f64, 2.0, 0.5], [800.0, -800.0, 0.0]];
        let y = array![1usize, 2];
        let v = MultinomialLoss::values(&y, &raw, None);
        assert!((v[0] - (crate::numeric::log_sum_exp(&[1.0_f64, 2.0, 0.5]) - 2.0)).abs() < 1e-15);
        assert_eq!(v[1], 800.0);
        let (g, h) = MultinomialLoss::gradients_hessians(&y, &raw, None);
        assert!((g.row(0).sum()).abs() < 1e-15);
        assert_eq!(g.row(1).to_vec(), vec![1.0, 0.0, -1.0]);
        assert_eq!(h.row(1).to_vec(), vec![0.0, 0.0, 0.0]);
        let p = MultinomialLoss::predict_proba(&raw);
        assert!((p[[0, 1]] * (1.0 - p[[0, 1]]) - h[[0, 1]]).abs() < 1e-15);
        let c = MultinomialLoss::intercept_only::<f64>(&array![0, 0, 1, 2], None, 3).expect("ok");
        let pc = crate::numeric::softmax(&c.to_vec());
        assert!((pc[0] - 0.5).abs() < 1e-15 && (pc[2] - 0.25).abs() < 1e-15);
        assert!(MultinomialLoss::intercept_only::<f64>(&array![0, 3], None, 3).is_err());
    }
}
