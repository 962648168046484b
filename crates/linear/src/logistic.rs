//! Logistic regression, binary and multinomial ([`LogisticRegression`]).
//!
//! # Model
//!
//! Two classes: `p(y = 1 | x) = σ(wᵀx + b)`, `σ(t) = 1/(1 + e^{−t})`, and the prediction is
//! class 1 when `σ ≥ ½`, i.e. `wᵀx + b ≥ 0` (the course notes' rule, `sign(0) = +1`; scikit-learn
//! predicts class 0 at exactly 0). `K ≥ 3` classes: the softmax model
//! `p(y = k | x) = exp(z_k) / Σ_l exp(z_l)`, `z_k = w_kᵀx + b_k`, with one coefficient vector per
//! class (scikit-learn's multinomial parametrisation), prediction `argmax_k z_k` (ties to the
//! lower class).
//!
//! # Objective
//!
//! scikit-learn's, with sample weights `sᵢ` (times the class weights) and `S = Σ sᵢ`:
//!
//! ```text
//! L(W, b) = (1/S) Σᵢ sᵢ ℓᵢ + (1/(2 C S)) ‖W‖²,
//! ℓᵢ = log(1 + e^{zᵢ}) − yᵢ zᵢ               (binary, yᵢ ∈ {0, 1})
//! ℓᵢ = log Σ_k e^{z_ik} − z_{i,yᵢ}            (multinomial)
//! ```
//!
//! i.e. `C Σ sᵢℓᵢ + ½‖W‖²` divided by `C S`. With [`LogisticPenalty::L1`] or
//! [`LogisticPenalty::ElasticNet`] (`ρ = l1_ratio`; L1 is `ρ = 1`, L2 is `ρ = 0`) the penalty is
//!
//! ```text
//! (1/(C S)) (ρ ‖W‖₁ + ½(1 − ρ) ‖W‖²),   i.e. C Σ sᵢℓᵢ + ρ‖W‖₁ + ½(1 − ρ)‖W‖² divided by C S,
//! ```
//!
//! scikit-learn's objective for every `l1_ratio` (its SAGA solver scales by `1/N` rather than
//! `1/S`, which does not move the minimiser). For the multinomial model the penalty is on the
//! whole `K × d` matrix. Intercepts are not penalised; `penalty = None`
//! drops the `‖W‖²` term (the fit then diverges on separable data, as the course notes warn). The
//! gradient is `Xᵀ(P − Y)` weighted (`σ(z) − y` for two classes, `softmax(z) − onehot(y)`: the
//! notes' Prop. 2.2.2), the Hessian `Xᵀ S X` with `S_ii = p_i(1 − p_i)` (binary) or the
//! `K × K` blocks `Xᵀ diag(p_ik(δ_kl − p_il)) X`. Logs and exponentials are evaluated stably
//! (`log(1 + e^z) = max(z, 0) + log(1 + e^{−|z|})`, log-sum-exp with the row maximum), so
//! separable data cannot overflow.
//!
//! # Solvers ([`LogisticSolver`])
//!
//! - `Lbfgs` (default): `ndlearn_core::optim::lbfgs` from `W = 0` with `g_tol = tol` on the
//!   Euclidean gradient norm and `f_tol = 64ε`, like scikit-learn's L-BFGS-B settings (which test
//!   the largest gradient entry).
//! - `Newton`: `ndlearn_core::optim::newton` with the analytic Hessian (Armijo backtracking).
//! - `Irls`: the course notes' iteratively reweighted least squares, full Newton steps
//!   `θ ← (XᵀSX + Λ)⁻¹(XᵀSX θ + Xᵀs(y − p))` (= the weighted least-squares problem with the
//!   working response `z = Xθ + S⁻¹(y − p)`, written without the division by `pᵢ(1 − pᵢ)`, which
//!   vanishes near separation); stops when `‖∇L‖ ≤ tol` or the step is below `tol·max(1, ‖θ‖)`.
//! - `ProximalNewton`, and always when the penalty has an L1 part (`L1`, or `ElasticNet` with
//!   `l1_ratio > 0`; the smooth solvers above do not apply to a non-smooth objective, so
//!   `solver` is then not consulted): proximal Newton in the style of newGLMNET (Yuan, Ho and
//!   Lin, 2012; the method liblinear uses for L1-regularised logistic regression). Each outer
//!   iteration forms the gradient and the exact Hessian of the smooth part (loss + L2 share),
//!   minimises the quadratic model plus the exact `‖W‖₁` term by cyclic coordinate descent on the
//!   explicit Hessian (soft-thresholding; coefficients land on exact zeros), to a model
//!   optimality of `min(0.1, √v)·v`; once a sweep repeats the previous sign pattern, the model
//!   is solved exactly on that pattern (one Cholesky solve on the free coordinates, kept when
//!   no sign flips), which keeps ill-conditioned problems from crawling. The step is accepted by
//!   Armijo backtracking (`σ = 0.01`, halving, with a few ulps of slack for rounding) on the
//!   full objective; a step below the rounding of `θ` ends the fit (reported as not converged
//!   if `tol` was below the attainable accuracy). For the multinomial model each sweep also
//!   minimises the model exactly along every feature's common-shift direction (the softmax loss
//!   is flat along it, so only the penalty fixes it). The stopping measure is
//!   `v = ‖∂⁰F‖₂ ≤ tol`, the Euclidean norm of the minimum-norm subgradient of the (scaled)
//!   objective: `g_j + λ sign(w_j)` where `w_j ≠ 0`, `max(|g_j| − λ, 0)` where `w_j = 0`,
//!   `g_j` for intercepts (`λ = ρ/(C S)`); it is 0 exactly at the optimum and is the gradient
//!   norm when there is no L1 part. `n_iter` counts outer iterations. Deterministic (no
//!   sampling), unlike scikit-learn's SAGA; the course notes leave the L1 solver open, so this is an
//!   implementation choice. Cost per outer iteration: `O(N p² K²)` for the Hessian (BLAS
//!   gemm) plus `O(p² K²)` per coordinate sweep, `p = d + 1`; it suits `N ≫ d`; the explicit
//!   `(K p)²` Hessian makes very wide problems memory-bound (as for `Newton`/`Irls`).
//!
//! For the multinomial model the objective is invariant under adding the same vector to every
//! class's unpenalised parameters (intercepts; all parameters with `penalty = None`); the
//! second-order solvers add a multiple of that null direction's projector to the Hessian (the
//! gradient is orthogonal to it, so the Newton direction is unchanged), and every solver returns
//! the representative with those parameters summing to zero over classes.
//!
//! # Class and sample weights
//!
//! [`ClassWeight::Balanced`] gives class `k` the weight `S / (K · S_k)` (`S_k` = the total sample
//! weight of class `k`), scikit-learn's `"balanced"`; [`ClassWeight::Explicit`] (e.g. [`ClassWeight::per_class`]) takes one weight
//! per class. [`LogisticRegression::fit_weighted`] takes per-sample weights; the two multiply.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `c` | 1.0 | `C` | finite, > 0 |
//! | `penalty` | `L2` | `l1_ratio` (`0` → `L2`, `1` → `L1`, else `ElasticNet`; [`LogisticPenalty::from_l1_ratio`]) and `C=np.inf` → `None` (the deprecated `penalty`: `"l2"`, `"l1"`, `"elasticnet"`, `None`) | `ElasticNet`: `0 ≤ l1_ratio ≤ 1` |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `max_iter` | 100 | `max_iter` | ≥ 1 |
//! | `tol` | 1e-4 | `tol` | finite, ≥ 0 |
//! | `solver` | `Lbfgs` | `solver` (`"lbfgs"`, `"newton-cholesky"`; `"saga"` for L1 / elastic net → `ProximalNewton`) | |
//! | `class_weight` | `None` | `class_weight` | `Custom`: one finite weight ≥ 0 per class |
//!
//! # Errors
//!
//! [`Error::TooFewClasses`] for fewer than two classes, [`Error::InvalidLabel`] for raw labels,
//! shape / non-finite errors, [`Error::InvalidParam`] for invalid hyperparameters or weights.
//! Non-convergence is reported by [`FittedLogisticRegression::converged`].
//!
//! # References
//!
//! - Course notes: binary model, cross-entropy, gradient, Hessian and Newton/IRLS
//!   (regularisation on separable data); `{0, 1}` and `±1` labels and their gradients; softmax
//!   model and its gradient; catalog L-08, L-09 (CL-080, CL-081, CL-205). T. Hastie,
//!   R. Tibshirani, J. Friedman, *The Elements of Statistical Learning*, 2nd ed., 2009, §4.4;
//!   C. M. Bishop, *Pattern Recognition and Machine Learning*, 2006, §4.3 (IRLS, softmax).
//! - J. Nocedal, S. Wright, *Numerical Optimization*, 2nd ed. (L-BFGS, Newton).
//! - G.-X. Yuan, C.-H. Ho, C.-J. Lin, "An improved GLMNET for L1-regularized logistic
//!   regression", JMLR 13 (2012) (proximal Newton with coordinate descent, the stopping rule);
//!   J. Friedman, T. Hastie, R. Tibshirani, "Regularization paths for generalized linear models
//!   via coordinate descent", J. Stat. Softw. 33 (2010) (multinomial elastic net).
//!
//! In the serde form (and so in the registry) the penalty is spelled as scikit-learn's
//! `penalty` string plus `l1_ratio`: `penalty=l1`, `penalty=elasticnet l1_ratio=0.3`
//! (`l1_ratio` is `null` for the other penalties and required for `elasticnet`).
//!
//! ```
//! use ndlearn_core::Fit;
//! use ndlearn_linear::{LogisticPenalty, LogisticRegression};
//!
//! let data = ndlearn_datasets::breast_cancer();         // 569 × 30, two classes
//! let x = data.x();
//! let x = (x - &x.mean_axis(ndarray::Axis(0)).unwrap()) / &x.std_axis(ndarray::Axis(0), 0.0);
//! let y = data.y_classes().expect("labels");
//! let fit = LogisticRegression::new(0.1).penalty(LogisticPenalty::L1).fit(&x, y)?;
//! let zeros = fit.coef().iter().filter(|&&w| w == 0.0).count();
//! assert!(fit.converged() && zeros >= 15);               // a sparse model (22 of 30 at the optimum)
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ```
//! use ndlearn_core::{Fit, Predict, PredictProba};
//! use ndlearn_linear::LogisticRegression;
//!
//! let data = ndlearn_datasets::iris();                 // 3 classes
//! let y = data.y_classes().expect("labels");
//! let fit = LogisticRegression::default().fit(data.x(), y)?;
//! let proba = fit.predict_proba(data.x())?;
//! assert!((proba.row(0).sum() - 1.0).abs() < 1e-12);
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(a, b)| a == b).count();
//! assert!(acc >= 140);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use crate::model::{check_scores, classes_from_scores};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::optim::{self, LbfgsOptions, NewtonOptions, Objective, StopCriteria};
use ndlearn_core::stats::mergeable::{GlmStats, SoftmaxStats};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::validate::{check_classification_input, check_predict_input};
use ndlearn_core::{
    ClassWeight, DecisionFunction, Error, FeatureImportances, Fit, FitWeighted, Float, Labels,
    Predict, PredictProba, Result,
};

use crate::logistic_loss::{LogLoss, SampleWeights, irls, prox_newton};
use ndlearn_core::numeric::{sigmoid, softmax_rows_inplace};

/// The optimiser of [`LogisticRegression`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LogisticSolver {
    /// L-BFGS on the objective.
    #[default]
    Lbfgs,
    /// Newton's method with the analytic Hessian and backtracking.
    Newton,
    /// Iteratively reweighted least squares (full Newton steps), as the course notes derive it.
    Irls,
    /// Proximal Newton with coordinate descent on the quadratic model (newGLMNET style); the
    /// solver of the L1 and elastic-net penalties, usable with every penalty.
    ProximalNewton,
}

/// The penalty of [`LogisticRegression`] (scikit-learn ≥ 1.8 spells it with `l1_ratio`:
/// see [`LogisticPenalty::from_l1_ratio`]).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum LogisticPenalty {
    /// `(1/(2CS))‖W‖²` (scikit-learn `l1_ratio=0`).
    #[default]
    L2,
    /// No penalty (`C` is ignored; scikit-learn `C=np.inf`).
    None,
    /// `(1/(CS))‖W‖₁` (scikit-learn `l1_ratio=1`).
    L1,
    /// `(1/(CS))(ρ‖W‖₁ + ½(1 − ρ)‖W‖²)` with `ρ = l1_ratio ∈ [0, 1]` (scikit-learn
    /// `0 < l1_ratio < 1`).
    ElasticNet {
        /// The L1 share `ρ`.
        l1_ratio: f64,
    },
}

impl LogisticPenalty {
    /// The penalty of scikit-learn's `l1_ratio` (with a finite `C`): `0` → [`Self::L2`],
    /// `1` → [`Self::L1`], anything else → [`Self::ElasticNet`] (checked by
    /// [`LogisticRegression::validate`]).
    pub fn from_l1_ratio(l1_ratio: f64) -> Self {
        if l1_ratio == 0.0 {
            Self::L2
        } else if l1_ratio == 1.0 {
            Self::L1
        } else {
            Self::ElasticNet { l1_ratio }
        }
    }

    /// The L1 share `ρ` of the penalty (0 for `L2` and `None`, 1 for `L1`).
    pub fn l1_ratio(&self) -> f64 {
        match *self {
            Self::L2 | Self::None => 0.0,
            Self::L1 => 1.0,
            Self::ElasticNet { l1_ratio } => l1_ratio,
        }
    }

    /// Whether the penalty has a (non-smooth) L1 part.
    pub fn has_l1(&self) -> bool {
        self.l1_ratio() > 0.0
    }
}

/// Penalised logistic regression (L2, L1, elastic net or none), binary or multinomial
/// (scikit-learn's `LogisticRegression`). See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(
    feature = "serde",
    serde(try_from = "serde_repr::Repr", into = "serde_repr::Repr")
)]
#[non_exhaustive]
pub struct LogisticRegression {
    /// Inverse regularisation strength `C > 0` (default 1.0).
    pub c: f64,
    /// The penalty (default `L2`).
    pub penalty: LogisticPenalty,
    /// Fit unpenalised intercepts (default `true`).
    pub fit_intercept: bool,
    /// Maximum iterations (default 100).
    pub max_iter: usize,
    /// Gradient-norm tolerance (default 1e-4).
    pub tol: f64,
    /// The optimiser (default L-BFGS; a penalty with an L1 part always uses
    /// [`LogisticSolver::ProximalNewton`]).
    pub solver: LogisticSolver,
    /// Class weights (default none).
    pub class_weight: ClassWeight,
}

impl Default for LogisticRegression {
    fn default() -> Self {
        Self {
            c: 1.0,
            penalty: LogisticPenalty::L2,
            fit_intercept: true,
            max_iter: 100,
            tol: 1e-4,
            solver: LogisticSolver::Lbfgs,
            class_weight: ClassWeight::Uniform,
        }
    }
}

impl LogisticRegression {
    /// Logistic regression with inverse penalty `c`, other settings default.
    pub fn new(c: f64) -> Self {
        Self {
            c,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `c` (scikit-learn's `C`).
        c: f64,
        /// Sets the penalty.
        penalty: LogisticPenalty,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets the solver.
        solver: LogisticSolver,
        /// Sets the class weights.
        class_weight: ClassWeight,
    }

    fn fit_impl<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedLogisticRegression<F>> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 2, "LogisticRegression::fit")?;
        let (n, d) = x.dim();
        // scikit-learn's compute_class_weight, with the sample weights for "balanced".
        let cw = match sample_weight {
            Some(w) => {
                let sw64 = w.mapv(|v| v.to_f64_lossless());
                self.class_weight.for_classes(y, n_classes, Some(&sw64))?
            }
            None => self.class_weight.for_classes(y, n_classes, None)?,
        };
        // Without sample weights and with equal class weights every row weighs the same: no
        // `N`-vector of weights is stored.
        let uniform = sample_weight.is_none() && cw.iter().all(|&c| c == cw[0]);
        let (sw, total) = if uniform {
            let total = F::cast(n as f64 * cw[0]);
            (None, total)
        } else {
            let mut sw: Array1<F> = match sample_weight {
                Some(w) => w.to_owned(),
                None => Array1::from_elem(n, F::one()),
            };
            for (w, &label) in sw.iter_mut().zip(y.iter()) {
                *w *= F::cast(cw[label]);
            }
            let total = sw.sum();
            (Some(sw), total)
        };
        if total.is_nan() || total <= F::zero() || !total.is_finite() {
            return Err(Error::invalid_param(
                "class_weight",
                "the weighted samples must have a positive, finite total weight",
            ));
        }
        let sw = sw.map(|mut w| {
            w.mapv_inplace(|v| v / total);
            w
        });
        let weights = match &sw {
            Some(w) => SampleWeights::Given(w),
            None => SampleWeights::Uniform(F::cast(cw[0]) / total),
        };
        let k = if n_classes == 2 { 1 } else { n_classes };
        let (l2, l1) = match self.penalty {
            LogisticPenalty::None => (F::zero(), F::zero()),
            pen => {
                let r = pen.l1_ratio();
                let inv = F::cast(1.0 / self.c) / total;
                (F::cast(1.0 - r) * inv, F::cast(r) * inv)
            }
        };
        let loss = LogLoss {
            x,
            y,
            sw: weights,
            k,
            d,
            fit_intercept: self.fit_intercept,
            l2,
            l1,
        };
        let theta0 = Array1::zeros(loss.dim());
        let solver = if self.penalty.has_l1() {
            LogisticSolver::ProximalNewton
        } else {
            self.solver
        };
        let (mut theta, n_iter, converged) = match solver {
            LogisticSolver::Lbfgs => {
                let stop = StopCriteria::default()
                    .max_iter(self.max_iter)
                    .g_tol(self.tol)
                    .f_tol(64.0 * f64::EPSILON)
                    .x_tol(0.0);
                let res = optim::lbfgs(&loss, &theta0, &LbfgsOptions::default().stop(stop))?;
                (res.x, res.n_iter, res.converged)
            }
            LogisticSolver::Newton => {
                let stop = StopCriteria::default()
                    .max_iter(self.max_iter)
                    .g_tol(self.tol)
                    .f_tol(0.0)
                    .x_tol(0.0);
                let res = optim::newton(&loss, &theta0, &NewtonOptions::default().stop(stop))?;
                (res.x, res.n_iter, res.converged)
            }
            LogisticSolver::Irls => irls(&loss, theta0, self.max_iter, self.tol)?,
            LogisticSolver::ProximalNewton => prox_newton(&loss, theta0, self.max_iter, self.tol)?,
        };
        loss.center_null_space(&mut theta);
        if !theta.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite {
                context: "logistic-regression coefficients (rescale the data)",
                row: 0,
                col: 0,
            });
        }
        let p = loss.block();
        let mut coef = Array2::zeros((k, d));
        let mut intercept = Array1::zeros(k);
        for c in 0..k {
            coef.row_mut(c).assign(&theta.slice(s![c * p..c * p + d]));
            if self.fit_intercept {
                intercept[c] = theta[c * p + d];
            }
        }
        Ok(FittedLogisticRegression {
            params: self.clone(),
            coef,
            intercept,
            n_classes,
            n_iter,
            converged,
        })
    }
}

impl LogisticRegression {
    /// Binary logistic regression by L-BFGS driven by data passes, for fits on data held
    /// elsewhere (partitions of a table on other machines): `pass(w, b)` returns the
    /// [`GlmStats`] of the log-loss over all rows at the scores `Xw + b` (targets `0`/`1`,
    /// optional sample weights), and the driver minimises the objective a fit on rows minimises,
    /// `Σ sᵢℓᵢ / S + ½‖w‖² / (C S)` (`S = Σ sᵢ`; no penalty term with `LogisticPenalty::None`),
    /// from `w = 0` with the same L-BFGS settings (`g_tol = tol`, `f_tol = 64ε`). One pass per
    /// evaluation (L-BFGS evaluates value and gradient together), plus the first at zero.
    ///
    /// Supported: `penalty` `L2` or `None`, solver `Lbfgs`, `class_weight` uniform (weigh rows
    /// through the sample weights instead). The result is the fit on rows up to the solver's
    /// tolerance (the single-machine fit evaluates its objective through the same
    /// [`GlmStats`] kernel, block by block). Three or more classes:
    /// [`fit_passes_multinomial`](Self::fit_passes_multinomial).
    ///
    /// # Errors
    /// Invalid hyperparameters or an unsupported setting ([`Error::InvalidParam`] naming it),
    /// statistics of no weight, and the errors of `pass`.
    pub fn fit_passes<F: Float>(
        &self,
        n_features: usize,
        mut pass: impl FnMut(&Array1<F>, F) -> Result<GlmStats<F>>,
    ) -> Result<FittedLogisticRegression<F>> {
        self.lbfgs_passes(n_features, 2, |w, b| {
            let st = pass(&w.row(0).to_owned(), b[0])?;
            if st.grad_coef.len() != n_features {
                return Err(pass_shape(n_features, st.grad_coef.len()));
            }
            Ok(PassSums {
                weight_sum: st.weight_sum,
                value: st.value,
                grad_coef: st.grad_coef.insert_axis(Axis(0)),
                grad_intercept: Array1::from_elem(1, st.grad_intercept),
            })
        })
    }

    /// Multinomial logistic regression (`K ≥ 3` classes, labels `0..K`) by L-BFGS driven by data
    /// passes, as [`fit_passes`](Self::fit_passes) for two classes: `pass(W, b)` returns the
    /// [`SoftmaxStats`] of the multinomial log-loss over all rows at the scores `X Wᵀ + b`
    /// (`W` is `K × d`), and the driver minimises `Σ sᵢℓᵢ / S + ½‖W‖² / (C S)` from `W = 0`
    /// with the single-machine fit's L-BFGS settings; the unpenalised parameters (intercepts;
    /// everything with `LogisticPenalty::None`) are returned summing to zero over classes, as
    /// the single-machine fit returns them.
    ///
    /// # Errors
    /// As [`fit_passes`](Self::fit_passes); [`Error::TooFewClasses`] for `n_classes < 3`
    /// (two classes take the binary parametrisation of `fit_passes`).
    pub fn fit_passes_multinomial<F: Float>(
        &self,
        n_features: usize,
        n_classes: usize,
        mut pass: impl FnMut(&Array2<F>, &Array1<F>) -> Result<SoftmaxStats<F>>,
    ) -> Result<FittedLogisticRegression<F>> {
        if n_classes < 3 {
            return Err(Error::TooFewClasses {
                context: "LogisticRegression::fit_passes_multinomial (two classes: fit_passes)",
                needed: 3,
                found: n_classes,
            });
        }
        self.lbfgs_passes(n_features, n_classes, |w, b| {
            let st = pass(w, b)?;
            if st.grad_coef.dim() != (n_classes, n_features) {
                return Err(pass_shape(n_classes * n_features, st.grad_coef.len()));
            }
            if st.grad_intercept.len() != n_classes {
                return Err(pass_shape(n_classes, st.grad_intercept.len()));
            }
            Ok(PassSums {
                weight_sum: st.weight_sum,
                value: st.value,
                grad_coef: st.grad_coef,
                grad_intercept: st.grad_intercept,
            })
        })
    }

    /// The L-BFGS driver of the pass fits: `K` score columns (`1` for the binary model).
    fn lbfgs_passes<F: Float>(
        &self,
        n_features: usize,
        n_classes: usize,
        pass: impl FnMut(&Array2<F>, &Array1<F>) -> Result<PassSums<F>>,
    ) -> Result<FittedLogisticRegression<F>> {
        self.validate()?;
        let unsupported = |name: &'static str, what: &str| {
            Err(Error::invalid_param(
                name,
                format!("{what}: fits from data passes take the L2 / unpenalised L-BFGS fit"),
            ))
        };
        if self.penalty.has_l1() {
            return unsupported("penalty", "an L1 part");
        }
        if self.solver != LogisticSolver::Lbfgs {
            return unsupported("solver", "not Lbfgs");
        }
        if self.class_weight != ndlearn_core::ClassWeight::Uniform {
            return unsupported("class_weight", "class weights");
        }
        let k = if n_classes == 2 { 1 } else { n_classes };
        let obj = PassObjective {
            d: n_features,
            k,
            fit_intercept: self.fit_intercept,
            pass: std::cell::RefCell::new(pass),
            failure: std::cell::RefCell::new(None),
            l2: std::cell::Cell::new(F::zero()),
            total: std::cell::Cell::new(F::zero()),
        };
        let theta0 = Array1::<F>::zeros(obj.dim());
        // the first pass fixes the total weight, hence the penalty's scale
        let (_, _) = obj.eval(&theta0);
        if let Some(e) = obj.failure.borrow_mut().take() {
            return Err(e);
        }
        let total = obj.total.get();
        if total.is_nan() || total <= F::zero() || !total.is_finite() {
            return Err(Error::invalid_param(
                "sample_weight",
                "the rows must have a positive, finite total weight",
            ));
        }
        if self.penalty != LogisticPenalty::None {
            obj.l2.set(F::cast(1.0 / self.c) / total);
        }
        let stop = StopCriteria::default()
            .max_iter(self.max_iter)
            .g_tol(self.tol)
            .f_tol(64.0 * f64::EPSILON)
            .x_tol(0.0);
        let res = optim::lbfgs(&obj, &theta0, &LbfgsOptions::default().stop(stop));
        if let Some(e) = obj.failure.borrow_mut().take() {
            return Err(e);
        }
        let res = res?;
        let mut theta = res.x;
        if !theta.iter().all(|v| v.is_finite()) {
            return Err(Error::NonFinite {
                context: "logistic-regression coefficients (rescale the data)",
                row: 0,
                col: 0,
            });
        }
        let d = n_features;
        let p = obj.block();
        if k > 1 {
            // the unpenalised coordinates: intercepts, and everything without a penalty
            let mut free: Vec<usize> = if self.penalty == LogisticPenalty::None {
                (0..d).collect()
            } else {
                Vec::new()
            };
            if self.fit_intercept {
                free.push(d);
            }
            let kf = F::cast(k as f64);
            for j in free {
                let mean = (0..k).map(|c| theta[c * p + j]).sum::<F>() / kf;
                for c in 0..k {
                    theta[c * p + j] -= mean;
                }
            }
        }
        let (coef, intercept) = obj.unpack(&theta);
        Ok(FittedLogisticRegression {
            params: self.clone(),
            coef,
            intercept,
            n_classes,
            n_iter: res.n_iter,
            converged: res.converged,
        })
    }
}

/// The error for statistics of another shape than the fit's.
fn pass_shape(expected: usize, found: usize) -> Error {
    Error::ShapeMismatch {
        context: "LogisticRegression::fit_passes: statistics of a pass",
        expected: format!("{expected} coefficients"),
        found: format!("{found}"),
    }
}

/// What the driver reads from one data pass: `Σ sᵢ`, `Σ sᵢℓᵢ` and the gradient sums
/// (`K × d`, `K`).
struct PassSums<F> {
    weight_sum: F,
    value: F,
    grad_coef: Array2<F>,
    grad_intercept: Array1<F>,
}

/// The objective of the pass fits: one data pass per evaluation; `θ` packs `K` blocks
/// `[w_k (d), b_k]` (no `b_k` without intercept), as the single-machine fit.
struct PassObjective<F: Float, P> {
    d: usize,
    k: usize,
    fit_intercept: bool,
    pass: std::cell::RefCell<P>,
    /// The first error of a pass (the optimiser sees a NaN and stops).
    failure: std::cell::RefCell<Option<Error>>,
    /// `1/(C S)`, or 0 without penalty.
    l2: std::cell::Cell<F>,
    /// `S`, from the first pass.
    total: std::cell::Cell<F>,
}

impl<F: Float, P: FnMut(&Array2<F>, &Array1<F>) -> Result<PassSums<F>>> PassObjective<F, P> {
    fn block(&self) -> usize {
        self.d + usize::from(self.fit_intercept)
    }

    /// `W` (`K × d`) and `b` (`K`) from `θ`.
    fn unpack(&self, theta: &ArrayRef1<F>) -> (Array2<F>, Array1<F>) {
        let p = self.block();
        let w = Array2::from_shape_fn((self.k, self.d), |(c, j)| theta[c * p + j]);
        let b = Array1::from_shape_fn(self.k, |c| {
            if self.fit_intercept {
                theta[c * p + self.d]
            } else {
                F::zero()
            }
        });
        (w, b)
    }

    fn eval(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        let (w, b) = self.unpack(theta);
        let out = (self.pass.borrow_mut())(&w, &b);
        let st = match out {
            Ok(st) => st,
            Err(e) => {
                let mut slot = self.failure.borrow_mut();
                if slot.is_none() {
                    *slot = Some(e);
                }
                return (F::nan(), Array1::from_elem(self.dim(), F::nan()));
            }
        };
        if self.total.get() == F::zero() {
            self.total.set(st.weight_sum);
        }
        let s = self.total.get();
        let l2 = self.l2.get();
        let half = F::cast(0.5);
        let value = st.value / s + half * l2 * w.iter().map(|v| *v * *v).sum::<F>();
        let p = self.block();
        let mut g = Array1::zeros(self.dim());
        for c in 0..self.k {
            for j in 0..self.d {
                g[c * p + j] = st.grad_coef[[c, j]] / s + l2 * w[[c, j]];
            }
            if self.fit_intercept {
                g[c * p + self.d] = st.grad_intercept[c] / s;
            }
        }
        (value, g)
    }
}

impl<F: Float, P: FnMut(&Array2<F>, &Array1<F>) -> Result<PassSums<F>>> Objective<F>
    for PassObjective<F, P>
{
    fn dim(&self) -> usize {
        self.k * self.block()
    }
    fn value(&self, theta: &ArrayRef1<F>) -> F {
        self.eval(theta).0
    }
    fn gradient(&self, theta: &ArrayRef1<F>) -> Array1<F> {
        self.eval(theta).1
    }
    fn value_and_gradient(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        self.eval(theta)
    }
}

impl ndlearn_core::Estimator for LogisticRegression {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field.
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_non_negative, check_positive};
        check_positive("c", self.c)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        if let LogisticPenalty::ElasticNet { l1_ratio } = self.penalty {
            ndlearn_core::validate::check_in_range("l1_ratio", l1_ratio, 0.0, 1.0)?;
        }
        self.class_weight.validate_not_subsample()?;
        Ok(())
    }
}

impl<F: Float> Fit<F> for LogisticRegression {
    type Target = Labels;
    type Model = FittedLogisticRegression<F>;

    /// Fits the model (labels `0..K`, at least two distinct); see the [module docs](self).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<FittedLogisticRegression<F>> {
        self.fit_impl(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for LogisticRegression {
    /// Fits with per-sample weights (length `N`, finite, ≥ 0, positive sum), multiplied by the
    /// class weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &Labels,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedLogisticRegression<F>> {
        if let Some(w) = sample_weight {
            ndlearn_core::validate::check_sample_weight(w, x.nrows())?;
        }
        self.fit_impl(x, y, sample_weight)
    }
}

/// A fitted [`LogisticRegression`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLogisticRegression<F: Float> {
    params: LogisticRegression,
    coef: Array2<F>,
    intercept: Array1<F>,
    n_classes: usize,
    n_iter: usize,
    converged: bool,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedLogisticRegression<F> {
    fn n_features_in(&self) -> usize {
        self.coef.ncols()
    }
}

impl<F: Float> FittedLogisticRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &LogisticRegression {
        &self.params
    }
    /// Coefficients: `1 × d` for two classes (class 1 against class 0), `K × d` otherwise
    /// (scikit-learn's `coef_`).
    pub fn coef(&self) -> &Array2<F> {
        &self.coef
    }
    /// Intercepts (length 1 or `K`; scikit-learn's `intercept_`).
    pub fn intercept(&self) -> &Array1<F> {
        &self.intercept
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Iterations of the solver.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the solver met its tolerance.
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// Binary prediction with a custom probability threshold: class 1 when
    /// `p(y = 1 | x) ≥ threshold`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a multinomial model or a threshold outside `[0, 1]`; input
    /// errors as [`Predict::predict`].
    pub fn predict_with_threshold(
        &self,
        x: &ArrayRef2<F>,
        threshold: f64,
    ) -> Result<Array1<usize>> {
        ndlearn_core::validate::check_in_range("threshold", threshold, 0.0, 1.0)?;
        if self.n_classes != 2 {
            return Err(Error::invalid_param(
                "threshold",
                "a probability threshold applies to two-class models only",
            ));
        }
        let z = self.decision_function(x)?;
        let t = F::cast(threshold);
        Ok(z.column(0).mapv(|v| usize::from(sigmoid(v) >= t)))
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedLogisticRegression<F> {
    /// Scores `X Wᵀ + b`: `N × 1` (the log-odds of class 1) for two classes, `N × K` otherwise.
    ///
    /// # Errors
    /// A feature count different from the fit, or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.coef.ncols(),
            "decision_function: number of features",
        )?;
        let mut z = x.dot(&self.coef.t());
        z += &self.intercept;
        Ok(z)
    }
}

impl<F: Float> Predict<F> for FittedLogisticRegression<F> {
    type Output = Array1<usize>;

    /// The most probable class (binary: class 1 iff `wᵀx + b ≥ 0`; ties to the lower class
    /// otherwise).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(classes_from_scores(&self.decision_function(x)?))
    }
}

impl<F: Float> PredictProba<F> for FittedLogisticRegression<F> {
    /// `[1 − σ(z), σ(z)]` for two classes, the softmax of the scores otherwise.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let z = self.decision_function(x)?;
        let n = z.nrows();
        if self.n_classes == 2 {
            let mut p = Array2::zeros((n, 2));
            for (i, &v) in z.column(0).iter().enumerate() {
                let s1 = sigmoid(v);
                p[[i, 1]] = s1;
                p[[i, 0]] = sigmoid(-v);
            }
            return Ok(p);
        }
        let mut p = z;
        softmax_rows_inplace(&mut p);
        Ok(p)
    }
}

impl<F: Float> FeatureImportances<F> for FittedLogisticRegression<F> {
    /// `Σ_k |w_kj|` over the coefficient rows.
    fn feature_importances(&self) -> Array1<F> {
        crate::model::abs_column_sums(&self.coef)
    }
}

/// The serde form of [`LogisticRegression`]: the penalty by scikit-learn's names (`"l2"`,
/// `"l1"`, `"elasticnet"`, `"none"`) plus a separate `l1_ratio`, so that the registry takes
/// `penalty=elasticnet l1_ratio=0.3`.
#[cfg(feature = "serde")]
mod serde_repr {
    use super::{LogisticPenalty, LogisticRegression, LogisticSolver};
    use ndlearn_core::ClassWeight;

    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(rename_all = "snake_case")]
    pub(super) enum PenaltyName {
        L2,
        L1,
        #[serde(rename = "elasticnet", alias = "elastic_net")]
        ElasticNet,
        None,
    }

    /// Missing fields take the defaults of [`LogisticRegression::default`] (so a registry
    /// setting such as `estimator={"c":0.5}` of a multiclass reduction names only what changes).
    #[derive(serde::Serialize, serde::Deserialize)]
    #[serde(default)]
    pub(super) struct Repr {
        #[serde(rename = "C", alias = "c")]
        c: f64,
        penalty: PenaltyName,
        /// Only with `penalty = "elasticnet"` (required there); `null` otherwise.
        #[serde(default)]
        l1_ratio: Option<f64>,
        fit_intercept: bool,
        max_iter: usize,
        tol: f64,
        solver: LogisticSolver,
        class_weight: ClassWeight,
    }

    impl Default for Repr {
        fn default() -> Self {
            LogisticRegression::default().into()
        }
    }

    impl From<LogisticRegression> for Repr {
        fn from(m: LogisticRegression) -> Self {
            let (penalty, l1_ratio) = match m.penalty {
                LogisticPenalty::L2 => (PenaltyName::L2, None),
                LogisticPenalty::L1 => (PenaltyName::L1, None),
                LogisticPenalty::None => (PenaltyName::None, None),
                LogisticPenalty::ElasticNet { l1_ratio } => {
                    (PenaltyName::ElasticNet, Some(l1_ratio))
                }
            };
            Self {
                c: m.c,
                penalty,
                l1_ratio,
                fit_intercept: m.fit_intercept,
                max_iter: m.max_iter,
                tol: m.tol,
                solver: m.solver,
                class_weight: m.class_weight,
            }
        }
    }

    impl TryFrom<Repr> for LogisticRegression {
        type Error = String;
        fn try_from(r: Repr) -> Result<Self, String> {
            let penalty = match (r.penalty, r.l1_ratio) {
                (PenaltyName::ElasticNet, Some(l1_ratio)) => {
                    LogisticPenalty::ElasticNet { l1_ratio }
                }
                (PenaltyName::ElasticNet, None) => {
                    return Err("penalty \"elasticnet\" needs l1_ratio".into());
                }
                (PenaltyName::L2, None | Some(0.0)) => LogisticPenalty::L2,
                (PenaltyName::L1, None | Some(1.0)) => LogisticPenalty::L1,
                (PenaltyName::None, None) => LogisticPenalty::None,
                (_, Some(v)) => {
                    return Err(format!(
                        "l1_ratio = {v} is only used with penalty \"elasticnet\""
                    ));
                }
            };
            Ok(Self {
                c: r.c,
                penalty,
                fit_intercept: r.fit_intercept,
                max_iter: r.max_iter,
                tol: r.tol,
                solver: r.solver,
                class_weight: r.class_weight,
            })
        }
    }
}

impl<F: Float> CheckModel for FittedLogisticRegression<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLogisticRegression");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 2)?;
        let rows = if self.n_classes == 2 {
            1
        } else {
            self.n_classes
        };
        check_scores(&c, &self.coef, &self.intercept, rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Axis, array};

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = three();
        let mut fit = LogisticRegression::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.n_classes = 2;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let (x, y) = binary();
        let mut fit = LogisticRegression::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.intercept[0] = f64::NAN;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn binary() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [0.5, 1.0],
            [1.5, -0.5],
            [2.0, 0.3],
            [-1.0, 0.8],
            [-0.5, -1.2],
            [-2.0, 0.1],
            [0.1, 0.4],
            [1.1, -1.5]
        ];
        let y = array![1, 1, 1, 0, 0, 0, 0, 1];
        (x, y)
    }

    fn three() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [0.0, 0.1],
            [0.3, -0.2],
            [-0.2, 0.2],
            [2.0, 2.1],
            [2.3, 1.8],
            [1.7, 2.2],
            [-2.0, 2.0],
            [-2.2, 1.7],
            [-1.8, 2.4],
            [0.5, 1.0]
        ];
        let y = array![0, 0, 0, 1, 1, 1, 2, 2, 2, 0];
        (x, y)
    }

    #[test]
    fn a_fit_from_data_passes_equals_the_lbfgs_fit() {
        use ndlearn_core::loss::Loss;
        use ndlearn_core::stats::mergeable::{GlmSpec, Mergeable, RowBlock};
        let n = 120;
        let x = Array2::from_shape_fn((n, 3), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 - 5.0 + j as f64
        });
        let y: Array1<usize> = Array1::from_shape_fn(n, |i| {
            usize::from(x[[i, 0]] - 0.5 * x[[i, 1]] + 0.3 * ((i * 13) % 7) as f64 > 0.5)
        });
        let w = Array1::from_shape_fn(n, |i| 0.5 + (i % 3) as f64);
        let yf = y.mapv(|v| v as f64).insert_axis(Axis(1));
        for (penalty, weighted) in [
            (LogisticPenalty::L2, false),
            (LogisticPenalty::L2, true),
            (LogisticPenalty::None, false),
        ] {
            let est = LogisticRegression::default()
                .penalty(penalty)
                .c(0.5)
                .tol(1e-10)
                .max_iter(500);
            let direct = if weighted {
                est.fit_weighted(&x, &y, Some(&w)).expect("fit")
            } else {
                est.fit(&x, &y).expect("fit")
            };
            let mut passes = 0;
            let fit = est
                .fit_passes(3, |coef, b| {
                    passes += 1;
                    let spec = GlmSpec {
                        loss: Loss::LogLoss,
                        coef: coef.clone(),
                        intercept: b,
                        hessian: false,
                    };
                    let mut st = GlmStats::zero(&spec);
                    for p in 0..3 {
                        let r = p * n / 3..(p + 1) * n / 3;
                        let mut blk = RowBlock::new(x.slice(s![r.clone(), ..]))
                            .targets(yf.slice(s![r.clone(), ..]));
                        if weighted {
                            blk = blk.weights(w.slice(s![r]));
                        }
                        st.merge(&GlmStats::of(&spec, &blk)?)?;
                    }
                    Ok(st)
                })
                .expect("passes");
            let diff = fit.coef() - direct.coef();
            let scale = direct.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
            assert!(
                diff.iter().all(|v| v.abs() <= 1e-6 * scale),
                "{penalty:?} {weighted}"
            );
            assert!((fit.intercept()[0] - direct.intercept()[0]).abs() <= 1e-6 * scale);
            assert!(fit.converged());
            assert_eq!((fit.n_classes(), fit.coef().dim()), (2, (1, 3)));
            assert!(passes > 2);
        }
        let l1 = LogisticRegression::default().penalty(LogisticPenalty::L1);
        assert!(matches!(
            l1.fit_passes(3, |_: &Array1<f64>, _| Err(Error::invalid_param(
                "x", "unused"
            ))),
            Err(Error::InvalidParam {
                name: "penalty",
                ..
            })
        ));
    }

    #[test]
    fn a_multinomial_fit_from_data_passes_equals_the_lbfgs_fit() {
        use ndlearn_core::stats::mergeable::{Mergeable, RowBlock, SoftmaxSpec};
        let n = 150;
        let x = Array2::from_shape_fn((n, 3), |(i, j)| {
            ((i * 7919 + j * 104_729) % 997) as f64 / 99.7 - 5.0
        });
        // four classes (37 or 38 rows each) from noisy linear scores
        let y: Array1<usize> = Array1::from_shape_fn(n, |i| {
            let t = x[[i, 0]] - 0.7 * x[[i, 2]] + 0.4 * ((i * 13) % 7) as f64;
            [-0.3, 0.75, 1.9].iter().filter(|&&c| t > c).count()
        });
        let w = Array1::from_shape_fn(n, |i| 0.5 + (i % 3) as f64);
        for (penalty, weighted, intercept) in [
            (LogisticPenalty::L2, false, true),
            (LogisticPenalty::L2, true, true),
            (LogisticPenalty::L2, false, false),
            (LogisticPenalty::None, true, true),
        ] {
            let est = LogisticRegression::default()
                .penalty(penalty)
                .c(0.5)
                .fit_intercept(intercept)
                .tol(1e-10)
                .max_iter(1000);
            let direct = if weighted {
                est.fit_weighted(&x, &y, Some(&w)).expect("fit")
            } else {
                est.fit(&x, &y).expect("fit")
            };
            let fit = est
                .fit_passes_multinomial(3, 4, |coef, b| {
                    let spec = SoftmaxSpec {
                        coef: coef.clone(),
                        intercept: b.clone(),
                        hessian: false,
                    };
                    let mut st = SoftmaxStats::zero(&spec);
                    // three "partitions" merged in reverse order
                    for p in (0..3).rev() {
                        let r = p * n / 3..(p + 1) * n / 3;
                        let mut blk = RowBlock::new(x.slice(s![r.clone(), ..]))
                            .labels(y.slice(s![r.clone()]));
                        if weighted {
                            blk = blk.weights(w.slice(s![r]));
                        }
                        st.merge(&SoftmaxStats::of(&spec, &blk)?)?;
                    }
                    Ok(st)
                })
                .expect("passes");
            assert_eq!((fit.n_classes(), fit.coef().dim()), (4, (4, 3)));
            let scale = direct.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
            // L-BFGS stops on f_tol = 64ε (relative change of the objective) before g_tol =
            // 1e-10 here; the coefficients then sit within about √(64ε f / λ_min) ≈ 1e-6 of
            // the optimum (λ_min of the Hessian ≈ 1e-2), so two runs from different rounding
            // agree to 1e-5. Without a penalty the optimum is flatter still: compare the
            // probabilities there.
            if penalty == LogisticPenalty::None {
                let (p, q) = (
                    fit.predict_proba(&x).expect("p"),
                    direct.predict_proba(&x).expect("q"),
                );
                assert!((&p - &q).iter().all(|v| v.abs() <= 1e-5), "{penalty:?}");
            } else {
                let diff = fit.coef() - direct.coef();
                assert!(
                    diff.iter().all(|v| v.abs() <= 1e-5 * scale),
                    "{penalty:?} {weighted}"
                );
                let db = fit.intercept() - direct.intercept();
                assert!(
                    db.iter().all(|v| v.abs() <= 1e-5 * scale),
                    "{penalty:?} {weighted} {intercept}"
                );
            }
            assert!(fit.intercept().sum().abs() < 1e-9);
            assert!(fit.converged());
        }
        let est = LogisticRegression::default();
        assert!(matches!(
            est.fit_passes_multinomial(3, 2, |_: &Array2<f64>, _: &Array1<f64>| {
                Err(Error::invalid_param("x", "unused"))
            }),
            Err(Error::TooFewClasses { .. })
        ));
        // a pass of the wrong shape is a typed error, not a panic
        assert!(matches!(
            est.fit_passes_multinomial(3, 4, |_: &Array2<f64>, _: &Array1<f64>| {
                Ok(SoftmaxStats::zero(&SoftmaxSpec {
                    coef: Array2::zeros((4, 2)),
                    intercept: Array1::zeros(4),
                    hessian: false,
                }))
            }),
            Err(Error::ShapeMismatch { .. })
        ));
    }

    #[test]
    fn solvers_agree_binary_and_multinomial() {
        for (x, y) in [binary(), three()] {
            let base = LogisticRegression::new(2.0).tol(1e-10).max_iter(1000);
            let a = base.clone().fit(&x, &y).expect("lbfgs");
            let b = base
                .clone()
                .solver(LogisticSolver::Newton)
                .fit(&x, &y)
                .expect("newton");
            let c = base
                .clone()
                .solver(LogisticSolver::Irls)
                .fit(&x, &y)
                .expect("irls");
            assert!(a.converged() && b.converged() && c.converged());
            for other in [&b, &c] {
                assert!((other.coef() - a.coef()).iter().all(|v| v.abs() < 1e-7));
                assert!(
                    (other.intercept() - a.intercept())
                        .iter()
                        .all(|v| v.abs() < 1e-7)
                );
            }
            // IRLS = Newton: both take full Newton steps near the optimum and agree tightly.
            assert!((b.coef() - c.coef()).iter().all(|v| v.abs() < 1e-9));
            let p = a.predict_proba(&x).expect("proba");
            assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
        }
    }

    #[test]
    fn separable_data_stays_finite_with_l2() {
        let x: Array2<f64> = array![[-2.0], [-1.0], [1.0], [2.0]];
        let y = array![0, 0, 1, 1];
        for solver in [
            LogisticSolver::Lbfgs,
            LogisticSolver::Newton,
            LogisticSolver::Irls,
        ] {
            let fit = LogisticRegression::new(1e4)
                .solver(solver)
                .max_iter(500)
                .fit(&x, &y)
                .expect("fit");
            assert!(fit.coef().iter().all(|v| v.is_finite()));
            assert_eq!(fit.predict(&x).expect("predict"), y);
        }
        // Huge scores do not overflow the probabilities.
        let fit = LogisticRegression::default().fit(&x, &y).expect("fit");
        let p = fit
            .predict_proba(&array![[1e300], [-1e300]])
            .expect("proba");
        assert!(p.iter().all(|v| v.is_finite()));
    }

    #[test]
    fn weights_threshold_and_errors() {
        let (x, y) = binary();
        // Integer sample weights = repeated rows (S = 11 either way, so the objectives are
        // identical for the same C).
        let w = array![2.0, 1.0, 1.0, 3.0, 1.0, 1.0, 1.0, 1.0];
        let weighted = LogisticRegression::default()
            .tol(1e-10)
            .fit_weighted(&x, &y, Some(&w))
            .expect("fit");
        let rows: Vec<usize> = vec![0, 0, 1, 2, 3, 3, 3, 4, 5, 6, 7];
        let rep = LogisticRegression::default()
            .tol(1e-10)
            .fit(&x.select(Axis(0), &rows), &y.select(Axis(0), &rows))
            .expect("fit");
        assert!(
            (weighted.coef() - rep.coef())
                .iter()
                .all(|v| v.abs() < 1e-8)
        );
        assert!(
            (weighted.intercept() - rep.intercept())
                .iter()
                .all(|v| v.abs() < 1e-8)
        );
        // Class weights = sample weights per class.
        let cw = LogisticRegression::default()
            .tol(1e-10)
            .class_weight(ClassWeight::per_class(&[2.0, 0.5]))
            .fit(&x, &y)
            .expect("fit");
        let sw = y.mapv(|c| if c == 0 { 2.0 } else { 0.5 });
        let sw_fit = LogisticRegression::default()
            .tol(1e-10)
            .fit_weighted(&x, &y, Some(&sw))
            .expect("fit");
        assert!((cw.coef() - sw_fit.coef()).iter().all(|v| v.abs() < 1e-8));
        let t = cw.predict_with_threshold(&x, 0.9).expect("threshold");
        let p = cw.predict_proba(&x).expect("proba");
        for i in 0..x.nrows() {
            assert_eq!(t[i], usize::from(p[[i, 1]] >= 0.9));
        }
        assert!(cw.predict_with_threshold(&x, 1.5).is_err());
        assert!(LogisticRegression::new(0.0).fit(&x, &y).is_err());
        assert!(
            LogisticRegression::default()
                .max_iter(0)
                .fit(&x, &y)
                .is_err()
        );
        assert!(matches!(
            LogisticRegression::default().fit(&x, &Array1::from_elem(8, 1)),
            Err(Error::TooFewClasses { .. })
        ));
        // scikit-learn's dict rule: keys outside the classes are an error while a class is
        // missing from the map; negative weights are invalid.
        assert!(
            LogisticRegression::default()
                .class_weight(ClassWeight::Explicit(
                    [(0, 1.0), (5, 2.0)].into_iter().collect()
                ))
                .fit(&x, &y)
                .is_err()
        );
        assert!(matches!(
            LogisticRegression::default()
                .class_weight(ClassWeight::per_class(&[1.0, -1.0]))
                .fit(&x, &y),
            Err(Error::InvalidParam { .. })
        ));
        assert!(
            LogisticRegression::default()
                .class_weight(ClassWeight::BalancedSubsample)
                .fit(&x, &y)
                .is_err()
        );
        let (x3, mut y3) = three();
        y3[9] = 4; // class 3 absent
        assert!(
            LogisticRegression::default()
                .class_weight(ClassWeight::Balanced)
                .fit(&x3, &y3)
                .is_err()
        );
    }

    #[test]
    fn l1_threshold_by_hand_and_penalty_mapping() {
        // x = (−2, −1, 1, 2), y = (0, 0, 1, 1): at w = 0 the optimal intercept is 0 (ȳ = ½),
        // the mean-loss gradient is ¼ Σ (½ − yᵢ) xᵢ = −¾ and the L1 weight 1/(4C): w = 0 is
        // optimal iff ¾ ≤ 1/(4C), i.e. C ≤ 1/3.
        let x: Array2<f64> = array![[-2.0], [-1.0], [1.0], [2.0]];
        let y = array![0, 0, 1, 1];
        let at = |c: f64| {
            LogisticRegression::new(c)
                .penalty(LogisticPenalty::L1)
                .tol(1e-12)
                .fit(&x, &y)
                .expect("fit")
        };
        let below = at(0.33);
        assert!(below.converged());
        assert_eq!(below.coef()[[0, 0]], 0.0);
        assert!(below.intercept()[0].abs() < 1e-12);
        let above = at(0.34);
        assert!(above.converged() && above.coef()[[0, 0]] > 0.0);
        // Separable data: the L1 penalty alone keeps the solution finite.
        let big = at(1e3);
        assert!(big.converged() && big.coef().iter().all(|v| v.is_finite()));
        assert_eq!(big.predict(&x).expect("predict"), y);

        assert_eq!(LogisticPenalty::from_l1_ratio(0.0), LogisticPenalty::L2);
        assert_eq!(LogisticPenalty::from_l1_ratio(1.0), LogisticPenalty::L1);
        assert_eq!(
            LogisticPenalty::from_l1_ratio(0.25),
            LogisticPenalty::ElasticNet { l1_ratio: 0.25 }
        );
        assert_eq!(LogisticPenalty::L1.l1_ratio(), 1.0);
        assert!(!LogisticPenalty::None.has_l1());
        for bad in [-0.5, 2.0, f64::INFINITY] {
            let err = LogisticRegression::default()
                .penalty(LogisticPenalty::ElasticNet { l1_ratio: bad })
                .validate()
                .expect_err("invalid");
            assert!(matches!(
                err,
                Error::InvalidParam {
                    name: "l1_ratio",
                    ..
                }
            ));
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn serde_spells_the_penalty_as_scikit_learn() {
        let est =
            LogisticRegression::new(0.5).penalty(LogisticPenalty::ElasticNet { l1_ratio: 0.3 });
        let json = serde_json::to_value(&est).expect("json");
        assert_eq!(json["penalty"], "elasticnet");
        assert_eq!(json["l1_ratio"], 0.3);
        let back: LogisticRegression = serde_json::from_value(json).expect("back");
        assert_eq!(back, est);
        let l1 = serde_json::to_value(LogisticRegression::default().penalty(LogisticPenalty::L1))
            .expect("json");
        assert_eq!(l1["penalty"], "l1");
        assert!(l1["l1_ratio"].is_null());
        let mut text = serde_json::to_value(LogisticRegression::default()).expect("json");
        text["penalty"] = "elasticnet".into();
        assert!(serde_json::from_value::<LogisticRegression>(text.clone()).is_err());
        text["penalty"] = "l2".into();
        text["l1_ratio"] = 0.5.into();
        assert!(serde_json::from_value::<LogisticRegression>(text).is_err());
    }
}
