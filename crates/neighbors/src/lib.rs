//! # ndlearn-neighbors
//!
//! Nearest-neighbour classifiers and regressors over the neighbour index of [`ndlearn_core`].

pub mod registry;
pub use registry::registry;
