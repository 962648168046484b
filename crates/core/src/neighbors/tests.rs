use super::*;
use ndarray::{Array2, array};

fn grid() -> Array2<f64> {
    // 5 × 4 integer grid with a duplicated point: many exact ties.
    let mut rows = Vec::new();
    for i in 0..5 {
        for j in 0..4 {
            rows.push([i as f64, j as f64]);
        }
    }
    rows.push([2.0, 1.0]);
    Array2::from_shape_fn((rows.len(), 2), |(i, j)| rows[i][j])
}

/// Plain scan, sorted by (distance, index): the reference for every algorithm.
fn reference(
    x: &Array2<f64>,
    q: &Array2<f64>,
    k: usize,
    m: &Metric,
) -> (Array2<f64>, Array2<usize>) {
    let mut d = Array2::zeros((q.nrows(), k));
    let mut ix = Array2::zeros((q.nrows(), k));
    for (i, qr) in q.rows().into_iter().enumerate() {
        let mut all: Vec<(f64, usize)> = x
            .rows()
            .into_iter()
            .enumerate()
            .map(|(j, xr)| (m.distance(&qr, &xr), j))
            .collect();
        all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for t in 0..k {
            d[[i, t]] = all[t].0;
            ix[[i, t]] = all[t].1;
        }
    }
    (d, ix)
}

#[test]
fn hand_checked_grid_with_ties() {
    let x = grid();
    let q = array![[2.0, 1.0], [0.5, 0.5]];
    for alg in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
        let index = NeighborIndex::build(x.clone(), Metric::Euclidean, alg, 2).expect("valid");
        let (d, i) = index.kneighbors(&q, 6).expect("valid");
        // (2, 1) is point 9 and the duplicate 20, then the four unit neighbours
        // (1,1)=5, (2,0)=8, (2,2)=10, (3,1)=13 in index order.
        assert_eq!(i.row(0).to_vec(), vec![9, 20, 5, 8, 10, 13], "{alg:?}");
        assert_eq!(d.row(0).to_vec(), vec![0.0, 0.0, 1.0, 1.0, 1.0, 1.0]);
        // (0.5, 0.5): four corners at √0.5 in index order 0, 1, 4, 5.
        assert_eq!(i.row(1).to_vec()[..4], [0, 1, 4, 5]);
        let r = index.radius_neighbors(&q, 1.0).expect("valid");
        assert_eq!(r[0].1, vec![9, 20, 5, 8, 10, 13]);
        assert_eq!(r[1].1, vec![0, 1, 4, 5]);
    }
}

#[test]
fn all_algorithms_match_reference_on_ties() {
    let x = grid();
    let q = array![[2.0, 1.0], [0.0, 0.0], [4.0, 3.0], [1.5, 1.5], [-1.0, 7.0]];
    let metrics = [
        Metric::Euclidean,
        Metric::SqEuclidean,
        Metric::Manhattan,
        Metric::Chebyshev,
        Metric::Minkowski { p: 3.0 },
        Metric::Minkowski { p: 2.5 },
        Metric::Mahalanobis {
            vi: array![[2.0, 0.5], [0.5, 1.0]],
        },
        Metric::Hamming,
        Metric::Cosine,
    ];
    for m in &metrics {
        let algs: &[Algorithm] = if m.is_minkowski_family() {
            &[
                Algorithm::Auto,
                Algorithm::Brute,
                Algorithm::KdTree,
                Algorithm::BallTree,
            ]
        } else if m.is_true_metric() {
            &[Algorithm::Auto, Algorithm::Brute, Algorithm::BallTree]
        } else {
            &[Algorithm::Auto, Algorithm::Brute]
        };
        for &alg in algs {
            for leaf in [1, 3, 30] {
                let index = NeighborIndex::build(x.clone(), m.clone(), alg, leaf).expect("valid");
                for k in [1, 4, 21] {
                    let (d, i) = index.kneighbors(&q, k).expect("valid");
                    let (rd, ri) = reference(&x, &q, k, m);
                    assert_eq!(i, ri, "{m:?} {alg:?} leaf {leaf} k {k}");
                    assert_eq!(d, rd, "{m:?} {alg:?} leaf {leaf} k {k}");
                }
            }
        }
    }
}

#[test]
fn auto_resolution() {
    let x = grid();
    let kd = NeighborIndex::new(x.clone(), Metric::Manhattan).expect("valid");
    assert_eq!(kd.algorithm(), Algorithm::KdTree);
    let ball = NeighborIndex::new(x.clone(), Metric::Hamming).expect("valid");
    assert_eq!(ball.algorithm(), Algorithm::BallTree);
    let brute = NeighborIndex::new(x.clone(), Metric::Cosine).expect("valid");
    assert_eq!(brute.algorithm(), Algorithm::Brute);
    let wide = Array2::<f64>::zeros((3, 16));
    assert_eq!(
        NeighborIndex::new(wide, Metric::Euclidean)
            .expect("valid")
            .algorithm(),
        Algorithm::Brute
    );
    assert_eq!(kd.n_samples(), 21);
    assert_eq!(kd.n_features(), 2);
    assert_eq!(kd.leaf_size(), DEFAULT_LEAF_SIZE);
    assert_eq!(kd.metric(), &Metric::Manhattan);
    assert_eq!(kd.data().nrows(), 21);
    // k ≥ n/2 on Auto goes through brute force: same answer.
    let (_, i) = kd.kneighbors(&array![[0.0, 0.0]], 15).expect("valid");
    let (_, ri) = reference(&x, &array![[0.0, 0.0]], 15, &Metric::Manhattan);
    assert_eq!(i, ri);
}

#[test]
fn errors() {
    let x = grid();
    let index = NeighborIndex::new(x.clone(), Metric::Euclidean).expect("valid");
    let q = array![[0.0, 0.0]];
    assert!(matches!(
        index.kneighbors(&q, 0),
        Err(Error::InvalidParam { name: "k", .. })
    ));
    assert!(matches!(
        index.kneighbors(&q, 22),
        Err(Error::InvalidParam { name: "k", .. })
    ));
    assert!(matches!(
        index.kneighbors(&array![[0.0, 0.0, 0.0]], 1),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        index.kneighbors(&array![[f64::NAN, 0.0]], 1),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        index.radius_neighbors(&q, -1.0),
        Err(Error::InvalidParam { name: "r", .. })
    ));
    assert!(index.radius_neighbors(&q, f64::NAN).is_err());
    assert!(matches!(
        NeighborIndex::build(
            array![[f64::INFINITY, 0.0]],
            Metric::Euclidean,
            Algorithm::Brute,
            30
        ),
        Err(Error::NonFinite { .. })
    ));
    assert!(
        NeighborIndex::build(
            Array2::<f64>::zeros((0, 2)),
            Metric::Euclidean,
            Algorithm::Auto,
            30
        )
        .is_err()
    );
    assert!(
        NeighborIndex::build(
            Array2::<f64>::zeros((3, 0)),
            Metric::Euclidean,
            Algorithm::Auto,
            30
        )
        .is_err()
    );
    assert!(NeighborIndex::build(x.clone(), Metric::Euclidean, Algorithm::KdTree, 0).is_err());
    assert!(matches!(
        NeighborIndex::build(x.clone(), Metric::Cosine, Algorithm::KdTree, 30),
        Err(Error::InvalidParam {
            name: "algorithm",
            ..
        })
    ));
    assert!(NeighborIndex::build(x.clone(), Metric::Cosine, Algorithm::BallTree, 30).is_err());
    assert!(NeighborIndex::build(x.clone(), Metric::Hamming, Algorithm::KdTree, 30).is_err());
    assert!(
        NeighborIndex::build(x.clone(), Metric::Minkowski { p: 0.5 }, Algorithm::Auto, 30).is_err()
    );
    assert!(matches!(
        NeighborIndex::build(
            x.clone(),
            Metric::Mahalanobis { vi: Array2::eye(3) },
            Algorithm::Auto,
            30
        ),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(index.kneighbors_self(21, false).is_err());
    assert!(index.kneighbors_self(0, false).is_err());
}

#[test]
fn self_queries() {
    let x = grid();
    for alg in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
        let index = NeighborIndex::build(x.clone(), Metric::Euclidean, alg, 4).expect("valid");
        let (d, i) = index.kneighbors_self(1, true).expect("valid");
        // Every point is its own nearest neighbour, except the duplicate 20 whose twin 9 has the
        // lower index.
        for p in 0..21 {
            assert_eq!(d[[p, 0]], 0.0);
            assert_eq!(i[[p, 0]], if p == 20 { 9 } else { p });
        }
        let (d, i) = index.kneighbors_self(1, false).expect("valid");
        assert_eq!(i[[9, 0]], 20);
        assert_eq!(i[[20, 0]], 9);
        assert_eq!(d[[9, 0]], 0.0);
        for p in 0..21 {
            assert_ne!(i[[p, 0]], p);
        }
    }
}

#[test]
fn f32_and_shared_data() {
    let x = grid().mapv(|v| v as f32);
    let shared = std::sync::Arc::new(x);
    let index = NeighborIndex::build(shared.clone(), Metric::Euclidean, Algorithm::KdTree, 2)
        .expect("valid");
    assert!(std::sync::Arc::ptr_eq(index.data(), &shared));
    let (d, i) = index.kneighbors(&array![[4.0f32, 3.0]], 2).expect("valid");
    assert_eq!(i.row(0).to_vec(), vec![19, 15]);
    assert_eq!(d.row(0).to_vec(), vec![0.0, 1.0]);
    // A column-major matrix is copied to row-major.
    let fortran = grid().reversed_axes().to_owned().reversed_axes();
    let index =
        NeighborIndex::build(fortran, Metric::Euclidean, Algorithm::Brute, 2).expect("valid");
    let (_, i) = index.kneighbors(&array![[4.0, 3.0]], 1).expect("valid");
    assert_eq!(i[[0, 0]], 19);
}

#[test]
fn radius_neighbor_indices_match_radius_neighbors() {
    let x = grid();
    for alg in [Algorithm::Brute, Algorithm::KdTree, Algorithm::BallTree] {
        let index = NeighborIndex::build(x.clone(), Metric::Euclidean, alg, 2).expect("index");
        for r in [0.0, 1.0, 1.5, 2.5] {
            let full = index.radius_neighbors(&x, r).expect("radius");
            let idx = index.radius_neighbor_indices(&x, r).expect("indices");
            for (a, (_, b)) in idx.iter().zip(full) {
                let mut b = b;
                b.sort_unstable();
                assert_eq!(a, &b, "{alg:?} r = {r}");
            }
        }
        assert!(index.radius_neighbor_indices(&x, -1.0).is_err());
    }
}

#[test]
fn streamed_blocks_match_the_reference_scan() {
    // more query rows than one streaming block (and not a multiple of it), integer data with
    // many exact ties and every row present three times: each block's answers must land on
    // the rows of their own queries, in row order, and self-queries must drop the point itself
    // (or the last neighbour when more than k duplicates of lower index precede it)
    let n = STREAM_ROWS + 37;
    let base = Array2::from_shape_fn((n / 3 + 1, 3), |(i, j)| ((i * (j + 3)) % 11) as f64);
    let x = Array2::from_shape_fn((n, 3), |(i, j)| base[[i % base.nrows(), j]]);
    let q = Array2::from_shape_fn((n, 3), |(i, j)| ((i * 7 + j * 5) % 13) as f64 - 1.0);
    for alg in [Algorithm::Brute, Algorithm::KdTree] {
        let index = NeighborIndex::build(x.clone(), Metric::Euclidean, alg, 16).expect("index");
        let (d, i) = index.kneighbors(&q, 4).expect("valid");
        let (rd, ri) = reference(&x, &q, 4, &Metric::Euclidean);
        assert_eq!(i, ri, "{alg:?}");
        assert_eq!(d, rd, "{alg:?}");
        let mut seen = 0;
        index
            .kneighbors_for_each(&q, 4, |row, dist, idx| {
                assert_eq!(row, seen);
                assert_eq!(idx, ri.row(row).as_slice().expect("row"));
                assert_eq!(dist, rd.row(row).as_slice().expect("row"));
                seen += 1;
            })
            .expect("valid");
        assert_eq!(seen, n);
        let (sd, si) = index.kneighbors_self(2, false).expect("valid");
        let (ad, ai) = reference(&x, &x, 3, &Metric::Euclidean);
        for p in 0..n {
            let skip = (0..3).find(|&t| ai[[p, t]] == p).unwrap_or(2);
            let kept: Vec<usize> = (0..3).filter(|&t| t != skip).collect();
            assert_eq!(
                [si[[p, 0]], si[[p, 1]]],
                [ai[[p, kept[0]]], ai[[p, kept[1]]]],
                "{alg:?} row {p}"
            );
            assert_eq!(
                [sd[[p, 0]], sd[[p, 1]]],
                [ad[[p, kept[0]]], ad[[p, kept[1]]]]
            );
        }
    }
}
