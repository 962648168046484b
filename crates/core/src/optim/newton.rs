//! Newton's method: one-dimensional ([`newton_1d`]) and multivariate ([`newton`]) with a
//! Cholesky solve, Levenberg-style damping and a backtracking step.
//!
//! # The math (catalog O-07)
//!
//! A second-order Taylor model `f(x) ≈ f(xₖ) + gₖᵀ(x − xₖ) + ½(x − xₖ)ᵀHₖ(x − xₖ)` is minimised
//! exactly (Boyd & Vandenberghe, *Convex Optimization*, Cambridge University Press (2004),
//! §9.5; Nocedal & Wright, *Numerical Optimization*, 2nd ed., Springer (2006), ch. 3):
//!
//! * 1-D: `xₖ₊₁ = xₖ − f'(xₖ)/f''(xₖ)`; applied to `(g, g')` instead of `(f', f'')` the same
//!   iteration finds a root of `g`;
//! * multivariate: `xₖ₊₁ = xₖ − Hₖ⁻¹gₖ`, computed, as the course notes advise, by factorising
//!   `Hₖ = LLᵀ` (Cholesky) and solving `Hₖ d = −gₖ` instead of inverting.
//!
//! The course notes stop while `|x − x₀| > ε`; here every [`StopCriteria`] test applies
//! (`‖∇f‖ ≤ g_tol`, `|Δf| ≤ ε₁`, `‖Δx‖ ≤ ε₂`, `max_iter`).
//!
//! Pure Newton can overshoot when `f''` is small and go uphill on non-convex `f` (Nocedal &
//! Wright (2006), §3.4, Newton's method with Hessian modification). Two safeguards make
//! [`newton`] robust:
//!
//! 1. **Levenberg damping** (implementation choice): when `Hₖ` is not positive definite, the
//!    Cholesky factorisation fails and `μI` is added, `μ = 10⁻³·max(1, maxᵢ|Hᵢᵢ|)` first and
//!    ×10 until `Hₖ + μI` factorises, so `d` is always a descent direction;
//! 2. **backtracking** (implementation choice): the step `t ∈ {1, ½, ¼, …}` must satisfy the
//!    Armijo condition `f(xₖ + t d) ≤ f(xₖ) + c₁ t gₖᵀd + 4ε|f(xₖ)|` with `c₁ = 10⁻⁴` (the
//!    `4ε|f|` slack absorbs the rounding error of `f` once the predicted decrease is below it).
//!    Near a strict minimum `t = 1` is accepted and the iteration converges quadratically.
//!
//! Both can be switched off ([`NewtonOptions::damping`], [`NewtonOptions::backtracking`]) to run
//! the course notes' plain iteration; on a strictly convex quadratic one plain step lands on the minimum.
//!
//! # Complexity
//!
//! Per iteration: one gradient and one Hessian evaluation (the course notes count `D + C(D, 2)` second
//! derivatives, `O(ND²)` for a sum over `N` samples), one Cholesky factorisation `O(D³/3)`
//! (repeated per damping attempt), and a few function evaluations for backtracking.
//!
//! # Errors
//!
//! An objective without [`Objective::hessian`] is refused with [`Error::InvalidParam`]
//! (`name = "objective"`), unless [`NewtonOptions::fd_hessian`] asks for central differences of
//! the gradient ([`super::finite_diff::hessian_from_gradient`]).

use ndarray::{Array1, Array2, ArrayRef1};

use super::{
    OptimResult, StopCriteria, StopReason, check_start, finite_diff, norm2, observer_stop,
};
use crate::linalg::CholeskyFactor;
use crate::{Error, Float, LinalgErrorKind, Result};

/// Result of [`newton_1d`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Newton1dResult<F: Float> {
    /// The final iterate.
    pub x: F,
    /// `g(x)` at the final iterate (`f'(x)` when minimising).
    pub g: F,
    /// Iterations performed.
    pub n_iter: usize,
    /// Whether a tolerance (not `max_iter`) ended the run.
    pub converged: bool,
    /// Which rule ended the run.
    pub stop: StopReason,
}

/// One-dimensional Newton iteration `x ← x − g(x)/g'(x)`.
///
/// * Minimisation (the course notes' form): pass `g = f'`, `dg = f''`; the result is a stationary point
///   of `f` (a minimum when `f'' > 0` there).
/// * Root finding: pass `g` and its derivative `dg`.
///
/// Stops when `|g(x)| ≤ g_tol`, or `|xₖ₊₁ − xₖ| ≤ x_tol·max(1, |xₖ₊₁|)` (the course notes' `|x − x₀| ≤
/// ε`), or after `max_iter` iterations; `f_tol` is ignored (there is no `f`).
///
/// Errors: invalid `stop`; non-finite `x0` ([`Error::NonFinite`]); `g` or `dg` non-finite at an
/// iterate ([`Error::NonFinite`], `context = "newton_1d: g(x) or g'(x)"`, `row` = iteration);
/// `dg(x) = 0` ([`Error::Linalg`] with [`LinalgErrorKind::Singular`]).
///
/// ```
/// use ndlearn_core::optim::{newton_1d, StopCriteria};
/// // Minimise f(x) = x⁴/4 − x: f'(x) = x³ − 1, f''(x) = 3x²; the minimum is x = 1.
/// let r = newton_1d(|x: f64| x.powi(3) - 1.0, |x: f64| 3.0 * x * x, 2.0, &StopCriteria::default())?;
/// assert!((r.x - 1.0).abs() < 1e-12 && r.converged);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn newton_1d<F, G, D>(g: G, dg: D, x0: F, stop: &StopCriteria) -> Result<Newton1dResult<F>>
where
    F: Float,
    G: Fn(F) -> F,
    D: Fn(F) -> F,
{
    stop.validate()?;
    if !x0.is_finite() {
        return Err(Error::NonFinite {
            context: "x0",
            row: 0,
            col: 0,
        });
    }
    let g_tol = F::cast(stop.g_tol);
    let x_tol = F::cast(stop.x_tol);
    let mut x = x0;
    let mut gx = g(x);
    for it in 0..stop.max_iter {
        if !gx.is_finite() {
            return Err(Error::NonFinite {
                context: "newton_1d: g(x) or g'(x)",
                row: it,
                col: 0,
            });
        }
        if stop.g_tol > 0.0 && gx.abs() <= g_tol {
            return Ok(Newton1dResult {
                x,
                g: gx,
                n_iter: it,
                converged: true,
                stop: StopReason::GradientNorm,
            });
        }
        let d = dg(x);
        if !d.is_finite() {
            return Err(Error::NonFinite {
                context: "newton_1d: g(x) or g'(x)",
                row: it,
                col: 1,
            });
        }
        if d == F::zero() {
            return Err(Error::Linalg {
                op: "newton_1d",
                kind: LinalgErrorKind::Singular,
                detail: Some(format!("g'(x) = 0 at x = {x} (iteration {it})")),
            });
        }
        let x_new = x - gx / d;
        let step = (x_new - x).abs();
        x = x_new;
        gx = g(x);
        if stop.x_tol > 0.0 && step <= x_tol * F::one().max(x.abs()) {
            return Ok(Newton1dResult {
                x,
                g: gx,
                n_iter: it + 1,
                converged: true,
                stop: StopReason::StepNorm,
            });
        }
    }
    let converged = stop.g_tol > 0.0 && gx.abs() <= g_tol;
    Ok(Newton1dResult {
        x,
        g: gx,
        n_iter: stop.max_iter,
        converged,
        stop: if converged {
            StopReason::GradientNorm
        } else {
            StopReason::MaxIter
        },
    })
}

/// Options of [`newton`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct NewtonOptions {
    /// Stopping rules (default: [`StopCriteria::default`] with `max_iter = 100`).
    pub stop: StopCriteria,
    /// Add `μI` to a Hessian that is not positive definite (default `true`). With `false`, a
    /// Hessian that is not positive definite is an error ([`LinalgErrorKind::NotPositiveDefinite`]).
    pub damping: bool,
    /// Backtrack on the Newton step until the Armijo condition holds (default `true`). With
    /// `false`, the full step is always taken (the course notes' plain iteration).
    pub backtracking: bool,
    /// Armijo constant `c₁ ∈ (0, 1)` (default `1e-4`).
    pub c1: f64,
    /// Use central differences of the gradient when the objective has no Hessian (default
    /// `false`: such an objective is an error).
    pub fd_hessian: bool,
}

impl Default for NewtonOptions {
    fn default() -> Self {
        Self {
            stop: StopCriteria::default().max_iter(100),
            damping: true,
            backtracking: true,
            c1: 1e-4,
            fd_hessian: false,
        }
    }
}

impl NewtonOptions {
    crate::setters! {
        /// Sets `stop`.
        stop: StopCriteria,
        /// Sets `damping`.
        damping: bool,
        /// Sets `backtracking`.
        backtracking: bool,
        /// Sets `c1`.
        c1: f64,
        /// Sets `fd_hessian`.
        fd_hessian: bool,
    }
    /// Checks the values.
    pub fn validate(&self) -> Result<()> {
        self.stop.validate()?;
        if !(self.c1 > 0.0 && self.c1 < 1.0) {
            return Err(Error::invalid_param(
                "c1",
                format!("must lie in (0, 1), got {}", self.c1),
            ));
        }
        Ok(())
    }
}

const MAX_DAMPING_TRIES: usize = 40;
const MAX_BACKTRACKS: usize = 60;

/// The Hessian at `x`: analytic, or by finite differences when allowed.
fn hessian_at<F, O>(obj: &O, x: &ArrayRef1<F>, fd: bool) -> Result<Array2<F>>
where
    F: Float,
    O: super::Objective<F> + ?Sized,
{
    let n = x.len();
    let h = match obj.hessian(x) {
        Some(h) => h,
        None if fd => finite_diff::hessian_from_gradient(|w: &ArrayRef1<F>| obj.gradient(w), x)?,
        None => {
            return Err(Error::invalid_param(
                "objective",
                "Newton's method needs a Hessian: implement Objective::hessian, or set \
                 NewtonOptions::fd_hessian(true) for finite differences, or use L-BFGS",
            ));
        }
    };
    if h.dim() != (n, n) {
        return Err(Error::ShapeMismatch {
            context: "Newton: Hessian shape",
            expected: format!("{n}x{n}"),
            found: format!("{}x{}", h.nrows(), h.ncols()),
        });
    }
    crate::validate::check_finite_2d(&h, "Hessian")?;
    Ok(h)
}

/// Factorises `(H + Hᵀ)/2 + μI` with the smallest `μ ∈ {0, μ₀, 10μ₀, …}` that works.
pub(crate) fn damped_cholesky<F: Float>(h: &Array2<F>, damping: bool) -> Result<CholeskyFactor<F>> {
    let n = h.nrows();
    let half = F::cast(0.5);
    let mut sym = Array2::from_shape_fn((n, n), |(i, j)| half * (h[[i, j]] + h[[j, i]]));
    match CholeskyFactor::new(&sym) {
        Ok(c) => return Ok(c),
        Err(Error::Linalg {
            kind: LinalgErrorKind::NotPositiveDefinite,
            ..
        }) if damping => {}
        Err(e) => return Err(e),
    }
    let max_diag = sym.diag().iter().fold(F::zero(), |m, v| m.max(v.abs()));
    let mut mu = F::cast(1e-3) * F::one().max(max_diag);
    let mut added = F::zero();
    for _ in 0..MAX_DAMPING_TRIES {
        for i in 0..n {
            sym[[i, i]] += mu - added;
        }
        added = mu;
        if let Ok(c) = CholeskyFactor::new(&sym) {
            return Ok(c);
        }
        mu *= F::cast(10.0);
    }
    Err(Error::Linalg {
        op: "newton",
        kind: LinalgErrorKind::NotPositiveDefinite,
        detail: Some(format!(
            "Hessian + {added}·I is still not positive definite"
        )),
    })
}

/// Multivariate Newton's method with Cholesky solves, Levenberg damping and Armijo
/// backtracking (see the module docs).
///
/// The returned [`OptimResult::history`] holds `f` at the start and after every iteration.
///
/// Errors: invalid `opts`; `x0` of the wrong length or non-finite; an objective without Hessian
/// (unless `fd_hessian`); a Hessian of the wrong shape or non-finite; a Hessian that is not
/// positive definite with `damping = false`; a non-finite `f` or gradient at `x0`.
///
/// ```
/// use ndlearn_core::ndarray::{array, Array1, Array2, ArrayRef1};
/// use ndlearn_core::optim::{newton, FnObjective, NewtonOptions};
/// // f(x) = ½xᵀAx − bᵀx with A = [[3, 1], [1, 2]], b = (1, 1): minimum at A⁻¹b = (0.2, 0.4).
/// let a = array![[3.0, 1.0], [1.0, 2.0]];
/// let b = array![1.0, 1.0];
/// let obj = FnObjective::new(
///     2,
///     |x: &ArrayRef1<f64>| 0.5 * x.dot(&a.dot(x)) - b.dot(x),
///     |x: &ArrayRef1<f64>| a.dot(x) - &b,
/// )
/// .with_hessian(|_: &ArrayRef1<f64>| a.clone());
/// let r = newton(&obj, &Array1::zeros(2), &NewtonOptions::default())?;
/// assert!((r.x[0] - 0.2).abs() < 1e-12 && (r.x[1] - 0.4).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn newton<F, O>(obj: &O, x0: &ArrayRef1<F>, opts: &NewtonOptions) -> Result<OptimResult<F>>
where
    F: Float,
    O: super::Objective<F> + ?Sized,
{
    opts.validate()?;
    let n = obj.dim();
    check_start(x0, n)?;
    let stop = &opts.stop;
    let c1 = F::cast(opts.c1);
    let mut x = x0.to_owned();
    let (mut fx, mut g) = obj.value_and_gradient(&x);
    check_value_grad(fx, &g, n)?;
    let mut history = vec![fx];
    if stop.g_tol > 0.0 && norm2(&g) <= F::cast(stop.g_tol) {
        return Ok(OptimResult::new(
            x,
            fx,
            0,
            StopReason::GradientNorm,
            history,
        ));
    }
    let mut x_trial = Array1::zeros(n);
    for it in 1..=stop.max_iter {
        let h = hessian_at(obj, &x, opts.fd_hessian)?;
        let chol = damped_cholesky(&h, opts.damping)?;
        let neg_g = g.mapv(|v| -v);
        let d = chol.solve(&neg_g)?;
        let slope = g.dot(&d);
        // Backtracking on the Armijo condition.
        let mut t = F::one();
        let mut accepted = None;
        for _ in 0..MAX_BACKTRACKS {
            x_trial.assign(&x);
            x_trial.scaled_add(t, &d);
            let f_trial = obj.value(&x_trial);
            // Armijo, with a slack of a few ulps of f: near the optimum the predicted decrease
            // falls below the rounding error of f and the exact test would reject good steps.
            let noise = F::cast(4.0) * F::epsilon() * fx.abs();
            if !opts.backtracking || (f_trial.is_finite() && f_trial <= fx + c1 * t * slope + noise)
            {
                accepted = Some(f_trial);
                break;
            }
            t *= F::cast(0.5);
        }
        let Some(f_new) = accepted else {
            return Ok(OptimResult::new(
                x,
                fx,
                it - 1,
                StopReason::LineSearchFailed,
                history,
            ));
        };
        let step_norm = t.abs() * norm2(&d);
        std::mem::swap(&mut x, &mut x_trial);
        let f_prev = fx;
        let (f_chk, g_new) = obj.value_and_gradient(&x);
        fx = if f_chk.is_finite() { f_chk } else { f_new };
        g = g_new;
        history.push(fx);
        if !fx.is_finite() || g.iter().any(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                context: "newton: f or gradient at an iterate (try backtracking = true)",
                row: it,
                col: 0,
            });
        }
        if let Some(reason) = stop
            .check(f_prev, fx, step_norm, norm2(&x), Some(norm2(&g)))
            .or_else(|| observer_stop("newton", it, stop.max_iter, fx, None))
        {
            return Ok(OptimResult::new(x, fx, it, reason, history));
        }
    }
    Ok(OptimResult::new(
        x,
        fx,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

pub(crate) fn check_value_grad<F: Float>(f: F, g: &Array1<F>, n: usize) -> Result<()> {
    if g.len() != n {
        return Err(Error::ShapeMismatch {
            context: "objective gradient length",
            expected: format!("{n} (the objective's dimension)"),
            found: g.len().to_string(),
        });
    }
    if !f.is_finite() {
        return Err(Error::NonFinite {
            context: "objective value at the start point",
            row: 0,
            col: 0,
        });
    }
    crate::validate::check_finite_1d(g, "objective gradient at the start point")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optim::{FnObjective, Objective};
    use ndarray::{ArrayRef1, array};

    fn rosenbrock() -> impl Objective<f64> {
        FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| (1.0 - w[0]).powi(2) + 100.0 * (w[1] - w[0] * w[0]).powi(2),
            |w: &ArrayRef1<f64>| {
                array![
                    -2.0 * (1.0 - w[0]) - 400.0 * w[0] * (w[1] - w[0] * w[0]),
                    200.0 * (w[1] - w[0] * w[0])
                ]
            },
        )
        .with_hessian(|w: &ArrayRef1<f64>| {
            array![
                [2.0 - 400.0 * w[1] + 1200.0 * w[0] * w[0], -400.0 * w[0]],
                [-400.0 * w[0], 200.0]
            ]
        })
    }

    #[test]
    fn one_d_minimisation_and_root_finding() {
        let stop = StopCriteria::default();
        // √2 as the root of x² − 2 from x0 = 1: quadratic convergence in a handful of steps.
        let r = newton_1d(|x: f64| x * x - 2.0, |x: f64| 2.0 * x, 1.0, &stop).expect("ok");
        // |g| ≤ 1e-8 ⇒ |x − √2| ≈ |g|/(2√2); quadratic convergence overshoots that.
        assert!((r.x - 2f64.sqrt()).abs() < 1e-11, "{r:?}");
        assert!(r.converged && r.n_iter <= 7);
        // Minimise (x − 3)² + 1: one Newton step is exact (quadratic).
        let q = newton_1d(|x: f64| 2.0 * (x - 3.0), |_| 2.0, -10.0, &stop).expect("ok");
        assert_eq!(q.x, 3.0);
        assert!(q.n_iter <= 2);
        // f32.
        let r32 = newton_1d(
            |x: f32| x * x - 2.0,
            |x: f32| 2.0 * x,
            1.0,
            &stop.g_tol(1e-6),
        )
        .expect("ok");
        assert!((r32.x - 2f32.sqrt()).abs() < 1e-6);
        // Only x_tol (the course notes' |x − x0| ≤ ε rule).
        let s = StopCriteria::default().g_tol(0.0).x_tol(1e-12);
        let r = newton_1d(|x: f64| x * x - 2.0, |x: f64| 2.0 * x, 1.0, &s).expect("ok");
        assert_eq!(r.stop, StopReason::StepNorm);
        // max_iter reached.
        let s = StopCriteria::default().max_iter(2).g_tol(0.0).x_tol(0.0);
        let r = newton_1d(|x: f64| x * x - 2.0, |x: f64| 2.0 * x, 1.0, &s).expect("ok");
        assert!(!r.converged && r.stop == StopReason::MaxIter && r.n_iter == 2);
    }

    #[test]
    fn one_d_errors() {
        let stop = StopCriteria::default();
        // g'(0) = 0 at the start.
        assert!(matches!(
            newton_1d(|x: f64| x * x - 2.0, |x: f64| 2.0 * x, 0.0, &stop),
            Err(Error::Linalg {
                kind: LinalgErrorKind::Singular,
                ..
            })
        ));
        assert!(matches!(
            newton_1d(|x: f64| x, |_| 1.0, f64::NAN, &stop),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            newton_1d(|x: f64| x.ln(), |x: f64| 1.0 / x, -1.0, &stop),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            newton_1d(|x: f64| x, |_| f64::NAN, 1.0, &stop),
            Err(Error::NonFinite { col: 1, .. })
        ));
        assert!(newton_1d(|x: f64| x, |_| 1.0, 1.0, &stop.max_iter(0)).is_err());
    }

    #[test]
    fn quadratic_in_one_plain_step() {
        // f(x) = ½xᵀAx − bᵀx with A = [[4,1,0],[1,3,1],[0,1,2]] SPD, b = (1,2,3).
        // By hand: y = 1 − 4x, z = (3 − y)/2 = 1 + 2x, x + 3y + z = 2 ⇒ −9x + 4 = 2 ⇒
        // x* = (2/9, 1/9, 13/9).
        let a = array![[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]];
        let b = array![1.0, 2.0, 3.0];
        let obj = FnObjective::new(
            3,
            |x: &ArrayRef1<f64>| 0.5 * x.dot(&a.dot(x)) - b.dot(x),
            |x: &ArrayRef1<f64>| a.dot(x) - &b,
        )
        .with_hessian(|_: &ArrayRef1<f64>| a.clone());
        let opts = NewtonOptions::default().damping(false).backtracking(false);
        let r = newton(&obj, &array![10.0, -5.0, 7.0], &opts).expect("ok");
        let expect = array![2.0 / 9.0, 1.0 / 9.0, 13.0 / 9.0];
        assert!((&r.x - &expect).iter().all(|d| d.abs() < 1e-12), "{}", r.x);
        assert!(r.converged);
        assert!(
            r.n_iter <= 2,
            "one step solves it; the next sees a zero gradient"
        );
        assert_eq!(r.history.len(), r.n_iter + 1);
    }

    #[test]
    fn rosenbrock_from_the_classic_start() {
        let obj = rosenbrock();
        let r = newton(&obj, &array![-1.2, 1.0], &NewtonOptions::default()).expect("ok");
        assert!(r.converged, "{r:?}");
        assert!(
            (r.x[0] - 1.0).abs() < 1e-8 && (r.x[1] - 1.0).abs() < 1e-8,
            "{}",
            r.x
        );
        assert!(r.n_iter < 40);
        // History is non-increasing with backtracking.
        assert!(r.history.windows(2).all(|w| w[1] <= w[0]));
        // Finite-difference Hessian gives the same answer.
        let no_h = FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| obj.value(w),
            |w: &ArrayRef1<f64>| obj.gradient(w),
        );
        let r2 = newton(
            &no_h,
            &array![-1.2, 1.0],
            &NewtonOptions::default().fd_hessian(true),
        )
        .expect("ok");
        assert!(
            (r2.x[0] - 1.0).abs() < 1e-6 && (r2.x[1] - 1.0).abs() < 1e-6,
            "{}",
            r2.x
        );
    }

    #[test]
    fn damping_handles_an_indefinite_hessian() {
        // f(x, y) = x⁴/4 − x²/2 + y²: at (0.1, 1) the Hessian diag(3x² − 1, 2) is indefinite.
        // Minima at x = ±1, y = 0.
        let obj = FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| w[0].powi(4) / 4.0 - w[0] * w[0] / 2.0 + w[1] * w[1],
            |w: &ArrayRef1<f64>| array![w[0].powi(3) - w[0], 2.0 * w[1]],
        )
        .with_hessian(|w: &ArrayRef1<f64>| array![[3.0 * w[0] * w[0] - 1.0, 0.0], [0.0, 2.0]]);
        let r = newton(&obj, &array![0.1, 1.0], &NewtonOptions::default()).expect("ok");
        assert!(
            (r.x[0].abs() - 1.0).abs() < 1e-9 && r.x[1].abs() < 1e-9,
            "{}",
            r.x
        );
        assert!(r.value < obj.value(&array![0.1, 1.0]));
        // Without damping the indefinite Hessian is a typed error.
        let e = newton(
            &obj,
            &array![0.1, 1.0],
            &NewtonOptions::default().damping(false),
        );
        assert!(matches!(
            e,
            Err(Error::Linalg {
                kind: LinalgErrorKind::NotPositiveDefinite,
                ..
            })
        ));
    }

    #[test]
    fn errors_are_typed() {
        let no_h = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| w[0] * w[0],
            |w: &ArrayRef1<f64>| array![2.0 * w[0]],
        );
        let e = newton(&no_h, &array![1.0], &NewtonOptions::default());
        assert!(
            matches!(
                e,
                Err(Error::InvalidParam {
                    name: "objective",
                    ..
                })
            ),
            "{e:?}"
        );
        assert!(newton(&no_h, &array![1.0, 2.0], &NewtonOptions::default()).is_err());
        assert!(newton(&no_h, &array![f64::INFINITY], &NewtonOptions::default()).is_err());
        assert!(newton(&no_h, &array![1.0], &NewtonOptions::default().c1(1.5)).is_err());
        let bad_shape = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| w[0] * w[0],
            |w: &ArrayRef1<f64>| array![2.0 * w[0]],
        )
        .with_hessian(|_: &ArrayRef1<f64>| Array2::<f64>::eye(2));
        assert!(matches!(
            newton(&bad_shape, &array![1.0], &NewtonOptions::default()),
            Err(Error::ShapeMismatch { .. })
        ));
        let nan_start = FnObjective::new(
            1,
            |_: &ArrayRef1<f64>| f64::NAN,
            |_: &ArrayRef1<f64>| array![1.0],
        )
        .with_hessian(|_: &ArrayRef1<f64>| Array2::<f64>::eye(1));
        assert!(matches!(
            newton(&nan_start, &array![1.0], &NewtonOptions::default()),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn f32_quadratic() {
        let obj = FnObjective::new(
            2,
            |x: &ArrayRef1<f32>| (x[0] - 1.0).powi(2) + 2.0 * (x[1] + 2.0).powi(2),
            |x: &ArrayRef1<f32>| array![2.0 * (x[0] - 1.0), 4.0 * (x[1] + 2.0)],
        )
        .with_hessian(|_: &ArrayRef1<f32>| array![[2.0f32, 0.0], [0.0, 4.0]]);
        let opts = NewtonOptions::default().stop(StopCriteria::default().g_tol(1e-5));
        let r = newton(&obj, &array![0.0f32, 0.0], &opts).expect("ok");
        assert!((r.x[0] - 1.0).abs() < 1e-5 && (r.x[1] + 2.0).abs() < 1e-5);
    }
}
