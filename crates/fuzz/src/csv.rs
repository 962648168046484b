//! The `csv` target: raw bytes and generated tables through the data-set reader, the command
//! line's loader and its raw-table (text columns) reader.

use std::io::Write;
use std::path::PathBuf;

use arbitrary::{Result as ArbResult, Unstructured};
use ndlearn_cli::data::{self, TargetArg};
use ndlearn_cli::raw::{self, Encode, Impute};
use ndlearn_core::registry::Kind;
use ndlearn_datasets::{CsvOptions, TargetColumn, TaskHint};

use crate::Outcome;

/// Cells that stress a number parser and a CSV reader.
const CELLS: [&str; 34] = [
    "1",
    "-0",
    "0.5",
    "1e309",
    "-1e309",
    "1e-400",
    "nan",
    "NaN",
    "inf",
    "-Infinity",
    "",
    " ",
    "a",
    "b",
    "red",
    "\"x,y\"",
    "\"\"",
    "\"unterminated",
    "1,5",
    " 2 ",
    "\u{feff}3",
    "NA",
    "?",
    "null",
    "0x1F",
    "1_000",
    "+7",
    ".5",
    "5.",
    "1e",
    "18446744073709551616",
    "é",
    "\t",
    "\r",
];

fn cell(u: &mut Unstructured<'_>) -> ArbResult<String> {
    Ok(match u.int_in_range(0u8..=9)? {
        0..=5 => CELLS[u.choose_index(CELLS.len())?].to_string(),
        6..=7 => u.int_in_range(-3i8..=9)?.to_string(),
        8 => (f64::from(u.arbitrary::<i32>()?) / 1000.0).to_string(),
        _ => u.arbitrary::<String>()?,
    })
}

/// A table: a header (sometimes with empty or repeated names), rows of cells (sometimes of
/// the wrong length), a delimiter, line endings.
fn table(u: &mut Unstructured<'_>) -> ArbResult<(Vec<u8>, u8)> {
    let delim = *u.choose(b",,,,;\t|")?;
    let d = u.int_in_range(0usize..=5)?;
    let n = u.int_in_range(0usize..=8)?;
    let eol = if u.ratio(1u8, 5u8)? { "\r\n" } else { "\n" };
    let sep = char::from(delim).to_string();
    let mut out = String::new();
    let header: Vec<String> = (0..d)
        .map(|j| {
            Ok(match u.int_in_range(0u8..=7)? {
                0 => String::new(),
                1 => "x".into(),
                2 => "target".into(),
                _ => format!("c{j}"),
            })
        })
        .collect::<ArbResult<_>>()?;
    out.push_str(&header.join(&sep));
    out.push_str(eol);
    let style = u.int_in_range(0u8..=2)?;
    for _ in 0..n {
        let w = if u.ratio(1u8, 8u8)? {
            u.int_in_range(0usize..=6)?
        } else {
            d
        };
        let row: Vec<String> = (0..w)
            .map(|_| match style {
                // Mostly numeric tables reach the numeric paths.
                0 => Ok(u.int_in_range(-3i8..=9)?.to_string()),
                _ => cell(u),
            })
            .collect::<ArbResult<_>>()?;
        out.push_str(&row.join(&sep));
        if u.ratio(7u8, 8u8)? {
            out.push_str(eol);
        }
    }
    Ok((out.into_bytes(), delim))
}

/// The file the command-line loaders read (one per process: workers run one target each).
fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("ndlearn-fuzz-{}.csv", std::process::id()))
}

pub(crate) fn run(u: &mut Unstructured<'_>) -> ArbResult<Outcome> {
    let (bytes, delim) = if u.ratio(1u8, 4u8)? {
        let n = u.int_in_range(0usize..=512)?;
        (u.bytes(n)?.to_vec(), b',')
    } else {
        table(u)?
    };
    let target = match u.int_in_range(0u8..=4)? {
        0 => TargetColumn::Last,
        1 => TargetColumn::None,
        2 => TargetColumn::Index(u.int_in_range(0usize..=6)?),
        3 => TargetColumn::Name("target".into()),
        _ => TargetColumn::Name(u.arbitrary()?),
    };
    let task = *u.choose(&[
        TaskHint::Auto,
        TaskHint::Classification,
        TaskHint::Regression,
    ])?;
    let options = CsvOptions::default()
        .target(target)
        .task(task)
        .delimiter(delim);
    let mut accepted = false;
    if let Ok(ds) = ndlearn_datasets::read_csv(bytes.as_slice(), &options) {
        assert_eq!(
            ds.x.ncols(),
            ds.feature_names.len(),
            "read_csv: names vs columns"
        );
        accepted = true;
    }
    // The command line's readers work on a file.
    let path = scratch();
    let written = std::fs::File::create(&path).and_then(|mut f| f.write_all(&bytes));
    if written.is_err() {
        return Ok(Outcome::Rejected);
    }
    let arg = match u.int_in_range(0u8..=3)? {
        0 => TargetArg::Default,
        1 => TargetArg::None,
        2 => TargetArg::Index(u.int_in_range(0usize..=6)?),
        _ => TargetArg::Name("target".into()),
    };
    let kind = *u.choose(&[
        Kind::Classifier,
        Kind::Regressor,
        Kind::Clusterer,
        Kind::Transformer,
    ])?;
    if let Ok(t) = data::load(&path, &arg, kind) {
        assert_eq!(t.x.nrows(), t.n, "data::load: row count");
        accepted = true;
    }
    let impute = *u.choose(&[
        Impute::Mean,
        Impute::Median,
        Impute::MostFrequent,
        Impute::None,
    ])?;
    let encode = *u.choose(&[Encode::Onehot, Encode::Ordinal])?;
    if let Ok(Some((t, _, _))) = raw::load_for_fit(&path, &arg, kind, impute, encode) {
        assert_eq!(t.x.nrows(), t.n, "raw::load_for_fit: row count");
        accepted = true;
    }
    Ok(if accepted {
        Outcome::Accepted
    } else {
        Outcome::Rejected
    })
}
