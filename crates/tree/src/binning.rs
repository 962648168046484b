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
use ndlearn_core::{Error, Float, Result, par, random, validate};

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
}

impl Default for BinMapper {
    fn default() -> Self {
        Self {
            max_bins: MAX_BINS,
            subsample: Some(200_000),
            seed: 0,
        }
    }
}

/// A fitted [`BinMapper`]: the thresholds of every feature.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedBinMapper {
    thresholds: Vec<Vec<f64>>,
    missing_bin: u8,
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
fn thresholds_of(mut vals: Vec<(f64, f64)>, max_bins: usize, weighted: bool) -> Vec<f64> {
    // Unstable: ties carry the same value, and the percentiles depend only on values and
    // cumulative weights at value boundaries.
    vals.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    let mut distinct: Vec<f64> = vals.iter().map(|p| p.0).collect();
    distinct.dedup();
    if distinct.len() <= 1 {
        return Vec::new();
    }
    let mut t: Vec<f64> = if distinct.len() <= max_bins {
        distinct.windows(2).map(|w| 0.5 * (w[0] + w[1])).collect()
    } else {
        let sorted: Vec<f64> = vals.iter().map(|p| p.0).collect();
        let w: Vec<f64> = vals.iter().map(|p| p.1).collect();
        (1..max_bins)
            .map(|i| {
                // NumPy's `linspace(0, 100, max_bins + 1)[i]`.
                let q = i as f64 * (100.0 / max_bins as f64);
                if weighted {
                    weighted_averaged_percentile(&sorted, &w, q)
                } else {
                    averaged_inverted_cdf(&sorted, q)
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
        let weighted = sample_weight.is_some();
        let thresholds = par::map_tasks(d, |j| {
            let vals: Vec<(f64, f64)> = rows
                .iter()
                .filter_map(|&i| {
                    let v = x[[i, j]].to_f64_lossless();
                    let w = sample_weight.map_or(1.0, |w| w[i].to_f64_lossless());
                    (!v.is_nan() && w > 0.0).then_some((v, w))
                })
                .collect();
            thresholds_of(vals, self.max_bins, weighted)
        });
        Ok(FittedBinMapper {
            thresholds,
            missing_bin: self.max_bins as u8,
        })
    }
}

impl FittedBinMapper {
    /// The thresholds of feature `j` (increasing; bin `b` holds `t_{b−1} < x ≤ t_b`).
    pub fn thresholds(&self, j: usize) -> &[f64] {
        &self.thresholds[j]
    }

    /// The number of features.
    pub fn n_features(&self) -> usize {
        self.thresholds.len()
    }

    /// The number of non-missing bins of feature `j`.
    pub fn n_bins_non_missing(&self, j: usize) -> usize {
        self.thresholds[j].len() + 1
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
        let cols = par::map_tasks(d, |j| {
            x.column(j)
                .iter()
                .map(|v| self.bin(j, v.to_f64_lossless()))
                .collect::<Vec<u8>>()
        });
        Ok(cols.concat())
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
}
