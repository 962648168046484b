//! Minimal reader of `datasets/golden/core/<name>.json` with serde_json (used until the test
//! kit's `Golden` loader lands on main).

#![allow(dead_code)]

use std::path::PathBuf;

use ndarray::{Array1, Array2};
use serde_json::Value;

/// The `cases` object of a golden file, in file order.
pub fn cases(name: &str) -> Vec<(String, Value)> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../datasets/golden/core")
        .join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("read {path:?}: {e}"));
    let doc: Value = serde_json::from_str(&text).expect("golden file is valid JSON");
    let cases = doc["cases"]
        .as_object()
        .expect("golden file has a cases object");
    cases.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
}

pub fn scalar(case: &Value, field: &str) -> f64 {
    case[field]
        .as_f64()
        .unwrap_or_else(|| panic!("field {field} is not a number"))
}

pub fn string<'a>(case: &'a Value, field: &str) -> &'a str {
    case[field]
        .as_str()
        .unwrap_or_else(|| panic!("field {field} is not a string"))
}

pub fn vector(case: &Value, field: &str) -> Array1<f64> {
    case[field]
        .as_array()
        .unwrap_or_else(|| panic!("field {field} is not a list"))
        .iter()
        .map(|v| v.as_f64().expect("number"))
        .collect()
}

pub fn usizes(case: &Value, field: &str) -> Vec<usize> {
    case[field]
        .as_array()
        .unwrap_or_else(|| panic!("field {field} is not a list"))
        .iter()
        .map(|v| v.as_u64().expect("non-negative integer") as usize)
        .collect()
}

pub fn matrix(case: &Value, field: &str) -> Array2<f64> {
    let rows = case[field]
        .as_array()
        .unwrap_or_else(|| panic!("field {field} is not a list of rows"));
    let ncols = rows
        .first()
        .and_then(|r| r.as_array())
        .map_or(0, |r| r.len());
    let data: Vec<f64> = rows
        .iter()
        .flat_map(|r| {
            r.as_array()
                .expect("row")
                .iter()
                .map(|v| v.as_f64().expect("number"))
        })
        .collect();
    Array2::from_shape_vec((rows.len(), ncols), data).expect("rectangular matrix")
}

pub fn usize_matrix(case: &Value, field: &str) -> Array2<usize> {
    matrix(case, field).mapv(|v| v as usize)
}
