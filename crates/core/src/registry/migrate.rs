//! Upgrading the JSON of older model files.
//!
//! | version | what changed |
//! |---|---|
//! | 1 → 2 | every enum serialises in snake_case (`"Euclidean"` → `"euclidean"`, `{"Minkowski": {"p": 3}}` → `{"minkowski": {"p": 3}}`); hyperparameters carry scikit-learn's names (`random_state`, `C`, ...), whose older Rust spellings every estimator still reads as serde aliases |
//!
//! [`migrate`] applies the steps from a file's version to [`MODEL_FORMAT_VERSION`] to the
//! hyperparameters and the fitted state (the model file's envelope is the caller's).

use serde_json::Value;

use super::params::snake_case;
use crate::{Error, Result};

/// The model-file format this build writes.
pub const MODEL_FORMAT_VERSION: u32 = 2;

/// `true` for the identifiers serde wrote for enum variants in version 1 (`Euclidean`,
/// `SqEuclidean`, `Rbf`): an upper-case letter followed by letters and digits only.
fn is_pascal_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_uppercase())
        && chars.all(|c| c.is_ascii_alphanumeric())
}

/// Version 1 → 2: PascalCase enum names (string values and the single keys of externally
/// tagged variants) become snake_case, recursively.
fn v1_to_v2(v: &mut Value) {
    match v {
        Value::String(s) if is_pascal_identifier(s) => *s = snake_case(s),
        Value::Array(a) => a.iter_mut().for_each(v1_to_v2),
        Value::Object(o) => {
            let keys: Vec<String> = o.keys().cloned().collect();
            for k in keys {
                if let Some(mut inner) = o.remove(&k) {
                    v1_to_v2(&mut inner);
                    let key = if is_pascal_identifier(&k) {
                        snake_case(&k)
                    } else {
                        k
                    };
                    o.insert(key, inner);
                }
            }
        }
        _ => {}
    }
}

/// Upgrades the hyperparameters or the fitted state of a model written in format `version` to
/// [`MODEL_FORMAT_VERSION`], in place.
///
/// # Errors
/// [`Error::Parse`] for a version of 0 or newer than this build reads.
pub fn migrate(version: u32, value: &mut Value) -> Result<()> {
    if version == 0 || version > MODEL_FORMAT_VERSION {
        return Err(Error::Parse {
            line: 0,
            column: 0,
            reason: format!(
                "model format version {version} is not one this build reads (1..={MODEL_FORMAT_VERSION})"
            ),
        });
    }
    if version < 2 {
        v1_to_v2(value);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn version_1_enum_names_become_snake_case() {
        let mut v = json!({
            "metric": "SqEuclidean",
            "kernel": {"Polynomial": {"gamma": 1.0, "coef0": 0.0, "degree": 3}},
            "list": ["Auto", "kd_tree", "X1"],
            "name": "not an Identifier",
            "n": 3
        });
        migrate(1, &mut v).expect("v1");
        assert_eq!(
            v,
            json!({
                "metric": "sq_euclidean",
                "kernel": {"polynomial": {"gamma": 1.0, "coef0": 0.0, "degree": 3}},
                "list": ["auto", "kd_tree", "x1"],
                "name": "not an Identifier",
                "n": 3
            })
        );
        let before = v.clone();
        migrate(2, &mut v).expect("current");
        assert_eq!(v, before);
        assert!(migrate(3, &mut v).is_err());
        assert!(migrate(0, &mut v).is_err());
    }
}
