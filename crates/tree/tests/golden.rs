//! ndlearn-tree against scikit-learn 1.9.1 (`datasets/golden/tree/*.json`, written by
//! `scripts/golden/tree.py`).
//!
//! Inputs are float32-representable (the embedded data sets rounded through `f32`, as
//! scikit-learn rounds them), so both libraries split at the same midpoints. The random streams
//! are scikit-learn's, so ties between equal splits are broken alike and the trees must be
//! identical node for node: structure, features, thresholds and sample counts exactly; values,
//! impurities, weighted counts, importances, probabilities and pruning paths within `1e-12`
//! (relative, plus `1e-12` absolute for values near 0: the two libraries sum the same numbers
//! in different orders in places).
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::{FeatureImportances, Fit, FitWeighted, Predict, PredictProba};
use ndlearn_testkit::{Case, Golden, assert_close};
use ndlearn_tree::{DecisionTreeClassifier, DecisionTreeRegressor, Tree};

const TOL: f64 = 1e-12;

fn f32_rounded(x: &ArrayRef2<f64>) -> Array2<f64> {
    x.mapv(|v| v as f32 as f64)
}

fn estimator<T: serde::de::DeserializeOwned>(case: &Case) -> T {
    let mut params = case.raw("params").clone();
    params["random_state"] = case.raw("random_state").clone();
    serde_json::from_value(params).expect("hyperparameters")
}

fn ints(case: &Case, field: &str) -> Vec<i64> {
    case.raw(field)
        .as_array()
        .expect("array")
        .iter()
        .map(|v| v.as_i64().expect("integer"))
        .collect()
}

fn check_tree(tree: &Tree<f64>, case: &Case) {
    let name = case.name();
    assert_eq!(
        tree.node_count(),
        case.usize("node_count"),
        "{name}: node_count"
    );
    assert_eq!(
        tree.children_left(),
        ints(case, "children_left"),
        "{name}: children_left"
    );
    assert_eq!(
        tree.children_right(),
        ints(case, "children_right"),
        "{name}: children_right"
    );
    assert_eq!(tree.feature(), ints(case, "feature"), "{name}: feature");
    assert_eq!(
        tree.threshold(),
        case.vector("threshold").as_slice().expect("contiguous"),
        "{name}: threshold"
    );
    assert_eq!(
        tree.n_node_samples(),
        case.usize_vector("n_node_samples"),
        "{name}: n_node_samples"
    );
    assert_eq!(tree.max_depth(), case.usize("max_depth"), "{name}: depth");
    assert_eq!(tree.n_leaves(), case.usize("n_leaves"), "{name}: leaves");
    assert_close(
        &Array1::from(tree.weighted_n_node_samples().to_vec()),
        &case.vector("weighted_n_node_samples"),
        TOL,
        TOL,
        &format!("{name}: weighted_n_node_samples"),
    );
    assert_close(
        &Array1::from(tree.impurity().to_vec()),
        &case.vector("impurity"),
        TOL,
        TOL,
        &format!("{name}: impurity"),
    );
    assert_close(
        &tree.value().to_owned(),
        &case.matrix("value"),
        TOL,
        TOL,
        &format!("{name}: value"),
    );
}

fn check_path(path: &ndlearn_tree::CcpPath, case: &Case) {
    if !case.has("ccp_alphas") {
        return;
    }
    let name = case.name();
    assert_close(
        &Array1::from(path.ccp_alphas.clone()),
        &case.vector("ccp_alphas"),
        TOL,
        TOL,
        &format!("{name}: ccp_alphas"),
    );
    assert_close(
        &Array1::from(path.impurities.clone()),
        &case.vector("ccp_impurities"),
        TOL,
        TOL,
        &format!("{name}: ccp impurities"),
    );
}

#[test]
fn classification_trees_equal_scikit_learn() {
    let g = Golden::load("tree", "classifier");
    let mut n = 0;
    for case in g.cases() {
        let (x, y) = if case.string("dataset") == "generated" {
            (case.matrix("x"), case.labels("y"))
        } else {
            let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data set");
            (f32_rounded(ds.x()), ds.y_classes().expect("labels").clone())
        };
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let est: DecisionTreeClassifier = estimator(case);
        let m = est.fit_weighted(&x, &y, w.as_deref()).expect("fit");
        check_tree(m.tree(), case);
        let name = case.name();
        assert_close(
            &m.feature_importances(),
            &case.vector("feature_importances"),
            TOL,
            TOL,
            &format!("{name}: importances"),
        );
        assert_close(
            &m.predict_proba(&x).expect("proba"),
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
        if case.has("ccp_alphas") {
            let path = est
                .cost_complexity_pruning_path(&x, &y, w.as_deref())
                .expect("path");
            check_path(&path, case);
        }
        n += 1;
    }
    assert!(n >= 40, "{n} cases");
}

#[test]
fn regression_trees_equal_scikit_learn() {
    let g = Golden::load("tree", "regressor");
    // The scaled diabetes features as scikit-learn computed them (rounding through f32 after
    // scaling can land on the other side of a float32 boundary with another scaling order).
    let dia = g.case("diabetes_default");
    let ds = ndlearn_datasets::diabetes();
    assert_close(
        &f32_rounded(ds.x()),
        &dia.matrix("x"),
        1e-7,
        0.0,
        "diabetes features",
    );
    let mut failures = Vec::new();
    for case in g.cases() {
        let name = case.name();
        let (x, y) = if case.string("target") == "diabetes" {
            (
                dia.matrix("x"),
                ds.y_values()
                    .expect("target")
                    .clone()
                    .insert_axis(ndarray::Axis(1)),
            )
        } else if case.string("target") == "multi" {
            (case.matrix("x"), case.matrix("y"))
        } else {
            (
                case.matrix("x"),
                case.vector("y").insert_axis(ndarray::Axis(1)),
            )
        };
        let w = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let est: DecisionTreeRegressor = estimator(case);
        let m = est.fit_multi_weighted(&x, &y, w.as_deref()).expect("fit");
        if let Err(e) = std::panic::catch_unwind(|| check_tree(m.tree(), case)) {
            failures.push(format!("{name}: {:?}", e.downcast_ref::<String>()));
            continue;
        }
        assert_close(
            &m.feature_importances(),
            &case.vector("feature_importances"),
            TOL,
            TOL,
            &format!("{name}: importances"),
        );
        let pred = m.predict_multi(&x).expect("predict");
        let expected = if y.ncols() == 1 {
            case.vector("pred").insert_axis(ndarray::Axis(1))
        } else {
            case.matrix("pred")
        };
        assert_close(&pred, &expected, TOL, TOL, &format!("{name}: predictions"));
        if case.has("ccp_alphas") {
            let path = est
                .cost_complexity_pruning_path(&x, &y.column(0).to_owned(), w.as_deref())
                .expect("path");
            check_path(&path, case);
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn export_text_equals_scikit_learn() {
    use ndlearn_tree::export::ExportOptions;
    let g = Golden::load("tree", "export");
    for case in g.cases() {
        let opts: serde_json::Value = serde_json::from_str(case.string("options")).expect("opts");
        let mut o = ExportOptions::default();
        if let Some(names) = opts.get("feature_names") {
            o = o.feature_names(Some(serde_json::from_value(names.clone()).expect("names")));
        }
        if let Some(v) = opts.get("max_depth") {
            o = o.max_depth(v.as_u64().expect("depth") as usize);
        }
        if let Some(v) = opts.get("decimals") {
            o = o.decimals(v.as_u64().expect("decimals") as usize);
        }
        if let Some(v) = opts.get("spacing") {
            o = o.spacing(v.as_u64().expect("spacing") as usize);
        }
        if let Some(v) = opts.get("show_weights") {
            o = o.show_weights(v.as_bool().expect("bool"));
        }
        let data = match case.string("dataset") {
            "iris" => ndlearn_datasets::iris(),
            _ => ndlearn_datasets::diabetes(),
        };
        let text = if case.string("kind") == "classifier" {
            let x = data.x().mapv(|v| v as f32 as f64);
            let est: DecisionTreeClassifier =
                serde_json::from_str(case.string("params")).expect("params");
            est.fit(&x, data.y_classes().expect("labels"))
                .expect("fit")
                .export_text(&o)
                .expect("text")
        } else {
            // The scaled diabetes features as scikit-learn computed them (see above).
            let x = Golden::load("tree", "regressor")
                .case("diabetes_default")
                .matrix("x");
            let est: DecisionTreeRegressor =
                serde_json::from_str(case.string("params")).expect("params");
            est.fit(&x, data.y_values().expect("target"))
                .expect("fit")
                .export_text(&o)
                .expect("text")
        };
        assert_eq!(text, case.string("text"), "{}", case.name());
    }
}
