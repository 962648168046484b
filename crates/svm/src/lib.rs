//! # ndlearn-svm
//!
//! Support vector machines and kernel methods over [`ndlearn_core`], with scikit-learn's
//! (libsvm's) formulations, defaults and attribute conventions, checked against scikit-learn
//! (`scripts/golden/svm.py`).
//!
//! | estimator | what | scikit-learn | solver |
//! |---|---|---|---|
//! | [`Svc`] | C-support vector classification; binary, one-vs-one multi-class (pairs in parallel), class and sample weights, Platt probabilities | `SVC` | SMO, WSS3, shrinking, LRU kernel cache |
//! | [`NuSvc`] | ν-support vector classification | `NuSVC` | SMO (ν form) |
//! | [`Svr`] | ε-insensitive support vector regression | `SVR` | SMO over `2n` variables |
//! | [`NuSvr`] | ν-support vector regression (ε found by the solver) | `NuSVR` | SMO (ν form) |
//! | [`OneClassSvm`] | novelty / outlier detection (`+1` / `−1`, `decision_function`, `score_samples`) | `OneClassSVM` | SMO |
//! | [`HardMarginSvm`] | the course notes' hard-margin linear SVM (binary; [`Error::Infeasible`](ndlearn_core::Error::Infeasible) when not separable), margin `2/‖w‖` | `SVC(kernel="linear", C→∞)` | core's interior-point QP on the dual |
//! | [`PrimalSvm`] | the course notes' soft-margin linear SVM in the primal, hinge (L1-SVM) or squared hinge (L2-SVM), `λ` with `C = 1/(Nλ)` | `SGDClassifier(loss="hinge")` (per-sample form) | (stochastic) subgradient descent, best iterate |
//! | [`KernelRidge`] | ridge regression in a kernel's feature space, several targets and alphas | `KernelRidge` | Cholesky (least squares when not positive definite) |
//! | [`LinearSvc`] | linear SVM classification: hinge or squared hinge, L2 or L1 penalty, one-vs-rest (classes in parallel) or Crammer–Singer, class and sample weights | `LinearSVC` | liblinear: dual coordinate descent, trust-region Newton, L1 primal coordinate descent |
//! | [`LinearSvr`] | linear SVM regression: ε-insensitive or squared ε-insensitive loss, sample weights | `LinearSVR` | liblinear: dual coordinate descent, trust-region Newton |
//!
//! Kernels: `linear`, `poly`, `rbf` (default), `sigmoid`, `precomputed` (the input is the
//! kernel matrix), or any core [`Kernel`](ndlearn_core::kernel::Kernel) (`SvmKernel::Custom`).
//! `gamma` is `"scale"` (default, `1/(d·Var X)`), `"auto"` (`1/d`) or a number, resolved to a
//! number at fit (the fitted model's `kernel()`).
//!
//! ```
//! use ndlearn_core::{DecisionFunction, Fit, Predict};
//! use ndlearn_svm::{Svc, SvmKernel};
//!
//! let data = ndlearn_datasets::breast_cancer();
//! let y = data.y_classes().expect("labels");
//! let model = Svc::default().kernel(SvmKernel::Linear).c(0.1).fit(data.x(), y)?;
//! let scores = model.decision_function(data.x())?; // n × 1, positive = class 1
//! let pred = model.predict(data.x())?;
//! assert!(scores.column(0).iter().zip(&pred).all(|(s, &p)| (*s > 0.0) == (p == 1)));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ## Design
//!
//! One SMO solver ([`solver`](crate)) serves every dual: the C form (WSS3 of Fan, Chen and Lin)
//! and the ν form (pairs within one sign), with shrinking every `min(n, 1000)` iterations and a
//! final check over all variables with the reconstructed gradient. Kernel rows come from core's
//! [`PreparedKernel`](ndlearn_core::kernel::PreparedKernel) (validated once, row norms cached)
//! through an LRU cache of `cache_size` MB per problem; the solver works in `f64` whatever the
//! input type. Multi-class problems solve their `K(K − 1)/2` pairs as parallel tasks (results
//! do not depend on the thread count); prediction is one kernel block (BLAS for dot-product
//! kernels) times a coefficient matrix. Decision 0018 records the choices.
//!
//! ## Linear SVMs (liblinear)
//!
//! [`LinearSvc`] and [`LinearSvr`] solve the primal `R(w̃) + Σᵢ Cᵢ ℓ(yᵢ, w̃ᵀx̃ᵢ)` in the input
//! space, with no kernel: `x̃ = [x, intercept_scaling]` carries a synthetic bias feature whose
//! weight **is penalised** (as liblinear; a large `intercept_scaling` weakens that penalty), and
//! `Cᵢ = C · class weight · sample weight`. The solvers are the published algorithms liblinear
//! implements, written here from the papers, with liblinear's stopping rules and shrinking so
//! that both stop at the same accuracy:
//!
//! | solver | for | stops when |
//! |---|---|---|
//! | dual coordinate descent with shrinking (Hsieh et al. 2008; Ho and Lin 2012 for regression) | hinge, squared hinge, ε-insensitive, squared ε-insensitive with the L2 penalty (`dual = true`) | projected-gradient spread `≤ tol` (classification), subgradient 1-norm `≤ tol ×` its first value (regression) |
//! | trust-region Newton with conjugate gradients, TRON (Lin, Weng and Keerthi 2008) | squared hinge / squared ε-insensitive with the L2 penalty (`dual = false`) | `‖∇F‖ ≤ tol′‖∇F(0)‖` |
//! | primal coordinate descent with Newton steps and line search (Yuan et al. 2010) | squared hinge with the L1 penalty | subgradient 1-norm `≤ tol′ ×` its first value |
//! | block dual coordinate descent (Crammer and Singer; liblinear's appendix) | `multi_class = crammer_singer` | largest block gradient spread `< tol` on a pass over all samples |
//!
//! (`tol′ = tol · max(min(n₊, n₋), 1)/n` for classification, as liblinear.) `dual = "auto"`
//! is scikit-learn 1.9's rule: the dual when `n_samples < n_features` and it exists, otherwise
//! the primal when it exists. The coordinate solvers visit the variables in a random order per
//! pass from core's seeded stream (one stream per one-vs-rest problem): the fit is bitwise the
//! same for any thread count, and equals liblinear's to the solver tolerance (the golden test
//! compares the primal objectives: within `5·10⁻¹⁰` relative at `tol = 10⁻¹⁰`, `10⁻⁹` for Crammer–Singer).

mod cache;
pub mod kernel_ridge;
mod liblinear;
pub mod linear_svc;
pub mod linear_svr;
mod machine;
pub mod params;
pub mod primal;
#[cfg(feature = "serde")]
pub mod registry;
mod solver;
pub mod svc;
pub mod svr;

pub use kernel_ridge::{FittedKernelRidge, KernelRidge};
pub use linear_svc::{Dual, FittedLinearSvc, LinearSvc, MultiClass, Penalty, SvcLoss};
pub use linear_svr::{FittedLinearSvr, LinearSvr, SvrLoss};
pub use params::{Gamma, SvmKernel, c_from_lambda, lambda_from_c};
pub use primal::{FittedHardMarginSvm, FittedPrimalSvm, HardMarginSvm, PrimalLoss, PrimalSvm};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use svc::{DecisionShape, FittedSvc, NuSvc, Svc};
pub use svr::{FittedOneClassSvm, FittedSvr, NuSvr, OneClassSvm, Svr};
