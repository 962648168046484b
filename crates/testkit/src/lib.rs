//! # ndlearn-testkit
//!
//! Test support for the ndlearn workspace (`publish = false`; a dev-dependency only). Its
//! functions panic with a clear message when a check fails: that is their job, like `assert!`.
//!
//! | module | what |
//! |---|---|
//! | [`golden`] | [`golden_dir`], [`Golden`] and [`Case`]: reading the scikit-learn reference files `datasets/golden/<crate>/<algo>.json` (matrices, vectors, scalars, counts, labels, strings) |
//! | [`tolerance`] | [`assert_close`] / [`assert_close_scalar`] (numpy's `allclose` rule, worst element reported), [`max_abs_diff`], [`assert_bitwise_eq`], [`normalize_column_signs`] / [`normalize_row_signs`] (eigen/singular vector sign convention) |
//! | [`strategies`] | proptest strategies: [`any_matrix`], [`well_conditioned_matrix`], [`spd_matrix`], [`symmetric_matrix`], [`separable_blobs`], [`regression_problem`] ([`RegressionProblem`]), and the runner [`config`] |
//! | [`conformance`] | the estimator conformance [`Battery`] (NaN/Inf, empty, one row, wrong feature count, target length, one class, constant columns, 1e±300 scales, k > n, serde round trip, thread invariance, `Send + Sync`) and its [`Report`] |
//!
//! ```
//! use ndlearn_testkit::{assert_close, normalize_column_signs};
//! use ndarray::array;
//!
//! let mut v = array![[-0.6, 0.8], [-0.8, -0.6]];
//! normalize_column_signs(&mut v);
//! assert_close(&v, &array![[0.6, 0.8], [0.8, -0.6]], 1e-12, 0.0, "eigenvectors");
//! ```
//!
//! A golden test reads its inputs and expected outputs from the file and compares with
//! tolerances; a conformance test is one line per estimator:
//!
//! ```ignore
//! #[test]
//! fn golden_ridge() {
//!     let g = Golden::load("linear", "ridge");
//!     for case in g.cases_with_prefix("ridge_") {
//!         let fitted = Ridge::default().alpha(case.scalar("alpha")).fit(&case.matrix("x"), &case.vector("y"))?;
//!         assert_close(fitted.coef(), &case.vector("coef"), 1e-8, 1e-10, case.name());
//!     }
//! }
//!
//! #[test]
//! fn ridge_conforms() {
//!     Battery::new("Ridge").regressor(&Ridge::default()).assert_ok();
//! }
//! ```

pub mod conformance;
pub mod golden;
pub mod strategies;
pub mod tolerance;

pub use conformance::{Battery, Check, CheckResult, Report, Status};
pub use golden::{Case, Golden, golden_dir};
pub use strategies::{
    RegressionProblem, any_matrix, config, regression_problem, separable_blobs, spd_matrix,
    symmetric_matrix, well_conditioned_matrix,
};
pub use tolerance::{
    assert_bitwise_eq, assert_close, assert_close_scalar, max_abs_diff, normalize_column_signs,
    normalize_row_signs, same_partition,
};
