//! The model file: serde JSON in a versioned envelope.
//!
//! ```json
//! {
//!   "format": "ndlearn-model",
//!   "format_version": 2,
//!   "ndlearn_version": "0.1.0",
//!   "algorithm": "ridge",
//!   "kind": "regressor",
//!   "precision": "f64",
//!   "hyperparameters": { "alpha": 1.0, ... },
//!   "feature_names": ["age", "sex", ...],
//!   "target_name": "target",
//!   "labels": null,
//!   "model": { ...the fitted state... }
//! }
//! ```
//!
//! `labels` holds the class names of a classifier in label order (label `k` is `labels[k]`).
//! Floats are written with round-trip precision, so a loaded model predicts bit-identically.

use std::panic::AssertUnwindSafe;
use std::path::Path;

use ndarray::Array2;

use ndlearn_core::registry::{Data, DynModel, Entry, Kind, Precision};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::CliError;

/// The `format` marker of a model file.
pub const FORMAT: &str = "ndlearn-model";
/// The newest envelope version this build reads and the one it writes (see
/// [`ndlearn_core::registry::migrate`] for what changed between versions; older files are
/// migrated on read).
pub const FORMAT_VERSION: u32 = ndlearn_core::registry::MODEL_FORMAT_VERSION;

/// A model file's contents.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ModelFile {
    /// Always [`FORMAT`].
    pub format: String,
    /// Envelope version ([`FORMAT_VERSION`] when written by this build).
    pub format_version: u32,
    /// Version of the ndlearn that wrote the file.
    pub ndlearn_version: String,
    /// Registered algorithm name.
    pub algorithm: String,
    /// The algorithm's kind.
    pub kind: Kind,
    /// Element type of the fitted model.
    pub precision: Precision,
    /// The hyperparameters it was fitted with.
    pub hyperparameters: Value,
    /// Feature column names, in order.
    pub feature_names: Vec<String>,
    /// Target column name at fit time.
    pub target_name: Option<String>,
    /// Class names of a classifier, in label order.
    pub labels: Option<Vec<String>>,
    /// The fitted state.
    pub model: Value,
    /// How a raw table's text columns and missing cells were turned into the model's input
    /// (absent for plain numeric files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encoding: Option<crate::raw::Encoding>,
}

impl ModelFile {
    /// The envelope of a fitted model of `entry`, written by this build ([`FORMAT`],
    /// [`FORMAT_VERSION`], this crate's version): `hyperparameters` as the estimator's
    /// `params()`, `model` as the fitted model's `to_json()`. No target name, class names or
    /// encoding until [`with_target`](Self::with_target), [`with_labels`](Self::with_labels)
    /// and [`with_encoding`](Self::with_encoding) add them.
    pub fn new(
        entry: &Entry,
        precision: Precision,
        hyperparameters: Value,
        feature_names: Vec<String>,
        model: Value,
    ) -> ModelFile {
        ModelFile {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            ndlearn_version: env!("CARGO_PKG_VERSION").into(),
            algorithm: entry.name().into(),
            kind: entry.kind(),
            precision,
            hyperparameters,
            feature_names,
            target_name: None,
            labels: None,
            model,
            encoding: None,
        }
    }

    /// With the target column's name, kept for classifiers and regressors only (other kinds
    /// have no target).
    #[must_use]
    pub fn with_target(mut self, name: Option<String>) -> ModelFile {
        self.target_name = match self.kind {
            Kind::Classifier | Kind::Regressor => name,
            _ => None,
        };
        self
    }

    /// With a classifier's class names, in label order.
    #[must_use]
    pub fn with_labels(mut self, labels: Option<Vec<String>>) -> ModelFile {
        self.labels = labels;
        self
    }

    /// With the encoding of a raw table's text columns and missing cells.
    #[must_use]
    pub fn with_encoding(mut self, encoding: Option<crate::raw::Encoding>) -> ModelFile {
        self.encoding = encoding;
        self
    }

    /// Writes the file (pretty-printed JSON).
    pub fn save(&self, path: &Path) -> Result<(), CliError> {
        let text = serde_json::to_string_pretty(self)
            .map_err(|e| CliError::runtime(format!("cannot serialize the model: {e}")))?;
        std::fs::write(path, text + "\n")
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", path.display())))
    }

    /// Reads and checks a model file: a clear error for a missing, corrupt, truncated, foreign
    /// or newer-format file.
    pub fn load(path: &Path) -> Result<ModelFile, CliError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::input(format!("cannot read model {}: {e}", path.display())))?;
        Self::parse(&text, &path.display().to_string())
    }

    /// [`ModelFile::load`] from a string (`origin` names it in errors).
    pub fn parse(text: &str, origin: &str) -> Result<ModelFile, CliError> {
        if text.trim().is_empty() {
            return Err(CliError::input(format!(
                "{origin}: the model file is empty"
            )));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| {
            let what = if e.is_eof() {
                "truncated"
            } else {
                "not valid JSON"
            };
            CliError::input(format!("{origin}: not an ndlearn model file ({what}: {e})"))
        })?;
        match value.get("format").and_then(Value::as_str) {
            Some(FORMAT) => {}
            _ => {
                return Err(CliError::input(format!(
                    "{origin}: not an ndlearn model file (no \"format\": \"{FORMAT}\" marker)"
                )));
            }
        }
        let version = value
            .get("format_version")
            .and_then(Value::as_u64)
            .ok_or_else(|| {
                CliError::input(format!("{origin}: the model file has no format_version"))
            })?;
        if version > u64::from(FORMAT_VERSION) {
            return Err(CliError::input(format!(
                "{origin}: the model was written in format version {version} by ndlearn {}; this \
                 ndlearn ({}) reads versions up to {FORMAT_VERSION}: upgrade ndlearn",
                value
                    .get("ndlearn_version")
                    .and_then(Value::as_str)
                    .unwrap_or("?"),
                env!("CARGO_PKG_VERSION")
            )));
        }
        let mut file: ModelFile = serde_json::from_value(value)
            .map_err(|e| CliError::input(format!("{origin}: damaged model file: {e}")))?;
        if file.format_version < FORMAT_VERSION {
            let damaged = |e: ndlearn_core::Error| {
                CliError::input(format!("{origin}: damaged model file: {e}"))
            };
            ndlearn_core::registry::migrate(file.format_version, &mut file.hyperparameters)
                .map_err(damaged)?;
            ndlearn_core::registry::migrate(file.format_version, &mut file.model)
                .map_err(damaged)?;
            file.format_version = FORMAT_VERSION;
        }
        Ok(file)
    }

    /// Restores the fitted model through its registry entry.
    pub fn restore(&self, entry: &Entry, origin: &str) -> Result<Box<dyn DynModel>, CliError> {
        if entry.kind() != self.kind {
            return Err(CliError::input(format!(
                "{origin}: damaged model file: `{}` is a {}, the file says {}",
                self.algorithm,
                entry.kind(),
                self.kind
            )));
        }
        let model = entry
            .load(self.precision, self.model.clone())
            .map_err(|e| CliError::input(format!("{origin}: damaged model file: {e}")))?;
        self.probe(model.as_ref(), origin)?;
        Ok(model)
    }

    /// Predicts one all-zero row of the file's width: a fitted state whose shapes disagree with
    /// the stored feature names (a hand-edited or damaged file) is reported here, naming the
    /// file, instead of failing later inside the model.
    fn probe(&self, model: &dyn DynModel, origin: &str) -> Result<(), CliError> {
        // The model sees the encoded columns of a raw table.
        let d = match &self.encoding {
            Some(e) => e.transformer.n_features_out(),
            None => self.feature_names.len(),
        };
        let x = match self.precision {
            Precision::F64 => Data::F64(Array2::zeros((1, d))),
            Precision::F32 => Data::F32(Array2::zeros((1, d))),
        };
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| model.predict(&x).map(|_| ())));
        std::panic::set_hook(previous);
        let damaged = |why: String| {
            CliError::input(format!(
                "{origin}: damaged model file: its fitted state does not fit its {d} feature \
                 columns ({why})"
            ))
        };
        match outcome {
            Err(_) => Err(damaged("predicting panicked".into())),
            Ok(Err(e @ ndlearn_core::Error::ShapeMismatch { .. })) => Err(damaged(e.to_string())),
            // Other errors (a transductive model refusing new rows, say) are the model's to
            // report on real data.
            Ok(_) => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> ModelFile {
        ModelFile {
            format: FORMAT.into(),
            format_version: FORMAT_VERSION,
            ndlearn_version: "0.1.0".into(),
            algorithm: "ridge".into(),
            kind: Kind::Regressor,
            precision: Precision::F64,
            hyperparameters: serde_json::json!({"alpha": 1.0}),
            feature_names: vec!["a".into()],
            target_name: Some("target".into()),
            labels: None,
            model: serde_json::json!({"coef": [0.1]}),
            encoding: None,
        }
    }

    #[test]
    fn round_trip_and_errors() {
        let text = serde_json::to_string(&sample()).expect("serializes");
        let back = ModelFile::parse(&text, "m").expect("parses");
        assert_eq!(back.algorithm, "ridge");
        let msg = |t: &str| ModelFile::parse(t, "m").expect_err("bad").message;
        assert!(msg("").contains("empty"));
        assert!(msg(&text[..text.len() / 2]).contains("truncated"));
        assert!(msg("{\"a\": 1}").contains("not an ndlearn model file"));
        assert!(msg("hello").contains("not valid JSON"));
        let newer = text.replace("\"format_version\":2", "\"format_version\":7");
        assert!(msg(&newer).contains("format version 7"));
        let damaged = text.replace("\"kind\":\"regressor\"", "\"kind\":\"bogus\"");
        assert!(msg(&damaged).contains("damaged"));
    }
}
