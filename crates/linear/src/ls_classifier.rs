//! The least-squares linear discriminant ([`LeastSquaresClassifier`]): `K` linear scores fitted
//! by (ridge-penalised) least squares to coded class targets, prediction by the largest score.
//!
//! # Model
//!
//! Each class `k` gets a linear score `y_k(x) = w_kᵀx + w_k0`, and `x` is assigned to
//! `argmax_k y_k(x)` (the course notes' `K`-class discriminant; ties go to the lower class index). The
//! boundary between classes `k` and `j` is the hyperplane `(w_k − w_j)ᵀx + (w_k0 − w_j0) = 0`,
//! so the decision regions are convex and singly connected.
//!
//! # Objective
//!
//! With the target matrix `T` (`N × K`, coded below) and an unpenalised intercept:
//!
//! ```text
//! min_{W, w₀}  ‖T − X Wᵀ − 1 w₀ᵀ‖²_F + α ‖W‖²_F          (α ≥ 0)
//! ```
//!
//! i.e. `K` independent least-squares (`α = 0`) or ridge (`α > 0`) problems sharing one
//! factorisation of `X`. `α = 0` is solved by [`LinearRegression::fit_multi`] (the
//! minimum-norm solution when `X` is rank deficient), `α > 0` by [`Ridge::fit_multi`]; see
//! those for solvers and cost (`O(N d² + d³)` plus `O(N d K)` for the right-hand sides).
//!
//! # Target coding ([`LsTargets`])
//!
//! - `OneHot` (default; the course notes): `T_ik = 1` if `yᵢ = k`, else 0, one column per class also
//!   for `K = 2`. With an intercept the `K` scores of any `x` sum to 1.
//! - `PlusMinusOne` (scikit-learn's `RidgeClassifier`): `T_ik = +1` if `yᵢ = k`, else `−1`; for
//!   `K = 2` a single column (class 1 ↦ `+1`, class 0 ↦ `−1`) and a single score, and class 1 is
//!   predicted when that score is `≥ 0` (the course notes' `sign(0) = +1`; scikit-learn predicts class 0
//!   at exactly 0).
//!
//! With an intercept the two codings give the same classifier: `±1 = 2·onehot − 1`, so the
//! `±1` scores are `2y_k(x) − 1` (and for `K = 2` the single score is `y_1(x) − y_0(x)`). They
//! differ only at an exact tie of a two-class problem: `OneHot` takes the lower class (0),
//! `PlusMinusOne` the course notes' `sign(0) = +1` (class 1).
//! `alpha = 1, targets = PlusMinusOne` is exactly scikit-learn's `RidgeClassifier()`; `alpha = 0,
//! targets = OneHot` is `LinearRegression` on the one-hot matrix (both checked to 1e-8 in
//! `tests/ls_classifier_golden.rs`).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `alpha` | 0.0 (plain least squares) | `RidgeClassifier(alpha)` (default 1.0 there) | finite, ≥ 0 |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `targets` | `OneHot` | — (`RidgeClassifier` uses `PlusMinusOne`) | |
//!
//! # Errors
//!
//! [`Error::TooFewClasses`](ndlearn_core::Error::TooFewClasses) for fewer than two classes,
//! [`Error::InvalidParam`](ndlearn_core::Error::InvalidParam) for a negative or non-finite
//! `alpha`, shape / non-finite input errors, and the errors of the underlying least-squares
//! solvers (e.g. [`Error::NonFinite`](ndlearn_core::Error::NonFinite) when `XᵀX` overflows).
//!
//! # References
//!
//! - Course notes: K-class linear discriminant, boundaries, least squares and its outlier
//!   sensitivity, the binary rule (`sign(0) = 1`), one-hot targets; catalog L-11 (CL-083).
//! - C. M. Bishop, *Pattern Recognition and Machine Learning*, §4.1.3 (least squares for
//!   classification).
//!
//! ```
//! use ndlearn_core::{DecisionFunction, Fit, Predict};
//! use ndlearn_linear::LeastSquaresClassifier;
//!
//! let data = ndlearn_datasets::iris();
//! let y = data.y_classes().expect("labels");
//! let fit = LeastSquaresClassifier::default().fit(data.x(), y)?;
//! let scores = fit.decision_function(data.x())?;                 // 150 × 3
//! assert!((scores.row(0).sum() - 1.0).abs() < 1e-10);            // one-hot scores sum to 1
//! let acc = fit.predict(data.x())?.iter().zip(y).filter(|(a, b)| a == b).count();
//! assert!(acc >= 120);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use crate::model::{check_scores, classes_from_scores};
use ndarray::{Array1, Array2, ArrayRef2};
use ndlearn_core::DecisionFunction;
use ndlearn_core::Estimator;
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::validate::{check_classification_input, check_predict_input};
use ndlearn_core::{FeatureImportances, Fit, Float, Labels, Predict, Result};

use crate::{LinearRegression, Ridge};

/// How [`LeastSquaresClassifier`] codes the classes as regression targets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum LsTargets {
    /// One column per class, 1 for the sample's class and 0 elsewhere (the course notes).
    #[default]
    OneHot,
    /// `+1` / `−1` per class column, a single column for two classes (scikit-learn's
    /// `RidgeClassifier`).
    PlusMinusOne,
}

/// The least-squares linear discriminant (the course notes' K-class linear discriminant fitted
/// by least squares; scikit-learn's `RidgeClassifier` with `alpha > 0` and `PlusMinusOne`
/// targets). See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LeastSquaresClassifier {
    /// Ridge penalty `α ≥ 0` on the coefficients (default 0: ordinary least squares).
    pub alpha: f64,
    /// Fit unpenalised intercepts `w_k0` (default `true`).
    pub fit_intercept: bool,
    /// The target coding (default one-hot).
    pub targets: LsTargets,
}

impl Default for LeastSquaresClassifier {
    fn default() -> Self {
        Self {
            alpha: 0.0,
            fit_intercept: true,
            targets: LsTargets::OneHot,
        }
    }
}

impl LeastSquaresClassifier {
    /// The classifier with ridge penalty `alpha` and the other defaults.
    pub fn new(alpha: f64) -> Self {
        Self {
            alpha,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `alpha`.
        alpha: f64,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets the target coding.
        targets: LsTargets,
    }

    /// The `N × K` (or `N × 1`) target matrix of `y`.
    fn target_matrix<F: Float>(&self, y: &Labels, n_classes: usize) -> Array2<F> {
        let (cols, neg) = match self.targets {
            LsTargets::OneHot => (n_classes, F::zero()),
            LsTargets::PlusMinusOne if n_classes == 2 => (1, -F::one()),
            LsTargets::PlusMinusOne => (n_classes, -F::one()),
        };
        let mut t = Array2::from_elem((y.len(), cols), neg);
        for (i, &c) in y.iter().enumerate() {
            let col = if cols == 1 { 0 } else { c };
            if cols > 1 || c == 1 {
                t[[i, col]] = F::one();
            }
        }
        t
    }
}

impl ndlearn_core::Estimator for LeastSquaresClassifier {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`ndlearn_core::Error::InvalidParam`] for a negative or non-finite `alpha`.
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_non_negative("alpha", self.alpha)
    }
}

impl<F: Float> Fit<F> for LeastSquaresClassifier {
    type Target = Labels;
    type Model = FittedLeastSquaresClassifier<F>;

    /// Fits the `K` score functions (labels `0..K`, at least two distinct); see the
    /// [module docs](self).
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<FittedLeastSquaresClassifier<F>> {
        self.validate()?;
        let n_classes = check_classification_input(x, y, 2, "LeastSquaresClassifier::fit")?;
        let t = self.target_matrix::<F>(y, n_classes);
        let (coef, intercept) = if self.alpha == 0.0 {
            let m = LinearRegression::default()
                .fit_intercept(self.fit_intercept)
                .fit_multi(x, &t)?;
            (m.coef_multi().clone(), m.intercept_multi().clone())
        } else {
            let m = Ridge::new(self.alpha)
                .fit_intercept(self.fit_intercept)
                .fit_multi(x, &t)?;
            (m.coef_multi().clone(), m.intercept_multi().clone())
        };
        Ok(FittedLeastSquaresClassifier {
            params: *self,
            coef,
            intercept,
            n_classes,
        })
    }
}

/// A fitted [`LeastSquaresClassifier`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLeastSquaresClassifier<F: Float> {
    params: LeastSquaresClassifier,
    coef: Array2<F>,
    intercept: Array1<F>,
    n_classes: usize,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedLeastSquaresClassifier<F> {
    fn n_features_in(&self) -> usize {
        self.coef.ncols()
    }
}

impl<F: Float> FittedLeastSquaresClassifier<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &LeastSquaresClassifier {
        &self.params
    }
    /// Coefficients `w_k`, one row per score: `K × d`, or `1 × d` for two classes with
    /// `PlusMinusOne` targets (scikit-learn's `coef_`).
    pub fn coef(&self) -> &Array2<F> {
        &self.coef
    }
    /// Intercepts `w_k0`, one per score.
    pub fn intercept(&self) -> &Array1<F> {
        &self.intercept
    }
    /// Number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
}

impl<F: Float> ndlearn_core::DecisionFunction<F> for FittedLeastSquaresClassifier<F> {
    /// The scores `y_k(x) = w_kᵀx + w_k0`: `N × K`, or `N × 1` (the score of class 1) for two
    /// classes with `PlusMinusOne` targets.
    ///
    /// # Errors
    /// A feature count different from the fit, or non-finite input.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.coef.ncols(),
            "decision_function: number of features",
        )?;
        let mut z = x.dot(&self.coef.t());
        z += &self.intercept;
        Ok(z)
    }
}

impl<F: Float> Predict<F> for FittedLeastSquaresClassifier<F> {
    type Output = Array1<usize>;

    /// `argmax_k y_k(x)` (ties to the lower class); with a single score, class 1 iff the score
    /// is `≥ 0`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        Ok(classes_from_scores(&self.decision_function(x)?))
    }
}

impl<F: Float> FeatureImportances<F> for FittedLeastSquaresClassifier<F> {
    /// `Σ_k |w_kj|` over the score rows.
    fn feature_importances(&self) -> Array1<F> {
        crate::model::abs_column_sums(&self.coef)
    }
}

impl<F: Float> CheckModel for FittedLeastSquaresClassifier<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLeastSquaresClassifier");
        c.params(&self.params)?;
        c.at_least("n_classes", self.n_classes, 2)?;
        let one_score = self.params.targets == LsTargets::PlusMinusOne && self.n_classes == 2;
        let rows = if one_score { 1 } else { self.n_classes };
        check_scores(&c, &self.coef, &self.intercept, rows)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::Error;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = three();
        let mut fit = LeastSquaresClassifier::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.coef = Array2::zeros((2, 2));
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn three() -> (Array2<f64>, Array1<usize>) {
        let x = array![
            [0.0, 0.1],
            [0.3, -0.2],
            [-0.2, 0.2],
            [2.0, 2.1],
            [2.3, 1.8],
            [1.7, 2.2],
            [-2.0, 2.0],
            [-2.2, 1.7],
            [-1.8, 2.4],
            [0.5, 1.0]
        ];
        let y = array![0, 0, 0, 1, 1, 1, 2, 2, 2, 0];
        (x, y)
    }

    #[test]
    fn invalid_alpha_and_labels() {
        let (x, y) = three();
        for a in [-1.0, f64::NAN, f64::INFINITY] {
            match LeastSquaresClassifier::new(a).fit(&x, &y) {
                Err(Error::InvalidParam { name, .. }) => assert_eq!(name, "alpha"),
                other => panic!("alpha {a}: {other:?}"),
            }
        }
        assert!(matches!(
            LeastSquaresClassifier::default().fit(&x, &Array1::from_elem(10, 2)),
            Err(Error::TooFewClasses { .. })
        ));
    }

    #[test]
    fn one_dimensional_two_class_hand_checked() {
        // x = 0, 1, 2, 3 with classes 0, 0, 1, 1. One-hot column of class 1 is (0, 0, 1, 1):
        // least squares slope cov/var = (Σ(x − 1.5)(t − 0.5)) / Σ(x − 1.5)² = 2 / 5 = 0.4,
        // intercept 0.5 − 0.4·1.5 = −0.1; class 0's score is 1 minus that.
        let x: Array2<f64> = array![[0.0], [1.0], [2.0], [3.0]];
        let y = array![0usize, 0, 1, 1];
        let fit = LeastSquaresClassifier::default().fit(&x, &y).expect("test");
        assert!((fit.coef()[[1, 0]] - 0.4).abs() < 1e-12);
        assert!((fit.intercept()[1] + 0.1).abs() < 1e-12);
        assert!((fit.coef()[[0, 0]] + 0.4).abs() < 1e-12);
        assert!((fit.intercept()[0] - 1.1).abs() < 1e-12);
        assert_eq!(fit.predict(&x).expect("test"), y);
        // ±1 coding: one score 2·y₁ − 1 = 0.8x − 1.2, zero at x = 1.5.
        let pm = LeastSquaresClassifier::default()
            .targets(LsTargets::PlusMinusOne)
            .fit(&x, &y)
            .expect("test");
        assert_eq!(pm.coef().dim(), (1, 1));
        assert!((pm.coef()[[0, 0]] - 0.8).abs() < 1e-12);
        assert!((pm.intercept()[0] + 1.2).abs() < 1e-12);
        // sign(0) = +1: the boundary point goes to class 1.
        let at = pm.decision_function(&array![[1.5]]).expect("test")[[0, 0]];
        assert!(at.abs() < 1e-12);
        assert_eq!(pm.predict(&x).expect("test"), y);
    }

    #[test]
    fn codings_agree_and_onehot_scores_sum_to_one() {
        let (x, y) = three();
        for alpha in [0.0, 0.7] {
            let oh = LeastSquaresClassifier::new(alpha)
                .fit(&x, &y)
                .expect("test");
            let pm = LeastSquaresClassifier::new(alpha)
                .targets(LsTargets::PlusMinusOne)
                .fit(&x, &y)
                .expect("test");
            let so = oh.decision_function(&x).expect("test");
            let sp = pm.decision_function(&x).expect("test");
            for (a, b) in so.iter().zip(sp.iter()) {
                assert!((2.0 * a - 1.0 - b).abs() < 1e-10);
            }
            for r in so.rows() {
                assert!((r.sum() - 1.0).abs() < 1e-10);
            }
            assert_eq!(oh.predict(&x).expect("test"), pm.predict(&x).expect("test"));
        }
    }

    #[test]
    fn ties_go_to_the_lower_class_and_f32_works() {
        // Without intercept and x = 0 every score is 0: class 0 wins the tie.
        let (x, y) = three();
        let fit = LeastSquaresClassifier::default()
            .fit_intercept(false)
            .fit(&x, &y)
            .expect("test");
        assert_eq!(fit.predict(&array![[0.0, 0.0]]).expect("test"), array![0]);
        let x32 = x.mapv(|v| v as f32);
        let f32fit = LeastSquaresClassifier::new(0.1)
            .fit(&x32, &y)
            .expect("test");
        let f64fit = LeastSquaresClassifier::new(0.1).fit(&x, &y).expect("test");
        for (a, b) in f32fit.coef().iter().zip(f64fit.coef()) {
            assert!((f64::from(*a) - b).abs() < 1e-4);
        }
        assert_eq!(
            f32fit.predict(&x32).expect("test"),
            f64fit.predict(&x).expect("test")
        );
        assert!(f32fit.predict(&array![[1.0f32]]).is_err());
    }

    #[test]
    fn outlier_sensitivity_of_least_squares() {
        // The course notes warn that least squares is outlier-sensitive: far, correctly labelled points
        // of one class move the boundary (a property logistic regression does not have).
        let x = array![[-2.0], [-1.0], [1.0], [2.0]];
        let y = array![0usize, 0, 1, 1];
        let base = LeastSquaresClassifier::default().fit(&x, &y).expect("test");
        let x2 = array![[-2.0], [-1.0], [1.0], [2.0], [30.0], [31.0]];
        let y2 = array![0usize, 0, 1, 1, 1, 1];
        let moved = LeastSquaresClassifier::default()
            .fit(&x2, &y2)
            .expect("test");
        let boundary = |m: &FittedLeastSquaresClassifier<f64>| {
            let dw = m.coef()[[1, 0]] - m.coef()[[0, 0]];
            let db = m.intercept()[1] - m.intercept()[0];
            -db / dw
        };
        assert!(boundary(&base).abs() < 1e-12);
        assert!(boundary(&moved) > 0.5);
    }
}
