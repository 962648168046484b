//! Central finite differences (gradient, Jacobian, Hessian), gradient checking, and the
//! classification of stationary points by the eigenvalues of the Hessian.
//!
//! # The math
//!
//! The course notes define the directional derivative as a limit, `∇f(a)·v = lim_{h→0} (f(a + hv) −
//! f(a))/h`, and the Hessian as `H = ∇ₓ(∇ₓf)ᵀ` with `Hᵢⱼ = ∂²f/∂xᵢ∂xⱼ` (catalog O-15, C-23). The
//! routines here replace the limit by **central** differences, whose truncation error is
//! `O(h²)` instead of `O(h)`:
//!
//! * gradient: `∂f/∂xᵢ ≈ (f(x + hᵢeᵢ) − f(x − hᵢeᵢ)) / (2hᵢ)` with `hᵢ = ε^{1/3}·max(1, |xᵢ|)`
//!   (the step that balances the `O(h²)` truncation error against the `O(ε/h)` rounding error;
//!   the error is then `O(ε^{2/3})`, about `4·10⁻¹¹` relative in `f64`);
//! * Jacobian of `r: ℝⁿ → ℝᵐ`: the same formula column by column (`m × n`, rows = outputs, the
//!   notes' convention `J = ∂r/∂xᵀ`);
//! * Hessian from values: `Hᵢⱼ ≈ [f(x+hᵢeᵢ+hⱼeⱼ) − f(x+hᵢeᵢ−hⱼeⱼ) − f(x−hᵢeᵢ+hⱼeⱼ) +
//!   f(x−hᵢeᵢ−hⱼeⱼ)] / (4hᵢhⱼ)` and `Hᵢᵢ ≈ (f(x+hᵢeᵢ) − 2f(x) + f(x−hᵢeᵢ))/hᵢ²` with
//!   `hᵢ = ε^{1/4}·max(1, |xᵢ|)` (error `O(ε^{1/2})`);
//! * Hessian from an analytic gradient: central differences of the gradient (step `ε^{1/3}`),
//!   symmetrised `(H + Hᵀ)/2`; more accurate than from values, used by Newton's method and the
//!   Lagrange solver when no analytic Hessian is given.
//!
//! Each step is rounded so that `x + h` is exactly representable (`h = (x + h) − x`).
//!
//! [`classify_stationary_point`] applies the course notes' test (catalog O-09; the second-order
//! conditions of Nocedal & Wright, *Numerical Optimization*, 2nd ed. (2006), §2.1): at a
//! stationary point, a positive-definite Hessian means a (local) minimum, a
//! negative-definite one a maximum, an indefinite one a saddle. Eigenvalues within a tolerance of
//! zero make the test inconclusive ([`StationaryPoint::Degenerate`]). [`check_convexity_chords`]
//! is a randomized test of the chord inequality `f(θx + (1−θ)y) ≤ θf(x) + (1−θ)f(y)` (a
//! counter-example proves non-convexity; passing is evidence only).
//!
//! # Complexity
//!
//! Gradient: `2n` evaluations of `f`; Jacobian: `2n` evaluations of `r`; Hessian from values:
//! `2n² + 1` evaluations; Hessian from gradients: `2n` gradient evaluations; classification: one
//! symmetric eigendecomposition, `O(n³)`.
//!
//! # Implementation choices (not in the course notes)
//!
//! The step sizes, the relative-error formula of [`check_gradient`], the default eigenvalue
//! tolerance and the chord test are standard numerical practice (Nocedal & Wright, *Numerical
//! Optimization*, 2nd ed., §8.1), not from the course notes.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

use super::Objective;
use crate::{Error, Float, Result, linalg, random};

/// What kind of stationary point a Hessian indicates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum StationaryPoint {
    /// All eigenvalues `> tol`: positive definite, a strict local minimum.
    Minimum,
    /// All eigenvalues `< −tol`: negative definite, a strict local maximum.
    Maximum,
    /// Eigenvalues of both signs beyond `tol`: indefinite, a saddle point.
    Saddle,
    /// Some eigenvalue within `tol` of zero and no two of opposite sign: the second-order test
    /// is inconclusive (e.g. `x⁴` at 0).
    Degenerate,
}

/// The step `h` for coordinate value `x` with relative size `rel`, rounded so that `x + h` and
/// `x − h` are representable distances from `x`.
fn step<F: Float>(x: F, rel: F) -> F {
    let h = rel * F::one().max(x.abs());
    let xp = x + h;
    let h_exact = xp - x;
    if h_exact > F::zero() { h_exact } else { h }
}

fn eps_pow<F: Float>(p: f64) -> F {
    F::epsilon().powf(F::cast(p))
}

/// Central-difference gradient of `f` at `x` (`2n` evaluations, step `ε^{1/3}·max(1, |xᵢ|)`).
pub fn gradient<F, V>(f: V, x: &ArrayRef1<F>) -> Array1<F>
where
    F: Float,
    V: Fn(&ArrayRef1<F>) -> F,
{
    let rel = eps_pow::<F>(1.0 / 3.0);
    let mut xw = x.to_owned();
    let mut g = Array1::zeros(x.len());
    for i in 0..x.len() {
        let xi = x[i];
        let h = step(xi, rel);
        xw[i] = xi + h;
        let fp = f(&xw);
        xw[i] = xi - h;
        let fm = f(&xw);
        xw[i] = xi;
        g[i] = (fp - fm) / (h + h);
    }
    g
}

/// Central-difference Jacobian (`m × n`, row `k` = gradient of output `k`) of `r: ℝⁿ → ℝᵐ`.
///
/// Errors: [`Error::ShapeMismatch`] when `r` returns vectors of different lengths.
pub fn jacobian<F, R>(r: R, x: &ArrayRef1<F>) -> Result<Array2<F>>
where
    F: Float,
    R: Fn(&ArrayRef1<F>) -> Array1<F>,
{
    let rel = eps_pow::<F>(1.0 / 3.0);
    let n = x.len();
    let m = r(x).len();
    let mut xw = x.to_owned();
    let mut jac = Array2::zeros((m, n));
    for i in 0..n {
        let xi = x[i];
        let h = step(xi, rel);
        xw[i] = xi + h;
        let rp = r(&xw);
        xw[i] = xi - h;
        let rm = r(&xw);
        xw[i] = xi;
        if rp.len() != m || rm.len() != m {
            return Err(Error::ShapeMismatch {
                context: "finite-difference Jacobian: output length",
                expected: format!("{m} (the length at x)"),
                found: format!("{} and {}", rp.len(), rm.len()),
            });
        }
        let denom = h + h;
        for k in 0..m {
            jac[[k, i]] = (rp[k] - rm[k]) / denom;
        }
    }
    Ok(jac)
}

/// Central-difference Hessian of `f` from function values (`2n² + 1` evaluations, step
/// `ε^{1/4}·max(1, |xᵢ|)`); exactly symmetric.
pub fn hessian<F, V>(f: V, x: &ArrayRef1<F>) -> Array2<F>
where
    F: Float,
    V: Fn(&ArrayRef1<F>) -> F,
{
    let rel = eps_pow::<F>(0.25);
    let n = x.len();
    let hs: Vec<F> = x.iter().map(|&v| step(v, rel)).collect();
    let mut xw = x.to_owned();
    let f0 = f(x);
    let two = F::cast(2.0);
    let mut hess = Array2::zeros((n, n));
    for i in 0..n {
        let (xi, hi) = (x[i], hs[i]);
        xw[i] = xi + hi;
        let fp = f(&xw);
        xw[i] = xi - hi;
        let fm = f(&xw);
        xw[i] = xi;
        hess[[i, i]] = (fp - two * f0 + fm) / (hi * hi);
        for j in (i + 1)..n {
            let (xj, hj) = (x[j], hs[j]);
            let mut eval = |si: F, sj: F| {
                xw[i] = xi + si * hi;
                xw[j] = xj + sj * hj;
                let v = f(&xw);
                xw[i] = xi;
                xw[j] = xj;
                v
            };
            let one = F::one();
            let v = (eval(one, one) - eval(one, -one) - eval(-one, one) + eval(-one, -one))
                / (F::cast(4.0) * hi * hj);
            hess[[i, j]] = v;
            hess[[j, i]] = v;
        }
    }
    hess
}

/// Hessian by central differences of an analytic gradient (`2n` gradient evaluations, step
/// `ε^{1/3}·max(1, |xᵢ|)`), symmetrised as `(H + Hᵀ)/2`.
///
/// Errors: [`Error::ShapeMismatch`] when the gradient's length is not `n`.
pub fn hessian_from_gradient<F, G>(grad: G, x: &ArrayRef1<F>) -> Result<Array2<F>>
where
    F: Float,
    G: Fn(&ArrayRef1<F>) -> Array1<F>,
{
    let n = x.len();
    let jac = jacobian(grad, x)?;
    if jac.nrows() != n {
        return Err(Error::ShapeMismatch {
            context: "finite-difference Hessian: gradient length",
            expected: format!("{n} (the dimension of x)"),
            found: jac.nrows().to_string(),
        });
    }
    let half = F::cast(0.5);
    Ok(Array2::from_shape_fn((n, n), |(i, j)| {
        half * (jac[[i, j]] + jac[[j, i]])
    }))
}

/// Compares an objective's analytic gradient with central differences at `x` and returns the
/// largest relative error `maxᵢ |gᵢ − ĝᵢ| / max(1, |gᵢ|, |ĝᵢ|)` (an absolute error for small
/// components, a relative one for large ones). Values around `1e-8` or below (in `f64`) mean
/// the gradient is right; a wrong term typically gives `1e-2` or more.
///
/// Errors: [`Error::ShapeMismatch`] when `x` or the gradient does not have length `obj.dim()`;
/// [`Error::NonFinite`] for a non-finite `x`.
pub fn check_gradient<F, O>(obj: &O, x: &ArrayRef1<F>) -> Result<F>
where
    F: Float,
    O: Objective<F> + ?Sized,
{
    super::check_start(x, obj.dim())?;
    let g = obj.gradient(x);
    if g.len() != x.len() {
        return Err(Error::ShapeMismatch {
            context: "check_gradient: gradient length",
            expected: x.len().to_string(),
            found: g.len().to_string(),
        });
    }
    let fd = gradient(|w: &ArrayRef1<F>| obj.value(w), x);
    Ok(g.iter().zip(fd.iter()).fold(F::zero(), |m, (&a, &b)| {
        let scale = F::one().max(a.abs()).max(b.abs());
        let e = (a - b).abs() / scale;
        if e.is_nan() { F::infinity() } else { m.max(e) }
    }))
}

/// Classifies a stationary point from its (symmetric) Hessian by the signs of the eigenvalues.
///
/// `tol` is the threshold below which an eigenvalue counts as zero; `None` uses
/// `√ε · max(1, maxᵢ|λᵢ|)` (about `1.5e-8` relative in `f64`), loose enough for Hessians from
/// [`hessian`] / [`hessian_from_gradient`].
///
/// Errors: non-square, non-symmetric or non-finite `hessian` (from [`linalg::eigvalsh`]);
/// a negative or non-finite `tol`.
pub fn classify_stationary_point<F: Float>(
    hessian: &ArrayRef2<F>,
    tol: Option<F>,
) -> Result<StationaryPoint> {
    if let Some(t) = tol {
        if !(t.is_finite() && t >= F::zero()) {
            return Err(Error::invalid_param(
                "tol",
                format!("must be a finite number >= 0, got {t}"),
            ));
        }
    }
    let w = linalg::eigvalsh(hessian)?;
    let max_abs = w.iter().fold(F::zero(), |m, v| m.max(v.abs()));
    let tol = tol.unwrap_or_else(|| F::epsilon().sqrt() * F::one().max(max_abs));
    let pos = w.iter().filter(|&&v| v > tol).count();
    let neg = w.iter().filter(|&&v| v < -tol).count();
    Ok(if pos > 0 && neg > 0 {
        StationaryPoint::Saddle
    } else if pos == w.len() {
        StationaryPoint::Minimum
    } else if neg == w.len() {
        StationaryPoint::Maximum
    } else {
        StationaryPoint::Degenerate
    })
}

/// A violation of the chord inequality found by [`check_convexity_chords`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ChordViolation<F: Float> {
    /// First end point.
    pub x: Array1<F>,
    /// Second end point.
    pub y: Array1<F>,
    /// Mixing weight: the point tested is `θx + (1 − θ)y`.
    pub theta: F,
    /// `f(θx + (1−θ)y) − (θf(x) + (1−θ)f(y))` (> 0: the function lies above its chord).
    pub excess: F,
}

/// Randomized convexity check on the box `[lo, hi]`: draws `n_trials` pairs `x, y` and weights
/// `θ ∈ (0, 1)` from `random::stream(seed, 0)` and tests the chord inequality
/// `f(θx + (1−θ)y) ≤ θf(x) + (1−θ)f(y) + tol·(1 + |θf(x) + (1−θ)f(y)|)`.
///
/// Returns the worst violation, or `None` when none was found (evidence of convexity on the box,
/// not a proof).
///
/// Errors: `lo`/`hi` of different lengths, non-finite, or `lo > hi`; `tol` negative.
pub fn check_convexity_chords<F, V>(
    f: V,
    lo: &ArrayRef1<F>,
    hi: &ArrayRef1<F>,
    n_trials: usize,
    tol: f64,
    seed: u64,
) -> Result<Option<ChordViolation<F>>>
where
    F: Float,
    V: Fn(&ArrayRef1<F>) -> F,
{
    check_box(lo, hi)?;
    crate::validate::check_non_negative("tol", tol)?;
    let tol = F::cast(tol);
    let mut rng = random::stream(seed, 0);
    let n = lo.len();
    let mut worst: Option<ChordViolation<F>> = None;
    for _ in 0..n_trials {
        let x = Array1::from_shape_fn(n, |i| random::uniform(&mut rng, lo[i], hi[i]));
        let y = Array1::from_shape_fn(n, |i| random::uniform(&mut rng, lo[i], hi[i]));
        let theta = random::uniform(&mut rng, F::cast(0.01), F::cast(0.99));
        let z = &x * theta + &y * (F::one() - theta);
        let chord = theta * f(&x) + (F::one() - theta) * f(&y);
        let excess = f(&z) - chord;
        if excess > tol * (F::one() + chord.abs())
            && worst.as_ref().is_none_or(|w| excess > w.excess)
        {
            worst = Some(ChordViolation {
                x,
                y,
                theta,
                excess,
            });
        }
    }
    Ok(worst)
}

/// Checks a box `[lo, hi]`: same length, finite, `lo ≤ hi`.
pub(crate) fn check_box<F: Float>(lo: &ArrayRef1<F>, hi: &ArrayRef1<F>) -> Result<()> {
    if lo.len() != hi.len() {
        return Err(Error::ShapeMismatch {
            context: "box bounds lo/hi",
            expected: format!("hi of length {}", lo.len()),
            found: format!("length {}", hi.len()),
        });
    }
    crate::validate::check_finite_1d(lo, "lo")?;
    crate::validate::check_finite_1d(hi, "hi")?;
    if let Some(i) = (0..lo.len()).find(|&i| lo[i] > hi[i]) {
        return Err(Error::invalid_param(
            "lo",
            format!("lo[{i}] = {} exceeds hi[{i}] = {}", lo[i], hi[i]),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optim::FnObjective;
    use ndarray::array;

    // f(x, y) = x²y + sin(x) + eʸ: ∇f = (2xy + cos x, x² + eʸ),
    // H = [[2y − sin x, 2x], [2x, eʸ]] (by hand).
    fn f(w: &ArrayRef1<f64>) -> f64 {
        w[0] * w[0] * w[1] + w[0].sin() + w[1].exp()
    }
    fn grad(w: &ArrayRef1<f64>) -> Array1<f64> {
        array![2.0 * w[0] * w[1] + w[0].cos(), w[0] * w[0] + w[1].exp()]
    }
    fn hess(w: &ArrayRef1<f64>) -> Array2<f64> {
        array![
            [2.0 * w[1] - w[0].sin(), 2.0 * w[0]],
            [2.0 * w[0], w[1].exp()]
        ]
    }

    #[test]
    fn gradient_jacobian_hessian_match_analytic() {
        let x = array![0.7, -1.3];
        let g = gradient(f, &x);
        assert!((&g - &grad(&x)).iter().all(|d| d.abs() < 1e-9), "{g}");
        let h = hessian(f, &x);
        assert!((&h - &hess(&x)).iter().all(|d| d.abs() < 1e-6), "{h}");
        let hg = hessian_from_gradient(grad, &x).expect("consistent lengths");
        assert!((&hg - &hess(&x)).iter().all(|d| d.abs() < 1e-8), "{hg}");
        // Jacobian of r(x) = (x0 x1, x0 + x1²): [[x1, x0], [1, 2 x1]].
        let j = jacobian(
            |w: &ArrayRef1<f64>| array![w[0] * w[1], w[0] + w[1] * w[1]],
            &x,
        )
        .expect("fixed output length");
        let exact = array![[x[1], x[0]], [1.0, 2.0 * x[1]]];
        assert!((&j - &exact).iter().all(|d| d.abs() < 1e-9), "{j}");
        // Large coordinates: the step scales with |x|.
        let big = array![1e6, 2.0];
        let gb = gradient(f, &big);
        assert!(((gb[1] - grad(&big)[1]) / grad(&big)[1]).abs() < 1e-8);
        // f32 works too.
        let g32 = gradient(
            |w: &ArrayRef1<f32>| w[0] * w[0] + 3.0 * w[1],
            &array![1.0f32, 2.0],
        );
        assert!((g32[0] - 2.0).abs() < 1e-3 && (g32[1] - 3.0).abs() < 1e-3);
    }

    #[test]
    fn jacobian_rejects_changing_output_length() {
        let r = |w: &ArrayRef1<f64>| {
            if w[0] > 0.5 {
                array![1.0]
            } else {
                array![1.0, 2.0]
            }
        };
        assert!(matches!(
            jacobian(r, &array![0.5]),
            Err(Error::ShapeMismatch { .. })
        ));
        let bad_grad = |_: &ArrayRef1<f64>| array![1.0];
        assert!(matches!(
            hessian_from_gradient(bad_grad, &array![0.5, 1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn check_gradient_detects_errors() {
        let good = FnObjective::new(2, f, grad);
        let x = array![0.3, 0.4];
        assert!(check_gradient(&good, &x).expect("valid") < 1e-8);
        // A gradient missing the cos x term.
        let wrong = FnObjective::new(2, f, |w: &ArrayRef1<f64>| {
            array![2.0 * w[0] * w[1], w[0] * w[0] + w[1].exp()]
        });
        assert!(check_gradient(&wrong, &x).expect("valid") > 0.5);
        assert!(matches!(
            check_gradient(&good, &array![1.0]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            check_gradient(&good, &array![f64::NAN, 1.0]),
            Err(Error::NonFinite { .. })
        ));
        let short = FnObjective::new(2, f, |_: &ArrayRef1<f64>| array![1.0]);
        assert!(matches!(
            check_gradient(&short, &x),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn classifies_stationary_points() {
        use StationaryPoint::*;
        let c = |h: Array2<f64>| classify_stationary_point(&h, None).expect("symmetric");
        // x² + y² at 0, −x² − y², x² − y², x² + y⁴ (Hessian diag(2, 0) at 0).
        assert_eq!(c(array![[2.0, 0.0], [0.0, 2.0]]), Minimum);
        assert_eq!(c(array![[-2.0, 0.0], [0.0, -2.0]]), Maximum);
        assert_eq!(c(array![[2.0, 0.0], [0.0, -2.0]]), Saddle);
        assert_eq!(c(array![[2.0, 0.0], [0.0, 0.0]]), Degenerate);
        // xy at 0: Hessian [[0,1],[1,0]] has eigenvalues ±1.
        assert_eq!(c(array![[0.0, 1.0], [1.0, 0.0]]), Saddle);
        // The FD Hessian of x² + 3y² − xy at its minimum (0, 0).
        let h = hessian(
            |w: &ArrayRef1<f64>| w[0] * w[0] + 3.0 * w[1] * w[1] - w[0] * w[1],
            &array![0.0, 0.0],
        );
        assert_eq!(c(h), Minimum);
        // With an explicit tolerance, small eigenvalues become zero.
        let tiny = array![[1e-3, 0.0], [0.0, 1.0]];
        assert_eq!(
            classify_stationary_point(&tiny, Some(1e-2)).expect("ok"),
            Degenerate
        );
        assert!(classify_stationary_point(&tiny, Some(-1.0)).is_err());
        assert!(classify_stationary_point(&array![[1.0, 2.0], [0.0, 1.0]], None).is_err());
        assert!(classify_stationary_point(&Array2::<f64>::zeros((2, 3)), None).is_err());
    }

    #[test]
    fn chord_test_separates_convex_and_nonconvex() {
        let lo = array![-2.0, -2.0];
        let hi = array![2.0, 2.0];
        let convex = |w: &ArrayRef1<f64>| (w[0].exp() + w[1].exp()).ln() + w[0] * w[0];
        assert!(
            check_convexity_chords(convex, &lo, &hi, 300, 1e-12, 1)
                .expect("valid")
                .is_none()
        );
        let nonconvex = |w: &ArrayRef1<f64>| w[0].sin() + w[1] * w[1];
        let v = check_convexity_chords(nonconvex, &lo, &hi, 300, 1e-12, 1)
            .expect("valid")
            .expect("sin is not convex on [-2, 2]");
        assert!(v.excess > 0.0);
        assert!(check_convexity_chords(convex, &hi, &lo, 1, 0.0, 1).is_err());
        assert!(check_convexity_chords(convex, &lo, &array![1.0], 1, 0.0, 1).is_err());
        assert!(check_convexity_chords(convex, &lo, &hi, 1, -1.0, 1).is_err());
    }
}
