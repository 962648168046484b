//! ndlearn fits on [Apache DataFusion Ballista](https://datafusion.apache.org/ballista/): a
//! Ballista scheduler plans the aggregate scans of `ndlearn-datafusion`'s fits and its executors
//! run them, partition by partition.
//!
//! What Ballista needs from ndlearn is the byte form of the aggregate functions: a fit's scan
//! carries a function whose spec (dimensions, classes, k-means centres, GLM coefficients) the
//! executors must rebuild. [`LogicalCodec`] and [`PhysicalCodec`] wrap Ballista's own codecs and
//! add exactly that ([`ndlearn_datafusion::codec`]); [`Cluster`] builds session contexts that use
//! them, for an in-process cluster ([`Cluster::standalone`]) or a running scheduler
//! ([`Cluster::remote`]). The fits are then the ones of `ndlearn_datafusion::fit`, unchanged:
//!
//! ```no_run
//! # async fn run() -> Result<(), Box<dyn std::error::Error>> {
//! use datafusion::prelude::ParquetReadOptions;
//! use ndlearn_ballista::Cluster;
//! use ndlearn_datafusion::fit;
//!
//! let ctx = Cluster::remote("df://scheduler:50050").await?;
//! let df = ctx.read_parquet("/data/table/", ParquetReadOptions::default()).await?;
//! let model = fit::linear_regression(&df, &["x0", "x1"], "y", &Default::default()).await?;
//! # Ok(()) }
//! ```

mod codec;
pub mod local;

pub use codec::{LogicalCodec, PhysicalCodec};
pub use local::{LocalCluster, LocalClusterSpec};

use ballista::prelude::{SessionConfigExt, SessionContextExt};
use datafusion::error::Result;
use datafusion::execution::SessionState;
use datafusion::execution::session_state::SessionStateBuilder;
use datafusion::prelude::{SessionConfig, SessionContext};
use std::sync::Arc;

/// The command line of a binary with `--flag value` added in front when the user gave neither
/// `--flag` nor `short` (so ndlearn's binaries can default a Ballista option differently).
pub fn args_with_default(flag: &str, short: &str, value: &str) -> Vec<std::ffi::OsString> {
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    let given = args.iter().skip(1).any(|a| {
        a.to_str()
            .is_some_and(|s| s == short || s == flag || s.starts_with(&format!("{flag}=")))
    });
    if !given && !args.is_empty() {
        args.insert(1, flag.into());
        args.insert(2, value.into());
    }
    args
}

/// Logs of the `ndlearn-scheduler` and `ndlearn-executor` binaries on stdout, as Ballista's own
/// binaries log: the filter is `RUST_LOG` when set, else `default` (their
/// `--log-level-setting`, `INFO,datafusion=INFO` by default). Does nothing when a global
/// subscriber is already set.
pub fn init_logging(default: &str) {
    let filter = std::env::var("RUST_LOG").unwrap_or_else(|_| default.to_string());
    let _ = tracing_subscriber::fmt()
        .with_ansi(false)
        .with_env_filter(tracing_subscriber::EnvFilter::new(filter))
        .try_init();
}

/// Session contexts on a Ballista cluster that can run ndlearn's aggregate functions.
#[derive(Debug, Clone, Copy)]
pub struct Cluster;

impl Cluster {
    /// A session state configured for Ballista with ndlearn's codecs (for schedulers and
    /// executors built in-process, and for clients).
    pub fn session_state() -> SessionState {
        // The static distributed planner: a fit's scan is one partial aggregate and one final
        // one, so adaptive planning has nothing to choose, and Ballista 55's adaptive planner
        // can leave a job waiting after an executor is lost (a rolled-back stage whose task
        // updates no longer apply; docs/distributed.md, "Faults").
        let config = SessionConfig::new_with_ballista()
            .with_ballista_adaptive_query_planner(false)
            .with_ballista_logical_extension_codec(Arc::new(LogicalCodec::default()))
            .with_ballista_physical_extension_codec(Arc::new(PhysicalCodec::default()));
        SessionStateBuilder::new()
            .with_config(config)
            .with_default_features()
            .build()
    }

    /// An in-process scheduler and executor (Ballista's standalone mode), both with ndlearn's
    /// codecs, and a context that submits to them.
    ///
    /// # Errors
    /// When the scheduler or executor cannot start (ports, configuration).
    pub async fn standalone() -> Result<SessionContext> {
        SessionContext::standalone_with_state(Self::session_state()).await
    }

    /// A context that submits to the scheduler at `url` (`df://host:port`). Its executors must
    /// run with ndlearn's codecs (the `ndlearn-executor` binary), or the scans fail with an
    /// error naming the aggregate function they cannot decode.
    ///
    /// # Errors
    /// An invalid URL.
    pub async fn remote(url: &str) -> Result<SessionContext> {
        SessionContext::remote_with_state(url, Self::session_state()).await
    }
}
