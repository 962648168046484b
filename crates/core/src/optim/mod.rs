//! Numerical optimisation: the [`Objective`] abstraction every iterative solver of ndlearn uses,
//! the shared stopping rules ([`StopCriteria`]) and result type ([`OptimResult`]).
//!
//! Solvers live in submodules; each documents its update rule, step-size rule and which stopping
//! criteria it honours. The course notes list three stopping criteria for iterative descent:
//! a maximum number of iterations, a small change of the objective `|f(wₜ) − f(wₜ₋₁)| ≤ ε₁`, and a
//! small step `‖wₜ − wₜ₋₁‖ ≤ ε₂`; [`StopCriteria`] carries all three (plus a gradient-norm test),
//! each disabled by setting it to 0.

mod coordinate;
pub mod finite_diff;
mod golden;
mod kkt;
mod lagrange;
mod landweber;
mod lbfgs;
mod lp;
mod newton;
mod qp;
mod restarts;

pub use coordinate::{CdOrder, CdResult, CoordinateDescent, coordinate_descent};
pub use finite_diff::{
    ChordViolation, StationaryPoint, check_convexity_chords, check_gradient,
    classify_stationary_point,
};
pub use golden::{
    Bracket, GOLDEN_ALPHA, GOLDEN_BETA, GOLDEN_RATIO, GOLDEN_SHRINK, GoldenResult, bracket_minimum,
    golden_section,
};
pub use kkt::{ConstraintBlock, KktResiduals, kkt_residuals};
pub use lagrange::{EqualityConstrained, LagrangeResult};
pub use landweber::{LandweberResult, landweber};
pub use lbfgs::{LbfgsOptions, lbfgs};
pub use lp::{LinearProgram, LpDuals, LpResult, LpStatus, PivotRule, linprog};
pub use newton::{Newton1dResult, NewtonOptions, newton, newton_1d};
pub use qp::{QpResult, QpStatus, QuadraticProgram, solve_qp};
pub use restarts::{RestartsResult, random_restarts, random_start};

use ndarray::{Array1, Array2, ArrayRef1};

pub mod gd;
pub mod optimizers;
pub mod projected;
pub mod proximal;
pub mod sgd;
pub mod subgradient;
#[cfg(test)]
pub(crate) mod test_problems;

pub use gd::{StepSize, backtracking_line_search, gradient_descent};
pub use optimizers::{AdaGrad, Adam, Momentum, Nesterov, Optimizer, OptimizerKind, RmsProp, Sgd};
pub use projected::{
    Bound, Projection, project_box, project_l2_ball, project_simplex, projected_gradient,
};
pub use proximal::{
    ProxMethod, ProxStep, fista, ista, proximal_gradient, soft_threshold, soft_threshold_array,
};
pub use sgd::{minibatch_gd, sgd};
pub use subgradient::subgradient_method;

use crate::{Error, Float, Result};

/// A differentiable objective `f: ℝᵈ → ℝ`.
///
/// `value` and `gradient` are required; `hessian` / `hessian_vector` are optional (second-order
/// solvers fall back to finite differences or refuse with a typed error when they are absent).
/// Implementations must be pure: the same `w` gives the same result (solvers may re-evaluate).
pub trait Objective<F: Float> {
    /// Dimension `d` of the argument.
    fn dim(&self) -> usize;
    /// `f(w)`.
    fn value(&self, w: &ArrayRef1<F>) -> F;
    /// `∇f(w)` (length `d`).
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F>;
    /// `(f(w), ∇f(w))`; override when both share work.
    fn value_and_gradient(&self, w: &ArrayRef1<F>) -> (F, Array1<F>) {
        (self.value(w), self.gradient(w))
    }
    /// `∇²f(w)` (`d × d`), when available.
    fn hessian(&self, _w: &ArrayRef1<F>) -> Option<Array2<F>> {
        None
    }
    /// `∇²f(w) v`, when available (defaults to the full Hessian times `v`).
    fn hessian_vector(&self, w: &ArrayRef1<F>, v: &ArrayRef1<F>) -> Option<Array1<F>> {
        self.hessian(w).map(|h| h.dot(v))
    }
}

/// An objective that is an average of per-sample terms, `f(w) = (1/N) Σᵢ fᵢ(w)`, for stochastic
/// and mini-batch methods.
pub trait StochasticObjective<F: Float> {
    /// Dimension `d` of the argument.
    fn dim(&self) -> usize;
    /// Number of terms `N`.
    fn n_samples(&self) -> usize;
    /// Mean of the terms over `batch`: `(1/|B|) Σ_{i∈B} fᵢ(w)`.
    fn batch_value(&self, w: &ArrayRef1<F>, batch: &[usize]) -> F;
    /// Mean gradient over `batch`: `(1/|B|) Σ_{i∈B} ∇fᵢ(w)` (mean-scaled, so step sizes do not
    /// depend on the batch size).
    fn batch_gradient(&self, w: &ArrayRef1<F>, batch: &[usize]) -> Array1<F>;
}

/// An [`Objective`] from closures: `FnObjective::new(d, f, grad)`, optionally `.with_hessian(h)`.
///
/// Works for `f32` and `f64` alike: without a Hessian closure the type parameter `H` is
/// [`NoHessian`].
pub struct FnObjective<V, G, H = NoHessian> {
    dim: usize,
    value: V,
    gradient: G,
    hessian: H,
}

/// Marker for an [`FnObjective`] without a Hessian.
#[derive(Debug, Clone, Copy, Default)]
pub struct NoHessian;

/// A Hessian source for [`FnObjective`]: [`NoHessian`] or a closure `w -> ∇²f(w)`.
pub trait HessianFn<F: Float> {
    /// The Hessian at `w`, if this source has one.
    fn hessian_at(&self, w: &ArrayRef1<F>) -> Option<Array2<F>>;
}

impl<F: Float> HessianFn<F> for NoHessian {
    fn hessian_at(&self, _w: &ArrayRef1<F>) -> Option<Array2<F>> {
        None
    }
}

impl<F: Float, H: Fn(&ArrayRef1<F>) -> Array2<F>> HessianFn<F> for H {
    fn hessian_at(&self, w: &ArrayRef1<F>) -> Option<Array2<F>> {
        Some(self(w))
    }
}

impl<V, G> FnObjective<V, G> {
    /// An objective of dimension `dim` with value and gradient closures.
    pub fn new(dim: usize, value: V, gradient: G) -> Self {
        Self {
            dim,
            value,
            gradient,
            hessian: NoHessian,
        }
    }

    /// Adds a Hessian closure.
    pub fn with_hessian<H>(self, hessian: H) -> FnObjective<V, G, H> {
        FnObjective {
            dim: self.dim,
            value: self.value,
            gradient: self.gradient,
            hessian,
        }
    }
}

impl<F, V, G, H> Objective<F> for FnObjective<V, G, H>
where
    F: Float,
    V: Fn(&ArrayRef1<F>) -> F,
    G: Fn(&ArrayRef1<F>) -> Array1<F>,
    H: HessianFn<F>,
{
    fn dim(&self) -> usize {
        self.dim
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        (self.value)(w)
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        (self.gradient)(w)
    }
    fn hessian(&self, w: &ArrayRef1<F>) -> Option<Array2<F>> {
        self.hessian.hessian_at(w)
    }
}

/// Stopping rules shared by the iterative solvers. A tolerance of 0 disables that test; the
/// solver stops at the first test that holds (checked after each iteration).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct StopCriteria {
    /// Maximum number of iterations (must be ≥ 1).
    pub max_iter: usize,
    /// ε₁: stop when `|f(wₜ) − f(wₜ₋₁)| ≤ f_tol · max(1, |f(wₜ)|)`.
    pub f_tol: f64,
    /// ε₂: stop when `‖wₜ − wₜ₋₁‖ ≤ x_tol · max(1, ‖wₜ‖)`.
    pub x_tol: f64,
    /// Stop when `‖∇f(wₜ)‖ ≤ g_tol` (only for solvers that compute the gradient).
    pub g_tol: f64,
}

impl Default for StopCriteria {
    fn default() -> Self {
        Self {
            max_iter: 1000,
            f_tol: 1e-10,
            x_tol: 1e-10,
            g_tol: 1e-8,
        }
    }
}

impl StopCriteria {
    crate::setters! {
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `f_tol` (ε₁).
        f_tol: f64,
        /// Sets `x_tol` (ε₂).
        x_tol: f64,
        /// Sets `g_tol`.
        g_tol: f64,
    }

    /// Checks the values: `max_iter ≥ 1`, tolerances finite and ≥ 0.
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("max_iter", self.max_iter, 1)?;
        crate::validate::check_non_negative("f_tol", self.f_tol)?;
        crate::validate::check_non_negative("x_tol", self.x_tol)?;
        crate::validate::check_non_negative("g_tol", self.g_tol)
    }

    /// Which test (if any) holds after a step from `(f_prev, w_prev)` to `(f, w)` with gradient
    /// norm `g_norm` (pass `None` when not computed).
    pub fn check<F: Float>(
        &self,
        f_prev: F,
        f: F,
        step_norm: F,
        w_norm: F,
        g_norm: Option<F>,
    ) -> Option<StopReason> {
        let one = F::one();
        if let Some(g) = g_norm {
            if self.g_tol > 0.0 && g <= F::cast(self.g_tol) {
                return Some(StopReason::GradientNorm);
            }
        }
        if self.f_tol > 0.0 && (f - f_prev).abs() <= F::cast(self.f_tol) * one.max(f.abs()) {
            return Some(StopReason::ValueChange);
        }
        if self.x_tol > 0.0 && step_norm <= F::cast(self.x_tol) * one.max(w_norm) {
            return Some(StopReason::StepNorm);
        }
        None
    }
}

/// Why a solver stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StopReason {
    /// `max_iter` reached without meeting a tolerance (`converged == false`).
    MaxIter,
    /// `|Δf| ≤ ε₁`.
    ValueChange,
    /// `‖Δw‖ ≤ ε₂`.
    StepNorm,
    /// `‖∇f‖ ≤ g_tol`.
    GradientNorm,
    /// A solver-specific optimality certificate (duality gap, KKT residual, exact solve).
    Optimal,
    /// The line search could not make progress (reported with `converged == false` unless the
    /// gradient is already tiny).
    LineSearchFailed,
    /// An [`crate::observe::Observer`] asked to stop (`converged == false`).
    Interrupted,
}

/// Reports iteration `it` of `solver` to the thread's observer (see [`crate::observe`]);
/// `Some(StopReason::Interrupted)` when it answers stop.
pub(crate) fn observer_stop<F: Float>(
    solver: &str,
    it: usize,
    max_iter: usize,
    value: F,
    criterion: Option<F>,
) -> Option<StopReason> {
    if !crate::observe::is_observed() {
        return None;
    }
    let mut p = crate::observe::Progress::new(solver, it)
        .max_iter(max_iter)
        .objective(value.to_f64_lossless());
    if let Some(c) = criterion {
        p = p.criterion(c.to_f64_lossless());
    }
    crate::observe::report(&p)
        .is_stop()
        .then_some(StopReason::Interrupted)
}

/// Result of an iterative solver.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct OptimResult<F: Float> {
    /// The final iterate.
    pub x: Array1<F>,
    /// `f(x)`.
    pub value: F,
    /// Iterations performed.
    pub n_iter: usize,
    /// Whether a tolerance (not `max_iter`) ended the run.
    pub converged: bool,
    /// Which rule ended the run.
    pub stop: StopReason,
    /// `f` after each iteration (index 0 = the starting point).
    pub history: Vec<F>,
}

impl<F: Float> OptimResult<F> {
    /// Builds a result; `converged` is false for `MaxIter`, `LineSearchFailed` and `Interrupted`.
    pub fn new(x: Array1<F>, value: F, n_iter: usize, stop: StopReason, history: Vec<F>) -> Self {
        let converged = !matches!(
            stop,
            StopReason::MaxIter | StopReason::LineSearchFailed | StopReason::Interrupted
        );
        Self {
            x,
            value,
            n_iter,
            converged,
            stop,
            history,
        }
    }
}

/// Checks a starting point: length `dim`, finite.
pub fn check_start<F: Float>(x0: &ArrayRef1<F>, dim: usize) -> Result<()> {
    if x0.len() != dim {
        return Err(Error::ShapeMismatch {
            context: "optimizer start point",
            expected: format!("length {dim} (the objective's dimension)"),
            found: format!("length {}", x0.len()),
        });
    }
    crate::validate::check_finite_1d(x0, "x0")
}

/// Euclidean norm of a vector.
pub fn norm2<F: Float>(v: &ArrayRef1<F>) -> F {
    v.dot(v).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn closure_objective_and_stop_rules() {
        let f = FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| w[0] * w[0] + 3.0 * w[1] * w[1],
            |w: &ArrayRef1<f64>| array![2.0 * w[0], 6.0 * w[1]],
        );
        let w = array![1.0, 1.0];
        assert_eq!(f.value(&w), 4.0);
        assert_eq!(f.gradient(&w), array![2.0, 6.0]);
        assert!(f.hessian(&w).is_none());
        let h = f.with_hessian(|_: &ArrayRef1<f64>| array![[2.0, 0.0], [0.0, 6.0]]);
        let f32_obj = FnObjective::new(
            1,
            |w: &ArrayRef1<f32>| w[0] * w[0],
            |w: &ArrayRef1<f32>| array![2.0 * w[0]],
        );
        assert_eq!(f32_obj.value(&array![3.0f32]), 9.0);
        assert!(f32_obj.hessian(&array![3.0f32]).is_none());
        assert_eq!(h.hessian_vector(&w, &w), Some(array![2.0, 6.0]));

        let s = StopCriteria::default().f_tol(1e-3).x_tol(0.0).g_tol(0.0);
        assert_eq!(
            s.check(1.0, 1.0005, 1.0, 1.0, None),
            Some(StopReason::ValueChange)
        );
        assert_eq!(s.check(1.0, 1.1, 1e-20, 1.0, None), None, "x_tol disabled");
        let g = StopCriteria::default().g_tol(1e-6);
        assert_eq!(
            g.check(1.0, 0.0, 1.0, 1.0, Some(1e-7)),
            Some(StopReason::GradientNorm)
        );
        assert!(StopCriteria::default().max_iter(0).validate().is_err());
        assert!(StopCriteria::default().f_tol(-1.0).validate().is_err());
        assert!(check_start(&array![1.0], 2).is_err());
        assert!(check_start(&array![f64::NAN, 1.0], 2).is_err());
        let r = OptimResult::new(w, 0.0, 3, StopReason::MaxIter, vec![]);
        assert!(!r.converged);
    }
}
