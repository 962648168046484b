//! The "linear" suite: the linear models at the sizes the linear-models issue is judged on.
//!
//! | algo | data | ndlearn | scikit-learn |
//! |---|---|---|---|
//! | `ols` | 500,000 × 100 | `LinearRegression` (auto: Cholesky on one-gemm `XᵀX`) | `LinearRegression` (scipy `lstsq`, gelsd) |
//! | `ridge` | 500,000 × 100, α = 1 | `Ridge` (auto: Cholesky) | `Ridge` (auto: cholesky) |
//! | `lasso` | 1,000 × 2,000 and 500,000 × 100, α = 0.1 | `Lasso` (coordinate descent; Gram variant when `N > D`) | `Lasso` (coordinate descent) |
//! | `elastic_net` | as `lasso`, `l1_ratio = 0.5` | `ElasticNet` | `ElasticNet` |
//! | `cross_val_score_ridge_5fold` | 200,000 × 20 | `model_selection::cross_val_score` (`KFold(5)`, R², folds in parallel) | `cross_val_score(Ridge(), cv=KFold(5), scoring='r2')` |
//! | `logistic` | 200,000 × 50 (2 classes) and 50,000 × 40 (5 classes), `C = 1` | `LogisticRegression` (L-BFGS) | `LogisticRegression` (lbfgs) |
//! | `sgd_classifier` | 200,000 × 50 (2 classes, as `logistic`), hinge, 10 epochs (`tol = None`), shuffled | `SGDClassifier` | `SGDClassifier(max_iter=10, tol=None)` |
//!
//! Data: `X` standard normal, `y = X w + 0.5 + ε` with `ε ~ N(0, 1)`; `w` dense `N(0, 1)` for
//! `ols`/`ridge`, and for the L1 models non-zero (`N(0, 1)·3`) only on the first `max(10, D/20)`
//! features. The quality metric is R² on the training data (accuracy for `logistic`, whose labels
//! are the argmax of `X W + ε` with `W` standard normal, `ε ~ N(0, 1)`). `--quick` divides the
//! row counts by 5 (and the 1,000 × 2,000 case becomes 500 × 1,000).
//!
//! The wide lasso / elastic-net problem and the two logistic problems are written to
//! [`SHARED_DIR`] and scikit-learn fits the same numbers (coordinate-descent sweeps and L-BFGS
//! iterations depend on the draw); every other case is generated separately on each side, with
//! the same law.

use ndarray::{Array1, Array2};
use ndlearn_core::model_selection::{KFold, cross_val_score};
use ndlearn_core::{Fit, Predict, random};
use ndlearn_linear::{
    ElasticNet, Lasso, LinearRegression, LogisticRegression, Ridge, SGDClassifier,
};

use crate::suites::SuiteOptions;
use crate::{Record, time_median};

pub(crate) fn problem(n: usize, d: usize, sparse: bool, seed: u64) -> (Array2<f64>, Array1<f64>) {
    let mut rng = random::rng(seed);
    let x = Array2::from_shape_fn((n, d), |_| random::standard_normal::<f64>(&mut rng));
    let active = if sparse { (d / 20).max(10).min(d) } else { d };
    let scale = if sparse { 3.0 } else { 1.0 };
    let w = Array1::from_shape_fn(d, |j| {
        if j < active {
            scale * random::standard_normal::<f64>(&mut rng)
        } else {
            0.0
        }
    });
    let mut y = x.dot(&w) + 0.5;
    y.mapv_inplace(|v| v + random::standard_normal::<f64>(&mut rng));
    (x, y)
}

fn r2(y: &Array1<f64>, pred: &Array1<f64>) -> f64 {
    let mean = y.mean().unwrap_or(0.0);
    let rss: f64 = y.iter().zip(pred).map(|(a, b)| (a - b) * (a - b)).sum();
    let tss: f64 = y.iter().map(|a| (a - mean) * (a - mean)).sum();
    1.0 - rss / tss
}

/// Labels `argmax_k (X W + ε)_k` (`k` classes; for 2 classes the sign of one score).
pub(crate) fn classes(n: usize, d: usize, k: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let x = Array2::from_shape_fn((n, d), |_| random::standard_normal::<f64>(&mut rng));
    let cols = if k == 2 { 1 } else { k };
    let w = Array2::from_shape_fn((d, cols), |_| random::standard_normal::<f64>(&mut rng));
    let mut z = x.dot(&w);
    z.mapv_inplace(|v| v + random::standard_normal::<f64>(&mut rng));
    let y = z
        .rows()
        .into_iter()
        .map(|r| {
            if k == 2 {
                usize::from(r[0] > 0.0)
            } else {
                r.iter()
                    .enumerate()
                    .fold(
                        (0, f64::NEG_INFINITY),
                        |b, (i, &v)| if v > b.1 { (i, v) } else { b },
                    )
                    .0
            }
        })
        .collect();
    (x, y)
}

fn record(algo: &str, (n, d): (usize, usize), fit_s: f64, predict_s: f64, value: f64) -> Record {
    Record {
        suite: "linear".into(),
        algo: algo.into(),
        dataset: "synthetic".into(),
        n,
        d,
        fit_s,
        predict_s,
        metric: "r2".into(),
        value,
        gflops: None,
        implementation: "ndlearn".into(),
        threads: ndlearn_core::par::current_num_threads(),
    }
}

/// Where the suite leaves a data set for `benches/sklearn/run.py` (relative to the project
/// root, the runner's working directory).
pub const SHARED_DIR: &str = "target/ndlearn-bench/shared";

/// Writes `x` (row-major) followed by `y` as raw little-endian `f64` to
/// `SHARED_DIR/<name>_<n>x<d>.f64`, so that the scikit-learn side fits the very same numbers.
/// For cases whose cost depends on the draw (the sweeps of coordinate descent on the wide
/// lasso / elastic-net problem vary by ±20 % between draws). Best effort: a failure to write
/// only means the reference generates its own draw, as for the other cases.
pub(crate) fn share_with_reference(name: &str, x: &Array2<f64>, y: &Array1<f64>) {
    let (n, d) = x.dim();
    let path = std::path::Path::new(SHARED_DIR).join(format!("{name}_{n}x{d}.f64"));
    let mut bytes = Vec::with_capacity((n * d + n) * 8);
    for v in x.iter().chain(y.iter()) {
        bytes.extend_from_slice(&v.to_le_bytes());
    }
    let written = std::fs::create_dir_all(SHARED_DIR).and_then(|()| std::fs::write(&path, bytes));
    if let Err(e) = written {
        eprintln!("note: could not share {}: {e}", path.display());
    }
}

/// Times `fit` and `predict` of one estimator on `(x, y)`.
fn case<E>(
    algo: &str,
    est: &E,
    x: &Array2<f64>,
    y: &Array1<f64>,
    r: usize,
) -> ndlearn_core::Result<Record>
where
    E: Fit<f64, Target = ndarray::ArrayRef1<f64>>,
    E::Model: Predict<f64, Output = Array1<f64>>,
{
    let (fit_s, model) = time_median(r, || est.fit(x, y));
    let model = model?;
    let (predict_s, pred) = time_median(r, || model.predict(x));
    let pred = pred?;
    Ok(record(algo, x.dim(), fit_s, predict_s, r2(y, &pred)))
}

/// Runs the linear suite (heavy cases are repeated at most 3 times).
pub fn linear_suite(opts: SuiteOptions) -> ndlearn_core::Result<Vec<Record>> {
    let r = opts.repeat.min(3);
    let scale = if opts.quick { 5 } else { 1 };
    let mut out = Vec::new();

    let (x, y) = problem(500_000 / scale, 100, false, 21);
    out.push(case("ols", &LinearRegression::default(), &x, &y, r)?);
    out.push(case("ridge", &Ridge::new(1.0), &x, &y, r)?);
    drop((x, y));

    let wide = if opts.quick {
        (500, 1000)
    } else {
        (1000, 2000)
    };
    for (n, d, seed) in [(wide.0, wide.1, 22), (500_000 / scale, 100, 23)] {
        let (x, y) = problem(n, d, true, seed);
        if (n, d) == wide {
            share_with_reference("linear_wide", &x, &y);
        }
        out.push(case("lasso", &Lasso::new(0.1), &x, &y, r)?);
        out.push(case("elastic_net", &ElasticNet::new(0.1, 0.5), &x, &y, r)?);
    }

    for (n, d, k, seed) in [(200_000 / scale, 50, 2, 24), (50_000 / scale, 40, 5, 25)] {
        let (x, y) = classes(n, d, k, seed);
        // L-BFGS iterations depend on the draw too: scikit-learn fits the same numbers
        share_with_reference(&format!("logistic_k{k}"), &x, &y.mapv(|c| c as f64));
        let est = LogisticRegression::default();
        let (fit_s, model) = time_median(r, || est.fit(&x, &y));
        let model = model?;
        let (predict_s, pred) = time_median(r, || model.predict(&x));
        let pred = pred?;
        let acc = pred.iter().zip(&y).filter(|(a, b)| a == b).count() as f64 / n as f64;
        let mut rec = record("logistic", (n, d), fit_s, predict_s, acc);
        rec.metric = "accuracy".into();
        out.push(rec);
    }

    // 5-fold cross_val_score of a cheap model (ridge, R² scorer), folds in parallel.
    let (x, y) = problem(200_000 / scale, 20, false, 26);
    let est = Ridge::new(1.0);
    let scorer = |m: &<Ridge as Fit<f64>>::Model,
                  xt: &ndarray::ArrayRef2<f64>,
                  yt: &ndarray::ArrayRef1<f64>| {
        let p = m.predict(xt)?;
        ndlearn_core::metrics::r2_score(yt, &p, None)
    };
    let (fit_s, scores) = time_median(r, || cross_val_score(&est, &x, &y, &KFold::new(5), scorer));
    let scores = scores?;
    out.push(record(
        "cross_val_score_ridge_5fold",
        x.dim(),
        fit_s,
        0.0,
        scores.mean().unwrap_or(f64::NAN),
    ));
    // Plain SGD, exactly 10 epochs over 200,000 × 50 (the speed target).
    let (x, y) = classes(200_000 / scale, 50, 2, 27);
    let est = SGDClassifier::default().max_iter(10).tol(None).seed(0);
    let (fit_s, model) = time_median(r, || est.fit(&x, &y));
    let model = model?;
    let (predict_s, pred) = time_median(r, || model.predict(&x));
    let pred = pred?;
    let acc = pred.iter().zip(&y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64;
    let mut rec = record("sgd_classifier", x.dim(), fit_s, predict_s, acc);
    rec.metric = "accuracy".into();
    out.push(rec);
    Ok(out)
}
