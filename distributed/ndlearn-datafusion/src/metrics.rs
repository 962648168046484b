//! Process-wide counters of the data passes ([`crate::fit::aggregate`] and
//! [`crate::fit::aggregate_by`]): how many scans ran, how long they took on the driver's clock
//! and how large the merged statistics were, for reports such as `ndlearn-dist fit --report`.
//! Concurrent fits in one process add to the same counters.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

static PASSES: AtomicU64 = AtomicU64::new(0);
static RETRIES: AtomicU64 = AtomicU64::new(0);
static NANOS: AtomicU64 = AtomicU64::new(0);
static STATE_BYTES: AtomicU64 = AtomicU64::new(0);

/// The counters since the last [`reset`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PassMetrics {
    /// Scans that completed.
    pub passes: u64,
    /// Scans run again after an engine failure.
    pub retries: u64,
    /// Wall time of all scans (planning, execution and decoding of the result).
    pub elapsed: Duration,
    /// Bytes of the merged statistics the scans returned (a partition sends a partial state
    /// of about this size to the final aggregation).
    pub state_bytes: u64,
}

/// The counters.
pub fn snapshot() -> PassMetrics {
    PassMetrics {
        passes: PASSES.load(Ordering::Relaxed),
        retries: RETRIES.load(Ordering::Relaxed),
        elapsed: Duration::from_nanos(NANOS.load(Ordering::Relaxed)),
        state_bytes: STATE_BYTES.load(Ordering::Relaxed),
    }
}

/// Sets every counter to zero.
pub fn reset() {
    for c in [&PASSES, &RETRIES, &NANOS, &STATE_BYTES] {
        c.store(0, Ordering::Relaxed);
    }
}

pub(crate) fn record_pass(elapsed: Duration, state_bytes: usize) {
    PASSES.fetch_add(1, Ordering::Relaxed);
    NANOS.fetch_add(
        u64::try_from(elapsed.as_nanos()).unwrap_or(u64::MAX),
        Ordering::Relaxed,
    );
    STATE_BYTES.fetch_add(state_bytes as u64, Ordering::Relaxed);
}

pub(crate) fn record_retry() {
    RETRIES.fetch_add(1, Ordering::Relaxed);
}
