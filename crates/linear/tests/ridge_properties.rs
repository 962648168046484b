//! Properties of ridge: solvers agree, α → 0 gives the pseudo-inverse solution, the
//! coefficient norm shrinks as α grows, the leave-one-out shortcut equals refitting, f32 ≈ f64.

use ndarray::{Array1, Axis, s};
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{LinearRegression, OlsSolver, Ridge, RidgeCV, RidgeSolver};
use ndlearn_testkit::{config, regression_problem};
use proptest::prelude::*;

fn max_abs(v: &Array1<f64>) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn cholesky_and_svd_agree(p in regression_problem(5..30, 1..6, 0.5), alpha in 1e-3f64..100.0) {
        let a = Ridge::new(alpha).fit(&p.x, &p.y).expect("fit");
        let b = Ridge::new(alpha).solver(RidgeSolver::Svd).fit(&p.x, &p.y).expect("fit");
        let scale = max_abs(&a.coef().to_owned()).max(1.0);
        prop_assert!(max_abs(&(&a.coef() - &b.coef())) < 1e-10 * scale);
        prop_assert!((a.intercept() - b.intercept()).abs() < 1e-10 * scale.max(a.intercept().abs()));
    }

    #[test]
    fn wide_dual_form_agrees_with_svd(p in regression_problem(8..20, 3..6, 0.5), alpha in 1e-2f64..10.0) {
        // Keep fewer rows than columns: the Cholesky path takes the N × N dual form.
        let rows = p.x.ncols() - 1;
        let x = p.x.slice(s![..rows, ..]).to_owned();
        let y = p.y.slice(s![..rows]).to_owned();
        let a = Ridge::new(alpha).fit(&x, &y).expect("fit");
        let b = Ridge::new(alpha).solver(RidgeSolver::Svd).fit(&x, &y).expect("fit");
        let scale = max_abs(&b.coef().to_owned()).max(1.0);
        prop_assert!(max_abs(&(&a.coef() - &b.coef())) < 1e-9 * scale);
    }

    #[test]
    fn small_alpha_tends_to_ols_and_norm_shrinks(p in regression_problem(6..30, 1..5, 0.5)) {
        let ols = LinearRegression::default().solver(OlsSolver::Svd).fit(&p.x, &p.y).expect("fit");
        let r = Ridge::new(1e-9).solver(RidgeSolver::Svd).fit(&p.x, &p.y).expect("fit");
        let scale = max_abs(&ols.coef().to_owned()).max(1.0);
        prop_assert!(max_abs(&(&r.coef() - &ols.coef())) < 1e-6 * scale);
        let mut prev = f64::INFINITY;
        for alpha in [0.01, 0.1, 1.0, 10.0, 100.0] {
            let w = Ridge::new(alpha).fit(&p.x, &p.y).expect("fit").coef().to_owned();
            let norm = w.dot(&w);
            prop_assert!(norm <= prev * (1.0 + 1e-12));
            prev = norm;
        }
    }

    #[test]
    fn loo_shortcut_equals_refits(p in regression_problem(6..16, 1..4, 1.0), alpha in 0.05f64..5.0) {
        let fit = RidgeCV::new(vec![alpha]).fit(&p.x, &p.y).expect("fit");
        let n = p.x.nrows();
        let mut acc = 0.0;
        for i in 0..n {
            let keep: Vec<usize> = (0..n).filter(|&j| j != i).collect();
            let m = Ridge::new(alpha)
                .fit(&p.x.select(Axis(0), &keep), &p.y.select(Axis(0), &keep))
                .expect("fit");
            let pred = m.predict(&p.x.slice(s![i..=i, ..])).expect("predict")[0];
            acc += (p.y[i] - pred).powi(2);
        }
        let want = acc / n as f64;
        prop_assert!((fit.mse_path()[[0, 0]] - want).abs() <= 1e-9 * want.max(1e-12));
    }

    #[test]
    fn f32_is_close_to_f64(p in regression_problem(8..30, 1..5, 0.3), alpha in 0.1f64..10.0) {
        let a = Ridge::new(alpha).fit(&p.x, &p.y).expect("fit");
        let b = Ridge::new(alpha)
            .fit(&p.x.mapv(|v| v as f32), &p.y.mapv(|v| v as f32))
            .expect("fit");
        let scale = max_abs(&a.coef().to_owned()).max(1.0);
        for (u, v) in a.coef().iter().zip(b.coef().iter()) {
            prop_assert!((u - f64::from(*v)).abs() < 1e-3 * scale);
        }
    }
}
