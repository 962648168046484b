//! # ndlearn-cluster
//!
//! The clustering chapter over [`ndlearn_core`].
//!
//! | estimator | scikit-learn | CLI name |
//! |---|---|---|
//! | [`KMeans`] | `KMeans` (Lloyd, Hamerly) | `kmeans` |
//! | [`MiniBatchKMeans`] | `MiniBatchKMeans` | `minibatch_kmeans` |
//! | [`BisectingKMeans`] | `BisectingKMeans` | `bisecting_kmeans` |
//! | [`KMedoids`], [`Clara`] | scikit-learn-extra's `KMedoids` (PAM), `CLARA` | `kmedoids`, `clara` |
//! | [`KModes`] | — (k-modes, Huang) | `kmodes` |
//! | [`KCenter`] | — (greedy farthest-first k-center) | `kcenter` |
//! | [`Agglomerative`] | `AgglomerativeClustering`, scipy's `linkage` | `agglomerative` |
//! | [`Dbscan`] | `DBSCAN` | `dbscan` |
//! | [`GaussianMixture`] | `GaussianMixture` | `gaussian_mixture` |
//! | [`FuzzyCMeans`] | — (fuzzy c-means) | `fuzzy_cmeans` |
//! | [`SpectralClustering`] | `SpectralClustering` | `spectral_clustering` |
//!
//! [`elbow`] gives the SSE curve over a range of `k` and its kink; [`Dendrogram`] the merge tree
//! (scipy linkage matrix, cuts, SVG). Graph Laplacians are in `ndlearn_core::neighbors`.
//!
//! Every clusterer implements `FitUnsupervised` and `Predict` (cluster of each row); results are
//! identical for any number of threads (restarts draw from per-restart random streams, sums are
//! added in a fixed order).
//!
//! ```
//! use ndlearn_cluster::KMeans;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::FitUnsupervised;
//!
//! let x = array![[0.0f64], [0.5], [10.0], [10.5]];
//! let m = KMeans::new(2).fit(&x)?;
//! assert!((m.inertia() - 0.25).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

pub mod agglomerative;
pub mod bisecting;
mod common;
pub mod dbscan;
pub mod fuzzy;
pub mod kcenter;
pub mod kmeans;
pub mod kmedoids;
pub mod kmodes;
pub mod minibatch;
pub mod mixture;
#[cfg(feature = "serde")]
pub mod registry;
pub mod spectral;

pub use agglomerative::{
    Agglomerative, Dendrogram, FittedAgglomerative, Linkage, Merge, linkage, linkage_precomputed,
};
pub use bisecting::{BisectStrategy, BisectingKMeans, FittedBisectingKMeans};
pub use dbscan::{Dbscan, FittedDbscan};
pub use fuzzy::{FittedFuzzyCMeans, FuzzyCMeans};
pub use kcenter::{Elbow, FittedKCenter, KCenter, elbow};
pub use kmeans::{FittedKMeans, KMeans, KMeansAlgorithm, KMeansInit};
pub use kmedoids::{Clara, FittedKMedoids, KMedoids, KMedoidsMethod, MedoidInit};
pub use kmodes::{FittedKModes, KModes};
pub use minibatch::{FittedMiniBatchKMeans, MiniBatchKMeans};
pub use mixture::{CovarianceType, FittedGaussianMixture, GaussianMixture, GmmInit};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use spectral::{
    Affinity, EIGENVALUES_BEYOND, FittedSpectralClustering, SpectralAssign, SpectralClustering,
};
