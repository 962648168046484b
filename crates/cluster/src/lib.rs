//! # ndlearn-cluster
//!
//! The clustering chapter over [`ndlearn_core`].

pub mod registry;
pub use registry::registry;
