//! L-BFGS (limited-memory BFGS) with a strong-Wolfe line search.
//!
//! Quasi-Newton methods are **not in the course notes** (catalog O-07 marks BFGS as absent); this is the
//! workhorse smooth solver of ndlearn (logistic regression, softmax, MLPs with full batches).
//!
//! # The math
//!
//! L-BFGS keeps the last `m` pairs `sᵢ = xᵢ₊₁ − xᵢ`, `yᵢ = ∇f(xᵢ₊₁) − ∇f(xᵢ)` and applies the
//! BFGS inverse-Hessian approximation `Hₖ` to the gradient by the **two-loop recursion**
//! (Nocedal & Wright, *Numerical Optimization*, 2nd ed., Alg. 7.4):
//!
//! ```text
//! q ← gₖ
//! for i = k−1 … k−m:  αᵢ ← ρᵢ sᵢᵀq;  q ← q − αᵢ yᵢ          (ρᵢ = 1/(yᵢᵀsᵢ))
//! r ← γₖ q,  γₖ = sₖ₋₁ᵀyₖ₋₁ / yₖ₋₁ᵀyₖ₋₁                     (initial Hₖ⁰ = γₖ I, eq. 7.20)
//! for i = k−m … k−1:  β ← ρᵢ yᵢᵀr;  r ← r + sᵢ(αᵢ − β)
//! dₖ = −r
//! ```
//!
//! The step `xₖ₊₁ = xₖ + aₖdₖ` satisfies the **strong Wolfe conditions**
//! `f(xₖ + a dₖ) ≤ f(xₖ) + c₁ a ∇fₖᵀdₖ` and `|∇f(xₖ + a dₖ)ᵀdₖ| ≤ c₂ |∇fₖᵀdₖ|` (`c₁ = 10⁻⁴`,
//! `c₂ = 0.9`; the first test gets a slack of `4ε|f(xₖ)|` for rounding noise), found by bracketing and zoom (N&W Alg. 3.5 and 3.6) with safeguarded cubic
//! interpolation (eq. 3.59), falling back to a quadratic and then to bisection. The curvature
//! condition guarantees `sᵀy > 0`, so `Hₖ` stays positive definite; a pair is nevertheless
//! skipped when `sᵀy ≤ ε‖s‖‖y‖` (`ε` = [`LbfgsOptions::curvature_eps`]), which can only happen
//! after a line-search fallback. The first step (no pairs yet) is steepest descent with trial
//! length `min(1, 1/‖g‖)`; later trials start at `a = 1`.
//!
//! If the line search fails (no Wolfe point in [`LbfgsOptions::max_line_search`] evaluations),
//! a point with sufficient decrease found on the way is accepted if there is one; otherwise the
//! memory is cleared and steepest descent is tried once more before stopping with
//! [`StopReason::LineSearchFailed`].
//!
//! # Complexity
//!
//! `O(m·d)` per iteration for the recursion plus the function/gradient evaluations (usually one
//! or two per iteration); memory `2m·d`. The vectors are preallocated: the only allocations in
//! the loop are the gradients returned by the [`Objective`].
//!
//! # Stopping
//!
//! All of [`StopCriteria`]: `‖∇f‖₂ ≤ g_tol`, `|Δf| ≤ f_tol·max(1, |f|)`, `‖Δx‖ ≤ x_tol·max(1,
//! ‖x‖)`, `max_iter` (iterations, not evaluations).

use ndarray::{Array1, Array2, ArrayRef1, Zip};

use super::newton::check_value_grad;
use super::{Objective, OptimResult, StopCriteria, StopReason, check_start, norm2, observer_stop};
use crate::{Error, Float, Result};

/// Options of [`lbfgs`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LbfgsOptions {
    /// Number of stored `(s, y)` pairs `m` (default 10, ≥ 1).
    pub memory: usize,
    /// Stopping rules (default [`StopCriteria::default`]).
    pub stop: StopCriteria,
    /// Sufficient-decrease constant `c₁` (default `1e-4`).
    pub c1: f64,
    /// Curvature constant `c₂` (default `0.9`), `c₁ < c₂ < 1`.
    pub c2: f64,
    /// Maximum function evaluations per line search (default 30).
    pub max_line_search: usize,
    /// A pair is skipped when `sᵀy ≤ curvature_eps·‖s‖‖y‖` (default `1e-10`).
    pub curvature_eps: f64,
    /// Stop (as [`StopReason::MaxIter`], not converged) after the iteration in which the total
    /// number of objective evaluations reaches this value; `0` (the default) = no limit
    /// (scipy's and scikit-learn's `maxfun` / `max_fun`).
    pub max_eval: usize,
}

impl Default for LbfgsOptions {
    fn default() -> Self {
        Self {
            memory: 10,
            stop: StopCriteria::default(),
            c1: 1e-4,
            c2: 0.9,
            max_line_search: 30,
            curvature_eps: 1e-10,
            max_eval: 0,
        }
    }
}

impl LbfgsOptions {
    crate::setters! {
        /// Sets `memory`.
        memory: usize,
        /// Sets `stop`.
        stop: StopCriteria,
        /// Sets `c1`.
        c1: f64,
        /// Sets `c2`.
        c2: f64,
        /// Sets `max_line_search`.
        max_line_search: usize,
        /// Sets `curvature_eps`.
        curvature_eps: f64,
        /// Sets `max_eval` (`0` = no limit).
        max_eval: usize,
    }
    /// Checks the values: `memory ≥ 1`, `0 < c₁ < c₂ < 1`, `max_line_search ≥ 1`,
    /// `curvature_eps ≥ 0`, valid `stop`.
    pub fn validate(&self) -> Result<()> {
        self.stop.validate()?;
        crate::validate::check_at_least("memory", self.memory, 1)?;
        crate::validate::check_at_least("max_line_search", self.max_line_search, 1)?;
        crate::validate::check_non_negative("curvature_eps", self.curvature_eps)?;
        if !(self.c1 > 0.0 && self.c1 < self.c2 && self.c2 < 1.0) {
            return Err(Error::invalid_param(
                "c1",
                format!(
                    "need 0 < c1 < c2 < 1, got c1 = {}, c2 = {}",
                    self.c1, self.c2
                ),
            ));
        }
        Ok(())
    }
}

/// A point on the search line `φ(a) = f(x + a d)`.
struct Trial<F: Float> {
    a: F,
    f: F,
    /// `φ'(a) = ∇f(x + a d)ᵀd`.
    dphi: F,
    /// `∇f(x + a d)` (`None` for `a = 0`, whose gradient the caller holds).
    g: Option<Array1<F>>,
}

enum LineSearch<F: Float> {
    /// A strong-Wolfe point.
    Wolfe(Trial<F>),
    /// No Wolfe point, but this one has sufficient decrease.
    Decrease(Trial<F>),
    /// Nothing usable.
    Failed,
}

struct LineSearcher<'a, F: Float, O: Objective<F> + ?Sized> {
    obj: &'a O,
    x: &'a Array1<F>,
    d: &'a Array1<F>,
    buf: &'a mut Array1<F>,
    f0: F,
    dphi0: F,
    c1: F,
    c2: F,
    evals_left: usize,
}

impl<F: Float, O: Objective<F> + ?Sized> LineSearcher<'_, F, O> {
    fn eval(&mut self, a: F) -> Trial<F> {
        self.evals_left = self.evals_left.saturating_sub(1);
        Zip::from(&mut *self.buf)
            .and(self.x)
            .and(self.d)
            .for_each(|b, &x, &d| *b = x + a * d);
        let (f, g) = self.obj.value_and_gradient(&*self.buf);
        let dphi = if g.len() == self.d.len() {
            g.dot(self.d)
        } else {
            F::nan()
        };
        let ok = f.is_finite() && dphi.is_finite();
        Trial {
            a,
            // A non-finite trial counts as "too high": the bracket shrinks away from it.
            f: if ok { f } else { F::infinity() },
            dphi: if ok { dphi } else { F::nan() },
            g: if ok { Some(g) } else { None },
        }
    }

    /// Sufficient decrease, with a slack of a few ulps of `f₀` so that rounding noise in `f`
    /// does not reject steps once the predicted decrease is below it (the curvature test on
    /// the gradient still forces progress).
    fn armijo(&self, t: &Trial<F>) -> bool {
        let noise = F::cast(4.0) * F::epsilon() * self.f0.abs();
        t.f <= self.f0 + self.c1 * t.a * self.dphi0 + noise
    }

    fn curvature(&self, t: &Trial<F>) -> bool {
        t.dphi.abs() <= -self.c2 * self.dphi0
    }

    /// N&W Algorithm 3.5.
    fn search(&mut self, a_init: F) -> LineSearch<F> {
        let a_max = F::cast(1e20);
        let mut prev = Trial {
            a: F::zero(),
            f: self.f0,
            dphi: self.dphi0,
            g: None,
        };
        let mut a = a_init;
        let mut first = true;
        while self.evals_left > 0 {
            let cur = self.eval(a);
            if !self.armijo(&cur) || (!first && cur.f >= prev.f) {
                return self.zoom(prev, cur);
            }
            if self.curvature(&cur) {
                return LineSearch::Wolfe(cur);
            }
            if cur.dphi >= F::zero() {
                return self.zoom(cur, prev);
            }
            // Still decreasing: extrapolate, by a cubic step clamped to [a + 1.1Δ, a + 4Δ].
            let delta = cur.a - prev.a;
            let lo_b = cur.a + F::cast(1.1) * delta;
            let hi_b = cur.a + F::cast(4.0) * delta;
            let next = match cubic_min(&prev, &cur) {
                Some(c) if c > cur.a => c.max(lo_b).min(hi_b),
                _ => hi_b,
            };
            if cur.a >= a_max {
                return LineSearch::Decrease(cur);
            }
            a = next.min(a_max);
            prev = cur;
            first = false;
        }
        if prev.a > F::zero() {
            LineSearch::Decrease(prev)
        } else {
            LineSearch::Failed
        }
    }

    /// N&W Algorithm 3.6. Invariants: `lo` has sufficient decrease and the lowest `f` so far;
    /// `lo.dphi · (hi.a − lo.a) < 0`.
    fn zoom(&mut self, mut lo: Trial<F>, mut hi: Trial<F>) -> LineSearch<F> {
        while self.evals_left > 0 {
            let width = (hi.a - lo.a).abs();
            if width <= F::epsilon() * F::one().max(lo.a.abs().max(hi.a.abs())) {
                break;
            }
            let (left, right) = if lo.a < hi.a {
                (lo.a, hi.a)
            } else {
                (hi.a, lo.a)
            };
            let guard = F::cast(0.1) * width;
            let inside = |c: F| c > left + guard && c < right - guard;
            let a = match cubic_min(&lo, &hi) {
                Some(c) if inside(c) => c,
                _ => match quadratic_min(&lo, &hi) {
                    Some(q) if inside(q) => q,
                    _ => F::cast(0.5) * (left + right),
                },
            };
            let cur = self.eval(a);
            if !self.armijo(&cur) || cur.f >= lo.f {
                hi = cur;
            } else {
                if self.curvature(&cur) {
                    return LineSearch::Wolfe(cur);
                }
                if cur.dphi * (hi.a - lo.a) >= F::zero() {
                    hi = std::mem::replace(&mut lo, cur);
                } else {
                    lo = cur;
                }
            }
        }
        if lo.a > F::zero() && lo.g.is_some() {
            LineSearch::Decrease(lo)
        } else {
            LineSearch::Failed
        }
    }
}

/// Minimiser of the cubic interpolating `φ` and `φ'` at two points (N&W eq. 3.59).
fn cubic_min<F: Float>(p: &Trial<F>, q: &Trial<F>) -> Option<F> {
    let (a, fa, da, b, fb, db) = (p.a, p.f, p.dphi, q.a, q.f, q.dphi);
    if a == b || ![fa, da, fb, db].iter().all(|v| v.is_finite()) {
        return None;
    }
    let d1 = da + db - F::cast(3.0) * (fa - fb) / (a - b);
    let disc = d1 * d1 - da * db;
    if disc < F::zero() {
        return None;
    }
    let d2 = (b - a).signum() * disc.sqrt();
    let denom = db - da + F::cast(2.0) * d2;
    if denom == F::zero() {
        return None;
    }
    let c = b - (b - a) * (db + d2 - d1) / denom;
    c.is_finite().then_some(c)
}

/// Minimiser of the quadratic through `φ(p), φ'(p), φ(q)`.
fn quadratic_min<F: Float>(p: &Trial<F>, q: &Trial<F>) -> Option<F> {
    let h = q.a - p.a;
    if h == F::zero() || !(p.f.is_finite() && p.dphi.is_finite() && q.f.is_finite()) {
        return None;
    }
    let curv = (q.f - p.f - p.dphi * h) / (h * h);
    if curv <= F::zero() {
        return None;
    }
    let c = p.a - p.dphi / (F::cast(2.0) * curv);
    c.is_finite().then_some(c)
}

/// The L-BFGS memory: a ring of the last `m` pairs.
struct Memory<F: Float> {
    s: Array2<F>,
    y: Array2<F>,
    rho: Vec<F>,
    alpha: Vec<F>,
    /// Slot of the newest pair.
    head: usize,
    len: usize,
    gamma: F,
}

impl<F: Float> Memory<F> {
    fn new(m: usize, n: usize) -> Self {
        Self {
            s: Array2::zeros((m, n)),
            y: Array2::zeros((m, n)),
            rho: vec![F::zero(); m],
            alpha: vec![F::zero(); m],
            head: 0,
            len: 0,
            gamma: F::one(),
        }
    }

    fn clear(&mut self) {
        self.len = 0;
    }

    fn capacity(&self) -> usize {
        self.rho.len()
    }

    /// Stores `s = a·d`, `y = g_new − g_old` with `sᵀy = sy`, `yᵀy = yy`.
    fn push(&mut self, a: F, d: &Array1<F>, g_new: &Array1<F>, g_old: &Array1<F>, sy: F, yy: F) {
        let m = self.capacity();
        self.head = if self.len == 0 {
            0
        } else {
            (self.head + 1) % m
        };
        self.len = (self.len + 1).min(m);
        let slot = self.head;
        Zip::from(self.s.row_mut(slot))
            .and(d)
            .for_each(|s, &d| *s = a * d);
        Zip::from(self.y.row_mut(slot))
            .and(g_new)
            .and(g_old)
            .for_each(|y, &gn, &go| *y = gn - go);
        self.rho[slot] = F::one() / sy;
        self.gamma = sy / yy;
    }

    /// `d ← −H g` by the two-loop recursion.
    fn direction(&mut self, g: &Array1<F>, d: &mut Array1<F>) {
        d.assign(g);
        let m = self.capacity();
        // Newest to oldest.
        for k in 0..self.len {
            let i = (self.head + m - k) % m;
            let a = self.rho[i] * self.s.row(i).dot(&*d);
            self.alpha[i] = a;
            d.scaled_add(-a, &self.y.row(i));
        }
        d.mapv_inplace(|v| v * self.gamma);
        // Oldest to newest.
        for k in (0..self.len).rev() {
            let i = (self.head + m - k) % m;
            let b = self.rho[i] * self.y.row(i).dot(&*d);
            d.scaled_add(self.alpha[i] - b, &self.s.row(i));
        }
        d.mapv_inplace(|v| -v);
    }
}

/// Minimises `obj` by L-BFGS from `x0` (see the module docs).
///
/// The returned [`OptimResult::history`] holds `f` at the start and after every iteration;
/// `converged` is `false` for [`StopReason::MaxIter`] and [`StopReason::LineSearchFailed`].
///
/// Errors: invalid `opts`; `x0` of the wrong length or non-finite; non-finite `f` or gradient at
/// `x0`, or a gradient of the wrong length.
///
/// ```
/// use ndlearn_core::ndarray::{array, ArrayRef1};
/// use ndlearn_core::optim::{lbfgs, FnObjective, LbfgsOptions};
/// // Rosenbrock from (−1.2, 1): minimum at (1, 1).
/// let obj = FnObjective::new(
///     2,
///     |w: &ArrayRef1<f64>| (1.0 - w[0]).powi(2) + 100.0 * (w[1] - w[0] * w[0]).powi(2),
///     |w: &ArrayRef1<f64>| array![
///         -2.0 * (1.0 - w[0]) - 400.0 * w[0] * (w[1] - w[0] * w[0]),
///         200.0 * (w[1] - w[0] * w[0])
///     ],
/// );
/// let r = lbfgs(&obj, &array![-1.2, 1.0], &LbfgsOptions::default())?;
/// assert!(r.converged && (r.x[0] - 1.0).abs() < 1e-6 && (r.x[1] - 1.0).abs() < 1e-6);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn lbfgs<F, O>(obj: &O, x0: &ArrayRef1<F>, opts: &LbfgsOptions) -> Result<OptimResult<F>>
where
    F: Float,
    O: Objective<F> + ?Sized,
{
    opts.validate()?;
    let n = obj.dim();
    check_start(x0, n)?;
    let stop = &opts.stop;
    let mut x = x0.to_owned();
    let (mut fx, mut g) = obj.value_and_gradient(&x);
    check_value_grad(fx, &g, n)?;
    let mut history = vec![fx];
    let mut g_norm = norm2(&g);
    if stop.g_tol > 0.0 && g_norm <= F::cast(stop.g_tol) {
        return Ok(OptimResult::new(
            x,
            fx,
            0,
            StopReason::GradientNorm,
            history,
        ));
    }
    let mut mem = Memory::new(opts.memory, n);
    let mut d = Array1::zeros(n);
    let mut buf = Array1::zeros(n);
    let (c1, c2) = (F::cast(opts.c1), F::cast(opts.c2));
    let eps = F::cast(opts.curvature_eps);
    let mut evals = 1usize;

    for it in 1..=stop.max_iter {
        // Direction: quasi-Newton, or steepest descent after a reset / on a non-descent step.
        let mut steepest = mem.len == 0;
        if !steepest {
            mem.direction(&g, &mut d);
            let slope = g.dot(&d);
            if slope >= F::zero() || slope.is_nan() {
                mem.clear();
                steepest = true;
            }
        }
        let outcome = loop {
            if steepest {
                d.assign(&g);
                d.mapv_inplace(|v| -v);
            }
            let a_init = if steepest {
                F::one().min(F::one() / g_norm)
            } else {
                F::one()
            };
            let mut ls = LineSearcher {
                obj,
                x: &x,
                d: &d,
                buf: &mut buf,
                f0: fx,
                dphi0: g.dot(&d),
                c1,
                c2,
                evals_left: opts.max_line_search,
            };
            let result = ls.search(a_init);
            evals += opts.max_line_search - ls.evals_left;
            match result {
                LineSearch::Failed if !steepest => {
                    mem.clear();
                    steepest = true;
                }
                other => break other,
            }
        };
        let trial = match outcome {
            LineSearch::Wolfe(t) | LineSearch::Decrease(t) => t,
            LineSearch::Failed => {
                return Ok(OptimResult::new(
                    x,
                    fx,
                    it - 1,
                    StopReason::LineSearchFailed,
                    history,
                ));
            }
        };
        let Some(g_new) = trial.g else {
            return Ok(OptimResult::new(
                x,
                fx,
                it - 1,
                StopReason::LineSearchFailed,
                history,
            ));
        };
        let a = trial.a;
        // sᵀy = a dᵀ(g_new − g) and yᵀy, without forming s or y.
        let sy = a * (trial.dphi - g.dot(&d));
        let yy = Zip::from(&g_new)
            .and(&g)
            .fold(F::zero(), |acc, &gn, &go| acc + (gn - go) * (gn - go));
        let s_norm = a.abs() * norm2(&d);
        if sy > eps * s_norm * yy.sqrt() && yy > F::zero() {
            mem.push(a, &d, &g_new, &g, sy, yy);
        }
        x.scaled_add(a, &d);
        let f_prev = fx;
        fx = trial.f;
        g = g_new;
        g_norm = norm2(&g);
        history.push(fx);
        if let Some(reason) = stop
            .check(f_prev, fx, s_norm, norm2(&x), Some(g_norm))
            .or_else(|| observer_stop("lbfgs", it, stop.max_iter, fx, Some(g_norm)))
        {
            return Ok(OptimResult::new(x, fx, it, reason, history));
        }
        if opts.max_eval > 0 && evals >= opts.max_eval {
            return Ok(OptimResult::new(x, fx, it, StopReason::MaxIter, history));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optim::FnObjective;
    use ndarray::{Array2, ArrayRef1, array};

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
    }

    fn tight() -> LbfgsOptions {
        LbfgsOptions::default().stop(StopCriteria::default().g_tol(1e-10).f_tol(0.0).x_tol(0.0))
    }

    #[test]
    fn rosenbrock_from_classic_start() {
        let r = lbfgs(&rosenbrock(), &array![-1.2, 1.0], &tight()).expect("ok");
        assert!(r.converged, "{r:?}");
        assert_eq!(r.stop, StopReason::GradientNorm);
        assert!(
            (r.x[0] - 1.0).abs() < 1e-9 && (r.x[1] - 1.0).abs() < 1e-9,
            "{}",
            r.x
        );
        assert!(r.n_iter < 100, "{} iterations", r.n_iter);
        // The Wolfe line search never increases f.
        assert!(r.history.windows(2).all(|w| w[1] <= w[0]));
    }

    #[test]
    fn ill_conditioned_quadratic() {
        // f = ½ Σ λᵢ (xᵢ − i)² with λ from 1 to 10⁴: minimum at xᵢ = i.
        let n = 30;
        let lam = Array1::from_shape_fn(n, |i| 10f64.powf(4.0 * i as f64 / (n - 1) as f64));
        let target = Array1::from_shape_fn(n, |i| i as f64);
        let obj = FnObjective::new(
            n,
            |x: &ArrayRef1<f64>| 0.5 * (&lam * &(x - &*target).mapv(|v| v * v)).sum(),
            |x: &ArrayRef1<f64>| &lam * &(x - &*target),
        );
        // ‖g‖ ≤ 1e-7: the gradient's own rounding error is about λ_max·ε·max|xᵢ| ≈ 1e-10.
        let opts = LbfgsOptions::default().memory(5).stop(
            StopCriteria::default()
                .g_tol(1e-7)
                .f_tol(0.0)
                .x_tol(0.0)
                .max_iter(3000),
        );
        let r = lbfgs(&obj, &Array1::zeros(n), &opts).expect("ok");
        assert!(r.converged, "{:?} {} {}", r.stop, r.n_iter, r.value);
        // (scipy's L-BFGS-B needs about 990 iterations with maxcor = 5 here.)
        assert!(r.n_iter < 1500, "{} iterations", r.n_iter);
        let err = (&r.x - &target).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // ‖x − x*‖ ≤ ‖g‖/λ_min = 1e-7.
        assert!(err <= 1e-7, "max error {err}");
    }

    #[test]
    fn logistic_loss_matches_newton() {
        // Mean logistic loss with L2 penalty on a small non-separable data set: the optimum is
        // unique; compare with Newton's method (exact Hessian) on the same objective.
        let x = array![
            [0.5, 1.0, 1.0],
            [1.5, -0.5, 1.0],
            [-1.0, 0.3, 1.0],
            [2.0, 2.0, 1.0],
            [-0.7, -1.2, 1.0],
            [0.2, 0.1, 1.0],
            [1.1, -1.5, 1.0],
            [-1.8, 0.9, 1.0]
        ];
        let y = array![1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 1.0, 1.0];
        let lam = 0.1;
        let nn = x.nrows() as f64;
        let sigmoid = |z: f64| 1.0 / (1.0 + (-z).exp());
        let value = |w: &ArrayRef1<f64>| {
            let z = x.dot(w);
            let loss: f64 = z
                .iter()
                .zip(y.iter())
                .map(|(&z, &t)| (1.0 + z.exp()).ln() - t * z)
                .sum();
            loss / nn + 0.5 * lam * w.dot(w)
        };
        let grad = |w: &ArrayRef1<f64>| {
            let p = x.dot(w).mapv(sigmoid);
            x.t().dot(&(p - &y)) / nn + w * lam
        };
        let hess = |w: &ArrayRef1<f64>| {
            let p = x.dot(w).mapv(sigmoid);
            let s = p.mapv(|v| v * (1.0 - v));
            let xs = &x * &s.insert_axis(ndarray::Axis(1));
            x.t().dot(&xs) / nn + Array2::<f64>::eye(3) * lam
        };
        let obj = FnObjective::new(3, value, grad).with_hessian(hess);
        let r = lbfgs(&obj, &Array1::zeros(3), &tight()).expect("ok");
        let rn = super::super::newton::newton(
            &obj,
            &Array1::zeros(3),
            &super::super::newton::NewtonOptions::default()
                .stop(StopCriteria::default().g_tol(1e-13).f_tol(0.0).x_tol(0.0)),
        )
        .expect("ok");
        assert!(r.converged && rn.converged);
        assert!(
            (&r.x - &rn.x).iter().all(|d| d.abs() < 1e-9),
            "{} vs {}",
            r.x,
            rn.x
        );
        assert!(norm2(&grad(&r.x)) <= 1e-10);
    }

    #[test]
    fn max_eval_stops_early_without_converging() {
        let full = lbfgs(&rosenbrock(), &array![-1.2, 1.0], &tight()).expect("runs");
        let r = lbfgs(&rosenbrock(), &array![-1.2, 1.0], &tight().max_eval(10)).expect("runs");
        assert_eq!(r.stop, StopReason::MaxIter);
        assert!(!r.converged && r.n_iter < full.n_iter && r.n_iter >= 1);
    }

    #[test]
    fn stops_on_f_tol_and_max_iter() {
        let opts =
            LbfgsOptions::default().stop(StopCriteria::default().g_tol(0.0).x_tol(0.0).f_tol(1e-3));
        let r = lbfgs(&rosenbrock(), &array![-1.2, 1.0], &opts).expect("ok");
        assert_eq!(r.stop, StopReason::ValueChange);
        let opts = LbfgsOptions::default().stop(StopCriteria::default().max_iter(3));
        let r = lbfgs(&rosenbrock(), &array![-1.2, 1.0], &opts).expect("ok");
        assert_eq!(r.stop, StopReason::MaxIter);
        assert!(!r.converged && r.n_iter == 3 && r.history.len() == 4);
        // Already optimal: zero iterations.
        let r = lbfgs(&rosenbrock(), &array![1.0, 1.0], &LbfgsOptions::default()).expect("ok");
        assert_eq!((r.n_iter, r.stop), (0, StopReason::GradientNorm));
    }

    #[test]
    fn unbounded_and_broken_objectives_do_not_panic() {
        // Linear f = −x: unbounded below. The search keeps extrapolating; it must end.
        let lin = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| -w[0],
            |_: &ArrayRef1<f64>| array![-1.0],
        );
        let r = lbfgs(
            &lin,
            &array![0.0],
            &LbfgsOptions::default().stop(StopCriteria::default().max_iter(20)),
        )
        .expect("ok");
        assert!(!r.converged || r.value < -1e10);
        // NaN beyond x > 1: the line search backs off.
        let nanny = FnObjective::new(
            1,
            |w: &ArrayRef1<f64>| {
                if w[0] > 1.0 {
                    f64::NAN
                } else {
                    (w[0] - 2.0).powi(2)
                }
            },
            |w: &ArrayRef1<f64>| array![2.0 * (w[0] - 2.0)],
        );
        let r = lbfgs(&nanny, &array![0.0], &LbfgsOptions::default()).expect("ok");
        assert!(r.x[0] <= 1.0 && r.value.is_finite());
    }

    #[test]
    fn errors_are_typed() {
        let obj = rosenbrock();
        assert!(matches!(
            lbfgs(&obj, &array![1.0], &LbfgsOptions::default()),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            lbfgs(&obj, &array![f64::NAN, 1.0], &LbfgsOptions::default()),
            Err(Error::NonFinite { .. })
        ));
        for bad in [
            LbfgsOptions::default().memory(0),
            LbfgsOptions::default().c1(0.95),
            LbfgsOptions::default().c2(1.0),
            LbfgsOptions::default().max_line_search(0),
            LbfgsOptions::default().curvature_eps(-1.0),
        ] {
            assert!(matches!(
                lbfgs(&obj, &array![0.0, 0.0], &bad),
                Err(Error::InvalidParam { .. })
            ));
        }
        let short = FnObjective::new(
            2,
            |_: &ArrayRef1<f64>| 0.0,
            |_: &ArrayRef1<f64>| array![0.0],
        );
        assert!(matches!(
            lbfgs(&short, &array![0.0, 0.0], &LbfgsOptions::default()),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    /// Rosenbrock in f32 (a struct: `FnObjective` without Hessian defaults to f64).
    struct Rosen32;
    impl Objective<f32> for Rosen32 {
        fn dim(&self) -> usize {
            2
        }
        fn value(&self, w: &ArrayRef1<f32>) -> f32 {
            (1.0 - w[0]).powi(2) + 100.0 * (w[1] - w[0] * w[0]).powi(2)
        }
        fn gradient(&self, w: &ArrayRef1<f32>) -> Array1<f32> {
            array![
                -2.0 * (1.0 - w[0]) - 400.0 * w[0] * (w[1] - w[0] * w[0]),
                200.0 * (w[1] - w[0] * w[0])
            ]
        }
    }

    #[test]
    fn f32_rosenbrock() {
        let opts = LbfgsOptions::default().stop(StopCriteria::default().g_tol(1e-4));
        let r = lbfgs(&Rosen32, &array![-1.2f32, 1.0], &opts).expect("ok");
        assert!(
            (r.x[0] - 1.0).abs() < 1e-3 && (r.x[1] - 1.0).abs() < 1e-3,
            "{r:?}"
        );
    }
}
