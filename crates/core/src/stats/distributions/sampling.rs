//! The elementary samplers every distribution builds on (implementation choices; the course
//! notes do not say how to sample):
//!
//! * uniform on the open interval `(0, 1)`: `1 − U`, `U ∈ [0, 1)` from the 53-bit generator
//!   output, so a logarithm is always finite;
//! * standard normal: Box–Muller ([`crate::random::standard_normal`]);
//! * Gamma(k, 1): Marsaglia & Tsang (2000), "A simple method for generating gamma variables",
//!   ACM TOMS 26(3): with `d = k − 1/3`, `c = 1/√(9d)`, draw `Z ~ N(0, 1)`, `v = (1 + cZ)³`,
//!   accept `d·v` when `v > 0` and `ln U < Z²/2 + d(1 − v + ln v)` (with the cheap squeeze
//!   `U < 1 − 0.0331 Z⁴` first); for `k < 1`, `Gamma(k) = Gamma(k + 1)·U^{1/k}`, taken through
//!   logarithms so that tiny shapes underflow only when the result does;
//! * Beta(a, b) = `X / (X + Y)` with `X ~ Gamma(a)`, `Y ~ Gamma(b)`.

use rand::Rng as _;

use crate::random::Rng;

/// Uniform draw in `(0, 1]`.
pub(crate) fn open_uniform(rng: &mut Rng) -> f64 {
    1.0 - rng.random::<f64>()
}

/// Standard normal draw.
pub(crate) fn standard_normal(rng: &mut Rng) -> f64 {
    crate::random::standard_normal::<f64>(rng)
}

/// `ln` of a Gamma(shape, 1) draw (for shape < 1 the draw itself may underflow).
pub(crate) fn ln_standard_gamma(rng: &mut Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        // Gamma(k) = Gamma(k + 1) U^{1/k}
        let g = marsaglia_tsang(rng, shape + 1.0);
        return g.ln() + open_uniform(rng).ln() / shape;
    }
    marsaglia_tsang(rng, shape).ln()
}

/// A Gamma(shape, 1) draw, `shape > 0`.
pub(crate) fn standard_gamma(rng: &mut Rng, shape: f64) -> f64 {
    if shape < 1.0 {
        ln_standard_gamma(rng, shape).exp()
    } else {
        marsaglia_tsang(rng, shape)
    }
}

/// Marsaglia–Tsang for `shape ≥ 1`.
fn marsaglia_tsang(rng: &mut Rng, shape: f64) -> f64 {
    let d = shape - 1.0 / 3.0;
    let c = 1.0 / (9.0 * d).sqrt();
    loop {
        let z = standard_normal(rng);
        let t = 1.0 + c * z;
        if t <= 0.0 {
            continue;
        }
        let v = t * t * t;
        let u = open_uniform(rng);
        let z2 = z * z;
        if u < 1.0 - 0.0331 * z2 * z2 {
            return d * v;
        }
        if u.ln() < 0.5 * z2 + d * (1.0 - v + v.ln()) {
            return d * v;
        }
    }
}

/// A Beta(a, b) draw.
pub(crate) fn beta_draw(rng: &mut Rng, a: f64, b: f64) -> f64 {
    if a < 1.0 || b < 1.0 {
        // ratio in log space: X/(X + Y) = 1/(1 + exp(ln Y − ln X))
        let lx = ln_standard_gamma(rng, a);
        let ly = ln_standard_gamma(rng, b);
        return 1.0 / (1.0 + (ly - lx).exp());
    }
    let x = marsaglia_tsang(rng, a);
    let y = marsaglia_tsang(rng, b);
    x / (x + y)
}
