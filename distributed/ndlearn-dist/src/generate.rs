//! Synthetic Parquet tables for the distributed measurements: every row is a function of the
//! seed and its row id only (its own random stream), so a table split into any number of files
//! holds the same rows.
//!
//! Columns: `id` (`Int64`, `0..rows`), `x0 … x{d-1}` (features), `y` (a linear regression
//! target), `class` (`Int64` in `0..classes`, Gaussian blobs: the features of a row are its
//! class centre plus standard normal noise) and `b` (`Int64` `0`/`1`, a logistic label).

use crate::Failure;
use datafusion::arrow::array::{ArrayRef, Float32Array, Float64Array, Int64Array, RecordBatch};
use datafusion::arrow::datatypes::{DataType, Field, Schema};
use datafusion::parquet::arrow::ArrowWriter;
use datafusion::parquet::file::properties::WriterProperties;
use ndlearn_core::random::{standard_normal, stream};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What [`write`] writes.
#[derive(Debug, Clone, PartialEq)]
pub struct Spec {
    /// Rows.
    pub rows: u64,
    /// Features.
    pub features: usize,
    /// Classes of the blobs.
    pub classes: usize,
    /// Files the rows are split into (consecutive id ranges).
    pub files: usize,
    /// Rows per Parquet row group (and per record batch).
    pub row_group: usize,
    /// Features stored as `Float32` (half the bytes; read back as `f64`).
    pub float32: bool,
    /// The seed.
    pub seed: u64,
}

/// The class centres (`classes × d`, spread 3 per coordinate), the regression weights and the
/// logistic weights of a table.
struct Model {
    centres: Vec<f64>,
    beta: Vec<f64>,
    gamma: Vec<f64>,
}

impl Model {
    fn new(spec: &Spec) -> Self {
        let d = spec.features;
        let mut r = stream(spec.seed, u64::MAX);
        let centres = (0..spec.classes * d)
            .map(|_| 3.0 * standard_normal::<f64>(&mut r))
            .collect();
        let beta = (0..d).map(|j| ((j % 7) as f64 - 3.0) * 0.5).collect();
        let gamma = (0..d)
            .map(|_| standard_normal::<f64>(&mut r) / (d as f64).sqrt())
            .collect();
        Self {
            centres,
            beta,
            gamma,
        }
    }
}

fn schema(spec: &Spec) -> Arc<Schema> {
    let ft = if spec.float32 {
        DataType::Float32
    } else {
        DataType::Float64
    };
    let mut fields = vec![Field::new("id", DataType::Int64, false)];
    fields.extend((0..spec.features).map(|j| Field::new(format!("x{j}"), ft.clone(), false)));
    fields.push(Field::new("y", DataType::Float64, false));
    fields.push(Field::new("class", DataType::Int64, false));
    fields.push(Field::new("b", DataType::Int64, false));
    Arc::new(Schema::new(fields))
}

/// Rows `lo..hi` as one record batch.
fn batch(
    spec: &Spec,
    model: &Model,
    schema: &Arc<Schema>,
    lo: u64,
    hi: u64,
) -> Result<RecordBatch, Failure> {
    let d = spec.features;
    let n = (hi - lo) as usize;
    let mut x = vec![0.0f64; n * d];
    let (mut y, mut class, mut b) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for (r, id) in (lo..hi).enumerate() {
        let mut g = stream(spec.seed, id);
        let c = (id % spec.classes as u64) as usize;
        let row = &mut x[r * d..(r + 1) * d];
        let mut score = 0.0;
        let mut target = 0.0;
        for (j, v) in row.iter_mut().enumerate() {
            *v = model.centres[c * d + j] + standard_normal::<f64>(&mut g);
            if spec.float32 {
                *v = f64::from(*v as f32);
            }
            target += model.beta[j] * *v;
            score += model.gamma[j] * (*v - model.centres[j]);
        }
        y.push(target + 0.5 * standard_normal::<f64>(&mut g));
        class.push(c as i64);
        // a logistic label: P(b = 1) = σ(score)
        let u = ndlearn_core::random::uniform::<f64>(&mut g, 0.0, 1.0);
        b.push(i64::from(u < 1.0 / (1.0 + (-score).exp())));
    }
    let mut cols: Vec<ArrayRef> =
        vec![Arc::new(Int64Array::from_iter_values(lo as i64..hi as i64))];
    for j in 0..d {
        let column = (0..n).map(|r| x[r * d + j]);
        cols.push(if spec.float32 {
            Arc::new(Float32Array::from_iter_values(column.map(|v| v as f32)))
        } else {
            Arc::new(Float64Array::from_iter_values(column))
        });
    }
    cols.push(Arc::new(Float64Array::from(y)));
    cols.push(Arc::new(Int64Array::from(class)));
    cols.push(Arc::new(Int64Array::from(b)));
    RecordBatch::try_new(schema.clone(), cols).map_err(|e| Failure(e.to_string()))
}

fn write_file(spec: &Spec, model: &Model, path: &Path, lo: u64, hi: u64) -> Result<(), Failure> {
    let schema = schema(spec);
    let file = std::fs::File::create(path)
        .map_err(|e| Failure(format!("cannot create {}: {e}", path.display())))?;
    let props = WriterProperties::builder()
        .set_max_row_group_row_count(Some(spec.row_group))
        .build();
    let mut w = ArrowWriter::try_new(file, schema.clone(), Some(props))
        .map_err(|e| Failure(e.to_string()))?;
    let mut at = lo;
    while at < hi {
        let end = (at + spec.row_group as u64).min(hi);
        w.write(&batch(spec, model, &schema, at, end)?)
            .map_err(|e| Failure(e.to_string()))?;
        at = end;
    }
    w.close().map_err(|e| Failure(e.to_string()))?;
    Ok(())
}

/// Writes the table into the directory `out` (created; existing `part-*.parquet` files are
/// removed first) as `files` files `part-00000.parquet, …`, two files at a time. Returns the paths.
///
/// # Errors
/// Bad sizes (no rows, features, classes or files; more files than rows) and I/O errors.
pub fn write(spec: &Spec, out: &Path) -> Result<Vec<PathBuf>, Failure> {
    if spec.rows == 0
        || spec.features == 0
        || spec.classes == 0
        || spec.files == 0
        || spec.row_group == 0
    {
        return Err(Failure(
            "rows, features, classes, files and the row-group size must be positive".into(),
        ));
    }
    if spec.files as u64 > spec.rows {
        return Err(Failure(format!(
            "{} files for {} rows: at most one file per row",
            spec.files, spec.rows
        )));
    }
    std::fs::create_dir_all(out)
        .map_err(|e| Failure(format!("cannot create {}: {e}", out.display())))?;
    // a table written before with more files must not leave parts behind (duplicate ids)
    for e in std::fs::read_dir(out).map_err(|e| Failure(e.to_string()))? {
        let path = e.map_err(|e| Failure(e.to_string()))?.path();
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        if name.starts_with("part-") && name.ends_with(".parquet") {
            std::fs::remove_file(&path)
                .map_err(|e| Failure(format!("cannot remove {}: {e}", path.display())))?;
        }
    }
    let model = Model::new(spec);
    let paths: Vec<PathBuf> = (0..spec.files)
        .map(|f| out.join(format!("part-{f:05}.parquet")))
        .collect();
    let range = |f: usize| {
        let (n, k) = (spec.rows, spec.files as u64);
        (f as u64 * n / k, (f as u64 + 1) * n / k)
    };
    let workers = 2.min(spec.files);
    let results: Vec<Result<(), Failure>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|t| {
                let (model, paths) = (&model, &paths);
                s.spawn(move || {
                    for f in (t..spec.files).step_by(workers) {
                        let (lo, hi) = range(f);
                        write_file(spec, model, &paths[f], lo, hi)?;
                    }
                    Ok(())
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(Failure("a writer thread panicked".into())))
            })
            .collect()
    });
    results.into_iter().collect::<Result<Vec<()>, Failure>>()?;
    Ok(paths)
}
