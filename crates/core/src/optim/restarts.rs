//! Random restarts for non-convex problems: run a local solver from several random starting
//! points in a box and keep the best result.
//!
//! # The math (catalog O-03, C-16)
//!
//! The course notes mention random restarts as a way to escape local minima of gradient descent; no
//! procedure is given. Here (implementation choice): start `i ∈ 0..n_restarts` is drawn
//! uniformly from the box `[lo, hi]` with the random stream `random::stream(seed, i)`; the local
//! solver runs from every start in parallel (`par::map_tasks`); the result with the lowest
//! objective value wins, **ties going to the lowest index**, NaN values losing to everything.
//! Because each start depends only on `(seed, i)` and the selection is a sequential scan in
//! index order, the answer is bitwise identical for any number of threads.
//!
//! A start whose solver returns an error is recorded as failed and skipped; only when every
//! start fails is the first error (in index order) returned.
//!
//! # Complexity
//!
//! `n_restarts` local solves, spread over the rayon pool.

use ndarray::{Array1, Array2, ArrayRef1};

use super::OptimResult;
use super::finite_diff::check_box;
use crate::{Error, Float, Result, par, random};

/// Result of [`random_restarts`].
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RestartsResult<F: Float> {
    /// The best local result.
    pub best: OptimResult<F>,
    /// Index of the start that produced it.
    pub best_index: usize,
    /// The starting points, one per row.
    pub starts: Array2<F>,
    /// Final objective value of each start (`None` when its solver failed).
    pub values: Vec<Option<F>>,
    /// Number of starts whose solver returned an error.
    pub n_failed: usize,
}

/// Draws start `i` uniformly from the box `[lo, hi]` with `random::stream(seed, i)`.
pub fn random_start<F: Float>(
    lo: &ArrayRef1<F>,
    hi: &ArrayRef1<F>,
    seed: u64,
    i: usize,
) -> Array1<F> {
    let mut rng = random::stream(seed, i as u64);
    Array1::from_shape_fn(lo.len(), |j| random::uniform(&mut rng, lo[j], hi[j]))
}

/// Runs `solver(i, x0ᵢ)` from `n_restarts` random starts in `[lo, hi]` in parallel and keeps the
/// best result (see the module docs). The solver must be `Sync` (it is shared by the tasks).
///
/// Errors: `lo`/`hi` of different lengths, non-finite, or `lo > hi`; `n_restarts = 0`; the first
/// solver error when every start failed.
///
/// ```
/// use ndlearn_core::ndarray::{array, ArrayRef1};
/// use ndlearn_core::optim::{lbfgs, random_restarts, FnObjective, LbfgsOptions};
/// // f(x) = x⁴ − 3x² + x: a local minimum near 1.13 and the global one near −1.30.
/// let obj = FnObjective::new(
///     1,
///     |w: &ArrayRef1<f64>| w[0].powi(4) - 3.0 * w[0] * w[0] + w[0],
///     |w: &ArrayRef1<f64>| array![4.0 * w[0].powi(3) - 6.0 * w[0] + 1.0],
/// );
/// let r = random_restarts(&array![-2.0], &array![2.0], 8, 42, |_, x0| {
///     lbfgs(&obj, &x0, &LbfgsOptions::default())
/// })?;
/// assert!((r.best.x[0] + 1.30).abs() < 0.01);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn random_restarts<F, S>(
    lo: &ArrayRef1<F>,
    hi: &ArrayRef1<F>,
    n_restarts: usize,
    seed: u64,
    solver: S,
) -> Result<RestartsResult<F>>
where
    F: Float,
    S: Fn(usize, Array1<F>) -> Result<OptimResult<F>> + Sync + Send,
{
    check_box(lo, hi)?;
    crate::validate::check_at_least("n_restarts", n_restarts, 1)?;
    let d = lo.len();
    let mut starts = Array2::zeros((n_restarts, d));
    for i in 0..n_restarts {
        starts.row_mut(i).assign(&random_start(lo, hi, seed, i));
    }
    let starts_ref = &starts;
    let results = par::map_tasks(n_restarts, |i| solver(i, starts_ref.row(i).to_owned()));

    let mut best: Option<(usize, OptimResult<F>)> = None;
    let mut first_err: Option<Error> = None;
    let mut values = Vec::with_capacity(n_restarts);
    let mut n_failed = 0;
    for (i, r) in results.into_iter().enumerate() {
        match r {
            Ok(res) => {
                values.push(Some(res.value));
                let better = match &best {
                    None => true,
                    // Strictly lower wins (ties keep the lower index); NaN never wins.
                    Some((_, b)) => {
                        res.value < b.value || (b.value.is_nan() && !res.value.is_nan())
                    }
                };
                if better {
                    best = Some((i, res));
                }
            }
            Err(e) => {
                values.push(None);
                n_failed += 1;
                first_err.get_or_insert(e);
            }
        }
    }
    match best {
        Some((best_index, best)) => Ok(RestartsResult {
            best,
            best_index,
            starts,
            values,
            n_failed,
        }),
        None => Err(first_err
            .unwrap_or_else(|| Error::invalid_param("n_restarts", "no restart produced a result"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::optim::{FnObjective, LbfgsOptions, StopReason, lbfgs};
    use ndarray::array;

    /// Himmelblau-like with unequal minima: (x² + y − 11)² + (x + y² − 7)² + 0.1x.
    fn objective() -> impl crate::optim::Objective<f64> + Sync {
        FnObjective::new(
            2,
            |w: &ArrayRef1<f64>| {
                (w[0] * w[0] + w[1] - 11.0).powi(2)
                    + (w[0] + w[1] * w[1] - 7.0).powi(2)
                    + 0.1 * w[0]
            },
            |w: &ArrayRef1<f64>| {
                let a = w[0] * w[0] + w[1] - 11.0;
                let b = w[0] + w[1] * w[1] - 7.0;
                array![4.0 * a * w[0] + 2.0 * b + 0.1, 2.0 * a + 4.0 * b * w[1]]
            },
        )
    }

    #[test]
    fn best_of_restarts_is_thread_count_invariant() {
        let obj = objective();
        let lo = array![-5.0, -5.0];
        let hi = array![5.0, 5.0];
        let run = |threads| {
            par::with_threads(threads, || {
                random_restarts(&lo, &hi, 12, 2024, |_, x0| {
                    lbfgs(&obj, &x0, &LbfgsOptions::default())
                })
            })
            .expect("pool")
            .expect("some start succeeds")
        };
        let r1 = run(1);
        let r2 = run(2);
        assert_eq!(r1.best_index, r2.best_index);
        assert_eq!(r1.best.x, r2.best.x);
        assert_eq!(r1.best.value.to_bits(), r2.best.value.to_bits());
        assert_eq!(r1.starts, r2.starts);
        assert_eq!(r1.values, r2.values);
        // The best value is the minimum over the starts, and the lowest index among equals.
        let vals: Vec<f64> = r1.values.iter().map(|v| v.expect("all succeed")).collect();
        let min = vals.iter().cloned().fold(f64::INFINITY, f64::min);
        assert_eq!(r1.best.value, min);
        assert_eq!(
            r1.best_index,
            vals.iter().position(|&v| v == min).expect("present")
        );
        // Starts lie in the box.
        assert!(r1.starts.iter().all(|&v| (-5.0..5.0).contains(&v)));
        // It beats at least one other local minimum (the four minima differ by the 0.1x tilt).
        assert!(vals.iter().any(|&v| v > min + 0.1));
    }

    #[test]
    fn ties_go_to_the_lowest_index_and_failures_are_skipped() {
        let lo = array![0.0];
        let hi = array![1.0];
        let r = random_restarts(&lo, &hi, 5, 1, |i, x0| {
            if i == 0 {
                return Err(Error::invalid_param("x0", "fails on purpose"));
            }
            Ok(OptimResult::new(x0, 1.0, 0, StopReason::Optimal, vec![]))
        })
        .expect("four succeed");
        assert_eq!(r.best_index, 1);
        assert_eq!(r.n_failed, 1);
        assert_eq!(r.values[0], None);
        let all_fail = random_restarts(&lo, &hi, 3, 1, |i, _| {
            Err::<OptimResult<f64>, _>(Error::invalid_param("x0", format!("start {i}")))
        });
        match all_fail {
            Err(Error::InvalidParam { reason, .. }) => assert_eq!(reason, "start 0"),
            other => panic!("unexpected {other:?}"),
        }
        // NaN values lose.
        let r = random_restarts(&lo, &hi, 3, 1, |i, x0| {
            let v = if i == 0 { f64::NAN } else { 2.0 + i as f64 };
            Ok(OptimResult::new(x0, v, 0, StopReason::Optimal, vec![]))
        })
        .expect("ok");
        assert_eq!(r.best_index, 1);
    }

    #[test]
    fn invalid_inputs() {
        let ok = |_: usize, x0: Array1<f64>| {
            Ok(OptimResult::new(x0, 0.0, 0, StopReason::Optimal, vec![]))
        };
        assert!(random_restarts(&array![0.0], &array![1.0], 0, 1, ok).is_err());
        assert!(random_restarts(&array![2.0], &array![1.0], 1, 1, ok).is_err());
        assert!(random_restarts(&array![0.0, 0.0], &array![1.0], 1, 1, ok).is_err());
        assert!(random_restarts(&array![f64::NAN], &array![1.0], 1, 1, ok).is_err());
    }
}
