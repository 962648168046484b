//! The conformance battery over **every** registered estimator, in f64 and f32
//! ([`Battery::entry`]): a new estimator is in the registry, hence in this test; it cannot skip
//! it. The checks are the typed battery's (NaN/Inf, empty, one row, wrong feature count, target
//! length, one class, constant columns, 1e±300 scales, k > n, serde round trip, thread
//! invariance for 1, 2 and 3 threads) and the registry's (hyperparameters validated first,
//! probabilities, decision scores, sample weights, partial_fit, feature importances, identical
//! model files for two fits).

use ndlearn_core::registry::Precision;
use ndlearn_testkit::conformance::Battery;

fn run(precision: Precision) {
    let entries = ndlearn_cli::entries();
    let mut failures = Vec::new();
    for e in &entries {
        let report = Battery::new(e.name()).entry(e, precision);
        if !report.is_ok() {
            failures.push(report.to_string());
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} entries failed in {precision:?}:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

#[test]
fn every_registered_estimator_conforms_in_f64() {
    run(Precision::F64);
}

#[test]
fn every_registered_estimator_conforms_in_f32() {
    run(Precision::F32);
}
