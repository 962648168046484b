//! The flat tree representation shared by every tree model of the crate ([`Tree`]), with
//! prediction, `apply`, `decision_path`, impurity importances and minimal cost-complexity
//! pruning.
//!
//! A tree is a set of parallel node arrays, as scikit-learn's `tree_`: node `i` has
//! `children_left[i]`, `children_right[i]` (`−1` for a leaf), the split `feature[i]` (`−2` for a
//! leaf) and `threshold[i]` (rows with `x[feature] ≤ threshold` go left; `−2` for a leaf), its
//! `impurity[i]`, `n_node_samples[i]` (rows of positive weight reaching it at fit),
//! `weighted_n_node_samples[i]` and a row of `value` (`n_outputs × max_n_classes` numbers: the
//! class fractions of a classifier, the mean or median of each output of a regressor). Node 0
//! is the root; nodes are numbered in the order the builder creates them (depth-first, left
//! child first, for depth-first growth), so the arrays of a tree equal scikit-learn's when the
//! same splits are chosen.
//!
//! # Cost-complexity pruning
//!
//! With `R(t) = w_t·impurity(t)/w_root` and `R(T_t)` the sum of `R` over the leaves of the
//! branch `T_t`, the weakest link is the internal node minimising
//! `α_eff(t) = (R(t) − R(T_t)) / (|leaves(T_t)| − 1)`. Pruning it repeatedly gives the path
//! of [`Tree::cost_complexity_pruning_path`] (Breiman et al. 1984, §3.3; scikit-learn's
//! `cost_complexity_pruning_path`); [`Tree::prune`] keeps the subtree of a given `ccp_alpha`
//! (every weakest link with `α_eff ≤ ccp_alpha` is pruned).

use ndarray::{Array1, Array2, ArrayRef2, ArrayView2};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Float, Result};

use crate::common::TreeLinks;

/// Child index of a leaf (scikit-learn's `TREE_LEAF`).
pub const TREE_LEAF: i64 = -1;
/// Feature index and threshold of a leaf (scikit-learn's `TREE_UNDEFINED`).
pub const TREE_UNDEFINED: i64 = -2;

/// A fitted binary tree as flat node arrays (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
pub struct Tree<F> {
    n_features: usize,
    n_outputs: usize,
    max_n_classes: usize,
    max_depth: usize,
    children_left: Vec<i64>,
    children_right: Vec<i64>,
    feature: Vec<i64>,
    threshold: Vec<F>,
    impurity: Vec<f64>,
    n_node_samples: Vec<usize>,
    weighted_n_node_samples: Vec<f64>,
    value: Vec<f64>,
}

/// A node of a [`Tree`] packed for traversal, numbered in preorder so that an internal node's
/// left child is the next node and only the right one is stored (16 bytes for `f64`: four
/// nodes per cache line). A leaf has threshold −∞ and points right to itself, so a walk of a
/// fixed number of steps stays on the leaf it reached (finite inputs).
#[derive(Debug, Clone, Copy)]
pub(crate) struct PackedNode<F> {
    threshold: F,
    feature: u32,
    right: u32,
}

impl<F: Float> PackedNode<F> {
    /// The next node of a walk at node `i` with row `row`.
    #[inline]
    fn step(&self, i: usize, row: &[F]) -> usize {
        // Without a branch on the comparison (unpredictable; a mispredicted branch discards
        // the loads issued ahead): all ones selects the left child.
        let left = usize::from(row[self.feature as usize] <= self.threshold).wrapping_neg();
        let right = self.right as usize;
        right ^ ((right ^ (i + 1)) & left)
    }
}

/// A tree's nodes packed for traversal, the depth of its deepest leaf (the steps of the
/// longest walk) and, when the tree's own numbering is not a preorder, each packed node's id
/// in the tree.
pub(crate) struct PackedTree<F> {
    nodes: Vec<PackedNode<F>>,
    depth: usize,
    ids: Option<Vec<u32>>,
}

impl<F> PackedTree<F> {
    /// The tree's id of packed node `p`.
    #[inline]
    pub(crate) fn node_id(&self, p: usize) -> usize {
        self.ids.as_ref().map_or(p, |ids| ids[p] as usize)
    }
}

/// Rows walked together by [`packed_leaves`].
pub(crate) const LOCKSTEP: usize = 8;

/// The leaves reached by the rows of `block` (`out.len()` contiguous rows of `d` features,
/// at most [`LOCKSTEP`]) written to `out`: the same leaves as walking each row alone. Every
/// row takes exactly `depth` steps (a row at its leaf stays there), without a branch on the
/// comparisons, and the rows advance together: their node loads are independent of each
/// other and overlap. In a deep tree (a full-depth forest tree holds tens of thousands of
/// nodes) a row-by-row walk waits for a cache miss per level, with a mispredicted branch
/// discarding the loads issued ahead.
#[inline]
pub(crate) fn packed_leaves<F: Float>(
    tree: &PackedTree<F>,
    block: &[F],
    d: usize,
    out: &mut [usize],
) {
    out.fill(0);
    let nodes = &tree.nodes;
    for _ in 0..tree.depth {
        // A row at its leaf stays there; the walk ends when every row of the block has
        // arrived (deep, unbalanced trees: well before the deepest leaf's depth).
        let mut moved = false;
        for (r, i) in out.iter_mut().enumerate() {
            let next = nodes[*i].step(*i, &block[r * d..(r + 1) * d]);
            moved |= next != *i;
            *i = next;
        }
        if !moved {
            break;
        }
    }
    if tree.ids.is_some() {
        out.iter_mut().for_each(|p| *p = tree.node_id(*p));
    }
}

/// The leaves reached by all rows of `flat` (`out.len()` contiguous rows of `d` features): the
/// walks of [`LOCKSTEP`] rows interleaved as in [`packed_leaves`], but a walk that reaches its
/// leaf hands its slot to the next row at once, so no slot idles while the deepest walk of a
/// block finishes (trees of very uneven depth).
pub(crate) fn packed_leaves_all<F: Float>(
    tree: &PackedTree<F>,
    flat: &[F],
    d: usize,
    out: &mut [usize],
) {
    let n = out.len();
    if n < 2 * LOCKSTEP {
        for (block, o) in flat.chunks(LOCKSTEP * d).zip(out.chunks_mut(LOCKSTEP)) {
            packed_leaves(tree, block, d, o);
        }
        return;
    }
    let nodes = &tree.nodes;
    // Slot k walks row `row[k]` (its features at `flat[base[k]..]`), now at node `at[k]`.
    let mut row = [0usize; LOCKSTEP];
    let mut at = [0usize; LOCKSTEP];
    let mut base = [0usize; LOCKSTEP];
    for k in 0..LOCKSTEP {
        row[k] = k;
        base[k] = k * d;
    }
    let mut next = LOCKSTEP;
    let mut active = LOCKSTEP;
    while active > 0 {
        for k in 0..LOCKSTEP {
            if row[k] == usize::MAX {
                continue;
            }
            let child = nodes[at[k]].step(at[k], &flat[base[k]..base[k] + d]);
            if child == at[k] {
                // A leaf: record it, take the next row (or retire the slot).
                out[row[k]] = tree.node_id(child);
                at[k] = 0;
                if next < n {
                    row[k] = next;
                    base[k] = next * d;
                    next += 1;
                } else {
                    row[k] = usize::MAX;
                    active -= 1;
                }
            } else {
                at[k] = child;
            }
        }
    }
}

/// The nodes each row visits from the root to its leaf (scikit-learn's `decision_path`, in
/// compressed sparse row form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionPath {
    /// `indptr[i]..indptr[i + 1]` indexes the nodes of row `i` in [`indices`](Self::indices).
    pub indptr: Vec<usize>,
    /// Node ids, root first, for each row in turn.
    pub indices: Vec<usize>,
    /// The number of nodes of the tree (the column count of the indicator matrix).
    pub n_nodes: usize,
}

impl DecisionPath {
    /// The nodes visited by row `i`, root first.
    pub fn nodes(&self, i: usize) -> &[usize] {
        &self.indices[self.indptr[i]..self.indptr[i + 1]]
    }

    /// The dense `n_rows × n_nodes` indicator matrix.
    pub fn to_dense(&self) -> Array2<bool> {
        let n = self.indptr.len().saturating_sub(1);
        let mut m = Array2::from_elem((n, self.n_nodes), false);
        for i in 0..n {
            for &j in self.nodes(i) {
                m[[i, j]] = true;
            }
        }
        m
    }
}

/// The minimal cost-complexity pruning path: the effective alphas (increasing) and the total
/// leaf impurity of the subtree kept for each (scikit-learn's `ccp_alphas`, `impurities`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CcpPath {
    /// Effective alphas, starting with 0 (the full tree) and ending with the root's.
    pub ccp_alphas: Vec<f64>,
    /// `Σ_leaves w_t·impurity(t)/w_root` of the pruned subtree at each alpha.
    pub impurities: Vec<f64>,
}

impl<F: Float> Tree<F> {
    /// An empty tree for `n_features` inputs and value rows of `n_outputs × max_n_classes`.
    pub(crate) fn new(n_features: usize, n_outputs: usize, max_n_classes: usize) -> Self {
        Tree {
            n_features,
            n_outputs,
            max_n_classes,
            max_depth: 0,
            children_left: Vec::new(),
            children_right: Vec::new(),
            feature: Vec::new(),
            threshold: Vec::new(),
            impurity: Vec::new(),
            n_node_samples: Vec::new(),
            weighted_n_node_samples: Vec::new(),
            value: Vec::new(),
        }
    }

    /// A two-class chain of `depth` splits on feature 0 (`x ≤ i` goes to a leaf of class 0,
    /// the rest goes on; the last leaf is class 1): a valid tree of any depth, for the tests of
    /// the walks that must not recurse.
    #[cfg(test)]
    pub(crate) fn chain(depth: usize) -> Self {
        let mut t = Tree::new(1, 1, 2);
        let mut parent = None;
        for i in 0..depth {
            let n = depth + 1 - i;
            let split = Some((0, F::cast(i as f64)));
            let node = t.add_node(parent, split, 0.5, n, n as f64, &[0.5, 0.5], i);
            t.add_node(Some((node, true)), None, 0.0, 1, 1.0, &[1.0, 0.0], i + 1);
            parent = Some((node, false));
        }
        t.add_node(parent, None, 0.0, 1, 1.0, &[0.0, 1.0], depth);
        t
    }

    /// Appends a node (linking it to its parent) and returns its id.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn add_node(
        &mut self,
        parent: Option<(usize, bool)>,
        split: Option<(usize, F)>,
        impurity: f64,
        n_node_samples: usize,
        weighted_n_node_samples: f64,
        value: &[f64],
        depth: usize,
    ) -> usize {
        let id = self.children_left.len();
        if let Some((p, is_left)) = parent {
            if is_left {
                self.children_left[p] = id as i64;
            } else {
                self.children_right[p] = id as i64;
            }
        }
        self.children_left.push(TREE_LEAF);
        self.children_right.push(TREE_LEAF);
        match split {
            Some((f, t)) => {
                self.feature.push(f as i64);
                self.threshold.push(t);
            }
            None => {
                self.feature.push(TREE_UNDEFINED);
                self.threshold.push(F::cast(TREE_UNDEFINED));
            }
        }
        self.impurity.push(impurity);
        self.n_node_samples.push(n_node_samples);
        self.weighted_n_node_samples.push(weighted_n_node_samples);
        self.value.extend_from_slice(value);
        self.max_depth = self.max_depth.max(depth);
        id
    }

    /// Gives back the spare capacity of the node arrays once the tree is grown (they grow by
    /// doubling; a forest keeps hundreds of trees, where the slack would be a third of the
    /// model's memory).
    pub(crate) fn shrink_to_fit(&mut self) {
        self.children_left.shrink_to_fit();
        self.children_right.shrink_to_fit();
        self.feature.shrink_to_fit();
        self.threshold.shrink_to_fit();
        self.impurity.shrink_to_fit();
        self.n_node_samples.shrink_to_fit();
        self.weighted_n_node_samples.shrink_to_fit();
        self.value.shrink_to_fit();
    }

    /// Turns an internal node without children yet into a leaf (best-first growth stopped).
    pub(crate) fn make_leaf(&mut self, node: usize) {
        self.children_left[node] = TREE_LEAF;
        self.children_right[node] = TREE_LEAF;
        self.feature[node] = TREE_UNDEFINED;
        self.threshold[node] = F::cast(TREE_UNDEFINED);
    }

    /// Overwrites the first entry of node `node`'s value row (gradient boosting's line search
    /// replaces the leaf means by the loss's optimal step).
    pub(crate) fn set_first_value(&mut self, node: usize, v: f64) {
        let stride = self.n_outputs * self.max_n_classes;
        self.value[node * stride] = v;
    }

    /// Recomputes the depth (after best-first growth turned planned splits into leaves).
    pub(crate) fn recompute_depth(&mut self) {
        let mut depth = vec![0usize; self.node_count()];
        let mut max = 0;
        for i in 0..self.node_count() {
            if !self.is_leaf(i) {
                for c in [self.children_left[i], self.children_right[i]] {
                    depth[c as usize] = depth[i] + 1;
                    max = max.max(depth[i] + 1);
                }
            }
        }
        self.max_depth = max;
    }

    /// The number of nodes.
    pub fn node_count(&self) -> usize {
        self.children_left.len()
    }

    /// The number of input features at fit.
    pub fn n_features(&self) -> usize {
        self.n_features
    }

    /// The number of outputs (1 for a classifier).
    pub fn n_outputs(&self) -> usize {
        self.n_outputs
    }

    /// The number of classes (1 for a regressor): the width of each output's value block.
    pub fn max_n_classes(&self) -> usize {
        self.max_n_classes
    }

    /// The depth of the tree (a single leaf has depth 0; scikit-learn's `get_depth()`).
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }

    /// The number of leaves (scikit-learn's `get_n_leaves()`).
    pub fn n_leaves(&self) -> usize {
        (0..self.node_count()).filter(|&i| self.is_leaf(i)).count()
    }

    /// Whether node `i` is a leaf.
    pub fn is_leaf(&self, i: usize) -> bool {
        self.children_left[i] == TREE_LEAF
    }

    /// Left child ids (`−1` for leaves).
    pub fn children_left(&self) -> &[i64] {
        &self.children_left
    }

    /// Right child ids (`−1` for leaves).
    pub fn children_right(&self) -> &[i64] {
        &self.children_right
    }

    /// Split features (`−2` for leaves).
    pub fn feature(&self) -> &[i64] {
        &self.feature
    }

    /// Split thresholds (`−2` for leaves): `x[feature] ≤ threshold` goes left.
    pub fn threshold(&self) -> &[F] {
        &self.threshold
    }

    /// Node impurities (of the tree's criterion).
    pub fn impurity(&self) -> &[f64] {
        &self.impurity
    }

    /// Training rows (of positive weight) reaching each node.
    pub fn n_node_samples(&self) -> &[usize] {
        &self.n_node_samples
    }

    /// Total sample weight reaching each node.
    pub fn weighted_n_node_samples(&self) -> &[f64] {
        &self.weighted_n_node_samples
    }

    /// Node values, `node_count × (n_outputs · max_n_classes)`: class fractions (classifier)
    /// or the per-output mean / median (regressor).
    pub fn value(&self) -> ArrayView2<'_, f64> {
        let stride = self.n_outputs * self.max_n_classes;
        ArrayView2::from_shape((self.node_count(), stride), &self.value)
            .unwrap_or_else(|_| ArrayView2::from_shape((0, stride), &[]).expect("empty view"))
    }

    /// The value row of node `i`.
    pub fn node_value(&self, i: usize) -> &[f64] {
        let stride = self.n_outputs * self.max_n_classes;
        &self.value[i * stride..(i + 1) * stride]
    }

    /// The leaf reached by one row (no checks).
    #[inline]
    pub(crate) fn leaf_of<'a>(&self, row: impl Fn(usize) -> F + 'a) -> usize {
        let mut node = 0usize;
        while self.children_left[node] != TREE_LEAF {
            let f = self.feature[node] as usize;
            node = if row(f) <= self.threshold[node] {
                self.children_left[node] as usize
            } else {
                self.children_right[node] as usize
            };
        }
        node
    }

    /// The nodes packed for traversal ([`PackedNode`]: one 12–16-byte record per node instead
    /// of four arrays, in preorder), with the depth of the deepest leaf (counted here, not read
    /// from the stored `max_depth`). The depth-first builder numbers nodes in preorder already;
    /// other trees (best-first growth) are renumbered and keep the map back.
    pub(crate) fn packed(&self) -> PackedTree<F> {
        let n = self.node_count();
        let leaf = |at: usize| PackedNode {
            threshold: F::neg_infinity(),
            feature: 0,
            right: at as u32,
        };
        let preorder = (0..n).all(|i| {
            self.children_left[i] == TREE_LEAF
                || (self.children_left[i] == i as i64 + 1 && self.children_right[i] > i as i64 + 1)
        });
        let mut depth = 0;
        if preorder {
            let nodes = (0..n)
                .map(|i| {
                    if self.children_left[i] == TREE_LEAF {
                        leaf(i)
                    } else {
                        PackedNode {
                            threshold: self.threshold[i],
                            feature: self.feature[i] as u32,
                            right: self.children_right[i] as u32,
                        }
                    }
                })
                .collect();
            // The deepest leaf: in preorder a node's depth is known before its children's.
            let mut at = vec![0u32; n];
            for i in 0..n {
                if self.children_left[i] != TREE_LEAF {
                    let below = at[i] + 1;
                    at[i + 1] = below;
                    at[self.children_right[i] as usize] = below;
                }
            }
            depth = at.iter().copied().max().unwrap_or(0) as usize;
            return PackedTree {
                nodes,
                depth,
                ids: None,
            };
        }
        // Preorder renumbering: (tree id, depth, packed parent whose right child this is).
        let mut nodes = Vec::with_capacity(n);
        let mut ids = Vec::with_capacity(n);
        let mut stack = vec![(0usize, 0usize, None::<usize>)];
        while let Some((i, at, parent)) = stack.pop() {
            depth = depth.max(at);
            let p = nodes.len();
            if let Some(q) = parent {
                let node: &mut PackedNode<F> = &mut nodes[q];
                node.right = p as u32;
            }
            ids.push(i as u32);
            if self.children_left[i] == TREE_LEAF {
                nodes.push(leaf(p));
            } else {
                nodes.push(PackedNode {
                    threshold: self.threshold[i],
                    feature: self.feature[i] as u32,
                    right: 0,
                });
                stack.push((self.children_right[i] as usize, at + 1, Some(p)));
                stack.push((self.children_left[i] as usize, at + 1, None));
            }
        }
        PackedTree {
            nodes,
            depth,
            ids: Some(ids),
        }
    }

    /// The leaf id each row of `x` falls into (no input checks: the fitted models check).
    pub(crate) fn apply_unchecked(&self, x: &ArrayRef2<F>) -> Array1<usize> {
        // Packing costs one pass over the nodes: worth it when the rows' walks outweigh it.
        if x.nrows().saturating_mul(8) < self.node_count() {
            let rows: Vec<usize> = ndlearn_core::par::map_row_chunks(x, 4096, |_, chunk| {
                chunk
                    .rows()
                    .into_iter()
                    .map(|r| self.leaf_of(|f| r[f]))
                    .collect::<Vec<usize>>()
            })
            .into_iter()
            .flatten()
            .collect();
            return Array1::from(rows);
        }
        let nodes = self.packed();
        let d = x.ncols().max(1);
        let rows: Vec<usize> = ndlearn_core::par::map_row_chunks(x, 4096, |_, chunk| {
            let flat: Vec<F> = match chunk.as_slice() {
                Some(s) => s.to_vec(),
                None => chunk.iter().copied().collect(),
            };
            let mut leaves = vec![0usize; chunk.nrows()];
            for (block, out) in flat.chunks(LOCKSTEP * d).zip(leaves.chunks_mut(LOCKSTEP)) {
                packed_leaves(&nodes, block, d, out);
            }
            leaves
        })
        .into_iter()
        .flatten()
        .collect();
        Array1::from(rows)
    }

    /// The leaf id each row of `x` falls into (scikit-learn's `apply`).
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input.
    pub fn apply(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        ndlearn_core::validate::check_predict_input(x, self.n_features, "Tree::apply")?;
        Ok(self.apply_unchecked(x))
    }

    /// The nodes each row visits (scikit-learn's `decision_path`).
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input.
    pub fn decision_path(&self, x: &ArrayRef2<F>) -> Result<DecisionPath> {
        ndlearn_core::validate::check_predict_input(x, self.n_features, "Tree::decision_path")?;
        let mut indptr = Vec::with_capacity(x.nrows() + 1);
        let mut indices = Vec::new();
        indptr.push(0);
        for r in x.rows() {
            let mut node = 0usize;
            indices.push(0);
            while !self.is_leaf(node) {
                let f = self.feature[node] as usize;
                node = if r[f] <= self.threshold[node] {
                    self.children_left[node] as usize
                } else {
                    self.children_right[node] as usize
                };
                indices.push(node);
            }
            indptr.push(indices.len());
        }
        Ok(DecisionPath {
            indptr,
            indices,
            n_nodes: self.node_count(),
        })
    }

    /// The value rows of the leaves reached by `x` (`n × (n_outputs · max_n_classes)`).
    ///
    /// # Errors
    /// A feature count different from the fit, non-finite input.
    pub fn predict_values(&self, x: &ArrayRef2<F>) -> Result<Array2<f64>> {
        ndlearn_core::validate::check_predict_input(x, self.n_features, "Tree::predict")?;
        Ok(self.predict_values_unchecked(x))
    }

    pub(crate) fn predict_values_unchecked(&self, x: &ArrayRef2<F>) -> Array2<f64> {
        let leaves = self.apply_unchecked(x);
        let stride = self.n_outputs * self.max_n_classes;
        let mut out = Array2::zeros((x.nrows(), stride));
        for (mut row, &leaf) in out.rows_mut().into_iter().zip(leaves.iter()) {
            for (o, &v) in row.iter_mut().zip(self.node_value(leaf)) {
                *o = v;
            }
        }
        out
    }

    /// Impurity-decrease (Gini / MDI) importances: for every split node
    /// `w_t·imp(t) − w_L·imp(L) − w_R·imp(R)` added to its feature, divided by the root weight,
    /// then normalised to sum 1 (all zeros for a single leaf), as scikit-learn's
    /// `feature_importances_`.
    pub fn feature_importances(&self, normalize: bool) -> Array1<f64> {
        let mut imp = Array1::<f64>::zeros(self.n_features);
        let w = &self.weighted_n_node_samples;
        for i in 0..self.node_count() {
            if self.is_leaf(i) {
                continue;
            }
            let l = self.children_left[i] as usize;
            let r = self.children_right[i] as usize;
            imp[self.feature[i] as usize] +=
                w[i] * self.impurity[i] - w[l] * self.impurity[l] - w[r] * self.impurity[r];
        }
        if self.node_count() > 0 && w[0] > 0.0 {
            imp.mapv_inplace(|v| v / w[0]);
        }
        if normalize {
            let s = imp.sum();
            if s > 0.0 {
                imp.mapv_inplace(|v| v / s);
            }
        }
        imp
    }

    /// Parents of every node (`None` for the root).
    fn parents(&self) -> Vec<Option<usize>> {
        let mut p = vec![None; self.node_count()];
        for i in 0..self.node_count() {
            if !self.is_leaf(i) {
                p[self.children_left[i] as usize] = Some(i);
                p[self.children_right[i] as usize] = Some(i);
            }
        }
        p
    }

    /// Runs weakest-link pruning; `stop(α)` ends it before pruning at `α`. Returns the leaf
    /// mask of the final subtree and the path `(α, R(T))`.
    fn weakest_link(&self, stop: impl Fn(f64) -> bool) -> (Vec<bool>, CcpPath) {
        let n = self.node_count();
        let parent = self.parents();
        let total = self.weighted_n_node_samples[0];
        let r_node: Vec<f64> = (0..n)
            .map(|i| self.weighted_n_node_samples[i] * self.impurity[i] / total)
            .collect();
        let mut leaves: Vec<bool> = (0..n).map(|i| self.is_leaf(i)).collect();
        let mut r_branch = vec![0.0f64; n];
        let mut n_leaves = vec![0usize; n];
        for leaf in 0..n {
            if !leaves[leaf] {
                continue;
            }
            r_branch[leaf] = r_node[leaf];
            let mut node = leaf;
            while let Some(p) = parent[node] {
                r_branch[p] += r_node[leaf];
                n_leaves[p] += 1;
                node = p;
            }
        }
        let mut candidate: Vec<bool> = (0..n).map(|i| !self.is_leaf(i)).collect();
        let mut in_subtree = vec![true; n];
        let mut path = CcpPath {
            ccp_alphas: vec![0.0],
            impurities: vec![r_branch[0]],
        };
        while candidate[0] {
            let mut alpha = f64::MAX;
            let mut pruned = 0;
            for i in 0..n {
                if !candidate[i] {
                    continue;
                }
                let a = (r_node[i] - r_branch[i]) / (n_leaves[i] as f64 - 1.0);
                if a < alpha {
                    alpha = a;
                    pruned = i;
                }
            }
            if stop(alpha) {
                break;
            }
            let mut stack = vec![pruned];
            while let Some(i) = stack.pop() {
                if !in_subtree[i] {
                    continue;
                }
                candidate[i] = false;
                leaves[i] = false;
                in_subtree[i] = false;
                if !self.is_leaf(i) {
                    stack.push(self.children_left[i] as usize);
                    stack.push(self.children_right[i] as usize);
                }
            }
            leaves[pruned] = true;
            in_subtree[pruned] = true;
            let removed = n_leaves[pruned] - 1;
            n_leaves[pruned] = 0;
            let r_diff = r_node[pruned] - r_branch[pruned];
            r_branch[pruned] = r_node[pruned];
            let mut node = pruned;
            while let Some(p) = parent[node] {
                n_leaves[p] -= removed;
                r_branch[p] += r_diff;
                node = p;
            }
            path.ccp_alphas.push(alpha);
            path.impurities.push(r_branch[0]);
        }
        (leaves, path)
    }

    /// The minimal cost-complexity pruning path of this tree (see the [module docs](self)).
    pub fn cost_complexity_pruning_path(&self) -> CcpPath {
        self.weakest_link(|_| false).1
    }

    /// The subtree minimising `R(T) + ccp_alpha·|leaves(T)|`: every weakest link with
    /// `α_eff ≤ ccp_alpha` pruned. Nodes are renumbered depth-first, left first; values,
    /// impurities and counts are kept.
    pub fn prune(&self, ccp_alpha: f64) -> Tree<F> {
        if ccp_alpha <= 0.0 || self.node_count() == 0 {
            return self.clone();
        }
        let (leaves, _) = self.weakest_link(|a| ccp_alpha < a);
        self.collapse(&leaves)
    }

    /// The tree with every node flagged in `leaves` turned into a leaf (its subtree dropped).
    /// Nodes are renumbered depth-first, left first; values, impurities and counts are kept.
    pub(crate) fn collapse(&self, leaves: &[bool]) -> Tree<F> {
        let mut out = Tree::new(self.n_features, self.n_outputs, self.max_n_classes);
        // (original node, parent in the new tree and side, depth)
        type Pending = (usize, Option<(usize, bool)>, usize);
        let mut stack: Vec<Pending> = vec![(0, None, 0)];
        while let Some((orig, parent, depth)) = stack.pop() {
            let leaf = leaves[orig] || self.is_leaf(orig);
            let split = if leaf {
                None
            } else {
                Some((self.feature[orig] as usize, self.threshold[orig]))
            };
            let id = out.add_node(
                parent,
                split,
                self.impurity[orig],
                self.n_node_samples[orig],
                self.weighted_n_node_samples[orig],
                self.node_value(orig),
                depth,
            );
            if !leaf {
                stack.push((
                    self.children_right[orig] as usize,
                    Some((id, false)),
                    depth + 1,
                ));
                stack.push((
                    self.children_left[orig] as usize,
                    Some((id, true)),
                    depth + 1,
                ));
            }
        }
        out
    }
}

/// The node arrays of a tree read back from a file: every walk from the root must end at a leaf
/// and read only stored entries.
///
/// The builder appends every node after its parent (`Tree::add_node`; pruning renumbers the
/// same way), so a fitted tree has every child index greater than its parent's and every node
/// but the root is the child of exactly one node. Both are checked (`TreeLinks`): indices
/// strictly increase along any walk, so a walk ends within `node_count` steps (no cycle), and
/// the links form one tree rooted at node 0 (what pruning's parent map assumes).
impl<F: Float> CheckModel for Tree<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("Tree");
        let n = self.node_count();
        c.at_least("node_count", n, 1)?;
        // the packed walk stores links and features as u32
        c.that(u32::try_from(n).is_ok(), || {
            format!("{n} nodes are too many")
        })?;
        c.at_least("n_features", self.n_features, 1)?;
        c.at_least("n_outputs", self.n_outputs, 1)?;
        c.at_least("max_n_classes", self.max_n_classes, 1)?;
        c.len("children_right", self.children_right.len(), n)?;
        c.len("feature", self.feature.len(), n)?;
        c.len("threshold", self.threshold.len(), n)?;
        c.len("impurity", self.impurity.len(), n)?;
        c.len("n_node_samples", self.n_node_samples.len(), n)?;
        c.len(
            "weighted_n_node_samples",
            self.weighted_n_node_samples.len(),
            n,
        )?;
        let values = n
            .checked_mul(self.n_outputs)
            .and_then(|v| v.checked_mul(self.max_n_classes));
        c.that(values == Some(self.value.len()), || {
            format!(
                "`value` has length {}, expected {n} nodes × {} outputs × {} classes",
                self.value.len(),
                self.n_outputs,
                self.max_n_classes
            )
        })?;
        c.finite_slice("threshold", &self.threshold)?;
        c.finite_slice("value", &self.value)?;
        c.finite_slice("impurity", &self.impurity)?;
        c.that(
            self.weighted_n_node_samples
                .iter()
                .all(|w| w.is_finite() && *w >= 0.0),
            || "`weighted_n_node_samples` must be finite and non-negative".into(),
        )?;
        c.that(self.max_depth < n, || {
            format!("`max_depth` {} is not below the {n} nodes", self.max_depth)
        })?;
        let mut links = TreeLinks::new(n);
        for i in 0..n {
            let (left, right, f) = (
                self.children_left[i],
                self.children_right[i],
                self.feature[i],
            );
            if left == TREE_LEAF {
                c.that(right == TREE_LEAF && f == TREE_UNDEFINED, || {
                    format!("node {i}: a leaf needs right child −1 and feature −2")
                })?;
                continue;
            }
            c.that(
                usize::try_from(f).is_ok_and(|f| f < self.n_features),
                || {
                    format!(
                        "node {i}: split feature {f} is not below {}",
                        self.n_features
                    )
                },
            )?;
            links.child(&c, i, left)?;
            links.child(&c, i, right)?;
        }
        links.finish(&c)
    }
}

impl<F: Float> Tree<F> {
    /// [`CheckModel`] on the tree as the part `field` of a model, and its dimensions:
    /// `n_features` inputs, value rows of `n_outputs × n_classes`.
    ///
    /// # Errors
    /// [`ndlearn_core::Error::InvalidModel`] of `c`'s model.
    pub(crate) fn check_part(
        &self,
        c: &ModelCheck,
        field: &str,
        n_features: usize,
        n_outputs: usize,
        n_classes: usize,
    ) -> Result<()> {
        c.part(field, self)?;
        let found = (self.n_features, self.n_outputs, self.max_n_classes);
        c.that(found == (n_features, n_outputs, n_classes), || {
            format!(
                "`{field}` has {} features, {} outputs, {} classes; expected {n_features}, {n_outputs}, {n_classes}",
                found.0, found.1, found.2
            )
        })
    }
}

/// [`Tree::check_part`] on every tree of an ensemble (`field[i]` in the error).
///
/// # Errors
/// [`ndlearn_core::Error::InvalidModel`] of `c`'s model.
pub(crate) fn check_trees<F: Float>(
    c: &ModelCheck,
    field: &str,
    trees: &[Tree<F>],
    n_features: usize,
    n_outputs: usize,
    n_classes: usize,
) -> Result<()> {
    c.at_least(field, trees.len(), 1)?;
    trees.iter().enumerate().try_for_each(|(i, t)| {
        t.check_part(
            c,
            &format!("{field}[{i}]"),
            n_features,
            n_outputs,
            n_classes,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// root: x0 ≤ 0.5 → leaf A (3 samples, gini 0); else node: x1 ≤ 1.5 → B, C.
    fn small() -> Tree<f64> {
        let mut t = Tree::new(2, 1, 2);
        let r = t.add_node(None, Some((0, 0.5)), 0.48, 10, 10.0, &[0.6, 0.4], 0);
        t.add_node(Some((r, true)), None, 0.0, 4, 4.0, &[1.0, 0.0], 1);
        let n = t.add_node(
            Some((r, false)),
            Some((1, 1.5)),
            0.4444,
            6,
            6.0,
            &[1.0 / 3.0, 2.0 / 3.0],
            1,
        );
        t.add_node(Some((n, true)), None, 0.0, 2, 2.0, &[1.0, 0.0], 2);
        t.add_node(Some((n, false)), None, 0.0, 4, 4.0, &[0.0, 1.0], 2);
        t
    }

    #[test]
    fn navigation_apply_and_paths() {
        let t = small();
        assert_eq!(t.node_count(), 5);
        assert_eq!(t.n_leaves(), 3);
        assert_eq!(t.max_depth(), 2);
        let x = array![[0.0, 0.0], [1.0, 1.0], [1.0, 2.0], [0.5, 9.0]];
        assert_eq!(t.apply(&x).expect("apply").to_vec(), vec![1, 3, 4, 1]);
        let p = t.decision_path(&x).expect("path");
        assert_eq!(p.nodes(2), &[0, 2, 4]);
        assert_eq!(
            p.to_dense().row(0).to_vec(),
            vec![true, true, false, false, false]
        );
        assert!(t.apply(&array![[0.0]]).is_err());
        assert!(t.apply(&array![[f64::NAN, 0.0]]).is_err());
    }

    #[test]
    fn importances_and_pruning_by_hand() {
        let t = small();
        // root: 10·0.48 − 4·0 − 6·0.4444 = 2.1336; node 2: 6·0.4444 = 2.6664.
        let imp = t.feature_importances(false);
        assert!((imp[0] - 0.21336).abs() < 1e-12 && (imp[1] - 0.26664).abs() < 1e-12);
        let path = t.cost_complexity_pruning_path();
        // Pure leaves: R(T) = 0. Node 2: R = 0.6·0.4444 = 0.26664 over 2 leaves → α = 0.26664;
        // root: (0.48 − 0)/(3 − 1) = 0.24, the weakest link, so the root is pruned at once.
        assert_eq!(path.ccp_alphas.len(), 2);
        assert!((path.ccp_alphas[1] - 0.24).abs() < 1e-12);
        assert!((path.impurities[1] - 0.48).abs() < 1e-12);
        let pruned = t.prune(0.25);
        assert_eq!(pruned.node_count(), 1);
        assert_eq!(t.prune(0.1), t);
    }

    #[test]
    fn packed_and_plain_walks_reach_the_same_leaves() {
        use ndlearn_core::Fit;
        let x = Array2::from_shape_fn((200, 3), |(i, j)| {
            ((i * 7 + j * 13) % 31) as f64 + 0.5 * j as f64
        });
        let y: Array1<f64> = (0..200).map(|i| ((i * 17) % 23) as f64).collect();
        let fit = crate::DecisionTreeRegressor::default()
            .fit(&x, &y)
            .expect("fit");
        let t = fit.tree();
        let few = x.slice(ndarray::s![..2, ..]);
        assert!(2 * 8 < t.node_count()); // the plain walk
        let all = t.apply_unchecked(&x); // 200 · 8 ≥ nodes: the packed walk
        assert_eq!(
            t.apply_unchecked(&few).to_vec(),
            all.slice(ndarray::s![..2]).to_vec()
        );
        // The lockstep walk of any block length reaches each row's own leaf.
        let nodes = t.packed();
        let flat: Vec<f64> = x.iter().copied().collect();
        for m in 1..=LOCKSTEP {
            for start in (0..200 - m).step_by(37) {
                let mut out = vec![usize::MAX; m];
                packed_leaves(&nodes, &flat[start * 3..(start + m) * 3], 3, &mut out);
                let one: Vec<usize> = (start..start + m)
                    .map(|i| t.leaf_of(|f| x[[i, f]]))
                    .collect();
                assert_eq!(out, one, "block of {m} from row {start}");
                assert_eq!(out, all.slice(ndarray::s![start..start + m]).to_vec());
            }
        }
        // Every row of a long block with slots handed over, for a tree in preorder and for a
        // best-first tree (numbered in growth order, so packed in preorder with a map back).
        let best_first = crate::DecisionTreeRegressor::default()
            .max_leaf_nodes(Some(25))
            .fit(&x, &y)
            .expect("fit");
        for (tree, preorder) in [(t, true), (best_first.tree(), false)] {
            let packed = tree.packed();
            assert_eq!(packed.ids.is_none(), preorder);
            let one: Vec<usize> = (0..200).map(|i| tree.leaf_of(|f| x[[i, f]])).collect();
            for m in [1, 2 * LOCKSTEP - 1, 2 * LOCKSTEP, 200] {
                let mut out = vec![usize::MAX; m];
                packed_leaves_all(&packed, &flat[..m * 3], 3, &mut out);
                assert_eq!(out, one[..m], "{m} rows, preorder {preorder}");
            }
            assert_eq!(tree.apply_unchecked(&x).to_vec(), one);
        }
    }

    #[test]
    fn check_model_proves_walks_end() {
        let t = small();
        assert!(t.check_model().is_ok());
        let broken = |f: &dyn Fn(&mut Tree<f64>)| {
            let mut b = small();
            f(&mut b);
            b.check_model()
        };
        let invalid = |r: Result<()>| matches!(r, Err(ndlearn_core::Error::InvalidModel { .. }));
        // a child pointing back at the root: a cycle
        assert!(invalid(broken(&|b| b.children_right[2] = 0)));
        // the same child twice, a child out of range, a truncated array
        assert!(invalid(broken(&|b| b.children_right[0] = 1)));
        assert!(invalid(broken(&|b| b.children_left[2] = 9)));
        assert!(invalid(broken(&|b| {
            b.value.pop();
        })));
        assert!(invalid(broken(&|b| b.feature[0] = 2)));
        assert!(invalid(broken(&|b| b.threshold[2] = f64::NAN)));
        assert!(invalid(broken(&|b| b.children_right[1] = 3)));
    }
}
