//! The five classic data sets, embedded in the binary.
//!
//! Each CSV file of `datasets/data/` is compiled in with `include_str!`, parsed on the first call
//! of its function and cached for the life of the process (`std::sync::OnceLock`), so every call
//! after the first returns the same `&'static Dataset` at no cost. Clone it when you need an owned
//! copy.
//!
//! | function | rows × features | target | scikit-learn |
//! |---|---|---|---|
//! | [`iris`] | 150 × 4 | 3 classes (50 each) | `load_iris()` |
//! | [`wine`] | 178 × 13 | 3 classes | `load_wine()` |
//! | [`breast_cancer`] | 569 × 30 | 2 classes (malignant = 0, benign = 1) | `load_breast_cancer()` |
//! | [`digits`] | 1797 × 64 | 10 classes (8×8 images, values 0..16) | `load_digits()` |
//! | [`diabetes`] | 442 × 10 | regression, scaled features | `load_diabetes()` |
//! | [`diabetes_raw`] | 442 × 10 | regression, raw features | `load_diabetes(scaled=False)` |
//!
//! Provenance, licences and citations are in `datasets/README.md`.

use std::sync::OnceLock;

use ndarray::{Array1, Axis};
use ndlearn_core::{Error, Result};

use crate::csv_io::{CsvOptions, TaskHint, read_csv};
use crate::dataset::{Dataset, Target};

const IRIS_CSV: &str = include_str!("../data/iris.csv");
const WINE_CSV: &str = include_str!("../data/wine.csv");
const BREAST_CANCER_CSV: &str = include_str!("../data/breast_cancer.csv");
const DIGITS_CSV: &str = include_str!("../data/digits.csv");
const DIABETES_CSV: &str = include_str!("../data/diabetes.csv");
const TARGET_NAMES_JSON: &str = include_str!("../data/target_names.json");

/// The names accepted by [`by_name`], in the order of the table above.
pub const NAMES: [&str; 6] = [
    "iris",
    "wine",
    "breast_cancer",
    "digits",
    "diabetes",
    "diabetes_raw",
];

/// Parses an embedded data set, or panics: the files are compile-time constants checked by the
/// tests, so a failure here is a bug in this crate, never a user error.
fn embedded(name: &'static str, build: fn() -> Result<Dataset>) -> Dataset {
    build().unwrap_or_else(|e| {
        panic!("the embedded data set `{name}` is broken ({e}); this is a bug in ndlearn-datasets")
    })
}

/// Class names of an embedded classification set, from `target_names.json`.
fn target_names(name: &str) -> Result<Vec<String>> {
    let parsed: serde_json::Value =
        serde_json::from_str(TARGET_NAMES_JSON).map_err(|e| Error::Parse {
            line: e.line(),
            column: e.column(),
            reason: format!("target_names.json: {e}"),
        })?;
    let bad = || Error::Parse {
        line: 0,
        column: 0,
        reason: format!("target_names.json has no string list for `{name}`"),
    };
    parsed
        .get(name)
        .and_then(serde_json::Value::as_array)
        .ok_or_else(bad)?
        .iter()
        .map(|v| v.as_str().map(str::to_string).ok_or_else(bad))
        .collect()
}

/// Reads an embedded file with a numeric target column.
fn parse_numeric(name: &'static str, text: &str) -> Result<Dataset> {
    let mut d = read_csv(
        text.as_bytes(),
        &CsvOptions::default().task(TaskHint::Regression),
    )?;
    d.name = name.to_string();
    Ok(d)
}

/// Reads an embedded classification file: the target holds class indices `0..k`.
fn parse_classes(name: &'static str, text: &str) -> Result<Dataset> {
    let raw = parse_numeric(name, text)?;
    let names = target_names(name)?;
    let values = raw.y_values().ok_or_else(|| Error::Parse {
        line: 0,
        column: 0,
        reason: format!("{name}: no target column"),
    })?;
    let y = values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            if v.fract() == 0.0 && v >= 0.0 && v < names.len() as f64 {
                Ok(v as usize)
            } else {
                Err(Error::Parse {
                    line: i + 2,
                    column: raw.n_features() + 1,
                    reason: format!(
                        "{name}: target {v} is not a class index below {}",
                        names.len()
                    ),
                })
            }
        })
        .collect::<Result<Array1<usize>>>()?;
    Dataset::new(
        name,
        raw.x,
        Target::Classes { y, names },
        raw.feature_names,
        raw.target_name,
    )
}

/// Iris: 150 flowers × 4 measurements (cm), 3 species (setosa, versicolor, virginica; 50 each).
///
/// Fisher (1936), as shipped by scikit-learn (`load_iris`). Parsed once, then cached.
///
/// ```
/// let iris = ndlearn_datasets::iris();
/// assert_eq!(iris.x.row(0).to_vec(), vec![5.1, 3.5, 1.4, 0.2]);
/// assert_eq!(iris.y_classes().map(|y| y[0]), Some(0));
/// assert_eq!(iris.class_names().map(|n| n.len()), Some(3));
/// ```
pub fn iris() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| embedded("iris", || parse_classes("iris", IRIS_CSV)))
}

/// Wine: 178 wines × 13 chemical measurements, 3 cultivars (`class_0` 59, `class_1` 71,
/// `class_2` 48). UCI wine recognition data as shipped by scikit-learn (`load_wine`).
pub fn wine() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| embedded("wine", || parse_classes("wine", WINE_CSV)))
}

/// Breast cancer Wisconsin (diagnostic): 569 samples × 30 features, 2 classes (`malignant` = 0:
/// 212, `benign` = 1: 357), as shipped by scikit-learn (`load_breast_cancer`).
pub fn breast_cancer() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| {
        embedded("breast_cancer", || {
            parse_classes("breast_cancer", BREAST_CANCER_CSV)
        })
    })
}

/// Optical handwritten digits: 1797 images of 8×8 pixels (64 features `pixel_R_C`, integers
/// 0..16, row-major), 10 classes `"0"`..`"9"`, as shipped by scikit-learn (`load_digits`).
pub fn digits() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| embedded("digits", || parse_classes("digits", DIGITS_CSV)))
}

/// Diabetes with scikit-learn's default scaling (`load_diabetes()`): 442 patients × 10 features,
/// regression target (disease progression after one year, 25..346, not scaled).
///
/// Each feature column is centred and scaled to unit Euclidean norm,
/// `x'ᵢⱼ = (xᵢⱼ − x̄ⱼ) / (σⱼ √n)` with the population standard deviation `σⱼ` (ddof = 0) and
/// `n = 442`, recomputed here from the raw file; the values agree with scikit-learn's to a few
/// `1e-17` (not bit for bit: summation order differs). See [`diabetes_raw`] for the raw features.
///
/// ```
/// let d = ndlearn_datasets::diabetes();
/// let col = d.x.column(2);
/// assert!(col.sum().abs() < 1e-12);
/// assert!((col.dot(&col) - 1.0).abs() < 1e-12);
/// assert_eq!(d.y_values().map(|y| y[0]), Some(151.0));
/// ```
pub fn diabetes() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| {
        embedded("diabetes", || {
            let mut d = diabetes_raw().clone();
            d.name = "diabetes".to_string();
            scale_unit_norm(&mut d);
            Ok(d)
        })
    })
}

/// Diabetes with the raw features (`load_diabetes(scaled=False)`): `age` (years), `sex` (1 or 2),
/// `bmi`, `bp`, `s1`..`s6` in their original units. Efron, Hastie, Johnstone & Tibshirani (2004).
pub fn diabetes_raw() -> &'static Dataset {
    static CELL: OnceLock<Dataset> = OnceLock::new();
    CELL.get_or_init(|| {
        embedded("diabetes_raw", || {
            parse_numeric("diabetes_raw", DIABETES_CSV)
        })
    })
}

/// Centres every column and divides it by `std_ddof0 * sqrt(n)` (unit L2 norm).
fn scale_unit_norm(d: &mut Dataset) {
    let n = d.x.nrows() as f64;
    for mut col in d.x.axis_iter_mut(Axis(1)) {
        let mean = col.sum() / n;
        col.mapv_inplace(|v| v - mean);
        let std = (col.dot(&col) / n).sqrt();
        if std > 0.0 {
            let denom = std * n.sqrt();
            col.mapv_inplace(|v| v / denom);
        }
    }
}

/// An embedded data set by name: one of [`NAMES`]. Matching ignores ASCII case and treats `-` as
/// `_` (`"Breast-Cancer"` works).
///
/// ```
/// use ndlearn_datasets::{by_name, NAMES};
///
/// for name in NAMES {
///     assert_eq!(by_name(name).map(|d| d.name.as_str()), Some(name));
/// }
/// assert!(by_name("mnist").is_none());
/// ```
pub fn by_name(name: &str) -> Option<&'static Dataset> {
    let key = name.trim().to_ascii_lowercase().replace('-', "_");
    match key.as_str() {
        "iris" => Some(iris()),
        "wine" => Some(wine()),
        "breast_cancer" => Some(breast_cancer()),
        "digits" => Some(digits()),
        "diabetes" => Some(diabetes()),
        "diabetes_raw" => Some(diabetes_raw()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    fn class_counts(d: &Dataset) -> Vec<usize> {
        let mut c = vec![0; d.n_classes().expect("classification set")];
        for &k in d.y_classes().expect("classification set") {
            c[k] += 1;
        }
        c
    }

    #[test]
    fn shapes_and_classes() {
        let cases: [(&Dataset, usize, usize, Option<usize>); 6] = [
            (iris(), 150, 4, Some(3)),
            (wine(), 178, 13, Some(3)),
            (breast_cancer(), 569, 30, Some(2)),
            (digits(), 1797, 64, Some(10)),
            (diabetes(), 442, 10, None),
            (diabetes_raw(), 442, 10, None),
        ];
        for (d, n, p, k) in cases {
            assert_eq!(
                (d.n_samples(), d.n_features(), d.n_classes()),
                (n, p, k),
                "{}",
                d.name
            );
            assert_eq!(d.feature_names.len(), p, "{}", d.name);
            assert_eq!(d.target.len(), n, "{}", d.name);
            assert_eq!(d.target_name.as_deref(), Some("target"));
            assert!(d.x.iter().all(|v| v.is_finite()), "{}", d.name);
        }
        assert_eq!(class_counts(iris()), [50, 50, 50]);
        assert_eq!(class_counts(wine()), [59, 71, 48]);
        assert_eq!(class_counts(breast_cancer()), [212, 357]);
        let digit_counts = class_counts(digits());
        assert!(digit_counts.iter().all(|&c| (174..=183).contains(&c)));
        assert_eq!(digit_counts.iter().sum::<usize>(), 1797);
    }

    #[test]
    fn known_values() {
        let iris = iris();
        assert_eq!(iris.x.row(0).to_vec(), [5.1, 3.5, 1.4, 0.2]);
        assert_eq!(iris.y_classes().map(|y| (y[0], y[149])), Some((0, 2)));
        assert_eq!(iris.feature_names[0], "sepal_length_cm");
        assert_eq!(
            iris.class_names().map(<[String]>::to_vec),
            Some(vec![
                "setosa".into(),
                "versicolor".into(),
                "virginica".into()
            ])
        );
        assert_eq!(breast_cancer().class_name(0), Some("malignant"));
        assert_eq!(wine().feature_names[12], "proline");
        assert_eq!(digits().class_name(7), Some("7"));
        assert_eq!(digits().feature_names[63], "pixel_7_7");
        assert!(
            digits()
                .x
                .iter()
                .all(|&v| (0.0..=16.0).contains(&v) && v.fract() == 0.0)
        );
        let raw = diabetes_raw();
        assert_eq!(raw.x.row(0).to_vec()[..4], [59.0, 2.0, 32.1, 101.0]);
        assert_eq!(raw.y_values().map(|y| y[0]), Some(151.0));
        assert_eq!(diabetes().y_values(), raw.y_values());
    }

    #[test]
    fn diabetes_scaling() {
        let d = diabetes();
        for col in d.x.columns() {
            assert!(col.sum().abs() < 1e-12);
            assert!((col.dot(&col) - 1.0).abs() < 1e-12);
        }
        // Known first value (scikit-learn: 0.038075906433423026).
        assert!((d.x[[0, 0]] - 0.038_075_906_433_423_026).abs() < 1e-15);
    }

    #[test]
    fn diabetes_matches_scikit_learn_golden() {
        // The golden file of the core crate stores scikit-learn's scaled matrix with an intercept
        // column in front (case `lstsq_diabetes`, matrix `a`).
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/golden/core/linalg.json");
        let text = std::fs::read_to_string(path).expect("golden file ships with the crate");
        let json: serde_json::Value = serde_json::from_str(&text).expect("golden file is JSON");
        let a = json["cases"]["lstsq_diabetes"]["a"]
            .as_array()
            .expect("matrix `a` is a list of rows");
        let d = diabetes();
        assert_eq!(a.len(), d.n_samples());
        let mut worst = 0.0f64;
        let mut golden = Array2::<f64>::zeros(d.x.dim());
        for (i, row) in a.iter().enumerate() {
            let row = row.as_array().expect("row is a list");
            assert_eq!(row.len(), d.n_features() + 1);
            for j in 0..d.n_features() {
                golden[[i, j]] = row[j + 1].as_f64().expect("numeric cell");
                worst = worst.max((golden[[i, j]] - d.x[[i, j]]).abs());
            }
        }
        assert!(worst < 1e-15, "max difference {worst}");
    }

    #[test]
    fn lookup_by_name_and_caching() {
        for name in NAMES {
            let d = by_name(name).expect("listed name resolves");
            assert_eq!(d.name, name);
            // Cached: the same allocation every time.
            assert!(std::ptr::eq(
                d,
                by_name(name).expect("listed name resolves")
            ));
        }
        assert!(std::ptr::eq(
            by_name(" Breast-Cancer ").expect("normalised name"),
            breast_cancer()
        ));
        assert!(by_name("boston").is_none());
    }

    #[test]
    fn target_names_json_is_complete() {
        for name in ["iris", "wine", "breast_cancer", "digits"] {
            assert!(!target_names(name).expect("present").is_empty());
        }
        assert!(target_names("diabetes").is_err());
    }
}
