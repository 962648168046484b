//! Stateful update rules (SGD, momentum, Nesterov, AdaGrad, RMSProp, Adam) for training loops that
//! compute their own gradients, e.g. a neural network.
//!
//! # Interface
//!
//! Every rule implements [`Optimizer`]:
//!
//! ```text
//! step(idx, params, grad)   params ← update(params, grad, state[idx])
//! reset()                   forget all state (moment buffers, step counters)
//! ```
//!
//! A model has many parameter tensors (a weight matrix and a bias vector per layer); the caller
//! gives each one a stable index `idx` (e.g. `2·layer` for weights, `2·layer + 1` for biases).
//! The state for an index is allocated lazily at its first `step`, with the shape of `params`;
//! later steps must pass the same shape (call [`Optimizer::reset`] when the model changes).
//! `step` takes dynamic-dimension arrays ([`ArrayRefD`]) so that the trait is object safe
//! (`Box<dyn Optimizer<F>>`, see [`OptimizerKind::build`]); [`Optimizer::step_nd`] accepts arrays
//! of any fixed dimension. All rules are elementwise, so the memory layout does not matter.
//!
//! # Update rules
//!
//! `g` is the gradient, `η` the learning rate `lr`, products and powers are elementwise, and all
//! buffers start at zero.
//!
//! | rule | update |
//! |---|---|
//! | [`Sgd`] | `w ← w − η g` |
//! | [`Momentum`] (heavy ball, Polyak 1964) | `v ← βv − ηg;  w ← w + v` |
//! | [`Nesterov`] (Sutskever et al. 2013, in the form of Bengio et al. 2013) | `v ← βv − ηg;  w ← w + βv − ηg` |
//! | [`AdaGrad`] (Duchi et al. 2011) | `G ← G + g²;  w ← w − η g / (√G + ε)` |
//! | [`RmsProp`] (Tieleman & Hinton 2012) | `E ← ρE + (1 − ρ)g²;  w ← w − η g / (√E + ε)` |
//! | [`Adam`] (Kingma & Ba 2015) | `m ← β₁m + (1 − β₁)g;  v ← β₂v + (1 − β₂)g²;  m̂ = m/(1 − β₁ᵗ);  v̂ = v/(1 − β₂ᵗ);  w ← w − η m̂ / (√v̂ + ε)` |
//!
//! Nesterov's rule evaluates the gradient at the look-ahead point `w + βv` of the original
//! formulation; the form above stores that look-ahead point as the parameters, so the caller
//! computes `g` at the current `params` as for every other rule (this is also what PyTorch's
//! `nesterov=True` does, with `v` scaled by `−η`). In Adam the step counter `t` is kept per
//! parameter index. ε is added outside the square root in AdaGrad, RMSProp and Adam (as in the
//! papers and in PyTorch).
//!
//! Hyperparameters are `f64` and validated at construction: `lr > 0`; `beta`, `beta1`, `beta2`,
//! `rho` in `[0, 1)`; `eps > 0`. Defaults: momentum `β = 0.9`; RMSProp `ρ = 0.9`, `ε = 1e-8`;
//! AdaGrad `ε = 1e-10`; Adam `β₁ = 0.9`, `β₂ = 0.999`, `ε = 1e-8` (the papers' values).
//!
//! # Complexity
//!
//! `O(n)` per step for a tensor of `n` elements; state memory `0` (SGD), `n` (momentum, Nesterov,
//! AdaGrad, RMSProp) or `2n` (Adam) per tensor.
//!
//! # Choices not in the course notes
//!
//! The course notes only mention momentum, without a formula (catalog O-03, CL-054: "formula is an
//! implementation choice"); Nesterov, AdaGrad, RMSProp and Adam are absent from the course notes and are
//! implemented from the papers below. Non-finite gradients are not checked (that would cost a pass
//! over every tensor): they propagate into the parameters.
//!
//! # References
//!
//! - Momentum, which the course notes only mention ("calculate a momentum in a direction"):
//!   B. T. Polyak, "Some methods of speeding up the convergence of iteration methods", 1964.
//! - I. Sutskever, J. Martens, G. Dahl, G. Hinton, "On the importance of initialization and
//!   momentum in deep learning", ICML 2013; Y. Bengio, N. Boulanger-Lewandowski, R. Pascanu,
//!   "Advances in optimizing recurrent networks", ICASSP 2013.
//! - J. Duchi, E. Hazan, Y. Singer, "Adaptive subgradient methods for online learning and stochastic
//!   optimization", JMLR 12, 2011.
//! - T. Tieleman, G. Hinton, Lecture 6.5 "RMSProp", COURSERA: Neural Networks for Machine
//!   Learning, 2012.
//! - D. P. Kingma, J. Ba, "Adam: A method for stochastic optimization", ICLR 2015.
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::optim::{Adam, Optimizer};
//!
//! // Minimise ½‖w‖² + ½b² (gradients w and b) with two parameter tensors.
//! let mut w = array![[1.0, -2.0], [0.5, 3.0]];
//! let mut b = array![4.0];
//! let mut opt = Adam::new(0.1, 0.9, 0.999, 1e-8)?;
//! for _ in 0..500 {
//!     let gw = w.clone();
//!     let gb = b.clone();
//!     opt.step_nd(0, &mut w, &gw)?;
//!     opt.step_nd(1, &mut b, &gb)?;
//! }
//! assert!(w.iter().chain(b.iter()).all(|v: &f64| v.abs() < 1e-2));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::collections::BTreeMap;

use ndarray::{ArrayD, ArrayRef, ArrayRefD, Dimension, Zip};

use crate::{Error, Float, Result};

/// A stateful first-order update rule over several parameter tensors (see the module docs).
pub trait Optimizer<F: Float> {
    /// Updates `params` in place from `grad` (same shape), using and advancing the state kept for
    /// parameter tensor `idx`.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `grad` and `params` differ in shape, or when `params` does not
    /// have the shape the state of `idx` was allocated with.
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()>;

    /// Forgets all state (buffers and step counters); hyperparameters are kept.
    fn reset(&mut self);

    /// The learning rate `η`.
    fn lr(&self) -> f64;

    /// Changes the learning rate (e.g. for a schedule); the state is kept.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `lr` is finite and `> 0`.
    fn set_lr(&mut self, lr: f64) -> Result<()>;

    /// [`Optimizer::step`] for arrays of any fixed dimension (`Array1`, `Array2`, views, ...).
    ///
    /// # Errors
    /// As [`Optimizer::step`].
    fn step_nd<D: Dimension>(
        &mut self,
        idx: usize,
        params: &mut ArrayRef<F, D>,
        grad: &ArrayRef<F, D>,
    ) -> Result<()>
    where
        Self: Sized,
    {
        self.step(
            idx,
            &mut params.view_mut().into_dyn(),
            &grad.view().into_dyn(),
        )
    }
}

/// The kind and hyperparameters of an update rule: a serialisable description that builds the
/// stateful optimizer ([`OptimizerKind::build`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum OptimizerKind {
    /// [`Sgd`].
    Sgd {
        /// Learning rate.
        lr: f64,
    },
    /// [`Momentum`].
    Momentum {
        /// Learning rate.
        lr: f64,
        /// Momentum coefficient.
        beta: f64,
    },
    /// [`Nesterov`].
    Nesterov {
        /// Learning rate.
        lr: f64,
        /// Momentum coefficient.
        beta: f64,
    },
    /// [`AdaGrad`].
    AdaGrad {
        /// Learning rate.
        lr: f64,
        /// Denominator offset.
        eps: f64,
    },
    /// [`RmsProp`].
    RmsProp {
        /// Learning rate.
        lr: f64,
        /// Decay of the squared-gradient average.
        rho: f64,
        /// Denominator offset.
        eps: f64,
    },
    /// [`Adam`].
    Adam {
        /// Learning rate.
        lr: f64,
        /// Decay of the first moment.
        beta1: f64,
        /// Decay of the second moment.
        beta2: f64,
        /// Denominator offset.
        eps: f64,
    },
}

impl Default for OptimizerKind {
    /// Adam with the paper's defaults (`lr = 1e-3`).
    fn default() -> Self {
        Self::Adam {
            lr: 1e-3,
            beta1: 0.9,
            beta2: 0.999,
            eps: 1e-8,
        }
    }
}

impl OptimizerKind {
    /// Checks the hyperparameters (see the module docs for the ranges).
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::Sgd { lr } => check_lr(lr),
            Self::Momentum { lr, beta } | Self::Nesterov { lr, beta } => {
                check_lr(lr)?;
                check_decay("beta", beta)
            }
            Self::AdaGrad { lr, eps } => {
                check_lr(lr)?;
                crate::validate::check_positive("eps", eps)
            }
            Self::RmsProp { lr, rho, eps } => {
                check_lr(lr)?;
                check_decay("rho", rho)?;
                crate::validate::check_positive("eps", eps)
            }
            Self::Adam {
                lr,
                beta1,
                beta2,
                eps,
            } => {
                check_lr(lr)?;
                check_decay("beta1", beta1)?;
                check_decay("beta2", beta2)?;
                crate::validate::check_positive("eps", eps)
            }
        }
    }

    /// A fresh optimizer of this kind.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an invalid hyperparameter.
    pub fn build<F: Float>(&self) -> Result<Box<dyn Optimizer<F> + Send + Sync>> {
        Ok(match *self {
            Self::Sgd { lr } => Box::new(Sgd::new(lr)?),
            Self::Momentum { lr, beta } => Box::new(Momentum::new(lr, beta)?),
            Self::Nesterov { lr, beta } => Box::new(Nesterov::new(lr, beta)?),
            Self::AdaGrad { lr, eps } => Box::new(AdaGrad::new(lr, eps)?),
            Self::RmsProp { lr, rho, eps } => Box::new(RmsProp::new(lr, rho, eps)?),
            Self::Adam {
                lr,
                beta1,
                beta2,
                eps,
            } => Box::new(Adam::new(lr, beta1, beta2, eps)?),
        })
    }
}

fn check_lr(lr: f64) -> Result<()> {
    crate::validate::check_positive("lr", lr)
}

fn check_decay(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() && (0.0..1.0).contains(&v) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must lie in [0, 1), got {v}"),
        ))
    }
}

fn check_same_shape<F: Float>(params: &ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
    if params.shape() == grad.shape() {
        Ok(())
    } else {
        Err(Error::ShapeMismatch {
            context: "optimizer step: gradient vs parameters",
            expected: format!("shape {:?}", params.shape()),
            found: format!("shape {:?}", grad.shape()),
        })
    }
}

/// Per-index state buffers, allocated lazily with the parameter's shape.
#[derive(Debug, Clone)]
struct Slots<S> {
    map: BTreeMap<usize, S>,
}

impl<S> Default for Slots<S> {
    fn default() -> Self {
        Self {
            map: BTreeMap::new(),
        }
    }
}

impl<S> Slots<S> {
    /// The state of `idx`, created by `make` on first use; errors when the stored shape (given by
    /// `shape_of`) differs from `shape`.
    fn get(
        &mut self,
        idx: usize,
        shape: &[usize],
        make: impl FnOnce() -> S,
        shape_of: impl Fn(&S) -> &[usize],
    ) -> Result<&mut S> {
        let slot = self.map.entry(idx).or_insert_with(make);
        if shape_of(slot) != shape {
            return Err(Error::ShapeMismatch {
                context: "optimizer step: parameters vs the state allocated for this index (call reset() after changing the model)",
                expected: format!("shape {:?}", shape_of(slot)),
                found: format!("shape {shape:?}"),
            });
        }
        Ok(slot)
    }

    fn clear(&mut self) {
        self.map.clear();
    }
}

impl<F: Float> Slots<ArrayD<F>> {
    /// The buffer for `idx`, allocated as zeros shaped like `params` on first use.
    fn zeros_like(&mut self, idx: usize, params: &ArrayRefD<F>) -> Result<&mut ArrayD<F>> {
        self.get(
            idx,
            params.shape(),
            || ArrayD::zeros(params.raw_dim()),
            |s| s.shape(),
        )
    }
}

/// Plain stochastic gradient descent `w ← w − ηg` (stateless).
#[derive(Debug, Clone, PartialEq)]
pub struct Sgd {
    lr: f64,
}

impl Sgd {
    /// SGD with learning rate `lr > 0`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `lr` is finite and `> 0`.
    pub fn new(lr: f64) -> Result<Self> {
        check_lr(lr)?;
        Ok(Self { lr })
    }
}

impl<F: Float> Optimizer<F> for Sgd {
    fn step(&mut self, _idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        params.scaled_add(-F::cast(self.lr), grad);
        Ok(())
    }
    fn reset(&mut self) {}
    fn lr(&self) -> f64 {
        self.lr
    }
    fn set_lr(&mut self, lr: f64) -> Result<()> {
        check_lr(lr)?;
        self.lr = lr;
        Ok(())
    }
}

macro_rules! lr_methods {
    () => {
        fn lr(&self) -> f64 {
            self.lr
        }
        fn set_lr(&mut self, lr: f64) -> Result<()> {
            check_lr(lr)?;
            self.lr = lr;
            Ok(())
        }
    };
}

/// Classical (heavy-ball) momentum: `v ← βv − ηg;  w ← w + v`.
#[derive(Debug, Clone)]
pub struct Momentum<F: Float> {
    lr: f64,
    beta: f64,
    velocity: Slots<ArrayD<F>>,
}

impl<F: Float> Momentum<F> {
    /// Momentum with learning rate `lr > 0` and coefficient `beta ∈ [0, 1)` (`0` is plain SGD).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn new(lr: f64, beta: f64) -> Result<Self> {
        check_lr(lr)?;
        check_decay("beta", beta)?;
        Ok(Self {
            lr,
            beta,
            velocity: Slots::default(),
        })
    }

    /// The velocity `v` of parameter tensor `idx`, if it has been stepped.
    pub fn velocity(&self, idx: usize) -> Option<&ArrayD<F>> {
        self.velocity.map.get(&idx)
    }
}

impl<F: Float> Optimizer<F> for Momentum<F> {
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        let (lr, beta) = (F::cast(self.lr), F::cast(self.beta));
        let v = self.velocity.zeros_like(idx, params)?;
        Zip::from(params).and(v).and(grad).for_each(|w, v, &g| {
            *v = beta * *v - lr * g;
            *w += *v;
        });
        Ok(())
    }
    fn reset(&mut self) {
        self.velocity.clear();
    }
    lr_methods!();
}

/// Nesterov accelerated gradient in the Sutskever/Bengio form:
/// `v ← βv − ηg;  w ← w + βv − ηg` (with the new `v`), `g` taken at the current parameters.
#[derive(Debug, Clone)]
pub struct Nesterov<F: Float> {
    lr: f64,
    beta: f64,
    velocity: Slots<ArrayD<F>>,
}

impl<F: Float> Nesterov<F> {
    /// Nesterov momentum with learning rate `lr > 0` and coefficient `beta ∈ [0, 1)`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn new(lr: f64, beta: f64) -> Result<Self> {
        check_lr(lr)?;
        check_decay("beta", beta)?;
        Ok(Self {
            lr,
            beta,
            velocity: Slots::default(),
        })
    }
}

impl<F: Float> Optimizer<F> for Nesterov<F> {
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        let (lr, beta) = (F::cast(self.lr), F::cast(self.beta));
        let v = self.velocity.zeros_like(idx, params)?;
        Zip::from(params).and(v).and(grad).for_each(|w, v, &g| {
            *v = beta * *v - lr * g;
            *w += beta * *v - lr * g;
        });
        Ok(())
    }
    fn reset(&mut self) {
        self.velocity.clear();
    }
    lr_methods!();
}

/// AdaGrad: `G ← G + g²;  w ← w − η g / (√G + ε)`.
#[derive(Debug, Clone)]
pub struct AdaGrad<F: Float> {
    lr: f64,
    eps: f64,
    sum_sq: Slots<ArrayD<F>>,
}

impl<F: Float> AdaGrad<F> {
    /// AdaGrad with learning rate `lr > 0` and offset `eps > 0` (PyTorch's default is `1e-10`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn new(lr: f64, eps: f64) -> Result<Self> {
        check_lr(lr)?;
        crate::validate::check_positive("eps", eps)?;
        Ok(Self {
            lr,
            eps,
            sum_sq: Slots::default(),
        })
    }
}

impl<F: Float> Optimizer<F> for AdaGrad<F> {
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        let (lr, eps) = (F::cast(self.lr), F::cast(self.eps));
        let acc = self.sum_sq.zeros_like(idx, params)?;
        Zip::from(params).and(acc).and(grad).for_each(|w, a, &g| {
            *a += g * g;
            *w -= lr * g / (a.sqrt() + eps);
        });
        Ok(())
    }
    fn reset(&mut self) {
        self.sum_sq.clear();
    }
    lr_methods!();
}

/// RMSProp: `E ← ρE + (1 − ρ)g²;  w ← w − η g / (√E + ε)`.
///
/// With a constant `η` the steps are ≈ `η·g/rms(g)` and do not shrink as `g → 0`, so near a
/// minimum the iterates settle into a limit cycle of amplitude ~`η`; decay `η` (see
/// [`Optimizer::set_lr`]) for high accuracy.
#[derive(Debug, Clone)]
pub struct RmsProp<F: Float> {
    lr: f64,
    rho: f64,
    eps: f64,
    mean_sq: Slots<ArrayD<F>>,
}

impl<F: Float> RmsProp<F> {
    /// RMSProp with learning rate `lr > 0`, decay `rho ∈ [0, 1)` (Hinton's `0.9`) and offset
    /// `eps > 0` (`1e-8`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn new(lr: f64, rho: f64, eps: f64) -> Result<Self> {
        check_lr(lr)?;
        check_decay("rho", rho)?;
        crate::validate::check_positive("eps", eps)?;
        Ok(Self {
            lr,
            rho,
            eps,
            mean_sq: Slots::default(),
        })
    }
}

impl<F: Float> Optimizer<F> for RmsProp<F> {
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        let (lr, rho, eps) = (F::cast(self.lr), F::cast(self.rho), F::cast(self.eps));
        let one_minus = F::one() - rho;
        let acc = self.mean_sq.zeros_like(idx, params)?;
        Zip::from(params).and(acc).and(grad).for_each(|w, e, &g| {
            *e = rho * *e + one_minus * g * g;
            *w -= lr * g / (e.sqrt() + eps);
        });
        Ok(())
    }
    fn reset(&mut self) {
        self.mean_sq.clear();
    }
    lr_methods!();
}

/// Adam's moments and step counter for one parameter tensor.
#[derive(Debug, Clone)]
struct AdamSlot<F: Float> {
    m: ArrayD<F>,
    v: ArrayD<F>,
    t: i32,
}

/// Adam with bias correction (Kingma & Ba 2015, Algorithm 1).
///
/// Two algebraically equal forms of the step are available; they differ in where `ε` enters:
///
/// | form | step |
/// |---|---|
/// | paper ([`Adam::new`], the default) | `w ← w − η m̂ / (√v̂ + ε)` with `m̂ = m/(1 − β₁ᵗ)`, `v̂ = v/(1 − β₂ᵗ)` |
/// | scikit-learn's ([`Adam::sklearn_form`]) | `ηₜ = η √(1 − β₂ᵗ)/(1 − β₁ᵗ)` (in `f64`);  `w ← w − ηₜ m / (√v + ε)` |
///
/// The second is the "efficient" form of the paper's section 2 that scikit-learn's
/// `MLPClassifier` uses (`ε` added to `√v`, not to `√v̂`); it exists so that parity tests can
/// run the same update as scikit-learn.
#[derive(Debug, Clone)]
pub struct Adam<F: Float> {
    lr: f64,
    beta1: f64,
    beta2: f64,
    eps: f64,
    folded: bool,
    slots: Slots<AdamSlot<F>>,
}

impl<F: Float> Adam<F> {
    /// Adam with learning rate `lr > 0`, moment decays `beta1, beta2 ∈ [0, 1)` and offset
    /// `eps > 0` (the paper's defaults: `1e-3, 0.9, 0.999, 1e-8`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn new(lr: f64, beta1: f64, beta2: f64, eps: f64) -> Result<Self> {
        check_lr(lr)?;
        check_decay("beta1", beta1)?;
        check_decay("beta2", beta2)?;
        crate::validate::check_positive("eps", eps)?;
        Ok(Self {
            lr,
            beta1,
            beta2,
            eps,
            folded: false,
            slots: Slots::default(),
        })
    }

    /// Adam in scikit-learn's form: the bias corrections folded into the step size, `ε` added
    /// to `√v` (see the type docs). Same hyperparameters and ranges as [`Adam::new`].
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an out-of-range value.
    pub fn sklearn_form(lr: f64, beta1: f64, beta2: f64, eps: f64) -> Result<Self> {
        let mut adam = Self::new(lr, beta1, beta2, eps)?;
        adam.folded = true;
        Ok(adam)
    }

    /// Whether this is scikit-learn's form ([`Adam::sklearn_form`]).
    pub fn is_sklearn_form(&self) -> bool {
        self.folded
    }

    /// Adam with the paper's `beta1 = 0.9`, `beta2 = 0.999`, `eps = 1e-8` and learning rate `lr`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `lr` is finite and `> 0`.
    pub fn with_lr(lr: f64) -> Result<Self> {
        Self::new(lr, 0.9, 0.999, 1e-8)
    }

    /// Number of steps taken on parameter tensor `idx` (0 before the first).
    pub fn steps(&self, idx: usize) -> usize {
        self.slots.map.get(&idx).map_or(0, |s| s.t.max(0) as usize)
    }
}

impl<F: Float> Optimizer<F> for Adam<F> {
    fn step(&mut self, idx: usize, params: &mut ArrayRefD<F>, grad: &ArrayRefD<F>) -> Result<()> {
        check_same_shape(params, grad)?;
        let slot = self.slots.get(
            idx,
            params.shape(),
            || AdamSlot {
                m: ArrayD::zeros(params.raw_dim()),
                v: ArrayD::zeros(params.raw_dim()),
                t: 0,
            },
            |s| s.m.shape(),
        )?;
        slot.t = slot.t.saturating_add(1);
        if self.folded {
            // scikit-learn: learning_rate = lr·√(1 − β₂ᵗ)/(1 − β₁ᵗ) in f64, then
            // w += −learning_rate · m / (√v + ε).
            let step = F::cast(
                self.lr * (1.0 - self.beta2.powf(f64::from(slot.t))).sqrt()
                    / (1.0 - self.beta1.powf(f64::from(slot.t))),
            );
            let (eps, b1, b2) = (F::cast(self.eps), F::cast(self.beta1), F::cast(self.beta2));
            let (one_b1, one_b2) = (F::one() - b1, F::one() - b2);
            Zip::from(params)
                .and(&mut slot.m)
                .and(&mut slot.v)
                .and(grad)
                .for_each(|w, m, v, &g| {
                    *m = b1 * *m + one_b1 * g;
                    *v = b2 * *v + one_b2 * (g * g);
                    *w += -step * *m / (v.sqrt() + eps);
                });
            return Ok(());
        }
        // Bias corrections in f64: 1 − βᵗ, then folded into the step as in the paper's
        // Algorithm 1 (m̂ = m/(1 − β₁ᵗ), v̂ = v/(1 − β₂ᵗ)).
        let c1 = F::cast(1.0 - self.beta1.powi(slot.t));
        let c2 = F::cast(1.0 - self.beta2.powi(slot.t));
        let (lr, eps) = (F::cast(self.lr), F::cast(self.eps));
        let (b1, b2) = (F::cast(self.beta1), F::cast(self.beta2));
        let (one_b1, one_b2) = (F::one() - b1, F::one() - b2);
        Zip::from(params)
            .and(&mut slot.m)
            .and(&mut slot.v)
            .and(grad)
            .for_each(|w, m, v, &g| {
                *m = b1 * *m + one_b1 * g;
                *v = b2 * *v + one_b2 * g * g;
                let m_hat = *m / c1;
                let v_hat = *v / c2;
                *w -= lr * m_hat / (v_hat.sqrt() + eps);
            });
        Ok(())
    }
    fn reset(&mut self) {
        self.slots.clear();
    }
    lr_methods!();
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, Array2, array};

    /// Two steps on f(w) = ½‖w‖² (gradient = w) from w = (1, −2); returns the iterates.
    fn two_steps<O: Optimizer<f64>>(opt: &mut O) -> [Array1<f64>; 2] {
        let mut w = array![1.0, -2.0];
        let g = w.clone();
        opt.step_nd(0, &mut w, &g).expect("shapes agree");
        let w1 = w.clone();
        let g = w.clone();
        opt.step_nd(0, &mut w, &g).expect("shapes agree");
        [w1, w]
    }

    fn close(a: &Array1<f64>, b: &[f64], tol: f64) {
        assert!(
            a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tol),
            "{a} vs {b:?}"
        );
    }

    #[test]
    fn sgd_two_steps() {
        // w₁ = w₀ − 0.1·w₀ = (0.9, −1.8); w₂ = 0.9·w₁ = (0.81, −1.62).
        let [w1, w2] = two_steps(&mut Sgd::new(0.1).expect("valid"));
        close(&w1, &[0.9, -1.8], 1e-15);
        close(&w2, &[0.81, -1.62], 1e-15);
    }

    #[test]
    fn momentum_two_steps() {
        // η = 0.1, β = 0.9. Step 1: v = −0.1·(1, −2) = (−0.1, 0.2); w = (0.9, −1.8).
        // Step 2: g = (0.9, −1.8); v = 0.9·(−0.1, 0.2) − 0.1·(0.9, −1.8) = (−0.18, 0.36);
        // w = (0.9 − 0.18, −1.8 + 0.36) = (0.72, −1.44).
        let mut opt = Momentum::new(0.1, 0.9).expect("valid");
        let [w1, w2] = two_steps(&mut opt);
        close(&w1, &[0.9, -1.8], 1e-15);
        close(&w2, &[0.72, -1.44], 1e-15);
        let v = opt.velocity(0).expect("stepped");
        assert!((v[0] + 0.18).abs() < 1e-15 && (v[1] - 0.36).abs() < 1e-15);
        assert!(opt.velocity(1).is_none());
    }

    #[test]
    fn nesterov_two_steps() {
        // η = 0.1, β = 0.9. Step 1: v = (−0.1, 0.2); w = w + βv − ηg
        // = (1 − 0.09 − 0.1, −2 + 0.18 + 0.2) = (0.81, −1.62).
        // Step 2: g = (0.81, −1.62); v = 0.9·(−0.1, 0.2) − 0.1·(0.81, −1.62) = (−0.171, 0.342);
        // w = (0.81 + 0.9·(−0.171) − 0.081, −1.62 + 0.9·0.342 + 0.162) = (0.5751, −1.1502).
        let [w1, w2] = two_steps(&mut Nesterov::new(0.1, 0.9).expect("valid"));
        close(&w1, &[0.81, -1.62], 1e-15);
        close(&w2, &[0.5751, -1.1502], 1e-15);
    }

    #[test]
    fn adagrad_two_steps() {
        // η = 0.1, ε = 1e-10. Step 1: G = (1, 4); w = (1 − 0.1·1/1, −2 + 0.1·2/2) = (0.9, −1.9)
        // (ε changes the 11th digit). Step 2: g = (0.9, −1.9); G = (1 + 0.81, 4 + 3.61) =
        // (1.81, 7.61); w = (0.9 − 0.1·0.9/√1.81, −1.9 + 0.1·1.9/√7.61).
        let [w1, w2] = two_steps(&mut AdaGrad::new(0.1, 1e-10).expect("valid"));
        close(&w1, &[0.9, -1.9], 1e-10);
        close(
            &w2,
            &[0.9 - 0.09 / 1.81f64.sqrt(), -1.9 + 0.19 / 7.61f64.sqrt()],
            1e-10,
        );
    }

    #[test]
    fn rmsprop_two_steps() {
        // η = 0.01, ρ = 0.9, ε = 1e-8. Step 1: E = 0.1·g² = (0.1, 0.4);
        // w = (1 − 0.01·1/√0.1, −2 + 0.01·2/√0.4) = (1 − 0.01·√10, −2 + 0.01·√10) (each
        // coordinate moves by η/√(1 − ρ) in the first step).
        // Step 2: g = w₁; E = 0.9·E + 0.1·g²; w₂ = w₁ − 0.01·g/√E.
        let [w1, w2] = two_steps(&mut RmsProp::new(0.01, 0.9, 1e-8).expect("valid"));
        // ε = 1e-8 is kept in the denominators below (it moves the 9th digit).
        let eps = 1e-8;
        let a = 1.0 - 0.01 * 1.0 / (0.1f64.sqrt() + eps);
        let b = -2.0 + 0.01 * 2.0 / (0.4f64.sqrt() + eps);
        close(&w1, &[a, b], 1e-14);
        assert!((a - (1.0 - 0.01 * 10f64.sqrt())).abs() < 1e-8);
        let ea = 0.9 * 0.1 + 0.1 * a * a;
        let eb = 0.9 * 0.4 + 0.1 * b * b;
        close(
            &w2,
            &[
                a - 0.01 * a / (ea.sqrt() + eps),
                b - 0.01 * b / (eb.sqrt() + eps),
            ],
            1e-14,
        );
    }

    #[test]
    fn adam_sklearn_form_matches_hand_steps_and_paper_form() {
        // Step 1 from w = (1, −2), g = w: m = 0.1g, v = 0.001g², ηₜ = 0.1·√0.001/0.1, so
        // w₁ = w − ηₜ·0.1g/(√0.001|g| + ε) = w − 0.1·sign(g)·|g|√0.001/(√0.001|g| + ε).
        let mut sk = Adam::sklearn_form(0.1, 0.9, 0.999, 1e-8).expect("valid");
        assert!(sk.is_sklearn_form());
        let [w1, _] = two_steps(&mut sk);
        let r = 0.001_f64.sqrt();
        let expect = [
            1.0 - 0.1 * r / (r + 1e-8),
            -2.0 + 0.1 * 2.0 * r / (2.0 * r + 1e-8),
        ];
        close(&w1, &expect, 1e-15);
        // With ε → 0 both forms take the same steps.
        let mut a = Adam::sklearn_form(0.1, 0.9, 0.999, 1e-300).expect("valid");
        let mut b = Adam::new(0.1, 0.9, 0.999, 1e-300).expect("valid");
        let [a1, a2] = two_steps(&mut a);
        let [b1, b2] = two_steps(&mut b);
        close(&a1, b1.as_slice().expect("contiguous"), 1e-14);
        close(&a2, b2.as_slice().expect("contiguous"), 1e-14);
    }

    #[test]
    fn adam_two_steps() {
        // η = 0.1, β₁ = 0.9, β₂ = 0.999, ε = 1e-8.
        // Step 1 (t = 1): m = 0.1g, v = 0.001g², m̂ = g, v̂ = g², so w moves by η·g/|g| = 0.1 per
        // coordinate: w₁ = (0.9, −1.9).
        // Step 2 (t = 2), first coordinate: g = 0.9; m = 0.9·0.1 + 0.1·0.9 = 0.18,
        // m̂ = 0.18/(1 − 0.81) = 0.18/0.19; v = 0.999·0.001 + 0.001·0.81 = 0.001809,
        // v̂ = 0.001809/(1 − 0.998001) = 0.001809/0.001999; w = 0.9 − 0.1·m̂/√v̂ ≈ 0.800412.
        // Second coordinate: g = −1.9; m = 0.9·(−0.2) + 0.1·(−1.9) = −0.37, m̂ = −0.37/0.19;
        // v = 0.999·0.004 + 0.001·3.61 = 0.007606, v̂ = 0.007606/0.001999.
        let mut opt = Adam::new(0.1, 0.9, 0.999, 1e-8).expect("valid");
        let [w1, w2] = two_steps(&mut opt);
        close(&w1, &[0.9, -1.9], 1e-8);
        let a = 0.9 - 0.1 * (0.18 / 0.19) / (0.001809f64 / 0.001999).sqrt();
        let b = -1.9 - 0.1 * (-0.37 / 0.19) / (0.007606f64 / 0.001999).sqrt();
        close(&w2, &[a, b], 1e-8);
        assert!((a - 0.800412).abs() < 1e-6);
        assert_eq!(opt.steps(0), 2);
        assert_eq!(opt.steps(7), 0);
    }

    #[test]
    fn hyperparameters_are_validated() {
        assert!(matches!(
            Sgd::new(0.0),
            Err(Error::InvalidParam { name: "lr", .. })
        ));
        assert!(matches!(
            Sgd::new(f64::INFINITY),
            Err(Error::InvalidParam { name: "lr", .. })
        ));
        assert!(matches!(
            Momentum::<f64>::new(0.1, 1.0),
            Err(Error::InvalidParam { name: "beta", .. })
        ));
        assert!(matches!(
            Nesterov::<f64>::new(0.1, -0.1),
            Err(Error::InvalidParam { name: "beta", .. })
        ));
        assert!(matches!(
            AdaGrad::<f64>::new(0.1, 0.0),
            Err(Error::InvalidParam { name: "eps", .. })
        ));
        assert!(matches!(
            RmsProp::<f64>::new(0.1, 1.0, 1e-8),
            Err(Error::InvalidParam { name: "rho", .. })
        ));
        assert!(matches!(
            RmsProp::<f64>::new(-1.0, 0.9, 1e-8),
            Err(Error::InvalidParam { name: "lr", .. })
        ));
        assert!(matches!(
            Adam::<f64>::new(0.1, 1.0, 0.999, 1e-8),
            Err(Error::InvalidParam { name: "beta1", .. })
        ));
        assert!(matches!(
            Adam::<f64>::new(0.1, 0.9, f64::NAN, 1e-8),
            Err(Error::InvalidParam { name: "beta2", .. })
        ));
        assert!(matches!(
            Adam::<f64>::new(0.1, 0.9, 0.999, -1.0),
            Err(Error::InvalidParam { name: "eps", .. })
        ));
        assert!(Momentum::<f64>::new(0.1, 0.0).is_ok(), "β = 0 is allowed");
        let mut adam = Adam::<f64>::with_lr(0.1).expect("valid");
        assert!(adam.set_lr(0.0).is_err());
        adam.set_lr(0.5).expect("valid");
        assert_eq!(Optimizer::<f64>::lr(&adam), 0.5);
        assert!(
            OptimizerKind::Adam {
                lr: 1e-3,
                beta1: 0.9,
                beta2: 1.5,
                eps: 1e-8
            }
            .validate()
            .is_err()
        );
        assert!(OptimizerKind::Sgd { lr: -1.0 }.build::<f64>().is_err());
        assert!(OptimizerKind::default().validate().is_ok());
    }

    #[test]
    fn shapes_are_checked_and_reset_clears_state() {
        let mut opt = Momentum::new(0.1, 0.9).expect("valid");
        let mut w = array![1.0, 2.0];
        assert!(matches!(
            opt.step_nd(0, &mut w, &array![1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        opt.step_nd(0, &mut w, &array![1.0, 1.0]).expect("valid");
        let mut w3 = array![1.0, 2.0, 3.0];
        assert!(matches!(
            opt.step_nd(0, &mut w3, &array![1.0, 1.0, 1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        // Another index has its own state; reset forgets everything.
        opt.step_nd(1, &mut w3, &array![1.0, 1.0, 1.0])
            .expect("valid");
        opt.reset();
        assert!(opt.velocity(0).is_none());
        opt.step_nd(0, &mut w3, &array![1.0, 1.0, 1.0])
            .expect("valid after reset");
        // After reset a momentum step equals a fresh first step: w ← w − ηg.
        let mut fresh = Momentum::new(0.1, 0.9).expect("valid");
        let mut a = array![1.0, -1.0];
        let mut b = a.clone();
        fresh.step_nd(4, &mut a, &array![2.0, 2.0]).expect("valid");
        fresh.reset();
        fresh.step_nd(4, &mut b, &array![2.0, 2.0]).expect("valid");
        assert_eq!(a, b);
        assert_eq!(a, array![0.8, -1.2]);
    }

    #[test]
    fn several_tensors_and_dynamic_dispatch() {
        // Each tensor keeps its own state: stepping tensor 1 between the steps of tensor 0 does
        // not change tensor 0's trajectory.
        let kinds = [
            OptimizerKind::Sgd { lr: 0.1 },
            OptimizerKind::Momentum { lr: 0.1, beta: 0.9 },
            OptimizerKind::Nesterov { lr: 0.1, beta: 0.9 },
            OptimizerKind::AdaGrad {
                lr: 0.1,
                eps: 1e-10,
            },
            OptimizerKind::RmsProp {
                lr: 0.01,
                rho: 0.9,
                eps: 1e-8,
            },
            OptimizerKind::Adam {
                lr: 0.1,
                beta1: 0.9,
                beta2: 0.999,
                eps: 1e-8,
            },
        ];
        for kind in kinds {
            let mut alone = kind.build::<f64>().expect("valid");
            let mut mixed = kind.build::<f64>().expect("valid");
            let mut a = array![[1.0, -2.0], [3.0, 0.5]].into_dyn();
            let mut b = a.clone();
            let mut other = array![5.0, -5.0, 1.0].into_dyn();
            for _ in 0..3 {
                let g = a.clone();
                alone.step(0, &mut a, &g).expect("valid");
                let g = b.clone();
                mixed.step(0, &mut b, &g).expect("valid");
                let g = other.clone();
                mixed.step(1, &mut other, &g).expect("valid");
            }
            assert_eq!(a, b, "{kind:?}");
        }
    }

    #[test]
    fn all_rules_minimise_an_ill_conditioned_quadratic() {
        // f(w) = ½ wᵀ diag(1, 10) w from (1, 1): every rule gets close to 0. RMSProp with a
        // constant rate ends in a limit cycle of amplitude ~η (its steps are ≈ η·g/rms(g), which
        // does not shrink with g), so it is only asked for ‖w‖ ≤ η.
        let kinds = [
            (OptimizerKind::Sgd { lr: 0.09 }, 500, 1e-3),
            (
                OptimizerKind::Momentum {
                    lr: 0.05,
                    beta: 0.8,
                },
                500,
                1e-3,
            ),
            (
                OptimizerKind::Nesterov {
                    lr: 0.05,
                    beta: 0.8,
                },
                500,
                1e-3,
            ),
            (
                OptimizerKind::AdaGrad {
                    lr: 0.5,
                    eps: 1e-10,
                },
                2000,
                1e-3,
            ),
            (
                OptimizerKind::RmsProp {
                    lr: 0.01,
                    rho: 0.9,
                    eps: 1e-8,
                },
                2000,
                1e-2,
            ),
            (
                OptimizerKind::Adam {
                    lr: 0.05,
                    beta1: 0.9,
                    beta2: 0.999,
                    eps: 1e-8,
                },
                2000,
                1e-3,
            ),
        ];
        let d = array![1.0, 10.0];
        for (kind, iters, tol) in kinds {
            let mut opt = kind.build::<f64>().expect("valid");
            let mut w = array![1.0, 1.0].into_dyn();
            for _ in 0..iters {
                let g = (&w * &d.view().into_dyn()).into_dyn();
                opt.step(0, &mut w, &g).expect("valid");
            }
            let norm = w.iter().map(|v| v * v).sum::<f64>().sqrt();
            assert!(norm < tol, "{kind:?}: ‖w‖ = {norm}");
        }
    }

    #[test]
    fn works_in_f32_on_matrices_and_views() {
        let mut w = Array2::<f32>::from_elem((2, 3), 1.0);
        let mut opt = Adam::<f32>::with_lr(0.1).expect("valid");
        for _ in 0..300 {
            let g = w.clone();
            opt.step_nd(3, &mut w, &g).expect("valid");
        }
        assert!(w.iter().all(|v| v.abs() < 1e-2), "{w}");
        // A non-contiguous view (a column) is fine: the rules are elementwise.
        let mut m = Array2::<f32>::from_elem((3, 3), 2.0);
        let mut sgd = Sgd::new(0.5).expect("valid");
        let g = Array1::<f32>::from_elem(3, 2.0);
        sgd.step_nd(0, &mut m.column_mut(1), &g).expect("valid");
        assert_eq!(m.column(1).to_vec(), vec![1.0; 3]);
        assert_eq!(m.column(0).to_vec(), vec![2.0; 3]);
    }
}
