//! Golden-section search for the minimum of a unimodal function on an interval, and a
//! bracketing helper that finds such an interval.
//!
//! # The math (catalog O-08)
//!
//! Keep a bracket `[a, b]` and two interior points `c < d` placed symmetrically (Kiefer,
//! "Sequential minimax search for a maximum", Proc. AMS 4(3), 1953; Press et al., *Numerical
//! Recipes*, 3rd ed., Cambridge University Press (2007), §10.2):
//!
//! ```text
//! c − a = b − d = α (b − a),      d − c = β (b − a),      (d − c)/(b − c) = (c − a)/(b − a).
//! ```
//!
//! The first two give `β = 1 − 2α`; the third says that after dropping `[d, b]` the old `c` sits
//! in the new bracket `[a, d]` exactly where `d` should be (so one evaluation per step is
//! reused): `β/(1 − α) = α`. Together `α² − 3α + 1 = 0`, so
//!
//! ```text
//! α = (3 − √5)/2 = 0.381966…  (the course notes' 0.382),    β = 1 − 2α = √5 − 2 = 0.236068…  (0.236).
//! ```
//!
//! With the golden ratio `φ = (1 + √5)/2 = 1.618034…`: `α = 1 − 1/φ = 1/φ²` and `β = 1/φ³`; each
//! step keeps a fraction `1 − α = 1/φ = 0.618034…` of the bracket ([`GOLDEN_ALPHA`],
//! [`GOLDEN_BETA`], [`GOLDEN_SHRINK`]).
//!
//! Each step compares `f(c)` and `f(d)`: if `f(c) ≤ f(d)` the minimum lies in `[a, d]` (the old
//! `c` becomes the new `d`), otherwise in `[c, b]` (the old `d` becomes the new `c`); one new
//! probe is evaluated. The course notes give no stopping rule: [`golden_section`] stops when the bracket
//! is no longer than `tol` (an absolute length), or after `max_iter` steps. To reach length `tol`
//! from `b − a` takes `⌈ln((b − a)/tol)/ln φ⌉` steps.
//!
//! [`bracket_minimum`] (implementation choice: the classic downhill expansion, Press et al.,
//! *Numerical Recipes*, §10.1, without the parabolic step) walks downhill from `x0` with steps
//! growing by `φ` until the function goes up, giving `a < b < c` with `f(b) ≤ f(a)`,
//! `f(b) ≤ f(c)`.
//!
//! # Complexity
//!
//! One function evaluation per step (two at the start); the bracket shrinks geometrically by
//! `0.618`.

use crate::{Error, Float, Result};

/// `α = (3 − √5)/2 = 1/φ²`: relative offset of the interior points (the course notes' 0.382).
pub const GOLDEN_ALPHA: f64 = 0.381_966_011_250_105_1;
/// `β = √5 − 2 = 1 − 2α = 1/φ³`: relative distance between the interior points (the course notes'
/// 0.236).
pub const GOLDEN_BETA: f64 = 0.236_067_977_499_789_7;
/// `1 − α = 1/φ = 0.618…`: the fraction of the bracket kept per step.
pub const GOLDEN_SHRINK: f64 = 0.618_033_988_749_894_9;
/// The golden ratio `φ = (1 + √5)/2`.
pub const GOLDEN_RATIO: f64 = 1.618_033_988_749_895;

/// Result of [`golden_section`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct GoldenResult<F: Float> {
    /// The best point found (the interior point with the lower value).
    pub x: F,
    /// `f(x)`.
    pub fx: F,
    /// Final bracket `[a, b]` containing the minimum.
    pub a: F,
    /// Right end of the final bracket.
    pub b: F,
    /// Steps performed (bracket reductions).
    pub n_iter: usize,
    /// Function evaluations (`n_iter + 2`).
    pub n_evals: usize,
    /// Whether the bracket length reached `tol` (false when `max_iter` ended the run).
    pub converged: bool,
}

/// Golden-section search for the minimum of a unimodal `f` on `[a, b]` (see the module docs).
///
/// `tol` is an absolute length: the search stops when `b − a ≤ tol` (or when the interior points
/// can no longer be separated in floating point, which also counts as converged). For a
/// function that is not unimodal on `[a, b]` the result is a local minimum.
///
/// Errors: `a`, `b` non-finite or `a ≥ b`; `tol` not a finite number `> 0`; `max_iter = 0`.
///
/// ```
/// use ndlearn_core::optim::golden_section;
/// let r = golden_section(|x: f64| (x - 2.0).powi(2) + 1.0, 0.0, 5.0, 1e-8, 200)?;
/// assert!((r.x - 2.0).abs() < 1e-8 && r.converged);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn golden_section<F, V>(f: V, a: F, b: F, tol: f64, max_iter: usize) -> Result<GoldenResult<F>>
where
    F: Float,
    V: Fn(F) -> F,
{
    if !(a.is_finite() && b.is_finite()) {
        return Err(Error::invalid_param(
            "a",
            format!("bracket ends must be finite, got [{a}, {b}]"),
        ));
    }
    if a >= b {
        return Err(Error::invalid_param(
            "a",
            format!("need a < b, got a = {a}, b = {b}"),
        ));
    }
    crate::validate::check_positive("tol", tol)?;
    crate::validate::check_at_least("max_iter", max_iter, 1)?;
    let alpha = F::cast(GOLDEN_ALPHA);
    let tol = F::cast(tol);
    let (mut a, mut b) = (a, b);
    let mut c = a + alpha * (b - a);
    let mut d = b - alpha * (b - a);
    let (mut fc, mut fd) = (eval(&f, c), eval(&f, d));
    let mut n_iter = 0;
    let mut converged = false;
    while n_iter < max_iter {
        if b - a <= tol || c >= d {
            converged = true;
            break;
        }
        if fc <= fd {
            // Minimum in [a, d]; old c becomes the new d.
            b = d;
            d = c;
            fd = fc;
            c = a + alpha * (b - a);
            fc = eval(&f, c);
        } else {
            // Minimum in [c, b]; old d becomes the new c.
            a = c;
            c = d;
            fc = fd;
            d = b - alpha * (b - a);
            fd = eval(&f, d);
        }
        n_iter += 1;
    }
    if !converged && (b - a <= tol || c >= d) {
        converged = true;
    }
    let (x, fx) = if fc <= fd { (c, fc) } else { (d, fd) };
    Ok(GoldenResult {
        x,
        fx,
        a,
        b,
        n_iter,
        n_evals: n_iter + 2,
        converged,
    })
}

/// `f(x)`, with NaN mapped to `+∞` so that comparisons stay meaningful.
fn eval<F: Float, V: Fn(F) -> F>(f: &V, x: F) -> F {
    let v = f(x);
    if v.is_nan() { F::infinity() } else { v }
}

/// A bracketing triple from [`bracket_minimum`]: `a < b < c` with `f(b) ≤ f(a)` and
/// `f(b) ≤ f(c)`, so a continuous `f` has a local minimum in `[a, c]`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct Bracket<F: Float> {
    /// Left end.
    pub a: F,
    /// Interior point with the lowest value.
    pub b: F,
    /// Right end.
    pub c: F,
    /// `f(a)`.
    pub fa: F,
    /// `f(b)`.
    pub fb: F,
    /// `f(c)`.
    pub fc: F,
    /// Function evaluations used.
    pub n_evals: usize,
}

/// Finds a bracket of a local minimum by walking downhill from `x0` with initial step `step`
/// (either sign; the walk turns round if `f(x0 + step) > f(x0)`), growing the step by `φ` each
/// time, until `f` increases.
///
/// Errors: non-finite `x0`/`step`, `step = 0`, `max_iter = 0`; [`Error::InvalidParam`]
/// (`name = "f"`) when no bracket is found within `max_iter` expansions (`f` decreasing towards
/// infinity or unbounded below) or a value is NaN.
///
/// ```
/// use ndlearn_core::optim::{bracket_minimum, golden_section};
/// let f = |x: f64| (x - 10.0).powi(2);
/// let br = bracket_minimum(f, 0.0, 1.0, 50)?;
/// assert!(br.a < 10.0 && 10.0 < br.c);
/// let r = golden_section(f, br.a, br.c, 1e-9, 500)?;
/// assert!((r.x - 10.0).abs() < 1e-8);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn bracket_minimum<F, V>(f: V, x0: F, step: F, max_iter: usize) -> Result<Bracket<F>>
where
    F: Float,
    V: Fn(F) -> F,
{
    if !(x0.is_finite() && step.is_finite()) || step == F::zero() {
        return Err(Error::invalid_param(
            "step",
            format!("need finite x0 and a finite non-zero step, got x0 = {x0}, step = {step}"),
        ));
    }
    crate::validate::check_at_least("max_iter", max_iter, 1)?;
    let checked = |x: F| -> Result<F> {
        let v = f(x);
        if v.is_nan() {
            Err(Error::invalid_param("f", format!("f({x}) is NaN")))
        } else {
            Ok(v)
        }
    };
    let phi = F::cast(GOLDEN_RATIO);
    let (mut a, mut fa) = (x0, checked(x0)?);
    let (mut b, mut fb) = (x0 + step, checked(x0 + step)?);
    let mut n_evals = 2;
    if fb > fa {
        std::mem::swap(&mut a, &mut b);
        std::mem::swap(&mut fa, &mut fb);
    }
    // Now f(b) ≤ f(a): walk from a through b.
    let mut c = b + phi * (b - a);
    let mut fc = checked(c)?;
    n_evals += 1;
    let mut k = 0;
    while fc < fb {
        k += 1;
        if k > max_iter || !c.is_finite() {
            return Err(Error::invalid_param(
                "f",
                format!(
                    "no bracket found after {max_iter} expansions (last point {c}, value {fc}); \
                     f may be unbounded below or monotone in this direction"
                ),
            ));
        }
        a = b;
        fa = fb;
        b = c;
        fb = fc;
        c = b + phi * (b - a);
        fc = checked(c)?;
        n_evals += 1;
    }
    if a > c {
        std::mem::swap(&mut a, &mut c);
        std::mem::swap(&mut fa, &mut fc);
    }
    Ok(Bracket {
        a,
        b,
        c,
        fa,
        fb,
        fc,
        n_evals,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_match_the_notes_and_the_golden_ratio() {
        let s5 = 5f64.sqrt();
        // The course notes: "β = 0.236 and α = 0.382".
        assert!((GOLDEN_ALPHA - 0.382).abs() < 5e-4);
        assert!((GOLDEN_BETA - 0.236).abs() < 5e-4);
        assert!((GOLDEN_ALPHA - (3.0 - s5) / 2.0).abs() < 1e-15);
        assert!((GOLDEN_BETA - (s5 - 2.0)).abs() < 1e-15);
        // β = 1 − 2α and β/(1 − α) = α (the course notes' two conditions).
        assert!((GOLDEN_BETA - (1.0 - 2.0 * GOLDEN_ALPHA)).abs() < 1e-15);
        assert!((GOLDEN_BETA / (1.0 - GOLDEN_ALPHA) - GOLDEN_ALPHA).abs() < 1e-15);
        let phi = (1.0 + s5) / 2.0;
        assert!((GOLDEN_RATIO - phi).abs() < 1e-15);
        assert!((GOLDEN_ALPHA - 1.0 / (phi * phi)).abs() < 1e-15);
        assert!((GOLDEN_BETA - 1.0 / phi.powi(3)).abs() < 1e-15);
        assert!((GOLDEN_SHRINK - 1.0 / phi).abs() < 1e-15);
    }

    #[test]
    fn finds_minimum_and_shrinks_by_the_golden_factor() {
        let f = |x: f64| (x - 0.7).powi(2) + 0.1 * (x - 0.7).powi(4);
        let r = golden_section(f, -3.0, 4.0, 1e-10, 1000).expect("ok");
        assert!(r.converged && (r.x - 0.7).abs() < 1e-9, "{r:?}");
        assert!(r.a <= 0.7 && 0.7 <= r.b && r.b - r.a <= 1e-10);
        assert_eq!(r.n_evals, r.n_iter + 2);
        // Length after k steps is 7·0.618^k: the step count is ⌈ln(7/1e-10)/ln φ⌉ (±1 for
        // rounding of the last comparison).
        let expect = ((7.0f64 / 1e-10).ln() / GOLDEN_RATIO.ln()).ceil() as usize;
        assert!(r.n_iter.abs_diff(expect) <= 1, "{} vs {expect}", r.n_iter);
        // max_iter ends the run without convergence; bracket length 7·0.618⁵.
        let r5 = golden_section(f, -3.0, 4.0, 1e-10, 5).expect("ok");
        assert!(!r5.converged && r5.n_iter == 5);
        assert!(((r5.b - r5.a) - 7.0 * GOLDEN_SHRINK.powi(5)).abs() < 1e-12);
        // Minimum at an end of the interval, and f32.
        let r = golden_section(|x: f32| x, 1.0f32, 2.0, 1e-5, 100).expect("ok");
        assert!((r.x - 1.0).abs() < 2e-5);
        // Very small tol: stops once c and d merge, still converged.
        let r = golden_section(|x: f64| (x - 1.0).abs(), 0.0, 3.0, 1e-300, 10_000).expect("ok");
        assert!(r.converged && (r.x - 1.0).abs() < 1e-15);
    }

    #[test]
    fn golden_errors() {
        let f = |x: f64| x * x;
        assert!(golden_section(f, 1.0, 1.0, 1e-6, 10).is_err());
        assert!(golden_section(f, 2.0, 1.0, 1e-6, 10).is_err());
        assert!(golden_section(f, f64::NEG_INFINITY, 1.0, 1e-6, 10).is_err());
        assert!(golden_section(f, 0.0, 1.0, 0.0, 10).is_err());
        assert!(golden_section(f, 0.0, 1.0, 1e-6, 0).is_err());
        // NaN values are treated as +∞ (no panic).
        let r = golden_section(
            |x: f64| if x > 0.5 { f64::NAN } else { -x },
            0.0,
            1.0,
            1e-6,
            100,
        )
        .expect("ok");
        assert!((r.x - 0.5).abs() < 1e-5);
    }

    #[test]
    fn bracketing() {
        let f = |x: f64| (x - 10.0).powi(2);
        let br = bracket_minimum(f, 0.0, 1.0, 50).expect("found");
        assert!(br.a < br.b && br.b < br.c);
        assert!(br.fb <= br.fa && br.fb <= br.fc && br.a < 10.0 && 10.0 < br.c);
        // Starting uphill: the walk turns round.
        let br = bracket_minimum(f, 20.0, 1.0, 50).expect("found");
        assert!(br.a < 10.0 && 10.0 < br.c && br.fb <= br.fa && br.fb <= br.fc);
        // Monotone: no bracket.
        assert!(matches!(
            bracket_minimum(|x: f64| -x, 0.0, 1.0, 30),
            Err(Error::InvalidParam { name: "f", .. })
        ));
        assert!(bracket_minimum(f, 0.0, 0.0, 10).is_err());
        assert!(bracket_minimum(f, f64::NAN, 1.0, 10).is_err());
        assert!(bracket_minimum(f, 0.0, 1.0, 0).is_err());
        assert!(bracket_minimum(|_: f64| f64::NAN, 0.0, 1.0, 10).is_err());
    }
}
