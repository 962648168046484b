//! Raw tables: text columns and missing cells.
//!
//! A feature column is **categorical** when some non-missing cell is not a number; its
//! categories are its distinct cells in sorted (byte) order, so one-hot columns come out in
//! scikit-learn's order. A cell is **missing** when it is empty or one of pandas' default
//! missing markers (`NA`, `N/A`, `NaN`, `null`, `None`, `<NA>`, `#N/A`, ...).
//!
//! The features then go through a [`ColumnTransformer`]: numeric columns imputed
//! (`--impute mean|median|most_frequent`, or `none` to pass NaN on to estimators that handle
//! missing values, the default for those), categorical columns imputed with their most frequent
//! category and one-hot encoded (`--encode onehot`, unseen categories at predict encode as all
//! zeros: scikit-learn's `handle_unknown="ignore"`) or kept as their rank
//! (`--encode ordinal`, unseen categories become missing). The column specs and the fitted
//! transformer are stored in the model file and applied again at predict.
//!
//! A file whose features are all numbers without a missing cell takes the plain numeric path
//! (no encoding is stored).

use std::path::Path;

use ndarray::Array2;
use ndlearn_core::preprocessing::{
    ColumnGroup, ColumnStep, ColumnTransformer, FittedColumnTransformer, HandleUnknown,
    ImputeStrategy, OneHotEncoder, SimpleImputer,
};
use ndlearn_core::registry::Kind;
use ndlearn_core::{FitUnsupervised, Transform};
use serde::{Deserialize, Serialize};

use crate::CliError;
use crate::data::{self, Table, TargetArg};

/// pandas' default missing-value markers (`read_csv`'s `na_values`), plus the empty cell.
const MISSING: &[&str] = &[
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
];

fn is_missing(cell: &str) -> bool {
    MISSING.contains(&cell)
}

/// `--impute`: the fill of missing numeric cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Impute {
    /// Column mean.
    Mean,
    /// Column median.
    Median,
    /// Most frequent value.
    MostFrequent,
    /// Keep NaN (for estimators that handle missing values).
    None,
}

/// `--encode`: how categorical columns reach the estimator.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "snake_case")]
pub enum Encode {
    /// One indicator column per category.
    Onehot,
    /// The category's rank (one column).
    Ordinal,
}

/// One raw feature column.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ColumnKind {
    /// Numbers (missing cells are NaN).
    Numeric,
    /// Text categories, sorted.
    Categorical {
        /// The categories seen at fit, sorted.
        categories: Vec<String>,
    },
}

/// The encoding stored in a model file.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Encoding {
    /// One kind per raw feature column, in file order.
    pub columns: Vec<ColumnKind>,
    /// How missing numeric cells were filled.
    pub impute: Impute,
    /// How categories were encoded.
    pub encode: Encode,
    /// The fitted column transformer.
    pub transformer: FittedColumnTransformer<f64>,
}

/// A CSV file as text cells.
pub struct RawTable {
    /// Feature column names.
    pub names: Vec<String>,
    /// Feature cells, one `Vec` per column.
    pub columns: Vec<Vec<String>>,
    /// The target column's name and cells.
    pub target: Option<(String, Vec<String>)>,
}

/// Reads `path` as text with the target column chosen as [`data::load`] does.
pub fn read(path: &Path, target: &TargetArg, kind: Kind) -> Result<RawTable, CliError> {
    let head = data::header(path)?;
    let t = data::target_index(path, &head, target, kind)?;
    let io = |e: csv::Error| CliError::input(format!("{}: {e}", path.display()));
    let mut r = csv::ReaderBuilder::new()
        .has_headers(true)
        .from_path(path)
        .map_err(io)?;
    let d = head.len();
    let mut cells: Vec<Vec<String>> = vec![Vec::new(); d];
    for rec in r.records() {
        let rec = rec.map_err(|e| match e.kind() {
            csv::ErrorKind::UnequalLengths { pos, len, .. } => CliError::input(format!(
                "{}: line {}: {len} fields where the header has {d}",
                path.display(),
                pos.as_ref().map_or(0, csv::Position::line)
            )),
            _ => io(e),
        })?;
        for (j, c) in rec.iter().enumerate() {
            cells[j].push(c.trim().to_string());
        }
    }
    let target = t.map(|k| (head[k].clone(), cells[k].clone()));
    let (names, columns) = head
        .into_iter()
        .zip(cells)
        .enumerate()
        .filter(|(j, _)| Some(*j) != t)
        .map(|(_, p)| p)
        .unzip();
    Ok(RawTable {
        names,
        columns,
        target,
    })
}

impl RawTable {
    /// Whether every feature cell is a finite number (the plain numeric path applies).
    pub fn is_plain_numeric(&self) -> bool {
        self.columns
            .iter()
            .flatten()
            .all(|c| !is_missing(c) && c.parse::<f64>().is_ok_and(f64::is_finite))
    }

    /// The column kinds learned from these cells.
    pub fn kinds(&self, path: &Path) -> Result<Vec<ColumnKind>, CliError> {
        let mut out = Vec::with_capacity(self.columns.len());
        for (name, col) in self.names.iter().zip(&self.columns) {
            let present: Vec<&str> = col
                .iter()
                .map(String::as_str)
                .filter(|c| !is_missing(c))
                .collect();
            if present.is_empty() {
                return Err(CliError::input(format!(
                    "{}: column `{name}` has no value (every cell is missing)",
                    path.display()
                )));
            }
            if present.iter().all(|c| c.parse::<f64>().is_ok()) {
                if let Some(c) = present
                    .iter()
                    .find(|c| !c.parse::<f64>().is_ok_and(f64::is_finite))
                {
                    return Err(CliError::input(format!(
                        "{}: column `{name}` holds the infinite value `{c}`",
                        path.display()
                    )));
                }
                out.push(ColumnKind::Numeric);
            } else {
                let mut cats: Vec<String> = present.iter().map(|c| c.to_string()).collect();
                cats.sort();
                cats.dedup();
                out.push(ColumnKind::Categorical { categories: cats });
            }
        }
        Ok(out)
    }

    /// The numeric matrix: numbers, category ranks, NaN for missing cells; an unseen category
    /// is `unseen` (−1 for one-hot: the encoder ignores it; NaN for ordinal: missing).
    pub fn codes(
        &self,
        kinds: &[ColumnKind],
        encode: Encode,
        path: &Path,
    ) -> Result<Array2<f64>, CliError> {
        let n = self.columns.first().map_or(0, Vec::len);
        let unseen = match encode {
            Encode::Onehot => -1.0,
            Encode::Ordinal => f64::NAN,
        };
        let mut x = Array2::from_elem((n, kinds.len()), f64::NAN);
        for (j, (col, kind)) in self.columns.iter().zip(kinds).enumerate() {
            for (i, c) in col.iter().enumerate() {
                if is_missing(c) {
                    continue;
                }
                x[[i, j]] = match kind {
                    ColumnKind::Numeric => match c.parse::<f64>() {
                        Ok(v) if v.is_finite() => v,
                        _ => {
                            return Err(CliError::input(format!(
                                "{}: data row {}, column `{}`: `{c}` is not a number (the \
                                 column was numeric at fit)",
                                path.display(),
                                i + 1,
                                self.names[j]
                            )));
                        }
                    },
                    ColumnKind::Categorical { categories } => {
                        categories.binary_search(c).map_or(unseen, |k| k as f64)
                    }
                };
            }
        }
        Ok(x)
    }

    /// The target cells as a one-column CSV, label-encoded or parsed by the data set loader
    /// (the numeric path's rules).
    pub fn target(&self, kind: Kind, path: &Path) -> Result<ndlearn_datasets::Target, CliError> {
        let Some((name, cells)) = &self.target else {
            return Ok(ndlearn_datasets::Target::None);
        };
        if let Some(i) = cells.iter().position(|c| is_missing(c)) {
            return Err(CliError::input(format!(
                "{}: the target `{name}` is missing at data row {}; drop such rows first",
                path.display(),
                i + 1
            )));
        }
        let mut w = csv::Writer::from_writer(Vec::new());
        let csv_err = |e: csv::Error| CliError::runtime(e.to_string());
        // The loader wants a feature column: a placeholder beside the target.
        let placeholder = if name == "_" { "__" } else { "_" };
        w.write_record([placeholder, name]).map_err(csv_err)?;
        for c in cells {
            w.write_record(["0", c]).map_err(csv_err)?;
        }
        let buf = w
            .into_inner()
            .map_err(|e| CliError::runtime(e.to_string()))?;
        let task = match kind {
            Kind::Regressor => ndlearn_datasets::TaskHint::Regression,
            _ => ndlearn_datasets::TaskHint::Classification,
        };
        let opts = ndlearn_datasets::CsvOptions::default()
            .target(ndlearn_datasets::TargetColumn::Index(1))
            .task(task);
        let ds = ndlearn_datasets::read_csv(&buf[..], &opts)
            .map_err(|e| CliError::input(format!("{}: target `{name}`: {e}", path.display())))?;
        Ok(ds.target().clone())
    }
}

/// The column transformer for `kinds`: numeric columns (imputed unless `impute` is `None`),
/// then categorical columns (most frequent category, then one-hot), scikit-learn's group order.
pub fn transformer(kinds: &[ColumnKind], impute: Impute, encode: Encode) -> ColumnTransformer {
    let num: Vec<usize> = (0..kinds.len())
        .filter(|&j| kinds[j] == ColumnKind::Numeric)
        .collect();
    let cat: Vec<usize> = (0..kinds.len())
        .filter(|&j| kinds[j] != ColumnKind::Numeric)
        .collect();
    let mut groups = Vec::new();
    if !num.is_empty() {
        let mut g = ColumnGroup::new("num", num);
        let strategy = match impute {
            Impute::Mean => Some(ImputeStrategy::Mean),
            Impute::Median => Some(ImputeStrategy::Median),
            Impute::MostFrequent => Some(ImputeStrategy::MostFrequent),
            Impute::None => None,
        };
        if let Some(s) = strategy {
            g = g.step(ColumnStep::Impute(SimpleImputer::new(s)));
        }
        groups.push(g);
    }
    if !cat.is_empty() {
        let mut g = ColumnGroup::new("cat", cat);
        match (encode, impute) {
            (Encode::Ordinal, Impute::None) => {}
            _ => {
                g = g.step(ColumnStep::Impute(SimpleImputer::new(
                    ImputeStrategy::MostFrequent,
                )));
            }
        }
        if encode == Encode::Onehot {
            g = g.step(ColumnStep::OneHot(
                OneHotEncoder::default().handle_unknown(HandleUnknown::Ignore),
            ));
        }
        groups.push(g);
    }
    ColumnTransformer::new(groups)
}

/// What the raw-table path did, for the summary line.
pub fn describe(raw: &RawTable, kinds: &[ColumnKind], impute: Impute, encode: Encode) -> String {
    let mut parts = Vec::new();
    let cats: Vec<String> = raw
        .names
        .iter()
        .zip(kinds)
        .filter_map(|(n, k)| match k {
            ColumnKind::Categorical { categories } => Some(format!("{n}: {}", categories.len())),
            ColumnKind::Numeric => None,
        })
        .collect();
    if !cats.is_empty() {
        let how = match encode {
            Encode::Onehot => "one-hot",
            Encode::Ordinal => "ordinal",
        };
        parts.push(format!(
            "encoded {} text column(s) {how} (categories: {})",
            cats.len(),
            cats.join(", ")
        ));
    }
    let missing: usize = raw
        .columns
        .iter()
        .flatten()
        .filter(|c| is_missing(c))
        .count();
    if missing > 0 {
        let cols = raw
            .columns
            .iter()
            .filter(|c| c.iter().any(|v| is_missing(v)))
            .count();
        let how = match impute {
            Impute::Mean => "imputed (numeric: mean, text: most frequent)",
            Impute::Median => "imputed (numeric: median, text: most frequent)",
            Impute::MostFrequent => "imputed (most frequent)",
            Impute::None if encode == Encode::Onehot => {
                "numeric: passed on as missing (NaN), text: most frequent"
            }
            Impute::None => "passed on as missing (NaN)",
        };
        parts.push(format!(
            "{missing} missing cell(s) in {cols} column(s) {how}"
        ));
    }
    parts.join("; ")
}

/// Loads a raw table for fitting: `None` when it is plain numeric (the numeric path applies),
/// else the encoded table and its encoding.
pub fn load_for_fit(
    path: &Path,
    target: &TargetArg,
    kind: Kind,
    impute: Impute,
    encode: Encode,
) -> Result<Option<(Table, Encoding, String)>, CliError> {
    let Some(Codes {
        x: codes,
        kinds,
        raw,
    }) = load_codes(path, target, kind, encode)?
    else {
        return Ok(None);
    };
    let ct = transformer(&kinds, impute, encode);
    let fitted = FitUnsupervised::<f64>::fit(&ct, &codes)?;
    let x = fitted.transform(&codes)?;
    let target_name = raw.target.as_ref().map(|(n, _)| n.clone());
    let table = Table {
        n: x.nrows(),
        x,
        feature_names: raw.names.clone(),
        target_name,
        target: raw.target(kind, path)?,
    };
    let summary = describe(&raw, &kinds, impute, encode);
    Ok(Some((
        table,
        Encoding {
            columns: kinds,
            impute,
            encode,
            transformer: fitted,
        },
        summary,
    )))
}

/// A raw table's codes for cross-validation (see [`load_codes`]).
pub struct Codes {
    /// Numbers, category ranks, NaN for missing cells.
    pub x: Array2<f64>,
    /// The column kinds (categories from all rows).
    pub kinds: Vec<ColumnKind>,
    /// The table read.
    pub raw: RawTable,
}

/// The codes of a raw table for cross-validation: the column kinds from all rows (categories
/// are a fixed map from text to code; which codes a fold's encoder knows comes from its training
/// rows, so a category absent from a training fold is unknown there, as in scikit-learn).
/// `None` for a plain numeric table.
pub fn load_codes(
    path: &Path,
    target: &TargetArg,
    kind: Kind,
    encode: Encode,
) -> Result<Option<Codes>, CliError> {
    let raw = read(path, target, kind)?;
    if raw.is_plain_numeric() {
        return Ok(None);
    }
    let kinds = raw.kinds(path)?;
    let x = raw.codes(&kinds, encode, path)?;
    Ok(Some(Codes { x, kinds, raw }))
}

/// Applies a stored encoding to a file: the features through the fitted transformer, and the
/// target column (`target`, read as `kind` when `need_target`; otherwise only dropped).
pub fn load_encoded(
    enc: &Encoding,
    path: &Path,
    target: &TargetArg,
    kind: Kind,
    need_target: bool,
    feature_names: &[String],
) -> Result<Table, CliError> {
    let raw = read(path, target, Kind::Transformer)?;
    data::check_columns(&raw.names, feature_names)?;
    let codes = raw.codes(&enc.columns, enc.encode, path)?;
    let x = enc.transformer.transform(&codes)?;
    let target_values = if need_target {
        raw.target(kind, path)?
    } else {
        ndlearn_datasets::Target::None
    };
    Ok(Table {
        n: x.nrows(),
        x,
        feature_names: raw.names.clone(),
        target_name: raw.target.as_ref().map(|(n, _)| n.clone()),
        target: target_values,
    })
}
