//! Hold-out splits: train/test, stratified train/test, train/validation/test, and the
//! [`SelectRows`] trait that applies index vectors to features and targets of any type.
//!
//! ## Sizes (scikit-learn's rules, `_validate_shuffle_split`)
//!
//! With `n` samples, a test size given as a fraction `t ∈ (0, 1)` means `n_test = ⌈t·n⌉`, a train
//! fraction `r ∈ (0, 1)` means `n_train = ⌊r·n⌋`; counts must lie in `1..n`. When only one of the
//! two is given the other is the rest; when neither is given the test size is 25 % (train/test
//! split) or 10 % ([`ShuffleSplit`](super::ShuffleSplit)). Two fractions must not add up to more
//! than 1, and `n_train + n_test ≤ n`; an empty training set is an error.
//!
//! ## Stratification (scikit-learn's `StratifiedShuffleSplit`)
//!
//! With class counts `c_k` (of the classes present), the per-class train counts are the
//! "approximate mode" of the multivariate hypergeometric distribution: `⌊c_k·n_train/n⌋`, then the
//! missing draws go one each to the classes with the largest remainders (ties broken at random
//! from the seeded stream, as scikit-learn does with its own generator). The test counts are the
//! same allocation of `n_test` over the remaining counts `c_k − train_k`. Each class's members are
//! then permuted and cut. The *counts* equal scikit-learn's whenever the remainders have no tie at
//! the cut-off (the golden tests check this); the *indices* differ because the random generators
//! differ (decision 0002).
//!
//! Complexity: `O(n)` time and memory.
//!
//! Reference: the course notes' train/test and validation procedure (catalog M-01, M-02;
//! Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009),
//! §7.2). Shuffling, stratification and the size
//! rounding are implementation choices (scikit-learn's), not in the course notes.

use ndarray::{ArrayRef1, Axis};

use super::rows::{SelectRows, check_target_rows};

use crate::random::{self, Rng};
use crate::{Error, Result};

/// A split size: a fraction of the samples or an absolute count.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SplitSize {
    /// A fraction in `(0, 1)`; test sizes round up (`⌈t·n⌉`), train sizes round down (`⌊r·n⌋`).
    Fraction(f64),
    /// An absolute number of samples in `1..n`.
    Count(usize),
}

fn validate_size(size: Option<SplitSize>, n: usize, name: &'static str) -> Result<()> {
    match size {
        Some(SplitSize::Fraction(f)) if !(f > 0.0 && f < 1.0) => Err(Error::invalid_param(
            name,
            format!("a fraction must lie in (0, 1), got {f}"),
        )),
        Some(SplitSize::Count(c)) if c == 0 || c >= n => Err(Error::invalid_param(
            name,
            format!("a count must lie in 1..{n} (the number of samples), got {c}"),
        )),
        _ => Ok(()),
    }
}

/// The train and test sizes for `n` samples by scikit-learn's rules (see the module docs).
///
/// `default_test` is used when both sizes are `None`.
pub fn resolve_sizes(
    n: usize,
    test_size: Option<SplitSize>,
    train_size: Option<SplitSize>,
    default_test: SplitSize,
) -> Result<(usize, usize)> {
    let (test_size, train_size) = match (test_size, train_size) {
        (None, None) => (Some(default_test), None),
        other => other,
    };
    validate_size(test_size, n, "test_size")?;
    validate_size(train_size, n, "train_size")?;
    if let (Some(SplitSize::Fraction(t)), Some(SplitSize::Fraction(r))) = (test_size, train_size) {
        if t + r > 1.0 {
            return Err(Error::invalid_param(
                "test_size",
                format!(
                    "test_size + train_size = {} must not exceed 1; reduce one of them",
                    t + r
                ),
            ));
        }
    }
    let n_test = test_size.map(|s| match s {
        SplitSize::Fraction(f) => (f * n as f64).ceil() as usize,
        SplitSize::Count(c) => c,
    });
    let n_train = train_size.map(|s| match s {
        SplitSize::Fraction(f) => (f * n as f64).floor() as usize,
        SplitSize::Count(c) => c,
    });
    let (n_train, n_test) = match (n_train, n_test) {
        (Some(a), Some(b)) => (a, b),
        (None, Some(b)) => (n.saturating_sub(b), b),
        (Some(a), None) => (a, n.saturating_sub(a)),
        (None, None) => (n, 0),
    };
    if n_train + n_test > n {
        return Err(Error::invalid_param(
            "test_size",
            format!(
                "train and test sizes add up to {} but there are only {n} samples; reduce \
                 test_size and/or train_size",
                n_train + n_test
            ),
        ));
    }
    if n_train == 0 {
        return Err(Error::invalid_param(
            "train_size",
            format!("with {n} samples the training set would be empty; adjust the sizes"),
        ));
    }
    Ok((n_train, n_test))
}

/// Index sets of a train/test split.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SplitIndices {
    /// Training rows.
    pub train: Vec<usize>,
    /// Test rows.
    pub test: Vec<usize>,
}

/// Features and targets cut by a [`SplitIndices`].
#[derive(Debug, Clone, PartialEq)]
pub struct SplitData<X, Y> {
    /// Training features.
    pub x_train: X,
    /// Test features.
    pub x_test: X,
    /// Training targets.
    pub y_train: Y,
    /// Test targets.
    pub y_test: Y,
}

impl SplitIndices {
    /// Applies the split to features `x` and a target `y` (any [`SelectRows`]: labels,
    /// regression values, `()`).
    ///
    /// Errors when `y` has a different number of rows than `x`, or an index is out of bounds.
    pub fn apply<X, Y>(&self, x: &X, y: &Y) -> Result<SplitData<X::Owned, Y::Owned>>
    where
        X: SelectRows + ?Sized,
        Y: SelectRows + ?Sized,
    {
        if let Some(n) = x.n_rows() {
            check_target_rows(n, y, "SplitIndices::apply")?;
        }
        Ok(SplitData {
            x_train: x.select_rows(&self.train)?,
            x_test: x.select_rows(&self.test)?,
            y_train: y.select_rows(&self.train)?,
            y_test: y.select_rows(&self.test)?,
        })
    }
}

/// A train/test split (scikit-learn's `train_test_split`), plain or stratified.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `test_size` | `None` (25 % if `train_size` is also `None`) | `test_size` | fraction (rounded up) or count |
/// | `train_size` | `None` (the rest) | `train_size` | fraction (rounded down) or count |
/// | `shuffle` | `true` | `shuffle` | permute before cutting; `false` takes the first `n_train` rows as train, the next `n_test` as test |
/// | `seed` | `0` | `random_state` | seed of the permutation |
///
/// ```
/// use ndlearn_core::model_selection::{SplitSize, TrainTestSplit};
/// use ndlearn_core::ndarray::{array, Array2};
///
/// let x = Array2::from_shape_fn((10, 2), |(i, j)| (i * 2 + j) as f64);
/// let y = array![0usize, 0, 0, 0, 0, 1, 1, 1, 1, 1];
/// let split = TrainTestSplit::new().test_size(SplitSize::Fraction(0.3)).seed(7);
/// let idx = split.split(10)?;
/// assert_eq!((idx.train.len(), idx.test.len()), (7, 3)); // ⌈0.3·10⌉ = 3
/// let data = idx.apply(&x, &y)?;
/// assert_eq!(data.x_test.nrows(), 3);
/// // Stratified: both classes keep their 50/50 share in train (4 + 3 or 3 + 4) and test.
/// let s = split.test_size(SplitSize::Count(4)).split_stratified(&y)?;
/// let test_ones = s.test.iter().filter(|&&i| y[i] == 1).count();
/// assert_eq!(test_ones, 2);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrainTestSplit {
    /// Test size (see the table).
    pub test_size: Option<SplitSize>,
    /// Train size (see the table).
    pub train_size: Option<SplitSize>,
    /// Shuffle before splitting.
    pub shuffle: bool,
    /// Seed of the random stream.
    pub seed: u64,
}

impl Default for TrainTestSplit {
    fn default() -> Self {
        Self {
            test_size: None,
            train_size: None,
            shuffle: true,
            seed: 0,
        }
    }
}

impl TrainTestSplit {
    /// The defaults (25 % test, shuffled, seed 0).
    pub fn new() -> Self {
        Self::default()
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
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `seed`.
        seed: u64,
    }

    /// `(n_train, n_test)` for `n` samples.
    pub fn sizes(&self, n: usize) -> Result<(usize, usize)> {
        resolve_sizes(
            n,
            self.test_size,
            self.train_size,
            SplitSize::Fraction(0.25),
        )
    }

    /// Splits `0..n`. Shuffled: test = the first `n_test` entries of a seeded permutation, train
    /// the next `n_train` (so train and test come in random order). Not shuffled: train
    /// `0..n_train`, test `n_train..n_train + n_test`.
    pub fn split(&self, n: usize) -> Result<SplitIndices> {
        let (n_train, n_test) = self.sizes(n)?;
        if self.shuffle {
            let mut rng = random::rng(self.seed);
            Ok(shuffle_split_once(&mut rng, n, n_train, n_test))
        } else {
            Ok(SplitIndices {
                train: (0..n_train).collect(),
                test: (n_train..n_train + n_test).collect(),
            })
        }
    }

    /// A stratified split of the samples labelled by `y` (see the module docs).
    ///
    /// Errors when `shuffle` is false (as scikit-learn), when a class present in `y` has a
    /// single member, or when the train or test size is smaller than the number of classes.
    pub fn split_stratified(&self, y: &ArrayRef1<usize>) -> Result<SplitIndices> {
        if !self.shuffle {
            return Err(Error::invalid_param(
                "shuffle",
                "a stratified split needs shuffle = true",
            ));
        }
        let (n_train, n_test) = self.sizes(y.len())?;
        let strata = Strata::new(y)?;
        let mut rng = random::rng(self.seed);
        strata.split_once(&mut rng, n_train, n_test)
    }
}

/// One shuffled split: test = `perm[..n_test]`, train = `perm[n_test..n_test + n_train]`.
pub(crate) fn shuffle_split_once(
    rng: &mut Rng,
    n: usize,
    n_train: usize,
    n_test: usize,
) -> SplitIndices {
    let perm = random::permutation(rng, n);
    SplitIndices {
        test: perm[..n_test].to_vec(),
        train: perm[n_test..n_test + n_train].to_vec(),
    }
}

/// Members of each class present in a label vector, classes in increasing label order.
#[derive(Debug, Clone)]
pub(crate) struct Strata {
    /// Row indices of each class, ascending.
    pub members: Vec<Vec<usize>>,
}

impl Strata {
    /// Groups the rows by label; errors when a present class has fewer than two members.
    pub(crate) fn new(y: &ArrayRef1<usize>) -> Result<Self> {
        crate::validate::check_labels(y, 1, "stratified split")?;
        let n_classes = y.iter().copied().max().map_or(0, |m| m + 1);
        let mut members = vec![Vec::new(); n_classes];
        for (i, &c) in y.iter().enumerate() {
            members[c].push(i);
        }
        members.retain(|m| !m.is_empty());
        if let Some(m) = members.iter().find(|m| m.len() < 2) {
            return Err(Error::invalid_param(
                "y",
                format!(
                    "class {} has a single member; a stratified split needs at least 2 per class",
                    y[m[0]]
                ),
            ));
        }
        Ok(Self { members })
    }

    pub(crate) fn counts(&self) -> Vec<usize> {
        self.members.iter().map(Vec::len).collect()
    }

    /// One stratified shuffle split with the given sizes.
    pub(crate) fn split_once(
        &self,
        rng: &mut Rng,
        n_train: usize,
        n_test: usize,
    ) -> Result<SplitIndices> {
        let k = self.members.len();
        if n_train < k {
            return Err(Error::invalid_param(
                "train_size",
                format!(
                    "the training set ({n_train}) must hold at least one sample of each of the {k} classes"
                ),
            ));
        }
        if n_test < k {
            return Err(Error::invalid_param(
                "test_size",
                format!(
                    "the test set ({n_test}) must hold at least one sample of each of the {k} classes"
                ),
            ));
        }
        let counts = self.counts();
        let train_counts = approximate_mode(&counts, n_train, rng);
        let remaining: Vec<usize> = counts
            .iter()
            .zip(&train_counts)
            .map(|(c, t)| c - t)
            .collect();
        let test_counts = approximate_mode(&remaining, n_test, rng);
        let mut train = Vec::with_capacity(n_train);
        let mut test = Vec::with_capacity(n_test);
        for ((members, &a), &b) in self.members.iter().zip(&train_counts).zip(&test_counts) {
            let perm = random::permutation(rng, members.len());
            train.extend(perm[..a].iter().map(|&p| members[p]));
            test.extend(perm[a..a + b].iter().map(|&p| members[p]));
        }
        random::shuffle(rng, &mut train);
        random::shuffle(rng, &mut test);
        Ok(SplitIndices { train, test })
    }
}

/// Allocates `n_draws` over classes of sizes `counts` in proportion to their sizes:
/// `⌊c_k·n_draws/Σc⌋`, then one more each to the largest remainders, ties at random
/// (scikit-learn's `_approximate_mode`). No class gets more than its size.
pub fn approximate_mode(counts: &[usize], n_draws: usize, rng: &mut Rng) -> Vec<usize> {
    let total: usize = counts.iter().sum();
    if total == 0 {
        return vec![0; counts.len()];
    }
    let continuous: Vec<f64> = counts
        .iter()
        .map(|&c| c as f64 / total as f64 * n_draws as f64)
        .collect();
    let mut out: Vec<usize> = continuous
        .iter()
        .zip(counts)
        .map(|(v, &c)| (v.floor() as usize).min(c))
        .collect();
    let mut need = n_draws.saturating_sub(out.iter().sum());
    if need == 0 {
        return out;
    }
    let remainder: Vec<f64> = continuous.iter().map(|v| v - v.floor()).collect();
    let mut values = remainder.clone();
    values.sort_by(|a, b| b.total_cmp(a));
    values.dedup();
    for value in values {
        let candidates: Vec<usize> = (0..counts.len())
            .filter(|&k| remainder[k] == value && out[k] < counts[k])
            .collect();
        let take = candidates.len().min(need);
        if take == candidates.len() {
            for &k in &candidates {
                out[k] += 1;
            }
        } else {
            // `take < candidates.len()`, so the draw cannot fail.
            let picks =
                random::sample_without_replacement(rng, candidates.len(), take).unwrap_or_default();
            for p in picks {
                out[candidates[p]] += 1;
            }
        }
        need -= take;
        if need == 0 {
            break;
        }
    }
    out
}

/// Three disjoint index sets: train, validation and test.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ThreeWaySplit {
    /// Training rows.
    pub train: Vec<usize>,
    /// Validation rows (for choosing hyperparameters).
    pub validation: Vec<usize>,
    /// Test rows (kept apart until the final assessment).
    pub test: Vec<usize>,
}

/// A train/validation/test split, the course notes' hold-out procedure for choosing a
/// hyperparameter on the validation set while keeping the test set apart (catalog M-02).
///
/// Both sizes refer to the whole data set: fractions round up (`⌈v·n⌉`, `⌈t·n⌉`), the rest is
/// the training set, which must not be empty. This convention is an implementation choice
/// (scikit-learn has no three-way split; calling `train_test_split` twice gives the same sizes
/// only when the second call's fraction is rescaled).
///
/// ```
/// use ndlearn_core::model_selection::{SplitSize, TrainValTestSplit};
///
/// let s = TrainValTestSplit::new(SplitSize::Fraction(0.2), SplitSize::Fraction(0.2)).split(10)?;
/// assert_eq!((s.train.len(), s.validation.len(), s.test.len()), (6, 2, 2));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TrainValTestSplit {
    /// Validation size.
    pub validation_size: SplitSize,
    /// Test size.
    pub test_size: SplitSize,
    /// Shuffle before splitting (`false`: train, validation, test are consecutive blocks).
    pub shuffle: bool,
    /// Seed of the random stream.
    pub seed: u64,
}

impl TrainValTestSplit {
    /// A shuffled split with seed 0.
    pub fn new(validation_size: SplitSize, test_size: SplitSize) -> Self {
        Self {
            validation_size,
            test_size,
            shuffle: true,
            seed: 0,
        }
    }

    crate::setters! {
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `seed`.
        seed: u64,
    }

    /// `(n_train, n_validation, n_test)` for `n` samples.
    pub fn sizes(&self, n: usize) -> Result<(usize, usize, usize)> {
        let count = |s: SplitSize, name: &'static str| -> Result<usize> {
            validate_size(Some(s), n, name)?;
            Ok(match s {
                SplitSize::Fraction(f) => (f * n as f64).ceil() as usize,
                SplitSize::Count(c) => c,
            })
        };
        let n_val = count(self.validation_size, "validation_size")?;
        let n_test = count(self.test_size, "test_size")?;
        if n_val + n_test >= n {
            return Err(Error::invalid_param(
                "validation_size",
                format!(
                    "validation ({n_val}) and test ({n_test}) sizes leave no training sample out of {n}"
                ),
            ));
        }
        Ok((n - n_val - n_test, n_val, n_test))
    }

    /// Splits `0..n`.
    pub fn split(&self, n: usize) -> Result<ThreeWaySplit> {
        let (n_train, n_val, _) = self.sizes(n)?;
        let order: Vec<usize> = if self.shuffle {
            random::permutation(&mut random::rng(self.seed), n)
        } else {
            (0..n).collect()
        };
        Ok(ThreeWaySplit {
            train: order[..n_train].to_vec(),
            validation: order[n_train..n_train + n_val].to_vec(),
            test: order[n_train + n_val..].to_vec(),
        })
    }

    /// A stratified split: the test set is cut from all samples by a stratified split, then
    /// the validation set from the rest by a second one (each keeps the class proportions).
    pub fn split_stratified(&self, y: &ArrayRef1<usize>) -> Result<ThreeWaySplit> {
        let n = y.len();
        let (n_train, n_val, n_test) = self.sizes(n)?;
        let mut rng = random::rng(self.seed);
        let first = Strata::new(y)?.split_once(&mut rng, n - n_test, n_test)?;
        let y_rest = y.select(Axis(0), &first.train);
        let second = Strata::new(&y_rest)?.split_once(&mut rng, n_train, n_val)?;
        Ok(ThreeWaySplit {
            train: second.train.iter().map(|&i| first.train[i]).collect(),
            validation: second.test.iter().map(|&i| first.train[i]).collect(),
            test: first.test,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn sizes_follow_sklearn_rounding() {
        let d = SplitSize::Fraction(0.25);
        // ⌈0.25·10⌉ = 3 test, 7 train.
        assert_eq!(resolve_sizes(10, None, None, d).ok(), Some((7, 3)));
        // ⌈0.33·10⌉ = 4.
        let t = Some(SplitSize::Fraction(0.33));
        assert_eq!(resolve_sizes(10, t, None, d).ok(), Some((6, 4)));
        // ⌊0.67·10⌋ = 6 train, 4 test.
        let r = Some(SplitSize::Fraction(0.67));
        assert_eq!(resolve_sizes(10, None, r, d).ok(), Some((6, 4)));
        // Both given: 3 + 5 < 10 leaves 2 rows unused.
        let both = resolve_sizes(10, Some(SplitSize::Count(3)), Some(SplitSize::Count(5)), d);
        assert_eq!(both.ok(), Some((5, 3)));
    }

    #[test]
    fn size_errors() {
        let d = SplitSize::Fraction(0.25);
        for bad in [
            SplitSize::Fraction(0.0),
            SplitSize::Fraction(1.0),
            SplitSize::Fraction(f64::NAN),
            SplitSize::Count(0),
            SplitSize::Count(10),
        ] {
            assert!(matches!(
                resolve_sizes(10, Some(bad), None, d),
                Err(Error::InvalidParam {
                    name: "test_size",
                    ..
                })
            ));
        }
        let two = resolve_sizes(
            10,
            Some(SplitSize::Fraction(0.6)),
            Some(SplitSize::Fraction(0.5)),
            d,
        );
        assert!(two.is_err());
        let over = resolve_sizes(10, Some(SplitSize::Count(6)), Some(SplitSize::Count(5)), d);
        assert!(over.is_err());
        // One sample: a test set of ⌈0.25⌉ = 1 leaves no training sample.
        assert!(resolve_sizes(1, None, None, d).is_err());
    }

    #[test]
    fn unshuffled_split_is_consecutive_and_shuffled_partitions() {
        let s = TrainTestSplit::new()
            .shuffle(false)
            .split(8)
            .expect("valid");
        assert_eq!(s.train, (0..6).collect::<Vec<_>>());
        assert_eq!(s.test, vec![6, 7]);
        let s = TrainTestSplit::new().seed(3).split(20).expect("valid");
        let mut all = s.train.clone();
        all.extend(&s.test);
        all.sort_unstable();
        assert_eq!(all, (0..20).collect::<Vec<_>>());
        assert_eq!(s.test.len(), 5);
        assert_eq!(s, TrainTestSplit::new().seed(3).split(20).expect("valid"));
    }

    #[test]
    fn apply_selects_rows_of_every_target_kind() {
        let x = array![[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]];
        let idx = SplitIndices {
            train: vec![2, 0],
            test: vec![1],
        };
        let d = idx.apply(&x, &array![10usize, 11, 12]).expect("valid");
        assert_eq!(d.x_train, array![[4.0, 5.0], [0.0, 1.0]]);
        assert_eq!(d.y_train, array![12, 10]);
        assert_eq!(d.y_test, array![11]);
        let r = idx.apply(&x, &array![0.5, 1.5, 2.5]).expect("valid");
        assert_eq!(r.y_test, array![1.5]);
        let u = idx.apply(&x, &()).expect("valid");
        assert_eq!(u.x_test, array![[2.0, 3.0]]);
        assert!(idx.apply(&x, &array![1.0, 2.0]).is_err());
        let bad = SplitIndices {
            train: vec![3],
            test: vec![],
        };
        assert!(bad.apply(&x, &()).is_err());
        let labels = array![1usize, 2];
        assert!(labels.class_labels().is_some());
        assert!(array![1.0f64].class_labels().is_none());
    }

    #[test]
    fn approximate_mode_hand_cases() {
        let mut rng = random::rng(0);
        // 10 draws over sizes 5, 3, 2 (total 10): exact proportions 5, 3, 2.
        assert_eq!(approximate_mode(&[5, 3, 2], 10, &mut rng), vec![5, 3, 2]);
        // 4 draws over 6, 3, 1: 2.4, 1.2, 0.4 -> floors 2, 1, 0; one more to the largest
        // remainder (0.4 at both classes 0 and 2: a random one of the two).
        let a = approximate_mode(&[6, 3, 1], 4, &mut rng);
        assert_eq!(a.iter().sum::<usize>(), 4);
        assert_eq!(a[1], 1);
        assert!(a == vec![3, 1, 0] || a == vec![2, 1, 1]);
        // 7 draws over 3, 3, 4: 2.1, 2.1, 2.8 -> 2, 2, 3 (largest remainder 0.8).
        assert_eq!(approximate_mode(&[3, 3, 4], 7, &mut rng), vec![2, 2, 3]);
        assert_eq!(approximate_mode(&[0, 0], 0, &mut rng), vec![0, 0]);
    }

    #[test]
    fn stratified_split_counts_and_errors() {
        let y = array![0usize, 0, 0, 0, 0, 0, 1, 1, 1, 1];
        let s = TrainTestSplit::new()
            .test_size(SplitSize::Count(5))
            .seed(1)
            .split_stratified(&y)
            .expect("valid");
        // Train 5 over sizes 6, 4: 3, 2; test 5 over the remaining 3, 2: 3, 2.
        let ones = |v: &[usize]| v.iter().filter(|&&i| y[i] == 1).count();
        assert_eq!((ones(&s.train), ones(&s.test)), (2, 2));
        assert_eq!((s.train.len(), s.test.len()), (5, 5));
        let single = array![0usize, 0, 0, 1];
        assert!(TrainTestSplit::new().split_stratified(&single).is_err());
        assert!(
            TrainTestSplit::new()
                .shuffle(false)
                .split_stratified(&y)
                .is_err()
        );
        // Test size 1 < 2 classes.
        assert!(
            TrainTestSplit::new()
                .test_size(SplitSize::Count(1))
                .split_stratified(&y)
                .is_err()
        );
    }

    #[test]
    fn three_way_split() {
        let t =
            TrainValTestSplit::new(SplitSize::Count(2), SplitSize::Fraction(0.3)).shuffle(false);
        let s = t.split(10).expect("valid");
        assert_eq!(s.train, (0..5).collect::<Vec<_>>());
        assert_eq!(s.validation, vec![5, 6]);
        assert_eq!(s.test, vec![7, 8, 9]);
        assert!(
            TrainValTestSplit::new(SplitSize::Count(5), SplitSize::Count(5))
                .split(10)
                .is_err()
        );
        let y = ndarray::Array1::from_shape_fn(30, |i| i % 3);
        let s = TrainValTestSplit::new(SplitSize::Count(6), SplitSize::Count(6))
            .seed(4)
            .split_stratified(&y)
            .expect("valid");
        for part in [&s.validation, &s.test] {
            for c in 0..3 {
                assert_eq!(part.iter().filter(|&&i| y[i] == c).count(), 2);
            }
        }
        let mut all = [s.train.clone(), s.validation.clone(), s.test.clone()].concat();
        all.sort_unstable();
        assert_eq!(all, (0..30).collect::<Vec<_>>());
    }
}
