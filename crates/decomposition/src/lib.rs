//! # ndlearn-decomposition
//!
//! Dimensionality reduction over [`ndlearn_core`].
//!
//! | estimator | scikit-learn | CLI name |
//! |---|---|---|
//! | [`Pca`] | `PCA` (full, covariance-eigh, randomized; plus a Gram-matrix solver) | `pca` |

mod pca;
pub mod registry;

pub use pca::{FittedPca, NComponents, Pca, PcaSolver};
pub use registry::registry;
