//! Shared helpers of the cluster golden tests.

#![allow(dead_code)]

use ndarray::Array2;
use ndlearn_testkit::Case;

/// The case's data: its stored `x`, else the embedded data set named by `dataset` (a `_std`
/// suffix means standardised with the population standard deviation, as the generators do).
pub fn data(case: &Case) -> Array2<f64> {
    if case.has("x") {
        return case.matrix("x");
    }
    let name = case.string("dataset");
    let (base, std) = match name.strip_suffix("_std") {
        Some(b) => (b, true),
        None => (name, false),
    };
    let x = ndlearn_datasets::by_name(base)
        .expect("embedded data set")
        .x()
        .clone();
    if !std {
        return x;
    }
    let mean = x.mean_axis(ndarray::Axis(0)).expect("rows");
    let sd = x.std_axis(ndarray::Axis(0), 0.0);
    (&x - &mean) / &sd
}
