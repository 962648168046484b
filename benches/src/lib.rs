//! # ndlearn-bench
//!
//! The benchmark harness of the workspace (not published):
//!
//! - `benches/*.rs`: criterion micro-benchmarks (`cargo bench -p ndlearn-bench`), e.g. the
//!   linalg facade against calling `ndarray-linalg` directly.
//! - the `compare` binary (`cargo xtask bench`): suites of data set × size × algorithm, timed in
//!   release mode, printed as a table and written as JSON lines under `target/ndlearn-bench/`,
//!   side by side with `benches/sklearn/run.py` (numpy / scikit-learn on the same shapes, in the
//!   same run, under the same OpenBLAS environment).
//!
//! This library holds what both share: the record format, timing, machine description and the
//! suites themselves ([`suites`]).

use std::process::Command;
use std::time::Instant;

use serde::{Deserialize, Serialize};

pub mod chart;
pub mod memory;
pub mod registry_suite;
pub mod suites;
pub mod suites_classify;
pub mod suites_cluster;
pub mod suites_core;
pub mod suites_decomposition;
pub mod suites_gbdt;
pub mod suites_linear;
pub mod suites_metrics;
pub mod suites_neural;
pub mod suites_preprocessing;
pub mod suites_svm;
pub mod suites_tree;

/// One measured row: an algorithm (or kernel) on one data set, by one implementation.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Record {
    /// Suite name (`linalg`, later `linear`, `cluster`, ...).
    pub suite: String,
    /// Algorithm or kernel name, shared with `benches/sklearn/run.py`.
    pub algo: String,
    /// Data set name (embedded data set or `synthetic`).
    pub dataset: String,
    /// Rows of the input.
    pub n: usize,
    /// Columns of the input.
    pub d: usize,
    /// Median seconds of the fit (for kernels: the whole kernel).
    pub fit_s: f64,
    /// Median seconds of predict (0 for kernels).
    pub predict_s: f64,
    /// Name of the quality metric (`rel_residual`, `accuracy`, `r2`, ...).
    pub metric: String,
    /// Value of the quality metric.
    pub value: f64,
    /// Achieved GFLOP/s where a standard flop count exists, else `None`.
    pub gflops: Option<f64>,
    /// Implementation: `ndlearn` or `numpy` / `scikit-learn`.
    pub implementation: String,
    /// Threads available to the run (rayon pool / OpenBLAS).
    pub threads: usize,
}

/// Times `f` `repeat` times after one warm-up call and returns the median seconds and the last
/// result.
pub fn time_median<T>(repeat: usize, mut f: impl FnMut() -> T) -> (f64, T) {
    let mut last = f();
    let mut times = Vec::with_capacity(repeat.max(1));
    for _ in 0..repeat.max(1) {
        // Free the previous result first: its deallocation is not part of the next call.
        drop(last);
        let t = Instant::now();
        last = f();
        times.push(t.elapsed().as_secs_f64());
    }
    times.sort_by(f64::total_cmp);
    (times[times.len() / 2], last)
}

/// Times one call of `f`, without a warm-up: for cases that take minutes on one side (the
/// large SVM fits), where a second call would only double the run.
pub fn time_once<T>(f: impl FnOnce() -> T) -> (f64, T) {
    let t = Instant::now();
    let value = f();
    (t.elapsed().as_secs_f64(), value)
}

/// Description of the machine and build, written as the first JSON line of every run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct MachineInfo {
    /// CPU model name from `/proc/cpuinfo`.
    pub cpu: String,
    /// Logical CPUs.
    pub cores: usize,
    /// rayon threads used.
    pub threads: usize,
    /// BLAS backend feature of ndlearn-core.
    pub blas: String,
    /// `git rev-parse --short HEAD`, when available.
    pub git: String,
    /// OPENBLAS_* variables seen by the run.
    pub openblas_env: Vec<(String, String)>,
    /// The widest SIMD level of the CPU (`ndlearn_core::simd`: `avx512`, `avx2`, `avx`,
    /// `baseline`).
    pub simd: String,
    /// The compute kernel OpenBLAS selected for this CPU (`OPENBLAS_VERBOSE=2`'s `Core:`), when
    /// the runner probed it; `unknown` otherwise.
    pub blas_kernel: String,
    /// The reference side's BLAS (threadpoolctl's answer for numpy), when it ran.
    pub reference_blas: Option<String>,
}

impl MachineInfo {
    /// Reads the current machine.
    pub fn current() -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|s| {
                s.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|s| s.trim().to_string())
            })
            .unwrap_or_else(|| "unknown".into());
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let git = Command::new("git")
            .args(["rev-parse", "--short", "HEAD"])
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            .unwrap_or_else(|| "unknown".into());
        let openblas_env = std::env::vars()
            .filter(|(k, _)| k.starts_with("OPENBLAS"))
            .collect();
        Self {
            cpu,
            cores,
            threads: ndlearn_core::par::current_num_threads(),
            blas: "openblas-system".into(),
            git,
            openblas_env,
            simd: ndlearn_core::simd::detected().name().to_string(),
            blas_kernel: "unknown".into(),
            reference_blas: None,
        }
    }

    /// One line for a table's header: the CPU, its SIMD level, both sides' BLAS and kernels.
    pub fn describe(&self) -> String {
        format!(
            "{} ({} cores, SIMD {}); ndlearn: {} threads, BLAS {} (OpenBLAS kernel {}); \
             reference: {}",
            self.cpu,
            self.cores,
            self.simd,
            self.threads,
            self.blas,
            self.blas_kernel,
            self.reference_blas.as_deref().unwrap_or("not run")
        )
    }
}

/// The `Core:` line OpenBLAS prints when it loads with `OPENBLAS_VERBOSE=2`, from a process's
/// output (`None` when there is none).
pub fn openblas_core_from_output(output: &str) -> Option<String> {
    output
        .lines()
        .find_map(|l| l.trim().strip_prefix("Core:"))
        .map(|c| c.trim().to_string())
        .filter(|c| !c.is_empty())
}

/// Formats seconds with a unit that keeps 3 significant digits.
pub fn fmt_seconds(s: f64) -> String {
    if s == 0.0 {
        "-".into()
    } else if s < 1e-3 {
        format!("{:.1} µs", s * 1e6)
    } else if s < 1.0 {
        format!("{:.2} ms", s * 1e3)
    } else {
        format!("{s:.3} s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_format() {
        let mut calls = 0;
        let (t, last) = time_median(3, || {
            calls += 1;
            calls
        });
        assert!(t >= 0.0);
        assert_eq!(last, 4, "one warm-up plus three timed calls");
        assert_eq!(fmt_seconds(0.0), "-");
        assert_eq!(fmt_seconds(2.5e-6), "2.5 µs");
        assert_eq!(fmt_seconds(0.0125), "12.50 ms");
        assert_eq!(fmt_seconds(3.0), "3.000 s");
        assert!(MachineInfo::current().cores >= 1);
        assert_eq!(
            openblas_core_from_output("Core: Prescott\nother").as_deref(),
            Some("Prescott")
        );
        assert_eq!(openblas_core_from_output("no kernel line"), None);
    }
}
