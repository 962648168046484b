//! # ndlearn-neighbors
//!
//! Nearest-neighbour estimators over the exact neighbour index of [`ndlearn_core`]
//! ([`ndlearn_core::neighbors::NeighborIndex`]: brute force with fused SIMD pre-selection, k-d tree,
//! ball tree, any [`ndlearn_core::distance::Metric`]):
//!
//! | estimator | scikit-learn | CLI name |
//! |---|---|---|
//! | [`KNeighborsClassifier`] | `KNeighborsClassifier` | `knn_classifier` |
//! | [`KNeighborsRegressor`] | `KNeighborsRegressor` | `knn_regressor` |
//! | [`RadiusNeighborsClassifier`] | `RadiusNeighborsClassifier` | `radius_neighbors_classifier` |
//! | [`RadiusNeighborsRegressor`] | `RadiusNeighborsRegressor` | `radius_neighbors_regressor` |
//! | [`NearestCentroid`] | `NearestCentroid` | `nearest_centroid` |
//! | [`NearestNeighborInterpolator`] | (`KNeighborsRegressor(n_neighbors=1)`) | `nearest_neighbor_interpolator` |
//!
//! Fitted models store their training rows and serialise them (with serde), the index being
//! rebuilt deterministically on the first query after loading. Queries run in parallel over
//! fixed chunks of rows; every result is independent of the thread count. Neighbours at equal
//! distance are ordered by training index (lower first), and votes tie to the lower class.
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_neighbors::KNeighborsClassifier;
//!
//! let x = array![[0.0], [1.0], [2.0], [10.0], [11.0], [12.0]];
//! let model = KNeighborsClassifier::new(3).fit(&x, &array![0usize, 0, 0, 1, 1, 1])?;
//! assert_eq!(model.predict(&array![[1.5], [9.0]])?.to_vec(), vec![0, 1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

pub mod centroid;
mod common;
pub mod knn;
pub mod radius;
#[cfg(feature = "serde")]
pub mod registry;

pub use centroid::{CentroidMetric, FittedNearestCentroid, NearestCentroid};
pub use common::Weights;
pub use knn::{
    FittedKNeighborsClassifier, FittedKNeighborsRegressor, KNeighborsClassifier,
    KNeighborsRegressor, NearestNeighborInterpolator,
};
pub use ndlearn_core::neighbors::Algorithm;
pub use radius::{
    FittedRadiusNeighborsClassifier, FittedRadiusNeighborsRegressor, OutlierLabel,
    RadiusNeighborsClassifier, RadiusNeighborsRegressor,
};
#[cfg(feature = "serde")]
pub use registry::registry;
