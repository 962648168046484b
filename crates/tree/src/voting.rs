//! Ensembles of *different* estimators: [`VotingClassifier`], [`VotingRegressor`],
//! [`StackingClassifier`] and [`StackingRegressor`] (scikit-learn's `sklearn.ensemble` meta
//! estimators; catalog T-13, "manipulate the learning algorithm").
//!
//! Members are any ndlearn estimators, type-erased by [`ClassifierMember`] /
//! [`RegressorMember`] (`ClassifierMember::soft` needs a model with `predict_proba`;
//! `ClassifierMember::hard` takes any classifier).
//!
//! # Voting
//!
//! ```text
//! hard:  ŷ(x) = argmax_c Σ_m w_m 1[h_m(x) = c]          (ties to the lower class)
//! soft:  P(c | x) = Σ_m w_m P_m(c | x) / Σ_m w_m,  ŷ = argmax_c P(c | x)
//! regressor: ŷ(x) = Σ_m w_m h_m(x) / Σ_m w_m
//! ```
//!
//! # Stacking (Wolpert 1992)
//!
//! Every member is fitted on all rows; the final estimator is fitted on the members'
//! **cross-validated** outputs (K-fold, `cv` folds, shuffled from `seed`; each row's output
//! comes from the members fitted without it): class probabilities for soft members (the
//! second column only for two classes, as scikit-learn's `stack_method = "auto"`), predicted
//! labels for hard members, predictions for regressors; with `passthrough` the original
//! features are appended. Prediction feeds the full-data members' outputs to the final
//! estimator.
//!
//! # Threads and determinism
//!
//! Members (and folds × members for stacking) are fitted in parallel on the caller's rayon pool
//! and combined in member order: results are bitwise identical for any thread count when the
//! members are.
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_tree::voting::{ClassifierMember, Voting, VotingClassifier};
//! use ndlearn_tree::{DecisionTreeClassifier, RandomForestClassifier};
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! let vote = VotingClassifier::new(vec![
//!     ClassifierMember::soft("stump", DecisionTreeClassifier::default().max_depth(Some(1))),
//!     ClassifierMember::soft("forest", RandomForestClassifier::default().n_estimators(10)),
//!     ClassifierMember::hard("deep", DecisionTreeClassifier::default()),
//! ])
//! .voting(Voting::Hard);
//! let fit = vote.fit(data.x(), y)?;
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(p, t)| p == t).count();
//! assert!(acc as f64 / y.len() as f64 > 0.95);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::fmt;
use std::sync::Arc;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, concatenate};
use ndlearn_core::model_selection::{CrossValidator, KFold};

use crate::common::argmax;
use ndlearn_core::{Error, Estimator, Fit, Float, Predict, PredictProba, Result, par, validate};

type PredictLabels<F> = Box<dyn Fn(&ArrayRef2<F>) -> Result<Array1<usize>> + Send + Sync>;
type PredictMatrix<F> = Box<dyn Fn(&ArrayRef2<F>) -> Result<Array2<F>> + Send + Sync>;
type PredictValues<F> = Box<dyn Fn(&ArrayRef2<F>) -> Result<Array1<F>> + Send + Sync>;
type FitClassifier<F> = Arc<
    dyn Fn(&ArrayRef2<F>, &ArrayRef1<usize>) -> Result<FittedClassifierMember<F>> + Send + Sync,
>;
type FitRegressor<F> =
    Arc<dyn Fn(&ArrayRef2<F>, &ArrayRef1<F>) -> Result<FittedRegressorMember<F>> + Send + Sync>;

/// A classifier in a voting or stacking ensemble (type-erased).
#[derive(Clone)]
pub struct ClassifierMember<F> {
    name: String,
    soft: bool,
    validate: Arc<dyn Fn() -> Result<()> + Send + Sync>,
    fit: FitClassifier<F>,
}

/// A fitted [`ClassifierMember`].
pub struct FittedClassifierMember<F> {
    predict: PredictLabels<F>,
    proba: Option<PredictMatrix<F>>,
}

impl<F: Float> ClassifierMember<F> {
    /// A member that votes with its probabilities (soft voting, stacking on probabilities).
    pub fn soft<E>(name: &str, estimator: E) -> Self
    where
        E: Fit<F, Target = ArrayRef1<usize>> + Estimator + Send + Sync + 'static,
        E::Model: PredictProba<F> + Predict<F, Output = Array1<usize>> + Send + Sync + 'static,
    {
        let e = Arc::new(estimator);
        let v = Arc::clone(&e);
        Self {
            name: name.into(),
            soft: true,
            validate: Arc::new(move || v.validate()),
            fit: Arc::new(move |x, y| {
                let m = Arc::new(e.fit(x, y)?);
                let m2 = Arc::clone(&m);
                Ok(FittedClassifierMember {
                    predict: Box::new(move |x| m.predict(x)),
                    proba: Some(Box::new(move |x| m2.predict_proba(x))),
                })
            }),
        }
    }

    /// A member that votes with its labels only (hard voting; stacking on labels).
    pub fn hard<E>(name: &str, estimator: E) -> Self
    where
        E: Fit<F, Target = ArrayRef1<usize>> + Estimator + Send + Sync + 'static,
        E::Model: Predict<F, Output = Array1<usize>> + Send + Sync + 'static,
    {
        let e = Arc::new(estimator);
        let v = Arc::clone(&e);
        Self {
            name: name.into(),
            soft: false,
            validate: Arc::new(move || v.validate()),
            fit: Arc::new(move |x, y| {
                let m = e.fit(x, y)?;
                Ok(FittedClassifierMember {
                    predict: Box::new(move |x| m.predict(x)),
                    proba: None,
                })
            }),
        }
    }

    /// The member's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<F> fmt::Debug for ClassifierMember<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClassifierMember")
            .field("name", &self.name)
            .field("soft", &self.soft)
            .finish()
    }
}

/// A regressor in a voting or stacking ensemble (type-erased).
#[derive(Clone)]
pub struct RegressorMember<F> {
    name: String,
    validate: Arc<dyn Fn() -> Result<()> + Send + Sync>,
    fit: FitRegressor<F>,
}

/// A fitted [`RegressorMember`].
pub struct FittedRegressorMember<F> {
    predict: PredictValues<F>,
}

impl<F: Float> RegressorMember<F> {
    /// Wraps a regressor.
    pub fn new<E>(name: &str, estimator: E) -> Self
    where
        E: Fit<F, Target = ArrayRef1<F>> + Estimator + Send + Sync + 'static,
        E::Model: Predict<F, Output = Array1<F>> + Send + Sync + 'static,
    {
        let e = Arc::new(estimator);
        let v = Arc::clone(&e);
        Self {
            name: name.into(),
            validate: Arc::new(move || v.validate()),
            fit: Arc::new(move |x, y| {
                let m = e.fit(x, y)?;
                Ok(FittedRegressorMember {
                    predict: Box::new(move |x| m.predict(x)),
                })
            }),
        }
    }

    /// The member's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl<F> fmt::Debug for RegressorMember<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RegressorMember")
            .field("name", &self.name)
            .finish()
    }
}

/// Hard (labels) or soft (probabilities) voting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Voting {
    /// Weighted majority of the predicted labels (scikit-learn's default).
    #[default]
    Hard,
    /// Argmax of the weighted mean probabilities (every member must be soft).
    Soft,
}

fn check_members(n: usize, weights: Option<&[f64]>) -> Result<()> {
    if n == 0 {
        return Err(Error::invalid_param(
            "estimators",
            "at least one member is needed",
        ));
    }
    if let Some(w) = weights {
        if w.len() != n {
            return Err(Error::invalid_param(
                "weights",
                format!("{} weights for {n} members", w.len()),
            ));
        }
        if w.iter().any(|v| !(v.is_finite() && *v >= 0.0)) || w.iter().sum::<f64>() <= 0.0 {
            return Err(Error::invalid_param(
                "weights",
                "weights must be finite, non-negative, with a positive sum",
            ));
        }
    }
    Ok(())
}

/// Voting over classifiers. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct VotingClassifier<F> {
    /// The members.
    pub estimators: Vec<ClassifierMember<F>>,
    /// Hard or soft voting.
    pub voting: Voting,
    /// Member weights (default equal).
    pub weights: Option<Vec<f64>>,
}

impl<F: Float> VotingClassifier<F> {
    /// Hard voting over `estimators` with equal weights.
    pub fn new(estimators: Vec<ClassifierMember<F>>) -> Self {
        Self {
            estimators,
            voting: Voting::Hard,
            weights: None,
        }
    }

    ndlearn_core::setters! {
        voting: Voting,
        weights: Option<Vec<f64>>,
    }
}

impl<F: Float> Estimator for VotingClassifier<F> {
    /// Checks the members, the weights and (soft voting) that every member is soft.
    fn validate(&self) -> Result<()> {
        check_members(self.estimators.len(), self.weights.as_deref())?;
        if self.voting == Voting::Soft
            && let Some(m) = self.estimators.iter().find(|m| !m.soft)
        {
            return Err(Error::invalid_param(
                "voting",
                format!(
                    "soft voting needs probabilities; member '{}' is hard",
                    m.name
                ),
            ));
        }
        self.estimators.iter().try_for_each(|m| (m.validate)())
    }
}

/// A fitted [`VotingClassifier`].
pub struct FittedVotingClassifier<F> {
    members: Vec<FittedClassifierMember<F>>,
    voting: Voting,
    weights: Vec<f64>,
    n_classes: usize,
    n_features: usize,
}

impl<F> fmt::Debug for FittedVotingClassifier<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FittedVotingClassifier")
            .field("members", &self.members.len())
            .field("voting", &self.voting)
            .field("weights", &self.weights)
            .finish()
    }
}

fn fit_classifiers<F: Float>(
    members: &[ClassifierMember<F>],
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
) -> Result<Vec<FittedClassifierMember<F>>> {
    par::try_map_tasks(members.len(), |m| (members[m].fit)(x, y))
}

impl<F: Float> Fit<F> for VotingClassifier<F> {
    type Target = ArrayRef1<usize>;
    type Model = FittedVotingClassifier<F>;

    /// Fits every member on all rows (in parallel).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = validate::check_classification_input(x, y, 1, "VotingClassifier")?;
        let members = fit_classifiers(&self.estimators, x, y)?;
        Ok(FittedVotingClassifier {
            members,
            voting: self.voting,
            weights: self
                .weights
                .clone()
                .unwrap_or_else(|| vec![1.0; self.estimators.len()]),
            n_classes,
            n_features: x.ncols(),
        })
    }
}

impl<F: Float> FittedVotingClassifier<F> {
    /// Weighted vote counts (hard) or weighted mean probabilities (soft), `n × n_classes`.
    fn scores(&self, x: &ArrayRef2<F>) -> Result<Array2<f64>> {
        validate::check_predict_input(x, self.n_features, "VotingClassifier::predict")?;
        let k = self.n_classes;
        let mut acc = Array2::<f64>::zeros((x.nrows(), k));
        for (m, &w) in self.members.iter().zip(&self.weights) {
            match (self.voting, &m.proba) {
                (Voting::Soft, Some(proba)) => {
                    let p = proba(x)?;
                    for (mut a, r) in acc.rows_mut().into_iter().zip(p.rows()) {
                        for c in 0..k.min(r.len()) {
                            a[c] += w * r[c].to_f64_lossless();
                        }
                    }
                }
                _ => {
                    for (i, c) in (m.predict)(x)?.into_iter().enumerate() {
                        if c < k {
                            acc[[i, c]] += w;
                        }
                    }
                }
            }
        }
        Ok(acc)
    }

    /// Soft voting's probabilities: the weighted mean of the members' probabilities.
    ///
    /// # Errors
    /// Hard voting (use `predict`); a different feature count; the members' errors.
    pub fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        if self.voting == Voting::Hard {
            return Err(Error::invalid_param(
                "voting",
                "probabilities are defined for soft voting only",
            ));
        }
        let total: f64 = self.weights.iter().sum();
        Ok(self.scores(x)?.mapv(|v| F::cast(v / total)))
    }
}

impl<F: Float> Predict<F> for FittedVotingClassifier<F> {
    type Output = Array1<usize>;

    /// The class of largest weighted vote or mean probability.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(self
            .scores(x)?
            .rows()
            .into_iter()
            .map(|r| argmax(r.iter().copied()))
            .collect())
    }
}

/// Voting over regressors: the weighted mean of their predictions. See the
/// [module docs](self).
#[derive(Debug, Clone)]
pub struct VotingRegressor<F> {
    /// The members.
    pub estimators: Vec<RegressorMember<F>>,
    /// Member weights (default equal).
    pub weights: Option<Vec<f64>>,
}

impl<F: Float> VotingRegressor<F> {
    /// Equal-weight averaging of `estimators`.
    pub fn new(estimators: Vec<RegressorMember<F>>) -> Self {
        Self {
            estimators,
            weights: None,
        }
    }

    ndlearn_core::setters! {
        weights: Option<Vec<f64>>,
    }
}

impl<F: Float> Estimator for VotingRegressor<F> {
    /// Checks the members and the weights.
    fn validate(&self) -> Result<()> {
        check_members(self.estimators.len(), self.weights.as_deref())?;
        self.estimators.iter().try_for_each(|m| (m.validate)())
    }
}

/// A fitted [`VotingRegressor`].
pub struct FittedVotingRegressor<F> {
    members: Vec<FittedRegressorMember<F>>,
    weights: Vec<f64>,
    n_features: usize,
}

impl<F> fmt::Debug for FittedVotingRegressor<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FittedVotingRegressor")
            .field("members", &self.members.len())
            .field("weights", &self.weights)
            .finish()
    }
}

fn fit_regressors<F: Float>(
    members: &[RegressorMember<F>],
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
) -> Result<Vec<FittedRegressorMember<F>>> {
    par::try_map_tasks(members.len(), |m| (members[m].fit)(x, y))
}

impl<F: Float> Fit<F> for VotingRegressor<F> {
    type Target = ArrayRef1<F>;
    type Model = FittedVotingRegressor<F>;

    /// Fits every member on all rows (in parallel).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        validate::check_regression_input(x, y, 1, "VotingRegressor")?;
        Ok(FittedVotingRegressor {
            members: fit_regressors(&self.estimators, x, y)?,
            weights: self
                .weights
                .clone()
                .unwrap_or_else(|| vec![1.0; self.estimators.len()]),
            n_features: x.ncols(),
        })
    }
}

impl<F: Float> Predict<F> for FittedVotingRegressor<F> {
    type Output = Array1<F>;

    /// The weighted mean of the members' predictions.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        validate::check_predict_input(x, self.n_features, "VotingRegressor::predict")?;
        let mut acc = vec![0.0f64; x.nrows()];
        for (m, &w) in self.members.iter().zip(&self.weights) {
            for (a, v) in acc.iter_mut().zip((m.predict)(x)?) {
                *a += w * v.to_f64_lossless();
            }
        }
        let total: f64 = self.weights.iter().sum();
        Ok(acc.into_iter().map(|a| F::cast(a / total)).collect())
    }
}

/// The meta-features of classifier members on `x`: probabilities (the class-1 column only for
/// two classes) of soft members, labels of hard members.
fn classifier_features<F: Float>(
    members: &[FittedClassifierMember<F>],
    soft: &[bool],
    x: &ArrayRef2<F>,
    n_classes: usize,
) -> Result<Array2<F>> {
    let mut blocks: Vec<Array2<F>> = Vec::with_capacity(members.len());
    for (m, &s) in members.iter().zip(soft) {
        let block = match (&m.proba, s) {
            (Some(proba), true) => {
                let mut p = proba(x)?;
                if p.ncols() < n_classes {
                    let pad = Array2::<F>::zeros((p.nrows(), n_classes - p.ncols()));
                    p = concatenate(Axis(1), &[p.view(), pad.view()])
                        .map_err(|e| Error::invalid_param("estimators", e.to_string()))?;
                }
                if n_classes == 2 {
                    p.column(1).to_owned().insert_axis(Axis(1))
                } else {
                    p
                }
            }
            _ => (m.predict)(x)?
                .mapv(|c| F::cast(c as f64))
                .insert_axis(Axis(1)),
        };
        blocks.push(block);
    }
    let views: Vec<_> = blocks.iter().map(|b| b.view()).collect();
    concatenate(Axis(1), &views).map_err(|e| Error::invalid_param("estimators", e.to_string()))
}

fn with_passthrough<F: Float>(z: Array2<F>, x: &ArrayRef2<F>, on: bool) -> Result<Array2<F>> {
    if !on {
        return Ok(z);
    }
    concatenate(Axis(1), &[z.view(), x.view()])
        .map_err(|e| Error::invalid_param("passthrough", e.to_string()))
}

/// Stacking of classifiers under a final classifier. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct StackingClassifier<F> {
    /// The base members.
    pub estimators: Vec<ClassifierMember<F>>,
    /// The final estimator, fitted on the members' cross-validated outputs.
    pub final_estimator: ClassifierMember<F>,
    /// Folds of the cross-validated outputs (default 5).
    pub cv: usize,
    /// Append the original features to the meta-features (default `false`).
    pub passthrough: bool,
    /// Seed of the fold shuffle.
    pub seed: u64,
}

impl<F: Float> StackingClassifier<F> {
    /// Stacking of `estimators` under `final_estimator` with 5 folds.
    pub fn new(estimators: Vec<ClassifierMember<F>>, final_estimator: ClassifierMember<F>) -> Self {
        Self {
            estimators,
            final_estimator,
            cv: 5,
            passthrough: false,
            seed: 0,
        }
    }

    ndlearn_core::setters! {
        cv: usize,
        passthrough: bool,
        seed: u64,
    }
}

impl<F: Float> Estimator for StackingClassifier<F> {
    /// Checks the members, the final estimator and `cv ≥ 2`.
    fn validate(&self) -> Result<()> {
        check_members(self.estimators.len(), None)?;
        validate::check_at_least("cv", self.cv, 2)?;
        self.estimators.iter().try_for_each(|m| (m.validate)())?;
        (self.final_estimator.validate)()
    }
}

/// A fitted [`StackingClassifier`].
pub struct FittedStackingClassifier<F> {
    members: Vec<FittedClassifierMember<F>>,
    soft: Vec<bool>,
    final_model: FittedClassifierMember<F>,
    passthrough: bool,
    n_classes: usize,
    n_features: usize,
}

impl<F> fmt::Debug for FittedStackingClassifier<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FittedStackingClassifier")
            .field("members", &self.members.len())
            .field("passthrough", &self.passthrough)
            .finish()
    }
}

/// Out-of-fold meta-features: rows of fold `f`'s test part from the members fitted on the rest.
fn out_of_fold<F, G>(n: usize, width: usize, cv: usize, seed: u64, fold: G) -> Result<Array2<F>>
where
    F: Float,
    G: Fn(&[usize], &[usize]) -> Result<Array2<F>> + Sync + Send,
{
    let splits = KFold::new(cv).shuffle(true).seed(seed).split(n, None)?;
    let parts = par::try_map_tasks(splits.len(), |f| fold(&splits[f].0, &splits[f].1))?;
    let mut z = Array2::<F>::zeros((n, width));
    for ((_, test), p) in splits.iter().zip(&parts) {
        for (r, &i) in test.iter().enumerate() {
            z.row_mut(i).assign(&p.row(r));
        }
    }
    Ok(z)
}

impl<F: Float> Fit<F> for StackingClassifier<F> {
    type Target = ArrayRef1<usize>;
    type Model = FittedStackingClassifier<F>;

    /// Fits the members on all rows, the final estimator on their out-of-fold outputs.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.validate()?;
        let k = validate::check_classification_input(x, y, 2, "StackingClassifier")?;
        let soft: Vec<bool> = self.estimators.iter().map(|m| m.soft).collect();
        let members = fit_classifiers(&self.estimators, x, y)?;
        let width =
            classifier_features(&members, &soft, &x.slice(ndarray::s![..1, ..]), k)?.ncols();
        let z = out_of_fold(x.nrows(), width, self.cv, self.seed, |train, test| {
            let xt = x.select(Axis(0), train);
            let yt = y.select(Axis(0), train);
            let fold_members = fit_classifiers(&self.estimators, &xt, &yt)?;
            classifier_features(&fold_members, &soft, &x.select(Axis(0), test), k)
        })?;
        let z = with_passthrough(z, x, self.passthrough)?;
        let final_model = (self.final_estimator.fit)(&z, y)?;
        Ok(FittedStackingClassifier {
            members,
            soft,
            final_model,
            passthrough: self.passthrough,
            n_classes: k,
            n_features: x.ncols(),
        })
    }
}

impl<F: Float> FittedStackingClassifier<F> {
    /// The meta-features of `x` (the members' outputs, then `x` with `passthrough`).
    ///
    /// # Errors
    /// A different feature count; the members' errors.
    pub fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        validate::check_predict_input(x, self.n_features, "StackingClassifier::transform")?;
        let z = classifier_features(&self.members, &self.soft, x, self.n_classes)?;
        with_passthrough(z, x, self.passthrough)
    }

    /// The final estimator's probabilities (when it is soft).
    ///
    /// # Errors
    /// A hard final estimator; as [`transform`](Self::transform).
    pub fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let z = self.transform(x)?;
        match &self.final_model.proba {
            Some(p) => p(&z),
            None => Err(Error::invalid_param(
                "final_estimator",
                "the final estimator gives no probabilities",
            )),
        }
    }
}

impl<F: Float> Predict<F> for FittedStackingClassifier<F> {
    type Output = Array1<usize>;

    /// The final estimator's prediction on the members' outputs.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let z = self.transform(x)?;
        (self.final_model.predict)(&z)
    }
}

/// Stacking of regressors under a final regressor. See the [module docs](self).
#[derive(Debug, Clone)]
pub struct StackingRegressor<F> {
    /// The base members.
    pub estimators: Vec<RegressorMember<F>>,
    /// The final estimator, fitted on the members' cross-validated predictions.
    pub final_estimator: RegressorMember<F>,
    /// Folds of the cross-validated predictions (default 5).
    pub cv: usize,
    /// Append the original features to the meta-features (default `false`).
    pub passthrough: bool,
    /// Seed of the fold shuffle.
    pub seed: u64,
}

impl<F: Float> StackingRegressor<F> {
    /// Stacking of `estimators` under `final_estimator` with 5 folds.
    pub fn new(estimators: Vec<RegressorMember<F>>, final_estimator: RegressorMember<F>) -> Self {
        Self {
            estimators,
            final_estimator,
            cv: 5,
            passthrough: false,
            seed: 0,
        }
    }

    ndlearn_core::setters! {
        cv: usize,
        passthrough: bool,
        seed: u64,
    }
}

impl<F: Float> Estimator for StackingRegressor<F> {
    /// Checks the members, the final estimator and `cv ≥ 2`.
    fn validate(&self) -> Result<()> {
        check_members(self.estimators.len(), None)?;
        validate::check_at_least("cv", self.cv, 2)?;
        self.estimators.iter().try_for_each(|m| (m.validate)())?;
        (self.final_estimator.validate)()
    }
}

/// A fitted [`StackingRegressor`].
pub struct FittedStackingRegressor<F> {
    members: Vec<FittedRegressorMember<F>>,
    final_model: FittedRegressorMember<F>,
    passthrough: bool,
    n_features: usize,
}

impl<F> fmt::Debug for FittedStackingRegressor<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("FittedStackingRegressor")
            .field("members", &self.members.len())
            .field("passthrough", &self.passthrough)
            .finish()
    }
}

fn regressor_features<F: Float>(
    members: &[FittedRegressorMember<F>],
    x: &ArrayRef2<F>,
) -> Result<Array2<F>> {
    let mut z = Array2::<F>::zeros((x.nrows(), members.len()));
    for (j, m) in members.iter().enumerate() {
        z.column_mut(j).assign(&(m.predict)(x)?);
    }
    Ok(z)
}

impl<F: Float> Fit<F> for StackingRegressor<F> {
    type Target = ArrayRef1<F>;
    type Model = FittedStackingRegressor<F>;

    /// Fits the members on all rows, the final estimator on their out-of-fold predictions.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        validate::check_regression_input(x, y, 2, "StackingRegressor")?;
        let members = fit_regressors(&self.estimators, x, y)?;
        let z = out_of_fold(
            x.nrows(),
            members.len(),
            self.cv,
            self.seed,
            |train, test| {
                let xt = x.select(Axis(0), train);
                let yt = y.select(Axis(0), train);
                let fold_members = fit_regressors(&self.estimators, &xt, &yt)?;
                regressor_features(&fold_members, &x.select(Axis(0), test))
            },
        )?;
        let z = with_passthrough(z, x, self.passthrough)?;
        let final_model = (self.final_estimator.fit)(&z, y)?;
        Ok(FittedStackingRegressor {
            members,
            final_model,
            passthrough: self.passthrough,
            n_features: x.ncols(),
        })
    }
}

impl<F: Float> FittedStackingRegressor<F> {
    /// The meta-features of `x` (the members' predictions, then `x` with `passthrough`).
    ///
    /// # Errors
    /// A different feature count; the members' errors.
    pub fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        validate::check_predict_input(x, self.n_features, "StackingRegressor::transform")?;
        with_passthrough(regressor_features(&self.members, x)?, x, self.passthrough)
    }
}

impl<F: Float> Predict<F> for FittedStackingRegressor<F> {
    type Output = Array1<F>;

    /// The final estimator's prediction on the members' predictions.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let z = self.transform(x)?;
        (self.final_model.predict)(&z)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{DecisionTreeClassifier, DecisionTreeRegressor};
    use ndarray::array;

    fn votes_data() -> (Array2<f64>, Array1<usize>) {
        let x = Array2::from_shape_fn((12, 1), |(i, _)| i as f64);
        let y = (0..12).map(|i| usize::from(i >= 6)).collect();
        (x, y)
    }

    #[test]
    fn weighted_hard_vote_by_hand() {
        // A stump learns the split at 5.5; the constant "tree" of depth 1 on a relabelled
        // problem is not possible, so use weights: two stumps outvote nothing here but weights
        // must still sum correctly.
        let (x, y) = votes_data();
        let stump = DecisionTreeClassifier::default().max_depth(Some(1));
        let vote = VotingClassifier::new(vec![
            ClassifierMember::soft("a", stump.clone()),
            ClassifierMember::hard("b", stump.clone()),
        ])
        .weights(Some(vec![2.0, 1.0]));
        let fit = vote.fit(&x, &y).expect("fit");
        assert_eq!(fit.predict(&x).expect("predict"), y);
        assert!(fit.predict_proba(&x).is_err()); // hard voting
        let soft = VotingClassifier::new(vec![
            ClassifierMember::soft("a", stump.clone()),
            ClassifierMember::soft("b", DecisionTreeClassifier::default()),
        ])
        .voting(Voting::Soft)
        .fit(&x, &y)
        .expect("fit");
        let p = soft.predict_proba(&x).expect("proba");
        assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
        // Soft voting with a hard member, wrong weights, no member: typed errors.
        for bad in [
            VotingClassifier::new(vec![ClassifierMember::hard("h", stump.clone())])
                .voting(Voting::Soft),
            VotingClassifier::new(vec![ClassifierMember::hard("h", stump.clone())])
                .weights(Some(vec![1.0, 2.0])),
            VotingClassifier::new(vec![]),
            VotingClassifier::new(vec![ClassifierMember::hard(
                "h",
                DecisionTreeClassifier::default().max_depth(Some(0)),
            )]),
        ] {
            assert!(matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })));
        }
        assert!(fit.predict(&array![[1.0, 2.0]]).is_err());
    }

    #[test]
    fn voting_regressor_is_the_weighted_mean() {
        let x = Array2::from_shape_fn((20, 1), |(i, _)| i as f64);
        let y: Array1<f64> = x.column(0).mapv(|v| v * v);
        let a = DecisionTreeRegressor::default().max_depth(Some(1));
        let b = DecisionTreeRegressor::default();
        let vote = VotingRegressor::new(vec![
            RegressorMember::new("a", a.clone()),
            RegressorMember::new("b", b.clone()),
        ])
        .weights(Some(vec![1.0, 3.0]));
        let p = vote.fit(&x, &y).expect("fit").predict(&x).expect("predict");
        let pa = a.fit(&x, &y).expect("fit").predict(&x).expect("predict");
        let pb = b.fit(&x, &y).expect("fit").predict(&x).expect("predict");
        let expect = (&pa + &(&pb * 3.0)) / 4.0;
        assert!(p.iter().zip(&expect).all(|(u, v)| (u - v).abs() < 1e-12));
    }

    #[test]
    fn stacking_uses_out_of_fold_outputs() {
        let data = ndlearn_datasets::iris();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let stack = StackingClassifier::new(
            vec![
                ClassifierMember::soft("deep", DecisionTreeClassifier::default()),
                ClassifierMember::hard(
                    "stump",
                    DecisionTreeClassifier::default().max_depth(Some(2)),
                ),
            ],
            ClassifierMember::soft(
                "final",
                DecisionTreeClassifier::default().max_depth(Some(3)),
            ),
        );
        let fit = stack.fit(x, y).expect("fit");
        // 3 probability columns + 1 label column.
        assert_eq!(fit.transform(x).expect("z").ncols(), 4);
        let acc = fit
            .predict(x)
            .expect("predict")
            .iter()
            .zip(y)
            .filter(|(p, t)| p == t)
            .count();
        assert!(acc >= 140, "{acc}");
        assert_eq!(fit.predict_proba(x).expect("proba").ncols(), 3);
        let pass = stack.clone().passthrough(true).fit(x, y).expect("fit");
        assert_eq!(pass.transform(x).expect("z").ncols(), 8);
        assert!(stack.clone().cv(1).fit(x, y).is_err());
        let yr: Array1<f64> = x.column(0).to_owned();
        let reg = StackingRegressor::new(
            vec![
                RegressorMember::new("a", DecisionTreeRegressor::default().max_depth(Some(2))),
                RegressorMember::new("b", DecisionTreeRegressor::default()),
            ],
            RegressorMember::new("final", DecisionTreeRegressor::default().max_depth(Some(3))),
        )
        .fit(x, &yr)
        .expect("fit");
        assert_eq!(reg.transform(x).expect("z").ncols(), 2);
        // Same seed, same model, for any thread count.
        let one = par::with_threads(1, || stack.fit(x, y).expect("fit").predict(x).expect("p"))
            .expect("pool");
        let three = par::with_threads(3, || stack.fit(x, y).expect("fit").predict(x).expect("p"))
            .expect("pool");
        assert_eq!(one, three);
    }
}
