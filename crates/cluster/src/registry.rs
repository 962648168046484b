//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_cluster::registry().iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"kmeans"));
//! ```

use ndlearn_core::registry::Entry;

use crate::{Dbscan, KCenter, KMeans};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::clusterer::<KMeans>(
            "kmeans",
            "k-means (Lloyd; k-means++, random or given centres; parallel restarts)",
        ),
        Entry::clusterer::<Dbscan>(
            "dbscan",
            "density-based clusters of core points within eps (noise = label n_clusters)",
        ),
        Entry::clusterer::<KCenter>(
            "kcenter",
            "k-center by greedy farthest-first traversal (radius at most twice the optimum)",
        ),
    ]
}
