//! k-medoids: PAM ([`KMedoids`]) and CLARA ([`Clara`]) (catalog CL-146, CL-147).
//!
//! # Method
//!
//! Choose `k` data points (medoids) minimising `E = Σ_i d(x_i, m(x_i))`, the **unsquared**
//! dissimilarity to the nearest medoid (Kaufman & Rousseeuw, *Finding Groups in Data*, Wiley
//! (1990), ch. 2–3); any core [`Metric`] or a precomputed
//! dissimilarity matrix. The medoid of a cluster is the member with the smallest total
//! dissimilarity to the other members (catalog E12: the course notes print "the point closest to the
//! mean", which is a different point in general; PAM uses this definition).
//!
//! * **BUILD** (Kaufman & Rousseeuw): the first medoid minimises the total dissimilarity to all
//!   points; each next one maximises the decrease of `E`.
//! * **SWAP**: every round evaluates all `k (n − k)` swaps (medoid `o` out, non-medoid `o'` in)
//!   and performs the best one while it lowers `E`. With the nearest and second-nearest medoid
//!   distances `D_j`, `E_j` of every point, the change of swapping `o_i` for `h` is
//!   `Σ_j min(d_jh − D_j, 0) + Σ_{j: m(j) = o_i} [min(d_jh, E_j) − D_j − min(d_jh − D_j, 0)]`,
//!   so one round costs `O(n²)` instead of `O(k n²)` (Schubert & Rousseeuw's FastPAM1 shared
//!   term); candidates are scanned in parallel, ties go to the lower (candidate, medoid).
//! * **Alternate** ([`KMedoidsMethod::Alternate`]): the k-means-like loop (assign, then move
//!   each medoid to its cluster's medoid), faster and usually slightly worse.
//!
//! [`Clara`] runs PAM on `n_samplings` random samples of `40 + 2k` rows (Kaufman & Rousseeuw's
//! sizes) in parallel, scores every medoid set on all rows, and keeps the best, so large `n`
//! never needs the `n × n` matrix (PAM itself stores it).
//!
//! ```
//! use ndlearn_cluster::KMedoids;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict};
//!
//! let x = array![[0.0f64], [1.0], [2.0], [30.0], [10.0], [11.0], [12.0], [13.0]];
//! let m = KMedoids::new(2).fit(&x)?;
//! // {10, 11, 12, 13, 30}: the outlier pulls the mean to 15.2 (nearest point 13), while the
//! // medoid, the point of least total dissimilarity, stays at 12 (row 6)
//! let mut medoids = m.medoid_indices().to_vec();
//! medoids.sort();
//! assert_eq!(medoids, vec![1, 6]);
//! assert_eq!(m.cost(), 24.0);
//! assert_eq!(m.predict(&array![[3.0], [9.0]])?.to_vec(), vec![m.labels()[1], m.labels()[6]]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::distance::Metric;
use ndlearn_core::random;
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

/// How [`KMedoids`] improves the medoids.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum KMedoidsMethod {
    /// PAM SWAP: the best of all swaps per round (default).
    #[default]
    Pam,
    /// Assign, then move every medoid to its cluster's medoid (Voronoi iteration).
    Alternate,
}

/// How [`KMedoids`] chooses its first medoids.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MedoidInit {
    /// PAM BUILD (default; deterministic).
    #[default]
    Build,
    /// `k` distinct random rows (the course notes' "arbitrarily").
    Random,
    /// These rows.
    Indices(Vec<usize>),
}

/// k-medoids clustering. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KMedoids {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Dissimilarity between rows (default Euclidean).
    pub metric: Metric,
    /// Improvement step (default PAM SWAP).
    pub method: KMedoidsMethod,
    /// Initialisation (default BUILD).
    pub init: MedoidInit,
    /// Maximum improvement rounds (default 300).
    pub max_iter: usize,
    /// Random seed (for random initialisation; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for KMedoids {
    fn default() -> Self {
        Self::new(8)
    }
}

/// The result of PAM on a dissimilarity matrix.
struct Pam {
    medoids: Vec<usize>,
    labels: Vec<usize>,
    cost: f64,
    n_iter: usize,
}

/// Nearest and second-nearest medoid (positions in `medoids`) and distances of every point.
fn nearest_two(d: &Array2<f64>, medoids: &[usize]) -> (Vec<usize>, Vec<f64>, Vec<f64>) {
    let n = d.nrows();
    let mut near = vec![0usize; n];
    let mut dn = vec![f64::INFINITY; n];
    let mut ds = vec![f64::INFINITY; n];
    for j in 0..n {
        for (p, &m) in medoids.iter().enumerate() {
            let v = d[[j, m]];
            if v < dn[j] {
                ds[j] = dn[j];
                dn[j] = v;
                near[j] = p;
            } else if v < ds[j] {
                ds[j] = v;
            }
        }
    }
    (near, dn, ds)
}

/// PAM BUILD.
fn build(d: &Array2<f64>, k: usize) -> Vec<usize> {
    let n = d.nrows();
    let first = (0..n)
        .map(|h| (h, d.row(h).sum()))
        .fold((0, f64::INFINITY), |a, b| if b.1 < a.1 { b } else { a })
        .0;
    let mut medoids = vec![first];
    let mut dn: Vec<f64> = d.column(first).to_vec();
    let mut is_med = vec![false; n];
    is_med[first] = true;
    while medoids.len() < k {
        let gains = par::map_chunks(n, 256, |r| {
            r.map(|h| {
                if is_med[h] {
                    return f64::NEG_INFINITY;
                }
                (0..n).map(|j| (dn[j] - d[[j, h]]).max(0.0)).sum::<f64>()
            })
            .collect::<Vec<f64>>()
        });
        let gains: Vec<f64> = gains.into_iter().flatten().collect();
        let mut best = usize::MAX;
        for h in 0..n {
            if !is_med[h] && (best == usize::MAX || gains[h] > gains[best]) {
                best = h;
            }
        }
        medoids.push(best);
        is_med[best] = true;
        for j in 0..n {
            dn[j] = dn[j].min(d[[j, best]]);
        }
    }
    medoids
}

/// The medoid (E12) of `members`: the member with the smallest total dissimilarity to the
/// others (ties: the lower row).
fn medoid_of(d: &Array2<f64>, members: &[usize]) -> Option<usize> {
    members
        .iter()
        .map(|&h| (h, members.iter().map(|&j| d[[j, h]]).sum::<f64>()))
        .fold(None, |best: Option<(usize, f64)>, (h, c)| match best {
            Some((_, bc)) if bc <= c => best,
            _ => Some((h, c)),
        })
        .map(|b| b.0)
}

fn pam(d: &Array2<f64>, mut medoids: Vec<usize>, method: KMedoidsMethod, max_iter: usize) -> Pam {
    let n = d.nrows();
    let k = medoids.len();
    let mut n_iter = 0;
    match method {
        KMedoidsMethod::Pam => {
            for _ in 0..max_iter {
                n_iter += 1;
                let (near, dn, ds) = nearest_two(d, &medoids);
                let cost: f64 = dn.iter().sum();
                let mut is_med = vec![false; n];
                for &m in &medoids {
                    is_med[m] = true;
                }
                // best swap per candidate h: (delta, medoid position)
                let per = par::map_chunks(n, 64, |r| {
                    r.map(|h| {
                        if is_med[h] {
                            return (f64::INFINITY, 0);
                        }
                        let mut shared = 0.0;
                        let mut own = vec![0.0f64; k];
                        for j in 0..n {
                            let djh = d[[j, h]];
                            let gain = (djh - dn[j]).min(0.0);
                            shared += gain;
                            own[near[j]] += djh.min(ds[j]) - dn[j] - gain;
                        }
                        let mut best = (f64::INFINITY, 0);
                        for (i, &o) in own.iter().enumerate() {
                            if shared + o < best.0 {
                                best = (shared + o, i);
                            }
                        }
                        best
                    })
                    .collect::<Vec<_>>()
                });
                let mut best = (f64::INFINITY, 0usize, 0usize);
                for (h, (delta, i)) in per.into_iter().flatten().enumerate() {
                    if delta < best.0 {
                        best = (delta, h, i);
                    }
                }
                if best.0.is_nan() || best.0 >= -1e-12 * cost.max(f64::MIN_POSITIVE) {
                    break;
                }
                medoids[best.2] = best.1;
            }
        }
        KMedoidsMethod::Alternate => {
            for _ in 0..max_iter {
                n_iter += 1;
                let (near, _, _) = nearest_two(d, &medoids);
                let mut changed = false;
                for (p, m) in medoids.iter_mut().enumerate() {
                    let members: Vec<usize> = (0..n).filter(|&j| near[j] == p).collect();
                    if let Some(best) = medoid_of(d, &members)
                        && best != *m
                        && members.iter().map(|&j| d[[j, best]]).sum::<f64>()
                            < members.iter().map(|&j| d[[j, *m]]).sum::<f64>()
                    {
                        *m = best;
                        changed = true;
                    }
                }
                if !changed {
                    break;
                }
            }
        }
    }
    let (near, dn, _) = nearest_two(d, &medoids);
    Pam {
        cost: dn.iter().sum(),
        labels: near,
        medoids,
        n_iter,
    }
}

/// The `n × n` dissimilarity matrix of the rows of `x` (rows in parallel).
fn dissimilarities<F: Float>(x: &ArrayRef2<F>, metric: &Metric) -> Result<Array2<f64>> {
    let n = x.nrows();
    let rows: Vec<Vec<f64>> = par::map_tasks(n, |i| {
        let a = x.row(i);
        (0..n)
            .map(|j| metric.distance(&a, &x.row(j)).to_f64().unwrap_or(f64::NAN))
            .collect()
    });
    let d = Array2::from_shape_vec((n, n), rows.into_iter().flatten().collect())
        .map_err(|_| Error::invalid_param("x", "dissimilarity matrix shape"))?;
    if d.iter().any(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "x",
            "dissimilarities overflow; rescale the features",
        ));
    }
    Ok(d)
}

fn check_matrix<F: Float>(d: &ArrayRef2<F>) -> Result<Array2<f64>> {
    let n = d.nrows();
    if d.ncols() != n {
        return Err(Error::ShapeMismatch {
            context: "KMedoids::fit_precomputed",
            expected: "a square dissimilarity matrix".into(),
            found: format!("{} x {}", d.nrows(), d.ncols()),
        });
    }
    ndlearn_core::validate::check_min_samples(n, 1, "KMedoids::fit_precomputed")?;
    let m = d.mapv(|v| v.to_f64().unwrap_or(f64::NAN));
    if m.iter().any(|v| !v.is_finite() || *v < 0.0) {
        return Err(Error::invalid_param(
            "d",
            "dissimilarities must be finite and non-negative",
        ));
    }
    Ok(m)
}

impl KMedoids {
    /// `k` medoids, Euclidean, PAM from BUILD.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            metric: Metric::Euclidean,
            method: KMedoidsMethod::Pam,
            init: MedoidInit::Build,
            max_iter: 300,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the metric.
        metric: Metric,
        /// Sets the method.
        method: KMedoidsMethod,
        /// Sets the initialisation.
        init: MedoidInit,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets the seed.
        seed: u64,
    }

    fn run(&self, d: &Array2<f64>) -> Result<Pam> {
        let n = d.nrows();
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be >= 1"));
        }
        let start = match &self.init {
            MedoidInit::Build => build(d, k),
            MedoidInit::Random => {
                random::sample_without_replacement(&mut random::rng(self.seed), n, k)?
            }
            MedoidInit::Indices(v) => {
                let mut s = v.clone();
                s.sort_unstable();
                s.dedup();
                if v.len() != k || s.len() != k || s.iter().any(|&i| i >= n) {
                    return Err(Error::invalid_param(
                        "init",
                        format!("need {k} distinct row indices below {n}"),
                    ));
                }
                v.clone()
            }
        };
        Ok(pam(d, start, self.method, self.max_iter))
    }

    /// Fits on a precomputed `n × n` dissimilarity matrix (finite, non-negative; need not be
    /// symmetric or metric). The model has no medoid coordinates, so its `predict` errors.
    ///
    /// # Errors
    /// For a non-square or invalid matrix and invalid settings.
    pub fn fit_precomputed<F: Float>(&self, d: &ArrayRef2<F>) -> Result<FittedKMedoids<F>> {
        let m = check_matrix(d)?;
        let r = self.run(&m)?;
        Ok(FittedKMedoids::from_pam(self.metric.clone(), r, None))
    }
}

impl Estimator for KMedoids {
    /// Checks `n_clusters ≥ 1`, `max_iter ≥ 1` and the metric (given medoid indices are
    /// checked against the data at fit).
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        self.metric.validate()
    }
}

impl<F: Float> FitUnsupervised<F> for KMedoids {
    type Model = FittedKMedoids<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "KMedoids::fit")?;
        let d = dissimilarities(x, &self.metric)?;
        let r = self.run(&d)?;
        let centers = x.select(Axis(0), &r.medoids);
        Ok(FittedKMedoids::from_pam(
            self.metric.clone(),
            r,
            Some(centers),
        ))
    }
}

/// A fitted [`KMedoids`] or [`Clara`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKMedoids<F: Float> {
    metric: Metric,
    medoid_indices: Vec<usize>,
    medoids: Option<Array2<F>>,
    labels: Array1<usize>,
    cost: f64,
    n_iter: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKMedoids<F> {
    fn n_features_in(&self) -> usize {
        self.medoids.as_ref().map_or(0, |m| m.ncols())
    }
}

impl<F: Float> FittedKMedoids<F> {
    fn from_pam(metric: Metric, r: Pam, medoids: Option<Array2<F>>) -> Self {
        Self {
            metric,
            medoid_indices: r.medoids,
            medoids,
            labels: Array1::from(r.labels),
            cost: r.cost,
            n_iter: r.n_iter,
        }
    }
    /// The rows that are medoids (cluster `c` has medoid `medoid_indices()[c]`).
    pub fn medoid_indices(&self) -> &[usize] {
        &self.medoid_indices
    }
    /// The medoids' coordinates (`None` when fitted on a dissimilarity matrix).
    pub fn medoids(&self) -> Option<&Array2<F>> {
        self.medoids.as_ref()
    }
    /// The cluster of every training row (its nearest medoid; ties: the lower cluster).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// `E = Σ_i d(x_i, nearest medoid)` on the training rows (scikit-learn-extra's `inertia_`).
    pub fn cost(&self) -> f64 {
        self.cost
    }
    /// Improvement rounds run.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
}

/// Nearest medoid of every row of `x` and the distance.
fn nearest_medoid<F: Float>(
    x: &ArrayRef2<F>,
    medoids: &Array2<F>,
    metric: &Metric,
) -> (Vec<usize>, Vec<f64>) {
    let parts = par::map_chunks(x.nrows(), 1024, |r| {
        r.map(|i| {
            let a = x.row(i);
            let mut best = (0usize, f64::INFINITY);
            for (c, m) in medoids.rows().into_iter().enumerate() {
                let v = metric.distance(&a, &m).to_f64().unwrap_or(f64::NAN);
                if v < best.1 {
                    best = (c, v);
                }
            }
            best
        })
        .collect::<Vec<_>>()
    });
    parts.into_iter().flatten().unzip()
}

impl<F: Float> Predict<F> for FittedKMedoids<F> {
    type Output = Array1<usize>;

    /// The nearest medoid of every row.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a model fitted on a dissimilarity matrix; the usual input
    /// errors.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let Some(m) = &self.medoids else {
            return Err(Error::invalid_param(
                "x",
                "a model fitted on a dissimilarity matrix cannot place new rows",
            ));
        };
        check_predict_input(x, m.ncols(), "KMedoids: number of features")?;
        Ok(Array1::from(nearest_medoid(x, m, &self.metric).0))
    }
}

impl<F: Float> CheckModel for FittedKMedoids<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKMedoids");
        let k = self.medoid_indices.len();
        c.at_least("medoid_indices", k, 1)?;
        c.indices_below("medoid_indices", &self.medoid_indices, self.labels.len())?;
        c.indices_below("labels", &self.labels, k)?;
        c.finite_value("cost", self.cost)?;
        // no coordinates after a fit on a dissimilarity matrix
        let d = match &self.medoids {
            Some(m) => Some(crate::common::check_points(&c, "medoids", m, k)?),
            None => None,
        };
        crate::common::check_metric(&c, &self.metric, d)
    }
}

/// CLARA: PAM on random samples, best medoids over all rows. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Clara {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Dissimilarity (default Euclidean).
    pub metric: Metric,
    /// Samples drawn (default 5).
    pub n_samplings: usize,
    /// Rows per sample (default `None`: `40 + 2k`, at most `n`).
    pub sample_size: Option<usize>,
    /// Maximum SWAP rounds per sample (default 300).
    pub max_iter: usize,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for Clara {
    fn default() -> Self {
        Self::new(8)
    }
}

impl Clara {
    /// `k` medoids, Euclidean, 5 samples of `40 + 2k` rows.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            metric: Metric::Euclidean,
            n_samplings: 5,
            sample_size: None,
            max_iter: 300,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the metric.
        metric: Metric,
        /// Sets the number of samples.
        n_samplings: usize,
        /// Sets the sample size.
        sample_size: Option<usize>,
        /// Sets the seed.
        seed: u64,
    }
}

impl Estimator for Clara {
    /// Checks `n_clusters`, `n_samplings`, `max_iter` (`≥ 1`), a sample size of at least one row
    /// and the metric.
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("n_samplings", self.n_samplings, 1)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        if self.sample_size == Some(0) {
            return Err(Error::invalid_param("sample_size", "must be >= 1"));
        }
        self.metric.validate()
    }
}

impl<F: Float> FitUnsupervised<F> for Clara {
    type Model = FittedKMedoids<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "Clara::fit")?;
        let n = x.nrows();
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.n_samplings == 0 {
            return Err(Error::invalid_param("n_samplings", "must be >= 1"));
        }
        let size = self.sample_size.unwrap_or(40 + 2 * k).clamp(k, n);
        let runs = par::try_map_tasks(self.n_samplings, |s| -> Result<(f64, Vec<usize>, usize)> {
            let mut rng = random::stream(self.seed, s as u64);
            let mut rows = random::sample_without_replacement(&mut rng, n, size)?;
            rows.sort_unstable();
            let sample = x.select(Axis(0), &rows);
            let d = dissimilarities(&sample, &self.metric)?;
            let r = pam(&d, build(&d, k), KMedoidsMethod::Pam, self.max_iter);
            let medoids: Vec<usize> = r.medoids.iter().map(|&i| rows[i]).collect();
            let centers = x.select(Axis(0), &medoids);
            let (_, dist) = nearest_medoid(x, &centers, &self.metric);
            Ok((dist.iter().sum(), medoids, r.n_iter))
        })?;
        let best = runs
            .into_iter()
            .reduce(|a, b| if b.0 < a.0 { b } else { a })
            .ok_or_else(|| Error::invalid_param("n_samplings", "no sample ran"))?;
        let centers = x.select(Axis(0), &best.1);
        let (labels, dist) = nearest_medoid(x, &centers, &self.metric);
        Ok(FittedKMedoids {
            metric: self.metric.clone(),
            medoid_indices: best.1,
            medoids: Some(centers),
            labels: Array1::from(labels),
            cost: dist.iter().sum(),
            n_iter: best.2,
        })
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1]];
        let mut m = KMedoids::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        let clara = Clara::new(2).fit(&x).expect("fit");
        assert!(clara.check_model().is_ok());
        m.medoid_indices[0] = 4;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
