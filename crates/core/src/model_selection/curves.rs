//! Learning curves (score against training-set size) and validation curves (score against a
//! hyperparameter), with cross-validation, all fits in parallel.
//!
//! ## Learning curve (the course notes' procedure, catalog M-01)
//!
//! "Split the data; train on increasing sizes of the data; plot train and test error against
//! the size" (the course notes; scikit-learn user guide: Validation curves, Learning curve;
//! Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data* (2012), §2.3). Reading the curves: a
//! test error above the train error that still falls with the size means more data helps; the
//! two close together mean it will not (a good fit, or underfitting).
//!
//! Semantics (scikit-learn's `learning_curve`): the largest size `n_max` is the size of the
//! *first* split's training set; fractions `f ∈ (0, 1]` become `⌊f·n_max⌋` clipped to
//! `[1, n_max]`, counts must lie in `[1, n_max]`; duplicates are removed and the sizes sorted.
//! For each split and size `m`, the model is fitted on the first `m` training indices of the
//! split (after a seeded shuffle of them when `shuffle` is set), scored on those `m` rows
//! (train score) and on the split's test set.
//!
//! ## Validation curve (catalog M-01, M-02)
//!
//! For every value of one hyperparameter (λ, a polynomial order, k …), cross-validated train
//! and test scores (Bishop, *Pattern Recognition and Machine Learning* (2006), §1.1; scikit-learn
//! user guide: Validation curves); the course notes read off the under- and overfitting regimes
//! (typically a U-shaped validation error).
//!
//! Both return `n_points × n_splits` score matrices and can draw themselves as SVG (feature
//! `plot`): mean ± one standard deviation bands for train and test.

use ndarray::{Array1, Array2, ArrayRef2, Axis};

use super::cross_validate::{TaskOptions, fit_and_score, make_splits, mean, std_ddof0};
use super::cv::{CrossValidator, Split};
use super::rows::TargetRows;
use crate::random;
use crate::{Error, Fit, Float, Result, par};

/// Training-set sizes of a learning curve.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TrainSizes {
    /// Fractions in `(0, 1]` of the largest training set.
    Fractions(Vec<f64>),
    /// Absolute sizes in `[1, n_max]`.
    Counts(Vec<usize>),
}

impl Default for TrainSizes {
    /// scikit-learn's default `np.linspace(0.1, 1.0, 5)`.
    fn default() -> Self {
        Self::linspace(0.1, 1.0, 5)
    }
}

impl TrainSizes {
    /// `num` evenly spaced fractions from `start` to `stop` inclusive, computed as
    /// `numpy.linspace` does (`start + i·step`, last value exactly `stop`).
    pub fn linspace(start: f64, stop: f64, num: usize) -> Self {
        let mut v: Vec<f64> = match num {
            0 => Vec::new(),
            1 => vec![start],
            _ => {
                let step = (stop - start) / (num - 1) as f64;
                (0..num).map(|i| i as f64 * step + start).collect()
            }
        };
        if num > 1 {
            v[num - 1] = stop;
        }
        Self::Fractions(v)
    }

    /// The absolute sizes for a largest training set of `n_max` rows (sorted, distinct).
    pub fn resolve(&self, n_max: usize) -> Result<Vec<usize>> {
        let mut out: Vec<usize> = match self {
            Self::Fractions(f) => {
                if f.is_empty() {
                    return Err(Error::invalid_param("train_sizes", "no size given"));
                }
                if let Some(bad) = f.iter().find(|&&v| !(v > 0.0 && v <= 1.0)) {
                    return Err(Error::invalid_param(
                        "train_sizes",
                        format!("fractions must lie in (0, 1], got {bad}"),
                    ));
                }
                f.iter()
                    .map(|&v| ((v * n_max as f64) as usize).clamp(1, n_max.max(1)))
                    .collect()
            }
            Self::Counts(c) => {
                if c.is_empty() {
                    return Err(Error::invalid_param("train_sizes", "no size given"));
                }
                if let Some(bad) = c.iter().find(|&&v| v == 0 || v > n_max) {
                    return Err(Error::invalid_param(
                        "train_sizes",
                        format!("counts must lie in [1, {n_max}], got {bad}"),
                    ));
                }
                c.clone()
            }
        };
        out.sort_unstable();
        out.dedup();
        Ok(out)
    }
}

/// Options of [`learning_curve`].
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `train_sizes` | fractions 0.1, 0.325, 0.55, 0.775, 1.0 | `train_sizes` |
/// | `shuffle` | `false` | `shuffle` |
/// | `seed` | 0 | `random_state` |
/// | `error_score` | `None` (propagate) | `error_score` |
#[derive(Debug, Clone, PartialEq, Default)]
#[non_exhaustive]
pub struct LearningCurveOptions {
    /// The training-set sizes.
    pub train_sizes: TrainSizes,
    /// Shuffle each split's training indices (stream `(seed, split)`) before taking prefixes.
    pub shuffle: bool,
    /// Seed of the shuffles.
    pub seed: u64,
    /// Score for a failing fit; `None` returns the error.
    pub error_score: Option<f64>,
}

impl LearningCurveOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets `train_sizes`.
        train_sizes: TrainSizes,
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `seed`.
        seed: u64,
    }

    /// Sets `error_score`.
    pub fn error_score(mut self, v: f64) -> Self {
        self.error_score = Some(v);
        self
    }
}

fn row_stats(m: &Array2<f64>, f: fn(&[f64]) -> f64) -> Array1<f64> {
    m.axis_iter(Axis(0)).map(|r| f(&r.to_vec())).collect()
}

/// Scores of a [`learning_curve`]: row `j` is training size `train_sizes[j]`, column `s` split
/// `s`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LearningCurve {
    /// The absolute training sizes.
    pub train_sizes: Vec<usize>,
    /// Score on the training subset (`n_sizes × n_splits`).
    pub train_scores: Array2<f64>,
    /// Score on the test fold (`n_sizes × n_splits`).
    pub test_scores: Array2<f64>,
    /// Seconds per fit (`n_sizes × n_splits`).
    pub fit_times: Array2<f64>,
}

impl LearningCurve {
    /// Mean training score per size.
    pub fn mean_train_scores(&self) -> Array1<f64> {
        row_stats(&self.train_scores, mean)
    }

    /// Standard deviation (`ddof = 0`) of the training scores per size.
    pub fn std_train_scores(&self) -> Array1<f64> {
        row_stats(&self.train_scores, std_ddof0)
    }

    /// Mean test score per size.
    pub fn mean_test_scores(&self) -> Array1<f64> {
        row_stats(&self.test_scores, mean)
    }

    /// Standard deviation (`ddof = 0`) of the test scores per size.
    pub fn std_test_scores(&self) -> Array1<f64> {
        row_stats(&self.test_scores, std_ddof0)
    }
}

/// Cross-validated learning curve (see the module docs).
///
/// ```
/// use ndlearn_core::model_selection::{KFold, LearningCurveOptions, TrainSizes, learning_curve};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// struct MeanRegressor;
/// impl Fit<f64> for MeanRegressor {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
///         Ok(y.mean().unwrap_or(0.0))
///     }
/// }
/// let neg_mse = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
///     Ok(-y.mapv(|v| (v - m) * (v - m)).mean().unwrap_or(0.0))
/// };
/// let x = Array2::zeros((20, 1));
/// let y = Array1::from_shape_fn(20, |i| (i % 4) as f64);
/// let opts = LearningCurveOptions::new().train_sizes(TrainSizes::Counts(vec![4, 8, 16]));
/// let lc = learning_curve(&MeanRegressor, &x, &y, &KFold::new(5), neg_mse, &opts)?;
/// assert_eq!(lc.train_sizes, vec![4, 8, 16]);
/// assert_eq!(lc.test_scores.dim(), (3, 5));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn learning_curve<F, E, C, S>(
    est: &E,
    x: &ArrayRef2<F>,
    y: &E::Target,
    cv: &C,
    scorer: S,
    options: &LearningCurveOptions,
) -> Result<LearningCurve>
where
    F: Float,
    E: Fit<F> + Sync + ?Sized,
    E::Target: TargetRows + Sync,
    E::Model: Send,
    C: CrossValidator + ?Sized,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
{
    let mut splits: Vec<Split> = make_splits(x, y, cv)?;
    if options.shuffle {
        for (s, (train, _)) in splits.iter_mut().enumerate() {
            random::shuffle(&mut random::stream(options.seed, s as u64), train);
        }
    }
    let n_max = splits[0].0.len();
    let sizes = options.train_sizes.resolve(n_max)?;
    let (n_sizes, n_splits) = (sizes.len(), splits.len());
    let opts = TaskOptions {
        train_score: true,
        keep_model: false,
        error_score: options.error_score,
    };
    let outcomes = par::try_map_tasks(n_splits * n_sizes, |t| {
        let (s, j) = (t / n_sizes, t % n_sizes);
        let (train, test) = &splits[s];
        let m = sizes[j].min(train.len());
        fit_and_score(est, x, y, &train[..m], test, &scorer, opts)
    })?;
    let mut train_scores = Array2::zeros((n_sizes, n_splits));
    let mut test_scores = Array2::zeros((n_sizes, n_splits));
    let mut fit_times = Array2::zeros((n_sizes, n_splits));
    for (t, o) in outcomes.iter().enumerate() {
        let idx = (t % n_sizes, t / n_sizes);
        train_scores[idx] = o.train_score;
        test_scores[idx] = o.test_score;
        fit_times[idx] = o.fit_time;
    }
    Ok(LearningCurve {
        train_sizes: sizes,
        train_scores,
        test_scores,
        fit_times,
    })
}

/// Scores of a [`validation_curve`]: row `j` is `param_values[j]`, column `s` split `s`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ValidationCurve {
    /// The hyperparameter values.
    pub param_values: Vec<f64>,
    /// Score on each split's training set (`n_values × n_splits`).
    pub train_scores: Array2<f64>,
    /// Score on each split's test set (`n_values × n_splits`).
    pub test_scores: Array2<f64>,
}

impl ValidationCurve {
    /// Mean training score per value.
    pub fn mean_train_scores(&self) -> Array1<f64> {
        row_stats(&self.train_scores, mean)
    }

    /// Standard deviation (`ddof = 0`) of the training scores per value.
    pub fn std_train_scores(&self) -> Array1<f64> {
        row_stats(&self.train_scores, std_ddof0)
    }

    /// Mean test score per value.
    pub fn mean_test_scores(&self) -> Array1<f64> {
        row_stats(&self.test_scores, mean)
    }

    /// Standard deviation (`ddof = 0`) of the test scores per value.
    pub fn std_test_scores(&self) -> Array1<f64> {
        row_stats(&self.test_scores, std_ddof0)
    }

    /// The value with the best mean test score (the first on ties).
    pub fn best_value(&self) -> Option<f64> {
        let m = self.mean_test_scores();
        let ranks = super::search::rank_min(m.as_slice().unwrap_or(&[]));
        ranks
            .iter()
            .position(|&r| r == 1)
            .map(|i| self.param_values[i])
    }
}

/// Cross-validated train and test scores for every value of one hyperparameter (scikit-learn's
/// `validation_curve`). `build` turns a value into an estimator (its errors are returned before
/// any fit); all `values × splits` fits run in parallel.
///
/// Type inference: the estimator type comes from `build`, and Rust checks closure arguments
/// last, so define `build` beforehand with its return type written out (as below); otherwise
/// pass the target as `&*y` (an `&ArrayRef`).
///
/// ```
/// use ndlearn_core::model_selection::{KFold, validation_curve};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// struct Shrunk { alpha: f64 }
/// impl Fit<f64> for Shrunk {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
///         Ok(y.mean().unwrap_or(0.0) / (1.0 + self.alpha))
///     }
/// }
/// let neg_mse = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
///     Ok(-y.mapv(|v| (v - m) * (v - m)).mean().unwrap_or(0.0))
/// };
/// let (x, y) = (Array2::zeros((6, 1)), Array1::from(vec![1.0; 6]));
/// let build = |a: f64| -> Result<Shrunk> { Ok(Shrunk { alpha: a }) };
/// let vc = validation_curve(build, &[0.0, 1.0, 10.0], &x, &y, &KFold::new(3), neg_mse)?;
/// assert_eq!(vc.best_value(), Some(0.0));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn validation_curve<F, E, B, C, S>(
    build: B,
    values: &[f64],
    x: &ArrayRef2<F>,
    y: &E::Target,
    cv: &C,
    scorer: S,
) -> Result<ValidationCurve>
where
    F: Float,
    E: Fit<F> + Sync,
    E::Target: TargetRows + Sync,
    E::Model: Send,
    B: Fn(f64) -> Result<E>,
    C: CrossValidator + ?Sized,
    S: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<f64> + Sync,
{
    if values.is_empty() {
        return Err(Error::invalid_param("values", "no parameter value given"));
    }
    let estimators = values
        .iter()
        .map(|&v| build(v))
        .collect::<Result<Vec<E>>>()?;
    let splits = make_splits(x, y, cv)?;
    let (n_v, n_s) = (values.len(), splits.len());
    let opts = TaskOptions {
        train_score: true,
        keep_model: false,
        error_score: None,
    };
    let outcomes = par::try_map_tasks(n_v * n_s, |t| {
        let (v, s) = (t / n_s, t % n_s);
        let (train, test) = &splits[s];
        fit_and_score(&estimators[v], x, y, train, test, &scorer, opts)
    })?;
    let mut train_scores = Array2::zeros((n_v, n_s));
    let mut test_scores = Array2::zeros((n_v, n_s));
    for (t, o) in outcomes.iter().enumerate() {
        train_scores[(t / n_s, t % n_s)] = o.train_score;
        test_scores[(t / n_s, t % n_s)] = o.test_score;
    }
    Ok(ValidationCurve {
        param_values: values.to_vec(),
        train_scores,
        test_scores,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_selection::KFold;
    use ndarray::{ArrayRef1, array};

    /// Predicts the training mean; records nothing else.
    struct MeanReg;

    impl Fit<f64> for MeanReg {
        type Target = ArrayRef1<f64>;
        type Model = (f64, usize);
        fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<(f64, usize)> {
            Ok((y.sum() / y.len() as f64, y.len()))
        }
    }

    #[test]
    fn sizes_resolve_like_sklearn() {
        // linspace(0.1, 1, 5) of 120: 12, 39, 66, 93, 120 (truncation).
        let s = TrainSizes::default().resolve(120).expect("valid");
        assert_eq!(s, vec![12, 39, 66, 93, 120]);
        assert_eq!(
            TrainSizes::Fractions(vec![0.01, 0.5, 0.5])
                .resolve(10)
                .expect("valid"),
            vec![1, 5]
        );
        assert!(TrainSizes::Fractions(vec![0.0]).resolve(10).is_err());
        assert!(TrainSizes::Fractions(vec![1.5]).resolve(10).is_err());
        assert!(TrainSizes::Counts(vec![11]).resolve(10).is_err());
        assert!(TrainSizes::Counts(vec![]).resolve(10).is_err());
        assert_eq!(
            TrainSizes::linspace(0.5, 0.5, 1),
            TrainSizes::Fractions(vec![0.5])
        );
    }

    #[test]
    fn learning_curve_uses_prefixes_of_train_folds() {
        let x = Array2::zeros((6, 1));
        let y = array![0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        // The scorer reports the training-set size the model saw.
        let seen = |m: &(f64, usize), _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>| -> Result<f64> {
            Ok(m.1 as f64)
        };
        let opts = LearningCurveOptions::new().train_sizes(TrainSizes::Counts(vec![1, 3]));
        let lc = learning_curve(&MeanReg, &x, &y, &KFold::new(3), seen, &opts).expect("valid");
        assert_eq!(lc.test_scores, array![[1.0, 1.0, 1.0], [3.0, 3.0, 3.0]]);
        // Mean of the first training index of each fold: folds test {0,1}, {2,3}, {4,5}, so
        // the first training rows are 2, 0, 0.
        let first =
            |m: &(f64, usize), _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>| -> Result<f64> { Ok(m.0) };
        let lc = learning_curve(&MeanReg, &x, &y, &KFold::new(3), first, &opts).expect("valid");
        assert_eq!(lc.train_scores.row(0).to_vec(), vec![2.0, 0.0, 0.0]);
        // Means of the first 3: {2,3,4}, {0,1,4}, {0,1,2}.
        assert_eq!(lc.train_scores.row(1).to_vec(), vec![3.0, 5.0 / 3.0, 1.0]);
        assert_eq!(lc.mean_test_scores().len(), 2);
        assert_eq!(lc.std_train_scores().len(), 2);
        let shuffled = learning_curve(
            &MeanReg,
            &x,
            &y,
            &KFold::new(3),
            first,
            &opts.clone().shuffle(true).seed(1),
        )
        .expect("valid");
        assert_eq!(shuffled.train_sizes, vec![1, 3]);
    }

    #[test]
    fn validation_curve_rows_are_values() {
        struct Const(f64);
        impl Fit<f64> for Const {
            type Target = ArrayRef1<f64>;
            type Model = f64;
            fn fit(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<f64> {
                Ok(self.0)
            }
        }
        let x = Array2::zeros((4, 1));
        let y = array![1.0, 1.0, 1.0, 1.0];
        let neg_abs = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<f64> {
            Ok(-y.iter().map(|v| (v - m).abs()).sum::<f64>())
        };
        let build = |v: f64| -> Result<Const> { Ok(Const(v)) };
        let vc = validation_curve(build, &[3.0, 1.0, 2.0], &x, &y, &KFold::new(2), neg_abs)
            .expect("valid");
        assert_eq!(vc.mean_test_scores().to_vec(), vec![-4.0, 0.0, -2.0]);
        assert_eq!(vc.mean_train_scores().to_vec(), vec![-4.0, 0.0, -2.0]);
        assert_eq!(vc.best_value(), Some(1.0));
        assert_eq!(vc.std_test_scores().to_vec(), vec![0.0; 3]);
        assert!(validation_curve(build, &[], &x, &y, &KFold::new(2), neg_abs).is_err());
        let failing = |_: f64| -> Result<Const> { Err(Error::invalid_param("v", "bad")) };
        assert!(validation_curve(failing, &[1.0], &x, &y, &KFold::new(2), neg_abs).is_err());
    }
}
