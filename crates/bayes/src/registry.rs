//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_bayes::registry().iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"gaussian_nb") && names.contains(&"multinomial_nb"));
//! ```

use ndlearn_core::registry::Entry;

use crate::{
    BernoulliNB, CategoricalNB, ComplementNB, GaussianNB, KdeClassifier,
    LinearDiscriminantAnalysis, MixedNB, MultinomialNB, QuadraticDiscriminantAnalysis,
};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::probabilistic_classifier::<GaussianNB>(
            "gaussian_nb",
            "Gaussian naive Bayes (MLE variances plus var_smoothing)",
        )
        .sklearn("GaussianNB")
        .weighted()
        .partial_fit(true)
        .into(),
        Entry::probabilistic_classifier::<MultinomialNB>(
            "multinomial_nb",
            "multinomial naive Bayes for counts (Lidstone smoothing alpha)",
        )
        .sklearn("MultinomialNB")
        .partial_fit(true)
        .non_negative_input()
        .into(),
        Entry::probabilistic_classifier::<ComplementNB>(
            "complement_nb",
            "complement naive Bayes for counts (imbalanced classes)",
        )
        .sklearn("ComplementNB")
        .partial_fit(true)
        .non_negative_input()
        .into(),
        Entry::probabilistic_classifier::<BernoulliNB>(
            "bernoulli_nb",
            "Bernoulli naive Bayes for binary features (threshold binarize)",
        )
        .sklearn("BernoulliNB")
        .partial_fit(true)
        .into(),
        Entry::probabilistic_classifier::<CategoricalNB>(
            "categorical_nb",
            "categorical naive Bayes for category codes 0, 1, 2, …",
        )
        .sklearn("CategoricalNB")
        .partial_fit(true)
        .categorical_input()
        .refuses_unseen()
        .into(),
        Entry::probabilistic_classifier::<LinearDiscriminantAnalysis>(
            "lda",
            "linear discriminant analysis (shared covariance; svd, lsqr, eigen; shrinkage)",
        )
        .sklearn("LinearDiscriminantAnalysis")
        .decision()
        .into(),
        Entry::probabilistic_classifier::<QuadraticDiscriminantAnalysis>(
            "qda",
            "quadratic discriminant analysis (one covariance per class, reg_param)",
        )
        .sklearn("QuadraticDiscriminantAnalysis")
        .decision()
        .into(),
        Entry::probabilistic_classifier::<MixedNB>(
            "mixed_nb",
            "naive Bayes with a model per feature (Gaussian, categorical, Bernoulli, KDE); NaN = missing",
        )
        .missing_values()
        .into(),
        Entry::probabilistic_classifier::<KdeClassifier>(
            "kde_classifier",
            "kernel density estimate per class times the class prior",
        )
        .heavy()
        .into(),
    ]
}
