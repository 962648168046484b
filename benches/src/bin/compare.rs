//! `compare`: runs the benchmark suites for ndlearn and, with `--compare sklearn`, in the same
//! run, the numpy / scikit-learn equivalents (`benches/sklearn/run.py`), then prints one table
//! with the time ratios (ndlearn / reference) and both quality values, and writes JSON lines, a
//! Markdown table and an SVG bar chart of the ratios under `target/ndlearn-bench/`.
//!
//! Suites: `quick` (every registered estimator on the embedded data sets, under 3 minutes) and
//! `full` (the default: `quick` plus generated 20,000-row data sets plus every hand-written suite
//! at the sizes the algorithm issues name) are driven by the registry of the `ndlearn` command
//! line ([`ndlearn_bench::registry_suite`]), ours and scikit-learn alternating case by case;
//! the hand-written suites (`linalg`, `core`, ...) can also be run one at a time, or all of them
//! with `all`.
//!
//! Run it through `cargo xtask bench` (release build, OpenBLAS tuning variables unset for both
//! sides).

/// The allocator of the `ndlearn` binary (decision 0031), so the suites time what the CLI runs.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use ndlearn_bench::suites::{SuiteOptions, linalg_suite};
use ndlearn_bench::suites_classify::classify_suite;
use ndlearn_bench::suites_cluster::cluster_suite;
use ndlearn_bench::suites_core::core_suite;
use ndlearn_bench::suites_decomposition::decomposition_suite;
use ndlearn_bench::suites_gbdt::gbdt_suite;
use ndlearn_bench::suites_linear::linear_suite;
use ndlearn_bench::suites_metrics::metrics_suite;
use ndlearn_bench::suites_neural::neural_suite;
use ndlearn_bench::suites_preprocessing::preprocessing_suite;
use ndlearn_bench::suites_svm::svm_suite;
use ndlearn_bench::suites_tree::tree_suite;
use ndlearn_bench::{MachineInfo, Record, fmt_seconds, memory, registry_suite};
use std::io::IsTerminal as _;

/// Side-by-side benchmark runner: ndlearn vs numpy / scikit-learn.
#[derive(Debug, Parser)]
#[command(name = "compare", version)]
struct Args {
    /// Suite to run: `quick` (registry on the embedded data sets), `full` (registry on embedded
    /// and generated data, plus every hand-written suite), one hand-written suite (`linalg`,
    /// `core`, `metrics`, `preprocessing`, `linear`, ...) or `all` hand-written suites.
    #[arg(long, default_value = "full")]
    suite: String,
    /// `sklearn`: run scikit-learn / numpy side by side; `none` (the default): ndlearn only.
    /// A comma list adds LightGBM and XGBoost to the `gbdt` suite
    /// (`sklearn,lightgbm,xgboost`; their packages live in `target/gbdt-venv`) and PyTorch to
    /// the `neural` suite (`sklearn,torch`; in `target/torch-venv`); `cargo xtask bench`
    /// creates those environments.
    #[arg(long, default_value = "none")]
    compare: String,
    /// Registry suites and `--memory`: only the estimators / cases whose name contains this
    /// text.
    #[arg(long)]
    only: Option<String>,
    /// Timed repetitions per case (the median is reported).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
    /// Smaller synthetic sizes.
    #[arg(long)]
    quick: bool,
    /// Output folder for the JSON lines and the Markdown table.
    #[arg(long, default_value = "target/ndlearn-bench")]
    out: PathBuf,
    /// Python interpreter with numpy and scikit-learn (default: target/golden-venv/bin/python,
    /// else python3).
    #[arg(long)]
    python: Option<PathBuf>,
    /// Skip the numpy / scikit-learn side (same as `--compare none`).
    #[arg(long)]
    no_python: bool,
    /// Print the JSON lines instead of the table.
    #[arg(long)]
    json: bool,
    /// Peak memory of fit instead of time: every case of `ndlearn_bench::memory` in a fresh
    /// process per side (with `--compare sklearn`, scikit-learn's beside it); the table goes to
    /// `<out>/memory.md`.
    #[arg(long)]
    memory: bool,
    /// Internal: start and exit (the parent reads OpenBLAS's `Core:` line of this start).
    #[arg(long, hide = true)]
    blas_probe: bool,
    /// Internal: with `--memory-case`, run the call once on a few rows before the baseline.
    #[arg(long, hide = true)]
    memory_warm: bool,
    /// Internal: measure one memory case in this process and print its JSON line.
    #[arg(long, hide = true)]
    memory_case: Option<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("compare: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Every suite, in the order `all` runs them.
const SUITES: [&str; 12] = [
    "linalg",
    "core",
    "metrics",
    "preprocessing",
    "linear",
    "classify",
    "cluster",
    "decomposition",
    "svm",
    "tree",
    "gbdt",
    "neural",
];

fn run(args: &Args) -> Result<(), String> {
    if args.blas_probe {
        // OpenBLAS printed its kernel when it loaded; one product makes sure it is linked in.
        let a = ndarray::Array2::<f64>::eye(2);
        std::hint::black_box(a.dot(&a));
        return Ok(());
    }
    if let Some(name) = &args.memory_case {
        let m = memory::measure_ours(name, args.quick, args.memory_warm)?;
        println!("{}", serde_json::to_string(&m).map_err(|e| e.to_string())?);
        return Ok(());
    }
    if args.memory {
        return memory_run(args);
    }
    let (registry, hand): (Option<bool>, Vec<&str>) = match args.suite.as_str() {
        "quick" => (Some(false), Vec::new()),
        "full" => (Some(true), SUITES.to_vec()),
        "all" => (None, SUITES.to_vec()),
        one if SUITES.contains(&one) => (None, vec![one]),
        other => {
            return Err(format!(
                "unknown suite `{other}` (known: quick, full, all, {})",
                SUITES.join(", ")
            ));
        }
    };
    let libs = compare_libs(&args.compare)?;
    let reference = !args.no_python && !libs.is_empty();
    let machine = machine_info(args, reference);
    let opts = SuiteOptions {
        repeat: args.repeat.max(1),
        quick: args.quick,
    };
    eprintln!(
        "ndlearn benchmarks on {}, git {}",
        machine.describe(),
        machine.git
    );
    if !machine.openblas_env.is_empty() {
        eprintln!(
            "note: OpenBLAS variables set for this run: {:?}",
            machine.openblas_env
        );
    }
    let mut records = Vec::new();
    let mut notes = Vec::new();
    if let Some(full) = registry {
        registry_run(args, full, reference, &mut records, &mut notes)?;
    }
    for &suite in &hand {
        eprintln!("running suite {suite} (ndlearn) ...");
        let out = match suite {
            "linalg" => linalg_suite(opts),
            "metrics" => metrics_suite(opts),
            "preprocessing" => preprocessing_suite(opts),
            "linear" => linear_suite(opts),
            "classify" => classify_suite(opts),
            "cluster" => cluster_suite(opts),
            "decomposition" => decomposition_suite(opts),
            "svm" => svm_suite(opts),
            "tree" => tree_suite(opts),
            "gbdt" => gbdt_suite(opts),
            "neural" => neural_suite(opts),
            _ => core_suite(opts),
        };
        records.extend(out.map_err(|e| format!("{suite} suite failed: {e}"))?);
        if reference {
            // The hand-written suites alternate suite by suite (run.py builds the same data).
            match run_python(args, suite) {
                Ok(theirs) => records.extend(theirs),
                Err(e) => eprintln!("note: numpy/scikit-learn side of {suite} skipped: {e}"),
            }
        }
    }
    write_outputs(args, &machine, &records, &notes)?;
    if args.json {
        for r in &records {
            println!("{}", serde_json::to_string(r).map_err(|e| e.to_string())?);
        }
    } else {
        print!("{}", table(&records));
        for n in &notes {
            println!("note: {n}");
        }
    }
    Ok(())
}

/// The registry suites: every case ours, then theirs, then the next case.
fn registry_run(
    args: &Args,
    full: bool,
    reference: bool,
    records: &mut Vec<Record>,
    notes: &mut Vec<String>,
) -> Result<(), String> {
    let entries = ndlearn_cli::entries();
    let cases = registry_suite::plan(&entries, full, &args.out.join("data"), args.only.as_deref())?;
    let mut worker = if reference {
        match registry_suite::Reference::start(&python_path(args)) {
            Ok(w) => Some(w),
            Err(e) => {
                eprintln!("note: scikit-learn side skipped: {e}");
                None
            }
        }
    } else {
        None
    };
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(cases.len() as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    eprintln!(
        "running suite {} ({} cases{}) ...",
        if full { "full" } else { "quick" },
        cases.len(),
        if worker.is_some() {
            ", ndlearn and scikit-learn alternating"
        } else {
            ""
        }
    );
    for case in &cases {
        bar.set_message(format!("{} on {}", case.algo, case.data.name));
        let Some(entry) = entries.iter().find(|e| e.name() == case.algo) else {
            continue;
        };
        let (ours, params) = registry_suite::run_ours(entry, case, args.repeat.max(1));
        records.push(ours);
        if let Some(w) = worker.as_mut() {
            match w.run(case, &params, args.repeat.max(1)) {
                Ok((theirs, note)) => {
                    records.extend(theirs);
                    if let Some(n) = note
                        && !notes
                            .iter()
                            .any(|m| m.starts_with(&format!("{}:", case.algo)))
                    {
                        notes.push(format!("{}: {n}", case.algo));
                    }
                }
                Err(e) => {
                    eprintln!("note: scikit-learn side stopped: {e}");
                    worker = None;
                }
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    Ok(())
}

/// `--memory`: every memory case, ndlearn then (with `--compare sklearn`) scikit-learn, each
/// in a fresh process; prints the table and writes it to `<out>/memory.md` with the machine.
fn memory_run(args: &Args) -> Result<(), String> {
    let reference = !args.no_python && !compare_libs(&args.compare)?.is_empty();
    let machine = machine_info(args, reference);
    let exe = std::env::current_exe().map_err(|e| format!("cannot find this binary: {e}"))?;
    eprintln!(
        "ndlearn peak memory on {}, git {}",
        machine.describe(),
        machine.git
    );
    let mut rows = Vec::new();
    for case in memory::cases(args.quick) {
        if args
            .only
            .as_ref()
            .is_some_and(|o| !case.name.contains(o.as_str()))
        {
            continue;
        }
        case.prepare()?;
        eprintln!("memory: {} ...", case.name);
        let ours_side = |warm: bool| {
            let mut cmd = Command::new(&exe);
            cmd.args(["--memory-case", case.name]);
            if args.quick {
                cmd.arg("--quick");
            }
            if warm {
                cmd.arg("--memory-warm");
            }
            child_measurement(&mut cmd)
                .map_err(|e| eprintln!("note: ndlearn side of {} failed: {e}", case.name))
                .ok()
        };
        let their_side = |warm: bool| {
            if !reference {
                return None;
            }
            let mut request = case.request();
            request["warm"] = serde_json::Value::Bool(warm);
            let mut cmd = Command::new(python_path(args));
            cmd.arg("benches/sklearn/run.py")
                .arg("--memory-case")
                .arg(request.to_string());
            child_measurement(&mut cmd)
                .map_err(|e| eprintln!("note: scikit-learn side of {} failed: {e}", case.name))
                .ok()
        };
        rows.push(memory::MemoryRow {
            ours: ours_side(false),
            theirs: their_side(false),
            ours_warm: ours_side(true),
            theirs_warm: their_side(true),
            case,
        });
    }
    let table = memory::table(&rows);
    let head = format!(
        "Peak RSS above each side's baseline, git {}, {}; OPENBLAS_* unset.\n\n",
        machine.git,
        machine.describe()
    );
    fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join("memory.md");
    let table = format!("{table}\n{}\n", memory::RSS_RESOLUTION_NOTE);
    fs::write(&path, format!("{head}{table}"))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let jsonl = args.out.join("memory.jsonl");
    let mut lines = String::new();
    for m in rows.iter().flat_map(|r| {
        [&r.ours, &r.theirs, &r.ours_warm, &r.theirs_warm]
            .into_iter()
            .flatten()
    }) {
        lines.push_str(&serde_json::to_string(m).map_err(|e| e.to_string())?);
        lines.push('\n');
    }
    fs::write(&jsonl, lines).map_err(|e| format!("cannot write {}: {e}", jsonl.display()))?;
    print!("{head}{table}");
    eprintln!("written {} and {}", path.display(), jsonl.display());
    Ok(())
}

/// The machine, with OpenBLAS's kernel (a child of this binary started with
/// `OPENBLAS_VERBOSE=2`) and, when the reference side runs, numpy's BLAS (`run.py --blas-info`).
fn machine_info(args: &Args, reference: bool) -> MachineInfo {
    let mut machine = MachineInfo::current();
    if let Ok(exe) = std::env::current_exe()
        && let Ok(out) = Command::new(exe)
            .arg("--blas-probe")
            .env("OPENBLAS_VERBOSE", "2")
            .output()
    {
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        if let Some(core) = ndlearn_bench::openblas_core_from_output(&text) {
            machine.blas_kernel = core;
        }
    }
    if reference
        && let Ok(out) = Command::new(python_path(args))
            .arg("benches/sklearn/run.py")
            .arg("--blas-info")
            .output()
        && out.status.success()
    {
        let line = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !line.is_empty() {
            machine.reference_blas = Some(line);
        }
    }
    machine
}

/// Runs a measuring child and reads the last JSON line of its output.
fn child_measurement(cmd: &mut Command) -> Result<memory::Measurement, String> {
    let out = cmd.output().map_err(|e| format!("cannot start: {e}"))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(err.lines().last().unwrap_or("no output").to_string());
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text
        .lines()
        .rev()
        .find(|l| l.starts_with('{'))
        .ok_or("no measurement printed")?;
    serde_json::from_str(line).map_err(|e| format!("bad measurement `{line}`: {e}"))
}

fn python_path(args: &Args) -> PathBuf {
    if let Some(p) = &args.python {
        return p.clone();
    }
    let venv = PathBuf::from("target/golden-venv/bin/python");
    if venv.exists() {
        venv
    } else {
        PathBuf::from("python3")
    }
}

/// The reference libraries of `--compare` (`none`: empty).
fn compare_libs(spec: &str) -> Result<Vec<&str>, String> {
    if spec == "none" {
        return Ok(Vec::new());
    }
    spec.split(',')
        .map(str::trim)
        .map(|lib| match lib {
            "sklearn" | "lightgbm" | "xgboost" | "torch" => Ok(lib),
            other => Err(format!(
                "unknown --compare `{other}` (known: sklearn, lightgbm, xgboost, torch, none)"
            )),
        })
        .collect()
}

fn run_python(args: &Args, suite: &str) -> Result<Vec<Record>, String> {
    let py = python_path(args);
    eprintln!(
        "running suite {suite} (numpy / scikit-learn via {}) ...",
        py.display()
    );
    let mut cmd = Command::new(&py);
    cmd.arg("benches/sklearn/run.py").args([
        "--suite",
        suite,
        "--repeat",
        &args.repeat.max(1).to_string(),
        "--libs",
        &args.compare,
    ]);
    if args.quick {
        cmd.arg("--quick");
    }
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", py.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!(
            "run.py failed: {}",
            err.lines().last().unwrap_or("no output")
        ));
    }
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .filter(|l| l.starts_with('{'))
        .map(|l| {
            serde_json::from_str::<Record>(l).map_err(|e| format!("bad line from run.py: {e}: {l}"))
        })
        .collect()
}

fn write_outputs(
    args: &Args,
    machine: &MachineInfo,
    records: &[Record],
    notes: &[String],
) -> Result<(), String> {
    fs::create_dir_all(&args.out)
        .map_err(|e| format!("cannot create {}: {e}", args.out.display()))?;
    let path = args.out.join("latest.jsonl");
    let mut f =
        fs::File::create(&path).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    let head = serde_json::to_string(machine).map_err(|e| e.to_string())?;
    writeln!(f, "{head}").map_err(|e| e.to_string())?;
    for r in records {
        writeln!(
            f,
            "{}",
            serde_json::to_string(r).map_err(|e| e.to_string())?
        )
        .map_err(|e| e.to_string())?;
    }
    let md = args.out.join("latest.md");
    fs::write(&md, markdown(machine, records, notes))
        .map_err(|e| format!("cannot write {}: {e}", md.display()))?;
    let svg = args.out.join("ratios.svg");
    let bars: Vec<(String, f64)> = pairs(records)
        .into_iter()
        .filter_map(|(ours, theirs)| {
            let t = theirs?;
            let (a, b) = (ours.fit_s + ours.predict_s, t.fit_s + t.predict_s);
            (a > 0.0 && b > 0.0).then(|| (format!("{} / {}", ours.algo, ours.dataset), a / b))
        })
        .collect();
    if !bars.is_empty() {
        ndlearn_bench::chart::ratio_bars(&svg, &bars)?;
        eprintln!(
            "wrote {}, {} and {}",
            path.display(),
            md.display(),
            svg.display()
        );
    } else {
        eprintln!("wrote {} and {}", path.display(), md.display());
    }
    Ok(())
}

type Key = (String, String, usize);

fn key(r: &Record) -> Key {
    (r.algo.clone(), r.dataset.clone(), r.n)
}

/// Each ndlearn record with each matching reference record (one row per reference), or alone.
fn pairs(records: &[Record]) -> Vec<(&Record, Option<&Record>)> {
    let mut refs: HashMap<Key, Vec<&Record>> = HashMap::new();
    for r in records.iter().filter(|r| r.implementation != "ndlearn") {
        refs.entry(key(r)).or_default().push(r);
    }
    records
        .iter()
        .filter(|r| r.implementation == "ndlearn")
        .flat_map(|r| match refs.get(&key(r)) {
            Some(list) => list.iter().map(|o| (r, Some(*o))).collect::<Vec<_>>(),
            None => vec![(r, None)],
        })
        .collect()
}

fn ratio(ours: f64, theirs: f64) -> String {
    if ours > 0.0 && theirs > 0.0 {
        format!("{:.2}", ours / theirs)
    } else {
        "-".into()
    }
}

fn quality(r: &Record) -> String {
    if r.metric.starts_with("error") {
        r.metric.chars().take(60).collect()
    } else {
        format!("{} = {:.4e}", r.metric, r.value)
    }
}

/// Rows: one per ndlearn case, with the matching reference and the time ratios
/// ndlearn / reference (below 1: ndlearn faster).
fn rows(records: &[Record]) -> Vec<[String; 12]> {
    pairs(records)
        .into_iter()
        .map(|(r, other)| {
            [
                r.algo.clone(),
                r.dataset.clone(),
                format!("{} x {}", r.n, r.d),
                fmt_seconds(r.fit_s),
                other.map_or("-".into(), |o| {
                    format!("{} ({})", fmt_seconds(o.fit_s), o.implementation)
                }),
                other.map_or("-".into(), |o| ratio(r.fit_s, o.fit_s)),
                fmt_seconds(r.predict_s),
                other.map_or("-".into(), |o| fmt_seconds(o.predict_s)),
                other.map_or("-".into(), |o| ratio(r.predict_s, o.predict_s)),
                quality(r),
                other.map_or("-".into(), quality),
                r.gflops.map_or("-".into(), |g| format!("{g:.1}")),
            ]
        })
        .collect()
}

const HEADER: [&str; 12] = [
    "algorithm",
    "data set",
    "rows x cols",
    "fit",
    "reference fit",
    "fit ratio",
    "predict",
    "ref. predict",
    "predict ratio",
    "quality",
    "ref. quality",
    "GFLOP/s",
];

const LEGEND: &str = "ratio = ndlearn time / reference time (below 1: ndlearn faster). Kernels report their time as fit. Medians.";

fn table(records: &[Record]) -> String {
    let rows = rows(records);
    let mut w: Vec<usize> = HEADER.iter().map(|h| h.chars().count()).collect();
    for r in &rows {
        for (i, c) in r.iter().enumerate() {
            w[i] = w[i].max(c.chars().count());
        }
    }
    let line = |cells: Vec<&str>| {
        cells
            .iter()
            .enumerate()
            .map(|(i, c)| format!("{c:<width$}", width = w[i]))
            .collect::<Vec<_>>()
            .join("  ")
    };
    let mut s = String::new();
    s.push_str(&line(HEADER.to_vec()));
    s.push('\n');
    s.push_str(&line(w.iter().map(|_| "").collect()).replace(' ', "-"));
    s.push('\n');
    for r in &rows {
        s.push_str(&line(r.iter().map(String::as_str).collect()));
        s.push('\n');
    }
    s.push_str(LEGEND);
    s.push('\n');
    s
}

fn markdown(machine: &MachineInfo, records: &[Record], notes: &[String]) -> String {
    let mut s = format!(
        "Machine: {}, git {}\n\n| {} |\n|{}|\n",
        machine.describe(),
        machine.git,
        HEADER.join(" | "),
        HEADER.iter().map(|_| "---").collect::<Vec<_>>().join("|")
    );
    for r in rows(records) {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s.push_str(&format!("\n{LEGEND}\n"));
    for n in notes {
        s.push_str(&format!("\n- {n}"));
    }
    if !notes.is_empty() {
        s.push('\n');
    }
    s
}
