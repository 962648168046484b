//! SMOTE: synthetic minority over-sampling (catalog X-05, CL-204; Chawla, Bowyer, Hall &
//! Kegelmeyer, "SMOTE: Synthetic Minority Over-sampling Technique", JAIR 16, 2002).

use ndarray::{Array2, ArrayRef1, ArrayRef2, Axis};
use rand::Rng as _;

use super::{
    Direction, Resample, Resampled, SamplingStrategy, check_and_count, class_rows, gather,
    target_counts,
};
use crate::distance::Metric;
use crate::neighbors::NeighborIndex;
use crate::{Error, Float, Result, random};

/// SMOTE (Synthetic Minority Over-sampling TEchnique): grows the selected classes with new
/// points on the segments between a sample and one of its nearest neighbours *of the same
/// class*, instead of exact copies ("avoid overfitting due to exact replicas", the course
/// notes; Chawla et al., JAIR 16, 2002).
///
/// # Algorithm
///
/// For each class `c` that must gain `m_c` samples (counts as imbalanced-learn's `"auto"`, or any
/// [`SamplingStrategy`] for over-sampling): find the `k = k_neighbors` nearest neighbours (Euclidean,
/// [`NeighborIndex`], the point itself excluded, ties to the lower index) of every sample of
/// class `c` among the samples of class `c`. Then `m_c` times: draw a sample `x_i` of class `c`
/// uniformly, one of its `k` neighbours `x_nn` uniformly, `u ~ U[0, 1)`, and add
///
/// ```text
/// x_new = x_i + u · (x_nn − x_i)
/// ```
///
/// The interpolation rule is the one of Chawla et al. (2002); the course notes leave it open.
///
/// # Small classes
///
/// A class to be over-sampled needs more than `k_neighbors` samples: with `n_c ≤ k` there are
/// not `k` other samples to interpolate with. This is an [`Error::InvalidParam`] naming the
/// class (as imbalanced-learn does), not a silent `k = n_c − 1`: lower `k_neighbors` explicitly
/// if that is what you want. Classes that need no new samples are not checked.
///
/// | field | default | imbalanced-learn | meaning |
/// |---|---|---|---|
/// | `sampling_strategy` | `Auto` (= `NotMajority`) | `sampling_strategy` | which classes grow, to how many |
/// | `k_neighbors` | 5 | `k_neighbors` | neighbours to interpolate with, `≥ 1` |
/// | `seed` | 0 | `random_state` | class `c` draws from `random::stream(seed, c)` |
///
/// Output: the original rows in order, then the synthetic rows class by class;
/// [`Resampled::synthetic_parents`] gives `(i, nn)` (original row indices) for each synthetic
/// row. Numeric features only (SMOTE-NC is not implemented).
///
/// Complexity: the k-NN search per class (`≈ O(n_c log n_c · d)` with a tree for small `d`),
/// then `O(m_c d)`. Deterministic for a seed and independent of the thread count.
///
/// ```
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::resampling::{Resample, Smote};
///
/// let x = array![[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [5.0, 5.0], [5.0, 6.0], [6.0, 5.0],
///                [6.0, 6.0], [5.5, 5.5], [4.5, 5.0], [5.0, 4.5]];
/// let y = array![1usize, 1, 1, 0, 0, 0, 0, 0, 0, 0];
/// let r = Smote::default().k_neighbors(2).seed(3).fit_resample(&x, &y)?;
/// assert_eq!(r.class_counts(2), vec![7, 7]);
/// // Each synthetic point lies in the triangle spanned by the three minority points.
/// for row in r.x.rows().into_iter().skip(10) {
///     assert!(row[0] >= 0.0 && row[1] >= 0.0 && row[0] + row[1] <= 1.0 + 1e-12);
/// }
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Smote {
    /// Which classes grow and to how many samples.
    pub sampling_strategy: SamplingStrategy,
    /// Number of nearest same-class neighbours to interpolate with (`≥ 1`).
    pub k_neighbors: usize,
    /// Random seed.
    pub seed: u64,
}

impl Default for Smote {
    fn default() -> Self {
        Self {
            sampling_strategy: SamplingStrategy::Auto,
            k_neighbors: 5,
            seed: 0,
        }
    }
}

impl Smote {
    crate::setters! {
        /// Sets [`Smote::sampling_strategy`].
        sampling_strategy: SamplingStrategy,
        /// Sets [`Smote::k_neighbors`].
        k_neighbors: usize,
        /// Sets [`Smote::seed`].
        seed: u64,
    }

    /// Checks the hyperparameters (`k_neighbors ≥ 1`).
    pub fn validate(&self) -> Result<()> {
        crate::validate::check_at_least("k_neighbors", self.k_neighbors, 1)
    }
}

impl<F: Float> Resample<F> for Smote {
    fn fit_resample(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<Resampled<F>> {
        self.validate()?;
        let counts = check_and_count(x, y, "Smote")?;
        let targets = target_counts(&self.sampling_strategy, &counts, Direction::Over)?;
        let rows = class_rows(y, counts.len());
        let k = self.k_neighbors;
        // Check every class first, so that an error comes before any work.
        for (c, class) in rows.iter().enumerate() {
            if targets[c].is_some_and(|want| want > class.len()) && class.len() <= k {
                return Err(Error::invalid_param(
                    "k_neighbors",
                    format!(
                        "class {c} has {} samples, SMOTE needs more than k_neighbors = {k} samples in each class it over-samples; lower k_neighbors",
                        class.len()
                    ),
                ));
            }
        }
        let mut out = gather(x, y, (0..y.len()).collect());
        let mut new_rows: Vec<Array2<F>> = Vec::new();
        let mut new_labels = Vec::new();
        for (c, class) in rows.iter().enumerate() {
            let Some(want) = targets[c] else { continue };
            let m = want.saturating_sub(class.len());
            if m == 0 {
                continue;
            }
            let index = NeighborIndex::new(x.select(Axis(0), class), Metric::Euclidean)?;
            let (_, nn) = index.kneighbors_self(k, false)?;
            let xc = index.data();
            let mut rng = random::stream(self.seed, c as u64);
            let mut block = Array2::<F>::zeros((m, x.ncols()));
            for mut row in block.rows_mut() {
                let i = rng.random_range(0..class.len());
                let j = nn[[i, rng.random_range(0..k)]];
                let u = F::cast(rng.random::<f64>());
                let (xi, xj) = (xc.row(i), xc.row(j));
                for ((r, &a), &b) in row.iter_mut().zip(xi).zip(xj) {
                    *r = a + u * (b - a);
                }
                out.synthetic_parents.push((class[i], class[j]));
            }
            new_rows.push(block);
            new_labels.extend(std::iter::repeat_n(c, m));
        }
        if !new_rows.is_empty() {
            let mut views = vec![out.x.view()];
            views.extend(new_rows.iter().map(|b| b.view()));
            let stacked = ndarray::concatenate(Axis(0), &views).map_err(|e| {
                Error::invalid_param("x", format!("cannot stack synthetic rows: {e}"))
            })?;
            out.x = stacked;
            let mut labels = out.y.to_vec();
            labels.extend(new_labels);
            out.y = labels.into();
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array1;

    fn imbalanced() -> (Array2<f64>, Array1<usize>) {
        // Class 0: a 4 x 4 grid; class 1: six points on the line y = 2x + 1 with growing gaps
        // (no ties among neighbour distances, so f32 and f64 find the same neighbours).
        let mut rows = Vec::new();
        let mut y = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                rows.push([i as f64, j as f64]);
                y.push(0);
            }
        }
        for t in 0..6 {
            let t = t as f64;
            let x0 = 10.0 + 0.3 * t + 0.05 * t * t;
            rows.push([x0, 2.0 * x0 + 1.0]);
            y.push(1);
        }
        let x = Array2::from_shape_fn((rows.len(), 2), |(i, j)| rows[i][j]);
        (x, y.into())
    }

    #[test]
    fn synthetic_points_interpolate_neighbours() {
        let (x, y) = imbalanced();
        let r = Smote::default()
            .k_neighbors(3)
            .seed(11)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r.class_counts(2), vec![16, 16]);
        assert_eq!(r.synthetic_parents.len(), 10);
        assert_eq!(r.x.nrows(), 32);
        for (s, &(i, j)) in r.synthetic_parents.iter().enumerate() {
            let row = r.x.row(22 + s);
            assert_eq!((y[i], y[j]), (1, 1));
            // On the line y = 2x + 1, between the parents.
            assert!((row[1] - (2.0 * row[0] + 1.0)).abs() < 1e-12);
            let (lo, hi) = (x[[i, 0]].min(x[[j, 0]]), x[[i, 0]].max(x[[j, 0]]));
            assert!(row[0] >= lo - 1e-12 && row[0] <= hi + 1e-12);
            // The neighbour is among the 3 nearest of the same class (brute force).
            let mut d: Vec<(f64, usize)> = (16..22)
                .filter(|&m| m != i)
                .map(|m| ((x[[m, 0]] - x[[i, 0]]).abs(), m))
                .collect();
            d.sort_by(|a, b| a.0.total_cmp(&b.0));
            assert!(d[..3].iter().any(|&(_, m)| m == j), "{i} {j}");
        }
        let again = Smote::default()
            .k_neighbors(3)
            .seed(11)
            .fit_resample(&x, &y)
            .expect("valid");
        assert_eq!(r, again);
    }

    #[test]
    fn small_class_is_an_error() {
        let (x, y) = imbalanced();
        match Smote::default().k_neighbors(6).fit_resample(&x, &y) {
            Err(Error::InvalidParam { name, reason }) => {
                assert_eq!(name, "k_neighbors");
                assert!(reason.contains("class 1 has 6 samples"), "{reason}");
            }
            other => panic!("unexpected {other:?}"),
        }
        assert!(
            Smote::default()
                .k_neighbors(0)
                .fit_resample(&x, &y)
                .is_err()
        );
        // k = 5 < 6 works.
        assert!(Smote::default().fit_resample(&x, &y).is_ok());
        // Nothing to do for a balanced data set: the output is the input.
        let yb: Array1<usize> = (0..22).map(|i| i % 2).collect();
        let r = Smote::default()
            .k_neighbors(2)
            .fit_resample(&x, &yb)
            .expect("valid");
        assert_eq!(r.x, x);
        assert!(r.synthetic_parents.is_empty());
    }

    #[test]
    fn f32_close_to_f64() {
        let (x, y) = imbalanced();
        let s = Smote::default().seed(2);
        let a = s.fit_resample(&x, &y).expect("valid");
        let b = s.fit_resample(&x.mapv(|v| v as f32), &y).expect("valid");
        assert_eq!(a.synthetic_parents, b.synthetic_parents);
        for (p, q) in a.x.iter().zip(b.x.iter()) {
            assert!((p - f64::from(*q)).abs() < 1e-4);
        }
    }
}
