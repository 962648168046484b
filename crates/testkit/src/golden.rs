//! Golden reference files: scikit-learn / NumPy outputs committed under `datasets/golden/`.
//!
//! A golden file lives at `<workspace>/datasets/golden/<crate>/<algo>.json` and has the format
//! written by `scripts/golden/common.py`:
//!
//! ```json
//! {
//!   "meta":  { "generator": "...", "numpy": "...", "note": "conventions" },
//!   "cases": { "<case>": { "<field>": 1.5, "<vec>": [1, 2], "<mat>": [[1, 2], [3, 4]],
//!                          "<name>": "text", "<count>": 3 } }
//! }
//! ```
//!
//! Every accessor panics with the file, the case, the field and the reason when the data is not
//! what the test asked for: a golden test with a malformed file must fail loudly, never skip.
//!
//! Numbers are JSON numbers; for robustness the numeric accessors also accept the strings
//! `"nan"`, `"inf"`, `"+inf"`, `"-inf"` (any case, also `"infinity"`), although the committed
//! generators never write them. Case names are kept in sorted order.
//!
//! ```no_run
//! use ndlearn_testkit::golden::Golden;
//!
//! let g = Golden::load("core", "linalg");
//! let case = g.case("solve_random_4");
//! let a = case.matrix("a");
//! let x = case.vector("x");
//! assert_eq!(a.nrows(), x.len());
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use ndarray::{Array1, Array2};
use serde_json::Value;

/// The root folder of the golden files: `<workspace>/datasets/golden`.
///
/// Computed from this crate's manifest directory at compile time, so it works from any crate's
/// tests and from any working directory.
pub fn golden_dir() -> PathBuf {
    // crates/testkit -> the workspace root.
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let root = manifest
        .ancestors()
        .nth(2)
        .map_or_else(|| manifest.join("..").join(".."), Path::to_path_buf);
    root.join("datasets").join("golden")
}

/// A loaded golden file: its `meta` object and its named cases.
#[derive(Debug, Clone)]
pub struct Golden {
    path: PathBuf,
    meta: Value,
    cases: BTreeMap<String, Case>,
}

/// One case of a golden file: a name and its fields (inputs and expected outputs).
#[derive(Debug, Clone)]
pub struct Case {
    name: String,
    source: String,
    fields: serde_json::Map<String, Value>,
}

impl Golden {
    /// Loads `<golden_dir>/<krate>/<algo>.json`.
    ///
    /// # Panics
    /// If the file is missing, is not valid JSON, or does not have the `meta` / `cases` layout;
    /// the message names the path and the reason (and how to regenerate the data).
    pub fn load(krate: &str, algo: &str) -> Golden {
        Self::from_path(golden_dir().join(krate).join(format!("{algo}.json")))
    }

    /// Loads a golden file from an explicit path (used for files outside `datasets/golden`,
    /// e.g. in the test kit's own tests).
    ///
    /// # Panics
    /// As [`Golden::load`].
    pub fn from_path(path: impl AsRef<Path>) -> Golden {
        let path = path.as_ref();
        let shown = path.display();
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            panic!(
                "golden file {shown}: cannot read it ({e}); golden files are made by \
                 `cargo xtask golden` (scripts/golden/*.py) and committed under datasets/golden/"
            )
        });
        Self::from_json_str(&text, &shown.to_string()).with_path(path)
    }

    /// Parses golden JSON text; `origin` names the source in panic messages.
    ///
    /// # Panics
    /// If the text is not valid JSON or does not have the `meta` / `cases` layout.
    pub fn from_json_str(text: &str, origin: &str) -> Golden {
        let doc: Value = serde_json::from_str(text)
            .unwrap_or_else(|e| panic!("golden file {origin}: invalid JSON: {e}"));
        let Value::Object(mut top) = doc else {
            panic!("golden file {origin}: the top level must be an object with `meta` and `cases`")
        };
        let meta = top
            .remove("meta")
            .unwrap_or_else(|| panic!("golden file {origin}: missing top-level `meta` object"));
        let cases_value = top
            .remove("cases")
            .unwrap_or_else(|| panic!("golden file {origin}: missing top-level `cases` object"));
        let Value::Object(cases_map) = cases_value else {
            panic!("golden file {origin}: `cases` must be an object mapping case names to objects")
        };
        let mut cases = BTreeMap::new();
        for (name, body) in cases_map {
            let Value::Object(fields) = body else {
                panic!(
                    "golden file {origin}: case `{name}` must be an object of fields, got {}",
                    kind_of(&body)
                )
            };
            cases.insert(
                name.clone(),
                Case {
                    name,
                    source: origin.to_string(),
                    fields,
                },
            );
        }
        Golden {
            path: PathBuf::from(origin),
            meta,
            cases,
        }
    }

    fn with_path(mut self, path: &Path) -> Golden {
        self.path = path.to_path_buf();
        self
    }

    /// The path the file was loaded from.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The `meta` object (generator, pinned package versions, conventions note).
    pub fn meta(&self) -> &Value {
        &self.meta
    }

    /// The case called `name`.
    ///
    /// # Panics
    /// If there is no such case; the message lists the available case names.
    pub fn case(&self, name: &str) -> &Case {
        self.cases.get(name).unwrap_or_else(|| {
            panic!(
                "golden file {}: no case `{name}`; available cases: [{}]",
                self.path.display(),
                self.case_names().join(", ")
            )
        })
    }

    /// All case names, sorted.
    pub fn case_names(&self) -> Vec<&str> {
        self.cases.keys().map(String::as_str).collect()
    }

    /// All cases whose name starts with `prefix`, sorted by name (possibly none).
    pub fn cases_with_prefix(&self, prefix: &str) -> Vec<&Case> {
        self.cases
            .values()
            .filter(|c| c.name.starts_with(prefix))
            .collect()
    }

    /// All cases, sorted by name.
    pub fn cases(&self) -> Vec<&Case> {
        self.cases.values().collect()
    }
}

impl Case {
    /// The case name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// `true` when the case has a field called `field`.
    pub fn has(&self, field: &str) -> bool {
        self.fields.contains_key(field)
    }

    /// The names of the case's fields, sorted.
    pub fn field_names(&self) -> Vec<&str> {
        self.fields.keys().map(String::as_str).collect()
    }

    /// The raw JSON value of a field.
    ///
    /// # Panics
    /// If the field is missing (the message lists the fields the case has).
    pub fn raw(&self, field: &str) -> &Value {
        self.fields.get(field).unwrap_or_else(|| {
            panic!(
                "golden file {}: case `{}` has no field `{field}`; fields: [{}]",
                self.source,
                self.name,
                self.field_names().join(", ")
            )
        })
    }

    /// A matrix field: a list of rows (row-major), all of the same length.
    ///
    /// An empty list gives a `0 × 0` matrix.
    ///
    /// # Panics
    /// If the field is missing, not a list of lists of numbers, or ragged.
    pub fn matrix(&self, field: &str) -> Array2<f64> {
        let rows = self.list(field, "a matrix (list of rows)");
        let n_rows = rows.len();
        let mut n_cols = None;
        let mut data = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            let Value::Array(row) = row else {
                self.fail(
                    field,
                    &format!(
                        "expected a matrix (list of rows); row {i} is {}",
                        kind_of(row)
                    ),
                )
            };
            match n_cols {
                None => n_cols = Some(row.len()),
                Some(c) if c != row.len() => self.fail(
                    field,
                    &format!(
                        "ragged matrix: row 0 has {c} entries but row {i} has {}",
                        row.len()
                    ),
                ),
                Some(_) => {}
            }
            for (j, v) in row.iter().enumerate() {
                data.push(self.number(field, v, &format!("[{i}][{j}]")));
            }
        }
        let n_cols = n_cols.unwrap_or(0);
        Array2::from_shape_vec((n_rows, n_cols), data)
            .expect("row-major data of checked rectangular shape")
    }

    /// A vector field: a flat list of numbers.
    ///
    /// # Panics
    /// If the field is missing or not a flat list of numbers.
    pub fn vector(&self, field: &str) -> Array1<f64> {
        let items = self.list(field, "a vector (flat list of numbers)");
        items
            .iter()
            .enumerate()
            .map(|(i, v)| self.number(field, v, &format!("[{i}]")))
            .collect()
    }

    /// A scalar field: one number.
    ///
    /// # Panics
    /// If the field is missing or not a number.
    pub fn scalar(&self, field: &str) -> f64 {
        self.number(field, self.raw(field), "")
    }

    /// A count field: a non-negative integer (a float with an exact non-negative integer value,
    /// such as `3.0`, is accepted too).
    ///
    /// # Panics
    /// If the field is missing or not a non-negative integer.
    pub fn usize(&self, field: &str) -> usize {
        self.count(field, self.raw(field), "")
    }

    /// A list of counts or indices (non-negative integers).
    ///
    /// # Panics
    /// If the field is missing or not a flat list of non-negative integers.
    pub fn usize_vector(&self, field: &str) -> Vec<usize> {
        let items = self.list(field, "a list of non-negative integers");
        items
            .iter()
            .enumerate()
            .map(|(i, v)| self.count(field, v, &format!("[{i}]")))
            .collect()
    }

    /// Class labels (non-negative integers) as an array, ready for a classifier's `fit`.
    ///
    /// # Panics
    /// As [`Case::usize_vector`].
    pub fn labels(&self, field: &str) -> Array1<usize> {
        Array1::from(self.usize_vector(field))
    }

    /// A string field.
    ///
    /// # Panics
    /// If the field is missing or not a string.
    pub fn string(&self, field: &str) -> &str {
        match self.raw(field) {
            Value::String(s) => s,
            other => self.fail(field, &format!("expected a string, got {}", kind_of(other))),
        }
    }

    fn list(&self, field: &str, what: &str) -> &Vec<Value> {
        match self.raw(field) {
            Value::Array(items) => items,
            other => self.fail(field, &format!("expected {what}, got {}", kind_of(other))),
        }
    }

    fn number(&self, field: &str, v: &Value, at: &str) -> f64 {
        match v {
            Value::Number(n) => n
                .as_f64()
                .unwrap_or_else(|| self.fail(field, &format!("entry{at}: {n} is not an f64"))),
            Value::String(s) => match s.trim().to_ascii_lowercase().as_str() {
                "nan" => f64::NAN,
                "inf" | "+inf" | "infinity" | "+infinity" => f64::INFINITY,
                "-inf" | "-infinity" => f64::NEG_INFINITY,
                _ => self.fail(
                    field,
                    &format!("entry{at}: expected a number, got the string {s:?}"),
                ),
            },
            other => self.fail(
                field,
                &format!("entry{at}: expected a number, got {}", kind_of(other)),
            ),
        }
    }

    fn count(&self, field: &str, v: &Value, at: &str) -> usize {
        if let Value::Number(n) = v {
            if let Some(u) = n.as_u64() {
                if let Ok(u) = usize::try_from(u) {
                    return u;
                }
            } else if let Some(f) = n.as_f64() {
                if f >= 0.0 && f.fract() == 0.0 && f <= u32::MAX as f64 {
                    return f as usize;
                }
            }
        }
        self.fail(
            field,
            &format!(
                "entry{at}: expected a non-negative integer, got {}",
                compact(v)
            ),
        )
    }

    fn fail(&self, field: &str, reason: &str) -> ! {
        panic!(
            "golden file {}: case `{}`, field `{field}`: {reason}",
            self.source, self.name
        )
    }
}

impl fmt::Display for Case {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.name, self.source)
    }
}

fn kind_of(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => format!("the boolean {b}"),
        Value::Number(n) => format!("the number {n}"),
        Value::String(s) => format!("the string {s:?}"),
        Value::Array(a) => format!("a list of {} entries", a.len()),
        Value::Object(o) => format!("an object with {} fields", o.len()),
    }
}

fn compact(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 60 {
        format!(
            "{}…",
            &s[..s.char_indices().nth(60).map_or(s.len(), |(i, _)| i)]
        )
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn write_temp(text: &str) -> PathBuf {
        static N: AtomicUsize = AtomicUsize::new(0);
        let dir = std::env::temp_dir().join(format!(
            "ndlearn-testkit-golden-{}-{}",
            std::process::id(),
            N.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("create temp dir");
        let path = dir.join("algo.json");
        std::fs::write(&path, text).expect("write temp golden file");
        path
    }

    const SAMPLE: &str = r#"{
        "meta": {"generator": "test", "numpy": "2.0"},
        "cases": {
            "fit_small": {"x": [[1, 2.5], [3, -4]], "y": [0.5, 1e-3], "alpha": 0.25,
                          "k": 3, "kf": 2.0, "labels": [0, 1, 1], "solver": "svd",
                          "empty": [], "ragged": [[1, 2], [3]], "special": ["nan", "-inf", 1],
                          "neg": -1, "flat": [1, 2]},
            "fit_big": {"x": [[0]]},
            "other": {}
        }
    }"#;

    fn sample() -> Golden {
        let path = write_temp(SAMPLE);
        let g = Golden::from_path(&path);
        assert_eq!(g.path(), path.as_path());
        std::fs::remove_file(&path).expect("remove temp file");
        g
    }

    #[test]
    fn loads_and_reads_every_kind_of_field() {
        let g = sample();
        assert_eq!(g.meta()["generator"], "test");
        assert_eq!(g.case_names(), vec!["fit_big", "fit_small", "other"]);
        let names: Vec<&str> = g
            .cases_with_prefix("fit_")
            .iter()
            .map(|c| c.name())
            .collect();
        assert_eq!(names, vec!["fit_big", "fit_small"]);
        assert!(g.cases_with_prefix("nope").is_empty());
        assert_eq!(g.cases().len(), 3);

        let c = g.case("fit_small");
        assert_eq!(c.name(), "fit_small");
        assert!(c.has("x") && !c.has("z"));
        assert_eq!(c.matrix("x"), ndarray::array![[1.0, 2.5], [3.0, -4.0]]);
        assert_eq!(c.vector("y"), ndarray::array![0.5, 1e-3]);
        assert_eq!(c.scalar("alpha"), 0.25);
        assert_eq!(c.scalar("k"), 3.0);
        assert_eq!(c.usize("k"), 3);
        assert_eq!(c.usize("kf"), 2);
        assert_eq!(c.usize_vector("labels"), vec![0, 1, 1]);
        assert_eq!(c.labels("labels"), ndarray::array![0usize, 1, 1]);
        assert_eq!(c.string("solver"), "svd");
        assert_eq!(c.matrix("empty").dim(), (0, 0));
        assert_eq!(c.vector("empty").len(), 0);
        let s = c.vector("special");
        assert!(s[0].is_nan() && s[1] == f64::NEG_INFINITY && s[2] == 1.0);
        assert_eq!(g.case("fit_big").matrix("x").dim(), (1, 1));
        assert!(c.to_string().starts_with("fit_small ("));
    }

    #[test]
    #[should_panic(expected = "ragged matrix")]
    fn ragged_matrix_panics() {
        sample().case("fit_small").matrix("ragged");
    }

    #[test]
    #[should_panic(expected = "available cases: [fit_big, fit_small, other]")]
    fn missing_case_lists_names() {
        sample().case("fit_medium");
    }

    #[test]
    #[should_panic(expected = "has no field `beta`; fields: [")]
    fn missing_field_lists_fields() {
        sample().case("fit_small").scalar("beta");
    }

    #[test]
    #[should_panic(expected = "expected a non-negative integer")]
    fn negative_count_panics() {
        sample().case("fit_small").usize("neg");
    }

    #[test]
    #[should_panic(expected = "expected a matrix (list of rows); row 0 is the number 1")]
    fn vector_is_not_a_matrix() {
        sample().case("fit_small").matrix("flat");
    }

    #[test]
    #[should_panic(expected = "expected a string")]
    fn number_is_not_a_string() {
        sample().case("fit_small").string("alpha");
    }

    #[test]
    #[should_panic(expected = "cannot read it")]
    fn missing_file_names_path() {
        Golden::load("no_such_crate", "no_such_algo");
    }

    #[test]
    #[should_panic(expected = "missing top-level `cases`")]
    fn bad_layout_panics() {
        Golden::from_json_str(r#"{"meta": {}}"#, "inline");
    }

    #[test]
    #[should_panic(expected = "invalid JSON")]
    fn invalid_json_panics() {
        let path = write_temp("{ not json");
        Golden::from_path(path);
    }

    #[test]
    fn golden_dir_points_at_the_workspace_data() {
        let dir = golden_dir();
        assert!(dir.ends_with("datasets/golden"));
        // The committed core reference file, when present, must load with this loader.
        if dir.join("core").join("linalg.json").exists() {
            let g = Golden::load("core", "linalg");
            assert!(!g.case_names().is_empty());
            assert!(g.meta().get("generator").is_some());
        }
    }
}
