//! A real cluster on 127.0.0.1: one `ndlearn-scheduler` and two `ndlearn-executor` processes on
//! free ports, started and stopped by the test by PID; fits through `Cluster::remote` equal the
//! single-machine fits.

use datafusion::prelude::ParquetReadOptions;
use ndlearn_ballista::{Cluster, LocalCluster, LocalClusterSpec};
use ndlearn_core::FitUnsupervised;
use ndlearn_datafusion::fit;
use std::time::Duration;

mod common;

/// A scheduler and `n` executors on free ports of 127.0.0.1 (`fast`: heartbeats every second
/// and executors declared dead after 3 s, for the fault test). Logs go under
/// `NDLEARN_TEST_LOG_DIR` when it is set (with `RUST_LOG` passed through, to debug the cluster).
fn start_cluster(dir: &std::path::Path, n: usize, fast: bool) -> LocalCluster {
    let strings = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_ndlearn-scheduler"));
    let spec = LocalClusterSpec {
        bin_dir: bin.parent().expect("the binaries' directory").to_path_buf(),
        work_dir: dir.to_path_buf(),
        executors: n,
        scheduler_args: if fast {
            strings(&[
                "--executor-timeout-seconds",
                "3",
                "--expire-dead-executor-interval-seconds",
                "1",
            ])
        } else {
            Vec::new()
        },
        executor_args: strings(&["--scheduler-connect-timeout-seconds", "30"])
            .into_iter()
            .chain(if fast {
                strings(&["--executor-heartbeat-interval-seconds", "1"])
            } else {
                Vec::new()
            })
            .collect(),
        executor_env: Vec::new(),
        log_dir: std::env::var_os("NDLEARN_TEST_LOG_DIR").map(Into::into),
    };
    LocalCluster::start(&spec).expect("a local cluster")
}

/// The test table as Parquet in a temporary directory, a two-executor cluster (see
/// [`start_cluster`]) and the table read through it.
async fn table_on_cluster(
    fast: bool,
) -> (
    tempfile::TempDir,
    LocalCluster,
    datafusion::prelude::DataFrame,
) {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("t");
    let path = path.to_str().expect("utf-8").to_string();
    common::write_table(&path).await;
    let cluster = start_cluster(dir.path(), 2, fast);
    let ctx = Cluster::remote(&cluster.url())
        .await
        .expect("remote context");
    let df = ctx
        .read_parquet(&path, ParquetReadOptions::default())
        .await
        .expect("read");
    (dir, cluster, df)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fits_on_scheduler_and_executor_processes_equal_single_machine_fits() {
    let (_dir, _cluster, df) = table_on_cluster(false).await;
    common::assert_ols_matches(&df).await;
    common::assert_kmeans_matches(&df).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fit_survives_an_executor_killed_mid_job() {
    // a pass here takes well under a second; a job left waiting on the dead executor is
    // abandoned after 20 s and submitted again (Ballista 55 can wait on it indefinitely)
    fit::set_pass_timeout(Some(Duration::from_secs(20)));
    let (_dir, mut cluster, df) = table_on_cluster(true).await;
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
    let pid = cluster.kill_executor(0).expect("a running executor");
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
