//! Two-dimensional toy shapes: moons and circles (scikit-learn's `make_moons`,
//! `make_circles`).

use std::f64::consts::PI;

use ndarray::{Array1, Array2};
use ndlearn_core::random::stream;
use ndlearn_core::validate::{check_at_least, check_non_negative};
use ndlearn_core::{Error, Result};

use super::{linspace, normal_matrix, shuffle_rows, streams};

/// Stacks the points of two classes (`outer` → label 0, `inner` → label 1), then shuffles and
/// adds noise as scikit-learn does (shuffle first, noise second).
fn finish(
    outer: Vec<(f64, f64)>,
    inner: Vec<(f64, f64)>,
    shuffle: bool,
    noise: f64,
    seed: u64,
) -> (Array2<f64>, Array1<usize>) {
    let n = outer.len() + inner.len();
    let mut x = Array2::<f64>::zeros((n, 2));
    for (i, (a, b)) in outer.iter().chain(inner.iter()).enumerate() {
        x[[i, 0]] = *a;
        x[[i, 1]] = *b;
    }
    let mut y = Array1::from_shape_fn(n, |i| usize::from(i >= outer.len()));
    if shuffle {
        let mut srng = stream(seed, streams::SHUFFLE);
        (x, y) = shuffle_rows(&mut srng, &x, &y);
    }
    if noise > 0.0 {
        let mut nrng = stream(seed, streams::NOISE);
        x.scaled_add(noise, &normal_matrix(&mut nrng, n, 2));
    }
    (x, y)
}

/// Two interleaving half circles (scikit-learn's `make_moons`).
///
/// Class 0 (`n_samples / 2` points, rounded down) lies on the upper half of the unit circle,
/// `(cos t, sin t)` for `t` evenly spaced in `[0, π]`; class 1 (the rest) on the lower half circle
/// centred at `(1, 0.5)`, `(1 − cos t, 0.5 − sin t)`. With `shuffle` the rows are permuted;
/// then Gaussian noise with standard deviation `noise` is added to every coordinate.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 (a `(n_out, n_in)` pair is not supported) |
/// | `noise` | 0.0 | `noise` (`None`) | finite, ≥ 0 |
/// | `shuffle` | `true` | `shuffle` | |
/// | `seed` | 0 | `random_state` | any |
///
/// ```
/// use ndlearn_datasets::MakeMoons;
///
/// let (x, y) = MakeMoons::default().n_samples(200).noise(0.1).seed(3).generate()?;
/// assert_eq!(x.dim(), (200, 2));
/// assert_eq!(y.iter().filter(|&&c| c == 1).count(), 100);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_moons")]
pub struct MakeMoons {
    /// Total number of points.
    pub n_samples: usize,
    /// Standard deviation of the Gaussian noise (0 = none).
    pub noise: f64,
    /// Whether to permute the rows.
    pub shuffle: bool,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeMoons {
    fn default() -> Self {
        Self {
            n_samples: 100,
            noise: 0.0,
            shuffle: true,
            seed: 0,
        }
    }
}

impl MakeMoons {
    /// Sets `n_samples`.
    pub fn n_samples(mut self, v: usize) -> Self {
        self.n_samples = v;
        self
    }
    /// Sets `noise`.
    pub fn noise(mut self, v: f64) -> Self {
        self.noise = v;
        self
    }
    /// Sets `shuffle`.
    pub fn shuffle(mut self, v: bool) -> Self {
        self.shuffle = v;
        self
    }
    /// Sets `seed`.
    pub fn seed(mut self, v: u64) -> Self {
        self.seed = v;
        self
    }

    /// Checks every field (see the table on [`MakeMoons`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        check_non_negative("noise", self.noise)
    }

    /// Draws `(x, y)`: `x` is `n_samples × 2`, `y` in `{0, 1}`.
    ///
    /// # Errors
    ///
    /// Whatever [`MakeMoons::validate`] reports.
    pub fn generate(&self) -> Result<(Array2<f64>, Array1<usize>)> {
        self.validate()?;
        let n_out = self.n_samples / 2;
        let n_in = self.n_samples - n_out;
        let outer = linspace(0.0, PI, n_out, true)
            .into_iter()
            .map(|t| (t.cos(), t.sin()))
            .collect();
        let inner = linspace(0.0, PI, n_in, true)
            .into_iter()
            .map(|t| (1.0 - t.cos(), 1.0 - t.sin() - 0.5))
            .collect();
        Ok(finish(outer, inner, self.shuffle, self.noise, self.seed))
    }
}

/// A large circle containing a smaller one (scikit-learn's `make_circles`).
///
/// Class 0 (`n_samples / 2` points, rounded down) lies on the unit circle, class 1 (the rest) on
/// the circle of radius `factor`, each at evenly spaced angles `2πi/m`, `i = 0..m`. With
/// `shuffle` the rows are permuted; then Gaussian noise with standard deviation `noise` is added
/// to every coordinate.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 (a `(n_out, n_in)` pair is not supported) |
/// | `noise` | 0.0 | `noise` (`None`) | finite, ≥ 0 |
/// | `factor` | 0.8 | `factor` | `[0, 1)` (0: the inner class is a single point) |
/// | `shuffle` | `true` | `shuffle` | |
/// | `seed` | 0 | `random_state` | any |
///
/// ```
/// use ndlearn_datasets::MakeCircles;
///
/// let (x, y) = MakeCircles::default().n_samples(100).factor(0.5).seed(0).generate()?;
/// for (row, &c) in x.rows().into_iter().zip(&y) {
///     let r = row[0].hypot(row[1]);
///     assert!((r - if c == 0 { 1.0 } else { 0.5 }).abs() < 1e-12);
/// }
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_circles")]
pub struct MakeCircles {
    /// Total number of points.
    pub n_samples: usize,
    /// Standard deviation of the Gaussian noise (0 = none).
    pub noise: f64,
    /// Radius of the inner circle relative to the outer one.
    pub factor: f64,
    /// Whether to permute the rows.
    pub shuffle: bool,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeCircles {
    fn default() -> Self {
        Self {
            n_samples: 100,
            noise: 0.0,
            factor: 0.8,
            shuffle: true,
            seed: 0,
        }
    }
}

impl MakeCircles {
    /// Sets `n_samples`.
    pub fn n_samples(mut self, v: usize) -> Self {
        self.n_samples = v;
        self
    }
    /// Sets `noise`.
    pub fn noise(mut self, v: f64) -> Self {
        self.noise = v;
        self
    }
    /// Sets `factor`.
    pub fn factor(mut self, v: f64) -> Self {
        self.factor = v;
        self
    }
    /// Sets `shuffle`.
    pub fn shuffle(mut self, v: bool) -> Self {
        self.shuffle = v;
        self
    }
    /// Sets `seed`.
    pub fn seed(mut self, v: u64) -> Self {
        self.seed = v;
        self
    }

    /// Checks every field (see the table on [`MakeCircles`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        check_non_negative("noise", self.noise)?;
        if !(self.factor.is_finite() && (0.0..1.0).contains(&self.factor)) {
            return Err(Error::invalid_param(
                "factor",
                format!("must lie in [0, 1), got {}", self.factor),
            ));
        }
        Ok(())
    }

    /// Draws `(x, y)`: `x` is `n_samples × 2`, `y` in `{0, 1}` (0 = outer circle).
    ///
    /// # Errors
    ///
    /// Whatever [`MakeCircles::validate`] reports.
    pub fn generate(&self) -> Result<(Array2<f64>, Array1<usize>)> {
        self.validate()?;
        let n_out = self.n_samples / 2;
        let n_in = self.n_samples - n_out;
        let f = self.factor;
        let outer = linspace(0.0, 2.0 * PI, n_out, false)
            .into_iter()
            .map(|t| (t.cos(), t.sin()))
            .collect();
        let inner = linspace(0.0, 2.0 * PI, n_in, false)
            .into_iter()
            .map(|t| (f * t.cos(), f * t.sin()))
            .collect();
        Ok(finish(outer, inner, self.shuffle, self.noise, self.seed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_params() {
        for (r, name) in [
            (MakeMoons::default().n_samples(0).generate(), "n_samples"),
            (MakeMoons::default().noise(-1.0).generate(), "noise"),
            (MakeCircles::default().n_samples(0).generate(), "n_samples"),
            (MakeCircles::default().noise(f64::NAN).generate(), "noise"),
            (MakeCircles::default().factor(1.0).generate(), "factor"),
            (MakeCircles::default().factor(-0.1).generate(), "factor"),
        ] {
            assert!(
                matches!(r, Err(Error::InvalidParam { name: n, .. }) if n == name),
                "{name}"
            );
        }
        assert!(MakeCircles::default().factor(0.0).generate().is_ok());
    }

    #[test]
    fn moons_lie_on_their_half_circles() {
        let (x, y) = MakeMoons::default()
            .n_samples(101)
            .generate()
            .expect("valid");
        assert_eq!(x.dim(), (101, 2));
        assert_eq!(y.iter().filter(|&&c| c == 0).count(), 50);
        for (row, &c) in x.rows().into_iter().zip(&y) {
            let (cx, cy, upper) = if c == 0 {
                (0.0, 0.0, true)
            } else {
                (1.0, 0.5, false)
            };
            let r = (row[0] - cx).hypot(row[1] - cy);
            assert!((r - 1.0).abs() < 1e-12, "radius {r}");
            // Upper half for class 0, lower half for class 1.
            assert!(if upper {
                row[1] >= cy - 1e-12
            } else {
                row[1] <= cy + 1e-12
            });
        }
        // Endpoints: (1, 0) and (-1, 0) for the outer moon, exactly as NumPy's linspace.
        let (u, _) = MakeMoons::default()
            .n_samples(10)
            .shuffle(false)
            .generate()
            .expect("valid");
        assert_eq!((u[[0, 0]], u[[0, 1]]), (1.0, 0.0));
        assert_eq!(u[[4, 0]], -1.0);
        assert_eq!((u[[5, 0]], u[[5, 1]]), (0.0, 0.5));
    }

    #[test]
    fn circles_radii_and_even_angles() {
        let (x, y) = MakeCircles::default()
            .n_samples(64)
            .factor(0.3)
            .shuffle(false)
            .generate()
            .expect("valid");
        assert_eq!(y.iter().filter(|&&c| c == 1).count(), 32);
        for (i, (row, &c)) in x.rows().into_iter().zip(&y).enumerate() {
            let r = row[0].hypot(row[1]);
            assert!((r - if c == 0 { 1.0 } else { 0.3 }).abs() < 1e-12);
            let angle = row[1].atan2(row[0]).rem_euclid(2.0 * PI);
            let expected = 2.0 * PI * (i % 32) as f64 / 32.0;
            assert!((angle - expected).abs() < 1e-9, "point {i}");
        }
    }

    #[test]
    fn noise_scale_and_determinism() {
        let clean = MakeCircles::default()
            .n_samples(2000)
            .seed(5)
            .generate()
            .expect("valid");
        let noisy = MakeCircles::default()
            .n_samples(2000)
            .noise(0.05)
            .seed(5)
            .generate()
            .expect("valid");
        // Same shuffle, so the noise is the difference.
        assert_eq!(clean.1, noisy.1);
        let diff = &noisy.0 - &clean.0;
        let sd = diff.std(0.0);
        assert!((sd - 0.05).abs() < 0.005, "sd {sd}");
        let again = MakeCircles::default()
            .n_samples(2000)
            .noise(0.05)
            .seed(5)
            .generate()
            .expect("valid");
        assert!(
            noisy
                .0
                .iter()
                .zip(again.0.iter())
                .all(|(a, b)| a.to_bits() == b.to_bits())
        );
        let other = MakeMoons::default()
            .noise(0.1)
            .seed(6)
            .generate()
            .expect("valid");
        let base = MakeMoons::default()
            .noise(0.1)
            .seed(7)
            .generate()
            .expect("valid");
        assert_ne!(other.0, base.0);
        // One sample: a single inner point.
        let (x1, y1) = MakeMoons::default().n_samples(1).generate().expect("valid");
        assert_eq!((x1.dim(), y1.to_vec()), ((1, 2), vec![1]));
    }
}
