//! The conformance battery for BayesianRidge, ArdRegression, BayesianLinearRegression and
//! PolynomialRegression (f64; f32 is covered by the golden and unit tests). Kept out of
//! `conformance.rs` so work packages do not edit the same file.
#![cfg(feature = "serde")]

use ndlearn_linear::{
    ArdRegression, BayesianLinearRegression, BayesianRidge, GaussianPrior, PolynomialRegression,
};
use ndlearn_testkit::Battery;

#[test]
fn bayesian_ridge_conforms() {
    Battery::new("BayesianRidge")
        .regressor(&BayesianRidge::default())
        .assert_ok();
    Battery::new("BayesianRidge(no intercept, score)")
        .regressor(
            &BayesianRidge::default()
                .fit_intercept(false)
                .compute_score(true),
        )
        .assert_ok();
}

#[test]
fn ard_regression_conforms() {
    Battery::new("ArdRegression")
        .regressor(&ArdRegression::default())
        .assert_ok();
    Battery::new("ArdRegression(no intercept, score)")
        .regressor(
            &ArdRegression::default()
                .fit_intercept(false)
                .compute_score(true),
        )
        .assert_ok();
}

#[test]
fn bayesian_linear_regression_conforms() {
    Battery::new("BayesianLinearRegression")
        .regressor(&BayesianLinearRegression::default())
        .assert_ok();
    Battery::new("BayesianLinearRegression(full prior, no intercept)")
        .regressor(
            &BayesianLinearRegression::new(
                4.0,
                GaussianPrior::Full {
                    mean: vec![0.5, -0.5, 0.0],
                    covariance: vec![
                        vec![2.0, 0.5, 0.0],
                        vec![0.5, 1.0, 0.1],
                        vec![0.0, 0.1, 3.0],
                    ],
                },
            )
            .fit_intercept(false),
        )
        .assert_ok();
}

#[test]
fn polynomial_regression_conforms() {
    // Least squares on 3 inputs: the battery's tiny fits (1 or 2 rows) are rank-deficient
    // and get the minimum-norm solution (the E15 distinct-value check is for one input).
    Battery::new("PolynomialRegression")
        .regressor(&PolynomialRegression::default())
        .assert_ok();
    Battery::new("PolynomialRegression(ridge, degree 3)")
        .regressor(&PolynomialRegression::new(3).alpha(0.5))
        .assert_ok();
}
