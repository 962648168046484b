//! Probability calibration: turning decision scores into probabilities that match observed
//! frequencies.
//!
//! | item | what | scikit-learn |
//! |---|---|---|
//! | [`PlattScaling`] | `P(y = 1 \| f) = 1/(1 + exp(A f + B))` by the Newton method of Lin, Lin and Weng (libsvm's) | `_SigmoidCalibration` |
//! | [`TemperatureScaling`] | `softmax(β z)` with one fitted inverse temperature | `_TemperatureScaling` |
//! | [`isotonic_regression`], [`IsotonicRegression`] | the weighted least-squares monotone fit (PAVA), also a standalone regressor | `isotonic_regression`, `IsotonicRegression` |
//! | [`CalibratedClassifierCV`] | any classifier with a [`DecisionFunction`] plus per-class calibrators fitted on held-out folds | `CalibratedClassifierCV` |
//!
//! # `CalibratedClassifierCV`
//!
//! The data are split into `cv` stratified folds (scikit-learn's unshuffled
//! `StratifiedKFold`). With `ensemble = true` (the default), for each fold the base estimator is
//! fitted on the other folds, its decision scores on the held-out fold fit the calibrators, and
//! the pair is kept: predicted probabilities are the mean over the `cv` pairs. With
//! `ensemble = false` the held-out scores of all folds (cross-validated predictions) fit one set
//! of calibrators, and the base estimator is refitted on all the data.
//!
//! Per pair, for two classes one calibrator maps the one-column score to `P(class 1)`
//! (`P(class 0) = 1 − P(class 1)`); for `K ≥ 3` classes calibrator `k` maps score column `k` to
//! "class `k` against the rest" and the row is divided by its sum (a row of zeros becomes
//! uniform). Temperature scaling instead fits one `β` on all columns (the binary score `f`
//! becomes the logits `(−f, f)`). Probabilities within `1e-5` above 1 are set to 1, as
//! scikit-learn does. Sample weights, through [`FitWeighted`], go to the base estimator and to
//! the calibrators.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `estimator` | — | `estimator` | any classifier whose model has a [`DecisionFunction`] |
//! | `method` | [`CalibrationMethod::Sigmoid`] | `method` | `sigmoid`, `isotonic`, `temperature` |
//! | `cv` | 5 | `cv` | `≥ 2`, at most the size of the smallest class |
//! | `ensemble` | `true` | `ensemble` | |
//! | `parallel` | `true` | `n_jobs` | fit the folds as parallel tasks (results identical) |
//!
//! ```
//! use ndlearn_core::calibration::{CalibratedClassifierCV, CalibrationMethod};
//! use ndlearn_core::{DecisionFunction, Fit, Predict, PredictProba, Result};
//! use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, array};
//!
//! // A toy scorer: the first feature minus the midpoint of the class means.
//! #[derive(Clone)]
//! struct Midpoint;
//! struct FittedMidpoint(f64);
//! impl Fit<f64> for Midpoint {
//!     type Target = ArrayRef1<usize>;
//!     type Model = FittedMidpoint;
//!     fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<usize>) -> Result<FittedMidpoint> {
//!         let mean = |c| {
//!             let v: Vec<f64> = (0..y.len()).filter(|&i| y[i] == c).map(|i| x[[i, 0]]).collect();
//!             v.iter().sum::<f64>() / v.len() as f64
//!         };
//!         Ok(FittedMidpoint((mean(0) + mean(1)) / 2.0))
//!     }
//! }
//! impl DecisionFunction<f64> for FittedMidpoint {
//!     fn decision_function(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
//!         Ok(x.column(0).mapv(|v| v - self.0).insert_axis(ndarray::Axis(1)))
//!     }
//! }
//! let x = Array2::from_shape_fn((40, 1), |(i, _)| i as f64 + if i % 3 == 0 { 8.0 } else { 0.0 });
//! let y: Array1<usize> = (0..40).map(|i| usize::from(i >= 20)).collect();
//! let model = CalibratedClassifierCV::new(Midpoint).cv(4).fit(&x, &y)?;
//! let p = model.predict_proba(&array![[0.0], [39.0]])?;
//! assert!(p[[0, 1]] < 0.5 && p[[1, 1]] > 0.5);
//! assert_eq!(model.predict(&array![[39.0]])?[0], 1);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! - A. Niculescu-Mizil, R. Caruana, "Predicting good probabilities with supervised learning",
//!   ICML 2005.
//! - scikit-learn's `sklearn.calibration`.

mod isotonic;
mod platt;

pub use isotonic::{
    FittedIsotonicRegression, Increasing, IsotonicRegression, OutOfBounds, isotonic_regression,
};
pub use platt::{FittedPlatt, FittedTemperature, PlattScaling, TemperatureScaling};

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

use crate::model_selection::{CrossValidator, StratifiedKFold};
use crate::traits::{
    DecisionFunction, Estimator, Fit, FitWeighted, NFeaturesIn, Predict, PredictProba,
};
use crate::{Error, Float, Result, par};

/// How [`CalibratedClassifierCV`] maps scores to probabilities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum CalibrationMethod {
    /// Platt's sigmoid per class (default).
    #[default]
    Sigmoid,
    /// Isotonic regression per class (scikit-learn's `out_of_bounds = "clip"`).
    Isotonic,
    /// One inverse temperature for all classes.
    Temperature,
}

/// A classifier calibrated on held-out folds (scikit-learn's `CalibratedClassifierCV`; see the
/// [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct CalibratedClassifierCV<E> {
    /// The base classifier.
    pub estimator: E,
    /// The calibration method (default sigmoid).
    pub method: CalibrationMethod,
    /// Number of stratified folds (default 5).
    pub cv: usize,
    /// Keep one (classifier, calibrators) pair per fold and average them (default `true`).
    pub ensemble: bool,
    /// Fit the folds as parallel tasks (default `true`).
    pub parallel: bool,
}

impl<E: Default> Default for CalibratedClassifierCV<E> {
    fn default() -> Self {
        Self::new(E::default())
    }
}

impl<E> CalibratedClassifierCV<E> {
    /// Calibrates `estimator` with the defaults (sigmoid, 5 folds, ensemble).
    pub fn new(estimator: E) -> Self {
        Self {
            estimator,
            method: CalibrationMethod::Sigmoid,
            cv: 5,
            ensemble: true,
            parallel: true,
        }
    }

    crate::setters! {
        /// Sets the calibration method.
        method: CalibrationMethod,
        /// Sets the number of folds.
        cv: usize,
        /// Sets whether to keep one calibrated classifier per fold.
        ensemble: bool,
        /// Sets whether the folds are fitted in parallel.
        parallel: bool,
    }
}

impl<E> Estimator for CalibratedClassifierCV<E> {
    /// Checks `cv ≥ 2`.
    fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("cv", self.cv, 2)
    }
}

/// The calibrators of one fitted pair.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Calibrators<F: Float> {
    /// One sigmoid per score column.
    Sigmoid(Vec<FittedPlatt>),
    /// One isotonic fit per score column.
    Isotonic(Vec<FittedIsotonicRegression<F>>),
    /// One inverse temperature.
    Temperature(FittedTemperature),
}

/// One fitted base model with its calibrators.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CalibratedMember<F: Float, M> {
    /// The base model.
    pub model: M,
    /// Its calibrators.
    pub calibrators: Calibrators<F>,
}

/// A fitted [`CalibratedClassifierCV`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedCalibratedClassifierCV<F: Float, E, M> {
    params: CalibratedClassifierCV<E>,
    members: Vec<CalibratedMember<F, M>>,
    n_classes: usize,
    n_features: usize,
}

/// Fits the calibrators on `scores` (`n × 1` or `n × K`) of held-out rows with labels `y`.
fn fit_calibrators<F: Float>(
    method: CalibrationMethod,
    scores: &Array2<F>,
    y: &[usize],
    n_classes: usize,
    w: Option<&Array1<F>>,
) -> Result<Calibrators<F>> {
    let expected = if n_classes == 2 { 1 } else { n_classes };
    if scores.ncols() != expected {
        return Err(Error::ShapeMismatch {
            context: "CalibratedClassifierCV: decision_function of the base model",
            expected: format!("{expected} score column(s) for {n_classes} classes"),
            found: format!("{} columns", scores.ncols()),
        });
    }
    let positive_class = |col: usize| if n_classes == 2 { 1 } else { col };
    Ok(match method {
        CalibrationMethod::Sigmoid => Calibrators::Sigmoid(
            (0..scores.ncols())
                .map(|c| {
                    let pos: Vec<bool> = y.iter().map(|&l| l == positive_class(c)).collect();
                    PlattScaling::default().fit(
                        &scores.column(c),
                        &pos,
                        w.map(|w| w.view()).as_deref(),
                    )
                })
                .collect::<Result<_>>()?,
        ),
        CalibrationMethod::Isotonic => Calibrators::Isotonic(
            (0..scores.ncols())
                .map(|c| {
                    let t: Array1<F> = y
                        .iter()
                        .map(|&l| {
                            if l == positive_class(c) {
                                F::one()
                            } else {
                                F::zero()
                            }
                        })
                        .collect();
                    IsotonicRegression::default()
                        .out_of_bounds(OutOfBounds::Clip)
                        .fit_1d(&scores.column(c), &t, w.map(|w| w.view()).as_deref())
                })
                .collect::<Result<_>>()?,
        ),
        CalibrationMethod::Temperature => {
            let labels = Array1::from(y.to_vec());
            Calibrators::Temperature(TemperatureScaling.fit(
                scores,
                &labels,
                w.map(|w| w.view()).as_deref(),
            )?)
        }
    })
}

impl<F: Float> Calibrators<F> {
    /// Calibrated probabilities (`n × K`) of scores.
    fn probabilities(&self, scores: &Array2<F>, n_classes: usize) -> Result<Array2<F>> {
        let n = scores.nrows();
        let mut p = Array2::<F>::zeros((n, n_classes));
        let columns: Vec<Array1<F>> = match self {
            Calibrators::Temperature(t) => return Ok(t.probabilities(scores)),
            Calibrators::Sigmoid(c) => c
                .iter()
                .enumerate()
                .map(|(k, s)| scores.column(k).mapv(|f| s.probability(f)))
                .collect(),
            Calibrators::Isotonic(c) => c
                .iter()
                .enumerate()
                .map(|(k, iso)| iso.predict_1d(&scores.column(k)))
                .collect::<Result<_>>()?,
        };
        if n_classes == 2 {
            p.column_mut(1).assign(&columns[0]);
            p.column_mut(0).assign(&columns[0].mapv(|v| F::one() - v));
        } else {
            for (k, c) in columns.iter().enumerate() {
                p.column_mut(k).assign(c);
            }
            let uniform = F::one() / F::cast(n_classes);
            for mut row in p.rows_mut() {
                let s = row.sum();
                if s != F::zero() {
                    row.mapv_inplace(|v| v / s);
                } else {
                    row.fill(uniform);
                }
            }
        }
        Ok(p)
    }
}

impl<E> CalibratedClassifierCV<E> {
    fn fit_impl<F, M>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        fit_base: impl Fn(&E, &ArrayRef2<F>, &ArrayRef1<usize>, Option<&ArrayRef1<F>>) -> Result<M>
        + Sync,
    ) -> Result<FittedCalibratedClassifierCV<F, E, M>>
    where
        F: Float,
        E: Clone + Sync,
        M: DecisionFunction<F> + Send,
    {
        self.validate()?;
        const CONTEXT: &str = "CalibratedClassifierCV::fit";
        crate::validate::check_fit_input(x, 2, CONTEXT)?;
        crate::validate::check_target_len(x.nrows(), y.len(), CONTEXT)?;
        let n_classes = crate::validate::check_labels(y, 2, CONTEXT)?;
        if let Some(w) = sample_weight {
            crate::validate::check_sample_weight(w, x.nrows())?;
        }
        let mut counts = vec![0usize; n_classes];
        y.iter().for_each(|&c| counts[c] += 1);
        if let Some((c, &m)) = counts.iter().enumerate().find(|&(_, &m)| m < self.cv) {
            return Err(Error::invalid_param(
                "cv",
                format!(
                    "{}-fold calibration needs at least {} samples of every class; class {c} has {m}",
                    self.cv, self.cv
                ),
            ));
        }
        let splits = StratifiedKFold::new(self.cv).split(x.nrows(), Some(y))?;
        let select_w = |rows: &[usize]| sample_weight.map(|w| w.select(Axis(0), rows));
        let fold = |t: usize| -> Result<(M, Array2<F>)> {
            let (train, test) = &splits[t];
            let xt = x.select(Axis(0), train);
            let yt = y.select(Axis(0), train);
            let wt = select_w(train);
            let m = fit_base(&self.estimator, &xt, &yt, wt.as_deref())?;
            let s = m.decision_function(&x.select(Axis(0), test))?;
            Ok((m, s))
        };
        let results: Vec<(M, Array2<F>)> = if self.parallel {
            par::try_map_tasks(splits.len(), fold)?
        } else {
            (0..splits.len()).map(fold).collect::<Result<_>>()?
        };
        let members = if self.ensemble {
            results
                .into_iter()
                .zip(&splits)
                .map(|((model, scores), (_, test))| {
                    let yt: Vec<usize> = test.iter().map(|&i| y[i]).collect();
                    let wt = select_w(test);
                    let calibrators =
                        fit_calibrators(self.method, &scores, &yt, n_classes, wt.as_ref())?;
                    Ok(CalibratedMember { model, calibrators })
                })
                .collect::<Result<Vec<_>>>()?
        } else {
            // Cross-validated scores of every row, then one base model on all the data.
            let width = results.first().map_or(1, |(_, s)| s.ncols());
            let mut scores = Array2::<F>::zeros((x.nrows(), width));
            for ((_, s), (_, test)) in results.iter().zip(&splits) {
                if s.ncols() != width {
                    return Err(Error::ShapeMismatch {
                        context: CONTEXT,
                        expected: format!("{width} score columns in every fold"),
                        found: format!("{}", s.ncols()),
                    });
                }
                for (r, &i) in test.iter().enumerate() {
                    scores.row_mut(i).assign(&s.row(r));
                }
            }
            let w = sample_weight.map(|w| w.to_owned());
            let calibrators =
                fit_calibrators(self.method, &scores, &y.to_vec(), n_classes, w.as_ref())?;
            let model = fit_base(&self.estimator, x, y, sample_weight)?;
            vec![CalibratedMember { model, calibrators }]
        };
        Ok(FittedCalibratedClassifierCV {
            params: self.clone_params(),
            members,
            n_classes,
            n_features: x.ncols(),
        })
    }
}

impl<E: Clone> CalibratedClassifierCV<E> {
    fn clone_params(&self) -> CalibratedClassifierCV<E> {
        self.clone()
    }
}

impl<F, E> Fit<F> for CalibratedClassifierCV<E>
where
    F: Float,
    E: Fit<F, Target = ArrayRef1<usize>> + Clone + Sync,
    E::Model: DecisionFunction<F> + Send,
{
    type Target = ArrayRef1<usize>;
    type Model = FittedCalibratedClassifierCV<F, E, E::Model>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Self::Model> {
        self.fit_impl(x, y, None, |e, x, y, _| e.fit(x, y))
    }
}

impl<F, E> FitWeighted<F> for CalibratedClassifierCV<E>
where
    F: Float,
    E: FitWeighted<F, Target = ArrayRef1<usize>> + Clone + Sync,
    E::Model: DecisionFunction<F> + Send,
{
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.fit_impl(x, y, sample_weight, |e, x, y, w| e.fit_weighted(x, y, w))
    }
}

impl<F: Float, E, M> FittedCalibratedClassifierCV<F, E, M> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &CalibratedClassifierCV<E> {
        &self.params
    }
    /// The (base model, calibrators) pairs: `cv` of them with `ensemble`, else one.
    pub fn members(&self) -> &[CalibratedMember<F, M>] {
        &self.members
    }
    /// The number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
}

impl<F: Float, E, M: DecisionFunction<F>> PredictProba<F>
    for FittedCalibratedClassifierCV<F, E, M>
{
    /// The mean over the members of their calibrated probabilities.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::validate::check_predict_input(
            x,
            self.n_features,
            "CalibratedClassifierCV::predict_proba",
        )?;
        let mut mean = Array2::<F>::zeros((x.nrows(), self.n_classes));
        for m in &self.members {
            let s = m.model.decision_function(x)?;
            mean += &m.calibrators.probabilities(&s, self.n_classes)?;
        }
        let k = F::cast(self.members.len());
        let cap = F::one() + F::cast(1e-5);
        mean.mapv_inplace(|v| {
            let v = v / k;
            if v > F::one() && v <= cap {
                F::one()
            } else {
                v
            }
        });
        Ok(mean)
    }
}

impl<F: Float, E, M: DecisionFunction<F>> Predict<F> for FittedCalibratedClassifierCV<F, E, M> {
    type Output = Array1<usize>;
    /// The class of largest calibrated probability.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(crate::numeric::argmax_rows(&self.predict_proba(x)?))
    }
}

impl<F: Float, E, M> NFeaturesIn for FittedCalibratedClassifierCV<F, E, M> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// A linear scorer fitted by least squares on ±1 targets (one column for two classes, one
    /// per class otherwise): enough to exercise the wrapper.
    #[derive(Debug, Clone, Default, PartialEq)]
    struct LsScorer;
    #[derive(Debug, Clone, PartialEq)]
    struct FittedLs(Array2<f64>);

    impl Fit<f64> for LsScorer {
        type Target = ArrayRef1<usize>;
        type Model = FittedLs;
        fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<usize>) -> Result<FittedLs> {
            self.fit_weighted(x, y, None)
        }
    }
    impl FitWeighted<f64> for LsScorer {
        fn fit_weighted(
            &self,
            x: &ArrayRef2<f64>,
            y: &ArrayRef1<usize>,
            w: Option<&ArrayRef1<f64>>,
        ) -> Result<FittedLs> {
            let k = y.iter().copied().max().unwrap_or(0) + 1;
            let cols = if k == 2 { 1 } else { k };
            let n = x.nrows();
            let mut a = Array2::<f64>::ones((n, x.ncols() + 1));
            a.slice_mut(ndarray::s![.., 1..]).assign(x);
            let mut coef = Array2::zeros((x.ncols() + 1, cols));
            for c in 0..cols {
                let target = if k == 2 { 1 } else { c };
                let t: Array1<f64> = y
                    .iter()
                    .map(|&l| if l == target { 1.0 } else { -1.0 })
                    .collect();
                let sw = w.map_or(Array1::ones(n), |w| w.to_owned()).mapv(f64::sqrt);
                let aw = &a * &sw.clone().insert_axis(Axis(1));
                let tw = &t * &sw;
                let sol = crate::linalg::lstsq(&aw, &tw, None)?;
                coef.column_mut(c).assign(&sol.solution);
            }
            Ok(FittedLs(coef))
        }
    }
    impl DecisionFunction<f64> for FittedLs {
        fn decision_function(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
            let mut a = Array2::<f64>::ones((x.nrows(), x.ncols() + 1));
            a.slice_mut(ndarray::s![.., 1..]).assign(x);
            Ok(a.dot(&self.0))
        }
    }

    fn three_classes() -> (Array2<f64>, Array1<usize>) {
        let n = 90;
        let x = Array2::from_shape_fn((n, 2), |(i, j)| {
            let c = (i % 3) as f64;
            c * 2.0 + ((i * 7 + j * 3) % 11) as f64 / 4.0 - 1.0
        });
        let y = (0..n).map(|i| i % 3).collect();
        (x, y)
    }

    #[test]
    fn probabilities_are_distributions_for_every_method() {
        let (x, y) = three_classes();
        for method in [
            CalibrationMethod::Sigmoid,
            CalibrationMethod::Isotonic,
            CalibrationMethod::Temperature,
        ] {
            for ensemble in [true, false] {
                let m = CalibratedClassifierCV::new(LsScorer)
                    .method(method)
                    .ensemble(ensemble)
                    .cv(3)
                    .fit(&x, &y)
                    .expect("fit");
                assert_eq!(m.members().len(), if ensemble { 3 } else { 1 });
                let p = m.predict_proba(&x).expect("proba");
                for row in p.rows() {
                    assert!((row.sum() - 1.0).abs() < 1e-12, "{method:?}");
                    assert!(row.iter().all(|&v| (0.0..=1.0).contains(&v)));
                }
                let acc = m
                    .predict(&x)
                    .expect("predict")
                    .iter()
                    .zip(&y)
                    .filter(|(a, b)| a == b)
                    .count();
                // Temperature scaling keeps the base model's argmax, and least-squares
                // one-vs-rest scores mask the middle class; per-class calibrators repair it.
                let least = if method == CalibrationMethod::Temperature {
                    60
                } else {
                    80
                };
                assert!(acc >= least, "{method:?} {ensemble}: {acc}");
            }
        }
    }

    #[test]
    fn weights_threads_and_errors() {
        let (x, y) = three_classes();
        let yb = y.mapv(|c| usize::from(c == 2));
        let w = Array1::from_shape_fn(x.nrows(), |i| 1.0 + (i % 2) as f64);
        let est = CalibratedClassifierCV::new(LsScorer);
        let a = est.fit_weighted(&x, &yb, Some(&w)).expect("fit");
        let b = est
            .clone()
            .parallel(false)
            .fit_weighted(&x, &yb, Some(&w))
            .expect("fit");
        assert_eq!(
            a.predict_proba(&x).expect("p"),
            b.predict_proba(&x).expect("p")
        );
        let c = par::with_threads(1, || est.fit_weighted(&x, &yb, Some(&w)))
            .expect("pool")
            .expect("fit");
        assert_eq!(a, c);
        assert!(est.clone().cv(1).fit(&x, &yb).is_err());
        assert!(est.clone().cv(40).fit(&x, &yb).is_err());
        assert!(est.fit(&x, &array![0usize, 1]).is_err());
        assert!(est.fit(&x, &Array1::zeros(x.nrows())).is_err());
        let m = est.fit(&x, &yb).expect("fit");
        assert!(m.predict_proba(&array![[1.0, 2.0, 3.0]]).is_err());
    }
}
