//! Chance-aware agreement scores on labels: balanced accuracy, Matthews correlation, Cohen's
//! kappa.

use ndarray::ArrayRef1;

use super::classification::{class_counts, confusion_matrix, unique_labels};
use super::common::{check_label_pair, sum, weights_f64};
use crate::{Error, Result};

/// Balanced accuracy: the mean recall over the classes present in `y_true` (classes only
/// predicted are ignored, as scikit-learn). With `adjusted`, rescaled so that chance level is 0
/// and perfect is 1: `(s − 1/k) / (1 − 1/k)`.
///
/// # Errors
/// As [`accuracy_score`](super::accuracy_score); [`Error::TooFewClasses`] when `adjusted` and `y_true` has one class.
pub fn balanced_accuracy_score(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    adjusted: bool,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    const CTX: &str = "balanced_accuracy_score";
    check_label_pair(y_true, y_pred, CTX)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let c = class_counts(y_true, y_pred, unique_labels(y_true, y_pred), &w);
    // Classes with zero (weighted) support have an undefined recall and are skipped.
    let recalls: Vec<f64> = (0..c.labels.len())
        .filter(|&i| c.truth[i] > 0.0)
        .map(|i| c.tp[i] / c.truth[i])
        .collect();
    let k = recalls.len();
    let score = sum(recalls.iter().copied()) / k as f64;
    if !adjusted {
        return Ok(score);
    }
    if k < 2 {
        return Err(Error::TooFewClasses {
            context: "balanced_accuracy_score(adjusted = true)",
            needed: 2,
            found: k,
        });
    }
    let chance = 1.0 / k as f64;
    Ok((score - chance) / (1.0 - chance))
}

/// Matthews correlation coefficient (multi-class form, Gorodkin 2004):
/// `(c·s − Σ t_k p_k) / √((s² − Σ p_k²)(s² − Σ t_k²))` with `c` the correct count, `s` the
/// total, `t_k`/`p_k` the true/predicted totals of class `k`. In `[−1, 1]`; 0 when undefined
/// (one class only in truth or prediction), as scikit-learn.
///
/// # Errors
/// As [`accuracy_score`](super::accuracy_score).
pub fn matthews_corrcoef(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    let c = confusion_matrix(y_true, y_pred, None, sample_weight)?;
    let t: Vec<f64> = c
        .rows()
        .into_iter()
        .map(|r| sum(r.iter().copied()))
        .collect();
    let p: Vec<f64> = c
        .columns()
        .into_iter()
        .map(|r| sum(r.iter().copied()))
        .collect();
    let correct = sum(c.diag().iter().copied());
    let s = sum(p.iter().copied());
    let dot = |a: &[f64], b: &[f64]| sum(a.iter().zip(b).map(|(x, y)| x * y));
    let cov_tp = correct * s - dot(&t, &p);
    let cov_pp = s * s - dot(&p, &p);
    let cov_tt = s * s - dot(&t, &t);
    let den = cov_pp * cov_tt;
    Ok(if den == 0.0 { 0.0 } else { cov_tp / den.sqrt() })
}

/// Disagreement weights of Cohen's kappa.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum KappaWeights {
    /// Every disagreement costs 1 (scikit-learn `weights=None`).
    #[default]
    Unweighted,
    /// `|i − j|` between label positions (`"linear"`).
    Linear,
    /// `(i − j)²` (`"quadratic"`).
    Quadratic,
}

/// Cohen's kappa between two labelings: `κ = 1 − Σ w_ij O_ij / Σ w_ij E_ij` with `O` the
/// confusion matrix, `E` its outer-product expectation and `w` the disagreement weights (over
/// the positions of [`unique_labels`]).
///
/// # Errors
/// As [`accuracy_score`](super::accuracy_score); [`Error::TooFewClasses`] when κ is undefined (the expected
/// disagreement is 0, e.g. both labelings use the same single label); scikit-learn returns NaN
/// there.
pub fn cohen_kappa_score(
    y1: &ArrayRef1<usize>,
    y2: &ArrayRef1<usize>,
    weights: KappaWeights,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<f64> {
    let c = confusion_matrix(y1, y2, None, sample_weight)?;
    let k = c.nrows();
    let col: Vec<f64> = c
        .columns()
        .into_iter()
        .map(|r| sum(r.iter().copied()))
        .collect();
    let row: Vec<f64> = c
        .rows()
        .into_iter()
        .map(|r| sum(r.iter().copied()))
        .collect();
    let total = sum(col.iter().copied());
    let wgt = |i: usize, j: usize| -> f64 {
        let d = i.abs_diff(j) as f64;
        match weights {
            KappaWeights::Unweighted => f64::from(u8::from(i != j)),
            KappaWeights::Linear => d,
            KappaWeights::Quadratic => d * d,
        }
    };
    let mut num = Vec::with_capacity(k * k);
    let mut den = Vec::with_capacity(k * k);
    for i in 0..k {
        for j in 0..k {
            num.push(wgt(i, j) * c[[i, j]]);
            den.push(wgt(i, j) * (row[i] * col[j] / total));
        }
    }
    let den = sum(den);
    if den == 0.0 {
        return Err(Error::TooFewClasses {
            context: "cohen_kappa_score (undefined: no expected disagreement)",
            needed: 2,
            found: 1,
        });
    }
    Ok(1.0 - sum(num) / den)
}
