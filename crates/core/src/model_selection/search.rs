//! Hyperparameter search with cross-validation: [`GridSearchCV`] and [`RandomizedSearchCV`].
//!
//! The course notes' recipe (catalog M-02; scikit-learn user guide: Tuning the hyper-parameters
//! of an estimator; random search: Bergstra & Bengio, "Random search for hyper-parameter
//! optimization", JMLR 13, 2012): for every combination
//! of `D₁ × … × D_k`, run K-fold cross-validation and keep the combination with the best average
//! validation score.
//!
//! Candidates are given either as (a) a list of configured estimators, or (b) a [`ParamGrid`]
//! (or a [`ParamSpace`] to sample from) plus a closure `&ParamPoint → Result<E>`. All
//! `candidates × folds` pairs are evaluated as one flat list of parallel tasks, so a search over
//! few candidates with many folds and one over many candidates with few folds both keep every
//! thread busy.
//!
//! ## Reported numbers (scikit-learn's `cv_results_`)
//!
//! - `mean_test_score[c]`: mean over folds (left-to-right sum / k);
//! - `std_test_score[c]`: population standard deviation (`ddof = 0`);
//! - `rank_test_score[c]`: `1 + #{c' : mean[c'] > mean[c]}` (ties share the smaller rank,
//!   scipy's `rankdata(method = "min")`); NaN means rank below every finite mean;
//! - `best_index`: the first candidate of rank 1 (ties go to the earlier candidate).
//!
//! With `refit` (default), the best candidate is fitted once more on all the data, outside the
//! parallel section (so its own BLAS calls may use every core).
//!
//! Complexity: `n_candidates × n_splits` fits plus one refit.

use ndarray::{Array1, Array2, ArrayRef2};

use super::cross_validate::{TaskOptions, fit_and_score, make_splits, mean, std_ddof0};
use super::cv::{CrossValidator, Split};
use super::params::{ParamGrid, ParamPoint, ParamSpace};
use super::rows::TargetRows;
use crate::{Error, Fit, Float, Result, par};

/// The outcome of a search. Candidate `c`'s numbers are at index `c` of every array
/// (row `c` of the per-split matrices).
#[derive(Debug, Clone)]
pub struct SearchResult<E, M> {
    /// The candidate estimators, in evaluation order.
    pub candidates: Vec<E>,
    /// The parameter point of each candidate (searches built from a grid or a space).
    pub params: Option<Vec<ParamPoint>>,
    /// Test score of candidate `c` on split `s` (`n_candidates × n_splits`).
    pub split_test_scores: Array2<f64>,
    /// Mean test score per candidate.
    pub mean_test_score: Array1<f64>,
    /// Standard deviation (`ddof = 0`) of the test scores per candidate.
    pub std_test_score: Array1<f64>,
    /// Rank per candidate (1 = best; ties share the smaller rank).
    pub rank_test_score: Vec<usize>,
    /// Training scores (when `return_train_score`).
    pub split_train_scores: Option<Array2<f64>>,
    /// Mean training score per candidate (when `return_train_score`).
    pub mean_train_score: Option<Array1<f64>>,
    /// Standard deviation of the training scores (when `return_train_score`).
    pub std_train_score: Option<Array1<f64>>,
    /// Mean fit time per candidate, seconds.
    pub mean_fit_time: Array1<f64>,
    /// Mean score time per candidate, seconds.
    pub mean_score_time: Array1<f64>,
    /// Index of the best candidate.
    pub best_index: usize,
    /// Mean test score of the best candidate.
    pub best_score: f64,
    /// The best candidate refitted on all the data (when `refit`).
    pub best_model: Option<M>,
    /// Seconds spent on the refit (when `refit`).
    pub refit_time: Option<f64>,
    /// The splits used.
    pub splits: Vec<Split>,
}

impl<E, M> SearchResult<E, M> {
    /// The best candidate estimator.
    pub fn best_candidate(&self) -> &E {
        &self.candidates[self.best_index]
    }

    /// The best candidate's parameters (searches built from a grid or a space).
    pub fn best_params(&self) -> Option<&ParamPoint> {
        self.params.as_ref().map(|p| &p[self.best_index])
    }

    /// The refitted best model (when `refit`).
    pub fn best_model(&self) -> Option<&M> {
        self.best_model.as_ref()
    }

    /// Number of candidates.
    pub fn n_candidates(&self) -> usize {
        self.candidates.len()
    }

    /// Number of splits.
    pub fn n_splits(&self) -> usize {
        self.splits.len()
    }
}

/// Ranks with scipy's `rankdata(-means, method = "min")`; NaN ranks below every number (all
/// NaN: all rank 1).
pub fn rank_min(means: &[f64]) -> Vec<usize> {
    let key = |v: f64| if v.is_nan() { f64::NEG_INFINITY } else { v };
    let all_nan = means.iter().all(|v| v.is_nan());
    means
        .iter()
        .map(|&m| {
            if all_nan {
                return 1;
            }
            if m.is_nan() {
                // Below every number, tied with the other NaNs.
                return 1 + means.iter().filter(|v| !v.is_nan()).count();
            }
            1 + means.iter().filter(|&&o| key(o) > m).count()
        })
        .collect()
}

/// Settings shared by both searches.
#[derive(Debug, Clone, Copy)]
struct Common {
    refit: bool,
    return_train_score: bool,
    error_score: Option<f64>,
}

#[allow(clippy::too_many_arguments)]
fn run_search<F, E, C, S>(
    common: Common,
    cv: &C,
    candidates: Vec<E>,
    params: Option<Vec<ParamPoint>>,
    x: &ArrayRef2<F>,
    y: &E::Target,
    scorer: S,
) -> Result<SearchResult<E, E::Model>>
where
    F: Float,
    E: Fit<F> + Sync,
    E::Target: TargetRows + Sync,
    E::Model: Send,
    C: CrossValidator + ?Sized,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
{
    if candidates.is_empty() {
        return Err(Error::invalid_param(
            "candidates",
            "no candidate to evaluate",
        ));
    }
    let splits = make_splits(x, y, cv)?;
    let (n_c, n_s) = (candidates.len(), splits.len());
    let opts = TaskOptions {
        train_score: common.return_train_score,
        keep_model: false,
        error_score: common.error_score,
    };
    let outcomes = par::try_map_tasks(n_c * n_s, |t| {
        let (c, s) = (t / n_s, t % n_s);
        let (train, test) = &splits[s];
        fit_and_score(&candidates[c], x, y, train, test, &scorer, opts)
    })?;
    let mut test = Array2::zeros((n_c, n_s));
    let mut train = Array2::zeros((n_c, n_s));
    let mut fit_t = Array2::zeros((n_c, n_s));
    let mut score_t = Array2::zeros((n_c, n_s));
    for (t, o) in outcomes.iter().enumerate() {
        let idx = (t / n_s, t % n_s);
        test[idx] = o.test_score;
        train[idx] = o.train_score;
        fit_t[idx] = o.fit_time;
        score_t[idx] = o.score_time;
    }
    let row_stat = |m: &Array2<f64>, f: fn(&[f64]) -> f64| -> Array1<f64> {
        Array1::from_iter(m.rows().into_iter().map(|r| f(&r.to_vec())))
    };
    let mean_test = row_stat(&test, mean);
    let ranks = rank_min(mean_test.as_slice().unwrap_or(&[]));
    let best_index = ranks.iter().position(|&r| r == 1).unwrap_or(0);
    let (best_model, refit_time) = if common.refit {
        let start = std::time::Instant::now();
        let m = candidates[best_index].fit(x, y)?;
        (Some(m), Some(start.elapsed().as_secs_f64()))
    } else {
        (None, None)
    };
    Ok(SearchResult {
        params,
        best_score: mean_test[best_index],
        std_test_score: row_stat(&test, std_ddof0),
        mean_test_score: mean_test,
        rank_test_score: ranks,
        mean_train_score: common.return_train_score.then(|| row_stat(&train, mean)),
        std_train_score: common
            .return_train_score
            .then(|| row_stat(&train, std_ddof0)),
        split_train_scores: common.return_train_score.then_some(train),
        split_test_scores: test,
        mean_fit_time: row_stat(&fit_t, mean),
        mean_score_time: row_stat(&score_t, mean),
        best_index,
        best_model,
        refit_time,
        splits,
        candidates,
    })
}

/// Exhaustive search over candidates with cross-validation (scikit-learn's `GridSearchCV`).
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `cv` | (required) | `cv` |
/// | `refit` | `true` | `refit` |
/// | `return_train_score` | `false` | `return_train_score` |
/// | `error_score` | `None` (propagate) | `error_score` |
///
/// ```
/// use ndlearn_core::model_selection::{GridSearchCV, KFold, ParamGrid, ParamPoint};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// // Shrunken mean: predicts mean(y) / (1 + alpha).
/// struct Shrunk { alpha: f64 }
/// impl Fit<f64> for Shrunk {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
///         Ok(y.mean().unwrap_or(0.0) / (1.0 + self.alpha))
///     }
/// }
/// let neg_mse = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
///     Ok(-y.mapv(|v| (v - m) * (v - m)).mean().unwrap_or(0.0))
/// };
/// let x = Array2::zeros((6, 1));
/// let y = Array1::from(vec![1.0, 1.2, 0.8, 1.1, 0.9, 1.0]);
/// let grid = ParamGrid::new().param("alpha", vec![1.0, 0.0, 0.5]);
/// let build = |p: &ParamPoint| -> Result<Shrunk> { Ok(Shrunk { alpha: p.value("alpha")? }) };
/// let res = GridSearchCV::new(KFold::new(3)).fit_grid(&grid, build, &x, &y, neg_mse)?;
/// assert_eq!(res.best_params().and_then(|p| p.get("alpha")), Some(0.0));
/// assert_eq!(res.rank_test_score[res.best_index], 1);
/// assert!(res.best_model().is_some());
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct GridSearchCV<C> {
    /// The cross-validation scheme.
    pub cv: C,
    /// Refit the best candidate on all the data.
    pub refit: bool,
    /// Also score each fold's model on its training rows.
    pub return_train_score: bool,
    /// Score for a failing (candidate, fold) pair; `None` returns the first error.
    pub error_score: Option<f64>,
}

impl<C: CrossValidator> GridSearchCV<C> {
    /// A search with cross-validation `cv` and the defaults.
    pub fn new(cv: C) -> Self {
        Self {
            cv,
            refit: true,
            return_train_score: false,
            error_score: None,
        }
    }

    crate::setters! {
        /// Sets `refit`.
        refit: bool,
        /// Sets `return_train_score`.
        return_train_score: bool,
    }

    /// Sets `error_score`.
    pub fn error_score(mut self, v: f64) -> Self {
        self.error_score = Some(v);
        self
    }

    fn common(&self) -> Common {
        Common {
            refit: self.refit,
            return_train_score: self.return_train_score,
            error_score: self.error_score,
        }
    }

    /// Evaluates a list of configured estimators.
    pub fn fit<F, E, S>(
        &self,
        candidates: Vec<E>,
        x: &ArrayRef2<F>,
        y: &E::Target,
        scorer: S,
    ) -> Result<SearchResult<E, E::Model>>
    where
        F: Float,
        E: Fit<F> + Sync,
        E::Target: TargetRows + Sync,
        E::Model: Send,
        S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
    {
        run_search(self.common(), &self.cv, candidates, None, x, y, scorer)
    }

    /// Evaluates every point of `grid`, each turned into an estimator by `build` (an error from
    /// `build` is returned: it means an invalid grid).
    pub fn fit_grid<F, E, B, S>(
        &self,
        grid: &ParamGrid,
        build: B,
        x: &ArrayRef2<F>,
        y: &E::Target,
        scorer: S,
    ) -> Result<SearchResult<E, E::Model>>
    where
        F: Float,
        E: Fit<F> + Sync,
        E::Target: TargetRows + Sync,
        E::Model: Send,
        B: Fn(&ParamPoint) -> Result<E>,
        S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
    {
        let points = grid.points()?;
        let candidates = points.iter().map(&build).collect::<Result<Vec<E>>>()?;
        run_search(
            self.common(),
            &self.cv,
            candidates,
            Some(points),
            x,
            y,
            scorer,
        )
    }
}

/// Search over `n_iter` candidates sampled from a [`ParamSpace`] (scikit-learn's
/// `RandomizedSearchCV`); the sampling is seeded. Same reporting as [`GridSearchCV`].
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `cv` | (required) | `cv` |
/// | `n_iter` | 10 | `n_iter` |
/// | `seed` | 0 | `random_state` |
/// | `refit` | `true` | `refit` |
/// | `return_train_score` | `false` | `return_train_score` |
/// | `error_score` | `None` | `error_score` |
///
/// ```
/// use ndlearn_core::model_selection::{KFold, ParamDistribution, ParamPoint, ParamSpace, RandomizedSearchCV};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// struct Constant { c: f64 }
/// impl Fit<f64> for Constant {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<f64> { Ok(self.c) }
/// }
/// let neg_mae = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
///     Ok(-y.mapv(|v| (v - m).abs()).mean().unwrap_or(0.0))
/// };
/// let space = ParamSpace::new().param("c", ParamDistribution::Uniform { low: 0.0, high: 4.0 });
/// let build = |p: &ParamPoint| -> Result<Constant> { Ok(Constant { c: p.value("c")? }) };
/// let (x, y) = (Array2::zeros((4, 1)), Array1::from(vec![2.0; 4]));
/// let res = RandomizedSearchCV::new(KFold::new(2)).n_iter(20).seed(3).fit(&space, build, &x, &y, neg_mae)?;
/// assert_eq!(res.n_candidates(), 20);
/// assert!((res.best_params().and_then(|p| p.get("c")).unwrap_or(0.0) - 2.0).abs() < 0.5);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct RandomizedSearchCV<C> {
    /// The cross-validation scheme.
    pub cv: C,
    /// Number of sampled candidates.
    pub n_iter: usize,
    /// Seed of the sampling.
    pub seed: u64,
    /// Refit the best candidate on all the data.
    pub refit: bool,
    /// Also score each fold's model on its training rows.
    pub return_train_score: bool,
    /// Score for a failing (candidate, fold) pair; `None` returns the first error.
    pub error_score: Option<f64>,
}

impl<C: CrossValidator> RandomizedSearchCV<C> {
    /// A search with cross-validation `cv` and the defaults.
    pub fn new(cv: C) -> Self {
        Self {
            cv,
            n_iter: 10,
            seed: 0,
            refit: true,
            return_train_score: false,
            error_score: None,
        }
    }

    crate::setters! {
        /// Sets `n_iter`.
        n_iter: usize,
        /// Sets `seed`.
        seed: u64,
        /// Sets `refit`.
        refit: bool,
        /// Sets `return_train_score`.
        return_train_score: bool,
    }

    /// Sets `error_score`.
    pub fn error_score(mut self, v: f64) -> Self {
        self.error_score = Some(v);
        self
    }

    /// Samples the candidates from `space` and evaluates them.
    pub fn fit<F, E, B, S>(
        &self,
        space: &ParamSpace,
        build: B,
        x: &ArrayRef2<F>,
        y: &E::Target,
        scorer: S,
    ) -> Result<SearchResult<E, E::Model>>
    where
        F: Float,
        E: Fit<F> + Sync,
        E::Target: TargetRows + Sync,
        E::Model: Send,
        B: Fn(&ParamPoint) -> Result<E>,
        S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
    {
        let points = space.sample(self.n_iter, self.seed)?;
        let candidates = points.iter().map(&build).collect::<Result<Vec<E>>>()?;
        let common = Common {
            refit: self.refit,
            return_train_score: self.return_train_score,
            error_score: self.error_score,
        };
        run_search(common, &self.cv, candidates, Some(points), x, y, scorer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_selection::KFold;
    use ndarray::{ArrayRef1, array};

    struct Constant {
        c: f64,
    }

    impl Fit<f64> for Constant {
        type Target = ArrayRef1<f64>;
        type Model = f64;
        fn fit(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<f64> {
            if self.c.is_nan() {
                return Err(Error::invalid_param("c", "NaN"));
            }
            Ok(self.c)
        }
    }

    fn neg_mse(m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
        Ok(-y.iter().map(|v| (v - m) * (v - m)).sum::<f64>() / y.len() as f64)
    }

    #[test]
    fn ranks_follow_rankdata_min() {
        assert_eq!(rank_min(&[0.5, 0.9, 0.5, 0.1]), vec![2, 1, 2, 4]);
        assert_eq!(rank_min(&[1.0, f64::NAN, 1.0, f64::NAN]), vec![1, 3, 1, 3]);
        assert_eq!(rank_min(&[f64::NAN, f64::NAN]), vec![1, 1]);
    }

    #[test]
    fn candidate_list_ties_and_stats() {
        let x = Array2::zeros((4, 1));
        let y = array![0.0, 2.0, 0.0, 2.0];
        // c = 1 is best (mse 1 on every fold); c = 1 repeated ties: the first wins.
        let cands = vec![
            Constant { c: 0.0 },
            Constant { c: 1.0 },
            Constant { c: 1.0 },
            Constant { c: 3.0 },
        ];
        let r = GridSearchCV::new(KFold::new(2))
            .return_train_score(true)
            .fit(cands, &x, &y, neg_mse)
            .expect("valid");
        assert_eq!(r.best_index, 1);
        assert_eq!(r.rank_test_score, vec![3, 1, 1, 4]);
        assert_eq!(r.best_score, -1.0);
        assert_eq!(r.mean_test_score.to_vec(), vec![-2.0, -1.0, -1.0, -5.0]);
        assert_eq!(r.std_test_score.to_vec(), vec![0.0; 4]);
        assert_eq!(r.best_model(), Some(&1.0));
        assert_eq!(r.best_candidate().c, 1.0);
        assert!(r.best_params().is_none());
        assert_eq!(r.split_test_scores.dim(), (4, 2));
        assert!(r.mean_train_score.is_some());
        assert_eq!(r.n_splits(), 2);
    }

    #[test]
    fn failures_and_empty_inputs() {
        let x = Array2::zeros((4, 1));
        let y = array![0.0, 2.0, 0.0, 2.0];
        let gs = GridSearchCV::new(KFold::new(2)).refit(false);
        let cands = || vec![Constant { c: f64::NAN }, Constant { c: 1.0 }];
        assert!(gs.fit(cands(), &x, &y, neg_mse).is_err());
        let r = gs
            .clone()
            .error_score(f64::NAN)
            .fit(cands(), &x, &y, neg_mse)
            .expect("masked");
        assert!(r.mean_test_score[0].is_nan());
        assert_eq!(r.best_index, 1);
        assert!(r.best_model.is_none());
        assert!(gs.fit(Vec::<Constant>::new(), &x, &y, neg_mse).is_err());
        let build_fails =
            |_: &ParamPoint| -> Result<Constant> { Err(Error::invalid_param("c", "bad")) };
        let grid = ParamGrid::new().param("c", vec![1.0]);
        assert!(gs.fit_grid(&grid, build_fails, &x, &y, neg_mse).is_err());
    }
}
