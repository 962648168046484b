//! Gradient boosting from a user `init` estimator against scikit-learn 1.9.1's
//! `GradientBoosting*(init=estimator)` (`datasets/golden/tree/gradient_boosting_init.json`,
//! written by `scripts/golden/gradient_boosting_init.py`): a linear regression, a depth-2 tree
//! (weighted too) and Gaussian naive Bayes as init models, with weights, subsampling and early stopping (the
//! init model then sees only the training part of the split).
//!
//! The starting scores come from another crate's fit (ndlearn-linear's least squares,
//! ndlearn-bayes's Gaussian NB), computed on the same float64 numbers as scikit-learn's (its
//! script wraps both to float64): a well-conditioned least-squares solution differs by
//! `cond(X) · ε` relative (here ~1e-15), the naive-Bayes probabilities by a few ε relative; the
//! binary logit `ln(p / (1 − p))` multiplies that by at most `1 / (1 − p)`, kept below 1e6 by
//! overlapping generated classes (an overconfident init, `1 − p` in the last bits of a double,
//! starts from scores that rounding alone decides, in either library). Both far below the
//! `1e-8` of the constant-start golden test, which this one keeps; the trees then see residuals
//! equal to that level, so every tree has scikit-learn's node count.
#![cfg(feature = "serde")]

mod gb_support;

use gb_support::{f32_rounded, node_counts, params, picked};

use ndarray::{Array1, Array2, Axis};
use ndlearn_bayes::GaussianNB;
use ndlearn_core::{DecisionFunction, Predict, PredictProba};
use ndlearn_linear::LinearRegression;
use ndlearn_testkit::{Case, Golden, assert_close};
use ndlearn_tree::{DecisionTreeRegressor, GradientBoostingClassifier, GradientBoostingRegressor};

const TOL: f64 = 1e-8;

/// The checks both kinds share: stages, node counts, training and out-of-bag losses.
fn check_records(
    name: &str,
    case: &Case,
    counts: Vec<usize>,
    n_est: usize,
    train_score: &[f64],
    oob: Option<&[f64]>,
) {
    assert_eq!(n_est, case.usize("n_estimators"), "{name}: stages");
    assert_eq!(
        counts,
        case.usize_vector("node_counts"),
        "{name}: node counts"
    );
    assert_close(
        &Array1::from(train_score.to_vec()),
        &case.vector("train_score"),
        TOL,
        TOL,
        &format!("{name}: train_score"),
    );
    match oob {
        Some(o) => assert_close(
            &Array1::from(o.to_vec()),
            &case.vector("oob_scores"),
            TOL,
            TOL,
            &format!("{name}: oob_scores"),
        ),
        None => assert!(!case.has("oob_scores"), "{name}: oob expected"),
    }
}

#[test]
fn regressors_from_an_init_estimator_equal_scikit_learn() {
    let g = Golden::load("tree", "gradient_boosting_init");
    let mut n = 0;
    for case in g
        .cases()
        .into_iter()
        .filter(|c| c.string("kind") == "regressor")
    {
        let name = case.name();
        let x = case.matrix("x");
        let y = case.vector("y");
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let est: GradientBoostingRegressor = params(case);
        // each init kind gives its own fitted type: check the common parts through one closure
        let check = |init_raw: Array1<f64>,
                     boosted: &ndlearn_tree::FittedGradientBoostingRegressor<f64>,
                     pred: Array1<f64>,
                     staged: Vec<Array1<f64>>| {
            assert!(boosted.init_scores().iter().all(|&v| v == 0.0), "{name}");
            assert_close(
                &init_raw,
                &case.matrix("init_raw").column(0).to_owned(),
                TOL,
                TOL,
                &format!("{name}: init raw"),
            );
            check_records(
                name,
                case,
                node_counts(boosted.trees()),
                boosted.n_estimators(),
                boosted.train_score(),
                boosted.oob_scores(),
            );
            assert_close(
                &pred,
                &case.vector("pred"),
                TOL,
                TOL,
                &format!("{name}: predict"),
            );
            let staged: Vec<Array2<f64>> =
                staged.into_iter().map(|s| s.insert_axis(Axis(1))).collect();
            assert_eq!(staged.len(), boosted.n_estimators(), "{name}");
            assert_close(
                &picked(&staged, &case.usize_vector("staged_stages")),
                &case.matrix("staged"),
                TOL,
                TOL,
                &format!("{name}: staged"),
            );
        };
        match case.string("init_estimator") {
            "linear_regression" => {
                assert!(w.is_none(), "{name}");
                let m = est
                    .fit_with_init(&LinearRegression::default(), &x, &y)
                    .expect("fit");
                let init_raw = m.init_model().predict(&x).expect("init");
                check(
                    init_raw,
                    m.boosted(),
                    m.predict(&x).expect("predict"),
                    m.staged_predict(&x).expect("staged"),
                );
            }
            "tree_depth2" => {
                let init = DecisionTreeRegressor::default().max_depth(Some(2));
                let m = est
                    .fit_weighted_with_init(&init, &x, &y, w.as_deref())
                    .expect("fit");
                let init_raw = m.init_model().predict(&x).expect("init");
                check(
                    init_raw,
                    m.boosted(),
                    m.predict(&x).expect("predict"),
                    m.staged_predict(&x).expect("staged"),
                );
            }
            other => panic!("{name}: unknown init estimator {other}"),
        }
        n += 1;
    }
    assert_eq!(n, 4);
}

#[test]
fn classifiers_from_gaussian_nb_equal_scikit_learn() {
    let g = Golden::load("tree", "gradient_boosting_init");
    let mut n = 0;
    for case in g
        .cases()
        .into_iter()
        .filter(|c| c.string("kind") == "classifier")
    {
        let name = case.name();
        assert_eq!(case.string("init_estimator"), "gaussian_nb", "{name}");
        let (x, y): (Array2<f64>, Array1<usize>) = if case.has("x") {
            let labels = case.vector("y").mapv(|v| v as usize);
            (case.matrix("x"), labels)
        } else {
            let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data set");
            (
                f32_rounded(ds.x()),
                ds.y_classes().expect("labels").to_owned(),
            )
        };
        let y = &y;
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let est: GradientBoostingClassifier = params(case);
        let m = est
            .fit_weighted_with_init(&GaussianNB::default(), &x, y, w.as_deref())
            .expect("fit");
        let b = m.boosted();
        // the starting scores: the stages' sum subtracted from the decision function is F₀
        let dec = m.decision_function(&x).expect("decision");
        let want_dec = case.matrix("decision");
        assert_close(&dec, &want_dec, TOL, TOL, &format!("{name}: decision"));
        let trees_only = b.decision_function(&x).expect("trees");
        assert_close(
            &(&dec - &trees_only),
            &case.matrix("init_raw"),
            TOL,
            TOL,
            &format!("{name}: init raw"),
        );
        check_records(
            name,
            case,
            node_counts(b.trees()),
            b.n_estimators(),
            b.train_score(),
            b.oob_scores(),
        );
        let proba = m.predict_proba(&x).expect("proba");
        assert_close(
            &proba,
            &case.matrix("proba"),
            TOL,
            TOL,
            &format!("{name}: proba"),
        );
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("pred"),
            "{name}"
        );
        let staged = m.staged_predict_proba(&x).expect("staged");
        assert_eq!(staged.len(), b.n_estimators(), "{name}");
        let last = staged.last().expect("a stage");
        assert_close(last, &proba, 1e-15, 1e-15, &format!("{name}: last stage"));
        n += 1;
    }
    assert_eq!(n, 5);
}
