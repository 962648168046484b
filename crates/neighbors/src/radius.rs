//! Fixed-radius neighbour classification and regression ([`RadiusNeighborsClassifier`],
//! [`RadiusNeighborsRegressor`]).
//!
//! The neighbours of a query `x` are **all** training rows with `d(x, x_i) ≤ r`; they vote or
//! average exactly as in [`crate::knn`] (uniform or `1/d` weights; zero distances take all the
//! weight). A query with no training row within the radius is an *outlier*:
//!
//! * the classifier gives it [`OutlierLabel`] (an error by default, as scikit-learn's
//!   `outlier_label=None`; or the most frequent training class; or a fixed class), with a
//!   one-hot probability row for that class;
//! * the regressor gives it `outlier_value` when set, and an error otherwise (scikit-learn
//!   returns NaN with a warning; silent NaN is not an ndlearn answer).
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_neighbors::{OutlierLabel, RadiusNeighborsClassifier, RadiusNeighborsRegressor};
//!
//! let x = array![[0.0], [0.5], [1.0], [10.0], [10.5]];
//! let y = array![0usize, 0, 1, 1, 1];
//! let clf = RadiusNeighborsClassifier::new(1.0)
//!     .outlier_label(OutlierLabel::MostFrequent)
//!     .fit(&x, &y)?;
//! assert_eq!(clf.predict(&array![[0.2], [10.2], [50.0]])?.to_vec(), vec![0, 1, 1]);
//!
//! let t = array![1.0, 2.0, 3.0, 4.0, 5.0];
//! let reg = RadiusNeighborsRegressor::new(0.6).fit(&x, &t)?;
//! assert_eq!(reg.predict(&array![[0.25]])?[0], 1.5);
//! assert!(reg.predict(&array![[5.0]]).is_err()); // no neighbour and no outlier_value
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, DEFAULT_LEAF_SIZE, RadiusNeighbors};
use ndlearn_core::validate::{
    ModelCheck, check_classification_input, check_finite_2d, check_regression_input,
    check_target_len,
};
use ndlearn_core::{
    CheckModel, Error, Estimator, Fit, Float, Labels, Predict, PredictProba, Result,
};

use crate::common::{
    StoredIndex, Weights, argmax, check_class_labels, check_radius, check_search, check_targets,
    search_builders, vote_into,
};
use crate::knn::average;

/// What [`RadiusNeighborsClassifier`] predicts for a query with no training row within the
/// radius.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum OutlierLabel {
    /// An error naming the query row (scikit-learn's `outlier_label=None`).
    #[default]
    None,
    /// The most frequent training class (ties to the lowest class).
    MostFrequent,
    /// This class (must be one of the training classes `0..n_classes`).
    Class(usize),
}

fn no_neighbour(row: usize, r: f64, hint: &str) -> Error {
    Error::invalid_param(
        "radius",
        format!("query row {row} has no training point within radius {r}; {hint}"),
    )
}

/// Fixed-radius neighbour classifier (scikit-learn's `RadiusNeighborsClassifier`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RadiusNeighborsClassifier {
    /// The radius `r ≥ 0` (default 1.0); neighbours satisfy `d ≤ r`.
    pub radius: f64,
    /// Neighbour weights (default uniform).
    pub weights: Weights,
    /// Search algorithm (default auto).
    pub algorithm: Algorithm,
    /// Tree leaf size (default 30).
    pub leaf_size: usize,
    /// Distance (default Euclidean).
    pub metric: Metric,
    /// The answer for queries without neighbours (default: an error).
    pub outlier_label: OutlierLabel,
}

impl Default for RadiusNeighborsClassifier {
    fn default() -> Self {
        Self::new(1.0)
    }
}

impl RadiusNeighborsClassifier {
    /// A classifier with radius `r`, other settings default.
    pub fn new(r: f64) -> Self {
        Self {
            radius: r,
            weights: Weights::Uniform,
            algorithm: Algorithm::Auto,
            leaf_size: DEFAULT_LEAF_SIZE,
            metric: Metric::Euclidean,
            outlier_label: OutlierLabel::None,
        }
    }
    ndlearn_core::setters! {
        /// Sets the radius `r`.
        radius: f64,
    }
    search_builders!();
    ndlearn_core::setters! {
        /// Sets the outlier label.
        outlier_label: OutlierLabel,
    }
}

impl Estimator for RadiusNeighborsClassifier {
    /// Checks the radius (finite, `≥ 0`), `leaf_size ≥ 1` and the metric.
    fn validate(&self) -> Result<()> {
        check_radius(self.radius)?;
        check_search(&self.metric, self.leaf_size)
    }
}

impl<F: Float> Fit<F> for RadiusNeighborsClassifier {
    type Target = Labels;
    type Model = FittedRadiusNeighborsClassifier<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 1, "RadiusNeighborsClassifier::fit")?;
        let outlier = match self.outlier_label {
            OutlierLabel::None => None,
            OutlierLabel::MostFrequent => {
                let mut counts = vec![0usize; n_classes];
                for &c in y.iter() {
                    counts[c] += 1;
                }
                Some(argmax(counts.iter().map(|&c| c as f64)))
            }
            OutlierLabel::Class(c) if c < n_classes => Some(c),
            OutlierLabel::Class(c) => {
                return Err(Error::invalid_param(
                    "outlier_label",
                    format!("class {c} is not a training class (0..{n_classes})"),
                ));
            }
        };
        let index = StoredIndex::build(x, &self.metric, self.algorithm, self.leaf_size)?;
        Ok(FittedRadiusNeighborsClassifier {
            params: self.clone(),
            index,
            labels: y.to_owned(),
            n_classes,
            outlier,
        })
    }
}

/// A fitted [`RadiusNeighborsClassifier`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRadiusNeighborsClassifier<F: Float> {
    params: RadiusNeighborsClassifier,
    index: StoredIndex<F>,
    labels: Array1<usize>,
    n_classes: usize,
    outlier: Option<usize>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedRadiusNeighborsClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.index.n_features()
    }
}

impl<F: Float> FittedRadiusNeighborsClassifier<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &RadiusNeighborsClassifier {
        &self.params
    }
    /// Number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// The class given to queries without neighbours, if any.
    pub fn outlier_class(&self) -> Option<usize> {
        self.outlier
    }

    /// Every training row within `r` (`radius` when `None`) of each query: sorted
    /// `(distances, indices)`, ties by lower index.
    ///
    /// # Errors
    /// As [`Predict::predict`], and a negative radius.
    pub fn radius_neighbors(
        &self,
        x: &ArrayRef2<F>,
        r: Option<f64>,
    ) -> Result<Vec<RadiusNeighbors<F>>> {
        let r = r.unwrap_or(self.params.radius);
        self.index
            .radius_neighbors(x, r, "RadiusNeighborsClassifier: number of features")
    }
}

impl<F: Float> PredictProba<F> for FittedRadiusNeighborsClassifier<F> {
    /// The (weighted) share of each class among the neighbours; one-hot of the outlier class
    /// for a query without neighbours.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let lists = self.radius_neighbors(x, None)?;
        let mut p = Array2::zeros((lists.len(), self.n_classes));
        let mut w = Vec::new();
        for (row, ((d, i), mut out)) in lists.iter().zip(p.rows_mut()).enumerate() {
            if i.is_empty() {
                match self.outlier {
                    Some(c) => out[c] = F::one(),
                    None => {
                        return Err(no_neighbour(
                            row,
                            self.params.radius,
                            "set outlier_label or a larger radius",
                        ));
                    }
                }
                continue;
            }
            vote_into(out, d, i, &self.labels, self.params.weights, &mut w);
        }
        Ok(p)
    }
}

impl<F: Float> Predict<F> for FittedRadiusNeighborsClassifier<F> {
    type Output = Array1<usize>;

    /// The class with the largest (weighted) vote, ties to the lowest class; the outlier class
    /// for queries without neighbours.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let p = self.predict_proba(x)?;
        Ok(p.rows()
            .into_iter()
            .map(|r| argmax(r.iter().copied()))
            .collect())
    }
}

impl<F: Float> CheckModel for FittedRadiusNeighborsClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRadiusNeighborsClassifier");
        let p = &self.params;
        self.index
            .check(&c, p, (&p.metric, p.algorithm, p.leaf_size))?;
        check_class_labels(&c, &self.labels, self.index.n_samples(), self.n_classes)?;
        c.indices_below("outlier", &self.outlier, self.n_classes)?;
        let agrees = match p.outlier_label {
            OutlierLabel::None => self.outlier.is_none(),
            OutlierLabel::MostFrequent => self.outlier.is_some(),
            OutlierLabel::Class(k) => self.outlier == Some(k),
        };
        c.that(agrees, || "`outlier` differs from `outlier_label`".into())
    }
}

/// Fixed-radius neighbour regressor (scikit-learn's `RadiusNeighborsRegressor`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RadiusNeighborsRegressor {
    /// The radius `r ≥ 0` (default 1.0).
    pub radius: f64,
    /// Neighbour weights (default uniform).
    pub weights: Weights,
    /// Search algorithm (default auto).
    pub algorithm: Algorithm,
    /// Tree leaf size (default 30).
    pub leaf_size: usize,
    /// Distance (default Euclidean).
    pub metric: Metric,
    /// The prediction for queries without neighbours (default `None`: an error).
    pub outlier_value: Option<f64>,
}

impl Default for RadiusNeighborsRegressor {
    fn default() -> Self {
        Self::new(1.0)
    }
}

impl RadiusNeighborsRegressor {
    /// A regressor with radius `r`, other settings default.
    pub fn new(r: f64) -> Self {
        Self {
            radius: r,
            weights: Weights::Uniform,
            algorithm: Algorithm::Auto,
            leaf_size: DEFAULT_LEAF_SIZE,
            metric: Metric::Euclidean,
            outlier_value: None,
        }
    }
    ndlearn_core::setters! {
        /// Sets the radius `r`.
        radius: f64,
    }
    search_builders!();
    ndlearn_core::setters! {
        /// Sets the prediction for queries without neighbours.
        outlier_value: Option<f64>,
    }

    /// Fits a multi-output regressor (`y`: `n × m`).
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedRadiusNeighborsRegressor<F>> {
        check_target_len(x.nrows(), y.nrows(), "RadiusNeighborsRegressor::fit")?;
        check_finite_2d(y, "RadiusNeighborsRegressor target")?;
        if y.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: "RadiusNeighborsRegressor::fit",
                expected: "at least one target column".into(),
                found: "0 columns".into(),
            });
        }
        self.fit_targets(x, y.to_owned())
    }

    fn fit_targets<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        targets: Array2<F>,
    ) -> Result<FittedRadiusNeighborsRegressor<F>> {
        check_radius(self.radius)?;
        check_search(&self.metric, self.leaf_size)?;
        if let Some(v) = self.outlier_value
            && !v.is_finite()
        {
            return Err(Error::invalid_param("outlier_value", "must be finite"));
        }
        ndlearn_core::validate::check_fit_input(x, 1, "RadiusNeighborsRegressor::fit")?;
        let index = StoredIndex::build(x, &self.metric, self.algorithm, self.leaf_size)?;
        Ok(FittedRadiusNeighborsRegressor {
            params: self.clone(),
            index,
            targets,
        })
    }
}

impl Estimator for RadiusNeighborsRegressor {
    /// Checks the radius (finite, `≥ 0`), `leaf_size ≥ 1`, the metric and a finite
    /// `outlier_value`.
    fn validate(&self) -> Result<()> {
        check_radius(self.radius)?;
        check_search(&self.metric, self.leaf_size)?;
        if let Some(v) = self.outlier_value
            && !v.is_finite()
        {
            return Err(Error::invalid_param("outlier_value", "must be finite"));
        }
        Ok(())
    }
}

impl<F: Float> Fit<F> for RadiusNeighborsRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedRadiusNeighborsRegressor<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        check_regression_input(x, y, 1, "RadiusNeighborsRegressor::fit")?;
        self.fit_targets(x, y.to_owned().insert_axis(Axis(1)))
    }
}

/// A fitted [`RadiusNeighborsRegressor`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRadiusNeighborsRegressor<F: Float> {
    params: RadiusNeighborsRegressor,
    index: StoredIndex<F>,
    targets: Array2<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedRadiusNeighborsRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.index.n_features()
    }
}

impl<F: Float> FittedRadiusNeighborsRegressor<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &RadiusNeighborsRegressor {
        &self.params
    }

    /// Every training row within `r` (`radius` when `None`) of each query.
    ///
    /// # Errors
    /// As [`Predict::predict`], and a negative radius.
    pub fn radius_neighbors(
        &self,
        x: &ArrayRef2<F>,
        r: Option<f64>,
    ) -> Result<Vec<RadiusNeighbors<F>>> {
        let r = r.unwrap_or(self.params.radius);
        self.index
            .radius_neighbors(x, r, "RadiusNeighborsRegressor: number of features")
    }

    /// Predictions for every output, `n × m`.
    ///
    /// # Errors
    /// As [`Predict::predict`]; a query without neighbours when `outlier_value` is not set.
    pub fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let lists = self.radius_neighbors(x, None)?;
        let outliers: Vec<usize> = lists
            .iter()
            .enumerate()
            .filter(|(_, (_, i))| i.is_empty())
            .map(|(r, _)| r)
            .collect();
        if let (Some(&row), None) = (outliers.first(), self.params.outlier_value) {
            return Err(no_neighbour(
                row,
                self.params.radius,
                "set outlier_value or a larger radius",
            ));
        }
        let n = lists.len();
        let mut out = average(
            lists.into_iter().map(|(d, i)| {
                if i.is_empty() {
                    // a placeholder neighbour, overwritten below
                    (vec![F::one()], vec![0])
                } else {
                    (d, i)
                }
            }),
            &self.targets,
            self.params.weights,
            n,
        );
        if let Some(v) = self.params.outlier_value {
            for r in outliers {
                out.row_mut(r).fill(F::cast(v));
            }
        }
        Ok(out)
    }
}

impl<F: Float> Predict<F> for FittedRadiusNeighborsRegressor<F> {
    type Output = Array1<F>;

    /// The (weighted) mean target of the neighbours (first output of a multi-output fit).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        Ok(self.predict_multi(x)?.column(0).to_owned())
    }
}

impl<F: Float> CheckModel for FittedRadiusNeighborsRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRadiusNeighborsRegressor");
        let p = &self.params;
        self.index
            .check(&c, p, (&p.metric, p.algorithm, p.leaf_size))?;
        check_targets(&c, &self.targets, self.index.n_samples())
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0], [0.5], [1.0], [10.0], [10.5]];
        let mut clf = RadiusNeighborsClassifier::new(1.0)
            .outlier_label(OutlierLabel::MostFrequent)
            .fit(&x, &array![0usize, 0, 1, 1, 1])
            .expect("fit");
        assert!(clf.check_model().is_ok());
        clf.outlier = Some(2); // predict_proba would write past the class columns
        assert!(matches!(clf.check_model(), Err(Error::InvalidModel { .. })));
        let mut reg = RadiusNeighborsRegressor::new(0.6)
            .fit(&x, &array![1.0, 2.0, 3.0, 4.0, 5.0])
            .expect("fit");
        assert!(reg.check_model().is_ok());
        reg.targets = Array2::zeros((5, 0)); // predict takes column 0
        assert!(matches!(reg.check_model(), Err(Error::InvalidModel { .. })));
    }
}
