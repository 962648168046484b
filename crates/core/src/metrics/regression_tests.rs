//! Unit tests of the regression metrics.

use super::*;
use ndarray::{Array1, array};

#[test]
fn hand_values() {
    // Residuals y − ŷ = 0.5, −0.5, 0, −1.
    let (t, p) = (array![3.0, -0.5, 2.0, 7.0], array![2.5, 0.0, 2.0, 8.0]);
    assert_eq!(rss(&t, &p, None).expect("ok"), 1.5);
    assert_eq!(mean_squared_error(&t, &p, None).expect("ok"), 0.375);
    assert_eq!(mean_absolute_error(&t, &p, None).expect("ok"), 0.5);
    // |residuals| sorted 0, 0.5, 0.5, 1 → median (0.5 + 0.5)/2.
    assert_eq!(median_absolute_error(&t, &p, None).expect("ok"), 0.5);
    assert_eq!(max_error(&t, &p).expect("ok"), 1.0);
    // MAPE = (0.5/3 + 0.5/0.5 + 0 + 1/7)/4.
    let mape = mean_absolute_percentage_error(&t, &p, None).expect("ok");
    assert!((mape - (0.5 / 3.0 + 1.0 + 1.0 / 7.0) / 4.0).abs() < 1e-15);
    // ȳ = 2.875, TSS = 29.1875 → R² = 1 − 1.5/29.1875.
    let r2 = r2_score(&t, &p, None).expect("ok");
    assert!((r2 - (1.0 - 1.5 / 29.1875)).abs() < 1e-15);
    // Explained variance: mean residual −0.25, Var(res) = (0.75² + 0.25² + 0.25² + 0.75²)/4 =
    // 0.3125; Var(y) = 29.1875/4.
    let ev = explained_variance_score(&t, &p, None).expect("ok");
    assert!((ev - (1.0 - 0.3125 / (29.1875 / 4.0))).abs() < 1e-15);
    // E_RMS = √(2E/N) with E = RSS/2 is the RMSE.
    let e = rss(&t, &p, None).expect("ok") / 2.0;
    let rmse = root_mean_squared_error(&t, &p, None).expect("ok");
    assert!((rmse - (2.0 * e / 4.0).sqrt()).abs() < 1e-15);
    // The short aliases re-exported by `metrics`.
    assert_eq!(super::super::mse(&t, &p, None).expect("ok"), 0.375);
    assert_eq!(rmse, super::super::rmse(&t, &p, None).expect("ok"));
    assert_eq!(super::super::mae(&t, &p, None).expect("ok"), 0.5);
}

#[test]
fn weights_and_weighted_median() {
    let (t, p) = (array![1.0, 2.0, 3.0], array![1.0, 1.0, 1.0]);
    let w = array![1.0, 1.0, 2.0];
    // Weighted MSE = (0 + 1 + 2·4)/4.
    assert_eq!(mean_squared_error(&t, &p, Some(&w)).expect("ok"), 9.0 / 4.0);
    assert_eq!(rss(&t, &p, Some(&w)).expect("ok"), 9.0);
    // |r| = 0, 1, 2 with weights 1, 1, 2: CDF 1, 2, 4; half = 2 reached exactly at value 1 →
    // average with the next value 2.
    assert_eq!(median_absolute_error(&t, &p, Some(&w)).expect("ok"), 1.5);
    // Weights 1, 1, 3: CDF 1, 2, 5, half 2.5 → value 2.
    let w3 = array![1.0, 1.0, 3.0];
    assert_eq!(median_absolute_error(&t, &p, Some(&w3)).expect("ok"), 2.0);
    // Zero weight after the median point is skipped: weights 1, 0, 1 → CDF 1, 1, 2; half 1 at
    // value 0 → averaged with the next positive-weight value 2.
    let wz = array![1.0, 0.0, 1.0];
    assert_eq!(median_absolute_error(&t, &p, Some(&wz)).expect("ok"), 1.0);
    // Odd and even unweighted medians.
    assert_eq!(
        median_absolute_error(&array![0.0, 0.0, 0.0], &array![1.0, 5.0, 2.0], None).expect("ok"),
        2.0
    );
}

#[test]
fn constant_targets() {
    let t = array![2.0, 2.0, 2.0];
    assert_eq!(r2_score(&t, &t, None).expect("ok"), 1.0);
    assert_eq!(r2_score(&t, &array![2.0, 2.5, 2.0], None).expect("ok"), 0.0);
    assert_eq!(explained_variance_score(&t, &t, None).expect("ok"), 1.0);
    assert_eq!(
        explained_variance_score(&t, &array![1.0, 2.5, 2.0], None).expect("ok"),
        0.0
    );
    // A constant bias is fully "explained".
    let ev = explained_variance_score(&array![1.0, 2.0, 4.0], &array![2.0, 3.0, 5.0], None);
    assert_eq!(ev.expect("ok"), 1.0);
    // A constant 0.1 (not exactly representable): detected exactly, no rounding artefact.
    let c = array![0.1, 0.1, 0.1];
    assert_eq!(r2_score(&c, &array![0.1, 0.2, 0.1], None).expect("ok"), 0.0);
}

#[test]
fn multioutput() {
    let t = array![[0.5, 1.0], [-1.0, 1.0], [7.0, -6.0]];
    let p = array![[0.0, 2.0], [-1.0, 2.0], [8.0, -5.0]];
    let raw = regression_raw_values(RegressionMetric::MeanSquaredError, &t, &p, None).expect("ok");
    // Column 0: (0.25 + 0 + 1)/3; column 1: (1 + 1 + 1)/3.
    assert_eq!(raw.to_vec(), vec![1.25 / 3.0, 1.0]);
    let uni = regression_multioutput(
        RegressionMetric::MeanSquaredError,
        &t,
        &p,
        None,
        &MultiOutput::UniformAverage,
    )
    .expect("ok");
    assert!((uni - (1.25 / 3.0 + 1.0) / 2.0).abs() < 1e-15);
    let cus = regression_multioutput(
        RegressionMetric::MeanSquaredError,
        &t,
        &p,
        None,
        &MultiOutput::Weights(vec![0.3, 0.7]),
    )
    .expect("ok");
    assert!((cus - (0.3 * 1.25 / 3.0 + 0.7)).abs() < 1e-15);
    let rmse =
        regression_raw_values(RegressionMetric::RootMeanSquaredError, &t, &p, None).expect("ok");
    assert_eq!(rmse[1], 1.0);
    // Variance weighting of R²: weights are the columns' total sums of squares.
    let r2 = regression_raw_values(RegressionMetric::R2, &t, &p, None).expect("ok");
    let vw = regression_multioutput(
        RegressionMetric::R2,
        &t,
        &p,
        None,
        &MultiOutput::VarianceWeighted,
    )
    .expect("ok");
    let tss = |j: usize| {
        let c = t.column(j);
        let m = c.mean().expect("non-empty");
        c.iter().map(|v| (v - m) * (v - m)).sum::<f64>()
    };
    let want = (r2[0] * tss(0) + r2[1] * tss(1)) / (tss(0) + tss(1));
    assert!((vw - want).abs() < 1e-14);
    // Single-column agreement with the 1-D function.
    let one = regression_raw_values(RegressionMetric::MeanAbsoluteError, &t, &p, None).expect("ok");
    let col0 = mean_absolute_error(&t.column(0), &p.column(0), None).expect("ok");
    assert_eq!(one[0], col0);
}

#[test]
fn error_paths() {
    let t = array![1.0, 2.0];
    let e = Array1::<f64>::zeros(0);
    assert!(matches!(
        mean_squared_error(&t, &array![1.0], None),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        mean_absolute_error(&e, &e, None),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        rss(&t, &array![1.0, f64::NAN], None),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        r2_score(&array![1.0], &array![1.0], None),
        Err(Error::TooFewSamples { .. })
    ));
    assert!(matches!(
        mean_squared_error(&t, &t, Some(&array![0.0, 0.0])),
        Err(Error::InvalidParam { .. })
    ));
    let m = array![[1.0, 2.0], [3.0, 4.0]];
    assert!(matches!(
        regression_multioutput(
            RegressionMetric::MeanSquaredError,
            &m,
            &m,
            None,
            &MultiOutput::VarianceWeighted
        ),
        Err(Error::InvalidParam {
            name: "multioutput",
            ..
        })
    ));
    assert!(matches!(
        regression_multioutput(
            RegressionMetric::R2,
            &m,
            &m,
            None,
            &MultiOutput::Weights(vec![1.0])
        ),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        regression_multioutput(
            RegressionMetric::R2,
            &m,
            &m,
            None,
            &MultiOutput::Weights(vec![1.0, -1.0])
        ),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        regression_raw_values(RegressionMetric::R2, &m, &array![[1.0, 2.0]], None),
        Err(Error::ShapeMismatch { .. })
    ));
    let no_cols = ndarray::Array2::<f64>::zeros((2, 0));
    assert!(regression_raw_values(RegressionMetric::R2, &no_cols, &no_cols, None).is_err());
}
