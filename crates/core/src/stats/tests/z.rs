//! The z-test (catalog CL-046; Casella & Berger, *Statistical Inference*, 2nd ed., Duxbury
//! (2002), ch. 8; Wasserman, *All of Statistics*, Springer (2004), ch. 10).
//!
//! Model `yᵢ = b + εᵢ`, `εᵢ ~ N(0, σ²)` with σ known; `b̂ = ȳ`. Under `H₀: b = b_A` the statistic
//! `T = √N (b̂ − b_A)/σ` is standard normal. p-values (Definition 2.1.19 of the course notes):
//! right-tailed `P(t ≥ T)`, left-tailed `P(t ≤ T)`, two-tailed `2 min{P(t ≤ T), P(t ≥ T)}`
//! (printed ".2 min", catalog erratum E23), which equals `P(|t| ≥ |T|)` for the symmetric normal.
//! Reject `H₀` at level α when the p-value is ≤ α, equivalently when `T` passes the critical
//! value of [`z_critical`].

use ndarray::ArrayRef1;

use super::super::special::{norm_cdf, norm_ppf, norm_sf};
use crate::validate::{check_finite_1d, check_min_samples, check_positive};
use crate::{Error, Float, Result};

/// Which tail(s) of the null distribution count as "more extreme".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Tail {
    /// `H₁: b ≠ b_A`; reject when `|T| ≥ M`.
    #[default]
    TwoSided,
    /// `H₁: b > b_A`; reject when `T ≥ M`.
    Right,
    /// `H₁: b < b_A`; reject when `T ≤ M` (`M < 0`).
    Left,
}

/// A z-test: the statistic and its three p-values.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ZTest {
    /// `T`, standard normal under `H₀`.
    pub statistic: f64,
    /// Right-tailed p-value `P(t ≥ T)`.
    pub p_right: f64,
    /// Left-tailed p-value `P(t ≤ T)`.
    pub p_left: f64,
    /// Two-tailed p-value `2 min{P(t ≤ T), P(t ≥ T)} = P(|t| ≥ |T|)`.
    pub p_two_sided: f64,
}

impl ZTest {
    /// The test for an already computed statistic `T`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a NaN statistic (±∞ is allowed: p-values 0 or 1).
    pub fn from_statistic(statistic: f64) -> Result<Self> {
        if statistic.is_nan() {
            return Err(Error::invalid_param("statistic", "the z statistic is NaN"));
        }
        let p_right = norm_sf(statistic);
        let p_left = norm_cdf(statistic);
        let p_two_sided = (2.0 * p_right.min(p_left)).min(1.0);
        Ok(Self {
            statistic,
            p_right,
            p_left,
            p_two_sided,
        })
    }

    /// One-sample z-test of the mean with known σ: `T = √N (ȳ − b_A)/σ`.
    ///
    /// # Errors
    /// [`Error::TooFewSamples`] for an empty sample, [`Error::NonFinite`] for NaN/∞ in `y`,
    /// [`Error::InvalidParam`] unless `σ` is finite and `> 0` and `b_A` is finite.
    ///
    /// ```
    /// use ndlearn_core::{ndarray::array, stats::tests::{Tail, ZTest}};
    /// // N = 4, ȳ = 1.5, σ = 1, H₀: b = 0 ⇒ T = 2·1.5 = 3
    /// let t = ZTest::mean(&array![1.0, 2.0, 1.0, 2.0], 0.0, 1.0)?;
    /// assert!((t.statistic - 3.0).abs() < 1e-15);
    /// assert!(t.reject(0.02, Tail::TwoSided)?); // |T| ≥ 2.33
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    pub fn mean<F: Float>(y: &ArrayRef1<F>, b_a: f64, sigma: f64) -> Result<Self> {
        check_min_samples(y.len(), 1, "ZTest::mean")?;
        check_finite_1d(y, "y")?;
        check_positive("sigma", sigma)?;
        if !b_a.is_finite() {
            return Err(Error::invalid_param(
                "b_a",
                format!("the null value must be finite, got {b_a}"),
            ));
        }
        let n = y.len() as f64;
        let mean = y.iter().map(|v| v.to_f64_lossless()).sum::<f64>() / n;
        Self::from_statistic(n.sqrt() * (mean - b_a) / sigma)
    }

    /// The p-value for `tail`.
    pub fn p_value(&self, tail: Tail) -> f64 {
        match tail {
            Tail::TwoSided => self.p_two_sided,
            Tail::Right => self.p_right,
            Tail::Left => self.p_left,
        }
    }

    /// `true` when `H₀` is rejected at level `alpha` (p-value ≤ α).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `0 < α < 1`.
    pub fn reject(&self, alpha: f64, tail: Tail) -> Result<bool> {
        check_alpha(alpha)?;
        Ok(self.p_value(tail) <= alpha)
    }
}

fn check_alpha(alpha: f64) -> Result<()> {
    if alpha > 0.0 && alpha < 1.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "alpha",
            format!("the significance level must lie in (0, 1), got {alpha}"),
        ))
    }
}

/// Critical value `M` of a z-test at level `alpha`: two-sided `Φ⁻¹(1 − α/2)` (reject when
/// `|T| ≥ M`), right `Φ⁻¹(1 − α)` (reject when `T ≥ M`), left `Φ⁻¹(α)` (negative; reject when
/// `T ≤ M`).
///
/// The course notes' example: the two-sided rule `P(|t| ≥ M) ≤ α` with `α = 0.02`
/// gives `M ≈ 2.33` (`2.326348`), the same number as a one-sided test at `α = 0.01`.
///
/// # Errors
/// [`Error::InvalidParam`] unless `0 < α < 1`.
///
/// ```
/// use ndlearn_core::stats::tests::{Tail, z_critical};
/// let m = z_critical(0.02, Tail::TwoSided)?;
/// assert_eq!((m * 100.0).round() / 100.0, 2.33);
/// assert_eq!(z_critical(0.01, Tail::Right)?, m);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn z_critical(alpha: f64, tail: Tail) -> Result<f64> {
    check_alpha(alpha)?;
    // Upper quantiles through the lower tail (−Φ⁻¹(q) = Φ⁻¹(1 − q) without forming 1 − q).
    match tail {
        Tail::TwoSided => Ok(-norm_ppf(0.5 * alpha)?),
        Tail::Right => Ok(-norm_ppf(alpha)?),
        Tail::Left => norm_ppf(alpha),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn catalog_tv11_alpha_002() {
        // Catalog TV11: α = 0.02 ⇒ M ≈ 2.33 (derived 2.326348), two-sided.
        let m = z_critical(0.02, Tail::TwoSided).expect("valid");
        assert!((m - 2.326_348).abs() < 5e-7, "{m}");
        // "reject if |T| ≥ 2.33 ⇔ p(T) ≤ 0.02" (the course notes)
        let at = ZTest::from_statistic(m).expect("finite");
        assert!((at.p_two_sided - 0.02).abs() < 1e-16);
        assert!(
            ZTest::from_statistic(2.34)
                .expect("ok")
                .reject(0.02, Tail::TwoSided)
                .expect("ok")
        );
        assert!(
            !ZTest::from_statistic(2.32)
                .expect("ok")
                .reject(0.02, Tail::TwoSided)
                .expect("ok")
        );
        // One-sided versions
        assert_eq!(z_critical(0.01, Tail::Right).expect("valid"), m);
        assert_eq!(z_critical(0.01, Tail::Left).expect("valid"), -m);
    }

    #[test]
    fn p_values_by_definition() {
        let t = ZTest::from_statistic(-1.5).expect("finite");
        assert_eq!(t.p_left, norm_cdf(-1.5));
        assert_eq!(t.p_right, norm_sf(-1.5));
        assert!((t.p_left + t.p_right - 1.0).abs() < 1e-16);
        // two-sided = 2 min{…} = P(|t| ≥ |T|)
        assert_eq!(t.p_two_sided, 2.0 * t.p_left);
        assert_eq!(t.p_value(Tail::Left), t.p_left);
        assert_eq!(t.p_value(Tail::Right), t.p_right);
        assert_eq!(ZTest::from_statistic(0.0).expect("ok").p_two_sided, 1.0);
        let inf = ZTest::from_statistic(f64::INFINITY).expect("ok");
        assert_eq!((inf.p_right, inf.p_left, inf.p_two_sided), (0.0, 1.0, 0.0));
    }

    #[test]
    fn mean_statistic_and_errors() {
        // N = 9, ȳ = 11, b_A = 10, σ = 3 ⇒ T = 3·1/3 = 1
        let y = ndarray::Array1::from_elem(9, 11.0f32);
        let t = ZTest::mean(&y, 10.0, 3.0).expect("valid");
        assert!((t.statistic - 1.0).abs() < 1e-12);
        assert!(ZTest::mean(&array![1.0], 0.0, 0.0).is_err());
        assert!(ZTest::mean(&array![1.0], f64::NAN, 1.0).is_err());
        assert!(ZTest::mean(&array![f64::NAN], 0.0, 1.0).is_err());
        assert!(ZTest::mean(&ndarray::Array1::<f64>::zeros(0), 0.0, 1.0).is_err());
        assert!(ZTest::from_statistic(f64::NAN).is_err());
        assert!(z_critical(0.0, Tail::Right).is_err() && z_critical(1.0, Tail::Left).is_err());
        assert!(t.reject(1.5, Tail::Right).is_err());
    }
}
