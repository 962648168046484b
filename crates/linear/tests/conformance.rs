//! The conformance battery for every estimator of ndlearn-linear (f64; f32 is covered by the
//! golden and property tests).
#![cfg(feature = "serde")]

use ndlearn_core::optim::StepSize;
use ndlearn_linear::{
    ClassWeight, ElasticNet, ElasticNetCV, EnetSolver, Lasso, LassoCV, LinearRegression,
    LogisticPenalty, LogisticRegression, LogisticSolver, OlsSolver, Precompute, Ridge, RidgeCV,
    RidgeSolver,
};
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

#[test]
fn lasso_and_elastic_net_conform() {
    for (name, pre) in [
        ("Lasso(Gram)", Precompute::Always),
        ("Lasso(dense)", Precompute::Never),
    ] {
        Battery::new(name)
            .regressor(&Lasso::new(0.1).precompute(pre))
            .assert_ok();
        Battery::new(name)
            .regressor(&ElasticNet::new(0.1, 0.5).precompute(pre))
            .assert_ok();
    }
    for (name, solver) in [
        ("ElasticNet(ISTA)", EnetSolver::Ista),
        ("ElasticNet(FISTA)", EnetSolver::Fista),
        (
            "ElasticNet(subgradient)",
            EnetSolver::Subgradient {
                step: StepSize::InverseSqrtT(0.01),
            },
        ),
    ] {
        Battery::new(name)
            .regressor(&ElasticNet::new(0.1, 0.5).solver(solver).max_iter(200))
            .assert_ok();
    }
    Battery::new("Lasso(positive, no intercept)")
        .regressor(&Lasso::new(0.05).positive(true).fit_intercept(false))
        .assert_ok();
}

#[test]
fn cv_estimators_conform() {
    Battery::new("LassoCV")
        .regressor(&LassoCV::default().n_alphas(10).cv(3))
        .assert_ok();
    Battery::new("ElasticNetCV")
        .regressor(&ElasticNetCV::new(vec![0.3, 0.8]).n_alphas(8).cv(3))
        .assert_ok();
}

#[test]
fn solver_enums_serialise_in_snake_case() {
    let s = serde_json::to_string(&OlsSolver::Auto).expect("serialise");
    assert_eq!(s, "\"auto\"");
    let s = serde_json::to_string(&RidgeSolver::Cholesky).expect("serialise");
    assert_eq!(s, "\"cholesky\"");
    let s = serde_json::to_string(&Precompute::Never).expect("serialise");
    assert_eq!(s, "\"never\"");
    let back: EnetSolver = serde_json::from_str("\"fista\"").expect("deserialise");
    assert_eq!(back, EnetSolver::Fista);
    let gd: OlsSolver =
        serde_json::from_str(r#"{"gradient_descent":{"max_iter":5,"tol":0.1}}"#).expect("gd");
    assert_eq!(
        gd,
        OlsSolver::GradientDescent {
            max_iter: 5,
            tol: 0.1
        }
    );
}

#[test]
fn logistic_regression_conforms() {
    for (name, solver) in [
        ("LogisticRegression(lbfgs)", LogisticSolver::Lbfgs),
        ("LogisticRegression(newton)", LogisticSolver::Newton),
        ("LogisticRegression(irls)", LogisticSolver::Irls),
    ] {
        Battery::new(name)
            .classifier(&LogisticRegression::default().solver(solver))
            .assert_ok();
    }
    Battery::new("LogisticRegression(balanced, no penalty)")
        .classifier(
            &LogisticRegression::default()
                .class_weight(ClassWeight::Balanced)
                .penalty(LogisticPenalty::None)
                .max_iter(50),
        )
        .assert_ok();
}
