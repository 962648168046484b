//! Properties of least squares: the four solvers agree (normal equations = QR = SVD = GD),
//! residuals are orthogonal to the columns, equivariances, f32 close to f64.

use ndarray::{Array1, Axis};
use ndlearn_core::{FeatureImportances, Fit, Predict};
use ndlearn_linear::{LinearRegression, OlsSolver};
use ndlearn_testkit::{RegressionProblem, config, regression_problem};
use proptest::prelude::*;

fn fit(p: &RegressionProblem, solver: OlsSolver) -> (Array1<f64>, f64) {
    let f = LinearRegression::default()
        .solver(solver)
        .fit(&p.x, &p.y)
        .expect("full-rank problem");
    (f.coef().to_owned(), f.intercept())
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn normal_equations_qr_svd_and_gd_agree(p in regression_problem(6..40, 1..6, 0.3)) {
        let (w, b) = fit(&p, OlsSolver::Cholesky);
        let scale = w.iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for solver in [OlsSolver::Qr, OlsSolver::Svd, OlsSolver::Auto] {
            let (w2, b2) = fit(&p, solver);
            prop_assert!((&w2 - &w).iter().all(|v| v.abs() < 1e-10 * scale), "{:?}", solver);
            prop_assert!((b2 - b).abs() < 1e-10 * scale.max(b.abs()));
        }
        let (wg, bg) = fit(&p, OlsSolver::GradientDescent { max_iter: 200_000, tol: 1e-13 });
        prop_assert!((&wg - &w).iter().all(|v| v.abs() < 1e-7 * scale));
        prop_assert!((bg - b).abs() < 1e-7 * scale.max(b.abs()));
    }

    #[test]
    fn residuals_are_orthogonal_and_sum_to_zero(p in regression_problem(6..40, 1..6, 1.0)) {
        let f = LinearRegression::default().fit(&p.x, &p.y).expect("fit");
        let r = &p.y - &f.predict(&p.x).expect("predict");
        let scale = p.y.iter().map(|v| v.abs()).sum::<f64>().max(1.0) * 10.0;
        prop_assert!(r.sum().abs() < 1e-10 * scale);
        let xtr = p.x.t().dot(&r);
        prop_assert!(xtr.iter().all(|v| v.abs() < 1e-9 * scale), "{:?}", xtr);
    }

    #[test]
    fn shifting_y_moves_only_the_intercept_and_scaling_x_scales_w(
        p in regression_problem(6..30, 1..5, 0.5),
        shift in -50.0f64..50.0,
        c in 0.1f64..10.0,
    ) {
        let f = LinearRegression::default().fit(&p.x, &p.y).expect("fit");
        let g = LinearRegression::default().fit(&p.x, &(&p.y + shift)).expect("fit");
        let scale = f.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        prop_assert!((&g.coef() - &f.coef()).iter().all(|v| v.abs() < 1e-9 * scale));
        prop_assert!((g.intercept() - f.intercept() - shift).abs() < 1e-9 * (scale + shift.abs()));
        let h = LinearRegression::default().fit(&(&p.x * c), &p.y).expect("fit");
        prop_assert!((&h.coef().mapv(|v| v * c) - &f.coef()).iter().all(|v| v.abs() < 1e-9 * scale));
        let imp = f.feature_importances();
        prop_assert!(imp.iter().zip(f.coef().iter()).all(|(a, b)| (*a - b.abs()).abs() == 0.0));
    }

    #[test]
    fn f32_is_close_to_f64(p in regression_problem(10..40, 1..5, 0.2)) {
        let f64fit = LinearRegression::default().fit(&p.x, &p.y).expect("fit");
        let x32 = p.x.mapv(|v| v as f32);
        let y32 = p.y.mapv(|v| v as f32);
        let f32fit = LinearRegression::default().fit(&x32, &y32).expect("fit");
        let scale = f64fit.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (a, b) in f32fit.coef().iter().zip(f64fit.coef().iter()) {
            prop_assert!((f64::from(*a) - b).abs() < 1e-3 * scale);
        }
    }

    #[test]
    fn duplicated_columns_split_the_weight(p in regression_problem(8..30, 1..4, 0.5)) {
        // [X, X₀] has the same fit; the minimum-norm solution halves w₀ between the copies.
        let f = LinearRegression::default().fit(&p.x, &p.y).expect("fit");
        let xd = ndarray::concatenate![Axis(1), p.x, p.x.slice(ndarray::s![.., 0..1])];
        let g = LinearRegression::default().fit(&xd, &p.y).expect("fit");
        let d = p.x.ncols();
        let scale = f.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        prop_assert!((g.coef()[0] - f.coef()[0] / 2.0).abs() < 1e-8 * scale);
        prop_assert!((g.coef()[d] - f.coef()[0] / 2.0).abs() < 1e-8 * scale);
        prop_assert!((g.intercept() - f.intercept()).abs() < 1e-8 * scale.max(f.intercept().abs()));
    }
}
