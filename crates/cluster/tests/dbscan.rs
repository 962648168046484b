//! DBSCAN against scikit-learn (`datasets/golden/cluster/dbscan.json`, written by
//! `scripts/golden/cluster.py`): the same core samples, the same noise, the same clusters up to
//! a renaming; plus the conformance battery and the noise label of `predict`.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

mod common;

use std::collections::HashMap;

use ndlearn_cluster::Dbscan;
use ndlearn_core::{FitUnsupervised, Predict};
use ndlearn_testkit::Golden;
use ndlearn_testkit::conformance::Battery;

#[test]
fn dbscan_matches_sklearn_up_to_label_names() {
    let g = Golden::load("cluster", "dbscan");
    let cases = g.cases_with_prefix("dbscan_");
    assert!(cases.len() >= 5);
    for case in cases {
        let name = case.name();
        let x = common::data(case);
        let m = Dbscan::new(case.scalar("eps"), case.usize("min_samples"))
            .fit(&x)
            .expect("fit");
        assert_eq!(
            m.core_sample_indices(),
            case.usize_vector("core").as_slice(),
            "{name}: core samples"
        );
        let theirs = case.vector("labels");
        let mut map: HashMap<usize, i64> = HashMap::new();
        let mut back: HashMap<i64, usize> = HashMap::new();
        for (i, (&ours, &t)) in m.labels().iter().zip(theirs.iter()).enumerate() {
            let t = t as i64;
            match ours {
                None => assert_eq!(t, -1, "{name}: row {i} is noise here only"),
                Some(c) => {
                    assert!(t >= 0, "{name}: row {i} is noise in scikit-learn only");
                    assert_eq!(*map.entry(c).or_insert(t), t, "{name}: row {i}");
                    assert_eq!(*back.entry(t).or_insert(c), c, "{name}: row {i}");
                }
            }
        }
        let n_theirs = theirs
            .iter()
            .filter(|&&v| v >= 0.0)
            .fold(0.0f64, |a, &b| a.max(b + 1.0));
        assert_eq!(m.n_clusters(), n_theirs as usize, "{name}: clusters");
    }
}

#[cfg(feature = "serde")]
#[test]
fn dbscan_conforms_and_marks_noise() {
    Battery::new("Dbscan(1.0, 4)")
        .clusterer(&Dbscan::new(1.0, 4))
        .assert_ok();
    let x = ndarray::array![[0.0f64], [0.1], [0.2], [5.0], [5.1], [5.2], [20.0]];
    let m = Dbscan::new(0.5, 2).fit(&x).expect("fit");
    assert_eq!(m.n_clusters(), 2);
    assert_eq!(m.labels()[6], None);
    // predict: the training rows get their labels (noise = n_clusters)
    assert_eq!(
        m.predict(&x).expect("predict").to_vec(),
        vec![0, 0, 0, 1, 1, 1, 2]
    );
    assert!(Dbscan::new(0.0, 2).fit(&x).is_err());
    assert!(Dbscan::new(0.5, 0).fit(&x).is_err());
    // min_samples counts the point itself: with min_samples = 1 every point is core
    let all = Dbscan::new(0.01, 1).fit(&x).expect("fit");
    assert_eq!(all.n_clusters(), 7);
}
