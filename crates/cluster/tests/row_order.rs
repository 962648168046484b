//! Labels do not depend on the order of the rows (up to a renaming of the clusters) for the
//! deterministic clusterers: agglomerative (every linkage), DBSCAN (core points and noise),
//! k-medoids (PAM from BUILD: the same cost) and a Gaussian mixture from given parameters (the
//! same likelihood); k-means from given centres is covered in kmeans_properties.rs.

use ndarray::{Array2, Array3, Axis};
use ndlearn_cluster::{Agglomerative, Dbscan, GaussianMixture, GmmInit, KMedoids, Linkage};
use ndlearn_core::FitUnsupervised;
use ndlearn_testkit::same_partition;
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

fn points() -> impl Strategy<Value = (Array2<f64>, Vec<usize>)> {
    (12usize..60, 1usize..4).prop_flat_map(|(n, d)| {
        (
            prop::collection::vec(-5.0f64..5.0, n * d),
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
        )
            .prop_map(move |(v, perm)| (Array2::from_shape_vec((n, d), v).expect("shape"), perm))
    })
}

/// Labels of the permuted rows, brought back to the original row order.
fn unpermute(labels: &[usize], perm: &[usize]) -> Vec<usize> {
    let mut out = vec![0; labels.len()];
    for (i, &p) in perm.iter().enumerate() {
        out[p] = labels[i];
    }
    out
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn labels_are_invariant_to_row_order((x, perm) in points()) {
        let xp = x.select(Axis(0), &perm);
        let n = x.nrows();
        for l in [Linkage::Ward, Linkage::Complete, Linkage::Average, Linkage::Single] {
            let a = Agglomerative::new(3).linkage(l).fit(&x).expect("a");
            let b = Agglomerative::new(3).linkage(l).fit(&xp).expect("b");
            let back = unpermute(b.labels().as_slice().expect("contiguous"), &perm);
            prop_assert!(same_partition(a.labels().as_slice().expect("contiguous"), &back), "{:?}", l);
        }
        let a = Dbscan::new(1.5, 3).fit(&x).expect("a");
        let b = Dbscan::new(1.5, 3).fit(&xp).expect("b");
        let la: Vec<usize> = a.labels().iter().map(|l| l.unwrap_or(usize::MAX)).collect();
        let lb: Vec<usize> = b.labels().iter().map(|l| l.unwrap_or(usize::MAX)).collect();
        // core points and noise never depend on the order; a border point reachable from two
        // clusters joins the one expanded first, so compare the core points' clusters
        let mut core = vec![false; n];
        for &i in a.core_sample_indices() {
            core[i] = true;
        }
        let back = unpermute(&lb, &perm);
        let ca: Vec<usize> = (0..n).filter(|&i| core[i]).map(|i| la[i]).collect();
        let cb: Vec<usize> = (0..n).filter(|&i| core[i]).map(|i| back[i]).collect();
        prop_assert!(same_partition(&ca, &cb));
        prop_assert_eq!(la.iter().filter(|&&v| v == usize::MAX).count(),
                        lb.iter().filter(|&&v| v == usize::MAX).count());
        let a = KMedoids::new(3).fit(&x).expect("a");
        let b = KMedoids::new(3).fit(&xp).expect("b");
        prop_assert!((a.cost() - b.cost()).abs() <= 1e-9 * a.cost().max(1.0));
        let d = x.ncols();
        let init = GmmInit::Params {
            weights: Some(ndarray::array![0.5, 0.5]),
            means: Some(x.select(Axis(0), &[0, 1])),
            covariances: Some(Array3::from_shape_fn((2, d, d), |(_, i, j)| if i == j { 4.0 } else { 0.0 })),
        };
        let est = GaussianMixture::new(2).reg_covar(1e-3).init(init);
        let a = est.fit(&x).expect("a");
        let b = est.fit(&xp).expect("b");
        prop_assert!((a.lower_bound() - b.lower_bound()).abs() <= 1e-8);
    }
}
