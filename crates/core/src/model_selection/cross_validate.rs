//! `cross_val_score` and `cross_validate`: fit an estimator on every training set of a
//! [`CrossValidator`] and score it on the matching test set, folds in parallel.
//!
//! ## Scorers
//!
//! A scorer is any closure `Fn(&Model, &ArrayRef2<F>, &Target) -> Result<f64>`: it gets the
//! fitted model, the rows to score and their targets. Larger is better (scikit-learn's
//! convention): for a loss, return its negative (as scikit-learn's `neg_mean_squared_error`).
//!
//! ## Determinism and threads
//!
//! Folds run as independent tasks on the caller's rayon pool ([`crate::par`]); each task copies
//! its rows, fits and scores. Results are collected in fold order, so every score is bitwise
//! identical for any number of threads (as long as the estimator's own `fit` is). Fit and score
//! *times* are wall-clock measurements and naturally vary.
//!
//! ## Failures
//!
//! By default the first failing fold (in fold order) returns its error. With
//! [`CvOptions::error_score`] set, a fold whose fit or scoring fails gets that score instead
//! (scikit-learn's `error_score`, whose default there is NaN with a warning) and no model.
//!
//! Reference: the course notes' K-fold procedure (catalog M-03; Stone, "Cross-validatory choice
//! and assessment of statistical predictions", JRSS B 36(2), 1974; Hastie, Tibshirani &
//! Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009), §7.10; scikit-learn user
//! guide: Cross-validation): train on `K − 1` folds, validate on the remaining one, average
//! over the `K` runs.

use std::time::Instant;

use ndarray::{Array1, ArrayRef2};

use super::cv::{CrossValidator, Split};
use super::rows::{SelectRows, TargetRows, check_target_rows};
use crate::{Error, Fit, FitUnsupervised, Float, Result, par};

/// Options of [`cross_validate`].
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `return_train_score` | `false` | `return_train_score` |
/// | `return_estimator` | `false` | `return_estimator` (here: the fitted models) |
/// | `error_score` | `None` (propagate the error) | `error_score` |
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct CvOptions {
    /// Also score each model on its own training set.
    pub return_train_score: bool,
    /// Keep the fitted model of every fold.
    pub return_estimator: bool,
    /// Score assigned to a fold whose fit or scoring fails; `None` returns the error instead.
    pub error_score: Option<f64>,
}

impl CvOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets `return_train_score`.
        return_train_score: bool,
        /// Sets `return_estimator`.
        return_estimator: bool,
    }

    /// Sets `error_score`.
    pub fn error_score(mut self, v: f64) -> Self {
        self.error_score = Some(v);
        self
    }
}

/// The per-fold results of [`cross_validate`], in fold order.
#[derive(Debug, Clone)]
pub struct CvResults<M> {
    /// Test score of each fold.
    pub test_scores: Array1<f64>,
    /// Training score of each fold (when requested).
    pub train_scores: Option<Array1<f64>>,
    /// Seconds spent fitting each fold.
    pub fit_times: Array1<f64>,
    /// Seconds spent scoring each fold (test and, when requested, train).
    pub score_times: Array1<f64>,
    /// The fitted model of each fold (when requested); `None` for a fold that failed under
    /// `error_score`.
    pub models: Option<Vec<Option<M>>>,
    /// The `(train, test)` indices of each fold.
    pub splits: Vec<Split>,
}

impl<M> CvResults<M> {
    /// Mean test score.
    pub fn mean_test_score(&self) -> f64 {
        mean(self.test_scores.as_slice().unwrap_or(&[]))
    }

    /// Standard deviation (`ddof = 0`, as scikit-learn's `cv_results_`) of the test scores.
    pub fn std_test_score(&self) -> f64 {
        std_ddof0(self.test_scores.as_slice().unwrap_or(&[]))
    }
}

/// Sequential mean (left to right), NaN for an empty slice.
pub(crate) fn mean(v: &[f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.iter().sum::<f64>() / v.len() as f64
}

/// Population standard deviation (`ddof = 0`), NaN for an empty slice.
pub(crate) fn std_ddof0(v: &[f64]) -> f64 {
    let m = mean(v);
    (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / v.len() as f64).sqrt()
}

/// What one (fit, score) task returns.
#[derive(Debug)]
pub(crate) struct FoldOutcome<M> {
    pub test_score: f64,
    pub train_score: f64,
    pub fit_time: f64,
    pub score_time: f64,
    pub model: Option<M>,
}

/// Settings shared by the tasks of one evaluation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct TaskOptions {
    pub train_score: bool,
    pub keep_model: bool,
    pub error_score: Option<f64>,
}

/// Fits `est` on the rows `train` and scores it on `test` (and on `train` when asked).
pub(crate) fn fit_and_score<F, E, S>(
    est: &E,
    x: &ArrayRef2<F>,
    y: &E::Target,
    train: &[usize],
    test: &[usize],
    scorer: &S,
    opts: TaskOptions,
) -> Result<FoldOutcome<E::Model>>
where
    F: Float,
    E: Fit<F> + ?Sized,
    E::Target: TargetRows,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + ?Sized,
{
    let x_train = x.select_rows(train)?;
    let y_train = y.select_rows(train)?;
    let start = Instant::now();
    let fitted = est.fit(&x_train, <E::Target as TargetRows>::borrow_owned(&y_train));
    let fit_time = start.elapsed().as_secs_f64();
    let model = match (fitted, opts.error_score) {
        (Ok(m), _) => m,
        (Err(_), Some(v)) => {
            return Ok(FoldOutcome {
                test_score: v,
                train_score: v,
                fit_time,
                score_time: 0.0,
                model: None,
            });
        }
        (Err(e), None) => return Err(e),
    };
    let start = Instant::now();
    let scored = (|| -> Result<(f64, f64)> {
        let x_test = x.select_rows(test)?;
        let y_test = y.select_rows(test)?;
        let t = scorer(
            &model,
            &x_test,
            <E::Target as TargetRows>::borrow_owned(&y_test),
        )?;
        let r = if opts.train_score {
            scorer(
                &model,
                &x_train,
                <E::Target as TargetRows>::borrow_owned(&y_train),
            )?
        } else {
            f64::NAN
        };
        Ok((t, r))
    })();
    let score_time = start.elapsed().as_secs_f64();
    match (scored, opts.error_score) {
        (Ok((test_score, train_score)), _) => Ok(FoldOutcome {
            test_score,
            train_score,
            fit_time,
            score_time,
            model: opts.keep_model.then_some(model),
        }),
        (Err(_), Some(v)) => Ok(FoldOutcome {
            test_score: v,
            train_score: v,
            fit_time,
            score_time,
            model: None,
        }),
        (Err(e), None) => Err(e),
    }
}

/// Checks `x`/`y` agreement and computes the splits (labels passed on for stratification).
pub(crate) fn make_splits<F, Y, C>(x: &ArrayRef2<F>, y: &Y, cv: &C) -> Result<Vec<Split>>
where
    F: Float,
    Y: SelectRows + ?Sized,
    C: CrossValidator + ?Sized,
{
    let n = x.nrows();
    check_target_rows(n, y, "cross-validation")?;
    let splits = cv.split(n, y.class_labels())?;
    if splits.is_empty() {
        return Err(Error::invalid_param(
            "cv",
            "the cross-validator produced no split",
        ));
    }
    Ok(splits)
}

/// Fits and scores `est` on every split of `cv`, folds in parallel (see the module docs).
///
/// `y` can be any target the estimator accepts ([`SelectRows`]); class labels are passed to
/// stratified splitters automatically.
///
/// ```
/// use ndlearn_core::model_selection::{CvOptions, KFold, cross_validate};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// // A toy regressor: predicts the training mean.
/// struct MeanRegressor;
/// impl Fit<f64> for MeanRegressor {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
///         Ok(y.mean().unwrap_or(0.0))
///     }
/// }
/// let x = Array2::zeros((6, 1));
/// let y = Array1::from(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// // Negative mean squared error.
/// let neg_mse = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
///     Ok(-y.mapv(|v| (v - m) * (v - m)).mean().unwrap_or(0.0))
/// };
/// let cv = cross_validate(&MeanRegressor, &x, &y, &KFold::new(3), neg_mse, &CvOptions::new())?;
/// // Fold 0 tests on y = 1, 2 with the mean 4.5 of 3..6: -(3.5² + 2.5²)/2 = -9.25.
/// assert_eq!(cv.test_scores[0], -9.25);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn cross_validate<F, E, C, S>(
    est: &E,
    x: &ArrayRef2<F>,
    y: &E::Target,
    cv: &C,
    scorer: S,
    options: &CvOptions,
) -> Result<CvResults<E::Model>>
where
    F: Float,
    E: Fit<F> + Sync + ?Sized,
    E::Target: TargetRows + Sync,
    E::Model: Send,
    C: CrossValidator + ?Sized,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
{
    let splits = make_splits(x, y, cv)?;
    let opts = TaskOptions {
        train_score: options.return_train_score,
        keep_model: options.return_estimator,
        error_score: options.error_score,
    };
    let outcomes = par::try_map_tasks(splits.len(), |i| {
        let (train, test) = &splits[i];
        fit_and_score(est, x, y, train, test, &scorer, opts)
    })?;
    let k = outcomes.len();
    let mut test_scores = Array1::zeros(k);
    let mut train_scores = Array1::zeros(k);
    let mut fit_times = Array1::zeros(k);
    let mut score_times = Array1::zeros(k);
    let mut models = Vec::with_capacity(k);
    for (i, o) in outcomes.into_iter().enumerate() {
        test_scores[i] = o.test_score;
        train_scores[i] = o.train_score;
        fit_times[i] = o.fit_time;
        score_times[i] = o.score_time;
        models.push(o.model);
    }
    Ok(CvResults {
        test_scores,
        train_scores: options.return_train_score.then_some(train_scores),
        fit_times,
        score_times,
        models: options.return_estimator.then_some(models),
        splits,
    })
}

/// The test score of every fold (scikit-learn's `cross_val_score`): [`cross_validate`] with the
/// default options.
///
/// ```
/// use ndlearn_core::model_selection::{KFold, cross_val_score};
/// use ndlearn_core::ndarray::{array, ArrayRef2};
/// use ndlearn_core::{Fit, Labels, Result};
///
/// // A toy classifier: predicts the majority class of its training labels (ties: class 1).
/// struct Majority;
/// impl Fit<f64> for Majority {
///     type Target = Labels;
///     type Model = usize;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &Labels) -> Result<usize> {
///         let ones = y.iter().filter(|&&c| c == 1).count();
///         Ok(usize::from(2 * ones >= y.len()))
///     }
/// }
/// let accuracy = |m: &usize, _x: &ArrayRef2<f64>, y: &Labels| -> Result<f64> {
///     Ok(y.iter().filter(|&&c| c == *m).count() as f64 / y.len() as f64)
/// };
/// let x = array![[0.0], [0.0], [0.0], [0.0]];
/// let y = array![1usize, 1, 1, 0];
/// let scores = cross_val_score(&Majority, &x, &y, &KFold::new(2), accuracy)?;
/// assert_eq!(scores.to_vec(), vec![1.0, 0.5]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn cross_val_score<F, E, C, S>(
    est: &E,
    x: &ArrayRef2<F>,
    y: &E::Target,
    cv: &C,
    scorer: S,
) -> Result<Array1<f64>>
where
    F: Float,
    E: Fit<F> + Sync + ?Sized,
    E::Target: TargetRows + Sync,
    E::Model: Send,
    C: CrossValidator + ?Sized,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
{
    Ok(cross_validate(est, x, y, cv, scorer, &CvOptions::new())?.test_scores)
}

/// Adapts an unsupervised estimator ([`FitUnsupervised`]) to [`Fit`] with the target `()`, so
/// that cross-validation, search and curves work for clusterers and density models too (score
/// with a closure that ignores the target, e.g. a held-out log-likelihood).
///
/// ```
/// use ndlearn_core::model_selection::{KFold, Unsupervised, cross_val_score};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef2, Axis};
/// use ndlearn_core::{FitUnsupervised, Result};
///
/// struct ColumnMeans;
/// impl FitUnsupervised<f64> for ColumnMeans {
///     type Model = Array1<f64>;
///     fn fit(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
///         Ok(x.mean_axis(Axis(0)).unwrap_or_default())
///     }
/// }
/// let x = Array2::from_shape_fn((8, 2), |(i, j)| (i + j) as f64);
/// let score = |m: &Array1<f64>, x: &ArrayRef2<f64>, _: &()| -> Result<f64> {
///     let mut d = x.to_owned();
///     d -= m;
///     Ok(-d.mapv(|v| v * v).sum())
/// };
/// let s = cross_val_score(&Unsupervised(ColumnMeans), &x, &(), &KFold::new(4), score)?;
/// assert_eq!(s.len(), 4);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Unsupervised<E>(pub E);

impl<F: Float, E: FitUnsupervised<F>> Fit<F> for Unsupervised<E> {
    type Target = ();
    type Model = E::Model;

    fn fit(&self, x: &ArrayRef2<F>, _y: &()) -> Result<E::Model> {
        self.0.fit(x)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_selection::{KFold, StratifiedKFold};
    use ndarray::{Array2, ArrayRef1, array};

    /// Predicts the training mean; fails on fewer than `min_rows` rows.
    struct MeanReg {
        min_rows: usize,
    }

    impl Fit<f64> for MeanReg {
        type Target = ArrayRef1<f64>;
        type Model = f64;
        fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
            crate::validate::check_min_samples(x.nrows(), self.min_rows, "MeanReg")?;
            Ok(y.sum() / y.len() as f64)
        }
    }

    fn neg_mse(m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
        Ok(-y.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / y.len() as f64)
    }

    #[test]
    fn hand_checked_folds() {
        let x = Array2::zeros((4, 1));
        let y = array![0.0, 2.0, 4.0, 6.0];
        let opts = CvOptions::new()
            .return_train_score(true)
            .return_estimator(true);
        let r = cross_validate(
            &MeanReg { min_rows: 1 },
            &x,
            &y,
            &KFold::new(2),
            neg_mse,
            &opts,
        )
        .expect("valid");
        // Fold 0: train {4, 6} mean 5, test {0, 2}: -(25 + 9)/2 = -17; train score -(1+1)/2.
        assert_eq!(r.test_scores.to_vec(), vec![-17.0, -17.0]);
        assert_eq!(
            r.train_scores.as_ref().map(|t| t.to_vec()),
            Some(vec![-1.0, -1.0])
        );
        let models: Vec<Option<f64>> = r.models.clone().expect("kept");
        assert_eq!(models, vec![Some(5.0), Some(1.0)]);
        assert_eq!(r.mean_test_score(), -17.0);
        assert_eq!(r.std_test_score(), 0.0);
        assert_eq!(r.splits.len(), 2);
        assert!(r.fit_times.iter().all(|t| *t >= 0.0));
    }

    #[test]
    fn errors_propagate_or_become_error_score() {
        let x = Array2::zeros((6, 1));
        let y = array![0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        // 3 folds: 4 training rows each; min_rows 5 fails every fold.
        let est = MeanReg { min_rows: 5 };
        let err = cross_val_score(&est, &x, &y, &KFold::new(3), neg_mse);
        assert!(matches!(err, Err(Error::TooFewSamples { .. })));
        let opts = CvOptions::new().error_score(-1e9).return_estimator(true);
        let r = cross_validate(&est, &x, &y, &KFold::new(3), neg_mse, &opts).expect("masked");
        assert_eq!(r.test_scores.to_vec(), vec![-1e9; 3]);
        assert!(r.models.expect("kept").iter().all(Option::is_none));
        // A scorer failure.
        let bad = |_: &f64, _: &ArrayRef2<f64>, _: &ArrayRef1<f64>| -> Result<f64> {
            Err(Error::invalid_param("scorer", "fails"))
        };
        let est = MeanReg { min_rows: 1 };
        assert!(cross_val_score(&est, &x, &y, &KFold::new(3), bad).is_err());
        let masked = cross_validate(
            &est,
            &x,
            &y,
            &KFold::new(3),
            bad,
            &CvOptions::new().error_score(0.0),
        )
        .expect("masked");
        assert_eq!(masked.test_scores.to_vec(), vec![0.0; 3]);
        // Target length mismatch.
        let short = array![1.0, 2.0];
        assert!(matches!(
            cross_val_score(&est, &x, &short, &KFold::new(2), neg_mse),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn labels_reach_stratified_splitters() {
        struct Prior;
        impl Fit<f64> for Prior {
            type Target = crate::Labels;
            type Model = f64;
            fn fit(&self, _x: &ArrayRef2<f64>, y: &crate::Labels) -> Result<f64> {
                Ok(y.iter().filter(|&&c| c == 1).count() as f64 / y.len() as f64)
            }
        }
        let x = Array2::zeros((8, 1));
        let y = array![0usize, 0, 0, 0, 0, 0, 1, 1];
        let share = |m: &f64, _: &ArrayRef2<f64>, _: &crate::Labels| -> Result<f64> { Ok(*m) };
        // Stratified: every training set keeps 1/4 ones.
        let s = cross_val_score(&Prior, &x, &y, &StratifiedKFold::new(2), share).expect("valid");
        assert_eq!(s.to_vec(), vec![0.25, 0.25]);
    }
}
