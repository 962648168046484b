//! Label-based classification metrics: confusion matrix, accuracy / 0–1 loss, precision,
//! recall (TPR), false-positive rate, specificity, F-scores with averaging, balanced accuracy,
//! Matthews correlation, Cohen's kappa.
//!
//! Labels are arbitrary `usize` values; the *present labels* are the sorted union of the values
//! in `y_true` and `y_pred` (scikit-learn's `unique_labels`). Sample weights are `f64` here (these
//! functions have no float input to take the element type from).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};

use super::common::{Lookup, check_label_pair, div0, sorted_unique, sum, weight_at, weights_f64};
use crate::{Error, Result};

/// How per-class scores are combined into one number.
///
/// | variant | scikit-learn | result |
/// |---|---|---|
/// | `Binary { pos_label }` | `average="binary", pos_label=…` | the score of class `pos_label` only; the present labels must be at most two |
/// | `Macro` | `"macro"` | unweighted mean over the present labels |
/// | `Micro` | `"micro"` | the score of the pooled counts (`Σ TP`, `Σ FP`, `Σ FN` over labels); for single-label multi-class data micro precision = recall = F = accuracy |
/// | `Weighted` | `"weighted"` | mean weighted by support (the weighted number of true samples per label) |
///
/// scikit-learn's `average=None` (one score per class) is [`precision_recall_fscore_support`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Average {
    /// Score of one positive class (binary problems).
    Binary {
        /// The positive label.
        pos_label: usize,
    },
    /// Unweighted mean over labels.
    Macro,
    /// Score of the pooled counts.
    Micro,
    /// Support-weighted mean over labels.
    Weighted,
}

impl Default for Average {
    /// `Binary { pos_label: 1 }`, scikit-learn's default.
    fn default() -> Self {
        Self::Binary { pos_label: 1 }
    }
}

/// Normalisation of a confusion matrix (scikit-learn's `normalize=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Normalize {
    /// Each row (true class) sums to 1 (`"true"`): the diagonal holds the recalls.
    Truth,
    /// Each column (predicted class) sums to 1 (`"pred"`): the diagonal holds the precisions.
    Pred,
    /// The whole matrix sums to 1 (`"all"`).
    All,
}

/// The sorted union of the labels in `y_true` and `y_pred`: the row/column order of
/// [`confusion_matrix`] and the class order of [`precision_recall_fscore_support`] when no
/// explicit label list is given.
pub fn unique_labels(y_true: &ArrayRef1<usize>, y_pred: &ArrayRef1<usize>) -> Vec<usize> {
    sorted_unique([y_true, y_pred])
}

fn check_explicit_labels(labels: &[usize], context: &'static str) -> Result<()> {
    if labels.is_empty() {
        return Err(Error::invalid_param(
            "labels",
            format!("{context}: the label list must contain at least one label"),
        ));
    }
    let mut sorted = labels.to_vec();
    sorted.sort_unstable();
    if let Some(w) = sorted.windows(2).find(|w| w[0] == w[1]) {
        return Err(Error::invalid_param(
            "labels",
            format!("{context}: label {} is listed twice", w[0]),
        ));
    }
    Ok(())
}

/// Maps labels (in the given order, possibly unsorted) to positions.
fn positions(labels: &[usize]) -> (Lookup, Vec<usize>) {
    let mut sorted: Vec<(usize, usize)> = labels.iter().copied().zip(0..).collect();
    sorted.sort_unstable();
    let values: Vec<usize> = sorted.iter().map(|p| p.0).collect();
    let order: Vec<usize> = sorted.iter().map(|p| p.1).collect();
    (Lookup::new(&values), order)
}

/// Confusion matrix `C` with **rows = true class, columns = predicted class**:
/// `C[i, j]` = (weighted) number of samples of true label `labels[i]` predicted as `labels[j]`.
///
/// `labels` fixes the order (and subset) of the classes; `None` uses [`unique_labels`]. Samples
/// whose true or predicted label is not in `labels` are ignored (as scikit-learn). Entries are
/// counts stored as `f64` (exact integers without weights).
///
/// The course notes write the matrix both ways (predicted in rows in one set, truth in rows in
/// another, erratum E1); ndlearn follows the truth-in-rows form and scikit-learn.
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths (or weights of the wrong length);
/// [`Error::TooFewSamples`] for empty input; [`Error::InvalidParam`] for an empty or duplicated
/// label list, a label list none of whose labels occurs in `y_true`, or invalid weights.
///
/// ```
/// use ndlearn_core::metrics::confusion_matrix;
/// use ndlearn_core::ndarray::array;
///
/// let y_true = array![0usize, 0, 1, 1, 1];
/// let y_pred = array![0usize, 1, 1, 1, 0];
/// let c = confusion_matrix(&y_true, &y_pred, None, None)?;
/// // TN = 1, FP = 1 / FN = 1, TP = 2
/// assert_eq!(c, array![[1.0, 1.0], [1.0, 2.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn confusion_matrix(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    labels: Option<&[usize]>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<Array2<f64>> {
    const CTX: &str = "confusion_matrix";
    check_label_pair(y_true, y_pred, CTX)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let labels: Vec<usize> = match labels {
        Some(l) => {
            check_explicit_labels(l, CTX)?;
            l.to_vec()
        }
        None => unique_labels(y_true, y_pred),
    };
    let (lookup, order) = positions(&labels);
    let pos = |v: usize| lookup.get(v).map(|k| order[k]);
    if !y_true.iter().any(|&v| pos(v).is_some()) {
        return Err(Error::invalid_param(
            "labels",
            "at least one of the given labels must occur in y_true",
        ));
    }
    let k = labels.len();
    let mut c = Array2::<f64>::zeros((k, k));
    for (i, (&t, &p)) in y_true.iter().zip(y_pred.iter()).enumerate() {
        if let (Some(a), Some(b)) = (pos(t), pos(p)) {
            c[[a, b]] += weight_at(&w, i);
        }
    }
    Ok(c)
}

/// A confusion matrix normalised over rows, columns or everything; a zero row/column/total
/// stays zero (scikit-learn replaces the `0/0` by 0).
pub fn normalize_confusion_matrix(c: &ArrayRef2<f64>, how: Normalize) -> Array2<f64> {
    let mut out = c.to_owned();
    match how {
        Normalize::Truth => {
            for mut row in out.rows_mut() {
                let s = sum(row.iter().copied());
                row.mapv_inplace(|v| div0(v, s));
            }
        }
        Normalize::Pred => {
            for mut col in out.columns_mut() {
                let s = sum(col.iter().copied());
                col.mapv_inplace(|v| div0(v, s));
            }
        }
        Normalize::All => {
            let s = sum(c.iter().copied());
            out.mapv_inplace(|v| div0(v, s));
        }
    }
    out
}

/// Fraction of correct predictions, `Σ wᵢ [yᵢ = ŷᵢ] / Σ wᵢ` (notes: `(TP + TN)/N`).
///
/// Misleading under class imbalance (He & Garcia, "Learning from imbalanced data", IEEE TKDE
/// 21(9), 2009): see [`balanced_accuracy_score`](super::balanced_accuracy_score).
///
/// # Errors
/// As [`confusion_matrix`] (lengths, empty input, weights).
///
/// ```
/// use ndlearn_core::metrics::accuracy_score;
/// use ndlearn_core::ndarray::array;
///
/// let acc = accuracy_score(&array![0usize, 1, 2, 2], &array![0usize, 2, 2, 2], None)?;
/// assert_eq!(acc, 0.75);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn accuracy_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    let (correct, total) = correct_total(y_true, y_pred, sample_weight, "accuracy_score")?;
    Ok(correct / total)
}

/// The (weighted) number of correct predictions: scikit-learn's
/// `accuracy_score(normalize=False)`.
///
/// # Errors
/// As [`accuracy_score`].
pub fn accuracy_count(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    Ok(correct_total(y_true, y_pred, sample_weight, "accuracy_count")?.0)
}

/// The 0–1 loss (empirical risk of the 0–1 loss): fraction of wrong predictions,
/// `1 − accuracy`.
///
/// The course notes' forms `L_S(h) = |{i : h(xᵢ) ≠ yᵢ}| / m` (Shalev-Shwartz & Ben-David,
/// *Understanding Machine Learning* (2014), ch. 2) and, for ±1 labels,
/// `R_emp = (1/R) Σ ½|y_k − f(x_k)|` (Vapnik, *The Nature of Statistical Learning Theory*,
/// Springer (1995)) are both this number (LT-01).
///
/// # Errors
/// As [`accuracy_score`].
pub fn zero_one_loss(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    let (correct, total) = correct_total(y_true, y_pred, sample_weight, "zero_one_loss")?;
    Ok(1.0 - correct / total)
}

/// The (weighted) number of wrong predictions: scikit-learn's `zero_one_loss(normalize=False)`.
///
/// # Errors
/// As [`accuracy_score`].
pub fn zero_one_loss_count(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    let (correct, total) = correct_total(y_true, y_pred, sample_weight, "zero_one_loss_count")?;
    Ok(total - correct)
}

fn correct_total(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
    context: &'static str,
) -> Result<(f64, f64)> {
    check_label_pair(y_true, y_pred, context)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let correct = sum(y_true
        .iter()
        .zip(y_pred.iter())
        .enumerate()
        .filter(|(_, (t, p))| t == p)
        .map(|(i, _)| weight_at(&w, i)));
    let total = match &w {
        None => y_true.len() as f64,
        Some(w) => sum(w.iter().copied()),
    };
    Ok((correct, total))
}

/// Per-label sufficient statistics: true positives, predicted and true totals (weighted).
pub(crate) struct ClassCounts {
    pub labels: Vec<usize>,
    pub tp: Vec<f64>,
    pub pred: Vec<f64>,
    pub truth: Vec<f64>,
    pub total: f64,
}

pub(crate) fn class_counts(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    labels: Vec<usize>,
    w: &Option<Vec<f64>>,
) -> ClassCounts {
    let (lookup, order) = positions(&labels);
    let pos = |v: usize| lookup.get(v).map(|k| order[k]);
    let k = labels.len();
    let (mut tp, mut pred, mut truth) = (vec![0.0; k], vec![0.0; k], vec![0.0; k]);
    let mut total = 0.0;
    for (i, (&t, &p)) in y_true.iter().zip(y_pred.iter()).enumerate() {
        let wi = weight_at(w, i);
        total += wi;
        let (a, b) = (pos(t), pos(p));
        if let Some(a) = a {
            truth[a] += wi;
        }
        if let Some(b) = b {
            pred[b] += wi;
        }
        if t == p {
            if let Some(a) = a {
                tp[a] += wi;
            }
        }
    }
    ClassCounts {
        labels,
        tp,
        pred,
        truth,
        total,
    }
}

/// The labels an [`Average`] looks at, checked as scikit-learn does.
fn labels_for(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
) -> Result<Vec<usize>> {
    let present = unique_labels(y_true, y_pred);
    match average {
        Average::Binary { pos_label } => {
            if present.len() > 2 {
                return Err(Error::invalid_param(
                    "average",
                    format!(
                        "the targets hold {} distinct labels but the average is Binary; use \
                         Average::Macro, Micro or Weighted for multi-class data",
                        present.len()
                    ),
                ));
            }
            if present.len() == 2 && !present.contains(&pos_label) {
                return Err(Error::invalid_param(
                    "pos_label",
                    format!("pos_label {pos_label} is not one of the present labels {present:?}"),
                ));
            }
            Ok(vec![pos_label])
        }
        _ => Ok(present),
    }
}

/// Which per-class score.
#[derive(Clone, Copy)]
enum Which {
    Precision,
    Recall,
    FScore(f64),
    Fpr,
    Specificity,
}

fn check_beta(beta: f64) -> Result<()> {
    if beta.is_nan() || beta < 0.0 {
        return Err(Error::invalid_param(
            "beta",
            format!("must be >= 0 (may be infinite), got {beta}"),
        ));
    }
    Ok(())
}

/// One score from pooled counts (zero-division → 0).
fn score_from(which: Which, tp: f64, pred: f64, truth: f64, total: f64) -> f64 {
    match which {
        Which::Precision => div0(tp, pred),
        Which::Recall => div0(tp, truth),
        Which::FScore(beta) => {
            if beta.is_infinite() {
                div0(tp, truth)
            } else if beta == 0.0 {
                div0(tp, pred)
            } else {
                let b2 = beta * beta;
                div0((1.0 + b2) * tp, b2 * truth + pred)
            }
        }
        Which::Fpr => div0(pred - tp, total - truth),
        Which::Specificity => {
            let negatives = total - truth;
            div0(negatives - (pred - tp), negatives)
        }
    }
}

fn averaged(c: &ClassCounts, which: Which, average: Average) -> f64 {
    let k = c.labels.len();
    match average {
        Average::Micro => score_from(
            which,
            sum(c.tp.iter().copied()),
            sum(c.pred.iter().copied()),
            sum(c.truth.iter().copied()),
            c.total * k as f64,
        ),
        Average::Binary { .. } | Average::Macro => {
            let s = sum((0..k).map(|i| score_from(which, c.tp[i], c.pred[i], c.truth[i], c.total)));
            s / k as f64
        }
        Average::Weighted => {
            let wsum = sum(c.truth.iter().copied());
            let s = sum((0..k)
                .map(|i| c.truth[i] * score_from(which, c.tp[i], c.pred[i], c.truth[i], c.total)));
            div0(s, wsum)
        }
    }
}

fn averaged_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    which: Which,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
    context: &'static str,
) -> Result<f64> {
    check_label_pair(y_true, y_pred, context)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let labels = labels_for(y_true, y_pred, average)?;
    let c = class_counts(y_true, y_pred, labels, &w);
    Ok(averaged(&c, which, average))
}

/// Precision `TP / (TP + FP)`, averaged as `average` says.
///
/// **Zero division**: a class never predicted has precision 0 (scikit-learn's default
/// `zero_division="warn"` returns 0 and warns; ndlearn returns 0 silently). The same rule holds
/// for every score of this module whose denominator is 0.
///
/// # Errors
/// [`Error::ShapeMismatch`] / [`Error::TooFewSamples`] for bad lengths or empty input;
/// [`Error::InvalidParam`] for `Average::Binary` on more than two labels, a `pos_label` absent
/// from two present labels, or invalid weights.
///
/// ```
/// use ndlearn_core::metrics::{precision_score, recall_score, f1_score, Average};
/// use ndlearn_core::ndarray::array;
///
/// let (t, p) = (array![0usize, 0, 1, 1, 1], array![0usize, 1, 1, 1, 0]);
/// let bin = Average::Binary { pos_label: 1 };
/// assert_eq!(precision_score(&t, &p, bin, None)?, 2.0 / 3.0); // TP 2, FP 1
/// assert_eq!(recall_score(&t, &p, bin, None)?, 2.0 / 3.0);    // TP 2, FN 1
/// assert!((f1_score(&t, &p, bin, None)? - 2.0 / 3.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn precision_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    averaged_score(
        y_true,
        y_pred,
        Which::Precision,
        average,
        sample_weight,
        "precision_score",
    )
}

/// Recall = true-positive rate = sensitivity, `TP / (TP + FN)`, averaged as `average` says.
/// Zero division → 0 (see [`precision_score`]).
///
/// # Errors
/// As [`precision_score`].
pub fn recall_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    averaged_score(
        y_true,
        y_pred,
        Which::Recall,
        average,
        sample_weight,
        "recall_score",
    )
}

/// False-positive rate = fall-out, `FP / (FP + TN)`, averaged as `average` says (weighted:
/// by the support of each class, as the other scores; micro: `Σ FP / Σ (FP + TN)`). A class
/// with no negatives has rate 0 (zero division). Not in scikit-learn (it is `1 − specificity`).
///
/// # Errors
/// As [`precision_score`].
pub fn false_positive_rate(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    averaged_score(
        y_true,
        y_pred,
        Which::Fpr,
        average,
        sample_weight,
        "false_positive_rate",
    )
}

/// Specificity = true-negative rate, `TN / (TN + FP)` (`1 − FPR` when defined; 0 for a class
/// with no negatives), averaged as `average` says. Not in scikit-learn.
///
/// # Errors
/// As [`precision_score`].
pub fn specificity_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    averaged_score(
        y_true,
        y_pred,
        Which::Specificity,
        average,
        sample_weight,
        "specificity_score",
    )
}

/// F₁ = harmonic mean of precision and recall, `2PR/(P + R) = 2TP / (2TP + FP + FN)`.
/// Zero division (no true and no predicted sample of a class) → 0.
///
/// # Errors
/// As [`precision_score`].
pub fn f1_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    averaged_score(
        y_true,
        y_pred,
        Which::FScore(1.0),
        average,
        sample_weight,
        "f1_score",
    )
}

/// F_β = `(1 + β²) P R / (β² P + R) = (1 + β²) TP / ((1 + β²) TP + β² FN + FP)`; `β = 0` is
/// precision, `β = ∞` recall. Zero division → 0.
///
/// # Errors
/// As [`precision_score`], plus [`Error::InvalidParam`] for `β < 0` or NaN.
pub fn fbeta_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    beta: f64,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    check_beta(beta)?;
    averaged_score(
        y_true,
        y_pred,
        Which::FScore(beta),
        average,
        sample_weight,
        "fbeta_score",
    )
}

/// Averaged precision, recall and F_β (see [`precision_recall_fscore`]).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AveragedScores {
    /// Precision.
    pub precision: f64,
    /// Recall.
    pub recall: f64,
    /// F_β.
    pub fscore: f64,
}

/// Precision, recall and F_β in one pass, averaged as `average` says (scikit-learn's
/// `precision_recall_fscore_support` with an `average`).
///
/// # Errors
/// As [`fbeta_score`].
pub fn precision_recall_fscore(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    beta: f64,
    average: Average,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<AveragedScores> {
    const CTX: &str = "precision_recall_fscore";
    check_beta(beta)?;
    check_label_pair(y_true, y_pred, CTX)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let labels = labels_for(y_true, y_pred, average)?;
    let c = class_counts(y_true, y_pred, labels, &w);
    Ok(AveragedScores {
        precision: averaged(&c, Which::Precision, average),
        recall: averaged(&c, Which::Recall, average),
        fscore: averaged(&c, Which::FScore(beta), average),
    })
}

/// Per-class scores: scikit-learn's `precision_recall_fscore_support(average=None)` plus the
/// false-positive rate and specificity.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PerClassScores {
    /// The labels, in the order of the other fields.
    pub labels: Vec<usize>,
    /// Precision per label.
    pub precision: Array1<f64>,
    /// Recall (TPR, sensitivity) per label.
    pub recall: Array1<f64>,
    /// F_β per label.
    pub fscore: Array1<f64>,
    /// (Weighted) number of true samples per label.
    pub support: Array1<f64>,
    /// False-positive rate per label (one-vs-rest).
    pub false_positive_rate: Array1<f64>,
    /// Specificity per label (one-vs-rest).
    pub specificity: Array1<f64>,
}

/// One score per class (one-vs-rest counts), for `labels` (`None`: [`unique_labels`]; a given
/// label may be absent from the data, its scores are then 0).
///
/// # Errors
/// As [`fbeta_score`], plus [`Error::InvalidParam`] for an empty or duplicated label list.
///
/// ```
/// use ndlearn_core::metrics::precision_recall_fscore_support;
/// use ndlearn_core::ndarray::array;
///
/// let s = precision_recall_fscore_support(
///     &array![0usize, 1, 2, 2], &array![0usize, 2, 2, 2], 1.0, None, None)?;
/// assert_eq!(s.labels, vec![0, 1, 2]);
/// assert_eq!(s.recall.to_vec(), vec![1.0, 0.0, 1.0]);
/// assert_eq!(s.support.to_vec(), vec![1.0, 1.0, 2.0]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn precision_recall_fscore_support(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    beta: f64,
    labels: Option<&[usize]>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<PerClassScores> {
    const CTX: &str = "precision_recall_fscore_support";
    check_beta(beta)?;
    check_label_pair(y_true, y_pred, CTX)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let labels = match labels {
        Some(l) => {
            check_explicit_labels(l, CTX)?;
            l.to_vec()
        }
        None => unique_labels(y_true, y_pred),
    };
    let c = class_counts(y_true, y_pred, labels, &w);
    Ok(per_class(&c, beta))
}

pub(crate) fn per_class(c: &ClassCounts, beta: f64) -> PerClassScores {
    let k = c.labels.len();
    let each = |which: Which| -> Array1<f64> {
        (0..k)
            .map(|i| score_from(which, c.tp[i], c.pred[i], c.truth[i], c.total))
            .collect()
    };
    PerClassScores {
        labels: c.labels.clone(),
        precision: each(Which::Precision),
        recall: each(Which::Recall),
        fscore: each(Which::FScore(beta)),
        support: Array1::from(c.truth.clone()),
        false_positive_rate: each(Which::Fpr),
        specificity: each(Which::Specificity),
    }
}

#[cfg(test)]
#[path = "classification_tests.rs"]
mod tests;
