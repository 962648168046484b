//! Perceptron (solver `Sgd`, `shuffle = false`) against scikit-learn's `Perceptron`
//! (`datasets/golden/linear/perceptron.json`, written by `scripts/golden/linear_perceptron.py`):
//! coefficients, intercepts, epochs, decision values and predictions.

use ndarray::{Array1, Array2};
use ndlearn_core::DecisionFunction;
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{FittedPerceptron, Perceptron, PerceptronPenalty, PerceptronSolver};
use ndlearn_testkit::{Case, Golden, assert_close};

/// The scikit-learn references of `scripts/golden/linear_perceptron.py`.
fn golden() -> Golden {
    Golden::load("linear", "perceptron")
}

fn estimator(case: &Case) -> Perceptron {
    let penalty = match case.string("penalty") {
        "l2" => PerceptronPenalty::L2,
        "l1" => PerceptronPenalty::L1,
        "elasticnet" => PerceptronPenalty::ElasticNet,
        _ => PerceptronPenalty::None,
    };
    let tol = if case.usize("tol_none") == 1 {
        None
    } else {
        Some(case.scalar("tol"))
    };
    Perceptron::new(PerceptronSolver::Sgd)
        .shuffle(false)
        .penalty(penalty)
        .alpha(case.scalar("alpha"))
        .l1_ratio(case.scalar("l1_ratio"))
        .eta0(case.scalar("eta0"))
        .max_iter(case.usize("max_iter"))
        .tol(tol)
        .n_iter_no_change(case.usize("n_iter_no_change"))
        .fit_intercept(case.usize("fit_intercept") == 1)
}

fn max_rel(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    let scale = b.iter().fold(1.0f64, |m, v| m.max(v.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs() / scale))
}

/// scikit-learn's `_plain_sgd` is replayed operation for operation in `f64` (same order of the
/// sums, the same `scale · v` weight representation), so the results agree to rounding; the
/// only different arithmetic is `decision_function` (a BLAS product in scikit-learn, an ordered
/// sum here). Tolerance: 1e-12 relative to the largest coefficient (measured: 0 for the
/// coefficients, ≤ 1e-15 for the decision values). Epoch counts and predictions are exact.
#[test]
fn sgd_matches_sklearn_perceptron_without_shuffle() {
    let g = golden();
    let cases = g.cases_with_prefix("perceptron_");
    assert!(cases.len() >= 8);
    let mut worst = (0.0f64, 0.0f64);
    for case in cases {
        let ctx = case.name();
        let x = case.matrix("x");
        let y = case.labels("y");
        let m: FittedPerceptron<f64> = estimator(case).fit(&x, &y).expect("fit");
        assert_eq!(m.n_iter(), case.usize("n_iter"), "{ctx}: n_iter");
        let coef = case.matrix("coef");
        let scale = coef.iter().fold(1.0f64, |a, v| a.max(v.abs()));
        assert_close(m.coef(), &coef, 0.0, 1e-12 * scale, ctx);
        assert_close(
            m.intercept(),
            &case.vector("intercept"),
            0.0,
            1e-12 * scale,
            ctx,
        );
        let dec = m.decision_function(&x).expect("decision");
        let want = case.matrix("decision");
        assert_close(&dec, &want, 0.0, 1e-12 * scale.max(1.0) * 1e2, ctx);
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("predict"),
            "{ctx}"
        );
        let d_coef = max_rel(m.coef(), &coef);
        let d_dec = max_rel(&dec, &want);
        println!("{ctx}: coef max rel dev {d_coef:.2e}, decision {d_dec:.2e}");
        worst = (worst.0.max(d_coef), worst.1.max(d_dec));
    }
    println!("worst: coef {:.2e}, decision {:.2e}", worst.0, worst.1);
}

/// The separable case: scikit-learn and ndlearn both end with zero training errors, and the
/// notes' PLA (`Classic`) also separates it, with `converged()`.
#[test]
fn separable_case_has_zero_training_errors_for_every_solver() {
    let g = golden();
    let case = g.case("perceptron_separable");
    let x = case.matrix("x");
    let y = case.labels("y");
    assert_eq!(case.labels("predict"), y);
    for solver in [
        PerceptronSolver::Sgd,
        PerceptronSolver::Classic,
        PerceptronSolver::Threshold,
        PerceptronSolver::Subgradient,
    ] {
        let m: FittedPerceptron<f64> = Perceptron::new(solver)
            .tol(None)
            .max_iter(5000)
            .fit(&x, &y)
            .expect("fit");
        assert!(m.converged(), "{solver:?}");
        assert_eq!(m.predict(&x).expect("predict"), y, "{solver:?}");
    }
}

/// `f32` input: the solver runs in `f64` on the `f32`-rounded data, so a model fitted on `f32`
/// equals the `f64` model fitted on the same rounded values, cast to `f32`.
#[test]
fn f32_fit_equals_f64_fit_on_the_rounded_data() {
    let g = golden();
    for name in [
        "perceptron_iris",
        "perceptron_separable",
        "perceptron_wine_l2",
    ] {
        let case = g.case(name);
        let x32 = case.matrix("x").mapv(|v| v as f32);
        let y = case.labels("y");
        let est = estimator(case);
        let m32: FittedPerceptron<f32> = est.fit(&x32, &y).expect("fit f32");
        let m64: FittedPerceptron<f64> = est.fit(&x32.mapv(f64::from), &y).expect("fit f64");
        assert_eq!(m32.n_iter(), m64.n_iter(), "{name}");
        assert_eq!(*m32.coef(), m64.coef().mapv(|v| v as f32), "{name}");
        let agree = m32
            .predict(&x32)
            .expect("predict")
            .iter()
            .zip(m64.predict(&x32.mapv(f64::from)).expect("predict").iter())
            .filter(|(a, b)| a == b)
            .count();
        assert!(agree + 1 >= y.len(), "{name}: {agree}/{}", y.len());
    }
    // The f32 model of the separable set still separates it.
    let case = g.case("perceptron_separable");
    let x32 = case.matrix("x").mapv(|v| v as f32);
    let y: Array1<usize> = case.labels("y");
    let m: FittedPerceptron<f32> = estimator(case).fit(&x32, &y).expect("fit");
    assert_eq!(m.predict(&x32).expect("predict"), y);
}
