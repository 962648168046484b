//! `ndlearn-dist measure`: the distributed measurements of docs/distributed.md. Generates the
//! tables (unless present), starts a local cluster (one `ndlearn-scheduler` and `executors`
//! single-core `ndlearn-executor` processes: one task slot each, one BLAS and one rayon
//! thread), fits every algorithm on the cluster and on one machine from the same files, and
//! prints a Markdown table.

use crate::{Failure, FitArgs, GenerateSpec, generate, run_fit};
use ndlearn_ballista::{LocalCluster, LocalClusterSpec};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// What [`run`] measures.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Table sizes (rows).
    pub rows: Vec<u64>,
    /// Features.
    pub features: usize,
    /// Where the tables go (`rows-N-d-D/` each).
    pub dir: PathBuf,
    /// Executor processes.
    pub executors: usize,
    /// Algorithms (default: OLS, Gaussian NB, PCA, logistic regression, k-means).
    pub algorithms: Vec<String>,
    /// Also fit on one machine from the same files.
    pub local: bool,
}

/// The scheduler and executors (binaries next to this one), single-core executors.
fn start(dir: &Path, executors: usize) -> Result<LocalCluster, Failure> {
    let exe = std::env::current_exe().map_err(|e| Failure(e.to_string()))?;
    let spec = LocalClusterSpec {
        bin_dir: exe.parent().map(Path::to_path_buf).unwrap_or_default(),
        work_dir: dir.to_path_buf(),
        executors,
        executor_env: ["OPENBLAS_NUM_THREADS", "RAYON_NUM_THREADS"]
            .iter()
            .map(|k| (k.to_string(), "1".to_string()))
            .collect(),
        ..LocalClusterSpec::default()
    };
    LocalCluster::start(&spec).map_err(|e| Failure(format!("the local cluster: {e}")))
}

fn fit_args(algo: &str, table: &Path, cluster: &str, model: PathBuf) -> FitArgs {
    let (target, params): (Option<&str>, Vec<&str>) = match algo {
        "gaussian_nb" => (Some("class"), vec![]),
        "logistic_regression" => (Some("b"), vec![]),
        "pca" => (None, vec!["n_components=10", "solver=covariance_eigh"]),
        "kmeans" => (None, vec!["n_clusters=4", "algorithm=lloyd"]),
        _ => (Some("y"), vec![]),
    };
    FitArgs {
        cluster: cluster.into(),
        data: table.to_string_lossy().into_owned(),
        algo: algo.into(),
        features: vec!["x*".into()],
        target: target.map(String::from),
        id: Some("id".into()),
        params: params.into_iter().map(String::from).collect(),
        model,
        partitions: None,
        report: true,
        pass_timeout: None,
    }
}

/// Reads every file of the table once, so both sides read it from the page cache.
fn warm(table: &Path) -> Result<(), Failure> {
    use std::io::Read;
    let mut buf = vec![0u8; 8 << 20];
    let entries = std::fs::read_dir(table).map_err(|e| Failure(e.to_string()))?;
    for e in entries {
        let path = e.map_err(|e| Failure(e.to_string()))?.path();
        if path.extension().is_some_and(|x| x == "parquet") {
            let mut f = std::fs::File::open(&path).map_err(|e| Failure(e.to_string()))?;
            while f.read(&mut buf).map_err(|e| Failure(e.to_string()))? > 0 {}
        }
    }
    Ok(())
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or(f64::NAN)
}

/// Runs the plan; returns the Markdown table.
///
/// # Errors
/// Generation, cluster start-up and fit failures.
pub async fn run(plan: &Plan) -> Result<String, Failure> {
    std::fs::create_dir_all(&plan.dir).map_err(|e| Failure(e.to_string()))?;
    let mut tables = Vec::new();
    for &n in &plan.rows {
        let t = plan.dir.join(format!("rows-{n}-d-{}", plan.features));
        if !t.join("COMPLETE").exists() {
            let spec = GenerateSpec {
                rows: n,
                features: plan.features,
                classes: 4,
                files: 8,
                row_group: 131_072,
                float32: false,
                seed: 0,
            };
            let started = Instant::now();
            generate(&spec, &t)?;
            std::fs::write(t.join("COMPLETE"), b"").map_err(|e| Failure(e.to_string()))?;
            eprintln!(
                "generated {n} rows in {:.1} s",
                started.elapsed().as_secs_f64()
            );
        }
        tables.push((n, t));
    }
    let cluster = start(&plan.dir, plan.executors)?;
    let url = cluster.url();
    let models = plan.dir.join("models");
    std::fs::create_dir_all(&models).map_err(|e| Failure(e.to_string()))?;
    let mut out = String::from(
        "| algorithm | rows | cluster s | passes | s / pass | state bytes / pass | shuffle bytes / pass (est.) | one machine s (read + fit) |\n|---|---|---|---|---|---|---|---|\n",
    );
    for algo in &plan.algorithms {
        for (n, t) in &tables {
            warm(t)?;
            let c = run_fit(&fit_args(
                algo,
                t,
                &url,
                models.join(format!("{algo}-{n}-cluster.json")),
            ))
            .await?;
            eprintln!("{c}");
            let local = if plan.local {
                let l = run_fit(&fit_args(
                    algo,
                    t,
                    "local",
                    models.join(format!("{algo}-{n}-local.json")),
                ))
                .await?;
                eprintln!("{l}");
                format!(
                    "{:.2} ({:.2} + {:.2})",
                    num(&l, "seconds"),
                    num(&l, "read_seconds"),
                    num(&l, "seconds") - num(&l, "read_seconds")
                )
            } else {
                "–".into()
            };
            out += &format!(
                "| {algo} | {n} | {:.2} | {} | {:.3} | {} | {} | {local} |\n",
                num(&c, "seconds"),
                c["passes"],
                num(&c, "seconds_per_pass"),
                c["state_bytes_per_pass"],
                c["shuffle_bytes_per_pass_estimate"],
            );
        }
    }
    Ok(out)
}
