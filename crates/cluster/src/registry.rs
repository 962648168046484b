//! The estimators of this crate by name, for the `ndlearn` command line and the benchmark runner
//! (`ndlearn_core::registry`; feature `serde`).
//!
//! ```
//! let names: Vec<&str> = ndlearn_cluster::registry().iter().map(|e| e.name()).collect();
//! assert!(names.contains(&"kmeans"));
//! ```

use ndlearn_core::registry::Entry;

use crate::{
    Agglomerative, BisectingKMeans, Clara, Dbscan, FuzzyCMeans, GaussianMixture, KCenter, KMeans,
    KMedoids, KModes, MiniBatchKMeans, SpectralClustering,
};

/// Every estimator of this crate, once (names: snake_case of the scikit-learn class).
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::clusterer::<KMeans>(
            "kmeans",
            "k-means (Lloyd; k-means++, random or given centres; parallel restarts)",
        )
        .sklearn("KMeans")
        .into(),
        Entry::clusterer::<Dbscan>(
            "dbscan",
            "density-based clusters of core points within eps (noise = label n_clusters)",
        )
        .sklearn("DBSCAN")
        .noise()
        .into(),
        Entry::clusterer::<KCenter>(
            "kcenter",
            "k-center by greedy farthest-first traversal (radius at most twice the optimum)",
        )
        .into(),
        Entry::clusterer::<MiniBatchKMeans>(
            "minibatch_kmeans",
            "mini-batch k-means (Sculley steps, random reassignment, smoothed-inertia stopping)",
        )
        .sklearn("MiniBatchKMeans")
        .partial_fit(false)
        .into(),
        Entry::clusterer::<BisectingKMeans>(
            "bisecting_kmeans",
            "divisive k-means: bisect the cluster of largest SSE until k clusters",
        )
        .sklearn("BisectingKMeans")
        .param_alias("strategy", "bisecting_strategy")
        .into(),
        Entry::clusterer::<Agglomerative>(
            "agglomerative",
            "hierarchical clustering (Ward, complete, average, single linkage) cut at k clusters",
        )
        .sklearn("AgglomerativeClustering")
        .heavy()
        .into(),
        Entry::clusterer::<GaussianMixture>(
            "gaussian_mixture",
            "Gaussian mixture by EM (full, tied, diag, spherical covariances)",
        )
        .sklearn("GaussianMixture")
        .proba()
        .param_alias("init", "init_params")
        .into(),
        Entry::clusterer::<SpectralClustering>(
            "spectral_clustering",
            "spectral clustering (kNN / epsilon / Gaussian graph, Laplacian eigenvectors, k-means)",
        )
        .sklearn("SpectralClustering")
        .heavy()
        .into(),
        Entry::clusterer::<KMedoids>("kmedoids", "k-medoids by PAM (BUILD + SWAP) on any metric")
            .alias("k_medoids")
            .heavy()
            .into(),
        Entry::clusterer::<Clara>(
            "clara",
            "CLARA: PAM on random samples, best medoids over all rows",
        )
        .into(),
        Entry::clusterer::<KModes>(
            "kmodes",
            "k-modes for categorical codes (simple matching, cluster modes)",
        )
        .into(),
        Entry::clusterer::<FuzzyCMeans>(
            "fuzzy_cmeans",
            "fuzzy c-means (soft memberships, fuzzifier p)",
        )
        .into(),
    ]
}
