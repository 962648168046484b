//! # ndlearn-bayes
//!
//! Bayes classifiers over [`ndlearn_core`]: class priors, log-space argmax over plug-in
//! class-conditional densities, probabilities by log-sum-exp.

pub mod registry;
pub use registry::registry;
