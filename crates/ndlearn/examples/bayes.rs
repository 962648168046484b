//! Naive Bayes and discriminant analysis on wine, scored by log loss.
//!
//! `cargo run --example bayes`

use ndlearn::bayes::{GaussianNB, LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis};
use ndlearn::model_selection::{Scorer, StratifiedKFold, cross_val_score};
use ndlearn::prelude::*;

fn main() -> Result<()> {
    let d = ndlearn::datasets::wine();
    let (x, y) = (d.x(), d.y_classes().expect("labels"));
    let cv = StratifiedKFold::new(5);
    let nb = cross_val_score(
        &GaussianNB::default(),
        x,
        y,
        &cv,
        Scorer::NegLogLoss.for_proba()?,
    )?;
    let lda = cross_val_score(
        &LinearDiscriminantAnalysis::default(),
        x,
        y,
        &cv,
        Scorer::NegLogLoss.for_proba()?,
    )?;
    let qda = cross_val_score(
        &QuadraticDiscriminantAnalysis::default(),
        x,
        y,
        &cv,
        Scorer::Accuracy.for_labels()?,
    )?;
    println!(
        "GaussianNB  5-fold log loss {:.4}",
        -nb.mean().unwrap_or(f64::NAN)
    );
    println!(
        "LDA         5-fold log loss {:.4}",
        -lda.mean().unwrap_or(f64::NAN)
    );
    println!(
        "QDA         5-fold accuracy {:.4}",
        qda.mean().unwrap_or(f64::NAN)
    );
    Ok(())
}
