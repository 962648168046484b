//! Categorical encoders over numeric category codes: [`OneHotEncoder`] and [`OrdinalEncoder`].
//! [`super::LabelEncoder`] maps arbitrary labels to `0..k`.

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use std::cmp::Ordering;

use ndarray::{Array2, ArrayRef2};

use super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, InverseTransform, Transform};
use crate::validate::check_fit_input;
use crate::{Error, Float, Result, par};

/// What to do with a category at transform that was not seen at fit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum HandleUnknown {
    /// Return [`Error::InvalidParam`] naming the value, row and column (the default).
    #[default]
    Error,
    /// Encode the feature as all zeros (one-hot only).
    Ignore,
}

/// Which category of each feature a [`OneHotEncoder`] drops (to avoid collinear columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DropCategory {
    /// Keep every category (the default).
    #[default]
    None,
    /// Drop the first (smallest) category of every feature.
    First,
    /// Drop the first category only of features with exactly two categories.
    IfBinary,
}

/// How the categories of each feature are determined.
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Categories {
    /// The sorted distinct values of each training column (the default).
    #[default]
    Auto,
    /// One strictly increasing list per feature. Values outside the list at fit are handled as
    /// at transform (`HandleUnknown`).
    Given(Vec<Vec<f64>>),
}

/// `-0.0` and `0.0` are one category.
fn canon<F: Float>(v: F) -> F {
    if v == F::zero() { F::zero() } else { v }
}

fn cmp<F: Float>(a: &F, b: &F) -> Ordering {
    a.partial_cmp(b).unwrap_or(Ordering::Equal)
}

/// Index of `v` in the sorted category list.
fn find<F: Float>(cats: &[F], v: F) -> Option<usize> {
    cats.binary_search_by(|c| cmp(c, &v)).ok()
}

/// Categories per column (sorted, distinct), from the data or validated from `given`.
fn learn_categories<F: Float>(
    x: &ArrayRef2<F>,
    given: &Categories,
    unknown: HandleUnknown,
    context: &'static str,
) -> Result<Vec<Vec<F>>> {
    match given {
        Categories::Auto => Ok(par::map_tasks(x.ncols(), |j| {
            let mut v: Vec<F> = x.column(j).iter().map(|&v| canon(v)).collect();
            v.sort_unstable_by(cmp);
            v.dedup();
            v
        })),
        Categories::Given(lists) => {
            if lists.len() != x.ncols() {
                return Err(Error::ShapeMismatch {
                    context,
                    expected: format!("{} category lists (one per feature)", x.ncols()),
                    found: format!("{} lists", lists.len()),
                });
            }
            let mut out = Vec::with_capacity(lists.len());
            for (j, list) in lists.iter().enumerate() {
                if list.is_empty()
                    || list.iter().any(|v| !v.is_finite())
                    || list.windows(2).any(|w| w[0] >= w[1])
                {
                    return Err(Error::invalid_param(
                        "categories",
                        format!(
                            "the list of feature {j} must be non-empty, finite and strictly increasing"
                        ),
                    ));
                }
                out.push(list.iter().map(|&v| canon(F::cast(v))).collect());
            }
            if unknown == HandleUnknown::Error {
                check_known(x, &out)?;
            }
            Ok(out)
        }
    }
}

/// First value of `x` that is not a known category.
fn check_known<F: Float>(x: &ArrayRef2<F>, cats: &[Vec<F>]) -> Result<()> {
    for (i, row) in x.rows().into_iter().enumerate() {
        for (j, &v) in row.iter().enumerate() {
            if find(&cats[j], canon(v)).is_none() {
                return Err(Error::invalid_param(
                    "x",
                    format!(
                        "unknown category {v} in column {j} at row {i} ({} categories seen at fit); \
                         set handle_unknown to accept unknown categories",
                        cats[j].len()
                    ),
                ));
            }
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// OneHotEncoder

/// One-hot (dummy) encoding of categorical features given as numbers: each feature with
/// categories `c₀ < c₁ < … < c_{k−1}` becomes `k` indicator columns, `1` in the column of the
/// row's category — scikit-learn's `OneHotEncoder` (dense output).
///
/// The course notes use one-hot vectors for nominal attributes and for class targets (the
/// "1-of-K" coding of Bishop, *Pattern Recognition and Machine Learning* (2006), ch. 4;
/// scikit-learn user guide: Encoding categorical features). Categories are the sorted distinct
/// values of each column: integer codes (`0., 1., 2.`) are the usual input, but any finite value
/// is a category (compared exactly; `−0 = 0`), as in scikit-learn.
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `categories` | `Auto` | `categories` (`'auto'` or lists) |
/// | `drop` | `None` | `drop` (`None`, `'first'`, `'if_binary'`) |
/// | `handle_unknown` | `Error` | `handle_unknown` (`'error'`, `'ignore'`) |
///
/// Output columns: feature 0's categories (minus the dropped one), then feature 1's, … A
/// feature with one category and `drop = First` gives no column. Not implemented: infrequent
/// categories (`min_frequency`, `max_categories`), sparse output.
///
/// `inverse_transform` takes, per feature block, the category of the largest entry (first on
/// ties, numpy's `argmax`); an all-zero block maps to the dropped category, or to NaN when
/// nothing is dropped and `handle_unknown = Ignore` (scikit-learn returns `None`), or is an
/// error otherwise.
///
/// `O(n d log k)`. Errors: [`Error::InvalidParam`] for an unknown category with
/// `handle_unknown = Error` (at fit with given categories, or at transform) and for bad category
/// lists; the usual shape / finiteness errors.
///
/// ```
/// use ndlearn_core::preprocessing::{DropCategory, OneHotEncoder};
/// use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, ndarray::array};
///
/// let x = array![[0.0, 1.0], [2.0, 0.0], [1.0, 1.0]];
/// let enc = OneHotEncoder::default().fit(&x)?;
/// let z = enc.transform(&array![[2.0, 1.0]])?;
/// assert_eq!(z, array![[0.0, 0.0, 1.0, 0.0, 1.0]]);
/// assert_eq!(enc.inverse_transform(&z)?, array![[2.0, 1.0]]);
/// let first = OneHotEncoder::default().drop(DropCategory::First).fit(&x)?;
/// assert_eq!(first.transform(&array![[2.0, 1.0]])?, array![[0.0, 1.0, 1.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct OneHotEncoder {
    /// How categories are determined.
    pub categories: Categories,
    /// Which category to drop per feature.
    pub drop: DropCategory,
    /// Unknown categories at transform.
    pub handle_unknown: HandleUnknown,
}

impl OneHotEncoder {
    crate::setters! {
        /// Sets `categories`.
        categories: Categories,
        /// Sets `drop`.
        drop: DropCategory,
        /// Sets `handle_unknown`.
        handle_unknown: HandleUnknown,
    }
}

impl crate::Estimator for OneHotEncoder {
    /// All settings are valid (category lists are checked at fit, against the data).
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for OneHotEncoder {
    type Model = FittedOneHotEncoder<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "OneHotEncoder::fit")?;
        let categories = learn_categories(
            x,
            &self.categories,
            self.handle_unknown,
            "OneHotEncoder::fit",
        )?;
        let drop_idx: Vec<Option<usize>> = categories
            .iter()
            .map(|c| match self.drop {
                DropCategory::None => None,
                DropCategory::First => Some(0),
                DropCategory::IfBinary => (c.len() == 2).then_some(0),
            })
            .collect();
        let mut offsets = Vec::with_capacity(categories.len() + 1);
        let mut total = 0;
        for (c, d) in categories.iter().zip(&drop_idx) {
            offsets.push(total);
            total += c.len() - usize::from(d.is_some());
        }
        offsets.push(total);
        Ok(FittedOneHotEncoder {
            params: self.clone(),
            categories,
            drop_idx,
            offsets,
        })
    }
}

/// A fitted [`OneHotEncoder`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedOneHotEncoder<F> {
    params: OneHotEncoder,
    categories: Vec<Vec<F>>,
    drop_idx: Vec<Option<usize>>,
    /// Output column where each feature's block starts; last entry = number of outputs.
    offsets: Vec<usize>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedOneHotEncoder<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedOneHotEncoder<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &OneHotEncoder {
        &self.params
    }
    /// Sorted categories of each feature (scikit-learn's `categories_`).
    pub fn categories(&self) -> &[Vec<F>] {
        &self.categories
    }
    /// Index of the dropped category of each feature (scikit-learn's `drop_idx_`).
    pub fn drop_idx(&self) -> &[Option<usize>] {
        &self.drop_idx
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.categories.len()
    }
    /// Number of output columns.
    pub fn n_features_out(&self) -> usize {
        self.offsets[self.categories.len()]
    }
    /// Output column of category index `k` of feature `j` (`None` if dropped).
    fn column_of(&self, j: usize, k: usize) -> Option<usize> {
        match self.drop_idx[j] {
            Some(d) if d == k => None,
            Some(d) if k > d => Some(self.offsets[j] + k - 1),
            _ => Some(self.offsets[j] + k),
        }
    }
}

impl<F: Float> Transform<F> for FittedOneHotEncoder<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "OneHotEncoder::transform")?;
        if self.params.handle_unknown == HandleUnknown::Error {
            check_known(x, &self.categories)?;
        }
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            for (j, &v) in row.iter().enumerate() {
                if let Some(c) =
                    find(&self.categories[j], canon(v)).and_then(|k| self.column_of(j, k))
                {
                    out[c] = F::one();
                }
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedOneHotEncoder<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features_out(), "OneHotEncoder::inverse_transform")?;
        let d = self.n_features();
        let mut out = Array2::zeros((z.nrows(), d));
        for (i, row) in z.rows().into_iter().enumerate() {
            for j in 0..d {
                let block = row.slice(ndarray::s![self.offsets[j]..self.offsets[j + 1]]);
                let cats = &self.categories[j];
                let all_zero = block.iter().fold(F::zero(), |a, &v| a + v) == F::zero();
                let value = if all_zero || block.is_empty() {
                    match self.drop_idx[j] {
                        Some(k) => cats[k],
                        None if self.params.handle_unknown == HandleUnknown::Ignore => F::nan(),
                        None => {
                            return Err(Error::invalid_param(
                                "z",
                                format!(
                                    "row {i} has all zeros for feature {j}, which cannot be inverted \
                                     when no category is dropped and handle_unknown = Error"
                                ),
                            ));
                        }
                    }
                } else {
                    let mut best = 0;
                    for (k, &v) in block.iter().enumerate() {
                        if v > block[best] {
                            best = k;
                        }
                    }
                    // Block position -> category index (skip the dropped one).
                    match self.drop_idx[j] {
                        Some(dk) if best >= dk => cats[best + 1],
                        _ => cats[best],
                    }
                };
                out[[i, j]] = value;
            }
        }
        Ok(out)
    }
}

// ---------------------------------------------------------------------------------------------
// OrdinalEncoder

/// Unknown categories in an [`OrdinalEncoder`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum OrdinalUnknown {
    /// Return [`Error::InvalidParam`] (the default).
    #[default]
    Error,
    /// Encode unknown categories as this value (scikit-learn's `use_encoded_value`); it must be
    /// finite and not one of the codes `0..k` of any feature (e.g. `−1`).
    UseEncodedValue(f64),
}

/// Maps each feature's categories `c₀ < c₁ < … < c_{k−1}` to their ranks `0, 1, …, k − 1` —
/// scikit-learn's `OrdinalEncoder` for numeric input.
///
/// The course notes' ordinal treatment (Han, Kamber & Pei, *Data Mining: Concepts and
/// Techniques*, 3rd ed. (2011), §2.4) rescales a rank
/// `r ∈ 1..M` to `(r − 1)/(M − 1)`: that is this code divided by `k − 1` (see
/// [`crate::distance::ordinal_to_unit`]). `inverse_transform` maps codes back (an unknown code
/// → NaN, scikit-learn gives `None`; a code that is not an integer in `0..k` is an error).
///
/// ```
/// use ndlearn_core::preprocessing::OrdinalEncoder;
/// use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, ndarray::array};
///
/// let x = array![[10.0], [30.0], [20.0], [10.0]];
/// let enc = OrdinalEncoder::default().fit(&x)?;
/// assert_eq!(enc.transform(&x)?, array![[0.0], [2.0], [1.0], [0.0]]);
/// assert_eq!(enc.inverse_transform(&array![[1.0]])?, array![[20.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct OrdinalEncoder {
    /// How categories are determined.
    pub categories: Categories,
    /// Unknown categories at transform.
    pub handle_unknown: OrdinalUnknown,
}

impl OrdinalEncoder {
    crate::setters! {
        /// Sets `categories`.
        categories: Categories,
        /// Sets `handle_unknown`.
        handle_unknown: OrdinalUnknown,
    }
}

impl crate::Estimator for OrdinalEncoder {
    /// Requires a finite encoded value for unknown categories.
    fn validate(&self) -> Result<()> {
        if let OrdinalUnknown::UseEncodedValue(v) = self.handle_unknown {
            if !v.is_finite() {
                return Err(Error::invalid_param(
                    "handle_unknown",
                    format!("the encoded value must be finite, got {v}"),
                ));
            }
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for OrdinalEncoder {
    type Model = FittedOrdinalEncoder<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "OrdinalEncoder::fit")?;
        let mode = match self.handle_unknown {
            OrdinalUnknown::Error => HandleUnknown::Error,
            OrdinalUnknown::UseEncodedValue(_) => HandleUnknown::Ignore,
        };
        let categories = learn_categories(x, &self.categories, mode, "OrdinalEncoder::fit")?;
        if let OrdinalUnknown::UseEncodedValue(u) = self.handle_unknown {
            let max_k = categories.iter().map(Vec::len).max().unwrap_or(0);
            if u >= 0.0 && u.fract() == 0.0 && (u as usize) < max_k {
                return Err(Error::invalid_param(
                    "handle_unknown",
                    format!("the encoded value {u} is already the code of a seen category"),
                ));
            }
        }
        Ok(FittedOrdinalEncoder {
            params: self.clone(),
            categories,
        })
    }
}

/// A fitted [`OrdinalEncoder`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedOrdinalEncoder<F> {
    params: OrdinalEncoder,
    categories: Vec<Vec<F>>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedOrdinalEncoder<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedOrdinalEncoder<F> {
    /// Sorted categories of each feature.
    pub fn categories(&self) -> &[Vec<F>] {
        &self.categories
    }
    /// Number of input (and output) features.
    pub fn n_features(&self) -> usize {
        self.categories.len()
    }
}

impl<F: Float> Transform<F> for FittedOrdinalEncoder<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "OrdinalEncoder::transform")?;
        let unknown = match self.params.handle_unknown {
            OrdinalUnknown::Error => {
                check_known(x, &self.categories)?;
                F::nan()
            }
            OrdinalUnknown::UseEncodedValue(u) => F::cast(u),
        };
        Ok(map_rows(x, x.ncols(), |row, out| {
            for (j, &v) in row.iter().enumerate() {
                out[j] = find(&self.categories[j], canon(v)).map_or(unknown, F::cast);
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedOrdinalEncoder<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "OrdinalEncoder::inverse_transform")?;
        let unknown = match self.params.handle_unknown {
            OrdinalUnknown::UseEncodedValue(u) => Some(F::cast(u)),
            OrdinalUnknown::Error => None,
        };
        let mut out = Array2::zeros(z.dim());
        for ((i, j), &v) in z.indexed_iter() {
            let cats = &self.categories[j];
            out[[i, j]] = if Some(v) == unknown {
                F::nan()
            } else if v >= F::zero() && v.fract() == F::zero() && v < F::cast(cats.len()) {
                cats[v.to_usize().unwrap_or(0)]
            } else {
                return Err(Error::invalid_param(
                    "z",
                    format!(
                        "code {v} at row {i}, column {j} is not an integer in 0..{}",
                        cats.len()
                    ),
                ));
            };
        }
        Ok(out)
    }
}

impl<F: Float> CheckModel for FittedOneHotEncoder<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedOneHotEncoder");
        c.params(&self.params)?;
        c.at_least("categories", self.categories.len(), 1)?;
        c.len("drop_idx", self.drop_idx.len(), self.categories.len())?;
        for (j, (cats, drop)) in self.categories.iter().zip(&self.drop_idx).enumerate() {
            c.that(!cats.is_empty(), || format!("feature {j} has no category"))?;
            c.finite_slice("categories", cats)?;
            c.that(drop.is_none_or(|d| d < cats.len()), || {
                format!("feature {j}: dropped category out of range")
            })?;
        }
        let widths = self
            .categories
            .iter()
            .zip(&self.drop_idx)
            .map(|(cats, d)| cats.len() - usize::from(d.is_some()));
        c.cumulative("offsets", &self.offsets, widths)
    }
}

impl<F: Float> CheckModel for FittedOrdinalEncoder<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedOrdinalEncoder");
        c.params(&self.params)?;
        c.at_least("categories", self.categories.len(), 1)?;
        for cats in &self.categories {
            c.finite_slice("categories", cats)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn one_hot_categories_and_drops() {
        let x: Array2<f64> = array![[1.0, 5.0], [0.0, 6.0], [2.0, 5.0], [-0.0, 5.0]];
        let enc = OneHotEncoder::default().fit(&x).expect("fit");
        assert_eq!(enc.categories()[0], vec![0.0, 1.0, 2.0]);
        assert_eq!(enc.n_features_out(), 5);
        let z = enc.transform(&x).expect("t");
        assert_eq!(z.row(0).to_vec(), vec![0.0, 1.0, 0.0, 1.0, 0.0]);
        assert_eq!(z.row(3).to_vec(), vec![1.0, 0.0, 0.0, 1.0, 0.0]);
        assert_eq!(enc.inverse_transform(&z).expect("inv"), x.mapv(|v| v + 0.0));
        let bin = OneHotEncoder::default()
            .drop(DropCategory::IfBinary)
            .fit(&x)
            .expect("fit");
        // Feature 1 is binary: only the 6.0 column remains.
        assert_eq!(bin.n_features_out(), 4);
        assert_eq!(
            bin.transform(&array![[2.0, 6.0]]).expect("t"),
            array![[0.0, 0.0, 1.0, 1.0]]
        );
        assert_eq!(
            bin.inverse_transform(&array![[0.0, 1.0, 0.0, 0.0]])
                .expect("inv"),
            array![[1.0, 5.0]]
        );
        // Unknown categories.
        assert!(matches!(
            enc.transform(&array![[3.0, 5.0]]),
            Err(Error::InvalidParam { .. })
        ));
        let ign = OneHotEncoder::default()
            .handle_unknown(HandleUnknown::Ignore)
            .fit(&x)
            .expect("fit");
        let z = ign.transform(&array![[3.0, 5.0]]).expect("t");
        assert_eq!(z, array![[0.0, 0.0, 0.0, 1.0, 0.0]]);
        let back = ign.inverse_transform(&z).expect("inv");
        assert!(back[[0, 0]].is_nan() && back[[0, 1]] == 5.0);
        assert!(enc.inverse_transform(&z).is_err());
        assert!(enc.inverse_transform(&array![[1.0]]).is_err());
    }

    #[test]
    fn given_categories() {
        let x: Array2<f64> = array![[1.0], [2.0]];
        let enc = OneHotEncoder::default()
            .categories(Categories::Given(vec![vec![0.0, 1.0, 2.0]]))
            .fit(&x)
            .expect("fit");
        assert_eq!(
            enc.transform(&array![[0.0]]).expect("t"),
            array![[1.0, 0.0, 0.0]]
        );
        for bad in [
            vec![vec![1.0, 1.0]],
            vec![vec![]],
            vec![vec![0.0], vec![1.0]],
            vec![vec![0.0, 1.0]],
        ] {
            // Duplicate, empty, wrong count, and a value (2) not in the list.
            assert!(
                OneHotEncoder::default()
                    .categories(Categories::Given(bad))
                    .fit(&x)
                    .is_err()
            );
        }
    }

    #[test]
    fn ordinal_encoder() {
        let x: Array2<f64> = array![[3.0, 1.0], [1.0, 1.0], [2.0, 0.0]];
        let enc = OrdinalEncoder::default().fit(&x).expect("fit");
        assert_eq!(
            enc.transform(&x).expect("t"),
            array![[2.0, 1.0], [0.0, 1.0], [1.0, 0.0]]
        );
        assert!(enc.transform(&array![[4.0, 1.0]]).is_err());
        assert!(enc.inverse_transform(&array![[0.5, 0.0]]).is_err());
        assert!(enc.inverse_transform(&array![[3.0, 0.0]]).is_err());
        let u = OrdinalEncoder::default()
            .handle_unknown(OrdinalUnknown::UseEncodedValue(-1.0))
            .fit(&x)
            .expect("fit");
        let z = u.transform(&array![[4.0, 1.0]]).expect("t");
        assert_eq!(z, array![[-1.0, 1.0]]);
        assert!(u.inverse_transform(&z).expect("inv")[[0, 0]].is_nan());
        assert!(
            OrdinalEncoder::default()
                .handle_unknown(OrdinalUnknown::UseEncodedValue(1.0))
                .fit(&x)
                .is_err()
        );
        assert!(
            OrdinalEncoder::default()
                .handle_unknown(OrdinalUnknown::UseEncodedValue(f64::NAN))
                .validate()
                .is_err()
        );
    }
}
