//! The forests and AdaBoost against scikit-learn 1.9.1 with the same `random_state`
//! (`datasets/golden/tree/forest.json`, written by `scripts/golden/tree_forest.py`): ndlearn
//! draws the same per-tree seeds and bootstrap samples and grows the same trees, so the node
//! count of every tree is equal and the probabilities, predictions, importances and out-of-bag
//! results agree to `1e-12` (sums over trees in the same order; only the last bits of the
//! trees' own sums may differ).
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::{FeatureImportances, FitWeighted, Predict, PredictProba};
use ndlearn_testkit::{Case, Golden, assert_close};
use ndlearn_tree::{
    AdaBoostClassifier, DecisionTreeClassifier, ExtraTreesClassifier, ExtraTreesRegressor,
    RandomForestClassifier, RandomForestRegressor, Tree,
};

const TOL: f64 = 1e-12;

fn f32_rounded(x: &ArrayRef2<f64>) -> Array2<f64> {
    x.mapv(|v| v as f32 as f64)
}

fn params<T: serde::de::DeserializeOwned>(case: &Case) -> T {
    serde_json::from_str(case.string("params")).expect("hyperparameters")
}

fn node_counts(trees: &[Tree<f64>]) -> Vec<usize> {
    trees.iter().map(Tree::node_count).collect()
}

#[test]
fn forest_classifiers_equal_scikit_learn() {
    let g = Golden::load("tree", "forest");
    let mut n = 0;
    for case in g
        .cases()
        .into_iter()
        .filter(|c| c.has("dataset") && c.string("kind") != "ada_boost")
    {
        let name = case.name();
        let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data set");
        let x = f32_rounded(ds.x());
        let y = ds.y_classes().expect("labels");
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let (counts, proba, pred, imp, oob) = if case.string("kind") == "random_forest" {
            let est: RandomForestClassifier = params(case);
            let m = est.fit_weighted(&x, y, w.as_deref()).expect("fit");
            (
                node_counts(m.trees()),
                m.predict_proba(&x).expect("proba"),
                m.predict(&x).expect("predict"),
                m.feature_importances(),
                m.oob_score().zip(m.oob_decision_function().cloned()),
            )
        } else {
            let est: ExtraTreesClassifier = params(case);
            let m = est.fit_weighted(&x, y, w.as_deref()).expect("fit");
            (
                node_counts(m.trees()),
                m.predict_proba(&x).expect("proba"),
                m.predict(&x).expect("predict"),
                m.feature_importances(),
                m.oob_score().zip(m.oob_decision_function().cloned()),
            )
        };
        assert_eq!(
            counts,
            case.usize_vector("node_counts"),
            "{name}: node counts"
        );
        assert_close(
            &proba,
            &case.matrix("proba"),
            TOL,
            TOL,
            &format!("{name}: proba"),
        );
        assert_eq!(pred, case.labels("pred"), "{name}: predictions");
        assert_close(
            &imp,
            &case.vector("feature_importances"),
            TOL,
            TOL,
            &format!("{name}: importances"),
        );
        if case.has("oob_score") {
            let (score, dec) = oob.expect("oob results");
            assert_eq!(score, case.scalar("oob_score"), "{name}: oob score");
            assert_close(
                &dec,
                &case.matrix("oob_decision_function"),
                TOL,
                TOL,
                &format!("{name}: oob decision function"),
            );
        }
        n += 1;
    }
    assert!(n >= 7);
}

#[test]
fn forest_regressors_equal_scikit_learn() {
    let g = Golden::load("tree", "forest");
    let dia = ndlearn_datasets::diabetes();
    let dia_x = g.case("rfr_diabetes").matrix("x");
    for case in g.cases().into_iter().filter(|c| c.has("target")) {
        let name = case.name();
        let (x, y): (Array2<f64>, Array1<f64>) = if case.string("target") == "generated" {
            (case.matrix("x"), case.vector("y"))
        } else {
            (dia_x.clone(), dia.y_values().expect("target").clone())
        };
        let (counts, pred, imp, oob) = if case.string("kind") == "random_forest" {
            let est: RandomForestRegressor = params(case);
            let m = est.fit_weighted(&x, &y, None).expect("fit");
            (
                node_counts(m.trees()),
                m.predict(&x).expect("predict"),
                m.feature_importances(),
                m.oob_score().zip(m.oob_prediction().cloned()),
            )
        } else {
            let est: ExtraTreesRegressor = params(case);
            let m = est.fit_weighted(&x, &y, None).expect("fit");
            (
                node_counts(m.trees()),
                m.predict(&x).expect("predict"),
                m.feature_importances(),
                m.oob_score().zip(m.oob_prediction().cloned()),
            )
        };
        assert_eq!(
            counts,
            case.usize_vector("node_counts"),
            "{name}: node counts"
        );
        assert_close(
            &pred,
            &case.vector("pred"),
            TOL,
            TOL,
            &format!("{name}: predictions"),
        );
        assert_close(
            &imp,
            &case.vector("feature_importances"),
            TOL,
            TOL,
            &format!("{name}: importances"),
        );
        if case.has("oob_score") {
            let (score, p) = oob.expect("oob results");
            assert!(
                (score - case.scalar("oob_score")).abs() < TOL,
                "{name}: oob score {score} vs {}",
                case.scalar("oob_score")
            );
            assert_close(
                &p,
                &case.vector("oob_prediction"),
                TOL,
                TOL,
                &format!("{name}: oob predictions"),
            );
        }
    }
}

/// AdaBoost (SAMME) with scikit-learn's per-round seeds: tree weights and errors within 1e-10
/// (they pass through `ln` / `exp` of libm, which may differ from NumPy's in the last bit),
/// scores and probabilities within 1e-10, predictions equal.
#[test]
fn ada_boost_equals_scikit_learn() {
    let g = Golden::load("tree", "forest");
    let mut n = 0;
    for case in g
        .cases()
        .into_iter()
        .filter(|c| c.string("kind") == "ada_boost")
    {
        let name = case.name();
        let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data set");
        let x = f32_rounded(ds.x());
        let y = ds.y_classes().expect("labels");
        let mut est: AdaBoostClassifier = params(case);
        est = est.estimator(DecisionTreeClassifier::default().max_depth(Some(case.usize("depth"))));
        let m = est.fit_weighted(&x, y, None).expect("fit");
        let tol = 1e-10;
        assert_close(
            &Array1::from(m.estimator_weights().to_vec()),
            &case.vector("estimator_weights"),
            tol,
            tol,
            &format!("{name}: estimator weights"),
        );
        assert_close(
            &Array1::from(m.estimator_errors().to_vec()),
            &case.vector("estimator_errors"),
            tol,
            tol,
            &format!("{name}: estimator errors"),
        );
        assert_close(
            &m.decision_function(&x).expect("scores"),
            &case.matrix("decision"),
            tol,
            tol,
            &format!("{name}: decision function"),
        );
        assert_close(
            &m.predict_proba(&x).expect("proba"),
            &case.matrix("proba"),
            tol,
            tol,
            &format!("{name}: proba"),
        );
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("pred"),
            "{name}"
        );
        assert_close(
            &m.feature_importances(),
            &case.vector("feature_importances"),
            tol,
            tol,
            &format!("{name}: importances"),
        );
        n += 1;
    }
    assert_eq!(n, 3);
}
