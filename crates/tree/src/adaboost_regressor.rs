//! AdaBoost for regression, AdaBoost.R2 (Drucker 1997) over regression trees, or any regressor
//! through [`AnyBase`](crate::AnyBase), by weighted resampling ([`AdaBoostRegressor`];
//! scikit-learn's `AdaBoostRegressor`).
//!
//! # Algorithm
//!
//! Start with weights `wᵢ = 1/n` (or the normalised sample weights). Round `m = 1..M`:
//!
//! 1. clip the weights below at machine epsilon and draw a bootstrap sample of `n` rows with
//!    probabilities `w` (resampling: the base tree is fitted unweighted on the drawn rows);
//! 2. with the tree's predictions `pᵢ` on all rows, `eᵢ = |pᵢ − yᵢ| / maxⱼ |pⱼ − yⱼ|`, then
//!    `eᵢ` (`linear`), `eᵢ²` (`square`) or `1 − exp(−eᵢ)` (`exponential`);
//! 3. the weighted loss `L̄ = Σ wᵢ eᵢ`; stop when `L̄ ≤ 0` (the tree is kept with weight 1) or
//!    `L̄ ≥ ½` (the tree is dropped, unless it is the first);
//! 4. `β = L̄ / (1 − L̄)`, the tree's weight `α_m = ν ln(1/β)` (`ν = learning_rate`);
//! 5. `wᵢ ← wᵢ β^{(1 − eᵢ)ν}` (well-predicted rows lose weight; not after the last round), and
//!    normalise.
//!
//! The prediction is the **weighted median** of the trees' predictions: the smallest tree
//! prediction `v` such that the trees predicting at most `v` carry at least half of `Σ α_m`
//! (the lower weighted median, scikit-learn's). `staged_predict` gives the median of the first
//! `m` trees for every `m`. Importances are `Σ_m α_m imp_m / Σ_m α_m`.
//!
//! # scikit-learn's streams
//!
//! Round `m` draws, from one `RandomState(random_state)`, the base tree's seed
//! (`randint(2³¹ − 1)`) and then the bootstrap (`choice(n, n, p = w)`: cumulative weights, one
//! `random_sample()` per row, `searchsorted(side = "right")`); weight sums are NumPy's pairwise
//! sums. ndlearn draws the same numbers, so on float32-representable data the fitted ensemble is
//! scikit-learn's tree for tree (`tests/ensembles_golden.rs`).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `estimator` | `DecisionTreeRegressor` with `max_depth = 3` | `estimator` | any tree settings, or `AnyBase(e)` for any regressor `e` (fitted unweighted on each resample; no seed drawn for it) |
//! | `n_estimators` | 50 | `n_estimators` | `≥ 1` |
//! | `learning_rate` | 1.0 | `learning_rate` | `> 0` |
//! | `loss` | `Linear` | `loss` | `linear`, `square`, `exponential` |
//! | `seed` | 0 | `random_state` | |
//!
//! # References
//!
//! - H. Drucker, "Improving regressors using boosting techniques", ICML 1997.
//! - scikit-learn's `AdaBoostRegressor`.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::AdaBoostRegressor;
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("target");
//! let fit = AdaBoostRegressor::default().n_estimators(20).fit(data.x(), y)?;
//! let p = fit.predict(data.x())?;
//! let mean = y.mean().expect("non-empty");
//! let r2 = 1.0 - (&p - y).mapv(|e| e * e).sum() / y.mapv(|t| (t - mean) * (t - mean)).sum();
//! assert!(r2 > 0.5, "training R² {r2}");
//! assert_eq!(fit.staged_predict(data.x())?.len(), fit.trees().len());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn, Predict, Result,
    validate,
};

use crate::adaboost::{check_stages, weighted_importances};
use std::marker::PhantomData;

use crate::boost_base::{BoostRegressorBase, DefaultBase};
use crate::common::check_x_and_weights;
use crate::regressor::DecisionTreeRegressor;
use crate::sk_random::{RandomState, numpy_sum};
use crate::tree::{Tree, check_trees};

/// The loss of AdaBoost.R2 on the normalised absolute errors `e ∈ [0, 1]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AdaBoostRegressionLoss {
    /// `e`.
    #[default]
    Linear,
    /// `e²`.
    Square,
    /// `1 − exp(−e)`.
    Exponential,
}

impl AdaBoostRegressionLoss {
    fn apply(self, e: f64) -> f64 {
        match self {
            Self::Linear => e,
            Self::Square => e * e,
            Self::Exponential => 1.0 - (-e).exp(),
        }
    }
}

/// AdaBoost.R2 over regression trees or any regressor (scikit-learn's `AdaBoostRegressor`). See
/// the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(
        default = "default_params",
        bound(
            serialize = "E: serde::Serialize",
            deserialize = "E: serde::Deserialize<'de> + DefaultBase"
        )
    )
)]
#[non_exhaustive]
pub struct AdaBoostRegressor<E = DecisionTreeRegressor> {
    /// The base learner (default: a tree of `max_depth = 3`); a tree's seed is replaced per
    /// round.
    pub estimator: E,
    /// Maximum number of rounds (default 50).
    pub n_estimators: usize,
    /// Shrinkage `ν` (default 1).
    pub learning_rate: f64,
    /// The loss on the normalised errors (default linear).
    pub loss: AdaBoostRegressionLoss,
    /// Seed of the tree seeds and bootstraps (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for AdaBoostRegressor {
    /// scikit-learn's defaults over its default base ([`DefaultBase`]).
    fn default() -> Self {
        default_params()
    }
}

/// The defaults over `E`'s [`DefaultBase`] (the model files' missing fields).
fn default_params<E: DefaultBase>() -> AdaBoostRegressor<E> {
    AdaBoostRegressor::new(E::default_base())
}

/// `np.finfo(np.float64).eps`: the lower clip of the weights.
const EPS: f64 = f64::EPSILON;

impl<E> AdaBoostRegressor<E> {
    /// AdaBoost.R2 over `estimator` with scikit-learn's defaults (50 rounds, linear loss,
    /// ν = 1); any regressor through [`AnyBase`](crate::AnyBase).
    pub fn new(estimator: E) -> Self {
        AdaBoostRegressor {
            estimator,
            n_estimators: 50,
            learning_rate: 1.0,
            loss: AdaBoostRegressionLoss::Linear,
            seed: 0,
        }
    }

    ndlearn_core::setters! {
        estimator: E,
        n_estimators: usize,
        learning_rate: f64,
        loss: AdaBoostRegressionLoss,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
    }

    fn fit_boost<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedAdaBoostRegressor<F, E, E::Member>>
    where
        F: Float,
        E: BoostRegressorBase<F>,
    {
        self.validate()?;
        const CONTEXT: &str = "AdaBoostRegressor::fit";
        let w0 = check_x_and_weights(x, y.len(), sample_weight, CONTEXT)?;
        validate::check_finite_1d(y, "y")?;
        let (n, d) = x.dim();
        let ys: Vec<f64> = y.iter().map(|v| v.to_f64_lossless()).collect();
        self.estimator.check_fit(&ys, n, d)?;
        let mut w: Vec<f64> = match w0 {
            None => vec![1.0 / n as f64; n],
            Some(w) => {
                let s = numpy_sum(&w);
                w.iter().map(|v| v / s).collect()
            }
        };
        // Rows of weight 0 stay out (scikit-learn's sample mask).
        let active: Vec<bool> = w.iter().map(|&v| v > 0.0).collect();
        let mut rs = RandomState::new(self.seed);
        let mut trees = Vec::new();
        let mut weights = Vec::new();
        let mut errors = Vec::new();
        let mut cdf = vec![0.0f64; n];
        let mut drawn = vec![0usize; n];
        let mut xb = Array2::<F>::zeros((n, d));
        let mut yb = vec![0.0f64; n];
        let mut e = vec![0.0f64; n];
        let last = self.n_estimators - 1;
        for m in 0..self.n_estimators {
            for (v, &a) in w.iter_mut().zip(&active) {
                *v = if a { v.max(EPS) } else { 0.0 };
            }
            let round_seed = if E::DRAWS_SEED {
                rs.randint(0, 0x7FFF_FFFF)
            } else {
                0
            };
            let mut acc = 0.0;
            for (c, &v) in cdf.iter_mut().zip(&w) {
                acc += v;
                *c = acc;
            }
            let total = acc;
            cdf.iter_mut().for_each(|c| *c /= total);
            for i in drawn.iter_mut() {
                *i = rs.choice_cdf(&cdf);
            }
            for (r, &i) in drawn.iter().enumerate() {
                xb.row_mut(r).assign(&x.row(i));
                yb[r] = ys[i];
            }
            let member = self.estimator.fit_round(&xb, &yb, round_seed)?;
            let pred = E::predict_member(&member, x)?;
            if pred.iter().any(|v| !v.is_finite()) {
                // (trees cannot; a base such as an ill-conditioned least squares can)
                return Err(Error::NonFiniteResult {
                    context: CONTEXT,
                    reason: format!(
                        "the base learner of round {m} predicted NaN or infinity on the training rows"
                    ),
                });
            }
            let mut max_err = 0.0f64;
            for (i, ei) in e.iter_mut().enumerate() {
                *ei = (pred[i] - ys[i]).abs();
                if active[i] {
                    max_err = max_err.max(*ei);
                }
            }
            for ei in e.iter_mut() {
                if max_err != 0.0 {
                    *ei /= max_err;
                }
                *ei = self.loss.apply(*ei);
            }
            let we: Vec<f64> = (0..n).filter(|&i| active[i]).map(|i| w[i] * e[i]).collect();
            let err = numpy_sum(&we);
            if err <= 0.0 {
                trees.push(member);
                weights.push(1.0);
                errors.push(0.0);
                break;
            }
            if err >= 0.5 {
                if trees.is_empty() {
                    // scikit-learn keeps a first tree of weight 0 (its prediction is then the
                    // model's).
                    trees.push(member);
                    weights.push(0.0);
                    errors.push(1.0);
                }
                break;
            }
            let beta = err / (1.0 - err);
            let alpha = self.learning_rate * (1.0 / beta).ln();
            trees.push(member);
            weights.push(alpha);
            errors.push(err);
            if m != last {
                for i in (0..n).filter(|&i| active[i]) {
                    w[i] *= beta.powf((1.0 - e[i]) * self.learning_rate);
                }
            }
            let s = numpy_sum(&w);
            if !s.is_finite() || s <= 0.0 {
                break;
            }
            if m < last {
                w.iter_mut().for_each(|v| *v /= s);
            }
        }
        Ok(FittedAdaBoostRegressor {
            params: self.clone(),
            members: trees,
            estimator_weights: weights,
            estimator_errors: errors,
            n_features: d,
            float: PhantomData,
        })
    }
}

impl<E: Estimator> Estimator for AdaBoostRegressor<E> {
    /// Checks the hyperparameters (and the base tree's).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        validate::check_at_least("n_estimators", self.n_estimators, 1)?;
        validate::check_positive("learning_rate", self.learning_rate)?;
        if !self.learning_rate.is_finite() {
            return Err(Error::invalid_param("learning_rate", "must be finite"));
        }
        self.estimator.validate()
    }
}

impl<F: Float, E: BoostRegressorBase<F>> Fit<F> for AdaBoostRegressor<E> {
    type Target = ArrayRef1<F>;
    type Model = FittedAdaBoostRegressor<F, E, E::Member>;

    /// Runs the boosting rounds.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.fit_boost(x, y, None)
    }
}

impl<F: Float, E: BoostRegressorBase<F>> FitWeighted<F> for AdaBoostRegressor<E> {
    /// Runs the boosting rounds from the normalised sample weights (the bootstrap draws rows in
    /// proportion to them).
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight)
    }
}

/// A fitted [`AdaBoostRegressor`]: its members `M` (trees for a tree base), their weights and
/// losses.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "E: serde::Serialize, M: serde::Serialize",
        deserialize = "E: serde::Deserialize<'de> + DefaultBase, M: serde::Deserialize<'de>"
    ))
)]
pub struct FittedAdaBoostRegressor<F, E = DecisionTreeRegressor, M = Tree<F>> {
    params: AdaBoostRegressor<E>,
    #[cfg_attr(feature = "serde", serde(rename = "trees"))]
    members: Vec<M>,
    estimator_weights: Vec<f64>,
    estimator_errors: Vec<f64>,
    n_features: usize,
    #[cfg_attr(feature = "serde", serde(skip))]
    float: PhantomData<fn() -> F>,
}

/// The lower weighted median of `values` with `weights`: sort, accumulate the weights, take the
/// first value whose cumulative weight reaches half the total.
fn weighted_median(values: &[f64], weights: &[f64], order: &mut Vec<usize>) -> f64 {
    order.clear();
    order.extend(0..values.len());
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    let total: f64 = order.iter().map(|&i| weights[i]).sum();
    let half = 0.5 * total;
    let mut acc = 0.0;
    for &i in order.iter() {
        acc += weights[i];
        if acc >= half {
            return values[i];
        }
    }
    values[order[order.len() - 1]]
}

impl<F: Float> FittedAdaBoostRegressor<F> {
    /// The fitted trees, in round order.
    pub fn trees(&self) -> &[Tree<F>] {
        &self.members
    }
}

impl<F, E, M> FittedAdaBoostRegressor<F, E, M>
where
    F: Float,
    E: BoostRegressorBase<F, Member = M>,
{
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &AdaBoostRegressor<E> {
        &self.params
    }

    /// The fitted members (scikit-learn's `estimators_`), in round order.
    pub fn estimators(&self) -> &[M] {
        &self.members
    }

    /// The weight `α_m` of every kept member.
    pub fn estimator_weights(&self) -> &[f64] {
        &self.estimator_weights
    }

    /// The weighted loss `L̄_m` of every kept member.
    pub fn estimator_errors(&self) -> &[f64] {
        &self.estimator_errors
    }

    /// Every member's predictions, `n_members × n`.
    fn member_predictions(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.n_features, context)?;
        let mut p = Array2::<f64>::zeros((self.members.len(), x.nrows()));
        for (mut row, m) in p.rows_mut().into_iter().zip(&self.members) {
            row.assign(&E::predict_member(m, x)?);
        }
        Ok(p)
    }

    /// The weighted median of the first `m` trees for every `m = 1..n_trees` (`n_trees × n`;
    /// the last row is `predict`).
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn staged_predict(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<F>>> {
        let p = self.member_predictions(x, "AdaBoostRegressor::staged_predict")?;
        let mut order = Vec::new();
        let mut vals = Vec::with_capacity(self.members.len());
        Ok((1..=self.members.len())
            .map(|m| {
                (0..x.nrows())
                    .map(|i| {
                        vals.clear();
                        vals.extend((0..m).map(|t| p[[t, i]]));
                        F::cast(weighted_median(
                            &vals,
                            &self.estimator_weights[..m],
                            &mut order,
                        ))
                    })
                    .collect()
            })
            .collect())
    }
}

impl<F, E, M> Predict<F> for FittedAdaBoostRegressor<F, E, M>
where
    F: Float,
    E: BoostRegressorBase<F, Member = M>,
{
    type Output = Array1<F>;

    /// The weighted median of the trees' predictions.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let p = self.member_predictions(x, "AdaBoostRegressor::predict")?;
        let mut order = Vec::new();
        Ok(p.columns()
            .into_iter()
            .map(|col| {
                let v = col.to_vec();
                F::cast(weighted_median(&v, &self.estimator_weights, &mut order))
            })
            .collect())
    }
}

impl<F, E, M> NFeaturesIn for FittedAdaBoostRegressor<F, E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> FeatureImportances<F> for FittedAdaBoostRegressor<F> {
    /// `Σ_m α_m imp_m / Σ_m α_m` over the trees' normalised importances (scikit-learn's).
    fn feature_importances(&self) -> Array1<F> {
        weighted_importances(&self.members, &self.estimator_weights, self.n_features).mapv(F::cast)
    }
}

impl<F: Float> CheckModel for FittedAdaBoostRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedAdaBoostRegressor");
        c.params(&self.params)?;
        // a first tree no better than chance is kept with weight 0 (the sum may be 0)
        check_stages(
            &c,
            self.members.len(),
            self.params.n_estimators,
            &self.estimator_weights,
            &self.estimator_errors,
        )?;
        check_trees(&c, "trees", &self.members, self.n_features, 1, 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// A regressor predicting NaN: its fit error must reach the caller as a typed error.
    #[derive(Debug, Clone, Default)]
    struct NanRegressor;

    #[derive(Debug, Clone)]
    struct NanModel;

    impl Estimator for NanRegressor {
        fn validate(&self) -> Result<()> {
            Ok(())
        }
    }

    impl Fit<f64> for NanRegressor {
        type Target = ArrayRef1<f64>;
        type Model = NanModel;
        fn fit(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<NanModel> {
            Ok(NanModel)
        }
    }

    impl Predict<f64> for NanModel {
        type Output = Array1<f64>;
        fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
            Ok(Array1::from_elem(x.nrows(), f64::NAN))
        }
    }

    #[test]
    fn a_base_predicting_nan_is_a_typed_error() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![0.0, 1.0, 0.5, 2.0];
        let err = AdaBoostRegressor::new(crate::AnyBase(NanRegressor)).fit(&x, &y);
        assert!(matches!(err, Err(Error::NonFiniteResult { .. })), "{err:?}");
    }

    #[test]
    fn lower_weighted_median_by_hand() {
        let mut order = Vec::new();
        // Sorted 1, 2, 3 with weights 0.2, 0.3, 0.5: cumulative 0.2, 0.5 ≥ 0.5 ⇒ 2.
        assert_eq!(
            weighted_median(&[3.0, 1.0, 2.0], &[0.5, 0.2, 0.3], &mut order),
            2.0
        );
        // Exactly half at the first value: the lower one.
        assert_eq!(weighted_median(&[1.0, 5.0], &[1.0, 1.0], &mut order), 1.0);
        // A single tree of weight 0 predicts its own value.
        assert_eq!(weighted_median(&[7.0], &[0.0], &mut order), 7.0);
    }

    #[test]
    fn losses_and_a_perfect_first_tree() {
        assert_eq!(AdaBoostRegressionLoss::Square.apply(0.5), 0.25);
        assert!(
            (AdaBoostRegressionLoss::Exponential.apply(1.0) - (1.0 - (-1f64).exp())).abs() < 1e-16
        );
        // A step the depth-3 tree fits exactly: zero loss ends the boosting with weight 1.
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
        let y = array![1.0, 1.0, 1.0, 4.0, 4.0, 4.0];
        let m = AdaBoostRegressor::default().fit(&x, &y).expect("fit");
        assert_eq!(m.trees().len(), 1);
        assert_eq!(m.estimator_weights(), &[1.0]);
        assert_eq!(m.predict(&x).expect("predict"), y);
    }

    #[test]
    fn invalid_settings_and_input() {
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![0.0, 1.0, 0.5];
        for bad in [
            AdaBoostRegressor::default().n_estimators(0),
            AdaBoostRegressor::default().learning_rate(-1.0),
            AdaBoostRegressor::default().learning_rate(f64::INFINITY),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        let nan = array![0.0, f64::NAN, 0.5];
        assert!(AdaBoostRegressor::default().fit(&x, &nan).is_err());
        let m = AdaBoostRegressor::default().fit(&x, &y).expect("fit");
        assert!(m.predict(&array![[0.0, 1.0]]).is_err());
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_a_broken_record() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
        let y = array![1.0, 2.0, 2.5, 5.0, 5.5, 7.0];
        let m = AdaBoostRegressor::default()
            .n_estimators(4)
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.estimator_errors[0] = 2.0;
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.members.clear(); // the weighted median of no tree
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
