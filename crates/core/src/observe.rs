//! Progress reporting and early stopping for iterative estimators.
//!
//! Iterative code (solvers, EM, k-means, epochs of SGD, boosting rounds …) calls [`report`] once
//! per iteration. When no observer is installed this is a thread-local read and nothing else, so
//! estimators can report unconditionally. A caller installs an [`Observer`] for the duration of a
//! closure with [`with_observer`]; the observer sees every report made *on that thread* and may
//! answer [`Control::Stop`], which the estimator treats like reaching its iteration limit (it
//! returns the current model, marked as not converged where the model has such a flag).
//!
//! ```
//! use std::sync::{Arc, Mutex};
//! use ndlearn_core::observe::{self, Control, Observer, Progress};
//!
//! struct Log(Mutex<Vec<usize>>);
//! impl Observer for Log {
//!     fn observe(&self, p: &Progress<'_>) -> Control {
//!         self.0.lock().map(|mut v| v.push(p.iteration)).ok();
//!         if p.iteration >= 3 { Control::Stop } else { Control::Continue }
//!     }
//! }
//!
//! let log = Arc::new(Log(Mutex::new(Vec::new())));
//! let iterations = observe::with_observer(log.clone(), || {
//!     let mut it = 0;
//!     while it < 100 {
//!         it += 1;
//!         if observe::report(&Progress::new("demo", it).max_iter(100)).is_stop() {
//!             break;
//!         }
//!     }
//!     it
//! });
//! assert_eq!(iterations, 3);
//! assert_eq!(*log.0.lock().unwrap(), vec![1, 2, 3]);
//! ```
//!
//! ## Threads
//!
//! Observers are installed per thread: reports made on rayon worker threads (for example by
//! restarts that run in parallel) are not seen. Estimators report from the thread that called
//! `fit`; their documentation says when they do not. An observer that only logs never changes a
//! result; one that stops early changes it, deterministically for a deterministic rule.

use std::cell::RefCell;
use std::sync::Arc;

/// What an observer answers to a report.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Control {
    /// Go on iterating.
    Continue,
    /// Stop as if the iteration limit had been reached.
    Stop,
}

impl Control {
    /// `true` for [`Control::Stop`].
    pub fn is_stop(self) -> bool {
        self == Control::Stop
    }
}

/// One progress report: which estimator, which iteration, and what it knows of its state.
#[derive(Clone, Debug, PartialEq)]
pub struct Progress<'a> {
    /// The reporting algorithm, e.g. `"lasso"` or `"lbfgs"`.
    pub estimator: &'a str,
    /// Iteration (epoch, EM step, round) just completed, starting at 1.
    pub iteration: usize,
    /// The iteration limit, when there is one.
    pub max_iter: Option<usize>,
    /// Current objective (loss, negative log-likelihood, inertia …), when computed anyway.
    pub objective: Option<f64>,
    /// Current convergence measure (gradient norm, duality gap, centre shift …).
    pub criterion: Option<f64>,
}

impl<'a> Progress<'a> {
    /// A report for `iteration` of `estimator` with no other information.
    pub fn new(estimator: &'a str, iteration: usize) -> Self {
        Self {
            estimator,
            iteration,
            max_iter: None,
            objective: None,
            criterion: None,
        }
    }
    /// Sets the iteration limit.
    pub fn max_iter(mut self, v: usize) -> Self {
        self.max_iter = Some(v);
        self
    }
    /// Sets the objective value.
    pub fn objective(mut self, v: f64) -> Self {
        self.objective = Some(v);
        self
    }
    /// Sets the convergence measure.
    pub fn criterion(mut self, v: f64) -> Self {
        self.criterion = Some(v);
        self
    }
}

/// Receives progress reports (logging, progress bars, early stopping).
pub trait Observer: Send + Sync {
    /// Called once per iteration of the observed estimator.
    fn observe(&self, progress: &Progress<'_>) -> Control;
}

thread_local! {
    static OBSERVERS: RefCell<Vec<Arc<dyn Observer>>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with `observer` installed on the current thread (nested calls stack: the innermost
/// observer sees the reports). The observer is removed when `f` returns or unwinds.
pub fn with_observer<R>(observer: Arc<dyn Observer>, f: impl FnOnce() -> R) -> R {
    struct Pop;
    impl Drop for Pop {
        fn drop(&mut self) {
            OBSERVERS.with(|o| {
                o.borrow_mut().pop();
            });
        }
    }
    OBSERVERS.with(|o| o.borrow_mut().push(observer));
    let _pop = Pop;
    f()
}

/// Reports progress to the innermost observer of this thread; [`Control::Continue`] when there is
/// none.
pub fn report(progress: &Progress<'_>) -> Control {
    let current = OBSERVERS.with(|o| o.borrow().last().cloned());
    match current {
        Some(obs) => obs.observe(progress),
        None => Control::Continue,
    }
}

/// Whether an observer is installed on this thread (lets a caller skip computing an objective
/// that only the observer would read).
pub fn is_observed() -> bool {
    OBSERVERS.with(|o| !o.borrow().is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

    struct Count(Mutex<usize>, usize);
    impl Observer for Count {
        fn observe(&self, _: &Progress<'_>) -> Control {
            let mut n = self.0.lock().expect("not poisoned");
            *n += 1;
            if *n >= self.1 {
                Control::Stop
            } else {
                Control::Continue
            }
        }
    }

    #[test]
    fn no_observer_continues() {
        assert!(!is_observed());
        assert_eq!(report(&Progress::new("x", 1)), Control::Continue);
    }

    #[test]
    fn nested_observers_and_removal() {
        let outer = Arc::new(Count(Mutex::new(0), 100));
        let inner = Arc::new(Count(Mutex::new(0), 2));
        with_observer(outer.clone(), || {
            assert!(is_observed());
            report(&Progress::new("a", 1));
            with_observer(inner.clone(), || {
                assert_eq!(report(&Progress::new("b", 1)), Control::Continue);
                assert_eq!(report(&Progress::new("b", 2)), Control::Stop);
            });
            report(&Progress::new("a", 2).objective(1.0).criterion(0.5));
        });
        assert!(!is_observed());
        assert_eq!(*outer.0.lock().expect("ok"), 2);
        assert_eq!(*inner.0.lock().expect("ok"), 2);
    }

    #[test]
    fn removed_after_panic() {
        let obs = Arc::new(Count(Mutex::new(0), 100));
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            with_observer(obs.clone(), || panic!("boom"))
        }));
        assert!(r.is_err());
        assert!(!is_observed());
    }

    #[test]
    fn solvers_stop_when_asked_and_report_each_iteration() {
        use crate::optim::test_problems::Rosenbrock;
        use crate::optim::{LbfgsOptions, lbfgs};
        let x0 = ndarray::array![-1.2, 1.0];
        let free = lbfgs(&Rosenbrock, &x0, &LbfgsOptions::default()).expect("solves");
        assert!(free.converged && free.n_iter > 5);
        let obs = Arc::new(Count(Mutex::new(0), 3));
        let r = with_observer(obs.clone(), || {
            lbfgs(&Rosenbrock, &x0, &LbfgsOptions::default()).expect("runs")
        });
        assert_eq!(r.n_iter, 3);
        assert!(!r.converged);
        assert_eq!(r.stop, crate::optim::StopReason::Interrupted);
        assert_eq!(*obs.0.lock().expect("ok"), 3);
    }
}
