//! Linear support vector regression with liblinear's solvers: [`LinearSvr`] (scikit-learn's
//! `LinearSVR`).
//!
//! # The problem
//!
//! With `x̃ᵢ = [xᵢ, s]` (`s = intercept_scaling`, when `fit_intercept`; the bias weight is
//! penalised, as in liblinear) and `Cᵢ = C · sample_weight[i]`,
//!
//! ```text
//! loss = epsilon_insensitive           min_w̃ ½‖w̃‖² + Σᵢ Cᵢ max(0, |yᵢ − w̃ᵀx̃ᵢ| − ε)
//! loss = squared_epsilon_insensitive   min_w̃ ½‖w̃‖² + Σᵢ Cᵢ max(0, |yᵢ − w̃ᵀx̃ᵢ| − ε)²
//! ```
//!
//! (core's [`Loss::EpsilonInsensitive`] and [`Loss::SquaredEpsilonInsensitive`]);
//! [`LinearSvr::objective`] evaluates it at any coefficients. The prediction is
//! `f(x) = wᵀx + b` with `b = s · w̃_bias`.
//!
//! # Solvers (liblinear's numbers)
//!
//! | loss | `dual = true` | `dual = false` |
//! |---|---|---|
//! | epsilon_insensitive (default) | dual coordinate descent, `\|βᵢ\| ≤ Cᵢ` (13) | — (error) |
//! | squared_epsilon_insensitive | dual coordinate descent, diagonal `1/(2Cᵢ)` (12) | trust-region Newton, TRON (11) |
//!
//! `dual = "auto"` resolves as for [`LinearSvc`](crate::LinearSvc) (the dual with fewer
//! samples than features, when it exists). The dual solver stops when the 1-norm of the
//! minimum-norm subgradient is `≤ tol` times its value after the first pass; TRON when
//! `‖∇f(w̃)‖ ≤ tol ‖∇f(0)‖`. The coordinate order is drawn from the seeded stream
//! `random_state`.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `epsilon` | 0 | `epsilon` | finite, `≥ 0` |
//! | `tol` | `1e-4` | `tol` | `> 0` |
//! | `c` | 1 | `C` | `> 0` |
//! | `loss` | `epsilon_insensitive` | `loss` | |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `intercept_scaling` | 1 | `intercept_scaling` | `> 0` |
//! | `dual` | `auto` | `dual` | see the table above |
//! | `max_iter` | 1000 | `max_iter` | |
//! | `random_state` | 0 | `random_state` | any seed |
//!
//! # Errors
//!
//! Invalid hyperparameters (`dual = false` with the ε-insensitive loss is
//! [`Error::InvalidParam`] naming `dual`), non-finite or empty input, mismatched shapes, the
//! wrong number of features at predict. Reaching `max_iter` is not an error.
//!
//! # Example
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_svm::{LinearSvr, SvrLoss};
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("targets");
//! let model = LinearSvr::default()
//!     .loss(SvrLoss::SquaredEpsilonInsensitive)
//!     .c(10.0)
//!     .fit(data.x(), y)?;
//! let pred = model.predict(data.x())?;
//! let mean = y.mean().unwrap_or(0.0);
//! let ss_res: f64 = pred.iter().zip(y).map(|(p, t)| (p - t).powi(2)).sum();
//! let ss_tot: f64 = y.iter().map(|t| (t - mean).powi(2)).sum();
//! assert!(1.0 - ss_res / ss_tot > 0.4);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! C.-H. Ho, C.-J. Lin, "Large-scale linear support vector regression", JMLR 13, 2012; R.-E.
//! Fan et al., "LIBLINEAR: a library for large linear classification", JMLR 9, 2008.

use ndarray::{Array1, ArrayRef1, ArrayRef2};
use ndlearn_core::loss::Loss;
use ndlearn_core::traits::{Estimator, Fit, FitWeighted, NFeaturesIn, Predict};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, random, validate};

use crate::liblinear::{self, DualLoss, Reg, SmoothLoss};
use crate::linear_svc::{Design, Dual, Solver, choose};

/// The loss of [`LinearSvr`] (scikit-learn's `loss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SvrLoss {
    /// `max(0, |y − f| − ε)` (L1 loss; dual solver only; default).
    #[default]
    EpsilonInsensitive,
    /// `max(0, |y − f| − ε)²` (L2 loss).
    SquaredEpsilonInsensitive,
}

/// Linear support vector regression with liblinear's solvers (scikit-learn's `LinearSVR`; see
/// the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct LinearSvr {
    /// Half-width `ε ≥ 0` of the insensitive tube (default 0).
    pub epsilon: f64,
    /// Stopping tolerance (default `1e-4`).
    pub tol: f64,
    /// The penalty `C > 0` (default 1).
    #[cfg_attr(feature = "serde", serde(rename = "C", alias = "c"))]
    pub c: f64,
    /// The loss (default `epsilon_insensitive`).
    pub loss: SvrLoss,
    /// Append the synthetic (penalised) bias feature (default `true`).
    pub fit_intercept: bool,
    /// The value `s > 0` of the synthetic feature (default 1).
    pub intercept_scaling: f64,
    /// Dual or primal formulation (default `auto`).
    pub dual: Dual,
    /// Outer iterations (default 1000).
    pub max_iter: usize,
    /// Seed of the coordinate order (default 0).
    pub random_state: u64,
}

impl Default for LinearSvr {
    fn default() -> Self {
        Self {
            epsilon: 0.0,
            tol: 1e-4,
            c: 1.0,
            loss: SvrLoss::EpsilonInsensitive,
            fit_intercept: true,
            intercept_scaling: 1.0,
            dual: Dual::Auto,
            max_iter: 1000,
            random_state: 0,
        }
    }
}

impl LinearSvr {
    ndlearn_core::setters! {
        epsilon: f64,
        tol: f64,
        /// Sets `C`.
        c: f64,
        loss: SvrLoss,
        fit_intercept: bool,
        intercept_scaling: f64,
        dual: Dual,
        max_iter: usize,
        random_state: u64,
    }

    fn solver(&self, n_samples: usize, n_features: usize) -> Result<Solver> {
        let (d, p, name) = match self.loss {
            SvrLoss::EpsilonInsensitive => (
                Some(Solver::DualCd(DualLoss::L1)),
                None,
                "loss = epsilon_insensitive",
            ),
            SvrLoss::SquaredEpsilonInsensitive => (
                Some(Solver::DualCd(DualLoss::L2)),
                Some(Solver::Tron),
                "loss = squared_epsilon_insensitive",
            ),
        };
        choose(self.dual, (d, p), n_samples, n_features, name)
    }

    fn core_loss(&self) -> Loss {
        match self.loss {
            SvrLoss::EpsilonInsensitive => Loss::EpsilonInsensitive {
                epsilon: self.epsilon,
            },
            SvrLoss::SquaredEpsilonInsensitive => Loss::SquaredEpsilonInsensitive {
                epsilon: self.epsilon,
            },
        }
    }

    /// Whether `fit` on `n_samples × n_features` data solves the dual.
    ///
    /// # Errors
    /// As [`Estimator::validate`].
    pub fn resolves_to_dual(&self, n_samples: usize, n_features: usize) -> Result<bool> {
        Ok(matches!(
            self.solver(n_samples, n_features)?,
            Solver::DualCd(_)
        ))
    }

    fn setup<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<(Design, Vec<f64>, Vec<f64>)> {
        self.validate()?;
        validate::check_regression_input(x, y, 1, "LinearSvr::fit")?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let sw: Option<Array1<f64>> = sample_weight.map(|w| w.mapv(|v| v.to_f64().unwrap_or(0.0)));
        let design = Design::new(
            x,
            sw.as_deref(),
            self.fit_intercept.then_some(self.intercept_scaling),
        );
        let yv: Vec<f64> = design
            .rows
            .iter()
            .map(|&r| y[r].to_f64().unwrap_or(f64::NAN))
            .collect();
        let c: Vec<f64> = design.weight.iter().map(|w| w * self.c).collect();
        Ok((design, yv, c))
    }

    /// The primal objective `½‖w̃‖² + Σᵢ Cᵢ ℓ(yᵢ, w̃ᵀx̃ᵢ)` at coefficients `coef` and
    /// `intercept`, on `x`, `y` with optional sample weights (see the [module docs](self)).
    ///
    /// # Errors
    /// Invalid hyperparameters, invalid data, or `coef` of the wrong length.
    pub fn objective<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        coef: &ArrayRef1<f64>,
        intercept: f64,
    ) -> Result<f64> {
        let (design, yv, c) = self.setup(x, y, sample_weight)?;
        validate::check_n_features(coef.len(), x.ncols(), "LinearSvr::objective")?;
        let w = design.augment(coef.iter().copied(), intercept);
        Ok(liblinear::primal_objective(
            &design.x,
            &yv,
            &c,
            &w,
            Reg::L2,
            self.core_loss(),
        ))
    }
}

impl Estimator for LinearSvr {
    /// Checks `C > 0`, `tol > 0`, `ε ≥ 0`, `intercept_scaling > 0` and that the loss has a
    /// solver for `dual`.
    fn validate(&self) -> Result<()> {
        validate::check_positive("C", self.c)?;
        validate::check_positive("tol", self.tol)?;
        validate::check_non_negative("epsilon", self.epsilon)?;
        validate::check_positive("intercept_scaling", self.intercept_scaling)?;
        self.solver(1, 0)?;
        self.solver(0, 1)?;
        Ok(())
    }
}

/// A fitted [`LinearSvr`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLinearSvr<F: Float> {
    coef: Array1<F>,
    intercept: F,
    n_iter: usize,
    objective: f64,
    converged: bool,
    dual: bool,
}

impl<F: Float> Fit<F> for LinearSvr {
    type Target = ArrayRef1<F>;
    type Model = FittedLinearSvr<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedLinearSvr<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for LinearSvr {
    /// `Cᵢ = C · sample_weight[i]`; rows of weight 0 are dropped.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedLinearSvr<F>> {
        let (design, yv, c) = self.setup(x, y, sample_weight)?;
        let solver = self.solver(x.nrows(), x.ncols())?;
        let out = match solver {
            Solver::DualCd(loss) => liblinear::dual_cd_svr(
                &design.x,
                &yv,
                &c,
                self.epsilon,
                loss,
                self.tol,
                self.max_iter,
                &mut random::stream(self.random_state, 0),
            ),
            Solver::Tron => liblinear::tron(
                &design.x,
                &yv,
                &c,
                SmoothLoss::SquaredEpsilon(self.epsilon),
                self.tol,
                self.max_iter,
            ),
            Solver::L1Cd => {
                return Err(Error::invalid_param(
                    "penalty",
                    "LinearSvr has no L1 penalty",
                ));
            }
        };
        let objective =
            liblinear::primal_objective(&design.x, &yv, &c, &out.w, Reg::L2, self.core_loss());
        let (w, b) = design.split(&out.w);
        Ok(FittedLinearSvr {
            coef: w.into_iter().map(F::cast).collect(),
            intercept: F::cast(b),
            n_iter: out.n_iter,
            objective,
            converged: out.converged,
            dual: matches!(solver, Solver::DualCd(_)),
        })
    }
}

impl<F: Float> FittedLinearSvr<F> {
    /// scikit-learn's `coef_` (`d`).
    pub fn coef(&self) -> &Array1<F> {
        &self.coef
    }
    /// scikit-learn's `intercept_` (`s · w̃_bias`; 0 without an intercept).
    pub fn intercept(&self) -> F {
        self.intercept
    }
    /// scikit-learn's `n_iter_`: outer iterations.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// The primal objective reached (see [`LinearSvr::objective`]).
    pub fn objective(&self) -> f64 {
        self.objective
    }
    /// Whether the tolerance was met within `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Whether the dual was solved (the resolved `dual`).
    pub fn dual(&self) -> bool {
        self.dual
    }
}

impl<F: Float> Predict<F> for FittedLinearSvr<F> {
    type Output = Array1<F>;

    /// `X w + b`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        validate::check_predict_input(x, self.coef.len(), "LinearSvr::predict")?;
        Ok(x.dot(&self.coef) + self.intercept)
    }
}

impl<F: Float> NFeaturesIn for FittedLinearSvr<F> {
    fn n_features_in(&self) -> usize {
        self.coef.len()
    }
}

impl<F: Float> CheckModel for FittedLinearSvr<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLinearSvr");
        c.at_least("coef (features)", self.coef.len(), 1)?;
        c.finite("coef", &self.coef)?;
        c.finite_value("intercept", self.intercept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn invalid_settings_are_refused() {
        let primal_l1 = LinearSvr::default().dual(Dual::Primal);
        assert!(matches!(
            primal_l1.validate(),
            Err(Error::InvalidParam { name, .. }) if name == "dual"
        ));
        assert!(LinearSvr::default().epsilon(-1.0).validate().is_err());
        assert!(LinearSvr::default().c(-1.0).validate().is_err());
        assert!(
            LinearSvr::default()
                .loss(SvrLoss::SquaredEpsilonInsensitive)
                .dual(Dual::Primal)
                .validate()
                .is_ok()
        );
    }

    #[test]
    fn a_line_is_recovered_and_bad_input_refused() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y: Array1<f64> = array![1.0, 3.0, 5.0, 7.0, 9.0];
        for est in [
            LinearSvr::default().c(100.0).tol(1e-10).max_iter(100_000),
            LinearSvr::default()
                .c(100.0)
                .tol(1e-10)
                .loss(SvrLoss::SquaredEpsilonInsensitive),
            LinearSvr::default()
                .c(100.0)
                .tol(1e-10)
                .loss(SvrLoss::SquaredEpsilonInsensitive)
                .dual(Dual::Dual),
        ] {
            let m = est.fit(&x, &y).expect("fit");
            let p = m.predict(&x).expect("predict");
            for (a, b) in p.iter().zip(&y) {
                assert!((a - b).abs() < 0.05, "{p} vs {y}");
            }
        }
        let m = LinearSvr::default().fit(&x, &y).expect("fit");
        assert!(m.predict(&array![[1.0, 2.0]]).is_err());
        assert!(LinearSvr::default().fit(&x, &array![1.0, 2.0]).is_err());
        assert!(
            LinearSvr::default()
                .fit(&x, &array![1.0, f64::INFINITY, 0.0, 0.0, 0.0])
                .is_err()
        );
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_broken_coefficients() {
        let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y: Array1<f64> = array![1.0, 3.0, 5.0, 7.0, 9.0];
        let m: FittedLinearSvr<f64> = LinearSvr::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        let mut bad = m.clone();
        bad.intercept = f64::NAN;
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
        let mut bad = m;
        bad.coef = Array1::zeros(0); // no feature
        assert!(matches!(bad.check_model(), Err(Error::InvalidModel { .. })));
    }
}
