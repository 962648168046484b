//! k-center and the elbow helper: the greedy radius is within twice the optimum (brute force
//! over every set of centres on small inputs), the greedy centres for k are a prefix of those for
//! k + 1, labels are nearest centres, the conformance battery, and the kink of well-separated
//! blobs.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::Array2;
use ndlearn_cluster::{KCenter, elbow};
use ndlearn_core::{FitUnsupervised, Predict};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

fn dist(x: &Array2<f64>, i: usize, j: usize) -> f64 {
    x.row(i)
        .iter()
        .zip(x.row(j))
        .map(|(a, b)| (a - b) * (a - b))
        .sum::<f64>()
        .sqrt()
}

/// The optimal k-center radius with centres among the rows (brute force).
fn optimum(x: &Array2<f64>, k: usize) -> f64 {
    let n = x.nrows();
    let mut best = f64::INFINITY;
    for mask in 0u32..(1 << n) {
        if mask.count_ones() as usize != k {
            continue;
        }
        let r = (0..n)
            .map(|i| {
                (0..n)
                    .filter(|&c| mask & (1 << c) != 0)
                    .map(|c| dist(x, i, c))
                    .fold(f64::INFINITY, f64::min)
            })
            .fold(0.0, f64::max);
        best = best.min(r);
    }
    best
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn greedy_is_a_two_approximation(v in prop::collection::vec(-5.0f64..5.0, 16), k in 1usize..5, seed in 0u64..8) {
        let x = Array2::from_shape_vec((8, 2), v).expect("shape");
        let m = KCenter::new(k).seed(seed).fit(&x).expect("fit");
        prop_assert!(m.radius() <= 2.0 * optimum(&x, k) + 1e-12);
        // the radius is the largest distance to the assigned centre, which is the nearest
        for i in 0..8 {
            let own = dist(&x, i, m.center_rows()[m.labels()[i]]);
            prop_assert!(own <= m.radius() + 1e-12);
            for &c in m.center_rows() {
                prop_assert!(own <= dist(&x, i, c) + 1e-12);
            }
        }
        prop_assert_eq!(m.predict(&x).expect("predict"), m.labels().clone());
        // prefix property and a non-increasing radius
        if k < 8 {
            let more = KCenter::new(k + 1).seed(seed).fit(&x).expect("fit");
            prop_assert_eq!(&more.center_rows()[..k], m.center_rows());
            prop_assert!(more.radius() <= m.radius() + 1e-12);
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn kcenter_conforms() {
    Battery::new("KCenter(3)")
        .clusterer(&KCenter::new(3))
        .assert_ok();
}

#[test]
fn elbow_finds_the_number_of_blobs() {
    let (x, _) = ndlearn_testkit::conformance::benign_classification(30);
    let e = elbow(&x, 1..=6, 0).expect("elbow");
    assert_eq!(e.curve.len(), 6);
    for w in e.curve.windows(2) {
        assert!(
            w[1].1 <= w[0].1 * 1.0001,
            "SSE decreases with k: {:?}",
            e.curve
        );
    }
    assert_eq!(e.kink, Some(3), "{:?}", e.curve);
    assert!(elbow(&x, 0..=2, 0).is_err());
    assert!(KCenter::new(0).fit(&x).is_err());
    assert!(KCenter::new(1000).fit(&x).is_err());
}
