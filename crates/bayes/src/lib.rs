//! # ndlearn-bayes
//!
//! Generative (Bayes) classifiers: class priors and class-conditional densities combined by
//! Bayes' rule, all in log space ([`framework`]).
//!
//! | estimator | scikit-learn | CLI name |
//! |---|---|---|
//! | [`GaussianNB`] | `GaussianNB` | `gaussian_nb` |
//! | [`MultinomialNB`] | `MultinomialNB` | `multinomial_nb` |
//! | [`ComplementNB`] | `ComplementNB` | `complement_nb` |
//! | [`BernoulliNB`] | `BernoulliNB` | `bernoulli_nb` |
//! | [`CategoricalNB`] | `CategoricalNB` | `categorical_nb` |
//! | [`LinearDiscriminantAnalysis`] | `LinearDiscriminantAnalysis` | `lda` |
//! | [`QuadraticDiscriminantAnalysis`] | `QuadraticDiscriminantAnalysis` | `qda` |
//! | [`MixedNB`] | — (per-feature models, NaN = missing) | `mixed_nb` |
//! | [`KdeClassifier`] | — (KDE per class) | `kde_classifier` |
//! | [`FisherDiscriminant`] | — (Fisher's criterion; a supervised transformer) | — |
//!
//! Every fitted model implements [`framework::JointLogLikelihood`], `Predict` (the Bayes
//! decision, ties to the lower class), `PredictProba` (log-sum-exp posteriors) and an inherent
//! `predict_log_proba`; the naive Bayes models also stream with `PartialFit`.
//!
//! ```
//! use ndlearn_bayes::GaussianNB;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//!
//! let x = array![[1.0], [1.5], [2.0], [8.0], [8.5], [9.0]];
//! let model = GaussianNB::default().fit(&x, &array![0usize, 0, 0, 1, 1, 1])?;
//! assert_eq!(model.predict(&array![[1.2], [7.0]])?.to_vec(), vec![0, 1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

pub mod covariance;
pub mod discrete;
pub mod discriminant;
pub mod framework;
pub mod gaussian;
pub mod mixed;
#[cfg(feature = "serde")]
pub mod registry;

pub use discrete::{
    BernoulliNB, CategoricalNB, ComplementNB, FittedBernoulliNB, FittedCategoricalNB,
    FittedComplementNB, FittedMultinomialNB, MultinomialNB,
};
pub use discriminant::{
    FisherDiscriminant, FittedFisherDiscriminant, FittedLinearDiscriminantAnalysis,
    FittedQuadraticDiscriminantAnalysis, LdaSolver, LinearDiscriminantAnalysis, QdaSolver,
    QuadraticDiscriminantAnalysis, Shrinkage,
};
pub use gaussian::{FittedGaussianNB, GaussianNB};
pub use mixed::{FeatureModel, FittedKdeClassifier, FittedMixedNB, KdeClassifier, MixedNB};
#[cfg(feature = "serde")]
pub use registry::registry;
