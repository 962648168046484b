//! Regression metrics: RSS, MSE, RMSE, MAE, median absolute error, max error, R², explained
//! variance, MAPE; single output (`ArrayRef1`) and multi-output (`ArrayRef2`, one column per
//! output).
//!
//! All sums are compensated (Neumaier) in `f64`, whatever `F` is.

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use super::common::{Weights, check_len, check_nonempty, div0, sum, weighted_mean, weights_f64};
use crate::validate::{check_finite_1d, check_finite_2d};
use crate::{Error, Float, Result};

/// How per-output scores of a multi-output regression are combined (scikit-learn's
/// `multioutput=`). Per-output values themselves (`"raw_values"`) come from
/// [`regression_raw_values`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum MultiOutput {
    /// Plain mean over outputs (`"uniform_average"`, the default).
    #[default]
    UniformAverage,
    /// Mean weighted by the (sample-weighted) variance of each output of `y_true`
    /// (`"variance_weighted"`; R² and explained variance only). If every output is constant it
    /// falls back to the plain mean, as scikit-learn.
    VarianceWeighted,
    /// Mean weighted by the given non-negative weights, one per output.
    Weights(Vec<f64>),
}

/// The metrics available per output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum RegressionMetric {
    /// [`mean_squared_error`].
    MeanSquaredError,
    /// [`root_mean_squared_error`] (square root per output, then the average).
    RootMeanSquaredError,
    /// [`mean_absolute_error`].
    MeanAbsoluteError,
    /// [`median_absolute_error`].
    MedianAbsoluteError,
    /// [`mean_absolute_percentage_error`].
    MeanAbsolutePercentageError,
    /// [`r2_score`].
    R2,
    /// [`explained_variance_score`].
    ExplainedVariance,
}

/// Validated single-output inputs as `f64`.
fn inputs<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    context: &'static str,
) -> Result<(Vec<f64>, Vec<f64>, Weights)> {
    check_len(y_true.len(), y_pred.len(), context, "y_pred")?;
    check_nonempty(y_true.len(), context)?;
    check_finite_1d(y_true, "y_true")?;
    check_finite_1d(y_pred, "y_pred")?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let conv = |a: &ArrayRef1<F>| a.iter().map(|v| v.to_f64_lossless()).collect::<Vec<_>>();
    Ok((conv(y_true), conv(y_pred), w))
}

fn wsum(values: impl Iterator<Item = f64>, w: &Option<Vec<f64>>) -> f64 {
    match w {
        None => sum(values),
        Some(w) => sum(values.zip(w).map(|(v, w)| v * w)),
    }
}

fn mse(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> f64 {
    let r: Vec<f64> = t.iter().zip(p).map(|(a, b)| (a - b) * (a - b)).collect();
    weighted_mean(&r, w)
}

fn mae(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> f64 {
    let r: Vec<f64> = t.iter().zip(p).map(|(a, b)| (b - a).abs()).collect();
    weighted_mean(&r, w)
}

fn mape(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> f64 {
    let r: Vec<f64> = t
        .iter()
        .zip(p)
        .map(|(a, b)| (b - a).abs() / a.abs().max(f64::EPSILON))
        .collect();
    weighted_mean(&r, w)
}

fn medae(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> f64 {
    let r: Vec<f64> = t.iter().zip(p).map(|(a, b)| (b - a).abs()).collect();
    // np.median without weights; scikit-learn's weighted percentile (averaged inverted CDF,
    // which equals np.median for unit weights) with them. Inputs were checked finite.
    let mut r = r;
    match w {
        None => {
            crate::stats::order::sort_ascending(&mut r);
            crate::stats::order::median_sorted(&r)
        }
        Some(w) => crate::stats::order::weighted_percentiles_slices(&r, w, &[50.0], true)
            .map_or(f64::NAN, |v| v[0]),
    }
}

/// `(numerator, denominator)` of R²: weighted residual sum of squares and weighted total sum of
/// squares. A constant `y_true` gives a denominator of exactly 0 (tested directly, so that
/// rounding of the mean cannot hide it).
fn r2_parts(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> (f64, f64) {
    let num = wsum(t.iter().zip(p).map(|(a, b)| (a - b) * (a - b)), w);
    if t.iter().all(|&v| v == t[0]) {
        return (num, 0.0);
    }
    let mean = weighted_mean(t, w);
    let den = wsum(t.iter().map(|v| (v - mean) * (v - mean)), w);
    (num, den)
}

fn ev_parts(t: &[f64], p: &[f64], w: &Option<Vec<f64>>) -> (f64, f64) {
    let diff: Vec<f64> = t.iter().zip(p).map(|(a, b)| a - b).collect();
    let num = if diff.iter().all(|&v| v == diff[0]) {
        0.0
    } else {
        let md = weighted_mean(&diff, w);
        let d2: Vec<f64> = diff.iter().map(|v| (v - md) * (v - md)).collect();
        weighted_mean(&d2, w)
    };
    let den = if t.iter().all(|&v| v == t[0]) {
        0.0
    } else {
        let mt = weighted_mean(t, w);
        let t2: Vec<f64> = t.iter().map(|v| (v - mt) * (v - mt)).collect();
        weighted_mean(&t2, w)
    };
    (num, den)
}

/// `1 − num/den` with scikit-learn's `force_finite=True`: a perfect fit of a constant target
/// scores 1, an imperfect one 0.
fn explained_fraction(num: f64, den: f64) -> f64 {
    if den != 0.0 {
        if num != 0.0 { 1.0 - num / den } else { 1.0 }
    } else if num != 0.0 {
        0.0
    } else {
        1.0
    }
}

/// Residual sum of squares `RSS = Σ wᵢ (yᵢ − ŷᵢ)²` (the course notes' SSE; `E(w) = RSS/2` in
/// the least-squares error function of Bishop, *Pattern Recognition and Machine Learning*
/// (2006), §1.1).
///
/// # Errors
/// [`Error::ShapeMismatch`] (lengths), [`Error::TooFewSamples`] (empty), [`Error::NonFinite`],
/// invalid weights ([`Error::InvalidParam`]).
///
/// ```
/// use ndlearn_core::metrics::rss;
/// use ndlearn_core::ndarray::array;
///
/// assert_eq!(rss(&array![1.0, 2.0, 3.0], &array![1.0, 2.5, 2.0], None)?, 1.25);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn rss<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "rss")?;
    Ok(wsum(t.iter().zip(&p).map(|(a, b)| (a - b) * (a - b)), &w))
}

/// Mean squared error `Σ wᵢ (yᵢ − ŷᵢ)² / Σ wᵢ` (course notes: MSE = RSS/N; scikit-learn user
/// guide: Metrics and scoring, mean squared error).
///
/// # Errors
/// As [`rss`].
///
/// ```
/// use ndlearn_core::metrics::{mean_squared_error, root_mean_squared_error};
/// use ndlearn_core::ndarray::array;
///
/// let (t, p) = (array![3.0, -0.5, 2.0, 7.0], array![2.5, 0.0, 2.0, 8.0]);
/// assert_eq!(mean_squared_error(&t, &p, None)?, 0.375);
/// assert_eq!(root_mean_squared_error(&t, &p, None)?, 0.375f64.sqrt());
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn mean_squared_error<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "mean_squared_error")?;
    Ok(mse(&t, &p, &w))
}

/// Root mean squared error `√MSE`; the course notes' `E_RMS = √(2E(w)/N)` with
/// `E = ½ Σ (f − t)²` (Bishop, *Pattern Recognition and Machine Learning* (2006), §1.1) is the
/// same number.
///
/// # Errors
/// As [`rss`].
pub fn root_mean_squared_error<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "root_mean_squared_error")?;
    Ok(mse(&t, &p, &w).sqrt())
}

/// Mean absolute error `Σ wᵢ |yᵢ − ŷᵢ| / Σ wᵢ`.
///
/// # Errors
/// As [`rss`].
pub fn mean_absolute_error<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "mean_absolute_error")?;
    Ok(mae(&t, &p, &w))
}

/// Median of `|yᵢ − ŷᵢ|` (mean of the two middle values for an even count). With weights:
/// scikit-learn's weighted median (the averaged inverted CDF: the smallest value whose
/// cumulative weight reaches half the total, averaged with the next value when it reaches it
/// exactly).
///
/// # Errors
/// As [`rss`].
pub fn median_absolute_error<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "median_absolute_error")?;
    Ok(medae(&t, &p, &w))
}

/// Largest absolute residual `max |yᵢ − ŷᵢ|` (no weights, as scikit-learn).
///
/// # Errors
/// As [`rss`].
pub fn max_error<F: Float>(y_true: &ArrayRef1<F>, y_pred: &ArrayRef1<F>) -> Result<f64> {
    let (t, p, _) = inputs(y_true, y_pred, None, "max_error")?;
    Ok(t.iter()
        .zip(&p)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f64::max))
}

/// Mean absolute percentage error `Σ wᵢ |yᵢ − ŷᵢ| / max(|yᵢ|, ε) / Σ wᵢ` with `ε` the `f64`
/// machine epsilon (a relative error, not multiplied by 100; huge when `y_true` has zeros).
///
/// # Errors
/// As [`rss`].
pub fn mean_absolute_percentage_error<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(
        y_true,
        y_pred,
        sample_weight,
        "mean_absolute_percentage_error",
    )?;
    Ok(mape(&t, &p, &w))
}

/// Coefficient of determination `R² = 1 − Σ wᵢ (yᵢ − ŷᵢ)² / Σ wᵢ (yᵢ − ȳ)²` (scikit-learn
/// user guide: Metrics and scoring, R² score; can be negative). For a constant `y_true`
/// scikit-learn's `force_finite=True` convention applies: 1 for a perfect prediction, else 0.
///
/// # Errors
/// As [`rss`], plus [`Error::TooFewSamples`] for fewer than 2 samples (scikit-learn returns NaN
/// and warns).
///
/// ```
/// use ndlearn_core::metrics::r2_score;
/// use ndlearn_core::ndarray::array;
///
/// // RSS = 1.5, TSS = Σ(y − 2.875)² = 29.1875.
/// let r2 = r2_score(&array![3.0, -0.5, 2.0, 7.0], &array![2.5, 0.0, 2.0, 8.0], None)?;
/// assert!((r2 - (1.0 - 1.5 / 29.1875)).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn r2_score<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    crate::validate::check_min_samples(y_true.len(), 2, "r2_score")?;
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "r2_score")?;
    let (num, den) = r2_parts(&t, &p, &w);
    Ok(explained_fraction(num, den))
}

/// Explained variance `1 − Var_w(y − ŷ) / Var_w(y)` (like R² but insensitive to a constant
/// bias of the predictions); the same constant-target convention as [`r2_score`].
///
/// # Errors
/// As [`rss`].
pub fn explained_variance_score<F: Float>(
    y_true: &ArrayRef1<F>,
    y_pred: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (t, p, w) = inputs(y_true, y_pred, sample_weight, "explained_variance_score")?;
    let (num, den) = ev_parts(&t, &p, &w);
    Ok(explained_fraction(num, den))
}

/// Per-output values and the per-output variance weights.
fn raw_and_denominators<F: Float>(
    metric: RegressionMetric,
    y_true: &ArrayRef2<F>,
    y_pred: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<(Array1<f64>, Vec<f64>)> {
    const CTX: &str = "multi-output regression metric";
    if y_true.dim() != y_pred.dim() {
        return Err(Error::ShapeMismatch {
            context: CTX,
            expected: format!("y_pred of shape {:?} (as y_true)", y_true.dim()),
            found: format!("{:?}", y_pred.dim()),
        });
    }
    let (n, k) = y_true.dim();
    check_nonempty(n, CTX)?;
    if k == 0 {
        return Err(Error::ShapeMismatch {
            context: CTX,
            expected: "at least one output column".into(),
            found: "0 columns".into(),
        });
    }
    if metric == RegressionMetric::R2 {
        crate::validate::check_min_samples(n, 2, "r2_score")?;
    }
    check_finite_2d(y_true, "y_true")?;
    check_finite_2d(y_pred, "y_pred")?;
    let w = weights_f64(sample_weight, n)?;
    let mut raw = Array1::zeros(k);
    let mut dens = vec![0.0; k];
    for j in 0..k {
        let t: Vec<f64> = y_true
            .column(j)
            .iter()
            .map(|v| v.to_f64_lossless())
            .collect();
        let p: Vec<f64> = y_pred
            .column(j)
            .iter()
            .map(|v| v.to_f64_lossless())
            .collect();
        raw[j] = match metric {
            RegressionMetric::MeanSquaredError => mse(&t, &p, &w),
            RegressionMetric::RootMeanSquaredError => mse(&t, &p, &w).sqrt(),
            RegressionMetric::MeanAbsoluteError => mae(&t, &p, &w),
            RegressionMetric::MedianAbsoluteError => medae(&t, &p, &w),
            RegressionMetric::MeanAbsolutePercentageError => mape(&t, &p, &w),
            RegressionMetric::R2 => {
                let (num, den) = r2_parts(&t, &p, &w);
                dens[j] = den;
                explained_fraction(num, den)
            }
            RegressionMetric::ExplainedVariance => {
                let (num, den) = ev_parts(&t, &p, &w);
                dens[j] = den;
                explained_fraction(num, den)
            }
        };
    }
    Ok((raw, dens))
}

/// One value per output column (scikit-learn's `multioutput="raw_values"`).
///
/// # Errors
/// [`Error::ShapeMismatch`] (shapes differ, no column), [`Error::TooFewSamples`],
/// [`Error::NonFinite`], invalid weights; R² needs 2 samples.
///
/// ```
/// use ndlearn_core::metrics::{regression_raw_values, RegressionMetric};
/// use ndlearn_core::ndarray::array;
///
/// let t = array![[0.5, 1.0], [-1.0, 1.0], [7.0, -6.0]];
/// let p = array![[0.0, 2.0], [-1.0, 2.0], [8.0, -5.0]];
/// let mae = regression_raw_values(RegressionMetric::MeanAbsoluteError, &t, &p, None)?;
/// assert_eq!(mae.to_vec(), vec![0.5, 1.0]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn regression_raw_values<F: Float>(
    metric: RegressionMetric,
    y_true: &ArrayRef2<F>,
    y_pred: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<Array1<f64>> {
    Ok(raw_and_denominators(metric, y_true, y_pred, sample_weight)?.0)
}

/// A multi-output score combined over outputs as `multioutput` says.
///
/// # Errors
/// As [`regression_raw_values`], plus [`Error::InvalidParam`] for `VarianceWeighted` with a
/// metric other than R² / explained variance, or output weights of the wrong length, negative,
/// non-finite or summing to 0.
pub fn regression_multioutput<F: Float>(
    metric: RegressionMetric,
    y_true: &ArrayRef2<F>,
    y_pred: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    multioutput: &MultiOutput,
) -> Result<f64> {
    let (raw, dens) = raw_and_denominators(metric, y_true, y_pred, sample_weight)?;
    let k = raw.len();
    match multioutput {
        MultiOutput::UniformAverage => Ok(sum(raw.iter().copied()) / k as f64),
        MultiOutput::VarianceWeighted => {
            if !matches!(
                metric,
                RegressionMetric::R2 | RegressionMetric::ExplainedVariance
            ) {
                return Err(Error::invalid_param(
                    "multioutput",
                    "VarianceWeighted applies to R2 and ExplainedVariance only",
                ));
            }
            let total = sum(dens.iter().copied());
            if total == 0.0 {
                return Ok(sum(raw.iter().copied()) / k as f64);
            }
            Ok(div0(sum(raw.iter().zip(&dens).map(|(r, d)| r * d)), total))
        }
        MultiOutput::Weights(ow) => {
            if ow.len() != k {
                return Err(Error::ShapeMismatch {
                    context: "multioutput weights",
                    expected: format!("{k} weights (one per output)"),
                    found: format!("{}", ow.len()),
                });
            }
            let owa = Array1::from(ow.clone());
            crate::validate::check_sample_weight(&owa, k).map_err(|_| {
                Error::invalid_param(
                    "multioutput",
                    "output weights must be finite, >= 0 and have a positive sum",
                )
            })?;
            Ok(sum(raw.iter().zip(ow).map(|(r, w)| r * w)) / sum(ow.iter().copied()))
        }
    }
}

#[cfg(test)]
#[path = "regression_tests.rs"]
mod tests;
