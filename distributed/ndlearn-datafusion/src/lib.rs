//! ndlearn fits on [Apache DataFusion](https://datafusion.apache.org): every data pass of a fit is
//! one aggregate over the partitions of a table.
//!
//! The executors (DataFusion's partitions here; Ballista's executors later, issue #26) feed their
//! record batches to core's mergeable sufficient statistics
//! ([`ndlearn_core::stats::mergeable`]) through one generic aggregate function,
//! [`StatsAggregate`]; DataFusion merges the partial statistics (their byte form is the
//! aggregate's state); the driver decodes the merged statistics and solves the small problem
//! with the estimators' own `fit_moments`, so a fit here returns the same fitted types as on one
//! machine (predict, serde and the CLI's model files work unchanged).
//!
//! | fit | statistics | one scan |
//! |---|---|---|
//! | [`fit::linear_regression`], [`fit::ridge`], [`fit::elastic_net`], [`fit::lasso`] | centred `XᵀX`, `Xᵀy`, means, count | yes |
//! | [`fit::pca`] | centred `XᵀX`, means, count | yes |
//! | [`fit::gaussian_nb`] | per-class counts, means, squared deviations | yes (plus one `MAX(label)` when the class count is not given) |
//! | [`fit::lda`] | per-class counts, means, centred scatter matrices | yes (plus one `MAX(label)` when the class count is not given) |
//! | [`fit::kmeans`] | cluster sums, counts and inertia at the current centres | one per Lloyd round |
//! | [`kmeans_parallel_init`] | the first pick, then per round the cost at the candidates and a cost-weighted sample keyed by row id | `2 + 2·rounds` |
//! | [`fit::logistic_regression`] | log-loss value and gradient at the current coefficients (binary or multinomial) | one per L-BFGS evaluation (plus one `MAX(label)` when the classes are not given) |
//!
//! Arrow to ndarray: features come either as one `FixedSizeList<Float64>` column of width `d`
//! (read in place, no copy: its values are the row-major `n × d` block) or as `d` numeric columns
//! (copied into one row-major block per batch; any numeric type is cast to `Float64`). Nulls are
//! rejected with [`DistError::Null`]; per-iteration parameters (centres, coefficients) travel
//! inside the aggregate function, not as SQL literals.
//!
//! ```no_run
//! # async fn run() -> Result<(), ndlearn_datafusion::DistError> {
//! use datafusion::prelude::*;
//! use ndlearn_datafusion::fit;
//!
//! let ctx = SessionContext::new();
//! let df = ctx.read_parquet("data/", ParquetReadOptions::default()).await?;
//! let model = fit::linear_regression(&df, &["x0", "x1", "x2"], "y", &Default::default()).await?;
//! # Ok(()) }
//! ```

mod aggregate;
mod block;
pub mod codec;
mod error;
pub mod fit;
mod kmeans_parallel;
pub mod metrics;

pub use aggregate::{StatsAccumulator, StatsAggregate};
pub use block::{Features, Layout};
pub use error::{DistError, Result};
pub use kmeans_parallel::{KMeansParallel, kmeans_parallel_init};
