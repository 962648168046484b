//! Bisecting k-means against scikit-learn (`datasets/golden/cluster/bisecting.json`, written by
//! `scripts/golden/cluster_bisecting.py`: mean inertia over ten seeds within 2 %), fuzzy
//! c-means (the notes' two-cluster membership formula, SSE monotonicity, limits of the
//! fuzzifier) and k-modes (modes and mismatch cost by hand); conformance and input errors for
//! all three.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

mod common;

use ndarray::{Array2, array};
use ndlearn_cluster::{BisectStrategy, BisectingKMeans, FuzzyCMeans, KMeans, KMeansInit, KModes};
use ndlearn_core::{FitUnsupervised, Predict, random};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Golden, same_partition};

#[test]
fn bisecting_inertia_matches_sklearn_over_seeds() {
    let g = Golden::load("cluster", "bisecting");
    assert_eq!(g.cases().len(), 8);
    for case in g.cases() {
        let x = common::data(case);
        let k = case.usize("k");
        let strategy = match case.string("strategy") {
            "biggest_inertia" => BisectStrategy::BiggestInertia,
            _ => BisectStrategy::LargestCluster,
        };
        let theirs = case.vector("inertias").mean().expect("seeds");
        let ours: f64 = (0..10u64)
            .map(|s| {
                let m = BisectingKMeans::new(k)
                    .strategy(strategy)
                    .seed(s)
                    .fit(&x)
                    .expect("fit");
                // labels and inertia agree with the leaf centres
                let c = m.centers();
                let direct: f64 = (0..x.nrows())
                    .map(|i| {
                        let l = m.labels()[i];
                        x.row(i)
                            .iter()
                            .zip(c.row(l))
                            .map(|(a, b)| (a - b) * (a - b))
                            .sum::<f64>()
                    })
                    .sum();
                assert!((direct - m.inertia()).abs() <= 1e-9 * direct.max(1.0));
                m.inertia()
            })
            .sum::<f64>()
            / 10.0;
        assert!(
            ours <= theirs * 1.02,
            "{}: {ours} vs scikit-learn {theirs}",
            case.name()
        );
    }
}

#[test]
fn bisecting_tree_prediction_and_errors() {
    let g = Golden::load("cluster", "bisecting");
    let x = common::data(g.case("blobs_k4_biggest_inertia"));
    let m = BisectingKMeans::new(4)
        .n_init(3)
        .seed(2)
        .fit(&x)
        .expect("fit");
    let p = m.predict(&x).expect("predict");
    let agree = p.iter().zip(m.labels()).filter(|(a, b)| a == b).count();
    assert!(
        agree as f64 >= 0.97 * x.nrows() as f64,
        "tree descent vs bisection labels: {agree}"
    );
    let pp = BisectingKMeans::new(4)
        .init(KMeansInit::KMeansPlusPlus)
        .fit(&x)
        .expect("fit");
    assert_eq!(pp.centers().nrows(), 4);
    let tiny = array![[0.0f64], [1.0]];
    assert!(BisectingKMeans::new(3).fit(&tiny).is_err());
    assert!(BisectingKMeans::new(0).fit(&tiny).is_err());
    assert!(BisectingKMeans::new(2).n_init(0).fit(&tiny).is_err());
    assert!(
        BisectingKMeans::new(2)
            .fit(&tiny)
            .expect("fit")
            .predict(&array![[1.0f64, 2.0]])
            .is_err()
    );
}

#[test]
fn fuzzy_c_means_follows_the_notes() {
    let mut rng = random::rng(4);
    let x = Array2::from_shape_fn((120, 2), |(i, _)| {
        (if i < 60 { 0.0 } else { 4.0 }) + random::standard_normal::<f64>(&mut rng)
    });
    let m = FuzzyCMeans::new(2).seed(3).fit(&x).expect("fit");
    assert!(m.converged());
    // two clusters, p = 2: membership in c1 = d(o, c2)² / (d(o, c1)² + d(o, c2)²) (001 L811)
    let c = m.centers();
    let u = m.memberships();
    for i in 0..x.nrows() {
        let d1: f64 = x
            .row(i)
            .iter()
            .zip(c.row(0))
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
        let d2: f64 = x
            .row(i)
            .iter()
            .zip(c.row(1))
            .map(|(a, b)| (a - b) * (a - b))
            .sum();
        assert!((u[[i, 0]] - d2 / (d1 + d2)).abs() < 1e-10);
        assert!((u.row(i).sum() - 1.0).abs() < 1e-12);
    }
    for h in m.sse_history().windows(2) {
        assert!(h[1] <= h[0] + 1e-9, "SSE rose: {} -> {}", h[0], h[1]);
    }
    // hard labels agree with k-means on well separated data
    let km = KMeans::new(2).fit(&x).expect("fit");
    let p = m.predict(&x).expect("predict");
    assert!(same_partition(
        p.as_slice().expect("contiguous"),
        km.labels().as_slice().expect("contiguous")
    ));
    // a large fuzzifier flattens the memberships towards 1/c
    let flat = FuzzyCMeans::new(2)
        .fuzzifier(30.0)
        .seed(3)
        .fit(&x)
        .expect("fit");
    assert!(flat.memberships().iter().all(|&v| (v - 0.5).abs() < 0.1));
    // a row on a centre belongs to it entirely
    let on = m
        .membership(&c.slice(ndarray::s![0..1, ..]))
        .expect("membership");
    assert!((on[[0, 0]] - 1.0).abs() < 1e-12);
    assert!(FuzzyCMeans::new(2).fuzzifier(1.0).fit(&x).is_err());
    assert!(FuzzyCMeans::new(0).fit(&x).is_err());
    assert!(FuzzyCMeans::new(2).max_iter(0).fit(&x).is_err());
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
}

#[test]
fn k_modes_by_hand() {
    // two groups of categorical rows, one noisy feature each
    let x = array![
        [0.0f64, 0.0, 1.0],
        [0.0, 0.0, 0.0],
        [0.0, 0.0, 1.0],
        [0.0, 0.0, 1.0],
        [2.0, 1.0, 2.0],
        [2.0, 1.0, 2.0],
        [1.0, 1.0, 2.0],
        [2.0, 1.0, 3.0]
    ];
    let m = KModes::new(2).fit(&x).expect("fit");
    assert_eq!(m.cost(), 3.0);
    let (a, b) = (m.labels()[0], m.labels()[4]);
    assert_ne!(a, b);
    assert_eq!(m.modes().row(a).to_vec(), vec![0.0, 0.0, 1.0]);
    assert_eq!(m.modes().row(b).to_vec(), vec![2.0, 1.0, 2.0]);
    assert_eq!(m.predict(&array![[2.0, 0.0, 2.0]]).expect("predict")[0], b);
    // ties between categories go to the smaller code
    let tie = array![[1.0f64], [3.0]];
    assert_eq!(KModes::new(1).fit(&tie).expect("fit").modes()[[0, 0]], 1.0);
    assert!(KModes::new(0).fit(&x).is_err());
    assert!(KModes::new(9).fit(&x).is_err());
    assert!(KModes::new(2).n_init(0).fit(&x).is_err());
    assert!(m.predict(&array![[1.0f64]]).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn more_clusterers_conform() {
    Battery::new("bisecting_kmeans")
        .clusterer(&BisectingKMeans::new(3))
        .assert_ok();
    Battery::new("fuzzy_cmeans")
        .clusterer(&FuzzyCMeans::new(3))
        .assert_ok();
    Battery::new("kmodes")
        .clusterer(&KModes::new(3))
        .assert_ok();
}

#[test]
fn kmeans_from_a_hierarchical_sample() {
    let g = Golden::load("cluster", "bisecting");
    let x = common::data(g.case("blobs_k4_biggest_inertia"));
    let best = KMeans::new(4)
        .n_init(Some(10))
        .fit(&x)
        .expect("fit")
        .inertia();
    for seed in 0..5 {
        let h = KMeans::new(4)
            .init(KMeansInit::Hierarchical { sample_size: 100 })
            .seed(seed)
            .fit(&x)
            .expect("fit");
        assert!(
            h.inertia() <= best * 1.01,
            "seed {seed}: {} vs {best}",
            h.inertia()
        );
    }
    // a sample as large as the data: Ward on everything, the same start for every seed
    let a = KMeans::new(4)
        .init(KMeansInit::Hierarchical {
            sample_size: 10_000,
        })
        .seed(1)
        .fit(&x)
        .expect("fit");
    let b = KMeans::new(4)
        .init(KMeansInit::Hierarchical {
            sample_size: 10_000,
        })
        .seed(2)
        .fit(&x)
        .expect("fit");
    assert_eq!(a.centers(), b.centers());
}
