//! Monte-Carlo bias–variance decomposition of the squared error of a regressor.
//!
//! ## The course notes' identity (catalog M-05)
//!
//! As in Geman, Bienenstock & Doursat, "Neural networks and the bias/variance dilemma", Neural
//! Computation 4(1), 1992, and Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data* (2012),
//! §2.3.1: for a training set `D` drawn from the data-generating process, `g⁽ᴰ⁾` the model
//! fitted on it, `ḡ(x) = E_D[g⁽ᴰ⁾(x)]` the average model and `f` the true function:
//!
//! ```text
//! E_D[(g⁽ᴰ⁾(x) − f(x))²] = E_D[(g⁽ᴰ⁾(x) − ḡ(x))²] + (ḡ(x) − f(x))² = var(x) + bias²(x)
//! ```
//!
//! The course notes assume noise-free data and mention the irreducible error. With noisy
//! responses `y = f(x) + ε`, `E[ε] = 0`, `Var ε = σ²(x)`, independent of `D`, the expected squared
//! error against a fresh response adds it: `E[(y − g⁽ᴰ⁾(x))²] = σ²(x) + bias²(x) + var(x)`.
//!
//! ## Estimator
//!
//! For rounds `r = 1..R` (stream `random::stream(seed, r)`): draw a training set from the
//! [`DataGenerator`], fit, predict `g_r(x_t)` at the test points, and draw fresh responses
//! `y_r(x_t)`. Then, per test point (all averages over rounds, divisor `R`):
//!
//! | quantity | estimate |
//! |---|---|
//! | `ḡ(x)` | `mean_r g_r(x)` |
//! | `bias²(x)` | `(ḡ(x) − f(x))²` |
//! | `var(x)` | `mean_r (g_r(x) − ḡ(x))²` |
//! | `noise(x)` | `mean_r (y_r(x) − f(x))²` |
//! | `mse(x)` | `mean_r (y_r(x) − g_r(x))²` |
//! | `mse_noise_free(x)` | `mean_r (g_r(x) − f(x))²` |
//!
//! and the reported scalars are the means over the test points (the course notes' `E_x`). The
//! noise-free identity `mse_noise_free = bias² + var` holds exactly (up to rounding) for any
//! `R`; `mse ≈ noise + bias² + var` holds up to the cross terms `2·mean_r ε_r(ḡ − f)` and
//! `2·mean_r ε_r(ḡ − g_r)`, which vanish as `R` grows (`O(1/√R)`); `cross_term` reports the
//! difference. Rounds run in parallel and are combined in round order (bitwise identical for
//! any thread count). Cost: `R` fits and predictions.

use ndarray::{Array1, Array2, ArrayRef2};

use crate::random::{self, Rng};
use crate::traits::Predict;
use crate::{Error, Fit, Float, Result, par};

/// A data-generating process `y = f(x) + ε` for [`bias_variance`].
pub trait DataGenerator<F: Float>: Sync {
    /// The inputs of one training set.
    fn sample_x(&self, rng: &mut Rng) -> Result<Array2<F>>;
    /// The true function `f(x) = E[y | x]`, row by row.
    fn truth(&self, x: &ArrayRef2<F>) -> Result<Array1<F>>;
    /// Noisy responses at the rows of `x`.
    fn sample_y(&self, x: &ArrayRef2<F>, rng: &mut Rng) -> Result<Array1<F>>;
}

/// A [`DataGenerator`] from two closures and Gaussian noise: `x ~ sample_x`, `y = f(x) + σ·z`,
/// `z ~ N(0, 1)`.
///
/// ```
/// use ndlearn_core::model_selection::{DataGenerator, GaussianNoiseGenerator};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef2};
/// use ndlearn_core::random::{self, Rng};
/// use ndlearn_core::Result;
///
/// let generator = GaussianNoiseGenerator::new(
///     |rng: &mut Rng| -> Result<Array2<f64>> {
///         Ok(Array2::from_shape_fn((20, 1), |_| random::uniform(rng, -1.0, 1.0)))
///     },
///     |x: &ArrayRef2<f64>| -> Result<Array1<f64>> { Ok(x.column(0).mapv(f64::sin)) },
///     0.1,
/// );
/// let mut rng = random::rng(0);
/// let x = generator.sample_x(&mut rng)?;
/// let y = generator.sample_y(&x, &mut rng)?;
/// let f = generator.truth(&x)?;
/// assert_eq!((x.nrows(), y.len()), (20, 20));
/// assert!((&y - &f).iter().all(|e| e.abs() < 1.0)); // 10 standard deviations
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct GaussianNoiseGenerator<X, T> {
    sample_x: X,
    truth: T,
    sigma: f64,
}

impl<X, T> GaussianNoiseGenerator<X, T> {
    /// `sample_x` draws training inputs, `truth` is `f`, `sigma` the noise standard deviation.
    pub fn new(sample_x: X, truth: T, sigma: f64) -> Self {
        Self {
            sample_x,
            truth,
            sigma,
        }
    }
}

impl<F, X, T> DataGenerator<F> for GaussianNoiseGenerator<X, T>
where
    F: Float,
    X: Fn(&mut Rng) -> Result<Array2<F>> + Sync,
    T: Fn(&ArrayRef2<F>) -> Result<Array1<F>> + Sync,
{
    fn sample_x(&self, rng: &mut Rng) -> Result<Array2<F>> {
        (self.sample_x)(rng)
    }

    fn truth(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        (self.truth)(x)
    }

    fn sample_y(&self, x: &ArrayRef2<F>, rng: &mut Rng) -> Result<Array1<F>> {
        crate::validate::check_non_negative("sigma", self.sigma)?;
        let mut y = (self.truth)(x)?;
        let s = F::cast(self.sigma);
        y.mapv_inplace(|v| v + s * random::standard_normal::<F>(rng));
        Ok(y)
    }
}

/// Options of [`bias_variance`]: `n_rounds` (default 200, ≥ 2) and `seed` (default 0).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BiasVarianceOptions {
    /// Number of Monte-Carlo rounds (training sets).
    pub n_rounds: usize,
    /// Seed.
    pub seed: u64,
}

impl Default for BiasVarianceOptions {
    fn default() -> Self {
        Self {
            n_rounds: 200,
            seed: 0,
        }
    }
}

impl BiasVarianceOptions {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets `n_rounds`.
        n_rounds: usize,
        /// Sets `seed`.
        seed: u64,
    }
}

/// The decomposition (scalars: means over the test points; per-point arrays alongside).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BiasVariance {
    /// `E_x[(ḡ(x) − f(x))²]`.
    pub bias2: f64,
    /// `E_x[var(x)]`.
    pub variance: f64,
    /// `E_x[σ²(x)]`, estimated from the fresh responses.
    pub noise: f64,
    /// Expected squared error against fresh noisy responses.
    pub mse: f64,
    /// Expected squared error against `f` (= `bias2 + variance`).
    pub mse_noise_free: f64,
    /// `mse − (noise + bias2 + variance)`: the Monte-Carlo cross terms.
    pub cross_term: f64,
    /// `ḡ(x)` at each test point.
    pub mean_prediction: Array1<f64>,
    /// `bias²(x)` at each test point.
    pub bias2_per_point: Array1<f64>,
    /// `var(x)` at each test point.
    pub variance_per_point: Array1<f64>,
}

/// Monte-Carlo bias–variance decomposition of `est` at the rows of `x_test` (see the module
/// docs). The model's `predict` must return one value per row.
///
/// ```
/// use ndlearn_core::model_selection::{BiasVarianceOptions, GaussianNoiseGenerator, bias_variance};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::random::{self, Rng};
/// use ndlearn_core::{Fit, Predict, Result};
///
/// // A constant model (the training mean): high bias for a sloped truth.
/// struct MeanRegressor;
/// struct Fitted(f64);
/// impl Fit<f64> for MeanRegressor {
///     type Target = ArrayRef1<f64>;
///     type Model = Fitted;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<Fitted> {
///         Ok(Fitted(y.mean().unwrap_or(0.0)))
///     }
/// }
/// impl Predict<f64> for Fitted {
///     type Output = Array1<f64>;
///     fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
///         Ok(Array1::from_elem(x.nrows(), self.0))
///     }
/// }
/// let generator = GaussianNoiseGenerator::new(
///     |rng: &mut Rng| Ok(Array2::from_shape_fn((30, 1), |_| random::uniform(rng, -1.0, 1.0))),
///     |x: &ArrayRef2<f64>| Ok(x.column(0).mapv(|v| 2.0 * v)),
///     0.5,
/// );
/// let x_test = Array2::from_shape_fn((11, 1), |(i, _)| -1.0 + 0.2 * i as f64);
/// let bv = bias_variance(&MeanRegressor, &generator, &x_test, &BiasVarianceOptions::new())?;
/// assert!((bv.mse_noise_free - (bv.bias2 + bv.variance)).abs() < 1e-12);
/// assert!(bv.bias2 > bv.variance);
/// assert!((bv.noise - 0.25).abs() < 0.05);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn bias_variance<F, E, G>(
    est: &E,
    generator: &G,
    x_test: &ArrayRef2<F>,
    options: &BiasVarianceOptions,
) -> Result<BiasVariance>
where
    F: Float,
    E: Fit<F, Target = ndarray::ArrayRef1<F>> + Sync + ?Sized,
    E::Model: Predict<F, Output = Array1<F>>,
    G: DataGenerator<F> + ?Sized,
{
    if options.n_rounds < 2 {
        return Err(Error::invalid_param(
            "n_rounds",
            format!("needs at least 2 rounds, got {}", options.n_rounds),
        ));
    }
    let m = x_test.nrows();
    crate::validate::check_min_samples(m, 1, "bias_variance (test points)")?;
    let f_test: Vec<f64> = generator
        .truth(x_test)?
        .iter()
        .map(|v| v.to_f64_lossless())
        .collect();
    if f_test.len() != m {
        return Err(Error::ShapeMismatch {
            context: "bias_variance: truth(x_test)",
            expected: format!("{m} values"),
            found: format!("{}", f_test.len()),
        });
    }
    // Each round: (predictions, fresh responses) at the test points, as f64.
    let rounds = par::try_map_tasks(options.n_rounds, |r| -> Result<(Vec<f64>, Vec<f64>)> {
        let mut rng = random::stream(options.seed, r as u64);
        let x = generator.sample_x(&mut rng)?;
        let y = generator.sample_y(&x, &mut rng)?;
        crate::validate::check_target_len(x.nrows(), y.len(), "bias_variance: sample_y")?;
        let model = est.fit(&x, &y)?;
        let g = model.predict(x_test)?;
        let y_test = generator.sample_y(x_test, &mut rng)?;
        if g.len() != m || y_test.len() != m {
            return Err(Error::ShapeMismatch {
                context: "bias_variance: predictions / responses at the test points",
                expected: format!("{m} values"),
                found: format!("{} / {}", g.len(), y_test.len()),
            });
        }
        Ok((
            g.iter().map(|v| v.to_f64_lossless()).collect(),
            y_test.iter().map(|v| v.to_f64_lossless()).collect(),
        ))
    })?;
    let big_r = rounds.len() as f64;
    let mut g_bar = vec![0.0f64; m];
    for (g, _) in &rounds {
        for (acc, v) in g_bar.iter_mut().zip(g) {
            *acc += v;
        }
    }
    g_bar.iter_mut().for_each(|v| *v /= big_r);
    let (mut var, mut noise, mut mse, mut mse_nf) =
        (vec![0.0; m], vec![0.0; m], vec![0.0; m], vec![0.0; m]);
    for (g, y) in &rounds {
        for t in 0..m {
            var[t] += (g[t] - g_bar[t]).powi(2);
            noise[t] += (y[t] - f_test[t]).powi(2);
            mse[t] += (y[t] - g[t]).powi(2);
            mse_nf[t] += (g[t] - f_test[t]).powi(2);
        }
    }
    for v in [&mut var, &mut noise, &mut mse, &mut mse_nf] {
        v.iter_mut().for_each(|x| *x /= big_r);
    }
    let bias2: Vec<f64> = (0..m).map(|t| (g_bar[t] - f_test[t]).powi(2)).collect();
    if let Some(row) = g_bar.iter().position(|v| !v.is_finite()) {
        return Err(Error::NonFinite {
            context: "bias_variance predictions",
            row,
            col: 0,
        });
    }
    let avg = |v: &[f64]| v.iter().sum::<f64>() / m as f64;
    let (b, v, nz, e) = (avg(&bias2), avg(&var), avg(&noise), avg(&mse));
    Ok(BiasVariance {
        bias2: b,
        variance: v,
        noise: nz,
        mse: e,
        mse_noise_free: avg(&mse_nf),
        cross_term: e - (nz + b + v),
        mean_prediction: Array1::from(g_bar),
        bias2_per_point: Array1::from(bias2),
        variance_per_point: Array1::from(var),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::ArrayRef1;

    /// Least-squares line through the origin: w = Σxy / Σx².
    struct Slope;
    struct FittedSlope(f64);

    impl Fit<f64> for Slope {
        type Target = ArrayRef1<f64>;
        type Model = FittedSlope;
        fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedSlope> {
            let c = x.column(0);
            Ok(FittedSlope(c.dot(y) / c.dot(&c)))
        }
    }

    impl Predict<f64> for FittedSlope {
        type Output = Array1<f64>;
        fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
            Ok(x.column(0).mapv(|v| v * self.0))
        }
    }

    fn fixed_design(sigma: f64) -> impl DataGenerator<f64> {
        GaussianNoiseGenerator::new(
            |_: &mut Rng| Ok(Array2::from_shape_fn((10, 1), |(i, _)| 1.0 + i as f64)),
            |x: &ArrayRef2<f64>| Ok(x.column(0).mapv(|v| 3.0 * v)),
            sigma,
        )
    }

    #[test]
    fn unbiased_ols_on_fixed_design_matches_theory() {
        // y = 3x + ε on x = 1..10: ŵ is unbiased with Var ŵ = σ²/Σx² = σ²/385, so at x_t the
        // variance is x_t² σ²/385, the bias 0 and the noise σ².
        let sigma = 2.0;
        let x_test = Array2::from_shape_fn((3, 1), |(i, _)| [1.0, 5.0, 10.0][i]);
        let opts = BiasVarianceOptions::new().n_rounds(4000).seed(3);
        let bv = bias_variance(&Slope, &fixed_design(sigma), &x_test, &opts).expect("valid");
        let var_theory = (1.0 + 25.0 + 100.0) / 3.0 * sigma * sigma / 385.0;
        assert!(
            (bv.variance - var_theory).abs() < 0.1 * var_theory,
            "{} vs {var_theory}",
            bv.variance
        );
        assert!(bv.bias2 < 0.02 * var_theory, "{}", bv.bias2);
        assert!((bv.noise - sigma * sigma).abs() < 0.1 * sigma * sigma);
        assert!((bv.mse_noise_free - (bv.bias2 + bv.variance)).abs() < 1e-10);
        assert!(bv.cross_term.abs() < 0.05 * bv.mse, "{}", bv.cross_term);
        assert!((bv.mse - (bv.noise + bv.bias2 + bv.variance) - bv.cross_term).abs() < 1e-12);
    }

    #[test]
    fn noise_free_and_errors() {
        let x_test = Array2::from_shape_fn((2, 1), |(i, _)| i as f64 + 0.5);
        let bv = bias_variance(
            &Slope,
            &fixed_design(0.0),
            &x_test,
            &BiasVarianceOptions::new().n_rounds(5),
        )
        .expect("valid");
        // No noise: every fit recovers w = 3 exactly (up to rounding).
        assert!(bv.mse < 1e-20 && bv.variance < 1e-20 && bv.noise == 0.0);
        let opts = BiasVarianceOptions::new().n_rounds(1);
        assert!(bias_variance(&Slope, &fixed_design(1.0), &x_test, &opts).is_err());
        let empty = Array2::<f64>::zeros((0, 1));
        assert!(
            bias_variance(
                &Slope,
                &fixed_design(1.0),
                &empty,
                &BiasVarianceOptions::new()
            )
            .is_err()
        );
        assert!(
            bias_variance(
                &Slope,
                &fixed_design(-1.0),
                &x_test,
                &BiasVarianceOptions::new()
            )
            .is_err()
        );
    }
}
