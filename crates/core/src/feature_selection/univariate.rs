//! Univariate filter selection: keep the features with the best scores ([`SelectKBest`],
//! [`SelectPercentile`]) under any [`ScoreFunction`] (catalog M-08, CL-184).

use ndarray::{Array1, Array2, ArrayRef2};

use super::{check_transform_input, inverse_select_columns, select_columns};
use crate::{Error, Fit, Float, InverseTransform, Result, Transform};

/// Per-feature scores of a filter method, and p-values when the method is a test.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct FeatureScores<F: Float> {
    /// One score per feature, higher = more relevant.
    pub scores: Array1<F>,
    /// One p-value per feature (tests only).
    pub pvalues: Option<Array1<F>>,
}

impl<F: Float> FeatureScores<F> {
    /// Scores without p-values.
    pub fn new(scores: Array1<F>) -> Self {
        Self {
            scores,
            pvalues: None,
        }
    }

    /// Scores with p-values.
    pub fn with_pvalues(scores: Array1<F>, pvalues: Array1<F>) -> Self {
        Self {
            scores,
            pvalues: Some(pvalues),
        }
    }
}

/// A univariate feature score: one number per column of `x` saying how related it is to the
/// target (higher = more relevant). Implemented by the filter scores of this module
/// ([`Chi2`](super::Chi2), [`FClassif`](super::FClassif), [`FRegression`](super::FRegression),
/// [`PearsonCorrelation`](super::PearsonCorrelation), the binned mutual informations and
/// [`Chi2Independence`](super::Chi2Independence)), and by any type of yours.
pub trait ScoreFunction<F: Float> {
    /// The target: class labels (`ArrayRef1<usize>`) or values (`ArrayRef1<F>`).
    type Target: ?Sized;
    /// Scores every column of `x` against `y`.
    fn score(&self, x: &ArrayRef2<F>, y: &Self::Target) -> Result<FeatureScores<F>>;
}

/// A fitted univariate selector: the scores, the p-values and the support mask.
///
/// [`Transform`] keeps the selected columns (in their original order);
/// [`InverseTransform`] puts them back with zeros in the dropped columns (scikit-learn's
/// `inverse_transform`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSelector<F: Float> {
    scores: Array1<F>,
    pvalues: Option<Array1<F>>,
    support: Vec<bool>,
}

impl<F: Float> FittedSelector<F> {
    /// The score of every input feature.
    pub fn scores(&self) -> &Array1<F> {
        &self.scores
    }
    /// The p-value of every input feature, when the score function is a test.
    pub fn pvalues(&self) -> Option<&Array1<F>> {
        self.pvalues.as_ref()
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
    /// Number of input features seen at fit.
    pub fn n_features_in(&self) -> usize {
        self.support.len()
    }
}

impl<F: Float> Transform<F> for FittedSelector<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_transform_input(x, self.support.len())?;
        Ok(select_columns(x, &self.support))
    }
}

impl<F: Float> InverseTransform<F> for FittedSelector<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        inverse_select_columns(z, &self.support)
    }
}

/// Keep the `k` features with the highest scores (scikit-learn's `SelectKBest`).
///
/// Ties are resolved as scikit-learn does: scores are sorted stably in increasing order and the
/// last `k` are kept, so among equal scores the **higher** feature indices are kept. NaN scores
/// (which this module's score functions never return) count as the lowest.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `score_func` | — | `score_func` | any [`ScoreFunction`] |
/// | `k` | `Some(10)` | `k` | features to keep; `None` = all (`"all"`) |
///
/// ```
/// use ndlearn_core::feature_selection::{FClassif, SelectKBest};
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::{Fit, Transform};
///
/// // Column 1 separates the classes, column 0 is noise.
/// let x = array![[0.3, 0.0], [0.1, 0.2], [0.2, 1.0], [0.4, 1.1]];
/// let y = array![0usize, 0, 1, 1];
/// let sel = SelectKBest::new(FClassif, 1).fit(&x, &y)?;
/// assert_eq!(sel.support(), &[false, true]);
/// assert_eq!(sel.transform(&x)?.column(0), x.column(1));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SelectKBest<S> {
    /// The score function.
    pub score_func: S,
    /// Number of features to keep (`None` = all).
    pub k: Option<usize>,
}

impl<S> SelectKBest<S> {
    /// Keep the best `k` features under `score_func`.
    pub fn new(score_func: S, k: usize) -> Self {
        Self {
            score_func,
            k: Some(k),
        }
    }
    crate::setters! {
        /// Sets [`SelectKBest::k`].
        k: Option<usize>,
    }
}

impl<F: Float, S: ScoreFunction<F>> Fit<F> for SelectKBest<S> {
    type Target = S::Target;
    type Model = FittedSelector<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &S::Target) -> Result<FittedSelector<F>> {
        let fs = score_checked(&self.score_func, x, y)?;
        let d = fs.scores.len();
        let k = self.k.unwrap_or(d);
        if k > d {
            return Err(Error::invalid_param(
                "k",
                format!("must be <= n_features = {d}, got {k}; use None for all"),
            ));
        }
        let support = k_best_mask(&fs.scores, k);
        Ok(FittedSelector {
            scores: fs.scores,
            pvalues: fs.pvalues,
            support,
        })
    }
}

/// Keep the features whose score is in the top `percentile` percent (scikit-learn's
/// `SelectPercentile`).
///
/// As scikit-learn: the threshold is the `(100 − percentile)`-th percentile of the scores
/// (linear interpolation, numpy's default); features scoring strictly above it are kept, then
/// features scoring exactly at it are added in increasing index order while fewer than
/// `⌊d · percentile / 100⌋` features are kept. `percentile = 100` keeps everything, `0`
/// nothing.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `score_func` | — | `score_func` | any [`ScoreFunction`] |
/// | `percentile` | 10 | `percentile` | in `[0, 100]` |
///
/// ```
/// use ndlearn_core::feature_selection::{FRegression, SelectPercentile};
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::Fit;
///
/// let x = array![[1.0, 0.3, 5.0, 2.0], [2.0, 0.1, 4.0, 2.5], [3.0, 0.4, 2.0, 1.0], [4.0, 0.2, 1.0, 3.0]];
/// let y = array![1.0, 2.1, 2.9, 4.2];
/// let sel = SelectPercentile::new(FRegression, 50.0).fit(&x, &y)?;
/// assert_eq!(sel.selected_features(), vec![0, 2]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SelectPercentile<S> {
    /// The score function.
    pub score_func: S,
    /// Percentage of features to keep, in `[0, 100]`.
    pub percentile: f64,
}

impl<S> SelectPercentile<S> {
    /// Keep the top `percentile` percent of features under `score_func`.
    pub fn new(score_func: S, percentile: f64) -> Self {
        Self {
            score_func,
            percentile,
        }
    }
}

impl<F: Float, S: ScoreFunction<F>> Fit<F> for SelectPercentile<S> {
    type Target = S::Target;
    type Model = FittedSelector<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &S::Target) -> Result<FittedSelector<F>> {
        crate::validate::check_in_range("percentile", self.percentile, 0.0, 100.0)?;
        let fs = score_checked(&self.score_func, x, y)?;
        let support = percentile_mask(&fs.scores, self.percentile);
        Ok(FittedSelector {
            scores: fs.scores,
            pvalues: fs.pvalues,
            support,
        })
    }
}

/// Runs a score function and checks that it returned one score (and p-value) per feature.
fn score_checked<F: Float, S: ScoreFunction<F>>(
    s: &S,
    x: &ArrayRef2<F>,
    y: &S::Target,
) -> Result<FeatureScores<F>> {
    let fs = s.score(x, y)?;
    let d = x.ncols();
    let lens = (fs.scores.len(), fs.pvalues.as_ref().map_or(d, Array1::len));
    if lens != (d, d) {
        return Err(Error::ShapeMismatch {
            context: "score function output",
            expected: format!("{d} scores (one per feature)"),
            found: format!("{} scores, {} p-values", lens.0, lens.1),
        });
    }
    Ok(fs)
}

/// Scores as f64 with NaN as the lowest value.
fn clean<F: Float>(scores: &Array1<F>) -> Vec<f64> {
    scores
        .iter()
        .map(|s| {
            let v = s.to_f64_lossless();
            if v.is_nan() { f64::MIN } else { v }
        })
        .collect()
}

/// scikit-learn's rule: stable ascending sort, keep the last `k`.
pub(crate) fn k_best_mask<F: Float>(scores: &Array1<F>, k: usize) -> Vec<bool> {
    let s = clean(scores);
    let mut order: Vec<usize> = (0..s.len()).collect();
    order.sort_by(|&a, &b| s[a].total_cmp(&s[b]));
    let mut mask = vec![false; s.len()];
    for &j in order.iter().rev().take(k) {
        mask[j] = true;
    }
    mask
}

/// numpy's `percentile(v, q)` with linear interpolation (`v` non-empty, NaN-free).
pub(crate) fn percentile_linear(v: &[f64], q: f64) -> f64 {
    let mut s = v.to_vec();
    crate::stats::order::sort_ascending(&mut s);
    crate::stats::order::quantile_sorted(&s, q / 100.0, crate::stats::order::QuantileMethod::Linear)
}

fn percentile_mask<F: Float>(scores: &Array1<F>, percentile: f64) -> Vec<bool> {
    let d = scores.len();
    if percentile >= 100.0 {
        return vec![true; d];
    }
    if percentile <= 0.0 || d == 0 {
        return vec![false; d];
    }
    let s = clean(scores);
    let threshold = percentile_linear(&s, 100.0 - percentile);
    let mut mask: Vec<bool> = s.iter().map(|&v| v > threshold).collect();
    let max_feats = (d as f64 * percentile / 100.0) as usize;
    let mut kept = mask.iter().filter(|&&m| m).count();
    for j in 0..d {
        if s[j] == threshold && kept < max_feats {
            mask[j] = true;
            kept += 1;
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{ArrayRef1, array};

    /// Score = the column index as given in `values` (ignores the data): lets the selection
    /// rules be checked by hand.
    struct Fixed(Vec<f64>);
    impl ScoreFunction<f64> for Fixed {
        type Target = ArrayRef1<usize>;
        fn score(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<usize>) -> Result<FeatureScores<f64>> {
            Ok(FeatureScores::new(Array1::from(self.0.clone())))
        }
    }

    fn data(d: usize) -> (Array2<f64>, Array1<usize>) {
        (
            Array2::from_shape_fn((3, d), |(i, j)| (i * d + j) as f64),
            array![0, 1, 0],
        )
    }

    #[test]
    fn k_best_ties_keep_higher_indices() {
        let (x, y) = data(5);
        let f = SelectKBest::new(Fixed(vec![1.0, 3.0, 1.0, 2.0, 1.0]), 3)
            .fit(&x, &y)
            .expect("valid");
        // 3.0 and 2.0, then of the three 1.0s the highest index (4).
        assert_eq!(f.selected_features(), vec![1, 3, 4]);
        let f = SelectKBest::new(Fixed(vec![f64::NAN, 0.0, -1.0]), 2)
            .fit(&x.slice(ndarray::s![.., ..3]), &y)
            .expect("valid");
        assert_eq!(f.selected_features(), vec![1, 2]);
        let all = SelectKBest::new(Fixed(vec![1.0; 5]), 0)
            .k(None)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(all.support(), &[true; 5]);
        assert!(
            SelectKBest::new(Fixed(vec![1.0; 5]), 6)
                .fit(&x, &y)
                .is_err()
        );
        let none = SelectKBest::new(Fixed(vec![1.0; 5]), 0)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(none.transform(&x).expect("ok").dim(), (3, 0));
        // A score function returning the wrong length.
        assert!(
            SelectKBest::new(Fixed(vec![1.0; 4]), 1)
                .fit(&x, &y)
                .is_err()
        );
    }

    #[test]
    fn percentile_as_sklearn() {
        // 10 scores 0..9, percentile 30: threshold = 70th percentile = 6.3 → keep 7, 8, 9.
        let (x, y) = data(10);
        let sc: Vec<f64> = (0..10).map(f64::from).collect();
        let f = SelectPercentile::new(Fixed(sc), 30.0)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(f.selected_features(), vec![7, 8, 9]);
        // All equal: threshold equals every score; ties added in index order up to ⌊10·0.25⌋.
        let f = SelectPercentile::new(Fixed(vec![2.0; 10]), 25.0)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(f.selected_features(), vec![0, 1]);
        let f = SelectPercentile::new(Fixed(vec![2.0; 10]), 100.0)
            .fit(&x, &y)
            .expect("ok");
        assert_eq!(f.selected_features().len(), 10);
        let f = SelectPercentile::new(Fixed(vec![2.0; 10]), 0.0)
            .fit(&x, &y)
            .expect("ok");
        assert!(f.selected_features().is_empty());
        assert!(
            SelectPercentile::new(Fixed(vec![2.0; 10]), 101.0)
                .fit(&x, &y)
                .is_err()
        );
        assert_eq!(percentile_linear(&[1.0, 2.0, 3.0, 4.0], 50.0), 2.5);
    }

    #[test]
    fn transform_and_inverse() {
        let (x, y) = data(4);
        let f = SelectKBest::new(Fixed(vec![0.0, 5.0, 1.0, 4.0]), 2)
            .fit(&x, &y)
            .expect("ok");
        let z = f.transform(&x).expect("ok");
        assert_eq!(z, array![[1.0, 3.0], [5.0, 7.0], [9.0, 11.0]]);
        let back = f.inverse_transform(&z).expect("ok");
        assert_eq!(
            back,
            array![
                [0.0, 1.0, 0.0, 3.0],
                [0.0, 5.0, 0.0, 7.0],
                [0.0, 9.0, 0.0, 11.0]
            ]
        );
        assert!(f.transform(&z).is_err());
        assert!(f.inverse_transform(&x).is_err());
        let mut bad = x.clone();
        bad[[0, 0]] = f64::NAN;
        assert!(matches!(f.transform(&bad), Err(Error::NonFinite { .. })));
    }
}
