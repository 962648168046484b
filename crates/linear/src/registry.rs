//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! Names are the snake_case of the scikit-learn classes; hyperparameters are the Rust field
//! names with their defaults (`ridge alpha=0.5 solver=svd`, `lasso alpha=0.1 precompute=never`).
//!
//! ```
//! let entries = ndlearn_linear::registry();
//! let names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"ridge") && names.contains(&"logistic_regression"));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndlearn_core::registry::Entry;

use crate::*;

/// Every estimator of ndlearn-linear, once.
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::regressor::<LinearRegression>(
            "linear_regression",
            "ordinary least squares (Cholesky on XᵀX with SVD fallback, QR, SVD, gradient descent)",
        )
        .sklearn("LinearRegression")
        .importances()
        .multi_output()
        .into(),
        Entry::regressor::<Ridge>(
            "ridge",
            "L2-penalised least squares (Cholesky primal/dual, SVD shrinkage, SGD)",
        )
        .sklearn("Ridge")
        .importances()
        .multi_output()
        .into(),
        Entry::regressor::<RidgeCV>(
            "ridge_cv",
            "ridge with alpha chosen by efficient leave-one-out",
        )
        .sklearn("RidgeCV")
        .importances()
        .multi_output()
        .into(),
        Entry::regressor::<Lasso>(
            "lasso",
            "L1-penalised least squares by coordinate descent (ISTA/FISTA/subgradient for teaching)",
        )
        .sklearn("Lasso")
        .importances()
        .multi_output()
        .into(),
        Entry::regressor::<ElasticNet>(
            "elastic_net",
            "L1 + L2-penalised least squares by coordinate descent",
        )
        .sklearn("ElasticNet")
        .importances()
        .multi_output()
        .into(),
        Entry::regressor::<LassoCV>("lasso_cv", "lasso with alpha chosen by K-fold CV")
        .sklearn("LassoCV")
        .importances()
        .into(),
        Entry::regressor::<ElasticNetCV>(
            "elastic_net_cv",
            "elastic net with (l1_ratio, alpha) chosen by K-fold CV",
        )
        .sklearn("ElasticNetCV")
        .importances()
                .param_alias("l1_ratios", "l1_ratio")
        .into(),
        Entry::regressor::<BayesianRidge>(
            "bayesian_ridge",
            "Bayesian ridge: noise and weight precisions by evidence maximisation (SVD)",
        )
        .sklearn("BayesianRidge")
        .importances()
        .into(),
        Entry::regressor::<ArdRegression>(
            "ard_regression",
            "automatic relevance determination (per-weight precisions by evidence, pruning)",
        )
        .sklearn("ARDRegression")
        .importances()
        .into(),
        Entry::regressor::<BayesianLinearRegression>(
            "bayesian_linear_regression",
            "Gaussian posterior of the weights for a Gaussian prior and known noise precision",
        )
        .importances()
        .into(),
        Entry::regressor::<PolynomialRegression>(
            "polynomial_regression",
            "polynomial basis expansion + least squares or ridge (SVD)",
        )
        .into(),
        Entry::probabilistic_classifier::<LogisticRegression>(
            "logistic_regression",
            "binary / multinomial logistic regression, L2 (L-BFGS, Newton, IRLS), L1 / elastic net (proximal Newton)",
        )
        .sklearn("LogisticRegression")
        .decision()
        .weighted()
        .importances()
        .into(),
        Entry::classifier::<Perceptron>(
            "perceptron",
            "perceptron: scikit-learn's SGD rule, the course notes' PLA, θ/η and subgradient variants (one-vs-rest)",
        )
        .sklearn("Perceptron")
        .decision()
        .importances()
        .into(),
        Entry::classifier::<LeastSquaresClassifier>(
            "least_squares_classifier",
            "least-squares linear discriminant (one-hot or ±1 targets, optional ridge alpha, argmax)",
        )
        .sklearn("RidgeClassifier")
        .decision()
        .importances()
        .into(),
        Entry::regressor::<HuberRegressor>(
            "huber_regressor",
            "Huber-loss regression with joint scale estimate, outlier mask (L-BFGS)",
        )
        .sklearn("HuberRegressor")
        .importances()
        .into(),
        Entry::regressor::<QuantileRegressor>(
            "quantile_regressor",
            "pinball-loss quantile regression with L1 penalty (simplex LP)",
        )
        .sklearn("QuantileRegressor")
        .importances()
        .into(),
        Entry::regressor::<LadRegressor>(
            "lad_regressor",
            "least absolute deviations / Laplace MLE (simplex LP or IRLS)",
        )
        .importances()
        .into(),
        Entry::regressor::<TotalLeastSquares>(
            "total_least_squares",
            "orthogonal (errors-in-variables) regression from the SVD of [X y]",
        )
        .importances()
        .multi_output()
        .into(),
        // The reductions are generic over the base estimator; the registry holds them with
        // logistic regression as the base (`estimator={"c":0.5}` sets its hyperparameters).
        Entry::probabilistic_classifier::<OneVsRestClassifier<LogisticRegression>>(
            "one_vs_rest",
            "one-vs-rest reduction over binary logistic regression",
        )
        .sklearn("OneVsRestClassifier")
        .decision()
        .into(),
        Entry::classifier::<OneVsOneClassifier<LogisticRegression>>(
            "one_vs_one",
            "one-vs-one reduction (votes, confidence tie-break) over binary logistic regression",
        )
        .sklearn("OneVsOneClassifier")
        .decision()
        .into(),
        Entry::classifier::<RandomBipartitionClassifier<LogisticRegression>>(
            "random_bipartition",
            "random label bipartitions (output code) over binary logistic regression",
        )
        .sklearn("OutputCodeClassifier")
        .decision()
        .into(),
        Entry::classifier::<SGDClassifier>(
            "sgd_classifier",
            "linear SVM / logistic / modified Huber … by per-sample SGD, one-vs-all",
        )
        .sklearn("SGDClassifier")
        .stochastic()
        .decision()
        .weighted()
        .partial_fit(false)
        .importances()
        .into(),
        Entry::regressor::<SGDRegressor>(
            "sgd_regressor",
            "least squares / Huber / epsilon-insensitive by per-sample SGD",
        )
        .sklearn("SGDRegressor")
        .stochastic()
        .weighted()
        .partial_fit(false)
        .importances()
        .into(),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::registry::{Data, Kind};

    #[test]
    fn every_entry_builds_fits_and_reloads() {
        let x = array![
            [1.0, 0.5],
            [2.0, -1.0],
            [3.0, 2.0],
            [4.0, 0.0],
            [5.0, 1.5],
            [6.0, -0.5],
            [7.0, 1.0],
            [8.0, 2.5],
            [9.0, 0.3],
            [10.0, -1.5]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5, 8.7, 10.4];
        let labels = array![0usize, 0, 1, 0, 1, 0, 1, 1, 1, 0];
        let entries = registry();
        let mut names: Vec<&str> = entries.iter().map(|e| e.name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), entries.len(), "names are unique");
        for e in &entries {
            let est = e.build(&[]).expect("defaults build");
            let target = match e.kind() {
                Kind::Classifier => ndlearn_core::registry::Target::Labels(labels.clone()),
                _ => ndlearn_core::registry::Target::Values(y.clone()),
            };
            let model = est.fit(&Data::F64(x.clone()), &target).expect("fit");
            let json = model.to_json().expect("json");
            let again = e
                .load(ndlearn_core::registry::Precision::F64, json)
                .expect("reload");
            let a = model.predict(&Data::F64(x.clone())).expect("predict");
            let b = again.predict(&Data::F64(x.clone())).expect("predict");
            assert_eq!(a, b, "{}", e.name());
        }
        let ridge = entries.iter().find(|e| e.name() == "ridge").expect("ridge");
        assert!(
            ridge
                .build(&[
                    ("solver".into(), "svd".into()),
                    ("alpha".into(), "0.5".into())
                ])
                .is_ok()
        );
        assert!(ridge.build(&[("solver".into(), "nope".into())]).is_err());
        let ovr = entries
            .iter()
            .find(|e| e.name() == "one_vs_rest")
            .expect("one_vs_rest");
        let est = ovr
            .build(&[
                ("estimator".into(), r#"{"c":0.5,"solver":"newton"}"#.into()),
                ("parallel".into(), "false".into()),
            ])
            .expect("nested estimator hyperparameters");
        let model = est
            .fit(
                &Data::F64(x.clone()),
                &ndlearn_core::registry::Target::Labels(labels.clone()),
            )
            .expect("fit");
        let json = model.to_json().expect("json");
        // Fields left out of the nested object keep their defaults; `c` is read as `C`.
        assert_eq!(json["params"]["estimator"]["C"], 0.5);
        assert_eq!(json["params"]["estimator"]["max_iter"], 100);
        assert_eq!(json["params"]["estimator"]["solver"], "newton");
        let rb = entries
            .iter()
            .find(|e| e.name() == "random_bipartition")
            .expect("random_bipartition");
        assert!(
            rb.build(&[
                ("n_bipartitions".into(), "5".into()),
                ("decoding".into(), "hamming".into())
            ])
            .is_ok()
        );
        assert!(rb.build(&[("decoding".into(), "nearest".into())]).is_err());
    }
}
