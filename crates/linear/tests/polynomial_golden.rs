//! PolynomialRegression against scikit-learn's `make_pipeline(PolynomialFeatures,
//! LinearRegression / Ridge)` (`datasets/golden/linear/polynomial.json`, written by
//! `scripts/golden/linear_polynomial.py`).
//!
//! Tolerance: 1e-8 relative to the largest entry, or `cond · 1e-15` when the design's
//! condition number makes that larger (the coefficients of an ill-conditioned least-squares
//! problem are determined only to about `cond · ε` by *any* backward-stable solver: the
//! order-9 interpolation case has cond ≈ 1e7, so its coefficients are compared to ~1e-8 and
//! its predictions, which are well conditioned, to 1e-8 as well).

use ndarray::{ArrayRef, Dimension};
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::PolynomialRegression;
use ndlearn_testkit::{Golden, assert_close};

fn close<D: Dimension>(
    actual: &ArrayRef<f64, D>,
    expected: &ArrayRef<f64, D>,
    rtol: f64,
    ctx: &str,
) -> f64 {
    let scale = expected
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    assert_close(actual, expected, rtol, rtol * scale, ctx);
    actual
        .iter()
        .zip(expected.iter())
        .fold(0.0f64, |m, (a, e)| m.max((a - e).abs() / scale))
}

#[test]
fn polynomial_regression_matches_the_sklearn_pipeline() {
    let g = Golden::load("linear", "polynomial");
    let (mut worst_coef, mut worst_pred) = (0.0f64, 0.0f64);
    for case in g.cases() {
        let name = case.name();
        let est = PolynomialRegression::new(case.usize("degree"))
            .alpha(case.scalar("alpha"))
            .include_bias(case.usize("include_bias") == 1)
            .fit_intercept(case.usize("fit_intercept") == 1)
            .interaction_only(case.usize("interaction_only") == 1);
        let x = case.matrix("x");
        let fit = est.fit(&x, &case.vector("y")).expect("fit");
        let tol = (1e-15 * case.scalar("cond")).max(1e-8);
        worst_coef = worst_coef.max(close(fit.coef(), &case.vector("coef"), tol, name));
        let b = case.scalar("intercept");
        assert!(
            (fit.intercept() - b).abs() <= tol * b.abs().max(1.0),
            "{name}: intercept {} vs {b}",
            fit.intercept()
        );
        let pred = fit.predict(&case.matrix("x_new")).expect("predict");
        worst_pred = worst_pred.max(close(&pred, &case.vector("pred"), 1e-8, name));
        // f32 follows to single precision where the design is reasonably conditioned.
        if case.scalar("cond") < 1e3 {
            let fit32 = est
                .fit(&x.mapv(|v| v as f32), &case.vector("y").mapv(|v| v as f32))
                .expect("fit");
            let p32 = fit32
                .predict(&case.matrix("x_new").mapv(|v| v as f32))
                .expect("predict");
            let want = case.vector("pred");
            let scale = want.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            assert_close(&p32, &want, 1e-3, 1e-3 * scale, name);
        }
    }
    eprintln!(
        "PolynomialRegression: max deviation from scikit-learn: coef {worst_coef:e}, \
         predictions {worst_pred:e} (relative to the largest entry)"
    );
}
