//! `ndlearn_core::calibration` against scikit-learn (`datasets/golden/core/calibration.json`,
//! written by `scripts/golden/core_calibration.py`): Platt scaling, `IsotonicRegression` and the
//! bare PAVA. (`CalibratedClassifierCV` over LDA is checked in ndlearn-bayes's tests, where LDA
//! lives.)
//!
//! Tolerances:
//! - Platt: the file's exact minimiser was refined by Newton's method to a rounding-level step;
//!   ndlearn stops when the mean gradient is below `1e-12`, so its parameters differ by at most
//!   `‖H⁻¹‖·1e-12` with `H` the mean Hessian (`p(1 − p)`-weighted second moments of the scores,
//!   computed here per case), plus rounding. scikit-learn's own L-BFGS-B stops at `gtol = 1e-6`
//!   on the *summed* objective, so ndlearn's objective must be no larger than its (up to
//!   rounding of the sum).
//! - Isotonic: block means are weighted means of the same values in a different summation
//!   order (a few ulp of the block's values); thresholds are data values, equal exactly.

use ndarray::Array1;
use ndlearn_core::calibration::{
    Increasing, IsotonicRegression, OutOfBounds, PlattScaling, isotonic_regression,
};
use ndlearn_testkit::{Case, Golden, assert_close, assert_close_scalar};

fn golden() -> Golden {
    Golden::load("core", "calibration")
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("sample_weight")
        .then(|| case.vector("sample_weight"))
}

/// The objective scikit-learn minimises (summed over samples) at `(a, b)`.
fn platt_objective(f: &Array1<f64>, pos: &[bool], w: &Array1<f64>, a: f64, b: f64) -> f64 {
    let prior1: f64 = pos.iter().zip(w).filter(|(p, _)| **p).map(|(_, w)| w).sum();
    let prior0: f64 = w.sum() - prior1;
    let (t1, t0) = ((prior1 + 1.0) / (prior1 + 2.0), 1.0 / (prior0 + 2.0));
    let softplus = |z: f64| z.max(0.0) + (-z.abs()).exp().ln_1p();
    f.iter()
        .zip(pos)
        .zip(w)
        .map(|((&fi, &p), &wi)| {
            let t = if p { t1 } else { t0 };
            let z = a * fi + b;
            wi * (t * softplus(z) + (1.0 - t) * softplus(-z))
        })
        .sum()
}

/// The mean Hessian's inverse norm bound (1 / smallest eigenvalue) at `(a, b)`.
fn inverse_hessian_norm(f: &Array1<f64>, w: &Array1<f64>, a: f64, b: f64) -> f64 {
    let (mut haa, mut hab, mut hbb) = (0.0, 0.0, 0.0);
    let wsum = w.sum();
    for (&fi, &wi) in f.iter().zip(w) {
        let p = 1.0 / (1.0 + (a * fi + b).exp());
        let h = wi * p * (1.0 - p) / wsum;
        haa += h * fi * fi;
        hab += h * fi;
        hbb += h;
    }
    let mean = 0.5 * (haa + hbb);
    let rad = (0.25 * (haa - hbb).powi(2) + hab * hab).sqrt();
    1.0 / (mean - rad)
}

#[test]
fn platt_matches_the_exact_minimiser_and_beats_sklearn_lbfgs() {
    let g = golden();
    let cases = g.cases_with_prefix("platt_");
    assert_eq!(cases.len(), 6);
    for case in cases {
        let f = case.vector("scores");
        let pos: Vec<bool> = case.vector("y").iter().map(|&v| v > 0.0).collect();
        let w = weights(case);
        let fit = PlattScaling::default()
            .fit(&f, &pos, w.as_deref())
            .unwrap_or_else(|e| panic!("{}: {e}", case.name()));
        assert!(fit.converged, "{}: not converged", case.name());
        let (a_ex, b_ex) = (case.scalar("a_exact"), case.scalar("b_exact"));
        let ones = Array1::ones(f.len());
        let ww = w.clone().unwrap_or(ones);
        // parameter error ≤ ‖H⁻¹‖ · gradient tolerance, plus rounding of the sums.
        let bound = inverse_hessian_norm(&f, &ww, a_ex, b_ex) * 1e-12 + 1e-12;
        let scale = a_ex.abs().max(b_ex.abs()).max(1.0);
        assert_close_scalar(
            fit.a,
            a_ex,
            0.0,
            bound * scale,
            &format!("{} a", case.name()),
        );
        assert_close_scalar(
            fit.b,
            b_ex,
            0.0,
            bound * scale,
            &format!("{} b", case.name()),
        );
        let ours = platt_objective(&f, &pos, &ww, fit.a, fit.b);
        let theirs = case.scalar("objective_sklearn");
        assert!(
            ours <= theirs * (1.0 + 1e-13),
            "{}: objective {ours} > scikit-learn's {theirs}",
            case.name()
        );
        // and scikit-learn's own answer is within its gtol of the exact one
        assert_close_scalar(case.scalar("a"), a_ex, 1e-6, 1e-8, "sklearn a sanity");
    }
}

#[test]
fn isotonic_regression_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("isotonic_");
    assert_eq!(cases.len(), 5);
    for case in cases {
        let name = case.name();
        let increasing = match case.string("increasing") {
            "true" => Increasing::True,
            "false" => Increasing::False,
            "auto" => Increasing::Auto,
            other => panic!("{other}"),
        };
        let mut est = IsotonicRegression::default()
            .increasing(increasing)
            .out_of_bounds(OutOfBounds::Clip);
        if case.has("y_min") {
            est = est.y_min(Some(case.scalar("y_min")));
        }
        if case.has("y_max") {
            est = est.y_max(Some(case.scalar("y_max")));
        }
        let (x, y) = (case.vector("x"), case.vector("y"));
        let fit = est
            .fit_1d(&x, &y, weights(case).as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            fit.increasing(),
            case.usize("increasing_fitted") == 1,
            "{name}: direction"
        );
        let xt = Array1::from(fit.x_thresholds().to_vec());
        assert_close(
            &xt,
            &case.vector("x_thresholds"),
            0.0,
            0.0,
            &format!("{name} x_thr"),
        );
        let yt = Array1::from(fit.y_thresholds().to_vec());
        let ymax = y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let atol = 16.0 * f64::EPSILON * ymax;
        assert_close(
            &yt,
            &case.vector("y_thresholds"),
            0.0,
            atol,
            &format!("{name} y_thr"),
        );
        let grid = fit.predict_1d(&case.vector("grid")).expect("predict");
        assert_close(
            &grid,
            &case.vector("predict_clip"),
            0.0,
            atol,
            &format!("{name} grid"),
        );
        let at_x = fit.predict_1d(&x).expect("predict");
        assert_close(
            &at_x,
            &case.vector("fit_transform"),
            0.0,
            atol,
            &format!("{name} fit"),
        );
    }
}

#[test]
fn isotonic_out_of_bounds_nan_and_raise() {
    let g = golden();
    let case = g.case("isotonic_diabetes_bmi_increasing");
    let (x, y) = (case.vector("x"), case.vector("y"));
    let grid = case.vector("grid");
    let (lo, hi) = (
        x.fold(f64::MAX, |m, &v| m.min(v)),
        x.fold(f64::MIN, |m, &v| m.max(v)),
    );
    let nan = IsotonicRegression::default()
        .fit_1d(&x, &y, None)
        .expect("fit");
    let p = nan.predict_1d(&grid).expect("predict");
    for (&t, &v) in grid.iter().zip(&p) {
        assert_eq!(v.is_nan(), t < lo || t > hi, "at {t}");
    }
    let raise = IsotonicRegression::default()
        .out_of_bounds(OutOfBounds::Raise)
        .fit_1d(&x, &y, None)
        .expect("fit");
    assert!(raise.predict_1d(&grid).is_err());
    let inside = Array1::from(vec![lo, 0.5 * (lo + hi), hi]);
    assert!(raise.predict_1d(&inside).is_ok());
}

#[test]
fn pava_matches_sklearn_isotonic_regression() {
    let g = golden();
    for name in ["pava_increasing", "pava_decreasing"] {
        let case = g.case(name);
        let y = case.vector("y");
        let fitted = isotonic_regression(
            &y,
            Some(&case.vector("sample_weight")),
            case.usize("increasing") == 1,
        )
        .expect("pava");
        let atol = 16.0 * f64::EPSILON * y.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert_close(&fitted, &case.vector("fitted"), 0.0, atol, name);
    }
}
