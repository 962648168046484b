//! k-d tree (Minkowski-family metrics).
//!
//! **Layout.** A complete binary tree in implicit (heap) order: node `i` has children `2i + 1`
//! and `2i + 2`; `n_levels = 1 + ⌊log₂ max(1, (n − 1)/leaf_size)⌋` (scikit-learn's rule), so leaves hold
//! between about `leaf_size` and `2 · leaf_size` points (all of them when `n ≤ leaf_size`).
//! Every node splits its
//! points at the median of the coordinate with the widest spread; the points are then copied
//! contiguously in leaf order (a flat `n × d` array plus the permutation back to the original
//! indices), so a leaf scan reads one contiguous block.
//!
//! **Search.** Every node stores the bounding box of its points (`lo`, `hi` per coordinate).
//! The lower bound of the reduced distance from a query to any point of a node is the reduced
//! distance to its box, `Σⱼ term(max(loⱼ − qⱼ, 0, qⱼ − hiⱼ))` (max for Chebyshev), with
//! `term(Δ) = Δ²`, `|Δ|` or `|Δ|^p`. Children are visited nearer box first; a child is skipped
//! when its bound times `1 − δ` exceeds the current k-th best reduced distance, with
//! `δ = (4 (levels + d) + 16) ε` covering rounding, so no point that could enter the answer is
//! ever skipped. (Tight boxes prune much better than the cell planes of the classic
//! incremental search when `d` is moderate.) Leaf scans stop a distance early once a partial
//! sum exceeds the k-th best (exact: the sums only grow). The k best are kept in a fixed-size
//! max-heap.

use ndarray::Array2;

use super::heap::KBest;
use crate::Float;
use crate::distance::kernels::{self, Prepared};

/// Node ranges of a median-split tree (shared with the ball tree).
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) perm: Vec<usize>,
    pub(super) start: Vec<usize>,
    pub(super) end: Vec<usize>,
    pub(super) n_levels: usize,
    pub(super) first_leaf: usize,
}

impl Layout {
    /// Median splits on the widest-spread coordinate.
    pub(super) fn build<F: Float>(data: &Array2<F>, leaf_size: usize) -> Self {
        let n = data.nrows();
        let ratio = (n.saturating_sub(1) as f64 / leaf_size as f64).max(1.0);
        let n_levels = (ratio.log2().floor() as usize + 1).min(40);
        let n_nodes = (1usize << n_levels) - 1;
        let first_leaf = (1usize << (n_levels - 1)) - 1;
        let mut perm: Vec<usize> = (0..n).collect();
        let mut start = vec![0; n_nodes];
        let mut end = vec![0; n_nodes];
        start[0] = 0;
        end[0] = n;
        for node in 0..first_leaf {
            let (s, e) = (start[node], end[node]);
            let dim = widest_dim(data, &perm[s..e]);
            let mid = s + (e - s) / 2;
            if e - s >= 2 {
                perm[s..e].select_nth_unstable_by(mid - s, |&a, &b| {
                    data[[a, dim]]
                        .partial_cmp(&data[[b, dim]])
                        .unwrap_or(std::cmp::Ordering::Equal)
                        .then(a.cmp(&b))
                });
            }
            let (l, r) = (2 * node + 1, 2 * node + 2);
            start[l] = s;
            end[l] = mid;
            start[r] = mid;
            end[r] = e;
        }
        Self {
            perm,
            start,
            end,
            n_levels,
            first_leaf,
        }
    }

    /// The rows of `data` in tree order, flattened.
    pub(super) fn reordered<F: Float>(&self, data: &Array2<F>) -> Vec<F> {
        let mut pts = Vec::with_capacity(data.len());
        for &p in &self.perm {
            pts.extend(data.row(p).iter().copied());
        }
        pts
    }
}

fn widest_dim<F: Float>(data: &Array2<F>, idx: &[usize]) -> usize {
    let d = data.ncols();
    let mut best = (0, F::neg_infinity());
    for j in 0..d {
        let (mut lo, mut hi) = (F::infinity(), F::neg_infinity());
        for &p in idx {
            let v = data[[p, j]];
            lo = lo.min(v);
            hi = hi.max(v);
        }
        if hi - lo > best.1 {
            best = (j, hi - lo);
        }
    }
    best.0
}

/// Per-axis term and reduced distance of a Minkowski-family metric.
trait AxisKernel<F: Float>: Copy + Sync {
    /// `true` when the reduced distance is a max (Chebyshev) rather than a sum.
    const MAX: bool;
    fn term(self, diff: F) -> F;
    /// The reduced distance when it is `≤ bound`, otherwise any value `> bound`.
    fn rdist_bounded(self, a: &[F], b: &[F], bound: F) -> F;
}

#[derive(Clone, Copy)]
struct SqE;
#[derive(Clone, Copy)]
struct L1;
#[derive(Clone, Copy)]
struct LInf;
#[derive(Clone, Copy)]
struct Lp<F> {
    p: F,
    ip: Option<i32>,
}

impl<F: Float> AxisKernel<F> for SqE {
    const MAX: bool = false;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        diff * diff
    }
    #[inline(always)]
    fn rdist_bounded(self, a: &[F], b: &[F], bound: F) -> F {
        kernels::sq_euclidean_bounded(a, b, bound)
    }
}

impl<F: Float> AxisKernel<F> for L1 {
    const MAX: bool = false;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        diff.abs()
    }
    #[inline(always)]
    fn rdist_bounded(self, a: &[F], b: &[F], bound: F) -> F {
        kernels::manhattan_bounded(a, b, bound)
    }
}

impl<F: Float> AxisKernel<F> for LInf {
    const MAX: bool = true;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        diff.abs()
    }
    #[inline(always)]
    fn rdist_bounded(self, a: &[F], b: &[F], _bound: F) -> F {
        kernels::chebyshev(a, b)
    }
}

impl<F: Float> AxisKernel<F> for Lp<F> {
    const MAX: bool = false;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        kernels::pow_term(diff, self.p, self.ip)
    }
    #[inline(always)]
    fn rdist_bounded(self, a: &[F], b: &[F], bound: F) -> F {
        kernels::minkowski_reduced_bounded(a, b, self.p, self.ip, bound)
    }
}

/// What a traversal collects.
enum Sink<'a, F: Float> {
    Knn(&'a mut KBest<F>),
    Radius {
        r_red: F,
        r: F,
        kernel: &'a Prepared<F>,
        out: &'a mut Vec<(F, usize)>,
    },
}

impl<F: Float> Sink<'_, F> {
    #[inline(always)]
    fn bound(&self) -> F {
        match self {
            Sink::Knn(h) => h.worst(),
            Sink::Radius { r_red, .. } => *r_red,
        }
    }

    #[inline(always)]
    fn offer(&mut self, rd: F, i: usize) {
        match self {
            Sink::Knn(h) => {
                if rd <= h.worst() {
                    h.push(rd, i);
                }
            }
            Sink::Radius {
                r_red,
                r,
                kernel,
                out,
            } => {
                if rd <= *r_red && kernel.finalize(rd) <= *r {
                    out.push((rd, i));
                }
            }
        }
    }
}

/// A k-d tree over the rows of a matrix.
#[derive(Debug, Clone)]
pub(crate) struct KdTree<F: Float> {
    d: usize,
    pts: Vec<F>,
    layout: Layout,
    /// Per-node bounding boxes, `n_nodes × d` each.
    lo: Vec<F>,
    hi: Vec<F>,
    shrink: F,
}

impl<F: Float> KdTree<F> {
    /// Builds the tree (the kernel is not needed at build time; it is taken for symmetry with
    /// the ball tree).
    pub(crate) fn build(data: &Array2<F>, leaf_size: usize, _kernel: &Prepared<F>) -> Self {
        let layout = Layout::build(data, leaf_size);
        let d = data.ncols();
        let pts = layout.reordered(data);
        let n_nodes = layout.start.len();
        let mut lo = vec![F::infinity(); n_nodes * d];
        let mut hi = vec![F::neg_infinity(); n_nodes * d];
        // Leaves from their points, internal nodes from their children (bottom-up).
        for node in (0..n_nodes).rev() {
            let (l, h) = (
                &mut lo[node * d..(node + 1) * d],
                &mut hi[node * d..(node + 1) * d],
            );
            if node >= layout.first_leaf {
                let (s, e) = (layout.start[node], layout.end[node]);
                for row in pts[s * d..e * d].chunks_exact(d.max(1)) {
                    for j in 0..d {
                        l[j] = l[j].min(row[j]);
                        h[j] = h[j].max(row[j]);
                    }
                }
            }
        }
        for node in (0..layout.first_leaf).rev() {
            for c in [2 * node + 1, 2 * node + 2] {
                for j in 0..d {
                    lo[node * d + j] = lo[node * d + j].min(lo[c * d + j]);
                    hi[node * d + j] = hi[node * d + j].max(hi[c * d + j]);
                }
            }
        }
        let delta = F::cast(4 * (layout.n_levels + d) + 16) * F::epsilon();
        Self {
            d,
            pts,
            layout,
            lo,
            hi,
            shrink: F::one() - delta,
        }
    }

    /// Fills `heap` with the k nearest points of `q`.
    pub(crate) fn knn(&self, q: &[F], kernel: &Prepared<F>, heap: &mut KBest<F>) {
        self.dispatch(q, kernel, Sink::Knn(heap));
    }

    /// Appends every point within `r` (reduced bound `r_red`) to `out` (unsorted).
    pub(crate) fn radius(
        &self,
        q: &[F],
        kernel: &Prepared<F>,
        r: F,
        r_red: F,
        out: &mut Vec<(F, usize)>,
    ) {
        let sink = Sink::Radius {
            r_red,
            r,
            kernel,
            out,
        };
        self.dispatch(q, kernel, sink);
    }

    fn dispatch(&self, q: &[F], kernel: &Prepared<F>, mut sink: Sink<'_, F>) {
        match kernel {
            Prepared::SqEuclid { .. } => self.search(SqE, 0, q, &mut sink),
            Prepared::Manhattan => self.search(L1, 0, q, &mut sink),
            Prepared::Chebyshev => self.search(LInf, 0, q, &mut sink),
            Prepared::Minkowski { p, ip, .. } => {
                self.search(Lp { p: *p, ip: *ip }, 0, q, &mut sink)
            }
            // Not reachable: the index only builds k-d trees for the Minkowski family.
            _ => {}
        }
    }

    /// Reduced distance from `q` to the bounding box of `node`; stops early above `bound`.
    #[inline(always)]
    fn box_dist<A: AxisKernel<F>>(&self, a: A, node: usize, q: &[F], bound: F) -> F {
        let d = self.d;
        let (lo, hi) = (
            &self.lo[node * d..(node + 1) * d],
            &self.hi[node * d..(node + 1) * d],
        );
        let mut s = F::zero();
        for j in 0..d {
            let gap = (lo[j] - q[j]).max(q[j] - hi[j]);
            if gap > F::zero() {
                let t = a.term(gap);
                s = if A::MAX { s.max(t) } else { s + t };
                if s > bound {
                    return s;
                }
            }
        }
        s
    }

    fn search<A: AxisKernel<F>>(&self, a: A, node: usize, q: &[F], sink: &mut Sink<'_, F>) {
        let lay = &self.layout;
        if node >= lay.first_leaf {
            let d = self.d;
            let (s, e) = (lay.start[node], lay.end[node]);
            for (p, row) in (s..e).zip(self.pts[s * d..e * d].chunks_exact(d.max(1))) {
                let bound = sink.bound();
                sink.offer(a.rdist_bounded(q, row, bound), lay.perm[p]);
            }
            return;
        }
        let (l, r) = (2 * node + 1, 2 * node + 2);
        let limit = sink.bound() / self.shrink;
        let (bl, br) = (self.box_dist(a, l, q, limit), self.box_dist(a, r, q, limit));
        let order = if bl <= br {
            [(l, bl), (r, br)]
        } else {
            [(r, br), (l, bl)]
        };
        for (child, bound) in order {
            if bound * self.shrink <= sink.bound() {
                self.search(a, child, q, sink);
            }
        }
    }
}
