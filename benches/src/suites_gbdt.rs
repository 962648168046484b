//! The "gbdt" suite: gradient boosting at the sizes its issue is judged on, on data with
//! informative, redundant and noise features (`make_classification` / `make_regression`
//! designs), fitted on the training rows and scored on held-out rows. The references are
//! scikit-learn and, with `--compare sklearn,lightgbm,xgboost`, LightGBM and XGBoost (`hist`)
//! with matched settings: 100 iterations, 31 leaves, learning rate 0.1, 255 bins, at least 20
//! rows per leaf, no early stopping, 2 threads.
//!
//! | algo | data (train + held out) | ndlearn |
//! |---|---|---|
//! | `hist_gb_clf` | 150,000 + 50,000 × 50 (10 informative, 10 redundant, 2 classes) | `HistGradientBoostingClassifier` |
//! | `hist_gb_reg` | 375,000 + 25,000 × 100 (10 informative, noise 10) | `HistGradientBoostingRegressor` |
//! | `hist_gb_multiclass` | 37,500 + 12,500 × 40 (10 informative, 10 redundant, 5 classes) | `HistGradientBoostingClassifier` |
//! | `gradient_boosting_clf` | the binary data | `GradientBoostingClassifier` (exact, 100 trees of depth 3) |
//!
//! Quality: accuracy and, as a second row of the same fit (`dataset` = `synthetic-logloss`),
//! the log-loss on the held-out rows (R² for the regressor); `predict_s` is the prediction of
//! the held-out rows (50,000 for the binary case). Every case is timed once. `--quick` divides
//! the sizes by 10.

use ndarray::{Array1, Array2};
use ndlearn_core::{Fit, Predict, PredictProba};
use ndlearn_tree::{
    EarlyStoppingMode, GradientBoostingClassifier, HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
};

use crate::suites::{SuiteOptions, classification_split, regression_split};
use crate::suites_classify::{accuracy, synthetic_record};
use crate::{Record, time_once};

/// Fits, predicts the held-out rows (labels and probabilities), records accuracy and log-loss.
fn classify<M>(
    out: &mut Vec<Record>,
    algo: &str,
    (xt, yt, xq, yq): (&Array2<f64>, &Array1<usize>, &Array2<f64>, &Array1<usize>),
    fit: impl FnOnce(&Array2<f64>, &Array1<usize>) -> ndlearn_core::Result<M>,
) -> ndlearn_core::Result<()>
where
    M: Predict<f64, Output = Array1<usize>> + PredictProba<f64>,
{
    let (fit_s, model) = time_once(|| fit(xt, yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(xq));
    let proba = model.predict_proba(xq)?;
    let ll = ndlearn_core::metrics::log_loss(yq, &proba, None)?;
    let acc = accuracy(&pred?, yq);
    out.push(synthetic_record(
        "gbdt",
        algo,
        xt.dim(),
        fit_s,
        predict_s,
        "accuracy",
        acc,
    ));
    let mut second = synthetic_record("gbdt", algo, xt.dim(), fit_s, predict_s, "log_loss", ll);
    second.dataset = "synthetic-logloss".into();
    out.push(second);
    Ok(())
}

/// Runs the suite.
///
/// # Errors
/// Any estimator or generator error.
pub fn gbdt_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let scale = if opts.quick { 10 } else { 1 };
    let mut out = Vec::new();
    let hist_clf = HistGradientBoostingClassifier::default()
        .max_iter(100)
        .early_stopping(EarlyStoppingMode::Off);

    let (xt, yt, xq, yq) =
        classification_split("gbdt_binary", (150_000 / scale, 50_000 / scale, 50, 2, 61))?;
    let data = (&xt, &yt, &xq, &yq);
    classify(&mut out, "hist_gb_clf", data, |x, y| hist_clf.fit(x, y))?;
    classify(&mut out, "gradient_boosting_clf", data, |x, y| {
        GradientBoostingClassifier::default().fit(x, y)
    })?;

    let (xt, yt, xq, yq) = classification_split(
        "gbdt_multiclass",
        (37_500 / scale, 12_500 / scale, 40, 5, 62),
    )?;
    classify(
        &mut out,
        "hist_gb_multiclass",
        (&xt, &yt, &xq, &yq),
        |x, y| hist_clf.fit(x, y),
    )?;

    let (xt, yt, xq, yq) = regression_split(
        "gbdt_regression",
        (375_000 / scale, 25_000 / scale, 100, 63),
    )?;
    let (fit_s, model) = time_once(|| {
        HistGradientBoostingRegressor::default()
            .max_iter(100)
            .early_stopping(EarlyStoppingMode::Off)
            .fit(&xt, &yt)
    });
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&xq));
    let r2 = ndlearn_core::metrics::r2_score(&yq, &pred?, None)?;
    out.push(synthetic_record(
        "gbdt",
        "hist_gb_reg",
        xt.dim(),
        fit_s,
        predict_s,
        "r2",
        r2,
    ));
    Ok(out)
}
