//! The registry-driven suites `quick` and `full`: every estimator of the `ndlearn` command line
//! ([`ndlearn_cli::entries`]) on the data sets of its kind, timed exactly as `ndlearn bench`
//! times it ([`ndlearn_cli::metrics::measure`]: fit and predict only, never loading), and, when
//! asked, scikit-learn on the very same CSV files with the same hyperparameters, case by case
//! (ours, then theirs, then the next case).
//!
//! | kind | `quick` (embedded data) | `full` adds (generated, written once to `<out>/data/`) |
//! |---|---|---|
//! | classifier | iris, wine, breast_cancer, digits | `classification_20k` (20,000 × 20, 3 classes) |
//! | regressor | diabetes | `regression_20k` (20,000 × 20) |
//! | clusterer | iris, wine, digits (the target is the reference for the ARI) | `blobs_20k` (20,000 × 16, 8 blobs) |
//! | transformer | iris, wine, digits | `blobs_20k` |
//! | outlier detector | iris, wine, breast_cancer, digits (the fraction flagged is the metric) | `blobs_20k` |
//!
//! Clusterers get `n_clusters` (or, for mixtures, `n_components`) set to the number of reference
//! classes, on both sides; every other hyperparameter keeps its default, which is scikit-learn's
//! by design (the reference side lists any default that differs in the case's `note`).
//! Estimators whose cost grows quadratically or worse in `n` (registry entries marked heavy,
//! [`Entry::is_heavy`]) run in `quick` on the smallest and the largest embedded set of their
//! kind only, and in `full` skip the 20,000-row sets.
//!
//! Timing policy, identical on both sides: one call; if it took more than
//! [`SINGLE_SHOT_S`] seconds it is the measurement, otherwise it was the warm-up and the median
//! of `repeat` further calls is reported, the calls repeated beyond `repeat` until they add up
//! to [`MIN_TOTAL_S`] seconds (at most [`MAX_CALLS`]), so rows of microseconds are medians of
//! hundreds of calls rather than of a handful.

use std::io::{BufRead, BufReader, Write as _};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use ndarray::{Array1, Array2};
use ndlearn_cli::data::{self, TargetArg};
use ndlearn_cli::metrics::{Measurement, measure};
use ndlearn_core::random;
use ndlearn_core::registry::{Entry, Kind};
use serde_json::{Value, json};

use crate::Record;

/// Seconds above which a single call is the measurement (no warm-up, no repeats).
pub const SINGLE_SHOT_S: f64 = 0.5;

/// Seconds the timed calls (after the warm-up) add up to at least, on each side.
pub const MIN_TOTAL_S: f64 = 0.2;

/// Most timed calls of one case (the repetitions [`MIN_TOTAL_S`] asks for stop there).
pub const MAX_CALLS: usize = 5_000;

/// Rows above which a heavy entry ([`Entry::is_heavy`]: quadratic memory or worse than
/// quadratic time) is left out of the `full` suite's generated sets.
pub const HEAVY_MAX_ROWS: usize = 5_000;

/// The data sets a heavy entry runs on in the `quick` suite: the smallest and the largest
/// embedded set of its kind (the others add minutes, not information).
fn heavy_quick_subset(sets: &[&DataSet]) -> Vec<DataSet> {
    let mut out: Vec<DataSet> = Vec::new();
    let smallest = sets.iter().min_by_key(|d| d.n);
    let largest = sets.iter().max_by_key(|d| d.n);
    for d in smallest.into_iter().chain(largest) {
        if !out.iter().any(|o| o.name == d.name) {
            out.push((*d).clone());
        }
    }
    out
}

/// One data set of the registry suites.
#[derive(Debug, Clone)]
pub struct DataSet {
    /// Name (the file stem).
    pub name: String,
    /// The CSV file (header row, target column `target` last).
    pub path: PathBuf,
    /// Rows.
    pub n: usize,
    /// Kinds of estimator run on it.
    pub kinds: Vec<Kind>,
    /// Number of classes of the target (0 for a numeric target).
    pub n_classes: usize,
}

/// One estimator on one data set.
#[derive(Debug, Clone)]
pub struct Case {
    /// Registry name.
    pub algo: String,
    /// Kind of the estimator.
    pub kind: Kind,
    /// The data set.
    pub data: DataSet,
    /// Hyperparameters set for this case (`key=value`), the same on both sides.
    pub overrides: Vec<(String, String)>,
}

/// The workspace's embedded data sets (`datasets/data/*.csv`, relative to the workspace root).
fn embedded() -> Vec<DataSet> {
    let root = PathBuf::from("datasets/data");
    let c = Kind::Classifier;
    let r = Kind::Regressor;
    let k = Kind::Clusterer;
    let t = Kind::Transformer;
    let o = Kind::OutlierDetector;
    vec![
        ds(&root, "iris", 150, vec![c, k, t, o], 3),
        ds(&root, "wine", 178, vec![c, k, t, o], 3),
        ds(&root, "breast_cancer", 569, vec![c, o], 2),
        ds(&root, "digits", 1797, vec![c, k, t, o], 10),
        ds(&root, "diabetes", 442, vec![r], 0),
    ]
}

fn ds(root: &Path, name: &str, n: usize, kinds: Vec<Kind>, n_classes: usize) -> DataSet {
    DataSet {
        name: name.into(),
        path: root.join(format!("{name}.csv")),
        n,
        kinds,
        n_classes,
    }
}

fn write_csv(
    path: &Path,
    x: &Array2<f64>,
    y: &Array1<f64>,
    integer_target: bool,
) -> Result<(), String> {
    let mut w = csv::Writer::from_path(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut head: Vec<String> = (0..x.ncols()).map(|j| format!("x{j}")).collect();
    head.push("target".into());
    w.write_record(&head).map_err(|e| e.to_string())?;
    for (row, t) in x.rows().into_iter().zip(y) {
        let mut cells: Vec<String> = row.iter().map(|v| format!("{v:.17e}")).collect();
        cells.push(if integer_target {
            format!("{}", *t as i64)
        } else {
            format!("{t:.17e}")
        });
        w.write_record(&cells).map_err(|e| e.to_string())?;
    }
    w.flush().map_err(|e| e.to_string())
}

/// Writes (once) and lists the generated data sets of the `full` suite under `dir`.
pub fn generated(dir: &Path) -> Result<Vec<DataSet>, String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    let n = 20_000;
    let mut out = Vec::new();

    let path = dir.join("classification_20k.csv");
    if !path.exists() {
        let mut rng = random::rng(101);
        let x = Array2::from_shape_fn((n, 20), |_| random::standard_normal::<f64>(&mut rng));
        let w = Array2::from_shape_fn((20, 3), |_| random::standard_normal::<f64>(&mut rng));
        let z = x.dot(&w);
        let y = Array1::from_iter(z.rows().into_iter().map(|r| {
            let noisy: Vec<f64> = r
                .iter()
                .map(|v| v + random::standard_normal::<f64>(&mut rng))
                .collect();
            let mut best = 0;
            for (k, v) in noisy.iter().enumerate() {
                if *v > noisy[best] {
                    best = k;
                }
            }
            best as f64
        }));
        write_csv(&path, &x, &y, true)?;
    }
    out.push(DataSet {
        name: "classification_20k".into(),
        path,
        n,
        kinds: vec![Kind::Classifier],
        n_classes: 3,
    });

    let path = dir.join("regression_20k.csv");
    if !path.exists() {
        let mut rng = random::rng(102);
        let x = Array2::from_shape_fn((n, 20), |_| random::standard_normal::<f64>(&mut rng));
        let w = Array1::from_shape_fn(20, |_| random::standard_normal::<f64>(&mut rng));
        let mut y = x.dot(&w) + 0.5;
        y.mapv_inplace(|v| v + random::standard_normal::<f64>(&mut rng));
        write_csv(&path, &x, &y, false)?;
    }
    out.push(DataSet {
        name: "regression_20k".into(),
        path,
        n,
        kinds: vec![Kind::Regressor],
        n_classes: 0,
    });

    let path = dir.join("blobs_20k.csv");
    if !path.exists() {
        let mut rng = random::rng(103);
        let centres =
            Array2::from_shape_fn((8, 16), |_| random::uniform::<f64>(&mut rng, -5.0, 5.0));
        let y = Array1::from_shape_fn(n, |i| (i % 8) as f64);
        let x = Array2::from_shape_fn((n, 16), |(i, j)| {
            centres[[i % 8, j]] + random::standard_normal::<f64>(&mut rng)
        });
        write_csv(&path, &x, &y, true)?;
    }
    out.push(DataSet {
        name: "blobs_20k".into(),
        path,
        n,
        kinds: vec![Kind::Clusterer, Kind::Transformer, Kind::OutlierDetector],
        n_classes: 8,
    });
    Ok(out)
}

/// The cases of the `quick` (embedded data) or `full` (plus generated data) suite, optionally
/// only for the estimators whose name contains `filter`.
pub fn plan(
    entries: &[Entry],
    full: bool,
    data_dir: &Path,
    filter: Option<&str>,
) -> Result<Vec<Case>, String> {
    let mut sets = embedded();
    if full {
        sets.extend(generated(data_dir)?);
    }
    let mut cases = Vec::new();
    for e in entries {
        if filter.is_some_and(|f| !e.name().contains(f)) {
            continue;
        }
        let names: Vec<String> = e
            .params()
            .map_err(|err| format!("{}: {err}", e.name()))?
            .into_iter()
            .map(|p| p.name)
            .collect();
        let of_kind: Vec<&DataSet> = sets
            .iter()
            .filter(|d| d.kinds.contains(&e.kind()))
            .collect();
        let chosen: Vec<DataSet> = if !e.is_heavy() {
            of_kind.into_iter().cloned().collect()
        } else if full {
            of_kind
                .into_iter()
                .filter(|d| d.n <= HEAVY_MAX_ROWS)
                .cloned()
                .collect()
        } else {
            heavy_quick_subset(&of_kind)
        };
        for d in &chosen {
            let mut overrides = Vec::new();
            if e.kind() == Kind::Clusterer && d.n_classes > 0 {
                for key in ["n_clusters", "n_components"] {
                    if names.iter().any(|n| n == key) {
                        overrides.push((key.to_string(), d.n_classes.to_string()));
                        break;
                    }
                }
            }
            cases.push(Case {
                algo: e.name().to_string(),
                kind: e.kind(),
                data: d.clone(),
                overrides,
            });
        }
    }
    Ok(cases)
}

/// The timing policy of the module docs, applied to `f` (which returns one measurement).
pub fn timed<E>(
    repeat: usize,
    mut f: impl FnMut() -> Result<Measurement, E>,
) -> Result<Measurement, E> {
    let first = f()?;
    if first.fit_s + first.predict_s > SINGLE_SHOT_S {
        return Ok(first);
    }
    let mut runs = Vec::with_capacity(repeat.max(1));
    let mut total = 0.0;
    while runs.len() < repeat.max(1) || (total < MIN_TOTAL_S && runs.len() < MAX_CALLS) {
        let m = f()?;
        total += m.fit_s + m.predict_s;
        runs.push(m);
    }
    let mut fits: Vec<f64> = runs.iter().map(|m| m.fit_s).collect();
    let mut preds: Vec<f64> = runs.iter().map(|m| m.predict_s).collect();
    fits.sort_by(f64::total_cmp);
    preds.sort_by(f64::total_cmp);
    let last = runs[runs.len() - 1];
    Ok(Measurement {
        fit_s: fits[fits.len() / 2],
        predict_s: preds[preds.len() / 2],
        ..last
    })
}

fn base_record(case: &Case, n: usize, d: usize, implementation: &str) -> Record {
    Record {
        suite: "registry".into(),
        algo: case.algo.clone(),
        dataset: case.data.name.clone(),
        n,
        d,
        fit_s: 0.0,
        predict_s: 0.0,
        metric: String::new(),
        value: f64::NAN,
        gflops: None,
        implementation: implementation.into(),
        threads: ndlearn_core::par::current_num_threads(),
    }
}

/// Runs one case with ndlearn. Returns the record and the full hyperparameters used (JSON), or
/// a record whose `metric` is `error: …` (value NaN) when the estimator refused the data.
pub fn run_ours(entry: &Entry, case: &Case, repeat: usize) -> (Record, Value) {
    let attempt = || -> Result<(Record, Value), String> {
        let est = entry.build(&case.overrides).map_err(|e| e.to_string())?;
        let table = data::load(&case.data.path, &TargetArg::Default, entry.kind())
            .map_err(|e| e.message)?;
        let m = timed(repeat, || {
            measure(entry, est.as_ref(), &table, &table, false)
        })
        .map_err(|e| e.message)?;
        let mut r = base_record(case, table.n, table.feature_names.len(), "ndlearn");
        r.fit_s = m.fit_s;
        r.predict_s = m.predict_s;
        r.metric = m.metric.into();
        r.value = m.value;
        Ok((r, est.params()))
    };
    match attempt() {
        Ok(done) => done,
        Err(e) => {
            let mut r = base_record(case, case.data.n, 0, "ndlearn");
            r.metric = format!("error: {e}");
            (r, Value::Null)
        }
    }
}

/// The scikit-learn side: one `benches/sklearn/run.py --serve` process answering one JSON
/// request per line, so ours and theirs alternate case by case.
pub struct Reference {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Reference {
    /// Starts the worker with `python`.
    pub fn start(python: &Path) -> Result<Self, String> {
        let mut child = Command::new(python)
            .args(["benches/sklearn/run.py", "--serve"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", python.display()))?;
        let stdin = child.stdin.take().ok_or("no stdin for run.py")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout for run.py")?);
        let mut me = Self {
            child,
            stdin,
            stdout,
        };
        // The worker prints one ready line once scikit-learn is imported.
        let ready = me.read_line()?;
        if !ready.contains("ready") {
            return Err(format!("run.py --serve did not start: {ready}"));
        }
        Ok(me)
    }

    fn read_line(&mut self) -> Result<String, String> {
        let mut line = String::new();
        let got = self
            .stdout
            .read_line(&mut line)
            .map_err(|e| format!("reading from run.py: {e}"))?;
        if got == 0 {
            return Err("run.py exited".into());
        }
        Ok(line)
    }

    /// Runs `case` with scikit-learn; `ours` is ndlearn's full hyperparameter set. Returns the
    /// record (`None` when scikit-learn has no equivalent) and the worker's note: the
    /// hyperparameters whose ndlearn default differs from scikit-learn's, if any.
    pub fn run(
        &mut self,
        case: &Case,
        ours: &Value,
        repeat: usize,
    ) -> Result<(Option<Record>, Option<String>), String> {
        let overrides: serde_json::Map<String, Value> = case
            .overrides
            .iter()
            .map(|(k, _)| (k.clone(), ours.get(k).cloned().unwrap_or(Value::Null)))
            .collect();
        let request = json!({
            "algo": case.algo,
            "kind": case.kind.to_string(),
            "dataset": case.data.name,
            "path": case.data.path,
            "overrides": overrides,
            "ours": ours,
            "repeat": repeat,
            "single_shot_s": SINGLE_SHOT_S,
            "min_total_s": MIN_TOTAL_S,
            "max_calls": MAX_CALLS,
        });
        writeln!(self.stdin, "{request}").map_err(|e| format!("writing to run.py: {e}"))?;
        self.stdin
            .flush()
            .map_err(|e| format!("writing to run.py: {e}"))?;
        let line = self.read_line()?;
        let mut v: Value = serde_json::from_str(&line)
            .map_err(|e| format!("bad reply from run.py: {e}: {line}"))?;
        // A failed reference case has no value (JSON null): keep the record, value NaN.
        if let Some(value) = v.get_mut("value")
            && value.is_null()
        {
            *value = json!(0.0);
        }
        let note = v.get("note").and_then(Value::as_str).map(str::to_string);
        if v.get("skipped").is_some() {
            return Ok((None, note));
        }
        let record = serde_json::from_value(v)
            .map_err(|e| format!("bad record from run.py: {e}: {line}"))?;
        Ok((Some(record), note))
    }
}

impl Drop for Reference {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "{{\"quit\": true}}");
        let _ = self.stdin.flush();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `timed` over fake calls of `seconds` each: the number of calls it made and its answer.
    fn count_calls(repeat: usize, seconds: &[f64]) -> (usize, Measurement) {
        let mut calls = 0usize;
        let m = timed(repeat, || -> Result<Measurement, ()> {
            let s = seconds[calls.min(seconds.len() - 1)];
            calls += 1;
            Ok(Measurement {
                fit_s: s,
                predict_s: 0.0,
                metric: "accuracy",
                value: calls as f64,
            })
        })
        .expect("timed");
        (calls, m)
    }

    #[test]
    fn timing_repeats_short_calls_until_min_total_and_takes_long_ones_once() {
        // a long first call is the measurement
        let (calls, m) = count_calls(5, &[0.6]);
        assert_eq!((calls, m.fit_s), (1, 0.6));
        // calls of 0.1 s: the warm-up and `repeat` calls (0.5 s ≥ MIN_TOTAL_S)
        let (calls, _) = count_calls(5, &[0.1]);
        assert_eq!(calls, 6);
        // calls of 1 ms: repeated until they add up to MIN_TOTAL_S (about 200 after the warm-up)
        let (calls, m) = count_calls(5, &[0.001]);
        assert!((200..=202).contains(&(calls - 1)), "{calls} calls");
        assert_eq!(m.fit_s, 0.001);
        // calls of no measurable time stop at MAX_CALLS
        let (calls, _) = count_calls(5, &[0.0]);
        assert_eq!(calls, MAX_CALLS + 1);
        // the median of the timed calls, not of the warm-up
        let (_, m) = count_calls(3, &[0.4, 0.1, 0.3, 0.2]);
        assert_eq!(m.fit_s, 0.2);
    }

    #[test]
    fn quick_plan_covers_every_entry_on_a_data_set_of_its_kind() -> Result<(), String> {
        let entries = ndlearn_cli::entries();
        let dir = std::env::temp_dir();
        let cases = plan(&entries, false, &dir, None)?;
        for e in &entries {
            assert!(
                cases.iter().any(|c| c.algo == e.name()),
                "{} has no case",
                e.name()
            );
        }
        for c in &cases {
            let e = entries.iter().find(|e| e.name() == c.algo).ok_or("entry")?;
            assert!(c.data.kinds.contains(&e.kind()));
        }
        // Heavy entries run on the smallest and the largest set of their kind only.
        for e in entries.iter().filter(|e| e.is_heavy()) {
            let sets: Vec<&str> = cases
                .iter()
                .filter(|c| c.algo == e.name())
                .map(|c| c.data.name.as_str())
                .collect();
            assert!(sets.len() <= 2, "{}: {sets:?}", e.name());
            if e.kind() != Kind::Regressor {
                assert!(sets.contains(&"digits"), "{}: {sets:?}", e.name());
            }
        }
        assert!(entries.iter().filter(|e| e.is_heavy()).count() >= 10);
        Ok(())
    }
}
