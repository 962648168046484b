//! Agglomerative (bottom-up hierarchical) clustering ([`Agglomerative`], scikit-learn's
//! `AgglomerativeClustering`; the merge tree as [`Dendrogram`], scipy's `linkage`; catalog
//! CL-150).
//!
//! # Method
//!
//! Start from singletons and repeatedly merge the two clusters with the smallest linkage
//! distance `D(C, C')` (Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*,
//! 2nd ed. (2009), §14.3.12) until one cluster remains; the sequence of merges with
//! their heights is the **dendrogram**, and cutting it gives a flat partition. Linkages
//! ([`Linkage`]):
//!
//! | linkage | `D(C, C')` | algorithm here (memory) |
//! |---|---|---|
//! | single | `min d(x, x')` | Prim's minimum spanning tree (`O(n)`, or the given matrix) |
//! | complete | `max d(x, x')` | nearest-neighbour chain on the condensed distance matrix (`n(n−1)/2` values) |
//! | average | `(1/(|C||C'|)) Σ d(x, x')` | nearest-neighbour chain on the condensed matrix |
//! | ward | `√(2|C||C'|/(|C|+|C'|)) ‖μ_C − μ_{C'}‖` | nearest-neighbour chain on the centroids (`O(n d)`); with ≥ 32 features and ≤ 8,000 rows, on the condensed matrix |
//!
//! All four are *reducible* linkages, so the nearest-neighbour chain (follow nearest
//! neighbours until two clusters are each other's nearest, merge them; Murtagh 1983) finds the
//! same hierarchy as the naive `O(n³)` loop of the course notes in `O(n²)` time. Ward's height is the
//! one scipy reports (the Lance–Williams recursion of the Euclidean distance; for two points it
//! is their distance): computed from centroids and sizes it needs no distance matrix, so 20,000
//! points take a few megabytes instead of scipy's 1.6 GB. Complete and average linkage accept
//! any core [`Metric`] or a precomputed dissimilarity matrix
//! ([`Agglomerative::fit_precomputed`]; the course notes: "needs only dissimilarities").
//!
//! The merges are then ordered by height (stable) and numbered as scipy numbers them: leaves
//! `0..n`, the cluster formed by merge `i` is `n + i`, each row `[a, b, height, size]` with
//! `a < b` ([`Dendrogram::linkage_matrix`] equals `scipy.cluster.hierarchy.linkage` up to the
//! order of merges at exactly equal heights).
//!
//! **Cuts.** [`Dendrogram::cut_n_clusters`] applies the first `n − k` merges;
//! [`Dendrogram::cut_height`] the merges of height `≤ t` (scipy's `fcluster(criterion =
//! "distance")`); [`Agglomerative`] with `distance_threshold` keeps the merges strictly below it
//! (scikit-learn). Flat labels are numbered in order of first appearance over the rows (row 0
//! is in cluster 0). [`Dendrogram::to_svg`] draws the tree.
//!
//! `predict` on new rows (scikit-learn's estimator has none) gives the cluster of the nearest
//! training row.
//!
//! ```
//! use ndlearn_cluster::{Agglomerative, Linkage};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::FitUnsupervised;
//!
//! let x = array![[0.0f64], [1.0], [5.0], [6.5], [20.0]];
//! let m = Agglomerative::new(3).linkage(Linkage::Single).fit(&x)?;
//! assert_eq!(m.labels().to_vec(), vec![0, 0, 1, 1, 2]);
//! let z = m.dendrogram().linkage_matrix();
//! assert_eq!(z.row(0).to_vec(), vec![0.0, 1.0, 1.0, 2.0]); // leaves 0 and 1 at height 1
//! assert_eq!(z.row(1).to_vec(), vec![2.0, 3.0, 1.5, 2.0]);
//! assert_eq!(z.row(2).to_vec(), vec![5.0, 6.0, 4.0, 4.0]); // clusters 5 = {0,1}, 6 = {2,3}
//! assert_eq!(m.dendrogram().cut_height(1.2).to_vec(), vec![0, 0, 1, 2, 3]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::fmt::Write as _;

use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::Estimator;
use ndlearn_core::distance::Metric;
use ndlearn_core::validate::{ModelCheck, check_fit_input};
use ndlearn_core::{CheckModel, Error, FitUnsupervised, Float, Predict, Result, par};

/// Rows per parallel task when scanning distances.
const SCAN_CHUNK: usize = 4096;

/// Ward switches from centroids to the condensed matrix from this many features…
const WARD_MATRIX_MIN_D: usize = 32;
/// …when the rows are at most this many (a matrix of at most 256 MB).
const WARD_MATRIX_MAX_N: usize = 8000;

/// Condensed distance matrix of the rows under `metric` (rows in parallel).
///
/// # Errors
/// [`Error::InvalidParam`] when a distance overflows.
fn condensed<F: Float>(x: &ArrayRef2<F>, metric: &Metric) -> Result<Vec<f64>> {
    let n = x.nrows();
    let data = x.as_standard_layout();
    let rows: Vec<Vec<f64>> = par::map_tasks(n, |i| {
        let a = data.row(i);
        ((i + 1)..n)
            .map(|j| {
                metric
                    .distance(&a, &data.row(j))
                    .to_f64()
                    .unwrap_or(f64::NAN)
            })
            .collect()
    });
    let dm: Vec<f64> = rows.into_iter().flatten().collect();
    if dm.iter().any(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "x",
            "pairwise distances overflow; rescale the features",
        ));
    }
    Ok(dm)
}

/// The linkage criterion of [`Agglomerative`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Linkage {
    /// Ward's minimum-variance criterion (Euclidean only; default, as scikit-learn).
    #[default]
    Ward,
    /// Largest pairwise dissimilarity.
    Complete,
    /// Mean pairwise dissimilarity (UPGMA).
    Average,
    /// Smallest pairwise dissimilarity.
    Single,
}

/// One merge of a [`Dendrogram`], numbered as scipy numbers them.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Merge {
    /// The smaller of the two merged cluster ids (leaves are `0..n`, merge `i` forms `n + i`).
    pub left: usize,
    /// The larger of the two merged cluster ids.
    pub right: usize,
    /// The linkage distance at which they merge.
    pub height: f64,
    /// Leaves in the merged cluster.
    pub size: usize,
}

/// The merge tree of `n` leaves: `n − 1` merges in order of height (see the
/// [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Dendrogram {
    n_leaves: usize,
    merges: Vec<Merge>,
}

/// Union–find with path halving; `id[root]` is the current scipy id of the root's cluster.
struct UnionFind {
    parent: Vec<usize>,
    id: Vec<usize>,
}

impl UnionFind {
    fn new(n: usize) -> Self {
        Self {
            parent: (0..n).collect(),
            id: (0..n).collect(),
        }
    }
    fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] != a {
            self.parent[a] = self.parent[self.parent[a]];
            a = self.parent[a];
        }
        a
    }
}

impl Dendrogram {
    /// Builds the scipy numbering from raw merges `(a, b, height)` given as representative
    /// leaves of the two clusters, in an order where every cluster is formed before it merges.
    fn from_raw(n: usize, raw: Vec<(usize, usize, f64)>) -> Self {
        // heights made monotone along the raw order (a merge is never lower than the merges
        // that formed its parts; this only absorbs rounding of reducible linkages)
        let mut top = vec![0.0f64; n];
        let mut uf0 = UnionFind::new(n);
        let mut raw = raw;
        for m in &mut raw {
            let (ra, rb) = (uf0.find(m.0), uf0.find(m.1));
            let h = m.2.max(top[ra]).max(top[rb]);
            m.2 = h;
            uf0.parent[ra] = rb;
            top[rb] = h;
        }
        let mut order: Vec<usize> = (0..raw.len()).collect();
        order.sort_by(|&a, &b| raw[a].2.total_cmp(&raw[b].2));
        let mut uf = UnionFind::new(n);
        let mut size = vec![1usize; n];
        let mut merges = Vec::with_capacity(raw.len());
        for (i, &r) in order.iter().enumerate() {
            let (a, b, h) = raw[r];
            let (ra, rb) = (uf.find(a), uf.find(b));
            let (ia, ib) = (uf.id[ra], uf.id[rb]);
            let s = size[ra] + size[rb];
            uf.parent[ra] = rb;
            uf.id[rb] = n + i;
            size[rb] = s;
            merges.push(Merge {
                left: ia.min(ib),
                right: ia.max(ib),
                height: h,
                size: s,
            });
        }
        Self {
            n_leaves: n,
            merges,
        }
    }

    /// Number of leaves (training rows).
    pub fn n_leaves(&self) -> usize {
        self.n_leaves
    }

    /// The `n − 1` merges in order of height.
    pub fn merges(&self) -> &[Merge] {
        &self.merges
    }

    /// scipy's linkage matrix `Z` (`(n − 1) × 4`: `[left, right, height, size]`).
    pub fn linkage_matrix(&self) -> Array2<f64> {
        let mut z = Array2::zeros((self.merges.len(), 4));
        for (mut row, m) in z.rows_mut().into_iter().zip(&self.merges) {
            row[0] = m.left as f64;
            row[1] = m.right as f64;
            row[2] = m.height;
            row[3] = m.size as f64;
        }
        z
    }

    /// Flat labels after the first `m` merges, numbered by first appearance over the leaves.
    fn labels_after(&self, m: usize) -> Array1<usize> {
        let n = self.n_leaves;
        // cluster id -> representative leaf
        let mut rep: Vec<usize> = (0..n).collect();
        let mut uf = UnionFind::new(n);
        for merge in &self.merges[..m.min(self.merges.len())] {
            let (a, b) = (rep[merge.left], rep[merge.right]);
            let (ra, rb) = (uf.find(a), uf.find(b));
            uf.parent[ra] = rb;
            rep.push(rb);
        }
        let mut label_of_root = vec![usize::MAX; n];
        let mut next = 0;
        (0..n)
            .map(|i| {
                let r = uf.find(i);
                if label_of_root[r] == usize::MAX {
                    label_of_root[r] = next;
                    next += 1;
                }
                label_of_root[r]
            })
            .collect()
    }

    /// Cut into `k` clusters (the first `n − k` merges).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `1 ≤ k ≤ n`.
    pub fn cut_n_clusters(&self, k: usize) -> Result<Array1<usize>> {
        if k == 0 || k > self.n_leaves {
            return Err(Error::invalid_param(
                "n_clusters",
                format!("must be in 1..={}, got {k}", self.n_leaves),
            ));
        }
        Ok(self.labels_after(self.n_leaves - k))
    }

    /// Cut at height `t`: the merges of height `≤ t` (scipy's `fcluster(Z, t, "distance")`).
    pub fn cut_height(&self, t: f64) -> Array1<usize> {
        let m = self.merges.iter().take_while(|m| m.height <= t).count();
        self.labels_after(m)
    }

    /// The leaves from left to right as drawn (each merge: `left` subtree first).
    pub fn leaves_order(&self) -> Vec<usize> {
        let n = self.n_leaves;
        if self.merges.is_empty() {
            return (0..n).collect();
        }
        let mut out = Vec::with_capacity(n);
        let mut stack = vec![n + self.merges.len() - 1];
        while let Some(c) = stack.pop() {
            if c < n {
                out.push(c);
            } else {
                let m = &self.merges[c - n];
                stack.push(m.right);
                stack.push(m.left);
            }
        }
        out
    }

    /// The cophenetic distance matrix: entry `(i, j)` is the height at which leaves `i` and `j`
    /// first share a cluster (scipy's `cophenet`, squareform).
    pub fn cophenetic(&self) -> Array2<f64> {
        let n = self.n_leaves;
        let mut members: Vec<Vec<usize>> = (0..n).map(|i| vec![i]).collect();
        let mut out = Array2::zeros((n, n));
        for m in &self.merges {
            let a = std::mem::take(&mut members[m.left]);
            let b = std::mem::take(&mut members[m.right]);
            for &i in &a {
                for &j in &b {
                    out[[i, j]] = m.height;
                    out[[j, i]] = m.height;
                }
            }
            let mut joined = a;
            joined.extend(b);
            members.push(joined);
        }
        out
    }

    /// The dendrogram as an SVG document (`width × height` pixels). With `last_p = Some(p)`,
    /// only the last `p − 1` merges are drawn and the `p` clusters below them are leaves
    /// labelled with their sizes (scipy's `truncate_mode = "lastp"`); otherwise every leaf is
    /// drawn, labelled with its row.
    pub fn to_svg(&self, width: f64, height: f64, last_p: Option<usize>) -> String {
        let n = self.n_leaves;
        let nm = self.merges.len();
        let p = last_p.unwrap_or(n).clamp(1, n);
        let first_shown = nm + 1 - p; // merges first_shown.. are drawn
        let root = if nm == 0 { 0 } else { n + nm - 1 };
        let is_shown = |c: usize| c >= n + first_shown;
        // leaves of the drawn tree, left to right
        let mut leaves = Vec::new();
        let mut stack = vec![root];
        while let Some(c) = stack.pop() {
            if is_shown(c) {
                let m = &self.merges[c - n];
                stack.push(m.right);
                stack.push(m.left);
            } else {
                leaves.push(c);
            }
        }
        let size_of = |c: usize| if c < n { 1 } else { self.merges[c - n].size };
        let (ml, mr, mt, mb) = (40.0, 10.0, 10.0, 30.0);
        let top_h = self
            .merges
            .last()
            .map_or(1.0, |m| m.height)
            .max(f64::MIN_POSITIVE);
        let y_of = |h: f64| mt + (height - mt - mb) * (1.0 - h / top_h);
        let step = (width - ml - mr) / leaves.len().max(1) as f64;
        let mut x_of = vec![0.0f64; n + nm];
        let mut base_h = vec![0.0f64; n + nm];
        let mut svg = String::new();
        let _ = writeln!(
            svg,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"10\">"
        );
        let _ = writeln!(
            svg,
            "<line x1=\"{ml}\" y1=\"{}\" x2=\"{ml}\" y2=\"{}\" stroke=\"#444\"/>",
            y_of(0.0),
            y_of(top_h)
        );
        let _ = writeln!(
            svg,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{top_h:.3}</text>",
            ml - 4.0,
            y_of(top_h) + 4.0
        );
        for (pos, &c) in leaves.iter().enumerate() {
            let x = ml + step * (pos as f64 + 0.5);
            x_of[c] = x;
            base_h[c] = 0.0;
            let label = if c < n && last_p.is_none() {
                format!("{c}")
            } else {
                format!("({})", size_of(c))
            };
            let _ = writeln!(
                svg,
                "<text x=\"{x:.2}\" y=\"{:.2}\" text-anchor=\"middle\">{label}</text>",
                height - mb + 14.0
            );
        }
        for (i, m) in self.merges.iter().enumerate().skip(first_shown) {
            let (xl, xr) = (x_of[m.left], x_of[m.right]);
            let (yl, yr, ym) = (y_of(base_h[m.left]), y_of(base_h[m.right]), y_of(m.height));
            let _ = writeln!(
                svg,
                "<path d=\"M{xl:.2},{yl:.2} V{ym:.2} H{xr:.2} V{yr:.2}\" fill=\"none\" \
                 stroke=\"#1f77b4\"/>"
            );
            x_of[n + i] = 0.5 * (xl + xr);
            base_h[n + i] = m.height;
        }
        svg.push_str("</svg>\n");
        svg
    }
}

impl CheckModel for Dendrogram {
    /// `n − 1` merges in order of height (finite, `≥ 0`), merge `i` joining two distinct
    /// clusters formed before it (ids below `n + i`), each cluster merged once, with the sum
    /// of their sizes: the cuts, `leaves_order` and `cophenetic` walk a tree.
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("Dendrogram");
        let n = self.n_leaves;
        c.at_least("n_leaves", n, 1)?;
        c.len("merges", self.merges.len(), n - 1)?;
        let mut size = vec![1usize; n];
        let mut merged = vec![false; 2 * n - 1];
        let mut below = 0.0;
        for (i, m) in self.merges.iter().enumerate() {
            let ok = m.left < m.right
                && m.right < n + i
                && !merged[m.left]
                && !merged[m.right]
                && m.height.is_finite()
                && m.height >= below
                && m.size == size[m.left] + size[m.right];
            c.that(ok, || format!("merge {i} is not a step of a merge tree"))?;
            merged[m.left] = true;
            merged[m.right] = true;
            size.push(m.size);
            below = m.height;
        }
        Ok(())
    }
}

/// Index of pair `(i, j)`, `i < j`, in a condensed distance matrix of `n` points.
#[inline]
fn cidx(n: usize, i: usize, j: usize) -> usize {
    let (i, j) = if i < j { (i, j) } else { (j, i) };
    n * i - i * (i + 1) / 2 + (j - i - 1)
}

/// The active clusters as a list with O(1) removal (order changes only by swap-removal, so
/// the whole run is deterministic).
struct Active {
    list: Vec<usize>,
    pos: Vec<usize>,
}

impl Active {
    fn new(n: usize) -> Self {
        Self {
            list: (0..n).collect(),
            pos: (0..n).collect(),
        }
    }
    fn remove(&mut self, x: usize) {
        let p = self.pos[x];
        let last = self.list.len() - 1;
        self.list.swap(p, last);
        self.pos[self.list[p]] = p;
        self.list.pop();
    }
}

/// The nearest-neighbour chain over a dissimilarity `dist(a, b)` between active clusters;
/// `merge(x, y)` merges cluster `x` into slot `y`. Returns the raw merges.
fn nn_chain(
    n: usize,
    mut nearest: impl FnMut(usize, &[usize]) -> (usize, f64),
    mut dist: impl FnMut(usize, usize) -> f64,
    mut merge: impl FnMut(usize, usize, f64, &[usize]),
) -> Vec<(usize, usize, f64)> {
    let mut active = Active::new(n);
    let mut chain: Vec<usize> = Vec::with_capacity(n);
    let mut raw = Vec::with_capacity(n.saturating_sub(1));
    for _ in 1..n {
        if chain.is_empty() {
            chain.push(active.list[0]);
        }
        let (x, y, h) = loop {
            let x = chain[chain.len() - 1];
            let prev = (chain.len() > 1).then(|| chain[chain.len() - 2]);
            let (mut y, mut best) = match prev {
                Some(p) => (p, dist(x, p)),
                None => (usize::MAX, f64::INFINITY),
            };
            let (cand, dc) = nearest(x, &active.list);
            // strictly closer than the previous chain element, else stay (no cycles on ties)
            if dc < best || y == usize::MAX {
                y = cand;
                best = dc;
            }
            if Some(y) == prev {
                break (x, y, best);
            }
            chain.push(y);
        };
        chain.truncate(chain.len() - 2);
        active.remove(x);
        merge(x, y, h, &active.list);
        raw.push((x, y, h));
    }
    raw
}

/// Ward linkage on the rows of `x` (centroids and sizes, no distance matrix).
fn ward_centroids<F: Float>(x: &ArrayRef2<F>) -> Vec<(usize, usize, f64)> {
    let (n, d) = x.dim();
    // `iter` walks in logical (row-major) order whatever the memory layout; Ward heights are
    // homogeneous of degree 1, so extreme scales are computed on rescaled data
    let mut cent: Vec<f64> = x.iter().map(|v| v.to_f64().unwrap_or(f64::NAN)).collect();
    let big = cent.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let scale = if (1e-150..=1e150).contains(&big) || big == 0.0 {
        1.0
    } else {
        big
    };
    if scale != 1.0 {
        cent.iter_mut().for_each(|v| *v /= scale);
    }
    let size = vec![1.0f64; n];
    // squared Ward height ×½: n_a n_b / (n_a + n_b) ‖μ_a − μ_b‖²
    let half_sq = |cent: &[f64], size: &[f64], a: usize, b: usize| -> f64 {
        let (ca, cb) = (&cent[a * d..(a + 1) * d], &cent[b * d..(b + 1) * d]);
        let s: f64 = ca.iter().zip(cb).map(|(u, v)| (u - v) * (u - v)).sum();
        size[a] * size[b] / (size[a] + size[b]) * s
    };
    let cent_cell = std::cell::RefCell::new(cent);
    let size_cell = std::cell::RefCell::new(size);
    nn_chain(
        n,
        |x, list| {
            let cent = cent_cell.borrow();
            let size = size_cell.borrow();
            let (cent, size) = (&cent[..], &size[..]);
            let scan = |r: std::ops::Range<usize>| {
                let mut best = (usize::MAX, f64::INFINITY);
                for &i in &list[r] {
                    if i != x {
                        let v = half_sq(cent, size, x, i);
                        if v < best.1 || best.0 == usize::MAX {
                            best = (i, v);
                        }
                    }
                }
                best
            };
            let best = if list.len() > 2 * SCAN_CHUNK {
                par::map_chunks(list.len(), SCAN_CHUNK, scan)
                    .into_iter()
                    .fold((usize::MAX, f64::INFINITY), |a, b| {
                        if b.1 < a.1 || a.0 == usize::MAX { b } else { a }
                    })
            } else {
                scan(0..list.len())
            };
            (best.0, (2.0 * best.1).sqrt() * scale)
        },
        |a, b| (2.0 * half_sq(&cent_cell.borrow(), &size_cell.borrow(), a, b)).sqrt() * scale,
        |x, y, _, _| {
            let mut cent = cent_cell.borrow_mut();
            let mut size = size_cell.borrow_mut();
            let (nx, ny) = (size[x], size[y]);
            for j in 0..d {
                let v = (nx * cent[x * d + j] + ny * cent[y * d + j]) / (nx + ny);
                cent[y * d + j] = v;
            }
            size[y] = nx + ny;
            size[x] = 0.0;
        },
    )
}

/// Complete, average or Ward (Lance–Williams) linkage on a condensed distance matrix.
fn condensed_chain(n: usize, mut dm: Vec<f64>, linkage: Linkage) -> Vec<(usize, usize, f64)> {
    let mut size = vec![1.0f64; n];
    let dm_cell = std::cell::RefCell::new(&mut dm);
    let size_cell = std::cell::RefCell::new(&mut size);
    nn_chain(
        n,
        |x, list| {
            let dm = dm_cell.borrow();
            let mut best = (usize::MAX, f64::INFINITY);
            for &i in list {
                if i != x {
                    let v = dm[cidx(n, x, i)];
                    if v < best.1 || best.0 == usize::MAX {
                        best = (i, v);
                    }
                }
            }
            best
        },
        |a, b| dm_cell.borrow()[cidx(n, a, b)],
        |x, y, dxy, list| {
            let mut dm = dm_cell.borrow_mut();
            let mut size = size_cell.borrow_mut();
            let (nx, ny) = (size[x], size[y]);
            for &i in list {
                if i == y {
                    continue;
                }
                let (dxi, dyi) = (dm[cidx(n, x, i)], dm[cidx(n, y, i)]);
                let ni = size[i];
                let v = match linkage {
                    Linkage::Complete => dxi.max(dyi),
                    Linkage::Average => (nx * dxi + ny * dyi) / (nx + ny),
                    Linkage::Single => dxi.min(dyi),
                    Linkage::Ward => {
                        let t = nx + ny + ni;
                        (((nx + ni) * dxi * dxi + (ny + ni) * dyi * dyi - ni * dxy * dxy) / t)
                            .max(0.0)
                            .sqrt()
                    }
                };
                dm[cidx(n, y, i)] = v;
            }
            size[y] = nx + ny;
            size[x] = 0.0;
        },
    )
}

/// Single linkage by Prim's minimum spanning tree; `dist(i, js, out)` fills the distances from
/// `i` to the points `js`.
fn prim_single(
    n: usize,
    dist: impl Fn(usize, &[usize], &mut [f64]) + Sync,
) -> Vec<(usize, usize, f64)> {
    let mut outside: Vec<usize> = (1..n).collect();
    let mut best = vec![f64::INFINITY; n];
    let mut from = vec![0usize; n];
    let mut raw = Vec::with_capacity(n.saturating_sub(1));
    let mut cur = 0usize;
    while !outside.is_empty() {
        let m = outside.len();
        let parts = par::map_chunks(m, SCAN_CHUNK, |r| {
            let mut out = vec![0.0; r.len()];
            dist(cur, &outside[r], &mut out);
            out
        });
        let mut arg = 0usize;
        let mut argv = f64::INFINITY;
        for (p, &j) in parts.iter().flatten().zip(&outside) {
            if *p < best[j] {
                best[j] = *p;
                from[j] = cur;
            }
        }
        for (pos, &j) in outside.iter().enumerate() {
            if best[j] < argv || (best[j] == argv && j < outside[arg]) {
                arg = pos;
                argv = best[j];
            }
        }
        let next = outside.remove(arg);
        raw.push((from[next], next, best[next]));
        cur = next;
    }
    // the tree edges in order of weight are the single-linkage merges (stable: equal weights
    // keep the order Prim found them in)
    raw.sort_by(|a, b| a.2.total_cmp(&b.2));
    raw
}

/// The dendrogram of the rows of `x` under `linkage` and `metric` (Ward requires the
/// Euclidean metric).
///
/// # Errors
/// [`Error::InvalidParam`] for Ward with another metric or an invalid metric; the usual input
/// errors (empty, non-finite).
pub fn linkage<F: Float>(
    x: &ArrayRef2<F>,
    linkage: Linkage,
    metric: &Metric,
) -> Result<Dendrogram> {
    check_fit_input(x, 1, "linkage")?;
    metric.validate()?;
    let n = x.nrows();
    let raw = match linkage {
        Linkage::Ward => {
            if *metric != Metric::Euclidean {
                return Err(Error::invalid_param(
                    "metric",
                    "Ward linkage is defined for the Euclidean metric only",
                ));
            }
            if x.ncols() >= WARD_MATRIX_MIN_D && n <= WARD_MATRIX_MAX_N {
                // many features, few rows: the Lance–Williams recursion on the condensed
                // matrix costs O(n²) per tree instead of O(n² d)
                condensed_chain(n, condensed(x, metric)?, Linkage::Ward)
            } else {
                ward_centroids(x)
            }
        }
        Linkage::Single => {
            let data = x.as_standard_layout();
            prim_single(n, |i, js, out| {
                let a = data.row(i);
                for (o, &j) in out.iter_mut().zip(js) {
                    *o = metric
                        .distance(&a, &data.row(j))
                        .to_f64()
                        .unwrap_or(f64::NAN);
                }
            })
        }
        Linkage::Complete | Linkage::Average => {
            let dm = condensed(x, metric)?;
            condensed_chain(n, dm, linkage)
        }
    };
    if raw.iter().any(|m| !m.2.is_finite()) {
        return Err(Error::invalid_param(
            "x",
            "linkage distances overflow; rescale the features",
        ));
    }
    Ok(Dendrogram::from_raw(n, raw))
}

/// The dendrogram of a precomputed `n × n` dissimilarity matrix (symmetric, zero diagonal,
/// finite, non-negative). Ward treats the entries as Euclidean distances (as scipy).
///
/// # Errors
/// [`Error::ShapeMismatch`] for a non-square matrix; [`Error::InvalidParam`] for a negative,
/// non-finite or asymmetric matrix; [`Error::TooFewSamples`] when empty.
pub fn linkage_precomputed<F: Float>(d: &ArrayRef2<F>, linkage: Linkage) -> Result<Dendrogram> {
    let n = d.nrows();
    if d.ncols() != n {
        return Err(Error::ShapeMismatch {
            context: "linkage_precomputed",
            expected: "a square dissimilarity matrix".into(),
            found: format!("{} x {}", d.nrows(), d.ncols()),
        });
    }
    ndlearn_core::validate::check_min_samples(n, 1, "linkage_precomputed")?;
    let at = |i: usize, j: usize| d[[i, j]].to_f64().unwrap_or(f64::NAN);
    for i in 0..n {
        for j in i..n {
            let (a, b) = (at(i, j), at(j, i));
            if !a.is_finite() || a < 0.0 || (a - b).abs() > 1e-12 * a.abs().max(1.0) {
                return Err(Error::invalid_param(
                    "d",
                    format!(
                        "dissimilarities must be finite, non-negative and symmetric (entry ({i}, {j}))"
                    ),
                ));
            }
        }
    }
    let raw = match linkage {
        Linkage::Single => prim_single(n, |i, js, out| {
            for (o, &j) in out.iter_mut().zip(js) {
                *o = at(i, j);
            }
        }),
        _ => {
            let mut dm = Vec::with_capacity(n * n.saturating_sub(1) / 2);
            for i in 0..n {
                for j in (i + 1)..n {
                    dm.push(at(i, j));
                }
            }
            condensed_chain(n, dm, linkage)
        }
    };
    Ok(Dendrogram::from_raw(n, raw))
}

/// Agglomerative clustering. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Agglomerative {
    /// Number of clusters of the flat cut (default `Some(2)`); exactly one of this and
    /// `distance_threshold` is set.
    pub n_clusters: Option<usize>,
    /// Cut keeping the merges strictly below this height (default `None`).
    pub distance_threshold: Option<f64>,
    /// Linkage (default Ward).
    pub linkage: Linkage,
    /// Dissimilarity between rows (default Euclidean; Ward needs Euclidean).
    pub metric: Metric,
}

impl Default for Agglomerative {
    fn default() -> Self {
        Self::new(2)
    }
}

impl Agglomerative {
    /// `k` clusters, Ward linkage, Euclidean metric.
    pub fn new(k: usize) -> Self {
        Self {
            n_clusters: Some(k),
            distance_threshold: None,
            linkage: Linkage::Ward,
            metric: Metric::Euclidean,
        }
    }
    /// Cut at a height instead of a number of clusters (sets `n_clusters = None`).
    pub fn with_distance_threshold(t: f64) -> Self {
        Self {
            n_clusters: None,
            distance_threshold: Some(t),
            ..Self::new(2)
        }
    }
    ndlearn_core::setters! {
        /// Sets the linkage.
        linkage: Linkage,
        /// Sets the metric.
        metric: Metric,
    }

    fn finish<F: Float>(
        &self,
        dendrogram: Dendrogram,
        train: Option<Array2<F>>,
    ) -> Result<FittedAgglomerative<F>> {
        let n = dendrogram.n_leaves();
        let labels = match (self.n_clusters, self.distance_threshold) {
            (Some(k), _) => {
                if k > n {
                    return Err(Error::invalid_param(
                        "n_clusters",
                        format!("n_clusters = {k} exceeds the number of rows {n}"),
                    ));
                }
                dendrogram.cut_n_clusters(k)?
            }
            (None, Some(t)) => {
                let m = dendrogram
                    .merges
                    .iter()
                    .take_while(|m| m.height < t)
                    .count();
                dendrogram.labels_after(m)
            }
            (None, None) => {
                return Err(Error::invalid_param(
                    "n_clusters",
                    "set exactly one of n_clusters and distance_threshold",
                ));
            }
        };
        let n_clusters = labels.iter().copied().max().map_or(0, |m| m + 1);
        Ok(FittedAgglomerative {
            params: self.clone(),
            dendrogram,
            labels,
            n_clusters,
            train,
        })
    }

    /// Fits on a precomputed `n × n` dissimilarity matrix (see [`linkage_precomputed`]); the
    /// fitted model has no training rows, so its `predict` errors.
    ///
    /// # Errors
    /// As [`linkage_precomputed`], and for invalid settings.
    pub fn fit_precomputed<F: Float>(&self, d: &ArrayRef2<F>) -> Result<FittedAgglomerative<F>> {
        self.validate()?;
        let dendrogram = linkage_precomputed(d, self.linkage)?;
        self.finish(dendrogram, None)
    }
}

impl Estimator for Agglomerative {
    /// Checks exactly one of `n_clusters ≥ 1` and `distance_threshold ≥ 0`, and the metric.
    fn validate(&self) -> Result<()> {
        self.metric.validate()?;
        match (self.n_clusters, self.distance_threshold) {
            (Some(0), _) => Err(Error::invalid_param("n_clusters", "must be >= 1")),
            (Some(_), None) => Ok(()),
            (None, Some(t)) => ndlearn_core::validate::check_non_negative("distance_threshold", t),
            _ => Err(Error::invalid_param(
                "n_clusters",
                "set exactly one of n_clusters and distance_threshold",
            )),
        }
    }
}

impl<F: Float> FitUnsupervised<F> for Agglomerative {
    type Model = FittedAgglomerative<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let dendrogram = linkage(x, self.linkage, &self.metric)?;
        self.finish(dendrogram, Some(x.to_owned()))
    }
}

/// A fitted [`Agglomerative`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedAgglomerative<F: Float> {
    params: Agglomerative,
    dendrogram: Dendrogram,
    labels: Array1<usize>,
    n_clusters: usize,
    train: Option<Array2<F>>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedAgglomerative<F> {
    fn n_features_in(&self) -> usize {
        self.train.as_ref().map_or(0, |t| t.ncols())
    }
}

impl<F: Float> FittedAgglomerative<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &Agglomerative {
        &self.params
    }
    /// The full merge tree.
    pub fn dendrogram(&self) -> &Dendrogram {
        &self.dendrogram
    }
    /// The cluster of every training row (numbered by first appearance).
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// The number of clusters of the cut.
    pub fn n_clusters(&self) -> usize {
        self.n_clusters
    }
}

impl<F: Float> Predict<F> for FittedAgglomerative<F> {
    type Output = Array1<usize>;

    /// The cluster of the nearest training row (ties: the lower row).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a model fitted on a precomputed matrix; the usual input
    /// errors.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        crate::common::nearest_row_labels(
            self.train.as_ref(),
            &self.params.metric,
            &self.labels,
            x,
            "Agglomerative: number of features",
        )
    }
}

impl<F: Float> CheckModel for FittedAgglomerative<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedAgglomerative");
        c.params(&self.params)?;
        c.part("dendrogram", &self.dendrogram)?;
        let n = self.dendrogram.n_leaves();
        c.len("labels", self.labels.len(), n)?;
        let k = self.n_clusters;
        c.that((1..=n).contains(&k), || {
            format!("`n_clusters` {k} not in 1..={n}")
        })?;
        c.indices_below("labels", &self.labels, k)?;
        // no training rows after a fit on a dissimilarity matrix
        let d = match &self.train {
            Some(t) => Some(crate::common::check_points(&c, "train", t, n)?),
            None => None,
        };
        crate::common::check_metric(&c, &self.params.metric, d)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0], [1.0], [5.0], [6.5], [20.0]];
        let mut m = Agglomerative::new(3)
            .linkage(Linkage::Average)
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        // merge 1 reuses a cluster already merged by merge 0
        m.dendrogram.merges[1].left = m.dendrogram.merges[0].left;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
        let mut m = Agglomerative::new(2).fit(&x).expect("fit");
        m.train = Some(Array2::zeros((4, 1)));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
