//! A text classification report (scikit-learn's `classification_report`).

use std::fmt;

use ndarray::ArrayRef1;

use super::classification::{
    AveragedScores, PerClassScores, class_counts, per_class, unique_labels,
};
use super::common::{check_label_pair, sum, weights_f64};
use crate::Result;

/// Per-class precision / recall / F₁ / support, accuracy and the macro and weighted averages.
///
/// `Display` prints scikit-learn's layout; the precision of the formatter sets the digits
/// (default 2): `format!("{report:.4}")`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClassificationReport {
    /// One row per label (F₁ in `fscore`).
    pub per_class: PerClassScores,
    /// Accuracy over all samples.
    pub accuracy: f64,
    /// Unweighted mean over labels.
    pub macro_avg: AveragedScores,
    /// Support-weighted mean over labels.
    pub weighted_avg: AveragedScores,
    /// Total (weighted) number of samples.
    pub total_support: f64,
    /// Display names of the labels (scikit-learn's `target_names`), indexed by label; labels
    /// without a name print as their number. Empty by default; set with
    /// [`ClassificationReport::with_target_names`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub target_names: Vec<String>,
}

impl ClassificationReport {
    /// The report printing `names[label]` instead of each label's number.
    ///
    /// ```
    /// use ndlearn_core::metrics::classification_report;
    /// use ndlearn_core::ndarray::array;
    ///
    /// let r = classification_report(&array![0usize, 1, 1], &array![0usize, 1, 0], None)?
    ///     .with_target_names(&["setosa".to_string(), "versicolor".to_string()]);
    /// let text = format!("{r}");
    /// assert!(text.contains("setosa") && text.contains("versicolor"));
    /// # Ok::<(), ndlearn_core::Error>(())
    /// ```
    #[must_use]
    pub fn with_target_names(mut self, names: &[String]) -> Self {
        self.target_names = names.to_vec();
        self
    }
}

/// Builds a [`ClassificationReport`] over [`unique_labels`].
///
/// # Errors
/// As [`super::accuracy_score`].
///
/// ```
/// use ndlearn_core::metrics::classification_report;
/// use ndlearn_core::ndarray::array;
///
/// let r = classification_report(&array![0usize, 1, 2, 2, 2], &array![0usize, 0, 2, 2, 1], None)?;
/// assert_eq!(r.per_class.labels, vec![0, 1, 2]);
/// assert_eq!(r.accuracy, 0.6);
/// let text = format!("{r}");
/// assert!(text.contains("weighted avg"));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn classification_report(
    y_true: &ArrayRef1<usize>,
    y_pred: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<f64>>,
) -> Result<ClassificationReport> {
    check_label_pair(y_true, y_pred, "classification_report")?;
    let w = weights_f64(sample_weight, y_true.len())?;
    let c = class_counts(y_true, y_pred, unique_labels(y_true, y_pred), &w);
    let pc = per_class(&c, 1.0);
    let k = pc.labels.len() as f64;
    let mean = |v: &ndarray::Array1<f64>| sum(v.iter().copied()) / k;
    let support_total = sum(pc.support.iter().copied());
    let wmean = |v: &ndarray::Array1<f64>| {
        super::common::div0(
            sum(v.iter().zip(&pc.support).map(|(a, b)| a * b)),
            support_total,
        )
    };
    let macro_avg = AveragedScores {
        precision: mean(&pc.precision),
        recall: mean(&pc.recall),
        fscore: mean(&pc.fscore),
    };
    let weighted_avg = AveragedScores {
        precision: wmean(&pc.precision),
        recall: wmean(&pc.recall),
        fscore: wmean(&pc.fscore),
    };
    // Accuracy = micro recall over all labels (every sample's true label is one of them).
    let accuracy = super::common::div0(sum(c.tp.iter().copied()), c.total);
    Ok(ClassificationReport {
        per_class: pc,
        accuracy,
        macro_avg,
        weighted_avg,
        total_support: c.total,
        target_names: Vec::new(),
    })
}

impl fmt::Display for ClassificationReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let digits = f.precision().unwrap_or(2);
        let names: Vec<String> = self
            .per_class
            .labels
            .iter()
            .map(|&l| {
                self.target_names
                    .get(l)
                    .cloned()
                    .unwrap_or_else(|| l.to_string())
            })
            .collect();
        let width = names
            .iter()
            .map(String::len)
            .chain(std::iter::once("weighted avg".len()))
            .max()
            .unwrap_or(12);
        let col = 10.max(digits + 2);
        let sup = |v: f64| {
            if v.fract() == 0.0 {
                format!("{v:.0}")
            } else {
                format!("{v:.digits$}")
            }
        };
        writeln!(
            f,
            "{:>width$} {:>col$} {:>col$} {:>col$} {:>col$}",
            "", "precision", "recall", "f1-score", "support"
        )?;
        writeln!(f)?;
        for (i, name) in names.iter().enumerate() {
            writeln!(
                f,
                "{name:>width$} {:>col$.digits$} {:>col$.digits$} {:>col$.digits$} {:>col$}",
                self.per_class.precision[i],
                self.per_class.recall[i],
                self.per_class.fscore[i],
                sup(self.per_class.support[i]),
            )?;
        }
        writeln!(f)?;
        writeln!(
            f,
            "{:>width$} {:>col$} {:>col$} {:>col$.digits$} {:>col$}",
            "accuracy",
            "",
            "",
            self.accuracy,
            sup(self.total_support),
        )?;
        for (name, a) in [
            ("macro avg", &self.macro_avg),
            ("weighted avg", &self.weighted_avg),
        ] {
            writeln!(
                f,
                "{name:>width$} {:>col$.digits$} {:>col$.digits$} {:>col$.digits$} {:>col$}",
                a.precision,
                a.recall,
                a.fscore,
                sup(self.total_support),
            )?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn report_values_and_text() {
        // Truth 0,1,2,2,2 / prediction 0,0,2,2,1:
        // class 0: TP 1, pred 2, true 1 → P 0.5, R 1, F 2/3
        // class 1: TP 0, pred 1, true 1 → 0, 0, 0
        // class 2: TP 2, pred 2, true 3 → P 1, R 2/3, F 0.8
        let r = classification_report(
            &array![0usize, 1, 2, 2, 2],
            &array![0usize, 0, 2, 2, 1],
            None,
        )
        .expect("ok");
        assert_eq!(r.per_class.precision.to_vec(), vec![0.5, 0.0, 1.0]);
        assert_eq!(r.per_class.recall[2], 2.0 / 3.0);
        assert!((r.per_class.fscore[2] - 0.8).abs() < 1e-15);
        assert!((r.macro_avg.precision - 0.5).abs() < 1e-15);
        // Weighted precision (1·0.5 + 1·0 + 3·1)/5 = 0.7.
        assert!((r.weighted_avg.precision - 0.7).abs() < 1e-15);
        assert_eq!(r.total_support, 5.0);
        let text = format!("{r}");
        assert!(text.contains("precision"));
        assert!(text.contains("0.67"), "{text}");
        assert!(text.contains("accuracy"));
        let precise = format!("{r:.4}");
        assert!(precise.contains("0.6667"), "{precise}");
        assert!(classification_report(&array![0usize], &array![0usize, 1], None).is_err());
    }
}
