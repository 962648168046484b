//! The subgradient method for convex, possibly non-differentiable objectives.
//!
//! # The method
//!
//! A subgradient of a convex `f` at `w₀` is any `g` with `f(w) ≥ f(w₀) + gᵀ(w − w₀)` for all `w`;
//! where `f` is differentiable it is the gradient. The method replaces the gradient of gradient
//! descent by a subgradient,
//!
//! ```text
//! w_{t+1} = w_t − η_t g_t,      g_t ∈ ∂f(w_t),
//! ```
//!
//! with the oracle [`Objective::gradient`], which must return *some* subgradient (the course notes'
//! kink convention: use derivative 0 for `max(0, ·)` at the kink and `sign(0) = 0` for `|·|`, so
//! that the oracle returns 0 at an optimum such as `w = a` for `‖w − a‖₁`). A subgradient step
//! need not decrease `f`, so the method keeps the **best iterate** seen: the result's `x` and
//! `value` are `argmin`/`min` over all iterates, while `history` records `f(w_t)` of every
//! iterate (not monotone in general).
//!
//! Steps follow a fixed [`StepSize`] schedule; the default choice is the diminishing
//! `InverseSqrtT(c)` (`η_t = c/√t`), for which `min_{s≤t} f(w_s) − f* = O(1/√t)` when the
//! subgradients are bounded. A `Constant` step only reaches a neighbourhood of the optimum of size
//! `O(η)`; [`StepSize::Backtracking`] is rejected (a negative subgradient need not be a descent
//! direction).
//!
//! The stochastic variant of the course notes (a subgradient of a random mini-batch per step) is
//! [`super::minibatch_gd`] with a subgradient oracle in `batch_gradient`.
//!
//! # Stopping
//!
//! - `max_iter` → [`StopReason::MaxIter`] (the usual end: the method has no reliable optimality
//!   test);
//! - `g_tol`: the returned subgradient at the new iterate has `‖g‖ ≤ g_tol`; an exactly zero
//!   subgradient always stops (it certifies optimality) → [`StopReason::GradientNorm`];
//! - `x_tol`: the step `‖w_{t+1} − w_t‖ ≤ ε₂·max(1, ‖w_{t+1}‖)` → [`StopReason::StepNorm`];
//! - `f_tol` is **ignored**: `f` is not monotone and two equal values on either side of a kink
//!   would stop the run far from the optimum.
//!
//! # Complexity
//!
//! One value and one subgradient evaluation per iteration plus `O(d)` vector work.
//!
//! # Choices not in the course notes
//!
//! Keeping the best iterate, ignoring `f_tol`, and the `c/√t` recommendation (the course notes leave the
//! step of the subgradient method open).
//!
//! # References
//!
//! - Subgradients and subgradient descent, with the kink convention of the course notes
//!   (catalog O-04, CL-056): N. Z. Shor, *Minimization Methods for Non-Differentiable
//!   Functions*, Springer, 1985.
//! - S. Boyd, L. Xiao, A. Mutapcic, "Subgradient methods", lecture notes, Stanford EE392o, 2003.
//!
//! ```
//! use ndlearn_core::ndarray::{array, ArrayRef1};
//! use ndlearn_core::optim::{subgradient_method, FnObjective, StepSize, StopCriteria};
//!
//! // f(w) = |w₀ − 1| + |w₁ + 2|, subgradient sign(w − a) with sign(0) = 0.
//! let a = array![1.0, -2.0];
//! let f = FnObjective::new(
//!     2,
//!     |w: &ArrayRef1<f64>| (w.to_owned() - &a).mapv(f64::abs).sum(),
//!     |w: &ArrayRef1<f64>| (w.to_owned() - &a).mapv(|v| if v == 0.0 { 0.0 } else { v.signum() }),
//! );
//! let res = subgradient_method(&f, &array![0.0, 0.0], StepSize::InverseSqrtT(0.5), StopCriteria::default().max_iter(5000))?;
//! assert!(res.value < 1e-2);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::ArrayRef1;

use super::gd::{axpy, check_gradient, check_schedule, check_value, dist};
use super::{Objective, OptimResult, StepSize, StopCriteria, StopReason, check_start, norm2};
use crate::{Float, Result};

const VALUE_CONTEXT: &str =
    "objective value during the subgradient method (row = iteration; a diverging step size?)";
const GRAD_CONTEXT: &str =
    "subgradient during the subgradient method (row = iteration, col = coordinate)";

/// Minimises a convex `obj` with the subgradient method (oracle: `obj.gradient`), returning the
/// best iterate (see the module docs for the stopping rules honoured).
///
/// # Errors
/// - [`crate::Error::InvalidParam`] for an invalid `stop` or `step`, or a backtracking `step`.
/// - [`crate::Error::ShapeMismatch`] when `x0` or a subgradient does not have length `obj.dim()`.
/// - [`crate::Error::NonFinite`] for a non-finite `x0`, value or subgradient.
pub fn subgradient_method<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    step: StepSize,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    check_schedule(&step, "the subgradient method")?;
    stop.validate()?;
    let d = obj.dim();
    check_start(x0, d)?;
    let mut w = x0.to_owned();
    let (f0, mut g) = obj.value_and_gradient(&w);
    let f0 = check_value(f0, 0, VALUE_CONTEXT)?;
    check_gradient(&g, d, 0, GRAD_CONTEXT)?;
    let mut history = vec![f0];
    let mut best = (w.clone(), f0);
    let g_tol = F::cast(stop.g_tol);
    let optimal = |g_norm: F| g_norm == F::zero() || (stop.g_tol > 0.0 && g_norm <= g_tol);
    if optimal(norm2(&g)) {
        return Ok(OptimResult::new(
            w,
            f0,
            0,
            StopReason::GradientNorm,
            history,
        ));
    }
    // f_tol is deliberately not used (see the module docs).
    let stop_no_f = StopCriteria { f_tol: 0.0, ..stop };
    for t in 1..=stop.max_iter {
        let eta = F::cast(step.rate(t).unwrap_or(0.0));
        let w_new = axpy(&w, -eta, &g);
        let (f_new, g_new) = obj.value_and_gradient(&w_new);
        let f_new = check_value(f_new, t, VALUE_CONTEXT)?;
        check_gradient(&g_new, d, t, GRAD_CONTEXT)?;
        history.push(f_new);
        let step_norm = dist(&w_new, &w);
        let g_norm = norm2(&g_new);
        if f_new < best.1 {
            best = (w_new.clone(), f_new);
        }
        let reason = if optimal(g_norm) {
            Some(StopReason::GradientNorm)
        } else {
            stop_no_f.check(f_new, f_new, step_norm, norm2(&w_new), None)
        };
        if let Some(r) = reason {
            // A zero subgradient certifies the current iterate; otherwise report the best one.
            let (x, value) = if r == StopReason::GradientNorm {
                (w_new, f_new)
            } else {
                best
            };
            return Ok(OptimResult::new(x, value, t, r, history));
        }
        w = w_new;
        g = g_new;
    }
    Ok(OptimResult::new(
        best.0,
        best.1,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

#[cfg(test)]
mod tests {
    use super::super::FnObjective;
    use super::*;
    use crate::Error;
    use ndarray::{Array1, array};

    fn sign0(v: f64) -> f64 {
        if v == 0.0 { 0.0 } else { v.signum() }
    }

    fn iters(n: usize) -> StopCriteria {
        StopCriteria::default()
            .max_iter(n)
            .f_tol(0.0)
            .x_tol(0.0)
            .g_tol(0.0)
    }

    #[test]
    fn l1_distance_reaches_its_kink_minimum() {
        // f(w) = ‖w − a‖₁, minimum 0 at a, non-differentiable there.
        let a = array![1.0, -2.0, 0.5];
        let f = FnObjective::new(
            3,
            |w: &ArrayRef1<f64>| (w.to_owned() - &a).mapv(f64::abs).sum(),
            |w: &ArrayRef1<f64>| (w.to_owned() - &a).mapv(sign0),
        );
        let r = subgradient_method(
            &f,
            &array![0.0, 0.0, 0.0],
            StepSize::InverseSqrtT(0.5),
            iters(20_000),
        )
        .expect("valid");
        // Each coordinate ends within one step η_t = 0.5/√t of aⱼ once it oscillates around it.
        assert!(r.value < 3.0 * 0.5 / 100.0, "f = {}", r.value);
        assert!((&r.x - &a).iter().all(|v| v.abs() < 0.5 / 100.0));
        // Best-iterate bookkeeping: the reported value is the minimum of the history and the
        // history itself is not monotone (the iterates oscillate around the kink).
        let min = r.history.iter().copied().fold(f64::INFINITY, f64::min);
        assert_eq!(r.value, min);
        assert!(r.history.windows(2).any(|p| p[1] > p[0]));
    }

    #[test]
    fn exact_hit_with_zero_subgradient_stops() {
        // f(w) = |w − 1| from w = 0 with η₁ = 1: w₁ = 0 − 1·sign(−1) = 1 exactly; the oracle returns
        // sign(0) = 0, which certifies optimality.
        let f = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| (w[0] - 1.0).abs(),
            |w: &ArrayRef1<f64>| array![sign0(w[0] - 1.0)],
        );
        let r = subgradient_method(&f, &array![0.0], StepSize::InverseSqrtT(1.0), iters(100))
            .expect("valid");
        assert_eq!((r.stop, r.n_iter), (StopReason::GradientNorm, 1));
        assert_eq!((r.x[0], r.value), (1.0, 0.0));
        assert!(r.converged);
    }

    #[test]
    fn constant_step_oscillates_and_keeps_the_best() {
        // f(w) = |w| from w = 0.3 with η = 1: the iterates are 0.3, −0.7, 0.3, −0.7, … (each step
        // moves by 1 against sign(w)); the best value is 0.3 and it is kept.
        let f = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| w[0].abs(),
            |w: &ArrayRef1<f64>| array![sign0(w[0])],
        );
        let r =
            subgradient_method(&f, &array![0.3], StepSize::Constant(1.0), iters(6)).expect("valid");
        assert_eq!(r.stop, StopReason::MaxIter);
        assert!((r.value - 0.3).abs() < 1e-15 && (r.x[0] - 0.3).abs() < 1e-15);
        let want = [0.3, 0.7, 0.3, 0.7, 0.3, 0.7, 0.3];
        assert!(
            r.history
                .iter()
                .zip(want)
                .all(|(h, e)| (h - e).abs() < 1e-12),
            "{:?}",
            r.history
        );
    }

    #[test]
    fn one_dimensional_hinge_with_ridge() {
        // f(w) = max(0, 1 − w) + (λ/2)w², subgradient −1·[w < 1] + λw (derivative 0 at the kink).
        // λ = 0.5: for w < 1, f' = −1 + 0.5w < 0, and at w = 1 the subdifferential
        // [−1 + 0.5, 0.5] ∋ 0, so w* = 1 (at the kink) with f* = 0.25.
        // λ = 2: f' = −1 + 2w = 0 at w = 0.5 < 1, f* = 0.5 + 0.25 = 0.75 (smooth optimum).
        for (lambda, w_star, f_star) in [(0.5, 1.0, 0.25), (2.0, 0.5, 0.75)] {
            let f = FnObjective::new(
                1,
                move |w: &ArrayRef1<f64>| (1.0 - w[0]).max(0.0) + 0.5 * lambda * w[0] * w[0],
                move |w: &ArrayRef1<f64>| {
                    let hinge = if w[0] < 1.0 { -1.0 } else { 0.0 };
                    array![hinge + lambda * w[0]]
                },
            );
            let r = subgradient_method(
                &f,
                &array![-3.0],
                StepSize::InverseSqrtT(0.5),
                iters(20_000),
            )
            .expect("valid");
            assert!((r.x[0] - w_star).abs() < 5e-3, "λ = {lambda}: {}", r.x[0]);
            assert!(r.value - f_star < 1e-3 && r.value >= f_star - 1e-12);
        }
    }

    #[test]
    fn svm_hinge_objective_reaches_the_hand_optimum() {
        // Mean hinge loss plus ridge on four separable 2-D points (no bias), λ = 0.1:
        // f(w) = (1/4) Σ max(0, 1 − yᵢxᵢᵀw) + (λ/2)‖w‖², points ±(1, 1), ±(2, 0.5), labels ±1.
        // Each ± pair has one margin: m₁ = w₀ + w₁, m₂ = 2w₀ + 0.5w₁, so
        // f = ½[max(0, 1 − m₁) + max(0, 1 − m₂)] + 0.05‖w‖².
        // Try hinge 1 at its kink and hinge 2 inactive: 0 = 0.1w − ½a(1, 1) with a ∈ [0, 1] gives
        // w = 5a(1, 1); m₁ = 10a = 1 ⇒ a = 0.1 ∈ [0, 1], w* = (0.5, 0.5), m₂ = 1.25 > 1 (consistent).
        // f* = 0.05·(0.25 + 0.25) = 0.025.
        let x = array![[1.0, 1.0], [-1.0, -1.0], [2.0, 0.5], [-2.0, -0.5]];
        let y = array![1.0, -1.0, 1.0, -1.0];
        let lambda = 0.1;
        let value = |w: &ArrayRef1<f64>| {
            let m = x.dot(w) * &y;
            m.mapv(|v| (1.0 - v).max(0.0)).sum() / 4.0 + 0.5 * lambda * w.dot(w)
        };
        let grad = |w: &ArrayRef1<f64>| {
            let m = x.dot(w) * &y;
            let mut g: Array1<f64> = w * lambda;
            for i in 0..4 {
                if m[i] < 1.0 {
                    g.scaled_add(-y[i] / 4.0, &x.row(i));
                }
            }
            g
        };
        let f = FnObjective::new(2, value, grad);
        let r = subgradient_method(
            &f,
            &array![0.0, 0.0],
            StepSize::InverseSqrtT(1.0),
            iters(50_000),
        )
        .expect("valid");
        assert!(
            r.value >= 0.025 - 1e-12 && r.value - 0.025 < 1e-4,
            "{}",
            r.value
        );
        assert!(
            (r.x[0] - 0.5).abs() < 1e-2 && (r.x[1] - 0.5).abs() < 1e-2,
            "{}",
            r.x
        );
    }

    #[test]
    fn step_norm_and_gradient_tolerances() {
        // f = ½w² (smooth: the subgradient is the gradient) with η_t = 1/√t: the step norm test
        // triggers, and the gradient test triggers when asked for.
        let f = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| 0.5 * w[0] * w[0],
            |w: &ArrayRef1<f64>| array![w[0]],
        );
        let r = subgradient_method(
            &f,
            &array![1.0],
            StepSize::InverseSqrtT(0.5),
            iters(10_000).x_tol(1e-6),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::StepNorm);
        let r = subgradient_method(
            &f,
            &array![1.0],
            StepSize::InverseSqrtT(0.5),
            iters(10_000).g_tol(1e-6),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::GradientNorm);
        assert!(r.x[0].abs() <= 1e-6);
        // f_tol is ignored: with only f_tol set the run goes to max_iter.
        let r = subgradient_method(
            &f,
            &array![1.0],
            StepSize::InverseSqrtT(0.5),
            iters(50).f_tol(0.5),
        )
        .expect("valid");
        assert_eq!(r.stop, StopReason::MaxIter);
    }

    #[test]
    fn invalid_arguments() {
        let f = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| w[0].abs(),
            |w: &ArrayRef1<f64>| array![sign0(w[0])],
        );
        assert!(matches!(
            subgradient_method(&f, &array![1.0], StepSize::backtracking(), iters(10)),
            Err(Error::InvalidParam { name: "step", .. })
        ));
        assert!(matches!(
            subgradient_method(&f, &array![1.0, 2.0], StepSize::Constant(0.1), iters(10)),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            subgradient_method(&f, &array![1.0], StepSize::Constant(0.0), iters(10)),
            Err(Error::InvalidParam { .. })
        ));
        let nan = FnObjective::new(
            1,
            |_: &ArrayRef1<f64>| f64::NAN,
            |_: &ArrayRef1<f64>| array![1.0],
        );
        assert!(matches!(
            subgradient_method(&nan, &array![1.0], StepSize::Constant(0.1), iters(10)),
            Err(Error::NonFinite { .. })
        ));
    }

    /// `|w₀ − 1| + |w₁ + 1|` in `f32`.
    struct L1F32;

    impl Objective<f32> for L1F32 {
        fn dim(&self) -> usize {
            2
        }
        fn value(&self, w: &ArrayRef1<f32>) -> f32 {
            (w[0] - 1.0).abs() + (w[1] + 1.0).abs()
        }
        fn gradient(&self, w: &ArrayRef1<f32>) -> Array1<f32> {
            let s = |v: f32| if v == 0.0 { 0.0 } else { v.signum() };
            array![s(w[0] - 1.0), s(w[1] + 1.0)]
        }
    }

    #[test]
    fn works_in_f32() {
        let r = subgradient_method(
            &L1F32,
            &array![0.0f32, 0.0],
            StepSize::InverseSqrtT(0.5),
            iters(5000),
        )
        .expect("valid");
        assert!(r.value < 0.05, "{}", r.value);
    }
}
