//! Shared by the decomposition golden tests: the input matrix of a golden case.

use ndarray::{Array2, Axis, s};
use ndlearn_testkit::Case;

/// The case's `x` when it carries one; otherwise the embedded data set `dataset` (`wine_std`:
/// wine standardised with the population standard deviation, as scikit-learn's
/// `StandardScaler`), every `step`-th row of the first `rows` when those fields are present.
pub fn data(case: &Case) -> Array2<f64> {
    if case.has("x") {
        return case.matrix("x");
    }
    let name = case.string("dataset");
    let x = if name == "wine_std" {
        let x = ndlearn_datasets::by_name("wine").expect("wine").x().clone();
        let mean = x.mean_axis(Axis(0)).expect("rows");
        let sd = x.std_axis(Axis(0), 0.0);
        (x - &mean) / &sd
    } else {
        ndlearn_datasets::by_name(name)
            .expect("embedded data set")
            .x()
            .clone()
    };
    let step = if case.has("step") {
        case.usize("step")
    } else {
        1
    };
    let rows = if case.has("rows") {
        case.usize("rows")
    } else {
        x.nrows()
    };
    x.slice(s![..rows;step, ..]).to_owned()
}
