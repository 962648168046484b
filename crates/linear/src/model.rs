//! The coefficients every fitted linear regressor carries, and their prediction.
//!
//! Coefficients are stored as scikit-learn's 2-D `coef_`: one row per target (`k × d`) with one
//! intercept per target. A model fitted through [`ndlearn_core::Fit`] (one-dimensional `y`) has
//! `k = 1` and predicts with [`ndlearn_core::Predict`] (`Array1`); a model fitted with a
//! `fit_multi` method (an `n × k` target matrix) predicts with `predict_multi` (`Array2`, one
//! column per target), and its `Predict::predict` returns an error that points to
//! `predict_multi`. `predict_multi` works for single-target models too (one column).

use ndarray::{Array1, Array2, ArrayRef2, ArrayView1};
use ndlearn_core::validate::{CheckModel, ModelCheck, check_predict_input};
use ndlearn_core::{Error, Float, Result};

/// Coefficients (`k × d`) and intercepts (`k`) of a fitted linear model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub(crate) struct LinearCoef<F: Float> {
    pub coef: Array2<F>,
    pub intercept: Array1<F>,
    pub multi_output: bool,
}

impl<F: Float> LinearCoef<F> {
    /// `k × d` coefficients from a `d × k` solution, intercepts `ȳ − Wᵀx̄`.
    pub fn from_solution(
        w: &Array2<F>,
        x_mean: &Array1<F>,
        y_mean: &Array1<F>,
        multi_output: bool,
    ) -> Self {
        let coef = w.t().to_owned();
        let intercept = y_mean - &coef.dot(x_mean);
        Self {
            coef,
            intercept,
            multi_output,
        }
    }

    pub fn n_features(&self) -> usize {
        self.coef.ncols()
    }

    /// `X Wᵀ + 1 bᵀ` (`n × k`).
    pub fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.n_features(), "predict: number of features")?;
        let mut out = x.dot(&self.coef.t());
        out += &self.intercept;
        Ok(out)
    }

    /// `X w + b` for a single-target model.
    pub fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        if self.multi_output {
            return Err(Error::ShapeMismatch {
                context: "predict on a multi-output model",
                expected: "a model fitted on a one-dimensional target".into(),
                found: format!(
                    "{} targets; use predict_multi for an n x {} result",
                    self.coef.nrows(),
                    self.coef.nrows()
                ),
            });
        }
        check_predict_input(x, self.n_features(), "predict: number of features")?;
        let mut out = x.dot(&self.coef.row(0));
        out += self.intercept[0];
        Ok(out)
    }

    /// `Σ_t |w_tj|` per feature.
    pub fn importances(&self) -> Array1<F> {
        abs_column_sums(&self.coef)
    }

    pub fn coef_row(&self) -> ArrayView1<'_, F> {
        self.coef.row(0)
    }
}

impl<F: Float> CheckModel for LinearCoef<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("LinearCoef");
        let (k, d) = self.coef.dim();
        c.at_least("n_features", d, 1)?;
        c.at_least("n_targets", k, 1)?;
        c.that(self.multi_output || k == 1, || {
            format!("a single-output model has {k} coefficient rows")
        })?;
        c.len("intercept", self.intercept.len(), k)?;
        c.finite("coef", &self.coef)?;
        c.finite("intercept", &self.intercept)
    }
}

/// `Σ_k |w_kj|` over the rows of a coefficient matrix, the importances of every linear
/// model. Saturates at the largest finite value: each coefficient is finite (the fitted
/// state's check), but a sum of several near the floating-point limit would overflow.
pub(crate) fn abs_column_sums<F: Float>(coef: &Array2<F>) -> Array1<F> {
    coef.columns()
        .into_iter()
        .map(|c| {
            c.iter()
                .fold(F::zero(), |s, v| s + v.abs())
                .min(F::max_value())
        })
        .collect()
}

/// `rows × d` finite scores coefficients (`d ≥ 1`) and `rows` finite intercepts, as the
/// classifiers store them (`rows` = 1 for two classes with one score, `K` otherwise).
pub(crate) fn check_scores<F: Float>(
    c: &ModelCheck,
    coef: &Array2<F>,
    intercept: &Array1<F>,
    rows: usize,
) -> Result<()> {
    c.at_least("n_features", coef.ncols(), 1)?;
    c.shape("coef", coef.dim(), (rows, coef.ncols()))?;
    c.len("intercept", intercept.len(), rows)?;
    c.finite("coef", coef)?;
    c.finite("intercept", intercept)
}

/// Implements the shared accessors, `Predict` and `FeatureImportances` for a fitted model type
/// with a field `lin: LinearCoef<F>`.
macro_rules! linear_model_api {
    ($ty:ident) => {
        impl<F: ndlearn_core::Float> $ty<F> {
            /// Coefficients `w` (length `n_features`) of the first target (the only one for a
            /// model fitted on a one-dimensional `y`), as scikit-learn's `coef_`.
            pub fn coef(&self) -> ndarray::ArrayView1<'_, F> {
                self.lin.coef_row()
            }
            /// Intercept `b` of the first target (0 when `fit_intercept` is false).
            pub fn intercept(&self) -> F {
                self.lin.intercept[0]
            }
            /// All coefficients, one row per target (`n_targets × n_features`).
            pub fn coef_multi(&self) -> &ndarray::Array2<F> {
                &self.lin.coef
            }
            /// All intercepts, one per target.
            pub fn intercept_multi(&self) -> &ndarray::Array1<F> {
                &self.lin.intercept
            }
            /// Number of targets (1 unless fitted with `fit_multi`).
            pub fn n_targets(&self) -> usize {
                self.lin.coef.nrows()
            }
            /// Number of features seen at fit.
            pub fn n_features(&self) -> usize {
                self.lin.n_features()
            }
            /// Whether the model was fitted with `fit_multi` (then use
            /// [`predict_multi`](Self::predict_multi)).
            pub fn is_multi_output(&self) -> bool {
                self.lin.multi_output
            }
            /// Predictions for every target, `n × n_targets` (`X Wᵀ + 1 bᵀ`).
            ///
            /// # Errors
            /// [`ndlearn_core::Error::ShapeMismatch`] for a feature count different from the
            /// fit, [`ndlearn_core::Error::NonFinite`] for NaN or infinite input.
            pub fn predict_multi(
                &self,
                x: &ndarray::ArrayRef2<F>,
            ) -> ndlearn_core::Result<ndarray::Array2<F>> {
                self.lin.predict_multi(x)
            }
        }

        impl<F: ndlearn_core::Float> ndlearn_core::Predict<F> for $ty<F> {
            type Output = ndarray::Array1<F>;
            /// `X w + b`. Errors for a multi-output model (use `predict_multi`), a feature
            /// count different from the fit, or non-finite input.
            fn predict(&self, x: &ndarray::ArrayRef2<F>) -> ndlearn_core::Result<Self::Output> {
                self.lin.predict(x)
            }
        }

        impl<F: ndlearn_core::Float> ndlearn_core::FeatureImportances<F> for $ty<F> {
            /// `|w_j|`, summed over targets.
            fn feature_importances(&self) -> ndarray::Array1<F> {
                self.lin.importances()
            }
        }

        impl<F: ndlearn_core::Float> ndlearn_core::NFeaturesIn for $ty<F> {
            fn n_features_in(&self) -> usize {
                self.lin.n_features()
            }
        }

        impl<F: ndlearn_core::Float> ndlearn_core::PredictMultiOutput<F> for $ty<F> {
            fn n_outputs(&self) -> usize {
                if self.lin.multi_output {
                    self.lin.coef.nrows()
                } else {
                    1
                }
            }
            fn predict_multi(
                &self,
                x: &ndarray::ArrayRef2<F>,
            ) -> ndlearn_core::Result<ndarray::Array2<F>> {
                self.lin.predict_multi(x)
            }
        }
    };
}

pub(crate) use linear_model_api;

/// The classes of decision values (`n × 1` for two classes, `n × K` otherwise): with one
/// column, class 1 iff the score is `≥ 0` (`sign(0) = +1`); otherwise `ndlearn_core::numeric::argmax`
/// per row (ties to the lowest index).
/// The classifiers of the crate predict through it.
pub(crate) fn classes_from_scores<F: Float>(z: &Array2<F>) -> Array1<usize> {
    if z.ncols() == 1 {
        return z.column(0).mapv(|v| usize::from(v >= F::zero()));
    }
    ndlearn_core::numeric::argmax_rows(z)
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn linear_coef_check() {
        let mut lin = LinearCoef {
            coef: array![[1.0, 2.0]],
            intercept: array![0.5],
            multi_output: false,
        };
        assert!(lin.check_model().is_ok());
        lin.intercept = array![0.5, 1.0];
        assert!(matches!(lin.check_model(), Err(Error::InvalidModel { .. })));
        lin.coef = array![[1.0, 2.0], [3.0, 4.0]];
        assert!(matches!(lin.check_model(), Err(Error::InvalidModel { .. })));
        lin.multi_output = true;
        assert!(lin.check_model().is_ok());
        lin.coef[[1, 0]] = f64::NAN;
        assert!(matches!(lin.check_model(), Err(Error::InvalidModel { .. })));
        let c = ModelCheck::new("T");
        assert!(check_scores(&c, &array![[1.0]], &array![0.0, 1.0], 1).is_err());
        assert!(check_scores(&c, &Array2::<f64>::zeros((1, 0)), &array![0.0], 1).is_err());
    }
}
