//! Seeded synthetic data generators, after scikit-learn's `sklearn.datasets.make_*`.
//!
//! | generator | output | scikit-learn |
//! |---|---|---|
//! | [`MakeBlobs`] | isotropic Gaussian clusters: [`Blobs`] (`x`, `y`, `centers`) | `make_blobs` |
//! | [`MakeClassification`] | Guyon's hypercube classification problem: `(x, y)` | `make_classification` |
//! | [`MakeRegression`] | sparse linear model `y = X w + b + ε`: `(x, y)` or `(x, y, w)` | `make_regression` |
//! | [`MakeLowRankMatrix`] | a matrix with a bell-shaped singular spectrum | `make_low_rank_matrix` |
//! | [`MakeMoons`] | two interleaving half circles: `(x, y)` | `make_moons` |
//! | [`MakeCircles`] | two concentric circles: `(x, y)` | `make_circles` |
//!
//! Every generator is an options struct (`#[non_exhaustive]`, public fields, consuming setters,
//! [`Default`] = scikit-learn's defaults, a `validate()` that `generate()` calls first) whose
//! `generate()` returns `Result`. Classification labels are `usize` in `0..n_classes`.
//!
//! # Determinism
//!
//! All randomness comes from [`ndlearn_core::random::stream`]`(seed, i)` for a few fixed task
//! indices `i`, so a seed gives bitwise-identical output on every platform and run (the
//! generator algorithm is pinned by `Cargo.lock`). `seed` replaces scikit-learn's
//! `random_state` and defaults to 0; there is no "fresh entropy" mode. The values differ from
//! scikit-learn's for the same seed (a different random generator), the distributions are the
//! same.

mod blobs;
mod classification;
mod regression;
mod shapes;

pub use blobs::{Blobs, Centers, ClusterStd, MakeBlobs};
pub use classification::{MakeClassification, PerFeature};
pub use regression::{MakeLowRankMatrix, MakeRegression};
pub use shapes::{MakeCircles, MakeMoons};

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::random::{Rng, permutation, standard_normal, uniform};

/// Task indices of the random streams, so that independent parts of a generator do not shift
/// each other's draws (e.g. `flip_y` changes only `y`).
pub(crate) mod streams {
    /// Construction of the samples.
    pub const DATA: u64 = 0;
    /// Label noise.
    pub const FLIP: u64 = 1;
    /// Row and column permutations.
    pub const SHUFFLE: u64 = 2;
    /// Additive Gaussian noise.
    pub const NOISE: u64 = 3;
}

/// `rows × cols` standard normal draws in row-major order.
pub(crate) fn normal_matrix(rng: &mut Rng, rows: usize, cols: usize) -> Array2<f64> {
    Array2::from_shape_simple_fn((rows, cols), || standard_normal(rng))
}

/// `rows × cols` uniform draws in `[lo, hi)`, row-major order.
pub(crate) fn uniform_matrix(
    rng: &mut Rng,
    rows: usize,
    cols: usize,
    lo: f64,
    hi: f64,
) -> Array2<f64> {
    Array2::from_shape_simple_fn((rows, cols), || uniform(rng, lo, hi))
}

/// Applies one random permutation to the rows of `x` and the entries of `y`.
pub(crate) fn shuffle_rows<T: Clone>(
    rng: &mut Rng,
    x: &Array2<f64>,
    y: &Array1<T>,
) -> (Array2<f64>, Array1<T>) {
    let perm = permutation(rng, x.nrows());
    (x.select(Axis(0), &perm), y.select(Axis(0), &perm))
}

/// `n` evenly spaced points from `start` to `stop`; `stop` itself is the last point when
/// `endpoint` is true (exactly, as NumPy's `linspace`), excluded otherwise.
pub(crate) fn linspace(start: f64, stop: f64, n: usize, endpoint: bool) -> Vec<f64> {
    let div = if endpoint { n.saturating_sub(1) } else { n };
    if div == 0 {
        return vec![start; n];
    }
    let step = (stop - start) / div as f64;
    let mut v: Vec<f64> = (0..n).map(|i| start + step * i as f64).collect();
    if endpoint {
        if let Some(last) = v.last_mut() {
            *last = stop;
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linspace_matches_numpy_conventions() {
        assert_eq!(linspace(0.0, 1.0, 5, true), [0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(linspace(0.0, 1.0, 4, false), [0.0, 0.25, 0.5, 0.75]);
        assert_eq!(linspace(2.0, 3.0, 1, true), [2.0]);
        assert_eq!(linspace(2.0, 3.0, 1, false), [2.0]);
        assert!(linspace(0.0, 1.0, 0, true).is_empty());
        assert_eq!(
            linspace(0.0, std::f64::consts::PI, 7, true)[6],
            std::f64::consts::PI
        );
    }

    #[test]
    fn shuffle_keeps_pairs() {
        let mut r = ndlearn_core::random::rng(1);
        let x = Array2::from_shape_fn((20, 2), |(i, j)| (i * 10 + j) as f64);
        let y = Array1::from_shape_fn(20, |i| i);
        let (xs, ys) = shuffle_rows(&mut r, &x, &y);
        for (row, &k) in xs.rows().into_iter().zip(ys.iter()) {
            assert_eq!(row, x.row(k));
        }
        assert_ne!(ys, y);
    }
}
