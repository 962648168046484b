//! Whatever `fit` accepts must pass the model's own `CheckModel` when read back through
//! `Entry::load`, for every registered estimator: on iris, and on finite values at the
//! floating-point limits (with and without huge weights), where a fit may fail but must
//! never produce a model that its own check then refuses.

use ndarray::{Array1, Array2, array};
use ndlearn_core::registry::{Data, Kind, Precision, Target};

/// Fits every registered estimator with its defaults on `x` and reads the model back through
/// [`Entry::load`]: whatever `fit` accepts must pass its `CheckModel`. (A non-finite float
/// is written as JSON `null`, which does not parse back: those files fail before the check.)
fn fitted_models_load_back(
    x: &Array2<f64>,
    labels: &Array1<usize>,
    values: &Array1<f64>,
    weights: Option<&Array1<f64>>,
    must_fit: bool,
) {
    let mut failures = Vec::new();
    for entry in ndlearn_fuzz::entries() {
        for precision in [Precision::F64, Precision::F32] {
            let target = match entry.kind() {
                Kind::Classifier => Target::Labels(labels.clone()),
                Kind::Regressor => Target::Values(values.clone()),
                _ => Target::None,
            };
            let est = entry.build(&[]).expect("defaults");
            // Category codes for the estimators that need them, as the battery prepares.
            let xe = if entry.capabilities().categorical_input {
                x.mapv(|v| (v.abs() * 1.5).round() % 5.0)
            } else {
                x.clone()
            };
            let data = Data::F64(xe).with_precision(precision);
            let loaded = est
                .fit_weighted(&data, &target, weights)
                .and_then(|model| entry.load(precision, model.to_json()?));
            match loaded {
                Ok(_) => {}
                Err(e @ ndlearn_core::Error::InvalidModel { .. }) => {
                    failures.push(format!("{} ({precision:?}): {e}", entry.name()));
                }
                Err(e) if must_fit => {
                    failures.push(format!("{} ({precision:?}): {e}", entry.name()));
                }
                Err(_) => {}
            }
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

#[test]
fn every_fitted_model_passes_its_check_on_iris_and_near_the_float_limits() {
    let data = ndlearn_datasets::iris();
    let x = data.x().to_owned();
    let labels = data.y_classes().expect("labels").to_owned();
    let values = x.column(0).to_owned() + x.column(3);
    fitted_models_load_back(&x, &labels, &values, None, true);
    // extreme but finite values: sums, products and ranges overflow
    let big = f64::MAX;
    let x = array![
        [big, 1.0],
        [-big, 1e-300],
        [1e300, -1e300],
        [big, 0.0],
        [0.5, big],
        [-1e300, -big],
    ];
    let labels = array![0usize, 1, 0, 1, 1, 0];
    let values = array![big, big, -big, 1e300, 0.0, -1e300];
    fitted_models_load_back(&x, &labels, &values, None, false);
    let weights = array![big, 1.0, big, 1e300, 1e-300, 2.0];
    fitted_models_load_back(&x, &labels, &values, Some(&weights), false);
}
