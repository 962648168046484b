//! Hyperparameters from `key=value` strings: name resolution (scikit-learn names, Rust field
//! spellings, case), value parsing by the default's type with JSON as the fallback, and flat keys
//! for the fields of struct variants (`kernel=rbf gamma=0.1` → `{"rbf": {"gamma": 0.1}}`).

use serde_json::{Map, Value};

use crate::{Error, Result};

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
    /// One of a fixed set of names (an enum); see [`ParamInfo::choices`].
    Choice,
    /// Free text.
    String,
    /// Any JSON (objects, arrays, optional values whose default is `null`).
    Json,
}

/// One hyperparameter of a registered estimator.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ParamInfo {
    /// The name (scikit-learn's where it has one): the `key` of `key=value`.
    pub name: String,
    /// How a value is parsed.
    #[serde(rename = "type")]
    pub ty: ParamType,
    /// The default, as JSON.
    pub default: Value,
    /// For [`ParamType::Choice`]: the accepted names.
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub choices: Vec<String>,
    /// Other spellings accepted for the name (the Rust field name, ...).
    #[serde(skip_serializing_if = "Vec::is_empty", default)]
    pub aliases: Vec<String>,
}

/// Aliases every estimator accepts: the Rust field spelling of a scikit-learn name.
pub(crate) const GLOBAL_ALIASES: &[(&str, &str)] = &[("seed", "random_state")];

/// serde's `rename_all = "snake_case"` of an identifier (`SqEuclidean` → `sq_euclidean`).
pub fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for (i, c) in name.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// The snake_case of a scikit-learn class name as people write it (`KMeans` → `k_means`,
/// `KNeighborsClassifier` → `k_neighbors_classifier`, `PCA` → `pca`, `GaussianNB` →
/// `gaussian_nb`, `TSNE` → `tsne`): an underscore before an upper-case letter that follows a
/// lower-case letter or digit, or that starts a capitalised word after a run of capitals.
pub fn class_snake_case(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_lowercase());
            if prev.is_lowercase() || prev.is_ascii_digit() || (prev.is_uppercase() && next_lower) {
                out.push('_');
            }
        }
        out.extend(c.to_lowercase());
    }
    out
}

/// The enum variant names a deserializer accepts for a field, read off serde's "expected one
/// of" message for a value no estimator uses.
pub(crate) fn probe_choices<E: serde::de::DeserializeOwned>(
    defaults: &Value,
    field: &str,
) -> Vec<String> {
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

fn number(x: f64) -> Option<Value> {
    serde_json::Number::from_f64(x).map(Value::Number)
}

/// The JSON of a raw string when no type is known: JSON if it parses, else the string.
fn loose(raw: &str) -> Value {
    let t = raw.trim();
    match serde_json::from_str::<Value>(t) {
        Ok(v) => v,
        Err(_) => match t.to_ascii_lowercase().as_str() {
            "none" | "null" => Value::Null,
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => Value::String(raw.to_string()),
        },
    }
}

/// Parses `raw` by the type of `default` (`alpha=0.5`, `max_iter=100`, `fit_intercept=false`,
/// `solver=svd`); `Err` holds the message of a value of the wrong type, and `Ok(None)` means "not
/// of the default's type, try it as JSON".
pub(crate) fn parse_typed(name: &str, default: &Value, raw: &str) -> Result<Option<Value>> {
    let bad = |what: &str| {
        Error::invalid_param(
            "params",
            format!("parameter `{name}`: `{raw}` is not {what}"),
        )
    };
    let t = raw.trim();
    Ok(match default {
        Value::Bool(_) => match t.to_ascii_lowercase().as_str() {
            "true" | "1" | "yes" => Some(Value::Bool(true)),
            "false" | "0" | "no" => Some(Value::Bool(false)),
            _ => return Err(bad("a boolean (true/false)")),
        },
        Value::Number(n) if n.is_u64() || n.is_i64() => {
            match (t.parse::<u64>(), t.parse::<i64>()) {
                (Ok(v), _) => Some(Value::from(v)),
                (_, Ok(v)) => Some(Value::from(v)),
                _ => None,
            }
        }
        Value::Number(_) => match t.parse::<f64>() {
            Ok(v) if v.is_finite() => number(v),
            Ok(_) => return Err(bad("a finite number")),
            Err(_) => None,
        },
        Value::String(_) => Some(Value::String(t.to_string())),
        _ => Some(loose(raw)),
    })
}

/// The message for a value that did not parse as its type and was not accepted as JSON.
pub(crate) fn type_error(name: &str, default: &Value, raw: &str) -> Error {
    let what = match default {
        Value::Number(n) if n.is_u64() || n.is_i64() => "an integer",
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean (true/false)",
        _ => "a valid value",
    };
    Error::invalid_param(
        "params",
        format!("parameter `{name}`: `{raw}` is not {what}"),
    )
}

/// A raw value as loose JSON (used for the fallback and for flat keys).
pub(crate) fn loose_value(raw: &str) -> Value {
    loose(raw)
}

/// `{variant: {fields}}` of a struct-variant value (externally tagged), or `None`.
pub(crate) fn variant_fields(v: &mut Value) -> Option<&mut Map<String, Value>> {
    let obj = v.as_object_mut()?;
    if obj.len() != 1 {
        return None;
    }
    obj.values_mut().next()?.as_object_mut()
}

/// `true` when the object has exactly one key whose value is an object.
pub(crate) fn is_struct_variant(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|o| o.len() == 1 && o.values().next().is_some_and(Value::is_object))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_cases() {
        assert_eq!(snake_case("SqEuclidean"), "sq_euclidean");
        assert_eq!(snake_case("KdTree"), "kd_tree");
        assert_eq!(snake_case("Rbf"), "rbf");
        for (class, want) in [
            ("KMeans", "k_means"),
            ("KNeighborsClassifier", "k_neighbors_classifier"),
            ("LinearDiscriminantAnalysis", "linear_discriminant_analysis"),
            ("PCA", "pca"),
            ("GaussianNB", "gaussian_nb"),
            ("TSNE", "tsne"),
            ("SGDClassifier", "sgd_classifier"),
            ("DBSCAN", "dbscan"),
            ("MiniBatchKMeans", "mini_batch_k_means"),
            ("ARDRegression", "ard_regression"),
            ("NMF", "nmf"),
            ("FastICA", "fast_ica"),
        ] {
            assert_eq!(class_snake_case(class), want, "{class}");
        }
    }

    #[test]
    fn typed_and_loose_parsing() {
        let p = |d: Value, raw: &str| parse_typed("k", &d, raw);
        assert_eq!(p(Value::from(1), "5").expect("ok"), Some(Value::from(5u64)));
        assert_eq!(p(Value::from(1), "0.95").expect("ok"), None);
        assert_eq!(p(Value::from(1.5), "abc").expect("ok"), None);
        assert!(p(Value::from(1.5), "inf").is_err());
        assert!(p(Value::Bool(true), "maybe").is_err());
        assert_eq!(p(Value::Null, "3").expect("ok"), Some(Value::from(3u64)));
        assert_eq!(
            p(Value::Null, "mle").expect("ok"),
            Some(Value::String("mle".into()))
        );
        assert_eq!(p(Value::Null, "None").expect("ok"), Some(Value::Null));
        assert_eq!(loose_value("{\"a\": 1}"), serde_json::json!({"a": 1}));
        let mut v = serde_json::json!({"rbf": {"gamma": 1.0}});
        assert!(is_struct_variant(&v));
        variant_fields(&mut v)
            .expect("fields")
            .insert("gamma".into(), Value::from(0.5));
        assert_eq!(v, serde_json::json!({"rbf": {"gamma": 0.5}}));
        assert!(!is_struct_variant(&serde_json::json!({"a": 1, "b": {}})));
    }
}
