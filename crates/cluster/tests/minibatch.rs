//! MiniBatchKMeans against scikit-learn (`datasets/golden/cluster/minibatch.json`, written by
//! `scripts/golden/cluster_minibatch.py`): the mean final inertia over ten seeds is no worse than
//! scikit-learn's (within 2 %) and never below the full k-means optimum; plus streaming with
//! `partial_fit`, determinism, the conformance battery and the input errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

mod common;

use ndarray::{Axis, array};
use ndlearn_cluster::{KMeans, KMeansInit, MiniBatchKMeans};
use ndlearn_core::{FitUnsupervised, PartialFit, Predict, Transform};
use ndlearn_testkit::Golden;
use ndlearn_testkit::conformance::Battery;

#[test]
fn inertia_matches_sklearn_over_seeds() {
    let g = Golden::load("cluster", "minibatch");
    for case in g.cases() {
        let x = common::data(case);
        let k = case.usize("k");
        let theirs = case.vector("inertias").mean().expect("seeds");
        let full = case.scalar("full_inertia");
        let ours: Vec<f64> = (0..10u64)
            .map(|s| {
                MiniBatchKMeans::new(k)
                    .batch_size(case.usize("batch_size"))
                    .seed(s)
                    .fit(&x)
                    .expect("fit")
                    .inertia()
            })
            .collect();
        let mean = ours.iter().sum::<f64>() / ours.len() as f64;
        assert!(
            mean <= theirs * 1.02,
            "{}: mean inertia {mean} vs scikit-learn {theirs}",
            case.name()
        );
        for v in &ours {
            assert!(
                *v >= full * (1.0 - 1e-9),
                "{}: below the optimum",
                case.name()
            );
        }
    }
}

#[test]
fn streaming_determinism_and_consistency() {
    let g = Golden::load("cluster", "minibatch");
    let x = common::data(g.case("blobs_k4"));
    let est = MiniBatchKMeans::new(4).batch_size(64).seed(9);
    let a = est.fit(&x).expect("fit");
    let b = est.fit(&x).expect("fit");
    assert_eq!(a, b, "same seed, same result");
    assert_eq!(a.predict(&x).expect("predict"), a.labels().clone());
    let dist = a.transform(&x).expect("transform");
    for (i, row) in dist.rows().into_iter().enumerate() {
        let best = (0..4)
            .min_by(|&p, &q| row[p].total_cmp(&row[q]))
            .expect("k > 0");
        assert_eq!(best, a.labels()[i]);
    }
    assert!(a.counts().iter().all(|&c| c > 0.0));
    assert!(a.n_steps() >= 2 && a.n_iter() >= 1);
    // streaming: 600 rows in batches of 50, three passes
    let mut model = None;
    for _ in 0..3 {
        for piece in x.axis_chunks_iter(Axis(0), 50) {
            model = Some(est.partial_fit(model, &piece, &()).expect("partial_fit"));
        }
    }
    let model = model.expect("batches");
    assert_eq!(model.n_steps(), 36);
    let full = KMeans::new(4).n_init(Some(5)).fit(&x).expect("fit");
    let optimum = full.inertia_of(&x).expect("inertia");
    let mb = {
        let labels = model.predict(&x).expect("predict");
        (0..x.nrows())
            .map(|i| {
                let c = model.centers().row(labels[i]);
                x.row(i)
                    .iter()
                    .zip(c)
                    .map(|(a, b)| (a - b) * (a - b))
                    .sum::<f64>()
            })
            .sum::<f64>()
    };
    // (scikit-learn's own mini-batch fits average 1.22x the optimum on these blobs)
    assert!(
        mb <= optimum * 1.1,
        "streamed inertia {mb} vs k-means {optimum}"
    );
    // given centres skip the initialisation
    let given = MiniBatchKMeans::new(2)
        .init(KMeansInit::Centers(array![[0.0, 0.0], [5.0, 5.0]]))
        .fit(&x)
        .expect("fit");
    assert_eq!(given.centers().nrows(), 2);
}

#[test]
fn bad_input_is_a_typed_error() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(MiniBatchKMeans::new(0).fit(&x).is_err());
    assert!(MiniBatchKMeans::new(4).fit(&x).is_err());
    assert!(MiniBatchKMeans::new(2).batch_size(0).fit(&x).is_err());
    assert!(MiniBatchKMeans::new(2).max_iter(0).fit(&x).is_err());
    assert!(MiniBatchKMeans::new(2).tol(-1.0).fit(&x).is_err());
    assert!(
        MiniBatchKMeans::new(2)
            .init(KMeansInit::Centers(array![[0.0, 0.0, 0.0]]))
            .fit(&x)
            .is_err()
    );
    let m = MiniBatchKMeans::new(2).fit(&x).expect("fit");
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
    assert!(
        MiniBatchKMeans::new(2)
            .partial_fit(Some(m), &array![[1.0f64, 2.0, 3.0]], &())
            .is_err()
    );
    assert!(
        MiniBatchKMeans::new(2)
            .partial_fit(None, &array![[1.0f64, 2.0]], &())
            .is_err()
    );
}

#[cfg(feature = "serde")]
#[test]
fn minibatch_kmeans_conforms() {
    Battery::new("minibatch_kmeans")
        .clusterer(&MiniBatchKMeans::new(3))
        .assert_ok();
}
