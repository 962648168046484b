//! Mini-batch k-means ([`MiniBatchKMeans`], scikit-learn's `MiniBatchKMeans`; Sculley 2010).
//!
//! # Method
//!
//! k-means on random mini-batches: each step draws `batch_size` rows (with replacement),
//! assigns them to the nearest centre (with the current centres; the batch inertia is measured
//! here), and moves every centre `c` that received rows to the running mean of everything it has
//! seen, `μ_c ← (n_c μ_c + Σ_batch x) / (n_c + m_c)` with `n_c ← n_c + m_c` (a per-centre
//! learning rate `1/n_c`).
//!
//! **Reassignment** (as scikit-learn): after every `10 k` rows seen (or whenever a centre has
//! seen nothing), centres whose count is below `reassignment_ratio · max count` move to random
//! rows of the current batch (at most half the batch), and their counts are set to the smallest
//! remaining count, so a centre stranded by a poor start gets another chance.
//!
//! **Stopping** (as scikit-learn): an exponentially weighted average of the batch inertia per
//! row (weight `2 · batch_size / (n + 1)`) is tracked from the second step on; the run stops
//! when it has not improved for `max_no_improvement` consecutive steps, when the squared centre
//! movement of a step falls to `tol · mean_j Var(x_j)` (`tol > 0`), or after `max_iter` epochs
//! (`max_iter · n / batch_size` steps). The labels and inertia are then computed on all rows.
//!
//! **Initialisation**: k-means++ or random rows on a random sample of `init_size` rows
//! (default `3 · batch_size`); with `n_init` candidate starts, the one with the lowest inertia on
//! a second random sample of the same size is kept. Step `t` draws its batch from random stream
//! `t + 1` of `seed`, so results do not depend on the number of threads.
//!
//! [`PartialFit`] runs one step on each given batch (the first batch also initialises the
//! centres), for data that arrive in pieces.
//!
//! ```
//! use ndlearn_cluster::MiniBatchKMeans;
//! use ndlearn_core::ndarray::Array2;
//! use ndlearn_core::{FitUnsupervised, PartialFit, Predict};
//!
//! // two well separated groups of 500 points
//! let x = Array2::from_shape_fn((1000, 2), |(i, j)| {
//!     (if i < 500 { 0.0 } else { 10.0 }) + ((i * 7 + j * 3) % 11) as f64 / 11.0
//! });
//! let m = MiniBatchKMeans::new(2).batch_size(100).seed(1).fit(&x)?;
//! assert_ne!(m.labels()[0], m.labels()[999]);
//! // the same data in five pieces
//! let mut model = None;
//! for piece in x.axis_chunks_iter(ndarray::Axis(0), 200) {
//!     model = Some(MiniBatchKMeans::new(2).seed(1).partial_fit(model, &piece, &())?);
//! }
//! let model = model.expect("five batches");
//! assert_eq!(model.n_steps(), 5);
//! assert_ne!(model.predict(&x)?[0], model.predict(&x)?[999]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::random::{self, Rng};
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{
    CheckModel, Error, FitUnsupervised, Float, PartialFit, Predict, Result, Transform,
};

use crate::kmeans::{KMeansInit, assign, plus_plus};

/// Mini-batch k-means. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MiniBatchKMeans {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Initialisation (default k-means++; `Centers` skips the candidate starts).
    pub init: KMeansInit,
    /// Candidate starts (default `None`: 1 for k-means++ and given centres, 3 for random).
    pub n_init: Option<usize>,
    /// Maximum epochs (default 100).
    pub max_iter: usize,
    /// Rows per step (default 1024).
    pub batch_size: usize,
    /// Tolerance on the squared centre movement of a step, relative to the mean feature
    /// variance (default 0: off).
    pub tol: f64,
    /// Stop after this many steps without improvement of the smoothed batch inertia (default
    /// `Some(10)`; `None`: off).
    pub max_no_improvement: Option<usize>,
    /// Rows sampled to initialise (default `None`: `3 · batch_size`, at least `3 k`, at most
    /// `n`).
    pub init_size: Option<usize>,
    /// Centres with fewer than this fraction of the largest count are reassigned (default
    /// 0.01).
    pub reassignment_ratio: f64,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for MiniBatchKMeans {
    fn default() -> Self {
        Self::new(8)
    }
}

impl MiniBatchKMeans {
    /// Mini-batch k-means with `k` clusters, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            init: KMeansInit::KMeansPlusPlus,
            n_init: None,
            max_iter: 100,
            batch_size: 1024,
            tol: 0.0,
            max_no_improvement: Some(10),
            init_size: None,
            reassignment_ratio: 0.01,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the initialisation.
        init: KMeansInit,
        /// Sets the number of candidate starts.
        n_init: Option<usize>,
        /// Sets `max_iter` (epochs).
        max_iter: usize,
        /// Sets the batch size.
        batch_size: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets `max_no_improvement`.
        max_no_improvement: Option<usize>,
        /// Sets `init_size`.
        init_size: Option<usize>,
        /// Sets `reassignment_ratio`.
        reassignment_ratio: f64,
        /// Sets the seed.
        seed: u64,
    }

    fn check(&self, n: usize, d: usize) -> Result<()> {
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.batch_size == 0 {
            return Err(Error::invalid_param("batch_size", "must be >= 1"));
        }
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1"));
        }
        if self.n_init == Some(0) {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        ndlearn_core::validate::check_non_negative("reassignment_ratio", self.reassignment_ratio)?;
        if let KMeansInit::Centers(c) = &self.init {
            crate::common::check_centers(c, k, d)?;
        }
        Ok(())
    }

    /// Initial centres from `x` (all of it, or a sample of `init_size` rows).
    fn initial<F: Float>(&self, x: &ArrayRef2<F>, rng: &mut Rng) -> Result<Array2<F>> {
        let (n, d) = x.dim();
        let k = self.n_clusters;
        if let KMeansInit::Centers(c) = &self.init {
            return Ok(c.mapv(F::cast));
        }
        let size = self
            .init_size
            .unwrap_or(3 * self.batch_size)
            .max(3 * k)
            .min(n);
        let starts = self.n_init.unwrap_or(match self.init {
            KMeansInit::Random => 3,
            _ => 1,
        });
        let valid_idx = random::sample_with_replacement(rng, n, size)?;
        let valid = x.select(Axis(0), &valid_idx);
        let valid = valid.as_standard_layout();
        let mut best: Option<(F, Array2<F>)> = None;
        for _ in 0..starts {
            let idx = random::sample_with_replacement(rng, n, size)?;
            let sample = x.select(Axis(0), &idx);
            let centers = match self.init {
                KMeansInit::Random => {
                    let pick = random::sample_without_replacement(rng, size, k)?;
                    sample.select(Axis(0), &pick)
                }
                _ => plus_plus(sample.as_slice().unwrap_or(&[]), d, k, rng)?.0,
            };
            let (_, dist) = assign(valid.as_slice().unwrap_or(&[]), d, &centers);
            let inertia: F = dist.iter().copied().sum();
            if best.as_ref().is_none_or(|b| inertia < b.0) {
                best = Some((inertia, centers));
            }
        }
        best.map(|b| b.1)
            .ok_or_else(|| Error::invalid_param("n_init", "no start ran"))
    }
}

/// The streaming state and result of [`MiniBatchKMeans`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMiniBatchKMeans<F: Float> {
    params: MiniBatchKMeans,
    centers: Array2<F>,
    counts: Vec<F>,
    labels: Array1<usize>,
    inertia: F,
    n_steps: usize,
    n_iter: usize,
    since_reassign: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedMiniBatchKMeans<F> {
    fn n_features_in(&self) -> usize {
        self.centers.ncols()
    }
}

impl<F: Float> FittedMiniBatchKMeans<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &MiniBatchKMeans {
        &self.params
    }
    /// The centres (`k × d`).
    pub fn centers(&self) -> &Array2<F> {
        &self.centers
    }
    /// Rows seen by each centre (scikit-learn's `_counts`).
    pub fn counts(&self) -> &[F] {
        &self.counts
    }
    /// The cluster of every training row (after `partial_fit`: of the last batch).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// Sum of squared distances of [`Self::labels`]'s rows to their centres.
    pub fn inertia(&self) -> F {
        self.inertia
    }
    /// Mini-batch steps taken (scikit-learn's `n_steps_`).
    pub fn n_steps(&self) -> usize {
        self.n_steps
    }
    /// Epochs started (`⌈n_steps · batch_size / n⌉`; scikit-learn's `n_iter_`); after
    /// `partial_fit`, the batches seen.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }

    /// One mini-batch step on `batch`; returns the batch inertia (before the update) and the
    /// squared centre movement.
    fn step(&mut self, batch: &[F], d: usize, rng: &mut Rng) -> (F, F) {
        let k = self.centers.nrows();
        let m = batch.len() / d.max(1);
        let (labels, dist) = assign(batch, d, &self.centers);
        let inertia: F = dist.iter().copied().sum();
        let mut sums = Array2::<F>::zeros((k, d));
        let mut got = vec![F::zero(); k];
        for (i, &c) in labels.iter().enumerate() {
            got[c] += F::one();
            for (s, &v) in sums.row_mut(c).iter_mut().zip(&batch[i * d..(i + 1) * d]) {
                *s += v;
            }
        }
        let old = self.centers.clone();
        for (c, &g) in got.iter().enumerate() {
            if g > F::zero() {
                let total = self.counts[c] + g;
                let keep = self.counts[c];
                for (mu, &s) in self.centers.row_mut(c).iter_mut().zip(sums.row(c)) {
                    *mu = (*mu * keep + s) / total;
                }
                self.counts[c] = total;
            }
        }
        // random reassignment of starved centres
        self.since_reassign += m;
        let starving = self.counts.iter().any(|&c| c == F::zero());
        if self.params.reassignment_ratio > 0.0 && (starving || self.since_reassign >= 10 * k) {
            self.since_reassign = 0;
            let max = self.counts.iter().copied().fold(F::zero(), F::max);
            let limit = F::cast(self.params.reassignment_ratio) * max;
            let mut to: Vec<bool> = self.counts.iter().map(|&c| c < limit).collect();
            let half = m / 2;
            if to.iter().filter(|&&t| t).count() > half {
                // keep only the `half` smallest counts for reassignment
                let mut order: Vec<usize> = (0..k).collect();
                order.sort_by(|&a, &b| {
                    self.counts[a]
                        .partial_cmp(&self.counts[b])
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then(a.cmp(&b))
                });
                for &c in &order[half..] {
                    to[c] = false;
                }
            }
            let which: Vec<usize> = (0..k).filter(|&c| to[c]).collect();
            if !which.is_empty()
                && let Ok(rows) = random::sample_without_replacement(rng, m, which.len())
            {
                for (&c, &r) in which.iter().zip(&rows) {
                    self.centers
                        .row_mut(c)
                        .assign(&ndarray::ArrayView1::from(&batch[r * d..(r + 1) * d]));
                }
                let floor = (0..k)
                    .filter(|&c| !to[c])
                    .map(|c| self.counts[c])
                    .fold(F::infinity(), F::min);
                if floor.is_finite() {
                    for &c in &which {
                        self.counts[c] = floor;
                    }
                }
            }
        }
        let shift: F = (&self.centers - &old).iter().map(|&v| v * v).sum();
        self.n_steps += 1;
        (inertia, shift)
    }
}

impl Estimator for MiniBatchKMeans {
    /// Checks `n_clusters`, `batch_size`, `max_iter`, `n_init` (all `≥ 1`), `tol` and
    /// `reassignment_ratio` (`≥ 0`).
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("batch_size", self.batch_size, 1)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        if self.n_init == Some(0) {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        if self.init_size == Some(0) {
            return Err(Error::invalid_param("init_size", "must be >= 1"));
        }
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        ndlearn_core::validate::check_non_negative("reassignment_ratio", self.reassignment_ratio)
    }
}

impl<F: Float> FitUnsupervised<F> for MiniBatchKMeans {
    type Model = FittedMiniBatchKMeans<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "MiniBatchKMeans::fit")?;
        let (n, d) = x.dim();
        self.check(n, d)?;
        let data = x.as_standard_layout();
        let xs = data.as_slice().unwrap_or(&[]);
        let var_mean = ndlearn_core::stats::variance(x, 0)?
            .mean()
            .unwrap_or(F::zero());
        if !var_mean.is_finite() {
            return Err(Error::invalid_param(
                "x",
                "feature values too large: the variances overflow; rescale the features",
            ));
        }
        let tol = F::cast(self.tol) * var_mean;
        let mut rng = random::stream(self.seed, 0);
        let centers = self.initial(&data, &mut rng)?;
        let k = self.n_clusters;
        let mut model = FittedMiniBatchKMeans {
            params: self.clone(),
            centers,
            counts: vec![F::zero(); k],
            labels: Array1::zeros(0),
            inertia: F::zero(),
            n_steps: 0,
            n_iter: 0,
            since_reassign: 0,
        };
        let b = self.batch_size.min(n);
        let steps = (self.max_iter * n).div_ceil(b);
        let alpha = F::cast((2.0 * b as f64 / (n as f64 + 1.0)).min(1.0));
        let mut ewa: Option<F> = None;
        let mut ewa_min: Option<F> = None;
        let mut no_improvement = 0usize;
        let mut batch = vec![F::zero(); b * d];
        for t in 0..steps {
            let mut srng = random::stream(self.seed, t as u64 + 1);
            for (slot, i) in random::sample_with_replacement(&mut srng, n, b)?
                .into_iter()
                .enumerate()
            {
                batch[slot * d..(slot + 1) * d].copy_from_slice(&xs[i * d..(i + 1) * d]);
            }
            let (inertia, shift) = model.step(&batch, d, &mut srng);
            if t == 0 {
                continue; // the first batch inertia measures the initialisation
            }
            let per_row = inertia / F::cast(b as f64);
            let e = match ewa {
                None => per_row,
                Some(e) => e * (F::one() - alpha) + per_row * alpha,
            };
            ewa = Some(e);
            if self.tol > 0.0 && shift <= tol {
                break;
            }
            if ewa_min.is_none_or(|m| e < m) {
                no_improvement = 0;
                ewa_min = Some(e);
            } else {
                no_improvement += 1;
            }
            if self.max_no_improvement.is_some_and(|m| no_improvement >= m) {
                break;
            }
        }
        model.n_iter = (model.n_steps * b).div_ceil(n);
        let (labels, dist) = assign(xs, d, &model.centers);
        model.labels = Array1::from(labels);
        model.inertia = dist.iter().copied().sum();
        Ok(model)
    }
}

impl<F: Float> PartialFit<F> for MiniBatchKMeans {
    type Target = ();
    type Model = FittedMiniBatchKMeans<F>;

    /// One mini-batch step on the whole of `x` (the first call also initialises the centres
    /// from it, so it needs at least `k` rows).
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        _y: &(),
    ) -> Result<Self::Model> {
        check_fit_input(x, 1, "MiniBatchKMeans::partial_fit")?;
        let data = x.as_standard_layout();
        let d = x.ncols();
        let mut model = match model {
            Some(m) => {
                check_predict_input(x, m.centers.ncols(), "MiniBatchKMeans: number of features")?;
                m
            }
            None => {
                self.check(x.nrows(), d)?;
                let mut rng = random::stream(self.seed, 0);
                FittedMiniBatchKMeans {
                    params: self.clone(),
                    centers: self.initial(&data, &mut rng)?,
                    counts: vec![F::zero(); self.n_clusters],
                    labels: Array1::zeros(0),
                    inertia: F::zero(),
                    n_steps: 0,
                    n_iter: 0,
                    since_reassign: 0,
                }
            }
        };
        let xs = data.as_slice().unwrap_or(&[]);
        let mut rng = random::stream(model.params.seed, model.n_steps as u64 + 1);
        model.step(xs, d, &mut rng);
        let (labels, dist) = assign(xs, d, &model.centers);
        model.labels = Array1::from(labels);
        model.inertia = dist.iter().copied().sum();
        model.n_iter = model.n_steps;
        Ok(model)
    }
}

impl<F: Float> Predict<F> for FittedMiniBatchKMeans<F> {
    type Output = Array1<usize>;

    /// The nearest centre of every row (ties to the lower centre).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(
            x,
            self.centers.ncols(),
            "MiniBatchKMeans: number of features",
        )?;
        let data = x.as_standard_layout();
        let (labels, _) = assign(data.as_slice().unwrap_or(&[]), x.ncols(), &self.centers);
        Ok(Array1::from(labels))
    }
}

impl<F: Float> Transform<F> for FittedMiniBatchKMeans<F> {
    /// Euclidean distances to the centres, `n × k`.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.centers.ncols(),
            "MiniBatchKMeans: number of features",
        )?;
        Ok(
            ndlearn_core::linalg::pairwise_sq_euclidean(x, &self.centers)?
                .mapv(|v| v.max(F::zero()).sqrt()),
        )
    }
}

impl<F: Float> CheckModel for FittedMiniBatchKMeans<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMiniBatchKMeans");
        c.params(&self.params)?;
        let k = self.params.n_clusters;
        crate::common::check_points(&c, "centers", &self.centers, k)?;
        // `partial_fit` updates `counts[c]` for every centre
        c.len("counts", self.counts.len(), k)?;
        c.that(
            self.counts.iter().all(|v| v.is_finite() && *v >= F::zero()),
            || "`counts` must be finite and non-negative".into(),
        )?;
        c.indices_below("labels", &self.labels, k)?;
        c.finite_value("inertia", self.inertia)?;
        // room for the step counters `partial_fit` adds to
        c.that(
            self.n_steps.max(self.since_reassign) < usize::MAX / 2,
            || "step counters out of range".into(),
        )
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1]];
        let mut m = MiniBatchKMeans::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.counts.pop();
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
