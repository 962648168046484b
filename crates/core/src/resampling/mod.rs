//! Class-imbalance handling: random under- and over-sampling, SMOTE, and class / sample weights.
//!
//! A classifier that optimises accuracy is biased toward the majority class when one class is
//! much rarer than the others (the course notes, catalog X-05; He & Garcia, "Learning from
//! imbalanced data", IEEE TKDE 21(9), 2009). The course notes list the remedies implemented
//! here:
//!
//! | remedy | here | imbalanced-learn / scikit-learn |
//! |---|---|---|
//! | random undersampling of the majority ("simple, efficient; throws data away") | [`RandomUnderSampler`] | `RandomUnderSampler` |
//! | random oversampling, copies of minority samples ("no data loss, prone to overfitting") | [`RandomOverSampler`] | `RandomOverSampler` |
//! | SMOTE, synthetic minority samples "similar to" existing ones | [`Smote`] | `SMOTE` |
//! | class-weight based models | [`compute_class_weight`], [`compute_sample_weight`] | `sklearn.utils.class_weight` |
//!
//! All samplers implement [`Resample`]: `fit_resample(x, y)` returns a [`Resampled`] data set
//! (features, labels, and which original row each output row copies).
//!
//! # How many samples per class: [`SamplingStrategy`]
//!
//! As in imbalanced-learn. Let `n_c` be the count of class `c` in `y` (only classes that occur
//! count; labels are `0..n_classes` as everywhere in ndlearn), `n_maj = max n_c` (the majority:
//! the lowest class index among equal maxima), `n_min = min n_c` (the minority: likewise).
//!
//! * **over-sampling** ([`RandomOverSampler`], [`Smote`]): the selected classes are grown to
//!   `n_maj`. `Auto` = `NotMajority` (every class but the majority); `Minority`; `NotMinority`;
//!   `All`; `Majority` is an error. `Ratio(r)` (two classes only): the minority grows to
//!   `⌊r · n_maj⌋`.
//! * **under-sampling** ([`RandomUnderSampler`]): the selected classes are shrunk to `n_min`.
//!   `Auto` = `NotMinority` (every class but the minority); `Majority`; `NotMajority`; `All`;
//!   `Minority` is an error. `Ratio(r)` (two classes only): the majority shrinks to
//!   `⌊n_min / r⌋`.
//! * `Counts(map)`: the wanted number of samples of each listed class after resampling (at least
//!   `n_c` when over-sampling, at most `n_c` when under-sampling); unlisted classes are kept as
//!   they are.
//!
//! # Output order
//!
//! Over-samplers return the original rows first, in their original order, followed by the new
//! rows, class by class in increasing class order (imbalanced-learn's order). The under-sampler
//! returns the kept rows in their original order (an implementation choice: imbalanced-learn
//! groups them by class). [`Resampled::sample_indices`] says which original row each copied
//! output row is; SMOTE's synthetic rows come last and [`Resampled::synthetic_parents`] names
//! the two original rows each one was interpolated between.
//!
//! # Randomness and threads
//!
//! Class `c` draws from its own stream `random::stream(seed, c)`, so the result depends on the
//! seed only (not on the thread count, and not on the other classes' draws). Seeded results
//! match imbalanced-learn statistically, not bit for bit (a different generator).
//!
//! # References
//!
//! The course notes (catalog X-05, items CL-203 and CL-204); He & Garcia (2009), "Learning from
//! imbalanced data", IEEE TKDE 21(9). The SMOTE interpolation
//! rule is not in the course notes (catalog: "the interpolation rule is not spelled out"): Chawla,
//! Bowyer, Hall & Kegelmeyer (2002), "SMOTE: Synthetic Minority Over-sampling Technique", JAIR
//! 16. The balanced class weight `n / (n_classes · n_c)` is King & Zeng (2001) as used by
//! scikit-learn.

mod naive;
mod smote;

pub use crate::class_weight::{ClassWeight, compute_class_weight, compute_sample_weight};
pub use naive::{RandomOverSampler, RandomUnderSampler};
pub use smote::Smote;

use std::collections::BTreeMap;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

use crate::{Error, Float, Result};

/// How many samples each class should have after resampling (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SamplingStrategy {
    /// `NotMajority` for over-samplers, `NotMinority` for the under-sampler (imbalanced-learn's
    /// `"auto"`).
    #[default]
    Auto,
    /// Only the majority class (under-sampling only).
    Majority,
    /// Only the minority class (over-sampling only).
    Minority,
    /// Every class except the majority.
    NotMajority,
    /// Every class except the minority.
    NotMinority,
    /// Every class.
    All,
    /// Two classes only: the wanted ratio `n_minority / n_majority` after resampling, in `(0, 1]`.
    Ratio(f64),
    /// The wanted count per class after resampling; classes not listed are left unchanged.
    Counts(BTreeMap<usize, usize>),
}

/// A resampled data set.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Resampled<F: Float> {
    /// The resampled features.
    pub x: Array2<F>,
    /// The resampled labels.
    pub y: Array1<usize>,
    /// Row `r < sample_indices.len()` of `x` is a copy of original row `sample_indices[r]`.
    pub sample_indices: Vec<usize>,
    /// For the synthetic rows (SMOTE; they follow the copied rows, in order): the original rows
    /// `(i, j)` the row was interpolated between, `x_new = x_i + u (x_j − x_i)`. Empty for the
    /// random samplers.
    pub synthetic_parents: Vec<(usize, usize)>,
}

impl<F: Float> Resampled<F> {
    /// Number of rows of each class `0..n_classes` in the resampled labels (`n_classes` as
    /// passed, at least `max label + 1`).
    pub fn class_counts(&self, n_classes: usize) -> Vec<usize> {
        let mut c = vec![0; n_classes.max(self.y.iter().max().map_or(0, |m| m + 1))];
        for &v in &self.y {
            c[v] += 1;
        }
        c
    }
}

/// A resampler: builds a new training set from `(x, y)`.
pub trait Resample<F: Float> {
    /// Resamples `x` (`n × d`) with class labels `y` (length `n`, `0..n_classes`).
    ///
    /// # Errors
    /// Shape mismatch, non-finite `x`, fewer than two classes, invalid strategy (see the
    /// implementor).
    fn fit_resample(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Resampled<F>>;
}

/// Whether a strategy is read for growing or shrinking classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Direction {
    Over,
    Under,
}

/// Validates `(x, y)` and returns the per-class counts (length `n_classes`).
pub(crate) fn check_and_count<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    context: &'static str,
) -> Result<Vec<usize>> {
    let n_classes = crate::validate::check_classification_input(x, y, 2, context)?;
    Ok(bincount(y, n_classes))
}

/// Counts of each label in `0..n_classes`.
pub(crate) fn bincount(y: &ArrayRef1<usize>, n_classes: usize) -> Vec<usize> {
    let mut counts = vec![0usize; n_classes];
    for &v in y {
        counts[v] += 1;
    }
    counts
}

/// The wanted count of each class after resampling, `None` for classes the strategy leaves
/// alone (and for absent classes).
pub(crate) fn target_counts(
    strategy: &SamplingStrategy,
    counts: &[usize],
    direction: Direction,
) -> Result<Vec<Option<usize>>> {
    let present: Vec<usize> = (0..counts.len()).filter(|&c| counts[c] > 0).collect();
    // First class (lowest index) with the largest / smallest count.
    let majority = present
        .iter()
        .copied()
        .fold(None::<usize>, |b, c| match b {
            Some(b) if counts[b] >= counts[c] => Some(b),
            _ => Some(c),
        })
        .ok_or(Error::TooFewClasses {
            context: "resampling",
            needed: 2,
            found: 0,
        })?;
    let minority = present
        .iter()
        .copied()
        .fold(None::<usize>, |b, c| match b {
            Some(b) if counts[b] <= counts[c] => Some(b),
            _ => Some(c),
        })
        .unwrap_or(majority);
    let (n_maj, n_min) = (counts[majority], counts[minority]);
    let goal = match direction {
        Direction::Over => n_maj,
        Direction::Under => n_min,
    };
    let mut out = vec![None; counts.len()];
    let select = |out: &mut Vec<Option<usize>>, pick: &dyn Fn(usize) -> bool| {
        for &c in &present {
            if pick(c) {
                out[c] = Some(goal);
            }
        }
    };
    match strategy {
        SamplingStrategy::Auto => match direction {
            Direction::Over => select(&mut out, &|c| c != majority),
            Direction::Under => select(&mut out, &|c| c != minority),
        },
        SamplingStrategy::Majority => {
            if direction == Direction::Over {
                return Err(Error::invalid_param(
                    "sampling_strategy",
                    "`Majority` cannot be used with an over-sampler (it would grow the majority to its own size); use NotMajority, Minority or All",
                ));
            }
            select(&mut out, &|c| c == majority);
        }
        SamplingStrategy::Minority => {
            if direction == Direction::Under {
                return Err(Error::invalid_param(
                    "sampling_strategy",
                    "`Minority` cannot be used with an under-sampler; use NotMinority, Majority or All",
                ));
            }
            select(&mut out, &|c| c == minority);
        }
        SamplingStrategy::NotMajority => select(&mut out, &|c| c != majority),
        SamplingStrategy::NotMinority => select(&mut out, &|c| c != minority),
        SamplingStrategy::All => select(&mut out, &|_| true),
        SamplingStrategy::Ratio(r) => {
            if present.len() != 2 {
                return Err(Error::invalid_param(
                    "sampling_strategy",
                    format!(
                        "`Ratio` needs exactly two classes, the data has {}; use Counts",
                        present.len()
                    ),
                ));
            }
            if !(r.is_finite() && *r > 0.0 && *r <= 1.0) {
                return Err(Error::invalid_param(
                    "sampling_strategy",
                    format!("`Ratio` must lie in (0, 1], got {r}"),
                ));
            }
            match direction {
                Direction::Over => {
                    let want = (r * n_maj as f64).floor() as usize;
                    if want < n_min {
                        return Err(Error::invalid_param(
                            "sampling_strategy",
                            format!(
                                "ratio {r} asks for {want} minority samples, fewer than the {n_min} present; an over-sampler cannot remove samples"
                            ),
                        ));
                    }
                    out[minority] = Some(want);
                }
                Direction::Under => {
                    let want = (n_min as f64 / r).floor() as usize;
                    if want > n_maj {
                        return Err(Error::invalid_param(
                            "sampling_strategy",
                            format!(
                                "ratio {r} asks for {want} majority samples, more than the {n_maj} present; an under-sampler cannot add samples"
                            ),
                        ));
                    }
                    out[majority] = Some(want);
                }
            }
        }
        SamplingStrategy::Counts(map) => {
            for (&c, &want) in map {
                let have = counts.get(c).copied().unwrap_or(0);
                if have == 0 {
                    return Err(Error::invalid_param(
                        "sampling_strategy",
                        format!("class {c} is listed in Counts but does not occur in y"),
                    ));
                }
                match direction {
                    Direction::Over if want < have => {
                        return Err(Error::invalid_param(
                            "sampling_strategy",
                            format!(
                                "Counts asks for {want} samples of class {c}, fewer than the {have} present; an over-sampler cannot remove samples"
                            ),
                        ));
                    }
                    Direction::Under if want > have => {
                        return Err(Error::invalid_param(
                            "sampling_strategy",
                            format!(
                                "Counts asks for {want} samples of class {c}, more than the {have} present; an under-sampler cannot add samples"
                            ),
                        ));
                    }
                    _ => {}
                }
                out[c] = Some(want);
            }
        }
    }
    Ok(out)
}

/// Original row indices of each class, in increasing order.
pub(crate) fn class_rows(y: &ArrayRef1<usize>, n_classes: usize) -> Vec<Vec<usize>> {
    let mut rows = vec![Vec::new(); n_classes];
    for (i, &v) in y.iter().enumerate() {
        rows[v].push(i);
    }
    rows
}

/// `x[indices]`, `y[indices]` as a [`Resampled`] with no synthetic rows.
pub(crate) fn gather<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    indices: Vec<usize>,
) -> Resampled<F> {
    let xs = x.select(Axis(0), &indices);
    let ys = indices.iter().map(|&i| y[i]).collect();
    Resampled {
        x: xs,
        y: ys,
        sample_indices: indices,
        synthetic_parents: Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &SamplingStrategy, counts: &[usize], d: Direction) -> Vec<Option<usize>> {
        target_counts(s, counts, d).expect("valid strategy")
    }

    #[test]
    fn strategies_as_imblearn() {
        // Counts 5, 2, 9, 2: majority = class 2 (9), minority = class 1 (first of the two 2s).
        let c = [5, 2, 9, 2];
        use Direction::*;
        use SamplingStrategy as S;
        assert_eq!(t(&S::Auto, &c, Over), vec![Some(9), Some(9), None, Some(9)]);
        assert_eq!(t(&S::Minority, &c, Over), vec![None, Some(9), None, None]);
        assert_eq!(
            t(&S::NotMinority, &c, Over),
            vec![Some(9), None, Some(9), Some(9)]
        );
        assert_eq!(t(&S::All, &c, Over), vec![Some(9); 4]);
        assert_eq!(
            t(&S::Auto, &c, Under),
            vec![Some(2), None, Some(2), Some(2)]
        );
        assert_eq!(t(&S::Majority, &c, Under), vec![None, None, Some(2), None]);
        assert_eq!(
            t(&S::NotMajority, &c, Under),
            vec![Some(2), Some(2), None, Some(2)]
        );
        let map: BTreeMap<usize, usize> = [(1, 4)].into_iter().collect();
        assert_eq!(
            t(&S::Counts(map.clone()), &c, Over),
            vec![None, Some(4), None, None]
        );
        assert!(target_counts(&S::Counts(map), &c, Under).is_err());
        assert!(target_counts(&S::Majority, &c, Over).is_err());
        assert!(target_counts(&S::Minority, &c, Under).is_err());
        assert!(target_counts(&S::Ratio(0.5), &c, Over).is_err()); // 4 classes
        let absent: BTreeMap<usize, usize> = [(7, 4)].into_iter().collect();
        assert!(target_counts(&S::Counts(absent), &c, Over).is_err());
    }

    #[test]
    fn ratio_binary() {
        use Direction::*;
        // 10 of class 0, 3 of class 1 (an absent class 2 is ignored).
        let c = [10, 3, 0];
        assert_eq!(
            t(&SamplingStrategy::Ratio(0.55), &c, Over),
            vec![None, Some(5), None]
        );
        assert_eq!(
            t(&SamplingStrategy::Ratio(0.5), &c, Under),
            vec![Some(6), None, None]
        );
        assert!(target_counts(&SamplingStrategy::Ratio(0.2), &c, Over).is_err());
        assert!(target_counts(&SamplingStrategy::Ratio(0.2), &c, Under).is_err());
        assert!(target_counts(&SamplingStrategy::Ratio(1.5), &c, Over).is_err());
        assert!(target_counts(&SamplingStrategy::Ratio(f64::NAN), &c, Over).is_err());
    }
}
