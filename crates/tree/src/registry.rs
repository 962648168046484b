//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! Names are the snake_case of the scikit-learn classes; hyperparameters are scikit-learn's
//! (`decision_tree_classifier max_depth=3 criterion=entropy`, `max_features=sqrt`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_tree::registry().iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"decision_tree_classifier") && names.contains(&"decision_tree_regressor"));
//! ```

use ndlearn_core::registry::Entry;

use crate::{
    AdaBoostClassifier, AdaBoostRegressor, BaggingClassifier, BaggingRegressor,
    DecisionTreeClassifier, DecisionTreeRegressor, ExtraTreesClassifier, ExtraTreesRegressor,
    GradientBoostingClassifier, GradientBoostingRegressor, HistGradientBoostingClassifier,
    HistGradientBoostingRegressor, IsolationForest, RandomForestClassifier, RandomForestRegressor,
};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::probabilistic_classifier::<DecisionTreeClassifier>(
            "decision_tree_classifier",
            "CART classification tree (gini, entropy, misclassification, gain ratio; exact sorted sweep; best-first with max_leaf_nodes; ccp pruning)",
        )
        .sklearn("DecisionTreeClassifier")
        .weighted()
        .importances()
        .into(),
        Entry::regressor::<DecisionTreeRegressor>(
            "decision_tree_regressor",
            "CART regression tree (squared error, Friedman MSE, absolute error, Poisson; exact sorted sweep; ccp pruning)",
        )
        .sklearn("DecisionTreeRegressor")
        .weighted()
        .importances()
        .into(),
        // Bootstrap samples are drawn by row index, so integer weights are not repeated rows:
        // declared stochastic.
        Entry::probabilistic_classifier::<RandomForestClassifier>(
            "random_forest_classifier",
            "random forest: bootstrap + sqrt(d) features per split, trees in parallel, OOB accuracy",
        )
        .sklearn("RandomForestClassifier")
        .weighted()
        .importances()
        .stochastic()
        .into(),
        Entry::regressor::<RandomForestRegressor>(
            "random_forest_regressor",
            "random forest regressor: bootstrap samples, trees in parallel, OOB R²",
        )
        .sklearn("RandomForestRegressor")
        .weighted()
        .importances()
        .stochastic()
        .into(),
        Entry::probabilistic_classifier::<ExtraTreesClassifier>(
            "extra_trees_classifier",
            "extremely randomised trees: random thresholds, sqrt(d) features per split",
        )
        .sklearn("ExtraTreesClassifier")
        .weighted()
        .importances()
        .stochastic()
        .into(),
        Entry::regressor::<ExtraTreesRegressor>(
            "extra_trees_regressor",
            "extremely randomised trees for regression: random thresholds",
        )
        .sklearn("ExtraTreesRegressor")
        .weighted()
        .importances()
        .stochastic()
        .into(),
        Entry::probabilistic_classifier::<AdaBoostClassifier>(
            "ada_boost_classifier",
            "AdaBoost (SAMME or the canonical alpha) over decision stumps",
        )
        .sklearn("AdaBoostClassifier")
        .weighted()
        .importances()
        .into(),
        Entry::regressor::<AdaBoostRegressor>(
            "ada_boost_regressor",
            "AdaBoost.R2 (linear, square or exponential loss) over depth-3 regression trees by weighted resampling; weighted-median prediction",
        )
        .sklearn("AdaBoostRegressor")
        .weighted()
        .importances()
        .stochastic()
        .into(),
        // Rows are drawn by index, so integer weights are not repeated rows: stochastic.
        Entry::probabilistic_classifier::<BaggingClassifier<DecisionTreeClassifier>>(
            "bagging_classifier",
            "bagging of decision trees (library API: any classifier): bootstrap rows and/or feature subsets, majority vote, OOB accuracy and permutation importance",
        )
        .sklearn("BaggingClassifier")
        .weighted()
        .stochastic()
        .into(),
        Entry::regressor::<BaggingRegressor<DecisionTreeRegressor>>(
            "bagging_regressor",
            "bagging of regression trees (library API: any regressor): bootstrap rows and/or feature subsets, mean prediction, OOB R² and permutation importance",
        )
        .sklearn("BaggingRegressor")
        .weighted()
        .stochastic()
        .into(),
        Entry::outlier_detector::<IsolationForest>(
            "isolation_forest",
            "isolation forest: random axis-parallel splits on subsamples, score 2^(-E[h]/c(psi)), offset -0.5 or the contamination quantile",
        )
        .sklearn("IsolationForest")
        .stochastic()
        .into(),
        Entry::probabilistic_classifier::<GradientBoostingClassifier>(
            "gradient_boosting_classifier",
            "gradient boosting over regression trees: log-loss (one tree per class and stage) or exponential loss, Newton leaf steps, subsample, early stopping",
        )
        .sklearn("GradientBoostingClassifier")
        .weighted()
        .importances()
        .decision()
        .heavy()
        .into(),
        Entry::regressor::<GradientBoostingRegressor>(
            "gradient_boosting_regressor",
            "gradient boosting over regression trees: squared, absolute, Huber and quantile losses with line search per leaf, subsample, early stopping",
        )
        .sklearn("GradientBoostingRegressor")
        .weighted()
        .importances()
        .heavy()
        .into(),
        // min_samples_leaf counts rows, so weight 2 is not a repeated row.
        Entry::probabilistic_classifier::<HistGradientBoostingClassifier>(
            "hist_gradient_boosting_classifier",
            "histogram gradient boosting (LightGBM's algorithm): 255 quantile bins, leaf-wise trees on gradient/hessian histograms with subtraction, learned missing-value directions, log-loss, early stopping",
        )
        .sklearn("HistGradientBoostingClassifier")
        .weighted()
        .weights_not_repetition()
        .importances()
        .decision()
        .missing_values()
        .into(),
        Entry::regressor::<HistGradientBoostingRegressor>(
            "hist_gradient_boosting_regressor",
            "histogram gradient boosting: 255 quantile bins, leaf-wise trees on gradient/hessian histograms, squared/absolute/quantile/Poisson/gamma losses, missing values, early stopping",
        )
        .sklearn("HistGradientBoostingRegressor")
        .weighted()
        .weights_not_repetition()
        .importances()
        .missing_values()
        .into(),
    ]
}
