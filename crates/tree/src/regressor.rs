//! CART regression tree ([`DecisionTreeRegressor`]), single- or multi-output.
//!
//! # Algorithm
//!
//! Recursive binary splitting with the sorted sweep of [`crate::DecisionTreeClassifier`]; a
//! node of rows `S` (weights `wᵢ`, total `w`, `k` outputs) has impurity
//!
//! ```text
//! squared_error / friedman_mse:  I(S) = (1/k) Σ_o [ (1/w) Σᵢ wᵢ yᵢₒ² − ȳₒ² ]       (ȳₒ weighted mean)
//! absolute_error:                I(S) = (1/(k w)) Σ_o Σᵢ wᵢ |yᵢₒ − medₒ|             (weighted median)
//! poisson:                       I(S) = (1/(k w)) Σ_o Σᵢ wᵢ yᵢₒ ln(yᵢₒ / ȳₒ)          (half deviance)
//! ```
//!
//! and the split maximising `Δ = (w/W)(I(S) − (w_L/w)I(S_L) − (w_R/w)I(S_R))` is chosen
//! (the RSS criterion of CART: minimising `w_L I(S_L) + w_R I(S_R)`). `friedman_mse` ranks and
//! scores splits by Friedman's `w_L w_R (ȳ_L − ȳ_R)² / w` instead. Leaves predict the mean
//! (median for `absolute_error`). The weighted median is scikit-learn's: the first value whose
//! cumulative weight reaches half the total, averaged with the next one on an exact half.
//! Stopping rules, best-first growth, feature sampling, pruning and the histogram split mode
//! (`max_bins`) are the classifier's.
//!
//! # Hyperparameters
//!
//! As [`crate::DecisionTreeClassifier`] without `class_weight`; `criterion` is a
//! [`RegCriterion`] (`"squared_error"` default, `"friedman_mse"`, `"absolute_error"`,
//! `"poisson"`).
//!
//! # Errors
//!
//! As the classifier; a non-finite target; negative targets or a zero target sum with
//! `poisson`; [`Predict::predict`] on a model of several outputs (use
//! [`FittedDecisionTreeRegressor::predict_multi`]).
//!
//! # References
//!
//! - L. Breiman, J. Friedman, R. Olshen, C. Stone, *Classification and Regression Trees*,
//!   Wadsworth, 1984.
//! - J. H. Friedman, "Greedy function approximation: a gradient boosting machine", Annals of
//!   Statistics 29(5), 2001 (the improvement score of `friedman_mse`).
//! - scikit-learn's `DecisionTreeRegressor`.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::DecisionTreeRegressor;
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("target");
//! let fit = DecisionTreeRegressor::default().max_leaf_nodes(Some(8)).fit(data.x(), y)?;
//! assert_eq!(fit.get_n_leaves(), 8);
//! let pred = fit.predict(data.x())?;
//! let mean = y.mean().unwrap_or(0.0);
//! let r2 = 1.0 - (&pred - y).mapv(|r| r * r).sum() / y.mapv(|v| (v - mean).powi(2)).sum();
//! assert!(r2 > 0.5);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, FeatureImportances, Fit, FitMultiOutput, FitWeighted, Float, NFeaturesIn,
    Predict, PredictMultiOutput, Result, validate,
};

use crate::builder::{self, Columns, TreeBins};
use crate::common::{Growth, check_x_and_weights};
use crate::criterion::{MaeCrit, RegCrit};
use crate::params::{MaxFeatures, RegCriterion, SampleCount, SplitterKind};
use crate::tree::{CcpPath, DecisionPath, Tree};

/// A CART regression tree (scikit-learn's `DecisionTreeRegressor`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct DecisionTreeRegressor {
    /// Impurity criterion (default squared error).
    pub criterion: RegCriterion,
    /// Best (exact sweep) or random thresholds (default best).
    pub splitter: SplitterKind,
    /// Maximum depth (`None`: unlimited).
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
    /// Best-first growth to at most this many leaves (default `None`).
    pub max_leaf_nodes: Option<usize>,
    /// Minimum weighted impurity decrease of a split (default 0).
    pub min_impurity_decrease: f64,
    /// Cost-complexity pruning strength (default 0).
    pub ccp_alpha: f64,
    /// Histogram split mode: thresholds only between at most this many quantile bins per
    /// feature, `2..=255` (default `None`: exact thresholds; see the [module docs](self)).
    pub max_bins: Option<usize>,
}

impl Default for DecisionTreeRegressor {
    fn default() -> Self {
        DecisionTreeRegressor {
            criterion: RegCriterion::SquaredError,
            splitter: SplitterKind::Best,
            max_depth: None,
            min_samples_split: SampleCount::Count(2),
            min_samples_leaf: SampleCount::Count(1),
            min_weight_fraction_leaf: 0.0,
            max_features: MaxFeatures::All,
            seed: 0,
            max_leaf_nodes: None,
            min_impurity_decrease: 0.0,
            ccp_alpha: 0.0,
            max_bins: None,
        }
    }
}

impl DecisionTreeRegressor {
    ndlearn_core::setters! {
        criterion: RegCriterion,
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
        ccp_alpha: f64,
        max_bins: Option<usize>,
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

    /// Grows the unpruned tree on column-major data; `y` is row-major `n × k`.
    pub(crate) fn grow<F: Float>(
        &self,
        data: &Columns<'_, F>,
        y: &[f64],
        k: usize,
        weights: Option<&[f64]>,
        rng: &mut crate::sk_random::TreeRng,
    ) -> Result<Tree<F>> {
        let total: f64 = weights.map_or(data.n as f64, |w| w.iter().sum());
        let cfg = self.growth().resolve(data.n, data.d, total)?;
        Ok(match self.criterion {
            RegCriterion::AbsoluteError => {
                builder::build(data, weights, MaeCrit::new(y, k, weights), cfg, rng, k, 1)
            }
            kind => builder::build(
                data,
                weights,
                RegCrit::new(y, k, weights, kind),
                cfg,
                rng,
                k,
                1,
            ),
        })
    }

    /// Checks a Poisson target: no negative value, positive sum.
    pub(crate) fn check_target(&self, y: &[f64]) -> Result<()> {
        if self.criterion == RegCriterion::Poisson {
            if y.iter().any(|&v| v < 0.0) {
                return Err(Error::invalid_param(
                    "criterion",
                    "poisson needs non-negative targets",
                ));
            }
            if y.iter().sum::<f64>() <= 0.0 {
                return Err(Error::invalid_param(
                    "criterion",
                    "poisson needs a target with a positive sum",
                ));
            }
        }
        Ok(())
    }

    fn fit_tree<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: ArrayView2<'_, F>,
        sample_weight: Option<&ArrayRef1<F>>,
        multi: bool,
    ) -> Result<FittedDecisionTreeRegressor<F>> {
        self.validate()?;
        const CONTEXT: &str = "DecisionTreeRegressor::fit";
        let w = check_x_and_weights(x, y.nrows(), sample_weight, CONTEXT)?;
        if y.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: CONTEXT,
                expected: "at least one target column".into(),
                found: "0 columns".into(),
            });
        }
        validate::check_finite_2d(&y, "y")?;
        let k = y.ncols();
        let ys: Vec<f64> = y.iter().map(|v| v.to_f64_lossless()).collect();
        self.check_target(&ys)?;
        let xt = builder::to_columns(x);
        let bins = TreeBins::fit_if(x, w.as_deref(), self.max_bins)?;
        let data = Columns::column_major(&xt, x.nrows(), x.ncols()).maybe_with_bins(bins.as_ref());
        let mut rng = crate::sk_random::TreeRng::from_seed(self.seed);
        let mut tree = self.grow(&data, &ys, k, w.as_deref(), &mut rng)?;
        if self.ccp_alpha > 0.0 {
            tree = tree.prune(self.ccp_alpha);
        }
        Ok(FittedDecisionTreeRegressor {
            params: self.clone(),
            tree,
            multi_output: multi,
        })
    }

    /// Fits every column of `y` (`n × k`) jointly: one tree whose impurity averages the
    /// outputs' and whose leaves hold one value per output.
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedDecisionTreeRegressor<F>> {
        self.fit_tree(x, y.view(), None, true)
    }

    /// Multi-output fit with per-sample weights.
    ///
    /// # Errors
    /// As [`FitWeighted::fit_weighted`].
    pub fn fit_multi_weighted<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedDecisionTreeRegressor<F>> {
        self.fit_tree(x, y.view(), sample_weight, true)
    }

    /// The minimal cost-complexity pruning path of the tree grown on `(x, y)` without pruning
    /// (scikit-learn's `cost_complexity_pruning_path`).
    ///
    /// # Errors
    /// As [`FitWeighted::fit_weighted`].
    pub fn cost_complexity_pruning_path<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<CcpPath> {
        let full = self.clone().ccp_alpha(0.0);
        let y2 = y.view().insert_axis(ndarray::Axis(1));
        Ok(full
            .fit_tree(x, y2, sample_weight, false)?
            .tree
            .cost_complexity_pruning_path())
    }

    /// The course notes' K-fold choice of `ccp_alpha` (catalog CL-113; [`crate::pruning`]): the
    /// candidates are the full tree's pruning path, each fold grows a tree on the other folds
    /// (shuffled `KFold` from `seed`) and records its held-out mean squared error at every
    /// candidate; returns the errors and the model refitted with the best alpha.
    ///
    /// # Errors
    /// As [`Fit::fit`]; `n_folds < 2` or above the number of rows.
    pub fn ccp_alpha_cv<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        n_folds: usize,
        seed: u64,
    ) -> Result<(crate::pruning::CcpCv, FittedDecisionTreeRegressor<F>)> {
        let full = self.clone().ccp_alpha(0.0);
        let col = |yv: &ArrayRef1<F>| yv.to_owned().insert_axis(ndarray::Axis(1));
        let alphas = full
            .fit_tree(x, col(y).view(), None, false)?
            .tree
            .cost_complexity_pruning_path()
            .ccp_alphas;
        let cv = crate::pruning::cv_alpha(alphas.clone(), x.nrows(), n_folds, seed, |tr, te| {
            let xt = x.select(ndarray::Axis(0), tr);
            let yt = y.select(ndarray::Axis(0), tr);
            let grown = full.fit_tree(&xt, col(&yt).view(), None, false)?;
            let xe = x.select(ndarray::Axis(0), te);
            Ok(alphas
                .iter()
                .map(|&a| {
                    let p = grown.tree.prune(a).predict_values_unchecked(&xe);
                    let se: f64 = te
                        .iter()
                        .enumerate()
                        .map(|(r, &i)| (p[[r, 0]] - y[i].to_f64_lossless()).powi(2))
                        .sum();
                    se / te.len() as f64
                })
                .collect())
        })?;
        let model =
            self.clone()
                .ccp_alpha(cv.best_alpha)
                .fit_tree(x, col(y).view(), None, false)?;
        Ok((cv, model))
    }
}

impl Estimator for DecisionTreeRegressor {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        self.growth().validate()
    }
}

impl<F: Float> Fit<F> for DecisionTreeRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedDecisionTreeRegressor<F>;

    /// Grows (and prunes, with `ccp_alpha > 0`) the tree.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_tree(x, y.view().insert_axis(ndarray::Axis(1)), None, false)
    }
}

impl<F: Float> FitWeighted<F> for DecisionTreeRegressor {
    /// Grows the tree with per-sample weights; rows of weight 0 are left out.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_tree(
            x,
            y.view().insert_axis(ndarray::Axis(1)),
            sample_weight,
            false,
        )
    }
}

impl<F: Float> FitMultiOutput<F> for DecisionTreeRegressor {
    /// See [`DecisionTreeRegressor::fit_multi`].
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Self::Model> {
        DecisionTreeRegressor::fit_multi(self, x, y)
    }
}

/// A fitted [`DecisionTreeRegressor`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "F: serde::Serialize",
        deserialize = "F: serde::Deserialize<'de>"
    ))
)]
pub struct FittedDecisionTreeRegressor<F> {
    params: DecisionTreeRegressor,
    tree: Tree<F>,
    multi_output: bool,
}

impl<F: Float> FittedDecisionTreeRegressor<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &DecisionTreeRegressor {
        &self.params
    }

    /// The fitted tree (scikit-learn's `tree_`).
    pub fn tree(&self) -> &Tree<F> {
        &self.tree
    }

    /// The depth of the tree.
    pub fn get_depth(&self) -> usize {
        self.tree.max_depth()
    }

    /// The number of leaves.
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

    /// Predictions `n × k` for any model.
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        Ok(self.tree.predict_values(x)?.mapv(F::cast))
    }

    /// The tree as text in scikit-learn's `export_text` format ([`crate::export`]).
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn export_text(&self, opts: &crate::export::ExportOptions) -> Result<String> {
        crate::export::export_text(&self.tree, crate::export::Leaves::Values, opts)
    }

    /// The tree in Graphviz dot ([`crate::export`]).
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn export_graphviz(&self, opts: &crate::export::ExportOptions) -> Result<String> {
        crate::export::export_graphviz(&self.tree, crate::export::Leaves::Values, opts)
    }

    /// The tree as an SVG picture ([`crate::export`]).
    ///
    /// # Errors
    /// Names of the wrong length.
    pub fn to_svg(&self, opts: &crate::export::ExportOptions) -> Result<String> {
        crate::export::to_svg(&self.tree, crate::export::Leaves::Values, opts)
    }

    /// This model pruned with a larger `ccp_alpha` (no refit).
    pub fn pruned(&self, ccp_alpha: f64) -> Self {
        FittedDecisionTreeRegressor {
            params: self
                .params
                .clone()
                .ccp_alpha(ccp_alpha.max(self.params.ccp_alpha)),
            tree: self.tree.prune(ccp_alpha),
            multi_output: self.multi_output,
        }
    }
}

impl<F: Float> Predict<F> for FittedDecisionTreeRegressor<F> {
    type Output = Array1<F>;

    /// The leaf value of each row (single-output models).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        if self.tree.n_outputs() != 1 {
            return Err(Error::invalid_param(
                "n_outputs",
                "the model has several outputs; use predict_multi",
            ));
        }
        Ok(self.predict_multi(x)?.column(0).to_owned())
    }
}

impl<F: Float> PredictMultiOutput<F> for FittedDecisionTreeRegressor<F> {
    fn n_outputs(&self) -> usize {
        self.tree.n_outputs()
    }

    fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        FittedDecisionTreeRegressor::predict_multi(self, x)
    }
}

impl<F: Float> NFeaturesIn for FittedDecisionTreeRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.tree.n_features()
    }
}

impl<F: Float> FeatureImportances<F> for FittedDecisionTreeRegressor<F> {
    /// Normalised impurity-decrease importances ([`Tree::feature_importances`]).
    fn feature_importances(&self) -> Array1<F> {
        self.tree.feature_importances(true).mapv(F::cast)
    }
}

impl<F: Float> CheckModel for FittedDecisionTreeRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedDecisionTreeRegressor");
        c.params(&self.params)?;
        let k = self.tree.n_outputs();
        c.that(self.multi_output || k == 1, || {
            format!("a single-output model with {k} outputs")
        })?;
        self.tree
            .check_part(&c, "tree", self.tree.n_features(), k, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn histogram_mode_with_a_bin_per_value_partitions_as_the_exact_tree() {
        // 400 rows, three independent features of at most 40 distinct values each, a smooth
        // target with noise: with 255 bins the candidate splits are the exact splitter's
        // (depth 4, leaves of 10 rows or more: no two features cut a node into the same rows).
        let mut next = crate::builder::tests::uniform_stream(7);
        let x = ndarray::Array2::from_shape_fn((400, 3), |_| (next() * 40.0).floor() / 4.0);
        let y: Array1<f64> = x
            .rows()
            .into_iter()
            .map(|r| r[0] * 1.37 + (r[1] - 5.0).powi(2) * 0.31 - r[2] * 0.57 + next())
            .collect();
        for c in [RegCriterion::SquaredError, RegCriterion::AbsoluteError] {
            let est = DecisionTreeRegressor::default()
                .criterion(c)
                .max_depth(Some(4))
                .min_samples_leaf(SampleCount::Count(10));
            let exact = est.fit(&x, &y).expect("fit");
            let hist = est.clone().max_bins(Some(255)).fit(&x, &y).expect("fit");
            assert_eq!(hist.tree().n_node_samples(), exact.tree().n_node_samples());
            // Same leaves; their means summed in another row order (last bits).
            let (ph, pe) = (
                hist.predict(&x).expect("ok"),
                exact.predict(&x).expect("ok"),
            );
            assert!(
                ph.iter().zip(&pe).all(|(a, b)| (a - b).abs() <= 1e-12),
                "{c:?}"
            );
            // Few bins: a coarser tree, still a good fit of the training rows.
            let coarse = est.clone().max_bins(Some(4)).fit(&x, &y).expect("fit");
            let p = coarse.predict(&x).expect("ok");
            let mean = y.mean().expect("rows");
            let r2 = 1.0 - (&p - &y).mapv(|e| e * e).sum() / y.mapv(|v| (v - mean).powi(2)).sum();
            assert!(r2 > 0.5, "{c:?}: R² {r2}");
        }
    }

    #[test]
    fn step_function_is_recovered() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
        let y = array![1.0, 1.0, 1.0, 5.0, 5.0, 5.0];
        for c in [
            RegCriterion::SquaredError,
            RegCriterion::FriedmanMse,
            RegCriterion::AbsoluteError,
            RegCriterion::Poisson,
        ] {
            let m = DecisionTreeRegressor::default()
                .criterion(c)
                .fit(&x, &y)
                .expect("fit");
            assert_eq!(m.tree().node_count(), 3, "{c:?}");
            assert_eq!(m.tree().threshold()[0], 2.5, "{c:?}");
            assert_eq!(m.predict(&x).expect("predict"), y, "{c:?}");
        }
    }

    #[test]
    fn multi_output_and_errors() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![[1.0, 10.0], [1.0, 10.0], [3.0, -10.0], [3.0, -10.0]];
        let m = DecisionTreeRegressor::default()
            .fit_multi(&x, &y)
            .expect("fit");
        assert_eq!(m.predict_multi(&x).expect("predict"), y);
        assert!(m.predict(&x).is_err());
        let neg = array![1.0, -1.0, 2.0, 0.0];
        assert!(matches!(
            DecisionTreeRegressor::default()
                .criterion(RegCriterion::Poisson)
                .fit(&x, &neg),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            DecisionTreeRegressor::default().fit(&x, &array![1.0, f64::INFINITY, 0.0, 1.0]),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn constant_features_give_a_leaf() {
        let x = array![[1.0, 2.0], [1.0, 2.0], [1.0, 2.0]];
        let y = array![1.0, 2.0, 6.0];
        let m = DecisionTreeRegressor::default().fit(&x, &y).expect("fit");
        assert_eq!(m.tree().node_count(), 1);
        assert_eq!(m.predict(&x).expect("predict").to_vec(), vec![3.0; 3]);
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_a_broken_tree() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
        let y = array![1.0, 1.0, 2.0, 5.0, 5.0, 7.0];
        let m = DecisionTreeRegressor::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        let multi = DecisionTreeRegressor::default()
            .fit_multi(
                &x,
                &array![
                    [1.0, 2.0],
                    [1.0, 2.0],
                    [3.0, 1.0],
                    [3.0, 1.0],
                    [0.0, 0.0],
                    [0.0, 1.0]
                ],
            )
            .expect("fit");
        assert!(multi.check_model().is_ok());
        let mut bad = m.clone();
        bad.tree.set_first_value(1, f64::NAN);
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.multi_output = false;
        bad.tree = multi.tree.clone(); // two outputs in a single-output model
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
