//! The instruction-set levels of ndlearn's own SIMD kernels, and the switch that caps them.
//!
//! A few hot loops (today the fused brute-force neighbour scan of
//! [`neighbors`](crate::neighbors)) are compiled several times, once per x86-64 level below, and
//! the best version the CPU supports is chosen at run time. BLAS and LAPACK make their own
//! choice (OpenBLAS: its `OPENBLAS_CORETYPE` variable); this module is only about ndlearn's code.
//!
//! The environment variable **`NDLEARN_SIMD`** caps the level, read once per process:
//! `avx512`, `avx2` (AVX2 + FMA), `avx` or `baseline` (case-insensitive; anything else is
//! ignored and [`requested`] reports it as an [`Error::InvalidParam`]). A cap above what the CPU supports changes
//! nothing: the level used is always the lower of the cap and the CPU's ([`active`]). Results
//! do not depend on the level (the kernels are exact, see the neighbour module), only speed does;
//! the switch exists so that tests can exercise every version on a machine that would otherwise
//! always pick the widest one.
//!
//! ```
//! use ndlearn_core::simd::{self, SimdLevel};
//!
//! let cpu = simd::detected();
//! assert!(simd::active() <= cpu);
//! assert!(simd::supported().contains(&SimdLevel::Baseline));
//! assert_eq!("avx2".parse::<SimdLevel>().ok(), Some(SimdLevel::Avx2Fma));
//! ```

use std::fmt;
use std::str::FromStr;
use std::sync::OnceLock;

use crate::{Error, Result};

/// The name of the environment variable that caps the SIMD level.
pub const ENV_VAR: &str = "NDLEARN_SIMD";

/// An x86-64 instruction-set level of ndlearn's multiversioned kernels, ordered from narrowest
/// to widest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SimdLevel {
    /// The target's baseline (SSE2 on x86-64; the only level on other architectures).
    Baseline,
    /// AVX (256-bit registers, no FMA).
    Avx,
    /// AVX2 with fused multiply-add.
    Avx2Fma,
    /// AVX-512 (F and VL) with AVX2 and FMA.
    Avx512,
}

impl SimdLevel {
    /// Every level, narrowest first.
    pub const ALL: [SimdLevel; 4] = [
        SimdLevel::Baseline,
        SimdLevel::Avx,
        SimdLevel::Avx2Fma,
        SimdLevel::Avx512,
    ];

    /// The value of [`ENV_VAR`] that selects this level.
    pub fn name(self) -> &'static str {
        match self {
            SimdLevel::Baseline => "baseline",
            SimdLevel::Avx => "avx",
            SimdLevel::Avx2Fma => "avx2",
            SimdLevel::Avx512 => "avx512",
        }
    }
}

impl fmt::Display for SimdLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for SimdLevel {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        let lower = s.trim().to_ascii_lowercase();
        SimdLevel::ALL
            .into_iter()
            .find(|l| l.name() == lower)
            .ok_or_else(|| {
                Error::invalid_param(
                    ENV_VAR,
                    format!("unknown SIMD level {s:?} (expected avx512, avx2, avx or baseline)"),
                )
            })
    }
}

/// The widest level this CPU supports.
pub fn detected() -> SimdLevel {
    static DETECTED: OnceLock<SimdLevel> = OnceLock::new();
    *DETECTED.get_or_init(detect)
}

#[cfg(target_arch = "x86_64")]
fn detect() -> SimdLevel {
    if is_x86_feature_detected!("avx512f")
        && is_x86_feature_detected!("avx512vl")
        && is_x86_feature_detected!("avx2")
        && is_x86_feature_detected!("fma")
    {
        SimdLevel::Avx512
    } else if is_x86_feature_detected!("avx2") && is_x86_feature_detected!("fma") {
        SimdLevel::Avx2Fma
    } else if is_x86_feature_detected!("avx") {
        SimdLevel::Avx
    } else {
        SimdLevel::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> SimdLevel {
    SimdLevel::Baseline
}

/// The cap set by [`ENV_VAR`], read once per process: `Ok(None)` when the variable is unset or
/// empty, an [`Error::InvalidParam`] when it names no level (the cap is then ignored).
pub fn requested() -> Result<Option<SimdLevel>> {
    static REQUESTED: OnceLock<std::result::Result<Option<SimdLevel>, String>> = OnceLock::new();
    REQUESTED
        .get_or_init(|| match std::env::var(ENV_VAR) {
            Ok(v) if !v.trim().is_empty() => v.parse().map(Some).map_err(|e: Error| match e {
                Error::InvalidParam { reason, .. } => reason,
                other => other.to_string(),
            }),
            _ => Ok(None),
        })
        .clone()
        .map_err(|reason| Error::invalid_param(ENV_VAR, reason))
}

/// The level the kernels use: the lower of [`detected`] and the cap of [`requested`].
pub fn active() -> SimdLevel {
    match requested() {
        Ok(Some(cap)) => cap.min(detected()),
        _ => detected(),
    }
}

/// Every level this CPU can run, narrowest first (what a test should sweep).
pub fn supported() -> Vec<SimdLevel> {
    let top = detected();
    SimdLevel::ALL.into_iter().filter(|l| *l <= top).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_order_is_by_width() {
        for l in SimdLevel::ALL {
            assert_eq!(l.name().parse::<SimdLevel>().ok(), Some(l));
            assert_eq!(
                l.to_string().to_uppercase().parse::<SimdLevel>().ok(),
                Some(l)
            );
        }
        assert!(SimdLevel::Baseline < SimdLevel::Avx);
        assert!(SimdLevel::Avx < SimdLevel::Avx2Fma);
        assert!(SimdLevel::Avx2Fma < SimdLevel::Avx512);
        assert!(matches!(
            "sse9".parse::<SimdLevel>(),
            Err(Error::InvalidParam { .. })
        ));
    }

    /// Under `NDLEARN_SIMD` (the xtask's per-level runs) the cap is the one asked for.
    #[test]
    fn the_switch_caps_the_level() {
        match std::env::var(ENV_VAR) {
            Ok(v) if !v.trim().is_empty() => match v.parse::<SimdLevel>() {
                Ok(cap) => {
                    assert_eq!(requested().ok(), Some(Some(cap)));
                    assert_eq!(active(), cap.min(detected()));
                }
                Err(_) => {
                    assert!(requested().is_err());
                    assert_eq!(active(), detected());
                }
            },
            _ => {
                assert_eq!(requested().ok(), Some(None));
                assert_eq!(active(), detected());
            }
        }
    }

    #[test]
    fn active_never_exceeds_the_cpu() {
        assert!(active() <= detected());
        let s = supported();
        assert_eq!(s.first(), Some(&SimdLevel::Baseline));
        assert_eq!(s.last(), Some(&detected()));
    }
}
