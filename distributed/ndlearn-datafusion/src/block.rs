//! Arrow arrays to the row blocks of core's mergeable statistics.

use crate::error::{DistError, Result};
use datafusion::arrow::array::{Array, ArrayRef, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Float64Type, Int64Type};
use ndarray::{Array1, Array2, ArrayView2};
use ndlearn_core::stats::mergeable::RowBlock;

/// How the features arrive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Features {
    /// `d` numeric columns, one per feature (cast to `Float64`, copied into a row-major block).
    Columns(usize),
    /// One `FixedSizeList<Float64>` column of width `d` (read in place: no copy).
    List(usize),
}

impl Features {
    /// Number of features.
    pub fn width(self) -> usize {
        match self {
            Features::Columns(d) | Features::List(d) => d,
        }
    }

    fn n_args(self) -> usize {
        match self {
            Features::Columns(d) => d,
            Features::List(_) => 1,
        }
    }
}

/// The arguments of one aggregate call, in order: the features, then `targets` numeric columns,
/// then (if `labels`) one integer class-label column, then (if `weights`) one numeric
/// sample-weight column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Layout {
    /// The features.
    pub features: Features,
    /// Number of target columns.
    pub targets: usize,
    /// Whether a class-label column follows.
    pub labels: bool,
    /// Whether a sample-weight column follows.
    pub weights: bool,
}

impl Layout {
    /// `d` feature columns and nothing else.
    pub fn features(d: usize) -> Self {
        Self {
            features: Features::Columns(d),
            targets: 0,
            labels: false,
            weights: false,
        }
    }

    /// Number of arguments of the aggregate call.
    pub fn n_args(&self) -> usize {
        self.features.n_args() + self.targets + usize::from(self.labels) + usize::from(self.weights)
    }
}

/// The data of one batch, owned where a copy was needed.
pub(crate) struct Batch {
    x: XData,
    y: Option<Array2<f64>>,
    labels: Option<Array1<usize>>,
    weights: Option<Array1<f64>>,
}

enum XData {
    Owned(Array2<f64>),
    /// The `Float64` values of a `FixedSizeList` column and the width.
    List(ArrayRef, usize),
}

impl Batch {
    /// Reads the arguments of one `update_batch` call.
    pub(crate) fn read(layout: &Layout, args: &[ArrayRef]) -> Result<Self> {
        if args.len() != layout.n_args() {
            return Err(DistError::Plan(format!(
                "the ndlearn aggregate takes {} arguments, got {}",
                layout.n_args(),
                args.len()
            )));
        }
        for (i, a) in args.iter().enumerate() {
            if let Some(row) = first_null(a.as_ref()) {
                return Err(DistError::Null { argument: i, row });
            }
        }
        let n = args.first().map_or(0, |a| a.len());
        let mut pos;
        let x = match layout.features {
            Features::List(d) => {
                let a = &args[0];
                let DataType::FixedSizeList(field, w) = a.data_type() else {
                    return Err(type_err(0, a.data_type(), "FixedSizeList<Float64>"));
                };
                if *field.data_type() != DataType::Float64 || usize::try_from(*w).ok() != Some(d) {
                    return Err(type_err(
                        0,
                        a.data_type(),
                        &format!("FixedSizeList<Float64, {d}>"),
                    ));
                }
                let values = a.as_fixed_size_list().values().clone();
                if let Some(row) = first_null(values.as_ref()) {
                    return Err(DistError::Null {
                        argument: 0,
                        row: row / d.max(1),
                    });
                }
                pos = 1;
                XData::List(values, d)
            }
            Features::Columns(d) => {
                let mut x = Array2::<f64>::zeros((n, d));
                for (j, a) in args.iter().take(d).enumerate() {
                    let col = float_column(a, j)?;
                    for (dst, &v) in x.column_mut(j).iter_mut().zip(col.iter()) {
                        *dst = v;
                    }
                }
                pos = d;
                XData::Owned(x)
            }
        };
        let y = (layout.targets > 0)
            .then(|| -> Result<Array2<f64>> {
                let mut y = Array2::<f64>::zeros((n, layout.targets));
                for t in 0..layout.targets {
                    let col = float_column(&args[pos + t], pos + t)?;
                    for (dst, &v) in y.column_mut(t).iter_mut().zip(col.iter()) {
                        *dst = v;
                    }
                }
                Ok(y)
            })
            .transpose()?;
        pos += layout.targets;
        let labels = if layout.labels {
            let i = pos;
            pos += 1;
            let a = &args[i];
            if !a.data_type().is_integer() {
                return Err(type_err(
                    i,
                    a.data_type(),
                    "integer class labels (or row ids, for k-means‖)",
                ));
            }
            let c = cast(a, &DataType::Int64)?;
            let v = c.as_primitive::<Int64Type>();
            let mut out = Array1::<usize>::zeros(n);
            for (r, (dst, &l)) in out.iter_mut().zip(v.values().iter()).enumerate() {
                *dst = usize::try_from(l).map_err(|_| {
                    DistError::Ndlearn(ndlearn_core::Error::invalid_param(
                        "labels",
                        format!(
                            "argument {i} holds class labels 0, 1, ... (or non-negative row ids, \
                             for k-means‖); row {r} of a batch has {l}"
                        ),
                    ))
                })?;
            }
            Some(out)
        } else {
            None
        };
        let weights = if layout.weights {
            let col = float_column(&args[pos], pos)?;
            Some(Array1::from_iter(col.iter().copied()))
        } else {
            None
        };
        Ok(Self {
            x,
            y,
            labels,
            weights,
        })
    }

    /// The block view for the statistics.
    pub(crate) fn block(&self) -> Result<RowBlock<'_, f64>> {
        let x = match &self.x {
            XData::Owned(x) => x.view(),
            XData::List(values, d) => {
                let v = values.as_primitive::<Float64Type>().values();
                let n = v.len().checked_div(*d).unwrap_or(0);
                ArrayView2::from_shape((n, *d), &v[..n * d])
                    .map_err(|e| DistError::Plan(e.to_string()))?
            }
        };
        let mut b = RowBlock::new(x);
        if let Some(y) = &self.y {
            b = b.targets(y.view());
        }
        if let Some(l) = &self.labels {
            b = b.labels(l.view());
        }
        if let Some(w) = &self.weights {
            b = b.weights(w.view());
        }
        Ok(b)
    }
}

/// The first null of an array, if any.
fn first_null(a: &dyn Array) -> Option<usize> {
    if a.null_count() == 0 {
        return None;
    }
    (0..a.len()).find(|&i| a.is_null(i))
}

/// A numeric column as `Float64` (cast when needed; no copy when it already is).
fn float_column(
    a: &ArrayRef,
    argument: usize,
) -> Result<datafusion::arrow::buffer::ScalarBuffer<f64>> {
    if !a.data_type().is_numeric() {
        return Err(type_err(argument, a.data_type(), "a numeric column"));
    }
    let c = cast(a, &DataType::Float64)?;
    Ok(c.as_primitive::<Float64Type>().values().clone())
}

fn type_err(argument: usize, found: &DataType, expected: &str) -> DistError {
    DistError::Type {
        argument,
        found: found.to_string(),
        expected: expected.to_string(),
    }
}
