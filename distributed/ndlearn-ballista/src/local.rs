//! A cluster of processes on 127.0.0.1: one `ndlearn-scheduler` and a number of
//! `ndlearn-executor`s on free ports, each with one task slot, killed (by PID) when the
//! [`LocalCluster`] is dropped. For tests, measurements and trying the distributed fits on one
//! machine.

use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How to start a [`LocalCluster`].
#[derive(Debug, Clone, Default)]
pub struct LocalClusterSpec {
    /// The directory holding the `ndlearn-scheduler` and `ndlearn-executor` binaries.
    pub bin_dir: PathBuf,
    /// Where the executors' work directories (`executor-0`, …) go.
    pub work_dir: PathBuf,
    /// Number of executors.
    pub executors: usize,
    /// Extra scheduler arguments.
    pub scheduler_args: Vec<String>,
    /// Extra executor arguments.
    pub executor_args: Vec<String>,
    /// Extra environment of the executors.
    pub executor_env: Vec<(String, String)>,
    /// Where the processes' stdout and stderr go (`scheduler.out`, `executor-0.err`, …);
    /// `None` discards them.
    pub log_dir: Option<PathBuf>,
}

/// A running local cluster (see the [module docs](self)).
#[derive(Debug)]
pub struct LocalCluster {
    port: u16,
    scheduler: Child,
    executors: Vec<Option<Child>>,
}

fn free_port() -> std::io::Result<u16> {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
}

fn other(msg: String) -> std::io::Error {
    std::io::Error::other(msg)
}

/// Waits (up to 60 s) until `port` accepts connections; an error if `child` exits first.
fn wait_for(port: u16, what: &str, child: &mut Child) -> std::io::Result<()> {
    let start = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Some(status) = child.try_wait()? {
            return Err(other(format!("{what} exited early: {status}")));
        }
        if start.elapsed() > Duration::from_secs(60) {
            return Err(other(format!("{what} did not start within 60 s")));
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(())
}

/// The stdout and stderr of the process `name`.
fn output(log_dir: Option<&Path>, name: &str) -> std::io::Result<(Stdio, Stdio)> {
    Ok(match log_dir {
        Some(dir) => {
            let file = |ext: &str| -> std::io::Result<Stdio> {
                Ok(Stdio::from(std::fs::File::create(
                    dir.join(format!("{name}.{ext}")),
                )?))
            };
            (file("out")?, file("err")?)
        }
        None => (Stdio::null(), Stdio::null()),
    })
}

fn kill(child: &mut Child) {
    let _ = child.kill();
    let _ = child.wait();
}

impl LocalCluster {
    /// Starts the scheduler, waits until it listens, then each executor likewise.
    ///
    /// # Errors
    /// A missing binary, no free port, a process that exits or does not listen within 60 s,
    /// an unwritable work or log directory. Processes already started are killed.
    pub fn start(spec: &LocalClusterSpec) -> std::io::Result<Self> {
        let port = free_port()?;
        let mut cmd = Command::new(spec.bin_dir.join("ndlearn-scheduler"));
        cmd.args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
            .args(["--bind-port", &port.to_string()])
            .args(&spec.scheduler_args);
        let (out, err) = output(spec.log_dir.as_deref(), "scheduler")?;
        let scheduler = cmd.stdout(out).stderr(err).spawn().map_err(|e| {
            other(format!(
                "cannot start {}: {e}",
                spec.bin_dir.join("ndlearn-scheduler").display()
            ))
        })?;
        // from here on, dropping `cluster` kills what was started
        let mut cluster = LocalCluster {
            port,
            scheduler,
            executors: Vec::new(),
        };
        wait_for(port, "ndlearn-scheduler", &mut cluster.scheduler)?;
        for e in 0..spec.executors {
            let (p, g) = (free_port()?, free_port()?);
            let work = spec.work_dir.join(format!("executor-{e}"));
            std::fs::create_dir_all(&work)?;
            let mut cmd = Command::new(spec.bin_dir.join("ndlearn-executor"));
            cmd.args(["--bind-host", "127.0.0.1", "--external-host", "127.0.0.1"])
                .args(["--scheduler-host", "127.0.0.1"])
                .args(["--scheduler-port", &port.to_string()])
                .args(["--bind-port", &p.to_string()])
                .args(["--bind-grpc-port", &g.to_string()])
                .args(["--vcores", "1"])
                .arg("--work-dir")
                .arg(&work)
                .args(&spec.executor_args)
                .envs(spec.executor_env.iter().map(|(k, v)| (k, v)));
            let (out, err) = output(spec.log_dir.as_deref(), &format!("executor-{e}"))?;
            let child = cmd
                .stdout(out)
                .stderr(err)
                .spawn()
                .map_err(|e| other(format!("cannot start ndlearn-executor: {e}")))?;
            cluster.executors.push(Some(child));
            if let Some(Some(c)) = cluster.executors.last_mut() {
                wait_for(p, "ndlearn-executor", c)?;
            }
        }
        Ok(cluster)
    }

    /// The scheduler's port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The scheduler's URL for [`crate::Cluster::remote`] (`df://127.0.0.1:PORT`).
    pub fn url(&self) -> String {
        format!("df://127.0.0.1:{}", self.port)
    }

    /// Kills executor `i` (SIGKILL by PID, then reaped); its PID, or `None` when there is no
    /// such executor or it was killed before.
    pub fn kill_executor(&mut self, i: usize) -> Option<u32> {
        let mut child = self.executors.get_mut(i)?.take()?;
        let pid = child.id();
        kill(&mut child);
        Some(pid)
    }
}

impl Drop for LocalCluster {
    fn drop(&mut self) {
        for c in self.executors.iter_mut().flatten() {
            kill(c);
        }
        kill(&mut self.scheduler);
    }
}
