//! CART classification tree ([`DecisionTreeClassifier`]).
//!
//! # Algorithm
//!
//! Recursive binary splitting (Breiman et al. 1984). A node holding rows `S` with weighted class
//! counts `n_c` (total `w`) and class fractions `p_c = n_c / w` has impurity
//!
//! ```text
//! gini:           I(S) = 1 − Σ_c p_c²
//! entropy:        I(S) = −Σ_c p_c log₂ p_c          (information gain when maximised)
//! misclassification: I(S) = 1 − max_c p_c
//! ```
//!
//! For every candidate feature `j` the rows are sorted by `x_j` and swept once; each boundary
//! between two distinct consecutive values `a < b` is a candidate threshold `s = a/2 + b/2`
//! (scikit-learn's midpoint, `a` if rounding lands on `b`), with `R_L = {x_j ≤ s}` and
//! `R_R = {x_j > s}`. The split maximising the impurity decrease
//!
//! ```text
//! Δ = (w/W) · (I(S) − (w_L/w) I(S_L) − (w_R/w) I(S_R))      (W = total training weight)
//! ```
//!
//! is kept (the first one found on ties, in the node's random feature order); with
//! `GainRatio`, `Δ / SplitInfo` with `SplitInfo = −Σ (w_s/w) log₂(w_s/w)` (C4.5). A node
//! becomes a leaf when it is pure, when a stopping rule holds (`max_depth`, `min_samples_split`,
//! `min_samples_leaf`, `min_weight_fraction_leaf`), when no split is possible or when
//! `Δ < min_impurity_decrease`. Leaves store the weighted class fractions; `predict_proba`
//! returns them and `predict` their argmax (the smallest class on ties).
//!
//! With `max_leaf_nodes` the tree grows best first: the open node of largest `Δ` is split next
//! until there are `max_leaf_nodes` leaves. With `ccp_alpha > 0` the grown tree is pruned to
//! the subtree minimising `R(T) + α|leaves(T)|` ([`crate::Tree::prune`]).
//!
//! At every node the features are visited in a random order drawn from `random_state` and
//! `max_features` of them are searched (more if some were constant), as scikit-learn does; with
//! all features searched, the seed only decides between splits of exactly equal `Δ`.
//!
//! Cost: `O(d · n log n)` per tree level (one sort per node and feature).
//!
//! **Histogram split mode** (`max_bins = Some(b)`, for large data; not in scikit-learn's
//! trees, as LightGBM's): every feature is cut once, before growing, into at most `b` quantile
//! bins ([`crate::BinMapper`]'s thresholds, rounded to the data's type), and a node's
//! candidate thresholds are only the edges between bins. A node's rows are bucketed by their
//! `u8` bin codes (a counting sort, `O(n)` per node and feature instead of a comparison sort)
//! and swept bin by bin with the same criteria; the chosen threshold is the bin edge, so the
//! fitted tree predicts from raw values like any other. With `b` at least the number of
//! distinct values of every feature the candidate splits, hence the partitions of the training
//! rows, are the exact splitter's (the thresholds may differ: a bin edge instead of the node's
//! own midpoint). Needs `splitter = Best`; infinite feature values are an error.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `criterion` | `Gini` | `criterion` (`"gini"`, `"entropy"`, `"log_loss"`) | also `Misclassification`, `GainRatio` |
//! | `splitter` | `Best` | `splitter` | `Best`, `Random` |
//! | `max_depth` | `None` | `max_depth` | `≥ 1` |
//! | `min_samples_split` | `Count(2)` | `min_samples_split` | count `≥ 2`, fraction in `(0, 1]` |
//! | `min_samples_leaf` | `Count(1)` | `min_samples_leaf` | count `≥ 1`, fraction in `(0, 1)` |
//! | `min_weight_fraction_leaf` | 0 | `min_weight_fraction_leaf` | `[0, 0.5]` |
//! | `max_features` | `All` | `max_features` | `Sqrt`, `Log2`, count in `1..=d`, fraction in `(0, 1]` |
//! | `seed` | 0 | `random_state` | any `u64` |
//! | `max_leaf_nodes` | `None` | `max_leaf_nodes` | `≥ 2` |
//! | `min_impurity_decrease` | 0 | `min_impurity_decrease` | `≥ 0` |
//! | `class_weight` | `Uniform` | `class_weight` | not `BalancedSubsample` |
//! | `ccp_alpha` | 0 | `ccp_alpha` | `≥ 0` |
//! | `chi2_alpha` | `None` | — | χ² stop at this level, in `(0, 1)` ([`crate::pruning`]) |
//! | `max_bins` | `None` | — | histogram split mode with `2..=255` bins (see above) |
//!
//! # Errors
//!
//! Invalid hyperparameters ([`Error::InvalidParam`], before the data is looked at), non-finite
//! or empty `X`, a target of the wrong length, invalid sample weights, a `max_features` count
//! above `d`; at predict a different feature count or non-finite input.
//!
//! # References
//!
//! - L. Breiman, J. Friedman, R. Olshen, C. Stone, *Classification and Regression Trees*,
//!   Wadsworth, 1984.
//! - J. R. Quinlan, *C4.5: Programs for Machine Learning*, Morgan Kaufmann, 1993 (gain ratio).
//! - scikit-learn's `DecisionTreeClassifier`.
//!
//! ```
//! use ndlearn_core::{Fit, Predict, PredictProba};
//! use ndlearn_tree::DecisionTreeClassifier;
//!
//! let iris = ndlearn_datasets::iris();
//! let y = iris.y_classes().expect("labels");
//! let fit = DecisionTreeClassifier::default().max_depth(Some(3)).fit(iris.x(), y)?;
//! let acc = fit.predict(iris.x())?.iter().zip(y).filter(|(p, t)| p == t).count();
//! assert!(acc as f64 / 150.0 > 0.97);
//! assert_eq!(fit.get_depth(), 3);
//! let p = fit.predict_proba(iris.x())?;
//! assert!((p.row(0).sum() - 1.0).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::class_weight::{ClassWeight, compute_sample_weight};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn, Predict,
    PredictProba, Result, validate,
};

use crate::builder::{self, Columns, TreeBins};
use crate::common::{Growth, check_x_and_weights};
use crate::criterion::ClassCrit;
use crate::export::{ExportOptions, Leaves};
use crate::params::{ClassCriterion, MaxFeatures, SampleCount, SplitterKind};
use crate::pruning::CcpCv;
use crate::tree::{CcpPath, DecisionPath, Tree};

/// A CART classification tree (scikit-learn's `DecisionTreeClassifier`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct DecisionTreeClassifier {
    /// Impurity criterion (default Gini).
    pub criterion: ClassCriterion,
    /// Best (exact sweep) or random thresholds (default best).
    pub splitter: SplitterKind,
    /// Maximum depth (`None`: until pure or another rule stops).
    pub max_depth: Option<usize>,
    /// Minimum rows to split a node (default 2).
    pub min_samples_split: SampleCount,
    /// Minimum rows in each leaf (default 1).
    pub min_samples_leaf: SampleCount,
    /// Minimum fraction of the total weight in each leaf (default 0).
    pub min_weight_fraction_leaf: f64,
    /// Features searched per split (default all).
    pub max_features: MaxFeatures,
    /// Seed of the per-node feature order (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// Best-first growth to at most this many leaves (default `None`: depth first).
    pub max_leaf_nodes: Option<usize>,
    /// Minimum weighted impurity decrease of a split (default 0).
    pub min_impurity_decrease: f64,
    /// Class weights, multiplied into the sample weights (default uniform).
    pub class_weight: ClassWeight,
    /// Cost-complexity pruning strength (default 0: no pruning).
    pub ccp_alpha: f64,
    /// Histogram split mode: thresholds only between at most this many quantile bins per
    /// feature, `2..=255` (default `None`: exact thresholds; see the [module docs](self)).
    pub max_bins: Option<usize>,
    /// χ² stop: keep a split only if its branch × class table rejects independence at this
    /// level (default `None`: no test; see [`crate::pruning`]).
    pub chi2_alpha: Option<f64>,
}

impl Default for DecisionTreeClassifier {
    fn default() -> Self {
        DecisionTreeClassifier {
            criterion: ClassCriterion::Gini,
            splitter: SplitterKind::Best,
            max_depth: None,
            min_samples_split: SampleCount::Count(2),
            min_samples_leaf: SampleCount::Count(1),
            min_weight_fraction_leaf: 0.0,
            max_features: MaxFeatures::All,
            seed: 0,
            max_leaf_nodes: None,
            min_impurity_decrease: 0.0,
            class_weight: ClassWeight::Uniform,
            ccp_alpha: 0.0,
            max_bins: None,
            chi2_alpha: None,
        }
    }
}

impl DecisionTreeClassifier {
    ndlearn_core::setters! {
        criterion: ClassCriterion,
        splitter: SplitterKind,
        max_depth: Option<usize>,
        min_samples_split: SampleCount,
        min_samples_leaf: SampleCount,
        min_weight_fraction_leaf: f64,
        max_features: MaxFeatures,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
        max_leaf_nodes: Option<usize>,
        min_impurity_decrease: f64,
        class_weight: ClassWeight,
        ccp_alpha: f64,
        max_bins: Option<usize>,
        chi2_alpha: Option<f64>,
    }

    pub(crate) fn growth(&self) -> Growth {
        Growth {
            splitter: self.splitter,
            max_depth: self.max_depth,
            min_samples_split: self.min_samples_split,
            min_samples_leaf: self.min_samples_leaf,
            min_weight_fraction_leaf: self.min_weight_fraction_leaf,
            max_features: self.max_features,
            max_leaf_nodes: self.max_leaf_nodes,
            min_impurity_decrease: self.min_impurity_decrease,
            ccp_alpha: self.ccp_alpha,
            max_bins: self.max_bins,
        }
    }

    /// Grows the unpruned tree on column-major data with combined (sample × class) weights.
    pub(crate) fn grow<F: Float>(
        &self,
        data: &Columns<'_, F>,
        y: &[usize],
        n_classes: usize,
        weights: Option<&[f64]>,
        rng: &mut crate::sk_random::TreeRng,
    ) -> Result<Tree<F>> {
        let total: f64 = weights.map_or(data.n as f64, |w| w.iter().sum());
        let cfg = self.growth().resolve(data.n, data.d, total)?;
        let crit = ClassCrit::new(y, weights, n_classes, self.criterion);
        Ok(builder::build(data, weights, crit, cfg, rng, 1, n_classes))
    }

    /// The combined per-sample weights (sample weights × class weights), `None` if all 1.
    pub(crate) fn combined_weights(
        class_weight: &ClassWeight,
        y: &ArrayRef1<usize>,
        sample_weight: Option<Vec<f64>>,
    ) -> Result<Option<Vec<f64>>> {
        if *class_weight == ClassWeight::Uniform {
            return Ok(sample_weight);
        }
        let cw: Array1<f64> = compute_sample_weight(class_weight, y, None)?;
        Ok(Some(match sample_weight {
            Some(w) => w.iter().zip(cw.iter()).map(|(a, b)| a * b).collect(),
            None => cw.to_vec(),
        }))
    }

    fn fit_tree<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedDecisionTreeClassifier<F>> {
        self.validate()?;
        const CONTEXT: &str = "DecisionTreeClassifier::fit";
        let w = check_x_and_weights(x, y.len(), sample_weight, CONTEXT)?;
        let n_classes = validate::check_labels(y, 1, CONTEXT)?;
        let w = Self::combined_weights(&self.class_weight, y, w)?;
        if let Some(w) = &w
            && w.iter().sum::<f64>() <= 0.0
        {
            return Err(Error::invalid_param(
                "sample_weight",
                "the combined sample and class weights sum to zero",
            ));
        }
        let xt = builder::to_columns(x);
        let bins = TreeBins::fit_if(x, w.as_deref(), self.max_bins)?;
        let data = Columns::column_major(&xt, x.nrows(), x.ncols()).maybe_with_bins(bins.as_ref());
        let ys: Vec<usize> = y.iter().copied().collect();
        let mut rng = crate::sk_random::TreeRng::from_seed(self.seed);
        let mut tree = self.grow(&data, &ys, n_classes, w.as_deref(), &mut rng)?;
        if let Some(alpha) = self.chi2_alpha {
            tree = crate::pruning::chi2_stop(&tree, alpha);
        }
        if self.ccp_alpha > 0.0 {
            tree = tree.prune(self.ccp_alpha);
        }
        Ok(FittedDecisionTreeClassifier {
            params: self.clone(),
            tree,
            n_classes,
        })
    }

    /// The minimal cost-complexity pruning path of the tree grown on `(x, y)` without pruning
    /// (scikit-learn's `cost_complexity_pruning_path`).
    ///
    /// # Errors
    /// As [`FitWeighted::fit_weighted`].
    pub fn cost_complexity_pruning_path<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<CcpPath> {
        let full = self.clone().ccp_alpha(0.0);
        Ok(full
            .fit_tree(x, y, sample_weight)?
            .tree
            .cost_complexity_pruning_path())
    }

    /// The course notes' K-fold choice of `ccp_alpha` (catalog CL-113; [`crate::pruning`]): the
    /// candidates are the full tree's pruning path, each fold grows a tree on the other folds
    /// (shuffled `KFold` from `seed`) and records its held-out misclassification rate at every
    /// candidate; returns the errors and the model refitted with the best alpha.
    ///
    /// # Errors
    /// As [`Fit::fit`]; `n_folds < 2` or above the number of rows.
    pub fn ccp_alpha_cv<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        n_folds: usize,
        seed: u64,
    ) -> Result<(CcpCv, FittedDecisionTreeClassifier<F>)> {
        let full = self.clone().ccp_alpha(0.0);
        let path = full
            .fit_tree(x, y, None)?
            .tree
            .cost_complexity_pruning_path();
        let alphas = path.ccp_alphas;
        let cv = crate::pruning::cv_alpha(alphas.clone(), x.nrows(), n_folds, seed, |tr, te| {
            let xt = x.select(ndarray::Axis(0), tr);
            let yt = y.select(ndarray::Axis(0), tr);
            let grown = full.fit_tree(&xt, &yt, None)?;
            let xe = x.select(ndarray::Axis(0), te);
            Ok(alphas
                .iter()
                .map(|&a| {
                    let pred = argmax_rows(&tree_proba(&grown.tree.prune(a), &xe));
                    let wrong = pred.iter().zip(te).filter(|&(&p, &i)| p != y[i]).count();
                    wrong as f64 / te.len() as f64
                })
                .collect())
        })?;
        let model = self.clone().ccp_alpha(cv.best_alpha).fit_tree(x, y, None)?;
        Ok((cv, model))
    }
}

impl Estimator for DecisionTreeClassifier {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.growth().validate()?;
        if let Some(a) = self.chi2_alpha
            && !(a > 0.0 && a < 1.0)
        {
            return Err(Error::invalid_param(
                "chi2_alpha",
                format!("the significance level must be in (0, 1); got {a}"),
            ));
        }
        self.class_weight.validate_not_subsample()
    }
}

impl<F: Float> Fit<F> for DecisionTreeClassifier {
    type Target = ArrayRef1<usize>;
    type Model = FittedDecisionTreeClassifier<F>;

    /// Grows (and prunes, with `ccp_alpha > 0`) the tree.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_tree(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for DecisionTreeClassifier {
    /// Grows the tree with per-sample weights (multiplied by the class weights). Rows of weight
    /// 0 are left out of the tree.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_tree(x, y, sample_weight)
    }
}

/// A fitted [`DecisionTreeClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
pub struct FittedDecisionTreeClassifier<F> {
    params: DecisionTreeClassifier,
    tree: Tree<F>,
    n_classes: usize,
}

impl<F: Float> FittedDecisionTreeClassifier<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &DecisionTreeClassifier {
        &self.params
    }

    /// The fitted tree (scikit-learn's `tree_`).
    pub fn tree(&self) -> &Tree<F> {
        &self.tree
    }

    /// The number of classes (`max label + 1`).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }

    /// The depth of the tree (scikit-learn's `get_depth()`).
    pub fn get_depth(&self) -> usize {
        self.tree.max_depth()
    }

    /// The number of leaves (scikit-learn's `get_n_leaves()`).
    pub fn get_n_leaves(&self) -> usize {
        self.tree.n_leaves()
    }

    /// The leaf of each row.
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn apply(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        self.tree.apply(x)
    }

    /// The nodes each row visits.
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn decision_path(&self, x: &ArrayRef2<F>) -> Result<DecisionPath> {
        self.tree.decision_path(x)
    }

    /// C4.5's error-based pruning (catalog CL-114, CL-115; [`crate::pruning`]) on the training
    /// rows `(x, y)`: subtree replacement, and subtree raising when `subtree_raising`, with
    /// pessimistic error estimates at `confidence` (C4.5's default 0.25). Node statistics are
    /// recomputed from the rows (unweighted).
    ///
    /// # Errors
    /// `confidence` outside `(0, 1)`; data of another width, labels above the model's classes.
    pub fn pruned_error_based(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        confidence: f64,
        subtree_raising: bool,
    ) -> Result<Self> {
        let ys: Vec<usize> = y.iter().copied().collect();
        let tree = crate::pruning::error_based(
            &self.tree,
            x,
            &ys,
            self.n_classes,
            self.params.criterion,
            confidence,
            subtree_raising,
        )?;
        Ok(self.with_tree(tree))
    }

    /// MDL pruning (catalog CL-114; SLIQ's encoding, [`crate::pruning`]) on the training rows.
    ///
    /// # Errors
    /// Data of another width, labels above the model's classes.
    pub fn pruned_mdl(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self> {
        let ys: Vec<usize> = y.iter().copied().collect();
        let tree = crate::pruning::mdl(&self.tree, x, &ys, self.n_classes, self.params.criterion)?;
        Ok(self.with_tree(tree))
    }

    /// The χ² stop applied to this tree at level `alpha` (as the `chi2_alpha` hyperparameter).
    ///
    /// # Errors
    /// `alpha` outside `(0, 1)`.
    pub fn pruned_chi2(&self, alpha: f64) -> Result<Self> {
        let params = self.params.clone().chi2_alpha(Some(alpha));
        params.validate()?;
        Ok(FittedDecisionTreeClassifier {
            params,
            tree: crate::pruning::chi2_stop(&self.tree, alpha),
            n_classes: self.n_classes,
        })
    }

    /// The tree as text in scikit-learn's `export_text` format ([`crate::export`]).
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn export_text(&self, opts: &ExportOptions) -> Result<String> {
        crate::export::export_text(&self.tree, Leaves::Classes, opts)
    }

    /// The tree in Graphviz dot ([`crate::export`]); the impurity is named after the criterion.
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn export_graphviz(&self, opts: &ExportOptions) -> Result<String> {
        crate::export::export_graphviz(&self.tree, Leaves::Classes, &self.named(opts))
    }

    /// The tree as an SVG picture ([`crate::export`]).
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn to_svg(&self, opts: &ExportOptions) -> Result<String> {
        crate::export::to_svg(&self.tree, Leaves::Classes, &self.named(opts))
    }

    fn named(&self, opts: &ExportOptions) -> ExportOptions {
        let mut o = opts.clone();
        if o.impurity_name == ExportOptions::default().impurity_name {
            o.impurity_name = match self.params.criterion {
                ClassCriterion::Gini => "gini",
                ClassCriterion::Entropy | ClassCriterion::GainRatio => "entropy",
                ClassCriterion::Misclassification => "misclassification",
            }
            .into();
        }
        o
    }

    fn with_tree(&self, tree: Tree<F>) -> Self {
        FittedDecisionTreeClassifier {
            params: self.params.clone(),
            tree,
            n_classes: self.n_classes,
        }
    }

    /// This model pruned with a larger `ccp_alpha` (no refit: the grown tree is pruned further).
    pub fn pruned(&self, ccp_alpha: f64) -> Self {
        FittedDecisionTreeClassifier {
            params: self
                .params
                .clone()
                .ccp_alpha(ccp_alpha.max(self.params.ccp_alpha)),
            tree: self.tree.prune(ccp_alpha),
            n_classes: self.n_classes,
        }
    }
}

/// Class fractions of the leaves reached by `x`, each row divided by its sum (as
/// scikit-learn's `predict_proba`).
pub(crate) fn tree_proba<F: Float>(tree: &Tree<F>, x: &ArrayRef2<F>) -> Array2<f64> {
    let mut p = tree.predict_values_unchecked(x);
    for mut row in p.rows_mut() {
        let s: f64 = row.sum();
        if s > 0.0 {
            row.mapv_inplace(|v| v / s);
        }
    }
    p
}

/// The first index of the largest entry of each row.
pub(crate) fn argmax_rows<F: Float>(p: &Array2<F>) -> Array1<usize> {
    p.rows()
        .into_iter()
        .map(|r| crate::common::argmax(r.iter().copied()))
        .collect()
}

impl<F: Float> PredictProba<F> for FittedDecisionTreeClassifier<F> {
    /// The weighted class fractions of each row's leaf.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        validate::check_predict_input(
            x,
            self.tree.n_features(),
            "DecisionTreeClassifier::predict_proba",
        )?;
        Ok(tree_proba(&self.tree, x).mapv(F::cast))
    }
}

impl<F: Float> Predict<F> for FittedDecisionTreeClassifier<F> {
    type Output = Array1<usize>;

    /// The most frequent (weighted) class of each row's leaf.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        validate::check_predict_input(
            x,
            self.tree.n_features(),
            "DecisionTreeClassifier::predict",
        )?;
        Ok(argmax_rows(&tree_proba(&self.tree, x)))
    }
}

impl<F: Float> NFeaturesIn for FittedDecisionTreeClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.tree.n_features()
    }
}

impl<F: Float> FeatureImportances<F> for FittedDecisionTreeClassifier<F> {
    /// Normalised impurity-decrease importances ([`Tree::feature_importances`]).
    fn feature_importances(&self) -> Array1<F> {
        self.tree.feature_importances(true).mapv(F::cast)
    }
}

impl<F: Float> CheckModel for FittedDecisionTreeClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedDecisionTreeClassifier");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 1)?;
        self.tree
            .check_part(&c, "tree", self.tree.n_features(), 1, self.n_classes)?;
        c.that(self.tree.value().iter().all(|v| *v >= 0.0), || {
            "`tree` holds a negative class fraction".into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn separates_a_hand_made_problem() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y = array![0usize, 0, 1, 1, 0];
        let m = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        // scikit-learn: thresholds [1.5, −2, 3.5, −2, −2], root value [0.6, 0.4].
        let t = m.tree();
        assert_eq!(t.threshold(), &[1.5, -2.0, 3.5, -2.0, -2.0]);
        assert_eq!(t.feature(), &[0, -2, 0, -2, -2]);
        assert_eq!(t.node_value(0), &[0.6, 0.4]);
        assert_eq!(m.predict(&x).expect("predict"), y);
        assert_eq!(m.get_n_leaves(), 3);
        assert_eq!(m.get_depth(), 2);
    }

    #[test]
    fn histogram_mode_with_a_bin_per_value_is_the_exact_tree() {
        // iris has at most 43 distinct values per feature: with 255 bins every value has its
        // own bin, so the candidate splits of every node are the exact splitter's and the
        // trees partition the rows alike. Only the thresholds may differ: the exact splitter
        // takes the midpoint of the node's own neighbouring values, the histogram the global
        // bin edge just above the node's left values (both separate the node's rows the same).
        let data = ndlearn_datasets::iris();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let exact = DecisionTreeClassifier::default().fit(x, y).expect("fit");
        let hist = DecisionTreeClassifier::default()
            .max_bins(Some(255))
            .fit(x, y)
            .expect("fit");
        assert_eq!(hist.tree().feature(), exact.tree().feature());
        assert_eq!(hist.tree().n_node_samples(), exact.tree().n_node_samples());
        assert_eq!(
            hist.apply(x).expect("apply"),
            exact.apply(x).expect("apply")
        );
        assert_eq!(
            hist.predict(x).expect("predict"),
            exact.predict(x).expect("ok")
        );
    }

    #[test]
    fn histogram_mode_with_few_bins_generalises_as_the_exact_tree() {
        // breast cancer: 30 continuous features with up to 569 distinct values; 16 bins. Fit
        // on 400 rows, score the other 169: within 4 points of the exact tree (both ~0.9).
        let data = ndlearn_datasets::breast_cancer();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let (train, test): (Vec<usize>, Vec<usize>) = (0..x.nrows()).partition(|i| i % 10 < 7);
        let pick = |rows: &[usize]| {
            (
                x.select(ndarray::Axis(0), rows),
                y.select(ndarray::Axis(0), rows),
            )
        };
        let ((xa, ya), (xb, yb)) = (pick(&train), pick(&test));
        let acc = |m: &FittedDecisionTreeClassifier<f64>| {
            let p = m.predict(&xb).expect("predict");
            p.iter().zip(&yb).filter(|(a, b)| a == b).count() as f64 / yb.len() as f64
        };
        let exact = DecisionTreeClassifier::default()
            .fit(&xa, &ya)
            .expect("fit");
        let hist = DecisionTreeClassifier::default()
            .max_bins(Some(16))
            .fit(&xa, &ya)
            .expect("fit");
        let (ae, ah) = (acc(&exact), acc(&hist));
        assert!(
            ah > 0.85 && (ae - ah).abs() < 0.04,
            "exact {ae}, histogram {ah}"
        );
        // Every threshold of a feature is one of at most 15 values (its bin edges).
        for f in 0..x.ncols() {
            let mut t: Vec<f64> = (0..hist.tree().node_count())
                .filter(|&i| hist.tree().feature()[i] == f as i64)
                .map(|i| hist.tree().threshold()[i])
                .collect();
            t.sort_by(f64::total_cmp);
            t.dedup();
            assert!(t.len() <= 15, "feature {f}: {} thresholds", t.len());
        }
    }

    #[test]
    fn histogram_mode_settings_are_checked() {
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![0usize, 1, 1];
        for bad in [
            DecisionTreeClassifier::default().max_bins(Some(1)),
            DecisionTreeClassifier::default().max_bins(Some(256)),
            DecisionTreeClassifier::default()
                .max_bins(Some(32))
                .splitter(SplitterKind::Random),
        ] {
            let err = bad.fit(&x, &y);
            assert!(matches!(err, Err(Error::InvalidParam { .. })), "{err:?}");
        }
        let inf = array![[0.0], [f64::INFINITY], [2.0]];
        let err = DecisionTreeClassifier::default()
            .max_bins(Some(8))
            .fit(&inf, &y);
        assert!(err.is_err(), "{err:?}");
    }

    #[test]
    fn decision_stump_is_the_best_single_threshold() {
        // A stump (max_depth = 1) minimises the weighted Gini of the two sides over every
        // feature and every midpoint (checked by brute force).
        let data = ndlearn_datasets::wine();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let stump = DecisionTreeClassifier::default()
            .max_depth(Some(1))
            .fit(x, y)
            .expect("fit");
        let t = stump.tree();
        assert_eq!((t.node_count(), t.n_leaves(), stump.get_depth()), (3, 2, 1));
        let k = stump.n_classes();
        let split_gini = |f: usize, s: f64| {
            let (mut l, mut r) = (vec![0.0; k], vec![0.0; k]);
            for (row, &c) in x.rows().into_iter().zip(y) {
                if row[f] <= s {
                    l[c] += 1.0
                } else {
                    r[c] += 1.0
                }
            }
            let (nl, nr): (f64, f64) = (l.iter().sum(), r.iter().sum());
            nl * crate::impurity::gini(&l) + nr * crate::impurity::gini(&r)
        };
        let mut best = f64::INFINITY;
        for f in 0..x.ncols() {
            let mut v: Vec<f64> = x.column(f).to_vec();
            v.sort_by(f64::total_cmp);
            v.dedup();
            for w in v.windows(2) {
                best = best.min(split_gini(f, w[0] / 2.0 + w[1] / 2.0));
            }
        }
        let got = split_gini(t.feature()[0] as usize, t.threshold()[0]);
        assert!((got - best).abs() < 1e-9, "stump {got} vs best {best}");
    }

    #[test]
    fn one_class_and_one_row() {
        let x = array![[0.0, 1.0], [1.0, 2.0], [2.0, 0.5]];
        let y = array![1usize, 1, 1];
        let m = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert_eq!(m.tree().node_count(), 1);
        assert_eq!(m.predict(&x).expect("predict").to_vec(), vec![1, 1, 1]);
        let m = DecisionTreeClassifier::default()
            .fit(&array![[3.0]], &array![0usize])
            .expect("fit");
        assert_eq!(m.predict(&array![[9.0]]).expect("predict")[0], 0);
        assert_eq!(m.feature_importances().to_vec(), vec![0.0]);
    }

    #[test]
    fn invalid_hyperparameters_are_typed_errors() {
        let x = array![[0.0], [1.0]];
        let y = array![0usize, 1];
        for bad in [
            DecisionTreeClassifier::default().max_depth(Some(0)),
            DecisionTreeClassifier::default().min_samples_split(SampleCount::Count(1)),
            DecisionTreeClassifier::default().min_samples_leaf(SampleCount::Fraction(1.0)),
            DecisionTreeClassifier::default().min_weight_fraction_leaf(0.6),
            DecisionTreeClassifier::default().max_features(MaxFeatures::Fraction(0.0)),
            DecisionTreeClassifier::default().max_leaf_nodes(Some(1)),
            DecisionTreeClassifier::default().min_impurity_decrease(-1.0),
            DecisionTreeClassifier::default().ccp_alpha(f64::NAN),
            DecisionTreeClassifier::default().class_weight(ClassWeight::BalancedSubsample),
            DecisionTreeClassifier::default().max_features(MaxFeatures::Count(2)),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        let nan = array![[f64::NAN], [1.0]];
        assert!(matches!(
            DecisionTreeClassifier::default().fit(&nan, &y),
            Err(Error::NonFinite { .. })
        ));
        let m = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert!(matches!(
            m.predict(&array![[0.0, 1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn weights_equal_repeated_rows() {
        let x = array![
            [0.0, 3.0],
            [1.0, 1.0],
            [2.0, 2.5],
            [3.0, 0.0],
            [4.0, 4.0],
            [5.0, 1.5]
        ];
        let y = array![0usize, 1, 0, 1, 1, 0];
        let w = array![1.0, 2.0, 1.0, 3.0, 1.0, 2.0];
        let a = DecisionTreeClassifier::default()
            .fit_weighted(&x, &y, Some(&w))
            .expect("fit");
        let rows: Vec<usize> = (0..6)
            .flat_map(|i| std::iter::repeat_n(i, w[i] as usize))
            .collect();
        let xd = x.select(ndarray::Axis(0), &rows);
        let yd = y.select(ndarray::Axis(0), &rows);
        let b = DecisionTreeClassifier::default()
            .fit(&xd, &yd)
            .expect("fit");
        assert_eq!(a.tree().threshold(), b.tree().threshold());
        assert_eq!(a.tree().feature(), b.tree().feature());
        assert_eq!(a.tree().value(), b.tree().value());
        // Balanced class weights equal the weights that balance the classes.
        let bal = DecisionTreeClassifier::default()
            .class_weight(ClassWeight::Balanced)
            .max_depth(Some(1))
            .fit(&x, &y)
            .expect("fit");
        let root = bal.tree().node_value(0);
        assert!((root[0] - 0.5).abs() < 1e-15);
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_a_broken_tree() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y = array![0usize, 0, 1, 1, 0];
        let m = DecisionTreeClassifier::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.tree.make_leaf(0); // its two children left without a parent
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.n_classes = 3; // value rows of 2 classes
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
