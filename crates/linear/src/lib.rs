//! # ndlearn-linear
//!
//! Linear models over [`ndlearn_core`]: least squares with inference, ridge, lasso and elastic
//! net, with scikit-learn's objectives and defaults, checked against scikit-learn to the digit
//! (`scripts/golden/linear.py`).
//!
//! | estimator / function | what | scikit-learn | solvers |
//! |---|---|---|---|
//! | [`LinearRegression`] | ordinary least squares, multi-output | `LinearRegression` | Cholesky on `XᵀX` (auto, with fallback), QR, SVD (minimum norm), gradient descent |
//! | [`OlsInference`] (`fitted.inference(x, y)`) | `σ²` (MLE and unbiased), standard errors, t statistics, prediction intervals, leverage, studentized residuals, Cook's distance, residual summary | statsmodels `OLS` | closed form |
//! | [`simple_regression`], [`regression_through_origin`] | one-feature closed forms (cov/var; `Σxy/Σx²`) | — | closed form |
//! | [`Ridge`] | L2-penalised least squares, multi-output with per-target alpha | `Ridge` | Cholesky (primal, or dual when `D > N`), SVD shrinkage form, mini-batch SGD |
//! | [`Lasso`], [`ElasticNet`] | L1 / L1+L2-penalised least squares, warm starts, `positive` | `Lasso`, `ElasticNet` | coordinate descent (dense or Gram) with scikit-learn's duality-gap stop; ISTA, FISTA, subgradient (teaching) |
//! | [`lasso_path`], [`enet_path`], [`alpha_grid`] | regularisation paths with warm starts | `lasso_path`, `enet_path` | coordinate descent |
//! | [`LassoCV`], [`ElasticNetCV`] | K-fold selection of `α` (and `l1_ratio`), folds in parallel | `LassoCV`, `ElasticNetCV` | coordinate descent |
//! | [`LogisticRegression`] | binary and multinomial (softmax) logistic regression, L2, L1, elastic-net or no penalty, class and sample weights, `predict_proba`, `decision_function`, custom threshold | `LogisticRegression` | L-BFGS, Newton, IRLS; proximal Newton with coordinate descent (L1 / elastic net) |
//! | [`OneVsRestClassifier`], [`OneVsOneClassifier`], [`RandomBipartitionClassifier`] | multiclass reductions over any binary classifier (one-vs-rest, one-vs-one with vote + confidence tie-break, random label bipartitions decoded by the nearest code word); [`ProbaScore`] adapts probability-only models | `OneVsRestClassifier`, `OneVsOneClassifier`, `OutputCodeClassifier` | the base estimator's, sub-problems in parallel |
//! | [`RidgeCV`] | ridge with alpha chosen by exact leave-one-out over many alphas from one decomposition | `RidgeCV` (`cv=None`) | eigendecomposition of `X_cᵀX_c` or `X_cX_cᵀ` |
//! | [`Perceptron`], [`perceptron_loss`] | the course notes' PLA (`sign(0) = +1`), θ/η and stochastic-subgradient variants, and scikit-learn's SGD perceptron; one-vs-rest for `K ≥ 3` | `Perceptron` | classic PLA, threshold, subgradient (batches), SGD |
//! | [`LeastSquaresClassifier`] | least-squares linear discriminant: one score per class fitted to one-hot (or ±1) targets, argmax | `RidgeClassifier` (`alpha > 0`, ±1 targets) | OLS / ridge machinery of this crate |
//! | [`HuberRegressor`] | Huber loss with jointly estimated scale (or the course notes' fixed-scale `h_{λ,μ}`), outlier mask | `HuberRegressor` | L-BFGS on the objective with the scale profiled out (exact `σ*(w, b)`) |
//! | [`QuantileRegressor`], [`LadRegressor`] | pinball loss + L1 penalty; least absolute deviations (Laplace MLE) | `QuantileRegressor` | simplex LP (exact); IRLS for LAD |
//! | [`TotalLeastSquares`] | orthogonal regression (errors in variables), multi-output | — | SVD of the centred `[X Y]` |
//! | [`SGDClassifier`], [`SGDRegressor`] | linear SVM / logistic / Huber / ε-insensitive … by plain SGD, L2 / L1 / elastic-net, `partial_fit`, averaging, one-vs-all | `SGDClassifier`, `SGDRegressor` | scikit-learn's per-sample SGD (same arithmetic: equal results with `shuffle = false`) |
//! | [`BayesianLinearRegression`] | Gaussian posterior `N(m_N, S_N)` with prior `N(μ₀, Σ₀)` and known noise precision `β` (MAP = `m_N`), predictive std, posterior sampling | — | Cholesky of `Σ₀⁻¹ + βX_cᵀX_c` |
//! | [`ArdRegression`] | automatic relevance determination: one precision per weight by evidence maximisation, pruning | `ARDRegression` | Cholesky (Woodbury when `N < D`) |
//! | [`BayesianRidge`] | evidence maximisation of noise and weight precisions, predictive std | `BayesianRidge` | thin SVD + MacKay's fixed point |
//! | [`PolynomialRegression`], [`rms_error_curve`] | polynomial basis expansion + OLS or ridge; train/test `E_RMS` over orders | `make_pipeline(PolynomialFeatures, LinearRegression / Ridge)` | SVD |
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_linear::LinearRegression;
//!
//! let data = ndlearn_datasets::diabetes();           // 442 × 10, scaled as scikit-learn
//! let y = data.y_values().expect("regression target");
//! let fit = LinearRegression::default().fit(data.x(), y)?;
//! let pred = fit.predict(data.x())?;
//! let rss: f64 = (&pred - y).mapv(|r| r * r).sum();
//! let tss: f64 = y.mapv(|v| v - y.mean().unwrap_or(0.0)).mapv(|v| v * v).sum();
//! assert!((1.0 - rss / tss - 0.5177).abs() < 1e-3);   // R² of the full OLS fit
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ## Conventions
//!
//! - **Intercepts are never penalised.** With `fit_intercept` (the default), `X` and `y` are
//!   centred, the centred problem is solved, and `b = ȳ − x̄ᵀw`, as scikit-learn does.
//! - **Objectives are scikit-learn's**, stated with their scaling next to each estimator
//!   (the course notes use `1/(2N)`, `½` or `1` in different places: catalog erratum E2).
//! - **Multi-output**: every regressor has `fit_multi(x, Y)` for an `N × k` target matrix
//!   (one factorisation shared by all targets). Coefficients are stored as scikit-learn's 2-D
//!   `coef_` (`k × d`); `coef()` / `intercept()` give the first (for `fit`, the only) target and
//!   `coef_multi()` / `intercept_multi()` all of them. `Predict::predict` returns `Array1` and
//!   errors for a multi-output model (use `predict_multi`, which returns `N × k` for any model).
//!   The `Fit` trait fixes one target type per estimator, so a second target type is a method
//!   rather than a second `Fit` implementation.
//! - **Feature importances**: every fitted regressor implements
//!   [`ndlearn_core::FeatureImportances`] with `|w_j|` summed over targets.
//! - `f32` and `f64` are both supported; hyperparameters are `f64`.
//!
//! ## How `XᵀX` is formed
//!
//! The closed-form solvers need `G = X_cᵀX_c` and `X_cᵀy_c`. They are computed without a
//! centred copy of `X`: one fused parallel pass gives the column sums of `X` and `Xᵀ(y − ȳ)`
//! (which equals `X_cᵀy_c`, and which also serves as the NaN/infinity check of `X`), one BLAS
//! gemm gives `XᵀX`, and a rank-one correction `XᵀX − N x̄x̄ᵀ` centres it. When a column's mean
//! is so large against its spread that the correction would cancel more than about a quarter of
//! the digits (`G_c,jj < ε^{1/4}·(XᵀX)_jj`), `G` is recomputed exactly from centred blocks of
//! 2,048 rows. On 500,000 × 100 this is one gemm plus one memory pass.
//!
//! ## Threads and determinism
//!
//! The fused pass uses fixed row chunks folded in order (`ndlearn_core::par`), and big products
//! run in BLAS at the top level, so results are bitwise identical for any rayon thread count.
//!
//! ## Features
//!
//! `serde` (default): `Serialize`/`Deserialize` for hyperparameters and fitted models, and
//! [`registry()`] (the estimators by name for the command line and the benchmark runner).

pub mod ard;
pub mod bayesian;
mod cd;
pub mod cv;
mod design;
mod enet_first_order;
pub mod huber;
pub mod inference;
pub mod lasso;
pub mod logistic;
mod logistic_loss;
pub mod ls_classifier;
mod model;
pub mod multiclass;
pub mod ols;
pub mod path;
pub mod perceptron;
pub mod polynomial;
pub mod quantile;
#[cfg(feature = "serde")]
pub mod registry;
pub mod ridge;
pub mod ridge_cv;
pub mod sgd;
pub mod simple;
pub mod tls;

pub use ard::{ArdRegression, FittedArdRegression};
pub use bayesian::{
    BayesianLinearRegression, BayesianRidge, FittedBayesianLinearRegression, FittedBayesianRidge,
    GaussianPrior,
};
pub use cv::{ElasticNetCV, FittedElasticNetCV, FittedLassoCV, LassoCV};
pub use huber::{
    FittedHuberRegressor, HuberLoss, HuberRegressor, huber_loss, huber_loss_derivative,
};
pub use inference::{OlsInference, PredictionIntervals, ResidualSummary};
pub use lasso::{ElasticNet, EnetSolver, FittedElasticNet, FittedLasso, Lasso, Precompute};
pub use logistic::{FittedLogisticRegression, LogisticPenalty, LogisticRegression, LogisticSolver};
pub use ls_classifier::{FittedLeastSquaresClassifier, LeastSquaresClassifier, LsTargets};
pub use multiclass::{
    CodeDecoding, FittedOneVsOneClassifier, FittedOneVsRestClassifier, FittedProbaScore,
    FittedRandomBipartitionClassifier, OneVsOneClassifier, OneVsRestClassifier, ProbaScore,
    RandomBipartitionClassifier,
};
/// Class weights of the classifiers (core's one [`ndlearn_core::ClassWeight`]).
pub use ndlearn_core::ClassWeight;
pub use ols::{FittedLinearRegression, LinearRegression, OlsSolver};
pub use path::{EnetPath, PathOptions, alpha_grid, enet_path, lasso_path};
pub use perceptron::{
    FittedPerceptron, Perceptron, PerceptronPenalty, PerceptronSolver, perceptron_loss,
};
pub use polynomial::{
    FittedPolynomialRegression, OrderErrors, PolynomialRegression, rms_error, rms_error_curve,
};
pub use quantile::{
    FittedLadRegressor, FittedQuantileRegressor, LadRegressor, LadSolver, QuantileRegressor,
};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use ridge::{FittedRidge, Ridge, RidgeSolver};
pub use ridge_cv::{FittedRidgeCV, RidgeCV};
pub use sgd::{
    FittedSGDClassifier, FittedSGDRegressor, LearningRate, SGDClassifier, SGDRegressor, SgdLoss,
    SgdPenalty,
};
pub use simple::{SimpleRegression, regression_through_origin, simple_regression};
pub use tls::{FittedTotalLeastSquares, TotalLeastSquares, orthogonal_distance_ss};
