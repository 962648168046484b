//! [`SimpleImputer`]: replace missing values (NaN) by a per-column statistic.

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array2, ArrayRef2};

use super::map_rows;
use super::quantile::{median_sorted, sort_finite};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::{check_min_samples, check_n_features};
use crate::{Error, Float, Result, par};

/// The statistic a [`SimpleImputer`] fills in.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ImputeStrategy {
    /// Mean of the observed values (the default).
    #[default]
    Mean,
    /// Median of the observed values (mean of the two middle ones for an even count).
    Median,
    /// Most frequent observed value; the smallest one on ties.
    MostFrequent,
    /// A constant (scikit-learn's `fill_value`; 0 there by default for numbers).
    Constant(f64),
}

/// Replaces missing values, encoded as NaN, by a statistic of each column's observed values —
/// scikit-learn's `SimpleImputer(missing_values=np.nan)`.
///
/// **All-missing columns.** A column with no observed value at fit has no statistic. As in
/// scikit-learn (`keep_empty_features = false`, the default), such a column is **dropped** from
/// the output of `transform` (so the output can have fewer columns than the input; see
/// [`FittedSimpleImputer::n_features_out`]); this holds for every strategy, `Constant`
/// included. With `keep_empty_features = true` the column is kept and filled with 0 (`Mean`,
/// `Median`, `MostFrequent`) or the constant.
///
/// NaN is accepted at fit and transform (it is the missing marker); `±∞` is rejected with
/// [`Error::NonFinite`], as scikit-learn does. Not implemented: other missing markers,
/// `add_indicator` (and hence `inverse_transform`).
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `strategy` | `Mean` | `strategy` + `fill_value` |
/// | `keep_empty_features` | `false` | `keep_empty_features` |
///
/// Fit is `O(n d)` (`Median`, `MostFrequent`: `O(n log n · d)`), columns in parallel; transform
/// `O(n d)`.
///
/// ```
/// use ndlearn_core::preprocessing::{ImputeStrategy, SimpleImputer};
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let nan = f64::NAN;
/// let x = array![[1.0, nan, nan], [3.0, 4.0, nan], [nan, 8.0, nan]];
/// let imp = SimpleImputer::new(ImputeStrategy::Mean).fit(&x)?;
/// // Column 2 has no observed value and is dropped.
/// assert_eq!(imp.transform(&x)?, array![[1.0, 6.0], [3.0, 4.0], [2.0, 8.0]]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SimpleImputer {
    /// The fill statistic.
    pub strategy: ImputeStrategy,
    /// Keep all-missing columns (filled with 0 or the constant) instead of dropping them.
    pub keep_empty_features: bool,
}

impl SimpleImputer {
    /// An imputer with `strategy` (`keep_empty_features = false`).
    pub fn new(strategy: ImputeStrategy) -> Self {
        Self {
            strategy,
            keep_empty_features: false,
        }
    }
    crate::setters! {
        /// Sets `strategy`.
        strategy: ImputeStrategy,
        /// Sets `keep_empty_features`.
        keep_empty_features: bool,
    }
}

impl crate::Estimator for SimpleImputer {
    /// Requires a finite constant.
    fn validate(&self) -> Result<()> {
        if let ImputeStrategy::Constant(c) = self.strategy {
            if !c.is_finite() {
                return Err(Error::invalid_param(
                    "strategy",
                    format!("the constant fill value must be finite, got {c}"),
                ));
            }
        }
        Ok(())
    }
}

/// `±∞` anywhere in `x` is an error (NaN is the missing marker and allowed).
fn check_no_infinity<F: Float>(x: &ArrayRef2<F>) -> Result<()> {
    for (row, r) in x.rows().into_iter().enumerate() {
        if let Some(col) = r.iter().position(|v| v.is_infinite()) {
            return Err(Error::NonFinite {
                context: "X",
                row,
                col,
            });
        }
    }
    Ok(())
}

/// The statistic of the observed (non-NaN) values of one column, `None` if there are none.
fn column_statistic<F: Float>(values: &mut Vec<F>, strategy: ImputeStrategy) -> Option<F> {
    values.retain(|v| !v.is_nan());
    if values.is_empty() {
        return None;
    }
    Some(match strategy {
        ImputeStrategy::Mean => {
            let s: f64 = values.iter().map(|v| v.to_f64_lossless()).sum();
            F::cast(s / values.len() as f64)
        }
        ImputeStrategy::Median => {
            sort_finite(values);
            median_sorted(values)
        }
        ImputeStrategy::MostFrequent => {
            sort_finite(values);
            let (mut best, mut best_n) = (values[0], 0usize);
            let mut i = 0;
            while i < values.len() {
                let mut j = i;
                while j < values.len() && values[j] == values[i] {
                    j += 1;
                }
                if j - i > best_n {
                    best_n = j - i;
                    best = values[i];
                }
                i = j;
            }
            best
        }
        ImputeStrategy::Constant(c) => F::cast(c),
    })
}

impl<F: Float> FitUnsupervised<F> for SimpleImputer {
    type Model = FittedSimpleImputer<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_min_samples(x.nrows(), 1, "SimpleImputer::fit")?;
        if x.ncols() == 0 {
            return Err(Error::ShapeMismatch {
                context: "SimpleImputer::fit",
                expected: "at least one feature column".into(),
                found: "0 columns".into(),
            });
        }
        check_no_infinity(x)?;
        let strategy = self.strategy;
        let keep = self.keep_empty_features;
        let statistics = par::map_tasks(x.ncols(), |j| {
            let mut v = x.column(j).to_vec();
            column_statistic(&mut v, strategy).or_else(|| {
                keep.then(|| match strategy {
                    ImputeStrategy::Constant(c) => F::cast(c),
                    _ => F::zero(),
                })
            })
        });
        Ok(FittedSimpleImputer {
            params: *self,
            statistics,
        })
    }
}

/// A fitted [`SimpleImputer`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSimpleImputer<F> {
    params: SimpleImputer,
    statistics: Vec<Option<F>>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedSimpleImputer<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedSimpleImputer<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &SimpleImputer {
        &self.params
    }
    /// Fill value of each input column; `None` for an all-missing column that is dropped
    /// (scikit-learn stores NaN in `statistics_`).
    pub fn statistics(&self) -> &[Option<F>] {
        &self.statistics
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.statistics.len()
    }
    /// Number of output columns (input columns minus dropped all-missing ones).
    pub fn n_features_out(&self) -> usize {
        self.statistics.iter().filter(|s| s.is_some()).count()
    }
}

impl<F: Float> Transform<F> for FittedSimpleImputer<F> {
    /// Copies `x` with every NaN replaced by its column's statistic, dropping the columns that
    /// were all-missing at fit.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(x.ncols(), self.n_features(), "SimpleImputer::transform")?;
        check_no_infinity(x)?;
        let kept: Vec<(usize, F)> = self
            .statistics
            .iter()
            .enumerate()
            .filter_map(|(j, s)| s.map(|s| (j, s)))
            .collect();
        Ok(map_rows(x, kept.len(), |row, out| {
            for (o, &(j, s)) in out.iter_mut().zip(&kept) {
                let v = row[j];
                *o = if v.is_nan() { s } else { v };
            }
        }))
    }
}

impl<F: Float> CheckModel for FittedSimpleImputer<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSimpleImputer");
        c.params(&self.params)?;
        c.at_least("statistics", self.statistics.len(), 1)?;
        c.that(
            self.statistics.iter().flatten().all(|v| v.is_finite()),
            || "`statistics` holds a non-finite value".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    const NAN: f64 = f64::NAN;

    #[test]
    fn strategies_by_hand() {
        let x: Array2<f64> = array![[1.0, 2.0], [NAN, 2.0], [3.0, 5.0], [10.0, NAN]];
        let fit = |s| SimpleImputer::new(s).fit(&x).expect("fit");
        // Column 0 observed 1, 3, 10: mean 14/3, median 3; column 1: 2, 2, 5 -> mode 2.
        let m = fit(ImputeStrategy::Mean);
        assert_eq!(m.statistics(), &[Some(14.0 / 3.0), Some(3.0)]);
        assert_eq!(
            fit(ImputeStrategy::Median).statistics(),
            &[Some(3.0), Some(2.0)]
        );
        // Ties in column 0 (each once): smallest value.
        assert_eq!(
            fit(ImputeStrategy::MostFrequent).statistics(),
            &[Some(1.0), Some(2.0)]
        );
        let c = fit(ImputeStrategy::Constant(-1.0));
        assert_eq!(c.transform(&x).expect("t")[[1, 0]], -1.0);
        let z = m.transform(&x).expect("t");
        assert_eq!(z[[1, 0]], 14.0 / 3.0);
        assert_eq!(z[[3, 1]], 3.0);
        assert_eq!(z[[2, 1]], 5.0);
    }

    #[test]
    fn empty_columns_dropped_or_kept() {
        let x: Array2<f64> = array![[NAN, 1.0], [NAN, 3.0]];
        for s in [
            ImputeStrategy::Mean,
            ImputeStrategy::Median,
            ImputeStrategy::MostFrequent,
            ImputeStrategy::Constant(7.0),
        ] {
            let f = SimpleImputer::new(s).fit(&x).expect("fit");
            assert_eq!(f.n_features_out(), 1);
            assert_eq!(
                f.transform(&x).expect("t").column(0).to_vec(),
                vec![1.0, 3.0]
            );
            let k = SimpleImputer::new(s)
                .keep_empty_features(true)
                .fit(&x)
                .expect("fit");
            let want = if let ImputeStrategy::Constant(c) = s {
                c
            } else {
                0.0
            };
            assert_eq!(
                k.transform(&x).expect("t").column(0).to_vec(),
                vec![want; 2]
            );
        }
    }

    #[test]
    fn errors() {
        let x: Array2<f64> = array![[1.0, f64::INFINITY]];
        assert!(matches!(
            SimpleImputer::default().fit(&x),
            Err(Error::NonFinite { row: 0, col: 1, .. })
        ));
        let ok = SimpleImputer::default()
            .fit(&array![[1.0, 2.0]])
            .expect("fit");
        assert!(matches!(
            ok.transform(&array![[f64::NEG_INFINITY, 1.0]]),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            ok.transform(&array![[1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(
            SimpleImputer::new(ImputeStrategy::Constant(f64::NAN))
                .validate()
                .is_err()
        );
        assert!(
            SimpleImputer::default()
                .fit(&Array2::<f64>::zeros((0, 2)))
                .is_err()
        );
        assert!(
            SimpleImputer::default()
                .fit(&Array2::<f64>::zeros((2, 0)))
                .is_err()
        );
    }
}
