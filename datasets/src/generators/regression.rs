//! Random linear regression problems (scikit-learn's `make_regression`) and low-rank matrices
//! (`make_low_rank_matrix`).

use ndarray::{Array1, Array2, Axis, s};
use ndlearn_core::random::{Rng, permutation, stream};
use ndlearn_core::validate::{check_at_least, check_in_range, check_non_negative};
use ndlearn_core::{Error, Result, linalg};

use super::{normal_matrix, streams, uniform_matrix};

/// A random sparse linear regression problem (scikit-learn's `make_regression`).
///
/// `X` is standard normal (or, with `effective_rank = Some(r)`, a [`MakeLowRankMatrix`] with
/// that effective rank and `tail_strength`); the true coefficients `w` are uniform in
/// `[0, 100)` on the first `n_informative` features and 0 elsewhere;
/// `y = X w + bias + noise · N(0, 1)`. With `shuffle`, the rows are permuted and so are the
/// columns of `X` together with the entries of `w`, so `y = X w + bias (+ noise)` holds for the
/// returned arrays.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 |
/// | `n_features` | 100 | `n_features` | ≥ 1 |
/// | `n_informative` | 10 | `n_informative` | any; values above `n_features` mean all (clipped, as scikit-learn) |
/// | `n_targets` | 1 | `n_targets` | ≥ 1; [`generate`](Self::generate) needs 1, [`generate_multi`](Self::generate_multi) any |
/// | `bias` | 0.0 | `bias` | finite |
/// | `effective_rank` | `None` | `effective_rank` | `Some(r ≥ 1)` for a low-rank design |
/// | `tail_strength` | 0.5 | `tail_strength` | `[0, 1]` (used with `effective_rank`) |
/// | `noise` | 0.0 | `noise` | finite, ≥ 0 (standard deviation) |
/// | `shuffle` | `true` | `shuffle` | |
/// | `seed` | 0 | `random_state` | any |
///
/// scikit-learn's `coef=True` flag is the method [`generate_with_coef`](Self::generate_with_coef)
/// here; both methods return the same `x` and `y` for the same options.
///
/// ```
/// use ndlearn_datasets::MakeRegression;
///
/// let (x, y, coef) = MakeRegression::default()
///     .n_samples(50)
///     .n_features(5)
///     .n_informative(2)
///     .bias(3.0)
///     .seed(0)
///     .generate_with_coef()?;
/// assert_eq!(x.dim(), (50, 5));
/// assert_eq!(coef.iter().filter(|&&w| w != 0.0).count(), 2);
/// // noise = 0: the model is exact.
/// let fitted = x.dot(&coef) + 3.0;
/// assert!(fitted.iter().zip(&y).all(|(a, b)| (a - b).abs() < 1e-10));
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field, see the table; a linear-algebra error from the QR
/// factorisation of the low-rank design (not expected for finite input).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_regression")]
pub struct MakeRegression {
    /// Number of samples.
    pub n_samples: usize,
    /// Number of features.
    pub n_features: usize,
    /// Number of features with a non-zero coefficient.
    pub n_informative: usize,
    /// Number of targets (columns of `y`).
    pub n_targets: usize,
    /// Intercept added to every target.
    pub bias: f64,
    /// Approximate number of singular vectors that explain most of `X`; `None` = full-rank
    /// Gaussian design.
    pub effective_rank: Option<usize>,
    /// Weight of the slowly decaying tail of the singular spectrum (with `effective_rank`).
    pub tail_strength: f64,
    /// Standard deviation of the Gaussian noise added to `y`.
    pub noise: f64,
    /// Whether to permute rows and columns.
    pub shuffle: bool,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeRegression {
    fn default() -> Self {
        Self {
            n_samples: 100,
            n_features: 100,
            n_informative: 10,
            n_targets: 1,
            bias: 0.0,
            effective_rank: None,
            tail_strength: 0.5,
            noise: 0.0,
            shuffle: true,
            seed: 0,
        }
    }
}

impl MakeRegression {
    /// Sets `n_samples`.
    pub fn n_samples(mut self, v: usize) -> Self {
        self.n_samples = v;
        self
    }
    /// Sets `n_features`.
    pub fn n_features(mut self, v: usize) -> Self {
        self.n_features = v;
        self
    }
    /// Sets `n_informative`.
    pub fn n_informative(mut self, v: usize) -> Self {
        self.n_informative = v;
        self
    }
    /// Sets `n_targets`.
    pub fn n_targets(mut self, v: usize) -> Self {
        self.n_targets = v;
        self
    }
    /// Sets `bias`.
    pub fn bias(mut self, v: f64) -> Self {
        self.bias = v;
        self
    }
    /// Sets `effective_rank` (`Some(r)` for a low-rank design).
    pub fn effective_rank(mut self, v: Option<usize>) -> Self {
        self.effective_rank = v;
        self
    }
    /// Sets `tail_strength`.
    pub fn tail_strength(mut self, v: f64) -> Self {
        self.tail_strength = v;
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

    /// Checks every field (see the table on [`MakeRegression`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        check_at_least("n_features", self.n_features, 1)?;
        check_at_least("n_targets", self.n_targets, 1)?;
        if !self.bias.is_finite() {
            return Err(Error::invalid_param(
                "bias",
                format!("must be finite, got {}", self.bias),
            ));
        }
        if let Some(r) = self.effective_rank {
            check_at_least("effective_rank", r, 1)?;
        }
        check_in_range("tail_strength", self.tail_strength, 0.0, 1.0)?;
        check_non_negative("noise", self.noise)?;
        Ok(())
    }

    /// Draws `(x, y)` for a single target.
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParam`] (`n_targets`) when `n_targets != 1` (use
    /// [`generate_multi`](Self::generate_multi)), and whatever [`MakeRegression::validate`]
    /// reports.
    pub fn generate(&self) -> Result<(Array2<f64>, Array1<f64>)> {
        let (x, y, _) = self.generate_with_coef()?;
        Ok((x, y))
    }

    /// Draws `(x, y, coef)` for a single target: `coef` (length `n_features`) are the true
    /// coefficients, so `y = x · coef + bias` exactly when `noise = 0`.
    ///
    /// # Errors
    ///
    /// As [`generate`](Self::generate).
    pub fn generate_with_coef(&self) -> Result<(Array2<f64>, Array1<f64>, Array1<f64>)> {
        if self.n_targets != 1 {
            return Err(Error::invalid_param(
                "n_targets",
                format!(
                    "generate returns one target but n_targets = {}; use generate_multi",
                    self.n_targets
                ),
            ));
        }
        let (x, y, coef) = self.generate_multi()?;
        Ok((x, y.remove_axis(Axis(1)), coef.remove_axis(Axis(1))))
    }

    /// Draws `(x, y, coef)` for `n_targets` targets: `y` is `n_samples × n_targets`, `coef` is
    /// `n_features × n_targets`.
    ///
    /// # Errors
    ///
    /// Whatever [`MakeRegression::validate`] reports.
    pub fn generate_multi(&self) -> Result<(Array2<f64>, Array2<f64>, Array2<f64>)> {
        self.validate()?;
        let n = self.n_samples;
        let p = self.n_features;
        let t = self.n_targets;
        let n_inf = self.n_informative.min(p);
        let mut rng: Rng = stream(self.seed, streams::DATA);
        let mut x = match self.effective_rank {
            None => normal_matrix(&mut rng, n, p),
            Some(r) => low_rank_matrix(&mut rng, n, p, r, self.tail_strength)?,
        };
        let mut coef = Array2::<f64>::zeros((p, t));
        coef.slice_mut(s![..n_inf, ..])
            .assign(&uniform_matrix(&mut rng, n_inf, t, 0.0, 100.0));
        let mut y = x.dot(&coef) + self.bias;
        if self.noise > 0.0 {
            let mut nrng = stream(self.seed, streams::NOISE);
            y.scaled_add(self.noise, &normal_matrix(&mut nrng, n, t));
        }
        if self.shuffle {
            let mut srng = stream(self.seed, streams::SHUFFLE);
            let rows = permutation(&mut srng, n);
            let cols = permutation(&mut srng, p);
            x = x.select(Axis(0), &rows).select(Axis(1), &cols);
            y = y.select(Axis(0), &rows);
            coef = coef.select(Axis(0), &cols);
        }
        Ok((x, y, coef))
    }
}

/// A random matrix with a bell-shaped singular spectrum (scikit-learn's `make_low_rank_matrix`).
///
/// `X = U diag(σ) Vᵀ` with random orthonormal `U` (`n_samples × m`) and `V` (`n_features × m`),
/// `m = min(n_samples, n_features)`, obtained by QR of Gaussian matrices, and singular values
/// `σᵢ = (1 − tail_strength) · exp(−(i / effective_rank)²) + tail_strength · exp(−0.1 · i /
/// effective_rank)` for `i = 0..m`: about `effective_rank` large values, then a slowly
/// decaying tail. Such matrices resemble real data (images, text features).
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_samples` | 100 | `n_samples` | ≥ 1 |
/// | `n_features` | 100 | `n_features` | ≥ 1 |
/// | `effective_rank` | 10 | `effective_rank` | ≥ 1 |
/// | `tail_strength` | 0.5 | `tail_strength` | `[0, 1]` |
/// | `seed` | 0 | `random_state` | any |
///
/// ```
/// use ndlearn_datasets::MakeLowRankMatrix;
/// use ndlearn_core::linalg::singular_values;
///
/// let x = MakeLowRankMatrix::default().n_samples(40).n_features(30).effective_rank(3)
///     .tail_strength(0.0).generate()?;
/// let s = singular_values(&x)?;
/// assert!((s[0] - 1.0).abs() < 1e-10 && s[6] < 0.02);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::InvalidParam`] naming the field.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
#[doc(alias = "make_low_rank_matrix")]
pub struct MakeLowRankMatrix {
    /// Number of rows.
    pub n_samples: usize,
    /// Number of columns.
    pub n_features: usize,
    /// Approximate number of dominant singular values.
    pub effective_rank: usize,
    /// Relative weight of the slowly decaying tail.
    pub tail_strength: f64,
    /// Random seed.
    pub seed: u64,
}

impl Default for MakeLowRankMatrix {
    fn default() -> Self {
        Self {
            n_samples: 100,
            n_features: 100,
            effective_rank: 10,
            tail_strength: 0.5,
            seed: 0,
        }
    }
}

impl MakeLowRankMatrix {
    /// Sets `n_samples`.
    pub fn n_samples(mut self, v: usize) -> Self {
        self.n_samples = v;
        self
    }
    /// Sets `n_features`.
    pub fn n_features(mut self, v: usize) -> Self {
        self.n_features = v;
        self
    }
    /// Sets `effective_rank`.
    pub fn effective_rank(mut self, v: usize) -> Self {
        self.effective_rank = v;
        self
    }
    /// Sets `tail_strength`.
    pub fn tail_strength(mut self, v: f64) -> Self {
        self.tail_strength = v;
        self
    }
    /// Sets `seed`.
    pub fn seed(mut self, v: u64) -> Self {
        self.seed = v;
        self
    }

    /// Checks every field (see the table on [`MakeLowRankMatrix`]).
    pub fn validate(&self) -> Result<()> {
        check_at_least("n_samples", self.n_samples, 1)?;
        check_at_least("n_features", self.n_features, 1)?;
        check_at_least("effective_rank", self.effective_rank, 1)?;
        check_in_range("tail_strength", self.tail_strength, 0.0, 1.0)
    }

    /// Draws the matrix.
    ///
    /// # Errors
    ///
    /// Whatever [`MakeLowRankMatrix::validate`] reports.
    pub fn generate(&self) -> Result<Array2<f64>> {
        self.validate()?;
        let mut rng = stream(self.seed, streams::DATA);
        low_rank_matrix(
            &mut rng,
            self.n_samples,
            self.n_features,
            self.effective_rank,
            self.tail_strength,
        )
    }
}

fn low_rank_matrix(
    rng: &mut Rng,
    n_samples: usize,
    n_features: usize,
    effective_rank: usize,
    tail_strength: f64,
) -> Result<Array2<f64>> {
    let m = n_samples.min(n_features);
    let (u, _) = linalg::qr(&normal_matrix(rng, n_samples, m))?;
    let (v, _) = linalg::qr(&normal_matrix(rng, n_features, m))?;
    let r = effective_rank as f64;
    let sigma = Array1::from_shape_fn(m, |i| {
        let t = i as f64 / r;
        (1.0 - tail_strength) * (-t * t).exp() + tail_strength * (-0.1 * t).exp()
    });
    // U diag(σ) Vᵀ: scale the columns of U.
    let us = u * &sigma;
    Ok(us.dot(&v.t()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndlearn_core::linalg::singular_values;

    fn invalid(m: MakeRegression) -> &'static str {
        match m.generate() {
            Err(Error::InvalidParam { name, .. }) => name,
            other => panic!("expected InvalidParam, got {other:?}"),
        }
    }

    #[test]
    fn invalid_params() {
        let d = MakeRegression::default;
        assert_eq!(invalid(d().n_samples(0)), "n_samples");
        assert_eq!(invalid(d().n_features(0)), "n_features");
        assert_eq!(invalid(d().n_targets(0)), "n_targets");
        assert_eq!(invalid(d().n_targets(2)), "n_targets");
        assert_eq!(invalid(d().bias(f64::INFINITY)), "bias");
        assert_eq!(invalid(d().effective_rank(Some(0))), "effective_rank");
        assert_eq!(invalid(d().tail_strength(1.5)), "tail_strength");
        assert_eq!(invalid(d().noise(-0.1)), "noise");
        assert_eq!(invalid(d().noise(f64::NAN)), "noise");
        let lr = MakeLowRankMatrix::default;
        for (m, name) in [
            (lr().n_samples(0), "n_samples"),
            (lr().n_features(0), "n_features"),
            (lr().effective_rank(0), "effective_rank"),
            (lr().tail_strength(-0.5), "tail_strength"),
        ] {
            assert!(matches!(m.generate(), Err(Error::InvalidParam { name: n, .. }) if n == name));
        }
    }

    #[test]
    fn exact_linear_model_without_noise() {
        for shuffle in [false, true] {
            let (x, y, coef) = MakeRegression::default()
                .n_samples(60)
                .n_features(8)
                .n_informative(3)
                .bias(-2.5)
                .shuffle(shuffle)
                .seed(11)
                .generate_with_coef()
                .expect("valid");
            assert_eq!((x.dim(), y.len(), coef.len()), ((60, 8), 60, 8));
            let nonzero: Vec<usize> = (0..8).filter(|&j| coef[j] != 0.0).collect();
            assert_eq!(nonzero.len(), 3);
            if !shuffle {
                assert_eq!(nonzero, [0, 1, 2]);
            }
            assert!(coef.iter().all(|&w| (0.0..100.0).contains(&w)));
            let fit = x.dot(&coef) + -2.5;
            for (a, b) in fit.iter().zip(&y) {
                assert!((a - b).abs() < 1e-10, "{a} vs {b}");
            }
        }
    }

    #[test]
    fn noise_has_the_requested_scale_and_leaves_x_alone() {
        let base = MakeRegression::default()
            .n_samples(4000)
            .n_features(3)
            .seed(2);
        let (x0, y0, c0) = base.clone().generate_with_coef().expect("valid");
        let (x1, y1, c1) = base.noise(2.0).generate_with_coef().expect("valid");
        assert_eq!(x0, x1);
        assert_eq!(c0, c1);
        let resid = &y1 - &y0;
        let sd = resid.std(0.0);
        assert!((sd - 2.0).abs() < 0.1, "noise sd {sd}");
        let (xd, yd) = MakeRegression::default()
            .generate()
            .expect("defaults are valid");
        assert_eq!((xd.dim(), yd.len()), ((100, 100), 100));
    }

    #[test]
    fn informative_clipped_and_multi_target() {
        let (x, y, coef) = MakeRegression::default()
            .n_samples(20)
            .n_features(4)
            .n_informative(10)
            .n_targets(3)
            .bias(1.0)
            .generate_multi()
            .expect("valid");
        assert_eq!((x.dim(), y.dim(), coef.dim()), ((20, 4), (20, 3), (4, 3)));
        assert!(coef.iter().all(|&w| w > 0.0));
        let fit = x.dot(&coef) + 1.0;
        assert!(fit.iter().zip(&y).all(|(a, b)| (a - b).abs() < 1e-10));
    }

    #[test]
    fn low_rank_design() {
        let (x, y, coef) = MakeRegression::default()
            .n_samples(80)
            .n_features(50)
            .effective_rank(Some(5))
            .tail_strength(0.0)
            .generate_with_coef()
            .expect("valid");
        let s = singular_values(&x).expect("svd");
        assert!((s[0] - 1.0).abs() < 1e-10);
        assert!((s[5] - (-1.0f64).exp()).abs() < 1e-10);
        assert!(s[20] < 1e-6);
        let fit = x.dot(&coef);
        assert!(fit.iter().zip(&y).all(|(a, b)| (a - b).abs() < 1e-10));

        // Full tail: σᵢ = exp(-0.1 i / r), a slow decay; wide matrices work too.
        let w = MakeLowRankMatrix::default()
            .n_samples(10)
            .n_features(25)
            .effective_rank(2)
            .tail_strength(1.0)
            .seed(4)
            .generate()
            .expect("valid");
        let s = singular_values(&w).expect("svd");
        assert_eq!(w.dim(), (10, 25));
        for (i, &v) in s.iter().enumerate() {
            assert!((v - (-0.1 * i as f64 / 2.0).exp()).abs() < 1e-10);
        }
    }

    #[test]
    fn deterministic_per_seed() {
        let m = MakeRegression::default().noise(1.0).seed(8);
        let (a, ya) = m.clone().generate().expect("valid");
        let (b, yb) = m.clone().generate().expect("valid");
        assert!(
            a.iter()
                .zip(b.iter())
                .all(|(u, v)| u.to_bits() == v.to_bits())
        );
        assert!(
            ya.iter()
                .zip(yb.iter())
                .all(|(u, v)| u.to_bits() == v.to_bits())
        );
        let (c, _) = m.seed(9).generate().expect("valid");
        assert_ne!(a, c);
    }
}
