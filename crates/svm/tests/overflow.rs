//! Data at the edge of the floating-point range must end a fit (with a model or a typed
//! error), not loop: found by the `fit_predict` fuzz target (a column of 1e150 made TRON's
//! actual reduction NaN, so no step was ever accepted and the accepted-step counter never
//! reached `max_iter`).

use std::sync::mpsc;
use std::time::Duration;

use ndarray::{Array1, array};
use ndlearn_core::Fit;
use ndlearn_svm::{LinearSvc, LinearSvr};

/// Runs `f` on another thread and fails if it has not returned within `secs`.
fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(secs))
        .expect("the fit did not return: an overflow made the solver loop")
}

#[test]
fn linear_svc_on_a_1e150_column_returns() {
    let x = array![
        [1e150, 1.0],
        [1e150, -2.0],
        [1e150, 1.0],
        [1e150, -2.0],
        [1e150, 2.0]
    ];
    let y: Array1<usize> = array![1, 1, 0, 2, 2];
    let r = within(60, move || LinearSvc::default().fit(&x, &y).map(|_| ()));
    // Either outcome is acceptable; what matters is that it returns.
    let _ = r;
}

#[test]
fn linear_svr_on_a_1e150_column_returns() {
    let x = array![[1e150, 1.0], [1e150, -2.0], [1e150, 1.0], [1e150, 2.0]];
    let y = array![1.0, -1.0, 0.5, 2.0];
    let r = within(60, move || LinearSvr::default().fit(&x, &y).map(|_| ()));
    let _ = r;
}
