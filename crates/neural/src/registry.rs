//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let entries = ndlearn_neural::registry();
//! let names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
//! assert_eq!(names, ["mlp_classifier", "mlp_regressor", "autoencoder"]);
//! ```

use ndlearn_core::registry::Entry;

use crate::{Autoencoder, MLPClassifier, MLPRegressor};

/// Every estimator of ndlearn-neural, once.
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::probabilistic_classifier::<MLPClassifier>(
            "mlp_classifier",
            "multilayer perceptron (softmax / logistic outputs; adam, sgd with momentum, lbfgs)",
        )
        .sklearn("MLPClassifier")
        .stochastic()
        .partial_fit(false)
        .multilabel()
        .into(),
        Entry::regressor::<MLPRegressor>(
            "mlp_regressor",
            "multilayer perceptron with identity outputs (adam, sgd with momentum, lbfgs)",
        )
        .sklearn("MLPRegressor")
        .stochastic()
        .partial_fit(false)
        .multi_output()
        .into(),
        Entry::invertible_transformer::<Autoencoder>(
            "autoencoder",
            "autoencoder (plain, denoising, sparse L1 code; linear spans the PCA subspace)",
        )
        .stochastic()
        .into(),
    ]
}
