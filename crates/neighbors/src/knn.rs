//! k-nearest-neighbour classification and regression ([`KNeighborsClassifier`],
//! [`KNeighborsRegressor`]) and the course notes' 1-NN interpolation
//! ([`NearestNeighborInterpolator`]).
//!
//! # Method
//!
//! Fitting stores the training rows in an exact neighbour index
//! ([`ndlearn_core::neighbors::NeighborIndex`]: brute force, k-d tree or ball tree, any
//! [`Metric`]). For a query `x` let `N_k(x)` be its `k` nearest training rows and `w_i` their
//! [`Weights`] (1, or `1/d(x, x_i)`; neighbours at distance 0 take all the weight).
//!
//! * classification: `p(c | x) = Σ_{i ∈ N_k(x), y_i = c} w_i / Σ_{i ∈ N_k(x)} w_i`, and the
//!   prediction is the most probable class, **ties to the lowest class index** (as
//!   scikit-learn's mode);
//! * regression: `ŷ(x) = Σ w_i y_i / Σ w_i` (the plain mean of the neighbours' targets for
//!   uniform weights), per output column.
//!
//! The course notes keep the `k` smallest distances in a max-heap (k-NN: Cover & Hart, "Nearest
//! neighbor pattern classification", IEEE Trans. Information Theory 13(1), 1967); the index
//! does the same inside its trees and pre-selects with a fused SIMD score kernel for
//! brute-force Euclidean and cosine search.
//!
//! **Neighbour ties.** When several training rows are at the same distance as the `k`-th
//! neighbour, the ones with the **lower training index** are used (the index's documented
//! order); scikit-learn leaves that choice unspecified, so on such queries the two libraries
//! may legitimately differ.
//!
//! **Threads.** Queries run in parallel over fixed chunks of rows; results do not depend on the
//! thread count.
//!
//! **Errors.** `n_neighbors = 0` or larger than the number of training rows →
//! [`Error::InvalidParam`]; NaN/∞ → [`Error::NonFinite`]; a query width other than the
//! training width → [`Error::ShapeMismatch`].
//!
//! ```
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{Fit, Predict, PredictProba};
//! use ndlearn_neighbors::{KNeighborsClassifier, KNeighborsRegressor, Weights};
//!
//! let x = array![[0.0f64, 0.0], [0.0, 1.0], [1.0, 0.0], [5.0, 5.0], [5.0, 6.0], [6.0, 5.0]];
//! let y = array![0usize, 0, 0, 1, 1, 1];
//! let model = KNeighborsClassifier::new(3).fit(&x, &y)?;
//! assert_eq!(model.predict(&array![[0.2, 0.3], [5.5, 5.5]])?.to_vec(), vec![0, 1]);
//! let p = model.predict_proba(&array![[2.5, 2.5]])?;
//! assert!((p.sum() - 1.0).abs() < 1e-15);
//!
//! let t = array![1.0, 2.0, 3.0, 10.0, 11.0, 12.0];
//! let reg = KNeighborsRegressor::new(2).weights(Weights::Distance).fit(&x, &t)?;
//! let v = reg.predict(&array![[0.0, 0.0]])?;
//! assert_eq!(v[0], 1.0); // a zero-distance neighbour takes all the weight
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayViewMut1, Axis};
use ndlearn_core::distance::Metric;
use ndlearn_core::neighbors::{Algorithm, DEFAULT_LEAF_SIZE, KNeighbors};
use ndlearn_core::validate::{
    ModelCheck, check_classification_input, check_finite_2d, check_regression_input,
    check_target_len,
};
use ndlearn_core::{
    CheckModel, Error, Estimator, Fit, Float, Labels, Predict, PredictProba, Result,
};

use crate::common::{
    StoredIndex, Weights, argmax, check_class_labels, check_k, check_search, check_targets,
    search_builders, vote_into, weights_into,
};

/// k-nearest-neighbour classifier (scikit-learn's `KNeighborsClassifier`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KNeighborsClassifier {
    /// Number of neighbours `k` (default 5).
    pub n_neighbors: usize,
    /// Neighbour weights (default uniform).
    pub weights: Weights,
    /// Search algorithm (default auto).
    pub algorithm: Algorithm,
    /// Tree leaf size (default 30).
    pub leaf_size: usize,
    /// Distance (default Euclidean).
    pub metric: Metric,
}

impl Default for KNeighborsClassifier {
    fn default() -> Self {
        Self::new(5)
    }
}

impl KNeighborsClassifier {
    /// A classifier with `k` neighbours, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_neighbors: k,
            weights: Weights::Uniform,
            algorithm: Algorithm::Auto,
            leaf_size: DEFAULT_LEAF_SIZE,
            metric: Metric::Euclidean,
        }
    }
    ndlearn_core::setters! {
        /// Sets the number of neighbours `k`.
        n_neighbors: usize,
    }
    search_builders!();
}

impl Estimator for KNeighborsClassifier {
    /// Checks `n_neighbors ≥ 1`, `leaf_size ≥ 1` and the metric (`n_neighbors ≤ n_samples` is
    /// checked at fit).
    fn validate(&self) -> Result<()> {
        check_search(&self.metric, self.leaf_size)?;
        ndlearn_core::validate::check_at_least("n_neighbors", self.n_neighbors, 1)
    }
}

impl<F: Float> Fit<F> for KNeighborsClassifier {
    type Target = Labels;
    type Model = FittedKNeighborsClassifier<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<Self::Model> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 1, "KNeighborsClassifier::fit")?;
        check_k(self.n_neighbors, x.nrows())?;
        let index = StoredIndex::build(x, &self.metric, self.algorithm, self.leaf_size)?;
        Ok(FittedKNeighborsClassifier {
            params: self.clone(),
            index,
            labels: y.to_owned(),
            n_classes,
        })
    }
}

/// A fitted [`KNeighborsClassifier`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKNeighborsClassifier<F: Float> {
    params: KNeighborsClassifier,
    index: StoredIndex<F>,
    labels: Array1<usize>,
    n_classes: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKNeighborsClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.index.n_features()
    }
}

impl<F: Float> FittedKNeighborsClassifier<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &KNeighborsClassifier {
        &self.params
    }
    /// Number of classes (largest label + 1).
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// Number of training rows.
    pub fn n_samples_fit(&self) -> usize {
        self.index.n_samples()
    }
    /// The training labels.
    pub fn labels(&self) -> &Array1<usize> {
        &self.labels
    }
    /// The training rows.
    pub fn training_data(&self) -> &Array2<F> {
        self.index.data()
    }
    /// The algorithm the index resolved to (never `Auto`).
    pub fn effective_algorithm(&self) -> Result<Algorithm> {
        Ok(self.index.index()?.algorithm())
    }

    /// The `k` nearest training rows of each query (`k = n_neighbors` when `None`):
    /// `(distances, indices)`, sorted, ties by lower training index.
    ///
    /// # Errors
    /// As [`Predict::predict`], and `k` outside `1..=n_samples_fit`.
    pub fn kneighbors(&self, x: &ArrayRef2<F>, k: Option<usize>) -> Result<KNeighbors<F>> {
        let k = k.unwrap_or(self.params.n_neighbors);
        self.index
            .kneighbors(x, k, "KNeighborsClassifier: number of features")
    }
}

impl<F: Float> Predict<F> for FittedKNeighborsClassifier<F> {
    type Output = Array1<usize>;

    /// The class with the largest (weighted) vote, ties to the lowest class.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        // one query's vote at a time: the output and one search block are all that is held
        let mut out = Array1::zeros(x.nrows());
        let mut votes = Array1::zeros(self.n_classes);
        let mut w = Vec::new();
        let how = self.params.weights;
        self.index.kneighbors_for_each(
            x,
            self.params.n_neighbors,
            "KNeighborsClassifier: number of features",
            |i, d, p| {
                votes.fill(F::zero());
                vote_into(votes.view_mut(), d, p, &self.labels, how, &mut w);
                out[i] = argmax(votes.iter().copied());
            },
        )?;
        Ok(out)
    }
}

impl<F: Float> PredictProba<F> for FittedKNeighborsClassifier<F> {
    /// The (weighted) share of each class among the `k` neighbours.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let mut out = Array2::zeros((x.nrows(), self.n_classes));
        let mut w = Vec::new();
        let how = self.params.weights;
        self.index.kneighbors_for_each(
            x,
            self.params.n_neighbors,
            "KNeighborsClassifier: number of features",
            |i, d, p| vote_into(out.row_mut(i), d, p, &self.labels, how, &mut w),
        )?;
        Ok(out)
    }
}

impl<F: Float> CheckModel for FittedKNeighborsClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKNeighborsClassifier");
        let p = &self.params;
        self.index
            .check(&c, p, (&p.metric, p.algorithm, p.leaf_size))?;
        let n = self.index.n_samples();
        c.that(p.n_neighbors <= n, || {
            format!(
                "`n_neighbors` {} exceeds the {n} training rows",
                p.n_neighbors
            )
        })?;
        check_class_labels(&c, &self.labels, n, self.n_classes)
    }
}

/// k-nearest-neighbour regressor (scikit-learn's `KNeighborsRegressor`), one or several
/// outputs. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KNeighborsRegressor {
    /// Number of neighbours `k` (default 5).
    pub n_neighbors: usize,
    /// Neighbour weights (default uniform).
    pub weights: Weights,
    /// Search algorithm (default auto).
    pub algorithm: Algorithm,
    /// Tree leaf size (default 30).
    pub leaf_size: usize,
    /// Distance (default Euclidean).
    pub metric: Metric,
}

impl Default for KNeighborsRegressor {
    fn default() -> Self {
        Self::new(5)
    }
}

impl KNeighborsRegressor {
    /// A regressor with `k` neighbours, other settings default.
    pub fn new(k: usize) -> Self {
        Self {
            n_neighbors: k,
            weights: Weights::Uniform,
            algorithm: Algorithm::Auto,
            leaf_size: DEFAULT_LEAF_SIZE,
            metric: Metric::Euclidean,
        }
    }
    ndlearn_core::setters! {
        /// Sets the number of neighbours `k`.
        n_neighbors: usize,
    }
    search_builders!();

    /// Fits a multi-output regressor (`y`: `n × m`); predict with
    /// [`FittedKNeighborsRegressor::predict_multi`].
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedKNeighborsRegressor<F>> {
        check_target_len(x.nrows(), y.nrows(), "KNeighborsRegressor::fit")?;
        check_finite_2d(y, "KNeighborsRegressor target")?;
        if y.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: "KNeighborsRegressor::fit",
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
    ) -> Result<FittedKNeighborsRegressor<F>> {
        self.validate()?;
        ndlearn_core::validate::check_fit_input(x, 1, "KNeighborsRegressor::fit")?;
        check_k(self.n_neighbors, x.nrows())?;
        let index = StoredIndex::build(x, &self.metric, self.algorithm, self.leaf_size)?;
        Ok(FittedKNeighborsRegressor {
            params: self.clone(),
            index,
            targets,
        })
    }
}

impl Estimator for KNeighborsRegressor {
    /// Checks `n_neighbors ≥ 1`, `leaf_size ≥ 1` and the metric.
    fn validate(&self) -> Result<()> {
        check_search(&self.metric, self.leaf_size)?;
        ndlearn_core::validate::check_at_least("n_neighbors", self.n_neighbors, 1)
    }
}

impl<F: Float> Fit<F> for KNeighborsRegressor {
    type Target = ArrayRef1<F>;
    type Model = FittedKNeighborsRegressor<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        check_regression_input(x, y, 1, "KNeighborsRegressor::fit")?;
        self.fit_targets(x, y.to_owned().insert_axis(Axis(1)))
    }
}

/// A fitted [`KNeighborsRegressor`].
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKNeighborsRegressor<F: Float> {
    params: KNeighborsRegressor,
    index: StoredIndex<F>,
    targets: Array2<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKNeighborsRegressor<F> {
    fn n_features_in(&self) -> usize {
        self.index.n_features()
    }
}

/// Weighted means of neighbour targets.
pub(crate) fn average<F: Float>(
    lists: impl Iterator<Item = (Vec<F>, Vec<usize>)>,
    targets: &Array2<F>,
    how: Weights,
    n: usize,
) -> Array2<F> {
    let mut out = Array2::zeros((n, targets.ncols()));
    let mut w = Vec::new();
    for ((d, i), row) in lists.zip(out.rows_mut()) {
        average_into(row, &d, &i, targets, how, &mut w);
    }
    out
}

/// The (weighted) mean target of one query's neighbours (`dist`, `idx`) into `row` (zero on
/// entry); `w` is scratch space.
fn average_into<F: Float>(
    mut row: ArrayViewMut1<'_, F>,
    dist: &[F],
    idx: &[usize],
    targets: &Array2<F>,
    how: Weights,
    w: &mut Vec<F>,
) {
    weights_into(how, dist, w);
    let total: F = w.iter().copied().sum();
    for (&j, &wj) in idx.iter().zip(w.iter()) {
        for (o, &t) in row.iter_mut().zip(targets.row(j)) {
            *o += wj * t;
        }
    }
    row.mapv_inplace(|v| v / total);
}

impl<F: Float> FittedKNeighborsRegressor<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &KNeighborsRegressor {
        &self.params
    }
    /// Number of outputs.
    pub fn n_outputs(&self) -> usize {
        self.targets.ncols()
    }
    /// The training rows.
    pub fn training_data(&self) -> &Array2<F> {
        self.index.data()
    }

    /// The `k` nearest training rows of each query (`k = n_neighbors` when `None`).
    ///
    /// # Errors
    /// As [`Predict::predict`], and `k` outside `1..=n_samples_fit`.
    pub fn kneighbors(&self, x: &ArrayRef2<F>, k: Option<usize>) -> Result<KNeighbors<F>> {
        let k = k.unwrap_or(self.params.n_neighbors);
        self.index
            .kneighbors(x, k, "KNeighborsRegressor: number of features")
    }

    /// Predictions for every output, `n × m`.
    ///
    /// # Errors
    /// As [`Predict::predict`].
    pub fn predict_multi(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let mut out = Array2::zeros((x.nrows(), self.targets.ncols()));
        let mut w = Vec::new();
        let how = self.params.weights;
        self.index.kneighbors_for_each(
            x,
            self.params.n_neighbors,
            "KNeighborsRegressor: number of features",
            |i, d, p| average_into(out.row_mut(i), d, p, &self.targets, how, &mut w),
        )?;
        Ok(out)
    }
}

impl<F: Float> Predict<F> for FittedKNeighborsRegressor<F> {
    type Output = Array1<F>;

    /// The (weighted) mean target of the neighbours; the first output of a multi-output fit.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        Ok(self.predict_multi(x)?.column(0).to_owned())
    }
}

impl<F: Float> CheckModel for FittedKNeighborsRegressor<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKNeighborsRegressor");
        let p = &self.params;
        self.index
            .check(&c, p, (&p.metric, p.algorithm, p.leaf_size))?;
        let n = self.index.n_samples();
        c.that(p.n_neighbors <= n, || {
            format!(
                "`n_neighbors` {} exceeds the {n} training rows",
                p.n_neighbors
            )
        })?;
        check_targets(&c, &self.targets, n)
    }
}

/// The course notes' 1-nearest-neighbour interpolation (catalog L-13; Hastie, Tibshirani &
/// Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009), §2.3.2): the prediction at
/// `x` is the target of the closest training row (ties to the lower training index). A
/// [`KNeighborsRegressor`] with `k = 1`, kept as its own estimator because the course notes use
/// it to show a zero-training-error, high-variance regressor.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct NearestNeighborInterpolator {
    /// Distance (default Euclidean).
    pub metric: Metric,
    /// Search algorithm (default auto).
    pub algorithm: Algorithm,
}

impl NearestNeighborInterpolator {
    ndlearn_core::setters! {
        /// Sets the metric.
        metric: Metric,
        /// Sets the search algorithm.
        algorithm: Algorithm,
    }
}

impl Estimator for NearestNeighborInterpolator {
    /// Checks the metric.
    fn validate(&self) -> Result<()> {
        self.metric.validate()
    }
}

impl<F: Float> Fit<F> for NearestNeighborInterpolator {
    type Target = ArrayRef1<F>;
    type Model = FittedKNeighborsRegressor<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Self::Model> {
        self.validate()?;
        KNeighborsRegressor::new(1)
            .metric(self.metric.clone())
            .algorithm(self.algorithm)
            .fit(x, y)
    }
}

#[cfg(test)]
mod check_tests {
    use ndarray::array;

    use super::*;

    #[test]
    fn check_model_accepts_the_fit_and_rejects_a_broken_state() {
        let x = array![[0.0], [1.0], [2.0], [10.0], [11.0]];
        let mut clf = KNeighborsClassifier::new(3)
            .fit(&x, &array![0usize, 0, 2, 1, 1])
            .expect("fit");
        assert!(clf.check_model().is_ok());
        clf.labels[0] = 3; // a class index past n_classes
        assert!(matches!(clf.check_model(), Err(Error::InvalidModel { .. })));
        let mut reg = KNeighborsRegressor::new(2)
            .fit(&x, &array![1.0, 2.0, 3.0, 4.0, 5.0])
            .expect("fit");
        assert!(reg.check_model().is_ok());
        let one = NearestNeighborInterpolator::default()
            .fit(&x, &array![1.0, 2.0, 3.0, 4.0, 5.0])
            .expect("fit");
        assert!(one.check_model().is_ok());
        reg.params.n_neighbors = 6;
        assert!(matches!(reg.check_model(), Err(Error::InvalidModel { .. })));
    }
}
