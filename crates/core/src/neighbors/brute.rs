//! Brute-force search.
//!
//! **Direct path** (every metric): each query scans all training rows with the metric's
//! kernel and keeps the k best in a max-heap; queries in parallel over fixed chunks.
//!
//! **GEMM path** ((squared) Euclidean, Minkowski `p = 2`, cosine): queries are processed in
//! blocks of [`QUERY_BLOCK`] rows against tiles of [`TRAIN_TILE`] training rows. For each tile
//! one GEMM (top level, multithreaded BLAS) gives a *proxy* `a_ij` of every reduced distance —
//! `‖q̃ᵢ‖² + ‖x̃ⱼ‖² − 2 q̃ᵢᵀx̃ⱼ` on data centred at the training mean, or `1 − q̂ᵢᵀx̂ⱼ` on
//! unit rows — and the rows of the tile are scanned in parallel. The proxy differs from the
//! directly computed reduced distance `r_ij` by at most `E_i` (a rounding bound:
//! `(8d + 32) ε (‖q̃ᵢ‖² + maxⱼ‖x̃ⱼ‖²)`, or `(8d + 32) ε` for cosine). If `t` is the k-th smallest
//! proxy of a query, every true neighbour has `a_ij ≤ t + 2E_i` (its `r ≤ r_(k) ≤ t + E_i`), so
//! the scan keeps only those candidates (with a running `t`), then computes their exact `r_ij`
//! with the direct kernel and sorts by `(r, index)`. The answer is therefore exactly the direct
//! path's, at GEMM speed; candidates beyond `k` are few unless distances are nearly tied.

use ndarray::{Array1, Array2, ArrayView2, s};
use rayon::prelude::*;

use super::NeighborIndex;
use super::heap::{KBest, KSmallest, sort_pairs};
use crate::Float;
use crate::distance::kernels::{self, Prepared};

/// Query rows per GEMM block.
const QUERY_BLOCK: usize = 256;
/// Training rows per GEMM tile.
const TRAIN_TILE: usize = 8192;
/// Query rows per parallel scanning task.
const SCAN_ROWS: usize = 8;

/// Per-index precomputation of the GEMM path.
#[derive(Debug, Clone)]
pub(crate) enum Cache<F: Float> {
    /// No GEMM path for this metric.
    Direct,
    /// Training rows centred at their mean, with squared norms.
    SqEuclid {
        center: Array1<F>,
        xt: Array2<F>,
        xn: Vec<F>,
        xn_max: F,
    },
    /// Training rows scaled to unit norm.
    Cosine { xt: Array2<F> },
}

impl<F: Float> Cache<F> {
    pub(crate) fn new(data: &Array2<F>, kernel: &Prepared<F>) -> Self {
        match kernel {
            Prepared::SqEuclid { .. } => {
                let center = crate::distance::pairwise_column_means(data);
                let mut xt = data.to_owned();
                xt -= &center;
                let xn: Vec<F> = xt
                    .rows()
                    .into_iter()
                    .map(|r| r.as_slice().map_or_else(|| r.dot(&r), |s| kernels::dot(s, s)))
                    .collect();
                let xn_max = xn.iter().fold(F::zero(), |m, &v| m.max(v));
                Self::SqEuclid {
                    center,
                    xt,
                    xn,
                    xn_max,
                }
            }
            Prepared::Cosine => Self::Cosine {
                xt: crate::distance::pairwise_normalize_rows(data),
            },
            _ => Self::Direct,
        }
    }
}

/// What a query collects.
#[derive(Clone, Copy)]
enum Mode<F> {
    Knn(usize),
    Radius { r: F, r_red: F },
}

/// k-NN by brute force: sorted `(reduced distance, index)` lists.
pub(super) fn knn<F: Float>(index: &NeighborIndex<F>, q: ArrayView2<'_, F>, k: usize) -> Vec<Vec<(F, usize)>> {
    match index.brute_cache() {
        Cache::Direct => direct(index, q, Mode::Knn(k)),
        cache => gemm(index, cache, q, Mode::Knn(k)),
    }
}

/// Radius search by brute force: sorted `(reduced distance, index)` lists.
pub(super) fn radius<F: Float>(index: &NeighborIndex<F>, q: ArrayView2<'_, F>, r: F) -> Vec<Vec<(F, usize)>> {
    let mode = Mode::Radius {
        r,
        r_red: index.kernel.reduced_upper(r),
    };
    match index.brute_cache() {
        Cache::Direct => direct(index, q, mode),
        cache => gemm(index, cache, q, mode),
    }
}

fn training_slice<F: Float>(index: &NeighborIndex<F>) -> &[F] {
    // The index keeps its data in standard layout.
    index.data.as_slice().unwrap_or(&[])
}

fn direct<F: Float>(index: &NeighborIndex<F>, q: ArrayView2<'_, F>, mode: Mode<F>) -> Vec<Vec<(F, usize)>> {
    let d = index.n_features();
    let xs = training_slice(index);
    let kernel = &index.kernel;
    index.per_query(q, |row, out, heap| match mode {
        Mode::Knn(k) => {
            let h = heap.get_or_insert_with(|| KBest::new(k));
            h.clear();
            for (j, x) in xs.chunks_exact(d.max(1)).enumerate() {
                let rd = kernel.rdist(row, x);
                if rd <= h.worst() {
                    h.push(rd, j);
                }
            }
            *out = h.sorted();
        }
        Mode::Radius { r, r_red } => {
            for (j, x) in xs.chunks_exact(d.max(1)).enumerate() {
                let rd = kernel.rdist(row, x);
                if rd <= r_red && kernel.finalize(rd) <= r {
                    out.push((rd, j));
                }
            }
            sort_pairs(out);
        }
    })
}

/// Scan state of one query row.
struct RowState<F> {
    heap: KSmallest<F>,
    thr: F,
    margin: F,
    k: usize,
    cand: Vec<(F, usize)>,
}

fn gemm<F: Float>(
    index: &NeighborIndex<F>,
    cache: &Cache<F>,
    q: ArrayView2<'_, F>,
    mode: Mode<F>,
) -> Vec<Vec<(F, usize)>> {
    let n = index.n_samples();
    let d = index.n_features();
    let nq = q.nrows();
    let xs = training_slice(index);
    let Some(qs) = q.to_slice() else {
        return Vec::new();
    };
    let kernel = &index.kernel;
    let eps = F::epsilon() * F::cast(8 * d + 32);
    let two = F::cast(2.0);
    let mut results = Vec::with_capacity(nq);
    for qb in (0..nq).step_by(QUERY_BLOCK) {
        let qe = (qb + QUERY_BLOCK).min(nq);
        let qblock = q.slice(s![qb..qe, ..]);
        // Transformed queries and per-row error bounds.
        let (qt, qn, xt, xn) = match cache {
            Cache::SqEuclid {
                center,
                xt,
                xn,
                ..
            } => {
                let mut qt = qblock.to_owned();
                qt -= center;
                let qn: Vec<F> = qt
                    .rows()
                    .into_iter()
                    .map(|r| r.as_slice().map_or_else(|| r.dot(&r), |s| kernels::dot(s, s)))
                    .collect();
                (qt, qn, xt, Some(xn))
            }
            Cache::Cosine { xt } => {
                let qt = crate::distance::pairwise_normalize_rows(&qblock);
                (qt, vec![F::zero(); qe - qb], xt, None)
            }
            Cache::Direct => return direct(index, q, mode),
        };
        let mut states: Vec<RowState<F>> = (0..qe - qb)
            .map(|i| {
                let e = match cache {
                    Cache::SqEuclid { xn_max, .. } => eps * (qn[i] + *xn_max),
                    _ => eps,
                };
                let (k, thr) = match mode {
                    Mode::Knn(k) => (k, F::infinity()),
                    Mode::Radius { r_red, .. } => (1, r_red + e),
                };
                RowState {
                    heap: KSmallest::new(k),
                    thr,
                    margin: two * e,
                    k,
                    cand: Vec::new(),
                }
            })
            .collect();
        for tb in (0..n).step_by(TRAIN_TILE) {
            let te = (tb + TRAIN_TILE).min(n);
            let g = qt.dot(&xt.slice(s![tb..te, ..]).t());
            let Some(gs) = g.as_slice() else { continue };
            let w = te - tb;
            states
                .par_chunks_mut(SCAN_ROWS)
                .enumerate()
                .for_each(|(c, chunk)| {
                    for (r, st) in chunk.iter_mut().enumerate() {
                        let i = c * SCAN_ROWS + r;
                        let grow = &gs[i * w..(i + 1) * w];
                        scan(st, grow, tb, qn[i], xn.map(|v| &v[tb..te]), mode, two);
                    }
                });
        }
        let block: Vec<Vec<(F, usize)>> = states
            .into_par_iter()
            .enumerate()
            .map(|(i, st)| {
                let qrow = &qs[(qb + i) * d..(qb + i + 1) * d];
                finish(st, qrow, xs, d, kernel, mode)
            })
            .collect();
        results.extend(block);
    }
    results
}

#[inline]
fn scan<F: Float>(
    st: &mut RowState<F>,
    grow: &[F],
    offset: usize,
    qn: F,
    xn: Option<&[F]>,
    mode: Mode<F>,
    two: F,
) {
    let knn = matches!(mode, Mode::Knn(_));
    let mut thr = st.thr;
    match xn {
        Some(xn) => {
            for (jj, (&g, &x)) in grow.iter().zip(xn).enumerate() {
                let a = qn + x - two * g;
                if a <= thr {
                    st.cand.push((a, offset + jj));
                    if knn {
                        st.heap.push(a);
                        if st.heap.is_full() {
                            thr = st.heap.worst() + st.margin;
                        }
                    }
                }
            }
        }
        None => {
            for (jj, &g) in grow.iter().enumerate() {
                let a = F::one() - g;
                if a <= thr {
                    st.cand.push((a, offset + jj));
                    if knn {
                        st.heap.push(a);
                        if st.heap.is_full() {
                            thr = st.heap.worst() + st.margin;
                        }
                    }
                }
            }
        }
    }
    st.thr = thr;
    // Keep the candidate list short when the threshold has dropped a lot.
    if knn && st.cand.len() > 4 * st.k + 1024 {
        st.cand.retain(|&(a, _)| a <= thr);
    }
}

fn finish<F: Float>(
    st: RowState<F>,
    qrow: &[F],
    xs: &[F],
    d: usize,
    kernel: &Prepared<F>,
    mode: Mode<F>,
) -> Vec<(F, usize)> {
    let dd = d.max(1);
    match mode {
        Mode::Knn(k) => {
            let thr = st.heap.worst() + st.margin;
            let mut out: Vec<(F, usize)> = st
                .cand
                .into_iter()
                .filter(|&(a, _)| a <= thr)
                .map(|(_, j)| (kernel.rdist(qrow, &xs[j * dd..j * dd + d]), j))
                .collect();
            sort_pairs(&mut out);
            out.truncate(k);
            out
        }
        Mode::Radius { r, r_red } => {
            let mut out: Vec<(F, usize)> = st
                .cand
                .into_iter()
                .filter_map(|(_, j)| {
                    let rd = kernel.rdist(qrow, &xs[j * dd..j * dd + d]);
                    (rd <= r_red && kernel.finalize(rd) <= r).then_some((rd, j))
                })
                .collect();
            sort_pairs(&mut out);
            out
        }
    }
}
