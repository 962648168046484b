//! The χ² distribution and Pearson's χ² test of independence (catalog CL-047; Pearson, "On the
//! criterion that a given system of deviations from the probable …", Philosophical Magazine
//! 50, 1900; the course notes use it as a "χ²-test before adding features" and to "stop if the
//! class distribution is independent of the features").

use ndarray::{Array2, ArrayRef2};

use crate::stats::special::{gamma_p, gamma_p_inv, gamma_q, gamma_q_inv, ln_gamma};
use crate::{Error, Result};

fn check_dof(dof: f64) -> Result<()> {
    crate::validate::check_positive("dof", dof)
}

fn check_prob(name: &'static str, p: f64) -> Result<()> {
    if (0.0..=1.0).contains(&p) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("a probability must lie in [0, 1], got {p}"),
        ))
    }
}

/// χ² density with `dof > 0` degrees of freedom, `x^{k/2−1} e^{−x/2} / (2^{k/2} Γ(k/2))`
/// (`scipy.stats.chi2.pdf`); 0 for `x < 0`, NaN for `dof ≤ 0` or NaN input.
pub fn chi2_pdf(x: f64, dof: f64) -> f64 {
    if dof.is_nan() || dof <= 0.0 || x.is_nan() {
        return f64::NAN;
    }
    if x < 0.0 {
        return 0.0;
    }
    let h = 0.5 * dof;
    if x == 0.0 {
        return match h.partial_cmp(&1.0) {
            Some(std::cmp::Ordering::Less) => f64::INFINITY,
            Some(std::cmp::Ordering::Equal) => 0.5,
            _ => 0.0,
        };
    }
    ((h - 1.0) * x.ln() - 0.5 * x - h * std::f64::consts::LN_2 - ln_gamma(h)).exp()
}

/// χ² cdf `P(X ≤ x) = P(k/2, x/2)` (`scipy.stats.chi2.cdf`); 0 for `x ≤ 0`, NaN for `dof ≤ 0`
/// or NaN input.
pub fn chi2_cdf(x: f64, dof: f64) -> f64 {
    if dof.is_nan() || dof <= 0.0 || x.is_nan() {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 0.0;
    }
    gamma_p(0.5 * dof, 0.5 * x)
}

/// χ² survival function `P(X > x) = Q(k/2, x/2)` (`scipy.stats.chi2.sf`), accurate for tiny
/// p-values; 1 for `x ≤ 0`, NaN for `dof ≤ 0` or NaN input.
///
/// ```
/// use ndlearn_core::stats::tests::chi2_sf;
/// // one degree of freedom: P(χ²₁ > 3.841459) = 0.05
/// assert!((chi2_sf(3.841_458_820_694_124, 1.0) - 0.05).abs() < 1e-15);
/// ```
pub fn chi2_sf(x: f64, dof: f64) -> f64 {
    if dof.is_nan() || dof <= 0.0 || x.is_nan() {
        return f64::NAN;
    }
    if x <= 0.0 {
        return 1.0;
    }
    gamma_q(0.5 * dof, 0.5 * x)
}

/// χ² quantile: the `x` with `P(X ≤ x) = p` (`scipy.stats.chi2.ppf`). `p = 1` gives `+∞`.
///
/// # Errors
/// [`Error::InvalidParam`] for `dof` not finite and `> 0`, or `p ∉ [0, 1]`.
///
/// ```
/// use ndlearn_core::stats::tests::chi2_ppf;
/// assert!((chi2_ppf(0.95, 1.0)? - 3.841_458_820_694_124).abs() < 1e-14);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn chi2_ppf(p: f64, dof: f64) -> Result<f64> {
    check_dof(dof)?;
    check_prob("p", p)?;
    Ok(2.0 * gamma_p_inv(0.5 * dof, p))
}

/// χ² inverse survival function: the `x` with `P(X > x) = q` (`scipy.stats.chi2.isf`), accurate
/// for tiny `q` (critical values at small α).
///
/// # Errors
/// As [`chi2_ppf`].
pub fn chi2_isf(q: f64, dof: f64) -> Result<f64> {
    check_dof(dof)?;
    check_prob("q", q)?;
    Ok(2.0 * gamma_q_inv(0.5 * dof, q))
}

/// Result of a χ² test of independence.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Chi2Test {
    /// Pearson's statistic `Σᵢⱼ (Oᵢⱼ − Eᵢⱼ)² / Eᵢⱼ` (after Yates' correction if requested).
    pub statistic: f64,
    /// Degrees of freedom `(r − 1)(c − 1)`.
    pub dof: usize,
    /// `P(χ²_dof ≥ statistic)`; 1 when `dof = 0`.
    pub p_value: f64,
    /// Expected counts under independence, `Eᵢⱼ = (row sum i)(column sum j) / N`.
    pub expected: Array2<f64>,
}

/// Pearson's χ² test of independence on an `r × c` contingency table of observed counts
/// (`scipy.stats.chi2_contingency(table, correction=yates)`).
///
/// `Eᵢⱼ = rᵢ cⱼ / N`, `χ² = Σ (Oᵢⱼ − Eᵢⱼ)² / Eᵢⱼ`, `dof = (r − 1)(c − 1)`, p-value `= Q_χ²(χ²)`.
/// With `yates = true` and `dof = 1`, each `|Oᵢⱼ − Eᵢⱼ|` is reduced by `min(½, |Oᵢⱼ − Eᵢⱼ|)`
/// (Yates' continuity correction, as scipy; scipy's default is `correction=True`, ndlearn's
/// [`chi2_independence`] uses none). A table with `dof = 0` (one row or one column) gives
/// statistic 0 and p-value 1, as scipy. Counts need not be integers.
///
/// Used for feature significance and as a pre-pruning stop rule for trees (Quinlan, "Induction
/// of decision trees", Machine Learning 1(1), 1986).
///
/// # Errors
/// [`Error::InvalidParam`] for an empty table, a negative or non-finite count, or a zero row or
/// column sum (the expected table would have a zero).
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::tests::chi2_independence_with};
/// let t = chi2_independence_with(&array![[10.0, 20.0], [20.0, 10.0]], false)?;
/// // E = 15 everywhere; χ² = 4 · 25/15
/// assert!((t.statistic - 100.0 / 15.0).abs() < 1e-12);
/// assert_eq!(t.dof, 1);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn chi2_independence_with(table: &ArrayRef2<f64>, yates: bool) -> Result<Chi2Test> {
    let (r, c) = table.dim();
    if r == 0 || c == 0 {
        return Err(Error::invalid_param(
            "table",
            "the contingency table is empty",
        ));
    }
    if let Some(((i, j), v)) = table
        .indexed_iter()
        .find(|(_, v)| !(v.is_finite() && **v >= 0.0))
    {
        return Err(Error::invalid_param(
            "table",
            format!("counts must be finite and >= 0; entry ({i}, {j}) is {v}"),
        ));
    }
    let rows: Vec<f64> = table.rows().into_iter().map(|row| row.sum()).collect();
    let cols: Vec<f64> = table.columns().into_iter().map(|col| col.sum()).collect();
    if let Some(i) = rows.iter().position(|&s| s == 0.0) {
        return Err(Error::invalid_param(
            "table",
            format!("row {i} sums to 0, so its expected counts are 0; drop the empty row"),
        ));
    }
    if let Some(j) = cols.iter().position(|&s| s == 0.0) {
        return Err(Error::invalid_param(
            "table",
            format!("column {j} sums to 0, so its expected counts are 0; drop the empty column"),
        ));
    }
    let n: f64 = rows.iter().sum();
    let expected = Array2::from_shape_fn((r, c), |(i, j)| rows[i] * cols[j] / n);
    let dof = (r - 1) * (c - 1);
    if dof == 0 {
        return Ok(Chi2Test {
            statistic: 0.0,
            dof,
            p_value: 1.0,
            expected,
        });
    }
    let correct = yates && dof == 1;
    let mut statistic = 0.0;
    for (&o, &e) in table.iter().zip(expected.iter()) {
        let mut diff = o - e;
        if correct {
            let m = diff.abs().min(0.5);
            diff -= m * diff.signum();
        }
        statistic += diff * diff / e;
    }
    let p_value = chi2_sf(statistic, dof as f64);
    Ok(Chi2Test {
        statistic,
        dof,
        p_value,
        expected,
    })
}

/// [`chi2_independence_with`] without Yates' correction.
///
/// # Errors
/// As [`chi2_independence_with`].
pub fn chi2_independence(table: &ArrayRef2<f64>) -> Result<Chi2Test> {
    chi2_independence_with(table, false)
}

/// Contingency table of two label vectors: entry `(i, j)` counts the samples with the `i`-th
/// smallest distinct value of `a` and the `j`-th smallest distinct value of `b` (labels need not
/// be contiguous).
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths; [`Error::TooFewSamples`] when empty.
pub fn contingency_table(a: &[usize], b: &[usize]) -> Result<Array2<f64>> {
    let (ia, ka, ib, kb) = crate::stats::information::encode_pair(a, b)?;
    let mut t = Array2::zeros((ka, kb));
    for (&i, &j) in ia.iter().zip(ib.iter()) {
        t[[i, j]] += 1.0;
    }
    Ok(t)
}

/// χ² test of independence of two label vectors (e.g. a discretised feature and the class):
/// [`contingency_table`] followed by [`chi2_independence_with`].
///
/// # Errors
/// As [`contingency_table`].
pub fn chi2_independence_labels(a: &[usize], b: &[usize], yates: bool) -> Result<Chi2Test> {
    chi2_independence_with(&contingency_table(a, b)?, yates)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn distribution_functions() {
        // dof = 2 is the exponential with mean 2: cdf 1 − e^{−x/2}, pdf e^{−x/2}/2
        for &x in &[0.1f64, 1.0, 5.0, 40.0] {
            let sf = (-0.5 * x).exp();
            assert!((chi2_sf(x, 2.0) - sf).abs() <= 1e-15 * sf);
            assert!((chi2_cdf(x, 2.0) - (1.0 - sf)).abs() < 1e-15);
            assert!((chi2_pdf(x, 2.0) - 0.5 * sf).abs() <= 1e-15 * sf);
            // round trips through the better-conditioned tail
            let back = if x < 2.0 {
                chi2_ppf(chi2_cdf(x, 2.0), 2.0)
            } else {
                chi2_isf(chi2_sf(x, 2.0), 2.0)
            };
            assert!((back.expect("valid") - x).abs() < 1e-14 * x);
        }
        assert_eq!(chi2_pdf(0.0, 2.0), 0.5);
        assert_eq!(chi2_pdf(0.0, 1.0), f64::INFINITY);
        assert_eq!(chi2_pdf(-1.0, 3.0), 0.0);
        assert_eq!(chi2_cdf(-1.0, 3.0), 0.0);
        assert_eq!(chi2_sf(0.0, 3.0), 1.0);
        assert!(chi2_sf(1.0, 0.0).is_nan() && chi2_cdf(1.0, -1.0).is_nan());
        // χ²₁ tail = 2 Φ(−√x)
        let x = 30.0f64;
        let want = 2.0 * crate::stats::special::norm_sf(x.sqrt());
        assert!((chi2_sf(x, 1.0) - want).abs() <= 1e-14 * want);
        let q = 1e-30;
        let c = chi2_isf(q, 4.0).expect("valid");
        assert!((chi2_sf(c, 4.0) - q).abs() <= 1e-12 * q);
    }

    #[test]
    fn quantile_errors() {
        assert!(matches!(
            chi2_ppf(0.5, 0.0),
            Err(Error::InvalidParam { name: "dof", .. })
        ));
        assert!(chi2_ppf(0.5, f64::NAN).is_err());
        assert!(matches!(
            chi2_ppf(1.5, 1.0),
            Err(Error::InvalidParam { name: "p", .. })
        ));
        assert!(chi2_isf(-0.5, 1.0).is_err());
        assert_eq!(chi2_ppf(1.0, 3.0).expect("valid"), f64::INFINITY);
        assert_eq!(chi2_ppf(0.0, 3.0).expect("valid"), 0.0);
    }

    #[test]
    fn independence_by_hand() {
        // Rows (30, 30), columns (30, 30), N = 60 ⇒ E = 15; χ² = 4·5²/15 = 20/3.
        let t = chi2_independence(&array![[10.0, 20.0], [20.0, 10.0]]).expect("valid");
        assert!((t.statistic - 20.0 / 3.0).abs() < 1e-13);
        assert_eq!(t.expected, array![[15.0, 15.0], [15.0, 15.0]]);
        assert!((t.p_value - chi2_sf(20.0 / 3.0, 1.0)).abs() < 1e-16);
        // Yates: |O − E| = 5 → 4.5 ⇒ χ² = 4·4.5²/15 = 5.4
        let y = chi2_independence_with(&array![[10.0, 20.0], [20.0, 10.0]], true).expect("ok");
        assert!((y.statistic - 5.4).abs() < 1e-13);
        // Independent table ⇒ χ² = 0, p = 1
        let ind = chi2_independence(&array![[1.0, 2.0], [2.0, 4.0]]).expect("valid");
        assert!(ind.statistic.abs() < 1e-15 && (ind.p_value - 1.0).abs() < 1e-15);
        // dof = 0
        let one = chi2_independence(&array![[3.0, 4.0, 5.0]]).expect("valid");
        assert_eq!((one.statistic, one.dof, one.p_value), (0.0, 0, 1.0));
    }

    #[test]
    fn independence_errors_and_labels() {
        assert!(chi2_independence(&Array2::<f64>::zeros((0, 2))).is_err());
        assert!(chi2_independence(&array![[1.0, -1.0], [2.0, 3.0]]).is_err());
        assert!(chi2_independence(&array![[1.0, f64::NAN], [2.0, 3.0]]).is_err());
        assert!(chi2_independence(&array![[0.0, 0.0], [2.0, 3.0]]).is_err());
        assert!(chi2_independence(&array![[0.0, 1.0], [0.0, 3.0]]).is_err());
        let a = [0, 0, 5, 5, 5, 0];
        let b = [1, 2, 1, 1, 2, 2];
        let t = contingency_table(&a, &b).expect("same length");
        assert_eq!(t, array![[1.0, 2.0], [2.0, 1.0]]);
        let via = chi2_independence_labels(&a, &b, false).expect("ok");
        assert_eq!(via, chi2_independence(&t).expect("ok"));
        assert!(contingency_table(&a, &b[..3]).is_err());
        assert!(contingency_table(&[], &[]).is_err());
    }
}
