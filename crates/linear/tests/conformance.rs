//! The conformance battery for every estimator of ndlearn-linear (f64; f32 is covered by the
//! golden and property tests).

use ndlearn_linear::{LinearRegression, OlsSolver, Ridge, RidgeCV, RidgeSolver};
use ndlearn_testkit::Battery;

#[test]
fn linear_regression_conforms_for_every_solver() {
    for (name, solver) in [
        ("LinearRegression(Auto)", OlsSolver::Auto),
        ("LinearRegression(Cholesky)", OlsSolver::Cholesky),
        ("LinearRegression(Qr)", OlsSolver::Qr),
        ("LinearRegression(Svd)", OlsSolver::Svd),
        (
            "LinearRegression(GradientDescent)",
            OlsSolver::gradient_descent(),
        ),
    ] {
        Battery::new(name)
            .regressor(&LinearRegression::default().solver(solver))
            .assert_ok();
    }
    Battery::new("LinearRegression(no intercept)")
        .regressor(&LinearRegression::default().fit_intercept(false))
        .assert_ok();
}

#[test]
fn ridge_conforms_for_every_solver() {
    for (name, solver) in [
        ("Ridge(Auto)", RidgeSolver::Auto),
        ("Ridge(Cholesky)", RidgeSolver::Cholesky),
        ("Ridge(Svd)", RidgeSolver::Svd),
        ("Ridge(Sgd)", RidgeSolver::sgd()),
    ] {
        Battery::new(name)
            .regressor(&Ridge::new(0.5).solver(solver))
            .assert_ok();
    }
    Battery::new("Ridge(alpha = 0)")
        .regressor(&Ridge::new(0.0))
        .assert_ok();
}

#[test]
fn ridge_cv_conforms() {
    Battery::new("RidgeCV")
        .regressor(&RidgeCV::default())
        .assert_ok();
    Battery::new("RidgeCV(per target, no intercept)")
        .regressor(
            &RidgeCV::new(vec![1e-3, 1.0, 1e3])
                .fit_intercept(false)
                .alpha_per_target(true),
        )
        .assert_ok();
}
