//! Properties of the robust regressors and total least squares: equivariances, the notes' Huber
//! loss is continuous and convex, TLS never loses to OLS in orthogonal distance.

use ndarray::Array1;
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{
    HuberRegressor, LadRegressor, LinearRegression, QuantileRegressor, TotalLeastSquares,
    huber_loss, huber_loss_derivative, orthogonal_distance_ss,
};
use ndlearn_testkit::{config, regression_problem};
use proptest::prelude::*;

fn max_abs(v: &Array1<f64>) -> f64 {
    v.iter().fold(0.0f64, |m, x| m.max(x.abs()))
}

proptest! {
    #![proptest_config(config(8))]

    #[test]
    fn notes_huber_loss_is_continuous_and_convex(lambda in 0.1f64..10.0, mu in 0.1f64..10.0, z in -20.0f64..20.0, t in 0.0f64..1.0) {
        let c = lambda / (2.0 * mu);
        // Both branches agree at the threshold (value λ²/(4μ)) and so do the slopes (λ).
        prop_assert!((mu * c * c - lambda * (c - lambda / (4.0 * mu))).abs() < 1e-12 * (1.0 + lambda * lambda / mu));
        prop_assert!((huber_loss(c, lambda, mu) - lambda * lambda / (4.0 * mu)).abs() < 1e-12 * (1.0 + lambda * lambda / mu));
        prop_assert!((2.0 * mu * c - lambda).abs() < 1e-12 * lambda);
        prop_assert!((huber_loss_derivative(c * (1.0 - 1e-12), lambda, mu) - lambda).abs() < 1e-9 * lambda);
        // Convexity along a chord from z to −z/2.
        let (a, b) = (z, -0.5 * z);
        let m = t * a + (1.0 - t) * b;
        prop_assert!(huber_loss(m, lambda, mu) <= t * huber_loss(a, lambda, mu) + (1.0 - t) * huber_loss(b, lambda, mu) + 1e-12);
    }

    #[test]
    fn huber_is_scale_and_shift_equivariant(p in regression_problem(15..40, 1..4, 0.5), c in 0.1f64..10.0, shift in -5.0f64..5.0) {
        // With α = 0 the joint objective at (c w, c b, c σ) for c·y is c times the original.
        let est = HuberRegressor::default().alpha(0.0).tol(1e-10).max_iter(2000);
        let a = est.fit(&p.x, &p.y).expect("fit");
        let b = est.fit(&p.x, &p.y.mapv(|v| c * v + shift)).expect("fit");
        let scale = max_abs(&a.coef().to_owned()).max(1.0);
        prop_assert!(max_abs(&(&b.coef() - &a.coef().mapv(|v| c * v))) < 1e-5 * c * scale);
        prop_assert!((b.intercept() - (c * a.intercept() + shift)).abs() < 1e-5 * c * scale + 1e-9 * shift.abs());
        prop_assert!((b.scale() - c * a.scale()).abs() < 1e-5 * c * a.scale());
    }

    #[test]
    fn quantile_lp_is_regression_equivariant(p in regression_problem(10..40, 1..4, 1.0), tau in 0.1f64..0.9, shift in -3.0f64..3.0) {
        // y → y + X v + s moves an optimal (w, b) to (w + v, b + s) at the same objective.
        let v = Array1::from_shape_fn(p.x.ncols(), |j| 0.5 - j as f64);
        let y2 = &p.y + &p.x.dot(&v) + shift;
        let est = QuantileRegressor::new(tau).alpha(0.0);
        let a = est.fit(&p.x, &p.y).expect("fit");
        let b = est.fit(&p.x, &y2).expect("fit");
        prop_assert!((a.objective() - b.objective()).abs() <= 1e-9 * a.objective().max(1e-12));
        let lad = LadRegressor::default().fit(&p.x, &p.y).expect("lad");
        let med = QuantileRegressor::new(0.5).alpha(0.0).fit(&p.x, &p.y).expect("median");
        prop_assert!((lad.objective() - 2.0 * med.objective()).abs() <= 1e-9 * lad.objective().max(1e-12));
    }

    #[test]
    fn tls_beats_ols_in_orthogonal_distance_and_is_shift_equivariant(p in regression_problem(6..40, 1..4, 0.5), sx in -4.0f64..4.0, sy in -4.0f64..4.0) {
        let tls = TotalLeastSquares::default().fit(&p.x, &p.y).expect("tls");
        let ols = LinearRegression::default().fit(&p.x, &p.y).expect("ols");
        let f_tls = orthogonal_distance_ss(&p.x, &p.y, &tls.coef(), tls.intercept()).expect("f");
        let f_ols = orthogonal_distance_ss(&p.x, &p.y, &ols.coef(), ols.intercept()).expect("f");
        prop_assert!(f_tls <= f_ols * (1.0 + 1e-10) + 1e-12);
        prop_assert!((f_tls - tls.residual_ss()).abs() <= 1e-8 * f_tls.max(1e-12) + 1e-10);
        let moved = TotalLeastSquares::default()
            .fit(&p.x.mapv(|v| v + sx), &p.y.mapv(|v| v + sy))
            .expect("tls");
        let scale = max_abs(&tls.coef().to_owned()).max(1.0);
        prop_assert!(max_abs(&(&moved.coef() - &tls.coef())) < 1e-8 * scale);
        // Predictions move with the data: f̃(x + sx) = f(x) + sy.
        let pa = tls.predict(&p.x).expect("p");
        let pb = moved.predict(&p.x.mapv(|v| v + sx)).expect("p");
        prop_assert!(max_abs(&(&pb - &pa.mapv(|v| v + sy))) < 1e-8 * (scale * 10.0));
    }
}
