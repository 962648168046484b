//! Properties of the lasso / elastic net: α ≥ α_max gives all zeros, the solution beats
//! perturbations, Gram = dense = FISTA, warm starts are idempotent, paths are monotone in
//! sparsity at the start, f32 ≈ f64.

use ndarray::{Array1, Axis};
use ndlearn_core::Fit;
use ndlearn_linear::{ElasticNet, EnetSolver, Lasso, PathOptions, Precompute, lasso_path};
use ndlearn_testkit::{RegressionProblem, config, regression_problem};
use proptest::prelude::*;

fn objective(p: &RegressionProblem, w: &Array1<f64>, b: f64, alpha: f64, rho: f64) -> f64 {
    let r = &p.y - &(p.x.dot(w) + b);
    let n = p.x.nrows() as f64;
    r.dot(&r) / (2.0 * n)
        + alpha * rho * w.iter().map(|v| v.abs()).sum::<f64>()
        + 0.5 * alpha * (1.0 - rho) * w.dot(w)
}

fn alpha_max(p: &RegressionProblem, rho: f64) -> f64 {
    let xm = p.x.mean_axis(Axis(0)).expect("rows");
    let yc = &p.y - p.y.mean().expect("rows");
    (&p.x - &xm)
        .t()
        .dot(&yc)
        .iter()
        .fold(0.0f64, |m, v| m.max(v.abs()))
        / (p.x.nrows() as f64 * rho)
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn alpha_max_gives_zeros(p in regression_problem(5..30, 1..6, 0.5), rho in 0.1f64..=1.0, f in 1.0f64..5.0) {
        let a = alpha_max(&p, rho) * f;
        for pre in [Precompute::Always, Precompute::Never] {
            let fit = ElasticNet::new(a, rho).precompute(pre).fit(&p.x, &p.y).expect("fit");
            prop_assert!(fit.coef().iter().all(|&w| w == 0.0));
        }
    }

    #[test]
    fn optimum_beats_perturbations_and_solvers_agree(
        p in regression_problem(6..30, 1..6, 0.5),
        rho in 0.2f64..=1.0,
        frac in 0.01f64..0.9,
    ) {
        let alpha = alpha_max(&p, rho) * frac;
        let est = ElasticNet::new(alpha, rho).tol(1e-13).max_iter(1_000_000);
        let g = est.precompute(Precompute::Always).fit(&p.x, &p.y).expect("fit");
        let d = est.precompute(Precompute::Never).fit(&p.x, &p.y).expect("fit");
        let scale = g.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        prop_assert!((&g.coef() - &d.coef()).iter().all(|v| v.abs() < 1e-7 * scale));
        let w = g.coef().to_owned();
        let f0 = objective(&p, &w, g.intercept(), alpha, rho);
        let xm = p.x.mean_axis(Axis(0)).expect("rows");
        for j in 0..w.len() {
            for delta in [1e-3, -1e-3] {
                let mut v = w.clone();
                v[j] += delta * scale;
                let b = p.y.mean().expect("rows") - xm.dot(&v);
                prop_assert!(objective(&p, &v, b, alpha, rho) >= f0 - 1e-12 * f0.abs().max(1.0));
            }
        }
        let fista = est.solver(EnetSolver::Fista).tol(1e-12).fit(&p.x, &p.y).expect("fit");
        let ff = objective(&p, &fista.coef().to_owned(), fista.intercept(), alpha, rho);
        prop_assert!((ff - f0).abs() <= 1e-9 * f0.abs().max(1.0), "{} vs {}", ff, f0);
    }

    #[test]
    fn warm_start_from_the_solution_is_idempotent(p in regression_problem(6..30, 1..6, 0.5), frac in 0.05f64..0.9) {
        // Cold at a tight tolerance, warm at a looser one: the start passes the gap test at
        // once (with the same tolerance a gap right at the threshold could go either way after
        // the residual is recomputed from scratch).
        let est = Lasso::new(alpha_max(&p, 1.0) * frac).tol(1e-10);
        let cold = est.fit(&p.x, &p.y).expect("fit");
        let warm = est.tol(1e-8).fit_from(&p.x, &p.y, &cold.coef()).expect("fit");
        prop_assert_eq!(warm.n_iter(), 0);
        prop_assert_eq!(warm.coef(), cold.coef());
    }

    #[test]
    fn path_starts_at_zero_and_gains_features(p in regression_problem(8..30, 2..6, 0.3)) {
        let path = lasso_path(&p.x, &p.y, &PathOptions::default().fit_intercept(true).n_alphas(15).tol(1e-10)).expect("path");
        prop_assert!(path.coefs().row(0).iter().all(|&w| w == 0.0));
        let last = path.coefs().row(14).iter().filter(|&&w| w != 0.0).count();
        prop_assert!(last >= 1);
        for w in path.alphas().windows(2) {
            prop_assert!(w[1] < w[0]);
        }
    }

    #[test]
    fn f32_is_close_to_f64(p in regression_problem(10..30, 1..5, 0.3), frac in 0.05f64..0.5) {
        let alpha = alpha_max(&p, 1.0) * frac;
        let a = Lasso::new(alpha).tol(1e-10).fit(&p.x, &p.y).expect("fit");
        let b = Lasso::new(alpha).tol(1e-6).fit(&p.x.mapv(|v| v as f32), &p.y.mapv(|v| v as f32)).expect("fit");
        let scale = a.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
        for (u, v) in a.coef().iter().zip(b.coef().iter()) {
            prop_assert!((u - f64::from(*v)).abs() < 2e-3 * scale);
        }
    }
}
