//! Ball tree (any metric with the triangle inequality, plus squared Euclidean through the
//! Euclidean geometry).
//!
//! Same layout as the k-d tree (implicit complete binary tree, median split on the
//! widest-spread coordinate, points contiguous by leaf). Each node stores a centre `c` (the
//! mean of its points) and a radius `ρ = max d(c, p)` over its points. By the triangle
//! inequality every point of the node is at distance `≥ d(q, c) − ρ` from a query `q`; a node is
//! skipped when that bound, lowered by a rounding slack `4 √ε (d(q, c) + ρ)`, exceeds the
//! current k-th best distance. Children are visited nearer-bound first. For Mahalanobis,
//! Hamming and Jaccard the mean centre is a real vector; their triangle inequality holds for
//! real vectors, so the bound stays valid.

use ndarray::Array2;

use super::heap::KBest;
use super::kdtree::Layout;
use crate::Float;
use crate::distance::kernels::Prepared;

/// A ball tree over the rows of a matrix.
#[derive(Debug, Clone)]
pub(crate) struct BallTree<F: Float> {
    d: usize,
    pts: Vec<F>,
    layout: Layout,
    centers: Vec<F>,
    radius: Vec<F>,
    slack: F,
}

impl<F: Float> BallTree<F> {
    /// Builds the tree: `O(n d log n)` plus one distance per point and level.
    pub(crate) fn build(data: &Array2<F>, leaf_size: usize, kernel: &Prepared<F>) -> Self {
        let layout = Layout::build(data, leaf_size);
        let d = data.ncols();
        let pts = layout.reordered(data);
        let n_nodes = layout.start.len();
        let mut centers = vec![F::zero(); n_nodes * d];
        let mut radius = vec![F::zero(); n_nodes];
        for node in 0..n_nodes {
            let (s, e) = (layout.start[node], layout.end[node]);
            let c = &mut centers[node * d..(node + 1) * d];
            for row in pts[s * d..e * d].chunks_exact(d.max(1)) {
                for (cj, &v) in c.iter_mut().zip(row) {
                    *cj += v;
                }
            }
            let cnt = F::cast((e - s).max(1));
            for cj in c.iter_mut() {
                *cj /= cnt;
            }
            let c = &centers[node * d..(node + 1) * d];
            radius[node] = pts[s * d..e * d]
                .chunks_exact(d.max(1))
                .map(|row| kernel.true_distance(kernel.rdist(c, row)))
                .fold(F::zero(), |m, v| m.max(v));
        }
        Self {
            d,
            pts,
            layout,
            centers,
            radius,
            slack: F::cast(4.0) * F::epsilon().sqrt(),
        }
    }

    #[inline]
    fn lower_bound(&self, q: &[F], node: usize, kernel: &Prepared<F>) -> F {
        let d = self.d;
        let c = &self.centers[node * d..(node + 1) * d];
        let dq = kernel.true_distance(kernel.rdist(q, c));
        let rho = self.radius[node];
        dq - rho - self.slack * (dq + rho)
    }

    /// Fills `heap` with the k nearest points of `q`.
    pub(crate) fn knn(&self, q: &[F], kernel: &Prepared<F>, heap: &mut KBest<F>) {
        self.knn_node(0, q, kernel, heap);
    }

    fn knn_node(&self, node: usize, q: &[F], kernel: &Prepared<F>, heap: &mut KBest<F>) {
        let lay = &self.layout;
        let d = self.d;
        if node >= lay.first_leaf {
            let (s, e) = (lay.start[node], lay.end[node]);
            for (p, row) in (s..e).zip(self.pts[s * d..e * d].chunks_exact(d.max(1))) {
                let rd = kernel.rdist(q, row);
                if rd <= heap.worst() {
                    heap.push(rd, lay.perm[p]);
                }
            }
            return;
        }
        let (l, r) = (2 * node + 1, 2 * node + 2);
        let (bl, br) = (
            self.lower_bound(q, l, kernel),
            self.lower_bound(q, r, kernel),
        );
        let order = if bl <= br {
            [(l, bl), (r, br)]
        } else {
            [(r, br), (l, bl)]
        };
        for (child, bound) in order {
            if bound <= kernel.true_distance(heap.worst()) {
                self.knn_node(child, q, kernel, heap);
            }
        }
    }

    /// Appends every point within `r` to `out` (unsorted).
    pub(crate) fn radius(&self, q: &[F], kernel: &Prepared<F>, r: F, out: &mut Vec<(F, usize)>) {
        let r_red = kernel.reduced_upper(r);
        let r_true = kernel.true_distance(r_red);
        self.radius_node(0, q, kernel, r, r_red, r_true, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn radius_node(
        &self,
        node: usize,
        q: &[F],
        kernel: &Prepared<F>,
        r: F,
        r_red: F,
        r_true: F,
        out: &mut Vec<(F, usize)>,
    ) {
        if self.lower_bound(q, node, kernel) > r_true {
            return;
        }
        let lay = &self.layout;
        let d = self.d;
        if node >= lay.first_leaf {
            let (s, e) = (lay.start[node], lay.end[node]);
            for (p, row) in (s..e).zip(self.pts[s * d..e * d].chunks_exact(d.max(1))) {
                let rd = kernel.rdist(q, row);
                if rd <= r_red && kernel.finalize(rd) <= r {
                    out.push((rd, lay.perm[p]));
                }
            }
            return;
        }
        self.radius_node(2 * node + 1, q, kernel, r, r_red, r_true, out);
        self.radius_node(2 * node + 2, q, kernel, r, r_red, r_true, out);
    }
}
