//! Outlier-resistant scalers: [`RobustScaler`] (median and interquartile range, scikit-learn's)
//! and [`MeanAbsDevScaler`] (the course notes' mean-absolute-deviation standardisation).

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array1, Array2, ArrayRef2, s};

use super::moments::column_moments;
use super::quantile::{QuantileMethod, median_sorted, percentile_sorted, sort_finite};
use super::{check_fitted_input, handle_zero_scale, map_rows};
use crate::traits::{FitUnsupervised, InverseTransform, Transform};
use crate::validate::check_fit_input;
use crate::{Error, Float, Result, par};

/// Sorted copy of column `j`.
fn sorted_column<F: Float>(x: &ArrayRef2<F>, j: usize) -> Vec<F> {
    let mut v = x.column(j).to_vec();
    sort_finite(&mut v);
    v
}

// ---------------------------------------------------------------------------------------------
// RobustScaler

/// Centres each feature at its median and divides by a quantile range (the interquartile range
/// by default): `x' = (x − median) / (q_hi − q_lo)` — scikit-learn's `RobustScaler`.
///
/// Quantiles are numpy's default `linear` method (`np.percentile`, Hyndman & Fan type 7):
/// with the sorted column `a₀ ≤ … ≤ a_{n−1}` and `v = (n − 1)·q/100`,
/// `Q(q) = a_⌊v⌋ + (v − ⌊v⌋)(a_⌊v⌋₊₁ − a_⌊v⌋)`. A range below `10 ε` gives scale 1.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `with_centering` | `true` | `with_centering` | |
/// | `with_scaling` | `true` | `with_scaling` | |
/// | `quantile_range` | `(25, 75)` | `quantile_range` | `0 ≤ lo ≤ hi ≤ 100` |
///
/// Not implemented: scikit-learn's `unit_variance` (it needs the normal quantile function).
/// `O(n log n · d)` (one sort per column, columns in parallel). NaN is rejected (scikit-learn
/// ignores it); errors as [`super::StandardScaler`].
///
/// ```
/// use ndlearn_core::preprocessing::RobustScaler;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// // median 3, quartiles 2 and 4 (numpy linear): IQR 2; the outlier 100 does not matter.
/// let x = array![[1.0], [2.0], [3.0], [4.0], [100.0]];
/// let s = RobustScaler::default().fit(&x)?;
/// assert_eq!(s.transform(&array![[5.0]])?, array![[1.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RobustScaler {
    /// Subtract the median.
    pub with_centering: bool,
    /// Divide by the quantile range.
    pub with_scaling: bool,
    /// Percentiles `(lo, hi)` whose difference is the scale.
    pub quantile_range: (f64, f64),
}

impl Default for RobustScaler {
    fn default() -> Self {
        Self {
            with_centering: true,
            with_scaling: true,
            quantile_range: (25.0, 75.0),
        }
    }
}

impl RobustScaler {
    crate::setters! {
        /// Sets `with_centering`.
        with_centering: bool,
        /// Sets `with_scaling`.
        with_scaling: bool,
    }
    /// Sets the percentile range.
    #[must_use]
    pub fn quantile_range(mut self, lo: f64, hi: f64) -> Self {
        self.quantile_range = (lo, hi);
        self
    }
}

impl crate::Estimator for RobustScaler {
    /// Requires `0 ≤ lo ≤ hi ≤ 100`.
    fn validate(&self) -> Result<()> {
        let (lo, hi) = self.quantile_range;
        if !(lo.is_finite() && hi.is_finite() && 0.0 <= lo && lo <= hi && hi <= 100.0) {
            return Err(Error::invalid_param(
                "quantile_range",
                format!("needs 0 <= lo <= hi <= 100, got ({lo}, {hi})"),
            ));
        }
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for RobustScaler {
    type Model = FittedRobustScaler<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "RobustScaler::fit")?;
        let (lo, hi) = self.quantile_range;
        let stats = par::map_tasks(x.ncols(), |j| {
            let v = sorted_column(x, j);
            let med = median_sorted(&v);
            let range = percentile_sorted(&v, hi, QuantileMethod::Linear)
                - percentile_sorted(&v, lo, QuantileMethod::Linear);
            (med, handle_zero_scale(range))
        });
        Ok(FittedRobustScaler {
            params: self.clone(),
            center: stats.iter().map(|s| s.0).collect(),
            scale: stats.iter().map(|s| s.1).collect(),
        })
    }
}

/// A fitted [`RobustScaler`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRobustScaler<F> {
    params: RobustScaler,
    center: Array1<F>,
    scale: Array1<F>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedRobustScaler<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedRobustScaler<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &RobustScaler {
        &self.params
    }
    /// Training median of each feature (used only with `with_centering`).
    pub fn center(&self) -> &Array1<F> {
        &self.center
    }
    /// Quantile range of each feature, 1 where it was below `10 ε` (used only with
    /// `with_scaling`).
    pub fn scale(&self) -> &Array1<F> {
        &self.scale
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.center.len()
    }

    fn parts(&self) -> (Vec<F>, Vec<F>) {
        let d = self.n_features();
        let c = if self.params.with_centering {
            self.center.to_vec()
        } else {
            vec![F::zero(); d]
        };
        let s = if self.params.with_scaling {
            self.scale.to_vec()
        } else {
            vec![F::one(); d]
        };
        (c, s)
    }
}

impl<F: Float> Transform<F> for FittedRobustScaler<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "RobustScaler::transform")?;
        let (c, s) = self.parts();
        Ok(map_rows(x, x.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = (row[j] - c[j]) / s[j];
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedRobustScaler<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "RobustScaler::inverse_transform")?;
        let (c, s) = self.parts();
        Ok(map_rows(z, z.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = row[j] * s[j] + c[j];
            }
        }))
    }
}

// ---------------------------------------------------------------------------------------------
// MeanAbsDevScaler

/// The course notes' standardisation by the **mean absolute deviation** (catalog C-17; Kaufman &
/// Rousseeuw, *Finding Groups in Data*, Wiley (1990), ch. 1): for each feature `f`,
///
/// `m_f = (1/n) Σᵢ x_if`,  `s_f = (1/n) Σᵢ |x_if − m_f|`,  `z_if = (x_if − m_f) / s_f`.
///
/// The course notes use it to put numeric variables on a common scale before computing
/// dissimilarities (clustering): deviations are not squared, so single outliers weigh less than
/// in the standard deviation.
///
/// **Not the MAD.** The "median absolute deviation" (`scipy.stats.median_abs_deviation`, R's
/// `mad`, often scaled by 1.4826) takes the *median* of `|x − median|`; this scaler takes the
/// *mean* of `|x − mean|`, exactly as the course notes define it. For a normal distribution
/// `s_f ≈ 0.798 σ` (`√(2/π) σ`), whereas MAD ≈ `0.674 σ`. scikit-learn has no equivalent.
///
/// A constant feature (training minimum = maximum) gets `s_f = 1` (implementation choice, as the
/// other scalers), so it maps to 0. Statistics come from the training data only. `O(n d)`;
/// accumulation in `f64`, with the same power-of-two rescaling as [`super::StandardScaler`] for
/// extreme magnitudes. Errors as [`super::StandardScaler`].
///
/// ```
/// use ndlearn_core::preprocessing::MeanAbsDevScaler;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// // 0, 2, 3, 3: mean 2, |deviations| 2, 0, 1, 1, so s = 4/4 = 1.
/// let x = array![[0.0], [2.0], [3.0], [3.0]];
/// let s = MeanAbsDevScaler::new().fit(&x)?;
/// assert_eq!(s.scale()[0], 1.0);
/// assert_eq!(s.transform(&array![[4.0]])?, array![[2.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct MeanAbsDevScaler {}

impl MeanAbsDevScaler {
    /// The scaler (it has no hyperparameters).
    pub fn new() -> Self {
        Self {}
    }
}

impl crate::Estimator for MeanAbsDevScaler {
    /// Nothing to check; kept for the estimator pattern.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> FitUnsupervised<F> for MeanAbsDevScaler {
    type Model = FittedMeanAbsDevScaler<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        check_fit_input(x, 1, "MeanAbsDevScaler::fit")?;
        let d = x.ncols();
        let mom = column_moments(x, None);
        let (lo, hi) = super::moments::column_min_max(x);
        // Σ |x/f − m'| per column, blocks merged in order (deterministic).
        let inv: Vec<f64> = mom.factor.iter().map(|f| 1.0 / f).collect();
        let abs_dev = par::reduce_chunks(
            x.nrows(),
            2048,
            vec![0.0f64; d],
            |r| {
                let mut acc = vec![0.0f64; d];
                for row in x.slice(s![r, ..]).rows() {
                    for (j, v) in row.iter().enumerate() {
                        acc[j] += (v.to_f64_lossless() * inv[j] - mom.mean[j]).abs();
                    }
                }
                acc
            },
            |a, b| a.iter().zip(&b).map(|(p, q)| p + q).collect(),
        );
        let n = x.nrows() as f64;
        let mut mean = Array1::zeros(d);
        let mut scale = Array1::ones(d);
        for j in 0..d {
            mean[j] = F::cast(mom.mean[j] * mom.factor[j]);
            let sj = abs_dev[j] / n * mom.factor[j];
            if lo[j] != hi[j] && sj > 0.0 {
                scale[j] = F::cast(sj);
            }
        }
        Ok(FittedMeanAbsDevScaler { mean, scale })
    }
}

/// A fitted [`MeanAbsDevScaler`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedMeanAbsDevScaler<F> {
    mean: Array1<F>,
    scale: Array1<F>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedMeanAbsDevScaler<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedMeanAbsDevScaler<F> {
    /// Training mean `m_f` of each feature.
    pub fn mean(&self) -> &Array1<F> {
        &self.mean
    }
    /// Mean absolute deviation `s_f` of each feature (1 for constant features).
    pub fn scale(&self) -> &Array1<F> {
        &self.scale
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.mean.len()
    }
}

impl<F: Float> Transform<F> for FittedMeanAbsDevScaler<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "MeanAbsDevScaler::transform")?;
        let (m, s) = (self.mean.to_vec(), self.scale.to_vec());
        Ok(map_rows(x, x.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = (row[j] - m[j]) / s[j];
            }
        }))
    }
}

impl<F: Float> InverseTransform<F> for FittedMeanAbsDevScaler<F> {
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(z, self.n_features(), "MeanAbsDevScaler::inverse_transform")?;
        let (m, s) = (self.mean.to_vec(), self.scale.to_vec());
        Ok(map_rows(z, z.ncols(), |row, out| {
            for j in 0..row.len() {
                out[j] = row[j] * s[j] + m[j];
            }
        }))
    }
}

impl<F: Float> CheckModel for FittedRobustScaler<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRobustScaler");
        c.params(&self.params)?;
        c.at_least("center", self.center.len(), 1)?;
        c.len("scale", self.scale.len(), self.center.len())?;
        c.finite("center", &self.center)?;
        c.that(
            self.scale.iter().all(|s| s.is_finite() && *s > F::zero()),
            || "`scale` must be finite and positive".into(),
        )
    }
}

impl<F: Float> CheckModel for FittedMeanAbsDevScaler<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedMeanAbsDevScaler");
        c.at_least("mean", self.mean.len(), 1)?;
        c.len("scale", self.scale.len(), self.mean.len())?;
        c.finite("mean", &self.mean)?;
        c.that(
            self.scale.iter().all(|s| s.is_finite() && *s > F::zero()),
            || "`scale` must be finite and positive".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn robust_scaler_hand_case() {
        // Column 0 = 1..=4 and 100: median 3; v = 4·0.25 = 1 -> q25 = 2, q75 = 4.
        let x: Array2<f64> = array![[1.0, 7.0], [2.0, 7.0], [3.0, 7.0], [4.0, 7.0], [100.0, 7.0]];
        let f = RobustScaler::default().fit(&x).expect("fit");
        assert_eq!(f.center(), &array![3.0, 7.0]);
        assert_eq!(f.scale(), &array![2.0, 1.0]);
        let z = f.transform(&x).expect("t");
        assert_eq!(z.column(1).to_vec(), vec![0.0; 5]);
        assert_eq!(f.inverse_transform(&z).expect("inv"), x);
        // Quantile range (0, 100) is the full range: 99.
        let f = RobustScaler::default()
            .quantile_range(0.0, 100.0)
            .with_centering(false)
            .fit(&x)
            .expect("fit");
        assert_eq!(
            f.transform(&array![[99.0, 7.0]]).expect("t"),
            array![[1.0, 7.0]]
        );
        for bad in [(-1.0, 50.0), (60.0, 40.0), (0.0, 101.0), (f64::NAN, 1.0)] {
            assert!(
                RobustScaler::default()
                    .quantile_range(bad.0, bad.1)
                    .fit(&x)
                    .is_err()
            );
        }
    }

    #[test]
    fn mean_abs_dev_hand_case() {
        // 1, 2, 3, 6: mean 3, |dev| = 2, 1, 0, 3 -> s = 1.5.
        let x: Array2<f64> = array![[1.0, 4.0], [2.0, 4.0], [3.0, 4.0], [6.0, 4.0]];
        let f = MeanAbsDevScaler::new().fit(&x).expect("fit");
        assert_eq!(f.mean(), &array![3.0, 4.0]);
        assert_eq!(f.scale(), &array![1.5, 1.0]);
        let z = f.transform(&x).expect("t");
        assert_eq!(z.column(0).to_vec(), vec![-4.0 / 3.0, -2.0 / 3.0, 0.0, 2.0]);
        assert_eq!(z.column(1).to_vec(), vec![0.0; 4]);
        let back = f.inverse_transform(&z).expect("inv");
        assert!((&back - &x).iter().all(|v| v.abs() < 1e-14));
        // Extreme magnitudes keep the same z.
        for sc in [1e300, 1e-300] {
            let xs = x.mapv(|v| v * sc);
            let zs = MeanAbsDevScaler::new()
                .fit(&xs)
                .expect("fit")
                .transform(&xs)
                .expect("t");
            assert!((&zs - &z).iter().all(|v| v.abs() < 1e-12), "{sc}");
        }
    }
}
