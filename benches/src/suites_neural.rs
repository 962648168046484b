//! The "neural" suite: multilayer perceptrons at the sizes their issue is judged on. Every case
//! trains the same network on every side: one hidden layer of 100 ReLU units, Adam
//! (scikit-learn's form, learning rate 1e-3), L2 `alpha = 1e-4`, mini-batches of 200 rows
//! shuffled every epoch, a fixed number of epochs (`tol = 0`, no early stopping), Glorot-uniform
//! initial weights. The references are scikit-learn and, with `--compare sklearn,torch`, PyTorch
//! on the CPU (2 threads, its own virtual environment).
//!
//! | algo | data (train + held out) | epochs | dataset label |
//! |---|---|---|---|
//! | `mlp_clf` | 150,000 + 50,000 × 50 (10 informative, 10 redundant, 2 classes) | 20 | `synthetic-f64`, `synthetic-f32` |
//! | `mlp_clf` | digits, 1,797 × 64, 10 classes (scored on the training rows) | 100 | `digits` |
//! | `mlp_reg` | 375,000 + 25,000 × 100 (`make_regression`, noise 10) | 20 | `synthetic-f64` |
//!
//! Quality: accuracy on the held-out rows (R² for the regressor); `predict_s` predicts the
//! held-out rows. Every case is timed once. `--quick` divides the sizes by 10.

use ndarray::{Array1, Array2};
use ndlearn_core::{Fit, Predict};
use ndlearn_neural::{MLPClassifier, MLPRegressor};

use crate::suites::{SuiteOptions, classification_split, regression_split};
use crate::suites_classify::{accuracy, synthetic_record};
use crate::{Record, time_once};

/// The network every case trains, for `epochs` epochs.
pub(crate) fn classifier(epochs: usize) -> MLPClassifier {
    MLPClassifier::new(&[100])
        .batch_size(Some(200))
        .max_iter(epochs)
        .tol(0.0)
        .n_iter_no_change(usize::MAX)
        .seed(0)
}

/// Fits on the training rows, predicts the held-out ones, records the accuracy.
fn classify<F: ndlearn_core::Float>(
    out: &mut Vec<Record>,
    dataset: &str,
    (xt, yt, xq, yq): (&Array2<F>, &Array1<usize>, &Array2<F>, &Array1<usize>),
    est: &MLPClassifier,
) -> ndlearn_core::Result<()> {
    let (fit_s, model) = time_once(|| est.fit(xt, yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(xq));
    let mut rec = synthetic_record(
        "neural",
        "mlp_clf",
        xt.dim(),
        fit_s,
        predict_s,
        "accuracy",
        accuracy(&pred?, yq),
    );
    rec.dataset = dataset.into();
    out.push(rec);
    Ok(())
}

fn f32s(a: &Array2<f64>) -> Array2<f32> {
    a.mapv(|v| v as f32)
}

/// Runs the suite.
///
/// # Errors
/// Any estimator or generator error.
pub fn neural_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let scale = if opts.quick { 10 } else { 1 };
    let mut out = Vec::new();

    let (xt, yt, xq, yq) = classification_split(
        "neural_binary",
        (150_000 / scale, 50_000 / scale, 50, 2, 71),
    )?;
    let est = classifier(20);
    classify(&mut out, "synthetic-f64", (&xt, &yt, &xq, &yq), &est)?;
    let (xt32, xq32) = (f32s(&xt), f32s(&xq));
    classify(&mut out, "synthetic-f32", (&xt32, &yt, &xq32, &yq), &est)?;

    let digits = ndlearn_datasets::digits();
    let (x, y) = (digits.x(), digits.y_classes().cloned().unwrap_or_default());
    classify(&mut out, "digits", (x, &y, x, &y), &classifier(100))?;

    let (xt, yt, xq, yq) = regression_split(
        "neural_regression",
        (375_000 / scale, 25_000 / scale, 100, 72),
    )?;
    let est = MLPRegressor::new(&[100])
        .batch_size(Some(200))
        .max_iter(20)
        .tol(0.0)
        .n_iter_no_change(usize::MAX)
        .seed(0);
    let (fit_s, model) = time_once(|| est.fit(&xt, &yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&xq));
    let r2 = ndlearn_core::metrics::r2_score(&yq, &pred?, None)?;
    let mut rec = synthetic_record("neural", "mlp_reg", xt.dim(), fit_s, predict_s, "r2", r2);
    rec.dataset = "synthetic-f64".into();
    out.push(rec);
    Ok(out)
}
