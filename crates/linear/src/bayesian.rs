//! Bayesian linear regression: the Gaussian posterior with a known noise precision
//! ([`BayesianLinearRegression`]) and evidence maximisation of both precisions
//! ([`BayesianRidge`], scikit-learn's `BayesianRidge`).
//!
//! # Model
//!
//! `y = Xw + b + ε`, `ε ~ N(0, 1/β)` (noise *precision* `β`), Gaussian prior `w ~ N(μ₀, Σ₀)`.
//! The negative log posterior is
//!
//! ```text
//! (β/2) Σᵢ (yᵢ − wᵀxᵢ − b)² + ½ (w − μ₀)ᵀ Σ₀⁻¹ (w − μ₀) + const,
//! ```
//!
//! a quadratic in `w`, so the posterior is Gaussian `N(m_N, S_N)` with
//!
//! ```text
//! S_N⁻¹ = Σ₀⁻¹ + β XᵀX,        m_N = S_N (Σ₀⁻¹ μ₀ + β Xᵀy)
//! ```
//!
//! and the MAP estimate is the posterior mean: `w_MAP = (βXᵀX + Σ₀⁻¹)⁻¹(βXᵀy + Σ₀⁻¹μ₀)`
//! (the course notes' formula with `Σ₀⁻¹` where one set of the course notes prints `Σ₀`: catalog
//! erratum E33; Bishop, *Pattern Recognition and Machine Learning* (2006), §3.3.1).
//! Special cases (checked by the tests):
//!
//! - spherical prior `μ₀ = 0`, `Σ₀ = cI`: `m_N = (XᵀX + I/(βc))⁻¹Xᵀy`, i.e. [`crate::Ridge`]
//!   with `alpha = 1/(βc)`;
//! - infinitely broad prior (`c → ∞`, or `variance = ∞`, a flat prior `Σ₀⁻¹ = 0`):
//!   `m_N = (XᵀX)⁻¹Xᵀy`, ordinary least squares (needs `XᵀX` of full rank).
//!
//! **Intercept.** With `fit_intercept` (the default) the intercept `b` has a flat
//! (improper, unpenalised) prior and the prior above is on the slopes only. Integrating `b` out
//! replaces `XᵀX`, `Xᵀy` by their centred versions `X_cᵀX_c`, `X_cᵀy_c` exactly, and the
//! posterior of `b` given `w` is `N(ȳ − x̄ᵀw, 1/(βN))`; the reported intercept is
//! `ȳ − x̄ᵀm_N` and the predictive variance gains `1/(βN)` for it. Without `fit_intercept`
//! there is no intercept; put a column of ones in `X` to give it a proper prior.
//!
//! **Predictive distribution** (not in the course notes, catalog L-10 "gap"): for a new `x`,
//! `y ~ N(m_Nᵀx + b, 1/β + (x − x̄)ᵀS_N(x − x̄) [+ 1/(βN) with an intercept])`
//! ([`FittedBayesianLinearRegression::predict_with_std`]); `x̄ = 0` without intercept.
//!
//! # Evidence maximisation ([`BayesianRidge`])
//!
//! scikit-learn's `BayesianRidge`: prior `w ~ N(0, λ⁻¹I)`, noise precision `α` (scikit-learn's
//! names: `α` is the noise precision, `λ` the weight precision), Gamma hyperpriors
//! `α ~ Γ(α₁, α₂)`, `λ ~ Γ(λ₁, λ₂)` (shape, rate), both precisions estimated by MacKay's
//! fixed-point iteration on the thin SVD `X_c = U diag(s) Vᵀ` (eigenvalues `eᵢ = sᵢ²` of
//! `X_cᵀX_c`). Starting from `α = 1/(Var(y) + ε)` (or `alpha_init`) and `λ = 1` (or
//! `lambda_init`), each iteration
//!
//! ```text
//! m      = V diag(sᵢ/(eᵢ + λ/α)) Uᵀy_c                      (posterior mean)
//! sse    = ‖y_c − X_c m‖²
//! γ      = Σᵢ α eᵢ / (λ + α eᵢ)                              (effective number of parameters)
//! λ      ← (γ + 2λ₁) / (‖m‖² + 2λ₂)
//! α      ← (N − γ + 2α₁) / (sse + 2α₂)
//! ```
//!
//! and stops when `Σ|m − m_old| < tol` (never at the first iteration), or after `max_iter`.
//! The final mean is recomputed with the last `α`, `λ`; the posterior covariance is
//! `Σ = (λI + αX_cᵀX_c)⁻¹ = V diag(1/(αeᵢ + λ)) Vᵀ` (plus `(I − VVᵀ)/λ` on the null space when
//! `N < D`). With `compute_score`, the log marginal likelihood (with the hyperprior terms)
//!
//! ```text
//! λ₁ln λ − λ₂λ + α₁ln α − α₂α
//!   + ½ (D ln λ + N ln α − α·sse − λ‖m‖² − ln|λI + αX_cᵀX_c| − N ln 2π)
//! ```
//!
//! is recorded before each update and once at the end (`n_iter + 1` values; as in
//! scikit-learn, the final value pairs the last iteration's `‖m‖²` with the final `sse`).
//! Predictive
//! standard deviation: `√((x − x̄)ᵀΣ(x − x̄) + 1/α)` (scikit-learn leaves out the intercept's
//! variance; so does this implementation, to match it).
//!
//! # Complexity
//!
//! [`BayesianLinearRegression`]: one gemm for `XᵀX` and a `D × D` Cholesky, `O(ND² + D³)`.
//! [`BayesianRidge`]: one thin SVD, `O(ND·min(N, D))`, then `O(ND)` per iteration.
//!
//! # Hyperparameters
//!
//! [`BayesianLinearRegression`] (no scikit-learn equivalent):
//!
//! | field | default | valid |
//! |---|---|---|
//! | `beta` | 1.0 | finite, > 0 (noise precision `1/σ²`) |
//! | `prior` | [`GaussianPrior::Spherical`] with variance 1 | variances in `(0, ∞]`; a full covariance symmetric positive definite and finite |
//! | `fit_intercept` | `true` | |
//!
//! [`BayesianRidge`]:
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `max_iter` | 300 | `max_iter` | ≥ 1 |
//! | `tol` | 1e-3 | `tol` | finite, ≥ 0 |
//! | `alpha_1`, `alpha_2`, `lambda_1`, `lambda_2` | 1e-6 | same | finite, ≥ 0 |
//! | `alpha_init` | `None` (`1/(Var(y) + ε)`) | `alpha_init` | finite, > 0 |
//! | `lambda_init` | `None` (1) | `lambda_init` | finite, > 0 |
//! | `compute_score` | `false` | `compute_score` | |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//!
//! (scikit-learn also accepts `alpha_init = 0` or `lambda_init = 0`, which can divide by zero;
//! they are rejected here.)
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for invalid hyperparameters (or a prior covariance that is not
//! positive definite), [`Error::ShapeMismatch`] for a prior whose length is not the number of
//! features or a target of the wrong length, [`Error::NonFinite`] for NaN/infinite input or data
//! so large that `XᵀX` overflows, [`Error::Linalg`] when a flat prior meets a rank-deficient
//! `X` (the posterior is improper).
//!
//! # References
//!
//! - Course notes: MAP with a Gaussian prior, the spherical case and the broad-prior limit;
//!   catalog L-10, CL-082, errata E32/E33.
//! - D. J. C. MacKay, "Bayesian interpolation", Neural Computation 4(3), 1992 (the evidence
//!   updates); M. E. Tipping, "Sparse Bayesian learning and the relevance vector machine",
//!   JMLR 1, 2001; C. M. Bishop, *Pattern Recognition and Machine Learning*, §3.3 and §3.5
//!   (posterior, predictive distribution, evidence).
//!
//! ```
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//! use ndlearn_linear::{BayesianLinearRegression, BayesianRidge, GaussianPrior};
//!
//! // One feature, no intercept, prior N(0, 1), β = 1: S_N = 1/(1 + Σx²), m_N = S_N·Σxy.
//! let x = array![[1.0_f64], [2.0]];
//! let y = array![1.0_f64, 3.0];
//! let blr = BayesianLinearRegression::default()
//!     .fit_intercept(false)
//!     .prior(GaussianPrior::Spherical { variance: 1.0 })
//!     .fit(&x, &y)?;
//! assert!((blr.coef()[0] - 7.0 / 6.0).abs() < 1e-14);
//! assert!((blr.posterior_covariance()[[0, 0]] - 1.0 / 6.0).abs() < 1e-14);
//! let (mean, std) = blr.predict_with_std(&array![[3.0_f64]])?;
//! assert!((mean[0] - 3.5).abs() < 1e-14 && (std[0] - (1.0f64 + 9.0 / 6.0).sqrt()).abs() < 1e-14);
//!
//! // Evidence maximisation on the diabetes data.
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("regression target");
//! let br = BayesianRidge::default().compute_score(true).fit(data.x(), y)?;
//! assert!(br.converged() && br.scores().len() == br.n_iter() + 1);
//! let (_, std) = br.predict_with_std(data.x())?;
//! assert!(std.iter().all(|&s| s >= 1.0 / br.alpha().sqrt()));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, CholeskyFactor};
use ndlearn_core::validate::{check_finite_2d, check_predict_input};
use ndlearn_core::{Error, Fit, Float, LinalgErrorKind, Result, random};

use crate::design::{self, as_column, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::validate::{CheckModel, ModelCheck};

// ---------------------------------------------------------------------------------------------
// Bayesian linear regression with a known noise precision

/// The Gaussian prior `w ~ N(μ₀, Σ₀)` of [`BayesianLinearRegression`] (on the slopes; the
/// intercept, when fitted, has a flat prior).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum GaussianPrior {
    /// `N(0, c I)`: zero mean, the same variance `c ∈ (0, ∞]` for every weight (`∞` = flat
    /// prior, giving least squares).
    Spherical {
        /// The prior variance `c` of each weight.
        variance: f64,
    },
    /// `N(μ₀, diag(σ₀²))`: independent weights, each variance in `(0, ∞]`.
    Diagonal {
        /// Prior mean `μ₀` (one entry per feature).
        mean: Vec<f64>,
        /// Prior variances (one per feature; `∞` leaves that weight unpenalised).
        variance: Vec<f64>,
    },
    /// `N(μ₀, Σ₀)` with a full covariance (symmetric positive definite, finite).
    Full {
        /// Prior mean `μ₀` (one entry per feature).
        mean: Vec<f64>,
        /// Prior covariance `Σ₀`, one `Vec` per row.
        covariance: Vec<Vec<f64>>,
    },
}

impl Default for GaussianPrior {
    fn default() -> Self {
        Self::Spherical { variance: 1.0 }
    }
}

impl GaussianPrior {
    /// A full prior `N(mean, covariance)` from arrays.
    pub fn full(mean: &ArrayRef1<f64>, covariance: &ArrayRef2<f64>) -> Self {
        Self::Full {
            mean: mean.to_vec(),
            covariance: covariance.rows().into_iter().map(|r| r.to_vec()).collect(),
        }
    }

    /// Number of weights the prior is for (`None` for the spherical prior, which fits any).
    fn len(&self) -> Option<usize> {
        match self {
            Self::Spherical { .. } => None,
            Self::Diagonal { mean, .. } | Self::Full { mean, .. } => Some(mean.len()),
        }
    }

    /// The prior precision `Σ₀⁻¹` and `Σ₀⁻¹μ₀` for `d` features.
    fn precision<F: Float>(&self, d: usize) -> Result<(Array2<F>, Array1<F>)> {
        if let Some(len) = self.len()
            && len != d
        {
            return Err(Error::ShapeMismatch {
                context: "BayesianLinearRegression::fit: prior length",
                expected: format!("a prior for {d} features"),
                found: format!("a prior of length {len}"),
            });
        }
        let inv = |v: f64| if v.is_infinite() { 0.0 } else { 1.0 / v };
        match self {
            Self::Spherical { variance } => {
                let p = inv(*variance);
                Ok((Array2::from_diag_elem(d, F::cast(p)), Array1::zeros(d)))
            }
            Self::Diagonal { mean, variance } => {
                let p: Array1<f64> = variance.iter().map(|&v| inv(v)).collect();
                let pm: Array1<F> = p.iter().zip(mean).map(|(a, b)| F::cast(a * b)).collect();
                Ok((Array2::from_diag(&p.mapv(F::cast)), pm))
            }
            Self::Full { mean, covariance } => {
                let c = Array2::from_shape_fn((d, d), |(i, j)| covariance[i][j]);
                let chol = CholeskyFactor::new(&c).map_err(|_| {
                    Error::invalid_param("prior", "the prior covariance must be positive definite")
                })?;
                let mut p = chol.inverse()?;
                design::symmetrize(&mut p);
                let pm = p.dot(&Array1::from(mean.clone()));
                Ok((p.mapv(F::cast), pm.mapv(F::cast)))
            }
        }
    }
}

impl ndlearn_core::Estimator for GaussianPrior {
    /// Checks the prior on its own (lengths against the data are checked at fit).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a variance that is not in `(0, ∞]`, a non-finite mean, a
    /// covariance that is not square, not symmetric, non-finite or not positive definite, or
    /// mean and variance of different lengths.
    fn validate(&self) -> Result<()> {
        let check_var = |v: f64| {
            if v > 0.0 && !v.is_nan() {
                Ok(())
            } else {
                Err(Error::invalid_param(
                    "prior",
                    format!("prior variances must be in (0, inf], got {v}"),
                ))
            }
        };
        let check_mean = |m: &[f64]| {
            if m.iter().all(|v| v.is_finite()) {
                Ok(())
            } else {
                Err(Error::invalid_param(
                    "prior",
                    "the prior mean must be finite",
                ))
            }
        };
        match self {
            Self::Spherical { variance } => check_var(*variance),
            Self::Diagonal { mean, variance } => {
                check_mean(mean)?;
                if mean.len() != variance.len() {
                    return Err(Error::invalid_param(
                        "prior",
                        format!(
                            "mean has {} entries but variance has {}",
                            mean.len(),
                            variance.len()
                        ),
                    ));
                }
                variance.iter().try_for_each(|&v| check_var(v))
            }
            Self::Full { mean, covariance } => {
                check_mean(mean)?;
                let d = mean.len();
                if covariance.len() != d || covariance.iter().any(|r| r.len() != d) {
                    return Err(Error::invalid_param(
                        "prior",
                        format!("the prior covariance must be {d} x {d} (the mean's length)"),
                    ));
                }
                let c = Array2::from_shape_fn((d, d), |(i, j)| covariance[i][j]);
                if !c.iter().all(|v| v.is_finite()) {
                    return Err(Error::invalid_param(
                        "prior",
                        "the prior covariance must be finite",
                    ));
                }
                let scale = c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
                for i in 0..d {
                    for j in 0..i {
                        if (c[[i, j]] - c[[j, i]]).abs() > 1e-12 * scale {
                            return Err(Error::invalid_param(
                                "prior",
                                "the prior covariance must be symmetric",
                            ));
                        }
                    }
                }
                if d > 0 && CholeskyFactor::new(&c).is_err() {
                    return Err(Error::invalid_param(
                        "prior",
                        "the prior covariance must be positive definite",
                    ));
                }
                Ok(())
            }
        }
    }
}

/// Bayesian linear regression with a Gaussian prior and a known noise precision `β`
/// (the course notes' MAP estimate, with the full Gaussian posterior). See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BayesianLinearRegression {
    /// Noise precision `β = 1/σ²` (default 1.0).
    pub beta: f64,
    /// Prior on the weights (default `N(0, I)`).
    pub prior: GaussianPrior,
    /// Fit an intercept with a flat prior (default `true`).
    pub fit_intercept: bool,
}

impl Default for BayesianLinearRegression {
    fn default() -> Self {
        Self {
            beta: 1.0,
            prior: GaussianPrior::default(),
            fit_intercept: true,
        }
    }
}

impl BayesianLinearRegression {
    /// Noise precision `beta` and prior `prior`, with an intercept.
    pub fn new(beta: f64, prior: GaussianPrior) -> Self {
        Self {
            beta,
            prior,
            fit_intercept: true,
        }
    }

    ndlearn_core::setters! {
        /// Sets `beta`.
        beta: f64,
        /// Sets the prior.
        prior: GaussianPrior,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
    }
}

impl ndlearn_core::Estimator for BayesianLinearRegression {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a non-positive or non-finite `beta` or an invalid prior
    /// ([`GaussianPrior::validate`]).
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_positive("beta", self.beta)?;
        self.prior.validate()
    }
}

impl<F: Float> Fit<F> for BayesianLinearRegression {
    type Target = ArrayRef1<F>;
    type Model = FittedBayesianLinearRegression<F>;

    /// The posterior `N(m_N, S_N)` (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        let yv = as_column(y);
        check_xy(x, &yv, 1, "BayesianLinearRegression::fit")?;
        let m = design::column_sums_and_xty(x, &yv, self.fit_intercept)?;
        let (n, d) = x.dim();
        let (prec, prec_mean) = self.prior.precision::<F>(d)?;
        let g = design::gram(x, &m);
        check_gram_finite(&g)?;
        let beta = F::cast(self.beta);
        let a = &prec + &g.mapv(|v| v * beta);
        let rhs = &prec_mean + &m.xty.column(0).mapv(|v| v * beta);
        if !a.iter().chain(rhs.iter()).all(|v| v.is_finite()) {
            return Err(overflow());
        }
        let chol = CholeskyFactor::new(&a).map_err(|e| match e {
            Error::Linalg {
                kind: LinalgErrorKind::NotPositiveDefinite,
                ..
            } => Error::Linalg {
                op: "BayesianLinearRegression::fit",
                kind: LinalgErrorKind::NotPositiveDefinite,
                detail: Some(
                    "the posterior precision Σ₀⁻¹ + βXᵀX is singular: with a flat (infinite \
                     variance) prior X must have full column rank; use a finite prior variance"
                        .into(),
                ),
            },
            other => other,
        })?;
        let mean = chol.solve(&rhs)?;
        let mut cov = chol.inverse()?;
        design::symmetrize(&mut cov);
        Ok(FittedBayesianLinearRegression {
            params: self.clone(),
            lin: LinearCoef::from_solution(&mean.insert_axis(Axis(1)), &m.x_mean, &m.y_mean, false),
            covariance: cov,
            x_mean: m.x_mean,
            n_samples: n,
        })
    }
}

/// A fitted [`BayesianLinearRegression`]: the posterior `N(m_N, S_N)` of the weights.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBayesianLinearRegression<F: Float> {
    params: BayesianLinearRegression,
    pub(crate) lin: LinearCoef<F>,
    covariance: Array2<F>,
    x_mean: Array1<F>,
    n_samples: usize,
}

linear_model_api!(FittedBayesianLinearRegression);

impl<F: Float> FittedBayesianLinearRegression<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &BayesianLinearRegression {
        &self.params
    }

    /// The posterior mean `m_N` (= the MAP estimate = [`coef`](Self::coef)).
    pub fn posterior_mean(&self) -> ndarray::ArrayView1<'_, F> {
        self.lin.coef_row()
    }

    /// The posterior covariance `S_N = (Σ₀⁻¹ + βX_cᵀX_c)⁻¹` of the weights.
    pub fn posterior_covariance(&self) -> &Array2<F> {
        &self.covariance
    }

    /// Number of training rows.
    pub fn n_samples(&self) -> usize {
        self.n_samples
    }

    /// The predictive variance of `y` at each row:
    /// `1/β + (x − x̄)ᵀS_N(x − x̄)`, plus `1/(βN)` with an intercept.
    ///
    /// # Errors
    /// As [`Predict::predict`](ndlearn_core::Predict::predict).
    pub fn predict_var(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        check_predict_input(x, self.n_features(), "predict: number of features")?;
        let mut q = quad_forms(x, &self.x_mean, &self.covariance);
        let beta = F::cast(self.params.beta);
        let mut extra = F::one() / beta;
        if self.params.fit_intercept {
            extra += F::one() / (beta * F::cast(self.n_samples));
        }
        q.mapv_inplace(|v| v + extra);
        Ok(q)
    }

    /// Predictive mean and standard deviation of `y` at each row (see
    /// [`predict_var`](Self::predict_var)).
    ///
    /// # Errors
    /// As [`Predict::predict`](ndlearn_core::Predict::predict).
    pub fn predict_with_std(&self, x: &ArrayRef2<F>) -> Result<(Array1<F>, Array1<F>)> {
        let mean = self.lin.predict(x)?;
        let var = self.predict_var(x)?;
        Ok((mean, var.mapv(|v| v.sqrt())))
    }

    /// `n_draws` samples of the weights from the posterior `N(m_N, S_N)`, one per row
    /// (`m_N + L z` with `S_N = LLᵀ` and `z` standard normal from
    /// `ndlearn_core::random::stream(seed, 0)`). The intercept of a draw `w` is
    /// `ȳ − x̄ᵀw` plus independent `N(0, 1/(βN))` noise.
    ///
    /// # Errors
    /// [`Error::Linalg`] if `S_N` is not numerically positive definite (possible only for a
    /// near-flat prior on nearly collinear data).
    pub fn sample_posterior(&self, n_draws: usize, seed: u64) -> Result<Array2<F>> {
        let d = self.n_features();
        let l = linalg::cholesky(&self.covariance)?;
        let mut rng = random::stream(seed, 0);
        let z = Array2::from_shape_fn((n_draws, d), |_| random::standard_normal::<F>(&mut rng));
        let mut out = z.dot(&l.t());
        out += &self.lin.coef_row();
        Ok(out)
    }
}

// ---------------------------------------------------------------------------------------------
// BayesianRidge

/// Bayesian ridge regression with evidence maximisation of the noise and weight precisions
/// (scikit-learn's `BayesianRidge`). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BayesianRidge {
    /// Maximum number of evidence iterations (default 300).
    pub max_iter: usize,
    /// Stop when `Σ|m − m_old| < tol` (default 1e-3).
    pub tol: f64,
    /// Shape of the Gamma hyperprior on the noise precision `α` (default 1e-6).
    pub alpha_1: f64,
    /// Rate of the Gamma hyperprior on `α` (default 1e-6).
    pub alpha_2: f64,
    /// Shape of the Gamma hyperprior on the weight precision `λ` (default 1e-6).
    pub lambda_1: f64,
    /// Rate of the Gamma hyperprior on `λ` (default 1e-6).
    pub lambda_2: f64,
    /// Initial noise precision (default `None`: `1/(Var(y) + ε)`).
    pub alpha_init: Option<f64>,
    /// Initial weight precision (default `None`: 1).
    pub lambda_init: Option<f64>,
    /// Record the log marginal likelihood at each iteration (default `false`).
    pub compute_score: bool,
    /// Fit an unpenalised intercept by centring (default `true`).
    pub fit_intercept: bool,
}

impl Default for BayesianRidge {
    fn default() -> Self {
        Self {
            max_iter: 300,
            tol: 1e-3,
            alpha_1: 1e-6,
            alpha_2: 1e-6,
            lambda_1: 1e-6,
            lambda_2: 1e-6,
            alpha_init: None,
            lambda_init: None,
            compute_score: false,
            fit_intercept: true,
        }
    }
}

impl BayesianRidge {
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
        /// Sets `alpha_init`.
        alpha_init: Option<f64>,
        /// Sets `lambda_init`.
        lambda_init: Option<f64>,
        /// Sets `compute_score`.
        compute_score: bool,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
    }

    /// Log marginal likelihood (with the hyperprior terms) at `(α, λ)`.
    #[allow(clippy::too_many_arguments)]
    fn log_marginal<F: Float>(
        &self,
        n: usize,
        d: usize,
        eig: &Array1<F>,
        alpha: F,
        lambda: F,
        coef: &Array1<F>,
        sse: F,
    ) -> F {
        let logdet_sigma = -eig.iter().map(|&e| (lambda + alpha * e).ln()).sum::<F>()
            - F::cast(d - eig.len()) * lambda.ln();
        let (a1, a2) = (F::cast(self.alpha_1), F::cast(self.alpha_2));
        let (l1, l2) = (F::cast(self.lambda_1), F::cast(self.lambda_2));
        let nf = F::cast(n);
        let half = F::cast(0.5);
        let two_pi = F::cast(2.0 * std::f64::consts::PI);
        l1 * lambda.ln() - l2 * lambda + a1 * alpha.ln() - a2 * alpha
            + half
                * (F::cast(d) * lambda.ln() + nf * alpha.ln()
                    - alpha * sse
                    - lambda * coef.dot(coef)
                    + logdet_sigma
                    - nf * two_pi.ln())
    }
}

impl ndlearn_core::Estimator for BayesianRidge {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `max_iter = 0`, a negative or non-finite `tol` or Gamma
    /// parameter, or a non-positive / non-finite `alpha_init` or `lambda_init`.
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_non_negative, check_positive};
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        check_non_negative("alpha_1", self.alpha_1)?;
        check_non_negative("alpha_2", self.alpha_2)?;
        check_non_negative("lambda_1", self.lambda_1)?;
        check_non_negative("lambda_2", self.lambda_2)?;
        if let Some(a) = self.alpha_init {
            check_positive("alpha_init", a)?;
        }
        if let Some(l) = self.lambda_init {
            check_positive("lambda_init", l)?;
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for BayesianRidge {
    type Target = ArrayRef1<F>;
    type Model = FittedBayesianRidge<F>;

    /// Evidence maximisation (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        check_xy(x, &as_column(y), 1, "BayesianRidge::fit")?;
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
        let svd = linalg::svd_thin(&xc)?;
        let k = svd.s.len();
        let eig = svd.s.mapv(|v| v * v);
        if !eig.iter().all(|v| v.is_finite()) {
            return Err(overflow());
        }
        let uty = svd.u.slice(s![.., ..k]).t().dot(&yc);
        let vt = svd.vt.slice(s![..k, ..]).to_owned();

        let mut alpha = match self.alpha_init {
            Some(a) => F::cast(a),
            None => F::one() / (y_var + F::cast(f64::EPSILON)),
        };
        let mut lambda = F::cast(self.lambda_init.unwrap_or(1.0));
        let (a1, a2) = (F::cast(self.alpha_1), F::cast(self.alpha_2));
        let (l1, l2) = (F::cast(self.lambda_1), F::cast(self.lambda_2));
        let two = F::cast(2.0);
        let tol = F::cast(self.tol);

        let posterior_mean = |alpha: F, lambda: F| -> (Array1<F>, F) {
            let r = lambda / alpha;
            let z: Array1<F> = (0..k).map(|i| svd.s[i] / (eig[i] + r) * uty[i]).collect();
            let coef = vt.t().dot(&z);
            let resid = &yc - &xc.dot(&coef);
            (coef, resid.dot(&resid))
        };

        let mut scores = Vec::new();
        let mut coef_old: Option<Array1<F>> = None;
        let mut last_coef: Option<Array1<F>> = None;
        let mut n_iter = self.max_iter;
        let mut converged = false;
        for it in 0..self.max_iter {
            let (coef, sse) = posterior_mean(alpha, lambda);
            if self.compute_score {
                scores.push(self.log_marginal(n, d, &eig, alpha, lambda, &coef, sse));
            }
            let gamma: F = eig.iter().map(|&e| alpha * e / (lambda + alpha * e)).sum();
            lambda = (gamma + two * l1) / (coef.dot(&coef) + two * l2);
            alpha = (nf - gamma + two * a1) / (sse + two * a2);
            let change = coef_old
                .as_ref()
                .map(|old| (old - &coef).mapv(|v| v.abs()).sum());
            let stop = report_stop(it, self.max_iter, change);
            let done = change.is_some_and(|c| c < tol);
            last_coef = Some(coef.clone());
            if stop || done {
                n_iter = it + 1;
                converged = done;
                break;
            }
            coef_old = Some(coef);
        }
        if !(alpha.is_finite() && lambda.is_finite()) {
            return Err(Error::Linalg {
                op: "BayesianRidge::fit",
                kind: LinalgErrorKind::Singular,
                detail: Some(
                    "the evidence updates produced a non-finite precision (a perfect fit with \
                     alpha_2 = 0, or all-zero coefficients with lambda_2 = 0)"
                        .into(),
                ),
            });
        }
        let (coef, sse) = posterior_mean(alpha, lambda);
        if self.compute_score {
            // As scikit-learn: the final score takes ‖m‖² from the last iteration's mean
            // (before the final recomputation) with the final sse.
            let last = last_coef.as_ref().unwrap_or(&coef);
            scores.push(self.log_marginal(n, d, &eig, alpha, lambda, last, sse));
        }
        // Σ = V diag(1/(αe + λ)) Vᵀ, plus (I − VVᵀ)/λ on the null space when k < d.
        let inv_l = F::one() / lambda;
        let w: Array1<F> = eig
            .iter()
            .map(|&e| {
                let full = F::one() / (alpha * e + lambda);
                if k < d { full - inv_l } else { full }
            })
            .collect();
        let mut sigma = vt.t().dot(&(&vt * &w.insert_axis(Axis(1))));
        if k < d {
            for i in 0..d {
                sigma[[i, i]] += inv_l;
            }
        }
        design::symmetrize(&mut sigma);
        Ok(FittedBayesianRidge {
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
            x_mean,
            scores,
            n_iter,
            converged,
        })
    }
}

/// A fitted [`BayesianRidge`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBayesianRidge<F: Float> {
    params: BayesianRidge,
    pub(crate) lin: LinearCoef<F>,
    alpha: F,
    lambda: F,
    sigma: Array2<F>,
    x_mean: Array1<F>,
    scores: Vec<F>,
    n_iter: usize,
    converged: bool,
}

linear_model_api!(FittedBayesianRidge);

impl<F: Float> FittedBayesianRidge<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &BayesianRidge {
        &self.params
    }
    /// Estimated noise precision (scikit-learn's `alpha_`).
    pub fn alpha(&self) -> F {
        self.alpha
    }
    /// Estimated weight precision (scikit-learn's `lambda_`).
    pub fn lambda(&self) -> F {
        self.lambda
    }
    /// Posterior covariance of the weights (scikit-learn's `sigma_`), `D × D`.
    pub fn sigma(&self) -> &Array2<F> {
        &self.sigma
    }
    /// Log marginal likelihood before each update and at the end (scikit-learn's `scores_`;
    /// empty unless `compute_score`).
    pub fn scores(&self) -> &[F] {
        &self.scores
    }
    /// Iterations run (scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the coefficient change fell below `tol` before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }

    /// Predictive mean and standard deviation `√((x − x̄)ᵀΣ(x − x̄) + 1/α)` (scikit-learn's
    /// `predict(X, return_std=True)`).
    ///
    /// # Errors
    /// As [`Predict::predict`](ndlearn_core::Predict::predict).
    pub fn predict_with_std(&self, x: &ArrayRef2<F>) -> Result<(Array1<F>, Array1<F>)> {
        let mean = self.lin.predict(x)?;
        let noise = F::one() / self.alpha;
        let std = quad_forms(x, &self.x_mean, &self.sigma).mapv(|v| (v + noise).sqrt());
        Ok((mean, std))
    }
}

// ---------------------------------------------------------------------------------------------
// Helpers

/// `(xᵢ − x̄)ᵀ S (xᵢ − x̄)` per row.
fn quad_forms<F: Float>(x: &ArrayRef2<F>, x_mean: &Array1<F>, s: &Array2<F>) -> Array1<F> {
    let xc = design::centred_copy(x, x_mean);
    let t = xc.dot(s);
    (&t * &xc).sum_axis(Axis(1))
}

fn overflow() -> Error {
    Error::NonFinite {
        context: "X'X or y (the data overflow the floating-point range; rescale them)",
        row: 0,
        col: 0,
    }
}

fn check_gram_finite<F: Float>(g: &Array2<F>) -> Result<()> {
    if g.iter().all(|v| v.is_finite()) {
        Ok(())
    } else {
        Err(overflow())
    }
}

/// Reports one evidence iteration to the installed observer; `true` when it asks to stop.
fn report_stop<F: Float>(it: usize, max_iter: usize, change: Option<F>) -> bool {
    if !ndlearn_core::observe::is_observed() {
        return false;
    }
    let mut p = ndlearn_core::observe::Progress::new("bayesian ridge", it + 1).max_iter(max_iter);
    if let Some(c) = change {
        p = p.criterion(c.to_f64_lossless());
    }
    ndlearn_core::observe::report(&p).is_stop()
}

impl<F: Float> CheckModel for FittedBayesianLinearRegression<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBayesianLinearRegression");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        let d = self.lin.n_features();
        c.len("n_targets", self.lin.coef.nrows(), 1)?;
        c.that(self.params.prior.len().is_none_or(|l| l == d), || {
            format!("the prior is not for {d} features")
        })?;
        c.shape("covariance", self.covariance.dim(), (d, d))?;
        c.finite("covariance", &self.covariance)?;
        c.len("x_mean", self.x_mean.len(), d)?;
        c.finite("x_mean", &self.x_mean)?;
        c.at_least("n_samples", self.n_samples, 1)
    }
}

impl<F: Float> CheckModel for FittedBayesianRidge<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBayesianRidge");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        let d = self.lin.n_features();
        c.len("n_targets", self.lin.coef.nrows(), 1)?;
        c.positive("alpha", self.alpha)?;
        c.positive("lambda", self.lambda)?;
        c.shape("sigma", self.sigma.dim(), (d, d))?;
        c.finite("sigma", &self.sigma)?;
        c.len("x_mean", self.x_mean.len(), d)?;
        c.finite("x_mean", &self.x_mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{LinearRegression, Ridge};
    use ndarray::array;
    use ndlearn_core::Predict;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = problem();
        let mut fit = BayesianLinearRegression::default()
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.covariance = Array2::zeros((2, 2));
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = BayesianRidge::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.alpha = -1.0;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn problem() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.0],
            [2.0, -1.0, 0.0],
            [3.0, 2.0, 1.0],
            [4.0, 0.0, -2.0],
            [5.0, 1.5, 0.5],
            [6.0, -0.5, 1.5],
            [7.0, 1.0, -0.5],
            [8.0, 2.5, 2.0]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5];
        (x, y)
    }

    fn max_abs(a: &ArrayRef1<f64>, b: &ArrayRef1<f64>) -> f64 {
        a.iter()
            .zip(b.iter())
            .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()))
    }

    fn max_abs2(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
        a.iter()
            .zip(b.iter())
            .fold(0.0f64, |m, (u, v)| m.max((u - v).abs()))
    }

    #[test]
    fn one_dimensional_hand_example() {
        // x = (1, 2), y = (1, 3), β = 2, prior N(0.5, 0.25): precision 4.
        // S_N⁻¹ = 4 + 2·5 = 14, m_N = (4·0.5 + 2·7)/14 = 16/14.
        let x: Array2<f64> = array![[1.0], [2.0]];
        let y: Array1<f64> = array![1.0, 3.0];
        let fit = BayesianLinearRegression::new(
            2.0,
            GaussianPrior::Diagonal {
                mean: vec![0.5],
                variance: vec![0.25],
            },
        )
        .fit_intercept(false)
        .fit(&x, &y)
        .expect("fit");
        assert!((fit.coef()[0] - 16.0 / 14.0).abs() < 1e-15);
        assert!((fit.posterior_covariance()[[0, 0]] - 1.0 / 14.0).abs() < 1e-16);
        assert_eq!(fit.intercept(), 0.0);
        // Predictive variance at x = 3: 1/β + 9/14.
        let var = fit.predict_var(&array![[3.0]]).expect("var");
        assert!((var[0] - (0.5 + 9.0 / 14.0)).abs() < 1e-15);
        // Same through the Full prior.
        let full =
            BayesianLinearRegression::new(2.0, GaussianPrior::full(&array![0.5], &array![[0.25]]))
                .fit_intercept(false)
                .fit(&x, &y)
                .expect("fit");
        assert!((full.coef()[0] - 16.0 / 14.0).abs() < 1e-15);
    }

    #[test]
    fn spherical_prior_is_ridge_with_alpha_one_over_beta_c() {
        let (x, y) = problem();
        for (beta, c) in [(1.0, 1.0), (4.0, 0.5), (0.3, 10.0)] {
            for fit_intercept in [true, false] {
                let blr =
                    BayesianLinearRegression::new(beta, GaussianPrior::Spherical { variance: c })
                        .fit_intercept(fit_intercept)
                        .fit(&x, &y)
                        .expect("fit");
                let ridge = Ridge::new(1.0 / (beta * c))
                    .fit_intercept(fit_intercept)
                    .fit(&x, &y)
                    .expect("fit");
                assert!(max_abs(&blr.coef().to_owned(), &ridge.coef()) < 1e-12);
                assert!((blr.intercept() - ridge.intercept()).abs() < 1e-12);
                let p1 = blr.predict(&x).expect("predict");
                let p2 = ridge.predict(&x).expect("predict");
                assert!(max_abs(&p1, &p2) < 1e-11);
            }
        }
    }

    #[test]
    fn broad_prior_is_least_squares() {
        let (x, y) = problem();
        let ols = LinearRegression::default().fit(&x, &y).expect("fit");
        let flat = BayesianLinearRegression::new(
            1.0,
            GaussianPrior::Spherical {
                variance: f64::INFINITY,
            },
        )
        .fit(&x, &y)
        .expect("fit");
        assert!(max_abs(&flat.coef().to_owned(), &ols.coef()) < 1e-12);
        assert!((flat.intercept() - ols.intercept()).abs() < 1e-12);
        // Finite but huge variances converge to it.
        let mut prev = f64::INFINITY;
        for c in [1e2, 1e4, 1e6, 1e8] {
            let fit = BayesianLinearRegression::new(1.0, GaussianPrior::Spherical { variance: c })
                .fit(&x, &y)
                .expect("fit");
            let err = max_abs(&fit.coef().to_owned(), &ols.coef());
            assert!(err < prev, "c = {c}: {err} vs {prev}");
            prev = err;
        }
        assert!(prev < 1e-8);
        // Posterior covariance with a flat prior: (X_cᵀX_c)⁻¹/β.
        let xc = &x - &x.mean_axis(Axis(0)).expect("rows");
        let inv = linalg::inv(&xc.t().dot(&xc)).expect("inv");
        let diff = (&inv - flat.posterior_covariance())
            .iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(diff < 1e-12);
        // Flat prior on rank-deficient data: a typed error.
        let xd = ndarray::concatenate![Axis(1), x, x.column(0).insert_axis(Axis(1))];
        assert!(matches!(
            BayesianLinearRegression::new(
                1.0,
                GaussianPrior::Spherical {
                    variance: f64::INFINITY
                }
            )
            .fit(&xd, &y),
            Err(Error::Linalg { .. })
        ));
    }

    #[test]
    fn intercept_is_a_flat_prior_coordinate() {
        // fit_intercept = true equals an explicit ones column with an (almost) flat prior on it.
        let (x, y) = problem();
        let mean = vec![0.3, -0.2, 0.1];
        let cov = array![[2.0, 0.3, 0.0], [0.3, 1.0, -0.2], [0.0, -0.2, 0.5]];
        let beta = 3.0;
        let fit = BayesianLinearRegression::new(
            beta,
            GaussianPrior::full(&Array1::from(mean.clone()), &cov),
        )
        .fit(&x, &y)
        .expect("fit");
        let xa = ndarray::concatenate![Axis(1), Array2::ones((8, 1)), x];
        let mut cova = Array2::zeros((4, 4));
        cova[[0, 0]] = 1e14;
        cova.slice_mut(s![1.., 1..]).assign(&cov);
        let mut meana = vec![0.0];
        meana.extend(&mean);
        let aug =
            BayesianLinearRegression::new(beta, GaussianPrior::full(&Array1::from(meana), &cova))
                .fit_intercept(false)
                .fit(&xa, &y)
                .expect("fit");
        assert!((aug.coef()[0] - fit.intercept()).abs() < 1e-8);
        assert!(max_abs(&aug.coef().slice(s![1..]).to_owned(), &fit.coef()) < 1e-8);
        let xn = array![[0.5, 1.0, -1.0], [9.0, -2.0, 3.0]];
        let xna = ndarray::concatenate![Axis(1), Array2::ones((2, 1)), xn];
        let v1 = fit.predict_var(&xn).expect("var");
        let v2 = aug.predict_var(&xna).expect("var");
        assert!(max_abs(&v1, &v2) < 1e-8 * v1[0].max(v1[1]));
    }

    #[test]
    fn posterior_samples_have_the_posterior_moments() {
        let (x, y) = problem();
        let fit = BayesianLinearRegression::new(2.0, GaussianPrior::Spherical { variance: 0.5 })
            .fit(&x, &y)
            .expect("fit");
        let draws = fit.sample_posterior(20_000, 3).expect("draws");
        assert_eq!(draws.dim(), (20_000, 3));
        let mean = draws.mean_axis(Axis(0)).expect("rows");
        let cov = fit.posterior_covariance();
        for j in 0..3 {
            let se = (cov[[j, j]] / 20_000.0).sqrt();
            assert!((mean[j] - fit.coef()[j]).abs() < 5.0 * se, "mean {j}");
        }
        let dc = &draws - &mean;
        let emp = dc.t().dot(&dc) / 19_999.0;
        for i in 0..3 {
            for j in 0..3 {
                let tol = 0.05 * (cov[[i, i]] * cov[[j, j]]).sqrt();
                assert!((emp[[i, j]] - cov[[i, j]]).abs() < tol, "cov {i}{j}");
            }
        }
        assert_eq!(draws, fit.sample_posterior(20_000, 3).expect("draws"));
    }

    #[test]
    fn invalid_hyperparameters_and_priors() {
        let (x, y) = problem();
        let bad = [
            BayesianLinearRegression::default().beta(0.0),
            BayesianLinearRegression::default().beta(f64::NAN),
            BayesianLinearRegression::default().prior(GaussianPrior::Spherical { variance: 0.0 }),
            BayesianLinearRegression::default().prior(GaussianPrior::Diagonal {
                mean: vec![0.0; 3],
                variance: vec![1.0, -1.0, 1.0],
            }),
            BayesianLinearRegression::default().prior(GaussianPrior::Diagonal {
                mean: vec![0.0; 2],
                variance: vec![1.0; 3],
            }),
            BayesianLinearRegression::default().prior(GaussianPrior::Full {
                mean: vec![0.0; 2],
                covariance: vec![vec![1.0, 2.0], vec![2.0, 1.0]],
            }),
            BayesianLinearRegression::default().prior(GaussianPrior::Full {
                mean: vec![0.0; 2],
                covariance: vec![vec![1.0, 0.5], vec![0.0, 1.0]],
            }),
        ];
        for b in bad {
            assert!(
                matches!(b.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{b:?}"
            );
        }
        // Prior of the wrong length for the data.
        let wrong = BayesianLinearRegression::default().prior(GaussianPrior::Diagonal {
            mean: vec![0.0; 2],
            variance: vec![1.0; 2],
        });
        assert!(matches!(
            wrong.fit(&x, &y),
            Err(Error::ShapeMismatch { .. })
        ));
        for b in [
            BayesianRidge::default().max_iter(0),
            BayesianRidge::default().tol(-1.0),
            BayesianRidge::default().alpha_1(-1e-6),
            BayesianRidge::default().alpha_2(f64::NAN),
            BayesianRidge::default().lambda_1(-1.0),
            BayesianRidge::default().lambda_2(f64::INFINITY),
            BayesianRidge::default().alpha_init(Some(0.0)),
            BayesianRidge::default().lambda_init(Some(-2.0)),
        ] {
            assert!(
                matches!(b.fit(&x, &y), Err(Error::InvalidParam { .. })),
                "{b:?}"
            );
        }
    }

    #[test]
    fn bayesian_ridge_fixed_point_and_evidence() {
        let (x, y) = problem();
        let fit = BayesianRidge::default()
            .compute_score(true)
            .tol(1e-12)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.converged());
        // At the fixed point the mean is the ridge solution with alpha = λ/α.
        let ridge = Ridge::new(fit.lambda() / fit.alpha())
            .fit(&x, &y)
            .expect("fit");
        assert!(max_abs(&fit.coef().to_owned(), &ridge.coef()) < 1e-9);
        // sigma = (λI + αX_cᵀX_c)⁻¹.
        let xc = &x - &x.mean_axis(Axis(0)).expect("rows");
        let a = xc.t().dot(&xc).mapv(|v| v * fit.alpha()) + Array2::<f64>::eye(3) * fit.lambda();
        let inv = linalg::inv(&a).expect("inv");
        let diff = max_abs2(&inv, fit.sigma());
        assert!(diff < 1e-10 * inv.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        // MacKay's updates increase the evidence (EM-like): scores non-decreasing.
        let sc = fit.scores();
        assert_eq!(sc.len(), fit.n_iter() + 1);
        assert!(sc.windows(2).all(|w| w[1] >= w[0] - 1e-9 * w[0].abs()));
        // The BayesianRidge posterior is BayesianLinearRegression's with β = α, c = 1/λ.
        let blr = BayesianLinearRegression::new(
            fit.alpha(),
            GaussianPrior::Spherical {
                variance: 1.0 / fit.lambda(),
            },
        )
        .fit(&x, &y)
        .expect("fit");
        assert!(max_abs(&blr.coef().to_owned(), &fit.coef()) < 1e-9);
    }

    #[test]
    fn bayesian_ridge_wide_and_f32() {
        // D > N: the null-space part of sigma is I/λ.
        let x = array![
            [1.0, 2.0, 0.5, -1.0],
            [0.0, 1.0, 1.5, 2.0],
            [3.0, -1.0, 0.0, 1.0]
        ];
        let y = array![1.0, 2.0, 0.5];
        let fit = BayesianRidge::default().fit(&x, &y).expect("fit");
        let xc = &x - &x.mean_axis(Axis(0)).expect("rows");
        let a = xc.t().dot(&xc).mapv(|v| v * fit.alpha()) + Array2::<f64>::eye(4) * fit.lambda();
        let inv = linalg::inv(&a).expect("inv");
        let diff = max_abs2(&inv, fit.sigma());
        assert!(diff < 1e-9 * inv.iter().fold(0.0f64, |m, v| m.max(v.abs())));
        let (x, y) = problem();
        let f64fit = BayesianRidge::default().fit(&x, &y).expect("fit");
        let f32fit = BayesianRidge::default()
            .fit(&x.mapv(|v| v as f32), &y.mapv(|v| v as f32))
            .expect("fit");
        for j in 0..3 {
            let a = f64::from(f32fit.coef()[j]);
            assert!((a - f64fit.coef()[j]).abs() < 1e-3 * (1.0 + f64fit.coef()[j].abs()));
        }
    }

    #[test]
    fn constant_target_and_one_row() {
        let (x, _) = problem();
        let y = Array1::from_elem(8, 2.5);
        let fit = BayesianRidge::default().fit(&x, &y).expect("fit");
        let p = fit.predict(&x).expect("predict");
        assert!(p.iter().all(|v| (v - 2.5).abs() < 1e-6));
        let one = BayesianLinearRegression::default()
            .fit(&x.slice(s![..1, ..]), &array![1.0])
            .expect("fit");
        assert_eq!(one.predict(&x.slice(s![..1, ..])).expect("p")[0], 1.0);
    }
}
