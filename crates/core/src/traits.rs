//! The estimator traits every ndlearn algorithm implements.
//!
//! An algorithm has exactly two types: the *estimator* (hyperparameters only, named after the
//! algorithm, e.g. `Ridge`) and the *fitted model* (`FittedRidge<F>`) returned by `fit`. Since only
//! the fitted type implements [`Predict`] / [`Transform`], "predict before fit" does not compile.
//!
//! Inputs are borrowed as `&ArrayRef2<F>` (ndarray 0.17's reference type), so owned arrays, views
//! and slices of either can be passed with `&x` without copies. Class labels are `usize` in
//! `0..n_classes` (use a label encoder for anything else).

use ndarray::{Array2, ArrayRef1, ArrayRef2};

use crate::{Float, Result};

/// Class labels as the estimators see them: `usize` in `0..n_classes`.
pub type Labels = ArrayRef1<usize>;

/// The contract of every estimator (hyperparameter struct): it checks its own hyperparameters.
///
/// `fit` calls [`validate`](Estimator::validate) before it touches the data, so a bad
/// hyperparameter is reported as [`Error::InvalidParam`](crate::Error::InvalidParam) whatever
/// the data (even empty or non-finite data); the registry calls it as soon as an estimator is
/// built from `key=value` strings or a model file, before any data is read. The conformance
/// battery checks both rules for every registered estimator.
///
/// ```
/// use ndlearn_core::{Estimator, Error, Result};
///
/// struct Shrink { alpha: f64 }
/// impl Estimator for Shrink {
///     fn validate(&self) -> Result<()> {
///         ndlearn_core::validate::check_non_negative("alpha", self.alpha)
///     }
/// }
/// assert!(matches!(Shrink { alpha: -1.0 }.validate(), Err(Error::InvalidParam { .. })));
/// ```
pub trait Estimator {
    /// Checks every hyperparameter (ranges, combinations).
    ///
    /// # Errors
    /// [`Error::InvalidParam`](crate::Error::InvalidParam) naming the first bad hyperparameter.
    fn validate(&self) -> Result<()>;
}

/// A supervised estimator: fit on features `x` (`n_samples × n_features`) and a target.
pub trait Fit<F: Float> {
    /// The target type: `ArrayRef1<F>` (regression), `ArrayRef2<F>` (multi-output) or
    /// [`Labels`] (classification).
    type Target: ?Sized;
    /// The fitted model.
    type Model;
    /// Validates the hyperparameters and the data, then fits.
    fn fit(&self, x: &ArrayRef2<F>, y: &Self::Target) -> Result<Self::Model>;
}

/// A supervised estimator that accepts per-sample weights.
///
/// `sample_weight = None` is the same as `fit`; with weights, every estimator of the workspace
/// follows one rule, scikit-learn's: a weight multiplies the sample's term in the objective, so
/// an integer weight `k` is the same as `k` copies of the row (the conformance battery checks it
/// where the fit is deterministic). Weights must be finite and non-negative with a positive sum
/// ([`check_sample_weight`](crate::validate::check_sample_weight)).
pub trait FitWeighted<F: Float>: Fit<F> {
    /// Fits with optional per-sample weights (length `n_samples`).
    ///
    /// # Errors
    /// As [`Fit::fit`], and invalid weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &Self::Target,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model>;
}

/// An unsupervised estimator that accepts per-sample weights (the same rule as
/// [`FitWeighted`]).
pub trait FitUnsupervisedWeighted<F: Float>: FitUnsupervised<F> {
    /// Fits with optional per-sample weights (length `n_samples`).
    ///
    /// # Errors
    /// As [`FitUnsupervised::fit`], and invalid weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model>;
}

/// A fitted model that knows the number of input features it was fitted on (scikit-learn's
/// `n_features_in_`); `predict` / `transform` reject any other width.
pub trait NFeaturesIn {
    /// The number of feature columns at fit time.
    fn n_features_in(&self) -> usize;
}

/// An unsupervised estimator (clustering, decomposition, scalers): fit on features only.
pub trait FitUnsupervised<F: Float> {
    /// The fitted model.
    type Model;
    /// Validates the hyperparameters and the data, then fits.
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model>;
}

/// A fitted model that predicts one output per row.
pub trait Predict<F: Float> {
    /// `Array1<usize>` for classifiers and clusterers, `Array1<F>` / `Array2<F>` for regressors.
    type Output;
    /// Predicts for each row of `x`. Errors on a feature count different from the fit, or on
    /// non-finite input.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Self::Output>;
}

/// A fitted classifier (or mixture model) that gives class probabilities.
pub trait PredictProba<F: Float>: Predict<F> {
    /// Probabilities, `n_samples × n_classes`, each row summing to one; column `k` is class `k`.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// A fitted classifier that gives real-valued decision scores (signed distances to the
/// boundary, log-odds, or any score that grows with the confidence in a class).
///
/// The shape follows scikit-learn's `decision_function`, kept 2-D: for a **two-class** model
/// one column, the score of class 1 (positive means class 1 is favoured; the model's own
/// `predict` decides which class an exact 0 goes to); for `K ≥ 3` classes `K` columns, column
/// `k` scoring class `k` (larger is more likely). Meta-estimators such as one-vs-rest and
/// one-vs-one in ndlearn-linear rank and vote with these scores.
pub trait DecisionFunction<F: Float> {
    /// Scores, `n_samples × 1` (two classes) or `n_samples × n_classes`. Errors on a feature
    /// count different from the fit, or on non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// A fitted transformer (scaler, decomposition, embedding with out-of-sample extension).
pub trait Transform<F: Float> {
    /// Maps each row of `x` to the new representation.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// A fitted transformer that can map back to the input space.
pub trait InverseTransform<F: Float>: Transform<F> {
    /// Maps rows of the transformed space back to the input space (exactly, or the best
    /// approximation the method defines, as documented by the implementor).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// Streaming (incremental) fitting, one batch at a time.
///
/// The estimator stays immutable: the state travels in the model. Pass `None` for the first
/// batch and the returned model for each following one; the result after covering the data in
/// batches is what the implementor documents (for exact methods, the same as one `fit`).
pub trait PartialFit<F: Float> {
    /// The target type (`()` for unsupervised estimators).
    type Target: ?Sized;
    /// The fitted model that carries the streaming state.
    type Model;
    /// Updates `model` (or starts a new one) with one batch.
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        y: &Self::Target,
    ) -> Result<Self::Model>;
}

/// A fitted outlier (novelty) detector, in scikit-learn's convention: [`score_samples`]
/// grows with normality, `decision_function = score_samples − offset` is negative for
/// outliers, and `predict` (through [`Predict`]) gives `+1` (inlier, decision `≥ 0`) or `−1`
/// (outlier).
///
/// [`score_samples`]: OutlierDetector::score_samples
pub trait OutlierDetector<F: Float>: Predict<F, Output = ndarray::Array1<i64>> {
    /// The normality score of each row (larger = more normal).
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input.
    fn score_samples(&self, x: &ArrayRef2<F>) -> Result<ndarray::Array1<F>>;

    /// The threshold subtracted from the scores (scikit-learn's `offset_`).
    fn offset(&self) -> F;

    /// `score_samples − offset`: negative for outliers.
    ///
    /// # Errors
    /// As [`score_samples`](OutlierDetector::score_samples).
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<ndarray::Array1<F>> {
        let off = self.offset();
        Ok(self.score_samples(x)?.mapv(|s| s - off))
    }
}

/// A fitted clusterer that leaves some rows unassigned (noise, scikit-learn's label `−1`).
pub trait PredictWithNoise<F: Float> {
    /// The cluster of every row, `−1` for noise.
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input.
    fn predict_with_noise(&self, x: &ArrayRef2<F>) -> Result<ndarray::Array1<i64>>;
}

/// A supervised estimator that also fits several real targets at once (multi-output
/// regression): one column of `y` per output.
pub trait FitMultiOutput<F: Float>: Fit<F> {
    /// Fits on `x` (`n × d`) and `y` (`n × k`).
    ///
    /// # Errors
    /// As [`Fit::fit`], with `y` checked as a matrix.
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Self::Model>;
}

/// A fitted model of one or several real outputs.
pub trait PredictMultiOutput<F: Float> {
    /// The number of outputs `k` it was fitted on (1 after a single-target fit).
    fn n_outputs(&self) -> usize;
    /// Predictions `n × k` (one column per output; `n × 1` for a single-target fit).
    ///
    /// # Errors
    /// As [`Predict::predict`].
    fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// A classifier that also fits multi-label targets: an indicator matrix, `y[i, k] = true` when
/// sample `i` carries label `k` (scikit-learn's multilabel-indicator format).
pub trait FitMultiLabel<F: Float>: Fit<F> {
    /// Fits on `x` (`n × d`) and the indicator matrix `y` (`n × k`).
    ///
    /// # Errors
    /// As [`Fit::fit`], with `y` checked as an indicator matrix.
    fn fit_multilabel(&self, x: &ArrayRef2<F>, y: &ArrayRef2<bool>) -> Result<Self::Model>;
}

/// A fitted classifier that may predict label sets.
pub trait PredictMultiLabel<F: Float> {
    /// Whether the model was fitted on an indicator matrix.
    fn is_multilabel(&self) -> bool;
    /// The predicted indicator matrix (`n × k`).
    ///
    /// # Errors
    /// As [`Predict::predict`]; a model fitted on single labels.
    fn predict_multilabel(&self, x: &ArrayRef2<F>) -> Result<Array2<bool>>;
}

/// A fitted model that scores its input features, for embedded feature selection
/// (`SelectFromModel`, recursive feature elimination) and reporting.
///
/// Linear models return `|w_j|` (summed over outputs or classes, as scikit-learn's
/// `SelectFromModel` does with `norm_order = 1`); tree ensembles their impurity decrease. The
/// result has one entry per input feature, all finite and non-negative.
pub trait FeatureImportances<F: Float> {
    /// One non-negative score per input feature.
    fn feature_importances(&self) -> ndarray::Array1<F>;
}
