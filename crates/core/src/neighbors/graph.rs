//! Neighbourhood graphs for spectral methods: kNN graph and ε-graph as a sparse adjacency.
//!
//! [`CsrGraph`] is a compressed-sparse-row adjacency (`indptr`, `indices`, `data`, as
//! scipy's `csr_matrix`): the neighbours of node `i` are `indices[indptr[i]..indptr[i + 1]]`,
//! **sorted by column index**, with weights `data[..]` (the distances, as returned by the
//! builders; map them to similarities with [`CsrGraph::map_weights`], e.g.
//! `exp(−d²/σ)` as in the course notes, or to 1 with [`CsrGraph::to_connectivity`]).
//!
//! * [`kneighbors_graph`]: edge `i → j` when `j` is one of the `k` nearest neighbours of `i`
//!   (directed; ties by lower index). The course notes' symmetric kNN graph ("edge (i, j) if
//!   either point is among the other's K nearest") is `.symmetrize(Symmetrize::Union)`; the
//!   mutual kNN graph is `Symmetrize::Mutual` (both as in von Luxburg, "A tutorial on spectral
//!   clustering", Statistics and Computing 17(4), 2007).
//! * [`epsilon_graph`]: edge `i – j` when `d(xᵢ, xⱼ) ≤ ε` (the course notes' `η(s) = 1_{0≤s≤ε}`;
//!   von Luxburg 2007); symmetric for symmetric metrics.
//!
//! Self-loops are left out unless `include_self` is set.

use ndarray::{Array1, Array2, ArrayRef2};

use super::{Algorithm, DEFAULT_LEAF_SIZE, NeighborIndex};
use crate::distance::Metric;
use crate::{Error, Float, Result};

/// How to make a directed graph undirected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Symmetrize {
    /// Edge `i – j` if `i → j` **or** `j → i` (the course notes' symmetric kNN graph).
    Union,
    /// Edge `i – j` if `i → j` **and** `j → i` (mutual kNN graph).
    Mutual,
}

/// Square sparse adjacency matrix in CSR form (see the module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CsrGraph<F> {
    n: usize,
    indptr: Vec<usize>,
    indices: Vec<usize>,
    data: Vec<F>,
}

impl<F: Float> CsrGraph<F> {
    /// Builds a graph on `n` nodes from one list of `(neighbour, weight)` per node. Lists are
    /// sorted by neighbour.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] if there are not `n` lists; [`Error::InvalidParam`] for a
    /// neighbour `≥ n` or a repeated neighbour.
    pub fn from_adjacency(n: usize, rows: Vec<Vec<(usize, F)>>) -> Result<Self> {
        if rows.len() != n {
            return Err(Error::ShapeMismatch {
                context: "CsrGraph::from_adjacency",
                expected: format!("{n} adjacency lists"),
                found: format!("{}", rows.len()),
            });
        }
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::new();
        let mut data = Vec::new();
        indptr.push(0);
        for (i, mut row) in rows.into_iter().enumerate() {
            row.sort_unstable_by_key(|&(j, _)| j);
            for w in row.windows(2) {
                if w[0].0 == w[1].0 {
                    return Err(Error::invalid_param(
                        "rows",
                        format!("node {i} lists neighbour {} twice", w[0].0),
                    ));
                }
            }
            for (j, v) in row {
                if j >= n {
                    return Err(Error::invalid_param(
                        "rows",
                        format!("node {i} has neighbour {j} outside 0..{n}"),
                    ));
                }
                indices.push(j);
                data.push(v);
            }
            indptr.push(indices.len());
        }
        Ok(Self {
            n,
            indptr,
            indices,
            data,
        })
    }

    /// Number of nodes.
    pub fn n_nodes(&self) -> usize {
        self.n
    }

    /// Number of stored (directed) edges.
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Row pointers (`n + 1` entries).
    pub fn indptr(&self) -> &[usize] {
        &self.indptr
    }

    /// Column indices of all edges, row by row.
    pub fn indices(&self) -> &[usize] {
        &self.indices
    }

    /// Edge weights, aligned with [`Self::indices`].
    pub fn data(&self) -> &[F] {
        &self.data
    }

    /// Neighbours and weights of node `i` (empty for `i ≥ n`).
    pub fn row(&self, i: usize) -> (&[usize], &[F]) {
        if i >= self.n {
            return (&[], &[]);
        }
        let r = self.indptr[i]..self.indptr[i + 1];
        (&self.indices[r.clone()], &self.data[r])
    }

    /// The weight of edge `i → j`, if present.
    pub fn weight(&self, i: usize, j: usize) -> Option<F> {
        let (idx, w) = self.row(i);
        idx.binary_search(&j).ok().map(|p| w[p])
    }

    /// `true` when every edge `i → j` has a reverse `j → i` of the same weight.
    pub fn is_symmetric(&self) -> bool {
        (0..self.n).all(|i| {
            let (idx, w) = self.row(i);
            idx.iter()
                .zip(w)
                .all(|(&j, &v)| self.weight(j, i) == Some(v))
        })
    }

    /// The undirected version: [`Symmetrize::Union`] keeps an edge present in either
    /// direction, [`Symmetrize::Mutual`] one present in both; the weight of `i – j` is the
    /// smaller of the two directed weights when both exist (they are equal for a symmetric
    /// metric).
    pub fn symmetrize(&self, how: Symmetrize) -> Self {
        let mut rows: Vec<Vec<(usize, F)>> = vec![Vec::new(); self.n];
        for i in 0..self.n {
            let (idx, w) = self.row(i);
            for (&j, &v) in idx.iter().zip(w) {
                match (self.weight(j, i), how) {
                    (Some(back), _) => rows[i].push((j, v.min(back))),
                    (None, Symmetrize::Union) => {
                        rows[i].push((j, v));
                        rows[j].push((i, v));
                    }
                    (None, Symmetrize::Mutual) => {}
                }
            }
        }
        // Each list is duplicate-free: (i, j) is added from row i only when j → i is absent
        // (then j's own row never adds it) or from row i's own edge.
        let mut indptr = Vec::with_capacity(self.n + 1);
        let mut indices = Vec::new();
        let mut data = Vec::new();
        indptr.push(0);
        for mut row in rows {
            row.sort_unstable_by_key(|&(j, _)| j);
            for (j, v) in row {
                indices.push(j);
                data.push(v);
            }
            indptr.push(indices.len());
        }
        Self {
            n: self.n,
            indptr,
            indices,
            data,
        }
    }

    /// The same edges with weight 1.
    pub fn to_connectivity(&self) -> Self {
        self.map_weights(|_| F::one())
    }

    /// The same edges with weights `f(w)` (e.g. `|d| (−d * d / sigma).exp()` for Gaussian
    /// similarities).
    pub fn map_weights(&self, f: impl Fn(F) -> F) -> Self {
        Self {
            n: self.n,
            indptr: self.indptr.clone(),
            indices: self.indices.clone(),
            data: self.data.iter().map(|&v| f(v)).collect(),
        }
    }

    /// Dense `n × n` matrix (absent edges are 0).
    pub fn to_dense(&self) -> Array2<F> {
        let mut a = Array2::zeros((self.n, self.n));
        for i in 0..self.n {
            let (idx, w) = self.row(i);
            for (&j, &v) in idx.iter().zip(w) {
                a[[i, j]] = v;
            }
        }
        a
    }

    /// Row sums of the weights (the degrees `D_ii = Σ_j W_ij` of a similarity graph).
    pub fn degrees(&self) -> Array1<F> {
        (0..self.n)
            .map(|i| self.row(i).1.iter().copied().sum())
            .collect()
    }
}

/// Which graph Laplacian [`laplacian`] builds (`W` the symmetric weights, `D` the degrees).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LaplacianKind {
    /// `L = D − W` (the course notes' Laplacian; von Luxburg, Statistics and Computing 17(4),
    /// 2007).
    #[default]
    Unnormalized,
    /// `L_sym = I − D^{−½} W D^{−½}` (Ng, Jordan & Weiss).
    Symmetric,
    /// `L_rw = I − D⁻¹ W` (Shi & Malik; not symmetric).
    RandomWalk,
}

/// The graph Laplacian of a symmetric, non-negative weight matrix `w` (dense `n × n`; the
/// diagonal is ignored, as self-loops do not change `D − W`'s quadratic form).
///
/// `xᵀ(D − W)x = ½ Σ_ij w_ij (x_i − x_j)²` (Prop 3.2.2), so `D − W` is symmetric positive
/// semi-definite with `L 1 = 0`. An isolated node (degree 0) gets a zero row in the normalised
/// forms (`D^{−½}` taken as 0 there).
///
/// ```
/// use ndlearn_core::neighbors::{laplacian, LaplacianKind};
/// use ndlearn_core::ndarray::array;
///
/// // catalog test vector (the course notes' 3-node graph)
/// let w = array![[0.0f64, 2.0, 1.0], [2.0, 0.0, 3.0], [1.0, 3.0, 0.0]];
/// let l = laplacian(&w, LaplacianKind::Unnormalized)?;
/// assert_eq!(l, array![[3.0, -2.0, -1.0], [-2.0, 5.0, -3.0], [-1.0, -3.0, 4.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// [`Error::ShapeMismatch`] for a non-square matrix; [`Error::InvalidParam`] for negative,
/// non-finite or asymmetric weights.
pub fn laplacian<F: Float>(w: &ArrayRef2<F>, kind: LaplacianKind) -> Result<Array2<F>> {
    let n = w.nrows();
    if w.ncols() != n {
        return Err(Error::ShapeMismatch {
            context: "laplacian",
            expected: "a square weight matrix".into(),
            found: format!("{} x {}", w.nrows(), w.ncols()),
        });
    }
    for i in 0..n {
        for j in 0..n {
            let v = w[[i, j]];
            let tol = F::cast(1e-12) * v.abs().max(F::one());
            if !v.is_finite() || v < F::zero() || (v - w[[j, i]]).abs() > tol {
                return Err(Error::invalid_param(
                    "w",
                    format!(
                        "weights must be finite, non-negative and symmetric (entry ({i}, {j}))"
                    ),
                ));
            }
        }
    }
    let deg: Vec<F> = (0..n)
        .map(|i| (0..n).filter(|&j| j != i).map(|j| w[[i, j]]).sum())
        .collect();
    let mut l = Array2::zeros((n, n));
    for i in 0..n {
        for j in 0..n {
            let wij = if i == j { F::zero() } else { w[[i, j]] };
            l[[i, j]] = match kind {
                LaplacianKind::Unnormalized => {
                    if i == j {
                        deg[i]
                    } else {
                        -wij
                    }
                }
                LaplacianKind::Symmetric => {
                    let s = deg[i] * deg[j];
                    let off = if s > F::zero() {
                        wij / s.sqrt()
                    } else {
                        F::zero()
                    };
                    if i == j && deg[i] > F::zero() {
                        F::one() - off
                    } else {
                        -off
                    }
                }
                LaplacianKind::RandomWalk => {
                    let off = if deg[i] > F::zero() {
                        wij / deg[i]
                    } else {
                        F::zero()
                    };
                    if i == j && deg[i] > F::zero() {
                        F::one() - off
                    } else {
                        -off
                    }
                }
            };
        }
    }
    Ok(l)
}

impl<F: Float> CsrGraph<F> {
    /// The dense Laplacian of this graph's weights (see [`laplacian`]); symmetrise a directed
    /// kNN graph first.
    ///
    /// # Errors
    /// As [`laplacian`] (an asymmetric graph is an error).
    pub fn laplacian(&self, kind: LaplacianKind) -> Result<Array2<F>> {
        laplacian(&self.to_dense(), kind)
    }

    /// The Laplacian of this graph's weights as a sparse symmetric matrix: the entries of the
    /// dense [`laplacian`] (`kind` [`LaplacianKind::Unnormalized`] or
    /// [`LaplacianKind::Symmetric`]; self-loops ignored, isolated nodes get a zero row), with
    /// each weight taken as the mean of its two directions so the matrix is exactly symmetric
    /// (an edge without a reverse passes the symmetry test only with a weight within `10⁻¹²` of
    /// zero, and is then left out).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for [`LaplacianKind::RandomWalk`] (not symmetric), an edge
    /// without its reverse, reverse weights that differ by more than the dense
    /// [`laplacian`]'s tolerance, or negative or non-finite weights.
    pub fn laplacian_sparse(&self, kind: LaplacianKind) -> Result<crate::linalg::SymmetricCsr<F>> {
        if kind == LaplacianKind::RandomWalk {
            return Err(Error::invalid_param(
                "kind",
                "the random-walk Laplacian is not symmetric; use the symmetric one (same eigenvalues)",
            ));
        }
        let n = self.n;
        let mut sym: Vec<Vec<(usize, F)>> = Vec::with_capacity(n);
        for i in 0..n {
            let (idx, w) = self.row(i);
            let mut row = Vec::with_capacity(idx.len());
            for (&j, &v) in idx.iter().zip(w) {
                // a missing reverse counts as weight 0, as in the dense matrix
                let back = self.weight(j, i).unwrap_or_else(F::zero);
                let ok = v.is_finite()
                    && v >= F::zero()
                    && (v - back).abs() <= F::cast(1e-12) * v.abs().max(F::one());
                if !ok {
                    return Err(Error::invalid_param(
                        "w",
                        format!(
                            "weights must be finite, non-negative and symmetric (edge ({i}, {j}))"
                        ),
                    ));
                }
                // self-loops are checked but ignored; an edge whose reverse is absent (a weight
                // within the tolerance of 0) is dropped, so the pattern stays symmetric
                if j != i && self.weight(j, i).is_some() {
                    row.push((j, (v + back) * F::cast(0.5)));
                }
            }
            sym.push(row);
        }
        let deg: Vec<F> = sym
            .iter()
            .map(|r| r.iter().map(|&(_, v)| v).sum())
            .collect();
        let mut indptr = Vec::with_capacity(n + 1);
        let mut indices = Vec::with_capacity(self.nnz() + n);
        let mut data = Vec::with_capacity(self.nnz() + n);
        indptr.push(0);
        for (i, row) in sym.iter().enumerate() {
            let diag = match kind {
                LaplacianKind::Unnormalized => deg[i],
                _ if deg[i] > F::zero() => F::one(),
                _ => F::zero(),
            };
            let mut placed = false;
            for &(j, v) in row {
                if !placed && j > i {
                    indices.push(i);
                    data.push(diag);
                    placed = true;
                }
                let off = match kind {
                    LaplacianKind::Unnormalized => v,
                    _ => {
                        let s = deg[i] * deg[j];
                        if s > F::zero() {
                            v / s.sqrt()
                        } else {
                            F::zero()
                        }
                    }
                };
                indices.push(j);
                data.push(-off);
            }
            if !placed {
                indices.push(i);
                data.push(diag);
            }
            indptr.push(indices.len());
        }
        crate::linalg::SymmetricCsr::from_parts(n, indptr, indices, data)
    }

    /// Connected components (edges taken in either direction): the number of components and
    /// the component of every node, numbered in order of their lowest node.
    pub fn connected_components(&self) -> (usize, Vec<usize>) {
        let mut adj: Vec<Vec<usize>> = vec![Vec::new(); self.n];
        for i in 0..self.n {
            for &j in self.row(i).0 {
                adj[i].push(j);
                adj[j].push(i);
            }
        }
        let mut comp = vec![usize::MAX; self.n];
        let mut next = 0;
        for start in 0..self.n {
            if comp[start] != usize::MAX {
                continue;
            }
            comp[start] = next;
            let mut stack = vec![start];
            while let Some(v) = stack.pop() {
                for &u in &adj[v] {
                    if comp[u] == usize::MAX {
                        comp[u] = next;
                        stack.push(u);
                    }
                }
            }
            next += 1;
        }
        (next, comp)
    }
}

impl<F: Float> NeighborIndex<F> {
    /// Directed kNN graph of the training points, weighted by distance (see
    /// [`kneighbors_graph`]).
    pub fn kneighbors_graph(&self, k: usize, include_self: bool) -> Result<CsrGraph<F>> {
        let (dist, idx) = self.kneighbors_self(k, include_self)?;
        let rows = idx
            .rows()
            .into_iter()
            .zip(dist.rows())
            .map(|(i, d)| i.iter().copied().zip(d.iter().copied()).collect())
            .collect();
        CsrGraph::from_adjacency(self.n_samples(), rows)
    }

    /// ε-graph of the training points: edges between points at distance `≤ eps`, weighted by
    /// distance (see [`epsilon_graph`]).
    pub fn epsilon_graph(&self, eps: f64, include_self: bool) -> Result<CsrGraph<F>> {
        let data = self.data().clone();
        let lists = self.radius_neighbors(&*data, eps)?;
        let rows = lists
            .into_iter()
            .enumerate()
            .map(|(i, (d, idx))| {
                idx.into_iter()
                    .zip(d)
                    .filter(|&(j, _)| include_self || j != i)
                    .collect()
            })
            .collect();
        CsrGraph::from_adjacency(self.n_samples(), rows)
    }
}

/// Directed kNN graph of the rows of `x`: edge `i → j` (weight `d(xᵢ, xⱼ)`) for the `k`
/// nearest neighbours `j` of `i`. Without `include_self`, `i` itself is excluded
/// ([`NeighborIndex::kneighbors_self`]) and `k ≤ n − 1`. Symmetrise with
/// [`CsrGraph::symmetrize`].
///
/// ```
/// use ndlearn_core::distance::Metric;
/// use ndlearn_core::neighbors::{kneighbors_graph, Symmetrize};
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0], [1.0], [3.0], [10.0]];
/// let g = kneighbors_graph(&x, 1, &Metric::Euclidean, false)?;
/// assert_eq!(g.row(3).0, &[2]); // 10 → 3
/// assert_eq!(g.row(2).0, &[1]); // 3 → 1
/// let s = g.symmetrize(Symmetrize::Union);
/// assert_eq!(s.row(2).0, &[1, 3]);
/// assert!(s.is_symmetric());
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn kneighbors_graph<F: Float>(
    x: &ArrayRef2<F>,
    k: usize,
    metric: &Metric,
    include_self: bool,
) -> Result<CsrGraph<F>> {
    let index = NeighborIndex::build(
        x.to_owned(),
        metric.clone(),
        Algorithm::Auto,
        DEFAULT_LEAF_SIZE,
    )?;
    index.kneighbors_graph(k, include_self)
}

/// ε-graph of the rows of `x`: edge `i – j` (weight `d(xᵢ, xⱼ)`) when `d(xᵢ, xⱼ) ≤ eps`.
pub fn epsilon_graph<F: Float>(
    x: &ArrayRef2<F>,
    eps: f64,
    metric: &Metric,
    include_self: bool,
) -> Result<CsrGraph<F>> {
    let index = NeighborIndex::build(
        x.to_owned(),
        metric.clone(),
        Algorithm::Auto,
        DEFAULT_LEAF_SIZE,
    )?;
    index.epsilon_graph(eps, include_self)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn epsilon_graph_test_vector() {
        // Catalog TV19: ε = 3, ‖x − y‖ = 2 ⇒ W(x, y) = η(2) = 1 (2 ≤ 3);
        // a third point at distance 4 from x gets no edge to x.
        let x = array![[0.0, 0.0], [2.0, 0.0], [0.0, 4.0]];
        let w = epsilon_graph(&x, 3.0, &Metric::Euclidean, false)
            .expect("valid")
            .to_connectivity();
        assert_eq!(w.weight(0, 1), Some(1.0));
        assert_eq!(w.weight(1, 0), Some(1.0));
        assert_eq!(w.weight(0, 2), None);
        assert!(w.is_symmetric());
        let with_self = epsilon_graph(&x, 3.0, &Metric::Euclidean, true).expect("valid");
        assert_eq!(with_self.weight(2, 2), Some(0.0));
        assert_eq!(with_self.nnz(), 5);
    }

    #[test]
    fn knn_graph_union_mutual_and_weights() {
        let x = array![[0.0], [1.0], [3.0], [10.0]];
        let g = kneighbors_graph(&x, 1, &Metric::Euclidean, false).expect("valid");
        // 0 → 1, 1 → 0, 2 → 1, 3 → 2.
        assert_eq!(g.indices(), &[1, 0, 1, 2]);
        assert_eq!(g.data(), &[1.0, 1.0, 2.0, 7.0]);
        assert_eq!(g.indptr(), &[0, 1, 2, 3, 4]);
        assert!(!g.is_symmetric());
        let u = g.symmetrize(Symmetrize::Union);
        assert!(u.is_symmetric());
        assert_eq!(u.nnz(), 6);
        let m = g.symmetrize(Symmetrize::Mutual);
        assert_eq!(m.nnz(), 2); // only 0 – 1
        assert_eq!(m.degrees().to_vec(), vec![1.0, 1.0, 0.0, 0.0]);
        let gauss = u.map_weights(|d: f64| (-d * d / 2.0).exp());
        assert!((gauss.weight(2, 3).expect("edge") - (-24.5f64).exp()).abs() < 1e-15);
        let dense = u.to_connectivity().to_dense();
        assert_eq!(dense[[3, 2]], 1.0);
        assert_eq!(dense[[0, 3]], 0.0);
        let with_self = kneighbors_graph(&x, 1, &Metric::Euclidean, true).expect("valid");
        assert_eq!(with_self.indices(), &[0, 1, 2, 3]);
        assert!(kneighbors_graph(&x, 4, &Metric::Euclidean, false).is_err());
        assert_eq!(g.row(99).0.len(), 0);
    }

    #[test]
    fn sparse_laplacian_equals_the_dense_one() {
        let x = array![
            [0.0, 0.0],
            [1.0, 0.2],
            [3.0, 1.0],
            [10.0, 2.0],
            [10.5, 2.5],
            [40.0, 0.0]
        ];
        // node 5 isolated by a mutual graph; a self-loop on node 0 is ignored
        let g = kneighbors_graph(&x, 2, &Metric::Euclidean, false)
            .expect("valid")
            .symmetrize(Symmetrize::Mutual)
            .map_weights(|d: f64| (-d * d / 5.0).exp());
        let mut rows: Vec<Vec<(usize, f64)>> = (0..6)
            .map(|i| {
                g.row(i)
                    .0
                    .iter()
                    .copied()
                    .zip(g.row(i).1.iter().copied())
                    .collect()
            })
            .collect();
        rows[0].push((0, 3.0));
        let g = CsrGraph::from_adjacency(6, rows).expect("graph");
        for kind in [LaplacianKind::Unnormalized, LaplacianKind::Symmetric] {
            let sparse = g.laplacian_sparse(kind).expect("sparse").to_dense();
            let dense = g.laplacian(kind).expect("dense");
            assert!(
                (&sparse - &dense).iter().all(|v| v.abs() < 1e-15),
                "{kind:?}: {sparse:?} vs {dense:?}"
            );
        }
        assert!(g.laplacian_sparse(LaplacianKind::RandomWalk).is_err());
        // a directed edge, a negative weight
        let directed = CsrGraph::from_adjacency(2, vec![vec![(1, 1.0f64)], vec![]]).expect("ok");
        assert!(
            directed
                .laplacian_sparse(LaplacianKind::Unnormalized)
                .is_err()
        );
        let negative =
            CsrGraph::from_adjacency(2, vec![vec![(1, -1.0f64)], vec![(0, -1.0)]]).expect("ok");
        assert!(
            negative
                .laplacian_sparse(LaplacianKind::Unnormalized)
                .is_err()
        );
        // a negative self-loop is refused as by the dense Laplacian; a zero-weight edge
        // without its reverse is accepted and left out (the dense matrix holds 0 there)
        let bad_loop =
            CsrGraph::from_adjacency(2, vec![vec![(0, -1.0f64), (1, 1.0)], vec![(0, 1.0)]])
                .expect("ok");
        assert!(
            bad_loop
                .laplacian_sparse(LaplacianKind::Unnormalized)
                .is_err()
        );
        assert!(laplacian(&bad_loop.to_dense(), LaplacianKind::Unnormalized).is_err());
        let zero =
            CsrGraph::from_adjacency(3, vec![vec![(1, 1.0f64), (2, 0.0)], vec![(0, 1.0)], vec![]])
                .expect("ok");
        let sparse = zero
            .laplacian_sparse(LaplacianKind::Unnormalized)
            .expect("sparse");
        let dense = zero.laplacian(LaplacianKind::Unnormalized).expect("dense");
        assert_eq!(sparse.to_dense(), dense);
    }

    #[test]
    fn from_adjacency_errors() {
        assert!(CsrGraph::<f64>::from_adjacency(2, vec![vec![]]).is_err());
        assert!(CsrGraph::from_adjacency(2, vec![vec![(2, 1.0)], vec![]]).is_err());
        assert!(CsrGraph::from_adjacency(2, vec![vec![(1, 1.0), (1, 2.0)], vec![]]).is_err());
        let g = CsrGraph::from_adjacency(2, vec![vec![(1, 1.0)], vec![(0, 1.0)]]).expect("ok");
        assert!(g.is_symmetric());
        assert_eq!(g.n_nodes(), 2);
    }
}
