//! Feature selection: wrapper search, filter scores, embedded selection and recursive
//! elimination.
//!
//! "Each feature selection method usually consists of two components: a search technique for
//! subsets of given features, and an evaluation measure to rank different subsets" (the course
//! notes, catalog M-08; cf. Guyon & Elisseeff, "An introduction to variable and feature
//! selection", JMLR 3, 2003). Selecting fewer features reduces overfitting, the curse of
//! dimensionality and training time.
//!
//! | approach (the course notes) | here | scikit-learn |
//! |---|---|---|
//! | wrapper: forward stepwise selection | [`SequentialFeatureSelector`], [`forward_selection`] | `SequentialFeatureSelector(direction="forward")` |
//! | wrapper: backward elimination (not in the course notes) | [`SequentialFeatureSelector`], [`backward_elimination`] | `direction="backward"` |
//! | wrapper: exhaustive search over `2^D` subsets | [`best_subset`] (`D ≤ 20`) | — |
//! | filter: correlation with the target | [`PearsonCorrelation`], [`r_regression`] | `r_regression` |
//! | filter: mutual information, binned | [`MutualInfoClassif`], [`MutualInfoRegression`] | (`mutual_info_*` use k-NN estimators instead) |
//! | χ² significance test | [`Chi2`] / [`chi2`] (scikit-learn's), [`Chi2Independence`] (a contingency-table test on a binned feature) | `chi2` |
//! | ANOVA F-tests (not in the course notes) | [`FClassif`] / [`f_classif`], [`FRegression`] / [`f_regression`] | `f_classif`, `f_regression` |
//! | keep the best scores | [`SelectKBest`], [`SelectPercentile`] | same names |
//! | embedded: lasso / elastic net | [`SelectFromModel`] over any model with [`FeatureImportances`](crate::FeatureImportances) | `SelectFromModel` |
//! | SVM-RFE | [`Rfe`] | `RFE` |
//!
//! # Wrappers take a score closure
//!
//! The wrapper searches do not fit models themselves: they call `score(&subset) -> Result<f64>`
//! (higher is better) for sorted lists of column indices. The caller decides how a subset is
//! evaluated: a holdout split, k-fold cross-validation, an information criterion. This keeps the
//! search independent of any estimator and of `model_selection`. For example, least squares
//! scored by `R²` on a holdout split:
//!
//! ```
//! use ndlearn_core::feature_selection::forward_selection;
//! use ndlearn_core::linalg::lstsq;
//! use ndlearn_core::ndarray::{Array1, Array2, Axis, concatenate};
//!
//! // y depends on columns 0 and 2 only; columns 1 and 3 are noise.
//! let n = 60;
//! let x = Array2::from_shape_fn((n, 4), |(i, j)| ((i * (7 + 3 * j) + j * j) % 17) as f64 / 17.0);
//! let y: Array1<f64> = x.column(0).mapv(|v| 2.0 * v) - &x.column(2) + 0.5;
//! let (train, test): (Vec<usize>, Vec<usize>) = (0..n).partition(|i| i % 4 != 0);
//!
//! let score = |cols: &[usize]| {
//!     // Design matrix: the chosen columns and an intercept column.
//!     let design = |rows: &[usize]| {
//!         let xs = x.select(Axis(0), rows).select(Axis(1), cols);
//!         concatenate![Axis(1), xs, Array2::ones((rows.len(), 1))]
//!     };
//!     let w = lstsq(&design(&train), &y.select(Axis(0), &train), None)?.solution;
//!     let yt = y.select(Axis(0), &test);
//!     let resid = &yt - &design(&test).dot(&w);
//!     let centred = &yt - yt.mean().unwrap_or(0.0);
//!     Ok(1.0 - resid.dot(&resid) / centred.dot(&centred)) // R² on the holdout rows
//! };
//! let sel = forward_selection(4, None, Some(1e-6), score)?;
//! assert_eq!(sel.selected, vec![0, 2]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # Selectors are estimators
//!
//! [`SelectKBest`], [`SelectPercentile`], [`SelectFromModel`] and [`Rfe`] implement
//! [`Fit`](crate::Fit) (the target is the score function's or the estimator's: class labels or
//! values), and their fitted models implement [`Transform`](crate::Transform) (keep the
//! selected columns, in their original order) and [`InverseTransform`](crate::InverseTransform)
//! (zeros in the dropped columns), and expose the support mask.
//!
//! # Choices not in the course notes
//!
//! * Ties: forward/backward steps take the lower feature index; [`best_subset`] prefers the
//!   smaller, then the lexicographically first subset; [`SelectKBest`] keeps the higher indices
//!   among equal scores (scikit-learn's rule); [`Rfe`] removes the lower index first.
//! * Degenerate features are scored, not rejected: a constant column has correlation 0, F = 0
//!   with p = 1, χ² = 0 with p = 1 (scikit-learn returns NaN for some of these).
//! * Backward elimination starts from the score of the full set (scikit-learn from `−∞`).
//!
//! References: the course notes (catalog M-08). Guyon & Elisseeff (2003), "An introduction to
//! variable and feature selection", JMLR 3. Kohavi & John (1997), "Wrappers for feature subset
//! selection", Artificial Intelligence 97. Guyon, Weston, Barnhill & Vapnik (2002), "Gene
//! selection for cancer classification using support vector machines" (RFE). Hastie,
//! Tibshirani & Friedman, *The Elements of Statistical Learning*, §3.3 (best subset, forward
//! and backward stepwise).

mod from_model;
mod rfe;
mod scores;
mod sequential;
mod subset;
mod univariate;

pub use from_model::{FittedSelectFromModel, SelectFromModel, Threshold, select_by_importance};
pub use rfe::{FittedRfe, Rfe, Step};
pub use scores::{
    Chi2, Chi2Independence, FClassif, FRegression, MutualInfoClassif, MutualInfoRegression,
    PearsonCorrelation, chi2, chi2_independence_scores, f_classif, f_regression,
    mutual_info_classif_binned, mutual_info_regression_binned, r_regression,
};
pub use sequential::{
    Direction, SequentialFeatureSelector, SequentialSelection, backward_elimination,
    forward_selection,
};
pub use subset::{BestSubset, MAX_EXHAUSTIVE_FEATURES, best_subset};
pub use univariate::{FeatureScores, FittedSelector, ScoreFunction, SelectKBest, SelectPercentile};

use ndarray::{Array2, ArrayRef2, Axis};

use crate::{Error, Float, Result};

/// `x` has the fitted number of columns and is finite.
pub(crate) fn check_transform_input<F: Float>(x: &ArrayRef2<F>, d: usize) -> Result<()> {
    crate::validate::check_predict_input(x, d, "feature selector transform")
}

/// The columns of `x` where `support` is true.
pub(crate) fn select_columns<F: Float>(x: &ArrayRef2<F>, support: &[bool]) -> Array2<F> {
    let cols: Vec<usize> = (0..support.len()).filter(|&j| support[j]).collect();
    x.select(Axis(1), &cols)
}

/// Puts the columns of `z` back at the selected positions, zeros elsewhere.
pub(crate) fn inverse_select_columns<F: Float>(
    z: &ArrayRef2<F>,
    support: &[bool],
) -> Result<Array2<F>> {
    let cols: Vec<usize> = (0..support.len()).filter(|&j| support[j]).collect();
    crate::validate::check_n_features(z.ncols(), cols.len(), "feature selector inverse_transform")?;
    let mut out = Array2::zeros((z.nrows(), support.len()));
    for (k, &j) in cols.iter().enumerate() {
        out.column_mut(j).assign(&z.column(k));
    }
    Ok(out)
}

/// A model's importances must have one entry per column it was fitted on.
pub(crate) fn check_importances_len(found: usize, expected: usize) -> Result<()> {
    if found != expected {
        return Err(Error::ShapeMismatch {
            context: "feature_importances",
            expected: format!("{expected} importances (one per feature)"),
            found: format!("{found}"),
        });
    }
    Ok(())
}
