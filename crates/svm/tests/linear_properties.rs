//! Invariants of the liblinear solvers behind `LinearSvc` / `LinearSvr`: the dual and the
//! primal solver of the same problem reach the same objective, the returned point is optimal
//! along every coordinate, `C` from `1e-6` to `1e6` fits without panicking, the objective does
//! not depend on the row order, and the model does not depend on the thread count.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::traits::{DecisionFunction, Fit, Predict};
use ndlearn_svm::{Dual, LinearSvc, LinearSvr, MultiClass, Penalty, SvcLoss, SvrLoss};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Noisy classes in `d` dimensions (`n` rows, labels `0..k`, class means `shift · k`).
fn blobs(n: usize, d: usize, k: usize, seed: u64, shift: f64) -> (Array2<f64>, Array1<usize>) {
    use rand::Rng;
    let mut rng = ndlearn_core::random::stream(seed, 0);
    let y: Array1<usize> = (0..n).map(|i| i % k).collect();
    let x = Array2::from_shape_fn((n, d), |(i, j)| {
        let u: f64 = rng.random_range(-1.0..1.0);
        let v: f64 = rng.random_range(-1.0..1.0);
        (u + v) + if j % k == y[i] { shift } else { 0.0 }
    });
    (x, y)
}

/// A noisy linear target.
fn regression(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<f64>) {
    use rand::Rng;
    let mut rng = ndlearn_core::random::stream(seed, 1);
    let x = Array2::from_shape_fn((n, d), |_| rng.random_range(-2.0..2.0));
    let y = x
        .rows()
        .into_iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .map(|(j, v)| (j as f64 - 1.0) * v)
                .sum::<f64>()
                + 0.5
                + rng.random_range(-0.3..0.3)
        })
        .collect();
    (x, y)
}

fn tight_svc() -> LinearSvc {
    LinearSvc::default().tol(1e-10).max_iter(1_000_000)
}

fn rel(a: f64, b: f64) -> f64 {
    (a - b).abs() / b.abs().max(1e-300)
}

/// `F(w̃ ± t eⱼ) ≥ F(w̃)` up to rounding for every coordinate (coefficients and intercept) of
/// every problem: a necessary optimality condition of the convex objective.
fn assert_coordinatewise_optimal(est: &LinearSvc, x: &Array2<f64>, y: &Array1<usize>) {
    let m = est.fit(x, y).expect("fit");
    let (coef, intercept) = (m.coef().clone(), m.intercept().clone());
    let f0 = est
        .objective(x, y, None, &coef, &intercept)
        .expect("objective");
    let slack = |f: f64| 1e-9 * f.abs().max(1.0);
    for k in 0..coef.nrows() {
        for j in 0..=coef.ncols() {
            for sign in [-1.0, 1.0] {
                let (mut c, mut b) = (coef.clone(), intercept.clone());
                if j < coef.ncols() {
                    c[[k, j]] += sign * 1e-3 * c[[k, j]].abs().max(1e-2);
                } else {
                    b[k] += sign * 1e-3 * b[k].abs().max(1e-2);
                }
                let f = est.objective(x, y, None, &c, &b).expect("objective");
                // Crammer–Singer: one joint objective
                let q = if f0.len() == 1 { 0 } else { k };
                assert!(
                    f[q] >= f0[q] - slack(f0[q]),
                    "problem {k}, coordinate {j}: {} < {}",
                    f[q],
                    f0[q]
                );
            }
        }
    }
}

proptest! {
    #![proptest_config(config(10))]

    #[test]
    fn dual_and_primal_reach_the_same_objective(
        seed in 0u64..1000, log_c in -2.0f64..2.0, k in 2usize..4, shift in 0.0f64..2.0,
    ) {
        let (x, y) = blobs(60, 4, k, seed, shift);
        let c = 10f64.powf(log_c);
        let dual = tight_svc().c(c).dual(Dual::Dual).fit(&x, &y).expect("dual");
        let primal = tight_svc().c(c).dual(Dual::Primal).fit(&x, &y).expect("primal");
        prop_assert!(!dual.n_iter_per_problem().is_empty());
        for (a, b) in dual.objectives().iter().zip(primal.objectives()) {
            prop_assert!(rel(*a, *b) <= 1e-7, "dual {a} vs primal {b}");
        }
        let (xr, yr) = regression(50, 3, seed);
        let svr = LinearSvr::default().c(c).epsilon(0.1).tol(1e-10).max_iter(1_000_000)
            .loss(SvrLoss::SquaredEpsilonInsensitive);
        let a = svr.clone().dual(Dual::Dual).fit(&xr, &yr).expect("dual").objective();
        let b = svr.dual(Dual::Primal).fit(&xr, &yr).expect("primal").objective();
        prop_assert!(rel(a, b) <= 1e-7, "SVR dual {a} vs primal {b}");
    }

    #[test]
    fn every_solver_is_optimal_along_each_coordinate(
        seed in 0u64..1000, log_c in -1.0f64..1.0, shift in 0.5f64..2.0,
    ) {
        let (x, y) = blobs(50, 3, 2, seed, shift);
        let c = 10f64.powf(log_c);
        for est in [
            tight_svc().c(c).loss(SvcLoss::Hinge),
            tight_svc().c(c).dual(Dual::Dual),
            tight_svc().c(c).dual(Dual::Primal),
            tight_svc().c(c).penalty(Penalty::L1),
        ] {
            assert_coordinatewise_optimal(&est, &x, &y);
        }
        let (x3, y3) = blobs(45, 3, 3, seed, shift);
        let cs = tight_svc().tol(1e-9).c(c).multi_class(MultiClass::CrammerSinger);
        assert_coordinatewise_optimal(&cs, &x3, &y3);
    }

    #[test]
    fn extreme_c_does_not_panic(seed in 0u64..1000, log_c in -6.0f64..6.0, k in 2usize..4) {
        let (x, y) = blobs(40, 3, k, seed, 1.0);
        let c = 10f64.powf(log_c);
        for est in [
            LinearSvc::default().c(c).loss(SvcLoss::Hinge),
            LinearSvc::default().c(c).dual(Dual::Dual),
            LinearSvc::default().c(c),
            LinearSvc::default().c(c).penalty(Penalty::L1),
            LinearSvc::default().c(c).multi_class(MultiClass::CrammerSinger),
        ] {
            let m = est.fit(&x, &y).expect("fit");
            prop_assert!(m.coef().iter().all(|v| v.is_finite()));
            prop_assert!(m.predict(&x).is_ok());
        }
        let (xr, yr) = regression(40, 3, seed);
        for est in [
            LinearSvr::default().c(c),
            LinearSvr::default().c(c).loss(SvrLoss::SquaredEpsilonInsensitive),
            LinearSvr::default().c(c).loss(SvrLoss::SquaredEpsilonInsensitive).dual(Dual::Dual),
        ] {
            let m = est.fit(&xr, &yr).expect("fit");
            prop_assert!(m.coef().iter().all(|v| v.is_finite()) && m.intercept().is_finite());
        }
    }

    #[test]
    fn the_objective_does_not_depend_on_the_row_order(seed in 0u64..1000, log_c in -1.0f64..1.0) {
        let (x, y) = blobs(50, 3, 3, seed, 1.0);
        let perm = ndlearn_core::random::permutation(&mut ndlearn_core::random::rng(seed), 50);
        let (xp, yp) = (x.select(Axis(0), &perm), y.select(Axis(0), &perm));
        let c = 10f64.powf(log_c);
        for est in [
            tight_svc().c(c).loss(SvcLoss::Hinge),
            tight_svc().c(c),
            tight_svc().c(c).penalty(Penalty::L1),
        ] {
            let a = est.fit(&x, &y).expect("fit");
            let b = est.fit(&xp, &yp).expect("fit permuted");
            for (u, v) in a.objectives().iter().zip(b.objectives()) {
                prop_assert!(rel(*u, *v) <= 1e-7, "{u} vs {v}");
            }
        }
    }
}

#[test]
fn the_model_does_not_depend_on_the_thread_count() {
    let data = ndlearn_datasets::wine();
    let y = data.y_classes().expect("labels");
    for est in [
        LinearSvc::default().dual(Dual::Dual).random_state(7),
        LinearSvc::default().loss(SvcLoss::Hinge).random_state(7),
        LinearSvc::default().penalty(Penalty::L1).random_state(7),
        LinearSvc::default()
            .multi_class(MultiClass::CrammerSinger)
            .random_state(7),
    ] {
        let fits: Vec<_> = (1..=3)
            .map(|t| {
                ndlearn_core::par::with_threads(t, || est.fit(data.x(), y).expect("fit"))
                    .expect("pool")
            })
            .collect();
        assert_eq!(fits[0], fits[1]);
        assert_eq!(fits[0], fits[2]);
    }
}

#[test]
fn f32_input_gives_the_f64_model_to_single_precision() {
    let data = ndlearn_datasets::iris();
    let y = data.y_classes().expect("labels");
    let est = LinearSvc::default().tol(1e-8).max_iter(100_000);
    let a = est.fit(data.x(), y).expect("f64");
    let b = est.fit(&data.x_as::<f32>(), y).expect("f32");
    let za = a.decision_function(data.x()).expect("decision");
    let zb = b.decision_function(&data.x_as::<f32>()).expect("decision");
    for (u, v) in za.iter().zip(&zb) {
        assert!(
            (u - f64::from(*v)).abs() <= 1e-4 * u.abs().max(1.0),
            "{u} vs {v}"
        );
    }
}
