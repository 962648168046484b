//! Named scorers (`ndlearn_core::model_selection::Scorer`) against scikit-learn 1.9.1's
//! `get_scorer(name)(model, X, y)` (`datasets/golden/core/scoring.json`, written by
//! `scripts/golden/core_scoring.py`), from the model outputs stored with each case: predicted
//! labels or values, probabilities, decision values. The facade's tests refit the same models.
//!
//! Tolerance `1e-11` relative: both sides evaluate the same metric formula on the same numbers;
//! only the summation order differs (and AMI's `ln Γ`, see `metrics_golden.rs`).

use ndlearn_core::model_selection::{Response, Scorer, Task};
use ndlearn_testkit::golden::Case;
use ndlearn_testkit::{Golden, assert_close_scalar};

fn score_from_outputs(case: &Case, s: Scorer) -> ndlearn_core::Result<f64> {
    if s.task() == Task::Regression {
        return s.score_values(&case.vector("y_true"), &case.vector("y_pred"));
    }
    let y = case.labels("y_true");
    match s.response() {
        Response::Predict => s.score_labels(&y, &case.labels("y_pred")),
        Response::Proba => s.score_proba(&y, &case.matrix("proba")),
        // scikit-learn reads decision_function when the model has one.
        Response::Threshold if case.has("decision") => {
            s.score_decision(&y, &case.matrix("decision"))
        }
        Response::Threshold => s.score_proba(&y, &case.matrix("proba")),
    }
}

#[test]
fn every_scorer_equals_scikit_learn_on_the_same_model_outputs() {
    let g = Golden::load("core", "scoring");
    let mut checked = 0;
    for case in g.cases_with_prefix("score_") {
        let scores = case.raw("scores").as_object().cloned().unwrap_or_default();
        for (name, want) in &scores {
            let s = Scorer::from_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            let got = score_from_outputs(case, s)
                .unwrap_or_else(|e| panic!("{} {name}: {e}", case.name()));
            let want = want.as_f64().unwrap_or(f64::NAN);
            assert_close_scalar(got, want, 1e-11, 1e-14, &format!("{} {name}", case.name()));
            checked += 1;
        }
        for name in case.raw("errors").as_array().cloned().unwrap_or_default() {
            let name = name.as_str().unwrap_or_default();
            let s = Scorer::from_name(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert!(
                score_from_outputs(case, s).is_err(),
                "{} {name}: scikit-learn refuses it, ndlearn must too",
                case.name()
            );
            checked += 1;
        }
    }
    // 2 data sets × 2 models × 30 classification scorers + 8 regression scorers.
    assert_eq!(checked, 128);
}

#[test]
fn the_golden_covers_every_named_scorer() {
    let g = Golden::load("core", "scoring");
    for s in Scorer::ALL {
        let covered = g
            .cases_with_prefix("score_")
            .iter()
            .any(|c| c.raw("scores").get(s.name()).is_some());
        assert!(covered, "{} has no scikit-learn reference", s.name());
    }
}
