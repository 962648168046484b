//! LogisticRegression against scikit-learn (`datasets/golden/linear/logistic.json`, written by
//! `scripts/golden/linear.py`): probabilities, coefficients, predictions.

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::FitWeighted;
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_linear::{ClassWeight, LogisticPenalty, LogisticRegression, LogisticSolver};
use ndlearn_testkit::{Case, Golden, assert_close};

fn golden() -> Golden {
    Golden::load("linear", "logistic")
}

fn estimator(case: &Case) -> LogisticRegression {
    let penalty = if case.string("penalty") == "none" {
        LogisticPenalty::None
    } else {
        LogisticPenalty::L2
    };
    let cw = match case.string("class_weight_mode") {
        "balanced" => ClassWeight::Balanced,
        "custom" => {
            ClassWeight::per_class(case.vector("class_weight").as_slice().expect("contiguous"))
        }
        _ => ClassWeight::Uniform,
    };
    LogisticRegression::new(case.scalar("c"))
        .penalty(penalty)
        .fit_intercept(case.usize("fit_intercept") == 1)
        .class_weight(cw)
}

/// Multinomial intercepts are identified up to a common shift: compare them centred.
fn centred(v: &Array1<f64>) -> Array1<f64> {
    if v.len() < 2 {
        return v.clone();
    }
    let m = v.mean().unwrap_or(0.0);
    v.mapv(|t| t - m)
}

fn fit(est: &LogisticRegression, case: &Case) -> ndlearn_linear::FittedLogisticRegression<f64> {
    let x = case.matrix("x");
    let y = case.labels("y");
    if case.has("sample_weight") {
        est.fit_weighted(&x, &y, Some(&case.vector("sample_weight")))
    } else {
        est.fit(&x, &y)
    }
    .expect("fit")
}

#[test]
fn newton_and_irls_match_sklearn_tightly() {
    let g = golden();
    for case in g.cases() {
        let x = case.matrix("x");
        for solver in [LogisticSolver::Newton, LogisticSolver::Irls] {
            let ctx = format!("{} {solver:?}", case.name());
            let est = estimator(case).solver(solver).tol(1e-10).max_iter(200);
            let m = fit(&est, case);
            assert!(m.converged(), "{ctx}: not converged");
            let p = m.predict_proba(&x).expect("proba");
            assert_close(&p, &case.matrix("proba"), 0.0, 1e-8, &ctx);
            let coef = case.matrix("coef");
            let scale = coef.iter().fold(0.0f64, |a, v| a.max(v.abs()));
            assert_close(m.coef(), &coef, 1e-6, 1e-6 * scale, &ctx);
            assert_close(
                &centred(m.intercept()),
                &centred(&case.vector("intercept")),
                1e-6,
                1e-6 * scale,
                &ctx,
            );
            let want = case.labels("predict");
            let got = m.predict(&x).expect("predict");
            let agree = got.iter().zip(want.iter()).filter(|(a, b)| a == b).count();
            assert_eq!(agree, want.len(), "{ctx}: predictions");
        }
    }
}

#[test]
fn lbfgs_matches_sklearn_probabilities() {
    let g = golden();
    for case in g.cases() {
        let x = case.matrix("x");
        let est = estimator(case).tol(1e-8).max_iter(10_000);
        let m = fit(&est, case);
        let p = m.predict_proba(&x).expect("proba");
        // L-BFGS stops on |Δf| ≤ 64ε|f| near the optimum: probabilities to ~1e-6.
        assert_close(&p, &case.matrix("proba"), 0.0, 1e-5, case.name());
        let rows: Array1<f64> = p.sum_axis(Axis(1));
        assert!(rows.iter().all(|s| (s - 1.0).abs() < 1e-12));
    }
}

#[test]
fn f32_probabilities_are_close() {
    let g = golden();
    let case = g.case("iris_multinomial");
    let x: Array2<f32> = case.matrix("x").mapv(|v| v as f32);
    let y = case.labels("y");
    let m = estimator(case)
        .solver(LogisticSolver::Newton)
        .tol(1e-4)
        .fit(&x, &y)
        .expect("fit f32");
    let p = m.predict_proba(&x).expect("proba");
    assert_close(&p, &case.matrix("proba"), 0.0, 1e-3, "f32 proba");
}
