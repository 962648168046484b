//! Reading user CSV files into a [`Dataset`] and writing matrices back out.
//!
//! # Format
//!
//! * A header row is required; it names the columns (line 1).
//! * Fields are separated by [`CsvOptions::delimiter`] (default `,`); RFC 4180 quoting is
//!   understood; whitespace around every field is trimmed; blank lines are skipped.
//! * Every row must have as many fields as the header.
//! * Feature cells must parse as `f64` (Rust's syntax: `1`, `-2.5`, `1e-3`, `+4`). The spellings
//!   `nan`, `NaN`, `inf`, `-inf`, `infinity` (any case) parse as NaN / ±infinity **on purpose**: the
//!   loader keeps them, and the estimators reject them at fit time with the row and column
//!   (`Error::NonFinite`), so that a file can be loaded, inspected and cleaned. Empty cells are an
//!   error (no implicit missing-value handling).
//! * The target column is chosen by [`TargetColumn`] and interpreted by [`TaskHint`].
//!
//! # Errors
//!
//! Positions in [`Error::Parse`] are 1-based physical positions in the file: the header is line
//! 1 (unless blank lines precede it), the first data row line 2; blank lines count; a record
//! with a quoted line break is reported at its first line. Columns count fields from 1.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::{Read, Write};
use std::path::Path;

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::{Error, Float, Result};

use crate::dataset::{Dataset, Target};

/// Which column of a CSV file holds the target.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum TargetColumn {
    /// The last column (the layout of the embedded files).
    #[default]
    Last,
    /// The column whose header is exactly this name (after trimming whitespace).
    Name(String),
    /// The column at this **0-based** index.
    Index(usize),
    /// No target: every column is a feature ([`Target::None`]).
    None,
}

/// How to interpret the target column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TaskHint {
    /// Decide from the cells (the rule is documented on [`CsvOptions`]).
    #[default]
    Auto,
    /// Label-encode the target into class indices.
    Classification,
    /// Parse the target as `f64`.
    Regression,
}

/// Options of [`read_csv`] / [`load_csv`].
///
/// | field | default | meaning |
/// |---|---|---|
/// | `target` | [`TargetColumn::Last`] | which column is the target |
/// | `task` | [`TaskHint::Auto`] | classification or regression |
/// | `delimiter` | `b','` | field separator (`b';'`, `b'\t'`, ...) |
///
/// **Classification targets** may hold any strings or numbers. They are label-encoded in sorted
/// order: if every cell parses as a finite number the classes are sorted numerically (equal
/// values such as `1` and `1.0` are one class, named by their shortest spelling, `"1"`), otherwise
/// all cells are taken as strings and sorted lexicographically (byte order). The names are kept
/// in [`Target::Classes::names`] so predictions can be decoded.
///
/// **[`TaskHint::Auto`]** chooses classification when (a) some target cell is not a number, or
/// (b) every target cell is an integer (finite, no fractional part) and the number of distinct
/// values is at most `min(30, max(2, n_rows / 2))`. Everything else is regression. Integer
/// targets with many distinct values (counts, prices) therefore load as regression; pass a hint
/// when the rule guesses wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct CsvOptions {
    /// The target column.
    pub target: TargetColumn,
    /// Classification, regression, or automatic.
    pub task: TaskHint,
    /// Field separator byte.
    pub delimiter: u8,
}

impl Default for CsvOptions {
    fn default() -> Self {
        Self {
            target: TargetColumn::Last,
            task: TaskHint::Auto,
            delimiter: b',',
        }
    }
}

impl CsvOptions {
    /// Sets `target`.
    pub fn target(mut self, v: TargetColumn) -> Self {
        self.target = v;
        self
    }
    /// Sets `task`.
    pub fn task(mut self, v: TaskHint) -> Self {
        self.task = v;
        self
    }
    /// Sets `delimiter`.
    pub fn delimiter(mut self, v: u8) -> Self {
        self.delimiter = v;
        self
    }
}

/// Largest number of distinct integer values [`TaskHint::Auto`] still reads as classes.
const AUTO_MAX_CLASSES: usize = 30;

/// Loads a CSV file (see the [module docs](self) for the format).
///
/// The data set is named after the file stem (`data/train.csv` → `"train"`).
///
/// ```no_run
/// use ndlearn_datasets::{load_csv, CsvOptions, TargetColumn};
///
/// let data = load_csv("houses.csv", &CsvOptions::default().target(TargetColumn::Name("price".into())))?;
/// println!("{} rows, {} features", data.n_samples(), data.n_features());
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Io`] when the file cannot be opened or read, and everything [`read_csv`] returns.
pub fn load_csv(path: impl AsRef<Path>, options: &CsvOptions) -> Result<Dataset> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let file = File::open(path).map_err(|source| Error::Io {
        path: shown.clone(),
        source,
    })?;
    let mut data = read_csv_impl(std::io::BufReader::new(file), options, &shown)?;
    if let Some(stem) = path.file_stem() {
        data.name = stem.to_string_lossy().into_owned();
    }
    Ok(data)
}

/// Reads CSV data from any reader (see the [module docs](self) for the format). The data set is
/// named `"csv"`.
///
/// ```
/// use ndlearn_datasets::{read_csv, CsvOptions, Target};
///
/// let text = "height,weight,species\n1.0,2.0,dog\n3.0,4.5,cat\n2.0,2.5,dog\n";
/// let data = read_csv(text.as_bytes(), &CsvOptions::default())?;
/// assert_eq!(data.feature_names, ["height", "weight"]);
/// // String labels are encoded in sorted order: cat = 0, dog = 1.
/// assert_eq!(data.class_names().map(|n| n.to_vec()), Some(vec!["cat".to_string(), "dog".to_string()]));
/// assert_eq!(data.y_classes().map(|y| y.to_vec()), Some(vec![1, 0, 1]));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// * [`Error::Parse`] with the 1-based line and column for: an empty input (no header), a
///   header without data rows, a row with a different number of fields than the header, an
///   empty or non-numeric feature cell (the message quotes the cell), an empty target cell, a
///   non-numeric target cell under [`TaskHint::Regression`], invalid UTF-8, and no feature
///   column left after removing the target.
/// * [`Error::InvalidParam`] (`target`) for a target column name that is not in the header (the
///   message lists the available names), a name that appears twice, or an index past the last
///   column.
/// * [`Error::Io`] (path `"<reader>"`) when the reader fails.
pub fn read_csv<R: Read>(reader: R, options: &CsvOptions) -> Result<Dataset> {
    read_csv_impl(reader, options, "<reader>")
}

/// Maps byte offsets of the input to physical 1-based line numbers (blank lines count; `\n`,
/// `\r\n` and a lone `\r` each end a line). The `csv` crate's own line counter skips blank
/// lines, so positions are recomputed here, only when an error is reported.
struct LineMap<'a> {
    data: &'a [u8],
}

impl LineMap<'_> {
    /// The line of the record that `csv` reports at byte `byte` (which may point at the blank
    /// lines or line ending before the record: those are skipped first).
    fn line_at(&self, byte: u64) -> usize {
        let mut start = usize::try_from(byte)
            .unwrap_or(usize::MAX)
            .min(self.data.len());
        while start < self.data.len() && matches!(self.data[start], b'\n' | b'\r') {
            start += 1;
        }
        let before = &self.data[..start];
        let lf = before.iter().filter(|&&b| b == b'\n').count();
        let lone_cr = before
            .windows(2)
            .filter(|w| w[0] == b'\r' && w[1] != b'\n')
            .count()
            + usize::from(before.last() == Some(&b'\r'));
        1 + lf + lone_cr
    }

    /// Maps a `csv` crate error to the workspace error.
    fn csv_error(&self, e: csv::Error, source_name: &str) -> Error {
        match e.into_kind() {
            csv::ErrorKind::Io(source) => Error::Io {
                path: source_name.to_string(),
                source,
            },
            csv::ErrorKind::Utf8 { pos, err } => Error::Parse {
                line: pos.map_or(0, |p| self.line_at(p.byte())),
                column: err.field() + 1,
                reason: format!(
                    "invalid UTF-8 (valid up to byte {} of the field); save the file as UTF-8",
                    err.valid_up_to()
                ),
            },
            other => Error::Parse {
                line: 0,
                column: 0,
                reason: format!("CSV error: {other:?}"),
            },
        }
    }
}

/// Maps a `csv` crate error raised while writing.
fn write_error(e: csv::Error, shown: &str) -> Error {
    match e.into_kind() {
        csv::ErrorKind::Io(source) => Error::Io {
            path: shown.to_string(),
            source,
        },
        other => Error::Io {
            path: shown.to_string(),
            source: std::io::Error::other(format!("{other:?}")),
        },
    }
}

fn read_csv_impl<R: Read>(
    mut reader: R,
    options: &CsvOptions,
    source_name: &str,
) -> Result<Dataset> {
    // The whole input is kept in memory: the feature matrix needs as much anyway, and it lets
    // error messages give physical line numbers.
    let mut data = Vec::new();
    reader.read_to_end(&mut data).map_err(|source| Error::Io {
        path: source_name.to_string(),
        source,
    })?;
    let lines = LineMap { data: &data };
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(true)
        .delimiter(options.delimiter)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(data.as_slice());
    let header_record = rdr.headers().map_err(|e| lines.csv_error(e, source_name))?;
    let header_line = header_record
        .position()
        .map_or(1, |p| lines.line_at(p.byte()));
    let header: Vec<String> = header_record.iter().map(str::to_string).collect();
    if header.is_empty() {
        return Err(Error::Parse {
            line: 1,
            column: 0,
            reason: "empty input: a header row naming the columns is required".into(),
        });
    }
    let n_cols = header.len();
    let target_idx = resolve_target(&header, &options.target)?;
    let n_features = n_cols - usize::from(target_idx.is_some());
    if n_features == 0 {
        return Err(Error::Parse {
            line: header_line,
            column: 0,
            reason: "the header has no feature column besides the target".into(),
        });
    }
    let feature_names: Vec<String> = header
        .iter()
        .enumerate()
        .filter(|&(j, _)| Some(j) != target_idx)
        .map(|(_, h)| h.clone())
        .collect();

    let mut values: Vec<f64> = Vec::new();
    // Target cells with the byte offset of their record (for error messages).
    let mut target_cells: Vec<(String, u64)> = Vec::new();
    let mut n_rows = 0usize;
    let mut record = csv::StringRecord::new();
    loop {
        let more = rdr
            .read_record(&mut record)
            .map_err(|e| lines.csv_error(e, source_name))?;
        if !more {
            break;
        }
        let byte = record.position().map_or(0, csv::Position::byte);
        if record.len() != n_cols {
            return Err(Error::Parse {
                line: lines.line_at(byte),
                column: record.len().min(n_cols) + 1,
                reason: format!(
                    "expected {n_cols} fields (as in the header), found {}",
                    record.len()
                ),
            });
        }
        for (j, cell) in record.iter().enumerate() {
            if Some(j) == target_idx {
                target_cells.push((cell.to_string(), byte));
                continue;
            }
            let v = parse_feature(cell, &header[j]).map_err(|reason| Error::Parse {
                line: lines.line_at(byte),
                column: j + 1,
                reason,
            })?;
            values.push(v);
        }
        n_rows += 1;
    }
    if n_rows == 0 {
        return Err(Error::Parse {
            line: header_line + 1,
            column: 0,
            reason: "no data rows after the header".into(),
        });
    }
    let x = Array2::from_shape_vec((n_rows, n_features), values).map_err(|e| Error::Parse {
        line: 0,
        column: 0,
        reason: format!("internal shape error: {e}"),
    })?;
    let (target, target_name) = match target_idx {
        None => (Target::None, None),
        Some(t) => (
            build_target(&target_cells, &lines, t + 1, &header[t], options.task)?,
            Some(header[t].clone()),
        ),
    };
    Dataset::new("csv", x, target, feature_names, target_name)
}

/// The 0-based index of the target column, or `None` for no target.
fn resolve_target(header: &[String], target: &TargetColumn) -> Result<Option<usize>> {
    match target {
        TargetColumn::None => Ok(None),
        TargetColumn::Last => Ok(Some(header.len() - 1)),
        TargetColumn::Index(i) => {
            if *i < header.len() {
                Ok(Some(*i))
            } else {
                Err(Error::invalid_param(
                    "target",
                    format!(
                        "column index {i} is out of range: the header has {} columns (indices 0..{})",
                        header.len(),
                        header.len() - 1
                    ),
                ))
            }
        }
        TargetColumn::Name(name) => {
            let name = name.trim();
            let hits: Vec<usize> = header
                .iter()
                .enumerate()
                .filter(|(_, h)| h.as_str() == name)
                .map(|(j, _)| j)
                .collect();
            match hits.as_slice() {
                [j] => Ok(Some(*j)),
                [] => Err(Error::invalid_param(
                    "target",
                    format!(
                        "no column named `{name}` in the header; available columns: {}",
                        header.join(", ")
                    ),
                )),
                _ => Err(Error::invalid_param(
                    "target",
                    format!(
                        "the header has {} columns named `{name}`; select the target by index instead",
                        hits.len()
                    ),
                )),
            }
        }
    }
}

/// Parses one feature cell; the error is the reason text.
fn parse_feature(cell: &str, name: &str) -> std::result::Result<f64, String> {
    if cell.is_empty() {
        return Err(format!(
            "empty cell in feature column `{name}`; missing values are not supported: impute or drop them first"
        ));
    }
    cell.parse::<f64>()
        .map_err(|_| format!("cannot parse {cell:?} as a number in feature column `{name}`"))
}

/// `true` when `v` is a finite whole number.
fn is_integral(v: f64) -> bool {
    v.is_finite() && v.fract() == 0.0
}

fn build_target(
    cells: &[(String, u64)],
    lines: &LineMap<'_>,
    column: usize,
    name: &str,
    task: TaskHint,
) -> Result<Target> {
    if let Some((_, byte)) = cells.iter().find(|(c, _)| c.is_empty()) {
        return Err(Error::Parse {
            line: lines.line_at(*byte),
            column,
            reason: format!("empty cell in target column `{name}`"),
        });
    }
    let numbers: Option<Vec<f64>> = cells.iter().map(|(c, _)| c.parse::<f64>().ok()).collect();
    let classify = match task {
        TaskHint::Classification => true,
        TaskHint::Regression => false,
        TaskHint::Auto => match &numbers {
            None => true,
            Some(v) => {
                let limit = AUTO_MAX_CLASSES.min((v.len() / 2).max(2));
                v.iter().all(|&t| is_integral(t)) && count_distinct(v) <= limit
            }
        },
    };
    if classify {
        return Ok(encode_labels(cells, numbers.as_deref()));
    }
    match numbers {
        Some(v) => Ok(Target::Values(Array1::from(v))),
        None => {
            // Report the first cell that is not a number.
            let (cell, line) = cells
                .iter()
                .find(|(c, _)| c.parse::<f64>().is_err())
                .map_or(("", 0), |(c, b)| (c.as_str(), lines.line_at(*b)));
            Err(Error::Parse {
                line,
                column,
                reason: format!(
                    "cannot parse {cell:?} as a number in target column `{name}` (regression target); use TaskHint::Classification for labels"
                ),
            })
        }
    }
}

fn count_distinct(v: &[f64]) -> usize {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.dedup_by(|a, b| a == b);
    s.len()
}

/// Shortest spelling of a class value: whole numbers without a decimal point.
fn number_name(v: f64) -> String {
    if is_integral(v) && v.abs() < 9.0e15 {
        // Exact: |v| < 2^53 and whole.
        format!("{}", v as i64)
    } else {
        format!("{v}")
    }
}

/// Label-encodes the target cells in sorted order (numeric when all cells are finite numbers).
fn encode_labels(cells: &[(String, u64)], numbers: Option<&[f64]>) -> Target {
    match numbers {
        Some(v) if v.iter().all(|t| t.is_finite()) => {
            let mut classes = v.to_vec();
            classes.sort_by(f64::total_cmp);
            // `==` merges 0.0 and -0.0.
            classes.dedup_by(|a, b| a == b);
            let y = v
                .iter()
                .map(|t| classes.partition_point(|c| c < t))
                .collect::<Array1<usize>>();
            let names = classes.iter().map(|&c| number_name(c)).collect();
            Target::Classes { y, names }
        }
        _ => {
            let classes: Vec<&str> = cells
                .iter()
                .map(|(c, _)| c.as_str())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect();
            let y = cells
                .iter()
                .map(|(c, _)| classes.partition_point(|k| *k < c.as_str()))
                .collect::<Array1<usize>>();
            let names = classes.into_iter().map(str::to_string).collect();
            Target::Classes { y, names }
        }
    }
}

/// Writes `x` with a header row to the file at `path` (created or truncated), comma separated.
///
/// Whole numbers below 10^15 in magnitude are written without a decimal point (`3`), everything
/// else with Rust's shortest round-trip formatting (`0.1`, `1e300`, `NaN`, `inf`), so
/// [`read_csv`] reads back exactly the same values.
///
/// # Errors
///
/// [`Error::ShapeMismatch`] when `header.len() != x.ncols()` or `x` has no column;
/// [`Error::Io`] when the file cannot be created or written.
pub fn write_csv<F: Float, S: AsRef<str>>(
    path: impl AsRef<Path>,
    header: &[S],
    x: &ArrayRef2<F>,
) -> Result<()> {
    let path = path.as_ref();
    let shown = path.display().to_string();
    let file = File::create(path).map_err(|source| Error::Io {
        path: shown.clone(),
        source,
    })?;
    write_csv_impl(std::io::BufWriter::new(file), header, x, &shown)
}

/// Writes `x` with a header row to any writer; the format is that of [`write_csv`].
///
/// ```
/// use ndlearn_datasets::{read_csv, write_csv_to, CsvOptions, TargetColumn};
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[1.0, 0.5], [-2.0, 1e-300]];
/// let mut out = Vec::new();
/// write_csv_to(&mut out, &["a", "b"], &x)?;
/// assert_eq!(String::from_utf8_lossy(&out), "a,b\n1,0.5\n-2,1e-300\n");
/// let back = read_csv(out.as_slice(), &CsvOptions::default().target(TargetColumn::None))?;
/// assert_eq!(back.x, x);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// As [`write_csv`] (the `Io` path is `"<writer>"`).
pub fn write_csv_to<W: Write, F: Float, S: AsRef<str>>(
    writer: W,
    header: &[S],
    x: &ArrayRef2<F>,
) -> Result<()> {
    write_csv_impl(writer, header, x, "<writer>")
}

/// Formats one value as described on [`write_csv`].
fn format_value<F: Float>(v: F) -> String {
    let as_f64 = v.to_f64_lossless();
    if is_integral(as_f64) && as_f64.abs() < 1e15 {
        format!("{}", as_f64 as i64)
    } else {
        format!("{v:?}")
    }
}

fn write_csv_impl<W: Write, F: Float, S: AsRef<str>>(
    writer: W,
    header: &[S],
    x: &ArrayRef2<F>,
    shown: &str,
) -> Result<()> {
    if header.len() != x.ncols() || x.ncols() == 0 {
        return Err(Error::ShapeMismatch {
            context: "write_csv: header",
            expected: format!(
                "one name per column of x ({} columns, at least 1)",
                x.ncols()
            ),
            found: format!("{} names", header.len()),
        });
    }
    let mut w = csv::WriterBuilder::new().from_writer(writer);
    w.write_record(header.iter().map(AsRef::as_ref))
        .map_err(|e| write_error(e, shown))?;
    let mut row_buf: Vec<String> = Vec::with_capacity(x.ncols());
    for row in x.rows() {
        row_buf.clear();
        row_buf.extend(row.iter().map(|&v| format_value(v)));
        w.write_record(&row_buf)
            .map_err(|e| write_error(e, shown))?;
    }
    w.flush().map_err(|source| Error::Io {
        path: shown.to_string(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn read(text: &str, opts: &CsvOptions) -> Result<Dataset> {
        read_csv(text.as_bytes(), opts)
    }

    fn parse_err(r: Result<Dataset>) -> (usize, usize, String) {
        match r {
            Err(Error::Parse {
                line,
                column,
                reason,
            }) => (line, column, reason),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    const GOOD: &str = "a,b,label\n1,2.5,0\n3,-4e2,1\n5,6,1\n7,8,0\n";

    #[test]
    fn good_file_target_last_auto_classes() {
        let d = read(GOOD, &CsvOptions::default()).expect("valid file");
        assert_eq!(
            d.x,
            array![[1.0, 2.5], [3.0, -400.0], [5.0, 6.0], [7.0, 8.0]]
        );
        assert_eq!(d.feature_names, ["a", "b"]);
        assert_eq!(d.target_name.as_deref(), Some("label"));
        assert_eq!(d.y_classes(), Some(&array![0, 1, 1, 0]));
        assert_eq!(
            d.class_names(),
            Some(&["0".to_string(), "1".to_string()][..])
        );
        assert_eq!(d.name, "csv");
    }

    #[test]
    fn target_by_name_index_and_none() {
        let by_name = read(
            GOOD,
            &CsvOptions::default()
                .target(TargetColumn::Name("a".into()))
                .task(TaskHint::Regression),
        )
        .expect("valid");
        assert_eq!(by_name.feature_names, ["b", "label"]);
        assert_eq!(by_name.y_values(), Some(&array![1.0, 3.0, 5.0, 7.0]));
        assert_eq!(by_name.x.column(1), array![0.0, 1.0, 1.0, 0.0]);

        let by_index =
            read(GOOD, &CsvOptions::default().target(TargetColumn::Index(1))).expect("valid");
        assert_eq!(by_index.feature_names, ["a", "label"]);
        // 2.5 is not a whole number: Auto picks regression.
        assert_eq!(by_index.y_values(), Some(&array![2.5, -400.0, 6.0, 8.0]));

        let none = read(GOOD, &CsvOptions::default().target(TargetColumn::None)).expect("valid");
        assert_eq!(none.n_features(), 3);
        assert_eq!(none.target, Target::None);
        assert_eq!(none.target_name, None);
    }

    #[test]
    fn string_labels_sorted_and_decodable() {
        let text = "x;species\n1;zebra\n2;ant\n3;Moose\n4;ant\n";
        let d = read(text, &CsvOptions::default().delimiter(b';')).expect("valid");
        // Byte order: uppercase before lowercase.
        assert_eq!(
            d.class_names().map(<[String]>::to_vec),
            Some(vec!["Moose".into(), "ant".into(), "zebra".into()])
        );
        assert_eq!(d.y_classes(), Some(&array![2, 1, 0, 1]));
        assert_eq!(d.class_name(2), Some("zebra"));
    }

    #[test]
    fn numeric_labels_sorted_numerically() {
        let text = "x,y\n1,10\n2,9\n3,-1\n4,10\n5,9.0\n6,-1\n";
        let d = read(text, &CsvOptions::default().task(TaskHint::Classification)).expect("valid");
        assert_eq!(
            d.class_names().map(<[String]>::to_vec),
            Some(vec!["-1".into(), "9".into(), "10".into()])
        );
        assert_eq!(d.y_classes(), Some(&array![2, 1, 0, 2, 1, 0]));
        let frac = read(
            "x,y\n1,0.5\n2,0.25\n",
            &CsvOptions::default().task(TaskHint::Classification),
        )
        .expect("valid");
        assert_eq!(
            frac.class_names().map(<[String]>::to_vec),
            Some(vec!["0.25".into(), "0.5".into()])
        );
    }

    #[test]
    fn auto_rule() {
        // Many distinct integers: regression.
        let mut text = String::from("x,y\n");
        for i in 0..10 {
            text.push_str(&format!("{i},{}\n", i * 7));
        }
        let d = read(&text, &CsvOptions::default()).expect("valid");
        assert!(d.y_values().is_some());
        // Few distinct integers: classes.
        let mut text = String::from("x,y\n");
        for i in 0..10 {
            text.push_str(&format!("{i},{}\n", i % 3));
        }
        let d = read(&text, &CsvOptions::default()).expect("valid");
        assert_eq!(d.n_classes(), Some(3));
        // Two rows, two distinct integers: classes (max(2, n/2)).
        let d = read("x,y\n1,0\n2,1\n", &CsvOptions::default()).expect("valid");
        assert_eq!(d.n_classes(), Some(2));
    }

    #[test]
    fn nan_and_inf_are_kept() {
        let d = read("a,b,t\nnan,inf,1.5\nNaN,-inf,2.5\n", &CsvOptions::default())
            .expect("non-finite cells parse");
        assert!(d.x[[0, 0]].is_nan() && d.x[[1, 0]].is_nan());
        assert_eq!(d.x[[0, 1]], f64::INFINITY);
        assert_eq!(d.x[[1, 1]], f64::NEG_INFINITY);
    }

    #[test]
    fn whitespace_quotes_and_blank_lines() {
        let text = "\"a\", b ,t\n 1 , 2 ,x\n\n\"3\",4,y\n";
        let d = read(text, &CsvOptions::default()).expect("valid");
        assert_eq!(d.feature_names, ["a", "b"]);
        assert_eq!(d.x, array![[1.0, 2.0], [3.0, 4.0]]);
        // A bad cell after a blank line reports the physical line.
        let (line, column, _) = parse_err(read("a,t\n1,x\n\nz,y\n", &CsvOptions::default()));
        assert_eq!((line, column), (4, 1));
        // CRLF line endings, blank lines before the header, a quoted line break.
        let (line, _, _) = parse_err(read(
            "a,t\r\n1,x\r\n\r\n\r\nz,y\r\n",
            &CsvOptions::default(),
        ));
        assert_eq!(line, 5);
        let (line, _, _) = parse_err(read("\n\na,t\n1,x\nq,y\n", &CsvOptions::default()));
        assert_eq!(line, 5);
        let (line, _, _) = parse_err(read("a,t\n1,\"x\ny\"\n?,z\n", &CsvOptions::default()));
        assert_eq!(line, 4);
        let (line, _, _) = parse_err(read("a,t\r1,x\rq,y\r", &CsvOptions::default()));
        assert_eq!(line, 3);
    }

    #[test]
    fn error_non_numeric_and_empty_feature() {
        let (line, column, reason) =
            parse_err(read("a,b,t\n1,2,0\n3,abc,1\n", &CsvOptions::default()));
        assert_eq!((line, column), (3, 2));
        assert!(
            reason.contains("\"abc\"") && reason.contains("`b`"),
            "{reason}"
        );
        let (line, column, reason) =
            parse_err(read("a,b,t\n1,2,0\n3,4,1\n,5,0\n", &CsvOptions::default()));
        assert_eq!((line, column), (4, 1));
        assert!(reason.contains("empty"), "{reason}");
        // The target at index 0 shifts the feature columns; positions stay file positions.
        let (line, column, _) = parse_err(read(
            "t,a,b\n0,1,2\n1,3,?\n",
            &CsvOptions::default().target(TargetColumn::Index(0)),
        ));
        assert_eq!((line, column), (3, 3));
    }

    #[test]
    fn error_ragged_rows() {
        let (line, column, reason) = parse_err(read("a,b,t\n1,2,0\n3,4\n", &CsvOptions::default()));
        assert_eq!((line, column), (3, 3));
        assert!(reason.contains("expected 3 fields"), "{reason}");
        let (line, column, _) = parse_err(read("a,b,t\n1,2,0,9\n", &CsvOptions::default()));
        assert_eq!((line, column), (2, 4));
    }

    #[test]
    fn error_empty_inputs() {
        let (line, _, reason) = parse_err(read("", &CsvOptions::default()));
        assert_eq!(line, 1);
        assert!(reason.contains("header"), "{reason}");
        let (line, _, reason) = parse_err(read("a,b,t\n", &CsvOptions::default()));
        assert_eq!(line, 2);
        assert!(reason.contains("no data rows"), "{reason}");
        let (line, _, _) = parse_err(read("t\n1\n", &CsvOptions::default()));
        assert_eq!(line, 1);
    }

    #[test]
    fn error_target_column() {
        match read(
            GOOD,
            &CsvOptions::default().target(TargetColumn::Name("price".into())),
        ) {
            Err(Error::InvalidParam { name, reason }) => {
                assert_eq!(name, "target");
                assert!(
                    reason.contains("price") && reason.contains("a, b, label"),
                    "{reason}"
                );
            }
            other => panic!("expected InvalidParam, got {other:?}"),
        }
        assert!(matches!(
            read(GOOD, &CsvOptions::default().target(TargetColumn::Index(3))),
            Err(Error::InvalidParam { name: "target", .. })
        ));
        assert!(matches!(
            read(
                "a,a,t\n1,2,3\n",
                &CsvOptions::default().target(TargetColumn::Name("a".into()))
            ),
            Err(Error::InvalidParam { name: "target", .. })
        ));
        // Empty target cell, non-numeric regression target.
        let (line, column, _) = parse_err(read("a,t\n1,0\n2,\n", &CsvOptions::default()));
        assert_eq!((line, column), (3, 2));
        let (line, column, reason) = parse_err(read(
            "a,t\n1,0.5\n2,big\n",
            &CsvOptions::default().task(TaskHint::Regression),
        ));
        assert_eq!((line, column), (3, 2));
        assert!(reason.contains("\"big\""), "{reason}");
    }

    #[test]
    fn error_invalid_utf8() {
        let bytes: &[u8] = b"a,t\n1,0\n\xff\xfe,1\n";
        let (line, column, _) = parse_err(read_csv(bytes, &CsvOptions::default()));
        assert_eq!((line, column), (3, 1));
    }

    #[test]
    fn io_errors_name_the_path() {
        let missing = std::env::temp_dir().join("ndlearn-datasets-no-such-dir/none.csv");
        match load_csv(&missing, &CsvOptions::default()) {
            Err(Error::Io { path, .. }) => assert!(path.contains("none.csv"), "{path}"),
            other => panic!("expected Io, got {other:?}"),
        }
        let x = array![[1.0]];
        assert!(matches!(
            write_csv(&missing, &["a"], &x),
            Err(Error::Io { .. })
        ));
    }

    #[test]
    fn write_then_load_round_trip() {
        let x = array![
            [0.1, -3.0, 1e300],
            [f64::NAN, f64::INFINITY, 5e-324],
            [123456789.125, 1e15, -0.0]
        ];
        let dir =
            std::env::temp_dir().join(format!("ndlearn-datasets-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir is writable");
        let path = dir.join("roundtrip.csv");
        write_csv(&path, &["p", "q, quoted", "r"], &x).expect("writable");
        let back =
            load_csv(&path, &CsvOptions::default().target(TargetColumn::None)).expect("readable");
        assert_eq!(back.name, "roundtrip");
        assert_eq!(back.feature_names, ["p", "q, quoted", "r"]);
        for (a, b) in x.iter().zip(back.x.iter()) {
            assert!(
                a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || a == b,
                "{a} vs {b}"
            );
        }
        std::fs::remove_dir_all(&dir).expect("temp dir removable");

        let x32 = array![[0.1f32, 2.0]];
        let mut out = Vec::new();
        write_csv_to(&mut out, &["a", "b"], &x32).expect("in-memory write");
        assert_eq!(String::from_utf8_lossy(&out), "a,b\n0.1,2\n");
        assert!(matches!(
            write_csv_to(Vec::new(), &["a"], &x32),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
