//! Model selection and evaluation: hold-out splits, cross-validation, hyperparameter search,
//! learning and validation curves, bootstrap error estimates, bias–variance decomposition and
//! ensemble error theory.
//!
//! | item | what | scikit-learn |
//! |---|---|---|
//! | [`TrainTestSplit`], [`TrainValTestSplit`] | seeded hold-out splits, plain or stratified | `train_test_split` |
//! | [`SelectRows`] | row selection for features and any target (`usize` labels, `F` values, `()`) | `_safe_indexing` |
//! | [`CrossValidator`]: [`KFold`], [`StratifiedKFold`], [`LeaveOneOut`], [`LeavePOut`], [`ShuffleSplit`], [`StratifiedShuffleSplit`], [`RepeatedKFold`], [`ExplicitSplits`] | splitters | same names |
//! | [`cross_val_score`], [`cross_validate`] | per-fold scores, times, models; folds in parallel | same names |
//!
//! ## Estimators and scorers
//!
//! Everything here works with any `E: Fit<F>` whose target implements [`SelectRows`]
//! (`Labels`, `ArrayRef1<F>`, `ArrayRef2<F>`, or `()` through [`Unsupervised`]). Scores come
//! from closures `Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64>` (larger is better),
//! so any metric or loss can be used.
//!
//! ## Threads and determinism
//!
//! Independent fits (folds, candidates × folds, curve points, bootstrap replicates, Monte-Carlo
//! rounds) run as tasks on the caller's rayon pool through [`crate::par`]; random streams come
//! from `(seed, task index)`. Results are collected in task order, so they are bitwise identical
//! for any number of threads.

mod cross_validate;
mod cv;
mod split;

pub use cross_validate::{CvOptions, CvResults, Unsupervised, cross_val_score, cross_validate};
pub use cv::{
    CrossValidator, ExplicitSplits, KFold, LEAVE_P_OUT_MAX_ENTRIES, LeaveOneOut, LeavePOut,
    RepeatedKFold, ShuffleSplit, Split, StratifiedKFold, StratifiedShuffleSplit,
};
pub use split::{
    SelectRows, SplitData, SplitIndices, SplitSize, TargetElement, ThreeWaySplit,
    TrainTestSplit, TrainValTestSplit, approximate_mode, resolve_sizes,
};
