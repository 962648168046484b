//! `ndlearn-fuzz`: runs every fuzz target of [`ndlearn_fuzz`] for a time budget.
//!
//! ```text
//! ndlearn-fuzz [--seconds N] [--target NAME]... [--seed S] [--corpus DIR]
//! ndlearn-fuzz --stress
//! ```
//!
//! Each target runs in a child process (`--worker`), so that an abort (a failed allocation, a
//! stack overflow) or a hang is caught as well as a panic: before each execution the worker
//! writes its input to `<corpus>/<target>/.current`; when the worker dies or stops making
//! progress, the parent saves that input as a finding. Inputs are fresh random bytes or
//! mutations of the corpus (byte flips, insertions, deletions, splices), from a seeded
//! generator. Every finding is written to `<corpus>/<target>/<kind>-<hash>` and replayed by
//! the crate's test. Exit status 1 when anything was found.

use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant, SystemTime};

use clap::Parser;
use ndlearn_core::registry::Precision;
use ndlearn_fuzz::{Outcome, Target};
use rand::{Rng, RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// Structured random fuzzing of ndlearn's untrusted inputs.
#[derive(Parser, Debug)]
#[command(name = "ndlearn-fuzz")]
struct Args {
    /// Seconds per target.
    #[arg(long, default_value_t = 60)]
    seconds: u64,
    /// Targets to run (default: all of csv, model_file, param, fit_predict).
    #[arg(long = "target")]
    targets: Vec<String>,
    /// Seed of the input generator (the run is reproducible for a seed, up to timing).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Corpus directory (one subdirectory per target).
    #[arg(long, default_value = "crates/fuzz/corpus")]
    corpus: PathBuf,
    /// A worker's progress older than this many seconds counts as a hang.
    #[arg(long, default_value_t = 60)]
    hang_seconds: u64,
    /// Save the first N accepted inputs of each target as `seed-*` corpus files (to start a
    /// corpus; the replay test needs one per target).
    #[arg(long, default_value_t = 0)]
    save_seeds: usize,
    /// Print the numerical stress table (every registered estimator × every stress case, f64
    /// and f32) instead of fuzzing; exit status 1 when a cell is a failure.
    #[arg(long)]
    stress: bool,
    /// Run these saved inputs of the first `--target` once each, with the panic messages and
    /// backtraces shown (to reproduce a finding).
    #[arg(long, num_args = 1..)]
    replay: Vec<PathBuf>,
    /// Internal: run one target in this process.
    #[arg(long, hide = true)]
    worker: Option<String>,
}

fn main() -> ExitCode {
    let args = Args::parse();
    if let Some(name) = &args.worker {
        return match Target::from_name(name) {
            Some(t) => worker(t, &args),
            None => {
                eprintln!("unknown target `{name}`");
                ExitCode::from(2)
            }
        };
    }
    if !args.replay.is_empty() {
        let Some(t) = args.targets.first().and_then(|n| Target::from_name(n)) else {
            eprintln!("--replay needs --target NAME");
            return ExitCode::from(2);
        };
        let mut failed = false;
        for path in &args.replay {
            let input = std::fs::read(path).unwrap_or_default();
            let r = std::panic::catch_unwind(AssertUnwindSafe(|| t.run(&input)));
            println!("{}: {r:?}", path.display());
            failed |= r.is_err();
        }
        return if failed {
            ExitCode::from(1)
        } else {
            ExitCode::SUCCESS
        };
    }
    if args.stress {
        let mut failures = 0;
        let cases = ndlearn_fuzz::stress::cases();
        for p in [Precision::F64, Precision::F32] {
            let (table, f) = ndlearn_fuzz::stress::table(p, ndlearn_fuzz::entries(), &cases);
            println!("\n{p:?}:\n\n{table}");
            failures += f;
        }
        println!("{failures} failures");
        return if failures == 0 {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        };
    }
    let targets: Vec<Target> = if args.targets.is_empty() {
        Target::ALL.to_vec()
    } else {
        let mut v = Vec::new();
        for name in &args.targets {
            match Target::from_name(name) {
                Some(t) => v.push(t),
                None => {
                    eprintln!(
                        "unknown target `{name}` (targets: csv, model_file, param, fit_predict)"
                    );
                    return ExitCode::from(2);
                }
            }
        }
        v
    };
    let mut failed = false;
    println!("| target | seconds | executions | accepted | rejected | findings |");
    println!("|---|---|---|---|---|---|");
    for t in targets {
        match parent(t, &args) {
            Ok(ok) => failed |= !ok,
            Err(e) => {
                eprintln!("{}: {e}", t.name());
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}

/// Runs the worker of `t` and watches it; `Ok(true)` when nothing was found.
fn parent(t: Target, args: &Args) -> std::io::Result<bool> {
    let dir = args.corpus.join(t.name());
    std::fs::create_dir_all(&dir)?;
    let current = dir.join(".current");
    let _ = std::fs::remove_file(&current);
    let report = dir.join(".report");
    let _ = std::fs::remove_file(&report);
    let mut child = Command::new(std::env::current_exe()?)
        .arg("--worker")
        .arg(t.name())
        .arg("--seconds")
        .arg(args.seconds.to_string())
        .arg("--seed")
        .arg(args.seed.to_string())
        .arg("--corpus")
        .arg(&args.corpus)
        .arg("--save-seeds")
        .arg(args.save_seeds.to_string())
        .spawn()?;
    let started = Instant::now();
    let hang = Duration::from_secs(args.hang_seconds);
    let status = loop {
        if let Some(s) = child.try_wait()? {
            break Some(s);
        }
        let stale = std::fs::metadata(&current)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|m| SystemTime::now().duration_since(m).ok())
            .is_some_and(|age| age > hang);
        if stale && started.elapsed() > hang {
            child.kill()?;
            let _ = child.wait();
            break None;
        }
        std::thread::sleep(Duration::from_millis(200));
    };
    let ok = match status {
        // Exit 1: the worker saved its own findings (panics) and reported them.
        Some(s) if s.success() || s.code() == Some(1) => s.success(),
        other => {
            let what = if other.is_none() { "hang" } else { "abort" };
            if let Ok(input) = std::fs::read(&current) {
                let path = save(&dir, what, &input)?;
                eprintln!(
                    "{}: {what} ({}) on {}",
                    t.name(),
                    other.map_or("no progress".to_string(), |s| s.to_string()),
                    path.display()
                );
            }
            false
        }
    };
    let _ = std::fs::remove_file(&current);
    match std::fs::read_to_string(&report) {
        Ok(line) => println!("{}", line.trim_end()),
        Err(_) => println!(
            "| {} | {} | — | — | — | worker died |",
            t.name(),
            args.seconds
        ),
    }
    let _ = std::fs::remove_file(&report);
    Ok(ok)
}

/// Writes a finding under a name derived from its bytes.
fn save(dir: &Path, kind: &str, input: &[u8]) -> std::io::Result<PathBuf> {
    let mut h = DefaultHasher::new();
    input.hash(&mut h);
    let path = dir.join(format!("{kind}-{:016x}", h.finish()));
    std::fs::write(&path, input)?;
    Ok(path)
}

/// The corpus of a target: every file of its directory except the worker's scratch files.
fn corpus(dir: &Path) -> Vec<Vec<u8>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| {
                    p.file_name()
                        .and_then(|n| n.to_str())
                        .is_some_and(|n| !n.starts_with('.'))
                })
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    files.iter().filter_map(|p| std::fs::read(p).ok()).collect()
}

/// A new input: random bytes, or a mutation of a corpus entry.
fn next_input(rng: &mut Xoshiro256PlusPlus, seeds: &[Vec<u8>]) -> Vec<u8> {
    if seeds.is_empty() || rng.random_bool(0.6) {
        let len = rng.random_range(0..2048);
        let mut v = vec![0u8; len];
        rng.fill_bytes(&mut v);
        return v;
    }
    let mut v = seeds[rng.random_range(0..seeds.len())].clone();
    for _ in 0..rng.random_range(1..=4) {
        match rng.random_range(0..4) {
            0 if !v.is_empty() => {
                let i = rng.random_range(0..v.len());
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 => {
                let i = rng.random_range(0..=v.len());
                v.insert(i, rng.random());
            }
            2 if !v.is_empty() => {
                let i = rng.random_range(0..v.len());
                v.remove(i);
            }
            _ if !v.is_empty() => {
                let other = &seeds[rng.random_range(0..seeds.len())];
                let cut = rng.random_range(0..v.len());
                v.truncate(cut);
                v.extend_from_slice(other);
            }
            _ => {}
        }
    }
    v
}

fn worker(t: Target, args: &Args) -> ExitCode {
    let dir = args.corpus.join(t.name());
    let current = dir.join(".current");
    let seeds = corpus(&dir);
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(args.seed ^ (t as u64).wrapping_mul(0x9E37));
    std::panic::set_hook(Box::new(|_| {}));
    let (mut execs, mut accepted, mut rejected, mut findings) = (0u64, 0u64, 0u64, 0u64);
    // One saved input per distinct message (digits removed), so a finding's mutations do not
    // flood the corpus.
    let mut seen = std::collections::HashSet::new();
    // The first input is the empty one; it also builds the shared state (the registry, the
    // model pool), which the budget does not count.
    let mut deadline = None;
    while deadline.is_none_or(|d| Instant::now() < d) {
        let input = if deadline.is_none() {
            Vec::new()
        } else {
            next_input(&mut rng, &seeds)
        };
        if std::fs::write(&current, &input).is_err() {
            eprintln!("cannot write {}", current.display());
            return ExitCode::from(2);
        }
        execs += 1;
        match std::panic::catch_unwind(AssertUnwindSafe(|| t.run(&input))) {
            Ok(Outcome::Accepted) => {
                accepted += 1;
                if (accepted as usize) <= args.save_seeds {
                    let _ = save(&dir, "seed", &input);
                }
            }
            Ok(Outcome::Rejected) => rejected += 1,
            Err(payload) => {
                findings += 1;
                let msg = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_string()))
                    .unwrap_or_default();
                let signature: String = msg.chars().filter(|c| !c.is_ascii_digit()).collect();
                if seen.insert(signature) {
                    match save(&dir, "crash", &input) {
                        Ok(p) => eprintln!("{}: panic: {msg}\n  saved {}", t.name(), p.display()),
                        Err(e) => eprintln!("{}: panic: {msg} (not saved: {e})", t.name()),
                    }
                }
            }
        }
        if deadline.is_none() {
            deadline = Some(Instant::now() + Duration::from_secs(args.seconds));
        }
    }
    let line = format!(
        "| {} | {} | {execs} | {accepted} | {rejected} | {findings} ({} distinct) |\n",
        t.name(),
        args.seconds,
        seen.len()
    );
    let _ = std::fs::write(dir.join(".report"), line);
    if findings > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
