//! MLPClassifier / MLPRegressor against scikit-learn 1.9.1 (`datasets/golden/neural/mlp.json`,
//! written by `scripts/golden/neural.py`).
//!
//! # Parity runs
//!
//! Both libraries start from the same stored weights, with `shuffle = false`, fixed batch sizes
//! and scikit-learn's form of Adam, so they perform the same floating-point operations up to the
//! order of the sums inside the BLAS gemms and the libm calls (`exp`, `tanh`, `pow`). Those
//! differ by a few ulp per operation; through 5 epochs (at most 25 updates of networks with at
//! most two hidden layers) such differences grow by the product of the update's Lipschitz
//! factors, which for these step sizes stays far below 10⁴, so the loss curve and the weights
//! agree to `1e-9` relative (`1e-9·(1 + |reference|)` absolute on weights and outputs). The issue
//! asks for `1e-6` on the loss curve; the tighter bound is what the arithmetic allows. Measured
//! with scikit-learn 1.9.1 on this machine: every parity case also passes at `1e-12`.
//!
//! # L-BFGS
//!
//! scipy's L-BFGS-B and core's L-BFGS take different steps, so only the end point is compared:
//! both stop at `‖∇J‖ ≈ 1e-12` on a problem with a strong L2 penalty (a well-conditioned local
//! minimum near the common start); the final loss agrees to `1e-6` relative (the loss near a
//! minimum differs from its minimum by `O(‖∇J‖²/μ)`, far below that).
//!
//! # Defaults
//!
//! With default hyperparameters (different random initial weights), the held-out accuracy /
//! R² must be statistically equal: the difference must be within three standard errors of a
//! difference of two accuracies on `n_test` rows, `3·√(2p(1 − p)/n_test)` (for R² a fixed
//! `0.1`, since diabetes' R² of a 100-unit network varies by a few hundredths across seeds).

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::training::LearningRate;
use ndlearn_core::{
    Fit, FitMultiLabel, PartialFit, Predict, PredictMultiLabel, PredictMultiOutput, PredictProba,
};
use ndlearn_neural::{
    Activation, FittedMLPClassifier, FittedMLPRegressor, MLPClassifier, MLPRegressor, Solver,
};
use ndlearn_testkit::{Case, Golden};

fn golden() -> Golden {
    Golden::load("neural", "mlp")
}

fn activation(name: &str) -> Activation {
    match name {
        "identity" => Activation::Identity,
        "logistic" => Activation::Logistic,
        "tanh" => Activation::Tanh,
        "relu" => Activation::Relu,
        other => panic!("unknown activation {other}"),
    }
}

fn weights(case: &Case, prefix: &str) -> (Vec<Array2<f64>>, Vec<Array1<f64>>) {
    let n = case.usize_vector("hidden").len() + 1;
    let coefs = (0..n)
        .map(|l| case.matrix(&format!("{prefix}coef{l}")))
        .collect();
    let intercepts = (0..n)
        .map(|l| case.vector(&format!("{prefix}intercept{l}")))
        .collect();
    (coefs, intercepts)
}

fn opt_f64(case: &Case, field: &str, default: f64) -> f64 {
    if case.has(field) {
        case.scalar(field)
    } else {
        default
    }
}

/// The estimator hyperparameters of a case, as one macro over both estimator types.
macro_rules! configure {
    ($est:expr, $case:expr) => {{
        let c: &Case = $case;
        let mut e = $est
            .hidden_layer_sizes(c.usize_vector("hidden"))
            .activation(activation(if c.has("activation") {
                c.string("activation")
            } else {
                "relu"
            }))
            .solver(match c.string("solver") {
                "sgd" => Solver::Sgd,
                "adam" => Solver::Adam,
                _ => Solver::Lbfgs,
            })
            .alpha(opt_f64(c, "alpha", 1e-4))
            .learning_rate_init(opt_f64(c, "learning_rate_init", 1e-3))
            .power_t(opt_f64(c, "power_t", 0.5))
            .momentum(opt_f64(c, "momentum", 0.9))
            .nesterovs_momentum(opt_f64(c, "nesterovs_momentum", 1.0) != 0.0)
            .tol(opt_f64(c, "tol", 1e-4))
            .max_iter(opt_f64(c, "max_iter", 200.0) as usize)
            .n_iter_no_change(opt_f64(c, "n_iter_no_change", 10.0) as usize)
            .shuffle(false);
        if c.has("batch_size") {
            e = e.batch_size(Some(c.usize("batch_size")));
        }
        if c.has("learning_rate") {
            e = e.learning_rate(match c.string("learning_rate") {
                "invscaling" => LearningRate::InvScaling,
                "adaptive" => LearningRate::Adaptive,
                _ => LearningRate::Constant,
            });
        }
        e
    }};
}

fn rel_close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol * (1.0 + b.abs())
}

fn assert_matrix(name: &str, what: &str, got: &Array2<f64>, want: &Array2<f64>, tol: f64) {
    assert_eq!(got.dim(), want.dim(), "{name} {what}");
    for (g, w) in got.iter().zip(want) {
        assert!(rel_close(*g, *w, tol), "{name} {what}: {g} vs {w}");
    }
}

fn assert_curve(name: &str, got: &[f64], want: &Array1<f64>, tol: f64) {
    assert_eq!(
        got.len(),
        want.len(),
        "{name}: loss curve length {got:?} vs {want}"
    );
    for (e, (g, w)) in got.iter().zip(want).enumerate() {
        assert!(
            (g - w).abs() <= tol * w.abs(),
            "{name}: epoch {e}: {g} vs {w}"
        );
    }
}

const TOL: f64 = 1e-9;

#[test]
fn classifier_parity_runs() {
    let g = golden();
    for name in [
        "iris_sgd_full_batch",
        "iris_sgd_momentum_invscaling",
        "iris_adam_batches",
        "breast_cancer_sgd_binary",
        "breast_cancer_adam_binary",
        "iris_adaptive_plateau",
    ] {
        let case = g.case(name);
        let d = g.case(&format!("data_{}", case.string("data")));
        let (x, y) = (d.matrix("x"), d.labels("y"));
        let est = configure!(MLPClassifier::default(), case);
        let k = y.iter().max().map_or(0, |m| m + 1);
        let (c0, b0) = weights(case, "init_");
        let start =
            FittedMLPClassifier::from_weights(est.clone(), c0, b0, k, false).expect("weights");
        let fit = est.fit_from(start, &x, &y).expect("fit");
        assert_eq!(fit.n_iter(), case.usize("n_iter"), "{name}");
        assert_curve(name, fit.loss_curve(), &case.vector("loss_curve"), TOL);
        let (c, b) = weights(case, "");
        for (l, (cl, bl)) in c.iter().zip(&b).enumerate() {
            assert_matrix(name, "coef", fit.coefs()[l], cl, TOL);
            assert_matrix(
                name,
                "intercept",
                &fit.intercepts()[l].clone().insert_axis(Axis(0)),
                &bl.clone().insert_axis(Axis(0)),
                TOL,
            );
        }
        assert_matrix(
            name,
            "proba",
            &fit.predict_proba(&x).expect("proba"),
            &case.matrix("proba"),
            TOL,
        );
    }
}

#[test]
fn regressor_parity_runs() {
    let g = golden();
    for name in ["diabetes_adam", "diabetes_sgd_nesterov", "multi_output_sgd"] {
        let case = g.case(name);
        let d = g.case(&format!("data_{}", case.string("data")));
        let x = d.matrix("x");
        let y = if d.field_names().contains(&"labels") {
            d.matrix("y")
        } else {
            d.vector("y").insert_axis(Axis(1))
        };
        let est = configure!(MLPRegressor::default(), case);
        let (c0, b0) = weights(case, "init_");
        let start = FittedMLPRegressor::from_weights(est.clone(), c0, b0).expect("weights");
        let fit = est.fit_from(start, &x, &y).expect("fit");
        assert_eq!(fit.n_iter(), case.usize("n_iter"), "{name}");
        assert_curve(name, fit.loss_curve(), &case.vector("loss_curve"), TOL);
        let (c, _) = weights(case, "");
        for (l, cl) in c.iter().enumerate() {
            assert_matrix(name, "coef", fit.coefs()[l], cl, TOL);
        }
        assert_matrix(
            name,
            "predict",
            &fit.predict_multi(&x).expect("predict"),
            &case.matrix("predict"),
            TOL,
        );
    }
}

#[test]
fn multilabel_parity_run() {
    let g = golden();
    let case = g.case("multilabel_adam");
    let d = g.case("data_multi");
    let x = d.matrix("x");
    let y = d.matrix("labels").mapv(|v| v > 0.5);
    let est = configure!(MLPClassifier::default(), case);
    let (c0, b0) = weights(case, "init_");
    let start = FittedMLPClassifier::from_weights(est.clone(), c0, b0, 3, true).expect("weights");
    // Continue through the multi-label path: fit_multilabel from the start weights.
    let fit = est.fit_multilabel_from(start, &x, &y).expect("fit");
    assert_curve(
        "multilabel_adam",
        fit.loss_curve(),
        &case.vector("loss_curve"),
        TOL,
    );
    assert_matrix(
        "multilabel_adam",
        "proba",
        &fit.predict_proba(&x).expect("proba"),
        &case.matrix("proba"),
        TOL,
    );
    assert!(fit.is_multilabel());
    assert_eq!(
        fit.predict_multilabel(&x).expect("predict").dim(),
        (x.nrows(), 3)
    );
    // A fresh multi-label fit runs too (own initial weights).
    assert!(est.fit_multilabel(&x, &y).is_ok());
}

#[test]
fn partial_fit_parity() {
    let g = golden();
    let case = g.case("partial_diabetes_sgd");
    let d = g.case("data_diabetes");
    let (x, y) = (d.matrix("x"), d.vector("y"));
    let est = configure!(MLPRegressor::default(), case);
    let (c0, b0) = weights(case, "init_");
    let mut model = Some(FittedMLPRegressor::from_weights(est.clone(), c0, b0).expect("weights"));
    let bounds = case.usize_vector("bounds");
    for w in bounds.windows(2) {
        let xs = x.slice(ndarray::s![w[0]..w[1], ..]);
        let ys = y.slice(ndarray::s![w[0]..w[1]]);
        model = Some(est.partial_fit(model, &xs, &ys).expect("partial_fit"));
    }
    let fit = model.expect("fitted");
    assert_curve("partial", fit.loss_curve(), &case.vector("loss_curve"), TOL);
    let (c, _) = weights(case, "");
    for (l, cl) in c.iter().enumerate() {
        assert_matrix("partial", "coef", fit.coefs()[l], cl, TOL);
    }
}

#[test]
fn lbfgs_final_loss() {
    let g = golden();
    let case = g.case("lbfgs_regression");
    let d = g.case("data_multi");
    let (x, y) = (
        d.matrix("x"),
        d.matrix("y").column(0).to_owned().insert_axis(Axis(1)),
    );
    let est = configure!(MLPRegressor::default(), case);
    let (c0, b0) = weights(case, "init_");
    let fit = est
        .fit_from(
            FittedMLPRegressor::from_weights(est.clone(), c0, b0).expect("weights"),
            &x,
            &y,
        )
        .expect("fit");
    let want = case.scalar("loss");
    assert!(
        (fit.loss() - want).abs() <= 1e-6 * want,
        "{} vs {want}",
        fit.loss()
    );

    let case = g.case("lbfgs_iris");
    let d = g.case("data_iris");
    let (x, y) = (d.matrix("x"), d.labels("y"));
    let est = configure!(MLPClassifier::default(), case);
    let (c0, b0) = weights(case, "init_");
    let fit = est
        .fit_from(
            FittedMLPClassifier::from_weights(est.clone(), c0, b0, 3, false).expect("weights"),
            &x,
            &y,
        )
        .expect("fit");
    let want = case.scalar("loss");
    assert!(
        (fit.loss() - want).abs() <= 1e-6 * want,
        "{} vs {want}",
        fit.loss()
    );
}

#[test]
fn defaults_score_like_scikit_learn() {
    let g = golden();
    let digits = ndlearn_datasets::digits();
    let x = digits.x().mapv(|v| v / 16.0);
    let y = digits.y_classes().expect("classification").clone();
    check_classifier(&g, "default_digits", &x, &y);
}

fn split<T: Clone>(a: &Array2<T>) -> (Array2<T>, Array2<T>) {
    let tr: Vec<usize> = (0..a.nrows()).filter(|i| i % 4 != 0).collect();
    let te: Vec<usize> = (0..a.nrows()).filter(|i| i % 4 == 0).collect();
    (a.select(Axis(0), &tr), a.select(Axis(0), &te))
}

fn check_classifier(g: &Golden, name: &str, x: &Array2<f64>, y: &Array1<usize>) {
    let (xtr, xte) = split(x);
    let (ytr, yte) = split(&y.clone().insert_axis(Axis(1)));
    let (ytr, yte) = (ytr.column(0).to_owned(), yte.column(0).to_owned());
    let fit = MLPClassifier::default().fit(&xtr, &ytr).expect("fit");
    let pred = fit.predict(&xte).expect("predict");
    let acc = pred.iter().zip(&yte).filter(|(a, b)| a == b).count() as f64 / yte.len() as f64;
    let case = g.case(name);
    let want = case.scalar("score");
    let n = case.usize("n_test") as f64;
    let se = (2.0 * want * (1.0 - want) / n).sqrt().max(1.0 / n);
    assert!(
        (acc - want).abs() <= 3.0 * se,
        "{name}: accuracy {acc} vs scikit-learn {want} (3 SE = {})",
        3.0 * se
    );
}

#[test]
fn defaults_breast_cancer_and_diabetes() {
    let g = golden();
    let d = g.case("data_breast_cancer");
    check_classifier(&g, "default_breast_cancer", &d.matrix("x"), &d.labels("y"));
    let d = g.case("data_diabetes");
    let (x, y) = (d.matrix("x"), d.vector("y").insert_axis(Axis(1)));
    let (xtr, xte) = split(&x);
    let (ytr, yte) = split(&y);
    let fit = MLPRegressor::default()
        .fit(&xtr, &ytr.column(0))
        .expect("fit");
    let p = fit.predict(&xte).expect("predict");
    let t = yte.column(0);
    let mean = t.mean().unwrap_or(0.0);
    let r2 = 1.0 - (&p - &t).mapv(|e| e * e).sum() / t.mapv(|v| (v - mean) * (v - mean)).sum();
    let want = g.case("default_diabetes").scalar("score");
    assert!((r2 - want).abs() <= 0.1, "R² {r2} vs scikit-learn {want}");
}
