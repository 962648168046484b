//! The "tree" suite: the trees and tree ensembles at the sizes their issue is judged on, on
//! data with informative, redundant and noise features (scikit-learn's `make_classification` /
//! `make_regression` designs), each fitted on the training rows and scored on held-out rows.
//!
//! | algo | data (train + held out) | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `decision_tree_clf` | 150,000 + 30,000 × 50 (10 informative, 10 redundant, 2 classes) | `DecisionTreeClassifier` (full depth) | `DecisionTreeClassifier()` |
//! | `decision_tree_reg` | 375,000 + 25,000 × 100 (10 informative, noise 10) | `DecisionTreeRegressor` (full depth) | `DecisionTreeRegressor()` |
//! | `random_forest_clf` | the classification data | `RandomForestClassifier` (100 trees) | `RandomForestClassifier()` |
//! | `extra_trees_clf` | the classification data | `ExtraTreesClassifier` (100 trees) | `ExtraTreesClassifier()` |
//! | `ada_boost_clf` | the classification data | `AdaBoostClassifier` (50 stumps) | `AdaBoostClassifier()` |
//! | `bagging_clf` | the classification data | `BaggingClassifier` (10 full trees) | `BaggingClassifier()` |
//! | `isolation_forest` | the classification data's features | `IsolationForest` (100 trees) | `IsolationForest()` |
//! | `decision_tree_clf_hist` | the classification data | `DecisionTreeClassifier` with `max_bins = 255` (histogram split mode) | — |
//! | `random_forest_clf_hist` | the classification data | `RandomForestClassifier` (100 trees) with `max_bins = 255` | — |
//!
//! Quality: accuracy (R² for the regressor) on the held-out rows, whose prediction is
//! `predict_s`; for the isolation forest the fraction of held-out rows flagged. Data are
//! shared with the scikit-learn side (see [`crate::suites_linear::SHARED_DIR`]). Every case is
//! timed once (the large fits take minutes on either side). `--quick` divides the sizes by 10.

use ndarray::{Array1, Array2};
use ndlearn_core::{Fit, FitUnsupervised, Predict};
use ndlearn_tree::{
    AdaBoostClassifier, BaggingClassifier, DecisionTreeClassifier, DecisionTreeRegressor,
    ExtraTreesClassifier, IsolationForest, RandomForestClassifier,
};

use crate::suites::{SuiteOptions, classification_split, regression_split};
use crate::suites_classify::{accuracy, synthetic_record};
use crate::{Record, time_once};

fn record(
    algo: &str,
    dims: (usize, usize),
    fit_s: f64,
    predict_s: f64,
    metric: &str,
    value: f64,
) -> Record {
    synthetic_record("tree", algo, dims, fit_s, predict_s, metric, value)
}

/// Fits `fit` on the training rows, predicts the held-out rows, records the accuracy.
fn classify<M: Predict<f64, Output = Array1<usize>>>(
    out: &mut Vec<Record>,
    algo: &str,
    (xt, yt, xq, yq): (&Array2<f64>, &Array1<usize>, &Array2<f64>, &Array1<usize>),
    fit: impl FnOnce(&Array2<f64>, &Array1<usize>) -> ndlearn_core::Result<M>,
) -> ndlearn_core::Result<()> {
    let (fit_s, model) = time_once(|| fit(xt, yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(xq));
    out.push(record(
        algo,
        xt.dim(),
        fit_s,
        predict_s,
        "accuracy",
        accuracy(&pred?, yq),
    ));
    Ok(())
}

/// Runs the suite.
///
/// # Errors
/// Any estimator or generator error.
pub fn tree_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let scale = if opts.quick { 10 } else { 1 };
    let mut out = Vec::new();

    let (n_train, n_test) = (150_000 / scale, 30_000 / scale);
    let (xt, yt, xq, yq) = classification_split("tree_classes", (n_train, n_test, 50, 2, 51))?;
    let data = (&xt, &yt, &xq, &yq);

    classify(&mut out, "decision_tree_clf", data, |x, y| {
        DecisionTreeClassifier::default().fit(x, y)
    })?;
    classify(&mut out, "random_forest_clf", data, |x, y| {
        RandomForestClassifier::default().fit(x, y)
    })?;
    classify(&mut out, "extra_trees_clf", data, |x, y| {
        ExtraTreesClassifier::default().fit(x, y)
    })?;
    classify(&mut out, "ada_boost_clf", data, |x, y| {
        AdaBoostClassifier::default().fit(x, y)
    })?;
    classify(&mut out, "bagging_clf", data, |x, y| {
        BaggingClassifier::new(DecisionTreeClassifier::default()).fit(x, y)
    })?;
    // The histogram split mode (no scikit-learn counterpart: compare with the exact rows).
    classify(&mut out, "decision_tree_clf_hist", data, |x, y| {
        DecisionTreeClassifier::default()
            .max_bins(Some(255))
            .fit(x, y)
    })?;
    classify(&mut out, "random_forest_clf_hist", data, |x, y| {
        RandomForestClassifier::default()
            .max_bins(Some(255))
            .fit(x, y)
    })?;

    let (fit_s, model) =
        time_once(|| FitUnsupervised::<f64>::fit(&IsolationForest::default(), &xt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&xq));
    let flagged = pred?.iter().filter(|&&v| v == -1).count() as f64 / n_test as f64;
    out.push(record(
        "isolation_forest",
        xt.dim(),
        fit_s,
        predict_s,
        "outlier_fraction",
        flagged,
    ));

    let (xt, yt, xq, yq) = regression_split(
        "tree_regression",
        (375_000 / scale, 25_000 / scale, 100, 52),
    )?;
    let (fit_s, model) = time_once(|| DecisionTreeRegressor::default().fit(&xt, &yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&xq));
    let r2 = ndlearn_core::metrics::r2_score(&yq, &pred?, None)?;
    out.push(record(
        "decision_tree_reg",
        xt.dim(),
        fit_s,
        predict_s,
        "r2",
        r2,
    ));
    Ok(out)
}
