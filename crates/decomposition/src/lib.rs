//! # ndlearn-decomposition
//!
//! Dimensionality reduction over [`ndlearn_core`].

pub mod registry;
pub use registry::registry;
