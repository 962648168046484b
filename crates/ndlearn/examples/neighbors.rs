//! k-nearest neighbours on digits for several k.
//!
//! `cargo run --example neighbors`

use ndlearn::model_selection::{Scorer, StratifiedKFold, cross_val_score};
use ndlearn::neighbors::KNeighborsClassifier;

fn main() -> ndlearn::Result<()> {
    let d = ndlearn::datasets::digits();
    let (x, y) = (d.x(), d.y_classes().expect("labels"));
    for k in [1, 5, 15] {
        let knn = KNeighborsClassifier::default().n_neighbors(k);
        let s = cross_val_score(
            &knn,
            x,
            y,
            &StratifiedKFold::new(3),
            Scorer::Accuracy.for_proba()?,
        )?;
        println!(
            "k = {k:<2} 3-fold accuracy {:.4}",
            s.mean().unwrap_or(f64::NAN)
        );
    }
    Ok(())
}
