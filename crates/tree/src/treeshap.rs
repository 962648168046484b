//! Exact TreeSHAP (Lundberg, Erion & Lee 2018, Algorithm 2) on [`HistTree`]s: per-feature
//! contributions of one row to one tree's output, the Shapley values of the game
//! `v(S) = E[f(x) | x_S]` where the expectation follows the tree's own cover (training rows per
//! node) down every split on a feature outside `S` (the "path-dependent" expectation of
//! LightGBM's `pred_contrib` and XGBoost's `pred_contribs`). Contributions plus the tree's
//! expected value sum to the tree's output. Cost `O(L·D²)` per row and tree (`L` leaves, depth
//! `D`).

use crate::hist_grower::HistTree;

/// One element of the unique path: the feature (`usize::MAX` for the root's dummy), the
/// fraction of "zero" (feature absent) paths, the "one" indicator and the permutation weight.
#[derive(Debug, Clone, Copy)]
struct PathElem {
    feature: usize,
    zero: f64,
    one: f64,
    weight: f64,
}

fn extend(path: &mut Vec<PathElem>, zero: f64, one: f64, feature: usize) {
    let l = path.len();
    path.push(PathElem {
        feature,
        zero,
        one,
        weight: if l == 0 { 1.0 } else { 0.0 },
    });
    let lf = l as f64;
    for i in (0..l).rev() {
        let w = path[i].weight;
        path[i + 1].weight += one * w * (i as f64 + 1.0) / (lf + 1.0);
        path[i].weight = zero * w * (lf - i as f64) / (lf + 1.0);
    }
}

fn unwind(path: &mut Vec<PathElem>, i: usize) {
    let l = path.len() - 1;
    let lf = l as f64;
    let (one, zero) = (path[i].one, path[i].zero);
    let mut n = path[l].weight;
    for j in (0..l).rev() {
        if one != 0.0 {
            let t = path[j].weight;
            path[j].weight = n * (lf + 1.0) / ((j as f64 + 1.0) * one);
            n = t - path[j].weight * zero * (lf - j as f64) / (lf + 1.0);
        } else {
            path[j].weight = path[j].weight * (lf + 1.0) / (zero * (lf - j as f64));
        }
    }
    for j in i..l {
        path[j].feature = path[j + 1].feature;
        path[j].zero = path[j + 1].zero;
        path[j].one = path[j + 1].one;
    }
    path.pop();
}

/// The total permutation weight of the path with element `i` unwound (path left unchanged).
fn unwound_sum(path: &[PathElem], i: usize) -> f64 {
    let l = path.len() - 1;
    let lf = l as f64;
    let (one, zero) = (path[i].one, path[i].zero);
    let mut n = path[l].weight;
    let mut total = 0.0;
    for j in (0..l).rev() {
        if one != 0.0 {
            let t = n * (lf + 1.0) / ((j as f64 + 1.0) * one);
            total += t;
            n = path[j].weight - t * zero * (lf - j as f64) / (lf + 1.0);
        } else {
            total += path[j].weight / zero * (lf + 1.0) / (lf - j as f64);
        }
    }
    total
}

/// The deepest tree [`tree_shap`] explains: the recursion keeps one path copy per level (memory
/// and time grow with the square of the depth) and one stack frame per level. Grown trees stay
/// far below it (31 leaves by default: depth ≤ 30); a deeper tree (a hand-edited model file, or
/// `max_leaf_nodes = None` on degenerate data) gets a typed error from the callers.
pub(crate) const MAX_DEPTH: usize = 1_000;

/// Adds the contributions of `row` to `tree`'s output into `phi[..d]` and the tree's expected
/// value (cover-weighted mean of its leaves) into `phi[d]`.
pub(crate) fn tree_shap(tree: &HistTree, row: &[f64], phi: &mut [f64]) {
    let nodes = tree.nodes();
    let d = phi.len() - 1;
    let root_cover = f64::from(nodes[0].count.max(1));
    phi[d] += nodes
        .iter()
        .filter(|n| n.is_leaf)
        .map(|n| n.value * f64::from(n.count))
        .sum::<f64>()
        / root_cover;
    if nodes[0].is_leaf {
        return;
    }
    let mut path = Vec::with_capacity(tree.max_depth() + 2);
    recurse(tree, row, phi, 0, &mut path, 1.0, 1.0, usize::MAX);
}

#[allow(clippy::too_many_arguments)]
fn recurse(
    tree: &HistTree,
    row: &[f64],
    phi: &mut [f64],
    j: usize,
    path: &mut Vec<PathElem>,
    zero: f64,
    one: f64,
    feature: usize,
) {
    let saved = path.clone();
    extend(path, zero, one, feature);
    let node = &tree.nodes()[j];
    if node.is_leaf {
        for i in 1..path.len() {
            let w = unwound_sum(path, i);
            let e = path[i];
            phi[e.feature] += w * (e.one - e.zero) * node.value;
        }
    } else {
        let f = node.feature as usize;
        let goes_left = node.goes_left(row[f], tree.bitsets());
        let (hot, cold) = if goes_left {
            (node.left as usize, node.right as usize)
        } else {
            (node.right as usize, node.left as usize)
        };
        let cover = f64::from(node.count.max(1));
        let hot_frac = f64::from(tree.nodes()[hot].count) / cover;
        let cold_frac = f64::from(tree.nodes()[cold].count) / cover;
        let (mut inc_zero, mut inc_one) = (1.0, 1.0);
        if let Some(k) = path.iter().skip(1).position(|e| e.feature == f) {
            let k = k + 1;
            inc_zero = path[k].zero;
            inc_one = path[k].one;
            unwind(path, k);
        }
        recurse(tree, row, phi, hot, path, inc_zero * hot_frac, inc_one, f);
        recurse(tree, row, phi, cold, path, inc_zero * cold_frac, 0.0, f);
    }
    *path = saved;
}
