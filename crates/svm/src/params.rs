//! The kernel hyperparameters as scikit-learn's SVMs spell them (`kernel`, `gamma`, `degree`,
//! `coef0`), resolved to a numeric [`Kernel`] at fit.

use ndarray::ArrayRef2;
use ndlearn_core::kernel::Kernel;
use ndlearn_core::{Error, Float, Result};

/// The kernel of an SVM (scikit-learn's `kernel`), with `gamma`, `degree` and `coef0` set on the
/// estimator as scikit-learn does.
///
/// | value | `k(x, x′)` |
/// |---|---|
/// | `linear` | `xᵀx′` |
/// | `poly` | `(γ xᵀx′ + coef0)^degree` |
/// | `rbf` (default) | `exp(−γ ‖x − x′‖²)` |
/// | `sigmoid` | `tanh(γ xᵀx′ + coef0)` |
/// | `precomputed` | `X` is the kernel matrix: `n × n` at fit, `m × n` (against the training rows) at predict |
/// | `custom` | any core [`Kernel`] (JSON: `{"custom": {...}}`); `gamma`, `degree`, `coef0` are ignored |
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SvmKernel {
    /// `xᵀx′`.
    Linear,
    /// `(γ xᵀx′ + coef0)^degree`.
    #[cfg_attr(feature = "serde", serde(alias = "polynomial"))]
    Poly,
    /// `exp(−γ ‖x − x′‖²)` (default).
    #[default]
    Rbf,
    /// `tanh(γ xᵀx′ + coef0)` (not positive semi-definite in general).
    Sigmoid,
    /// The input is a kernel matrix.
    Precomputed,
    /// Any core kernel.
    Custom(Kernel),
}

/// The kernel coefficient `γ` (scikit-learn's `gamma`): `"scale"` (default)
/// `= 1 / (d · Var(X))` over all entries of the training `X` (1 when that variance is 0),
/// `"auto"` `= 1/d`, or a positive number. Serialised as `"scale"`, `"auto"` or the number;
/// a numeric string such as `"0.1"` is read as the number.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[non_exhaustive]
pub enum Gamma {
    /// `1 / (d · Var(X))`.
    #[default]
    Scale,
    /// `1 / d`.
    Auto,
    /// A fixed positive value.
    Value(f64),
}

impl Gamma {
    /// The numeric `γ` for training data `x`.
    pub fn resolve<F: Float>(&self, x: &ArrayRef2<F>) -> f64 {
        let d = x.ncols().max(1) as f64;
        match *self {
            Gamma::Value(g) => g,
            Gamma::Auto => 1.0 / d,
            Gamma::Scale => {
                let n = x.len() as f64;
                if n == 0.0 {
                    return 1.0;
                }
                let mean = x
                    .iter()
                    .map(|v| v.to_f64().unwrap_or(f64::NAN))
                    .sum::<f64>()
                    / n;
                let var = x
                    .iter()
                    .map(|v| {
                        let t = v.to_f64().unwrap_or(f64::NAN) - mean;
                        t * t
                    })
                    .sum::<f64>()
                    / n;
                if var != 0.0 && var.is_finite() {
                    1.0 / (d * var)
                } else {
                    1.0
                }
            }
        }
    }

    /// Checks a fixed `γ > 0`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming `gamma`.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Gamma::Value(g) if !(g.is_finite() && g > 0.0) => Err(Error::invalid_param(
                "gamma",
                format!("must be \"scale\", \"auto\" or a finite number > 0, got {g}"),
            )),
            _ => Ok(()),
        }
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Gamma {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Gamma::Scale => s.serialize_str("scale"),
            Gamma::Auto => s.serialize_str("auto"),
            Gamma::Value(v) => s.serialize_f64(*v),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Gamma {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Gamma;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("\"scale\", \"auto\" or a number")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Gamma, E> {
                match v.to_ascii_lowercase().as_str() {
                    "scale" => Ok(Gamma::Scale),
                    "auto" => Ok(Gamma::Auto),
                    other => other
                        .parse::<f64>()
                        .map(Gamma::Value)
                        .map_err(|_| E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
            fn visit_f64<E: serde::de::Error>(self, v: f64) -> std::result::Result<Gamma, E> {
                Ok(Gamma::Value(v))
            }
            fn visit_i64<E: serde::de::Error>(self, v: i64) -> std::result::Result<Gamma, E> {
                Ok(Gamma::Value(v as f64))
            }
            fn visit_u64<E: serde::de::Error>(self, v: u64) -> std::result::Result<Gamma, E> {
                Ok(Gamma::Value(v as f64))
            }
        }
        d.deserialize_any(V)
    }
}

/// `C = 1/(Nλ)`: the C-SVM penalty equivalent to the course notes' `(λ/2)‖w‖² + (1/N) Σ ξᵢ` on `N`
/// samples (catalog errata E3; both objectives have the same minimiser).
///
/// ```
/// assert_eq!(ndlearn_svm::c_from_lambda(0.01, 200), 0.5);
/// assert_eq!(ndlearn_svm::lambda_from_c(0.5, 200), 0.01);
/// ```
pub fn c_from_lambda(lambda: f64, n_samples: usize) -> f64 {
    1.0 / (n_samples as f64 * lambda)
}

/// `λ = 1/(N C)`, the inverse of [`c_from_lambda`].
pub fn lambda_from_c(c: f64, n_samples: usize) -> f64 {
    1.0 / (n_samples as f64 * c)
}

/// The kernel settings shared by every kernel SVM.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct KernelSpec<'a> {
    pub kernel: &'a SvmKernel,
    pub gamma: Gamma,
    pub degree: u32,
    pub coef0: f64,
}

impl KernelSpec<'_> {
    pub(crate) fn validate(&self) -> Result<()> {
        self.gamma.validate()?;
        if !self.coef0.is_finite() {
            return Err(Error::invalid_param("coef0", "must be finite"));
        }
        match self.kernel {
            SvmKernel::Poly if self.degree == 0 => Err(Error::invalid_param(
                "degree",
                "must be >= 1 for kernel = poly",
            )),
            SvmKernel::Custom(k) => k.validate(),
            _ => Ok(()),
        }
    }

    /// The numeric kernel for training data `x` (`None` for a precomputed kernel).
    pub(crate) fn resolve<F: Float>(&self, x: &ArrayRef2<F>) -> Option<Kernel> {
        let g = || self.gamma.resolve(x);
        match self.kernel {
            SvmKernel::Linear => Some(Kernel::Linear),
            SvmKernel::Poly => Some(Kernel::Polynomial {
                gamma: g(),
                coef0: self.coef0,
                degree: self.degree,
            }),
            SvmKernel::Rbf => Some(Kernel::Rbf { gamma: g() }),
            SvmKernel::Sigmoid => Some(Kernel::Sigmoid {
                gamma: g(),
                coef0: self.coef0,
            }),
            SvmKernel::Precomputed => None,
            SvmKernel::Custom(k) => Some(k.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn gamma_scale_and_auto_follow_sklearn() {
        let x = array![[0.0, 2.0], [4.0, 6.0]];
        // entries 0, 2, 4, 6: mean 3, variance 5
        assert_eq!(Gamma::Scale.resolve(&x), 1.0 / 10.0);
        assert_eq!(Gamma::Auto.resolve(&x), 0.5);
        assert_eq!(Gamma::Value(0.3).resolve(&x), 0.3);
        assert_eq!(Gamma::Scale.resolve(&array![[1.0, 1.0]]), 1.0);
        assert!(Gamma::Value(0.0).validate().is_err());
        assert!(Gamma::Value(f64::NAN).validate().is_err());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn gamma_serde_accepts_names_numbers_and_numeric_strings() {
        let g: Gamma = serde_json::from_str("\"scale\"").expect("scale");
        assert_eq!(g, Gamma::Scale);
        let g: Gamma = serde_json::from_str("\"AUTO\"").expect("auto");
        assert_eq!(g, Gamma::Auto);
        let g: Gamma = serde_json::from_str("0.25").expect("number");
        assert_eq!(g, Gamma::Value(0.25));
        let g: Gamma = serde_json::from_str("\"0.5\"").expect("numeric string");
        assert_eq!(g, Gamma::Value(0.5));
        assert!(serde_json::from_str::<Gamma>("\"fast\"").is_err());
        assert_eq!(
            serde_json::to_string(&Gamma::Value(2.0)).expect("ser"),
            "2.0"
        );
    }
}
