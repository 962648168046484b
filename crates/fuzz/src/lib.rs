//! Structured random fuzzing of everything in ndlearn that reads untrusted bytes or numbers.
//!
//! Each [`Target`] turns an arbitrary byte string into a structured input with
//! [`arbitrary::Unstructured`] (so every byte string is a valid input, and a shorter one a
//! simpler input) and runs it through the code under test. A target returns
//! [`Outcome::Accepted`] or [`Outcome::Rejected`] (a typed error: the wanted answer to bad
//! input); anything else — a panic, an abort, a hang, a non-finite output from finite input
//! without an error — is a finding. The driver (`cargo xtask fuzz`, the `ndlearn-fuzz`
//! binary) runs each target for a time budget in a child process, saves every finding under
//! `crates/fuzz/corpus/<target>/`, and the crate's test replays that corpus in the normal
//! suite, so every crash found stays a regression test.
//!
//! | target | what it feeds | through |
//! |---|---|---|
//! | `csv` | raw bytes and generated tables (odd numbers, quoting, ragged rows, BOMs, empty headers) | `ndlearn_datasets::read_csv`, the CLI's loader and its raw-table reader |
//! | `model_file` | model files of every registered estimator, mutated (numbers, off-by-one integers, resized arrays that stay valid `ndarray`s, removed keys, swapped subtrees, truncation, byte flips) | `ModelFile::parse`, `restore`, `Entry::load` (hence `CheckModel`) and every prediction method |
//! | `param` | `key=value` strings (real keys and values of the entry, hostile numbers, junk) | the CLI's `--param` split and `Entry::build` |
//! | `fit_predict` | small matrices (0–10 rows, 0–5 columns; NaN, ±Inf, 1e±300, subnormals, duplicated rows, constant columns), targets and weights | `fit`, then every prediction method of every registered estimator, and the model-file round trip |
//!
//! [`stress`] is the numerical stress suite over every registered estimator (Hilbert-like and
//! collinear designs, 1e±150 scales, duplicated rows, equal targets, one sample per class,
//! n < d): `ndlearn-fuzz --stress` prints its table (docs/reliability.md).
//!
//! Why structured random fuzzing rather than coverage-guided: `cargo fuzz` needs a nightly
//! toolchain and cargo-afl builds AFL++'s LLVM plugins, neither of which the stable toolchain
//! of a fresh machine has (docs/decisions/0026-fuzzing.md).

use std::sync::OnceLock;

use arbitrary::{Result as ArbResult, Unstructured};
use ndarray::{Array1, Array2};
use ndlearn_core::registry::{Data, DynModel, Entry, Kind, Output, Precision, Target as RTarget};
use serde_json::Value;

mod csv;
mod model;
mod param;
pub mod stress;

pub use model::model_pool;

/// A fuzz target.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Target {
    /// The CSV loaders.
    Csv,
    /// Model-file loading and prediction from the loaded model.
    ModelFile,
    /// The `--param` parser and hyperparameter validation.
    Param,
    /// Fit and predict of every registered estimator on arbitrary small matrices.
    FitPredict,
}

/// What a target made of one input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The input went all the way through.
    Accepted,
    /// The code under test returned a typed error.
    Rejected,
}

impl Target {
    /// Every target, in the order the driver runs them.
    pub const ALL: [Target; 4] = [
        Target::Csv,
        Target::ModelFile,
        Target::Param,
        Target::FitPredict,
    ];

    /// The name used on the command line and as the corpus directory.
    pub fn name(self) -> &'static str {
        match self {
            Target::Csv => "csv",
            Target::ModelFile => "model_file",
            Target::Param => "param",
            Target::FitPredict => "fit_predict",
        }
    }

    /// The target called `name`.
    pub fn from_name(name: &str) -> Option<Target> {
        Self::ALL.into_iter().find(|t| t.name() == name)
    }

    /// Runs one input. Panics (and aborts, and hangs) are findings; the driver catches them.
    ///
    /// # Panics
    /// When the code under test misbehaves: that is what the target is for.
    pub fn run(self, data: &[u8]) -> Outcome {
        let mut u = Unstructured::new(data);
        let r = match self {
            Target::Csv => csv::run(&mut u),
            Target::ModelFile => model::run(&mut u),
            Target::Param => param::run(&mut u),
            Target::FitPredict => fit_predict(&mut u),
        };
        // Running out of bytes only ends an input early; it is never an error of the code.
        r.unwrap_or(Outcome::Rejected)
    }
}

/// Every registered estimator (the CLI's list), built once.
pub fn entries() -> &'static [Entry] {
    static ENTRIES: OnceLock<Vec<Entry>> = OnceLock::new();
    ENTRIES.get_or_init(ndlearn_cli::entries)
}

// ---------------------------------------------------------------------------------------------
// Numbers

/// Values that break numerical code: zeros, ±1, the extremes of f64, subnormals, NaN, ±Inf.
const HOSTILE: [f64; 17] = [
    0.0,
    1.0,
    -1.0,
    0.5,
    2.0,
    -3.0,
    1e-300,
    1e300,
    -1e300,
    1e150,
    -1e-150,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// One value: hostile, a small integer, a moderate real, or any bit pattern (`finite` keeps
/// it finite).
pub(crate) fn value(u: &mut Unstructured<'_>, finite: bool) -> ArbResult<f64> {
    let v = match u.int_in_range(0u8..=39)? {
        i @ 0..=16 => HOSTILE[usize::from(i)],
        17..=26 => f64::from(u.int_in_range(-3i8..=3)?),
        27..=35 => f64::from(u.arbitrary::<i16>()?) / 1000.0,
        _ => f64::from_bits(u.arbitrary()?),
    };
    Ok(if finite && !v.is_finite() { 0.0 } else { v })
}

/// A small matrix: 0–10 rows, 0–5 columns (`cols` fixes the width), with a style: anything,
/// finite hostile values, small integers (many duplicates), or moderate reals; sometimes a
/// duplicated row or a constant column.
pub(crate) fn matrix(u: &mut Unstructured<'_>, cols: Option<usize>) -> ArbResult<Array2<f64>> {
    let n = u.int_in_range(0usize..=10)?;
    let d = match cols {
        Some(d) => d,
        None => u.int_in_range(0usize..=5)?,
    };
    let style = u.int_in_range(0u8..=3)?;
    let mut x = Array2::zeros((n, d));
    for v in x.iter_mut() {
        *v = match style {
            0 => value(u, false)?,
            1 => value(u, true)?,
            2 => f64::from(u.int_in_range(-2i8..=2)?),
            _ => f64::from(u.arbitrary::<i16>()?) / 3000.0,
        };
    }
    if n > 1 && u.ratio(1u8, 4u8)? {
        let r = u.choose_index(n)?;
        let row = x.row(0).to_owned();
        x.row_mut(r).assign(&row);
    }
    if d > 0 && u.ratio(1u8, 4u8)? {
        let c = u.choose_index(d)?;
        let v = value(u, true)?;
        x.column_mut(c).fill(v);
    }
    Ok(x)
}

fn data(x: &Array2<f64>, precision: Precision) -> Data {
    match precision {
        Precision::F64 => Data::F64(x.clone()),
        Precision::F32 => Data::F32(x.mapv(|v| v as f32)),
    }
}

fn all_finite<'a>(values: impl IntoIterator<Item = &'a f64>) -> bool {
    values.into_iter().all(|v| v.is_finite())
}

/// Whether the data are finite in `precision` (a finite f64 beyond f32's range is infinite
/// there).
fn finite_in(x: &Array2<f64>, precision: Precision) -> bool {
    match precision {
        Precision::F64 => all_finite(x),
        Precision::F32 => x.iter().all(|&v| (v as f32).is_finite()),
    }
}

// ---------------------------------------------------------------------------------------------
// fit_predict

fn target(u: &mut Unstructured<'_>, kind: Kind, n: usize) -> ArbResult<RTarget> {
    Ok(match kind {
        Kind::Classifier => {
            let k = u.int_in_range(1usize..=4)?;
            let mut l = Array1::zeros(n);
            for v in l.iter_mut() {
                *v = u.int_in_range(0..=k - 1)?;
            }
            RTarget::Labels(l)
        }
        Kind::Regressor => {
            let mut y = Array1::zeros(n);
            let finite = u.ratio(3u8, 4u8)?;
            for v in y.iter_mut() {
                *v = value(u, finite)?;
            }
            RTarget::Values(y)
        }
        _ => RTarget::None,
    })
}

/// Fit on an arbitrary small matrix with default hyperparameters, then every prediction
/// method on another, and the model-file round trip.
fn fit_predict(u: &mut Unstructured<'_>) -> ArbResult<Outcome> {
    let all = entries();
    let entry = &all[u.choose_index(all.len())?];
    let precision = if u.arbitrary()? {
        Precision::F32
    } else {
        Precision::F64
    };
    let caps = entry.capabilities();
    let mut x = matrix(u, None)?;
    if caps.categorical_input && u.ratio(3u8, 4u8)? {
        x.mapv_inplace(|v| {
            if v.is_finite() {
                v.abs().round() % 5.0
            } else {
                v
            }
        });
    } else if caps.non_negative_input && u.ratio(3u8, 4u8)? {
        x.mapv_inplace(f64::abs);
    }
    let y = target(u, entry.kind(), x.nrows())?;
    let w: Option<Array1<f64>> = if caps.sample_weight && u.ratio(1u8, 4u8)? {
        let mut w = Array1::zeros(x.nrows());
        for v in w.iter_mut() {
            *v = value(u, false)?.abs();
        }
        Some(w)
    } else {
        None
    };
    let est = match entry.build(&[]) {
        Ok(e) => e,
        Err(e) => panic!(
            "{}: the default hyperparameters do not build: {e}",
            entry.name()
        ),
    };
    let dx = data(&x, precision);
    if std::env::var_os("NDLEARN_FUZZ_VERBOSE").is_some() {
        eprintln!(
            "fit {} {precision:?}\nx = {x:?}\ny = {y:?}\nw = {w:?}",
            entry.name()
        );
    }
    let fitted = est.fit_weighted(&dx, &y, w.as_ref());
    let Ok(model) = fitted else {
        return Ok(Outcome::Rejected);
    };
    let clean_fit = finite_in(&x, precision)
        && match &y {
            RTarget::Values(v) => all_finite(v),
            _ => true,
        }
        && w.as_ref()
            .is_none_or(|w| finite_in(&w.clone().insert_axis(ndarray::Axis(1)), precision));
    let d = x.ncols();
    let width = if u.ratio(7u8, 8u8)? {
        d
    } else {
        u.int_in_range(0usize..=6)?
    };
    let x2 = matrix(u, Some(width))?;
    let strict = clean_fit && width == d && finite_in(&x2, precision) && !entry.is_heavy();
    let name = entry.name();
    if std::env::var_os("NDLEARN_FUZZ_VERBOSE").is_some() {
        eprintln!("predict {name}\nx2 = {x2:?}");
    }
    exercise(model.as_ref(), &data(&x2, precision), strict, name);
    // The model file round trip gives the same predictions.
    if let Ok(json) = model.to_json() {
        match entry.load(precision, json) {
            Ok(back) => {
                let a = model.predict(&data(&x2, precision));
                let b = back.predict(&data(&x2, precision));
                if let (Ok(a), Ok(b)) = (a, b) {
                    assert!(
                        same_output(&a, &b),
                        "{name}: the reloaded model predicts differently"
                    );
                }
            }
            Err(e) => panic!("{name}: a fitted model does not load back: {e}"),
        }
    }
    Ok(Outcome::Accepted)
}

fn same_output(a: &Output, b: &Output) -> bool {
    let eq = |p: &f64, q: &f64| p == q || (p.is_nan() && q.is_nan());
    match (a, b) {
        (Output::Values(p), Output::Values(q)) => {
            p.len() == q.len() && p.iter().zip(q).all(|(p, q)| eq(p, q))
        }
        (Output::Matrix(p), Output::Matrix(q)) => {
            p.dim() == q.dim() && p.iter().zip(q).all(|(p, q)| eq(p, q))
        }
        _ => a == b,
    }
}

/// Every prediction method of `model` on `x`. With `strict` (finite data fitted and predicted
/// at the right width), an `Ok` output must be finite.
pub(crate) fn exercise(model: &dyn DynModel, x: &Data, strict: bool, name: &str) {
    let check = |what: &str, finite: bool| {
        assert!(
            !strict || finite,
            "{name}: {what} returned a non-finite value without an error on finite input"
        );
    };
    if let Ok(out) = model.predict(x) {
        check("predict", out.is_finite());
        assert_eq!(
            out.len(),
            x.dim().0,
            "{name}: predict returned the wrong row count"
        );
    }
    if let Some(Ok(p)) = model.predict_proba(x) {
        check("predict_proba", all_finite(&p));
    }
    if let Some(Ok(s)) = model.decision_function(x) {
        check("decision_function", all_finite(&s));
    }
    if let Some(Ok(s)) = model.score_samples(x) {
        check("score_samples", all_finite(&s));
    }
    if let Some(Ok(z)) = model.transform(x) {
        check("transform", all_finite(&z));
        let zd = match x.precision() {
            Precision::F64 => Data::F64(z),
            Precision::F32 => Data::F32(z.mapv(|v| v as f32)),
        };
        if let Some(Ok(back)) = model.inverse_transform(&zd) {
            check("inverse_transform", all_finite(&back));
        }
    }
    if let Some(imp) = model.feature_importances() {
        check("feature_importances", all_finite(&imp));
    }
    let _ = model.n_features_in();
}

/// Every JSON node of `v` with its pointer, depth first (at most `limit`).
pub(crate) fn pointers(v: &Value, limit: usize) -> Vec<String> {
    fn walk(v: &Value, path: &mut String, out: &mut Vec<String>, limit: usize) {
        if out.len() >= limit {
            return;
        }
        out.push(path.clone());
        let len = path.len();
        match v {
            Value::Array(a) => {
                for (i, c) in a.iter().enumerate() {
                    path.push('/');
                    path.push_str(&i.to_string());
                    walk(c, path, out, limit);
                    path.truncate(len);
                }
            }
            Value::Object(o) => {
                for (k, c) in o {
                    path.push('/');
                    path.push_str(&k.replace('~', "~0").replace('/', "~1"));
                    walk(c, path, out, limit);
                    path.truncate(len);
                }
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(v, &mut String::new(), &mut out, limit);
    out
}
