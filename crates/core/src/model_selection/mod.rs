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
//! | [`GridSearchCV`], [`RandomizedSearchCV`] over [`ParamGrid`] / [`ParamSpace`] | hyperparameter search, candidates × folds in parallel | same names |
//! | [`learning_curve`], [`validation_curve`] | score vs training size / vs a hyperparameter; SVG plots (feature `plot`) | same names |
//! | [`bootstrap_632`] | the course notes' .632 bootstrap estimate, Efron's .632 and .632+ | — |
//! | [`bias_variance`] | Monte-Carlo bias², variance, noise and expected squared error | — (mlxtend's `bias_variance_decomp`) |
//! | [`majority_vote_error`] | majority-vote error of independent classifiers (binomial tail) | — |
//! | [`Scorer`] ([`scoring`]) | named scorers (`"accuracy"`, `"roc_auc"`, `"neg_log_loss"`, `"r2"`, ...) turned into the scorer closures below | `get_scorer`, `scoring=` |
//! | [`permutation_importance`] | drop in any score when one feature is shuffled, for any fitted model | `sklearn.inspection.permutation_importance` |
//!
//! ## Estimators and scorers
//!
//! Everything here works with any `E: Fit<F>` whose target implements [`TargetRows`]
//! (`Labels`, `ArrayRef1<F>`, `ArrayRef2<F>`, or `()` through [`Unsupervised`]). Scores come
//! from closures `Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64>` (larger is better),
//! so any metric or loss can be used; a named [`Scorer`] gives one for the common cases
//! (`Scorer::Accuracy.for_labels()?`, `"roc_auc".parse::<Scorer>()?.for_proba()?`).
//!
//! ## Threads and determinism
//!
//! Independent fits (folds, candidates × folds, curve points, bootstrap replicates, Monte-Carlo
//! rounds) run as tasks on the caller's rayon pool through [`crate::par`]; random streams come
//! from `(seed, task index)`. Results are collected in task order, so they are bitwise identical
//! for any number of threads. The estimator's own `fit` runs inside those tasks, so it should
//! keep to small kernels there (see [`crate::par`]); the refit of a search's best candidate runs
//! at the top level.

mod bias_variance;
mod bootstrap;
mod cross_validate;
mod curves;
mod cv;
mod cv_random;
mod ensemble;
mod params;
mod permutation;
#[cfg(feature = "plot")]
mod plot;
mod rows;
pub mod scoring;
mod search;
mod split;

pub use bias_variance::{
    BiasVariance, BiasVarianceOptions, DataGenerator, GaussianNoiseGenerator, bias_variance,
};
pub use bootstrap::{Bootstrap632, Bootstrap632Result, bootstrap_632};
pub use cross_validate::{CvOptions, CvResults, Unsupervised, cross_val_score, cross_validate};
pub use curves::{
    LearningCurve, LearningCurveOptions, TrainSizes, ValidationCurve, learning_curve,
    validation_curve,
};
pub use cv::{
    CrossValidator, KFold, LEAVE_P_OUT_MAX_ENTRIES, LeaveOneOut, LeavePOut, Split, StratifiedKFold,
};
pub use cv_random::{ExplicitSplits, RepeatedKFold, ShuffleSplit, StratifiedShuffleSplit};
pub use ensemble::{
    TieRule, majority_vote_error, majority_vote_error_heterogeneous, majority_vote_error_with,
};
#[cfg(feature = "serde")]
pub(crate) use params::set_json_param;
#[cfg(feature = "serde")]
pub use params::with_params;
pub use params::{ParamDistribution, ParamGrid, ParamPoint, ParamSpace};
pub use permutation::{PermutationImportance, permutation_importance};
#[cfg(feature = "plot")]
pub use plot::PlotOptions;
pub use rows::{SelectRows, TargetElement, TargetRows};
pub use scoring::{Response, ScoreFn, Scorer, Task};
pub use search::{GridSearchCV, RandomizedSearchCV, SearchResult, rank_min};
pub use split::{
    SplitData, SplitIndices, SplitSize, ThreeWaySplit, TrainTestSplit, TrainValTestSplit,
    approximate_mode, resolve_sizes,
};
