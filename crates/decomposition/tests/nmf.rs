//! NMF against scikit-learn (`datasets/golden/decomposition/nmf.json`, written by
//! `scripts/golden/decomposition_nmf_ica.py`): the NNDSVD / NNDSVDA initialisations, and fits
//! of both solvers from the same custom start (components, `W`, reconstruction error, iteration
//! count, `transform`) with and without penalties; non-negativity, the monotone error of the
//! multiplicative updates and exact recovery of a non-negative low-rank matrix as properties;
//! typed errors for bad input; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, s};
use ndlearn_core::{Error, FitUnsupervised, InverseTransform, Result, Transform};
use ndlearn_decomposition::{FittedNmf, Nmf, NmfInit, NmfSolver};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::strategies::config;
use ndlearn_testkit::tolerance::max_abs_diff;
use ndlearn_testkit::{Golden, assert_close};
use proptest::prelude::*;

mod common;
use common::data;

fn solver(name: &str) -> NmfSolver {
    match name {
        "mu" => NmfSolver::MultiplicativeUpdate,
        "cd" => NmfSolver::CoordinateDescent,
        other => panic!("unknown solver {other}"),
    }
}

#[test]
fn nndsvd_inits_match_sklearn() {
    let g = Golden::load("decomposition", "nmf");
    let mut checked = 0;
    let mut worst = 0.0f64;
    for case in g.cases_with_prefix("init_") {
        let x = data(case);
        let init = match case.string("init") {
            "nndsvd" => NmfInit::Nndsvd,
            "nndsvda" => NmfInit::Nndsvda,
            other => panic!("unknown init {other}"),
        };
        let (w, h) = init.initialize(&x, case.usize("k"), 0).expect("initialize");
        let (we, he) = (case.matrix("w"), case.matrix("h"));
        // scikit-learn's randomized SVD is exact to rounding on iris and wine and about 1e-7
        // relative off on digits (recorded in the case): the tolerance follows it
        let rel = 1e-9_f64.max(10.0 * case.scalar("svd_rel_err"));
        let scale_w = we.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let scale_h = he.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        assert_close(&w, &we, 0.0, rel * scale_w, &format!("{}: W", case.name()));
        assert_close(&h, &he, 0.0, rel * scale_h, &format!("{}: H", case.name()));
        worst = worst
            .max(max_abs_diff(&w, &we) / scale_w)
            .max(max_abs_diff(&h, &he) / scale_h);
        checked += 1;
    }
    assert_eq!(checked, 8);
    eprintln!("worst relative difference to scikit-learn's inits: {worst:e}");
}

#[test]
fn fits_match_sklearn_from_the_same_start() {
    let g = Golden::load("decomposition", "nmf");
    let mut checked = 0;
    let mut worst = 0.0f64;
    for case in g.cases_with_prefix("fit_") {
        let name = case.name();
        let x = data(case);
        let alpha_h = case.scalar("alpha_h");
        let est = Nmf::new(case.usize("k"))
            .init(NmfInit::Custom(case.matrix("w0"), case.matrix("h0")))
            .solver(solver(case.string("solver")))
            .tol(case.scalar("tol"))
            .max_iter(case.usize("max_iter"))
            .alpha_w(case.scalar("alpha_w"))
            .alpha_h(if alpha_h < 0.0 { None } else { Some(alpha_h) })
            .l1_ratio(case.scalar("l1_ratio"));
        let m: FittedNmf<f64> = est.fit(&x).expect("fit");
        assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: n_iter");
        let h = case.matrix("components");
        let w = case.matrix("w");
        let err = case.scalar("reconstruction_err");
        // the iterates follow scikit-learn's order of operations; only BLAS rounding differs
        // (measured: at most 4e-15 of the largest entry)
        let hs = h.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        let wsc = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        assert_close(m.components(), &h, 0.0, 1e-10 * hs, &format!("{name}: H"));
        assert_close(m.w(), &w, 0.0, 1e-10 * wsc, &format!("{name}: W"));
        assert!(
            (m.reconstruction_err() - err).abs() <= 1e-12 * err,
            "{name}: error {} vs {err}",
            m.reconstruction_err()
        );
        // the criterion: no worse than scikit-learn from the same start
        assert!(
            m.reconstruction_err() <= err * (1.0 + 1e-9),
            "{name}: error {} > scikit-learn's {err}",
            m.reconstruction_err()
        );
        let t = m.transform(&x.slice(s![..20, ..])).expect("transform");
        let te = case.matrix("transform");
        let ts = te.iter().fold(0.0f64, |a, v| a.max(v.abs()));
        assert_close(&t, &te, 0.0, 1e-10 * ts, &format!("{name}: transform"));
        worst = worst
            .max(max_abs_diff(m.components(), &h) / hs)
            .max(max_abs_diff(m.w(), &w) / wsc)
            .max(max_abs_diff(&t, &te) / ts);
        checked += 1;
    }
    assert_eq!(checked, 15);
    eprintln!("worst relative difference to scikit-learn: {worst:e}");
}

fn nonneg_matrices() -> impl Strategy<Value = Array2<f64>> {
    (4usize..20, 2usize..7).prop_flat_map(|(n, d)| {
        prop::collection::vec(0.0f64..10.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn outputs_are_non_negative_and_mu_error_never_increases(x in nonneg_matrices()) {
        let k = 2.min(x.ncols());
        for init in [NmfInit::Random, NmfInit::Nndsvd, NmfInit::Nndsvda, NmfInit::Nndsvdar] {
            for sv in [NmfSolver::CoordinateDescent, NmfSolver::MultiplicativeUpdate] {
                let m: FittedNmf<f64> = Nmf::new(k)
                    .init(init.clone())
                    .solver(sv)
                    .seed(3)
                    .fit(&x)
                    .expect("fit");
                prop_assert!(m.components().iter().all(|&v| v >= 0.0));
                prop_assert!(m.w().iter().all(|&v| v >= 0.0));
                let t = m.transform(&x).expect("transform");
                prop_assert!(t.iter().all(|&v| v >= 0.0));
                // the training W is (close to) the best W for H: solving again cannot be worse
                let back = m.inverse_transform(&t).expect("inverse");
                let e = (&back - &x).iter().map(|v| v * v).sum::<f64>().sqrt();
                let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
                prop_assert!(e <= m.reconstruction_err() * 1.05 + 1e-3 * norm,
                    "{:?} {:?}: {} vs {}", init, sv, e, m.reconstruction_err());
            }
        }
        // Lee–Seung: the unpenalised error never increases (each run is a prefix of the next)
        let mut last = f64::INFINITY;
        for it in 1..=30 {
            let m: FittedNmf<f64> = Nmf::new(k)
                .init(NmfInit::Nndsvda)
                .solver(NmfSolver::MultiplicativeUpdate)
                .tol(0.0)
                .max_iter(it)
                .fit(&x)
                .expect("fit");
            prop_assert!(m.reconstruction_err() <= last * (1.0 + 1e-12) + 1e-12,
                "iteration {}: {} > {}", it, m.reconstruction_err(), last);
            last = m.reconstruction_err();
        }
    }
}

#[test]
fn recovers_a_non_negative_low_rank_matrix_and_is_deterministic() {
    let mut rng = ndlearn_core::random::rng(11);
    let w0 = Array2::from_shape_simple_fn((30, 3), || {
        ndlearn_core::random::uniform(&mut rng, 0.0f64, 1.0)
    });
    let h0 = Array2::from_shape_simple_fn((3, 8), || {
        ndlearn_core::random::uniform(&mut rng, 0.0f64, 1.0)
    });
    let x = w0.dot(&h0);
    let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
    for sv in [
        NmfSolver::CoordinateDescent,
        NmfSolver::MultiplicativeUpdate,
    ] {
        let est = Nmf::new(3).solver(sv).tol(1e-8).max_iter(3000);
        let m: FittedNmf<f64> = est.fit(&x).expect("fit");
        assert!(
            m.reconstruction_err() < 1e-2 * norm,
            "{sv:?}: {} (‖X‖ = {norm})",
            m.reconstruction_err()
        );
        let again: FittedNmf<f64> = est.fit(&x).expect("fit");
        assert_eq!(m, again, "{sv:?}: same seed, same model");
        // f32 lands close to f64
        let m32: FittedNmf<f32> = est.fit(&x.mapv(|v| v as f32)).expect("f32");
        assert!(
            (f64::from(m32.reconstruction_err()) - m.reconstruction_err()).abs() < 1e-2 * norm,
            "{sv:?}: f32 {} vs f64 {}",
            m32.reconstruction_err(),
            m.reconstruction_err()
        );
    }
    // penalties shrink the factors; shuffle gives another valid answer
    let plain: FittedNmf<f64> = Nmf::new(3).fit(&x).expect("fit");
    let l2: FittedNmf<f64> = Nmf::new(3).alpha_w(0.5).fit(&x).expect("fit");
    let sum = |a: &Array2<f64>| a.sum();
    assert!(sum(l2.w()) + sum(l2.components()) < sum(plain.w()) + sum(plain.components()));
    let sh: FittedNmf<f64> = Nmf::new(3).shuffle(true).seed(5).fit(&x).expect("fit");
    assert!(sh.reconstruction_err() < 0.05 * norm);
}

#[cfg(feature = "serde")]
#[test]
fn bad_input_gives_typed_errors() {
    let x = ndarray::array![[1.0f64, 2.0, 0.0], [0.5, 0.0, 3.0], [2.0, 1.0, 1.0]];
    let mut nan = x.clone();
    nan[[1, 1]] = f64::NAN;
    let r: Result<FittedNmf<f64>> = Nmf::new(2).fit(&nan);
    assert!(matches!(r, Err(Error::NonFinite { .. })), "{r:?}");
    let mut neg = x.clone();
    neg[[2, 0]] = -1e-3;
    let r: Result<FittedNmf<f64>> = Nmf::new(2).fit(&neg);
    assert!(
        matches!(r, Err(Error::InvalidParam { name: "x", .. })),
        "{r:?}"
    );
    let r: Result<FittedNmf<f64>> = Nmf::new(0).fit(&x);
    assert!(matches!(r, Err(Error::InvalidParam { .. })), "{r:?}");
    for init in [NmfInit::Nndsvd, NmfInit::Nndsvda, NmfInit::Nndsvdar] {
        let r: Result<FittedNmf<f64>> = Nmf::new(4).init(init).fit(&x);
        assert!(
            matches!(r, Err(Error::InvalidParam { name: "init", .. })),
            "{r:?}"
        );
    }
    let r: Result<FittedNmf<f64>> = Nmf::new(2)
        .init(NmfInit::Custom(Array2::ones((3, 3)), Array2::ones((2, 3))))
        .fit(&x);
    assert!(
        matches!(r, Err(Error::InvalidParam { name: "init", .. })),
        "{r:?}"
    );
    let m: FittedNmf<f64> = Nmf::new(2).fit(&x).expect("fit");
    assert!(matches!(
        m.transform(&neg),
        Err(Error::InvalidParam { name: "x", .. })
    ));
    assert!(matches!(m.transform(&nan), Err(Error::NonFinite { .. })));
    assert!(matches!(
        m.transform(&x.slice(s![.., ..2])),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        m.inverse_transform(&Array2::<f64>::ones((2, 3))),
        Err(Error::ShapeMismatch { .. })
    ));
    assert_eq!(
        m.transform(&Array2::<f64>::zeros((0, 3)))
            .expect("empty")
            .dim(),
        (0, 2)
    );
    // the default keeps every feature (scikit-learn's n_components = "auto")
    let all: FittedNmf<f64> = Nmf::default().fit(&x).expect("fit");
    assert_eq!(all.n_components(), 3);
}

/// NMF on `|X|`: the battery's data are signed (standard normal columns), which NMF rejects with
/// a typed error (tested above); taking absolute values keeps every check meaningful (NaN and
/// infinity survive `abs`, so the non-finite checks still reach NMF's own validation).
#[cfg(feature = "serde")]
mod on_abs {
    use super::*;

    #[derive(Debug, Clone, Default)]
    pub struct AbsNmf(pub Nmf);

    #[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
    #[serde(transparent)]
    pub struct AbsModel(pub FittedNmf<f64>);

    impl FitUnsupervised<f64> for AbsNmf {
        type Model = AbsModel;
        fn fit(&self, x: &ndarray::ArrayRef2<f64>) -> Result<AbsModel> {
            self.0.fit(&x.mapv(f64::abs)).map(AbsModel)
        }
    }

    impl Transform<f64> for AbsModel {
        fn transform(&self, x: &ndarray::ArrayRef2<f64>) -> Result<Array2<f64>> {
            self.0.transform(&x.mapv(f64::abs))
        }
    }
}

#[cfg(feature = "serde")]
#[test]
fn conformance() {
    for sv in [
        NmfSolver::CoordinateDescent,
        NmfSolver::MultiplicativeUpdate,
    ] {
        Battery::new("nmf on |X|")
            .transformer(&on_abs::AbsNmf(Nmf::new(2).solver(sv)))
            .assert_ok();
    }
    Battery::new("nmf on |X|, all components, random init")
        .transformer(&on_abs::AbsNmf(Nmf::default().init(NmfInit::Random)))
        .assert_ok();
}

#[cfg(feature = "serde")]
#[test]
fn registry_entry_builds_from_strings() {
    let entries = ndlearn_decomposition::registry();
    let e = entries
        .iter()
        .find(|e| e.name() == "nmf")
        .expect("registered");
    let params = e.params().expect("params");
    let init = params.iter().find(|p| p.name == "init").expect("init");
    assert!(
        init.choices.iter().any(|c| c == "nndsvda"),
        "{:?}",
        init.choices
    );
    common::registry_round_trip_on_iris(
        "nmf",
        &[
            ("n_components", "2"),
            ("solver", "multiplicative_update"),
            ("init", "random"),
        ],
        2,
    );
}
