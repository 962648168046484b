//! Evaluation metrics: classification, ranking curves, regression, clustering, embeddings.
//!
//! Every metric is a free function returning `f64` (or a small struct of `f64` arrays), named as
//! in `sklearn.metrics`, and checked against scikit-learn 1.9.1
//! (`datasets/golden/core/metrics.json`).
//!
//! | area | functions | scikit-learn |
//! |---|---|---|
//! | confusion matrix | [`confusion_matrix`], [`normalize_confusion_matrix`], [`unique_labels`] | `confusion_matrix` |
//! | accuracy / 0–1 loss | [`accuracy_score`], [`accuracy_count`], [`zero_one_loss`], [`zero_one_loss_count`] | `accuracy_score`, `zero_one_loss` |
//! | rates and F-scores | [`precision_score`], [`recall_score`], [`false_positive_rate`], [`specificity_score`], [`f1_score`], [`fbeta_score`], [`precision_recall_fscore`], [`precision_recall_fscore_support`] | same names (FPR, specificity: not in scikit-learn) |
//! | other label scores | [`balanced_accuracy_score`], [`matthews_corrcoef`], [`cohen_kappa_score`], [`classification_report`] | same names |
//! | probabilistic losses | [`log_loss`], [`log_loss_binary`], [`hinge_loss`], [`hinge_loss_multiclass`], [`brier_score_loss`], [`brier_score_loss_multiclass`] | `log_loss`, `hinge_loss`, `brier_score_loss` |
//! | curves | [`roc_curve`], [`precision_recall_curve`], [`det_curve`], [`confusion_matrix_at_thresholds`], [`auc`] | same names |
//! | ranking scores | [`roc_auc_score`], [`roc_auc_score_ovr`], [`average_precision_score`], [`average_precision_score_ovr`] | `roc_auc_score`, `average_precision_score` |
//! | regression | [`rss`], [`mean_squared_error`] ([`mse`]), [`root_mean_squared_error`] ([`rmse`]), [`mean_absolute_error`] ([`mae`]), [`median_absolute_error`], [`max_error`], [`mean_absolute_percentage_error`], [`r2_score`], [`explained_variance_score`], [`regression_raw_values`], [`regression_multioutput`] | same names, `multioutput=` |
//! | labelings compared | [`contingency_matrix`], [`pair_confusion_matrix`], [`rand_score`], [`adjusted_rand_score`], [`mutual_info_score`], [`normalized_mutual_info_score`], [`adjusted_mutual_info_score`], [`homogeneity_completeness_v_measure`], [`homogeneity_score`], [`completeness_score`], [`v_measure_score`], [`fowlkes_mallows_score`], [`entropy`] | `sklearn.metrics.cluster` |
//! | cluster validity | [`inertia`], [`silhouette_samples`], [`silhouette_score`], [`silhouette_samples_precomputed`], [`silhouette_score_precomputed`], [`davies_bouldin_score`], [`calinski_harabasz_score`] | same names (`inertia`: `KMeans.inertia_`) |
//! | embeddings | [`trustworthiness`] | `sklearn.manifold.trustworthiness` |
//!
//! ```
//! use ndlearn_core::metrics::{accuracy_score, f1_score, roc_auc_score, Average};
//! use ndlearn_core::ndarray::array;
//!
//! let y_true = array![0usize, 0, 1, 1];
//! let y_pred = array![0usize, 1, 1, 1];
//! let scores = array![0.1, 0.6, 0.7, 0.9];
//! assert_eq!(accuracy_score(&y_true, &y_pred, None)?, 0.75);
//! assert!((f1_score(&y_true, &y_pred, Average::Binary { pos_label: 1 }, None)? - 0.8).abs() < 1e-15);
//! assert_eq!(roc_auc_score(&y_true, &scores, None)?, 1.0);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # Conventions
//!
//! * **Inputs.** Class labels are `&ArrayRef1<usize>`; scores, probabilities, regression targets
//!   and data are generic over [`Float`](crate::Float) (`f32`/`f64`) and are converted to `f64`
//!   for the arithmetic, so every metric returns `f64`. Optional sample weights are
//!   `Option<&ArrayRef1<F>>` in the functions that take float input; the label-only
//!   classification metrics take `Option<&ArrayRef1<f64>>` (they have no float argument from
//!   which `F` could be inferred, so `None` would otherwise need a type annotation). Weights
//!   must be finite, non-negative, with a positive sum.
//! * **Orientation.** Confusion matrices have **rows = true class, columns = predicted class**
//!   (as one set of the course notes and scikit-learn; another set uses the transpose,
//!   erratum E1). Binary curves and scores
//!   take labels in `{0, 1}` with 1 positive; probability matrices have one column per class
//!   index.
//! * **Averaging** ([`Average`]): `Binary { pos_label }`, `Macro`, `Micro`, `Weighted` (by
//!   support) as scikit-learn's `average=`; per-class values come from
//!   [`precision_recall_fscore_support`] (`average=None`). Multi-output regression:
//!   [`MultiOutput`].
//! * **Zero division.** A ratio whose denominator is 0 (precision of a never-predicted class,
//!   recall of an absent class, F of a class neither true nor predicted, FPR without negatives)
//!   is **0**, scikit-learn's default `zero_division="warn"` value (scikit-learn also warns;
//!   ndlearn is silent). [`matthews_corrcoef`] is 0 when undefined, as scikit-learn.
//! * **Typed errors** instead of NaN: mismatched lengths ([`Error::ShapeMismatch`]), empty
//!   input ([`Error::TooFewSamples`]), NaN/∞ ([`Error::NonFinite`]), a single class where the
//!   score is undefined — ROC AUC, the ROC/DET curves, silhouette, Cohen's κ without expected
//!   disagreement, adjusted balanced accuracy ([`Error::TooFewClasses`]; scikit-learn returns
//!   NaN or raises), labels outside a probability matrix ([`Error::InvalidLabel`]), bad
//!   parameters ([`Error::InvalidParam`]). R² needs 2 samples.
//! * **Cluster labels** are arbitrary `usize` values; see [`clustering`] for noise labels.
//! * **Threads.** [`roc_auc_score`] and the curves sort in parallel, the silhouette runs
//!   blocks of rows in parallel; both are bitwise identical for any thread count.
//!
//! # References
//!
//! The course notes (catalog M-06, M-07; CL-175…CL-181): rates, confusion matrix, ROC/PR
//! curves (Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27(8), 2006;
//! Davis & Goadrich, "The relationship between precision-recall and ROC curves", ICML 2006),
//! class imbalance (He & Garcia, "Learning from imbalanced data", IEEE TKDE 21(9), 2009); the
//! 0–1 risk (Shalev-Shwartz & Ben-David, *Understanding Machine Learning*, Cambridge University
//! Press (2014), ch. 2; LT-01); RSS/MSE/E_RMS/R² (Bishop, *Pattern Recognition and Machine
//! Learning* (2006), §1.1; scikit-learn user guide: Metrics and scoring) and the clustering SSE.
//! AUC, specificity, balanced accuracy, multi-class averaging, log-loss as a metric, and every
//! clustering/embedding index are implementation choices not in the course notes (catalog §1.13):
//! Hand & Till (2001) and Fawcett (2006) for ROC analysis; Rousseeuw (1987) silhouettes;
//! Hubert & Arabie (1985) ARI; Vinh, Epps & Bailey (2010) AMI; Rosenberg & Hirschberg (2007)
//! V-measure; Davies & Bouldin (1979); Caliński & Harabasz (1974); Venna & Kaski (2001)
//! trustworthiness.

mod agreement;
mod classification;
pub mod clustering;
mod common;
mod embedding;
mod lgamma;
mod probabilistic;
mod ranking;
mod regression;
mod report;
mod silhouette;

#[cfg(doc)]
use crate::Error;

pub use agreement::{KappaWeights, balanced_accuracy_score, cohen_kappa_score, matthews_corrcoef};
pub use classification::{
    Average, AveragedScores, Normalize, PerClassScores, accuracy_count, accuracy_score,
    confusion_matrix, f1_score, false_positive_rate, fbeta_score, normalize_confusion_matrix,
    precision_recall_fscore, precision_recall_fscore_support, precision_score, recall_score,
    specificity_score, unique_labels, zero_one_loss, zero_one_loss_count,
};
pub use clustering::{
    AverageMethod, VMeasure, adjusted_mutual_info_score, adjusted_rand_score, completeness_score,
    contingency_matrix, entropy, fowlkes_mallows_score, homogeneity_completeness_v_measure,
    homogeneity_score, mutual_info_score, normalized_mutual_info_score, pair_confusion_matrix,
    rand_score, v_measure_score,
};
pub use embedding::trustworthiness;
pub use probabilistic::{
    brier_score_loss, brier_score_loss_multiclass, hinge_loss, hinge_loss_multiclass, log_loss,
    log_loss_binary,
};
pub use ranking::{
    DetCurve, PrecisionRecallCurve, RocCurve, ThresholdCounts, auc, average_precision_score,
    average_precision_score_ovr, confusion_matrix_at_thresholds, det_curve, precision_recall_curve,
    roc_auc_score, roc_auc_score_ovr, roc_curve,
};
pub use regression::{
    MultiOutput, RegressionMetric, explained_variance_score, max_error, mean_absolute_error,
    mean_absolute_error as mae, mean_absolute_percentage_error, mean_squared_error,
    mean_squared_error as mse, median_absolute_error, r2_score, regression_multioutput,
    regression_raw_values, root_mean_squared_error, root_mean_squared_error as rmse, rss,
};
pub use report::{ClassificationReport, classification_report};
pub use silhouette::{
    calinski_harabasz_score, davies_bouldin_score, inertia, silhouette_samples,
    silhouette_samples_precomputed, silhouette_score, silhouette_score_precomputed,
};
