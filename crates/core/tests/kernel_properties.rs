//! Property tests of `ndlearn_core::kernel` (few cases: CI has 2 cores).
//!
//! * Mercer / closure rules (catalog §2 #6): the Gram matrix of every PSD leaf kernel and of every
//!   random closure-rule combination of them is PSD on random data.
//! * `gram(x)` is exactly symmetric and equals `cross_gram(x, x)`; `diag` is its diagonal;
//!   `gram` of a sum/product is the sum/product of the Gram matrices (bitwise).
//! * Kernel trick (catalog §2 #5): multinomial feature maps reproduce `(xᵀx′)^d` and
//!   `(γ xᵀx′ + c₀)^d`; the RBF Taylor map stays within its error bound.

use ndarray::Array2;
use ndlearn_core::Error;
use ndlearn_core::kernel::{
    Kernel, WeightFn, inhomogeneous_polynomial_feature_map, polynomial_feature_map,
    rbf_taylor_error_bound, rbf_taylor_feature_map,
};
use ndlearn_testkit::config;
use proptest::collection::vec;
use proptest::prelude::*;

/// Number of input columns of the kernel trees (fixed so that sub-vector ranges and the
/// quadratic form fit).
const D: usize = 4;

fn matrix(n: std::ops::Range<usize>, d: usize, scale: f64) -> impl Strategy<Value = Array2<f64>> {
    n.prop_flat_map(move |n| {
        vec(-scale..scale, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("n·d values"))
    })
}

/// PSD leaves that accept inputs of any length.
fn leaf() -> impl Strategy<Value = Kernel> {
    prop_oneof![
        Just(Kernel::linear()),
        (1u32..4, 0.05f64..1.0, 0.0f64..2.0)
            .prop_map(|(d, g, c)| Kernel::polynomial_gamma(d, g, c)),
        (1u32..4).prop_map(Kernel::homogeneous_polynomial),
        (0.05f64..3.0).prop_map(Kernel::rbf_gamma),
        (0.05f64..3.0).prop_map(Kernel::laplacian),
    ]
}

fn weight_fn() -> impl Strategy<Value = WeightFn> {
    prop_oneof![
        Just(WeightFn::InverseNorm),
        Just(WeightFn::InverseFeatureNorm),
        (0.01f64..1.0).prop_map(|gamma| WeightFn::Gaussian { gamma }),
    ]
}

/// Random trees of the closure rules over PSD leaves (inputs of any length ≥ D).
fn psd_tree() -> impl Strategy<Value = Kernel> {
    leaf().prop_recursive(3, 16, 2, |inner| {
        prop_oneof![
            (0.1f64..3.0, inner.clone()).prop_map(|(c, k)| k.scaled(c)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.plus(b)),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| a.times(b)),
            // exp of a scaled-down kernel keeps the values finite.
            inner.clone().prop_map(|k| k.scaled(0.05).exp()),
            (vec(0.0f64..1.0, 1..4), inner.clone()).prop_map(|(c, k)| k.polynomial_of(c)),
            (weight_fn(), inner.clone()).prop_map(|(f, k)| k.weighted(f)),
            // Sub-vector children are leaves: their ranges are written for D columns.
            (
                0usize..2,
                leaf(),
                1usize..3,
                leaf().prop_map(|k| k.scaled(0.5).exp())
            )
                .prop_map(|(s, a, t, b)| Kernel::subvector_product(
                    s..s + 2,
                    a,
                    t..D,
                    b
                )),
            (0usize..3, leaf(), leaf()).prop_map(|(s, a, b)| Kernel::subvector_sum(
                0..s + 1,
                a,
                s + 1..D,
                b
            )),
        ]
    })
}

/// `xᵀ(BBᵀ)x′` combined with a random tree (quadratic forms need exactly D columns).
fn psd_kernel() -> impl Strategy<Value = Kernel> {
    let qf = vec(-1.0f64..1.0, D * 2).prop_map(|v| {
        let b = Array2::from_shape_vec((D, 2), v).expect("D·2 values");
        let a = b.dot(&b.t());
        let a = (&a + &a.t()) * 0.5;
        Kernel::quadratic_form(a).expect("B Bᵀ is PSD")
    });
    prop_oneof![
        3 => psd_tree(),
        1 => (qf.clone(), psd_tree()).prop_map(|(q, k)| q.plus(k)),
        1 => (qf, psd_tree()).prop_map(|(q, k)| q.times(k)),
    ]
}

fn max_abs(a: &Array2<f64>) -> f64 {
    a.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// Gram matrix, or `None` when a random tree overflowed (reported as `NonFinite`).
fn gram_or_overflow(k: &Kernel, x: &Array2<f64>) -> Option<Array2<f64>> {
    match k.gram(x) {
        Ok(g) => Some(g),
        Err(Error::NonFinite { .. }) => None,
        Err(e) => panic!("{k:?}: unexpected error {e}"),
    }
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn closure_rules_keep_gram_matrices_psd(k in psd_kernel(), x in matrix(1..14, D, 2.0)) {
        prop_assert!(k.is_guaranteed_psd());
        let g = gram_or_overflow(&k, &x);
        prop_assume!(g.is_some());
        let g = g.expect("checked");
        let tol = 1e-9 * x.nrows() as f64 * max_abs(&g).max(f64::MIN_POSITIVE);
        prop_assert!(k.is_mercer_on(&x, Some(tol)).expect("finite"), "{:?}", k);
    }

    #[test]
    fn gram_is_symmetric_and_equals_cross_gram(k in psd_kernel(), x in matrix(1..40, D, 2.0)) {
        let g = gram_or_overflow(&k, &x);
        prop_assume!(g.is_some());
        let g = g.expect("checked");
        prop_assert_eq!(&g, &g.t());
        let c = k.cross_gram(&x, &x).expect("same data as gram");
        let scale = max_abs(&g).max(1.0);
        let diff = (&g - &c).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        prop_assert!(diff <= 1e-11 * scale, "{:?}: {}", k, diff);
        let d = k.diag(&x).expect("same data as gram");
        for i in 0..x.nrows() {
            prop_assert!((d[i] - g[[i, i]]).abs() <= 1e-11 * scale);
        }
    }

    #[test]
    fn sums_and_products_are_elementwise(
        a in psd_tree(), b in psd_tree(), x in matrix(1..20, D, 1.5), y in matrix(1..9, D, 1.5),
    ) {
        let (ga, gb) = (gram_or_overflow(&a, &x), gram_or_overflow(&b, &x));
        prop_assume!(ga.is_some() && gb.is_some());
        let (ga, gb) = (ga.expect("checked"), gb.expect("checked"));
        let sum = gram_or_overflow(&a.clone().plus(b.clone()), &x).expect("finite parts");
        prop_assert_eq!(sum, &ga + &gb);
        if let Some(prod) = gram_or_overflow(&a.clone().times(b.clone()), &x) {
            prop_assert_eq!(prod, &ga * &gb);
        }
        if let (Ok(ca), Ok(cb)) = (a.cross_gram(&x, &y), b.cross_gram(&x, &y)) {
            let cs = a.plus(b).cross_gram(&x, &y).expect("finite parts");
            prop_assert_eq!(cs, &ca + &cb);
        }
    }

    #[test]
    fn polynomial_feature_maps_reproduce_the_kernel(
        d in 1usize..5, degree in 1u32..5, gamma in 0.1f64..2.0, coef0 in 0.0f64..3.0,
        seed in vec(-2.0f64..2.0, 10),
    ) {
        let x = Array2::from_shape_fn((2, d), |(i, j)| seed[i * 5 + j]);
        let phi = polynomial_feature_map(&x, degree).expect("small");
        let dot = x.row(0).dot(&x.row(1));
        let scale = (x.row(0).dot(&x.row(0)) * x.row(1).dot(&x.row(1))).sqrt().powi(degree as i32).max(1.0);
        prop_assert!((phi.row(0).dot(&phi.row(1)) - dot.powi(degree as i32)).abs() <= 1e-12 * scale);
        let psi = inhomogeneous_polynomial_feature_map(&x, degree, gamma, coef0).expect("small");
        let k = Kernel::polynomial_gamma(degree, gamma, coef0).eval(&x.row(0), &x.row(1)).expect("valid");
        let scale = ((gamma * 4.0 * d as f64 + coef0).powi(degree as i32)).max(1.0);
        prop_assert!((psi.row(0).dot(&psi.row(1)) - k).abs() <= 1e-12 * scale);
    }

    #[test]
    fn rbf_taylor_map_stays_within_its_bound(
        d in 1usize..4, order in 0u32..8, gamma in 0.05f64..1.0, seed in vec(-1.5f64..1.5, 6),
    ) {
        let x = Array2::from_shape_fn((2, d), |(i, j)| seed[i * 3 + j]);
        let phi = rbf_taylor_feature_map(&x, gamma, order).expect("small");
        let k = Kernel::rbf_gamma(gamma).eval(&x.row(0), &x.row(1)).expect("valid");
        let (nx, ny) = (x.row(0).dot(&x.row(0)).sqrt(), x.row(1).dot(&x.row(1)).sqrt());
        let err = (phi.row(0).dot(&phi.row(1)) - k).abs();
        prop_assert!(err <= rbf_taylor_error_bound(gamma, nx, ny, order) + 1e-14);
    }
}
