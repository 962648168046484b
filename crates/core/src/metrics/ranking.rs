//! Threshold curves and ranking scores: ROC curve and AUC, precision–recall curve and average
//! precision, DET curve, the trapezoidal `auc`.
//!
//! # Algorithm
//!
//! Samples with zero weight are dropped (they would only add thresholds, as in scikit-learn).
//! The rest are sorted **once** by decreasing score with a parallel unstable sort of
//! `(score key, index)` pairs; the key is the score's bit pattern mapped to an order-preserving
//! integer (`−0.0` counted as `+0.0`), and the index breaks ties, so the order is a total order
//! and the result is bitwise identical for any thread count. One linear pass then accumulates
//! the (weighted) true and false positives at every distinct score: these are the points of the
//! tie-collapsed curve (scikit-learn's `confusion_matrix_at_thresholds`). Cost `O(n log n)` for
//! the sort (`n / threads` per core) and `O(n)` for the pass.
//!
//! The ROC AUC is the trapezoidal area under that curve (tied scores count ½, Mann–Whitney),
//! computed in raw counts, `Σ (FPᵢ − FPᵢ₋₁)(TPᵢ + TPᵢ₋₁) / (2 P N)`, which is exact for
//! unweighted data below 2⁵³ pairs (one rounding at the end), so it equals scikit-learn's
//! `auc(fpr, tpr)` to rounding. Average precision is scikit-learn's step sum
//! `Σ (Rᵢ − Rᵢ₋₁) Pᵢ` (no interpolation, not the trapezoid).
//!
//! Labels are `0/1` with **1 the positive class**; map other encodings first (e.g.
//! `y.mapv(|v| usize::from(v == pos))`).

use ndarray::{Array1, ArrayRef1, ArrayRef2};
use rayon::slice::ParallelSliceMut;

use super::classification::Average;
use super::common::{
    Weights, check_len, check_nonempty, finite_2d, finite_f64_1d, sum, weights_f64,
};
use crate::{Error, Float, Result};

/// Order-preserving integer key of a finite `f64` (`−0.0` and `+0.0` share a key).
#[inline]
fn order_key(v: f64) -> u64 {
    let b = (v + 0.0).to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// Tie-collapsed cumulative counts at each distinct score, by decreasing score.
#[derive(Debug, Clone, Default)]
pub(crate) struct Counts {
    /// Cumulative (weighted) positives with score ≥ threshold.
    pub tps: Vec<f64>,
    /// Cumulative (weighted) negatives with score ≥ threshold.
    pub fps: Vec<f64>,
    /// The distinct scores, decreasing.
    pub thresholds: Vec<f64>,
}

fn check_binary_labels(y: &ArrayRef1<usize>) -> Result<()> {
    if let Some((index, &label)) = y.iter().enumerate().find(|(_, v)| **v > 1) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: "binary ranking metrics need labels in {0, 1} (1 = positive class); map \
                     other encodings first"
                .into(),
        });
    }
    Ok(())
}

/// Validates and converts the inputs of a binary curve.
fn binary_inputs<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    context: &'static str,
) -> Result<(Vec<bool>, Vec<f64>, Weights)> {
    check_nonempty(y_true.len(), context)?;
    check_len(y_true.len(), y_score.len(), context, "y_score")?;
    check_binary_labels(y_true)?;
    let s = finite_f64_1d(y_score, "y_score")?;
    let w = weights_f64(sample_weight, y_true.len())?;
    Ok((y_true.iter().map(|&v| v == 1).collect(), s, w))
}

/// The sorted pass over validated inputs.
pub(crate) fn counts(y: &[bool], s: &[f64], w: &Option<Vec<f64>>) -> Counts {
    let mut keys: Vec<(u64, usize)> = match w {
        None => s
            .iter()
            .enumerate()
            .map(|(i, &v)| (!order_key(v), i))
            .collect(),
        Some(w) => s
            .iter()
            .enumerate()
            .filter(|(i, _)| w[*i] != 0.0)
            .map(|(i, &v)| (!order_key(v), i))
            .collect(),
    };
    // `!key` ascending = score descending; the index makes every element distinct.
    keys.par_sort_unstable();
    let mut out = Counts::default();
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    let m = keys.len();
    for (pos, &(k, i)) in keys.iter().enumerate() {
        match w {
            None => {
                if y[i] {
                    tp += 1.0;
                } else {
                    fp += 1.0;
                }
            }
            Some(w) => {
                if y[i] {
                    tp += w[i];
                } else {
                    fp += w[i];
                }
            }
        }
        if pos + 1 == m || keys[pos + 1].0 != k {
            out.tps.push(tp);
            out.fps.push(fp);
            out.thresholds.push(s[i] + 0.0);
        }
    }
    out
}

/// Per-threshold binary confusion counts (scikit-learn's `confusion_matrix_at_thresholds`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ThresholdCounts {
    /// True negatives: negatives with score `< thresholds[i]`.
    pub tns: Array1<f64>,
    /// False positives: negatives with score `≥ thresholds[i]`.
    pub fps: Array1<f64>,
    /// False negatives: positives with score `< thresholds[i]`.
    pub fns: Array1<f64>,
    /// True positives: positives with score `≥ thresholds[i]`.
    pub tps: Array1<f64>,
    /// The distinct scores, decreasing.
    pub thresholds: Array1<f64>,
}

/// (Weighted) confusion counts at every distinct score, thresholds decreasing.
///
/// # Errors
/// [`Error::ShapeMismatch`], [`Error::TooFewSamples`] (empty), [`Error::NonFinite`] (NaN/∞
/// score), [`Error::InvalidLabel`] (a label other than 0/1), invalid weights.
pub fn confusion_matrix_at_thresholds<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<ThresholdCounts> {
    let (y, s, w) = binary_inputs(
        y_true,
        y_score,
        sample_weight,
        "confusion_matrix_at_thresholds",
    )?;
    let c = counts(&y, &s, &w);
    let (p, n) = totals(&c);
    Ok(ThresholdCounts {
        tns: c.fps.iter().map(|f| n - f).collect(),
        fns: c.tps.iter().map(|t| p - t).collect(),
        fps: Array1::from(c.fps),
        tps: Array1::from(c.tps),
        thresholds: Array1::from(c.thresholds),
    })
}

fn totals(c: &Counts) -> (f64, f64) {
    (
        c.tps.last().copied().unwrap_or(0.0),
        c.fps.last().copied().unwrap_or(0.0),
    )
}

fn need_both_classes(c: &Counts, context: &'static str) -> Result<()> {
    let (p, n) = totals(c);
    let found = usize::from(p > 0.0) + usize::from(n > 0.0);
    if found < 2 {
        return Err(Error::TooFewClasses {
            context,
            needed: 2,
            found,
        });
    }
    Ok(())
}

/// A ROC curve (points by decreasing threshold).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RocCurve {
    /// False-positive rates, increasing from 0 to 1.
    pub fpr: Array1<f64>,
    /// True-positive rates, increasing from 0 to 1.
    pub tpr: Array1<f64>,
    /// Thresholds, decreasing; `thresholds[0] = +∞` (the classifier that predicts nothing
    /// positive, scikit-learn ≥ 1.3); point `i` classifies `score ≥ thresholds[i]` as positive.
    pub thresholds: Array1<f64>,
}

/// ROC curve: TPR against FPR at every distinct score (Fawcett, "An introduction to ROC
/// analysis", Pattern Recognition Letters 27(8), 2006).
///
/// With `drop_intermediate` (scikit-learn's default `true`) points that are collinear with
/// their neighbours (zero second difference of both FP and TP counts) are dropped; this changes
/// neither the plot nor the area.
///
/// # Errors
/// As [`confusion_matrix_at_thresholds`], plus [`Error::TooFewClasses`] when `y_true` (after
/// dropping zero weights) holds one class only (scikit-learn returns NaN rates and warns).
///
/// ```
/// use ndlearn_core::metrics::roc_curve;
/// use ndlearn_core::ndarray::array;
///
/// let roc = roc_curve(&array![0usize, 0, 1, 1], &array![0.1, 0.4, 0.35, 0.8], None, true)?;
/// assert_eq!(roc.fpr.to_vec(), vec![0.0, 0.0, 0.5, 0.5, 1.0]);
/// assert_eq!(roc.tpr.to_vec(), vec![0.0, 0.5, 0.5, 1.0, 1.0]);
/// assert_eq!(roc.thresholds[0], f64::INFINITY);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn roc_curve<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    drop_intermediate: bool,
) -> Result<RocCurve> {
    let (y, s, w) = binary_inputs(y_true, y_score, sample_weight, "roc_curve")?;
    let c = counts(&y, &s, &w);
    need_both_classes(&c, "roc_curve")?;
    let keep: Vec<usize> = if drop_intermediate && c.fps.len() > 2 {
        let m = c.fps.len();
        // Same operations as numpy's diff(·, 2): (x[i+1] − x[i]) − (x[i] − x[i−1]).
        let d2 = |x: &[f64], i: usize| (x[i + 1] - x[i]) - (x[i] - x[i - 1]);
        std::iter::once(0)
            .chain((1..m - 1).filter(|&i| d2(&c.fps, i) != 0.0 || d2(&c.tps, i) != 0.0))
            .chain(std::iter::once(m - 1))
            .collect()
    } else {
        (0..c.fps.len()).collect()
    };
    let (p, n) = totals(&c);
    let pick = |v: &[f64], first: f64, scale: f64| -> Array1<f64> {
        std::iter::once(first)
            .chain(keep.iter().map(|&i| v[i] / scale))
            .collect()
    };
    Ok(RocCurve {
        fpr: pick(&c.fps, 0.0, n),
        tpr: pick(&c.tps, 0.0, p),
        thresholds: std::iter::once(f64::INFINITY)
            .chain(keep.iter().map(|&i| c.thresholds[i]))
            .collect(),
    })
}

/// Exact-count trapezoidal AUC of the tie-collapsed curve.
pub(crate) fn auc_from_counts(c: &Counts) -> f64 {
    let (p, n) = totals(c);
    let (mut prev_t, mut prev_f) = (0.0f64, 0.0f64);
    let mut area2 = 0.0f64;
    for (&t, &f) in c.tps.iter().zip(&c.fps) {
        area2 += (f - prev_f) * (t + prev_t);
        prev_t = t;
        prev_f = f;
    }
    area2 / (2.0 * p * n)
}

/// Area under the ROC curve of a binary problem (an extension of the course notes' ROC curve;
/// implementation choice: trapezoid over the tie-collapsed curve, see the module docs). 1 for a
/// perfect ranking, 0.5 for a random one; ties between a positive and a negative count ½.
///
/// # Errors
/// As [`roc_curve`].
///
/// ```
/// use ndlearn_core::metrics::roc_auc_score;
/// use ndlearn_core::ndarray::array;
///
/// // Pairs (neg, pos) ranked correctly: (0.1, 0.35), (0.1, 0.8), (0.4, 0.8) of 4.
/// let a = roc_auc_score(&array![0usize, 0, 1, 1], &array![0.1, 0.4, 0.35, 0.8], None)?;
/// assert_eq!(a, 0.75);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn roc_auc_score<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (y, s, w) = binary_inputs(y_true, y_score, sample_weight, "roc_auc_score")?;
    let c = counts(&y, &s, &w);
    need_both_classes(&c, "roc_auc_score")?;
    Ok(auc_from_counts(&c))
}

/// A precision–recall curve.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PrecisionRecallCurve {
    /// Precision at each threshold (increasing thresholds), then a final 1.
    pub precision: Array1<f64>,
    /// Recall at each threshold (decreasing), then a final 0.
    pub recall: Array1<f64>,
    /// The distinct scores, **increasing** (scikit-learn's order); one fewer than the rates.
    pub thresholds: Array1<f64>,
}

fn pr_points(c: &Counts) -> (Vec<f64>, Vec<f64>) {
    let (p, _) = totals(c);
    let precision = c
        .tps
        .iter()
        .zip(&c.fps)
        .map(|(&t, &f)| if t + f != 0.0 { t / (t + f) } else { 0.0 })
        .collect();
    // No positive at all: scikit-learn sets the recall to 1 everywhere (and warns).
    let recall = if p == 0.0 {
        vec![1.0; c.tps.len()]
    } else {
        c.tps.iter().map(|&t| t / p).collect()
    };
    (precision, recall)
}

/// Precision–recall curve (Davis & Goadrich, ICML 2006): precision `TP/(TP + FP)` and recall
/// `TP/P` at every distinct score, in scikit-learn's layout (thresholds increasing, a final point
/// `(precision 1, recall 0)` without threshold).
///
/// `drop_intermediate` (scikit-learn's default `false`) drops points whose neighbours have the
/// same TP count (they do not change the step plot). With no positive sample the recall is 1 at
/// every threshold (scikit-learn's convention).
///
/// # Errors
/// As [`confusion_matrix_at_thresholds`].
pub fn precision_recall_curve<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    drop_intermediate: bool,
) -> Result<PrecisionRecallCurve> {
    let (y, s, w) = binary_inputs(y_true, y_score, sample_weight, "precision_recall_curve")?;
    let mut c = counts(&y, &s, &w);
    if drop_intermediate && c.tps.len() > 2 {
        let m = c.tps.len();
        let keep: Vec<usize> = std::iter::once(0)
            .chain(
                (1..m - 1)
                    .filter(|&i| c.tps[i] - c.tps[i - 1] != 0.0 || c.tps[i + 1] - c.tps[i] != 0.0),
            )
            .chain(std::iter::once(m - 1))
            .collect();
        c = Counts {
            tps: keep.iter().map(|&i| c.tps[i]).collect(),
            fps: keep.iter().map(|&i| c.fps[i]).collect(),
            thresholds: keep.iter().map(|&i| c.thresholds[i]).collect(),
        };
    }
    let (prec, rec) = pr_points(&c);
    Ok(PrecisionRecallCurve {
        precision: prec
            .iter()
            .rev()
            .copied()
            .chain(std::iter::once(1.0))
            .collect(),
        recall: rec
            .iter()
            .rev()
            .copied()
            .chain(std::iter::once(0.0))
            .collect(),
        thresholds: c.thresholds.iter().rev().copied().collect(),
    })
}

pub(crate) fn ap_from_counts(c: &Counts) -> f64 {
    let (prec, rec) = pr_points(c);
    let mut prev = 0.0;
    let terms = prec.iter().zip(&rec).map(|(&p, &r)| {
        let t = (r - prev) * p;
        prev = r;
        t
    });
    // With no positives the recall is constantly 1 and scikit-learn's differences start from
    // that 1, so the sum is 0; reproduce it.
    if totals(c).0 == 0.0 {
        return 0.0;
    }
    sum(terms.collect::<Vec<_>>()).max(0.0)
}

/// Average precision, `AP = Σᵢ (Rᵢ − Rᵢ₋₁) Pᵢ` over the thresholds by decreasing score
/// (scikit-learn's step-sum definition, no interpolation; not the trapezoidal area under the
/// PR curve). 0 when `y_true` has no positive (scikit-learn's value, with a warning there).
///
/// # Errors
/// As [`confusion_matrix_at_thresholds`].
///
/// ```
/// use ndlearn_core::metrics::average_precision_score;
/// use ndlearn_core::ndarray::array;
///
/// // Thresholds 0.8, 0.4, 0.35, 0.1: recall 0.5, 0.5, 1, 1; precision 1, 1/2, 2/3, 1/2.
/// let ap = average_precision_score(&array![0usize, 0, 1, 1], &array![0.1, 0.4, 0.35, 0.8], None)?;
/// assert!((ap - (0.5 * 1.0 + 0.5 * 2.0 / 3.0)).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn average_precision_score<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let (y, s, w) = binary_inputs(y_true, y_score, sample_weight, "average_precision_score")?;
    Ok(ap_from_counts(&counts(&y, &s, &w)))
}

/// A detection error trade-off curve.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct DetCurve {
    /// False-positive rates (decreasing).
    pub fpr: Array1<f64>,
    /// False-negative rates, `1 − TPR` (increasing).
    pub fnr: Array1<f64>,
    /// Thresholds, increasing.
    pub thresholds: Array1<f64>,
}

/// DET curve (false-negative rate against false-positive rate), as scikit-learn's
/// `det_curve`: the ROC points (with the `+∞` threshold prepended) from the last one that still
/// has no false positive to the first one that flags every positive, reversed (increasing
/// thresholds). `drop_intermediate` (scikit-learn's default `false`) drops points whose
/// neighbours have the same TP count.
///
/// # Errors
/// As [`roc_curve`].
pub fn det_curve<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    drop_intermediate: bool,
) -> Result<DetCurve> {
    let (y, s, w) = binary_inputs(y_true, y_score, sample_weight, "det_curve")?;
    let c = counts(&y, &s, &w);
    need_both_classes(&c, "det_curve")?;
    // Prepend the (0, 0, +∞) point as scikit-learn does.
    let mut tps = vec![0.0];
    tps.extend_from_slice(&c.tps);
    let mut fps = vec![0.0];
    fps.extend_from_slice(&c.fps);
    let mut thr = vec![f64::INFINITY];
    thr.extend_from_slice(&c.thresholds);
    if drop_intermediate && fps.len() > 2 {
        let m = fps.len();
        let keep: Vec<usize> = std::iter::once(0)
            .chain((1..m - 1).filter(|&i| tps[i] - tps[i - 1] != 0.0 || tps[i + 1] - tps[i] != 0.0))
            .chain(std::iter::once(m - 1))
            .collect();
        tps = keep.iter().map(|&i| tps[i]).collect();
        fps = keep.iter().map(|&i| fps[i]).collect();
        thr = keep.iter().map(|&i| thr[i]).collect();
    }
    let m = fps.len();
    let (p, n) = (tps[m - 1], fps[m - 1]);
    // first: last index whose FP count equals the first one; last: first index reaching all
    // positives (inclusive).
    let first = fps.iter().rposition(|&f| f <= fps[0]).unwrap_or(0);
    let last = tps.iter().position(|&t| t >= p).unwrap_or(m - 1);
    let range = first..=last;
    Ok(DetCurve {
        fpr: range.clone().rev().map(|i| fps[i] / n).collect(),
        fnr: range.clone().rev().map(|i| (p - tps[i]) / p).collect(),
        thresholds: range.rev().map(|i| thr[i]).collect(),
    })
}

/// Area under a curve by the trapezoidal rule, `Σ (xᵢ₊₁ − xᵢ)(yᵢ + yᵢ₊₁)/2`. `x` must be
/// monotonic (increasing, or decreasing: the area is then negated back to positive), as
/// scikit-learn's `auc`.
///
/// # Errors
/// [`Error::ShapeMismatch`] (lengths), [`Error::TooFewSamples`] (fewer than 2 points),
/// [`Error::NonFinite`], [`Error::InvalidParam`] (x not monotonic).
///
/// ```
/// use ndlearn_core::metrics::auc;
/// use ndlearn_core::ndarray::array;
///
/// assert_eq!(auc(&array![0.0, 0.5, 1.0], &array![0.0, 1.0, 1.0])?, 0.75);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn auc<F: Float>(x: &ArrayRef1<F>, y: &ArrayRef1<F>) -> Result<f64> {
    check_len(x.len(), y.len(), "auc", "y")?;
    crate::validate::check_min_samples(x.len(), 2, "auc")?;
    let x = finite_f64_1d(x, "x")?;
    let y = finite_f64_1d(y, "y")?;
    let inc = x.windows(2).all(|w| w[1] >= w[0]);
    let dec = x.windows(2).all(|w| w[1] <= w[0]);
    if !inc && !dec {
        return Err(Error::invalid_param(
            "x",
            "x must be monotonic (increasing or decreasing)",
        ));
    }
    let area = sum(x
        .windows(2)
        .zip(y.windows(2))
        .map(|(xw, yw)| (xw[1] - xw[0]) * (yw[0] + yw[1]) / 2.0));
    Ok(if inc { area } else { -area })
}

/// Which binary score a one-vs-rest average applies.
#[derive(Clone, Copy)]
enum BinaryScore {
    RocAuc,
    AveragePrecision,
}

fn ovr_score<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef2<F>,
    average: Average,
    sample_weight: Option<&ArrayRef1<F>>,
    score: BinaryScore,
    context: &'static str,
) -> Result<f64> {
    let (n, k) = y_score.dim();
    check_nonempty(y_true.len(), context)?;
    check_len(y_true.len(), n, context, "the rows of y_score")?;
    if k < 2 {
        return Err(Error::TooFewClasses {
            context,
            needed: 2,
            found: k,
        });
    }
    finite_2d(y_score, "y_score")?;
    if let Some((index, &label)) = y_true.iter().enumerate().find(|(_, v)| **v >= k) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: format!("y_score has {k} columns, so labels must be < {k}"),
        });
    }
    let w = weights_f64(sample_weight, n)?;
    let mut present = vec![false; k];
    for &v in y_true.iter() {
        present[v] = true;
    }
    if let Some(c) = present.iter().position(|p| !p) {
        return Err(Error::invalid_param(
            "y_true",
            format!(
                "class {c} (a column of y_score) has no sample in y_true; one-vs-rest scores need every class"
            ),
        ));
    }
    if matches!(score, BinaryScore::RocAuc) {
        // scikit-learn: np.allclose(1, row sums) (rtol 1e-5, atol 1e-8).
        if let Some(i) = y_score.rows().into_iter().position(|r| {
            let s = sum(r.iter().map(|v| v.to_f64_lossless()));
            (s - 1.0).abs() > 1e-8 + 1e-5
        }) {
            return Err(Error::invalid_param(
                "y_score",
                format!(
                    "one-vs-rest ROC AUC needs probabilities summing to 1 per row; row {i} does not"
                ),
            ));
        }
    }
    // `None` when the ROC AUC of a one-vs-rest problem is undefined (no positive or no
    // negative weight left).
    let binary = |yc: &[bool], sc: &[f64], wc: &Weights| -> Option<f64> {
        let c = counts(yc, sc, wc);
        match score {
            BinaryScore::RocAuc => {
                let (p, n) = totals(&c);
                (p > 0.0 && n > 0.0).then(|| auc_from_counts(&c))
            }
            BinaryScore::AveragePrecision => Some(ap_from_counts(&c)),
        }
    };
    let undefined = || Error::TooFewClasses {
        context,
        needed: 2,
        found: 1,
    };
    let column = |c: usize| -> (Vec<bool>, Vec<f64>) {
        (
            y_true.iter().map(|&v| v == c).collect(),
            y_score
                .column(c)
                .iter()
                .map(|v| v.to_f64_lossless())
                .collect(),
        )
    };
    match average {
        Average::Binary { pos_label } => {
            if pos_label >= k {
                return Err(Error::invalid_param(
                    "pos_label",
                    format!("pos_label {pos_label} is not a column of y_score ({k} columns)"),
                ));
            }
            let (yc, sc) = column(pos_label);
            binary(&yc, &sc, &w).ok_or_else(undefined)
        }
        Average::Micro => {
            let y_all: Vec<bool> = (0..n)
                .flat_map(|i| (0..k).map(move |c| y_true[i] == c))
                .collect();
            let s_all: Vec<f64> = y_score.iter().map(|v| v.to_f64_lossless()).collect();
            let w_all = w
                .as_ref()
                .map(|w| w.iter().flat_map(|&v| std::iter::repeat_n(v, k)).collect());
            binary(&y_all, &s_all, &w_all).ok_or_else(undefined)
        }
        Average::Macro | Average::Weighted => {
            let scores = crate::par::map_tasks(k, |c| {
                let (yc, sc) = column(c);
                binary(&yc, &sc, &w)
            });
            if matches!(average, Average::Macro) {
                let scores: Option<Vec<f64>> = scores.into_iter().collect();
                return Ok(sum(scores.ok_or_else(undefined)?) / k as f64);
            }
            let support: Vec<f64> = (0..k)
                .map(|c| {
                    sum(y_true
                        .iter()
                        .enumerate()
                        .filter(|(_, v)| **v == c)
                        .map(|(i, _)| super::common::weight_at(&w, i)))
                })
                .collect();
            // A class whose samples all have zero weight counts 0, as scikit-learn.
            let mut terms = Vec::with_capacity(k);
            for (s, &sw) in scores.iter().zip(&support) {
                match s {
                    Some(s) => terms.push(s * sw),
                    None if sw == 0.0 => terms.push(0.0),
                    None => return Err(undefined()),
                }
            }
            Ok(sum(terms) / sum(support.iter().copied()))
        }
    }
}

/// Multi-class ROC AUC, one-vs-rest: the AUC of each class `c` (column `c` of the `n × k`
/// probability matrix against `y_true == c`), averaged as `average` says (`Macro`, `Weighted`
/// by support, `Micro` over the flattened indicator matrix, or `Binary { pos_label: c }` for
/// class `c` alone). scikit-learn's `roc_auc_score(multi_class="ovr")`.
///
/// # Errors
/// [`Error::ShapeMismatch`], [`Error::TooFewSamples`], [`Error::TooFewClasses`] (fewer than 2
/// columns, or a one-vs-rest problem left without positive or negative weight; under
/// `Weighted` a class of zero support counts 0 instead), [`Error::NonFinite`],
/// [`Error::InvalidLabel`] (a label `≥ k`),
/// [`Error::InvalidParam`] (a class without samples, rows not summing to 1 within `1e-5`,
/// invalid weights).
pub fn roc_auc_score_ovr<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_proba: &ArrayRef2<F>,
    average: Average,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    ovr_score(
        y_true,
        y_proba,
        average,
        sample_weight,
        BinaryScore::RocAuc,
        "roc_auc_score_ovr",
    )
}

/// Multi-class average precision, one-vs-rest (scikit-learn's `average_precision_score` on
/// multi-class labels), averaged as in [`roc_auc_score_ovr`]; the scores need not be
/// probabilities.
///
/// # Errors
/// As [`roc_auc_score_ovr`] (without the row-sum check).
pub fn average_precision_score_ovr<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_score: &ArrayRef2<F>,
    average: Average,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    ovr_score(
        y_true,
        y_score,
        average,
        sample_weight,
        BinaryScore::AveragePrecision,
        "average_precision_score_ovr",
    )
}

#[cfg(test)]
#[path = "ranking_tests.rs"]
mod tests;
