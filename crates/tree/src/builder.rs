//! Tree growth: the splitter (exact sorted sweep or random thresholds over a random order of
//! candidate features, scikit-learn's `BestSplitter` / `RandomSplitter` semantics) and the
//! depth-first and best-first builders.
//!
//! Each node sorts its own rows by each candidate feature (the sample index array is permuted
//! in place, so children own contiguous ranges of it); no per-node allocation happens in the
//! sweep. Values closer than `FEATURE_THRESHOLD = 1e-7` are treated as equal (no split between
//! them), and a feature whose node range is within it is constant, as in scikit-learn.

use ndlearn_core::Float;
use rayon::prelude::*;

use crate::sk_random::TreeRng;

use crate::criterion::Criterion;
use crate::tree::Tree;

/// Two values closer than this are not separated (scikit-learn's `FEATURE_THRESHOLD`).
pub(crate) const FEATURE_THRESHOLD: f64 = 1e-7;

/// `b ≤ a + FEATURE_THRESHOLD` as scikit-learn evaluates it: in float32 arithmetic (its
/// features and the constant are float32) when `a` is a float32 value, so that two values
/// `1.04e-7` apart near 0.18 (a few float32 ulps) count as equal exactly when they do in
/// scikit-learn; in `f64` for values float32 cannot hold.
#[inline]
pub(crate) fn within_threshold<F: Float>(a: F, b: F) -> bool {
    let (a, b) = (a.to_f64_lossless(), b.to_f64_lossless());
    // Fast rejection: `a + 1e-7` rounded to float32 is below `a + 1e-7 + 2⁻²²·|a|`.
    if b - a > 1.1e-7 + 3e-7 * a.abs() {
        return false;
    }
    let a32 = a as f32;
    if f64::from(a32) == a {
        b <= f64::from(a32 + FEATURE_THRESHOLD as f32)
    } else {
        b <= a + FEATURE_THRESHOLD
    }
}
/// A node with impurity at most this is a leaf (scikit-learn's `EPSILON`).
const EPSILON: f64 = f64::EPSILON;

/// The resolved stopping rules and split search of one tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Config {
    pub max_depth: usize,
    pub min_samples_split: usize,
    pub min_samples_leaf: usize,
    pub min_weight_leaf: f64,
    pub min_impurity_decrease: f64,
    pub max_features: usize,
    pub max_leaf_nodes: Option<usize>,
    pub random_splits: bool,
    /// Nodes with at least this many rows sweep their features in parallel.
    pub parallel_min_rows: usize,
    /// Keep every feature presorted (when all features are searched; see `Presort`).
    pub presort: bool,
}

/// Nodes with at least this many rows sweep their candidate features in parallel.
pub(crate) const PARALLEL_MIN_ROWS: usize = 8192;

/// Sorts `(value, row)` pairs by value, then row: a total order, so the result does not depend
/// on the order the rows came in.
fn sort_pairs<F: Float>(pairs: &mut [(F, usize)]) {
    if pairs.len() < 64 {
        pairs.sort_unstable_by(|a, b| {
            a.0.partial_cmp(&b.0)
                .unwrap_or(std::cmp::Ordering::Equal)
                .then(a.1.cmp(&b.1))
        });
        return;
    }
    // The same order on integer keys: `(order_key(value) << 64) | row` compares as
    // `(value, row)` (with −0.0 and +0.0 equal, as `partial_cmp` has them), and integer
    // comparisons sort about twice as fast as the float comparator.
    let mut keys: Vec<u128> = pairs.iter().map(|&(v, i)| sort_key(v, i)).collect();
    keys.sort_unstable();
    for (p, &k) in pairs.iter_mut().zip(&keys) {
        *p = from_sort_key(k);
    }
}

/// `(order_key(value) << 64) | row`: the integer key of [`sort_pairs`]' order.
#[inline]
fn sort_key<F: Float>(v: F, i: usize) -> u128 {
    (u128::from(order_key(v.to_f64_lossless())) << 64) | i as u128
}

/// The value and row of a [`sort_key`] (the key of −0.0 is that of +0.0).
#[inline]
fn from_sort_key<F: Float>(k: u128) -> (F, usize) {
    (
        F::cast(from_order_key((k >> 64) as u64)),
        (k as u64) as usize,
    )
}

/// A `u64` whose unsigned order is the order of the (non-NaN) `f64` values, `−0.0` mapped to
/// `+0.0`.
#[inline]
fn order_key(v: f64) -> u64 {
    let b = (v + 0.0).to_bits();
    if b >> 63 == 1 { !b } else { b | (1 << 63) }
}

/// The inverse of [`order_key`].
#[inline]
fn from_order_key(k: u64) -> f64 {
    f64::from_bits(if k >> 63 == 1 { k & !(1 << 63) } else { !k })
}

/// The best threshold of one feature: the node's rows `rows` sorted by the feature with values
/// `xf`. Returns `(proxy, threshold, position in rows)` of the first best candidate.
fn sweep<F: Float, C: Criterion>(
    crit: &mut C,
    rows: &[usize],
    xf: &[F],
    cfg: &Config,
) -> Option<(f64, F, usize)> {
    sweep_runs(
        crit,
        rows,
        cfg,
        |p| within_threshold(xf[p], xf[p + 1]),
        |last, first| {
            let (a, b) = (xf[last], xf[first]);
            let two = F::cast(2.0);
            let t = a / two + b / two;
            if t >= b || !t.is_finite() { a } else { t }
        },
    )
}

/// The sweep both split modes share: `rows` come in runs that cannot be separated (`same(p)`:
/// rows `p` and `p + 1` are in one run); every boundary between runs that leaves
/// `min_samples_leaf` rows and `min_weight_leaf` weight on each side is a candidate, scored by
/// the criterion's proxy. Returns `(proxy, threshold(last left, first right), position)` of
/// the first best candidate.
#[inline]
fn sweep_runs<C: Criterion, T>(
    crit: &mut C,
    rows: &[usize],
    cfg: &Config,
    same: impl Fn(usize) -> bool,
    threshold: impl Fn(usize, usize) -> T,
) -> Option<(f64, T, usize)> {
    let n = rows.len();
    let (min_leaf, min_w) = (cfg.min_samples_leaf, cfg.min_weight_leaf);
    let mut best = None;
    let mut best_proxy = f64::NEG_INFINITY;
    crit.reset();
    let mut p = 0;
    while p < n {
        // Skip to the last row of the run.
        while p + 1 < n && same(p) {
            p += 1;
        }
        let p_prev = p;
        p += 1;
        if p >= n || p < min_leaf || n - p < min_leaf {
            continue;
        }
        crit.update(rows, p);
        let wl = crit.weighted_left();
        if wl < min_w || crit.weighted_n() - wl < min_w {
            continue;
        }
        let proxy = crit.proxy(rows, p);
        if proxy > best_proxy {
            best_proxy = proxy;
            best = Some((proxy, threshold(p_prev, p), p));
        }
    }
    best
}

/// The training features as the splitter reads them: `x[i, f]` is `xt[i·row_stride +
/// f·col_stride]`, over a column-major copy ([`to_columns`]) or over the caller's matrix itself
/// when it is contiguous in memory ([`Columns::borrowed`]: forests read the caller's rows
/// instead of holding a second copy of the input).
pub(crate) struct Columns<'a, F> {
    pub xt: &'a [F],
    pub n: usize,
    pub d: usize,
    row_stride: usize,
    col_stride: usize,
    /// The histogram split mode's bins (`None`: exact thresholds).
    bins: Option<&'a TreeBins<F>>,
    /// The random splitter's codes ([`SplitCodes`]; `None`: it reads the raw values only).
    codes: Option<&'a SplitCodes<F>>,
    /// Whether a tree may search the candidate features of a large node in parallel (`false`
    /// when the trees themselves are grown in parallel: [`Columns::trees_in_parallel`]).
    parallel_nodes: bool,
}

/// The histogram split mode's inputs: every feature's bin codes and the thresholds between its
/// bins, in the data's own type. A row is in bin `b` of feature `f` when
/// `edges[f][b − 1] < x ≤ edges[f][b]`, decided by comparisons in `F`, so the split "bin ≤ b"
/// is the split `x ≤ edges[f][b]` on the training rows exactly, and a tree of such thresholds
/// predicts from raw values.
#[derive(Debug, Clone)]
pub(crate) struct TreeBins<F> {
    /// `codes[f·n + i]`.
    codes: Vec<u8>,
    /// The thresholds of feature `f`, increasing.
    edges: Vec<Vec<F>>,
    n: usize,
}

impl<F: Float> TreeBins<F> {
    /// Quantile bins of `x` (scikit-learn's bin thresholds, [`crate::BinMapper`], at most
    /// `max_bins` per feature, fitted on the rows of positive weight), rounded to `F`.
    ///
    /// # Errors
    /// `max_bins` outside `2..=255`, infinite values.
    pub(crate) fn fit(
        x: &ndarray::ArrayRef2<F>,
        weights: Option<&[f64]>,
        max_bins: usize,
    ) -> ndlearn_core::Result<Self> {
        let (n, d) = x.dim();
        let mapper = crate::BinMapper {
            max_bins,
            ..crate::BinMapper::default()
        };
        let kept;
        let rows: &ndarray::ArrayRef2<F> = match weights {
            Some(w) if w.contains(&0.0) => {
                let keep: Vec<usize> = (0..n).filter(|&i| w[i] != 0.0).collect();
                kept = x.select(ndarray::Axis(0), &keep);
                &kept
            }
            _ => x,
        };
        let fitted = mapper.fit(rows)?;
        let edges: Vec<Vec<F>> = (0..d)
            .map(|f| {
                let mut e: Vec<F> = fitted.thresholds(f).iter().map(|&t| F::cast(t)).collect();
                e.dedup();
                e
            })
            .collect();
        let mut codes = vec![0u8; n * d];
        if n > 0 {
            codes.par_chunks_mut(n).enumerate().for_each(|(f, col)| {
                let e = &edges[f];
                for (c, &v) in col.iter_mut().zip(x.column(f)) {
                    *c = e.partition_point(|&t| t < v) as u8;
                }
            });
        }
        Ok(TreeBins { codes, edges, n })
    }

    /// [`fit`](Self::fit) when the histogram mode is on (`max_bins` given), else `None`.
    ///
    /// # Errors
    /// As [`fit`](Self::fit).
    pub(crate) fn fit_if(
        x: &ndarray::ArrayRef2<F>,
        weights: Option<&[f64]>,
        max_bins: Option<usize>,
    ) -> ndlearn_core::Result<Option<Self>> {
        max_bins.map(|b| Self::fit(x, weights, b)).transpose()
    }

    /// Feature `f`'s codes.
    #[inline]
    fn column(&self, f: usize) -> &[u8] {
        &self.codes[f * self.n..(f + 1) * self.n]
    }
}

/// The random splitter's view of the features: every value replaced by a 16-bit code, its bin
/// among at most 65,536 of consecutive distinct values (one value per bin when the feature has
/// at most 65,536 distinct values). Bin `b` of feature `f` holds `edges[f][b − 1] < x ≤
/// edges[f][b]` (comparisons in `F`), so the range of a node and the side of every row for a
/// threshold follow from the codes exactly, reading raw values only in the lowest, the highest
/// and the threshold's bin (decision 0036).
#[derive(Debug, Clone)]
pub(crate) struct SplitCodes<F> {
    /// `codes[f·n + i]`.
    codes: Vec<u16>,
    /// The largest value of every bin but the last, per feature, increasing.
    edges: Vec<Vec<F>>,
    n: usize,
}

impl<F: Float> SplitCodes<F> {
    /// The codes of every feature of `data` (features in parallel; each one sort).
    pub(crate) fn fit(data: &Columns<'_, F>) -> Self {
        let (n, d) = (data.n, data.d);
        let per: Vec<(Vec<u16>, Vec<F>)> = (0..d)
            .into_par_iter()
            .map(|f| {
                let mut pairs: Vec<(F, usize)> = (0..n).map(|i| (data.get(f, i), i)).collect();
                sort_pairs(&mut pairs);
                let distinct = 1 + pairs.windows(2).filter(|w| w[0].0 != w[1].0).count();
                let per_bin = distinct.div_ceil(1 << 16);
                let mut codes = vec![0u16; n];
                let mut edges = Vec::new();
                let (mut code, mut seen) = (0u16, 0usize);
                for j in 0..n {
                    if j > 0 && pairs[j].0 != pairs[j - 1].0 {
                        seen += 1;
                        if seen == per_bin {
                            edges.push(pairs[j - 1].0);
                            code += 1;
                            seen = 0;
                        }
                    }
                    codes[pairs[j].1] = code;
                }
                (codes, edges)
            })
            .collect();
        let mut codes = Vec::with_capacity(n * d);
        let mut edges = Vec::with_capacity(d);
        for (c, e) in per {
            codes.extend_from_slice(&c);
            edges.push(e);
        }
        SplitCodes { codes, edges, n }
    }

    /// Feature `f`'s codes.
    #[inline]
    fn column(&self, f: usize) -> &[u16] {
        &self.codes[f * self.n..(f + 1) * self.n]
    }
}

/// The histogram mode's per-search buffers.
#[derive(Default)]
struct HistScratch {
    rows: Vec<usize>,
    codes: Vec<u8>,
    hist: Vec<f64>,
    left: Vec<f64>,
}

/// The histogram mode's best threshold of feature `f` over `rows` (a node): `None` when every
/// row is in one bin (a constant feature here), else the sweep's `(proxy, threshold, position)`
/// if any split is allowed. Large nodes of criteria with additive statistics accumulate one
/// histogram (one pass over the rows, then a sweep over at most 255 bins); the others bucket
/// the rows by bin and sweep them ([`bin_sort`], [`sweep_bins`]).
fn hist_search<F: Float, C: Criterion>(
    crit: &mut C,
    bins: &TreeBins<F>,
    f: usize,
    rows: &[usize],
    sc: &mut HistScratch,
    cfg: &Config,
) -> Option<Option<(f64, F, usize)>> {
    let col = bins.column(f);
    let edge = |b: u8| bins.edges[f][usize::from(b)];
    let width = match crit.hist_width() {
        Some(w) if rows.len() >= SMALL_NODE => w,
        _ => {
            if !bin_sort(col, rows, &mut sc.rows, &mut sc.codes) {
                return None;
            }
            return Some(
                sweep_bins(crit, &sc.rows, &sc.codes, cfg)
                    .map(|(proxy, b, pos)| (proxy, edge(b), pos)),
            );
        }
    };
    let n_bins = bins.edges[f].len() + 1;
    sc.hist.clear();
    sc.hist.resize(n_bins * width, 0.0);
    let mut counts = [0usize; 256];
    for &i in rows {
        let b = usize::from(col[i]);
        counts[b] += 1;
        crit.hist_add(i, &mut sc.hist[b * width..(b + 1) * width]);
    }
    let n = rows.len();
    if counts[..n_bins].contains(&n) {
        return None;
    }
    let (min_leaf, min_w) = (cfg.min_samples_leaf, cfg.min_weight_leaf);
    sc.left.clear();
    sc.left.resize(width, 0.0);
    let mut n_left = 0usize;
    let mut best: Option<(f64, F, usize)> = None;
    let mut best_proxy = f64::NEG_INFINITY;
    for (b, &count) in counts[..n_bins].iter().enumerate() {
        if count == 0 {
            continue;
        }
        n_left += count;
        for (l, &h) in sc.left.iter_mut().zip(&sc.hist[b * width..(b + 1) * width]) {
            *l += h;
        }
        if n_left >= n {
            break;
        }
        if n_left < min_leaf || n - n_left < min_leaf {
            continue;
        }
        crit.hist_set_left(&sc.left);
        let wl = crit.weighted_left();
        if wl < min_w || crit.weighted_n() - wl < min_w {
            continue;
        }
        let proxy = crit.proxy(rows, n_left);
        if proxy > best_proxy {
            best_proxy = proxy;
            best = Some((proxy, edge(b as u8), n_left));
        }
    }
    Some(best)
}

/// Below this many rows a node's bin sort is an insertion sort.
const SMALL_NODE: usize = 64;

/// Counting sort of `rows` by their codes `col[i]` into `out_rows` / `out_codes` (stable);
/// `false`, leaving the outputs untouched, when every row is in one bin.
fn bin_sort(
    col: &[u8],
    rows: &[usize],
    out_rows: &mut Vec<usize>,
    out_codes: &mut Vec<u8>,
) -> bool {
    if rows.len() < SMALL_NODE {
        // Small nodes (most nodes of a deep tree): a stable insertion sort beats clearing and
        // summing 257 counters.
        out_rows.clear();
        out_codes.clear();
        for &i in rows {
            let c = col[i];
            let mut at = out_codes.len();
            while at > 0 && out_codes[at - 1] > c {
                at -= 1;
            }
            out_codes.insert(at, c);
            out_rows.insert(at, i);
        }
        return out_codes.first() != out_codes.last();
    }
    let mut start = [0usize; 257];
    for &i in rows {
        start[usize::from(col[i]) + 1] += 1;
    }
    if start.contains(&rows.len()) {
        return false;
    }
    for b in 1..257 {
        start[b] += start[b - 1];
    }
    out_rows.resize(rows.len(), 0);
    out_codes.resize(rows.len(), 0);
    for &i in rows {
        let c = col[i];
        let at = &mut start[usize::from(c)];
        out_rows[*at] = i;
        out_codes[*at] = c;
        *at += 1;
    }
    true
}

/// [`sweep`] over rows sorted by bin: candidate splits only between bins. Returns
/// `(proxy, bin, position)`: the left child is the rows of bins `≤ bin`.
fn sweep_bins<C: Criterion>(
    crit: &mut C,
    rows: &[usize],
    codes: &[u8],
    cfg: &Config,
) -> Option<(f64, u8, usize)> {
    sweep_runs(
        crit,
        rows,
        cfg,
        |p| codes[p] == codes[p + 1],
        |last, _| codes[last],
    )
}

impl<'a, F: Float> Columns<'a, F> {
    /// Over a column-major copy (`xt[f·n + i]`, as [`to_columns`] writes it).
    pub(crate) fn column_major(xt: &'a [F], n: usize, d: usize) -> Self {
        debug_assert_eq!(xt.len(), n * d);
        Columns {
            xt,
            n,
            d,
            row_stride: 1,
            col_stride: n,
            bins: None,
            codes: None,
            parallel_nodes: true,
        }
    }

    /// The same columns split in the histogram mode over `bins` (fitted on these rows) when
    /// given.
    pub(crate) fn maybe_with_bins(mut self, bins: Option<&'a TreeBins<F>>) -> Self {
        debug_assert!(bins.is_none_or(|b| b.n == self.n));
        self.bins = bins;
        self
    }

    /// The same columns for trees grown in parallel with each other (`parallel`: a forest of
    /// at least twice as many trees as threads): each tree then searches its nodes
    /// sequentially, in buffers it keeps, instead of splitting a large node's candidate
    /// features over threads that are busy with other trees. The trees are the same.
    pub(crate) fn trees_in_parallel(mut self, parallel: bool) -> Self {
        self.parallel_nodes = !parallel;
        self
    }

    /// The same columns with the random splitter's codes (fitted on these columns) when given.
    pub(crate) fn maybe_with_codes(mut self, codes: Option<&'a SplitCodes<F>>) -> Self {
        debug_assert!(codes.is_none_or(|c| c.n == self.n));
        self.codes = codes;
        self
    }

    /// Over `x`'s own memory when it is contiguous (row- or column-major), else over a
    /// column-major copy written into `copy` ([`to_columns`]).
    pub(crate) fn borrowed(x: &'a ndarray::ArrayRef2<F>, copy: &'a mut Vec<F>) -> Self {
        let (n, d) = x.dim();
        let strides = if x.is_standard_layout() {
            Some((d, 1))
        } else if x.t().is_standard_layout() {
            Some((1, n))
        } else {
            None
        };
        if let (Some((row_stride, col_stride)), Some(xt)) = (strides, x.as_slice_memory_order()) {
            return Columns {
                xt,
                n,
                d,
                row_stride,
                col_stride,
                bins: None,
                codes: None,
                parallel_nodes: true,
            };
        }
        *copy = to_columns(x);
        Columns::column_major(copy, n, d)
    }

    /// `out[j] = x[rows[j], f]`: a loop with nothing but the loads and stores, so that many
    /// of the (scattered, often cache-missing) loads are in flight at once.
    #[inline]
    pub(crate) fn gather(&self, f: usize, rows: &[usize], out: &mut [F]) {
        debug_assert_eq!(rows.len(), out.len());
        if self.row_stride == 1 {
            let col = &self.xt[f * self.col_stride..f * self.col_stride + self.n];
            for (o, &i) in out.iter_mut().zip(rows) {
                *o = col[i];
            }
        } else {
            let (rs, base) = (self.row_stride, &self.xt[f * self.col_stride..]);
            for (o, &i) in out.iter_mut().zip(rows) {
                *o = base[i * rs];
            }
        }
    }

    #[inline]
    pub(crate) fn get(&self, f: usize, i: usize) -> F {
        self.xt[i * self.row_stride + f * self.col_stride]
    }
}

/// Moves the rows with `left[j] = 1` to the front of `rows`, both sides in their order, without
/// a branch on the side (the right side goes through `spill`). Returns the number on the left.
fn stable_partition_mask(rows: &mut [usize], left: &[u8], spill: &mut [usize]) -> usize {
    let (mut l, mut r) = (0usize, 0usize);
    for j in 0..rows.len() {
        let (i, b) = (rows[j], usize::from(left[j]));
        rows[l] = i;
        spill[r] = i;
        l += b;
        r += 1 - b;
    }
    rows[l..].copy_from_slice(&spill[..r]);
    l
}

/// scikit-learn's partition of `rows` by `goes_left(vals[j])` (`vals[j]` belongs to `rows[j]`;
/// both are permuted together): a row of the right side at the front is swapped with the last
/// unseen row. Returns the number of rows on the left.
fn two_pointer<T: Copy>(
    rows: &mut [usize],
    vals: &mut [T],
    goes_left: impl Fn(T) -> bool,
) -> usize {
    let (mut lo, mut hi) = (0, rows.len());
    while lo < hi {
        if goes_left(vals[lo]) {
            lo += 1;
        } else {
            hi -= 1;
            rows.swap(lo, hi);
            vals.swap(lo, hi);
        }
    }
    lo
}

/// Rows from which a random split reads the bin codes ([`Splitter::coded_range`]) instead of the
/// raw values: below it the node's values are few and in cache.
const CODED_MIN_ROWS: usize = 2048;

/// The random splitter's buffers (empty for the best splitter): the sides of the rows for the
/// current candidate and for the best one so far, the gathered codes, the node's row statistics
/// and the interleaved left sums ([`masked_left`]).
struct RandomScratch {
    /// The rows' sides for the current candidate ([`Splitter::random_mask`]).
    last: Vec<u8>,
    /// The rows' sides for the best candidate so far.
    best: Vec<u8>,
    /// The right side of a stable partition ([`stable_partition_mask`]).
    spill: Vec<usize>,
    codes: Vec<u16>,
    /// The node's row statistics ([`row_stats`]), `width` per row.
    stats: Vec<f64>,
    acc: Vec<f64>,
    /// The left sums of the best candidate so far.
    best_left: Vec<f64>,
}

impl RandomScratch {
    fn new(random_splits: bool, n: usize, width: usize) -> Self {
        let n = if random_splits { n } else { 0 };
        RandomScratch {
            last: vec![0; n],
            best: vec![0; n],
            spill: vec![0; n],
            codes: vec![0; n],
            stats: vec![0.0; n * width],
            acc: Vec::new(),
            best_left: vec![0.0; width],
        }
    }
}

/// Writes every row's statistics in the criterion's bin layout (`width` values, as
/// [`Criterion::hist_add`] adds them) in the node's order: read once per node, then by every
/// candidate in order ([`masked_left`]).
fn row_stats<C: Criterion>(crit: &C, rows: &[usize], width: usize, out: &mut [f64]) {
    out.iter_mut().for_each(|v| *v = 0.0);
    for (&i, o) in rows.iter().zip(out.chunks_exact_mut(width)) {
        crit.hist_add(i, o);
    }
}

/// The left sums of the rows' statistics `stats` ([`row_stats`], `width` per row) over the rows
/// with `mask[j] = 1`, in one pass without a branch on the mask (a row's values times its 0 or
/// 1), in four interleaved partial sums so that a row does not wait for the sum of the row
/// before it; written to `acc[4·width..5·width]`. Exact for integer weights; otherwise it
/// differs from a sequential sum in the last bits only.
fn masked_left<'s>(stats: &[f64], mask: &[u8], width: usize, acc: &'s mut Vec<f64>) -> &'s [f64] {
    match width {
        2 => masked_left_fixed::<2>(stats, mask, acc),
        3 => masked_left_fixed::<3>(stats, mask, acc),
        4 => masked_left_fixed::<4>(stats, mask, acc),
        _ => {
            acc.clear();
            acc.resize(5 * width, 0.0);
            for (j, (row, &b)) in stats.chunks_exact(width).zip(mask).enumerate() {
                let m = f64::from(b);
                let at = (j & 3) * width;
                for (a, &v) in acc[at..at + width].iter_mut().zip(row) {
                    *a += v * m;
                }
            }
            let (parts, out) = acc.split_at_mut(4 * width);
            for part in parts.chunks_exact(width) {
                for (o, &v) in out.iter_mut().zip(part) {
                    *o += v;
                }
            }
            out
        }
    }
}

/// [`masked_left`] for `W` values per row, the partial sums in registers.
#[inline]
fn masked_left_fixed<'s, const W: usize>(
    stats: &[f64],
    mask: &[u8],
    acc: &'s mut Vec<f64>,
) -> &'s [f64] {
    let mut part = [[0.0f64; W]; 4];
    let rows4 = stats.chunks_exact(4 * W);
    let tail = rows4.remainder();
    for (rows, m4) in rows4.zip(mask.chunks_exact(4)) {
        for q in 0..4 {
            let m = f64::from(m4[q]);
            for k in 0..W {
                part[q][k] += rows[q * W + k] * m;
            }
        }
    }
    let done = stats.len() / (4 * W) * 4;
    for (q, (row, &b)) in tail.chunks_exact(W).zip(&mask[done..]).enumerate() {
        let m = f64::from(b);
        for k in 0..W {
            part[q][k] += row[k] * m;
        }
    }
    acc.clear();
    acc.resize(W, 0.0);
    for p in &part {
        for k in 0..W {
            acc[k] += p[k];
        }
    }
    acc
}

/// The smallest and largest of `v` (finite values; `(∞, −∞)` when empty).
#[inline]
fn min_max<F: Float>(v: &[F]) -> (F, F) {
    let (mut lo, mut hi) = (F::infinity(), F::neg_infinity());
    for &x in v {
        if x < lo {
            lo = x;
        }
        if x > hi {
            hi = x;
        }
    }
    (lo, hi)
}

/// Column-major copy of `x`.
pub(crate) fn to_columns<F: Float>(x: &ndarray::ArrayRef2<F>) -> Vec<F> {
    let (n, d) = x.dim();
    let mut out = Vec::with_capacity(n * d);
    for f in 0..d {
        out.extend(x.column(f).iter().copied());
    }
    out
}

#[derive(Clone, Copy)]
struct Split<F> {
    feature: usize,
    threshold: F,
    pos: usize,
    impurity_left: f64,
    impurity_right: f64,
    improvement: f64,
}

/// Every feature's rows kept sorted by `(value, row)` within each node's range: block `f` holds
/// the active rows sorted by feature `f`, and after every split each block is stably
/// partitioned into the children's ranges, so a node's rows sorted by any feature are a copy
/// away instead of a sort (the order is the total order `sort_pairs` gives, hence the same
/// trees, bit for bit). Used when every split searches all features with exact thresholds.
struct Presort<F> {
    /// `rows[f·m + j]`: the `j`-th row of block `f`.
    rows: Vec<usize>,
    /// The feature values in the same layout.
    vals: Vec<F>,
    /// Active rows (the length of every block).
    m: usize,
    /// Per row: goes to the left child of the split being applied.
    left: Vec<bool>,
    /// Scratch space of the sequential partition.
    tmp_rows: Vec<usize>,
    tmp_vals: Vec<F>,
}

/// Use the presorted blocks when all features are searched and the blocks stay below this
/// many entries (`d × active rows`).
const PRESORT_MAX_ENTRIES: usize = 1 << 28;

impl<F: Float> Presort<F> {
    fn new(data: &Columns<'_, F>, samples: &[usize]) -> Self {
        let m = samples.len();
        let blocks: Vec<(Vec<usize>, Vec<F>)> = (0..data.d)
            .into_par_iter()
            .map(|f| {
                let mut pairs: Vec<(F, usize)> =
                    samples.iter().map(|&i| (data.get(f, i), i)).collect();
                sort_pairs(&mut pairs);
                (
                    pairs.iter().map(|p| p.1).collect(),
                    pairs.iter().map(|p| p.0).collect(),
                )
            })
            .collect();
        let mut rows = Vec::with_capacity(m * data.d);
        let mut vals = Vec::with_capacity(m * data.d);
        for (r, v) in blocks {
            rows.extend(r);
            vals.extend(v);
        }
        Presort {
            rows,
            vals,
            m,
            left: vec![false; data.n],
            tmp_rows: Vec::with_capacity(m),
            tmp_vals: Vec::with_capacity(m),
        }
    }

    /// Stably moves the rows marked `left` to the front of every block's `start..end`.
    fn partition(&mut self, start: usize, end: usize, parallel: bool) {
        let m = self.m;
        let left = &self.left;
        if parallel {
            self.rows
                .par_chunks_mut(m)
                .zip(self.vals.par_chunks_mut(m))
                .for_each(|(r, v)| {
                    let (mut tr, mut tv) = (Vec::new(), Vec::new());
                    stable_partition(
                        left,
                        &mut r[start..end],
                        &mut v[start..end],
                        &mut tr,
                        &mut tv,
                    );
                });
        } else {
            let (mut tr, mut tv) = (
                std::mem::take(&mut self.tmp_rows),
                std::mem::take(&mut self.tmp_vals),
            );
            for (r, v) in self.rows.chunks_mut(m).zip(self.vals.chunks_mut(m)) {
                stable_partition(
                    left,
                    &mut r[start..end],
                    &mut v[start..end],
                    &mut tr,
                    &mut tv,
                );
            }
            self.tmp_rows = tr;
            self.tmp_vals = tv;
        }
    }
}

/// Moves the rows marked in `left` to the front of `rows` (and `vals` alongside), keeping the
/// order within each side; `tr`, `tv` are scratch space.
fn stable_partition<F: Copy>(
    left: &[bool],
    rows: &mut [usize],
    vals: &mut [F],
    tr: &mut Vec<usize>,
    tv: &mut Vec<F>,
) {
    tr.clear();
    tv.clear();
    let mut w = 0;
    for j in 0..rows.len() {
        let (r, v) = (rows[j], vals[j]);
        if left[r] {
            rows[w] = r;
            vals[w] = v;
            w += 1;
        } else {
            tr.push(r);
            tv.push(v);
        }
    }
    rows[w..].copy_from_slice(tr);
    vals[w..].copy_from_slice(tv);
}

struct Splitter<'a, F, C> {
    data: &'a Columns<'a, F>,
    crit: C,
    cfg: Config,
    samples: Vec<usize>,
    features: Vec<usize>,
    constant_features: Vec<usize>,
    pairs: Vec<(F, usize)>,
    /// The integer sort keys of [`sort_by_feature`](Self::sort_by_feature).
    keys: Vec<u128>,
    xf: Vec<F>,
    /// The random splitter's buffers.
    random: RandomScratch,
    /// After a split with exact sums: the left and right children's statistics in the bin
    /// layout ([`Criterion::init_from_stats`]).
    child_stats: Option<(Vec<f64>, Vec<f64>)>,
    total_weight: f64,
    rng: &'a mut TreeRng,
    presort: Option<Presort<F>>,
    /// The histogram mode's buffers.
    hist: HistScratch,
}

impl<'a, F: Float, C: Criterion> Splitter<'a, F, C> {
    /// Sorts `samples[start..end]` by feature `f`, filling `xf`.
    fn sort_by_feature(&mut self, f: usize, start: usize, end: usize) {
        if let Some(p) = &self.presort {
            let at = f * p.m;
            self.samples[start..end].copy_from_slice(&p.rows[at + start..at + end]);
            self.xf[start..end].copy_from_slice(&p.vals[at + start..at + end]);
            return;
        }
        if end - start < 64 {
            self.pairs.clear();
            for &i in &self.samples[start..end] {
                self.pairs.push((self.data.get(f, i), i));
            }
            sort_pairs(&mut self.pairs);
            for (j, &(v, i)) in self.pairs.iter().enumerate() {
                self.samples[start + j] = i;
                self.xf[start + j] = v;
            }
            return;
        }
        // `sort_pairs`' integer keys, built straight from the gathered values into a buffer
        // kept between nodes.
        let (rows, xf) = (&mut self.samples[start..end], &mut self.xf[start..end]);
        self.data.gather(f, rows, xf);
        self.keys.clear();
        self.keys
            .extend(xf.iter().zip(rows.iter()).map(|(&v, &i)| sort_key(v, i)));
        self.keys.sort_unstable();
        for ((&k, r), x) in self.keys.iter().zip(rows.iter_mut()).zip(xf.iter_mut()) {
            (*x, *r) = from_sort_key(k);
        }
    }

    /// Moves the rows with `x[f] ≤ t` to the front of `samples[start..end]`; returns the split
    /// position. Gathers the column into `xf`, then [`partition_gathered`](Self::partition_gathered).
    fn partition(&mut self, f: usize, t: F, start: usize, end: usize) -> usize {
        self.data
            .gather(f, &self.samples[start..end], &mut self.xf[start..end]);
        self.partition_gathered(t, start, end)
    }

    /// Moves the rows with `xf ≤ t` (the values gathered in `xf[start..end]`, moved along with
    /// the rows) to the front of `samples[start..end]`; returns the split position: the
    /// two-pointer pass of scikit-learn's partitioner (a row above `t` at the front is swapped
    /// with the last unseen row), so the rows end in the same order.
    fn partition_gathered(&mut self, t: F, start: usize, end: usize) -> usize {
        let (rows, xf) = (&mut self.samples[start..end], &mut self.xf[start..end]);
        start + two_pointer(rows, xf, |v| v <= t)
    }

    /// The exact range of feature `f` over `samples[start..end]` read through the codes
    /// ([`SplitCodes`]): the codes are gathered (two bytes per row, from a column that stays in
    /// cache) into `random.codes`, and the raw values only of the rows in the lowest and the
    /// highest bin. `None` when all rows share one bin.
    fn coded_range(
        &mut self,
        codes_of: &SplitCodes<F>,
        f: usize,
        start: usize,
        end: usize,
    ) -> Option<(F, F)> {
        let col = codes_of.column(f);
        let rows = &self.samples[start..end];
        let codes = &mut self.random.codes[start..end];
        // One pass: the codes, the lowest and highest code seen so far and the extreme raw
        // value among the rows of that code (a raw value is read only when a row's code ties
        // or passes the extreme code: rare after the first rows, so the branches predict well).
        let (mut cmin, mut cmax) = (u16::MAX, 0u16);
        let (mut lo, mut hi) = (F::infinity(), F::neg_infinity());
        for (c, &i) in codes.iter_mut().zip(rows) {
            let code = col[i];
            *c = code;
            if code <= cmin {
                let v = self.data.get(f, i);
                if code < cmin || v < lo {
                    lo = v;
                }
                cmin = code;
            }
            if code >= cmax {
                let v = self.data.get(f, i);
                if code > cmax || v > hi {
                    hi = v;
                }
                cmax = code;
            }
        }
        (cmin != cmax).then_some((lo, hi))
    }

    /// Fills `random.last[start..end]` with the rows' sides of the split `x[f] ≤ t` (1 on the
    /// left) and returns the number on the left. From the codes [`coded_range`]
    /// (Self::coded_range) left in `random.codes` when `coded`: a row below the bin that holds
    /// `t` is on the left, one above on the right, and only the rows of that bin compare their
    /// raw value (bin `b` holds `edges[b − 1] < x ≤ edges[b]`, so this is `x ≤ t` exactly);
    /// else from the values gathered in `xf`.
    fn random_mask(
        &mut self,
        coded: Option<&SplitCodes<F>>,
        f: usize,
        t: F,
        start: usize,
        end: usize,
    ) -> usize {
        let mask = &mut self.random.last[start..end];
        let mut n_left = 0usize;
        if let Some(codes_of) = coded {
            let bt = codes_of.edges[f].partition_point(|&e| e < t);
            let rows = &self.samples[start..end];
            for ((b, &c), &i) in mask
                .iter_mut()
                .zip(&self.random.codes[start..end])
                .zip(rows)
            {
                let c = usize::from(c);
                *b = if c == bt {
                    u8::from(self.data.get(f, i) <= t)
                } else {
                    u8::from(c < bt)
                };
                n_left += usize::from(*b);
            }
        } else {
            for (b, &v) in mask.iter_mut().zip(&self.xf[start..end]) {
                *b = u8::from(v <= t);
                n_left += usize::from(*b);
            }
        }
        n_left
    }

    /// The best split of `samples[start..end]` (or `None`), and the updated count of known
    /// constant features (scikit-learn's `node_split`).
    fn node_split(
        &mut self,
        start: usize,
        end: usize,
        impurity: f64,
        n_known_constants: usize,
    ) -> (Option<Split<F>>, usize) {
        let d = self.data.d;
        let min_leaf = self.cfg.min_samples_leaf;
        let min_w = self.cfg.min_weight_leaf;
        let mut best: Option<Split<F>> = None;
        let mut best_proxy = f64::NEG_INFINITY;
        let mut f_i = d;
        let mut n_visited = 0usize;
        let mut n_found_constants = 0usize;
        let mut n_drawn_constants = 0usize;
        let mut n_total_constants = n_known_constants;
        // The last feature drawn past the known constants (scikit-learn's
        // `current_split.feature`).
        let mut last_feature = None;
        // Large nodes: the loop only decides which features are searched (constant ones by
        // their range), then the sorts and sweeps run in parallel and are compared in the
        // loop's order, so the result is the sequential one whatever the thread count.
        let parallel = !self.cfg.random_splits && end - start >= self.cfg.parallel_min_rows;
        let mut planned: Vec<usize> = Vec::new();
        // Random splits: the width of the row statistics when the rows are partitioned after
        // the search (`None`: after every candidate, as scikit-learn), and whether
        // `random.stats` holds this node's.
        let deferred = self
            .crit
            .hist_width()
            .filter(|_| self.cfg.random_splits && self.crit.exact_sums());
        let mut stats_ready = false;
        while f_i > n_total_constants
            && (n_visited < self.cfg.max_features
                || n_visited <= n_found_constants + n_drawn_constants)
        {
            n_visited += 1;
            let mut f_j = self
                .rng
                .rand_int(n_drawn_constants, f_i - n_found_constants);
            if f_j < n_known_constants {
                self.features.swap(n_drawn_constants, f_j);
                n_drawn_constants += 1;
                continue;
            }
            f_j += n_found_constants;
            let f = self.features[f_j];
            last_feature = Some(f);
            if self.cfg.random_splits {
                let coded = self.data.codes.filter(|_| end - start >= CODED_MIN_ROWS);
                let (lo, hi, coded) = match coded.and_then(|b| self.coded_range(b, f, start, end)) {
                    Some((lo, hi)) => (lo, hi, coded),
                    None => {
                        // One pass over the (scattered) feature column: the values, then
                        // their range.
                        let xf = &mut self.xf[start..end];
                        self.data.gather(f, &self.samples[start..end], xf);
                        let (lo, hi) = min_max(xf);
                        (lo, hi, None)
                    }
                };
                if within_threshold(lo, hi) {
                    self.features.swap(f_j, n_total_constants);
                    n_found_constants += 1;
                    n_total_constants += 1;
                    continue;
                }
                f_i -= 1;
                self.features.swap(f_i, f_j);
                let (lo64, hi64) = (lo.to_f64_lossless(), hi.to_f64_lossless());
                let mut t = F::cast(self.rng.rand_uniform(lo64, hi64));
                if t >= hi || t < lo {
                    t = lo;
                }
                let n_left = self.random_mask(coded, f, t, start, end);
                let Some(width) = deferred else {
                    // Sums whose order matters: scikit-learn's partition now, its sums over the
                    // rows so ordered.
                    let pos = start
                        + two_pointer(
                            &mut self.samples[start..end],
                            &mut self.random.last[start..end],
                            |b| b != 0,
                        );
                    debug_assert_eq!(pos - start, n_left);
                    if pos - start < min_leaf || end - pos < min_leaf {
                        continue;
                    }
                    self.crit.reset();
                    self.crit.update(&self.samples[start..end], pos - start);
                    let wl = self.crit.weighted_left();
                    if wl < min_w || self.crit.weighted_n() - wl < min_w {
                        continue;
                    }
                    let proxy = self.crit.proxy(&self.samples[start..end], pos - start);
                    if proxy > best_proxy {
                        best_proxy = proxy;
                        best = Some(Split {
                            feature: f,
                            threshold: t,
                            pos,
                            impurity_left: 0.0,
                            impurity_right: 0.0,
                            improvement: 0.0,
                        });
                    }
                    continue;
                };
                // Exact sums (class counts of integer weights): the rows stay put (each
                // candidate's side of every row is a mask, its left sums one branch-free pass)
                // and are partitioned once after the search, by the best candidate, stably.
                if n_left < min_leaf || end - start - n_left < min_leaf {
                    continue;
                }
                let r = &mut self.random;
                let stats = &mut r.stats[start * width..end * width];
                if !stats_ready {
                    row_stats(&self.crit, &self.samples[start..end], width, stats);
                    stats_ready = true;
                }
                let mask = &r.last[start..end];
                let left = masked_left(stats, mask, width, &mut r.acc);
                self.crit.hist_set_left(left);
                let wl = self.crit.weighted_left();
                if wl < min_w || self.crit.weighted_n() - wl < min_w {
                    continue;
                }
                let proxy = self.crit.proxy(&self.samples[start..end], n_left);
                if proxy > best_proxy {
                    best_proxy = proxy;
                    r.best[start..end].copy_from_slice(mask);
                    r.best_left.copy_from_slice(left);
                    best = Some(Split {
                        feature: f,
                        threshold: t,
                        pos: start + n_left,
                        impurity_left: 0.0,
                        impurity_right: 0.0,
                        improvement: 0.0,
                    });
                }
                continue;
            }
            if parallel {
                // Constant test by the range (of the bins in the histogram mode); the sweep
                // runs after the loop, in parallel, in this order.
                let constant = if let Some(bins) = self.data.bins {
                    let col = bins.column(f);
                    let (mut lo, mut hi) = (u8::MAX, 0u8);
                    for &i in &self.samples[start..end] {
                        lo = lo.min(col[i]);
                        hi = hi.max(col[i]);
                    }
                    lo == hi
                } else {
                    let (mut lo, mut hi) = (F::infinity(), F::neg_infinity());
                    for &i in &self.samples[start..end] {
                        let v = self.data.get(f, i);
                        lo = lo.min(v);
                        hi = hi.max(v);
                    }
                    within_threshold(lo, hi)
                };
                if constant {
                    self.features.swap(f_j, n_total_constants);
                    n_found_constants += 1;
                    n_total_constants += 1;
                } else {
                    f_i -= 1;
                    self.features.swap(f_i, f_j);
                    planned.push(f);
                }
                continue;
            }
            let found = if let Some(bins) = self.data.bins {
                // Histogram mode: candidate thresholds between bins only; `samples` keeps its
                // order.
                let Some(found) = hist_search(
                    &mut self.crit,
                    bins,
                    f,
                    &self.samples[start..end],
                    &mut self.hist,
                    &self.cfg,
                ) else {
                    self.features.swap(f_j, n_total_constants);
                    n_found_constants += 1;
                    n_total_constants += 1;
                    continue;
                };
                f_i -= 1;
                self.features.swap(f_i, f_j);
                found
            } else if let Some(p) = &self.presort {
                // Sweep the presorted block in place; the rows are copied once, after the loop.
                let at = f * p.m;
                let (rows, xf) = (&p.rows[at + start..at + end], &p.vals[at + start..at + end]);
                if within_threshold(xf[0], xf[xf.len() - 1]) {
                    self.features.swap(f_j, n_total_constants);
                    n_found_constants += 1;
                    n_total_constants += 1;
                    continue;
                }
                f_i -= 1;
                self.features.swap(f_i, f_j);
                sweep(&mut self.crit, rows, xf, &self.cfg)
            } else {
                self.sort_by_feature(f, start, end);
                if within_threshold(self.xf[start], self.xf[end - 1]) {
                    self.features.swap(f_j, n_total_constants);
                    n_found_constants += 1;
                    n_total_constants += 1;
                    continue;
                }
                f_i -= 1;
                self.features.swap(f_i, f_j);
                sweep(
                    &mut self.crit,
                    &self.samples[start..end],
                    &self.xf[start..end],
                    &self.cfg,
                )
            };
            if let Some((proxy, t, pos)) = found
                && proxy > best_proxy
            {
                best_proxy = proxy;
                best = Some(Split {
                    feature: f,
                    threshold: t,
                    pos: start + pos,
                    impurity_left: 0.0,
                    impurity_right: 0.0,
                    improvement: 0.0,
                });
            }
        }
        if (parallel || self.presort.is_some())
            && self.data.bins.is_none()
            && !self.crit.exact_sums()
            && let Some(lf) = last_feature
        {
            // The rows as the sequential loop leaves them: sorted by the last feature drawn
            // (their order decides the order of the children's sums; with exact sums it
            // decides nothing).
            self.sort_by_feature(lf, start, end);
        }
        if parallel && !planned.is_empty() {
            let data = self.data;
            let cfg = self.cfg;
            let node: Vec<usize> = self.samples[start..end].to_vec();
            let crit = &self.crit;
            let presort = &self.presort;
            let found: Vec<Option<(f64, F, usize)>> = planned
                .par_iter()
                .map(|&f| {
                    let mut c = crit.clone();
                    if let Some(bins) = data.bins {
                        let mut sc = HistScratch::default();
                        return hist_search(&mut c, bins, f, &node, &mut sc, &cfg).flatten();
                    }
                    if let Some(p) = presort {
                        let at = f * p.m;
                        let rows = &p.rows[at + start..at + end];
                        return sweep(&mut c, rows, &p.vals[at + start..at + end], &cfg);
                    }
                    // `sort_pairs`' integer keys (as `sort_by_feature`).
                    let mut keys: Vec<u128> =
                        node.iter().map(|&i| sort_key(data.get(f, i), i)).collect();
                    keys.sort_unstable();
                    let (xf, rows): (Vec<F>, Vec<usize>) =
                        keys.iter().map(|&k| from_sort_key::<F>(k)).unzip();
                    sweep(&mut c, &rows, &xf, &cfg)
                })
                .collect();
            for (&f, r) in planned.iter().zip(found) {
                if let Some((proxy, t, pos)) = r
                    && proxy > best_proxy
                {
                    best_proxy = proxy;
                    best = Some(Split {
                        feature: f,
                        threshold: t,
                        pos: start + pos,
                        impurity_left: 0.0,
                        impurity_right: 0.0,
                        improvement: 0.0,
                    });
                }
            }
        }
        // The known constants keep their original order for siblings and children; the new
        // ones are recorded after them (scikit-learn's invariant on `features[..n_known]`).
        self.features[..n_known_constants]
            .copy_from_slice(&self.constant_features[..n_known_constants]);
        self.constant_features[n_known_constants..n_total_constants]
            .copy_from_slice(&self.features[n_known_constants..n_total_constants]);
        let Some(mut s) = best else {
            return (None, n_total_constants);
        };
        // Re-partitioned as scikit-learn does: always after the sorted sweep, after random
        // thresholds only when the best feature was not the last one tried (the order of the
        // rows inside the children decides the order of later floating-point sums).
        if let Some(p) = &mut self.presort {
            // The best feature's block is sorted: its first `pos − start` rows are the left
            // child. Mark them, partition `samples` by the marks exactly as by the threshold
            // (the same two-pointer pass, without reading the feature column), then every
            // block.
            let at = s.feature * p.m;
            for &i in &p.rows[at + start..at + s.pos] {
                p.left[i] = true;
            }
            for &i in &p.rows[at + s.pos..at + end] {
                p.left[i] = false;
            }
            let (mut lo, mut hi) = (start, end);
            while lo < hi {
                if p.left[self.samples[lo]] {
                    lo += 1;
                } else {
                    hi -= 1;
                    self.samples.swap(lo, hi);
                }
            }
            debug_assert_eq!(lo, s.pos);
            p.partition(start, end, end - start >= self.cfg.parallel_min_rows);
        } else if deferred.is_some() {
            // Exact sums: the row order inside a node decides nothing, so the rows are split by
            // a stable partition, which keeps every node's rows in increasing order (the root's
            // order): later reads of their codes and values go forward through memory.
            let r = &mut self.random;
            let rows = &mut self.samples[start..end];
            s.pos = start + stable_partition_mask(rows, &r.best[start..end], &mut r.spill);
            // The children's statistics, exact: the best left sums and the node's totals less
            // them (the depth-first builder starts the children from them).
            let width = r.best_left.len();
            let mut right = vec![0.0; width];
            self.crit.node_stats(&mut right);
            for (v, &l) in right.iter_mut().zip(&r.best_left) {
                *v -= l;
            }
            self.child_stats = Some((r.best_left.clone(), right));
            debug_assert!(
                self.samples[start..s.pos]
                    .iter()
                    .all(|&i| self.data.get(s.feature, i) <= s.threshold)
            );
        } else if !self.cfg.random_splits || last_feature != Some(s.feature) {
            s.pos = self.partition(s.feature, s.threshold, start, end);
        }
        self.crit.reset();
        self.crit.update(&self.samples[start..end], s.pos - start);
        let (il, ir) = self
            .crit
            .children_impurity(&self.samples[start..end], s.pos - start);
        s.impurity_left = il;
        s.impurity_right = ir;
        s.improvement = self.crit.improvement(impurity, il, ir, self.total_weight);
        (Some(s), n_total_constants)
    }
}

/// Grows a tree on the rows of positive weight. `stride` is the length of a value row.
#[allow(clippy::too_many_arguments)]
pub(crate) fn build<F: Float, C: Criterion>(
    data: &Columns<'_, F>,
    weights: Option<&[f64]>,
    crit: C,
    cfg: Config,
    rng: &mut TreeRng,
    n_outputs: usize,
    max_n_classes: usize,
) -> Tree<F> {
    let samples: Vec<usize> = (0..data.n)
        .filter(|&i| weights.is_none_or(|w| w[i] != 0.0))
        .collect();
    let total_weight: f64 = match weights {
        Some(w) => w.iter().sum(),
        None => data.n as f64,
    };
    let n_samples = samples.len();
    let presort = (cfg.presort
        && data.bins.is_none()
        && !cfg.random_splits
        && cfg.max_features >= data.d
        && n_samples > 1
        && n_samples.saturating_mul(data.d) <= PRESORT_MAX_ENTRIES)
        .then(|| Presort::new(data, &samples));
    let width = crit.hist_width().unwrap_or(0);
    let mut cfg = cfg;
    if !data.parallel_nodes {
        cfg.parallel_min_rows = usize::MAX;
    }
    let mut sp = Splitter {
        data,
        crit,
        cfg,
        samples,
        features: (0..data.d).collect(),
        constant_features: (0..data.d).collect(),
        pairs: Vec::with_capacity(n_samples),
        keys: Vec::new(),
        xf: vec![F::zero(); n_samples],
        random: RandomScratch::new(cfg.random_splits, n_samples, width),
        child_stats: None,
        total_weight,
        rng,
        presort,
        hist: HistScratch::default(),
    };
    let mut tree = Tree::new(data.d, n_outputs, max_n_classes);
    let mut value = vec![0.0; n_outputs * max_n_classes];
    if n_samples == 0 {
        // No row of positive weight (possible for a bootstrap of zero-weight rows): one leaf
        // with an all-zero value row.
        tree.add_node(None, None, 0.0, 0, 0.0, &value, 0);
        return tree;
    }
    match cfg.max_leaf_nodes {
        None => depth_first(&mut sp, &mut tree, &mut value, n_samples),
        Some(m) => best_first(&mut sp, &mut tree, &mut value, n_samples, m),
    }
    tree.shrink_to_fit();
    tree
}

struct Frame {
    start: usize,
    end: usize,
    depth: usize,
    parent: Option<(usize, bool)>,
    impurity: f64,
    n_constant: usize,
    /// The node's statistics when its parent's split left them exact.
    stats: Option<Vec<f64>>,
}

/// `is_leaf` before the split search (scikit-learn's stopping rules).
fn stops<F: Float, C: Criterion>(
    sp: &Splitter<'_, F, C>,
    n_node: usize,
    wn: f64,
    depth: usize,
) -> bool {
    depth >= sp.cfg.max_depth
        || n_node < sp.cfg.min_samples_split
        || n_node < 2 * sp.cfg.min_samples_leaf
        || wn < 2.0 * sp.cfg.min_weight_leaf
}

fn depth_first<F: Float, C: Criterion>(
    sp: &mut Splitter<'_, F, C>,
    tree: &mut Tree<F>,
    value: &mut [f64],
    n_samples: usize,
) {
    let mut stack = vec![Frame {
        start: 0,
        end: n_samples,
        depth: 0,
        parent: None,
        impurity: f64::INFINITY,
        n_constant: 0,
        stats: None,
    }];
    let mut first = true;
    while let Some(fr) = stack.pop() {
        let n_node = fr.end - fr.start;
        match &fr.stats {
            Some(stats) => sp.crit.init_from_stats(stats),
            None => sp.crit.init(&sp.samples[fr.start..fr.end]),
        }
        let wn = sp.crit.weighted_n();
        let mut is_leaf = stops(sp, n_node, wn, fr.depth);
        let mut impurity = fr.impurity;
        if first {
            impurity = sp.crit.node_impurity(&sp.samples[fr.start..fr.end]);
            first = false;
        }
        is_leaf = is_leaf || impurity <= EPSILON;
        let mut split = None;
        let mut n_constant = fr.n_constant;
        let mut child_stats = None;
        if !is_leaf {
            let (s, nc) = sp.node_split(fr.start, fr.end, impurity, fr.n_constant);
            n_constant = nc;
            child_stats = sp.child_stats.take();
            match s {
                Some(s) if s.improvement + EPSILON >= sp.cfg.min_impurity_decrease => {
                    split = Some(s);
                }
                _ => is_leaf = true,
            }
        }
        // node_value after the split search: the criterion still describes the node.
        sp.crit.node_value(value);
        let id = tree.add_node(
            fr.parent,
            split.filter(|_| !is_leaf).map(|s| (s.feature, s.threshold)),
            impurity,
            n_node,
            wn,
            value,
            fr.depth,
        );
        if let (false, Some(s)) = (is_leaf, split) {
            let (left, right) = child_stats.unzip();
            stack.push(Frame {
                start: s.pos,
                end: fr.end,
                depth: fr.depth + 1,
                parent: Some((id, false)),
                impurity: s.impurity_right,
                n_constant,
                stats: right,
            });
            stack.push(Frame {
                start: fr.start,
                end: s.pos,
                depth: fr.depth + 1,
                parent: Some((id, true)),
                impurity: s.impurity_left,
                n_constant,
                stats: left,
            });
        }
    }
}

struct Record {
    node: usize,
    start: usize,
    end: usize,
    pos: usize,
    depth: usize,
    is_leaf: bool,
    impurity_left: f64,
    impurity_right: f64,
    improvement: f64,
}

/// Creates a node for `samples[start..end]` and searches its split (scikit-learn's
/// `_add_split_node`).
#[allow(clippy::too_many_arguments)]
fn add_split_node<F: Float, C: Criterion>(
    sp: &mut Splitter<'_, F, C>,
    tree: &mut Tree<F>,
    value: &mut [f64],
    start: usize,
    end: usize,
    impurity: Option<f64>,
    parent: Option<(usize, bool)>,
    depth: usize,
) -> Record {
    let n_node = end - start;
    sp.crit.init(&sp.samples[start..end]);
    let wn = sp.crit.weighted_n();
    let impurity = impurity.unwrap_or_else(|| sp.crit.node_impurity(&sp.samples[start..end]));
    let is_leaf = stops(sp, n_node, wn, depth) || impurity <= EPSILON;
    let mut split = None;
    if !is_leaf {
        let (s, _) = sp.node_split(start, end, impurity, 0);
        // Best-first growth starts every node from its rows.
        sp.child_stats = None;
        split = s.filter(|s| s.improvement + EPSILON >= sp.cfg.min_impurity_decrease);
    }
    sp.crit.node_value(value);
    let id = tree.add_node(
        parent,
        split.map(|s| (s.feature, s.threshold)),
        impurity,
        n_node,
        wn,
        value,
        depth,
    );
    match split {
        Some(s) => Record {
            node: id,
            start,
            end,
            pos: s.pos,
            depth,
            is_leaf: false,
            impurity_left: s.impurity_left,
            impurity_right: s.impurity_right,
            improvement: s.improvement,
        },
        None => Record {
            node: id,
            start,
            end,
            pos: end,
            depth,
            is_leaf: true,
            impurity_left: 0.0,
            impurity_right: 0.0,
            improvement: 0.0,
        },
    }
}

fn best_first<F: Float, C: Criterion>(
    sp: &mut Splitter<'_, F, C>,
    tree: &mut Tree<F>,
    value: &mut [f64],
    n_samples: usize,
    max_leaf_nodes: usize,
) {
    let mut max_split_nodes = max_leaf_nodes.saturating_sub(1);
    let root = add_split_node(sp, tree, value, 0, n_samples, None, None, 0);
    let mut frontier = vec![root];
    while !frontier.is_empty() {
        // The record of largest improvement; among equals the one created first.
        let mut best = 0;
        for (j, r) in frontier.iter().enumerate() {
            let b = &frontier[best];
            if r.improvement > b.improvement || (r.improvement == b.improvement && r.node < b.node)
            {
                best = j;
            }
        }
        let rec = frontier.swap_remove(best);
        if rec.is_leaf || max_split_nodes == 0 {
            tree.make_leaf(rec.node);
            continue;
        }
        max_split_nodes -= 1;
        let left = add_split_node(
            sp,
            tree,
            value,
            rec.start,
            rec.pos,
            Some(rec.impurity_left),
            Some((rec.node, true)),
            rec.depth + 1,
        );
        let right = add_split_node(
            sp,
            tree,
            value,
            rec.pos,
            rec.end,
            Some(rec.impurity_right),
            Some((rec.node, false)),
            rec.depth + 1,
        );
        frontier.push(left);
        frontier.push(right);
    }
    tree.recompute_depth();
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::criterion::{ClassCrit, MaeCrit, RegCrit};
    use crate::params::{ClassCriterion, RegCriterion};

    /// Uniform draws in `[0, 1)` from a xorshift stream seeded with `seed` (test data).
    pub(crate) fn uniform_stream(seed: u64) -> impl FnMut() -> f64 {
        let mut s = seed;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        }
    }

    fn config(parallel_min_rows: usize, max_features: usize) -> Config {
        Config {
            max_depth: 12,
            min_samples_split: 2,
            min_samples_leaf: 1,
            min_weight_leaf: 0.0,
            min_impurity_decrease: 0.0,
            max_features,
            max_leaf_nodes: None,
            random_splits: false,
            parallel_min_rows,
            presort: true,
        }
    }

    #[test]
    fn feature_threshold_in_float32_as_scikit_learn() {
        // Two float32 values 1.043e-7 apart (7 ulps): equal for scikit-learn, whose
        // `a + 1e-7` is rounded to float32; the f64 sum would separate them.
        let (a, b) = (-0.177_938_550_710_678_1_f64, -0.177_938_446_402_549_74_f64);
        assert!(b > a + FEATURE_THRESHOLD);
        assert!(within_threshold(a, b));
        assert!(within_threshold(a as f32, b as f32));
        // Values float32 cannot hold keep the f64 rule.
        let c = 0.1_f64;
        assert!(within_threshold(c, c + 0.9e-7) && !within_threshold(c, c + 1.1e-7));
    }

    #[test]
    fn integer_keys_sort_as_the_float_comparator() {
        let vals = [
            -f64::MAX,
            -3.5,
            -1e-300,
            -0.0,
            0.0,
            5e-324,
            1e-300,
            2.0,
            2.0,
            f64::MAX,
            -3.5,
        ];
        for &v in &vals {
            let back = from_order_key(order_key(v));
            assert!(back == v && (v != 0.0 || back.is_sign_positive()));
        }
        for w in vals.windows(2) {
            let (a, b) = (order_key(w[0]), order_key(w[1]));
            assert_eq!(
                a.cmp(&b),
                w[0].partial_cmp(&w[1]).expect("ordered"),
                "{w:?}"
            );
        }
        // More than 64 pairs (the key path) and fewer give the comparator's order.
        let mut big: Vec<(f64, usize)> = (0..200)
            .map(|i| (((i * 37) % 23) as f64 - 11.0, 199 - i))
            .collect();
        let mut expect = big.clone();
        expect.sort_by(|a, b| a.0.partial_cmp(&b.0).expect("ordered").then(a.1.cmp(&b.1)));
        sort_pairs(&mut big);
        assert_eq!(big, expect);
    }

    #[test]
    fn histogram_mode_is_exact_on_the_training_rows_and_parallel_safe() {
        // 3,000 rows: two continuous features (more distinct values than bins), one coarse,
        // one constant; f64 and f32. Thresholds are bin edges, every training row lands in the
        // leaf that counted it, and the parallel sweeps give the sequential tree.
        let (n, d) = (3000usize, 4usize);
        let mut next = uniform_stream(99);
        let x = ndarray::Array2::from_shape_fn((n, d), |(_, f)| match f {
            0 | 1 => next() * 10.0 - 3.0,
            2 => (next() * 5.0).floor(),
            _ => 2.5,
        });
        let yc: Vec<usize> = x
            .rows()
            .into_iter()
            .map(|r| usize::from(r[0] + r[2] > 4.0) + usize::from(r[1] > 5.5))
            .collect();
        fn check<F: Float>(x: &ndarray::Array2<F>, yc: &[usize]) {
            let (n, d) = x.dim();
            let bins = TreeBins::fit(x, None, 16).expect("bins");
            assert!(bins.edges[0].len() <= 15 && bins.edges[3].is_empty());
            let xt = to_columns(x);
            let data = Columns::column_major(&xt, n, d).maybe_with_bins(Some(&bins));
            let grow = |par: usize, mf: usize| {
                let mut rng = TreeRng::from_seed(3);
                let crit = ClassCrit::new(yc, None, 3, ClassCriterion::Gini);
                build(&data, None, crit, config(par, mf), &mut rng, 1, 3)
            };
            for mf in [d, 2] {
                let tree = grow(usize::MAX, mf);
                assert_eq!(tree, grow(64, mf), "max_features {mf}");
                for (node, &f) in tree.feature().iter().enumerate() {
                    if let Ok(f) = usize::try_from(f) {
                        assert!(bins.edges[f].contains(&tree.threshold()[node]));
                    }
                }
                let leaves = tree.apply(x).expect("apply");
                let mut counts = vec![0usize; tree.node_count()];
                leaves.iter().for_each(|&l| counts[l] += 1);
                for node in (0..tree.node_count()).filter(|&i| tree.is_leaf(i)) {
                    assert_eq!(counts[node], tree.n_node_samples()[node]);
                }
                assert!(tree.n_leaves() > 4);
            }
        }
        check(&x, &yc);
        check(&x.mapv(|v| v as f32), &yc);
    }

    /// 70,000 rows: a coarse feature, two continuous ones (more distinct values than codes, so
    /// bins of two values), a constant one and one of few values with both zeros.
    fn coded_data() -> (Vec<f64>, usize, usize) {
        let (n, d) = (70_000usize, 5usize);
        let mut next = uniform_stream(977);
        let mut xt = vec![0.0f64; n * d];
        for f in 0..d {
            for i in 0..n {
                let v = next();
                xt[f * n + i] = match f {
                    0 => (v * 8.0).floor(),
                    2 => 3.0,
                    3 => [-0.0, 0.0, 1.5, -2.0][(v * 4.0) as usize],
                    _ => v * 10.0 - 5.0,
                };
            }
        }
        (xt, n, d)
    }

    #[test]
    fn split_codes_bin_every_value_exactly() {
        let (xt, n, d) = coded_data();
        let data = Columns::column_major(&xt, n, d);
        let codes = SplitCodes::fit(&data);
        for f in 0..d {
            let e = &codes.edges[f];
            assert!(
                e.windows(2).all(|w| w[0] < w[1]),
                "feature {f}: increasing edges"
            );
            assert!(e.len() < 1 << 16);
            for i in 0..n {
                let (c, x) = (usize::from(codes.column(f)[i]), data.get(f, i));
                assert!(
                    c == 0 || e[c - 1] < x,
                    "feature {f}, row {i}: above the bin below"
                );
                assert!(
                    c == e.len() || x <= e[c],
                    "feature {f}, row {i}: within its bin"
                );
            }
        }
        // One value per bin for few distinct values; two per bin above 65,536.
        assert_eq!(codes.edges[0].len(), 7);
        assert_eq!(codes.edges[2].len(), 0);
        assert_eq!(codes.edges[3].len(), 2, "-0.0 and 0.0 share a bin");
        assert_eq!(codes.edges[1].len(), 34_999);
    }

    #[test]
    fn coded_random_splits_give_the_raw_tree() {
        let (xt, n, d) = coded_data();
        let raw = Columns::column_major(&xt, n, d);
        let codes = SplitCodes::fit(&raw);
        let coded = Columns::column_major(&xt, n, d).maybe_with_codes(Some(&codes));
        let yc: Vec<usize> = (0..n)
            .map(|i| usize::from(xt[i] + xt[n + i] > 3.0) + usize::from(xt[4 * n + i] > 2.0))
            .collect();
        let yr: Vec<f64> = (0..n)
            .map(|i| xt[i] + (xt[n + i]).sin() + xt[3 * n + i] * xt[4 * n + i])
            .collect();
        let w_int: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
        let w_frac: Vec<f64> = (0..n).map(|i| (i % 3) as f64 + 0.5).collect();
        let mut cfg = config(usize::MAX, 3);
        cfg.random_splits = true;
        cfg.max_depth = 14;
        for data in [&raw, &coded] {
            assert!(data.codes.is_none() == std::ptr::eq(data, &raw));
        }
        let grow = |data: &Columns<'_, f64>, w: Option<&Vec<f64>>| {
            let w = w.map(Vec::as_slice);
            let mut rng = TreeRng::from_seed(3);
            build(
                data,
                w,
                ClassCrit::new(&yc, w, 3, ClassCriterion::Gini),
                cfg,
                &mut rng,
                1,
                3,
            )
        };
        for w in [None, Some(&w_int), Some(&w_frac)] {
            let tree = grow(&coded, w);
            assert!(tree.node_count() > 200);
            assert_eq!(
                tree,
                grow(&raw, w),
                "classification, weights {:?}",
                w.map(|w| w[1])
            );
        }
        let grow_r = |data: &Columns<'_, f64>| {
            let mut rng = TreeRng::from_seed(5);
            let crit = RegCrit::new(&yr, 1, None, RegCriterion::SquaredError);
            build(data, None, crit, cfg, &mut rng, 1, 1)
        };
        assert_eq!(grow_r(&coded), grow_r(&raw), "regression");
        let grow_m = |data: &Columns<'_, f64>| {
            let mut rng = TreeRng::from_seed(5);
            let mut cfg = cfg;
            cfg.max_depth = 3;
            build(data, None, MaeCrit::new(&yr, 1, None), cfg, &mut rng, 1, 1)
        };
        assert_eq!(grow_m(&coded), grow_m(&raw), "absolute error");
    }

    #[test]
    fn parallel_sweeps_give_the_sequential_tree() {
        // 900 rows, 6 features (two of them coarse, so values repeat; one constant).
        let (n, d) = (900usize, 6usize);
        let mut next = uniform_stream(12345);
        let mut xt = vec![0.0f64; n * d];
        for f in 0..d {
            for i in 0..n {
                let v = next();
                xt[f * n + i] = match f {
                    0 | 1 => (v * 8.0).floor(),
                    2 => 1.0,
                    _ => v,
                };
            }
        }
        let yc: Vec<usize> = (0..n)
            .map(|i| {
                usize::from(xt[i] + xt[3 * n + i] * 4.0 > 5.0) + usize::from(xt[4 * n + i] > 0.7)
            })
            .collect();
        let yr: Vec<f64> = (0..n)
            .map(|i| xt[n + i] + (6.0 * xt[5 * n + i]).sin() + next())
            .collect();
        let w: Vec<f64> = (0..n).map(|i| (i % 3) as f64 + 0.5).collect();
        let data = Columns::column_major(&xt, n, d);
        for mf in [d, 3] {
            let grow_c = |par: usize| {
                let mut rng = TreeRng::from_seed(7);
                let crit = ClassCrit::new(&yc, Some(&w), 3, ClassCriterion::Gini);
                build(&data, Some(&w), crit, config(par, mf), &mut rng, 1, 3)
            };
            let grow_r = |par: usize| {
                let mut rng = TreeRng::from_seed(7);
                let crit = RegCrit::new(&yr, 1, None, RegCriterion::SquaredError);
                build(&data, None, crit, config(par, mf), &mut rng, 1, 1)
            };
            let grow_m = |par: usize| {
                let mut rng = TreeRng::from_seed(7);
                let crit = MaeCrit::new(&yr, 1, None);
                let mut cfg = config(par, mf);
                cfg.max_depth = 4;
                build(&data, None, crit, cfg, &mut rng, 1, 1)
            };
            // Presorted blocks (all features searched) give the tree of per-node sorts.
            let unsorted = |par: usize| {
                let mut rng = TreeRng::from_seed(7);
                let crit = ClassCrit::new(&yc, Some(&w), 3, ClassCriterion::Gini);
                let mut cfg = config(par, mf);
                cfg.presort = false;
                build(&data, Some(&w), crit, cfg, &mut rng, 1, 3)
            };
            assert_eq!(grow_c(16), unsorted(16), "presort, max_features {mf}");
            assert_eq!(
                grow_c(usize::MAX),
                unsorted(usize::MAX),
                "presort, max_features {mf}"
            );
            // Integer weights (exact sums: the rows are not re-sorted after a parallel search).
            let w_int: Vec<f64> = (0..n).map(|i| (i % 3) as f64).collect();
            let grow_i = |par: usize| {
                let mut rng = TreeRng::from_seed(7);
                let crit = ClassCrit::new(&yc, Some(&w_int), 3, ClassCriterion::Entropy);
                build(&data, Some(&w_int), crit, config(par, mf), &mut rng, 1, 3)
            };
            for threads in [1, 2] {
                let (a, b) =
                    ndlearn_core::par::with_threads(threads, || (grow_c(usize::MAX), grow_c(16)))
                        .expect("pool");
                assert_eq!(a, b, "classification, max_features {mf}");
                let (a, b) =
                    ndlearn_core::par::with_threads(threads, || (grow_i(usize::MAX), grow_i(16)))
                        .expect("pool");
                assert_eq!(a, b, "integer weights, max_features {mf}");
                let (a, b) =
                    ndlearn_core::par::with_threads(threads, || (grow_r(usize::MAX), grow_r(16)))
                        .expect("pool");
                assert_eq!(a, b, "regression, max_features {mf}");
                let (a, b) =
                    ndlearn_core::par::with_threads(threads, || (grow_m(usize::MAX), grow_m(16)))
                        .expect("pool");
                assert_eq!(a, b, "absolute error, max_features {mf}");
            }
        }
    }
}
