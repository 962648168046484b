//! Comparing two labelings (external cluster validity): contingency and pair-confusion
//! matrices, Rand and adjusted Rand index, mutual information (plain, normalised, adjusted),
//! homogeneity / completeness / V-measure, Fowlkes–Mallows.
//!
//! Labels are arbitrary `usize` values (not necessarily `0..k`); only equality matters. Every
//! index is symmetric in a permutation of the label values. **Noise**: scikit-learn's DBSCAN
//! marks noise with `−1`, which these metrics treat as one more cluster; with `usize` labels
//! encode noise as any unused value (e.g. `usize::MAX`) to get the same numbers, or drop the
//! noise samples first to score the clustered part only.
//!
//! Counts use exact integer arithmetic (`u128`/`i128`) where scikit-learn does (pair counts,
//! ARI, Fowlkes–Mallows). Logarithms are natural (nats).

use ndarray::{Array2, ArrayRef1};

use super::common::{Neumaier, check_label_pair, encode, sum};
use super::lgamma::LnFactorials;
use crate::{Error, Result};

/// Normalisation of mutual information (scikit-learn's `average_method=`): the mean of the two
/// entropies used as denominator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum AverageMethod {
    /// `min(H(U), H(V))`.
    Min,
    /// `√(H(U) H(V))`.
    Geometric,
    /// `(H(U) + H(V)) / 2` (scikit-learn's default).
    #[default]
    Arithmetic,
    /// `max(H(U), H(V))`.
    Max,
}

impl AverageMethod {
    fn apply(self, u: f64, v: f64) -> f64 {
        match self {
            Self::Min => u.min(v),
            Self::Geometric => (u * v).sqrt(),
            Self::Arithmetic => (u + v) / 2.0,
            Self::Max => u.max(v),
        }
    }
}

/// Sparse contingency table: non-zero cells and the marginals.
struct Table {
    n: u64,
    /// Row (true class) totals `aᵢ`.
    a: Vec<u64>,
    /// Column (cluster) totals `bⱼ`.
    b: Vec<u64>,
    /// Non-zero cells `(i, j, nᵢⱼ)`, sorted by `(i, j)`.
    cells: Vec<(usize, usize, u64)>,
}

fn table(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
    context: &'static str,
) -> Result<Table> {
    check_label_pair(labels_true, labels_pred, context)?;
    let et = encode(labels_true);
    let ep = encode(labels_pred);
    let kp = ep.n_classes();
    let mut keys: Vec<usize> = et
        .codes
        .iter()
        .zip(&ep.codes)
        .map(|(&i, &j)| i * kp + j)
        .collect();
    keys.sort_unstable();
    let mut cells: Vec<(usize, usize, u64)> = Vec::new();
    for key in keys {
        match cells.last_mut() {
            Some(last) if last.0 * kp + last.1 == key => last.2 += 1,
            _ => cells.push((key / kp, key % kp, 1)),
        }
    }
    Ok(Table {
        n: labels_true.len() as u64,
        a: et.counts().into_iter().map(|c| c as u64).collect(),
        b: ep.counts().into_iter().map(|c| c as u64).collect(),
        cells,
    })
}

/// Contingency matrix `C[i, j]` = number of samples with the `i`-th smallest true label and the
/// `j`-th smallest predicted label (dense; for many distinct labels prefer the scores, which
/// use a sparse table internally).
///
/// # Errors
/// [`Error::ShapeMismatch`] (lengths), [`Error::TooFewSamples`] (empty).
///
/// ```
/// use ndlearn_core::metrics::contingency_matrix;
/// use ndlearn_core::ndarray::array;
///
/// let c = contingency_matrix(&array![0usize, 0, 1, 1], &array![5usize, 7, 7, 7])?;
/// assert_eq!(c, array![[1, 1], [0, 2]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn contingency_matrix(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<Array2<usize>> {
    let t = table(labels_true, labels_pred, "contingency_matrix")?;
    let mut c = Array2::zeros((t.a.len(), t.b.len()));
    for &(i, j, v) in &t.cells {
        c[[i, j]] = v as usize;
    }
    Ok(c)
}

/// Pair counts `(n₀₀, n₀₁, n₁₀, n₁₁)` over ordered pairs of distinct samples.
fn pair_counts(t: &Table) -> (i128, i128, i128, i128) {
    let sq = |v: u64| i128::from(v) * i128::from(v);
    let n = i128::from(t.n);
    let sum_sq: i128 = t.cells.iter().map(|c| sq(c.2)).sum();
    let sum_b: i128 = t.b.iter().map(|&v| sq(v)).sum();
    let sum_a: i128 = t.a.iter().map(|&v| sq(v)).sum();
    let c11 = sum_sq - n;
    let c01 = sum_b - sum_sq;
    let c10 = sum_a - sum_sq;
    let c00 = n * n - c01 - c10 - sum_sq;
    (c00, c01, c10, c11)
}

/// Pair confusion matrix `[[n₀₀, n₀₁], [n₁₀, n₁₁]]` over ordered pairs of distinct samples:
/// `n₁₁` pairs together in both labelings, `n₀₁` apart in the truth but together in the
/// prediction, `n₁₀` together in the truth only, `n₀₀` apart in both.
///
/// # Errors
/// As [`contingency_matrix`].
pub fn pair_confusion_matrix(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<Array2<f64>> {
    let t = table(labels_true, labels_pred, "pair_confusion_matrix")?;
    let (c00, c01, c10, c11) = pair_counts(&t);
    Ok(ndarray::array![
        [c00 as f64, c01 as f64],
        [c10 as f64, c11 as f64]
    ])
}

/// Rand index: fraction of sample pairs on which the two labelings agree (together in both or
/// apart in both). 1 when there is a single sample.
///
/// # Errors
/// As [`contingency_matrix`].
pub fn rand_score(labels_true: &ArrayRef1<usize>, labels_pred: &ArrayRef1<usize>) -> Result<f64> {
    let t = table(labels_true, labels_pred, "rand_score")?;
    let (c00, c01, c10, c11) = pair_counts(&t);
    let num = c00 + c11;
    let den = c00 + c01 + c10 + c11;
    Ok(if num == den || den == 0 {
        1.0
    } else {
        num as f64 / den as f64
    })
}

/// Adjusted Rand index (Hubert & Arabie 1985): the Rand index corrected for chance,
/// `2(n₁₁n₀₀ − n₀₁n₁₀) / ((n₁₁ + n₁₀)(n₁₀ + n₀₀) + (n₁₁ + n₀₁)(n₀₁ + n₀₀))`; 1 for identical
/// partitions (up to relabeling), about 0 for random ones, can be negative.
///
/// # Errors
/// As [`contingency_matrix`].
///
/// ```
/// use ndlearn_core::metrics::adjusted_rand_score;
/// use ndlearn_core::ndarray::array;
///
/// // The same partition with other label values.
/// assert_eq!(adjusted_rand_score(&array![0usize, 0, 1, 2], &array![7usize, 7, 3, 1])?, 1.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn adjusted_rand_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<f64> {
    let t = table(labels_true, labels_pred, "adjusted_rand_score")?;
    let (tn, fp, fn_, tp) = pair_counts(&t);
    if fn_ == 0 && fp == 0 {
        return Ok(1.0);
    }
    let num = 2 * (tp * tn - fn_ * fp);
    let den = (tp + fn_) * (fn_ + tn) + (tp + fp) * (fp + tn);
    Ok(num as f64 / den as f64)
}

/// Entropy (nats) of a labeling from its class counts; 0 for one class.
fn entropy_from_counts(counts: &[u64], n: u64) -> f64 {
    if counts.len() <= 1 {
        return 0.0;
    }
    let nf = n as f64;
    let ln_n = nf.ln();
    -sum(counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| (c as f64 / nf) * ((c as f64).ln() - ln_n)))
}

/// Mutual information of the table (nats), scikit-learn's rounding guard included (terms
/// below ε in magnitude are dropped, the total is clipped at 0).
fn mi_from_table(t: &Table) -> f64 {
    if t.a.len() == 1 || t.b.len() == 1 {
        return 0.0;
    }
    let nf = t.n as f64;
    let ln_n = nf.ln();
    let terms = t.cells.iter().map(|&(i, j, v)| {
        let p = v as f64 / nf;
        let outer = (t.a[i] as f64) * (t.b[j] as f64);
        let term = p * ((v as f64).ln() - ln_n) + p * (-outer.ln() + ln_n + ln_n);
        if term.abs() < f64::EPSILON { 0.0 } else { term }
    });
    sum(terms).max(0.0)
}

/// Mutual information `I(U; V) = Σᵢⱼ (nᵢⱼ/N) ln(N nᵢⱼ / (aᵢ bⱼ))` between two labelings (nats).
///
/// # Errors
/// As [`contingency_matrix`].
pub fn mutual_info_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<f64> {
    Ok(mi_from_table(&table(
        labels_true,
        labels_pred,
        "mutual_info_score",
    )?))
}

/// Entropy (nats) of one labeling, `−Σ (nₖ/N) ln(nₖ/N)`.
///
/// # Errors
/// [`Error::TooFewSamples`] (empty).
pub fn entropy(labels: &ArrayRef1<usize>) -> Result<f64> {
    super::common::check_nonempty(labels.len(), "entropy")?;
    let e = encode(labels);
    let counts: Vec<u64> = e.counts().into_iter().map(|c| c as u64).collect();
    Ok(entropy_from_counts(&counts, labels.len() as u64))
}

/// Normalised mutual information `I(U; V) / mean(H(U), H(V))` with the mean chosen by
/// `average_method` (scikit-learn's default: arithmetic). 1 when both labelings have a single
/// class; 0 when the mutual information is 0.
///
/// # Errors
/// As [`contingency_matrix`].
pub fn normalized_mutual_info_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
    average_method: AverageMethod,
) -> Result<f64> {
    let t = table(labels_true, labels_pred, "normalized_mutual_info_score")?;
    if t.a.len() == 1 && t.b.len() == 1 {
        return Ok(1.0);
    }
    let mi = mi_from_table(&t);
    if mi == 0.0 {
        return Ok(0.0);
    }
    let (hu, hv) = (
        entropy_from_counts(&t.a, t.n),
        entropy_from_counts(&t.b, t.n),
    );
    Ok(mi / average_method.apply(hu, hv))
}

/// Expected mutual information of two random labelings with the given marginals
/// (hypergeometric model, Vinh, Epps & Bailey 2010).
fn expected_mutual_info(t: &Table) -> f64 {
    if t.a.len() == 1 || t.b.len() == 1 {
        return 0.0;
    }
    let n = t.n;
    let nf = n as f64;
    let lf = LnFactorials::new(n);
    let ln_n = nf.ln();
    let mut acc = Neumaier::default();
    for &ai in &t.a {
        for &bj in &t.b {
            let start = (ai + bj).saturating_sub(n).max(1);
            let end = ai.min(bj);
            let fixed = lf.get(ai) + lf.get(bj) + lf.get(n - ai) + lf.get(n - bj) - lf.get(n);
            let ln_ab = (ai as f64).ln() + (bj as f64).ln();
            for nij in start..=end {
                let nf_ij = nij as f64;
                let term2 = ln_n + nf_ij.ln() - ln_ab;
                let gln = fixed
                    - lf.get(nij)
                    - lf.get(ai - nij)
                    - lf.get(bj - nij)
                    - lf.get(n + nij - ai - bj);
                acc.add(nf_ij / nf * term2 * gln.exp());
            }
        }
    }
    acc.total()
}

/// Adjusted mutual information (Vinh, Epps & Bailey 2010):
/// `(I − E[I]) / (mean(H(U), H(V)) − E[I])`, with `E[I]` the expected mutual information under
/// random labelings of the same cluster sizes (computed exactly with log-factorials). 1 for
/// identical partitions, about 0 for independent ones. 1 when both labelings have a single
/// class, 0 when exactly one does (scikit-learn's conventions); numerator and denominator are
/// kept at least `ε` away from 0 as in scikit-learn.
///
/// # Errors
/// As [`contingency_matrix`].
///
/// ```
/// use ndlearn_core::metrics::{adjusted_mutual_info_score, AverageMethod};
/// use ndlearn_core::ndarray::array;
///
/// let a = array![0usize, 0, 1, 1, 2, 2];
/// let ami = adjusted_mutual_info_score(&a, &array![2usize, 2, 0, 0, 1, 1], AverageMethod::Arithmetic)?;
/// assert!((ami - 1.0).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn adjusted_mutual_info_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
    average_method: AverageMethod,
) -> Result<f64> {
    let t = table(labels_true, labels_pred, "adjusted_mutual_info_score")?;
    let (kt, kp) = (t.a.len(), t.b.len());
    if kt == 1 && kp == 1 {
        return Ok(1.0);
    }
    if kt == 1 || kp == 1 {
        return Ok(0.0);
    }
    let mi = mi_from_table(&t);
    let emi = expected_mutual_info(&t);
    let (hu, hv) = (
        entropy_from_counts(&t.a, t.n),
        entropy_from_counts(&t.b, t.n),
    );
    let away = |v: f64| {
        if v < 0.0 {
            v.min(-f64::EPSILON)
        } else {
            v.max(f64::EPSILON)
        }
    };
    let den = away(average_method.apply(hu, hv) - emi);
    let num = away(mi - emi);
    Ok(num / den)
}

/// Homogeneity, completeness and their weighted harmonic mean (V-measure).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VMeasure {
    /// `I(C; K) / H(C)`: each cluster holds members of a single class (1 if `H(C) = 0`).
    pub homogeneity: f64,
    /// `I(C; K) / H(K)`: all members of a class are in one cluster (1 if `H(K) = 0`).
    pub completeness: f64,
    /// `(1 + β) h c / (β h + c)` (0 if `h + c = 0`).
    pub v_measure: f64,
}

/// Homogeneity, completeness and V-measure (Rosenberg & Hirschberg 2007) with weight `beta`
/// (`β > 1` weights completeness more; scikit-learn's default `β = 1` gives the NMI with
/// arithmetic mean).
///
/// # Errors
/// As [`contingency_matrix`], plus [`Error::InvalidParam`] for `β < 0` or NaN.
pub fn homogeneity_completeness_v_measure(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
    beta: f64,
) -> Result<VMeasure> {
    if beta.is_nan() || beta < 0.0 {
        return Err(Error::invalid_param(
            "beta",
            format!("must be >= 0, got {beta}"),
        ));
    }
    let t = table(
        labels_true,
        labels_pred,
        "homogeneity_completeness_v_measure",
    )?;
    let (hc, hk) = (
        entropy_from_counts(&t.a, t.n),
        entropy_from_counts(&t.b, t.n),
    );
    let mi = mi_from_table(&t);
    let h = if hc != 0.0 { mi / hc } else { 1.0 };
    let c = if hk != 0.0 { mi / hk } else { 1.0 };
    let v = if h + c == 0.0 {
        0.0
    } else {
        (1.0 + beta) * h * c / (beta * h + c)
    };
    Ok(VMeasure {
        homogeneity: h,
        completeness: c,
        v_measure: v,
    })
}

/// Homogeneity (see [`homogeneity_completeness_v_measure`]).
///
/// # Errors
/// As [`contingency_matrix`].
pub fn homogeneity_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<f64> {
    Ok(homogeneity_completeness_v_measure(labels_true, labels_pred, 1.0)?.homogeneity)
}

/// Completeness (see [`homogeneity_completeness_v_measure`]).
///
/// # Errors
/// As [`contingency_matrix`].
pub fn completeness_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<f64> {
    Ok(homogeneity_completeness_v_measure(labels_true, labels_pred, 1.0)?.completeness)
}

/// V-measure with weight `beta` (see [`homogeneity_completeness_v_measure`]).
///
/// # Errors
/// As [`homogeneity_completeness_v_measure`].
pub fn v_measure_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
    beta: f64,
) -> Result<f64> {
    Ok(homogeneity_completeness_v_measure(labels_true, labels_pred, beta)?.v_measure)
}

/// Fowlkes–Mallows index: the geometric mean of pairwise precision and recall,
/// `TK / √(PK · QK)` with `TK = Σ nᵢⱼ² − N`, `PK = Σ bⱼ² − N`, `QK = Σ aᵢ² − N`; 0 when
/// `TK = 0`.
///
/// # Errors
/// As [`contingency_matrix`].
pub fn fowlkes_mallows_score(
    labels_true: &ArrayRef1<usize>,
    labels_pred: &ArrayRef1<usize>,
) -> Result<f64> {
    let t = table(labels_true, labels_pred, "fowlkes_mallows_score")?;
    let sq = |v: u64| i128::from(v) * i128::from(v);
    let n = i128::from(t.n);
    let tk = t.cells.iter().map(|c| sq(c.2)).sum::<i128>() - n;
    let pk = t.b.iter().map(|&v| sq(v)).sum::<i128>() - n;
    let qk = t.a.iter().map(|&v| sq(v)).sum::<i128>() - n;
    if tk == 0 {
        return Ok(0.0);
    }
    let (tk, pk, qk) = (tk as f64, pk as f64, qk as f64);
    Ok((tk / pk).sqrt() * (tk / qk).sqrt())
}

#[cfg(test)]
#[path = "clustering_tests.rs"]
mod tests;
