//! Spectral clustering ([`SpectralClustering`], scikit-learn's `SpectralClustering`; catalog
//! CL-151, CL-152, CL-153).
//!
//! # Method
//!
//! 1. **Similarity graph** ([`Affinity`]; von Luxburg, "A tutorial on spectral clustering",
//!    Statistics and Computing 17(4), 2007):
//!    * variant A: the symmetric K-nearest-neighbour graph (edge `i – j` when
//!      either is among the other's K nearest) with Gaussian weights
//!      `s_ij = exp(−‖x_i − x_j‖² / σ)`;
//!    * variant B: `W_ij = η(‖x_i − x_j‖)` with the ε-indicator
//!      `η(s) = 1_{s ≤ ε}` or the fully connected Gaussian `η(s) = exp(−s²/σ²)`;
//!    * or a given affinity matrix ([`SpectralClustering::fit_precomputed`]).
//! 2. **Laplacian** `L = D − W` (the course notes'), or the normalised `L_sym` / `L_rw`
//!    ([`LaplacianKind`], from core, shared with the decomposition crate's spectral embedding).
//! 3. **Embedding**: the eigenvectors of the smallest eigenvalues, the embedding's pairs and
//!    [`EIGENVALUES_BEYOND`] more. From [`SHIFT_INVERT_MIN_ROWS`] rows by shift-invert block
//!    Krylov on `(L + σI)⁻¹`: for the kNN and ε graphs on the **sparse** Laplacian (a sparse
//!    Cholesky factor of `L + σI` with a minimum-degree ordering,
//!    [`linalg::eigsh_smallest_psd_sparse`]; the dense `n × n` matrices are never formed), for
//!    the Gaussian and precomputed graphs with one dense Cholesky factor
//!    ([`linalg::eigsh_smallest_psd`]); below that size, or when the iteration does not
//!    converge, by LAPACK's MRRR `syevr` on the dense `L`. `L_rw`'s vectors come from
//!    `L_sym`'s as `D^{−½} v`; by default `v₂ … v_K`
//!    (the constant `v₁` is skipped, as in the course notes), `n_components` to choose how many. With `L_sym` the rows
//!    are scaled to unit length (Ng, Jordan & Weiss). Eigenvector signs follow scikit-learn's
//!    `svd_flip` rule (largest entry positive), so results are reproducible.
//! 4. **Assignment** ([`SpectralAssign`]): k-means on the embedded rows (default, `n_init`
//!    restarts), or for `K = 2` the sign of the Fiedler vector `u⁽²⁾` (variant B; `u_i ≥ 0` →
//!    cluster of row 0's sign first).
//!
//! The kNN and ε graphs cost `O(n K)` memory up to the factor's fill (87,000 entries for the 10-nearest-neighbour graph of the 1,797 digits, against 1.6 million in a dense
//! triangle); the Gaussian and precomputed graphs are dense, `O(n²)` memory and `O(n³)` time:
//! a few thousand rows. (Block Krylov on the shifted `σI − L`, as the spectral embedding once
//! used for `L_sym`, was tried for the unnormalised `L` on digits: 3.3 s against 0.64 s, its
//! smallest eigenvalues too close together relative to `σ`.)
//! `predict` on new rows gives the cluster of the nearest training row.
//!
//! ```
//! use ndlearn_cluster::{SpectralAssign, SpectralClustering};
//! use ndlearn_core::ndarray::array;
//!
//! // the course notes' 3-node graph: Fiedler split {x1} | {x2, x3}
//! let w = array![[0.0f64, 2.0, 1.0], [2.0, 0.0, 3.0], [1.0, 3.0, 0.0]];
//! let m = SpectralClustering::new(2)
//!     .assign(SpectralAssign::FiedlerSign)
//!     .fit_precomputed(&w)?;
//! assert_eq!(m.labels().to_vec(), vec![0, 1, 1]);
//! let ev = m.eigenvalues();
//! assert!(ev[0].abs() < 1e-12 && (ev[1] - (6.0 - 3f64.sqrt())).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::Estimator;
use ndlearn_core::distance::Metric;
use ndlearn_core::linalg;
use ndlearn_core::neighbors::{
    Algorithm, CsrGraph, DEFAULT_LEAF_SIZE, LaplacianKind, NeighborIndex, Symmetrize, laplacian,
};
use ndlearn_core::validate::{ModelCheck, check_fit_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result};

use crate::kmeans::KMeans;

/// How many Laplacian eigenvalues beyond the embedding's (and at least `n_clusters`)
/// [`FittedSpectralClustering::eigenvalues`] keeps: the eigengap heuristic reads `λ_{k+1} − λ_k`.
pub const EIGENVALUES_BEYOND: usize = 10;

/// Rows from which the Laplacian's smallest eigenpairs come from shift-invert block Krylov
/// ([`linalg::eigsh_smallest_psd`]) instead of LAPACK's MRRR (`eigh_range`); below, the dense
/// solver is as fast and computes exactly the pairs asked for.
pub const SHIFT_INVERT_MIN_ROWS: usize = 500;

/// The `want` smallest eigenpairs of the Laplacian `l` (ascending): shift-invert from
/// [`SHIFT_INVERT_MIN_ROWS`] rows, with `σ = 10⁻³ · mean(diag L)` (mean degree for `D − W`, 1
/// for `L_sym`) below the wanted eigenvalues, accepted when the iteration converged and every
/// residual `‖L v − λ v‖` is at most `10⁻⁹ · ‖L‖_∞` (Gershgorin bound on `‖L‖₂`; `100 ε` in
/// place of `10⁻⁹` in single precision); otherwise,
/// and for smaller graphs, MRRR on the dense `L`.
fn smallest_pairs<F: Float>(
    l: &Array2<F>,
    want: usize,
    seed: u64,
) -> Result<(Array1<F>, Array2<F>)> {
    let n = l.nrows();
    let want = want.min(n);
    if n >= SHIFT_INVERT_MIN_ROWS {
        let mean_diag = l.diag().sum() / F::cast(n as f64);
        let norm_inf = l
            .rows()
            .into_iter()
            .map(|r| r.iter().fold(F::zero(), |acc, v| acc + v.abs()))
            .fold(F::zero(), F::max);
        if mean_diag > F::zero() {
            let sigma = mean_diag * F::cast(1e-3);
            let tol = F::cast(1e-10).max(F::epsilon() * F::cast(10.0));
            let bound = F::cast(1e-9).max(F::epsilon() * F::cast(100.0)) * norm_inf;
            let found = linalg::eigsh_smallest_psd(l, want, sigma, tol, 100, seed);
            if let Ok(r) = found {
                if r.converged && r.max_residual <= bound {
                    return Ok((r.values, r.vectors));
                }
            }
        }
    }
    linalg::eigh_range(l, 0..want)
}

/// The smallest `want` Laplacian pairs of a sparse graph from [`SHIFT_INVERT_MIN_ROWS`] rows:
/// shift-invert with the sparse Cholesky factor of `L + σI`
/// ([`linalg::eigsh_smallest_psd_sparse`]; `σ` and the acceptance test as [`smallest_pairs`]).
/// `None` (the caller then takes the dense path) below that size or when the iteration does
/// not meet the test.
fn sparse_smallest_pairs<F: Float>(
    g: &CsrGraph<F>,
    kind: LaplacianKind,
    want: usize,
    seed: u64,
) -> Result<Option<(Array1<F>, Array2<F>)>> {
    let n = g.n_nodes();
    let want = want.min(n);
    if n < SHIFT_INVERT_MIN_ROWS {
        return Ok(None);
    }
    let l = g.laplacian_sparse(kind)?;
    let mean_diag = l.diag().sum() / F::cast(n as f64);
    if mean_diag <= F::zero() {
        return Ok(None);
    }
    let sigma = mean_diag * F::cast(1e-3);
    let tol = F::cast(1e-10).max(F::epsilon() * F::cast(10.0));
    let bound = F::cast(1e-9).max(F::epsilon() * F::cast(100.0)) * l.norm_inf();
    Ok(
        match linalg::eigsh_smallest_psd_sparse(&l, want, sigma, tol, 100, seed) {
            Ok(r) if r.converged && r.max_residual <= bound => Some((r.values, r.vectors)),
            _ => None,
        },
    )
}

/// An affinity graph: sparse (kNN, ε) or dense (fully connected, precomputed).
enum Graph<F> {
    Dense(Array2<F>),
    Sparse(CsrGraph<F>),
}

impl<F: Float> Graph<F> {
    fn n(&self) -> usize {
        match self {
            Self::Dense(a) => a.nrows(),
            Self::Sparse(g) => g.n_nodes(),
        }
    }

    /// `d_i = Σ_{j ≠ i} w_ij` (self-loops ignored, as the Laplacian ignores them).
    fn degrees(&self) -> Array1<F> {
        match self {
            Self::Dense(a) => (0..a.nrows())
                .map(|i| {
                    a.row(i)
                        .iter()
                        .enumerate()
                        .filter(|&(j, _)| j != i)
                        .map(|(_, &v)| v)
                        .sum()
                })
                .collect(),
            Self::Sparse(g) => (0..g.n_nodes())
                .map(|i| {
                    let (idx, w) = g.row(i);
                    idx.iter()
                        .zip(w)
                        .filter(|&(&j, _)| j != i)
                        .map(|(_, &v)| v)
                        .sum()
                })
                .collect(),
        }
    }
}

/// The similarity graph of [`SpectralClustering`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Affinity {
    /// Variant A: symmetric kNN graph, weights `exp(−d² / sigma)`.
    Knn {
        /// Neighbours per point `K`.
        n_neighbors: usize,
        /// Scale `σ > 0` (divides the squared distance); `None`: the mean squared distance
        /// over the graph's edges, so the weights do not depend on the units of the data.
        sigma: Option<f64>,
    },
    /// Variant B: edge weight 1 when `d ≤ eps`.
    Epsilon {
        /// Radius `ε > 0`.
        eps: f64,
    },
    /// Variant B: fully connected, weights `exp(−d² / sigma²)`.
    Gaussian {
        /// Bandwidth `σ > 0`.
        sigma: f64,
    },
}

/// How [`SpectralClustering`] turns the embedding into clusters.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SpectralAssign {
    /// k-means on the embedded rows (default).
    #[default]
    KMeans,
    /// The sign of the Fiedler vector (two clusters only).
    FiedlerSign,
}

/// Spectral clustering. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SpectralClustering {
    /// Number of clusters `K` (default 2).
    pub n_clusters: usize,
    /// Similarity graph (default: kNN with 10 neighbours, σ the mean squared edge length).
    pub affinity: Affinity,
    /// Laplacian (default `D − W`).
    pub laplacian: LaplacianKind,
    /// Eigenvectors used (default `None`: `K − 1`, or `K` when `drop_first` is off).
    pub n_components: Option<usize>,
    /// Skip the first eigenvector (default true).
    pub drop_first: bool,
    /// Assignment (default k-means).
    pub assign: SpectralAssign,
    /// k-means restarts (default 10).
    pub n_init: usize,
    /// Random seed of the k-means step and of the shift-invert eigensolver's start block
    /// (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for SpectralClustering {
    fn default() -> Self {
        Self::new(2)
    }
}

impl SpectralClustering {
    /// `K` clusters, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: k,
            affinity: Affinity::Knn {
                n_neighbors: 10,
                sigma: None,
            },
            laplacian: LaplacianKind::Unnormalized,
            n_components: None,
            drop_first: true,
            assign: SpectralAssign::KMeans,
            n_init: 10,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the similarity graph.
        affinity: Affinity,
        /// Sets the Laplacian.
        laplacian: LaplacianKind,
        /// Sets the number of eigenvectors.
        n_components: Option<usize>,
        /// Sets whether the first eigenvector is skipped.
        drop_first: bool,
        /// Sets the assignment.
        assign: SpectralAssign,
        /// Sets the k-means restarts.
        n_init: usize,
        /// Sets the seed.
        seed: u64,
    }

    fn check(&self, n: usize) -> Result<()> {
        let k = self.n_clusters;
        crate::common::check_n_clusters("n_clusters", k, n)?;
        if self.n_init == 0 {
            return Err(Error::invalid_param("n_init", "must be >= 1"));
        }
        if self.assign == SpectralAssign::FiedlerSign && k != 2 {
            return Err(Error::invalid_param(
                "assign",
                "the Fiedler sign split gives exactly two clusters (n_clusters = 2)",
            ));
        }
        let m = self.components();
        let first = usize::from(self.drop_first);
        if m == 0 || first + m > n {
            return Err(Error::invalid_param(
                "n_components",
                format!(
                    "need 1 ..= {} eigenvectors, got {m}",
                    n.saturating_sub(first)
                ),
            ));
        }
        Ok(())
    }

    fn check_affinity(&self, n: usize) -> Result<()> {
        match self.affinity {
            Affinity::Knn { n_neighbors, sigma } => {
                if n_neighbors == 0 || n_neighbors >= n {
                    return Err(Error::invalid_param(
                        "n_neighbors",
                        format!("must be in 1..{n} (fewer than the rows), got {n_neighbors}"),
                    ));
                }
                match sigma {
                    Some(s) => ndlearn_core::validate::check_positive("sigma", s),
                    None => Ok(()),
                }
            }
            Affinity::Epsilon { eps } => ndlearn_core::validate::check_positive("eps", eps),
            Affinity::Gaussian { sigma } => ndlearn_core::validate::check_positive("sigma", sigma),
        }
    }

    fn components(&self) -> usize {
        self.n_components.unwrap_or(if self.drop_first {
            self.n_clusters.saturating_sub(1).max(1)
        } else {
            self.n_clusters
        })
    }

    /// The affinity graph of the rows of `x`: sparse for the kNN and ε graphs, dense for the
    /// fully connected Gaussian.
    fn affinity_graph<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Graph<F>> {
        let n = x.nrows();
        match self.affinity {
            Affinity::Knn { n_neighbors, sigma } => {
                let index = NeighborIndex::build(
                    x.to_owned(),
                    Metric::Euclidean,
                    Algorithm::Auto,
                    DEFAULT_LEAF_SIZE,
                )?;
                let g = index
                    .kneighbors_graph(n_neighbors, false)?
                    .symmetrize(Symmetrize::Union);
                let s = match sigma {
                    Some(s) => F::cast(s),
                    None => {
                        let m = g.data().iter().map(|&d| d * d).sum::<F>()
                            / F::cast(g.nnz().max(1) as f64);
                        if m > F::zero() { m } else { F::one() }
                    }
                };
                Ok(Graph::Sparse(g.map_weights(|d| (-d * d / s).exp())))
            }
            Affinity::Epsilon { eps } => {
                let index = NeighborIndex::build(
                    x.to_owned(),
                    Metric::Euclidean,
                    Algorithm::Auto,
                    DEFAULT_LEAF_SIZE,
                )?;
                Ok(Graph::Sparse(
                    index.epsilon_graph(eps, false)?.to_connectivity(),
                ))
            }
            Affinity::Gaussian { sigma } => {
                let s2 = F::cast(sigma * sigma);
                let d2 = linalg::pairwise_sq_euclidean_self(x);
                let mut w = d2.mapv(|v| (-v.max(F::zero()) / s2).exp());
                for i in 0..n {
                    w[[i, i]] = F::zero();
                }
                Ok(Graph::Dense(w))
            }
        }
    }

    /// Fits on a given symmetric non-negative affinity matrix `w` (`n × n`; the diagonal is
    /// ignored). The model has no training rows, so its `predict` errors.
    ///
    /// # Errors
    /// As [`laplacian`], and for invalid settings.
    pub fn fit_precomputed<F: Float>(
        &self,
        w: &ArrayRef2<F>,
    ) -> Result<FittedSpectralClustering<F>> {
        self.check(w.nrows())?;
        self.finish(&Graph::Dense(w.to_owned()), None)
    }

    fn finish<F: Float>(
        &self,
        w: &Graph<F>,
        train: Option<Array2<F>>,
    ) -> Result<FittedSpectralClustering<F>> {
        let n = w.n();
        let kind = match self.laplacian {
            LaplacianKind::RandomWalk => LaplacianKind::Symmetric,
            other => other,
        };
        let first = usize::from(self.drop_first);
        let m = self.components();
        // the embedding's pairs and EIGENVALUES_BEYOND more eigenvalues (for an eigengap look);
        // MRRR computes only these vectors
        let want = (first + m).max(self.n_clusters).max(2) + EIGENVALUES_BEYOND;
        let (vals, mut vecs) = match w {
            Graph::Sparse(g) => match sparse_smallest_pairs(g, kind, want, self.seed)? {
                Some(pairs) => pairs,
                // a small graph, or the sparse iteration failed its test (the dense
                // shift-invert would run the same iteration): MRRR on the dense L
                None => linalg::eigh_range(&laplacian(&g.to_dense(), kind)?, 0..want.min(n))?,
            },
            Graph::Dense(a) => smallest_pairs(&laplacian(a, kind)?, want, self.seed)?,
        };
        let degrees = w.degrees();
        // The Laplacian's null vector is known exactly (1, or D^{½}1 for L_sym). On a nearly
        // disconnected graph λ₁ ≈ λ₂ ≈ 0 and the solver may return any rotation of the two
        // vectors; putting the exact null vector first and the others orthogonal to it picks
        // the one that separates the components.
        let mut z: Array1<F> = match kind {
            LaplacianKind::Unnormalized => Array1::from_elem(n, F::one()),
            _ => degrees.mapv(|d| d.sqrt()),
        };
        let zn = z.dot(&z).sqrt();
        let c = (first + m).min(n);
        if zn > F::zero() && c > 1 {
            z /= zn;
            // project z out of the first c eigenvectors; the one left with the smallest
            // residual is the direction z replaces (normally column 0, residual ≈ 0), the rest
            // are re-orthonormalised in order
            let mut rest: Vec<Array1<F>> = (0..c)
                .map(|j| {
                    let mut v = vecs.column(j).to_owned();
                    let p = z.dot(&v);
                    v.scaled_add(-p, &z);
                    v
                })
                .collect();
            let drop = (0..c)
                .min_by(|&a, &b| {
                    let (na, nb) = (rest[a].dot(&rest[a]), rest[b].dot(&rest[b]));
                    na.partial_cmp(&nb).unwrap_or(std::cmp::Ordering::Equal)
                })
                .unwrap_or(0);
            rest.remove(drop);
            let mut basis: Vec<Array1<F>> = vec![z];
            for mut v in rest {
                for _ in 0..2 {
                    for q in &basis {
                        let p = q.dot(&v);
                        v.scaled_add(-p, q);
                    }
                }
                let vn = v.dot(&v).sqrt();
                if vn > F::zero() {
                    v /= vn;
                }
                basis.push(v);
            }
            for (j, v) in basis.into_iter().enumerate() {
                vecs.column_mut(j).assign(&v);
            }
        }
        let mut emb = vecs.slice(ndarray::s![.., first..first + m]).to_owned();
        if self.laplacian == LaplacianKind::RandomWalk {
            // L_rw u = λ u with u = D^{−½} v for L_sym v = λ v
            for i in 0..n {
                let deg = degrees[i];
                let s = if deg > F::zero() {
                    F::one() / deg.sqrt()
                } else {
                    F::zero()
                };
                emb.row_mut(i).mapv_inplace(|v| v * s);
            }
        }
        // deterministic signs: the entry of largest magnitude positive (svd_flip)
        for mut col in emb.columns_mut() {
            let mut arg = 0;
            for (i, v) in col.iter().enumerate() {
                if v.abs() > col[arg].abs() {
                    arg = i;
                }
            }
            if col[arg] < F::zero() {
                col.mapv_inplace(|v| -v);
            }
        }
        if self.laplacian == LaplacianKind::Symmetric {
            for mut row in emb.rows_mut() {
                let norm = row.dot(&row).sqrt();
                if norm > F::zero() {
                    row /= norm;
                }
            }
        }
        let labels: Array1<usize> = match self.assign {
            SpectralAssign::FiedlerSign => {
                let u = if self.drop_first {
                    emb.column(0).to_owned()
                } else {
                    vecs.column(1).to_owned()
                };
                let s0 = u[0] >= F::zero();
                u.iter()
                    .map(|&v| usize::from((v >= F::zero()) != s0))
                    .collect()
            }
            SpectralAssign::KMeans => {
                let km = KMeans::new(self.n_clusters)
                    .n_init(Some(self.n_init))
                    .seed(self.seed)
                    .fit(&emb)?;
                relabel(km.labels())
            }
        };
        let n_clusters = labels.iter().copied().max().map_or(0, |v| v + 1);
        Ok(FittedSpectralClustering {
            params: self.clone(),
            labels,
            n_clusters,
            eigenvalues: vals,
            embedding: emb,
            train,
        })
    }
}

/// Labels renumbered by first appearance (row 0 in cluster 0).
fn relabel(labels: &Array1<usize>) -> Array1<usize> {
    let mut map: Vec<Option<usize>> = Vec::new();
    let mut next = 0;
    labels
        .iter()
        .map(|&l| {
            if l >= map.len() {
                map.resize(l + 1, None);
            }
            *map[l].get_or_insert_with(|| {
                next += 1;
                next - 1
            })
        })
        .collect()
}

impl Estimator for SpectralClustering {
    /// Checks `n_clusters ≥ 1`, `n_init ≥ 1`, the Fiedler split with two clusters, a positive
    /// number of components and the affinity's scale (`sigma`, `eps` `> 0`, `n_neighbors ≥ 1`);
    /// counts against the rows are checked at fit.
    fn validate(&self) -> Result<()> {
        crate::common::check_n_clusters("n_clusters", self.n_clusters, usize::MAX)?;
        ndlearn_core::validate::check_at_least("n_init", self.n_init, 1)?;
        if self.assign == SpectralAssign::FiedlerSign && self.n_clusters != 2 {
            return Err(Error::invalid_param(
                "assign",
                "the Fiedler sign split gives exactly two clusters (n_clusters = 2)",
            ));
        }
        if self.components() == 0 {
            return Err(Error::invalid_param("n_components", "must be >= 1"));
        }
        match self.affinity {
            Affinity::Knn { n_neighbors, sigma } => {
                ndlearn_core::validate::check_at_least("n_neighbors", n_neighbors, 1)?;
                match sigma {
                    Some(s) => ndlearn_core::validate::check_positive("sigma", s),
                    None => Ok(()),
                }
            }
            Affinity::Epsilon { eps } => ndlearn_core::validate::check_positive("eps", eps),
            Affinity::Gaussian { sigma } => ndlearn_core::validate::check_positive("sigma", sigma),
        }
    }
}

impl<F: Float> FitUnsupervised<F> for SpectralClustering {
    type Model = FittedSpectralClustering<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "SpectralClustering::fit")?;
        self.check(x.nrows())?;
        self.check_affinity(x.nrows())?;
        let w = self.affinity_graph(x)?;
        let weights = match &w {
            Graph::Dense(a) => a.as_slice_memory_order().unwrap_or(&[]),
            Graph::Sparse(g) => g.data(),
        };
        if weights.iter().any(|v| !v.is_finite()) {
            return Err(Error::invalid_param(
                "x",
                "affinities overflow; rescale the features",
            ));
        }
        self.finish(&w, Some(x.to_owned()))
    }
}

/// A fitted [`SpectralClustering`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSpectralClustering<F: Float> {
    params: SpectralClustering,
    labels: Array1<usize>,
    n_clusters: usize,
    eigenvalues: Array1<F>,
    embedding: Array2<F>,
    train: Option<Array2<F>>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedSpectralClustering<F> {
    fn n_features_in(&self) -> usize {
        self.train.as_ref().map_or(0, |t| t.ncols())
    }
}

impl<F: Float> FittedSpectralClustering<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &SpectralClustering {
        &self.params
    }
    /// The cluster of every training row (numbered by first appearance).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// The number of clusters found.
    pub fn n_clusters(&self) -> usize {
        self.n_clusters
    }
    /// The smallest Laplacian eigenvalues, ascending (of `L_sym` for the random-walk Laplacian,
    /// which has the same spectrum): the embedding's and [`EIGENVALUES_BEYOND`] more (all `n`
    /// for small graphs), enough to read the eigengap after `n_clusters`.
    pub fn eigenvalues(&self) -> &Array1<F> {
        &self.eigenvalues
    }
    /// The spectral embedding the clusters were found in (`n × n_components`).
    pub fn embedding(&self) -> &Array2<F> {
        &self.embedding
    }
}

impl<F: Float> Predict<F> for FittedSpectralClustering<F> {
    type Output = Array1<usize>;

    /// The cluster of the nearest training row.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a model fitted on an affinity matrix; the usual input errors.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        crate::common::nearest_row_labels(
            self.train.as_ref(),
            &Metric::Euclidean,
            &self.labels,
            x,
            "SpectralClustering: number of features",
        )
    }
}

impl<F: Float> CheckModel for FittedSpectralClustering<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSpectralClustering");
        c.params(&self.params)?;
        let n = self.labels.len();
        c.at_least("labels", n, 1)?;
        // fewer clusters than asked when k-means or the Fiedler split leaves one empty
        let k = self.n_clusters;
        c.that((1..=self.params.n_clusters).contains(&k), || {
            format!("`n_clusters` {k} not in 1..={}", self.params.n_clusters)
        })?;
        c.indices_below("labels", &self.labels, k)?;
        c.that((1..=n).contains(&self.eigenvalues.len()), || {
            format!("{} eigenvalues for {n} rows", self.eigenvalues.len())
        })?;
        c.finite("eigenvalues", &self.eigenvalues)?;
        let m = self.params.components();
        c.shape("embedding", self.embedding.dim(), (n, m))?;
        c.finite("embedding", &self.embedding)?;
        // no training rows after a fit on an affinity matrix
        if let Some(t) = &self.train {
            crate::common::check_points(&c, "train", t, n)?;
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
        let x = array![
            [0.0, 0.0],
            [0.5, 0.1],
            [0.2, 0.4],
            [9.0, 9.0],
            [9.5, 9.1],
            [9.2, 9.4]
        ];
        let mut m = SpectralClustering::new(2)
            .affinity(Affinity::Knn {
                n_neighbors: 2,
                sigma: None,
            })
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.train = Some(Array2::zeros((5, 2)));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
