//! Checks and resolution of the hyperparameters every tree shares.

use ndarray::{ArrayRef1, ArrayRef2};
use ndlearn_core::validate::ModelCheck;
use ndlearn_core::{Error, Float, Result, validate};

use crate::builder::Config;
use crate::params::{MaxFeatures, SampleCount, SplitterKind};

/// The stopping rules and split search of one tree, as the estimators hold them.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Growth {
    pub splitter: SplitterKind,
    pub max_depth: Option<usize>,
    pub min_samples_split: SampleCount,
    pub min_samples_leaf: SampleCount,
    pub min_weight_fraction_leaf: f64,
    pub max_features: MaxFeatures,
    pub max_leaf_nodes: Option<usize>,
    pub min_impurity_decrease: f64,
    pub ccp_alpha: f64,
    /// Histogram split mode with at most this many bins per feature (`None`: exact).
    pub max_bins: Option<usize>,
}

impl Growth {
    /// scikit-learn's parameter constraints.
    pub(crate) fn validate(&self) -> Result<()> {
        if self.max_depth == Some(0) {
            return Err(Error::invalid_param(
                "max_depth",
                "must be at least 1 (or None for unlimited)",
            ));
        }
        self.min_samples_split
            .validate("min_samples_split", 2, 1.0, true)?;
        self.min_samples_leaf
            .validate("min_samples_leaf", 1, 1.0, false)?;
        validate::check_in_range(
            "min_weight_fraction_leaf",
            self.min_weight_fraction_leaf,
            0.0,
            0.5,
        )?;
        self.max_features.validate()?;
        if let Some(m) = self.max_leaf_nodes
            && m < 2
        {
            return Err(Error::invalid_param(
                "max_leaf_nodes",
                format!("must be at least 2 (or None); got {m}"),
            ));
        }
        validate::check_non_negative("min_impurity_decrease", self.min_impurity_decrease)?;
        validate::check_non_negative("ccp_alpha", self.ccp_alpha)?;
        if let Some(b) = self.max_bins {
            if !(2..=crate::binning::MAX_BINS).contains(&b) {
                return Err(Error::invalid_param(
                    "max_bins",
                    format!("must lie in 2..=255 (or None for exact thresholds); got {b}"),
                ));
            }
            if self.splitter != SplitterKind::Best {
                return Err(Error::invalid_param(
                    "max_bins",
                    "the histogram split mode needs splitter = best",
                ));
            }
        }
        Ok(())
    }

    /// The builder's configuration for `n` rows, `d` features and total weight `total_weight`.
    pub(crate) fn resolve(&self, n: usize, d: usize, total_weight: f64) -> Result<Config> {
        let min_samples_leaf = self.min_samples_leaf.ceil_of(n).max(1);
        let min_samples_split = match self.min_samples_split {
            SampleCount::Count(k) => k,
            SampleCount::Fraction(_) => self.min_samples_split.ceil_of(n).max(2),
        }
        .max(2 * min_samples_leaf);
        Ok(Config {
            max_depth: self.max_depth.unwrap_or(i32::MAX as usize),
            min_samples_split,
            min_samples_leaf,
            min_weight_leaf: self.min_weight_fraction_leaf * total_weight,
            min_impurity_decrease: self.min_impurity_decrease,
            max_features: self.max_features.resolve(d)?,
            max_leaf_nodes: self.max_leaf_nodes,
            random_splits: self.splitter == SplitterKind::Random,
            parallel_min_rows: crate::builder::PARALLEL_MIN_ROWS,
            presort: true,
        })
    }
}

/// Checks that every feature index of the hyperparameter `name` is below `d`.
///
/// # Errors
/// [`Error::InvalidParam`] naming the first index out of range.
pub(crate) fn check_feature_indices(name: &'static str, indices: &[usize], d: usize) -> Result<()> {
    match indices.iter().find(|&&j| j >= d) {
        Some(&j) => Err(Error::invalid_param(
            name,
            format!("feature index {j} out of range for {d} features"),
        )),
        None => Ok(()),
    }
}

/// Checks the training matrix (rows, columns, finite) and optional weights; returns the
/// weights as `f64`.
pub(crate) fn check_x_and_weights<F: Float>(
    x: &ArrayRef2<F>,
    n_target: usize,
    sample_weight: Option<&ArrayRef1<F>>,
    context: &'static str,
) -> Result<Option<Vec<f64>>> {
    validate::check_target_len(x.nrows(), n_target, context)?;
    validate::check_fit_input(x, 1, context)?;
    checked_weights(sample_weight, x.nrows())
}

/// Checks optional sample weights of `n` rows; returns them as `f64`.
pub(crate) fn checked_weights<F: Float>(
    sample_weight: Option<&ArrayRef1<F>>,
    n: usize,
) -> Result<Option<Vec<f64>>> {
    sample_weight
        .map(|w| {
            validate::check_sample_weight(w, n)?;
            Ok(w.iter().map(|v| v.to_f64_lossless()).collect())
        })
        .transpose()
}

/// At least two classes with positive total weight (weights of rows, labels `0..k`).
///
/// # Errors
/// [`Error::TooFewClasses`].
pub(crate) fn check_weighted_classes(
    y: &ArrayRef1<usize>,
    w: &[f64],
    k: usize,
    context: &'static str,
) -> Result<()> {
    let mut mass = vec![0.0f64; k];
    y.iter().zip(w).for_each(|(&c, &v)| mass[c] += v);
    let found = mass.iter().filter(|&&m| m > 0.0).count();
    if found < 2 {
        return Err(Error::TooFewClasses {
            context,
            needed: 2,
            found,
        });
    }
    Ok(())
}

/// The first index of the largest value (0 for an empty input).
pub(crate) fn argmax<T: PartialOrd + Copy>(values: impl IntoIterator<Item = T>) -> usize {
    let mut it = values.into_iter();
    let Some(mut best_v) = it.next() else {
        return 0;
    };
    let mut best = 0;
    for (i, v) in it.enumerate() {
        if v > best_v {
            best_v = v;
            best = i + 1;
        }
    }
    best
}

/// R² of predictions `pred` of `y` (1 for a perfect fit of a constant target, else 0 there).
pub(crate) fn r2(pred: &[f64], y: &[f64]) -> f64 {
    let n = y.len() as f64;
    let mean = y.iter().sum::<f64>() / n;
    let ss_res: f64 = pred.iter().zip(y).map(|(p, t)| (t - p) * (t - p)).sum();
    let ss_tot: f64 = y.iter().map(|t| (t - mean) * (t - mean)).sum();
    if ss_tot > 0.0 {
        1.0 - ss_res / ss_tot
    } else if ss_res == 0.0 {
        1.0
    } else {
        0.0
    }
}

/// Checks an ensemble's `max_samples`: a count of at least 1 or a positive finite fraction.
pub(crate) fn validate_max_samples(max_samples: Option<SampleCount>) -> Result<()> {
    match max_samples {
        Some(SampleCount::Count(0)) => Err(Error::invalid_param(
            "max_samples",
            "a count must be at least 1",
        )),
        Some(SampleCount::Fraction(f)) if !(f > 0.0 && f.is_finite()) => Err(Error::invalid_param(
            "max_samples",
            format!("a fraction must be positive and finite; got {f}"),
        )),
        _ => Ok(()),
    }
}

/// The links of a tree read back from a file, recorded one child at a time. The builders
/// append every node after its parent, so a fitted tree has every child after its parent and
/// every node but the root the child of exactly one node: then a walk from the root visits
/// strictly increasing indices (it ends, within `n_nodes` steps) and the links form one tree
/// rooted at node 0.
pub(crate) struct TreeLinks {
    has_parent: Vec<bool>,
}

impl TreeLinks {
    /// No link yet among `n_nodes` nodes.
    pub(crate) fn new(n_nodes: usize) -> Self {
        Self {
            has_parent: vec![false; n_nodes],
        }
    }

    /// Records `child` of node `parent`: a node after `parent`, no other node's child.
    ///
    /// # Errors
    /// [`Error::InvalidModel`] of `c`'s model.
    pub(crate) fn child<T>(&mut self, c: &ModelCheck, parent: usize, child: T) -> Result<usize>
    where
        T: TryInto<usize> + Copy + std::fmt::Display,
    {
        match child.try_into() {
            Ok(ch) if ch > parent && self.has_parent.get(ch) == Some(&false) => {
                self.has_parent[ch] = true;
                Ok(ch)
            }
            _ => Err(c.error(format!(
                "node {parent}: child {child} is not a later node without another parent"
            ))),
        }
    }

    /// Every node but the root is some node's child.
    ///
    /// # Errors
    /// [`Error::InvalidModel`] of `c`'s model.
    pub(crate) fn finish(self, c: &ModelCheck) -> Result<()> {
        match self.has_parent.iter().skip(1).position(|p| !p) {
            None => Ok(()),
            Some(j) => Err(c.error(format!("node {} is no node's child", j + 1))),
        }
    }
}
