//! The "svm" suite: the support vector machines and kernel ridge at the sizes their issue is
//! judged on, on data with redundant features (scikit-learn's `make_classification` design:
//! informative features on hypercube clusters, exact linear combinations of them, noise
//! features, 1 % flipped labels).
//!
//! | algo | data | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `svc_rbf_5class` | 37,500 × 40 train (8 informative, 8 redundant, 5 classes), 12,500 held-out rows | `Svc` (RBF, `C = 1`, `gamma = "scale"`, one-vs-one pairs in parallel) | `SVC()` |
//! | `svc_rbf_binary` | 20,000 × 50 (10 informative, 10 redundant) | the same | the same |
//! | `svc_rbf` | digits (1,797 × 64, 10 classes) | the same | the same |
//! | `linear_svc` | 150,000 × 50 binary (10 informative, 10 redundant) | `LinearSvc` (`dual = "auto"`: primal trust-region Newton) | `LinearSVC()` |
//! | `linear_svc_wide` | 2,000 × 5,000 binary, n < d (20 informative, 20 redundant) | `LinearSvc` (`dual = "auto"`: dual coordinate descent) | `LinearSVC()` |
//! | `kernel_ridge_rbf` | 5,000 × 20 regression (10 informative, noise 10) | `KernelRidge` (RBF, `gamma = 1/d`, `alpha = 1`) | `KernelRidge(kernel="rbf")` |
//!
//! Every data set is written to the shared directory (see
//! [`crate::suites_linear::SHARED_DIR`]), so scikit-learn fits the same numbers. Quality: the
//! accuracy on the held-out rows (`svc_rbf_5class`, whose `predict_s` is the prediction of those
//! 12,500 rows) or on the training rows, and R² on the training rows for kernel ridge. The two
//! large `Svc` fits take minutes on scikit-learn's side, so they are timed once (no warm-up,
//! whatever `--repeat` says); the others take the median of at most 3. `--quick` divides the
//! sizes by 5.

use ndarray::{Array1, Array2};
use ndlearn_core::{Fit, Predict};
use ndlearn_datasets::{MakeClassification, MakeRegression};
use ndlearn_svm::{KernelRidge, LinearSvc, Svc, SvmKernel};

use crate::suites::{SuiteOptions, split_rows};
use crate::suites_classify::{accuracy, synthetic_record};
use crate::suites_linear::share_with_reference;
use crate::{Record, time_median, time_once};

/// A `make_classification` problem, shared with the scikit-learn side as
/// `svm_<name>_<n>x<d>.f64`.
fn classes(
    name: &str,
    (n, d): (usize, usize),
    (informative, redundant): (usize, usize),
    n_classes: usize,
    seed: u64,
) -> ndlearn_core::Result<(Array2<f64>, Array1<usize>)> {
    let (x, y) = MakeClassification::default()
        .n_samples(n)
        .n_features(d)
        .n_informative(informative)
        .n_redundant(redundant)
        .n_classes(n_classes)
        .seed(seed)
        .generate()?;
    share_with_reference(&format!("svm_{name}"), &x, &y.mapv(|c| c as f64));
    Ok((x, y))
}

fn record(
    algo: &str,
    dims: (usize, usize),
    fit_s: f64,
    predict_s: f64,
    metric: &str,
    value: f64,
) -> Record {
    synthetic_record("svm", algo, dims, fit_s, predict_s, metric, value)
}

/// Runs the suite.
///
/// # Errors
/// Any estimator or generator error.
pub fn svm_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let scale = if opts.quick { 5 } else { 1 };
    let mut out = Vec::new();

    // 5 classes: 37,500 training rows, 12,500 held out
    let (n_train, n_test) = (37_500 / scale, 12_500 / scale);
    let (x, y) = classes("5class", (n_train + n_test, 40), (8, 8), 5, 41)?;
    let (xt, yt, xq, yq) = split_rows(&x, &y, n_train);
    let (fit_s, model) = time_once(|| Svc::default().fit(&xt, &yt));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&xq));
    out.push(record(
        "svc_rbf_5class",
        xt.dim(),
        fit_s,
        predict_s,
        "accuracy",
        accuracy(&pred?, &yq),
    ));

    let (x, y) = classes("binary", (20_000 / scale, 50), (10, 10), 2, 42)?;
    let (fit_s, model) = time_once(|| Svc::default().fit(&x, &y));
    let model = model?;
    let (predict_s, pred) = time_once(|| model.predict(&x));
    out.push(record(
        "svc_rbf_binary",
        x.dim(),
        fit_s,
        predict_s,
        "accuracy",
        accuracy(&pred?, &y),
    ));

    let digits = ndlearn_datasets::digits();
    let (x, y) = (digits.x(), digits.y_classes().cloned().unwrap_or_default());
    let (fit_s, model) = time_median(r, || Svc::default().fit(x, &y));
    let model = model?;
    let (predict_s, pred) = time_median(r, || model.predict(x));
    let mut rec = record(
        "svc_rbf",
        x.dim(),
        fit_s,
        predict_s,
        "accuracy",
        accuracy(&pred?, &y),
    );
    rec.dataset = "digits".into();
    out.push(rec);

    for (algo, dims, informative, seed) in [
        ("linear_svc", (150_000 / scale, 50), 10, 43),
        ("linear_svc_wide", (2_000 / scale, 5_000 / scale), 20, 44),
    ] {
        let (x, y) = classes(algo, dims, (informative, informative), 2, seed)?;
        let (fit_s, model) = time_median(r, || LinearSvc::default().fit(&x, &y));
        let model = model?;
        let (predict_s, pred) = time_median(r, || model.predict(&x));
        out.push(record(
            algo,
            x.dim(),
            fit_s,
            predict_s,
            "accuracy",
            accuracy(&pred?, &y),
        ));
    }

    let (x, y) = MakeRegression::default()
        .n_samples(5_000 / scale)
        .n_features(20)
        .noise(10.0)
        .seed(45)
        .generate()?;
    share_with_reference("svm_kernel_ridge", &x, &y);
    let est = KernelRidge::default().kernel(SvmKernel::Rbf);
    let (fit_s, model) = time_median(r, || est.fit(&x, &y));
    let model = model?;
    let (predict_s, pred) = time_median(r, || model.predict(&x));
    let r2 = ndlearn_core::metrics::r2_score(&y, &pred?, None)?;
    out.push(record(
        "kernel_ridge_rbf",
        x.dim(),
        fit_s,
        predict_s,
        "r2",
        r2,
    ));
    Ok(out)
}
