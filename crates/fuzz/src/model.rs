//! The `model_file` target: mutated model files of every registered estimator.

use std::sync::OnceLock;

use arbitrary::{Result as ArbResult, Unstructured};
use ndarray::{Array1, Array2};
use ndlearn_cli::model_file::ModelFile;
use ndlearn_core::registry::{Data, Kind, Precision, Target as RTarget};
use serde_json::{Number, Value};

use crate::{Outcome, entries, exercise, matrix, pointers};

/// A model file of every registered estimator that fits the pool's data, in f64 and f32 (the
/// text of the file as `ndlearn fit` writes it), built once per process and in a fixed order,
/// so an input names the same file in every run.
pub fn model_pool() -> &'static [String] {
    static POOL: OnceLock<Vec<String>> = OnceLock::new();
    POOL.get_or_init(build_pool)
}

/// Three well-separated blobs of 10 rows in 3 columns, shifted to be positive.
fn pool_data() -> (Array2<f64>, Array1<usize>, Array1<f64>) {
    let n = 30;
    let mut x = Array2::zeros((n, 3));
    let mut labels = Array1::zeros(n);
    let mut y = Array1::zeros(n);
    for i in 0..n {
        let c = i % 3;
        // A fixed scatter around each centre (no RNG: the pool must not change).
        let t = i as f64 * 0.7;
        x[[i, 0]] = 4.0 * c as f64 + 0.3 * t.sin() + 1.0;
        x[[i, 1]] = 2.0 * (c as f64 - 1.0).abs() + 0.3 * t.cos() + 1.0;
        x[[i, 2]] = 0.5 * (t * 1.3).sin() + 1.5;
        labels[i] = c;
        y[i] = 2.0 * x[[i, 0]] - x[[i, 1]] + 0.1 * t.sin();
    }
    (x, labels, y)
}

fn build_pool() -> Vec<String> {
    let (x, labels, y) = pool_data();
    let mut pool = Vec::new();
    for entry in entries() {
        let caps = entry.capabilities();
        let xe = if caps.categorical_input {
            x.mapv(|v| v.round() % 5.0)
        } else {
            x.clone()
        };
        let target = match entry.kind() {
            Kind::Classifier => RTarget::Labels(labels.clone()),
            Kind::Regressor => RTarget::Values(y.clone()),
            _ => RTarget::None,
        };
        let Ok(est) = entry.build(&[]) else {
            continue;
        };
        for precision in [Precision::F64, Precision::F32] {
            let data = match precision {
                Precision::F64 => Data::F64(xe.clone()),
                Precision::F32 => Data::F32(xe.mapv(|v| v as f32)),
            };
            let Ok(model) = est.fit(&data, &target) else {
                continue;
            };
            let Ok(json) = model.to_json() else {
                continue;
            };
            let file = ModelFile::new(
                entry,
                precision,
                est.params(),
                vec!["a".into(), "b".into(), "c".into()],
                json,
            )
            .with_target(Some("t".into()))
            .with_labels(match entry.kind() {
                Kind::Classifier => Some(vec!["x".into(), "y".into(), "z".into()]),
                _ => None,
            });
            if let Ok(text) = serde_json::to_string(&file) {
                pool.push(text);
            }
        }
    }
    pool
}

/// Numbers that probe every check: zero, ±1, huge and tiny, integers past `u32`/`usize`.
fn hostile_number(u: &mut Unstructured<'_>) -> ArbResult<Value> {
    Ok(match u.int_in_range(0u8..=11)? {
        0 => Value::from(0),
        1 => Value::from(1),
        2 => Value::from(-1),
        3 => Value::from(u64::MAX),
        4 => Value::from(u64::from(u32::MAX) + 1),
        5 => Value::from(1u64 << 40),
        6 => Value::from(i64::MIN),
        7 => Number::from_f64(1e308).map_or(Value::Null, Value::Number),
        8 => Number::from_f64(-1e308).map_or(Value::Null, Value::Number),
        9 => Number::from_f64(1e-308).map_or(Value::Null, Value::Number),
        10 => Value::from(u.int_in_range(0u8..=20)?),
        _ => Number::from_f64(f64::from(u.arbitrary::<i16>()?) / 7.0)
            .map_or(Value::Null, Value::Number),
    })
}

/// One structural mutation of the JSON tree at a node `u` picks.
fn mutate(v: &mut Value, u: &mut Unstructured<'_>) -> ArbResult<()> {
    let ptrs = pointers(v, 20_000);
    let at = ptrs[u.choose_index(ptrs.len())?].clone();
    let op = u.int_in_range(0u8..=9)?;
    // Op 7 copies another node over this one: read it before borrowing this one mutably.
    let other = if op == 7 {
        let from = &ptrs[u.choose_index(ptrs.len())?];
        v.pointer(from).cloned()
    } else {
        None
    };
    let Some(node) = v.pointer_mut(&at) else {
        return Ok(());
    };
    match op {
        0 => *node = hostile_number(u)?,
        1 => *node = Value::Null,
        2 => {
            if let Value::Array(a) = node {
                if !a.is_empty() {
                    let i = u.choose_index(a.len())?;
                    a.remove(i);
                }
            }
        }
        3 => {
            if let Value::Array(a) = node {
                if !a.is_empty() {
                    let i = u.choose_index(a.len())?;
                    let c = a[i].clone();
                    a.push(c);
                }
            }
        }
        4 => {
            if let Value::Object(o) = node {
                if !o.is_empty() {
                    let i = u.choose_index(o.len())?;
                    if let Some(k) = o.keys().nth(i).cloned() {
                        o.remove(&k);
                    }
                }
            }
        }
        5 => resize_ndarray(node, u)?,
        6 => {
            *node = if u.arbitrary()? {
                Value::Array(Vec::new())
            } else {
                Value::Object(serde_json::Map::new())
            }
        }
        7 => {
            if let Some(o) = other {
                *node = o;
            }
        }
        8 => {
            let names = entries();
            let e = &names[u.choose_index(names.len())?];
            *node = Value::from(e.name());
        }
        _ => {
            // Off by one: the classic index error.
            if let Some(i) = node.as_i64() {
                let d = if u.arbitrary()? { 1 } else { -1 };
                *node = Value::from(i.saturating_add(d));
            } else if let Some(i) = node.as_u64() {
                *node = Value::from(i.saturating_add(1));
            } else if let Some(f) = node.as_f64() {
                *node = Number::from_f64(-f).map_or(Value::Null, Value::Number);
            }
        }
    }
    Ok(())
}

/// An `ndarray` in serde form (`{"v": 1, "dim": [..], "data": [..]}`) resized along one axis
/// and still valid, so that only the model's own check can notice the wrong shape.
fn resize_ndarray(node: &mut Value, u: &mut Unstructured<'_>) -> ArbResult<()> {
    let Value::Object(o) = node else {
        return Ok(());
    };
    let Some(dim) = o.get("dim").and_then(Value::as_array).map(|d| {
        d.iter()
            .map(|v| v.as_u64().and_then(|v| usize::try_from(v).ok()))
            .collect::<Option<Vec<usize>>>()
    }) else {
        return Ok(());
    };
    let (Some(mut dim), Some(data)) = (dim, o.get("data").and_then(Value::as_array).cloned())
    else {
        return Ok(());
    };
    if dim.is_empty() || data.len() != dim.iter().product::<usize>() {
        return Ok(());
    }
    let axis = u.choose_index(dim.len())?;
    let new = match u.int_in_range(0u8..=2)? {
        0 => dim[axis].saturating_sub(1),
        1 => dim[axis] + 1,
        _ => 0,
    };
    // Row-major: resize the outer axis by slicing; other axes by rebuilding.
    let old = dim.clone();
    dim[axis] = new;
    let fill = data.first().cloned().unwrap_or(Value::from(0));
    let total: usize = dim.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut idx = vec![0usize; dim.len()];
    for _ in 0..total {
        // The element at `idx` in the old layout if it exists there, else `fill`.
        let mut flat = 0usize;
        let mut inside = true;
        for (k, &i) in idx.iter().enumerate() {
            if i >= old[k] {
                inside = false;
                break;
            }
            flat = flat * old[k] + i;
        }
        out.push(if inside {
            data[flat].clone()
        } else {
            fill.clone()
        });
        for k in (0..dim.len()).rev() {
            idx[k] += 1;
            if idx[k] < dim[k] {
                break;
            }
            idx[k] = 0;
        }
    }
    o.insert(
        "dim".into(),
        Value::Array(dim.into_iter().map(Value::from).collect()),
    );
    o.insert("data".into(), Value::Array(out));
    Ok(())
}

/// Byte-level damage of the file's text: truncation, flipped bytes, a spliced range.
fn damage(text: &mut Vec<u8>, u: &mut Unstructured<'_>) -> ArbResult<()> {
    if text.is_empty() {
        return Ok(());
    }
    match u.int_in_range(0u8..=5)? {
        0 => {
            let at = u.choose_index(text.len())?;
            text.truncate(at);
        }
        1 => {
            for _ in 0..u.int_in_range(1u8..=4)? {
                let at = u.choose_index(text.len())?;
                text[at] ^= 1 << u.int_in_range(0u8..=7)?;
            }
        }
        2 => {
            let a = u.choose_index(text.len())?;
            let b = u.choose_index(text.len())?;
            let (a, b) = (a.min(b), a.max(b));
            let piece = text[a..b].to_vec();
            let at = u.choose_index(text.len())?;
            text.splice(at..at, piece);
        }
        _ => {}
    }
    Ok(())
}

pub(crate) fn run(u: &mut Unstructured<'_>) -> ArbResult<Outcome> {
    let pool = model_pool();
    if pool.is_empty() {
        return Ok(Outcome::Rejected);
    }
    let base = &pool[u.choose_index(pool.len())?];
    let mut v: Value = match serde_json::from_str(base) {
        Ok(v) => v,
        Err(e) => panic!("the pool's own model file does not parse: {e}"),
    };
    for _ in 0..u.int_in_range(0u8..=4)? {
        mutate(&mut v, u)?;
    }
    let mut text = match serde_json::to_vec(&v) {
        Ok(t) => t,
        Err(e) => panic!("a JSON value does not serialise: {e}"),
    };
    damage(&mut text, u)?;
    let text = String::from_utf8_lossy(&text);
    // The command line's path: parse, find the entry, restore (with its probe).
    let Ok(file) = ModelFile::parse(&text, "fuzz") else {
        return Ok(Outcome::Rejected);
    };
    let Ok(entry) = ndlearn_cli::find(entries(), &file.algorithm) else {
        return Ok(Outcome::Rejected);
    };
    let _ = file.restore(entry, "fuzz");
    // The library's path, without the command line's probe: the model's own check is all
    // that stands between the file and the prediction code.
    if entry.kind() != file.kind {
        return Ok(Outcome::Rejected);
    }
    let Ok(model) = entry.load(file.precision, file.model.clone()) else {
        return Ok(Outcome::Rejected);
    };
    let d = model.n_features_in();
    assert!(
        d <= 10_000,
        "{}: a loaded model that claims {d} features passed its check",
        entry.name()
    );
    let width = if u.ratio(7u8, 8u8)? {
        d
    } else {
        u.int_in_range(0usize..=6)?
    };
    let x = matrix(u, Some(width))?;
    let x = match file.precision {
        Precision::F64 => Data::F64(x),
        Precision::F32 => Data::F32(x.mapv(|v| v as f32)),
    };
    exercise(model.as_ref(), &x, false, entry.name());
    Ok(Outcome::Accepted)
}
