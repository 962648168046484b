//! The whole workflow on a CSV file: load → pipeline (scaler + model) → cross-validation with a
//! named scorer → grid search over a step parameter → save → load → predict.
//!
//! `cargo run --example pipeline_workflow [-- FILE.csv]` (default: the embedded breast-cancer
//! data written to a temporary CSV; the last column is the class label).

use ndlearn::datasets::{CsvOptions, TargetColumn, TaskHint};
use ndlearn::linear::LogisticRegression;
use ndlearn::model_selection::{GridSearchCV, ParamGrid, ParamPoint, StratifiedKFold};
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

fn main() -> Result<()> {
    let path = match std::env::args().nth(1) {
        Some(p) => std::path::PathBuf::from(p),
        None => write_example_csv()?,
    };
    let data = ndlearn::datasets::load_csv(
        &path,
        &CsvOptions::default()
            .target(TargetColumn::Last)
            .task(TaskHint::Classification),
    )?;
    let (x, y) = (data.x(), data.y_classes().expect("class labels"));
    println!(
        "{}: {} rows × {} features",
        path.display(),
        x.nrows(),
        x.ncols()
    );

    // Scaling inside the pipeline is refitted on every training fold: no leakage.
    let pipe = Pipeline::new((StandardScaler::new(),), LogisticRegression::default());
    let cv = StratifiedKFold::new(5);
    let auc = Scorer::RocAuc.for_proba_and_decision()?;
    let scores = cross_val_score(&pipe, x, y, &cv, auc)?;
    println!(
        "5-fold ROC AUC: {:.4} (folds {scores:.4})",
        scores.mean().unwrap_or(f64::NAN)
    );

    // A grid over the final step's C (scikit-learn's `logistic_regression__C`).
    let grid = ParamGrid::new().param("logistic_regression__C", vec![0.01, 0.1, 1.0, 10.0]);
    let build = |p: &ParamPoint| pipe.with_params(p);
    let search = GridSearchCV::new(cv).fit_grid(&grid, build, x, y, auc)?;
    println!(
        "best C = {} (mean AUC {:.4})",
        search.best_candidate().estimator.c,
        search.best_score
    );

    // Save the refitted best pipeline as JSON, load it back, predict.
    let best = search.best_model().expect("refit is on by default");
    let json =
        serde_json::to_string(best).map_err(|e| Error::invalid_param("model", e.to_string()))?;
    let file = std::env::temp_dir().join("ndlearn_pipeline_example.json");
    std::fs::write(&file, &json).map_err(|e| Error::invalid_param("model", e.to_string()))?;
    let text =
        std::fs::read_to_string(&file).map_err(|e| Error::invalid_param("model", e.to_string()))?;
    let loaded: <Pipeline<(StandardScaler,), LogisticRegression> as Fit<f64>>::Model =
        serde_json::from_str(&text).map_err(|e| Error::invalid_param("model", e.to_string()))?;
    assert_eq!(loaded.predict(x)?, best.predict(x)?);
    println!(
        "saved {} bytes to {}, loaded, same predictions",
        json.len(),
        file.display()
    );
    Ok(())
}

fn write_example_csv() -> Result<std::path::PathBuf> {
    let d = ndlearn::datasets::breast_cancer();
    let y = d.y_classes().expect("labels").mapv(|k| k as f64);
    let mut table = Array2::zeros((d.x().nrows(), d.x().ncols() + 1));
    table.slice_mut(s![.., ..d.x().ncols()]).assign(d.x());
    table.column_mut(d.x().ncols()).assign(&y);
    let mut header: Vec<String> = d.feature_names().to_vec();
    header.push("target".into());
    let path = std::env::temp_dir().join("ndlearn_breast_cancer.csv");
    ndlearn::datasets::write_csv(&path, &header, &table)?;
    Ok(path)
}
