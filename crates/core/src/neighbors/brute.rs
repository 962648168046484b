//! Brute-force search.
//!
//! **Direct path** (every metric): each query scans all training rows with the metric's
//! kernel and keeps the k best in a max-heap; queries in parallel over fixed chunks.
//!
//! **GEMM path** ((squared) Euclidean, Minkowski `p = 2`, cosine): queries are processed in
//! blocks of [`QUERY_BLOCK`] rows against tiles of [`TRAIN_TILE`] training rows; for each tile
//! one GEMM (top level, multithreaded BLAS, into a reused buffer) gives a score `gᵢⱼ`, and the
//! rows of the tile are scanned in parallel. For Euclidean the data are centred at the
//! training mean and augmented with one column (`[q̃, 1]` against `[x̃, −‖x̃‖²/2]`), so that
//! `gᵢⱼ = q̃ᵢᵀx̃ⱼ − ‖x̃ⱼ‖²/2` and the proxy of the reduced distance is `aᵢⱼ = ‖q̃ᵢ‖² − 2gᵢⱼ`; for
//! cosine the rows are normalised and `aᵢⱼ = 1 − gᵢⱼ`. Either way "`aᵢⱼ ≤ threshold`" is a
//! single comparison `gᵢⱼ ≥ cᵢ` per entry. The proxy differs from the directly computed
//! reduced distance `rᵢⱼ` by at most `Eᵢ` (a rounding bound: `(8d + 32) ε (‖q̃ᵢ‖² +
//! maxⱼ‖x̃ⱼ‖²)`, or `(8d + 32) ε` for cosine). If `t` is the k-th smallest proxy of a query,
//! every true neighbour has `aᵢⱼ ≤ t + 2Eᵢ` (its `r ≤ r₍ₖ₎ ≤ t + Eᵢ`), so the scan keeps only
//! those candidates (with a running `t`), then computes their exact `rᵢⱼ` with the direct
//! kernel and sorts by `(r, index)`. The answer is therefore exactly the direct path's, at GEMM
//! speed; candidates beyond `k` are few unless distances are nearly tied.

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayView2, s};
use rayon::prelude::*;

use super::NeighborIndex;
use super::heap::{KBest, KSmallest, sort_pairs};
use crate::Float;
use crate::distance::kernels::Prepared;

/// Query rows per GEMM block.
const QUERY_BLOCK: usize = 1024;
/// Training rows per GEMM tile.
const TRAIN_TILE: usize = 2048;
/// Query rows per parallel scanning task.
const SCAN_ROWS: usize = 8;

/// Per-index precomputation of the GEMM path.
#[derive(Debug, Clone)]
pub(crate) enum Cache<F: Float> {
    /// No GEMM path for this metric.
    Direct,
    /// Training rows centred at their mean and augmented with `−‖x̃‖²/2` (`n × (d + 1)`).
    SqEuclid {
        center: Array1<F>,
        xt: Array2<F>,
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
                let (n, d) = data.dim();
                let mut xt = Array2::zeros((n, d + 1));
                let mut xn_max = F::zero();
                let half = F::cast(0.5);
                for (mut out, row) in xt.rows_mut().into_iter().zip(data.rows()) {
                    let mut norm = F::zero();
                    for j in 0..d {
                        let v = row[j] - center[j];
                        out[j] = v;
                        norm += v * v;
                    }
                    out[d] = -half * norm;
                    xn_max = xn_max.max(norm);
                }
                Self::SqEuclid { center, xt, xn_max }
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
pub(super) fn knn<F: Float>(
    index: &NeighborIndex<F>,
    q: ArrayView2<'_, F>,
    k: usize,
) -> Vec<Vec<(F, usize)>> {
    match index.brute_cache() {
        Cache::Direct => direct(index, q, Mode::Knn(k)),
        cache => gemm(index, cache, q, Mode::Knn(k)),
    }
}

/// Radius search by brute force: sorted `(reduced distance, index)` lists.
pub(super) fn radius<F: Float>(
    index: &NeighborIndex<F>,
    q: ArrayView2<'_, F>,
    r: F,
) -> Vec<Vec<(F, usize)>> {
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

fn direct<F: Float>(
    index: &NeighborIndex<F>,
    q: ArrayView2<'_, F>,
    mode: Mode<F>,
) -> Vec<Vec<(F, usize)>> {
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
    /// Current threshold on the proxy `a`.
    thr: F,
    /// `2 E`: the slack between the k-th proxy and the threshold.
    margin: F,
    /// `‖q̃‖²` (Euclidean) or 1 (cosine): `a = base − 2g` or `a = base − g`.
    base: F,
    k: usize,
    cand: Vec<(F, usize)>,
}

/// Proxy kind: `a = base − 2g` (Euclidean) or `a = base − g` (cosine).
#[derive(Clone, Copy)]
enum Proxy {
    Euclid,
    Cosine,
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
    let (proxy, xt) = match cache {
        Cache::SqEuclid { xt, .. } => (Proxy::Euclid, xt),
        Cache::Cosine { xt } => (Proxy::Cosine, xt),
        Cache::Direct => return direct(index, q, mode),
    };
    let width = TRAIN_TILE.min(n);
    let mut buf = Array2::<F>::zeros((QUERY_BLOCK.min(nq), width));
    let mut results = Vec::with_capacity(nq);
    for qb in (0..nq).step_by(QUERY_BLOCK) {
        let qe = (qb + QUERY_BLOCK).min(nq);
        let qblock = q.slice(s![qb..qe, ..]);
        // Transformed queries and per-row proxy bases and error bounds.
        let (qt, bases, errs): (Array2<F>, Vec<F>, Vec<F>) = match cache {
            Cache::SqEuclid { center, xn_max, .. } => {
                let mut qt = Array2::zeros((qe - qb, d + 1));
                let mut bases = Vec::with_capacity(qe - qb);
                let mut errs = Vec::with_capacity(qe - qb);
                for (mut out, row) in qt.rows_mut().into_iter().zip(qblock.rows()) {
                    let mut norm = F::zero();
                    for j in 0..d {
                        let v = row[j] - center[j];
                        out[j] = v;
                        norm += v * v;
                    }
                    out[d] = F::one();
                    bases.push(norm);
                    errs.push(eps * (norm + *xn_max));
                }
                (qt, bases, errs)
            }
            _ => {
                let qt = crate::distance::pairwise_normalize_rows(&qblock);
                (qt, vec![F::one(); qe - qb], vec![eps; qe - qb])
            }
        };
        let mut states: Vec<RowState<F>> = (0..qe - qb)
            .map(|i| {
                let (k, thr) = match mode {
                    Mode::Knn(k) => (k, F::infinity()),
                    Mode::Radius { r_red, .. } => (1, r_red + errs[i]),
                };
                RowState {
                    heap: KSmallest::new(k),
                    thr,
                    margin: two * errs[i],
                    base: bases[i],
                    k,
                    cand: Vec::new(),
                }
            })
            .collect();
        for tb in (0..n).step_by(TRAIN_TILE) {
            let te = (tb + TRAIN_TILE).min(n);
            let w = te - tb;
            let mut g = buf.slice_mut(s![..qe - qb, ..w]);
            general_mat_mul(
                F::one(),
                &qt,
                &xt.slice(s![tb..te, ..]).t(),
                F::zero(),
                &mut g,
            );
            let g = g.view();
            states
                .par_chunks_mut(SCAN_ROWS)
                .enumerate()
                .for_each(|(c, chunk)| {
                    for (r, st) in chunk.iter_mut().enumerate() {
                        let grow = g.row(c * SCAN_ROWS + r);
                        if let Some(grow) = grow.as_slice() {
                            scan(st, grow, tb, proxy, mode, two);
                        }
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

/// The score `g` below which an entry cannot pass `a ≤ thr`, loosened by a few ulps so the
/// cheap test keeps every entry that passes the exact one.
#[inline(always)]
fn score_cut<F: Float>(base: F, thr: F, proxy: Proxy) -> F {
    if thr == F::infinity() {
        return F::neg_infinity();
    }
    let slack = F::cast(8.0) * F::epsilon() * (base.abs() + thr.abs());
    match proxy {
        Proxy::Euclid => (base - thr) * F::cast(0.5) - slack,
        Proxy::Cosine => base - thr - slack,
    }
}

#[inline]
fn scan<F: Float>(
    st: &mut RowState<F>,
    grow: &[F],
    offset: usize,
    proxy: Proxy,
    mode: Mode<F>,
    two: F,
) {
    let knn = matches!(mode, Mode::Knn(_));
    let base = st.base;
    let mut thr = st.thr;
    let mut cut = score_cut(base, thr, proxy);
    const BLOCK: usize = 16;
    for (b, chunk) in grow.chunks(BLOCK).enumerate() {
        // Branch-free test of the whole chunk first: most chunks hold no candidate.
        // (An OR of comparisons is an associative reduction, so it vectorises.)
        if !chunk.iter().fold(false, |any, &v| any | (v >= cut)) {
            continue;
        }
        for (jj, &g) in chunk.iter().enumerate() {
            if g < cut {
                continue;
            }
            let a = match proxy {
                Proxy::Euclid => base - two * g,
                Proxy::Cosine => base - g,
            };
            if a <= thr {
                st.cand.push((a, offset + b * BLOCK + jj));
                if knn {
                    st.heap.push(a);
                    if st.heap.is_full() {
                        thr = st.heap.worst() + st.margin;
                        cut = score_cut(base, thr, proxy);
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
