//! Feature binning shared by the histogram split mode of the trees and by histogram gradient
//! boosting: [`BinMapper`] maps every feature to at most 255 quantile bins coded as `u8`, with one
//! more code for missing values.
//!
//! # Thresholds (scikit-learn's `_BinMapper`)
//!
//! For each feature, the non-missing values (of positive weight) are sorted. With at most
//! `max_bins` distinct values the thresholds are the midpoints of consecutive distinct values
//! (every value gets its own bin, so splitting on bins is splitting on values); otherwise they
//! are the `i/max_bins` quantiles, `i = 1..max_bins − 1`, by the averaged inverted CDF (NumPy's
//! `method = "averaged_inverted_cdf"`; with sample weights the weighted percentile of
//! `ndlearn_core::stats`), duplicates removed. A value `x` goes to bin
//! `b = #{thresholds < x}`, i.e. `t_{b−1} < x ≤ t_b`; NaN goes to the missing bin
//! [`FittedBinMapper::missing_bin`] (= `max_bins`). Above `subsample` rows (default 200,000) the
//! quantiles are computed on a seeded subsample of rows drawn without replacement.
//!
//! The thresholds equal scikit-learn's on data of at most `subsample` rows
//! (`tests/binning_golden.rs`).
//!
//! # Categorical features
//!
//! Features listed in `categorical_features` are not cut at quantiles: every distinct
//! non-missing value of the training rows (all of them, whatever `subsample` and the weights)
//! is a category, and the code of a category is its rank among the sorted categories
//! ([`FittedBinMapper::categories`]); NaN and values never seen in training get the missing bin.
//! At most `max_bins` categories per feature (scikit-learn's `OrdinalEncoder` followed by its
//! bin mapper: any finite value, negative or not integral, is a category).
//!
//! ```
//! use ndarray::array;
//! use ndlearn_tree::BinMapper;
//!
//! let x = array![[0.0, 1.0], [1.0, f64::NAN], [2.0, 1.0], [3.0, 5.0]];
//! let bins = BinMapper::default().fit(&x)?;
//! assert_eq!(bins.thresholds(0), &[0.5, 1.5, 2.5]);
//! let codes = bins.transform(&x)?;
//! assert_eq!(codes.column(0).to_vec(), vec![0, 1, 2, 3]);
//! assert_eq!(codes[[1, 1]], bins.missing_bin()); // NaN
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, par, random, validate};
use rayon::prelude::*;

/// Largest number of non-missing bins (codes `0..=254`; 255 is the missing bin).
pub const MAX_BINS: usize = 255;

/// Settings of the binning. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct BinMapper {
    /// Non-missing bins per feature, `2..=255` (default 255).
    pub max_bins: usize,
    /// Rows used for the quantiles (default 200,000; `None`: all).
    pub subsample: Option<usize>,
    /// Seed of the subsample.
    pub seed: u64,
    /// Indices of the categorical features (default none; see the [module docs](self)).
    pub categorical_features: Vec<usize>,
}

impl Default for BinMapper {
    fn default() -> Self {
        Self {
            max_bins: MAX_BINS,
            subsample: Some(200_000),
            seed: 0,
            categorical_features: Vec::new(),
        }
    }
}

/// A fitted [`BinMapper`]: the thresholds of every numerical feature and the categories of
/// every categorical one.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBinMapper {
    thresholds: Vec<Vec<f64>>,
    missing_bin: u8,
    /// Per feature: the sorted categories of a categorical feature, `None` for a numerical
    /// one; empty when no feature is categorical.
    #[cfg_attr(feature = "serde", serde(default))]
    categories: Vec<Option<Vec<f64>>>,
}

/// The sorted distinct non-missing values of column `j` (the categories of a categorical
/// feature), or an error when there are more than `max_bins`.
///
/// # Errors
/// [`Error::InvalidParam`] (`categorical_features`) for a cardinality above `max_bins`.
pub(crate) fn categories_of<F: Float>(
    x: &ArrayRef2<F>,
    j: usize,
    max_bins: usize,
) -> Result<Vec<f64>> {
    // `+ 0.0` turns −0 into +0: one category, compared by value as scikit-learn's encoder.
    let mut c: Vec<f64> = x
        .column(j)
        .iter()
        .map(|v| v.to_f64_lossless() + 0.0)
        .filter(|v| !v.is_nan())
        .collect();
    c.sort_unstable_by(f64::total_cmp);
    c.dedup();
    if c.len() > max_bins {
        return Err(Error::invalid_param(
            "categorical_features",
            format!(
                "categorical feature {j} is expected to have a cardinality <= {max_bins} \
                 (max_bins) but has {} categories",
                c.len()
            ),
        ));
    }
    Ok(c)
}

/// Rejects infinite values (NaN is allowed: a missing value) with the first one's position.
///
/// # Errors
/// [`Error::NonFinite`].
pub(crate) fn check_no_infinite<F: Float>(x: &ArrayRef2<F>) -> Result<()> {
    match x.indexed_iter().find(|(_, v)| v.is_infinite()) {
        Some(((row, col), _)) => Err(Error::NonFinite {
            context: "X",
            row,
            col,
        }),
        None => Ok(()),
    }
}

/// NumPy's `percentile(sorted, q, method = "averaged_inverted_cdf")` on sorted data, with
/// NumPy's arithmetic (virtual index `n·(q/100) − 1`; at an exact jump the two order statistics
/// are averaged as `b − (b − a)/2`), so thresholds equal NumPy's bit for bit.
fn averaged_inverted_cdf(sorted: &[f64], q: f64) -> f64 {
    let n = sorted.len();
    let vi = n as f64 * (q / 100.0) - 1.0;
    if vi < 0.0 {
        return sorted[0];
    }
    if vi >= (n - 1) as f64 {
        return sorted[n - 1];
    }
    let prev = vi.floor();
    let (a, b) = (sorted[prev as usize], sorted[prev as usize + 1]);
    if vi - prev == 0.0 {
        b - (b - a) * 0.5
    } else {
        b
    }
}

/// Weighted averaged inverted CDF on sorted values with weights (scikit-learn's
/// `_weighted_percentile(average=True)`).
fn weighted_averaged_percentile(sorted: &[f64], w: &[f64], q: f64) -> f64 {
    let total: f64 = w.iter().sum();
    let target = total * q / 100.0;
    let mut acc = 0.0;
    for (i, (&v, &wi)) in sorted.iter().zip(w).enumerate() {
        acc += wi;
        if acc > target {
            return v;
        }
        if acc == target {
            // Exactly at the jump: average with the next value of positive weight.
            let next = sorted[i + 1..]
                .iter()
                .zip(&w[i + 1..])
                .find(|(_, ww)| **ww > 0.0)
                .map_or(v, |(nv, _)| *nv);
            return 0.5 * (v + next);
        }
    }
    sorted[sorted.len() - 1]
}

/// The thresholds of one feature from its (sorted, finite) values and optional weights.
fn thresholds_of(sorted: &[f64], w: Option<&[f64]>, max_bins: usize) -> Vec<f64> {
    // The distinct values (`==`, as `Vec::dedup`: −0.0 and +0.0 are one), counted without a
    // copy of the column; collected only when there are at most `max_bins` of them.
    let mut n_distinct = usize::from(!sorted.is_empty());
    for p in sorted.windows(2) {
        if p[1] != p[0] {
            n_distinct += 1;
        }
    }
    if n_distinct <= 1 {
        return Vec::new();
    }
    let mut t: Vec<f64> = if n_distinct <= max_bins {
        let mut distinct: Vec<f64> = Vec::with_capacity(n_distinct);
        for &v in sorted {
            if distinct.last() != Some(&v) {
                distinct.push(v);
            }
        }
        distinct.windows(2).map(|w| 0.5 * (w[0] + w[1])).collect()
    } else {
        (1..max_bins)
            .map(|i| {
                // NumPy's `linspace(0, 100, max_bins + 1)[i]`.
                let q = i as f64 * (100.0 / max_bins as f64);
                match w {
                    Some(w) => weighted_averaged_percentile(sorted, w, q),
                    None => averaged_inverted_cdf(sorted, q),
                }
            })
            .collect()
    };
    t.dedup();
    t.iter_mut().for_each(|v| *v = v.min(f64::MAX));
    t
}

impl BinMapper {
    ndlearn_core::setters! {
        max_bins: usize,
        subsample: Option<usize>,
        seed: u64,
        categorical_features: Vec<usize>,
    }

    fn check(&self) -> Result<()> {
        if !(2..=MAX_BINS).contains(&self.max_bins) {
            return Err(Error::invalid_param(
                "max_bins",
                format!("must be in 2..=255; got {}", self.max_bins),
            ));
        }
        if self.subsample == Some(0) {
            return Err(Error::invalid_param("subsample", "must be at least 1"));
        }
        Ok(())
    }

    /// Whether feature `j` of `d` is categorical (checks the indices).
    fn categorical_mask(&self, d: usize) -> Result<Vec<bool>> {
        crate::common::check_feature_indices(
            "categorical_features",
            &self.categorical_features,
            d,
        )?;
        let mut mask = vec![false; d];
        for &j in &self.categorical_features {
            mask[j] = true;
        }
        Ok(mask)
    }

    /// Finds the thresholds of every feature (NaN allowed: missing; infinities rejected).
    ///
    /// # Errors
    /// Bad settings, empty data, infinite values.
    pub fn fit<F: Float>(&self, x: &ArrayRef2<F>) -> Result<FittedBinMapper> {
        self.fit_weighted(x, None)
    }

    /// As [`fit`](Self::fit) with sample weights (weighted quantiles; rows of weight 0 ignored).
    ///
    /// # Errors
    /// As [`fit`](Self::fit); invalid weights.
    pub fn fit_weighted<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedBinMapper> {
        self.check()?;
        let (n, d) = x.dim();
        validate::check_min_samples(n, 1, "BinMapper::fit")?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, n)?;
        }
        check_no_infinite(x)?;
        let rows: Vec<usize> = match self.subsample {
            Some(s) if n > s => {
                let mut r = random::sample_without_replacement(&mut random::rng(self.seed), n, s)?;
                r.sort_unstable();
                r
            }
            _ => (0..n).collect(),
        };
        let mask = self.categorical_mask(d)?;
        let categories: Vec<Option<Vec<f64>>> = if self.categorical_features.is_empty() {
            Vec::new()
        } else {
            (0..d)
                .map(|j| {
                    mask[j]
                        .then(|| categories_of(x, j, self.max_bins))
                        .transpose()
                })
                .collect::<Result<_>>()?
        };
        let thresholds = par::map_tasks(d, |j| {
            if mask[j] {
                return Vec::new();
            }
            // Unstable sorts: ties carry the same value, and the percentiles depend only on
            // values and cumulative weights at value boundaries.
            match sample_weight {
                None => {
                    let mut vals: Vec<f64> = rows
                        .iter()
                        .map(|&i| x[[i, j]].to_f64_lossless())
                        .filter(|v| !v.is_nan())
                        .collect();
                    vals.sort_unstable_by(f64::total_cmp);
                    thresholds_of(&vals, None, self.max_bins)
                }
                Some(sw) => {
                    let mut vals: Vec<(f64, f64)> = rows
                        .iter()
                        .filter_map(|&i| {
                            let v = x[[i, j]].to_f64_lossless();
                            let w = sw[i].to_f64_lossless();
                            (!v.is_nan() && w > 0.0).then_some((v, w))
                        })
                        .collect();
                    vals.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
                    let (sorted, w): (Vec<f64>, Vec<f64>) = vals.into_iter().unzip();
                    thresholds_of(&sorted, Some(&w), self.max_bins)
                }
            }
        });
        Ok(FittedBinMapper {
            thresholds,
            missing_bin: self.max_bins as u8,
            categories,
        })
    }
}

impl FittedBinMapper {
    /// The thresholds of feature `j` (increasing; bin `b` holds `t_{b−1} < x ≤ t_b`; empty for
    /// a categorical feature).
    pub fn thresholds(&self, j: usize) -> &[f64] {
        &self.thresholds[j]
    }

    /// The sorted categories of feature `j` (category `c` has code `b` when it is the `b`-th),
    /// `None` for a numerical feature.
    pub fn categories(&self, j: usize) -> Option<&[f64]> {
        self.categories.get(j).and_then(|c| c.as_deref())
    }

    /// Whether feature `j` is categorical.
    pub fn is_categorical(&self, j: usize) -> bool {
        self.categories(j).is_some()
    }

    /// Whether any feature is categorical.
    pub fn has_categorical(&self) -> bool {
        self.categories.iter().any(Option::is_some)
    }

    /// Replaces the categories of the categorical features by those of `x` (scikit-learn
    /// learns them from every row given to `fit`, before its validation split).
    ///
    /// # Errors
    /// A cardinality above `max_bins`.
    pub(crate) fn set_categories_from<F: Float>(&mut self, x: &ArrayRef2<F>) -> Result<()> {
        let max_bins = usize::from(self.missing_bin);
        for j in 0..self.categories.len() {
            if self.categories[j].is_some() {
                self.categories[j] = Some(categories_of(x, j, max_bins)?);
            }
        }
        Ok(())
    }

    /// The code of a categorical feature's value as `f64` (its rank among the categories), NaN
    /// for a missing or unseen value; numerical features' values pass unchanged. Prediction
    /// walks trees on these values.
    #[inline]
    pub(crate) fn encode(&self, j: usize, v: f64) -> f64 {
        match self.categories(j) {
            None => v,
            // −0 is the category +0 (see `categories_of`).
            Some(c) => c
                .binary_search_by(|p| p.total_cmp(&(v + 0.0)))
                .map_or(f64::NAN, |b| b as f64),
        }
    }

    /// The number of features.
    pub fn n_features(&self) -> usize {
        self.thresholds.len()
    }

    /// The number of non-missing bins of feature `j` (its number of categories for a
    /// categorical feature).
    pub fn n_bins_non_missing(&self, j: usize) -> usize {
        match self.categories(j) {
            Some(c) => c.len(),
            None => self.thresholds[j].len() + 1,
        }
    }

    /// The code of missing values (`max_bins`).
    pub fn missing_bin(&self) -> u8 {
        self.missing_bin
    }

    /// The bin of value `v` of feature `j`.
    #[inline]
    pub fn bin(&self, j: usize, v: f64) -> u8 {
        if v.is_nan() {
            return self.missing_bin;
        }
        if self.categories(j).is_some() {
            let code = self.encode(j, v);
            return if code.is_nan() {
                self.missing_bin
            } else {
                code as u8
            };
        }
        self.thresholds[j].partition_point(|&t| t < v) as u8
    }

    /// The codes of `x`, `n × d` (NaN to the missing bin).
    ///
    /// # Errors
    /// A feature count different from the fit, infinite values.
    pub fn transform<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<u8>> {
        let codes = self.transform_columns(x)?;
        let (n, d) = x.dim();
        Ok(Array2::from_shape_fn((n, d), |(i, j)| codes[j * n + i]))
    }

    /// The codes of `x` column by column (`codes[j·n + i]`), the layout histograms read.
    ///
    /// # Errors
    /// As [`transform`](Self::transform).
    pub fn transform_columns<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Vec<u8>> {
        let d = x.ncols();
        validate::check_n_features(d, self.n_features(), "BinMapper::transform")?;
        check_no_infinite(x)?;
        // One output buffer, each column written in place by its task (no per-column vectors
        // allocated on the workers and then concatenated: those would double the peak and stay
        // resident in the workers' allocator arenas).
        let n = x.nrows();
        let mut codes = vec![0u8; n * d];
        if n > 0 {
            codes.par_chunks_mut(n).enumerate().for_each(|(j, col)| {
                for (c, v) in col.iter_mut().zip(x.column(j)) {
                    *c = self.bin(j, v.to_f64_lossless());
                }
            });
        }
        Ok(codes)
    }
}

/// A bin mapper read back from a file: at least one feature; the missing bin `max_bins` in
/// `2..=255`; per feature at most `max_bins − 1` finite sorted thresholds (so a value's code
/// stays below the missing bin), or, for a categorical feature, no threshold and at most
/// `max_bins` finite increasing categories.
impl CheckModel for FittedBinMapper {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedBinMapper");
        let d = self.thresholds.len();
        c.at_least("thresholds (features)", d, 1)?;
        let max_bins = usize::from(self.missing_bin);
        c.that((2..=MAX_BINS).contains(&max_bins), || {
            format!("`missing_bin` {max_bins} must be in 2..=255")
        })?;
        c.that(
            self.categories.is_empty() || self.categories.len() == d,
            || {
                format!(
                    "`categories` for {} features, expected {d}",
                    self.categories.len()
                )
            },
        )?;
        for (j, t) in self.thresholds.iter().enumerate() {
            let ok = t.len() < max_bins
                && t.iter().all(|v| v.is_finite())
                && t.windows(2).all(|w| w[0] <= w[1]);
            c.that(ok, || {
                format!(
                    "feature {j}: needs at most {} finite sorted thresholds",
                    max_bins - 1
                )
            })?;
        }
        for (j, cats) in self.categories.iter().enumerate() {
            let Some(cats) = cats else { continue };
            let ok = self.thresholds[j].is_empty()
                && cats.len() <= max_bins
                && cats.iter().all(|v| v.is_finite())
                && cats.windows(2).all(|w| w[0] < w[1]);
            c.that(ok, || {
                format!("categorical feature {j}: needs no threshold and at most {max_bins} finite increasing categories")
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array1;

    #[test]
    fn quantiles_by_hand() {
        // 10 distinct values, 4 bins: quantiles 25 %, 50 %, 75 % by the averaged inverted CDF:
        // n·q = 2.5 → x₃, 5 → (x₅ + x₆)/2, 7.5 → x₈ (1-based).
        let v: Vec<f64> = (1..=10).map(f64::from).collect();
        assert_eq!(averaged_inverted_cdf(&v, 25.0), 3.0);
        assert_eq!(averaged_inverted_cdf(&v, 50.0), 5.5);
        assert_eq!(averaged_inverted_cdf(&v, 75.0), 8.0);
        let x = Array2::from_shape_fn((10, 1), |(i, _)| (i + 1) as f64);
        let b = BinMapper::default().max_bins(4).fit(&x).expect("fit");
        assert_eq!(b.thresholds(0), &[3.0, 5.5, 8.0]);
        let codes = b.transform(&x).expect("codes");
        assert_eq!(codes.column(0).to_vec(), vec![0, 0, 0, 1, 1, 2, 2, 2, 3, 3]);
        // Unit weights give the unweighted quantiles.
        let w = Array1::<f64>::ones(10);
        let bw = BinMapper::default()
            .max_bins(4)
            .fit_weighted(&x, Some(&w))
            .expect("fit");
        assert_eq!(bw.thresholds(0), b.thresholds(0));
        // Weight 3 on the value 1 moves the first quartile down.
        let mut w3 = w.clone();
        w3[0] = 3.0;
        let b3 = BinMapper::default()
            .max_bins(4)
            .fit_weighted(&x, Some(&w3))
            .expect("fit");
        assert!(b3.thresholds(0)[0] < 3.0);
    }

    #[test]
    fn categorical_features_are_coded_by_rank_and_unseen_values_are_missing() {
        let x = ndarray::array![[7.0, 0.5], [-1.0, 1.5], [2.5, f64::NAN], [7.0, 3.0]];
        let b = BinMapper::default()
            .categorical_features(vec![0])
            .fit(&x)
            .expect("fit");
        assert_eq!(b.categories(0), Some(&[-1.0, 2.5, 7.0][..]));
        assert!(b.is_categorical(0) && !b.is_categorical(1) && b.categories(1).is_none());
        assert_eq!(b.n_bins_non_missing(0), 3);
        assert!(b.thresholds(0).is_empty());
        let probe = ndarray::array![[2.5, 0.0], [7.0, 0.0], [3.0, 0.0], [f64::NAN, 0.0]];
        let c = b.transform(&probe).expect("codes");
        assert_eq!(c.column(0).to_vec(), vec![1, 2, 255, 255]);
        assert!(
            BinMapper::default()
                .max_bins(2)
                .categorical_features(vec![0])
                .fit(&x)
                .is_err()
        );
        assert!(
            BinMapper::default()
                .categorical_features(vec![2])
                .fit(&x)
                .is_err()
        );
    }

    #[test]
    fn constant_missing_and_errors() {
        let x = ndarray::array![[1.0, f64::NAN], [1.0, f64::NAN], [1.0, 2.0]];
        let b = BinMapper::default().fit(&x).expect("fit");
        assert!(b.thresholds(0).is_empty() && b.thresholds(1).is_empty());
        assert_eq!(b.n_bins_non_missing(0), 1);
        let c = b.transform(&x).expect("codes");
        assert_eq!(c.column(1).to_vec(), vec![255, 255, 0]);
        assert!(BinMapper::default().max_bins(1).fit(&x).is_err());
        assert!(BinMapper::default().max_bins(256).fit(&x).is_err());
        assert!(
            BinMapper::default()
                .fit(&ndarray::array![[f64::INFINITY]])
                .is_err()
        );
        assert!(b.transform(&ndarray::array![[1.0]]).is_err());
        // Subsampling draws rows without replacement from the seed.
        let big = Array2::from_shape_fn((500, 1), |(i, _)| i as f64);
        let s = BinMapper::default()
            .max_bins(8)
            .subsample(Some(100))
            .fit(&big)
            .expect("fit");
        assert_eq!(s.thresholds(0).len(), 7);
        assert!(s.thresholds(0).windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn check_model_accepts_the_fit_and_refuses_broken_bins() {
        let x = ndarray::array![[7.0, 0.5], [-1.0, 1.5], [2.5, f64::NAN], [7.0, 3.0]];
        let b = BinMapper::default()
            .categorical_features(vec![0])
            .fit(&x)
            .expect("fit");
        assert!(b.check_model().is_ok());
        let invalid =
            |m: &FittedBinMapper| matches!(m.check_model(), Err(Error::InvalidModel { .. }));
        let mut bad = b.clone();
        bad.thresholds[1] = vec![2.0, 1.0]; // unsorted
        assert!(invalid(&bad));
        let mut bad = b.clone();
        bad.thresholds[1] = vec![0.5; 300]; // more bins than codes
        assert!(invalid(&bad));
        let mut bad = b.clone();
        bad.missing_bin = 1;
        assert!(invalid(&bad));
        let mut bad = b;
        bad.categories.pop(); // categories for one feature of two
        assert!(invalid(&bad));
    }
}
