//! The adapter's error.

use datafusion::error::DataFusionError;

/// What can go wrong in a fit on DataFusion.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum DistError {
    /// A null in an argument column of the aggregate (fits take complete rows).
    #[error(
        "null in argument {argument} of the ndlearn aggregate at row {row} of a batch; filter or impute nulls first"
    )]
    Null {
        /// Argument position (0-based).
        argument: usize,
        /// Row within the batch.
        row: usize,
    },
    /// An argument column of a type the aggregate cannot read.
    #[error("argument {argument} of the ndlearn aggregate has type {found}; expected {expected}")]
    Type {
        /// Argument position (0-based).
        argument: usize,
        /// The type found.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// The table or query is not what the fit needs (a missing column, no rows).
    #[error("{0}")]
    Plan(String),
    /// An error of the statistics or of the fit (ndlearn's own error).
    #[error(transparent)]
    Ndlearn(#[from] ndlearn_core::Error),
    /// An error of the engine.
    #[error(transparent)]
    DataFusion(#[from] DataFusionError),
    /// A data pass ran longer than the pass timeout ([`crate::fit::set_pass_timeout`]) on every
    /// attempt.
    #[error("a data pass took longer than {0:?} (the pass timeout) on every attempt")]
    Timeout(std::time::Duration),
}

/// The adapter's result.
pub type Result<T> = std::result::Result<T, DistError>;

/// Wraps an adapter error for DataFusion (recovered by [`unwrap_engine_error`]).
pub(crate) fn to_engine(e: DistError) -> DataFusionError {
    match e {
        DistError::DataFusion(d) => d,
        other => DataFusionError::External(Box::new(other)),
    }
}

/// Recovers an adapter error that travelled through DataFusion (as an external error, possibly
/// wrapped in context or shared between partitions), so callers get the typed error back.
pub(crate) fn unwrap_engine_error(e: DataFusionError) -> DistError {
    let mut e = e;
    loop {
        e = match e {
            DataFusionError::Context(_, inner) | DataFusionError::Diagnostic(_, inner) => *inner,
            DataFusionError::Shared(arc) => match std::sync::Arc::try_unwrap(arc) {
                Ok(inner) => inner,
                Err(arc) => return DistError::DataFusion(DataFusionError::Shared(arc)),
            },
            DataFusionError::Collection(mut all) if !all.is_empty() => all.swap_remove(0),
            DataFusionError::ArrowError(a, ctx) => match *a {
                datafusion::arrow::error::ArrowError::ExternalError(b) => {
                    DataFusionError::External(b)
                }
                other => {
                    return DistError::DataFusion(DataFusionError::ArrowError(
                        Box::new(other),
                        ctx,
                    ));
                }
            },
            DataFusionError::External(b) => {
                return match b.downcast::<DistError>() {
                    Ok(d) => *d,
                    Err(b) => match b.downcast::<DataFusionError>() {
                        Ok(inner) => unwrap_engine_error(*inner),
                        Err(b) => DistError::DataFusion(DataFusionError::External(b)),
                    },
                };
            }
            other => return DistError::DataFusion(other),
        };
    }
}

impl From<datafusion::arrow::error::ArrowError> for DistError {
    fn from(e: datafusion::arrow::error::ArrowError) -> Self {
        DistError::DataFusion(DataFusionError::from(e))
    }
}
