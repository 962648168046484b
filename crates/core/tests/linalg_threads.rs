//! Every facade routine on a 300 × 300 problem, run on small-stack threads (this test thread,
//! and rayon workers with 2 MiB stacks). OpenBLAS 0.3.21's parallel `getrf` overflows such stacks;
//! the facade must not crash and must still give correct answers.

use ndarray::{Array1, Array2};
use ndlearn_core::{linalg, par};
use ndlearn_testkit::max_abs_diff;

fn problem(n: usize) -> (Array2<f64>, Array2<f64>, Array1<f64>) {
    let a = Array2::from_shape_fn((n, n), |(i, j)| {
        if i == j {
            n as f64
        } else {
            ((i * 7 + j * 3) % 11) as f64 / 11.0
        }
    });
    let s = &a + &a.t();
    (a, s, Array1::ones(n))
}

fn run_all(n: usize) {
    let (a, s, b) = problem(n);
    let x = linalg::solve(&a, &b).expect("regular");
    assert!(max_abs_diff(&a.dot(&x), &b) < 1e-10);
    let xs = linalg::solve_many(&a, &s).expect("regular");
    assert!(max_abs_diff(&a.dot(&xs), &s) < 1e-9);
    let inv = linalg::inv(&a).expect("regular");
    assert!(max_abs_diff(&inv.dot(&a), &Array2::eye(n)) < 1e-10);
    let xc = linalg::cholesky_solve(&s, &b).expect("SPD");
    assert!(max_abs_diff(&s.dot(&xc), &b) < 1e-10);
    let (w, _) = linalg::eigh(&s).expect("symmetric");
    assert!(w[0] > 0.0);
    assert!(linalg::eigh_generalized(&s, &s).is_ok());
    assert_eq!(linalg::svd_thin(&a).expect("ok").s.len(), n);
    assert!(linalg::svd_full(&a).is_ok());
    let lq = linalg::lstsq(&a, &b, None).expect("ok");
    assert!(max_abs_diff(&lq.solution, &x) < 1e-10);
    assert!(max_abs_diff(&linalg::lstsq_qr(&a, &b).expect("ok"), &x) < 1e-10);
    assert!(linalg::pinv(&a, None).is_ok());
}

#[test]
fn large_problems_on_the_test_thread() {
    run_all(300);
}

#[test]
fn large_problems_on_rayon_workers() {
    let ok = par::with_threads(2, || par::map_tasks(2, |_| run_all(150))).expect("pool");
    assert_eq!(ok.len(), 2);
}
