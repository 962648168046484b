//! Lasso, ElasticNet, paths and LassoCV / ElasticNetCV against scikit-learn
//! (`datasets/golden/linear/lasso.json`, written by `scripts/golden/linear.py`).

use ndarray::{Array1, Array2, ArrayRef, ArrayRef1, Dimension};
use ndlearn_core::Fit;
use ndlearn_linear::{
    ElasticNet, ElasticNetCV, EnetSolver, LassoCV, PathOptions, Precompute, enet_path,
};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("linear", "lasso")
}

fn close<D: Dimension>(a: &ArrayRef<f64, D>, e: &ArrayRef<f64, D>, rtol: f64, ctx: &str) {
    let scale = e.iter().fold(0.0f64, |m, v| m.max(v.abs())).max(1e-300);
    assert_close(a, e, rtol, rtol * scale, ctx);
}

fn objective(
    x: &Array2<f64>,
    y: &Array1<f64>,
    w: &ArrayRef1<f64>,
    b: f64,
    alpha: f64,
    rho: f64,
) -> f64 {
    let r = y - &(x.dot(w) + b);
    let n = x.nrows() as f64;
    r.dot(&r) / (2.0 * n)
        + alpha * rho * w.iter().map(|v| v.abs()).sum::<f64>()
        + 0.5 * alpha * (1.0 - rho) * w.dot(w)
}

fn estimator(case: &Case) -> ElasticNet {
    ElasticNet::new(case.scalar("alpha"), case.scalar("l1_ratio"))
        .tol(case.scalar("tol"))
        .max_iter(case.usize("max_iter"))
        .positive(case.usize("positive") == 1)
        .fit_intercept(case.usize("fit_intercept") == 1)
}

fn single_cases(g: &Golden) -> Vec<&Case> {
    g.cases()
        .into_iter()
        .filter(|c| {
            (c.name().starts_with("lasso_") || c.name().starts_with("enet_"))
                && c.name() != "enet_multi_output"
        })
        .collect()
}

#[test]
fn coordinate_descent_matches_sklearn() {
    let g = golden();
    for case in single_cases(&g) {
        let x = case.matrix("x");
        let y = case.vector("y");
        let tight = case.scalar("tol") < 1e-6;
        let want_obj = case.scalar("objective");
        for precompute in [Precompute::Auto, Precompute::Always, Precompute::Never] {
            let ctx = format!("{} {precompute:?}", case.name());
            let fit = estimator(case)
                .precompute(precompute)
                .fit(&x, &y)
                .expect("fit");
            assert!(fit.converged(), "{ctx}: not converged");
            let obj = objective(
                &x,
                &y,
                &fit.coef(),
                fit.intercept(),
                case.scalar("alpha"),
                case.scalar("l1_ratio"),
            );
            if tight {
                close(&fit.coef().to_owned(), &case.vector("coef"), 1e-7, &ctx);
                assert_close_scalar(fit.intercept(), case.scalar("intercept"), 1e-7, 1e-7, &ctx);
                assert_close_scalar(obj, want_obj, 1e-12, 0.0, &ctx);
            } else {
                // Same objective to the solver tolerance: both stop with gap ≤ tol·‖y_c‖²/N,
                // and the gap bounds the distance to the optimum value.
                let yc = &y - y.mean().expect("rows");
                let bound = case.scalar("tol") * yc.dot(&yc) / x.nrows() as f64;
                assert!(
                    (obj - want_obj).abs() <= bound,
                    "{ctx}: objective {obj} vs {want_obj}, bound {bound}"
                );
                close(&fit.coef().to_owned(), &case.vector("coef"), 1e-2, &ctx);
            }
            // The reported gap is a bound on the suboptimality and below the tolerance.
            let yc = &y - y.mean().expect("rows");
            let yy = if case.usize("fit_intercept") == 1 {
                yc.dot(&yc)
            } else {
                y.dot(&y)
            };
            assert!(
                fit.dual_gap()[0] <= case.scalar("tol") * yy / x.nrows() as f64 + 1e-15,
                "{ctx}"
            );
        }
    }
}

#[test]
fn teaching_solvers_reach_the_same_optimum() {
    let g = golden();
    for name in ["lasso_diabetes", "enet_diabetes", "lasso_regression"] {
        let case = g.case(name);
        let x = case.matrix("x");
        let y = case.vector("y");
        let want = case.scalar("objective");
        for solver in [EnetSolver::Fista, EnetSolver::Ista] {
            let fit = estimator(case)
                .solver(solver)
                .tol(1e-13)
                .max_iter(2_000_000)
                .fit(&x, &y)
                .expect("fit");
            let obj = objective(
                &x,
                &y,
                &fit.coef(),
                fit.intercept(),
                case.scalar("alpha"),
                case.scalar("l1_ratio"),
            );
            assert_close_scalar(obj, want, 1e-10, 0.0, &format!("{name} {solver:?}"));
            close(&fit.coef().to_owned(), &case.vector("coef"), 1e-5, name);
        }
    }
}

#[test]
fn multi_output_matches_sklearn() {
    let g = golden();
    let case = g.case("enet_multi_output");
    let fit = estimator(case)
        .fit_multi(&case.matrix("x"), &case.matrix("y"))
        .expect("fit");
    close(fit.coef_multi(), &case.matrix("coef"), 1e-7, "multi coef");
    close(
        fit.intercept_multi(),
        &case.vector("intercept"),
        1e-7,
        "multi intercept",
    );
}

#[test]
fn paths_match_sklearn() {
    let g = golden();
    for case in g.cases_with_prefix("path_") {
        let name = case.name();
        let x = case.matrix("x");
        let y = case.vector("y");
        let opts = PathOptions::default()
            .l1_ratio(case.scalar("l1_ratio"))
            .n_alphas(case.usize("n_alphas"))
            .eps(case.scalar("eps"))
            .tol(case.scalar("tol"))
            .max_iter(100_000);
        for precompute in [Precompute::Always, Precompute::Never] {
            let path = enet_path(&x, &y, &opts.clone().precompute(precompute)).expect("path");
            let alphas = Array1::from(path.alphas().to_vec());
            assert_close(&alphas, &case.vector("alphas"), 1e-12, 0.0, name);
            close(path.coefs(), &case.matrix("coefs"), 1e-6, name);
        }
    }
}

#[test]
fn cross_validation_matches_sklearn() {
    let g = golden();
    let case = g.case("lassocv_diabetes");
    let fit = LassoCV::default()
        .cv(case.usize("cv"))
        .n_alphas(case.usize("n_alphas"))
        .tol(case.scalar("tol"))
        .max_iter(100_000)
        .fit(&case.matrix("x"), &case.vector("y"))
        .expect("fit");
    let alphas = case.matrix("alphas");
    assert_close(
        &Array1::from(fit.alphas().to_vec()),
        &alphas.row(0),
        1e-12,
        0.0,
        "alphas",
    );
    close(fit.mse_path(), &case.matrix("mse"), 1e-7, "lassocv mse");
    assert_close_scalar(fit.alpha(), case.scalar("alpha"), 1e-12, 0.0, "alpha_");
    close(
        &fit.coef().to_owned(),
        &case.vector("coef"),
        1e-6,
        "lassocv coef",
    );

    let case = g.case("enetcv_regression");
    let fit = ElasticNetCV::new(case.vector("l1_ratios").to_vec())
        .cv(case.usize("cv"))
        .n_alphas(case.usize("n_alphas"))
        .tol(case.scalar("tol"))
        .max_iter(100_000)
        .fit(&case.matrix("x"), &case.vector("y"))
        .expect("fit");
    let alphas = case.matrix("alphas");
    let mse = case.matrix("mse");
    let n_alphas = case.usize("n_alphas");
    for (li, grid) in fit.alphas().iter().enumerate() {
        assert_close(
            &Array1::from(grid.clone()),
            &alphas.row(li),
            1e-12,
            0.0,
            "enet alphas",
        );
        let want = mse
            .slice(ndarray::s![li * n_alphas..(li + 1) * n_alphas, ..])
            .to_owned();
        close(&fit.mse_path()[li], &want, 1e-7, "enetcv mse");
    }
    assert_eq!(fit.l1_ratio(), case.scalar("l1_ratio"));
    assert_close_scalar(fit.alpha(), case.scalar("alpha"), 1e-12, 0.0, "enet alpha_");
    close(
        &fit.coef().to_owned(),
        &case.vector("coef"),
        1e-6,
        "enetcv coef",
    );
}

#[test]
fn f32_is_close() {
    let g = golden();
    let case = g.case("lasso_diabetes");
    let x = case.matrix("x").mapv(|v| v as f32);
    let y = case.vector("y").mapv(|v| v as f32);
    for precompute in [Precompute::Always, Precompute::Never] {
        let fit = ElasticNet::new(case.scalar("alpha"), 1.0)
            .tol(1e-6)
            .precompute(precompute)
            .fit(&x, &y)
            .expect("fit");
        let coef = case.vector("coef");
        let scale = coef.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert_close(
            &fit.coef().to_owned(),
            &coef,
            1e-3,
            2e-3 * scale,
            "f32 lasso",
        );
    }
}
