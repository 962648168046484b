//! A table's feature and target columns read into memory (the `local` fit).
//!
//! # Errors
//! [`read`] fails on engine errors, a missing column or null values.

use crate::Failure;
use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type};
use datafusion::prelude::{DataFrame, ident};
use ndarray::{Array1, Array2};

/// The rows of a table.
pub struct Rows {
    /// Features, `n × d`, row-major.
    pub x: Array2<f64>,
    /// The target column, if any.
    pub y: Option<Array1<f64>>,
}

/// Reads `features` (and `target`) as `f64` (any numeric column is cast), in the table's order.
///
/// # Errors
/// Engine errors (a missing column, an unreadable file), null values.
pub async fn read(
    df: &DataFrame,
    features: &[String],
    target: Option<&str>,
) -> Result<Rows, Failure> {
    let mut exprs: Vec<_> = features.iter().map(|f| ident(f.as_str())).collect();
    if let Some(t) = target {
        exprs.push(ident(t));
    }
    let batches = df.clone().select(exprs)?.collect().await?;
    let d = features.len();
    let n: usize = batches.iter().map(|b| b.num_rows()).sum();
    let mut x = Array2::<f64>::zeros((n, d));
    let mut y = target.map(|_| Array1::<f64>::zeros(n));
    let mut at = 0;
    let out = x
        .as_slice_mut()
        .ok_or_else(|| Failure("internal: a fresh array is contiguous".into()))?;
    for b in &batches {
        let rows = b.num_rows();
        let mut cols = Vec::with_capacity(b.num_columns());
        for (j, col) in b.columns().iter().enumerate() {
            if col.null_count() > 0 {
                return Err(Failure(format!(
                    "column `{}` has null values",
                    b.schema().field(j).name()
                )));
            }
            cols.push(cast(col, &DataType::Float64)?);
        }
        let vals: Vec<&[f64]> = cols
            .iter()
            .map(|c| &c.as_primitive::<Float64Type>().values()[..])
            .collect();
        // row-major fill: sequential writes, one read stream per column
        for (i, row) in out[at * d..(at + rows) * d].chunks_exact_mut(d).enumerate() {
            for (v, col) in row.iter_mut().zip(&vals[..d]) {
                *v = col[i];
            }
        }
        if let (Some(y), Some(t)) = (y.as_mut(), vals.get(d)) {
            y.slice_mut(ndarray::s![at..at + rows])
                .iter_mut()
                .zip(t.iter())
                .for_each(|(a, &b)| *a = b);
        }
        at += rows;
    }
    Ok(Rows { x, y })
}
