//! The course notes' own linear SVM forms: the hard-margin SVM solved as a quadratic program
//! ([`HardMarginSvm`]) and the soft-margin SVM in the primal by (stochastic) subgradient
//! descent on the hinge or squared hinge ([`PrimalSvm`]).
//!
//! # Hard margin
//!
//! The widest separating slab: `min ½‖w‖²` subject to `yᵢ(w·xᵢ + b) ≥ 1` (`yᵢ = ±1`), margin
//! `2/‖w‖`. [`HardMarginSvm`] solves its dual
//!
//! ```text
//! max Σαᵢ − ½ ΣᵢΣⱼ αᵢαⱼ yᵢyⱼ xᵢ·xⱼ   s.t.  Σαᵢyᵢ = 0,  αᵢ ≥ 0
//! ```
//!
//! with core's interior-point QP solver ([`QuadraticProgram`]) and recovers `w = Σαᵢyᵢxᵢ`, the
//! support vectors `{i : αᵢ > 0}` and the bias as the average of `yᵢ − w·xᵢ` over the support
//! vectors (the first of the three recipes of the course notes; the single-vector recipe is
//! [`FittedHardMarginSvm::bias_from`], and at the optimum all of them agree with the KKT
//! conditions `αᵢ(yᵢ(w·xᵢ + b) − 1) = 0`). It is the soft-margin SVM with `C → ∞`: on separable
//! data [`Svc`](crate::Svc) with a linear kernel and a large `C` finds the same plane. Classes
//! that no hyperplane separates have no solution: [`Error::Infeasible`]. The dense QP costs
//! `O(n³)` per iteration; it is meant for the small problems of teaching and testing.
//!
//! # Soft margin in the primal
//!
//! [`PrimalSvm`] minimises the course notes' regularised risk
//!
//! ```text
//! f(w, b) = (1/N) Σᵢ sᵢ ℓ(yᵢ(w·xᵢ + b)) + (λ/2)‖w‖²,
//! ℓ(m) = max(0, 1 − m)        (hinge: the L1-SVM)
//! ℓ(m) = max(0, 1 − m)²       (squared hinge: the L2-SVM)
//! ```
//!
//! (`sᵢ` the sample weights, 1 by default; the bias is not penalised) by the update of the
//! course notes, `w ← w − (τ/|I|) Σ_{i∈I} ∂_w fᵢ` with `∂_w fᵢ = ℓ'(mᵢ) yᵢ xᵢ + λw` and
//! `∂_b fᵢ = ℓ'(mᵢ) yᵢ`, where `I` is every row (`batch_size = None`, deterministic) or a batch
//! of a seeded shuffle (stochastic). For the hinge `ℓ'(m) = −1[m < 1]` is a subgradient.
//!
//! **Parametrisations** (errata E3, E35). Multiplying `f` by `1/λ` gives `½‖w‖² + C Σ sᵢ ξᵢ`
//! (hinge) or `½‖w‖² + C Σ sᵢ ξᵢ²` (squared hinge) with `C = 1/(Nλ)` ([`c_from_lambda`]):
//! the same minimiser as [`Svc`](crate::Svc) with a linear kernel and that `C`, or as liblinear's
//! L2-loss SVM. The course notes' L1-SVM `½‖w‖² + (1/n)Σξᵢ` is `λ = 1`; their L1C / L2C-SVM
//! `½‖w‖² + (c/n)Σξᵢ^{1,2}` is `λ = 1/c`; the form `Σ max(0, 1 − m) + λ'‖w‖²` (without the ½
//! and the `1/N`) is `λ = 2λ'/N`.
//!
//! **Step sizes** come from core's [`LearningRate`]: `Optimal` (default) is
//! `1/(λ(t₀ + t − 1))`, the rate for a `λ`-strongly convex objective (Pegasos; Bottou's `t₀`);
//! `Constant` with `eta0 ≤ 1/L` (`L = λ + 2 max‖xᵢ‖²`) makes full-batch descent on the smooth
//! squared hinge converge linearly. A subgradient step need not decrease `f`, so the model
//! keeps the **best iterate** seen at the end of an epoch, and stops when `f` has not improved
//! by `tol` for `n_iter_no_change` epochs (core's [`EarlyStopping::sgd`] rule) or after
//! `max_iter` epochs.
//!
//! ```
//! use ndlearn_core::training::LearningRate;
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_svm::{HardMarginSvm, PrimalLoss, PrimalSvm};
//! use ndarray::array;
//!
//! let x = array![[0.0, 0.0], [1.0, 0.0], [3.0, 2.0], [4.0, 3.0]];
//! let y = array![0usize, 0, 1, 1];
//! let hard = HardMarginSvm::default().fit(&x, &y)?;
//! assert_eq!(hard.support(), &[1, 2]); // the closest pair across the classes
//! assert!((hard.margin() - 8f64.sqrt()).abs() < 1e-8); // |(1,0) − (3,2)| = √8
//!
//! let soft = PrimalSvm::default().lambda(0.01).fit(&x, &y)?; // hinge, Pegasos-type steps
//! assert_eq!(soft.predict(&x)?, y);
//!
//! // The L2-SVM by full-batch descent with the safe constant step 1/L, L = λ + 2 max‖xᵢ‖².
//! let l2 = PrimalSvm::default()
//!     .lambda(0.01)
//!     .loss(PrimalLoss::SquaredHinge)
//!     .learning_rate(LearningRate::Constant)
//!     .eta0(1.0 / (0.01 + 2.0 * 25.0))
//!     .fit(&x, &y)?;
//! assert_eq!(l2.predict(&x)?, y);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::optim::{QpStatus, QuadraticProgram};
use ndlearn_core::training::{EarlyStopping, LearningRate, Schedule};
use ndlearn_core::traits::{
    DecisionFunction, Estimator, FeatureImportances, Fit, FitWeighted, NFeaturesIn, Predict,
};
use ndlearn_core::{Error, Float, Result, loss::Loss, random, validate};

#[cfg(doc)]
use crate::c_from_lambda;

/// Labels `0/1` as `−1/+1`, refusing more than two classes.
fn signed_labels<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    context: &'static str,
) -> Result<Array1<f64>> {
    let k = validate::check_classification_input(x, y, 2, context)?;
    if k > 2 {
        let (index, &label) = y
            .iter()
            .enumerate()
            .find(|(_, c)| **c >= 2)
            .expect("a label >= 2");
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: format!(
                "{context} is a binary classifier (labels 0 and 1); use Svc for several classes"
            ),
        });
    }
    Ok(y.mapv(|c| if c == 1 { 1.0 } else { -1.0 }))
}

fn to_f64<F: Float>(x: &ArrayRef2<F>) -> Array2<f64> {
    x.mapv(|v| v.to_f64().unwrap_or(f64::NAN))
}

/// A fitted linear classifier `sign(w·x + b)` (shared by the two forms).
fn linear_decision<F: Float>(
    x: &ArrayRef2<F>,
    w: &Array1<f64>,
    b: f64,
    context: &'static str,
) -> Result<Array2<F>> {
    validate::check_predict_input(x, w.len(), context)?;
    let z = to_f64(x).dot(w) + b;
    Ok(z.mapv(F::cast).insert_axis(Axis(1)))
}

fn labels_of<F: Float>(d: &Array2<F>) -> Array1<usize> {
    d.column(0).mapv(|v| usize::from(v > F::zero()))
}

// ---------------------------------------------------------------------------------------------
// Hard margin
// ---------------------------------------------------------------------------------------------

/// The hard-margin linear SVM by quadratic programming (see the [module docs](self)).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `tol` | `1e-10` | tolerance of the QP solver (scaled KKT residuals) |
/// | `max_iter` | 200 | interior-point iterations |
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct HardMarginSvm {
    /// QP tolerance (default `1e-10`).
    pub tol: f64,
    /// QP iteration limit (default 200).
    pub max_iter: usize,
}

impl Default for HardMarginSvm {
    fn default() -> Self {
        Self {
            tol: 1e-10,
            max_iter: 200,
        }
    }
}

impl HardMarginSvm {
    ndlearn_core::setters! {
        tol: f64,
        max_iter: usize,
    }
}

impl Estimator for HardMarginSvm {
    /// Checks `tol > 0` and `max_iter ≥ 1`.
    fn validate(&self) -> Result<()> {
        validate::check_positive("tol", self.tol)?;
        validate::check_at_least("max_iter", self.max_iter, 1)
    }
}

/// A fitted [`HardMarginSvm`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedHardMarginSvm {
    w: Array1<f64>,
    b: f64,
    alpha: Array1<f64>,
    support: Vec<usize>,
    x_support: Array2<f64>,
    y_support: Array1<f64>,
    dual_objective: f64,
}

impl<F: Float> Fit<F> for HardMarginSvm {
    type Target = Array1<usize>;
    type Model = FittedHardMarginSvm;

    /// # Errors
    /// Invalid settings, non-finite or empty input, labels other than two classes `0/1`;
    /// [`Error::Infeasible`] when no hyperplane separates the classes.
    fn fit(&self, x: &ArrayRef2<F>, y: &Array1<usize>) -> Result<FittedHardMarginSvm> {
        const CONTEXT: &str = "HardMarginSvm::fit";
        self.validate()?;
        let ys = signed_labels(x, y, CONTEXT)?;
        let xf = to_f64(x);
        let n = xf.nrows();
        let gram = xf.dot(&xf.t());
        let q = Array2::from_shape_fn((n, n), |(i, j)| ys[i] * ys[j] * gram[[i, j]]);
        let scale = q.diag().iter().fold(0.0f64, |m, v| m.max(*v));
        let not_separable = |why: String| Error::Infeasible {
            context: CONTEXT,
            reason: format!(
                "the classes are not linearly separable ({why}); use Svc or PrimalSvm (soft margin)"
            ),
        };
        if scale == 0.0 {
            return Err(not_separable("every row is zero".into()));
        }
        let res = QuadraticProgram::new(&q, &Array1::from_elem(n, -1.0))
            .equalities(&ys.view().insert_axis(Axis(0)), &Array1::zeros(1))
            .bounds(&Array1::zeros(n), &Array1::from_elem(n, f64::INFINITY))
            .tol(self.tol)
            .max_iter(self.max_iter)
            .solve()?;
        let alpha = res.x.mapv(|a| a.max(0.0));
        let amax = alpha.iter().fold(0.0f64, |m, v| m.max(*v));
        let support: Vec<usize> = (0..n).filter(|&i| alpha[i] > 1e-9 * amax).collect();
        if support.is_empty() {
            return Err(not_separable("the dual has no positive multiplier".into()));
        }
        let coef: Array1<f64> = &alpha * &ys;
        let w = xf.t().dot(&coef);
        let x_support = xf.select(Axis(0), &support);
        let y_support = ys.select(Axis(0), &support);
        let b = (&y_support - &x_support.dot(&w))
            .mean()
            .expect("support is not empty");
        // Primal feasibility: every functional margin at least 1 (to the solver's accuracy,
        // relative to the size of the decision values).
        let z = xf.dot(&w) + b;
        let zmax = z.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let worst = z
            .iter()
            .zip(&ys)
            .map(|(zi, yi)| yi * zi)
            .fold(f64::INFINITY, f64::min);
        if res.status != QpStatus::Optimal || worst < 1.0 - 1e-6 * zmax {
            return Err(not_separable(format!(
                "smallest functional margin {worst:.3e} after {} QP iterations",
                res.n_iter
            )));
        }
        Ok(FittedHardMarginSvm {
            w,
            b,
            alpha,
            support,
            x_support,
            y_support,
            dual_objective: -res.objective,
        })
    }
}

impl FittedHardMarginSvm {
    /// The normal `w = Σαᵢyᵢxᵢ`.
    pub fn coef(&self) -> &Array1<f64> {
        &self.w
    }
    /// The bias `b` (average of `yᵢ − w·xᵢ` over the support vectors).
    pub fn intercept(&self) -> f64 {
        self.b
    }
    /// The dual variables `α` (one per training row; `0` off the support).
    pub fn alpha(&self) -> &Array1<f64> {
        &self.alpha
    }
    /// Training rows with `αᵢ > 0` (in row order).
    pub fn support(&self) -> &[usize] {
        &self.support
    }
    /// The support vectors.
    pub fn support_vectors(&self) -> &Array2<f64> {
        &self.x_support
    }
    /// The width of the slab between the two classes, `2/‖w‖`.
    pub fn margin(&self) -> f64 {
        2.0 / self.w.dot(&self.w).sqrt()
    }
    /// The dual objective `Σαᵢ − ½‖w‖²` at the solution (equal to the primal `½‖w‖²`).
    pub fn dual_objective(&self) -> f64 {
        self.dual_objective
    }
    /// The single-vector bias recipe `b = y_j − w·x_j` from support vector `j` (an index into
    /// [`support`](Self::support)).
    ///
    /// # Panics
    /// If `j ≥ support().len()`.
    pub fn bias_from(&self, j: usize) -> f64 {
        self.y_support[j] - self.x_support.row(j).dot(&self.w)
    }
}

impl NFeaturesIn for FittedHardMarginSvm {
    fn n_features_in(&self) -> usize {
        self.w.len()
    }
}

impl<F: Float> DecisionFunction<F> for FittedHardMarginSvm {
    /// `w·x + b` (`n × 1`, positive = class 1).
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        linear_decision(x, &self.w, self.b, "HardMarginSvm::predict")
    }
}

impl<F: Float> Predict<F> for FittedHardMarginSvm {
    type Output = Array1<usize>;
    /// Class 1 where `w·x + b > 0`, else class 0.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(labels_of(&DecisionFunction::<F>::decision_function(
            self, x,
        )?))
    }
}

impl<F: Float> FeatureImportances<F> for FittedHardMarginSvm {
    /// `|wⱼ|`.
    fn feature_importances(&self) -> Array1<F> {
        self.w.mapv(|v| F::cast(v.abs()))
    }
}

// ---------------------------------------------------------------------------------------------
// Primal soft margin
// ---------------------------------------------------------------------------------------------

/// The loss of [`PrimalSvm`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum PrimalLoss {
    /// `max(0, 1 − m)`: the L1-SVM.
    #[default]
    Hinge,
    /// `max(0, 1 − m)²`: the L2-SVM.
    SquaredHinge,
}

impl PrimalLoss {
    /// The same loss in core's [`Loss`] (threshold 1).
    pub fn core(self) -> Loss {
        match self {
            PrimalLoss::Hinge => Loss::Hinge { threshold: 1.0 },
            PrimalLoss::SquaredHinge => Loss::SquaredHinge { threshold: 1.0 },
        }
    }
}

/// The soft-margin linear SVM in the primal by (stochastic) subgradient descent (see the
/// [module docs](self)).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `lambda` | `1e-3` | `λ` of `(λ/2)‖w‖²` (`C = 1/(Nλ)`) |
/// | `loss` | `Hinge` | hinge (L1-SVM) or squared hinge (L2-SVM) |
/// | `batch_size` | `None` | rows per step; `None` = every row (deterministic descent) |
/// | `learning_rate` | `Optimal` | step-size rule ([`LearningRate`]) |
/// | `eta0` | `0.01` | initial step of `Constant` / `InvScaling` / `Adaptive` |
/// | `power_t` | `0.5` | exponent of `InvScaling` |
/// | `max_iter` | 1000 | epochs |
/// | `tol` | `Some(1e-6)` | an epoch must lower the best `f` by this much to count |
/// | `n_iter_no_change` | 10 | epochs without improvement before stopping |
/// | `fit_intercept` | `true` | learn the (unpenalised) bias |
/// | `random_state` | 0 | seed of the batch shuffle |
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct PrimalSvm {
    /// `λ > 0`.
    pub lambda: f64,
    /// The loss.
    pub loss: PrimalLoss,
    /// Rows per step (`None`: all).
    pub batch_size: Option<usize>,
    /// The step-size rule.
    pub learning_rate: LearningRate,
    /// Initial step.
    pub eta0: f64,
    /// Exponent of `InvScaling`.
    pub power_t: f64,
    /// Epochs.
    pub max_iter: usize,
    /// Improvement an epoch must make (`None`: run `max_iter` epochs).
    pub tol: Option<f64>,
    /// Epochs without improvement before stopping.
    pub n_iter_no_change: usize,
    /// Learn the bias.
    pub fit_intercept: bool,
    /// Seed of the shuffle.
    pub random_state: u64,
}

impl Default for PrimalSvm {
    fn default() -> Self {
        Self {
            lambda: 1e-3,
            loss: PrimalLoss::Hinge,
            batch_size: None,
            learning_rate: LearningRate::Optimal,
            eta0: 0.01,
            power_t: 0.5,
            max_iter: 1000,
            tol: Some(1e-6),
            n_iter_no_change: 10,
            fit_intercept: true,
            random_state: 0,
        }
    }
}

impl PrimalSvm {
    ndlearn_core::setters! {
        lambda: f64,
        loss: PrimalLoss,
        batch_size: Option<usize>,
        learning_rate: LearningRate,
        eta0: f64,
        power_t: f64,
        max_iter: usize,
        tol: Option<f64>,
        n_iter_no_change: usize,
        fit_intercept: bool,
        random_state: u64,
    }

    fn schedule(&self) -> Result<Schedule> {
        match self.learning_rate {
            LearningRate::Optimal => Schedule::optimal(&self.loss.core(), self.lambda),
            kind => Ok(Schedule::new(kind, self.eta0, self.power_t)),
        }
    }
}

impl Estimator for PrimalSvm {
    /// Checks `λ > 0`, `eta0 > 0`, `power_t ≥ 0`, `max_iter ≥ 1`, `n_iter_no_change ≥ 1`,
    /// `batch_size ≥ 1`, `tol ≥ 0`.
    fn validate(&self) -> Result<()> {
        validate::check_positive("lambda", self.lambda)?;
        validate::check_positive("eta0", self.eta0)?;
        validate::check_non_negative("power_t", self.power_t)?;
        validate::check_at_least("max_iter", self.max_iter, 1)?;
        validate::check_at_least("n_iter_no_change", self.n_iter_no_change, 1)?;
        if let Some(b) = self.batch_size {
            validate::check_at_least("batch_size", b, 1)?;
        }
        if let Some(t) = self.tol {
            validate::check_non_negative("tol", t)?;
        }
        Ok(())
    }
}

/// A fitted [`PrimalSvm`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPrimalSvm {
    w: Array1<f64>,
    b: f64,
    objective: f64,
    n_iter: usize,
    converged: bool,
    loss: PrimalLoss,
    lambda: f64,
}

/// `ℓ'(m)` with the course notes' subgradient of the hinge, `−1[m < 1]` (core's
/// [`Loss::gradient`] takes `−1` at the kink `m = 1`, this takes 0; the loss values are core's).
#[inline]
fn slope(loss: PrimalLoss, m: f64) -> f64 {
    let slack = 1.0 - m;
    if slack <= 0.0 {
        return 0.0;
    }
    match loss {
        PrimalLoss::Hinge => -1.0,
        PrimalLoss::SquaredHinge => -2.0 * slack,
    }
}

/// `f(w, b)` over all rows: `(1/N) Σ sᵢ ℓ(yᵢ(w·xᵢ + b)) + (λ/2)‖w‖²`.
fn primal_objective(
    x: &Array2<f64>,
    ys: &Array1<f64>,
    s: &Array1<f64>,
    w: &Array1<f64>,
    b: f64,
    loss: PrimalLoss,
    lambda: f64,
) -> f64 {
    let core = loss.core();
    let z = x.dot(w);
    let risk: f64 = z
        .iter()
        .zip(ys)
        .zip(s)
        .map(|((zi, yi), si)| si * core.value(*yi, zi + b))
        .sum();
    risk / x.nrows() as f64 + 0.5 * lambda * w.dot(w)
}

impl PrimalSvm {
    fn fit_impl<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedPrimalSvm> {
        const CONTEXT: &str = "PrimalSvm::fit";
        self.validate()?;
        let ys = signed_labels(x, y, CONTEXT)?;
        let n = x.nrows();
        let s: Array1<f64> = match sample_weight {
            Some(w) => {
                validate::check_sample_weight(w, n)?;
                w.mapv(|v| v.to_f64().unwrap_or(f64::NAN))
            }
            None => Array1::ones(n),
        };
        let xf = to_f64(x);
        let (loss, lambda) = (self.loss, self.lambda);
        let mut schedule = self.schedule()?;
        let batch = self.batch_size.unwrap_or(n).min(n);
        let mut rng = random::stream(self.random_state, 0);
        let mut order: Vec<usize> = (0..n).collect();
        let mut w = Array1::<f64>::zeros(xf.ncols());
        let mut b = 0.0;
        let mut best = (
            w.clone(),
            b,
            primal_objective(&xf, &ys, &s, &w, b, loss, lambda),
        );
        let f_start = best.2;
        let mut tracker = EarlyStopping::sgd(self.n_iter_no_change, self.tol).tracker();
        tracker.update(-best.2);
        let mut t = 0.0f64;
        let (mut n_iter, mut converged) = (0, false);
        for epoch in 1..=self.max_iter {
            n_iter = epoch;
            if batch < n {
                random::shuffle(&mut rng, &mut order);
            }
            for chunk in order.chunks(batch) {
                t += 1.0;
                let eta = schedule.eta(t);
                // Margins and loss slopes of the batch (BLAS gemv for the full batch).
                let xb;
                let rows: &Array2<f64> = if chunk.len() == n {
                    &xf
                } else {
                    xb = xf.select(Axis(0), chunk);
                    &xb
                };
                let z = rows.dot(&w);
                let g: Array1<f64> = chunk
                    .iter()
                    .zip(&z)
                    .map(|(&i, zi)| s[i] * slope(loss, ys[i] * (zi + b)) * ys[i])
                    .collect();
                let inv = 1.0 / chunk.len() as f64;
                let gw = rows.t().dot(&g);
                w.mapv_inplace(|v| v * (1.0 - eta * lambda));
                w.scaled_add(-eta * inv, &gw);
                if self.fit_intercept {
                    b -= eta * inv * g.sum();
                }
            }
            let f = primal_objective(&xf, &ys, &s, &w, b, loss, lambda);
            if !f.is_finite() {
                return Err(Error::invalid_param(
                    "eta0",
                    format!("the iterates diverged at epoch {epoch}; use a smaller step"),
                ));
            }
            if f < best.2 {
                best = (w.clone(), b, f);
            }
            if tracker.update(-f) && !schedule.on_plateau() {
                converged = true;
                break;
            }
        }
        let improved = best.2 < f_start;
        let (w, b, objective) = best;
        if !improved {
            return Err(Error::invalid_param(
                "eta0",
                format!(
                    "no epoch lowered the objective below its value {f_start} at w = 0, b = 0; \
                     the steps are too large for this data (or the classes have equal means)"
                ),
            ));
        }
        Ok(FittedPrimalSvm {
            w,
            b,
            objective,
            n_iter,
            converged,
            loss,
            lambda,
        })
    }
}

impl<F: Float> Fit<F> for PrimalSvm {
    type Target = Array1<usize>;
    type Model = FittedPrimalSvm;

    /// # Errors
    /// Invalid settings, non-finite or empty input, labels other than two classes `0/1`, a
    /// step size that makes the iterates diverge.
    fn fit(&self, x: &ArrayRef2<F>, y: &Array1<usize>) -> Result<FittedPrimalSvm> {
        self.fit_impl(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for PrimalSvm {
    /// Weights `sᵢ` multiply the row's loss (the C-SVM's per-row `Cᵢ = sᵢ C`).
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &Array1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedPrimalSvm> {
        self.fit_impl(x, y, sample_weight)
    }
}

impl FittedPrimalSvm {
    /// The weights `w`.
    pub fn coef(&self) -> &Array1<f64> {
        &self.w
    }
    /// The bias `b`.
    pub fn intercept(&self) -> f64 {
        self.b
    }
    /// `f(w, b)` of the returned (best) iterate on the training data.
    pub fn objective(&self) -> f64 {
        self.objective
    }
    /// Epochs run.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the stopping rule fired before `max_iter` epochs.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// `f(w, b)` of this model on other data (the unweighted risk plus the penalty).
    ///
    /// # Errors
    /// Wrong feature count, non-finite input, labels other than `0/1`.
    pub fn objective_on<F: Float>(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<f64> {
        let ys = signed_labels(x, y, "FittedPrimalSvm::objective_on")?;
        validate::check_n_features(x.ncols(), self.w.len(), "FittedPrimalSvm::objective_on")?;
        let s = Array1::ones(x.nrows());
        Ok(primal_objective(
            &to_f64(x),
            &ys,
            &s,
            &self.w,
            self.b,
            self.loss,
            self.lambda,
        ))
    }
}

impl NFeaturesIn for FittedPrimalSvm {
    fn n_features_in(&self) -> usize {
        self.w.len()
    }
}

impl<F: Float> DecisionFunction<F> for FittedPrimalSvm {
    /// `w·x + b` (`n × 1`, positive = class 1).
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        linear_decision(x, &self.w, self.b, "PrimalSvm::predict")
    }
}

impl<F: Float> Predict<F> for FittedPrimalSvm {
    type Output = Array1<usize>;
    /// Class 1 where `w·x + b > 0`, else class 0.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(labels_of(&DecisionFunction::<F>::decision_function(
            self, x,
        )?))
    }
}

impl<F: Float> FeatureImportances<F> for FittedPrimalSvm {
    /// `|wⱼ|` (the ranking of SVM-RFE).
    fn feature_importances(&self) -> Array1<F> {
        self.w.mapv(|v| F::cast(v.abs()))
    }
}
