//! A multilayer perceptron on scaled digits.
//!
//! `cargo run --example neural`

use ndlearn::model_selection::{SplitSize, TrainTestSplit};
use ndlearn::prelude::*;
use ndlearn::preprocessing::StandardScaler;

fn main() -> Result<()> {
    let d = ndlearn::datasets::digits();
    let y = d.y_classes().expect("labels");
    let part = TrainTestSplit::new()
        .test_size(SplitSize::Fraction(0.25))
        .seed(1)
        .split_stratified(y)?
        .apply(d.x(), y)?;
    let mlp = Pipeline::new(
        (StandardScaler::new(),),
        MLPClassifier::default().max_iter(200).seed(0),
    );
    let model = mlp.fit(&part.x_train, &part.y_train)?;
    let acc = Scorer::Accuracy.for_proba()?(&model, &part.x_test, &part.y_test)?;
    println!("MLP (100 ReLU units, Adam) on digits: held-out accuracy {acc:.4}");
    Ok(())
}
