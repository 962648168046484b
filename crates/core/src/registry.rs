//! Run-time registry of estimators, for the `ndlearn` command line, the benchmark runner and any
//! program that picks an algorithm by name.
//!
//! Every algorithm crate exposes `pub fn registry() -> Vec<Entry>` listing each of its estimators
//! once. An [`Entry`] knows the estimator's name (the snake_case of the scikit-learn class:
//! `ridge`, `kmeans`, …), its [`Kind`], its hyperparameters with types and defaults (read off the
//! serde form of `Default::default()`), and how to build it from `key=value` strings, fit it on
//! f64 or f32 data ([`Data`]), and save and load the fitted model as JSON.
//!
//! Hyperparameter names are the Rust field names; values are parsed by the type of the default
//! (`alpha=0.5`, `max_iter=100`, `fit_intercept=false`, `solver=cholesky`), and a parameter whose
//! default is an object, an array or `null` takes JSON (`kernel={"rbf":{"gamma":0.5}}`). Unknown
//! names and ill-typed values are typed errors that list what is valid.
//!
//! ```
//! use ndlearn_core::registry::{Entry, Kind};
//! # use ndlearn_core::{Fit, Predict, Result, ndarray::{Array1, ArrayRef1, ArrayRef2}};
//! # #[derive(Clone, Default, serde::Serialize, serde::Deserialize)]
//! # struct MeanRegressor { shift: f64 }
//! # #[derive(serde::Serialize, serde::Deserialize)]
//! # struct FittedMean<F> { mean: F, shift: f64 }
//! # impl<F: ndlearn_core::Float> Fit<F> for MeanRegressor {
//! #     type Target = ArrayRef1<F>;
//! #     type Model = FittedMean<F>;
//! #     fn fit(&self, _x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedMean<F>> {
//! #         Ok(FittedMean { mean: y.mean().unwrap_or(F::zero()), shift: self.shift })
//! #     }
//! # }
//! # impl<F: ndlearn_core::Float> Predict<F> for FittedMean<F> {
//! #     type Output = Array1<F>;
//! #     fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
//! #         Ok(Array1::from_elem(x.nrows(), self.mean + F::cast(self.shift)))
//! #     }
//! # }
//! let entry = Entry::regressor::<MeanRegressor>("mean_regressor", "predicts the training mean");
//! assert_eq!(entry.kind(), Kind::Regressor);
//! assert_eq!(entry.params()?[0].name, "shift");
//! let est = entry.build(&[("shift".into(), "1.5".into())])?;
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use ndarray::{Array1, Array2, ArrayRef2};
use serde::{Serialize, de::DeserializeOwned};
use serde_json::Value;

use crate::traits::{Fit, FitUnsupervised, InverseTransform, Predict, PredictProba, Transform};
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
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::Classifier => "classifier",
            Kind::Regressor => "regressor",
            Kind::Clusterer => "clusterer",
            Kind::Transformer => "transformer",
        })
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
}

/// The target passed to `fit`.
#[derive(Clone, Debug)]
pub enum Target {
    /// No target (clusterers, transformers).
    None,
    /// Class labels in `0..n_classes`.
    Labels(Array1<usize>),
    /// Real values (converted to the data's precision).
    Values(Array1<f64>),
}

/// What `predict` / `transform` returned, widened to f64.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// Class or cluster labels.
    Labels(Array1<usize>),
    /// One real value per row.
    Values(Array1<f64>),
    /// One row per input row (transformers, probabilities).
    Matrix(Array2<f64>),
}

/// The JSON type of a hyperparameter, read off its default value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ParamType {
    /// A real number.
    Float,
    /// An integer.
    Int,
    /// `true` / `false`.
    Bool,
    /// One of a fixed set of names (a unit enum); see [`ParamInfo::choices`].
    Choice,
    /// Free text.
    String,
    /// Any JSON (objects, arrays, optional values whose default is `null`).
    Json,
}

/// One hyperparameter of a registered estimator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamInfo {
    /// Field name (the `key` of `key=value`).
    pub name: String,
    /// How a value is parsed.
    #[serde(rename = "type")]
    pub ty: ParamType,
    /// The default, as JSON.
    pub default: Value,
    /// For [`ParamType::Choice`]: the accepted names.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub choices: Vec<String>,
}

/// An estimator with its hyperparameters set, ready to fit any [`Data`].
pub trait DynEstimator: Send + Sync {
    /// The hyperparameters as JSON (the serde form of the estimator).
    fn params(&self) -> Value;
    /// Fits on `x` (either precision) and `y` (matching the estimator's kind).
    fn fit(&self, x: &Data, y: &Target) -> Result<Box<dyn DynModel>>;
}

/// A fitted model behind a uniform interface.
pub trait DynModel: Send + Sync {
    /// The element type it was fitted on (data passed later are converted to it).
    fn precision(&self) -> Precision;
    /// Number of input features it expects.
    fn n_features(&self) -> Option<usize>;
    /// Labels (classifiers, clusterers), values (regressors) or the transform (transformers).
    fn predict(&self, x: &Data) -> Result<Output>;
    /// Class probabilities, when the model has them (`None` otherwise).
    fn predict_proba(&self, x: &Data) -> Option<Result<Array2<f64>>>;
    /// The transform, for transformers (`None` otherwise).
    fn transform(&self, x: &Data) -> Option<Result<Array2<f64>>>;
    /// The inverse transform, when the model has one (`None` otherwise).
    fn inverse_transform(&self, z: &Data) -> Option<Result<Array2<f64>>>;
    /// The fitted state as JSON (the serde form of the model).
    fn to_json(&self) -> Result<Value>;
}

type BuildFn = dyn Fn(Value) -> Result<Box<dyn DynEstimator>> + Send + Sync;
type LoadFn = dyn Fn(Precision, Value) -> Result<Box<dyn DynModel>> + Send + Sync;
type DefaultsFn = dyn Fn() -> Result<Value> + Send + Sync;
type ChoicesFn = dyn Fn(&Value, &str) -> Vec<String> + Send + Sync;

/// One registered estimator.
#[derive(Clone)]
pub struct Entry {
    name: &'static str,
    kind: Kind,
    summary: &'static str,
    has_proba: bool,
    has_inverse: bool,
    defaults: Arc<DefaultsFn>,
    choices: Arc<ChoicesFn>,
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

fn cast_data<F: Float>(x: &Data) -> Array2<F> {
    match x {
        Data::F64(a) => a.mapv(F::cast),
        Data::F32(a) => a.mapv(F::cast),
    }
}

/// A model method returning one row per input row.
type MatrixFn<F, M> = fn(&M, &ArrayRef2<F>) -> Result<Array2<F>>;

/// Per-precision operations of a fitted model of type `M` over element type `F`.
struct Ops<F: Float, M> {
    predict: fn(&M, &ArrayRef2<F>) -> Result<Output>,
    proba: Option<MatrixFn<F, M>>,
    transform: Option<MatrixFn<F, M>>,
    inverse: Option<MatrixFn<F, M>>,
    n_features: fn(&M, &Value) -> Option<usize>,
}

impl<F: Float, M> Clone for Ops<F, M> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<F: Float, M> Copy for Ops<F, M> {}

enum Either<A, B> {
    F64(A),
    F32(B),
}

struct Fitted<M64, M32> {
    model: Either<M64, M32>,
    ops64: Ops<f64, M64>,
    ops32: Ops<f32, M32>,
    json: Value,
}

impl<M64, M32> DynModel for Fitted<M64, M32>
where
    M64: Serialize + Send + Sync,
    M32: Serialize + Send + Sync,
{
    fn precision(&self) -> Precision {
        match self.model {
            Either::F64(_) => Precision::F64,
            Either::F32(_) => Precision::F32,
        }
    }
    fn n_features(&self) -> Option<usize> {
        match &self.model {
            Either::F64(m) => (self.ops64.n_features)(m, &self.json),
            Either::F32(m) => (self.ops32.n_features)(m, &self.json),
        }
    }
    fn predict(&self, x: &Data) -> Result<Output> {
        match &self.model {
            Either::F64(m) => (self.ops64.predict)(m, &cast_data::<f64>(x)),
            Either::F32(m) => (self.ops32.predict)(m, &cast_data::<f32>(x)),
        }
    }
    fn predict_proba(&self, x: &Data) -> Option<Result<Array2<f64>>> {
        match &self.model {
            Either::F64(m) => self.ops64.proba.map(|f| f(m, &cast_data::<f64>(x))),
            Either::F32(m) => self
                .ops32
                .proba
                .map(|f| f(m, &cast_data::<f32>(x)).map(to_f64)),
        }
    }
    fn transform(&self, x: &Data) -> Option<Result<Array2<f64>>> {
        match &self.model {
            Either::F64(m) => self.ops64.transform.map(|f| f(m, &cast_data::<f64>(x))),
            Either::F32(m) => self
                .ops32
                .transform
                .map(|f| f(m, &cast_data::<f32>(x)).map(to_f64)),
        }
    }
    fn inverse_transform(&self, z: &Data) -> Option<Result<Array2<f64>>> {
        match &self.model {
            Either::F64(m) => self.ops64.inverse.map(|f| f(m, &cast_data::<f64>(z))),
            Either::F32(m) => self
                .ops32
                .inverse
                .map(|f| f(m, &cast_data::<f32>(z)).map(to_f64)),
        }
    }
    fn to_json(&self) -> Result<Value> {
        Ok(self.json.clone())
    }
}

/// Reads `n_features` from the model's JSON when the model stores it under a conventional name.
fn n_features_from_json<M>(_: &M, json: &Value) -> Option<usize> {
    ["n_features", "n_features_in", "n_features_in_"]
        .iter()
        .find_map(|k| json.get(*k).and_then(Value::as_u64))
        .map(|v| v as usize)
}

struct Adapter<E, M64, M32> {
    est: E,
    params: Value,
    fit64: fn(&E, &ArrayRef2<f64>, &Target) -> Result<M64>,
    fit32: fn(&E, &ArrayRef2<f32>, &Target) -> Result<M32>,
    ops64: Ops<f64, M64>,
    ops32: Ops<f32, M32>,
}

impl<E, M64, M32> DynEstimator for Adapter<E, M64, M32>
where
    E: Send + Sync,
    M64: Serialize + Send + Sync + 'static,
    M32: Serialize + Send + Sync + 'static,
{
    fn params(&self) -> Value {
        self.params.clone()
    }
    fn fit(&self, x: &Data, y: &Target) -> Result<Box<dyn DynModel>> {
        let (model, json) = match x {
            Data::F64(a) => {
                let m = (self.fit64)(&self.est, a, y)?;
                let j = serde_json::to_value(&m).map_err(|e| json_err("serialize model", e))?;
                (Either::F64(m), j)
            }
            Data::F32(a) => {
                let m = (self.fit32)(&self.est, a, y)?;
                let j = serde_json::to_value(&m).map_err(|e| json_err("serialize model", e))?;
                (Either::F32(m), j)
            }
        };
        Ok(Box::new(Fitted {
            model,
            ops64: self.ops64,
            ops32: self.ops32,
            json,
        }))
    }
}

fn want_labels(y: &Target) -> Result<&Array1<usize>> {
    match y {
        Target::Labels(l) => Ok(l),
        _ => Err(Error::invalid_param(
            "target",
            "a classifier needs class labels as its target",
        )),
    }
}

fn want_values<F: Float>(y: &Target) -> Result<Array1<F>> {
    match y {
        Target::Values(v) => Ok(v.mapv(F::cast)),
        Target::Labels(l) => Ok(l.mapv(F::cast)),
        Target::None => Err(Error::invalid_param(
            "target",
            "a regressor needs a target column",
        )),
    }
}

/// Reads the enum variant names a deserializer accepts for a string field, by trying a value
/// no estimator uses and reading serde's "expected one of" message.
fn probe_choices<E: DeserializeOwned>(defaults: &Value, field: &str) -> Vec<String> {
    let mut v = defaults.clone();
    if let Some(obj) = v.as_object_mut() {
        obj.insert(field.into(), Value::String("\u{1}probe".into()));
    }
    let msg = match serde_json::from_value::<E>(v) {
        Ok(_) => return Vec::new(),
        Err(e) => e.to_string(),
    };
    if !msg.starts_with("unknown variant") {
        return Vec::new();
    }
    // serde: "unknown variant `x`, expected `a` or `b`" / "expected one of `a`, `b`, `c`".
    let Some(pos) = msg.find(", expected ") else {
        return Vec::new();
    };
    msg[pos..]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_string)
        .collect()
}

fn parse_value(name: &str, default: &Value, raw: &str) -> Result<Value> {
    let bad = |what: &str| {
        Error::invalid_param(
            "params",
            format!("parameter `{name}`: `{raw}` is not {what}"),
        )
    };
    Ok(match default {
        Value::Bool(_) => match raw.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Value::Bool(true),
            "false" | "0" | "no" => Value::Bool(false),
            _ => return Err(bad("a boolean (true/false)")),
        },
        Value::Number(n) if n.is_u64() || n.is_i64() => {
            match (raw.trim().parse::<u64>(), raw.trim().parse::<i64>()) {
                (Ok(v), _) => Value::from(v),
                (_, Ok(v)) => Value::from(v),
                _ => return Err(bad("an integer")),
            }
        }
        Value::Number(_) => {
            let v: f64 = raw.trim().parse().map_err(|_| bad("a number"))?;
            serde_json::Number::from_f64(v)
                .map(Value::Number)
                .ok_or_else(|| bad("a finite number"))?
        }
        Value::String(_) => Value::String(raw.to_string()),
        _ => match serde_json::from_str(raw) {
            Ok(v) => v,
            // `null` defaults (Option<f64>, Option<String>, …) also take a bare value.
            Err(_) if default.is_null() => match raw.trim().parse::<f64>() {
                Ok(x) => serde_json::Number::from_f64(x)
                    .map(Value::Number)
                    .ok_or_else(|| bad("a finite number"))?,
                Err(_) => Value::String(raw.to_string()),
            },
            Err(e) => return Err(bad(&format!("valid JSON ({e})"))),
        },
    })
}

impl Entry {
    fn make<E, M64, M32>(
        name: &'static str,
        kind: Kind,
        summary: &'static str,
        fit64: fn(&E, &ArrayRef2<f64>, &Target) -> Result<M64>,
        fit32: fn(&E, &ArrayRef2<f32>, &Target) -> Result<M32>,
        ops64: Ops<f64, M64>,
        ops32: Ops<f32, M32>,
    ) -> Entry
    where
        E: Default + Serialize + DeserializeOwned + Send + Sync + 'static,
        M64: Serialize + DeserializeOwned + Send + Sync + 'static,
        M32: Serialize + DeserializeOwned + Send + Sync + 'static,
    {
        let build = move |params: Value| -> Result<Box<dyn DynEstimator>> {
            let est: E = serde_json::from_value(params.clone()).map_err(|e| {
                Error::invalid_param("params", format!("{name}: invalid hyperparameters: {e}"))
            })?;
            Ok(Box::new(Adapter {
                est,
                params,
                fit64,
                fit32,
                ops64,
                ops32,
            }))
        };
        let load = move |p: Precision, json: Value| -> Result<Box<dyn DynModel>> {
            let model = match p {
                Precision::F64 => Either::F64(
                    serde_json::from_value::<M64>(json.clone())
                        .map_err(|e| json_err(&format!("{name} model (f64)"), e))?,
                ),
                Precision::F32 => Either::F32(
                    serde_json::from_value::<M32>(json.clone())
                        .map_err(|e| json_err(&format!("{name} model (f32)"), e))?,
                ),
            };
            Ok(Box::new(Fitted {
                model,
                ops64,
                ops32,
                json,
            }))
        };
        Entry {
            name,
            kind,
            summary,
            has_proba: ops64.proba.is_some(),
            has_inverse: ops64.inverse.is_some(),
            defaults: Arc::new(|| {
                serde_json::to_value(E::default()).map_err(|e| json_err("serialize defaults", e))
            }),
            choices: Arc::new(|d: &Value, field: &str| probe_choices::<E>(d, field)),
            build: Arc::new(build),
            load: Arc::new(load),
        }
    }

    /// A classifier without probabilities: `Fit<F, Target = Labels>`, model predicts labels.
    pub fn classifier<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: Fit<f64, Target = ndarray::ArrayRef1<usize>>
            + Fit<f32, Target = ndarray::ArrayRef1<usize>>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f64>>::Model: Predict<f64, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f32>>::Model: Predict<f32, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
    {
        Self::make::<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>(
            name,
            Kind::Classifier,
            summary,
            |e, x, y| Fit::<f64>::fit(e, x, want_labels(y)?),
            |e, x, y| Fit::<f32>::fit(e, x, want_labels(y)?),
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
        )
    }

    /// A classifier whose model also implements [`PredictProba`].
    pub fn probabilistic_classifier<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: Fit<f64, Target = ndarray::ArrayRef1<usize>>
            + Fit<f32, Target = ndarray::ArrayRef1<usize>>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f64>>::Model: PredictProba<f64>
            + Predict<f64, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f32>>::Model: PredictProba<f32>
            + Predict<f32, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
    {
        let mut e = Self::classifier::<E>(name, summary);
        let with_proba = Self::make::<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>(
            name,
            Kind::Classifier,
            summary,
            |e, x, y| Fit::<f64>::fit(e, x, want_labels(y)?),
            |e, x, y| Fit::<f32>::fit(e, x, want_labels(y)?),
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: Some(|m, x| m.predict_proba(x)),
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: Some(|m, x| m.predict_proba(x)),
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
        );
        e.build = with_proba.build;
        e.load = with_proba.load;
        e.has_proba = true;
        e
    }

    /// A single-output regressor: `Fit<F, Target = ArrayRef1<F>>`, model predicts `Array1<F>`.
    pub fn regressor<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: Fit<f64, Target = ndarray::ArrayRef1<f64>>
            + Fit<f32, Target = ndarray::ArrayRef1<f32>>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f64>>::Model: Predict<f64, Output = Array1<f64>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as Fit<f32>>::Model: Predict<f32, Output = Array1<f32>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
    {
        Self::make::<E, <E as Fit<f64>>::Model, <E as Fit<f32>>::Model>(
            name,
            Kind::Regressor,
            summary,
            |e, x, y| Fit::<f64>::fit(e, x, &want_values::<f64>(y)?),
            |e, x, y| Fit::<f32>::fit(e, x, &want_values::<f32>(y)?),
            Ops {
                predict: |m, x| m.predict(x).map(Output::Values),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.predict(x).map(|v| Output::Values(v.mapv(f64::from))),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
        )
    }

    /// A clusterer: `FitUnsupervised<F>`, model assigns rows to clusters.
    pub fn clusterer<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: FitUnsupervised<f64>
            + FitUnsupervised<f32>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as FitUnsupervised<f64>>::Model: Predict<f64, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as FitUnsupervised<f32>>::Model: Predict<f32, Output = Array1<usize>>
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
    {
        Self::make::<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>(
            name,
            Kind::Clusterer,
            summary,
            |e, x, _| FitUnsupervised::<f64>::fit(e, x),
            |e, x, _| FitUnsupervised::<f32>::fit(e, x),
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.predict(x).map(Output::Labels),
                proba: None,
                transform: None,
                inverse: None,
                n_features: n_features_from_json,
            },
        )
    }

    /// A transformer: `FitUnsupervised<F>`, model implements [`Transform`]; `predict` returns
    /// the transform.
    pub fn transformer<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: FitUnsupervised<f64>
            + FitUnsupervised<f32>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as FitUnsupervised<f64>>::Model:
            Transform<f64> + Serialize + DeserializeOwned + Send + Sync + 'static,
        <E as FitUnsupervised<f32>>::Model:
            Transform<f32> + Serialize + DeserializeOwned + Send + Sync + 'static,
    {
        Self::make::<E, <E as FitUnsupervised<f64>>::Model, <E as FitUnsupervised<f32>>::Model>(
            name,
            Kind::Transformer,
            summary,
            |e, x, _| FitUnsupervised::<f64>::fit(e, x),
            |e, x, _| FitUnsupervised::<f32>::fit(e, x),
            Ops {
                predict: |m, x| m.transform(x).map(Output::Matrix),
                proba: None,
                transform: Some(|m, x| m.transform(x)),
                inverse: None,
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.transform(x).map(|z| Output::Matrix(to_f64(z))),
                proba: None,
                transform: Some(|m, x| m.transform(x)),
                inverse: None,
                n_features: n_features_from_json,
            },
        )
    }

    /// A transformer whose model also implements [`InverseTransform`].
    pub fn invertible_transformer<E>(name: &'static str, summary: &'static str) -> Entry
    where
        E: FitUnsupervised<f64>
            + FitUnsupervised<f32>
            + Default
            + Serialize
            + DeserializeOwned
            + Send
            + Sync
            + 'static,
        <E as FitUnsupervised<f64>>::Model:
            InverseTransform<f64> + Serialize + DeserializeOwned + Send + Sync + 'static,
        <E as FitUnsupervised<f32>>::Model:
            InverseTransform<f32> + Serialize + DeserializeOwned + Send + Sync + 'static,
    {
        let mut e = Self::transformer::<E>(name, summary);
        let inv = Self::make::<
            E,
            <E as FitUnsupervised<f64>>::Model,
            <E as FitUnsupervised<f32>>::Model,
        >(
            name,
            Kind::Transformer,
            summary,
            |e, x, _| FitUnsupervised::<f64>::fit(e, x),
            |e, x, _| FitUnsupervised::<f32>::fit(e, x),
            Ops {
                predict: |m, x| m.transform(x).map(Output::Matrix),
                proba: None,
                transform: Some(|m, x| m.transform(x)),
                inverse: Some(|m, z| m.inverse_transform(z)),
                n_features: n_features_from_json,
            },
            Ops {
                predict: |m, x| m.transform(x).map(|z| Output::Matrix(to_f64(z))),
                proba: None,
                transform: Some(|m, x| m.transform(x)),
                inverse: Some(|m, z| m.inverse_transform(z)),
                n_features: n_features_from_json,
            },
        );
        e.build = inv.build;
        e.load = inv.load;
        e.has_inverse = true;
        e
    }

    /// The registered name (snake_case of the scikit-learn class).
    pub fn name(&self) -> &'static str {
        self.name
    }
    /// What the estimator does.
    pub fn kind(&self) -> Kind {
        self.kind
    }
    /// One line of description.
    pub fn summary(&self) -> &'static str {
        self.summary
    }
    /// Whether fitted models give class probabilities.
    pub fn has_proba(&self) -> bool {
        self.has_proba
    }
    /// Whether fitted models have an inverse transform.
    pub fn has_inverse(&self) -> bool {
        self.has_inverse
    }

    /// The default hyperparameters as a JSON object.
    pub fn defaults(&self) -> Result<Value> {
        (self.defaults)()
    }

    /// The hyperparameters with types, defaults and (for enums) accepted names, in field order.
    pub fn params(&self) -> Result<Vec<ParamInfo>> {
        let d = (self.defaults)()?;
        let Some(obj) = d.as_object() else {
            return Ok(Vec::new());
        };
        let mut out = Vec::new();
        for (k, v) in obj {
            let choices = if v.is_string() {
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
            out.push(ParamInfo {
                name: k.clone(),
                ty,
                default: v.clone(),
                choices,
            });
        }
        Ok(out)
    }

    /// Builds the estimator from `key=value` overrides of the defaults.
    pub fn build(&self, overrides: &[(String, String)]) -> Result<Box<dyn DynEstimator>> {
        let mut params = self.defaults()?;
        let valid = self.params()?;
        let names: Vec<&str> = valid.iter().map(|p| p.name.as_str()).collect();
        for (k, raw) in overrides {
            let Some(info) = valid.iter().find(|p| &p.name == k) else {
                return Err(Error::invalid_param(
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
                ));
            };
            if info.ty == ParamType::Choice && !info.choices.iter().any(|c| c == raw) {
                return Err(Error::invalid_param(
                    "params",
                    format!(
                        "parameter `{k}` of {}: `{raw}` is not one of {}",
                        self.name,
                        info.choices.join(", ")
                    ),
                ));
            }
            let v = parse_value(k, &info.default, raw)?;
            if let Some(obj) = params.as_object_mut() {
                obj.insert(k.clone(), v);
            }
        }
        self.build_json(params)
    }

    /// Builds the estimator from a full JSON hyperparameter object (as saved in a model file).
    pub fn build_json(&self, params: Value) -> Result<Box<dyn DynEstimator>> {
        (self.build)(params)
    }

    /// Restores a fitted model from its JSON (as returned by [`DynModel::to_json`]).
    pub fn load(&self, precision: Precision, model: Value) -> Result<Box<dyn DynModel>> {
        (self.load)(precision, model)
    }
}

/// Finds `name` in `entries`; the error lists the closest names (by edit distance).
pub fn find<'a>(entries: &'a [Entry], name: &str) -> Result<&'a Entry> {
    if let Some(e) = entries.iter().find(|e| e.name == name) {
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
mod tests {
    use super::*;
    use ndarray::{ArrayRef1, array};

    #[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    enum Mode {
        #[default]
        Mean,
        Median,
    }

    #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
    struct Centre {
        shift: f64,
        rounds: usize,
        mode: Mode,
        scale: bool,
        cap: Option<f64>,
    }
    impl Default for Centre {
        fn default() -> Self {
            Self {
                shift: 0.0,
                rounds: 1,
                mode: Mode::Mean,
                scale: false,
                cap: None,
            }
        }
    }

    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct FittedCentre<F> {
        centre: Vec<F>,
        n_features: usize,
        shift: f64,
    }

    impl<F: Float> FitUnsupervised<F> for Centre {
        type Model = FittedCentre<F>;
        fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedCentre<F>> {
            crate::validate::check_fit_input(x, 1, "Centre::fit")?;
            let c = x.mean_axis(ndarray::Axis(0)).ok_or(Error::TooFewSamples {
                context: "Centre::fit",
                needed: 1,
                found: 0,
            })?;
            Ok(FittedCentre {
                centre: c.to_vec(),
                n_features: x.ncols(),
                shift: self.shift,
            })
        }
    }
    impl<F: Float> Transform<F> for FittedCentre<F> {
        fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
            crate::validate::check_predict_input(x, self.n_features, "Centre::transform")?;
            let mut z = x.to_owned();
            for mut r in z.rows_mut() {
                for (v, c) in r.iter_mut().zip(&self.centre) {
                    *v = *v - *c + F::cast(self.shift);
                }
            }
            Ok(z)
        }
    }
    impl<F: Float> InverseTransform<F> for FittedCentre<F> {
        fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
            let mut x = z.to_owned();
            for mut r in x.rows_mut() {
                for (v, c) in r.iter_mut().zip(&self.centre) {
                    *v = *v + *c - F::cast(self.shift);
                }
            }
            Ok(x)
        }
    }

    #[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
    struct Majority;
    #[derive(Debug, serde::Serialize, serde::Deserialize)]
    struct FittedMajority {
        label: usize,
        n_classes: usize,
        n_features: usize,
    }
    impl<F: Float> Fit<F> for Majority {
        type Target = ArrayRef1<usize>;
        type Model = FittedMajority;
        fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedMajority> {
            crate::validate::check_fit_input(x, 1, "Majority::fit")?;
            let k = y.iter().copied().max().map_or(0, |m| m + 1);
            let mut counts = vec![0usize; k];
            for &l in y {
                counts[l] += 1;
            }
            let label = (0..k)
                .max_by_key(|&c| (counts[c], usize::MAX - c))
                .unwrap_or(0);
            Ok(FittedMajority {
                label,
                n_classes: k,
                n_features: x.ncols(),
            })
        }
    }
    impl<F: Float> Predict<F> for FittedMajority {
        type Output = Array1<usize>;
        fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
            crate::validate::check_predict_input(x, self.n_features, "Majority::predict")?;
            Ok(Array1::from_elem(x.nrows(), self.label))
        }
    }
    impl<F: Float> PredictProba<F> for FittedMajority {
        fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
            let mut p = Array2::zeros((x.nrows(), self.n_classes));
            p.column_mut(self.label).fill(F::one());
            Ok(p)
        }
    }

    #[test]
    fn params_types_defaults_and_choices() {
        let e = Entry::invertible_transformer::<Centre>("centre", "subtracts the mean");
        let p = e.params().expect("params");
        let by = |n: &str| p.iter().find(|q| q.name == n).expect("present").clone();
        assert_eq!(by("shift").ty, ParamType::Float);
        assert_eq!(by("rounds").ty, ParamType::Int);
        assert_eq!(by("scale").ty, ParamType::Bool);
        assert_eq!(by("cap").ty, ParamType::Json);
        let mode = by("mode");
        assert_eq!(mode.ty, ParamType::Choice);
        assert_eq!(mode.choices, vec!["mean".to_string(), "median".to_string()]);
        assert_eq!(p.len(), 5);
        assert!(e.has_inverse() && !e.has_proba());
    }

    #[test]
    fn build_fit_save_load_roundtrip() {
        let e = Entry::invertible_transformer::<Centre>("centre", "subtracts the mean");
        let est = e
            .build(&[
                ("shift".into(), "1.5".into()),
                ("mode".into(), "median".into()),
                ("cap".into(), "2".into()),
            ])
            .expect("valid overrides");
        assert_eq!(est.params()["shift"], 1.5);
        assert_eq!(est.params()["cap"], 2.0);
        let x = array![[1.0, 2.0], [3.0, 6.0]];
        for data in [Data::F64(x.clone()), Data::F32(x.mapv(|v| v as f32))] {
            let m = est.fit(&data, &Target::None).expect("fit");
            let z = m.transform(&data).expect("has transform").expect("ok");
            // x − mean + shift with mean (2, 4), shift 1.5.
            assert_eq!(z, array![[0.5, -0.5], [2.5, 3.5]]);
            let back = m
                .inverse_transform(&Data::F64(z))
                .expect("has")
                .expect("ok");
            assert_eq!(back, x);
            assert_eq!(m.n_features(), Some(2));
            let json = m.to_json().expect("json");
            let loaded = e.load(m.precision(), json).expect("loads");
            assert_eq!(
                loaded.predict(&data).expect("ok"),
                m.predict(&data).expect("ok")
            );
            assert!(m.predict_proba(&data).is_none());
        }
    }

    #[test]
    fn bad_overrides_are_typed_errors_listing_valid_values() {
        let e = Entry::transformer::<Centre>("centre", "subtracts the mean");
        let msg = |o: &[(&str, &str)]| {
            let o: Vec<(String, String)> = o
                .iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect();
            match e.build(&o) {
                Err(Error::InvalidParam { reason, .. }) => reason,
                Err(other) => panic!("wrong error {other}"),
                Ok(_) => panic!("accepted"),
            }
        };
        assert!(msg(&[("alpha", "1")]).contains("valid: shift, rounds, mode, scale, cap"));
        assert!(msg(&[("shift", "abc")]).contains("not a number"));
        assert!(msg(&[("rounds", "1.5")]).contains("not an integer"));
        assert!(msg(&[("scale", "maybe")]).contains("boolean"));
        assert!(msg(&[("mode", "mode")]).contains("mean, median"));
    }

    #[test]
    fn classifier_with_proba_and_target_checks() {
        let e = Entry::probabilistic_classifier::<Majority>("majority", "predicts the mode");
        assert!(e.has_proba());
        let est = e.build(&[]).expect("defaults");
        let x = Data::F64(array![[0.0], [1.0], [2.0]]);
        assert!(est.fit(&x, &Target::None).is_err());
        let m = est.fit(&x, &Target::Labels(array![1, 1, 0])).expect("fit");
        assert_eq!(m.predict(&x).expect("ok"), Output::Labels(array![1, 1, 1]));
        let p = m.predict_proba(&x).expect("has proba").expect("ok");
        assert_eq!(p.row(0).to_vec(), vec![0.0, 1.0]);
        assert!(m.predict(&Data::F64(array![[0.0, 1.0]])).is_err());
        let plain = Entry::classifier::<Majority>("majority", "predicts the mode");
        let m2 = plain
            .build(&[])
            .expect("ok")
            .fit(&x, &Target::Labels(array![0, 1, 1]))
            .expect("fit");
        assert!(m2.predict_proba(&x).is_none());
    }

    #[test]
    fn find_suggests_close_names() {
        let entries = vec![
            Entry::transformer::<Centre>("centre", "a"),
            Entry::classifier::<Majority>("majority", "b"),
        ];
        assert_eq!(find(&entries, "centre").expect("exists").name(), "centre");
        match find(&entries, "center") {
            Err(Error::InvalidParam { reason, .. }) => {
                assert!(reason.contains("did you mean centre"), "{reason}")
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
    }
}
