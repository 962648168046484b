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
        // extreme but finite values: sums and ranges overflow
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
