//! Pool-based active learning (the course notes; Lewis & Gale, "A sequential algorithm for
//! training text classifiers", SIGIR 1994; Settles, "Active Learning Literature Survey", 2009;
//! catalog X-01, CL-194).

use ndarray::{Array1, ArrayRef1, ArrayRef2, Axis};

use super::strategies::{QueryStrategy, select_queries};
use crate::validate::{check_fit_input, check_target_len};
use crate::{Error, Fit, Float, Predict, PredictProba, Result, random};

/// Pool-based active learning: a small labelled set `L`, a large unlabelled pool `U`; each round
/// trains on `L`, scores `U` with a [`QueryStrategy`], asks an oracle for the labels of the
/// `batch_size` most informative samples and moves them to `L` ("train, score the pool, query
/// the oracle, retrain", the course notes; Settles (2009)).
///
/// Works with any classifier `E: Fit<F, Target = ArrayRef1<usize>>` whose fitted model gives
/// probabilities ([`PredictProba`]) and label predictions.
///
/// # The loop ([`PoolLearner::run`])
///
/// 1. `L` = the `initial` pool indices, labelled by the oracle (these labels are not counted
///    as queries).
/// 2. For `round = 0, 1, …, n_rounds`: fit on `L`; record the accuracy on the test set if one
///    was given; stop after the last round or when the pool is empty; otherwise score the
///    unlabelled rows (in increasing pool index), pick the `batch_size` most informative
///    (ties to the lower pool index; uniform draws for `Random`), ask `oracle(i)` for each and
///    add them to `L`.
///
/// So the run makes at most `n_rounds · batch_size` queries, fits `n_rounds + 1` models and
/// records `n_rounds + 1` accuracies (before any query, then after each round).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `strategy` | `Entropy` | how unlabelled rows are ranked |
/// | `batch_size` | 1 | queries per round (`≥ 1`) |
/// | `n_rounds` | 10 | query rounds |
/// | `seed` | 0 | stream for `Random` (`random::rng(seed)`) |
///
/// Cost per round: one fit on `|L|` rows, one `predict_proba` on `|U|` rows, an
/// `O(|U| log |U|)` sort. Deterministic for a seed (given a deterministic estimator).
///
/// ```
/// # use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// # use ndlearn_core::{Fit, Predict, PredictProba, Result};
/// # // A 1-D classifier: P(1|x) = σ(4 (x − m)), m = midway between the largest x labelled 0
/// # // and the smallest x labelled 1.
/// # struct Mid;
/// # struct FittedMid(f64);
/// # impl Fit<f64> for Mid {
/// #     type Target = ArrayRef1<usize>;
/// #     type Model = FittedMid;
/// #     fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<usize>) -> Result<FittedMid> {
/// #         let (mut hi0, mut lo1) = (f64::NEG_INFINITY, f64::INFINITY);
/// #         for (&v, &l) in x.column(0).iter().zip(y) { if l == 0 { hi0 = hi0.max(v) } else { lo1 = lo1.min(v) } }
/// #         Ok(FittedMid((hi0 + lo1) / 2.0))
/// #     }
/// # }
/// # impl Predict<f64> for FittedMid {
/// #     type Output = Array1<usize>;
/// #     fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> { Ok(x.column(0).mapv(|v| usize::from(v > self.0))) }
/// # }
/// # impl PredictProba<f64> for FittedMid {
/// #     fn predict_proba(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
/// #         Ok(Array2::from_shape_fn((x.nrows(), 2), |(i, c)| { let p = 1.0 / (1.0 + (-4.0 * (x[[i, 0]] - self.0)).exp()); if c == 1 { p } else { 1.0 - p } }))
/// #     }
/// # }
/// use ndlearn_core::active_learning::{PoolLearner, QueryStrategy};
///
/// // 100 points on [0, 10); the true label is 1 when x > 6.3.
/// let pool = Array2::from_shape_fn((100, 1), |(i, _)| i as f64 / 10.0);
/// let oracle = |i: usize| usize::from(pool[[i, 0]] > 6.3);
/// let run = PoolLearner::default()
///     .strategy(QueryStrategy::Uncertainty)
///     .n_rounds(6)
///     .run(&Mid, &pool, &[0, 99], oracle, None)?;
/// assert_eq!(run.n_queries(), 6);
/// // Uncertainty sampling homes in on the boundary.
/// assert!(run.queries.last().is_some_and(|q| (pool[[q[0], 0]] - 6.3).abs() < 1.0));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PoolLearner {
    /// The query strategy.
    pub strategy: QueryStrategy,
    /// Queries per round (`≥ 1`).
    pub batch_size: usize,
    /// Number of query rounds.
    pub n_rounds: usize,
    /// Seed for [`QueryStrategy::Random`].
    pub seed: u64,
}

impl Default for PoolLearner {
    fn default() -> Self {
        Self {
            strategy: QueryStrategy::Entropy,
            batch_size: 1,
            n_rounds: 10,
            seed: 0,
        }
    }
}

/// The outcome of [`PoolLearner::run`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct PoolRun<M> {
    /// The model fitted on the final labelled set.
    pub model: M,
    /// Pool indices of the labelled set, in the order they were labelled (initial ones first).
    pub labelled: Vec<usize>,
    /// The oracle's labels, aligned with `labelled`.
    pub labels: Vec<usize>,
    /// The pool indices queried in each round, most informative first.
    pub queries: Vec<Vec<usize>>,
    /// Test-set accuracy of the model of each round (`n_rounds + 1` values, or fewer if the
    /// pool ran out); empty without a test set.
    pub accuracy: Vec<f64>,
}

impl<M> PoolRun<M> {
    /// Total number of oracle queries (excluding the initial labels).
    pub fn n_queries(&self) -> usize {
        self.queries.iter().map(Vec::len).sum()
    }
}

impl PoolLearner {
    crate::setters! {
        /// Sets [`PoolLearner::strategy`].
        strategy: QueryStrategy,
        /// Sets [`PoolLearner::batch_size`].
        batch_size: usize,
        /// Sets [`PoolLearner::n_rounds`].
        n_rounds: usize,
        /// Sets [`PoolLearner::seed`].
        seed: u64,
    }

    /// Checks the hyperparameters (`batch_size ≥ 1`).
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("batch_size", self.batch_size, 1)
    }

    /// Runs the loop (see the type docs) on the pool `x_pool` (`n × d`), starting from the pool
    /// indices `initial`, with labels from `oracle(pool_index)`; `test = Some((x, y))` records
    /// the accuracy of each round's model.
    ///
    /// # Errors
    /// Invalid hyperparameters; an empty or non-finite pool; `initial` empty, out of range or
    /// with repeats; a test set of the wrong shape; any error of the estimator (e.g. a single
    /// class in the initial labels).
    pub fn run<F, E, O>(
        &self,
        estimator: &E,
        x_pool: &ArrayRef2<F>,
        initial: &[usize],
        mut oracle: O,
        test: Option<(&ArrayRef2<F>, &ArrayRef1<usize>)>,
    ) -> Result<PoolRun<E::Model>>
    where
        F: Float,
        E: Fit<F, Target = ArrayRef1<usize>>,
        E::Model: PredictProba<F> + Predict<F, Output = Array1<usize>>,
        O: FnMut(usize) -> usize,
    {
        self.validate()?;
        check_fit_input(x_pool, 1, "PoolLearner")?;
        let n = x_pool.nrows();
        let mut is_labelled = check_initial(initial, n)?;
        if let Some((xt, yt)) = test {
            check_target_len(xt.nrows(), yt.len(), "PoolLearner test set")?;
            crate::validate::check_n_features(xt.ncols(), x_pool.ncols(), "PoolLearner test set")?;
        }
        let mut labelled = initial.to_vec();
        let mut labels: Vec<usize> = initial.iter().map(|&i| oracle(i)).collect();
        let mut queries = Vec::with_capacity(self.n_rounds);
        let mut accuracy = Vec::new();
        let mut rng = random::rng(self.seed);
        let mut round = 0;
        loop {
            let xl = x_pool.select(Axis(0), &labelled);
            let model = estimator.fit(&xl, &Array1::from(labels.clone()))?;
            if let Some((xt, yt)) = test {
                accuracy.push(accuracy_of(&model.predict(xt)?, yt)?);
            }
            let candidates: Vec<usize> = (0..n).filter(|&i| !is_labelled[i]).collect();
            if round == self.n_rounds || candidates.is_empty() {
                return Ok(PoolRun {
                    model,
                    labelled,
                    labels,
                    queries,
                    accuracy,
                });
            }
            let proba = model.predict_proba(&x_pool.select(Axis(0), &candidates))?;
            check_proba_rows(proba.nrows(), candidates.len())?;
            let picks = select_queries(self.strategy, &proba, self.batch_size, &mut rng)?;
            let picked: Vec<usize> = picks.into_iter().map(|p| candidates[p]).collect();
            for &i in &picked {
                labels.push(oracle(i));
                labelled.push(i);
                is_labelled[i] = true;
            }
            queries.push(picked);
            round += 1;
        }
    }
}

/// Validates initial indices (non-empty, in range, distinct); returns the labelled mask.
pub(crate) fn check_initial(initial: &[usize], n: usize) -> Result<Vec<bool>> {
    if initial.is_empty() {
        return Err(Error::invalid_param(
            "initial",
            "at least one initially labelled index is needed (the model must be fitted before querying)",
        ));
    }
    let mut mask = vec![false; n];
    for &i in initial {
        if i >= n {
            return Err(Error::invalid_param(
                "initial",
                format!("index {i} is out of range for {n} samples"),
            ));
        }
        if mask[i] {
            return Err(Error::invalid_param(
                "initial",
                format!("index {i} is repeated"),
            ));
        }
        mask[i] = true;
    }
    Ok(mask)
}

pub(crate) fn check_proba_rows(found: usize, expected: usize) -> Result<()> {
    if found != expected {
        return Err(Error::ShapeMismatch {
            context: "predict_proba output",
            expected: format!("{expected} rows"),
            found: format!("{found} rows"),
        });
    }
    Ok(())
}

/// Fraction of equal entries.
pub(crate) fn accuracy_of(pred: &Array1<usize>, truth: &ArrayRef1<usize>) -> Result<f64> {
    check_target_len(truth.len(), pred.len(), "accuracy")?;
    if truth.is_empty() {
        return Ok(0.0);
    }
    let hits = pred.iter().zip(truth).filter(|(a, b)| a == b).count();
    Ok(hits as f64 / truth.len() as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::active_learning::test_support::Centroids;
    use ndarray::Array2;

    /// Two overlapping 2-D Gaussian classes (means ±1 on the first axis), `n` rows each.
    fn two_gaussians(n: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
        let mut rng = random::rng(seed);
        let mut x = Array2::zeros((2 * n, 2));
        let mut y = Array1::zeros(2 * n);
        for i in 0..2 * n {
            let c = i % 2;
            y[i] = c;
            x[[i, 0]] = if c == 1 { 1.0 } else { -1.0 } + random::standard_normal::<f64>(&mut rng);
            x[[i, 1]] = random::standard_normal::<f64>(&mut rng);
        }
        (x, y)
    }

    #[test]
    fn loop_bookkeeping() {
        let (x, y) = two_gaussians(40, 1);
        let (xt, yt) = two_gaussians(50, 2);
        let mut calls = Vec::new();
        let run = PoolLearner::default()
            .batch_size(3)
            .n_rounds(4)
            .run(
                &Centroids,
                &x,
                &[0, 1],
                |i| {
                    calls.push(i);
                    y[i]
                },
                Some((&xt, &yt)),
            )
            .expect("valid");
        assert_eq!(run.n_queries(), 12);
        assert_eq!(run.queries.len(), 4);
        assert_eq!(run.accuracy.len(), 5);
        assert_eq!(run.labelled.len(), 14);
        assert_eq!(calls, run.labelled); // every label came from the oracle, once
        assert!(
            run.labels
                .iter()
                .zip(&run.labelled)
                .all(|(&l, &i)| l == y[i])
        );
        let mut seen = run.labelled.clone();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 14);
        assert!(run.accuracy.iter().all(|a| (0.0..=1.0).contains(a)));
    }

    #[test]
    fn queries_follow_the_strategy() {
        // One round on a fixed model: the picks are the top scores of the pool.
        let (x, y) = two_gaussians(30, 3);
        let run = PoolLearner::default()
            .strategy(QueryStrategy::Margin)
            .batch_size(5)
            .n_rounds(1)
            .run(&Centroids, &x, &[0, 1, 2, 3], |i| y[i], None)
            .expect("valid");
        let model = Centroids
            .fit(
                &x.select(Axis(0), &[0, 1, 2, 3]),
                &y.select(Axis(0), &[0, 1, 2, 3]),
            )
            .expect("valid");
        let rest: Vec<usize> = (4..60).collect();
        let p = model.predict_proba(&x.select(Axis(0), &rest)).expect("ok");
        let want: Vec<usize> =
            super::super::top_b(&QueryStrategy::Margin.scores(&p).expect("ok"), 5)
                .into_iter()
                .map(|k| rest[k])
                .collect();
        assert_eq!(run.queries[0], want);
        assert!(run.accuracy.is_empty());
    }

    #[test]
    fn exhausts_the_pool_and_is_deterministic() {
        let (x, y) = two_gaussians(5, 4);
        let learner = PoolLearner::default()
            .strategy(QueryStrategy::Random)
            .batch_size(4)
            .n_rounds(10)
            .seed(8);
        let a = learner
            .run(&Centroids, &x, &[0, 1], |i| y[i], None)
            .expect("ok");
        assert_eq!(a.n_queries(), 8);
        assert_eq!(
            a.queries.iter().map(Vec::len).collect::<Vec<_>>(),
            vec![4, 4]
        );
        let b = learner
            .run(&Centroids, &x, &[0, 1], |i| y[i], None)
            .expect("ok");
        assert_eq!(a.queries, b.queries);
    }

    #[test]
    fn errors() {
        let (x, y) = two_gaussians(5, 4);
        let l = PoolLearner::default();
        assert!(l.run(&Centroids, &x, &[], |i| y[i], None).is_err());
        assert!(l.run(&Centroids, &x, &[0, 10], |i| y[i], None).is_err());
        assert!(l.run(&Centroids, &x, &[0, 0, 1], |i| y[i], None).is_err());
        // One class in the initial labels: the estimator's error comes through.
        assert!(matches!(
            l.run(&Centroids, &x, &[0, 2], |i| y[i], None),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(
            PoolLearner::default()
                .batch_size(0)
                .run(&Centroids, &x, &[0, 1], |i| y[i], None)
                .is_err()
        );
        let xt = Array2::<f64>::zeros((3, 3));
        let yt = Array1::<usize>::zeros(3);
        assert!(
            l.run(&Centroids, &x, &[0, 1], |i| y[i], Some((&xt, &yt)))
                .is_err()
        );
        let mut bad = x.clone();
        bad[[2, 0]] = f64::INFINITY;
        assert!(l.run(&Centroids, &bad, &[0, 1], |i| y[i], None).is_err());
    }
}
