//! t-distributed stochastic neighbour embedding ([`Tsne`], scikit-learn's `TSNE`; van der
//! Maaten & Hinton 2008, Barnes–Hut: van der Maaten 2014). Beyond the course notes: issue #9
//! asks for it.
//!
//! # Method
//!
//! **Input affinities.** For each row `i` a Gaussian width `σ_i` is found by bisection on
//! `β_i = 1/(2σ_i²)` so that the conditional distribution
//! `p_{j|i} ∝ exp(−β_i d_ij²)` has perplexity `2^{H(P_i)} = perplexity` (entropy within 1e-5
//! nats, at most 100 steps, as scikit-learn). The joint affinities are
//! `p_ij = (p_{j|i} + p_{i|j}) / Σ(…)`. The exact method uses every pair; Barnes–Hut only the
//! `⌊3 · perplexity + 1⌋` nearest neighbours of each row (a sparse `P`).
//!
//! **Output similarities.** Student-t with `α = max(k − 1, 1)` degrees of freedom:
//! `w_ij = (1 + ‖y_i − y_j‖² / α)^{−(α+1)/2}`, `q_ij = w_ij / Z`, `Z = Σ_{k≠l} w_kl`.
//!
//! **Objective and gradient.** `KL(P‖Q) = Σ p_ij log(p_ij / q_ij)` and
//! `∂KL/∂y_i = (2(α + 1)/α) Σ_j (p_ij − q_ij) w_ij (y_i − y_j)` (as scikit-learn; the exact KL
//! gradient for `α = 1`, i.e. up to 2 output dimensions; for `α ≠ 1` the exact factor would be
//! `(1 + d²/α)⁻¹` instead of `w_ij`). Barnes–Hut splits it into an
//! attractive part over the sparse `P` and a repulsive part `Σ_j q_ij w_ij (y_i − y_j)` read off
//! a space-partitioning tree (quadtree in 2-D, octree in 3-D): a cell of width `w` whose centre
//! of mass is at distance `r` stands for all its points when `w² < θ² r²` (`θ` = `angle`).
//!
//! **Optimisation** (scikit-learn's schedule): gradient descent with momentum and per-parameter
//! gains (`+0.2` when the step changes sign, `×0.8` otherwise, at least 0.01); 250 iterations
//! with `P` multiplied by `early_exaggeration` and momentum 0.5, then momentum 0.8 up to
//! `max_iter`. Every 50 iterations the KL divergence and gradient norm are checked: stop when
//! the norm is below `min_grad_norm` or the KL has not improved for `n_iter_without_progress`
//! iterations. Learning rate `"auto"` is `max(n / early_exaggeration / 4, 50)`.
//!
//! **Initialisation**: PCA scores scaled to standard deviation `1e-4` along the first axis
//! (default), `1e-4 ·` standard normal, or a given matrix.
//!
//! **New points** (`Transform`, an extension: scikit-learn has none): a new row is placed at
//! the average of its nearest training rows' embeddings weighted by its conditional affinities
//! `p_{j|x}` at the training perplexity (the usual initialisation of out-of-sample t-SNE); a
//! row equal to a training row lands on that row's embedding, so `transform` of the training
//! data returns the embedding.
//!
//! Parallel over points (rayon); every reduction runs in point order, so the result is the same
//! bitwise for any number of threads.
//!
//! ```
//! use ndlearn_decomposition::Tsne;
//! use ndlearn_core::ndarray::Array2;
//! use ndlearn_core::metrics::trustworthiness;
//! use ndlearn_core::distance::Metric;
//! use ndlearn_core::FitUnsupervised;
//!
//! // two well-separated groups of 20 points in 5-D
//! let x = Array2::from_shape_fn((40, 5), |(i, j)| {
//!     (if i < 20 { 0.0 } else { 10.0 }) + ((i * 7 + j * 3) % 5) as f64 * 0.1
//! });
//! let t = Tsne::new(2).perplexity(5.0).fit(&x)?;
//! let y = t.embedding();
//! assert_eq!(y.dim(), (40, 2));
//! assert!(trustworthiness(&x, y, 5, &Metric::Euclidean)? > 0.9);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::neighbors::{Algorithm, NeighborIndex};
use ndlearn_core::random::{standard_normal, stream};
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, Result, Transform};
use rayon::prelude::*;

use crate::Pca;

/// Iterations with early exaggeration (scikit-learn's `_EXPLORATION_MAX_ITER`).
const EXPLORATION_ITER: usize = 250;
/// Iterations between convergence checks (scikit-learn's `_N_ITER_CHECK`).
const CHECK_EVERY: usize = 50;
/// Points per parallel task in the gradient loops.
const POINT_CHUNK: usize = 64;

/// How [`Tsne`] computes the gradient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum TsneMethod {
    /// Exact for at most 500 rows, Barnes–Hut above (default).
    #[default]
    Auto,
    /// Every pair: `O(n²)` per iteration.
    Exact,
    /// Sparse `P` on nearest neighbours and a space-partitioning tree: `O(n log n)` per
    /// iteration; at most 3 output dimensions.
    BarnesHut,
}

/// The starting configuration of [`Tsne`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum TsneInit {
    /// PCA scores scaled to standard deviation `1e-4` on the first axis (default).
    #[default]
    Pca,
    /// `1e-4 ·` standard normal.
    Random,
    /// This `n × k` matrix.
    Given(Array2<f64>),
}

/// The step size of [`Tsne`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LearningRate {
    /// `max(n / early_exaggeration / 4, 50)` (default).
    #[default]
    Auto,
    /// A fixed positive rate.
    Fixed(f64),
}

/// t-SNE. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Tsne {
    /// Output dimensions (default 2).
    pub n_components: usize,
    /// Effective number of neighbours (default 30; must be below the number of rows).
    pub perplexity: f64,
    /// Factor on `P` during the first 250 iterations (default 12).
    pub early_exaggeration: f64,
    /// Step size (default auto).
    pub learning_rate: LearningRate,
    /// Iterations in all (default 1,000; at least 250).
    pub max_iter: usize,
    /// Stop after this many iterations without a better KL (default 300).
    pub n_iter_without_progress: usize,
    /// Stop when the gradient norm falls below this (default 1e-7).
    pub min_grad_norm: f64,
    /// Input distance (default Euclidean; distances are squared before the affinities, as
    /// scikit-learn).
    pub metric: Metric,
    /// Start configuration (default PCA).
    pub init: TsneInit,
    /// Gradient method (default auto).
    pub method: TsneMethod,
    /// Barnes–Hut opening angle `θ` in `[0, 1]` (default 0.5).
    pub angle: f64,
    /// Seed of the random start and of the PCA start's solver (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for Tsne {
    fn default() -> Self {
        Self {
            n_components: 2,
            perplexity: 30.0,
            early_exaggeration: 12.0,
            learning_rate: LearningRate::Auto,
            max_iter: 1000,
            n_iter_without_progress: 300,
            min_grad_norm: 1e-7,
            metric: Metric::Euclidean,
            init: TsneInit::Pca,
            method: TsneMethod::Auto,
            angle: 0.5,
            seed: 0,
        }
    }
}

impl Tsne {
    /// t-SNE into `k` dimensions.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the perplexity.
        perplexity: f64,
        /// Sets the early exaggeration.
        early_exaggeration: f64,
        /// Sets the learning rate.
        learning_rate: LearningRate,
        /// Sets the iteration budget.
        max_iter: usize,
        /// Sets the metric.
        metric: Metric,
        /// Sets the start configuration.
        init: TsneInit,
        /// Sets the gradient method.
        method: TsneMethod,
        /// Sets the Barnes–Hut angle.
        angle: f64,
        /// Sets the seed.
        seed: u64,
    }

    /// The method `Auto` resolves to for `n` rows.
    pub fn resolve_method(&self, n: usize) -> TsneMethod {
        match self.method {
            TsneMethod::Auto if n <= 500 || self.n_components > 3 => TsneMethod::Exact,
            TsneMethod::Auto => TsneMethod::BarnesHut,
            m => m,
        }
    }

    /// The joint input affinities `P` the fit would use on `x` (`n × n`; zero outside the
    /// neighbour pairs for Barnes–Hut), for inspection and teaching.
    ///
    /// # Errors
    /// As [`FitUnsupervised::fit`]'s input and parameter checks.
    pub fn affinities<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fit_input(x, 2, "Tsne::affinities")?;
        let n = x.nrows();
        self.validate_for(n)?;
        match self.resolve_method(n) {
            TsneMethod::Exact => exact_affinities(x, &self.metric, self.perplexity),
            _ => match neighbour_affinities(x, &self.metric, self.perplexity)? {
                Affinities::Sparse {
                    indptr,
                    indices,
                    values,
                } => {
                    let mut p = Array2::zeros((n, n));
                    for i in 0..n {
                        for e in indptr[i]..indptr[i + 1] {
                            p[[i, indices[e] as usize]] = values[e];
                        }
                    }
                    Ok(p)
                }
                Affinities::Dense(p) => Ok(p),
            },
        }
    }

    ndlearn_core::setters! {
        /// Sets the patience (iterations without a better KL before stopping).
        n_iter_without_progress: usize,
        /// Sets the gradient-norm threshold.
        min_grad_norm: f64,
    }

    fn validate_for(&self, n: usize) -> Result<()> {
        if self.min_grad_norm.is_nan() || self.min_grad_norm < 0.0 {
            return Err(Error::invalid_param(
                "min_grad_norm",
                format!("must be >= 0, got {}", self.min_grad_norm),
            ));
        }
        self.metric.validate()?;
        if self.n_components == 0 {
            return Err(Error::invalid_param("n_components", "must be at least 1"));
        }
        if !(self.perplexity > 0.0 && self.perplexity.is_finite()) {
            return Err(Error::invalid_param(
                "perplexity",
                format!("must be positive and finite, got {}", self.perplexity),
            ));
        }
        if n != usize::MAX && self.perplexity >= n as f64 {
            return Err(Error::invalid_param(
                "perplexity",
                format!(
                    "must be less than the number of rows ({n}), got {}",
                    self.perplexity
                ),
            ));
        }
        if !(self.early_exaggeration >= 1.0 && self.early_exaggeration.is_finite()) {
            return Err(Error::invalid_param(
                "early_exaggeration",
                format!("must be at least 1, got {}", self.early_exaggeration),
            ));
        }
        if let LearningRate::Fixed(lr) = self.learning_rate
            && !(lr > 0.0 && lr.is_finite())
        {
            return Err(Error::invalid_param(
                "learning_rate",
                format!("must be positive and finite, got {lr}"),
            ));
        }
        if self.max_iter < EXPLORATION_ITER {
            return Err(Error::invalid_param(
                "max_iter",
                format!("must be at least {EXPLORATION_ITER}, got {}", self.max_iter),
            ));
        }
        if !(0.0..=1.0).contains(&self.angle) {
            return Err(Error::invalid_param(
                "angle",
                format!("must lie in [0, 1], got {}", self.angle),
            ));
        }
        if self.resolve_method(n) == TsneMethod::BarnesHut && self.n_components > 3 {
            return Err(Error::invalid_param(
                "n_components",
                "Barnes-Hut works in at most 3 output dimensions (use the exact method)",
            ));
        }
        if let TsneInit::Given(y) = &self.init
            && ((n != usize::MAX && y.dim() != (n, self.n_components))
                || y.ncols() != self.n_components
                || y.iter().any(|v| !v.is_finite()))
        {
            return Err(Error::ShapeMismatch {
                context: "Tsne: the given initial embedding",
                expected: format!("a finite {n} x {} matrix", self.n_components),
                found: format!("{} x {}", y.nrows(), y.ncols()),
            });
        }
        Ok(())
    }
}

impl ndlearn_core::Estimator for Tsne {
    /// Checks the hyperparameters that do not depend on the data (`fit` calls it first, then
    /// the checks against the number of rows).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first field out of range.
    fn validate(&self) -> Result<()> {
        self.validate_for(usize::MAX)
    }
}

/// Conditional affinities `p_{j|i}` of one row from its squared distances by bisection on
/// `β = 1/(2σ²)` (scikit-learn's `_binary_search_perplexity`: entropy within 1e-5 nats of
/// `ln(perplexity)`, at most 100 steps, `β` starting at 1).
pub(crate) fn conditional_row<F: Float>(
    sqd: &[F],
    skip: Option<usize>,
    perplexity: f64,
    out: &mut [F],
) {
    let target = perplexity.ln();
    let (mut beta, mut lo, mut hi) = (1.0f64, f64::NEG_INFINITY, f64::INFINITY);
    for _ in 0..100 {
        let mut sum = 0.0f64;
        for (j, (&d, o)) in sqd.iter().zip(out.iter_mut()).enumerate() {
            let p = if Some(j) == skip {
                0.0
            } else {
                (-d.to_f64_lossless() * beta).exp()
            };
            *o = F::cast(p);
            sum += p;
        }
        if sum == 0.0 {
            sum = 1e-8;
        }
        let mut sum_dp = 0.0f64;
        for (&d, o) in sqd.iter().zip(out.iter_mut()) {
            let p = o.to_f64_lossless() / sum;
            *o = F::cast(p);
            if p > 0.0 {
                sum_dp += d.to_f64_lossless() * p;
            }
        }
        let diff = sum.ln() + beta * sum_dp - target;
        if diff.abs() <= 1e-5 {
            break;
        }
        if diff > 0.0 {
            lo = beta;
            beta = if hi == f64::INFINITY {
                beta * 2.0
            } else {
                (beta + hi) / 2.0
            };
        } else {
            hi = beta;
            beta = if lo == f64::NEG_INFINITY {
                beta / 2.0
            } else {
                (beta + lo) / 2.0
            };
        }
    }
}

/// The joint affinities: dense (exact) or sparse rows (Barnes–Hut).
enum Affinities<F> {
    Dense(Array2<F>),
    Sparse {
        indptr: Vec<usize>,
        /// Column of each entry (`u32`: half the bytes; n < 2³² is checked when built).
        indices: Vec<u32>,
        values: Vec<F>,
    },
}

impl<F: Float> Affinities<F> {
    fn scale(&mut self, f: F) {
        match self {
            Affinities::Dense(p) => p.mapv_inplace(|v| v * f),
            Affinities::Sparse { values, .. } => values.iter_mut().for_each(|v| *v *= f),
        }
    }
}

fn check_distances<F: Float>(d: &[F]) -> Result<()> {
    if d.iter().any(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "x",
            "squared distances overflow (rescale the data)",
        ));
    }
    Ok(())
}

/// Conditional affinities of every row from its distances (row `i` of `dist`; `skip_diagonal`:
/// column `i` is the point itself), in parallel over rows, written over the distances (no
/// second `n × k` array). The distances are squared and rounded to single precision first, as
/// scikit-learn does before its search.
fn conditional_rows<F: Float>(
    mut dist: Array2<F>,
    skip_diagonal: bool,
    perplexity: f64,
) -> Result<Array2<F>> {
    dist.mapv_inplace(|v| F::cast((v * v).to_f64_lossless() as f32 as f64));
    if let Some(slice) = dist.as_slice() {
        check_distances(slice)?;
    } else if dist.iter().any(|v| !v.is_finite()) {
        check_distances(&[F::infinity()])?;
    }
    dist.axis_chunks_iter_mut(Axis(0), ROW_CHUNK)
        .into_par_iter()
        .enumerate()
        .for_each(|(c, mut rows)| {
            let (mut sq, mut p) = (vec![F::zero(); rows.ncols()], vec![F::zero(); rows.ncols()]);
            for (t, mut row) in rows.rows_mut().into_iter().enumerate() {
                for (s, &v) in sq.iter_mut().zip(row.iter()) {
                    *s = v;
                }
                conditional_row(
                    &sq,
                    skip_diagonal.then_some(c * ROW_CHUNK + t),
                    perplexity,
                    &mut p,
                );
                row.assign(&ndarray::ArrayView1::from(&p[..]));
            }
        });
    Ok(dist)
}

/// Rows per task of [`conditional_rows`].
const ROW_CHUNK: usize = 16;

/// Exact joint affinities (scikit-learn's `_joint_probabilities`): symmetrised, normalised,
/// floored at machine epsilon off the diagonal.
fn exact_affinities<F: Float>(
    x: &ArrayRef2<F>,
    metric: &Metric,
    perplexity: f64,
) -> Result<Array2<F>> {
    let n = x.nrows();
    let p = conditional_rows(pairwise_distances(x, x, metric)?, true, perplexity)?;
    let mut joint = &p + &p.t();
    let total = joint.sum().max(F::epsilon());
    let eps = F::cast(f64::EPSILON);
    for i in 0..n {
        for j in 0..n {
            joint[[i, j]] = if i == j {
                F::zero()
            } else {
                (joint[[i, j]] / total).max(eps)
            };
        }
    }
    Ok(joint)
}

/// Sparse joint affinities on the `k` nearest neighbours (scikit-learn's
/// `_joint_probabilities_nn`).
fn neighbour_affinities<F: Float>(
    x: &ArrayRef2<F>,
    metric: &Metric,
    perplexity: f64,
) -> Result<Affinities<F>> {
    let n = x.nrows();
    let k = (n - 1).min((3.0 * perplexity + 1.0) as usize).max(1);
    let index = NeighborIndex::build(x.to_owned(), metric.clone(), Algorithm::Auto, 30)?;
    let (dist, idx) = index.kneighbors_self(k, false)?;
    drop(index);
    let cond = conditional_rows(dist, false, perplexity)?;
    symmetrized(idx, cond)
}

/// `P + Pᵀ` of the conditional rows (`idx[i, t]`: the `t`-th neighbour of `i`, `cond[i, t]`:
/// its `p(j|i)`), normalised to sum 1, as CSR rows sorted by column.
///
/// Without a triplet list: each row's own list is sorted by column in place, the transposed
/// lists (who has `i` as a neighbour) are positions into `cond` found by a counting sort, and
/// every merged row is the merge of the two sorted lists, counted once to allocate the output
/// at its exact size. Beside the inputs it holds `n·k` `u32` positions and the output.
fn symmetrized<F: Float>(mut idx: Array2<usize>, mut cond: Array2<F>) -> Result<Affinities<F>> {
    let (n, k) = idx.dim();
    let too_many = || {
        Error::invalid_param(
            "n_samples",
            "t-SNE's sparse affinities need fewer than 2^32 neighbour pairs",
        )
    };
    if u32::try_from(n * k).is_err() {
        return Err(too_many());
    }
    let mut order: Vec<(usize, F)> = Vec::with_capacity(k);
    for (mut ir, mut cr) in idx.rows_mut().into_iter().zip(cond.rows_mut()) {
        order.clear();
        order.extend(ir.iter().copied().zip(cr.iter().copied()));
        order.sort_unstable_by_key(|&(j, _)| j);
        for ((i, c), &(j, v)) in ir.iter_mut().zip(cr.iter_mut()).zip(&order) {
            (*i, *c) = (j, v);
        }
    }
    drop(order);
    // the columns as `u32` (n·k < 2³² was checked), the `usize` array freed
    let cols: Vec<u32> = idx.iter().map(|&j| j as u32).collect();
    drop(idx);
    let idx = &cols[..];
    let cond = cond.as_standard_layout();
    let Some(cond) = cond.as_slice() else {
        return Err(too_many());
    };
    // transposed lists: tptr[j]..tptr[j + 1] of `tpos` are the positions `i·k + t` with
    // idx[i, t] = j, in increasing `i`
    let mut tptr = vec![0usize; n + 1];
    for &j in idx {
        tptr[j as usize + 1] += 1;
    }
    for j in 0..n {
        tptr[j + 1] += tptr[j];
    }
    let mut next = tptr.clone();
    let mut tpos = vec![0u32; n * k];
    for (pos, &j) in idx.iter().enumerate() {
        let j = j as usize;
        tpos[next[j]] = pos as u32;
        next[j] += 1;
    }
    drop(next);
    // the merge of row i's own list with its transposed list: (column, value) in column order
    let merged = |i: usize, emit: &mut dyn FnMut(usize, F)| {
        let own = (i * k..(i + 1) * k).map(|p| (idx[p] as usize, cond[p]));
        let theirs = tpos[tptr[i]..tptr[i + 1]]
            .iter()
            .map(|&p| (p as usize / k, cond[p as usize]));
        let (mut a, mut b) = (own.peekable(), theirs.peekable());
        loop {
            match (a.peek().copied(), b.peek().copied()) {
                (Some((ja, va)), Some((jb, vb))) if ja == jb => {
                    emit(ja, va + vb);
                    a.next();
                    b.next();
                }
                (Some((ja, va)), Some((jb, _))) if ja < jb => {
                    emit(ja, va);
                    a.next();
                }
                (_, Some((jb, vb))) => {
                    emit(jb, vb);
                    b.next();
                }
                (Some((ja, va)), None) => {
                    emit(ja, va);
                    a.next();
                }
                (None, None) => break,
            }
        }
    };
    let mut indptr = vec![0usize; n + 1];
    for i in 0..n {
        let mut count = 0;
        merged(i, &mut |_, _| count += 1);
        indptr[i + 1] = indptr[i] + count;
    }
    let mut indices: Vec<u32> = Vec::with_capacity(indptr[n]);
    let mut values: Vec<F> = Vec::with_capacity(indptr[n]);
    for i in 0..n {
        merged(i, &mut |j, v| {
            indices.push(j as u32);
            values.push(v);
        });
    }
    let total = values
        .iter()
        .fold(F::zero(), |a, &b| a + b)
        .max(F::epsilon());
    values.iter_mut().for_each(|v| *v /= total);
    Ok(Affinities::Sparse {
        indptr,
        indices,
        values,
    })
}

/// The Student-t kernel `w = (α / (α + d²))^{(α+1)/2}`.
#[inline]
fn t_kernel<F: Float>(d2: F, dof: F) -> F {
    let w = dof / (dof + d2);
    if dof == F::one() {
        w
    } else {
        w.powf((dof + F::one()) / F::cast(2.0))
    }
}

/// KL divergence and gradient for the exact method (scikit-learn's `_kl_divergence`).
fn exact_gradient<F: Float>(
    p: &Array2<F>,
    y: &[F],
    dim: usize,
    dof: F,
    grad: &mut [F],
    compute_error: bool,
) -> F {
    let n = p.nrows();
    let row_sums: Vec<F> = (0..n)
        .into_par_iter()
        .map(|i| {
            let yi = &y[i * dim..(i + 1) * dim];
            let mut s = F::zero();
            for j in 0..n {
                if j != i {
                    let yj = &y[j * dim..(j + 1) * dim];
                    let d2 = yi
                        .iter()
                        .zip(yj)
                        .fold(F::zero(), |a, (&u, &v)| a + (u - v) * (u - v));
                    s += t_kernel(d2, dof);
                }
            }
            s
        })
        .collect();
    let z = row_sums.iter().fold(F::zero(), |a, &b| a + b);
    let eps = F::cast(f64::EPSILON);
    let c = F::cast(2.0) * (dof + F::one()) / dof;
    let kl_parts: Vec<F> = grad
        .par_chunks_mut(dim)
        .enumerate()
        .map(|(i, g)| {
            let yi = &y[i * dim..(i + 1) * dim];
            g.iter_mut().for_each(|v| *v = F::zero());
            let mut kl = F::zero();
            for j in 0..n {
                if j == i {
                    continue;
                }
                let yj = &y[j * dim..(j + 1) * dim];
                let d2 = yi
                    .iter()
                    .zip(yj)
                    .fold(F::zero(), |a, (&u, &v)| a + (u - v) * (u - v));
                let w = t_kernel(d2, dof);
                let q = (w / z).max(eps);
                let pij = p[[i, j]];
                let m = (pij - q) * w;
                for ((gv, &u), &v) in g.iter_mut().zip(yi).zip(yj) {
                    *gv += m * (u - v);
                }
                if compute_error {
                    kl += pij * (pij.max(eps) / q).ln();
                }
            }
            g.iter_mut().for_each(|v| *v *= c);
            kl
        })
        .collect();
    kl_parts.iter().fold(F::zero(), |a, &b| a + b)
}

const NONE: u32 = u32::MAX;

/// A node of the Barnes–Hut tree.
#[derive(Clone)]
struct Node<F> {
    bary: [F; 3],
    size: F,
    sq_width: F,
    children: [u32; 8],
    leaf: bool,
}

/// A quadtree (2-D), octree (3-D) or binary tree (1-D) over the embedding.
struct SpaceTree<F> {
    nodes: Vec<Node<F>>,
    leaf_of: Vec<u32>,
}

impl<F: Float> SpaceTree<F> {
    fn build(y: &[F], n: usize, dim: usize) -> Self {
        let mut lo = [F::zero(); 3];
        let mut hi = [F::zero(); 3];
        for a in 0..dim {
            lo[a] = F::infinity();
            hi[a] = F::neg_infinity();
            for i in 0..n {
                lo[a] = lo[a].min(y[i * dim + a]);
                hi[a] = hi[a].max(y[i * dim + a]);
            }
        }
        let mut centre = [F::zero(); 3];
        let mut half = [F::zero(); 3];
        for a in 0..dim {
            centre[a] = (lo[a] + hi[a]) / F::cast(2.0);
            half[a] =
                ((hi[a] - lo[a]) / F::cast(2.0)) * F::cast(1.0 + 1e-6) + F::min_positive_value();
        }
        let mut tree = SpaceTree {
            nodes: Vec::with_capacity(2 * n),
            leaf_of: vec![0; n],
        };
        let mut order: Vec<u32> = (0..n as u32).collect();
        let mut scratch: Vec<u32> = vec![0; n];
        tree.nodes.push(Node {
            bary: [F::zero(); 3],
            size: F::zero(),
            sq_width: F::zero(),
            children: [NONE; 8],
            leaf: true,
        });
        // (node, range start, range end, centre, half width, depth)
        let mut stack = vec![(0usize, 0usize, n, centre, half, 0usize)];
        let n_child = 1usize << dim;
        while let Some((id, s, e, c, h, depth)) = stack.pop() {
            let cnt = e - s;
            let mut bary = [F::zero(); 3];
            let mut pmin = [F::infinity(); 3];
            let mut pmax = [F::neg_infinity(); 3];
            for &p in &order[s..e] {
                let p = p as usize;
                for a in 0..dim {
                    let v = y[p * dim + a];
                    bary[a] += v;
                    pmin[a] = pmin[a].min(v);
                    pmax[a] = pmax[a].max(v);
                }
            }
            let cf = F::cast(cnt as f64);
            for b in bary.iter_mut().take(dim) {
                *b /= cf;
            }
            let mut w2 = F::zero();
            for hv in h.iter().take(dim) {
                let w = *hv * F::cast(2.0);
                w2 = w2.max(w * w);
            }
            let same = (0..dim).all(|a| pmax[a] == pmin[a]);
            let node = &mut tree.nodes[id];
            node.bary = bary;
            node.size = cf;
            node.sq_width = w2;
            if cnt == 1 || same || depth >= 64 {
                node.leaf = true;
                for &p in &order[s..e] {
                    tree.leaf_of[p as usize] = id as u32;
                }
                continue;
            }
            node.leaf = false;
            // counting sort of the range by child cell
            let code = |p: u32| -> usize {
                let p = p as usize;
                (0..dim).fold(0usize, |acc, a| {
                    acc | (usize::from(y[p * dim + a] >= c[a]) << a)
                })
            };
            let mut counts = [0usize; 8];
            for &p in &order[s..e] {
                counts[code(p)] += 1;
            }
            let mut starts = [0usize; 9];
            for q in 0..n_child {
                starts[q + 1] = starts[q] + counts[q];
            }
            let mut fill = starts;
            for &p in &order[s..e] {
                let q = code(p);
                scratch[s + fill[q]] = p;
                fill[q] += 1;
            }
            order[s..e].copy_from_slice(&scratch[s..e]);
            for q in 0..n_child {
                if counts[q] == 0 {
                    continue;
                }
                let mut cc = c;
                let mut hh = h;
                for a in 0..dim {
                    hh[a] = h[a] / F::cast(2.0);
                    cc[a] = if (q >> a) & 1 == 1 {
                        c[a] + hh[a]
                    } else {
                        c[a] - hh[a]
                    };
                }
                let child = tree.nodes.len();
                tree.nodes.push(Node {
                    bary: [F::zero(); 3],
                    size: F::zero(),
                    sq_width: F::zero(),
                    children: [NONE; 8],
                    leaf: true,
                });
                tree.nodes[id].children[q] = child as u32;
                stack.push((child, s + starts[q], s + starts[q + 1], cc, hh, depth + 1));
            }
        }
        tree
    }

    /// Repulsive force `Σ_cells size · w² · (y_i − centre)` and `Σ size · w` for point `i`.
    fn repulsion(
        &self,
        i: usize,
        yi: &[F],
        theta2: F,
        dof: F,
        neg: &mut [F],
        stack: &mut Vec<u32>,
    ) -> F {
        let dim = yi.len();
        let mut z = F::zero();
        stack.clear();
        stack.push(0);
        let own = self.leaf_of[i];
        while let Some(id) = stack.pop() {
            let node = &self.nodes[id as usize];
            if node.leaf && id == own {
                continue;
            }
            let mut delta = [F::zero(); 3];
            let mut d2 = F::zero();
            for a in 0..dim {
                delta[a] = yi[a] - node.bary[a];
                d2 += delta[a] * delta[a];
            }
            if node.leaf || node.sq_width < theta2 * d2 {
                let w = t_kernel(d2, dof);
                z += node.size * w;
                let m = node.size * w * w;
                for a in 0..dim {
                    neg[a] += m * delta[a];
                }
            } else {
                for &ch in &node.children {
                    if ch != NONE {
                        stack.push(ch);
                    }
                }
            }
        }
        z
    }
}

/// KL divergence (on the neighbour pairs, as scikit-learn) and gradient for Barnes–Hut.
#[allow(clippy::too_many_arguments)]
fn bh_gradient<F: Float>(
    indptr: &[usize],
    indices: &[u32],
    values: &[F],
    y: &[F],
    dim: usize,
    dof: F,
    theta: F,
    grad: &mut [F],
    compute_error: bool,
) -> F {
    let n = y.len() / dim;
    let tree = SpaceTree::build(y, n, dim);
    let theta2 = theta * theta;
    // repulsion first (it needs no Z), per point into grad, Z per point
    let zs: Vec<F> = grad
        .par_chunks_mut(dim * POINT_CHUNK)
        .enumerate()
        .map(|(c, g)| {
            let mut stack = Vec::with_capacity(64);
            let mut zc = Vec::with_capacity(POINT_CHUNK);
            for (t, gi) in g.chunks_mut(dim).enumerate() {
                let i = c * POINT_CHUNK + t;
                gi.iter_mut().for_each(|v| *v = F::zero());
                zc.push(tree.repulsion(i, &y[i * dim..(i + 1) * dim], theta2, dof, gi, &mut stack));
            }
            zc
        })
        .flatten()
        .collect();
    let z = zs.iter().fold(F::zero(), |a, &b| a + b);
    let c = F::cast(2.0) * (dof + F::one()) / dof;
    let tiny = F::cast(f32::MIN_POSITIVE as f64);
    let kls: Vec<F> = grad
        .par_chunks_mut(dim * POINT_CHUNK)
        .enumerate()
        .map(|(ch, g)| {
            let mut kl = F::zero();
            for (t, gi) in g.chunks_mut(dim).enumerate() {
                let i = ch * POINT_CHUNK + t;
                let yi = &y[i * dim..(i + 1) * dim];
                let mut pos = [F::zero(); 3];
                for e in indptr[i]..indptr[i + 1] {
                    let j = indices[e] as usize;
                    let pij = values[e];
                    let yj = &y[j * dim..(j + 1) * dim];
                    let mut d2 = F::zero();
                    let mut delta = [F::zero(); 3];
                    for a in 0..dim {
                        delta[a] = yi[a] - yj[a];
                        d2 += delta[a] * delta[a];
                    }
                    let w = t_kernel(d2, dof);
                    let m = pij * w;
                    for a in 0..dim {
                        pos[a] += m * delta[a];
                    }
                    if compute_error {
                        let q = w / z;
                        kl += pij * (pij.max(tiny) / q.max(tiny)).ln();
                    }
                }
                for a in 0..dim {
                    gi[a] = c * (pos[a] - gi[a] / z);
                }
            }
            kl
        })
        .collect();
    kls.iter().fold(F::zero(), |a, &b| a + b)
}

/// State of the momentum-and-gains descent.
struct Descent<F> {
    update: Vec<F>,
    gains: Vec<F>,
}

struct Phase {
    start: usize,
    end: usize,
    momentum: f64,
    patience: usize,
}

impl<F: Float> FitUnsupervised<F> for Tsne {
    type Model = FittedTsne<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 2, "Tsne::fit")?;
        let (n, _) = x.dim();
        self.validate_for(n)?;
        let dim = self.n_components;
        let method = self.resolve_method(n);
        let mut aff = match method {
            TsneMethod::Exact => {
                Affinities::Dense(exact_affinities(x, &self.metric, self.perplexity)?)
            }
            _ => neighbour_affinities(x, &self.metric, self.perplexity)?,
        };
        let mut y: Vec<F> = match &self.init {
            TsneInit::Given(g) => g.iter().map(|&v| F::cast(v)).collect(),
            TsneInit::Random => {
                let mut rng = stream(self.seed, 0);
                (0..n * dim)
                    .map(|_| F::cast(1e-4) * standard_normal::<F>(&mut rng))
                    .collect()
            }
            TsneInit::Pca => {
                if dim > x.ncols().min(n) {
                    return Err(Error::invalid_param(
                        "init",
                        format!(
                            "a PCA start needs n_components <= min(rows, columns) = {}",
                            x.ncols().min(n)
                        ),
                    ));
                }
                let pca = Pca::new(dim).seed(self.seed).fit(x)?;
                use ndlearn_core::Transform as _;
                // scikit-learn rounds the PCA start to single precision
                let z = pca
                    .transform(x)?
                    .mapv(|v| F::cast(v.to_f64_lossless() as f32 as f64));
                let col = z.column(0);
                let m = col.sum() / F::cast(n as f64);
                let sd =
                    (col.iter().map(|&v| (v - m) * (v - m)).sum::<F>() / F::cast(n as f64)).sqrt();
                // a constant first axis (constant data) is left as it is: all zeros
                let f = if sd > F::zero() {
                    F::cast(1e-4) / sd
                } else {
                    F::one()
                };
                z.iter().map(|&v| v * f).collect()
            }
        };
        if y.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "init",
                "the start configuration is not finite",
            ));
        }
        let lr = match self.learning_rate {
            LearningRate::Auto => (n as f64 / self.early_exaggeration / 4.0).max(50.0),
            LearningRate::Fixed(v) => v,
        };
        let dof = F::cast((dim as f64 - 1.0).max(1.0));
        let theta = F::cast(self.angle);
        let mut state = Descent {
            update: vec![F::zero(); n * dim],
            gains: vec![F::one(); n * dim],
        };
        let mut grad = vec![F::zero(); n * dim];
        aff.scale(F::cast(self.early_exaggeration));
        let phases = [
            Phase {
                start: 0,
                end: EXPLORATION_ITER,
                momentum: 0.5,
                patience: EXPLORATION_ITER,
            },
            Phase {
                start: 0,
                end: self.max_iter,
                momentum: 0.8,
                patience: self.n_iter_without_progress,
            },
        ];
        let mut it = 0usize;
        let mut kl = F::nan();
        for (pi, ph) in phases.iter().enumerate() {
            let start = if pi == 0 { ph.start } else { it + 1 };
            if pi == 1 {
                aff.scale(F::one() / F::cast(self.early_exaggeration));
            }
            // each phase starts with no momentum and unit gains (as scikit-learn)
            state.update.iter_mut().for_each(|v| *v = F::zero());
            state.gains.iter_mut().for_each(|v| *v = F::one());
            let (mut best, mut best_iter) = (F::max_value(), start);
            let mut i = start;
            let mut last = start;
            while i < ph.end {
                last = i;
                let check = (i + 1) % CHECK_EVERY == 0;
                let want_err = check || i == ph.end - 1;
                let err = match &aff {
                    Affinities::Dense(p) => exact_gradient(p, &y, dim, dof, &mut grad, want_err),
                    Affinities::Sparse {
                        indptr,
                        indices,
                        values,
                    } => bh_gradient(
                        indptr, indices, values, &y, dim, dof, theta, &mut grad, want_err,
                    ),
                };
                if want_err {
                    kl = err;
                }
                let mom = F::cast(ph.momentum);
                let lr = F::cast(lr);
                let min_gain = F::cast(0.01);
                for ((g, u), (gain, p)) in grad
                    .iter_mut()
                    .zip(state.update.iter_mut())
                    .zip(state.gains.iter_mut().zip(y.iter_mut()))
                {
                    if *u * *g < F::zero() {
                        *gain += F::cast(0.2);
                    } else {
                        *gain *= F::cast(0.8);
                    }
                    if *gain < min_gain {
                        *gain = min_gain;
                    }
                    *g *= *gain;
                    *u = mom * *u - lr * *g;
                    *p += *u;
                }
                if check {
                    let gn = grad.iter().fold(F::zero(), |a, &v| a + v * v).sqrt();
                    if err < best {
                        best = err;
                        best_iter = i;
                    } else if i - best_iter > ph.patience {
                        break;
                    }
                    if gn <= F::cast(self.min_grad_norm) {
                        break;
                    }
                }
                i += 1;
            }
            it = if i == start { start } else { last };
        }
        if y.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "learning_rate",
                "the optimisation diverged (non-finite embedding)",
            ));
        }
        let embedding = Array2::from_shape_vec((n, dim), y)
            .map_err(|e| Error::invalid_param("x", e.to_string()))?;
        Ok(FittedTsne {
            params: self.clone(),
            method,
            x_fit: x.to_owned(),
            embedding,
            kl_divergence: kl,
            n_iter: it,
            learning_rate: lr,
        })
    }
}

/// A fitted [`Tsne`]: the embedding of the training rows.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedTsne<F: Float> {
    params: Tsne,
    method: TsneMethod,
    x_fit: Array2<F>,
    embedding: Array2<F>,
    kl_divergence: F,
    n_iter: usize,
    learning_rate: f64,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedTsne<F> {
    fn n_features_in(&self) -> usize {
        self.x_fit.ncols()
    }
}

impl<F: Float> FittedTsne<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Tsne {
        &self.params
    }
    /// The method that ran (`Auto` resolved).
    pub fn method(&self) -> TsneMethod {
        self.method
    }
    /// The embedding of the training rows (`n × k`; scikit-learn's `embedding_`).
    pub fn embedding(&self) -> &Array2<F> {
        &self.embedding
    }
    /// KL divergence at the last evaluation (Barnes–Hut: over the neighbour pairs).
    pub fn kl_divergence(&self) -> F {
        self.kl_divergence
    }
    /// Index of the last iteration run (scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// The learning rate used (`Auto` resolved).
    pub fn learning_rate(&self) -> f64 {
        self.learning_rate
    }
}

impl<F: Float> CheckModel for FittedTsne<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedTsne");
        let (n, d) = self.x_fit.dim();
        c.at_least("x_fit (rows)", n, 2)?;
        c.at_least("x_fit (columns)", d, 1)?;
        // the hyperparameters against the number of rows (perplexity below n), as at fit
        self.params
            .validate_for(n)
            .map_err(|e| c.error(format!("hyperparameters: {e}")))?;
        crate::common::check_metric(&c, &self.params.metric, d)?;
        c.that(self.method == self.params.resolve_method(n), || {
            "`method` is not the one the hyperparameters resolve to".into()
        })?;
        c.finite("x_fit", &self.x_fit)?;
        c.shape(
            "embedding",
            self.embedding.dim(),
            (n, self.params.n_components),
        )?;
        c.finite("embedding", &self.embedding)?;
        c.finite_value("kl_divergence", self.kl_divergence)?;
        c.positive("learning_rate", self.learning_rate)
    }
}

impl<F: Float> Transform<F> for FittedTsne<F> {
    /// Places new rows at the affinity-weighted mean of their nearest training rows'
    /// embeddings (see the [module docs](self)); `m × k`.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.x_fit.ncols(), "Tsne: number of features")?;
        let n = self.x_fit.nrows();
        let dim = self.embedding.ncols();
        let m = x.nrows();
        if m == 0 {
            return Ok(Array2::zeros((0, dim)));
        }
        let k = n.min((3.0 * self.params.perplexity + 1.0) as usize).max(1);
        let index = NeighborIndex::build(
            self.x_fit.clone(),
            self.params.metric.clone(),
            Algorithm::Auto,
            30,
        )?;
        let (dist, idx) = index.kneighbors(x, k)?;
        let perp = self.params.perplexity.min(k as f64 - 0.5).max(0.5);
        let mut out = Array2::<F>::zeros((m, dim));
        out.axis_chunks_iter_mut(Axis(0), 1)
            .into_par_iter()
            .enumerate()
            .for_each(|(r, mut row)| {
                // a row equal to a training row lands on that row's embedding
                if dist[[r, 0]] == F::zero() {
                    row.row_mut(0).assign(&self.embedding.row(idx[[r, 0]]));
                    return;
                }
                let sq: Vec<F> = dist.row(r).iter().map(|&v| v * v).collect();
                let mut p = vec![F::zero(); k];
                if sq.iter().all(|v| v.is_finite()) {
                    conditional_row(&sq, None, perp, &mut p);
                }
                let total = p.iter().fold(F::zero(), |a, &b| a + b);
                if total.is_nan() || total <= F::zero() {
                    p.iter_mut().for_each(|v| *v = F::one() / F::cast(k as f64));
                }
                let mut o = row.row_mut(0);
                for (t, &w) in p.iter().enumerate() {
                    o.scaled_add(w, &self.embedding.row(idx[[r, t]]));
                }
            });
        Ok(out)
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::{Array2, s};

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_short_embedding() {
        let x = Array2::from_shape_fn((12, 3), |(i, j)| {
            ((i * 7 + j * 3) % 5) as f64 + 0.1 * j as f64
        });
        let mut m = Tsne::new(2).perplexity(3.0).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.embedding = m.embedding.slice(s![1.., ..]).to_owned();
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}

/// Barnes–Hut's gradient and normalisation `Z` against the exact ones on fixed problems: equal
/// to rounding at `angle = 0`, and within an error that grows like `θ²` above.
#[cfg(test)]
mod bh_gradient_tests {
    use super::*;
    use ndlearn_core::random::{standard_normal, stream};

    /// Rows of every problem.
    const N: usize = 150;
    /// The angles of the sweep (scikit-learn's default 0.5 among them).
    const ANGLES: [f64; 5] = [0.1, 0.2, 0.35, 0.5, 0.8];
    /// `‖g_BH − g_exact‖ / ‖g_exact‖ ≤ C_GRAD · θ²`: the largest ratio measured on the
    /// configurations of the sweep is 0.080 (2-D, scale 5, θ = 0.8), a margin of 2.5.
    const C_GRAD: f64 = 0.2;
    /// `|Z_BH − Z| / Z ≤ C_Z · θ²`: the largest ratio measured is 0.031 (same place), a
    /// margin of 2.5.
    const C_Z: f64 = 0.08;
    /// The relative gradient error allowed at the default angle 0.5 (measured: at most
    /// 1.5e-2, 2-D, scale 5).
    const AT_DEFAULT_ANGLE: f64 = 3e-2;

    /// Joint affinities as CSR (what [`bh_gradient`] reads) and the same `P` dense (what
    /// [`exact_gradient`] reads).
    struct Problem {
        indptr: Vec<usize>,
        indices: Vec<u32>,
        values: Vec<f64>,
        dense: Array2<f64>,
    }

    /// Seeded data: three Gaussian groups (centres 4 apart on every axis) in 8-D.
    fn data() -> Array2<f64> {
        let mut rng = stream(7, 0);
        Array2::from_shape_fn((N, 8), |(i, _)| {
            4.0 * (i % 3) as f64 + standard_normal::<f64>(&mut rng)
        })
    }

    /// `P` from the crate's neighbour affinities (as a Barnes–Hut fit), perplexity 10.
    fn neighbour_problem() -> Problem {
        let Affinities::Sparse {
            indptr,
            indices,
            values,
        } = neighbour_affinities(&data(), &Metric::Euclidean, 10.0).expect("affinities")
        else {
            panic!("the neighbour affinities are sparse");
        };
        let mut dense = Array2::zeros((N, N));
        for i in 0..N {
            for e in indptr[i]..indptr[i + 1] {
                dense[[i, indices[e] as usize]] = values[e];
            }
        }
        Problem {
            indptr,
            indices,
            values,
            dense,
        }
    }

    /// `P` from the crate's exact affinities (as an exact fit), every off-diagonal pair in the
    /// CSR.
    fn all_pairs_problem() -> Problem {
        let dense = exact_affinities(&data(), &Metric::Euclidean, 10.0).expect("affinities");
        let (mut indptr, mut indices, mut values) = (vec![0], Vec::new(), Vec::new());
        for i in 0..N {
            for j in (0..N).filter(|&j| j != i) {
                indices.push(j as u32);
                values.push(dense[[i, j]]);
            }
            indptr.push(indices.len());
        }
        Problem {
            indptr,
            indices,
            values,
            dense,
        }
    }

    /// A seeded standard-normal embedding times `scale` (row-major `N × dim`).
    fn embedding(dim: usize, scale: f64, seed: u64) -> Vec<f64> {
        let mut rng = stream(seed, 1);
        (0..N * dim)
            .map(|_| scale * standard_normal::<f64>(&mut rng))
            .collect()
    }

    /// The degrees of freedom a fit uses for `dim` output dimensions.
    fn dof(dim: usize) -> f64 {
        (dim as f64 - 1.0).max(1.0)
    }

    /// Exact gradient and KL divergence.
    fn exact(p: &Problem, y: &[f64], dim: usize) -> (Vec<f64>, f64) {
        let mut g = vec![0.0; y.len()];
        let kl = exact_gradient(&p.dense, y, dim, dof(dim), &mut g, true);
        (g, kl)
    }

    /// Barnes–Hut gradient and KL divergence.
    fn barnes_hut(p: &Problem, y: &[f64], dim: usize, angle: f64) -> (Vec<f64>, f64) {
        let mut g = vec![0.0; y.len()];
        let kl = bh_gradient(
            &p.indptr,
            &p.indices,
            &p.values,
            y,
            dim,
            dof(dim),
            angle,
            &mut g,
            true,
        );
        (g, kl)
    }

    fn sq_dist(y: &[f64], dim: usize, i: usize, j: usize) -> f64 {
        (0..dim).fold(0.0, |s, a| {
            let d = y[i * dim + a] - y[j * dim + a];
            s + d * d
        })
    }

    /// `Z = Σ_{i≠j} w_ij`, grouped as [`exact_gradient`] does (row sums, added in row order).
    fn exact_z(y: &[f64], dim: usize) -> f64 {
        let mut z = 0.0;
        for i in 0..N {
            let mut row = 0.0;
            for j in (0..N).filter(|&j| j != i) {
                row += t_kernel(sq_dist(y, dim, i, j), dof(dim));
            }
            z += row;
        }
        z
    }

    /// `Z` as [`bh_gradient`] forms it: the tree's per-point sums, added in point order.
    fn barnes_hut_z(y: &[f64], dim: usize, angle: f64) -> f64 {
        let tree = SpaceTree::build(y, N, dim);
        let (mut neg, mut stack) = (vec![0.0; dim], Vec::new());
        (0..N)
            .map(|i| {
                let yi = &y[i * dim..(i + 1) * dim];
                tree.repulsion(i, yi, angle * angle, dof(dim), &mut neg, &mut stack)
            })
            .sum()
    }

    /// `Σ_ij p_ij |ln(p_ij / q_ij)|`: the scale of the KL divergence's rounding.
    fn kl_magnitude(p: &Problem, y: &[f64], dim: usize) -> f64 {
        let z = exact_z(y, dim);
        let mut s = 0.0;
        for i in 0..N {
            for e in p.indptr[i]..p.indptr[i + 1] {
                let (j, pij) = (p.indices[e] as usize, p.values[e]);
                let q = t_kernel(sq_dist(y, dim, i, j), dof(dim)) / z;
                if pij > 0.0 {
                    s += pij * (pij / q).ln().abs();
                }
            }
        }
        s
    }

    fn norm(v: &[f64]) -> f64 {
        v.iter().map(|x| x * x).sum::<f64>().sqrt()
    }

    fn distance(a: &[f64], b: &[f64]) -> f64 {
        a.iter()
            .zip(b)
            .map(|(x, y)| (x - y) * (x - y))
            .sum::<f64>()
            .sqrt()
    }

    /// With angle 0 no cell is ever summarised (`sq_width < 0 · d²` never holds), so only
    /// leaves contribute, and in a random embedding every leaf holds one point, whose "centre
    /// of mass" is that point exactly (`(0 + y_j) / 1`): each pair's `w_ij`, `w_ij² (y_i − y_j)`
    /// and `p_ij w_ij (y_i − y_j)` are the exact method's, bit for bit. Only the summation order
    /// and the grouping (attraction − repulsion / Z against Σ (p − q) w Δ) differ. (Leaves of
    /// several points, coincident or 64 levels deep, do not occur here; a point's own leaf is
    /// skipped, so with coincident points `Z` would miss their `w = 1`, as in scikit-learn.)
    ///
    /// Tolerances: recursive summation of `m` terms errs by at most `m·ε/2` times the sum of
    /// their magnitudes. Gradient: ~n terms per component in each method, so `n·ε·‖A‖`, `A`
    /// the per-component sums of `|term|`; `‖A‖ ≤ 5.5 ‖g‖` on these embeddings (they are far
    /// from a stationary point), hence `8·n·ε·‖g‖` (measured: at most 0.04·n·ε·‖g‖). `Z`: a
    /// sum of positive terms in two levels of ~n, `2·n·ε·Z` (measured: at most 0.26·n·ε·Z).
    /// KL divergence: [`bh_gradient`] keeps one running sum over a chunk of `POINT_CHUNK` rows,
    /// up to `POINT_CHUNK·n` terms, hence `POINT_CHUNK·n·ε·Σ p |ln(p/q)|` (measured: at most
    /// 1.1·n·ε times that magnitude).
    #[test]
    fn angle_zero_is_the_exact_gradient_to_rounding() {
        let eps = f64::EPSILON;
        let n = N as f64;
        for (name, p) in [
            ("neighbour P", neighbour_problem()),
            ("all-pairs P", all_pairs_problem()),
        ] {
            for dim in 1..=3 {
                for scale in [1e-3, 1.0, 5.0] {
                    let y = embedding(dim, scale, dim as u64);
                    let ctx = format!("{name}, {dim}-D, scale {scale}");
                    let (ge, kle) = exact(&p, &y, dim);
                    let (gb, klb) = barnes_hut(&p, &y, dim, 0.0);
                    let err = distance(&gb, &ge);
                    let tol = 8.0 * n * eps * norm(&ge);
                    assert!(err <= tol, "{ctx}: ‖Δg‖ = {err:e} > {tol:e}");
                    let (ze, zb) = (exact_z(&y, dim), barnes_hut_z(&y, dim, 0.0));
                    let tol = 2.0 * n * eps * ze;
                    assert!((zb - ze).abs() <= tol, "{ctx}: Z {zb} against {ze}");
                    let tol = POINT_CHUNK as f64 * n * eps * kl_magnitude(&p, &y, dim);
                    assert!((klb - kle).abs() <= tol, "{ctx}: KL {klb} against {kle}");
                }
            }
        }
    }

    /// The approximation error from θ = 0.1 to 0.8 on the neighbour `P` (what a Barnes–Hut fit
    /// uses). Summarising a cell by its centre of mass drops the first-order (dipole) term of
    /// the expansion of the repulsion about that centre, so one cell's error is `O((s/r)²)` of
    /// its contribution, `s` the spread of its points about the centre and `r` the distance;
    /// the criterion `width < θ r` makes that `O(θ²)`. The constants ([`C_GRAD`], [`C_Z`]) come
    /// from measurement, with a margin of 2.5: the worst case per cell, about `6 (s/r)²` for
    /// the far-field `r⁻³` force with `s` up to the diagonal `√2 θ r`, i.e. `12 θ²`, is far
    /// looser (the cells' errors partly cancel and the near field is never summarised) and
    /// would let a criterion off by a factor 2 (half widths, or θ unsquared) or a summary off
    /// the centre of mass pass; these fail the measured bounds. The errors must also grow with
    /// θ (10 % slack; scikit-learn documents only that the error grows quickly above 0.8, no
    /// figure for 0.5), and the KL divergence must move by `ln(Z_BH / Z)` to rounding (the
    /// pair terms do not depend on θ, only `Z` does), which ties the `Z` inside
    /// [`bh_gradient`] to the tree's.
    #[test]
    fn error_grows_with_angle_within_a_theta_squared_bound() {
        let p = neighbour_problem();
        let p_total: f64 = p.values.iter().sum();
        let (mut table, mut failures) = (String::new(), Vec::new());
        for (dim, scale) in [(2, 1.0), (2, 5.0), (2, 20.0), (3, 5.0)] {
            let y = embedding(dim, scale, 0);
            let (ge, kle) = exact(&p, &y, dim);
            let ze = exact_z(&y, dim);
            let kl_tol = (POINT_CHUNK * N) as f64 * f64::EPSILON * kl_magnitude(&p, &y, dim);
            let mut errors = Vec::new();
            for angle in ANGLES {
                let ctx = format!("{dim}-D, scale {scale}, θ = {angle}");
                let (gb, klb) = barnes_hut(&p, &y, dim, angle);
                let zb = barnes_hut_z(&y, dim, angle);
                let eg = distance(&gb, &ge) / norm(&ge);
                let ez = (zb - ze).abs() / ze;
                table += &format!("{ctx}: gradient {eg:.3e}, Z {ez:.3e}\n");
                if eg > C_GRAD * angle * angle {
                    failures.push(format!("{ctx}: gradient error {eg:.3e} > {C_GRAD} θ²"));
                }
                if angle == 0.5 && eg >= AT_DEFAULT_ANGLE {
                    failures.push(format!(
                        "{ctx}: gradient error {eg:.3e} >= {AT_DEFAULT_ANGLE}"
                    ));
                }
                if ez > C_Z * angle * angle {
                    failures.push(format!("{ctx}: Z error {ez:.3e} > {C_Z} θ²"));
                }
                let shift = p_total * (zb / ze).ln();
                if ((klb - kle) - shift).abs() > kl_tol {
                    failures.push(format!(
                        "{ctx}: KL moved by {:e} where ln(Z_BH / Z) = {shift:e}",
                        klb - kle
                    ));
                }
                errors.push(eg);
            }
            for (k, w) in errors.windows(2).enumerate() {
                if w[1] < 0.9 * w[0] {
                    failures.push(format!(
                        "{dim}-D, scale {scale}: the gradient error falls from {:.3e} at θ = {} \
                         to {:.3e} at θ = {}",
                        w[0],
                        ANGLES[k],
                        w[1],
                        ANGLES[k + 1]
                    ));
                }
            }
        }
        println!("{table}");
        assert!(
            failures.is_empty(),
            "{}\n\nall errors:\n{table}",
            failures.join("\n")
        );
    }
}
