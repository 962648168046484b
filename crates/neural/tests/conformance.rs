//! The conformance battery (typed errors for NaN/Inf, empty, one row, wrong feature count, one
//! class, constant columns, extreme scales; serde round trip; thread invariance) over the
//! registry entries of this crate in f64 and f32, and over the typed estimators with a few
//! solver settings. The workspace-wide battery (`ndlearn-cli`'s `conformance_all`) runs the same
//! registry checks; this copy keeps the crate's own test run self-contained.
#![cfg(feature = "serde")]

use ndlearn_core::registry::Precision;
use ndlearn_neural::{Activation, MLPClassifier, MLPRegressor, Solver};
use ndlearn_testkit::Battery;

#[test]
fn registry_entries_conform_in_f64_and_f32() {
    for e in &ndlearn_neural::registry() {
        for precision in [Precision::F64, Precision::F32] {
            let report = Battery::new(e.name()).entry(e, precision);
            assert!(report.is_ok(), "{report}");
        }
    }
}

#[test]
fn typed_estimators_conform() {
    for (name, est) in [
        ("MLPClassifier(default)", MLPClassifier::default()),
        (
            "MLPClassifier(sgd, tanh)",
            MLPClassifier::new(&[7])
                .solver(Solver::Sgd)
                .activation(Activation::Tanh),
        ),
        (
            "MLPClassifier(lbfgs, two layers)",
            MLPClassifier::new(&[5, 4]).solver(Solver::Lbfgs),
        ),
    ] {
        Battery::new(name).classifier(&est).assert_ok();
    }
    for (name, est) in [
        ("MLPRegressor(default)", MLPRegressor::default()),
        (
            "MLPRegressor(lbfgs, logistic)",
            MLPRegressor::new(&[6])
                .solver(Solver::Lbfgs)
                .activation(Activation::Logistic),
        ),
    ] {
        Battery::new(name).regressor(&est).assert_ok();
    }
}
