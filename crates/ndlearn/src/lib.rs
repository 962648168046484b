//! # ndlearn
//!
//! Machine learning over [`ndarray`]: scikit-learn's estimators with scikit-learn's semantics,
//! checked against it, in focused crates that this facade puts behind one dependency.
//!
//! ```toml
//! [dependencies]
//! ndlearn = "0.1"                       # every family, system OpenBLAS
//! # or only what you use:
//! # ndlearn = { version = "0.1", default-features = false, features = ["openblas-system", "serde", "cluster"] }
//! ```
//!
//! ## Quick start
//!
//! ```
//! use ndlearn::prelude::*;
//! use ndlearn::model_selection::{SplitSize, TrainTestSplit};
//! use ndlearn::preprocessing::StandardScaler;
//!
//! let data = ndlearn::datasets::breast_cancer();
//! let y = data.y_classes().expect("class labels");
//! let split = TrainTestSplit::new().test_size(SplitSize::Fraction(0.25)).seed(0);
//! let part = split.split_stratified(y)?.apply(data.x(), y)?;
//!
//! // Scale on the training rows only, then fit a support vector machine.
//! let scaler = StandardScaler::default().fit(&part.x_train)?;
//! let (x_train, x_test) = (scaler.transform(&part.x_train)?, scaler.transform(&part.x_test)?);
//! let model = Svc::default().c(1.0).fit(&x_train, &part.y_train)?;
//! let accuracy = ndlearn::metrics::accuracy_score(&part.y_test, &model.predict(&x_test)?, None)?;
//! assert!(accuracy > 0.95);
//!
//! // The same data through a random forest and a k-means clustering.
//! let forest = RandomForestClassifier::default().n_estimators(50).fit(&x_train, &part.y_train)?;
//! assert!(ndlearn::metrics::accuracy_score(&part.y_test, &forest.predict(&x_test)?, None)? > 0.9);
//! let clusters = KMeans::new(2).fit(&x_train)?;
//! assert_eq!(clusters.predict(&x_test)?.len(), x_test.nrows());
//! # Ok::<(), ndlearn::Error>(())
//! ```
//!
//! Every estimator is a plain struct of hyperparameters with scikit-learn's names and defaults
//! (builder setters), validated by [`Estimator::validate`] before it touches data; `fit`
//! returns a separate fitted model type. Inputs are `ndarray` arrays of `f32` or `f64`; class
//! labels are `usize` in `0..n_classes`. Errors are one typed [`Error`]: non-finite input,
//! wrong shapes, a single class and bad hyperparameters never panic.
//!
//! ## What is where
//!
//! | module | feature | what |
//! |---|---|---|
//! | crate root (from `ndlearn-core`) | always | traits ([`Fit`], [`Predict`], [`Transform`], ...), [`Error`], [`Float`], [`linalg`], [`stats`], [`distance`], [`kernel`], [`optim`], [`random`], [`par`], ... |
//! | [`metrics`], [`model_selection`] and [`pipeline`], [`preprocessing`], [`feature_selection`], [`calibration`], `learning_theory`, `active_learning`, `resampling`, `tensor` | one feature each (`toolkits`: all; in `full`) | core's optional toolkits |
//! | [`linear`] | `linear` | OLS, ridge, lasso, elastic net (and CV), logistic regression, SGD, perceptron, Huber, quantile, Bayesian ridge, ARD, one-vs-rest / one-vs-one |
//! | [`bayes`] | `bayes` | Gaussian / multinomial / complement / Bernoulli / categorical naive Bayes, LDA, QDA, Fisher discriminant, KDE classifier |
//! | [`neighbors`] | `neighbors` | k-nearest and radius neighbours (classifier, regressor), nearest centroid; always core's neighbour search (k-d tree, ball tree, brute force) |
//! | [`svm`] | `svm` | `Svc`, `NuSvc`, `Svr`, `NuSvr`, `OneClassSvm`, `KernelRidge`, the hard-margin and primal SVMs |
//! | [`tree`] | `tree` | decision trees, random forests, extra trees, AdaBoost |
//! | [`neural`] | `neural` | `MLPClassifier`, `MLPRegressor`, dense networks, autoencoders |
//! | [`cluster`] | `cluster` | k-means (and mini-batch, bisecting), k-medoids, k-modes, agglomerative, DBSCAN, Gaussian mixtures, fuzzy c-means, spectral |
//! | [`decomposition`] | `decomposition` | PCA (and incremental, kernel), truncated SVD, MDS, spectral embedding, NMF, FastICA, t-SNE |
//! | [`datasets`] | `datasets` | iris, wine, breast cancer, digits, diabetes; CSV loading; generators |
//!
//! `full` (default) enables every family. The BLAS/LAPACK backend is chosen by one feature,
//! passed through to `ndlearn-core`: `openblas-system` (default; `apt-get install
//! libopenblas-dev`), `openblas-static`, `netlib-system` or `intel-mkl-static`. `serde`
//! (default) adds serialisation of hyperparameters and fitted models and the estimator
//! registry; `plot` (default) adds SVG plots.
//!
//! ## Threads and determinism
//!
//! Training runs on the caller's rayon pool (set its size with `RAYON_NUM_THREADS` or a
//! `rayon::ThreadPool`); the same seed gives the bitwise same model for any number of threads.

#![cfg_attr(docsrs, feature(doc_cfg))]

pub use ndlearn_core::*;

/// Linear models (`ndlearn-linear`).
#[cfg(feature = "linear")]
pub use ndlearn_linear as linear;

/// Naive Bayes and discriminant analysis (`ndlearn-bayes`).
#[cfg(feature = "bayes")]
pub use ndlearn_bayes as bayes;

/// Nearest neighbours: core's search structures (k-d tree, ball tree, brute force, graphs) and,
/// with the `neighbors` feature, the estimators of `ndlearn-neighbors`.
pub mod neighbors {
    pub use ndlearn_core::neighbors::*;
    #[cfg(feature = "neighbors")]
    pub use ndlearn_neighbors::*;
}

/// Support vector machines and kernel ridge regression (`ndlearn-svm`).
#[cfg(feature = "svm")]
pub use ndlearn_svm as svm;

/// Decision trees and ensembles (`ndlearn-tree`).
#[cfg(feature = "tree")]
pub use ndlearn_tree as tree;

/// Neural networks (`ndlearn-neural`).
#[cfg(feature = "neural")]
pub use ndlearn_neural as neural;

/// Clustering (`ndlearn-cluster`).
#[cfg(feature = "cluster")]
pub use ndlearn_cluster as cluster;

/// Dimensionality reduction and matrix factorisations (`ndlearn-decomposition`).
#[cfg(feature = "decomposition")]
pub use ndlearn_decomposition as decomposition;

/// Embedded data sets, CSV loading and generators (`ndlearn-datasets`).
#[cfg(feature = "datasets")]
pub use ndlearn_datasets as datasets;

/// The traits, the error type and the estimators most programs use:
/// `use ndlearn::prelude::*;`.
pub mod prelude {
    #[cfg(feature = "model_selection")]
    pub use ndlearn_core::model_selection::{KFold, Scorer, StratifiedKFold, cross_val_score};
    pub use ndlearn_core::ndarray::{Array1, Array2, ArrayView1, ArrayView2, Axis, array, s};
    #[cfg(feature = "model_selection")]
    pub use ndlearn_core::pipeline::Pipeline;
    pub use ndlearn_core::{
        DecisionFunction, Error, Estimator, FeatureImportances, Fit, FitMultiOutput,
        FitUnsupervised, FitWeighted, Float, InverseTransform, NFeaturesIn, OutlierDetector,
        PartialFit, Predict, PredictMultiOutput, PredictProba, Result, Transform,
    };

    #[cfg(feature = "linear")]
    pub use ndlearn_linear::{
        ElasticNet, Lasso, LinearRegression, LogisticRegression, Ridge, SGDClassifier, SGDRegressor,
    };

    #[cfg(feature = "bayes")]
    pub use ndlearn_bayes::{GaussianNB, LinearDiscriminantAnalysis, MultinomialNB};

    #[cfg(feature = "neighbors")]
    pub use ndlearn_neighbors::{KNeighborsClassifier, KNeighborsRegressor};

    #[cfg(feature = "svm")]
    pub use ndlearn_svm::{KernelRidge, Svc, Svr};

    #[cfg(feature = "tree")]
    pub use ndlearn_tree::{
        DecisionTreeClassifier, DecisionTreeRegressor, HistGradientBoostingClassifier,
        HistGradientBoostingRegressor, RandomForestClassifier, RandomForestRegressor,
    };

    #[cfg(feature = "neural")]
    pub use ndlearn_neural::{MLPClassifier, MLPRegressor};

    #[cfg(feature = "cluster")]
    pub use ndlearn_cluster::{Dbscan, GaussianMixture, KMeans};

    #[cfg(feature = "decomposition")]
    pub use ndlearn_decomposition::{Pca, Tsne};
}

/// The workspace README's examples, compiled and run as doc tests.
#[doc = include_str!("../../../README.md")]
#[cfg(all(doctest, feature = "full"))]
pub struct ReadmeDoctests;
