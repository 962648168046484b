//! Pruning beyond minimal cost-complexity (catalog T-05, T-06): the χ² stop, C4.5's error-based
//! (pessimistic) pruning with subtree replacement and subtree raising, MDL pruning, and the
//! K-fold cross-validated choice of `ccp_alpha`.
//!
//! # χ² stop (pre-pruning, CL-112)
//!
//! A split is kept only when its 2 × K table of (weighted) class counts in the two children
//! rejects independence of branch and class at level `α` (Pearson's χ² test with `K − 1`
//! degrees of freedom, `ndlearn_core::stats::tests::chi2_independence`): "stop when the class
//! distribution is independent of the features". Applied top-down, the first insignificant
//! split of a branch becomes a leaf; for depth-first growth this is the tree that stopping at
//! growth time gives (a node's split does not depend on its siblings). Field `chi2_alpha` of
//! [`crate::DecisionTreeClassifier`], or [`crate::FittedDecisionTreeClassifier::pruned_chi2`].
//!
//! # Error-based pruning (C4.5, CL-114, CL-115)
//!
//! Quinlan's pessimistic estimate of the errors of a leaf holding `N` training rows of which
//! `E` are misclassified is `E + U(N, E)`, the upper limit of a binomial confidence interval
//! at confidence `CF` (default 25 %) minus `E` ([`pessimistic_extra_errors`]):
//!
//! ```text
//! E = 0:        U = N (1 − CF^{1/N})
//! 0 < E < 1:    interpolated linearly between E = 0 and E = 1
//! E + ½ ≥ N:    U = 0.67 (N − E)
//! otherwise:    U = N·p − E,  p = (e + z²/2 + z √(e (1 − e/N) + z²/4)) / (N + z²),  e = E + ½
//! ```
//!
//! with `z = Φ⁻¹(1 − CF)` (C4.5 interpolates `z` in a small table: 0.69 for 25 % where the
//! exact deviate is 0.674). Bottom-up, every internal node compares the estimate of the node as
//! a leaf, of its subtree (sum over its leaves) and, with subtree raising, of its largest branch
//! receiving all the node's rows: **subtree replacement** turns the node into a leaf when that
//! is no worse (within 0.1 error, as C4.5), **subtree raising** puts the largest branch in the
//! node's place (its rows redistributed, the branch pruned again) when that is no worse than the
//! subtree. Estimating on the training rows gives "almost no pruning" with the raw error (the
//! notes' remark); the pessimistic correction is what makes it prune.
//!
//! # MDL pruning (CL-114, an implementation choice)
//!
//! The course notes give the principle (the best tree needs the fewest bits) without an encoding; this
//! is the encoding of SLIQ (Mehta, Rissanen & Agrawal 1995), in bits: a leaf costs
//! `1 + Σ_c n_c log₂(n/n_c) + (K − 1)/2 · log₂(n/2) + log₂(π^{K/2}/Γ(K/2))` (its node type and the
//! stochastic complexity of its `n` labels, `K` classes); an internal node `1 + log₂ d +
//! log₂(max(n − 1, 1))` (node type, feature, and one of the `n − 1` cut points) plus its
//! children. Bottom-up, a node whose leaf cost is at most its subtree's becomes a leaf.
//!
//! # K-fold choice of α (CL-113)
//!
//! The course notes' recipe: grow the full tree and compute its pruning path `α_0 = 0 < α_1 < …`;
//! for each of `K` folds grow a tree on the other `K − 1`, prune it at every `α_j` and record
//! the held-out error (misclassification rate, or mean squared error for regression); average
//! per `α_j` and refit at the `α` of least mean error (ties: the larger `α`, the smaller tree).
//! [`crate::DecisionTreeClassifier::ccp_alpha_cv`], [`crate::DecisionTreeRegressor::ccp_alpha_cv`].
//!
//! # References
//!
//! - J. R. Quinlan, *C4.5: Programs for Machine Learning*, Morgan Kaufmann, 1993, ch. 4.
//! - M. Mehta, J. Rissanen, R. Agrawal, "MDL-based decision tree pruning", KDD 1995.
//! - L. Breiman et al., *Classification and Regression Trees*, 1984, §3.4 (cross-validated α).

use ndarray::{Array2, ArrayRef2};
use ndlearn_core::model_selection::{CrossValidator, KFold};
use ndlearn_core::stats::special::{ln_gamma, norm_ppf};
use ndlearn_core::stats::tests::chi2_independence;
use ndlearn_core::{Error, Float, Result, par, validate};

use crate::criterion::class_impurity;
use crate::params::ClassCriterion;
use crate::tree::Tree;

/// C4.5's pessimistic extra errors `U(N, E)` of a leaf with `n` rows and `e` training errors
/// at confidence `cf` (see the [module docs](self)).
///
/// ```
/// // Quinlan's example: a leaf of 6 rows without error at CF = 25 % is estimated to make
/// // 6·(1 − 0.25^{1/6}) = 1.24 errors.
/// let u = ndlearn_tree::pruning::pessimistic_extra_errors(6.0, 0.0, 0.25)?;
/// assert!((u - 1.2377).abs() < 1e-4);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// `cf` outside `(0, 1)`.
pub fn pessimistic_extra_errors(n: f64, e: f64, cf: f64) -> Result<f64> {
    if !(cf > 0.0 && cf < 1.0) {
        return Err(Error::invalid_param(
            "confidence",
            format!("must be in (0, 1); got {cf}"),
        ));
    }
    let z = norm_ppf(1.0 - cf)?;
    Ok(extra_errors(n, e, cf, z * z))
}

fn extra_errors(n: f64, e: f64, cf: f64, z2: f64) -> f64 {
    if n <= 0.0 {
        return 0.0;
    }
    if e < 1e-6 {
        return n * (1.0 - (cf.ln() / n).exp());
    }
    if e < 0.9999 {
        let v0 = n * (1.0 - (cf.ln() / n).exp());
        return v0 + e * (extra_errors(n, 1.0, cf, z2) - v0);
    }
    if e + 0.5 >= n {
        return 0.67 * (n - e);
    }
    let ec = e + 0.5;
    let p = (ec + z2 / 2.0 + (z2 * (ec * (1.0 - ec / n) + z2 / 4.0)).sqrt()) / (n + z2);
    n * p - e
}

/// SLIQ's MDL cost in bits of a leaf with class counts `counts` among `n_classes` classes.
pub fn mdl_leaf_bits(counts: &[f64], n_classes: usize) -> f64 {
    let n: f64 = counts.iter().sum();
    if n <= 0.0 {
        return 1.0;
    }
    let k = n_classes.max(1) as f64;
    let labels: f64 = counts
        .iter()
        .filter(|&&c| c > 0.0)
        .map(|&c| c * (n / c).log2())
        .sum();
    let ln2 = std::f64::consts::LN_2;
    let params = (k - 1.0) / 2.0 * (n / 2.0).max(1.0).log2()
        + (k / 2.0 * std::f64::consts::PI.ln() - ln_gamma(k / 2.0)) / ln2;
    1.0 + labels + params
}

/// The training rows routed through a tree whose structure is edited: `redirect[i]` is the node
/// that stands in node `i`'s place (itself unless raised over), `leaf[i]` marks collapsed
/// nodes.
struct Edit<'a, F> {
    tree: &'a Tree<F>,
    x: &'a ArrayRef2<F>,
    y: &'a [usize],
    k: usize,
    redirect: Vec<usize>,
    leaf: Vec<bool>,
}

impl<F: Float> Edit<'_, F> {
    fn resolve(&self, mut i: usize) -> usize {
        while self.redirect[i] != i {
            i = self.redirect[i];
        }
        i
    }

    fn is_leaf(&self, i: usize) -> bool {
        self.leaf[i] || self.tree.is_leaf(i)
    }

    fn counts(&self, rows: &[usize]) -> Vec<f64> {
        let mut c = vec![0.0; self.k];
        rows.iter().for_each(|&i| c[self.y[i]] += 1.0);
        c
    }

    fn route(&self, node: usize, rows: &[usize]) -> (Vec<usize>, Vec<usize>) {
        let f = self.tree.feature()[node] as usize;
        let t = self.tree.threshold()[node];
        rows.iter().partition(|&&i| self.x[[i, f]] <= t)
    }

    fn children(&self, node: usize) -> (usize, usize) {
        (
            self.tree.children_left()[node] as usize,
            self.tree.children_right()[node] as usize,
        )
    }

    /// `E + U(N, E)` of `rows` as one leaf.
    fn leaf_estimate(&self, rows: &[usize], cf: f64, z2: f64) -> f64 {
        let c = self.counts(rows);
        let n = rows.len() as f64;
        let e = n - c.iter().cloned().fold(0.0, f64::max);
        e + extra_errors(n, e, cf, z2)
    }

    /// The estimate of the current (edited) subtree at `node` on `rows`, without editing.
    fn subtree_estimate(&self, node: usize, rows: &[usize], cf: f64, z2: f64) -> f64 {
        let node = self.resolve(node);
        if self.is_leaf(node) {
            return self.leaf_estimate(rows, cf, z2);
        }
        let (l, r) = self.children(node);
        let (rl, rr) = self.route(node, rows);
        self.subtree_estimate(l, &rl, cf, z2) + self.subtree_estimate(r, &rr, cf, z2)
    }

    /// C4.5's `Prune`: edits the subtree at `node` for `rows`, returns its estimate.
    fn error_based(&mut self, node: usize, rows: &[usize], cf: f64, z2: f64, raise: bool) -> f64 {
        let leaf_est = self.leaf_estimate(rows, cf, z2);
        if self.is_leaf(node) {
            return leaf_est;
        }
        let (l, r) = self.children(node);
        let (rl, rr) = self.route(node, rows);
        let tree_est =
            self.error_based(l, &rl, cf, z2, raise) + self.error_based(r, &rr, cf, z2, raise);
        let big = if rl.len() >= rr.len() { l } else { r };
        let branch_est = if raise && !rows.is_empty() {
            self.subtree_estimate(big, rows, cf, z2)
        } else {
            f64::INFINITY
        };
        if leaf_est <= tree_est + 0.1 && leaf_est <= branch_est + 0.1 {
            self.leaf[node] = true;
            return leaf_est;
        }
        if raise && branch_est <= tree_est + 0.1 {
            let target = self.resolve(big);
            self.redirect[node] = target;
            return self.error_based(target, rows, cf, z2, raise);
        }
        tree_est
    }

    /// SLIQ's MDL pruning of the subtree at `node` on `rows`; returns its cost.
    fn mdl(&mut self, node: usize, rows: &[usize], d: usize) -> f64 {
        let leaf_bits = mdl_leaf_bits(&self.counts(rows), self.k);
        if self.is_leaf(node) {
            return leaf_bits;
        }
        let (l, r) = self.children(node);
        let (rl, rr) = self.route(node, rows);
        let split_bits =
            1.0 + (d.max(1) as f64).log2() + ((rows.len().saturating_sub(1)).max(1) as f64).log2();
        let tree_bits = split_bits + self.mdl(l, &rl, d) + self.mdl(r, &rr, d);
        if leaf_bits <= tree_bits {
            self.leaf[node] = true;
            leaf_bits
        } else {
            tree_bits
        }
    }

    /// The edited tree with every node's statistics recomputed from the rows reaching it
    /// (nodes no row reaches keep their fitted statistics).
    fn rebuild(&self, criterion: ClassCriterion) -> Tree<F> {
        let t = self.tree;
        let mut out = Tree::new(t.n_features(), 1, self.k);
        type Pending = (usize, Option<(usize, bool)>, usize, Vec<usize>);
        let mut stack: Vec<Pending> = vec![(0, None, 0, (0..self.y.len()).collect())];
        while let Some((orig, parent, depth, rows)) = stack.pop() {
            let node = self.resolve(orig);
            let leaf = self.is_leaf(node);
            let split = (!leaf).then(|| (t.feature()[node] as usize, t.threshold()[node]));
            let id = if rows.is_empty() {
                out.add_node(
                    parent,
                    split,
                    t.impurity()[node],
                    0,
                    0.0,
                    t.node_value(node),
                    depth,
                )
            } else {
                let c = self.counts(&rows);
                let n = rows.len() as f64;
                let value: Vec<f64> = c.iter().map(|v| v / n).collect();
                out.add_node(
                    parent,
                    split,
                    class_impurity(criterion, &c, n),
                    rows.len(),
                    n,
                    &value,
                    depth,
                )
            };
            if !leaf {
                let (l, r) = self.children(node);
                let (rl, rr) = self.route(node, &rows);
                stack.push((r, Some((id, false)), depth + 1, rr));
                stack.push((l, Some((id, true)), depth + 1, rl));
            }
        }
        out
    }
}

/// Runs the recursive walk `f` over a tree of `depth` levels: on this thread when the tree is
/// shallow (every grown tree of ordinary data), otherwise on a scoped thread whose stack is
/// sized for the depth (4 KiB per level), so a degenerate chain-shaped tree cannot overflow the
/// caller's stack (a rayon worker has 2 MiB).
fn with_depth_stack<T: Send>(depth: usize, f: impl FnOnce() -> T + Send) -> Result<T> {
    const SHALLOW: usize = 256;
    if depth <= SHALLOW {
        return Ok(f());
    }
    let bytes = depth.saturating_mul(4096).saturating_add(1 << 20);
    std::thread::scope(|scope| {
        let handle = std::thread::Builder::new()
            .name("ndlearn-prune".into())
            .stack_size(bytes)
            .spawn_scoped(scope, f)
            .map_err(|e| {
                Error::invalid_param(
                    "tree",
                    format!("no thread with a stack for a tree of depth {depth}: {e}"),
                )
            })?;
        handle
            .join()
            .map_err(|payload| std::panic::resume_unwind(payload))
    })
}

fn edit<'a, F: Float>(
    tree: &'a Tree<F>,
    x: &'a ArrayRef2<F>,
    y: &'a [usize],
    k: usize,
) -> Result<Edit<'a, F>> {
    validate::check_predict_input(x, tree.n_features(), "pruning")?;
    validate::check_target_len(x.nrows(), y.len(), "pruning")?;
    if let Some((i, &c)) = y.iter().enumerate().find(|&(_, &c)| c >= k) {
        return Err(Error::InvalidLabel {
            label: c,
            index: i,
            reason: format!("labels must be below the number of classes ({k})"),
        });
    }
    Ok(Edit {
        tree,
        x,
        y,
        k,
        redirect: (0..tree.node_count()).collect(),
        leaf: vec![false; tree.node_count()],
    })
}

/// C4.5's error-based pruning of a classification tree on its training rows `(x, y)`.
pub(crate) fn error_based<F: Float>(
    tree: &Tree<F>,
    x: &ArrayRef2<F>,
    y: &[usize],
    k: usize,
    criterion: ClassCriterion,
    confidence: f64,
    subtree_raising: bool,
) -> Result<Tree<F>> {
    let z = norm_ppf(1.0 - confidence).map_err(|_| {
        Error::invalid_param("confidence", format!("must be in (0, 1); got {confidence}"))
    })?;
    pessimistic_extra_errors(1.0, 0.0, confidence)?;
    let mut ed = edit(tree, x, y, k)?;
    let rows: Vec<usize> = (0..y.len()).collect();
    with_depth_stack(tree.max_depth(), || {
        ed.error_based(0, &rows, confidence, z * z, subtree_raising);
    })?;
    Ok(ed.rebuild(criterion))
}

/// SLIQ's MDL pruning of a classification tree on its training rows `(x, y)`.
pub(crate) fn mdl<F: Float>(
    tree: &Tree<F>,
    x: &ArrayRef2<F>,
    y: &[usize],
    k: usize,
    criterion: ClassCriterion,
) -> Result<Tree<F>> {
    let mut ed = edit(tree, x, y, k)?;
    let rows: Vec<usize> = (0..y.len()).collect();
    with_depth_stack(tree.max_depth(), || {
        ed.mdl(0, &rows, tree.n_features());
    })?;
    Ok(ed.rebuild(criterion))
}

/// The χ² stop applied top-down to a classification tree (from its fitted class counts).
pub(crate) fn chi2_stop<F: Float>(tree: &Tree<F>, alpha: f64) -> Tree<F> {
    let mut leaves = vec![false; tree.node_count()];
    let mut stack = vec![0usize];
    while let Some(i) = stack.pop() {
        if tree.is_leaf(i) {
            continue;
        }
        let (l, r) = (
            tree.children_left()[i] as usize,
            tree.children_right()[i] as usize,
        );
        if split_p_value(tree, l, r) >= alpha {
            leaves[i] = true;
        } else {
            stack.push(r);
            stack.push(l);
        }
    }
    tree.collapse(&leaves)
}

/// The χ² p-value of the 2 × K table of weighted class counts in children `l` and `r` (columns
/// of classes absent from both dropped); 1 when fewer than two classes remain.
fn split_p_value<F: Float>(tree: &Tree<F>, l: usize, r: usize) -> f64 {
    let wl = tree.weighted_n_node_samples()[l];
    let wr = tree.weighted_n_node_samples()[r];
    let (vl, vr) = (tree.node_value(l), tree.node_value(r));
    let cols: Vec<usize> = (0..vl.len())
        .filter(|&c| vl[c] > 0.0 || vr[c] > 0.0)
        .collect();
    if cols.len() < 2 || wl <= 0.0 || wr <= 0.0 {
        return 1.0;
    }
    let table = Array2::from_shape_fn((2, cols.len()), |(i, j)| {
        let (v, w) = if i == 0 { (vl, wl) } else { (vr, wr) };
        v[cols[j]] * w
    });
    chi2_independence(&table).map_or(1.0, |t| t.p_value)
}

/// The result of a K-fold cross-validated choice of `ccp_alpha`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CcpCv {
    /// The candidate alphas: the full tree's pruning path.
    pub ccp_alphas: Vec<f64>,
    /// Mean held-out error per alpha (misclassification rate or mean squared error).
    pub mean_errors: Vec<f64>,
    /// Standard deviation of the held-out errors over the folds, per alpha.
    pub std_errors: Vec<f64>,
    /// The alpha of least mean error (ties: the largest).
    pub best_alpha: f64,
}

/// The course notes' K-fold recipe over the path `alphas`: `fold_errors(train, test)` fits on
/// `train` and returns the held-out error at every alpha.
pub(crate) fn cv_alpha<G>(
    alphas: Vec<f64>,
    n: usize,
    n_folds: usize,
    seed: u64,
    fold_errors: G,
) -> Result<CcpCv>
where
    G: Fn(&[usize], &[usize]) -> Result<Vec<f64>> + Sync + Send,
{
    validate::check_at_least("n_folds", n_folds, 2)?;
    let splits = KFold::new(n_folds)
        .shuffle(true)
        .seed(seed)
        .split(n, None)?;
    let per_fold = par::try_map_tasks(splits.len(), |f| fold_errors(&splits[f].0, &splits[f].1))?;
    let k = per_fold.len() as f64;
    let mut mean_errors = vec![0.0; alphas.len()];
    let mut std_errors = vec![0.0; alphas.len()];
    for (j, (m, s)) in mean_errors
        .iter_mut()
        .zip(std_errors.iter_mut())
        .enumerate()
    {
        *m = per_fold.iter().map(|e| e[j]).sum::<f64>() / k;
        *s = (per_fold.iter().map(|e| (e[j] - *m).powi(2)).sum::<f64>() / k).sqrt();
    }
    let mut best = 0;
    for j in 1..alphas.len() {
        if mean_errors[j] <= mean_errors[best] {
            best = j;
        }
    }
    Ok(CcpCv {
        best_alpha: alphas[best],
        ccp_alphas: alphas,
        mean_errors,
        std_errors,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pruning_walks_deep_trees_on_a_stack_sized_for_them() {
        // a chain of 3,000 splits: x = i goes to leaf i (class 0), the last row to class 1;
        // labels alternate, so the pessimistic estimate collapses the whole chain
        let depth = 3_000;
        let tree = Tree::<f64>::chain(depth);
        let x = Array2::from_shape_fn((depth + 1, 1), |(i, _)| i as f64);
        let y: Vec<usize> = (0..=depth).map(|i| i % 2).collect();
        let run = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let pruned = error_based(&tree, &x, &y, 2, ClassCriterion::Gini, 0.25, true)
                    .expect("error-based");
                let mdl_pruned = mdl(&tree, &x, &y, 2, ClassCriterion::Gini).expect("mdl");
                (pruned.node_count(), mdl_pruned.node_count())
            })
            .expect("thread");
        let (a, b) = run.join().expect("no stack overflow");
        assert!(a < 2 * depth + 1 && b < 2 * depth + 1, "{a}, {b}");
    }

    #[test]
    fn quinlan_estimates() {
        // U_25%(0, 6) = 0.206, U_25%(0, 9) = 0.143, U_25%(0, 1) = 0.750 (C4.5, ch. 4).
        let u = |n: f64, e: f64| pessimistic_extra_errors(n, e, 0.25).expect("cf");
        assert!((u(6.0, 0.0) / 6.0 - 0.206).abs() < 5e-4);
        assert!((u(9.0, 0.0) / 9.0 - 0.143).abs() < 5e-4);
        assert!((u(1.0, 0.0) - 0.75).abs() < 1e-12);
        // E = 1 of 16: the normal approximation with z = Φ⁻¹(0.75) gives 2.476 errors in all
        // (C4.5's exact binomial limit: 16 × 0.157 = 2.51).
        assert!((1.0 + u(16.0, 1.0) - 2.4758).abs() < 1e-3);
        // Interpolation between E = 0 and 1; E + ½ ≥ N.
        let half = u(10.0, 0.5);
        assert!((half - 0.5 * (u(10.0, 0.0) + u(10.0, 1.0))).abs() < 1e-12);
        assert!((u(3.0, 2.6) - 0.67 * 0.4).abs() < 1e-12);
        assert!(pessimistic_extra_errors(3.0, 0.0, 1.5).is_err());
    }

    #[test]
    fn mdl_leaf_cost_by_hand() {
        // Pure leaf of 8 rows, 2 classes: 1 + 0 + ½ log₂ 4 + log₂(π/Γ(1)) = 2 + log₂ π.
        let bits = mdl_leaf_bits(&[8.0, 0.0], 2);
        assert!((bits - (2.0 + std::f64::consts::PI.log2())).abs() < 1e-12);
        // A 4/4 leaf adds 8 bits of labels.
        assert!((mdl_leaf_bits(&[4.0, 4.0], 2) - bits - 8.0).abs() < 1e-12);
    }

    use crate::{DecisionTreeClassifier, DecisionTreeRegressor};
    use ndarray::{Array1, array};
    use ndlearn_core::{Fit, Predict};

    /// Quinlan's shape: 16 rows on a line, row 6 the only one of class 1.
    fn outlier_line() -> (Array2<f64>, Array1<usize>) {
        let x = Array2::from_shape_fn((16, 1), |(i, _)| i as f64);
        let y = (0..16).map(|i| usize::from(i == 6)).collect();
        (x, y)
    }

    #[test]
    fn error_based_pruning_collapses_an_isolated_outlier() {
        let (x, y) = outlier_line();
        let full = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert_eq!(full.get_n_leaves(), 3);
        // The right branch (10 rows, 1 error: 2.41 as a leaf) stays against its leaves
        // (0.75 + 1.29 = 2.04); at the root the leaf (16 rows, 1 error: 2.48) beats the subtree
        // (1.24 + 2.04 = 3.28): one leaf of class 0.
        let pruned = full.pruned_error_based(&x, &y, 0.25, true).expect("prune");
        assert_eq!(pruned.get_n_leaves(), 1);
        assert_eq!(
            pruned.predict(&x).expect("predict"),
            Array1::<usize>::zeros(16)
        );
        let v = pruned.tree().node_value(0);
        assert!((v[0] - 15.0 / 16.0).abs() < 1e-15);
        // The χ² stop at 5 % cuts the same root split (table [[6, 0], [9, 1]]).
        let chi = DecisionTreeClassifier::default()
            .chi2_alpha(Some(0.05))
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(chi.get_n_leaves(), 1);
        assert_eq!(full.pruned_chi2(0.05).expect("alpha").get_n_leaves(), 1);
        assert!(full.pruned_chi2(1.5).is_err());
        // MDL: 9.55 bits as a leaf against 18.9 for the tree.
        assert_eq!(full.pruned_mdl(&x, &y).expect("mdl").get_n_leaves(), 1);
        assert!(full.pruned_error_based(&x, &y, 0.0, true).is_err());
        assert!(
            full.pruned_error_based(&x.slice(ndarray::s![.., ..0]), &y, 0.25, true)
                .is_err()
        );
    }

    #[test]
    fn a_clean_split_survives_every_pruning() {
        let x = Array2::from_shape_fn((40, 1), |(i, _)| i as f64);
        let y: Array1<usize> = (0..40).map(|i| usize::from(i >= 20)).collect();
        let full = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert_eq!(full.get_n_leaves(), 2);
        assert_eq!(
            full.pruned_error_based(&x, &y, 0.25, true)
                .expect("eb")
                .get_n_leaves(),
            2
        );
        assert_eq!(full.pruned_mdl(&x, &y).expect("mdl").get_n_leaves(), 2);
        assert_eq!(full.pruned_chi2(0.01).expect("chi2").get_n_leaves(), 2);
        // χ² = 40 on the 2 × 2 table, p = 2.5e-10.
        let t = full.tree();
        assert!(split_p_value(t, 1, 2) < 1e-9);
    }

    /// root: x0 ≤ 0.5 → A (x1 ≤ 0.5 → leaf, leaf) | B (leaf). Rows: 20 + 20 under A following
    /// y = x1, 3 + 3 under B following the same rule.
    fn raising_case() -> (Tree<f64>, Array2<f64>, Vec<usize>) {
        let mut rows = Vec::new();
        for (x0, n) in [(0.0, 20), (1.0, 3)] {
            for x1 in [0.0, 1.0] {
                for _ in 0..n {
                    rows.push([x0, x1]);
                }
            }
        }
        let x = Array2::from_shape_fn((rows.len(), 2), |(i, j)| rows[i][j]);
        let y: Vec<usize> = rows.iter().map(|r| r[1] as usize).collect();
        let mut t = Tree::new(2, 1, 2);
        let half = [0.5, 0.5];
        let root = t.add_node(None, Some((0, 0.5)), 0.5, 46, 46.0, &half, 0);
        let a = t.add_node(Some((root, true)), Some((1, 0.5)), 0.5, 40, 40.0, &half, 1);
        t.add_node(Some((a, true)), None, 0.0, 20, 20.0, &[1.0, 0.0], 2);
        t.add_node(Some((a, false)), None, 0.0, 20, 20.0, &[0.0, 1.0], 2);
        t.add_node(Some((root, false)), None, 0.5, 6, 6.0, &half, 1);
        (t, x, y)
    }

    #[test]
    fn subtree_raising_lifts_the_large_branch() {
        let (t, x, y) = raising_case();
        // Raising: the branch A with all 46 rows (two pure leaves of 23) is estimated at
        // 2.7 errors against 2.7 + 3 + U(6, 3) for the tree: A takes the root's place.
        let raised = error_based(&t, &x, &y, 2, ClassCriterion::Gini, 0.25, true).expect("prune");
        assert_eq!(raised.node_count(), 3);
        assert_eq!(raised.feature()[0], 1);
        assert_eq!(raised.n_node_samples(), &[46, 23, 23]);
        assert_eq!(raised.impurity()[0], 0.5);
        assert_eq!(raised.impurity()[1], 0.0);
        // Replacement only: nothing to replace (B as a leaf is already a leaf; the root as a
        // leaf errs 23 times).
        let kept = error_based(&t, &x, &y, 2, ClassCriterion::Gini, 0.25, false).expect("prune");
        assert_eq!(kept.node_count(), 5);
    }

    #[test]
    fn cross_validated_alpha_prunes_noise() {
        let mut rng = ndlearn_core::random::rng(11);
        let n = 200;
        let x = Array2::from_shape_fn((n, 3), |_| {
            ndlearn_core::random::uniform::<f64>(&mut rng, 0.0, 1.0)
        });
        // y = [x0 > 0.5] with 20 % of labels flipped.
        let y: Array1<usize> = (0..n)
            .map(|i| {
                let flip = ndlearn_core::random::uniform::<f64>(&mut rng, 0.0, 1.0) < 0.2;
                usize::from(x[[i, 0]] > 0.5) ^ usize::from(flip)
            })
            .collect();
        let (cv, model) = DecisionTreeClassifier::default()
            .ccp_alpha_cv(&x, &y, 5, 0)
            .expect("cv");
        assert_eq!(cv.mean_errors.len(), cv.ccp_alphas.len());
        assert!(cv.best_alpha > 0.0);
        let best = cv
            .ccp_alphas
            .iter()
            .position(|&a| a == cv.best_alpha)
            .expect("in path");
        assert!(cv.mean_errors[best] < cv.mean_errors[0]);
        assert!(cv.mean_errors.iter().all(|&e| e >= cv.mean_errors[best]));
        let full = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert!(model.get_n_leaves() < full.get_n_leaves() / 4);
        assert_eq!(model.params().ccp_alpha, cv.best_alpha);
        // Regression: y = 3·[x0 > 0.5] + noise.
        let yr: Array1<f64> = (0..n)
            .map(|i| {
                3.0 * f64::from(u8::from(x[[i, 0]] > 0.5))
                    + ndlearn_core::random::standard_normal::<f64>(&mut rng)
            })
            .collect();
        let (cvr, mr) = DecisionTreeRegressor::default()
            .ccp_alpha_cv(&x, &yr, 4, 1)
            .expect("cv");
        assert!(cvr.best_alpha > 0.0 && mr.get_n_leaves() < 20);
        assert!(
            DecisionTreeRegressor::default()
                .ccp_alpha_cv(&x, &yr, 1, 1)
                .is_err()
        );
        let _ = array![0.0];
    }
}
