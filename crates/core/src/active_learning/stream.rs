//! Stream-based selective sampling (the course notes; Cohn, Atlas & Ladner, "Improving
//! generalization with active learning", Machine Learning 15(2), 1994; catalog X-01, CL-196).

use ndarray::{Array1, ArrayRef1, ArrayRef2, Axis, s};
use rand::Rng as _;

use super::pool::{check_initial, check_proba_rows};
use super::strategies::QueryStrategy;
use crate::validate::check_fit_input;
use crate::{Fit, Float, PredictProba, Result, random};

/// Stream-based selective sampling: the unlabelled instances arrive one at a time and for each
/// the learner decides at once to ask for its label or to discard it (the course notes; Cohn,
/// Atlas & Ladner (1994)).
///
/// # The rule ([`StreamSampler::run`])
///
/// The rows of `x_stream` arrive in order. The rows listed in `initial` are labelled by the
/// oracle first (not counted as queries) and the model is fitted on them. Every other row `i`,
/// in order: compute its informativeness `s(x_i)` ([`QueryStrategy::scores`]) under the
/// current model and **query when `s(x_i) > threshold`** (for [`QueryStrategy::Random`]: query
/// with probability `threshold`, the passive baseline). A queried row joins the labelled set,
/// and the model is refitted after every `refit_every` queries. The stream stops early when
/// `budget` queries have been made. The threshold is on the strategy's own scale (binary
/// uncertainty `[0, 0.5]`, least confident `[0, 1 − 1/K]`, margin `[0, 1]`, entropy
/// `[0, ln K]`).
///
/// | field | default | meaning |
/// |---|---|---|
/// | `strategy` | `Entropy` | informativeness measure |
/// | `threshold` | 0.5 | query when the score exceeds it (`≥ 0`; a probability in `[0, 1]` for `Random`) |
/// | `budget` | `None` | maximum number of queries |
/// | `refit_every` | 1 | queries between refits (`≥ 1`) |
/// | `seed` | 0 | stream for `Random` |
///
/// Cost: one `predict_proba` per arriving row and one fit per `refit_every` queries.
///
/// ```
/// # use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// # use ndlearn_core::{Fit, Predict, PredictProba, Result};
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
/// use ndlearn_core::active_learning::{QueryStrategy, StreamSampler};
///
/// // A stream of 200 points in [0, 10) (a fixed pseudo-random order); label 1 when x > 6.3.
/// let stream = Array2::from_shape_fn((200, 1), |(i, _)| (i * 37 % 200) as f64 / 20.0);
/// let run = StreamSampler::default()
///     .strategy(QueryStrategy::Uncertainty)
///     .threshold(0.3)
///     .run(&Mid, &stream, &[0, 4], |i| usize::from(stream[[i, 0]] > 6.3))?;
/// // Only the points near the current boundary were worth a label.
/// assert!(run.queried.len() < 40);
/// assert!((run.model.0 - 6.3).abs() < 0.1);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct StreamSampler {
    /// The informativeness measure.
    pub strategy: QueryStrategy,
    /// Query when the score exceeds this (a probability for `Random`).
    pub threshold: f64,
    /// Maximum number of queries (`None`: unlimited).
    pub budget: Option<usize>,
    /// Queries between refits (`≥ 1`).
    pub refit_every: usize,
    /// Seed for [`QueryStrategy::Random`].
    pub seed: u64,
}

impl Default for StreamSampler {
    fn default() -> Self {
        Self {
            strategy: QueryStrategy::Entropy,
            threshold: 0.5,
            budget: None,
            refit_every: 1,
            seed: 0,
        }
    }
}

/// The outcome of [`StreamSampler::run`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct StreamRun<M> {
    /// The model fitted on the final labelled set.
    pub model: M,
    /// Stream indices whose label was requested, in arrival order (initial rows excluded).
    pub queried: Vec<usize>,
    /// Every labelled stream index (initial rows first, then the queries).
    pub labelled: Vec<usize>,
    /// The oracle's labels, aligned with `labelled`.
    pub labels: Vec<usize>,
    /// Number of stream rows examined (all of them unless the budget ran out).
    pub n_seen: usize,
}

impl StreamSampler {
    crate::setters! {
        /// Sets [`StreamSampler::strategy`].
        strategy: QueryStrategy,
        /// Sets [`StreamSampler::threshold`].
        threshold: f64,
        /// Sets [`StreamSampler::budget`].
        budget: Option<usize>,
        /// Sets [`StreamSampler::refit_every`].
        refit_every: usize,
        /// Sets [`StreamSampler::seed`].
        seed: u64,
    }

    /// Checks the hyperparameters.
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("refit_every", self.refit_every, 1)?;
        if self.strategy == QueryStrategy::Random {
            crate::validate::check_in_range("threshold", self.threshold, 0.0, 1.0)
        } else {
            crate::validate::check_non_negative("threshold", self.threshold)
        }
    }

    /// Processes the stream `x_stream` in row order (see the type docs).
    ///
    /// # Errors
    /// Invalid hyperparameters; an empty or non-finite stream; invalid `initial` indices (empty,
    /// out of range, repeated); errors of the estimator or the strategy (e.g. `Uncertainty` on
    /// a model with more than two classes).
    pub fn run<F, E, O>(
        &self,
        estimator: &E,
        x_stream: &ArrayRef2<F>,
        initial: &[usize],
        mut oracle: O,
    ) -> Result<StreamRun<E::Model>>
    where
        F: Float,
        E: Fit<F, Target = ArrayRef1<usize>>,
        E::Model: PredictProba<F>,
        O: FnMut(usize) -> usize,
    {
        self.validate()?;
        check_fit_input(x_stream, 1, "StreamSampler")?;
        let n = x_stream.nrows();
        let is_initial = check_initial(initial, n)?;
        let mut labelled = initial.to_vec();
        let mut labels: Vec<usize> = initial.iter().map(|&i| oracle(i)).collect();
        let fit = |labelled: &[usize], labels: &[usize]| {
            estimator.fit(
                &x_stream.select(Axis(0), labelled),
                &Array1::from(labels.to_vec()),
            )
        };
        let mut model = fit(&labelled, &labels)?;
        let mut queried = Vec::new();
        let mut pending = 0usize;
        let mut rng = random::rng(self.seed);
        let threshold = F::cast(self.threshold);
        let mut n_seen = 0;
        for (i, &initial_row) in is_initial.iter().enumerate() {
            if self.budget.is_some_and(|b| queried.len() >= b) {
                break;
            }
            n_seen = i + 1;
            if initial_row {
                continue;
            }
            let ask = if self.strategy == QueryStrategy::Random {
                rng.random::<f64>() < self.threshold
            } else {
                let p = model.predict_proba(&x_stream.slice(s![i..=i, ..]))?;
                check_proba_rows(p.nrows(), 1)?;
                let score = self.strategy.scores(&p)?;
                score[0] > threshold
            };
            if !ask {
                continue;
            }
            labels.push(oracle(i));
            labelled.push(i);
            queried.push(i);
            pending += 1;
            if pending >= self.refit_every {
                model = fit(&labelled, &labels)?;
                pending = 0;
            }
        }
        if pending > 0 {
            model = fit(&labelled, &labels)?;
        }
        Ok(StreamRun {
            model,
            queried,
            labelled,
            labels,
            n_seen,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::active_learning::test_support::Centroids;
    use ndarray::Array2;

    fn line(n: usize) -> (Array2<f64>, Array1<usize>) {
        // Points k/n, k = 0..n, in a scrambled order on [0, 1); class 1 when x ≥ 1/2. (Small
        // distances: the centroid model's probabilities never saturate to exactly 0 or 1.)
        let x = Array2::from_shape_fn((n, 1), |(i, _)| ((i * 7919) % n) as f64 / n as f64);
        let y = x.column(0).mapv(|v| usize::from(v >= 0.5));
        (x, y)
    }

    #[test]
    fn threshold_controls_the_number_of_queries() {
        let (x, y) = line(101);
        let initial = [
            (0..101).find(|&i| y[i] == 0).expect("class 0"),
            (0..101).find(|&i| y[i] == 1).expect("class 1"),
        ];
        let run = |t: f64| {
            StreamSampler::default()
                .strategy(QueryStrategy::Uncertainty)
                .threshold(t)
                .run(&Centroids, &x, &initial, |i| y[i])
                .expect("valid")
        };
        let loose = run(0.0);
        let strict = run(0.45);
        // Threshold 0: every non-initial point has a positive score and is queried.
        assert_eq!(loose.queried.len(), 99);
        assert!(strict.queried.len() < loose.queried.len());
        // Queries are in arrival order and labelled by the oracle.
        assert!(strict.queried.windows(2).all(|w| w[0] < w[1]));
        assert!(
            strict
                .labels
                .iter()
                .zip(&strict.labelled)
                .all(|(&l, &i)| l == y[i])
        );
        assert_eq!(strict.n_seen, 101);
    }

    #[test]
    fn budget_and_random() {
        let (x, y) = line(60);
        let initial = [
            (0..60).find(|&i| y[i] == 0).expect("class 0"),
            (0..60).find(|&i| y[i] == 1).expect("class 1"),
        ];
        let r = StreamSampler::default()
            .threshold(0.0)
            .budget(Some(5))
            .refit_every(2)
            .run(&Centroids, &x, &initial, |i| y[i])
            .expect("valid");
        assert_eq!(r.queried.len(), 5);
        assert!(r.n_seen < 60);
        let rnd = StreamSampler::default()
            .strategy(QueryStrategy::Random)
            .threshold(0.25)
            .seed(4);
        let a = rnd.run(&Centroids, &x, &initial, |i| y[i]).expect("valid");
        let b = rnd.run(&Centroids, &x, &initial, |i| y[i]).expect("valid");
        assert_eq!(a.queried, b.queried);
        assert!(
            a.queried.len() > 3 && a.queried.len() < 30,
            "{}",
            a.queried.len()
        );
    }

    #[test]
    fn errors() {
        let (x, y) = line(10);
        let s = StreamSampler::default();
        assert!(
            s.clone()
                .threshold(-1.0)
                .run(&Centroids, &x, &[0, 1], |i| y[i])
                .is_err()
        );
        assert!(
            s.clone()
                .strategy(QueryStrategy::Random)
                .threshold(2.0)
                .run(&Centroids, &x, &[0, 1], |i| y[i])
                .is_err()
        );
        assert!(
            s.clone()
                .refit_every(0)
                .run(&Centroids, &x, &[0, 1], |i| y[i])
                .is_err()
        );
        assert!(s.run(&Centroids, &x, &[], |i| y[i]).is_err());
        // A three-class model with binary uncertainty sampling.
        let y3 = Array1::from(vec![0usize, 1, 2, 0, 1, 2, 0, 1, 2, 0]);
        assert!(
            StreamSampler::default()
                .strategy(QueryStrategy::Uncertainty)
                .run(&Centroids, &x, &[0, 1, 2], |i| y3[i])
                .is_err()
        );
    }
}
