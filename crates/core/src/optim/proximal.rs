//! Soft-thresholding and proximal gradient methods (ISTA, FISTA) for `min f(w) + λ‖w‖₁`.
//!
//! # Soft-thresholding
//!
//! The proximal map of `μ‖·‖₁` is the entrywise soft-threshold operator
//!
//! ```text
//! S_μ(x) = sgn(x) · max(|x| − μ, 0) = argmin_z ½(z − x)² + μ|z|,      μ ≥ 0,
//! ```
//!
//! ([`soft_threshold`] for a scalar, [`soft_threshold_array`] for an array of any dimension).
//!
//! # ISTA and FISTA
//!
//! For a smooth `f` whose gradient is `L`-Lipschitz and `g(w) = λ‖w‖₁`, the proximal gradient
//! step from a point `y` is
//!
//! ```text
//! p_L(y) = S_{λ/L}( y − ∇f(y)/L ).
//! ```
//!
//! - **ISTA** (the course notes' algorithm for the lasso, with `τ = 1/L = 1/σ₁(X)²` for
//!   `f = ½‖Xw − y‖²`): `w_{k+1} = p_L(w_k)`. The objective `F = f + g` is non-increasing and
//!   `F(w_k) − F* ≤ L‖w₀ − w*‖²/(2k)`.
//! - **FISTA** (Beck & Teboulle 2009): with `y₁ = w₀`, `t₁ = 1`,
//!   `w_k = p_L(y_k)`, `t_{k+1} = (1 + √(1 + 4t_k²))/2`,
//!   `y_{k+1} = w_k + ((t_k − 1)/t_{k+1}) (w_k − w_{k−1})`; then
//!   `F(w_k) − F* ≤ 2L‖w₀ − w*‖²/(k + 1)²`. `F` need not decrease monotonically.
//!
//! The step `1/L` comes from a [`ProxStep`]: a given Lipschitz constant (`Lipschitz(L)`, e.g.
//! `σ_max(X)²/n` for `f = (1/2n)‖y − Xw‖²`), or Beck & Teboulle's **backtracking**
//! (`Backtracking { initial, growth }`): starting from the current `L` (initially `initial`),
//! multiply it by `growth > 1` until
//!
//! ```text
//! f(p_L(y)) ≤ f(y) + ∇f(y)ᵀ(p_L(y) − y) + (L/2)‖p_L(y) − y‖²;
//! ```
//!
//! `L` never decreases, so at most `⌈log(L_f/initial)/log(growth)⌉` increases happen in a run.
//!
//! # Stopping
//!
//! After each iteration, with `F = f + λ‖·‖₁` recorded in `history` and in `value`:
//! the **gradient-mapping norm** `L‖y_k − w_k‖` (zero exactly when `y_k` is optimal; for ISTA
//! `y_k = w_{k−1}`) `≤ g_tol` → [`StopReason::GradientNorm`] (an exact fixed point always stops);
//! `|F(w_k) − F(w_{k−1})| ≤ ε₁·max(1, |F|)` → [`StopReason::ValueChange`];
//! `‖w_k − w_{k−1}‖ ≤ ε₂·max(1, ‖w_k‖)` → [`StopReason::StepNorm`]; else `max_iter`. For FISTA the
//! value test can fire on a flat stretch of its non-monotone sequence; prefer `g_tol` or `x_tol`.
//!
//! # Complexity
//!
//! Per iteration one gradient and one value of `f` plus `O(d)` work; backtracking adds one value
//! per increase of `L`.
//!
//! # Choices not in the course notes
//!
//! FISTA, the backtracking rule for `L` and the gradient-mapping stopping test come from Beck &
//! Teboulle; the course notes give ISTA with a fixed `τ = 1/σ₁²` (catalog O-06: FISTA is absent from the course notes).
//!
//! # References
//!
//! - Lasso and ISTA with `S_μ` and `τ = 1/σ₁(X)²` as in the course notes (catalog L-05, O-06,
//!   CL-058): R. Tibshirani, "Regression shrinkage and selection via the lasso", JRSS B 58(1),
//!   1996; I. Daubechies, M. Defrise, C. De Mol, "An iterative thresholding algorithm for
//!   linear inverse problems with a sparsity constraint", Comm. Pure Appl. Math. 57(11), 2004.
//! - A. Beck, M. Teboulle, "A fast iterative shrinkage-thresholding algorithm for linear inverse
//!   problems", SIAM J. Imaging Sciences 2(1), 2009.
//!
//! ```
//! use ndlearn_core::ndarray::{array, ArrayRef1};
//! use ndlearn_core::optim::{fista, soft_threshold_array, FnObjective, ProxStep, StopCriteria};
//!
//! assert_eq!(soft_threshold_array(&array![3.0, -0.5, -2.0], 1.0), array![2.0, 0.0, -1.0]);
//!
//! // One-dimensional lasso ½(xβ − y)² + λ|β| with x = 2, y = 3, λ = 1: β̂ = (xy − λ)/x² = 1.25.
//! let f = FnObjective::new(
//!     1,
//!     |b: &ArrayRef1<f64>| 0.5 * (2.0 * b[0] - 3.0).powi(2),
//!     |b: &ArrayRef1<f64>| array![2.0 * (2.0 * b[0] - 3.0)],
//! );
//! let res = fista(&f, &array![0.0], 1.0, ProxStep::Lipschitz(4.0), StopCriteria::default())?;
//! assert!((res.x[0] - 1.25).abs() < 1e-8);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array, Array1, ArrayRef, ArrayRef1, Dimension, Zip};

use super::gd::{MAX_TRIALS, check_gradient, check_value, dist};
use super::{Objective, OptimResult, StopCriteria, StopReason, check_start, norm2, observer_stop};
use crate::{Error, Float, Result};

/// `S_t(x) = sgn(x)·max(|x| − t, 0)` for a threshold `t ≥ 0` (a negative `t` is not a proximal
/// map; the formula is then applied as written).
pub fn soft_threshold<F: Float>(x: F, t: F) -> F {
    if x > t {
        x - t
    } else if x < -t {
        x + t
    } else {
        F::zero()
    }
}

/// [`soft_threshold`] applied to every entry of `v`.
pub fn soft_threshold_array<F: Float, D: Dimension>(v: &ArrayRef<F, D>, t: F) -> Array<F, D> {
    v.mapv(|x| soft_threshold(x, t))
}

/// Which proximal gradient method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProxMethod {
    /// Iterative shrinkage-thresholding: `w_{k+1} = p_L(w_k)`.
    Ista,
    /// Fast ISTA with Beck & Teboulle's momentum sequence `t_k`.
    #[default]
    Fista,
}

/// How the step `1/L` of a proximal gradient method is chosen.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ProxStep {
    /// A Lipschitz constant `L > 0` of `∇f` (a smaller value may diverge).
    Lipschitz(f64),
    /// Beck–Teboulle backtracking: start at `L = initial > 0`, multiply by `growth > 1` until the
    /// quadratic upper bound holds; `L` never decreases during a run.
    Backtracking {
        /// First estimate of `L`.
        initial: f64,
        /// Growth factor `η > 1`.
        growth: f64,
    },
}

impl Default for ProxStep {
    /// `Backtracking { initial: 1.0, growth: 2.0 }`.
    fn default() -> Self {
        Self::Backtracking {
            initial: 1.0,
            growth: 2.0,
        }
    }
}

impl ProxStep {
    /// Checks `L > 0`, or `initial > 0` and `growth > 1` (finite).
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::Lipschitz(l) => crate::validate::check_positive("lipschitz", l),
            Self::Backtracking { initial, growth } => {
                crate::validate::check_positive("initial", initial)?;
                if growth.is_finite() && growth > 1.0 {
                    Ok(())
                } else {
                    Err(Error::invalid_param(
                        "growth",
                        format!("must be a finite number > 1, got {growth}"),
                    ))
                }
            }
        }
    }
}

const VALUE_CONTEXT: &str =
    "objective value during proximal gradient (row = iteration; is L too small?)";
const GRAD_CONTEXT: &str =
    "objective gradient during proximal gradient (row = iteration, col = coordinate)";

fn l1<F: Float>(w: &ArrayRef1<F>) -> F {
    w.iter().map(|v| v.abs()).sum()
}

/// `p_L(y) = S_{λ/L}(y − g/L)`.
fn prox_step<F: Float>(y: &ArrayRef1<F>, g: &ArrayRef1<F>, l: F, lambda: F) -> Array1<F> {
    let thr = lambda / l;
    Zip::from(y)
        .and(g)
        .map_collect(|&yi, &gi| soft_threshold(yi - gi / l, thr))
}

/// Minimises `f(w) + λ‖w‖₁` (`f` = `obj`, smooth) by ISTA or FISTA from `x0` (see the module docs
/// for the iterations, the step rule and the stopping tests). The result's `value` and `history`
/// are values of the composite objective `f + λ‖·‖₁`.
///
/// # Errors
/// - [`Error::InvalidParam`] for a negative or non-finite `lambda`, an invalid `step` or `stop`.
/// - [`Error::ShapeMismatch`] when `x0` or a gradient does not have length `obj.dim()`.
/// - [`Error::NonFinite`] for a non-finite `x0`, value or gradient (with a fixed `L` below the
///   true Lipschitz constant the iteration can diverge).
pub fn proximal_gradient<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    lambda: f64,
    method: ProxMethod,
    step: ProxStep,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    crate::validate::check_non_negative("lambda", lambda)?;
    step.validate()?;
    stop.validate()?;
    let d = obj.dim();
    check_start(x0, d)?;
    let lam = F::cast(lambda);
    let (mut l, growth) = match step {
        ProxStep::Lipschitz(l) => (F::cast(l), None),
        ProxStep::Backtracking { initial, growth } => (F::cast(initial), Some(F::cast(growth))),
    };
    let fista = method == ProxMethod::Fista;
    let half = F::cast(0.5);
    let mut x_prev = x0.to_owned();
    let mut f_prev = check_value(obj.value(&x_prev), 0, VALUE_CONTEXT)?;
    let mut big_f_prev = f_prev + lam * l1(&x_prev);
    let mut history = vec![big_f_prev];
    let mut y = x_prev.clone();
    let mut t_k = F::one();
    for k in 1..=stop.max_iter {
        // Smooth part at y (for ISTA y = x_prev, whose value is known).
        let (fy, gy) = if fista && growth.is_some() {
            let (v, g) = obj.value_and_gradient(&y);
            (check_value(v, k, VALUE_CONTEXT)?, g)
        } else {
            (f_prev, obj.gradient(&y))
        };
        check_gradient(&gy, d, k, GRAD_CONTEXT)?;
        let (x, fx) = match growth {
            None => {
                let x = prox_step(&y, &gy, l, lam);
                let fx = check_value(obj.value(&x), k, VALUE_CONTEXT)?;
                (x, fx)
            }
            Some(eta) => {
                let mut accepted = None;
                for _ in 0..MAX_TRIALS {
                    let p = prox_step(&y, &gy, l, lam);
                    let fp = obj.value(&p);
                    let diff = Zip::from(&p).and(&y).map_collect(|&a, &b| a - b);
                    let bound = fy + gy.dot(&diff) + half * l * diff.dot(&diff);
                    // Near the optimum both sides agree to rounding; without this slack the
                    // test fails on noise and inflates L until the step rounds away.
                    let slack = F::cast(16.0) * F::epsilon() * (fy.abs() + fp.abs());
                    if fp.is_finite() && fp <= bound + slack {
                        accepted = Some((p, fp));
                        break;
                    }
                    l *= eta;
                }
                match accepted {
                    Some(pair) => pair,
                    None => {
                        return Ok(OptimResult::new(
                            x_prev,
                            big_f_prev,
                            k - 1,
                            StopReason::LineSearchFailed,
                            history,
                        ));
                    }
                }
            }
        };
        let big_f = fx + lam * l1(&x);
        history.push(big_f);
        let mapping = l * dist(&y, &x);
        let step_norm = dist(&x, &x_prev);
        let reason = if mapping == F::zero() {
            Some(StopReason::GradientNorm)
        } else {
            stop.check(big_f_prev, big_f, step_norm, norm2(&x), Some(mapping))
                .or_else(|| {
                    observer_stop("proximal_gradient", k, stop.max_iter, big_f, Some(mapping))
                })
        };
        if fista {
            let t_next = (F::one() + (F::one() + F::cast(4.0) * t_k * t_k).sqrt()) * half;
            let beta = (t_k - F::one()) / t_next;
            y = Zip::from(&x)
                .and(&x_prev)
                .map_collect(|&a, &b| a + beta * (a - b));
            t_k = t_next;
        } else {
            y = x.clone();
        }
        x_prev = x;
        f_prev = fx;
        big_f_prev = big_f;
        if let Some(r) = reason {
            return Ok(OptimResult::new(x_prev, big_f_prev, k, r, history));
        }
    }
    Ok(OptimResult::new(
        x_prev,
        big_f_prev,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

/// ISTA: [`proximal_gradient`] with [`ProxMethod::Ista`].
///
/// # Errors
/// As [`proximal_gradient`].
pub fn ista<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    lambda: f64,
    step: ProxStep,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    proximal_gradient(obj, x0, lambda, ProxMethod::Ista, step, stop)
}

/// FISTA: [`proximal_gradient`] with [`ProxMethod::Fista`].
///
/// # Errors
/// As [`proximal_gradient`].
pub fn fista<F: Float, O: Objective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    lambda: f64,
    step: ProxStep,
    stop: StopCriteria,
) -> Result<OptimResult<F>> {
    proximal_gradient(obj, x0, lambda, ProxMethod::Fista, step, stop)
}

#[cfg(test)]
mod tests {
    use super::super::FnObjective;
    use super::super::test_problems::LeastSquares;
    use super::*;
    use ndarray::array;

    fn only_g(tol: f64) -> StopCriteria {
        StopCriteria::default()
            .max_iter(100_000)
            .f_tol(0.0)
            .x_tol(0.0)
            .g_tol(tol)
    }

    /// Largest violation of the lasso optimality conditions for `(1/2n)‖y − Xw‖² + λ‖w‖₁`:
    /// `c = Xᵀ(y − Xw)/n`; `c_j = λ·sign(w_j)` on the support, `|c_j| ≤ λ` off it.
    fn kkt_violation(ls: &LeastSquares, w: &Array1<f64>, lambda: f64) -> f64 {
        let c = ls.correlation(w);
        c.iter()
            .zip(w)
            .map(|(&cj, &wj)| {
                if wj != 0.0 {
                    (cj - lambda * wj.signum()).abs()
                } else {
                    (cj.abs() - lambda).max(0.0)
                }
            })
            .fold(0.0, f64::max)
    }

    #[test]
    fn soft_threshold_catalog_vector() {
        // S₁([3, −0.5, −2]) = [2, 0, −1] (catalog L-05).
        assert_eq!(
            soft_threshold_array(&array![3.0, -0.5, -2.0], 1.0),
            array![2.0, 0.0, -1.0]
        );
        // Scalars: the dead zone [−t, t] maps to 0, boundaries included.
        assert_eq!(soft_threshold(1.0, 1.0), 0.0);
        assert_eq!(soft_threshold(-1.0, 1.0), 0.0);
        assert_eq!(soft_threshold(2.5f32, 0.5), 2.0);
        assert_eq!(soft_threshold(0.7, 0.0), 0.7, "t = 0 is the identity");
        // Any dimension.
        let m = array![[1.5, -0.2], [-3.0, 0.0]];
        assert_eq!(
            soft_threshold_array(&m, 0.5),
            array![[1.0, 0.0], [-2.5, 0.0]]
        );
    }

    #[test]
    fn one_dimensional_lasso_closed_form() {
        // ½(xβ − y)² + λ|β| with x = 2, y = 3: β̂ = max(y/x − λ/x², 0) for y/x > 0, i.e.
        // λ = 1 ⇒ 1.5 − 0.25 = 1.25; λ ≥ |xy| = 6 ⇒ 0 (catalog L-05, TV33). L = x² = 4.
        let f = FnObjective::new(
            1,
            |b: &ArrayRef1<f64>| 0.5 * (2.0 * b[0] - 3.0).powi(2),
            |b: &ArrayRef1<f64>| array![2.0 * (2.0 * b[0] - 3.0)],
        );
        for method in [ProxMethod::Ista, ProxMethod::Fista] {
            for (lambda, want) in [(1.0, 1.25), (6.0, 0.0), (9.0, 0.0)] {
                let r = proximal_gradient(
                    &f,
                    &array![0.0],
                    lambda,
                    method,
                    ProxStep::Lipschitz(4.0),
                    only_g(1e-12),
                )
                .expect("valid");
                assert!(
                    (r.x[0] - want).abs() < 1e-10,
                    "{method:?} λ = {lambda}: {}",
                    r.x[0]
                );
            }
        }
        // ISTA with τ = 1/x² reaches the 1-D solution in one step: β₁ = S_{1/4}(0 + 6/4) = 1.25,
        // then β₂ = β₁ (exact fixed point) stops the run.
        let r = ista(&f, &array![0.0], 1.0, ProxStep::Lipschitz(4.0), only_g(0.0)).expect("valid");
        assert_eq!(r.x[0], 1.25);
        assert_eq!((r.n_iter, r.stop), (2, StopReason::GradientNorm));
        // F(0) = 4.5; F(1.25) = ½(2.5 − 3)² + 1.25 = 1.375.
        assert_eq!(r.history, vec![4.5, 1.375, 1.375]);
    }

    #[test]
    fn fista_beats_ista_and_both_satisfy_the_lasso_conditions() {
        // Correlated columns (a common factor) make XᵀX ill-conditioned, where acceleration pays.
        let ls = LeastSquares::correlated(40, 30, 1.0, 3);
        let lambda = 0.1;
        let l = ProxStep::Lipschitz(ls.lipschitz());
        let w0 = Array1::zeros(30);
        // Reference optimum, certified by the optimality conditions.
        let reference = fista(&ls, &w0, lambda, l, only_g(1e-11)).expect("valid");
        assert_eq!(reference.stop, StopReason::GradientNorm);
        assert!(kkt_violation(&ls, &reference.x, lambda) < 1e-9);
        let f_star = reference.value;

        // Iterations until F(w_k) − F* ≤ 1e-6·max(1, |F*|), from the recorded histories.
        let fixed = StopCriteria::default()
            .max_iter(5000)
            .f_tol(0.0)
            .x_tol(0.0)
            .g_tol(0.0);
        let is = ista(&ls, &w0, lambda, l, fixed).expect("valid");
        let fs = fista(&ls, &w0, lambda, l, fixed).expect("valid");
        let reach = |h: &[f64]| {
            h.iter()
                .position(|&v| v - f_star <= 1e-6 * f_star.abs().max(1.0))
        };
        let (ki, kf) = (reach(&is.history), reach(&fs.history));
        let (ki, kf) = (
            ki.expect("ISTA reaches the gap"),
            kf.expect("FISTA reaches the gap"),
        );
        assert!(
            2 * kf < ki,
            "FISTA {kf} vs ISTA {ki} iterations to a 1e-6 gap"
        );

        // Stopping on the gradient mapping: FISTA also stops first, and both solutions satisfy the
        // lasso conditions and agree with the reference.
        let is = ista(&ls, &w0, lambda, l, only_g(1e-9)).expect("valid");
        let fs = fista(&ls, &w0, lambda, l, only_g(1e-9)).expect("valid");
        assert_eq!(
            (is.stop, fs.stop),
            (StopReason::GradientNorm, StopReason::GradientNorm)
        );
        assert!(
            fs.n_iter < is.n_iter,
            "FISTA {} vs ISTA {}",
            fs.n_iter,
            is.n_iter
        );
        for r in [&is, &fs] {
            let v = kkt_violation(&ls, &r.x, lambda);
            assert!(v < 1e-8, "KKT violation {v}");
            assert!(dist(&r.x, &reference.x) < 1e-6);
        }
        assert!(
            fs.x.iter().any(|&v| v == 0.0),
            "the lasso solution is sparse"
        );
        // ISTA's composite objective is non-increasing (notes: τ = 1/σ₁² decreases F), up to the
        // rounding of F near the optimum.
        let worst = is
            .history
            .windows(2)
            .map(|p| (p[1] - p[0]) / p[0].abs())
            .fold(f64::MIN, f64::max);
        assert!(worst <= 1e-15, "largest relative increase {worst}");
    }

    #[test]
    fn support_is_recovered_on_a_well_conditioned_design() {
        let ls = LeastSquares::sparse(60, 20, 3);
        let r = fista(
            &ls,
            &Array1::zeros(20),
            0.1,
            ProxStep::Lipschitz(ls.lipschitz()),
            only_g(1e-10),
        )
        .expect("valid");
        assert!(kkt_violation(&ls, &r.x, 0.1) < 1e-9);
        // True support: j mod 4 ∈ {0, 1}.
        for (j, &wj) in r.x.iter().enumerate() {
            assert_eq!(wj != 0.0, j % 4 < 2, "coordinate {j}: {wj}");
        }
    }

    #[test]
    fn backtracking_estimates_l() {
        let ls = LeastSquares::sparse(40, 12, 5);
        let lambda = 0.05;
        let w0 = Array1::zeros(12);
        let reference = fista(
            &ls,
            &w0,
            lambda,
            ProxStep::Lipschitz(ls.lipschitz()),
            only_g(1e-10),
        )
        .expect("valid");
        for method in [ProxMethod::Ista, ProxMethod::Fista] {
            // From far below (1e-3) and from far above (1e3) the true L.
            for initial in [1e-3, 1e3] {
                let step = ProxStep::Backtracking {
                    initial,
                    growth: 2.0,
                };
                let r = proximal_gradient(&ls, &w0, lambda, method, step, only_g(1e-10))
                    .expect("valid");
                assert_eq!(r.stop, StopReason::GradientNorm, "{method:?} {initial}");
                let v = kkt_violation(&ls, &r.x, lambda);
                assert!(v < 1e-8, "{method:?} from L = {initial}: KKT violation {v}");
                assert!(dist(&r.x, &reference.x) < 1e-8);
                if method == ProxMethod::Ista {
                    assert!(
                        r.history
                            .windows(2)
                            .all(|p| p[1] <= p[0] + 1e-15 * p[0].abs())
                    );
                }
            }
        }
    }

    #[test]
    fn lambda_zero_is_gradient_descent_and_large_lambda_gives_zero() {
        // λ = 0: plain least squares; the solution solves the normal equations.
        let ls = LeastSquares::sparse(30, 5, 8);
        let w0 = Array1::zeros(5);
        let r = fista(
            &ls,
            &w0,
            0.0,
            ProxStep::Lipschitz(ls.lipschitz()),
            only_g(1e-11),
        )
        .expect("valid");
        let ols = crate::linalg::lstsq(&ls.x, &ls.y, None)
            .expect("full rank")
            .solution;
        assert!(dist(&r.x, &ols) < 1e-8);
        // λ ≥ max_j |Xᵀy/n|_j: w = 0 is optimal, and ISTA from 0 stays there exactly.
        let lmax = ls
            .correlation(&w0)
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        let r = ista(
            &ls,
            &w0,
            lmax * 1.01,
            ProxStep::Lipschitz(ls.lipschitz()),
            only_g(0.0),
        )
        .expect("valid");
        assert!(r.x.iter().all(|&v| v == 0.0));
        assert_eq!((r.n_iter, r.stop), (1, StopReason::GradientNorm));
    }

    #[test]
    fn stopping_rules_and_errors() {
        let ls = LeastSquares::sparse(30, 8, 1);
        let w0 = Array1::zeros(8);
        let l = ProxStep::Lipschitz(ls.lipschitz());
        let base = StopCriteria::default().f_tol(0.0).x_tol(0.0).g_tol(0.0);
        let r = ista(&ls, &w0, 0.1, l, base.max_iter(3)).expect("valid");
        assert_eq!(
            (r.n_iter, r.stop, r.history.len()),
            (3, StopReason::MaxIter, 4)
        );
        let r = ista(&ls, &w0, 0.1, l, base.f_tol(1e-9)).expect("valid");
        assert_eq!(r.stop, StopReason::ValueChange);
        let r = fista(&ls, &w0, 0.1, l, base.x_tol(1e-9)).expect("valid");
        assert_eq!(r.stop, StopReason::StepNorm);
        // The value reported is the composite objective.
        let fval = ls.value(&r.x) + 0.1 * r.x.iter().map(|v| v.abs()).sum::<f64>();
        assert!((r.value - fval).abs() < 1e-14);

        assert!(matches!(
            ista(&ls, &w0, -1.0, l, base),
            Err(Error::InvalidParam { name: "lambda", .. })
        ));
        assert!(matches!(
            ista(&ls, &w0, 0.1, ProxStep::Lipschitz(0.0), base),
            Err(Error::InvalidParam {
                name: "lipschitz",
                ..
            })
        ));
        assert!(matches!(
            ista(
                &ls,
                &w0,
                0.1,
                ProxStep::Backtracking {
                    initial: 1.0,
                    growth: 1.0
                },
                base
            ),
            Err(Error::InvalidParam { name: "growth", .. })
        ));
        assert!(matches!(
            ista(&ls, &Array1::zeros(3), 0.1, l, base),
            Err(Error::ShapeMismatch { .. })
        ));
        // A fixed L far below the true constant diverges: reported as NonFinite.
        let r = ista(
            &ls,
            &w0,
            0.0,
            ProxStep::Lipschitz(ls.lipschitz() * 1e-3),
            base.max_iter(100_000),
        );
        assert!(matches!(r, Err(Error::NonFinite { .. })), "{r:?}");
    }

    /// `½‖w − c‖²` in f32 (L = 1); the lasso solution is `S_λ(c)`.
    struct ShiftF32(Array1<f32>);

    impl Objective<f32> for ShiftF32 {
        fn dim(&self) -> usize {
            self.0.len()
        }
        fn value(&self, w: &ArrayRef1<f32>) -> f32 {
            let r = w.to_owned() - &self.0;
            0.5 * r.dot(&r)
        }
        fn gradient(&self, w: &ArrayRef1<f32>) -> Array1<f32> {
            w.to_owned() - &self.0
        }
    }

    #[test]
    fn works_in_f32() {
        // min ½‖w − c‖² + λ‖w‖₁ = S_λ(c): c = (3, −0.5, −2), λ = 1 ⇒ (2, 0, −1).
        let obj = ShiftF32(array![3.0f32, -0.5, -2.0]);
        let r = fista(
            &obj,
            &Array1::zeros(3),
            1.0,
            ProxStep::default(),
            only_g(1e-6),
        )
        .expect("valid");
        assert!(
            r.x.iter()
                .zip([2.0f32, 0.0, -1.0])
                .all(|(a, b)| (a - b).abs() < 1e-5),
            "{}",
            r.x
        );
    }
}
