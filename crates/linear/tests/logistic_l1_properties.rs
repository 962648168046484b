//! Properties of L1 / elastic-net logistic regression: the KKT threshold `C*` below which every
//! coefficient is exactly zero (both sides of it), the large-`C` limit, `l1_ratio = 0` = the
//! L2 fit, finite coefficients on separable data, f32 ≈ f64, determinism; the conformance
//! battery and the registry names for the L1 and elastic-net variants.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::FitWeighted;
use ndlearn_core::registry::{Data, Output, Target};
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_linear::{LogisticPenalty, LogisticRegression, LogisticSolver};
use ndlearn_testkit::{Battery, config, separable_blobs};
use proptest::prelude::*;

/// Blobs made strongly overlapping by moving every other label to the next class (a finite,
/// well-conditioned unpenalised optimum; every class stays present).
fn noisy(y: &Array1<usize>, k: usize) -> Array1<usize> {
    let mut y = y.clone();
    for i in (0..y.len()).step_by(2) {
        y[i] = (y[i] + 1) % k;
    }
    y
}

fn standardised(x: &Array2<f64>) -> Array2<f64> {
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let sd = x.std_axis(Axis(0), 0.0);
    (x - &mean) / &sd.mapv(|s| if s > 0.0 { s } else { 1.0 })
}

/// The KKT threshold: with `W = 0` the optimal intercepts give every row the (weighted) class
/// frequencies `π`, the loss gradient is `G_kj = Σᵢ sᵢ (π_k − y_ik) x_ij`, and `W = 0` is optimal
/// iff `C ‖G‖_∞ ≤ ρ`, i.e. `C ≤ C* = ρ / ‖G‖_∞` (binary: one row, `π = ȳ`).
fn c_star(x: &Array2<f64>, y: &Array1<usize>, sw: &Array1<f64>, rho: f64) -> f64 {
    let k = y.iter().max().map_or(0, |m| m + 1);
    let rows = if k == 2 { 1 } else { k };
    let total: f64 = sw.sum();
    let mut worst = 0.0f64;
    for c in 0..rows {
        let class = if k == 2 { 1 } else { c };
        let pi: f64 = y
            .iter()
            .zip(sw.iter())
            .filter(|(l, _)| **l == class)
            .map(|(_, s)| s)
            .sum::<f64>()
            / total;
        for j in 0..x.ncols() {
            let g: f64 = (0..x.nrows())
                .map(|i| sw[i] * (pi - f64::from(u8::from(y[i] == class))) * x[[i, j]])
                .sum();
            worst = worst.max(g.abs());
        }
    }
    rho / worst
}

#[test]
fn all_zero_exactly_below_the_kkt_threshold() {
    let bc = ndlearn_datasets::breast_cancer();
    let iris = ndlearn_datasets::iris();
    let wine = ndlearn_datasets::wine();
    let sets = [
        (
            standardised(bc.x()),
            bc.y_classes().expect("labels").clone(),
        ),
        (
            standardised(iris.x()),
            iris.y_classes().expect("labels").clone(),
        ),
        (
            standardised(wine.x()),
            wine.y_classes().expect("labels").clone(),
        ),
    ];
    for (x, y) in &sets {
        let n = x.nrows();
        let weights = [
            Array1::ones(n),
            Array1::from_shape_fn(n, |i| 0.5 + (i % 7) as f64 * 0.25),
        ];
        for sw in &weights {
            for pen in [
                LogisticPenalty::L1,
                LogisticPenalty::ElasticNet { l1_ratio: 0.4 },
            ] {
                let cs = c_star(x, y, sw, pen.l1_ratio());
                let below = LogisticRegression::new(0.99 * cs)
                    .penalty(pen)
                    .tol(1e-10)
                    .fit_weighted(x, y, Some(sw))
                    .expect("fit");
                assert!(below.converged());
                assert!(below.coef().iter().all(|&v| v == 0.0), "{pen:?} below C*");
                // The intercepts are then the log class frequencies (centred) / log-odds.
                let p = below.predict_proba(x).expect("proba");
                let total = sw.sum();
                for c in 0..p.ncols() {
                    let pi: f64 = y
                        .iter()
                        .zip(sw.iter())
                        .filter(|(l, _)| **l == c)
                        .map(|(_, s)| s)
                        .sum::<f64>()
                        / total;
                    assert!((p[[0, c]] - pi).abs() < 1e-9);
                }
                let above = LogisticRegression::new(1.01 * cs)
                    .penalty(pen)
                    .tol(1e-10)
                    .fit_weighted(x, y, Some(sw))
                    .expect("fit");
                assert!(above.converged());
                let nz = above.coef().iter().filter(|&&v| v != 0.0).count();
                assert!(nz >= 1, "{pen:?} above C*: still all zero");
            }
        }
    }
}

#[test]
fn l1_ratio_zero_is_the_l2_fit_and_proximal_newton_solves_l2() {
    let bc = ndlearn_datasets::breast_cancer();
    let wine = ndlearn_datasets::wine();
    for (x, y) in [
        (standardised(bc.x()), bc.y_classes().expect("labels")),
        (standardised(wine.x()), wine.y_classes().expect("labels")),
    ] {
        let l2 = LogisticRegression::new(0.7)
            .solver(LogisticSolver::Newton)
            .tol(1e-11)
            .fit(&x, y)
            .expect("fit");
        for est in [
            LogisticRegression::new(0.7)
                .penalty(LogisticPenalty::ElasticNet { l1_ratio: 0.0 })
                .solver(LogisticSolver::ProximalNewton),
            LogisticRegression::new(0.7).solver(LogisticSolver::ProximalNewton),
        ] {
            let m = est.tol(1e-11).fit(&x, y).expect("fit");
            assert!(m.converged());
            assert!((m.coef() - l2.coef()).iter().all(|v| v.abs() < 1e-9));
            assert!(
                (m.intercept() - l2.intercept())
                    .iter()
                    .all(|v| v.abs() < 1e-9)
            );
        }
        // l1_ratio = 0 with the smooth solvers is the same problem.
        let lb = LogisticRegression::new(0.7)
            .penalty(LogisticPenalty::ElasticNet { l1_ratio: 0.0 })
            .solver(LogisticSolver::Newton)
            .tol(1e-11)
            .fit(&x, y)
            .expect("fit");
        assert_eq!(lb.coef(), l2.coef());
    }
}

#[cfg(feature = "serde")]
#[test]
fn registry_takes_penalty_and_l1_ratio_by_name() {
    let entries = ndlearn_linear::registry();
    let e = entries
        .iter()
        .find(|e| e.name() == "logistic_regression")
        .expect("entry");
    let params = e.params().expect("params");
    let pen = params
        .iter()
        .find(|p| p.name == "penalty")
        .expect("penalty");
    for name in ["l2", "l1", "elasticnet", "none"] {
        assert!(pen.choices.iter().any(|c| c == name), "{name}");
    }
    let bc = ndlearn_datasets::breast_cancer();
    let x = standardised(bc.x());
    let y = bc.y_classes().expect("labels").clone();
    let direct = LogisticRegression::new(0.5)
        .penalty(LogisticPenalty::ElasticNet { l1_ratio: 0.3 })
        .fit(&x, &y)
        .expect("fit");
    let s = |k: &str, v: &str| (k.to_string(), v.to_string());
    let est = e
        .build(&[
            s("penalty", "elasticnet"),
            s("l1_ratio", "0.3"),
            s("c", "0.5"),
        ])
        .expect("build");
    let model = est
        .fit(&Data::F64(x.clone()), &Target::Labels(y.clone()))
        .expect("fit");
    let out = model.predict(&Data::F64(x.clone())).expect("predict");
    assert_eq!(out, Output::Labels(direct.predict(&x).expect("predict")));
    let json = model.to_json().expect("json");
    assert_eq!(json["params"]["penalty"], "elasticnet");
    assert_eq!(json["params"]["l1_ratio"], 0.3);
    assert!(e.build(&[s("penalty", "l1")]).is_ok());
    // l1_ratio belongs to the elastic net, which needs it; out of range is a validate() error.
    assert!(e.build(&[s("penalty", "elasticnet")]).is_err());
    assert!(e.build(&[s("l1_ratio", "0.5")]).is_err());
    assert!(e.build(&[s("penalty", "lasso")]).is_err());
    // The registry checks the hyperparameters when it builds the estimator, before any data.
    assert!(matches!(
        e.build(&[s("penalty", "elasticnet"), s("l1_ratio", "1.5")]),
        Err(ndlearn_core::Error::InvalidParam { .. })
    ));
    let bad = e
        .build_json_unchecked(serde_json::json!({"penalty": "elasticnet", "l1_ratio": 1.5}))
        .expect("builds unchecked");
    assert!(bad.fit(&Data::F64(x), &Target::Labels(y)).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn l1_and_elastic_net_conform() {
    for (name, pen) in [
        ("LogisticRegression(l1)", LogisticPenalty::L1),
        (
            "LogisticRegression(elasticnet 0.5)",
            LogisticPenalty::ElasticNet { l1_ratio: 0.5 },
        ),
    ] {
        Battery::new(name)
            .classifier(&LogisticRegression::default().penalty(pen))
            .assert_ok();
    }
    Battery::new("LogisticRegression(proximal Newton, l2)")
        .classifier(&LogisticRegression::default().solver(LogisticSolver::ProximalNewton))
        .assert_ok();
}

#[test]
fn invalid_l1_ratio_is_rejected() {
    let x = ndarray::array![[0.0], [1.0], [2.0], [3.0]];
    let y = ndarray::array![0usize, 0, 1, 1];
    for r in [-0.1, 1.1, f64::NAN] {
        let err = LogisticRegression::default()
            .penalty(LogisticPenalty::ElasticNet { l1_ratio: r })
            .fit(&x, &y)
            .expect_err("invalid l1_ratio");
        assert!(
            matches!(err, ndlearn_core::Error::InvalidParam { name, .. } if name == "l1_ratio"),
            "{r}"
        );
    }
}

proptest! {
    #![proptest_config(config(10))]

    #[test]
    fn large_c_approaches_the_unpenalised_fit(data in separable_blobs(10..20, 2..4, 2..4)) {
        let (x, y) = data;
        let k = y.iter().max().map_or(1, |m| m + 1);
        let y = noisy(&y, k);
        let free = LogisticRegression::default()
            .penalty(LogisticPenalty::None)
            .solver(LogisticSolver::Newton)
            .tol(1e-11)
            .max_iter(500)
            .fit(&x, &y)
            .expect("fit");
        prop_assume!(free.converged());
        let pf = free.predict_proba(&x).expect("proba");
        // The penalty's gradient is ≤ 1/(C S) per coordinate: at C = 1e6 the fit moves by
        // O(1e-6 / curvature) from the unpenalised optimum.
        for pen in [LogisticPenalty::L1, LogisticPenalty::ElasticNet { l1_ratio: 0.5 }] {
            // tol 1e-9: near-separable draws have coefficients ~50 and scores ~10³, whose
            // rounding puts the attainable KKT violation around 1e-11.
            let m = LogisticRegression::new(1e6)
                .penalty(pen)
                .tol(1e-9)
                .max_iter(500)
                .fit(&x, &y)
                .expect("fit");
            prop_assert!(m.converged());
            let p = m.predict_proba(&x).expect("proba");
            prop_assert!((&p - &pf).iter().all(|v| v.abs() < 1e-3));
        }
    }

    #[test]
    fn separable_l1_is_finite_deterministic_and_f32_close(
        data in separable_blobs(8..20, 2..4, 2..4),
        c in 0.1f64..50.0,
    ) {
        let (x, y) = data;
        let est = LogisticRegression::new(c).penalty(LogisticPenalty::L1).max_iter(500);
        // Separable: the L1 penalty alone keeps the optimum finite.
        let a = est.fit(&x, &y).expect("fit");
        prop_assert!(a.converged());
        prop_assert!(a.coef().iter().chain(a.intercept().iter()).all(|v| v.is_finite()));
        // Determinism: bitwise-equal refits.
        let b = est.fit(&x, &y).expect("fit");
        prop_assert_eq!(a.coef(), b.coef());
        prop_assert_eq!(a.intercept(), b.intercept());
        // f32 ≈ f64 on the overlapping version, standardised (the uncentred blobs make the
        // Hessian ill-conditioned, where a KKT tolerance says little about the distance to the
        // optimum).
        let k = y.iter().max().map_or(1, |m| m + 1);
        let y = noisy(&y, k);
        let x = standardised(&x);
        let est = est.penalty(LogisticPenalty::ElasticNet { l1_ratio: 0.7 });
        let f64fit = est.clone().tol(1e-10).fit(&x, &y).expect("fit");
        let f32fit = est.tol(1e-5).fit(&x.mapv(|v| v as f32), &y).expect("fit");
        prop_assert!(f32fit.converged());
        let pa = f64fit.predict_proba(&x).expect("proba");
        let pb = f32fit.predict_proba(&x.mapv(|v| v as f32)).expect("proba");
        for (u, v) in pa.iter().zip(pb.iter()) {
            prop_assert!((u - f64::from(*v)).abs() < 1e-3, "{} vs {}", u, v);
        }
    }
}
