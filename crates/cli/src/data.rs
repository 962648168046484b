//! Reading CSV files for the commands: which column is the target, f32/f64, and checking a
//! file's columns against a model's.

use std::path::Path;

use ndarray::{Array1, Array2};
use ndlearn_core::registry::{Data, Kind, Target};
use ndlearn_datasets::{CsvOptions, TargetColumn, TaskHint};

use crate::CliError;

/// The `--target` argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TargetArg {
    /// Not given: the command's default.
    Default,
    /// `none`: every column is a feature.
    None,
    /// A column name.
    Name(String),
    /// A 0-based column index.
    Index(usize),
}

impl TargetArg {
    /// Parses `none`, a 0-based index or a column name (a column literally named `none` or with a
    /// numeric name can be given as `name:<text>`).
    pub fn parse(s: Option<&str>) -> TargetArg {
        match s {
            None => TargetArg::Default,
            Some(t) if t.eq_ignore_ascii_case("none") => TargetArg::None,
            Some(t) => match (t.strip_prefix("name:"), t.parse::<usize>()) {
                (Some(n), _) => TargetArg::Name(n.to_string()),
                (None, Ok(i)) => TargetArg::Index(i),
                (None, Err(_)) => TargetArg::Name(t.to_string()),
            },
        }
    }
}

/// A loaded CSV file.
#[derive(Debug)]
pub struct Table {
    /// Features as f64 (converted to f32 on request by [`Table::data`]).
    pub x: Array2<f64>,
    /// Header names of the feature columns, in order.
    pub feature_names: Vec<String>,
    /// The target column's header name, when there is one.
    pub target_name: Option<String>,
    /// The target.
    pub target: ndlearn_datasets::Target,
    /// Rows.
    pub n: usize,
}

impl Table {
    /// The features as the estimator input.
    pub fn data(&self, f32: bool) -> Data {
        if f32 {
            Data::F32(self.x.mapv(|v| v as f32))
        } else {
            Data::F64(self.x.clone())
        }
    }
}

/// Loads `path` with every column but `drop` as a feature and no target; the dropped column's
/// cells are never parsed (empty cells and placeholders such as `?` are fine).
pub fn load_dropping(path: &Path, drop: Option<&str>) -> Result<Table, CliError> {
    let Some(name) = drop else {
        return load(path, &TargetArg::None, Kind::Transformer);
    };
    let head = header(path)?;
    let Some(k) = head.iter().position(|h| h == name) else {
        return load(path, &TargetArg::None, Kind::Transformer);
    };
    let io = |e: csv::Error| CliError::input(format!("{}: {e}", path.display()));
    let mut r = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_path(path)
        .map_err(io)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    for rec in r.records() {
        let rec = rec.map_err(io)?;
        w.write_record(
            rec.iter()
                .enumerate()
                .filter(|(i, _)| *i != k)
                .map(|(_, c)| c),
        )
        .map_err(io)?;
    }
    let buf = w
        .into_inner()
        .map_err(|e| CliError::runtime(format!("{}: {e}", path.display())))?;
    let ds =
        ndlearn_datasets::read_csv(&buf[..], &CsvOptions::default().target(TargetColumn::None))
            .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    finish(path, ds, None)
}

/// Reads only the header row of a CSV file.
pub fn header(path: &Path) -> Result<Vec<String>, CliError> {
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .from_path(path)
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    let h = r
        .headers()
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    Ok(h.iter().map(|s| s.trim().to_string()).collect())
}

/// Loads `path` for an estimator of `kind`. The default target is the last column for
/// classifiers and regressors, and the column named `target` (if any) for clusterers and
/// transformers (it is then kept for scoring only).
pub fn load(path: &Path, target: &TargetArg, kind: Kind) -> Result<Table, CliError> {
    let head = header(path)?;
    let (column, target_name) = target_column(path, &head, target, kind)?;
    let task = match kind {
        Kind::Regressor => TaskHint::Regression,
        // Cluster "targets" are reference labels (for the adjusted Rand index).
        _ => TaskHint::Classification,
    };
    let ds = ndlearn_datasets::load_csv(path, &CsvOptions::default().target(column).task(task))
        .map_err(|e| CliError::input(format!("{}: {e}", path.display())))?;
    finish(path, ds, target_name)
}

/// The 0-based index of the target column (see [`load`] for the defaults), `None` without one.
pub fn target_index(
    path: &Path,
    head: &[String],
    target: &TargetArg,
    kind: Kind,
) -> Result<Option<usize>, CliError> {
    Ok(match target_column(path, head, target, kind)?.0 {
        TargetColumn::Last => Some(head.len() - 1),
        TargetColumn::Name(n) => head.iter().position(|h| *h == n),
        TargetColumn::Index(i) => Some(i),
        _ => None,
    })
}

/// Resolves `--target` against the header: the column and its name.
fn target_column(
    path: &Path,
    head: &[String],
    target: &TargetArg,
    kind: Kind,
) -> Result<(TargetColumn, Option<String>), CliError> {
    if head.is_empty() || head.iter().all(String::is_empty) {
        return Err(CliError::input(format!(
            "{}: the file is empty (a header row is required)",
            path.display()
        )));
    }
    let supervised = matches!(kind, Kind::Classifier | Kind::Regressor);
    let column = match target {
        TargetArg::Default if supervised => TargetColumn::Last,
        TargetArg::Default => match head.iter().position(|h| h == "target") {
            Some(_) => TargetColumn::Name("target".into()),
            None => TargetColumn::None,
        },
        TargetArg::None => TargetColumn::None,
        TargetArg::Name(n) => {
            if !head.iter().any(|h| h == n) {
                return Err(CliError::input(format!(
                    "{}: no column named `{n}` (columns: {})",
                    path.display(),
                    head.join(", ")
                )));
            }
            TargetColumn::Name(n.clone())
        }
        TargetArg::Index(i) => {
            if *i >= head.len() {
                return Err(CliError::input(format!(
                    "{}: target column index {i} is out of range (the file has {} columns, 0-based)",
                    path.display(),
                    head.len()
                )));
            }
            TargetColumn::Index(*i)
        }
    };
    if supervised && column == TargetColumn::None {
        return Err(CliError::input(format!(
            "a {kind} needs a target column; `--target none` is only for clusterers and transformers"
        )));
    }
    let target_name = match &column {
        TargetColumn::Last => head.last().cloned(),
        TargetColumn::Name(n) => Some(n.clone()),
        TargetColumn::Index(i) => head.get(*i).cloned(),
        _ => None,
    };
    Ok((column, target_name))
}

/// Checks a loaded data set (rows, finite features and targets) and makes the table.
fn finish(
    path: &Path,
    ds: ndlearn_datasets::Dataset,
    target_name: Option<String>,
) -> Result<Table, CliError> {
    if ds.n_samples() == 0 {
        return Err(CliError::input(format!(
            "{}: no data rows after the header",
            path.display()
        )));
    }
    if let Some((row, col)) = first_non_finite(ds.x()) {
        return Err(CliError::input(format!(
            "{}: non-finite value (NaN or infinite) at data row {}, column `{}`; impute it first \
             (e.g. fit a `simple_imputer`) or remove the row",
            path.display(),
            row + 1,
            ds.feature_names().get(col).map_or("?", String::as_str)
        )));
    }
    if let ndlearn_datasets::Target::Values(v) = ds.target()
        && let Some(row) = v.iter().position(|y| !y.is_finite())
    {
        return Err(CliError::input(format!(
            "{}: non-finite target value at data row {} of column `{}`",
            path.display(),
            row + 1,
            target_name.as_deref().unwrap_or("?")
        )));
    }
    Ok(Table {
        x: ds.x().clone(),
        feature_names: ds.feature_names().to_vec(),
        target_name,
        target: ds.target().clone(),
        n: ds.n_samples(),
    })
}

fn first_non_finite(x: &Array2<f64>) -> Option<(usize, usize)> {
    x.indexed_iter()
        .find(|(_, v)| !v.is_finite())
        .map(|(idx, _)| idx)
}

/// The estimator target for fitting: labels and their names for classifiers (and clusterer
/// reference labels), values for regressors.
pub fn fit_target(t: &ndlearn_datasets::Target, kind: Kind) -> (Target, Option<Vec<String>>) {
    match (t, kind) {
        (ndlearn_datasets::Target::Classes { y, names }, Kind::Classifier) => {
            (Target::Labels(y.clone()), Some(names.clone()))
        }
        (ndlearn_datasets::Target::Values(v), Kind::Regressor) => (Target::Values(v.clone()), None),
        _ => (Target::None, None),
    }
}

/// Maps the class names of a file onto the model's label indices.
pub fn remap_labels(
    t: &ndlearn_datasets::Target,
    model_labels: &[String],
) -> Result<Array1<usize>, CliError> {
    let ndlearn_datasets::Target::Classes { y, names } = t else {
        return Err(CliError::input(
            "the target column does not hold class labels".to_string(),
        ));
    };
    let mut map = Vec::with_capacity(names.len());
    for n in names {
        match model_labels.iter().position(|m| m == n) {
            Some(k) => map.push(k),
            None => {
                return Err(CliError::input(format!(
                    "label `{n}` in the data is not a class the model knows (classes: {})",
                    model_labels.join(", ")
                )));
            }
        }
    }
    Ok(y.mapv(|k| map[k]))
}

/// Checks that a file's feature columns are the model's, in order.
pub fn check_columns(found: &[String], expected: &[String]) -> Result<(), CliError> {
    if found == expected {
        return Ok(());
    }
    let missing: Vec<&str> = expected
        .iter()
        .filter(|e| !found.contains(e))
        .map(String::as_str)
        .collect();
    let extra: Vec<&str> = found
        .iter()
        .filter(|f| !expected.contains(f))
        .map(String::as_str)
        .collect();
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing column(s) {}", missing.join(", ")));
    }
    if !extra.is_empty() {
        parts.push(format!("unexpected column(s) {}", extra.join(", ")));
    }
    if parts.is_empty() {
        parts.push(format!(
            "the columns are in a different order (the model expects {})",
            expected.join(", ")
        ));
    }
    Err(CliError::input(format!(
        "the data's feature columns do not match the model's: {}",
        parts.join("; ")
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_arg_parsing() {
        assert_eq!(TargetArg::parse(None), TargetArg::Default);
        assert_eq!(TargetArg::parse(Some("NONE")), TargetArg::None);
        assert_eq!(TargetArg::parse(Some("3")), TargetArg::Index(3));
        assert_eq!(
            TargetArg::parse(Some("price")),
            TargetArg::Name("price".into())
        );
        assert_eq!(
            TargetArg::parse(Some("name:7")),
            TargetArg::Name("7".into())
        );
    }

    #[test]
    fn column_check_names_the_difference() {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        assert!(check_columns(&s(&["a", "b"]), &s(&["a", "b"])).is_ok());
        let e = check_columns(&s(&["a", "c"]), &s(&["a", "b"])).expect_err("differs");
        assert!(e.message.contains("missing column(s) b"));
        assert!(e.message.contains("unexpected column(s) c"));
        let e = check_columns(&s(&["b", "a"]), &s(&["a", "b"])).expect_err("order");
        assert!(e.message.contains("different order"));
    }
}
