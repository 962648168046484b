//! Linear models trained by plain stochastic gradient descent ([`SGDClassifier`],
//! [`SGDRegressor`]), scikit-learn's `SGDClassifier` / `SGDRegressor`.
//!
//! # Model and objective
//!
//! A linear score `p = wᵀx + b`. SGD minimises, one sample at a time, the regularised empirical
//! risk (with sample weights `sᵢ` and class weights `c_{yᵢ}`)
//!
//! ```text
//! E(w, b) = (1/N) Σᵢ c_{yᵢ} sᵢ ℓ(yᵢ, wᵀxᵢ + b) + α R(w),
//! R(w) = ((1 − ρ)/2) ‖w‖²₂ + ρ ‖w‖₁
//! ```
//!
//! with `ρ = 0` for `L2`, `ρ = 1` for `L1`, `ρ = l1_ratio` for `ElasticNet` and `R = 0` for
//! `None` (the intercept is not penalised). Note the `½` on the L2 term: `α` here is
//! scikit-learn's `alpha` and plays the role of `λ` in the course notes' `(λ/2)‖w‖²`; with the hinge loss
//! this is the SVM `C = 1/(Nα)`.
//!
//! # Losses ([`SgdLoss`], `ℓ(y, p)`, no extra scaling)
//!
//! | loss | `ℓ(y, p)` | labels |
//! |---|---|---|
//! | `Hinge` | `max(0, 1 − yp)` (soft-margin SVM) | `y = ±1` |
//! | `Perceptron` | `max(0, −yp)` | `±1` |
//! | `SquaredHinge` | `max(0, 1 − yp)²` | `±1` |
//! | `ModifiedHuber` | `max(0, 1 − yp)²` for `yp ≥ −1`, `−4yp` below | `±1` |
//! | `LogLoss` | `log(1 + e^p) − yp` (logistic regression) | `y ∈ {0, 1}` |
//! | `SquaredError` | `½(y − p)²` | real |
//! | `Huber` | `½r²` if `\|r\| ≤ ε`, `ε(\|r\| − ε/2)` otherwise, `r = y − p` | real |
//! | `EpsilonInsensitive` | `max(0, \|y − p\| − ε)` (SVR) | real |
//! | `SquaredEpsilonInsensitive` | `max(0, \|y − p\| − ε)²` | real |
//!
//! The classifier accepts every loss (the regression ones fit the `±1` codes); the regressor
//! only the last four. Gradients `ℓ'` are clipped to `±10¹²`.
//!
//! # The update (one sample `(x, y, s)` at step `t`)
//!
//! ```text
//! η   = schedule(t)
//! g   = −η · ℓ'(y, wᵀx + b) · c_y · s
//! w  ← max(0, 1 − (1 − ρ) η α) · w          (L2 part: weight decay)
//! w  ← w + g·x,   b ← b + g                 (b only with fit_intercept)
//! u  ← u + ρ η α;  truncated-gradient L1 step on every weight (below)
//! t  ← t + 1
//! ```
//!
//! The decay is applied in O(1) by keeping `w = wscale · v` and scaling `wscale` only (folded
//! back into `v` when it falls below 1e-9, 1e-6 in `f32`, and at the end of every call), so an
//! epoch costs `O(N·d)` with two passes over each row (dot product, update). The L1 part is
//! scikit-learn's cumulative truncated gradient (Tsuruoka, Tsujii and Ananiadou, 2009): with
//! `u` the total L1 penalty a weight could have received and `q_j` what `w_j` did receive,
//! a positive `w_j` becomes `max(0, w_j − (u + q_j))`, a negative one `min(0, w_j + (u − q_j))`,
//! so weights reach exact zeros and never cross 0 in one step.
//!
//! # Learning-rate schedules ([`LearningRate`])
//!
//! | schedule | `η(t)` |
//! |---|---|
//! | `Optimal` (classifier default) | `1 / (α (t₀ + t − 1))`, `t₀ = 1/(η̂₀ α)`, `η̂₀ = τ / max(1, ℓ'(1, −τ)) = τ = α^{−1/4}` (`ℓ' < 0` there for every loss; Bottou's heuristic: the first step suits a weight of size `1/√α`) |
//! | `InvScaling` (regressor default) | `eta0 / t^power_t` |
//! | `Constant` | `eta0` |
//! | `Adaptive` | `eta0`, divided by 5 each time the stopping rule fires (until `η ≤ 10⁻⁶`, then it stops) |
//!
//! `t` starts at 1 for `fit` and carries over between `partial_fit` calls
//! ([`FittedSGDClassifier::t`], scikit-learn's `t_`).
//!
//! # Stopping
//!
//! After each epoch, with `tol` set: the epoch's mean objective `Σᵢ (ℓᵢ + αR(w))/N` (the
//! per-sample loss at the moment the sample is seen, the penalty at the norms tracked during the
//! pass, as scikit-learn sums them) is compared with the best so far; `n_iter_no_change`
//! consecutive epochs above `best − tol` stop the fit. With `early_stopping`, a stratified
//! (classifier) or plain random `validation_fraction` of the rows is held out and the criterion
//! is its accuracy (classifier: the binary sub-problem's) or R² instead (higher is better,
//! `score < best + tol` counts as no improvement). `tol = None` runs exactly `max_iter` epochs.
//! Reaching `max_iter` is reported by `converged() == false`, not as an error.
//!
//! # Multiclass: one versus all
//!
//! With `K > 2` classes, `K` binary problems "class k (+1) against the rest (−1)" are solved
//! independently, all from the same step counter `t`, in parallel (one rayon task per class,
//! bitwise independent of the thread count); `n_iter` is their maximum and `t` advances by
//! `n_iter · N` as in scikit-learn (epochs are reported to `ndlearn_core::observe` for the
//! binary and regression fits only). The prediction is `argmax_k (w_kᵀx + b_k)`. Class `k`'s
//! problem weighs its positives by `class_weight[k]` and its negatives by 1; with two classes
//! there is one problem (class 1 positive) weighing class 0 by `class_weight[0]`.
//!
//! # Averaging
//!
//! `average = a > 0` keeps the running mean of the iterates from step `t = a` on (ASGD, Polyak
//! averaging; `a = 1` is scikit-learn's `average=True`), updated in O(d) per step with Bottou's
//! lazy trick; once `t − 1 ≥ a` the averaged weights are the model's `coef()` / `intercept()`.
//!
//! # Probabilities
//!
//! `predict_proba` exists for `LogLoss` (`σ(p)`, one-vs-all scores normalised to sum 1 for
//! `K > 2`) and `ModifiedHuber` (`(clip(p, −1, 1) + 1)/2`, normalised likewise, uniform when all
//! are 0); other losses give [`Error::InvalidParam`].
//!
//! # Agreement with scikit-learn
//!
//! With `shuffle = false` scikit-learn draws no random number, and this port performs the same
//! floating-point operations in the same order (dot products summed left to right in `f64`,
//! `wscale` kept and reset like scikit-learn's `WeightVector`, the same norms for the
//! objective): `tests/sgd_golden.rs` checks `coef_`, `intercept_`, `n_iter_` and `t_` against
//! scikit-learn 1.9.1 on breast cancer, iris (one-vs-all), diabetes, with every loss, penalty,
//! schedule, averaging, weights and `partial_fit` sequences. With `shuffle = true` the
//! permutation comes from `ndlearn_core::random` (a Fisher–Yates shuffle of the visiting order
//! before every epoch, stream `(seed, k)` for problem `k`), which cannot reproduce NumPy's
//! generator: fits of equal quality, deterministic per seed, but not the same numbers (the
//! same holds for the early-stopping split, drawn from stream `(seed, 2⁴⁰)`).
//! Documented departures: binary predictions use `sign(0) = +1` (class 1 at a score of exactly
//! 0; scikit-learn picks class 0); the early-stopping split and score are computed from the true
//! weights `wscale · v` (scikit-learn scores the unscaled `v` during training); with averaging,
//! the plain intercept is carried correctly between `partial_fit` calls of a classifier (recent
//! scikit-learn restarts from a stale one once the averaged model is exposed). Sparse input,
//! `warm_start` and the passive-aggressive schedules are not offered.
//!
//! # Complexity
//!
//! `O(max_iter · N · d)` time (times `K` for one-vs-all, spread over threads), `O(K·d)` memory
//! beyond the data (plus one copy of `X` when it is not row-major contiguous). Shuffled epochs
//! gather 64 rows at a time into a small buffer before updating on them, so that the
//! random-order reads overlap instead of stalling one by one (same arithmetic, same result).
//!
//! # Hyperparameters
//!
//! | field | default (classifier / regressor) | scikit-learn | valid |
//! |---|---|---|---|
//! | `loss` | `Hinge` / `SquaredError` | `loss` | regressor: regression losses |
//! | `penalty` | `L2` | `penalty` (`"l2"`, `"l1"`, `"elasticnet"`, `None`) | |
//! | `alpha` | 1e-4 | `alpha` | finite, ≥ 0; > 0 with `Optimal` |
//! | `l1_ratio` | 0.15 | `l1_ratio` | `[0, 1]` |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `max_iter` | 1000 | `max_iter` | ≥ 1 |
//! | `tol` | `Some(1e-3)` | `tol` | `None` or finite ≥ 0 |
//! | `shuffle` | `true` | `shuffle` | |
//! | `epsilon` | 0.1 | `epsilon` | finite, ≥ 0 |
//! | `seed` | 0 | `random_state` | any |
//! | `learning_rate` | `Optimal` / `InvScaling` | `learning_rate` | |
//! | `eta0` | 0.01 | `eta0` | finite, > 0 |
//! | `power_t` | 0.5 / 0.25 | `power_t` | finite, ≥ 0 |
//! | `early_stopping` | `false` | `early_stopping` | not with `partial_fit` |
//! | `validation_fraction` | 0.1 | `validation_fraction` | `(0, 1)` |
//! | `n_iter_no_change` | 5 | `n_iter_no_change` | ≥ 1 |
//! | `average` | 0 (off) | `average` (`True` = 1) | ≥ 0 |
//! | `class_weight` (classifier) | `None` | `class_weight` | `Custom`: one finite weight ≥ 0 per class; `Balanced` not with `partial_fit` |
//! | `n_classes` (classifier) | `None` | `classes` of the first `partial_fit` | ≥ 2 |
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for invalid hyperparameters or weights, [`Error::TooFewClasses`],
//! shape and non-finite input errors, and [`Error::NonFinite`] when the weights overflow during
//! training (scale the features or lower `eta0`).
//!
//! # References
//!
//! - Course notes: SGD with the `(1/N)Σ∇ℓ + λ∇R` gradient; hinge-loss primal SVM by
//!   (stochastic) subgradient; squared hinge; logistic loss; Huber loss (catalog O-02, S-03,
//!   L-07, L-08).
//! - S. Shalev-Shwartz, Y. Singer, N. Srebro, A. Cotter, "Pegasos: primal estimated
//!   sub-gradient solver for SVM", Mathematical Programming 127(1), 2011 (hinge loss by
//!   stochastic subgradient).
//! - L. Bottou, "Stochastic Gradient Descent Tricks", *Neural Networks: Tricks of the Trade*,
//!   2012 (the optimal schedule, the scaled weight vector, lazy averaging).
//! - Y. Tsuruoka, J. Tsujii, S. Ananiadou, "Stochastic gradient descent training for
//!   L1-regularized log-linear models with cumulative penalty", ACL 2009.
//! - T. Zhang, "Solving large scale linear prediction problems using stochastic gradient
//!   descent algorithms", ICML 2004 (modified Huber).
//!
//! ```
//! use ndlearn_core::{Fit, PartialFit, Predict};
//! use ndlearn_linear::{SGDClassifier, SGDRegressor, SgdLoss};
//!
//! let x = ndarray::array![[-2.0, 1.0], [-1.5, -0.5], [-1.0, 0.3], [1.0, 0.2], [1.5, -1.0], [2.0, 0.8]];
//! let y = ndarray::array![0usize, 0, 0, 1, 1, 1];
//! let clf = SGDClassifier::default().shuffle(false).fit(&x, &y)?;
//! assert_eq!(clf.predict(&x)?, y);
//!
//! // Streaming: one epoch per batch, the step counter carries over.
//! let est = SGDClassifier::default().loss(SgdLoss::LogLoss).n_classes(Some(2));
//! let mut model = est.partial_fit(None, &x.slice(ndarray::s![..3, ..]), &y.slice(ndarray::s![..3]))?;
//! model = est.partial_fit(Some(model), &x.slice(ndarray::s![3.., ..]), &y.slice(ndarray::s![3..]))?;
//! assert_eq!(model.t(), 7.0);
//!
//! let t = ndarray::array![1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
//! let reg = SGDRegressor::default().fit(&x, &t)?;
//! assert_eq!(reg.predict(&x)?.len(), 6);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

mod classifier;
mod engine;
mod regressor;

pub use classifier::{FittedSGDClassifier, SGDClassifier};
pub use regressor::{FittedSGDRegressor, SGDRegressor};

use crate::model::classes_from_scores;
use ndlearn_core::loss::Loss;
use ndlearn_core::validate::{check_at_least, check_non_negative, check_positive};
use ndlearn_core::{Error, Float, Result};

/// The loss of [`SGDClassifier`] / [`SGDRegressor`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SgdLoss {
    /// `max(0, 1 − yp)`: a linear SVM (the classifier's default).
    Hinge,
    /// `log(1 + e^p) − yp`, `y ∈ {0, 1}`: logistic regression.
    LogLoss,
    /// Quadratically smoothed hinge, linear below `yp = −1`.
    ModifiedHuber,
    /// `max(0, 1 − yp)²`.
    SquaredHinge,
    /// `max(0, −yp)`: the perceptron.
    Perceptron,
    /// `½(y − p)²`: least squares (the regressor's default).
    SquaredError,
    /// Huber with threshold `epsilon`.
    Huber,
    /// `max(0, |y − p| − epsilon)`.
    EpsilonInsensitive,
    /// `max(0, |y − p| − epsilon)²`.
    SquaredEpsilonInsensitive,
}

impl SgdLoss {
    fn is_regression(self) -> bool {
        matches!(
            self,
            SgdLoss::SquaredError
                | SgdLoss::Huber
                | SgdLoss::EpsilonInsensitive
                | SgdLoss::SquaredEpsilonInsensitive
        )
    }

    fn engine(self, epsilon: f64) -> Loss {
        match self {
            SgdLoss::Hinge => Loss::Hinge { threshold: 1.0 },
            SgdLoss::Perceptron => Loss::Hinge { threshold: 0.0 },
            SgdLoss::SquaredHinge => Loss::SquaredHinge { threshold: 1.0 },
            SgdLoss::ModifiedHuber => Loss::ModifiedHuber,
            SgdLoss::LogLoss => Loss::LogLoss,
            SgdLoss::SquaredError => Loss::SquaredError,
            SgdLoss::Huber => Loss::Huber { delta: epsilon },
            SgdLoss::EpsilonInsensitive => Loss::EpsilonInsensitive { epsilon },
            SgdLoss::SquaredEpsilonInsensitive => Loss::SquaredEpsilonInsensitive { epsilon },
        }
    }
}

/// The penalty `R(w)` (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SgdPenalty {
    /// No penalty.
    None,
    /// `½‖w‖²` (default).
    #[default]
    L2,
    /// `‖w‖₁` by truncated gradient.
    L1,
    /// `((1 − l1_ratio)/2)‖w‖² + l1_ratio‖w‖₁` (scikit-learn's `"elasticnet"`).
    #[cfg_attr(feature = "serde", serde(rename = "elasticnet"))]
    ElasticNet,
}

/// The learning-rate schedule `η(t)`: core's one schedule type (see the [module docs](self)).
pub use ndlearn_core::training::LearningRate;

/// The hyperparameters both estimators share, checked in one place.
struct CommonParams {
    alpha: f64,
    l1_ratio: f64,
    max_iter: usize,
    tol: Option<f64>,
    epsilon: f64,
    learning_rate: LearningRate,
    eta0: f64,
    power_t: f64,
    validation_fraction: f64,
    n_iter_no_change: usize,
}

impl CommonParams {
    fn validate(&self) -> Result<()> {
        check_non_negative("alpha", self.alpha)?;
        if self.learning_rate == LearningRate::Optimal && self.alpha <= 0.0 {
            return Err(Error::invalid_param(
                "alpha",
                "must be > 0 with learning_rate = Optimal (the schedule is 1/(alpha·t))",
            ));
        }
        ndlearn_core::validate::check_in_range("l1_ratio", self.l1_ratio, 0.0, 1.0)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        if let Some(t) = self.tol {
            check_non_negative("tol", t)?;
        }
        check_non_negative("epsilon", self.epsilon)?;
        check_positive("eta0", self.eta0)?;
        check_non_negative("power_t", self.power_t)?;
        check_positive("validation_fraction", self.validation_fraction)?;
        if self.validation_fraction >= 1.0 {
            return Err(Error::invalid_param(
                "validation_fraction",
                format!("must be in (0, 1); got {}", self.validation_fraction),
            ));
        }
        check_at_least("n_iter_no_change", self.n_iter_no_change, 1)?;
        Ok(())
    }
}

/// The rows of `x` as one row-major slice (borrowed when `x` already is).
fn row_major<F: Float>(x: &ndarray::ArrayRef2<F>) -> std::borrow::Cow<'_, [F]> {
    match x.as_slice() {
        Some(s) => std::borrow::Cow::Borrowed(s),
        None => std::borrow::Cow::Owned(x.iter().copied().collect()),
    }
}

/// Random task index of the validation split (the shuffles use the problem index `0..K`).
const SPLIT_TASK: u64 = 1 << 40;

/// The held-out rows for early stopping (core's split, with this crate's random task).
fn validation_mask(
    n: usize,
    strata: Option<&[usize]>,
    fraction: f64,
    seed: u64,
) -> Result<Vec<bool>> {
    ndlearn_core::training::validation_mask(n, strata, fraction, seed, SPLIT_TASK)
}
