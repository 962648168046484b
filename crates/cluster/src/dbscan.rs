//! DBSCAN: density-based clustering with noise ([`Dbscan`], scikit-learn's `DBSCAN`).
//!
//! # Method
//!
//! With the `eps`-neighbourhood `N(x) = {x' : d(x, x') ≤ eps}` (the point itself included), a
//! **core** point has `|N(x)| ≥ min_samples`. Clusters are the connected components of core
//! points (two core points are connected when one lies in the other's neighbourhood), plus the
//! non-core points in a core point's neighbourhood (**border** points); everything else is
//! **noise** (Ester et al. 1996).
//!
//! The neighbourhoods come from the core index ([`ndlearn_core::neighbors::NeighborIndex`], any
//! metric, k-d / ball tree or brute force, queries in parallel). Clusters are numbered in the
//! order of their lowest core point, and expanded depth-first from it exactly as scikit-learn
//! does, so a border point reachable from two clusters joins the one that reaches it first; with
//! the neighbours of each point visited in increasing row order.
//!
//! **Noise.** [`FittedDbscan::labels`] gives `Option<usize>` per row (`None` = noise, scikit-learn's
//! `-1`). Through [`Predict`] (for the command line and metrics), noise is the label
//! `n_clusters` (one past the last cluster). `predict` on new rows assigns the cluster of the
//! nearest core point within `eps`, else noise (scikit-learn's DBSCAN has no `predict`).
//!
//! ```
//! use ndlearn_cluster::Dbscan;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! let x = array![[0.0f64, 0.0], [0.0, 0.5], [0.5, 0.0], [10.0, 10.0], [10.0, 10.5], [10.5, 10.0], [50.0, 50.0]];
//! let m = Dbscan::new(1.0, 3).fit(&x)?;
//! assert_eq!(m.n_clusters(), 2);
//! assert_eq!(m.labels()[0], Some(0));
//! assert_eq!(m.labels()[3], Some(1));
//! assert_eq!(m.labels()[6], None); // noise
//! assert_eq!(m.predict(&array![[0.2, 0.2], [30.0, 30.0]])?.to_vec(), vec![0, 2]); // 2 = noise
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, DEFAULT_LEAF_SIZE, NeighborIndex};
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result};

/// DBSCAN. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Dbscan {
    /// Neighbourhood radius `eps > 0` (default 0.5).
    pub eps: f64,
    /// Points in a neighbourhood (itself included) that make a core point (default 5).
    pub min_samples: usize,
    /// Distance (default Euclidean).
    pub metric: Metric,
    /// Neighbour search algorithm (default auto).
    pub algorithm: Algorithm,
    /// Tree leaf size (default 30).
    pub leaf_size: usize,
}

impl Default for Dbscan {
    fn default() -> Self {
        Self::new(0.5, 5)
    }
}

impl Dbscan {
    /// DBSCAN with radius `eps` and `min_samples`.
    pub fn new(eps: f64, min_samples: usize) -> Self {
        Self {
            eps,
            min_samples,
            metric: Metric::Euclidean,
            algorithm: Algorithm::Auto,
            leaf_size: DEFAULT_LEAF_SIZE,
        }
    }
    ndlearn_core::setters! {
        /// Sets the metric.
        metric: Metric,
        /// Sets the search algorithm.
        algorithm: Algorithm,
    }
}

impl Estimator for Dbscan {
    /// Checks `eps` (finite, `> 0`), `min_samples ≥ 1`, `leaf_size ≥ 1` and the metric.
    fn validate(&self) -> Result<()> {
        if !(self.eps > 0.0 && self.eps.is_finite()) {
            return Err(Error::invalid_param(
                "eps",
                format!("must be finite and > 0, got {}", self.eps),
            ));
        }
        ndlearn_core::validate::check_at_least("min_samples", self.min_samples, 1)?;
        ndlearn_core::validate::check_at_least("leaf_size", self.leaf_size, 1)?;
        self.metric.validate()
    }
}

impl<F: Float> FitUnsupervised<F> for Dbscan {
    type Model = FittedDbscan<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "Dbscan::fit")?;
        let data = x.as_standard_layout().into_owned();
        let index = NeighborIndex::build(
            data.clone(),
            self.metric.clone(),
            self.algorithm,
            self.leaf_size,
        )?;
        let hoods: Vec<Vec<usize>> = index.radius_neighbor_indices(&data, self.eps)?;
        let n = data.nrows();
        let core: Vec<bool> = hoods.iter().map(|h| h.len() >= self.min_samples).collect();
        let mut labels: Vec<Option<usize>> = vec![None; n];
        let mut next = 0usize;
        let mut stack = Vec::new();
        for start in 0..n {
            if labels[start].is_some() || !core[start] {
                continue;
            }
            let mut i = start;
            loop {
                if labels[i].is_none() {
                    labels[i] = Some(next);
                    if core[i] {
                        for &v in &hoods[i] {
                            if labels[v].is_none() {
                                stack.push(v);
                            }
                        }
                    }
                }
                match stack.pop() {
                    Some(v) => i = v,
                    None => break,
                }
            }
            next += 1;
        }
        let core_rows: Vec<usize> = (0..n).filter(|&i| core[i]).collect();
        let core_labels = core_rows
            .iter()
            .map(|&i| labels[i].unwrap_or(next))
            .collect();
        Ok(FittedDbscan {
            params: self.clone(),
            labels,
            n_clusters: next,
            core_samples: data.select(Axis(0), &core_rows),
            core_sample_indices: core_rows,
            core_labels,
        })
    }
}

/// A fitted [`Dbscan`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedDbscan<F: Float> {
    params: Dbscan,
    labels: Vec<Option<usize>>,
    n_clusters: usize,
    core_samples: Array2<F>,
    core_sample_indices: Vec<usize>,
    core_labels: Vec<usize>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedDbscan<F> {
    fn n_features_in(&self) -> usize {
        self.core_samples.ncols()
    }
}

impl<F: Float> FittedDbscan<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Dbscan {
        &self.params
    }
    /// The cluster of every training row; `None` is noise (scikit-learn's `-1`).
    pub fn labels(&self) -> &[Option<usize>] {
        &self.labels
    }
    /// The number of clusters found.
    pub fn n_clusters(&self) -> usize {
        self.n_clusters
    }
    /// The rows that are core points (scikit-learn's `core_sample_indices_`).
    pub fn core_sample_indices(&self) -> &[usize] {
        &self.core_sample_indices
    }
    /// The core points themselves.
    pub fn core_samples(&self) -> &Array2<F> {
        &self.core_samples
    }
}

impl<F: Float> Predict<F> for FittedDbscan<F> {
    type Output = Array1<usize>;

    /// The cluster of the nearest core point within `eps`, else `n_clusters` (noise).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(x, self.core_samples.ncols(), "Dbscan: number of features")?;
        let noise = self.n_clusters;
        if self.core_samples.nrows() == 0 {
            return Ok(Array1::from_elem(x.nrows(), noise));
        }
        let index = NeighborIndex::build(
            self.core_samples.clone(),
            self.params.metric.clone(),
            self.params.algorithm,
            self.params.leaf_size,
        )?;
        let (dist, idx) = index.kneighbors(x, 1)?;
        let eps = F::cast(self.params.eps);
        Ok(dist
            .column(0)
            .iter()
            .zip(idx.column(0))
            .map(|(&d, &i)| if d <= eps { self.core_labels[i] } else { noise })
            .collect())
    }
}

impl<F: Float> ndlearn_core::PredictWithNoise<F> for FittedDbscan<F> {
    /// As [`Predict::predict`] with noise as `−1` (scikit-learn's label).
    fn predict_with_noise(&self, x: &ArrayRef2<F>) -> Result<Array1<i64>> {
        let noise = self.n_clusters;
        Ok(self
            .predict(x)?
            .mapv(|c| if c == noise { -1 } else { c as i64 }))
    }
}

impl<F: Float> CheckModel for FittedDbscan<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedDbscan");
        c.params(&self.params)?;
        let (n, k) = (self.labels.len(), self.n_clusters);
        let m = self.core_sample_indices.len();
        let d = crate::common::check_points(&c, "core_samples", &self.core_samples, m)?;
        crate::common::check_metric(&c, &self.params.metric, Some(d))?;
        c.len("core_labels", self.core_labels.len(), m)?;
        c.indices_below("core_labels", &self.core_labels, k)?;
        c.indices_below("labels", self.labels.iter().flatten(), k)?;
        // every cluster grows from a core point; core rows are increasing rows of the training set
        c.that(k <= m, || format!("{k} clusters but {m} core points"))?;
        c.that(
            self.core_sample_indices.windows(2).all(|w| w[0] < w[1]),
            || "`core_sample_indices` must be increasing".into(),
        )?;
        c.indices_below("core_sample_indices", &self.core_sample_indices, n)?;
        let agree = self
            .core_sample_indices
            .iter()
            .zip(&self.core_labels)
            .all(|(&i, &l)| self.labels[i] == Some(l));
        c.that(agree, || {
            "`core_labels` differ from the core rows' labels".into()
        })
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1], [50.0, 50.0]];
        let mut m = Dbscan::new(1.0, 2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.core_labels[0] = m.n_clusters;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
