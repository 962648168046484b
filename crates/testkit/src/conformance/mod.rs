//! The conformance battery every ndlearn estimator runs: one call per estimator.
//!
//! ```ignore
//! use ndlearn_testkit::conformance::{Battery, Check};
//!
//! #[test]
//! fn ridge_conforms() {
//!     Battery::new("Ridge").regressor(&Ridge::default()).assert_ok();
//!     Battery::new("KMeans").skip(Check::HugeScale).clusterer(&KMeans::new(3)).assert_ok();
//! }
//! ```
//!
//! The battery fits the estimator on small deterministic data sets built here (see
//! [`benign_regression`], [`benign_classification`]) and on broken variants of them, and checks
//! that bad input gives a typed [`Error`] (never a panic) and good input a correct-shaped, finite
//! answer. Every step runs under [`std::panic::catch_unwind`], so a panic becomes a failed check
//! (`"panicked: <message> (at file:line:col)"`) and the battery goes on; while a step runs, the
//! default panic output of the current thread is silenced (set `NDLEARN_TESTKIT_SHOW_PANICS=1` to
//! see it).
//!
//! | check | applies to | requirement |
//! |---|---|---|
//! | [`Check::NaN`] | all | NaN in `X` at fit, in `y` at fit (regressors), in `X` at predict/transform → `Err(NonFinite)` |
//! | [`Check::Inf`] | all | the same with `+∞` / `−∞` |
//! | [`Check::Empty`] | all | fit on 0 rows → `Err(TooFewSamples \| ShapeMismatch \| InvalidParam)`; fit on 0 columns → the same; predict on 0 rows → `Ok` with 0 rows, or `Err` |
//! | [`Check::OneRow`] | all | fit on 1 row → `Err`, or `Ok` and predicting that row gives 1 finite output |
//! | [`Check::WrongFeatures`] | all | fit with `d`, predict with `d + 1` and `d − 1` columns → `Err(ShapeMismatch)` |
//! | [`Check::TargetLength`] | supervised | `y` one shorter / one longer than `X` → `Err(ShapeMismatch)` |
//! | [`Check::OneClass`] | classifiers | all labels equal (0, then 1) → `Err(TooFewClasses)`, or `Ok` predicting that label everywhere |
//! | [`Check::ConstantColumns`] | all | one / all columns constant → `Err(InvalidParam \| Linalg \| TooFewSamples)`, or `Ok` with finite outputs on the training data *and* on the normal data |
//! | [`Check::HugeScale`] | all | data (and `y`) × 1e300 → `Err`, or `Ok` with finite outputs |
//! | [`Check::TinyScale`] | all | data (and `y`) × 1e-300 → the same |
//! | [`Check::KGreaterThanN`] | clusterers, transformers | fit on 2 rows → `Err`, or `Ok` with finite outputs |
//! | [`Check::SerdeRoundTrip`] | all | JSON → model → JSON gives the same text; outputs of the round-tripped model are bitwise equal |
//! | [`Check::ThreadInvariance`] | all | fit + predict inside `par::with_threads(t, ..)` for each thread count: bitwise equal outputs and identical model JSON |
//! | [`Check::SendSync`] | all | estimator and model are `Send + Sync` (enforced at compile time) |
//!
//! "Finite outputs" means: the right number of rows and, for float outputs, no NaN or infinity.
//! The thread check uses a larger data set (300 rows) so that row-chunked parallel code runs
//! more than one chunk.

use std::cell::{Cell, RefCell};
use std::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Once;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::{Error, Fit, FitUnsupervised, Predict, Transform, par, random};
use serde::Serialize;
use serde::de::DeserializeOwned;

pub mod registry;

use crate::strategies;
use crate::tolerance::bitwise_diff;

// ---------------------------------------------------------------------------------------------
// Public types

/// One check of the battery (see the [module docs](self) for what each requires).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Check {
    /// NaN in the inputs must give `Err(NonFinite)`.
    NaN,
    /// ±infinity in the inputs must give `Err(NonFinite)`.
    Inf,
    /// Zero rows or zero columns at fit must give a typed error.
    Empty,
    /// One training row: a typed error or a finite answer.
    OneRow,
    /// A feature count at predict different from the fit must give `Err(ShapeMismatch)`.
    WrongFeatures,
    /// A target whose length differs from the number of rows must give `Err(ShapeMismatch)`.
    TargetLength,
    /// A single class: `Err(TooFewClasses)` or predicting that class.
    OneClass,
    /// Constant columns: a typed error or finite outputs.
    ConstantColumns,
    /// Data scaled by 1e300: a typed error or finite outputs.
    HugeScale,
    /// Data scaled by 1e-300: a typed error or finite outputs.
    TinyScale,
    /// Fewer samples than the estimator may need (2 rows): a typed error or finite outputs.
    KGreaterThanN,
    /// serde JSON round trip of the fitted model is exact.
    SerdeRoundTrip,
    /// Results are bitwise identical for every thread count.
    ThreadInvariance,
    /// Estimator and model are `Send + Sync`.
    SendSync,
    /// (Registry battery) hyperparameters are validated before the data are touched.
    ValidatesFirst,
    /// (Registry battery) `predict_proba` rows are distributions agreeing with `predict`.
    Probabilities,
    /// (Registry battery) decision scores have the contract's shape and agree with `predict`.
    DecisionScores,
    /// (Registry battery) integer sample weights equal repeated rows.
    SampleWeights,
    /// (Registry battery) `partial_fit` over one batch equals `fit` (where exact).
    PartialFit,
    /// (Registry battery) feature importances: one per feature, finite, non-negative.
    FeatureImportances,
    /// (Registry battery) two fits give identical model files.
    Reproducible,
}

impl Check {
    /// Every check, in the order the battery runs them.
    pub const ALL: [Check; 21] = [
        Check::NaN,
        Check::Inf,
        Check::Empty,
        Check::OneRow,
        Check::WrongFeatures,
        Check::TargetLength,
        Check::OneClass,
        Check::ConstantColumns,
        Check::HugeScale,
        Check::TinyScale,
        Check::KGreaterThanN,
        Check::SerdeRoundTrip,
        Check::ThreadInvariance,
        Check::SendSync,
        Check::ValidatesFirst,
        Check::Probabilities,
        Check::DecisionScores,
        Check::SampleWeights,
        Check::PartialFit,
        Check::FeatureImportances,
        Check::Reproducible,
    ];

    /// The check's name (as written in the enum).
    pub fn name(self) -> &'static str {
        match self {
            Check::NaN => "NaN",
            Check::Inf => "Inf",
            Check::Empty => "Empty",
            Check::OneRow => "OneRow",
            Check::WrongFeatures => "WrongFeatures",
            Check::TargetLength => "TargetLength",
            Check::OneClass => "OneClass",
            Check::ConstantColumns => "ConstantColumns",
            Check::HugeScale => "HugeScale",
            Check::TinyScale => "TinyScale",
            Check::KGreaterThanN => "KGreaterThanN",
            Check::SerdeRoundTrip => "SerdeRoundTrip",
            Check::ThreadInvariance => "ThreadInvariance",
            Check::SendSync => "SendSync",
            Check::ValidatesFirst => "ValidatesFirst",
            Check::Probabilities => "Probabilities",
            Check::DecisionScores => "DecisionScores",
            Check::SampleWeights => "SampleWeights",
            Check::PartialFit => "PartialFit",
            Check::FeatureImportances => "FeatureImportances",
            Check::Reproducible => "Reproducible",
        }
    }

    /// Whether the check needs a registry entry (its capabilities), run by
    /// [`Battery::entry`] only.
    pub fn is_registry_only(self) -> bool {
        matches!(
            self,
            Check::ValidatesFirst
                | Check::Probabilities
                | Check::DecisionScores
                | Check::SampleWeights
                | Check::PartialFit
                | Check::FeatureImportances
                | Check::Reproducible
        )
    }

    fn applies_to(self, kind: Kind) -> bool {
        match self {
            Check::TargetLength => matches!(kind, Kind::Regressor | Kind::Classifier),
            Check::OneClass => kind == Kind::Classifier,
            Check::KGreaterThanN => matches!(
                kind,
                Kind::Clusterer | Kind::Transformer | Kind::OutlierDetector
            ),
            _ => true,
        }
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Outcome of one check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Every step of the check met its requirement.
    Passed,
    /// At least one step failed (or panicked).
    Failed,
    /// Not run: skipped by the caller or not applicable to this kind of estimator.
    Skipped,
}

/// The outcome of one check with its messages.
#[derive(Debug, Clone)]
pub struct CheckResult {
    /// Which check.
    pub check: Check,
    /// Passed, failed or skipped.
    pub status: Status,
    /// For a failed check, one line per failed step; for a skipped check, the reason; for a
    /// passed check, notes on accepted alternatives (e.g. "fit on one row returned
    /// Err(TooFewSamples), accepted").
    pub messages: Vec<String>,
}

/// The results of a battery run, one [`CheckResult`] per [`Check`] (in [`Check::ALL`] order).
#[derive(Debug, Clone)]
pub struct Report {
    name: String,
    kind: &'static str,
    results: Vec<CheckResult>,
}

impl Report {
    /// The estimator name given to [`Battery::new`].
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The kind of estimator tested: "regressor", "classifier", "clusterer" or "transformer".
    pub fn kind(&self) -> &str {
        self.kind
    }

    /// Every check's result, in [`Check::ALL`] order.
    pub fn results(&self) -> &[CheckResult] {
        &self.results
    }

    /// The result of one check.
    pub fn result(&self, check: Check) -> &CheckResult {
        self.results
            .iter()
            .find(|r| r.check == check)
            .expect("a report holds a result for every check")
    }

    /// The status of one check.
    pub fn status(&self, check: Check) -> Status {
        self.result(check).status
    }

    fn with_status(&self, status: Status) -> Vec<Check> {
        self.results
            .iter()
            .filter(|r| r.status == status)
            .map(|r| r.check)
            .collect()
    }

    /// The checks that failed.
    pub fn failed(&self) -> Vec<Check> {
        self.with_status(Status::Failed)
    }

    /// The checks that passed.
    pub fn passed(&self) -> Vec<Check> {
        self.with_status(Status::Passed)
    }

    /// The checks that were skipped (by the caller, or not applicable).
    pub fn skipped(&self) -> Vec<Check> {
        self.with_status(Status::Skipped)
    }

    /// `true` when no check failed.
    pub fn is_ok(&self) -> bool {
        self.failed().is_empty()
    }

    /// Panics, listing every failed check with its messages, unless all checks passed or were
    /// skipped.
    #[track_caller]
    pub fn assert_ok(&self) {
        if !self.is_ok() {
            let names: Vec<&str> = self.failed().iter().map(|c| c.name()).collect();
            panic!(
                "`{}` failed {} conformance check(s): {}\n{self}",
                self.name,
                names.len(),
                names.join(", ")
            );
        }
    }
}

impl fmt::Display for Report {
    /// One line per check with its failure messages (and skip reasons); the alternate form
    /// (`{:#}`) also prints the course notes of passed checks.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "conformance battery for `{}` ({}): {} passed, {} failed, {} skipped",
            self.name,
            self.kind,
            self.passed().len(),
            self.failed().len(),
            self.skipped().len()
        )?;
        for r in &self.results {
            let tag = match r.status {
                Status::Passed => "ok  ",
                Status::Failed => "FAIL",
                Status::Skipped => "skip",
            };
            writeln!(f, "  {tag}  {}", r.check)?;
            if r.status != Status::Passed || f.alternate() {
                for m in &r.messages {
                    writeln!(f, "          - {}", m.replace('\n', "\n            "))?;
                }
            }
        }
        Ok(())
    }
}

/// The conformance battery: options, then one of [`Battery::regressor`],
/// [`Battery::classifier`], [`Battery::clusterer`], [`Battery::transformer`].
#[derive(Debug, Clone)]
pub struct Battery {
    name: String,
    skipped: Vec<Check>,
    threads: Vec<usize>,
}

fn assert_send_sync<T: Send + Sync + ?Sized>() {}

impl Battery {
    /// A battery for the estimator called `name` (used in messages), running every check, with
    /// thread counts `[1, 2]`.
    pub fn new(name: &str) -> Self {
        Battery {
            name: name.to_string(),
            skipped: Vec::new(),
            threads: vec![1, 2],
        }
    }

    /// Skips `check` (it is reported as skipped). Use sparingly and say why in the test.
    #[must_use]
    pub fn skip(mut self, check: Check) -> Self {
        if !self.skipped.contains(&check) {
            self.skipped.push(check);
        }
        self
    }

    /// The thread counts compared by [`Check::ThreadInvariance`] (default `[1, 2]`; `0` means
    /// rayon's default).
    #[must_use]
    pub fn threads(mut self, counts: &[usize]) -> Self {
        self.threads = counts.to_vec();
        self
    }

    /// Runs the battery on a regressor (`y: ArrayRef1<f64>`, predictions `Array1<f64>`).
    pub fn regressor<E>(&self, est: &E) -> Report
    where
        E: Fit<f64, Target = ArrayRef1<f64>> + Send + Sync,
        E::Model: Predict<f64, Output = Array1<f64>> + Serialize + DeserializeOwned + Send + Sync,
    {
        assert_send_sync::<E>();
        assert_send_sync::<E::Model>();
        self.run(&AsRegressor(est))
    }

    /// Runs the battery on a classifier (labels `0..n_classes`, predictions `Array1<usize>`).
    pub fn classifier<E>(&self, est: &E) -> Report
    where
        E: Fit<f64, Target = ArrayRef1<usize>> + Send + Sync,
        E::Model: Predict<f64, Output = Array1<usize>> + Serialize + DeserializeOwned + Send + Sync,
    {
        assert_send_sync::<E>();
        assert_send_sync::<E::Model>();
        self.run(&AsClassifier(est))
    }

    /// Runs the battery on a clusterer (unsupervised fit, predictions `Array1<usize>`).
    pub fn clusterer<E>(&self, est: &E) -> Report
    where
        E: FitUnsupervised<f64> + Send + Sync,
        E::Model: Predict<f64, Output = Array1<usize>> + Serialize + DeserializeOwned + Send + Sync,
    {
        assert_send_sync::<E>();
        assert_send_sync::<E::Model>();
        self.run(&AsClusterer(est))
    }

    /// Runs the battery on a transformer (unsupervised fit, `transform` to `Array2<f64>`).
    pub fn transformer<E>(&self, est: &E) -> Report
    where
        E: FitUnsupervised<f64> + Send + Sync,
        E::Model: Transform<f64> + Serialize + DeserializeOwned + Send + Sync,
    {
        assert_send_sync::<E>();
        assert_send_sync::<E::Model>();
        self.run(&AsTransformer(est))
    }

    fn run<S: Subject>(&self, s: &S) -> Report {
        let kind = s.kind();
        let data = Data::benign(kind, false);
        let mut results = Vec::with_capacity(Check::ALL.len());
        for check in Check::ALL {
            if check.is_registry_only() {
                results.push(CheckResult {
                    check,
                    status: Status::Skipped,
                    messages: vec!["run by the registry battery (Battery::entry) only".into()],
                });
                continue;
            }
            if !check.applies_to(kind) {
                results.push(CheckResult {
                    check,
                    status: Status::Skipped,
                    messages: vec![format!("not applicable to a {}", kind.name())],
                });
                continue;
            }
            if self.skipped.contains(&check) {
                results.push(CheckResult {
                    check,
                    status: Status::Skipped,
                    messages: vec!["skipped by the caller".into()],
                });
                continue;
            }
            let mut ctx = Ctx::default();
            run_check(check, s, &data, &self.threads, &mut ctx);
            results.push(ctx.finish(check));
        }
        Report {
            name: self.name.clone(),
            kind: kind.name(),
            results,
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Benign data

const D: usize = 3;
const BENIGN_ROWS: usize = 40;
const BENIGN_PER_CLASS: usize = 15;
const THREAD_ROWS: usize = 300;
const N_CLASSES: usize = 3;

/// The battery's regression data: `n × 3` features (one standard normal column, one correlated
/// with it, one on a 10× larger scale) and `y = X w + 0.7 + 0.01 ε`, all from a fixed seed.
pub fn benign_regression(n: usize) -> (Array2<f64>, Array1<f64>) {
    let mut rng = random::rng(0x6E64_6C65_6172_6E01);
    let mut x = Array2::<f64>::zeros((n, D));
    let mut y = Array1::<f64>::zeros(n);
    let w = [1.5, -2.0, 0.05];
    for i in 0..n {
        let a: f64 = random::standard_normal(&mut rng);
        let b: f64 = random::standard_normal(&mut rng);
        let c: f64 = random::uniform(&mut rng, -30.0, 30.0);
        x[[i, 0]] = a;
        x[[i, 1]] = 0.5 * a + 0.8 * b;
        x[[i, 2]] = c;
        let noise: f64 = random::standard_normal(&mut rng);
        y[i] = w[0] * x[[i, 0]] + w[1] * x[[i, 1]] + w[2] * x[[i, 2]] + 0.7 + 0.01 * noise;
    }
    (x, y)
}

/// The battery's classification (and clustering) data: three well-separated blobs in 3
/// dimensions ([`strategies::separable_blobs`]' generator with a fixed seed), `per_class` rows
/// each, shuffled; labels `0, 1, 2`.
pub fn benign_classification(per_class: usize) -> (Array2<f64>, Array1<usize>) {
    strategies::blobs(per_class, D, N_CLASSES, 0x6E64_6C65_6172_6E02)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Regressor,
    Classifier,
    Clusterer,
    Transformer,
    OutlierDetector,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Regressor => "regressor",
            Kind::Classifier => "classifier",
            Kind::Clusterer => "clusterer",
            Kind::Transformer => "transformer",
            Kind::OutlierDetector => "outlier detector",
        }
    }
}

#[derive(Debug, Clone)]
enum Target {
    None,
    Real(Array1<f64>),
    Labels(Array1<usize>),
}

impl Target {
    fn select(&self, rows: &[usize]) -> Target {
        match self {
            Target::None => Target::None,
            Target::Real(y) => Target::Real(y.select(Axis(0), rows)),
            Target::Labels(y) => Target::Labels(y.select(Axis(0), rows)),
        }
    }

    fn scaled(&self, factor: f64) -> Target {
        match self {
            Target::Real(y) => Target::Real(y * factor),
            other => other.clone(),
        }
    }

    /// The target resized to `n - 1` (last entry dropped) or `n + 1` (`longer`: first entry
    /// repeated at the end).
    fn resized(&self, n: usize, longer: bool) -> Target {
        let idx: Vec<usize> = if longer {
            (0..n).chain(std::iter::once(0)).collect()
        } else {
            (0..n - 1).collect()
        };
        self.select(&idx)
    }
}

#[derive(Debug, Clone)]
struct Data {
    x: Array2<f64>,
    y: Target,
}

impl Data {
    fn benign(kind: Kind, large: bool) -> Data {
        let (n, per) = if large {
            (THREAD_ROWS, THREAD_ROWS / N_CLASSES)
        } else {
            (BENIGN_ROWS, BENIGN_PER_CLASS)
        };
        match kind {
            Kind::Regressor => {
                let (x, y) = benign_regression(n);
                Data {
                    x,
                    y: Target::Real(y),
                }
            }
            Kind::Classifier => {
                let (x, y) = benign_classification(per);
                Data {
                    x,
                    y: Target::Labels(y),
                }
            }
            Kind::Clusterer | Kind::OutlierDetector => Data {
                x: benign_classification(per).0,
                y: Target::None,
            },
            Kind::Transformer => Data {
                x: benign_regression(n).0,
                y: Target::None,
            },
        }
    }

    fn rows(&self, rows: &[usize]) -> Data {
        Data {
            x: self.x.select(Axis(0), rows),
            y: self.y.select(rows),
        }
    }

    fn scaled(&self, factor: f64) -> Data {
        Data {
            x: &self.x * factor,
            y: self.y.scaled(factor),
        }
    }

    fn with_x(&self, x: Array2<f64>) -> Data {
        Data {
            x,
            y: self.y.clone(),
        }
    }

    fn with_y(&self, y: Target) -> Data {
        Data {
            x: self.x.clone(),
            y,
        }
    }

    /// Rows of the data set shifted a little, to predict on points that were not in the fit.
    fn probe(&self) -> Array2<f64> {
        self.x.mapv(|v| 0.9 * v + 0.1)
    }
}

// ---------------------------------------------------------------------------------------------
// The estimator seen uniformly

enum Output {
    Real(Array1<f64>),
    Labels(Array1<usize>),
    Matrix(Array2<f64>),
    /// `±1` of outlier detectors, `−1` for noise of clusterers.
    Signed(Array1<i64>),
}

impl Output {
    fn n_rows(&self) -> usize {
        match self {
            Output::Real(a) => a.len(),
            Output::Labels(a) => a.len(),
            Output::Matrix(a) => a.nrows(),
            Output::Signed(a) => a.len(),
        }
    }

    fn describe(&self) -> String {
        match self {
            Output::Real(a) => format!("{} predictions", a.len()),
            Output::Labels(a) => format!("{} labels", a.len()),
            Output::Matrix(a) => format!("a {} x {} matrix", a.nrows(), a.ncols()),
            Output::Signed(a) => format!("{} signed labels", a.len()),
        }
    }

    /// Position and value of the first NaN / infinity, if any.
    fn first_non_finite(&self) -> Option<String> {
        match self {
            Output::Real(a) => a
                .iter()
                .position(|v| !v.is_finite())
                .map(|i| format!("output[{i}] = {}", a[i])),
            Output::Labels(_) | Output::Signed(_) => None,
            Output::Matrix(a) => a
                .indexed_iter()
                .find(|(_, v)| !v.is_finite())
                .map(|((i, j), v)| format!("output[[{i}, {j}]] = {v}")),
        }
    }

    fn bitwise_diff(&self, other: &Output) -> Option<String> {
        match (self, other) {
            (Output::Real(a), Output::Real(b)) => bitwise_diff(a, b),
            (Output::Matrix(a), Output::Matrix(b)) => bitwise_diff(a, b),
            (Output::Labels(a), Output::Labels(b)) => {
                if a.len() != b.len() {
                    return Some(format!("{} labels vs {} labels", a.len(), b.len()));
                }
                let diff: Vec<usize> = (0..a.len()).filter(|&i| a[i] != b[i]).collect();
                diff.first().map(|&i| {
                    format!(
                        "{} of {} labels differ; first at {i}: {} vs {}",
                        diff.len(),
                        a.len(),
                        a[i],
                        b[i]
                    )
                })
            }
            (Output::Signed(a), Output::Signed(b)) => {
                let diff: Vec<usize> = (0..a.len().min(b.len()))
                    .filter(|&i| a[i] != b[i])
                    .collect();
                if a.len() != b.len() {
                    Some(format!("{} vs {} labels", a.len(), b.len()))
                } else {
                    diff.first().map(|&i| {
                        format!(
                            "{} labels differ; first at {i}: {} vs {}",
                            diff.len(),
                            a[i],
                            b[i]
                        )
                    })
                }
            }
            _ => Some("outputs of different kinds".into()),
        }
    }
}

trait Subject: Sync {
    type Model: Send + Sync;
    fn kind(&self) -> Kind;
    fn fit(&self, x: &ArrayRef2<f64>, y: &Target) -> ndlearn_core::Result<Self::Model>;
    fn apply(&self, model: &Self::Model, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output>;
    fn to_json(&self, model: &Self::Model) -> Result<String, String>;
    fn load_json(&self, text: &str) -> Result<Self::Model, String>;
    /// NaN in the features is a missing value (not an error) for this estimator.
    fn allows_nan(&self) -> bool {
        false
    }
    /// Inputs unlike the training data may be refused at predict with `InvalidParam`.
    fn refuses_unseen(&self) -> bool {
        false
    }
    /// Maps the battery's data into the estimator's input domain (non-negative, categories).
    fn prepare(&self, data: Data) -> Data {
        data
    }
}

/// `to_json` / `from_json` of a serde model.
macro_rules! serde_json_io {
    () => {
        fn to_json(&self, model: &Self::Model) -> Result<String, String> {
            serde_json::to_string(model).map_err(|e| e.to_string())
        }
        fn load_json(&self, text: &str) -> Result<Self::Model, String> {
            serde_json::from_str(text).map_err(|e| e.to_string())
        }
    };
}

fn wrong_target(kind: Kind) -> ! {
    panic!(
        "ndlearn-testkit internal error: wrong target type for a {}",
        kind.name()
    )
}

struct AsRegressor<'a, E>(&'a E);
struct AsClassifier<'a, E>(&'a E);
struct AsClusterer<'a, E>(&'a E);
struct AsTransformer<'a, E>(&'a E);

impl<E> Subject for AsRegressor<'_, E>
where
    E: Fit<f64, Target = ArrayRef1<f64>> + Sync,
    E::Model: Predict<f64, Output = Array1<f64>> + Serialize + DeserializeOwned + Send + Sync,
{
    type Model = E::Model;
    fn kind(&self) -> Kind {
        Kind::Regressor
    }
    serde_json_io!();
    fn fit(&self, x: &ArrayRef2<f64>, y: &Target) -> ndlearn_core::Result<E::Model> {
        match y {
            Target::Real(y) => Fit::fit(self.0, x, y),
            _ => wrong_target(self.kind()),
        }
    }
    fn apply(&self, model: &E::Model, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output> {
        model.predict(x).map(Output::Real)
    }
}

impl<E> Subject for AsClassifier<'_, E>
where
    E: Fit<f64, Target = ArrayRef1<usize>> + Sync,
    E::Model: Predict<f64, Output = Array1<usize>> + Serialize + DeserializeOwned + Send + Sync,
{
    type Model = E::Model;
    fn kind(&self) -> Kind {
        Kind::Classifier
    }
    serde_json_io!();
    fn fit(&self, x: &ArrayRef2<f64>, y: &Target) -> ndlearn_core::Result<E::Model> {
        match y {
            Target::Labels(y) => Fit::fit(self.0, x, y),
            _ => wrong_target(self.kind()),
        }
    }
    fn apply(&self, model: &E::Model, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output> {
        model.predict(x).map(Output::Labels)
    }
}

impl<E> Subject for AsClusterer<'_, E>
where
    E: FitUnsupervised<f64> + Sync,
    E::Model: Predict<f64, Output = Array1<usize>> + Serialize + DeserializeOwned + Send + Sync,
{
    type Model = E::Model;
    fn kind(&self) -> Kind {
        Kind::Clusterer
    }
    serde_json_io!();
    fn fit(&self, x: &ArrayRef2<f64>, _y: &Target) -> ndlearn_core::Result<E::Model> {
        FitUnsupervised::fit(self.0, x)
    }
    fn apply(&self, model: &E::Model, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output> {
        model.predict(x).map(Output::Labels)
    }
}

impl<E> Subject for AsTransformer<'_, E>
where
    E: FitUnsupervised<f64> + Sync,
    E::Model: Transform<f64> + Serialize + DeserializeOwned + Send + Sync,
{
    type Model = E::Model;
    fn kind(&self) -> Kind {
        Kind::Transformer
    }
    serde_json_io!();
    fn fit(&self, x: &ArrayRef2<f64>, _y: &Target) -> ndlearn_core::Result<E::Model> {
        FitUnsupervised::fit(self.0, x)
    }
    fn apply(&self, model: &E::Model, x: &ArrayRef2<f64>) -> ndlearn_core::Result<Output> {
        model.transform(x).map(Output::Matrix)
    }
}

// ---------------------------------------------------------------------------------------------
// Panic capture

thread_local! {
    static QUIET: Cell<usize> = const { Cell::new(0) };
    static PANIC_LOCATION: RefCell<Option<String>> = const { RefCell::new(None) };
}

static HOOK: Once = Once::new();

/// Installs (once per process) a panic hook that stays silent for panics on a thread currently
/// inside [`guarded`] (recording their location instead) and delegates every other panic to the
/// previous hook, so unrelated tests running in parallel keep their normal panic output.
fn install_hook() {
    if std::env::var_os("NDLEARN_TESTKIT_SHOW_PANICS").is_some() {
        return;
    }
    HOOK.call_once(|| {
        let previous = panic::take_hook();
        panic::set_hook(Box::new(move |info| {
            let quiet = QUIET.try_with(|q| q.get() > 0).unwrap_or(false);
            if quiet {
                let loc = info
                    .location()
                    .map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column()));
                let _ = PANIC_LOCATION.try_with(|p| *p.borrow_mut() = loc);
            } else {
                previous(info);
            }
        }));
    });
}

fn payload_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "<non-string panic payload>".into()
    }
}

/// Runs `f`, turning a panic into `Err("panicked: <message> (at <location>)")`.
fn guarded<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    install_hook();
    QUIET.with(|q| q.set(q.get() + 1));
    PANIC_LOCATION.with(|p| p.borrow_mut().take());
    let result = panic::catch_unwind(AssertUnwindSafe(f));
    QUIET.with(|q| q.set(q.get().saturating_sub(1)));
    result.map_err(|payload| {
        let msg = payload_message(&*payload);
        match PANIC_LOCATION.with(|p| p.borrow_mut().take()) {
            Some(loc) => format!("panicked: {msg} (at {loc})"),
            None => format!("panicked: {msg}"),
        }
    })
}

// ---------------------------------------------------------------------------------------------
// Steps

/// `Ok(None)`: the step passed; `Ok(Some(note))`: passed, with a note; `Err(reason)`: failed.
type Step = Result<Option<String>, String>;

#[derive(Default)]
struct Ctx {
    failures: Vec<String>,
    notes: Vec<String>,
}

impl Ctx {
    fn step(&mut self, label: &str, f: impl FnOnce() -> Step) {
        match guarded(f) {
            Ok(Ok(None)) => {}
            Ok(Ok(Some(note))) => self.notes.push(format!("{label}: {note}")),
            Ok(Err(reason)) | Err(reason) => self.failures.push(format!("{label}: {reason}")),
        }
    }

    fn finish(self, check: Check) -> CheckResult {
        if self.failures.is_empty() {
            CheckResult {
                check,
                status: Status::Passed,
                messages: self.notes,
            }
        } else {
            CheckResult {
                check,
                status: Status::Failed,
                messages: self.failures,
            }
        }
    }
}

fn variant(e: &Error) -> &'static str {
    match e {
        Error::InvalidParam { .. } => "InvalidParam",
        Error::ShapeMismatch { .. } => "ShapeMismatch",
        Error::TooFewSamples { .. } => "TooFewSamples",
        Error::NonFinite { .. } => "NonFinite",
        Error::TooFewClasses { .. } => "TooFewClasses",
        Error::InvalidLabel { .. } => "InvalidLabel",
        Error::Linalg { .. } => "Linalg",
        Error::Io { .. } => "Io",
        Error::Parse { .. } => "Parse",
        Error::Infeasible { .. } => "Infeasible",
        _ => "<unknown variant>",
    }
}

fn show_err(e: &Error) -> String {
    format!("Err({}: {e})", variant(e))
}

/// Requires `Err` with one of the `allowed` variants.
fn expect_err<T>(r: ndlearn_core::Result<T>, allowed: &[&str]) -> Step {
    let want = allowed.join(" | ");
    match r {
        Ok(_) => Err(format!("expected Err({want}), got Ok")),
        Err(e) if allowed.contains(&variant(&e)) => Ok(None),
        Err(e) => Err(format!("expected Err({want}), got {}", show_err(&e))),
    }
}

fn fit_benign<S: Subject>(s: &S, data: &Data) -> Result<S::Model, String> {
    s.fit(&data.x, &data.y)
        .map_err(|e| format!("fit on the benign data set failed: {}", show_err(&e)))
}

/// Output of `model` on `x` must be `Ok`, with one row per input row and finite floats.
fn check_output<S: Subject>(
    s: &S,
    model: &S::Model,
    x: &Array2<f64>,
    what: &str,
) -> Result<Output, String> {
    let out = s.apply(model, x).map_err(|e| {
        format!(
            "fit succeeded, but predicting on {what} failed: {}",
            show_err(&e)
        )
    })?;
    if out.n_rows() != x.nrows() {
        return Err(format!(
            "predicting on {what} ({} rows) returned {}",
            x.nrows(),
            out.describe()
        ));
    }
    if let Some(bad) = out.first_non_finite() {
        return Err(format!(
            "predicting on {what} returned a non-finite value: {bad}"
        ));
    }
    Ok(out)
}

/// Fit on `fit_data`: an `Err` (of a variant in `allowed`, or of any variant when `allowed` is
/// `None`) passes with a note; `Ok` requires finite, right-sized outputs on every `predict_on`.
fn finite_or_typed_err<S: Subject>(
    s: &S,
    fit_data: &Data,
    predict_on: &[(&str, &Array2<f64>)],
    allowed: Option<&[&str]>,
) -> Step {
    match s.fit(&fit_data.x, &fit_data.y) {
        Err(e) => {
            if allowed.is_none_or(|a| a.contains(&variant(&e))) {
                Ok(Some(format!("fit returned {} (accepted)", show_err(&e))))
            } else {
                Err(format!(
                    "expected Ok with finite outputs or Err({}), got {}",
                    allowed.unwrap_or_default().join(" | "),
                    show_err(&e)
                ))
            }
        }
        Ok(model) => {
            for (i, (what, x)) in predict_on.iter().enumerate() {
                match check_output(s, &model, x, what) {
                    Ok(_) => {}
                    // The first entry is the training data; other inputs may be refused.
                    Err(e) if i > 0 && s.refuses_unseen() && e.contains("InvalidParam") => {
                        return Ok(Some(format!(
                            "{what} refused with a typed error (accepted)"
                        )));
                    }
                    Err(e) => return Err(e),
                }
            }
            Ok(None)
        }
    }
}

fn with_value(x: &Array2<f64>, at: (usize, usize), v: f64) -> Array2<f64> {
    let mut x = x.clone();
    x[at] = v;
    x
}

fn with_target_value(y: &Target, at: usize, v: f64) -> Target {
    match y {
        Target::Real(y) => {
            let mut y = y.clone();
            y[at] = v;
            Target::Real(y)
        }
        other => other.clone(),
    }
}

// ---------------------------------------------------------------------------------------------
// The checks

fn run_check<S: Subject>(check: Check, s: &S, data: &Data, threads: &[usize], ctx: &mut Ctx) {
    let (n, d) = data.x.dim();
    match check {
        Check::NaN if s.allows_nan() => registry::missing_values_check(s, data, ctx),
        Check::NaN | Check::Inf => {
            let (bad_x, bad_y, bad_pred, name) = if check == Check::NaN {
                (f64::NAN, f64::NAN, f64::NAN, "NaN")
            } else {
                (
                    f64::INFINITY,
                    f64::NEG_INFINITY,
                    f64::NEG_INFINITY,
                    "infinity",
                )
            };
            ctx.step(&format!("{name} in X at fit"), || {
                let x = with_value(&data.x, (5, 1), bad_x);
                expect_err(s.fit(&x, &data.y), &["NonFinite"])
            });
            if s.kind() == Kind::Regressor {
                ctx.step(&format!("{name} in y at fit"), || {
                    let y = with_target_value(&data.y, 3, bad_y);
                    expect_err(s.fit(&data.x, &y), &["NonFinite"])
                });
            }
            ctx.step(&format!("{name} in X at predict"), || {
                let model = fit_benign(s, data)?;
                let x = with_value(&data.x, (2, d - 1), bad_pred);
                expect_err(s.apply(&model, &x), &["NonFinite"])
            });
        }
        Check::Empty => {
            let allowed = ["TooFewSamples", "ShapeMismatch", "InvalidParam"];
            ctx.step("fit on 0 rows", || {
                let empty = data.rows(&[]);
                expect_err(s.fit(&empty.x, &empty.y), &allowed)
            });
            ctx.step("fit on 0 columns", || {
                let x = Array2::<f64>::zeros((n, 0));
                expect_err(s.fit(&x, &data.y), &allowed)
            });
            ctx.step("predict on 0 rows", || {
                let model = fit_benign(s, data)?;
                match s.apply(&model, &Array2::<f64>::zeros((0, d))) {
                    Ok(out) if out.n_rows() == 0 => Ok(None),
                    Ok(out) => Err(format!("expected an empty output, got {}", out.describe())),
                    Err(e) => Ok(Some(format!("returned {} (accepted)", show_err(&e)))),
                }
            });
        }
        Check::OneRow => {
            ctx.step("fit on 1 row", || {
                let one = data.rows(&[0]);
                finite_or_typed_err(s, &one, &[("that row", &one.x)], None)
            });
        }
        Check::WrongFeatures => {
            ctx.step(
                &format!("predict with {} features (fit with {d})", d + 1),
                || {
                    let model = fit_benign(s, data)?;
                    let mut wide = Array2::<f64>::ones((n, d + 1));
                    wide.slice_mut(s![.., ..d]).assign(&data.x);
                    expect_err(s.apply(&model, &wide), &["ShapeMismatch"])
                },
            );
            if d > 1 {
                ctx.step(
                    &format!("predict with {} features (fit with {d})", d - 1),
                    || {
                        let model = fit_benign(s, data)?;
                        let narrow = data.x.slice(s![.., ..d - 1]).to_owned();
                        expect_err(s.apply(&model, &narrow), &["ShapeMismatch"])
                    },
                );
            }
        }
        Check::TargetLength => {
            ctx.step(&format!("fit with {n} rows and {} targets", n - 1), || {
                expect_err(
                    s.fit(&data.x, &data.y.resized(n, false)),
                    &["ShapeMismatch"],
                )
            });
            ctx.step(&format!("fit with {n} rows and {} targets", n + 1), || {
                expect_err(s.fit(&data.x, &data.y.resized(n, true)), &["ShapeMismatch"])
            });
        }
        Check::OneClass => {
            for label in [0usize, 1] {
                ctx.step(&format!("fit with every label = {label}"), || {
                    let one = data.with_y(Target::Labels(Array1::from_elem(n, label)));
                    match s.fit(&one.x, &one.y) {
                        Err(e) if variant(&e) == "TooFewClasses" => Ok(None),
                        Err(e) => Err(format!(
                            "expected Err(TooFewClasses) or Ok predicting {label}, got {}",
                            show_err(&e)
                        )),
                        Ok(model) => match check_output(s, &model, &data.x, "the data")? {
                            Output::Labels(p) => match p.iter().position(|&v| v != label) {
                                None => Ok(Some(format!("Ok, predicts {label} everywhere"))),
                                Some(i) => Err(format!(
                                    "fit succeeded with the single class {label}, but predicts {} at row {i}",
                                    p[i]
                                )),
                            },
                            other => Err(format!("unexpected output: {}", other.describe())),
                        },
                    }
                });
            }
        }
        Check::ConstantColumns => {
            let allowed: &[&str] = &["InvalidParam", "Linalg", "TooFewSamples"];
            ctx.step("one constant column (column 1 = 3.5)", || {
                let mut x = data.x.clone();
                x.column_mut(1).fill(3.5);
                let fit_data = data.with_x(x);
                finite_or_typed_err(
                    s,
                    &fit_data,
                    &[
                        ("the training data", &fit_data.x),
                        ("the normal data", &data.x),
                    ],
                    Some(allowed),
                )
            });
            ctx.step("all columns constant (identical rows)", || {
                let row = Array1::from_iter((0..d).map(|j| 1.5 - j as f64));
                let x = Array2::from_shape_fn((n, d), |(_, j)| row[j]);
                let fit_data = data.with_x(x);
                finite_or_typed_err(
                    s,
                    &fit_data,
                    &[
                        ("the training data", &fit_data.x),
                        ("the normal data", &data.x),
                    ],
                    Some(allowed),
                )
            });
        }
        Check::HugeScale | Check::TinyScale => {
            let factor = if check == Check::HugeScale {
                1e300
            } else {
                1e-300
            };
            ctx.step(&format!("data scaled by {factor:e}"), || {
                let scaled = data.scaled(factor);
                finite_or_typed_err(s, &scaled, &[("the scaled data", &scaled.x)], None)
            });
        }
        Check::KGreaterThanN => {
            ctx.step("fit on 2 rows", || {
                let two = data.rows(&[0, 1]);
                finite_or_typed_err(s, &two, &[("those rows", &two.x)], None)
            });
        }
        Check::SerdeRoundTrip => {
            ctx.step("serde_json round trip", || {
                let model = fit_benign(s, data)?;
                let first = s
                    .to_json(&model)
                    .map_err(|e| format!("serializing the fitted model failed: {e}"))?;
                let back = s
                    .load_json(&first)
                    .map_err(|e| format!("deserializing the model's own JSON failed: {e}"))?;
                let second = s
                    .to_json(&back)
                    .map_err(|e| format!("serializing the round-tripped model failed: {e}"))?;
                if first != second {
                    return Err(format!(
                        "JSON differs after a round trip: {}",
                        first_text_difference(&first, &second)
                    ));
                }
                let probe = data.probe();
                for (what, x) in [("the training data", &data.x), ("shifted data", &probe)] {
                    if what == "shifted data" && s.refuses_unseen() {
                        // Both models must refuse it alike or answer alike.
                        let (a, b) = (s.apply(&model, x), s.apply(&back, x));
                        match (a, b) {
                            (Err(_), Err(_)) => continue,
                            (Ok(a), Ok(b)) => {
                                if let Some(diff) = a.bitwise_diff(&b) {
                                    return Err(format!(
                                        "outputs on {what} of the round-tripped model differ: {diff}"
                                    ));
                                }
                                continue;
                            }
                            _ => return Err(format!("only one model refuses {what}")),
                        }
                    }
                    let a = check_output(s, &model, x, what)?;
                    let b = check_output(s, &back, x, what)
                        .map_err(|e| format!("round-tripped model: {e}"))?;
                    if let Some(diff) = a.bitwise_diff(&b) {
                        return Err(format!(
                            "outputs on {what} of the round-tripped model differ: {diff}"
                        ));
                    }
                }
                Ok(None)
            });
        }
        Check::ThreadInvariance => {
            ctx.step("fit + predict for each thread count", || {
                thread_invariance(s, &s.prepare(Data::benign(s.kind(), true)), threads)
            });
        }
        Check::SendSync => {
            ctx.step("estimator and model are Send + Sync", || {
                Ok(Some("checked at compile time".into()))
            });
        }
        _ => {}
    }
}

fn first_text_difference(a: &str, b: &str) -> String {
    let at = a
        .bytes()
        .zip(b.bytes())
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let snippet = |t: &str| {
        let start = char_floor(t, at.saturating_sub(20));
        let end = char_floor(t, at + 40);
        t[start..end].to_string()
    };
    format!(
        "first difference at byte {at}: …{}… vs …{}…",
        snippet(a),
        snippet(b)
    )
}

/// The largest char boundary of `t` at or below `i`.
fn char_floor(t: &str, i: usize) -> usize {
    let mut i = i.min(t.len());
    while !t.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn thread_invariance<S: Subject>(s: &S, data: &Data, threads: &[usize]) -> Step {
    if threads.is_empty() {
        return Ok(Some("no thread counts given; nothing compared".into()));
    }
    let mut runs: Vec<(usize, Option<String>, Output)> = Vec::new();
    for &t in threads {
        let run = par::with_threads(t, || {
            guarded(|| -> Result<(Option<String>, Output), String> {
                let model = fit_benign(s, data)?;
                let json = s.to_json(&model).ok();
                let out = check_output(s, &model, &data.x, "the data")?;
                Ok((json, out))
            })
        })
        .map_err(|e| format!("cannot build a pool of {t} threads: {e}"))?;
        let (json, out) = run
            .and_then(|r| r)
            .map_err(|e| format!("with {t} thread(s): {e}"))?;
        runs.push((t, json, out));
    }
    let (t0, json0, out0) = &runs[0];
    for (t, json, out) in &runs[1..] {
        if let Some(diff) = out0.bitwise_diff(out) {
            return Err(format!(
                "outputs with {t} thread(s) differ from {t0} thread(s): {diff}"
            ));
        }
        if let (Some(a), Some(b)) = (json0, json) {
            if a != b {
                return Err(format!(
                    "fitted model JSON with {t} thread(s) differs from {t0} thread(s): {}",
                    first_text_difference(a, b)
                ));
            }
        }
    }
    if runs.len() == 1 {
        return Ok(Some(format!(
            "only one thread count ({t0}); nothing compared"
        )));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn benign_data_is_deterministic_and_sane() {
        let (x, y) = benign_regression(BENIGN_ROWS);
        assert_eq!(x.dim(), (BENIGN_ROWS, D));
        assert_eq!(benign_regression(BENIGN_ROWS).1, y);
        assert!(x.iter().chain(y.iter()).all(|v| v.is_finite()));
        let (x, y) = benign_classification(BENIGN_PER_CLASS);
        assert_eq!(x.nrows(), BENIGN_PER_CLASS * N_CLASSES);
        for c in 0..N_CLASSES {
            assert_eq!(y.iter().filter(|&&v| v == c).count(), BENIGN_PER_CLASS);
        }
        // The first two rows differ in every column (KGreaterThanN relies on it).
        for data in [
            Data::benign(Kind::Clusterer, false),
            Data::benign(Kind::Transformer, false),
        ] {
            assert!((0..D).all(|j| data.x[[0, j]] != data.x[[1, j]]));
        }
    }

    #[test]
    fn guarded_reports_panics() {
        let r: Result<(), String> = guarded(|| panic!("boom {}", 42));
        let msg = r.expect_err("a panic");
        assert!(msg.starts_with("panicked: boom 42"), "{msg}");
        assert_eq!(guarded(|| 7), Ok(7));
    }

    #[test]
    fn text_difference_is_located() {
        let d = first_text_difference("{\"a\":1.0}", "{\"a\":1.5}");
        assert!(d.contains("byte 7"), "{d}");
        assert!(first_text_difference("é", "e").contains("byte 0"));
    }

    #[test]
    fn check_names_round_trip() {
        assert_eq!(Check::ALL.len(), 21);
        assert_eq!(Check::KGreaterThanN.to_string(), "KGreaterThanN");
        let mut sorted = Check::ALL.to_vec();
        sorted.sort();
        assert_eq!(sorted, Check::ALL.to_vec());
    }
}
