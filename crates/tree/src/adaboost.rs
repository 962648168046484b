//! AdaBoost for classification over decision trees ([`AdaBoostClassifier`]; stumps by default)
//! or any weighted classifier (through [`AnyBase`](crate::AnyBase); catalog CL-124).
//!
//! # Algorithm
//!
//! Start with weights `wᵢ = 1/n` (or the normalised sample weights). For `m = 1..M`: fit the
//! base tree `h_m` with weights `w`, compute its weighted error `E_m = Σ wᵢ [h_m(xᵢ) ≠ yᵢ] / Σ wᵢ`,
//! give it the weight `α_m`, multiply the weights of the misclassified rows by `e^{α_m}` (or,
//! equivalently up to normalisation, the correct ones by `e^{−α_m}`) and normalise. Predict
//! with the weighted vote `argmax_c Σ_m α_m [h_m(x) = c]`.
//!
//! | `algorithm` | `α_m` | stops when |
//! |---|---|---|
//! | `Samme` (default, scikit-learn's) | `ν (ln((1 − E)/E) + ln(K − 1))` | `E ≥ 1 − 1/K` (the tree is dropped) |
//! | `Canonical` (Freund & Schapire; the course notes' rule with the sign of E8 fixed) | `ν · ½ ln((1 − E)/E)` | `E ≥ ½` (the tree is dropped) |
//!
//! (`ν = learning_rate`.) For `K = 2` SAMME's `α` is twice the canonical one, which changes
//! neither the weight updates' direction nor the vote. The canonical rule is what the course
//! notes print as `½ log(E/(1 − E))` with the sign inverted (catalog erratum E8): misclassified
//! rows gain weight, correct ones are multiplied by `E/(1 − E)` relative to them. A base tree
//! with `E = 0` ends the boosting with weight 1. `decision_function` and `predict_proba`
//! follow scikit-learn's SAMME: scores `Σ_m α_m (1 if h_m(x) = c else −1/(K − 1)) / Σ_m α_m`,
//! probabilities `softmax(score / (K − 1))` (two classes: `softmax(±score/2)`).
//!
//! The base tree of round `m` gets scikit-learn's seed for it
//! (`RandomState(random_state).randint(2³¹ − 1)`, one per round), so with the same seed and
//! float32-representable data the fitted ensemble is scikit-learn's.
//!
//! **Any base learner.** `AdaBoostClassifier::new(AnyBase(estimator))` boosts any classifier
//! with [`FitWeighted`] (naive Bayes, logistic regression, a linear SVM, …): every
//! round calls its `fit_weighted` with the current weights and its `predict`; no seed is drawn
//! for it (scikit-learn draws one only for a base with a `random_state`). The trees take a
//! faster path (one column-major copy of `X` shared by all rounds; see
//! [`boost_base`](crate::boost_base)). Against scikit-learn's
//! `AdaBoostClassifier(estimator=GaussianNB())`: `tests/adaboost_any_base_golden.rs`.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `estimator` | `DecisionTreeClassifier` with `max_depth = 1` | `estimator` | any tree settings, or `AnyBase(e)` for any `FitWeighted` classifier `e` |
//! | `n_estimators` | 50 | `n_estimators` | `≥ 1` |
//! | `learning_rate` | 1.0 | `learning_rate` | `> 0` |
//! | `algorithm` | `Samme` | (SAMME only) | `Samme`, `Canonical` |
//! | `resample` | `false` | — | boosting by resampling |
//! | `seed` | 0 | `random_state` | |
//!
//! **Reweighting or resampling.** By default each round's tree is fitted with the current
//! weights `wᵢ` (reweighting, scikit-learn's only mode). With `resample = true` each round draws
//! `n` rows with replacement with probabilities `wᵢ` (Freund and Schapire's boosting by
//! resampling, for base learners that cannot take weights) and fits the tree on that sample with
//! unit weights; the round's error `E` and the weight update still use `wᵢ` on all rows. The
//! draws come from ndlearn's stream `(seed, round)`.
//!
//! # References
//!
//! - Y. Freund, R. E. Schapire, "A decision-theoretic generalization of on-line learning and an
//!   application to boosting", J. Computer and System Sciences 55(1), 1997.
//! - J. Zhu, H. Zou, S. Rosset, T. Hastie, "Multi-class AdaBoost", Statistics and Its Interface
//!   2(3), 2009 (SAMME).
//! - scikit-learn's `AdaBoostClassifier`.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::AdaBoostClassifier;
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! let fit = AdaBoostClassifier::default().n_estimators(30).fit(data.x(), y)?;
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(p, t)| p == t).count();
//! assert!(acc as f64 / y.len() as f64 > 0.97);
//! assert_eq!(fit.estimator_weights().len(), 30);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{
    Error, Estimator, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn, Predict,
    PredictProba, Result, validate,
};

use ndlearn_core::random;

use std::marker::PhantomData;

use crate::boost_base::{BoostClassifierBase, DefaultBase};
use crate::classifier::{DecisionTreeClassifier, argmax_rows};
use crate::common::check_x_and_weights;
use crate::sk_random::{RandomState, numpy_sum};
use crate::tree::{Tree, check_trees};

/// How [`AdaBoostClassifier`] weighs its trees (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum AdaBoostAlgorithm {
    /// SAMME: `α = ν (ln((1 − E)/E) + ln(K − 1))` (scikit-learn's).
    #[default]
    Samme,
    /// Freund & Schapire's `α = ν · ½ ln((1 − E)/E)`, stopping at `E ≥ ½`.
    Canonical,
}

/// AdaBoost over decision trees or any weighted classifier (scikit-learn's
/// `AdaBoostClassifier`). See the [module docs](self).
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
pub struct AdaBoostClassifier<E = DecisionTreeClassifier> {
    /// The base learner (default: a stump, `max_depth = 1`); a tree's seed is replaced per
    /// round.
    pub estimator: E,
    /// Maximum number of rounds (default 50).
    pub n_estimators: usize,
    /// Shrinkage `ν` of every tree weight (default 1).
    pub learning_rate: f64,
    /// SAMME or the canonical rule (default SAMME).
    pub algorithm: AdaBoostAlgorithm,
    /// Boosting by resampling instead of reweighting (default `false`; see the
    /// [module docs](self)).
    pub resample: bool,
    /// Seed of the per-round tree seeds (scikit-learn's `random_state`; default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for AdaBoostClassifier {
    /// scikit-learn's defaults over its default base ([`DefaultBase`]).
    fn default() -> Self {
        default_params()
    }
}

/// The defaults over `E`'s [`DefaultBase`] (the model files' missing fields).
fn default_params<E: DefaultBase>() -> AdaBoostClassifier<E> {
    AdaBoostClassifier::new(E::default_base())
}

impl<E> AdaBoostClassifier<E> {
    /// AdaBoost over `estimator` with scikit-learn's defaults (50 rounds, SAMME, ν = 1); any
    /// weighted classifier through [`AnyBase`](crate::AnyBase).
    pub fn new(estimator: E) -> Self {
        AdaBoostClassifier {
            estimator,
            n_estimators: 50,
            learning_rate: 1.0,
            algorithm: AdaBoostAlgorithm::Samme,
            resample: false,
            seed: 0,
        }
    }

    ndlearn_core::setters! {
        estimator: E,
        n_estimators: usize,
        learning_rate: f64,
        algorithm: AdaBoostAlgorithm,
        resample: bool,
        /// Sets the seed (scikit-learn's `random_state`).
        seed: u64,
    }

    fn fit_boost<F>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedAdaBoostClassifier<F, E, E::Member>>
    where
        F: Float,
        E: BoostClassifierBase<F>,
    {
        self.validate()?;
        const CONTEXT: &str = "AdaBoostClassifier::fit";
        let w0 = check_x_and_weights(x, y.len(), sample_weight, CONTEXT)?;
        let k = validate::check_labels(y, 1, CONTEXT)?;
        let (n, d) = x.dim();
        let mut w: Vec<f64> = w0.unwrap_or_else(|| vec![1.0 / n as f64; n]);
        let s = numpy_sum(&w);
        w.iter_mut().for_each(|v| *v /= s);
        let prepared = self.estimator.prepare(x, y)?;
        let mut seeds = RandomState::new(self.seed);
        let kf = k as f64;
        let mut trees = Vec::new();
        let mut weights = Vec::new();
        let mut errors = Vec::new();
        for m in 0..self.n_estimators {
            let round_seed = if E::DRAWS_SEED {
                seeds.randint(0, 0x7FFF_FFFF)
            } else {
                0
            };
            let fit_weights = if self.resample {
                weighted_bootstrap_counts(&w, random::stream(self.seed, m as u64))
            } else {
                w.clone()
            };
            let member = self
                .estimator
                .fit_round(&prepared, x, y, k, &fit_weights, round_seed)?;
            let pred = E::predict_member(&member, x)?;
            let incorrect: Vec<f64> = pred
                .iter()
                .zip(y)
                .map(|(p, t)| f64::from(u8::from(p != t)))
                .collect();
            let wi: Vec<f64> = w.iter().zip(&incorrect).map(|(a, b)| a * b).collect();
            let error = numpy_sum(&wi) / numpy_sum(&w);
            if error <= 0.0 {
                trees.push(member);
                weights.push(1.0);
                errors.push(0.0);
                break;
            }
            let limit = match self.algorithm {
                AdaBoostAlgorithm::Samme => 1.0 - 1.0 / kf,
                AdaBoostAlgorithm::Canonical => 0.5,
            };
            if error >= limit {
                if trees.is_empty() {
                    return Err(Error::invalid_param(
                        "estimator",
                        format!(
                            "the first tree is no better than chance (weighted error {error}); \
                             use a deeper base tree"
                        ),
                    ));
                }
                break;
            }
            let alpha = match self.algorithm {
                AdaBoostAlgorithm::Samme => {
                    self.learning_rate * (((1.0 - error) / error).ln() + (kf - 1.0).ln())
                }
                AdaBoostAlgorithm::Canonical => {
                    self.learning_rate * 0.5 * ((1.0 - error) / error).ln()
                }
            };
            trees.push(member);
            weights.push(alpha);
            errors.push(error);
            if m + 1 < self.n_estimators {
                // Canonical: misclassified × e^{2α}·(relative), i.e. correct × E/(1 − E).
                let step = match self.algorithm {
                    AdaBoostAlgorithm::Samme => alpha,
                    AdaBoostAlgorithm::Canonical => 2.0 * alpha,
                };
                for (v, &inc) in w.iter_mut().zip(&incorrect) {
                    if *v > 0.0 {
                        *v = (v.ln() + step * inc).exp();
                    }
                }
                let s = numpy_sum(&w);
                if !s.is_finite() || s <= 0.0 {
                    break;
                }
                w.iter_mut().for_each(|v| *v /= s);
            }
        }
        Ok(FittedAdaBoostClassifier {
            params: self.clone(),
            members: trees,
            estimator_weights: weights,
            estimator_errors: errors,
            n_classes: k,
            n_features: d,
            float: PhantomData,
        })
    }
}

/// Multiplicities of `n = w.len()` draws with replacement with probabilities `w` (summing to 1).
fn weighted_bootstrap_counts(w: &[f64], mut rng: random::Rng) -> Vec<f64> {
    use rand::Rng as _;
    let mut cum = Vec::with_capacity(w.len());
    let mut acc = 0.0;
    for &v in w {
        acc += v;
        cum.push(acc);
    }
    let total = acc;
    let mut counts = vec![0.0; w.len()];
    for _ in 0..w.len() {
        let u = rng.random::<f64>() * total;
        // First row whose cumulative weight exceeds u (rows of weight 0 are never drawn).
        let i = cum.partition_point(|&c| c <= u).min(w.len() - 1);
        counts[i] += 1.0;
    }
    counts
}

impl<E: Estimator> Estimator for AdaBoostClassifier<E> {
    /// Checks the hyperparameters (and the base tree's).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first invalid one.
    fn validate(&self) -> Result<()> {
        validate::check_at_least("n_estimators", self.n_estimators, 1)?;
        validate::check_positive("learning_rate", self.learning_rate)?;
        self.estimator.validate()
    }
}

impl<F: Float, E: BoostClassifierBase<F>> Fit<F> for AdaBoostClassifier<E> {
    type Target = ArrayRef1<usize>;
    type Model = FittedAdaBoostClassifier<F, E, E::Member>;

    /// Runs the boosting rounds.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_boost(x, y, None)
    }
}

impl<F: Float, E: BoostClassifierBase<F>> FitWeighted<F> for AdaBoostClassifier<E> {
    /// Runs the boosting rounds from the normalised sample weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_boost(x, y, sample_weight)
    }
}

/// A fitted [`AdaBoostClassifier`]: its members `M` (trees for a tree base), their weights and
/// errors.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(bound(
        serialize = "E: serde::Serialize, M: serde::Serialize",
        deserialize = "E: serde::Deserialize<'de> + DefaultBase, M: serde::Deserialize<'de>"
    ))
)]
pub struct FittedAdaBoostClassifier<F, E = DecisionTreeClassifier, M = Tree<F>> {
    params: AdaBoostClassifier<E>,
    #[cfg_attr(feature = "serde", serde(rename = "trees"))]
    members: Vec<M>,
    estimator_weights: Vec<f64>,
    estimator_errors: Vec<f64>,
    n_classes: usize,
    n_features: usize,
    #[cfg_attr(feature = "serde", serde(skip))]
    float: PhantomData<fn() -> F>,
}

impl<F: Float> FittedAdaBoostClassifier<F> {
    /// The fitted trees, in round order.
    pub fn trees(&self) -> &[Tree<F>] {
        &self.members
    }
}

impl<F, E, M> FittedAdaBoostClassifier<F, E, M>
where
    F: Float,
    E: BoostClassifierBase<F, Member = M>,
{
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &AdaBoostClassifier<E> {
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

    /// The weighted training error `E_m` of every kept member.
    pub fn estimator_errors(&self) -> &[f64] {
        &self.estimator_errors
    }

    /// SAMME scores `n × K` (two classes: `n × 1`, positive for class 1), as scikit-learn's
    /// `decision_function`.
    ///
    /// # Errors
    /// A different feature count, non-finite input.
    pub fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.n_features, "AdaBoostClassifier::decision_function")?;
        let k = self.n_classes;
        let mut score = Array2::<f64>::zeros((x.nrows(), k));
        if k == 1 {
            return Ok(score);
        }
        let other = -1.0 / (k as f64 - 1.0);
        for (member, &a) in self.members.iter().zip(&self.estimator_weights) {
            let pred = E::predict_member(member, x)?;
            for (mut row, &p) in score.rows_mut().into_iter().zip(&pred) {
                for (c, v) in row.iter_mut().enumerate() {
                    *v += if c == p { a } else { other * a };
                }
            }
        }
        let total: f64 = self.estimator_weights.iter().sum();
        score.mapv_inplace(|v| v / total);
        if k == 2 {
            let s = &score.column(1) - &score.column(0);
            return Ok(s.insert_axis(Axis(1)));
        }
        Ok(score)
    }
}

impl<F, E, M> PredictProba<F> for FittedAdaBoostClassifier<F, E, M>
where
    F: Float,
    E: BoostClassifierBase<F, Member = M>,
{
    /// `softmax(score / (K − 1))` (two classes: `softmax(±score / 2)`), as scikit-learn.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let dec = self.decision_function(x)?;
        let k = self.n_classes;
        let z = if k == 2 {
            let d = dec.column(0);
            ndarray::stack![Axis(1), d.mapv(|v| -v / 2.0), d.mapv(|v| v / 2.0)]
        } else if k == 1 {
            Array2::zeros((x.nrows(), 1))
        } else {
            dec.mapv(|v| v / (k as f64 - 1.0))
        };
        let mut p = z;
        for mut row in p.rows_mut() {
            let m = row.fold(f64::NEG_INFINITY, |a, &b| a.max(b));
            row.mapv_inplace(|v| (v - m).exp());
            let s = row.sum();
            row.mapv_inplace(|v| v / s);
        }
        Ok(p.mapv(F::cast))
    }
}

impl<F, E, M> Predict<F> for FittedAdaBoostClassifier<F, E, M>
where
    F: Float,
    E: BoostClassifierBase<F, Member = M>,
{
    type Output = Array1<usize>;

    /// The class of largest weighted vote.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let dec = self.decision_function(x)?;
        if self.n_classes == 2 {
            return Ok(dec.column(0).mapv(|v| usize::from(v > 0.0)));
        }
        Ok(argmax_rows(&dec))
    }
}

impl<F, E, M> NFeaturesIn for FittedAdaBoostClassifier<F, E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> FeatureImportances<F> for FittedAdaBoostClassifier<F> {
    /// `Σ_m α_m imp_m / Σ_m α_m` over the trees' normalised importances (scikit-learn's).
    fn feature_importances(&self) -> Array1<F> {
        weighted_importances(&self.members, &self.estimator_weights, self.n_features).mapv(F::cast)
    }
}

/// `Σ_m α_m imp_m / Σ_m α_m` over the trees' normalised importances (scikit-learn's boosting
/// importances; zeros when every weight is 0).
pub(crate) fn weighted_importances<F: Float>(
    trees: &[Tree<F>],
    weights: &[f64],
    d: usize,
) -> Array1<f64> {
    let mut sum = Array1::<f64>::zeros(d);
    let total: f64 = weights.iter().sum();
    for (t, &a) in trees.iter().zip(weights) {
        sum.scaled_add(a, &t.feature_importances(true));
    }
    if total > 0.0 {
        sum.mapv_inplace(|v| v / total);
    }
    sum
}

/// The boosting record of a fitted AdaBoost model: one weight and one error per tree (at least
/// one tree, at most `n_estimators`), weights finite and `≥ 0`, errors in `[0, 1]`.
pub(crate) fn check_stages(
    c: &ModelCheck,
    n_trees: usize,
    n_estimators: usize,
    weights: &[f64],
    errors: &[f64],
) -> Result<()> {
    c.at_least("trees", n_trees, 1)?;
    c.that(n_trees <= n_estimators, || {
        format!("{n_trees} trees, more than n_estimators = {n_estimators}")
    })?;
    c.len("estimator_weights", weights.len(), n_trees)?;
    c.len("estimator_errors", errors.len(), n_trees)?;
    c.non_negative("estimator_weights", &ndarray::ArrayView1::from(weights))?;
    c.that(errors.iter().all(|e| (0.0..=1.0).contains(e)), || {
        "`estimator_errors` must lie in [0, 1]".into()
    })
}

impl<F: Float> CheckModel for FittedAdaBoostClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedAdaBoostClassifier");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 1)?;
        check_stages(
            &c,
            self.members.len(),
            self.params.n_estimators,
            &self.estimator_weights,
            &self.estimator_errors,
        )?;
        // every tree's α is positive: the scores are divided by their sum
        c.that(self.estimator_weights.iter().sum::<f64>() > 0.0, || {
            "`estimator_weights` must have a positive sum".into()
        })?;
        check_trees(
            &c,
            "trees",
            &self.members,
            self.n_features,
            1,
            self.n_classes,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn canonical_alpha_and_weights_by_hand() {
        // One feature, 5 rows; the stump x ≤ 1.5 misclassifies row 4 only: E = 1/5.
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y = array![0usize, 0, 1, 1, 0];
        let m = AdaBoostClassifier::default()
            .algorithm(AdaBoostAlgorithm::Canonical)
            .n_estimators(1)
            .fit(&x, &y)
            .expect("fit");
        assert!((m.estimator_errors()[0] - 0.2).abs() < 1e-15);
        assert!((m.estimator_weights()[0] - 0.5 * 4f64.ln()).abs() < 1e-15);
        let samme = AdaBoostClassifier::default()
            .n_estimators(1)
            .fit(&x, &y)
            .expect("fit");
        // K = 2: SAMME's α is twice the canonical one.
        assert!((samme.estimator_weights()[0] - 4f64.ln()).abs() < 1e-15);
        // More rounds fit the training data.
        let m = AdaBoostClassifier::default()
            .n_estimators(10)
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(m.predict(&x).expect("predict"), y);
        let p: Array2<f64> = m.predict_proba(&x).expect("proba");
        assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
    }

    #[test]
    fn a_wrapped_stump_boosts_as_the_native_tree_path() {
        // Without ties and with every feature searched, a tree's seed does not change it: the
        // generic path (AnyBase, the tree's own fit_weighted every round) and the prepared-column
        // path give the same rounds, by reweighting and by resampling.
        let x = array![
            [0.3, 2.0],
            [1.1, 0.5],
            [2.2, 1.7],
            [3.4, 0.2],
            [4.0, 2.9],
            [5.3, 1.1],
            [6.1, 2.4],
            [7.7, 0.8]
        ];
        let y = array![0usize, 0, 1, 1, 0, 1, 2, 2];
        for resample in [false, true] {
            let native = AdaBoostClassifier::default()
                .n_estimators(6)
                .resample(resample)
                .fit(&x, &y)
                .expect("fit");
            let stump = DecisionTreeClassifier::default().max_depth(Some(1));
            let generic = AdaBoostClassifier::new(crate::AnyBase(stump))
                .n_estimators(6)
                .resample(resample)
                .fit(&x, &y)
                .expect("fit");
            assert_eq!(native.estimator_weights(), generic.estimator_weights());
            assert_eq!(native.estimator_errors(), generic.estimator_errors());
            let p: Array2<f64> = native.predict_proba(&x).expect("proba");
            assert_eq!(p, generic.predict_proba(&x).expect("proba"));
        }
    }

    #[test]
    fn a_base_error_reaches_the_caller() {
        // A base whose settings only the data can refute (5 features of 1): its fit's typed
        // error comes back through the generic path.
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![0usize, 1, 1];
        let bad = DecisionTreeClassifier::default().max_features(crate::MaxFeatures::Count(5));
        let err = AdaBoostClassifier::new(crate::AnyBase(bad)).fit(&x, &y);
        assert!(matches!(err, Err(Error::InvalidParam { .. })), "{err:?}");
    }

    #[test]
    fn invalid_settings() {
        let x = array![[0.0], [1.0]];
        let y = array![0usize, 1];
        for bad in [
            AdaBoostClassifier::default().n_estimators(0),
            AdaBoostClassifier::default().learning_rate(0.0),
            AdaBoostClassifier::default()
                .estimator(DecisionTreeClassifier::default().max_depth(Some(0))),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
    }

    #[test]
    fn weighted_bootstrap_draws_in_proportion_to_the_weights() {
        let w = [0.5, 0.0, 0.25, 0.25];
        let mut totals = [0.0; 4];
        for r in 0..2000u64 {
            let c = weighted_bootstrap_counts(&w, random::stream(3, r));
            assert_eq!(c.iter().sum::<f64>(), 4.0);
            for (t, v) in totals.iter_mut().zip(c) {
                *t += v;
            }
        }
        assert_eq!(totals[1], 0.0, "a row of weight 0 is never drawn");
        for (t, p) in totals.iter().zip(w) {
            assert!((t / 8000.0 - p).abs() < 0.02, "{totals:?}");
        }
    }

    #[test]
    fn boosting_by_resampling_fits_and_is_seeded() {
        let data = ndlearn_datasets::breast_cancer();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let est = AdaBoostClassifier::default()
            .n_estimators(30)
            .resample(true);
        let a = est.fit(x, y).expect("fit");
        let b = est.fit(x, y).expect("fit");
        let pa: Array1<usize> = a.predict(x).expect("predict");
        assert_eq!(pa, b.predict(x).expect("predict"));
        let acc = pa.iter().zip(y).filter(|(p, t)| p == t).count() as f64 / y.len() as f64;
        assert!(acc > 0.95, "training accuracy {acc}");
        // Resampling changes the trees (the weighted fit sees every row).
        let reweighted = AdaBoostClassifier::default()
            .n_estimators(30)
            .fit(x, y)
            .expect("fit");
        assert_ne!(a.estimator_weights(), reweighted.estimator_weights());
        let other_seed = est.clone().seed(1).fit(x, y).expect("fit");
        assert_ne!(a.estimator_weights(), other_seed.estimator_weights());
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_a_broken_record() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y = array![0usize, 0, 1, 1, 0];
        let m = AdaBoostClassifier::default()
            .n_estimators(5)
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.estimator_weights.pop(); // one weight short
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m.clone();
        bad.estimator_weights[0] = f64::NAN;
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.n_classes = 5; // the trees have 2 classes
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
