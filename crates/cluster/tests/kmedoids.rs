//! k-medoids: PAM ends where no single swap helps and reaches the exhaustive optimum (every
//! k-subset tried) in most small problems, the
//! medoid is the point of least total
//! dissimilarity (catalog E12), CLARA approaches PAM on larger data, plus the conformance
//! battery and the input errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, array};
use ndlearn_cluster::{Clara, KMedoids, KMedoidsMethod, MedoidInit};
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::{FitUnsupervised, Predict, random};
use ndlearn_testkit::conformance::Battery;

fn blobs(n_per: usize, seed: u64) -> Array2<f64> {
    let mut rng = random::rng(seed);
    let centers = [[0.0, 0.0], [4.0, 4.0], [0.0, 5.0], [5.0, -1.0]];
    Array2::from_shape_fn((4 * n_per, 2), |(i, j)| {
        centers[i / n_per][j] + 0.8 * random::standard_normal::<f64>(&mut rng)
    })
}

/// Every k-subset of `0..n` (lexicographic).
fn subsets(n: usize, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur: Vec<usize> = (0..k).collect();
    loop {
        out.push(cur.clone());
        let mut i = k;
        while i > 0 && cur[i - 1] == n - k + i - 1 {
            i -= 1;
        }
        if i == 0 {
            return out;
        }
        cur[i - 1] += 1;
        for j in i..k {
            cur[j] = cur[j - 1] + 1;
        }
    }
}

fn cost(d: &Array2<f64>, medoids: &[usize]) -> f64 {
    (0..d.nrows())
        .map(|j| {
            medoids
                .iter()
                .map(|&m| d[[j, m]])
                .fold(f64::INFINITY, f64::min)
        })
        .sum()
}

#[test]
fn pam_is_swap_optimal_and_usually_globally_optimal() {
    let mut optimal = 0;
    for (seed, metric) in [
        (1, Metric::Euclidean),
        (2, Metric::Manhattan),
        (3, Metric::Chebyshev),
    ] {
        let x = blobs(4, seed);
        let d = pairwise_distances(&x, &x, &metric).expect("distances");
        for k in 2..=4 {
            let best = subsets(16, k)
                .iter()
                .map(|s| cost(&d, s))
                .fold(f64::INFINITY, f64::min);
            let m = KMedoids::new(k)
                .metric(metric.clone())
                .fit(&x)
                .expect("fit");
            // a local optimum of the swap neighbourhood (checked by recomputing every swap)
            for i in 0..k {
                for h in 0..16 {
                    let mut s = m.medoid_indices().to_vec();
                    if s.contains(&h) {
                        continue;
                    }
                    s[i] = h;
                    assert!(
                        cost(&d, &s) >= m.cost() - 1e-9,
                        "{metric:?} k={k}: swap {i}->{h}"
                    );
                }
            }
            // PAM is a local search: usually, not always, the global optimum
            assert!(
                m.cost() <= best * 1.1,
                "{metric:?} k={k}: {} vs {best}",
                m.cost()
            );
            if (m.cost() - best).abs() < 1e-9 {
                optimal += 1;
            }
            assert!((cost(&d, m.medoid_indices()) - m.cost()).abs() < 1e-9);
            // the same on the precomputed matrix
            let p = KMedoids::new(k).fit_precomputed(&d).expect("fit");
            assert!((p.cost() - m.cost()).abs() < 1e-9);
            assert!(p.predict(&x).is_err(), "no coordinates");
            // alternate is never better than PAM; random starts converge too
            let alt = KMedoids::new(k)
                .metric(metric.clone())
                .method(KMedoidsMethod::Alternate)
                .fit(&x)
                .expect("fit");
            assert!(alt.cost() >= best - 1e-9);
            let r = KMedoids::new(k)
                .metric(metric.clone())
                .init(MedoidInit::Random)
                .seed(seed)
                .fit(&x)
                .expect("fit");
            assert!(r.cost() <= cost(&d, &[0, 1, 2, 3][..k]) + 1e-9);
        }
    }
    assert!(
        optimal >= 7,
        "PAM found the global optimum in {optimal} of 9 problems"
    );
}

#[test]
fn medoid_is_least_total_dissimilarity_not_nearest_to_mean() {
    // E12: {10, 11, 12, 13, 30} has mean 15.2 (nearest point 13) but medoid 12
    let x = array![
        [0.0f64],
        [1.0],
        [2.0],
        [30.0],
        [10.0],
        [11.0],
        [12.0],
        [13.0]
    ];
    for method in [KMedoidsMethod::Pam, KMedoidsMethod::Alternate] {
        let m = KMedoids::new(2).method(method).fit(&x).expect("fit");
        let mut med = m.medoid_indices().to_vec();
        med.sort();
        assert_eq!(med, vec![1, 6], "{method:?}");
        assert_eq!(m.cost(), 24.0);
        let medoids = m.medoids().expect("coordinates");
        assert_eq!(medoids.nrows(), 2);
        assert_eq!(
            m.labels()[3],
            m.labels()[6],
            "the outlier joins the right group"
        );
    }
}

#[test]
fn clara_approaches_pam() {
    let x = blobs(150, 7);
    let pam = KMedoids::new(4).fit(&x).expect("pam");
    let clara = Clara::new(4).seed(3).fit(&x).expect("clara");
    assert!(
        clara.cost() <= pam.cost() * 1.05,
        "{} vs {}",
        clara.cost(),
        pam.cost()
    );
    assert!(clara.cost() >= pam.cost() - 1e-9);
    assert_eq!(clara.predict(&x).expect("predict"), clara.labels().clone());
    assert_eq!(Clara::new(4).seed(3).fit(&x).expect("again"), clara);
    // a sample as large as the data is PAM itself
    let full = Clara::new(4)
        .sample_size(Some(600))
        .n_samplings(1)
        .fit(&x)
        .expect("fit");
    assert!((full.cost() - pam.cost()).abs() < 1e-9);
}

#[test]
fn bad_input_is_a_typed_error() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(KMedoids::new(0).fit(&x).is_err());
    assert!(KMedoids::new(4).fit(&x).is_err());
    assert!(KMedoids::new(2).max_iter(0).fit(&x).is_err());
    assert!(
        KMedoids::new(2)
            .init(MedoidInit::Indices(vec![0, 0]))
            .fit(&x)
            .is_err()
    );
    assert!(
        KMedoids::new(2)
            .init(MedoidInit::Indices(vec![0, 7]))
            .fit(&x)
            .is_err()
    );
    assert!(
        KMedoids::new(2)
            .fit_precomputed(&array![[0.0f64, 1.0]])
            .is_err()
    );
    assert!(
        KMedoids::new(1)
            .fit_precomputed(&array![[0.0f64, -1.0], [1.0, 0.0]])
            .is_err()
    );
    assert!(Clara::new(0).fit(&x).is_err());
    assert!(Clara::new(2).n_samplings(0).fit(&x).is_err());
    let m = KMedoids::new(2).fit(&x).expect("fit");
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn kmedoids_conforms() {
    Battery::new("kmedoids")
        .clusterer(&KMedoids::new(3))
        .assert_ok();
    Battery::new("clara").clusterer(&Clara::new(3)).assert_ok();
}
