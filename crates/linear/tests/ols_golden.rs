//! LinearRegression against scikit-learn (`datasets/golden/linear/ols.json`, written by
//! `scripts/golden/linear.py`), inference against statsmodels-equivalent formulas.

use ndarray::{Array1, Array2, s};
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{LinearRegression, OlsSolver};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("linear", "ols")
}

/// `rtol` relative to the largest entry of `expected` (elementwise relative error is
/// meaningless for coefficients that are zero up to noise).
fn close_vec(actual: &Array1<f64>, expected: &Array1<f64>, rtol: f64, ctx: &str) {
    let scale = expected
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    assert_close(actual, expected, rtol, rtol * scale, ctx);
}

fn close_mat(actual: &Array2<f64>, expected: &Array2<f64>, rtol: f64, ctx: &str) {
    let scale = expected
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        .max(1e-300);
    assert_close(actual, expected, rtol, rtol * scale, ctx);
}

fn single_target_cases(g: &Golden) -> Vec<&Case> {
    g.cases()
        .into_iter()
        .filter(|c| c.name() != "multi_output")
        .collect()
}

#[test]
fn coefficients_match_sklearn_for_every_closed_form_solver() {
    let g = golden();
    for case in single_target_cases(&g) {
        let x = case.matrix("x");
        let y = case.vector("y");
        let fit_intercept = case.usize("fit_intercept") == 1;
        let coef = case.vector("coef");
        let rank = case.usize("rank");
        let full_rank = rank == x.ncols();
        let mut solvers = vec![OlsSolver::Auto, OlsSolver::Svd];
        if full_rank {
            solvers.extend([OlsSolver::Cholesky, OlsSolver::Qr]);
        }
        for solver in solvers {
            let ctx = format!("{} {solver:?}", case.name());
            let fit = LinearRegression::default()
                .fit_intercept(fit_intercept)
                .solver(solver)
                .fit(&x, &y)
                .expect("golden problem is well posed");
            close_vec(&fit.coef().to_owned(), &coef, 1e-8, &ctx);
            assert_close_scalar(
                fit.intercept(),
                case.scalar("intercept"),
                1e-8,
                1e-8 * case.scalar("intercept").abs().max(1.0),
                &ctx,
            );
            if solver == OlsSolver::Svd || !full_rank {
                assert_eq!(fit.rank(), rank, "{ctx}: rank");
                close_vec(
                    fit.singular_values().expect("svd path"),
                    &case.vector("singular"),
                    1e-10,
                    &ctx,
                );
            }
        }
    }
}

#[test]
fn gradient_descent_matches_sklearn_to_its_tolerance() {
    let g = golden();
    for name in ["diabetes", "regression_noise", "regression_no_intercept"] {
        let case = g.case(name);
        let fit = LinearRegression::default()
            .fit_intercept(case.usize("fit_intercept") == 1)
            .solver(OlsSolver::GradientDescent {
                max_iter: 1_000_000,
                tol: 1e-12,
            })
            .fit(&case.matrix("x"), &case.vector("y"))
            .expect("fit");
        assert!(fit.converged(), "{name}: GD did not converge");
        close_vec(&fit.coef().to_owned(), &case.vector("coef"), 1e-7, name);
    }
}

#[test]
fn multi_output_matches_sklearn() {
    let g = golden();
    let case = g.case("multi_output");
    let x = case.matrix("x");
    let y = case.matrix("y");
    for solver in [OlsSolver::Auto, OlsSolver::Qr, OlsSolver::Svd] {
        let fit = LinearRegression::default()
            .solver(solver)
            .fit_multi(&x, &y)
            .expect("fit");
        close_mat(fit.coef_multi(), &case.matrix("coef"), 1e-8, "multi coef");
        close_vec(
            fit.intercept_multi(),
            &case.vector("intercept"),
            1e-8,
            "multi b",
        );
        // Each column alone gives the same row.
        let one = LinearRegression::default()
            .solver(solver)
            .fit(&x, &y.column(1).to_owned())
            .expect("fit");
        close_vec(
            &one.coef().to_owned(),
            &fit.coef_multi().row(1).to_owned(),
            1e-10,
            "column 1",
        );
    }
}

#[test]
fn inference_matches_statsmodels_formulas() {
    let g = golden();
    for name in ["diabetes", "diabetes_raw", "regression_noise"] {
        let case = g.case(name);
        let x = case.matrix("x");
        let y = case.vector("y");
        let fit = LinearRegression::default().fit(&x, &y).expect("fit");
        let inf = fit.inference(&x, &y).expect("inference");
        let tol = 1e-8;
        assert_eq!(inf.dof_resid(), case.usize("dof"), "{name}");
        assert_close_scalar(inf.rss(), case.scalar("rss"), tol, 0.0, name);
        assert_close_scalar(inf.sigma2(), case.scalar("scale"), tol, 0.0, name);
        assert_close_scalar(inf.sigma2_mle(), case.scalar("sigma2_mle"), tol, 0.0, name);
        assert_close_scalar(inf.r_squared(), case.scalar("r2"), tol, 0.0, name);
        let se = case.vector("se");
        assert_close_scalar(
            inf.intercept_std_error().expect("intercept"),
            se[0],
            tol,
            0.0,
            name,
        );
        assert_close(&inf.std_errors(), &se.slice(s![1..]), tol, 0.0, name);
        let t = case.vector("tvalues");
        assert_close(&inf.t_values(), &t.slice(s![1..]), 1e-7, 1e-9, name);
        assert_close_scalar(
            inf.intercept_t_value().expect("intercept"),
            t[0],
            1e-7,
            0.0,
            name,
        );
        close_mat(&inf.param_covariance(), &case.matrix("cov"), tol, name);
        assert_close(inf.leverage(), &case.vector("hat"), tol, 1e-12, name);
        assert_close(
            &inf.studentized_residuals(),
            &case.vector("student_internal"),
            1e-7,
            1e-9,
            name,
        );
        assert_close(
            &inf.studentized_residuals_external(),
            &case.vector("student_external"),
            1e-7,
            1e-9,
            name,
        );
        assert_close(
            &inf.cooks_distance(),
            &case.vector("cooks"),
            1e-7,
            1e-12,
            name,
        );
        let pi = inf
            .prediction(&case.matrix("x_new"), case.scalar("t_crit"))
            .expect("prediction");
        assert_close(&pi.mean, &case.vector("pred_mean"), tol, 1e-9, name);
        assert_close(&pi.se_mean, &case.vector("pred_mean_se"), tol, 0.0, name);
        assert_close(&pi.se_obs, &case.vector("pred_obs_se"), tol, 0.0, name);
        assert_close(
            &pi.mean_lower,
            &case.vector("pred_mean_lower"),
            tol,
            1e-9,
            name,
        );
        assert_close(
            &pi.obs_upper,
            &case.vector("pred_obs_upper"),
            tol,
            1e-9,
            name,
        );
        let summary = inf.residual_summary();
        assert_close_scalar(
            summary.skewness,
            case.scalar("resid_skew"),
            1e-7,
            1e-9,
            name,
        );
        assert_close_scalar(
            summary.kurtosis,
            case.scalar("resid_kurtosis"),
            1e-8,
            0.0,
            name,
        );
        assert_close_scalar(
            summary.jarque_bera,
            case.scalar("jarque_bera"),
            1e-7,
            1e-9,
            name,
        );
        assert_close_scalar(
            summary.durbin_watson,
            case.scalar("durbin_watson"),
            1e-8,
            0.0,
            name,
        );
    }
}

#[test]
fn predictions_and_f32_agree() {
    let g = golden();
    let case = g.case("diabetes");
    let x = case.matrix("x");
    let y = case.vector("y");
    let fit = LinearRegression::default().fit(&x, &y).expect("fit");
    let pred = fit.predict(&x).expect("predict");
    let want = x.dot(&case.vector("coef")) + case.scalar("intercept");
    assert_close(&pred, &want, 1e-10, 1e-9, "predict");
    let x32 = x.mapv(|v| v as f32);
    let y32 = y.mapv(|v| v as f32);
    for solver in [OlsSolver::Auto, OlsSolver::Qr, OlsSolver::Svd] {
        let f32fit = LinearRegression::default()
            .solver(solver)
            .fit(&x32, &y32)
            .expect("fit f32");
        let coef = case.vector("coef");
        let scale = coef.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        // Diabetes is moderately collinear (s1, s2, s3, s5): f32 keeps ~3-4 digits.
        assert_close(
            &f32fit.coef().to_owned(),
            &coef,
            1e-3,
            2e-3 * scale,
            "f32 coef",
        );
    }
}
