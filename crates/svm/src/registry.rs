//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_svm::registry().iter().map(|e| e.name()).collect();
//! assert_eq!(names, ["svc", "nu_svc", "svr", "nu_svr", "one_class_svm", "kernel_ridge", "linear_svc", "linear_svr"]);
//! ```

use ndlearn_core::registry::Entry;

use crate::{KernelRidge, LinearSvc, LinearSvr, NuSvc, NuSvr, OneClassSvm, Svc, Svr};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::classifier::<Svc>(
            "svc",
            "C-support vector classification (SMO; rbf, poly, sigmoid, linear or precomputed kernel)",
        )
        .sklearn("SVC")
        .decision()
        .weighted()
        .weights_not_repetition()
        .heavy()
        .into(),
        Entry::classifier::<NuSvc>("nu_svc", "nu-support vector classification (SMO, nu form)")
            .sklearn("NuSVC")
            .decision()
            .weighted()
            .weights_not_repetition()
            .heavy()
            .into(),
        Entry::regressor::<Svr>("svr", "epsilon-insensitive support vector regression (SMO)")
            .sklearn("SVR")
            .weighted()
            .weights_not_repetition()
            .heavy()
            .into(),
        Entry::regressor::<NuSvr>("nu_svr", "nu-support vector regression (SMO, nu form)")
            .sklearn("NuSVR")
            .weighted()
            .weights_not_repetition()
            .heavy()
            .into(),
        Entry::outlier_detector::<OneClassSvm>(
            "one_class_svm",
            "one-class SVM for novelty and outlier detection",
        )
        .sklearn("OneClassSVM")
        .weighted_unsupervised()
        .weights_not_repetition()
        .heavy()
        .into(),
        Entry::regressor::<KernelRidge>(
            "kernel_ridge",
            "kernel ridge regression (closed form by Cholesky; several targets)",
        )
        .sklearn("KernelRidge")
        .weighted()
        .multi_output()
        .heavy()
        .into(),
        Entry::classifier::<LinearSvc>(
            "linear_svc",
            "linear support vector classification (liblinear: dual coordinate descent, trust-region Newton, L1 coordinate descent; one-vs-rest)",
        )
        .sklearn("LinearSVC")
        .decision()
        .weighted()
        .into(),
        Entry::regressor::<LinearSvr>(
            "linear_svr",
            "linear support vector regression (liblinear: dual coordinate descent or trust-region Newton)",
        )
        .sklearn("LinearSVR")
        .weighted()
        // the default solver is randomised dual coordinate descent stopping on a relative
        // tolerance: integer weights and repeated rows share the optimum, not the stopping point
        .stochastic()
        .into(),
    ]
}
