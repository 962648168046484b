//! Quick start: split, scale and classify through a `Pipeline`, score by name.
//!
//! `cargo run --example quickstart`

use ndlearn::model_selection::{SplitSize, TrainTestSplit};
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

fn main() -> Result<()> {
    let data = ndlearn::datasets::breast_cancer();
    let y = data.y_classes().expect("class labels");
    let split = TrainTestSplit::new()
        .test_size(SplitSize::Fraction(0.25))
        .seed(0);
    let part = split.split_stratified(y)?.apply(data.x(), y)?;

    // A scaler fitted on the training rows only, then an RBF support vector machine.
    let model = Pipeline::new((StandardScaler::new(),), Svc::default())
        .fit(&part.x_train, &part.y_train)?;
    let accuracy = Scorer::Accuracy.for_labels()?;
    println!(
        "SVC on breast cancer: held-out accuracy {:.3} ({} test rows)",
        accuracy(&model, &part.x_test, &part.y_test)?,
        part.y_test.len()
    );
    Ok(())
}
