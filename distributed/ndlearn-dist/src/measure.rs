//! `ndlearn-dist measure`: the distributed measurements of docs/distributed.md. Generates the
//! tables (unless present), starts a local cluster (one `ndlearn-scheduler` and `executors`
//! single-core `ndlearn-executor` processes: one task slot each, one BLAS and one rayon
//! thread), fits every algorithm on the cluster and on one machine from the same files, and
//! prints a Markdown table.

use crate::{Failure, FitArgs, GenerateSpec, generate, run_fit};
use serde_json::Value;
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

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

/// A child process killed when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> Result<u16, Failure> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .map_err(|e| Failure(format!("no free port: {e}")))
}

fn wait_for(port: u16, what: &str, child: &mut Child) -> Result<(), Failure> {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            return Err(Failure(format!("{what} exited: {status}")));
        }
        if start.elapsed() > Duration::from_secs(60) {
            return Err(Failure(format!("{what} did not start within 60 s")));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// The scheduler and executors; the scheduler's port.
fn start(dir: &Path, executors: usize) -> Result<(u16, Vec<Proc>), Failure> {
    let exe = std::env::current_exe().map_err(|e| Failure(e.to_string()))?;
    let bin = |name: &str| exe.with_file_name(name);
    let sp = free_port()?;
    let mut procs = Vec::new();
    let child = Command::new(bin("ndlearn-scheduler"))
        .args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
        .args(["--bind-port", &sp.to_string()])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| {
            Failure(format!(
                "cannot start ndlearn-scheduler next to {}: {e}",
                exe.display()
            ))
        })?;
    procs.push(Proc(child));
    if let Some(p) = procs.last_mut() {
        wait_for(sp, "ndlearn-scheduler", &mut p.0)?;
    }
    for e in 0..executors {
        let (p, g) = (free_port()?, free_port()?);
        let work = dir.join(format!("executor-{e}"));
        std::fs::create_dir_all(&work).map_err(|e| Failure(e.to_string()))?;
        let child = Command::new(bin("ndlearn-executor"))
            .args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
            .args([
                "--scheduler-host",
                "127.0.0.1",
                "--scheduler-port",
                &sp.to_string(),
            ])
            .args([
                "--bind-port",
                &p.to_string(),
                "--bind-grpc-port",
                &g.to_string(),
            ])
            .args(["--vcores", "1"])
            .args(["--work-dir", &work.to_string_lossy()])
            .env("OPENBLAS_NUM_THREADS", "1")
            .env("RAYON_NUM_THREADS", "1")
            .stdout(Stdio::null())
            .spawn()
            .map_err(|e| Failure(format!("cannot start ndlearn-executor: {e}")))?;
        procs.push(Proc(child));
        if let Some(last) = procs.last_mut() {
            wait_for(p, "ndlearn-executor", &mut last.0)?;
        }
    }
    Ok((sp, procs))
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
    let (port, _procs) = start(&plan.dir, plan.executors)?;
    let url = format!("df://127.0.0.1:{port}");
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
