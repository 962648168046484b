//! Agglomerative clustering against scipy and scikit-learn
//! (`datasets/golden/cluster/hierarchy.json`, written by `scripts/golden/cluster_hierarchy.py`):
//! the same linkage matrix as `scipy.cluster.hierarchy.linkage` for Ward, complete, average and
//! single linkage (features and a precomputed cityblock matrix), the same flat clusters as
//! scikit-learn's `AgglomerativeClustering` and scipy's `fcluster`; plus the notes' algorithm
//! written out naively as an oracle, the conformance battery and the input errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

mod common;

use ndarray::{Array2, array};
use ndlearn_cluster::{Agglomerative, Linkage, linkage, linkage_precomputed};
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::{FitUnsupervised, Predict};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Golden, assert_close, same_partition};

fn method(name: &str) -> Linkage {
    match name {
        "ward" => Linkage::Ward,
        "complete" => Linkage::Complete,
        "average" => Linkage::Average,
        "single" => Linkage::Single,
        other => panic!("unknown linkage {other}"),
    }
}

#[test]
fn linkage_matrices_and_cuts_match_scipy_and_sklearn() {
    let g = Golden::load("cluster", "hierarchy");
    let mut checked = 0;
    for case in g.cases() {
        if case.name().starts_with("precomputed_") {
            continue;
        }
        let name = case.name();
        let x = common::data(case);
        let l = method(case.string("method"));
        let d = linkage(&x, l, &Metric::Euclidean).expect("linkage");
        let want = case.matrix("z");
        let z = d.linkage_matrix();
        assert_close(&z, &want, 1e-9, 1e-12, &format!("{name}: linkage matrix"));
        let m = Agglomerative::new(case.usize("k"))
            .linkage(l)
            .fit(&x)
            .expect("fit");
        let sk = case.labels("sk_labels");
        assert!(
            same_partition(
                m.labels().as_slice().expect("contiguous"),
                sk.as_slice().expect("contiguous")
            ),
            "{name}: flat clusters differ from scikit-learn"
        );
        let cut = d.cut_height(case.scalar("t"));
        let fc = case.labels("fcluster");
        assert!(
            same_partition(
                cut.as_slice().expect("contiguous"),
                fc.as_slice().expect("contiguous")
            ),
            "{name}: cut at height differs from fcluster"
        );
        checked += 1;
    }
    assert_eq!(checked, 16);
}

#[test]
fn precomputed_linkage_matches_scipy() {
    let g = Golden::load("cluster", "hierarchy");
    let x = common::data(g.case("gauss_ward"));
    let dm = pairwise_distances(&x, &x, &Metric::Manhattan).expect("distances");
    let cases = g.cases_with_prefix("precomputed_");
    assert_eq!(cases.len(), 4);
    for case in cases {
        let d = linkage_precomputed(&dm, method(case.string("method"))).expect("linkage");
        assert_close(
            &d.linkage_matrix(),
            &case.matrix("z"),
            1e-9,
            1e-12,
            case.name(),
        );
    }
}

/// The notes' algorithm (000 L1234-1268) written out: merge the closest pair under the linkage
/// computed from the member lists, O(n³).
fn naive(x: &Array2<f64>, l: Linkage) -> Vec<f64> {
    let n = x.nrows();
    let d = pairwise_distances(x, x, &Metric::Euclidean).expect("distances");
    let mut clusters: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
    let mut heights = Vec::new();
    let link = |a: &[usize], b: &[usize]| -> f64 {
        let ds = a.iter().flat_map(|&i| b.iter().map(move |&j| (i, j)));
        match l {
            Linkage::Single => ds.map(|(i, j)| d[[i, j]]).fold(f64::INFINITY, f64::min),
            Linkage::Complete => ds.map(|(i, j)| d[[i, j]]).fold(0.0, f64::max),
            Linkage::Average => {
                ds.map(|(i, j)| d[[i, j]]).sum::<f64>() / (a.len() * b.len()) as f64
            }
            _ => {
                let mean = |c: &[usize]| -> ndarray::Array1<f64> {
                    c.iter()
                        .map(|&i| x.row(i).to_owned())
                        .fold(ndarray::Array1::zeros(x.ncols()), |s, r| s + r)
                        / c.len() as f64
                };
                let diff = mean(a) - mean(b);
                let (na, nb) = (a.len() as f64, b.len() as f64);
                (2.0 * na * nb / (na + nb) * diff.dot(&diff)).sqrt()
            }
        }
    };
    while clusters.len() > 1 {
        let mut best = (0, 1, f64::INFINITY);
        for i in 0..clusters.len() {
            for j in (i + 1)..clusters.len() {
                let v = link(&clusters[i], &clusters[j]);
                if v < best.2 {
                    best = (i, j, v);
                }
            }
        }
        let b = clusters.remove(best.1);
        clusters[best.0].extend(b);
        heights.push(best.2);
    }
    heights.sort_by(f64::total_cmp);
    heights
}

#[test]
fn nn_chain_equals_the_notes_naive_algorithm() {
    // d = 3: Ward on centroids; d = 40: Ward by Lance–Williams on the condensed matrix
    for d in [3, 40] {
        let mut rng = ndlearn_core::random::rng(11);
        let x = Array2::from_shape_simple_fn((40, d), || {
            ndlearn_core::random::standard_normal::<f64>(&mut rng)
        });
        for l in [
            Linkage::Ward,
            Linkage::Complete,
            Linkage::Average,
            Linkage::Single,
        ] {
            let dg = linkage(&x, l, &Metric::Euclidean).expect("linkage");
            let ours: Vec<f64> = dg.merges().iter().map(|m| m.height).collect();
            let want = naive(&x, l);
            for (a, b) in ours.iter().zip(&want) {
                assert!(
                    (a - b).abs() <= 1e-10 * b.max(1.0),
                    "d={d} {l:?}: {a} vs {b}"
                );
            }
        }
    }
}

#[test]
fn dendrogram_tools() {
    let x = array![[0.0f64], [1.0], [5.0], [6.5], [20.0]];
    let d = linkage(&x, Linkage::Single, &Metric::Euclidean).expect("linkage");
    assert_eq!(d.leaves_order(), vec![4, 0, 1, 2, 3]);
    let c = d.cophenetic();
    assert_eq!(c[[0, 1]], 1.0);
    assert_eq!(c[[0, 3]], 4.0);
    assert_eq!(c[[4, 2]], 13.5);
    assert_eq!(d.cut_n_clusters(1).expect("cut").to_vec(), vec![0; 5]);
    assert_eq!(
        d.cut_n_clusters(5).expect("cut").to_vec(),
        vec![0, 1, 2, 3, 4]
    );
    assert!(d.cut_n_clusters(6).is_err());
    let svg = d.to_svg(400.0, 300.0, None);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert_eq!(svg.matches("<path").count(), 4);
    let svg = d.to_svg(400.0, 300.0, Some(2));
    assert_eq!(svg.matches("<path").count(), 1);
    assert!(svg.contains(">(4)<"));
    // distance threshold: merges strictly below (scikit-learn)
    let m = Agglomerative::with_distance_threshold(1.5)
        .linkage(Linkage::Single)
        .fit(&x)
        .expect("fit");
    assert_eq!(m.labels().to_vec(), vec![0, 0, 1, 2, 3]);
    assert_eq!(m.n_clusters(), 4);
    assert_eq!(
        m.predict(&array![[5.9], [-3.0]]).expect("predict").to_vec(),
        vec![2, 0]
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(Agglomerative::new(0).fit(&x).is_err());
    assert!(Agglomerative::new(4).fit(&x).is_err());
    let mut both = Agglomerative::new(2);
    both.distance_threshold = Some(1.0);
    assert!(both.fit(&x).is_err());
    assert!(
        Agglomerative::new(2)
            .metric(Metric::Manhattan)
            .fit(&x)
            .is_err(),
        "Ward needs Euclidean"
    );
    let nan = array![[0.0f64, f64::NAN], [1.0, 0.0]];
    assert!(Agglomerative::new(1).fit(&nan).is_err());
    assert!(linkage_precomputed(&array![[0.0f64, 1.0]], Linkage::Average).is_err());
    assert!(linkage_precomputed(&array![[0.0f64, 1.0], [2.0, 0.0]], Linkage::Average).is_err());
    let fitted = Agglomerative::new(2)
        .linkage(Linkage::Average)
        .fit_precomputed(&array![[0.0f64, 1.0], [1.0, 0.0]])
        .expect("fit");
    assert!(
        fitted.predict(&x).is_err(),
        "no training rows to compare with"
    );
    let m = Agglomerative::new(2).fit(&x).expect("fit");
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn agglomerative_conforms() {
    for l in [
        Linkage::Ward,
        Linkage::Complete,
        Linkage::Average,
        Linkage::Single,
    ] {
        Battery::new("agglomerative")
            .clusterer(&Agglomerative::new(3).linkage(l))
            .assert_ok();
    }
    let f32x = array![[0.0f32], [1.0], [5.0], [6.5]];
    let m = Agglomerative::new(2).fit(&f32x).expect("f32");
    assert_eq!(m.labels().to_vec(), vec![0, 0, 1, 1]);
}
