//! LeastSquaresClassifier against scikit-learn (`datasets/golden/linear/perceptron.json`, cases
//! `ls_*`, written by `scripts/golden/linear_perceptron.py`): `RidgeClassifier(alpha)` for
//! `alpha > 0` with `PlusMinusOne` targets, `LinearRegression` on the one-hot matrix for
//! `alpha = 0` with `OneHot` targets.

use ndarray::Array2;
use ndlearn_core::DecisionFunction;
use ndlearn_core::{Fit, Predict};
use ndlearn_linear::{FittedLeastSquaresClassifier, LeastSquaresClassifier, LsTargets};
use ndlearn_testkit::{Case, Golden, assert_close};

/// The scikit-learn references of `scripts/golden/linear_perceptron.py`.
fn golden() -> Golden {
    Golden::load("linear", "perceptron")
}

fn estimator(case: &Case) -> LeastSquaresClassifier {
    let targets = if case.string("mode") == "ridge_pm" {
        LsTargets::PlusMinusOne
    } else {
        LsTargets::OneHot
    };
    LeastSquaresClassifier::new(case.scalar("alpha"))
        .targets(targets)
        .fit_intercept(case.usize("fit_intercept") == 1)
}

fn max_abs(a: &Array2<f64>) -> f64 {
    a.iter().fold(1.0f64, |m, v| m.max(v.abs()))
}

fn max_dev(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
}

/// Coefficients, intercepts and decision values to 1e-8 relative to the largest entry
/// (both sides solve the same well-posed linear systems; measured deviations are printed, all
/// ≤ 1e-12 relative); predictions exact (the generator checked there are no ties or zero
/// scores).
#[test]
fn matches_ridge_classifier_and_one_hot_ols() {
    let g = golden();
    let cases = g.cases_with_prefix("ls_");
    assert!(cases.len() >= 8);
    for case in cases {
        let ctx = case.name();
        let x = case.matrix("x");
        let y = case.labels("y");
        let m: FittedLeastSquaresClassifier<f64> = estimator(case).fit(&x, &y).expect("fit");
        let coef = case.matrix("coef");
        let scale = max_abs(&coef);
        assert_close(m.coef(), &coef, 0.0, 1e-8 * scale, ctx);
        assert_close(
            m.intercept(),
            &case.vector("intercept"),
            0.0,
            1e-8 * scale.max(1.0),
            ctx,
        );
        let dec = m.decision_function(&x).expect("decision");
        let want = case.matrix("decision");
        let dscale = max_abs(&want);
        assert_close(&dec, &want, 0.0, 1e-8 * dscale, ctx);
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("predict"),
            "{ctx}"
        );
        println!(
            "{ctx}: coef max dev {:.2e} (rel {:.2e}), decision max dev {:.2e} (rel {:.2e})",
            max_dev(m.coef(), &coef),
            max_dev(m.coef(), &coef) / scale,
            max_dev(&dec, &want),
            max_dev(&dec, &want) / dscale
        );
    }
}

/// The other coding gives the same predictions: `OneHot` with `alpha > 0` against scikit-learn's
/// `RidgeClassifier` predictions (with an intercept the ±1 scores are `2·onehot − 1`).
#[test]
fn one_hot_coding_predicts_like_ridge_classifier() {
    let g = golden();
    for case in g.cases_with_prefix("ls_") {
        if case.string("mode") != "ridge_pm" || case.usize("fit_intercept") != 1 {
            continue;
        }
        let x = case.matrix("x");
        let y = case.labels("y");
        let m: FittedLeastSquaresClassifier<f64> =
            LeastSquaresClassifier::new(case.scalar("alpha"))
                .fit(&x, &y)
                .expect("fit");
        assert_eq!(
            m.predict(&x).expect("predict"),
            case.labels("predict"),
            "{}",
            case.name()
        );
        let dec = m.decision_function(&x).expect("decision");
        let want = case.matrix("decision");
        if want.ncols() > 1 {
            let pm = dec.mapv(|v| 2.0 * v - 1.0);
            assert_close(&pm, &want, 0.0, 1e-8 * max_abs(&want), case.name());
        } else {
            let diff = &dec.column(1) - &dec.column(0);
            assert_close(
                &diff,
                &want.column(0).to_owned(),
                0.0,
                1e-8 * max_abs(&want),
                case.name(),
            );
        }
    }
}

/// `f32`: the same fits in single precision agree with scikit-learn to `f32` accuracy
/// (1e-3 relative to the largest coefficient: the normal equations square the condition number)
/// and predict the same classes on all but a few near-tied rows.
#[test]
fn f32_matches_sklearn_loosely() {
    let g = golden();
    for name in [
        "ls_iris_ridge",
        "ls_iris_ols",
        "ls_wine_ridge",
        "ls_breast_cancer_ridge",
    ] {
        let case = g.case(name);
        let x = case.matrix("x").mapv(|v| v as f32);
        let y = case.labels("y");
        let m: FittedLeastSquaresClassifier<f32> = estimator(case).fit(&x, &y).expect("fit");
        let coef = case.matrix("coef");
        assert_close(m.coef(), &coef, 0.0, 1e-3 * max_abs(&coef), name);
        let want = case.labels("predict");
        let agree = m
            .predict(&x)
            .expect("predict")
            .iter()
            .zip(want.iter())
            .filter(|(a, b)| a == b)
            .count();
        assert!(agree + 2 >= want.len(), "{name}: {agree}/{}", want.len());
    }
}
