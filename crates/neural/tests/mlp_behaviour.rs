//! Behaviour of the MLP estimators beyond parity: typed errors, determinism, f32, early
//! stopping, the stopping rule, partial_fit, serde, warm start.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, Axis, array};
use ndlearn_core::training::LearningRate;
use ndlearn_core::{
    Error, Estimator, Fit, FitMultiOutput, FitWeighted, PartialFit, Predict, PredictMultiOutput,
    PredictProba,
};
use ndlearn_neural::{Activation, AdamForm, MLPClassifier, MLPRegressor, Solver};

fn iris() -> (Array2<f64>, Array1<usize>) {
    let d = ndlearn_datasets::iris();
    let x = d.x().clone();
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let sd = x.std_axis(Axis(0), 0.0);
    ((&x - &mean) / &sd, d.y_classes().expect("classes").clone())
}

fn accuracy(p: &Array1<usize>, y: &Array1<usize>) -> f64 {
    p.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64
}

#[test]
fn invalid_hyperparameters_are_reported_before_the_data() {
    let empty = Array2::<f64>::zeros((0, 3));
    let y = Array1::<usize>::zeros(0);
    for est in [
        MLPClassifier::default().alpha(-1.0),
        MLPClassifier::default().hidden_layer_sizes(vec![3, 0]),
        MLPClassifier::default().learning_rate_init(0.0),
        MLPClassifier::default().momentum(1.5),
        MLPClassifier::default().beta_2(1.0),
        MLPClassifier::default().validation_fraction(1.0),
        MLPClassifier::default().max_iter(0),
        MLPClassifier::default().batch_size(Some(0)),
        MLPClassifier::default().activation(Activation::Softmax),
        MLPClassifier::default().activation(Activation::LeakyRelu { alpha: -0.1 }),
        MLPClassifier::default().learning_rate(LearningRate::Optimal),
        MLPClassifier::default().n_iter_no_change(0),
    ] {
        assert!(
            matches!(est.validate(), Err(Error::InvalidParam { .. })),
            "{est:?}"
        );
        assert!(matches!(
            est.fit(&empty, &y),
            Err(Error::InvalidParam { .. })
        ));
    }
    assert!(MLPRegressor::default().epsilon(0.0).validate().is_err());
}

#[test]
fn bad_data_gives_typed_errors() {
    let (x, y) = iris();
    let est = MLPClassifier::new(&[4]).max_iter(5);
    let mut bad = x.clone();
    bad[[3, 1]] = f64::NAN;
    assert!(matches!(est.fit(&bad, &y), Err(Error::NonFinite { .. })));
    assert!(est.fit(&x, &Array1::zeros(x.nrows())).is_err(), "one class");
    assert!(
        est.fit(&x, &y.slice(ndarray::s![..10]).to_owned()).is_err(),
        "length"
    );
    let fit = est.fit(&x, &y).expect("fit");
    assert!(matches!(
        fit.predict(&Array2::zeros((2, 3))),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(
        fit.predict(&Array2::from_elem((1, 4), f64::INFINITY))
            .is_err()
    );
    let reg = MLPRegressor::new(&[3]).max_iter(5);
    assert!(
        reg.fit(&Array2::<f64>::zeros((0, 2)), &Array1::zeros(0))
            .is_err()
    );
    let w = Array1::from_elem(x.nrows(), -1.0);
    assert!(
        reg.fit_weighted(&x, &x.column(0).to_owned(), Some(&w))
            .is_err()
    );
    // Divergence becomes an error, never a panic or non-finite weights.
    let huge = x.mapv(|v| v * 1e300);
    let r = MLPRegressor::new(&[3])
        .solver(Solver::Sgd)
        .learning_rate_init(10.0)
        .max_iter(20)
        .fit(&huge, &x.column(0).mapv(|v| v * 1e300));
    if let Ok(m) = r {
        assert!(m.coefs().iter().all(|c| c.iter().all(|v| v.is_finite())));
    }
}

#[test]
fn adam_sgd_and_lbfgs_learn_iris() {
    let (x, y) = iris();
    for solver in [Solver::Adam, Solver::Sgd, Solver::Lbfgs] {
        let fit = MLPClassifier::new(&[10])
            .solver(solver)
            .learning_rate_init(if solver == Solver::Sgd { 0.05 } else { 0.01 })
            .max_iter(300)
            .seed(1)
            .fit(&x, &y)
            .expect("fit");
        let acc = accuracy(&fit.predict(&x).expect("predict"), &y);
        assert!(acc > 0.95, "{solver:?}: training accuracy {acc}");
        let p = fit.predict_proba(&x).expect("proba");
        assert!(p.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
    }
    // The paper's Adam learns too.
    let fit = MLPClassifier::new(&[10])
        .adam_form(AdamForm::Paper)
        .learning_rate_init(0.01)
        .max_iter(300)
        .fit(&x, &y)
        .expect("fit");
    assert!(accuracy(&fit.predict(&x).expect("predict"), &y) > 0.95);
}

#[test]
fn same_seed_same_model_and_f32_close_to_f64() {
    let (x, y) = iris();
    let est = MLPClassifier::new(&[8]).max_iter(30).seed(5);
    let a = est.fit(&x, &y).expect("fit");
    // (Thread-count invariance is checked by the registry battery with 1, 2 and 3 threads.)
    let b = est.fit(&x, &y).expect("fit");
    assert_eq!(a.coefs(), b.coefs());
    assert_eq!(a.loss_curve(), b.loss_curve());
    let other = MLPClassifier::new(&[8])
        .max_iter(30)
        .seed(6)
        .fit(&x, &y)
        .expect("fit");
    assert_ne!(a.coefs(), other.coefs());
    // f32: same initial weights (drawn in f64, rounded), same path up to f32 rounding.
    let x32 = x.mapv(|v| v as f32);
    let c = est.fit(&x32, &y).expect("fit f32");
    for (l32, l64) in c.loss_curve().iter().zip(a.loss_curve()) {
        assert!((l32 - l64).abs() < 1e-3 * l64, "{l32} vs {l64}");
    }
}

#[test]
fn early_stopping_keeps_the_best_validation_weights() {
    let (x, y) = iris();
    let fit = MLPClassifier::new(&[10])
        .early_stopping(true)
        .validation_fraction(0.2)
        .n_iter_no_change(3)
        .learning_rate_init(0.05)
        .max_iter(500)
        .seed(2)
        .fit(&x, &y)
        .expect("fit");
    let h = fit.history();
    assert_eq!(h.validation_scores.len(), fit.n_iter());
    assert!(fit.n_iter() < 500 && fit.converged());
    let best = h.best_validation_score.expect("scored");
    assert_eq!(
        best,
        h.validation_scores.iter().copied().fold(f64::MIN, f64::max)
    );
    assert!(h.best_loss.is_none());
    // The stopping rule fired: the last n_iter_no_change + 1 scores did not beat the best by tol.
    let n = h.validation_scores.len();
    assert!(
        h.validation_scores[n - 4..]
            .iter()
            .all(|&s| s < best + 1e-4 || s <= best)
    );
    // Too small a validation set is a typed error.
    let small = MLPClassifier::new(&[3])
        .early_stopping(true)
        .validation_fraction(0.01);
    assert!(
        small
            .fit(
                &x.slice(ndarray::s![..20, ..]).to_owned(),
                &y.slice(ndarray::s![..20]).to_owned()
            )
            .is_err()
    );
}

#[test]
fn training_loss_rule_stops_before_max_iter() {
    let (x, y) = iris();
    let fit = MLPClassifier::new(&[5])
        .solver(Solver::Lbfgs)
        .max_iter(1000)
        .fit(&x, &y)
        .expect("fit");
    assert!(fit.converged() && fit.n_iter() < 1000);
    let fit = MLPClassifier::new(&[5])
        .tol(1e-2)
        .n_iter_no_change(2)
        .learning_rate_init(0.01)
        .max_iter(1000)
        .fit(&x, &y)
        .expect("fit");
    assert!(fit.converged() && fit.n_iter() < 1000);
    let best = fit.history().best_loss.expect("best loss");
    assert_eq!(
        best,
        fit.loss_curve().iter().copied().fold(f64::MAX, f64::min)
    );
}

#[test]
fn partial_fit_continues_and_checks_its_input() {
    let (x, y) = iris();
    let est = MLPClassifier::new(&[6])
        .n_classes(Some(3))
        .learning_rate_init(0.01);
    let mut m = None;
    for _ in 0..50 {
        m = Some(est.partial_fit(m, &x, &y).expect("partial"));
    }
    let m = m.expect("fitted");
    assert_eq!(m.loss_curve().len(), 50);
    assert!(m.loss_curve()[49] < m.loss_curve()[0]);
    assert!(
        est.partial_fit(
            Some(m.clone()),
            &x.slice(ndarray::s![.., ..2]).to_owned(),
            &y
        )
        .is_err()
    );
    assert!(
        est.partial_fit(Some(m), &x, &Array1::from_elem(x.nrows(), 5))
            .is_err()
    );
    assert!(
        MLPClassifier::default()
            .solver(Solver::Lbfgs)
            .partial_fit(None, &x, &y)
            .is_err()
    );
    assert!(
        MLPClassifier::default()
            .early_stopping(true)
            .partial_fit(None, &x, &y)
            .is_err()
    );
}

#[test]
fn regressor_multi_output_and_warm_start() {
    let n = 80;
    let x = Array2::from_shape_fn((n, 2), |(i, j)| ((i * 7 + j * 3) % 17) as f64 / 8.0 - 1.0);
    let y = Array2::from_shape_fn((n, 2), |(i, j)| {
        if j == 0 {
            x[[i, 0]] * x[[i, 1]]
        } else {
            x[[i, 0]].sin()
        }
    });
    let est = MLPRegressor::new(&[16])
        .activation(Activation::Tanh)
        .solver(Solver::Lbfgs)
        .max_iter(500)
        .seed(4);
    let fit = est.fit_multi(&x, &y).expect("fit");
    assert_eq!(fit.n_outputs(), 2);
    let p = fit.predict_multi(&x).expect("predict");
    let mse = (&p - &y).mapv(|e| e * e).mean().expect("non-empty");
    assert!(mse < 1e-3, "{mse}");
    assert!(
        fit.predict(&x).is_err(),
        "single-output predict on a 2-output model"
    );
    // Warm start: more epochs from the fitted weights keep the loss curve and lower the loss.
    let sgd = MLPRegressor::new(&[16])
        .activation(Activation::Tanh)
        .solver(Solver::Adam)
        .learning_rate_init(0.01)
        .max_iter(20)
        .seed(4);
    let first = sgd.fit_multi(&x, &y).expect("fit");
    let more = sgd.fit_from(first.clone(), &x, &y).expect("warm");
    assert_eq!(more.loss_curve().len(), 40);
    assert_eq!(&more.loss_curve()[..20], first.loss_curve());
    assert!(more.loss() < first.loss());
    assert_eq!(more.history().t, 2 * n * 20);
}

#[cfg(feature = "serde")]
#[test]
fn serde_round_trip_predicts_the_same() {
    let (x, y) = iris();
    let fit = MLPClassifier::new(&[5])
        .max_iter(10)
        .fit(&x, &y)
        .expect("fit");
    let json = serde_json::to_string(&fit).expect("serialise");
    let back: ndlearn_neural::FittedMLPClassifier<f64> =
        serde_json::from_str(&json).expect("parse");
    assert_eq!(
        back.predict_proba(&x).expect("p"),
        fit.predict_proba(&x).expect("p")
    );
    let est: MLPClassifier = serde_json::from_str(
        r#"{"random_state": 3, "hidden_layer_sizes": [4], "activation": "tanh", "solver": "sgd"}"#,
    )
    .expect("params");
    assert_eq!(
        (est.seed, est.solver, est.activation),
        (3, Solver::Sgd, Activation::Tanh)
    );
}

#[test]
fn xor_needs_and_gets_a_hidden_layer() {
    let x = array![[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]];
    let y = array![0usize, 1, 1, 0];
    let fit = MLPClassifier::new(&[4])
        .activation(Activation::Tanh)
        .solver(Solver::Lbfgs)
        .alpha(0.0)
        .seed(0)
        .fit(&x, &y)
        .expect("fit");
    assert_eq!(fit.predict(&x).expect("predict"), y);
    // Without a hidden layer the model is logistic regression: XOR is out of reach.
    let lin = MLPClassifier::new(&[])
        .solver(Solver::Lbfgs)
        .alpha(0.0)
        .fit(&x, &y)
        .expect("fit");
    assert!(accuracy(&lin.predict(&x).expect("predict"), &y) < 1.0);
}

/// Dropout and input noise are training-time only: they change the fit (a different path),
/// still learn iris, are deterministic for a seed, and are refused with L-BFGS.
#[test]
fn dropout_and_noise_injection_hooks() {
    let (x, y) = iris();
    let base = MLPClassifier::new(&[16])
        .learning_rate_init(0.01)
        .max_iter(200)
        .seed(3);
    let plain = base.clone().fit(&x, &y).expect("fit");
    for est in [
        base.clone().dropout(0.2),
        base.clone().input_noise(0.1),
        base.clone().dropout(0.1).input_noise(0.05),
    ] {
        let a = est.fit(&x, &y).expect("fit");
        let b = est.fit(&x, &y).expect("fit");
        assert_eq!(a.coefs(), b.coefs(), "same seed, same masks and noise");
        assert_ne!(a.coefs(), plain.coefs());
        assert!(accuracy(&a.predict(&x).expect("predict"), &y) > 0.9);
    }
    assert!(
        base.clone()
            .solver(Solver::Lbfgs)
            .dropout(0.5)
            .validate()
            .is_err()
    );
    assert!(
        base.clone()
            .solver(Solver::Lbfgs)
            .input_noise(0.5)
            .validate()
            .is_err()
    );
    assert!(base.clone().dropout(1.0).validate().is_err());
    assert!(base.input_noise(-1.0).validate().is_err());
}

#[cfg(feature = "serde")]
#[test]
fn batch_size_reads_and_writes_auto() {
    let est: MLPRegressor = serde_json::from_str(r#"{"batch_size": "auto"}"#).expect("auto");
    assert_eq!(est.batch_size, None);
    let est: MLPRegressor = serde_json::from_str(r#"{"batch_size": 32}"#).expect("count");
    assert_eq!(est.batch_size, Some(32));
    let est: MLPRegressor = serde_json::from_str(r#"{"batch_size": "16"}"#).expect("text count");
    assert_eq!(est.batch_size, Some(16));
    assert!(serde_json::from_str::<MLPRegressor>(r#"{"batch_size": "big"}"#).is_err());
    let json = serde_json::to_value(MLPRegressor::default()).expect("json");
    assert_eq!(json["batch_size"], "auto");
}

#[cfg(feature = "serde")]
#[test]
fn batch_normalised_mlp_learns_and_round_trips() {
    let (x, y) = iris();
    // Unscaled inputs: batch normalisation of the hidden layer copes with them.
    let raw = ndlearn_datasets::iris().x().clone();
    for solver in [Solver::Adam, Solver::Lbfgs] {
        let fit = MLPClassifier::new(&[10, 6])
            .batch_norm(true)
            .solver(solver)
            .learning_rate_init(0.01)
            .max_iter(300)
            .seed(2)
            .fit(&raw, &y)
            .expect("fit");
        assert!(fit.network().layers()[0].batch_norm.is_some());
        assert!(
            fit.network().layers()[2].batch_norm.is_none(),
            "output layer is not normalised"
        );
        let acc = accuracy(&fit.predict(&raw).expect("predict"), &y);
        assert!(acc > 0.9, "{solver:?}: {acc}");
        let json = serde_json::to_string(&fit).expect("json");
        let back: ndlearn_neural::FittedMLPClassifier<f64> =
            serde_json::from_str(&json).expect("parse");
        assert_eq!(
            back.predict_proba(&raw).expect("p"),
            fit.predict_proba(&raw).expect("p")
        );
    }
    let reg = MLPRegressor::new(&[8])
        .batch_norm(true)
        .max_iter(50)
        .fit(&x, &x.column(0).to_owned())
        .expect("fit");
    assert!(
        reg.predict(&x)
            .expect("predict")
            .iter()
            .all(|v| v.is_finite())
    );
}

#[test]
fn blocked_parallel_prediction_equals_row_by_row_for_any_thread_count() {
    // 5,000 rows: above the 2,048 rows where prediction switches to parallel blocks.
    let (x, y) = iris();
    let fit = MLPClassifier::new(&[16])
        .max_iter(30)
        .seed(3)
        .fit(&x, &y)
        .expect("fit");
    let big = Array2::from_shape_fn((5000, 4), |(i, j)| {
        x[[(i * 7 + j) % 150, j]] + 0.01 * i as f64 / 5000.0
    });
    let whole: Array2<f64> = fit.predict_proba(&big).expect("proba");
    for i in (0..5000).step_by(499) {
        let one: Array2<f64> = fit
            .predict_proba(&big.slice(ndarray::s![i..i + 1, ..]))
            .expect("proba");
        // A one-row product may take another BLAS kernel: equal up to rounding.
        for (a, b) in one.row(0).iter().zip(whole.row(i)) {
            assert!((a - b).abs() <= 1e-12, "row {i}: {a} vs {b}");
        }
    }
    for t in [1, 2, 3] {
        let p: Array2<f64> = ndlearn_core::par::with_threads(t, || fit.predict_proba(&big))
            .expect("pool")
            .expect("proba");
        assert_eq!(p, whole, "{t} threads");
    }
}
