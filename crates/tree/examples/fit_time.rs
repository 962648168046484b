//! Wall-clock fit and predict times of a decision tree and a small random forest on a CSV file
//! (features, then a `target` column of class labels), for side-by-side runs with
//! scikit-learn on the same file.
//!
//! ```text
//! cargo run --release -p ndlearn-tree --example fit_time -- data.csv [n_trees]
//! ```

use std::time::Instant;

use ndlearn_core::{Fit, Predict};
use ndlearn_datasets::{CsvOptions, load_csv};
use ndlearn_tree::{DecisionTreeClassifier, RandomForestClassifier};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: fit_time data.csv [n_trees]")?;
    let n_trees: usize = args.next().map_or(Ok(20), |s| s.parse())?;
    let data = load_csv(&path, &CsvOptions::default())?;
    let x = data.x();
    let y = data.y_classes().ok_or("the target must be class labels")?;
    let t = Instant::now();
    let tree = DecisionTreeClassifier::default().fit(x, y)?;
    let fit = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let pred = tree.predict(x)?;
    let predict = t.elapsed().as_secs_f64();
    let acc = pred.iter().zip(y).filter(|(p, q)| p == q).count() as f64 / y.len() as f64;
    println!(
        "decision tree: fit {fit:.3} s, predict {predict:.3} s, {} leaves, train accuracy {acc:.4}",
        tree.get_n_leaves()
    );
    let t = Instant::now();
    let forest = RandomForestClassifier::default()
        .n_estimators(n_trees)
        .fit(x, y)?;
    let fit = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let _ = forest.predict(x)?;
    println!(
        "random forest ({n_trees} trees): fit {fit:.3} s, predict {:.3} s",
        t.elapsed().as_secs_f64()
    );
    Ok(())
}
