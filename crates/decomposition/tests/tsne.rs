//! t-SNE against scikit-learn (`datasets/golden/decomposition/tsne.json`, written by
//! `scripts/golden/decomposition_tsne.py`): the exact and nearest-neighbour joint affinities,
//! exact runs from a given start (embedding, KL, iterations), and Barnes–Hut runs whose
//! trustworthiness must reach scikit-learn's − 0.01; determinism across thread counts;
//! out-of-sample placement; errors; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, array, s};
use ndlearn_core::distance::Metric;
use ndlearn_core::metrics::trustworthiness;
use ndlearn_core::{Error, FitUnsupervised, Transform, par};
use ndlearn_decomposition::{LearningRate, Tsne, TsneInit, TsneMethod};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Golden, assert_close};

mod common;
use common::data;

#[test]
fn affinities_match_sklearn() {
    let g = Golden::load("decomposition", "tsne");
    let exact = g.case("p_exact_iris_p30");
    let x = data(exact);
    let p = Tsne::new(2)
        .perplexity(exact.scalar("perplexity"))
        .method(TsneMethod::Exact)
        .affinities(&x)
        .expect("P");
    assert_close(&p, &exact.matrix("p"), 1e-9, 1e-15, "exact P");
    assert!((p.sum() - 1.0).abs() < 1e-9);
    let nn = g.case("p_nn_wine_p10");
    let x = data(nn);
    let p = Tsne::new(2)
        .perplexity(nn.scalar("perplexity"))
        .method(TsneMethod::BarnesHut)
        .affinities(&x)
        .expect("P");
    assert_close(&p, &nn.matrix("p"), 1e-9, 1e-15, "nearest-neighbour P");
    assert!((&p - &p.t()).iter().all(|v| v.abs() < 1e-15), "symmetric");
}

#[test]
fn exact_runs_match_sklearn_from_the_same_start() {
    let g = Golden::load("decomposition", "tsne");
    for name in ["exact_wine_std_lr5", "exact_wine_std_lr10"] {
        let case = g.case(name);
        let x = data(case);
        let t = Tsne::new(2)
            .perplexity(case.scalar("perplexity"))
            .early_exaggeration(case.scalar("early_exaggeration"))
            .learning_rate(LearningRate::Fixed(case.scalar("learning_rate")))
            .max_iter(case.usize("max_iter"))
            .method(TsneMethod::Exact)
            .init(TsneInit::Given(case.matrix("y0")))
            .fit(&x)
            .expect("fit");
        assert_eq!(t.n_iter(), case.usize("n_iter"), "{name}");
        let kl = case.scalar("kl_divergence");
        assert!(
            (t.kl_divergence() - kl).abs() < 1e-6 * kl.max(1.0),
            "{name}: {} vs {kl}",
            t.kl_divergence()
        );
        let e = case.matrix("embedding");
        let scale = e.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert_close(t.embedding(), &e, 1e-5, 1e-6 * scale, name);
    }
}

#[test]
fn barnes_hut_trustworthiness_reaches_sklearns() {
    let g = Golden::load("decomposition", "tsne");
    for name in ["bh_digits", "bh_wine_std"] {
        let case = g.case(name);
        let x = data(case);
        let t = Tsne::new(2)
            .method(TsneMethod::BarnesHut)
            .fit(&x)
            .expect("fit");
        let ours = trustworthiness(&x, t.embedding(), 5, &Metric::Euclidean).expect("trust");
        let theirs = case.scalar("trustworthiness");
        assert!(
            ours >= theirs - 0.01,
            "{name}: trustworthiness {ours} vs scikit-learn {theirs}"
        );
        let kl = case.scalar("kl_divergence");
        assert!(
            t.kl_divergence() <= kl + 0.05,
            "{name}: KL {} vs {kl}",
            t.kl_divergence()
        );
    }
}

#[test]
fn same_result_for_any_thread_count_and_barnes_hut_close_to_exact() {
    let x = ndlearn_datasets::by_name("iris").expect("iris").x().clone();
    let est = Tsne::new(2).method(TsneMethod::BarnesHut).max_iter(300);
    let a = par::with_threads(1, || est.fit(&x))
        .expect("pool")
        .expect("fit");
    let b = par::with_threads(2, || est.fit(&x))
        .expect("pool")
        .expect("fit");
    assert_eq!(a.embedding(), b.embedding());
    // angle 0 opens every cell: Barnes–Hut's repulsion is then exact
    let exact = Tsne::new(2)
        .method(TsneMethod::Exact)
        .max_iter(300)
        .fit(&x)
        .expect("exact");
    let bh0 = Tsne::new(2)
        .method(TsneMethod::BarnesHut)
        .angle(0.0)
        .max_iter(300)
        .fit(&x)
        .expect("bh");
    let te = trustworthiness(&x, exact.embedding(), 5, &Metric::Euclidean).expect("t");
    let tb = trustworthiness(&x, bh0.embedding(), 5, &Metric::Euclidean).expect("t");
    assert!(te > 0.97 && tb > 0.97, "{te} {tb}");
}

#[test]
fn new_points_land_near_their_neighbours() {
    let x = ndlearn_datasets::by_name("iris").expect("iris").x().clone();
    let t = Tsne::new(2).perplexity(10.0).fit(&x).expect("fit");
    let e = t.embedding();
    // a new point close to training row 10 goes near row 10's embedding (its own group)
    let z = t
        .transform(&(&x.slice(s![10..11, ..]) + 0.01))
        .expect("transform");
    let d_own = ((z[[0, 0]] - e[[10, 0]]).powi(2) + (z[[0, 1]] - e[[10, 1]]).powi(2)).sqrt();
    let spread = e.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(d_own < 0.2 * spread, "{d_own} vs {spread}");
    assert_eq!(
        t.transform(&x.slice(s![..0, ..])).expect("empty").dim(),
        (0, 2)
    );
}

#[test]
fn errors_are_typed() {
    let x = array![[0.0f64, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 1.0]];
    assert!(
        matches!(Tsne::new(2).fit(&x), Err(Error::InvalidParam { .. })),
        "perplexity ≥ n"
    );
    let ok = Tsne::new(2).perplexity(2.0);
    assert!(matches!(
        ok.clone().max_iter(100).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        ok.clone().angle(1.5).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        Tsne::new(4)
            .perplexity(2.0)
            .method(TsneMethod::BarnesHut)
            .fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        ok.clone()
            .init(TsneInit::Given(Array2::zeros((3, 2))))
            .fit(&x),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        ok.clone().fit(&array![
            [0.0f64, f64::NAN],
            [1.0, 0.5],
            [2.0, 2.0],
            [3.0, 1.0]
        ]),
        Err(Error::NonFinite { .. })
    ));
    let m = ok.fit(&x).expect("fit");
    assert!(matches!(
        m.transform(&array![[0.0, 1.0, 2.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
}

#[cfg(feature = "serde")]
#[test]
fn f32_and_conformance() {
    let x = Array2::from_shape_fn((30, 3), |(i, j)| ((i * 5 + j * 7) % 11) as f32 * 0.3);
    let t = Tsne::new(2).perplexity(5.0).fit(&x).expect("fit");
    assert!(t.embedding().iter().all(|v| v.is_finite()));
    Battery::new("tsne")
        .transformer(&Tsne::new(2).perplexity(5.0).max_iter(250))
        .assert_ok();
}
