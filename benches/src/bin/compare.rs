//! `compare`: runs the benchmark suites for ndlearn and, in the same run, the numpy /
//! scikit-learn equivalents (`benches/sklearn/run.py`), then prints one table with the ratios and
//! writes JSON lines under `target/ndlearn-bench/`.
//!
//! Run it through `cargo xtask bench` (release build, OpenBLAS tuning variables unset for both
//! sides).

use std::collections::HashMap;
use std::fs;
use std::io::Write as _;
use std::path::PathBuf;
use std::process::{Command, ExitCode};

use clap::Parser;
use ndlearn_bench::suites::{SuiteOptions, linalg_suite};
use ndlearn_bench::suites_core::core_suite;
use ndlearn_bench::suites_linear::linear_suite;
use ndlearn_bench::suites_metrics::metrics_suite;
use ndlearn_bench::suites_preprocessing::preprocessing_suite;
use ndlearn_bench::{MachineInfo, Record, fmt_seconds};

/// Side-by-side benchmark runner: ndlearn vs numpy / scikit-learn.
#[derive(Debug, Parser)]
#[command(name = "compare", version)]
struct Args {
    /// Suite to run: `linalg`, `core` (neighbours, distances, kernels), `metrics` (ROC AUC,
    /// silhouette), `preprocessing` (scalers, polynomial features), `linear` (linear models) or
    /// `all`.
    #[arg(long, default_value = "all")]
    suite: String,
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
    /// Skip the numpy / scikit-learn side.
    #[arg(long)]
    no_python: bool,
    /// Print the JSON lines instead of the table.
    #[arg(long)]
    json: bool,
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
const SUITES: [&str; 5] = ["linalg", "core", "metrics", "preprocessing", "linear"];

fn run(args: &Args) -> Result<(), String> {
    let suites: Vec<&str> = match args.suite.as_str() {
        "all" => SUITES.to_vec(),
        one if SUITES.contains(&one) => vec![one],
        other => {
            return Err(format!(
                "unknown suite `{other}` (known: all, {})",
                SUITES.join(", ")
            ));
        }
    };
    let machine = MachineInfo::current();
    let opts = SuiteOptions {
        repeat: args.repeat.max(1),
        quick: args.quick,
    };
    eprintln!(
        "ndlearn benchmarks on {} ({} cores, {} threads), git {}",
        machine.cpu, machine.cores, machine.threads, machine.git
    );
    if !machine.openblas_env.is_empty() {
        eprintln!(
            "note: OpenBLAS variables set for this run: {:?}",
            machine.openblas_env
        );
    }
    let mut ours = Vec::new();
    for &suite in &suites {
        eprintln!("running suite {suite} (ndlearn) ...");
        let records = match suite {
            "linalg" => linalg_suite(opts),
            "metrics" => metrics_suite(opts),
            "preprocessing" => preprocessing_suite(opts),
            "linear" => linear_suite(opts),
            _ => core_suite(opts),
        };
        ours.extend(records.map_err(|e| format!("{suite} suite failed: {e}"))?);
    }
    let theirs = if args.no_python {
        Vec::new()
    } else {
        run_python(args).unwrap_or_else(|e| {
            eprintln!("note: numpy/scikit-learn side skipped: {e}");
            Vec::new()
        })
    };
    ours.extend(theirs);
    write_outputs(args, &machine, &ours)?;
    if args.json {
        for r in &ours {
            println!("{}", serde_json::to_string(r).map_err(|e| e.to_string())?);
        }
    } else {
        print!("{}", table(&ours));
    }
    Ok(())
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

fn run_python(args: &Args) -> Result<Vec<Record>, String> {
    let py = python_path(args);
    eprintln!(
        "running suite {} (numpy / scikit-learn via {}) ...",
        args.suite,
        py.display()
    );
    let mut cmd = Command::new(&py);
    cmd.arg("benches/sklearn/run.py").args([
        "--suite",
        &args.suite,
        "--repeat",
        &args.repeat.max(1).to_string(),
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

fn write_outputs(args: &Args, machine: &MachineInfo, records: &[Record]) -> Result<(), String> {
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
    fs::write(&md, markdown(machine, records))
        .map_err(|e| format!("cannot write {}: {e}", md.display()))?;
    eprintln!("wrote {} and {}", path.display(), md.display());
    Ok(())
}

type Key = (String, String, usize, usize);

fn key(r: &Record) -> Key {
    (r.algo.clone(), r.dataset.clone(), r.n, r.d)
}

/// Rows: one per ndlearn case, with the matching reference times and the ratio of total times
/// (reference / ours: above 1 means ndlearn is faster).
fn rows(records: &[Record]) -> Vec<[String; 10]> {
    let refs: HashMap<Key, &Record> = records
        .iter()
        .filter(|r| r.implementation != "ndlearn")
        .map(|r| (key(r), r))
        .collect();
    records
        .iter()
        .filter(|r| r.implementation == "ndlearn")
        .map(|r| {
            let other = refs.get(&key(r));
            [
                r.algo.clone(),
                r.dataset.clone(),
                format!("{} x {}", r.n, r.d),
                fmt_seconds(r.fit_s),
                fmt_seconds(r.predict_s),
                other.map_or("-".into(), |o| {
                    format!("{} ({})", fmt_seconds(o.fit_s), o.implementation)
                }),
                other.map_or("-".into(), |o| fmt_seconds(o.predict_s)),
                other.map_or("-".into(), |o| {
                    format!("{:.2}", (o.fit_s + o.predict_s) / (r.fit_s + r.predict_s))
                }),
                r.gflops.map_or("-".into(), |g| format!("{g:.1}")),
                format!("{} = {:.4e}", r.metric, r.value),
            ]
        })
        .collect()
}

const HEADER: [&str; 10] = [
    "algorithm",
    "data set",
    "rows x cols",
    "fit",
    "predict",
    "reference fit",
    "ref. predict",
    "ratio",
    "GFLOP/s",
    "quality",
];

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
    s.push_str(
        "ratio = reference (fit + predict) / ndlearn (fit + predict); above 1: ndlearn faster. Kernels report their time as fit. Medians.\n",
    );
    s
}

fn markdown(machine: &MachineInfo, records: &[Record]) -> String {
    let mut s = format!(
        "Machine: {} ({} cores), threads {}, BLAS {}, git {}\n\n| {} |\n|{}|\n",
        machine.cpu,
        machine.cores,
        machine.threads,
        machine.blas,
        machine.git,
        HEADER.join(" | "),
        HEADER.iter().map(|_| "---").collect::<Vec<_>>().join("|")
    );
    for r in rows(records) {
        s.push_str(&format!("| {} |\n", r.join(" | ")));
    }
    s
}
