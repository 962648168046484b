//! `LinearSvc` / `LinearSvr` against scikit-learn 1.9.1 / liblinear
//! (`datasets/golden/svm/svm_linear.json`, written by `scripts/golden/svm_linear.py`).
//!
//! `tight_*` cases: both sides solve to `tol = 1e-10`. The coordinate orders differ (liblinear
//! draws them from its own generator), so the iterates are not compared, the optimum is:
//! - the primal objective `F` of every binary problem, on the same formula (the script's value
//!   at liblinear's coefficients is first checked against [`LinearSvc::objective`] at the same
//!   coefficients, to `1e-12` relative: the formulas agree), then ours against liblinear's:
//!   relative `1e-6`;
//! - coefficients, for the L2 penalty: `F` is 1-strongly convex in `w̃ = [w, b/s]` (the `½‖w̃‖²`
//!   term; the losses are convex), so a point within `δ` of the optimum value is within
//!   `√(2δ)` of the minimiser. With both sides within `δ = 1e-6 |F|`,
//!   `‖w̃ − w̃_sk‖₂ ≤ 2√(2δ)`: this bound, not a fitted constant, is the tolerance;
//!   The L1 penalty is not strongly convex (the minimiser need not be unique): its
//!   coefficients are not compared;
//! - predictions: a score moves by at most `‖w̃ − w̃_sk‖ ‖x̃‖` (Cauchy–Schwarz), so the
//!   predictions must be equal on every row whose scikit-learn margin (`|f|`, or the gap
//!   between the two best classes) exceeds twice that (at least half the rows must qualify,
//!   so that the check is not vacuous).
//!
//! Crammer–Singer cases use `tol = 1e-9` on both sides (liblinear caps that solver at 100000
//! passes whatever `max_iter` says, too few for `1e-10` on some cases); their one joint
//! objective is compared as above, and the coefficient bound applies to all rows together.
//!
//! `default_*` cases: scikit-learn's defaults on both sides (tol `1e-4`); the training accuracy
//! (classification) must be equal, and R² equal to `1e-3` (the regression dual stops on a
//! relative tolerance, so the two solutions differ at `tol` scale).

use ndarray::{Array1, Array2, Axis};
use ndlearn_core::class_weight::ClassWeight;
use ndlearn_core::traits::{DecisionFunction, Fit, FitWeighted, Predict};
use ndlearn_svm::{Dual, LinearSvc, LinearSvr, MultiClass, Penalty, SvcLoss, SvrLoss};
use ndlearn_testkit::{Case, Golden};
use serde_json::Value;

const TOL: f64 = 1e-10;
const MAX_ITER: usize = 1_000_000;
const OBJ_RTOL: f64 = 1e-6;

fn golden() -> Golden {
    Golden::load("svm", "svm_linear")
}

fn input(g: &Golden, case: &Case) -> Array2<f64> {
    g.case(&format!("data_{}", case.string("data"))).matrix("x")
}

fn param(case: &Case, key: &str) -> Option<Value> {
    case.raw("params").get(key).cloned()
}

fn string(case: &Case, key: &str) -> Option<String> {
    param(case, key).and_then(|v| v.as_str().map(String::from))
}

fn num(case: &Case, key: &str, default: f64) -> f64 {
    param(case, key).and_then(|v| v.as_f64()).unwrap_or(default)
}

fn dual(case: &Case) -> Dual {
    match string(case, "dual").as_deref() {
        Some("true") => Dual::Dual,
        Some("false") => Dual::Primal,
        _ => Dual::Auto,
    }
}

fn fit_intercept(case: &Case) -> bool {
    string(case, "fit_intercept").as_deref() != Some("false")
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("sample_weight")
        .then(|| case.vector("sample_weight"))
}

fn svc(case: &Case, tight: bool) -> LinearSvc {
    let class_weight = match param(case, "class_weight") {
        Some(Value::String(s)) if s == "balanced" => ClassWeight::Balanced,
        Some(Value::Object(m)) => ClassWeight::Explicit(
            m.iter()
                .map(|(k, v)| (k.parse().expect("class"), v.as_f64().expect("weight")))
                .collect(),
        ),
        _ => ClassWeight::Uniform,
    };
    let est = LinearSvc::default()
        .c(num(case, "C", 1.0))
        .penalty(match string(case, "penalty").as_deref() {
            Some("l1") => Penalty::L1,
            _ => Penalty::L2,
        })
        .loss(match string(case, "loss").as_deref() {
            Some("hinge") => SvcLoss::Hinge,
            _ => SvcLoss::SquaredHinge,
        })
        .dual(dual(case))
        .fit_intercept(fit_intercept(case))
        .intercept_scaling(num(case, "intercept_scaling", 1.0))
        .class_weight(class_weight)
        .multi_class(match string(case, "multi_class").as_deref() {
            Some("crammer_singer") => MultiClass::CrammerSinger,
            _ => MultiClass::Ovr,
        });
    if tight {
        est.tol(num(case, "tol", TOL)).max_iter(MAX_ITER)
    } else {
        est
    }
}

fn svr(case: &Case, tight: bool) -> LinearSvr {
    let est = LinearSvr::default()
        .c(num(case, "C", 1.0))
        .epsilon(num(case, "epsilon", 0.0))
        .loss(match string(case, "loss").as_deref() {
            Some("squared_epsilon_insensitive") => SvrLoss::SquaredEpsilonInsensitive,
            _ => SvrLoss::EpsilonInsensitive,
        })
        .dual(dual(case))
        .fit_intercept(fit_intercept(case))
        .intercept_scaling(num(case, "intercept_scaling", 1.0));
    if tight {
        est.tol(TOL).max_iter(MAX_ITER)
    } else {
        est
    }
}

/// `w̃ = [w, b/s]` per problem.
fn augmented(coef: &Array2<f64>, intercept: &Array1<f64>, scaling: Option<f64>) -> Array2<f64> {
    match scaling {
        Some(s) => {
            let mut out = Array2::zeros((coef.nrows(), coef.ncols() + 1));
            out.slice_mut(ndarray::s![.., ..coef.ncols()]).assign(coef);
            for (k, b) in intercept.iter().enumerate() {
                out[[k, coef.ncols()]] = b / s;
            }
            out
        }
        None => coef.clone(),
    }
}

/// `‖x̃‖₂` per row.
fn row_norms(x: &Array2<f64>, scaling: Option<f64>) -> Vec<f64> {
    x.rows()
        .into_iter()
        .map(|r| (r.dot(&r) + scaling.map_or(0.0, |s| s * s)).sqrt())
        .collect()
}

/// Sorted scores: margin of the prediction (`|f|` for one column, else best − second best).
fn margin(row: ndarray::ArrayView1<'_, f64>) -> f64 {
    if row.len() == 1 {
        return row[0].abs();
    }
    let mut v = row.to_vec();
    v.sort_by(|a, b| b.total_cmp(a));
    v[0] - v[1]
}

fn accuracy(pred: &Array1<usize>, y: &Array1<usize>) -> f64 {
    pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64
}

fn r2(pred: &Array1<f64>, y: &Array1<f64>) -> f64 {
    let mean = y.mean().expect("non-empty");
    let ss_res: f64 = pred.iter().zip(y).map(|(p, t)| (p - t).powi(2)).sum();
    let ss_tot: f64 = y.iter().map(|t| (t - mean).powi(2)).sum();
    1.0 - ss_res / ss_tot
}

#[test]
fn linear_svc_reaches_liblinears_optimum() {
    let g = golden();
    let cases = g.cases_with_prefix("tight_svc_");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    let mut worst_gap: f64 = 0.0;
    let mut worst_coef: f64 = 0.0;
    for case in cases {
        let name = case.name();
        let x = input(&g, case);
        let y = case.labels("y");
        let sw = weights(case);
        let est = svc(case, true);
        let model = est
            .fit_weighted(&x, &y, sw.as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(model.converged(), "{name}: not converged");
        let coef_sk = case.matrix("coef");
        let int_sk = case.vector("intercept");
        let want = case.vector("objectives");
        // the same formula on both sides
        let formula = est
            .objective(&x, &y, sw.as_deref(), &coef_sk, &int_sk)
            .expect("objective");
        for (a, b) in formula.iter().zip(&want) {
            assert!(
                (a - b).abs() <= 1e-12 * b.abs().max(1.0),
                "{name}: objective formula {a} vs script {b}"
            );
        }
        let ours = model.objectives();
        let again = est
            .objective(&x, &y, sw.as_deref(), model.coef(), model.intercept())
            .expect("objective");
        for (a, b) in ours.iter().zip(&again) {
            // equal for one-vs-rest; two-class Crammer–Singer recomputes from w₁ − w₀
            assert!(
                (a - b).abs() <= 1e-12 * b.abs(),
                "{name}: reported {a} vs recomputed objective {b}"
            );
        }
        for (k, (a, b)) in ours.iter().zip(&want).enumerate() {
            let gap = (a - b).abs() / b.abs();
            worst_gap = worst_gap.max(gap);
            assert!(
                gap <= OBJ_RTOL,
                "{name}, problem {k}: objective {a} vs liblinear {b} (relative {gap:e})"
            );
        }
        let scaling = fit_intercept(case).then(|| num(case, "intercept_scaling", 1.0));
        let wa = augmented(model.coef(), model.intercept(), scaling);
        let wb = augmented(&coef_sk, &int_sk, scaling);
        let l1 = string(case, "penalty").as_deref() == Some("l1");
        let cs = string(case, "multi_class").as_deref() == Some("crammer_singer");
        // ‖w̃ₖ − w̃ₖ_sk‖ per row of coefficients; for the L2 penalty (and Crammer–Singer, whose
        // objective is 1-strongly convex in all rows together) within the strong-convexity
        // bound
        let dists: Vec<f64> = (0..wa.nrows())
            .map(|k| (&wa.row(k) - &wb.row(k)).mapv(|v| v * v).sum().sqrt())
            .collect();
        let radius = dists.iter().fold(0.0f64, |m, &v| m.max(v));
        let bound = |f: f64| 2.0 * (2.0 * OBJ_RTOL * f.abs()).sqrt();
        if cs {
            // two classes: scikit-learn stores w₁ − w₀ = 2w₁, and ‖ΔW‖² = 2‖Δw₁‖²
            let total = dists.iter().map(|d| d * d).sum::<f64>().sqrt()
                / if wa.nrows() == 1 { 2f64.sqrt() } else { 1.0 };
            worst_coef = worst_coef.max(total / bound(want[0]));
            assert!(
                total <= bound(want[0]),
                "{name}: ‖ΔW̃‖ = {total:e} above the strong-convexity bound {:e}",
                bound(want[0])
            );
        } else if !l1 {
            for (k, f) in want.iter().enumerate() {
                worst_coef = worst_coef.max(dists[k] / bound(*f));
                assert!(
                    dists[k] <= bound(*f),
                    "{name}, problem {k}: ‖w̃ − w̃_sk‖ = {:e} above the strong-convexity bound {:e}",
                    dists[k],
                    bound(*f)
                );
            }
        }
        // |f(x) − f_sk(x)| ≤ ‖w̃ − w̃_sk‖ ‖x̃‖ per score (Cauchy–Schwarz): the predictions
        // must agree wherever the margin exceeds twice that
        let pred = model.predict(&x).expect("predict");
        let pred_sk = case.labels("predict");
        let dec_sk = case.matrix("decision");
        let norms = row_norms(&x, scaling);
        let mut compared = 0;
        for (i, row) in dec_sk.axis_iter(Axis(0)).enumerate() {
            if margin(row) > 2.0 * radius * norms[i] {
                compared += 1;
                assert_eq!(
                    pred[i],
                    pred_sk[i],
                    "{name}: row {i}, margin {}",
                    margin(row)
                );
            }
        }
        assert!(
            2 * compared >= x.nrows(),
            "{name}: only {compared} rows outside the margin (‖Δw̃‖ = {radius:e})"
        );
        let dec = model.decision_function(&x).expect("decision");
        assert_eq!(dec.dim(), dec_sk.dim(), "{name}: decision shape");
    }
    eprintln!(
        "LinearSvc tight cases: worst objective gap {worst_gap:e}, worst ‖Δw̃‖ / bound {worst_coef:e}"
    );
}

#[test]
fn linear_svr_reaches_liblinears_optimum() {
    let g = golden();
    let cases = g.cases_with_prefix("tight_svr_");
    assert!(cases.len() >= 6);
    let mut worst_gap: f64 = 0.0;
    let mut worst_coef: f64 = 0.0;
    for case in cases {
        let name = case.name();
        let x = input(&g, case);
        let y = case.vector("y");
        let sw = weights(case);
        let est = svr(case, true);
        let model = est
            .fit_weighted(&x, &y, sw.as_deref())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(model.converged(), "{name}: not converged");
        let coef_sk = case.vector("coef");
        let int_sk = case.scalar("intercept");
        let want = case.scalar("objective");
        let formula = est
            .objective(&x, &y, sw.as_deref(), &coef_sk, int_sk)
            .expect("objective");
        assert!(
            (formula - want).abs() <= 1e-12 * want.abs().max(1.0),
            "{name}: objective formula {formula} vs script {want}"
        );
        let ours = model.objective();
        let gap = (ours - want).abs() / want.abs();
        worst_gap = worst_gap.max(gap);
        assert!(
            gap <= OBJ_RTOL,
            "{name}: objective {ours} vs liblinear {want} (relative {gap:e})"
        );
        let scaling = fit_intercept(case).then(|| num(case, "intercept_scaling", 1.0));
        let wa = augmented(
            &model.coef().clone().insert_axis(Axis(0)),
            &Array1::from_elem(1, model.intercept()),
            scaling,
        );
        let wb = augmented(
            &coef_sk.insert_axis(Axis(0)),
            &Array1::from_elem(1, int_sk),
            scaling,
        );
        let dist = (&wa - &wb).mapv(|v| v * v).sum().sqrt();
        let bound = 2.0 * (2.0 * OBJ_RTOL * want.abs()).sqrt();
        worst_coef = worst_coef.max(dist / bound);
        assert!(dist <= bound, "{name}: ‖Δw̃‖ = {dist:e} > {bound:e}");
        // |f − f_sk| ≤ ‖Δw̃‖ ‖x̃‖ on every row
        let pred = model.predict(&x).expect("predict");
        let pred_sk = case.vector("predict");
        for ((p, q), n) in pred.iter().zip(&pred_sk).zip(row_norms(&x, scaling)) {
            assert!((p - q).abs() <= bound * n, "{name}: prediction {p} vs {q}");
        }
    }
    eprintln!(
        "LinearSvr tight cases: worst objective gap {worst_gap:e}, worst ‖Δw̃‖ / bound {worst_coef:e}"
    );
}

#[test]
fn default_settings_score_like_scikit_learn() {
    let g = golden();
    let svc_cases = g.cases_with_prefix("default_svc_");
    assert!(svc_cases.len() >= 4);
    for case in svc_cases {
        let name = case.name();
        let x = input(&g, case);
        let y = case.labels("y");
        let model = svc(case, false).fit(&x, &y).expect("fit");
        let acc = accuracy(&model.predict(&x).expect("predict"), &y);
        assert_eq!(acc, case.scalar("score"), "{name}: training accuracy");
    }
    let svr_cases = g.cases_with_prefix("default_svr_");
    assert!(svr_cases.len() >= 2);
    for case in svr_cases {
        let name = case.name();
        let x = input(&g, case);
        let y = case.vector("y");
        let model = svr(case, false).fit(&x, &y).expect("fit");
        let score = r2(&model.predict(&x).expect("predict"), &y);
        let want = case.scalar("score");
        assert!(
            (score - want).abs() <= 1e-3,
            "{name}: R² {score} vs scikit-learn {want}"
        );
    }
}
