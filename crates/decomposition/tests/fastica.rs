//! FastICA against scikit-learn (`datasets/golden/decomposition/fastica.json`, written by
//! `scripts/golden/decomposition_nmf_ica.py`): components, mixing, mean, whitening, iteration
//! count, convergence flag and sources for logcosh / exp / cube × parallel / deflation on
//! scikit-learn's mixed-signals example and on iris, from the same `w_init`; recovery of the
//! true sources, uncorrelated unit-variance sources and exact reconstruction as properties;
//! typed errors for bad input; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, Axis, s};
use ndlearn_core::{Error, FitUnsupervised, InverseTransform, Result, Transform};
use ndlearn_decomposition::{
    FastIca, FittedFastIca, IcaAlgorithm, IcaFun, IcaWhiten, WhitenSolver,
};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::tolerance::max_abs_diff;
use ndlearn_testkit::{Case, Golden, assert_close};

mod common;

fn data(g: &Golden, case: &Case) -> Array2<f64> {
    match case.string("dataset") {
        "signals" | "white" => g.case(case.string("dataset")).matrix("x"),
        name => ndlearn_datasets::by_name(name)
            .expect("embedded data set")
            .x()
            .clone(),
    }
}

fn estimator(case: &Case) -> FastIca {
    let fun = match case.string("fun") {
        "logcosh" => IcaFun::Logcosh {
            alpha: case.scalar("alpha"),
        },
        "exp" => IcaFun::Exp,
        "cube" => IcaFun::Cube,
        other => panic!("unknown fun {other}"),
    };
    let algorithm = match case.string("algorithm") {
        "parallel" => IcaAlgorithm::Parallel,
        "deflation" => IcaAlgorithm::Deflation,
        other => panic!("unknown algorithm {other}"),
    };
    let whiten = match case.string("whiten") {
        "unit-variance" => IcaWhiten::UnitVariance,
        "arbitrary-variance" => IcaWhiten::ArbitraryVariance,
        "false" => IcaWhiten::Disabled,
        other => panic!("unknown whiten {other}"),
    };
    let solver = match case.string("whiten_solver") {
        "svd" => WhitenSolver::Svd,
        "eigh" => WhitenSolver::Eigh,
        other => panic!("unknown solver {other}"),
    };
    let mut est = FastIca::default()
        .algorithm(algorithm)
        .fun(fun)
        .whiten(whiten)
        .whiten_solver(solver)
        .tol(case.scalar("tol"))
        .max_iter(case.usize("max_iter"))
        .w_init(case.matrix("w_init"));
    if whiten != IcaWhiten::Disabled {
        est.n_components = Some(case.usize("k"));
    }
    est
}

fn scale(a: &Array2<f64>) -> f64 {
    a.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

/// `|corr|` between two columns.
fn abs_corr(u: ndarray::ArrayView1<'_, f64>, v: ndarray::ArrayView1<'_, f64>) -> f64 {
    let n = u.len() as f64;
    let (mu, mv) = (u.sum() / n, v.sum() / n);
    let cov: f64 = u.iter().zip(v).map(|(a, b)| (a - mu) * (b - mv)).sum();
    let su = u.iter().map(|a| (a - mu) * (a - mu)).sum::<f64>().sqrt();
    let sv = v.iter().map(|b| (b - mv) * (b - mv)).sum::<f64>().sqrt();
    (cov / (su * sv)).abs()
}

#[test]
fn matches_sklearn_from_the_same_start() {
    let g = Golden::load("decomposition", "fastica");
    let mut checked = 0;
    let mut worst = 0.0f64;
    for case in g.cases() {
        if !case.has("fun") {
            continue;
        }
        let name = case.name();
        let x = data(&g, case);
        let m: FittedFastIca<f64> = estimator(case).fit(&x).expect("fit");
        assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: n_iter");
        assert_eq!(
            m.converged(),
            case.usize("converged") == 1,
            "{name}: converged"
        );
        // same start, same sign conventions: no sign or permutation to normalise
        let mut pairs = vec![
            (
                "components",
                m.components().clone(),
                case.matrix("components"),
            ),
            ("mixing", m.mixing().clone(), case.matrix("mixing")),
        ];
        if case.has("whitening") {
            let w = m.whitening().expect("whitened").clone();
            pairs.push(("whitening", w, case.matrix("whitening")));
            let mean = m.mean().clone().insert_axis(Axis(0));
            pairs.push(("mean", mean, case.vector("mean").insert_axis(Axis(0))));
        } else {
            assert!(m.whitening().is_none() && m.mean().iter().all(|&v| v == 0.0));
        }
        let sources = m.transform(&x.slice(s![..20, ..])).expect("transform");
        pairs.push(("sources", sources, case.matrix("sources")));
        for (what, ours, theirs) in &pairs {
            let sc = scale(theirs);
            assert_close(ours, theirs, 0.0, 1e-10 * sc, &format!("{name}: {what}"));
            worst = worst.max(max_abs_diff(ours, theirs) / sc);
        }
        // reconstruction no worse than scikit-learn's (exact, ~1e-13, when k = d)
        let back = m
            .inverse_transform(&m.transform(&x).expect("t"))
            .expect("inv");
        let err = (&back - &x).iter().map(|v| v * v).sum::<f64>().sqrt();
        let theirs = case.scalar("reconstruction_err");
        let norm = x.iter().map(|v| v * v).sum::<f64>().sqrt();
        assert!(
            err <= theirs * (1.0 + 1e-9) + 1e-12 * norm,
            "{name}: reconstruction {err} vs scikit-learn's {theirs}"
        );
        checked += 1;
    }
    assert_eq!(checked, 17);
    eprintln!("worst relative difference to scikit-learn: {worst:e}");
}

#[test]
fn recovers_the_mixed_signals_as_uncorrelated_unit_variance_sources() {
    let g = Golden::load("decomposition", "fastica");
    let sig = g.case("signals");
    let (x, truth) = (sig.matrix("x"), sig.matrix("s_true"));
    let n = x.nrows() as f64;
    for algorithm in [IcaAlgorithm::Parallel, IcaAlgorithm::Deflation] {
        for fun in [IcaFun::default(), IcaFun::Exp, IcaFun::Cube] {
            for seed in [0, 1] {
                let what = format!("{algorithm:?} {fun:?} seed {seed}");
                let m: FittedFastIca<f64> = FastIca::new(3)
                    .algorithm(algorithm)
                    .fun(fun)
                    .seed(seed)
                    .fit(&x)
                    .expect("fit");
                assert!(m.converged(), "{what}");
                let est = m.transform(&x).expect("transform");
                // unit variance (1/n) and uncorrelated
                let c = est.mean_axis(Axis(0)).expect("rows");
                let centred = &est - &c;
                let cov = centred.t().dot(&centred) / n;
                assert!(
                    (&cov - &Array2::<f64>::eye(3))
                        .iter()
                        .all(|v| v.abs() < 1e-8),
                    "{what}: covariance {cov}"
                );
                // every true source matched by exactly one estimate, |corr| > 0.99
                let mut used = [false; 3];
                for t in truth.columns() {
                    let (best, corr) = (0..3)
                        .map(|j| (j, abs_corr(t, est.column(j))))
                        .fold((0, 0.0), |b, c| if c.1 > b.1 { c } else { b });
                    assert!(corr > 0.99 && !used[best], "{what}: |corr| {corr}");
                    used[best] = true;
                }
                // all components: the mixing matrix undoes the unmixing
                let back = m.inverse_transform(&est).expect("inverse");
                assert!((&back - &x).iter().all(|v| v.abs() < 1e-9), "{what}");
            }
        }
    }
    // the same seed gives the same model; f32 lands close to f64
    let a: FittedFastIca<f64> = FastIca::new(3).seed(7).fit(&x).expect("fit");
    let b: FittedFastIca<f64> = FastIca::new(3).seed(7).fit(&x).expect("fit");
    assert_eq!(a, b);
    let m32: FittedFastIca<f32> = FastIca::new(3)
        .seed(7)
        .fit(&x.mapv(|v| v as f32))
        .expect("f32");
    let diff = max_abs_diff(&m32.components().mapv(f64::from), a.components());
    assert!(diff < 1e-3 * scale(a.components()), "f32 vs f64: {diff}");
}

#[test]
fn non_convergence_is_reported_not_an_error() {
    let g = Golden::load("decomposition", "fastica");
    let case = g.case("iris_logcosh_parallel_maxiter5");
    let x = data(&g, case);
    let m: FittedFastIca<f64> = estimator(case).fit(&x).expect("a model is still returned");
    assert!(!m.converged() && m.n_iter() == 5);
    let m: FittedFastIca<f64> = estimator(case)
        .algorithm(IcaAlgorithm::Deflation)
        .max_iter(2)
        .fit(&x)
        .expect("a model is still returned");
    assert!(!m.converged() && m.n_iter() == 2);
}

#[test]
fn bad_input_gives_typed_errors() {
    let x = ndarray::array![
        [1.0f64, 2.0, 0.0],
        [0.5, 0.0, 3.0],
        [2.0, 1.0, 1.0],
        [0.2, 0.7, 0.4],
        [1.1, 0.3, 2.2]
    ];
    let mut nan = x.clone();
    nan[[1, 1]] = f64::NAN;
    let r: Result<FittedFastIca<f64>> = FastIca::new(2).fit(&nan);
    assert!(matches!(r, Err(Error::NonFinite { .. })), "{r:?}");
    for est in [
        FastIca::new(0),
        FastIca::new(4),
        FastIca::new(2).w_init(Array2::eye(3)),
        FastIca::new(2).fun(IcaFun::Logcosh { alpha: 0.5 }),
        FastIca::new(2).whiten(IcaWhiten::Disabled),
    ] {
        let r: Result<FittedFastIca<f64>> = est.fit(&x);
        assert!(
            matches!(r, Err(Error::InvalidParam { .. })),
            "{est:?}: {r:?}"
        );
    }
    // a constant column leaves two independent directions: three sources cannot be whitened
    let mut flat = x.clone();
    flat.column_mut(2).fill(4.0);
    for solver in [WhitenSolver::Svd, WhitenSolver::Eigh] {
        let r: Result<FittedFastIca<f64>> = FastIca::new(3).whiten_solver(solver).fit(&flat);
        assert!(
            matches!(
                r,
                Err(Error::InvalidParam {
                    name: "n_components",
                    ..
                })
            ),
            "{solver:?}: {r:?}"
        );
        let ok: FittedFastIca<f64> = FastIca::new(2)
            .whiten_solver(solver)
            .fit(&flat)
            .expect("two sources");
        assert_eq!(ok.components().dim(), (2, 3));
    }
    let r: Result<FittedFastIca<f64>> = FastIca::default().fit(&x.slice(s![..1, ..]));
    assert!(matches!(r, Err(Error::TooFewSamples { .. })), "{r:?}");
    let m: FittedFastIca<f64> = FastIca::new(2).fit(&x).expect("fit");
    assert!(matches!(
        m.transform(&x.slice(s![.., ..2])),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(m.transform(&nan), Err(Error::NonFinite { .. })));
    assert!(matches!(
        m.inverse_transform(&Array2::<f64>::ones((2, 3))),
        Err(Error::ShapeMismatch { .. })
    ));
    // without whitening the features are the sources (n_components None or d)
    let m: FittedFastIca<f64> = FastIca::default()
        .whiten(IcaWhiten::Disabled)
        .fit(&x)
        .expect("fit");
    assert_eq!(m.components().dim(), (3, 3));
}

#[cfg(feature = "serde")]
#[test]
fn conformance() {
    Battery::new("fast_ica")
        .transformer(&FastIca::default())
        .assert_ok();
    Battery::new("fast_ica deflation, 2 sources, eigh whitening")
        .transformer(
            &FastIca::new(2)
                .algorithm(IcaAlgorithm::Deflation)
                .whiten_solver(WhitenSolver::Eigh),
        )
        .assert_ok();
}

#[cfg(feature = "serde")]
#[test]
fn registry_entry_builds_from_strings() {
    common::registry_round_trip_on_iris(
        "fast_ica",
        &[
            ("n_components", "3"),
            ("algorithm", "deflation"),
            ("fun", "\"cube\""),
            ("whiten_solver", "eigh"),
        ],
        3,
    );
}
