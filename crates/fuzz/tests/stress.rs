//! The numerical stress suite in the normal test run: every registered estimator on every
//! stress case (`ndlearn_fuzz::stress`), in f64, with `dup_rows` at 50 repeats per row
//! instead of the table's 1000. Every cell must be a finite result or a typed error.

use ndlearn_core::registry::Precision;
use ndlearn_fuzz::stress::{Verdict, cases_with, run};

#[test]
fn every_estimator_gives_a_finite_result_or_a_typed_error_on_every_stress_case() {
    let cases = cases_with(50);
    let mut failures = Vec::new();
    let mut cells = 0;
    for entry in ndlearn_fuzz::entries() {
        for case in &cases {
            cells += 1;
            let v = run(entry, case, Precision::F64);
            if !v.is_ok() {
                failures.push(format!("{} on {}: {}", entry.name(), case.name, v.cell()));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {cells} cells fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_verdicts_classify_outcomes() {
    assert!(Verdict::Finite.is_ok());
    assert!(Verdict::Error("TooFewClasses".into()).is_ok());
    assert!(!Verdict::NonFinite("predict".into()).is_ok());
    assert!(!Verdict::Panic("index out of bounds".into()).is_ok());
    assert!(Verdict::Panic("a|b".into()).cell().contains("a/b"));
}
