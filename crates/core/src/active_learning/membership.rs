//! Membership-query learners of the course notes: a threshold by binary search, an interval by
//! a random search for one positive and two binary searches (membership queries: Angluin,
//! "Queries and concept learning", Machine Learning 2(4), 1988; the threshold example:
//! Settles, "Active Learning Literature Survey", 2009; catalog X-01, CL-197).

use ndarray::ArrayRef1;

use crate::{Error, Float, Result, random};

/// Checks that `points` is non-empty, finite and sorted ascending.
fn check_sorted<F: Float>(points: &ArrayRef1<F>, context: &'static str) -> Result<()> {
    crate::validate::check_min_samples(points.len(), 1, context)?;
    crate::validate::check_finite_1d(points, "points")?;
    if let Some(i) = (1..points.len()).find(|&i| points[i] < points[i - 1]) {
        return Err(Error::invalid_param(
            "points",
            format!(
                "points must be sorted ascending; points[{i}] = {} < points[{}] = {}",
                points[i],
                i - 1,
                points[i - 1]
            ),
        ));
    }
    Ok(())
}

/// Labels asked so far, so that no point is asked twice.
struct Cache<O> {
    labels: Vec<Option<bool>>,
    oracle: O,
    queries: usize,
}

impl<O: FnMut(usize) -> bool> Cache<O> {
    fn new(n: usize, oracle: O) -> Self {
        Self {
            labels: vec![None; n],
            oracle,
            queries: 0,
        }
    }
    fn get(&mut self, i: usize) -> bool {
        if let Some(l) = self.labels[i] {
            return l;
        }
        self.queries += 1;
        let l = (self.oracle)(i);
        self.labels[i] = Some(l);
        l
    }
}

/// The result of [`learn_threshold`]: a threshold `θ` with `f_θ(x) = +1` (positive) iff
/// `x > θ`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ThresholdSearch<F: Float> {
    /// Index of the first positive point (`n` when every point is negative).
    pub boundary: usize,
    /// The estimate of `θ`: midway between the last negative and the first positive point;
    /// the largest point when all are negative; `−∞` when all are positive.
    pub theta: F,
    /// Number of oracle queries made.
    pub queries: usize,
}

impl<F: Float> ThresholdSearch<F> {
    /// `f_θ(x)`: `true` (positive, `+1`) iff `x > θ`.
    pub fn predict(&self, x: F) -> bool {
        x > self.theta
    }
}

/// Active learning of a threshold `f_θ(x) = −1 if x ≤ θ, +1 otherwise` on a sorted set of
/// points, by binary search on the labels (the course notes; Settles (2009)).
///
/// `oracle(i)` returns the label of `points[i]` (`true` = `+1`). Since the labels along the
/// sorted points are `−…−+…+`, the first positive index is found with at most
/// `⌈log₂(n + 1)⌉` queries (there are `n + 1` possible positions), where a passive learner
/// (a decision stump, [`passive_threshold`]) needs all `n` labels. The oracle is assumed
/// consistent with some threshold; with noisy labels the result is *a* sign change, not the
/// error-minimising threshold.
///
/// ```
/// use ndlearn_core::active_learning::learn_threshold;
/// use ndlearn_core::ndarray::Array1;
///
/// let points: Array1<f64> = Array1::linspace(0.0, 1.0, 1000);
/// let r = learn_threshold(&points, |i| points[i] > 0.4321)?;
/// assert!(r.queries <= 10); // ⌈log2 1001⌉ = 10, instead of 1000 labels
/// assert!((r.theta - 0.4321).abs() < 1e-3);
/// assert!(r.predict(0.44) && !r.predict(0.43));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Empty, non-finite or unsorted `points`.
pub fn learn_threshold<F, O>(points: &ArrayRef1<F>, oracle: O) -> Result<ThresholdSearch<F>>
where
    F: Float,
    O: FnMut(usize) -> bool,
{
    check_sorted(points, "learn_threshold")?;
    let n = points.len();
    let mut cache = Cache::new(n, oracle);
    // Invariant: every index < lo is negative, every index ≥ hi is positive (hi = n: none).
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cache.get(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    Ok(ThresholdSearch {
        boundary: lo,
        theta: theta_between(points, lo),
        queries: cache.queries,
    })
}

fn theta_between<F: Float>(points: &ArrayRef1<F>, boundary: usize) -> F {
    let n = points.len();
    if boundary == 0 {
        F::neg_infinity()
    } else if boundary == n {
        points[n - 1]
    } else {
        (points[boundary - 1] + points[boundary]) * F::cast(0.5)
    }
}

/// The passive learner the course notes compare with: a decision stump fitted on **all** `n` labels
/// (`labels[i] = true` for `+1`), choosing the boundary that misclassifies the fewest points
/// (ties to the lowest boundary index). `queries` is `n`.
///
/// ```
/// use ndlearn_core::active_learning::passive_threshold;
/// use ndlearn_core::ndarray::array;
///
/// let points = array![0.0, 1.0, 2.0, 3.0, 4.0];
/// let r = passive_threshold(&points, &[false, false, true, true, true])?;
/// assert_eq!((r.boundary, r.theta, r.queries), (2, 1.5, 5));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Empty, non-finite or unsorted `points`; `labels` of another length.
pub fn passive_threshold<F: Float>(
    points: &ArrayRef1<F>,
    labels: &[bool],
) -> Result<ThresholdSearch<F>> {
    check_sorted(points, "passive_threshold")?;
    crate::validate::check_target_len(points.len(), labels.len(), "passive_threshold")?;
    // errors(b) = #positives before b + #negatives from b on.
    let mut errors = labels.iter().filter(|&&l| !l).count();
    let (mut best, mut best_err) = (0, errors);
    for (b, &l) in labels.iter().enumerate() {
        if l {
            errors += 1;
        } else {
            errors -= 1;
        }
        if errors < best_err {
            best = b + 1;
            best_err = errors;
        }
    }
    Ok(ThresholdSearch {
        boundary: best,
        theta: theta_between(points, best),
        queries: points.len(),
    })
}

/// The result of [`learn_interval`]: `f_{a,b}(x) = +1` iff `x ∈ [a, b]`.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct IntervalSearch<F: Float> {
    /// `(first, last)` indices of the positive points, `None` when no point is positive.
    pub positives: Option<(usize, usize)>,
    /// The estimate `[a, b] = [points[first], points[last]]` (the tightest interval consistent
    /// with the labels), `None` when no point is positive.
    pub interval: Option<(F, F)>,
    /// Queries spent searching for the first positive (random order).
    pub search_queries: usize,
    /// Total oracle queries (search plus the two binary searches).
    pub queries: usize,
}

impl<F: Float> IntervalSearch<F> {
    /// `f_{a,b}(x)`: `true` iff `a ≤ x ≤ b` (always `false` when no positive was found).
    pub fn predict(&self, x: F) -> bool {
        self.interval.is_some_and(|(a, b)| a <= x && x <= b)
    }
}

/// Active learning of an interval `f_{a,b}(x) = +1 iff x ∈ [a, b]` on a sorted set of points,
/// the course notes' procedure: query points in random order until one is positive
/// (up to `n` queries in the worst case), then binary-search the first positive on its left and
/// the last positive on its right (`O(log n)` queries each).
///
/// The random order is `random::permutation(random::rng(seed), n)`. Labels learned in the
/// first phase narrow the binary searches (a negative point left of the positive bounds the
/// left search), and no point is asked twice. The oracle is assumed consistent with some
/// interval.
///
/// ```
/// use ndlearn_core::active_learning::learn_interval;
/// use ndlearn_core::ndarray::Array1;
///
/// let points = Array1::from_iter((0..501).map(|i| f64::from(i) / 50.0)); // 0, 0.02, …, 10
/// let r = learn_interval(&points, |i| (3.0..=4.5).contains(&points[i]), 7)?;
/// assert_eq!(r.interval, Some((3.0, 4.5)));
/// // Binary searches cost O(log n); the random search dominates.
/// assert!(r.queries - r.search_queries <= 2 * 9);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Empty, non-finite or unsorted `points`.
pub fn learn_interval<F, O>(
    points: &ArrayRef1<F>,
    oracle: O,
    seed: u64,
) -> Result<IntervalSearch<F>>
where
    F: Float,
    O: FnMut(usize) -> bool,
{
    check_sorted(points, "learn_interval")?;
    let n = points.len();
    let mut cache = Cache::new(n, oracle);
    let order = random::permutation(&mut random::rng(seed), n);
    let Some(p) = order.into_iter().find(|&i| cache.get(i)) else {
        return Ok(IntervalSearch {
            positives: None,
            interval: None,
            search_queries: cache.queries,
            queries: cache.queries,
        });
    };
    let search_queries = cache.queries;
    // Left: the first positive lies in (last known negative left of p, p].
    let mut lo = (0..p)
        .rev()
        .find(|&i| cache.labels[i] == Some(false))
        .map_or(0, |i| i + 1);
    let mut hi = p;
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if cache.get(mid) {
            hi = mid;
        } else {
            lo = mid + 1;
        }
    }
    let first = lo;
    // Right: the last positive lies in [p, first known negative right of p).
    let mut lo = p;
    let mut hi = (p + 1..n)
        .find(|&i| cache.labels[i] == Some(false))
        .map_or(n - 1, |i| i - 1);
    while lo < hi {
        let mid = lo + (hi - lo).div_ceil(2);
        if cache.get(mid) {
            lo = mid;
        } else {
            hi = mid - 1;
        }
    }
    let last = lo;
    Ok(IntervalSearch {
        positives: Some((first, last)),
        interval: Some((points[first], points[last])),
        search_queries,
        queries: cache.queries,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array1, array};

    fn ceil_log2(m: usize) -> usize {
        (usize::BITS - (m - 1).leading_zeros()) as usize
    }

    #[test]
    fn threshold_query_counts() {
        // Every boundary position of every size up to 70: correct, and ≤ ⌈log2(n + 1)⌉ queries.
        for n in 1..=70usize {
            let pts = Array1::from_iter((0..n).map(|i| i as f64));
            for b in 0..=n {
                let r = learn_threshold(&pts, |i| i >= b).expect("valid");
                assert_eq!(r.boundary, b);
                assert!(r.queries <= ceil_log2(n + 1), "n {n} b {b}: {}", r.queries);
                for i in 0..n {
                    assert_eq!(r.predict(pts[i]), i >= b);
                }
                let labels: Vec<bool> = (0..n).map(|i| i >= b).collect();
                let p = passive_threshold(&pts, &labels).expect("valid");
                assert_eq!((p.boundary, p.queries), (b, n));
            }
        }
        // n = 2^k − 1 points: exactly k queries whatever the boundary (a full binary tree).
        let pts = Array1::from_iter((0..1023).map(f64::from));
        for b in [0, 1, 500, 1022, 1023] {
            assert_eq!(
                learn_threshold(&pts, |i| i >= b).expect("valid").queries,
                10
            );
        }
    }

    #[test]
    fn threshold_theta_and_errors() {
        let pts = array![0.0, 1.0, 3.0];
        let r = learn_threshold(&pts, |i| pts[i] > 2.0).expect("valid");
        assert_eq!(r.theta, 2.0);
        assert_eq!(
            learn_threshold(&pts, |_| true).expect("valid").theta,
            f64::NEG_INFINITY
        );
        assert_eq!(learn_threshold(&pts, |_| false).expect("valid").theta, 3.0);
        assert!(learn_threshold(&array![1.0, 0.0], |_| true).is_err());
        assert!(learn_threshold(&Array1::<f64>::zeros(0), |_| true).is_err());
        assert!(learn_threshold(&array![0.0, f64::NAN], |_| true).is_err());
        assert!(passive_threshold(&pts, &[true]).is_err());
        // Noisy labels: the passive stump minimises errors (one flipped label, boundary 3).
        let pts = Array1::from_iter((0..6).map(f64::from));
        let noisy = [false, true, false, true, true, true];
        assert_eq!(passive_threshold(&pts, &noisy).expect("valid").boundary, 1);
    }

    #[test]
    fn interval_recovers_every_interval() {
        let n = 40;
        let pts = Array1::from_iter((0..n).map(|i| i as f64 * 0.5));
        for a in 0..n {
            for b in a..n {
                for seed in [1, 2] {
                    let mut asked = vec![0u32; n];
                    let r = learn_interval(
                        &pts,
                        |i| {
                            asked[i] += 1;
                            (a..=b).contains(&i)
                        },
                        seed,
                    )
                    .expect("valid");
                    assert_eq!(r.positives, Some((a, b)));
                    assert!(asked.iter().all(|&c| c <= 1), "a point was asked twice");
                    assert!(r.search_queries <= n - (b - a));
                    let bs = r.queries - r.search_queries;
                    assert!(bs <= ceil_log2(n + 1) * 2, "a {a} b {b}: {bs}");
                    assert!(r.predict(pts[a]) && r.predict(pts[b]));
                    assert!(a == 0 || !r.predict(pts[a - 1]));
                }
            }
        }
        // No positive at all: every point is asked once.
        let r = learn_interval(&pts, |_| false, 3).expect("valid");
        assert_eq!((r.positives, r.queries), (None, n));
        assert!(!r.predict(1.0));
    }
}
