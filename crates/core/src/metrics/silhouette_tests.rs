//! Unit tests of the internal cluster-validity indices.

use super::*;
use ndarray::{Array1, Array2, array};

#[test]
fn silhouette_by_hand() {
    let x = array![[0.0], [1.0], [10.0], [12.0]];
    let l = array![0usize, 0, 1, 1];
    let s = silhouette_samples(&x, &l, &Metric::Euclidean).expect("ok");
    // (a, b): (1, 11), (1, 10), (2, 9.5), (2, 11.5).
    let want = [10.0 / 11.0, 9.0 / 10.0, 7.5 / 9.5, 9.5 / 11.5];
    for (g, w) in s.iter().zip(want) {
        assert!((g - w).abs() < 1e-15, "{g} vs {w}");
    }
    let score = silhouette_score(&x, &l, &Metric::Euclidean).expect("ok");
    assert!((score - want.iter().sum::<f64>() / 4.0).abs() < 1e-15);
    // Minkowski p = 2 takes the same path; Manhattan equals Euclidean in 1-D.
    let m2 = silhouette_samples(&x, &l, &Metric::Minkowski { p: 2.0 }).expect("ok");
    assert_eq!(m2, s);
    let man = silhouette_samples(&x, &l, &Metric::Manhattan).expect("ok");
    for (a, b) in man.iter().zip(&s) {
        assert!((a - b).abs() < 1e-15);
    }
    // A singleton cluster scores 0; labels may be any usize values.
    let l3 = array![4usize, 4, usize::MAX, 9];
    let s3 = silhouette_samples(&x, &l3, &Metric::Euclidean).expect("ok");
    assert_eq!(s3[2], 0.0);
    assert_eq!(s3[3], 0.0);
}

/// Deterministic clustered data: `k` blobs in `d` dimensions, far from the origin.
fn blobs(n: usize, d: usize, k: usize, offset: f64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = crate::random::rng(7);
    let centres = Array2::from_shape_fn((k, d), |_| {
        crate::random::standard_normal::<f64>(&mut rng) * 5.0
    });
    let labels = Array1::from_shape_fn(n, |i| (i * 7 + i / 3) % k);
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        centres[[labels[i], j]] + crate::random::standard_normal::<f64>(&mut rng) + offset
    });
    (x, labels)
}

#[test]
fn blocked_gemm_matches_precomputed_distances() {
    // 2100 rows: several blocks of rows on both paths.
    let (x, l) = blobs(2100, 3, 5, 0.0);
    assert!(block_rows(x.nrows(), BLOCK_ELEMS) < x.nrows());
    assert!(block_rows(x.nrows(), METRIC_BLOCK_ELEMS) < x.nrows());
    let s = silhouette_samples(&x, &l, &Metric::Euclidean).expect("ok");
    let d = pairwise_distances(&x, &x, &Metric::Euclidean).expect("ok");
    let p = silhouette_samples_precomputed(&d, &l).expect("ok");
    for (a, b) in s.iter().zip(&p) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
    // Cosine through the generic path agrees with its precomputed matrix too.
    let c = silhouette_samples(&x, &l, &Metric::Cosine).expect("ok");
    let dc = pairwise_distances(&x, &x, &Metric::Cosine).expect("ok");
    let pc = silhouette_samples_precomputed(&dc, &l).expect("ok");
    for (a, b) in c.iter().zip(&pc) {
        assert!((a - b).abs() < 1e-12);
    }
}

#[test]
fn far_from_origin_data_keeps_accuracy() {
    // A translation leaves distances unchanged; the centred Gram trick keeps the coefficients.
    let (x, l) = blobs(300, 4, 3, 0.0);
    let (y, _) = blobs(300, 4, 3, 1e6);
    let a = silhouette_samples(&x, &l, &Metric::Euclidean).expect("ok");
    let b = silhouette_samples(&y, &l, &Metric::Euclidean).expect("ok");
    for (u, v) in a.iter().zip(&b) {
        assert!((u - v).abs() < 1e-8, "{u} vs {v}");
    }
}

#[test]
fn davies_bouldin_calinski_harabasz_inertia_by_hand() {
    let x = array![[0.0], [1.0], [10.0], [11.0]];
    let l = array![0usize, 0, 1, 1];
    // s = 0.5 for both clusters, centroid distance 10 → DB = 1/10.
    let db = davies_bouldin_score(&x, &l).expect("ok");
    assert!((db - 0.1).abs() < 1e-15);
    // B = 100, W = 1, (n − k)/(k − 1) = 2.
    let ch = calinski_harabasz_score(&x, &l).expect("ok");
    assert!((ch - 200.0).abs() < 1e-12);
    // Zero within-cluster dispersion: CH = 1 (scikit-learn), DB = 0.
    let dup = array![[0.0], [0.0], [5.0], [5.0]];
    assert_eq!(calinski_harabasz_score(&dup, &l).expect("ok"), 1.0);
    assert_eq!(davies_bouldin_score(&dup, &l).expect("ok"), 0.0);
    let centres = array![[0.5], [10.5]];
    assert_eq!(inertia(&x, &l, &centres, None).expect("ok"), 1.0);
    let w = array![2.0, 0.0, 1.0, 1.0];
    assert_eq!(
        inertia(&x, &l, &centres, Some(&w)).expect("ok"),
        0.5 + 0.25 + 0.25
    );
}

#[test]
fn error_paths() {
    let x = array![[0.0], [1.0], [2.0]];
    assert!(matches!(
        silhouette_score(&x, &array![0usize, 0, 0], &Metric::Euclidean),
        Err(Error::TooFewClasses { found: 1, .. })
    ));
    assert!(matches!(
        silhouette_score(&x, &array![0usize, 1, 2], &Metric::Euclidean),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        silhouette_score(&x, &array![0usize, 1], &Metric::Euclidean),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        silhouette_score(
            &array![[0.0], [f64::NAN], [1.0]],
            &array![0usize, 1, 1],
            &Metric::Euclidean
        ),
        Err(Error::NonFinite { .. })
    ));
    assert!(silhouette_score(&x, &array![0usize, 1, 1], &Metric::Minkowski { p: 0.1 }).is_err());
    let d = array![[0.0, 1.0], [1.0, 0.0]];
    assert!(matches!(
        silhouette_samples_precomputed(&d, &array![0usize, 1, 1]),
        Err(Error::ShapeMismatch { .. })
    ));
    let d3 = array![[0.0, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]];
    assert!(silhouette_score_precomputed(&d3, &array![0usize, 0, 1]).is_ok());
    let neg = array![[0.0, -1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]];
    assert!(matches!(
        silhouette_samples_precomputed(&neg, &array![0usize, 0, 1]),
        Err(Error::InvalidParam { .. })
    ));
    let diag = array![[0.5, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]];
    assert!(silhouette_samples_precomputed(&diag, &array![0usize, 0, 1]).is_err());
    assert!(silhouette_samples_precomputed(&array![[0.0, 1.0, 2.0]], &array![0usize]).is_err());
    assert!(davies_bouldin_score(&x, &array![0usize, 0, 0]).is_err());
    assert!(calinski_harabasz_score(&x, &array![0usize, 1, 2]).is_err());
    let c = array![[0.0], [1.0]];
    assert!(matches!(
        inertia(&x, &array![0usize, 1, 2], &c, None),
        Err(Error::InvalidLabel { label: 2, .. })
    ));
    assert!(matches!(
        inertia(&x, &array![0usize, 1, 1], &array![[0.0, 1.0]], None),
        Err(Error::ShapeMismatch { .. })
    ));
}
