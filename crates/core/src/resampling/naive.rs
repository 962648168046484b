//! Random under- and over-sampling (catalog X-05, CL-203; the course notes; He & Garcia,
//! "Learning from imbalanced data", IEEE TKDE 21(9), 2009).

use ndarray::{ArrayRef1, ArrayRef2};
use rand::Rng as _;

use super::{
    Direction, Resample, Resampled, SamplingStrategy, check_and_count, class_rows, gather,
    target_counts,
};
use crate::{Float, Result, random};

/// Random under-sampling: drops randomly chosen rows of the selected classes until each has its
/// target count (by default every class but the minority shrinks to the minority's size).
///
/// "Simple, efficient; throws away a lot of data; not representative of test data" (the course
/// notes; see He & Garcia (2009)). The kept rows are returned in their original order.
///
/// | field | default | imbalanced-learn | meaning |
/// |---|---|---|---|
/// | `sampling_strategy` | `Auto` (= `NotMinority`) | `sampling_strategy` | which classes shrink, to how many ([`SamplingStrategy`]) |
/// | `replacement` | `false` | `replacement` | draw the kept rows with replacement (a bootstrap of each selected class) |
/// | `seed` | `0` | `random_state` | class `c` draws from `random::stream(seed, c)` |
///
/// Complexity `O(n d)`.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::resampling::{RandomUnderSampler, Resample};
///
/// let x = array![[0.0], [1.0], [2.0], [3.0], [4.0], [5.0]];
/// let y = array![0usize, 0, 0, 0, 1, 1];
/// let r = RandomUnderSampler::default().seed(7).fit_resample(&x, &y)?;
/// assert_eq!(r.class_counts(2), vec![2, 2]);
/// assert!(r.sample_indices.windows(2).all(|w| w[0] < w[1])); // original order
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RandomUnderSampler {
    /// Which classes shrink and to how many samples.
    pub sampling_strategy: SamplingStrategy,
    /// Draw with replacement.
    pub replacement: bool,
    /// Random seed.
    pub seed: u64,
}

impl RandomUnderSampler {
    crate::setters! {
        /// Sets [`RandomUnderSampler::sampling_strategy`].
        sampling_strategy: SamplingStrategy,
        /// Sets [`RandomUnderSampler::replacement`].
        replacement: bool,
        /// Sets [`RandomUnderSampler::seed`].
        seed: u64,
    }
}

impl<F: Float> Resample<F> for RandomUnderSampler {
    fn fit_resample(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Resampled<F>> {
        let counts = check_and_count(x, y, "RandomUnderSampler")?;
        let targets = target_counts(&self.sampling_strategy, &counts, Direction::Under)?;
        let rows = class_rows(y, counts.len());
        let mut keep = Vec::with_capacity(y.len());
        for (c, class) in rows.iter().enumerate() {
            match targets[c] {
                None => keep.extend_from_slice(class),
                Some(want) => {
                    let mut rng = random::stream(self.seed, c as u64);
                    let picked = if self.replacement {
                        random::sample_with_replacement(&mut rng, class.len(), want)?
                    } else {
                        random::sample_without_replacement(&mut rng, class.len(), want)?
                    };
                    keep.extend(picked.into_iter().map(|p| class[p]));
                }
            }
        }
        keep.sort_unstable();
        Ok(gather(x, y, keep))
    }
}

/// Random over-sampling: appends random copies (drawn with replacement) of rows of the selected
/// classes until each has its target count (by default every class but the majority grows to
/// the majority's size).
///
/// "No data loss; performs better than undersampling (empirically); prone to overfitting" (the
/// course notes; see He & Garcia (2009)). The output is every original row in order, then the
/// copies class by class.
///
/// | field | default | imbalanced-learn | meaning |
/// |---|---|---|---|
/// | `sampling_strategy` | `Auto` (= `NotMajority`) | `sampling_strategy` | which classes grow, to how many ([`SamplingStrategy`]) |
/// | `seed` | `0` | `random_state` | class `c` draws from `random::stream(seed, c)` |
///
/// imbalanced-learn's smoothed bootstrap (`shrinkage`) is not implemented. Complexity `O(n d)`
/// in the output size.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::resampling::{RandomOverSampler, Resample};
///
/// let x = array![[0.0], [1.0], [2.0], [3.0], [4.0]];
/// let y = array![0usize, 0, 0, 1, 0];
/// let r = RandomOverSampler::default().seed(1).fit_resample(&x, &y)?;
/// assert_eq!(r.class_counts(2), vec![4, 4]);
/// assert_eq!(&r.sample_indices[..5], &[0, 1, 2, 3, 4]);
/// assert!(r.sample_indices[5..].iter().all(|&i| i == 3)); // copies of the one minority row
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RandomOverSampler {
    /// Which classes grow and to how many samples.
    pub sampling_strategy: SamplingStrategy,
    /// Random seed.
    pub seed: u64,
}

impl RandomOverSampler {
    crate::setters! {
        /// Sets [`RandomOverSampler::sampling_strategy`].
        sampling_strategy: SamplingStrategy,
        /// Sets [`RandomOverSampler::seed`].
        seed: u64,
    }
}

impl<F: Float> Resample<F> for RandomOverSampler {
    fn fit_resample(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Resampled<F>> {
        let counts = check_and_count(x, y, "RandomOverSampler")?;
        let targets = target_counts(&self.sampling_strategy, &counts, Direction::Over)?;
        let rows = class_rows(y, counts.len());
        let mut keep: Vec<usize> = (0..y.len()).collect();
        for (c, class) in rows.iter().enumerate() {
            let Some(want) = targets[c] else { continue };
            let extra = want.saturating_sub(class.len());
            if extra == 0 {
                continue;
            }
            let mut rng = random::stream(self.seed, c as u64);
            keep.extend((0..extra).map(|_| class[rng.random_range(0..class.len())]));
        }
        Ok(gather(x, y, keep))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use ndarray::{Array1, Array2, array};
    use std::collections::BTreeMap;

    fn data() -> (Array2<f64>, Array1<usize>) {
        // 8 rows of class 0, 3 of class 1, 1 of class 2; x = row index.
        let y = array![0usize, 1, 0, 0, 2, 0, 1, 0, 0, 1, 0, 0];
        let x = Array2::from_shape_fn((12, 2), |(i, j)| (i * 10 + j) as f64);
        (x, y)
    }

    fn rows_match(r: &Resampled<f64>, x: &Array2<f64>, y: &Array1<usize>) {
        for (k, &i) in r.sample_indices.iter().enumerate() {
            assert_eq!(r.x.row(k), x.row(i));
            assert_eq!(r.y[k], y[i]);
        }
        assert_eq!(r.sample_indices.len(), r.x.nrows());
        assert!(r.synthetic_parents.is_empty());
    }

    #[test]
    fn under_sampler_shrinks_to_minority() {
        let (x, y) = data();
        let r = RandomUnderSampler::default()
            .seed(3)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r.class_counts(3), vec![1, 1, 1]);
        rows_match(&r, &x, &y);
        assert!(r.sample_indices.windows(2).all(|w| w[0] < w[1]));
        assert!(r.sample_indices.contains(&4)); // the minority row is kept
        // Determinism, and another seed usually picks other rows.
        let again = RandomUnderSampler::default()
            .seed(3)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r, again);
        let counts: BTreeMap<usize, usize> = [(0, 5)].into_iter().collect();
        let r = RandomUnderSampler::default()
            .sampling_strategy(SamplingStrategy::Counts(counts))
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r.class_counts(3), vec![5, 3, 1]);
        rows_match(&r, &x, &y);
    }

    #[test]
    fn under_sampler_with_replacement() {
        let (x, y) = data();
        let r = RandomUnderSampler::default()
            .sampling_strategy(SamplingStrategy::Majority)
            .replacement(true)
            .seed(5)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r.class_counts(3), vec![1, 3, 1]);
        rows_match(&r, &x, &y);
    }

    #[test]
    fn over_sampler_grows_to_majority() {
        let (x, y) = data();
        let r = RandomOverSampler::default()
            .seed(9)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r.class_counts(3), vec![8, 8, 8]);
        rows_match(&r, &x, &y);
        assert_eq!(&r.sample_indices[..12], &(0..12).collect::<Vec<_>>()[..]);
        // Copies: 5 of class 1 then 7 of class 2 (the only class-2 row is 4).
        assert!(r.y.slice(ndarray::s![12..17]).iter().all(|&v| v == 1));
        assert!(r.sample_indices[17..].iter().all(|&i| i == 4));
        let r32 = RandomOverSampler::default()
            .seed(9)
            .fit_resample(&x.mapv(|v| v as f32), &y)
            .expect("valid");
        assert_eq!(r32.sample_indices, r.sample_indices);
    }

    #[test]
    fn errors() {
        let (x, y) = data();
        let one_class = Array1::<usize>::zeros(12);
        assert!(matches!(
            RandomOverSampler::default().fit_resample(&x, &one_class),
            Err(Error::TooFewClasses { .. })
        ));
        assert!(matches!(
            RandomUnderSampler::default().fit_resample(&x, &y.slice(ndarray::s![..5])),
            Err(Error::ShapeMismatch { .. })
        ));
        let mut bad = x.clone();
        bad[[3, 1]] = f64::NAN;
        assert!(matches!(
            RandomUnderSampler::default().fit_resample(&bad, &y),
            Err(Error::NonFinite { row: 3, col: 1, .. })
        ));
        assert!(
            RandomOverSampler::default()
                .sampling_strategy(SamplingStrategy::Majority)
                .fit_resample(&x, &y)
                .is_err()
        );
    }
}
