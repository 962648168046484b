//! Automatic relevance determination regression ([`ArdRegression`], scikit-learn's
//! `ARDRegression`): Bayesian linear regression with one prior precision per weight, estimated
//! by evidence maximisation, which drives the precisions of irrelevant weights to infinity
//! and prunes them.
//!
//! # Model
//!
//! `y = Xw + b + ε`, `ε ~ N(0, 1/α)` (noise precision `α`), `w_j ~ N(0, 1/λ_j)` independently,
//! Gamma hyperpriors `α ~ Γ(α₁, α₂)`, `λ_j ~ Γ(λ₁, λ₂)`; the intercept is unpenalised
//! (centring, as [`crate::BayesianRidge`]). Starting from `α = 1/(Var(y) + ε)`, `λ = 1`, all
//! weights kept, each iteration on the kept set `K`:
//!
//! ```text
//! Σ     = (diag(λ_K) + α X_Kᵀ X_K)⁻¹      (N ≥ D: directly; N < D: Woodbury,
//!                                           Λ⁻¹ − Λ⁻¹X_Kᵀ(I/α + X_KΛ⁻¹X_Kᵀ)⁻¹X_KΛ⁻¹)
//! m_K   = α Σ X_Kᵀ y_c
//! sse   = ‖y_c − X_c m‖²
//! γ_j   = 1 − λ_j Σ_jj                   (j ∈ K)
//! λ_j   ← (γ_j + 2λ₁) / (m_j² + 2λ₂)     (j ∈ K)
//! α     ← (N − Σγ_j + 2α₁) / (sse + 2α₂)
//! K     ← { j : λ_j < threshold_lambda },  m_j = 0 off K
//! ```
//!
//! stopping when `Σ|m − m_old| < tol` (not at the first iteration), when every weight is
//! pruned, or after `max_iter`; `Σ` and `m` are then recomputed once with the final `α`, `λ`,
//! `K`. With `compute_score` the objective
//! `Σ_j(λ₁ ln λ_j − λ₂λ_j) + α₁ln α − α₂α + ½(ln|Σ| + N ln α + Σ_j ln λ_j) − ½(α·sse + Σ_j λ_j m_j²)`
//! is recorded after each update (as scikit-learn, with the `Σ` of that iteration).
//!
//! Predictive standard deviation: `√((x − x̄)_Kᵀ Σ (x − x̄)_K + 1/α)`.
//!
//! **Accuracy for `N < D`.** The Woodbury form (scikit-learn's choice, `O(N³)` instead of
//! `O(|K|³)`) subtracts two large matrices when some `λ_j` are tiny (`1/λ_j` large), and can
//! lose digits that the direct `|K| × |K|` inverse keeps: on `make_regression(20, 35)`
//! problems scikit-learn's own result differs from the direct posterior by up to 1e-3
//! relative. Both implementations use the same form, but their rounding differs, so for
//! `N < D` agreement with scikit-learn is not to the last digits (the golden tests cover
//! `N ≥ D`; the Woodbury path is unit-tested against the direct inverse).
//!
//! # Complexity
//!
//! Per iteration `O(N|K|² + |K|³)` (`N ≥ D`) or `O(N²|K| + N³)` (`N < D`).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `max_iter` | 300 | `max_iter` | ≥ 1 |
//! | `tol` | 1e-3 | `tol` | finite, ≥ 0 |
//! | `alpha_1`, `alpha_2`, `lambda_1`, `lambda_2` | 1e-6 | same | finite, ≥ 0 |
//! | `threshold_lambda` | 1e4 | `threshold_lambda` | > 0 (may be `∞`: never prune) |
//! | `compute_score` | `false` | `compute_score` | |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for invalid hyperparameters, [`Error::TooFewSamples`] for fewer than
//! 2 rows (as scikit-learn), [`Error::NonFinite`] for NaN/infinite input or overflowing data,
//! [`Error::Linalg`] if a posterior precision matrix is not numerically positive definite.
//!
//! # References
//!
//! - D. J. C. MacKay, "Bayesian methods for backpropagation networks", 1994; R. M. Neal,
//!   *Bayesian Learning for Neural Networks*, 1996 (ARD); M. E. Tipping, "Sparse Bayesian
//!   learning and the relevance vector machine", JMLR 1, 2001 (the updates).
//! - Course notes: the Gaussian-prior MAP of catalog L-10 (C. M. Bishop, *Pattern Recognition
//!   and Machine Learning*, §3.3); ARD itself is not in the course notes.
//!
//! ```
//! use ndlearn_core::{Fit, ndarray::Array2};
//! use ndlearn_linear::ArdRegression;
//!
//! // y depends on columns 0 and 2 only; ARD prunes the other three.
//! let x = Array2::from_shape_fn((60, 5), |(i, j)| ((i * (j + 3) + 7 * j) % 11) as f64 - 5.0);
//! let y = x.column(0).mapv(|v| 2.0 * v) - x.column(2).mapv(|v| 0.5 * v);
//! let fit = ArdRegression::default().fit(&x, &y)?;
//! assert_eq!(fit.kept(), [0, 2]);
//! assert!((fit.coef()[0] - 2.0).abs() < 1e-6 && (fit.coef()[2] + 0.5).abs() < 1e-6);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::CholeskyFactor;
use ndlearn_core::validate::{check_finite_2d, check_predict_input};
use ndlearn_core::{Error, Fit, Float, Result};

use crate::design::{self, as_column, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Automatic relevance determination regression (scikit-learn's `ARDRegression`). See the
/// [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ArdRegression {
    /// Maximum number of evidence iterations (default 300).
    pub max_iter: usize,
    /// Stop when `Σ|m − m_old| < tol` (default 1e-3).
    pub tol: f64,
    /// Shape of the Gamma hyperprior on the noise precision (default 1e-6).
    pub alpha_1: f64,
    /// Rate of the Gamma hyperprior on the noise precision (default 1e-6).
    pub alpha_2: f64,
    /// Shape of the Gamma hyperprior on each weight precision (default 1e-6).
    pub lambda_1: f64,
    /// Rate of the Gamma hyperprior on each weight precision (default 1e-6).
    pub lambda_2: f64,
    /// Weights whose precision reaches this are pruned (default 1e4).
    pub threshold_lambda: f64,
    /// Record the objective at each iteration (default `false`).
    pub compute_score: bool,
    /// Fit an unpenalised intercept by centring (default `true`).
    pub fit_intercept: bool,
}

impl Default for ArdRegression {
    fn default() -> Self {
        Self {
            max_iter: 300,
            tol: 1e-3,
            alpha_1: 1e-6,
            alpha_2: 1e-6,
            lambda_1: 1e-6,
            lambda_2: 1e-6,
            threshold_lambda: 1e4,
            compute_score: false,
            fit_intercept: true,
        }
    }
}

impl ArdRegression {
    /// The defaults (scikit-learn's).
    pub fn new() -> Self {
        Self::default()
    }
    ndlearn_core::setters! {
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets `alpha_1`.
        alpha_1: f64,
        /// Sets `alpha_2`.
        alpha_2: f64,
        /// Sets `lambda_1`.
        lambda_1: f64,
        /// Sets `lambda_2`.
        lambda_2: f64,
        /// Sets `threshold_lambda`.
        threshold_lambda: f64,
        /// Sets `compute_score`.
        compute_score: bool,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
    }
}

impl ndlearn_core::Estimator for ArdRegression {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `max_iter = 0`, a negative or non-finite `tol` or Gamma
    /// parameter, or a `threshold_lambda` that is not `> 0` (infinity allowed).
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_non_negative};
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        check_non_negative("alpha_1", self.alpha_1)?;
        check_non_negative("alpha_2", self.alpha_2)?;
        check_non_negative("lambda_1", self.lambda_1)?;
        check_non_negative("lambda_2", self.lambda_2)?;
        if self.threshold_lambda.is_nan() || self.threshold_lambda <= 0.0 {
            return Err(Error::invalid_param(
                "threshold_lambda",
                format!("must be > 0, got {}", self.threshold_lambda),
            ));
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for ArdRegression {
    type Target = ArrayRef1<F>;
    type Model = FittedArdRegression<F>;

    /// Evidence maximisation with pruning (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        check_xy(x, &as_column(y), 2, "ArdRegression::fit")?;
        check_finite_2d(x, "X")?;
        let (n, d) = x.dim();
        let nf = F::cast(n);
        let y_mean_all = y.sum() / nf;
        let y_var = y
            .iter()
            .map(|&v| (v - y_mean_all) * (v - y_mean_all))
            .sum::<F>()
            / nf;
        let (x_mean, y_mean) = if self.fit_intercept {
            (x.sum_axis(Axis(0)).mapv(|v| v / nf), y_mean_all)
        } else {
            (Array1::zeros(d), F::zero())
        };
        let xc = design::centred_copy(x, &x_mean);
        let yc = y.mapv(|v| v - y_mean);
        if !y_var.is_finite() || !xc.iter().all(|v| v.is_finite()) {
            return Err(overflow());
        }
        let (a1, a2) = (F::cast(self.alpha_1), F::cast(self.alpha_2));
        let (l1, l2) = (F::cast(self.lambda_1), F::cast(self.lambda_2));
        let two = F::cast(2.0);
        let half = F::cast(0.5);
        let tol = F::cast(self.tol);
        let threshold = F::cast(self.threshold_lambda);

        let mut alpha = F::one() / (y_var + F::cast(f64::EPSILON));
        let mut lambda = Array1::<F>::ones(d);
        let mut keep: Vec<usize> = (0..d).collect();
        let mut coef = Array1::<F>::zeros(d);
        let mut coef_old: Option<Array1<F>> = None;
        let mut scores = Vec::new();
        let mut n_iter = self.max_iter;
        let mut converged = false;

        for it in 0..self.max_iter {
            let sigma = posterior_cov(&xc, alpha, &lambda, &keep)?;
            update_coef(&xc, &yc, &mut coef, alpha, &keep, &sigma);
            let resid = &yc - &xc.dot(&coef);
            let sse = resid.dot(&resid);
            let mut gamma_sum = F::zero();
            for (k, &j) in keep.iter().enumerate() {
                let gamma = F::one() - lambda[j] * sigma[[k, k]];
                gamma_sum += gamma;
                lambda[j] = (gamma + two * l1) / (coef[j] * coef[j] + two * l2);
            }
            alpha = (nf - gamma_sum + two * a1) / (sse + two * a2);
            if !alpha.is_finite() || !lambda.iter().all(|v| !v.is_nan()) {
                return Err(Error::Linalg {
                    op: "ArdRegression::fit",
                    kind: ndlearn_core::LinalgErrorKind::Singular,
                    detail: Some(
                        "the evidence updates produced a non-finite precision (a perfect fit \
                         with alpha_2 = 0, or a zero weight with lambda_2 = 0)"
                            .into(),
                    ),
                });
            }
            keep.retain(|&j| lambda[j] < threshold);
            for j in 0..d {
                if lambda[j].partial_cmp(&threshold) != Some(std::cmp::Ordering::Less) {
                    coef[j] = F::zero();
                }
            }
            if self.compute_score {
                let mut s = lambda.iter().map(|&l| l1 * l.ln() - l2 * l).sum::<F>();
                s += a1 * alpha.ln() - a2 * alpha;
                let logdet = match CholeskyFactor::new(&sigma) {
                    Ok(c) => c.logdet(),
                    Err(_) => F::neg_infinity(),
                };
                s += half * (logdet + nf * alpha.ln() + lambda.iter().map(|l| l.ln()).sum::<F>());
                let pen: F = lambda
                    .iter()
                    .zip(coef.iter())
                    .map(|(&l, &c)| l * c * c)
                    .sum();
                s -= half * (alpha * sse + pen);
                scores.push(s);
            }
            let change = coef_old
                .as_ref()
                .map(|old| (old - &coef).mapv(|v| v.abs()).sum());
            let done = it > 0 && change.is_some_and(|c| c < tol);
            let stop = report_stop(it, self.max_iter, change);
            if done || stop {
                n_iter = it + 1;
                converged = done;
                break;
            }
            coef_old = Some(coef.clone());
            if keep.is_empty() {
                n_iter = it + 1;
                converged = true;
                break;
            }
        }
        let sigma = if keep.is_empty() {
            Array2::zeros((0, 0))
        } else {
            let sigma = posterior_cov(&xc, alpha, &lambda, &keep)?;
            update_coef(&xc, &yc, &mut coef, alpha, &keep, &sigma);
            sigma
        };
        Ok(FittedArdRegression {
            params: *self,
            lin: LinearCoef::from_solution(
                &coef.insert_axis(Axis(1)),
                &x_mean,
                &Array1::from_elem(1, y_mean),
                false,
            ),
            alpha,
            lambda,
            sigma,
            kept: keep,
            x_mean,
            scores,
            n_iter,
            converged,
        })
    }
}

/// A fitted [`ArdRegression`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedArdRegression<F: Float> {
    params: ArdRegression,
    pub(crate) lin: LinearCoef<F>,
    alpha: F,
    lambda: Array1<F>,
    sigma: Array2<F>,
    kept: Vec<usize>,
    x_mean: Array1<F>,
    scores: Vec<F>,
    n_iter: usize,
    converged: bool,
}

linear_model_api!(FittedArdRegression);

impl<F: Float> FittedArdRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &ArdRegression {
        &self.params
    }
    /// Estimated noise precision (scikit-learn's `alpha_`).
    pub fn alpha(&self) -> F {
        self.alpha
    }
    /// Estimated precision of every weight (scikit-learn's `lambda_`; pruned weights keep the
    /// value that crossed `threshold_lambda`).
    pub fn lambda(&self) -> &Array1<F> {
        &self.lambda
    }
    /// Posterior covariance of the kept weights (scikit-learn's `sigma_`), `|K| × |K|`.
    pub fn sigma(&self) -> &Array2<F> {
        &self.sigma
    }
    /// Indices of the kept (not pruned) weights, increasing.
    pub fn kept(&self) -> &[usize] {
        &self.kept
    }
    /// Objective after each iteration (empty unless `compute_score`).
    pub fn scores(&self) -> &[F] {
        &self.scores
    }
    /// Iterations run (scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the coefficient change fell below `tol` (or every weight was pruned) before
    /// `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// Predictive mean and standard deviation `√((x − x̄)_Kᵀ Σ (x − x̄)_K + 1/α)`
    /// (scikit-learn's `predict(X, return_std=True)`).
    ///
    /// # Errors
    /// As [`Predict::predict`](ndlearn_core::Predict::predict).
    pub fn predict_with_std(&self, x: &ArrayRef2<F>) -> Result<(Array1<F>, Array1<F>)> {
        let mean = self.lin.predict(x)?;
        check_predict_input(x, self.n_features(), "predict: number of features")?;
        let noise = F::one() / self.alpha;
        let xc = design::centred_copy(x, &self.x_mean).select(Axis(1), &self.kept);
        let q = (&xc.dot(&self.sigma) * &xc).sum_axis(Axis(1));
        Ok((mean, q.mapv(|v| (v + noise).sqrt())))
    }
}

/// `Σ = (diag(λ_K) + α X_Kᵀ X_K)⁻¹`, directly (`N ≥ D`) or by Woodbury (`N < D`).
fn posterior_cov<F: Float>(
    xc: &Array2<F>,
    alpha: F,
    lambda: &Array1<F>,
    keep: &[usize],
) -> Result<Array2<F>> {
    let (n, d) = xc.dim();
    let xk = xc.select(Axis(1), keep);
    let mut sigma = if n >= d {
        let mut a = xk.t().dot(&xk).mapv(|v| v * alpha);
        for (k, &j) in keep.iter().enumerate() {
            a[[k, k]] += lambda[j];
        }
        design::symmetrize(&mut a);
        CholeskyFactor::new(&a)?.inverse()?
    } else {
        let inv_l: Array1<F> = keep.iter().map(|&j| F::one() / lambda[j]).collect();
        let xl = &xk * &inv_l; // X_K Λ⁻¹ (n × |K|)
        let mut m = xl.dot(&xk.t());
        let ia = F::one() / alpha;
        for i in 0..n {
            m[[i, i]] += ia;
        }
        design::symmetrize(&mut m);
        let t = CholeskyFactor::new(&m)?.solve_many(&xl)?; // M⁻¹ X_K Λ⁻¹
        let mut s = xl.t().dot(&t).mapv(|v| -v);
        for (k, &il) in inv_l.iter().enumerate() {
            s[[k, k]] += il;
        }
        s
    };
    design::symmetrize(&mut sigma);
    Ok(sigma)
}

/// `m_K = α Σ X_Kᵀ y_c`.
fn update_coef<F: Float>(
    xc: &Array2<F>,
    yc: &Array1<F>,
    coef: &mut Array1<F>,
    alpha: F,
    keep: &[usize],
    sigma: &Array2<F>,
) {
    let xty: Array1<F> = keep.iter().map(|&j| xc.column(j).dot(yc)).collect();
    let mk = sigma.dot(&xty);
    for (k, &j) in keep.iter().enumerate() {
        coef[j] = alpha * mk[k];
    }
}

fn overflow() -> Error {
    Error::NonFinite {
        context: "X or y (the data overflow the floating-point range; rescale them)",
        row: 0,
        col: 0,
    }
}

fn report_stop<F: Float>(it: usize, max_iter: usize, change: Option<F>) -> bool {
    if !ndlearn_core::observe::is_observed() {
        return false;
    }
    let mut p = ndlearn_core::observe::Progress::new("ARD regression", it + 1).max_iter(max_iter);
    if let Some(c) = change {
        p = p.criterion(c.to_f64_lossless());
    }
    ndlearn_core::observe::report(&p).is_stop()
}

impl<F: Float> CheckModel for FittedArdRegression<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedArdRegression");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        let d = self.lin.n_features();
        c.len("n_targets", self.lin.coef.nrows(), 1)?;
        c.positive("alpha", self.alpha)?;
        c.len("lambda", self.lambda.len(), d)?;
        c.that(self.lambda.iter().all(|l| !l.is_nan()), || {
            "`lambda` holds NaN".into()
        })?;
        c.indices_below("kept", &self.kept, d)?;
        c.that(self.kept.windows(2).all(|w| w[0] < w[1]), || {
            "`kept` must be strictly increasing".into()
        })?;
        let k = self.kept.len();
        c.shape("sigma", self.sigma.dim(), (k, k))?;
        c.finite("sigma", &self.sigma)?;
        c.len("x_mean", self.x_mean.len(), d)?;
        c.finite("x_mean", &self.x_mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BayesianLinearRegression, GaussianPrior};
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = sparse_problem();
        let mut fit = ArdRegression::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.kept.push(x.ncols());
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn sparse_problem() -> (Array2<f64>, Array1<f64>) {
        let x = Array2::from_shape_fn((40, 6), |(i, j)| {
            (((i + 1) * (2 * j + 3) + 3 * j) % 17) as f64 / 4.0 - 2.0
        });
        let y = x.column(1).mapv(|v| 3.0 * v) - x.column(4).mapv(|v| v) + 0.5;
        (x, y)
    }

    #[test]
    fn prunes_irrelevant_weights_and_recovers_the_rest() {
        let (x, y) = sparse_problem();
        let fit = ArdRegression::default()
            .compute_score(true)
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(fit.kept(), [1, 4]);
        assert!((fit.coef()[1] - 3.0).abs() < 1e-6);
        assert!((fit.coef()[4] + 1.0).abs() < 1e-6);
        assert!((fit.intercept() - 0.5).abs() < 1e-6);
        for j in [0, 2, 3, 5] {
            assert_eq!(fit.coef()[j], 0.0);
            assert!(fit.lambda()[j] >= 1e4);
        }
        assert_eq!(fit.sigma().dim(), (2, 2));
        assert_eq!(fit.scores().len(), fit.n_iter());
    }

    #[test]
    fn final_posterior_is_the_gaussian_posterior_on_the_kept_weights() {
        // With the fitted α and λ, (m_K, Σ) is BayesianLinearRegression's posterior with a
        // diagonal prior N(0, diag(1/λ_K)) on the kept columns.
        let (x, mut y) = sparse_problem();
        for (i, v) in y.iter_mut().enumerate() {
            *v += 0.1 * (((i * 7) % 5) as f64 - 2.0);
        }
        let fit = ArdRegression::default().fit(&x, &y).expect("fit");
        let kept = fit.kept().to_vec();
        let xk = x.select(Axis(1), &kept);
        let prior = GaussianPrior::Diagonal {
            mean: vec![0.0; kept.len()],
            variance: kept.iter().map(|&j| 1.0 / fit.lambda()[j]).collect(),
        };
        let blr = BayesianLinearRegression::new(fit.alpha(), prior)
            .fit(&xk, &y)
            .expect("fit");
        for (k, &j) in kept.iter().enumerate() {
            assert!((blr.coef()[k] - fit.coef()[j]).abs() < 1e-9);
            for (l, _) in kept.iter().enumerate() {
                assert!((blr.posterior_covariance()[[k, l]] - fit.sigma()[[k, l]]).abs() < 1e-12);
            }
        }
    }

    #[test]
    fn woodbury_equals_the_direct_inverse() {
        let xc: Array2<f64> = array![
            [1.0, 2.0, 0.5, -1.0],
            [0.0, 1.0, 1.5, 2.0],
            [3.0, -1.0, 0.0, 1.0]
        ];
        let lambda: Array1<f64> = array![0.5, 2.0, 1.0, 3.0];
        let keep = [0, 1, 3];
        let wood = posterior_cov(&xc, 1.7, &lambda, &keep).expect("cov");
        let xk = xc.select(Axis(1), &keep);
        let mut a = xk.t().dot(&xk).mapv(|v| v * 1.7);
        for (k, &j) in keep.iter().enumerate() {
            a[[k, k]] += lambda[j];
        }
        let direct = ndlearn_core::linalg::inv(&a).expect("inv");
        for (u, v) in wood.iter().zip(direct.iter()) {
            assert!((u - v).abs() < 1e-12);
        }
    }

    #[test]
    fn invalid_hyperparameters_and_inputs() {
        let (x, y) = sparse_problem();
        for bad in [
            ArdRegression::default().max_iter(0),
            ArdRegression::default().tol(f64::NAN),
            ArdRegression::default().alpha_1(-1.0),
            ArdRegression::default().lambda_2(-1.0),
            ArdRegression::default().threshold_lambda(0.0),
        ] {
            assert!(
                matches!(bad.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{bad:?}"
            );
        }
        assert!(matches!(
            ArdRegression::default()
                .fit(&x.slice(ndarray::s![..1, ..]), &y.slice(ndarray::s![..1])),
            Err(Error::TooFewSamples { .. })
        ));
        // Never pruning keeps every weight.
        let all = ArdRegression::default()
            .threshold_lambda(f64::INFINITY)
            .fit(&x, &y)
            .expect("fit");
        assert_eq!(all.kept().len(), 6);
    }
}
