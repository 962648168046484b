//! The base learners of [`AdaBoostClassifier`](crate::AdaBoostClassifier) and
//! [`AdaBoostRegressor`](crate::AdaBoostRegressor): decision trees, or any other estimator
//! wrapped in [`AnyBase`].
//!
//! AdaBoost only needs of its base learner a fit with weights (classifier: reweighting, catalog
//! CL-124) or a fit on a resampled table (regressor: AdaBoost.R2), and a prediction. The two
//! traits here say that, with one extra: data prepared once per ensemble fit and shared by its
//! rounds. The decision trees use it to keep one column-major copy of `X` for all rounds (the
//! split sweeps read columns), and draw their seed per round from scikit-learn's stream, so a
//! tree-based ensemble is scikit-learn's tree for tree. Any other estimator goes through
//! [`AnyBase`]:
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::{AdaBoostClassifier, AnyBase};
//! use ndlearn_bayes::GaussianNB;
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! // SAMME over Gaussian naive Bayes: each round refits the naive Bayes on the current weights.
//! let fit = AdaBoostClassifier::new(AnyBase(GaussianNB::default()))
//!     .n_estimators(10)
//!     .fit(data.x(), y)?;
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(p, t)| p == t).count();
//! assert!(acc as f64 / y.len() as f64 > 0.9);
//! assert!(!fit.estimators().is_empty());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! The traits are public so that a crate's own learner can be boosted without the wrapper's
//! conversions; their methods are called by the ensembles only, after the ensemble has checked
//! `X`, `y` and the weights.

use ndarray::{Array1, ArrayRef1, ArrayRef2};
use ndlearn_core::{Estimator, Fit, FitWeighted, Float, Predict, Result};

use crate::builder::{self, Columns, TreeBins};
use crate::classifier::{DecisionTreeClassifier, argmax_rows, tree_proba};
use crate::regressor::DecisionTreeRegressor;
use crate::sk_random::TreeRng;
use crate::tree::Tree;

/// Any estimator as the base learner of AdaBoost: `FitWeighted` classifiers for
/// [`AdaBoostClassifier`](crate::AdaBoostClassifier), `Fit` regressors for
/// [`AdaBoostRegressor`](crate::AdaBoostRegressor) (AdaBoost.R2 fits every round unweighted on a
/// weighted resample). The estimator is fitted as given every round: AdaBoost draws no seed for
/// it (scikit-learn draws one only for a base with a `random_state` parameter).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(transparent))]
pub struct AnyBase<E>(pub E);

impl<E: Estimator> Estimator for AnyBase<E> {
    /// The wrapped estimator's check.
    ///
    /// # Errors
    /// As the wrapped estimator's.
    fn validate(&self) -> Result<()> {
        self.0.validate()
    }
}

/// The base an AdaBoost ensemble starts from when none is given: scikit-learn's (a stump for
/// the classifier, a depth-3 tree for the regressor), or the wrapped estimator's default.
pub trait DefaultBase {
    /// The default base learner.
    fn default_base() -> Self;
}

impl DefaultBase for DecisionTreeClassifier {
    /// A decision stump (`max_depth = 1`).
    fn default_base() -> Self {
        DecisionTreeClassifier::default().max_depth(Some(1))
    }
}

impl DefaultBase for DecisionTreeRegressor {
    /// A depth-3 regression tree.
    fn default_base() -> Self {
        DecisionTreeRegressor::default().max_depth(Some(3))
    }
}

impl<E: Default> DefaultBase for AnyBase<E> {
    /// The wrapped estimator's default.
    fn default_base() -> Self {
        AnyBase(E::default())
    }
}

/// A base learner of [`AdaBoostClassifier`](crate::AdaBoostClassifier): fitted on all rows with
/// the round's weights, predicting class indices `0..K`.
pub trait BoostClassifierBase<F: Float>: Estimator + Clone {
    /// What one round keeps.
    type Member;
    /// Data prepared once per ensemble fit, shared by the rounds.
    type Prepared;
    /// Whether every round draws a seed for the base from the ensemble's stream.
    const DRAWS_SEED: bool;

    /// Prepares the training data and labels (and checks the base's settings against the
    /// data's shape).
    ///
    /// # Errors
    /// Settings that do not fit the data.
    fn prepare(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Prepared>;

    /// Fits one round with `weights` (one per row, not all 0) on labels in `0..n_classes`;
    /// `seed` is the round's draw when [`DRAWS_SEED`](Self::DRAWS_SEED), else 0.
    ///
    /// # Errors
    /// The base's fit errors.
    fn fit_round(
        &self,
        prepared: &Self::Prepared,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        n_classes: usize,
        weights: &[f64],
        seed: u64,
    ) -> Result<Self::Member>;

    /// The member's predicted class indices for every row of `x` (already checked).
    ///
    /// # Errors
    /// The base's prediction errors.
    fn predict_member(member: &Self::Member, x: &ArrayRef2<F>) -> Result<Array1<usize>>;
}

/// A base learner of [`AdaBoostRegressor`](crate::AdaBoostRegressor): fitted unweighted on the
/// round's weighted resample, predicting one value per row.
pub trait BoostRegressorBase<F: Float>: Estimator + Clone {
    /// What one round keeps.
    type Member;
    /// Whether every round draws a seed for the base from the ensemble's stream (before the
    /// resample, as scikit-learn).
    const DRAWS_SEED: bool;

    /// Checks the base's settings against the data's shape and target.
    ///
    /// # Errors
    /// Settings that do not fit the data.
    fn check_fit(&self, y: &[f64], n: usize, d: usize) -> Result<()>;

    /// Fits one round on the resampled rows `x` with targets `y`; `seed` as in
    /// [`BoostClassifierBase::fit_round`].
    ///
    /// # Errors
    /// The base's fit errors.
    fn fit_round(&self, x: &ArrayRef2<F>, y: &[f64], seed: u64) -> Result<Self::Member>;

    /// The member's predictions for every row of `x` (already checked).
    ///
    /// # Errors
    /// The base's prediction errors.
    fn predict_member(member: &Self::Member, x: &ArrayRef2<F>) -> Result<Array1<f64>>;
}

/// The training matrix as column-major values (the layout the trees' split sweeps read), its
/// bins in the histogram mode, and the labels; built once per AdaBoost fit.
#[derive(Debug, Clone)]
pub struct TreeColumns<F> {
    xt: Vec<F>,
    n: usize,
    d: usize,
    bins: Option<TreeBins<F>>,
    ys: Vec<usize>,
}

impl<F: Float> BoostClassifierBase<F> for DecisionTreeClassifier {
    type Member = Tree<F>;
    type Prepared = TreeColumns<F>;
    const DRAWS_SEED: bool = true;

    fn prepare(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<TreeColumns<F>> {
        let (n, d) = x.dim();
        self.growth().resolve(n, d, 1.0)?;
        Ok(TreeColumns {
            xt: builder::to_columns(x),
            n,
            d,
            bins: TreeBins::fit_if(x, None, self.max_bins)?,
            ys: y.iter().copied().collect(),
        })
    }

    fn fit_round(
        &self,
        prepared: &TreeColumns<F>,
        _x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        n_classes: usize,
        weights: &[f64],
        seed: u64,
    ) -> Result<Tree<F>> {
        let data = Columns::column_major(&prepared.xt, prepared.n, prepared.d)
            .maybe_with_bins(prepared.bins.as_ref());
        let cw = DecisionTreeClassifier::combined_weights(
            &self.class_weight,
            y,
            Some(weights.to_vec()),
        )?;
        let mut tree = self.grow(
            &data,
            &prepared.ys,
            n_classes,
            cw.as_deref(),
            &mut TreeRng::from_seed(seed),
        )?;
        if self.ccp_alpha > 0.0 {
            tree = tree.prune(self.ccp_alpha);
        }
        Ok(tree)
    }

    fn predict_member(member: &Tree<F>, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(argmax_rows(&tree_proba(member, x)))
    }
}

impl<F: Float> BoostRegressorBase<F> for DecisionTreeRegressor {
    type Member = Tree<F>;
    const DRAWS_SEED: bool = true;

    fn check_fit(&self, y: &[f64], n: usize, d: usize) -> Result<()> {
        self.check_target(y)?;
        self.growth().resolve(n, d, n as f64).map(|_| ())
    }

    fn fit_round(&self, x: &ArrayRef2<F>, y: &[f64], seed: u64) -> Result<Tree<F>> {
        let (n, d) = x.dim();
        let xt = builder::to_columns(x);
        let bins = TreeBins::fit_if(x, None, self.max_bins)?;
        let data = Columns::column_major(&xt, n, d).maybe_with_bins(bins.as_ref());
        let mut tree = self.grow(&data, y, 1, None, &mut TreeRng::from_seed(seed))?;
        if self.ccp_alpha > 0.0 {
            tree = tree.prune(self.ccp_alpha);
        }
        Ok(tree)
    }

    fn predict_member(member: &Tree<F>, x: &ArrayRef2<F>) -> Result<Array1<f64>> {
        Ok(member.predict_values_unchecked(x).column(0).to_owned())
    }
}

impl<F, E> BoostClassifierBase<F> for AnyBase<E>
where
    F: Float,
    E: FitWeighted<F, Target = ArrayRef1<usize>> + Estimator + Clone,
    E::Model: Predict<F, Output = Array1<usize>>,
{
    type Member = E::Model;
    type Prepared = ();
    const DRAWS_SEED: bool = false;

    fn prepare(&self, _x: &ArrayRef2<F>, _y: &ArrayRef1<usize>) -> Result<()> {
        Ok(())
    }

    fn fit_round(
        &self,
        _prepared: &(),
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        _n_classes: usize,
        weights: &[f64],
        _seed: u64,
    ) -> Result<E::Model> {
        let w: Array1<F> = weights.iter().map(|&v| F::cast(v)).collect();
        self.0.fit_weighted(x, y, Some(&w))
    }

    fn predict_member(member: &E::Model, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        member.predict(x)
    }
}

impl<F, E> BoostRegressorBase<F> for AnyBase<E>
where
    F: Float,
    E: Fit<F, Target = ArrayRef1<F>> + Estimator + Clone,
    E::Model: Predict<F, Output = Array1<F>>,
{
    type Member = E::Model;
    const DRAWS_SEED: bool = false;

    fn check_fit(&self, _y: &[f64], _n: usize, _d: usize) -> Result<()> {
        Ok(())
    }

    fn fit_round(&self, x: &ArrayRef2<F>, y: &[f64], _seed: u64) -> Result<E::Model> {
        let y: Array1<F> = y.iter().map(|&v| F::cast(v)).collect();
        self.0.fit(x, &y)
    }

    fn predict_member(member: &E::Model, x: &ArrayRef2<F>) -> Result<Array1<f64>> {
        Ok(member.predict(x)?.mapv(|v| v.to_f64_lossless()))
    }
}
