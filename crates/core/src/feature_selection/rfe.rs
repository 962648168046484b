//! Recursive feature elimination (scikit-learn's `RFE`; the course notes' SVM-RFE, "repetitively
//! training a linear SVM and removing the variables with lowest weights", after Guyon, Weston,
//! Barnhill & Vapnik, "Gene selection for cancer classification using support vector
//! machines", Machine Learning 46, 2002; catalog M-08 / S-07).

use ndarray::{Array1, Array2, ArrayRef2};

use super::{check_importances_len, check_transform_input, inverse_select_columns, select_columns};
use crate::{Error, FeatureImportances, Fit, Float, InverseTransform, Predict, Result, Transform};

/// How many features one round of [`Rfe`] removes.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Step {
    /// A fixed number per round (`≥ 1`).
    Count(usize),
    /// A fraction in `(0, 1)` of the **original** number of features, rounded down, at least
    /// 1 (scikit-learn's float `step`).
    Fraction(f64),
}

impl Default for Step {
    fn default() -> Self {
        Step::Count(1)
    }
}

/// Recursive feature elimination: fit the estimator on the remaining features, drop the `step`
/// least important ([`FeatureImportances`]), repeat until `n_features_to_select` remain; then fit
/// once more on those.
///
/// With a linear SVM as the estimator this is SVM-RFE (Guyon et al. 2002), the course notes'
/// "SVMs can be used for feature selection".
///
/// **Ranking** as scikit-learn's `ranking_`: the selected features have rank 1, the features
/// removed in the last round rank 2, the round before 3, and so on. Within a round the least
/// important features go first; equal importances go to the lower index first (scikit-learn's
/// unstable argsort leaves that open).
///
/// scikit-learn ranks by the squared coefficients for linear models (summed over classes);
/// for one output that is the same order as `|w_j|`, which [`FeatureImportances`] gives. For
/// multi-class linear models the trait's `Σ_k |w_kj|` can order features differently from
/// `Σ_k w_kj²`.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `estimator` | — | `estimator` | its model must implement [`FeatureImportances`] |
/// | `n_features_to_select` | `None` (= `⌊D/2⌋`, at least 1) | `n_features_to_select` | features to keep |
/// | `step` | `Count(1)` | `step` | features removed per round |
///
/// The fitted model also predicts ([`Predict`]) with the final estimator on the selected
/// columns, as scikit-learn's `RFE.predict`. Cost: `⌈(D − k)/step⌉ + 1` fits.
///
/// ```
/// # use ndlearn_core::ndarray::{Array1, ArrayRef1, ArrayRef2};
/// # use ndlearn_core::{FeatureImportances, Fit, Result};
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
/// use ndlearn_core::feature_selection::Rfe;
/// use ndlearn_core::ndarray::array;
///
/// // Importances |Xᵀy| = 6, 0.1, 3, 1: eliminated 1, then 3, then 2.
/// let x = array![[1.0, 0.1, 1.0, 0.5], [-1.0, 0.0, -0.5, 0.0], [2.0, -0.1, 0.75, 0.25]];
/// let y = array![1.0, -1.0, 2.0];
/// let rfe = Rfe::new(Slopes).n_features_to_select(Some(1)).fit(&x, &y)?;
/// assert_eq!(rfe.ranking(), &[1, 4, 2, 3]);
/// assert_eq!(rfe.selected_features(), vec![0]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Rfe<E> {
    /// The estimator refitted in every round.
    pub estimator: E,
    /// Number of features to keep (`None`: half).
    pub n_features_to_select: Option<usize>,
    /// Features removed per round.
    pub step: Step,
}

impl<E> Rfe<E> {
    /// RFE with `estimator`, keeping half of the features, one removed per round.
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            n_features_to_select: None,
            step: Step::default(),
        }
    }
    crate::setters! {
        /// Sets [`Rfe::n_features_to_select`].
        n_features_to_select: Option<usize>,
        /// Sets [`Rfe::step`].
        step: Step,
    }

    /// The number of features to keep and to remove per round, for `d` input features.
    fn resolve(&self, d: usize) -> Result<(usize, usize)> {
        let k = self.n_features_to_select.unwrap_or((d / 2).max(1));
        if k == 0 || k > d {
            return Err(Error::invalid_param(
                "n_features_to_select",
                format!("must lie in 1..={d}, got {k}"),
            ));
        }
        let step = match self.step {
            Step::Count(s) if s >= 1 => s,
            Step::Fraction(f) if f > 0.0 && f < 1.0 => ((f * d as f64) as usize).max(1),
            other => {
                return Err(Error::invalid_param(
                    "step",
                    format!("must be Count(n >= 1) or Fraction(f in (0, 1)), got {other:?}"),
                ));
            }
        };
        Ok((k, step))
    }
}

/// A fitted [`Rfe`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRfe<F: Float, M> {
    model: M,
    support: Vec<bool>,
    ranking: Vec<usize>,
    #[cfg_attr(feature = "serde", serde(skip))]
    _marker: std::marker::PhantomData<F>,
}

impl<F: Float, M> FittedRfe<F, M> {
    /// The estimator fitted on the selected features.
    pub fn estimator(&self) -> &M {
        &self.model
    }
    /// `support()[j]` is true for the selected features.
    pub fn support(&self) -> &[bool] {
        &self.support
    }
    /// Rank of every input feature (1 = selected; larger = eliminated earlier).
    pub fn ranking(&self) -> &[usize] {
        &self.ranking
    }
    /// The selected feature indices, ascending.
    pub fn selected_features(&self) -> Vec<usize> {
        (0..self.support.len())
            .filter(|&j| self.support[j])
            .collect()
    }
}

impl<F, E> Fit<F> for Rfe<E>
where
    F: Float,
    E: Fit<F>,
    E::Model: FeatureImportances<F>,
{
    type Target = E::Target;
    type Model = FittedRfe<F, E::Model>;

    fn fit(&self, x: &ArrayRef2<F>, y: &E::Target) -> Result<Self::Model> {
        let d = x.ncols();
        if d == 0 {
            return Err(Error::ShapeMismatch {
                context: "Rfe::fit",
                expected: "at least one feature column".into(),
                found: "0 columns".into(),
            });
        }
        let (k, step) = self.resolve(d)?;
        let mut support = vec![true; d];
        let mut ranking = vec![1usize; d];
        let mut remaining: Vec<usize> = (0..d).collect();
        while remaining.len() > k {
            let model = self.estimator.fit(&select_by_index(x, &remaining), y)?;
            let imp: Array1<F> = model.feature_importances();
            check_importances_len(imp.len(), remaining.len())?;
            if let Some(p) = imp.iter().position(|v| !v.is_finite()) {
                return Err(Error::invalid_param(
                    "feature_importances",
                    format!("importance of feature {} is not finite", remaining[p]),
                ));
            }
            let mut order: Vec<usize> = (0..remaining.len()).collect();
            order.sort_by(|&a, &b| {
                imp[a]
                    .partial_cmp(&imp[b])
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            let n_drop = step.min(remaining.len() - k);
            for &p in &order[..n_drop] {
                support[remaining[p]] = false;
            }
            for (r, s) in ranking.iter_mut().zip(&support) {
                if !s {
                    *r += 1;
                }
            }
            remaining.retain(|&j| support[j]);
        }
        let model = self.estimator.fit(&select_by_index(x, &remaining), y)?;
        Ok(FittedRfe {
            model,
            support,
            ranking,
            _marker: std::marker::PhantomData,
        })
    }
}

fn select_by_index<F: Float>(x: &ArrayRef2<F>, cols: &[usize]) -> Array2<F> {
    x.select(ndarray::Axis(1), cols)
}

impl<F: Float, M> Transform<F> for FittedRfe<F, M> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_transform_input(x, self.support.len())?;
        Ok(select_columns(x, &self.support))
    }
}

impl<F: Float, M> InverseTransform<F> for FittedRfe<F, M> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        inverse_select_columns(z, &self.support)
    }
}

impl<F: Float, M: Predict<F>> Predict<F> for FittedRfe<F, M> {
    type Output = M::Output;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<M::Output> {
        self.model.predict(&self.transform(x)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayRef1, array};

    /// Importances given per original column (looked up through a marker row 0 that holds the
    /// column's original index), so the elimination can be followed by hand.
    struct ByColumn(Vec<f64>);
    struct Fitted(Array1<f64>);
    impl Fit<f64> for ByColumn {
        type Target = ArrayRef1<f64>;
        type Model = Fitted;
        fn fit(&self, x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<Fitted> {
            Ok(Fitted(x.row(0).mapv(|j| self.0[j as usize])))
        }
    }
    impl FeatureImportances<f64> for Fitted {
        fn feature_importances(&self) -> Array1<f64> {
            self.0.clone()
        }
    }
    impl Predict<f64> for Fitted {
        type Output = Array1<f64>;
        fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
            Ok(x.sum_axis(ndarray::Axis(1)))
        }
    }

    fn marker(d: usize) -> Array2<f64> {
        Array2::from_shape_fn((2, d), |(i, j)| if i == 0 { j as f64 } else { 1.0 })
    }

    #[test]
    fn ranking_by_hand() {
        let imp = vec![0.5, 0.1, 0.9, 0.3, 0.7, 0.2];
        let x = marker(6);
        let y = array![0.0, 0.0];
        // Step 1 down to 2: removes 1, 5, 3, 0 in that order.
        let r = Rfe::new(ByColumn(imp.clone()))
            .n_features_to_select(Some(2))
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(r.ranking(), &[2, 5, 1, 3, 1, 4]);
        assert_eq!(r.selected_features(), vec![2, 4]);
        // Step 3 down to 2: round 1 removes {1, 5, 3} (rank 3), round 2 removes {0} (rank 2).
        let r = Rfe::new(ByColumn(imp.clone()))
            .n_features_to_select(Some(2))
            .step(Step::Count(3))
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(r.ranking(), &[2, 3, 1, 3, 1, 3]);
        // Fraction 0.34 of 6 = 2 per round, default keeps half (3): round 1 removes {1, 5},
        // round 2 only {3} (one too many otherwise).
        let r = Rfe::new(ByColumn(imp.clone()))
            .step(Step::Fraction(0.34))
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(r.ranking(), &[1, 3, 1, 2, 1, 3]);
        // Transform / predict on the selected columns.
        assert_eq!(
            r.transform(&x).expect("ok"),
            array![[0.0, 2.0, 4.0], [1.0, 1.0, 1.0]]
        );
        assert_eq!(r.predict(&x).expect("ok"), array![6.0, 3.0]);
        assert_eq!(
            r.inverse_transform(&r.transform(&x).expect("ok"))
                .expect("ok")
                .ncols(),
            6
        );
        // Nothing to eliminate.
        let r = Rfe::new(ByColumn(imp))
            .n_features_to_select(Some(6))
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(r.ranking(), &[1; 6]);
    }

    #[test]
    fn errors() {
        let x = marker(4);
        let y = array![0.0, 0.0];
        let e = || Rfe::new(ByColumn(vec![1.0; 4]));
        assert!(e().n_features_to_select(Some(0)).fit(&x, &y).is_err());
        assert!(e().n_features_to_select(Some(5)).fit(&x, &y).is_err());
        assert!(e().step(Step::Count(0)).fit(&x, &y).is_err());
        assert!(e().step(Step::Fraction(1.0)).fit(&x, &y).is_err());
        assert!(Rfe::new(ByColumn(vec![f64::NAN; 4])).fit(&x, &y).is_err());
        let r = e().fit(&x, &y).expect("ok");
        assert!(r.transform(&marker(3)).is_err());
        // Ties: equal importances go to the lower index first.
        assert_eq!(r.ranking(), &[3, 2, 1, 1]);
    }
}
