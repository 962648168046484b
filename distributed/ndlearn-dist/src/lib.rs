//! `ndlearn-dist`: ndlearn fits on a Ballista cluster (or in-process DataFusion) from Parquet
//! tables, writing the model files of `ndlearn fit`, so `ndlearn predict`, `ndlearn eval` and the
//! library's `ModelFile` read them unchanged.
//!
//! ```text
//! ndlearn-dist fit --cluster df://scheduler:50050 --data file:///data/table/ \
//!     --algo ridge --features 'x*' --target y --param alpha=0.5 --model ridge.json --report
//! ndlearn predict --model ridge.json --data new.csv
//! ```
//!
//! `--cluster` chooses where the scans run: `df://host:port` (a Ballista scheduler whose
//! executors are `ndlearn-executor`s), `standalone` (an in-process Ballista scheduler and
//! executor), `datafusion` (in-process DataFusion, `--partitions` partitions) or `local` (the
//! rows read into memory and fitted by the single-machine estimator: the reference the others
//! are measured against). `generate` writes the synthetic tables of the measurements
//! (docs/distributed.md).

mod generate;
pub mod measure;
pub mod table;

pub use generate::{Spec as GenerateSpec, write as generate};

use clap::{Args, Parser, Subcommand};
use datafusion::prelude::{DataFrame, ParquetReadOptions, SessionConfig, SessionContext};
use ndlearn_bayes::{GaussianNB, LinearDiscriminantAnalysis};
use ndlearn_cli::model_file::ModelFile;
use ndlearn_cluster::{KMeans, KMeansInit};
use ndlearn_core::registry::{Kind, Precision};
use ndlearn_core::{Fit, FitUnsupervised};
use ndlearn_datafusion::{DistError, KMeansParallel, fit, kmeans_parallel_init, metrics};
use ndlearn_decomposition::Pca;
use ndlearn_linear::{ElasticNet, Lasso, LinearRegression, LogisticRegression, Ridge};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// An error of the command line, with its message.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct Failure(pub String);

impl From<DistError> for Failure {
    fn from(e: DistError) -> Self {
        Failure(e.to_string())
    }
}

impl From<ndlearn_core::Error> for Failure {
    fn from(e: ndlearn_core::Error) -> Self {
        Failure(e.to_string())
    }
}

impl From<datafusion::error::DataFusionError> for Failure {
    fn from(e: datafusion::error::DataFusionError) -> Self {
        Failure(DistError::from(e).to_string())
    }
}

impl From<ndlearn_cli::CliError> for Failure {
    fn from(e: ndlearn_cli::CliError) -> Self {
        Failure(e.message)
    }
}

impl From<datafusion::arrow::error::ArrowError> for Failure {
    fn from(e: datafusion::arrow::error::ArrowError) -> Self {
        Failure(e.to_string())
    }
}

/// The command line.
#[derive(Parser, Debug)]
#[command(
    name = "ndlearn-dist",
    version,
    about = "Fit ndlearn estimators on Ballista or DataFusion from Parquet tables; writes `ndlearn` model files"
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Fit an estimator on a Parquet table and save the model (the format of `ndlearn fit`).
    Fit(FitArgs),
    /// Write a synthetic Parquet table (blobs with regression and logistic targets).
    Generate(GenerateArgs),
    /// The distributed measurements: generate tables, start a local cluster of single-core
    /// executors, fit on it and on one machine, print a Markdown table.
    Measure(MeasureArgs),
}

/// `ndlearn-dist measure`.
#[derive(Args, Debug, Clone)]
pub struct MeasureArgs {
    /// Table sizes, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "1000000,3000000,10000000"
    )]
    pub rows: Vec<u64>,
    /// Features.
    #[arg(long, default_value_t = 50)]
    pub features: usize,
    /// Where the tables, executor work directories and models go.
    #[arg(long)]
    pub dir: PathBuf,
    /// Executor processes (one core each).
    #[arg(long, default_value_t = 2)]
    pub executors: usize,
    /// Algorithms, comma-separated.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "linear_regression,gaussian_nb,pca,logistic_regression,kmeans"
    )]
    pub algorithms: Vec<String>,
    /// Skip the single-machine fits.
    #[arg(long)]
    pub no_local: bool,
}

/// The estimators `fit` runs on a cluster.
pub const ALGORITHMS: [&str; 9] = [
    "elastic_net",
    "gaussian_nb",
    "kmeans",
    "lasso",
    "lda",
    "linear_regression",
    "logistic_regression",
    "pca",
    "ridge",
];

/// `ndlearn-dist fit`.
#[derive(Args, Debug, Clone)]
pub struct FitArgs {
    /// Where the scans run: `df://host:port` (a Ballista scheduler), `standalone` (in-process
    /// Ballista), `datafusion` (in-process DataFusion) or `local` (the single-machine fit on the
    /// rows read into memory).
    #[arg(long, default_value = "datafusion")]
    pub cluster: String,
    /// The table: a Parquet file or a directory of them (a path or a `file://` URL; on a cluster
    /// the executors must see the same path).
    #[arg(long)]
    pub data: String,
    /// Algorithm (registry name): one of elastic_net, gaussian_nb, kmeans, lasso, lda (solver
    /// lsqr or eigen), linear_regression, logistic_regression, pca, ridge.
    #[arg(long)]
    pub algo: String,
    /// Feature columns, comma-separated; `prefix*` matches every column starting with `prefix`
    /// (default: every numeric column but the target and the id).
    #[arg(long, value_delimiter = ',')]
    pub features: Vec<String>,
    /// Target column (regressors: numeric; classifiers: integer class labels `0, 1, …`).
    #[arg(long)]
    pub target: Option<String>,
    /// Row-id column (distinct non-negative integers): keys k-means‖'s draws, so the centres do
    /// not depend on the partitioning. Needed by `kmeans` unless its `init` is given centres.
    #[arg(long)]
    pub id: Option<String>,
    /// Hyperparameter override `key=value` (repeatable; as `ndlearn fit --param`).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Where to write the model file (JSON).
    #[arg(long)]
    pub model: PathBuf,
    /// Partitions of an in-process scan (`datafusion`, `local`; default: the cores).
    #[arg(long)]
    pub partitions: Option<usize>,
    /// Print a JSON report (rows, passes, seconds per pass, bytes of statistics) on stdout.
    #[arg(long)]
    pub report: bool,
    /// Abandon and rerun a data pass that takes longer than this many seconds (a cluster that
    /// lost an executor can leave a job waiting; default: no limit).
    #[arg(long, value_name = "SECONDS")]
    pub pass_timeout: Option<f64>,
}

/// `ndlearn-dist generate`.
#[derive(Args, Debug, Clone)]
pub struct GenerateArgs {
    /// Output directory (`part-00000.parquet`, …).
    #[arg(long)]
    pub out: PathBuf,
    /// Rows.
    #[arg(long, default_value_t = 1_000_000)]
    pub rows: u64,
    /// Feature columns `x0 …`.
    #[arg(long, default_value_t = 50)]
    pub features: usize,
    /// Classes of the blobs (`class` column).
    #[arg(long, default_value_t = 4)]
    pub classes: usize,
    /// Files.
    #[arg(long, default_value_t = 8)]
    pub files: usize,
    /// Rows per row group.
    #[arg(long, default_value_t = 131_072)]
    pub row_group: usize,
    /// Store the features as Float32.
    #[arg(long)]
    pub float32: bool,
    /// Seed.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the command line on `args` (the program name first); errors print on stderr.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let outcome = match cli.command {
        Command::Fit(a) => runtime.block_on(run_fit(&a)).map(|report| {
            if a.report {
                println!("{report}");
            }
        }),
        Command::Measure(m) => {
            let plan = measure::Plan {
                rows: m.rows,
                features: m.features,
                dir: m.dir,
                executors: m.executors,
                algorithms: m.algorithms,
                local: !m.no_local,
            };
            runtime.block_on(measure::run(&plan)).map(|t| print!("{t}"))
        }
        Command::Generate(g) => {
            let spec = GenerateSpec {
                rows: g.rows,
                features: g.features,
                classes: g.classes,
                files: g.files,
                row_group: g.row_group,
                float32: g.float32,
                seed: g.seed,
            };
            let started = Instant::now();
            generate(&spec, &g.out).map(|paths| {
                eprintln!(
                    "wrote {} rows × {} features in {} files under {} ({:.1} s)",
                    g.rows,
                    g.features,
                    paths.len(),
                    g.out.display(),
                    started.elapsed().as_secs_f64()
                );
            })
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A session for `--cluster`.
async fn session(args: &FitArgs) -> Result<SessionContext, Failure> {
    let parts = args
        .partitions
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if parts == 0 {
        return Err(Failure("--partitions must be at least 1".into()));
    }
    Ok(match args.cluster.as_str() {
        "datafusion" | "local" => {
            SessionContext::new_with_config(SessionConfig::new().with_target_partitions(parts))
        }
        "standalone" => ndlearn_ballista::Cluster::standalone().await?,
        url if url.starts_with("df://") => ndlearn_ballista::Cluster::remote(url).await?,
        other => {
            return Err(Failure(format!(
                "--cluster `{other}`: expected df://host:port, standalone, datafusion or local"
            )));
        }
    })
}

/// The columns `fit` reads.
struct Columns {
    features: Vec<String>,
    target: Option<String>,
}

impl Columns {
    fn refs(&self) -> Vec<&str> {
        self.features.iter().map(String::as_str).collect()
    }
}

/// Resolves `--features` against the table's schema.
fn columns(df: &DataFrame, args: &FitArgs, kind: Kind) -> Result<Columns, Failure> {
    let names: Vec<(String, bool)> = df
        .schema()
        .fields()
        .iter()
        .map(|f| (f.name().clone(), f.data_type().is_numeric()))
        .collect();
    let skip = |n: &str| Some(n) == args.target.as_deref() || Some(n) == args.id.as_deref();
    let mut features = Vec::new();
    if args.features.is_empty() {
        features.extend(
            names
                .iter()
                .filter(|(n, numeric)| *numeric && !skip(n))
                .map(|(n, _)| n.clone()),
        );
    } else {
        for pat in &args.features {
            let matched: Vec<String> = match pat.strip_suffix('*') {
                Some(prefix) => names
                    .iter()
                    .filter(|(n, _)| n.starts_with(prefix) && !skip(n))
                    .map(|(n, _)| n.clone())
                    .collect(),
                None => names
                    .iter()
                    .filter(|(n, _)| n == pat)
                    .map(|(n, _)| n.clone())
                    .collect(),
            };
            if matched.is_empty() {
                return Err(Failure(format!(
                    "--features `{pat}` matches no column of the table (columns: {})",
                    names
                        .iter()
                        .map(|(n, _)| n.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
            features.extend(matched);
        }
    }
    if features.is_empty() {
        return Err(Failure("no feature columns".into()));
    }
    let supervised = matches!(kind, Kind::Classifier | Kind::Regressor);
    match (&args.target, supervised) {
        (None, true) => Err(Failure(format!("`{}` needs --target", args.algo))),
        (Some(t), true) if !names.iter().any(|(n, _)| n == t) => Err(Failure(format!(
            "--target `{t}` is not a column of the table"
        ))),
        (Some(_), false) => Err(Failure(format!(
            "`{}` is unsupervised: drop --target",
            args.algo
        ))),
        _ => Ok(Columns {
            features,
            target: args.target.clone().filter(|_| supervised),
        }),
    }
}

/// A fitted model's parts of the model file.
struct Fitted {
    model: Value,
    hyperparameters: Value,
    labels: Option<Vec<String>>,
}

fn to_json<T: serde::Serialize>(v: &T) -> Result<Value, Failure> {
    serde_json::to_value(v).map_err(|e| Failure(format!("cannot serialize: {e}")))
}

fn from_json<T: serde::de::DeserializeOwned>(v: &Value, algo: &str) -> Result<T, Failure> {
    serde_json::from_value(v.clone())
        .map_err(|e| Failure(format!("the hyperparameters of `{algo}`: {e}")))
}

fn class_names(k: usize) -> Option<Vec<String>> {
    Some((0..k).map(|c| c.to_string()).collect())
}

/// Fits as `args` says, writes the model file and returns the report (JSON).
///
/// # Errors
/// Unknown algorithms or columns, engine and fit errors, an unwritable model path.
pub async fn run_fit(args: &FitArgs) -> Result<Value, Failure> {
    let all = ndlearn_cli::entries();
    let entry = ndlearn_cli::find(&all, &args.algo)?;
    if !ALGORITHMS.contains(&entry.name()) {
        return Err(Failure(format!(
            "`{}` does not fit on a cluster; these do: {}",
            args.algo,
            ALGORITHMS.join(", ")
        )));
    }
    let timeout = match args.pass_timeout {
        None => None,
        Some(t) => Some(
            std::time::Duration::try_from_secs_f64(t)
                .ok()
                .filter(|d| !d.is_zero())
                .ok_or_else(|| {
                    Failure(format!("--pass-timeout {t}: a positive number of seconds"))
                })?,
        ),
    };
    fit::set_pass_timeout(timeout);
    let overrides = ndlearn_cli::parse_params(&args.params)?;
    let params = entry.build(&overrides)?.params();
    let ctx = session(args).await?;
    let path = args.data.strip_prefix("file://").unwrap_or(&args.data);
    let df = ctx
        .read_parquet(path, ParquetReadOptions::default())
        .await?;
    let cols = columns(&df, args, entry.kind())?;
    // the scan's partitions, as a plain DataFusion session with the same configuration plans
    // them (a Ballista client's own plan is one distributed node)
    let partitions = SessionContext::new_with_config(ctx.copied_config())
        .read_parquet(path, ParquetReadOptions::default())
        .await?
        .create_physical_plan()
        .await?
        .properties()
        .output_partitioning()
        .partition_count();
    let rows = fit::count_rows(&df).await?;
    metrics::reset();
    let started = Instant::now();
    let (fitted, read_seconds) = if args.cluster == "local" {
        let t = Instant::now();
        let rows = table::read(&df, &cols.features, cols.target.as_deref()).await?;
        let read = t.elapsed().as_secs_f64();
        (fit_local(entry.name(), &params, rows)?, Some(read))
    } else {
        (
            fit_cluster(entry.name(), &params, &df, &cols, args).await?,
            None,
        )
    };
    let seconds = started.elapsed().as_secs_f64();
    let passes = metrics::snapshot();
    let file = ModelFile::new(
        entry,
        Precision::F64,
        fitted.hyperparameters,
        cols.features.clone(),
        fitted.model,
    )
    .with_target(cols.target.clone())
    .with_labels(fitted.labels);
    // the file must load back through the registry, as `ndlearn predict` loads it
    file.restore(entry, "the fitted model")?;
    file.save(&args.model)?;
    let state_per_pass = passes.state_bytes.checked_div(passes.passes).unwrap_or(0);
    let per_pass = if passes.passes > 0 {
        passes.elapsed.as_secs_f64() / passes.passes as f64
    } else {
        0.0
    };
    Ok(json!({
        "algorithm": entry.name(),
        "cluster": args.cluster,
        "rows": rows,
        "features": cols.features.len(),
        "partitions": partitions,
        "seconds": seconds,
        "read_seconds": read_seconds,
        "passes": passes.passes,
        "retries": passes.retries,
        "seconds_per_pass": per_pass,
        "state_bytes_per_pass": state_per_pass,
        "shuffle_bytes_per_pass_estimate": state_per_pass * partitions as u64,
    }))
}

/// The fit on a cluster (one scan per data pass).
async fn fit_cluster(
    algo: &str,
    params: &Value,
    df: &DataFrame,
    cols: &Columns,
    args: &FitArgs,
) -> Result<Fitted, Failure> {
    let f = cols.refs();
    let f = f.as_slice();
    let target = cols.target.as_deref().unwrap_or_default();
    Ok(match algo {
        "linear_regression" => {
            let est: LinearRegression = from_json(params, algo)?;
            let m = fit::linear_regression(df, f, target, &est).await?;
            fitted(params, &m, None)?
        }
        "ridge" => {
            let est: Ridge = from_json(params, algo)?;
            fitted(params, &fit::ridge(df, f, target, &est).await?, None)?
        }
        "lasso" => {
            let est: Lasso = from_json(params, algo)?;
            fitted(params, &fit::lasso(df, f, target, &est).await?, None)?
        }
        "elastic_net" => {
            let est: ElasticNet = from_json(params, algo)?;
            fitted(params, &fit::elastic_net(df, f, target, &est).await?, None)?
        }
        "pca" => {
            let est: Pca = from_json(params, algo)?;
            fitted(params, &fit::pca(df, f, &est).await?, None)?
        }
        "gaussian_nb" => {
            let est: GaussianNB = from_json(params, algo)?;
            let k = fit::n_classes(df, target).await?;
            let m = fit::gaussian_nb(df, f, target, None, &est, Some(k)).await?;
            fitted(params, &m, class_names(k))?
        }
        "lda" => {
            let est: LinearDiscriminantAnalysis = from_json(params, algo)?;
            est.check_fit_moments()
                .map_err(|e| Failure(format!("lda on a cluster: {e}")))?;
            let k = fit::n_classes(df, target).await?;
            let m = fit::lda(df, f, target, &est, Some(k)).await?;
            fitted(params, &m, class_names(k))?
        }
        "logistic_regression" => {
            let est: LogisticRegression = from_json(params, algo)?;
            let k = fit::n_classes(df, target).await?;
            let m = fit::logistic_regression(df, f, target, None, &est, Some(k)).await?;
            fitted(params, &m, class_names(k))?
        }
        "kmeans" => {
            let mut est: KMeans = from_json(params, algo)?;
            if !matches!(est.init, KMeansInit::Centers(_)) {
                let Some(id) = args.id.as_deref() else {
                    return Err(Failure(
                        "kmeans on a cluster starts from k-means‖ centres, whose draws are keyed \
                         by a row id: pass --id COLUMN (or given centres as init)"
                            .into(),
                    ));
                };
                let opts = KMeansParallel::new(est.n_clusters).seed(est.seed);
                let centres = kmeans_parallel_init(df, f, id, &opts).await?;
                est.init = KMeansInit::Centers(centres);
            }
            let m = fit::kmeans(df, f, &est).await?;
            fitted(&to_json(&est)?, &m, None)?
        }
        other => return Err(Failure(format!("`{other}` does not fit on a cluster"))),
    })
}

fn fitted<M: serde::Serialize>(
    params: &Value,
    model: &M,
    labels: Option<Vec<String>>,
) -> Result<Fitted, Failure> {
    Ok(Fitted {
        model: to_json(model)?,
        hyperparameters: params.clone(),
        labels,
    })
}

/// The single-machine fit on the rows in memory.
fn fit_local(algo: &str, params: &Value, t: table::Rows) -> Result<Fitted, Failure> {
    let y = || {
        t.y.as_ref()
            .ok_or_else(|| Failure(format!("`{algo}` needs --target")))
    };
    let labels = || -> Result<ndarray::Array1<usize>, Failure> {
        y()?.iter()
            .map(|&v| {
                if v >= 0.0 && v.fract() == 0.0 && v < 1e9 {
                    Ok(v as usize)
                } else {
                    Err(Failure(format!(
                        "class labels are integers 0, 1, …; the target holds {v}"
                    )))
                }
            })
            .collect()
    };
    Ok(match algo {
        "linear_regression" => {
            let est: LinearRegression = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x, y()?)?, None)?
        }
        "ridge" => {
            let est: Ridge = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x, y()?)?, None)?
        }
        "lasso" => {
            let est: Lasso = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x, y()?)?, None)?
        }
        "elastic_net" => {
            let est: ElasticNet = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x, y()?)?, None)?
        }
        "pca" => {
            let est: Pca = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x)?, None)?
        }
        "gaussian_nb" => {
            let est: GaussianNB = from_json(params, algo)?;
            let l = labels()?;
            let k = l.iter().max().map_or(0, |&m| m + 1);
            fitted(params, &est.fit(&t.x, &l)?, class_names(k))?
        }
        "lda" => {
            let est: LinearDiscriminantAnalysis = from_json(params, algo)?;
            let l = labels()?;
            let k = l.iter().max().map_or(0, |&m| m + 1);
            fitted(params, &est.fit(&t.x, &l)?, class_names(k))?
        }
        "logistic_regression" => {
            let est: LogisticRegression = from_json(params, algo)?;
            let l = labels()?;
            let k = l.iter().max().map_or(0, |&m| m + 1);
            fitted(params, &est.fit(&t.x, &l)?, class_names(k))?
        }
        "kmeans" => {
            let est: KMeans = from_json(params, algo)?;
            fitted(params, &est.fit(&t.x)?, None)?
        }
        other => return Err(Failure(format!("`{other}` does not fit on a cluster"))),
    })
}
