//! `ndlearn eval` and `ndlearn bench`: the metrics of each kind of model, the plots, and the
//! timing loop.
//!
//! | kind | `eval` prints | `bench` metric |
//! |---|---|---|
//! | classifier | accuracy, balanced accuracy, macro/weighted precision, recall, F1, log-loss and ROC AUC (binary) when the model has probabilities, the per-class report | `accuracy` |
//! | regressor | R², explained variance, MSE, RMSE, MAE, max error | `r2` |
//! | clusterer | adjusted Rand index and NMI (with a target column), silhouette | `ari` with a target, else `inertia` (when the model stores it) or `silhouette` |
//! | transformer | explained-variance ratio (PCA-like), reconstruction error (invertible), trustworthiness (embeddings) | the first of those that applies, else `n_output_features` |

use std::path::Path;
use std::time::Instant;

use ndarray::{Array1, Array2};
use ndlearn_core::distance::Metric;
use ndlearn_core::metrics as m;
use ndlearn_core::registry::{Data, DynEstimator, DynModel, Entry, Kind, Output};
use serde_json::Value;

use crate::data::{self, TargetArg};
use crate::{CliError, json_num};

/// Neighbours used by the trustworthiness score of embeddings.
const TRUST_NEIGHBORS: usize = 5;

/// One named metric value.
pub type Score = (&'static str, f64);

fn labels_of(out: Output, what: &str) -> Result<Array1<usize>, CliError> {
    match out {
        Output::Labels(l) => Ok(l),
        // Noise (−1) becomes a label of its own, after every cluster.
        Output::Signed(s) => {
            let noise = s
                .iter()
                .copied()
                .max()
                .map_or(0, |m| (m.max(-1) + 1) as usize);
            Ok(s.mapv(|v| usize::try_from(v).unwrap_or(noise)))
        }
        _ => Err(CliError::runtime(format!(
            "{what}: the model did not return labels"
        ))),
    }
}

/// The metrics of an outlier detector: the share of rows flagged `−1` and the mean normality
/// score (with a binary 0/1 target, also the ROC AUC of the score against "inlier").
pub fn outlier_scores(
    model: &dyn DynModel,
    x: &Data,
    target: Option<&Array1<usize>>,
) -> Result<Vec<Score>, CliError> {
    let Output::Signed(pred) = model.predict(x)? else {
        return Err(CliError::runtime(
            "the outlier detector returned no ±1 labels",
        ));
    };
    let n = pred.len().max(1) as f64;
    let mut s = vec![(
        "outlier_fraction",
        pred.iter().filter(|&&v| v < 0).count() as f64 / n,
    )];
    if let Some(scores) = model.score_samples(x).transpose()? {
        s.push(("mean_score_samples", scores.mean().unwrap_or(f64::NAN)));
        if let Some(y) = target
            && y.iter().all(|&c| c < 2)
            && y.iter().any(|&c| c == 0)
            && y.iter().any(|&c| c == 1)
        {
            s.push(("roc_auc", m::roc_auc_score(y, &scores, None)?));
        }
    }
    Ok(s)
}

fn values_of(out: Output) -> Result<Array1<f64>, CliError> {
    match out {
        Output::Values(v) => Ok(v),
        _ => Err(CliError::runtime("the model did not return values")),
    }
}

fn x_f64(x: &Data) -> Array2<f64> {
    match x {
        Data::F64(a) => a.clone(),
        Data::F32(a) => a.mapv(f64::from),
    }
}

/// Sum of a model-JSON field holding a number or an array of numbers.
fn json_sum(model_json: &Value, field: &str) -> Option<f64> {
    match model_json.get(field)? {
        Value::Number(n) => n.as_f64(),
        Value::Array(a) => a.iter().map(Value::as_f64).sum(),
        _ => None,
    }
}

/// The metrics of a classifier on labelled data.
pub fn classifier_scores(
    y: &Array1<usize>,
    pred: &Array1<usize>,
    proba: Option<&Array2<f64>>,
) -> Result<Vec<Score>, CliError> {
    let mut s = vec![
        ("accuracy", m::accuracy_score(y, pred, None)?),
        (
            "balanced_accuracy",
            m::balanced_accuracy_score(y, pred, false, None)?,
        ),
        (
            "precision_macro",
            m::precision_score(y, pred, m::Average::Macro, None)?,
        ),
        (
            "recall_macro",
            m::recall_score(y, pred, m::Average::Macro, None)?,
        ),
        ("f1_macro", m::f1_score(y, pred, m::Average::Macro, None)?),
        (
            "f1_weighted",
            m::f1_score(y, pred, m::Average::Weighted, None)?,
        ),
    ];
    if let Some(p) = proba {
        s.push(("log_loss", m::log_loss(y, p, None)?));
        if p.ncols() == 2 && both_classes(y) {
            let score = p.column(1).to_owned();
            s.push(("roc_auc", m::roc_auc_score(y, &score, None)?));
        }
    }
    Ok(s)
}

/// Whether binary labels hold both 0 and 1 (ROC needs both).
fn both_classes(y: &Array1<usize>) -> bool {
    y.iter().any(|&v| v == 0) && y.iter().any(|&v| v == 1)
}

/// Number of distinct labels.
fn distinct(labels: &Array1<usize>) -> usize {
    let mut v = labels.to_vec();
    v.sort_unstable();
    v.dedup();
    v.len()
}

/// The metrics of a regressor.
pub fn regressor_scores(y: &Array1<f64>, pred: &Array1<f64>) -> Result<Vec<Score>, CliError> {
    Ok(vec![
        ("r2", m::r2_score(y, pred, None)?),
        (
            "explained_variance",
            m::explained_variance_score(y, pred, None)?,
        ),
        ("mse", m::mean_squared_error(y, pred, None)?),
        ("rmse", m::root_mean_squared_error(y, pred, None)?),
        ("mae", m::mean_absolute_error(y, pred, None)?),
        ("max_error", m::max_error(y, pred)?),
    ])
}

/// The metrics of a clusterer (`reference` labels when the data have them).
pub fn clusterer_scores(
    x: &Array2<f64>,
    pred: &Array1<usize>,
    reference: Option<&Array1<usize>>,
    model_json: &Value,
) -> Result<Vec<Score>, CliError> {
    let mut s = Vec::new();
    if let Some(r) = reference {
        s.push(("ari", m::adjusted_rand_score(r, pred)?));
        s.push((
            "nmi",
            m::normalized_mutual_info_score(r, pred, m::AverageMethod::Arithmetic)?,
        ));
    }
    if let Some(inertia) = json_sum(model_json, "inertia") {
        s.push(("inertia", inertia));
    }
    let k = distinct(pred);
    if k >= 2 && k < x.nrows() {
        s.push((
            "silhouette",
            m::silhouette_score(x, pred, &Metric::Euclidean)?,
        ));
    }
    Ok(s)
}

/// The metrics of a transformer.
pub fn transformer_scores(
    model: &dyn DynModel,
    x: &Data,
    z: &Array2<f64>,
    model_json: &Value,
) -> Result<Vec<Score>, CliError> {
    let mut s = Vec::new();
    if let Some(r) = json_sum(model_json, "explained_variance_ratio") {
        s.push(("explained_variance_ratio", r));
    }
    if let Some(back) = model.inverse_transform(&Data::F64(z.clone())) {
        let back = back?;
        let orig = x_f64(x);
        let err = (&back - &orig).mapv(|v| v * v).sum() / orig.len().max(1) as f64;
        s.push(("reconstruction_error", err));
    }
    let n = z.nrows();
    if n > TRUST_NEIGHBORS * 2 + 1 && z.ncols() < x.dim().1 {
        s.push((
            "trustworthiness",
            m::trustworthiness(&x_f64(x), z, TRUST_NEIGHBORS, &Metric::Euclidean)?,
        ));
    }
    Ok(s)
}

/// `ndlearn eval`.
pub fn eval(
    all: &[Entry],
    model_path: &Path,
    data_path: &Path,
    target: Option<&str>,
    plot: Option<&Path>,
) -> Result<(), CliError> {
    let (file, model, table) =
        crate::load_model_and_data(all, model_path, data_path, target, true)?;
    if target.is_none()
        && matches!(file.kind, Kind::Classifier | Kind::Regressor)
        && table.target_name.is_none()
    {
        return Err(CliError::input(format!(
            "{}: no target column{} found; give --target",
            data_path.display(),
            file.target_name
                .as_deref()
                .map(|t| format!(" (the fit's was `{t}`)"))
                .unwrap_or_default()
        )));
    }
    let x = crate::model_data(&table, model.as_ref());
    let json = &file.model;
    // A single decision tree's plot is the tree itself (its ROC curve would be a point or two:
    // a full-depth tree's probabilities are 0 or 1).
    let plot = match plot {
        Some(p) if plot::tree(p, &file)? => {
            crate::say!("wrote the tree to {}", p.display());
            None
        }
        other => other,
    };
    let scores = match file.kind {
        Kind::Classifier => {
            let labels = file.labels.clone().unwrap_or_default();
            let y = data::remap_labels(&table.target, &labels)?;
            let pred = labels_of(model.predict(&x)?, "eval")?;
            let proba = model.predict_proba(&x).transpose()?;
            let s = classifier_scores(&y, &pred, proba.as_ref())?;
            let report = m::classification_report(&y, &pred, None)?.with_target_names(&labels);
            crate::say!("{report}");
            if let Some(p) = plot {
                match (&proba, labels.len()) {
                    (Some(pr), 2) if both_classes(&y) => {
                        let roc = m::roc_curve(&y, &pr.column(1).to_owned(), None, true)?;
                        let auc = m::roc_auc_score(&y, &pr.column(1).to_owned(), None)?;
                        plot::roc(p, &roc.fpr, &roc.tpr, auc)?;
                    }
                    _ => {
                        let k: Vec<usize> = (0..labels.len()).collect();
                        let cm = m::confusion_matrix(&y, &pred, Some(&k), None)?;
                        plot::confusion(p, &cm, &labels)?;
                    }
                }
            }
            s
        }
        Kind::Regressor => {
            let ndlearn_datasets::Target::Values(y) = &table.target else {
                return Err(CliError::input(
                    "the target column does not hold numbers".to_string(),
                ));
            };
            let pred = values_of(model.predict(&x)?)?;
            if let Some(p) = plot {
                plot::scatter(p, y, &pred)?;
            }
            regressor_scores(y, &pred)?
        }
        Kind::Clusterer => {
            let pred = labels_of(model.predict(&x)?, "eval")?;
            let reference = match &table.target {
                ndlearn_datasets::Target::Classes { y, .. } => Some(y.clone()),
                _ => None,
            };
            if plot.is_some() {
                return Err(CliError::input("--plot is for classifiers and regressors"));
            }
            clusterer_scores(&table.x, &pred, reference.as_ref(), json)?
        }
        Kind::OutlierDetector => {
            if plot.is_some() {
                return Err(CliError::input("--plot is for classifiers and regressors"));
            }
            let reference = match &table.target {
                ndlearn_datasets::Target::Classes { y, .. } => Some(y.clone()),
                _ => None,
            };
            outlier_scores(model.as_ref(), &x, reference.as_ref())?
        }
        Kind::Transformer => {
            if plot.is_some() {
                return Err(CliError::input("--plot is for classifiers and regressors"));
            }
            let z = match model.predict(&x)? {
                Output::Matrix(z) => z,
                _ => return Err(CliError::runtime("the transformer returned no matrix")),
            };
            transformer_scores(model.as_ref(), &x, &z, json)?
        }
    };
    for (name, v) in scores {
        crate::say!("{name:<26} {v:.6}");
    }
    Ok(())
}

/// Options of [`bench()`].
pub struct BenchOptions<'a> {
    /// Training file.
    pub train: &'a Path,
    /// Test file (the training file when `None`).
    pub test: Option<&'a Path>,
    /// `--target`.
    pub target: Option<&'a str>,
    /// `--param` overrides.
    pub overrides: &'a [(String, String)],
    /// Repetitions.
    pub repeat: usize,
    /// JSON lines.
    pub json: bool,
    /// Single precision.
    pub f32: bool,
    /// `--threads` (reported; the pool is set by the caller).
    pub threads: Option<usize>,
}

/// One timed fit + predict of [`measure`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measurement {
    /// Seconds of the fit.
    pub fit_s: f64,
    /// Seconds of the prediction (transform for transformers) on the test data.
    pub predict_s: f64,
    /// The quality metric of the model's kind (see the module table).
    pub metric: &'static str,
    /// Its value on the test data.
    pub value: f64,
}

/// Fits `est` on `train`, predicts `test` and scores the prediction with the metric of the
/// entry's kind. Only the fit and the prediction are timed (never loading or scoring).
pub fn measure(
    entry: &Entry,
    est: &dyn DynEstimator,
    train: &data::Table,
    test: &data::Table,
    f32: bool,
) -> Result<Measurement, CliError> {
    let (y, labels) = data::fit_target(&train.target, entry.kind());
    let xtr = train.data(f32);
    let xte = test.data(f32);
    let t0 = Instant::now();
    let model = est.fit(&xtr, &y)?;
    let fit_s = t0.elapsed().as_secs_f64();
    let t1 = Instant::now();
    let out = model.predict(&xte)?;
    let predict_s = t1.elapsed().as_secs_f64();
    let json = model.to_json()?;
    let (metric, value) = match entry.kind() {
        Kind::Classifier => {
            let names = labels.unwrap_or_default();
            let yt = data::remap_labels(&test.target, &names)?;
            let pred = labels_of(out, "bench")?;
            ("accuracy", m::accuracy_score(&yt, &pred, None)?)
        }
        Kind::Regressor => {
            let ndlearn_datasets::Target::Values(yt) = &test.target else {
                return Err(CliError::input("the target column does not hold numbers"));
            };
            ("r2", m::r2_score(yt, &values_of(out)?, None)?)
        }
        Kind::Clusterer => {
            let pred = labels_of(out, "bench")?;
            let reference = match &test.target {
                ndlearn_datasets::Target::Classes { y, .. } => Some(y.clone()),
                _ => None,
            };
            // Only the reported metric is computed (silhouette is O(n²)).
            match (&reference, json_sum(&json, "inertia")) {
                (Some(r), _) => ("ari", m::adjusted_rand_score(r, &pred)?),
                (None, Some(inertia)) => ("inertia", inertia),
                (None, None) => {
                    let s = clusterer_scores(&test.x, &pred, None, &json)?;
                    first_of(&s, &["silhouette"])?
                }
            }
        }
        Kind::OutlierDetector => {
            let Output::Signed(pred) = out else {
                return Err(CliError::runtime(
                    "the outlier detector returned no ±1 labels",
                ));
            };
            (
                "outlier_fraction",
                pred.iter().filter(|&&v| v < 0).count() as f64 / pred.len().max(1) as f64,
            )
        }
        Kind::Transformer => {
            let Output::Matrix(z) = out else {
                return Err(CliError::runtime("the transformer returned no matrix"));
            };
            let s = transformer_scores(model.as_ref(), &xte, &z, &json)?;
            first_of(
                &s,
                &[
                    "explained_variance_ratio",
                    "reconstruction_error",
                    "trustworthiness",
                ],
            )
            // Expansions (polynomial, spline, one-hot) have none of the three: their output
            // width is what there is to compare.
            .unwrap_or(("n_output_features", z.ncols() as f64))
        }
    };
    Ok(Measurement {
        fit_s,
        predict_s,
        metric,
        value,
    })
}

/// `ndlearn bench`: one line per repetition. Timing covers fit and predict only.
pub fn bench(entry: &Entry, o: &BenchOptions<'_>) -> Result<(), CliError> {
    let est = entry.build(o.overrides).map_err(|e| match e {
        ndlearn_core::Error::InvalidParam { reason, .. } => CliError::input(reason),
        other => other.into(),
    })?;
    let arg = TargetArg::parse(o.target);
    let train = data::load(o.train, &arg, entry.kind())?;
    let test = match o.test {
        Some(p) => {
            let t = data::load(p, &arg, entry.kind())?;
            data::check_columns(&t.feature_names, &train.feature_names)?;
            t
        }
        None => data::load(o.train, &arg, entry.kind())?,
    };
    let dataset = o
        .train
        .file_stem()
        .map_or_else(|| "data".to_string(), |s| s.to_string_lossy().into_owned());
    let threads = ndlearn_core::par::current_num_threads();
    let _ = o.threads;
    for _ in 0..o.repeat {
        let Measurement {
            fit_s,
            predict_s,
            metric,
            value,
        } = measure(entry, est.as_ref(), &train, &test, o.f32)?;
        if o.json {
            let line = serde_json::json!({
                "algo": entry.name(),
                "dataset": dataset,
                "n_train": train.n,
                "d": train.feature_names.len(),
                "fit_s": json_num(fit_s),
                "predict_s": json_num(predict_s),
                "metric": metric,
                "value": json_num(value),
                "params": est.params(),
                "threads": threads,
            });
            crate::say!("{line}");
        } else {
            crate::say!(
                "{} {} n_train={} d={} fit_s={fit_s:.6} predict_s={predict_s:.6} {metric}={value:.6} threads={threads}",
                entry.name(),
                dataset,
                train.n,
                train.feature_names.len()
            );
        }
    }
    Ok(())
}

fn first_of(scores: &[Score], order: &[&'static str]) -> Result<Score, CliError> {
    order
        .iter()
        .find_map(|want| scores.iter().find(|(n, _)| n == want).copied())
        .ok_or_else(|| CliError::runtime("no quality metric applies to this model"))
}

/// The SVG plots of `eval`.
pub mod plot {
    use std::path::Path;

    use ndarray::{Array1, Array2};
    use ndlearn_tree::export::ExportOptions;
    use ndlearn_tree::{FittedDecisionTreeClassifier, FittedDecisionTreeRegressor};
    use plotters::prelude::*;

    use crate::CliError;
    use crate::model_file::ModelFile;

    fn err(e: impl std::fmt::Display) -> CliError {
        CliError::runtime(format!("drawing the plot: {e}"))
    }

    /// The picture of a single decision tree (`ndlearn_tree::export::to_svg`, named by the
    /// model file's feature and class names) when `file` holds one; `Ok(false)` for any other
    /// model.
    ///
    /// # Errors
    /// A tree state that does not read back, an unwritable path.
    pub fn tree(path: &Path, file: &ModelFile) -> Result<bool, CliError> {
        let state = || file.model.clone();
        let broken = |e: serde_json::Error| CliError::input(format!("the model's tree: {e}"));
        // The names of the columns the tree saw: the file's own unless a raw table's encoding
        // made other columns of them (then the default `feature_<j>`).
        let mut opts = ExportOptions::default();
        opts.feature_names = file.encoding.is_none().then(|| file.feature_names.clone());
        // f32 models read back as f64 exactly (every f32 is a double).
        let svg = match file.algorithm.as_str() {
            "decision_tree_classifier" => {
                opts.class_names = file.labels.clone();
                serde_json::from_value::<FittedDecisionTreeClassifier<f64>>(state())
                    .map_err(broken)?
                    .to_svg(&opts)?
            }
            "decision_tree_regressor" => {
                serde_json::from_value::<FittedDecisionTreeRegressor<f64>>(state())
                    .map_err(broken)?
                    .to_svg(&opts)?
            }
            _ => return Ok(false),
        };
        std::fs::write(path, svg)
            .map_err(|e| CliError::runtime(format!("{}: {e}", path.display())))?;
        Ok(true)
    }

    /// ROC curve with the chance diagonal.
    pub fn roc(
        path: &Path,
        fpr: &Array1<f64>,
        tpr: &Array1<f64>,
        auc: f64,
    ) -> Result<(), CliError> {
        let root = SVGBackend::new(path, (640, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("ROC curve (AUC = {auc:.4})"), ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(50)
            .build_cartesian_2d(0f64..1f64, 0f64..1f64)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("false positive rate")
            .y_desc("true positive rate")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new([(0.0, 0.0), (1.0, 1.0)], BLACK.mix(0.3)))
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new(
                fpr.iter().zip(tpr.iter()).map(|(&a, &b)| (a, b)),
                BLUE.stroke_width(2),
            ))
            .map_err(err)?
            .label("model")
            .legend(|(x, y)| PathElement::new([(x, y), (x + 18, y)], BLUE));
        chart
            .configure_series_labels()
            .border_style(BLACK)
            .draw()
            .map_err(err)?;
        root.present().map_err(err)
    }

    /// Confusion-matrix heat map (rows = truth, columns = prediction) with counts.
    pub fn confusion(path: &Path, cm: &Array2<f64>, names: &[String]) -> Result<(), CliError> {
        let k = cm.nrows();
        let root =
            SVGBackend::new(path, (160 + 60 * k as u32, 120 + 60 * k as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let max = cm.iter().copied().fold(0.0, f64::max).max(1.0);
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "confusion matrix (rows: true, columns: predicted)",
                ("sans-serif", 16),
            )
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(80)
            .build_cartesian_2d(0..k, 0..k)
            .map_err(err)?;
        chart
            .configure_mesh()
            .disable_mesh()
            .x_labels(k)
            .y_labels(k)
            .x_label_formatter(&|i| names.get(*i).cloned().unwrap_or_default())
            .y_label_formatter(&|i| {
                k.checked_sub(1 + *i)
                    .and_then(|j| names.get(j))
                    .cloned()
                    .unwrap_or_default()
            })
            .draw()
            .map_err(err)?;
        chart
            .draw_series(
                (0..k)
                    .flat_map(|r| (0..k).map(move |c| (r, c)))
                    .map(|(r, c)| {
                        let v = cm[[r, c]] / max;
                        let shade = RGBColor(
                            (255.0 * (1.0 - 0.8 * v)) as u8,
                            (255.0 * (1.0 - 0.6 * v)) as u8,
                            255,
                        );
                        Rectangle::new([(c, k - 1 - r), (c + 1, k - r)], shade.filled())
                    }),
            )
            .map_err(err)?;
        chart
            .draw_series(
                (0..k)
                    .flat_map(|r| (0..k).map(move |c| (r, c)))
                    .map(|(r, c)| {
                        Text::new(
                            format!("{}", cm[[r, c]]),
                            (c, k - r),
                            ("sans-serif", 14).into_font(),
                        )
                    }),
            )
            .map_err(err)?;
        root.present().map_err(err)
    }

    /// Predicted vs true values with the identity line.
    pub fn scatter(path: &Path, y: &Array1<f64>, pred: &Array1<f64>) -> Result<(), CliError> {
        let lo = y
            .iter()
            .chain(pred.iter())
            .copied()
            .fold(f64::INFINITY, f64::min);
        let hi = y
            .iter()
            .chain(pred.iter())
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        let (lo, hi) = if lo < hi {
            (lo, hi)
        } else {
            (lo - 1.0, lo + 1.0)
        };
        let root = SVGBackend::new(path, (640, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(err)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("predicted vs true", ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(40)
            .y_label_area_size(60)
            .build_cartesian_2d(lo..hi, lo..hi)
            .map_err(err)?;
        chart
            .configure_mesh()
            .x_desc("true")
            .y_desc("predicted")
            .draw()
            .map_err(err)?;
        chart
            .draw_series(LineSeries::new([(lo, lo), (hi, hi)], BLACK.mix(0.3)))
            .map_err(err)?;
        chart
            .draw_series(
                y.iter()
                    .zip(pred.iter())
                    .map(|(&a, &b)| Circle::new((a, b), 3, BLUE.mix(0.6).filled())),
            )
            .map_err(err)?;
        root.present().map_err(err)
    }
}
