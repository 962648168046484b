//! The error function and the standard normal distribution: `erf`, `erfc`, `Φ`, `1 − Φ`, `Φ⁻¹`.
//!
//! * `erf(x)` for `|x| < 2` from the all-positive series
//!   `erf(x) = 2/√π e^{−x²} Σₙ 2ⁿ x^{2n+1} / (1·3·5⋯(2n+1))` (no cancellation);
//! * `erfc(x)` for `x ≥ 0.75` from the continued fraction
//!   `erfc(x) = e^{−x²}/√π · 1/(x + ½/(x + 1/(x + (3/2)/(x + …))))` (evaluated backward), with
//!   `e^{−x²}` split as `e^{−h²} e^{−(x−h)(x+h)}` (`h` = `x` rounded to 12 fraction bits, so `h²`
//!   is exact) to keep relative accuracy deep in the tail;
//! * `Φ(z) = ½ erfc(−z/√2)` (as `scipy.special.ndtr`);
//! * `Φ⁻¹(p)`: Acklam's rational approximation (relative error < 1.2e-9) followed by one Halley
//!   step on `Φ(x) − p`, written as `½ erf(x/√2) − (p − ½)` in the centre (exact `p − ½`, so
//!   quantiles near 0 keep their relative accuracy) and on the lower tail by symmetry, giving
//!   ~1e-16 relative accuracy.

use std::f64::consts::{FRAC_1_SQRT_2, PI};

use crate::{Error, Result};

/// `2/√π`.
const TWO_OVER_SQRT_PI: f64 = std::f64::consts::FRAC_2_SQRT_PI;
/// `1/√(2π)`.
const INV_SQRT_2PI: f64 = 0.398_942_280_401_432_7;
/// `½ ln(2π)`.
const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;

/// `e^{−x²}` without the rounding error of `x²` (see module docs).
fn exp_neg_sq(x: f64) -> f64 {
    let h = (x * 4096.0).trunc() / 4096.0;
    let l = x - h;
    (-h * h).exp() * (-l * (x + h)).exp()
}

/// erf by the positive-term series, `|x| < ~3`.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x;
    let mut sum = x;
    let mut k = 0.0;
    loop {
        k += 1.0;
        term *= 2.0 * x2 / (2.0 * k + 1.0);
        sum += term;
        if term.abs() <= sum.abs() * f64::EPSILON * 0.25 || k > 200.0 {
            break;
        }
    }
    TWO_OVER_SQRT_PI * exp_neg_sq(x) * sum
}

/// erfc by the continued fraction, `x ≥ 0.75`, evaluated backward from a fixed depth (stable:
/// a few ulps regardless of depth). The truncation error behaves like `exp(−2x√(2N))`, so
/// `N = 200/x² + 12` terms reach ~1e-17.
fn erfc_fraction(x: f64) -> f64 {
    let depth = (200.0 / (x * x)).ceil() as usize + 12;
    let mut t = 0.0;
    for n in (1..=depth).rev() {
        t = (0.5 * n as f64) / (x + t);
    }
    exp_neg_sq(x) / (PI.sqrt() * (x + t))
}

/// The error function `erf(x) = 2/√π ∫₀ˣ e^{−t²} dt` (`scipy.special.erf`); relative accuracy
/// ~1e-16. NaN gives NaN.
///
/// ```
/// use ndlearn_core::stats::special::erf;
/// assert_eq!(erf(0.0), 0.0);
/// assert!((erf(1.0) - 0.842_700_792_949_714_9).abs() < 1e-15);
/// ```
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    let ax = x.abs();
    let v = if ax < 2.0 {
        erf_series(ax)
    } else if ax > 6.0 {
        1.0
    } else {
        1.0 - erfc_fraction(ax)
    };
    if x < 0.0 { -v } else { v }
}

/// The complementary error function `erfc(x) = 1 − erf(x)` (`scipy.special.erfc`), with relative
/// accuracy kept in the right tail (it underflows to 0 beyond `x ≈ 27.2`). NaN gives NaN.
///
/// ```
/// use ndlearn_core::stats::special::erfc;
/// assert_eq!(erfc(0.0), 1.0);
/// assert!(erfc(10.0) > 0.0 && erfc(10.0) < 1e-44);
/// ```
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 2.0 - erfc(-x);
    }
    if x < 0.75 {
        1.0 - erf_series(x)
    } else if x > 27.3 {
        0.0
    } else {
        erfc_fraction(x)
    }
}

/// Standard normal density `φ(z) = e^{−z²/2} / √(2π)` (`scipy.stats.norm.pdf`), with `z²`
/// split as for `erfc` so that the tail keeps full relative accuracy.
pub fn norm_pdf(z: f64) -> f64 {
    let h = (z * 4096.0).trunc() / 4096.0;
    let l = z - h;
    INV_SQRT_2PI * (-0.5 * h * h).exp() * (-0.5 * l * (z + h)).exp()
}

/// Log of the standard normal density, `−z²/2 − ½ ln 2π`.
pub fn norm_logpdf(z: f64) -> f64 {
    -0.5 * z * z - HALF_LN_2PI
}

/// Standard normal cdf `Φ(z) = P(Z ≤ z) = ½ erfc(−z/√2)` (`scipy.special.ndtr`,
/// `scipy.stats.norm.cdf`); relative accuracy in both tails. NaN gives NaN.
///
/// ```
/// use ndlearn_core::stats::special::norm_cdf;
/// assert_eq!(norm_cdf(0.0), 0.5);
/// assert!((norm_cdf(1.96) - 0.975_002_104_851_780_1).abs() < 1e-15);
/// ```
pub fn norm_cdf(z: f64) -> f64 {
    0.5 * erfc(-z * FRAC_1_SQRT_2)
}

/// Standard normal survival function `1 − Φ(z) = Φ(−z)` (`scipy.stats.norm.sf`).
pub fn norm_sf(z: f64) -> f64 {
    0.5 * erfc(z * FRAC_1_SQRT_2)
}

/// `ln Φ(z)`, finite down to `z ≈ −1e154` (`scipy.special.log_ndtr`): the asymptotic series
/// `ln Φ(z) ≈ −z²/2 − ln(−z) − ½ ln 2π + ln(1 − 1/z² + 3/z⁴ − …)` below `z = −20`.
pub fn norm_logcdf(z: f64) -> f64 {
    if z > 5.0 {
        // Φ close to 1: ln(1 − sf) without cancellation
        return (-norm_sf(z)).ln_1p();
    }
    if z > -20.0 {
        return norm_cdf(z).ln();
    }
    let r = 1.0 / (z * z);
    // 1 − r + 3r² − 15r³ + 105r⁴ − 945r⁵ (terms shrink for |z| ≥ 20)
    let mut s = 0.0;
    let mut term = 1.0;
    for k in 0..8 {
        s += term;
        term *= -(2.0 * f64::from(k) + 1.0) * r;
    }
    -0.5 * z * z - (-z).ln() - HALF_LN_2PI + s.ln()
}

/// `ln(1 − Φ(z)) = ln Φ(−z)`.
pub fn norm_logsf(z: f64) -> f64 {
    norm_logcdf(-z)
}

/// Acklam's approximation for `p ∈ (0, ½]` (lower half), relative error < 1.2e-9.
fn acklam_lower(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969_683_028_665_376e1,
        2.209_460_984_245_205e2,
        -2.759_285_104_469_687e2,
        1.383_577_518_672_69e2,
        -3.066_479_806_614_716e1,
        2.506_628_277_459_239,
    ];
    const B: [f64; 5] = [
        -5.447_609_879_822_406e1,
        1.615_858_368_580_409e2,
        -1.556_989_798_598_866e2,
        6.680_131_188_771_972e1,
        -1.328_068_155_288_572e1,
    ];
    const C: [f64; 6] = [
        -7.784_894_002_430_293e-3,
        -3.223_964_580_411_365e-1,
        -2.400_758_277_161_838,
        -2.549_732_539_343_734,
        4.374_664_141_464_968,
        2.938_163_982_698_783,
    ];
    const D: [f64; 4] = [
        7.784_695_709_041_462e-3,
        3.224_671_290_700_398e-1,
        2.445_134_137_142_996,
        3.754_408_661_907_416,
    ];
    const P_LOW: f64 = 0.024_25;
    if p < P_LOW {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    }
}

/// `Φ⁻¹(p)` for `p ∈ [0, 1]` without the domain check (`0 → −∞`, `1 → +∞`).
pub(crate) fn ppf_unchecked(p: f64) -> f64 {
    if p.is_nan() {
        return f64::NAN;
    }
    if p <= 0.0 {
        return f64::NEG_INFINITY;
    }
    if p >= 1.0 {
        return f64::INFINITY;
    }
    if p > 0.5 {
        // 1 − p is exact for p ≥ ½
        return -ppf_lower(1.0 - p);
    }
    ppf_lower(p)
}

/// Quantile for `p ∈ (0, ½]`, refined by one Halley step.
fn ppf_lower(p: f64) -> f64 {
    let x = acklam_lower(p);
    // e = Φ(x) − p, computed where it has relative accuracy.
    let e = if p > 0.25 {
        // Φ(x) − ½ = ½ erf(x/√2); p − ½ is exact
        0.5 * erf(x * FRAC_1_SQRT_2) - (p - 0.5)
    } else {
        norm_cdf(x) - p
    };
    let pdf = norm_pdf(x);
    if pdf == 0.0 {
        return x;
    }
    let u = e / pdf;
    // Halley: x − u / (1 + x u / 2)
    x - u / (1.0 + 0.5 * x * u)
}

/// Standard normal quantile `Φ⁻¹(p)` (`scipy.stats.norm.ppf`, `scipy.special.ndtri`): the `z`
/// with `P(Z ≤ z) = p`. `p = 0` gives `−∞`, `p = 1` gives `+∞`.
///
/// Relative accuracy ~1e-16 (see the module docs); the upper half is computed as
/// `−Φ⁻¹(1 − p)`, exact since `1 − p` is.
///
/// # Errors
/// [`Error::InvalidParam`] when `p` is NaN or outside `[0, 1]`.
///
/// ```
/// use ndlearn_core::stats::special::norm_ppf;
/// // The course notes' two-sided critical value for α = 0.02: z₀.₉₉ ≈ 2.33.
/// let m = norm_ppf(0.99)?;
/// assert!((m - 2.326_347_874_040_841).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn norm_ppf(p: f64) -> Result<f64> {
    if !(0.0..=1.0).contains(&p) {
        return Err(Error::invalid_param(
            "p",
            format!("a probability must lie in [0, 1], got {p}"),
        ));
    }
    Ok(ppf_unchecked(p))
}

/// Inverse survival function `Φ⁻¹(1 − q)` computed without forming `1 − q`
/// (`scipy.stats.norm.isf`), accurate for tiny `q`.
///
/// # Errors
/// [`Error::InvalidParam`] when `q` is NaN or outside `[0, 1]`.
pub fn norm_isf(q: f64) -> Result<f64> {
    Ok(-norm_ppf(q)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetries_and_known_values() {
        for &x in &[0.1, 0.49, 0.5, 1.0, 1.99, 2.0, 3.3, 5.9, 6.1] {
            assert_eq!(erf(-x), -erf(x));
            assert!((erf(x) + erfc(x) - 1.0).abs() < 4e-16, "erf + erfc at {x}");
            assert!((erfc(-x) - (2.0 - erfc(x))).abs() < 1e-16);
            assert!((norm_cdf(x) + norm_sf(x) - 1.0).abs() < 2e-16);
            assert_eq!(norm_cdf(-x), norm_sf(x));
        }
        assert_eq!(erf(f64::INFINITY), 1.0);
        assert_eq!(erfc(f64::INFINITY), 0.0);
        assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
        assert!(erf(f64::NAN).is_nan() && erfc(f64::NAN).is_nan());
        // Φ(0) = ½ exactly, φ(0) = 1/√(2π)
        assert_eq!(norm_cdf(0.0), 0.5);
        assert!((norm_pdf(0.0) - 1.0 / (2.0 * PI).sqrt()).abs() < 1e-17);
        // erfc tail: erfc(x) ~ e^{−x²}/(x√π) (1 − 1/(2x²) + 3/(4x⁴))
        let x = 20.0f64;
        let asym = (-x * x).exp() / (x * PI.sqrt())
            * (1.0 - 0.5 / (x * x) + 0.75 / x.powi(4) - 1.875 / x.powi(6));
        assert!((erfc(x) - asym).abs() <= 1e-9 * asym);
    }

    #[test]
    fn ppf_round_trips_and_errors() {
        for &p in &[
            1e-300,
            1e-20,
            1e-5,
            0.02425,
            0.1,
            0.3,
            0.5 - 1e-12,
            0.5,
            0.77,
            0.999,
        ] {
            let z = norm_ppf(p).expect("valid p");
            let back = if z < 0.0 {
                norm_cdf(z)
            } else {
                1.0 - norm_sf(z)
            };
            assert!(
                (back - p).abs() <= 4e-16 * p.max(1e-300) + 1e-17,
                "p = {p}: {back}"
            );
        }
        assert_eq!(norm_ppf(0.5).expect("valid"), 0.0);
        assert_eq!(norm_ppf(0.0).expect("valid"), f64::NEG_INFINITY);
        assert_eq!(norm_ppf(1.0).expect("valid"), f64::INFINITY);
        assert!(matches!(norm_ppf(1.5), Err(Error::InvalidParam { .. })));
        assert!(norm_ppf(-0.1).is_err() && norm_ppf(f64::NAN).is_err() && norm_isf(2.0).is_err());
        assert_eq!(
            norm_isf(0.025).expect("valid"),
            -norm_ppf(0.025).expect("valid")
        );
        // Symmetric
        let z = norm_ppf(0.75).expect("valid");
        assert_eq!(z, -norm_ppf(0.25).expect("valid"));
    }

    #[test]
    fn catalog_tv11_critical_value() {
        // Catalog TV11 (course notes' z-test example): α = 0.02, reject when |T| ≥ M with
        // P(|t| ≥ M) = α ⇒ M = Φ⁻¹(1 − α/2) = Φ⁻¹(0.99) ≈ 2.33 (2.326348, catalog-derived).
        let m = norm_ppf(0.99).expect("valid");
        assert!((m - 2.326_348).abs() < 5e-7);
        assert_eq!((m * 100.0).round() / 100.0, 2.33);
        assert!((2.0 * norm_sf(m) - 0.02).abs() < 1e-16);
    }

    #[test]
    fn logcdf_tails() {
        assert!((norm_logcdf(0.0) - 0.5f64.ln()).abs() < 1e-16);
        // continuity across the switch at −20
        let a = norm_cdf(-19.999_999).ln();
        let b = norm_logcdf(-20.000_001);
        assert!((a - b).abs() < 1e-4);
        assert!(norm_logcdf(-1e5).is_finite());
        assert!(norm_logsf(40.0) < -800.0);
        assert!((norm_logcdf(6.0) - norm_cdf(6.0).ln()).abs() < 1e-15);
    }
}
