//! Exact nearest-neighbour search: k-nearest and radius queries, and neighbourhood graphs.
//!
//! [`NeighborIndex`] stores a training matrix and answers
//!
//! * [`NeighborIndex::kneighbors`]: the `k` nearest training rows of each query row
//!   ([`NeighborIndex::kneighbors_for_each`]: the same lists handed to a callback block by
//!   block, for predictors that reduce each list to a vote or a mean without the `n × k`
//!   matrices);
//! * [`NeighborIndex::radius_neighbors`]: every training row within distance `r` (`≤ r`);
//!
//! for any [`Metric`], with one of three exact algorithms:
//!
//! | [`Algorithm`] | metrics | build | query (low `d`) |
//! |---|---|---|---|
//! | `Brute` | all | `O(1)` (plus `O(n d)` caches) | `O(n d)` per query; a fused SIMD score kernel for (squared) Euclidean and cosine |
//! | `KdTree` | Minkowski family (Euclidean, squared Euclidean, Manhattan, Chebyshev, Minkowski) | `O(n log n · d)` | `≈ O(log n)` |
//! | `BallTree` | true metrics ([`Metric::is_true_metric`]) and squared Euclidean | `O(n log n · d)` | `≈ O(log n)` |
//! | `Auto` | all | see below | |
//!
//! **Results are exact and identical for every algorithm** (bit for bit, distances and
//! indices): every algorithm evaluates the same distance kernel on the same coordinates, tree
//! pruning uses bounds with a safety margin for rounding, and the fused brute-force path only
//! *pre-selects* candidates with a proven error bound and then recomputes their distances
//! directly. The test suite checks this against a plain brute-force scan.
//!
//! **Order and ties.** Neighbours are sorted by increasing distance; equal distances are
//! broken by the **lower training index** first (deterministic; scikit-learn leaves ties
//! unspecified). Comparisons use the reduced distance (e.g. the squared Euclidean distance),
//! so two neighbours whose reported distances round to the same value keep their exact order.
//!
//! **Querying the training set itself** returns each point as its own nearest neighbour (at
//! distance 0, after any duplicates of lower index). [`NeighborIndex::kneighbors_self`] with
//! `include_self = false` drops it.
//!
//! **Auto rule** (an implementation choice modelled on scikit-learn's rule of thumb): at build
//! time, a k-d tree if the metric is of the Minkowski family and `d ≤ 15`; otherwise a ball tree
//! if the metric is a true metric and `d ≤ 15`; otherwise brute force (cosine, `d > 15`). At
//! query time, a query with `k ≥ n / 2` runs brute force (trees do not pay off there).
//!
//! **Threads.** Queries run in parallel over fixed chunks of query rows (`crate::par`),
//! including the fused brute-force path (its score kernel is chosen at run time among AVX-512,
//! AVX2 + FMA, AVX and baseline builds; decision 0016). Results depend neither on the thread
//! count nor on the CPU.
//!
//! **Errors.** `k = 0` or `k > n` and a negative or NaN radius → [`Error::InvalidParam`];
//! wrong query width → [`Error::ShapeMismatch`]; NaN/∞ in the data or queries →
//! [`Error::NonFinite`]; an algorithm that does not support the metric →
//! [`Error::InvalidParam`].
//!
//! The graph builders ([`kneighbors_graph`], [`epsilon_graph`], [`CsrGraph`]) serve spectral
//! clustering (von Luxburg, "A tutorial on spectral clustering", Statistics and Computing
//! 17(4), 2007).
//!
//! References: the course notes' k-NN (keep the `k` smallest in a max-heap; Cover & Hart,
//! "Nearest neighbor pattern classification", IEEE Trans. Information Theory 13(1), 1967) and
//! kNN graph (von Luxburg 2007). k-d and ball trees are not in the course notes (catalog G-01 marks
//! them absent): Friedman, Bentley & Finkel (1977), "An algorithm for finding best matches in
//! logarithmic expected time"; Omohundro (1989), "Five balltree construction algorithms".

mod balltree;
mod brute;
mod graph;
mod heap;
mod kdtree;

pub use graph::{CsrGraph, LaplacianKind, Symmetrize, epsilon_graph, kneighbors_graph, laplacian};

use std::sync::{Arc, OnceLock};

use ndarray::{Array2, ArrayRef2, ArrayView2};

use crate::distance::Metric;
use crate::distance::kernels::Prepared;
use crate::validate::check_finite_2d;
use crate::{Error, Float, Result};
use heap::KBest;

/// Default number of points per tree leaf (scikit-learn's `leaf_size`).
pub const DEFAULT_LEAF_SIZE: usize = 30;

/// Query rows per parallel task of the tree and direct-brute paths.
const QUERY_CHUNK: usize = 32;

/// Smallest block of query rows [`NeighborIndex::kneighbors_for_each`] searches at once
/// (grown to 8 chunks per thread on wide machines).
pub const STREAM_ROWS: usize = 1024;

/// Search algorithm of a [`NeighborIndex`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Algorithm {
    /// Chosen from the metric and dimension (see the module docs).
    #[default]
    Auto,
    /// Scan every training point (fused SIMD pre-selection for (squared) Euclidean and cosine).
    Brute,
    /// k-d tree: median splits on the widest-spread coordinate, bounding-plane pruning.
    KdTree,
    /// Ball tree: median splits on the widest-spread coordinate, triangle-inequality pruning.
    BallTree,
}

/// A k-NN list per query row: `(distances, indices)`, both `n_queries × k`.
pub type KNeighbors<F> = (Array2<F>, Array2<usize>);

/// The radius neighbours of one query: `(distances, indices)`, sorted.
pub type RadiusNeighbors<F> = (Vec<F>, Vec<usize>);

#[derive(Debug, Clone)]
enum Tree<F: Float> {
    None,
    Kd(kdtree::KdTree<F>),
    Ball(balltree::BallTree<F>),
}

/// An exact nearest-neighbour index over the rows of a training matrix.
///
/// ```
/// use ndlearn_core::distance::Metric;
/// use ndlearn_core::neighbors::{Algorithm, NeighborIndex};
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0, 0.0], [1.0, 0.0], [0.0, 2.0], [5.0, 5.0]];
/// let index = NeighborIndex::build(x, Metric::Euclidean, Algorithm::KdTree, 30)?;
/// let (dist, idx) = index.kneighbors(&array![[0.9, 0.1]], 2)?;
/// assert_eq!(idx.row(0).to_vec(), vec![1, 0]);
/// assert!((dist[[0, 0]] - 0.1f64.hypot(0.1)).abs() < 1e-15);
/// let within = index.radius_neighbors(&array![[0.0, 0.0]], 1.0)?;
/// assert_eq!(within[0].1, vec![0, 1]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct NeighborIndex<F: Float> {
    data: Arc<Array2<F>>,
    metric: Metric,
    requested: Algorithm,
    algorithm: Algorithm,
    leaf_size: usize,
    kernel: Prepared<F>,
    tree: Tree<F>,
    brute_cache: OnceLock<brute::Cache<F>>,
}

impl<F: Float> NeighborIndex<F> {
    /// Builds an index with [`Algorithm::Auto`] and [`DEFAULT_LEAF_SIZE`].
    pub fn new(x: impl Into<Arc<Array2<F>>>, metric: Metric) -> Result<Self> {
        Self::build(x, metric, Algorithm::Auto, DEFAULT_LEAF_SIZE)
    }

    /// Builds an index over the rows of `x` (moved or shared through an `Arc`, never copied
    /// unless it is not in standard row-major layout).
    ///
    /// # Errors
    /// [`Error::TooFewSamples`] for an empty `x`; [`Error::ShapeMismatch`] for zero columns or a
    /// Mahalanobis `VI` of the wrong size; [`Error::NonFinite`]; [`Error::InvalidParam`] for
    /// `leaf_size = 0`, an invalid metric, or a tree that does not support the metric.
    pub fn build(
        x: impl Into<Arc<Array2<F>>>,
        metric: Metric,
        algorithm: Algorithm,
        leaf_size: usize,
    ) -> Result<Self> {
        let mut data: Arc<Array2<F>> = x.into();
        crate::validate::check_fit_input(&*data, 1, "NeighborIndex::build")?;
        metric.validate()?;
        metric.check_dim(data.ncols(), "NeighborIndex::build")?;
        if leaf_size == 0 {
            return Err(Error::invalid_param("leaf_size", "must be >= 1"));
        }
        if !data.is_standard_layout() {
            data = Arc::new(data.as_standard_layout().into_owned());
        }
        let d = data.ncols();
        let resolved = match algorithm {
            Algorithm::Auto => {
                if metric.is_minkowski_family() && d <= 15 {
                    Algorithm::KdTree
                } else if metric.is_true_metric() && d <= 15 {
                    Algorithm::BallTree
                } else {
                    Algorithm::Brute
                }
            }
            Algorithm::KdTree if !metric.is_minkowski_family() => {
                return Err(Error::invalid_param(
                    "algorithm",
                    format!(
                        "the k-d tree supports the Minkowski family only, not {}; use BallTree or Brute",
                        metric.name()
                    ),
                ));
            }
            Algorithm::BallTree if !(metric.is_true_metric() || metric == Metric::SqEuclidean) => {
                return Err(Error::invalid_param(
                    "algorithm",
                    format!(
                        "the ball tree needs a metric with the triangle inequality, not {}; use Brute",
                        metric.name()
                    ),
                ));
            }
            other => other,
        };
        let kernel = metric.prepare::<F>();
        let tree = match resolved {
            Algorithm::KdTree => Tree::Kd(kdtree::KdTree::build(&data, leaf_size, &kernel)),
            Algorithm::BallTree => Tree::Ball(balltree::BallTree::build(&data, leaf_size, &kernel)),
            _ => Tree::None,
        };
        let brute = matches!(tree, Tree::None);
        let index = Self {
            data,
            metric,
            requested: algorithm,
            algorithm: resolved,
            leaf_size,
            kernel,
            tree,
            brute_cache: OnceLock::new(),
        };
        // A brute-force index builds its query panels now, as a tree index builds its tree:
        // they belong to the fitted index (kept for every later query), so the first query
        // does not pay for them in time or peak memory.
        if brute {
            index.brute_cache();
        }
        Ok(index)
    }

    /// Number of training points `n`.
    pub fn n_samples(&self) -> usize {
        self.data.nrows()
    }

    /// Number of features `d`.
    pub fn n_features(&self) -> usize {
        self.data.ncols()
    }

    /// The metric.
    pub fn metric(&self) -> &Metric {
        &self.metric
    }

    /// The algorithm in use (never `Auto`: the resolved choice).
    pub fn algorithm(&self) -> Algorithm {
        self.algorithm
    }

    /// The leaf size.
    pub fn leaf_size(&self) -> usize {
        self.leaf_size
    }

    /// The training matrix.
    pub fn data(&self) -> &Arc<Array2<F>> {
        &self.data
    }

    fn check_queries(&self, q: &ArrayRef2<F>) -> Result<()> {
        if q.ncols() != self.n_features() {
            return Err(Error::ShapeMismatch {
                context: "NeighborIndex query",
                expected: format!("{} features (as the training data)", self.n_features()),
                found: format!("{} features", q.ncols()),
            });
        }
        check_finite_2d(q, "queries")
    }

    fn check_k(&self, k: usize) -> Result<()> {
        if k == 0 || k > self.n_samples() {
            return Err(Error::invalid_param(
                "k",
                format!("need 1 <= k <= n_samples = {}, got {k}", self.n_samples()),
            ));
        }
        Ok(())
    }

    fn use_brute(&self, k: Option<usize>) -> bool {
        match self.tree {
            Tree::None => true,
            _ => self.requested == Algorithm::Auto && k.is_some_and(|k| k >= self.n_samples() / 2),
        }
    }

    pub(crate) fn brute_cache(&self) -> &brute::Cache<F> {
        self.brute_cache
            .get_or_init(|| brute::Cache::new(&self.data, &self.kernel))
    }

    /// The `k` nearest training rows of every query row: `(distances, indices)`, each
    /// `n_queries × k`, sorted by increasing distance, ties by lower index.
    ///
    /// # Errors
    /// See the module docs.
    pub fn kneighbors(&self, queries: &ArrayRef2<F>, k: usize) -> Result<KNeighbors<F>> {
        let nq = queries.nrows();
        let mut dist = Array2::zeros((nq, k));
        let mut idx = Array2::zeros((nq, k));
        self.kneighbors_for_each(queries, k, |i, d, p| {
            for (o, &v) in dist.row_mut(i).iter_mut().zip(d) {
                *o = v;
            }
            for (o, &v) in idx.row_mut(i).iter_mut().zip(p) {
                *o = v;
            }
        })?;
        Ok((dist, idx))
    }

    /// Calls `f(i, distances, indices)` for every query row `i`, in row order, with its `k`
    /// nearest training rows as [`Self::kneighbors`] gives them (sorted by increasing
    /// distance, ties by lower index), without the `n_queries × k` result: the queries are
    /// searched in blocks of at least [`STREAM_ROWS`] rows (in parallel inside a block) and
    /// only one block's lists are alive at once. What predictors that reduce each
    /// neighbour list to a few numbers (a vote, a mean) use, so their peak memory is their
    /// output plus one block.
    ///
    /// # Errors
    /// As [`Self::kneighbors`].
    pub fn kneighbors_for_each<G>(&self, queries: &ArrayRef2<F>, k: usize, mut f: G) -> Result<()>
    where
        G: FnMut(usize, &[F], &[usize]),
    {
        self.check_k(k)?;
        self.check_queries(queries)?;
        let nq = queries.nrows();
        let block = STREAM_ROWS.max(QUERY_CHUNK * 8 * crate::par::current_num_threads());
        let (mut dist, mut idx) = (Vec::with_capacity(k), Vec::with_capacity(k));
        let mut start = 0;
        while start < nq {
            let end = (start + block).min(nq);
            let lists = self.knn_lists(&queries.slice(ndarray::s![start..end, ..]), k);
            for (i, list) in lists.into_iter().enumerate() {
                dist.clear();
                idx.clear();
                for &(r, p) in list.iter().take(k) {
                    dist.push(self.kernel.finalize(r));
                    idx.push(p);
                }
                f(start + i, &dist, &idx);
            }
            start = end;
        }
        Ok(())
    }

    /// Sorted `(reduced distance, index)` lists, one per query row.
    fn knn_lists(&self, queries: &ArrayRef2<F>, k: usize) -> Vec<Vec<(F, usize)>> {
        let q = queries.as_standard_layout();
        let q = q.view();
        if self.use_brute(Some(k)) {
            return brute::knn(self, q, k);
        }
        self.per_query(q, |row, out, heap: &mut Option<KBest<F>>| {
            let h = heap.get_or_insert_with(|| KBest::new(k));
            h.clear();
            match &self.tree {
                Tree::Kd(t) => t.knn(row, &self.kernel, h),
                Tree::Ball(t) => t.knn(row, &self.kernel, h),
                Tree::None => {}
            }
            *out = h.sorted();
        })
    }

    /// Runs `f(query_row, output, heap_slot)` for every query row, in parallel over fixed
    /// chunks (the heap slot is reused across the rows of a chunk).
    fn per_query<G>(&self, q: ArrayView2<'_, F>, f: G) -> Vec<Vec<(F, usize)>>
    where
        G: Fn(&[F], &mut Vec<(F, usize)>, &mut Option<KBest<F>>) + Sync + Send,
    {
        let d = q.ncols();
        let Some(qs) = q.to_slice() else {
            return Vec::new();
        };
        let chunks = crate::par::map_chunks(q.nrows(), QUERY_CHUNK, |r| {
            let mut heap = None;
            r.map(|i| {
                let mut out = Vec::new();
                f(&qs[i * d..(i + 1) * d], &mut out, &mut heap);
                out
            })
            .collect::<Vec<_>>()
        });
        chunks.into_iter().flatten().collect()
    }

    /// Every training row within distance `r` (`d ≤ r`) of each query row, sorted by
    /// increasing distance, ties by lower index.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] if `r` is negative or NaN; see the module docs for the others.
    pub fn radius_neighbors(
        &self,
        queries: &ArrayRef2<F>,
        r: f64,
    ) -> Result<Vec<RadiusNeighbors<F>>> {
        Ok(self
            .radius_lists(queries, r, true)?
            .into_iter()
            .map(|list| {
                let (d, i): (Vec<F>, Vec<usize>) = list
                    .into_iter()
                    .map(|(rd, p)| (self.kernel.finalize(rd), p))
                    .unzip();
                (d, i)
            })
            .collect())
    }

    /// `(reduced distance, index)` lists of the rows within `r` of each query; sorted by
    /// `(distance, index)` when `sorted` (the brute-force path always sorts).
    fn radius_lists(
        &self,
        queries: &ArrayRef2<F>,
        r: f64,
        sorted: bool,
    ) -> Result<Vec<Vec<(F, usize)>>> {
        if r.is_nan() || r < 0.0 {
            return Err(Error::invalid_param(
                "r",
                format!("radius must be >= 0, got {r}"),
            ));
        }
        self.check_queries(queries)?;
        let rf = F::cast(r);
        let q = queries.as_standard_layout();
        let q = q.view();
        Ok(if self.use_brute(None) {
            brute::radius(self, q, rf)
        } else {
            let r_red = self.kernel.reduced_upper(rf);
            self.per_query(q, |row, out, _| {
                match &self.tree {
                    Tree::Kd(t) => t.radius(row, &self.kernel, rf, r_red, out),
                    Tree::Ball(t) => t.radius(row, &self.kernel, rf, out),
                    Tree::None => {}
                }
                if sorted {
                    heap::sort_pairs(out);
                }
            })
        })
    }

    /// The indices of every training row within distance `r` of each query row, in increasing
    /// index order, without distances: what density-based methods (DBSCAN) need, and cheaper
    /// than [`Self::radius_neighbors`] (no distance sort, no second list).
    ///
    /// # Errors
    /// As [`Self::radius_neighbors`].
    pub fn radius_neighbor_indices(
        &self,
        queries: &ArrayRef2<F>,
        r: f64,
    ) -> Result<Vec<Vec<usize>>> {
        Ok(self
            .radius_lists(queries, r, false)?
            .into_iter()
            .map(|list| {
                let mut idx: Vec<usize> = list.into_iter().map(|(_, p)| p).collect();
                idx.sort_unstable();
                idx
            })
            .collect())
    }

    /// k-NN of the training points themselves. With `include_self = true` this is
    /// `kneighbors(data, k)` (each point is its own first neighbour, after duplicates of lower
    /// index); with `include_self = false` each point's own index is removed (it is requested
    /// `k + 1` neighbours; if its own index is not among them, because more than `k`
    /// duplicates precede it, the last one is dropped), so `k ≤ n − 1`.
    pub fn kneighbors_self(&self, k: usize, include_self: bool) -> Result<KNeighbors<F>> {
        if include_self {
            return self.kneighbors(&*self.data.clone(), k);
        }
        if k == 0 || k >= self.n_samples() {
            return Err(Error::invalid_param(
                "k",
                format!(
                    "need 1 <= k <= n_samples - 1 = {} without self, got {k}",
                    self.n_samples().saturating_sub(1)
                ),
            ));
        }
        let data = self.data.clone();
        let n = data.nrows();
        let mut dist = Array2::zeros((n, k));
        let mut idx = Array2::zeros((n, k));
        self.kneighbors_for_each(&*data, k + 1, |i, d, p| {
            // drop the point itself, or the last neighbour if more than `k` duplicates of
            // lower index precede it
            let skip = p.iter().position(|&j| j == i).unwrap_or(k);
            let kept = (0..=k).filter(|&t| t != skip);
            for (o, t) in kept.enumerate() {
                dist[[i, o]] = d[t];
                idx[[i, o]] = p[t];
            }
        })?;
        Ok((dist, idx))
    }
}

#[cfg(test)]
mod tests;
