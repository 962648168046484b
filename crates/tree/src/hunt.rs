//! Hunt's algorithm with multi-way splits on categorical features ([`HuntTree`]; catalog T-02,
//! CL-108): the ID3 / C4.5 family's tree over nominal attributes.
//!
//! # Algorithm
//!
//! Features are categorical, coded `0, 1, 2, …` (values must be non-negative integers; the
//! domain of feature `j` is `0..=max_j` over the training data). Hunt's recursion on the rows
//! `D_t` reaching node `t`:
//!
//! - `D_t` pure (one class `y_t`): a leaf labelled `y_t`;
//! - `D_t` empty: a leaf labelled with the **default class** `y_d`, the majority class of the
//!   parent (a value of the split feature no training row of the parent had);
//! - otherwise, unless a stopping rule holds (`max_depth`, `min_samples_split`, no feature
//!   left, no split with positive gain), the **attribute test** on the best unused feature
//!   `j`: one child per value of `j`'s domain (a `k`-way split), recurse. A feature is used at
//!   most once on a path (its values are all separated after its split).
//!
//! The best feature maximises the gain `Δ = I(parent) − Σ_v (N_v/N) I(v)` of the chosen
//! impurity (entropy: information gain, ID3; Gini; misclassification error), or the gain ratio
//! `Δ_entropy / SplitInfo` (C4.5), which penalises many small pure partitions
//! (`ndlearn_tree::impurity`). Ties go to the lower feature index. A leaf predicts its majority
//! class (ties to the lower class) and its class fractions; at predict time a value outside the
//! training domain is routed like an empty child: the node's own majority.
//!
//! # References
//!
//! - E. B. Hunt, J. Marin, P. J. Stone, *Experiments in Induction*, Academic Press, 1966.
//! - J. R. Quinlan, "Induction of decision trees", Machine Learning 1(1), 1986 (ID3).
//! - P.-N. Tan, M. Steinbach, V. Kumar, *Introduction to Data Mining*, §4.3 (Hunt's algorithm).
//!
//! ```
//! use ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::HuntTree;
//!
//! // Two categorical features; the class is feature 0's value 2 or feature 1's value 1.
//! let x = array![[0.0, 0.0], [1.0, 0.0], [2.0, 0.0], [0.0, 1.0], [1.0, 1.0], [2.0, 1.0]];
//! let y = array![0usize, 0, 1, 1, 1, 1];
//! let tree = HuntTree::default().fit(&x, &y)?;
//! assert_eq!(tree.predict(&x)?, y);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::{
    Error, Estimator, Fit, Float, NFeaturesIn, Predict, PredictProba, Result, validate,
};

use crate::impurity;
use crate::params::ClassCriterion;

/// Hunt's algorithm over categorical features. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct HuntTree {
    /// Attribute-test criterion (default entropy, ID3's information gain).
    pub criterion: ClassCriterion,
    /// Maximum depth (`None`: unlimited).
    pub max_depth: Option<usize>,
    /// Minimum rows to split a node (default 2).
    pub min_samples_split: usize,
}

impl Default for HuntTree {
    fn default() -> Self {
        Self {
            criterion: ClassCriterion::Entropy,
            max_depth: None,
            min_samples_split: 2,
        }
    }
}

impl HuntTree {
    ndlearn_core::setters! {
        criterion: ClassCriterion,
        max_depth: Option<usize>,
        min_samples_split: usize,
    }

    fn score(&self, parent: &[f64], children: &[&[f64]]) -> f64 {
        match self.criterion {
            ClassCriterion::Entropy => impurity::information_gain(parent, children),
            ClassCriterion::Gini => impurity::gain(parent, children, impurity::gini),
            ClassCriterion::Misclassification => {
                impurity::gain(parent, children, impurity::misclassification_error)
            }
            ClassCriterion::GainRatio => impurity::gain_ratio(parent, children),
        }
    }
}

impl Estimator for HuntTree {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        if self.max_depth == Some(0) {
            return Err(Error::invalid_param(
                "max_depth",
                "must be at least 1 (or None)",
            ));
        }
        validate::check_at_least("min_samples_split", self.min_samples_split, 2)
    }
}

/// One node: a leaf (`feature = None`) or a `k`-way test on `feature` with one child per value.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HuntNode {
    /// The tested feature (`None` for a leaf).
    pub feature: Option<usize>,
    /// Child node of each value `0..k` of the feature (empty for a leaf).
    pub children: Vec<usize>,
    /// Class counts of the training rows at the node (the parent's for an empty leaf).
    pub counts: Vec<f64>,
    /// Whether the node is an empty (default-class) leaf.
    pub default_leaf: bool,
}

impl HuntNode {
    /// The majority class (lower on ties).
    pub fn class(&self) -> usize {
        crate::common::argmax(self.counts.iter().copied())
    }
}

/// A fitted [`HuntTree`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedHuntTree {
    params: HuntTree,
    nodes: Vec<HuntNode>,
    n_features: usize,
    n_classes: usize,
}

impl FittedHuntTree {
    /// The nodes; node 0 is the root.
    pub fn nodes(&self) -> &[HuntNode] {
        &self.nodes
    }

    /// The number of leaves (default-class leaves included).
    pub fn n_leaves(&self) -> usize {
        self.nodes.iter().filter(|n| n.feature.is_none()).count()
    }

    /// The leaf reached by one row of category codes (a value outside a node's domain stops at
    /// that node).
    fn node_of(&self, row: impl Fn(usize) -> usize) -> usize {
        let mut i = 0;
        while let Some(f) = self.nodes[i].feature {
            match self.nodes[i].children.get(row(f)) {
                Some(&c) => i = c,
                None => break,
            }
        }
        i
    }
}

/// Category codes of a matrix: non-negative integers.
fn codes<F: Float>(x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<usize>> {
    validate::check_finite_2d(x, context)?;
    let mut out = Array2::zeros(x.dim());
    for ((i, j), v) in x.indexed_iter() {
        let f = v.to_f64_lossless();
        if f < 0.0 || f.fract() != 0.0 || f > u32::MAX as f64 {
            return Err(Error::invalid_param(
                "X",
                format!(
                    "{context}: categorical features must be non-negative integer codes; \
                     row {i}, column {j} is {f}"
                ),
            ));
        }
        out[[i, j]] = f as usize;
    }
    Ok(out)
}

impl<F: Float> Fit<F> for HuntTree {
    type Target = ArrayRef1<usize>;
    type Model = FittedHuntTree;

    /// Grows the tree by Hunt's recursion.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedHuntTree> {
        self.validate()?;
        let k = validate::check_classification_input(x, y, 1, "HuntTree::fit")?;
        let xc = codes(x, "HuntTree::fit")?;
        let d = x.ncols();
        let domain: Vec<usize> = (0..d)
            .map(|j| xc.column(j).iter().copied().max().unwrap_or(0) + 1)
            .collect();
        let counts_of = |rows: &[usize]| {
            let mut c = vec![0.0; k];
            rows.iter().for_each(|&i| c[y[i]] += 1.0);
            c
        };
        let mut nodes: Vec<HuntNode> = Vec::new();
        // (node id, rows, features still available, depth)
        let all: Vec<usize> = (0..x.nrows()).collect();
        nodes.push(HuntNode {
            feature: None,
            children: Vec::new(),
            counts: counts_of(&all),
            default_leaf: false,
        });
        let mut stack = vec![(0usize, all, vec![true; d], 0usize)];
        while let Some((id, rows, free, depth)) = stack.pop() {
            let parent = nodes[id].counts.clone();
            let pure = parent.iter().filter(|&&c| c > 0.0).count() <= 1;
            if pure
                || rows.len() < self.min_samples_split
                || self.max_depth.is_some_and(|m| depth >= m)
            {
                continue;
            }
            // The best free feature by the criterion over its full domain.
            let mut best: Option<(f64, usize, Vec<Vec<usize>>)> = None;
            for j in (0..d).filter(|&j| free[j]) {
                let mut parts = vec![Vec::new(); domain[j]];
                rows.iter().for_each(|&i| parts[xc[[i, j]]].push(i));
                if parts.iter().filter(|p| !p.is_empty()).count() < 2 {
                    continue;
                }
                let cc: Vec<Vec<f64>> = parts.iter().map(|p| counts_of(p)).collect();
                let refs: Vec<&[f64]> = cc.iter().map(Vec::as_slice).collect();
                let s = self.score(&parent, &refs);
                if s > 1e-12 && best.as_ref().is_none_or(|b| s > b.0) {
                    best = Some((s, j, parts));
                }
            }
            let Some((_, j, parts)) = best else { continue };
            let mut free_child = free.clone();
            free_child[j] = false;
            let mut children = Vec::with_capacity(parts.len());
            for part in parts {
                let child = nodes.len();
                let empty = part.is_empty();
                nodes.push(HuntNode {
                    feature: None,
                    children: Vec::new(),
                    counts: if empty {
                        parent.clone()
                    } else {
                        counts_of(&part)
                    },
                    default_leaf: empty,
                });
                children.push(child);
                if !empty {
                    stack.push((child, part, free_child.clone(), depth + 1));
                }
            }
            nodes[id].feature = Some(j);
            nodes[id].children = children;
        }
        Ok(FittedHuntTree {
            params: self.clone(),
            nodes,
            n_features: d,
            n_classes: k,
        })
    }
}

impl<F: Float> Predict<F> for FittedHuntTree {
    type Output = Array1<usize>;

    /// The majority class of each row's leaf (the default class for empty leaves).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        validate::check_predict_input(x, self.n_features, "HuntTree::predict")?;
        let xc = codes(x, "HuntTree::predict")?;
        Ok(xc
            .rows()
            .into_iter()
            .map(|r| self.nodes[self.node_of(|f| r[f])].class())
            .collect())
    }
}

impl<F: Float> PredictProba<F> for FittedHuntTree {
    /// The class fractions of each row's leaf.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        validate::check_predict_input(x, self.n_features, "HuntTree::predict_proba")?;
        let xc = codes(x, "HuntTree::predict_proba")?;
        let mut p = Array2::<F>::zeros((x.nrows(), self.n_classes));
        for (r, mut out) in xc.rows().into_iter().zip(p.rows_mut()) {
            let c = &self.nodes[self.node_of(|f| r[f])].counts;
            let s: f64 = c.iter().sum();
            for (o, &v) in out.iter_mut().zip(c) {
                *o = F::cast(v / s);
            }
        }
        Ok(p)
    }
}

impl NFeaturesIn for FittedHuntTree {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// Quinlan's PlayTennis (1986): outlook (sunny 0, overcast 1, rain 2), temperature (hot 0,
    /// mild 1, cool 2), humidity (high 0, normal 1), wind (weak 0, strong 1); play (no 0, yes 1).
    fn play_tennis() -> (Array2<f64>, Array1<usize>) {
        let rows = [
            [0, 0, 0, 0, 0],
            [0, 0, 0, 1, 0],
            [1, 0, 0, 0, 1],
            [2, 1, 0, 0, 1],
            [2, 2, 1, 0, 1],
            [2, 2, 1, 1, 0],
            [1, 2, 1, 1, 1],
            [0, 1, 0, 0, 0],
            [0, 2, 1, 0, 1],
            [2, 1, 1, 0, 1],
            [0, 1, 1, 1, 1],
            [1, 1, 0, 1, 1],
            [1, 0, 1, 0, 1],
            [2, 1, 0, 1, 0],
        ];
        let x = Array2::from_shape_fn((14, 4), |(i, j)| rows[i][j] as f64);
        let y = rows.iter().map(|r| r[4]).collect();
        (x, y)
    }

    #[test]
    fn id3_on_play_tennis() {
        let (x, y) = play_tennis();
        // Gains at the root: outlook 0.246, humidity 0.151, wind 0.048, temperature 0.029.
        let parent = [5.0, 9.0];
        let outlook = [[3.0, 2.0], [0.0, 4.0], [2.0, 3.0]];
        let refs: Vec<&[f64]> = outlook.iter().map(|c| c.as_slice()).collect();
        assert!((impurity::information_gain(&parent, &refs) - 0.2467).abs() < 1e-4);
        let t = HuntTree::default().fit(&x, &y).expect("fit");
        let n = t.nodes();
        // outlook at the root; sunny → humidity; overcast → yes; rain → wind.
        assert_eq!(n[0].feature, Some(0));
        assert_eq!(n[n[0].children[0]].feature, Some(2));
        assert_eq!(n[n[0].children[1]].feature, None);
        assert_eq!(n[n[0].children[1]].class(), 1);
        assert_eq!(n[n[0].children[2]].feature, Some(3));
        assert_eq!(t.n_leaves(), 5);
        assert_eq!(t.predict(&x).expect("predict"), y);
        // Gini and gain ratio pick outlook too.
        for c in [ClassCriterion::Gini, ClassCriterion::GainRatio] {
            let t = HuntTree::default().criterion(c).fit(&x, &y).expect("fit");
            assert_eq!(t.nodes()[0].feature, Some(0));
        }
        // A depth-1 tree is a three-way stump.
        let stump = HuntTree::default()
            .max_depth(Some(1))
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(stump.nodes().len(), 4);
    }

    #[test]
    fn empty_children_take_the_default_class() {
        // Root: feature 0 (gain 0.467 against 0.311 for feature 1). Under feature 0 = 0 the
        // rows split on feature 1, whose domain is {0, 1, 2} but which takes only 0 and 1
        // there: the child for value 2 is an empty leaf with the parent's majority (class 0).
        let x = array![
            [0.0, 0.0],
            [0.0, 0.0],
            [0.0, 1.0],
            [1.0, 0.0],
            [1.0, 0.0],
            [1.0, 1.0],
            [1.0, 2.0],
            [1.0, 2.0]
        ];
        let y = array![0usize, 0, 1, 1, 1, 1, 1, 1];
        let t = HuntTree::default().fit(&x, &y).expect("fit");
        assert_eq!(t.nodes()[0].feature, Some(0));
        let empty = t
            .nodes()
            .iter()
            .find(|n| n.default_leaf)
            .expect("empty leaf");
        assert_eq!(empty.class(), 0);
        assert_eq!(t.predict(&x).expect("predict"), y);
        let p: Array2<f64> = t.predict_proba(&array![[0.0, 2.0]]).expect("proba");
        assert!((p[[0, 0]] - 2.0 / 3.0).abs() < 1e-12);
        // An unseen category stops at the node that tests it: its majority.
        assert_eq!(t.predict(&array![[7.0, 0.0]]).expect("predict")[0], 1);
    }

    #[test]
    fn bad_input_is_a_typed_error() {
        let y = array![0usize, 1];
        assert!(HuntTree::default().fit(&array![[0.5], [1.0]], &y).is_err());
        assert!(HuntTree::default().fit(&array![[-1.0], [1.0]], &y).is_err());
        assert!(
            HuntTree::default()
                .fit(&array![[f64::NAN], [1.0]], &y)
                .is_err()
        );
        assert!(matches!(
            HuntTree::default()
                .max_depth(Some(0))
                .fit(&array![[0.0], [1.0]], &y),
            Err(Error::InvalidParam { .. })
        ));
        let t = HuntTree::default()
            .fit(&array![[0.0], [1.0]], &y)
            .expect("fit");
        assert!(t.predict(&array![[0.0, 1.0]]).is_err());
    }
}
