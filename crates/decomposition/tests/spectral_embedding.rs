//! Spectral embedding against scikit-learn (`datasets/golden/decomposition/spectral_embedding.json`,
//! written by `scripts/golden/decomposition_manifold.py`): `SpectralEmbedding` (ARPACK) with kNN,
//! RBF and precomputed affinities, embeddings compared column by column up to sign, the
//! Laplacian's bottom eigenvalues and the connectivity; Laplacian-eigenmap properties
//! (`(D − W) u = λ D u`, `Uᵀ D U = I`, `Uᵀ D 1 = 0`), the ε-graph, disconnected graphs, the
//! Nyström extension (exact on the training rows of a precomputed affinity); typed errors; the
//! conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, Axis, array, s};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::{Error, FitUnsupervised, Transform};
use ndlearn_decomposition::{FittedSpectralEmbedding, SpectralAffinity, SpectralEmbedding};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::strategies::config;
use ndlearn_testkit::{Golden, assert_close, max_abs_diff, normalize_column_signs};
use proptest::prelude::*;

fn signs_normalised(a: &Array2<f64>) -> Array2<f64> {
    let mut a = a.clone();
    normalize_column_signs(&mut a);
    a
}

#[test]
fn matches_sklearn() {
    let g = Golden::load("decomposition", "spectral_embedding");
    let mut checked = 0;
    for case in g.cases() {
        let name = case.name();
        let x = case.matrix("x");
        let k = case.usize("k");
        let affinity = match case.string("affinity") {
            "nearest_neighbors" => SpectralAffinity::NearestNeighbors {
                n_neighbors: Some(case.usize("n_neighbors")),
            },
            "rbf" => SpectralAffinity::Rbf {
                gamma: Some(case.scalar("gamma")),
            },
            _ => SpectralAffinity::Precomputed,
        };
        let m = SpectralEmbedding::new(k)
            .affinity(affinity)
            .fit(&x)
            .expect("fit");
        let want = signs_normalised(&case.matrix("embedding"));
        let top = want.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        // both sides flip signs the same way; normalised again so that a pivot tie cannot matter
        let got = signs_normalised(m.embedding());
        eprintln!(
            "{name}: max |diff| / max |embedding| = {:e}",
            max_abs_diff(&got, &want) / top
        );
        assert_close(&got, &want, 0.0, 1e-7 * top, name);
        assert_close(
            m.eigenvalues(),
            &case.vector("eigenvalues"),
            0.0,
            1e-10,
            &format!("{name}: eigenvalues"),
        );
        assert_eq!(m.n_connected_components(), case.usize("n_connected"));
        assert!(m.is_connected());
        if case.has("n_neighbors") {
            assert_eq!(m.n_neighbors(), Some(case.usize("n_neighbors")));
        }
        if case.has("gamma") {
            assert_eq!(m.gamma(), Some(case.scalar("gamma")));
        }
        checked += 1;
    }
    assert_eq!(checked, 6);
    // scikit-learn's defaults: n_neighbors = max(n / 10, 1), gamma = 1 / n_features
    let case = g.case("wine_rbf_default_k2");
    let m: FittedSpectralEmbedding<f64> = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::Rbf { gamma: None })
        .fit(&case.matrix("x"))
        .expect("fit");
    assert_eq!(m.gamma(), Some(case.scalar("gamma")));
    let m: FittedSpectralEmbedding<f64> = SpectralEmbedding::new(2)
        .fit(&case.matrix("x"))
        .expect("fit");
    assert_eq!(m.n_neighbors(), Some(17));
}

/// Dense RBF affinity with a zero diagonal and its degrees.
fn rbf_affinity(x: &Array2<f64>, gamma: f64) -> (Array2<f64>, ndarray::Array1<f64>) {
    let mut w = Kernel::Rbf { gamma }.gram(x).expect("gram");
    w.diag_mut().fill(0.0);
    let d = w.sum_axis(Axis(1));
    (w, d)
}

fn points() -> impl Strategy<Value = Array2<f64>> {
    (8usize..30, 1usize..4).prop_flat_map(|(n, d)| {
        prop::collection::vec(-2.0f64..2.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn laplacian_eigenmap_equations(x in points()) {
        let n = x.nrows();
        let k = 2.min(n - 2);
        let (w, deg) = rbf_affinity(&x, 0.5);
        let m = SpectralEmbedding::new(k)
            .affinity(SpectralAffinity::Rbf { gamma: Some(0.5) })
            .fit(&x)
            .expect("fit");
        let u = m.embedding();
        let lam = m.eigenvalues();
        prop_assert!(lam[0].abs() < 1e-10);
        for j in 0..k {
            let col = u.column(j);
            let wu = w.dot(&col);
            // (D − W) u = λ D u
            for i in 0..n {
                let r = deg[i] * col[i] - wu[i] - lam[j + 1] * deg[i] * col[i];
                prop_assert!(r.abs() < 1e-9, "residual {}", r);
            }
            // D-orthonormal and D-orthogonal to the constant vector
            let du = &col * &deg;
            prop_assert!((du.dot(&col) - 1.0).abs() < 1e-9);
            prop_assert!(du.sum().abs() < 1e-9);
        }
        // the same embedding from the precomputed affinity; the Nyström extension of its
        // training rows reproduces the embedding exactly
        let p = SpectralEmbedding::new(k)
            .affinity(SpectralAffinity::Precomputed)
            .fit(&w)
            .expect("fit");
        prop_assert!(max_abs_diff(&signs_normalised(p.embedding()), &signs_normalised(u)) < 1e-8);
        let back = p.transform(&w).expect("transform");
        prop_assert!(max_abs_diff(&back, p.embedding()) < 1e-9);
    }
}

/// Above 500 points the smallest eigenpairs come from the block Krylov solver on `2I − L`: the
/// generalised equations still hold to rounding.
#[test]
fn large_graphs_use_the_krylov_solver_and_solve_the_same_equations() {
    let x = curve(700);
    let gamma = 2.0;
    let (w, deg) = rbf_affinity(&x, gamma);
    let m = SpectralEmbedding::new(3)
        .affinity(SpectralAffinity::Rbf { gamma: Some(gamma) })
        .fit(&x)
        .expect("fit");
    let u = m.embedding();
    let lam = m.eigenvalues();
    assert!(lam[0].abs() < 1e-10);
    assert!(lam.windows(2).into_iter().all(|p| p[0] <= p[1] + 1e-12));
    for j in 0..3 {
        let col = u.column(j);
        let wu = w.dot(&col);
        for i in 0..x.nrows() {
            let r = deg[i] * col[i] - wu[i] - lam[j + 1] * deg[i] * col[i];
            assert!(r.abs() < 1e-8, "residual {r}");
        }
        let du = &col * &deg;
        assert!((du.dot(&col) - 1.0).abs() < 1e-9);
    }
}

/// `n` points along a wavy closed curve.
fn curve(n: usize) -> Array2<f64> {
    Array2::from_shape_fn((n, 2), |(i, j)| {
        let t = std::f64::consts::TAU * i as f64 / n as f64;
        let r = 1.0 + 0.3 * (3.0 * t).sin();
        if j == 0 { r * t.cos() } else { r * t.sin() }
    })
}

#[test]
fn nystrom_extension_and_epsilon_graph() {
    let x = curve(120);
    // kNN: new points near training points land near their embedding
    let m = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::NearestNeighbors {
            n_neighbors: Some(8),
        })
        .fit(&x)
        .expect("fit");
    assert!(m.is_connected());
    let probe = x.mapv(|v| v + 1e-3);
    let z = m.transform(&probe).expect("transform");
    let emb = m.embedding();
    for j in 0..2 {
        let (a, b) = (z.column(j), emb.column(j));
        let corr = a.dot(&b) / (a.dot(&a).sqrt() * b.dot(&b).sqrt());
        assert!(corr > 0.95, "column {j}: correlation {corr}");
    }
    // RBF: a training row's own affinity (1) is counted in its Nyström sum, so it lands close to
    // its embedding, not on it
    let r = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::Rbf { gamma: Some(2.0) })
        .fit(&x)
        .expect("fit");
    let back = r.transform(&x).expect("t");
    let rel = max_abs_diff(&back, r.embedding())
        / r.embedding().iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert!(rel < 0.2, "{rel}");
    // ε-graph = the precomputed 0/1 affinity of the same graph
    let eps = 0.3;
    let e = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::Epsilon { eps })
        .fit(&x)
        .expect("fit");
    let d = ndlearn_core::distance::pairwise_distances(&x, &x, &Default::default()).expect("d");
    let mut w = d.mapv(|v| if v <= eps { 1.0 } else { 0.0 });
    w.diag_mut().fill(0.0);
    let p = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::Precomputed)
        .fit(&w)
        .expect("fit");
    assert_eq!(e.n_connected_components(), p.n_connected_components());
    assert!(max_abs_diff(e.embedding(), p.embedding()) < 1e-10);
    let ze = e.transform(&probe).expect("t");
    let dp =
        ndlearn_core::distance::pairwise_distances(&probe, &x, &Default::default()).expect("d");
    let zp = p
        .transform(&dp.mapv(|v| if v <= eps { 1.0 } else { 0.0 }))
        .expect("t");
    assert!(max_abs_diff(&ze, &zp) < 1e-10);
    // a point far from everything has no ε-neighbour: placed at 0
    let far = e.transform(&array![[50.0, 50.0]]).expect("t");
    assert!(far.iter().all(|&v| v == 0.0));
}

#[test]
fn disconnected_graph_is_reported() {
    // two far-apart blobs and a 3-NN graph: two components, the embedding still returned
    let mut x = ndarray::concatenate![Axis(0), curve(20), curve(20)];
    x.slice_mut(s![20.., ..]).mapv_inplace(|v| v + 100.0);
    let m = SpectralEmbedding::new(2)
        .affinity(SpectralAffinity::NearestNeighbors {
            n_neighbors: Some(3),
        })
        .fit(&x)
        .expect("fit");
    assert!(!m.is_connected());
    assert_eq!(m.n_connected_components(), 2);
    // eigenvalue 0 twice: the first kept column separates the components
    assert!(m.eigenvalues()[1].abs() < 1e-10);
    let c = m.embedding().column(0);
    let (a, b) = (c[0], c[25]);
    assert!(c.slice(s![..20]).iter().all(|&v| (v - a).abs() < 1e-8));
    assert!(c.slice(s![20..]).iter().all(|&v| (v - b).abs() < 1e-8));
    assert!((a - b).abs() > 1e-3);
    assert!(m.embedding().iter().all(|v| v.is_finite()));
}

#[test]
fn bad_input_gives_typed_errors() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]];
    let mut nan = x.clone();
    nan[[2, 0]] = f64::NAN;
    assert!(matches!(
        SpectralEmbedding::new(1).fit(&nan),
        Err(Error::NonFinite { .. })
    ));
    let pre = SpectralEmbedding::new(1).affinity(SpectralAffinity::Precomputed);
    assert!(matches!(
        pre.fit(&x.slice(s![..3, ..]).to_owned()),
        Err(Error::ShapeMismatch { .. })
    ));
    let asym = array![[0.0f64, 1.0, 0.5], [0.9, 0.0, 1.0], [0.5, 1.0, 0.0]];
    assert!(matches!(pre.fit(&asym), Err(Error::InvalidParam { .. })));
    let neg = array![[0.0f64, -1.0, 0.5], [-1.0, 0.0, 1.0], [0.5, 1.0, 0.0]];
    assert!(matches!(pre.fit(&neg), Err(Error::InvalidParam { .. })));
    // k >= n, n_neighbors > n
    assert!(matches!(
        SpectralEmbedding::new(4).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    let nn = SpectralEmbedding::new(1).affinity(SpectralAffinity::NearestNeighbors {
        n_neighbors: Some(5),
    });
    assert!(matches!(nn.fit(&x), Err(Error::InvalidParam { .. })));
    assert!(matches!(
        SpectralEmbedding::new(1).fit(&array![[1.0f64, 2.0]]),
        Err(Error::TooFewSamples { .. })
    ));
    // transform: wrong width, negative precomputed affinities
    let m = SpectralEmbedding::new(1).fit(&x).expect("fit");
    assert!(matches!(
        m.transform(&array![[1.0f64]]),
        Err(Error::ShapeMismatch { .. })
    ));
    let w = array![[0.0f64, 1.0, 0.5], [1.0, 0.0, 1.0], [0.5, 1.0, 0.0]];
    let p = pre.fit(&w).expect("fit");
    assert!(matches!(
        p.transform(&array![[1.0f64, -1.0, 0.0]]),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        p.transform(&array![[1.0f64, 1.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
}

#[cfg(feature = "serde")]
#[test]
fn conformance() {
    Battery::new("spectral_embedding")
        .transformer(&SpectralEmbedding::new(2))
        .assert_ok();
    Battery::new("spectral_embedding_rbf")
        .transformer(&SpectralEmbedding::new(2).affinity(SpectralAffinity::Rbf { gamma: None }))
        .assert_ok();
    Battery::new("spectral_embedding_epsilon")
        .transformer(&SpectralEmbedding::new(2).affinity(SpectralAffinity::Epsilon { eps: 5.0 }))
        .assert_ok();
}
