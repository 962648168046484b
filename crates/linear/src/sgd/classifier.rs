//! [`SGDClassifier`] and its fitted model (see the [module docs](super)).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::DecisionFunction;
use ndlearn_core::Estimator;
use ndlearn_core::validate::{check_classification_input, check_predict_input};
use ndlearn_core::{
    Error, FeatureImportances, Fit, FitWeighted, Float, Labels, PartialFit, Predict, PredictProba,
    Result, random,
};

use super::engine::{self, Problem, State, Validation};
use super::{CommonParams, LearningRate, SgdLoss, SgdPenalty, classes_from_scores, row_major};
use crate::model::check_scores;
use ndlearn_core::ClassWeight;
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// A linear classifier (SVM, logistic regression, …) trained by SGD, scikit-learn's
/// `SGDClassifier`. See the [module docs](super) for the losses, schedules and penalties.
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_linear::{SGDClassifier, SgdLoss, SgdPenalty};
///
/// let data = ndlearn_datasets::iris();
/// let y = data.y_classes().expect("labels");
/// let x = data.x();
/// let xs = (x - &x.mean_axis(ndarray::Axis(0)).expect("rows")) / &x.std_axis(ndarray::Axis(0), 0.0);
/// let fit = SGDClassifier::default()
///     .loss(SgdLoss::LogLoss)
///     .penalty(SgdPenalty::ElasticNet)
///     .alpha(1e-3)
///     .seed(7)
///     .fit(&xs, y)?;
/// assert_eq!(fit.coef().dim(), (3, 4)); // one-vs-all: one row per class
/// let acc = fit.predict(&xs)?.iter().zip(y).filter(|(a, b)| a == b).count();
/// assert!(acc >= 130);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SGDClassifier {
    /// The loss (default `Hinge`).
    pub loss: SgdLoss,
    /// The penalty (default `L2`).
    pub penalty: SgdPenalty,
    /// Penalty strength `α ≥ 0` (default 1e-4).
    pub alpha: f64,
    /// Elastic-net mixing `ρ ∈ [0, 1]` (default 0.15; used by `ElasticNet` only).
    pub l1_ratio: f64,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Maximum epochs (default 1000).
    pub max_iter: usize,
    /// Stopping tolerance on the epoch objective (default `Some(1e-3)`; `None` runs
    /// `max_iter` epochs).
    pub tol: Option<f64>,
    /// Shuffle the rows before every epoch (default `true`).
    pub shuffle: bool,
    /// `ε` of the Huber and ε-insensitive losses (default 0.1).
    pub epsilon: f64,
    /// Seed of the shuffles and of the validation split (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
    /// The schedule (default `Optimal`).
    pub learning_rate: LearningRate,
    /// Initial / constant learning rate (default 0.01).
    pub eta0: f64,
    /// Exponent of `InvScaling` (default 0.5).
    pub power_t: f64,
    /// Stop on a held-out validation score (default `false`).
    pub early_stopping: bool,
    /// Held-out fraction for early stopping (default 0.1).
    pub validation_fraction: f64,
    /// Epochs without improvement before stopping (default 5).
    pub n_iter_no_change: usize,
    /// Class weights (default none).
    pub class_weight: ClassWeight,
    /// Average the iterates from step `average` on (0 = off, 1 = scikit-learn's `True`).
    pub average: usize,
    /// Number of classes announced for `partial_fit` (default: the first batch's largest
    /// label + 1; scikit-learn's `classes`).
    pub n_classes: Option<usize>,
}

impl Default for SGDClassifier {
    fn default() -> Self {
        Self {
            loss: SgdLoss::Hinge,
            penalty: SgdPenalty::L2,
            alpha: 1e-4,
            l1_ratio: 0.15,
            fit_intercept: true,
            max_iter: 1000,
            tol: Some(1e-3),
            shuffle: true,
            epsilon: 0.1,
            seed: 0,
            learning_rate: LearningRate::Optimal,
            eta0: 0.01,
            power_t: 0.5,
            early_stopping: false,
            validation_fraction: 0.1,
            n_iter_no_change: 5,
            class_weight: ClassWeight::Uniform,
            average: 0,
            n_classes: None,
        }
    }
}

impl SGDClassifier {
    ndlearn_core::setters! {
        /// Sets the loss.
        loss: SgdLoss,
        /// Sets the penalty.
        penalty: SgdPenalty,
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `l1_ratio`.
        l1_ratio: f64,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol` (`None`: run `max_iter` epochs).
        tol: Option<f64>,
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `epsilon`.
        epsilon: f64,
        /// Sets the seed (`random_state`).
        seed: u64,
        /// Sets the schedule.
        learning_rate: LearningRate,
        /// Sets `eta0`.
        eta0: f64,
        /// Sets `power_t`.
        power_t: f64,
        /// Sets `early_stopping`.
        early_stopping: bool,
        /// Sets `validation_fraction`.
        validation_fraction: f64,
        /// Sets `n_iter_no_change`.
        n_iter_no_change: usize,
        /// Sets the class weights.
        class_weight: ClassWeight,
        /// Sets `average` (0 = off).
        average: usize,
        /// Sets the number of classes for `partial_fit`.
        n_classes: Option<usize>,
    }

    fn common(&self) -> CommonParams {
        CommonParams {
            alpha: self.alpha,
            l1_ratio: self.l1_ratio,
            max_iter: self.max_iter,
            tol: self.tol,
            epsilon: self.epsilon,
            learning_rate: self.learning_rate,
            eta0: self.eta0,
            power_t: self.power_t,
            validation_fraction: self.validation_fraction,
            n_iter_no_change: self.n_iter_no_change,
        }
    }

    /// Fits for `max_iter` epochs, or continues `model` for one (`streaming`).
    fn run<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        sw: Vec<F>,
        model: Option<FittedSGDClassifier<F>>,
        n_classes: usize,
        streaming: bool,
    ) -> Result<FittedSGDClassifier<F>> {
        // partial_fit is one epoch (scikit-learn's max_iter = 1).
        let max_iter = if streaming { 1 } else { self.max_iter };
        let (n, d) = x.dim();
        let cw = self.class_weights(y, n_classes, streaming)?;
        let problems = if n_classes == 2 { 1 } else { n_classes };
        let (mut coef, mut intercept, mut avg_coef, mut avg_intercept, t0) = match model {
            Some(m) => (m.coef, m.intercept, m.avg_coef, m.avg_intercept, m.t),
            None => (
                Array2::zeros((problems, d)),
                Array1::zeros(problems),
                Array2::zeros((0, d)),
                Array1::zeros(0),
                1.0,
            ),
        };
        if self.average > 0 && avg_coef.nrows() != problems {
            avg_coef = Array2::zeros((problems, d));
            avg_intercept = Array1::zeros(problems);
        }
        let xs = row_major(x);
        let mask = if self.early_stopping {
            let labels: Vec<usize> = y.iter().copied().collect();
            Some(super::validation_mask(
                n,
                Some(&labels),
                self.validation_fraction,
                self.seed,
            )?)
        } else {
            None
        };
        let loss = self.loss.engine(self.epsilon);
        let label_encode = self.loss == SgdLoss::LogLoss;
        let positive = |k: usize| if problems == 1 { 1 } else { k };
        let results = ndlearn_core::par::try_map_tasks(problems, |k| {
            let pos = positive(k);
            let neg_code = if label_encode { F::zero() } else { -F::one() };
            let yk: Vec<F> = y
                .iter()
                .map(|&c| if c == pos { F::one() } else { neg_code })
                .collect();
            let (wp, wn) = if problems == 1 {
                (cw[1], cw[0])
            } else {
                (cw[k], 1.0)
            };
            let mut state = State {
                w: coef.row(k).to_vec(),
                intercept: intercept[k].to_f64_lossless(),
                avg_w: if self.average > 0 {
                    avg_coef.row(k).to_vec()
                } else {
                    Vec::new()
                },
                avg_intercept: if self.average > 0 {
                    avg_intercept[k].to_f64_lossless()
                } else {
                    0.0
                },
            };
            let score = |w: &[F], b: f64| binary_accuracy(&xs, d, &yk, &sw, mask.as_deref(), w, b);
            let info = engine::run(
                Problem {
                    x: &xs,
                    n,
                    d,
                    y: &yk,
                    sample_weight: &sw,
                    loss,
                    penalty: self.penalty,
                    alpha: self.alpha,
                    l1_ratio: self.l1_ratio,
                    learning_rate: self.learning_rate,
                    eta0: self.eta0,
                    power_t: self.power_t,
                    max_iter,
                    tol: self.tol,
                    n_iter_no_change: self.n_iter_no_change,
                    fit_intercept: self.fit_intercept,
                    weight_pos: F::cast(wp),
                    weight_neg: F::cast(wn),
                    average: self.average,
                    shuffle: self.shuffle.then(|| random::stream(self.seed, k as u64)),
                    validation: mask.as_deref().map(|m| Validation {
                        mask: m,
                        score: &score,
                    }),
                    name: "SGDClassifier",
                    report: problems == 1,
                },
                &mut state,
                t0,
            )?;
            Ok((state, info))
        })?;
        let mut n_iter = 0;
        let mut converged = true;
        for (k, (state, info)) in results.into_iter().enumerate() {
            coef.row_mut(k).assign(&Array1::from(state.w));
            intercept[k] = F::cast(state.intercept);
            if self.average > 0 {
                avg_coef.row_mut(k).assign(&Array1::from(state.avg_w));
                avg_intercept[k] = F::cast(state.avg_intercept);
            }
            n_iter = n_iter.max(info.n_iter);
            converged &= info.stopped;
        }
        Ok(FittedSGDClassifier {
            params: self.clone(),
            coef,
            intercept,
            avg_coef,
            avg_intercept,
            n_classes,
            n_iter,
            t: t0 + (n_iter * n) as f64,
            converged,
        })
    }

    /// The weight of every class `0..K` (scikit-learn's `compute_class_weight` on the labels,
    /// without sample weights, as scikit-learn's SGD).
    fn class_weights(&self, y: &Labels, k: usize, streaming: bool) -> Result<Vec<f64>> {
        if streaming && self.class_weight == ClassWeight::Balanced {
            return Err(Error::invalid_param(
                "class_weight",
                "Balanced is not supported with partial_fit: compute the weights from a large \
                 enough sample of the labels and pass them explicitly",
            ));
        }
        self.class_weight.for_classes(y, k, None)
    }
}

impl ndlearn_core::Estimator for SGDClassifier {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field.
    fn validate(&self) -> Result<()> {
        self.common().validate()?;
        self.class_weight.validate_not_subsample()?;
        if let Some(k) = self.n_classes {
            ndlearn_core::validate::check_at_least("n_classes", k, 2)?;
        }
        Ok(())
    }
}

/// Weighted accuracy of the binary rule `wᵀx + b > 0` on the held-out rows.
fn binary_accuracy<F: Float>(
    x: &[F],
    d: usize,
    y: &[F],
    sw: &[F],
    mask: Option<&[bool]>,
    w: &[F],
    b: f64,
) -> f64 {
    let Some(mask) = mask else {
        return 0.0;
    };
    let (mut good, mut total) = (0.0, 0.0);
    for (i, &held) in mask.iter().enumerate() {
        if !held {
            continue;
        }
        let row = &x[i * d..(i + 1) * d];
        let z: f64 = row
            .iter()
            .zip(w)
            .map(|(&a, &c)| (a * c).to_f64_lossless())
            .sum::<f64>()
            + b;
        let s = sw[i].to_f64_lossless();
        total += s;
        if (z > 0.0) == (y[i] > F::zero()) {
            good += s;
        }
    }
    if total > 0.0 { good / total } else { 0.0 }
}

impl<F: Float> Fit<F> for SGDClassifier {
    type Target = Labels;
    type Model = FittedSGDClassifier<F>;

    /// Fits from zero weights and `t = 1` (labels `0..K`, at least two distinct).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<FittedSGDClassifier<F>> {
        self.validate()?;
        let k = check_classification_input(x, y, 2, "SGDClassifier::fit")?;
        self.run(x, y, vec![F::one(); x.nrows()], None, k, false)
    }
}

impl<F: Float> FitWeighted<F> for SGDClassifier {
    /// Fits with per-sample weights (length `N`, finite, ≥ 0, positive sum), multiplied by the
    /// class weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSGDClassifier<F>> {
        self.validate()?;
        let k = check_classification_input(x, y, 2, "SGDClassifier::fit")?;
        let w = match sample_weight {
            Some(w) => {
                ndlearn_core::validate::check_sample_weight(w, x.nrows())?;
                w.to_vec()
            }
            None => vec![F::one(); x.nrows()],
        };
        self.run(x, y, w, None, k, false)
    }
}

impl<F: Float> PartialFit<F> for SGDClassifier {
    type Target = Labels;
    type Model = FittedSGDClassifier<F>;

    /// One epoch over the batch (scikit-learn's `partial_fit`, `max_iter = 1`), continuing
    /// `model`'s weights, averages and step counter `t`. The first batch fixes the number of
    /// classes ([`SGDClassifier::n_classes`], or its largest label + 1, at least 2); later
    /// batches may hold any subset of the classes.
    fn partial_fit(
        &self,
        model: Option<FittedSGDClassifier<F>>,
        x: &ArrayRef2<F>,
        y: &Labels,
    ) -> Result<FittedSGDClassifier<F>> {
        self.validate()?;
        if self.early_stopping {
            return Err(Error::invalid_param(
                "early_stopping",
                "must be false with partial_fit",
            ));
        }
        ndlearn_core::validate::check_target_len(x.nrows(), y.len(), "SGDClassifier::partial_fit")?;
        ndlearn_core::validate::check_fit_input(x, 1, "SGDClassifier::partial_fit")?;
        let max = y.iter().copied().max().unwrap_or(0);
        let k = match (&model, self.n_classes) {
            (Some(m), _) => m.n_classes,
            (None, Some(k)) => k,
            (None, None) => max + 1,
        };
        if k < 2 {
            return Err(Error::TooFewClasses {
                context: "SGDClassifier::partial_fit (set n_classes to announce every class)",
                needed: 2,
                found: k,
            });
        }
        if max >= k {
            let index = y.iter().position(|&v| v == max).unwrap_or(0);
            return Err(Error::InvalidLabel {
                label: max,
                index,
                reason: format!("partial_fit: the model has {k} classes"),
            });
        }
        if let Some(m) = &model {
            ndlearn_core::validate::check_n_features(
                x.ncols(),
                m.coef.ncols(),
                "SGDClassifier::partial_fit: number of features",
            )?;
        }
        self.run(x, y, vec![F::one(); x.nrows()], model, k, true)
    }
}

/// A fitted [`SGDClassifier`]: the weights and the streaming state (`t`, averages).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSGDClassifier<F: Float> {
    params: SGDClassifier,
    coef: Array2<F>,
    intercept: Array1<F>,
    avg_coef: Array2<F>,
    avg_intercept: Array1<F>,
    n_classes: usize,
    n_iter: usize,
    t: f64,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedSGDClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.coef.ncols()
    }
}

impl<F: Float> FittedSGDClassifier<F> {
    /// The hyperparameters of the last fit or `partial_fit`.
    pub fn params(&self) -> &SGDClassifier {
        &self.params
    }
    fn averaged(&self) -> bool {
        self.params.average > 0
            && self.avg_coef.nrows() == self.coef.nrows()
            && self.params.average as f64 <= self.t - 1.0
    }
    /// Coefficients (`1 × d` for two classes, `K × d` otherwise; scikit-learn's `coef_`): the
    /// averaged ones once averaging is active, the plain iterate otherwise.
    pub fn coef(&self) -> &Array2<F> {
        if self.averaged() {
            &self.avg_coef
        } else {
            &self.coef
        }
    }
    /// Intercepts (length 1 or `K`), averaged like [`Self::coef`].
    pub fn intercept(&self) -> &Array1<F> {
        if self.averaged() {
            &self.avg_intercept
        } else {
            &self.intercept
        }
    }
    /// The plain (non-averaged) SGD iterate, from which `partial_fit` continues.
    pub fn standard_coef(&self) -> &Array2<F> {
        &self.coef
    }
    /// The plain intercepts.
    pub fn standard_intercept(&self) -> &Array1<F> {
        &self.intercept
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Epochs of the last call (the maximum over the one-vs-all problems).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// The step counter after the fit (scikit-learn's `t_`: 1 + samples processed).
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Whether every problem stopped by its criterion before `max_iter` (`false` with
    /// `tol = None`, and after `partial_fit`).
    pub fn converged(&self) -> bool {
        self.converged
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedSGDClassifier<F> {
    /// Scores `X Wᵀ + b`: `N × 1` for two classes (class 1's score), `N × K` otherwise.
    ///
    /// # Errors
    /// A feature count different from the fit, or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let coef = self.coef();
        check_predict_input(x, coef.ncols(), "decision_function: number of features")?;
        let mut z = x.dot(&coef.t());
        z += self.intercept();
        Ok(z)
    }
}

impl<F: Float> Predict<F> for FittedSGDClassifier<F> {
    type Output = Array1<usize>;

    /// Two classes: class 1 iff `wᵀx + b ≥ 0`; otherwise `argmax_k` (ties to the lower class).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(classes_from_scores(&self.decision_function(x)?))
    }
}

impl<F: Float> PredictProba<F> for FittedSGDClassifier<F> {
    /// Probabilities for `LogLoss` and `ModifiedHuber` (see the [module docs](super)).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for the other losses; input errors as `predict`.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let link: fn(F) -> F = match self.params.loss {
            SgdLoss::LogLoss => ndlearn_core::numeric::sigmoid,
            SgdLoss::ModifiedHuber => {
                |v| (v.max(-F::one()).min(F::one()) + F::one()) / F::cast(2.0)
            }
            _ => {
                return Err(Error::invalid_param(
                    "loss",
                    "predict_proba needs loss = LogLoss or ModifiedHuber",
                ));
            }
        };
        let z = self.decision_function(x)?;
        let n = z.nrows();
        if self.n_classes == 2 {
            let mut p = Array2::zeros((n, 2));
            for (i, &v) in z.column(0).iter().enumerate() {
                let p1 = link(v);
                p[[i, 1]] = p1;
                p[[i, 0]] = F::one() - p1;
            }
            return Ok(p);
        }
        let mut p = z.mapv(link);
        let k = F::cast(p.ncols());
        for mut row in p.rows_mut() {
            let sum = row.sum();
            if sum == F::zero() {
                row.fill(F::one() / k);
            } else {
                row.mapv_inplace(|v| v / sum);
            }
        }
        Ok(p)
    }
}

impl<F: Float> FeatureImportances<F> for FittedSGDClassifier<F> {
    /// `Σ_k |w_kj|` over the coefficient rows.
    fn feature_importances(&self) -> Array1<F> {
        crate::model::abs_column_sums(self.coef())
    }
}

impl<F: Float> CheckModel for FittedSGDClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSGDClassifier");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 2)?;
        let rows = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        check_scores(&c, &self.coef, &self.intercept, rows)?;
        // No averages (never averaged) or one row per problem.
        let (a, d) = (self.avg_coef.nrows(), self.coef.ncols());
        c.that(a == 0 || self.avg_coef.dim() == (rows, d), || {
            format!("`avg_coef` needs 0 or {rows} rows of {d} features")
        })?;
        c.len("avg_intercept", self.avg_intercept.len(), a)?;
        c.finite("avg_coef", &self.avg_coef)?;
        c.finite("avg_intercept", &self.avg_intercept)?;
        c.that(self.t.is_finite() && self.t >= 1.0, || {
            "`t` must be finite and at least 1".into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Axis, array, s};

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = blobs();
        let mut fit = SGDClassifier::default()
            .average(1)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.avg_intercept = Array1::zeros(0);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = SGDClassifier::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.t = f64::NAN;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn blobs() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [-2.0, 1.0],
            [-1.5, -0.5],
            [-1.0, 0.3],
            [-1.8, 0.1],
            [1.0, 0.2],
            [1.5, -1.0],
            [2.0, 0.8],
            [1.2, 0.5]
        ];
        (x, array![0, 0, 0, 0, 1, 1, 1, 1])
    }

    #[test]
    fn invalid_hyperparameters_are_named() {
        let (x, y) = blobs();
        let bad = [
            (SGDClassifier::default().alpha(-1.0), "alpha"),
            (SGDClassifier::default().alpha(0.0), "alpha"),
            (SGDClassifier::default().l1_ratio(1.5), "l1_ratio"),
            (SGDClassifier::default().max_iter(0), "max_iter"),
            (SGDClassifier::default().tol(Some(-1.0)), "tol"),
            (SGDClassifier::default().eta0(0.0), "eta0"),
            (SGDClassifier::default().power_t(-0.5), "power_t"),
            (SGDClassifier::default().epsilon(f64::NAN), "epsilon"),
            (
                SGDClassifier::default().validation_fraction(1.0),
                "validation_fraction",
            ),
            (
                SGDClassifier::default().n_iter_no_change(0),
                "n_iter_no_change",
            ),
            (
                SGDClassifier::default().class_weight(ClassWeight::per_class(&[1.0, -1.0])),
                "class_weight",
            ),
            (SGDClassifier::default().n_classes(Some(1)), "n_classes"),
        ];
        for (est, name) in bad {
            match Fit::<f64>::fit(&est, &x, &y) {
                Err(Error::InvalidParam { name: got, .. }) => assert_eq!(got, name),
                other => panic!("{name}: {other:?}"),
            }
        }
        // alpha = 0 is fine with another schedule.
        assert!(
            SGDClassifier::default()
                .alpha(0.0)
                .learning_rate(LearningRate::Constant)
                .fit(&x, &y)
                .is_ok()
        );
        assert!(matches!(
            SGDClassifier::default().fit(&x, &Array1::from_elem(8, 1)),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(
            SGDClassifier::default()
                .class_weight(ClassWeight::Explicit(
                    [(0, 1.0), (7, 2.0)].into_iter().collect()
                ))
                .fit(&x, &y)
                .is_err()
        );
    }

    /// The first step by hand: hinge, L2, optimal schedule, w = 0, b = 0. The prediction is 0,
    /// so ℓ' = −y; η₁ = 1/(α t₀) = τ = α^{-1/4}; the decay multiplies 0; w = η y x, b = η y.
    #[test]
    fn first_step_by_hand() {
        let x = array![[2.0, -1.0]];
        let y = array![1usize];
        let est = SGDClassifier::default()
            .n_classes(Some(2))
            .alpha(0.01)
            .shuffle(false);
        let m = est.partial_fit(None, &x, &y).expect("fit");
        let eta = 0.01f64.powf(-0.25);
        assert!((m.coef()[[0, 0]] - 2.0 * eta).abs() < 1e-12);
        assert!((m.coef()[[0, 1]] + eta).abs() < 1e-12);
        assert!((m.intercept()[0] - eta).abs() < 1e-12);
        assert_eq!(m.t(), 2.0);
        // Second sample with the log loss at w = 0: ℓ'(0; y = 0) = σ(0) − 0 = ½.
        let m = SGDClassifier::default()
            .loss(SgdLoss::LogLoss)
            .learning_rate(LearningRate::Constant)
            .eta0(0.1)
            .penalty(SgdPenalty::None)
            .n_classes(Some(2))
            .partial_fit(None, &x, &array![0usize])
            .expect("fit");
        assert!((m.coef()[[0, 0]] + 0.1).abs() < 1e-15);
        assert!((m.intercept()[0] + 0.05).abs() < 1e-15);
    }

    #[test]
    fn l1_gives_exact_zeros_and_streaming_rules() {
        let (x, y) = blobs();
        // A pure-noise column next to two informative ones: L1 zeroes it.
        let noise = array![0.01, -0.02, 0.015, -0.01, 0.02, -0.015, 0.01, -0.005];
        let mut xn = ndarray::concatenate![Axis(1), x, noise.insert_axis(Axis(1))];
        xn.column_mut(2).mapv_inplace(|v| v * 0.1);
        let fit = SGDClassifier::default()
            .penalty(SgdPenalty::L1)
            .alpha(0.05)
            .shuffle(false)
            .fit(&xn, &y)
            .expect("fit");
        assert_eq!(fit.coef()[[0, 2]], 0.0);
        assert_eq!(fit.predict(&xn).expect("predict"), y);
        // partial_fit: labels beyond the announced classes, Balanced and early stopping refused.
        let est = SGDClassifier::default().n_classes(Some(2));
        assert!(matches!(
            est.partial_fit(None, &x, &array![0, 1, 2, 0, 1, 0, 1, 0]),
            Err(Error::InvalidLabel { .. })
        ));
        assert!(
            est.clone()
                .class_weight(ClassWeight::Balanced)
                .partial_fit(None, &x, &y)
                .is_err()
        );
        assert!(
            est.clone()
                .early_stopping(true)
                .partial_fit(None, &x, &y)
                .is_err()
        );
        // A later batch may hold one class only, but must have the same features.
        let m = est.partial_fit(None, &x, &y).expect("first");
        let m = est
            .partial_fit(Some(m), &x.slice(s![..4, ..]), &y.slice(s![..4]))
            .expect("one-class batch");
        assert_eq!(m.t(), 13.0);
        assert!(
            est.partial_fit(Some(m), &array![[1.0]], &array![0])
                .is_err()
        );
        // Hinge has no probabilities.
        assert!(
            SGDClassifier::default()
                .fit(&x, &y)
                .expect("fit")
                .predict_proba(&x)
                .is_err()
        );
    }

    #[test]
    fn shuffle_is_deterministic_per_seed_and_early_stopping_runs() {
        let data = ndlearn_datasets::breast_cancer();
        let x = data.x();
        let xs = (x - &x.mean_axis(Axis(0)).expect("mean")) / &x.std_axis(Axis(0), 0.0);
        let y = data.y_classes().expect("labels");
        let est = SGDClassifier::default().seed(11);
        let a = est.fit(&xs, y).expect("fit");
        let b = est.fit(&xs, y).expect("fit");
        assert_eq!(a, b, "same seed, same model");
        let c = est.clone().seed(12).fit(&xs, y).expect("fit");
        assert_ne!(a.coef(), c.coef(), "another seed, another visiting order");
        let plain = SGDClassifier::default()
            .shuffle(false)
            .fit(&xs, y)
            .expect("fit");
        let acc = |m: &FittedSGDClassifier<f64>| {
            m.predict(&xs)
                .expect("predict")
                .iter()
                .zip(y)
                .filter(|(p, t)| p == t)
                .count() as f64
                / y.len() as f64
        };
        // Equal quality: shuffled fits are as accurate as the unshuffled one (±2 %).
        for m in [&a, &c] {
            assert!(acc(m) > 0.96 && (acc(m) - acc(&plain)).abs() < 0.02);
        }
        let es = SGDClassifier::default()
            .early_stopping(true)
            .seed(3)
            .fit(&xs, y)
            .expect("fit");
        assert!(es.n_iter() < 1000 && acc(&es) > 0.95);
    }
}
