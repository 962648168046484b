//! Histogram gradient boosting against scikit-learn 1.9.1
//! (`datasets/golden/tree/hist_gradient_boosting.json`, written by
//! `scripts/golden/hist_gradient_boosting.py`): the same trees node for node (features, bin
//! and real thresholds, missing-value directions, links, counts, depths) and the same leaf
//! values, baselines and raw scores, monotonic and interaction constraints included; and
//! native categorical splits (`hist_gradient_boosting_categorical.json`, written by
//! `scripts/golden/hist_gradient_boosting_categorical.py`): the same categories and, at every
//! categorical split, the same set of left-going bins.
//!
//! Tolerance: gradients and hessians are `f32` on both sides (computed in `f64` and rounded),
//! so a one-ulp difference in one row's rounding (relative 6e-8) can move a leaf sum by that
//! much relative to the row's gradient; leaf values and raw scores are compared at `1e-6`
//! relative to the largest leaf value / raw score of the case, far above that and far below
//! any change of the tree. Structure (features, thresholds, counts) is compared exactly.

use ndarray::{Array1, Array2};
use ndlearn_core::{DecisionFunction, FitWeighted};
use ndlearn_testkit::{Case, Golden};
use ndlearn_tree::{
    EarlyStoppingMode, HistGradientBoostingClassifier, HistGradientBoostingRegressionLoss,
    HistGradientBoostingRegressor, HistTree,
};

fn with_nan(case: &Case, key: &str) -> Array2<f64> {
    let mut x = case.matrix(key);
    let mask = case.matrix(&format!("{key}_nan_mask"));
    x.zip_mut_with(&mask, |v, &m| {
        if m != 0.0 {
            *v = f64::NAN;
        }
    });
    x
}

fn opt_f64(case: &Case, key: &str, default: f64) -> f64 {
    if case.has(key) {
        case.scalar(key)
    } else {
        default
    }
}

fn opt_usize(case: &Case, key: &str, default: usize) -> usize {
    if case.has(key) {
        case.usize(key)
    } else {
        default
    }
}

/// Compares every tree with the reference node table.
fn check_trees(case: &Case, trees: &[HistTree]) {
    let name = case.name();
    let sizes = case.usize_vector("tree_sizes");
    assert_eq!(trees.len(), sizes.len(), "{name}: number of trees");
    let col = |f: &str| case.vector(&format!("node_{f}"));
    let (feature, num_thr, bin_thr, miss_left) = (
        col("feature_idx"),
        col("num_threshold"),
        col("bin_threshold"),
        col("missing_go_to_left"),
    );
    let (left, right, is_leaf, value, count, depth) = (
        col("left"),
        col("right"),
        col("is_leaf"),
        col("value"),
        col("count"),
        col("depth"),
    );
    let scale = value.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    let mut at = 0;
    for (t, (tree, &size)) in trees.iter().zip(&sizes).enumerate() {
        assert_eq!(tree.node_count(), size, "{name}: tree {t} node count");
        for (i, node) in tree.nodes().iter().enumerate() {
            let r = at + i;
            let ctx = format!("{name}: tree {t} node {i}");
            assert_eq!(node.is_leaf, is_leaf[r] != 0.0, "{ctx}: is_leaf");
            assert_eq!(f64::from(node.count), count[r], "{ctx}: count");
            assert_eq!(f64::from(node.depth), depth[r], "{ctx}: depth");
            assert!(
                (node.value - value[r]).abs() <= 1e-6 * scale,
                "{ctx}: value {} vs {}",
                node.value,
                value[r]
            );
            if !node.is_leaf && case.has("node_is_categorical") {
                let cat = case.vector("node_is_categorical")[r] != 0.0;
                assert_eq!(node.is_categorical, cat, "{ctx}: is_categorical");
                if cat {
                    let words = case.vector("node_left_cat_bins");
                    let set = tree.bitsets()[node.bitset_idx as usize];
                    for (w, &word) in set.iter().enumerate() {
                        assert_eq!(f64::from(word), words[8 * r + w], "{ctx}: left bins");
                    }
                }
            }
            if !node.is_leaf {
                assert_eq!(f64::from(node.feature), feature[r], "{ctx}: feature");
                assert_eq!(f64::from(node.bin_threshold), bin_thr[r], "{ctx}: bin");
                let thr = if node.threshold.is_infinite() {
                    1e300
                } else {
                    node.threshold
                };
                assert_eq!(thr, num_thr[r], "{ctx}: threshold");
                assert_eq!(
                    node.missing_go_to_left,
                    miss_left[r] != 0.0,
                    "{ctx}: missing_go_to_left"
                );
                assert_eq!(f64::from(node.left), left[r], "{ctx}: left");
                assert_eq!(f64::from(node.right), right[r], "{ctx}: right");
            }
        }
        at += size;
    }
}

fn check_close(name: &str, what: &str, got: &Array2<f64>, expected: &Array2<f64>) {
    assert_eq!(got.dim(), expected.dim(), "{name}: {what} shape");
    let scale = expected.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1.0);
    for ((i, j), &e) in expected.indexed_iter() {
        let g = got[[i, j]];
        assert!(
            (g - e).abs() <= 1e-6 * scale,
            "{name}: {what}[{i}, {j}] = {g}, expected {e}"
        );
    }
}

fn regressor(case: &Case) -> HistGradientBoostingRegressor {
    let loss = match case.string("loss") {
        "squared_error" => HistGradientBoostingRegressionLoss::SquaredError,
        "absolute_error" => HistGradientBoostingRegressionLoss::AbsoluteError,
        "quantile" => HistGradientBoostingRegressionLoss::Quantile,
        "poisson" => HistGradientBoostingRegressionLoss::Poisson,
        "gamma" => HistGradientBoostingRegressionLoss::Gamma,
        other => panic!("unknown loss {other}"),
    };
    let leaves = opt_usize(case, "max_leaf_nodes", 31);
    let early = opt_usize(case, "early_stopping", 0) == 1;
    let vf = opt_f64(case, "validation_fraction", 0.1);
    HistGradientBoostingRegressor::default()
        .loss(loss)
        .quantile(opt_f64(case, "quantile", 0.5))
        .max_iter(case.usize("max_iter"))
        .max_leaf_nodes((leaves > 0).then_some(leaves))
        .max_depth(case.has("max_depth").then(|| case.usize("max_depth")))
        .min_samples_leaf(opt_usize(case, "min_samples_leaf", 20))
        .l2_regularization(opt_f64(case, "l2_regularization", 0.0))
        .max_bins(opt_usize(case, "max_bins", 255))
        .learning_rate(opt_f64(case, "learning_rate", 0.1))
        .early_stopping(if early {
            EarlyStoppingMode::On
        } else {
            EarlyStoppingMode::Off
        })
        .validation_fraction((vf > 0.0).then_some(vf))
        .n_iter_no_change(opt_usize(case, "n_iter_no_change", 10))
        .tol(opt_f64(case, "tol", 1e-7))
        .monotonic_cst(monotonic(case))
        .interaction_cst(interactions(case))
        .categorical_features(categorical(case))
}

/// The categorical features of a case (a 0/1 mask).
fn categorical(case: &Case) -> Vec<usize> {
    if !case.has("categorical") {
        return Vec::new();
    }
    let mask = case.vector("categorical");
    (0..mask.len()).filter(|&j| mask[j] != 0.0).collect()
}

/// The fitted categories equal scikit-learn's (its encoder's sorted known values).
fn check_categories(case: &Case, bins: &ndlearn_tree::FittedBinMapper) {
    if !case.has("known_categories") {
        return;
    }
    let (all, lens) = (
        case.vector("known_categories"),
        case.usize_vector("known_categories_len"),
    );
    let mut at = 0;
    for (j, len) in categorical(case).into_iter().zip(lens) {
        let cats = bins.categories(j).expect("a categorical feature");
        assert_eq!(
            cats,
            &all.as_slice().expect("contiguous")[at..at + len],
            "{}: categories of feature {j}",
            case.name()
        );
        at += len;
    }
}

fn monotonic(case: &Case) -> Option<Vec<i8>> {
    case.has("monotonic_cst").then(|| {
        case.vector("monotonic_cst")
            .iter()
            .map(|&v| v as i8)
            .collect()
    })
}

/// Interaction groups stored as a group index per feature (`−1`: in no listed group).
fn interactions(case: &Case) -> Option<Vec<Vec<usize>>> {
    case.has("interaction_groups").then(|| {
        let g = case.vector("interaction_groups");
        let k = g.iter().fold(0.0f64, |m, &v| m.max(v)) as usize + 1;
        (0..k)
            .map(|c| {
                g.iter()
                    .enumerate()
                    .filter(|(_, v)| **v == c as f64)
                    .map(|(j, _)| j)
                    .collect()
            })
            .collect()
    })
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("sample_weight")
        .then(|| case.vector("sample_weight"))
}

/// Every regression case of a golden file; returns how many ran.
fn regressors(file: &str) -> usize {
    let g = Golden::load("tree", file);
    let mut seen = 0;
    for case in g.cases().into_iter().filter(|c| c.has("loss")) {
        let name = case.name();
        let (x, xt) = (with_nan(case, "x"), with_nan(case, "x_test"));
        let y = case.vector("y");
        let w = weights(case);
        let fit = regressor(case)
            .fit_weighted(&x, &y, w.as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(fit.n_iter(), case.usize("n_iter"), "{name}: n_iter");
        let base = case.vector("baseline");
        assert!(
            (fit.baseline()[0] - base[0]).abs() <= 1e-12 * base[0].abs().max(1.0),
            "{name}: baseline"
        );
        check_categories(case, fit.bin_mapper());
        check_trees(case, fit.trees());
        let raw = fit
            .raw_predict(&x)
            .expect("raw")
            .insert_axis(ndarray::Axis(1));
        check_close(name, "raw_train", &raw, &case.matrix("raw_train"));
        let raw_t = fit
            .raw_predict(&xt)
            .expect("raw")
            .insert_axis(ndarray::Axis(1));
        check_close(name, "raw_test", &raw_t, &case.matrix("raw_test"));
        if case.has("train_score") {
            let ts = case.vector("train_score");
            assert_eq!(
                fit.train_score().len(),
                ts.len(),
                "{name}: train_score length"
            );
            for (a, b) in fit.train_score().iter().zip(&ts) {
                assert!(
                    (a - b).abs() <= 1e-9 * b.abs().max(1.0),
                    "{name}: train_score"
                );
            }
        }
        seen += 1;
    }
    seen
}

#[test]
fn regressor_trees_and_scores_equal_scikit_learn() {
    assert_eq!(regressors("hist_gradient_boosting"), 12);
}

#[test]
fn categorical_regressor_trees_and_scores_equal_scikit_learn() {
    assert_eq!(regressors("hist_gradient_boosting_categorical"), 6);
}

/// Every classification case of a golden file; returns how many ran.
fn classifiers(file: &str) -> usize {
    let g = Golden::load("tree", file);
    let mut seen = 0;
    for case in g.cases().into_iter().filter(|c| !c.has("loss")) {
        let name = case.name();
        let (x, xt) = (with_nan(case, "x"), with_nan(case, "x_test"));
        let y = case.labels("y");
        let w = weights(case);
        let fit = HistGradientBoostingClassifier::default()
            .max_iter(case.usize("max_iter"))
            .max_leaf_nodes(Some(opt_usize(case, "max_leaf_nodes", 31)))
            .early_stopping(EarlyStoppingMode::Off)
            .monotonic_cst(monotonic(case))
            .categorical_features(categorical(case))
            .fit_weighted(&x, &y, w.as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let base = case.vector("baseline");
        for (a, b) in fit.baseline().iter().zip(&base) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "{name}: baseline"
            );
        }
        check_categories(case, fit.bin_mapper());
        check_trees(case, fit.trees());
        let raw: Array2<f64> = fit.decision_function(&x).expect("raw");
        check_close(name, "raw_train", &raw, &case.matrix("raw_train"));
        let raw_t: Array2<f64> = fit.decision_function(&xt).expect("raw");
        check_close(name, "raw_test", &raw_t, &case.matrix("raw_test"));
        seen += 1;
    }
    seen
}

#[test]
fn classifier_trees_and_scores_equal_scikit_learn() {
    assert_eq!(classifiers("hist_gradient_boosting"), 4);
}

#[test]
fn categorical_classifier_trees_and_scores_equal_scikit_learn() {
    assert_eq!(classifiers("hist_gradient_boosting_categorical"), 2);
}
