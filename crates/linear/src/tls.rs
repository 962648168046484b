//! Total least squares (orthogonal regression, errors in variables): [`TotalLeastSquares`].
//!
//! # Objective
//!
//! Ordinary least squares attributes all the noise to `y` and minimises vertical offsets;
//! total least squares lets both `X` and `y` be noisy and minimises the smallest correction
//! `[ΔX ΔY]` (Frobenius norm) that makes the corrected data fit exactly:
//!
//! ```text
//! min ‖[ΔX  ΔY]‖_F   s.t.  (X_c + ΔX) W = Y_c + ΔY            (X_c, Y_c centred)
//! ```
//!
//! For one target this is the sum of squared **orthogonal** distances of the points to the
//! hyperplane `y = xᵀw + b`:
//!
//! ```text
//! min_{w, b}  Σᵢ (yᵢ − xᵢᵀw − b)² / (1 + ‖w‖²)
//! ```
//!
//! (the course notes contrast this orthogonal L2 distance with the vertical offsets of OLS). The
//! solution comes from the SVD of the centred, stacked data `Z = [X_c  Y_c] = U Σ Vᵀ`
//! (`N × (D + K)`): the best fitting `D`-dimensional subspace is spanned by the first `D` right
//! singular vectors, and its normal space by the last `K`, `V_{·y} = [V_xy; V_yy]`
//! (`(D + K) × K`). The hyperplane `[x; y] ⊥ V_{·y}` is `y = Wᵀx` with
//!
//! ```text
//! W = −V_xy V_yy⁻¹,   b = ȳ − Wᵀx̄,   min objective = Σ_{j > D} σ_j²
//! ```
//!
//! (Golub & Van Loan 1980). For `K = 1`, `w = −v_x / v_y` with `v` the right singular vector of
//! the smallest singular value. Without `fit_intercept` nothing is centred and the hyperplane
//! passes through the origin.
//!
//! **Existence.** When `V_yy` is singular (`v_y = 0` for one target), the best subspace is
//! "vertical" (it contains a direction with no `y` component, e.g. a constant feature or data
//! lying on a line `x = const`) and no TLS solution `W` exists: `fit` returns
//! [`Error::Linalg`] with [`LinalgErrorKind::Singular`] when the smallest singular value of
//! `V_yy` is below `100 (D + K) ε`. When the smallest singular values are tied
//! (`σ_D = σ_{D+1}`) the solution is not unique; the SVD's choice is returned.
//!
//! Unlike OLS, TLS is symmetric in the variables: for one feature, fitting `x` on `y` gives
//! the same line (slope `1/w`), and it is **not** invariant to rescaling one variable (scale
//! the columns first when their units differ).
//!
//! # Complexity
//!
//! One SVD of an `N × (D + K)` matrix (right singular vectors only):
//! `O(N (D + K)² + (D + K)³)`; memory `O(N (D + K))`.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `fit_intercept` | `true` | — (no scikit-learn estimator; reference: numpy's SVD) | |
//!
//! # Errors
//!
//! Shape, empty-input and [`Error::NonFinite`] errors from the input checks; [`Error::Linalg`]
//! when the TLS solution does not exist (above) or the SVD fails.
//!
//! # References
//!
//! - Course notes: orthogonal L2 distance vs vertical offsets; catalog D-11 (CL-085). The
//!   notes give no algorithm; the SVD solution is from G. H. Golub, C. F. Van Loan, "An
//!   analysis of the total least squares problem", SIAM J. Numer. Anal. 17(6), 1980, and
//!   S. Van Huffel, J. Vandewalle, *The Total Least Squares Problem*, SIAM 1991.
//!
//! ```
//! use ndlearn_core::{Fit, Predict, ndarray::array};
//! use ndlearn_linear::TotalLeastSquares;
//!
//! // Points on y = 2x + 1: the TLS line is exact.
//! let x = array![[0.0_f64], [1.0], [2.0], [3.0]];
//! let y = array![1.0, 3.0, 5.0, 7.0];
//! let fit = TotalLeastSquares::default().fit(&x, &y)?;
//! assert!((fit.coef()[0] - 2.0).abs() < 1e-12 && (fit.intercept() - 1.0).abs() < 1e-12);
//! assert!(fit.residual_ss() < 1e-20);
//! // A vertical line x = 1 has no TLS solution y = wx + b.
//! assert!(TotalLeastSquares::default().fit(&array![[1.0], [1.0], [1.0]], &array![0.0, 1.0, 2.0]).is_err());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::validate::check_fit_input;
use ndlearn_core::{Error, Fit, Float, LinalgErrorKind, Result, linalg};

use crate::design::{as_column, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Total least squares / orthogonal regression. See the [module docs](self).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TotalLeastSquares {
    /// Centre `X` and `Y` and fit an intercept (default `true`).
    pub fit_intercept: bool,
}

impl Default for TotalLeastSquares {
    fn default() -> Self {
        Self {
            fit_intercept: true,
        }
    }
}

impl TotalLeastSquares {
    ndlearn_core::setters! {
        /// Sets `fit_intercept`.
        fit_intercept: bool,
    }

    /// Fits every column of the `N × K` target `y` jointly (one SVD of `[X Y]`); predict with
    /// `predict_multi`.
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedTotalLeastSquares<F>> {
        self.fit_targets(x, y, true)
    }

    fn fit_targets<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
        multi_output: bool,
    ) -> Result<FittedTotalLeastSquares<F>> {
        self.validate()?;
        check_xy(x, &y.view(), 1, "TotalLeastSquares::fit")?;
        check_fit_input(x, 1, "TotalLeastSquares::fit")?;
        let (n, d) = x.dim();
        let k = y.ncols();
        let p = d + k;
        // Z = [X Y], centred; zero rows appended up to p rows (V and Σ unchanged) so that the
        // SVD returns all p right singular vectors.
        let mut z = Array2::zeros((n.max(p), p));
        z.slice_mut(s![..n, ..d]).assign(x);
        z.slice_mut(s![..n, d..]).assign(y);
        let mean = if self.fit_intercept {
            z.slice(s![..n, ..])
                .mean_axis(Axis(0))
                .unwrap_or_else(|| Array1::zeros(p))
        } else {
            Array1::zeros(p)
        };
        {
            let mut top = z.slice_mut(s![..n, ..]);
            top -= &mean;
        }
        let (sv, vt) = linalg::svd_right(&z)?;
        // Columns d.. of V = rows d.. of Vᵀ.
        let v_tail = vt.slice(s![d.., ..]); // k × p: rows are the last k right singular vectors
        let v_xy_t = v_tail.slice(s![.., ..d]).to_owned(); // k × d  (= V_xyᵀ)
        let v_yy_t = v_tail.slice(s![.., d..]).to_owned(); // k × k  (= V_yyᵀ)
        let smin = if k == 1 {
            v_yy_t[[0, 0]].abs()
        } else {
            linalg::singular_values(&v_yy_t)?
                .iter()
                .fold(F::infinity(), |m, &v| m.min(v))
        };
        let thresh = F::cast(100.0 * p as f64) * F::epsilon();
        if smin.is_nan() || smin <= thresh {
            return Err(Error::Linalg {
                op: "total least squares",
                kind: LinalgErrorKind::Singular,
                detail: Some(format!(
                    "the TLS solution does not exist: the smallest singular directions of the \
                     centred [X y] have no y component (|V_yy| = {smin}); a constant or \
                     collinear feature, or data on a hyperplane x = const"
                )),
            });
        }
        // W = −V_xy V_yy⁻¹  ⇔  Wᵀ = −V_yy⁻ᵀ V_xyᵀ, i.e. V_yyᵀ Wᵀ = −V_xyᵀ.
        let coef = linalg::solve_many(&v_yy_t, &v_xy_t.mapv(|v| -v))?; // k × d
        let x_mean = mean.slice(s![..d]);
        let intercept = &mean.slice(s![d..]) - &coef.dot(&x_mean);
        if !coef.iter().chain(intercept.iter()).all(|v| v.is_finite()) {
            return Err(Error::NonFinite {
                context: "total-least-squares coefficients (rescale the data)",
                row: 0,
                col: 0,
            });
        }
        let residual_ss = sv.iter().skip(d).map(|&s| s * s).sum();
        Ok(FittedTotalLeastSquares {
            params: *self,
            lin: LinearCoef {
                coef,
                intercept,
                multi_output,
            },
            singular_values: sv,
            residual_ss,
        })
    }
}

impl ndlearn_core::Estimator for TotalLeastSquares {
    /// Checks the hyperparameters (there is nothing to get wrong; kept for uniformity).
    ///
    /// # Errors
    /// None.
    fn validate(&self) -> Result<()> {
        Ok(())
    }
}

impl<F: Float> Fit<F> for TotalLeastSquares {
    type Target = ArrayRef1<F>;
    type Model = FittedTotalLeastSquares<F>;

    /// Fits the TLS hyperplane (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedTotalLeastSquares<F>> {
        let yc = as_column(y);
        self.fit_targets(x, &yc, false)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for TotalLeastSquares {
    /// Fits every column of `y` (see [`TotalLeastSquares::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedTotalLeastSquares<F>> {
        TotalLeastSquares::fit_multi(self, x, y)
    }
}

/// A fitted [`TotalLeastSquares`] model.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedTotalLeastSquares<F: Float> {
    params: TotalLeastSquares,
    pub(crate) lin: LinearCoef<F>,
    singular_values: Array1<F>,
    residual_ss: F,
}

linear_model_api!(FittedTotalLeastSquares);

impl<F: Float> FittedTotalLeastSquares<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &TotalLeastSquares {
        &self.params
    }
    /// Singular values of the centred `[X Y]`, descending (`min(N, D + K)` of them, padded
    /// with zeros up to `D + K` when `N < D + K`).
    pub fn singular_values(&self) -> &Array1<F> {
        &self.singular_values
    }
    /// The minimal objective `‖[ΔX ΔY]‖²_F = Σ_{j > D} σ_j²`; for one target, the sum of
    /// squared orthogonal distances of the training points to the fitted hyperplane.
    pub fn residual_ss(&self) -> F {
        self.residual_ss
    }
}

/// Sum of squared orthogonal distances of the points `(xᵢ, yᵢ)` to the hyperplane
/// `y = xᵀw + b`: `Σ (yᵢ − xᵢᵀw − b)² / (1 + ‖w‖²)` (the TLS objective for one target).
///
/// # Errors
/// [`Error::ShapeMismatch`] when `w` or `y` do not fit `x`.
pub fn orthogonal_distance_ss<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    w: &ArrayRef1<F>,
    b: F,
) -> Result<F> {
    ndlearn_core::validate::check_n_features(w.len(), x.ncols(), "orthogonal_distance_ss: w")?;
    ndlearn_core::validate::check_target_len(x.nrows(), y.len(), "orthogonal_distance_ss: y")?;
    let r = y - &*x.dot(w);
    let ss: F = r.iter().map(|&v| (v - b) * (v - b)).sum();
    Ok(ss / (F::one() + w.dot(w)))
}

impl<F: Float> CheckModel for FittedTotalLeastSquares<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedTotalLeastSquares");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        let (k, d) = self.lin.coef.dim();
        c.len("singular_values", self.singular_values.len(), d + k)?;
        c.non_negative("singular_values", &self.singular_values)?;
        c.that(
            self.residual_ss.is_finite() && self.residual_ss >= F::zero(),
            || "`residual_ss` must be finite and non-negative".into(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::Predict;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = noisy_line();
        let mut fit = TotalLeastSquares::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.singular_values = Array1::zeros(1);
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    /// Points near y = 1 + 2t with noise in both coordinates (deterministic).
    fn noisy_line() -> (Array2<f64>, Array1<f64>) {
        let n = 40;
        let mut x = Array2::zeros((n, 1));
        let mut y = Array1::zeros(n);
        for i in 0..n {
            let t = -2.0 + 4.0 * i as f64 / (n - 1) as f64;
            let ex = 0.3 * ((i * 7 % 11) as f64 / 5.0 - 1.0);
            let ey = 0.3 * ((i * 5 % 13) as f64 / 6.0 - 1.0);
            x[[i, 0]] = t + ex;
            y[i] = 1.0 + 2.0 * t + ey;
        }
        (x, y)
    }

    #[test]
    fn exact_line_and_closed_form_for_one_feature() {
        let (x, y) = noisy_line();
        let fit = TotalLeastSquares::default().fit(&x, &y).expect("fit");
        // Closed form (Deming regression with δ = 1): slope
        // w = (s_yy − s_xx + √((s_yy − s_xx)² + 4 s_xy²)) / (2 s_xy).
        let xm = x.column(0).mean().expect("mean");
        let ym = y.mean().expect("mean");
        let sxx: f64 = x.column(0).iter().map(|v| (v - xm) * (v - xm)).sum();
        let syy: f64 = y.iter().map(|v| (v - ym) * (v - ym)).sum();
        let sxy: f64 = x
            .column(0)
            .iter()
            .zip(&y)
            .map(|(a, b)| (a - xm) * (b - ym))
            .sum();
        let w = (syy - sxx + ((syy - sxx).powi(2) + 4.0 * sxy * sxy).sqrt()) / (2.0 * sxy);
        assert!((fit.coef()[0] - w).abs() < 1e-12 * w.abs());
        assert!((fit.intercept() - (ym - w * xm)).abs() < 1e-12);
        let ods = orthogonal_distance_ss(&x, &y, &fit.coef(), fit.intercept()).expect("ods");
        assert!((ods - fit.residual_ss()).abs() < 1e-10 * ods);
    }

    #[test]
    fn recovers_the_true_line_better_than_ols_with_noise_in_x() {
        // Errors in variables: x = t + e_x, y = 1 + 2t + e_y with equal noise variances (the
        // TLS model). OLS is attenuated towards 0 by var(t)/(var(t) + var(e_x)) ≈ 0.75.
        let mut rng = ndlearn_core::random::stream(7, 0);
        let n = 2000;
        let mut x = Array2::zeros((n, 1));
        let mut y = Array1::zeros(n);
        for i in 0..n {
            let t: f64 = ndlearn_core::random::standard_normal(&mut rng);
            let ex: f64 = ndlearn_core::random::standard_normal(&mut rng);
            let ey: f64 = ndlearn_core::random::standard_normal(&mut rng);
            x[[i, 0]] = t + 0.577 * ex;
            y[i] = 1.0 + 2.0 * t + 0.577 * ey;
        }
        let tls = TotalLeastSquares::default().fit(&x, &y).expect("tls");
        let ols = crate::LinearRegression::default().fit(&x, &y).expect("ols");
        let (e_tls, e_ols) = ((tls.coef()[0] - 2.0).abs(), (ols.coef()[0] - 2.0).abs());
        assert!(e_tls < 0.1, "TLS slope {}", tls.coef()[0]);
        assert!(e_ols > 0.3, "OLS slope {}", ols.coef()[0]);
        assert!((tls.intercept() - 1.0).abs() < 0.1);
    }

    #[test]
    fn swapping_x_and_y_gives_the_same_line() {
        let (x, y) = noisy_line();
        let a = TotalLeastSquares::default().fit(&x, &y).expect("fit");
        let xs = y.clone().insert_axis(Axis(1));
        let ys = x.column(0).to_owned();
        let b = TotalLeastSquares::default().fit(&xs, &ys).expect("fit");
        // x = y/w − b/w.
        let w = a.coef()[0];
        assert!((b.coef()[0] - 1.0 / w).abs() < 1e-12);
        assert!((b.intercept() + a.intercept() / w).abs() < 1e-12);
    }

    #[test]
    fn orthogonal_objective_is_minimal() {
        let (x, y) = noisy_line();
        let fit = TotalLeastSquares::default().fit(&x, &y).expect("fit");
        let f0 = orthogonal_distance_ss(&x, &y, &fit.coef(), fit.intercept()).expect("f");
        for (dw, db) in [
            (1e-3, 0.0),
            (-1e-3, 0.0),
            (0.0, 1e-3),
            (0.0, -1e-3),
            (1e-2, -1e-2),
        ] {
            let w = array![fit.coef()[0] + dw];
            let f = orthogonal_distance_ss(&x, &y, &w, fit.intercept() + db).expect("f");
            assert!(f > f0, "{dw} {db}");
        }
        let ols = crate::LinearRegression::default().fit(&x, &y).expect("ols");
        let f_ols = orthogonal_distance_ss(&x, &y, &ols.coef(), ols.intercept()).expect("f");
        assert!(f_ols > f0);
    }

    #[test]
    fn nonexistent_solution_is_an_error() {
        // x constant: the smallest direction is the x axis itself (v_y = 0).
        let x: Array2<f64> = array![[2.0, 0.0], [2.0, 1.0], [2.0, 2.0], [2.0, 3.5]];
        let y = array![0.0, 1.0, 3.0, 2.0];
        match TotalLeastSquares::default().fit(&x, &y) {
            Err(Error::Linalg { kind, .. }) => assert_eq!(kind, LinalgErrorKind::Singular),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn multi_output_recovers_exact_planes_and_p_greater_than_n() {
        let x: Array2<f64> = array![[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0], [1.0, 3.0]];
        let w: Array2<f64> = array![[1.0, -2.0], [0.5, 0.25]]; // k × d
        let b = array![0.5, -1.0];
        let y = x.dot(&w.t()) + &b;
        let fit = TotalLeastSquares::default().fit_multi(&x, &y).expect("fit");
        assert!(fit.is_multi_output());
        for (a, e) in fit.coef_multi().iter().zip(w.iter()) {
            assert!((a - e).abs() < 1e-10);
        }
        for (a, e) in fit.intercept_multi().iter().zip(b.iter()) {
            assert!((a - e).abs() < 1e-10);
        }
        let p = fit.predict_multi(&x).expect("predict");
        assert!((p - &y).iter().all(|v| v.abs() < 1e-10));
        assert!(fit.predict(&x).is_err());
        // Two points, two features: N < D + K, still a (non-unique) exact fit.
        let fit2 = TotalLeastSquares::default()
            .fit(&array![[0.0f64, 1.0], [1.0, 3.0]], &array![1.0, 2.0])
            .expect("fit");
        let p2 = fit2.predict(&array![[0.0, 1.0], [1.0, 3.0]]).expect("p");
        assert!((p2[0] - 1.0).abs() < 1e-10 && (p2[1] - 2.0).abs() < 1e-10);
        assert_eq!(fit2.singular_values().len(), 3);
    }

    #[test]
    fn f32_close_to_f64() {
        let (x, y) = noisy_line();
        let a = TotalLeastSquares::default().fit(&x, &y).expect("f64");
        let b = TotalLeastSquares::default()
            .fit(&x.mapv(|v| v as f32), &y.mapv(|v| v as f32))
            .expect("f32");
        assert!((f64::from(b.coef()[0]) - a.coef()[0]).abs() < 1e-4);
        assert!((f64::from(b.intercept()) - a.intercept()).abs() < 1e-4);
    }
}
