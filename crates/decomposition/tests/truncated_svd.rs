//! TruncatedSVD against scikit-learn (`datasets/golden/decomposition/truncated_svd.json`,
//! written by `scripts/golden/decomposition_tsvd.py`): singular values, components, explained
//! variances and transforms for the exact solver, singular values and leading components for
//! the randomized one; the Eckart–Young error of the best rank-k approximation; inverse
//! transforms, input errors and the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, array, s};
use ndlearn_core::{FitUnsupervised, InverseTransform, Transform};
use ndlearn_decomposition::{SvdAlgorithm, TruncatedSvd, low_rank_approximation};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Golden, assert_close};

#[test]
fn matches_sklearn_and_eckart_young() {
    let g = Golden::load("decomposition", "truncated_svd");
    assert_eq!(g.cases().len(), 7);
    for case in g.cases() {
        let name = case.name();
        let x: Array2<f64> = ndlearn_datasets::by_name(case.string("dataset"))
            .expect("data set")
            .x()
            .clone();
        let k = case.usize("k");
        let top = case.vector("singular_values")[0];
        let m = TruncatedSvd::new(k)
            .algorithm(SvdAlgorithm::Exact)
            .fit(&x)
            .expect("fit");
        assert_close(
            m.singular_values(),
            &case.vector("singular_values"),
            1e-9,
            0.0,
            name,
        );
        assert_close(
            m.components(),
            &case.matrix("components"),
            1e-7,
            1e-9,
            &format!("{name}: components"),
        );
        assert_close(
            m.explained_variance_ratio(),
            &case.vector("explained_variance_ratio"),
            1e-7,
            1e-12,
            &format!("{name}: ratio"),
        );
        let z = m.transform(&x.slice(s![..20, ..])).expect("transform");
        assert_close(
            &z,
            &case.matrix("transform"),
            1e-7,
            1e-9 * top,
            &format!("{name}: transform"),
        );
        // randomized (5 subspace iterations, its own random stream): the singular values to
        // 1e-4, the leading components to 1e-3 (the last ones converge slowest)
        let r = TruncatedSvd::new(k).fit(&x).expect("fit");
        assert_close(
            r.singular_values(),
            &case.vector("singular_values"),
            1e-4,
            0.0,
            &format!("{name}: randomized"),
        );
        let lead = k.div_ceil(2);
        assert_close(
            &r.components().slice(s![..lead, ..]),
            &case.matrix("components").slice(s![..lead, ..]),
            1e-3,
            1e-4,
            &format!("{name}: randomized components"),
        );
        let (approx, err) = low_rank_approximation(&x, k).expect("approx");
        let want = case.scalar("eckart_young");
        assert!(
            (err - want).abs() <= 1e-9 * top,
            "{name}: error {err} vs {want}"
        );
        let direct = (&x - &approx).iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(
            (direct - want).abs() <= 1e-8 * top,
            "{name}: ‖X − X_k‖ {direct} vs {want}"
        );
        // the truncated SVD's reconstruction is that best approximation
        let m = TruncatedSvd::new(k)
            .algorithm(SvdAlgorithm::Exact)
            .fit(&x)
            .expect("fit");
        let back = m
            .inverse_transform(&m.transform(&x).expect("t"))
            .expect("inv");
        assert_close(
            &back,
            &approx,
            1e-8,
            1e-8 * top,
            &format!("{name}: reconstruction"),
        );
    }
}

#[cfg(feature = "serde")]
#[test]
fn bad_input_and_conformance() {
    let x = array![[1.0f64, 2.0], [3.0, 4.0], [5.0, 7.0]];
    assert!(TruncatedSvd::new(0).fit(&x).is_err());
    assert!(TruncatedSvd::new(3).fit(&x).is_err());
    assert!(low_rank_approximation(&x, 0).is_err());
    assert!(low_rank_approximation(&x, 3).is_err());
    let m = TruncatedSvd::new(1).fit(&x).expect("fit");
    assert!(m.transform(&array![[1.0f64, 2.0, 3.0]]).is_err());
    assert!(m.inverse_transform(&array![[1.0f64, 2.0]]).is_err());
    Battery::new("truncated_svd")
        .transformer(&TruncatedSvd::new(2))
        .assert_ok();
}

proptest::proptest! {
    #![proptest_config(ndlearn_testkit::strategies::config(24))]

    /// Eckart–Young (catalog LT-10b) as a property: the rank-`k` approximation has rank `k`,
    /// error `√(Σ_{i>k} σ_i²)`, and no other rank-`k` matrix built from the data beats it (here:
    /// projections of `A` on `k` random orthonormal right directions).
    #[test]
    fn eckart_young_holds(
        (n, d, k, seed) in (3usize..12, 3usize..10, 1usize..4, 0u64..1000)
    ) {
        let k = k.min(n.min(d));
        let mut rng = ndlearn_core::random::rng(seed);
        let a = Array2::from_shape_fn((n, d), |_| ndlearn_core::random::standard_normal::<f64>(&mut rng));
        let (ak, err) = low_rank_approximation(&a, k).expect("approx");
        let s = ndlearn_core::linalg::singular_values(&a).expect("svd");
        let tail: f64 = s.iter().skip(k).map(|v| v * v).sum::<f64>().sqrt();
        proptest::prop_assert!((err - tail).abs() <= 1e-10 * (1.0 + tail));
        let diff = (&a - &ak).mapv(|v| v * v).sum().sqrt();
        proptest::prop_assert!((diff - err).abs() <= 1e-10 * (1.0 + err));
        let rank = ndlearn_core::linalg::matrix_rank(&ak, None).expect("rank");
        proptest::prop_assert_eq!(rank, k);
        for _ in 0..5 {
            let g = Array2::from_shape_fn((d, k), |_| ndlearn_core::random::standard_normal::<f64>(&mut rng));
            let (q, _) = ndlearn_core::linalg::qr(&g).expect("qr");
            let other = a.dot(&q).dot(&q.t());
            let e = (&a - &other).mapv(|v| v * v).sum().sqrt();
            proptest::prop_assert!(e >= err - 1e-10, "a random rank-{k} projection did better: {e} < {err}");
        }
    }
}
