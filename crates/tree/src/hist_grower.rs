//! The histogram tree grower of [`crate::hist_gradient_boosting`]: one regression tree fitted to
//! a Newton step from per-row gradients and hessians over `u8`-binned features.
//!
//! # Layout
//!
//! - Binned features are column-major `u8` codes (`n` per feature, the
//!   [`FittedBinMapper`] codes; the missing-value bin is `max_bins`).
//! - A histogram holds, per feature, 256 bins of `(Σg, Σh, count)` (`f64`, `f64`, `u32`; hessian
//!   sums stay 0 when the hessians are constant, the counts stand for them).
//! - The rows of every node are a contiguous range of one index array (`partition`); a split
//!   partitions the range stably (left rows first, each side in its previous order).
//!
//! # Growth
//!
//! Best-first (leaf-wise): the root's histograms are built, its best split found and pushed on a
//! max-heap by gain; the node of largest gain is split next until no splittable node is left
//! or `max_leaf_nodes` leaves exist. For each split the histograms of the smaller child are
//! built from its rows and the larger child's are the parent's minus the smaller's (histogram
//! subtraction). A split of feature `j` at bin `b` sends bins `≤ b` left; missing values go to
//! the side that gave the larger gain (both scans are tried when the feature had missing values
//! in training), else to the child with more rows. The gain of a split is XGBoost's
//!
//! ```text
//! gain = G_L² / (H_L + λ) + G_R² / (H_R + λ) − G² / (H + λ),   value = −G / (H + λ)
//! ```
//!
//! (scikit-learn's form: the node term is `G · v` with the node's own bounded value, 0 at the
//! root), kept when `> 0` and both children have `min_samples_leaf` rows and `min_hessian` hessian
//! mass. Leaf values are multiplied by the learning rate once the tree is grown.
//!
//! # Determinism
//!
//! Histograms are built in parallel over features, each feature's sums in row order by one
//! thread, so every sum (and the tree) is the same for any number of threads.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rand::Rng as _;
use rayon::prelude::*;

use ndlearn_core::Result;
use ndlearn_core::random::Rng;
use ndlearn_core::validate::{CheckModel, ModelCheck};

use crate::common::TreeLinks;

/// Histogram bins per feature (255 value bins and the missing bin at most).
pub(crate) const HIST_BINS: usize = 256;

/// A set of bins (codes `0..=255`): bit `b % 32` of word `b / 32` (scikit-learn's layout).
pub type Bitset = [u32; 8];

/// Whether code `b` is in the set.
#[inline]
pub(crate) fn in_bitset(set: &Bitset, b: u8) -> bool {
    set[usize::from(b >> 5)] >> (b & 31) & 1 == 1
}

/// Categories with less support (hessian mass, or rows when hessians are constant) are never
/// sent left by a categorical split; also the smoothing of the categories' sort keys
/// (LightGBM's `cat_smooth`, scikit-learn's `MIN_CAT_SUPPORT`).
const MIN_CAT_SUPPORT: f64 = 10.0;

/// One histogram bin: sums of gradients and hessians, and the row count.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct HBin {
    pub(crate) g: f64,
    pub(crate) h: f64,
    pub(crate) c: u32,
}

/// The binned training data of one boosting run.
pub(crate) struct Binned<'a> {
    /// Column-major codes: feature `j` is `codes[j·n..(j+1)·n]`.
    pub(crate) codes: &'a [u8],
    pub(crate) n: usize,
    pub(crate) d: usize,
    /// Non-missing bins of each feature.
    pub(crate) n_bins_non_missing: &'a [usize],
    /// Whether each feature had missing values in the training rows.
    pub(crate) has_missing: &'a [bool],
    /// The missing-value code.
    pub(crate) missing_bin: u8,
    /// Per-feature split thresholds (the bin mapper's), for the real-valued predictor.
    pub(crate) thresholds: &'a [Vec<f64>],
    /// Monotonic constraint of each feature (`1` increasing, `−1` decreasing, `0` none); empty:
    /// no constraints.
    pub(crate) monotonic: &'a [i8],
    /// Interaction constraints: groups of features that may appear together on a path (every
    /// feature in some group); empty: no constraints.
    pub(crate) interaction: &'a [Vec<usize>],
    /// Whether each feature is categorical; empty: none is.
    pub(crate) categorical: &'a [bool],
}

impl Binned<'_> {
    fn column(&self, j: usize) -> &[u8] {
        &self.codes[j * self.n..(j + 1) * self.n]
    }

    /// The features in scikit-learn's internal column order: the categorical features first,
    /// then the others (each in index order). Ties between features go to the first in this
    /// order, and `max_features` draws over it.
    fn scan_order(&self) -> impl Iterator<Item = usize> + '_ {
        let cat = |j: usize| self.categorical.get(j).copied().unwrap_or(false);
        (0..self.d)
            .filter(move |&j| cat(j))
            .chain((0..self.d).filter(move |&j| !cat(j)))
    }
}

/// Settings of one tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GrowParams {
    pub(crate) max_leaf_nodes: Option<usize>,
    pub(crate) max_depth: Option<usize>,
    pub(crate) min_samples_leaf: usize,
    pub(crate) l2: f64,
    pub(crate) min_hessian: f64,
    pub(crate) shrinkage: f64,
    /// Fraction of the features searched at each node (1: all).
    pub(crate) feature_fraction: f64,
}

/// One node of a fitted histogram tree (scikit-learn's `PREDICTOR_RECORD_DTYPE`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HistNode {
    /// The node's value: for a leaf, its contribution to the raw score (learning rate applied).
    pub value: f64,
    /// Training rows that reached the node.
    pub count: u32,
    /// Split feature (internal nodes).
    pub feature: u32,
    /// Real threshold: `x ≤ threshold` goes left (`+∞` for a split of missing values only).
    pub threshold: f64,
    /// Bin threshold: code `≤ bin_threshold` goes left.
    pub bin_threshold: u8,
    /// Where missing values go.
    pub missing_go_to_left: bool,
    /// Left child (internal nodes).
    pub left: u32,
    /// Right child (internal nodes).
    pub right: u32,
    /// The split's gain (`−1` for leaves).
    pub gain: f64,
    /// Depth (root 0).
    pub depth: u32,
    /// Whether the node is a leaf.
    pub is_leaf: bool,
    /// Whether the split is categorical: the codes in the tree's bitset `bitset_idx` go left,
    /// the other known categories right, missing and unseen values to the missing side.
    #[cfg_attr(feature = "serde", serde(default))]
    pub is_categorical: bool,
    /// The index of a categorical split's bitset in [`HistTree::bitsets`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub bitset_idx: u32,
}

impl HistNode {
    /// Whether a row with value `v` of the split feature goes left: for a categorical split
    /// `v` is the category's code (NaN: missing or unseen; see [`FittedBinMapper`]).
    ///
    /// [`FittedBinMapper`]: crate::binning::FittedBinMapper
    #[inline]
    pub fn goes_left(&self, v: f64, bitsets: &[Bitset]) -> bool {
        if v.is_nan() {
            self.missing_go_to_left
        } else if self.is_categorical {
            in_bitset(&bitsets[self.bitset_idx as usize], v as u8)
        } else {
            v <= self.threshold
        }
    }
}

/// A fitted histogram tree: nodes in depth-first pre-order (root first, then the left subtree,
/// then the right subtree), the order of scikit-learn's `TreePredictor.nodes`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HistTree {
    nodes: Vec<HistNode>,
    /// The left-going codes of the categorical splits, in pre-order.
    #[cfg_attr(feature = "serde", serde(default))]
    bitsets: Vec<Bitset>,
}

impl HistTree {
    /// A chain of `depth` splits on feature 0 (`x ≤ i` goes to leaf `i`, the rest goes on),
    /// in pre-order: a valid tree of any depth, for the depth limits' tests.
    #[cfg(test)]
    pub(crate) fn chain(depth: usize) -> Self {
        let leaf = |value: u32, depth: u32| HistNode {
            value: f64::from(value),
            count: 1,
            feature: 0,
            threshold: 0.0,
            bin_threshold: 0,
            missing_go_to_left: false,
            left: 0,
            right: 0,
            gain: -1.0,
            depth,
            is_leaf: true,
            is_categorical: false,
            bitset_idx: 0,
        };
        let mut nodes = Vec::with_capacity(2 * depth + 1);
        let n = depth as u32 + 1;
        for i in 0..depth as u32 {
            // pre-order: split 2i, its left leaf 2i + 1, then the right subtree from 2i + 2
            nodes.push(HistNode {
                count: n - i,
                threshold: f64::from(i),
                left: 2 * i + 1,
                right: 2 * i + 2,
                gain: 1.0,
                is_leaf: false,
                ..leaf(0, i)
            });
            nodes.push(leaf(i, i + 1));
        }
        nodes.push(leaf(depth as u32, depth as u32));
        HistTree {
            nodes,
            bitsets: Vec::new(),
        }
    }

    /// The nodes (pre-order; node 0 is the root).
    pub fn nodes(&self) -> &[HistNode] {
        &self.nodes
    }

    /// The bitsets of the categorical splits (node [`HistNode::bitset_idx`]).
    pub fn bitsets(&self) -> &[Bitset] {
        &self.bitsets
    }

    /// Number of nodes.
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }

    /// Number of leaves.
    pub fn n_leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.is_leaf).count()
    }

    /// The largest depth of a leaf.
    pub fn max_depth(&self) -> usize {
        self.nodes
            .iter()
            .map(|n| n.depth as usize)
            .max()
            .unwrap_or(0)
    }

    /// The leaf reached by one row of real values (NaN is missing; categorical features as
    /// codes, see [`HistNode::goes_left`]).
    #[inline]
    pub fn leaf_of(&self, row: impl Fn(usize) -> f64) -> usize {
        let mut i = 0usize;
        loop {
            let node = &self.nodes[i];
            if node.is_leaf {
                return i;
            }
            let left = node.goes_left(row(node.feature as usize), &self.bitsets);
            i = if left { node.left } else { node.right } as usize;
        }
    }

    /// The value of the leaf reached by one row of bin codes.
    #[inline]
    pub(crate) fn predict_binned(&self, code: impl Fn(usize) -> u8, missing_bin: u8) -> f64 {
        let mut i = 0usize;
        loop {
            let node = &self.nodes[i];
            if node.is_leaf {
                return node.value;
            }
            let b = code(node.feature as usize);
            let left = if b == missing_bin {
                node.missing_go_to_left
            } else if node.is_categorical {
                in_bitset(&self.bitsets[node.bitset_idx as usize], b)
            } else {
                b <= node.bin_threshold
            };
            i = if left { node.left } else { node.right } as usize;
        }
    }

    /// Sets a leaf's value (the leaf-value refits of the absolute and quantile losses).
    pub(crate) fn set_value(&mut self, node: usize, value: f64) {
        self.nodes[node].value = value;
    }

    /// Whether the links form a pre-order tree (children after their parent, in range) and
    /// every split feature is below `n_features` (checks deserialised models).
    pub(crate) fn is_well_formed(&self, n_features: usize) -> bool {
        let n = self.nodes.len();
        n > 0
            && self.nodes.iter().enumerate().all(|(i, node)| {
                node.is_leaf || {
                    let (l, r) = (node.left as usize, node.right as usize);
                    l > i
                        && r > i
                        && l < n
                        && r < n
                        && (node.feature as usize) < n_features
                        && !node.threshold.is_nan()
                        && (!node.is_categorical || (node.bitset_idx as usize) < self.bitsets.len())
                }
            })
    }
}

/// The nodes of a tree read back from a file (the split features are checked by the model,
/// which knows their count).
///
/// The grower writes the nodes in pre-order (`Grower::finish`): every child after its
/// parent, every node but the root the child of exactly one node, one level deeper. All are
/// checked (`TreeLinks`): a walk strictly increases the node index (it ends, within
/// `node_count` steps), and the stored depths are the true ones, so the fixed-step walk of
/// the predictor (`max_depth` steps) reaches a leaf and the TreeSHAP path buffer
/// (`max_depth + 2`) stays small.
impl CheckModel for HistTree {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("HistTree");
        let n = self.nodes.len();
        c.at_least("nodes", n, 1)?;
        c.that(u32::try_from(n).is_ok(), || {
            format!("{n} nodes are too many")
        })?;
        c.that(self.nodes[0].depth == 0, || {
            "the root must have depth 0".into()
        })?;
        let mut links = TreeLinks::new(n);
        for (i, node) in self.nodes.iter().enumerate() {
            c.that(!node.gain.is_nan(), || format!("node {i}: the gain is NaN"))?;
            if node.is_leaf {
                c.that(node.value.is_finite(), || {
                    format!("leaf {i}: the value is not finite")
                })?;
                continue;
            }
            // +∞ is a split of the missing values only
            c.that(!node.threshold.is_nan(), || {
                format!("node {i}: the threshold is NaN")
            })?;
            let bitsets = self.bitsets.len();
            c.that(
                !node.is_categorical || (node.bitset_idx as usize) < bitsets,
                || format!("node {i}: bitset {} of {bitsets}", node.bitset_idx),
            )?;
            for child in [node.left, node.right] {
                let ch = links.child(&c, i, child)?;
                c.that(
                    node.depth.checked_add(1) == Some(self.nodes[ch].depth),
                    || {
                        format!(
                            "node {ch}: depth {} under a node of depth {}",
                            self.nodes[ch].depth, node.depth
                        )
                    },
                )?;
            }
        }
        links.finish(&c)
    }
}

/// The best split of a node.
#[derive(Debug, Clone, Copy)]
struct SplitInfo {
    gain: f64,
    feature: usize,
    bin: usize,
    missing_go_to_left: bool,
    g_left: f64,
    h_left: f64,
    n_left: usize,
    value_left: f64,
    value_right: f64,
    /// The left-going codes of a categorical split (the missing bin among them when missing
    /// values go left).
    left_cats: Option<Bitset>,
}

/// A node while the tree grows.
struct GNode {
    depth: usize,
    start: usize,
    stop: usize,
    sum_g: f64,
    sum_h: f64,
    value: f64,
    split: Option<SplitInfo>,
    children: Option<(usize, usize)>,
    hist: Option<Vec<HBin>>,
    /// Bounds of the children's values (monotonic constraints).
    lower: f64,
    upper: f64,
    /// Interaction groups still open below this node (`None`: all).
    groups: Option<Vec<usize>>,
}

impl GNode {
    fn n(&self) -> usize {
        self.stop - self.start
    }
}

/// Heap entry: larger gain first, then the older node.
struct Pending {
    gain: f64,
    node: usize,
}

impl PartialEq for Pending {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Pending {}
impl PartialOrd for Pending {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Pending {
    fn cmp(&self, other: &Self) -> Ordering {
        self.gain
            .total_cmp(&other.gain)
            .then_with(|| other.node.cmp(&self.node))
    }
}

/// `−G / (H + λ)` (scikit-learn adds `1e-15` against a zero denominator).
#[inline]
fn node_value(g: f64, h: f64, l2: f64) -> f64 {
    -g / (h + l2 + 1e-15)
}

/// Rows per block of the parallel partition.
const PARTITION_BLOCK: usize = 16_384;

/// Rows per node below which histograms are built on the calling thread.
const PAR_MIN_WORK: usize = 1 << 15;

/// The state of one tree's growth.
pub(crate) struct Grower<'a> {
    data: &'a Binned<'a>,
    g: &'a [f32],
    /// `None`: constant hessians (1 per row; the counts stand for the sums).
    h: Option<&'a [f32]>,
    params: GrowParams,
    partition: &'a mut [u32],
    ordered_g: Vec<f32>,
    /// The partition's output before it is copied back (reused by every split).
    split_rows: Vec<u32>,
    ordered_h: Vec<f32>,
    nodes: Vec<GNode>,
    heap: BinaryHeap<Pending>,
    n_leaves: usize,
    rng: Rng,
    spare: Vec<Vec<HBin>>,
}

/// The result of growing one tree: the tree, and for each of its leaves the range of the
/// partition holding the leaf's training rows.
pub(crate) struct Grown {
    pub(crate) tree: HistTree,
    pub(crate) leaves: Vec<(usize, std::ops::Range<usize>)>,
}

impl<'a> Grower<'a> {
    /// A grower over `data` for the gradients `g` (and hessians `h`, `None` when constant);
    /// `partition` must hold `0..n` (it is reordered).
    pub(crate) fn new(
        data: &'a Binned<'a>,
        g: &'a [f32],
        h: Option<&'a [f32]>,
        params: GrowParams,
        partition: &'a mut [u32],
        rng: Rng,
    ) -> Self {
        Self {
            data,
            g,
            h,
            params,
            partition,
            ordered_g: Vec::new(),
            split_rows: Vec::new(),
            ordered_h: Vec::new(),
            nodes: Vec::new(),
            heap: BinaryHeap::new(),
            n_leaves: 0,
            rng,
            spare: Vec::new(),
        }
    }

    /// Grows the tree.
    pub(crate) fn grow(mut self) -> Grown {
        let n = self.data.n;
        // Sequential sums in row order (the same for any thread count).
        let sum_g: f64 = self.g.iter().map(|&v| f64::from(v)).sum();
        let sum_h: f64 = match self.h {
            None => n as f64,
            Some(h) => h.iter().map(|&v| f64::from(v)).sum(),
        };
        self.nodes.push(GNode {
            depth: 0,
            start: 0,
            stop: n,
            sum_g,
            sum_h,
            value: 0.0,
            split: None,
            children: None,
            hist: None,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            groups: None,
        });
        self.n_leaves = 1;
        if !self.data.interaction.is_empty() {
            self.nodes[0].groups = Some((0..self.data.interaction.len()).collect());
        }
        if n >= 2 * self.params.min_samples_leaf && sum_h >= self.params.min_hessian {
            let mut hist = self.take_hist();
            self.build_histograms(0, &mut hist);
            self.nodes[0].hist = Some(hist);
            self.find_split_and_push(0);
        }
        while let Some(Pending { node, .. }) = self.heap.pop() {
            self.split_node(node);
            if let Some(max) = self.params.max_leaf_nodes
                && self.n_leaves >= max
            {
                self.heap.clear();
            }
        }
        self.finish()
    }

    fn take_hist(&mut self) -> Vec<HBin> {
        self.spare
            .pop()
            .unwrap_or_else(|| vec![HBin::default(); self.data.d * HIST_BINS])
    }

    fn release_hist(&mut self, node: usize) {
        if let Some(h) = self.nodes[node].hist.take() {
            self.spare.push(h);
        }
    }

    /// Histograms of a node from its rows.
    fn build_histograms(&mut self, node: usize, out: &mut [HBin]) {
        let (start, stop) = (self.nodes[node].start, self.nodes[node].stop);
        let data = self.data;
        let n = data.n;
        let root = stop - start == n;
        let (g, h) = (self.g, self.h);
        if !root {
            let idx = &self.partition[start..stop];
            self.ordered_g.clear();
            self.ordered_g.extend(idx.iter().map(|&i| g[i as usize]));
            if let Some(h) = h {
                self.ordered_h.clear();
                self.ordered_h.extend(idx.iter().map(|&i| h[i as usize]));
            }
        }
        let idx = &self.partition[start..stop];
        let (og, oh) = (&self.ordered_g[..], &self.ordered_h[..]);
        // The root reads the gradients in row order, other nodes their gathered copies.
        let (rows, gs, hs) = if root {
            (None, g, h)
        } else {
            (Some(idx), og, h.map(|_| oh))
        };
        // Two features per pass: each row index and gradient is loaded once for both, and the
        // two bins' updates are independent. Each feature's sums still run in row order.
        let pair = |j: usize, block: &mut [HBin]| {
            block.fill(HBin::default());
            if block.len() == 2 * HIST_BINS {
                let (a, b) = block.split_at_mut(HIST_BINS);
                let cols = [data.column(j), data.column(j + 1)];
                kernel([bins(a), bins(b)], cols, rows, gs, hs);
            } else {
                kernel([bins(block)], [data.column(j)], rows, gs, hs);
            }
        };
        if (stop - start) * data.d >= PAR_MIN_WORK {
            out.par_chunks_mut(2 * HIST_BINS)
                .enumerate()
                .for_each(|(t, block)| pair(2 * t, block));
        } else {
            out.chunks_mut(2 * HIST_BINS)
                .enumerate()
                .for_each(|(t, block)| pair(2 * t, block));
        }
    }

    /// The features searched at a node (all, or a random `⌈fraction·d⌉` of them).
    /// The features a node may split on: those of its open interaction groups, of which a
    /// random `⌈fraction·m⌉` when `max_features < 1` (`None`: all).
    fn feature_mask(&mut self, node: usize) -> Option<Vec<bool>> {
        let d = self.data.d;
        let allowed: Option<Vec<bool>> = self.nodes[node].groups.as_ref().map(|groups| {
            let mut m = vec![false; d];
            for &g in groups {
                for &j in &self.data.interaction[g] {
                    m[j] = true;
                }
            }
            m
        });
        let f = self.params.feature_fraction;
        if f >= 1.0 {
            return allowed;
        }
        let candidates: Vec<usize> = self
            .data
            .scan_order()
            .filter(|&j| allowed.as_ref().is_none_or(|m| m[j]))
            .collect();
        let m = candidates.len();
        let k = ((f * m as f64).ceil() as usize).clamp(1, m.max(1));
        let mut pick = vec![false; m];
        pick[..k.min(m)].fill(true);
        // Fisher–Yates shuffle of the selection.
        for i in (1..m).rev() {
            let j = self.rng.random_range(0..=i);
            pick.swap(i, j);
        }
        let mut mask = vec![false; d];
        for (&j, &p) in candidates.iter().zip(&pick) {
            mask[j] = p;
        }
        Some(mask)
    }

    fn find_split_and_push(&mut self, node: usize) {
        let mask = self.feature_mask(node);
        let split = {
            let nd = &self.nodes[node];
            let hist = nd.hist.as_deref().expect("histograms of a splittable node");
            let ctx = ScanContext {
                n: nd.n(),
                sum_g: nd.sum_g,
                sum_h: nd.sum_h,
                loss_node: nd.sum_g * nd.value,
                params: &self.params,
                constant_hessian: self.h.is_none(),
                lower: nd.lower,
                upper: nd.upper,
            };
            let data = self.data;
            let scan = |j: usize| -> Option<SplitInfo> {
                if mask.as_ref().is_some_and(|m| !m[j]) {
                    return None;
                }
                let fh = &hist[j * HIST_BINS..(j + 1) * HIST_BINS];
                let nb = data.n_bins_non_missing[j];
                if data.categorical.get(j).copied().unwrap_or(false) {
                    let missing = data.has_missing[j].then_some(data.missing_bin);
                    return ctx.categorical(j, fh, nb, missing);
                }
                let cst = data.monotonic.get(j).copied().unwrap_or(0);
                let mut best = ctx.left_to_right(j, fh, nb, data.has_missing[j], cst);
                if data.has_missing[j] {
                    best = ctx.right_to_left(j, fh, nb, best, cst);
                }
                best
            };
            let per_feature: Vec<Option<SplitInfo>> = if data.d >= 16 {
                (0..data.d).into_par_iter().map(scan).collect()
            } else {
                (0..data.d).map(scan).collect()
            };
            // The first feature of strictly largest gain, categorical features first
            // (scikit-learn's internal column order).
            let mut best: Option<SplitInfo> = None;
            for s in data.scan_order().filter_map(|j| per_feature[j]) {
                if best.is_none_or(|b| s.gain > b.gain) {
                    best = Some(s);
                }
            }
            best
        };
        match split {
            Some(s) if s.gain > 0.0 => {
                self.nodes[node].split = Some(s);
                self.heap.push(Pending { gain: s.gain, node });
            }
            _ => self.release_hist(node),
        }
    }

    fn split_node(&mut self, node: usize) {
        let s = self.nodes[node].split.expect("a pushed node has a split");
        let (start, stop, depth) = {
            let nd = &self.nodes[node];
            (nd.start, nd.stop, nd.depth + 1)
        };
        let col = self.data.column(s.feature);
        let missing = self.data.missing_bin;
        let bin = s.bin as u8;
        // A categorical split's bitset holds the missing bin when missing values go left.
        let cats = s.left_cats;
        let goes_left = move |b: u8| match &cats {
            Some(set) => in_bitset(set, b),
            None => (s.missing_go_to_left && b == missing) || (b != missing && b <= bin),
        };
        let rows = &mut self.partition[start..stop];
        // Blocks of rows, each partitioned into its own range of one reused buffer (left rows
        // from the front, right rows from the back), then the left parts and the right parts
        // copied back in block order: the order of one sequential stable pass, whatever the
        // thread count.
        let blocks = if rows.len() >= 2 * PARTITION_BLOCK {
            PARTITION_BLOCK
        } else {
            rows.len().max(1)
        };
        let out = &mut self.split_rows;
        out.clear();
        out.resize(rows.len(), 0);
        let fill = |(b, o): (&[u32], &mut [u32])| -> usize {
            let (mut a, mut z) = (0, b.len());
            for &i in b {
                if goes_left(col[i as usize]) {
                    o[a] = i;
                    a += 1;
                } else {
                    z -= 1;
                    o[z] = i;
                }
            }
            a
        };
        let counts: Vec<usize> = if blocks < rows.len() {
            rows.par_chunks(blocks)
                .zip(out.par_chunks_mut(blocks))
                .map(fill)
                .collect()
        } else {
            vec![fill((rows, out))]
        };
        let mut w = 0;
        for (o, &a) in out.chunks(blocks).zip(&counts) {
            rows[w..w + a].copy_from_slice(&o[..a]);
            w += a;
        }
        let n_left = w;
        for (o, &a) in out.chunks(blocks).zip(&counts) {
            for &i in o[a..].iter().rev() {
                rows[w] = i;
                w += 1;
            }
        }
        debug_assert_eq!(n_left, s.n_left);
        let mid = start + n_left;
        let (sum_g, sum_h) = (self.nodes[node].sum_g, self.nodes[node].sum_h);
        let left = self.nodes.len();
        let right = left + 1;
        self.nodes.push(GNode {
            depth,
            start,
            stop: mid,
            sum_g: s.g_left,
            sum_h: s.h_left,
            value: s.value_left,
            split: None,
            children: None,
            hist: None,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            groups: None,
        });
        self.nodes.push(GNode {
            depth,
            start: mid,
            stop,
            sum_g: sum_g - s.g_left,
            sum_h: sum_h - s.h_left,
            value: s.value_right,
            split: None,
            children: None,
            hist: None,
            lower: f64::NEG_INFINITY,
            upper: f64::INFINITY,
            groups: None,
        });
        if !self.data.has_missing[s.feature] {
            // No missing values in training: missing values follow the larger child.
            let sp = self.nodes[node].split.as_mut().expect("split");
            sp.missing_go_to_left = mid - start > stop - mid;
        }
        self.nodes[node].children = Some((left, right));
        self.n_leaves += 1;
        let p = self.params;
        let at_max_leaves = p.max_leaf_nodes.is_some_and(|m| self.n_leaves >= m);
        let at_max_depth = p.max_depth.is_some_and(|m| depth >= m);
        let splittable = |n: usize| !at_max_leaves && !at_max_depth && n >= 2 * p.min_samples_leaf;
        let split_left = splittable(mid - start);
        let split_right = splittable(stop - mid);
        if !self.data.monotonic.is_empty() {
            // Children bounds (scikit-learn's): an unconstrained feature passes the node's on;
            // a constrained one splits them at the mean of the two children's values.
            let (lo, hi) = (self.nodes[node].lower, self.nodes[node].upper);
            let mid_value = 0.5 * (self.nodes[left].value + self.nodes[right].value);
            let ((ll, lu), (rl, ru)) = match self.data.monotonic[s.feature] {
                0 => ((lo, hi), (lo, hi)),
                c if c > 0 => ((lo, mid_value), (mid_value, hi)),
                _ => ((mid_value, hi), (lo, mid_value)),
            };
            (self.nodes[left].lower, self.nodes[left].upper) = (ll, lu);
            (self.nodes[right].lower, self.nodes[right].upper) = (rl, ru);
        }
        if let Some(groups) = &self.nodes[node].groups {
            // Below a split on feature f only the groups containing f stay open.
            let open: Vec<usize> = groups
                .iter()
                .copied()
                .filter(|&g| self.data.interaction[g].contains(&s.feature))
                .collect();
            self.nodes[left].groups = Some(open.clone());
            self.nodes[right].groups = Some(open);
        }
        if split_left || split_right {
            let parent = self.nodes[node].hist.take().expect("parent histograms");
            let (small, large) = if mid - start < stop - mid {
                (left, right)
            } else {
                (right, left)
            };
            let mut hs = self.take_hist();
            self.build_histograms(small, &mut hs);
            let mut hl = parent;
            for (a, b) in hl.iter_mut().zip(&hs) {
                a.g -= b.g;
                a.h -= b.h;
                a.c -= b.c;
            }
            self.nodes[small].hist = Some(hs);
            self.nodes[large].hist = Some(hl);
            for (child, go) in [(left, split_left), (right, split_right)] {
                if go {
                    self.find_split_and_push(child);
                } else {
                    self.release_hist(child);
                }
            }
        } else {
            self.release_hist(node);
        }
    }

    /// The pre-order tree and the partition range of every leaf.
    fn finish(self) -> Grown {
        let mut out: Vec<HistNode> = Vec::with_capacity(self.nodes.len());
        let mut bitsets: Vec<Bitset> = Vec::new();
        let mut leaves = Vec::new();
        // Iterative pre-order: (grower node, slot of the parent's link to fill).
        let mut stack: Vec<(usize, Option<(usize, bool)>)> = vec![(0, None)];
        while let Some((g, link)) = stack.pop() {
            let id = out.len();
            if let Some((parent, is_left)) = link {
                if is_left {
                    out[parent].left = id as u32;
                } else {
                    out[parent].right = id as u32;
                }
            }
            let nd = &self.nodes[g];
            let mut rec = HistNode {
                value: nd.value,
                count: nd.n() as u32,
                feature: 0,
                threshold: 0.0,
                bin_threshold: 0,
                missing_go_to_left: false,
                left: 0,
                right: 0,
                gain: -1.0,
                depth: nd.depth as u32,
                is_leaf: true,
                is_categorical: false,
                bitset_idx: 0,
            };
            match (nd.children, nd.split) {
                (Some((l, r)), Some(s)) => {
                    rec.is_leaf = false;
                    rec.value = nd.value;
                    rec.feature = s.feature as u32;
                    rec.bin_threshold = s.bin as u8;
                    rec.missing_go_to_left = s.missing_go_to_left;
                    rec.gain = s.gain;
                    if let Some(set) = s.left_cats {
                        // scikit-learn's record: threshold and bin threshold 0.
                        rec.is_categorical = true;
                        rec.bitset_idx = bitsets.len() as u32;
                        bitsets.push(set);
                    } else {
                        rec.threshold = if s.bin + 1 == self.data.n_bins_non_missing[s.feature] {
                            f64::INFINITY
                        } else {
                            self.data.thresholds[s.feature][s.bin]
                        };
                    }
                    out.push(rec);
                    stack.push((r, Some((id, false))));
                    stack.push((l, Some((id, true))));
                }
                _ => {
                    rec.value = nd.value * self.params.shrinkage;
                    if let Some(s) = nd.split {
                        // A node with a split that was not applied (max_leaf_nodes reached).
                        rec.gain = s.gain;
                    }
                    out.push(rec);
                    leaves.push((id, nd.start..nd.stop));
                }
            }
        }
        Grown {
            tree: HistTree {
                nodes: out,
                bitsets,
            },
            leaves,
        }
    }
}

/// A feature's 256 bins as a fixed array (a `u8` code then indexes it without a bounds check).
fn bins(c: &mut [HBin]) -> &mut [HBin; HIST_BINS] {
    c.try_into().expect("256 bins per feature")
}

/// Adds `(g, h, 1)` of every row to the bins of `W` features: rows `0..n` in order when `rows`
/// is `None` (the root), else the listed rows, whose gradients `g` (and hessians `h`; `None`:
/// constant, not summed) are given in that order.
#[inline(always)]
fn kernel<const W: usize>(
    hists: [&mut [HBin; HIST_BINS]; W],
    cols: [&[u8]; W],
    rows: Option<&[u32]>,
    g: &[f32],
    h: Option<&[f32]>,
) {
    match (rows, h) {
        (None, None) => {
            for (i, &gi) in g.iter().enumerate() {
                let gi = f64::from(gi);
                for w in 0..W {
                    let e = &mut hists[w][cols[w][i] as usize];
                    e.g += gi;
                    e.c += 1;
                }
            }
        }
        (None, Some(h)) => {
            for (i, (&gi, &hi)) in g.iter().zip(h).enumerate() {
                let (gi, hi) = (f64::from(gi), f64::from(hi));
                for w in 0..W {
                    let e = &mut hists[w][cols[w][i] as usize];
                    e.g += gi;
                    e.h += hi;
                    e.c += 1;
                }
            }
        }
        (Some(idx), None) => {
            for (&i, &gi) in idx.iter().zip(g) {
                let gi = f64::from(gi);
                for w in 0..W {
                    let e = &mut hists[w][cols[w][i as usize] as usize];
                    e.g += gi;
                    e.c += 1;
                }
            }
        }
        (Some(idx), Some(h)) => {
            for ((&i, &gi), &hi) in idx.iter().zip(g).zip(h) {
                let (gi, hi) = (f64::from(gi), f64::from(hi));
                for w in 0..W {
                    let e = &mut hists[w][cols[w][i as usize] as usize];
                    e.g += gi;
                    e.h += hi;
                    e.c += 1;
                }
            }
        }
    }
}

/// The node totals a split scan needs.
struct ScanContext<'p> {
    n: usize,
    sum_g: f64,
    sum_h: f64,
    loss_node: f64,
    params: &'p GrowParams,
    constant_hessian: bool,
    /// Bounds of the children's values (monotonic constraints).
    lower: f64,
    upper: f64,
}

impl ScanContext<'_> {
    /// The gain of a split and the children's values, clipped to the node's bounds; `−1` when
    /// the values violate the feature's monotonic constraint `cst`.
    #[inline]
    fn gain(&self, gl: f64, hl: f64, gr: f64, hr: f64, cst: i8) -> (f64, f64, f64) {
        let l2 = self.params.l2;
        let vl = node_value(gl, hl, l2).clamp(self.lower, self.upper);
        let vr = node_value(gr, hr, l2).clamp(self.lower, self.upper);
        if (cst > 0 && vl > vr) || (cst < 0 && vl < vr) {
            return (-1.0, vl, vr);
        }
        (self.loss_node - gl * vl - gr * vr, vl, vr)
    }

    #[inline]
    fn bin_h(&self, b: &HBin) -> f64 {
        if self.constant_hessian {
            f64::from(b.c)
        } else {
            b.h
        }
    }

    /// The best categorical split (scikit-learn's and LightGBM's rule, after Fisher's "On
    /// grouping for maximum homogeneity"): the categories with support
    /// `h_c · n/H ≥ MIN_CAT_SUPPORT` (the missing values one more category when the feature had
    /// any in training) are sorted by `G_c/(H_c + MIN_CAT_SUPPORT)`; a prefix of at most
    /// `⌈m/2⌉` of the `m` sorted categories, or a suffix of at most `⌈m/2⌉ − 1`, goes left, the
    /// rest and every unsupported category right. Candidates scan outward from each end; one
    /// whose left side lacks rows or hessian mass is skipped, one whose right side lacks them
    /// ends the scan.
    fn categorical(
        &self,
        feature: usize,
        hist: &[HBin],
        n_bins: usize,
        missing: Option<u8>,
    ) -> Option<SplitInfo> {
        let p = self.params;
        let support = self.n as f64 / self.sum_h;
        // (sort key, bin) of the supported categories.
        let mut cats: Vec<(f64, usize)> = (0..n_bins)
            .chain(missing.map(usize::from))
            .filter_map(|b| {
                let e = &hist[b];
                let h = self.bin_h(e);
                (h * support >= MIN_CAT_SUPPORT).then(|| (e.g / (h + MIN_CAT_SUPPORT), b))
            })
            .collect();
        let m = cats.len();
        if m <= 1 {
            return None;
        }
        // Ties (equal sums) give equal gains whichever way they are ordered.
        cats.sort_by(|a, b| a.0.total_cmp(&b.0));
        // The best split so far (its bitset filled in at the end) and its sorted categories.
        let mut best: Option<(SplitInfo, std::ops::Range<usize>)> = None;
        let mut best_gain = -1.0;
        for forward in [true, false] {
            let middle = if forward {
                m.div_ceil(2)
            } else {
                m.div_ceil(2) - 1
            };
            let (mut gl, mut hl, mut nl) = (0.0f64, 0.0f64, 0usize);
            for i in 0..middle {
                let e = &hist[cats[if forward { i } else { m - 1 - i }].1];
                nl += e.c as usize;
                let nr = self.n - nl;
                hl += self.bin_h(e);
                let hr = self.sum_h - hl;
                gl += e.g;
                let gr = self.sum_g - gl;
                if nl < p.min_samples_leaf || hl < p.min_hessian {
                    continue;
                }
                if nr < p.min_samples_leaf || hr < p.min_hessian {
                    break;
                }
                let (gain, vl, vr) = self.gain(gl, hl, gr, hr, 0);
                if gain > best_gain && gain > 0.0 {
                    best_gain = gain;
                    let split = SplitInfo {
                        gain,
                        feature,
                        bin: 0,
                        missing_go_to_left: false,
                        g_left: gl,
                        h_left: hl,
                        n_left: nl,
                        value_left: vl,
                        value_right: vr,
                        left_cats: None,
                    };
                    best = Some((split, if forward { 0..i + 1 } else { m - 1 - i..m }));
                }
            }
        }
        let (mut split, chosen) = best?;
        let mut set: Bitset = [0; 8];
        for &(_, b) in &cats[chosen] {
            set[b >> 5] |= 1 << (b & 31);
        }
        split.missing_go_to_left = missing.is_some_and(|mb| in_bitset(&set, mb));
        split.left_cats = Some(set);
        Some(split)
    }

    /// Bins `≤ b` left, missing values right.
    fn left_to_right(
        &self,
        feature: usize,
        hist: &[HBin],
        n_bins: usize,
        has_missing: bool,
        cst: i8,
    ) -> Option<SplitInfo> {
        let p = self.params;
        let end = (n_bins + usize::from(has_missing)).saturating_sub(1);
        let (mut gl, mut hl, mut nl) = (0.0f64, 0.0f64, 0usize);
        let mut best: Option<SplitInfo> = None;
        let mut best_gain = -1.0;
        for (b, e) in hist.iter().enumerate().take(end) {
            nl += e.c as usize;
            let nr = self.n - nl;
            hl += self.bin_h(e);
            let hr = self.sum_h - hl;
            gl += e.g;
            let gr = self.sum_g - gl;
            if nl < p.min_samples_leaf {
                continue;
            }
            if nr < p.min_samples_leaf {
                break;
            }
            if hl < p.min_hessian {
                continue;
            }
            if hr < p.min_hessian {
                break;
            }
            let (gain, vl, vr) = self.gain(gl, hl, gr, hr, cst);
            if gain > best_gain && gain > 0.0 {
                best_gain = gain;
                best = Some(SplitInfo {
                    gain,
                    feature,
                    bin: b,
                    missing_go_to_left: false,
                    g_left: gl,
                    h_left: hl,
                    n_left: nl,
                    value_left: vl,
                    value_right: vr,
                    left_cats: None,
                });
            }
        }
        best
    }

    /// Bins `≤ b` and missing values left (only for features with missing values).
    fn right_to_left(
        &self,
        feature: usize,
        hist: &[HBin],
        n_bins: usize,
        prev: Option<SplitInfo>,
        cst: i8,
    ) -> Option<SplitInfo> {
        let p = self.params;
        let (mut gr, mut hr, mut nr) = (0.0f64, 0.0f64, 0usize);
        let mut best = prev;
        let mut best_gain = prev.map_or(-1.0, |s| s.gain);
        if n_bins < 2 {
            return best;
        }
        for b in (0..n_bins - 1).rev() {
            let e = &hist[b + 1];
            nr += e.c as usize;
            let nl = self.n - nr;
            hr += self.bin_h(e);
            let hl = self.sum_h - hr;
            gr += e.g;
            let gl = self.sum_g - gr;
            if nr < p.min_samples_leaf {
                continue;
            }
            if nl < p.min_samples_leaf {
                break;
            }
            if hr < p.min_hessian {
                continue;
            }
            if hl < p.min_hessian {
                break;
            }
            let (gain, vl, vr) = self.gain(gl, hl, gr, hr, cst);
            if gain > best_gain && gain > 0.0 {
                best_gain = gain;
                best = Some(SplitInfo {
                    gain,
                    feature,
                    bin: b,
                    missing_go_to_left: true,
                    g_left: gl,
                    h_left: hl,
                    n_left: nl,
                    value_left: vl,
                    value_right: vr,
                    left_cats: None,
                });
            }
        }
        best
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::Array2;
    use ndlearn_core::validate::CheckModel;
    use ndlearn_core::{Error, Fit};

    use crate::HistGradientBoostingRegressor;

    #[test]
    fn check_model_accepts_grown_trees_and_refuses_broken_links() {
        let x = Array2::from_shape_fn((300, 2), |(i, j)| ((i * (j + 3)) % 11) as f64);
        let y = x.column(0).mapv(|v| v * v) + x.column(1);
        let fit = HistGradientBoostingRegressor::default()
            .max_iter(3)
            .fit(&x, &y)
            .expect("fit");
        let tree = fit.trees()[0].clone();
        tree.check_model().expect("a grown tree is valid");
        assert!(tree.nodes().len() > 3, "{}", tree.nodes().len());
        let invalid =
            |t: &super::HistTree| matches!(t.check_model(), Err(Error::InvalidModel { .. }));
        let mut bad = tree.clone();
        bad.nodes[0].left = 0; // the root its own child: a cycle
        assert!(invalid(&bad));
        let mut bad = tree.clone();
        bad.nodes[0].right = bad.nodes[0].left; // one child twice
        assert!(invalid(&bad));
        let mut bad = tree.clone();
        bad.nodes[0].depth = u32::MAX; // an absurd fixed-step walk
        assert!(invalid(&bad));
        let mut bad = tree;
        let leaf = bad.nodes.iter().position(|n| n.is_leaf).unwrap_or(0);
        bad.nodes[leaf].value = f64::NAN;
        assert!(invalid(&bad));
    }
}
