//! The conformance battery for Perceptron (every solver) and LeastSquaresClassifier (both
//! target codings, with and without a ridge penalty), f64.

use ndlearn_linear::{
    LeastSquaresClassifier, LsTargets, Perceptron, PerceptronPenalty, PerceptronSolver,
};
use ndlearn_testkit::Battery;

#[test]
fn perceptron_conforms_for_every_solver() {
    for (name, solver) in [
        ("Perceptron(Sgd)", PerceptronSolver::Sgd),
        ("Perceptron(Classic)", PerceptronSolver::Classic),
        ("Perceptron(Threshold)", PerceptronSolver::Threshold),
        ("Perceptron(Subgradient)", PerceptronSolver::Subgradient),
    ] {
        Battery::new(name)
            .classifier(&Perceptron::new(solver).max_iter(200))
            .assert_ok();
    }
    Battery::new("Perceptron(Sgd, elastic net, no shuffle)")
        .classifier(
            &Perceptron::default()
                .penalty(PerceptronPenalty::ElasticNet)
                .alpha(1e-3)
                .shuffle(false),
        )
        .assert_ok();
    Battery::new("Perceptron(Subgradient, B = 4, no intercept)")
        .classifier(
            &Perceptron::new(PerceptronSolver::Subgradient)
                .batch_size(4)
                .fit_intercept(false)
                .max_iter(100),
        )
        .assert_ok();
}

#[test]
fn least_squares_classifier_conforms() {
    Battery::new("LeastSquaresClassifier")
        .classifier(&LeastSquaresClassifier::default())
        .assert_ok();
    Battery::new("LeastSquaresClassifier(alpha = 1, ±1 targets)")
        .classifier(&LeastSquaresClassifier::new(1.0).targets(LsTargets::PlusMinusOne))
        .assert_ok();
    Battery::new("LeastSquaresClassifier(no intercept)")
        .classifier(&LeastSquaresClassifier::new(0.1).fit_intercept(false))
        .assert_ok();
}
