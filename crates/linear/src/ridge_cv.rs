//! [`RidgeCV`]: ridge regression with the penalty chosen by efficient leave-one-out
//! cross-validation, many alphas at once from one spectral decomposition.
//!
//! # Method
//!
//! Write the thin SVD of the centred design as `X_c = U S Vᵀ` (rank `r`). For penalty `α`, the
//! ridge fit on the centred data is `ŷ_c = U diag(fⱼ) Uᵀ y_c` with shrinkage factors
//! `fⱼ = sⱼ² / (sⱼ² + α)`, and the hat-matrix diagonal of the model with an unpenalised
//! intercept is
//!
//! ```text
//! hᵢᵢ(α) = 1/N + Σⱼ Uᵢⱼ² fⱼ          (the 1/N term only with fit_intercept).
//! ```
//!
//! For any linear smoother the leave-one-out residual is exact without refitting:
//! `e₍ᵢ₎ = (y_{c,i} − ŷ_{c,i}) / (1 − hᵢᵢ)`. The score of `α` is the mean squared LOO residual
//! (over samples, and over targets unless `alpha_per_target`), scikit-learn's `RidgeCV` with
//! `cv=None`, `scoring=None` (its "generalized cross-validation" mode, which computes these
//! exact LOO errors). The best `α` is the first one with the smallest score, and the
//! coefficients are the ridge solution `w = V diag(sⱼ/(sⱼ² + α)) Uᵀ y_c` for it.
//!
//! `U`, `S`, `V` come from whichever Gram matrix is smaller: for `N > D` the eigendecomposition
//! of `X_cᵀX_c` (`D × D`, formed as in the crate docs) with `U = X_c V S⁻¹` (computed in
//! 2,048-row centred blocks); otherwise the eigendecomposition of `X_cX_cᵀ` (`N × N`) with
//! `V = X_cᵀ U S⁻¹` (scikit-learn's `"svd"` / `"eigen"` modes). Directions with
//! `sⱼ² ≤ max(N, D)·ε·s₁²` are dropped (numerically zero; their `fⱼ` would be 0 for any
//! `α > 0` at this precision).
//!
//! # Complexity
//!
//! One decomposition, `O(N D min(N, D))`, then `O(N r k)` per alpha.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `alphas` | `[0.1, 1.0, 10.0]` | `alphas` | non-empty, each finite and > 0 |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `alpha_per_target` | `false` | `alpha_per_target` | |
//!
//! # Errors
//!
//! As [`crate::Ridge`]; [`Error::TooFewSamples`] for fewer than 2 rows (leave-one-out needs
//! two); [`Error::InvalidParam`] for an empty or invalid `alphas`.
//!
//! # References
//!
//! - Course notes: ridge and its SVD form (T. Hastie, R. Tibshirani, J. Friedman, *The Elements
//!   of Statistical Learning*, 2nd ed., 2009, §3.4.1); catalog L-04 (CL-073). The leave-one-out
//!   shortcut is not in the course notes (implementation choice).
//! - G. H. Golub, M. Heath, G. Wahba, "Generalized cross-validation as a method for choosing a
//!   good ridge parameter", Technometrics 21(2), 1979.
//! - R. M. Rifkin, R. A. Lippert, "Notes on regularized least squares", MIT-CSAIL-TR-2007-025.
//!
//! ```
//! use ndlearn_core::Fit;
//! use ndlearn_linear::RidgeCV;
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("regression target");
//! let fit = RidgeCV::new(vec![0.001, 0.01, 0.1, 1.0]).fit(data.x(), y)?;
//! assert!(fit.alpha() > 0.0);
//! assert_eq!(fit.mse_path().nrows(), 4);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::{Error, Fit, Float, Result, linalg};

use crate::design::{self, as_column, check_xy};
use crate::model::{LinearCoef, linear_model_api};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Ridge with leave-one-out selection of `alpha` (scikit-learn's `RidgeCV`). See the
/// [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct RidgeCV {
    /// Candidate penalties (default `[0.1, 1.0, 10.0]`).
    pub alphas: Vec<f64>,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Choose one alpha per target for multi-output fits (default `false`: one alpha
    /// minimising the error averaged over targets).
    pub alpha_per_target: bool,
}

impl Default for RidgeCV {
    fn default() -> Self {
        Self {
            alphas: vec![0.1, 1.0, 10.0],
            fit_intercept: true,
            alpha_per_target: false,
        }
    }
}

impl RidgeCV {
    /// `RidgeCV` over the given alphas.
    pub fn new(alphas: Vec<f64>) -> Self {
        Self {
            alphas,
            ..Self::default()
        }
    }

    ndlearn_core::setters! {
        /// Sets the candidate alphas.
        alphas: Vec<f64>,
        /// Sets `fit_intercept`.
        fit_intercept: bool,
        /// Sets `alpha_per_target`.
        alpha_per_target: bool,
    }

    /// Fits every column of `y` (`N × k`).
    ///
    /// # Errors
    /// As [`Fit::fit`].
    pub fn fit_multi<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef2<F>,
    ) -> Result<FittedRidgeCV<F>> {
        self.fit_targets(x, y.view(), true)
    }

    fn fit_targets<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: ArrayView2<'_, F>,
        multi_output: bool,
    ) -> Result<FittedRidgeCV<F>> {
        self.validate()?;
        check_xy(x, &y, 2, "RidgeCV::fit")?;
        let m = design::column_sums_and_xty(x, &y, self.fit_intercept)?;
        let (n, d) = x.dim();
        let k = y.ncols();
        let spec = spectrum(x, &m, n > d)?;
        let yc = design::centred_targets(&y, &m.y_mean);
        let uty = spec.u.t().dot(&yc); // r × k
        let u2 = spec.u.mapv(|v| v * v);
        let base = if self.fit_intercept {
            F::one() / F::cast(n)
        } else {
            F::zero()
        };
        let n_alphas = self.alphas.len();
        let mut mse = Array2::<F>::zeros((n_alphas, k));
        for (ai, &alpha) in self.alphas.iter().enumerate() {
            let a = F::cast(alpha);
            let f = spec.s2.mapv(|v| v / (v + a));
            let h = u2.dot(&f);
            let mut scaled = uty.clone();
            for (mut row, &fj) in scaled.axis_iter_mut(Axis(0)).zip(f.iter()) {
                row.mapv_inplace(|v| v * fj);
            }
            let fitted = spec.u.dot(&scaled);
            for t in 0..k {
                let mut acc = F::zero();
                for i in 0..n {
                    let loo = (yc[[i, t]] - fitted[[i, t]]) / (F::one() - h[i] - base);
                    acc += loo * loo;
                }
                mse[[ai, t]] = acc / F::cast(n);
            }
        }
        let best: Vec<usize> = if self.alpha_per_target && k > 1 {
            (0..k)
                .map(|t| argmin(mse.column(t).iter().copied()))
                .collect()
        } else {
            let mean = mse
                .mean_axis(Axis(1))
                .unwrap_or_else(|| Array1::zeros(n_alphas));
            vec![argmin(mean.iter().copied()); k]
        };
        let mut w = Array2::zeros((d, k));
        for t in 0..k {
            let a = F::cast(self.alphas[best[t]]);
            let z: Array1<F> = (0..spec.s2.len())
                .map(|j| {
                    let s2 = spec.s2[j];
                    s2.sqrt() / (s2 + a) * uty[[j, t]]
                })
                .collect();
            w.column_mut(t).assign(&spec.v.dot(&z));
        }
        let alpha: Vec<f64> = best.iter().map(|&b| self.alphas[b]).collect();
        let best_score = (0..k).map(|t| mse[[best[t], t]]).sum::<F>() / F::cast(k);
        Ok(FittedRidgeCV {
            params: self.clone(),
            lin: LinearCoef::from_solution(&w, &m.x_mean, &m.y_mean, multi_output),
            alpha,
            mse,
            best_score,
        })
    }
}

impl ndlearn_core::Estimator for RidgeCV {
    /// Checks the alphas.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for an empty list or an alpha that is not finite and > 0.
    fn validate(&self) -> Result<()> {
        if self.alphas.is_empty() {
            return Err(Error::invalid_param("alphas", "needs at least one value"));
        }
        for &a in &self.alphas {
            ndlearn_core::validate::check_positive("alphas", a)?;
        }
        Ok(())
    }
}

/// Index of the first smallest value (NaN never wins).
fn argmin<F: Float>(it: impl Iterator<Item = F>) -> usize {
    let mut best = (0, F::infinity());
    for (i, v) in it.enumerate() {
        if v < best.1 {
            best = (i, v);
        }
    }
    best.0
}

/// `X_c = U diag(√s2) Vᵀ` restricted to the numerically non-zero directions.
struct Spectrum<F: Float> {
    u: Array2<F>,
    s2: Array1<F>,
    v: Array2<F>,
}

fn spectrum<F: Float>(
    x: &ArrayRef2<F>,
    m: &design::Moments<F>,
    primal: bool,
) -> Result<Spectrum<F>> {
    let (n, d) = x.dim();
    let tol = F::cast(n.max(d)) * F::epsilon();
    if primal {
        let g = design::gram(x, m);
        let (lam, vecs) = linalg::eigh_descending(&g)?;
        let lmax = lam.first().copied().unwrap_or(F::zero());
        let r = lam
            .iter()
            .filter(|&&l| l > tol * lmax && l > F::zero())
            .count();
        let v = vecs.slice(s![.., ..r]).to_owned();
        let s2 = lam.slice(s![..r]).to_owned();
        let mut u = design::centred_dot(x, &m.x_mean, &v);
        for (mut col, &l) in u.axis_iter_mut(Axis(1)).zip(s2.iter()) {
            let inv = F::one() / l.sqrt();
            col.mapv_inplace(|t| t * inv);
        }
        Ok(Spectrum { u, s2, v })
    } else {
        let xc = design::centred_copy(x, &m.x_mean);
        let mut k = xc.dot(&xc.t());
        design::symmetrize(&mut k);
        let (lam, vecs) = linalg::eigh_descending(&k)?;
        let lmax = lam.first().copied().unwrap_or(F::zero());
        let r = lam
            .iter()
            .filter(|&&l| l > tol * lmax && l > F::zero())
            .count();
        let u = vecs.slice(s![.., ..r]).to_owned();
        let s2 = lam.slice(s![..r]).to_owned();
        let mut v = xc.t().dot(&u);
        for (mut col, &l) in v.axis_iter_mut(Axis(1)).zip(s2.iter()) {
            let inv = F::one() / l.sqrt();
            col.mapv_inplace(|t| t * inv);
        }
        Ok(Spectrum { u, s2, v })
    }
}

impl<F: Float> Fit<F> for RidgeCV {
    type Target = ArrayRef1<F>;
    type Model = FittedRidgeCV<F>;

    /// Scores every alpha by leave-one-out and fits ridge with the best (see the
    /// [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedRidgeCV<F>> {
        self.fit_targets(x, as_column(y), false)
    }
}

impl<F: Float> ndlearn_core::FitMultiOutput<F> for RidgeCV {
    /// Fits every column of `y` (see [`RidgeCV::fit_multi`]).
    fn fit_multi(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<FittedRidgeCV<F>> {
        RidgeCV::fit_multi(self, x, y)
    }
}

/// A fitted [`RidgeCV`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedRidgeCV<F: Float> {
    params: RidgeCV,
    pub(crate) lin: LinearCoef<F>,
    alpha: Vec<f64>,
    mse: Array2<F>,
    best_score: F,
}

linear_model_api!(FittedRidgeCV);

impl<F: Float> FittedRidgeCV<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &RidgeCV {
        &self.params
    }

    /// The chosen alpha (of the first target; scikit-learn's `alpha_`).
    pub fn alpha(&self) -> f64 {
        self.alpha[0]
    }

    /// The chosen alpha of every target.
    pub fn alphas_per_target(&self) -> &[f64] {
        &self.alpha
    }

    /// Mean squared leave-one-out error for each candidate alpha (rows, in the order given)
    /// and target (columns): scikit-learn's `cv_results_.mean(axis=0)`.
    pub fn mse_path(&self) -> &Array2<F> {
        &self.mse
    }

    /// The mean squared LOO error at the chosen alpha(s), averaged over targets
    /// (scikit-learn's `best_score_` is its negative).
    pub fn best_score(&self) -> F {
        self.best_score
    }
}

impl<F: Float> CheckModel for FittedRidgeCV<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedRidgeCV");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        let k = self.lin.coef.nrows();
        c.len("alpha", self.alpha.len(), k)?;
        c.that(self.alpha.iter().all(|a| a.is_finite() && *a > 0.0), || {
            "`alpha` must be finite and positive".into()
        })?;
        c.shape("mse", self.mse.dim(), (self.params.alphas.len(), k))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ridge;
    use ndarray::array;
    use ndlearn_core::Predict;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = problem();
        let mut fit = RidgeCV::default().fit(&x, &y).expect("fit");
        assert!(fit.check_model().is_ok());
        fit.alpha[0] = f64::NAN;
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

    fn problem() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.0],
            [2.0, -1.0, 0.0],
            [3.0, 2.0, 1.0],
            [4.0, 0.0, -2.0],
            [5.0, 1.5, 0.5],
            [6.0, -0.5, 1.5],
            [7.0, 1.0, -0.5],
            [8.0, 2.5, 2.0]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5];
        (x, y)
    }

    /// Brute-force leave-one-out with explicit refits.
    fn brute_loo(x: &Array2<f64>, y: &Array1<f64>, alpha: f64, intercept: bool) -> f64 {
        let n = x.nrows();
        let mut acc = 0.0;
        for i in 0..n {
            let keep: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            let fit = Ridge::new(alpha)
                .fit_intercept(intercept)
                .fit(&x.select(Axis(0), &keep), &y.select(Axis(0), &keep))
                .expect("fit");
            let p = fit.predict(&x.slice(s![i..=i, ..])).expect("predict")[0];
            acc += (y[i] - p).powi(2);
        }
        acc / n as f64
    }

    #[test]
    fn loo_shortcut_equals_refitting() {
        let (x, y) = problem();
        for intercept in [true, false] {
            let alphas = vec![0.01, 0.5, 4.0];
            let fit = RidgeCV::new(alphas.clone())
                .fit_intercept(intercept)
                .fit(&x, &y)
                .expect("fit");
            for (i, &a) in alphas.iter().enumerate() {
                let want = brute_loo(&x, &y, a, intercept);
                let got = fit.mse_path()[[i, 0]];
                assert!(
                    (got - want).abs() < 1e-10 * want,
                    "{intercept} {a}: {got} vs {want}"
                );
            }
            let best = Ridge::new(fit.alpha())
                .fit_intercept(intercept)
                .fit(&x, &y)
                .expect("fit");
            assert!((&best.coef() - &fit.coef()).iter().all(|v| v.abs() < 1e-12));
            assert!((best.intercept() - fit.intercept()).abs() < 1e-12);
        }
        // Wide data (N ≤ D) takes the N × N route.
        let xw = x.slice(s![..3, ..]).to_owned();
        let xw = ndarray::concatenate![Axis(1), xw, xw.mapv(|v| v * v)];
        let yw = y.slice(s![..3]).to_owned();
        let fit = RidgeCV::new(vec![0.1, 1.0]).fit(&xw, &yw).expect("fit");
        for (i, &a) in [0.1, 1.0].iter().enumerate() {
            let want = brute_loo(&xw, &yw, a, true);
            assert!((fit.mse_path()[[i, 0]] - want).abs() < 1e-9 * want);
        }
    }

    #[test]
    fn per_target_choice() {
        let (x, y) = problem();
        let noisy = &y + &array![3.0, -2.5, 4.0, -3.0, 2.0, -4.0, 3.5, -1.0];
        let y2 = ndarray::stack![Axis(1), y, noisy];
        let alphas = vec![0.01, 1.0, 100.0];
        let per = RidgeCV::new(alphas.clone())
            .alpha_per_target(true)
            .fit_multi(&x, &y2)
            .expect("fit");
        for t in 0..2 {
            let one = RidgeCV::new(alphas.clone())
                .fit(&x, &y2.column(t).to_owned())
                .expect("fit");
            assert_eq!(per.alphas_per_target()[t], one.alpha());
            assert!(
                (&per.coef_multi().row(t) - &one.coef())
                    .iter()
                    .all(|v| v.abs() < 1e-12)
            );
        }
        let joint = RidgeCV::new(alphas).fit_multi(&x, &y2).expect("fit");
        assert_eq!(joint.alphas_per_target()[0], joint.alphas_per_target()[1]);
    }

    #[test]
    fn invalid_inputs() {
        let (x, y) = problem();
        assert!(RidgeCV::new(vec![]).fit(&x, &y).is_err());
        assert!(RidgeCV::new(vec![0.0]).fit(&x, &y).is_err());
        assert!(RidgeCV::new(vec![f64::INFINITY]).fit(&x, &y).is_err());
        assert!(matches!(
            RidgeCV::default().fit(&x.slice(s![..1, ..]).to_owned(), &array![1.0]),
            Err(Error::TooFewSamples { .. })
        ));
    }
}
