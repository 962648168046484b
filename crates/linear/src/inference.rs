//! Statistical inference and residual diagnostics for ordinary least squares:
//! [`FittedLinearRegression::inference`] → [`OlsInference`].
//!
//! # Formulas
//!
//! With `N` samples, `p` parameters (the rank of the centred design, plus one for the
//! intercept), residuals `e = y − ŷ` and `RSS = ‖e‖²`:
//!
//! | quantity | formula |
//! |---|---|
//! | noise variance, MLE (the course notes) | `σ̂²_ML = RSS / N` (biased: `E[σ̂²_ML] = (1 − p/N) σ²`) |
//! | noise variance, unbiased | `s² = RSS / (N − p)`, residual degrees of freedom `N − p` |
//! | coefficient covariance | `Var(ŵ) = s² (X_cᵀX_c)⁻¹` |
//! | intercept variance | `Var(b̂) = s² (1/N + x̄ᵀ(X_cᵀX_c)⁻¹x̄)`, `Cov(b̂, ŵ) = −s² (X_cᵀX_c)⁻¹x̄` |
//! | t statistics | `tⱼ = ŵⱼ / se(ŵⱼ)`, Student-t with `N − p` degrees of freedom under `wⱼ = 0` |
//! | leverage | `hᵢᵢ = 1/N + (xᵢ − x̄)ᵀ(X_cᵀX_c)⁻¹(xᵢ − x̄)` (the hat-matrix diagonal) |
//! | internally studentized residual | `rᵢ = eᵢ / (s √(1 − hᵢᵢ))` |
//! | externally studentized residual | `tᵢ = rᵢ √((N − p − 1) / (N − p − rᵢ²))` |
//! | Cook's distance | `Dᵢ = rᵢ² hᵢᵢ / (p (1 − hᵢᵢ))` |
//! | mean prediction at `x₀` | `ŷ₀ ± t_crit · s √(1/N + (x₀ − x̄)ᵀ(X_cᵀX_c)⁻¹(x₀ − x̄))` |
//! | new observation at `x₀` | `ŷ₀ ± t_crit · √(s² + se_mean²)` |
//!
//! Without intercept, drop the `1/N` terms and the centring. These are the values of
//! statsmodels' `OLS(y, add_constant(X)).fit()` (`bse`, `tvalues`, `scale`,
//! `get_influence()`, `get_prediction().summary_frame()`); the intercept-first ordering of
//! [`OlsInference::param_covariance`] is statsmodels' `add_constant` order. Using the *centred*
//! Gram matrix for the coefficient block is exact: it is the Schur complement of the intercept
//! in the uncentred `[1 X]ᵀ[1 X]`.
//!
//! For a rank-deficient design (a model fitted through the SVD path with rank `r < D`) the
//! inverse is the pseudo-inverse over the top `r` eigenvalues and `p = r (+1)`, as
//! statsmodels does with `pinv`.
//!
//! **p-values and critical values** need the Student-t distribution function, which
//! ndlearn-core does not provide yet: [`OlsInference::t_values`] and
//! [`OlsInference::dof_resid`] give what a t table needs, and the interval methods take the
//! critical value `t_{1−α/2, N−p}` as an argument (e.g. `scipy.stats.t.ppf(0.975, dof)`).
//!
//! [`ResidualSummary`] reports what the course notes list as assumptions to check (independence,
//! homoscedasticity, normality; G. A. F. Seber, A. J. Lee, *Linear Regression Analysis*, 2nd
//! ed., Wiley, 2003): skewness and kurtosis
//! (biased moments, as statsmodels' summary), the Jarque–Bera statistic
//! `N/6 (S² + (K − 3)²/4)` and the Durbin–Watson statistic `Σ(eₜ − eₜ₋₁)² / Σeₜ²`.
//!
//! # Complexity
//!
//! `O(N D²)` (the Gram matrix and the leverages), the same as the fit.
//!
//! # References
//!
//! - Course notes: Gaussian-noise MLE and `σ²`, `Var(w) = (1/β)(XᵀX)⁻¹`,
//!   `E[1/β_MLE] = (1 − d/n)/β` (erratum E32: `1/β = (1/n)Σr²`); catalog L-02, CL-071, CL-086.
//!   C. M. Bishop, *Pattern Recognition and Machine Learning*, 2006, §3.1.1; G. A. F. Seber,
//!   A. J. Lee, *Linear Regression Analysis*, 2nd ed., Wiley, 2003.
//! - R. D. Cook, S. Weisberg, *Residuals and Influence in Regression*, 1982 (studentized
//!   residuals, Cook's distance).
//!
//! ```
//! use ndlearn_core::{Fit, ndarray::array};
//! use ndlearn_linear::LinearRegression;
//!
//! let x = array![[1.0_f64], [2.0], [3.0], [4.0], [5.0]];
//! let y = array![1.1, 1.9, 3.2, 3.9, 5.1];
//! let fit = LinearRegression::default().fit(&x, &y)?;
//! let inf = fit.inference(&x, &y)?;
//! assert_eq!(inf.dof_resid(), 3);                          // 5 samples, slope + intercept
//! assert!((inf.sigma2_mle() * 5.0 - inf.rss()).abs() < 1e-12);
//! let t = inf.t_values()[0];                               // slope / se(slope)
//! assert!(t > 10.0);
//! let pi = inf.prediction(&array![[6.0]], 3.182446305284263)?; // t_{0.975, 3}
//! assert!(pi.obs_lower[0] < pi.mean[0] && pi.mean[0] < pi.obs_upper[0]);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::linalg::{self, CholeskyFactor};
use ndlearn_core::validate::check_predict_input;
use ndlearn_core::{Error, Float, Predict, Result};

use crate::design::{self, as_column, check_xy};
use crate::ols::{FittedLinearRegression, pivot_ratio};

/// Inference and diagnostics of a fitted least-squares model on its training data (see the
/// [module docs](self)).
#[derive(Debug, Clone)]
pub struct OlsInference<F: Float> {
    n: usize,
    rank: usize,
    fit_intercept: bool,
    coef: Array1<F>,
    intercept: F,
    x_mean: Array1<F>,
    g_inv: Array2<F>,
    residuals: Array1<F>,
    fitted: Array1<F>,
    leverage: Array1<F>,
    rss: F,
    tss: F,
}

impl<F: Float> FittedLinearRegression<F> {
    /// Standard errors, t statistics, intervals and residual diagnostics on the training data
    /// `x`, `y` (pass the data the model was fitted on).
    ///
    /// # Errors
    /// - [`Error::InvalidParam`] for a multi-output model (fit each target separately).
    /// - [`Error::ShapeMismatch`] / [`Error::NonFinite`] for bad `x`, `y`.
    /// - [`Error::TooFewSamples`] when `N ≤ p` (no residual degrees of freedom).
    pub fn inference(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<OlsInference<F>> {
        if self.is_multi_output() {
            return Err(Error::invalid_param(
                "model",
                "inference is defined for single-target fits; fit each target with `fit`",
            ));
        }
        let yv = as_column(y);
        check_xy(x, &yv, 1, "OlsInference")?;
        let fit_intercept = self.params().fit_intercept;
        let m = design::column_sums_and_xty(x, &yv, fit_intercept)?;
        let (n, d) = x.dim();
        let rank = self.rank().min(d);
        let p = rank + usize::from(fit_intercept);
        if n <= p {
            return Err(Error::TooFewSamples {
                context: "OLS inference (N must exceed the number of parameters)",
                needed: p + 1,
                found: n,
            });
        }
        let g = design::gram(x, &m);
        let g_inv = gram_inverse(&g, rank)?;
        let fitted = self.predict(x)?;
        let mut residuals = y.to_owned();
        residuals -= &fitted;
        let rss = residuals.dot(&residuals);
        let tss = m.yty[0];
        let xc = design::centred_copy(x, &m.x_mean);
        let proj = xc.dot(&g_inv);
        let base = if fit_intercept {
            F::one() / F::cast(n)
        } else {
            F::zero()
        };
        let leverage = (&proj * &xc).sum_axis(Axis(1)) + base;
        Ok(OlsInference {
            n,
            rank,
            fit_intercept,
            coef: self.coef().to_owned(),
            intercept: self.intercept(),
            x_mean: m.x_mean,
            g_inv,
            residuals,
            fitted,
            leverage,
            rss,
            tss,
        })
    }
}

/// `(X_cᵀX_c)⁻¹` by Cholesky when the design has full rank and is well conditioned, else the
/// pseudo-inverse over the top `rank` eigenvalues.
fn gram_inverse<F: Float>(g: &Array2<F>, rank: usize) -> Result<Array2<F>> {
    let d = g.nrows();
    if rank == d {
        if let Ok(chol) = CholeskyFactor::new(g) {
            if pivot_ratio(chol.l(), g) >= F::epsilon().sqrt() {
                let mut inv = chol.inverse()?;
                design::symmetrize(&mut inv);
                return Ok(inv);
            }
        }
    }
    let (vals, vecs) = linalg::eigh_descending(g)?;
    let keep = rank.min(vals.iter().filter(|&&v| v > F::zero()).count());
    let mut inv = Array2::zeros((d, d));
    for j in 0..keep {
        let v = vecs.column(j);
        let s = F::one() / vals[j];
        for a in 0..d {
            for b in 0..d {
                inv[[a, b]] += s * v[a] * v[b];
            }
        }
    }
    Ok(inv)
}

/// Intervals for new points (see [`OlsInference::prediction`]).
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct PredictionIntervals<F> {
    /// Predicted mean `ŷ₀`.
    pub mean: Array1<F>,
    /// Standard error of the mean prediction.
    pub se_mean: Array1<F>,
    /// Standard error for a new observation, `√(s² + se_mean²)`.
    pub se_obs: Array1<F>,
    /// `ŷ₀ − t_crit · se_mean`.
    pub mean_lower: Array1<F>,
    /// `ŷ₀ + t_crit · se_mean`.
    pub mean_upper: Array1<F>,
    /// `ŷ₀ − t_crit · se_obs`.
    pub obs_lower: Array1<F>,
    /// `ŷ₀ + t_crit · se_obs`.
    pub obs_upper: Array1<F>,
}

/// Moments and tests of the residuals (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq)]
#[non_exhaustive]
pub struct ResidualSummary<F> {
    /// Mean residual (0 up to rounding with an intercept).
    pub mean: F,
    /// `√(RSS/N)` (the MLE noise standard deviation).
    pub std: F,
    /// Smallest residual.
    pub min: F,
    /// Largest residual.
    pub max: F,
    /// Skewness `m₃ / m₂^{3/2}` (biased moments).
    pub skewness: F,
    /// Kurtosis `m₄ / m₂²` (3 for normal residuals; not the excess).
    pub kurtosis: F,
    /// Jarque–Bera statistic `N/6 (S² + (K − 3)²/4)` (χ² with 2 dof under normality).
    pub jarque_bera: F,
    /// Durbin–Watson statistic `Σ(eₜ − eₜ₋₁)² / Σeₜ²` (≈ 2 without autocorrelation).
    pub durbin_watson: F,
}

impl<F: Float> OlsInference<F> {
    /// Number of training samples `N`.
    pub fn n_samples(&self) -> usize {
        self.n
    }

    /// Number of parameters `p` (rank of the centred design, plus 1 for the intercept).
    pub fn n_params(&self) -> usize {
        self.rank + usize::from(self.fit_intercept)
    }

    /// Residual degrees of freedom `N − p`.
    pub fn dof_resid(&self) -> usize {
        self.n - self.n_params()
    }

    /// Residual sum of squares `‖y − ŷ‖²`.
    pub fn rss(&self) -> F {
        self.rss
    }

    /// Coefficient of determination `R² = 1 − RSS/TSS` (TSS about the mean with intercept,
    /// about 0 without, as statsmodels' `rsquared`; 0 when TSS = 0 and RSS = 0 is not
    /// distinguished: returns 1 − RSS/TSS as computed).
    pub fn r_squared(&self) -> F {
        F::one() - self.rss / self.tss
    }

    /// The MLE of the noise variance, `RSS / N` (the course notes' `1/β_ML`).
    pub fn sigma2_mle(&self) -> F {
        self.rss / F::cast(self.n)
    }

    /// The unbiased noise variance `s² = RSS / (N − p)` (statsmodels' `scale`).
    pub fn sigma2(&self) -> F {
        self.rss / F::cast(self.dof_resid())
    }

    /// `Var(ŵ) = s² (X_cᵀX_c)⁻¹` (`D × D`).
    pub fn coef_covariance(&self) -> Array2<F> {
        self.g_inv.mapv(|v| v * self.sigma2())
    }

    /// The covariance of all parameters, `p × p` with the intercept first when fitted
    /// (statsmodels' `cov_params()` with `add_constant`).
    pub fn param_covariance(&self) -> Array2<F> {
        let cov = self.coef_covariance();
        if !self.fit_intercept {
            return cov;
        }
        let d = cov.nrows();
        let mut full = Array2::zeros((d + 1, d + 1));
        let cross = cov.dot(&self.x_mean).mapv(|v| -v);
        full[[0, 0]] = self.intercept_variance().unwrap_or(F::zero());
        for j in 0..d {
            full[[0, j + 1]] = cross[j];
            full[[j + 1, 0]] = cross[j];
            for k in 0..d {
                full[[j + 1, k + 1]] = cov[[j, k]];
            }
        }
        full
    }

    fn intercept_variance(&self) -> Option<F> {
        self.fit_intercept.then(|| {
            let q = self.x_mean.dot(&self.g_inv.dot(&self.x_mean));
            self.sigma2() * (F::one() / F::cast(self.n) + q)
        })
    }

    /// Standard errors of the coefficients, `√diag(Var(ŵ))`.
    pub fn std_errors(&self) -> Array1<F> {
        let s2 = self.sigma2();
        self.g_inv.diag().mapv(|v| (v * s2).sqrt())
    }

    /// Standard error of the intercept (`None` without intercept).
    pub fn intercept_std_error(&self) -> Option<F> {
        self.intercept_variance().map(|v| v.sqrt())
    }

    /// t statistics `ŵⱼ / se(ŵⱼ)` (Student-t with [`dof_resid`](Self::dof_resid) degrees of
    /// freedom under `wⱼ = 0`). A coefficient outside the column space (rank-deficient design)
    /// has standard error 0 and t = NaN.
    pub fn t_values(&self) -> Array1<F> {
        &self.coef / &self.std_errors()
    }

    /// t statistic of the intercept (`None` without intercept).
    pub fn intercept_t_value(&self) -> Option<F> {
        self.intercept_std_error().map(|se| self.intercept / se)
    }

    /// Fitted values `ŷ` on the training data.
    pub fn fitted_values(&self) -> &Array1<F> {
        &self.fitted
    }

    /// Residuals `e = y − ŷ`.
    pub fn residuals(&self) -> &Array1<F> {
        &self.residuals
    }

    /// Leverages `hᵢᵢ` (diagonal of the hat matrix; they sum to `p`).
    pub fn leverage(&self) -> &Array1<F> {
        &self.leverage
    }

    /// Internally studentized residuals `eᵢ / (s √(1 − hᵢᵢ))` (NaN where `hᵢᵢ = 1`).
    pub fn studentized_residuals(&self) -> Array1<F> {
        let s = self.sigma2().sqrt();
        ndarray::Zip::from(&self.residuals)
            .and(&self.leverage)
            .map_collect(|&e, &h| e / (s * (F::one() - h).sqrt()))
    }

    /// Externally studentized (deleted) residuals `rᵢ √((N − p − 1)/(N − p − rᵢ²))`, each with
    /// the noise variance estimated without sample `i` (NaN where undefined).
    pub fn studentized_residuals_external(&self) -> Array1<F> {
        let dof = F::cast(self.dof_resid());
        self.studentized_residuals()
            .mapv(|r| r * ((dof - F::one()) / (dof - r * r)).sqrt())
    }

    /// Cook's distances `rᵢ² hᵢᵢ / (p (1 − hᵢᵢ))`.
    pub fn cooks_distance(&self) -> Array1<F> {
        let p = F::cast(self.n_params());
        ndarray::Zip::from(&self.studentized_residuals())
            .and(&self.leverage)
            .map_collect(|&r, &h| r * r * h / (p * (F::one() - h)))
    }

    /// Mean and new-observation intervals at the rows of `x_new`, with the critical value
    /// `t_crit` of the Student-t distribution with [`dof_resid`](Self::dof_resid) degrees of
    /// freedom (e.g. `t_{0.975}` for 95 % intervals).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] / [`Error::NonFinite`] for bad `x_new`;
    /// [`Error::InvalidParam`] for a negative or non-finite `t_crit`.
    pub fn prediction(&self, x_new: &ArrayRef2<F>, t_crit: f64) -> Result<PredictionIntervals<F>> {
        ndlearn_core::validate::check_non_negative("t_crit", t_crit)?;
        check_predict_input(x_new, self.coef.len(), "prediction: number of features")?;
        let t = F::cast(t_crit);
        let s2 = self.sigma2();
        let mut mean = x_new.dot(&self.coef);
        mean += self.intercept;
        let mut xc = x_new.to_owned();
        let base = if self.fit_intercept {
            xc -= &self.x_mean;
            F::one() / F::cast(self.n)
        } else {
            F::zero()
        };
        let q = (&xc.dot(&self.g_inv) * &xc).sum_axis(Axis(1));
        let se_mean = q.mapv(|v| (s2 * (v + base)).sqrt());
        let se_obs = se_mean.mapv(|v| (s2 + v * v).sqrt());
        Ok(PredictionIntervals {
            mean_lower: &mean - &se_mean.mapv(|v| v * t),
            mean_upper: &mean + &se_mean.mapv(|v| v * t),
            obs_lower: &mean - &se_obs.mapv(|v| v * t),
            obs_upper: &mean + &se_obs.mapv(|v| v * t),
            mean,
            se_mean,
            se_obs,
        })
    }

    /// Residual moments, Jarque–Bera and Durbin–Watson statistics (see the
    /// [module docs](self)).
    pub fn residual_summary(&self) -> ResidualSummary<F> {
        let e = &self.residuals;
        let n = F::cast(self.n);
        let mean = e.sum() / n;
        let (mut m2, mut m3, mut m4) = (F::zero(), F::zero(), F::zero());
        for &v in e {
            let c = v - mean;
            let c2 = c * c;
            m2 += c2;
            m3 += c2 * c;
            m4 += c2 * c2;
        }
        m2 /= n;
        m3 /= n;
        m4 /= n;
        let skewness = m3 / m2.powf(F::cast(1.5));
        let kurtosis = m4 / (m2 * m2);
        let three = F::cast(3.0);
        let jarque_bera =
            n / F::cast(6.0) * (skewness * skewness + (kurtosis - three).powi(2) / F::cast(4.0));
        let diff: F = e
            .iter()
            .zip(e.iter().skip(1))
            .map(|(&a, &b)| (b - a) * (b - a))
            .sum();
        ResidualSummary {
            mean,
            std: (self.rss / n).sqrt(),
            min: e.iter().fold(F::infinity(), |a, &v| a.min(v)),
            max: e.iter().fold(F::neg_infinity(), |a, &v| a.max(v)),
            skewness,
            kurtosis,
            jarque_bera,
            durbin_watson: diff / self.rss,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LinearRegression;
    use ndarray::array;
    use ndlearn_core::Fit;

    fn data() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5],
            [2.0, -1.0],
            [3.0, 2.0],
            [4.0, 0.0],
            [5.0, 1.5],
            [6.0, -0.5],
            [7.0, 1.0]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9];
        (x, y)
    }

    #[test]
    fn simple_regression_standard_errors_by_hand() {
        // One feature: se(w) = s / √Σ(x − x̄)², se(b) = s √(1/N + x̄²/Σ(x − x̄)²).
        let x: Array2<f64> = array![[1.0], [2.0], [3.0], [4.0], [5.0]];
        let y: Array1<f64> = array![1.1, 1.9, 3.2, 3.9, 5.1];
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        let inf = fit.inference(&x, &y).expect("inference");
        let sxx = 10.0; // Σ(x − 3)²
        let s2 = inf.rss() / 3.0;
        assert!((inf.sigma2() - s2).abs() < 1e-14);
        assert!((inf.std_errors()[0] - (s2 / sxx).sqrt()).abs() < 1e-13);
        let se_b = (s2 * (0.2 + 9.0 / sxx)).sqrt();
        assert!((inf.intercept_std_error().expect("intercept") - se_b).abs() < 1e-13);
        assert_eq!(inf.n_params(), 2);
        let cov = inf.param_covariance();
        assert!((cov[[0, 0]] - se_b * se_b).abs() < 1e-13);
        // Cov(b, w) = −s² x̄ / Sxx.
        assert!((cov[[0, 1]] + s2 * 3.0 / sxx).abs() < 1e-13);
    }

    #[test]
    fn leverage_sums_to_p_and_matches_the_hat_matrix() {
        let (x, y) = data();
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        let inf = fit.inference(&x, &y).expect("inference");
        assert!((inf.leverage().sum() - 3.0).abs() < 1e-12);
        // Hat matrix of [1 X] directly.
        let xa = ndarray::concatenate![Axis(1), Array2::ones((7, 1)), x];
        let h = xa
            .dot(&linalg::inv(&xa.t().dot(&xa)).expect("invertible"))
            .dot(&xa.t());
        for i in 0..7 {
            assert!((h[[i, i]] - inf.leverage()[i]).abs() < 1e-12);
        }
        // Cook's distance from its definition via refits without sample i:
        // Dᵢ = ‖ŷ − ŷ₍ᵢ₎‖² / (p s²).
        let cooks = inf.cooks_distance();
        for i in [0usize, 3, 6] {
            let keep: Vec<usize> = (0..7).filter(|&j| j != i).collect();
            let xi = x.select(Axis(0), &keep);
            let yi = y.select(Axis(0), &keep);
            let fi = LinearRegression::default().fit(&xi, &yi).expect("fit");
            let diff = fi.predict(&x).expect("predict") - inf.fitted_values();
            let want = diff.dot(&diff) / (3.0 * inf.sigma2());
            assert!(
                (cooks[i] - want).abs() < 1e-10,
                "{i}: {} vs {want}",
                cooks[i]
            );
            // External studentized residual: e_i / (s_(i) √(1 − h_ii)) with s_(i) from the refit.
            let ri = yi.clone() - fi.predict(&xi).expect("predict");
            let s_i = (ri.dot(&ri) / 3.0).sqrt();
            let want = inf.residuals()[i] / (s_i * (1.0 - inf.leverage()[i]).sqrt());
            let got = inf.studentized_residuals_external()[i];
            assert!((got - want).abs() < 1e-10, "{i}: {got} vs {want}");
        }
    }

    #[test]
    fn prediction_interval_at_the_mean_is_narrowest() {
        let (x, y) = data();
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        let inf = fit.inference(&x, &y).expect("inference");
        let xm = x.mean_axis(Axis(0)).expect("rows");
        let pts = ndarray::stack![Axis(0), xm, xm.mapv(|v| v + 3.0)];
        let pi = inf.prediction(&pts, 2.0).expect("prediction");
        // At x̄ the mean standard error is s/√N.
        assert!((pi.se_mean[0] - (inf.sigma2() / 7.0).sqrt()).abs() < 1e-12);
        assert!(pi.se_mean[1] > pi.se_mean[0]);
        assert!((pi.mean_upper[0] - pi.mean[0] - 2.0 * pi.se_mean[0]).abs() < 1e-12);
        assert!(pi.obs_upper[0] > pi.mean_upper[0]);
        assert!(inf.prediction(&pts, -1.0).is_err());
        assert!(inf.prediction(&array![[1.0]], 2.0).is_err());
    }

    #[test]
    fn residual_summary_and_errors() {
        let (x, y) = data();
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        let inf = fit.inference(&x, &y).expect("inference");
        let s = inf.residual_summary();
        assert!(s.mean.abs() < 1e-12);
        assert!(s.min <= s.max && s.durbin_watson > 0.0 && s.kurtosis > 0.0);
        assert!((s.std * s.std * 7.0 - inf.rss()).abs() < 1e-12);
        assert!(
            (inf.r_squared()
                - (1.0
                    - inf.rss()
                        / y.mapv(|v| v - y.mean().unwrap_or(0.0))
                            .mapv(|v| v * v)
                            .sum()))
            .abs()
                < 1e-12
        );
        // Too few samples: 3 rows, 2 features + intercept.
        let x3 = x.slice(ndarray::s![..3, ..]).to_owned();
        let y3 = y.slice(ndarray::s![..3]).to_owned();
        let f3 = LinearRegression::default().fit(&x3, &y3).expect("fit");
        assert!(matches!(
            f3.inference(&x3, &y3),
            Err(Error::TooFewSamples { .. })
        ));
        let y2 = ndarray::stack![Axis(1), y, y];
        let fm = LinearRegression::default().fit_multi(&x, &y2).expect("fit");
        assert!(fm.inference(&x, &y).is_err());
    }
}
