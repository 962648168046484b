//! The conformance battery for the robust regressors and total least squares (f64; f32 is
//! covered by the unit and golden tests).
#![cfg(feature = "serde")]

use ndlearn_linear::{
    HuberLoss, HuberRegressor, LadRegressor, LadSolver, QuantileRegressor, TotalLeastSquares,
};
use ndlearn_testkit::Battery;

#[test]
fn huber_regressor_conforms() {
    Battery::new("HuberRegressor")
        .regressor(&HuberRegressor::default())
        .assert_ok();
    Battery::new("HuberRegressor(no intercept)")
        .regressor(&HuberRegressor::default().fit_intercept(false))
        .assert_ok();
    Battery::new("HuberRegressor(notes loss)")
        .regressor(&HuberRegressor::default().loss(HuberLoss::Notes {
            lambda: 2.0,
            mu: 0.5,
        }))
        .assert_ok();
}

#[test]
fn quantile_and_lad_regressors_conform() {
    Battery::new("QuantileRegressor")
        .regressor(&QuantileRegressor::default())
        .assert_ok();
    Battery::new("QuantileRegressor(0.9, alpha 0)")
        .regressor(&QuantileRegressor::new(0.9).alpha(0.0))
        .assert_ok();
    Battery::new("LadRegressor(LP)")
        .regressor(&LadRegressor::default())
        .assert_ok();
    Battery::new("LadRegressor(IRLS)")
        .regressor(&LadRegressor::default().solver(LadSolver::Irls))
        .assert_ok();
}

#[test]
fn total_least_squares_conforms() {
    Battery::new("TotalLeastSquares")
        .regressor(&TotalLeastSquares::default())
        .assert_ok();
    Battery::new("TotalLeastSquares(no intercept)")
        .regressor(&TotalLeastSquares::default().fit_intercept(false))
        .assert_ok();
}

#[test]
fn registry_entries_build_with_hyperparameters() {
    let entries = ndlearn_linear::registry();
    for (name, params) in [
        (
            "huber_regressor",
            vec![("epsilon", "2.0"), ("alpha", "0.01")],
        ),
        (
            "quantile_regressor",
            vec![("quantile", "0.9"), ("alpha", "0")],
        ),
        ("lad_regressor", vec![("solver", "irls"), ("delta", "1e-6")]),
        ("total_least_squares", vec![("fit_intercept", "false")]),
    ] {
        let e = entries
            .iter()
            .find(|e| e.name() == name)
            .unwrap_or_else(|| panic!("{name} registered"));
        let owned: Vec<(String, String)> = params
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        assert!(e.build(&owned).is_ok(), "{name} {params:?}");
        assert!(e.build(&[("nope".into(), "1".into())]).is_err(), "{name}");
    }
}
