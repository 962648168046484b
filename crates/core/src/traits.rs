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
