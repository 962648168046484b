//! Self-tests of the conformance battery: tiny correct estimators pass every applicable check;
//! deliberately broken variants fail exactly the check that targets their bug.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::{Error, Fit, FitUnsupervised, Predict, Result, Transform, linalg, validate};
use ndlearn_testkit::conformance::{Battery, Check, Report, Status};
use serde::{Deserialize, Serialize};

// ---------------------------------------------------------------------------------------------
// Least squares regressor, with fault-injection switches.

/// Ordinary least squares with an intercept (centred data, minimum-norm `lstsq`).
#[derive(Debug, Clone, Copy, Default)]
struct LeastSquares {
    /// Bug: asserts there is no NaN instead of returning an error.
    nan_panics: bool,
    /// Bug: predicts with however many features it is given.
    ignore_feature_count: bool,
    /// Bug: keeps the intercept in a field serde skips.
    lossy_serde: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FittedLeastSquares {
    coef: Array1<f64>,
    intercept: f64,
    #[serde(skip)]
    hidden_intercept: f64,
    nan_panics: bool,
    ignore_feature_count: bool,
}

impl Fit<f64> for LeastSquares {
    type Target = ArrayRef1<f64>;
    type Model = FittedLeastSquares;

    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedLeastSquares> {
        if self.nan_panics {
            assert!(
                !x.iter().chain(y.iter()).any(|v| v.is_nan()),
                "NaN in the input"
            );
        }
        validate::check_regression_input(x, y, 1, "LeastSquares")?;
        let x_mean = x.mean_axis(Axis(0)).expect("at least one row");
        let y_mean = y.mean().expect("at least one target");
        let xc = x - &*x_mean;
        let yc = y - y_mean;
        let coef = linalg::lstsq(&xc, &yc, None)?.solution;
        let intercept = y_mean - x_mean.dot(&coef);
        let (intercept, hidden_intercept) = if self.lossy_serde {
            (0.0, intercept)
        } else {
            (intercept, 0.0)
        };
        Ok(FittedLeastSquares {
            coef,
            intercept,
            hidden_intercept,
            nan_panics: self.nan_panics,
            ignore_feature_count: self.ignore_feature_count,
        })
    }
}

impl Predict<f64> for FittedLeastSquares {
    type Output = Array1<f64>;

    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
        if self.nan_panics {
            assert!(!x.iter().any(|v| v.is_nan()), "NaN in the input");
        }
        let offset = self.intercept + self.hidden_intercept;
        if self.ignore_feature_count {
            validate::check_finite_2d(x, "X")?;
            let k = x.ncols().min(self.coef.len());
            return Ok(x.slice(s![.., ..k]).dot(&self.coef.slice(s![..k])) + offset);
        }
        validate::check_predict_input(x, self.coef.len(), "LeastSquares::predict")?;
        Ok(x.dot(&self.coef) + offset)
    }
}

// ---------------------------------------------------------------------------------------------
// Nearest-centroid classifier.

#[derive(Debug, Clone, Copy, Default)]
struct NearestCentroid;

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FittedNearestCentroid {
    /// One row per class index; rows of classes without samples are zero and unused.
    centroids: Array2<f64>,
    present: Vec<bool>,
}

impl Fit<f64> for NearestCentroid {
    type Target = ArrayRef1<usize>;
    type Model = FittedNearestCentroid;

    fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<usize>) -> Result<FittedNearestCentroid> {
        let k = validate::check_classification_input(x, y, 1, "NearestCentroid")?;
        let mut centroids = Array2::<f64>::zeros((k, x.ncols()));
        let mut counts = vec![0usize; k];
        for (row, &label) in x.rows().into_iter().zip(y.iter()) {
            let mut c = centroids.row_mut(label);
            c += &row;
            counts[label] += 1;
        }
        for (mut c, &n) in centroids.rows_mut().into_iter().zip(&counts) {
            if n > 0 {
                c /= n as f64;
            }
        }
        Ok(FittedNearestCentroid {
            centroids,
            present: counts.iter().map(|&n| n > 0).collect(),
        })
    }
}

impl Predict<f64> for FittedNearestCentroid {
    type Output = Array1<usize>;

    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
        validate::check_predict_input(x, self.centroids.ncols(), "NearestCentroid::predict")?;
        Ok(x.rows()
            .into_iter()
            .map(|row| {
                let mut best: Option<(usize, f64)> = None;
                for (k, c) in self.centroids.rows().into_iter().enumerate() {
                    if !self.present[k] {
                        continue;
                    }
                    let d = (&row - &c).mapv(|v| v * v).sum();
                    if best.is_none_or(|(_, b)| d < b) {
                        best = Some((k, d));
                    }
                }
                best.expect("at least one class present").0
            })
            .collect())
    }
}

// ---------------------------------------------------------------------------------------------
// Standard scaler (transformer).

#[derive(Debug, Clone, Copy)]
struct Scaler {
    /// `false` is the bug: divide by a zero standard deviation.
    guard_zero_std: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FittedScaler {
    mean: Array1<f64>,
    scale: Array1<f64>,
}

impl FitUnsupervised<f64> for Scaler {
    type Model = FittedScaler;

    fn fit(&self, x: &ArrayRef2<f64>) -> Result<FittedScaler> {
        validate::check_fit_input(x, 2, "Scaler")?;
        let mean = x.mean_axis(Axis(0)).expect("at least two rows");
        let centred = x - &*mean;
        // Scale-safe standard deviation: divide by the largest deviation before squaring.
        let scale = centred
            .columns()
            .into_iter()
            .map(|c| {
                let m = c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                let std = if m == 0.0 {
                    0.0
                } else {
                    m * c.mapv(|v| (v / m) * (v / m)).mean().expect("rows").sqrt()
                };
                if self.guard_zero_std && std == 0.0 {
                    1.0
                } else {
                    std
                }
            })
            .collect();
        Ok(FittedScaler { mean, scale })
    }
}

impl Transform<f64> for FittedScaler {
    fn transform(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.mean.len(), "Scaler::transform")?;
        Ok((x - &*self.mean) / &self.scale)
    }
}

// ---------------------------------------------------------------------------------------------
// Two-centre clusterer.

#[derive(Debug, Clone, Copy, Default)]
struct TwoCentres {
    /// Bug: the labels depend on the size of the rayon pool.
    thread_dependent: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct FittedTwoCentres {
    centres: Array2<f64>,
    thread_dependent: bool,
}

fn sq_dist(a: ndarray::ArrayView1<'_, f64>, b: ndarray::ArrayView1<'_, f64>) -> f64 {
    (&a - &b).mapv(|v| v * v).sum()
}

fn nearest(centres: &Array2<f64>, row: ndarray::ArrayView1<'_, f64>) -> usize {
    usize::from(sq_dist(row, centres.row(1)) < sq_dist(row, centres.row(0)))
}

impl FitUnsupervised<f64> for TwoCentres {
    type Model = FittedTwoCentres;

    fn fit(&self, x: &ArrayRef2<f64>) -> Result<FittedTwoCentres> {
        validate::check_fit_input(x, 2, "TwoCentres")?;
        // Start from row 0 and the row farthest from it, then one Lloyd step.
        let d0: Vec<f64> = x.rows().into_iter().map(|r| sq_dist(r, x.row(0))).collect();
        let far = (0..d0.len()).fold(0, |best, i| if d0[i] > d0[best] { i } else { best });
        if d0[far] == 0.0 {
            return Err(Error::invalid_param(
                "n_clusters",
                "the data has fewer than 2 distinct rows",
            ));
        }
        let start = ndarray::stack(Axis(0), &[x.row(0), x.row(far)]).expect("same length rows");
        let mut centres = Array2::<f64>::zeros(start.dim());
        let mut counts = [0usize; 2];
        for row in x.rows() {
            let k = nearest(&start, row);
            let mut c = centres.row_mut(k);
            c += &row;
            counts[k] += 1;
        }
        for (k, n) in counts.into_iter().enumerate() {
            let mut c = centres.row_mut(k);
            c /= n as f64; // both starting rows are their own nearest centre, so n >= 1
        }
        Ok(FittedTwoCentres {
            centres,
            thread_dependent: self.thread_dependent,
        })
    }
}

impl Predict<f64> for FittedTwoCentres {
    type Output = Array1<usize>;

    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
        validate::check_predict_input(x, self.centres.ncols(), "TwoCentres::predict")?;
        let shift = if self.thread_dependent {
            rayon::current_num_threads() - 1
        } else {
            0
        };
        Ok(x.rows()
            .into_iter()
            .map(|r| (nearest(&self.centres, r) + shift) % 2)
            .collect())
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

fn assert_failed_exactly(report: &Report, expected: &[Check]) {
    assert_eq!(report.failed(), expected, "unexpected failures:\n{report}");
    for &c in expected {
        assert!(
            !report.result(c).messages.is_empty(),
            "a failed check must say why:\n{report}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Correct estimators pass.

/// The skipped checks other than the registry-only ones (which a direct battery always skips).
fn local_skips(report: &Report) -> Vec<Check> {
    let skipped = report.skipped();
    for c in Check::ALL.iter().filter(|c| c.is_registry_only()) {
        assert!(
            skipped.contains(c),
            "{c} should be skipped outside the registry battery"
        );
    }
    skipped
        .into_iter()
        .filter(|c| !c.is_registry_only())
        .collect()
}

fn registry_only() -> usize {
    Check::ALL.iter().filter(|c| c.is_registry_only()).count()
}

#[test]
fn correct_regressor_passes() {
    let report = Battery::new("LeastSquares").regressor(&LeastSquares::default());
    report.assert_ok();
    assert_eq!(report.kind(), "regressor");
    assert_eq!(
        local_skips(&report),
        vec![Check::OneClass, Check::KGreaterThanN]
    );
    assert_eq!(
        report.passed().len(),
        Check::ALL.len() - 2 - registry_only()
    );
    assert!(report.result(Check::OneClass).messages[0].contains("not applicable"));
}

#[test]
fn correct_classifier_passes() {
    let report = Battery::new("NearestCentroid").classifier(&NearestCentroid);
    report.assert_ok();
    assert_eq!(local_skips(&report), vec![Check::KGreaterThanN]);
    // Both one-class fits succeed and predict the single class.
    let notes = &report.result(Check::OneClass).messages;
    assert!(
        notes.iter().any(|m| m.contains("predicts 1 everywhere")),
        "{notes:?}"
    );
}

#[test]
fn correct_transformer_passes() {
    let report = Battery::new("Scaler").transformer(&Scaler {
        guard_zero_std: true,
    });
    report.assert_ok();
    assert_eq!(
        local_skips(&report),
        vec![Check::TargetLength, Check::OneClass]
    );
    // One row is rejected with a typed error, which the battery accepts and notes.
    let notes = &report.result(Check::OneRow).messages;
    assert!(
        notes.iter().any(|m| m.contains("TooFewSamples")),
        "{notes:?}"
    );
}

#[test]
fn correct_clusterer_passes() {
    let report = Battery::new("TwoCentres").clusterer(&TwoCentres::default());
    report.assert_ok();
    assert_eq!(report.kind(), "clusterer");
    assert_eq!(report.status(Check::KGreaterThanN), Status::Passed);
    assert_eq!(report.status(Check::SendSync), Status::Passed);
}

// ---------------------------------------------------------------------------------------------
// Broken estimators fail exactly their check.

#[test]
fn panicking_on_nan_fails_only_nan() {
    let est = LeastSquares {
        nan_panics: true,
        ..Default::default()
    };
    let report = Battery::new("NanPanics").regressor(&est);
    assert_failed_exactly(&report, &[Check::NaN]);
    let msgs = &report.result(Check::NaN).messages;
    // NaN in X at fit, in y at fit, and in X at predict: three panicking steps.
    assert_eq!(msgs.len(), 3, "{msgs:?}");
    assert!(
        msgs.iter()
            .all(|m| m.contains("panicked: NaN in the input")),
        "{msgs:?}"
    );
}

#[test]
fn ignoring_feature_count_fails_only_wrong_features() {
    let est = LeastSquares {
        ignore_feature_count: true,
        ..Default::default()
    };
    let report = Battery::new("IgnoresFeatures").regressor(&est);
    assert_failed_exactly(&report, &[Check::WrongFeatures]);
    let msgs = &report.result(Check::WrongFeatures).messages;
    assert_eq!(
        msgs.len(),
        2,
        "both d + 1 and d - 1 must be reported: {msgs:?}"
    );
    assert!(
        msgs[0].contains("expected Err(ShapeMismatch), got Ok"),
        "{msgs:?}"
    );
}

#[test]
fn nan_on_constant_columns_fails_only_constant_columns() {
    let report = Battery::new("UnguardedScaler").transformer(&Scaler {
        guard_zero_std: false,
    });
    assert_failed_exactly(&report, &[Check::ConstantColumns]);
    let msgs = &report.result(Check::ConstantColumns).messages;
    assert!(msgs.iter().all(|m| m.contains("non-finite")), "{msgs:?}");
}

#[test]
fn lossy_serde_fails_only_serde_round_trip() {
    let est = LeastSquares {
        lossy_serde: true,
        ..Default::default()
    };
    let report = Battery::new("LossySerde").regressor(&est);
    assert_failed_exactly(&report, &[Check::SerdeRoundTrip]);
    let msg = &report.result(Check::SerdeRoundTrip).messages[0];
    assert!(msg.contains("differ bitwise"), "{msg}");
}

#[test]
fn thread_dependent_output_fails_only_thread_invariance() {
    let est = TwoCentres {
        thread_dependent: true,
    };
    let report = Battery::new("ThreadDependent").clusterer(&est);
    assert_failed_exactly(&report, &[Check::ThreadInvariance]);
    let msg = &report.result(Check::ThreadInvariance).messages[0];
    assert!(msg.contains("2 thread(s) differ from 1 thread(s)"), "{msg}");
}

// ---------------------------------------------------------------------------------------------
// Options and reporting.

#[test]
fn skipped_checks_are_not_run() {
    let est = LeastSquares {
        nan_panics: true,
        ..Default::default()
    };
    let report = Battery::new("NanPanics")
        .skip(Check::NaN)
        .skip(Check::NaN)
        .threads(&[1])
        .regressor(&est);
    report.assert_ok();
    assert_eq!(report.status(Check::NaN), Status::Skipped);
    assert_eq!(
        report.result(Check::NaN).messages,
        vec!["skipped by the caller"]
    );
    let notes = &report.result(Check::ThreadInvariance).messages;
    assert!(notes[0].contains("only one thread count"), "{notes:?}");
}

#[test]
fn thread_counts_are_configurable() {
    let est = TwoCentres {
        thread_dependent: true,
    };
    // With a single count there is nothing to compare; with 2 and 3 the bug shows (the
    // broken labels flip with the parity of the pool size).
    assert!(Battery::new("t").threads(&[2]).clusterer(&est).is_ok());
    assert!(Battery::new("t").threads(&[1, 3]).clusterer(&est).is_ok());
    let report = Battery::new("t").threads(&[2, 3]).clusterer(&est);
    assert_eq!(report.failed(), vec![Check::ThreadInvariance]);
    let msg = &report.result(Check::ThreadInvariance).messages[0];
    assert!(msg.contains("3 thread(s) differ from 2 thread(s)"), "{msg}");
}

#[test]
fn report_display_lists_every_check() {
    let est = LeastSquares {
        ignore_feature_count: true,
        ..Default::default()
    };
    let report = Battery::new("IgnoresFeatures").regressor(&est);
    let text = report.to_string();
    let head = format!(
        "conformance battery for `IgnoresFeatures` (regressor): 11 passed, 1 failed, {} skipped",
        2 + registry_only()
    );
    assert!(text.starts_with(&head), "{text}");
    assert!(text.contains("FAIL  WrongFeatures"), "{text}");
    assert!(text.contains("skip  OneClass"), "{text}");
    for c in Check::ALL {
        assert!(text.contains(c.name()), "{c} missing:\n{text}");
    }
    // The alternate form adds the notes of passed checks.
    let full = format!("{report:#}");
    assert!(full.contains("checked at compile time"), "{full}");
    assert!(!text.contains("checked at compile time"));
}

#[test]
#[should_panic(expected = "`NanPanics` failed 1 conformance check(s): NaN")]
fn assert_ok_panics_listing_failures() {
    let est = LeastSquares {
        nan_panics: true,
        ..Default::default()
    };
    Battery::new("NanPanics").regressor(&est).assert_ok();
}
