//! Huber regression: least squares for small residuals, least absolute deviations for large
//! ones ([`HuberRegressor`], the course notes' loss [`huber_loss`]).
//!
//! # The course notes' loss
//!
//! The course notes parametrise the Huber loss by `λ, μ > 0`:
//!
//! ```text
//! h_{λ,μ}(z) = μ z²                  if |z| < λ/(2μ)
//!            = λ (|z| − λ/(4μ))      if |z| ≥ λ/(2μ)
//! ```
//!
//! quadratic near 0, linear (slope `λ`) beyond the threshold `λ/(2μ)`, continuous with a
//! continuous derivative (both branches equal `λ²/(4μ)` with slope `λ` at the threshold).
//! Worked example (catalog L-07): `λ = 2, μ = ½` gives the threshold 2 and `h(2) = 2` on both
//! branches. [`huber_loss`] and [`huber_loss_derivative`] evaluate it.
//!
//! # scikit-learn's objective (the default, [`HuberLoss::Joint`])
//!
//! `HuberRegressor` estimates the scale `σ` of the residuals jointly with `w` and `b`
//! (Owen's concomitant scale, the "Huber's proposal 2" form), so the threshold adapts to the
//! data and `ε` is scale-free:
//!
//! ```text
//! min_{w, b, σ > 0}  Σᵢ ( σ + H_ε(rᵢ/σ) σ ) + α ‖w‖²,     rᵢ = yᵢ − xᵢᵀw − b,
//! H_ε(z) = z²             if |z| ≤ ε
//!        = 2ε|z| − ε²     otherwise
//! ```
//!
//! This is jointly convex in `(w, b, σ)` (`σ H(r/σ)` is the perspective of a convex function).
//! The intercept is not penalised. A sample is an **outlier** when `|rᵢ| > ε σ`
//! ([`FittedHuberRegressor::outliers`], scikit-learn's `outliers_`).
//!
//! # The mapping between `(λ, μ)` and `(ε, σ)`
//!
//! For a fixed `σ`, `σ H_ε(z/σ) = z²/σ` below `εσ` and `2ε|z| − ε²σ` above, which is
//! `h_{λ,μ}(z)` with
//!
//! ```text
//! λ = 2ε,  μ = 1/σ        ⇔        ε = λ/2,  σ = 1/μ       (threshold λ/(2μ) = εσ).
//! ```
//!
//! [`HuberLoss::Notes`] fits the course notes' fixed-scale problem
//! `min_{w,b} Σᵢ h_{λ,μ}(rᵢ) + α‖w‖²`, i.e. scikit-learn's objective with `σ = 1/μ` held fixed
//! and `ε = λ/2` (the constant `nσ` dropped); then [`HuberRegressor::epsilon`] is ignored,
//! [`FittedHuberRegressor::scale`] returns `1/μ` and the outliers are the residuals with
//! `|rᵢ| > λ/(2μ)`.
//!
//! # Solver
//!
//! scikit-learn runs L-BFGS-B over `(w, b, σ)` from `w = 0, b = 0, σ = 1` with the bound
//! `σ ≥ 10ε_mach`. The core L-BFGS (`ndlearn_core::optim::lbfgs`) has no bounds, so here `σ` is
//! **profiled out** instead: for fixed `(w, b)` the objective is convex in `σ`, with derivative
//! `N − ε² n_out(σ) − Σ_{inliers} rᵢ²/σ²`; on each piece of `σ` with a fixed inlier set (the
//! `m` smallest `|rᵢ|`) its root is `σ² = Σ_{inliers} rᵢ² / (N − ε²(N − m))`, so the exact
//! minimiser `σ*(w, b) > 0` is found by one sort of the residuals (`O(N log N)`). L-BFGS then
//! minimises the profiled objective `P(w, b) = L(w, b, σ*(w, b))` from `w = 0, b = 0`. `P` is
//! convex (a partial minimum of a jointly convex function) and differentiable with
//! `∇P = ∂_{(w,b)} L` at `σ*` (Danskin's theorem), so its minimiser together with `σ*` is the
//! minimiser of the joint problem, `σ > 0` holds at every iterate without a bound, and the
//! search runs in the well-scaled `(w, b)` space only. (The optimum has `σ → 0` only when a
//! hyperplane fits all but a few points exactly, `N > ε² n_out`; then `σ*` is floored at the
//! smallest positive float where scikit-learn stops at its bound, and the coefficients agree.)
//!
//! Stopping: `‖∇P‖₂ ≤ tol` (scikit-learn: the largest projected-gradient entry over
//! `(w, b, σ)` `≤ tol`; the `σ` entry is 0 here), or a relative objective change
//! `≤ min(tol², 10⁷ ε_mach)` (`10⁷ε ≈ 2.2·10⁻⁹` is scipy's default `factr`; with the default
//! `tol = 10⁻⁵` the test is `10⁻¹⁰`, a little tighter than scipy's, and a small `tol` asks for
//! a tight optimum), or `max_iter` iterations (then `converged() == false`). The iteration
//! counts therefore differ from scikit-learn's `n_iter_`. The fixed-scale problem
//! ([`HuberLoss::Notes`]) is solved by the same L-BFGS with `σ = 1/μ` held fixed.
//!
//! # Complexity
//!
//! `O(N D + N log N)` per objective/gradient evaluation (one product `Xw`, one `Xᵀg`, one sort
//! of the residuals for `σ*`), a few evaluations
//! per iteration, at most `max_iter` iterations; memory `O(N + 10 D)`.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `epsilon` | 1.35 | `epsilon` | finite, ≥ 1 |
//! | `alpha` | 1e-4 | `alpha` | finite, ≥ 0 |
//! | `max_iter` | 100 | `max_iter` | ≥ 1 |
//! | `tol` | 1e-5 | `tol` | finite, ≥ 0 |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `loss` | [`HuberLoss::Joint`] | — (scikit-learn has only the joint form) | `Notes`: `λ, μ` finite, > 0 |
//!
//! (`warm_start` and `sample_weight` are not offered.)
//!
//! # Errors
//!
//! [`Error::InvalidParam`] for invalid hyperparameters; shape, empty-input and
//! [`Error::NonFinite`] errors from the input checks; [`Error::NonFinite`] when the objective
//! overflows (data around `1e300`: rescale). Non-convergence is
//! [`FittedHuberRegressor::converged`], not an error.
//!
//! # References
//!
//! - Course notes: Huber loss, robust regression; catalog L-07 (CL-078). P. J. Huber, "Robust
//!   estimation of a location parameter", Annals of Mathematical Statistics 35(1), 1964.
//! - P. J. Huber, *Robust Statistics*, Wiley 1981 (proposal 2, joint scale).
//! - A. B. Owen, "A robust hybrid of lasso and ridge regression", Contemporary Mathematics 443,
//!   2007 (the concomitant-scale objective scikit-learn minimises).
//!
//! ```
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//! use ndlearn_linear::HuberRegressor;
//!
//! // y = 2x + 1 with one gross outlier: Huber ignores it, least squares would not.
//! let x = array![[0.0_f64], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0]];
//! let y = array![1.05, 2.95, 5.02, 7.01, 8.97, 11.03, 12.99, 40.0];
//! let fit = HuberRegressor::default().alpha(0.0).fit(&x, &y)?;
//! assert!((fit.coef()[0] - 2.0).abs() < 0.05 && (fit.intercept() - 1.0).abs() < 0.1);
//! assert!(fit.outliers()[7]);                      // |r₇| > εσ
//! let pred = fit.predict(&array![[10.0]])?;
//! assert!((pred[0] - 21.0).abs() < 0.5);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, ArrayRef1, ArrayRef2, s};
use ndlearn_core::Estimator;
use ndlearn_core::optim::{self, LbfgsOptions, Objective, StopCriteria};
use ndlearn_core::validate::check_regression_input;
use ndlearn_core::{Error, Fit, Float, Result};

use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// The course notes' Huber loss `h_{λ,μ}(z)`: `μz²` for `|z| < λ/(2μ)`, else `λ(|z| − λ/(4μ))`
/// (see the [module docs](self)).
///
/// ```
/// use ndlearn_linear::huber::huber_loss;
/// // λ = 2, μ = ½: threshold 2, h(2) = 2 on both branches.
/// assert_eq!(huber_loss(2.0, 2.0, 0.5), 2.0);
/// assert_eq!(huber_loss(1.0, 2.0, 0.5), 0.5);  // μ z²
/// assert_eq!(huber_loss(-4.0, 2.0, 0.5), 6.0); // λ(|z| − λ/(4μ)) = 2(4 − 1)
/// ```
pub fn huber_loss<F: Float>(z: F, lambda: F, mu: F) -> F {
    let a = z.abs();
    if a >= lambda / (mu + mu) {
        lambda * (a - lambda / (F::cast(4.0) * mu))
    } else {
        mu * z * z
    }
}

/// `h'_{λ,μ}(z)`: `2μz` for `|z| < λ/(2μ)`, else `λ·sign(z)` (continuous at the threshold).
pub fn huber_loss_derivative<F: Float>(z: F, lambda: F, mu: F) -> F {
    if z.abs() >= lambda / (mu + mu) {
        if z < F::zero() { -lambda } else { lambda }
    } else {
        F::cast(2.0) * mu * z
    }
}

/// Which Huber objective [`HuberRegressor`] minimises (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum HuberLoss {
    /// scikit-learn's objective: scale `σ` estimated jointly, threshold `εσ`.
    #[default]
    Joint,
    /// The course notes' `h_{λ,μ}` with a fixed scale: `Σ h_{λ,μ}(rᵢ) + α‖w‖²`
    /// (= the joint objective with `σ = 1/μ`, `ε = λ/2`).
    Notes {
        /// Slope `λ > 0` of the linear branch.
        lambda: f64,
        /// Curvature `μ > 0` of the quadratic branch.
        mu: f64,
    },
}

/// Huber regression (scikit-learn's `HuberRegressor`). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct HuberRegressor {
    /// Outlier threshold `ε ≥ 1` in units of the scale `σ` (default 1.35; ignored by
    /// [`HuberLoss::Notes`]).
    pub epsilon: f64,
    /// L2 penalty `α ≥ 0` on `w` (default 1e-4).
    pub alpha: f64,
    /// Maximum L-BFGS iterations (default 100).
    pub max_iter: usize,
    /// Gradient-norm tolerance (default 1e-5).
    pub tol: f64,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// The objective (default [`HuberLoss::Joint`], scikit-learn's).
    pub loss: HuberLoss,
}

impl Default for HuberRegressor {
    fn default() -> Self {
        Self {
            epsilon: 1.35,
            alpha: 1e-4,
            max_iter: 100,
            tol: 1e-5,
            fit_intercept: true,
            loss: HuberLoss::Joint,
        }
    }
}

impl HuberRegressor {
    /// Huber regression with threshold `epsilon`, other settings default.
    pub fn new(epsilon: f64) -> Self {
        Self {
            epsilon,
            ..Self::default()
        }
    }
    /// The course notes' fixed-scale Huber regression `Σ h_{λ,μ}(rᵢ) + α‖w‖²` with `α = 0`.
    pub fn notes(lambda: f64, mu: f64) -> Self {
        Self {
            alpha: 0.0,
            loss: HuberLoss::Notes { lambda, mu },
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `epsilon`.
        epsilon: f64,
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `max_iter`.
        max_iter: usize,
        /// Sets `tol`.
        tol: f64,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets the objective.
        loss: HuberLoss,
    }

    /// `(ε, fixed σ)` of the objective: `(epsilon, None)` or `(λ/2, Some(1/μ))`.
    fn eps_scale(&self) -> (f64, Option<f64>) {
        match self.loss {
            HuberLoss::Joint => (self.epsilon, None),
            HuberLoss::Notes { lambda, mu } => (lambda / 2.0, Some(1.0 / mu)),
        }
    }
}

impl ndlearn_core::Estimator for HuberRegressor {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field: `epsilon < 1` or not finite, `alpha < 0`,
    /// `max_iter = 0`, `tol < 0`, a non-positive `lambda` or `mu`.
    fn validate(&self) -> Result<()> {
        use ndlearn_core::validate::{check_at_least, check_non_negative, check_positive};
        if !(self.epsilon.is_finite() && self.epsilon >= 1.0) {
            return Err(Error::invalid_param(
                "epsilon",
                format!("must be finite and >= 1, got {}", self.epsilon),
            ));
        }
        check_non_negative("alpha", self.alpha)?;
        check_at_least("max_iter", self.max_iter, 1)?;
        check_non_negative("tol", self.tol)?;
        if let HuberLoss::Notes { lambda, mu } = self.loss {
            check_positive("lambda", lambda)?;
            check_positive("mu", mu)?;
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for HuberRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedHuberRegressor<F>;

    /// Fits the model (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedHuberRegressor<F>> {
        self.validate()?;
        check_regression_input(x, y, 1, "HuberRegressor::fit")?;
        let d = x.ncols();
        let (eps, fixed) = self.eps_scale();
        let obj = HuberObjective {
            x,
            y,
            eps: F::cast(eps),
            alpha: F::cast(self.alpha),
            fit_intercept: self.fit_intercept,
            fixed_scale: fixed.map(F::cast),
        };
        // w = 0, b = 0 (σ follows from the residuals).
        let theta0 = Array1::zeros(obj.dim());
        let stop = StopCriteria::default()
            .max_iter(self.max_iter)
            .g_tol(self.tol)
            .f_tol((self.tol * self.tol).min(1e7 * f64::EPSILON))
            .x_tol(0.0);
        let res = optim::lbfgs(&obj, &theta0, &LbfgsOptions::default().stop(stop))?;
        let theta = res.x;
        if !theta.iter().all(|v| v.is_finite()) || !res.value.is_finite() {
            return Err(Error::NonFinite {
                context: "Huber objective (rescale the data)",
                row: 0,
                col: 0,
            });
        }
        let coef = theta.slice(s![..d]).to_owned();
        let intercept = if self.fit_intercept {
            theta[d]
        } else {
            F::zero()
        };
        let resid = obj.residuals(&theta);
        let scale = obj.sigma(&resid);
        let cut = obj.eps * scale;
        let outliers = resid.iter().map(|r| r.abs() > cut).collect();
        let n_outliers = resid.iter().filter(|r| r.abs() > cut).count();
        let lin = LinearCoef {
            coef: coef.insert_axis(ndarray::Axis(0)),
            intercept: Array1::from_elem(1, intercept),
            multi_output: false,
        };
        Ok(FittedHuberRegressor {
            params: *self,
            lin,
            scale,
            outliers,
            n_outliers,
            objective: res.value,
            n_iter: res.n_iter,
            converged: res.converged,
        })
    }
}

/// A fitted [`HuberRegressor`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedHuberRegressor<F: Float> {
    params: HuberRegressor,
    pub(crate) lin: LinearCoef<F>,
    scale: F,
    outliers: Vec<bool>,
    n_outliers: usize,
    objective: F,
    n_iter: usize,
    converged: bool,
}

linear_model_api!(FittedHuberRegressor);

impl<F: Float> FittedHuberRegressor<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &HuberRegressor {
        &self.params
    }
    /// The scale `σ` (scikit-learn's `scale_`; `1/μ` for [`HuberLoss::Notes`]).
    pub fn scale(&self) -> F {
        self.scale
    }
    /// One flag per training sample: `|rᵢ| > εσ` (scikit-learn's `outliers_`; `|rᵢ| > λ/(2μ)`
    /// for [`HuberLoss::Notes`]).
    pub fn outliers(&self) -> &[bool] {
        &self.outliers
    }
    /// Number of training samples flagged as outliers.
    pub fn n_outliers(&self) -> usize {
        self.n_outliers
    }
    /// The objective at the solution: `Σ(σ + H_ε(rᵢ/σ)σ) + α‖w‖²` (joint) or
    /// `Σ h_{λ,μ}(rᵢ) + α‖w‖²` (notes).
    pub fn objective(&self) -> F {
        self.objective
    }
    /// L-BFGS iterations (scikit-learn's `n_iter_`).
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether a tolerance (not `max_iter`) ended the optimisation.
    pub fn converged(&self) -> bool {
        self.converged
    }
}

// ---------------------------------------------------------------------------------------------
// Objective

/// The Huber objective over `θ = (w, [b])`, with `σ` fixed or profiled out.
struct HuberObjective<'a, F: Float> {
    x: &'a ArrayRef2<F>,
    y: &'a ArrayRef1<F>,
    eps: F,
    alpha: F,
    fit_intercept: bool,
    /// `Some(σ)`: fixed scale (the course notes' loss); `None`: `σ = σ*(w, b)` (joint problem).
    fixed_scale: Option<F>,
}

impl<F: Float> HuberObjective<'_, F> {
    fn d(&self) -> usize {
        self.x.ncols()
    }

    /// The scale used with residuals `r`: the fixed one, or the minimiser `σ*` of the joint
    /// objective in `σ` for these residuals.
    fn sigma(&self, r: &Array1<F>) -> F {
        match self.fixed_scale {
            Some(s) => s,
            None => optimal_scale(r, self.eps),
        }
    }

    /// `r = y − Xw − b`.
    fn residuals(&self, theta: &ArrayRef1<F>) -> Array1<F> {
        let d = self.d();
        let mut r = self.y - &*self.x.dot(&theta.slice(s![..d]));
        if self.fit_intercept {
            let b = theta[d];
            r.mapv_inplace(|v| v - b);
        }
        r
    }
}

/// The minimiser over `σ > 0` of `φ(σ) = Σᵢ (σ + σ H_ε(aᵢ/σ))`, `aᵢ = |rᵢ|`.
///
/// `φ` is convex with `φ'(σ) = N − ε² #{aᵢ > εσ} − Σ_{aᵢ ≤ εσ} aᵢ²/σ²` (continuous, non-
/// decreasing). With the `aᵢ` sorted, on the piece `εσ ∈ [a_(m), a_(m+1))` the inliers are the
/// `m` smallest, and `φ' = 0` at `σ² = S_m / (N − ε²(N − m))`, `S_m = Σ_{i ≤ m} a_(i)²`. The
/// root lies on the first piece whose right end has `φ' > 0` (`φ'(0⁺) ≤ 0` since `ε ≥ 1`, and
/// `φ'(∞) = N > 0`). Floored at the smallest positive normal number (all residuals zero).
fn optimal_scale<F: Float>(r: &Array1<F>, eps: F) -> F {
    let mut a: Vec<F> = r.iter().map(|v| v.abs()).collect();
    a.sort_by(|p, q| p.partial_cmp(q).unwrap_or(std::cmp::Ordering::Equal));
    let n = a.len();
    let nf = F::cast(n as f64);
    let e2 = eps * eps;
    let mut s_m = F::zero();
    let mut sigma = F::zero();
    for m in 0..=n {
        let denom = nf - e2 * F::cast((n - m) as f64);
        let right_positive = if m == n {
            true
        } else {
            denom > F::zero() && denom * a[m] * a[m] > s_m * e2
        };
        if right_positive {
            let left = if m == 0 { F::zero() } else { a[m - 1] / eps };
            let mut s = (s_m / denom).sqrt();
            if s < left {
                s = left;
            }
            if m < n && s > a[m] / eps {
                s = a[m] / eps;
            }
            sigma = s;
            break;
        }
        s_m += a[m] * a[m];
    }
    if sigma.is_nan() || sigma < F::min_positive_value() {
        F::min_positive_value()
    } else {
        sigma
    }
}

impl<F: Float> Objective<F> for HuberObjective<'_, F> {
    fn dim(&self) -> usize {
        self.d() + usize::from(self.fit_intercept)
    }

    fn value(&self, theta: &ArrayRef1<F>) -> F {
        self.value_and_gradient(theta).0
    }

    fn gradient(&self, theta: &ArrayRef1<F>) -> Array1<F> {
        self.value_and_gradient(theta).1
    }

    fn value_and_gradient(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        let d = self.d();
        let n = self.x.nrows();
        let r = self.residuals(theta);
        let sigma = self.sigma(&r);
        let eps = self.eps;
        let two = F::cast(2.0);
        let cut = eps * sigma;
        // g = ∂L/∂r per sample (at fixed σ; for the profiled scale this is the gradient of
        // the profiled objective by Danskin's theorem, since ∂L/∂σ = 0 at σ*).
        let mut g = Array1::zeros(n);
        let mut loss = F::zero();
        for (gi, &ri) in g.iter_mut().zip(r.iter()) {
            let a = ri.abs();
            if a > cut {
                loss += two * eps * a - eps * eps * sigma;
                *gi = if ri < F::zero() {
                    -two * eps
                } else {
                    two * eps
                };
            } else {
                let q = ri / sigma;
                loss += ri * q;
                *gi = two * q;
            }
        }
        if self.fixed_scale.is_none() {
            loss += F::cast(n as f64) * sigma;
        }
        let w = theta.slice(s![..d]);
        loss += self.alpha * w.dot(&w);
        let mut grad = Array1::zeros(self.dim());
        let gw = self.x.t().dot(&g);
        for j in 0..d {
            grad[j] = -gw[j] + two * self.alpha * w[j];
        }
        if self.fit_intercept {
            grad[d] = -g.sum();
        }
        (loss, grad)
    }
}

impl<F: Float> CheckModel for FittedHuberRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedHuberRegressor");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        c.len("n_targets", self.lin.coef.nrows(), 1)?;
        c.positive("scale", self.scale)?;
        c.finite_value("objective", self.objective)?;
        c.that(
            self.outliers.iter().filter(|&&o| o).count() == self.n_outliers,
            || "`n_outliers` does not count the `outliers` flags".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};
    use ndlearn_core::Predict;
    use ndlearn_core::optim::check_gradient;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = data();
        let mut fit = HuberRegressor::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.scale = 0.0;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn data() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [0.0, 1.0],
            [1.0, -0.5],
            [2.0, 0.3],
            [3.0, 1.2],
            [4.0, -1.0],
            [5.0, 0.0],
            [6.0, 0.7],
            [7.0, -0.2],
            [8.0, 0.4],
            [9.0, -0.8]
        ];
        let noise = [0.1, -0.2, 0.05, 0.15, -0.1, 0.0, -0.05, 0.2, -0.15, 0.1];
        let mut y: Array1<f64> = x
            .rows()
            .into_iter()
            .zip(noise)
            .map(|(r, e)| 1.0 + 2.0 * r[0] - r[1] + e)
            .collect();
        y[3] += 30.0;
        (x, y)
    }

    #[test]
    fn notes_worked_example() {
        // λ = 2, μ = ½ ⇒ threshold λ/(2μ) = 2, and h(2) = 2 on both branches.
        let (l, m) = (2.0f64, 0.5f64);
        assert_eq!(l / (2.0 * m), 2.0);
        assert_eq!(m * 2.0 * 2.0, 2.0);
        assert_eq!(l * (2.0 - l / (4.0 * m)), 2.0);
        assert_eq!(huber_loss(2.0, l, m), 2.0);
        assert_eq!(huber_loss(-2.0, l, m), 2.0);
        // Just below the threshold: the quadratic branch, continuous.
        assert!((huber_loss(2.0 - 1e-9, l, m) - 2.0).abs() < 1e-8);
        // The derivative is continuous: 2μz = λ at z = 2.
        assert_eq!(huber_loss_derivative(2.0, l, m), 2.0);
        assert!((huber_loss_derivative(2.0 - 1e-12, l, m) - 2.0).abs() < 1e-11);
        assert_eq!(huber_loss_derivative(-5.0, l, m), -2.0);
        assert_eq!(huber_loss(0.0f32, 2.0, 0.5), 0.0);
    }

    #[test]
    fn invalid_hyperparameters() {
        let (x, y) = data();
        let bad = [
            (HuberRegressor::new(0.99), "epsilon"),
            (HuberRegressor::new(f64::NAN), "epsilon"),
            (HuberRegressor::default().alpha(-1.0), "alpha"),
            (HuberRegressor::default().max_iter(0), "max_iter"),
            (HuberRegressor::default().tol(-1e-3), "tol"),
            (HuberRegressor::notes(0.0, 1.0), "lambda"),
            (HuberRegressor::notes(1.0, -1.0), "mu"),
        ];
        for (est, field) in bad {
            match Fit::<f64>::fit(&est, &x, &y) {
                Err(Error::InvalidParam { name, .. }) => assert_eq!(name, field),
                other => panic!("{field}: {other:?}"),
            }
        }
    }

    #[test]
    fn gradient_matches_finite_differences() {
        let (x, y) = data();
        for (fit_intercept, fixed) in [(true, None), (false, None), (true, Some(0.7))] {
            let obj = HuberObjective {
                x: &x,
                y: &y,
                eps: 1.35,
                alpha: 0.3,
                fit_intercept,
                fixed_scale: fixed,
            };
            // A point where some residuals are outliers and some are not.
            let mut theta = Array1::from_elem(obj.dim(), 0.4);
            theta[0] = 1.8;
            let err = check_gradient(&obj, &theta).expect("check");
            assert!(err < 1e-6, "{fit_intercept} {fixed:?}: {err}");
        }
    }

    #[test]
    fn profiled_scale_minimises_the_objective_in_sigma() {
        let r = array![0.3, -1.2, 0.05, 4.0, -0.7, 0.0, 2.5, -0.2];
        let eps = 1.35;
        let phi = |s: f64| -> f64 {
            r.iter()
                .map(|&v: &f64| {
                    let z = v.abs() / s;
                    s + s * if z > eps {
                        2.0 * eps * z - eps * eps
                    } else {
                        z * z
                    }
                })
                .sum()
        };
        let s = optimal_scale(&r, eps);
        let f = phi(s);
        for h in [1e-6, 1e-4, 1e-2, 0.3] {
            assert!(phi(s * (1.0 + h)) >= f && phi(s * (1.0 - h)) >= f, "{h}");
        }
        // φ'(σ*) = 0 (central difference).
        let dphi = (phi(s * (1.0 + 1e-7)) - phi(s * (1.0 - 1e-7))) / (2e-7 * s);
        assert!(dphi.abs() < 1e-6, "{dphi}");
        // All-zero residuals: the floor.
        assert_eq!(
            optimal_scale(&Array1::<f64>::zeros(4), eps),
            f64::MIN_POSITIVE
        );
        // One residual r = 2, ε = 1: φ = σ + 4/σ above the kink σ = 2 and flat (= 4) below it;
        // the largest minimiser, the kink, is returned.
        let one = optimal_scale(&array![2.0f64], 1.0);
        assert!((one - 2.0).abs() < 1e-12, "{one}");
    }

    #[test]
    fn ignores_the_outlier_and_flags_it() {
        let (x, y) = data();
        let fit = HuberRegressor::default().fit(&x, &y).expect("fit");
        assert!(fit.converged());
        assert!((fit.coef()[0] - 2.0).abs() < 0.1, "{}", fit.coef());
        assert!((fit.coef()[1] + 1.0).abs() < 0.3, "{}", fit.coef());
        assert!(fit.outliers()[3]);
        assert_eq!(fit.outliers().len(), 10);
        assert_eq!(
            fit.n_outliers(),
            fit.outliers().iter().filter(|&&o| o).count()
        );
        // The outlier rule is |r| > εσ at the returned point.
        let r = &y - &fit.predict(&x).expect("predict");
        for (ri, &o) in r.iter().zip(fit.outliers()) {
            assert_eq!(ri.abs() > 1.35 * fit.scale(), o);
        }
        assert!(fit.scale() > 0.0);
    }

    #[test]
    fn notes_loss_equals_joint_objective_at_fixed_scale() {
        // Σ h_{λ,μ}(r) = Σ σH_ε(r/σ) with λ = 2ε, μ = 1/σ, checked on the objective itself.
        let (x, y) = data();
        let (eps, sigma) = (1.35, 0.8);
        let notes = HuberRegressor::notes(2.0 * eps, 1.0 / sigma)
            .tol(1e-10)
            .max_iter(1000);
        let fit = notes.fit(&x, &y).expect("fit");
        let r = &y - &fit.predict(&x).expect("predict");
        let direct: f64 = r
            .iter()
            .map(|&v| huber_loss(v, 2.0 * eps, 1.0 / sigma))
            .sum();
        assert!((direct - fit.objective()).abs() < 1e-9 * direct.max(1.0));
        assert!((fit.scale() - sigma).abs() < 1e-15);
        // Stationarity: Σ h'(rᵢ) xᵢ = 0 and Σ h'(rᵢ) = 0 (α = 0).
        let g: Array1<f64> = r.mapv(|v| huber_loss_derivative(v, 2.0 * eps, 1.0 / sigma));
        assert!(g.sum().abs() < 1e-6);
        assert!(x.t().dot(&g).iter().all(|v| v.abs() < 1e-6));
        for (ri, &o) in r.iter().zip(fit.outliers()) {
            assert_eq!(ri.abs() > eps * sigma, o);
        }
    }

    #[test]
    fn notes_loss_limits_are_least_squares_and_least_absolute_deviations() {
        let (x, y) = data();
        // μ small with the threshold λ/(2μ) beyond every residual: h = μz², least squares.
        let ls = HuberRegressor::notes(1e6, 1e-3)
            .tol(1e-12)
            .max_iter(2000)
            .fit(&x, &y)
            .expect("fit");
        let ols = crate::LinearRegression::default().fit(&x, &y).expect("ols");
        for j in 0..2 {
            assert!((ls.coef()[j] - ols.coef()[j]).abs() < 1e-6);
        }
        assert!(ls.outliers().iter().all(|&o| !o));
        // μ large with λ = 1: the threshold 1/(2μ) → 0 and h(z) → |z| − 1/(4μ): LAD.
        let mu = 1e4;
        let lad_like = HuberRegressor::notes(1.0, mu)
            .tol(1e-12)
            .max_iter(5000)
            .fit(&x, &y)
            .expect("fit");
        let lad = crate::LadRegressor::default().fit(&x, &y).expect("lad");
        let sum_abs = |p: Array1<f64>| (&y - &p).mapv(f64::abs).sum();
        let f_huber = sum_abs(lad_like.predict(&x).expect("p"));
        let f_lad = sum_abs(lad.predict(&x).expect("p"));
        assert!(f_huber >= f_lad - 1e-12);
        assert!(f_huber - f_lad < 10.0 / mu, "{f_huber} vs {f_lad}");
    }

    #[test]
    fn f32_close_to_f64() {
        let (x, y) = data();
        let f64fit = HuberRegressor::default().fit(&x, &y).expect("fit");
        let x32 = x.mapv(|v| v as f32);
        let y32 = y.mapv(|v| v as f32);
        let f32fit = HuberRegressor::default().fit(&x32, &y32).expect("fit");
        for j in 0..2 {
            assert!((f64::from(f32fit.coef()[j]) - f64fit.coef()[j]).abs() < 1e-3);
        }
        assert!((f64::from(f32fit.intercept()) - f64fit.intercept()).abs() < 1e-2);
    }

    #[test]
    fn exact_fit_drives_the_scale_to_zero() {
        let x: Array2<f64> = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
        let y = x.column(0).mapv(|v| 3.0 * v - 1.0);
        let fit = HuberRegressor::default()
            .alpha(0.0)
            .max_iter(500)
            .fit(&x, &y)
            .expect("fit");
        assert!((fit.coef()[0] - 3.0).abs() < 1e-4);
        assert!((fit.intercept() + 1.0).abs() < 1e-4);
        assert!(fit.scale() < 1e-3);
    }

    #[test]
    fn one_row_and_constant_column() {
        let fit = HuberRegressor::default()
            .fit(&array![[1.0f64, 2.0]], &array![3.0])
            .expect("one row");
        assert!(fit.coef().iter().all(|v| v.is_finite()));
        let (mut x, y) = data();
        x.column_mut(1).fill(2.0);
        let fit = HuberRegressor::default()
            .fit(&x, &y)
            .expect("constant column");
        assert!(
            fit.predict(&x)
                .expect("predict")
                .iter()
                .all(|v| v.is_finite())
        );
    }
}
