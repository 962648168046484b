//! Wall-clock fit times of gradient boosting (100 stages of depth-3 trees, scikit-learn's
//! defaults) on generated 20,000 × 20 data — the size of the benchmark suite's `*_20k` sets —
//! for side-by-side runs with scikit-learn on the same CSV files.
//!
//! ```text
//! cargo run --release -p ndlearn-tree --example gb_fit_time -- [n_rows] [out_dir]
//! ```
//!
//! With `out_dir` the two data sets are also written there as CSV (features, then `target`),
//! with ndlearn's training-set predictions (`gb_regression_pred.csv`: predictions;
//! `gb_classification_pred.csv`: the three raw scores per row) for a comparison with
//! scikit-learn's.

use std::io::Write;
use std::time::Instant;

use ndarray::{Array1, Array2};
use ndlearn_core::{DecisionFunction, Fit, Predict};
use ndlearn_tree::{GradientBoostingClassifier, GradientBoostingRegressor};

fn write_csv(path: &std::path::Path, x: &Array2<f64>, y: &Array1<f64>) -> std::io::Result<()> {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    let head: Vec<String> = (0..x.ncols()).map(|j| format!("x{j}")).collect();
    writeln!(f, "{},target", head.join(","))?;
    for (r, t) in x.rows().into_iter().zip(y) {
        let cells: Vec<String> = r.iter().map(|v| format!("{v:.9e}")).collect();
        writeln!(f, "{},{t:.17e}", cells.join(","))?;
    }
    Ok(())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let write_rows = |path: std::path::PathBuf, m: &Array2<f64>| -> std::io::Result<()> {
        let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
        for r in m.rows() {
            let cells: Vec<String> = r.iter().map(|v| format!("{v:.17e}")).collect();
            writeln!(f, "{}", cells.join(","))?;
        }
        Ok(())
    };
    let mut args = std::env::args().skip(1);
    let n: usize = args.next().map_or(Ok(20_000), |s| s.parse())?;
    let out = args.next();
    let d = 20;
    let mut s = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64 - 0.5
    };
    // float32-representable features, so scikit-learn sees the same values.
    let x = Array2::from_shape_fn((n, d), |_| f64::from(next() as f32));
    let w: Vec<f64> = (0..d).map(|_| next()).collect();
    let score = |i: usize, shift: usize| -> f64 {
        (0..d).map(|j| x[[i, j]] * w[(j + shift) % d]).sum::<f64>()
    };
    let yr = Array1::from_shape_fn(n, |i| score(i, 0) + (3.0 * x[[i, 1]]).sin() + 0.1 * next());
    let yc = Array1::from_shape_fn(n, |i| {
        let z = [score(i, 0), score(i, 1), score(i, 2)];
        (0..3).fold(0, |b, k| if z[k] > z[b] { k } else { b })
    });
    if let Some(dir) = &out {
        let dir = std::path::Path::new(dir);
        write_csv(&dir.join("gb_regression.csv"), &x, &yr)?;
        write_csv(
            &dir.join("gb_classification.csv"),
            &x,
            &yc.mapv(|c| c as f64),
        )?;
    }
    let t = Instant::now();
    let reg = GradientBoostingRegressor::default().fit(&x, &yr)?;
    let fit = t.elapsed().as_secs_f64();
    let mse = (&reg.predict(&x)? - &yr)
        .mapv(|r| r * r)
        .mean()
        .unwrap_or(0.0);
    println!("regressor ({n} x {d}, 100 stages): fit {fit:.2} s, train MSE {mse:.4}");
    let t = Instant::now();
    let clf = GradientBoostingClassifier::default().fit(&x, &yc)?;
    let fit = t.elapsed().as_secs_f64();
    let acc = clf
        .predict(&x)?
        .iter()
        .zip(&yc)
        .filter(|(p, q)| p == q)
        .count() as f64
        / n as f64;
    println!(
        "classifier ({n} x {d}, 3 classes, 300 trees): fit {fit:.2} s, train accuracy {acc:.4}"
    );
    if let Some(dir) = &out {
        let dir = std::path::Path::new(dir);
        let pred = reg.predict(&x)?.insert_axis(ndarray::Axis(1));
        write_rows(dir.join("gb_regression_pred.csv"), &pred)?;
        write_rows(
            dir.join("gb_classification_pred.csv"),
            &clf.decision_function(&x)?,
        )?;
    }
    Ok(())
}
