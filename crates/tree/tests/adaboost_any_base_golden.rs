//! AdaBoost over bases that are not trees against scikit-learn 1.9.1
//! (`datasets/golden/tree/adaboost_any_base.json`, written by
//! `scripts/golden/adaboost_any_base.py`): SAMME over Gaussian naive Bayes (binary, three
//! classes, shrunk, weighted) and AdaBoost.R2 over least squares (every loss, weighted, shrunk).
//!
//! Tolerance: each round's error `E_m` is a sum of the weights of misclassified rows (classifier)
//! or of normalised absolute errors (regressor). The members are closed-form fits on float64
//! (naive-Bayes means and variances; a least-squares solve with condition number ~2 on these
//! standard-normal columns), equal to scikit-learn's within a few ε relative, so no generated
//! row lies near enough to a decision boundary for its label to flip, and `E_m`, `α_m` and the
//! reweighted `w` carry only that rounding (compounded over ≤ 15 rounds: ≤ 1e-13 relative). The
//! regressor's bootstrap draws a row by comparing a uniform draw to the cumulative weights; a
//! draw within 1e-13 of a boundary has probability ~1e-11 per case. `1e-9` leaves four orders
//! of magnitude on every compared value.
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2};
use ndlearn_bayes::GaussianNB;
use ndlearn_core::{FitWeighted, Predict, PredictProba};
use ndlearn_linear::LinearRegression;
use ndlearn_testkit::{Case, Golden, assert_close};
use ndlearn_tree::{AdaBoostClassifier, AdaBoostRegressor, AnyBase};

const TOL: f64 = 1e-9;

fn params<T: serde::de::DeserializeOwned>(case: &Case) -> T {
    serde_json::from_value(case.raw("params").clone()).expect("hyperparameters")
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("sample_weight")
        .then(|| case.vector("sample_weight"))
}

fn close(ours: &[f64], case: &Case, field: &str) {
    assert_close(
        &Array1::from(ours.to_vec()),
        &case.vector(field),
        TOL,
        TOL,
        &format!("{}: {field}", case.name()),
    );
}

#[test]
fn samme_over_gaussian_naive_bayes_matches_scikit_learn() {
    let g = Golden::load("tree", "adaboost_any_base");
    let mut checked = 0;
    for case in g.cases() {
        if case.string("kind") != "classifier" {
            continue;
        }
        let est: AdaBoostClassifier<AnyBase<GaussianNB>> = params(case);
        let (x, y) = (case.matrix("x"), case.labels("y"));
        let w = weights(case);
        let m = est.fit_weighted(&x, &y, w.as_deref()).expect("fit");
        assert_eq!(
            m.estimators().len(),
            case.vector("estimator_weights").len(),
            "{}: rounds kept",
            case.name()
        );
        close(m.estimator_weights(), case, "estimator_weights");
        close(m.estimator_errors(), case, "estimator_errors");
        let name = case.name();
        assert_close(
            &m.decision_function(&x).expect("scores"),
            &case.matrix("decision_function"),
            TOL,
            TOL,
            &format!("{name}: decision_function"),
        );
        let p: Array2<f64> = m.predict_proba(&x).expect("proba");
        assert_close(&p, &case.matrix("predict_proba"), TOL, TOL, name);
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("predict"),
            "{name}"
        );
        checked += 1;
    }
    assert_eq!(checked, 4);
}

#[test]
fn adaboost_r2_over_least_squares_matches_scikit_learn() {
    let g = Golden::load("tree", "adaboost_any_base");
    let mut checked = 0;
    for case in g.cases() {
        if case.string("kind") != "regressor" {
            continue;
        }
        let est: AdaBoostRegressor<AnyBase<LinearRegression>> = params(case);
        let (x, y) = (case.matrix("x"), case.vector("y"));
        let w = weights(case);
        let m = est.fit_weighted(&x, &y, w.as_deref()).expect("fit");
        let name = case.name();
        assert_eq!(
            m.estimators().len(),
            case.vector("estimator_weights").len(),
            "{name}: rounds kept"
        );
        close(m.estimator_weights(), case, "estimator_weights");
        close(m.estimator_errors(), case, "estimator_errors");
        assert_close(
            &m.predict(&x).expect("predict"),
            &case.vector("predict"),
            TOL,
            TOL,
            name,
        );
        let staged = m.staged_predict(&x).expect("staged");
        let theirs = case.matrix("staged");
        for (row, &s) in case.usize_vector("stages").iter().enumerate() {
            assert_close(
                &staged[s],
                &theirs.row(row).to_owned(),
                TOL,
                TOL,
                &format!("{name}: stage {s}"),
            );
        }
        checked += 1;
    }
    assert_eq!(checked, 4);
}
