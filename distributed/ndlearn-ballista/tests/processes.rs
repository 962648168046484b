//! A real cluster on 127.0.0.1: one `ndlearn-scheduler` and two `ndlearn-executor` processes on
//! free ports, started and stopped by the test by PID; fits through `Cluster::remote` equal the
//! single-machine fits.

use datafusion::prelude::ParquetReadOptions;
use ndlearn_ballista::Cluster;
use ndlearn_core::FitUnsupervised;
use ndlearn_datafusion::fit;
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

mod common;

/// A child process killed (by PID) when dropped.
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Where a process's output goes: files under `NDLEARN_TEST_LOG_DIR` when it is set (with
/// `RUST_LOG` passed through, to debug the cluster), else nowhere.
fn output(name: &str) -> (Stdio, Stdio) {
    match std::env::var_os("NDLEARN_TEST_LOG_DIR") {
        Some(dir) => {
            let file = |ext: &str| {
                std::fs::File::create(std::path::Path::new(&dir).join(format!("{name}.{ext}")))
                    .map(Stdio::from)
                    .unwrap_or_else(|_| Stdio::null())
            };
            (file("out"), file("err"))
        }
        None => (Stdio::null(), Stdio::null()),
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

fn wait_for(port: u16, what: &str, child: &mut Child) {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = child.try_wait() {
            panic!("{what} exited early: {status}");
        }
        assert!(
            start.elapsed() < Duration::from_secs(60),
            "{what} did not start"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// A scheduler and `n` executors on free ports of 127.0.0.1 (`fast`: heartbeats every second
/// and executors declared dead after 3 s, for the fault test); the scheduler's port.
fn start_cluster(dir: &std::path::Path, n: usize, fast: bool) -> (u16, Proc, Vec<Proc>) {
    let sp = free_port();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ndlearn-scheduler"));
    cmd.args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
        .args(["--bind-port", &sp.to_string()]);
    let (out, err) = output("scheduler");
    cmd.stdout(out).stderr(err);
    if fast {
        cmd.args(["--executor-timeout-seconds", "3"])
            .args(["--expire-dead-executor-interval-seconds", "1"]);
    }
    let mut scheduler = cmd.spawn().expect("scheduler");
    wait_for(sp, "the scheduler", &mut scheduler);
    let scheduler = Proc(scheduler);
    let mut executors = Vec::new();
    for e in 0..n {
        let (p, g) = (free_port(), free_port());
        let work = dir.join(format!("work{e}"));
        std::fs::create_dir_all(&work).expect("work dir");
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ndlearn-executor"));
        cmd.args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
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
            .args(["--vcores", "1", "--scheduler-connect-timeout-seconds", "30"])
            .args(["--work-dir", work.to_str().expect("utf-8")]);
        let (out, err) = output(&format!("executor{e}"));
        cmd.stdout(out).stderr(err);
        if fast {
            cmd.args(["--executor-heartbeat-interval-seconds", "1"]);
        }
        let mut child = cmd.spawn().expect("executor");
        wait_for(p, "an executor", &mut child);
        executors.push(Proc(child));
    }
    (sp, scheduler, executors)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fits_on_scheduler_and_executor_processes_equal_single_machine_fits() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t");
    let path = path.to_str().expect("utf-8").to_string();
    common::write_table(&path).await;

    let (sp, scheduler, executors) = start_cluster(dir.path(), 2, false);
    let ctx = Cluster::remote(&format!("df://127.0.0.1:{sp}"))
        .await
        .expect("remote context");
    let df = ctx
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    common::assert_ols_matches(&df).await;
    common::assert_kmeans_matches(&df).await;
    drop(executors);
    drop(scheduler);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fit_survives_an_executor_killed_mid_job() {
    // a pass here takes well under a second; a job left waiting on the dead executor is
    // abandoned after 20 s and submitted again (Ballista 55 can wait on it indefinitely)
    fit::set_pass_timeout(Some(Duration::from_secs(20)));
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t");
    let path = path.to_str().expect("utf-8").to_string();
    common::write_table(&path).await;
    let (sp, _scheduler, mut executors) = start_cluster(dir.path(), 2, true);
    let ctx = Cluster::remote(&format!("df://127.0.0.1:{sp}"))
        .await
        .expect("remote context");
    let df = ctx
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    let (x, ..) = common::data();
    // a tight tolerance (not 0: partial sums merged in another order leave ulps of shift), so
    // the kill lands while rounds are still running
    let est = common::kmeans_from_first_rows(&x).tol(1e-12);
    let job = {
        let df = df.clone();
        let est = est.clone();
        tokio::spawn(async move { fit::kmeans(&df, &common::COLS, &est).await })
    };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let victim = executors.remove(0);
    let pid = victim.0.id();
    drop(victim); // SIGKILL by PID, then reaped
    let a = job
        .await
        .expect("join")
        .expect("the fit finishes on the surviving executor");
    let b = est.fit(&x).expect("kmeans");
    assert!(
        (a.centers() - b.centers()).iter().all(|v| v.abs() <= 1e-10),
        "pid {pid}"
    );
    assert_eq!(a.n_iter(), b.n_iter());
    // and a new job runs on the survivor alone
    common::assert_ols_matches(&df).await;
}
