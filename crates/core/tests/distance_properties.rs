//! Property tests of `ndlearn_core::distance` (few cases: CI has 2 cores).
//!
//! DTW against an exhaustive enumeration of all admissible warping paths; DTW(x, x) = 0,
//! symmetry, an infinite window equals no window; metric axioms; pairwise == single-pair;
//! Gower in [0, 1]; 1 thread == 2 threads bitwise.

use ndarray::{Array1, Array2};
use ndlearn_core::distance::{
    Dtw, DtwKind, FeatureKind, LocalCost, Metric, MixedDissimilarity, pairwise_distances,
};
use ndlearn_core::par;
use proptest::prelude::*;
use proptest::test_runner::Config;

fn series(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec(-5.0f64..5.0, len)
}

fn small_int_series(len: std::ops::Range<usize>) -> impl Strategy<Value = Vec<f64>> {
    prop::collection::vec((0i32..4).prop_map(f64::from), len)
}

/// Minimum path cost by enumerating every admissible warping path (independent of the DP).
fn dtw_reference(x: &[f64], y: &[f64], dtw: &Dtw) -> Option<f64> {
    let (m, n) = (x.len(), y.len());
    let band = dtw.window.map(|w| w.max(m.abs_diff(n)));
    let ok = |i: usize, j: usize| band.is_none_or(|w| i.abs_diff(j) <= w);
    let cost = |i: usize, j: usize| match dtw.cost {
        LocalCost::Absolute => (x[i] - y[j]).abs(),
        LocalCost::Squared => (x[i] - y[j]).powi(2),
        _ => unreachable!("all local costs covered"),
    };
    let steps: [(usize, usize); 3] = match dtw.kind {
        DtwKind::Type1 => [(1, 1), (2, 1), (1, 2)],
        _ => [(1, 1), (1, 0), (0, 1)],
    };
    let mut best: Option<f64> = None;
    // Explicit DFS with a stack of (i, j, cost so far).
    if !ok(0, 0) {
        return None;
    }
    let mut stack = vec![(0usize, 0usize, cost(0, 0))];
    while let Some((i, j, acc)) = stack.pop() {
        if (i, j) == (m - 1, n - 1) {
            best = Some(best.map_or(acc, |b: f64| b.min(acc)));
            continue;
        }
        for &(di, dj) in &steps {
            let (ni, nj) = (i + di, j + dj);
            if ni < m && nj < n && ok(ni, nj) {
                let pen = if (di, dj) == (1, 1) {
                    dtw.diagonal_penalty
                } else {
                    dtw.off_diagonal_penalty
                };
                stack.push((ni, nj, acc + pen + cost(ni, nj)));
            }
        }
    }
    best
}

fn dtw_strategy() -> impl Strategy<Value = Dtw> {
    (
        prop::bool::ANY,
        prop::bool::ANY,
        prop::option::of(0usize..4),
        prop::sample::select(vec![0.0, 0.5, 2.0]),
        prop::sample::select(vec![0.0, 0.25, 1.0]),
    )
        .prop_map(|(t1, sq, window, dp, op)| {
            Dtw::default()
                .kind(if t1 { DtwKind::Type1 } else { DtwKind::Type2 })
                .cost(if sq {
                    LocalCost::Squared
                } else {
                    LocalCost::Absolute
                })
                .window(window)
                .diagonal_penalty(dp)
                .off_diagonal_penalty(op)
        })
}

proptest! {
    #![proptest_config(Config::with_cases(16))]

    #[test]
    fn dtw_equals_exhaustive_reference(x in series(1..7), y in series(1..7), dtw in dtw_strategy()) {
        let (xa, ya) = (Array1::from(x.clone()), Array1::from(y.clone()));
        match (dtw_reference(&x, &y, &dtw), dtw.distance_with_path(&xa, &ya)) {
            (Some(want), Ok(got)) => {
                prop_assert!((got.distance - want).abs() <= 1e-12 * want.max(1.0), "{} vs {}", got.distance, want);
                // The path is admissible and its cost is the distance.
                let p = &got.path;
                prop_assert_eq!(p[0], (0, 0));
                prop_assert_eq!(*p.last().expect("non-empty"), (x.len() - 1, y.len() - 1));
                let mut total = 0.0;
                for (t, &(i, j)) in p.iter().enumerate() {
                    total += match dtw.cost { LocalCost::Squared => (x[i] - y[j]).powi(2), _ => (x[i] - y[j]).abs() };
                    if t > 0 {
                        let (pi, pj) = p[t - 1];
                        let step = (i - pi, j - pj);
                        total += if step == (1, 1) { dtw.diagonal_penalty } else { dtw.off_diagonal_penalty };
                    }
                }
                prop_assert!((total - got.distance).abs() <= 1e-12 * total.max(1.0));
            }
            (None, Err(_)) => {}
            (want, got) => prop_assert!(false, "reference {want:?} but got {got:?}"),
        }
    }

    #[test]
    fn dtw_self_zero_symmetric_and_window(x in small_int_series(1..12), y in small_int_series(1..12), eta in 0.0f64..2.0) {
        let (xa, ya) = (Array1::from(x), Array1::from(y));
        for dtw in [Dtw::type1(eta), Dtw::type2(0.0).off_diagonal_penalty(eta), Dtw::default().cost(LocalCost::Squared)] {
            prop_assert_eq!(dtw.distance(&xa, &xa).expect("equal lengths are admissible"), 0.0);
            let xy = dtw.distance(&xa, &ya);
            let yx = dtw.distance(&ya, &xa);
            match (xy, yx) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a, b);
                    let wide = dtw.clone().window(Some(usize::MAX)).distance(&xa, &ya).expect("same as free");
                    prop_assert_eq!(wide, a);
                    // A window can only increase the cost.
                    if let Ok(c) = dtw.clone().window(Some(1)).distance(&xa, &ya) {
                        prop_assert!(c >= a);
                    }
                }
                (Err(_), Err(_)) => {}
                (a, b) => prop_assert!(false, "asymmetric admissibility {a:?} {b:?}"),
            }
        }
    }

    #[test]
    fn metric_axioms(pts in prop::collection::vec(prop::collection::vec(-10.0f64..10.0, 4), 3), p in 1.0f64..6.0) {
        let a = Array1::from(pts[0].clone());
        let b = Array1::from(pts[1].clone());
        let c = Array1::from(pts[2].clone());
        let vi = {
            let l = Array2::from_shape_fn((4, 4), |(i, j)| if j <= i { 1.0 + (i + 2 * j) as f64 * 0.25 } else { 0.0 });
            l.dot(&l.t())
        };
        for m in [Metric::Euclidean, Metric::Manhattan, Metric::Chebyshev, Metric::Minkowski { p }, Metric::Mahalanobis { vi }, Metric::Hamming] {
            m.validate().expect("valid metric");
            let (ab, bc, ac) = (m.distance(&a, &b), m.distance(&b, &c), m.distance(&a, &c));
            prop_assert_eq!(m.distance(&a, &a), 0.0);
            prop_assert_eq!(ab, m.distance(&b, &a));
            prop_assert!(ab >= 0.0);
            prop_assert!(ac <= (ab + bc) * (1.0 + 1e-12) + 1e-12, "{m:?}: {ac} > {ab} + {bc}");
        }
        // Minkowski is monotone non-increasing in p and lies between L∞ and L1.
        let lp = Metric::Minkowski { p }.distance(&a, &b);
        prop_assert!(lp <= Metric::Manhattan.distance(&a, &b) * (1.0 + 1e-12));
        prop_assert!(lp >= Metric::Chebyshev.distance(&a, &b) * (1.0 - 1e-12));
        let cos = Metric::Cosine.distance(&a, &b);
        prop_assert!((0.0..=2.0).contains(&cos));
    }

    #[test]
    fn pairwise_equals_single_pair_and_is_thread_invariant(
        x in prop::collection::vec(-3.0f64..3.0, 6 * 4),
        y in prop::collection::vec(-3.0f64..3.0, 5 * 4),
    ) {
        let x = Array2::from_shape_vec((6, 4), x).expect("6 x 4");
        let y = Array2::from_shape_vec((5, 4), y).expect("5 x 4");
        for m in [Metric::Euclidean, Metric::SqEuclidean, Metric::Cosine, Metric::Manhattan, Metric::Minkowski { p: 3.0 }, Metric::Jaccard] {
            let d = pairwise_distances(&x, &y, &m).expect("valid");
            for i in 0..6 {
                for j in 0..5 {
                    let s = m.distance(&x.row(i), &y.row(j));
                    prop_assert!((d[[i, j]] - s).abs() <= 1e-11 * s.abs().max(1.0), "{m:?} {i} {j}");
                }
            }
            let one = par::with_threads(1, || pairwise_distances(&x, &y, &m)).expect("pool").expect("valid");
            let two = par::with_threads(2, || pairwise_distances(&x, &y, &m)).expect("pool").expect("valid");
            prop_assert_eq!(one, two);
        }
    }

    #[test]
    fn gower_is_a_symmetric_dissimilarity_in_unit_interval(
        rows in prop::collection::vec((0.0f64..10.0, 0u8..3, 1u8..5, 0u8..2, prop::bool::ANY), 2..8),
    ) {
        let x = Array2::from_shape_fn((rows.len(), 4), |(i, j)| {
            let r = rows[i];
            match j {
                0 => if r.4 { f64::NAN } else { r.0 },
                1 => f64::from(r.1),
                2 => f64::from(r.2),
                _ => f64::from(r.3),
            }
        });
        let g = MixedDissimilarity::new(vec![
            FeatureKind::Numeric { range: 1.0 },
            FeatureKind::Nominal,
            FeatureKind::Ordinal { levels: 4 },
            FeatureKind::Binary { asymmetric: false },
        ])
        .weights(vec![1.0, 2.0, 0.5, 1.0])
        .fit_ranges(&x)
        .expect("shape ok");
        let d = g.pairwise(&x, &x).expect("symmetric binary keeps a comparable feature");
        for i in 0..x.nrows() {
            prop_assert_eq!(d[[i, i]], 0.0);
            for j in 0..x.nrows() {
                prop_assert!((0.0..=1.0).contains(&d[[i, j]]));
                prop_assert_eq!(d[[i, j]], d[[j, i]]);
            }
        }
    }
}
