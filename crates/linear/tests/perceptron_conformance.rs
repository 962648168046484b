//! The conformance battery for Perceptron (every solver) and LeastSquaresClassifier (both
//! target codings, with and without a ridge penalty), f64.
#![cfg(feature = "serde")]

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

/// The registry builds both estimators from command-line style settings, and the registry
/// model predicts as the directly fitted one.
#[test]
fn registry_entries_build_with_settings() {
    use ndlearn_core::registry::{Data, Output, Target};
    use ndlearn_core::{Fit, Predict};

    let data = ndlearn_datasets::iris();
    let x = data.x().to_owned();
    let y = data.y_classes().expect("labels").to_owned();
    let entries = ndlearn_linear::registry();
    let find = |name: &str| {
        entries
            .iter()
            .find(|e| e.name() == name)
            .expect("registered")
    };
    let settings = |pairs: &[(&str, &str)]| -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
            .collect()
    };

    let est = find("perceptron")
        .build(&settings(&[("solver", "classic"), ("max_iter", "50")]))
        .expect("build");
    let model = est
        .fit(&Data::F64(x.clone()), &Target::Labels(y.clone()))
        .expect("fit");
    let direct = Perceptron::new(PerceptronSolver::Classic)
        .max_iter(50)
        .fit(&x, &y)
        .expect("fit")
        .predict(&x)
        .expect("predict");
    assert_eq!(
        model.predict(&Data::F64(x.clone())).expect("predict"),
        Output::Labels(direct)
    );
    assert!(
        find("perceptron")
            .build(&settings(&[("solver", "nope")]))
            .is_err()
    );

    let est = find("least_squares_classifier")
        .build(&settings(&[
            ("targets", "plus_minus_one"),
            ("alpha", "1.0"),
        ]))
        .expect("build");
    let model = est
        .fit(&Data::F64(x.clone()), &Target::Labels(y.clone()))
        .expect("fit");
    let direct = LeastSquaresClassifier::new(1.0)
        .targets(LsTargets::PlusMinusOne)
        .fit(&x, &y)
        .expect("fit")
        .predict(&x)
        .expect("predict");
    assert_eq!(
        model.predict(&Data::F64(x)).expect("predict"),
        Output::Labels(direct)
    );
}
