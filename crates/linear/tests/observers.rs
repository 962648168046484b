//! The iterative linear solvers report each iteration to an installed
//! `ndlearn_core::observe` observer, which may stop them early.

use std::sync::{Arc, Mutex};

use ndarray::Axis;
use ndlearn_core::Fit;
use ndlearn_core::observe::{self, Control, Observer, Progress};
use ndlearn_linear::{Lasso, LogisticRegression, LogisticSolver, Precompute};

struct Log {
    stop_at: usize,
    seen: Mutex<Vec<String>>,
}

impl Observer for Log {
    fn observe(&self, p: &Progress<'_>) -> Control {
        if let Ok(mut v) = self.seen.lock() {
            v.push(format!("{}:{}", p.estimator, p.iteration));
        }
        if p.iteration >= self.stop_at {
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

fn log(stop_at: usize) -> Arc<Log> {
    Arc::new(Log {
        stop_at,
        seen: Mutex::new(Vec::new()),
    })
}

#[test]
fn coordinate_descent_reports_sweeps_and_stops() {
    let d = ndlearn_datasets::diabetes();
    let (x, y) = (d.x(), d.y_values().expect("regression"));
    let est = Lasso::new(1e-4).tol(1e-12).precompute(Precompute::Never);
    let full = est.fit(x, y).expect("fit");
    assert!(full.n_iter() > 3);
    let l = log(usize::MAX);
    let again = observe::with_observer(l.clone(), || est.fit(x, y).expect("fit"));
    let seen = l.seen.lock().expect("lock").clone();
    assert_eq!(seen.len(), full.n_iter());
    assert!(seen[0].starts_with("coordinate descent:1"));
    assert_eq!(again.coef(), full.coef(), "logging changes nothing");
    let early = observe::with_observer(log(3), || est.fit(x, y).expect("fit"));
    assert_eq!(early.n_iter(), 3);
    assert!(!early.converged());
}

#[test]
fn irls_reports_iterations_and_stops() {
    let d = ndlearn_datasets::breast_cancer();
    let x = d.x().select(Axis(1), &[0, 1, 2, 3]);
    let y = d.y_classes().expect("classes");
    let est = LogisticRegression::new(1.0).solver(LogisticSolver::Irls);
    let full = est.fit(&x, y).expect("fit");
    assert!(full.n_iter() >= 2);
    let l = log(usize::MAX);
    observe::with_observer(l.clone(), || est.fit(&x, y).expect("fit"));
    assert!(
        l.seen
            .lock()
            .expect("lock")
            .iter()
            .all(|s| s.starts_with("IRLS:"))
    );
    let early = observe::with_observer(log(1), || est.fit(&x, y).expect("fit"));
    assert!(!early.converged());
}
