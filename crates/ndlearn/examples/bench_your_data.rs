//! Benchmark estimators on your own CSV file: fit and predict times and a held-out score.
//!
//! `cargo run --release --example bench_your_data -- FILE.csv [classification|regression]`
//! (default: the embedded digits data, classification). The last column is the target. Build
//! with `--release`: debug builds are many times slower.

use std::time::Instant;

use ndlearn::datasets::{CsvOptions, TargetColumn, TaskHint};
use ndlearn::model_selection::{SplitSize, TrainTestSplit};
use ndlearn::prelude::*;

fn time<T>(f: impl FnOnce() -> Result<T>) -> Result<(T, f64)> {
    let t = Instant::now();
    let out = f()?;
    Ok((out, t.elapsed().as_secs_f64()))
}

fn main() -> Result<()> {
    let mut args = std::env::args().skip(1);
    let (data, task) = match args.next() {
        Some(path) => {
            let regression = args.next().as_deref() == Some("regression");
            let task = if regression {
                TaskHint::Regression
            } else {
                TaskHint::Classification
            };
            let opts = CsvOptions::default().target(TargetColumn::Last).task(task);
            (ndlearn::datasets::load_csv(&path, &opts)?, task)
        }
        None => (
            ndlearn::datasets::digits().clone(),
            TaskHint::Classification,
        ),
    };
    let x = data.x();
    println!(
        "{}: {} rows × {} features",
        data.name(),
        x.nrows(),
        x.ncols()
    );
    let split = TrainTestSplit::new()
        .test_size(SplitSize::Fraction(0.25))
        .seed(0);
    if task == TaskHint::Regression {
        let y = data.y_values().expect("a numeric target");
        let p = split.split(x.nrows())?.apply(x, y)?;
        let r2 = Scorer::R2.for_regressor()?;
        let (m, fit) = time(|| Ridge::default().fit(&p.x_train, &p.y_train))?;
        let (s, pred) = time(|| r2(&m, &p.x_test, &p.y_test))?;
        println!(
            "{:<28} fit {fit:>8.4} s  score {pred:>8.4} s  R² {s:.4}",
            "ridge"
        );
        let (m, fit) =
            time(|| HistGradientBoostingRegressor::default().fit(&p.x_train, &p.y_train))?;
        let r2 = Scorer::R2.for_regressor()?;
        let (s, pred) = time(|| r2(&m, &p.x_test, &p.y_test))?;
        println!(
            "{:<28} fit {fit:>8.4} s  score {pred:>8.4} s  R² {s:.4}",
            "hist_gradient_boosting"
        );
    } else {
        let y = data.y_classes().expect("class labels");
        let p = split.split_stratified(y)?.apply(x, y)?;
        macro_rules! bench {
            ($name:expr, $est:expr) => {{
                let acc = Scorer::Accuracy.for_labels()?;
                let (m, fit) = time(|| $est.fit(&p.x_train, &p.y_train))?;
                let (s, pred) = time(|| acc(&m, &p.x_test, &p.y_test))?;
                println!(
                    "{:<28} fit {fit:>8.4} s  score {pred:>8.4} s  accuracy {s:.4}",
                    $name
                );
            }};
        }
        bench!(
            "logistic_regression",
            LogisticRegression::default().max_iter(1000)
        );
        bench!("gaussian_nb", GaussianNB::default());
        bench!("k_neighbors_classifier", KNeighborsClassifier::default());
        bench!(
            "random_forest_classifier",
            RandomForestClassifier::default()
        );
        bench!(
            "hist_gradient_boosting",
            HistGradientBoostingClassifier::default()
        );
    }
    Ok(())
}
