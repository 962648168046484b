//! SGDClassifier / SGDRegressor against scikit-learn 1.9.1 with `shuffle = False`
//! (`datasets/golden/linear/sgd.json`, written by `scripts/golden/linear_sgd.py`).
//!
//! scikit-learn's plain SGD draws no random number without shuffling, and ndlearn performs the
//! same floating-point operations in the same order, so `n_iter_` and `t_` must be equal and
//! `coef_` / `intercept_` agree to rounding. Tolerance: `1e-10 · (1 + max|reference|)`
//! absolute on every coefficient, intercept, decision value and probability (`t_` and
//! `n_iter_` exactly). Measured with scikit-learn 1.9.1 on this machine: at most 8.3e-16 over
//! the 27 fit cases (most are bitwise equal) and 8.5e-17 over the partial-fit sequences. The
//! margin covers the few operations that may round differently on another machine: the libm
//! calls (`exp`, `log1p`, `pow`) and the folding of the averaged weights, which OpenBLAS's
//! `axpy` may evaluate with a fused multiply-add; a one-ulp difference there grows through the
//! later updates of these runs by a few orders of magnitude at most.

use ndarray::{Array1, Array2, Axis, s};
use ndlearn_core::DecisionFunction;
use ndlearn_core::FitWeighted;
use ndlearn_core::{Fit, PartialFit, PredictProba};
use ndlearn_linear::{
    ClassWeight, FittedSGDClassifier, FittedSGDRegressor, LearningRate, SGDClassifier,
    SGDRegressor, SgdLoss, SgdPenalty,
};
use ndlearn_testkit::{Case, Golden};

fn golden() -> Golden {
    Golden::load("linear", "sgd")
}

fn loss(name: &str) -> SgdLoss {
    match name {
        "hinge" => SgdLoss::Hinge,
        "log_loss" => SgdLoss::LogLoss,
        "modified_huber" => SgdLoss::ModifiedHuber,
        "squared_hinge" => SgdLoss::SquaredHinge,
        "perceptron" => SgdLoss::Perceptron,
        "squared_error" => SgdLoss::SquaredError,
        "huber" => SgdLoss::Huber,
        "epsilon_insensitive" => SgdLoss::EpsilonInsensitive,
        "squared_epsilon_insensitive" => SgdLoss::SquaredEpsilonInsensitive,
        other => panic!("unknown loss {other}"),
    }
}

/// The hyperparameters stored in a case, applied over `(penalty, lr, ...)` setters.
struct Params {
    loss: SgdLoss,
    penalty: SgdPenalty,
    alpha: f64,
    l1_ratio: f64,
    fit_intercept: bool,
    max_iter: usize,
    tol: Option<f64>,
    epsilon: f64,
    learning_rate: Option<LearningRate>,
    eta0: f64,
    power_t: Option<f64>,
    average: usize,
}

fn params(case: &Case, default_loss: SgdLoss) -> Params {
    let num = |k: &str, d: f64| if case.has(k) { case.scalar(k) } else { d };
    Params {
        loss: if case.has("loss") {
            loss(case.string("loss"))
        } else {
            default_loss
        },
        penalty: if case.has("penalty") {
            match case.string("penalty") {
                "l2" => SgdPenalty::L2,
                "l1" => SgdPenalty::L1,
                "elasticnet" => SgdPenalty::ElasticNet,
                "none" => SgdPenalty::None,
                other => panic!("penalty {other}"),
            }
        } else {
            SgdPenalty::L2
        },
        alpha: num("alpha", 1e-4),
        l1_ratio: num("l1_ratio", 0.15),
        fit_intercept: num("fit_intercept", 1.0) == 1.0,
        max_iter: num("max_iter", 1000.0) as usize,
        tol: if case.has("tol_none") {
            None
        } else {
            Some(num("tol", 1e-3))
        },
        epsilon: num("epsilon", 0.1),
        learning_rate: case
            .has("learning_rate")
            .then(|| match case.string("learning_rate") {
                "constant" => LearningRate::Constant,
                "optimal" => LearningRate::Optimal,
                "invscaling" => LearningRate::InvScaling,
                "adaptive" => LearningRate::Adaptive,
                other => panic!("learning_rate {other}"),
            }),
        eta0: num("eta0", 0.01),
        power_t: case.has("power_t").then(|| case.scalar("power_t")),
        average: num("average", 0.0) as usize,
    }
}

fn classifier(case: &Case) -> SGDClassifier {
    let p = params(case, SgdLoss::Hinge);
    let mut est = SGDClassifier::default()
        .shuffle(false)
        .loss(p.loss)
        .penalty(p.penalty)
        .alpha(p.alpha)
        .l1_ratio(p.l1_ratio)
        .fit_intercept(p.fit_intercept)
        .max_iter(p.max_iter)
        .tol(p.tol)
        .epsilon(p.epsilon)
        .eta0(p.eta0)
        .average(p.average);
    if let Some(lr) = p.learning_rate {
        est = est.learning_rate(lr);
    }
    if let Some(pt) = p.power_t {
        est = est.power_t(pt);
    }
    if case.has("class_weight_custom") {
        est = est.class_weight(ClassWeight::per_class(
            case.vector("class_weight_custom")
                .as_slice()
                .expect("contiguous"),
        ));
    } else if case.has("class_weight") {
        assert_eq!(case.string("class_weight"), "balanced");
        est = est.class_weight(ClassWeight::Balanced);
    }
    est
}

fn regressor(case: &Case) -> SGDRegressor {
    let p = params(case, SgdLoss::SquaredError);
    let mut est = SGDRegressor::default()
        .shuffle(false)
        .loss(p.loss)
        .penalty(p.penalty)
        .alpha(p.alpha)
        .l1_ratio(p.l1_ratio)
        .fit_intercept(p.fit_intercept)
        .max_iter(p.max_iter)
        .tol(p.tol)
        .epsilon(p.epsilon)
        .eta0(p.eta0)
        .average(p.average);
    if let Some(lr) = p.learning_rate {
        est = est.learning_rate(lr);
    }
    if let Some(pt) = p.power_t {
        est = est.power_t(pt);
    }
    est
}

fn data(g: &Golden, name: &str) -> (Array2<f64>, &'static str) {
    let c = g.case(&format!("data_{name}"));
    let kind = if name == "diabetes" { "reg" } else { "clf" };
    (c.matrix("x"), kind)
}

/// `max |a − b| / (1 + max |b|)`.
fn rel_dev(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    assert_eq!(a.dim(), b.dim());
    let scale = 1.0 + b.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    a.iter()
        .zip(b)
        .fold(0.0f64, |m, (x, y)| m.max((x - y).abs()))
        / scale
}

const TOL: f64 = 1e-10;

fn check_classifier(case: &Case, m: &FittedSGDClassifier<f64>, x: &Array2<f64>) -> f64 {
    let name = case.name();
    assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: n_iter_");
    assert_eq!(m.t(), case.scalar("t"), "{name}: t_");
    let dc = rel_dev(m.coef(), &case.matrix("coef"));
    let di = rel_dev(
        &m.intercept().clone().insert_axis(Axis(0)),
        &case.vector("intercept").insert_axis(Axis(0)),
    );
    let dd = rel_dev(
        &m.decision_function(x).expect("decision"),
        &case.matrix("decision"),
    );
    let mut worst = dc.max(di).max(dd);
    if case.has("proba") {
        let p = m.predict_proba(x).expect("proba");
        worst = worst.max(rel_dev(&p, &case.matrix("proba")));
    }
    assert!(worst < TOL, "{name}: relative deviation {worst:e}");
    worst
}

fn check_regressor(case: &Case, m: &FittedSGDRegressor<f64>) -> f64 {
    let name = case.name();
    assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: n_iter_");
    assert_eq!(m.t(), case.scalar("t"), "{name}: t_");
    let dc = rel_dev(&m.coef().clone().insert_axis(Axis(0)), &case.matrix("coef"));
    let di = (m.intercept() - case.vector("intercept")[0]).abs()
        / (1.0 + case.vector("intercept")[0].abs());
    let worst = dc.max(di);
    assert!(worst < TOL, "{name}: relative deviation {worst:e}");
    worst
}

#[test]
fn fits_match_sklearn() {
    let g = golden();
    let mut report = Vec::new();
    for case in g.cases() {
        if !case.has("n_iter") {
            continue;
        }
        let dname = case.string("data");
        let (x, kind) = data(&g, dname);
        let dcase = g.case(&format!("data_{dname}"));
        let dev = if kind == "clf" {
            let y = dcase.labels("y");
            let est = classifier(case);
            let m = if case.has("sample_weight") {
                est.fit_weighted(&x, &y, Some(&case.vector("sample_weight")))
            } else {
                est.fit(&x, &y)
            }
            .expect("fit");
            check_classifier(case, &m, &x)
        } else {
            let y = dcase.vector("y");
            let est = regressor(case);
            let m = if case.has("sample_weight") {
                est.fit_weighted(&x, &y, Some(&case.vector("sample_weight")))
            } else {
                est.fit(&x, &y)
            }
            .expect("fit");
            check_regressor(case, &m)
        };
        report.push((case.name().to_string(), dev));
    }
    assert!(report.len() >= 25, "every fit case ran");
    let worst = report.iter().fold(0.0f64, |m, r| m.max(r.1));
    eprintln!(
        "max relative deviation over {} fit cases: {worst:e}",
        report.len()
    );
    for (n, d) in &report {
        eprintln!("  {n}: {d:e}");
    }
}

/// The state after every `partial_fit` call. For the averaged binary classifier only the calls
/// before the averaged model is first exposed are compared: from then on scikit-learn restarts
/// the plain intercept from a stale copy (see the module docs of `ndlearn_linear::sgd`).
#[test]
fn partial_fit_sequences_match_sklearn() {
    let g = golden();
    let mut worst = 0.0f64;
    for case in g.cases_with_prefix("partial_") {
        let name = case.name();
        let dname = case.string("data");
        let (x, kind) = data(&g, dname);
        let dcase = g.case(&format!("data_{dname}"));
        let batches = case.matrix("batches");
        let coefs = case.matrix("coef_per_call");
        let intercepts = case.matrix("intercept_per_call");
        let ts = case.vector("t_per_call");
        let mut calls = batches.nrows();
        if kind == "clf" && case.has("average") {
            let avg = case.scalar("average");
            calls = ts
                .iter()
                .position(|&t| avg <= t - 1.0)
                .map_or(calls, |i| i + 1);
        }
        let compare = |i: usize, coef: Array1<f64>, intercept: Array1<f64>, t: f64| -> f64 {
            assert_eq!(t, ts[i], "{name} call {i}: t_");
            let dc = rel_dev(
                &coef.insert_axis(Axis(0)),
                &coefs.row(i).to_owned().insert_axis(Axis(0)),
            );
            let di = rel_dev(
                &intercept.insert_axis(Axis(0)),
                &intercepts.row(i).to_owned().insert_axis(Axis(0)),
            );
            let d = dc.max(di);
            assert!(d < TOL, "{name} call {i}: relative deviation {d:e}");
            d
        };
        if kind == "clf" {
            let y = dcase.labels("y");
            let est = classifier(case).n_classes(Some(y.iter().max().map_or(0, |m| m + 1)));
            let mut model: Option<FittedSGDClassifier<f64>> = None;
            for i in 0..calls {
                let (lo, hi) = (batches[[i, 0]] as usize, batches[[i, 1]] as usize);
                let m = est
                    .partial_fit(model.take(), &x.slice(s![lo..hi, ..]), &y.slice(s![lo..hi]))
                    .expect("partial_fit");
                let coef = Array1::from_iter(m.coef().iter().copied());
                worst = worst.max(compare(i, coef, m.intercept().clone(), m.t()));
                model = Some(m);
            }
        } else {
            let y = dcase.vector("y");
            let est = regressor(case);
            let mut model: Option<FittedSGDRegressor<f64>> = None;
            for i in 0..calls {
                let (lo, hi) = (batches[[i, 0]] as usize, batches[[i, 1]] as usize);
                let m = est
                    .partial_fit(model.take(), &x.slice(s![lo..hi, ..]), &y.slice(s![lo..hi]))
                    .expect("partial_fit");
                worst = worst.max(compare(
                    i,
                    m.coef().clone(),
                    Array1::from_elem(1, m.intercept()),
                    m.t(),
                ));
                model = Some(m);
            }
        }
    }
    eprintln!("partial_fit: max relative deviation {worst:e}");
}

/// f32 input follows the same algorithm in single precision: close to the f64 golden values.
#[test]
fn f32_is_close_to_the_f64_reference() {
    let g = golden();
    for name in ["bc_hinge_average", "iris_hinge_constant", "diab_sq_none"] {
        let case = g.case(name);
        let dname = case.string("data");
        let (x, kind) = data(&g, dname);
        let x32 = x.mapv(|v| v as f32);
        let dcase = g.case(&format!("data_{dname}"));
        let (coef, want) = if kind == "clf" {
            let m: FittedSGDClassifier<f32> =
                classifier(case).fit(&x32, &dcase.labels("y")).expect("fit");
            (m.coef().mapv(f64::from), case.matrix("coef"))
        } else {
            let y32 = dcase.vector("y").mapv(|v| v as f32);
            let m: FittedSGDRegressor<f32> = regressor(case).fit(&x32, &y32).expect("fit");
            (
                m.coef().mapv(f64::from).insert_axis(Axis(0)),
                case.matrix("coef"),
            )
        };
        let d = rel_dev(&coef, &want);
        assert!(d < 2e-3, "{name}: f32 deviation {d:e}");
    }
}
