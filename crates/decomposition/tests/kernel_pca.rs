//! KernelPCA against scikit-learn (`datasets/golden/decomposition/kernel_pca.json`, written by
//! `scripts/golden/decomposition_kpca_ipca.py`): eigenvalues, eigenvectors, transforms of
//! training and new rows and pre-images for linear, RBF and polynomial kernels; linear kernel =
//! PCA; the subspace solver = the dense one; errors; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, Axis, array, s};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::{Error, FitUnsupervised, InverseTransform, Transform};
use ndlearn_decomposition::{KernelPca, KernelPcaSolver, Pca};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Case, Golden, assert_close};

fn kernel(case: &Case) -> Kernel {
    match case.string("kernel") {
        "linear" => Kernel::Linear,
        "rbf" => Kernel::rbf_gamma(case.scalar("gamma")),
        "poly" => Kernel::polynomial_gamma(
            case.usize("degree") as u32,
            case.scalar("gamma"),
            case.scalar("coef0"),
        ),
        other => panic!("unknown kernel {other}"),
    }
}

#[test]
fn matches_sklearn_dense_for_linear_rbf_and_polynomial_kernels() {
    let g = Golden::load("decomposition", "kernel_pca");
    let mut checked = 0;
    for case in g.cases() {
        let x = case.matrix("x");
        let k = case.usize("k");
        let est = KernelPca::new(k, kernel(case))
            .solver(KernelPcaSolver::Dense)
            .fit_inverse_transform(true)
            .alpha(case.scalar("alpha"));
        let m = est.fit(&x).expect("fit");
        let name = case.name();
        let ev = case.vector("eigenvalues");
        assert_close(m.eigenvalues(), &ev, 1e-10, 1e-10 * ev[0], name);
        assert_close(
            m.eigenvectors(),
            &case.matrix("eigenvectors"),
            1e-7,
            1e-9,
            &format!("{name} eigenvectors"),
        );
        let z = m.transform(&x).expect("transform");
        assert_close(
            &z.slice(s![..20, ..]),
            &case.matrix("transform"),
            1e-7,
            1e-9,
            &format!("{name} transform"),
        );
        let zn = m.transform(&case.matrix("x_new")).expect("transform new");
        assert_close(
            &zn,
            &case.matrix("transform_new"),
            1e-7,
            1e-9,
            &format!("{name} transform of new rows"),
        );
        let back = m
            .inverse_transform(&z.slice(s![..10, ..]))
            .expect("inverse");
        assert_close(
            &back,
            &case.matrix("inverse"),
            1e-6,
            1e-8,
            &format!("{name} pre-images"),
        );
        checked += 1;
    }
    assert_eq!(checked, 12);
}

#[test]
fn linear_kernel_equals_pca() {
    let x = ndlearn_datasets::by_name("wine").expect("wine").x().clone();
    let kp = KernelPca::new(3, Kernel::Linear).fit(&x).expect("kpca");
    let p = Pca::new(3).fit(&x).expect("pca");
    let zk = kp.transform(&x).expect("t");
    let zp = p.transform(&x).expect("t");
    // equal up to the sign of each component
    for j in 0..3 {
        let s = if zk[[0, j]] * zp[[0, j]] < 0.0 {
            -1.0
        } else {
            1.0
        };
        let diff = (&zk.column(j) * s - zp.column(j)).mapv(f64::abs);
        let scale = zp.column(j).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(diff.iter().all(|&v| v < 1e-8 * scale), "component {j}");
    }
    // eigenvalues are the squared singular values
    let s2 = p.singular_values().mapv(|v| v * v);
    assert_close(kp.eigenvalues(), &s2, 1e-9, 0.0, "λ = σ²");
    assert_close(
        &kp.explained_variance(),
        &(s2 / x.nrows() as f64),
        1e-9,
        0.0,
        "λ / n",
    );
}

/// The notes' seed example (CL-167): two concentric circles are not separable by PCA on the
/// raw coordinates, but PCA on the explicit degree-2 feature map `(x₁², √2 x₁x₂, x₂²)` is, and
/// it equals kernel PCA with the kernel `(xᵀx′)²` that map induces.
#[test]
fn explicit_feature_map_pca_equals_kernel_pca_on_concentric_circles() {
    let n = 40;
    let x = Array2::from_shape_fn((2 * n, 2), |(i, j)| {
        let r = if i < n { 1.0 } else { 3.0 };
        let a = (i % n) as f64 * std::f64::consts::TAU / n as f64 + 0.1;
        r * if j == 0 { a.cos() } else { a.sin() }
    });
    let phi = ndlearn_core::kernel::polynomial_feature_map(&x, 2).expect("map");
    let explicit = Pca::new(3).fit(&phi).expect("pca");
    let kernel = KernelPca::new(3, Kernel::homogeneous_polynomial(2))
        .fit(&x)
        .expect("kpca");
    // the same spectrum (λ = σ²) ...
    let s2 = explicit.singular_values().mapv(|v| v * v);
    assert_close(kernel.eigenvalues(), &s2, 1e-9, 1e-9, "eigenvalues");
    // ... and the same scores up to a rotation inside the degenerate (angular) eigenspace:
    // Z Zᵀ is invariant to it
    let ze = explicit.transform(&phi).expect("t");
    let zk = kernel.transform(&x).expect("t");
    assert_close(&zk.dot(&zk.t()), &ze.dot(&ze.t()), 1e-9, 1e-9, "Z Zᵀ");
    // one component (the radial one, x₁² + x₂² = r²) is constant on each circle and separates
    // them; raw-coordinate PCA has no such direction
    let radial = (0..3)
        .find(|&j| {
            let (a, b) = (zk[[0, j]], zk[[n, j]]);
            (0..n).all(|i| (zk[[i, j]] - a).abs() < 1e-9)
                && (n..2 * n).all(|i| (zk[[i, j]] - b).abs() < 1e-9)
                && (a - b).abs() > 1.0
        })
        .expect("a component separating the circles");
    assert!(radial < 3);
    let raw = Pca::new(2).fit(&x).expect("pca").transform(&x).expect("t");
    assert!((0..2).all(|j| (0..n).any(|i| (raw[[i, j]] - raw[[0, j]]).abs() > 0.1)));
}

#[test]
fn subspace_solver_matches_dense() {
    let x = ndlearn_datasets::by_name("digits")
        .expect("digits")
        .x()
        .clone();
    let x = x.slice(s![..800, ..]).to_owned();
    let kern = Kernel::rbf_gamma(1e-3);
    let dense = KernelPca::new(8, kern.clone())
        .solver(KernelPcaSolver::Dense)
        .fit(&x)
        .expect("dense");
    let sub = KernelPca::new(8, kern).fit(&x).expect("auto");
    assert_eq!(sub.solver(), KernelPcaSolver::Subspace);
    assert_close(
        sub.eigenvalues(),
        dense.eigenvalues(),
        1e-10,
        0.0,
        "eigenvalues",
    );
    assert_close(
        sub.eigenvectors(),
        dense.eigenvectors(),
        1e-7,
        1e-9,
        "eigenvectors",
    );
    let q = x.slice(s![..5, ..]).to_owned();
    assert_close(
        &sub.transform(&q).expect("t"),
        &dense.transform(&q).expect("t"),
        1e-7,
        1e-9,
        "transform",
    );
}

#[test]
fn training_scores_equal_transform_and_components_are_centred() {
    let x = ndlearn_datasets::by_name("iris").expect("iris").x().clone();
    let m = KernelPca::new(3, Kernel::rbf_gamma(0.3))
        .fit(&x)
        .expect("fit");
    let z = m.transform(&x).expect("t");
    let t = m.training_scores();
    assert!((&z - &t).iter().all(|v| v.abs() < 1e-9));
    // scores of the training rows have zero mean (centring in feature space)
    let mean = z.mean_axis(Axis(0)).expect("rows");
    assert!(mean.iter().all(|v| v.abs() < 1e-9), "{mean}");
    // all components when n_components is None: the positive eigenvalues only
    let all = KernelPca::default().fit(&x).expect("fit");
    assert_eq!(all.n_components(), 4); // iris has rank 4 after centring
}

#[test]
fn errors_are_typed() {
    let x = array![[0.0f64, 1.0], [1.0, 0.5], [2.0, 2.0]];
    assert!(matches!(
        KernelPca::new(4, Kernel::Linear).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        KernelPca::new(0, Kernel::Linear).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    let m = KernelPca::new(2, Kernel::rbf_gamma(1.0))
        .fit(&x)
        .expect("fit");
    assert!(matches!(
        m.inverse_transform(&array![[0.0, 0.0]]),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        m.transform(&array![[0.0, 1.0, 2.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
    let bad = array![[0.0f64, f64::NAN], [1.0, 0.5], [2.0, 2.0]];
    assert!(matches!(
        KernelPca::new(1, Kernel::Linear).fit(&bad),
        Err(Error::NonFinite { .. })
    ));
    // a kernel that is not PSD on the data, asked for every component
    let xs = Array2::from_shape_fn((30, 2), |(i, j)| (i as f64 * 0.7 + j as f64).sin() * 3.0);
    let sig = KernelPca::new(30, Kernel::sigmoid(2.0, -1.0)).fit(&xs);
    assert!(matches!(sig, Err(Error::InvalidParam { .. })), "{sig:?}");
}

#[cfg(feature = "serde")]
#[test]
fn f32_and_conformance() {
    let x = array![
        [1.0f32, 2.0],
        [2.0, 1.0],
        [3.0, 4.0],
        [4.0, 3.5],
        [0.5, 0.2]
    ];
    let m = KernelPca::new(2, Kernel::rbf_gamma(0.5))
        .fit(&x)
        .expect("fit");
    assert_eq!(m.transform(&x).expect("t").dim(), (5, 2));
    Battery::new("kernel_pca")
        .transformer(&KernelPca::new(2, Kernel::rbf_gamma(0.5)).fit_inverse_transform(true))
        .assert_ok();
}
