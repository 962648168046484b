//! Special functions (catalog CL-032; Γ and B as used by the course notes for hypersphere volumes
//! and the Beta law, the normal quantiles for the z-test; definitions as in Abramowitz & Stegun,
//! *Handbook of Mathematical Functions*, NBS (1964), ch. 6, 7, 26): Γ, ln Γ, ψ, B, ln B, the
//! regularized incomplete Gamma and Beta functions, erf/erfc and the standard normal cdf,
//! survival function and quantile.
//!
//! Scalar `f64` functions, each matched against `scipy.special` on golden points to ≤ 1e-13
//! relative (`tests/stats_golden.rs`). Like `f64::ln`, the pure math functions return NaN
//! outside their domain (documented per function); the quantile functions that take a
//! user-supplied probability ([`norm_ppf`], [`norm_isf`]) return [`crate::Error::InvalidParam`].
//!
//! The algorithms (series, continued fractions, Stirling's series, Acklam's starting value and
//! a Halley refinement) are standard numerical analysis, not from the course notes; each file documents
//! its method and accuracy.

mod gamma;
mod incomplete;
mod normal;

pub(crate) use gamma::stirling_correction;
pub use gamma::{beta, digamma, gamma, ln_beta, ln_gamma};
pub use incomplete::{beta_inc, beta_inc_inv, gamma_p, gamma_p_inv, gamma_q, gamma_q_inv};
pub use normal::{
    erf, erfc, norm_cdf, norm_isf, norm_logcdf, norm_logpdf, norm_logsf, norm_pdf, norm_ppf,
    norm_sf,
};
