//! The perceptron: Rosenblatt's learning rule in the course notes' three forms and scikit-learn's
//! `Perceptron` ([`Perceptron`], [`perceptron_loss`]).
//!
//! # Model
//!
//! A binary perceptron scores `s(x) = ⟨w, x⟩ + b` and predicts `sign(s(x))` with the course notes'
//! convention `sign(0) = +1`: class 1 when `s(x) ≥ 0`, class 0 otherwise. Inside the formulas the
//! labels are `y ∈ {−1, +1}` (class 1 ↦ `+1`, class 0 ↦ `−1`); the API takes `usize` classes.
//! With `K ≥ 3` classes the estimator is one-vs-rest, as scikit-learn's `Perceptron`: problem `k`
//! has `y = +1` for class `k` and `−1` for every other class, each problem is trained alone, and
//! the prediction is `argmax_k s_k(x)` (ties to the lower class). Coefficients are scikit-learn's
//! `coef_`: `1 × d` for two classes, `K × d` otherwise.
//!
//! # Perceptron loss
//!
//! ```text
//! L(w, b) = (1/N) Σᵢ max(0, −yᵢ(⟨w, xᵢ⟩ + b))
//! ```
//!
//! (mean over samples; [`perceptron_loss`]). It is convex, zero at every separating plane (and
//! at `w = 0, b = 0`), and not differentiable where `yᵢ sᵢ = 0`; the course notes take the subgradient
//! `−yᵢxᵢ·1{yᵢsᵢ < 0}` (0 at the kink).
//!
//! # Solvers ([`PerceptronSolver`])
//!
//! | solver | rule | order | stops when |
//! |---|---|---|---|
//! | `Classic` | `w, b = 0`; on a mistake `sign(s) ≠ y`: `w ← w + η y x`, `b ← b + η y` | rows in order | an epoch makes no mistake (`converged`), or `max_iter` epochs |
//! | `Threshold` | fire when `⟨w, x⟩ + b ≥ θ`; on a mistake `w ← w + η y x`, `b ← b + η y` | a fresh seeded permutation per epoch | as `Classic` |
//! | `Subgradient` | random `B`-subsets `I`, `M = {i ∈ I : yᵢsᵢ < 0}`: `w ← w + (τ/B) Σ_M yᵢxᵢ`, `b ← b + (τ/B) Σ_M yᵢ` | a seeded permutation per epoch cut into batches of `B` (the last may be shorter; `B` is then its length) | the training set has no error under `sign(0) = +1` after an epoch, or `max_iter` epochs |
//! | `Sgd` (default) | scikit-learn's `Perceptron`: SGD on the hinge loss with threshold 0, constant step `η`, update when `y s ≤ 0`, optional penalty | rows in order, or reshuffled every epoch (`shuffle`) | scikit-learn's rule: the epoch's mean objective failed `n_iter_no_change` times in a row to fall below the best by `tol` |
//!
//! `η` is `eta0` for every solver and `τ` of the subgradient method. `Classic` is the course
//! notes' PLA (Rosenblatt 1958; Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data* (2012),
//! §1.1.2) with the bias updated like the weight of a ones-column; from `w = 0` it is invariant
//! to `η` (every iterate scales with `η`), so only the predictions, not the solver, see `eta0`.
//! `Threshold` is the θ/η variant of the course notes; its fitted
//! [`intercept`](FittedPerceptron::intercept) is `b − θ`, so `decision_function` is
//! `⟨w, x⟩ + b − θ` and the predict rule stays `sign(0) = +1`. `Subgradient` is the course notes'
//! subgradient method on the perceptron loss (the perceptron criterion of Bishop, *Pattern
//! Recognition and Machine Learning* (2006), §4.1.7). Because every point sits at the kink
//! when `w = 0, b = 0` (loss 0, subgradient 0: a fixed point), it starts from `wⱼ ~ N(0, 1)`
//! (seeded), `b = 0`, which the course notes allow ("initialize `w₀ ∈ ℝᵈ`").
//!
//! ## Where `Classic` and scikit-learn differ
//!
//! - At a score of exactly 0: the course notes' `sign(0) = +1` makes `s = 0` a mistake only for
//!   `y = −1`; scikit-learn updates whenever `y s ≤ 0`, so at `s = 0` for both labels (in
//!   particular on the very first sample, where `w = 0`).
//! - Stopping: `Classic` stops after an epoch without mistakes; scikit-learn stops on its loss
//!   tolerance (`tol`, `n_iter_no_change`), possibly while mistakes remain, and otherwise runs
//!   `max_iter` epochs.
//! - Prediction at `s = 0`: class 1 here (all solvers), class 0 in scikit-learn
//!   (`decision_function > 0`). A model that reached zero training mistakes under scikit-learn's
//!   rule has no training point at `s = 0`, so the two rules agree on its training data.
//!
//! ## The `Sgd` solver, step by step (scikit-learn's `_plain_sgd` with `loss="perceptron"`)
//!
//! For each sample in the epoch's order: `p = ⟨w, x⟩ + b`, `z = y p`; loss `max(0, −z)` is added
//! to the epoch's objective (plus `α((1 − ρ)·½‖w‖² + ρ‖w‖₁)` with the current `w` when a penalty
//! is set, `ρ` = `l1_ratio`, 0 for L2 and 1 for L1); if `z ≤ 0` the update is `u = η y`, else 0.
//! Then, in this order: for L2 and elastic net `w ← max(0, 1 − (1 − ρ)ηα)·w`; if `u ≠ 0`,
//! `w ← w + u x` and `b ← b + u`; for L1 and elastic net the cumulative truncated-gradient L1
//! step (Tsuruoka et al., 2009). After the epoch, with `Ō` the mean objective of the epoch: if
//! `Ō > best − tol` a counter goes up, else it resets; `best ← min(best, Ō)`; the fit stops when
//! the counter reaches `n_iter_no_change`. With `tol = None` all `max_iter` epochs run. The
//! weights are kept as `scale · v` as scikit-learn does, so with `shuffle = false` the result
//! equals scikit-learn's to rounding (checked against scikit-learn 1.9.1, see
//! `tests/perceptron_golden.rs`). With `shuffle = true` the epochs are reshuffled by this
//! library's seeded generator, not numpy's, so the fit is scikit-learn's algorithm but not its
//! numbers. `converged()` is true when the tolerance rule stopped the fit or the last epoch made
//! no update.
//!
//! # Complexity
//!
//! `O(N d)` per epoch and problem (one problem for two classes, `K` otherwise); the
//! `Subgradient` solver adds one `O(N d)` pass per epoch for its stopping test. Memory `O(N d)`
//! for one `f64` copy of `X` (all solvers run in `f64`; the coefficients are stored as `F`).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid | used by |
//! |---|---|---|---|---|
//! | `solver` | `Sgd` | — (`Perceptron` is `Sgd`) | | |
//! | `penalty` | `None` | `penalty` | `None`, `L2`, `L1`, `ElasticNet` | `Sgd` |
//! | `alpha` | 1e-4 | `alpha` | finite, ≥ 0 | `Sgd` |
//! | `l1_ratio` | 0.15 | `l1_ratio` | `[0, 1]` | `Sgd` (elastic net) |
//! | `fit_intercept` | `true` | `fit_intercept` | | all |
//! | `max_iter` | 1000 | `max_iter` | ≥ 1 | all (epochs) |
//! | `tol` | `Some(1e-3)` | `tol` | `None` or finite ≥ 0 | `Sgd` |
//! | `shuffle` | `true` | `shuffle` | | `Sgd` |
//! | `eta0` | 1.0 | `eta0` | finite, > 0 | all (`η`, `τ`) |
//! | `n_iter_no_change` | 5 | `n_iter_no_change` | ≥ 1 | `Sgd` |
//! | `seed` | 0 | `random_state` | | `Sgd` (shuffle), `Threshold`, `Subgradient` |
//! | `theta` | 0.0 | — | finite | `Threshold` |
//! | `batch_size` | 1 | — | ≥ 1 | `Subgradient` |
//!
//! Problem `k` of a one-vs-rest fit draws from `ndlearn_core::random::stream(seed, k)`, so results
//! do not depend on threads. Not supported: scikit-learn's `class_weight`, `sample_weight`,
//! `early_stopping`, `warm_start` and `partial_fit`.
//!
//! # Errors
//!
//! [`Error::TooFewClasses`] for fewer than two classes, [`Error::InvalidParam`] for invalid
//! hyperparameters, shape / non-finite input errors, and [`Error::NonFinite`] when the weights
//! overflow during training (rescale the data; scikit-learn raises there too). Not reaching the
//! stopping rule is not an error: see [`FittedPerceptron::converged`] (always `false` on data
//! that are not linearly separable for `Classic`, `Threshold` and `Subgradient`, e.g. XOR).
//!
//! # References
//!
//! - Course notes: PLA (`sign(0) = +1`), the θ/η variant with random samples, XOR, the
//!   perceptron loss, its subgradient, the batch method and its fixed points, PLA from `w = 0`
//!   with zero errors on separable data; catalog L-01 (CL-066, CL-067), worked example TV17.
//! - Y. S. Abu-Mostafa, M. Magdon-Ismail, H.-T. Lin, *Learning from Data*, AMLBook 2012,
//!   §1.1.2 (PLA); C. M. Bishop, *Pattern Recognition and Machine Learning*, Springer 2006,
//!   §4.1.7 (perceptron criterion); M. Minsky, S. Papert, *Perceptrons*, MIT Press 1969 (XOR).
//! - F. Rosenblatt, "The perceptron: a probabilistic model for information storage and
//!   organization in the brain", Psychological Review 65(6), 1958.
//! - Y. Tsuruoka, J. Tsujii, S. Ananiadou, "Stochastic gradient descent training for
//!   L1-regularized log-linear models with cumulative penalty", ACL 2009 (the L1 step of `Sgd`).
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_linear::{Perceptron, PerceptronSolver};
//!
//! let data = ndlearn_datasets::iris();                  // 3 classes: one-vs-rest
//! let y = data.y_classes().expect("labels");
//! let fit = Perceptron::default().shuffle(false).fit(data.x(), y)?;
//! assert_eq!(fit.coef().dim(), (3, 4));
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(a, b)| a == b).count();
//! assert!(acc > 75);
//!
//! // The course notes' PLA on separable data: no training error once converged.
//! use ndlearn_core::ndarray::array;
//! let x = array![[1.0_f64, 2.0], [2.0, 3.0], [-1.0, -1.5], [-2.0, -1.0]];
//! let y = array![1usize, 1, 0, 0];
//! let pla = Perceptron::default().solver(PerceptronSolver::Classic).fit(&x, &y)?;
//! assert!(pla.converged());
//! assert_eq!(pla.predict(&x)?, y);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use crate::model::{check_scores, classes_from_scores};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::DecisionFunction;
use ndlearn_core::Estimator;
use ndlearn_core::observe::{self, Progress};
use ndlearn_core::random::{self, Rng};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::validate::{check_classification_input, check_predict_input};
use ndlearn_core::{Error, FeatureImportances, Fit, Float, Labels, Predict, Result};

/// The learning rule of [`Perceptron`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PerceptronSolver {
    /// scikit-learn's `Perceptron` (SGD on the hinge loss with threshold 0).
    #[default]
    Sgd,
    /// The course notes' PLA: `w = 0`, rows in order, update on `sign(s) ≠ y` with `sign(0) = +1`.
    Classic,
    /// The course notes' θ/η variant: fire when `⟨w, x⟩ + b ≥ θ`, random sample order.
    Threshold,
    /// The course notes' stochastic subgradient method on the perceptron loss (batches of `B`).
    Subgradient,
}

/// The penalty of the [`PerceptronSolver::Sgd`] solver (scikit-learn's `penalty`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PerceptronPenalty {
    /// No penalty (scikit-learn's default for `Perceptron`).
    #[default]
    None,
    /// `α ½‖w‖²` (weight decay `w ← (1 − ηα) w` per sample).
    L2,
    /// `α ‖w‖₁` (cumulative truncated gradient).
    L1,
    /// `α((1 − ρ)½‖w‖² + ρ‖w‖₁)`, `ρ = l1_ratio`.
    ElasticNet,
}

/// A linear perceptron classifier (scikit-learn's `Perceptron` and the course notes' variants).
/// See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Perceptron {
    /// The learning rule (default `Sgd`, scikit-learn's).
    pub solver: PerceptronSolver,
    /// Penalty of the `Sgd` solver (default none).
    pub penalty: PerceptronPenalty,
    /// Penalty strength `α ≥ 0` of the `Sgd` solver (default 1e-4).
    pub alpha: f64,
    /// Elastic-net mixing `ρ ∈ [0, 1]` (default 0.15).
    pub l1_ratio: f64,
    /// Learn a bias `b` (default `true`).
    pub fit_intercept: bool,
    /// Maximum number of epochs (default 1000).
    pub max_iter: usize,
    /// Loss tolerance of the `Sgd` stopping rule; `None` runs all epochs (default `Some(1e-3)`).
    pub tol: Option<f64>,
    /// Reshuffle the rows every epoch in the `Sgd` solver (default `true`).
    pub shuffle: bool,
    /// Learning rate `η` (step `τ` of the subgradient method), `> 0` (default 1.0).
    pub eta0: f64,
    /// Epochs without improvement before the `Sgd` solver stops (default 5).
    pub n_iter_no_change: usize,
    /// Seed of every random choice (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Firing threshold `θ` of the `Threshold` solver (default 0.0).
    pub theta: f64,
    /// Batch size `B` of the `Subgradient` solver (default 1).
    pub batch_size: usize,
}

impl Default for Perceptron {
    fn default() -> Self {
        Self {
            solver: PerceptronSolver::Sgd,
            penalty: PerceptronPenalty::None,
            alpha: 1e-4,
            l1_ratio: 0.15,
            fit_intercept: true,
            max_iter: 1000,
            tol: Some(1e-3),
            shuffle: true,
            eta0: 1.0,
            n_iter_no_change: 5,
            seed: 0,
            theta: 0.0,
            batch_size: 1,
        }
    }
}

impl Perceptron {
    /// A perceptron with the given learning rule and the other settings default.
    pub fn new(solver: PerceptronSolver) -> Self {
        Self {
            solver,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the solver.
        solver: PerceptronSolver,
        /// Sets the penalty (`Sgd` only).
        penalty: PerceptronPenalty,
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `l1_ratio`.
        l1_ratio: f64,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets `max_iter` (epochs).
        max_iter: usize,
        /// Sets `tol` (`None`: no loss-based stop).
        tol: Option<f64>,
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `eta0`.
        eta0: f64,
        /// Sets `n_iter_no_change`.
        n_iter_no_change: usize,
        /// Sets `seed`.
        seed: u64,
        /// Sets `theta`.
        theta: f64,
        /// Sets `batch_size`.
        batch_size: usize,
    }

    /// One binary problem (`y ∈ {−1, +1}`) with random stream `task`.
    fn fit_binary(&self, x: &Dense, y: &[f64], task: u64) -> Result<Binary> {
        let mut rng = random::stream(self.seed, task);
        let out = match self.solver {
            PerceptronSolver::Classic => self.pla(x, y, 0.0, None),
            PerceptronSolver::Threshold => self.pla(x, y, self.theta, Some(&mut rng)),
            PerceptronSolver::Subgradient => self.subgradient(x, y, &mut rng),
            PerceptronSolver::Sgd => self.sgd(x, y, &mut rng),
        }?;
        Ok(out)
    }

    /// `Classic` (`rng = None`: rows in order, `θ = 0`) and `Threshold`.
    fn pla(&self, x: &Dense, y: &[f64], theta: f64, mut rng: Option<&mut Rng>) -> Result<Binary> {
        let eta = self.eta0;
        let mut w = vec![0.0; x.d];
        let mut b = 0.0;
        let mut order: Vec<usize> = (0..x.n).collect();
        let mut mistakes = Vec::new();
        let mut converged = false;
        for epoch in 1..=self.max_iter {
            if let Some(r) = rng.as_deref_mut() {
                random::shuffle(r, &mut order);
            }
            let mut m = 0usize;
            for &i in &order {
                let xi = x.row(i);
                let fire = dot(&w, xi) + b >= theta;
                let yi = y[i];
                if fire != (yi > 0.0) {
                    let step = eta * yi;
                    for (wj, &xj) in w.iter_mut().zip(xi) {
                        *wj += step * xj;
                    }
                    if self.fit_intercept {
                        b += step;
                    }
                    m += 1;
                }
            }
            mistakes.push(m);
            check_weights(&w, b)?;
            if m == 0 {
                converged = true;
                break;
            }
            if report(epoch, self.max_iter, m) {
                break;
            }
        }
        Ok(Binary {
            w,
            b: b - theta,
            n_iter: mistakes.len(),
            converged,
            mistakes,
        })
    }

    /// The course notes' stochastic subgradient method on the perceptron loss.
    fn subgradient(&self, x: &Dense, y: &[f64], rng: &mut Rng) -> Result<Binary> {
        let tau = self.eta0;
        let mut w: Vec<f64> = (0..x.d)
            .map(|_| random::standard_normal::<f64>(rng))
            .collect();
        let mut b = 0.0;
        let mut order: Vec<usize> = (0..x.n).collect();
        let mut gw = vec![0.0; x.d];
        let mut mistakes = Vec::new();
        let mut converged = false;
        for epoch in 1..=self.max_iter {
            random::shuffle(rng, &mut order);
            let mut m = 0usize;
            for batch in order.chunks(self.batch_size) {
                gw.iter_mut().for_each(|g| *g = 0.0);
                let mut gb = 0.0;
                for &i in batch {
                    let xi = x.row(i);
                    let yi = y[i];
                    if yi * (dot(&w, xi) + b) < 0.0 {
                        for (g, &xj) in gw.iter_mut().zip(xi) {
                            *g += yi * xj;
                        }
                        gb += yi;
                        m += 1;
                    }
                }
                let step = tau / batch.len() as f64;
                for (wj, g) in w.iter_mut().zip(&gw) {
                    *wj += step * g;
                }
                if self.fit_intercept {
                    b += step * gb;
                }
            }
            mistakes.push(m);
            check_weights(&w, b)?;
            let errors = (0..x.n)
                .filter(|&i| (dot(&w, x.row(i)) + b >= 0.0) != (y[i] > 0.0))
                .count();
            if errors == 0 {
                converged = true;
                break;
            }
            if report(epoch, self.max_iter, errors) {
                break;
            }
        }
        Ok(Binary {
            w,
            b,
            n_iter: mistakes.len(),
            converged,
            mistakes,
        })
    }

    /// scikit-learn's `_plain_sgd` for `loss = "perceptron"`, `learning_rate = "constant"`.
    fn sgd(&self, x: &Dense, y: &[f64], rng: &mut Rng) -> Result<Binary> {
        let (n, d) = (x.n, x.d);
        let eta = self.eta0;
        let alpha = self.alpha;
        let (decay, l1) = match self.penalty {
            PerceptronPenalty::None => (false, None),
            PerceptronPenalty::L2 => (true, None),
            PerceptronPenalty::L1 => (false, Some(1.0)),
            PerceptronPenalty::ElasticNet => (true, Some(self.l1_ratio)),
        };
        let rho = match self.penalty {
            PerceptronPenalty::L2 => 0.0,
            PerceptronPenalty::L1 => 1.0,
            _ => self.l1_ratio,
        };
        let penalised = self.penalty != PerceptronPenalty::None;
        let tol = self.tol.unwrap_or(f64::NEG_INFINITY);
        let mut w = ScaledWeights::new(d);
        let mut q = vec![0.0; d];
        let mut u = 0.0;
        let mut b = 0.0;
        let mut order: Vec<usize> = (0..n).collect();
        let mut best = f64::INFINITY;
        let mut no_improvement = 0usize;
        let mut mistakes = Vec::new();
        let mut stopped = false;
        for epoch in 1..=self.max_iter {
            if self.shuffle {
                random::shuffle(rng, &mut order);
            }
            let mut objective = 0.0;
            let mut m = 0usize;
            for &i in &order {
                let xi = x.row(i);
                let yi = y[i];
                let p = w.dot(xi) + b;
                let z = p * yi;
                objective += if z <= 0.0 { 0.0 - z } else { 0.0 };
                if penalised {
                    let norm = w.sq_norm.sqrt();
                    objective += alpha * ((1.0 - rho) * 0.5 * (norm * norm) + rho * w.l1_norm);
                }
                let dloss = if z <= 0.0 { -yi } else { 0.0 };
                let update = -eta * dloss;
                if decay {
                    w.scale((1.0 - (1.0 - rho) * eta * alpha).max(0.0));
                }
                if update != 0.0 {
                    w.add(xi, update);
                    m += 1;
                    if self.fit_intercept {
                        b += update;
                    }
                }
                if let Some(ratio) = l1 {
                    u += ratio * eta * alpha;
                    w.l1_step(&mut q, u);
                }
            }
            mistakes.push(m);
            if !b.is_finite() || w.v.iter().any(|v| !v.is_finite()) {
                return Err(overflow());
            }
            let mean = objective / n as f64;
            if tol > f64::NEG_INFINITY && mean > best - tol {
                no_improvement += 1;
            } else {
                no_improvement = 0;
            }
            if mean < best {
                best = mean;
            }
            if no_improvement >= self.n_iter_no_change {
                stopped = true;
                break;
            }
            if report(epoch, self.max_iter, m) {
                break;
            }
        }
        let converged = stopped || mistakes.last().is_some_and(|&m| m == 0);
        Ok(Binary {
            w: w.into_vec(),
            b,
            n_iter: mistakes.len(),
            converged,
            mistakes,
        })
    }
}

impl ndlearn_core::Estimator for Perceptron {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field.
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{
            check_at_least, check_in_range, check_non_negative, check_positive,
        };
        check_non_negative("alpha", self.alpha)?;
        check_in_range("l1_ratio", self.l1_ratio, 0.0, 1.0)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        if let Some(t) = self.tol {
            check_non_negative("tol", t)?;
        }
        check_positive("eta0", self.eta0)?;
        check_at_least("n_iter_no_change", self.n_iter_no_change, 1)?;
        if !self.theta.is_finite() {
            return Err(Error::invalid_param(
                "theta",
                format!("must be finite, got {}", self.theta),
            ));
        }
        check_at_least("batch_size", self.batch_size, 1)?;
        Ok(())
    }
}

impl<F: Float> Fit<F> for Perceptron {
    type Target = Labels;
    type Model = FittedPerceptron<F>;

    /// Fits one binary perceptron (two classes) or `K` one-vs-rest perceptrons (labels `0..K`,
    /// at least two distinct); see the [module docs](self).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<FittedPerceptron<F>> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 2, "Perceptron::fit")?;
        let dense = Dense::new(x);
        let problems = if n_classes == 2 { 1 } else { n_classes };
        let mut coef = Array2::zeros((problems, dense.d));
        let mut intercept = Array1::zeros(problems);
        let mut n_iter = 0;
        let mut converged = true;
        let mut n_mistakes = Vec::with_capacity(problems);
        for k in 0..problems {
            let positive = if problems == 1 { 1 } else { k };
            let yk: Vec<f64> = y
                .iter()
                .map(|&c| if c == positive { 1.0 } else { -1.0 })
                .collect();
            let fit = self.fit_binary(&dense, &yk, k as u64)?;
            for (c, &v) in coef.row_mut(k).iter_mut().zip(&fit.w) {
                *c = F::cast(v);
            }
            intercept[k] = F::cast(fit.b);
            n_iter = n_iter.max(fit.n_iter);
            converged &= fit.converged;
            n_mistakes.push(fit.mistakes);
        }
        Ok(FittedPerceptron {
            params: *self,
            coef,
            intercept,
            n_classes,
            n_iter,
            converged,
            n_mistakes,
        })
    }
}

/// A fitted [`Perceptron`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPerceptron<F: Float> {
    params: Perceptron,
    coef: Array2<F>,
    intercept: Array1<F>,
    n_classes: usize,
    n_iter: usize,
    converged: bool,
    n_mistakes: Vec<Vec<usize>>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedPerceptron<F> {
    fn n_features_in(&self) -> usize {
        self.coef.ncols()
    }
}

impl<F: Float> FittedPerceptron<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &Perceptron {
        &self.params
    }
    /// Coefficients: `1 × d` for two classes (class 1 against class 0), `K × d` otherwise
    /// (scikit-learn's `coef_`).
    pub fn coef(&self) -> &Array2<F> {
        &self.coef
    }
    /// Intercepts, length 1 or `K` (scikit-learn's `intercept_`; `b − θ` for the `Threshold`
    /// solver, 0 without `fit_intercept` except for that `−θ`).
    pub fn intercept(&self) -> &Array1<F> {
        &self.intercept
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Epochs run (the largest over the one-vs-rest problems; scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether every problem met its stopping rule (see the [module docs](self)): an epoch
    /// without mistakes for `Classic` / `Threshold`, no training error for `Subgradient`, the
    /// tolerance rule or an epoch without update for `Sgd`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Per problem (one, or one per class for one-vs-rest), the number of updates made in each
    /// epoch (misclassified points met in the epoch's batches for `Subgradient`).
    pub fn n_mistakes(&self) -> &[Vec<usize>] {
        &self.n_mistakes
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedPerceptron<F> {
    /// Scores `⟨w_k, x⟩ + b_k`: `N × 1` for two classes (the score of class 1), `N × K`
    /// otherwise. Each score is summed over the features in order, as during training, so a
    /// training point's score is the one the learning rule saw (`f64`).
    ///
    /// # Errors
    /// A feature count different from the fit, or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.coef.ncols(),
            "decision_function: number of features",
        )?;
        // X Wᵀ through the portable GEMM, then the intercepts
        let mut out = ndlearn_core::linalg::matmul(x, &self.coef.t());
        for mut o in out.rows_mut() {
            o += &self.intercept;
        }
        Ok(out)
    }
}

impl<F: Float> Predict<F> for FittedPerceptron<F> {
    type Output = Array1<usize>;

    /// Two classes: class 1 iff the score is `≥ 0` (`sign(0) = +1`); otherwise the class of the
    /// largest score (ties to the lower class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(classes_from_scores(&self.decision_function(x)?))
    }
}

impl<F: Float> FeatureImportances<F> for FittedPerceptron<F> {
    /// `Σ_k |w_kj|` over the coefficient rows.
    fn feature_importances(&self) -> Array1<F> {
        crate::model::abs_column_sums(&self.coef)
    }
}

/// The course notes' perceptron loss `(1/N) Σᵢ max(0, −yᵢ sᵢ)` of scores `s` for labels
/// `y ∈ {−1, +1}` (catalog TV17: `y = −1, s = −2` gives 0; `y = 1, s = −2` gives 2).
///
/// # Errors
/// [`Error::ShapeMismatch`] for lengths that differ or are 0, [`Error::InvalidParam`] for a label
/// other than `±1`, [`Error::NonFinite`] for a non-finite score.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_linear::perceptron_loss;
///
/// assert_eq!(perceptron_loss(&array![-1.0_f64], &array![-2.0])?, 0.0);
/// assert_eq!(perceptron_loss(&array![1.0_f64], &array![-2.0])?, 2.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn perceptron_loss<F: Float>(y: &ArrayRef1<F>, scores: &ArrayRef1<F>) -> Result<F> {
    if y.len() != scores.len() || y.is_empty() {
        return Err(Error::ShapeMismatch {
            context: "perceptron_loss",
            expected: format!("two non-empty arrays of the same length ({})", y.len()),
            found: format!("{} scores", scores.len()),
        });
    }
    ndlearn_core::validate::check_finite_1d(scores, "scores")?;
    let mut total = F::zero();
    for (&yi, &si) in y.iter().zip(scores.iter()) {
        if yi != F::one() && yi != -F::one() {
            return Err(Error::invalid_param(
                "y",
                format!("labels must be -1 or +1, got {}", yi.to_f64_lossless()),
            ));
        }
        total += (-(yi * si)).max(F::zero());
    }
    Ok(total / F::cast(y.len()))
}

// ---------------------------------------------------------------------------------------------
// Private helpers

/// `X` as a row-major `f64` buffer.
struct Dense {
    data: Vec<f64>,
    n: usize,
    d: usize,
}

impl Dense {
    fn new<F: Float>(x: &ArrayRef2<F>) -> Self {
        let (n, d) = x.dim();
        let mut data = Vec::with_capacity(n * d);
        for row in x.rows() {
            data.extend(row.iter().map(|v| v.to_f64_lossless()));
        }
        Self { data, n, d }
    }
    fn row(&self, i: usize) -> &[f64] {
        &self.data[i * self.d..(i + 1) * self.d]
    }
}

/// The result of one binary problem.
struct Binary {
    w: Vec<f64>,
    b: f64,
    n_iter: usize,
    converged: bool,
    mistakes: Vec<usize>,
}

/// `w = scale · v`, with the norms scikit-learn's `WeightVector` tracks (updated by `add` and
/// `scale` only, as there).
struct ScaledWeights {
    v: Vec<f64>,
    scale: f64,
    sq_norm: f64,
    l1_norm: f64,
}

impl ScaledWeights {
    fn new(d: usize) -> Self {
        Self {
            v: vec![0.0; d],
            scale: 1.0,
            sq_norm: 0.0,
            l1_norm: 0.0,
        }
    }
    fn dot(&self, x: &[f64]) -> f64 {
        dot(&self.v, x) * self.scale
    }
    /// `w ← w + c x`.
    fn add(&mut self, x: &[f64], c: f64) {
        let step = c / self.scale;
        let (mut l2, mut l1) = (0.0, 0.0);
        for (vj, &xj) in self.v.iter_mut().zip(x) {
            *vj += xj * step;
            l2 += *vj * *vj;
            l1 += vj.abs();
        }
        self.sq_norm = l2 * (self.scale * self.scale);
        self.l1_norm = l1 * self.scale;
    }
    /// `w ← c w`; folds the scale into `v` when it falls below 1e-9.
    fn scale(&mut self, c: f64) {
        self.scale *= c;
        self.sq_norm *= c * c;
        self.l1_norm *= c.abs();
        if self.scale < 1e-9 {
            self.reset();
        }
    }
    fn reset(&mut self) {
        let s = self.scale;
        self.v.iter_mut().for_each(|v| *v *= s);
        self.scale = 1.0;
    }
    /// The cumulative L1 step with total penalty `u` so far and applied amounts `q`.
    fn l1_step(&mut self, q: &mut [f64], u: f64) {
        let s = self.scale;
        for (vj, qj) in self.v.iter_mut().zip(q.iter_mut()) {
            let z = *vj;
            if s * z > 0.0 {
                *vj = (*vj - (u + *qj) / s).max(0.0);
            } else if s * z < 0.0 {
                *vj = (*vj + (u - *qj) / s).min(0.0);
            }
            *qj += s * (*vj - z);
        }
    }
    fn into_vec(mut self) -> Vec<f64> {
        self.reset();
        self.v
    }
}

fn dot(w: &[f64], x: &[f64]) -> f64 {
    let mut s = 0.0;
    for (&a, &b) in w.iter().zip(x) {
        s += a * b;
    }
    s
}

fn overflow() -> Error {
    Error::NonFinite {
        context: "perceptron weights (they overflowed: rescale the data or lower eta0)",
        row: 0,
        col: 0,
    }
}

fn check_weights(w: &[f64], b: f64) -> Result<()> {
    if b.is_finite() && w.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(overflow())
    }
}

/// Reports an epoch; `true` when an observer asks to stop.
fn report(epoch: usize, max_iter: usize, mistakes: usize) -> bool {
    observe::report(
        &Progress::new("perceptron", epoch)
            .max_iter(max_iter)
            .criterion(mistakes as f64),
    )
    .is_stop()
}

impl<F: Float> CheckModel for FittedPerceptron<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedPerceptron");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 2)?;
        let rows = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        check_scores(&c, &self.coef, &self.intercept, rows)?;
        c.len("n_mistakes", self.n_mistakes.len(), rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = separable();
        let mut fit = Perceptron::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.intercept = Array1::zeros(0);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn separable() -> (Array2<f64>, Array1<usize>) {
        // Class 1 above the line x₂ = 0.5 x₁ + 0.2, class 0 below (margin ≥ 0.3).
        let x = array![
            [0.0, 1.0],
            [1.0, 1.5],
            [2.0, 2.0],
            [-1.0, 0.5],
            [0.5, 1.2],
            [0.0, -0.5],
            [1.0, 0.0],
            [2.0, 0.6],
            [-1.0, -0.8],
            [3.0, 1.0]
        ];
        let y = array![1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
        (x, y)
    }

    fn xor() -> (Array2<f64>, Array1<usize>) {
        (
            array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]],
            array![0, 1, 1, 0],
        )
    }

    fn all_solvers() -> [PerceptronSolver; 4] {
        [
            PerceptronSolver::Classic,
            PerceptronSolver::Threshold,
            PerceptronSolver::Subgradient,
            PerceptronSolver::Sgd,
        ]
    }

    #[test]
    fn invalid_hyperparameters_name_the_field() {
        let (x, y) = separable();
        let cases: [(Perceptron, &str); 9] = [
            (Perceptron::default().alpha(-1.0), "alpha"),
            (Perceptron::default().alpha(f64::NAN), "alpha"),
            (Perceptron::default().l1_ratio(1.5), "l1_ratio"),
            (Perceptron::default().max_iter(0), "max_iter"),
            (Perceptron::default().tol(Some(-1.0)), "tol"),
            (Perceptron::default().eta0(0.0), "eta0"),
            (
                Perceptron::default().n_iter_no_change(0),
                "n_iter_no_change",
            ),
            (Perceptron::default().theta(f64::INFINITY), "theta"),
            (Perceptron::default().batch_size(0), "batch_size"),
        ];
        for (est, field) in cases {
            match Fit::<f64>::fit(&est, &x, &y) {
                Err(Error::InvalidParam { name, .. }) => assert_eq!(name, field),
                other => panic!("{field}: expected InvalidParam, got {other:?}"),
            }
        }
        assert!(matches!(
            Perceptron::default().fit(&x, &Array1::from_elem(10, 1)),
            Err(Error::TooFewClasses { .. })
        ));
    }

    #[test]
    fn notes_loss_test_vectors_tv17() {
        // Course notes' example: y = −1, s = −2 ⇒ −y·s = −2 ⇒ loss 0; y = 1, s = −2 ⇒ loss 2.
        assert_eq!(
            perceptron_loss(&array![-1.0], &array![-2.0]).expect("test"),
            0.0
        );
        assert_eq!(
            perceptron_loss(&array![1.0], &array![-2.0]).expect("test"),
            2.0
        );
        // Both together: the mean (0 + 2) / 2.
        assert_eq!(
            perceptron_loss(&array![-1.0, 1.0], &array![-2.0, -2.0]).expect("test"),
            1.0
        );
        // At the kink the loss is 0 for either label.
        assert_eq!(
            perceptron_loss(&array![-1.0f32, 1.0], &array![0.0, 0.0]).expect("test"),
            0.0
        );
        assert!(perceptron_loss(&array![0.0], &array![1.0]).is_err());
        assert!(perceptron_loss(&array![1.0, 1.0], &array![1.0]).is_err());
        assert!(perceptron_loss(&array![1.0], &array![f64::NAN]).is_err());
    }

    #[test]
    fn classic_pla_hand_checked() {
        // Rows in order from w = 0 (TV24), b = 0, η = 1:
        //  x₁ = (1, 1), y = +1: s = 0 ⇒ sign(0) = +1, correct (no update; scikit-learn would
        //  update here).
        //  x₂ = (−1, 0), y = −1: s = 0 ⇒ +1, mistake: w = (1, 0), b = −1.
        //  x₃ = (2, 1), y = +1: s = 2 − 1 = 1 ≥ 0, correct.
        // Epoch 2: s₁ = 0 ⇒ +1 ok; s₂ = −2 ok; s₃ = 1 ok ⇒ converged after 2 epochs.
        let x = array![[1.0, 1.0], [-1.0, 0.0], [2.0, 1.0]];
        let y = array![1usize, 0, 1];
        let fit = Perceptron::new(PerceptronSolver::Classic)
            .fit(&x, &y)
            .expect("test");
        assert_eq!(fit.coef(), &array![[1.0, 0.0]]);
        assert_eq!(fit.intercept(), &array![-1.0]);
        assert_eq!(fit.n_iter(), 2);
        assert!(fit.converged());
        assert_eq!(fit.n_mistakes(), &[vec![1, 0]]);
        // x₁ has score exactly 0 and is class 1 by sign(0) = +1.
        assert_eq!(fit.decision_function(&x).expect("test")[[0, 0]], 0.0);
        assert_eq!(fit.predict(&x).expect("test"), y);
        // Without a bias (ones-column absent) the first mistake gives w = (1, 0) as well.
        let nob = Perceptron::new(PerceptronSolver::Classic)
            .fit_intercept(false)
            .fit(&x, &y)
            .expect("test");
        assert_eq!(nob.intercept(), &array![0.0]);
        assert_eq!(nob.coef(), &array![[1.0, 0.0]]);
    }

    #[test]
    fn classic_is_invariant_to_eta() {
        let (x, y) = separable();
        let a = Perceptron::new(PerceptronSolver::Classic)
            .fit(&x, &y)
            .expect("test");
        let b = Perceptron::new(PerceptronSolver::Classic)
            .eta0(0.25)
            .fit(&x, &y)
            .expect("test");
        assert_eq!(a.coef().mapv(|v| v * 0.25), *b.coef());
        assert_eq!(a.n_mistakes(), b.n_mistakes());
    }

    #[test]
    fn every_solver_separates_separable_data() {
        // Catalog L-01 / property 23: zero training errors on separable data.
        let (x, y) = separable();
        for solver in all_solvers() {
            let fit = Perceptron::new(solver)
                .shuffle(false)
                .tol(None)
                .max_iter(2000)
                .seed(3)
                .fit(&x, &y)
                .expect("test");
            assert!(fit.converged(), "{solver:?}");
            assert_eq!(fit.predict(&x).expect("test"), y, "{solver:?}");
            // A separating plane is a fixed point: the perceptron loss and so its subgradient
            // vanish there (as the course notes observe), and the epoch-wise rules made no
            // update in their last epoch (the subgradient method tests after its epoch's
            // updates).
            assert_eq!(perceptron_scores_loss(&fit, &x, &y), 0.0, "{solver:?}");
            if solver != PerceptronSolver::Subgradient {
                assert_eq!(*fit.n_mistakes()[0].last().expect("test"), 0, "{solver:?}");
            }
        }
        let mini = Perceptron::new(PerceptronSolver::Subgradient)
            .batch_size(4)
            .eta0(0.5)
            .fit(&x, &y)
            .expect("test");
        assert!(mini.converged());
        assert_eq!(mini.predict(&x).expect("test"), y);
        assert!(perceptron_scores_loss(&mini, &x, &y) == 0.0);
    }

    fn perceptron_scores_loss(
        fit: &FittedPerceptron<f64>,
        x: &Array2<f64>,
        y: &Array1<usize>,
    ) -> f64 {
        let s = fit.decision_function(x).expect("test").column(0).to_owned();
        let ypm = y.mapv(|c| if c == 1 { 1.0 } else { -1.0 });
        perceptron_loss(&ypm, &s).expect("test")
    }

    #[test]
    fn xor_is_not_learned() {
        // A single perceptron cannot emulate XOR (the course notes; Minsky & Papert 1969).
        let (x, y) = xor();
        for solver in all_solvers() {
            let fit = Perceptron::new(solver)
                .tol(None)
                .max_iter(50)
                .fit(&x, &y)
                .expect("test");
            assert!(!fit.converged(), "{solver:?}");
            assert_eq!(fit.n_iter(), 50, "{solver:?}");
            let right = fit
                .predict(&x)
                .expect("test")
                .iter()
                .zip(&y)
                .filter(|(a, b)| a == b)
                .count();
            assert!(right < 4, "{solver:?}");
        }
    }

    #[test]
    fn threshold_variant_uses_theta() {
        // Without a bias, θ shifts the plane: the fitted intercept is −θ.
        let x = array![[2.0], [3.0], [0.5], [0.2]];
        let y = array![1usize, 1, 0, 0];
        let fit = Perceptron::new(PerceptronSolver::Threshold)
            .theta(1.0)
            .fit_intercept(false)
            .seed(7)
            .fit(&x, &y)
            .expect("test");
        assert!(fit.converged());
        assert_eq!(fit.intercept(), &array![-1.0]);
        assert_eq!(fit.predict(&x).expect("test"), y);
        // The learnt w satisfies w·x ≥ θ exactly on class 1.
        let w = fit.coef()[[0, 0]];
        assert!(w * 2.0 >= 1.0 && w * 0.5 < 1.0);
    }

    #[test]
    fn seeded_solvers_are_deterministic() {
        let (x, y) = separable();
        for solver in [
            PerceptronSolver::Threshold,
            PerceptronSolver::Subgradient,
            PerceptronSolver::Sgd,
        ] {
            let est = Perceptron::new(solver).seed(11).batch_size(3);
            let a = est.fit(&x, &y).expect("test");
            let b = est.fit(&x, &y).expect("test");
            assert_eq!(a, b, "{solver:?}");
        }
        // A different seed gives a different start for the subgradient method.
        let a = Perceptron::new(PerceptronSolver::Subgradient)
            .seed(1)
            .fit(&x, &y)
            .expect("test");
        let b = Perceptron::new(PerceptronSolver::Subgradient)
            .seed(2)
            .fit(&x, &y)
            .expect("test");
        assert_ne!(a.coef(), b.coef());
    }

    #[test]
    fn one_vs_rest_shapes_and_f32() {
        let x = array![
            [0.0f32, 0.1],
            [0.3, -0.2],
            [-0.2, 0.2],
            [4.0, 4.1],
            [4.3, 3.8],
            [3.7, 4.2],
            [-4.0, 4.0],
            [-4.2, 3.7],
            [-3.8, 4.4]
        ];
        let y = array![0usize, 0, 0, 1, 1, 1, 2, 2, 2];
        for solver in all_solvers() {
            let fit = Perceptron::new(solver)
                .shuffle(false)
                .fit(&x, &y)
                .expect("test");
            assert_eq!(fit.coef().dim(), (3, 2));
            assert_eq!(fit.intercept().len(), 3);
            assert_eq!(fit.n_mistakes().len(), 3);
            assert_eq!(fit.decision_function(&x).expect("test").dim(), (9, 3));
            let p = fit.predict(&x).expect("test");
            assert_eq!(p.len(), 9);
            assert!(p.iter().all(|&c| c < 3));
            // f64 gives the same model up to f32 rounding of the data.
            let fit64 = Perceptron::new(solver)
                .shuffle(false)
                .fit(&x.mapv(f64::from), &y)
                .expect("test");
            for (a, b) in fit.coef().iter().zip(fit64.coef()) {
                assert!((f64::from(*a) - b).abs() <= 1e-5 * b.abs().max(1.0));
            }
        }
        assert!(
            Perceptron::default()
                .fit(&x, &y)
                .expect("test")
                .predict(&array![[1.0f32, 2.0, 3.0]])
                .is_err()
        );
    }

    #[test]
    fn sgd_penalties_shrink_and_overflow_is_an_error() {
        let (x, y) = separable();
        let base = Perceptron::default().shuffle(false).tol(None).max_iter(20);
        let free = base.fit(&x, &y).expect("test");
        for penalty in [
            PerceptronPenalty::L2,
            PerceptronPenalty::L1,
            PerceptronPenalty::ElasticNet,
        ] {
            let fit = base.penalty(penalty).alpha(0.5).fit(&x, &y).expect("test");
            let norm = |m: &FittedPerceptron<f64>| m.coef().iter().map(|v| v.abs()).sum::<f64>();
            assert!(norm(&fit) < norm(&free), "{penalty:?}");
            assert!(fit.coef().iter().all(|v| v.is_finite()));
        }
        // ηα ≥ 1: the L2 decay sets the weights to zero before every update.
        let zeroed = base
            .penalty(PerceptronPenalty::L2)
            .alpha(2.0)
            .fit(&x, &y)
            .expect("test");
        assert!(zeroed.coef().iter().all(|v| v.is_finite()));
        // Data near the largest float: either a typed overflow error or a finite model.
        let huge = x.mapv(|v| v * 1e300);
        for solver in all_solvers() {
            match Perceptron::new(solver).max_iter(20).fit(&huge, &y) {
                Ok(m) => assert!(m.coef().iter().all(|v| v.is_finite()), "{solver:?}"),
                Err(Error::NonFinite { .. }) => {}
                Err(e) => panic!("{solver:?}: unexpected error {e}"),
            }
        }
    }
}
