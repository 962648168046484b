//! Ridge and RidgeCV against scikit-learn (`datasets/golden/linear/ridge.json`, written by
//! `scripts/golden/linear.py`).

use ndarray::{Array1, Array2, ArrayRef, Dimension};
use ndlearn_core::Fit;
use ndlearn_linear::{Ridge, RidgeCV, RidgeSolver};
use ndlearn_testkit::{Case, Golden, assert_close};

fn golden() -> Golden {
    Golden::load("linear", "ridge")
}

/// `rtol` relative to the largest entry of `expected`.
fn close<D: Dimension>(
    actual: &ArrayRef<f64, D>,
    expected: &ArrayRef<f64, D>,
    rtol: f64,
    ctx: &str,
) {
    let scale = expected
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    assert_close(actual, expected, rtol, rtol * scale, ctx);
}

fn is_multi(case: &Case) -> bool {
    case.raw("y")
        .as_array()
        .is_some_and(|rows| rows.first().is_some_and(|r| r.is_array()))
}

#[test]
fn ridge_matches_sklearn_for_every_solver() {
    let g = golden();
    for case in g
        .cases()
        .into_iter()
        .filter(|c| !c.name().starts_with("ridgecv"))
    {
        let x = case.matrix("x");
        let est = Ridge::default().fit_intercept(case.usize("fit_intercept") == 1);
        for solver in [RidgeSolver::Auto, RidgeSolver::Cholesky, RidgeSolver::Svd] {
            let ctx = format!("{} {solver:?}", case.name());
            let est = est.solver(solver);
            if is_multi(case) {
                let y = case.matrix("y");
                let fit = est
                    .fit_multi_alphas(&x, &y, &case.vector("alphas").to_vec())
                    .expect("fit");
                close(fit.coef_multi(), &case.matrix("coef"), 1e-8, &ctx);
                close(fit.intercept_multi(), &case.vector("intercept"), 1e-8, &ctx);
            } else {
                let fit = est
                    .alpha(case.scalar("alpha"))
                    .fit(&x, &case.vector("y"))
                    .expect("fit");
                close(&fit.coef().to_owned(), &case.vector("coef"), 1e-8, &ctx);
                let b = case.scalar("intercept");
                assert!(
                    (fit.intercept() - b).abs() <= 1e-8 * b.abs().max(1.0),
                    "{ctx}: intercept {} vs {b}",
                    fit.intercept()
                );
            }
        }
    }
}

#[test]
fn ridge_f32_is_close() {
    let g = golden();
    let case = g.case("diabetes_a1");
    let x = case.matrix("x").mapv(|v| v as f32);
    let y = case.vector("y").mapv(|v| v as f32);
    for solver in [RidgeSolver::Cholesky, RidgeSolver::Svd] {
        let fit = Ridge::new(1.0).solver(solver).fit(&x, &y).expect("fit");
        let coef = case.vector("coef");
        let scale = coef.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert_close(
            &fit.coef().to_owned(),
            &coef,
            1e-4,
            1e-4 * scale,
            "f32 ridge",
        );
    }
}

#[test]
fn ridge_cv_matches_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("ridgecv") {
        let name = case.name();
        let x = case.matrix("x");
        let alphas = case.vector("alphas").to_vec();
        let est = RidgeCV::new(alphas)
            .fit_intercept(case.usize("fit_intercept") == 1)
            .alpha_per_target(case.usize("alpha_per_target") == 1);
        let want_alpha = case.vector("alpha");
        if is_multi(case) {
            let fit = est.fit_multi(&x, &case.matrix("y")).expect("fit");
            close(fit.mse_path(), &case.matrix("mse"), 1e-9, name);
            let got: Array1<f64> = fit.alphas_per_target().iter().copied().collect();
            let k = got.len();
            let want: Array1<f64> = if want_alpha.len() == k {
                want_alpha.clone()
            } else {
                Array1::from_elem(k, want_alpha[0])
            };
            assert_eq!(got, want, "{name}: chosen alphas");
            close(fit.coef_multi(), &case.matrix("coef"), 1e-8, name);
            close(fit.intercept_multi(), &case.vector("intercept"), 1e-8, name);
        } else {
            let fit = est.fit(&x, &case.vector("y")).expect("fit");
            let mse: Array2<f64> = fit.mse_path().clone();
            close(&mse.column(0).to_owned(), &case.vector("mse"), 1e-9, name);
            assert_eq!(fit.alpha(), want_alpha[0], "{name}: chosen alpha");
            close(&fit.coef().to_owned(), &case.vector("coef"), 1e-8, name);
            let b = case.scalar("intercept");
            assert!(
                (fit.intercept() - b).abs() <= 1e-8 * b.abs().max(1.0),
                "{name}"
            );
        }
    }
}
