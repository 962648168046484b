//! # ndlearn-cli
//!
//! The `ndlearn` command line (install with `cargo install --path crates/cli`):
//!
//! | command | what |
//! |---|---|
//! | `ndlearn list [--json]` | every estimator: name, kind, hyperparameters with types and defaults |
//! | `ndlearn fit --algo NAME --data FILE [--target COL\|none] [--param k=v]... --model OUT` | fit and save a model file |
//! | `ndlearn predict --model FILE --data FILE [--target COL\|none] [--proba] [--out FILE]` | predictions as CSV |
//! | `ndlearn eval --model FILE --data FILE [--target COL] [--plot FILE.svg]` | the metrics of the model's kind |
//! | `ndlearn cv --algo NAME --data FILE [--cv K] [--scoring NAME] [--param k=v]...` | K-fold scores with a named scorer (scikit-learn's names) |
//! | `ndlearn search --algo NAME --data FILE --param k=v1,v2,... [--cv K] [--scoring NAME] [--model OUT]` | grid search: every candidate cross-validated, ranked; the best refitted and saved |
//! | `ndlearn bench --algo NAME --train FILE [--test FILE] [--param k=v]... [--threads N] [--repeat R] [--json]` | fit and predict timings plus a quality metric |
//!
//! CSV files have a header row and numeric feature cells; the target column is chosen by name or
//! 0-based index (default: the last column for classifiers and regressors, the column named
//! `target` if any for clusterers and transformers). Classification targets may be any strings or
//! numbers: they are label-encoded and the mapping is stored in the model. Data are f64 unless
//! `--f32`.
//!
//! Errors go to stderr as `error: …` with exit code 1 (bad input, bad parameters, failed fits)
//! or 2 (bad command-line syntax, from clap). Nothing panics on bad input.
//!
//! The registry of estimators is [`entries`]: the concatenation of each algorithm crate's
//! `registry()`.

use std::ffi::OsString;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use clap::{Parser, Subcommand};
use ndlearn_core::registry::{self, Data, Entry, Kind, Output};
use serde_json::Value;

pub mod cv;
pub mod data;
pub mod metrics;
pub mod model_file;
pub mod progress;
pub mod raw;

use data::TargetArg;

/// `println!` that ignores a closed stdout (`ndlearn list | head -1` must not panic).
macro_rules! say {
    ($($arg:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($arg)*);
    }};
}
use model_file::ModelFile;
pub(crate) use say;

/// `--quiet`: no progress bar, no summary lines on stderr (errors and warnings still print).
static QUIET: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn quiet() -> bool {
    QUIET.load(std::sync::atomic::Ordering::Relaxed)
}

/// A summary line on stderr, unless `--quiet`.
macro_rules! note {
    ($($arg:tt)*) => {{
        if !$crate::quiet() {
            eprintln!($($arg)*);
        }
    }};
}
pub(crate) use note;

/// A command failure: the message printed after `error: ` and the exit code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CliError {
    /// What went wrong, naming the file, line, column or parameter involved.
    pub message: String,
    /// Process exit code (1 for every run-time error).
    pub code: u8,
}

impl CliError {
    /// Bad input: files, data, parameters.
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: 1,
        }
    }
    /// A failure while running (fit diverged, I/O on output).
    pub fn runtime(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
            code: 1,
        }
    }
}

impl From<ndlearn_core::Error> for CliError {
    fn from(e: ndlearn_core::Error) -> Self {
        CliError::runtime(e.to_string())
    }
}

/// Every registered estimator of the workspace, sorted by name.
pub fn entries() -> Vec<Entry> {
    let mut all: Vec<Entry> = Vec::new();
    all.extend(ndlearn_core::preprocessing::registry());
    all.extend(ndlearn_linear::registry());
    all.extend(ndlearn_bayes::registry());
    all.extend(ndlearn_neighbors::registry());
    all.extend(ndlearn_cluster::registry());
    all.extend(ndlearn_decomposition::registry());
    all.extend(ndlearn_svm::registry());
    all.extend(ndlearn_tree::registry());
    all.extend(ndlearn_neural::registry());
    all.sort_by_key(|e| e.name());
    all
}

#[derive(Parser, Debug)]
#[command(
    name = "ndlearn",
    version,
    about = "Fit, predict, evaluate and benchmark ndlearn estimators on CSV files"
)]
struct Cli {
    /// No progress bar and no summary lines on stderr (errors and warnings still print).
    #[arg(long, global = true)]
    quiet: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every estimator with its kind and hyperparameters.
    List {
        /// Machine-readable output.
        #[arg(long)]
        json: bool,
        /// The scikit-learn → ndlearn map as Markdown (docs/sklearn-map.md).
        #[arg(long, conflicts_with = "json")]
        sklearn_map: bool,
    },
    /// Fit an estimator on a CSV file and save the model.
    Fit {
        /// Algorithm name (see `ndlearn list`).
        #[arg(long)]
        algo: String,
        /// Training data (CSV with a header row).
        #[arg(long)]
        data: PathBuf,
        /// Target column: a name, a 0-based index, or `none`.
        #[arg(long)]
        target: Option<String>,
        /// Hyperparameter override `key=value` (repeatable).
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
        /// Where to write the model file (JSON).
        #[arg(long)]
        model: PathBuf,
        /// Fit in single precision.
        #[arg(long)]
        f32: bool,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        #[command(flatten)]
        table: TableFlags,
    },
    /// Predict with a saved model; CSV to stdout or `--out`.
    Predict {
        /// Model file written by `ndlearn fit`.
        #[arg(long)]
        model: PathBuf,
        /// Data to predict (same feature columns as at fit).
        #[arg(long)]
        data: PathBuf,
        /// Target column to ignore: a name, a 0-based index, or `none` (default: the fit's
        /// target column if the file has it).
        #[arg(long)]
        target: Option<String>,
        /// Class probabilities instead of labels (probabilistic classifiers).
        #[arg(long)]
        proba: bool,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Evaluate a saved model on labelled data.
    Eval {
        /// Model file written by `ndlearn fit`.
        #[arg(long)]
        model: PathBuf,
        /// Labelled data.
        #[arg(long)]
        data: PathBuf,
        /// Target column (name or 0-based index; default: the fit's target column).
        #[arg(long)]
        target: Option<String>,
        /// Write a plot: the tree itself (single decision trees), ROC curve (binary),
        /// confusion-matrix heat map (multi-class), predicted-vs-true scatter (regression).
        #[arg(long)]
        plot: Option<PathBuf>,
    },
    /// K-fold cross-validation scores with a named scorer.
    Cv {
        /// Algorithm name (see `ndlearn list`).
        #[arg(long)]
        algo: String,
        /// Labelled data (CSV with a header row).
        #[arg(long)]
        data: PathBuf,
        /// Target column: a name or a 0-based index (default: the last column).
        #[arg(long)]
        target: Option<String>,
        /// Hyperparameter override `key=value` (repeatable).
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
        #[command(flatten)]
        cv: CvFlags,
    },
    /// Grid search: cross-validate every combination of `--param name=v1,v2,...`.
    Search {
        /// Algorithm name (see `ndlearn list`).
        #[arg(long)]
        algo: String,
        /// Labelled data (CSV with a header row).
        #[arg(long)]
        data: PathBuf,
        /// Target column: a name or a 0-based index (default: the last column).
        #[arg(long)]
        target: Option<String>,
        /// A hyperparameter and its candidate values, `key=v1,v2,...` (repeatable; one value
        /// fixes it). Commas inside JSON values (`{...}`, `[...]`) do not split.
        #[arg(long = "param", value_name = "KEY=V1,V2,...")]
        params: Vec<String>,
        /// Refit the best candidate on all rows and write its model file here.
        #[arg(long)]
        model: Option<PathBuf>,
        #[command(flatten)]
        cv: CvFlags,
    },
    /// Time fit and predict and report a quality metric.
    Bench {
        /// Algorithm name (see `ndlearn list`).
        #[arg(long)]
        algo: String,
        /// Training data.
        #[arg(long)]
        train: PathBuf,
        /// Test data (default: the training data).
        #[arg(long)]
        test: Option<PathBuf>,
        /// Target column: a name, a 0-based index, or `none`.
        #[arg(long)]
        target: Option<String>,
        /// Hyperparameter override `key=value` (repeatable).
        #[arg(long = "param", value_name = "KEY=VALUE")]
        params: Vec<String>,
        /// Worker threads (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Repetitions (one output line each).
        #[arg(long, default_value_t = 1)]
        repeat: usize,
        /// One JSON object per line.
        #[arg(long)]
        json: bool,
        /// Single precision.
        #[arg(long)]
        f32: bool,
    },
}

/// How raw tables (text columns, missing cells) are read: `fit`, `cv`, `search`.
#[derive(clap::Args, Debug, Clone, Copy)]
pub(crate) struct TableFlags {
    /// Fill of missing numeric cells (default: `none`, i.e. NaN, for estimators that handle
    /// missing values, `mean` otherwise); missing text cells take the most frequent category.
    #[arg(long, value_enum)]
    impute: Option<raw::Impute>,
    /// Encoding of text columns.
    #[arg(long, value_enum, default_value = "onehot")]
    encode: raw::Encode,
}

impl TableFlags {
    pub(crate) fn impute_for(&self, entry: &Entry) -> raw::Impute {
        self.impute
            .unwrap_or(if entry.capabilities().missing_values {
                raw::Impute::None
            } else {
                raw::Impute::Mean
            })
    }
}

/// Loads a file for fitting: the plain numeric path, or the raw-table path (text columns
/// encoded, missing cells imputed; the summary goes to stderr).
pub(crate) fn load_for_fit(
    entry: &Entry,
    path: &Path,
    target: Option<&str>,
    flags: &TableFlags,
) -> Result<(data::Table, Option<raw::Encoding>), CliError> {
    let arg = TargetArg::parse(target);
    // The numeric reader first: a large numeric file is never held as text. A text cell or a
    // missing one stops it early and the raw-table reader takes over.
    let numeric_error = match data::load(path, &arg, entry.kind()) {
        Ok(table) => return Ok((table, None)),
        Err(e) => e,
    };
    match raw::load_for_fit(
        path,
        &arg,
        entry.kind(),
        flags.impute_for(entry),
        flags.encode,
    )? {
        None => Err(numeric_error),
        Some((table, enc, summary)) => {
            note!("{}: {summary}", path.display());
            Ok((table, Some(enc)))
        }
    }
}

/// Options shared by `cv` and `search`.
#[derive(clap::Args, Debug)]
struct CvFlags {
    /// Number of folds (stratified for classifiers).
    #[arg(long = "cv", default_value_t = 5)]
    folds: usize,
    /// Scorer name, scikit-learn's (`accuracy`, `roc_auc`, `neg_log_loss`, `r2`,
    /// `neg_mean_squared_error`, ...); default `accuracy` (classifiers) or `r2` (regressors).
    #[arg(long)]
    scoring: Option<String>,
    /// Shuffle the rows before splitting into folds.
    #[arg(long)]
    shuffle: bool,
    /// Seed of the shuffle.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Single precision.
    #[arg(long)]
    f32: bool,
    /// One JSON object on stdout.
    #[arg(long)]
    json: bool,
    /// Worker threads (default: all cores).
    #[arg(long)]
    threads: Option<usize>,
    #[command(flatten)]
    table: TableFlags,
}

/// Runs the command line on `args` (including the program name); returns the exit code.
pub fn main_with<I, T>(args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(c) => c,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    QUIET.store(cli.quiet, std::sync::atomic::Ordering::Relaxed);
    // A panic is a bug (or a hand-edited model file whose fitted state is inconsistent): report
    // it as an error line instead of a backtrace.
    std::panic::set_hook(Box::new(|_| {}));
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(cli.command)));
    let _ = std::panic::take_hook();
    let result = outcome.unwrap_or_else(|p| {
        let what = p
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| p.downcast_ref::<&str>().copied())
            .unwrap_or("unknown");
        Err(CliError::runtime(format!(
            "internal error ({what}); a damaged or hand-edited model file can cause this"
        )))
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", e.message);
            ExitCode::from(e.code)
        }
    }
}

fn run(cmd: Command) -> Result<(), CliError> {
    let all = entries();
    match cmd {
        Command::List { json, sklearn_map } if sklearn_map => {
            let _ = json;
            say!("{}", sklearn_map_markdown(&all)?);
            Ok(())
        }
        Command::List { json, .. } => list(&all, json),
        Command::Fit {
            algo,
            data,
            target,
            params,
            model,
            f32,
            threads,
            table,
        } => {
            let entry = find(&all, &algo)?;
            let overrides = parse_params(&params)?;
            in_threads(threads, || {
                fit(
                    entry,
                    &data,
                    target.as_deref(),
                    &overrides,
                    &model,
                    f32,
                    &table,
                )
            })
        }
        Command::Predict {
            model,
            data,
            target,
            proba,
            out,
        } => predict(
            &all,
            &model,
            &data,
            target.as_deref(),
            proba,
            out.as_deref(),
        ),
        Command::Eval {
            model,
            data,
            target,
            plot,
        } => metrics::eval(&all, &model, &data, target.as_deref(), plot.as_deref()),
        Command::Cv {
            algo,
            data,
            target,
            params,
            cv,
        } => {
            let entry = find(&all, &algo)?;
            let overrides = parse_params(&params)?;
            let args = cv_args(entry, &data, target.as_deref(), &cv);
            in_threads(cv.threads, || cv::cv(&args, &overrides))
        }
        Command::Search {
            algo,
            data,
            target,
            params,
            model,
            cv,
        } => {
            let entry = find(&all, &algo)?;
            let grid = parse_params(&params)?;
            let args = cv_args(entry, &data, target.as_deref(), &cv);
            in_threads(cv.threads, || cv::search(&args, &grid, model.as_deref()))
        }
        Command::Bench {
            algo,
            train,
            test,
            target,
            params,
            threads,
            repeat,
            json,
            f32,
        } => {
            let entry = find(&all, &algo)?;
            let overrides = parse_params(&params)?;
            let opts = metrics::BenchOptions {
                train: &train,
                test: test.as_deref(),
                target: target.as_deref(),
                overrides: &overrides,
                repeat: repeat.max(1),
                json,
                f32,
                threads,
            };
            in_threads(threads, || metrics::bench(entry, &opts))
        }
    }
}

fn cv_args<'a>(
    entry: &'a Entry,
    data: &'a Path,
    target: Option<&'a str>,
    f: &'a CvFlags,
) -> cv::CvArgs<'a> {
    cv::CvArgs {
        entry,
        data,
        target,
        folds: f.folds,
        scoring: f.scoring.as_deref(),
        shuffle: f.shuffle,
        seed: f.seed,
        f32: f.f32,
        json: f.json,
        table: f.table,
    }
}

/// Runs `f` on a pool of `threads` workers (the global pool when `None`).
fn in_threads<T: Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, CliError> + Send,
) -> Result<T, CliError> {
    match threads {
        None => f(),
        Some(0) => Err(CliError::input("--threads must be at least 1")),
        Some(n) => ndlearn_core::par::with_threads(n, f)?,
    }
}

/// Looks an algorithm up, suggesting close names when it is unknown.
pub fn find<'a>(all: &'a [Entry], name: &str) -> Result<&'a Entry, CliError> {
    registry::find(all, name).map_err(|e| match e {
        ndlearn_core::Error::InvalidParam { reason, .. } => {
            CliError::input(format!("{reason} (see `ndlearn list`)"))
        }
        other => other.into(),
    })
}

/// Splits `key=value` arguments.
pub fn parse_params(raw: &[String]) -> Result<Vec<(String, String)>, CliError> {
    raw.iter()
        .map(|p| match p.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() => Ok((k.trim().to_string(), v.to_string())),
            _ => Err(CliError::input(format!(
                "--param `{p}` is not of the form key=value"
            ))),
        })
        .collect()
}

/// The public path of an estimator type: the crate and its last segment (`ndlearn_linear::Ridge`),
/// core's types with their module (`ndlearn_core::preprocessing::StandardScaler`).
fn public_path(rust_type: &str) -> String {
    let base = rust_type.split('<').next().unwrap_or(rust_type);
    let parts: Vec<&str> = base.split("::").collect();
    match parts.as_slice() {
        ["ndlearn_core", module, .., ty] => format!("ndlearn_core::{module}::{ty}"),
        [krate, .., ty] => format!("{krate}::{ty}"),
        _ => base.to_string(),
    }
}

/// docs/sklearn-map.md: every registered estimator and hyperparameter, from the registry.
pub fn sklearn_map_markdown(all: &[Entry]) -> Result<String, CliError> {
    let mut out = String::from(
        "# scikit-learn → ndlearn\n\n\
         Generated from the estimator registry by `cargo xtask sklearn-map` (which runs \
         `ndlearn list --sklearn-map`); `cargo xtask test` fails when this file is stale. Each \
         row: the scikit-learn class, the ndlearn type (also under the `ndlearn` facade, e.g. \
         `ndlearn::linear::Ridge`), the command line's `--algo` name and the kind; then each \
         hyperparameter with its scikit-learn name (the CLI's `--param` key and the serde \
         name in model files), the Rust setter, its type and default. Values of `choice` \
         parameters are scikit-learn's spellings.\n\n\
         | scikit-learn | ndlearn | `--algo` | kind |\n|---|---|---|---|\n",
    );
    let mut rows: Vec<&Entry> = all.iter().collect();
    rows.sort_by_key(|e| (e.sklearn_class().unwrap_or("~"), e.name()));
    for e in &rows {
        out += &format!(
            "| {} | `{}` | [`{}`](#{}) | {} |\n",
            e.sklearn_class()
                .map_or("—".to_string(), |c| format!("`{c}`")),
            public_path(e.rust_type()),
            e.name(),
            e.name(),
            e.kind()
        );
    }
    for e in &rows {
        out += &format!(
            "\n## {}\n\n`{}`{} — {}\n\n",
            e.name(),
            public_path(e.rust_type()),
            e.sklearn_class()
                .map_or(String::new(), |c| format!(" (scikit-learn `{c}`)")),
            e.summary()
        );
        let params = e.params()?;
        if params.is_empty() {
            out += "No hyperparameters.\n";
            continue;
        }
        out += "| parameter | setter | type | default |\n|---|---|---|---|\n";
        for p in params {
            let setter = p
                .aliases
                .iter()
                .find(|a| {
                    a.chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
                })
                .unwrap_or(&p.name);
            let ty = if p.choices.is_empty() {
                serde_json::to_value(p.ty)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            } else {
                p.choices.join(" \\| ")
            };
            out += &format!(
                "| `{}` | `.{setter}()` | {ty} | `{}` |\n",
                p.name,
                p.default.to_string().replace('|', "\\|")
            );
        }
    }
    Ok(out)
}

fn list(all: &[Entry], json: bool) -> Result<(), CliError> {
    if json {
        let mut out = Vec::new();
        for e in all {
            out.push(serde_json::json!({
                "name": e.name(),
                "rust_type": public_path(e.rust_type()),
                "aliases": e.aliases(),
                "sklearn_class": e.sklearn_class(),
                "kind": e.kind(),
                "summary": e.summary(),
                "predict_proba": e.has_proba(),
                "inverse_transform": e.has_inverse(),
                "capabilities": e.capabilities(),
                "params": e.params()?,
            }));
        }
        let text =
            serde_json::to_string_pretty(&out).map_err(|e| CliError::runtime(e.to_string()))?;
        say!("{text}");
        return Ok(());
    }
    for e in all {
        say!(
            "{:<28} {:<12} {}",
            e.name(),
            e.kind().to_string(),
            e.summary()
        );
        if !e.aliases().is_empty() {
            say!("    (also: {})", e.aliases().join(", "));
        }
        for p in e.params()? {
            let ty = if p.choices.is_empty() {
                serde_json::to_value(p.ty)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            } else {
                p.choices.join("|")
            };
            if p.aliases.is_empty() {
                say!("    {:<24} {:<28} default {}", p.name, ty, p.default);
            } else {
                say!(
                    "    {:<24} {:<28} default {} (also: {})",
                    p.name,
                    ty,
                    p.default,
                    p.aliases.join(", ")
                );
            }
        }
    }
    Ok(())
}

/// An observer drawing a spinner with the iteration and objective on stderr.
fn with_progress<T>(label: &str, f: impl FnOnce() -> T) -> T {
    if quiet() || !std::io::stderr().is_terminal() {
        return f();
    }
    let bar = Arc::new(progress::Bar::new(label));
    let out = ndlearn_core::observe::with_observer(bar.clone(), f);
    bar.finish();
    out
}

fn fit(
    entry: &Entry,
    data_path: &Path,
    target: Option<&str>,
    overrides: &[(String, String)],
    model_path: &Path,
    f32: bool,
    flags: &TableFlags,
) -> Result<(), CliError> {
    let est = entry.build(overrides).map_err(|e| match e {
        ndlearn_core::Error::InvalidParam { reason, .. } => CliError::input(reason),
        other => other.into(),
    })?;
    let (table, encoding) = load_for_fit(entry, data_path, target, flags)?;
    let (y, labels) = data::fit_target(&table.target, entry.kind());
    if entry.kind() == Kind::Classifier && labels.as_ref().is_some_and(|l| l.len() < 2) {
        return Err(CliError::input(format!(
            "{}: the target has a single class; a classifier needs at least two",
            data_path.display()
        )));
    }
    let x = table.data(f32);
    let started = Instant::now();
    let model = with_progress(entry.name(), || est.fit(&x, &y))?;
    let elapsed = started.elapsed().as_secs_f64();
    warn_not_converged(entry, &model.to_json()?, overrides);
    let saved = Saved {
        table: &table,
        labels,
        encoding,
    };
    save_model(entry, est.as_ref(), model.as_ref(), saved, model_path)?;
    note!(
        "fitted {} on {} rows x {} features in {:.3} s; model written to {}",
        entry.name(),
        table.n,
        table.feature_names.len(),
        elapsed,
        model_path.display()
    );
    Ok(())
}

/// Whether a fitted model's JSON records an iterative fit that stopped without converging: a
/// `converged: false` (or a list holding one) at its top level or one level down.
pub fn not_converged(model: &Value) -> bool {
    fn flag(v: Option<&Value>) -> bool {
        match v {
            Some(Value::Bool(b)) => !b,
            Some(Value::Array(a)) => a.iter().any(|x| x == &Value::Bool(false)),
            _ => false,
        }
    }
    let Some(obj) = model.as_object() else {
        return false;
    };
    flag(obj.get("converged"))
        || obj
            .values()
            .filter_map(Value::as_object)
            .any(|o| flag(o.get("converged")))
}

/// Says on stderr that an iterative fit stopped at its iteration limit, with a hint.
fn warn_not_converged(entry: &Entry, model: &Value, overrides: &[(String, String)]) {
    if !not_converged(model) {
        return;
    }
    let after = model
        .get("n_iter")
        .and_then(Value::as_u64)
        .map(|n| format!(" after {n} iterations"))
        .unwrap_or_default();
    let raise = if overrides.iter().any(|(k, _)| k == "max_iter") {
        "raise `max_iter` further"
    } else {
        "raise `--param max_iter=...`"
    };
    eprintln!(
        "warning: {} stopped{after} without converging; {raise}, scale the features (fit a \
         `standard_scaler` first) or loosen `tol`",
        entry.name()
    );
}

/// What a model file keeps of the training data.
pub(crate) struct Saved<'a> {
    /// The training table (feature and target names).
    pub table: &'a data::Table,
    /// Class names in label order.
    pub labels: Option<Vec<String>>,
    /// The raw-table encoding, if any.
    pub encoding: Option<raw::Encoding>,
}

/// Writes the model file of a fitted model.
pub(crate) fn save_model(
    entry: &Entry,
    est: &dyn registry::DynEstimator,
    model: &dyn registry::DynModel,
    saved: Saved<'_>,
    model_path: &Path,
) -> Result<(), CliError> {
    let Saved {
        table,
        labels,
        encoding,
    } = saved;
    let file = ModelFile::new(
        entry,
        model.precision(),
        est.params(),
        table.feature_names.clone(),
        model.to_json()?,
    )
    .with_target(table.target_name.clone())
    .with_labels(labels)
    .with_encoding(encoding);
    file.save(model_path)
}

/// Loads a model file and the data to apply it to, checking the columns.
pub(crate) fn load_model_and_data(
    all: &[Entry],
    model_path: &Path,
    data_path: &Path,
    target: Option<&str>,
    need_target: bool,
) -> Result<(ModelFile, Box<dyn registry::DynModel>, data::Table), CliError> {
    let file = ModelFile::load(model_path)?;
    let origin = model_path.display().to_string();
    let entry = find(all, &file.algorithm)
        .map_err(|e| CliError::input(format!("{origin}: {}", e.message)))?;
    let model = file.restore(entry, &origin)?;
    let is_feature = |name: &str| file.feature_names.iter().any(|f| f == name);
    let head = data::header(data_path)?;
    let mut arg = TargetArg::parse(target);
    if arg == TargetArg::Default {
        arg = match &file.target_name {
            Some(t) if head.contains(t) && !is_feature(t) => TargetArg::Name(t.clone()),
            _ if head.iter().any(|h| h == "target") && !is_feature("target") => {
                TargetArg::Name("target".into())
            }
            _ => TargetArg::None,
        };
    }
    if let Some(enc) = &file.encoding {
        let table = raw::load_encoded(
            enc,
            data_path,
            &arg,
            file.kind,
            need_target,
            &file.feature_names,
        )?;
        return Ok((file, model, table));
    }
    let table = if need_target {
        // Read the target as labels unless the model is a regressor.
        let kind_for_loading = match (file.kind, &arg) {
            (Kind::Classifier | Kind::Regressor, TargetArg::None) => Kind::Clusterer,
            (k, _) => k,
        };
        data::load(data_path, &arg, kind_for_loading)?
    } else {
        // Predictions ignore the target column: its cells are never parsed (empty cells and
        // placeholders such as `?` are fine).
        let drop = match &arg {
            TargetArg::Name(n) => Some(n.clone()),
            TargetArg::Index(i) => head.get(*i).cloned(),
            _ => None,
        };
        data::load_dropping(data_path, drop.as_deref())?
    };
    data::check_columns(&table.feature_names, &file.feature_names)?;
    Ok((file, model, table))
}

/// The input matrix in the model's precision.
pub(crate) fn model_data(table: &data::Table, model: &dyn registry::DynModel) -> Data {
    table.data(model.precision() == registry::Precision::F32)
}

fn predict(
    all: &[Entry],
    model_path: &Path,
    data_path: &Path,
    target: Option<&str>,
    proba: bool,
    out: Option<&Path>,
) -> Result<(), CliError> {
    let (file, model, table) = load_model_and_data(all, model_path, data_path, target, false)?;
    let x = model_data(&table, model.as_ref());
    let mut w = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| CliError::runtime(format!("writing CSV: {e}"));
    if proba {
        let Some(p) = model.predict_proba(&x) else {
            return Err(CliError::input(format!(
                "`{}` has no class probabilities (--proba needs a probabilistic classifier)",
                file.algorithm
            )));
        };
        let p = p?;
        if let Some(l) = &file.labels
            && l.len() != p.ncols()
        {
            return Err(CliError::input(format!(
                "{}: the model file is inconsistent: {} class labels but {} probability columns",
                model_path.display(),
                l.len(),
                p.ncols()
            )));
        }
        let names: Vec<String> = match &file.labels {
            Some(l) => l.iter().map(|n| format!("proba_{n}")).collect(),
            None => (0..p.ncols()).map(|k| format!("proba_{k}")).collect(),
        };
        w.write_record(&names).map_err(csv_err)?;
        for row in p.rows() {
            w.write_record(row.iter().map(|v| format_float(*v)))
                .map_err(csv_err)?;
        }
    } else {
        match model.predict(&x)? {
            Output::Labels(l) => {
                w.write_record(["prediction"]).map_err(csv_err)?;
                for k in l {
                    let name = match &file.labels {
                        Some(names) => names.get(k).cloned().ok_or_else(|| {
                            CliError::input(format!(
                                "{}: the model file is inconsistent: it predicts class {k} but \
                                 stores {} class labels",
                                model_path.display(),
                                names.len()
                            ))
                        })?,
                        None => k.to_string(),
                    };
                    w.write_record([name]).map_err(csv_err)?;
                }
            }
            Output::Values(v) => {
                w.write_record(["prediction"]).map_err(csv_err)?;
                for y in v {
                    w.write_record([format_float(y)]).map_err(csv_err)?;
                }
            }
            Output::Matrix(z) => {
                let names: Vec<String> = (0..z.ncols())
                    .map(|k| {
                        if file.kind == Kind::Regressor {
                            format!("prediction_{k}")
                        } else {
                            format!("component_{k}")
                        }
                    })
                    .collect();
                w.write_record(&names).map_err(csv_err)?;
                for row in z.rows() {
                    w.write_record(row.iter().map(|v| format_float(*v)))
                        .map_err(csv_err)?;
                }
            }
            // Outlier detectors' ±1 and clusters with −1 for noise (scikit-learn's labels).
            Output::Signed(v) => {
                w.write_record(["prediction"]).map_err(csv_err)?;
                for k in v {
                    w.write_record([k.to_string()]).map_err(csv_err)?;
                }
            }
            Output::Indicators(m) => {
                let names: Vec<String> = (0..m.ncols()).map(|k| format!("label_{k}")).collect();
                w.write_record(&names).map_err(csv_err)?;
                for row in m.rows() {
                    w.write_record(row.iter().map(|&b| if b { "1" } else { "0" }))
                        .map_err(csv_err)?;
                }
            }
            _ => {
                return Err(CliError::runtime(
                    "this model returned an output the command line cannot write",
                ));
            }
        }
    }
    let bytes = w
        .into_inner()
        .map_err(|e| CliError::runtime(format!("writing CSV: {e}")))?;
    match out {
        Some(p) => std::fs::write(p, bytes)
            .map_err(|e| CliError::input(format!("cannot write {}: {e}", p.display()))),
        None => {
            use std::io::Write;
            std::io::stdout()
                .write_all(&bytes)
                .map_err(|e| CliError::runtime(format!("writing to stdout: {e}")))
        }
    }
}

/// Shortest text that parses back to the same f64.
pub fn format_float(v: f64) -> String {
    format!("{v:?}")
}

/// A JSON number, or `null` for non-finite values.
pub(crate) fn json_num(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}
