//! Property tests of `ndlearn_core::resampling` (few cases: CI has 2 cores).
//!
//! * SMOTE: output shape and class counts (every class grown to the majority); every synthetic
//!   point is recovered, **from the data alone**, as a point of a segment `x_i + u (x_j − x_i)`,
//!   `u ∈ [0, 1)`, between a sample `x_i` of its class and one of the `k` nearest same-class
//!   neighbours `x_j` of `x_i` (checked by collinearity, with the neighbours found by brute
//!   force); the reported parents agree; determinism per seed; thread-count invariance.
//! * Random over-/under-sampling: counts as the strategy asks, every output row a copy of the
//!   original row it names, under-sampling without repeats; `compute_sample_weight(Balanced)`
//!   gives every class the same total weight.

use ndarray::{Array1, Array2, ArrayView1};
use ndlearn_core::par;
use ndlearn_core::random;
use ndlearn_core::resampling::{
    ClassWeight, RandomOverSampler, RandomUnderSampler, Resample, Resampled, SamplingStrategy,
    Smote, compute_sample_weight,
};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// An imbalanced data set: class `c` has `counts[c]` Gaussian points around its own centre,
/// rows shuffled.
fn imbalanced(counts: &[usize], d: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let n: usize = counts.iter().sum();
    let order = random::permutation(&mut rng, n);
    let mut x = Array2::zeros((n, d));
    let mut y = Array1::zeros(n);
    let mut k = 0;
    for (c, &m) in counts.iter().enumerate() {
        for _ in 0..m {
            let row = order[k];
            k += 1;
            y[row] = c;
            for j in 0..d {
                x[[row, j]] = 3.0 * c as f64 + random::standard_normal::<f64>(&mut rng);
            }
        }
    }
    (x, y)
}

fn counts_of(y: &Array1<usize>, k: usize) -> Vec<usize> {
    let mut c = vec![0; k];
    for &v in y {
        c[v] += 1;
    }
    c
}

/// Indices of the `k` nearest rows of the same class as `i` (brute force, ties to the lower
/// index), excluding `i`.
fn knn_same_class(x: &Array2<f64>, y: &Array1<usize>, i: usize, k: usize) -> Vec<usize> {
    let mut d: Vec<(f64, usize)> = (0..x.nrows())
        .filter(|&j| j != i && y[j] == y[i])
        .map(|j| {
            let diff = &x.row(j) - &x.row(i);
            (diff.dot(&diff), j)
        })
        .collect();
    d.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    d.into_iter().take(k).map(|p| p.1).collect()
}

/// `u` with `s = a + u (b − a)` when `s` is on that segment (to rounding), else `None`.
fn on_segment(
    s: ArrayView1<'_, f64>,
    a: ArrayView1<'_, f64>,
    b: ArrayView1<'_, f64>,
) -> Option<f64> {
    let ab = &b - &a;
    let as_ = &s - &a;
    let len2 = ab.dot(&ab);
    if len2 == 0.0 {
        return (as_.dot(&as_) < 1e-24).then_some(0.0);
    }
    let u = as_.dot(&ab) / len2;
    let resid = &as_ - &(&ab * u);
    let tol = 1e-9 * (1.0 + len2.sqrt());
    (resid.dot(&resid).sqrt() <= tol && (-1e-12..1.0 + 1e-12).contains(&u)).then_some(u)
}

fn check_copies(r: &Resampled<f64>, x: &Array2<f64>, y: &Array1<usize>) {
    assert!(r.sample_indices.len() <= r.x.nrows());
    for (k, &i) in r.sample_indices.iter().enumerate() {
        assert_eq!(r.x.row(k), x.row(i));
        assert_eq!(r.y[k], y[i]);
    }
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn smote_points_lie_between_same_class_neighbours(
        counts in proptest::collection::vec(6usize..25, 2..4),
        d in 1usize..4,
        k in 1usize..6,
        seed in any::<u64>(),
    ) {
        let (x, y) = imbalanced(&counts, d, seed);
        let n = x.nrows();
        let smote = Smote::default().k_neighbors(k).seed(seed ^ 0x5eed);
        let r = smote.fit_resample(&x, &y).expect("every class has > k samples");
        let maj = *counts.iter().max().expect("non-empty");
        let kc = counts.len();
        prop_assert_eq!(counts_of(&r.y, kc), vec![maj; kc]);
        prop_assert_eq!(r.x.dim(), (maj * kc, d));
        prop_assert_eq!(r.sample_indices.clone(), (0..n).collect::<Vec<_>>());
        check_copies(&r, &x, &y);
        for s in 0..r.synthetic_parents.len() {
            let row = r.x.row(n + s);
            let c = r.y[n + s];
            // Recover a parent pair from the data alone.
            let found = (0..n).filter(|&i| y[i] == c).any(|i| {
                knn_same_class(&x, &y, i, k)
                    .into_iter()
                    .any(|j| on_segment(row, x.row(i), x.row(j)).is_some())
            });
            prop_assert!(found, "synthetic row {} is on no neighbour segment", s);
            // The reported parents are such a pair.
            let (i, j) = r.synthetic_parents[s];
            prop_assert_eq!((y[i], y[j]), (c, c));
            prop_assert!(knn_same_class(&x, &y, i, k).contains(&j));
            prop_assert!(on_segment(row, x.row(i), x.row(j)).is_some());
        }
        // Determinism and thread-count invariance (bitwise).
        let again = smote.fit_resample(&x, &y).expect("valid");
        prop_assert_eq!(&again, &r);
        let t1 = par::with_threads(1, || smote.fit_resample(&x, &y)).expect("pool").expect("valid");
        let t3 = par::with_threads(3, || smote.fit_resample(&x, &y)).expect("pool").expect("valid");
        prop_assert_eq!(&t1, &r);
        prop_assert_eq!(&t3, &r);
    }

    #[test]
    fn random_samplers_respect_the_strategy(
        counts in proptest::collection::vec(1usize..30, 2..5),
        seed in any::<u64>(),
        replacement in any::<bool>(),
    ) {
        let (x, y) = imbalanced(&counts, 2, seed);
        let kc = counts.len();
        let (maj, min) = (
            *counts.iter().max().expect("non-empty"),
            *counts.iter().min().expect("non-empty"),
        );
        let over = RandomOverSampler::default().seed(seed).fit_resample(&x, &y).expect("valid");
        prop_assert_eq!(counts_of(&over.y, kc), vec![maj; kc]);
        check_copies(&over, &x, &y);
        prop_assert_eq!(over.sample_indices.len(), over.x.nrows());
        let under = RandomUnderSampler::default()
            .replacement(replacement)
            .seed(seed)
            .fit_resample(&x, &y)
            .expect("valid");
        prop_assert_eq!(counts_of(&under.y, kc), vec![min; kc]);
        check_copies(&under, &x, &y);
        prop_assert!(under.sample_indices.windows(2).all(|w| w[0] <= w[1]));
        if !replacement {
            prop_assert!(under.sample_indices.windows(2).all(|w| w[0] < w[1]));
        }
        // The minority class is never touched by the default under-sampler.
        let minority = counts.iter().position(|&c| c == min).expect("exists");
        let kept: Vec<usize> = under.sample_indices.iter().copied().filter(|&i| y[i] == minority).collect();
        let all: Vec<usize> = (0..y.len()).filter(|&i| y[i] == minority).collect();
        prop_assert_eq!(kept, all);
        // Counts strategy: grow class 0 by 3.
        let map = [(0usize, counts[0] + 3)].into_iter().collect();
        let r = RandomOverSampler::default()
            .sampling_strategy(SamplingStrategy::Counts(map))
            .fit_resample(&x, &y)
            .expect("valid");
        let mut want = counts.clone();
        want[0] += 3;
        prop_assert_eq!(counts_of(&r.y, kc), want);
    }

    #[test]
    fn balanced_weights_equalise_class_totals(
        counts in proptest::collection::vec(1usize..40, 2..6),
        seed in any::<u64>(),
    ) {
        let (_, y) = imbalanced(&counts, 1, seed);
        let w: Array1<f64> = compute_sample_weight(&ClassWeight::Balanced, &y, None).expect("valid");
        let n = y.len() as f64;
        let kc = counts.len() as f64;
        for c in 0..counts.len() {
            let total: f64 = w.iter().zip(&y).filter(|(_, l)| **l == c).map(|(v, _)| v).sum();
            prop_assert!((total - n / kc).abs() < 1e-9 * n);
        }
        prop_assert!((w.sum() - n).abs() < 1e-9 * n);
    }
}
