//! Support vector regression: [`Svr`] (ε-SVR) and [`NuSvr`] (ν-SVR), and the one-class SVM
//! [`OneClassSvm`] (an outlier detector), solved by SMO (see the [crate docs](crate#design)).
//!
//! # The problems
//!
//! ε-SVR fits `f(x) = Σᵢ (αᵢ − αᵢ*) k(xᵢ, x) − ρ` from the dual over `2n` variables
//!
//! ```text
//! min ½ (α − α*)ᵀK(α − α*) + ε Σ (αᵢ + αᵢ*) − Σ yᵢ(αᵢ − αᵢ*)
//!     s.t. Σ (αᵢ − αᵢ*) = 0,  0 ≤ αᵢ, αᵢ* ≤ Cᵢ,
//! ```
//!
//! the dual of `½‖w‖² + C Σ (ξᵢ + ξᵢ*)` with the ε-insensitive loss (CL-102). ν-SVR replaces `ε`
//! by `ν ∈ (0, 1]`, which bounds the fraction of points outside the tube, and finds `ε` itself
//! (Schölkopf et al. 2000). The one-class SVM (Schölkopf et al. 2001) solves
//! `min ½ αᵀKα` s.t. `Σ αᵢ = ν n`, `0 ≤ αᵢ ≤ 1` (libsvm's scaling), and calls `x` an inlier
//! (`+1`) when `Σ αᵢ k(xᵢ, x) − ρ > 0`.
//!
//! Attributes follow scikit-learn: `support_`, `support_vectors_`, `dual_coef_` (`1 × n_SV`),
//! `intercept_ = −ρ`; the one-class SVM's `offset_ = ρ`, `score_samples = decision + offset_`.
//!
//! # Example
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_svm::Svr;
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("target");
//! let model = Svr::default().c(100.0).epsilon(5.0).fit(data.x(), y)?;
//! let pred = model.predict(data.x())?;
//! let mean = y.mean().unwrap_or(0.0);
//! let r2 = 1.0 - (&pred - y).mapv(|r| r * r).sum() / y.mapv(|v| (v - mean).powi(2)).sum();
//! assert!(r2 > 0.4);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::traits::{
    Estimator, Fit, FitUnsupervised, FitUnsupervisedWeighted, FitWeighted, NFeaturesIn,
    OutlierDetector, Predict,
};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, validate};

use crate::machine::{TrainData, check_expansion, cross_kernel, sample_bounds};
use crate::params::{Gamma, KernelSpec, SvmKernel};
use crate::solver::{Form, Problem, Settings, Solution};

macro_rules! kernel_fields_default {
    () => {
        SvmKernel::Rbf
    };
}

/// ε-support vector regression (scikit-learn's `SVR`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Svr {
    /// The kernel (default RBF).
    pub kernel: SvmKernel,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `γ` (default `"scale"`).
    pub gamma: Gamma,
    /// `coef0` (default 0).
    pub coef0: f64,
    /// Stopping tolerance (default `1e-3`).
    pub tol: f64,
    /// The penalty `C > 0` (default 1).
    #[cfg_attr(feature = "serde", serde(rename = "C", alias = "c"))]
    pub c: f64,
    /// Half-width `ε ≥ 0` of the insensitive tube (default 0.1).
    pub epsilon: f64,
    /// Shrinking heuristic (default `true`).
    pub shrinking: bool,
    /// Kernel cache in MB (default 200).
    pub cache_size: f64,
    /// Iteration cap (default none).
    pub max_iter: Option<usize>,
}

impl Default for Svr {
    fn default() -> Self {
        Self {
            kernel: kernel_fields_default!(),
            degree: 3,
            gamma: Gamma::Scale,
            coef0: 0.0,
            tol: 1e-3,
            c: 1.0,
            epsilon: 0.1,
            shrinking: true,
            cache_size: 200.0,
            max_iter: None,
        }
    }
}

/// ν-support vector regression (scikit-learn's `NuSVR`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct NuSvr {
    /// `ν ∈ (0, 1]` (default 0.5).
    pub nu: f64,
    /// The penalty `C > 0` (default 1).
    #[cfg_attr(feature = "serde", serde(rename = "C", alias = "c"))]
    pub c: f64,
    /// The kernel (default RBF).
    pub kernel: SvmKernel,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `γ` (default `"scale"`).
    pub gamma: Gamma,
    /// `coef0` (default 0).
    pub coef0: f64,
    /// Shrinking heuristic (default `true`).
    pub shrinking: bool,
    /// Stopping tolerance (default `1e-3`).
    pub tol: f64,
    /// Kernel cache in MB (default 200).
    pub cache_size: f64,
    /// Iteration cap (default none).
    pub max_iter: Option<usize>,
}

impl Default for NuSvr {
    fn default() -> Self {
        Self {
            nu: 0.5,
            c: 1.0,
            kernel: kernel_fields_default!(),
            degree: 3,
            gamma: Gamma::Scale,
            coef0: 0.0,
            shrinking: true,
            tol: 1e-3,
            cache_size: 200.0,
            max_iter: None,
        }
    }
}

/// The one-class SVM (scikit-learn's `OneClassSVM`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct OneClassSvm {
    /// The kernel (default RBF).
    pub kernel: SvmKernel,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `γ` (default `"scale"`).
    pub gamma: Gamma,
    /// `coef0` (default 0).
    pub coef0: f64,
    /// Stopping tolerance (default `1e-3`).
    pub tol: f64,
    /// `ν ∈ (0, 1]`: upper bound on the fraction of training outliers, lower bound on the
    /// fraction of support vectors (default 0.5).
    pub nu: f64,
    /// Shrinking heuristic (default `true`).
    pub shrinking: bool,
    /// Kernel cache in MB (default 200).
    pub cache_size: f64,
    /// Iteration cap (default none).
    pub max_iter: Option<usize>,
}

impl Default for OneClassSvm {
    fn default() -> Self {
        Self {
            kernel: kernel_fields_default!(),
            degree: 3,
            gamma: Gamma::Scale,
            coef0: 0.0,
            tol: 1e-3,
            nu: 0.5,
            shrinking: true,
            cache_size: 200.0,
            max_iter: None,
        }
    }
}

macro_rules! kernel_machine_common {
    ($t:ty) => {
        impl $t {
            fn spec(&self) -> KernelSpec<'_> {
                KernelSpec {
                    kernel: &self.kernel,
                    gamma: self.gamma,
                    degree: self.degree,
                    coef0: self.coef0,
                }
            }

            fn settings(&self) -> Settings {
                Settings {
                    eps: self.tol,
                    shrinking: self.shrinking,
                    max_iter: self.max_iter,
                }
            }

            fn validate_common(&self) -> Result<()> {
                self.spec().validate()?;
                validate::check_positive("tol", self.tol)?;
                validate::check_positive("cache_size", self.cache_size)?;
                if self.max_iter == Some(0) {
                    return Err(Error::invalid_param("max_iter", "must be >= 1 (or none)"));
                }
                Ok(())
            }
        }
    };
}
kernel_machine_common!(Svr);
kernel_machine_common!(NuSvr);
kernel_machine_common!(OneClassSvm);

fn check_nu(nu: f64) -> Result<()> {
    if nu > 0.0 && nu <= 1.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "nu",
            format!("must be in (0, 1], got {nu}"),
        ))
    }
}

impl Svr {
    ndlearn_core::setters! {
        kernel: SvmKernel,
        degree: u32,
        gamma: Gamma,
        coef0: f64,
        tol: f64,
        /// Sets `C`.
        c: f64,
        epsilon: f64,
        shrinking: bool,
        cache_size: f64,
        max_iter: Option<usize>,
    }
}

impl NuSvr {
    ndlearn_core::setters! {
        nu: f64,
        /// Sets `C`.
        c: f64,
        kernel: SvmKernel,
        degree: u32,
        gamma: Gamma,
        coef0: f64,
        shrinking: bool,
        tol: f64,
        cache_size: f64,
        max_iter: Option<usize>,
    }
}

impl OneClassSvm {
    ndlearn_core::setters! {
        kernel: SvmKernel,
        degree: u32,
        gamma: Gamma,
        coef0: f64,
        tol: f64,
        nu: f64,
        shrinking: bool,
        cache_size: f64,
        max_iter: Option<usize>,
    }
}

impl Estimator for Svr {
    /// Checks `C > 0`, `ε ≥ 0` and the kernel settings.
    fn validate(&self) -> Result<()> {
        validate::check_positive("C", self.c)?;
        if !(self.epsilon.is_finite() && self.epsilon >= 0.0) {
            return Err(Error::invalid_param("epsilon", "must be finite and >= 0"));
        }
        self.validate_common()
    }
}

impl Estimator for NuSvr {
    /// Checks `0 < ν ≤ 1`, `C > 0` and the kernel settings.
    fn validate(&self) -> Result<()> {
        check_nu(self.nu)?;
        validate::check_positive("C", self.c)?;
        self.validate_common()
    }
}

impl Estimator for OneClassSvm {
    /// Checks `0 < ν ≤ 1` and the kernel settings.
    fn validate(&self) -> Result<()> {
        check_nu(self.nu)?;
        self.validate_common()
    }
}

/// A fitted kernel expansion `f(x) = Σᵢ cᵢ k(svᵢ, x) − ρ` ([`Svr`], [`NuSvr`],
/// [`OneClassSvm`]).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSvr<F: Float> {
    kernel: Option<Kernel>,
    n_features: usize,
    n_train: usize,
    support: Vec<usize>,
    support_vectors: Array2<F>,
    coef: Array1<F>,
    rho: f64,
    /// ν-SVR's `ε` found by the solver (`None` otherwise).
    epsilon: Option<f64>,
    objective: f64,
    n_iter: usize,
    converged: bool,
}

/// A fitted [`OneClassSvm`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedOneClassSvm<F: Float> {
    inner: FittedSvr<F>,
}

fn build_model<F: Float>(
    data: &TrainData<'_>,
    x: &ArrayRef2<F>,
    row_coef: Vec<(usize, f64)>,
    sol: &Solution,
    rho: f64,
    epsilon: Option<f64>,
) -> FittedSvr<F> {
    let support: Vec<usize> = row_coef.iter().map(|&(r, _)| r).collect();
    FittedSvr {
        kernel: data.kernel.clone(),
        n_features: x.ncols(),
        n_train: x.nrows(),
        support_vectors: data.rows_as(&support),
        coef: row_coef.iter().map(|&(_, c)| F::cast(c)).collect(),
        support,
        rho,
        epsilon,
        objective: sol.objective,
        n_iter: sol.n_iter,
        converged: sol.converged,
    }
}

/// What a regression fit needs from [`Svr`] or [`NuSvr`].
struct RegressionSpec<'a> {
    kernel: KernelSpec<'a>,
    settings: Settings,
    cache_mb: f64,
    c: f64,
    /// `Ok(ν)` for ν-SVR, `Err(ε)` for ε-SVR.
    nu_or_eps: Result<f64, f64>,
    context: &'static str,
}

/// Regression duals over `2n` variables (`αᵢ` with `y = +1`, `αᵢ*` with `y = −1`).
fn fit_regression<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    sample_weight: Option<&ArrayRef1<F>>,
    rs: RegressionSpec<'_>,
) -> Result<FittedSvr<F>> {
    let RegressionSpec {
        kernel: spec,
        settings,
        cache_mb,
        c,
        nu_or_eps,
        context,
    } = rs;
    validate::check_regression_input(x, y, 1, context)?;
    if let Some(w) = sample_weight {
        validate::check_sample_weight(w, x.nrows())?;
    }
    let data = TrainData::new(x, spec.resolve(x), context)?;
    let (bounds, keep) = sample_bounds(c, None, sample_weight, x.nrows());
    let rows: Vec<usize> = (0..x.nrows()).filter(|&i| keep[i]).collect();
    if rows.is_empty() {
        return Err(Error::TooFewSamples {
            context,
            needed: 1,
            found: 0,
        });
    }
    let l = rows.len();
    let yv: Vec<f64> = rows
        .iter()
        .map(|&r| y[r].to_f64().unwrap_or(f64::NAN))
        .collect();
    let cb: Vec<f64> = rows.iter().map(|&r| bounds[r]).collect();
    let sub = data.subset(rows.clone());
    let index: Vec<usize> = (0..l).chain(0..l).collect();
    let sign: Vec<f64> = (0..2 * l).map(|t| if t < l { 1.0 } else { -1.0 }).collect();
    let c2: Vec<f64> = cb.iter().chain(&cb).copied().collect();
    let (form, p, alpha) = match nu_or_eps {
        Err(eps) => {
            let p = (0..2 * l)
                .map(|t| if t < l { eps - yv[t] } else { eps + yv[t - l] })
                .collect();
            (Form::C, p, vec![0.0; 2 * l])
        }
        Ok(nu) => {
            let mut sum = c * nu * l as f64 / 2.0;
            let mut alpha = vec![0.0; 2 * l];
            for t in 0..l {
                let a = sum.min(cb[t]);
                alpha[t] = a;
                alpha[t + l] = a;
                sum -= a;
            }
            let p = (0..2 * l)
                .map(|t| if t < l { -yv[t] } else { yv[t - l] })
                .collect();
            (Form::Nu, p, alpha)
        }
    };
    let problem = Problem {
        index,
        y: sign,
        p,
        c: c2,
        alpha,
    };
    let sol = data.solve(&sub, form, problem, settings, cache_mb)?;
    let row_coef: Vec<(usize, f64)> = (0..l)
        .map(|t| (rows[t], sol.alpha[t] - sol.alpha[t + l]))
        .filter(|&(_, c)| c != 0.0)
        .collect();
    let epsilon = (form == Form::Nu).then_some(-sol.r);
    Ok(build_model(&data, x, row_coef, &sol, sol.rho, epsilon))
}

impl<F: Float> Fit<F> for Svr {
    type Target = ArrayRef1<F>;
    type Model = FittedSvr<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedSvr<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for Svr {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSvr<F>> {
        self.validate()?;
        let rs = RegressionSpec {
            kernel: self.spec(),
            settings: self.settings(),
            cache_mb: self.cache_size,
            c: self.c,
            nu_or_eps: Err(self.epsilon),
            context: "Svr::fit",
        };
        fit_regression(x, y, sample_weight, rs)
    }
}

impl<F: Float> Fit<F> for NuSvr {
    type Target = ArrayRef1<F>;
    type Model = FittedSvr<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedSvr<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for NuSvr {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSvr<F>> {
        self.validate()?;
        let rs = RegressionSpec {
            kernel: self.spec(),
            settings: self.settings(),
            cache_mb: self.cache_size,
            c: self.c,
            nu_or_eps: Ok(self.nu),
            context: "NuSvr::fit",
        };
        fit_regression(x, y, sample_weight, rs)
    }
}

impl<F: Float> FitUnsupervised<F> for OneClassSvm {
    type Model = FittedOneClassSvm<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<FittedOneClassSvm<F>> {
        self.fit_weighted(x, None)
    }
}

impl<F: Float> FitUnsupervisedWeighted<F> for OneClassSvm {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedOneClassSvm<F>> {
        self.validate()?;
        const CONTEXT: &str = "OneClassSvm::fit";
        validate::check_fit_input(x, 1, CONTEXT)?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let data = TrainData::new(x, self.spec().resolve(x), CONTEXT)?;
        let (bounds, keep) = sample_bounds(1.0, None, sample_weight, x.nrows());
        let rows: Vec<usize> = (0..x.nrows()).filter(|&i| keep[i]).collect();
        if rows.is_empty() {
            return Err(Error::TooFewSamples {
                context: CONTEXT,
                needed: 1,
                found: 0,
            });
        }
        let l = rows.len();
        let c: Vec<f64> = rows.iter().map(|&r| bounds[r]).collect();
        // libsvm's start: the first ⌊ν l⌋ variables at their bound, the next one at the rest.
        let total = self.nu * l as f64;
        let full = (total.floor() as usize).min(l);
        let mut alpha = vec![0.0; l];
        for a in alpha.iter_mut().take(full) {
            *a = 1.0;
        }
        if full < l {
            alpha[full] = total - full as f64;
        }
        for (a, &ct) in alpha.iter_mut().zip(&c) {
            *a = a.min(ct);
        }
        let sub = data.subset(rows.clone());
        let problem = Problem {
            index: (0..l).collect(),
            y: vec![1.0; l],
            p: vec![0.0; l],
            c,
            alpha,
        };
        let sol = data.solve(&sub, Form::C, problem, self.settings(), self.cache_size)?;
        let row_coef: Vec<(usize, f64)> = rows
            .iter()
            .zip(&sol.alpha)
            .filter(|(_, a)| **a > 0.0)
            .map(|(&r, &a)| (r, a))
            .collect();
        Ok(FittedOneClassSvm {
            inner: build_model(&data, x, row_coef, &sol, sol.rho, None),
        })
    }
}

impl<F: Float> FittedSvr<F> {
    /// Indices of the support vectors in the training data.
    pub fn support(&self) -> &[usize] {
        &self.support
    }
    /// The support vectors.
    pub fn support_vectors(&self) -> &Array2<F> {
        &self.support_vectors
    }
    /// scikit-learn's `dual_coef_` (`1 × n_SV`: `αᵢ − αᵢ*`, or `αᵢ` for the one-class SVM).
    pub fn dual_coef(&self) -> Array2<F> {
        self.coef.clone().insert_axis(ndarray::Axis(0))
    }
    /// scikit-learn's `intercept_` (`−ρ`).
    pub fn intercept(&self) -> f64 {
        -self.rho
    }
    /// ν-SVR's tube half-width found by the solver (`None` for ε-SVR).
    pub fn epsilon(&self) -> Option<f64> {
        self.epsilon
    }
    /// The dual objective.
    pub fn dual_objective(&self) -> f64 {
        self.objective
    }
    /// SMO iterations.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Whether the tolerance was reached before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// The kernel resolved at fit (`None`: precomputed).
    pub fn kernel(&self) -> Option<&Kernel> {
        self.kernel.as_ref()
    }

    fn values(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array1<F>> {
        match self.kernel {
            Some(_) => validate::check_predict_input(x, self.n_features, context)?,
            None => validate::check_finite_2d(x, "X")?,
        }
        let k = cross_kernel(
            self.kernel.as_ref(),
            x,
            &self.support_vectors,
            &self.support,
            self.n_train,
            context,
        )?;
        let rho = F::cast(self.rho);
        Ok(k.dot(&self.coef).mapv(|v| v - rho))
    }
}

impl<F: Float> Predict<F> for FittedSvr<F> {
    type Output = Array1<F>;

    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        self.values(x, "Svr::predict")
    }
}

impl<F: Float> NFeaturesIn for FittedSvr<F> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> FittedOneClassSvm<F> {
    /// The kernel expansion (support vectors, `dual_coef_`, `intercept_`).
    pub fn expansion(&self) -> &FittedSvr<F> {
        &self.inner
    }
    /// scikit-learn's `offset_` (`ρ`): `decision_function = score_samples − offset_`.
    pub fn offset(&self) -> f64 {
        self.inner.rho
    }
}

impl<F: Float> Predict<F> for FittedOneClassSvm<F> {
    type Output = Array1<i64>;

    /// `+1` (inlier) where the decision is positive, else `−1`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<i64>> {
        Ok(self
            .inner
            .values(x, "OneClassSvm::predict")?
            .mapv(|v| if v > F::zero() { 1 } else { -1 }))
    }
}

impl<F: Float> OutlierDetector<F> for FittedOneClassSvm<F> {
    /// `Σᵢ αᵢ k(xᵢ, x)` (the decision plus `offset_ = ρ`).
    fn score_samples(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let off = F::cast(self.inner.rho);
        Ok(self
            .inner
            .values(x, "OneClassSvm::score_samples")?
            .mapv(|v| v + off))
    }

    fn offset(&self) -> F {
        F::cast(self.inner.rho)
    }

    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        self.inner.values(x, "OneClassSvm::decision_function")
    }
}

impl<F: Float> NFeaturesIn for FittedOneClassSvm<F> {
    fn n_features_in(&self) -> usize {
        self.inner.n_features
    }
}

impl<F: Float> CheckModel for FittedSvr<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSvr");
        check_expansion(
            &c,
            self.kernel.as_ref(),
            self.n_features,
            self.n_train,
            &self.support,
            &self.support_vectors,
        )?;
        c.len("dual_coef", self.coef.len(), self.support.len())?;
        c.finite("dual_coef", &self.coef)?;
        c.finite_value("rho", self.rho)?;
        if let Some(e) = self.epsilon {
            c.finite_value("epsilon", e)?;
        }
        Ok(())
    }
}

impl<F: Float> CheckModel for FittedOneClassSvm<F> {
    fn check_model(&self) -> Result<()> {
        ModelCheck::new("FittedOneClassSvm").part("inner", &self.inner)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::Axis;

    use super::*;

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_expansions() {
        let data = ndlearn_datasets::diabetes();
        let (x, y) = (data.x(), data.y_values().expect("target"));
        let m: FittedSvr<f64> = NuSvr::default().fit(x, y).expect("fit");
        assert!(m.check_model().is_ok());
        let invalid = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let mut bad = m.clone();
        bad.coef = bad.coef.slice(ndarray::s![1..]).to_owned(); // one coefficient short
        assert!(invalid(bad.check_model()));
        let mut bad = m;
        bad.support_vectors[[0, 3]] = f64::INFINITY;
        assert!(invalid(bad.check_model()));
        let o: FittedOneClassSvm<f64> = OneClassSvm::default().fit(x).expect("fit");
        assert!(o.check_model().is_ok());
        let mut bad = o;
        bad.inner.support_vectors.remove_index(Axis(1), 0); // rows of 9 values, 10 features
        assert!(invalid(bad.check_model()));
    }
}
