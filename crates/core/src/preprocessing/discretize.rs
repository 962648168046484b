//! [`KBinsDiscretizer`]: binning continuous features into intervals.

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array2, ArrayRef2};

use super::quantile::{QuantileMethod, linspace, quantile_sorted, sort_finite};
use super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, InverseTransform, Transform};
use crate::validate::{check_at_least, check_fit_input};
use crate::{Error, Float, Result, par};

/// How [`KBinsDiscretizer`] places the bin edges.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BinStrategy {
    /// Equal-width bins between the training minimum and maximum.
    Uniform,
    /// Equal-frequency bins: edges at the quantiles `0, 1/k, …, 1` (the default).
    #[default]
    Quantile,
    /// Edges halfway between the sorted centres of a 1-D k-means (Lloyd) started from the
    /// centres of the uniform bins.
    #[cfg_attr(feature = "serde", serde(rename = "kmeans"))]
    KMeans,
}

/// How [`KBinsDiscretizer`] encodes the bin of a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BinEncode {
    /// One column per feature holding the bin index `0..k`.
    Ordinal,
    /// Dense one-hot columns, `k` per feature (the default; scikit-learn's `'onehot-dense'`).
    #[default]
    OneHot,
}

/// The quantile definition of [`BinStrategy::Quantile`] (numpy's `method`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BinQuantileMethod {
    /// `averaged_inverted_cdf` (Hyndman & Fan type 2): scikit-learn's default since 1.9.
    #[default]
    AveragedInvertedCdf,
    /// `linear` (type 7, numpy's default; scikit-learn before 1.9).
    Linear,
}

/// Bins continuous features into `n_bins` intervals per feature — scikit-learn's
/// `KBinsDiscretizer` (the course notes' bucketising; scikit-learn user guide: Preprocessing
/// data, Discretization).
///
/// # Edges
///
/// For a column with training range `[a, b]` and `k = n_bins`:
/// * `Uniform`: `eᵢ = a + i (b − a)/k` (numpy `linspace`).
/// * `Quantile`: `eᵢ = Q(i/k)` with `Q` numpy's `averaged_inverted_cdf` quantile by default —
///   the `quantile_method` default of scikit-learn 1.9 (`v = n q − 1`; the mean of the two
///   neighbours when `v` is an integer, else the upper neighbour) — or `linear`.
/// * `KMeans`: 1-D k-means started at the centres of the uniform bins, Lloyd iterations
///   (at most 300, stopping when the labels repeat or `Σ shift² ≤ 10⁻⁴ · var(column)`, as
///   scikit-learn); an empty cluster is moved to the point farthest from its centre. The edges
///   are `a`, the midpoints of the sorted centres, and `b`.
///
/// For `Quantile` and `KMeans`, an edge closer than `1e-8` to its predecessor is removed
/// (its bin is degenerate), so such a column has fewer bins (scikit-learn warns and does the
/// same). A constant column has a single bin (index 0).
///
/// Transform: bin `i` holds `eᵢ ≤ x < eᵢ₊₁`; values below `e₁` go to bin 0 and values at or
/// above the last inner edge to the last bin (test values outside the training range too).
/// `inverse_transform` returns the bin centres `(eᵢ + eᵢ₊₁)/2` (the constant for a constant
/// column, where scikit-learn gives NaN).
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `n_bins` | 5 | `n_bins` (≥ 2; one value for all features) |
/// | `strategy` | `Quantile` | `strategy` |
/// | `encode` | `OneHot` | `encode` (`'onehot'` is sparse there; here always dense) |
/// | `quantile_method` | `AveragedInvertedCdf` | `quantile_method` |
///
/// Differences from scikit-learn: no sub-sampling (scikit-learn bins a bootstrap sample of
/// 200,000 rows when there are more), no sample weights; k-means labels use exact distances
/// `|x − c|` (scikit-learn uses the Gram-trick expansion, which can flip a point lying within
/// rounding of a midpoint); if all edges of a column collapse (a range below `1e-8`), a single
/// bin is kept where scikit-learn would be left with none.
///
/// `O(n log n · d)` for `Quantile` (a sort per column), `O(n k · iterations · d)` for `KMeans`;
/// columns are processed in parallel.
///
/// ```
/// use ndlearn_core::preprocessing::{BinEncode, BinStrategy, KBinsDiscretizer};
/// use ndlearn_core::{FitUnsupervised, InverseTransform, Transform, ndarray::array};
///
/// let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [10.0]];
/// let kb = KBinsDiscretizer::new(2)
///     .strategy(BinStrategy::Uniform)
///     .encode(BinEncode::Ordinal)
///     .fit(&x)?;
/// assert_eq!(kb.bin_edges()[0], vec![0.0, 5.0, 10.0]);
/// let z = kb.transform(&array![[4.9], [5.0]])?;
/// assert_eq!(z, array![[0.0], [1.0]]);
/// assert_eq!(kb.inverse_transform(&z)?, array![[2.5], [7.5]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KBinsDiscretizer {
    /// Number of bins per feature (≥ 2).
    pub n_bins: usize,
    /// Edge placement.
    pub strategy: BinStrategy,
    /// Output encoding.
    pub encode: BinEncode,
    /// Quantile definition for `Quantile`.
    pub quantile_method: BinQuantileMethod,
}

impl Default for KBinsDiscretizer {
    fn default() -> Self {
        Self {
            n_bins: 5,
            strategy: BinStrategy::Quantile,
            encode: BinEncode::OneHot,
            quantile_method: BinQuantileMethod::AveragedInvertedCdf,
        }
    }
}

impl KBinsDiscretizer {
    /// `n_bins` bins with the other settings at their defaults.
    pub fn new(n_bins: usize) -> Self {
        Self {
            n_bins,
            ..Self::default()
        }
    }
    crate::setters! {
        /// Sets `n_bins`.
        n_bins: usize,
        /// Sets `strategy`.
        strategy: BinStrategy,
        /// Sets `encode`.
        encode: BinEncode,
        /// Sets `quantile_method`.
        quantile_method: BinQuantileMethod,
    }

    /// Edges of one (sorted) column, in `f64`.
    fn column_edges(&self, sorted: &[f64]) -> Vec<f64> {
        let n = sorted.len();
        let (lo, hi) = (sorted[0], sorted[n - 1]);
        if lo == hi {
            return vec![lo, hi];
        }
        let k = self.n_bins;
        let mut edges = match self.strategy {
            BinStrategy::Uniform => return linspace(lo, hi, k + 1),
            BinStrategy::Quantile => {
                let method = match self.quantile_method {
                    BinQuantileMethod::AveragedInvertedCdf => QuantileMethod::AveragedInvertedCdf,
                    BinQuantileMethod::Linear => QuantileMethod::Linear,
                };
                linspace(0.0, 100.0, k + 1)
                    .into_iter()
                    .map(|p| quantile_sorted(sorted, p / 100.0, method))
                    .collect::<Vec<f64>>()
            }
            BinStrategy::KMeans => {
                let mut centres = kmeans_1d(sorted, k, lo, hi);
                sort_finite(&mut centres);
                let mut e = Vec::with_capacity(k + 1);
                e.push(lo);
                e.extend(centres.windows(2).map(|w| (w[1] + w[0]) * 0.5));
                e.push(hi);
                e
            }
        };
        // Remove degenerate bins: keep an edge only if it exceeds its predecessor (in the
        // original list) by more than 1e-8.
        let keep: Vec<bool> = (0..edges.len())
            .map(|i| i == 0 || edges[i] - edges[i - 1] > 1e-8)
            .collect();
        let mut it = keep.iter();
        edges.retain(|_| *it.next().unwrap_or(&true));
        if edges.len() < 2 {
            return vec![lo, hi];
        }
        edges
    }
}

impl crate::Estimator for KBinsDiscretizer {
    /// Requires `n_bins ≥ 2`.
    fn validate(&self) -> Result<()> {
        check_at_least("n_bins", self.n_bins, 2)
    }
}

/// 1-D k-means (Lloyd) as scikit-learn's `KMeans(init=uniform bin centres, n_init=1)`.
fn kmeans_1d(x: &[f64], k: usize, lo: f64, hi: f64) -> Vec<f64> {
    let n = x.len() as f64;
    let edges = linspace(lo, hi, k + 1);
    let mut centres: Vec<f64> = edges.windows(2).map(|w| (w[1] + w[0]) * 0.5).collect();
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean) * (v - mean)).sum::<f64>() / n;
    let tol = var * 1e-4;
    let mut labels = vec![usize::MAX; x.len()];
    let mut old = labels.clone();
    for _ in 0..300 {
        // E-step with the current centres (ties to the lower index).
        for (l, &v) in labels.iter_mut().zip(x) {
            let mut best = 0;
            let mut bd = (v - centres[0]).abs();
            for (c, &m) in centres.iter().enumerate().skip(1) {
                let d = (v - m).abs();
                if d < bd {
                    bd = d;
                    best = c;
                }
            }
            *l = best;
        }
        // M-step on sums, relocating empty clusters to the farthest points.
        let mut sums = vec![0.0; k];
        let mut counts = vec![0.0; k];
        for (&l, &v) in labels.iter().zip(x) {
            sums[l] += v;
            counts[l] += 1.0;
        }
        let empty: Vec<usize> = (0..k).filter(|&c| counts[c] == 0.0).collect();
        if !empty.is_empty() {
            let mut far: Vec<usize> = (0..x.len()).collect();
            let dist = |i: usize| (x[i] - centres[labels[i]]).powi(2);
            far.sort_by(|&a, &b| dist(b).total_cmp(&dist(a)).then(a.cmp(&b)));
            for (&c, &i) in empty.iter().zip(&far) {
                let old_c = labels[i];
                sums[old_c] -= x[i];
                counts[old_c] -= 1.0;
                sums[c] = x[i];
                counts[c] = 1.0;
            }
        }
        let mut shift = 0.0;
        for c in 0..k {
            let new = if counts[c] > 0.0 {
                sums[c] / counts[c]
            } else {
                sums[c]
            };
            shift += (new - centres[c]).powi(2);
            centres[c] = new;
        }
        if labels == old {
            break;
        }
        if shift <= tol {
            break;
        }
        old.clone_from(&labels);
    }
    centres
}

impl<F: Float> FitUnsupervised<F> for KBinsDiscretizer {
    type Model = FittedKBinsDiscretizer<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "KBinsDiscretizer::fit")?;
        let edges64 = par::map_tasks(x.ncols(), |j| {
            let mut v: Vec<f64> = x.column(j).iter().map(|v| v.to_f64_lossless()).collect();
            sort_finite(&mut v);
            self.column_edges(&v)
        });
        let bin_edges: Vec<Vec<F>> = edges64
            .iter()
            .map(|e| e.iter().map(|&v| F::cast(v)).collect())
            .collect();
        let n_bins: Vec<usize> = bin_edges.iter().map(|e| e.len() - 1).collect();
        let mut offsets = vec![0];
        for &k in &n_bins {
            offsets.push(offsets[offsets.len() - 1] + k);
        }
        Ok(FittedKBinsDiscretizer {
            params: self.clone(),
            bin_edges,
            n_bins,
            offsets,
        })
    }
}

/// A fitted [`KBinsDiscretizer`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKBinsDiscretizer<F> {
    params: KBinsDiscretizer,
    bin_edges: Vec<Vec<F>>,
    n_bins: Vec<usize>,
    offsets: Vec<usize>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedKBinsDiscretizer<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedKBinsDiscretizer<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &KBinsDiscretizer {
        &self.params
    }
    /// Edges of each feature's bins, `n_bins + 1` increasing values (a constant feature has the
    /// two equal edges `[c, c]`, where scikit-learn stores `[−∞, ∞]`).
    pub fn bin_edges(&self) -> &[Vec<F>] {
        &self.bin_edges
    }
    /// Number of bins of each feature (after removing degenerate ones).
    pub fn n_bins(&self) -> &[usize] {
        &self.n_bins
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_bins.len()
    }
    /// Number of output columns (`n_features` for ordinal, `Σ n_bins` for one-hot).
    pub fn n_features_out(&self) -> usize {
        match self.params.encode {
            BinEncode::Ordinal => self.n_features(),
            BinEncode::OneHot => self.offsets[self.n_features()],
        }
    }

    /// Bin index of `v` in feature `j`: the number of inner edges `≤ v`.
    fn bin(&self, j: usize, v: F) -> usize {
        let e = &self.bin_edges[j];
        if e.len() <= 2 {
            return 0;
        }
        e[1..e.len() - 1].partition_point(|&t| t <= v)
    }

    fn centre(&self, j: usize, b: usize) -> F {
        let e = &self.bin_edges[j];
        (e[b] + e[b + 1]) * F::cast(0.5)
    }
}

impl<F: Float> Transform<F> for FittedKBinsDiscretizer<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "KBinsDiscretizer::transform")?;
        let onehot = self.params.encode == BinEncode::OneHot;
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            for (j, &v) in row.iter().enumerate() {
                let b = self.bin(j, v);
                if onehot {
                    out[self.offsets[j] + b] = F::one();
                } else {
                    out[j] = F::cast(b);
                }
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedKBinsDiscretizer<F> {
    /// Bin centres. Ordinal input must hold bin indices (integers in `0..n_bins`); one-hot input
    /// is decoded by the largest entry of each feature's block (an all-zero block is an error).
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(
            z,
            self.n_features_out(),
            "KBinsDiscretizer::inverse_transform",
        )?;
        let d = self.n_features();
        let mut out = Array2::zeros((z.nrows(), d));
        for (i, row) in z.rows().into_iter().enumerate() {
            for j in 0..d {
                let b = match self.params.encode {
                    BinEncode::Ordinal => {
                        let v = row[j];
                        if v >= F::zero() && v.fract() == F::zero() && v < F::cast(self.n_bins[j]) {
                            v.to_usize().unwrap_or(0)
                        } else {
                            return Err(Error::invalid_param(
                                "z",
                                format!(
                                    "bin index {v} at row {i}, column {j} is not an integer in 0..{}",
                                    self.n_bins[j]
                                ),
                            ));
                        }
                    }
                    BinEncode::OneHot => {
                        let block: Vec<F> = row
                            .slice(ndarray::s![self.offsets[j]..self.offsets[j + 1]])
                            .to_vec();
                        if block.iter().all(|&v| v == F::zero()) {
                            return Err(Error::invalid_param(
                                "z",
                                format!("row {i} has an all-zero one-hot block for feature {j}"),
                            ));
                        }
                        let mut best = 0;
                        for (k, &v) in block.iter().enumerate() {
                            if v > block[best] {
                                best = k;
                            }
                        }
                        best
                    }
                };
                out[[i, j]] = self.centre(j, b);
            }
        }
        Ok(out)
    }
}

impl<F: Float> CheckModel for FittedKBinsDiscretizer<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKBinsDiscretizer");
        c.params(&self.params)?;
        c.at_least("bin_edges", self.bin_edges.len(), 1)?;
        c.len("n_bins", self.n_bins.len(), self.bin_edges.len())?;
        for (j, (e, &k)) in self.bin_edges.iter().zip(&self.n_bins).enumerate() {
            c.that(k >= 1 && e.len() == k + 1, || {
                format!("feature {j}: {} bin edges for {k} bins", e.len())
            })?;
            c.that(
                e.iter().all(|v| v.is_finite()) && e.windows(2).all(|w| w[0] <= w[1]),
                || format!("feature {j}: bin edges must be finite and sorted"),
            )?;
        }
        c.cumulative("offsets", &self.offsets, self.n_bins.iter().copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn quantile_edges_hand_case() {
        // 8 values, k = 4: levels 0, .25, .5, .75, 1; averaged inverted cdf v = 8q − 1:
        // q = .25 -> v = 1 (integer) -> (x1 + x2)/2 = 2.5; q = .5 -> v = 3 -> (x3 + x4)/2 = 4.5;
        // q = .75 -> v = 5 -> 6.5.
        let x: Array2<f64> = Array2::from_shape_fn((8, 1), |(i, _)| (i + 1) as f64);
        let kb = KBinsDiscretizer::new(4)
            .encode(BinEncode::Ordinal)
            .fit(&x)
            .expect("fit");
        assert_eq!(kb.bin_edges()[0], vec![1.0, 2.5, 4.5, 6.5, 8.0]);
        let lin = KBinsDiscretizer::new(4)
            .quantile_method(BinQuantileMethod::Linear)
            .fit(&x)
            .expect("fit");
        // linear: v = 7q -> 1.75 -> 2.75, 3.5 -> 4.5, 5.25 -> 6.25.
        assert_eq!(lin.bin_edges()[0], vec![1.0, 2.75, 4.5, 6.25, 8.0]);
        assert_eq!(lin.n_features_out(), 4);
    }

    #[test]
    fn degenerate_bins_and_constant_columns() {
        // Heavy ties: quantile edges repeat and are removed.
        let x: Array2<f64> = array![
            [0.0, 3.0],
            [0.0, 3.0],
            [0.0, 3.0],
            [0.0, 3.0],
            [1.0, 3.0],
            [2.0, 3.0]
        ];
        let kb = KBinsDiscretizer::new(4)
            .encode(BinEncode::Ordinal)
            .fit(&x)
            .expect("fit");
        let e = &kb.bin_edges()[0];
        assert!(e.windows(2).all(|w| w[1] - w[0] > 1e-8), "{e:?}");
        assert_eq!(kb.n_bins()[1], 1);
        assert_eq!(kb.bin_edges()[1], vec![3.0, 3.0]);
        let z = kb.transform(&array![[5.0, -7.0]]).expect("t");
        assert_eq!(z[[0, 1]], 0.0);
        assert_eq!(z[[0, 0]], (e.len() - 2) as f64);
        assert_eq!(kb.inverse_transform(&z).expect("inv")[[0, 1]], 3.0);
    }

    #[test]
    fn kmeans_two_clusters() {
        // Two tight groups: centres 0.1 and 10.1 (means), edge at 5.1.
        let x: Array2<f64> = array![[0.0], [0.1], [0.2], [10.0], [10.1], [10.2]];
        let kb = KBinsDiscretizer::new(2)
            .strategy(BinStrategy::KMeans)
            .fit(&x)
            .expect("fit");
        let e = &kb.bin_edges()[0];
        assert!((e[1] - 5.1).abs() < 1e-12, "{e:?}");
        let z = kb.transform(&array![[1.0], [9.0]]).expect("t");
        assert_eq!(z, array![[1.0, 0.0], [0.0, 1.0]]);
        assert!(kb.inverse_transform(&array![[0.0, 0.0]]).is_err());
        assert!(KBinsDiscretizer::new(1).fit(&x).is_err());
        assert!(kb.inverse_transform(&array![[1.0]]).is_err());
    }

    #[test]
    fn kmeans_relocates_empty_clusters() {
        // Uniform init centres 1, 3, 5, 7, 9 on [0, 10]; nothing near 3, 5, 7 -> relocations.
        let x: Array2<f64> = array![[0.0], [0.5], [1.0], [1.5], [9.5], [10.0]];
        let kb = KBinsDiscretizer::new(5)
            .strategy(BinStrategy::KMeans)
            .encode(BinEncode::Ordinal)
            .fit(&x)
            .expect("fit");
        let e = &kb.bin_edges()[0];
        assert!(e.windows(2).all(|w| w[1] > w[0]), "{e:?}");
        assert!(kb.n_bins()[0] >= 2);
    }
}
