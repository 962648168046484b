//! Property tests of `ndlearn_core::neighbors` (few cases: CI has 2 cores).
//!
//! Every algorithm returns exactly (indices and distances, bit for bit) the answer of a plain
//! scan sorted by (distance, index), including data with duplicated points and exact ties
//! (small integer grids), for several metrics; radius queries likewise, with radii that hit
//! points exactly; answers do not depend on the thread count; graph symmetrisation.

use ndarray::{Array2, ArrayView1};
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, NeighborIndex, Symmetrize, kneighbors_graph};
use ndlearn_core::par;
use proptest::prelude::*;
use proptest::test_runner::Config;

/// Plain scan: every distance with `Metric::distance`, sorted by (distance, index).
fn scan(x: &Array2<f64>, q: ArrayView1<'_, f64>, m: &Metric) -> Vec<(f64, usize)> {
    let mut all: Vec<(f64, usize)> = x
        .rows()
        .into_iter()
        .enumerate()
        .map(|(j, r)| (m.distance(&q, &r), j))
        .collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    all
}

fn algorithms(m: &Metric) -> Vec<Algorithm> {
    let mut v = vec![Algorithm::Auto, Algorithm::Brute];
    if m.is_minkowski_family() {
        v.push(Algorithm::KdTree);
    }
    if m.is_true_metric() || *m == Metric::SqEuclidean {
        v.push(Algorithm::BallTree);
    }
    v
}

/// Metrics whose distances between small-integer points are exact (no rounding ties that
/// finalisation could merge): integer reduced distances, or the same kernel in reference
/// and index.
fn metrics(d: usize) -> Vec<Metric> {
    // Integer PSD matrix: VI = L Lᵀ with small integer L.
    let l = Array2::from_shape_fn((d, d), |(i, j)| {
        if j <= i {
            1.0 + ((i + j) % 2) as f64
        } else {
            0.0
        }
    });
    vec![
        Metric::Euclidean,
        Metric::SqEuclidean,
        Metric::Manhattan,
        Metric::Chebyshev,
        Metric::Minkowski { p: 3.0 },
        Metric::Mahalanobis { vi: l.dot(&l.t()) },
        Metric::Hamming,
        Metric::Jaccard,
        Metric::Cosine,
    ]
}

fn grid_points(n: std::ops::Range<usize>, d: usize, hi: i32) -> impl Strategy<Value = Array2<f64>> {
    n.prop_flat_map(move |n| {
        prop::collection::vec((0..hi).prop_map(f64::from), n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("n x d"))
    })
}

proptest! {
    #![proptest_config(Config::with_cases(16))]

    #[test]
    fn knn_equals_scan_on_integer_grids(
        (x, q) in (1usize..4).prop_flat_map(|d| (grid_points(1..50, d, 4), grid_points(1..6, d, 4))),
        kfrac in 0.0f64..1.0,
        leaf in prop::sample::select(vec![1usize, 3, 30]),
    ) {
        let n = x.nrows();
        let k = 1 + ((n - 1) as f64 * kfrac) as usize;
        for m in metrics(x.ncols()) {
            let want: Vec<Vec<(f64, usize)>> = q.rows().into_iter().map(|r| scan(&x, r, &m)).collect();
            for alg in algorithms(&m) {
                let index = NeighborIndex::build(x.clone(), m.clone(), alg, leaf).expect("valid");
                let (d, i) = index.kneighbors(&q, k).expect("valid");
                for (r, w) in want.iter().enumerate() {
                    for t in 0..k {
                        prop_assert_eq!((d[[r, t]], i[[r, t]]), w[t], "{:?} {:?} k={} row {} pos {}", m, alg, k, r, t);
                    }
                }
            }
        }
    }

    #[test]
    fn radius_equals_scan_with_exact_boundaries(
        (x, q) in (1usize..4).prop_flat_map(|d| (grid_points(1..50, d, 4), grid_points(1..5, d, 4))),
        r2 in 0u32..6,
    ) {
        // r = √r2 (Euclidean) or r2 (others): many points sit exactly on the sphere.
        for m in metrics(x.ncols()) {
            let r = if matches!(m, Metric::Euclidean | Metric::Mahalanobis { .. }) { f64::from(r2).sqrt() } else { f64::from(r2) / 2.0 };
            for alg in algorithms(&m) {
                let index = NeighborIndex::build(x.clone(), m.clone(), alg, 3).expect("valid");
                let got = index.radius_neighbors(&q, r).expect("valid");
                for (row, (d, i)) in q.rows().into_iter().zip(&got) {
                    let want: Vec<(f64, usize)> = scan(&x, row, &m).into_iter().filter(|&(dd, _)| dd <= r).collect();
                    let got_pairs: Vec<(f64, usize)> = d.iter().copied().zip(i.iter().copied()).collect();
                    prop_assert_eq!(&got_pairs, &want, "{:?} {:?} r={}", m, alg, r);
                }
            }
        }
    }

    #[test]
    fn continuous_data_all_algorithms_agree(
        x in prop::collection::vec(-5.0f64..5.0, 120 * 3),
        q in prop::collection::vec(-6.0f64..6.0, 7 * 3),
        k in 1usize..12,
    ) {
        let x = Array2::from_shape_vec((120, 3), x).expect("120 x 3");
        let q = Array2::from_shape_vec((7, 3), q).expect("7 x 3");
        for m in [Metric::Euclidean, Metric::Manhattan, Metric::Minkowski { p: 2.5 }, Metric::Chebyshev, Metric::Cosine] {
            let want: Vec<Vec<(f64, usize)>> = q.rows().into_iter().map(|r| scan(&x, r, &m)).collect();
            for alg in algorithms(&m) {
                let index = NeighborIndex::build(x.clone(), m.clone(), alg, 5).expect("valid");
                let (d, i) = index.kneighbors(&q, k).expect("valid");
                for (r, w) in want.iter().enumerate() {
                    for t in 0..k {
                        prop_assert_eq!((d[[r, t]], i[[r, t]]), w[t], "{:?} {:?}", m, alg);
                    }
                }
            }
        }
    }

    #[test]
    fn thread_count_does_not_matter(x in grid_points(20..80, 2, 5), k in 1usize..10) {
        for alg in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
            let index = NeighborIndex::build(x.clone(), Metric::Euclidean, alg, 4).expect("valid");
            let one = par::with_threads(1, || index.kneighbors(&x, k)).expect("pool").expect("valid");
            let two = par::with_threads(2, || index.kneighbors(&x, k)).expect("pool").expect("valid");
            prop_assert_eq!(one, two);
        }
    }

    #[test]
    fn self_queries_and_graphs(x in grid_points(3..40, 2, 3), k in 1usize..3) {
        let index = NeighborIndex::new(x.clone(), Metric::Euclidean).expect("valid");
        let (_, i) = index.kneighbors_self(k, false).expect("k < n");
        for p in 0..x.nrows() {
            prop_assert!(i.row(p).iter().all(|&j| j != p));
        }
        let g = kneighbors_graph(&x, k, &Metric::Euclidean, false).expect("valid");
        prop_assert_eq!(g.nnz(), x.nrows() * k);
        let u = g.symmetrize(Symmetrize::Union);
        let mu = g.symmetrize(Symmetrize::Mutual);
        prop_assert!(u.is_symmetric() && mu.is_symmetric());
        prop_assert!(mu.nnz() <= g.nnz() && g.nnz() <= u.nnz());
        for p in 0..x.nrows() {
            let (cols, _) = g.row(p);
            for &c in cols {
                prop_assert!(u.weight(p, c).is_some() && u.weight(c, p).is_some());
                prop_assert_eq!(mu.weight(p, c).is_some(), g.weight(c, p).is_some());
            }
        }
    }
}

/// The fused brute path with several query tasks, partial micro-blocks, training tiles and a
/// partial last panel (9,003 rows), on tie-heavy integer data, against the k-d tree (which
/// scans directly).
#[test]
fn fused_brute_path_is_exact_on_large_tied_data() {
    let (n, nq, d) = (9_003, 300, 3);
    let x = Array2::from_shape_fn((n, d), |(i, j)| ((i * 7 + j * 13) % 11) as f64);
    let q = Array2::from_shape_fn((nq, d), |(i, j)| {
        ((i * 5 + j * 3) % 12) as f64 - 0.5 * (j % 2) as f64
    });
    for m in [
        Metric::Euclidean,
        Metric::SqEuclidean,
        Metric::Minkowski { p: 2.0 },
    ] {
        let brute =
            NeighborIndex::build(x.clone(), m.clone(), Algorithm::Brute, 30).expect("valid");
        let tree =
            NeighborIndex::build(x.clone(), m.clone(), Algorithm::KdTree, 30).expect("valid");
        for k in [1, 7, 40] {
            assert_eq!(
                brute.kneighbors(&q, k).expect("valid"),
                tree.kneighbors(&q, k).expect("valid"),
                "{m:?} k={k}"
            );
        }
        assert_eq!(
            brute.radius_neighbors(&q, 2.0).expect("valid"),
            tree.radius_neighbors(&q, 2.0).expect("valid")
        );
    }
    // Cosine (brute only) against the plain scan for a few rows.
    let cos = NeighborIndex::build(x.clone(), Metric::Cosine, Algorithm::Brute, 30).expect("valid");
    let (dd, ii) = cos.kneighbors(&q, 5).expect("valid");
    for r in (0..nq).step_by(37) {
        let want = scan(&x, q.row(r), &Metric::Cosine);
        for t in 0..5 {
            assert_eq!((dd[[r, t]], ii[[r, t]]), want[t], "cosine row {r}");
        }
    }
}

/// The fused brute path in f32 and f64 on continuous data far from the origin (the rows are
/// centred before the scores are formed), 20 coordinates (several tiles), against the k-d tree.
#[test]
fn fused_brute_path_is_exact_far_from_the_origin_in_both_precisions() {
    let (n, nq, d) = (5_001, 130, 20);
    let mut rng = ndlearn_core::random::rng(5);
    let x = Array2::from_shape_fn((n, d), |_| {
        1.0e4 + ndlearn_core::random::standard_normal::<f64>(&mut rng)
    });
    let q = Array2::from_shape_fn((nq, d), |_| {
        1.0e4 + ndlearn_core::random::standard_normal::<f64>(&mut rng)
    });
    let brute =
        NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::Brute, 30).expect("valid");
    let tree =
        NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::KdTree, 30).expect("valid");
    assert_eq!(
        brute.kneighbors(&q, 6).expect("valid"),
        tree.kneighbors(&q, 6).expect("valid")
    );
    assert_eq!(
        brute.radius_neighbors(&q, 4.5).expect("valid"),
        tree.radius_neighbors(&q, 4.5).expect("valid")
    );
    let (x32, q32) = (x.mapv(|v| v as f32), q.mapv(|v| v as f32));
    let brute =
        NeighborIndex::build(x32.clone(), Metric::Euclidean, Algorithm::Brute, 30).expect("valid");
    let tree = NeighborIndex::build(x32, Metric::Euclidean, Algorithm::KdTree, 30).expect("valid");
    assert_eq!(
        brute.kneighbors(&q32, 6).expect("valid"),
        tree.kneighbors(&q32, 6).expect("valid")
    );
}

/// Scales at which the brute-force scores cannot be formed in `f32` (norms beyond 1e30 or
/// below 1e-20: `f64` scores, or the direct scan) and single queries far outside the data
/// (scanned directly), in both precisions, against the k-d tree.
#[test]
fn brute_path_is_exact_at_extreme_scales() {
    let (n, nq, d) = (700, 40, 17);
    let mut rng = ndlearn_core::random::rng(9);
    let x0 = Array2::from_shape_fn((n, d), |_| {
        ndlearn_core::random::standard_normal::<f64>(&mut rng)
    });
    let mut q0 = Array2::from_shape_fn((nq, d), |_| {
        ndlearn_core::random::standard_normal::<f64>(&mut rng)
    });
    // two queries whose squared norms exceed the f32 limit at every scale below
    q0.row_mut(3).fill(3.0e17);
    q0.row_mut(30).fill(-2.0e16);
    for scale in [1e-15, 1.0, 1e17] {
        let (x, q) = (&x0 * scale, &q0 * scale);
        let brute = NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::Brute, 30)
            .expect("valid");
        let tree = NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::KdTree, 30)
            .expect("valid");
        assert_eq!(
            brute.kneighbors(&q, 4).expect("valid"),
            tree.kneighbors(&q, 4).expect("valid"),
            "f64 scale {scale}"
        );
        let r = 5.0 * scale;
        assert_eq!(
            brute.radius_neighbors(&q, r).expect("valid"),
            tree.radius_neighbors(&q, r).expect("valid"),
            "f64 scale {scale}"
        );
    }
    for scale in [1e-15f32, 1.0, 1e14] {
        let x = x0.mapv(|v| v as f32 * scale);
        let q = q0.mapv(|v| (v as f32).clamp(-1e3, 1e3) * scale);
        let brute = NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::Brute, 30)
            .expect("valid");
        let tree = NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::KdTree, 30)
            .expect("valid");
        assert_eq!(
            brute.kneighbors(&q, 4).expect("valid"),
            tree.kneighbors(&q, 4).expect("valid"),
            "f32 scale {scale}"
        );
    }
}

/// Inputs where the pre-selection's bound would not hold (found in review): Euclidean data
/// whose squared norms are subnormal, cosine rows whose squared norms overflow or underflow.
/// Such indexes and queries are scanned directly.
#[test]
fn brute_path_is_exact_for_subnormal_and_overflowing_norms() {
    // Euclidean, d = 1: q² rounds to 0, so rows 0 and 1 tie at distance 0 (row 0 first)
    let q = 0.3f64.sqrt() * 2f64.powi(-537);
    let x = ndarray::array![[0.0], [2.0 * q], [-2.0 * q]];
    let brute =
        NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::Brute, 30).expect("valid");
    let tree = NeighborIndex::build(x, Metric::Euclidean, Algorithm::KdTree, 30).expect("valid");
    let qs = ndarray::array![[q]];
    assert_eq!(
        brute.kneighbors(&qs, 1).expect("valid"),
        tree.kneighbors(&qs, 1).expect("valid")
    );
    assert_eq!(
        brute.radius_neighbors(&qs, 1e-300).expect("valid"),
        tree.radius_neighbors(&qs, 1e-300).expect("valid")
    );
    // cosine with an overflowing and with a subnormal squared norm
    let c = 2024.45f64.sqrt() * 2f64.powi(-537);
    let cases = [
        (
            ndarray::array![[1e200, 1e200], [-1.0, 0.0]],
            ndarray::array![[1e150, 1e150], [1.0, 1.0]],
        ),
        (
            ndarray::array![[2.0, 0.0], [c, 0.0]],
            ndarray::array![[1.0, 0.0], [0.0, 1.0]],
        ),
    ];
    for (x, q) in cases {
        let index =
            NeighborIndex::build(x.clone(), Metric::Cosine, Algorithm::Brute, 30).expect("valid");
        let (dist, idx) = index.kneighbors(&q, 2).expect("valid");
        for r in 0..q.nrows() {
            let want = scan(&x, q.row(r), &Metric::Cosine);
            for t in 0..2 {
                assert_eq!((dist[[r, t]], idx[[r, t]]), want[t], "cosine row {r}");
            }
        }
    }
    // a cosine query with a subnormal squared norm against well-scaled rows
    let x = ndarray::array![[2.0, 0.0], [3.0, 1e-9], [0.0, 1.0]];
    let q = ndarray::array![[c, 0.0]];
    let index =
        NeighborIndex::build(x.clone(), Metric::Cosine, Algorithm::Brute, 30).expect("valid");
    let (dist, idx) = index.kneighbors(&q, 3).expect("valid");
    let want = scan(&x, q.row(0), &Metric::Cosine);
    for t in 0..3 {
        assert_eq!(
            (dist[[0, t]], idx[[0, t]]),
            want[t],
            "subnormal cosine query"
        );
    }
}
