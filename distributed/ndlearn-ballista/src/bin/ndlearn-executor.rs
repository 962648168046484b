//! `ndlearn-executor`: Ballista's executor with ndlearn's codecs, so it can run the aggregate
//! scans of ndlearn's fits (the same command-line options as Ballista's `ballista-executor`;
//! `--help` lists them), except that the task scheduling policy defaults to `pull-staged`, as
//! `ndlearn-scheduler`'s does (see there).

use ballista_executor::config::Config;
use ballista_executor::executor_process::{ExecutorProcessConfig, start_executor_process};
use clap::Parser;
use ndlearn_ballista::{LogicalCodec, PhysicalCodec};
use std::process::ExitCode;
use std::sync::Arc;

#[tokio::main]
async fn main() -> ExitCode {
    match run().await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("ndlearn-executor: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run() -> Result<(), Box<dyn std::error::Error>> {
    let opt = Config::parse_from(ndlearn_ballista::args_with_default(
        "--task-scheduling-policy",
        "-s",
        "pull-staged",
    ));
    ndlearn_ballista::init_logging(&opt.log_level_setting);
    let mut config: ExecutorProcessConfig = opt.try_into()?;
    config.override_logical_codec = Some(Arc::new(LogicalCodec::default()));
    config.override_physical_codec = Some(Arc::new(PhysicalCodec::default()));
    println!(
        "ndlearn-executor on {}:{} (scheduler {}:{})",
        config.bind_host, config.port, config.scheduler_host, config.scheduler_port
    );
    start_executor_process(Arc::new(config)).await?;
    Ok(())
}
