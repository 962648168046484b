//! # ndlearn-tree
//!
//! Decision trees over [`ndlearn_core`]: CART classification and regression trees with
//! scikit-learn's criteria, stopping rules, feature sampling and pruning (minimal
//! cost-complexity, χ², error-based, MDL), Hunt's multi-way trees, built on one flat tree
//! representation ([`Tree`]), and the ensembles over them (bagging, forests, isolation
//! forests, AdaBoost, gradient boosting, voting and stacking). On float32-representable data
//! without equal-gain ties the fitted trees equal scikit-learn's node for node
//! (`scripts/golden/tree.py`).
//!
//! | estimator / type | what | scikit-learn |
//! |---|---|---|
//! | [`DecisionTreeClassifier`] | CART classification tree: Gini, entropy (information gain), misclassification, gain ratio; class and sample weights; `predict_proba`, `apply`, `decision_path`, importances | `DecisionTreeClassifier` |
//! | [`DecisionTreeRegressor`] | CART regression tree: squared error, Friedman MSE, absolute error (median leaves), Poisson; multi-output | `DecisionTreeRegressor` |
//! | [`RandomForestClassifier`], [`RandomForestRegressor`] | bootstrap + `max_features` per split, trees in parallel, OOB score, `balanced_subsample` | `RandomForestClassifier`, `RandomForestRegressor` |
//! | [`ExtraTreesClassifier`], [`ExtraTreesRegressor`] | random thresholds, whole sample by default | `ExtraTreesClassifier`, `ExtraTreesRegressor` |
//! | [`AdaBoostClassifier`] | SAMME (scikit-learn's) or the canonical `α = ½ ln((1 − E)/E)` over weighted trees (stumps by default) or any weighted classifier ([`AnyBase`]), `decision_function`, `predict_proba` | `AdaBoostClassifier` |
//! | [`GradientBoostingRegressor`], [`GradientBoostingClassifier`] | exact gradient boosting: squared, absolute, Huber, quantile, log-loss (binomial, multinomial) and exponential losses, scikit-learn's line search per leaf, `subsample` with out-of-bag scores, early stopping, staged predictions | `GradientBoostingRegressor`, `GradientBoostingClassifier` |
//! | [`HistGradientBoostingRegressor`], [`HistGradientBoostingClassifier`] | histogram gradient boosting (LightGBM's algorithm) on the shared [`BinMapper`]: leaf-wise Newton trees on gradient/hessian histograms with subtraction, learned missing-value directions, monotonic and interaction constraints, squared / absolute / quantile / Poisson / gamma / log-loss / multinomial losses, early stopping, warm start, exact TreeSHAP contributions; trees equal scikit-learn's node for node | `HistGradientBoostingRegressor`, `HistGradientBoostingClassifier` |
//! | [`BaggingClassifier`], [`BaggingRegressor`] | bagging over any estimator: bootstrap rows and/or feature subsets (random subspaces, random patches), majority vote / mean, OOB score and the course notes' OOB permutation importance | `BaggingClassifier`, `BaggingRegressor` |
//! | [`AdaBoostRegressor`] | AdaBoost.R2 by weighted resampling (scikit-learn's streams) over trees or any regressor ([`AnyBase`]), weighted-median prediction | `AdaBoostRegressor` |
//! | [`IsolationForest`] | isolation trees on subsamples, anomaly score `2^(−E[h]/c(ψ))`, contamination offset | `IsolationForest` |
//! | [`VotingClassifier`], [`VotingRegressor`], [`StackingClassifier`], [`StackingRegressor`] | ensembles of different estimators ([`voting`]) | same names |
//! | [`HuntTree`] | Hunt's algorithm: multi-way splits on categorical features, default-class leaves | — (ID3 / C4.5) |
//! | [`pruning`] | χ² stop, C4.5 error-based pruning (subtree replacement and raising), MDL pruning, K-fold choice of `ccp_alpha` | — |
//! | [`BinMapper`] | quantile binning to `u8` codes with a missing-value bin | `_BinMapper` |
//! | [`export`] | `export_text` (scikit-learn's text), Graphviz dot, SVG pictures | `export_text`, `export_graphviz` |
//! | [`impurity`] | Gini, entropy, misclassification error, gain, information gain, GINI_split, split info, gain ratio on class counts | — |
//! | [`Tree`] | flat node arrays (as `tree_`), prediction, `apply`, `decision_path`, impurity importances, [`Tree::cost_complexity_pruning_path`], [`Tree::prune`] | `sklearn.tree._tree.Tree` |
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::DecisionTreeClassifier;
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! let tree = DecisionTreeClassifier::default().fit(data.x(), y)?;
//! // A fully grown tree separates the training data.
//! assert_eq!(tree.predict(data.x())?, y);
//! // Pruning with the path's alphas shrinks it.
//! let path = DecisionTreeClassifier::default().cost_complexity_pruning_path(data.x(), y, None)?;
//! let alpha = path.ccp_alphas[path.ccp_alphas.len() / 2];
//! assert!(tree.pruned(alpha).get_n_leaves() < tree.get_n_leaves());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ## Conventions
//!
//! - **Split search**: exact sorted sweep per node and feature (rows sorted by the feature,
//!   class counts or target sums updated in one pass; when every split searches all features,
//!   each feature is sorted once and kept sorted within every node by stable partitions, so a
//!   node's sorted rows cost a copy, not a sort), thresholds at the midpoint `a/2 + b/2`
//!   of consecutive distinct values as scikit-learn. Values closer than `1e-7` count as equal
//!   and a feature whose node range is within `1e-7` as constant (scikit-learn's
//!   `FEATURE_THRESHOLD`; for float32 values `a + 1e-7` is rounded to float32 as in
//!   scikit-learn), so features should not be scaled to ranges far below that.
//! - **Randomness**: each node visits the features in a random order from `random_state`
//!   (`seed`, a `u64`, default 0; scikit-learn's default is a fresh seed) and stops after
//!   `max_features` non-constant ones; with all features searched the seed only breaks exact
//!   ties. The streams reproduce scikit-learn's bit for bit for seeds below `2³²`, so the same
//!   seed breaks ties the same way and samples the same features.
//! - **Weights**: `fit_weighted` multiplies each row's contribution; an integer weight equals
//!   repeated rows. Rows of weight 0 do not reach the tree (they do not count towards
//!   `min_samples_*`), as in scikit-learn. Class weights multiply the sample weights.
//! - **Precision**: `f32` and `f64` features; thresholds are stored in the feature type, all
//!   statistics (impurities, values, weights) in `f64`.
//!
//! ## Threads and determinism
//!
//! Forests draw every tree's seed before growing the trees in parallel on the caller's rayon
//! pool; each tree uses only its own streams and sums over trees run in tree order, so models
//! and predictions are bitwise identical for any thread count. The streams are scikit-learn's
//! (NumPy's MT19937 seeding, the splitter's xorshift), so a forest with `random_state = s` is
//! scikit-learn's forest with the same seed on float32-representable data.
//!
//! ## Features
//!
//! `serde` (default): `Serialize`/`Deserialize` for hyperparameters, trees and fitted models,
//! and [`registry()`].

pub mod adaboost;
pub mod adaboost_regressor;
pub mod bagging;
pub mod binning;
pub mod boost_base;
mod builder;
pub mod classifier;
mod common;
mod criterion;
pub mod export;
pub mod forest;
pub mod gradient_boosting;
pub mod hist_gradient_boosting;
mod hist_grower;
pub mod hunt;
pub mod impurity;
pub mod isolation;
pub mod params;
pub mod pruning;
#[cfg(feature = "serde")]
pub mod registry;
pub mod regressor;
mod sk_random;
pub mod tree;
mod treeshap;
pub mod voting;

pub use adaboost::{AdaBoostAlgorithm, AdaBoostClassifier, FittedAdaBoostClassifier};
pub use adaboost_regressor::{AdaBoostRegressionLoss, AdaBoostRegressor, FittedAdaBoostRegressor};
pub use bagging::{
    BaggingClassifier, BaggingRegressor, FittedBaggingClassifier, FittedBaggingRegressor,
};
pub use binning::{BinMapper, FittedBinMapper};
pub use boost_base::{AnyBase, BoostClassifierBase, BoostRegressorBase, DefaultBase, TreeColumns};
pub use classifier::{DecisionTreeClassifier, FittedDecisionTreeClassifier};
pub use forest::{
    ExtraTreesClassifier, ExtraTreesRegressor, FittedExtraTreesClassifier,
    FittedExtraTreesRegressor, FittedRandomForestClassifier, FittedRandomForestRegressor,
    RandomForestClassifier, RandomForestRegressor,
};
pub use gradient_boosting::{
    FittedGradientBoostingClassifier, FittedGradientBoostingRegressor,
    GradientBoostingClassificationLoss, GradientBoostingClassifier, GradientBoostingCriterion,
    GradientBoostingInit, GradientBoostingRegressionLoss, GradientBoostingRegressor,
    GradientBoostingWithInit,
};
pub use hist_gradient_boosting::{
    Bitset, EarlyStoppingMode, FittedHistGradientBoostingClassifier,
    FittedHistGradientBoostingRegressor, HistGradientBoostingClassifier,
    HistGradientBoostingRegressionLoss, HistGradientBoostingRegressor, HistNode, HistTree,
};
pub use hunt::{FittedHuntTree, HuntNode, HuntTree};
pub use isolation::{Contamination, FittedIsolationForest, IsolationForest};
pub use params::{ClassCriterion, MaxFeatures, RegCriterion, SampleCount, SplitterKind};
pub use pruning::CcpCv;
#[cfg(feature = "serde")]
pub use registry::registry;
pub use regressor::{DecisionTreeRegressor, FittedDecisionTreeRegressor};
pub use tree::{CcpPath, DecisionPath, Tree};
pub use voting::{
    ClassifierMember, RegressorMember, StackingClassifier, StackingRegressor, Voting,
    VotingClassifier, VotingRegressor,
};
