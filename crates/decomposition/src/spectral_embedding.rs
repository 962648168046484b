//! Spectral embedding / Laplacian eigenmaps ([`SpectralEmbedding`], scikit-learn's
//! `SpectralEmbedding`; catalog CL-166, D-08).
//!
//! # Method
//!
//! 1. An affinity graph `W` on the training points ([`SpectralAffinity`]), symmetric,
//!    non-negative, its diagonal ignored:
//!
//!    | affinity | `W_ij` | scikit-learn |
//!    |---|---|---|
//!    | `NearestNeighbors { n_neighbors }` (default) | `½ (A + Aᵀ)` with `A_ij = 1` when `j` is one of the `n_neighbors` nearest points of `i` (the point itself included, as scikit-learn's `include_self=True`; default `max(⌊n/10⌋, 1)`) | `affinity="nearest_neighbors"` |
//!    | `Rbf { gamma }` | `exp(−γ ‖x_i − x_j‖²)` (dense; default `γ = 1/d`) | `affinity="rbf"` |
//!    | `Epsilon { eps }` | `1` when `‖x_i − x_j‖ ≤ ε` (the course notes' ε-graph; von Luxburg 2007) | — |
//!    | `Precomputed` | the given matrix | `affinity="precomputed"` |
//!
//! 2. Degrees `d_i = Σ_{j≠i} W_ij` and the normalised Laplacian
//!    `L = I − D^{−½} W D^{−½}` (an isolated node: `d_i` taken as 1, `L_ii = 1`), as scipy's
//!    `laplacian(normed=True)` with scikit-learn's unit diagonal.
//! 3. The `k + 1` smallest eigenpairs of `L` (dense `eigh` up to 500 points; above,
//!    shift-invert block Krylov on `(L + 10⁻³ I)⁻¹`, one Cholesky factor), each eigenvector `v` rescaled to `u = D^{−½} v`
//!    (scikit-learn's `norm_laplacian=True`): `u` solves the generalised problem
//!    `(D − W) u = λ D u` of Laplacian eigenmaps (Belkin & Niyogi 2003).
//! 4. Signs: the entry of largest magnitude of every `u` positive (scikit-learn's
//!    `_deterministic_vector_sign_flip`); the first (trivial, `u ∝ 1` on a connected graph)
//!    vector is dropped (`drop_first=True`) and the next `k` are the embedding's columns.
//!
//! This minimises `Σ_ij W_ij ‖z_i − z_j‖²` subject to `Zᵀ D Z = I` and `Zᵀ D 1 = 0`, the course
//! notes' relaxation of the cut (as in von Luxburg 2007; the course notes use the plain `D − W`; the
//! normalised form is scikit-learn's).
//!
//! **Disconnected graphs**: scikit-learn warns and embeds anyway; here the embedding is returned
//! and [`FittedSpectralEmbedding::is_connected`] / [`FittedSpectralEmbedding::n_connected_components`]
//! tell. With `c` components the eigenvalue 0 has multiplicity `c` and the leading columns only
//! separate the components (their basis is then arbitrary).
//!
//! **New points** (the Nyström extension, Bengio et al. 2004; scikit-learn has no `transform`):
//! from `W u = (1 − λ) D u`, a training point satisfies `u_i = Σ_j W_ij u_j / ((1 − λ) d_i)`; a
//! new point `x` with affinities `w_j = w(x, x_j)` to the training points is placed at
//! `z = Σ_j w_j u_j / ((1 − λ) Σ_j w_j)`, column by column. The new point's affinities are
//! built like the training ones: its `n_neighbors` nearest training points (weight 1; only the
//! ratio matters), the RBF kernel, the ε-ball, or a given row of affinities for `Precomputed`.
//! Giving `Precomputed` the training rows of `W` reproduces the embedding exactly (tested); for
//! data input a training row also counts its own affinity, so it lands near, not on, its
//! embedding. A point with no affinity to any training point (an empty ε-ball) and a column with
//! `λ = 1` get 0.
//!
//! ```
//! use ndlearn_decomposition::{SpectralAffinity, SpectralEmbedding};
//! use ndlearn_core::ndarray::Array2;
//! use ndlearn_core::{FitUnsupervised, Transform};
//!
//! // 40 points on a noisy circle: the 2-D embedding is again (close to) a circle
//! let x = Array2::from_shape_fn((40, 2), |(i, j)| {
//!     let t = i as f64 * std::f64::consts::TAU / 40.0;
//!     if j == 0 { t.cos() + 0.01 * (i % 3) as f64 } else { t.sin() }
//! });
//! let se = SpectralEmbedding::new(2)
//!     .affinity(SpectralAffinity::NearestNeighbors { n_neighbors: Some(6) })
//!     .fit(&x)?;
//! assert!(se.is_connected());
//! assert_eq!(se.embedding().dim(), (40, 2));
//! let z = se.transform(&x.slice(ndlearn_core::ndarray::s![..3, ..]))?;
//! assert_eq!(z.dim(), (3, 2));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! The course notes (spectral embedding, kNN graph, Laplacian). Belkin & Niyogi, *Laplacian
//! eigenmaps for dimensionality reduction and data representation* (2003); von Luxburg, *A
//! tutorial on spectral clustering* (2007); Bengio et al., *Out-of-sample extensions for LLE,
//! Isomap, MDS, Eigenmaps and spectral clustering* (2004).

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::linalg::{self, pairwise_sq_euclidean};
use ndlearn_core::neighbors::{
    CsrGraph, LaplacianKind, epsilon_graph, kneighbors_graph, laplacian,
};
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, Result, Transform};

use crate::mds::{SquareKind, check_non_negative, check_square, symmetrise};

/// How [`SpectralEmbedding`] builds its affinity graph (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SpectralAffinity {
    /// Symmetrised kNN connectivity (default, `n_neighbors` default `max(⌊n/10⌋, 1)`).
    NearestNeighbors {
        /// Neighbours per point, the point itself included (`None`: `max(⌊n/10⌋, 1)`).
        n_neighbors: Option<usize>,
    },
    /// Dense RBF kernel `exp(−γ ‖x − x′‖²)`.
    Rbf {
        /// `γ > 0` (`None`: `1 / n_features`).
        gamma: Option<f64>,
    },
    /// ε-graph: weight 1 within Euclidean distance `eps`.
    Epsilon {
        /// The radius `ε > 0`.
        eps: f64,
    },
    /// `fit` gets the `n × n` affinity matrix (symmetric, non-negative), `transform` rows of
    /// affinities from new points to the training points.
    Precomputed,
}

impl Default for SpectralAffinity {
    fn default() -> Self {
        Self::NearestNeighbors { n_neighbors: None }
    }
}

/// Spectral embedding (Laplacian eigenmaps). See the [module docs](self).
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_components` | 2 | `n_components` | `1 ≤ k ≤ n − 1` |
/// | `affinity` | kNN, `max(⌊n/10⌋, 1)` neighbours | `affinity`, `n_neighbors`, `gamma` | [`SpectralAffinity`] |
///
/// scikit-learn's `eigen_solver`, `eigen_tol` and `random_state` have no counterpart: the
/// dense eigensolver is exact and deterministic.
///
/// # Errors
/// `fit`: [`Error::InvalidParam`] for `k ≥ n`, `n_neighbors` out of `1..=n`, a non-positive
/// `gamma` or `eps`, or an asymmetric or negative precomputed affinity;
/// [`Error::ShapeMismatch`] for a non-square precomputed matrix; [`Error::NonFinite`];
/// [`Error::TooFewSamples`] for fewer than 2 points.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SpectralEmbedding {
    /// Embedding dimension `k` (default 2).
    pub n_components: usize,
    /// The affinity graph (default the kNN graph).
    pub affinity: SpectralAffinity,
}

impl Default for SpectralEmbedding {
    fn default() -> Self {
        Self {
            n_components: 2,
            affinity: SpectralAffinity::default(),
        }
    }
}

impl SpectralEmbedding {
    /// Spectral embedding into `k` dimensions with the default kNN graph.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `n_components`.
        n_components: usize,
        /// Sets the affinity.
        affinity: SpectralAffinity,
    }
}

impl ndlearn_core::Estimator for SpectralEmbedding {
    /// Checks the hyperparameters (`fit` calls it first).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the offending field.
    fn validate(&self) -> Result<()> {
        if self.n_components == 0 {
            return Err(Error::invalid_param("n_components", "must be >= 1, got 0"));
        }
        match self.affinity {
            SpectralAffinity::NearestNeighbors {
                n_neighbors: Some(0),
            } => Err(Error::invalid_param("n_neighbors", "must be >= 1, got 0")),
            SpectralAffinity::Rbf { gamma: Some(g) } => {
                ndlearn_core::validate::check_positive("gamma", g)
            }
            SpectralAffinity::Epsilon { eps } => ndlearn_core::validate::check_positive("eps", eps),
            _ => Ok(()),
        }
    }
}

/// The affinity used by a fitted model, its defaults resolved.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
enum Resolved {
    Knn(usize),
    Rbf(f64),
    Epsilon(f64),
    Precomputed,
}

impl<F: Float> FitUnsupervised<F> for SpectralEmbedding {
    type Model = FittedSpectralEmbedding<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let k = self.n_components;
        let (mut w, resolved) = match self.affinity {
            SpectralAffinity::Precomputed => (
                check_square(x, SquareKind::Affinities, "SpectralEmbedding::fit")?,
                Resolved::Precomputed,
            ),
            SpectralAffinity::NearestNeighbors { n_neighbors } => {
                check_fit_input(x, 2, "SpectralEmbedding::fit")?;
                let n = x.nrows();
                let nn = n_neighbors.unwrap_or((n / 10).max(1));
                if nn > n {
                    return Err(Error::invalid_param(
                        "n_neighbors",
                        format!("must lie in 1..={n} (the number of points), got {nn}"),
                    ));
                }
                let g = kneighbors_graph(x, nn, &Metric::Euclidean, true)?;
                (
                    symmetrise(g.to_connectivity().to_dense()),
                    Resolved::Knn(nn),
                )
            }
            SpectralAffinity::Rbf { gamma } => {
                check_fit_input(x, 2, "SpectralEmbedding::fit")?;
                let g = gamma.unwrap_or(1.0 / x.ncols() as f64);
                (Kernel::Rbf { gamma: g }.gram(x)?, Resolved::Rbf(g))
            }
            SpectralAffinity::Epsilon { eps } => {
                check_fit_input(x, 2, "SpectralEmbedding::fit")?;
                let g = epsilon_graph(x, eps, &Metric::Euclidean, false)?;
                (
                    symmetrise(g.to_connectivity().to_dense()),
                    Resolved::Epsilon(eps),
                )
            }
        };
        let train = match resolved {
            Resolved::Precomputed => None,
            _ => Some(x.as_standard_layout().into_owned()),
        };
        let n = w.nrows();
        if k >= n {
            return Err(Error::invalid_param(
                "n_components",
                format!(
                    "must lie in 1..={} (one eigenvector is dropped, {n} points), got {k}",
                    n - 1
                ),
            ));
        }
        w.diag_mut().fill(F::zero());
        let n_connected = components(&w)?;
        let mut lap = laplacian(&w, LaplacianKind::Symmetric)?;
        lap.diag_mut().fill(F::one());
        let deg = w.sum_axis(Axis(1));
        let dd = deg.mapv(|d| if d > F::zero() { d.sqrt() } else { F::one() });
        let (vals, mut u) = smallest_eigenpairs(&lap, k + 1)?;
        for (mut row, &di) in u.rows_mut().into_iter().zip(&dd) {
            row /= di;
        }
        for mut col in u.columns_mut() {
            let lead = col
                .iter()
                .fold(F::zero(), |b, &v| if v.abs() > b.abs() { v } else { b });
            if lead < F::zero() {
                col.mapv_inplace(|v| -v);
            }
        }
        let embedding = u.slice(s![.., 1..]).as_standard_layout().into_owned();
        Ok(FittedSpectralEmbedding {
            params: self.clone(),
            n_input: x.ncols(),
            embedding,
            eigenvalues: vals,
            n_connected,
            affinity: resolved,
            train,
        })
    }
}

/// The `m` smallest eigenpairs of a normalised Laplacian (spectrum in `[0, 2]`): the dense
/// solver (MRRR, only those `m` pairs) for up to 500 points or many pairs, else shift-invert
/// block Krylov on `(L + σI)⁻¹` with `σ = 10⁻³` (one Cholesky factor, a few tens of block
/// solves; `linalg::eigsh_smallest_psd`), accepted when it converged with every residual
/// `‖L v − λ v‖` at most `10⁻⁹ · 2`, the dense solver otherwise. (Before: block Krylov with
/// dense products on `2I − L`, the shift scikit-learn uses for ARPACK; 2.4× slower on digits.)
fn smallest_eigenpairs<F: Float>(lap: &Array2<F>, m: usize) -> Result<(Array1<F>, Array2<F>)> {
    let n = lap.nrows();
    if n > 500 && 5 * m <= n {
        let tol = F::cast(1e-10).max(F::epsilon() * F::cast(10.0));
        let bound = F::cast(2e-9).max(F::epsilon() * F::cast(200.0));
        let found = linalg::eigsh_smallest_psd(lap, m, F::cast(1e-3), tol, 100, 0);
        if let Ok(r) = found {
            if r.converged && r.max_residual <= bound {
                return Ok((r.values, r.vectors));
            }
        }
    }
    linalg::eigh_range(lap, 0..m)
}

/// Number of connected components of the graph with an edge wherever `W_ij > 0`.
fn components<F: Float>(w: &Array2<F>) -> Result<usize> {
    let rows = w
        .rows()
        .into_iter()
        .map(|r| {
            r.iter()
                .enumerate()
                .filter(|(_, v)| **v > F::zero())
                .map(|(j, &v)| (j, v))
                .collect()
        })
        .collect();
    Ok(CsrGraph::from_adjacency(w.nrows(), rows)?
        .connected_components()
        .0)
}

/// A fitted [`SpectralEmbedding`]. For data input it keeps a copy of the training rows
/// (`n × d`), from which `transform` computes the affinities of new points.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSpectralEmbedding<F: Float> {
    params: SpectralEmbedding,
    n_input: usize,
    embedding: Array2<F>,
    eigenvalues: Array1<F>,
    n_connected: usize,
    affinity: Resolved,
    train: Option<Array2<F>>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedSpectralEmbedding<F> {
    fn n_features_in(&self) -> usize {
        self.n_input
    }
}

impl<F: Float> FittedSpectralEmbedding<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &SpectralEmbedding {
        &self.params
    }
    /// The embedding of the training points (`n × k`; scikit-learn's `embedding_`).
    pub fn embedding(&self) -> &Array2<F> {
        &self.embedding
    }
    /// The `k + 1` smallest eigenvalues of the normalised Laplacian, ascending (the first, ≈ 0,
    /// belongs to the dropped trivial vector).
    pub fn eigenvalues(&self) -> &Array1<F> {
        &self.eigenvalues
    }
    /// Embedding dimension `k`.
    pub fn n_components(&self) -> usize {
        self.embedding.ncols()
    }
    /// Connected components of the affinity graph.
    pub fn n_connected_components(&self) -> usize {
        self.n_connected
    }
    /// Whether the affinity graph is connected (scikit-learn warns when it is not).
    pub fn is_connected(&self) -> bool {
        self.n_connected == 1
    }
    /// The number of neighbours used by the kNN affinity (scikit-learn's `n_neighbors_`).
    pub fn n_neighbors(&self) -> Option<usize> {
        match self.affinity {
            Resolved::Knn(k) => Some(k),
            _ => None,
        }
    }
    /// The `γ` used by the RBF affinity (scikit-learn's `gamma_`).
    pub fn gamma(&self) -> Option<f64> {
        match self.affinity {
            Resolved::Rbf(g) => Some(g),
            _ => None,
        }
    }
    /// Columns `transform` expects: the feature count, or the number of training points for a
    /// precomputed affinity.
    pub fn n_input_columns(&self) -> usize {
        self.n_input
    }

    /// Affinities of new rows to the training points (`m × n`).
    fn affinities(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let Some(train) = &self.train else {
            check_non_negative(x, "x")?;
            return Ok(x.to_owned());
        };
        match self.affinity {
            Resolved::Knn(nn) => {
                let d2 = pairwise_sq_euclidean(x, train)?;
                let mut w = Array2::<F>::zeros(d2.dim());
                let mut order: Vec<usize> = Vec::with_capacity(d2.ncols());
                for (row, mut out) in d2.rows().into_iter().zip(w.rows_mut()) {
                    order.clear();
                    order.extend(0..row.len());
                    let key = |&j: &usize| (row[j], j);
                    let cmp = |a: &usize, b: &usize| {
                        let (da, ia) = key(a);
                        let (db, ib) = key(b);
                        da.partial_cmp(&db)
                            .unwrap_or(std::cmp::Ordering::Equal)
                            .then(ia.cmp(&ib))
                    };
                    let take = nn.min(order.len());
                    if take < order.len() {
                        order.select_nth_unstable_by(take, cmp);
                    }
                    for &j in &order[..take] {
                        out[j] = F::one();
                    }
                }
                Ok(w)
            }
            Resolved::Rbf(gamma) => Kernel::Rbf { gamma }.cross_gram(x, train),
            Resolved::Epsilon(eps) => {
                let d = pairwise_distances(x, train, &Metric::Euclidean)?;
                let e = F::cast(eps);
                Ok(d.mapv(|v| if v <= e { F::one() } else { F::zero() }))
            }
            Resolved::Precomputed => {
                check_non_negative(x, "x")?;
                Ok(x.to_owned())
            }
        }
    }
}

impl<F: Float> Transform<F> for FittedSpectralEmbedding<F> {
    /// The Nyström extension (see the [module docs](self)): data rows, or rows of affinities to
    /// the training points for [`SpectralAffinity::Precomputed`].
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.n_input,
            "SpectralEmbedding: number of input columns",
        )?;
        let w = self.affinities(x)?;
        let mut z = w.dot(&self.embedding);
        let tiny = F::cast(1e-12);
        let shrink: Vec<F> = self
            .eigenvalues
            .iter()
            .skip(1)
            .map(|&l| {
                let g = F::one() - l;
                if g.abs() > tiny {
                    F::one() / g
                } else {
                    F::zero()
                }
            })
            .collect();
        for (mut row, deg) in z.rows_mut().into_iter().zip(w.sum_axis(Axis(1))) {
            if deg > F::zero() && deg.is_finite() {
                for (v, &s) in row.iter_mut().zip(&shrink) {
                    *v = *v * s / deg;
                }
            } else {
                row.fill(F::zero());
            }
        }
        Ok(z)
    }
}

impl<F: Float> CheckModel for FittedSpectralEmbedding<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSpectralEmbedding");
        c.params(&self.params)?;
        let (n, k) = self.embedding.dim();
        c.len("embedding (columns)", k, self.params.n_components)?;
        c.that(k < n, || format!("{k} components of {n} training points"))?;
        c.finite("embedding", &self.embedding)?;
        c.len("eigenvalues", self.eigenvalues.len(), k + 1)?;
        c.finite("eigenvalues", &self.eigenvalues)?;
        c.that((1..=n).contains(&self.n_connected), || {
            format!("`n_connected` must lie in 1..={n}")
        })?;
        let d = self.n_input;
        c.at_least("n_input", d, 1)?;
        let resolved_ok = match (self.params.affinity, self.affinity) {
            (SpectralAffinity::NearestNeighbors { n_neighbors }, Resolved::Knn(nn)) => {
                (1..=n).contains(&nn) && n_neighbors.is_none_or(|want| want == nn)
            }
            (SpectralAffinity::Rbf { gamma }, Resolved::Rbf(g)) => {
                g.is_finite() && g > 0.0 && gamma.is_none_or(|want| want == g)
            }
            (SpectralAffinity::Epsilon { eps }, Resolved::Epsilon(e)) => eps == e,
            (SpectralAffinity::Precomputed, Resolved::Precomputed) => true,
            _ => false,
        };
        c.that(resolved_ok, || {
            "the resolved affinity does not match `affinity`".into()
        })?;
        match (&self.train, self.affinity) {
            (None, Resolved::Precomputed) => c.len("n_input (training points)", d, n),
            (Some(train), Resolved::Knn(_) | Resolved::Rbf(_) | Resolved::Epsilon(_)) => {
                c.shape("train", train.dim(), (n, d))?;
                c.finite("train", train)
            }
            _ => Err(c.error("training rows must be stored exactly for data input")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn shift_invert_pairs_match_the_dense_solver_above_500_points() {
        // a normalised Laplacian of 640 points on two noisy rings (kNN connectivity)
        let n = 640;
        let x = Array2::from_shape_fn((n, 2), |(i, j)| {
            let t = i as f64 * 0.173;
            let r = if i % 2 == 0 { 1.0 } else { 2.5 } + 0.05 * ((i * 31 % 17) as f64 / 17.0);
            if j == 0 { r * t.cos() } else { r * t.sin() }
        });
        let g = kneighbors_graph(&x, 8, &Metric::Euclidean, true).expect("graph");
        let w = symmetrise(g.to_connectivity().to_dense());
        let lap = laplacian(&w, LaplacianKind::Symmetric).expect("laplacian");
        let m = 6;
        // the shift-invert solver is accepted here (not the dense fallback)
        let r = linalg::eigsh_smallest_psd(&lap, m, 1e-3, 1e-10, 100, 0).expect("solver");
        assert!(r.converged && r.max_residual <= 2e-9, "{}", r.max_residual);
        let (vals, vecs) = smallest_eigenpairs(&lap, m).expect("shift-invert");
        assert_eq!(vals, r.values);
        let (dv, dvec) = linalg::eigh_range(&lap, 0..m + 1).expect("dense");
        for j in 0..m {
            assert!(
                (vals[j] - dv[j]).abs() < 1e-9,
                "λ_{j}: {} vs {}",
                vals[j],
                dv[j]
            );
            let gap = (if j == 0 {
                f64::INFINITY
            } else {
                dv[j] - dv[j - 1]
            })
            .min(dv[j + 1] - dv[j]);
            if gap > 1e-6 {
                let dot = vecs.column(j).dot(&dvec.column(j)).abs();
                assert!((dot - 1.0).abs() < 1e-8, "eigenvector {j}: {dot}");
            }
        }
    }

    #[test]
    fn check_model_accepts_a_fit_and_rejects_short_training_rows() {
        let x = array![
            [0.0f64, 1.0],
            [1.0, 0.0],
            [2.0, 2.0],
            [3.0, 1.0],
            [0.5, 2.5]
        ];
        let mut m: FittedSpectralEmbedding<f64> = SpectralEmbedding::new(1)
            .affinity(SpectralAffinity::Rbf { gamma: None })
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.train = m.train.map(|t| t.slice(s![1.., ..]).to_owned());
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn invalid_hyperparameters() {
        let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]];
        assert!(SpectralEmbedding::new(0).validate().is_err());
        let bad = |a| SpectralEmbedding::new(1).affinity(a).validate().is_err();
        assert!(bad(SpectralAffinity::NearestNeighbors {
            n_neighbors: Some(0)
        }));
        assert!(bad(SpectralAffinity::Rbf { gamma: Some(-1.0) }));
        assert!(bad(SpectralAffinity::Epsilon { eps: 0.0 }));
        assert!(bad(SpectralAffinity::Epsilon { eps: f64::NAN }));
        let too_many = SpectralEmbedding::new(1).affinity(SpectralAffinity::NearestNeighbors {
            n_neighbors: Some(5),
        });
        assert!(FitUnsupervised::<f64>::fit(&too_many, &x).is_err());
        assert!(FitUnsupervised::<f64>::fit(&SpectralEmbedding::new(4), &x).is_err());
    }

    #[test]
    fn path_graph_by_hand() {
        // W of the path 0 – 1 – 2 – 3 (unit weights): degrees 1, 2, 2, 1
        let w = array![
            [0.0f64, 1.0, 0.0, 0.0],
            [1.0, 0.0, 1.0, 0.0],
            [0.0, 1.0, 0.0, 1.0],
            [0.0, 0.0, 1.0, 0.0]
        ];
        let m: FittedSpectralEmbedding<f64> = SpectralEmbedding::new(1)
            .affinity(SpectralAffinity::Precomputed)
            .fit(&w)
            .expect("fit");
        // (D − W) u = λ D u: the Fiedler vector of a path is monotone and antisymmetric
        let u = m.embedding().column(0).to_owned();
        assert!((u[0] + u[3]).abs() < 1e-12 && (u[1] + u[2]).abs() < 1e-12);
        assert!(u[0] > u[1] && u[1] > 0.0);
        let l = m.eigenvalues()[1];
        let d = [1.0, 2.0, 2.0, 1.0];
        for i in 0..4 {
            let wu: f64 = (0..4).map(|j| w[[i, j]] * u[j]).sum();
            assert!((d[i] * u[i] - wu - l * d[i] * u[i]).abs() < 1e-12);
        }
        assert!(m.is_connected());
    }
}
