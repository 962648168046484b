//! Generalization bounds: Hoeffding (CL-187), the finite-class union bound (CL-188), growth
//! function bounds (CL-189) and the VC bound in its two printed forms (CL-190).
//!
//! Throughout, `ε` is the tolerance and `δ` the failure probability (catalog erratum E31: one
//! set of the course notes calls ε the failure probability and swaps δ and ε in the derivation
//! of the finite-class bound; the final formulas are right). The bounds follow Abu-Mostafa,
//! Magdon-Ismail & Lin, *Learning from Data*, AMLBook (2012), ch. 1–2.

use crate::stats::special::ln_gamma;
use crate::validate::check_positive;
use crate::{Error, Result};

fn check_eps(eps: f64) -> Result<()> {
    check_positive("eps", eps)
}

fn check_delta(delta: f64) -> Result<()> {
    if delta > 0.0 && delta < 1.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "delta",
            format!("the failure probability must lie in (0, 1), got {delta}"),
        ))
    }
}

fn check_n(n: u64) -> Result<()> {
    if n == 0 {
        Err(Error::invalid_param("n", "need at least one sample"))
    } else {
        Ok(())
    }
}

fn check_m(m: u64) -> Result<()> {
    if m == 0 {
        Err(Error::invalid_param(
            "m",
            "the hypothesis set must not be empty",
        ))
    } else {
        Ok(())
    }
}

/// `⌈x⌉` as a sample size, saturating.
fn ceil_count(x: f64) -> u64 {
    if x >= u64::MAX as f64 {
        u64::MAX
    } else {
        x.ceil().max(1.0) as u64
    }
}

/// Hoeffding's inequality for one fixed hypothesis / one bin (Hoeffding, JASA 58(301), 1963;
/// Abu-Mostafa et al., *Learning from Data* (2012), §1.3):
/// `P[|ν − μ| > ε] ≤ 2 e^{−2ε²N}`. The value can exceed 1 (the bound is then vacuous).
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0` or `ε` not finite and `> 0`.
///
/// ```
/// use ndlearn_core::learning_theory::hoeffding_bound;
/// // ε = 0.1, N = 185: 2 e^{−3.7} ≈ 0.0494 ≤ δ = 0.05
/// assert!(hoeffding_bound(185, 0.1)? < 0.05);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn hoeffding_bound(n: u64, eps: f64) -> Result<f64> {
    finite_class_bound(n, eps, 1)
}

/// Smallest `N` with `2 e^{−2ε²N} ≤ δ`: `N = ⌈ln(2/δ) / (2ε²)⌉` (a question the course notes
/// ask without giving δ; catalog TV29: ε = 0.1, δ = 0.05 ⇒ 184.44 ⇒ 185).
///
/// # Errors
/// [`Error::InvalidParam`] for `ε ≤ 0` or `δ ∉ (0, 1)`.
pub fn hoeffding_sample_size(eps: f64, delta: f64) -> Result<u64> {
    finite_class_sample_size(eps, delta, 1)
}

/// The tolerance Hoeffding guarantees with `N` samples at confidence `1 − δ`:
/// `ε = √(ln(2/δ) / (2N))`.
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0` or `δ ∉ (0, 1)`.
pub fn hoeffding_epsilon(n: u64, delta: f64) -> Result<f64> {
    finite_class_gap(n, delta, 1)
}

/// Union bound over `M` hypotheses (Abu-Mostafa et al., *Learning from Data* (2012), §1.3):
/// `P[|E_in(g) − E_out(g)| > ε] ≤ 2M e^{−2ε²N}` (may exceed 1).
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0`, `m = 0` or `ε` not finite and `> 0`.
pub fn finite_class_bound(n: u64, eps: f64, m: u64) -> Result<f64> {
    check_n(n)?;
    check_eps(eps)?;
    check_m(m)?;
    Ok(2.0 * m as f64 * (-2.0 * eps * eps * n as f64).exp())
}

/// Sample complexity of a finite class (Abu-Mostafa et al., *Learning from Data* (2012),
/// §1.3): `N = ⌈ln(2M/δ) / (2ε²)⌉`
/// (catalog LT-03, derived: ε = 0.1, δ = 0.05: M = 10 ⇒ 299.6 ⇒ 300, M = 100 ⇒ 414.7 ⇒ 415).
///
/// # Errors
/// [`Error::InvalidParam`] for `ε ≤ 0`, `δ ∉ (0, 1)` or `m = 0`.
///
/// ```
/// use ndlearn_core::learning_theory::finite_class_sample_size;
/// assert_eq!(finite_class_sample_size(0.1, 0.05, 10)?, 300);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn finite_class_sample_size(eps: f64, delta: f64, m: u64) -> Result<u64> {
    check_eps(eps)?;
    check_delta(delta)?;
    check_m(m)?;
    Ok(ceil_count(
        (2.0 * m as f64 / delta).ln() / (2.0 * eps * eps),
    ))
}

/// Generalization gap of a finite class (Abu-Mostafa et al., *Learning from Data* (2012), §1.3):
/// with probability `≥ 1 − δ`,
/// `E_out ≤ E_in + √(ln(2M/δ) / (2N))`; returns the square root.
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0`, `m = 0` or `δ ∉ (0, 1)`.
pub fn finite_class_gap(n: u64, delta: f64, m: u64) -> Result<f64> {
    check_n(n)?;
    check_delta(delta)?;
    check_m(m)?;
    Ok(((2.0 * m as f64 / delta).ln() / (2.0 * n as f64)).sqrt())
}

/// `C(n, k)` exactly, or `None` when it does not fit in `u128`.
pub(crate) fn binomial_exact(n: u64, k: u64) -> Option<u128> {
    if k > n {
        return Some(0);
    }
    let k = k.min(n - k);
    let mut c: u128 = 1;
    for i in 0..k {
        // c · (n − i) / (i + 1) stays an integer at every step
        c = c.checked_mul(u128::from(n - i))? / u128::from(i + 1);
    }
    Some(c)
}

/// `ln C(n, k)`.
fn ln_binomial(n: u64, k: u64) -> f64 {
    let (n, k) = (n as f64, k as f64);
    ln_gamma(n + 1.0) - ln_gamma(k + 1.0) - ln_gamma(n - k + 1.0)
}

/// A growth-function bound, exact when it fits in `u128` and always available in log space.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GrowthBound {
    /// The exact integer value, `None` when it exceeds `u128::MAX`.
    pub exact: Option<u128>,
    /// Its natural logarithm (finite for any `n`, `d`).
    pub ln: f64,
}

impl GrowthBound {
    fn from_exact(v: u128) -> Self {
        Self {
            exact: Some(v),
            ln: (v as f64).ln(),
        }
    }

    /// The value as `f64` (`+∞` when it overflows).
    pub fn value(&self) -> f64 {
        match self.exact {
            Some(v) => v as f64,
            None => self.ln.exp(),
        }
    }
}

/// The trivial bound `m_H(N) ≤ 2^N` (Abu-Mostafa et al., *Learning from Data* (2012), §2.1).
pub fn growth_bound_exponential(n: u64) -> GrowthBound {
    if n < 128 {
        GrowthBound::from_exact(1u128 << n)
    } else {
        GrowthBound {
            exact: None,
            ln: n as f64 * std::f64::consts::LN_2,
        }
    }
}

/// Sauer's lemma `m_H(N) ≤ Σ_{i=0}^{d} C(N, i)` for `d = d_VC` (Sauer, "On the density of
/// families of sets", J. Combinatorial Theory A 13, 1972; Abu-Mostafa et al., *Learning from
/// Data* (2012), §2.1; with the sum from `i = 0` — catalog erratum E30; the course notes print
/// `i = 1`). Equals `2^N` when `N ≤ d`.
///
/// ```
/// use ndlearn_core::learning_theory::{growth_bound_polynomial, sauer_bound};
/// // catalog LT-06 (derived): N = 10, d = 3 ⇒ 176 ≤ N^d + 1 = 1001 ≤ 2^N = 1024
/// assert_eq!(sauer_bound(10, 3).exact, Some(176));
/// assert_eq!(growth_bound_polynomial(10, 3).exact, Some(1001));
/// ```
pub fn sauer_bound(n: u64, d: u64) -> GrowthBound {
    let top = d.min(n);
    let mut sum: Option<u128> = Some(0);
    for i in 0..=top {
        sum = sum.and_then(|s| binomial_exact(n, i).and_then(|c| s.checked_add(c)));
        if sum.is_none() {
            break;
        }
    }
    if let Some(s) = sum {
        return GrowthBound::from_exact(s);
    }
    // log-sum-exp of ln C(N, i)
    let logs: Vec<f64> = (0..=top).map(|i| ln_binomial(n, i)).collect();
    GrowthBound {
        exact: None,
        ln: crate::numeric::log_sum_exp(&logs),
    }
}

/// The polynomial bound `m_H(N) ≤ N^d + 1` (Abu-Mostafa et al., *Learning from Data* (2012),
/// §2.1).
pub fn growth_bound_polynomial(n: u64, d: u64) -> GrowthBound {
    let exact = u32::try_from(d)
        .ok()
        .and_then(|d| u128::from(n).checked_pow(d))
        .and_then(|p| p.checked_add(1));
    match exact {
        Some(v) => GrowthBound::from_exact(v),
        None => {
            let l = d as f64 * (n as f64).ln();
            // ln(N^d + 1) = l + ln(1 + N^{−d}) ≈ l at this size
            GrowthBound {
                exact: None,
                ln: l + (-l).exp().ln_1p(),
            }
        }
    }
}

/// VC generalization bound in the form of Abu-Mostafa et al., *Learning from Data* (2012), §2.1
/// (catalog erratum E29: the course notes' printed `ln(4 m_H(2N)/8)` is `/δ`): with probability
/// `≥ 1 − δ`,
/// `E_out ≤ E_in + √((8/N) ln(4 m_H(2N)/δ))`. Takes `ln m_H(2N)` (e.g. from [`sauer_bound`]
/// or [`growth_bound_polynomial`] at `2N`) and returns the square root. "The VC bound is
/// loose" (the course notes).
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0`, `δ ∉ (0, 1)` or a NaN / negative `ln_growth_2n`.
pub fn vc_penalty_growth(n: u64, ln_growth_2n: f64, delta: f64) -> Result<f64> {
    check_n(n)?;
    check_delta(delta)?;
    if ln_growth_2n.is_nan() || ln_growth_2n < 0.0 {
        return Err(Error::invalid_param(
            "ln_growth_2n",
            format!("ln m_H(2N) must be >= 0, got {ln_growth_2n}"),
        ));
    }
    Ok(((8.0 / n as f64) * ((4.0f64).ln() + ln_growth_2n - delta.ln())).sqrt())
}

/// [`vc_penalty_growth`] with `m_H(2N)` bounded by Sauer's lemma for VC dimension `d_vc`.
///
/// # Errors
/// As [`vc_penalty_growth`].
pub fn vc_penalty(n: u64, d_vc: u64, delta: f64) -> Result<f64> {
    check_n(n)?;
    let ln_m = sauer_bound(n.saturating_mul(2), d_vc).ln;
    vc_penalty_growth(n, ln_m, delta)
}

/// Vapnik's form (Vapnik, *The Nature of Statistical Learning Theory*, Springer (1995); as
/// quoted by Burges, Data Mining and Knowledge Discovery 2(2), 1998): with probability `≥ 1 − δ`,
/// `R(α) ≤ R_emp(α) + √((h (ln(2R/h) + 1) − ln(δ/4)) / R)` for `R` samples and VC dimension `h`;
/// returns the square root (catalog LT-07, derived: `h = 3`, `R = 1000`, `δ = 0.05` ⇒ 0.16398).
///
/// # Errors
/// [`Error::InvalidParam`] for `n = 0`, `h = 0` or `δ ∉ (0, 1)`.
///
/// ```
/// use ndlearn_core::learning_theory::vapnik_penalty;
/// assert!((vapnik_penalty(1000, 3, 0.05)? - 0.16398).abs() < 1e-5);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn vapnik_penalty(n: u64, h: u64, delta: f64) -> Result<f64> {
    check_n(n)?;
    check_delta(delta)?;
    if h == 0 {
        return Err(Error::invalid_param("h", "the VC dimension must be >= 1"));
    }
    let (r, h) = (n as f64, h as f64);
    Ok(((h * ((2.0 * r / h).ln() + 1.0) - (delta / 4.0).ln()) / r).sqrt())
}

/// The rule of thumb "keep training data 10 times the VC dimension" (Abu-Mostafa et al.,
/// *Learning from Data* (2012), §2.2):
/// `N ≈ 10 d_VC` (catalog TV30).
pub fn rule_of_thumb_samples(d_vc: u64) -> u64 {
    d_vc.saturating_mul(10)
}

/// VC dimension of affine classifiers `sign(wᵀx + b)` in `R^d`: `d + 1` (Abu-Mostafa et al.,
/// *Learning from Data* (2012), §2.1; the course notes' "exactly 3" is the case `d = 2`,
/// catalog erratum E7).
pub fn vc_dimension_hyperplanes(d: u64) -> u64 {
    d.saturating_add(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn catalog_tv29_hoeffding_sample_size() {
        // ε = 0.1, δ = 0.05, M = 1: N ≥ ln(40)/0.02 = 184.44 ⇒ 185 (catalog TV29)
        assert_eq!(hoeffding_sample_size(0.1, 0.05).expect("valid"), 185);
        assert!((40f64.ln() / 0.02 - 184.444).abs() < 1e-3);
        assert!(hoeffding_bound(185, 0.1).expect("ok") <= 0.05);
        assert!(hoeffding_bound(184, 0.1).expect("ok") > 0.05);
        let e = hoeffding_epsilon(185, 0.05).expect("ok");
        assert!(e <= 0.1 && e > 0.099);
    }

    #[test]
    fn finite_class_numbers() {
        // catalog LT-03 (derived): M = 10 ⇒ 299.6, M = 100 ⇒ 414.7
        assert_eq!(finite_class_sample_size(0.1, 0.05, 10).expect("ok"), 300);
        assert_eq!(finite_class_sample_size(0.1, 0.05, 100).expect("ok"), 415);
        assert!(((400f64).ln() / 0.02 - 299.573).abs() < 1e-3);
        // bound = 2M e^{−2ε²N} and the gap inverts it
        let b = finite_class_bound(300, 0.1, 10).expect("ok");
        assert!((b - 20.0 * (-6.0f64).exp()).abs() < 1e-15);
        let gap = finite_class_gap(300, b, 10).expect("ok");
        assert!((gap - 0.1).abs() < 1e-12);
        assert!(finite_class_bound(0, 0.1, 1).is_err());
        assert!(finite_class_bound(10, 0.0, 1).is_err());
        assert!(finite_class_bound(10, 0.1, 0).is_err());
        assert!(finite_class_sample_size(0.1, 1.0, 1).is_err());
        assert!(finite_class_gap(10, 0.0, 1).is_err());
    }

    #[test]
    fn growth_bounds() {
        // catalog LT-06 (derived): 176 ≤ 1001 ≤ 1024
        assert_eq!(sauer_bound(10, 3).exact, Some(176));
        assert_eq!(growth_bound_polynomial(10, 3).exact, Some(1001));
        assert_eq!(growth_bound_exponential(10).exact, Some(1024));
        // N ≤ d: Sauer = 2^N
        assert_eq!(sauer_bound(5, 9).exact, Some(32));
        // huge arguments: log space, consistent with the exact branch near the boundary
        let big = sauer_bound(1_000_000, 50);
        assert!(big.exact.is_none() || big.ln > 0.0);
        let ln_direct: f64 = (0..=50u64)
            .map(|i| ln_binomial(1_000_000, i))
            .fold(f64::NEG_INFINITY, f64::max);
        assert!(big.ln >= ln_direct && big.ln < ln_direct + 1.0);
        let e = growth_bound_exponential(2000);
        assert!(e.exact.is_none() && (e.ln - 2000.0 * std::f64::consts::LN_2).abs() < 1e-9);
        assert_eq!(e.value(), f64::INFINITY);
        let p = growth_bound_polynomial(1_000_000, 40);
        assert!(p.exact.is_none() && (p.ln - 240.0 * 10f64.ln()).abs() < 1e-9);
        assert_eq!(binomial_exact(60, 30), Some(118_264_581_564_861_424));
        assert_eq!(binomial_exact(3, 5), Some(0));
        // Sauer ≤ N^d + 1 ≤ 2^N for d ≥ 2 and N large enough
        for n in [10u64, 20, 50] {
            for d in [2u64, 3, 5] {
                let s = sauer_bound(n, d).ln;
                assert!(s <= growth_bound_polynomial(n, d).ln + 1e-12, "{n} {d}");
                assert!(s <= growth_bound_exponential(n).ln + 1e-12, "{n} {d}");
            }
        }
    }

    #[test]
    fn vc_bounds_and_rule_of_thumb() {
        // Vapnik form, catalog LT-07 (derived): h = 3, R = 1000, δ = 0.05 ⇒ 0.16398
        let v = vapnik_penalty(1000, 3, 0.05).expect("ok");
        assert!((v - 0.16398).abs() < 5e-6, "{v}");
        // Growth form with the δ erratum: √(8/N · ln(4 m_H(2N)/δ))
        let n = 1000;
        let m2n = sauer_bound(2 * n, 3);
        let want = (8.0 / n as f64 * (4.0 * m2n.value() / 0.05).ln()).sqrt();
        assert!((vc_penalty(n, 3, 0.05).expect("ok") - want).abs() < 1e-12);
        // "The VC bound is loose": ≈ 0.45 at N = 1000, d = 3, almost 3× Vapnik's form
        assert!(want > 2.5 * v && want < 0.5, "{want}");
        // both shrink with N
        assert!(vc_penalty(100_000, 3, 0.05).expect("ok") < want);
        assert!(vapnik_penalty(100_000, 3, 0.05).expect("ok") < v);
        // TV30: N ≈ 10 d_VC
        assert_eq!(rule_of_thumb_samples(3), 30);
        assert_eq!(vc_dimension_hyperplanes(2), 3);
        assert!(vapnik_penalty(10, 0, 0.05).is_err() && vapnik_penalty(0, 1, 0.05).is_err());
        assert!(vc_penalty_growth(10, -1.0, 0.05).is_err());
        assert!(vc_penalty_growth(10, 1.0, 1.5).is_err());
    }
}
