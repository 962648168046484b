//! Support vector machines: an RBF SVC grid over C and gamma on scaled breast-cancer data.
//!
//! `cargo run --example svm`

use ndlearn::model_selection::{GridSearchCV, ParamGrid, ParamPoint, Scorer, StratifiedKFold};
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;
use ndlearn::svm::Gamma;

fn main() -> Result<()> {
    let d = ndlearn::datasets::breast_cancer();
    let (x, y) = (d.x(), d.y_classes().expect("labels"));
    let x = StandardScaler::new().fit(x)?.transform(x)?;
    let grid = ParamGrid::new()
        .param("C", vec![0.1, 1.0, 10.0])
        .param("gamma", vec![0.003, 0.03]);
    let build = |p: &ParamPoint| -> Result<Svc> {
        Ok(Svc::default()
            .c(p.value("C")?)
            .gamma(Gamma::Value(p.value("gamma")?)))
    };
    let search = GridSearchCV::new(StratifiedKFold::new(5)).fit_grid(
        &grid,
        build,
        &x,
        y,
        Scorer::Accuracy.for_decision()?,
    )?;
    println!(
        "best {} with 5-fold accuracy {:.4}",
        search
            .best_params()
            .map(|p| p.to_string())
            .unwrap_or_default(),
        search.best_score
    );
    Ok(())
}
