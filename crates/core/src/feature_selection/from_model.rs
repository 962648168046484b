//! Embedded selection: keep the features a fitted model finds important (scikit-learn's
//! `SelectFromModel`; the course notes' "LASSO or elastic net": Tibshirani, JRSS B 58(1), 1996;
//! Zou & Hastie, JRSS B 67(2), 2005; catalog M-08, CL-185).

use ndarray::{Array1, Array2, ArrayRef2};

use super::univariate::percentile_linear;
use super::{check_transform_input, inverse_select_columns, select_columns};
use crate::{Error, FeatureImportances, Fit, Float, InverseTransform, Result, Transform};

/// The importance cut-off of [`SelectFromModel`]: features with importance `≥` the threshold
/// are kept.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Threshold {
    /// A fixed value (`1e-5` is scikit-learn's default for L1-penalised models such as the
    /// lasso: "non-zero coefficient").
    Value(f64),
    /// The mean importance (`"mean"`).
    Mean,
    /// The median importance (`"median"`).
    Median,
    /// `factor ×` the mean (`"1.25*mean"`).
    ScaledMean(f64),
    /// `factor ×` the median.
    ScaledMedian(f64),
}

impl Threshold {
    /// The numeric cut-off for the given importances.
    ///
    /// # Errors
    /// A non-finite value or factor; empty importances for `Mean` / `Median`.
    pub fn resolve(&self, importances: &[f64]) -> Result<f64> {
        let need = |ok: bool| {
            if ok {
                Ok(())
            } else {
                Err(Error::invalid_param(
                    "threshold",
                    "mean / median thresholds need at least one importance",
                ))
            }
        };
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        let t = match *self {
            Threshold::Value(v) => v,
            Threshold::Mean => {
                need(!importances.is_empty())?;
                mean(importances)
            }
            Threshold::Median => {
                need(!importances.is_empty())?;
                percentile_linear(importances, 50.0)
            }
            Threshold::ScaledMean(f) => {
                need(!importances.is_empty())?;
                f * mean(importances)
            }
            Threshold::ScaledMedian(f) => {
                need(!importances.is_empty())?;
                f * percentile_linear(importances, 50.0)
            }
        };
        if t.is_nan()
            || matches!(*self, Threshold::ScaledMean(f) | Threshold::ScaledMedian(f) if !f.is_finite())
        {
            return Err(Error::invalid_param(
                "threshold",
                format!("{self:?} is not a valid threshold"),
            ));
        }
        Ok(t)
    }
}

/// The support mask of [`SelectFromModel`] for given importances: keep `importance ≥
/// threshold`; with `max_features`, keep at most that many, the most important first (ties to
/// the lower index), as scikit-learn. With `threshold = None` the threshold is `Mean` without
/// `max_features` and `−∞` with it.
///
/// ```
/// use ndlearn_core::feature_selection::{Threshold, select_by_importance};
///
/// // Lasso-style: keep the non-zero coefficients.
/// let (mask, t) = select_by_importance(&[0.0, 1.2, 0.0, 0.4], Some(Threshold::Value(1e-5)), None)?;
/// assert_eq!(mask, vec![false, true, false, true]);
/// assert_eq!(t, 1e-5);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// `max_features > d`; an invalid threshold; non-finite importances.
pub fn select_by_importance(
    importances: &[f64],
    threshold: Option<Threshold>,
    max_features: Option<usize>,
) -> Result<(Vec<bool>, f64)> {
    let d = importances.len();
    if let Some(j) = importances.iter().position(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "feature_importances",
            format!(
                "importance {j} is {}; importances must be finite",
                importances[j]
            ),
        ));
    }
    let t = match (threshold, max_features) {
        (Some(t), _) => t.resolve(importances)?,
        (None, Some(_)) => f64::NEG_INFINITY,
        (None, None) => Threshold::Mean.resolve(importances)?,
    };
    let mut mask = match max_features {
        Some(m) => {
            if m > d {
                return Err(Error::invalid_param(
                    "max_features",
                    format!("must be <= n_features = {d}, got {m}"),
                ));
            }
            let mut order: Vec<usize> = (0..d).collect();
            order.sort_by(|&a, &b| importances[b].total_cmp(&importances[a]));
            let mut mask = vec![false; d];
            for &j in order.iter().take(m) {
                mask[j] = true;
            }
            mask
        }
        None => vec![true; d],
    };
    for (m, &v) in mask.iter_mut().zip(importances) {
        if v < t {
            *m = false;
        }
    }
    Ok((mask, t))
}

/// Fits an estimator and keeps the features whose importance
/// ([`FeatureImportances::feature_importances`], e.g. `|w_j|` of a lasso) reaches a threshold.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `estimator` | — | `estimator` | any estimator whose model implements [`FeatureImportances`] |
/// | `threshold` | `None` (= `Mean`, or `−∞` with `max_features`) | `threshold` | see [`Threshold`] |
/// | `max_features` | `None` | `max_features` | keep at most this many (most important first) |
///
/// scikit-learn's automatic `1e-5` threshold for L1-penalised estimators cannot be detected
/// from the trait: pass `Threshold::Value(1e-5)` for a lasso.
///
/// ```
/// # use ndlearn_core::ndarray::{Array1, ArrayRef1, ArrayRef2};
/// # use ndlearn_core::{FeatureImportances, Fit, Result};
/// # // Importance of feature j = |correlation-like slope| Σ x_ij y_i (a stand-in for a lasso).
/// # struct Slopes;
/// # struct FittedSlopes(Array1<f64>);
/// # impl Fit<f64> for Slopes {
/// #     type Target = ArrayRef1<f64>;
/// #     type Model = FittedSlopes;
/// #     fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedSlopes> {
/// #         Ok(FittedSlopes(x.t().dot(y).mapv(f64::abs)))
/// #     }
/// # }
/// # impl FeatureImportances<f64> for FittedSlopes {
/// #     fn feature_importances(&self) -> Array1<f64> { self.0.clone() }
/// # }
/// use ndlearn_core::feature_selection::{SelectFromModel, Threshold};
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::Transform;
///
/// let x = array![[1.0, 0.1, -1.0], [-1.0, 0.0, 1.0], [2.0, -0.1, -2.0]];
/// let y = array![1.0, -1.0, 2.0];
/// let sel = SelectFromModel::new(Slopes).threshold(Some(Threshold::Mean)).fit(&x, &y)?;
/// assert_eq!(sel.support(), &[true, false, true]);
/// assert_eq!(sel.transform(&x)?.ncols(), 2);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SelectFromModel<E> {
    /// The estimator to fit.
    pub estimator: E,
    /// The importance threshold.
    pub threshold: Option<Threshold>,
    /// The maximum number of features to keep.
    pub max_features: Option<usize>,
}

impl<E> SelectFromModel<E> {
    /// Selection from `estimator` with the default threshold (the mean importance).
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            threshold: None,
            max_features: None,
        }
    }
    crate::setters! {
        /// Sets [`SelectFromModel::threshold`].
        threshold: Option<Threshold>,
        /// Sets [`SelectFromModel::max_features`].
        max_features: Option<usize>,
    }
}

/// A fitted [`SelectFromModel`]: the fitted estimator, its importances, the threshold used and
/// the support mask.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSelectFromModel<F: Float, M> {
    model: M,
    importances: Array1<F>,
    threshold: f64,
    support: Vec<bool>,
}

impl<F: Float, M> FittedSelectFromModel<F, M> {
    /// The estimator fitted on all features.
    pub fn estimator(&self) -> &M {
        &self.model
    }
    /// The importance of every input feature.
    pub fn importances(&self) -> &Array1<F> {
        &self.importances
    }
    /// The numeric threshold that was applied (`−∞` when only `max_features` selects).
    pub fn threshold(&self) -> f64 {
        self.threshold
    }
    /// `support()[j]` is true for the kept features.
    pub fn support(&self) -> &[bool] {
        &self.support
    }
    /// The kept feature indices, ascending.
    pub fn selected_features(&self) -> Vec<usize> {
        (0..self.support.len())
            .filter(|&j| self.support[j])
            .collect()
    }
}

impl<F, E> Fit<F> for SelectFromModel<E>
where
    F: Float,
    E: Fit<F>,
    E::Model: FeatureImportances<F>,
{
    type Target = E::Target;
    type Model = FittedSelectFromModel<F, E::Model>;

    fn fit(&self, x: &ArrayRef2<F>, y: &E::Target) -> Result<Self::Model> {
        let model = self.estimator.fit(x, y)?;
        let importances = model.feature_importances();
        super::check_importances_len(importances.len(), x.ncols())?;
        let imp: Vec<f64> = importances.iter().map(|v| v.to_f64_lossless()).collect();
        let (support, threshold) = select_by_importance(&imp, self.threshold, self.max_features)?;
        Ok(FittedSelectFromModel {
            model,
            importances,
            threshold,
            support,
        })
    }
}

impl<F: Float, M> Transform<F> for FittedSelectFromModel<F, M> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_transform_input(x, self.support.len())?;
        Ok(select_columns(x, &self.support))
    }
}

impl<F: Float, M> InverseTransform<F> for FittedSelectFromModel<F, M> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        inverse_select_columns(z, &self.support)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_as_sklearn() {
        let imp = [0.1, 0.5, 0.0, 0.3, 0.5];
        // Mean 0.28: keep 0.5, 0.3, 0.5.
        let (m, t) = select_by_importance(&imp, None, None).expect("ok");
        assert_eq!(m, vec![false, true, false, true, true]);
        assert!((t - 0.28).abs() < 1e-15);
        // Median 0.3 (kept: ≥).
        let (m, _) = select_by_importance(&imp, Some(Threshold::Median), None).expect("ok");
        assert_eq!(m, vec![false, true, false, true, true]);
        // 0.5 × median = 0.15 drops 0.1; 0.3 × median = 0.09 keeps it.
        let (m, _) =
            select_by_importance(&imp, Some(Threshold::ScaledMedian(0.5)), None).expect("ok");
        assert_eq!(m, vec![false, true, false, true, true]);
        let (m, _) =
            select_by_importance(&imp, Some(Threshold::ScaledMedian(0.3)), None).expect("ok");
        assert_eq!(m, vec![true, true, false, true, true]);
        let (m, _) = select_by_importance(&imp, Some(Threshold::Value(1e-5)), None).expect("ok");
        assert_eq!(m, vec![true, true, false, true, true]);
        // max_features alone: the top 2, ties (0.5, 0.5) to the lower index first.
        let (m, t) = select_by_importance(&imp, None, Some(2)).expect("ok");
        assert_eq!(m, vec![false, true, false, false, true]);
        assert_eq!(t, f64::NEG_INFINITY);
        let (m, _) = select_by_importance(&imp, None, Some(1)).expect("ok");
        assert_eq!(m, vec![false, true, false, false, false]);
        // Both: top 3 (1, 4, 3) then ≥ 0.4.
        let (m, _) = select_by_importance(&imp, Some(Threshold::Value(0.4)), Some(3)).expect("ok");
        assert_eq!(m, vec![false, true, false, false, true]);
        assert!(select_by_importance(&imp, None, Some(6)).is_err());
        assert!(select_by_importance(&[f64::NAN], None, None).is_err());
        assert!(select_by_importance(&imp, Some(Threshold::Value(f64::NAN)), None).is_err());
        assert!(select_by_importance(&[], Some(Threshold::Mean), None).is_err());
    }
}
