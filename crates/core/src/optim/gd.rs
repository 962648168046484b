//! Batch gradient descent with the course notes' step-size rules and an Armijo backtracking line
//! search.
//!
//! # The method
//!
//! For a differentiable `f: ℝᵈ → ℝ`, gradient descent iterates
//!
//! ```text
//! w_{t+1} = w_t − η_t ∇f(w_t),      t = 1, 2, …
//! ```
//!
//! with a step size (learning rate) `η_t > 0` chosen by a [`StepSize`] rule:
//!
//! | rule | `η_t` | notes |
//! |---|---|---|
//! | [`StepSize::Constant`]`(c)` | `c` | converges on an `L`-smooth convex `f` for `c ≤ 1/L`; too large oscillates or diverges |
//! | [`StepSize::InverseT`]`(c)` | `c / t` | decaying |
//! | [`StepSize::InverseSqrtT`]`(c)` | `c / √t` | decaying, the usual rate for subgradient methods |
//! | [`StepSize::Backtracking`] | line search | see below |
//!
//! **Backtracking** ([`backtracking_line_search`]): start from `η = initial`; while the trial point
//! `w + η p` (here `p = −∇f(w)`) fails the sufficient-decrease (Armijo) test
//!
//! ```text
//! f(w + η p) ≤ f(w) + c · η · ∇f(w)ᵀp      and      f(w + η p) < f(w),
//! ```
//!
//! multiply `η` by `shrink = β ∈ (0, 1)`. With `armijo_c = c = 0` this is exactly the course notes'
//! plain decrease test `f(w_t − η_t∇f(w_t)) < f(w_t)`; `c > 0` (typically `10⁻⁴`) is the Armijo
//! condition, which guarantees convergence to a stationary point on smooth `f` (the plain test does
//! not exclude arbitrarily small progress). Trial points whose value is NaN or ±∞ are rejected and
//! shrunk like any other failure, so a too-large `initial` is harmless.
//!
//! # Stopping
//!
//! All tests of [`StopCriteria`] are honoured, checked after every iteration in this order:
//! `‖∇f(w_{t+1})‖ ≤ g_tol` → [`StopReason::GradientNorm`]; `|f(w_{t+1}) − f(w_t)| ≤ ε₁·max(1, |f|)`
//! → [`StopReason::ValueChange`]; `‖w_{t+1} − w_t‖ ≤ ε₂·max(1, ‖w‖)` → [`StopReason::StepNorm`];
//! otherwise after `max_iter` iterations [`StopReason::MaxIter`]. The start point is tested for
//! `‖∇f(w₀)‖ ≤ g_tol` before the first step (then `n_iter = 0`). An exactly zero gradient always
//! stops with [`StopReason::GradientNorm`] (the iteration could not move), even when `g_tol = 0`.
//! A backtracking search that cannot find an acceptable step before the trial point stops moving
//! in floating point ends the run with [`StopReason::LineSearchFailed`]. That is also what happens
//! when a tolerance asks for more than the value test can resolve: once the decrease `η‖∇f‖²` is
//! below the rounding of `f` (roughly `‖∇f‖ ≲ √(ε_mach·|f|)`), no trial shows a decrease; the
//! iterate is then as accurate as `f`'s rounding allows (use `g_tol` above that floor, or `f_tol`).
//!
//! The result's `history` holds `f(w₀), f(w₁), …` (length `n_iter + 1`). With backtracking and
//! `armijo_c ≥ 0` it is strictly decreasing.
//!
//! # Complexity
//!
//! One gradient (and value) evaluation per iteration plus `O(d)` vector work; backtracking adds
//! one value evaluation per trial step.
//!
//! # Choices not in the course notes
//!
//! - The course notes start each backtracking search at `c/t`; here every search starts at the fixed
//!   `initial` (the common choice: with a decaying start the search can never take a long step
//!   again). Use `armijo_c = 0` for the course notes' decrease test.
//! - The Armijo constant and the relative form of the tolerances (see [`StopCriteria`]).
//! - Non-finite values or gradients met during the iteration (a divergent step size) are reported
//!   as [`Error::NonFinite`] instead of returning a meaningless iterate.
//!
//! # References
//!
//! - Gradient descent, step sizes, backtracking and convergence tests as in the course notes
//!   (catalog O-01; CL-050, CL-051, CL-052): S. Boyd, L. Vandenberghe, *Convex Optimization*,
//!   Cambridge University Press, 2004, §9.2–9.3; learning rate too small / too large:
//!   I. Goodfellow, Y. Bengio, A. Courville, *Deep Learning*, MIT Press, 2016, §4.3.
//! - J. Nocedal, S. Wright, *Numerical Optimization*, 2nd ed., §3.1 (Armijo condition,
//!   backtracking).
//!
//! ```
//! use ndlearn_core::ndarray::{array, ArrayRef1};
//! use ndlearn_core::optim::{gradient_descent, FnObjective, StepSize, StopCriteria, StopReason};
//!
//! // f(w) = (w₀ − 1)² + 10 (w₁ + 2)², minimum at (1, −2).
//! let f = FnObjective::new(
//!     2,
//!     |w: &ArrayRef1<f64>| (w[0] - 1.0).powi(2) + 10.0 * (w[1] + 2.0).powi(2),
//!     |w: &ArrayRef1<f64>| array![2.0 * (w[0] - 1.0), 20.0 * (w[1] + 2.0)],
//! );
//! // Stop on the gradient norm only (the value test |Δf| ≤ ε₁ alone gives ‖w − w*‖ ~ √ε₁).
//! let stop = StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(1e-8);
//! let res = gradient_descent(&f, &array![0.0, 0.0], StepSize::backtracking(), stop)?;
//! assert_eq!(res.stop, StopReason::GradientNorm);
//! assert!((res.x[0] - 1.0).abs() < 1e-6 && (res.x[1] + 2.0).abs() < 1e-6);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, ArrayRef1, Zip};

use super::{Objective, OptimResult, StopCriteria, StopReason, check_start, norm2, observer_stop};
use crate::{Error, Float, Result};

/// Step-size (learning-rate) rule of a first-order method; `t = 1, 2, …` counts the updates.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StepSize {
    /// `η_t = c` (`c > 0`).
    Constant(f64),
    /// `η_t = c / t` (`c > 0`).
    InverseT(f64),
    /// `η_t = c / √t` (`c > 0`).
    InverseSqrtT(f64),
    /// Armijo backtracking line search (gradient descent and projected gradient only): start at
    /// `initial > 0`, multiply by `shrink ∈ (0, 1)` until `f(w + ηp) ≤ f(w) + armijo_c·η·∇fᵀp`
    /// and `f(w + ηp) < f(w)`; `armijo_c ∈ [0, 1)`, where 0 is the course notes' plain decrease
    /// test.
    Backtracking {
        /// First trial step of every search.
        initial: f64,
        /// Decay factor `β` applied after a rejected trial.
        shrink: f64,
        /// Sufficient-decrease constant `c`.
        armijo_c: f64,
    },
}

impl Default for StepSize {
    /// [`StepSize::backtracking`]: `initial = 1`, `shrink = 0.5`, `armijo_c = 1e-4`.
    fn default() -> Self {
        Self::backtracking()
    }
}

impl StepSize {
    /// Backtracking with the usual constants: `initial = 1`, `shrink = 0.5`, `armijo_c = 1e-4`.
    pub fn backtracking() -> Self {
        Self::Backtracking {
            initial: 1.0,
            shrink: 0.5,
            armijo_c: 1e-4,
        }
    }

    /// Checks the constants: `c > 0` and finite for the schedules; for backtracking
    /// `initial > 0`, `0 < shrink < 1`, `0 ≤ armijo_c < 1`.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::Constant(c) | Self::InverseT(c) | Self::InverseSqrtT(c) => {
                crate::validate::check_positive("step", c)
            }
            Self::Backtracking {
                initial,
                shrink,
                armijo_c,
            } => check_backtracking(initial, shrink, armijo_c),
        }
    }

    /// The scheduled step `η_t` for update `t ≥ 1` (`t = 0` is treated as 1), or `None` for
    /// [`StepSize::Backtracking`], whose step comes from the line search.
    pub fn rate(&self, t: usize) -> Option<f64> {
        let t = t.max(1) as f64;
        match *self {
            Self::Constant(c) => Some(c),
            Self::InverseT(c) => Some(c / t),
            Self::InverseSqrtT(c) => Some(c / t.sqrt()),
            Self::Backtracking { .. } => None,
        }
    }

    /// Whether this is the line-search rule.
    pub fn is_backtracking(&self) -> bool {
        matches!(self, Self::Backtracking { .. })
    }
}

/// Validates a schedule for a solver that cannot line-search (SGD, subgradient).
pub(crate) fn check_schedule(step: &StepSize, solver: &str) -> Result<()> {
    if step.is_backtracking() {
        return Err(Error::invalid_param(
            "step",
            format!(
                "{solver} needs a fixed schedule (Constant, InverseT or InverseSqrtT): a \
                 backtracking line search needs the full objective and a descent direction"
            ),
        ));
    }
    step.validate()
}

fn check_backtracking(initial: f64, shrink: f64, armijo_c: f64) -> Result<()> {
    crate::validate::check_positive("initial", initial)?;
    if !(shrink.is_finite() && shrink > 0.0 && shrink < 1.0) {
        return Err(Error::invalid_param(
            "shrink",
            format!("must lie in the open interval (0, 1), got {shrink}"),
        ));
    }
    if !(armijo_c.is_finite() && (0.0..1.0).contains(&armijo_c)) {
        return Err(Error::invalid_param(
            "armijo_c",
            format!("must lie in [0, 1), got {armijo_c}"),
        ));
    }
    Ok(())
}

/// Upper bound on the trials of one line search (the search also stops as soon as the trial
/// point no longer differs from `w` in floating point).
pub(crate) const MAX_TRIALS: usize = 2000;

/// Armijo backtracking line search along `direction` from `w`.
///
/// Tries `η = initial, initial·shrink, initial·shrink², …` and returns the first `(η, f(w + ηp))`
/// with `f(w + ηp) ≤ f + c·η·gᵀp` and `f(w + ηp) < f` (`f = f(w)`, `g = ∇f(w)`, `p` =
/// `direction`). Non-finite trial values are rejected. `c = 0` is the plain decrease test of the
/// notes. The trial point is `w + η·p` computed elementwise, so callers that recompute it the same
/// way get bitwise the same point.
///
/// Returns `Ok(None)` when no trial is accepted before `w + ηp` equals `w` in floating point (or
/// after 2000 trials): no progress is possible along `p` at this precision.
///
/// # Errors
/// - [`Error::InvalidParam`] for `initial ≤ 0`, `shrink ∉ (0, 1)`, `c ∉ [0, 1)`, a non-finite `f`,
///   or a `direction` that is not a descent direction (`gᵀp ≥ 0` or NaN).
/// - [`Error::ShapeMismatch`] when `w`, `g` and `direction` differ in length.
#[allow(clippy::too_many_arguments)]
pub fn backtracking_line_search<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    w: &ArrayRef1<F>,
    f: F,
    g: &ArrayRef1<F>,
    direction: &ArrayRef1<F>,
    initial: f64,
    shrink: f64,
    c: f64,
) -> Result<Option<(F, F)>> {
    check_backtracking(initial, shrink, c)?;
    for (name, v) in [("gradient", g), ("direction", direction)] {
        if v.len() != w.len() {
            return Err(Error::ShapeMismatch {
                context: "backtracking_line_search",
                expected: format!("{name} of length {} (the length of w)", w.len()),
                found: format!("length {}", v.len()),
            });
        }
    }
    if !f.is_finite() {
        return Err(Error::invalid_param(
            "f",
            format!("the value at w must be finite, got {f}"),
        ));
    }
    let slope = g.dot(direction);
    if slope.is_nan() || slope >= F::zero() {
        return Err(Error::invalid_param(
            "direction",
            format!("must be a descent direction (gᵀp < 0), got gᵀp = {slope}"),
        ));
    }
    let c = F::cast(c);
    let shrink = F::cast(shrink);
    let mut eta = F::cast(initial);
    let mut trial = Array1::zeros(w.len());
    for _ in 0..MAX_TRIALS {
        Zip::from(&mut trial)
            .and(w)
            .and(direction)
            .for_each(|t, &wi, &pi| *t = wi + eta * pi);
        if trial.iter().zip(w.iter()).all(|(a, b)| a == b) {
            return Ok(None);
        }
        let f_new = obj.value(&trial);
        if f_new.is_finite() && f_new < f && f_new <= f + c * eta * slope {
            return Ok(Some((eta, f_new)));
        }
        eta *= shrink;
    }
    Ok(None)
}

/// Checks a value produced by the objective during an iteration.
pub(crate) fn check_value<F: Float>(
    value: F,
    iteration: usize,
    context: &'static str,
) -> Result<F> {
    if value.is_finite() {
        Ok(value)
    } else {
        Err(Error::NonFinite {
            context,
            row: iteration,
            col: 0,
        })
    }
}

/// Checks a gradient produced by the objective: length `dim`, finite (`row` = iteration,
/// `col` = coordinate in the error).
pub(crate) fn check_gradient<F: Float>(
    g: &ArrayRef1<F>,
    dim: usize,
    iteration: usize,
    context: &'static str,
) -> Result<()> {
    if g.len() != dim {
        return Err(Error::ShapeMismatch {
            context: "objective gradient",
            expected: format!("length {dim} (the objective's dimension)"),
            found: format!("length {}", g.len()),
        });
    }
    match g.iter().position(|v| !v.is_finite()) {
        Some(col) => Err(Error::NonFinite {
            context,
            row: iteration,
            col,
        }),
        None => Ok(()),
    }
}

/// `w + eta · p`, elementwise (the same expression as the line search's trial point).
pub(crate) fn axpy<F: Float>(w: &ArrayRef1<F>, eta: F, p: &ArrayRef1<F>) -> Array1<F> {
    Zip::from(w).and(p).map_collect(|&wi, &pi| wi + eta * pi)
}

/// `‖a − b‖₂`.
pub(crate) fn dist<F: Float>(a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> F {
    a.iter()
        .zip(b.iter())
        .map(|(&x, &y)| (x - y) * (x - y))
        .sum::<F>()
        .sqrt()
}

const VALUE_CONTEXT: &str =
    "objective value during gradient descent (row = iteration; a diverging step size?)";
const GRAD_CONTEXT: &str =
    "objective gradient during gradient descent (row = iteration, col = coordinate)";

/// Minimises `obj` by gradient descent from `x0` with step rule `step` until a test of `stop`
/// holds (see the module docs for the order of the tests).
///
/// # Errors
/// - [`Error::InvalidParam`] for an invalid `step` or `stop`.
/// - [`Error::ShapeMismatch`] when `x0` (or a returned gradient) does not have length `obj.dim()`.
/// - [`Error::NonFinite`] when `x0` is not finite, or `f`/`∇f` is NaN or infinite at an iterate
///   (`row` = iteration, `col` = coordinate): usually a divergent constant step.
pub fn gradient_descent<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    step: StepSize,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    step.validate()?;
    stop.validate()?;
    let d = obj.dim();
    check_start(x0, d)?;
    let mut w = x0.to_owned();
    let (f0, mut g) = obj.value_and_gradient(&w);
    let mut f = check_value(f0, 0, VALUE_CONTEXT)?;
    check_gradient(&g, d, 0, GRAD_CONTEXT)?;
    let mut history = vec![f];
    let g_norm = norm2(&g);
    if g_norm == F::zero() || (stop.g_tol > 0.0 && g_norm <= F::cast(stop.g_tol)) {
        return Ok(OptimResult::new(w, f, 0, StopReason::GradientNorm, history));
    }
    for t in 1..=stop.max_iter {
        let neg_g = g.mapv(|v| -v);
        let (eta, f_known) = match step {
            StepSize::Backtracking {
                initial,
                shrink,
                armijo_c,
            } => {
                match backtracking_line_search(obj, &w, f, &g, &neg_g, initial, shrink, armijo_c)? {
                    Some((eta, f_new)) => (eta, Some(f_new)),
                    None => {
                        return Ok(OptimResult::new(
                            w,
                            f,
                            t - 1,
                            StopReason::LineSearchFailed,
                            history,
                        ));
                    }
                }
            }
            _ => (F::cast(step.rate(t).unwrap_or(0.0)), None),
        };
        let w_new = axpy(&w, eta, &neg_g);
        let (f_new, g_new) = match f_known {
            Some(fv) => (fv, obj.gradient(&w_new)),
            None => obj.value_and_gradient(&w_new),
        };
        let f_new = check_value(f_new, t, VALUE_CONTEXT)?;
        check_gradient(&g_new, d, t, GRAD_CONTEXT)?;
        let step_norm = dist(&w_new, &w);
        let g_norm = norm2(&g_new);
        history.push(f_new);
        let reason = if g_norm == F::zero() {
            Some(StopReason::GradientNorm)
        } else {
            stop.check(f, f_new, step_norm, norm2(&w_new), Some(g_norm))
                .or_else(|| {
                    observer_stop("gradient_descent", t, stop.max_iter, f_new, Some(g_norm))
                })
        };
        w = w_new;
        f = f_new;
        g = g_new;
        if let Some(r) = reason {
            return Ok(OptimResult::new(w, f, t, r, history));
        }
    }
    Ok(OptimResult::new(
        w,
        f,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::FnObjective;
    use super::super::test_problems::{Logistic, Quadratic, Rosenbrock};
    use super::*;
    use ndarray::array;

    fn exact() -> StopCriteria {
        StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(0.0)
    }

    #[test]
    fn schedules_follow_the_formulas() {
        assert_eq!(StepSize::Constant(0.3).rate(7), Some(0.3));
        assert_eq!(StepSize::InverseT(0.3).rate(3), Some(0.3 / 3.0));
        // c/√t with c = 2, t = 4: 2/2 = 1.
        assert_eq!(StepSize::InverseSqrtT(2.0).rate(4), Some(1.0));
        assert_eq!(
            StepSize::InverseT(1.0).rate(0),
            Some(1.0),
            "t = 0 read as 1"
        );
        assert_eq!(StepSize::backtracking().rate(1), None);
        assert!(StepSize::default().is_backtracking());
    }

    #[test]
    fn invalid_steps_are_rejected() {
        for s in [
            StepSize::Constant(0.0),
            StepSize::InverseT(-1.0),
            StepSize::InverseSqrtT(f64::NAN),
            StepSize::Backtracking {
                initial: 0.0,
                shrink: 0.5,
                armijo_c: 0.0,
            },
            StepSize::Backtracking {
                initial: 1.0,
                shrink: 1.0,
                armijo_c: 0.0,
            },
            StepSize::Backtracking {
                initial: 1.0,
                shrink: 0.5,
                armijo_c: 1.0,
            },
        ] {
            assert!(
                matches!(s.validate(), Err(Error::InvalidParam { .. })),
                "{s:?} should be invalid"
            );
        }
        let q = Quadratic::<f64>::diag(&[1.0, 2.0]);
        let r = gradient_descent(&q, &array![1.0, 1.0], StepSize::Constant(-0.1), exact());
        assert!(matches!(r, Err(Error::InvalidParam { name: "step", .. })));
        let r = gradient_descent(
            &q,
            &array![1.0, 1.0],
            StepSize::Constant(0.1),
            exact().max_iter(0),
        );
        assert!(matches!(
            r,
            Err(Error::InvalidParam {
                name: "max_iter",
                ..
            })
        ));
        assert!(check_schedule(&StepSize::backtracking(), "sgd").is_err());
        assert!(check_schedule(&StepSize::Constant(1.0), "sgd").is_ok());
    }

    #[test]
    fn bad_start_and_bad_objective_are_errors() {
        let q = Quadratic::<f64>::diag(&[1.0, 2.0]);
        let r = gradient_descent(&q, &array![1.0], StepSize::Constant(0.1), exact());
        assert!(matches!(r, Err(Error::ShapeMismatch { .. })));
        let r = gradient_descent(
            &q,
            &array![1.0, f64::INFINITY],
            StepSize::Constant(0.1),
            exact(),
        );
        assert!(matches!(r, Err(Error::NonFinite { .. })));
        // A gradient of the wrong length.
        let bad = FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| w.sum(),
            |_: &ArrayRef1<f64>| array![1.0],
        );
        let r = gradient_descent(&bad, &array![0.0, 0.0], StepSize::Constant(0.1), exact());
        assert!(matches!(r, Err(Error::ShapeMismatch { .. })));
        // A constant step 2.5/λ_max on f = ½·w² diverges: w ← (1 − 2.5)w = −1.5w grows without
        // bound and eventually overflows to infinity.
        let q1 = Quadratic::<f64>::diag(&[1.0]);
        let r = gradient_descent(
            &q1,
            &array![1.0],
            StepSize::Constant(2.5),
            exact().max_iter(5000),
        );
        assert!(matches!(r, Err(Error::NonFinite { .. })), "{r:?}");
    }

    #[test]
    fn constant_step_on_a_quadratic_matches_hand_iterates() {
        // f(w) = ½(1·w₀² + 4·w₁²), ∇f = (w₀, 4w₁). With η = 0.1 from (1, 1):
        // w₁ = (1 − 0.1·1, 1 − 0.1·4) = (0.9, 0.6); w₂ = (0.81, 0.36).
        // f(w₀) = ½(1 + 4) = 2.5; f(w₁) = ½(0.81 + 4·0.36) = 1.125; f(w₂) = ½(0.6561 + 4·0.1296) = 0.58725.
        let q = Quadratic::<f64>::diag(&[1.0, 4.0]);
        let r = gradient_descent(
            &q,
            &array![1.0, 1.0],
            StepSize::Constant(0.1),
            exact().max_iter(2),
        )
        .expect("valid");
        assert_eq!(r.n_iter, 2);
        assert_eq!(r.stop, StopReason::MaxIter);
        assert!(!r.converged);
        assert!((r.x[0] - 0.81).abs() < 1e-15 && (r.x[1] - 0.36).abs() < 1e-15);
        let expect = [2.5, 1.125, 0.58725];
        for (h, e) in r.history.iter().zip(expect) {
            assert!((h - e).abs() < 1e-14, "{h} vs {e}");
        }
    }

    #[test]
    fn decaying_schedules_match_hand_iterates() {
        // f = ½w², ∇f = w. η_t = 1/t from w = 1: t=1: w ← 1 − 1·1 = 0 (stops: zero gradient).
        let q = Quadratic::<f64>::diag(&[1.0]);
        let r =
            gradient_descent(&q, &array![1.0], StepSize::InverseT(1.0), exact()).expect("valid");
        assert_eq!((r.n_iter, r.stop), (1, StopReason::GradientNorm));
        assert_eq!(r.x[0], 0.0);
        // η_t = 0.5/t from w = 1: w₁ = 1 − 0.5 = 0.5; w₂ = 0.5·(1 − 0.25) = 0.375.
        let r = gradient_descent(
            &q,
            &array![1.0],
            StepSize::InverseT(0.5),
            exact().max_iter(2),
        )
        .expect("valid");
        assert!((r.x[0] - 0.375).abs() < 1e-15);
        // η_t = 0.5/√t: w₁ = 0.5; w₂ = 0.5·(1 − 0.5/√2).
        let r = gradient_descent(
            &q,
            &array![1.0],
            StepSize::InverseSqrtT(0.5),
            exact().max_iter(2),
        )
        .expect("valid");
        assert!((r.x[0] - 0.5 * (1.0 - 0.5 / 2f64.sqrt())).abs() < 1e-15);
    }

    #[test]
    fn each_stopping_rule_triggers_separately() {
        let q = Quadratic::<f64>::diag(&[1.0, 4.0]);
        let x0 = array![1.0, 1.0];
        let step = StepSize::Constant(0.1);
        // Only the gradient test.
        let r = gradient_descent(&q, &x0, step, exact().g_tol(1e-3)).expect("valid");
        assert_eq!(r.stop, StopReason::GradientNorm);
        assert!(r.converged);
        assert!(norm2(&q.gradient(&r.x)) <= 1e-3);
        // Only the value-change test: |Δf| ≤ ε₁ max(1, |f|) at the last step, not before.
        let r = gradient_descent(&q, &x0, step, exact().f_tol(1e-6)).expect("valid");
        assert_eq!(r.stop, StopReason::ValueChange);
        let h = &r.history;
        let n = h.len();
        assert!((h[n - 1] - h[n - 2]).abs() <= 1e-6);
        assert!(h.windows(2).take(n - 2).all(|p| (p[1] - p[0]).abs() > 1e-6));
        // Only the step test: ‖Δw‖ = η‖∇f(w_{t−1})‖.
        let r = gradient_descent(&q, &x0, step, exact().x_tol(1e-6)).expect("valid");
        assert_eq!(r.stop, StopReason::StepNorm);
        assert_eq!(r.history.len(), r.n_iter + 1);
        // Only the iteration cap.
        let r = gradient_descent(&q, &x0, step, exact().max_iter(7)).expect("valid");
        assert_eq!(
            (r.stop, r.n_iter, r.converged),
            (StopReason::MaxIter, 7, false)
        );
        // A start that already satisfies the gradient test does no iteration.
        let r = gradient_descent(&q, &array![0.0, 0.0], step, exact()).expect("valid");
        assert_eq!((r.stop, r.n_iter), (StopReason::GradientNorm, 0));
    }

    #[test]
    fn step_norm_stop_is_relative_to_the_iterate() {
        // f = ½(w − 1000)², minimum at 1000: ‖Δw‖ ≤ ε₂·max(1, ‖w‖) uses the scale ~1000.
        let q = Quadratic::<f64>::new(ndarray::Array2::eye(1), array![1000.0]);
        let r = gradient_descent(
            &q,
            &array![0.0],
            StepSize::Constant(0.5),
            exact().x_tol(1e-9),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::StepNorm);
        assert!((r.x[0] - 1000.0).abs() < 1e-5);
    }

    #[test]
    fn line_search_hand_case() {
        // f = ½w², w = 2, g = 2, p = −2. Trials η = 4: w' = −6, f = 18 (rejected);
        // η = 2: w' = −2, f = 2, not < f(w) = 2 (rejected); η = 1: w' = 0, f = 0 ≤ 2 − c·1·4 (accepted).
        let q = Quadratic::<f64>::diag(&[1.0]);
        let w = array![2.0];
        let g = array![2.0];
        let p = array![-2.0];
        let (eta, fv) = backtracking_line_search(&q, &w, 2.0, &g, &p, 4.0, 0.5, 1e-4)
            .expect("valid")
            .expect("a step exists");
        assert_eq!((eta, fv), (1.0, 0.0));
        // With the Armijo constant c = 0.9 the step η = 1 still passes: 0 ≤ 2 − 0.9·4 = −1.6? No,
        // so it is rejected; η = 0.5: w' = 1, f = 0.5 ≤ 2 − 0.9·0.5·4 = 0.2? No; η = 0.25: w' = 1.5,
        // f = 1.125 ≤ 2 − 0.9·0.25·4 = 1.1? No; η = 0.125: w' = 1.75, f = 1.53125 ≤ 1.55: accepted.
        let (eta, fv) = backtracking_line_search(&q, &w, 2.0, &g, &p, 1.0, 0.5, 0.9)
            .expect("valid")
            .expect("a step exists");
        assert_eq!((eta, fv), (0.125, 1.53125));
        // Errors: an ascent direction, mismatched lengths, non-finite f, bad constants.
        assert!(matches!(
            backtracking_line_search(&q, &w, 2.0, &g, &g, 1.0, 0.5, 0.0),
            Err(Error::InvalidParam {
                name: "direction",
                ..
            })
        ));
        assert!(matches!(
            backtracking_line_search(&q, &w, 2.0, &array![1.0, 2.0], &p, 1.0, 0.5, 0.0),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(backtracking_line_search(&q, &w, f64::NAN, &g, &p, 1.0, 0.5, 0.0).is_err());
        assert!(backtracking_line_search(&q, &w, 2.0, &g, &p, 1.0, 0.0, 0.0).is_err());
        assert!(backtracking_line_search(&q, &w, 2.0, &g, &p, 1.0, 0.5, -0.1).is_err());
    }

    #[test]
    fn line_search_rejects_non_finite_trials_and_reports_failure() {
        // f(w) = w on w ≥ −1 and NaN below, from w = 0.4 along p = −1 with initial step 8:
        // η = 8, 4, 2 give w' = −7.6, −3.6, −1.6 (NaN: rejected); η = 1 gives w' = −0.6,
        // f = −0.6 < 0.4 (accepted).
        let f = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| if w[0] < -1.0 { f64::NAN } else { w[0] },
            |_: &ArrayRef1<f64>| array![1.0],
        );
        let (eta, _) = backtracking_line_search(
            &f,
            &array![0.4],
            0.4,
            &array![1.0],
            &array![-1.0],
            8.0,
            0.5,
            0.0,
        )
        .expect("valid")
        .expect("a step exists");
        assert_eq!(eta, 1.0);
        // A function that is flat to the left: no decrease exists → None once the step underflows.
        let flat = FnObjective::new(
            1,
            |_: &ArrayRef1<f64>| 1.0,
            |_: &ArrayRef1<f64>| array![1.0],
        );
        let none = backtracking_line_search(
            &flat,
            &array![0.0],
            1.0,
            &array![1.0],
            &array![-1.0],
            1.0,
            0.5,
            0.0,
        )
        .expect("valid");
        assert!(none.is_none());
        // Gradient descent with a wrong gradient (ascent direction in truth) ends with
        // LineSearchFailed, not an error: f = w but the oracle claims ∇f = −1.
        let liar = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| w[0],
            |_: &ArrayRef1<f64>| array![-1.0],
        );
        let r = gradient_descent(&liar, &array![0.0], StepSize::backtracking(), exact())
            .expect("valid");
        assert_eq!(
            (r.stop, r.n_iter, r.converged),
            (StopReason::LineSearchFailed, 0, false)
        );
    }

    #[test]
    fn backtracking_history_decreases_and_reaches_the_quadratic_optimum() {
        let q = Quadratic::<f64>::new(
            array![[4.0, 1.0, 0.0], [1.0, 3.0, 0.5], [0.0, 0.5, 2.0]],
            array![1.0, -2.0, 0.5],
        );
        let want = crate::linalg::solve(&q.a, &q.b).expect("SPD");
        let r = gradient_descent(
            &q,
            &array![0.0, 0.0, 0.0],
            StepSize::backtracking(),
            exact().g_tol(1e-7),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::GradientNorm);
        assert!(r.history.windows(2).all(|p| p[1] < p[0]));
        // ‖w − w*‖ ≤ ‖∇f(w)‖ / λ_min(A) ≤ 1e-7 / 1.5.
        assert!((&r.x - &want).iter().all(|v| v.abs() < 1e-7));
        // Asking for more than the value test can resolve: once η‖∇f‖² is below the rounding of
        // f (‖∇f‖ ≈ 1e-8 here), no trial shows a decrease and the run ends with LineSearchFailed
        // at an iterate that is as accurate as f's rounding allows.
        let floor = gradient_descent(
            &q,
            &array![0.0, 0.0, 0.0],
            StepSize::backtracking(),
            exact().g_tol(1e-14),
        )
        .expect("valid");
        assert_eq!(floor.stop, StopReason::LineSearchFailed);
        assert!((&floor.x - &want).iter().all(|v| v.abs() < 1e-7));
        // The course notes' plain decrease test (armijo_c = 0) also converges here.
        let plain = StepSize::Backtracking {
            initial: 1.0,
            shrink: 0.5,
            armijo_c: 0.0,
        };
        let r = gradient_descent(&q, &array![0.0, 0.0, 0.0], plain, exact().g_tol(1e-7))
            .expect("valid");
        assert!(r.converged);
        assert!((&r.x - &want).iter().all(|v| v.abs() < 1e-7));
    }

    #[test]
    fn logistic_regression_optimum_has_zero_gradient() {
        let lg = Logistic::<f64>::noisy_separable(60, 0.1, 7);
        let w0 = ndarray::Array1::zeros(lg.dim());
        let loose = gradient_descent(&lg, &w0, StepSize::backtracking(), exact().g_tol(1e-6))
            .expect("valid");
        assert_eq!(loose.stop, StopReason::GradientNorm);
        assert!(norm2(&lg.gradient(&loose.x)) <= 1e-6);
        // Reference: many more iterations with a tight gradient tolerance and a constant step
        // 1/L (L = ¼·λ_max(XᵀX)/n + α bounds the Hessian).
        let tight = gradient_descent(
            &lg,
            &w0,
            StepSize::Constant(1.0 / lg.lipschitz()),
            StopCriteria::default()
                .max_iter(200_000)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(1e-11),
        )
        .expect("valid");
        assert_eq!(tight.stop, StopReason::GradientNorm);
        // Strong convexity α = 0.1: ‖w − w*‖ ≤ ‖∇f(w)‖/α ≤ 1e-5.
        assert!(dist(&loose.x, &tight.x) < 1e-5);
    }

    #[test]
    fn rosenbrock_with_backtracking() {
        // Plain GD on Rosenbrock is slow (curved valley) but reaches (1, 1) within a generous
        // budget (measured: 19 435 iterations to ‖∇f‖ ≤ 1e-8 from (−1.2, 1)).
        let r = gradient_descent(
            &Rosenbrock,
            &array![-1.2, 1.0],
            StepSize::backtracking(),
            StopCriteria::default()
                .max_iter(100_000)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(1e-8),
        )
        .expect("valid");
        assert_eq!(
            r.stop,
            StopReason::GradientNorm,
            "after {} iterations",
            r.n_iter
        );
        assert!(
            (r.x[0] - 1.0).abs() < 1e-6 && (r.x[1] - 1.0).abs() < 1e-6,
            "{}",
            r.x
        );
        assert!(r.history.windows(2).all(|p| p[1] < p[0]));
    }

    #[test]
    fn works_in_f32() {
        let q = Quadratic::<f32>::new(array![[2.0, 0.0], [0.0, 1.0]], array![2.0, -1.0]);
        let r = gradient_descent(
            &q,
            &array![0.0f32, 0.0],
            StepSize::Constant(0.4),
            exact().g_tol(1e-5),
        )
        .expect("valid");
        assert!(r.converged);
        assert!((r.x[0] - 1.0).abs() < 1e-4 && (r.x[1] + 1.0).abs() < 1e-4);
    }
}
