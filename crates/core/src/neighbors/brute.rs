//! Brute-force search.
//!
//! **Direct path** (every metric): each query scans all training rows with the metric's
//! kernel and keeps the k best in a max-heap; queries in parallel over fixed chunks.
//!
//! **Fused path** ((squared) Euclidean, Minkowski `p = 2`, cosine): the training rows are
//! stored once (when a brute-force index is built; for a tree index at its first brute-force
//! query), augmented with one column and in panels of
//! 16 rows (`f32` scores) or 8 rows (`f64` scores), coordinate-major inside a panel. For
//! Euclidean the rows are centred at the training mean and augmented with `−‖x̃‖²/2`, so that
//! with a query `q̃` (centred the same way) the score `gᵢⱼ = q̃ᵢᵀx̃ⱼ − ‖x̃ⱼ‖²/2` gives the proxy
//! of the reduced distance `aᵢⱼ = ‖q̃ᵢ‖² − 2gᵢⱼ`; for cosine the rows are normalised, the extra
//! column is 0 and `aᵢⱼ = 1 − gᵢⱼ`. Either way "`aᵢⱼ ≤ threshold`" is a single comparison
//! `gᵢⱼ ≥ cᵢ`.
//!
//! Queries are processed in parallel tasks of [`TASK_ROWS`] rows. Inside a task, micro-blocks
//! of a few query rows pass over the panels of a tile of training rows that stays in the L2
//! cache; the scores of a micro-block against one panel are accumulated in SIMD registers
//! (one fused multiply-add per coordinate, query and lane) and compared with the thresholds at
//! once, so no score matrix is ever written to memory. (A GEMM into a score matrix, the
//! previous design, spent most of its time writing, zeroing and re-reading that matrix:
//! measured 1.4–3.8 s against 0.8 s per 10,000 queries on 200,000 × 16, and 0.5 s with `f32`
//! scores.) The kernel is compiled for AVX-512, AVX2 + FMA and AVX besides the baseline, and
//! the best one the CPU supports is chosen at run time ([`multiversion`]; decision 0016), capped
//! by the `NDLEARN_SIMD` switch of [`simd`](crate::simd) (tests run every level the CPU has).
//!
//! **Precision of the scores.** The scores only pre-select, so they are formed in `f32` for
//! `f64` data too (twice the lanes), whenever the norms are in `f32`'s safe range
//! (`10⁻²⁰ ≤ max ‖x̃‖² ≤ 10³⁰`: no product or sum overflows, and underflow errors stay far
//! below the bound); otherwise in `f64` (`f64` data with `10⁻²⁵⁰ ≤ max ‖x̃‖² ≤ 10³⁰⁰`), or
//! not at all (the direct scan). A single query with `‖q̃‖²` beyond the limit is scanned
//! directly. For cosine, training rows or queries whose squared norm overflows or underflows
//! (outside `10^±280` in `f64`, `10^±30` in `f32`; zero rows are fine) go to the direct scan
//! too: there the normalised rows, and the cosine kernel itself, lose the accuracy the bound
//! assumes.
//!
//! **Exactness.** With `ε` the epsilon of the score precision, the proxy differs from the
//! directly computed reduced distance `rᵢⱼ` by at most `Eᵢ = (8d + 32) ε (‖q̃ᵢ‖² +
//! maxⱼ‖x̃ⱼ‖²)`, or `(8d + 32) ε` for cosine (the rounding of the inputs to `f32` and of a
//! sum of `d + 1` products in any order, fused or not, is below `(d + 3) ε (‖q̃‖² + ‖x̃‖²)`).
//! If `t` is the k-th smallest proxy of a query, every true neighbour has `aᵢⱼ ≤ t + 2Eᵢ`
//! (its `r ≤ r₍ₖ₎ ≤ t + Eᵢ`), so the scan keeps only those candidates (with a running `t`;
//! thresholds are rounded down when converted to the score precision), then computes their
//! exact `rᵢⱼ` with the direct kernel in the data's precision and sorts by `(r, index)`. The
//! answer is therefore exactly the direct path's, on any CPU and for any number of threads;
//! candidates beyond `k` are few unless distances are nearly tied.

use multiversion::multiversion;
use multiversion::target::selected_target;
use ndarray::{Array1, Array2, ArrayView2, s};

use super::NeighborIndex;
use super::heap::{KBest, KSmallest, sort_pairs};
use crate::Float;
use crate::distance::kernels::Prepared;
use crate::simd::SimdLevel;

/// Query rows per parallel task.
const TASK_ROWS: usize = 64;
/// Bytes of training panels per tile: a tile stays in the L2 cache while the query rows of a
/// task pass over it.
const TILE_BYTES: usize = 256 * 1024;
/// Scores in `f32` need `‖x̃‖², ‖q̃‖² ≤ NARROW_MAX` (no product or sum can overflow)...
const NARROW_MAX: f64 = 1e30;
/// ... and `max ‖x̃‖² ≥ NARROW_MIN` (`f32` underflow errors stay far below the bound).
const NARROW_MIN: f64 = 1e-20;
/// Scores in `f64` need `‖x̃‖², ‖q̃‖² ≤ WIDE_MAX`...
const WIDE_MAX: f64 = 1e300;
/// ... and `max ‖x̃‖² ≥ WIDE_MIN` (the bound stays far above subnormal rounding errors).
const WIDE_MIN: f64 = 1e-250;

/// The squared norms (zero aside) for which the cosine kernel (`x·y / (‖x‖ ‖y‖)`) and the
/// normalised rows are accurate to the bound: no overflow or underflow of `‖x‖²`.
fn cosine_norms_ok<F: Float>(n2: F) -> bool {
    let (lo, hi) = if std::mem::size_of::<F>() == 8 {
        (1e-280, 1e280)
    } else {
        (1e-30, 1e30)
    };
    n2 == F::zero() || (F::cast(lo) <= n2 && n2 <= F::cast(hi))
}

/// The training panels of the fused path, in the precision the scores are formed in.
#[derive(Debug, Clone)]
pub(crate) enum PanelSet<F> {
    /// `f32` scores, 16 rows per panel (both precisions, when the norms allow).
    Narrow(Panels<f32, 16>),
    /// Scores in the data's own precision (`f64`), 8 rows per panel.
    Wide(Panels<F, 8>),
}

/// Per-index precomputation of the fused path.
#[derive(Debug, Clone)]
pub(crate) enum Cache<F: Float> {
    /// No fused path for this metric (or data whose norms neither precision can score safely).
    Direct,
    /// Training rows centred at their mean, augmented with `−‖x̃‖²/2`.
    SqEuclid {
        center: Array1<F>,
        xn_max: F,
        panels: PanelSet<F>,
    },
    /// Training rows scaled to unit norm, augmented with 0.
    Cosine { panels: Panels<f32, 16> },
}

impl<F: Float> Cache<F> {
    pub(crate) fn new(data: &Array2<F>, kernel: &Prepared<F>) -> Self {
        let Some((center, xn_max)) = augmentation(data, kernel) else {
            return Self::Direct;
        };
        let Some(center) = center else {
            return Self::Cosine {
                panels: Panels::new(data, &Augment::Cosine),
            };
        };
        let m = xn_max.to_f64_lossless();
        let aug = Augment::Euclid(&center);
        let panels = if (NARROW_MIN..=NARROW_MAX).contains(&m) {
            PanelSet::Narrow(Panels::new(data, &aug))
        } else if std::mem::size_of::<F>() == 8 && (WIDE_MIN..=WIDE_MAX).contains(&m) {
            PanelSet::Wide(Panels::new(data, &aug))
        } else {
            return Self::Direct;
        };
        Self::SqEuclid {
            center,
            xn_max,
            panels,
        }
    }
}

/// How the training rows are augmented: `[x̃, b]` with `x̃ = x − center`, `b = −‖x̃‖²/2`
/// (squared Euclidean), or `x̃ = x / ‖x‖`, `b = 0` (cosine).
enum Augment<'a, F> {
    Euclid(&'a Array1<F>),
    Cosine,
}

impl<F: Float> Augment<'_, F> {
    /// Writes the augmented row of `row` (`d + 1` values, bias last) into `out`.
    fn row(&self, row: ndarray::ArrayView1<'_, F>, out: &mut [F]) {
        let d = row.len();
        match self {
            Self::Euclid(center) => {
                let mut norm = F::zero();
                for j in 0..d {
                    let v = row[j] - center[j];
                    out[j] = v;
                    norm += v * v;
                }
                out[d] = F::cast(-0.5) * norm;
            }
            // as the cosine pairwise distances normalise rows
            Self::Cosine => {
                let n = row.dot(&row).sqrt();
                for (o, &v) in out.iter_mut().zip(row) {
                    *o = if n > F::zero() { v / n } else { v };
                }
                out[d] = F::zero();
            }
        }
    }
}

/// The centre (`None` for cosine) and `max ‖x̃‖²` (1 for cosine) of the augmented training
/// rows, or `None` when the metric has no fused path or (cosine) a squared norm is out of range.
/// The augmented rows themselves are written straight into the panels ([`Panels::new`]), so
/// the cache never holds a second `n × (d + 1)` copy in the data's precision.
fn augmentation<F: Float>(
    data: &Array2<F>,
    kernel: &Prepared<F>,
) -> Option<(Option<Array1<F>>, F)> {
    let d = data.ncols();
    match kernel {
        Prepared::SqEuclid { .. } => {
            let center = crate::distance::pairwise_column_means(data);
            let mut xn_max = F::zero();
            for row in data.rows() {
                let mut norm = F::zero();
                for j in 0..d {
                    let v = row[j] - center[j];
                    norm += v * v;
                }
                xn_max = xn_max.max(norm);
            }
            Some((Some(center), xn_max))
        }
        Prepared::Cosine => {
            let norms_ok = data
                .rows()
                .into_iter()
                .all(|r| cosine_norms_ok(r.iter().fold(F::zero(), |s, &v| s + v * v)));
            norms_ok.then_some((None, F::one()))
        }
        _ => None,
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
    fused(index, q, Mode::Knn(k))
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
    fused(index, q, mode)
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
    index.per_query(q, |row, out, heap| {
        *out = scan_row(row, xs, d, &index.kernel, mode, heap);
    })
}

/// The direct scan of one query row (`heap`: a reusable k-NN heap).
fn scan_row<F: Float>(
    row: &[F],
    xs: &[F],
    d: usize,
    kernel: &Prepared<F>,
    mode: Mode<F>,
    heap: &mut Option<KBest<F>>,
) -> Vec<(F, usize)> {
    match mode {
        Mode::Knn(k) => {
            let h = heap.get_or_insert_with(|| KBest::new(k));
            h.clear();
            for (j, x) in xs.chunks_exact(d.max(1)).enumerate() {
                let rd = kernel.rdist(row, x);
                if rd <= h.worst() {
                    h.push(rd, j);
                }
            }
            h.sorted()
        }
        Mode::Radius { r, r_red } => {
            let mut out = Vec::new();
            for (j, x) in xs.chunks_exact(d.max(1)).enumerate() {
                let rd = kernel.rdist(row, x);
                if rd <= r_red && kernel.finalize(rd) <= r {
                    out.push((rd, j));
                }
            }
            sort_pairs(&mut out);
            out.shrink_to_fit();
            out
        }
    }
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
    /// A query whose norm the score precision cannot take: scanned directly instead.
    direct: bool,
}

/// Proxy kind: `a = base − 2g` (Euclidean) or `a = base − g` (cosine).
#[derive(Clone, Copy)]
enum Proxy {
    Euclid,
    Cosine,
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

fn finish<F: Float>(
    st: RowState<F>,
    qrow: &[F],
    xs: &[F],
    d: usize,
    kernel: &Prepared<F>,
    mode: Mode<F>,
) -> Vec<(F, usize)> {
    if st.direct {
        return scan_row(qrow, xs, d, kernel, mode, &mut None);
    }
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
            // the list reuses the candidates' allocation (up to `4k + 1024` pairs): give the
            // excess back, or every query's list would keep it until the answer is assembled
            out.shrink_to_fit();
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

/// Augmented training rows `[x̃, b]` (`b = −‖x̃‖²/2` for Euclidean, 0 for cosine) in panels of
/// `L` rows, stored as `S`: panel `p` holds `b` of its rows, then coordinate 0 of its rows, and
/// so on (`(d + 1) × L` values). Lanes past the last row hold `b = NaN`, so their scores fail
/// every comparison.
#[derive(Debug, Clone)]
pub(crate) struct Panels<S, const L: usize> {
    buf: Vec<S>,
    /// `d + 1`.
    width: usize,
    n: usize,
}

impl<S: Float, const L: usize> Panels<S, L> {
    /// The augmented rows of `data` (bias last), rounded to `S`, each formed in a scratch row.
    fn new<F: Float>(data: &Array2<F>, aug: &Augment<'_, F>) -> Self {
        let (n, d) = data.dim();
        let width = d + 1;
        let mut buf = vec![S::zero(); n.div_ceil(L) * width * L];
        let mut row = vec![F::zero(); width];
        for (p, panel) in buf.chunks_exact_mut(width * L).enumerate() {
            for l in 0..L {
                let i = p * L + l;
                if i >= n {
                    panel[l] = S::nan();
                    continue;
                }
                aug.row(data.row(i), &mut row);
                panel[l] = S::cast(row[d]);
                for j in 0..d {
                    panel[(j + 1) * L + l] = S::cast(row[j]);
                }
            }
        }
        Self { buf, width, n }
    }
}

/// The fused path: scores of a panel of training rows against a few query rows are computed in
/// registers and compared with the query thresholds at once, so no score matrix is written.
fn fused<F: Float>(
    index: &NeighborIndex<F>,
    q: ArrayView2<'_, F>,
    mode: Mode<F>,
) -> Vec<Vec<(F, usize)>> {
    let d = index.n_features();
    let narrow_eps = F::cast(f32::EPSILON) * F::cast(8 * d + 32);
    let wide_eps = F::epsilon() * F::cast(8 * d + 32);
    let narrow_max = F::cast(NARROW_MAX);
    match index.brute_cache() {
        Cache::SqEuclid {
            panels: PanelSet::Narrow(p),
            ..
        }
        | Cache::Cosine { panels: p } => {
            let spec = (narrow_eps, narrow_max);
            fused_with(index, q, mode, p, spec, scan_task::<F, f32, 16>)
        }
        Cache::SqEuclid {
            panels: PanelSet::Wide(p),
            ..
        } => {
            let spec = (wide_eps, F::cast(WIDE_MAX));
            fused_with(index, q, mode, p, spec, scan_task::<F, F, 8>)
        }
        Cache::Direct => direct(index, q, mode),
    }
}

/// The signature of a task scanner ([`scan_task`] or one of its bodies).
type Scanner<F, S, const L: usize> =
    fn(&Panels<S, L>, &[F], usize, &mut [RowState<F>], Proxy, Mode<F>, usize);

/// [`fused`] with given panels, `(ε-factor of the bound, largest query norm²)` of their
/// precision, and task scanner (tests run every kernel variant this way, whatever the CPU).
fn fused_with<F: Float, S: Float, const L: usize>(
    index: &NeighborIndex<F>,
    q: ArrayView2<'_, F>,
    mode: Mode<F>,
    panels: &Panels<S, L>,
    (eps, q_max): (F, F),
    scanner: Scanner<F, S, L>,
) -> Vec<Vec<(F, usize)>> {
    let d = index.n_features();
    let nq = q.nrows();
    let xs = training_slice(index);
    let Some(qs) = q.to_slice() else {
        return Vec::new();
    };
    let kernel = &index.kernel;
    let cache = index.brute_cache();
    let two = F::cast(2.0);
    let tile_panels = (TILE_BYTES / (panels.width * L * std::mem::size_of::<S>())).max(4);
    let chunks = crate::par::map_chunks(nq, TASK_ROWS, |r| {
        let (qa, qe) = (r.start, r.end);
        let rows = qe - qa;
        let qblock = q.slice(s![qa..qe, ..]);
        // transformed query rows, their proxy bases and error bounds
        let mut qt = vec![F::zero(); rows * d];
        let mut states: Vec<RowState<F>> = Vec::with_capacity(rows);
        for (i, row) in qblock.rows().into_iter().enumerate() {
            let out = &mut qt[i * d..(i + 1) * d];
            // a query too far out for the score precision (or, for cosine, with a squared norm
            // that overflows or underflows) is scanned directly
            let (base, err, direct) = match cache {
                Cache::SqEuclid { center, xn_max, .. } => {
                    let mut norm = F::zero();
                    for j in 0..d {
                        let v = row[j] - center[j];
                        out[j] = v;
                        norm += v * v;
                    }
                    let direct = norm.is_nan() || norm > q_max;
                    (norm, eps * (norm + *xn_max), direct)
                }
                _ => {
                    // as `Augment::row` does for the training rows
                    let n2 = row.iter().fold(F::zero(), |s, &v| s + v * v);
                    let norm = n2.sqrt();
                    for (o, &v) in out.iter_mut().zip(row) {
                        *o = if norm > F::zero() { v / norm } else { v };
                    }
                    (F::one(), eps, !cosine_norms_ok(n2))
                }
            };
            // the scores of a direct row are made harmless: zero coordinates, a threshold
            // nothing passes
            if direct {
                out.fill(F::zero());
            }
            let (k, thr) = match mode {
                _ if direct => (1, F::neg_infinity()),
                Mode::Knn(k) => (k, F::infinity()),
                Mode::Radius { r_red, .. } => (1, r_red + err),
            };
            states.push(RowState {
                heap: KSmallest::new(k),
                thr,
                margin: two * err,
                base: if direct { F::zero() } else { base },
                k,
                cand: Vec::new(),
                direct,
            });
        }
        scanner(
            panels,
            &qt,
            d,
            &mut states,
            proxy_of(cache),
            mode,
            tile_panels,
        );
        states
            .into_iter()
            .enumerate()
            .map(|(i, st)| {
                let qrow = &qs[(qa + i) * d..(qa + i + 1) * d];
                finish(st, qrow, xs, d, kernel, mode)
            })
            .collect::<Vec<_>>()
    });
    chunks.into_iter().flatten().collect()
}

fn proxy_of<F: Float>(cache: &Cache<F>) -> Proxy {
    match cache {
        Cache::Cosine { .. } => Proxy::Cosine,
        _ => Proxy::Euclid,
    }
}

/// The score cut in the storage precision, rounded down (toward −∞), so the test in `S` keeps
/// every entry the test in `F` keeps.
#[inline(always)]
fn cut_down<F: Float, S: Float>(c: F) -> S {
    let s = S::cast(c);
    if !s.is_finite() && c.is_finite() {
        return if c > F::zero() {
            S::max_value()
        } else {
            S::neg_infinity()
        };
    }
    if F::cast(s) > c {
        s - (s.abs() * S::epsilon() + S::min_positive_value())
    } else {
        s
    }
}

/// Scans all training panels for the query rows of one task (`qt`: `rows × d`, transformed)
/// with the kernel version of [`simd::active`](crate::simd::active): the widest the CPU
/// supports, capped by `NDLEARN_SIMD`.
fn scan_task<F: Float, S: Float, const L: usize>(
    panels: &Panels<S, L>,
    qt: &[F],
    d: usize,
    states: &mut [RowState<F>],
    proxy: Proxy,
    mode: Mode<F>,
    tile_panels: usize,
) {
    scanner_at::<F, S, L>(crate::simd::active())(panels, qt, d, states, proxy, mode, tile_panels)
}

/// The task scanner compiled for `level` (each one still checks the CPU at run time and falls
/// back to a narrower version the CPU supports).
fn scanner_at<F: Float, S: Float, const L: usize>(level: SimdLevel) -> Scanner<F, S, L> {
    match level {
        SimdLevel::Avx512 => scan_task_avx512,
        SimdLevel::Avx2Fma => scan_task_avx2,
        SimdLevel::Avx => scan_task_avx,
        SimdLevel::Baseline => scan_task_body::<F, S, false, 4, L>,
    }
}

/// Defines a task scanner multiversioned over `targets` (widest first): the body picks fused
/// multiply-add and 8-row micro-blocks from the version the dispatcher selected.
macro_rules! scanner_for_targets {
    ($(#[$doc:meta])* $name:ident, $($target:literal),+) => {
        $(#[$doc])*
        #[multiversion(targets($($target),+))]
        fn $name<F: Float, S: Float, const L: usize>(
            panels: &Panels<S, L>,
            qt: &[F],
            d: usize,
            states: &mut [RowState<F>],
            proxy: Proxy,
            mode: Mode<F>,
            tile_panels: usize,
        ) {
            let fma = selected_target!().supports_feature_str("fma");
            // 8 query rows per micro-block with 8 lanes (f64): 8 accumulator registers of 512
            // bits; with 16 lanes (f32) LLVM vectorises 8 rows badly (gathers, 20× slower): 4
            let wide = selected_target!().supports_feature_str("avx512f") && L == 8;
            match (fma, wide) {
                (true, true) => scan_task_body::<F, S, true, 8, L>(
                    panels, qt, d, states, proxy, mode, tile_panels,
                ),
                (true, false) => scan_task_body::<F, S, true, 4, L>(
                    panels, qt, d, states, proxy, mode, tile_panels,
                ),
                _ => scan_task_body::<F, S, false, 4, L>(
                    panels, qt, d, states, proxy, mode, tile_panels,
                ),
            }
        }
    };
}

scanner_for_targets!(
    /// The scanner for AVX-512 (or the widest narrower level the CPU has).
    scan_task_avx512,
    "x86_64+avx512f+avx512vl+avx2+fma",
    "x86_64+avx2+fma",
    "x86_64+avx"
);
scanner_for_targets!(
    /// The scanner for AVX2 + FMA (or AVX, or the baseline).
    scan_task_avx2,
    "x86_64+avx2+fma",
    "x86_64+avx"
);
scanner_for_targets!(
    /// The scanner for AVX (or the baseline).
    scan_task_avx,
    "x86_64+avx"
);

#[inline(always)]
fn scan_task_body<F: Float, S: Float, const FMA: bool, const Q: usize, const L: usize>(
    panels: &Panels<S, L>,
    qt: &[F],
    d: usize,
    states: &mut [RowState<F>],
    proxy: Proxy,
    mode: Mode<F>,
    tile_panels: usize,
) {
    let knn = matches!(mode, Mode::Knn(_));
    let two = F::cast(2.0);
    let plen = panels.width * L;
    let n_panels = panels.buf.len() / plen.max(1);
    let rows = states.len();
    // query rows in micro-blocks of Q, coordinate-major (`[j][i]`), padded with zero rows
    let n_blocks = rows.div_ceil(Q);
    let mut qm = vec![S::zero(); n_blocks * d * Q];
    for i in 0..rows {
        let (b, ii) = (i / Q, i % Q);
        for j in 0..d {
            qm[b * d * Q + j * Q + ii] = S::cast(qt[i * d + j]);
        }
    }
    for p0 in (0..n_panels).step_by(tile_panels) {
        let p1 = (p0 + tile_panels).min(n_panels);
        for b in 0..n_blocks {
            let qb = &qm[b * d * Q..(b + 1) * d * Q];
            let sts = &mut states[b * Q..((b + 1) * Q).min(rows)];
            let mut cuts = [S::infinity(); Q];
            for (c, st) in cuts.iter_mut().zip(sts.iter()) {
                if !st.direct {
                    *c = cut_down(score_cut(st.base, st.thr, proxy));
                }
            }
            for p in p0..p1 {
                let panel = &panels.buf[p * plen..(p + 1) * plen];
                let acc = micro::<S, FMA, Q, L>(panel, qb);
                for (i, st) in sts.iter_mut().enumerate() {
                    let cut = cuts[i];
                    if !acc[i].iter().fold(false, |any, &v| any | (v >= cut)) {
                        continue;
                    }
                    for (l, &g) in acc[i].iter().enumerate() {
                        // padding lanes score NaN and fail this test
                        if g >= cuts[i] {
                            let j = p * L + l;
                            let g = F::cast(g);
                            let a = match proxy {
                                Proxy::Euclid => st.base - two * g,
                                Proxy::Cosine => st.base - g,
                            };
                            if a <= st.thr && j < panels.n {
                                st.cand.push((a, j));
                                if knn {
                                    st.heap.push(a);
                                    if st.heap.is_full() {
                                        st.thr = st.heap.worst() + st.margin;
                                        cuts[i] = cut_down(score_cut(st.base, st.thr, proxy));
                                    }
                                }
                            }
                        }
                    }
                }
            }
            if knn {
                for st in sts.iter_mut() {
                    if st.cand.len() > 4 * st.k + 1024 {
                        let thr = st.thr;
                        st.cand.retain(|&(a, _)| a <= thr);
                    }
                }
            }
        }
    }
}

/// Scores `g = b + Σⱼ qⱼ xⱼ` of `Q` query rows (coordinate-major `qb`) against one panel.
#[inline(always)]
fn micro<S: Float, const FMA: bool, const Q: usize, const L: usize>(
    panel: &[S],
    qb: &[S],
) -> [[S; L]; Q] {
    let (bias, xs) = panel.split_at(L);
    let mut acc = [[S::zero(); L]; Q];
    for row in acc.iter_mut() {
        row.copy_from_slice(bias);
    }
    for (x, qj) in xs.chunks_exact(L).zip(qb.chunks_exact(Q)) {
        let Ok(x) = <&[S; L]>::try_from(x) else {
            break;
        };
        for (row, &s) in acc.iter_mut().zip(qj) {
            lanes::<S, FMA, L>(s, x, row);
        }
    }
    acc
}

/// `row += s · x`, lane by lane (one vector instruction per register of lanes).
#[inline(always)]
fn lanes<S: Float, const FMA: bool, const L: usize>(s: S, x: &[S; L], row: &mut [S; L]) {
    for (r, &v) in row.iter_mut().zip(x) {
        *r = if FMA { s.mul_add(v, *r) } else { s * v + *r };
    }
}

#[cfg(test)]
mod kernel_tests {
    use super::*;
    use crate::distance::Metric;
    use crate::neighbors::{Algorithm, NeighborIndex};

    /// Every kernel variant (scores in `f32` or `f64`, fused multiply-add or not, 4 or 8 query
    /// rows per micro-block) gives the exact answer, whichever variant this CPU dispatches to.
    #[test]
    fn every_kernel_variant_is_exact() {
        let (n, nq, d) = (3_001, 75, 5);
        // small integers from a multiplicative hash: many exact ties
        let cell = |i: usize, j: usize| ((i * 2_654_435_761 + j * 40_503) >> 9) % 5;
        let x = Array2::from_shape_fn((n, d), |(i, j)| cell(i, j) as f64);
        let q = Array2::from_shape_fn((nq, d), |(i, j)| cell(i + n, j) as f64 + 0.5);
        // the bodies directly, then the dispatched version of every level this CPU supports
        let mut narrow: Vec<Scanner<f64, f32, 16>> = vec![
            scan_task_body::<f64, f32, false, 4, 16>,
            scan_task_body::<f64, f32, true, 4, 16>,
            scan_task_body::<f64, f32, true, 8, 16>,
            scan_task,
        ];
        let mut wide: Vec<Scanner<f64, f64, 8>> = vec![
            scan_task_body::<f64, f64, false, 4, 8>,
            scan_task_body::<f64, f64, true, 4, 8>,
            scan_task_body::<f64, f64, true, 8, 8>,
            scan_task,
        ];
        for level in crate::simd::supported() {
            narrow.push(scanner_at(level));
            wide.push(scanner_at(level));
        }
        for (metric, r) in [(Metric::Euclidean, 1.5), (Metric::Cosine, 0.02)] {
            let index = NeighborIndex::build(x.clone(), metric.clone(), Algorithm::Brute, 30)
                .expect("valid");
            let want_knn = direct(&index, q.view(), Mode::Knn(9));
            let mode = Mode::Radius {
                r,
                r_red: index.kernel.reduced_upper(r),
            };
            let want_radius = direct(&index, q.view(), mode);
            assert!(want_radius.iter().any(|v| v.len() > 1));
            let (center, _) = augmentation(&x, &index.kernel).expect("fused metric");
            let aug = center.as_ref().map_or(Augment::Cosine, Augment::Euclid);
            let (p32, p64) = (Panels::new(&x, &aug), Panels::new(&x, &aug));
            let spec32 = (8.0 * d as f64 + 32.0) * f64::from(f32::EPSILON);
            let spec64 = (8.0 * d as f64 + 32.0) * f64::EPSILON;
            for (v, &scanner) in narrow.iter().enumerate() {
                let spec = (spec32, NARROW_MAX);
                let got = fused_with(&index, q.view(), Mode::Knn(9), &p32, spec, scanner);
                assert_eq!(got, want_knn, "{metric:?} f32 variant {v}");
                let got = fused_with(&index, q.view(), mode, &p32, spec, scanner);
                assert_eq!(got, want_radius, "{metric:?} f32 variant {v}");
            }
            for (v, &scanner) in wide.iter().enumerate() {
                let spec = (spec64, WIDE_MAX);
                let got = fused_with(&index, q.view(), Mode::Knn(9), &p64, spec, scanner);
                assert_eq!(got, want_knn, "{metric:?} f64 variant {v}");
                let got = fused_with(&index, q.view(), mode, &p64, spec, scanner);
                assert_eq!(got, want_radius, "{metric:?} f64 variant {v}");
            }
        }
    }
}
