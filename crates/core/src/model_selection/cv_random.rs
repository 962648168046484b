//! Randomised and composite cross-validation splitters: shuffle splits (plain and stratified),
//! repeated (stratified) K-fold, and explicitly given splits.
//!
//! Split `i` of a shuffle split and repeat `r` of a repeated K-fold draw from
//! `random::stream(seed, i)` / `random::stream(seed, r)`, so each split is reproducible on its
//! own. Shuffle splits return train and test indices in random order; repeated K-fold returns
//! each fold ascending, like [`KFold`](super::KFold).

use ndarray::ArrayRef1;

use super::cv::{
    CrossValidator, Split, check_k, kfold_splits, labels_for, splits_from_fold_ids,
    stratified_fold_ids,
};
use super::split::{SplitIndices, SplitSize, Strata, resolve_sizes, shuffle_split_once};
use crate::random;
use crate::{Error, Result};

/// Random permutation splits (scikit-learn's `ShuffleSplit`): each split draws a fresh seeded
/// permutation, tests on its first `n_test` entries and trains on the next `n_train`.
///
/// | field | default | scikit-learn |
/// |---|---|---|
/// | `n_splits` | 10 | `n_splits` |
/// | `test_size` | `None` (10 % when `train_size` is also `None`) | `test_size` |
/// | `train_size` | `None` (the rest) | `train_size` |
/// | `seed` | 0 | `random_state` |
///
/// Split `i` uses the stream `random::stream(seed, i)`.
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, ShuffleSplit, SplitSize};
///
/// let s = ShuffleSplit::new(3).test_size(SplitSize::Fraction(0.25)).split(10, None)?;
/// assert_eq!(s.len(), 3);
/// assert!(s.iter().all(|(tr, te)| tr.len() == 7 && te.len() == 3));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ShuffleSplit {
    /// Number of splits (≥ 1).
    pub n_splits: usize,
    /// Test size.
    pub test_size: Option<SplitSize>,
    /// Train size.
    pub train_size: Option<SplitSize>,
    /// Seed.
    pub seed: u64,
}

impl Default for ShuffleSplit {
    fn default() -> Self {
        Self::new(10)
    }
}

impl ShuffleSplit {
    /// `n_splits` splits with the default sizes.
    pub fn new(n_splits: usize) -> Self {
        Self {
            n_splits,
            test_size: None,
            train_size: None,
            seed: 0,
        }
    }

    /// Sets `test_size`.
    pub fn test_size(mut self, v: SplitSize) -> Self {
        self.test_size = Some(v);
        self
    }

    /// Sets `train_size`.
    pub fn train_size(mut self, v: SplitSize) -> Self {
        self.train_size = Some(v);
        self
    }

    crate::setters! {
        /// Sets `seed`.
        seed: u64,
    }

    fn sizes(&self, n: usize) -> Result<(usize, usize)> {
        if self.n_splits == 0 {
            return Err(Error::invalid_param("n_splits", "must be >= 1"));
        }
        resolve_sizes(n, self.test_size, self.train_size, SplitSize::Fraction(0.1))
    }
}

impl CrossValidator for ShuffleSplit {
    fn split(&self, n_samples: usize, _y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        let (n_train, n_test) = self.sizes(n_samples)?;
        Ok((0..self.n_splits)
            .map(|i| {
                let mut rng = random::stream(self.seed, i as u64);
                let SplitIndices { train, test } =
                    shuffle_split_once(&mut rng, n_samples, n_train, n_test);
                (train, test)
            })
            .collect())
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.n_splits
    }
}

/// Stratified random splits (scikit-learn's `StratifiedShuffleSplit`): per-class train and test
/// counts by the largest-remainder allocation of [`approximate_mode`](super::approximate_mode),
/// members drawn at random. Same fields and defaults as [`ShuffleSplit`].
///
/// Errors: no labels, a class with a single member, train or test size below the number of
/// classes.
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, SplitSize, StratifiedShuffleSplit};
/// use ndlearn_core::ndarray::Array1;
///
/// let y = Array1::from_shape_fn(20, |i| usize::from(i >= 15)); // 15 zeros, 5 ones
/// let s = StratifiedShuffleSplit::new(2).test_size(SplitSize::Count(8)).split(20, Some(&y))?;
/// for (_, test) in &s {
///     assert_eq!(test.iter().filter(|&&i| y[i] == 1).count(), 2); // 8 · 5/20
/// }
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StratifiedShuffleSplit {
    /// Number of splits (≥ 1).
    pub n_splits: usize,
    /// Test size.
    pub test_size: Option<SplitSize>,
    /// Train size.
    pub train_size: Option<SplitSize>,
    /// Seed.
    pub seed: u64,
}

impl Default for StratifiedShuffleSplit {
    fn default() -> Self {
        Self::new(10)
    }
}

impl StratifiedShuffleSplit {
    /// `n_splits` splits with the default sizes.
    pub fn new(n_splits: usize) -> Self {
        Self {
            n_splits,
            test_size: None,
            train_size: None,
            seed: 0,
        }
    }

    /// Sets `test_size`.
    pub fn test_size(mut self, v: SplitSize) -> Self {
        self.test_size = Some(v);
        self
    }

    /// Sets `train_size`.
    pub fn train_size(mut self, v: SplitSize) -> Self {
        self.train_size = Some(v);
        self
    }

    crate::setters! {
        /// Sets `seed`.
        seed: u64,
    }
}

impl CrossValidator for StratifiedShuffleSplit {
    fn split(&self, n_samples: usize, y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        let y = labels_for(y, n_samples, "StratifiedShuffleSplit")?;
        if self.n_splits == 0 {
            return Err(Error::invalid_param("n_splits", "must be >= 1"));
        }
        let (n_train, n_test) = resolve_sizes(
            n_samples,
            self.test_size,
            self.train_size,
            SplitSize::Fraction(0.1),
        )?;
        let strata = Strata::new(y)?;
        (0..self.n_splits)
            .map(|i| {
                let mut rng = random::stream(self.seed, i as u64);
                let s = strata.split_once(&mut rng, n_train, n_test)?;
                Ok((s.train, s.test))
            })
            .collect()
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.n_splits
    }
}

/// Repeated K-fold (scikit-learn's `RepeatedKFold`): `n_repeats` shuffled K-folds, repeat `r`
/// seeded by `random::stream(seed, r)`; splits come repeat by repeat. With `stratified` set it
/// is `RepeatedStratifiedKFold`.
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, RepeatedKFold};
///
/// let s = RepeatedKFold::new(3, 2).seed(1).split(9, None)?;
/// assert_eq!(s.len(), 6);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RepeatedKFold {
    /// Folds per repeat (≥ 2).
    pub n_splits: usize,
    /// Number of repeats (≥ 1).
    pub n_repeats: usize,
    /// Seed.
    pub seed: u64,
    /// Stratify by the labels (each repeat is a shuffled [`StratifiedKFold`](super::StratifiedKFold)).
    pub stratified: bool,
}

impl Default for RepeatedKFold {
    fn default() -> Self {
        Self::new(5, 10)
    }
}

impl RepeatedKFold {
    /// `n_repeats` repeats of `n_splits` folds.
    pub fn new(n_splits: usize, n_repeats: usize) -> Self {
        Self {
            n_splits,
            n_repeats,
            seed: 0,
            stratified: false,
        }
    }

    crate::setters! {
        /// Sets `seed`.
        seed: u64,
        /// Sets `stratified`.
        stratified: bool,
    }
}

impl CrossValidator for RepeatedKFold {
    fn split(&self, n_samples: usize, y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        if self.n_repeats == 0 {
            return Err(Error::invalid_param("n_repeats", "must be >= 1"));
        }
        let labels = if self.stratified {
            Some(labels_for(y, n_samples, "RepeatedKFold(stratified)")?)
        } else {
            check_k(self.n_splits, n_samples)?;
            None
        };
        let mut out = Vec::with_capacity(self.n_splits * self.n_repeats);
        for r in 0..self.n_repeats {
            let mut rng = random::stream(self.seed, r as u64);
            match labels {
                Some(y) => {
                    let ids = stratified_fold_ids(self.n_splits, y, false, Some(&mut rng))?;
                    out.extend(splits_from_fold_ids(&ids, self.n_splits));
                }
                None => out.extend(kfold_splits(n_samples, self.n_splits, Some(&mut rng))),
            }
        }
        Ok(out)
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.n_splits.saturating_mul(self.n_repeats)
    }
}

/// Splits given explicitly (scikit-learn's `PredefinedSplit` or any list of index pairs).
///
/// `split` checks every index against the number of samples and that no split has an empty
/// train or test set.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExplicitSplits(pub Vec<Split>);

impl CrossValidator for ExplicitSplits {
    fn split(&self, n_samples: usize, _y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        if self.0.is_empty() {
            return Err(Error::invalid_param("splits", "no split given"));
        }
        for (s, (train, test)) in self.0.iter().enumerate() {
            if train.is_empty() || test.is_empty() {
                return Err(Error::invalid_param(
                    "splits",
                    format!("split {s} has an empty train or test set"),
                ));
            }
            if let Some(&i) = train.iter().chain(test).find(|&&i| i >= n_samples) {
                return Err(Error::invalid_param(
                    "splits",
                    format!("split {s} holds index {i}, out of bounds for {n_samples} samples"),
                ));
            }
        }
        Ok(self.0.clone())
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.0.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model_selection::KFold;

    fn test_sets(s: &[Split]) -> Vec<Vec<usize>> {
        s.iter().map(|(_, t)| t.clone()).collect()
    }

    #[test]
    fn shuffle_splits() {
        let s = ShuffleSplit::new(4).seed(9).split(20, None).expect("valid");
        for (tr, te) in &s {
            assert_eq!((tr.len(), te.len()), (18, 2));
        }
        assert_ne!(s[0], s[1]);
        assert!(ShuffleSplit::new(0).split(20, None).is_err());
        let y = ndarray::Array1::from_shape_fn(30, |i| usize::from(i % 3 == 0));
        let st = StratifiedShuffleSplit::new(3)
            .test_size(SplitSize::Fraction(0.3))
            .split(30, Some(&y))
            .expect("valid");
        for (tr, te) in &st {
            assert_eq!(te.len(), 9);
            assert_eq!(te.iter().filter(|&&i| y[i] == 1).count(), 3);
            assert_eq!(tr.iter().filter(|&&i| y[i] == 1).count(), 7);
        }
        assert!(StratifiedShuffleSplit::new(2).split(30, None).is_err());
    }

    #[test]
    fn repeated_and_explicit() {
        let r = RepeatedKFold::new(3, 2).split(9, None).expect("valid");
        assert_eq!(r.len(), 6);
        assert_ne!(test_sets(&r[..3]), test_sets(&r[3..]));
        assert!(RepeatedKFold::new(3, 0).split(9, None).is_err());
        let y = ndarray::Array1::from_shape_fn(9, |i| i % 3);
        let rs = RepeatedKFold::new(3, 2)
            .stratified(true)
            .split(9, Some(&y))
            .expect("valid");
        for (_, te) in &rs {
            let mut classes: Vec<usize> = te.iter().map(|&i| y[i]).collect();
            classes.sort_unstable();
            assert_eq!(classes, vec![0, 1, 2]);
        }
        let e = ExplicitSplits(vec![(vec![0, 1], vec![2])]);
        assert_eq!(e.split(3, None).expect("valid").len(), 1);
        assert!(e.split(2, None).is_err());
        assert!(ExplicitSplits(vec![]).split(2, None).is_err());
        assert!(
            ExplicitSplits(vec![(vec![], vec![0])])
                .split(2, None)
                .is_err()
        );
        // Through a reference and a trait object.
        let cv: &dyn CrossValidator = &KFold::new(2);
        assert_eq!((&cv).split(4, None).expect("valid").len(), 2);
    }
}
