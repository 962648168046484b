//! Trees and ensembles: a random forest and histogram gradient boosting on breast cancer, with
//! feature importances.
//!
//! `cargo run --example tree`

use ndlearn::model_selection::{Scorer, StratifiedKFold, cross_val_score};
use ndlearn::prelude::*;

fn main() -> Result<()> {
    let d = ndlearn::datasets::breast_cancer();
    let (x, y) = (d.x(), d.y_classes().expect("labels"));
    let cv = StratifiedKFold::new(5);
    let auc = Scorer::RocAuc.for_proba()?;
    let forest = RandomForestClassifier::default().n_estimators(100).seed(0);
    let s = cross_val_score(&forest, x, y, &cv, auc)?;
    println!(
        "random forest     5-fold ROC AUC {:.4}",
        s.mean().unwrap_or(f64::NAN)
    );
    let hgb = HistGradientBoostingClassifier::default();
    let s = cross_val_score(&hgb, x, y, &cv, Scorer::RocAuc.for_proba()?)?;
    println!(
        "hist GBDT         5-fold ROC AUC {:.4}",
        s.mean().unwrap_or(f64::NAN)
    );
    let fitted = forest.fit(x, y)?;
    let imp = fitted.feature_importances();
    let mut order: Vec<usize> = (0..imp.len()).collect();
    order.sort_by(|&a, &b| imp[b].total_cmp(&imp[a]));
    for &j in &order[..3] {
        println!("  {:<24} importance {:.3}", d.feature_names()[j], imp[j]);
    }
    Ok(())
}
