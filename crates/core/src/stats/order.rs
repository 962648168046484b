//! Order statistics, each naming the definition it follows.
//!
//! | function | definition |
//! |---|---|
//! | [`quantile`], [`quantiles`], [`percentile`] | numpy's default `linear` method (Hyndman & Fan type 7): virtual index `v = (n − 1) q`, `a[⌊v⌋] + (a[⌊v⌋+1] − a[⌊v⌋])·(v − ⌊v⌋)` with numpy's `_lerp` rounding, so results equal `np.quantile` to the bit |
//! | [`quantile_with`] / [`QuantileMethod::AveragedInvertedCdf`] | numpy's `averaged_inverted_cdf` (Hyndman & Fan type 2): `v = n q − 1`, the mean of two neighbours when `v` is an integer |
//! | [`median`] | `np.median`: the middle value, or the mean of the two middle values |
//! | [`weighted_percentile`], [`weighted_percentiles`] | scikit-learn's `sklearn.utils.stats._weighted_percentile(a, w, rank, average)`: sort, cumulate the weights, take the first value whose cumulative weight reaches `rank/100 · Σw` ("inverted CDF"); with `average = true` the mean of that value and the next value of positive weight when the cumulative weight lands on the target within machine epsilon ("averaged inverted CDF", equal to `np.median` for unit weights) |
//! | [`weighted_median`] | `weighted_percentile(a, w, 50, false)`: scikit-learn's weighted median as gradient boosting and trees use it for absolute-error, Huber and quantile leaves (the lower weighted median) |
//!
//! NaN values: the unweighted functions reject them ([`Error::NonFinite`]); the weighted ones
//! follow scikit-learn and give NaN values zero weight. Infinite values are ordered as numbers.
//! The `*_sorted` forms take an ascending slice and do no checks (for callers that sort once and
//! ask many quantiles).
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::stats::{median, quantile, weighted_median, weighted_percentile};
//!
//! let a = array![3.0, 1.0, 4.0, 1.5];
//! assert_eq!(quantile(&a, 0.5)?, 2.25);            // np.quantile(a, 0.5)
//! assert_eq!(median(&a)?, 2.25);
//! let w = array![1.0, 1.0, 1.0, 1.0];
//! assert_eq!(weighted_median(&a, &w)?, 1.5);       // lower median (inverted CDF)
//! assert_eq!(weighted_percentile(&a, &w, 50.0, true)?, 2.25); // averaged: = np.median
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! - R. J. Hyndman, Y. Fan, "Sample quantiles in statistical packages", The American
//!   Statistician 50(4), 1996.
//! - numpy's `numpy.quantile` and scikit-learn's `sklearn/utils/stats.py`.

use std::cmp::Ordering;

use ndarray::ArrayRef1;

use crate::{Error, Float, Result};

/// A quantile definition (numpy's `method` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum QuantileMethod {
    /// numpy's default `linear` (Hyndman & Fan type 7).
    #[default]
    Linear,
    /// numpy's `averaged_inverted_cdf` (Hyndman & Fan type 2).
    AveragedInvertedCdf,
}

/// Sorts values ascending (NaN-free input; ties keep no particular order).
pub fn sort_ascending<F: Float>(v: &mut [F]) {
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
}

/// numpy's `_lerp(a, b, t)`: `a + (b − a) t` for `t < ½`, `b − (b − a)(1 − t)` otherwise.
#[inline]
pub fn lerp<F: Float>(a: F, b: F, t: F) -> F {
    let diff = b - a;
    if t >= F::cast(0.5) {
        b - diff * (F::one() - t)
    } else {
        a + diff * t
    }
}

/// The `q`-quantile (`q ∈ [0, 1]`) of an ascending slice by `method`; NaN for an empty slice.
pub fn quantile_sorted<F: Float>(sorted: &[F], q: f64, method: QuantileMethod) -> F {
    let n = sorted.len();
    if n == 0 {
        return F::nan();
    }
    let v = match method {
        QuantileMethod::Linear => (n - 1) as f64 * q,
        QuantileMethod::AveragedInvertedCdf => n as f64 * q - 1.0,
    };
    if v >= (n - 1) as f64 {
        return sorted[n - 1];
    }
    if v < 0.0 {
        return sorted[0];
    }
    let lo = v.floor();
    let i = lo as usize;
    let gamma = match method {
        QuantileMethod::Linear => v - lo,
        QuantileMethod::AveragedInvertedCdf => {
            if v - lo == 0.0 {
                0.5
            } else {
                1.0
            }
        }
    };
    lerp(sorted[i], sorted[i + 1], F::cast(gamma))
}

/// `np.median` of an ascending slice: the middle value, or the mean of the two middle values
/// (`(a + b)/2`, or `a/2 + b/2` when the sum overflows); NaN for an empty slice.
pub fn median_sorted<F: Float>(sorted: &[F]) -> F {
    let n = sorted.len();
    if n == 0 {
        return F::nan();
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        let (a, b) = (sorted[n / 2 - 1], sorted[n / 2]);
        let two = F::cast(2.0);
        let s = a + b;
        if s.is_finite() {
            s / two
        } else {
            a / two + b / two
        }
    }
}

fn check_q(q: f64, hi: f64, name: &'static str) -> Result<()> {
    if !(0.0..=hi).contains(&q) {
        return Err(Error::invalid_param(
            name,
            format!("must be in [0, {hi}]; got {q}"),
        ));
    }
    Ok(())
}

fn sorted_copy<F: Float>(x: &ArrayRef1<F>, context: &'static str) -> Result<Vec<F>> {
    if x.is_empty() {
        return Err(Error::TooFewSamples {
            context,
            needed: 1,
            found: 0,
        });
    }
    if let Some(i) = x.iter().position(|v| v.is_nan()) {
        return Err(Error::NonFinite {
            context,
            row: i,
            col: 0,
        });
    }
    let mut v = x.to_vec();
    sort_ascending(&mut v);
    Ok(v)
}

/// The `q`-quantile of `x` (`q ∈ [0, 1]`), numpy's default linear interpolation
/// (`np.quantile(x, q)`).
///
/// # Errors
/// Empty `x` ([`Error::TooFewSamples`]), NaN in `x` ([`Error::NonFinite`]), `q` outside
/// `[0, 1]` ([`Error::InvalidParam`]).
pub fn quantile<F: Float>(x: &ArrayRef1<F>, q: f64) -> Result<F> {
    quantile_with(x, q, QuantileMethod::Linear)
}

/// The `q`-quantile of `x` by the given definition.
///
/// # Errors
/// As [`quantile`].
pub fn quantile_with<F: Float>(x: &ArrayRef1<F>, q: f64, method: QuantileMethod) -> Result<F> {
    check_q(q, 1.0, "q")?;
    Ok(quantile_sorted(
        &sorted_copy(x, "stats::quantile")?,
        q,
        method,
    ))
}

/// Several quantiles of `x` from one sort (numpy's linear method).
///
/// # Errors
/// As [`quantile`], for any of `qs`.
pub fn quantiles<F: Float>(x: &ArrayRef1<F>, qs: &[f64]) -> Result<Vec<F>> {
    for &q in qs {
        check_q(q, 1.0, "q")?;
    }
    let s = sorted_copy(x, "stats::quantiles")?;
    Ok(qs
        .iter()
        .map(|&q| quantile_sorted(&s, q, QuantileMethod::Linear))
        .collect())
}

/// The `p`-th percentile (`p ∈ [0, 100]`), `np.percentile(x, p)`.
///
/// # Errors
/// As [`quantile`].
pub fn percentile<F: Float>(x: &ArrayRef1<F>, p: f64) -> Result<F> {
    check_q(p, 100.0, "percentile")?;
    // numpy divides by 100 before interpolating.
    quantile(x, p / 100.0)
}

/// `np.median(x)`.
///
/// # Errors
/// Empty `x` or NaN in `x`.
pub fn median<F: Float>(x: &ArrayRef1<F>) -> Result<F> {
    Ok(median_sorted(&sorted_copy(x, "stats::median")?))
}

/// Weighted percentiles at several ranks (`ranks` in percent, `[0, 100]`) from one sort, by
/// scikit-learn's `_weighted_percentile` (see the module docs; `average` selects the averaged
/// inverted CDF).
///
/// # Errors
/// Lengths differ ([`Error::ShapeMismatch`]), empty input, a negative or infinite weight, all
/// weights zero (counting NaN values as zero weight) or a rank outside `[0, 100]`
/// ([`Error::InvalidParam`]).
pub fn weighted_percentiles<F: Float>(
    x: &ArrayRef1<F>,
    w: &ArrayRef1<F>,
    ranks: &[f64],
    average: bool,
) -> Result<Vec<F>> {
    const CONTEXT: &str = "stats::weighted_percentile";
    if x.len() != w.len() {
        return Err(Error::ShapeMismatch {
            context: CONTEXT,
            expected: format!("{} weights", x.len()),
            found: format!("{}", w.len()),
        });
    }
    if x.is_empty() {
        return Err(Error::TooFewSamples {
            context: CONTEXT,
            needed: 1,
            found: 0,
        });
    }
    for &r in ranks {
        check_q(r, 100.0, "percentile_rank")?;
    }
    if let Some(i) = w.iter().position(|v| !v.is_finite() || *v < F::zero()) {
        return Err(Error::invalid_param(
            "sample_weight",
            format!("weights must be finite and >= 0; entry {i} is {}", w[i]),
        ));
    }
    let xs: Vec<F> = x.iter().copied().collect();
    let ws: Vec<F> = x
        .iter()
        .zip(w)
        .map(|(v, &wi)| if v.is_nan() { F::zero() } else { wi })
        .collect();
    weighted_percentiles_slices(&xs, &ws, ranks, average)
}

/// [`weighted_percentiles`] on slices with validated weights (no shape checks).
///
/// # Errors
/// All weights zero.
pub fn weighted_percentiles_slices<F: Float>(
    x: &[F],
    w: &[F],
    ranks: &[f64],
    average: bool,
) -> Result<Vec<F>> {
    let n = x.len();
    // NaN values sort last (their weight is zero).
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_unstable_by(|&a, &b| match (x[a].is_nan(), x[b].is_nan()) {
        (false, false) => x[a].partial_cmp(&x[b]).unwrap_or(Ordering::Equal),
        (a_nan, b_nan) => a_nan.cmp(&b_nan),
    });
    let mut cdf = Vec::with_capacity(n);
    let mut acc = F::zero();
    for &i in &idx {
        acc += w[i];
        cdf.push(acc);
    }
    let total = acc;
    if total.is_nan() || total <= F::zero() {
        return Err(Error::invalid_param(
            "sample_weight",
            "the weights of the (non-NaN) values sum to zero: no percentile is defined",
        ));
    }
    let last = n - 1;
    Ok(ranks
        .iter()
        .map(|&rank| {
            let mut target = F::cast(rank) / F::cast(100.0) * total;
            if target == F::zero() {
                // The smallest positive number: skip leading zero-weight values.
                target = F::min_positive_value() * F::epsilon();
                if target == F::zero() {
                    target = F::min_positive_value();
                }
            }
            let k = cdf.partition_point(|&c| c < target).min(last);
            let value = x[idx[k]];
            if !average || cdf[k] - target > F::epsilon() {
                return value;
            }
            // The next value of positive weight (the value itself at the end).
            let mut next = (k + 1).min(last);
            if w[idx[next]] == F::zero() {
                let after = cdf.partition_point(|&c| c <= cdf[k]);
                next = if after > last { k } else { after };
            }
            (value + x[idx[next]]) / F::cast(2.0)
        })
        .collect())
}

/// One weighted percentile (`rank ∈ [0, 100]`), scikit-learn's `_weighted_percentile`.
///
/// # Errors
/// As [`weighted_percentiles`].
pub fn weighted_percentile<F: Float>(
    x: &ArrayRef1<F>,
    w: &ArrayRef1<F>,
    rank: f64,
    average: bool,
) -> Result<F> {
    Ok(weighted_percentiles(x, w, &[rank], average)?[0])
}

/// The weighted median as scikit-learn's trees and gradient boosting compute it:
/// `_weighted_percentile(x, w, 50)` (inverted CDF, the lower weighted median).
///
/// # Errors
/// As [`weighted_percentiles`].
pub fn weighted_median<F: Float>(x: &ArrayRef1<F>, w: &ArrayRef1<F>) -> Result<F> {
    weighted_percentile(x, w, 50.0, false)
}

/// Ranks of `x` from 1 to `n`, ties sharing their average rank (`scipy.stats.rankdata`,
/// method `average`). NaN is ranked last.
pub fn rankdata<F: Float>(x: &ArrayRef1<F>) -> Vec<f64> {
    let n = x.len();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by(|&a, &b| match (x[a].is_nan(), x[b].is_nan()) {
        (false, false) => x[a].partial_cmp(&x[b]).unwrap_or(Ordering::Equal),
        (a_nan, b_nan) => a_nan.cmp(&b_nan),
    });
    let mut ranks = vec![0.0; n];
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && x[idx[j]] == x[idx[i]] {
            j += 1;
        }
        // Positions i..j (0-based) share the mean of ranks i+1..=j.
        let r = (i + 1 + j) as f64 / 2.0;
        for &k in &idx[i..j] {
            ranks[k] = r;
        }
        i = j;
    }
    ranks
}

/// Spearman's rank correlation of `x` and `y`: Pearson's correlation of their
/// [`rankdata`] (average ranks for ties); 0 when either is constant.
///
/// # Errors
/// Lengths differ, fewer than 2 values, NaN.
pub fn spearman<F: Float>(x: &ArrayRef1<F>, y: &ArrayRef1<F>) -> Result<f64> {
    const CONTEXT: &str = "stats::spearman";
    if x.len() != y.len() {
        return Err(Error::ShapeMismatch {
            context: CONTEXT,
            expected: format!("{} values", x.len()),
            found: format!("{}", y.len()),
        });
    }
    crate::validate::check_min_samples(x.len(), 2, CONTEXT)?;
    crate::validate::check_finite_1d(x, CONTEXT)?;
    crate::validate::check_finite_1d(y, CONTEXT)?;
    let (rx, ry) = (rankdata(x), rankdata(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let (mut sxy, mut sxx, mut syy) = (0.0, 0.0, 0.0);
    for (a, b) in rx.iter().zip(&ry) {
        sxy += (a - mx) * (b - my);
        sxx += (a - mx) * (a - mx);
        syy += (b - my) * (b - my);
    }
    if sxx == 0.0 || syy == 0.0 {
        return Ok(0.0);
    }
    Ok(sxy / (sxx * syy).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn numpy_linear_and_median() {
        let a = array![1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&a, 0.0).expect("ok"), 1.0);
        assert_eq!(quantile(&a, 1.0).expect("ok"), 4.0);
        assert_eq!(quantile(&a, 0.5).expect("ok"), 2.5);
        assert_eq!(quantile(&a, 1.0 / 3.0).expect("ok"), 2.0);
        assert_eq!(median(&array![5.0, 1.0, 3.0]).expect("ok"), 3.0);
        assert_eq!(percentile(&a, 25.0).expect("ok"), 1.75);
        assert_eq!(quantiles(&a, &[0.25, 0.75]).expect("ok"), vec![1.75, 3.25]);
        assert_eq!(
            quantile_with(&a, 0.5, QuantileMethod::AveragedInvertedCdf).expect("ok"),
            2.5
        );
        assert_eq!(
            quantile_with(&a, 0.3, QuantileMethod::AveragedInvertedCdf).expect("ok"),
            2.0
        );
    }

    #[test]
    fn errors() {
        let a = array![1.0, f64::NAN];
        assert!(matches!(
            quantile(&a, 0.5),
            Err(Error::NonFinite { row: 1, .. })
        ));
        assert!(matches!(
            quantile(&array![1.0], 1.5),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            median(&ndarray::Array1::<f64>::zeros(0)),
            Err(Error::TooFewSamples { .. })
        ));
        let x = array![1.0, 2.0];
        assert!(weighted_median(&x, &array![0.0, 0.0]).is_err());
        assert!(weighted_median(&x, &array![1.0, -1.0]).is_err());
        assert!(weighted_median(&x, &array![1.0]).is_err());
        assert!(weighted_percentile(&x, &array![1.0, 1.0], 101.0, false).is_err());
    }

    #[test]
    fn ranks_and_spearman() {
        let x = array![10.0, 30.0, 20.0, 20.0];
        assert_eq!(rankdata(&x), vec![1.0, 4.0, 2.5, 2.5]);
        let y = array![1.0, 2.0, 3.0, 4.0];
        let r = spearman(&y, &y.mapv(|v: f64| v.exp())).expect("ok");
        assert!((r - 1.0).abs() < 1e-15);
        assert!((spearman(&y, &y.mapv(|v| -v)).expect("ok") + 1.0).abs() < 1e-15);
        assert_eq!(spearman(&y, &array![1.0, 1.0, 1.0, 1.0]).expect("ok"), 0.0);
        assert!(spearman(&y, &array![1.0]).is_err());
    }

    #[test]
    fn weighted_rules_by_hand() {
        // [1, 2, 3, 4] with unit weights: cdf 1, 2, 3, 4; rank 50 → target 2 lands on '2'.
        let x = array![4.0, 2.0, 1.0, 3.0];
        let w = array![1.0, 1.0, 1.0, 1.0];
        assert_eq!(weighted_percentile(&x, &w, 50.0, false).expect("ok"), 2.0);
        assert_eq!(weighted_percentile(&x, &w, 50.0, true).expect("ok"), 2.5);
        // Between two points both methods take the higher one.
        let x5 = array![5.0, 4.0, 3.0, 2.0, 1.0];
        let w5 = ndarray::Array1::ones(5);
        assert_eq!(weighted_percentile(&x5, &w5, 50.0, false).expect("ok"), 3.0);
        assert_eq!(weighted_percentile(&x5, &w5, 50.0, true).expect("ok"), 3.0);
        // Rank 0 skips leading zero weights; NaN values weigh nothing.
        let xz = array![-5.0, 1.0, f64::NAN, 7.0];
        let wz = array![0.0, 2.0, 9.0, 1.0];
        assert_eq!(weighted_percentile(&xz, &wz, 0.0, false).expect("ok"), 1.0);
        assert_eq!(
            weighted_percentile(&xz, &wz, 100.0, false).expect("ok"),
            7.0
        );
        // Integer weights equal repeated values.
        let xi = array![10.0, 20.0, 30.0];
        let wi = array![1.0, 3.0, 2.0];
        let rep = array![10.0, 20.0, 20.0, 20.0, 30.0, 30.0];
        for r in [5.0, 20.0, 50.0, 66.0, 90.0] {
            assert_eq!(
                weighted_percentile(&xi, &wi, r, true).expect("ok"),
                weighted_percentile(&rep, &ndarray::Array1::ones(6), r, true).expect("ok"),
                "rank {r}"
            );
        }
    }
}
