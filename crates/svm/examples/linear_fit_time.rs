//! Fit times of `LinearSvc` on standardised breast_cancer for each solver (compare with
//! scikit-learn's `LinearSVC` on the same data): `cargo run --release -p ndlearn-svm --example
//! linear_fit_time`.

use std::time::Instant;

use ndlearn_core::Fit;
use ndlearn_svm::{Dual, LinearSvc, Penalty, SvcLoss};

fn main() -> Result<(), ndlearn_core::Error> {
    let data = ndlearn_datasets::breast_cancer();
    let y = data.y_classes().expect("labels");
    let x = data.x();
    let mean = x.mean_axis(ndarray::Axis(0)).expect("rows");
    let sd = x
        .std_axis(ndarray::Axis(0), 0.0)
        .mapv(|s| if s == 0.0 { 1.0 } else { s });
    let xs = (x - &mean) / &sd;
    for (name, est) in [
        ("default (primal TRON)", LinearSvc::default()),
        ("dual L2-loss", LinearSvc::default().dual(Dual::Dual)),
        (
            "dual hinge",
            LinearSvc::default().loss(SvcLoss::Hinge).max_iter(100_000),
        ),
        ("L1 penalty", LinearSvc::default().penalty(Penalty::L1)),
    ] {
        let reps = 50;
        let t = Instant::now();
        let mut n_iter = 0;
        for _ in 0..reps {
            n_iter = est.fit(&xs, y)?.n_iter();
        }
        let ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
        println!("{name:>24}: {ms:8.3} ms per fit ({n_iter} iterations)");
    }
    Ok(())
}
