//! Property tests of `ndlearn_core::active_learning` (few cases: CI has 2 cores).
//!
//! * Query strategies: scores within their documented ranges, invariant under a permutation of
//!   the class columns, maximal (entropy `ln K`, least confident `1 − 1/K`) at the uniform row.
//! * Membership learners: the binary-search threshold learner finds the boundary with at most
//!   `⌈log₂(n + 1)⌉` queries; the interval learner recovers `[a, b]` and its binary searches
//!   cost `O(log n)`.
//! * Pool-based learning is deterministic and independent of the thread count.
//! * A real property, not a tautology: on seeded imbalanced blobs, uncertainty (entropy)
//!   sampling with a nearest-centroid classifier ends with a better test accuracy than random
//!   sampling with the same number of labels, on average over 30 seeds.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::active_learning::{
    PoolLearner, QueryStrategy, learn_interval, learn_threshold, top_b,
};
use ndlearn_core::validate::{check_classification_input, check_predict_input};
use ndlearn_core::{Fit, Predict, PredictProba, Result, par, random};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Nearest centroid with `P(k | x) = softmax_k(−‖x − μ_k‖² / 2)`: a Gaussian class model with
/// identity covariance and equal priors.
struct Centroids;

#[derive(Debug, PartialEq)]
struct FittedCentroids {
    means: Array2<f64>,
}

impl Fit<f64> for Centroids {
    type Target = ArrayRef1<usize>;
    type Model = FittedCentroids;
    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<usize>) -> Result<FittedCentroids> {
        let k = check_classification_input(x, y, 2, "Centroids")?;
        let mut means = Array2::<f64>::zeros((k, x.ncols()));
        let mut counts = vec![0.0; k];
        for (row, &c) in x.rows().into_iter().zip(y) {
            let mut m = means.row_mut(c);
            m += &row;
            counts[c] += 1.0;
        }
        for (c, &n) in counts.iter().enumerate() {
            if n > 0.0 {
                let mut m = means.row_mut(c);
                m /= n;
            }
        }
        Ok(FittedCentroids { means })
    }
}

impl Predict<f64> for FittedCentroids {
    type Output = Array1<usize>;
    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
        let p = self.predict_proba(x)?;
        Ok(p.rows().into_iter().map(|r| top_b(&r, 1)[0]).collect())
    }
}

impl PredictProba<f64> for FittedCentroids {
    fn predict_proba(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
        check_predict_input(x, self.means.ncols(), "Centroids")?;
        let k = self.means.nrows();
        let mut p = Array2::zeros((x.nrows(), k));
        for (i, row) in x.rows().into_iter().enumerate() {
            let logits: Vec<f64> = (0..k)
                .map(|c| {
                    let diff = &row - &self.means.row(c);
                    -0.5 * diff.dot(&diff)
                })
                .collect();
            let mx = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let z: f64 = logits.iter().map(|l| (l - mx).exp()).sum();
            for c in 0..k {
                p[[i, c]] = (logits[c] - mx).exp() / z;
            }
        }
        Ok(p)
    }
}

/// Two Gaussian blobs in 2-D (unit variance, centres (−1, 0) and (2, 0)); every tenth sample
/// is of the rare class 1.
fn imbalanced_blobs(n: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let mut x = Array2::zeros((n, 2));
    let mut y = Array1::zeros(n);
    for i in 0..n {
        let c = usize::from(i % 10 == 0);
        y[i] = c;
        x[[i, 0]] = if c == 1 { 2.0 } else { -1.0 } + random::standard_normal::<f64>(&mut rng);
        x[[i, 1]] = random::standard_normal::<f64>(&mut rng);
    }
    (x, y)
}

fn proba_rows(raw: Vec<f64>, k: usize) -> Array2<f64> {
    let mut p = Array2::from_shape_vec((raw.len() / k, k), raw).expect("shape");
    for mut r in p.rows_mut() {
        let s = r.sum();
        r /= s;
    }
    p
}

fn ceil_log2(m: usize) -> usize {
    (usize::BITS - (m - 1).leading_zeros()) as usize
}

#[test]
fn uncertainty_sampling_beats_random_sampling_on_imbalanced_blobs() {
    // Measured when this test was written: entropy sampling ends about 2 points of accuracy
    // above random sampling (≈ 0.94 vs 0.92, winning on most seeds): querying near the
    // boundary collects far more labels of the rare class than random draws do, so its
    // centroid (and the boundary) is better estimated. The assertion asks for a quarter of
    // that.
    let (n_seeds, rounds) = (30u64, 40);
    let (mut active, mut passive, mut wins) = (0.0, 0.0, 0);
    for seed in 0..n_seeds {
        let (x, y) = imbalanced_blobs(400, seed);
        let (xt, yt) = imbalanced_blobs(1000, 1000 + seed);
        let first = |c| (0..400).find(|&i| y[i] == c).expect("both classes occur");
        let initial = [first(0), first(1)];
        let run = |s| {
            PoolLearner::default()
                .strategy(s)
                .n_rounds(rounds)
                .seed(seed)
                .run(&Centroids, &x, &initial, |i| y[i], Some((&xt, &yt)))
                .expect("valid")
        };
        let a = run(QueryStrategy::Entropy);
        let r = run(QueryStrategy::Random);
        assert_eq!((a.n_queries(), r.n_queries()), (rounds, rounds));
        let (fa, fr) = (a.accuracy[rounds], r.accuracy[rounds]);
        active += fa / n_seeds as f64;
        passive += fr / n_seeds as f64;
        wins += usize::from(fa > fr);
    }
    assert!(
        active > passive + 0.005,
        "entropy sampling {active:.4} vs random {passive:.4}"
    );
    assert!(
        wins > n_seeds as usize / 2,
        "entropy won on {wins} of {n_seeds} seeds"
    );
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn strategy_scores_in_range_and_permutation_invariant(
        k in 2usize..6,
        raw in proptest::collection::vec(0.01f64..1.0, 60),
        shift in 0usize..5,
    ) {
        let rows = raw.len() / k;
        let p = proba_rows(raw[..rows * k].to_vec(), k);
        // Rotating the class columns changes no score.
        let perm = Array2::from_shape_fn(p.dim(), |(i, j)| p[[i, (j + shift) % k]]);
        let kf = k as f64;
        for s in [QueryStrategy::LeastConfident, QueryStrategy::Margin, QueryStrategy::Entropy] {
            let a = s.scores(&p).expect("valid");
            let b = s.scores(&perm).expect("valid");
            for (x, y) in a.iter().zip(&b) {
                prop_assert!((x - y).abs() < 1e-12);
            }
            let hi = match s {
                QueryStrategy::LeastConfident => 1.0 - 1.0 / kf,
                QueryStrategy::Margin => 1.0,
                _ => kf.ln(),
            };
            prop_assert!(a.iter().all(|&v| (-1e-12..=hi + 1e-12).contains(&v)));
            // The uniform row is the most informative possible.
            let u = Array2::from_elem((1, k), 1.0 / kf);
            let su = s.scores(&u).expect("valid")[0];
            prop_assert!((su - hi).abs() < 1e-12);
        }
        if k == 2 {
            let s = QueryStrategy::Uncertainty.scores(&p).expect("valid");
            prop_assert!(s.iter().all(|&v| (0.0..=0.5).contains(&v)));
        }
    }

    #[test]
    fn threshold_learner_uses_log_queries(n in 1usize..3000, frac in 0.0f64..=1.0) {
        let points: Array1<f64> = (0..n).map(|i| (i as f64).sqrt()).collect();
        let b = ((n as f64) * frac).round() as usize;
        let mut asked = 0;
        let r = learn_threshold(&points, |i| {
            asked += 1;
            i >= b
        }).expect("valid");
        prop_assert_eq!(r.boundary, b);
        prop_assert_eq!(r.queries, asked);
        prop_assert!(r.queries <= ceil_log2(n + 1));
        for i in 0..n {
            prop_assert_eq!(r.predict(points[i]), i >= b);
        }
    }

    #[test]
    fn interval_learner_recovers_the_interval(
        n in 2usize..400,
        a_frac in 0.0f64..1.0,
        len_frac in 0.0f64..0.5,
        seed in any::<u64>(),
    ) {
        let a = ((n as f64) * a_frac) as usize;
        let b = (a + ((n as f64) * len_frac) as usize).min(n - 1);
        let points: Array1<f64> = (0..n).map(|i| i as f64 * 0.25 - 3.0).collect();
        let r = learn_interval(&points, |i| (a..=b).contains(&i), seed).expect("valid");
        prop_assert_eq!(r.positives, Some((a, b)));
        prop_assert_eq!(r.interval, Some((points[a], points[b])));
        prop_assert!(r.queries - r.search_queries <= 2 * ceil_log2(n + 1));
        prop_assert!(r.search_queries <= n - (b - a));
    }

    #[test]
    fn pool_learning_is_deterministic_across_threads(seed in any::<u64>(), batch in 1usize..4) {
        let (x, y) = imbalanced_blobs(120, seed);
        let first = |c| (0..120).find(|&i| y[i] == c).expect("both classes occur");
        let initial = [first(0), first(1)];
        for s in [QueryStrategy::Margin, QueryStrategy::Random] {
            let learner = PoolLearner::default().strategy(s).batch_size(batch).n_rounds(5).seed(seed);
            let go = || learner.run(&Centroids, &x, &initial, |i| y[i], None).expect("valid");
            let a = par::with_threads(1, go).expect("pool");
            let b = par::with_threads(3, go).expect("pool");
            prop_assert_eq!(&a.queries, &b.queries);
            prop_assert_eq!(&a.model, &b.model);
            prop_assert_eq!(a.n_queries(), 5 * batch);
        }
    }
}
