//! Kernel ridge regression (scikit-learn's `KernelRidge`): ridge regression in the feature space
//! of a kernel, solved in closed form in the dual.
//!
//! # The problem
//!
//! `min_f Σᵢ wᵢ (yᵢ − f(xᵢ))² + α ‖f‖²` over the kernel's function space gives
//! `f(x) = Σᵢ cᵢ k(xᵢ, x)` with `(K + α W⁻¹) c = y`; solved as scikit-learn does, on
//! `W^{1/2} K W^{1/2} + α I` by Cholesky (a least-squares solve if the matrix is not positive
//! definite, e.g. `α = 0` or a sigmoid kernel), and `c = W^{1/2} c̃`. No intercept (centre `y`
//! or use a kernel with a constant term). Several targets share one kernel matrix; with one
//! `alpha` per target each gets its own factorisation.
//!
//! Defaults are scikit-learn's: `alpha = 1`, `kernel = linear`, `gamma = None` (`1/d` for the
//! kernels that use it), `degree = 3`, `coef0 = 1`.
//!
//! # Example
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_svm::{KernelRidge, SvmKernel};
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("target");
//! let model = KernelRidge::default()
//!     .kernel(SvmKernel::Rbf)
//!     .gamma(Some(0.1))
//!     .alpha(vec![0.01])
//!     .fit(data.x(), y)?;
//! assert_eq!(model.dual_coef().nrows(), 442);
//! let pred = model.predict(data.x())?;
//! assert_eq!(pred.len(), 442);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::linalg;
use ndlearn_core::traits::{
    Estimator, Fit, FitMultiOutput, FitWeighted, NFeaturesIn, Predict, PredictMultiOutput,
};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, validate};

use crate::machine::check_kernel;
use crate::params::{Gamma, KernelSpec, SvmKernel};

/// Kernel ridge regression (hyperparameters; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct KernelRidge {
    /// Ridge penalties `α ≥ 0`: one for every target, or one per target (default `[1.0]`).
    pub alpha: Vec<f64>,
    /// The kernel (default linear).
    pub kernel: SvmKernel,
    /// `γ` of the RBF, polynomial and sigmoid kernels (`None`: `1/d`).
    pub gamma: Option<f64>,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `coef0` of the polynomial and sigmoid kernels (default 1).
    pub coef0: f64,
}

impl Default for KernelRidge {
    fn default() -> Self {
        Self {
            alpha: vec![1.0],
            kernel: SvmKernel::Linear,
            gamma: None,
            degree: 3,
            coef0: 1.0,
        }
    }
}

impl KernelRidge {
    ndlearn_core::setters! {
        alpha: Vec<f64>,
        kernel: SvmKernel,
        gamma: Option<f64>,
        degree: u32,
        coef0: f64,
    }

    fn spec(&self) -> KernelSpec<'_> {
        KernelSpec {
            kernel: &self.kernel,
            gamma: self.gamma.map_or(Gamma::Auto, Gamma::Value),
            degree: self.degree,
            coef0: self.coef0,
        }
    }
}

impl Estimator for KernelRidge {
    /// Checks every `α ≥ 0` (at least one) and the kernel settings.
    fn validate(&self) -> Result<()> {
        if self.alpha.is_empty() {
            return Err(Error::invalid_param("alpha", "needs at least one value"));
        }
        if let Some(a) = self.alpha.iter().find(|a| !(a.is_finite() && **a >= 0.0)) {
            return Err(Error::invalid_param(
                "alpha",
                format!("must be finite and >= 0, got {a}"),
            ));
        }
        self.spec().validate()
    }
}

/// A fitted [`KernelRidge`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKernelRidge<F: Float> {
    kernel: Option<Kernel>,
    x_fit: Array2<F>,
    dual_coef: Array2<F>,
    n_features: usize,
    multi: bool,
}

impl KernelRidge {
    fn fit_impl<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        multi: bool,
    ) -> Result<FittedKernelRidge<F>> {
        self.validate()?;
        const CONTEXT: &str = "KernelRidge::fit";
        validate::check_fit_input(x, 1, CONTEXT)?;
        if y.nrows() != x.nrows() {
            return Err(Error::ShapeMismatch {
                context: CONTEXT,
                expected: format!("{} target rows", x.nrows()),
                found: format!("{}", y.nrows()),
            });
        }
        validate::check_finite_2d(y, "y")?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let k_out = y.ncols();
        if self.alpha.len() != 1 && self.alpha.len() != k_out {
            return Err(Error::invalid_param(
                "alpha",
                format!(
                    "{} values for {k_out} targets (give one, or one per target)",
                    self.alpha.len()
                ),
            ));
        }
        let kernel = self.spec().resolve(x);
        // The system is formed and solved in f64 whatever F is: its condition number
        // (λ_max / α) times float32's ε would otherwise reach 1e-4 on ordinary data.
        let x64 = x.mapv(|v| v.to_f64().unwrap_or(f64::NAN));
        let mut gram = match &kernel {
            Some(k) => k.gram(&x64)?,
            None => {
                if x.nrows() != x.ncols() {
                    return Err(Error::ShapeMismatch {
                        context: CONTEXT,
                        expected: "a square kernel matrix (kernel = precomputed)".into(),
                        found: format!("{} × {}", x.nrows(), x.ncols()),
                    });
                }
                x64
            }
        };
        let mut rhs = y.mapv(|v| v.to_f64().unwrap_or(f64::NAN));
        let sw: Option<Array1<f64>> =
            sample_weight.map(|w| w.mapv(|v| v.to_f64().unwrap_or(0.0).sqrt()));
        if let Some(s) = &sw {
            for ((i, j), v) in gram.indexed_iter_mut() {
                *v *= s[i] * s[j];
            }
            for (mut row, &si) in rhs.rows_mut().into_iter().zip(s) {
                row.mapv_inplace(|v| v * si);
            }
        }
        let mut coef = if self.alpha.len() == 1 {
            solve_shifted(gram, self.alpha[0], &rhs)?
        } else {
            let mut out = Array2::<f64>::zeros((x.nrows(), k_out));
            for (t, &a) in self.alpha.iter().enumerate() {
                let col = rhs.slice(ndarray::s![.., t..t + 1]).to_owned();
                let c = solve_shifted(gram.clone(), a, &col)?;
                out.column_mut(t).assign(&c.column(0));
            }
            out
        };
        if let Some(s) = &sw {
            for (mut row, &si) in coef.rows_mut().into_iter().zip(s) {
                row.mapv_inplace(|v| v * si);
            }
        }
        let coef = coef.mapv(F::cast);
        Ok(FittedKernelRidge {
            kernel,
            x_fit: x.to_owned(),
            dual_coef: coef,
            n_features: x.ncols(),
            multi,
        })
    }
}

/// Solves `(K + αI) C = B`: Cholesky with mixed-precision refinement (a single-precision
/// factor refined to double accuracy, falling back to a double factor when `K + αI` is too
/// ill-conditioned; decision 0022), or, when `K + αI` is not positive definite (`α = 0` with a
/// singular `K`, non-PSD kernels), the minimum-norm least-squares solution, as scikit-learn's
/// fallback.
fn solve_shifted(mut a: Array2<f64>, alpha: f64, b: &Array2<f64>) -> Result<Array2<f64>> {
    for v in a.diag_mut() {
        *v += alpha;
    }
    match linalg::solve_spd_refined(&a, b) {
        Ok(sol) => Ok(sol.x),
        Err(_) => Ok(linalg::pinv(&a, None)?.dot(b)),
    }
}

impl<F: Float> Fit<F> for KernelRidge {
    type Target = ArrayRef1<F>;
    type Model = FittedKernelRidge<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedKernelRidge<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for KernelRidge {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedKernelRidge<F>> {
        let y2 = y.to_owned().insert_axis(Axis(1));
        self.fit_impl(x, &y2, sample_weight, false)
    }
}

impl<F: Float> FitMultiOutput<F> for KernelRidge {
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedKernelRidge<F>> {
        self.fit_impl(x, y, None, true)
    }
}

impl<F: Float> FittedKernelRidge<F> {
    /// The dual coefficients (`n × k`, scikit-learn's `dual_coef_` as a matrix).
    pub fn dual_coef(&self) -> &Array2<F> {
        &self.dual_coef
    }
    /// The kernel resolved at fit (`None`: precomputed).
    pub fn kernel(&self) -> Option<&Kernel> {
        self.kernel.as_ref()
    }
}

impl<F: Float> PredictMultiOutput<F> for FittedKernelRidge<F> {
    fn n_outputs(&self) -> usize {
        self.dual_coef.ncols()
    }

    /// `K(x, X_fit) · dual_coef`, accumulated in f64 (the coefficients of a kernel expansion
    /// can be large with cancelling signs).
    fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        const CONTEXT: &str = "KernelRidge::predict";
        let to64 = |a: &ArrayRef2<F>| a.mapv(|v| v.to_f64().unwrap_or(f64::NAN));
        let k = match &self.kernel {
            Some(kernel) => {
                validate::check_predict_input(x, self.n_features, CONTEXT)?;
                kernel.cross_gram(&to64(x), &to64(&self.x_fit))?
            }
            None => {
                validate::check_predict_input(x, self.x_fit.nrows(), CONTEXT)?;
                to64(x)
            }
        };
        Ok(k.dot(&to64(&self.dual_coef)).mapv(F::cast))
    }
}

impl<F: Float> Predict<F> for FittedKernelRidge<F> {
    type Output = Array1<F>;

    /// Predictions of a single-target fit.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a multi-output model (use `predict_multi`).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        if self.multi && self.dual_coef.ncols() != 1 {
            return Err(Error::invalid_param(
                "y",
                "the model has several outputs; use predict_multi",
            ));
        }
        Ok(self.predict_multi(x)?.column(0).to_owned())
    }
}

impl<F: Float> NFeaturesIn for FittedKernelRidge<F> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> CheckModel for FittedKernelRidge<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKernelRidge");
        let (n, d) = self.x_fit.dim();
        c.at_least("x_fit (rows)", n, 1)?;
        c.at_least("n_features", self.n_features, 1)?;
        c.len("x_fit (columns)", d, self.n_features)?;
        check_kernel(&c, self.kernel.as_ref(), d)?;
        // precomputed: `x_fit` is the training Gram matrix
        c.that(self.kernel.is_some() || n == d, || {
            format!("a precomputed kernel needs a square training Gram matrix, got {n} × {d}")
        })?;
        c.finite("x_fit", &self.x_fit)?;
        let k = self.dual_coef.ncols();
        c.at_least("dual_coef (outputs)", k, 1)?;
        c.that(self.multi || k == 1, || {
            format!("a single-output model with {k} outputs")
        })?;
        c.shape("dual_coef", self.dual_coef.dim(), (n, k))?;
        c.finite("dual_coef", &self.dual_coef)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_refuses_broken_coefficients() {
        let x = array![[0.0, 1.0], [1.0, 0.5], [2.0, 2.0], [3.0, 1.5]];
        let y = array![1.0, 2.0, 2.5, 4.0];
        let m: FittedKernelRidge<f64> = KernelRidge::default()
            .kernel(SvmKernel::Rbf)
            .fit(&x, &y)
            .expect("fit");
        assert!(m.check_model().is_ok());
        let invalid = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let mut bad = m.clone();
        bad.dual_coef = Array2::zeros((3, 1)); // 4 training rows
        assert!(invalid(bad.check_model()));
        let mut bad = m.clone();
        bad.dual_coef[[1, 0]] = f64::NAN;
        assert!(invalid(bad.check_model()));
        let mut bad = m;
        bad.kernel = None; // precomputed, but `x_fit` is 4 × 2
        assert!(invalid(bad.check_model()));
    }
}
