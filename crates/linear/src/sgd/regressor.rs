//! [`SGDRegressor`] and its fitted model (see the [module docs](super)).

use ndarray::{Array1, ArrayRef1, ArrayRef2};
use ndlearn_core::Estimator;
use ndlearn_core::validate::{check_predict_input, check_regression_input};
use ndlearn_core::{
    Error, FeatureImportances, Fit, FitWeighted, Float, PartialFit, Predict, Result, random,
};

use super::engine::{self, Problem, State, Validation};
use super::{CommonParams, LearningRate, SgdLoss, SgdPenalty, row_major};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// A linear regressor trained by SGD (least squares, Huber, ε-insensitive …), scikit-learn's
/// `SGDRegressor`. See the [module docs](super) for the losses, schedules and penalties.
///
/// ```
/// use ndlearn_core::{Fit, Predict};
/// use ndlearn_linear::{SGDRegressor, SgdLoss};
///
/// let data = ndlearn_datasets::diabetes();
/// let x = data.x();
/// let xs = (x - &x.mean_axis(ndarray::Axis(0)).expect("rows")) / &x.std_axis(ndarray::Axis(0), 0.0);
/// let y = data.y_values().expect("target");
/// let fit = SGDRegressor::default().loss(SgdLoss::Huber).epsilon(20.0).eta0(0.05).fit(&xs, y)?;
/// let pred = fit.predict(&xs)?;
/// let rss: f64 = (&pred - y).mapv(|r| r * r).sum();
/// let tss: f64 = y.mapv(|v| v - y.mean().expect("rows")).mapv(|v| v * v).sum();
/// assert!(1.0 - rss / tss > 0.45);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SGDRegressor {
    /// The loss (default `SquaredError`; regression losses only).
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
    /// The schedule (default `InvScaling`).
    pub learning_rate: LearningRate,
    /// Initial / constant learning rate (default 0.01).
    pub eta0: f64,
    /// Exponent of `InvScaling` (default 0.25).
    pub power_t: f64,
    /// Stop on a held-out R² (default `false`).
    pub early_stopping: bool,
    /// Held-out fraction for early stopping (default 0.1).
    pub validation_fraction: f64,
    /// Epochs without improvement before stopping (default 5).
    pub n_iter_no_change: usize,
    /// Average the iterates from step `average` on (0 = off, 1 = scikit-learn's `True`).
    pub average: usize,
}

impl Default for SGDRegressor {
    fn default() -> Self {
        Self {
            loss: SgdLoss::SquaredError,
            penalty: SgdPenalty::L2,
            alpha: 1e-4,
            l1_ratio: 0.15,
            fit_intercept: true,
            max_iter: 1000,
            tol: Some(1e-3),
            shuffle: true,
            epsilon: 0.1,
            seed: 0,
            learning_rate: LearningRate::InvScaling,
            eta0: 0.01,
            power_t: 0.25,
            early_stopping: false,
            validation_fraction: 0.1,
            n_iter_no_change: 5,
            average: 0,
        }
    }
}

impl SGDRegressor {
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
        /// Sets `average` (0 = off).
        average: usize,
    }

    fn run<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sw: Vec<F>,
        model: Option<FittedSGDRegressor<F>>,
        max_iter: usize,
    ) -> Result<FittedSGDRegressor<F>> {
        let (n, d) = x.dim();
        let (mut state, t0) = match model {
            Some(m) => (
                State {
                    w: m.coef.to_vec(),
                    intercept: m.intercept.to_f64_lossless(),
                    avg_w: m.avg_coef.to_vec(),
                    avg_intercept: m.avg_intercept.to_f64_lossless(),
                },
                m.t,
            ),
            None => (
                State {
                    w: vec![F::zero(); d],
                    intercept: 0.0,
                    avg_w: Vec::new(),
                    avg_intercept: 0.0,
                },
                1.0,
            ),
        };
        if self.average > 0 && state.avg_w.len() != d {
            state.avg_w = vec![F::zero(); d];
            state.avg_intercept = 0.0;
        }
        let xs = row_major(x);
        let yv: Vec<F> = y.iter().copied().collect();
        let mask = if self.early_stopping {
            Some(super::validation_mask(
                n,
                None,
                self.validation_fraction,
                self.seed,
            )?)
        } else {
            None
        };
        let score = |w: &[F], b: f64| r2_held_out(&xs, d, &yv, &sw, mask.as_deref(), w, b);
        let info = engine::run(
            Problem {
                x: &xs,
                n,
                d,
                y: &yv,
                sample_weight: &sw,
                loss: self.loss.engine(self.epsilon),
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
                weight_pos: F::one(),
                weight_neg: F::one(),
                average: self.average,
                shuffle: self.shuffle.then(|| random::stream(self.seed, 0)),
                validation: mask.as_deref().map(|m| Validation {
                    mask: m,
                    score: &score,
                }),
                name: "SGDRegressor",
                report: true,
            },
            &mut state,
            t0,
        )?;
        Ok(FittedSGDRegressor {
            params: self.clone(),
            coef: Array1::from(state.w),
            intercept: F::cast(state.intercept),
            avg_coef: Array1::from(state.avg_w),
            avg_intercept: F::cast(state.avg_intercept),
            n_iter: info.n_iter,
            t: t0 + (info.n_iter * n) as f64,
            converged: info.stopped,
        })
    }
}

impl ndlearn_core::Estimator for SGDRegressor {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field (also for a classification loss).
    fn validate(&self) -> Result<()> {
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
        .validate()?;
        if !self.loss.is_regression() {
            return Err(Error::invalid_param(
                "loss",
                format!(
                    "{:?} is a classification loss; SGDRegressor takes SquaredError, Huber, \
                     EpsilonInsensitive or SquaredEpsilonInsensitive",
                    self.loss
                ),
            ));
        }
        Ok(())
    }
}

/// Weighted R² of `wᵀx + b` on the held-out rows.
fn r2_held_out<F: Float>(
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
    let (mut sy, mut s) = (0.0, 0.0);
    for (i, &held) in mask.iter().enumerate() {
        if held {
            sy += sw[i].to_f64_lossless() * y[i].to_f64_lossless();
            s += sw[i].to_f64_lossless();
        }
    }
    if s <= 0.0 {
        return 0.0;
    }
    let mean = sy / s;
    let (mut rss, mut tss) = (0.0, 0.0);
    for (i, &held) in mask.iter().enumerate() {
        if !held {
            continue;
        }
        let row = &x[i * d..(i + 1) * d];
        let p: f64 = row
            .iter()
            .zip(w)
            .map(|(&a, &c)| (a * c).to_f64_lossless())
            .sum::<f64>()
            + b;
        let yi = y[i].to_f64_lossless();
        let wi = sw[i].to_f64_lossless();
        rss += wi * (yi - p) * (yi - p);
        tss += wi * (yi - mean) * (yi - mean);
    }
    if tss > 0.0 {
        1.0 - rss / tss
    } else if rss == 0.0 {
        1.0
    } else {
        0.0
    }
}

impl<F: Float> Fit<F> for SGDRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedSGDRegressor<F>;

    /// Fits from zero weights and `t = 1`.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedSGDRegressor<F>> {
        self.validate()?;
        check_regression_input(x, y, 1, "SGDRegressor::fit")?;
        self.run(x, y, vec![F::one(); x.nrows()], None, self.max_iter)
    }
}

impl<F: Float> FitWeighted<F> for SGDRegressor {
    /// Fits with per-sample weights (length `N`, finite, ≥ 0, positive sum).
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSGDRegressor<F>> {
        self.validate()?;
        check_regression_input(x, y, 1, "SGDRegressor::fit")?;
        let w = match sample_weight {
            Some(w) => {
                ndlearn_core::validate::check_sample_weight(w, x.nrows())?;
                w.to_vec()
            }
            None => vec![F::one(); x.nrows()],
        };
        self.run(x, y, w, None, self.max_iter)
    }
}

impl<F: Float> PartialFit<F> for SGDRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedSGDRegressor<F>;

    /// One epoch over the batch (scikit-learn's `partial_fit`), continuing `model`'s weights,
    /// averages and step counter `t`.
    fn partial_fit(
        &self,
        model: Option<FittedSGDRegressor<F>>,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
    ) -> Result<FittedSGDRegressor<F>> {
        self.validate()?;
        if self.early_stopping {
            return Err(Error::invalid_param(
                "early_stopping",
                "must be false with partial_fit",
            ));
        }
        check_regression_input(x, y, 1, "SGDRegressor::partial_fit")?;
        if let Some(m) = &model {
            ndlearn_core::validate::check_n_features(
                x.ncols(),
                m.coef.len(),
                "SGDRegressor::partial_fit: number of features",
            )?;
        }
        self.run(x, y, vec![F::one(); x.nrows()], model, 1)
    }
}

/// A fitted [`SGDRegressor`]: the weights and the streaming state (`t`, averages).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSGDRegressor<F: Float> {
    params: SGDRegressor,
    coef: Array1<F>,
    intercept: F,
    avg_coef: Array1<F>,
    avg_intercept: F,
    n_iter: usize,
    t: f64,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedSGDRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.coef.len()
    }
}

impl<F: Float> FittedSGDRegressor<F> {
    /// The hyperparameters of the last fit or `partial_fit`.
    pub fn params(&self) -> &SGDRegressor {
        &self.params
    }
    fn averaged(&self) -> bool {
        self.params.average > 0
            && self.avg_coef.len() == self.coef.len()
            && self.params.average as f64 <= self.t - 1.0
    }
    /// Coefficients (scikit-learn's `coef_`): averaged once averaging is active.
    pub fn coef(&self) -> &Array1<F> {
        if self.averaged() {
            &self.avg_coef
        } else {
            &self.coef
        }
    }
    /// The intercept (scikit-learn's `intercept_[0]`), averaged like [`Self::coef`].
    pub fn intercept(&self) -> F {
        if self.averaged() {
            self.avg_intercept
        } else {
            self.intercept
        }
    }
    /// The plain (non-averaged) iterate, from which `partial_fit` continues.
    pub fn standard_coef(&self) -> &Array1<F> {
        &self.coef
    }
    /// The plain intercept.
    pub fn standard_intercept(&self) -> F {
        self.intercept
    }
    /// Epochs of the last call.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// The step counter (scikit-learn's `t_`: 1 + samples processed).
    pub fn t(&self) -> f64 {
        self.t
    }
    /// Whether the fit stopped by its criterion before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
}

impl<F: Float> Predict<F> for FittedSGDRegressor<F> {
    type Output = Array1<F>;

    /// `Xw + b`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let coef = self.coef();
        check_predict_input(x, coef.len(), "SGDRegressor::predict: number of features")?;
        let mut p = x.dot(coef);
        p += self.intercept();
        Ok(p)
    }
}

impl<F: Float> FeatureImportances<F> for FittedSGDRegressor<F> {
    /// `|w_j|`.
    fn feature_importances(&self) -> Array1<F> {
        self.coef().mapv(|v| v.abs())
    }
}

impl<F: Float> CheckModel for FittedSGDRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSGDRegressor");
        c.params(&self.params)?;
        let d = self.coef.len();
        c.at_least("n_features", d, 1)?;
        c.that(self.avg_coef.is_empty() || self.avg_coef.len() == d, || {
            format!("`avg_coef` needs 0 or {d} entries")
        })?;
        c.finite("coef", &self.coef)?;
        c.finite("avg_coef", &self.avg_coef)?;
        c.finite_value("intercept", self.intercept)?;
        c.finite_value("avg_intercept", self.avg_intercept)?;
        c.that(self.t.is_finite() && self.t >= 1.0, || {
            "`t` must be finite and at least 1".into()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![0.5, 1.4, 2.6, 3.5];
        let mut fit = SGDRegressor::default().average(1).fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.avg_coef = Array1::zeros(3);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    #[test]
    fn invalid_hyperparameters_and_losses() {
        let x = array![[0.0], [1.0], [2.0]];
        let y = array![0.0, 1.0, 2.0];
        for loss in [SgdLoss::Hinge, SgdLoss::LogLoss, SgdLoss::ModifiedHuber] {
            assert!(matches!(
                SGDRegressor::default().loss(loss).fit(&x, &y),
                Err(Error::InvalidParam { name: "loss", .. })
            ));
        }
        assert!(matches!(
            SGDRegressor::default().eta0(-1.0).fit(&x, &y),
            Err(Error::InvalidParam { name: "eta0", .. })
        ));
        assert!(matches!(
            SGDRegressor::default()
                .early_stopping(true)
                .partial_fit(None, &x, &y),
            Err(Error::InvalidParam {
                name: "early_stopping",
                ..
            })
        ));
        assert!(
            SGDRegressor::default()
                .fit_weighted(&x, &y, Some(&array![1.0, -1.0, 1.0]))
                .is_err()
        );
        // Overflow is an error, not a panic or a NaN model.
        let big = array![[1e300], [-1e300], [2e300]];
        assert!(matches!(
            SGDRegressor::default()
                .learning_rate(LearningRate::Constant)
                .eta0(1.0)
                .fit(&big, &y),
            Err(Error::NonFiniteResult { .. })
        ));
    }

    /// Squared error, constant η, no penalty, one sample: w = η y x, b = η y exactly.
    #[test]
    fn first_step_by_hand_and_noise_free_line() {
        let est = SGDRegressor::default()
            .learning_rate(LearningRate::Constant)
            .eta0(0.1)
            .penalty(SgdPenalty::None)
            .shuffle(false);
        let m: FittedSGDRegressor<f64> = est
            .partial_fit(None, &array![[2.0, 1.0]], &array![3.0])
            .expect("fit");
        assert!((m.coef()[0] - 0.6).abs() < 1e-15);
        assert!((m.coef()[1] - 0.3).abs() < 1e-15);
        assert!((m.intercept() - 0.3).abs() < 1e-15);
        // y = 2x − 1 exactly: SGD with a small constant step recovers it.
        let x: ndarray::Array2<f64> = Array1::linspace(-1.0, 1.0, 21).insert_axis(ndarray::Axis(1));
        let y = x.column(0).mapv(|v| 2.0 * v - 1.0);
        let fit = est
            .clone()
            .tol(None)
            .max_iter(300)
            .fit(&x, &y)
            .expect("fit");
        assert!((fit.coef()[0] - 2.0).abs() < 1e-6);
        assert!((fit.intercept() + 1.0).abs() < 1e-6);
        // Averaging: the averaged model is exposed from step `average` on.
        let avg = est
            .clone()
            .average(1)
            .tol(None)
            .max_iter(50)
            .fit(&x, &y)
            .expect("fit");
        assert_ne!(avg.coef(), avg.standard_coef());
        assert!((avg.coef()[0] - 2.0).abs() < 0.05);
    }

    #[test]
    fn early_stopping_and_shuffle() {
        let data = ndlearn_datasets::diabetes();
        let x = data.x();
        let xs = (x - &x.mean_axis(ndarray::Axis(0)).expect("mean"))
            / &x.std_axis(ndarray::Axis(0), 0.0);
        let y = data.y_values().expect("target");
        let r2 = |m: &FittedSGDRegressor<f64>| {
            let p = m.predict(&xs).expect("predict");
            let mean = y.mean().expect("mean");
            1.0 - (&p - y).mapv(|r| r * r).sum() / y.mapv(|v| (v - mean) * (v - mean)).sum()
        };
        let a = SGDRegressor::default().seed(5).fit(&xs, y).expect("fit");
        let b = SGDRegressor::default().seed(5).fit(&xs, y).expect("fit");
        assert_eq!(a, b);
        let plain = SGDRegressor::default()
            .shuffle(false)
            .fit(&xs, y)
            .expect("fit");
        assert!((r2(&a) - r2(&plain)).abs() < 0.02 && r2(&a) > 0.49);
        let es = SGDRegressor::default()
            .early_stopping(true)
            .fit(&xs, y)
            .expect("fit");
        assert!(es.converged() && r2(&es) > 0.45);
    }
}
