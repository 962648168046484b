//! Helpers both gradient-boosting golden tests share (`gradient_boosting_golden.rs`,
//! `gradient_boosting_init_golden.rs`).

use ndarray::{Array2, ArrayRef2};
use ndlearn_testkit::Case;
use ndlearn_tree::Tree;

/// `x` rounded to float32 and back (scikit-learn's trees read float32).
pub fn f32_rounded(x: &ArrayRef2<f64>) -> Array2<f64> {
    x.mapv(|v| v as f32 as f64)
}

/// The case's hyperparameters (a JSON string in scikit-learn's names).
pub fn params<T: serde::de::DeserializeOwned>(case: &Case) -> T {
    serde_json::from_str(case.string("params")).expect("hyperparameters")
}

/// Node count of every tree, in order.
pub fn node_counts(trees: &[Tree<f64>]) -> Vec<usize> {
    trees.iter().map(Tree::node_count).collect()
}

/// The staged raw scores at the picked stages, stacked as scikit-learn's `vstack`.
pub fn picked(staged: &[Array2<f64>], stages: &[usize]) -> Array2<f64> {
    let views: Vec<_> = stages.iter().map(|&s| staged[s].view()).collect();
    ndarray::concatenate(ndarray::Axis(0), &views).expect("stack")
}
