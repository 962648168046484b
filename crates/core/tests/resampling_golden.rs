//! `resampling::{compute_class_weight, compute_sample_weight}` against scikit-learn
//! (`datasets/golden/core/resampling.json`, written by `scripts/golden/core_resampling.py`).
//! The weights are ratios of counts: equal to the last bit or two (1e-15 relative).

use std::collections::BTreeMap;

use ndlearn_core::ndarray::Array1;
use ndlearn_core::resampling::{ClassWeight, compute_class_weight, compute_sample_weight};
use ndlearn_testkit::{Golden, assert_close};

fn weight_of(case: &ndlearn_testkit::golden::Case) -> ClassWeight {
    if case.has("dict_keys") {
        let map: BTreeMap<usize, f64> = case
            .usize_vector("dict_keys")
            .into_iter()
            .zip(case.vector("dict_values"))
            .collect();
        ClassWeight::Explicit(map)
    } else {
        ClassWeight::Balanced
    }
}

#[test]
fn class_weights_match_sklearn() {
    let g = Golden::load("core", "resampling");
    let cases = g.cases_with_prefix("class_weight_");
    assert_eq!(cases.len(), 6);
    for case in cases {
        let y = case.labels("y");
        let classes = case.usize_vector("classes");
        let sw = case
            .has("sample_weight")
            .then(|| case.vector("sample_weight"));
        let w = compute_class_weight(&weight_of(case), &classes, &y, sw.as_deref()).expect("valid");
        assert_close(&w, &case.vector("weights"), 1e-15, 0.0, case.name());
    }
}

#[test]
fn sample_weights_match_sklearn() {
    let g = Golden::load("core", "resampling");
    let cases = g.cases_with_prefix("sample_weight_");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let y = case.labels("y");
        let idx = case.has("indices").then(|| case.usize_vector("indices"));
        let w: Array1<f64> =
            compute_sample_weight(&weight_of(case), &y, idx.as_deref()).expect("valid");
        assert_close(&w, &case.vector("weights"), 1e-15, 0.0, case.name());
        let w32: Array1<f32> =
            compute_sample_weight(&weight_of(case), &y, idx.as_deref()).expect("valid");
        assert_close(&w32, &case.vector("weights"), 1e-7, 0.0, case.name());
    }
}
