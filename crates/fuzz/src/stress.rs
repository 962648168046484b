//! The numerical stress suite: every registered estimator, with its default hyperparameters,
//! on data sets built to break numerical code. Each (estimator, case) must give a finite
//! result or a typed error; a panic or a non-finite output without an error is a failure.
//!
//! | case | data |
//! |---|---|
//! | `hilbert` | 40 × 8 Hilbert-like design `x_ij = 1 / (i + j + 1)` (condition number ≈ 1e10 in its columns) |
//! | `collinear` | 40 × 6: three columns and three exact linear combinations of them |
//! | `scale_1e150` | 40 × 4 blobs times 1e150 |
//! | `scale_1e-150` | 40 × 4 blobs times 1e-150 |
//! | `dup_rows` | 3 distinct rows, each repeated 1000 times (3,000 rows) |
//! | `equal_target` | 40 × 4 blobs, every target equal (one class for classifiers) |
//! | `one_per_class` | 3 rows, 3 classes |
//! | `n_lt_d` | 10 × 50 |
//!
//! The regression target is a fixed linear function of the features plus a small fixed
//! perturbation; classes are the blob of a row (three).

use std::panic::AssertUnwindSafe;

use ndarray::{Array1, Array2};
use ndlearn_core::Error;
use ndlearn_core::registry::{Data, Entry, Kind, Precision, Target as RTarget};

use crate::all_finite;

/// One stress data set.
#[derive(Debug, Clone)]
pub struct Case {
    /// Short name (the table's column).
    pub name: &'static str,
    /// Features.
    pub x: Array2<f64>,
    /// Class of each row.
    pub labels: Array1<usize>,
    /// Regression target.
    pub y: Array1<f64>,
}

/// The outcome of one estimator on one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Fit and every prediction method gave finite results.
    Finite,
    /// A typed error, by variant name (`TooFewClasses`, `InvalidParam`, ...).
    Error(String),
    /// A prediction method returned NaN or Inf without an error (a failure).
    NonFinite(String),
    /// The code panicked (a failure).
    Panic(String),
}

impl Verdict {
    /// Whether the outcome is acceptable: a finite result or a typed error.
    pub fn is_ok(&self) -> bool {
        matches!(self, Verdict::Finite | Verdict::Error(_))
    }

    /// The table cell.
    pub fn cell(&self) -> String {
        match self {
            Verdict::Finite => "ok".into(),
            Verdict::Error(e) => e.clone(),
            Verdict::NonFinite(what) => format!("**NON-FINITE {what}**"),
            Verdict::Panic(msg) => format!("**PANIC** {}", msg.replace('|', "/")),
        }
    }
}

/// A fixed pseudo-random number in `[-0.5, 0.5)` for cell `(i, j)` (a hash, not a smooth
/// function of `i` and `j`: `sin(a·i + b·j)` would make every column a combination of two
/// sequences, a rank-deficient design).
fn noise(i: usize, j: usize) -> f64 {
    let mut h = (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (j as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    h ^= h >> 29;
    h = h.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    h ^= h >> 32;
    (h >> 11) as f64 / (1u64 << 53) as f64 - 0.5
}

/// Three blobs (class `i % 3`) of full column rank.
fn blobs(n: usize, d: usize) -> (Array2<f64>, Array1<usize>) {
    let mut x = Array2::zeros((n, d));
    let mut l = Array1::zeros(n);
    for i in 0..n {
        let c = i % 3;
        l[i] = c;
        for j in 0..d {
            let sign = if j % 2 == 0 { 1.0 } else { -1.0 };
            x[[i, j]] = 3.0 * c as f64 * sign + 0.8 * noise(i, j);
        }
    }
    (x, l)
}

fn linear_target(x: &Array2<f64>) -> Array1<f64> {
    Array1::from_iter(x.rows().into_iter().enumerate().map(|(i, r)| {
        let s: f64 = r
            .iter()
            .enumerate()
            .map(|(j, v)| v * (1.0 + j as f64 * 0.5))
            .sum();
        // A perturbation at the data's own scale.
        let scale = r.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        s + 0.02 * scale * noise(i, 1000)
    }))
}

fn case(name: &'static str, x: Array2<f64>, labels: Array1<usize>) -> Case {
    let y = linear_target(&x);
    Case { name, x, labels, y }
}

/// Every stress case, in the table's order.
pub fn cases() -> Vec<Case> {
    cases_with(1000)
}

/// The stress cases with each row of `dup_rows` repeated `repeats` times (the table uses
/// 1000; the test suite a smaller count to stay fast).
pub fn cases_with(repeats: usize) -> Vec<Case> {
    let mut out = Vec::new();
    let hilbert = Array2::from_shape_fn((40, 8), |(i, j)| 1.0 / (i + j + 1) as f64);
    let y = linear_target(&hilbert);
    let mut sorted: Vec<f64> = y.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted[sorted.len() / 2];
    let labels = y.mapv(|v| usize::from(v >= median));
    out.push(Case {
        name: "hilbert",
        x: hilbert,
        labels,
        y,
    });
    let (b, l) = blobs(40, 3);
    let mut col = Array2::zeros((40, 6));
    for i in 0..40 {
        let (a, c, e) = (b[[i, 0]], b[[i, 1]], b[[i, 2]]);
        for (j, v) in [a, c, e, a + c, 2.0 * a, c - e].into_iter().enumerate() {
            col[[i, j]] = v;
        }
    }
    out.push(case("collinear", col, l.clone()));
    let (b, l) = blobs(40, 4);
    out.push(case("scale_1e150", b.mapv(|v| v * 1e150), l.clone()));
    out.push(case("scale_1e-150", b.mapv(|v| v * 1e-150), l.clone()));
    let (b3, l3) = blobs(3, 4);
    let n = 3 * repeats.max(1);
    let dup = Array2::from_shape_fn((n, 4), |(i, j)| b3[[i % 3, j]]);
    out.push(case(
        "dup_rows",
        dup,
        Array1::from_shape_fn(n, |i| l3[i % 3]),
    ));
    let mut eq = case("equal_target", b.clone(), Array1::zeros(40));
    eq.y.fill(2.5);
    out.push(eq);
    let (b1, l1) = blobs(3, 4);
    out.push(case("one_per_class", b1, l1));
    let (bw, lw) = blobs(10, 50);
    out.push(case("n_lt_d", bw, lw));
    out
}

fn variant(e: &Error) -> String {
    let s = format!("{e:?}");
    s.split([' ', '{', '('])
        .next()
        .unwrap_or("Error")
        .to_string()
}

/// Runs `entry` (default hyperparameters) on `case` in `precision`: fit, then every prediction
/// method on the training rows.
pub fn run(entry: &Entry, case: &Case, precision: Precision) -> Verdict {
    let caps = entry.capabilities();
    let mut x = case.x.clone();
    if caps.categorical_input {
        x.mapv_inplace(|v| v.abs().round() % 5.0);
    } else if caps.non_negative_input {
        x.mapv_inplace(f64::abs);
    }
    let data = match precision {
        Precision::F64 => Data::F64(x),
        Precision::F32 => Data::F32(x.mapv(|v| v as f32)),
    };
    let y = match entry.kind() {
        Kind::Classifier => RTarget::Labels(case.labels.clone()),
        Kind::Regressor => RTarget::Values(case.y.clone()),
        _ => RTarget::None,
    };
    let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| -> Result<Verdict, Error> {
        let est = entry.build(&[])?;
        let model = est.fit(&data, &y)?;
        let out = model.predict(&data)?;
        if !out.is_finite() {
            return Ok(Verdict::NonFinite("predict".into()));
        }
        let checks: [(&str, Option<Result<bool, Error>>); 5] = [
            (
                "predict_proba",
                model
                    .predict_proba(&data)
                    .map(|r| r.map(|p| all_finite(&p))),
            ),
            (
                "decision_function",
                model
                    .decision_function(&data)
                    .map(|r| r.map(|p| all_finite(&p))),
            ),
            (
                "score_samples",
                model
                    .score_samples(&data)
                    .map(|r| r.map(|p| all_finite(&p))),
            ),
            (
                "transform",
                model.transform(&data).map(|r| r.map(|p| all_finite(&p))),
            ),
            (
                "feature_importances",
                model.feature_importances().map(|p| Ok(all_finite(&p))),
            ),
        ];
        for (what, r) in checks {
            match r {
                Some(Ok(false)) => return Ok(Verdict::NonFinite(what.into())),
                Some(Err(e)) => return Err(e),
                _ => {}
            }
        }
        Ok(Verdict::Finite)
    }));
    match outcome {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => Verdict::Error(variant(&e)),
        Err(p) => Verdict::Panic(
            p.downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_default(),
        ),
    }
}

/// The stress table (markdown): one row per registered estimator, one column per case, in
/// `precision`; failures in bold.
pub fn table(precision: Precision, entries: &[Entry], cases: &[Case]) -> (String, usize) {
    let mut s = String::from("| estimator |");
    for c in cases {
        s.push_str(&format!(" {} |", c.name));
    }
    s.push_str("\n|---|");
    s.push_str(&"---|".repeat(cases.len()));
    s.push('\n');
    let mut failures = 0;
    for e in entries {
        s.push_str(&format!("| {} |", e.name()));
        for c in cases {
            let v = run(e, c, precision);
            failures += usize::from(!v.is_ok());
            s.push_str(&format!(" {} |", v.cell()));
        }
        s.push('\n');
    }
    (s, failures)
}
