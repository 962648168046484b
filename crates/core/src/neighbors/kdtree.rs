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
//! **Search** (Arya & Mount's incremental distance): per node we store the split coordinate and
//! the extents of the two children along it (`div_low` = max of the left child, `div_high` =
//! min of the right child). The query keeps one offset per coordinate (a lower bound of the
//! per-axis term, `|Δ|^p` or `Δ²`) and their sum `mindist` (or max, for Chebyshev); entering the
//! far child replaces one offset, which updates the bound in `O(1)`. A subtree is skipped when
//! `mindist · (1 − δ)` exceeds the current k-th best reduced distance, with
//! `δ = (4 (levels + d) + 16) ε` covering rounding, so no point that could enter the answer is
//! ever skipped. The k best are kept in a fixed-size max-heap.

use ndarray::Array2;

use super::heap::KBest;
use crate::Float;
use crate::distance::kernels::{self, Prepared};

/// Node ranges and split coordinates of a median-split tree (shared with the ball tree).
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) perm: Vec<usize>,
    pub(super) start: Vec<usize>,
    pub(super) end: Vec<usize>,
    pub(super) split_dim: Vec<usize>,
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
        let mut split_dim = vec![0; n_nodes];
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
            split_dim[node] = dim;
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
            split_dim,
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
    fn rdist(self, a: &[F], b: &[F]) -> F;
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
    fn rdist(self, a: &[F], b: &[F]) -> F {
        kernels::sq_euclidean(a, b)
    }
}

impl<F: Float> AxisKernel<F> for L1 {
    const MAX: bool = false;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        diff.abs()
    }
    #[inline(always)]
    fn rdist(self, a: &[F], b: &[F]) -> F {
        kernels::manhattan(a, b)
    }
}

impl<F: Float> AxisKernel<F> for LInf {
    const MAX: bool = true;
    #[inline(always)]
    fn term(self, diff: F) -> F {
        diff.abs()
    }
    #[inline(always)]
    fn rdist(self, a: &[F], b: &[F]) -> F {
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
    fn rdist(self, a: &[F], b: &[F]) -> F {
        kernels::minkowski_reduced(a, b, self.p, self.ip)
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
            Sink::Radius { r_red, r, kernel, out } => {
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
    div_low: Vec<F>,
    div_high: Vec<F>,
    root_lo: Vec<F>,
    root_hi: Vec<F>,
    shrink: F,
}

impl<F: Float> KdTree<F> {
    /// Builds the tree (the kernel is not needed at build time; it is taken for symmetry with
    /// the ball tree).
    pub(crate) fn build(data: &Array2<F>, leaf_size: usize, _kernel: &Prepared<F>) -> Self {
        let layout = Layout::build(data, leaf_size);
        let d = data.ncols();
        let n_nodes = layout.start.len();
        let mut div_low = vec![F::zero(); n_nodes];
        let mut div_high = vec![F::zero(); n_nodes];
        for node in 0..layout.first_leaf {
            let dim = layout.split_dim[node];
            let (l, r) = (2 * node + 1, 2 * node + 2);
            let col = |c: usize| {
                layout.perm[layout.start[c]..layout.end[c]]
                    .iter()
                    .map(move |&p| data[[p, dim]])
            };
            div_low[node] = col(l).fold(F::neg_infinity(), |m, v| m.max(v));
            div_high[node] = col(r).fold(F::infinity(), |m, v| m.min(v));
        }
        let mut root_lo = vec![F::infinity(); d];
        let mut root_hi = vec![F::neg_infinity(); d];
        for row in data.rows() {
            for (j, &v) in row.iter().enumerate() {
                root_lo[j] = root_lo[j].min(v);
                root_hi[j] = root_hi[j].max(v);
            }
        }
        let delta = F::cast(4 * (layout.n_levels + d) + 16) * F::epsilon();
        Self {
            d,
            pts: layout.reordered(data),
            layout,
            div_low,
            div_high,
            root_lo,
            root_hi,
            shrink: F::one() - delta,
        }
    }

    /// Fills `heap` with the k nearest points of `q`.
    pub(crate) fn knn(&self, q: &[F], kernel: &Prepared<F>, heap: &mut KBest<F>, off: &mut Vec<F>) {
        self.dispatch(q, kernel, Sink::Knn(heap), off);
    }

    /// Appends every point within `r` (reduced bound `r_red`) to `out` (unsorted).
    pub(crate) fn radius(
        &self,
        q: &[F],
        kernel: &Prepared<F>,
        r: F,
        r_red: F,
        out: &mut Vec<(F, usize)>,
        off: &mut Vec<F>,
    ) {
        let sink = Sink::Radius {
            r_red,
            r,
            kernel,
            out,
        };
        self.dispatch(q, kernel, sink, off);
    }

    fn dispatch(&self, q: &[F], kernel: &Prepared<F>, mut sink: Sink<'_, F>, off: &mut Vec<F>) {
        match kernel {
            Prepared::SqEuclid { .. } => self.start(SqE, q, &mut sink, off),
            Prepared::Manhattan => self.start(L1, q, &mut sink, off),
            Prepared::Chebyshev => self.start(LInf, q, &mut sink, off),
            Prepared::Minkowski { p, ip, .. } => self.start(Lp { p: *p, ip: *ip }, q, &mut sink, off),
            // Not reachable: the index only builds k-d trees for the Minkowski family.
            _ => {}
        }
    }

    fn start<A: AxisKernel<F>>(&self, a: A, q: &[F], sink: &mut Sink<'_, F>, off: &mut Vec<F>) {
        off.clear();
        let mut mindist = F::zero();
        for j in 0..self.d {
            let gap = (self.root_lo[j] - q[j]).max(q[j] - self.root_hi[j]).max(F::zero());
            let t = a.term(gap);
            off.push(t);
            mindist = if A::MAX { mindist.max(t) } else { mindist + t };
        }
        self.search(a, 0, mindist, q, sink, off);
    }

    fn search<A: AxisKernel<F>>(
        &self,
        a: A,
        node: usize,
        mindist: F,
        q: &[F],
        sink: &mut Sink<'_, F>,
        off: &mut [F],
    ) {
        let lay = &self.layout;
        if node >= lay.first_leaf {
            let d = self.d;
            let (s, e) = (lay.start[node], lay.end[node]);
            for (p, row) in (s..e).zip(self.pts[s * d..e * d].chunks_exact(d.max(1))) {
                sink.offer(a.rdist(q, row), lay.perm[p]);
            }
            return;
        }
        let dim = lay.split_dim[node];
        let diff1 = q[dim] - self.div_low[node];
        let diff2 = q[dim] - self.div_high[node];
        let (best, other, cut) = if diff1 + diff2 < F::zero() {
            (2 * node + 1, 2 * node + 2, a.term(diff2))
        } else {
            (2 * node + 2, 2 * node + 1, a.term(diff1))
        };
        self.search(a, best, mindist, q, sink, off);
        let old = off[dim];
        let new_min = if A::MAX {
            mindist.max(cut)
        } else {
            mindist + cut - old
        };
        if new_min * self.shrink <= sink.bound() {
            off[dim] = cut;
            self.search(a, other, new_min, q, sink, off);
            off[dim] = old;
        }
    }
}
