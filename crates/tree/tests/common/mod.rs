//! Shared test data of the tree crate's property tests.

use ndarray::{Array1, Array2};

/// `n × d` values uniform in `[-2, 2)` from a small deterministic generator (continuous values:
/// equal-gain ties have probability ~0), a 3-class target from two thresholds and a regression
/// target `x₀² + sin(2 x₁) + noise · U[0, 1)`.
pub fn data(
    seed: u64,
    n: usize,
    d: usize,
    noise: f64,
) -> (Array2<f64>, Array1<usize>, Array1<f64>) {
    let mut s = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
    let mut next = || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 11) as f64 / (1u64 << 53) as f64
    };
    let x = Array2::from_shape_fn((n, d), |_| next() * 4.0 - 2.0);
    let yc: Array1<usize> = x
        .rows()
        .into_iter()
        .map(|r| usize::from(r[0] + 0.5 * r[1 % d] > 0.0) + usize::from(r[d - 1] > 1.0))
        .collect();
    let yr: Array1<f64> = x
        .rows()
        .into_iter()
        .map(|r| r[0] * r[0] + (2.0 * r[1 % d]).sin() + noise * next())
        .collect();
    (x, yc, yr)
}
