//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_neighbors::registry().iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"knn_classifier") && names.contains(&"nearest_centroid"));
//! ```

use ndlearn_core::registry::Entry;

use crate::{
    KNeighborsClassifier, KNeighborsRegressor, NearestCentroid, NearestNeighborInterpolator,
    RadiusNeighborsClassifier, RadiusNeighborsRegressor,
};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::probabilistic_classifier::<KNeighborsClassifier>(
            "knn_classifier",
            "k-nearest-neighbour vote (uniform or 1/d weights; brute, k-d tree, ball tree)",
        )
        .sklearn("KNeighborsClassifier")
        .into(),
        Entry::regressor::<KNeighborsRegressor>(
            "knn_regressor",
            "mean target of the k nearest neighbours (uniform or 1/d weights)",
        )
        .sklearn("KNeighborsRegressor")
        .into(),
        Entry::probabilistic_classifier::<RadiusNeighborsClassifier>(
            "radius_neighbors_classifier",
            "vote of every training point within a radius",
        )
        .sklearn("RadiusNeighborsClassifier")
        .refuses_unseen()
        .heavy()
        .into(),
        Entry::regressor::<RadiusNeighborsRegressor>(
            "radius_neighbors_regressor",
            "mean target of every training point within a radius",
        )
        .sklearn("RadiusNeighborsRegressor")
        .refuses_unseen()
        .into(),
        Entry::classifier::<NearestCentroid>(
            "nearest_centroid",
            "nearest class mean (Euclidean) or median (Manhattan), optional shrinkage",
        )
        .sklearn("NearestCentroid")
        .into(),
        Entry::regressor::<NearestNeighborInterpolator>(
            "nearest_neighbor_interpolator",
            "the course notes' 1-NN interpolation: the target of the closest training point",
        )
        .into(),
    ]
}
