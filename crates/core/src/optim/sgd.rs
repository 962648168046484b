//! Stochastic and mini-batch gradient descent on a [`StochasticObjective`].
//!
//! # The method
//!
//! For `f(w) = (1/N) Σᵢ fᵢ(w)`, each epoch draws a fresh seeded permutation of `0..N`, cuts it
//! into consecutive batches `B` of `batch_size` indices (the last one may be shorter) and, for
//! every batch, updates
//!
//! ```text
//! w ← w − η_t · ĝ,      ĝ = (1/|B|) Σ_{i∈B} ∇fᵢ(w),      t = 1, 2, … (counts updates, not epochs)
//! ```
//!
//! `ĝ` is the *mean* over the batch (as [`StochasticObjective::batch_gradient`] requires), so it is
//! an unbiased estimate of `∇f(w)` and the step size does not depend on the batch size. `batch_size
//! = 1` is plain SGD (one random sample per update), `batch_size ≥ N` is full-batch gradient
//! descent (one update per epoch; the summation order follows the permutation, so it equals
//! [`super::gradient_descent`] up to rounding). The step follows a fixed [`StepSize`] schedule
//! (`Constant`, `InverseT`, `InverseSqrtT`; no line search on noisy gradients).
//!
//! A subgradient oracle in `batch_gradient` turns this into the stochastic subgradient method of
//! the course notes (hinge and perceptron losses, L1 terms).
//!
//! # Stopping
//!
//! After each epoch the full objective `f(w) = batch_value(w, 0..N)` is evaluated and recorded in
//! `history` (index 0 = the start). [`StopCriteria::max_iter`] is the maximum number of
//! **epochs**; `f_tol` compares consecutive epoch-end values (`|f_e − f_{e−1}| ≤ ε₁·max(1, |f_e|)`
//! → [`StopReason::ValueChange`]); `x_tol` compares consecutive epoch-end iterates
//! (`‖w_e − w_{e−1}‖ ≤ ε₂·max(1, ‖w_e‖)` → [`StopReason::StepNorm`]); `g_tol` is ignored (the full
//! gradient is never computed). `n_iter` counts epochs. With a constant step the stochastic
//! iterates keep fluctuating around the optimum, so the tolerances may never be met: use a
//! decaying schedule or the epoch cap.
//!
//! # Determinism
//!
//! The permutations come from [`crate::random::MinibatchIter`] seeded with `seed`; the same seed,
//! input and objective give bitwise the same result.
//!
//! # Complexity
//!
//! Per epoch: `N` per-sample gradient terms (in `⌈N/B⌉` calls) plus one full objective value, and
//! `O(d⌈N/B⌉)` vector work.
//!
//! # Choices not in the course notes
//!
//! Epochs and reshuffling (the course notes draw a random batch each iteration and leave epochs open,
//! catalog O-02 "Gap"), the once-per-epoch convergence test, and counting `t` over updates.
//!
//! # References
//!
//! - SGD and mini-batches as in the course notes (mean vs sum scaling; the minibatch mean, which
//!   one set of the course notes sums to `N` by mistake, errata E17; catalog O-02, CL-053): H. Robbins,
//!   S. Monro, "A stochastic approximation method", Annals of Mathematical Statistics 22(3),
//!   1951.
//! - L. Bottou, F. E. Curtis, J. Nocedal, "Optimization Methods for Large-Scale Machine
//!   Learning", SIAM Review 60(2), 2018.
//!
//! ```
//! use ndlearn_core::ndarray::{array, Array1, ArrayRef1};
//! use ndlearn_core::optim::{minibatch_gd, StepSize, StochasticObjective, StopCriteria};
//!
//! /// f(w) = (1/N) Σ ½(w − aᵢ)²: minimum at the mean of the aᵢ.
//! struct Mean(Vec<f64>);
//! impl StochasticObjective<f64> for Mean {
//!     fn dim(&self) -> usize { 1 }
//!     fn n_samples(&self) -> usize { self.0.len() }
//!     fn batch_value(&self, w: &ArrayRef1<f64>, b: &[usize]) -> f64 {
//!         b.iter().map(|&i| 0.5 * (w[0] - self.0[i]).powi(2)).sum::<f64>() / b.len() as f64
//!     }
//!     fn batch_gradient(&self, w: &ArrayRef1<f64>, b: &[usize]) -> Array1<f64> {
//!         array![b.iter().map(|&i| w[0] - self.0[i]).sum::<f64>() / b.len() as f64]
//!     }
//! }
//! let obj = Mean(vec![1.0, 2.0, 3.0, 6.0]);
//! let stop = StopCriteria::default().max_iter(2000).f_tol(0.0).x_tol(0.0);
//! let res = minibatch_gd(&obj, &array![0.0], 2, StepSize::InverseT(1.0), stop, 42)?;
//! assert!((res.x[0] - 3.0).abs() < 1e-2);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, ArrayRef1};

use super::gd::{axpy, check_gradient, check_schedule, check_value, dist};
use super::{
    OptimResult, StepSize, StochasticObjective, StopCriteria, StopReason, check_start, norm2,
    observer_stop,
};
use crate::random::MinibatchIter;
use crate::{Error, Float, Result};

const VALUE_CONTEXT: &str =
    "objective value during mini-batch gradient descent (row = epoch; a diverging step size?)";
const GRAD_CONTEXT: &str =
    "batch gradient during mini-batch gradient descent (row = update, col = coordinate)";

/// Mini-batch gradient descent: `⌈N / batch_size⌉` updates per epoch on mean batch gradients,
/// reshuffled every epoch from `seed`; at most `stop.max_iter` epochs (see the module docs).
///
/// # Errors
/// - [`Error::InvalidParam`] for `batch_size == 0`, a backtracking or invalid `step`, or invalid
///   `stop`.
/// - [`Error::TooFewSamples`] when the objective has no samples.
/// - [`Error::ShapeMismatch`] when `x0` or a batch gradient does not have length `obj.dim()`.
/// - [`Error::NonFinite`] for a non-finite `x0`, or a non-finite value or gradient during the run.
pub fn minibatch_gd<F: Float, O: StochasticObjective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    batch_size: usize,
    step: StepSize,
    stop: StopCriteria,
    seed: u64,
) -> Result<OptimResult<F>> {
    crate::validate::check_at_least("batch_size", batch_size, 1)?;
    check_schedule(&step, "mini-batch gradient descent")?;
    stop.validate()?;
    let d = obj.dim();
    check_start(x0, d)?;
    let n = obj.n_samples();
    if n == 0 {
        return Err(Error::TooFewSamples {
            context: "mini-batch gradient descent",
            needed: 1,
            found: 0,
        });
    }
    let all: Vec<usize> = (0..n).collect();
    let mut batches = MinibatchIter::new(n, batch_size.min(n), true, seed)?;
    let mut w = x0.to_owned();
    let mut f = check_value(obj.batch_value(&w, &all), 0, VALUE_CONTEXT)?;
    let mut history = vec![f];
    let mut t = 0usize;
    for epoch in 1..=stop.max_iter {
        let w_prev: Array1<F> = w.clone();
        while let Some(batch) = batches.next_batch() {
            t += 1;
            let g = obj.batch_gradient(&w, batch);
            check_gradient(&g, d, t, GRAD_CONTEXT)?;
            let eta = F::cast(step.rate(t).unwrap_or(0.0));
            w = axpy(&w, -eta, &g);
        }
        let f_new = check_value(obj.batch_value(&w, &all), epoch, VALUE_CONTEXT)?;
        history.push(f_new);
        let reason = stop
            .check(f, f_new, dist(&w, &w_prev), norm2(&w), None)
            .or_else(|| observer_stop("sgd", epoch, stop.max_iter, f_new, None));
        f = f_new;
        if let Some(r) = reason {
            return Ok(OptimResult::new(w, f, epoch, r, history));
        }
    }
    Ok(OptimResult::new(
        w,
        f,
        stop.max_iter,
        StopReason::MaxIter,
        history,
    ))
}

/// Stochastic gradient descent: [`minibatch_gd`] with `batch_size = 1` (one random sample per
/// update, every sample once per epoch).
///
/// # Errors
/// As [`minibatch_gd`].
pub fn sgd<F: Float, O: StochasticObjective<F> + ?Sized>(
    obj: &O,
    x0: &ArrayRef1<F>,
    step: StepSize,
    stop: StopCriteria,
    seed: u64,
) -> Result<OptimResult<F>> {
    minibatch_gd(obj, x0, 1, step, stop, seed)
}

#[cfg(test)]
mod tests {
    use super::super::test_problems::Logistic;
    use super::super::{Objective, gradient_descent};
    use super::*;
    use ndarray::array;

    fn epochs(n: usize) -> StopCriteria {
        StopCriteria::default()
            .max_iter(n)
            .f_tol(0.0)
            .x_tol(0.0)
            .g_tol(0.0)
    }

    /// `fᵢ(w) = ½(w − aᵢ)²` in one dimension.
    struct Points(Vec<f64>);

    impl StochasticObjective<f64> for Points {
        fn dim(&self) -> usize {
            1
        }
        fn n_samples(&self) -> usize {
            self.0.len()
        }
        fn batch_value(&self, w: &ArrayRef1<f64>, b: &[usize]) -> f64 {
            b.iter()
                .map(|&i| 0.5 * (w[0] - self.0[i]).powi(2))
                .sum::<f64>()
                / b.len() as f64
        }
        fn batch_gradient(&self, w: &ArrayRef1<f64>, b: &[usize]) -> Array1<f64> {
            array![b.iter().map(|&i| w[0] - self.0[i]).sum::<f64>() / b.len() as f64]
        }
    }

    #[test]
    fn invalid_arguments() {
        let p = Points(vec![1.0, 2.0]);
        let x0 = array![0.0];
        let s = StepSize::Constant(0.1);
        assert!(matches!(
            minibatch_gd(&p, &x0, 0, s, epochs(1), 0),
            Err(Error::InvalidParam {
                name: "batch_size",
                ..
            })
        ));
        assert!(matches!(
            sgd(&p, &x0, StepSize::backtracking(), epochs(1), 0),
            Err(Error::InvalidParam { name: "step", .. })
        ));
        assert!(matches!(
            sgd(&p, &x0, s, epochs(0), 0),
            Err(Error::InvalidParam { .. })
        ));
        assert!(matches!(
            sgd(&p, &array![0.0, 1.0], s, epochs(1), 0),
            Err(Error::ShapeMismatch { .. })
        ));
        assert!(matches!(
            sgd(&p, &array![f64::NAN], s, epochs(1), 0),
            Err(Error::NonFinite { .. })
        ));
        assert!(matches!(
            sgd(&Points(vec![]), &x0, s, epochs(1), 0),
            Err(Error::TooFewSamples { .. })
        ));
        // A step of 3 on ½(w − a)²: w − a ← −2(w − a) per update, diverging to infinity.
        assert!(matches!(
            sgd(
                &p,
                &array![10.0],
                StepSize::Constant(3.0),
                epochs(10_000),
                0
            ),
            Err(Error::NonFinite { .. })
        ));
    }

    #[test]
    fn full_batch_one_epoch_is_one_gradient_step() {
        // a = (1, 2, 3, 6), mean 3; from w = 0 with η = 0.5 and B = N: ĝ = 0 − 3 = −3,
        // w₁ = 0 + 0.5·3 = 1.5; ĝ = 1.5 − 3, w₂ = 1.5 + 0.75 = 2.25.
        // f(w) = ½(mean of (w − aᵢ)²) = ½((w − 3)² + var), var = (4 + 1 + 0 + 9)/4 = 3.5.
        let p = Points(vec![1.0, 2.0, 3.0, 6.0]);
        let r = minibatch_gd(&p, &array![0.0], 4, StepSize::Constant(0.5), epochs(2), 1)
            .expect("valid");
        assert_eq!(r.n_iter, 2);
        assert!((r.x[0] - 2.25).abs() < 1e-15);
        let expect = [0.5 * (9.0 + 3.5), 0.5 * (2.25 + 3.5), 0.5 * (0.5625 + 3.5)];
        for (h, e) in r.history.iter().zip(expect) {
            assert!((h - e).abs() < 1e-14);
        }
        // A batch larger than N is clamped to N: the same run.
        let big = minibatch_gd(&p, &array![0.0], 100, StepSize::Constant(0.5), epochs(2), 1)
            .expect("valid");
        assert_eq!(big.x, r.x);
    }

    #[test]
    fn full_batch_equals_gradient_descent_on_logistic() {
        let lg = Logistic::<f64>::noisy_separable(40, 0.1, 3);
        let w0 = Array1::zeros(3);
        let step = StepSize::Constant(1.0);
        let mb = minibatch_gd(&lg, &w0, 40, step, epochs(25), 9).expect("valid");
        let gd = gradient_descent(&lg, &w0, step, epochs(25)).expect("valid");
        assert!(dist(&mb.x, &gd.x) < 1e-12, "{} vs {}", mb.x, gd.x);
        for (a, b) in mb.history.iter().zip(&gd.history) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    #[test]
    fn sgd_single_sample_steps_match_hand_values() {
        // Two points a = (0, 4), one epoch of SGD with η = 0.5 from w = 2 visits both in the
        // seeded order (i, j): w ← w − 0.5(w − a_i) = (w + a_i)/2, then (· + a_j)/2.
        // Order (0, 1): (2 + 0)/2 = 1, (1 + 4)/2 = 2.5; order (1, 0): 3, 1.5.
        let p = Points(vec![0.0, 4.0]);
        let r = sgd(&p, &array![2.0], StepSize::Constant(0.5), epochs(1), 5).expect("valid");
        let mut it = MinibatchIter::new(2, 1, true, 5).expect("valid");
        let first = it.next_batch().expect("a batch")[0];
        let want = if first == 0 { 2.5 } else { 1.5 };
        assert_eq!(r.x[0], want);
    }

    #[test]
    fn sgd_and_minibatch_converge_on_logistic_and_are_deterministic() {
        let lg = Logistic::<f64>::noisy_separable(60, 0.1, 7);
        let w0 = Array1::zeros(3);
        let reference = gradient_descent(
            &lg,
            &w0,
            StepSize::backtracking(),
            StopCriteria::default()
                .max_iter(10_000)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(1e-10),
        )
        .expect("valid");
        for batch in [1usize, 8] {
            let r = minibatch_gd(&lg, &w0, batch, StepSize::InverseT(5.0), epochs(300), 11)
                .expect("valid");
            // Strong convexity α = 0.1: f(w) − f* ≥ (α/2)‖w − w*‖², so the gap bounds the distance.
            let gap = r.value - reference.value;
            assert!((-1e-12..1e-4).contains(&gap), "batch {batch}: gap {gap}");
            assert!(dist(&r.x, &reference.x) < (2.0 * gap.max(0.0) / 0.1).sqrt() + 1e-9);
            let again = minibatch_gd(&lg, &w0, batch, StepSize::InverseT(5.0), epochs(300), 11)
                .expect("valid");
            assert_eq!(r.x, again.x, "same seed, same result");
            assert_eq!(r.history, again.history);
            let other = minibatch_gd(&lg, &w0, batch, StepSize::InverseT(5.0), epochs(300), 12)
                .expect("valid");
            assert_ne!(r.x, other.x, "another seed visits samples in another order");
        }
    }

    #[test]
    fn value_change_stop_is_checked_per_epoch() {
        let p = Points(vec![1.0, 2.0, 3.0, 6.0]);
        let stop = StopCriteria::default()
            .max_iter(10_000)
            .f_tol(1e-12)
            .x_tol(0.0)
            .g_tol(0.0);
        let r = minibatch_gd(&p, &array![0.0], 4, StepSize::Constant(0.5), stop, 0).expect("valid");
        assert_eq!(r.stop, StopReason::ValueChange);
        assert!(r.converged);
        assert_eq!(r.history.len(), r.n_iter + 1);
        assert!((r.x[0] - 3.0).abs() < 1e-5);
        let stop = StopCriteria::default()
            .max_iter(10_000)
            .f_tol(0.0)
            .x_tol(1e-9)
            .g_tol(0.0);
        let r = minibatch_gd(&p, &array![0.0], 2, StepSize::InverseT(1.0), stop, 0).expect("valid");
        assert_eq!(r.stop, StopReason::StepNorm);
    }

    #[test]
    fn works_in_f32() {
        let lg = Logistic::<f32>::noisy_separable(30, 0.5, 2);
        let r = minibatch_gd(
            &lg,
            &Array1::zeros(3),
            5,
            StepSize::InverseSqrtT(1.0),
            epochs(200),
            4,
        )
        .expect("valid");
        let g = Objective::gradient(&lg, &r.x);
        assert!(norm2(&g) < 2e-2, "{g}");
    }
}
