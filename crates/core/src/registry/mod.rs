//! Run-time registry of estimators, for the `ndlearn` command line, the benchmark runner, the
//! registry-wide conformance battery and any program that picks an algorithm by name.
//!
//! Every algorithm crate exposes `pub fn registry() -> Vec<Entry>` listing each of its estimators
//! once. An [`Entry`] is built from the estimator type alone and knows
//!
//! * its name (the snake_case of the scikit-learn class, e.g. `ridge`, `kmeans`) and aliases
//!   (the class name in snake_case when it differs, e.g. `k_means`), and the scikit-learn class;
//! * its [`Kind`] and [`Capabilities`] (probabilities, decision function, feature importances,
//!   inverse transform, sample weights, `partial_fit`, multi-output and multi-label targets,
//!   missing values, outlier scores, noise labels, a "heavy" hint for the benchmark suites);
//! * its hyperparameters with types, defaults and accepted names (read off the serde form of
//!   `Default::default()`: scikit-learn's names, e.g. `C`, `random_state`, `n_components`, with
//!   the Rust field spellings as aliases);
//! * how to build it from `key=value` strings or JSON, check it ([`Estimator::validate`], before
//!   any data are read), fit it on f64 or f32 data ([`Data`]) with optional sample weights,
//!   continue it with `partial_fit`, and save and load the fitted model as JSON (bit-exact).
//!
//! # `key=value`
//!
//! Values are parsed by the type of the default (`alpha=0.5`, `max_iter=100`,
//! `fit_intercept=false`, `solver=svd`); any parameter also takes JSON (`class_weight={"0": 2}`),
//! and a value that is not of the default's type is tried as JSON (`n_components=0.95`,
//! `n_components=mle`). Struct-variant parameters take flat keys as scikit-learn users write
//! them: `kernel=rbf gamma=0.1` fills `{"rbf": {"gamma": 0.1}}`, `metric=minkowski p=3` fills
//! `{"minkowski": {"p": 3}}`. Names are matched exactly, then case-insensitively, then through
//! the aliases. Unknown names and ill-typed values are typed errors that list what is valid.
//!
//! ```
//! use ndlearn_core::registry::{Entry, Kind};
//! # use ndlearn_core::{Estimator, Fit, NFeaturesIn, Predict, Result, ndarray::{Array1, ArrayRef1, ArrayRef2}};
//! # #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
//! # struct MeanRegressor { shift: f64 }
//! # impl Estimator for MeanRegressor { fn validate(&self) -> Result<()> { Ok(()) } }
//! # #[derive(serde::Serialize, serde::Deserialize)]
//! # struct FittedMean<F> { mean: F, shift: f64, d: usize }
//! # impl<F: ndlearn_core::Float> Fit<F> for MeanRegressor {
//! #     type Target = ArrayRef1<F>;
//! #     type Model = FittedMean<F>;
//! #     fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedMean<F>> {
//! #         Ok(FittedMean { mean: y.mean().unwrap_or(F::zero()), shift: self.shift, d: x.ncols() })
//! #     }
//! # }
//! # impl<F: ndlearn_core::Float> Predict<F> for FittedMean<F> {
//! #     type Output = Array1<F>;
//! #     fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
//! #         Ok(Array1::from_elem(x.nrows(), self.mean + F::cast(self.shift)))
//! #     }
//! # }
//! # impl<F> NFeaturesIn for FittedMean<F> { fn n_features_in(&self) -> usize { self.d } }
//! // What a model file must satisfy before `Entry::load` hands the model out.
//! impl<F: ndlearn_core::Float> ndlearn_core::CheckModel for FittedMean<F> {
//!     fn check_model(&self) -> Result<()> {
//!         let c = ndlearn_core::validate::ModelCheck::new("FittedMean");
//!         c.at_least("d", self.d, 1)?;
//!         c.finite_value("mean", self.mean)?;
//!         c.finite_value("shift", self.shift)
//!     }
//! }
//! let entry: Entry = Entry::regressor::<MeanRegressor>("mean_regressor", "predicts the training mean")
//!     .sklearn("DummyRegressor")
//!     .into();
//! assert_eq!(entry.kind(), Kind::Regressor);
//! assert_eq!(entry.params()?[0].name, "shift");
//! assert!(entry.aliases().contains(&"dummy_regressor".to_string()));
//! let est = entry.build(&[("shift".into(), "1.5".into())])?;
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

mod migrate;
mod params;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

pub use migrate::{MODEL_FORMAT_VERSION, migrate};
pub use params::{ParamInfo, ParamType, class_snake_case, snake_case};

use crate::traits::{
    DecisionFunction, Estimator, FeatureImportances, Fit, FitMultiLabel, FitMultiOutput,
    FitUnsupervised, FitUnsupervisedWeighted, FitWeighted, InverseTransform, NFeaturesIn,
    OutlierDetector, PartialFit, Predict, PredictMultiLabel, PredictMultiOutput, PredictProba,
    PredictWithNoise, Transform,
};
use crate::validate::CheckModel;
use crate::{Error, Float, Result};

/// What an estimator does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Predicts class labels (targets are labels).
    Classifier,
    /// Predicts real values.
    Regressor,
    /// Groups rows (no target at fit).
    Clusterer,
    /// Maps rows to a new representation (no target at fit).
    Transformer,
    /// Tells inliers (`+1`) from outliers (`−1`), with scores (no target at fit).
    OutlierDetector,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Classifier => "classifier",
            Kind::Regressor => "regressor",
            Kind::Clusterer => "clusterer",
            Kind::Transformer => "transformer",
            Kind::OutlierDetector => "outlier_detector",
        })
    }
}

impl Kind {
    /// Whether `fit` takes a target.
    pub fn is_supervised(self) -> bool {
        matches!(self, Kind::Classifier | Kind::Regressor)
    }
}

/// Element type of the data a model was fitted on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Precision {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
}

/// A feature matrix of either precision.
#[derive(Clone, Debug)]
pub enum Data {
    /// `f64` data.
    F64(Array2<f64>),
    /// `f32` data.
    F32(Array2<f32>),
}

impl Data {
    /// The element type.
    pub fn precision(&self) -> Precision {
        match self {
            Data::F64(_) => Precision::F64,
            Data::F32(_) => Precision::F32,
        }
    }
    /// `(n_samples, n_features)`.
    pub fn dim(&self) -> (usize, usize) {
        match self {
            Data::F64(a) => a.dim(),
            Data::F32(a) => a.dim(),
        }
    }
    /// The data as f64 (a copy).
    pub fn to_f64(&self) -> Array2<f64> {
        match self {
            Data::F64(a) => a.clone(),
            Data::F32(a) => a.mapv(f64::from),
        }
    }
    /// The same values in `precision`.
    pub fn with_precision(&self, precision: Precision) -> Data {
        match precision {
            Precision::F64 => Data::F64(cast_data(self).into_owned()),
            Precision::F32 => Data::F32(cast_data(self).into_owned()),
        }
    }
}

/// The target passed to `fit`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Target {
    /// No target (clusterers, transformers, outlier detectors).
    None,
    /// Class labels in `0..n_classes`.
    Labels(Array1<usize>),
    /// Real values (converted to the data's precision).
    Values(Array1<f64>),
    /// Several real targets, one column each (multi-output regression).
    Matrix(Array2<f64>),
    /// A multi-label indicator matrix (`true`: sample `i` has label `k`).
    Indicators(Array2<bool>),
}

impl Target {
    /// The number of rows the target describes (`None` for [`Target::None`]).
    pub fn len(&self) -> Option<usize> {
        match self {
            Target::None => None,
            Target::Labels(l) => Some(l.len()),
            Target::Values(v) => Some(v.len()),
            Target::Matrix(m) => Some(m.nrows()),
            Target::Indicators(m) => Some(m.nrows()),
        }
    }

    /// `true` for [`Target::None`].
    pub fn is_empty(&self) -> bool {
        matches!(self, Target::None)
    }
}

/// What `predict` / `transform` returned, widened to f64.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Output {
    /// Class or cluster labels.
    Labels(Array1<usize>),
    /// One real value per row.
    Values(Array1<f64>),
    /// One row per input row (transformers, multi-output regression).
    Matrix(Array2<f64>),
    /// Signed labels: `+1` / `−1` of outlier detectors, clusters with `−1` for noise.
    Signed(Array1<i64>),
    /// A multi-label indicator matrix.
    Indicators(Array2<bool>),
}

impl Output {
    /// The number of rows.
    pub fn len(&self) -> usize {
        match self {
            Output::Labels(l) => l.len(),
            Output::Values(v) => v.len(),
            Output::Matrix(m) => m.nrows(),
            Output::Signed(s) => s.len(),
            Output::Indicators(m) => m.nrows(),
        }
    }

    /// `true` when there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether every real value is finite (always `true` for labels).
    pub fn is_finite(&self) -> bool {
        match self {
            Output::Values(v) => slice_finite(v),
            Output::Matrix(m) => slice_finite(m),
            _ => true,
        }
    }
}

/// How a `partial_fit` over the whole data relates to `fit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartialFitKind {
    /// One `partial_fit` over all the rows gives the model of `fit` (sufficient statistics).
    Exact,
    /// An online approximation (one epoch or step per call).
    Approximate,
}

/// What an entry's estimator and models can do beyond `fit` / `predict`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct Capabilities {
    /// `predict_proba`.
    pub predict_proba: bool,
    /// `decision_function` (classifiers: `n × 1` or `n × K`; outlier detectors `n × 1`).
    pub decision_function: bool,
    /// `score_samples` (outlier detectors).
    pub score_samples: bool,
    /// `feature_importances`.
    pub feature_importances: bool,
    /// `inverse_transform`.
    pub inverse_transform: bool,
    /// `fit` with per-sample weights.
    pub sample_weight: bool,
    /// `partial_fit`, and how it relates to `fit`.
    pub partial_fit: Option<PartialFitKind>,
    /// Targets with several columns ([`Target::Matrix`]).
    pub multi_output: bool,
    /// Multi-label indicator targets ([`Target::Indicators`]).
    pub multilabel: bool,
    /// NaN in the features is read as a missing value (not an error).
    pub missing_values: bool,
    /// Cluster labels may be `−1` (noise), as [`Output::Signed`].
    pub noise: bool,
    /// Slow on thousands of rows (the quick benchmark suite runs it on a subset).
    pub heavy: bool,
    /// The fit depends on the order and number of rows beyond their weights (stochastic
    /// optimisation): integer weights are not the same as repeated rows.
    pub stochastic: bool,
    /// Sample weights scale per-sample bounds (SVMs: `Cᵢ = C wᵢ`) while data-dependent
    /// defaults (`gamma = "scale"`, `ν n`) count rows: integer weights are not repeated rows,
    /// as for scikit-learn's SVMs.
    pub weights_not_repetition: bool,
    /// Features must be non-negative (counts, NMF).
    pub non_negative_input: bool,
    /// Features must be category codes `0, 1, 2, …`.
    pub categorical_input: bool,
    /// Inputs unlike the training data (unknown categories, no neighbour within the radius)
    /// are refused at predict with a typed error under the default hyperparameters, as
    /// scikit-learn does.
    pub refuses_unseen: bool,
}

/// An estimator with its hyperparameters set, ready to fit any [`Data`].
pub trait DynEstimator: Send + Sync {
    /// The hyperparameters as JSON (the serde form of the estimator).
    fn params(&self) -> Value;
    /// Checks the hyperparameters ([`Estimator::validate`]).
    ///
    /// # Errors
    /// [`Error::InvalidParam`].
    fn validate(&self) -> Result<()>;
    /// Fits on `x` (either precision) and `y` (matching the estimator's kind).
    ///
    /// # Errors
    /// The estimator's errors; a target of the wrong kind.
    fn fit(&self, x: &Data, y: &Target) -> Result<Box<dyn DynModel>> {
        self.fit_weighted(x, y, None)
    }
    /// Fits with optional per-sample weights.
    ///
    /// # Errors
    /// As [`DynEstimator::fit`]; weights for an estimator without the capability.
    fn fit_weighted(
        &self,
        x: &Data,
        y: &Target,
        sample_weight: Option<&Array1<f64>>,
    ) -> Result<Box<dyn DynModel>>;
    /// Continues `model` (or starts a new one) with one batch.
    ///
    /// # Errors
    /// As [`DynEstimator::fit`]; an estimator without `partial_fit`; a model of another entry.
    fn partial_fit(
        &self,
        model: Option<Box<dyn DynModel>>,
        x: &Data,
        y: &Target,
    ) -> Result<Box<dyn DynModel>>;
}

/// A fitted model behind a uniform interface.
pub trait DynModel: Send + Sync + Any {
    /// The element type it was fitted on (data passed later are converted to it).
    fn precision(&self) -> Precision;
    /// Number of input features it expects.
    fn n_features_in(&self) -> usize;
    /// Labels (classifiers, clusterers), values (regressors), the transform (transformers),
    /// `±1` (outlier detectors).
    ///
    /// # Errors
    /// The model's errors (feature count, non-finite input).
    fn predict(&self, x: &Data) -> Result<Output>;
    /// Class probabilities, when the model has them (`None` otherwise).
    fn predict_proba(&self, x: &Data) -> Option<Result<Array2<f64>>>;
    /// Decision scores, when the model has them (`None` otherwise): `n × 1` for two classes and
    /// for outlier detectors, `n × K` otherwise.
    fn decision_function(&self, x: &Data) -> Option<Result<Array2<f64>>>;
    /// Normality scores of an outlier detector (`None` otherwise).
    fn score_samples(&self, x: &Data) -> Option<Result<Array1<f64>>>;
    /// The transform, for transformers (`None` otherwise).
    fn transform(&self, x: &Data) -> Option<Result<Array2<f64>>>;
    /// The inverse transform, when the model has one (`None` otherwise).
    fn inverse_transform(&self, z: &Data) -> Option<Result<Array2<f64>>>;
    /// Feature importances, when the model has them (`None` otherwise).
    fn feature_importances(&self) -> Option<Array1<f64>>;
    /// The fitted state as JSON (the serde form of the model).
    ///
    /// # Errors
    /// A serialisation failure; [`Error::NonFiniteResult`] for a state holding NaN or
    /// infinity (JSON cannot store them, so the file could not be read back).
    fn to_json(&self) -> Result<Value>;
    /// The model as `Any` (for `partial_fit`, which needs the concrete type back).
    fn into_any(self: Box<Self>) -> Box<dyn Any>;
}

// ---------------------------------------------------------------------------------------------
// Targets

/// A target type an estimator's `fit` takes, built from a [`Target`].
pub trait TargetArg<F: Float> {
    /// The owned value the conversion produces.
    type Owned;
    /// Converts (and for values, casts) the target.
    ///
    /// # Errors
    /// A target of the wrong kind.
    fn convert(y: &Target) -> Result<Self::Owned>;
    /// Borrows the converted value as the type `fit` takes.
    fn view(o: &Self::Owned) -> &Self;
}

impl<F: Float> TargetArg<F> for ArrayRef1<usize> {
    type Owned = Array1<usize>;
    fn convert(y: &Target) -> Result<Array1<usize>> {
        match y {
            Target::Labels(l) => Ok(l.clone()),
            _ => Err(Error::invalid_param(
                "target",
                "a classifier needs class labels as its target",
            )),
        }
    }
    fn view(o: &Array1<usize>) -> &ArrayRef1<usize> {
        o
    }
}

impl<F: Float> TargetArg<F> for ArrayRef1<F> {
    type Owned = Array1<F>;
    fn convert(y: &Target) -> Result<Array1<F>> {
        match y {
            Target::Values(v) => Ok(v.mapv(F::cast)),
            Target::Labels(l) => Ok(l.mapv(F::cast)),
            Target::Matrix(m) if m.ncols() == 1 => Ok(m.column(0).mapv(F::cast)),
            Target::Matrix(_) => Err(Error::invalid_param(
                "target",
                "this regressor fits one target column (it is not multi-output)",
            )),
            _ => Err(Error::invalid_param(
                "target",
                "a regressor needs a target column",
            )),
        }
    }
    fn view(o: &Array1<F>) -> &ArrayRef1<F> {
        o
    }
}

impl<F: Float> TargetArg<F> for () {
    type Owned = ();
    fn convert(_: &Target) -> Result<()> {
        Ok(())
    }
    fn view(o: &()) -> &() {
        o
    }
}

fn json_err(what: &str, e: impl fmt::Display) -> Error {
    Error::Parse {
        line: 0,
        column: 0,
        reason: format!("{what}: {e}"),
    }
}

fn to_f64<F: Float>(a: Array2<F>) -> Array2<f64> {
    a.mapv(|v| v.to_f64_lossless())
}

fn to_f64_1<F: Float>(a: Array1<F>) -> Array1<f64> {
    a.mapv(|v| v.to_f64_lossless())
}

/// The data in precision `F`: borrowed when it already is (no copy of the input on every
/// predict), converted otherwise.
fn cast_data<F: Float>(x: &Data) -> ndarray::CowArray<'_, F, ndarray::Ix2> {
    fn borrow_or_cast<S: Float, F: Float>(a: &Array2<S>) -> ndarray::CowArray<'_, F, ndarray::Ix2> {
        match (a as &dyn std::any::Any).downcast_ref::<Array2<F>>() {
            Some(same) => same.view().into(),
            None => a.mapv(F::cast).into(),
        }
    }
    match x {
        Data::F64(a) => borrow_or_cast(a),
        Data::F32(a) => borrow_or_cast(a),
    }
}

fn no_weights(w: Option<&Array1<f64>>, name: &str) -> Result<()> {
    match w {
        None => Ok(()),
        Some(_) => Err(Error::invalid_param(
            "sample_weight",
            format!("{name} does not take sample weights"),
        )),
    }
}

// ---------------------------------------------------------------------------------------------
// Per-precision operations

/// A model method returning one row per input row.
type MatrixFn<F, M> = fn(&M, &ArrayRef2<F>) -> Result<Array2<F>>;
/// A model method returning one value per input row.
type VectorFn<F, M> = fn(&M, &ArrayRef2<F>) -> Result<Array1<F>>;
/// `fit` with an optional weight vector.
type FitFn<E, F, M> = fn(&E, &ArrayRef2<F>, &Target, Option<&ArrayRef1<F>>) -> Result<M>;
/// `partial_fit`.
type PartialFn<E, F, M> = fn(&E, Option<M>, &ArrayRef2<F>, &Target) -> Result<M>;

/// Per-precision operations of a fitted model of type `M` over element type `F`.
struct Ops<F: Float, M> {
    predict: fn(&M, &ArrayRef2<F>) -> Result<Output>,
    proba: Option<MatrixFn<F, M>>,
    decision: Option<MatrixFn<F, M>>,
    score_samples: Option<VectorFn<F, M>>,
    transform: Option<MatrixFn<F, M>>,
    inverse: Option<MatrixFn<F, M>>,
    importances: Option<fn(&M) -> Array1<F>>,
    n_features: fn(&M) -> usize,
}

impl<F: Float, M> Clone for Ops<F, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Float, M> Copy for Ops<F, M> {}

impl<F: Float, M: NFeaturesIn> Ops<F, M> {
    fn new(predict: fn(&M, &ArrayRef2<F>) -> Result<Output>) -> Self {
        Ops {
            predict,
            proba: None,
            decision: None,
            score_samples: None,
            transform: None,
            inverse: None,
            importances: None,
            n_features: |m| m.n_features_in(),
        }
    }
}

enum Either<A, B> {
    F64(A),
    F32(B),
}

struct Fitted<M64, M32> {
    name: &'static str,
    model: Either<M64, M32>,
    ops64: Ops<f64, M64>,
    ops32: Ops<f32, M32>,
    json: Value,
}

macro_rules! dispatch_matrix {
    ($self:ident, $op:ident, $x:ident) => {
        match &$self.model {
            Either::F64(m) => $self.ops64.$op.map(|f| f(m, &cast_data::<f64>($x))),
            Either::F32(m) => $self
                .ops32
                .$op
                .map(|f| f(m, &cast_data::<f32>($x)).map(to_f64)),
        }
        .map(|r| r.and_then(|a| finite_result($self.name, stringify!($op), a)))
    };
}

/// Whether every entry is finite: the vectorised scan of [`crate::validate::all_finite`] over
/// contiguous memory, an element walk otherwise.
fn slice_finite<D: ndarray::Dimension>(a: &ndarray::ArrayRef<f64, D>) -> bool {
    match a.as_slice_memory_order() {
        Some(s) => crate::validate::all_finite(s),
        None => a.iter().all(|v| v.is_finite()),
    }
}

/// `Ok(a)` when every entry is finite, [`Error::NonFiniteResult`] otherwise: a model behind
/// the registry never returns NaN or infinity without an error.
fn finite_result<D: ndarray::Dimension>(
    name: &'static str,
    method: &str,
    a: ndarray::Array<f64, D>,
) -> Result<ndarray::Array<f64, D>> {
    if slice_finite(&a) {
        Ok(a)
    } else {
        Err(Error::NonFiniteResult {
            context: name,
            reason: format!("{method} gave a non-finite value"),
        })
    }
}

impl<M64, M32> DynModel for Fitted<M64, M32>
where
    M64: Serialize + DeserializeOwned + Send + Sync + 'static,
    M32: Serialize + DeserializeOwned + Send + Sync + 'static,
{
    fn precision(&self) -> Precision {
        match self.model {
            Either::F64(_) => Precision::F64,
            Either::F32(_) => Precision::F32,
        }
    }
    fn n_features_in(&self) -> usize {
        match &self.model {
            Either::F64(m) => (self.ops64.n_features)(m),
            Either::F32(m) => (self.ops32.n_features)(m),
        }
    }
    fn predict(&self, x: &Data) -> Result<Output> {
        let out = match &self.model {
            Either::F64(m) => (self.ops64.predict)(m, &cast_data::<f64>(x)),
            Either::F32(m) => (self.ops32.predict)(m, &cast_data::<f32>(x)),
        }?;
        if out.is_finite() {
            Ok(out)
        } else {
            Err(Error::NonFiniteResult {
                context: self.name,
                reason: "predict gave a non-finite value".into(),
            })
        }
    }
    fn predict_proba(&self, x: &Data) -> Option<Result<Array2<f64>>> {
        dispatch_matrix!(self, proba, x)
    }
    fn decision_function(&self, x: &Data) -> Option<Result<Array2<f64>>> {
        dispatch_matrix!(self, decision, x)
    }
    fn transform(&self, x: &Data) -> Option<Result<Array2<f64>>> {
        dispatch_matrix!(self, transform, x)
    }
    fn inverse_transform(&self, z: &Data) -> Option<Result<Array2<f64>>> {
        dispatch_matrix!(self, inverse, z)
    }
    fn score_samples(&self, x: &Data) -> Option<Result<Array1<f64>>> {
        let name = self.name;
        match &self.model {
            Either::F64(m) => self.ops64.score_samples.map(|f| f(m, &cast_data::<f64>(x))),
            Either::F32(m) => self
                .ops32
                .score_samples
                .map(|f| f(m, &cast_data::<f32>(x)).map(to_f64_1)),
        }
        .map(|r| {
            r.and_then(|s| {
                // A log-density is −∞ where the density is exactly zero (a compact kernel far
                // from the data), as in scikit-learn; NaN and +∞ are errors.
                if s.iter().all(|v| !v.is_nan() && *v != f64::INFINITY) {
                    Ok(s)
                } else {
                    Err(Error::NonFiniteResult {
                        context: name,
                        reason: "score_samples gave NaN or +∞".into(),
                    })
                }
            })
        })
    }
    fn feature_importances(&self) -> Option<Array1<f64>> {
        // Importances are computed from the fitted state, which `CheckModel` found finite.
        match &self.model {
            Either::F64(m) => self.ops64.importances.map(|f| f(m)),
            Either::F32(m) => self.ops32.importances.map(|f| to_f64_1(f(m))),
        }
    }
    fn to_json(&self) -> Result<Value> {
        // JSON has no NaN or infinity (serde_json writes `null`): a state holding one (a
        // diagnostic that overflowed, a log-probability of −∞) would make a model file that
        // cannot be read back. Refuse to write it, saying why.
        let readable = match &self.model {
            Either::F64(_) => serde_json::from_value::<M64>(self.json.clone()).map(|_| ()),
            Either::F32(_) => serde_json::from_value::<M32>(self.json.clone()).map(|_| ()),
        };
        readable.map_err(|e| Error::NonFiniteResult {
            context: self.name,
            reason: format!(
                "the fitted model holds NaN or infinity, which a model file cannot store ({e})"
            ),
        })?;
        Ok(self.json.clone())
    }
    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}

struct Adapter<E, M64, M32> {
    est: E,
    name: &'static str,
    params: Value,
    weighted: bool,
    fit64: FitFn<E, f64, M64>,
    fit32: FitFn<E, f32, M32>,
    partial64: Option<PartialFn<E, f64, M64>>,
    partial32: Option<PartialFn<E, f32, M32>>,
    ops64: Ops<f64, M64>,
    ops32: Ops<f32, M32>,
}

impl<E, M64, M32> Adapter<E, M64, M32>
where
    M64: CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static,
    M32: CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    /// The fitted model behind the dynamic interface, after its own check: a fit that
    /// overflowed (finite data near the floating-point limits) gives an error, not a model
    /// holding NaN or infinity.
    fn wrap(&self, model: Either<M64, M32>) -> Result<Box<dyn DynModel>> {
        match &model {
            Either::F64(m) => m.check_model(),
            Either::F32(m) => m.check_model(),
        }
        .map_err(|e| Error::NonFiniteResult {
            context: self.name,
            reason: format!("the fit gave an unusable model ({e})"),
        })?;
        let json = match &model {
            Either::F64(m) => serde_json::to_value(m),
            Either::F32(m) => serde_json::to_value(m),
        }
        .map_err(|e| json_err("serialize model", e))?;
        Ok(Box::new(Fitted {
            name: self.name,
            model,
            ops64: self.ops64,
            ops32: self.ops32,
            json,
        }))
    }
}

impl<E, M64, M32> DynEstimator for Adapter<E, M64, M32>
where
    E: Estimator + Send + Sync,
    M64: CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static,
    M32: CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static,
{
    fn params(&self) -> Value {
        self.params.clone()
    }
    fn validate(&self) -> Result<()> {
        self.est.validate()
    }
    fn fit_weighted(
        &self,
        x: &Data,
        y: &Target,
        sample_weight: Option<&Array1<f64>>,
    ) -> Result<Box<dyn DynModel>> {
        if !self.weighted {
            no_weights(sample_weight, self.name)?;
        }
        let model = match x {
            Data::F64(a) => {
                Either::F64((self.fit64)(&self.est, a, y, sample_weight.map(|w| &**w))?)
            }
            Data::F32(a) => {
                let w = sample_weight.map(|w| w.mapv(|v| v as f32));
                Either::F32((self.fit32)(&self.est, a, y, w.as_deref())?)
            }
        };
        self.wrap(model)
    }
    fn partial_fit(
        &self,
        model: Option<Box<dyn DynModel>>,
        x: &Data,
        y: &Target,
    ) -> Result<Box<dyn DynModel>> {
        let (Some(p64), Some(p32)) = (self.partial64, self.partial32) else {
            return Err(Error::invalid_param(
                "partial_fit",
                format!("{} has no partial_fit", self.name),
            ));
        };
        let previous = match model {
            None => None,
            Some(m) => Some(
                m.into_any()
                    .downcast::<Fitted<M64, M32>>()
                    .map_err(|_| {
                        Error::invalid_param(
                            "model",
                            format!(
                                "partial_fit of {} needs a model of {}",
                                self.name, self.name
                            ),
                        )
                    })?
                    .model,
            ),
        };
        let next = match (previous, x) {
            (Some(Either::F64(m)), _) => Either::F64(p64(&self.est, Some(m), &cast_data(x), y)?),
            (Some(Either::F32(m)), _) => Either::F32(p32(&self.est, Some(m), &cast_data(x), y)?),
            (None, Data::F64(a)) => Either::F64(p64(&self.est, None, a, y)?),
            (None, Data::F32(a)) => Either::F32(p32(&self.est, None, a, y)?),
        };
        self.wrap(next)
    }
}

// ---------------------------------------------------------------------------------------------
// Entries

type BuildFn = dyn Fn(Value) -> Result<Box<dyn DynEstimator>> + Send + Sync;
type LoadFn = dyn Fn(Precision, Value) -> Result<Box<dyn DynModel>> + Send + Sync;
type DefaultsFn = dyn Fn() -> Result<Value> + Send + Sync;
type ChoicesFn = dyn Fn(&Value, &str) -> Vec<String> + Send + Sync;
type AcceptsFn = dyn Fn(&Value) -> std::result::Result<Value, String> + Send + Sync;

/// One registered estimator.
#[derive(Clone)]
pub struct Entry {
    name: &'static str,
    rust_type: &'static str,
    kind: Kind,
    summary: &'static str,
    sklearn: Option<&'static str>,
    aliases: Vec<String>,
    param_aliases: Vec<(&'static str, &'static str)>,
    caps: Capabilities,
    defaults: Arc<DefaultsFn>,
    choices: Arc<ChoicesFn>,
    accepts: Arc<AcceptsFn>,
    build: Arc<BuildFn>,
    load: Arc<LoadFn>,
}

impl fmt::Debug for Entry {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Entry")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .finish_non_exhaustive()
    }
}

/// An entry under construction: the estimator type `E`, its model types, and the capabilities
/// declared so far. Turn it into an [`Entry`] with `.into()`.
pub struct Spec<E, M64, M32> {
    name: &'static str,
    kind: Kind,
    summary: &'static str,
    sklearn: Option<&'static str>,
    aliases: Vec<String>,
    param_aliases: Vec<(&'static str, &'static str)>,
    caps: Capabilities,
    fit64: FitFn<E, f64, M64>,
    fit32: FitFn<E, f32, M32>,
    partial64: Option<PartialFn<E, f64, M64>>,
    partial32: Option<PartialFn<E, f32, M32>>,
    ops64: Ops<f64, M64>,
    ops32: Ops<f32, M32>,
}

/// The bounds every registered estimator meets.
pub trait RegisteredEstimator:
    Estimator + Default + Serialize + DeserializeOwned + Send + Sync + 'static
{
}
impl<E: Estimator + Default + Serialize + DeserializeOwned + Send + Sync + 'static>
    RegisteredEstimator for E
{
}

/// The bounds every registered model meets ([`CheckModel`]: [`Entry::load`] checks the state
/// it deserialised).
pub trait RegisteredModel:
    NFeaturesIn + CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static
{
}
impl<M: NFeaturesIn + CheckModel + Serialize + DeserializeOwned + Send + Sync + 'static>
    RegisteredModel for M
{
}

fn fit_supervised<E, F>(
    e: &E,
    x: &ArrayRef2<F>,
    y: &Target,
    _w: Option<&ArrayRef1<F>>,
) -> Result<<E as Fit<F>>::Model>
where
    F: Float,
    E: Fit<F>,
    E::Target: TargetArg<F>,
{
    let t = <E::Target as TargetArg<F>>::convert(y)?;
    e.fit(x, <E::Target as TargetArg<F>>::view(&t))
}

fn fit_supervised_weighted<E, F>(
    e: &E,
    x: &ArrayRef2<F>,
    y: &Target,
    w: Option<&ArrayRef1<F>>,
) -> Result<<E as Fit<F>>::Model>
where
    F: Float,
    E: FitWeighted<F>,
    E::Target: TargetArg<F>,
{
    let t = <E::Target as TargetArg<F>>::convert(y)?;
    e.fit_weighted(x, <E::Target as TargetArg<F>>::view(&t), w)
}

fn fit_unsupervised<E: FitUnsupervised<F>, F: Float>(
    e: &E,
    x: &ArrayRef2<F>,
    _y: &Target,
    _w: Option<&ArrayRef1<F>>,
) -> Result<E::Model> {
    e.fit(x)
}

fn fit_unsupervised_weighted<E: FitUnsupervisedWeighted<F>, F: Float>(
    e: &E,
    x: &ArrayRef2<F>,
    _y: &Target,
    w: Option<&ArrayRef1<F>>,
) -> Result<E::Model> {
    e.fit_weighted(x, w)
}

fn partial<E, F>(e: &E, m: Option<E::Model>, x: &ArrayRef2<F>, y: &Target) -> Result<E::Model>
where
    F: Float,
    E: PartialFit<F>,
    E::Target: TargetArg<F>,
{
    let t = <E::Target as TargetArg<F>>::convert(y)?;
    e.partial_fit(m, x, <E::Target as TargetArg<F>>::view(&t))
}

impl Entry {
    fn spec<E, M64, M32>(
        name: &'static str,
        kind: Kind,
        summary: &'static str,
        fit64: FitFn<E, f64, M64>,
        fit32: FitFn<E, f32, M32>,
        ops64: Ops<f64, M64>,
        ops32: Ops<f32, M32>,
    ) -> Spec<E, M64, M32> {
        Spec {
            name,
            kind,
            summary,
            sklearn: None,
            aliases: Vec::new(),
            param_aliases: Vec::new(),
            caps: Capabilities::default(),
            fit64,
            fit32,
            partial64: None,
            partial32: None,
            ops64,
            ops32,
        }
    }

    /// A classifier: `Fit<F, Target = Labels>`, the model predicts labels.
    pub fn classifier<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>
    where
        E: RegisteredEstimator
            + Fit<f64, Target = ArrayRef1<usize>>
            + Fit<f32, Target = ArrayRef1<usize>>,
        <E as Fit<f64>>::Model: Predict<f64, Output = Array1<usize>> + RegisteredModel,
        <E as Fit<f32>>::Model: Predict<f32, Output = Array1<usize>> + RegisteredModel,
    {
        Self::spec(
            name,
            Kind::Classifier,
            summary,
            fit_supervised::<E, f64>,
            fit_supervised::<E, f32>,
            Ops::new(|m, x| m.predict(x).map(Output::Labels)),
            Ops::new(|m, x| m.predict(x).map(Output::Labels)),
        )
    }

    /// A classifier whose model also implements [`PredictProba`].
    pub fn probabilistic_classifier<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>
    where
        E: RegisteredEstimator
            + Fit<f64, Target = ArrayRef1<usize>>
            + Fit<f32, Target = ArrayRef1<usize>>,
        <E as Fit<f64>>::Model:
            PredictProba<f64> + Predict<f64, Output = Array1<usize>> + RegisteredModel,
        <E as Fit<f32>>::Model:
            PredictProba<f32> + Predict<f32, Output = Array1<usize>> + RegisteredModel,
    {
        Self::classifier::<E>(name, summary).proba()
    }

    /// A regressor: `Fit<F, Target = ArrayRef1<F>>`, the model predicts `Array1<F>`.
    pub fn regressor<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>
    where
        E: RegisteredEstimator
            + Fit<f64, Target = ArrayRef1<f64>>
            + Fit<f32, Target = ArrayRef1<f32>>,
        <E as Fit<f64>>::Model: Predict<f64, Output = Array1<f64>> + RegisteredModel,
        <E as Fit<f32>>::Model: Predict<f32, Output = Array1<f32>> + RegisteredModel,
    {
        Self::spec(
            name,
            Kind::Regressor,
            summary,
            fit_supervised::<E, f64>,
            fit_supervised::<E, f32>,
            Ops::new(|m, x| m.predict(x).map(Output::Values)),
            Ops::new(|m, x| m.predict(x).map(|v| Output::Values(to_f64_1(v)))),
        )
    }

    /// A clusterer: `FitUnsupervised<F>`, the model assigns rows to clusters.
    pub fn clusterer<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>
    where
        E: RegisteredEstimator + FitUnsupervised<f64> + FitUnsupervised<f32>,
        <E as FitUnsupervised<f64>>::Model: Predict<f64, Output = Array1<usize>> + RegisteredModel,
        <E as FitUnsupervised<f32>>::Model: Predict<f32, Output = Array1<usize>> + RegisteredModel,
    {
        Self::spec(
            name,
            Kind::Clusterer,
            summary,
            fit_unsupervised::<E, f64>,
            fit_unsupervised::<E, f32>,
            Ops::new(|m, x| m.predict(x).map(Output::Labels)),
            Ops::new(|m, x| m.predict(x).map(Output::Labels)),
        )
    }

    /// A transformer: `FitUnsupervised<F>`, the model implements [`Transform`]; `predict`
    /// returns the transform.
    pub fn transformer<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>
    where
        E: RegisteredEstimator + FitUnsupervised<f64> + FitUnsupervised<f32>,
        <E as FitUnsupervised<f64>>::Model: Transform<f64> + RegisteredModel,
        <E as FitUnsupervised<f32>>::Model: Transform<f32> + RegisteredModel,
    {
        let mut ops64 = Ops::new(|m: &<E as FitUnsupervised<f64>>::Model, x| {
            m.transform(x).map(Output::Matrix)
        });
        ops64.transform = Some(|m, x| m.transform(x));
        let mut ops32 = Ops::new(|m: &<E as FitUnsupervised<f32>>::Model, x| {
            m.transform(x).map(|z| Output::Matrix(to_f64(z)))
        });
        ops32.transform = Some(|m, x| m.transform(x));
        Self::spec(
            name,
            Kind::Transformer,
            summary,
            fit_unsupervised::<E, f64>,
            fit_unsupervised::<E, f32>,
            ops64,
            ops32,
        )
    }

    /// A transformer whose model also implements [`InverseTransform`].
    pub fn invertible_transformer<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>
    where
        E: RegisteredEstimator + FitUnsupervised<f64> + FitUnsupervised<f32>,
        <E as FitUnsupervised<f64>>::Model: InverseTransform<f64> + RegisteredModel,
        <E as FitUnsupervised<f32>>::Model: InverseTransform<f32> + RegisteredModel,
    {
        Self::transformer::<E>(name, summary).inverse()
    }

    /// An outlier detector: `FitUnsupervised<F>`, the model implements [`OutlierDetector`]
    /// (`predict` gives `±1`, with `decision_function` and `score_samples`).
    pub fn outlier_detector<E>(
        name: &'static str,
        summary: &'static str,
    ) -> Spec<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>
    where
        E: RegisteredEstimator + FitUnsupervised<f64> + FitUnsupervised<f32>,
        <E as FitUnsupervised<f64>>::Model: OutlierDetector<f64> + RegisteredModel,
        <E as FitUnsupervised<f32>>::Model: OutlierDetector<f32> + RegisteredModel,
    {
        let mut ops64 =
            Ops::new(|m: &<E as FitUnsupervised<f64>>::Model, x| m.predict(x).map(Output::Signed));
        ops64.decision = Some(|m, x| {
            OutlierDetector::decision_function(m, x).map(|d| d.insert_axis(ndarray::Axis(1)))
        });
        ops64.score_samples = Some(|m, x| m.score_samples(x));
        let mut ops32 =
            Ops::new(|m: &<E as FitUnsupervised<f32>>::Model, x| m.predict(x).map(Output::Signed));
        ops32.decision = Some(|m, x| {
            OutlierDetector::decision_function(m, x).map(|d| d.insert_axis(ndarray::Axis(1)))
        });
        ops32.score_samples = Some(|m, x| m.score_samples(x));
        let mut s = Self::spec(
            name,
            Kind::OutlierDetector,
            summary,
            fit_unsupervised::<E, f64>,
            fit_unsupervised::<E, f32>,
            ops64,
            ops32,
        );
        s.caps.decision_function = true;
        s.caps.score_samples = true;
        s
    }

    /// The registered name (snake_case of the scikit-learn class, or of the method).
    pub fn name(&self) -> &'static str {
        self.name
    }
    /// Other names the entry answers to (the scikit-learn class in snake_case when it differs).
    pub fn aliases(&self) -> &[String] {
        &self.aliases
    }
    /// The Rust estimator type's path (`ndlearn_linear::ridge::Ridge`).
    pub fn rust_type(&self) -> &'static str {
        self.rust_type
    }
    /// The scikit-learn class this entry corresponds to, if any.
    pub fn sklearn_class(&self) -> Option<&'static str> {
        self.sklearn
    }
    /// What the estimator does.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// One line of description.
    pub fn summary(&self) -> &'static str {
        self.summary
    }
    /// What the estimator and its models can do.
    pub fn capabilities(&self) -> Capabilities {
        self.caps
    }
    /// Whether fitted models give class probabilities.
    pub fn has_proba(&self) -> bool {
        self.caps.predict_proba
    }
    /// Whether fitted models have an inverse transform.
    pub fn has_inverse(&self) -> bool {
        self.caps.inverse_transform
    }
    /// Whether the estimator is slow on thousands of rows (benchmark hint).
    pub fn is_heavy(&self) -> bool {
        self.caps.heavy
    }

    /// The default hyperparameters as a JSON object.
    ///
    /// # Errors
    /// A serialisation failure.
    pub fn defaults(&self) -> Result<Value> {
        (self.defaults)()
    }

    /// The hyperparameters with types, defaults, accepted names and (for enums) choices, in
    /// field order.
    ///
    /// # Errors
    /// A serialisation failure.
    pub fn params(&self) -> Result<Vec<ParamInfo>> {
        let d = (self.defaults)()?;
        let Some(obj) = d.as_object() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (k, v) in obj {
            let choices = if v.is_string() || params::is_struct_variant(v) {
                (self.choices)(&d, k)
            } else {
                Vec::new()
            };
            let ty = match v {
                Value::Bool(_) => ParamType::Bool,
                Value::Number(n) if n.is_u64() || n.is_i64() => ParamType::Int,
                Value::Number(_) => ParamType::Float,
                Value::String(_) if !choices.is_empty() => ParamType::Choice,
                Value::String(_) => ParamType::String,
                _ => ParamType::Json,
            };
            let mut aliases: Vec<String> = self
                .param_aliases
                .iter()
                .chain(params::GLOBAL_ALIASES)
                .filter(|(_, to)| to == k)
                .map(|(from, _)| (*from).to_string())
                .collect();
            let lower = k.to_ascii_lowercase();
            if lower != *k {
                aliases.push(lower);
            }
            out.push(ParamInfo {
                name: k.clone(),
                ty,
                default: v.clone(),
                choices,
                aliases,
            });
        }
        Ok(out)
    }

    /// The canonical parameter name of `key`: exact, case-insensitive, or an alias.
    fn resolve(&self, key: &str, valid: &[ParamInfo]) -> Option<usize> {
        if let Some(i) = valid.iter().position(|p| p.name == key) {
            return Some(i);
        }
        if let Some(i) = valid.iter().position(|p| p.name.eq_ignore_ascii_case(key)) {
            return Some(i);
        }
        valid
            .iter()
            .position(|p| p.aliases.iter().any(|a| a == key))
    }

    /// The field names of the struct variant held by parameter `name`: the fields present,
    /// those serde reports missing (probed one at a time with a placeholder), and those the
    /// estimator writes back once the variant deserialises.
    fn variant_field_names(&self, params: &Value, name: &str) -> Vec<String> {
        let mut trial = params.clone();
        let mut names: Vec<String> = trial
            .get_mut(name)
            .and_then(params::variant_fields)
            .map(|f| f.keys().cloned().collect())
            .unwrap_or_default();
        for _ in 0..32 {
            match (self.accepts)(&trial) {
                Ok(back) => {
                    if let Some(mut v) = back.get(name).cloned()
                        && let Some(f) = params::variant_fields(&mut v)
                    {
                        for k in f.keys() {
                            if !names.contains(k) {
                                names.push(k.clone());
                            }
                        }
                    }
                    break;
                }
                Err(e) => {
                    let Some(missing) = e
                        .strip_prefix("missing field `")
                        .and_then(|r| r.split('`').next())
                        .map(str::to_string)
                    else {
                        break;
                    };
                    if names.contains(&missing) {
                        break;
                    }
                    match trial.get_mut(name).and_then(params::variant_fields) {
                        Some(f) => {
                            f.insert(missing.clone(), Value::from(1));
                        }
                        None => break,
                    }
                    names.push(missing);
                }
            }
        }
        names
    }

    /// Builds the estimator from `key=value` overrides of the defaults (see the
    /// [module docs](self) for the accepted forms), and checks it.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an unknown name, an ill-typed value or a hyperparameter the
    /// estimator rejects.
    pub fn build(&self, overrides: &[(String, String)]) -> Result<Box<dyn DynEstimator>> {
        let params = self.resolve_overrides(overrides)?;
        self.build_json(params)
    }

    /// The hyperparameter JSON that `key=value` overrides give (without building).
    ///
    /// # Errors
    /// As [`Entry::build`], except the estimator's own checks.
    pub fn resolve_overrides(&self, overrides: &[(String, String)]) -> Result<Value> {
        let mut params = self.defaults()?;
        let valid = self.params()?;
        let names: Vec<&str> = valid.iter().map(|p| p.name.as_str()).collect();
        let unknown = |k: &str| {
            Error::invalid_param(
                "params",
                format!(
                    "{} has no parameter `{k}`; valid: {}",
                    self.name,
                    if names.is_empty() {
                        "(none)".to_string()
                    } else {
                        names.join(", ")
                    }
                ),
            )
        };
        let mut flat: Vec<(&String, &String)> = Vec::new();
        for (k, raw) in overrides {
            let Some(i) = self.resolve(k, &valid) else {
                flat.push((k, raw));
                continue;
            };
            let info = &valid[i];
            let value = self.parse_param(&params, info, raw)?;
            if let Some(obj) = params.as_object_mut() {
                obj.insert(info.name.clone(), value);
            }
        }
        // Flat keys: fields of a struct-variant parameter (`gamma` of `kernel=rbf`).
        for (k, raw) in flat {
            let value = params::loose_value(raw);
            let mut placed = false;
            for info in &valid {
                let Some(current) = params.get(&info.name) else {
                    continue;
                };
                if !params::is_struct_variant(current) {
                    continue;
                }
                if !self.variant_field_names(&params, &info.name).contains(k) {
                    continue;
                }
                if let Some(fields) = params.get_mut(&info.name).and_then(params::variant_fields) {
                    fields.insert(k.clone(), value.clone());
                }
                placed = true;
                break;
            }
            if !placed {
                return Err(unknown(k));
            }
        }
        Ok(params)
    }

    /// Parses one `key=value` (see [`Entry::build`]).
    fn parse_param(&self, params: &Value, info: &ParamInfo, raw: &str) -> Result<Value> {
        let name = info.name.as_str();
        if info.ty == ParamType::Choice || params::is_struct_variant(&info.default) {
            let t = raw.trim();
            if let Some(choice) = info.choices.iter().find(|c| c.eq_ignore_ascii_case(t)) {
                // A unit variant is the string; a struct variant starts empty and its fields
                // come from flat keys (or their serde defaults).
                let mut trial = params.clone();
                if let Some(obj) = trial.as_object_mut() {
                    obj.insert(name.into(), Value::String(choice.clone()));
                }
                let struct_variant = matches!(
                    (self.accepts)(&trial),
                    Err(e) if e.contains("expected struct variant")
                        || e.contains("expected tuple variant")
                        || e.contains("expected newtype variant")
                );
                if struct_variant {
                    return Ok(serde_json::json!({ choice.clone(): {} }));
                }
                return Ok(Value::String(choice.clone()));
            }
            if let Ok(v) = serde_json::from_str::<Value>(t)
                && (v.is_object() || v.is_array())
            {
                return Ok(v);
            }
            // Another spelling the enum accepts (a serde alias such as `poly`, `cityblock`).
            let mut trial = params.clone();
            if let Some(obj) = trial.as_object_mut() {
                obj.insert(name.into(), Value::String(t.to_string()));
            }
            match (self.accepts)(&trial) {
                Ok(_) => return Ok(Value::String(t.to_string())),
                Err(e) if e.contains("expected struct variant") => {
                    return Ok(serde_json::json!({ t: {} }));
                }
                Err(_) => {}
            }
            if info.ty == ParamType::Choice {
                return Err(Error::invalid_param(
                    "params",
                    format!(
                        "parameter `{name}` of {}: `{raw}` is not one of {}",
                        self.name,
                        info.choices.join(", ")
                    ),
                ));
            }
        }
        match params::parse_typed(name, &info.default, raw)? {
            Some(v) => {
                // A value of the default's type; JSON alternatives (count-or-fraction, ...) are
                // tried when the estimator rejects it.
                Ok(v)
            }
            None => {
                let v = params::loose_value(raw);
                let mut trial = params.clone();
                if let Some(obj) = trial.as_object_mut() {
                    obj.insert(name.into(), v.clone());
                }
                if (self.accepts)(&trial).is_ok() {
                    Ok(v)
                } else {
                    Err(params::type_error(name, &info.default, raw))
                }
            }
        }
    }

    /// Builds the estimator from a full JSON hyperparameter object (as saved in a model file)
    /// and checks it ([`Estimator::validate`]).
    ///
    /// # Errors
    /// Invalid JSON for this estimator, or hyperparameters it rejects.
    pub fn build_json(&self, params: Value) -> Result<Box<dyn DynEstimator>> {
        let est = (self.build)(params)?;
        est.validate()?;
        Ok(est)
    }

    /// Builds the estimator from JSON without [`Estimator::validate`] (for tests that check
    /// that `fit` itself rejects invalid hyperparameters).
    ///
    /// # Errors
    /// Invalid JSON for this estimator.
    #[doc(hidden)]
    pub fn build_json_unchecked(&self, params: Value) -> Result<Box<dyn DynEstimator>> {
        (self.build)(params)
    }

    /// Restores a fitted model from its JSON (as returned by [`DynModel::to_json`]).
    ///
    /// # Errors
    /// JSON that is not a model of this entry, or whose state fails the model's
    /// [`CheckModel`] (shapes that disagree, non-finite parameters, indices out of range).
    pub fn load(&self, precision: Precision, model: Value) -> Result<Box<dyn DynModel>> {
        (self.load)(precision, model)
    }
}

impl<E, M64, M32> From<Spec<E, M64, M32>> for Entry
where
    E: RegisteredEstimator,
    M64: RegisteredModel,
    M32: RegisteredModel,
{
    fn from(s: Spec<E, M64, M32>) -> Entry {
        let Spec {
            name,
            kind,
            summary,
            sklearn,
            mut aliases,
            param_aliases,
            caps,
            fit64,
            fit32,
            partial64,
            partial32,
            ops64,
            ops32,
        } = s;
        if let Some(class) = sklearn {
            let snake = class_snake_case(class);
            if snake != name && !aliases.contains(&snake) {
                aliases.insert(0, snake);
            }
        }
        let weighted = caps.sample_weight;
        let build = move |params: Value| -> Result<Box<dyn DynEstimator>> {
            let est: E = serde_json::from_value(params.clone()).map_err(|e| {
                Error::invalid_param("params", format!("{name}: invalid hyperparameters: {e}"))
            })?;
            // The stored form is the estimator's own serialisation (canonical names).
            let params = serde_json::to_value(&est).map_err(|e| json_err("serialize", e))?;
            Ok(Box::new(Adapter {
                est,
                name,
                params,
                weighted,
                fit64,
                fit32,
                partial64,
                partial32,
                ops64,
                ops32,
            }))
        };
        let load = move |p: Precision, json: Value| -> Result<Box<dyn DynModel>> {
            let model = match p {
                Precision::F64 => {
                    let m = serde_json::from_value::<M64>(json.clone())
                        .map_err(|e| json_err(&format!("{name} model (f64)"), e))?;
                    m.check_model()?;
                    Either::F64(m)
                }
                Precision::F32 => {
                    let m = serde_json::from_value::<M32>(json.clone())
                        .map_err(|e| json_err(&format!("{name} model (f32)"), e))?;
                    m.check_model()?;
                    Either::F32(m)
                }
            };
            Ok(Box::new(Fitted {
                name,
                model,
                ops64,
                ops32,
                json,
            }))
        };
        Entry {
            name,
            rust_type: std::any::type_name::<E>(),
            kind,
            summary,
            sklearn,
            aliases,
            param_aliases,
            caps,
            defaults: Arc::new(|| {
                serde_json::to_value(E::default()).map_err(|e| json_err("serialize defaults", e))
            }),
            choices: Arc::new(|d: &Value, field: &str| params::probe_choices::<E>(d, field)),
            accepts: Arc::new(|v: &Value| {
                serde_json::from_value::<E>(v.clone())
                    .map_err(|e| e.to_string())
                    .and_then(|e| serde_json::to_value(e).map_err(|e| e.to_string()))
            }),
            build: Arc::new(build),
            load: Arc::new(load),
        }
    }
}

impl<E, M64, M32> Spec<E, M64, M32> {
    /// Records the scikit-learn class (its snake_case becomes an alias of the entry).
    #[must_use]
    pub fn sklearn(mut self, class: &'static str) -> Self {
        self.sklearn = Some(class);
        self
    }

    /// Another name the entry answers to.
    #[must_use]
    pub fn alias(mut self, name: &'static str) -> Self {
        self.aliases.push(name.to_string());
        self
    }

    /// Another spelling of a hyperparameter name (`from` is accepted for `to`, e.g. the Rust
    /// field `solver` for scikit-learn's `svd_solver`).
    #[must_use]
    pub fn param_alias(mut self, from: &'static str, to: &'static str) -> Self {
        self.param_aliases.push((from, to));
        self
    }

    /// Marks the estimator as slow on thousands of rows (the quick benchmark suite runs it on a
    /// subset).
    #[must_use]
    pub fn heavy(mut self) -> Self {
        self.caps.heavy = true;
        self
    }

    /// Declares a fit that depends on the order and number of rows (per-sample SGD): integer
    /// weights then differ from repeated rows, and `partial_fit` from `fit`.
    #[must_use]
    pub fn stochastic(mut self) -> Self {
        self.caps.stochastic = true;
        self
    }

    /// Declares sample weights that are not the same as repeated rows (see
    /// [`Capabilities::weights_not_repetition`]).
    #[must_use]
    pub fn weights_not_repetition(mut self) -> Self {
        self.caps.weights_not_repetition = true;
        self
    }

    /// Declares that the features must be non-negative.
    #[must_use]
    pub fn non_negative_input(mut self) -> Self {
        self.caps.non_negative_input = true;
        self
    }

    /// Declares that the features must be category codes `0, 1, 2, …`.
    #[must_use]
    pub fn categorical_input(mut self) -> Self {
        self.caps.categorical_input = true;
        self
    }

    /// Declares that inputs unlike the training data are refused at predict with a typed error
    /// (unknown categories, no neighbour within the radius).
    #[must_use]
    pub fn refuses_unseen(mut self) -> Self {
        self.caps.refuses_unseen = true;
        self
    }

    /// Declares that NaN in the features means "missing" and is handled (not an error).
    #[must_use]
    pub fn missing_values(mut self) -> Self {
        self.caps.missing_values = true;
        self
    }

    /// Fitted models give class probabilities.
    #[must_use]
    pub fn proba(mut self) -> Self
    where
        M64: PredictProba<f64>,
        M32: PredictProba<f32>,
    {
        self.ops64.proba = Some(|m, x| m.predict_proba(x));
        self.ops32.proba = Some(|m, x| m.predict_proba(x));
        self.caps.predict_proba = true;
        self
    }

    /// Fitted models give decision scores.
    #[must_use]
    pub fn decision(mut self) -> Self
    where
        M64: DecisionFunction<f64>,
        M32: DecisionFunction<f32>,
    {
        self.ops64.decision = Some(|m, x| DecisionFunction::decision_function(m, x));
        self.ops32.decision = Some(|m, x| DecisionFunction::decision_function(m, x));
        self.caps.decision_function = true;
        self
    }

    /// Fitted models give feature importances.
    #[must_use]
    pub fn importances(mut self) -> Self
    where
        M64: FeatureImportances<f64>,
        M32: FeatureImportances<f32>,
    {
        self.ops64.importances = Some(|m| m.feature_importances());
        self.ops32.importances = Some(|m| m.feature_importances());
        self.caps.feature_importances = true;
        self
    }

    /// Fitted models have an inverse transform.
    #[must_use]
    pub fn inverse(mut self) -> Self
    where
        M64: InverseTransform<f64>,
        M32: InverseTransform<f32>,
    {
        self.ops64.inverse = Some(|m, z| m.inverse_transform(z));
        self.ops32.inverse = Some(|m, z| m.inverse_transform(z));
        self.caps.inverse_transform = true;
        self
    }

    /// Cluster labels may be noise: `predict` gives [`Output::Signed`] with `−1` for noise.
    #[must_use]
    pub fn noise(mut self) -> Self
    where
        M64: PredictWithNoise<f64>,
        M32: PredictWithNoise<f32>,
    {
        self.ops64.predict = |m, x| m.predict_with_noise(x).map(Output::Signed);
        self.ops32.predict = |m, x| m.predict_with_noise(x).map(Output::Signed);
        self.caps.noise = true;
        self
    }

    /// The estimator fits with per-sample weights ([`FitWeighted`]).
    #[must_use]
    pub fn weighted(mut self) -> Self
    where
        E: FitWeighted<f64, Model = M64> + FitWeighted<f32, Model = M32>,
        <E as Fit<f64>>::Target: TargetArg<f64>,
        <E as Fit<f32>>::Target: TargetArg<f32>,
    {
        self.fit64 = fit_supervised_weighted::<E, f64>;
        self.fit32 = fit_supervised_weighted::<E, f32>;
        self.caps.sample_weight = true;
        self
    }

    /// The unsupervised estimator fits with per-sample weights ([`FitUnsupervisedWeighted`]).
    #[must_use]
    pub fn weighted_unsupervised(mut self) -> Self
    where
        E: FitUnsupervisedWeighted<f64, Model = M64> + FitUnsupervisedWeighted<f32, Model = M32>,
    {
        self.fit64 = fit_unsupervised_weighted::<E, f64>;
        self.fit32 = fit_unsupervised_weighted::<E, f32>;
        self.caps.sample_weight = true;
        self
    }

    /// The estimator has `partial_fit` ([`PartialFit`] with the same model type); `exact` when
    /// one call over all the rows equals `fit`.
    #[must_use]
    pub fn partial_fit(mut self, exact: bool) -> Self
    where
        E: PartialFit<f64, Model = M64> + PartialFit<f32, Model = M32>,
        <E as PartialFit<f64>>::Target: TargetArg<f64>,
        <E as PartialFit<f32>>::Target: TargetArg<f32>,
    {
        self.partial64 = Some(partial::<E, f64>);
        self.partial32 = Some(partial::<E, f32>);
        self.caps.partial_fit = Some(if exact {
            PartialFitKind::Exact
        } else {
            PartialFitKind::Approximate
        });
        self
    }

    /// The regressor also fits several target columns ([`FitMultiOutput`]); `predict` gives
    /// [`Output::Matrix`] for a model of several outputs.
    #[must_use]
    pub fn multi_output(mut self) -> Self
    where
        E: FitMultiOutput<f64, Model = M64> + FitMultiOutput<f32, Model = M32>,
        <E as Fit<f64>>::Target: TargetArg<f64>,
        <E as Fit<f32>>::Target: TargetArg<f32>,
        M64: PredictMultiOutput<f64> + Predict<f64, Output = Array1<f64>>,
        M32: PredictMultiOutput<f32> + Predict<f32, Output = Array1<f32>>,
    {
        fn fit_multi<E, F>(
            e: &E,
            x: &ArrayRef2<F>,
            y: &Target,
            w: Option<&ArrayRef1<F>>,
        ) -> Result<<E as Fit<F>>::Model>
        where
            F: Float,
            E: FitMultiOutput<F>,
            E::Target: TargetArg<F>,
        {
            match y {
                Target::Matrix(m) if m.ncols() != 1 => {
                    if w.is_some() {
                        return Err(Error::invalid_param(
                            "sample_weight",
                            "multi-output fits take no sample weights here",
                        ));
                    }
                    e.fit_multi(x, &m.mapv(F::cast))
                }
                _ => fit_supervised::<E, F>(e, x, y, w),
            }
        }
        if !self.caps.sample_weight {
            self.fit64 = fit_multi::<E, f64>;
            self.fit32 = fit_multi::<E, f32>;
        }
        self.ops64.predict = |m, x| {
            if m.n_outputs() == 1 {
                m.predict(x).map(Output::Values)
            } else {
                m.predict_multi(x).map(Output::Matrix)
            }
        };
        self.ops32.predict = |m, x| {
            if m.n_outputs() == 1 {
                m.predict(x).map(|v| Output::Values(to_f64_1(v)))
            } else {
                m.predict_multi(x).map(|v| Output::Matrix(to_f64(v)))
            }
        };
        self.caps.multi_output = true;
        self
    }

    /// The classifier also fits multi-label indicator targets ([`FitMultiLabel`]); `predict`
    /// gives [`Output::Indicators`] for a multi-label model.
    #[must_use]
    pub fn multilabel(mut self) -> Self
    where
        E: FitMultiLabel<f64, Model = M64> + FitMultiLabel<f32, Model = M32>,
        <E as Fit<f64>>::Target: TargetArg<f64>,
        <E as Fit<f32>>::Target: TargetArg<f32>,
        M64: PredictMultiLabel<f64> + Predict<f64, Output = Array1<usize>>,
        M32: PredictMultiLabel<f32> + Predict<f32, Output = Array1<usize>>,
    {
        fn fit_ml<E, F>(
            e: &E,
            x: &ArrayRef2<F>,
            y: &Target,
            w: Option<&ArrayRef1<F>>,
        ) -> Result<<E as Fit<F>>::Model>
        where
            F: Float,
            E: FitMultiLabel<F>,
            E::Target: TargetArg<F>,
        {
            match y {
                Target::Indicators(m) => {
                    if w.is_some() {
                        return Err(Error::invalid_param(
                            "sample_weight",
                            "multi-label fits take no sample weights here",
                        ));
                    }
                    e.fit_multilabel(x, m)
                }
                _ => fit_supervised::<E, F>(e, x, y, w),
            }
        }
        if !self.caps.sample_weight {
            self.fit64 = fit_ml::<E, f64>;
            self.fit32 = fit_ml::<E, f32>;
        }
        self.ops64.predict = |m, x| {
            if m.is_multilabel() {
                m.predict_multilabel(x).map(Output::Indicators)
            } else {
                m.predict(x).map(Output::Labels)
            }
        };
        self.ops32.predict = |m, x| {
            if m.is_multilabel() {
                m.predict_multilabel(x).map(Output::Indicators)
            } else {
                m.predict(x).map(Output::Labels)
            }
        };
        self.caps.multilabel = true;
        self
    }
}

/// Finds `name` in `entries` (by name or alias); the error lists the closest names (by edit
/// distance).
///
/// # Errors
/// [`Error::InvalidParam`] for an unknown name.
pub fn find<'a>(entries: &'a [Entry], name: &str) -> Result<&'a Entry> {
    if let Some(e) = entries.iter().find(|e| e.name == name) {
        return Ok(e);
    }
    if let Some(e) = entries.iter().find(|e| e.aliases.iter().any(|a| a == name)) {
        return Ok(e);
    }
    let mut scored: Vec<(usize, &str)> = entries
        .iter()
        .map(|e| (edit_distance(name, e.name), e.name))
        .collect();
    scored.sort();
    let close: Vec<&str> = scored.iter().take(3).map(|(_, n)| *n).collect();
    Err(Error::invalid_param(
        "algo",
        format!(
            "unknown algorithm `{name}`{}",
            if close.is_empty() {
                String::new()
            } else {
                format!("; did you mean {}?", close.join(", "))
            }
        ),
    ))
}

/// Levenshtein distance between two strings (by chars).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        cur[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

#[cfg(test)]
mod tests;
