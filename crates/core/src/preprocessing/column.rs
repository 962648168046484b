//! [`ColumnTransformer`]: different transformers for different groups of columns, outputs side
//! by side (scikit-learn's `sklearn.compose.ColumnTransformer`).
//!
//! A group is a name, its column indices and a chain of [`ColumnStep`]s (imputation, scaling,
//! encoding) applied in order; the output is every group's output in group order, then the
//! remaining columns unchanged (`Remainder::Passthrough`) or nothing (`Remainder::Drop`, the
//! default), as scikit-learn orders them. The set of steps is closed (an enum) so a fitted
//! transformer serialises with serde and sits in a [`Pipeline`](crate::pipeline::Pipeline) or a
//! model file.
//!
//! Categorical columns hold numeric codes (the command line maps text categories to their rank
//! in sorted order, so one-hot columns come out in scikit-learn's order); missing values are NaN
//! and reach the steps that accept them (an imputer first).
//!
//! ```
//! use ndlearn_core::preprocessing::{
//!     ColumnGroup, ColumnStep, ColumnTransformer, HandleUnknown, ImputeStrategy, OneHotEncoder,
//!     SimpleImputer, StandardScaler,
//! };
//! use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
//!
//! let nan = f64::NAN;
//! // Columns: a measurement with a gap, a category code (0, 1, 2) with a gap.
//! let x = array![[1.0, 0.0], [nan, 2.0], [3.0, nan], [4.0, 2.0]];
//! let ct = ColumnTransformer::new(vec![
//!     ColumnGroup::new("num", vec![0]).step(ColumnStep::Impute(SimpleImputer::new(ImputeStrategy::Mean))),
//!     ColumnGroup::new("cat", vec![1])
//!         .step(ColumnStep::Impute(SimpleImputer::new(ImputeStrategy::MostFrequent)))
//!         .step(ColumnStep::OneHot(OneHotEncoder::default().handle_unknown(HandleUnknown::Ignore))),
//! ]);
//! let fitted = ct.fit(&x)?;
//! let z = fitted.transform(&x)?;
//! // 1 imputed column + 2 one-hot columns (categories 0 and 2; the gap takes the mode, 2).
//! assert_eq!(z, array![[1.0, 1.0, 0.0], [8.0 / 3.0, 0.0, 1.0], [3.0, 0.0, 1.0], [4.0, 0.0, 1.0]]);
//! assert_eq!(fitted.group_widths(), [1, 2]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array2, ArrayRef2, Axis, concatenate};

use super::{
    FittedMinMaxScaler, FittedOneHotEncoder, FittedOrdinalEncoder, FittedRobustScaler,
    FittedSimpleImputer, FittedStandardScaler, MinMaxScaler, OneHotEncoder, OrdinalEncoder,
    RobustScaler, SimpleImputer, StandardScaler,
};
use crate::traits::{Estimator, FitUnsupervised, NFeaturesIn, Transform};
use crate::validate::check_n_features;
use crate::{Error, Float, Result};

/// One transformer of a [`ColumnGroup`] chain.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum ColumnStep {
    /// [`SimpleImputer`].
    Impute(SimpleImputer),
    /// [`StandardScaler`].
    StandardScale(StandardScaler),
    /// [`MinMaxScaler`].
    MinMaxScale(MinMaxScaler),
    /// [`RobustScaler`].
    RobustScale(RobustScaler),
    /// [`OneHotEncoder`].
    OneHot(OneHotEncoder),
    /// [`OrdinalEncoder`].
    Ordinal(OrdinalEncoder),
}

/// A fitted [`ColumnStep`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum FittedColumnStep<F> {
    /// A fitted [`SimpleImputer`].
    Impute(FittedSimpleImputer<F>),
    /// A fitted [`StandardScaler`].
    StandardScale(FittedStandardScaler<F>),
    /// A fitted [`MinMaxScaler`].
    MinMaxScale(FittedMinMaxScaler<F>),
    /// A fitted [`RobustScaler`].
    RobustScale(FittedRobustScaler<F>),
    /// A fitted [`OneHotEncoder`].
    OneHot(FittedOneHotEncoder<F>),
    /// A fitted [`OrdinalEncoder`].
    Ordinal(FittedOrdinalEncoder<F>),
}

impl ColumnStep {
    fn validate(&self) -> Result<()> {
        match self {
            Self::Impute(s) => s.validate(),
            Self::StandardScale(s) => s.validate(),
            Self::MinMaxScale(s) => s.validate(),
            Self::RobustScale(s) => s.validate(),
            Self::OneHot(s) => s.validate(),
            Self::Ordinal(s) => s.validate(),
        }
    }

    fn fit<F: Float>(&self, x: &ArrayRef2<F>) -> Result<FittedColumnStep<F>> {
        Ok(match self {
            Self::Impute(s) => FittedColumnStep::Impute(s.fit(x)?),
            Self::StandardScale(s) => FittedColumnStep::StandardScale(s.fit(x)?),
            Self::MinMaxScale(s) => FittedColumnStep::MinMaxScale(s.fit(x)?),
            Self::RobustScale(s) => FittedColumnStep::RobustScale(s.fit(x)?),
            Self::OneHot(s) => FittedColumnStep::OneHot(s.fit(x)?),
            Self::Ordinal(s) => FittedColumnStep::Ordinal(s.fit(x)?),
        })
    }
}

impl<F: Float> Transform<F> for FittedColumnStep<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        match self {
            Self::Impute(s) => s.transform(x),
            Self::StandardScale(s) => s.transform(x),
            Self::MinMaxScale(s) => s.transform(x),
            Self::RobustScale(s) => s.transform(x),
            Self::OneHot(s) => s.transform(x),
            Self::Ordinal(s) => s.transform(x),
        }
    }
}

/// A named group of columns and the chain of steps applied to them (no step: the columns pass
/// through unchanged, scikit-learn's `"passthrough"`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColumnGroup {
    /// The group's name (scikit-learn's transformer name, the prefix of its output names).
    pub name: String,
    /// The input columns, in the order the steps see them.
    pub columns: Vec<usize>,
    /// The steps, applied in order.
    pub steps: Vec<ColumnStep>,
}

impl ColumnGroup {
    /// A group with no step yet.
    pub fn new(name: impl Into<String>, columns: Vec<usize>) -> Self {
        Self {
            name: name.into(),
            columns,
            steps: Vec::new(),
        }
    }

    /// Appends a step.
    pub fn step(mut self, step: ColumnStep) -> Self {
        self.steps.push(step);
        self
    }
}

/// What happens to the columns no group names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Remainder {
    /// Left out of the output (scikit-learn's default).
    #[default]
    Drop,
    /// Appended unchanged after the groups' outputs.
    Passthrough,
}

/// Column groups with their own transformers, outputs side by side (see the
/// [module docs](self)).
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `groups` | — | `transformers` |
/// | `remainder` | `Drop` | `remainder` |
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ColumnTransformer {
    /// The column groups, in output order.
    pub groups: Vec<ColumnGroup>,
    /// The columns no group names.
    pub remainder: Remainder,
}

impl ColumnTransformer {
    /// A transformer of `groups` that drops the other columns.
    pub fn new(groups: Vec<ColumnGroup>) -> Self {
        Self {
            groups,
            remainder: Remainder::Drop,
        }
    }

    crate::setters! {
        /// Sets `remainder`.
        remainder: Remainder,
    }
}

impl Estimator for ColumnTransformer {
    /// Group names non-empty and unique; every step valid. Column indices are checked at fit.
    fn validate(&self) -> Result<()> {
        for (i, g) in self.groups.iter().enumerate() {
            if g.name.is_empty() || self.groups[..i].iter().any(|h| h.name == g.name) {
                return Err(Error::invalid_param(
                    "groups",
                    format!("group names must be non-empty and unique (`{}`)", g.name),
                ));
            }
            for s in &g.steps {
                s.validate()?;
            }
        }
        Ok(())
    }
}

/// A fitted group: its columns and fitted steps.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct FittedGroup<F> {
    name: String,
    columns: Vec<usize>,
    steps: Vec<FittedColumnStep<F>>,
    width: usize,
}

impl<F: Float> FittedGroup<F> {
    fn apply(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let mut z = x.select(Axis(1), &self.columns);
        for s in &self.steps {
            z = s.transform(&z)?;
        }
        Ok(z)
    }
}

impl<F: Float> FitUnsupervised<F> for ColumnTransformer {
    type Model = FittedColumnTransformer<F>;

    /// Fits each group's chain on its columns (each step on the previous step's output).
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        crate::validate::check_min_samples(x.nrows(), 1, "ColumnTransformer::fit")?;
        let d = x.ncols();
        let mut groups = Vec::with_capacity(self.groups.len());
        let mut used = vec![false; d];
        for g in &self.groups {
            if let Some(&j) = g.columns.iter().find(|&&j| j >= d) {
                return Err(Error::invalid_param(
                    "groups",
                    format!("group `{}` names column {j} of {d}", g.name),
                ));
            }
            for &j in &g.columns {
                used[j] = true;
            }
            let mut z = x.select(Axis(1), &g.columns);
            let mut steps = Vec::with_capacity(g.steps.len());
            for s in &g.steps {
                let f = s.fit(&z)?;
                z = f.transform(&z)?;
                steps.push(f);
            }
            groups.push(FittedGroup {
                name: g.name.clone(),
                columns: g.columns.clone(),
                steps,
                width: z.ncols(),
            });
        }
        let remainder = match self.remainder {
            Remainder::Drop => Vec::new(),
            Remainder::Passthrough => (0..d).filter(|&j| !used[j]).collect(),
        };
        Ok(FittedColumnTransformer {
            groups,
            remainder,
            n_features_in: d,
        })
    }
}

/// A fitted [`ColumnTransformer`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedColumnTransformer<F> {
    groups: Vec<FittedGroup<F>>,
    remainder: Vec<usize>,
    n_features_in: usize,
}

impl<F: Float> FittedColumnTransformer<F> {
    /// The output width of each group, in order (the passed-through remainder follows).
    pub fn group_widths(&self) -> Vec<usize> {
        self.groups.iter().map(|g| g.width).collect()
    }

    /// The passed-through remainder columns (empty under `Remainder::Drop`).
    pub fn remainder_columns(&self) -> &[usize] {
        &self.remainder
    }

    /// The fitted steps of group `name`.
    pub fn group_steps(&self, name: &str) -> Option<&[FittedColumnStep<F>]> {
        self.groups
            .iter()
            .find(|g| g.name == name)
            .map(|g| g.steps.as_slice())
    }

    /// Total output width.
    pub fn n_features_out(&self) -> usize {
        self.groups.iter().map(|g| g.width).sum::<usize>() + self.remainder.len()
    }
}

impl<F> NFeaturesIn for FittedColumnTransformer<F> {
    fn n_features_in(&self) -> usize {
        self.n_features_in
    }
}

impl<F: Float> Transform<F> for FittedColumnTransformer<F> {
    /// Every group's output, then the remainder, side by side.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_n_features(
            x.ncols(),
            self.n_features_in,
            "ColumnTransformer::transform",
        )?;
        let mut parts = Vec::with_capacity(self.groups.len() + 1);
        for g in &self.groups {
            parts.push(g.apply(x)?);
        }
        if !self.remainder.is_empty() {
            let rest = x.select(Axis(1), &self.remainder);
            crate::validate::check_finite_2d(&rest, "ColumnTransformer::transform")?;
            parts.push(rest);
        }
        if parts.is_empty() {
            return Ok(Array2::zeros((x.nrows(), 0)));
        }
        let views: Vec<_> = parts.iter().map(|p| p.view()).collect();
        concatenate(Axis(1), &views).map_err(|e| Error::invalid_param("groups", e.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocessing::{HandleUnknown, ImputeStrategy};
    use ndarray::array;

    #[test]
    fn groups_then_remainder_in_scikit_learn_order() -> Result<()> {
        let x = array![[1.0, 10.0, 0.0], [2.0, 20.0, 1.0], [3.0, 60.0, 1.0]];
        let ct = ColumnTransformer::new(vec![
            ColumnGroup::new("b", vec![2]).step(ColumnStep::OneHot(OneHotEncoder::default())),
            ColumnGroup::new("a", vec![1]).step(ColumnStep::MinMaxScale(MinMaxScaler::default())),
        ])
        .remainder(Remainder::Passthrough);
        let f = ct.fit(&x)?;
        let z = f.transform(&x)?;
        assert_eq!(
            z,
            array![
                [1.0, 0.0, 0.0, 1.0],
                [0.0, 1.0, 0.2, 2.0],
                [0.0, 1.0, 1.0, 3.0]
            ]
        );
        assert_eq!(
            (f.group_widths(), f.remainder_columns()),
            (vec![2, 1], &[0usize][..])
        );
        assert_eq!(f.n_features_out(), 4);
        // Dropping the remainder; a group without steps passes its columns through.
        let drop = ColumnTransformer::new(vec![ColumnGroup::new("raw", vec![1, 0])]).fit(&x)?;
        assert_eq!(
            drop.transform(&x)?,
            array![[10.0, 1.0], [20.0, 2.0], [60.0, 3.0]]
        );
        Ok(())
    }

    #[test]
    fn unknown_categories_and_bad_input() -> Result<()> {
        let x = array![[0.0, f64::NAN], [1.0, 2.0], [1.0, 4.0]];
        let ct = ColumnTransformer::new(vec![
            ColumnGroup::new("cat", vec![0]).step(ColumnStep::OneHot(
                OneHotEncoder::default().handle_unknown(HandleUnknown::Ignore),
            )),
            ColumnGroup::new("num", vec![1]).step(ColumnStep::Impute(SimpleImputer::new(
                ImputeStrategy::Median,
            ))),
        ]);
        let f = ct.fit(&x)?;
        // An unseen code is all zeros; NaN in the imputed column takes the median 3.
        assert_eq!(
            f.transform(&array![[-1.0, f64::NAN]])?,
            array![[0.0, 0.0, 3.0]]
        );
        assert!(f.transform(&array![[0.0]]).is_err());
        // NaN where no imputer runs is an error (the one-hot encoder rejects it).
        assert!(f.transform(&array![[f64::NAN, 1.0]]).is_err());
        let bad = ColumnTransformer::new(vec![ColumnGroup::new("x", vec![5])]);
        assert!(bad.fit(&x).is_err());
        let dup = ColumnTransformer::new(vec![
            ColumnGroup::new("x", vec![0]),
            ColumnGroup::new("x", vec![1]),
        ]);
        assert!(dup.validate().is_err());
        Ok(())
    }
}
