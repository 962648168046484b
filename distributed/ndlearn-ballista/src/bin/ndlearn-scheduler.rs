//! `ndlearn-scheduler`: Ballista's scheduler with ndlearn's codecs (the same command-line
//! options as Ballista's `ballista-scheduler`; `--help` lists them).

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
    let opt = Config::parse();
    let addr: SocketAddr = format!("{}:{}", opt.bind_host, opt.bind_port).parse()?;
    let mut config: SchedulerConfig = opt.try_into()?;
    config.override_logical_codec = Some(Arc::new(LogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(PhysicalCodec::default()));
    let cluster = BallistaCluster::new_from_config(&config).await?;
    println!("ndlearn-scheduler listening on {addr}");
    start_server(cluster, addr, Arc::new(config)).await?;
    Ok(())
}
