//! Bisecting k-means ([`BisectingKMeans`], scikit-learn's `BisectingKMeans`; catalog CL-145).
//!
//! # Method
//!
//! Divisive clustering (Steinbach, Karypis & Kumar, "A comparison of document clustering
//! techniques", KDD Workshop on Text Mining, 2000; Tan, Steinbach & Kumar, *Introduction to
//! Data Mining* (2005), ch. 8): start with one cluster holding every row; repeatedly
//! select a cluster and bisect it with 2-means, trying `n_init` bisections and keeping the one
//! with the lowest SSE, until there are `k` clusters. The course notes leave the selection rule
//! open; [`BisectStrategy`] offers scikit-learn's two: the cluster of largest SSE (default) or
//! the one with most rows (ties: the earlier cluster).
//!
//! The splits form a binary tree. Training labels come from the bisections; `predict` descends
//! the tree, moving at every split to the nearer of the two centres (as scikit-learn), so a new
//! row may land in a different leaf than its nearest final centre. Leaves are numbered
//! left to right in the tree (depth first, the first 2-means cluster on the left).
//!
//! ```
//! use ndlearn_cluster::BisectingKMeans;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! let x = array![[0.0f64], [0.5], [10.0], [10.5], [20.0], [20.5]];
//! let m = BisectingKMeans::new(3).fit(&x)?;
//! let l = m.labels();
//! assert!(l[0] == l[1] && l[2] == l[3] && l[4] == l[5]);
//! assert!(l[0] != l[2] && l[2] != l[4] && l[0] != l[4]);
//! assert!((m.inertia() - 0.375).abs() < 1e-12);
//! assert_eq!(m.predict(&array![[19.0]])?[0], l[4]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result};

use crate::kmeans::{KMeans, KMeansInit, sq};

/// Which cluster [`BisectingKMeans`] splits next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BisectStrategy {
    /// The cluster with the largest SSE (default).
    #[default]
    BiggestInertia,
    /// The cluster with the most rows.
    LargestCluster,
}

/// Bisecting k-means. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BisectingKMeans {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Bisections tried per split, the lowest SSE kept (default 1, as scikit-learn).
    pub n_init: usize,
    /// Initialisation of each 2-means (default random rows, as scikit-learn).
    pub init: KMeansInit,
    /// Selection rule (default largest SSE).
    #[cfg_attr(
        feature = "serde",
        serde(rename = "bisecting_strategy", alias = "strategy")
    )]
    pub strategy: BisectStrategy,
    /// Maximum Lloyd rounds per bisection (default 300).
    pub max_iter: usize,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for BisectingKMeans {
    fn default() -> Self {
        Self::new(8)
    }
}

impl BisectingKMeans {
    /// `k` clusters, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            n_init: 1,
            init: KMeansInit::Random,
            strategy: BisectStrategy::BiggestInertia,
            max_iter: 300,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the bisections tried per split.
        n_init: usize,
        /// Sets the 2-means initialisation (random rows or k-means++).
        init: KMeansInit,
        /// Sets the selection rule.
        strategy: BisectStrategy,
        /// Sets the seed.
        seed: u64,
    }
}

/// A node of the bisection tree.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Node<F> {
    center: Vec<F>,
    children: Option<(usize, usize)>,
    /// Leaf label (meaningful for leaves only).
    label: usize,
}

impl Estimator for BisectingKMeans {
    /// Checks `n_clusters`, `n_init` and `max_iter` (`≥ 1`) and an initialisation from rows
    /// (given centres do not apply to bisections).
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("n_init", self.n_init, 1)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        if matches!(self.init, KMeansInit::Centers(_)) {
            return Err(Error::invalid_param(
                "init",
                "bisections start from random rows or k-means++, not given centres",
            ));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for BisectingKMeans {
    type Model = FittedBisectingKMeans<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "BisectingKMeans::fit")?;
        let (n, d) = x.dim();
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.n_init == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        if matches!(self.init, KMeansInit::Centers(_)) {
            return Err(Error::invalid_param(
                "init",
                "bisections start from random rows or k-means++, not given centres",
            ));
        }
        let data = x.as_standard_layout();
        let sse_of = |rows: &[usize], center: &[F]| -> F {
            rows.iter()
                .map(|&i| sq(data.row(i).as_slice().unwrap_or(&[]), center))
                .sum()
        };
        let all: Vec<usize> = (0..n).collect();
        let root_center = data
            .mean_axis(Axis(0))
            .map(|m| m.to_vec())
            .unwrap_or_default();
        let mut nodes = vec![Node {
            center: root_center.clone(),
            children: None,
            label: 0,
        }];
        // leaf node -> (rows, sse)
        let mut leaves: Vec<(usize, Vec<usize>, F)> =
            vec![(0, all.clone(), sse_of(&all, &root_center))];
        let mut split = 0u64;
        while leaves.len() < k {
            let pick = (0..leaves.len())
                .filter(|&p| leaves[p].1.len() >= 2)
                .reduce(|a, b| {
                    let better = match self.strategy {
                        BisectStrategy::BiggestInertia => leaves[b].2 > leaves[a].2,
                        BisectStrategy::LargestCluster => leaves[b].1.len() > leaves[a].1.len(),
                    };
                    if better { b } else { a }
                })
                .ok_or_else(|| Error::invalid_param("n_clusters", "no cluster left to split"))?;
            let (node, rows, _) = leaves.remove(pick);
            let sub = data.select(Axis(0), &rows);
            let km = KMeans::new(2)
                .init(self.init.clone())
                .n_init(Some(self.n_init))
                .max_iter(self.max_iter)
                .seed(self.seed.wrapping_add(split))
                .fit(&sub)?;
            split += 1;
            let mut parts: [Vec<usize>; 2] = [Vec::new(), Vec::new()];
            for (&r, &l) in rows.iter().zip(km.labels()) {
                parts[l].push(r);
            }
            let first = nodes.len();
            for (c, part) in parts.into_iter().enumerate() {
                let center = km.centers().row(c).to_vec();
                let sse = sse_of(&part, &center);
                nodes.push(Node {
                    center,
                    children: None,
                    label: 0,
                });
                // the two halves take the place of their parent, in order
                leaves.insert(pick + c, (first + c, part, sse));
            }
            nodes[node].children = Some((first, first + 1));
        }
        // leaves numbered depth first, left to right
        let mut labels = Array1::zeros(n);
        let mut next = 0;
        let mut stack = vec![0usize];
        let mut centers = Vec::with_capacity(k * d);
        let mut inertia = F::zero();
        while let Some(v) = stack.pop() {
            match nodes[v].children {
                Some((a, b)) => {
                    stack.push(b);
                    stack.push(a);
                }
                None => {
                    nodes[v].label = next;
                    centers.extend_from_slice(&nodes[v].center);
                    if let Some((_, rows, sse)) = leaves.iter().find(|l| l.0 == v) {
                        for &r in rows {
                            labels[r] = next;
                        }
                        inertia += *sse;
                    }
                    next += 1;
                }
            }
        }
        let centers = Array2::from_shape_vec((k, d), centers).map_err(|_| {
            Error::invalid_param("n_clusters", "tree has the wrong number of leaves")
        })?;
        Ok(FittedBisectingKMeans {
            params: self.clone(),
            nodes,
            centers,
            labels,
            inertia,
        })
    }
}

/// A fitted [`BisectingKMeans`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBisectingKMeans<F: Float> {
    params: BisectingKMeans,
    nodes: Vec<Node<F>>,
    centers: Array2<F>,
    labels: Array1<usize>,
    inertia: F,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedBisectingKMeans<F> {
    fn n_features_in(&self) -> usize {
        self.centers.ncols()
    }
}

impl<F: Float> FittedBisectingKMeans<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &BisectingKMeans {
        &self.params
    }
    /// The leaf centres in label order (`k × d`).
    pub fn centers(&self) -> &Array2<F> {
        &self.centers
    }
    /// The cluster of every training row (from the bisections).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// Sum of squared distances of the training rows to their leaf centres.
    pub fn inertia(&self) -> F {
        self.inertia
    }
}

impl<F: Float> Predict<F> for FittedBisectingKMeans<F> {
    type Output = Array1<usize>;

    /// Descends the bisection tree, taking the nearer child centre at every split (ties: the
    /// first child).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(
            x,
            self.centers.ncols(),
            "BisectingKMeans: number of features",
        )?;
        Ok(x.rows()
            .into_iter()
            .map(|row| {
                let row = row.to_vec();
                let mut v = 0;
                while let Some((a, b)) = self.nodes[v].children {
                    v = if sq(&row, &self.nodes[b].center) < sq(&row, &self.nodes[a].center) {
                        b
                    } else {
                        a
                    };
                }
                self.nodes[v].label
            })
            .collect())
    }
}

impl<F: Float> CheckModel for FittedBisectingKMeans<F> {
    /// Besides the shapes: the tree descends (children after their parent, each node a child
    /// once) to `k` leaves labelled `0..k` once each, so `predict` ends at a leaf.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBisectingKMeans");
        c.params(&self.params)?;
        let k = self.params.n_clusters;
        let d = crate::common::check_points(&c, "centers", &self.centers, k)?;
        c.indices_below("labels", &self.labels, k)?;
        c.finite_value("inertia", self.inertia)?;
        let m = self.nodes.len();
        c.len("nodes", m, 2 * k - 1)?;
        let mut is_child = vec![false; m];
        let mut leaf_seen = vec![false; k];
        for (v, node) in self.nodes.iter().enumerate() {
            c.len("node centre", node.center.len(), d)?;
            c.finite_slice("node centre", &node.center)?;
            match node.children {
                Some((a, b)) => {
                    let ok = v < a && a < b && b < m && !is_child[a] && !is_child[b];
                    c.that(ok, || format!("node {v} has invalid children ({a}, {b})"))?;
                    is_child[a] = true;
                    is_child[b] = true;
                }
                None => {
                    let l = node.label;
                    c.that(l < k && !leaf_seen[l], || {
                        format!("leaf {v} has label {l}, not a free label below {k}")
                    })?;
                    leaf_seen[l] = true;
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1], [20.0, 0.0]];
        let mut m = BisectingKMeans::new(3).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        // a cycle back to the root would make predict loop forever
        m.nodes[1].children = Some((0, 2));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
