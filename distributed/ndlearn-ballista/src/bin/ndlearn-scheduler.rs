//! `ndlearn-scheduler`: Ballista's scheduler with ndlearn's codecs (the same command-line
//! options as Ballista's `ballista-scheduler`; `--help` lists them), except that the task
//! scheduling policy defaults to `pull-staged` (executors ask for work, as in Spark): with
//! Ballista 55's `push-staged` default, a task aborted when another executor is lost keeps its
//! slot, and a single-slot executor then runs nothing more (docs/distributed.md, "Faults").
//! `ndlearn-executor` has the same default; the two must match.

use ballista_scheduler::cluster::BallistaCluster;
use ballista_scheduler::config::{Config, SchedulerConfig};
use ballista_scheduler::scheduler_process::start_server;
use clap::Parser;
use ndlearn_ballista::{LogicalCodec, PhysicalCodec};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::sync::Arc;

fn main() -> ExitCode {
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .thread_stack_size(32 * 1024 * 1024)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("ndlearn-scheduler: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(run()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ndlearn-scheduler: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let opt = Config::parse_from(ndlearn_ballista::args_with_default(
        "--scheduler-policy",
        "-s",
        "pull-staged",
    ));
    ndlearn_ballista::init_logging(&opt.log_level_setting);
    let addr: SocketAddr = format!("{}:{}", opt.bind_host, opt.bind_port).parse()?;
    let mut config: SchedulerConfig = opt.try_into()?;
    config.override_logical_codec = Some(Arc::new(LogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(PhysicalCodec::default()));
    let cluster = BallistaCluster::new_from_config(&config).await?;
    println!("ndlearn-scheduler listening on {addr}");
    start_server(cluster, addr, Arc::new(config)).await?;
    Ok(())
}
