//! Fits from one aggregate scan of a DataFusion table: the executors compute the statistics of
//! their partitions, DataFusion merges them, the driver solves with the estimator's
//! `fit_moments` and returns the single-machine fitted type.

use crate::aggregate::StatsAggregate;
use crate::block::{Features, Layout};
use crate::error::{DistError, Result, unwrap_engine_error};
use datafusion::arrow::array::{Array, AsArray};
use datafusion::arrow::compute::cast;
use datafusion::arrow::datatypes::{DataType, Int64Type};
use datafusion::functions_aggregate::expr_fn::max;
use datafusion::prelude::{DataFrame, Expr, ident};
use ndlearn_bayes::{
    FittedGaussianNB, FittedLinearDiscriminantAnalysis, GaussianNB, LinearDiscriminantAnalysis,
};
use ndlearn_cluster::{FittedKMeans, KMeans};
use ndlearn_core::loss::Loss;
use ndlearn_core::stats::mergeable::{
    ClassMoments, ClassScatter, ClassSpec, CrossMoments, CrossSpec, GlmSpec, GlmStats, KMeansSpec,
    KMeansStats, Mergeable, SoftmaxSpec, SoftmaxStats,
};
use ndlearn_decomposition::{FittedPca, Pca};
use ndlearn_linear::{
    ElasticNet, FittedElasticNet, FittedLasso, FittedLinearRegression, FittedLogisticRegression,
    FittedRidge, Lasso, LinearRegression, LogisticRegression, Ridge,
};
use std::sync::{Arc, Mutex};

/// Where the features are: named numeric columns, or one `FixedSizeList<Float64>` column.
#[derive(Debug, Clone, Copy)]
pub enum Input<'a> {
    /// One numeric column per feature.
    Columns(&'a [&'a str]),
    /// One `FixedSizeList<Float64>` column of `width` features (read without a copy).
    List {
        /// The column.
        column: &'a str,
        /// Features per row.
        width: usize,
    },
}

impl<'a> From<&'a [&'a str]> for Input<'a> {
    fn from(c: &'a [&'a str]) -> Self {
        Input::Columns(c)
    }
}

impl<'a, const N: usize> From<&'a [&'a str; N]> for Input<'a> {
    fn from(c: &'a [&'a str; N]) -> Self {
        Input::Columns(c)
    }
}

impl Input<'_> {
    pub(crate) fn features(&self) -> Features {
        match self {
            Input::Columns(c) => Features::Columns(c.len()),
            Input::List { width, .. } => Features::List(*width),
        }
    }

    pub(crate) fn exprs(&self) -> Vec<Expr> {
        match self {
            Input::Columns(c) => c.iter().map(|n| ident(*n)).collect(),
            Input::List { column, .. } => vec![ident(*column)],
        }
    }

    pub(crate) fn width(&self) -> usize {
        self.features().width()
    }
}

/// How many times a failed scan is run again ([`aggregate`], [`aggregate_by`]).
pub const PASS_RETRIES: u32 = 3;
/// The wait before the first retry of a scan; it doubles for each further retry (1, 2, 4 s).
pub const PASS_RETRY_DELAY: std::time::Duration = std::time::Duration::from_secs(1);

/// The pass timeout in milliseconds (0: none).
static PASS_TIMEOUT_MS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Sets the longest a scan may run before it is abandoned and run again (as a failed scan is,
/// see [`PASS_RETRIES`]); `None` (the default) waits as long as the scan takes. Process-wide:
/// every fit of the process uses it. A cluster that loses an executor can leave a job waiting
/// on it; with a timeout a few times the expected pass time, the fit submits the scan again
/// instead of waiting for the engine. The abandoned job is not cancelled on the cluster (the
/// Ballista 55 client has no cancellation for a dropped query), so it keeps its slots until it
/// ends or fails; give the timeout room.
pub fn set_pass_timeout(timeout: Option<std::time::Duration>) {
    let ms = timeout.map_or(0, |t| {
        u64::try_from(t.as_millis()).unwrap_or(u64::MAX).max(1)
    });
    PASS_TIMEOUT_MS.store(ms, std::sync::atomic::Ordering::Relaxed);
}

/// The pass timeout ([`set_pass_timeout`]).
pub fn pass_timeout() -> Option<std::time::Duration> {
    match PASS_TIMEOUT_MS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => None,
        ms => Some(std::time::Duration::from_millis(ms)),
    }
}

/// Runs a planned scan, again (up to [`PASS_RETRIES`] times, after [`PASS_RETRY_DELAY`],
/// doubling) when execution fails with an engine error or outlives the pass timeout.
///
/// A data pass is a pure function of the table, so running it again is safe. On a cluster a
/// lost executor can fail a job in ways the engine's own task retries do not cover (the final
/// stage fetching partial results from the dead executor before the scheduler has declared it
/// dead), or leave it waiting; the retry runs the whole scan once the scheduler has moved on.
/// Errors of planning (a missing column) and the typed errors of the statistics are returned
/// at once.
pub(crate) async fn collect_with_retries(
    planned: DataFrame,
) -> Result<Vec<datafusion::arrow::array::RecordBatch>> {
    let mut delay = PASS_RETRY_DELAY;
    let mut attempt = 0;
    loop {
        let scan = planned.clone().collect();
        let outcome = match pass_timeout() {
            None => scan.await.map_err(unwrap_engine_error),
            Some(t) => match tokio::time::timeout(t, scan).await {
                Ok(r) => r.map_err(unwrap_engine_error),
                Err(_) => Err(DistError::Timeout(t)),
            },
        };
        match outcome {
            Ok(b) => return Ok(b),
            Err(DistError::DataFusion(_) | DistError::Timeout(_)) if attempt < PASS_RETRIES => {
                attempt += 1;
                crate::metrics::record_retry();
                tokio::time::sleep(delay).await;
                delay *= 2;
            }
            Err(e) => return Err(e),
        }
    }
}

/// One aggregate pass: `SELECT agg(args) FROM df`, decoded on the driver (run again on engine
/// failures; see [`PASS_RETRIES`]).
///
/// # Errors
/// Engine errors (a missing column, an unreadable file), [`DistError::Null`] /
/// [`DistError::Type`] for argument columns the statistics cannot read, the statistics' own
/// errors.
pub async fn aggregate<S: Mergeable<f64> + 'static>(
    df: &DataFrame,
    agg: StatsAggregate<S>,
    args: Vec<Expr>,
) -> Result<S>
where
    S::Spec: 'static,
{
    let started = std::time::Instant::now();
    let udaf = agg.udaf();
    let planned = df
        .clone()
        .aggregate(vec![], vec![udaf.call(args).alias("ndlearn_stats")])
        .map_err(unwrap_engine_error)?;
    let batches = collect_with_retries(planned).await?;
    let bytes = batches
        .iter()
        .find(|b| b.num_rows() > 0)
        .map(|b| b.column(0).as_binary::<i32>())
        .filter(|c| !c.is_null(0))
        .map(|c| c.value(0).to_vec())
        .ok_or_else(|| DistError::Plan("the aggregate returned no statistics".into()))?;
    let stats = S::decode(&bytes)?;
    crate::metrics::record_pass(started.elapsed(), bytes.len());
    Ok(stats)
}

/// The number of rows of `df`, by a `COUNT(*)` scan run again on engine failures and after
/// the pass timeout, like the data passes.
///
/// # Errors
/// As [`aggregate`].
pub async fn count_rows(df: &DataFrame) -> Result<u64> {
    let planned = df
        .clone()
        .aggregate(
            vec![],
            vec![
                datafusion::functions_aggregate::expr_fn::count(datafusion::prelude::lit(1))
                    .alias("n"),
            ],
        )
        .map_err(unwrap_engine_error)?;
    let batches = collect_with_retries(planned).await?;
    let n = batches
        .iter()
        .find(|b| b.num_rows() > 0)
        .map(|b| cast(b.column(0), &DataType::Int64))
        .transpose()?
        .map(|c| c.as_primitive::<Int64Type>().value(0))
        .unwrap_or(0);
    Ok(u64::try_from(n).unwrap_or(0))
}

/// The centred (when `centred`) moments of `features` and `targets`, with the Gram matrix.
///
/// # Errors
/// As [`aggregate`].
pub async fn moments<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    targets: &[&str],
    centred: bool,
) -> Result<CrossMoments<f64>> {
    let input = features.into();
    let spec = CrossSpec {
        n_features: input.width(),
        n_targets: targets.len(),
        centred,
        gram: true,
    };
    let layout = Layout {
        features: input.features(),
        targets: targets.len(),
        labels: false,
        weights: false,
    };
    let mut args = input.exprs();
    args.extend(targets.iter().map(|t| ident(*t)));
    aggregate(
        df,
        StatsAggregate::<CrossMoments<f64>>::new("ndlearn_moments", spec, layout),
        args,
    )
    .await
}

/// [`LinearRegression`] of `target` on `features` from one scan (see
/// [`LinearRegression::fit_moments`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn linear_regression<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    target: &str,
    est: &LinearRegression,
) -> Result<FittedLinearRegression<f64>> {
    let m = moments(df, features, &[target], est.fit_intercept).await?;
    Ok(est.fit_moments(&m)?)
}

/// [`Ridge`] from one scan (see [`Ridge::fit_moments`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn ridge<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    target: &str,
    est: &Ridge,
) -> Result<FittedRidge<f64>> {
    let m = moments(df, features, &[target], est.fit_intercept).await?;
    Ok(est.fit_moments(&m)?)
}

/// [`ElasticNet`] from one scan: coordinate descent on the merged Gram matrix on the driver (see
/// [`ElasticNet::fit_moments`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn elastic_net<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    target: &str,
    est: &ElasticNet,
) -> Result<FittedElasticNet<f64>> {
    let m = moments(df, features, &[target], est.fit_intercept).await?;
    Ok(est.fit_moments(&m)?)
}

/// [`Lasso`] from one scan (see [`Lasso::fit_moments`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn lasso<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    target: &str,
    est: &Lasso,
) -> Result<FittedLasso<f64>> {
    let m = moments(df, features, &[target], est.fit_intercept).await?;
    Ok(est.fit_moments(&m)?)
}

/// [`Pca`] from one scan of the centred moments (the covariance solvers; see
/// [`Pca::fit_moments`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn pca<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    est: &Pca,
) -> Result<FittedPca<f64>> {
    let m = moments(df, features, &[], true).await?;
    Ok(est.fit_moments(&m)?)
}

/// The number of classes of an integer label column: `MAX(label) + 1` (one extra scan).
///
/// # Errors
/// Engine errors; [`DistError::Plan`] for an empty table or negative labels.
pub async fn n_classes(df: &DataFrame, label: &str) -> Result<usize> {
    let planned = df
        .clone()
        .aggregate(vec![], vec![max(ident(label)).alias("m")])
        .map_err(unwrap_engine_error)?;
    let batches = collect_with_retries(planned).await?;
    let col = batches
        .iter()
        .find(|b| b.num_rows() > 0)
        .map(|b| b.column(0).clone())
        .ok_or_else(|| DistError::Plan("no rows".into()))?;
    if !col.data_type().is_integer() {
        return Err(DistError::Type {
            argument: 0,
            found: col.data_type().to_string(),
            expected: "an integer class label".into(),
        });
    }
    let c = cast(&col, &DataType::Int64)?;
    let v = c.as_primitive::<Int64Type>();
    if v.is_null(0) {
        return Err(DistError::Plan(format!("column {label} has no labels")));
    }
    usize::try_from(v.value(0))
        .map(|m| m + 1)
        .map_err(|_| DistError::Plan(format!("column {label} holds negative labels")))
}

/// [`GaussianNB`] from one scan of the per-class moments (`weight`: an optional sample-weight
/// column; `n_classes`: `None` asks the table with [`n_classes`]).
///
/// # Errors
/// As [`aggregate`] and the fit.
pub async fn gaussian_nb<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    label: &str,
    weight: Option<&str>,
    est: &GaussianNB,
    n_classes_given: Option<usize>,
) -> Result<FittedGaussianNB<f64>> {
    let input = features.into();
    let k = match n_classes_given.or(est.n_classes) {
        Some(k) => k,
        None => n_classes(df, label).await?,
    };
    let spec = ClassSpec {
        n_classes: k,
        n_features: input.width(),
    };
    let layout = Layout {
        features: input.features(),
        targets: 0,
        labels: true,
        weights: weight.is_some(),
    };
    let mut args = input.exprs();
    args.push(ident(label));
    if let Some(w) = weight {
        args.push(ident(w));
    }
    let stats: ClassMoments<f64> = aggregate(
        df,
        StatsAggregate::new("ndlearn_class_moments", spec, layout),
        args,
    )
    .await?;
    Ok(est.fit_moments(&stats)?)
}

/// [`LinearDiscriminantAnalysis`] (lsqr or eigen solver, no or fixed shrinkage) from one scan of
/// the per-class counts, means and centred scatter matrices ([`ClassScatter`]; see
/// [`LinearDiscriminantAnalysis::fit_moments`]). `n_classes_given`: `None` asks the table with
/// [`n_classes`].
///
/// # Errors
/// As [`aggregate`] and the fit (the svd solver and Ledoit–Wolf shrinkage need the rows: an
/// [`DistError::Ndlearn`] error before any scan).
pub async fn lda<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    label: &str,
    est: &LinearDiscriminantAnalysis,
    n_classes_given: Option<usize>,
) -> Result<FittedLinearDiscriminantAnalysis<f64>> {
    let input = features.into();
    // refuse what needs the rows before scanning
    est.check_fit_moments()?;
    let k = match n_classes_given {
        Some(k) => k,
        None => n_classes(df, label).await?,
    };
    let spec = ClassSpec {
        n_classes: k,
        n_features: input.width(),
    };
    let layout = Layout {
        features: input.features(),
        targets: 0,
        labels: true,
        weights: false,
    };
    let mut args = input.exprs();
    args.push(ident(label));
    let stats: ClassScatter<f64> = aggregate(
        df,
        StatsAggregate::new("ndlearn_class_scatter", spec, layout),
        args,
    )
    .await?;
    Ok(est.fit_moments(&stats)?)
}

/// [`KMeans`] by Lloyd's rounds, one aggregate scan per round ([`KMeansStats`] at the current
/// centres), from the estimator's given centres ([`ndlearn_cluster::KMeansInit::Centers`]); one
/// scan before (the column variances that scale `tol`) and one after (the final inertia). The
/// rounds are [`KMeans::fit_passes`], the driver loop a fit on other engines shares, so they stop
/// where a fit on rows with `KMeansAlgorithm::Lloyd` stops (see there for the two differences:
/// empty clusters keep their centre, no training labels are kept).
///
/// # Errors
/// As [`aggregate`] and [`KMeans::fit_passes`]; [`DistError::Plan`] for an empty table.
pub async fn kmeans<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    est: &KMeans,
) -> Result<FittedKMeans<f64>> {
    let input = features.into();
    let m = moments(df, input, &[], true).await?;
    let d = m.x_mean.len();
    let Some(g) = m.xtx.as_ref().filter(|_| m.n > 0 && d > 0) else {
        return Err(DistError::Plan(
            "k-means needs at least one row and one feature".into(),
        ));
    };
    let var_mean = g.diag().sum() / (m.n as f64 * d as f64);
    let layout = Layout {
        features: input.features(),
        targets: 0,
        labels: false,
        weights: false,
    };
    let args = input.exprs();
    let df = df.clone();
    let est = est.clone();
    drive("k-means", move |passes| {
        est.fit_passes(var_mean, |c| {
            let agg = StatsAggregate::<KMeansStats<f64>>::new(
                "ndlearn_kmeans_round",
                KMeansSpec { centers: c.clone() },
                layout,
            );
            passes.run(&df, agg, args.clone())
        })
    })
    .await
}

/// [`LogisticRegression`] by L-BFGS on the driver, one aggregate scan per evaluation of the
/// objective: two classes by [`GlmStats`] of the log-loss at the current coefficients
/// ([`LogisticRegression::fit_passes`]), three or more by [`SoftmaxStats`] of the multinomial
/// log-loss ([`LogisticRegression::fit_passes_multinomial`]; see there for what is supported).
/// `label`: an integer column of labels `0..K`; `weight`: an optional sample-weight column;
/// `n_classes_given`: `None` asks the table with [`n_classes`] (one extra scan).
///
/// # Errors
/// As [`aggregate`] and the fits; fewer than two classes is [`DistError::Ndlearn`]'s
/// `TooFewClasses`.
pub async fn logistic_regression<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    label: &str,
    weight: Option<&str>,
    est: &LogisticRegression,
    n_classes_given: Option<usize>,
) -> Result<FittedLogisticRegression<f64>> {
    let input = features.into();
    let d = input.width();
    let k = match n_classes_given {
        Some(k) => k,
        None => n_classes(df, label).await?,
    };
    if k < 2 {
        return Err(ndlearn_core::Error::TooFewClasses {
            context: "logistic regression on a table",
            needed: 2,
            found: k,
        }
        .into());
    }
    // two classes: the 0/1 label as the log-loss's target column; more: class labels
    let layout = Layout {
        features: input.features(),
        targets: usize::from(k == 2),
        labels: k > 2,
        weights: weight.is_some(),
    };
    let mut args = input.exprs();
    args.push(ident(label));
    if let Some(w) = weight {
        args.push(ident(w));
    }
    let df = df.clone();
    let est = est.clone();
    drive("logistic-regression", move |passes| {
        if k == 2 {
            est.fit_passes(d, |coef, b| {
                let spec = GlmSpec {
                    loss: Loss::LogLoss,
                    coef: coef.clone(),
                    intercept: b,
                    hessian: false,
                };
                let agg = StatsAggregate::<GlmStats<f64>>::new("ndlearn_glm_pass", spec, layout);
                passes.run(&df, agg, args.clone())
            })
        } else {
            est.fit_passes_multinomial(d, k, |coef, b| {
                let spec = SoftmaxSpec {
                    coef: coef.clone(),
                    intercept: b.clone(),
                    hessian: false,
                };
                let agg =
                    StatsAggregate::<SoftmaxStats<f64>>::new("ndlearn_softmax_pass", spec, layout);
                passes.run(&df, agg, args.clone())
            })
        }
    })
    .await
}

/// Data passes for a synchronous driver loop ([`drive`]): each [`Passes::run`] waits for one
/// aggregate scan on the runtime and keeps an adapter error for [`drive`] to return typed.
struct Passes {
    handle: tokio::runtime::Handle,
    failure: Arc<Mutex<Option<DistError>>>,
}

impl Passes {
    /// One [`aggregate`] scan, waited for; an adapter error is parked (see [`park`]).
    fn run<S: Mergeable<f64> + 'static>(
        &self,
        df: &DataFrame,
        agg: StatsAggregate<S>,
        args: Vec<Expr>,
    ) -> ndlearn_core::Result<S>
    where
        S::Spec: 'static,
    {
        self.handle
            .block_on(aggregate(df, agg, args))
            .map_err(|e| park(&self.failure, e))
    }
}

/// Runs an estimator's synchronous driver loop (`fit_passes`, shared with other engines) on a
/// blocking thread, its data passes as scans on the current runtime; returns the fit, or the
/// adapter error that stopped it (typed), or the estimator's own error.
async fn drive<T: Send + 'static>(
    what: &'static str,
    body: impl FnOnce(&Passes) -> ndlearn_core::Result<T> + Send + 'static,
) -> Result<T> {
    let passes = Passes {
        handle: tokio::runtime::Handle::current(),
        failure: Arc::new(Mutex::new(None)),
    };
    let failure = Arc::clone(&passes.failure);
    let fitted = tokio::task::spawn_blocking(move || body(&passes))
        .await
        .map_err(|e| DistError::Plan(format!("the {what} driver stopped: {e}")))?;
    fitted.map_err(|core| unpark(&failure, core))
}

/// Keeps an adapter error raised inside a synchronous driver loop (which speaks ndlearn's
/// error) so [`unpark`] can return it typed.
fn park(slot: &Mutex<Option<DistError>>, e: DistError) -> ndlearn_core::Error {
    let msg = e.to_string();
    if let Ok(mut s) = slot.lock()
        && s.is_none()
    {
        *s = Some(e);
    }
    ndlearn_core::Error::invalid_param("data pass", msg)
}

/// The parked adapter error, else the driver's own.
fn unpark(slot: &Mutex<Option<DistError>>, core: ndlearn_core::Error) -> DistError {
    slot.lock()
        .ok()
        .and_then(|mut s| s.take())
        .unwrap_or(DistError::Ndlearn(core))
}

/// The statistics of every group of a `GROUP BY group` scan, decoded and sorted by group value
/// (the group expression must give integers, e.g. a fold column or `id % k`).
///
/// # Errors
/// As [`aggregate`]; [`DistError::Type`] for a non-integer group; [`DistError::Null`] for a
/// null group value.
pub async fn aggregate_by<S: Mergeable<f64> + 'static>(
    df: &DataFrame,
    group: Expr,
    agg: StatsAggregate<S>,
    args: Vec<Expr>,
) -> Result<Vec<(i64, S)>>
where
    S::Spec: 'static,
{
    let started = std::time::Instant::now();
    let udaf = agg.udaf();
    let planned = df
        .clone()
        .aggregate(
            vec![group.alias("ndlearn_group")],
            vec![udaf.call(args).alias("ndlearn_stats")],
        )
        .map_err(unwrap_engine_error)?;
    let batches = collect_with_retries(planned).await?;
    let mut out = Vec::new();
    let mut bytes = 0;
    for b in &batches {
        let g = b.column(0);
        if !g.data_type().is_integer() {
            return Err(DistError::Type {
                argument: 0,
                found: g.data_type().to_string(),
                expected: "an integer group (fold) expression".into(),
            });
        }
        let g = cast(g, &DataType::Int64)?;
        let g = g.as_primitive::<Int64Type>();
        let st = b.column(1).as_binary::<i32>();
        for i in 0..b.num_rows() {
            if g.is_null(i) {
                return Err(DistError::Null {
                    argument: 0,
                    row: i,
                });
            }
            if st.is_null(i) {
                continue;
            }
            out.push((g.value(i), S::decode(st.value(i))?));
            bytes += st.value(i).len();
        }
    }
    crate::metrics::record_pass(started.elapsed(), bytes);
    out.sort_by_key(|(k, _)| *k);
    Ok(out)
}

/// A linear model that fits from merged moments, for [`cross_val_mse`].
#[derive(Debug, Clone, Copy)]
pub enum LinearModel<'e> {
    /// Ordinary least squares.
    Ols(&'e LinearRegression),
    /// Ridge.
    Ridge(&'e Ridge),
    /// Lasso.
    Lasso(&'e Lasso),
    /// Elastic net.
    ElasticNet(&'e ElasticNet),
}

impl LinearModel<'_> {
    fn fit_intercept(&self) -> bool {
        match self {
            LinearModel::Ols(e) => e.fit_intercept,
            LinearModel::Ridge(e) => e.fit_intercept,
            LinearModel::Lasso(e) => e.fit_intercept,
            LinearModel::ElasticNet(e) => e.fit_intercept,
        }
    }

    /// `(coefficients, intercept)` fitted from `m`.
    fn fit(&self, m: &CrossMoments<f64>) -> Result<(ndarray::Array1<f64>, f64)> {
        Ok(match self {
            LinearModel::Ols(e) => {
                let f = e.fit_moments(m)?;
                (f.coef().to_owned(), f.intercept())
            }
            LinearModel::Ridge(e) => {
                let f = e.fit_moments(m)?;
                (f.coef().to_owned(), f.intercept())
            }
            LinearModel::Lasso(e) => {
                let f = e.fit_moments(m)?;
                (f.coef().to_owned(), f.intercept())
            }
            LinearModel::ElasticNet(e) => {
                let f = e.fit_moments(m)?;
                (f.coef().to_owned(), f.intercept())
            }
        })
    }
}

/// K-fold cross-validation of a linear model from one scan: `GROUP BY fold` gives the moments of
/// every fold; the model of fold `k` is fitted on the merge of the other folds' moments, and its
/// mean squared error on fold `k` follows from fold `k`'s own moments,
/// `Σ r² = S_yy − 2wᵀS_xy + wᵀS_xx w + n_k (ȳ_k − x̄_kᵀw − b)²`, without reading a row again.
/// `fold` must be an integer expression of the row (a fold column, or `id % k` over a row id), so
/// the folds do not depend on how the table is partitioned. Returns `(fold, MSE)` by fold value.
///
/// # Errors
/// As [`aggregate_by`] and the fits; [`DistError::Plan`] with fewer than two folds.
pub async fn cross_val_mse<'a>(
    df: &DataFrame,
    features: impl Into<Input<'a>>,
    target: &str,
    fold: Expr,
    model: LinearModel<'_>,
) -> Result<Vec<(i64, f64)>> {
    let input = features.into();
    let centred = model.fit_intercept();
    let spec = CrossSpec {
        n_features: input.width(),
        n_targets: 1,
        centred,
        gram: true,
    };
    let layout = Layout {
        features: input.features(),
        targets: 1,
        labels: false,
        weights: false,
    };
    let mut args = input.exprs();
    args.push(ident(target));
    let folds = aggregate_by(
        df,
        fold,
        StatsAggregate::<CrossMoments<f64>>::new("ndlearn_fold_moments", spec, layout),
        args,
    )
    .await?;
    if folds.len() < 2 {
        return Err(DistError::Plan(format!(
            "cross-validation needs at least two folds, the fold expression gave {}",
            folds.len()
        )));
    }
    let mut out = Vec::with_capacity(folds.len());
    for (k, (key, held)) in folds.iter().enumerate() {
        let train = CrossMoments::merge_all(
            &spec,
            folds
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != k)
                .map(|(_, (_, m))| m),
        )?;
        let (w, b) = model.fit(&train)?;
        let Some(sxx) = held.xtx.as_ref() else {
            return Err(DistError::Plan(
                "fold moments without the Gram matrix".into(),
            ));
        };
        let sxy = held.xty.column(0);
        let nk = held.n as f64;
        let offset = held.y_mean[0] - held.x_mean.dot(&w) - b;
        let sse = held.yty[0] - 2.0 * w.dot(&sxy) + w.dot(&sxx.dot(&w)) + nk * offset * offset;
        out.push((*key, sse.max(0.0) / nk));
    }
    Ok(out)
}
