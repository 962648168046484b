//! Shared by the decomposition golden tests: the input matrix of a golden case.

use ndarray::{Array2, Axis, s};
use ndlearn_testkit::Case;

/// The case's `x` when it carries one; otherwise the embedded data set `dataset` (`wine_std`:
/// wine standardised with the population standard deviation, as scikit-learn's
/// `StandardScaler`), every `step`-th row of the first `rows` when those fields are present.
#[allow(dead_code)] // not every test file that shares this module reads golden cases
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

#[cfg(feature = "serde")]
/// Builds the registry entry `name` from string parameters, fits it on iris, and checks that
/// `transform` gives `k` columns and `inverse_transform` the 4 input columns again.
#[allow(dead_code)] // not every test file that shares this module builds from the registry
pub fn registry_round_trip_on_iris(name: &str, params: &[(&str, &str)], k: usize) {
    use ndlearn_core::registry::{Data, Target};
    let entries = ndlearn_decomposition::registry();
    let e = entries
        .iter()
        .find(|e| e.name() == name)
        .expect("registered");
    let params: Vec<(String, String)> = params
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect();
    let est = e.build(&params).expect("build");
    let x = ndlearn_datasets::by_name("iris").expect("iris").x().clone();
    let m = est.fit(&Data::F64(x.clone()), &Target::None).expect("fit");
    let z = m
        .transform(&Data::F64(x))
        .expect("a transformer")
        .expect("ok");
    assert_eq!(z.dim(), (150, k));
    let back = m
        .inverse_transform(&Data::F64(z))
        .expect("invertible")
        .expect("ok");
    assert_eq!(back.dim(), (150, 4));
}
