//! k-means clustering ([`KMeans`], scikit-learn's `KMeans`; catalog CL-143).
//!
//! # Method
//!
//! Minimise the within-cluster sum of squares (inertia) `Σ_i ‖x_i − μ_{c(i)}‖²` by Lloyd's
//! alternation (Lloyd, "Least squares quantization in PCM", IEEE Trans. Information Theory
//! 28(2), 1982; Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed.
//! (2009), §14.3.6):
//!
//! 1. **assign** every row to its nearest centre (ranked by `‖μ_c‖² − 2xᵀμ_c` from one GEMM, as
//!    scikit-learn; **ties go to the lower centre index**, the course notes leave the tie policy open;
//!    the squared distance of the chosen centre is then computed directly);
//! 2. **update** every centre to the mean of its rows. A centre left without rows is moved to
//!    the row farthest from its current centre (as scikit-learn; the k-th empty cluster takes
//!    the k-th farthest row), so no cluster is lost;
//! 3. stop when the assignment no longer changes (*strict convergence*), or when the total
//!    squared centre movement `Σ_k ‖μ_k' − μ_k‖²` falls to `tol · mean_j Var(x_j)`
//!    (scikit-learn's scaled tolerance), or after `max_iter` rounds. The labels are then
//!    recomputed for the final centres, so `labels` and `predict` always agree.
//!
//! The inertia never increases from one round to the next (each step minimises it over one
//! block of variables); `FittedKMeans::inertia_history` records it for inspection.
//!
//! **Initialisation** ([`KMeansInit`]): the course notes' random distinct rows; greedy k-means++
//! (Arthur & Vassilvitskii 2007, with scikit-learn's `2 + ⌊ln k⌋` candidates per step, each
//! sampled with probability ∝ `D(x)²`, keeping the one that lowers the potential most); or
//! given centres; or the means of a Ward agglomerative clustering of a random sample (the
//! course notes' "hierarchical clustering on a small sample", as in Tan, Steinbach & Kumar,
//! *Introduction to Data Mining*, Addison-Wesley (2005), ch. 8). `n_init` restarts (default: 1
//! for k-means++ and given centres, 10 for random) run **in parallel**, restart `r` drawing
//! from random stream `r` of `seed`; the lowest final inertia wins (ties: the lower restart).
//! Results are identical for any number of threads.
//!
//! The assignment step runs over fixed chunks of rows in parallel; per-chunk centre sums are
//! added in chunk order. With a single restart every round is reported to an installed
//! [`ndlearn_core::observe`] observer (objective: the inertia, criterion: the squared centre
//! shift), which may stop the fit early (`converged() == false`).
//!
//! ```
//! use ndlearn_cluster::{KMeans, KMeansInit};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Predict, Transform};
//!
//! let x = array![[1.0f64, 1.0], [1.5, 2.0], [1.0, 0.5], [8.0, 8.0], [9.0, 8.5], [8.5, 9.5]];
//! let model = KMeans::new(2).seed(7).fit(&x)?;
//! let labels = model.labels();
//! assert_eq!(labels[0], labels[1]);
//! assert_ne!(labels[0], labels[3]);
//! assert_eq!(model.predict(&array![[9.0, 9.0]])?[0], labels[3]);
//! assert_eq!(model.transform(&x)?.dim(), (6, 2)); // distances to the centres
//! // the course notes' Lloyd iteration from given centres
//! let given = KMeans::new(2)
//!     .init(KMeansInit::Centers(array![[0.0, 0.0], [10.0, 10.0]]))
//!     .fit(&x)?;
//! assert_eq!(given.labels().to_vec(), vec![0, 0, 0, 1, 1, 1]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::random::{self, Rng};
use ndlearn_core::validate::{ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, Transform, par};

// The assignment kernels live with core's mergeable k-means statistics, so a distributed round
// and this one compute the same thing.
use ndlearn_core::stats::mergeable::KMeansStats;
pub(crate) use ndlearn_core::stats::mergeable::kmeans::{
    Transposed, all_sq, assign, cluster_sums, sq, transposed,
};

/// Rows per parallel task of the assignment step.
const CHUNK: usize = 2048;

/// How [`KMeans`] chooses its first centres.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum KMeansInit {
    /// Greedy k-means++ (default).
    #[default]
    KMeansPlusPlus,
    /// `k` distinct rows drawn uniformly (the course notes' initialisation).
    Random,
    /// These centres (`k × d`).
    Centers(Array2<f64>),
    /// Ward agglomerative clustering of a random sample of `sample_size` rows (at least `k`,
    /// at most `n`) cut into `k` clusters; their means start Lloyd (the course notes'
    /// suggestion; Tan, Steinbach & Kumar, *Introduction to Data Mining* (2005), ch. 8).
    Hierarchical {
        /// Rows in the sample.
        sample_size: usize,
    },
}

/// k-means clustering. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KMeans {
    /// Number of clusters `k` (default 8).
    pub n_clusters: usize,
    /// Initialisation (default k-means++).
    pub init: KMeansInit,
    /// Restarts (default `None`: 1 for k-means++ and given centres, 10 for random).
    pub n_init: Option<usize>,
    /// Maximum Lloyd rounds per restart (default 300).
    pub max_iter: usize,
    /// Tolerance on the total squared centre movement, relative to the mean feature variance
    /// (default 1e-4).
    pub tol: f64,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Lloyd or Hamerly's bounded iteration (default auto).
    pub algorithm: KMeansAlgorithm,
}

/// How [`KMeans`] runs its rounds. Both give the same centres and labels (up to rows
/// equidistant from two centres, where rounding decides).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum KMeansAlgorithm {
    /// Hamerly when `k · d ≤ 4096`, else Lloyd (whose large-`k` assignment runs as one GEMM)
    /// (default).
    #[default]
    Auto,
    /// Every row against every centre each round (scikit-learn's default `"lloyd"`).
    Lloyd,
    /// Hamerly (2010): one upper and one lower distance bound per row skip the rows whose
    /// nearest centre cannot have changed; the same rounds with far fewer distances once the
    /// centres settle.
    Hamerly,
}

impl Default for KMeans {
    fn default() -> Self {
        Self::new(8)
    }
}

impl KMeans {
    /// k-means with `k` clusters, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            init: KMeansInit::KMeansPlusPlus,
            n_init: None,
            max_iter: 300,
            tol: 1e-4,
            seed: 0,
            algorithm: KMeansAlgorithm::Auto,
        }
    }
    ndlearn_core::setters! {
        /// Sets the algorithm.
        algorithm: KMeansAlgorithm,
        /// Sets the initialisation.
        init: KMeansInit,
        /// Sets the number of restarts.
        n_init: Option<usize>,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets the seed.
        seed: u64,
    }

    fn restarts(&self) -> usize {
        self.n_init.unwrap_or(match self.init {
            KMeansInit::Random => 10,
            _ => 1,
        })
    }

    /// Lloyd's rounds driven by data passes: `pass(centres)` returns the [`KMeansStats`] of all
    /// rows at those centres, computed wherever the rows are (partitions of a table on other
    /// machines, files read block by block); each round moves every centre to the mean of its
    /// rows. The fit starts from the given centres ([`KMeansInit::Centers`]); `var_mean` is the
    /// mean of the column variances (biased), which scales `tol` as in a fit on rows
    /// (scikit-learn's rule), so the rounds stop where [`FitUnsupervised::fit`] with
    /// [`KMeansAlgorithm::Lloyd`] stops: when the squared centre shift is at most
    /// `tol · var_mean` (labels that no longer change give shift 0). One last pass gives the
    /// inertia at the final centres.
    ///
    /// Differences from a fit on rows: a centre that loses every row stays where it was
    /// (a fit on rows moves it to the farthest rows, which a pass of sums cannot name), and the
    /// fitted model keeps no training labels ([`FittedKMeans::labels`] is empty; `predict`
    /// assigns rows).
    ///
    /// # Errors
    /// Invalid hyperparameters, an initialisation other than given centres, centres that are
    /// not `n_clusters × d` and finite, a non-finite `var_mean`, and the errors of `pass`.
    pub fn fit_passes<F: Float>(
        &self,
        var_mean: F,
        mut pass: impl FnMut(&Array2<F>) -> Result<KMeansStats<F>>,
    ) -> Result<FittedKMeans<F>> {
        self.validate()?;
        let KMeansInit::Centers(init) = &self.init else {
            return Err(Error::invalid_param(
                "init",
                "fits from data passes start from given centres (KMeansInit::Centers)",
            ));
        };
        crate::common::check_centers(init, self.n_clusters, init.ncols())?;
        if !var_mean.is_finite() || var_mean < F::zero() {
            return Err(Error::invalid_param(
                "x",
                "the mean column variance must be finite and non-negative",
            ));
        }
        let tol = F::cast(self.tol) * var_mean;
        let mut centers: Array2<F> = init.mapv(F::cast);
        let mut history = Vec::new();
        let mut n_iter = 0;
        let mut converged = false;
        for it in 0..self.max_iter {
            n_iter = it + 1;
            let st = pass(&centers)?;
            history.push(st.inertia);
            let new = st.centers();
            let shift: F = (&new - &centers).iter().map(|&v| v * v).sum();
            centers = new;
            if shift <= tol {
                converged = true;
                break;
            }
        }
        let inertia = pass(&centers)?.inertia;
        Ok(FittedKMeans {
            params: self.clone(),
            centers,
            labels: Array1::zeros(0),
            inertia,
            n_iter,
            converged,
            inertia_history: history,
        })
    }
}

/// Greedy k-means++ seeding.
///
/// Each step samples the candidates from `D(x)²` and evaluates all of them in one parallel pass
/// over the rows (distances to every candidate at once, as in [`assign`]); the candidate with
/// the lowest potential `Σ_x min(D(x)², ‖x − c‖²)` wins (ties: the first sampled).
/// Returns the centres and the rows they were taken from.
pub(crate) fn plus_plus<F: Float>(
    xs: &[F],
    d: usize,
    k: usize,
    rng: &mut Rng,
) -> Result<(Array2<F>, Vec<usize>)> {
    let n = xs.len() / d;
    let trials = 2 + (k as f64).ln().floor() as usize;
    let mut centers = Array2::<F>::zeros((k, d));
    let first = random::sample_without_replacement(rng, n, 1)?[0];
    let mut rows = vec![first];
    centers
        .row_mut(0)
        .assign(&ndarray::ArrayView1::from(&xs[first * d..(first + 1) * d]));
    let first_row = &xs[first * d..(first + 1) * d];
    let mut closest: Vec<F> = par::map_chunks(n, CHUNK, |r| {
        r.map(|i| sq(&xs[i * d..(i + 1) * d], first_row))
            .collect::<Vec<F>>()
    })
    .into_iter()
    .flatten()
    .collect();
    for c in 1..k {
        // every remaining row coincides with a centre (all D(x)² = 0): any row will do
        let cands = sample_by_weight(rng, &closest, trials).unwrap_or_else(|| vec![c % n]);
        let t = cands.len();
        // candidate coordinates transposed (see `Transposed`)
        let mut cand_rows = Vec::with_capacity(t * d);
        for &cand in &cands {
            cand_rows.extend_from_slice(&xs[cand * d..(cand + 1) * d]);
        }
        let ct = Transposed::from_rows(&cand_rows, t, d);
        let closest_ref = &closest;
        let parts = par::map_chunks(n, CHUNK, |r| {
            let len = r.len();
            let mut mins = vec![F::zero(); t * len];
            let mut pots = vec![F::zero(); t];
            let mut acc = vec![F::zero(); ct.width()];
            for (ii, i) in r.enumerate() {
                ct.distances(&xs[i * d..(i + 1) * d], &mut acc);
                let ci = closest_ref[i];
                for q in 0..t {
                    let v = acc[q].min(ci);
                    mins[ii * t + q] = v;
                    pots[q] += v;
                }
            }
            (mins, pots, len)
        });
        let mut pots = vec![F::zero(); t];
        for (_, p, _) in &parts {
            for (a, &b) in pots.iter_mut().zip(p) {
                *a += b;
            }
        }
        let mut best = 0;
        for q in 1..t {
            if pots[q] < pots[best] {
                best = q;
            }
        }
        closest.clear();
        for (mins, _, len) in &parts {
            closest.extend((0..*len).map(|ii| mins[ii * t + best]));
        }
        let cand = cands[best];
        rows.push(cand);
        centers
            .row_mut(c)
            .assign(&ndarray::ArrayView1::from(&xs[cand * d..(cand + 1) * d]));
    }
    Ok((centers, rows))
}

/// `trials` indices drawn with probability proportional to `weights` (one cumulative sum,
/// then a binary search per draw, as scikit-learn's `searchsorted`); `None` when the weights
/// sum to zero (every row coincides with a centre) or are not finite.
fn sample_by_weight<F: Float>(rng: &mut Rng, weights: &[F], trials: usize) -> Option<Vec<usize>> {
    let mut cum = Vec::with_capacity(weights.len());
    let mut total = 0.0f64;
    for w in weights {
        total += w.to_f64().unwrap_or(f64::NAN);
        cum.push(total);
    }
    if !(total.is_finite() && total > 0.0) {
        return None;
    }
    Some(
        (0..trials)
            .map(|_| {
                let u: f64 = random::uniform(rng, 0.0, total);
                // first index whose cumulative weight exceeds u (zero-weight rows never win)
                cum.partition_point(|&c| c <= u).min(weights.len() - 1)
            })
            .collect(),
    )
}

/// Empty clusters take the rows farthest from their centres (`dists`: squared distances to the
/// assigned centres; scikit-learn's relocation, the k-th empty cluster takes the k-th farthest
/// row, ties to the lower row), updating `sums` and `counts` without emptying the cluster a row
/// is taken from. Returns the moves `(row, new cluster)`.
fn relocate_empty<F: Float>(
    xs: &[F],
    d: usize,
    dists: &[F],
    labels: &[usize],
    sums: &mut Array2<F>,
    counts: &mut [usize],
) -> Vec<(usize, usize)> {
    let empty: Vec<usize> = (0..counts.len()).filter(|&c| counts[c] == 0).collect();
    if empty.is_empty() {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..labels.len()).collect();
    order.sort_by(|&a, &b| {
        dists[b]
            .partial_cmp(&dists[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut moves = Vec::with_capacity(empty.len());
    for (&c, &far) in empty.iter().zip(&order) {
        let old = labels[far];
        let row = ndarray::ArrayView1::from(&xs[far * d..(far + 1) * d]);
        if counts[old] > 1 {
            let mut s = sums.row_mut(old);
            s -= &row;
            counts[old] -= 1;
        }
        sums.row_mut(c).assign(&row);
        counts[c] = 1;
        moves.push((far, c));
    }
    moves
}

/// One Lloyd run from `centers`.
struct Run<F> {
    centers: Array2<F>,
    labels: Vec<usize>,
    inertia: F,
    n_iter: usize,
    converged: bool,
    history: Vec<F>,
}

fn lloyd<F: Float>(
    xs: &[F],
    d: usize,
    mut centers: Array2<F>,
    max_iter: usize,
    tol: F,
    observed: bool,
) -> Run<F> {
    let k = centers.nrows();
    let mut prev: Option<Vec<usize>> = None;
    let mut converged = false;
    let mut strict = false;
    let mut n_iter = 0;
    let mut history: Vec<F> = Vec::new();
    for it in 0..max_iter {
        n_iter = it + 1;
        let (labels, dists) = assign(xs, d, &centers);
        history.push(dists.iter().copied().sum());
        let (mut sums, mut counts) = cluster_sums(xs, d, &labels, k);
        // empty clusters take the rows farthest from their centres
        relocate_empty(xs, d, &dists, &labels, &mut sums, &mut counts);
        let mut new_centers = sums;
        for (mut row, &cnt) in new_centers.rows_mut().into_iter().zip(&counts) {
            if cnt > 0 {
                row /= F::cast(cnt as f64);
            }
        }
        let shift: F = (&new_centers - &centers).iter().map(|&v| v * v).sum();
        centers = new_centers;
        if observed
            && ndlearn_core::observe::report(
                &ndlearn_core::observe::Progress::new("KMeans", it + 1)
                    .max_iter(max_iter)
                    .objective(
                        history
                            .last()
                            .map_or(f64::NAN, |v| v.to_f64().unwrap_or(f64::NAN)),
                    )
                    .criterion(shift.to_f64().unwrap_or(f64::NAN)),
            )
            .is_stop()
        {
            prev = Some(labels);
            break;
        }
        if prev.as_ref().is_some_and(|p| *p == labels) {
            converged = true;
            strict = true;
            prev = Some(labels);
            break;
        }
        prev = Some(labels);
        if shift <= tol {
            converged = true;
            break;
        }
    }
    let (labels, dists) = match (strict, prev) {
        (true, Some(l)) => {
            let dists = l
                .iter()
                .enumerate()
                .map(|(i, &c)| {
                    sq(
                        &xs[i * d..(i + 1) * d],
                        centers.row(c).as_slice().unwrap_or(&[]),
                    )
                })
                .collect::<Vec<F>>();
            (l, dists)
        }
        _ => assign(xs, d, &centers),
    };
    let inertia = dists.iter().copied().sum();
    Run {
        centers,
        labels,
        inertia,
        n_iter,
        converged,
        history,
    }
}

/// Hamerly's k-means: the rounds of [`lloyd`] with distance bounds.
///
/// Every row keeps an upper bound `u` on the distance to its centre and a lower bound `l` on
/// the distance to every other centre; with `s_c` half the distance from centre `c` to its
/// nearest other centre, a row whose `u ≤ max(s_c, l)` keeps its centre without computing a
/// distance. After a centre moves by `p_c`, `u += p_{own}` and `l −= max_{c ≠ own} p_c`. The
/// recorded inertia of each round is that of the assignment with the centres of the start of
/// the round, from cluster sums (`Σ_c [Σ ‖x̃‖² − n_c ‖μ̃'_c‖² + n_c ‖μ'_c − μ_c‖²]` with the data
/// centred on its mean), so no round needs every distance.
fn hamerly<F: Float>(
    xs: &[F],
    d: usize,
    mut centers: Array2<F>,
    max_iter: usize,
    tol: F,
    observed: bool,
) -> Run<F> {
    use rayon::prelude::*;
    let n = xs.len().checked_div(d).unwrap_or(0);
    let k = centers.nrows();
    let dist = |i: usize, c: &[F]| sq(&xs[i * d..(i + 1) * d], c).sqrt();
    // the data's mean and the centred squared norms, for the per-round inertia
    let mean: Vec<F> = {
        let parts = par::map_chunks(n, CHUNK * 8, |r| {
            let mut m = vec![F::zero(); d];
            for i in r {
                for (a, &v) in m.iter_mut().zip(&xs[i * d..(i + 1) * d]) {
                    *a += v;
                }
            }
            m
        });
        let mut m = vec![F::zero(); d];
        for p in parts {
            for (a, b) in m.iter_mut().zip(p) {
                *a += b;
            }
        }
        m.into_iter()
            .map(|v| v / F::cast(n.max(1) as f64))
            .collect()
    };
    let norms: Vec<F> = par::map_chunks(n, CHUNK, |r| {
        r.map(|i| sq(&xs[i * d..(i + 1) * d], &mean))
            .collect::<Vec<F>>()
    })
    .into_iter()
    .flatten()
    .collect();
    // `ct`: the centres transposed (see `transposed`)
    let full_scan = |i: usize, ct: &Transposed<F>| -> (usize, F, F) {
        let mut best = (0usize, F::infinity());
        let mut second = F::infinity();
        // a small stack buffer for the usual k (zeroing 64 lanes per row would cost more than
        // the distances themselves)
        let mut small = [F::zero(); 16];
        let mut heap;
        let acc: &mut [F] = if k <= 16 {
            &mut small[..k]
        } else {
            heap = vec![F::zero(); k];
            &mut heap
        };
        all_sq(&xs[i * d..(i + 1) * d], ct, acc);
        for (c, &v) in acc.iter().enumerate() {
            if v < best.1 {
                second = best.1;
                best = (c, v);
            } else if v < second {
                second = v;
            }
        }
        (best.0, best.1.sqrt(), second.sqrt())
    };
    let ct0 = transposed(&centers);
    let init: Vec<(usize, F, F)> = par::map_chunks(n, CHUNK, |r| {
        r.map(|i| full_scan(i, &ct0)).collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    let mut labels: Vec<usize> = init.iter().map(|t| t.0).collect();
    let mut upper: Vec<F> = init.iter().map(|t| t.1).collect();
    let mut lower: Vec<F> = init.iter().map(|t| t.2).collect();
    let mut changed = usize::MAX;
    let mut converged = false;
    let mut strict = false;
    let mut n_iter = 0;
    let mut history: Vec<F> = Vec::new();
    // cluster sums and counts, kept up to date with the rows that change centre
    let (mut sums, mut counts) = cluster_sums(xs, d, &labels, k);
    for it in 0..max_iter {
        n_iter = it + 1;
        if counts.contains(&0) {
            // as Lloyd, from exact distances
            let exact: Vec<F> = (0..n)
                .map(|i| {
                    sq(
                        &xs[i * d..(i + 1) * d],
                        centers.row(labels[i]).as_slice().unwrap_or(&[]),
                    )
                })
                .collect();
            for (far, c) in relocate_empty(xs, d, &exact, &labels, &mut sums, &mut counts) {
                labels[far] = c;
                lower[far] = F::zero(); // force a rescan next round
            }
        }
        let mut new_centers = sums.clone();
        for (mut row, &cnt) in new_centers.rows_mut().into_iter().zip(&counts) {
            if cnt > 0 {
                row /= F::cast(cnt as f64);
            }
        }
        // inertia of this round's assignment with the round's starting centres
        let mut within = vec![F::zero(); k];
        for i in 0..n {
            within[labels[i]] += norms[i];
        }
        let mut inertia = F::zero();
        let mut moved = vec![F::zero(); k];
        for c in 0..k {
            let cnt = F::cast(counts[c] as f64);
            let mu = new_centers.row(c);
            let centred: F = mu.iter().zip(&mean).map(|(&a, &b)| (a - b) * (a - b)).sum();
            let shift_c: F = mu
                .iter()
                .zip(centers.row(c))
                .map(|(&a, &b)| (a - b) * (a - b))
                .sum();
            inertia += (within[c] - cnt * centred).max(F::zero()) + cnt * shift_c;
            moved[c] = shift_c.sqrt();
        }
        history.push(inertia);
        let shift: F = moved.iter().map(|&m| m * m).sum();
        centers = new_centers;
        if observed
            && ndlearn_core::observe::report(
                &ndlearn_core::observe::Progress::new("KMeans", it + 1)
                    .max_iter(max_iter)
                    .objective(inertia.to_f64().unwrap_or(f64::NAN))
                    .criterion(shift.to_f64().unwrap_or(f64::NAN)),
            )
            .is_stop()
        {
            break;
        }
        if it > 0 && changed == 0 {
            converged = true;
            strict = true;
            break;
        }
        if shift <= tol {
            converged = true;
            break;
        }
        let moves = bounded_pass(
            d,
            &centers,
            &moved,
            &mut labels,
            &mut upper,
            &mut lower,
            &dist,
            &full_scan,
        );
        changed = moves.len();
        if changed > n / 4 {
            (sums, counts) = cluster_sums(xs, d, &labels, k);
        } else {
            for (i, from, to) in moves {
                let row = &xs[i * d..(i + 1) * d];
                for (j, &v) in row.iter().enumerate() {
                    sums[[from, j]] -= v;
                    sums[[to, j]] += v;
                }
                counts[from] -= 1;
                counts[to] += 1;
            }
        }
    }
    if !strict {
        let moved = vec![F::zero(); k];
        bounded_pass(
            d,
            &centers,
            &moved,
            &mut labels,
            &mut upper,
            &mut lower,
            &dist,
            &full_scan,
        );
    }
    let cs = centers.as_standard_layout().to_owned();
    let cs = cs.as_slice().unwrap_or(&[]);
    let dists: Vec<F> = labels
        .par_iter()
        .enumerate()
        .map(|(i, &c)| sq(&xs[i * d..(i + 1) * d], &cs[c * d..(c + 1) * d]))
        .collect();
    Run {
        centers,
        inertia: dists.iter().copied().sum(),
        labels,
        n_iter,
        converged,
        history,
    }
}

/// One bounded assignment pass of [`hamerly`] after the centres moved by `moved`; returns the
/// rows that changed centre as `(row, from, to)`, in row order.
#[allow(clippy::too_many_arguments)]
fn bounded_pass<F: Float>(
    d: usize,
    centers: &Array2<F>,
    moved: &[F],
    labels: &mut [usize],
    upper: &mut [F],
    lower: &mut [F],
    dist: &(impl Fn(usize, &[F]) -> F + Sync),
    full_scan: &(impl Fn(usize, &Transposed<F>) -> (usize, F, F) + Sync),
) -> Vec<(usize, usize, usize)> {
    use rayon::prelude::*;
    let k = centers.nrows();
    let cs = centers.as_standard_layout().to_owned();
    let cs = cs.as_slice().unwrap_or(&[]);
    let ct = transposed(centers);
    // largest and second largest movement
    let mut top = (0usize, F::zero());
    let mut second = F::zero();
    for (c, &m) in moved.iter().enumerate() {
        if m > top.1 {
            second = top.1;
            top = (c, m);
        } else if m > second {
            second = m;
        }
    }
    // half the distance from each centre to its nearest other centre
    let half: Vec<F> = (0..k)
        .map(|c| {
            (0..k)
                .filter(|&o| o != c)
                .map(|o| sq(&cs[c * d..(c + 1) * d], &cs[o * d..(o + 1) * d]).sqrt())
                .fold(F::infinity(), F::min)
                * F::cast(0.5)
        })
        .collect();
    labels
        .par_chunks_mut(CHUNK)
        .zip(upper.par_chunks_mut(CHUNK))
        .zip(lower.par_chunks_mut(CHUNK))
        .enumerate()
        .map(|(chunk, ((lab, up), lo))| {
            let mut changed = Vec::new();
            for (j, ((a, u), l)) in lab
                .iter_mut()
                .zip(up.iter_mut())
                .zip(lo.iter_mut())
                .enumerate()
            {
                let i = chunk * CHUNK + j;
                *u += moved[*a];
                *l -= if *a == top.0 { second } else { top.1 };
                let m = half[*a].max(*l);
                if *u <= m {
                    continue;
                }
                *u = dist(i, &cs[*a * d..(*a + 1) * d]);
                if *u <= m {
                    continue;
                }
                let (best, du, dl) = full_scan(i, &ct);
                if best != *a {
                    changed.push((i, *a, best));
                    *a = best;
                }
                *u = du;
                *l = dl;
            }
            changed
        })
        .collect::<Vec<_>>()
        .into_iter()
        .flatten()
        .collect()
}

impl Estimator for KMeans {
    /// Checks `n_clusters ≥ 1`, `max_iter ≥ 1`, `tol ≥ 0`, `n_init ≥ 1` (given centres are
    /// checked against the data at fit).
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("max_iter", self.max_iter, 1)?;
        ndlearn_core::validate::check_non_negative("tol", self.tol)?;
        if self.restarts() == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for KMeans {
    type Model = FittedKMeans<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let k = self.n_clusters;
        check_fit_input(x, 1, "KMeans::fit")?;
        let (n, d) = x.dim();
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if let KMeansInit::Centers(c) = &self.init {
            crate::common::check_centers(c, k, d)?;
        }
        let data = x.as_standard_layout();
        let xs = data.as_slice().unwrap_or(&[]);
        // scikit-learn's tol scale: the mean of the column variances
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
        // one restart runs on the calling thread and reports each round to an installed
        // observer (`ndlearn_core::observe`); several run in parallel, unobserved
        let single = self.restarts() == 1;
        let run_one = |r: usize| -> Result<Run<F>> {
            let mut rng = random::stream(self.seed, r as u64);
            let init = match &self.init {
                KMeansInit::Centers(c) => c.mapv(F::cast),
                KMeansInit::Random => {
                    let idx = random::sample_without_replacement(&mut rng, n, k)?;
                    x.select(Axis(0), &idx)
                }
                KMeansInit::KMeansPlusPlus => plus_plus(xs, d, k, &mut rng)?.0,
                KMeansInit::Hierarchical { sample_size } => {
                    let m = (*sample_size).clamp(k, n);
                    let mut idx = random::sample_without_replacement(&mut rng, n, m)?;
                    idx.sort_unstable();
                    let sample = x.select(Axis(0), &idx);
                    let labels = crate::agglomerative::linkage(
                        &sample,
                        crate::agglomerative::Linkage::Ward,
                        &ndlearn_core::distance::Metric::Euclidean,
                    )?
                    .cut_n_clusters(k)?;
                    let (sums, counts) = cluster_sums(
                        sample.as_slice().unwrap_or(&[]),
                        d,
                        labels.as_slice().unwrap_or(&[]),
                        k,
                    );
                    let mut c = sums;
                    for (mut row, &cnt) in c.rows_mut().into_iter().zip(&counts) {
                        row /= F::cast(cnt.max(1) as f64);
                    }
                    c
                }
            };
            let hamerly_wins = k * d <= 4096;
            Ok(match self.algorithm {
                KMeansAlgorithm::Lloyd => lloyd(xs, d, init, self.max_iter, tol, single),
                KMeansAlgorithm::Auto if !hamerly_wins => {
                    lloyd(xs, d, init, self.max_iter, tol, single)
                }
                _ => hamerly(xs, d, init, self.max_iter, tol, single),
            })
        };
        let runs = if single {
            vec![run_one(0)?]
        } else {
            par::try_map_tasks(self.restarts(), run_one)?
        };
        let best = runs
            .into_iter()
            .reduce(|a, b| if b.inertia < a.inertia { b } else { a })
            .ok_or_else(|| Error::invalid_param("n_init", "no restart ran"))?;
        Ok(FittedKMeans {
            params: self.clone(),
            centers: best.centers,
            labels: Array1::from(best.labels),
            inertia: best.inertia,
            n_iter: best.n_iter,
            converged: best.converged,
            inertia_history: best.history,
        })
    }
}

/// A fitted [`KMeans`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKMeans<F: Float> {
    params: KMeans,
    centers: Array2<F>,
    labels: Array1<usize>,
    inertia: F,
    n_iter: usize,
    converged: bool,
    inertia_history: Vec<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKMeans<F> {
    fn n_features_in(&self) -> usize {
        self.centers.ncols()
    }
}

impl<F: Float> FittedKMeans<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &KMeans {
        &self.params
    }
    /// The centres, `k × d` (scikit-learn's `cluster_centers_`).
    pub fn centers(&self) -> &Array2<F> {
        &self.centers
    }
    /// The cluster of every training row (consistent with the final centres); empty for a fit
    /// from data passes ([`KMeans::fit_passes`]).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// Sum of squared distances of the training rows to their centres.
    pub fn inertia(&self) -> F {
        self.inertia
    }
    /// Lloyd rounds of the best restart.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the best restart met its stopping rule before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// The inertia of the assignment at the start of each round of the best restart
    /// (non-increasing).
    pub fn inertia_history(&self) -> &[F] {
        &self.inertia_history
    }
    /// Sum of squared distances of `x` to their nearest centres (scikit-learn's `-score`).
    ///
    /// # Errors
    /// As [`Predict::predict`].
    pub fn inertia_of(&self, x: &ArrayRef2<F>) -> Result<F> {
        check_predict_input(x, self.centers.ncols(), "KMeans: number of features")?;
        let data = x.as_standard_layout();
        let (_, dists) = assign(data.as_slice().unwrap_or(&[]), x.ncols(), &self.centers);
        Ok(dists.iter().copied().sum())
    }
}

impl<F: Float> Predict<F> for FittedKMeans<F> {
    type Output = Array1<usize>;

    /// The nearest centre of every row (ties to the lower centre).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        check_predict_input(x, self.centers.ncols(), "KMeans: number of features")?;
        let data = x.as_standard_layout();
        let (labels, _) = assign(data.as_slice().unwrap_or(&[]), x.ncols(), &self.centers);
        Ok(Array1::from(labels))
    }
}

impl<F: Float> Transform<F> for FittedKMeans<F> {
    /// Euclidean distances to the centres, `n × k`.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.centers.ncols(), "KMeans: number of features")?;
        let k = self.centers.nrows();
        let mut out = Array2::zeros((x.nrows(), k));
        for (row, mut o) in x.rows().into_iter().zip(out.rows_mut()) {
            for (c, v) in o.iter_mut().enumerate() {
                *v = row
                    .iter()
                    .zip(self.centers.row(c))
                    .map(|(&a, &b)| (a - b) * (a - b))
                    .sum::<F>()
                    .sqrt();
            }
        }
        Ok(out)
    }
}

impl<F: Float> CheckModel for FittedKMeans<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKMeans");
        c.params(&self.params)?;
        let k = self.params.n_clusters;
        crate::common::check_points(&c, "centers", &self.centers, k)?;
        c.indices_below("labels", &self.labels, k)?;
        c.finite_value("inertia", self.inertia)?;
        c.finite_slice("inertia_history", &self.inertia_history)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0, 0.0], [0.5, 0.1], [9.0, 9.0], [9.5, 9.1]];
        let mut m = KMeans::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.labels[0] = 2;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
        let mut m = KMeans::new(2).fit(&x).expect("fit");
        m.centers = Array2::zeros((2, 0));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn a_lloyd_round_equals_merged_kmeans_statistics() {
        use ndarray::s;
        use ndlearn_core::stats::mergeable::{KMeansSpec, KMeansStats, Mergeable, RowBlock};
        let n = 60;
        let x = Array2::from_shape_fn((n, 2), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 + if i % 3 == 0 { 20.0 } else { 0.0 }
        });
        let init = x.slice(s![..3, ..]).to_owned();
        let fit = KMeans::new(3)
            .init(KMeansInit::Centers(init.clone()))
            .algorithm(KMeansAlgorithm::Lloyd)
            .max_iter(1)
            .fit(&x)
            .expect("fit");
        let spec = KMeansSpec { centers: init };
        for parts in [1, 4] {
            let mut st = KMeansStats::zero(&spec);
            for p in 0..parts {
                let r = p * n / parts..(p + 1) * n / parts;
                st.update(&RowBlock::new(x.slice(s![r, ..])))
                    .expect("block");
            }
            let c = st.centers();
            assert!(
                (&c - fit.centers()).iter().all(|v| v.abs() < 1e-12),
                "{parts} parts"
            );
            assert_eq!(st.counts.iter().sum::<u64>(), n as u64);
            // the inertia of the initial centres is the first entry of the fit's history
            assert!((st.inertia - fit.inertia_history()[0]).abs() < 1e-9);
        }
    }

    #[test]
    fn fit_from_passes_equals_the_lloyd_fit() {
        use ndarray::s;
        use ndlearn_core::stats::mergeable::{KMeansSpec, Mergeable, RowBlock};
        let n = 90;
        let x = Array2::from_shape_fn((n, 3), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 + 8.0 * (i % 3) as f64
        });
        let est = KMeans::new(3)
            .init(KMeansInit::Centers(x.slice(s![..3, ..]).to_owned()))
            .algorithm(KMeansAlgorithm::Lloyd);
        let direct = est.fit(&x).expect("fit");
        let var_mean = ndlearn_core::stats::variance(&x, 0)
            .expect("variance")
            .mean()
            .expect("columns");
        let mut passes = 0;
        let fit = est
            .fit_passes(var_mean, |c| {
                passes += 1;
                let spec = KMeansSpec { centers: c.clone() };
                let mut st = KMeansStats::zero(&spec);
                for p in 0..4 {
                    let r = p * n / 4..(p + 1) * n / 4;
                    st.merge(&KMeansStats::of(&spec, &RowBlock::new(x.slice(s![r, ..])))?)?;
                }
                Ok(st)
            })
            .expect("passes");
        assert!(
            (fit.centers() - direct.centers())
                .iter()
                .all(|v| v.abs() < 1e-12)
        );
        assert_eq!(fit.n_iter(), direct.n_iter());
        assert_eq!(passes, fit.n_iter() + 1);
        assert!((fit.inertia() - direct.inertia()).abs() < 1e-9 * direct.inertia());
        assert_eq!(
            fit.predict(&x).expect("predict"),
            direct.predict(&x).expect("predict")
        );
        assert!(fit.labels().is_empty());
        assert!(fit.check_model().is_ok());
        let plus = KMeans::new(3);
        assert!(plus.fit_passes(1.0, |_| unreachable_pass()).is_err());
    }

    fn unreachable_pass() -> Result<KMeansStats<f64>> {
        Err(Error::invalid_param("pass", "not reached"))
    }
}
