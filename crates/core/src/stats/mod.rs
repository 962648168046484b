//! Statistics: descriptive statistics, special functions, hypothesis tests, information measures.
//!
//! | module | what | catalog |
//! |---|---|---|
//! | (root) | means, variances (`ddof`), covariance, cross-covariance, correlation, weighted versions | CL-033 |
//! | [`special`] | Γ, ln Γ, ψ, B, incomplete Γ/B, erf, normal cdf/quantile | CL-032 |
//! | [`tests`] | χ² distribution functions, χ² independence test, z-test | CL-046, CL-047 |
//! | [`information`] | entropy, mutual information (discrete and binned) | CL-034 |
//! | [`kde`] | kernel density estimation (Gaussian, tophat, box kernels; Scott, Silverman and the course notes' bandwidth rule) | C-15, TV28 |
//! | [`order`] | quantiles (numpy's linear and averaged-inverted-CDF methods), median, weighted percentiles and weighted median (scikit-learn's `_weighted_percentile`), ranks, Spearman's correlation | — |
//! | [`mergeable`] | mergeable sufficient statistics (zero, update with a row block, merge, bytes): centred cross moments, per-class moments, k-means rounds, GLM loss/gradient/Hessian | — |
//! | [`distributions`] | univariate, discrete and multivariate laws: pdf/logpdf/cdf/ppf, moments, seeded sampling | CL-031 |
//!
//! The descriptive functions live in `descriptive.rs` and are re-exported here, so
//! `ndlearn_core::stats::mean` etc. keep their paths.

mod descriptive;
pub mod distributions;
pub mod information;
pub mod kde;
pub mod mergeable;
pub mod order;
pub mod special;
pub mod tests;

pub use descriptive::*;
pub use order::{
    QuantileMethod, median, percentile, quantile, quantile_with, quantiles, rankdata, spearman,
    weighted_median, weighted_percentile, weighted_percentiles,
};
