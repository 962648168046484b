//! Core's `CalibratedClassifierCV` over [`LinearDiscriminantAnalysis`] against scikit-learn's
//! `CalibratedClassifierCV(LinearDiscriminantAnalysis(), cv=5)` (`datasets/golden/core/
//! calibration.json`, written by `scripts/golden/core_calibration.py`): sigmoid and isotonic,
//! with and without the per-fold ensemble, on breast cancer (binary), iris and wine.
//!
//! Both sides split with the same stratified folds and fit LDA in closed form, so the decision
//! values agree to the LDA golden tolerance (about `1e-9` relative); the calibration maps are
//! Lipschitz in those values (slope `|a|/4` for a sigmoid, the steepest isotonic segment), and
//! scikit-learn's sigmoid parameters carry its L-BFGS-B `gtol = 1e-6`, so probabilities agree to
//! `1e-5` absolute. Predicted labels must then be equal except where the two largest
//! probabilities are within that tolerance.

use ndlearn_bayes::LinearDiscriminantAnalysis;
use ndlearn_core::calibration::{CalibratedClassifierCV, CalibrationMethod};
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_testkit::{Golden, assert_close};

#[test]
fn calibrated_lda_matches_sklearn() {
    let g = Golden::load("core", "calibration");
    let cases = g.cases_with_prefix("cv_");
    assert_eq!(cases.len(), 12);
    for case in cases {
        let name = case.name();
        let ds = ndlearn_datasets::by_name(case.string("dataset")).expect("data");
        let (x, y) = (ds.x().clone(), ds.y_classes().expect("classes").clone());
        let method = match case.string("method") {
            "sigmoid" => CalibrationMethod::Sigmoid,
            "isotonic" => CalibrationMethod::Isotonic,
            other => panic!("{other}"),
        };
        let model = CalibratedClassifierCV::new(LinearDiscriminantAnalysis::default())
            .method(method)
            .ensemble(case.usize("ensemble") == 1)
            .fit(&x, &y)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = model.predict_proba(&x).expect("proba");
        let expected = case.matrix("predict_proba");
        assert_close(&p, &expected, 0.0, 1e-5, name);
        let labels = model.predict(&x).expect("predict");
        let theirs = case.labels("predict");
        for i in 0..x.nrows() {
            if labels[i] != theirs[i] {
                let mut row: Vec<f64> = expected.row(i).to_vec();
                row.sort_by(|a, b| b.total_cmp(a));
                assert!(row[0] - row[1] < 2e-5, "{name}: row {i} label differs");
            }
        }
    }
}
