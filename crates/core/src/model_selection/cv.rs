//! Cross-validation splitters: the [`CrossValidator`] trait and K-fold, stratified K-fold,
//! leave-one-out and leave-p-out (shuffle splits, repeated K-fold and explicit splits are in
//! `cv_random.rs`).
//!
//! ## K-fold (the course notes' procedure, catalog M-03)
//!
//! `0..n` (optionally permuted) is cut into `k` consecutive folds; fold `i` is the validation set
//! of split `i` and the other `k − 1` folds train. Fold sizes are scikit-learn's: `⌊n/k⌋` each,
//! and the first `n mod k` folds get one more. `k = n` is leave-one-out.
//!
//! ## Stratified K-fold (scikit-learn ≥ 0.24 allocation)
//!
//! Classes are numbered in order of first appearance in `y`. The labels are sorted and dealt out
//! round robin: fold `i` receives the sorted positions `i, i + k, i + 2k, …`, so the number of
//! members of class `c` in test fold `i` is the count of those positions that fall in class `c`'s
//! block. Within each class the samples are then assigned to folds in blocks in data order
//! (fold 0 first), or in a seeded random order when `shuffle` is set. Without shuffling this gives
//! exactly scikit-learn's folds (checked against it on iris, wine and imbalanced labels); with
//! shuffling the per-fold class counts are still exactly scikit-learn's, the members differ
//! (different random generator, decision 0002).
//!
//! A class with fewer members than `k` cannot appear in every test fold. scikit-learn raises an
//! error only when *every* class is that small and warns otherwise; ndlearn does the same, without
//! the warning (there is no warning channel), unless [`StratifiedKFold::strict`] is set, which
//! turns the warning into an [`Error::InvalidParam`].
//!
//! All splitters return `(train, test)` index pairs. K-fold variants return both sets ascending
//! (as scikit-learn); shuffle splits return them in random order.
//!
//! Reference: K-fold and leave-one-out cross-validation as in the course notes (Stone, JRSS B
//! 36(2), 1974; Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed.
//! (2009), §7.10; scikit-learn user guide: Cross-validation). Shuffling and stratification are
//! implementation choices (the course notes leave them open).

use ndarray::ArrayRef1;

use crate::random::{self, Rng};
use crate::{Error, Result};

/// One cross-validation split: `(train indices, test indices)`.
pub type Split = (Vec<usize>, Vec<usize>);

/// A cross-validation scheme: turns a number of samples (and, for stratified schemes, class
/// labels) into a list of train/test splits.
pub trait CrossValidator: Sync {
    /// The splits for `n_samples` samples. `y` holds class labels for stratified schemes (which
    /// error without them); others ignore it.
    fn split(&self, n_samples: usize, y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>>;

    /// The number of splits [`split`](Self::split) returns for `n_samples` samples (saturating
    /// at `usize::MAX`).
    fn n_splits(&self, n_samples: usize) -> usize;
}

impl<C: CrossValidator + ?Sized> CrossValidator for &C {
    fn split(&self, n_samples: usize, y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        (**self).split(n_samples, y)
    }

    fn n_splits(&self, n_samples: usize) -> usize {
        (**self).n_splits(n_samples)
    }
}

pub(super) fn check_k(k: usize, n: usize) -> Result<()> {
    if k < 2 {
        return Err(Error::invalid_param(
            "n_splits",
            format!("cross-validation needs at least 2 splits, got {k}"),
        ));
    }
    if k > n {
        return Err(Error::invalid_param(
            "n_splits",
            format!("cannot have n_splits = {k} greater than the number of samples {n}"),
        ));
    }
    Ok(())
}

/// Turns a fold id per sample into `k` ascending (train, test) pairs.
pub(super) fn splits_from_fold_ids(fold_of: &[usize], k: usize) -> Vec<Split> {
    (0..k)
        .map(|f| {
            let (mut train, mut test) = (Vec::new(), Vec::new());
            for (i, &g) in fold_of.iter().enumerate() {
                if g == f {
                    test.push(i);
                } else {
                    train.push(i);
                }
            }
            (train, test)
        })
        .collect()
}

/// K-fold assignment of `0..n`, permuted by `rng` when given.
pub(super) fn kfold_splits(n: usize, k: usize, rng: Option<&mut Rng>) -> Vec<Split> {
    let order: Vec<usize> = match rng {
        Some(r) => random::permutation(r, n),
        None => (0..n).collect(),
    };
    let mut fold_of = vec![0usize; n];
    let (base, extra) = (n / k, n % k);
    let mut start = 0;
    for f in 0..k {
        let size = base + usize::from(f < extra);
        for &i in &order[start..start + size] {
            fold_of[i] = f;
        }
        start += size;
    }
    splits_from_fold_ids(&fold_of, k)
}

/// K-fold cross-validation (scikit-learn's `KFold`).
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `n_splits` | 5 | `n_splits` | number of folds `k ≥ 2` |
/// | `shuffle` | `false` | `shuffle` | permute the samples before cutting |
/// | `seed` | 0 | `random_state` | seed of the permutation |
///
/// Errors: `k < 2` or `k > n`.
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, KFold};
///
/// let folds = KFold::new(3).split(7, None)?;
/// // Sizes 3, 2, 2 (the first 7 mod 3 = 1 fold gets one more).
/// assert_eq!(folds[0].1, vec![0, 1, 2]);
/// assert_eq!(folds[1].1, vec![3, 4]);
/// assert_eq!(folds[2].0, vec![0, 1, 2, 3, 4]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KFold {
    /// Number of folds.
    pub n_splits: usize,
    /// Shuffle before cutting.
    pub shuffle: bool,
    /// Seed of the permutation.
    pub seed: u64,
}

impl Default for KFold {
    fn default() -> Self {
        Self::new(5)
    }
}

impl KFold {
    /// `k` folds, not shuffled.
    pub fn new(n_splits: usize) -> Self {
        Self {
            n_splits,
            shuffle: false,
            seed: 0,
        }
    }

    crate::setters! {
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `seed`.
        seed: u64,
    }
}

impl CrossValidator for KFold {
    fn split(&self, n_samples: usize, _y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        check_k(self.n_splits, n_samples)?;
        if self.shuffle {
            let mut rng = random::rng(self.seed);
            Ok(kfold_splits(n_samples, self.n_splits, Some(&mut rng)))
        } else {
            Ok(kfold_splits(n_samples, self.n_splits, None))
        }
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.n_splits
    }
}

/// Stratified K-fold (scikit-learn's `StratifiedKFold`): every test fold keeps the class
/// proportions of `y` as closely as integers allow (per-fold counts of a class differ by at
/// most one). See the module docs for the allocation.
///
/// | field | default | scikit-learn | meaning |
/// |---|---|---|---|
/// | `n_splits` | 5 | `n_splits` | number of folds `k ≥ 2` |
/// | `shuffle` | `false` | `shuffle` | random order within each class |
/// | `seed` | 0 | `random_state` | seed |
/// | `strict` | `false` | (warning) | error when any class has fewer than `k` members |
///
/// Errors: no labels, `k < 2`, `k > n`, every class smaller than `k` (or any, when `strict`).
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, StratifiedKFold};
/// use ndlearn_core::ndarray::array;
///
/// let y = array![0usize, 0, 0, 0, 1, 1];
/// let folds = StratifiedKFold::new(2).split(6, Some(&y))?;
/// // Each test fold: two samples of class 0 and one of class 1.
/// assert_eq!(folds[0].1, vec![0, 1, 4]);
/// assert_eq!(folds[1].1, vec![2, 3, 5]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StratifiedKFold {
    /// Number of folds.
    pub n_splits: usize,
    /// Random order within each class.
    pub shuffle: bool,
    /// Seed.
    pub seed: u64,
    /// Error (instead of proceeding) when a class has fewer than `n_splits` members.
    pub strict: bool,
}

impl Default for StratifiedKFold {
    fn default() -> Self {
        Self::new(5)
    }
}

impl StratifiedKFold {
    /// `k` folds, not shuffled, not strict.
    pub fn new(n_splits: usize) -> Self {
        Self {
            n_splits,
            shuffle: false,
            seed: 0,
            strict: false,
        }
    }

    crate::setters! {
        /// Sets `shuffle`.
        shuffle: bool,
        /// Sets `seed`.
        seed: u64,
        /// Sets `strict`.
        strict: bool,
    }

    /// The test fold of every sample (`0..n_splits`).
    pub fn fold_ids(&self, y: &ArrayRef1<usize>) -> Result<Vec<usize>> {
        stratified_fold_ids(
            self.n_splits,
            y,
            self.strict,
            self.shuffle.then(|| random::rng(self.seed)).as_mut(),
        )
    }
}

pub(super) fn labels_for<'a>(
    y: Option<&'a ArrayRef1<usize>>,
    n: usize,
    who: &str,
) -> Result<&'a ArrayRef1<usize>> {
    let y = y.ok_or_else(|| {
        Error::invalid_param(
            "y",
            format!("{who} needs class labels (a Labels target, or pass them explicitly)"),
        )
    })?;
    if y.len() != n {
        return Err(Error::ShapeMismatch {
            context: "stratified cross-validation",
            expected: format!("{n} labels (one per sample)"),
            found: format!("{} labels", y.len()),
        });
    }
    Ok(y)
}

pub(super) fn stratified_fold_ids(
    k: usize,
    y: &ArrayRef1<usize>,
    strict: bool,
    mut rng: Option<&mut Rng>,
) -> Result<Vec<usize>> {
    let n = y.len();
    check_k(k, n)?;
    crate::validate::check_labels(y, 1, "StratifiedKFold")?;
    // Encode classes by first appearance.
    let n_labels = y.iter().copied().max().map_or(0, |m| m + 1);
    let mut code = vec![usize::MAX; n_labels];
    let mut counts: Vec<usize> = Vec::new();
    let encoded: Vec<usize> = y
        .iter()
        .map(|&c| {
            if code[c] == usize::MAX {
                code[c] = counts.len();
                counts.push(0);
            }
            counts[code[c]] += 1;
            code[c]
        })
        .collect();
    let min = counts.iter().copied().min().unwrap_or(0);
    if counts.iter().all(|&c| c < k) {
        return Err(Error::invalid_param(
            "n_splits",
            format!("n_splits = {k} is greater than the number of members of every class"),
        ));
    }
    if strict && min < k {
        return Err(Error::invalid_param(
            "n_splits",
            format!("the least populated class has only {min} members, fewer than n_splits = {k}"),
        ));
    }
    // Round robin over the sorted codes: class c occupies sorted positions
    // [start_c, start_c + count_c); fold f receives the positions p ≡ f (mod k).
    let mut fold_of = vec![0usize; n];
    let mut start = 0usize;
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); counts.len()];
    for (i, &c) in encoded.iter().enumerate() {
        members[c].push(i);
    }
    for (c, &count) in counts.iter().enumerate() {
        let end = start + count;
        // Number of p in [start, end) with p mod k == f.
        let upto = |m: usize, f: usize| if m > f { (m - f).div_ceil(k) } else { 0 };
        let mut folds: Vec<usize> = Vec::with_capacity(count);
        for f in 0..k {
            let a = upto(end, f) - upto(start, f);
            folds.extend(std::iter::repeat_n(f, a));
        }
        if let Some(r) = rng.as_deref_mut() {
            random::shuffle(r, &mut folds);
        }
        for (&i, &f) in members[c].iter().zip(&folds) {
            fold_of[i] = f;
        }
        start = end;
    }
    Ok(fold_of)
}

impl CrossValidator for StratifiedKFold {
    fn split(&self, n_samples: usize, y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        let y = labels_for(y, n_samples, "StratifiedKFold")?;
        let ids = self.fold_ids(y)?;
        Ok(splits_from_fold_ids(&ids, self.n_splits))
    }

    fn n_splits(&self, _n_samples: usize) -> usize {
        self.n_splits
    }
}

/// Leave-one-out (the course notes' LOOCV, `K = N`): `n` splits, each testing one sample.
///
/// Errors for fewer than 2 samples.
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, LeaveOneOut};
///
/// let s = LeaveOneOut.split(3, None)?;
/// assert_eq!(s[1], (vec![0, 2], vec![1]));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeaveOneOut;

impl CrossValidator for LeaveOneOut {
    fn split(&self, n_samples: usize, _y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        if n_samples < 2 {
            return Err(Error::TooFewSamples {
                context: "LeaveOneOut",
                needed: 2,
                found: n_samples,
            });
        }
        let ids: Vec<usize> = (0..n_samples).collect();
        Ok(splits_from_fold_ids(&ids, n_samples))
    }

    fn n_splits(&self, n_samples: usize) -> usize {
        n_samples
    }
}

/// Largest number of index entries (splits × samples) [`LeavePOut`] will materialise.
pub const LEAVE_P_OUT_MAX_ENTRIES: usize = 1 << 27;

/// Leave-p-out: every subset of `p` samples is a test set once (`C(n, p)` splits, subsets in
/// lexicographic order as `itertools.combinations`).
///
/// Errors when `p == 0`, `p ≥ n`, or when `C(n, p) · n` exceeds
/// [`LEAVE_P_OUT_MAX_ENTRIES`] (the splits are materialised).
///
/// ```
/// use ndlearn_core::model_selection::{CrossValidator, LeavePOut};
///
/// let s = LeavePOut::new(2).split(4, None)?;
/// assert_eq!(s.len(), 6);
/// assert_eq!(s[0], (vec![2, 3], vec![0, 1]));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct LeavePOut {
    /// Size of each test set.
    pub p: usize,
}

impl LeavePOut {
    /// Test sets of `p` samples.
    pub fn new(p: usize) -> Self {
        Self { p }
    }
}

fn binomial_saturating(n: usize, k: usize) -> usize {
    let k = k.min(n - k.min(n));
    let mut c: u128 = 1;
    for i in 0..k {
        c = c * (n - i) as u128 / (i + 1) as u128;
        if c > usize::MAX as u128 {
            return usize::MAX;
        }
    }
    c as usize
}

impl CrossValidator for LeavePOut {
    fn split(&self, n_samples: usize, _y: Option<&ArrayRef1<usize>>) -> Result<Vec<Split>> {
        let (n, p) = (n_samples, self.p);
        if p == 0 || p >= n {
            return Err(Error::invalid_param(
                "p",
                format!("p must lie in 1..{n} (the number of samples), got {p}"),
            ));
        }
        let count = binomial_saturating(n, p);
        if count.saturating_mul(n) > LEAVE_P_OUT_MAX_ENTRIES {
            return Err(Error::invalid_param(
                "p",
                format!("C({n}, {p}) = {count} splits are too many to materialise"),
            ));
        }
        let mut out = Vec::with_capacity(count);
        let mut comb: Vec<usize> = (0..p).collect();
        loop {
            let mut in_test = vec![false; n];
            for &i in &comb {
                in_test[i] = true;
            }
            let train = (0..n).filter(|&i| !in_test[i]).collect();
            out.push((train, comb.clone()));
            // Next combination in lexicographic order.
            let Some(pos) = (0..p).rev().find(|&j| comb[j] < n - p + j) else {
                break;
            };
            comb[pos] += 1;
            for j in pos + 1..p {
                comb[j] = comb[j - 1] + 1;
            }
        }
        Ok(out)
    }

    fn n_splits(&self, n_samples: usize) -> usize {
        if self.p == 0 || self.p >= n_samples {
            0
        } else {
            binomial_saturating(n_samples, self.p)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn test_sets(s: &[Split]) -> Vec<Vec<usize>> {
        s.iter().map(|(_, t)| t.clone()).collect()
    }

    #[test]
    fn kfold_sizes_and_errors() {
        let s = KFold::new(4).split(10, None).expect("valid");
        assert_eq!(
            test_sets(&s),
            vec![vec![0, 1, 2], vec![3, 4, 5], vec![6, 7], vec![8, 9]]
        );
        assert_eq!(s[2].0, vec![0, 1, 2, 3, 4, 5, 8, 9]);
        assert!(KFold::new(1).split(10, None).is_err());
        assert!(KFold::new(11).split(10, None).is_err());
        let sh = KFold::new(4)
            .shuffle(true)
            .seed(5)
            .split(10, None)
            .expect("valid");
        let sizes: Vec<usize> = sh.iter().map(|(_, t)| t.len()).collect();
        assert_eq!(sizes, vec![3, 3, 2, 2]);
        assert!(sh.iter().all(|(_, t)| t.windows(2).all(|w| w[0] < w[1])));
        assert_ne!(test_sets(&sh), test_sets(&s));
        assert_eq!(KFold::default().n_splits(3), 5);
    }

    #[test]
    fn stratified_kfold_hand_case() {
        // Classes in order of appearance: 2 (3 members), 0 (5 members). Sorted codes
        // [0,0,0,1,1,1,1,1] dealt round robin over 3 folds: fold 0 gets positions 0,3,6 ->
        // class codes 0,1,1; fold 1 gets 1,4,7 -> 0,1,1; fold 2 gets 2,5 -> 0,1.
        let y = array![2usize, 0, 0, 2, 0, 2, 0, 0];
        let s = StratifiedKFold::new(3).split(8, Some(&y)).expect("valid");
        // Class 2 members (0, 3, 5) go to folds 0, 1, 2; class 0 members (1, 2, 4, 6, 7) to
        // folds 0, 0, 1, 1, 2.
        assert_eq!(
            test_sets(&s),
            vec![vec![0, 1, 2], vec![3, 4, 6], vec![5, 7]]
        );
    }

    #[test]
    fn stratified_kfold_errors_and_small_classes() {
        let y = array![0usize, 0, 0, 0, 1];
        // Class 1 has fewer than 2 members: allowed unless strict.
        let s = StratifiedKFold::new(2)
            .split(5, Some(&y))
            .expect("one class is large enough");
        assert_eq!(s.len(), 2);
        assert!(
            StratifiedKFold::new(2)
                .strict(true)
                .split(5, Some(&y))
                .is_err()
        );
        // Every class smaller than k.
        let y2 = array![0usize, 0, 1, 1];
        assert!(StratifiedKFold::new(3).split(4, Some(&y2)).is_err());
        assert!(StratifiedKFold::new(2).split(4, None).is_err());
        assert!(StratifiedKFold::new(2).split(5, Some(&y2)).is_err());
        // Shuffled: same per-fold class counts.
        let y3 = ndarray::Array1::from_shape_fn(23, |i| (i * 7) % 3);
        let a = StratifiedKFold::new(4).split(23, Some(&y3)).expect("valid");
        let b = StratifiedKFold::new(4)
            .shuffle(true)
            .seed(2)
            .split(23, Some(&y3))
            .expect("valid");
        let counts = |s: &[Split]| -> Vec<Vec<usize>> {
            s.iter()
                .map(|(_, t)| {
                    (0..3)
                        .map(|c| t.iter().filter(|&&i| y3[i] == c).count())
                        .collect()
                })
                .collect()
        };
        assert_eq!(counts(&a), counts(&b));
    }

    #[test]
    fn loo_lpo() {
        assert!(LeaveOneOut.split(1, None).is_err());
        assert_eq!(LeaveOneOut.n_splits(4), 4);
        let s = LeavePOut::new(2).split(5, None).expect("valid");
        assert_eq!(s.len(), 10);
        assert_eq!(s[9].1, vec![3, 4]);
        assert_eq!(s[1].1, vec![0, 2]);
        assert_eq!(LeavePOut::new(2).n_splits(5), 10);
        assert!(LeavePOut::new(0).split(5, None).is_err());
        assert!(LeavePOut::new(5).split(5, None).is_err());
        assert!(LeavePOut::new(10).split(100, None).is_err());
        assert_eq!(binomial_saturating(200, 100), usize::MAX);
    }
}
