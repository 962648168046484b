//! Losses of scored or probabilistic predictions: log loss (cross-entropy), hinge loss, Brier
//! score.
//!
//! Class `c` of a probability or decision matrix is column `c`: `y_true` holds class indices
//! `0..n_classes` (scikit-learn's `labels=range(n_classes)`), so a class absent from `y_true`
//! is allowed. Binary forms take the score of class 1 as a vector and labels in `{0, 1}`.

use ndarray::{ArrayRef1, ArrayRef2};

use super::common::{
    check_len, check_nonempty, finite_2d, finite_f64_1d, sum, weighted_mean, weights_f64,
};
use crate::{Error, Float, Result};

fn check_class_index(y: &ArrayRef1<usize>, n_classes: usize, what: &str) -> Result<()> {
    if let Some((index, &label)) = y.iter().enumerate().find(|(_, v)| **v >= n_classes) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: format!("{what} has {n_classes} columns, so labels must be < {n_classes}"),
        });
    }
    Ok(())
}

fn check_binary_labels(y: &ArrayRef1<usize>) -> Result<()> {
    if let Some((index, &label)) = y.iter().enumerate().find(|(_, v)| **v > 1) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: "binary metrics need labels in {0, 1} (1 = positive class); map other \
                     encodings first"
                .into(),
        });
    }
    Ok(())
}

fn check_probabilities(p: impl Iterator<Item = f64>, name: &'static str) -> Result<()> {
    for (i, v) in p.enumerate() {
        if !(0.0..=1.0).contains(&v) {
            return Err(Error::invalid_param(
                name,
                format!("probabilities must lie in [0, 1]; entry {i} is {v}"),
            ));
        }
    }
    Ok(())
}

/// Checks `y_true` against an `n × k` matrix and returns the validated weights.
fn matrix_inputs<F: Float>(
    y_true: &ArrayRef1<usize>,
    m: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    context: &'static str,
    what: &'static str,
) -> Result<Option<Vec<f64>>> {
    check_nonempty(y_true.len(), context)?;
    check_len(y_true.len(), m.nrows(), context, what)?;
    if m.ncols() < 2 {
        return Err(Error::TooFewClasses {
            context,
            needed: 2,
            found: m.ncols(),
        });
    }
    finite_2d(m, what)?;
    check_class_index(y_true, m.ncols(), what)?;
    weights_f64(sample_weight, y_true.len())
}

/// Log loss (cross-entropy), `−(1/Σw) Σᵢ wᵢ ln p̂ᵢ,yᵢ`, natural log, from an `n × k` probability
/// matrix.
///
/// As scikit-learn ≥ 1.5: probabilities outside `[0, 1]` are an error; each entry is clipped to
/// `[ε, 1 − ε]` with `ε` the machine epsilon of `F` (so a zero probability costs `−ln ε`, about
/// 36.04 for `f64`); rows are **not** renormalised (scikit-learn only warns when a row does not
/// sum to 1; ndlearn computes the same value without a warning).
///
/// # Errors
/// [`Error::ShapeMismatch`] (row count ≠ `y_true` length), [`Error::TooFewSamples`] (empty),
/// [`Error::TooFewClasses`] (fewer than 2 columns), [`Error::NonFinite`],
/// [`Error::InvalidLabel`] (a label `≥ k`), [`Error::InvalidParam`] (an entry outside `[0, 1]`,
/// invalid weights).
///
/// ```
/// use ndlearn_core::metrics::log_loss;
/// use ndlearn_core::ndarray::array;
///
/// let p = array![[0.9, 0.1], [0.2, 0.8]];
/// let l = log_loss(&array![0usize, 1], &p, None)?;
/// assert!((l - (-(0.9f64.ln() + 0.8f64.ln()) / 2.0)).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn log_loss<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_proba: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let w = matrix_inputs(y_true, y_proba, sample_weight, "log_loss", "y_proba")?;
    check_probabilities(y_proba.iter().map(|v| v.to_f64_lossless()), "y_proba")?;
    let eps = F::epsilon();
    let hi = F::one() - eps;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(y_proba.rows())
        .map(|(&y, row)| {
            let p = row[y].max(eps).min(hi);
            -p.to_f64_lossless().ln()
        })
        .collect();
    Ok(weighted_mean(&losses, &w))
}

/// Binary log loss from the probability of class 1: `−mean(y ln p + (1 − y) ln(1 − p))`, with
/// the clipping of [`log_loss`]. `y_true` must be in `{0, 1}`.
///
/// # Errors
/// As [`log_loss`]; [`Error::InvalidLabel`] for a label other than 0 or 1.
pub fn log_loss_binary<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_proba: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    const CTX: &str = "log_loss_binary";
    check_nonempty(y_true.len(), CTX)?;
    check_len(y_true.len(), y_proba.len(), CTX, "y_proba")?;
    let p = finite_f64_1d(y_proba, "y_proba")?;
    check_binary_labels(y_true)?;
    check_probabilities(p.iter().copied(), "y_proba")?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let eps = F::epsilon();
    let hi = F::one() - eps;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(y_proba.iter())
        .map(|(&y, &p1)| {
            // The complementary column is formed in F as scikit-learn does (1 − p, then clip).
            let p = if y == 1 { p1 } else { F::one() - p1 };
            -p.max(eps).min(hi).to_f64_lossless().ln()
        })
        .collect();
    Ok(weighted_mean(&losses, &w))
}

/// Binary hinge loss, `mean(max(0, 1 − y·f))` with `y = +1` for label 1 and `−1` for label 0
/// and `f` the decision value (SVM convention: positive means class 1).
///
/// # Errors
/// [`Error::ShapeMismatch`], [`Error::TooFewSamples`], [`Error::NonFinite`],
/// [`Error::InvalidLabel`] (a label other than 0/1), invalid weights.
///
/// ```
/// use ndlearn_core::metrics::hinge_loss;
/// use ndlearn_core::ndarray::array;
///
/// // margins y·f = 2, 0.5, -1 → losses 0, 0.5, 2
/// let l = hinge_loss(&array![1usize, 0, 1], &array![2.0, -0.5, -1.0], None)?;
/// assert!((l - 2.5 / 3.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn hinge_loss<F: Float>(
    y_true: &ArrayRef1<usize>,
    decision: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    const CTX: &str = "hinge_loss";
    check_nonempty(y_true.len(), CTX)?;
    check_len(y_true.len(), decision.len(), CTX, "decision")?;
    let f = finite_f64_1d(decision, "decision")?;
    check_binary_labels(y_true)?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(&f)
        .map(|(&y, &f)| {
            let s = if y == 1 { 1.0 } else { -1.0 };
            (1.0 - s * f).max(0.0)
        })
        .collect();
    Ok(weighted_mean(&losses, &w))
}

/// Multi-class hinge loss (Crammer–Singer), `mean(max(0, 1 − (f_y − max_{j≠y} f_j)))` from an
/// `n × k` decision matrix.
///
/// # Errors
/// As [`log_loss`] (without the `[0, 1]` check).
pub fn hinge_loss_multiclass<F: Float>(
    y_true: &ArrayRef1<usize>,
    decision: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let w = matrix_inputs(
        y_true,
        decision,
        sample_weight,
        "hinge_loss_multiclass",
        "decision",
    )?;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(decision.rows())
        .map(|(&y, row)| {
            let other = row
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != y)
                .map(|(_, v)| v.to_f64_lossless())
                .fold(f64::NEG_INFINITY, f64::max);
            (1.0 - (row[y].to_f64_lossless() - other)).max(0.0)
        })
        .collect();
    Ok(weighted_mean(&losses, &w))
}

/// Binary Brier score, `mean((p − y)²)` with `p` the probability of class 1 and `y ∈ {0, 1}`.
///
/// # Errors
/// As [`log_loss_binary`].
///
/// ```
/// use ndlearn_core::metrics::brier_score_loss;
/// use ndlearn_core::ndarray::array;
///
/// let b = brier_score_loss(&array![0usize, 1, 1], &array![0.1, 0.9, 0.5], None)?;
/// assert!((b - (0.01 + 0.01 + 0.25) / 3.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn brier_score_loss<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_proba: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    const CTX: &str = "brier_score_loss";
    check_nonempty(y_true.len(), CTX)?;
    check_len(y_true.len(), y_proba.len(), CTX, "y_proba")?;
    let p = finite_f64_1d(y_proba, "y_proba")?;
    check_binary_labels(y_true)?;
    check_probabilities(p.iter().copied(), "y_proba")?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(&p)
        .map(|(&y, &p)| {
            let d = p - y as f64;
            d * d
        })
        .collect();
    Ok(weighted_mean(&losses, &w))
}

/// Multi-class Brier score from an `n × k` probability matrix: `mean(Σ_c (p_c − [y = c])²)`,
/// halved when `k = 2` (scikit-learn's `scale_by_half="auto"`, which makes the 2-column form
/// equal to the binary one).
///
/// # Errors
/// As [`log_loss`].
pub fn brier_score_loss_multiclass<F: Float>(
    y_true: &ArrayRef1<usize>,
    y_proba: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    let w = matrix_inputs(
        y_true,
        y_proba,
        sample_weight,
        "brier_score_loss_multiclass",
        "y_proba",
    )?;
    check_probabilities(y_proba.iter().map(|v| v.to_f64_lossless()), "y_proba")?;
    let losses: Vec<f64> = y_true
        .iter()
        .zip(y_proba.rows())
        .map(|(&y, row)| {
            sum(row.iter().enumerate().map(|(c, v)| {
                let d = v.to_f64_lossless() - f64::from(u8::from(c == y));
                d * d
            }))
        })
        .collect();
    let s = weighted_mean(&losses, &w);
    Ok(if y_proba.ncols() < 3 { 0.5 * s } else { s })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use ndarray::array;

    #[test]
    fn log_loss_clips_and_weights() {
        // A zero probability on the true class costs -ln(eps).
        let p = array![[1.0, 0.0], [0.5, 0.5]];
        let l = log_loss(&array![1usize, 0], &p, None).expect("ok");
        assert!((l - (-(f64::EPSILON.ln()) + 2f64.ln()) / 2.0).abs() < 1e-14);
        // Weighted: (3·ln 2 + 1·(-ln eps)) / 4.
        let w = array![1.0, 3.0];
        let lw = log_loss(&array![1usize, 0], &p, Some(&w)).expect("ok");
        assert!((lw - (3.0 * 2f64.ln() - f64::EPSILON.ln()) / 4.0).abs() < 1e-14);
        // Binary vector form equals the two-column form.
        let pb = array![0.2, 0.7, 0.99];
        let y = array![0usize, 1, 1];
        let m = array![[0.8, 0.2], [0.3, 0.7], [0.01, 0.99]];
        let a = log_loss_binary(&y, &pb, None).expect("ok");
        let b = log_loss(&y, &m, None).expect("ok");
        assert!((a - b).abs() < 1e-15);
        // f32 clips at f32 epsilon.
        let p32 = array![[1.0f32, 0.0]];
        let l32 = log_loss(&array![1usize], &p32, None).expect("ok");
        assert!((l32 + f64::from(f32::EPSILON).ln()).abs() < 1e-6);
    }

    #[test]
    fn errors() {
        let p = array![[0.5, 0.5]];
        assert!(matches!(
            log_loss(&array![2usize], &p, None),
            Err(Error::InvalidLabel { label: 2, .. })
        ));
        assert!(matches!(
            log_loss(&array![0usize, 1], &p, None),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            log_loss(&array![0usize], &array![[1.0]], None),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(matches!(
            log_loss(&array![0usize], &array![[1.5, -0.5]], None),
            Err(Error::InvalidParam {
                name: "y_proba",
                ..
            })
        ));
        assert!(matches!(
            log_loss(&array![0usize], &array![[f64::NAN, 0.5]], None),
            Err(Error::NonFinite { .. })
        ));
        let empty = ndarray::Array2::<f64>::zeros((0, 2));
        assert!(matches!(
            log_loss(&ndarray::Array1::<usize>::zeros(0), &empty, None),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(matches!(
            log_loss_binary(&array![2usize], &array![0.5], None),
            Err(Error::InvalidLabel { .. })
        ));
        assert!(brier_score_loss(&array![1usize], &array![1.1], None).is_err());
        assert!(hinge_loss(&array![1usize], &array![f64::INFINITY], None).is_err());
        assert!(hinge_loss(&array![1usize], &array![1.0], Some(&array![-1.0])).is_err());
    }

    #[test]
    fn hinge_and_brier_hand_values() {
        // Multi-class: rows (true 0) [2, 1, 0] margin 1 → 0; (true 2) [1, 0.5, 0.2] margin
        // 0.2 - 1 = -0.8 → 1.8.
        let d = array![[2.0, 1.0, 0.0], [1.0, 0.5, 0.2]];
        let l = hinge_loss_multiclass(&array![0usize, 2], &d, None).expect("ok");
        assert!((l - 0.9).abs() < 1e-15);
        // Brier, 3 classes (not halved): (0.1² + 0.1² + 0.2²... ) by hand:
        // row [0.7, 0.2, 0.1] true 0 → 0.09 + 0.04 + 0.01 = 0.14.
        let p = array![[0.7, 0.2, 0.1]];
        let b = brier_score_loss_multiclass(&array![0usize], &p, None).expect("ok");
        assert!((b - 0.14).abs() < 1e-15);
        // Two columns: halved, equal to the binary form.
        let p2 = array![[0.3, 0.7], [0.6, 0.4]];
        let b2 = brier_score_loss_multiclass(&array![1usize, 0], &p2, None).expect("ok");
        let bb = brier_score_loss(&array![1usize, 0], &array![0.7, 0.4], None).expect("ok");
        assert!((b2 - bb).abs() < 1e-15);
    }
}
