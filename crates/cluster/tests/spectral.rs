//! Spectral clustering: the notes' 3-node Laplacian example (002 L2565-2584: eigenvalues 0,
//! 6 ± √3, Fiedler split {x1} | {x2, x3}), two moons separated perfectly by every graph and
//! Laplacian (where k-means fails), the graph utilities, the conformance battery and the input
//! errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, array};
use ndlearn_cluster::{Affinity, KMeans, SpectralAssign, SpectralClustering};
use ndlearn_core::neighbors::{LaplacianKind, laplacian};
use ndlearn_core::{FitUnsupervised, Predict, linalg};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::same_partition;

fn moons(n_per: usize) -> (Array2<f64>, Array1<usize>) {
    let mut x = Array2::zeros((2 * n_per, 2));
    let mut y = Array1::zeros(2 * n_per);
    for i in 0..n_per {
        let t = std::f64::consts::PI * i as f64 / (n_per - 1) as f64;
        // a small deterministic wobble so no two distances tie
        let w = 0.03 * ((i * 37 % 11) as f64 / 11.0 - 0.5);
        x[[i, 0]] = t.cos() + w;
        x[[i, 1]] = t.sin() - w;
        x[[n_per + i, 0]] = 1.0 - t.cos() - w;
        x[[n_per + i, 1]] = 0.5 - t.sin() + w;
        y[n_per + i] = 1;
    }
    (x, y)
}

#[test]
fn notes_three_node_example() {
    let w = array![[0.0f64, 2.0, 1.0], [2.0, 0.0, 3.0], [1.0, 3.0, 0.0]];
    let l = laplacian(&w, LaplacianKind::Unnormalized).expect("laplacian");
    assert_eq!(
        l,
        array![[3.0, -2.0, -1.0], [-2.0, 5.0, -3.0], [-1.0, -3.0, 4.0]]
    );
    assert!(
        l.dot(&array![1.0, 1.0, 1.0])
            .iter()
            .all(|v| v.abs() < 1e-15)
    );
    let (vals, vecs) = linalg::eigh(&l).expect("eigh");
    let want = [0.0, 6.0 - 3f64.sqrt(), 6.0 + 3f64.sqrt()];
    for (a, b) in vals.iter().zip(want) {
        assert!((a - b).abs() < 1e-12, "{a} vs {b}");
    }
    let f = vecs.column(1);
    let s = f[0].signum();
    let want_f = [0.7887, -0.2113, -0.5774];
    for (a, b) in f.iter().zip(want_f) {
        assert!((a * s - b).abs() < 1e-4);
    }
    for assign in [SpectralAssign::FiedlerSign, SpectralAssign::KMeans] {
        let m = SpectralClustering::new(2)
            .assign(assign)
            .fit_precomputed(&w)
            .expect("fit");
        assert_eq!(m.labels().to_vec(), vec![0, 1, 1], "{assign:?}");
        assert!(m.predict(&array![[0.0f64]]).is_err(), "no training rows");
    }
    // normalised Laplacians of the same graph: L_sym has the same split
    let m = SpectralClustering::new(2)
        .laplacian(LaplacianKind::Symmetric)
        .assign(SpectralAssign::FiedlerSign)
        .fit_precomputed(&w)
        .expect("fit");
    assert_eq!(m.labels().to_vec(), vec![0, 1, 1]);
}

#[test]
fn two_moons_are_separated() {
    let (x, y) = moons(100);
    let ys = y.as_slice().expect("contiguous");
    let variants = [
        SpectralClustering::new(2),
        SpectralClustering::new(2).affinity(Affinity::Knn {
            n_neighbors: 8,
            sigma: Some(0.05),
        }),
        // variant B: fully connected Gaussian graph, the Fiedler vector's sign
        SpectralClustering::new(2)
            .affinity(Affinity::Gaussian { sigma: 0.08 })
            .assign(SpectralAssign::FiedlerSign),
        SpectralClustering::new(2).laplacian(LaplacianKind::Symmetric),
        SpectralClustering::new(2).laplacian(LaplacianKind::RandomWalk),
        SpectralClustering::new(2).affinity(Affinity::Epsilon { eps: 0.2 }),
        SpectralClustering::new(2)
            .affinity(Affinity::Gaussian { sigma: 0.08 })
            .laplacian(LaplacianKind::Symmetric),
    ];
    for est in variants {
        let m = est.fit(&x).expect("fit");
        assert!(
            same_partition(m.labels().as_slice().expect("contiguous"), ys),
            "{est:?}"
        );
        assert_eq!(m.n_clusters(), 2);
        assert_eq!(m.embedding().nrows(), 200);
        assert!(m.eigenvalues()[0].abs() < 1e-8);
        // new points near each moon go to its cluster
        let p = m
            .predict(&array![[-1.0, 0.05], [2.0, 0.45]])
            .expect("predict");
        assert_eq!(p[0], m.labels()[0]);
        assert_eq!(p[1], m.labels()[100]);
    }
    // k-means on the raw coordinates cannot follow the moons
    let km = KMeans::new(2).n_init(Some(10)).fit(&x).expect("fit");
    assert!(!same_partition(
        km.labels().as_slice().expect("contiguous"),
        ys
    ));
}

#[test]
fn graph_utilities() {
    let (x, _) = moons(30);
    let g = ndlearn_core::neighbors::kneighbors_graph(
        &x,
        3,
        &ndlearn_core::distance::Metric::Euclidean,
        false,
    )
    .expect("graph")
    .symmetrize(ndlearn_core::neighbors::Symmetrize::Union);
    let (nc, comp) = g.connected_components();
    assert_eq!(nc, 2, "two moons, two components at K = 3");
    assert!(comp[..30].iter().all(|&c| c == 0) && comp[30..].iter().all(|&c| c == 1));
    let l = g.laplacian(LaplacianKind::Unnormalized).expect("laplacian");
    let zeros = linalg::eigvalsh(&l)
        .expect("eigvalsh")
        .iter()
        .filter(|v| v.abs() < 1e-10)
        .count();
    assert_eq!(zeros, 2, "one zero eigenvalue per component");
    // L_sym: symmetric, eigenvalues in [0, 2]
    let ls = g.laplacian(LaplacianKind::Symmetric).expect("laplacian");
    for v in linalg::eigvalsh(&ls).expect("eigvalsh") {
        assert!((-1e-12..=2.0 + 1e-12).contains(&v));
    }
    assert!(
        laplacian(
            &array![[0.0f64, 1.0], [2.0, 0.0]],
            LaplacianKind::Unnormalized
        )
        .is_err()
    );
    assert!(
        laplacian(
            &array![[0.0f64, -1.0], [-1.0, 0.0]],
            LaplacianKind::Unnormalized
        )
        .is_err()
    );
}

#[test]
fn bad_input_is_a_typed_error() {
    let (x, _) = moons(10);
    assert!(SpectralClustering::new(0).fit(&x).is_err());
    assert!(SpectralClustering::new(25).fit(&x).is_err());
    assert!(
        SpectralClustering::new(3)
            .assign(SpectralAssign::FiedlerSign)
            .fit(&x)
            .is_err()
    );
    assert!(
        SpectralClustering::new(2)
            .affinity(Affinity::Knn {
                n_neighbors: 20,
                sigma: Some(1.0)
            })
            .fit(&x)
            .is_err()
    );
    assert!(
        SpectralClustering::new(2)
            .affinity(Affinity::Gaussian { sigma: 0.0 })
            .fit(&x)
            .is_err()
    );
    assert!(
        SpectralClustering::new(2)
            .n_components(Some(30))
            .fit(&x)
            .is_err()
    );
    assert!(
        SpectralClustering::new(2)
            .affinity(Affinity::Knn {
                n_neighbors: 3,
                sigma: Some(-1.0)
            })
            .fit(&x)
            .is_err()
    );
    let m = SpectralClustering::new(2).fit(&x).expect("fit");
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn spectral_clustering_conforms() {
    Battery::new("spectral_clustering")
        .clusterer(&SpectralClustering::new(2).affinity(Affinity::Knn {
            n_neighbors: 3,
            sigma: None,
        }))
        .assert_ok();
}

#[test]
fn shift_invert_path_matches_the_dense_solver() {
    // 600 rows (≥ SHIFT_INVERT_MIN_ROWS): the Laplacian's smallest pairs come from
    // shift-invert block Krylov; they must be the dense MRRR solver's
    let (x, y) = moons(300);
    assert!(x.nrows() >= ndlearn_cluster::spectral::SHIFT_INVERT_MIN_ROWS);
    let d2 = linalg::pairwise_sq_euclidean_self(&x);
    let mut w = d2.mapv(|v| (-v.max(0.0) / 0.02).exp());
    for i in 0..w.nrows() {
        w[[i, i]] = 0.0;
    }
    for kind in [LaplacianKind::Unnormalized, LaplacianKind::Symmetric] {
        let m = SpectralClustering::new(2)
            .laplacian(kind)
            .fit_precomputed(&w)
            .expect("fit");
        assert!(
            same_partition(
                m.labels().as_slice().expect("labels"),
                y.as_slice().expect("y")
            ),
            "{kind:?}"
        );
        let l = laplacian(&w, kind).expect("laplacian");
        let want = m.eigenvalues().len();
        let (vals, vecs) = linalg::eigh_range(&l, 0..want).expect("dense");
        let scale = l.diag().iter().fold(0.0f64, |a, &v| a.max(v));
        for (j, (a, b)) in m.eigenvalues().iter().zip(&vals).enumerate() {
            assert!((a - b).abs() < 1e-9 * scale, "{kind:?} λ_{j}: {a} vs {b}");
        }
        // the Fiedler vector (column 0 of the embedding; unit rows for L_sym aside)
        if kind == LaplacianKind::Unnormalized {
            let f = m.embedding().column(0).to_owned();
            let g = vecs.column(1);
            let dot = f.dot(&g).abs() / (f.dot(&f).sqrt() * g.dot(&g).sqrt());
            assert!((dot - 1.0).abs() < 1e-8, "Fiedler vector: {dot}");
        }
    }
}

#[test]
fn sparse_graph_path_matches_the_dense_solver() {
    // kNN and ε graphs from SHIFT_INVERT_MIN_ROWS rows stay sparse: the sparse Cholesky
    // factor of L + σI drives the Krylov iteration. The same graph made dense and given
    // precomputed takes the dense solvers: the same eigenvalues, the same clusters.
    use ndlearn_core::distance::Metric;
    use ndlearn_core::neighbors::{Symmetrize, epsilon_graph, kneighbors_graph};
    let (x, y) = moons(400);
    let knn = kneighbors_graph(&x, 10, &Metric::Euclidean, false)
        .expect("graph")
        .symmetrize(Symmetrize::Union);
    let s = knn.data().iter().map(|d| d * d).sum::<f64>() / knn.nnz() as f64;
    let knn = knn.map_weights(|d| (-d * d / s).exp()).to_dense();
    let eps = epsilon_graph(&x, 0.15, &Metric::Euclidean, false)
        .expect("graph")
        .to_connectivity()
        .to_dense();
    for (affinity, w) in [
        (
            Affinity::Knn {
                n_neighbors: 10,
                sigma: None,
            },
            knn,
        ),
        (Affinity::Epsilon { eps: 0.15 }, eps),
    ] {
        for kind in [
            LaplacianKind::Unnormalized,
            LaplacianKind::Symmetric,
            LaplacianKind::RandomWalk,
        ] {
            let est = SpectralClustering::new(2)
                .affinity(affinity)
                .laplacian(kind);
            let sparse = est.fit(&x).expect("sparse fit");
            let dense = est.fit_precomputed(&w).expect("dense fit");
            let l = laplacian(&w, kind).expect("laplacian");
            let scale = l.diag().iter().fold(0.0f64, |a, &v| a.max(v));
            for (j, (a, b)) in sparse
                .eigenvalues()
                .iter()
                .zip(dense.eigenvalues())
                .enumerate()
            {
                assert!(
                    (a - b).abs() < 1e-9 * scale,
                    "{affinity:?} {kind:?} λ_{j}: {a} vs {b}"
                );
            }
            assert_eq!(sparse.labels(), dense.labels(), "{affinity:?} {kind:?}");
            assert!(
                same_partition(
                    sparse.labels().as_slice().expect("labels"),
                    y.as_slice().expect("y")
                ),
                "{affinity:?} {kind:?}"
            );
        }
    }
}
