//! Regularisation paths ([`lasso_path`], [`enet_path`], [`alpha_grid`]); the cross-validated
//! estimators built on them are in [`crate::cv`].
//!
//! # Paths
//!
//! A path solves the elastic net (objective in [`crate::lasso`]) for a decreasing sequence of
//! penalties, each fit warm-started from the previous solution. The default grid is
//! scikit-learn's: `n_alphas` values log-spaced from
//!
//! ```text
//! α_max = ‖X_cᵀy_c‖_∞ / (N ρ)        (max(X_cᵀy_c)₊ / (N ρ) with `positive`)
//! ```
//!
//! (the smallest penalty with `w = 0`) down to `eps·α_max`. As scikit-learn's `lasso_path` /
//! `enet_path`, the path functions do **not** centre the data unless `fit_intercept` is set in
//! [`PathOptions`] (then the grid and the fits use the centred data and intercepts are
//! returned). A grid of `α_max ≤ 1e-15` (e.g. a constant `y`) is returned as `n_alphas`
//! copies of `1e-15` (numpy's `finfo(float).resolution`), as scikit-learn does.
//!
//! # References
//!
//! - J. Friedman, T. Hastie, R. Tibshirani, "Regularization paths for generalized linear models
//!   via coordinate descent", J. Stat. Software 33(1), 2010 (warm-started paths, the grid).
//! - Course notes: lasso; catalog L-05, L-06. R. Tibshirani, "Regression shrinkage and
//!   selection via the lasso", JRSS B 58(1), 1996.
//!
//! ```
//! use ndlearn_linear::{PathOptions, lasso_path};
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("regression target");
//! let path = lasso_path(data.x(), y, &PathOptions::default().n_alphas(20))?;
//! assert_eq!(path.coefs().dim(), (20, 10));
//! assert!(path.coefs().row(0).iter().all(|&w| w == 0.0));   // α_max: all zero
//! assert!(path.coefs().row(19).iter().filter(|&&w| w != 0.0).count() > 5);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::Estimator;
use ndlearn_core::{Error, Float, Result};

use crate::design::{self, as_column, check_xy};
use crate::lasso::{ElasticNet, Precompute, Prepared, settings};

/// The smallest `α` scikit-learn's grid uses (`np.finfo(float).resolution`).
pub(crate) const RESOLUTION: f64 = 1e-15;

/// Options of [`lasso_path`] / [`enet_path`] (builder-style setters).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PathOptions {
    /// L1 share `ρ ∈ (0, 1]` (ignored by [`lasso_path`], which uses 1; default 1).
    pub l1_ratio: f64,
    /// Number of grid points (default 100).
    pub n_alphas: usize,
    /// `α_min / α_max` of the grid (default 1e-3).
    pub eps: f64,
    /// Explicit penalties instead of the grid (sorted decreasing before use).
    pub alphas: Option<Vec<f64>>,
    /// Centre the data and return intercepts (default `false`, as scikit-learn's paths).
    pub fit_intercept: bool,
    /// Maximum sweeps per `α` (default 1000).
    pub max_iter: usize,
    /// Duality-gap tolerance (default 1e-4).
    pub tol: f64,
    /// Non-negative coefficients (default `false`).
    pub positive: bool,
    /// Gram-matrix variant (default `Auto`).
    pub precompute: Precompute,
}

impl Default for PathOptions {
    fn default() -> Self {
        Self {
            l1_ratio: 1.0,
            n_alphas: 100,
            eps: 1e-3,
            alphas: None,
            fit_intercept: false,
            max_iter: 1000,
            tol: 1e-4,
            positive: false,
            precompute: Precompute::Auto,
        }
    }
}

macro_rules! path_setters {
    () => {
        ndlearn_core::setters! {
            /// Sets `n_alphas`.
            n_alphas: usize,
            /// Sets `eps`.
            eps: f64,
        }
        /// Uses explicit penalties instead of the grid.
        pub fn alphas(mut self, v: Vec<f64>) -> Self {
            self.alphas = Some(v);
            self
        }
        ndlearn_core::setters! {
            /// Sets `fit_intercept`.
            fit_intercept: bool,
            /// Sets `max_iter`.
            max_iter: usize,
            /// Sets `tol`.
            tol: f64,
            /// Sets `positive`.
            positive: bool,
            /// Sets `precompute`.
            precompute: Precompute,
        }
    };
}

pub(crate) use path_setters;

impl PathOptions {
    path_setters!();

    ndlearn_core::setters! {
        /// Sets `l1_ratio`.
        l1_ratio: f64,
    }

    fn enet(&self, l1_ratio: f64) -> ElasticNet {
        ElasticNet::new(1.0, l1_ratio)
            .fit_intercept(self.fit_intercept)
            .max_iter(self.max_iter)
            .tol(self.tol)
            .positive(self.positive)
            .precompute(self.precompute)
    }

    fn validate(&self, l1_ratio: f64) -> Result<()> {
        validate_grid(l1_ratio, self.n_alphas, self.eps, self.alphas.as_deref())?;
        self.enet(l1_ratio).validate()
    }
}

pub(crate) fn validate_grid(
    l1_ratio: f64,
    n_alphas: usize,
    eps: f64,
    alphas: Option<&[f64]>,
) -> Result<()> {
    use ndlearn_core::validate::{check_at_least, check_in_range, check_non_negative};
    check_in_range("l1_ratio", l1_ratio, 0.0, 1.0)?;
    match alphas {
        Some(a) => {
            if a.is_empty() {
                return Err(Error::invalid_param("alphas", "needs at least one value"));
            }
            for &v in a {
                check_non_negative("alphas", v)?;
            }
        }
        None => {
            if l1_ratio <= 0.0 {
                return Err(Error::invalid_param(
                    "l1_ratio",
                    "the automatic alpha grid needs l1_ratio > 0; pass explicit alphas",
                ));
            }
            check_at_least("n_alphas", n_alphas, 1)?;
            if !(eps > 0.0 && eps <= 1.0) {
                return Err(Error::invalid_param(
                    "eps",
                    format!("must lie in (0, 1], got {eps}"),
                ));
            }
        }
    }
    Ok(())
}

/// A computed regularisation path.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EnetPath<F: Float> {
    alphas: Vec<f64>,
    coefs: Array2<F>,
    intercepts: Array1<F>,
    dual_gaps: Array1<F>,
    n_iters: Vec<usize>,
}

impl<F: Float> EnetPath<F> {
    /// The penalties, decreasing.
    pub fn alphas(&self) -> &[f64] {
        &self.alphas
    }
    /// Coefficients, one row per penalty (`n_alphas × D`; scikit-learn's `coefs` transposed).
    pub fn coefs(&self) -> &Array2<F> {
        &self.coefs
    }
    /// Intercepts per penalty (zeros unless `fit_intercept`).
    pub fn intercepts(&self) -> &Array1<F> {
        &self.intercepts
    }
    /// Final duality gaps divided by `N`, per penalty.
    pub fn dual_gaps(&self) -> &Array1<F> {
        &self.dual_gaps
    }
    /// Coordinate-descent sweeps per penalty.
    pub fn n_iters(&self) -> &[usize] {
        &self.n_iters
    }
}

/// scikit-learn's `_alpha_grid` from `X_cᵀy_c` (`xty`): `n_alphas` values from `α_max` down to
/// `eps·α_max`, geometrically spaced.
pub(crate) fn grid_from_xty<F: Float>(
    xty: &Array1<F>,
    n: usize,
    l1_ratio: f64,
    n_alphas: usize,
    eps: f64,
    positive: bool,
) -> Vec<f64> {
    let top = if positive {
        xty.iter().fold(0.0f64, |m, v| m.max(v.to_f64_lossless()))
    } else {
        xty.iter()
            .fold(0.0f64, |m, v| m.max(v.to_f64_lossless().abs()))
    };
    let alpha_max = top / (n as f64 * l1_ratio);
    if alpha_max.is_nan() || alpha_max <= RESOLUTION {
        return vec![RESOLUTION; n_alphas];
    }
    if n_alphas == 1 {
        return vec![alpha_max];
    }
    let last = (n_alphas - 1) as f64;
    let log_eps = eps.ln();
    (0..n_alphas)
        .map(|i| match i {
            0 => alpha_max,
            _ if i + 1 == n_alphas => alpha_max * eps,
            _ => alpha_max * (log_eps * i as f64 / last).exp(),
        })
        .collect()
}

/// The default penalty grid of a path (scikit-learn's `_alpha_grid`): `n_alphas` values
/// log-spaced from `α_max = ‖X_cᵀy_c‖_∞/(Nρ)` down to `eps·α_max` (uncentred `X`, `y` when
/// `fit_intercept` is false).
///
/// # Errors
/// Shape / finiteness errors of the data; [`Error::InvalidParam`] for `l1_ratio ∉ (0, 1]`,
/// `n_alphas = 0` or `eps ∉ (0, 1]`.
pub fn alpha_grid<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    l1_ratio: f64,
    n_alphas: usize,
    eps: f64,
    fit_intercept: bool,
    positive: bool,
) -> Result<Vec<f64>> {
    validate_grid(l1_ratio, n_alphas, eps, None)?;
    let yv = as_column(y);
    check_xy(x, &yv, 1, "alpha_grid")?;
    let m = design::column_sums_and_xty(x, &yv, fit_intercept)?;
    Ok(grid_from_xty(
        &m.xty.column(0).to_owned(),
        x.nrows(),
        l1_ratio,
        n_alphas,
        eps,
        positive,
    ))
}

/// The path on prepared data: warm-started coordinate descent for each `α` (decreasing).
pub(crate) fn run_path<F: Float>(
    prep: &Prepared<F>,
    yc: &[F],
    xty: &[F],
    yty: F,
    n: usize,
    enet: &ElasticNet,
    alphas: &[f64],
) -> (Array2<F>, Array1<F>, Vec<usize>) {
    let d = xty.len();
    let mut w = vec![F::zero(); d];
    let mut coefs = Array2::zeros((alphas.len(), d));
    let mut gaps = Array1::zeros(alphas.len());
    let mut iters = Vec::with_capacity(alphas.len());
    for (i, &alpha) in alphas.iter().enumerate() {
        let s = settings::<F>(enet, alpha, n);
        let out = prep.solve(yc, xty, yty, &mut w, &s);
        coefs.row_mut(i).assign(&Array1::from(w.clone()));
        gaps[i] = out.gap / F::cast(n);
        iters.push(out.n_iter);
    }
    (coefs, gaps, iters)
}

pub(crate) fn sorted_desc(a: &[f64]) -> Vec<f64> {
    let mut v = a.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v
}

/// The elastic-net path (scikit-learn's `enet_path`); see the [module docs](self).
///
/// # Errors
/// Shape / finiteness errors of the data; [`Error::InvalidParam`] for invalid options.
pub fn enet_path<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    opts: &PathOptions,
) -> Result<EnetPath<F>> {
    path_with_ratio(x, y, opts, opts.l1_ratio)
}

/// The lasso path (scikit-learn's `lasso_path`): [`enet_path`] with `l1_ratio = 1`.
///
/// # Errors
/// As [`enet_path`].
pub fn lasso_path<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    opts: &PathOptions,
) -> Result<EnetPath<F>> {
    path_with_ratio(x, y, opts, 1.0)
}

fn path_with_ratio<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    opts: &PathOptions,
    l1_ratio: f64,
) -> Result<EnetPath<F>> {
    opts.validate(l1_ratio)?;
    let yv = as_column(y);
    check_xy(x, &yv, 1, "enet_path")?;
    let (n, d) = x.dim();
    let m = design::column_sums_and_xty(x, &yv, opts.fit_intercept)?;
    let xty = m.xty.column(0).to_owned();
    let alphas = match &opts.alphas {
        Some(a) => sorted_desc(a),
        None => grid_from_xty(&xty, n, l1_ratio, opts.n_alphas, opts.eps, opts.positive),
    };
    let prep = Prepared::new(x, &m, opts.precompute.use_gram(n, d));
    let yc: Vec<F> = y.iter().map(|&v| v - m.y_mean[0]).collect();
    let enet = opts.enet(l1_ratio);
    let xty_v = xty.to_vec();
    let (coefs, dual_gaps, n_iters) = run_path(&prep, &yc, &xty_v, m.yty[0], n, &enet, &alphas);
    let intercepts = coefs.dot(&m.x_mean).mapv(|v| m.y_mean[0] - v);
    Ok(EnetPath {
        alphas,
        coefs,
        intercepts,
        dual_gaps,
        n_iters,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Lasso;
    use ndarray::array;
    use ndlearn_core::Fit;

    fn problem() -> (Array2<f64>, Array1<f64>) {
        let x = array![
            [1.0, 0.5, -1.0, 0.3],
            [2.0, -1.0, 0.0, 0.1],
            [3.0, 2.0, 1.0, -0.4],
            [4.0, 0.0, -2.0, 0.8],
            [5.0, 1.5, 0.5, -0.2],
            [6.0, -0.5, 1.5, 0.0],
            [7.0, 1.0, -0.5, 0.6],
            [8.0, 2.5, 2.0, -0.9],
            [9.0, 0.3, 0.2, 0.4],
            [10.0, -1.5, 1.0, -0.1]
        ];
        let y = array![1.2, 1.1, 4.3, 3.8, 6.1, 5.0, 7.9, 9.5, 8.7, 10.4];
        (x, y)
    }

    #[test]
    fn grid_endpoints_and_first_point_is_zero() {
        let (x, y) = problem();
        let opts = PathOptions::default()
            .fit_intercept(true)
            .n_alphas(5)
            .eps(1e-2);
        let p = lasso_path(&x, &y, &opts).expect("path");
        let a = p.alphas();
        assert_eq!(a.len(), 5);
        assert!((a[4] / a[0] - 1e-2).abs() < 1e-15);
        for w in a.windows(2) {
            assert!((w[1] / w[0] - 0.1f64.sqrt()).abs() < 1e-12);
        }
        assert!(p.coefs().row(0).iter().all(|&v| v == 0.0));
        // Each point of the path equals a cold fit at that alpha (within tolerance).
        for (i, &alpha) in a.iter().enumerate() {
            let f = Lasso::new(alpha).tol(1e-4).fit(&x, &y).expect("fit");
            let diff = (&f.coef() - &p.coefs().row(i))
                .iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            assert!(diff < 1e-2, "alpha {alpha}: {diff}");
            assert!((f.intercept() - p.intercepts()[i]).abs() < 1e-1);
        }
        let grid = alpha_grid(&x, &y, 1.0, 5, 1e-2, true, false).expect("grid");
        assert_eq!(grid, a.to_vec());
        // Constant y: degenerate grid.
        let flat = lasso_path(&x, &Array1::from_elem(10, 3.0), &opts).expect("path");
        assert!(flat.alphas().iter().all(|&v| v == RESOLUTION));
    }

    #[test]
    fn invalid_options() {
        let (x, y) = problem();
        assert!(lasso_path(&x, &y, &PathOptions::default().n_alphas(0)).is_err());
        assert!(lasso_path(&x, &y, &PathOptions::default().eps(0.0)).is_err());
        assert!(lasso_path(&x, &y, &PathOptions::default().alphas(vec![])).is_err());
        assert!(enet_path(&x, &y, &PathOptions::default().l1_ratio(0.0)).is_err());
        assert!(
            enet_path(
                &x,
                &y,
                &PathOptions::default().l1_ratio(0.0).alphas(vec![1.0])
            )
            .is_ok()
        );
    }
}
