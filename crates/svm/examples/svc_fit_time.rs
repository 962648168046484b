//! Fit and predict times of `Svc` (RBF, `C = 1`, `gamma = "scale"`) on digits, with one thread
//! and with the whole pool: `cargo run --release -p ndlearn-svm --example svc_fit_time`
//! (compare with scikit-learn's `SVC()` on the same data; the benchmark runner does both).

use std::time::Instant;

use ndlearn_core::{Fit, Predict};
use ndlearn_svm::Svc;

fn main() -> Result<(), ndlearn_core::Error> {
    let data = ndlearn_datasets::digits();
    let y = data.y_classes().expect("labels");
    let x = data.x();
    for threads in [1, 0] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("pool");
        let (fit_ms, predict_ms, acc) = pool.install(|| -> Result<_, ndlearn_core::Error> {
            let reps = 10;
            let t = Instant::now();
            let mut model = Svc::default().fit(x, y)?;
            for _ in 1..reps {
                model = Svc::default().fit(x, y)?;
            }
            let fit_ms = t.elapsed().as_secs_f64() * 1e3 / reps as f64;
            let t = Instant::now();
            let pred = model.predict(x)?;
            let predict_ms = t.elapsed().as_secs_f64() * 1e3;
            let acc = pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64;
            Ok((fit_ms, predict_ms, acc))
        })?;
        println!(
            "{} thread(s): fit {fit_ms:8.2} ms, predict {predict_ms:8.2} ms, accuracy {acc:.4}",
            pool.current_num_threads()
        );
    }
    Ok(())
}
