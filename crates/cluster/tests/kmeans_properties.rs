//! KMeans properties: the inertia never increases across Lloyd rounds, the reported inertia
//! is the sum of squared distances to the assigned centres, labels agree with `predict`, a
//! restart set contains its best member, and relabelling the rows permutes nothing but the
//! order (given centres).
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, Axis};
use ndlearn_cluster::{KMeans, KMeansInit};
use ndlearn_core::{FitUnsupervised, Predict};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

fn points() -> impl Strategy<Value = Array2<f64>> {
    (12usize..80, 1usize..4).prop_flat_map(|(n, d)| {
        prop::collection::vec(-5.0f64..5.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(config(24))]

    #[test]
    fn lloyd_decreases_inertia_and_is_consistent(x in points(), k in 1usize..6, seed in 0u64..50) {
        let k = k.min(x.nrows());
        let m = KMeans::new(k).seed(seed).fit(&x).expect("fit");
        let h = m.inertia_history();
        for w in h.windows(2) {
            prop_assert!(w[1] <= w[0] * (1.0 + 1e-12) + 1e-12, "{:?}", h);
        }
        prop_assert!(m.inertia() <= h[0] * (1.0 + 1e-12) + 1e-12);
        // inertia = Σ ‖x − μ_label‖², labels = predict
        let labels = m.labels();
        prop_assert_eq!(labels, &m.predict(&x).expect("predict"));
        let direct: f64 = x.rows().into_iter().zip(labels).map(|(r, &c)| {
            r.iter().zip(m.centers().row(c)).map(|(a, b)| (a - b) * (a - b)).sum::<f64>()
        }).sum();
        prop_assert!((direct - m.inertia()).abs() <= 1e-9 * direct.max(1.0));
        // the best of 4 restarts is no worse than restart 0 alone
        let many = KMeans::new(k).seed(seed).n_init(Some(4)).fit(&x).expect("fit");
        prop_assert!(many.inertia() <= m.inertia() + 1e-9 * m.inertia().max(1.0));
    }

    #[test]
    fn row_order_does_not_matter_from_given_centres(x in points(), rot in 1usize..11) {
        let n = x.nrows();
        let k = 3.min(n);
        let init = x.select(Axis(0), &(0..k).collect::<Vec<_>>());
        let perm: Vec<usize> = (0..n).map(|i| (i + rot) % n).collect();
        let xp = x.select(Axis(0), &perm);
        let a = KMeans::new(k).init(KMeansInit::Centers(init.clone())).fit(&x).expect("a");
        let b = KMeans::new(k).init(KMeansInit::Centers(init)).fit(&xp).expect("b");
        for (i, &p) in perm.iter().enumerate() {
            prop_assert_eq!(b.labels()[i], a.labels()[p]);
        }
        for (u, v) in a.centers().iter().zip(b.centers().iter()) {
            prop_assert!((u - v).abs() <= 1e-9 * u.abs().max(1.0));
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn kmeans_conforms() {
    Battery::new("KMeans(3)")
        .clusterer(&KMeans::new(3))
        .assert_ok();
    Battery::new("KMeans(3, random, 4 restarts)")
        .clusterer(&KMeans::new(3).init(KMeansInit::Random).n_init(Some(4)))
        .assert_ok();
}

#[test]
fn typed_errors() {
    let x = ndarray::array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(KMeans::new(0).fit(&x).is_err());
    assert!(KMeans::new(4).fit(&x).is_err(), "k > n");
    assert!(KMeans::new(2).max_iter(0).fit(&x).is_err());
    assert!(KMeans::new(2).n_init(Some(0)).fit(&x).is_err());
    assert!(
        KMeans::new(2)
            .init(KMeansInit::Centers(ndarray::array![[0.0, 0.0]]))
            .fit(&x)
            .is_err(),
        "wrong centre count"
    );
    let m = KMeans::new(2).fit(&x).expect("fit");
    assert!(m.predict(&ndarray::array![[0.0, 1.0, 2.0]]).is_err());
    // duplicate rows: k equal to the number of distinct points still works
    let dup = ndarray::array![[1.0f64, 1.0], [1.0, 1.0], [1.0, 1.0], [5.0, 5.0]];
    let m = KMeans::new(2).fit(&dup).expect("fit");
    assert!(m.inertia().abs() < 1e-12);
}

/// Catalog E24: the boundary between two centres is
/// `(μ₁ − μ₂)·x − (‖μ₁‖² − ‖μ₂‖²)/2 = 0` (the notes print `+`); a point on it goes to the lower
/// centre, points on either side to their own.
#[test]
fn two_centre_boundary_is_the_corrected_hyperplane() {
    let centres = ndarray::array![[0.0f64, 0.0], [4.0, 2.0]];
    let x = ndarray::array![[0.0f64, 0.0], [4.0, 2.0], [1.0, 1.0], [3.0, 1.0]];
    let m = KMeans::new(2)
        .init(KMeansInit::Centers(centres.clone()))
        .max_iter(1)
        .fit(&x)
        .expect("fit");
    let (mu1, mu2) = (m.centers().row(0).to_owned(), m.centers().row(1).to_owned());
    let w = &mu1 - &mu2;
    let b = (mu1.dot(&mu1) - mu2.dot(&mu2)) / 2.0;
    // a point exactly on the boundary: the midpoint of the centres
    let mid = (&mu1 + &mu2) / 2.0;
    assert!((w.dot(&mid) - b).abs() < 1e-12);
    let on = mid.clone().insert_axis(Axis(0));
    assert_eq!(
        m.predict(&on).expect("predict")[0],
        0,
        "ties to the lower centre"
    );
    let normal = &w / w.dot(&w).sqrt();
    let side1 = (&mid + &(&normal * 0.1)).insert_axis(Axis(0));
    let side2 = (&mid - &(&normal * 0.1)).insert_axis(Axis(0));
    assert_eq!(m.predict(&side1).expect("predict")[0], 0);
    assert_eq!(m.predict(&side2).expect("predict")[0], 1);
    assert!(w.dot(&side1.row(0)) - b > 0.0 && w.dot(&side2.row(0)) - b < 0.0);
}

/// Each Lloyd round is reported to an installed observer, which can stop the fit.
#[test]
fn an_observer_sees_every_round_and_can_stop() {
    use ndlearn_core::observe::{self, Control, Observer, Progress};
    use std::sync::{Arc, Mutex};

    struct StopAt(usize, Mutex<Vec<(usize, f64)>>);
    impl Observer for StopAt {
        fn observe(&self, p: &Progress<'_>) -> Control {
            if let Ok(mut v) = self.1.lock() {
                v.push((p.iteration, p.objective.unwrap_or(f64::NAN)));
            }
            if p.iteration >= self.0 {
                Control::Stop
            } else {
                Control::Continue
            }
        }
    }
    // iris from three setosa rows: several rounds
    let x = ndlearn_datasets::iris().x().clone();
    let init = x.select(Axis(0), &[0, 1, 2]);
    let est = KMeans::new(3).init(KMeansInit::Centers(init)).tol(0.0);
    let full = est.fit(&x).expect("fit");
    let log = Arc::new(StopAt(usize::MAX, Mutex::new(Vec::new())));
    let again = observe::with_observer(log.clone(), || est.fit(&x).expect("fit"));
    let seen = log.1.lock().expect("lock").clone();
    assert_eq!(seen.len(), full.n_iter(), "one report per round");
    assert_eq!(
        again.centers(),
        full.centers(),
        "a logging observer changes nothing"
    );
    // the objective is the inertia history
    for ((_, o), h) in seen.iter().zip(full.inertia_history()) {
        assert_eq!(o, h);
    }
    assert!(full.n_iter() > 2, "{} rounds", full.n_iter());
    {
        let stop = Arc::new(StopAt(2, Mutex::new(Vec::new())));
        let early = observe::with_observer(stop, || est.fit(&x).expect("fit"));
        assert_eq!(early.n_iter(), 2);
        assert!(!early.converged());
    }
}

#[test]
fn hamerly_runs_the_same_rounds_as_lloyd() {
    use ndlearn_cluster::KMeansAlgorithm;
    for seed in 0..6u64 {
        let mut rng = ndlearn_core::random::rng(100 + seed);
        let (n, d, k) = (
            400 + 50 * seed as usize,
            2 + seed as usize,
            3 + seed as usize % 4,
        );
        let x = ndarray::Array2::from_shape_fn((n, d), |(i, _)| {
            (i % k) as f64 * 1.5 + ndlearn_core::random::standard_normal::<f64>(&mut rng)
        });
        let lloyd = KMeans::new(k)
            .seed(seed)
            .algorithm(KMeansAlgorithm::Lloyd)
            .fit(&x)
            .expect("lloyd");
        let ham = KMeans::new(k)
            .seed(seed)
            .algorithm(KMeansAlgorithm::Hamerly)
            .fit(&x)
            .expect("hamerly");
        assert_eq!(lloyd.labels(), ham.labels(), "seed {seed}");
        assert_eq!(lloyd.n_iter(), ham.n_iter(), "seed {seed}");
        ndlearn_testkit::assert_close(ham.centers(), lloyd.centers(), 1e-12, 1e-12, "centres");
        assert!((lloyd.inertia() - ham.inertia()).abs() <= 1e-10 * lloyd.inertia());
        let (a, b) = (lloyd.inertia_history(), ham.inertia_history());
        assert_eq!(a.len(), b.len());
        for (u, v) in a.iter().zip(b) {
            assert!((u - v).abs() <= 1e-9 * u, "history {u} vs {v}");
        }
    }
}
