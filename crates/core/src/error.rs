//! The one error type of the workspace.
//!
//! Every fallible function of every ndlearn crate returns [`Result<T>`]. Variants are structured so
//! that callers can match on them, and every message says what to change.

use std::fmt;

/// Result alias used across the workspace.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What went wrong inside a linear-algebra routine.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LinalgErrorKind {
    /// A matrix that had to be positive definite was not (Cholesky failed).
    NotPositiveDefinite,
    /// A matrix that had to be invertible is singular to working precision.
    Singular,
    /// An iterative LAPACK routine (SVD, eigen) did not converge.
    NoConvergence,
    /// A matrix that had to be square is not.
    NotSquare,
    /// Any other failure reported by the LAPACK backend.
    Backend,
}

impl fmt::Display for LinalgErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Self::NotPositiveDefinite => "matrix is not positive definite",
            Self::Singular => "matrix is singular to working precision",
            Self::NoConvergence => "iteration did not converge",
            Self::NotSquare => "matrix is not square",
            Self::Backend => "LAPACK backend error",
        };
        f.write_str(s)
    }
}

/// The workspace error.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A hyperparameter or argument is out of its valid range.
    #[error("invalid parameter `{name}`: {reason}")]
    InvalidParam {
        /// Name of the parameter (as in the hyperparameter struct).
        name: &'static str,
        /// What is wrong and what would be valid.
        reason: String,
    },
    /// Array shapes do not agree.
    #[error("shape mismatch in {context}: expected {expected}, got {found}")]
    ShapeMismatch {
        /// Where the mismatch was detected (e.g. "predict: number of features").
        context: &'static str,
        /// The expected shape or length, written out.
        expected: String,
        /// The shape or length that was passed.
        found: String,
    },
    /// Not enough samples for the operation.
    #[error("{context} needs at least {needed} samples, got {found}")]
    TooFewSamples {
        /// The operation that needs the samples.
        context: &'static str,
        /// Minimum number of samples.
        needed: usize,
        /// Number of samples passed.
        found: usize,
    },
    /// An input value is NaN or infinite.
    #[error(
        "non-finite value (NaN or infinity) in {context} at row {row}, column {col}; remove or impute it first"
    )]
    NonFinite {
        /// Which input holds the value ("X", "y", "sample_weight", ...).
        context: &'static str,
        /// Row index (0-based).
        row: usize,
        /// Column index (0-based; 0 for one-dimensional inputs).
        col: usize,
    },
    /// The target holds fewer distinct classes than the estimator needs.
    #[error("{context} needs at least {needed} distinct classes in the target, got {found}")]
    TooFewClasses {
        /// The estimator or operation.
        context: &'static str,
        /// Minimum number of classes.
        needed: usize,
        /// Number of distinct classes found.
        found: usize,
    },
    /// A class label is outside `0..n_classes` or otherwise invalid.
    #[error("invalid label {label} at index {index}: {reason}")]
    InvalidLabel {
        /// The offending label.
        label: usize,
        /// Its position in the target.
        index: usize,
        /// What would be valid.
        reason: String,
    },
    /// A linear-algebra routine failed.
    #[error("linear algebra failure in {op}: {kind}{}", detail.as_ref().map(|d| format!(" ({d})")).unwrap_or_default())]
    Linalg {
        /// The facade function that failed (e.g. "cholesky").
        op: &'static str,
        /// What failed.
        kind: LinalgErrorKind,
        /// Backend detail, when there is one.
        detail: Option<String>,
    },
    /// The problem posed by the data has no solution in the estimator's model (for example a
    /// hard-margin SVM on classes that are not linearly separable).
    #[error("{context}: {reason}")]
    Infeasible {
        /// The estimator or operation.
        context: &'static str,
        /// Why, and what would work instead.
        reason: String,
    },
    /// A file could not be read or written.
    #[error("I/O error on {path}: {source}")]
    Io {
        /// The path involved.
        path: String,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },
    /// A fitted model's state is inconsistent: shapes that disagree, a parameter that is not
    /// finite, an index out of range (a damaged or hand-edited model file; see
    /// [`CheckModel`](crate::CheckModel)).
    #[error("invalid fitted state of {model}: {reason}")]
    InvalidModel {
        /// The fitted type (e.g. "FittedRidge").
        model: &'static str,
        /// What is inconsistent.
        reason: String,
    },
    /// A computation on finite input overflowed to infinity or NaN: the data (or a fitted
    /// model's parameters) are too large or too small for the precision. The registry turns
    /// every non-finite output into this error, so a dynamic model never returns NaN or
    /// infinity without one.
    #[error(
        "{context}: {reason}; values near the floating-point limits overflow, rescale the features or targets"
    )]
    NonFiniteResult {
        /// The estimator (registered name) or operation.
        context: &'static str,
        /// Which result and method (e.g. "predict returned a non-finite value").
        reason: String,
    },
    /// A text input (CSV, JSON, a parameter string) could not be parsed.
    #[error("parse error at line {line}, column {column}: {reason}")]
    Parse {
        /// 1-based line number (0 when not applicable).
        line: usize,
        /// 1-based column number, or 0 when not applicable.
        column: usize,
        /// What could not be parsed.
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::InvalidParam`].
    pub fn invalid_param(name: &'static str, reason: impl Into<String>) -> Self {
        Self::InvalidParam {
            name,
            reason: reason.into(),
        }
    }

    /// Shorthand for [`Error::Linalg`] without backend detail.
    pub fn linalg(op: &'static str, kind: LinalgErrorKind) -> Self {
        Self::Linalg {
            op,
            kind,
            detail: None,
        }
    }
}
