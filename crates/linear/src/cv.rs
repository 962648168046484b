//! Cross-validated lasso and elastic net: [`LassoCV`] and [`ElasticNetCV`].
//!
//! # Method
//!
//! [`LassoCV`] / [`ElasticNetCV`] compute the penalty grid of [`crate::path`] on the full data
//! (per `l1_ratio`), split the rows into `cv` contiguous folds as scikit-learn's unshuffled
//! `KFold` (the first `N mod cv` folds one row longer), run the path on each training part
//! (centred on its own means), score each `α` by the mean squared error on the held-out part,
//! average over folds, take the first `(l1_ratio, α)` with the smallest mean error, and refit on
//! all the data with the dense coordinate descent (scikit-learn refits with
//! `precompute=False`).
//!
//! The folds run in parallel (`ndlearn_core::par`, one task per fold and `l1_ratio`); their
//! Gram matrices or column-major copies are built beforehand at the top level (BLAS never runs
//! inside a task), and every task is deterministic, so results do not depend on the number of
//! threads.
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `l1_ratios` (`ElasticNetCV`) | `[0.5]` | `l1_ratio` | each in `(0, 1]` |
//! | `n_alphas` | 100 | `n_alphas` / `alphas=int` | ≥ 1 |
//! | `eps` | 1e-3 | `eps` | in `(0, 1]` |
//! | `alphas` | `None` (grid) | `alphas` (array) | each finite and ≥ 0 |
//! | `cv` | 5 | `cv` (int) | ≥ 2 and ≤ `N` |
//! | `fit_intercept`, `max_iter`, `tol`, `positive`, `precompute` | as [`crate::ElasticNet`] | same | |
//!
//! # Errors
//!
//! Shape / finiteness errors of the data, [`Error::TooFewSamples`] for fewer rows than folds,
//! [`Error::InvalidParam`] for invalid hyperparameters.
//!
//! # References
//!
//! - J. Friedman, T. Hastie, R. Tibshirani, "Regularization paths for generalized linear models
//!   via coordinate descent", J. Stat. Software 33(1), 2010.
//! - Course notes: lasso (R. Tibshirani, "Regression shrinkage and selection via the lasso",
//!   JRSS B 58(1), 1996); catalog L-05, L-06. K-fold
//!   selection of the penalty is an implementation choice (scikit-learn's).
//!
//! ```
//! use ndlearn_core::Fit;
//! use ndlearn_linear::LassoCV;
//!
//! let data = ndlearn_datasets::diabetes();
//! let y = data.y_values().expect("regression target");
//! let cv = LassoCV::default().n_alphas(20).fit(data.x(), y)?;
//! assert!(cv.alphas().contains(&cv.alpha()));
//! assert_eq!(cv.mse_path().dim(), (20, 5));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndlearn_core::Estimator;
use std::ops::Range;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::{Error, Fit, Float, Result, par};

use crate::design::{self, Moments, as_column, check_xy};
use crate::lasso::{ElasticNet, Precompute, Prepared};
use crate::model::{LinearCoef, linear_model_api};
use crate::path::{grid_from_xty, path_setters, run_path, sorted_desc, validate_grid};
use ndlearn_core::validate::{CheckModel, ModelCheck};

/// Elastic net with `(l1_ratio, α)` chosen by K-fold cross-validation (scikit-learn's
/// `ElasticNetCV`). See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ElasticNetCV {
    /// Candidate L1 shares (default `[0.5]`).
    #[cfg_attr(feature = "serde", serde(rename = "l1_ratio", alias = "l1_ratios"))]
    pub l1_ratios: Vec<f64>,
    /// Grid size per `l1_ratio` (default 100).
    pub n_alphas: usize,
    /// Grid ratio `α_min/α_max` (default 1e-3).
    pub eps: f64,
    /// Explicit penalties instead of the grid.
    pub alphas: Option<Vec<f64>>,
    /// Number of folds (default 5).
    pub cv: usize,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Maximum sweeps per fit (default 1000).
    pub max_iter: usize,
    /// Duality-gap tolerance (default 1e-4).
    pub tol: f64,
    /// Non-negative coefficients (default `false`).
    pub positive: bool,
    /// Gram variant for the fold paths (default `Auto`).
    pub precompute: Precompute,
}

impl Default for ElasticNetCV {
    fn default() -> Self {
        Self {
            l1_ratios: vec![0.5],
            n_alphas: 100,
            eps: 1e-3,
            alphas: None,
            cv: 5,
            fit_intercept: true,
            max_iter: 1000,
            tol: 1e-4,
            positive: false,
            precompute: Precompute::Auto,
        }
    }
}

impl ElasticNetCV {
    /// `ElasticNetCV` over the given L1 shares, other settings default.
    pub fn new(l1_ratios: Vec<f64>) -> Self {
        Self {
            l1_ratios,
            ..Self::default()
        }
    }

    path_setters!();

    ndlearn_core::setters! {
        /// Sets the number of folds.
        cv: usize,
        /// Sets the candidate L1 shares.
        l1_ratios: Vec<f64>,
    }

    fn enet(&self, l1_ratio: f64, alpha: f64) -> ElasticNet {
        ElasticNet::new(alpha, l1_ratio)
            .fit_intercept(self.fit_intercept)
            .max_iter(self.max_iter)
            .tol(self.tol)
            .positive(self.positive)
            .precompute(self.precompute)
    }
}

impl ndlearn_core::Estimator for ElasticNetCV {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the field.
    fn validate(&self) -> Result<()> {
        if self.l1_ratios.is_empty() {
            return Err(Error::invalid_param(
                "l1_ratios",
                "needs at least one value",
            ));
        }
        ndlearn_core::validate::check_at_least("cv", self.cv, 2)?;
        for &r in &self.l1_ratios {
            if self.alphas.is_none() && (r.is_nan() || r <= 0.0) {
                return Err(Error::invalid_param(
                    "l1_ratios",
                    "the automatic alpha grid needs l1_ratio > 0; pass explicit alphas",
                ));
            }
            validate_grid(r, self.n_alphas, self.eps, self.alphas.as_deref())?;
            self.enet(r, 1.0).validate()?;
        }
        Ok(())
    }
}

/// scikit-learn's unshuffled `KFold` test ranges.
fn kfold(n: usize, k: usize) -> Vec<Range<usize>> {
    let base = n / k;
    let extra = n % k;
    let mut start = 0;
    (0..k)
        .map(|f| {
            let len = base + usize::from(f < extra);
            let r = start..start + len;
            start += len;
            r
        })
        .collect()
}

struct FoldData<F: Float> {
    test: Range<usize>,
    prep: Prepared<F>,
    yc: Vec<F>,
    xty: Vec<F>,
    yty: F,
    n_train: usize,
    x_mean: Array1<F>,
    y_mean: F,
}

struct CvResult<F: Float> {
    alphas: Vec<Vec<f64>>,
    mse_path: Vec<Array2<F>>,
    best_l1: usize,
    best_alpha: usize,
}

fn cross_validate<F: Float>(
    est: &ElasticNetCV,
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
) -> Result<CvResult<F>> {
    est.validate()?;
    let yv = as_column(y);
    check_xy(x, &yv, est.cv, "ElasticNetCV::fit")?;
    let (n, d) = x.dim();
    let m: Moments<F> = design::column_sums_and_xty(x, &yv, est.fit_intercept)?;
    let xty_full = m.xty.column(0).to_owned();
    let alphas: Vec<Vec<f64>> = est
        .l1_ratios
        .iter()
        .map(|&r| match &est.alphas {
            Some(a) => sorted_desc(a),
            None => grid_from_xty(&xty_full, n, r, est.n_alphas, est.eps, est.positive),
        })
        .collect();
    // Fold data, built at the top level (BLAS may run here, never inside the tasks).
    let folds: Vec<FoldData<F>> = kfold(n, est.cv)
        .into_iter()
        .map(|test| {
            let train: Vec<usize> = (0..n).filter(|i| !test.contains(i)).collect();
            let xt = x.select(Axis(0), &train);
            let yt = y.select(Axis(0), &train);
            let ytv = as_column(&yt);
            let mt = design::column_sums_and_xty(&xt, &ytv, est.fit_intercept)?;
            let n_train = train.len();
            let prep = Prepared::new(&xt, &mt, est.precompute.use_gram(n_train, d));
            Ok(FoldData {
                test,
                prep,
                yc: yt.iter().map(|&v| v - mt.y_mean[0]).collect(),
                xty: mt.xty.column(0).to_vec(),
                yty: mt.yty[0],
                n_train,
                x_mean: mt.x_mean,
                y_mean: mt.y_mean[0],
            })
        })
        .collect::<Result<_>>()?;
    let n_l1 = est.l1_ratios.len();
    let n_folds = folds.len();
    let paths = par::map_tasks(n_l1 * n_folds, |task| {
        let (li, fi) = (task / n_folds, task % n_folds);
        let f = &folds[fi];
        let enet = est.enet(est.l1_ratios[li], 1.0);
        run_path(&f.prep, &f.yc, &f.xty, f.yty, f.n_train, &enet, &alphas[li]).0
    });
    let mut mse_path: Vec<Array2<F>> = alphas
        .iter()
        .map(|a| Array2::zeros((a.len(), n_folds)))
        .collect();
    for (task, coefs) in paths.iter().enumerate() {
        let (li, fi) = (task / n_folds, task % n_folds);
        let f = &folds[fi];
        let xt = x.slice(ndarray::s![f.test.clone(), ..]);
        let intercepts = coefs.dot(&f.x_mean).mapv(|v| f.y_mean - v);
        let mut pred = xt.dot(&coefs.t());
        pred += &intercepts;
        let yt = y.slice(ndarray::s![f.test.clone()]);
        let nt = F::cast(f.test.len());
        for (ai, col) in pred.columns().into_iter().enumerate() {
            let mse = col
                .iter()
                .zip(yt.iter())
                .map(|(&p, &t)| (p - t) * (p - t))
                .sum::<F>()
                / nt;
            mse_path[li][[ai, fi]] = mse;
        }
    }
    let mut best = (0, 0, F::infinity());
    for (li, mp) in mse_path.iter().enumerate() {
        let mean = mp.mean_axis(Axis(1)).unwrap_or_else(|| Array1::zeros(0));
        let mut ai_best = (0, F::infinity());
        for (ai, &v) in mean.iter().enumerate() {
            if v < ai_best.1 {
                ai_best = (ai, v);
            }
        }
        if ai_best.1 < best.2 {
            best = (li, ai_best.0, ai_best.1);
        }
    }
    Ok(CvResult {
        alphas,
        mse_path,
        best_l1: best.0,
        best_alpha: best.1,
    })
}

impl<F: Float> Fit<F> for ElasticNetCV {
    type Target = ArrayRef1<F>;
    type Model = FittedElasticNetCV<F>;

    /// Cross-validates the grid and refits with the best `(l1_ratio, α)` (see the
    /// [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedElasticNetCV<F>> {
        let cv = cross_validate(self, x, y)?;
        let l1_ratio = self.l1_ratios[cv.best_l1];
        let alpha = cv.alphas[cv.best_l1][cv.best_alpha];
        let refit = self
            .enet(l1_ratio, alpha)
            .precompute(match self.precompute {
                Precompute::Auto => Precompute::Never,
                p => p,
            })
            .fit(x, y)?;
        Ok(FittedElasticNetCV {
            params: self.clone(),
            lin: refit.lin.clone(),
            alpha,
            l1_ratio,
            alphas: cv.alphas,
            mse_path: cv.mse_path,
            n_iter: refit.n_iter(),
            dual_gap: refit.dual_gap()[0],
        })
    }
}

/// A fitted [`ElasticNetCV`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedElasticNetCV<F: Float> {
    params: ElasticNetCV,
    pub(crate) lin: LinearCoef<F>,
    alpha: f64,
    l1_ratio: f64,
    alphas: Vec<Vec<f64>>,
    mse_path: Vec<Array2<F>>,
    n_iter: usize,
    dual_gap: F,
}

linear_model_api!(FittedElasticNetCV);

impl<F: Float> FittedElasticNetCV<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &ElasticNetCV {
        &self.params
    }
    /// The chosen penalty (scikit-learn's `alpha_`).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The chosen L1 share (scikit-learn's `l1_ratio_`).
    pub fn l1_ratio(&self) -> f64 {
        self.l1_ratio
    }
    /// The grid of each `l1_ratio` (decreasing; scikit-learn's `alphas_`).
    pub fn alphas(&self) -> &[Vec<f64>] {
        &self.alphas
    }
    /// Held-out mean squared error per `α` (rows) and fold (columns), one matrix per
    /// `l1_ratio` (scikit-learn's `mse_path_`).
    pub fn mse_path(&self) -> &[Array2<F>] {
        &self.mse_path
    }
    /// Sweeps of the final refit.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Duality gap of the final refit, divided by `N`.
    pub fn dual_gap(&self) -> F {
        self.dual_gap
    }
}

/// Lasso with `α` chosen by K-fold cross-validation (scikit-learn's `LassoCV`): the
/// [`ElasticNetCV`] procedure with `l1_ratio = 1`. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct LassoCV {
    /// Grid size (default 100).
    pub n_alphas: usize,
    /// Grid ratio `α_min/α_max` (default 1e-3).
    pub eps: f64,
    /// Explicit penalties instead of the grid.
    pub alphas: Option<Vec<f64>>,
    /// Number of folds (default 5).
    pub cv: usize,
    /// Fit an unpenalised intercept (default `true`).
    pub fit_intercept: bool,
    /// Maximum sweeps per fit (default 1000).
    pub max_iter: usize,
    /// Duality-gap tolerance (default 1e-4).
    pub tol: f64,
    /// Non-negative coefficients (default `false`).
    pub positive: bool,
    /// Gram variant for the fold paths (default `Auto`).
    pub precompute: Precompute,
}

impl Default for LassoCV {
    fn default() -> Self {
        let e = ElasticNetCV::default();
        Self {
            n_alphas: e.n_alphas,
            eps: e.eps,
            alphas: e.alphas,
            cv: e.cv,
            fit_intercept: e.fit_intercept,
            max_iter: e.max_iter,
            tol: e.tol,
            positive: e.positive,
            precompute: e.precompute,
        }
    }
}

impl LassoCV {
    path_setters!();

    ndlearn_core::setters! {
        /// Sets the number of folds.
        cv: usize,
    }

    /// The equivalent [`ElasticNetCV`] (`l1_ratios = [1]`).
    pub fn as_elastic_net_cv(&self) -> ElasticNetCV {
        ElasticNetCV {
            l1_ratios: vec![1.0],
            n_alphas: self.n_alphas,
            eps: self.eps,
            alphas: self.alphas.clone(),
            cv: self.cv,
            fit_intercept: self.fit_intercept,
            max_iter: self.max_iter,
            tol: self.tol,
            positive: self.positive,
            precompute: self.precompute,
        }
    }
}

impl ndlearn_core::Estimator for LassoCV {
    /// Checks the hyperparameters.
    ///
    /// # Errors
    /// As [`ElasticNetCV::validate`].
    fn validate(&self) -> Result<()> {
        self.as_elastic_net_cv().validate()
    }
}

impl<F: Float> Fit<F> for LassoCV {
    type Target = ArrayRef1<F>;
    type Model = FittedLassoCV<F>;

    /// Cross-validates the grid and refits with the best `α`.
    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FittedLassoCV<F>> {
        let inner = self.as_elastic_net_cv().fit(x, y)?;
        Ok(FittedLassoCV {
            params: self.clone(),
            lin: inner.lin,
            alpha: inner.alpha,
            alphas: inner.alphas.into_iter().next().unwrap_or_default(),
            mse_path: inner
                .mse_path
                .into_iter()
                .next()
                .unwrap_or_else(|| Array2::zeros((0, 0))),
            n_iter: inner.n_iter,
            dual_gap: inner.dual_gap,
        })
    }
}

/// A fitted [`LassoCV`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLassoCV<F: Float> {
    params: LassoCV,
    pub(crate) lin: LinearCoef<F>,
    alpha: f64,
    alphas: Vec<f64>,
    mse_path: Array2<F>,
    n_iter: usize,
    dual_gap: F,
}

linear_model_api!(FittedLassoCV);

impl<F: Float> FittedLassoCV<F> {
    /// The hyperparameters of the fit.
    pub fn params(&self) -> &LassoCV {
        &self.params
    }
    /// The chosen penalty (scikit-learn's `alpha_`).
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
    /// The grid, decreasing (scikit-learn's `alphas_`).
    pub fn alphas(&self) -> &[f64] {
        &self.alphas
    }
    /// Held-out mean squared error per `α` (rows) and fold (columns) (scikit-learn's
    /// `mse_path_`).
    pub fn mse_path(&self) -> &Array2<F> {
        &self.mse_path
    }
    /// Sweeps of the final refit.
    pub fn n_iter(&self) -> usize {
        self.n_iter
    }
    /// Duality gap of the final refit, divided by `N`.
    pub fn dual_gap(&self) -> F {
        self.dual_gap
    }
}

impl<F: Float> CheckModel for FittedElasticNetCV<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedElasticNetCV");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        c.that(self.alpha.is_finite() && self.alpha >= 0.0, || {
            "`alpha` must be finite and non-negative".into()
        })?;
        c.that((0.0..=1.0).contains(&self.l1_ratio), || {
            "`l1_ratio` must lie in [0, 1]".into()
        })?;
        c.len("alphas", self.alphas.len(), self.params.l1_ratios.len())?;
        c.len("mse_path", self.mse_path.len(), self.alphas.len())?;
        for (a, m) in self.alphas.iter().zip(&self.mse_path) {
            c.shape("mse_path", m.dim(), (a.len(), self.params.cv))?;
        }
        Ok(())
    }
}

impl<F: Float> CheckModel for FittedLassoCV<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLassoCV");
        c.params(&self.params)?;
        c.part("lin", &self.lin)?;
        c.that(self.alpha.is_finite() && self.alpha >= 0.0, || {
            "`alpha` must be finite and non-negative".into()
        })?;
        c.shape(
            "mse_path",
            self.mse_path.dim(),
            (self.alphas.len(), self.params.cv),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_catches_a_broken_state() {
        let (x, y) = problem();
        let mut fit = LassoCV::default()
            .n_alphas(5)
            .cv(3)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.alphas.pop();
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
        let mut fit = ElasticNetCV::new(vec![0.2, 0.9])
            .n_alphas(4)
            .cv(2)
            .fit(&x, &y)
            .expect("fit");
        assert!(fit.check_model().is_ok());
        fit.mse_path.pop();
        assert!(matches!(fit.check_model(), Err(Error::InvalidModel { .. })));
    }

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
    fn kfold_matches_sklearn_sizes() {
        assert_eq!(kfold(10, 3), vec![0..4, 4..7, 7..10]);
        assert_eq!(kfold(6, 2), vec![0..3, 3..6]);
    }

    #[test]
    fn cv_is_thread_invariant_and_picks_from_the_grid() {
        let (x, y) = problem();
        let est = LassoCV::default().n_alphas(10).cv(3);
        let a = par::with_threads(1, || est.fit(&x, &y))
            .expect("pool")
            .expect("fit");
        let b = par::with_threads(2, || est.fit(&x, &y))
            .expect("pool")
            .expect("fit");
        assert_eq!(a, b);
        assert!(a.alphas().contains(&a.alpha()));
        assert_eq!(a.mse_path().dim(), (10, 3));
        let en = ElasticNetCV::new(vec![0.2, 0.9])
            .n_alphas(8)
            .cv(2)
            .fit(&x, &y)
            .expect("fit");
        assert!(en.l1_ratio() == 0.2 || en.l1_ratio() == 0.9);
        assert_eq!(en.mse_path().len(), 2);
    }

    #[test]
    fn invalid_options() {
        let (x, y) = problem();
        assert!(LassoCV::default().cv(1).fit(&x, &y).is_err());
        assert!(matches!(
            LassoCV::default().cv(11).fit(&x, &y),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(ElasticNetCV::new(vec![]).fit(&x, &y).is_err());
        assert!(LassoCV::default().n_alphas(0).fit(&x, &y).is_err());
    }
}
