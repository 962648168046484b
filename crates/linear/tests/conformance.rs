//! The conformance battery for every estimator of ndlearn-linear (f64; f32 is covered by the
//! golden and property tests).

use ndlearn_linear::{LinearRegression, OlsSolver};
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
