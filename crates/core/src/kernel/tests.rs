//! Unit tests of `kernel`: hand-computed values (each explained), every error path, the course
//! notes' worked example, Gram/cross-Gram/diag consistency across tile boundaries, thread
//! invariance.

use ndarray::{Array1, Array2, array, s};

use super::*;
use crate::par;

fn x2() -> (Array1<f64>, Array1<f64>) {
    // x·y = 1·3 + 2·(−1) = 1; ‖x − y‖² = 4 + 9 = 13; ‖x − y‖₁ = 2 + 3 = 5; ‖x‖² = 5, ‖y‖² = 10.
    (array![1.0, 2.0], array![3.0, -1.0])
}

fn ev(k: &Kernel) -> f64 {
    let (a, b) = x2();
    k.eval(&a, &b).expect("valid kernel and inputs")
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

/// Small deterministic data with a non-trivial structure.
fn data(n: usize, d: usize, seed: f64) -> Array2<f64> {
    Array2::from_shape_fn((n, d), |(i, j)| {
        ((i * 7 + j * 13) as f64 * 0.37 + seed).sin() * 1.5
    })
}

fn is_invalid(r: Result<impl std::fmt::Debug>, name: &str) -> bool {
    matches!(r, Err(Error::InvalidParam { name: n, .. }) if n == name)
}

#[test]
fn leaf_values_by_hand() {
    assert_eq!(ev(&Kernel::linear()), 1.0);
    // (x·y)² = 1: the catalog's derived test vector (the multinomial map).
    assert_eq!(ev(&Kernel::homogeneous_polynomial(2)), 1.0);
    // Notes' form (x·y + θ)^d with θ = 1, d = 2: (1 + 1)² = 4.
    assert_eq!(ev(&Kernel::polynomial(2, 1.0)), 4.0);
    // scikit-learn's form (γ x·y + c₀)^d = (0.5 + 1)³ = 3.375.
    assert_eq!(ev(&Kernel::polynomial_gamma(3, 0.5, 1.0)), 3.375);
    // exp(−0.1 · 13).
    assert!(close(ev(&Kernel::rbf_gamma(0.1)), (-1.3f64).exp(), 1e-15));
    // σ = 1 → γ = 1/2 → exp(−6.5).
    assert!(close(
        ev(&Kernel::rbf_sigma(1.0).expect("σ > 0")),
        (-6.5f64).exp(),
        1e-15
    ));
    // exp(−0.2 · 5) = e⁻¹.
    assert!(close(ev(&Kernel::laplacian(0.2)), (-1.0f64).exp(), 1e-15));
    // tanh(0.5 · 1 − 0.5) = tanh 0 = 0.
    assert_eq!(ev(&Kernel::sigmoid(0.5, -0.5)), 0.0);
    // xᵀ diag(2, 1) y = 2·1·3 + 2·(−1) = 4.
    let q = Kernel::quadratic_form(array![[2.0, 0.0], [0.0, 1.0]]).expect("PSD");
    assert_eq!(ev(&q), 4.0);
}

#[test]
fn sigma_gamma_mapping() {
    assert_eq!(rbf_gamma_from_sigma(2.0), 0.125);
    assert!(close(rbf_sigma_from_gamma(0.125), 2.0, 1e-15));
    assert_eq!(
        Kernel::rbf_sigma(2.0).expect("ok"),
        Kernel::Rbf { gamma: 0.125 }
    );
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e-200] {
        assert!(is_invalid(Kernel::rbf_sigma(bad), "sigma"), "sigma = {bad}");
    }
}

#[test]
fn combinator_values_by_hand() {
    let lin = Kernel::linear;
    assert_eq!(ev(&lin().scaled(2.5)), 2.5);
    // 1 + 1² = 2.
    assert_eq!(ev(&lin().plus(Kernel::homogeneous_polynomial(2))), 2.0);
    // 1 · (1 + 1)² = 4.
    assert_eq!(ev(&lin().times(Kernel::polynomial(2, 1.0))), 4.0);
    assert!(close(ev(&lin().exp()), std::f64::consts::E, 1e-15));
    // q(t) = 1 + 2t + 3t² at t = 1 → 6.
    assert_eq!(ev(&lin().polynomial_of(vec![1.0, 2.0, 3.0])), 6.0);
    // Cosine: 1/(√5 √10) = 1/√50, both through the input norm and the feature-space norm.
    let cos = 1.0 / 50f64.sqrt();
    assert!(close(
        ev(&lin().weighted(WeightFn::InverseNorm)),
        cos,
        1e-15
    ));
    assert!(close(ev(&lin().normalized()), cos, 1e-15));
    // e^{−0.1·5} · 1 · e^{−0.1·10} = e^{−1.5}.
    let g = lin().weighted(WeightFn::Gaussian { gamma: 0.1 });
    assert!(close(ev(&g), (-1.5f64).exp(), 1e-15));
    // x = (1, 2, 3), y = (3, −1, 2): linear on 0..2 gives 1, RBF(γ = 1) on 2..3 gives e^{−1}.
    let (a, b) = (array![1.0, 2.0, 3.0], array![3.0, -1.0, 2.0]);
    let sp = Kernel::subvector_product(0..2, lin(), 2..3, Kernel::rbf_gamma(1.0));
    let ss = Kernel::subvector_sum(0..2, lin(), 2..3, Kernel::rbf_gamma(1.0));
    let e1 = (-1.0f64).exp();
    assert!(close(sp.eval(&a, &b).expect("ok"), e1, 1e-15));
    assert!(close(ss.eval(&a, &b).expect("ok"), 1.0 + e1, 1e-15));
}

#[test]
fn normalized_kernel_has_unit_diagonal_and_zero_rows_give_zero() {
    let x = array![[1.0, 2.0], [0.0, 0.0], [-3.0, 0.5]];
    let k = Kernel::polynomial(3, 1.0).normalized();
    let g = k.gram(&x).expect("ok");
    for i in 0..3 {
        assert!(close(g[[i, i]], 1.0, 1e-14));
    }
    // Cosine weights: the zero row has f = 0 (convention), so its row and column vanish.
    let c = Kernel::linear()
        .weighted(WeightFn::InverseNorm)
        .gram(&x)
        .expect("ok");
    assert!(c.row(1).iter().all(|&v| v == 0.0));
    assert!(close(c[[0, 0]], 1.0, 1e-15));
}

#[test]
fn rbf_from_the_rules_equals_rbf() {
    // exp(−γ‖x − x′‖²) = e^{−γ‖x‖²} exp(2γ xᵀx′) e^{−γ‖x′‖²}: rules 1, 4 and 2.
    let gamma = 0.3;
    let built = Kernel::linear()
        .scaled(2.0 * gamma)
        .exp()
        .weighted(WeightFn::Gaussian { gamma });
    let x = data(30, 3, 0.2);
    let y = data(11, 3, 1.7);
    let a = built.cross_gram(&x, &y).expect("ok");
    let b = Kernel::rbf_gamma(gamma).cross_gram(&x, &y).expect("ok");
    let diff = (&a - &b).iter().fold(0.0f64, |m, v| m.max(v.abs()));
    assert!(diff < 1e-12, "max diff {diff}");
    assert!(built.is_guaranteed_psd());
}

/// Every kind of node, on inputs with 4 columns.
fn zoo() -> Vec<Kernel> {
    let a = array![
        [2.0, 0.5, 0.0, 0.0],
        [0.5, 1.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 0.0, 0.0, 3.0]
    ];
    vec![
        Kernel::linear(),
        Kernel::polynomial_gamma(3, 0.2, 1.0),
        Kernel::homogeneous_polynomial(2),
        Kernel::rbf_gamma(0.4),
        Kernel::laplacian(0.3),
        Kernel::sigmoid(0.1, -0.2),
        Kernel::quadratic_form(a).expect("PSD"),
        Kernel::rbf_gamma(1.0).scaled(3.0),
        Kernel::rbf_gamma(1.0).plus(Kernel::polynomial(2, 1.0)),
        Kernel::laplacian(0.5).times(Kernel::linear()),
        Kernel::linear().scaled(0.1).exp(),
        Kernel::rbf_gamma(0.5).polynomial_of(vec![0.5, 0.0, 2.0]),
        Kernel::polynomial(2, 1.0).normalized(),
        Kernel::linear().weighted(WeightFn::InverseNorm),
        Kernel::linear().weighted(WeightFn::Gaussian { gamma: 0.2 }),
        Kernel::subvector_product(
            0..2,
            Kernel::rbf_gamma(1.0),
            1..4,
            Kernel::polynomial(2, 1.0),
        ),
        Kernel::subvector_sum(0..1, Kernel::laplacian(1.0), 2..4, Kernel::linear()),
    ]
}

#[test]
fn gram_cross_gram_diag_and_eval_agree_across_tiles() {
    // 300 rows: two 256-row tiles (one partial) in the symmetric map, 5 row chunks in the cross map.
    let x = data(300, 4, 0.1);
    let y = data(7, 4, 2.3);
    for k in zoo() {
        let g = k.gram(&x).expect("ok");
        assert_eq!(g.dim(), (300, 300));
        assert_eq!(g, g.t(), "{k:?}: not exactly symmetric");
        let c = k.cross_gram(&x, &x).expect("ok");
        let scale = g.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let diff = (&g - &c).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(diff <= 1e-12 * scale, "{k:?}: gram vs cross_gram {diff}");
        let d = k.diag(&x).expect("ok");
        for i in [0, 1, 255, 256, 299] {
            assert!(close(d[i], g[[i, i]], 1e-12), "{k:?}: diag {i}");
            for j in [0, 3, 200, 256, 299] {
                let e = k.eval(&x.row(i), &x.row(j)).expect("ok");
                assert!(
                    (e - g[[i, j]]).abs() <= 1e-12 * scale,
                    "{k:?}: eval ({i}, {j})"
                );
            }
        }
        let xy = k.cross_gram(&x, &y).expect("ok");
        assert_eq!(xy.dim(), (300, 7));
        for (i, j) in [(0, 0), (299, 6), (64, 3)] {
            let e = k.eval(&x.row(i), &y.row(j)).expect("ok");
            assert!(
                (e - xy[[i, j]]).abs() <= 1e-12 * scale,
                "{k:?}: cross ({i}, {j})"
            );
        }
    }
}

#[test]
fn distance_kernels_have_unit_diagonal() {
    let x = data(260, 3, 0.4);
    for k in [Kernel::rbf_gamma(2.0), Kernel::laplacian(2.0)] {
        let g = k.gram(&x).expect("ok");
        assert!(g.diag().iter().all(|&v| v == 1.0));
    }
}

#[test]
fn results_do_not_depend_on_the_thread_count() {
    let x = data(530, 5, 0.9);
    let y = data(70, 5, 0.3);
    let k = Kernel::rbf_gamma(0.2).plus(Kernel::polynomial(2, 1.0).normalized());
    let g1 = par::with_threads(1, || k.gram(&x))
        .expect("pool")
        .expect("ok");
    let g3 = par::with_threads(3, || k.gram(&x))
        .expect("pool")
        .expect("ok");
    assert!(g1.iter().zip(&g3).all(|(a, b)| a.to_bits() == b.to_bits()));
    let c1 = par::with_threads(1, || k.cross_gram(&x, &y))
        .expect("pool")
        .expect("ok");
    let c3 = par::with_threads(3, || k.cross_gram(&x, &y))
        .expect("pool")
        .expect("ok");
    assert!(c1.iter().zip(&c3).all(|(a, b)| a.to_bits() == b.to_bits()));
}

#[test]
fn f32_is_close_to_f64() {
    let x = data(40, 3, 0.5);
    let x32 = x.mapv(|v| v as f32);
    for k in zoo().into_iter().filter(|k| k.check_n_features(3).is_ok()) {
        let g = k.gram(&x).expect("ok");
        let g32 = k.gram(&x32).expect("ok");
        let scale = g.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        let diff = g
            .iter()
            .zip(&g32)
            .fold(0.0f64, |m, (a, b)| m.max((a - f64::from(*b)).abs()));
        assert!(diff <= 1e-4 * scale, "{k:?}: f32 diff {diff}");
    }
}

#[test]
fn empty_inputs_give_empty_matrices() {
    let x = Array2::<f64>::zeros((0, 3));
    let y = data(4, 3, 0.0);
    let k = Kernel::rbf_gamma(1.0).plus(Kernel::linear());
    assert_eq!(k.gram(&x).expect("ok").dim(), (0, 0));
    assert_eq!(k.cross_gram(&x, &y).expect("ok").dim(), (0, 4));
    assert_eq!(k.cross_gram(&y, &x).expect("ok").dim(), (4, 0));
    assert_eq!(k.diag(&x).expect("ok").len(), 0);
    assert!(matches!(
        k.is_mercer_on(&x, None),
        Err(Error::TooFewSamples { .. })
    ));
}

#[test]
fn invalid_parameters_are_rejected() {
    let bad: Vec<(Kernel, &str)> = vec![
        (Kernel::polynomial_gamma(2, 0.0, 1.0), "gamma"),
        (Kernel::polynomial_gamma(2, -1.0, 1.0), "gamma"),
        (Kernel::polynomial_gamma(2, 1.0, f64::NAN), "coef0"),
        (Kernel::polynomial(0, 1.0), "degree"),
        (Kernel::polynomial(u32::MAX, 1.0), "degree"),
        (Kernel::homogeneous_polynomial(0), "degree"),
        (Kernel::rbf_gamma(0.0), "gamma"),
        (Kernel::rbf_gamma(f64::INFINITY), "gamma"),
        (Kernel::laplacian(-0.5), "gamma"),
        (Kernel::sigmoid(f64::NAN, 0.0), "gamma"),
        (Kernel::sigmoid(1.0, f64::INFINITY), "coef0"),
        (Kernel::linear().scaled(0.0), "c"),
        (Kernel::linear().scaled(-2.0), "c"),
        (Kernel::linear().polynomial_of(vec![]), "coeffs"),
        (Kernel::linear().polynomial_of(vec![1.0, -0.5]), "coeffs"),
        (
            Kernel::linear().weighted(WeightFn::Gaussian { gamma: 0.0 }),
            "gamma",
        ),
        (
            Kernel::subvector_sum(1..1, Kernel::linear(), 0..1, Kernel::linear()),
            "a",
        ),
        (
            Kernel::subvector_product(
                0..1,
                Kernel::linear(),
                std::ops::Range { start: 2, end: 1 },
                Kernel::linear(),
            ),
            "b",
        ),
        // Nested: the error comes from the inner node.
        (
            Kernel::linear().plus(Kernel::rbf_gamma(-1.0)).exp(),
            "gamma",
        ),
        (
            Kernel::QuadraticForm {
                a: array![[1.0, 0.0]],
            },
            "a",
        ),
        (
            Kernel::QuadraticForm {
                a: Array2::zeros((0, 0)),
            },
            "a",
        ),
        (
            Kernel::QuadraticForm {
                a: array![[1.0, f64::NAN], [f64::NAN, 1.0]],
            },
            "a",
        ),
        // Symmetric but indefinite (eigenvalues 3 and −1).
        (
            Kernel::QuadraticForm {
                a: array![[1.0, 2.0], [2.0, 1.0]],
            },
            "a",
        ),
        // Not symmetric.
        (
            Kernel::QuadraticForm {
                a: array![[1.0, 0.5], [0.0, 1.0]],
            },
            "a",
        ),
    ];
    let x = data(3, 2, 0.0);
    for (k, name) in bad {
        assert!(is_invalid(k.validate(), name), "{k:?}: {:?}", k.validate());
        assert!(is_invalid(k.gram(&x), name), "{k:?}");
        assert!(is_invalid(k.cross_gram(&x, &x), name), "{k:?}");
        assert!(is_invalid(k.diag(&x), name), "{k:?}");
    }
    assert!(is_invalid(
        Kernel::quadratic_form(array![[1.0, 2.0], [2.0, 1.0]]),
        "a"
    ));
    // eval skips only the PSD test of A; the cheap checks still run.
    let (a, b) = x2();
    assert!(is_invalid(Kernel::rbf_gamma(0.0).eval(&a, &b), "gamma"));
}

#[test]
fn shape_and_finiteness_errors() {
    let x = data(4, 3, 0.0);
    let k = Kernel::rbf_gamma(1.0);
    assert!(matches!(
        k.cross_gram(&x, &data(2, 2, 0.0)),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        k.eval(&array![1.0, 2.0], &array![1.0]),
        Err(Error::ShapeMismatch { .. })
    ));
    let q = Kernel::quadratic_form(Array2::eye(2)).expect("PSD");
    assert!(matches!(q.gram(&x), Err(Error::ShapeMismatch { .. })));
    assert!(matches!(
        q.eval(&x.row(0), &x.row(1)),
        Err(Error::ShapeMismatch { .. })
    ));
    let sub = Kernel::subvector_sum(0..2, Kernel::linear(), 2..4, Kernel::linear());
    assert!(matches!(sub.gram(&x), Err(Error::ShapeMismatch { .. })));
    // A quadratic form inside a sub-vector kernel sees the sub-vector's length.
    let subq = Kernel::subvector_product(1..3, q, 0..1, Kernel::linear());
    assert!(subq.gram(&x).is_ok());
    let mut bad = x.clone();
    bad[[2, 1]] = f64::NAN;
    assert!(matches!(
        k.gram(&bad),
        Err(Error::NonFinite {
            context: "x",
            row: 2,
            col: 1
        })
    ));
    assert!(matches!(
        k.cross_gram(&x, &bad),
        Err(Error::NonFinite {
            context: "y",
            row: 2,
            col: 1
        })
    ));
    assert!(matches!(
        k.diag(&bad),
        Err(Error::NonFinite { context: "x", .. })
    ));
    assert!(matches!(
        k.eval(&array![1.0, f64::INFINITY], &array![0.0, 0.0]),
        Err(Error::NonFinite {
            context: "a",
            row: 1,
            col: 0
        })
    ));
    assert!(matches!(
        k.eval(&array![1.0, 0.0], &array![f64::NAN, 0.0]),
        Err(Error::NonFinite {
            context: "b",
            row: 0,
            col: 0
        })
    ));
}

#[test]
fn overflowing_kernel_values_are_reported() {
    // exp(x·x′) with x·x′ = 1000 overflows f64.
    let x = array![[10.0, 30.0], [1.0, 0.0], [0.0, 0.0]];
    let k = Kernel::linear().exp();
    for r in [k.gram(&x), k.cross_gram(&x, &x)] {
        match r {
            Err(Error::NonFinite {
                context,
                row: 0,
                col: 0,
            }) => {
                assert_eq!(context, gram::OVERFLOW_CONTEXT)
            }
            other => panic!("expected overflow error, got {other:?}"),
        }
    }
    assert!(matches!(
        k.diag(&x),
        Err(Error::NonFinite { row: 0, col: 0, .. })
    ));
    // Huge inputs in the Gram trick: ‖x‖² = ∞ and ∞ − ∞ = NaN, reported (not read as 0).
    let big = array![[1e200, 0.0], [1e200, 1.0]];
    assert!(matches!(
        Kernel::rbf_gamma(1.0).gram(&big),
        Err(Error::NonFinite { .. })
    ));
    // Large but fine.
    let ok = array![[1e100, 0.0], [0.0, 1e100]];
    let g = Kernel::rbf_gamma(1.0).gram(&ok).expect("finite");
    assert_eq!(g, array![[1.0, 0.0], [0.0, 1.0]]);
}

#[test]
fn sigmoid_is_not_mercer_and_psd_kernels_are() {
    // x = 0, c₀ < 0: the 1 × 1 Gram matrix is tanh(−1) < 0.
    let zero = array![[0.0, 0.0]];
    let sig = Kernel::sigmoid(1.0, -1.0);
    assert!(!sig.is_mercer_on(&zero, None).expect("ok"));
    assert!(!sig.is_guaranteed_psd());
    assert!(!Kernel::polynomial(3, -1.0).is_guaranteed_psd());
    assert!(!Kernel::linear().plus(sig).is_guaranteed_psd());
    // Polynomial with c₀ = −1 at x = 0: (−1)³ < 0.
    assert!(
        !Kernel::polynomial(3, -1.0)
            .is_mercer_on(&zero, None)
            .expect("ok")
    );
    let x = data(40, 4, 0.7);
    for k in zoo().into_iter().filter(Kernel::is_guaranteed_psd) {
        assert!(k.is_mercer_on(&x, None).expect("ok"), "{k:?}");
    }
}

#[test]
fn polynomial_feature_map_catalog_example() {
    // φ(v) = (v₁², √2 v₁v₂, v₂²); φ(1, 2) = (1, 2√2, 4), φ(3, −1) = (9, −3√2, 1): dot = 1 = (x·x′)².
    let x = array![[1.0, 2.0], [3.0, -1.0]];
    let phi = polynomial_feature_map(&x, 2).expect("small");
    let r2 = 2f64.sqrt();
    let expected = array![[1.0, 2.0 * r2, 4.0], [9.0, -3.0 * r2, 1.0]];
    assert!(phi.iter().zip(&expected).all(|(a, b)| close(*a, *b, 1e-15)));
    assert!(close(phi.row(0).dot(&phi.row(1)), 1.0, 1e-14));
    // Degree 0: the constant 1.
    assert_eq!(
        polynomial_feature_map(&x, 0).expect("ok"),
        array![[1.0], [1.0]]
    );
}

#[test]
fn feature_counts() {
    assert_eq!(polynomial_feature_count(2, 2), Some(3));
    assert_eq!(polynomial_feature_count(3, 2), Some(6));
    assert_eq!(polynomial_feature_count(4, 3), Some(20));
    assert_eq!(polynomial_feature_count(1, 7), Some(1));
    assert_eq!(polynomial_feature_count(5, 0), Some(1));
    assert_eq!(polynomial_feature_count(0, 0), Some(1));
    assert_eq!(polynomial_feature_count(0, 2), Some(0));
    assert_eq!(polynomial_feature_count(1000, 1000), None);
    let x = data(3, 4, 0.1);
    assert_eq!(polynomial_feature_map(&x, 3).expect("ok").ncols(), 20);
    // Taylor map: C(D + n, n) = C(7, 3) = 35.
    assert_eq!(rbf_taylor_feature_map(&x, 0.5, 3).expect("ok").ncols(), 35);
}

#[test]
fn feature_maps_reproduce_kernels() {
    let x = data(6, 3, 0.3);
    let y = data(5, 3, 1.1);
    for d in 1..=4u32 {
        let (px, py) = (
            polynomial_feature_map(&x, d).expect("ok"),
            polynomial_feature_map(&y, d).expect("ok"),
        );
        let k = Kernel::homogeneous_polynomial(d)
            .cross_gram(&x, &y)
            .expect("ok");
        let via_map = px.dot(&py.t());
        assert!(
            via_map
                .iter()
                .zip(&k)
                .all(|(a, b)| (a - b).abs() < 1e-12 * 10f64.powi(d as i32))
        );
        let (gamma, coef0) = (0.7, 1.5);
        let (qx, qy) = (
            inhomogeneous_polynomial_feature_map(&x, d, gamma, coef0).expect("ok"),
            inhomogeneous_polynomial_feature_map(&y, d, gamma, coef0).expect("ok"),
        );
        let k = Kernel::polynomial_gamma(d, gamma, coef0)
            .cross_gram(&x, &y)
            .expect("ok");
        let via_map = qx.dot(&qy.t());
        assert!(
            via_map
                .iter()
                .zip(&k)
                .all(|(a, b)| (a - b).abs() < 1e-12 * 10f64.powi(d as i32))
        );
    }
}

#[test]
fn rbf_taylor_map_converges_within_its_bound() {
    let x = data(5, 2, 0.3) * 0.5;
    let gamma = 0.4;
    let k = Kernel::rbf_gamma(gamma).gram(&x).expect("ok");
    let norms: Vec<f64> = x.rows().into_iter().map(|r| r.dot(&r).sqrt()).collect();
    let mut prev = f64::INFINITY;
    for order in [0u32, 2, 4, 8, 12] {
        let phi = rbf_taylor_feature_map(&x, gamma, order).expect("ok");
        let approx = phi.dot(&phi.t());
        let mut worst = 0.0f64;
        for i in 0..5 {
            for j in 0..5 {
                let err = (approx[[i, j]] - k[[i, j]]).abs();
                let bound = rbf_taylor_error_bound(gamma, norms[i], norms[j], order);
                assert!(
                    err <= bound + 1e-15,
                    "order {order} ({i}, {j}): {err} > {bound}"
                );
                worst = worst.max(err);
            }
        }
        assert!(worst <= prev);
        prev = worst;
    }
    assert!(prev < 1e-12);
}

#[test]
fn rbf_taylor_map_in_one_dimension_matches_the_notes() {
    // The course notes' 1-D map: φ(x) = e^{−x²/2σ²} [1, x/σ, x²/(√2 σ²), …] with γ = 1/(2σ²).
    let sigma: f64 = 1.5;
    let xv: f64 = 0.8;
    let phi = rbf_taylor_feature_map(&array![[xv]], rbf_gamma_from_sigma(sigma), 2).expect("ok");
    let w = (-xv * xv / (2.0 * sigma * sigma)).exp();
    let expected = [
        w,
        w * xv / sigma,
        w * xv * xv / (2f64.sqrt() * sigma * sigma),
    ];
    for (a, b) in phi.row(0).iter().zip(expected) {
        assert!(close(*a, b, 1e-15), "{a} vs {b}");
    }
}

#[test]
fn feature_map_errors() {
    let x = data(2, 3, 0.0);
    assert!(is_invalid(
        polynomial_feature_map(&data(2, 100, 0.0), 6),
        "degree"
    ));
    assert!(is_invalid(rbf_taylor_feature_map(&x, 0.0, 2), "gamma"));
    assert!(is_invalid(
        rbf_taylor_feature_map(&data(2, 200, 0.0), 1.0, 10),
        "degree"
    ));
    assert!(is_invalid(
        inhomogeneous_polynomial_feature_map(&x, 2, 1.0, -1.0),
        "coef0"
    ));
    assert!(is_invalid(
        inhomogeneous_polynomial_feature_map(&x, 2, 0.0, 1.0),
        "gamma"
    ));
    let mut bad = x.clone();
    bad[[1, 2]] = f64::NAN;
    assert!(matches!(
        polynomial_feature_map(&bad, 2),
        Err(Error::NonFinite { row: 1, col: 2, .. })
    ));
    assert!(matches!(
        rbf_taylor_feature_map(&bad, 1.0, 2),
        Err(Error::NonFinite { .. })
    ));
}

#[test]
fn error_bound_by_hand() {
    // t = 2·0.5·1·2 = 2; order 1: t²/2! = 2.
    assert_eq!(rbf_taylor_error_bound(0.5, 1.0, 2.0, 1), 2.0);
    // order 0: t¹/1! = 2.
    assert_eq!(rbf_taylor_error_bound(0.5, 1.0, 2.0, 0), 2.0);
    // order 3: 2⁴/4! = 16/24.
    assert!(close(
        rbf_taylor_error_bound(0.5, 1.0, 2.0, 3),
        16.0 / 24.0,
        1e-15
    ));
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trip_is_exact() {
    let k = Kernel::subvector_product(
        0..2,
        Kernel::rbf_gamma(0.1).plus(Kernel::polynomial_gamma(3, 0.25, 1.0).normalized()),
        1..3,
        Kernel::quadratic_form(array![[2.0, 0.5], [0.5, 1.0]])
            .expect("PSD")
            .exp()
            .polynomial_of(vec![0.5, 1.0])
            .weighted(WeightFn::Gaussian { gamma: 0.3 })
            .scaled(1.5)
            .times(Kernel::sigmoid(0.1, 0.0)),
    );
    let json = serde_json::to_string(&k).expect("serialise");
    let back: Kernel = serde_json::from_str(&json).expect("deserialise");
    assert_eq!(back, k);
    let x = data(5, 3, 0.0);
    assert_eq!(back.gram(&x).expect("ok"), k.gram(&x).expect("ok"));
}

#[test]
fn subvector_kernels_use_the_given_columns() {
    let x = data(9, 5, 0.2);
    let k = Kernel::subvector_sum(1..3, Kernel::rbf_gamma(0.5), 3..5, Kernel::linear());
    let a = Kernel::rbf_gamma(0.5)
        .gram(&x.slice(s![.., 1..3]))
        .expect("ok");
    let b = Kernel::linear().gram(&x.slice(s![.., 3..5])).expect("ok");
    let g = k.gram(&x).expect("ok");
    assert!(
        g.iter()
            .zip((&a + &b).iter())
            .all(|(p, q)| (p - q).abs() < 1e-14)
    );
}
