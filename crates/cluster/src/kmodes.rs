//! k-modes for categorical data ([`KModes`]; Huang 1998; catalog CL-148).
//!
//! # Method
//!
//! k-means with modes in place of means (Huang, "Extensions to the k-means algorithm for
//! clustering large data sets with categorical values", Data Mining and Knowledge Discovery
//! 2(3), 1998): features are category codes (any values,
//! compared for equality), the dissimilarity of two rows is the number of features on which
//! they differ (simple matching), and the **mode** of a cluster takes the most frequent category
//! of every feature (ties: the smallest code). Lloyd-style alternation from `k` distinct random
//! rows: assign every row to the nearest mode (ties: the lower cluster), recompute the modes,
//! until no assignment changes or `max_iter` rounds. The cost `Σ_i mismatches(x_i, mode)` never
//! increases; `n_init` restarts run in parallel and the lowest cost wins. A cluster left empty
//! keeps its mode.
//!
//! ```
//! use ndlearn_cluster::KModes;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! // colour, shape, size codes
//! let x = array![[0.0f64, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0], [2.0, 1.0, 2.0], [2.0, 1.0, 2.0], [1.0, 1.0, 2.0]];
//! let m = KModes::new(2).fit(&x)?;
//! assert_eq!(m.cost(), 2.0);
//! let modes = m.modes();
//! let c = m.labels()[3];
//! assert_eq!(modes.row(c).to_vec(), vec![2.0, 1.0, 2.0]);
//! assert_eq!(m.predict(&array![[0.0, 0.0, 2.0]])?[0], m.labels()[0]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::random;
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

/// k-modes clustering. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KModes {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Restarts (default 10).
    pub n_init: usize,
    /// Maximum rounds per restart (default 100).
    pub max_iter: usize,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for KModes {
    fn default() -> Self {
        Self::new(8)
    }
}

impl KModes {
    /// `k` clusters, 10 restarts.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            n_init: 10,
            max_iter: 100,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the number of restarts.
        n_init: usize,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets the seed.
        seed: u64,
    }
}

fn mismatches<F: Float>(a: &[F], b: &[F]) -> usize {
    a.iter().zip(b).filter(|(u, v)| u != v).count()
}

fn assign<F: Float>(x: &ArrayRef2<F>, modes: &Array2<F>) -> (Vec<usize>, usize) {
    let parts = par::map_chunks(x.nrows(), 1024, |r| {
        r.map(|i| {
            let row = x.row(i);
            let row = row
                .as_slice()
                .map(<[F]>::to_vec)
                .unwrap_or_else(|| row.to_vec());
            let mut best = (0usize, usize::MAX);
            for (c, m) in modes.rows().into_iter().enumerate() {
                let v = mismatches(&row, m.as_slice().unwrap_or(&[]));
                if v < best.1 {
                    best = (c, v);
                }
            }
            best
        })
        .collect::<Vec<_>>()
    });
    let (labels, costs): (Vec<usize>, Vec<usize>) = parts.into_iter().flatten().unzip();
    (labels, costs.iter().sum())
}

/// The most frequent value of `values` (ties: the smallest).
fn mode_of<F: Float>(values: &mut [F]) -> Option<F> {
    values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    let mut best: Option<(F, usize)> = None;
    let mut i = 0;
    while i < values.len() {
        let mut j = i;
        while j < values.len() && values[j] == values[i] {
            j += 1;
        }
        if best.is_none_or(|b| j - i > b.1) {
            best = Some((values[i], j - i));
        }
        i = j;
    }
    best.map(|b| b.0)
}

impl Estimator for KModes {
    /// Checks `n_clusters`, `n_init` and `max_iter` (`≥ 1`).
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("n_init", self.n_init, 1)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)
    }
}

impl<F: Float> FitUnsupervised<F> for KModes {
    type Model = FittedKModes<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "KModes::fit")?;
        let (n, d) = x.dim();
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.n_init == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1"));
        }
        let data = x.as_standard_layout().to_owned();
        let runs = par::try_map_tasks(
            self.n_init,
            |r| -> Result<(usize, Array2<F>, Vec<usize>, usize)> {
                let mut rng = random::stream(self.seed, r as u64);
                let idx = random::sample_without_replacement(&mut rng, n, k)?;
                let mut modes = data.select(Axis(0), &idx);
                let (mut labels, mut cost) = assign(&data, &modes);
                let mut n_iter = 0;
                for it in 0..self.max_iter {
                    n_iter = it + 1;
                    for c in 0..k {
                        let members: Vec<usize> = (0..n).filter(|&i| labels[i] == c).collect();
                        if members.is_empty() {
                            continue;
                        }
                        for j in 0..d {
                            let mut col: Vec<F> = members.iter().map(|&i| data[[i, j]]).collect();
                            if let Some(m) = mode_of(&mut col) {
                                modes[[c, j]] = m;
                            }
                        }
                    }
                    let (next, next_cost) = assign(&data, &modes);
                    let same = next == labels;
                    labels = next;
                    cost = next_cost;
                    if same {
                        break;
                    }
                }
                Ok((cost, modes, labels, n_iter))
            },
        )?;
        let best = runs
            .into_iter()
            .reduce(|a, b| if b.0 < a.0 { b } else { a })
            .ok_or_else(|| Error::invalid_param("n_init", "no restart ran"))?;
        Ok(FittedKModes {
            params: self.clone(),
            cost: best.0,
            modes: best.1,
            labels: Array1::from(best.2),
            n_iter: best.3,
        })
    }
}

/// A fitted [`KModes`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKModes<F: Float> {
    params: KModes,
    modes: Array2<F>,
    labels: Array1<usize>,
    cost: usize,
    n_iter: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKModes<F> {
    fn n_features_in(&self) -> usize {
        self.modes.ncols()
    }
}

impl<F: Float> FittedKModes<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &KModes {
        &self.params
    }
    /// The cluster modes (`k × d` category codes).
    pub fn modes(&self) -> &Array2<F> {
        &self.modes
    }
    /// The cluster of every training row.
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// Total mismatches of the training rows to their modes.
    pub fn cost(&self) -> f64 {
        self.cost as f64
    }
    /// Rounds of the best restart.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
}

impl<F: Float> Predict<F> for FittedKModes<F> {
    type Output = Array1<usize>;

    /// The nearest mode (fewest mismatches; ties: the lower cluster).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(x, self.modes.ncols(), "KModes: number of features")?;
        Ok(Array1::from(assign(x, &self.modes).0))
    }
}

impl<F: Float> CheckModel for FittedKModes<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKModes");
        c.params(&self.params)?;
        let k = self.params.n_clusters;
        crate::common::check_points(&c, "modes", &self.modes, k)?;
        c.indices_below("labels", &self.labels, k)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 1.0], [0.0, 1.0], [2.0, 3.0], [2.0, 3.0]];
        let mut m = KModes::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.modes = Array2::zeros((3, 2));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
