//! Bagging, random subspaces, AdaBoost.R2 and isolation forests against scikit-learn 1.9.1
//! (`datasets/golden/tree/ensembles.json`, written by `scripts/golden/tree_ensembles.py`).
//!
//! - AdaBoost.R2 draws scikit-learn's numbers (tree seeds, weighted bootstraps), so on the
//!   exact cases every tree, weight, error and staged prediction is scikit-learn's. Weights and
//!   errors go through `ln`, `exp` and `powf`, which NumPy and Rust's libm may round one ulp
//!   apart: 1e-12 relative.
//! - The rest draw from ndlearn's own streams: statistical equivalence on repeated 5 × 2-fold
//!   CV with the same folds: the mean score difference within two standard errors of the
//!   difference of the two means (`√(s₁²/10 + s₂²/10)`, floored at one test row's worth of
//!   accuracy / 0.01 of R² or AUC, so that two nearly constant score lists cannot fail on noise).
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::metrics::{accuracy_score, r2_score, roc_auc_score};
use ndlearn_core::{FeatureImportances, Fit, FitUnsupervised, OutlierDetector, Predict};
use ndlearn_testkit::{Case, Golden, assert_close};
use ndlearn_tree::{
    AdaBoostRegressor, BaggingClassifier, BaggingRegressor, DecisionTreeClassifier,
    DecisionTreeRegressor, IsolationForest,
};

fn json<T: serde::de::DeserializeOwned>(case: &Case, field: &str) -> T {
    serde_json::from_str(case.string(field)).expect("hyperparameters")
}

/// `(train, test)` of repeat `r`, fold `f`.
fn split(case: &Case, r: usize, f: usize) -> (Vec<usize>, Vec<usize>) {
    let ids = case.matrix("fold_id");
    let row = ids.row(r);
    let test: Vec<usize> = (0..row.len()).filter(|&i| row[i] as usize == f).collect();
    let train: Vec<usize> = (0..row.len()).filter(|&i| row[i] as usize != f).collect();
    (train, test)
}

fn mean_sd(v: &[f64]) -> (f64, f64) {
    let n = v.len() as f64;
    let m = v.iter().sum::<f64>() / n;
    let s = (v.iter().map(|x| (x - m) * (x - m)).sum::<f64>() / (n - 1.0)).sqrt();
    (m, s)
}

/// Our 10 CV scores for `case`, fitting with seed `1000 r + f` as the reference did.
fn our_scores(case: &Case) -> Vec<f64> {
    let x = case.matrix("x");
    let kind = case.string("estimator");
    let mut scores = Vec::new();
    for r in 0..5 {
        for f in 0..2 {
            let (train, test) = split(case, r, f);
            let seed = (1000 * r + f) as u64;
            let (xtr, xte) = (x.select(Axis(0), &train), x.select(Axis(0), &test));
            let score = match kind {
                "bagging_classifier" => {
                    let y = case.labels("y");
                    let (ytr, yte) = (y.select(Axis(0), &train), y.select(Axis(0), &test));
                    let mut est: BaggingClassifier<DecisionTreeClassifier> = json(case, "params");
                    est.estimator = json(case, "base_params");
                    let m = est.seed(seed).fit(&xtr, &ytr).expect("fit");
                    accuracy_score(&yte, &m.predict(&xte).expect("predict"), None).expect("ok")
                }
                "bagging_regressor" | "ada_boost_regressor" => {
                    let y = case.vector("y");
                    let (ytr, yte) = (y.select(Axis(0), &train), y.select(Axis(0), &test));
                    let p: Array1<f64> = if kind == "bagging_regressor" {
                        let mut est: BaggingRegressor<DecisionTreeRegressor> = json(case, "params");
                        est.estimator = json(case, "base_params");
                        est.seed(seed)
                            .fit(&xtr, &ytr)
                            .expect("fit")
                            .predict(&xte)
                            .expect("ok")
                    } else {
                        let mut est: AdaBoostRegressor = json(case, "params");
                        est.estimator = json(case, "base_params");
                        est.seed(seed)
                            .fit(&xtr, &ytr)
                            .expect("fit")
                            .predict(&xte)
                            .expect("ok")
                    };
                    r2_score(&yte, &p, None).expect("ok")
                }
                "isolation_forest" => {
                    let y = case.labels("y");
                    let yte = y.select(Axis(0), &test);
                    let est: IsolationForest = json(case, "params");
                    let m = FitUnsupervised::<f64>::fit(&est.seed(seed), &xtr).expect("fit");
                    let s: Array1<f64> = m.score_samples(&xte).expect("ok");
                    roc_auc_score(&yte, &s.mapv(|v| -v), None).expect("ok")
                }
                other => panic!("unknown estimator {other}"),
            };
            scores.push(score);
        }
    }
    scores
}

#[test]
fn cross_validated_scores_match_scikit_learn_within_two_standard_errors() {
    let g = Golden::load("tree", "ensembles");
    let mut checked = 0;
    for case in g.cases() {
        if !case.has("scores") {
            continue;
        }
        let theirs = case.vector("scores").to_vec();
        let ours = our_scores(case);
        let (mo, so) = mean_sd(&ours);
        let (mt, st) = mean_sd(&theirs);
        let n_test = case.matrix("x").nrows() as f64 / 2.0;
        let floor = if case.string("metric") == "accuracy" {
            1.0 / n_test
        } else {
            0.01
        };
        let se = ((so * so + st * st) / 10.0).sqrt().max(floor);
        eprintln!(
            "{}: ndlearn {mo:.4} ± {so:.4}, scikit-learn {mt:.4} ± {st:.4}",
            case.name()
        );
        assert!(
            (mo - mt).abs() <= 2.0 * se,
            "{}: ndlearn {mo:.4} ± {so:.4}, scikit-learn {mt:.4} ± {st:.4} (2 SE = {:.4})",
            case.name(),
            2.0 * se
        );
        checked += 1;
    }
    assert_eq!(checked, 10);
}

#[test]
fn ada_boost_regressor_equals_scikit_learn() {
    let g = Golden::load("tree", "ensembles");
    let cases = g.cases_with_prefix("ada_reg_exact");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let x = case.matrix("x");
        let y = case.vector("y");
        let mut est: AdaBoostRegressor = json(case, "params");
        est.estimator = DecisionTreeRegressor::default().max_depth(Some(case.usize("depth")));
        let m = est.fit(&x, &y).expect("fit");
        let counts: Vec<usize> = m.trees().iter().map(|t| t.node_count()).collect();
        assert_eq!(counts, case.usize_vector("node_counts"), "{}", case.name());
        let ctx = |what: &str| format!("{}: {what}", case.name());
        assert_close(
            &Array1::from(m.estimator_weights().to_vec()),
            &case.vector("estimator_weights"),
            1e-12,
            1e-12,
            &ctx("estimator_weights"),
        );
        assert_close(
            &Array1::from(m.estimator_errors().to_vec()),
            &case.vector("estimator_errors"),
            1e-12,
            1e-12,
            &ctx("estimator_errors"),
        );
        assert_close(
            &m.predict(&x).expect("ok"),
            &case.vector("pred"),
            1e-12,
            1e-12,
            &ctx("pred"),
        );
        let staged = m.staged_predict(&x).expect("ok");
        let views: Vec<_> = staged.iter().map(|s| s.view()).collect();
        let staged: Array2<f64> = ndarray::stack(Axis(0), &views).expect("ok");
        assert_close(
            &staged,
            &case.matrix("staged"),
            1e-12,
            1e-12,
            &ctx("staged"),
        );
        assert_close(
            &m.feature_importances(),
            &case.vector("feature_importances"),
            1e-12,
            1e-12,
            &ctx("feature_importances"),
        );
    }
}
