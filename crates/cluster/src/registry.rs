//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).

use ndlearn_core::registry::Entry;

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        // entries are added here, one per estimator
    ]
}
