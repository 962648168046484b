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

#[cfg(test)]
mod tests {
    use ndarray::{Array1, Array2, array};
    use ndlearn_core::registry::{Data, Kind, Precision, Target};

    use super::*;

    /// Fits every estimator with its defaults on `x` and reads the model back through
    /// [`Entry::load`]: whatever `fit` accepts must pass its `CheckModel`. (A non-finite float
    /// is written as JSON `null`, which does not parse back: those files fail before the check.)
    fn fitted_models_load_back(
        x: &Array2<f64>,
        labels: &Array1<usize>,
        values: &Array1<f64>,
        weights: Option<&Array1<f64>>,
        must_fit: bool,
    ) {
        let mut failures = Vec::new();
        for entry in registry() {
            for precision in [Precision::F64, Precision::F32] {
                let target = match entry.kind() {
                    Kind::Classifier => Target::Labels(labels.clone()),
                    Kind::Regressor => Target::Values(values.clone()),
                    _ => Target::None,
                };
                let est = entry.build(&[]).expect("defaults");
                let data = Data::F64(x.clone()).with_precision(precision);
                let loaded = est
                    .fit_weighted(&data, &target, weights)
                    .and_then(|model| entry.load(precision, model.to_json()?));
                match loaded {
                    Ok(_) => {}
                    Err(e @ ndlearn_core::Error::InvalidModel { .. }) => {
                        failures.push(format!("{} ({precision:?}): {e}", entry.name()));
                    }
                    Err(e) if must_fit => {
                        failures.push(format!("{} ({precision:?}): {e}", entry.name()));
                    }
                    Err(_) => {}
                }
            }
        }
        assert!(failures.is_empty(), "{failures:#?}");
    }

    #[test]
    fn every_fitted_model_passes_its_check() {
        let data = ndlearn_datasets::iris();
        let x = data.x().to_owned();
        let labels = data.y_classes().expect("labels").to_owned();
        let values = x.column(0).to_owned() + x.column(3);
        fitted_models_load_back(&x, &labels, &values, None, true);
        // extreme but finite values: sums, products and ranges overflow
        let big = f64::MAX;
        let x = array![
            [big, 1.0],
            [-big, 1e-300],
            [1e300, -1e300],
            [big, 0.0],
            [0.5, big],
            [-1e300, -big],
        ];
        let labels = array![0usize, 1, 0, 1, 1, 0];
        let values = array![big, big, -big, 1e300, 0.0, -1e300];
        fitted_models_load_back(&x, &labels, &values, None, false);
        let weights = array![big, 1.0, big, 1e300, 1e-300, 2.0];
        fitted_models_load_back(&x, &labels, &values, Some(&weights), false);
    }
}
