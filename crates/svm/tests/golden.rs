//! ndlearn-svm against scikit-learn 1.9.1 / libsvm (`datasets/golden/svm/svm.json`, written by
//! `scripts/golden/svm.py`).
//!
//! Both sides solve to `tol = 1e-8` (the maximal KKT violation `m(α) − M(α)`). At that
//! tolerance the dual objective of either solution is within about `tol · Σ Cᵢ`-scaled
//! rounding of the optimum; libsvm keeps kernel values in float32, so its gradient carries a
//! relative error of about `2⁻²⁴ · Σⱼ |αⱼ k_ij|`, which dominates. Hence:
//! - dual objective: relative `1e-6`;
//! - decision values and intercepts: absolute `max(TOL_DEC · max(1, max |f|), 16 · 2⁻²⁴ ·
//!   maxₓ Σⱼ |cⱼ k(x, svⱼ)|)` with `TOL_DEC = 1e-5` (the second term is libsvm's float32 error);
//! - dual coefficients, for the RBF kernel only: `1e-4 · C` absolute (coefficients are bounded
//!   by `C`; a free coefficient moves by the float32 gradient error over the kernel's
//!   curvature). With a linear or polynomial kernel the kernel matrix has rank at most the
//!   dimension of the feature space (`d`, or `C(d + p, p)`), so with more free support vectors
//!   than that the optimal coefficients are not unique and only the decision function is
//!   determined: those cases compare decisions (and, for the linear kernel, the primal
//!   `w = Σ cᵢ xᵢ`);
//! - support sets equal except rows whose coefficient is below `1e-4 · C` on either side
//!   (RBF only, as above);
//! - predictions equal except rows whose decision is within the decision tolerance of 0;
//! - kernel ridge (closed form, both in float64): `1e-8` relative to the largest coefficient,
//!   which bounds `κ(K + αI) · ε` for these cases (κ ≤ 1e5).

use std::collections::BTreeSet;

use ndarray::{Array1, Array2};
use ndlearn_core::traits::{
    DecisionFunction, Fit, FitMultiOutput, FitUnsupervised, FitWeighted, OutlierDetector, Predict,
    PredictMultiOutput,
};
use ndlearn_svm::{Gamma, KernelRidge, NuSvc, NuSvr, OneClassSvm, Svc, SvmKernel, Svr};
use ndlearn_testkit::{Case, Golden, assert_close};
use serde_json::Value;

const TOL: f64 = 1e-8;
const TOL_DEC: f64 = 1e-5;

fn golden() -> Golden {
    Golden::load("svm", "svm")
}

/// The input matrix of a case (stored once per distinct matrix as the case `data_<name>`).
fn input(g: &Golden, case: &Case) -> Array2<f64> {
    g.case(&format!("data_{}", case.string("data"))).matrix("x")
}

fn param(case: &Case, key: &str) -> Option<Value> {
    case.raw("params").get(key).cloned()
}

fn num(case: &Case, key: &str, default: f64) -> f64 {
    param(case, key).and_then(|v| v.as_f64()).unwrap_or(default)
}

fn kernel(case: &Case) -> SvmKernel {
    match param(case, "kernel")
        .and_then(|v| v.as_str().map(String::from))
        .as_deref()
    {
        Some("linear") => SvmKernel::Linear,
        Some("poly") => SvmKernel::Poly,
        Some("sigmoid") => SvmKernel::Sigmoid,
        Some("precomputed") => SvmKernel::Precomputed,
        _ => SvmKernel::Rbf,
    }
}

fn gamma(case: &Case) -> Gamma {
    match param(case, "gamma") {
        Some(Value::String(s)) if s == "auto" => Gamma::Auto,
        Some(Value::Number(n)) => Gamma::Value(n.as_f64().expect("gamma")),
        _ => Gamma::Scale,
    }
}

fn degree(case: &Case) -> u32 {
    num(case, "degree", 3.0) as u32
}

fn weights(case: &Case) -> Option<Array1<f64>> {
    case.has("sample_weight")
        .then(|| case.vector("sample_weight"))
}

fn max_abs(a: &Array2<f64>) -> f64 {
    a.iter().fold(1.0f64, |m, v| m.max(v.abs()))
}

/// Coefficients aligned by training row: `row -> column of dual_coef`.
fn by_row(support: &[usize], coef: &Array2<f64>) -> Vec<(usize, Vec<f64>)> {
    support
        .iter()
        .enumerate()
        .map(|(p, &r)| (r, coef.column(p).to_vec()))
        .collect()
}

/// Support sets and coefficients agree except for coefficients below `small` on either side.
fn assert_same_expansion(
    name: &str,
    ours_support: &[usize],
    ours_coef: &Array2<f64>,
    theirs_support: &[usize],
    theirs_coef: &Array2<f64>,
    small: f64,
) {
    let rows: BTreeSet<usize> = ours_support.iter().chain(theirs_support).copied().collect();
    let a = by_row(ours_support, ours_coef);
    let b = by_row(theirs_support, theirs_coef);
    let width = ours_coef.nrows().max(theirs_coef.nrows());
    for r in rows {
        let zero = vec![0.0; width];
        let ca = a.iter().find(|(x, _)| *x == r).map_or(&zero, |(_, c)| c);
        let cb = b.iter().find(|(x, _)| *x == r).map_or(&zero, |(_, c)| c);
        for (k, (u, v)) in ca.iter().zip(cb).enumerate() {
            assert!(
                (u - v).abs() <= small,
                "{name}: row {r}, coefficient {k}: ours {u}, scikit-learn {v} (tolerance {small})"
            );
        }
    }
}

/// Coefficients for the RBF kernel, the primal weights for the linear kernel, nothing more for
/// kernels of low rank (see the module docs).
#[allow(clippy::too_many_arguments)]
fn compare_expansion(
    name: &str,
    kernel: &SvmKernel,
    x: &Array2<f64>,
    support: &[usize],
    coef: &Array2<f64>,
    case: &Case,
    small: f64,
    dec_tol: f64,
) {
    let theirs_support = case.usize_vector("support");
    let theirs_coef = case.matrix("dual_coef");
    match kernel {
        SvmKernel::Rbf => {
            assert_same_expansion(name, support, coef, &theirs_support, &theirs_coef, small)
        }
        // binary only: the rows of a multi-class dual_coef mix the pairs' coefficients
        SvmKernel::Linear if coef.nrows() == 1 => {
            let w_ours = coef.dot(&x.select(ndarray::Axis(0), support));
            let w_theirs = theirs_coef.dot(&x.select(ndarray::Axis(0), &theirs_support));
            let xmax = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            assert_close(
                &w_ours,
                &w_theirs,
                0.0,
                dec_tol / xmax,
                &format!("{name} primal w"),
            );
        }
        _ => {}
    }
}

/// libsvm's float32 kernel cache: the error of a decision value (and of the gradient that sets
/// `ρ`) is about `2⁻²⁴ Σⱼ |cⱼ k(x, svⱼ)|`; sixteen times its largest value over the rows.
fn float32_bound(model: &ndlearn_svm::FittedSvc<f64>, x: &Array2<f64>) -> f64 {
    let sv = model.support_vectors();
    let k = match model.kernel() {
        Some(kernel) => kernel.cross_gram(x, sv).expect("kernel"),
        None => x.select(ndarray::Axis(1), model.support()),
    };
    let c = model.dual_coef().mapv(f64::abs);
    let per_row = k.mapv(f64::abs).dot(&c.t());
    16.0 * f64::from(f32::EPSILON) / 2.0 * per_row.iter().fold(0.0f64, |m, v| m.max(*v))
}

fn check_labels(
    name: &str,
    ours: &Array1<usize>,
    theirs: &Array1<usize>,
    dec: &Array2<f64>,
    tol: f64,
) {
    for i in 0..ours.len() {
        if ours[i] != theirs[i] {
            let near = dec.row(i).iter().any(|v| v.abs() <= tol);
            assert!(
                near,
                "{name}: row {i} predicted {} vs {}",
                ours[i], theirs[i]
            );
        }
    }
}

#[test]
fn svc_and_nusvc_match_libsvm() {
    let g = golden();
    let cases: Vec<&Case> = g
        .cases()
        .into_iter()
        .filter(|c| c.name().starts_with("svc_") || c.name().starts_with("nusvc_"))
        .collect();
    assert_eq!(cases.len(), 14);
    for case in cases {
        let name = case.name();
        let x = input(&g, case);
        let y = case.labels("y");
        let w = weights(case);
        let is_nu = name.starts_with("nusvc_");
        let (model, bound) = if is_nu {
            let est = NuSvc::default()
                .nu(num(case, "nu", 0.5))
                .kernel(kernel(case))
                .gamma(gamma(case))
                .degree(degree(case))
                .coef0(num(case, "coef0", 0.0))
                .tol(TOL);
            (est.fit_weighted(&x, &y, w.as_deref()).expect(name), 1.0)
        } else {
            let mut est = Svc::default()
                .c(num(case, "C", 1.0))
                .kernel(kernel(case))
                .gamma(gamma(case))
                .degree(degree(case))
                .coef0(num(case, "coef0", 0.0))
                .tol(TOL);
            if param(case, "class_weight").is_some() {
                est = est.class_weight(ndlearn_core::class_weight::ClassWeight::Balanced);
            }
            let c = num(case, "C", 1.0);
            let wmax = w.as_ref().map_or(1.0, |w| w.fold(0.0f64, |m, v| m.max(*v)));
            (
                est.fit_weighted(&x, &y, w.as_deref()).expect(name),
                c * wmax * 2.0,
            )
        };
        assert!(model.converged(), "{name}");
        if let Some(k) = model.kernel() {
            let expected = case.scalar("gamma");
            let ours = match k {
                ndlearn_core::kernel::Kernel::Rbf { gamma }
                | ndlearn_core::kernel::Kernel::Polynomial { gamma, .. }
                | ndlearn_core::kernel::Kernel::Sigmoid { gamma, .. } => *gamma,
                _ => expected,
            };
            assert!(
                (ours - expected).abs() <= 1e-14 * expected.abs(),
                "{name}: gamma"
            );
        }
        let theirs_dec = case.matrix_or_column("decision");
        let scale = max_abs(&theirs_dec);
        let dec_tol = (TOL_DEC * scale).max(float32_bound(&model, &x));
        let ours_dec = model.decision_function(&x).expect("decision");
        assert_close(
            &ours_dec,
            &theirs_dec,
            0.0,
            dec_tol,
            &format!("{name} decision"),
        );
        if case.has("decision_ovo") {
            let ovo = model.decision_function_ovo(&x).expect("ovo");
            let theirs = case.matrix_or_column("decision_ovo");
            // scikit-learn's binary "ovo" output is its signed binary decision (positive =
            // class 1); libsvm's pair columns are positive for the first class.
            let theirs = if model.n_classes() == 2 {
                theirs.mapv(|v| -v)
            } else {
                theirs
            };
            let ovo_tol = (TOL_DEC * max_abs(&theirs)).max(dec_tol);
            assert_close(&ovo, &theirs, 0.0, ovo_tol, &format!("{name} ovo"));
        }
        check_labels(
            name,
            &model.predict(&x).expect("predict"),
            &case.labels("predict"),
            &theirs_dec,
            dec_tol,
        );
        compare_expansion(
            name,
            &kernel(case),
            &x,
            model.support(),
            &model.dual_coef(),
            case,
            1e-4 * bound,
            dec_tol,
        );
        assert_close(
            &model.intercept(),
            &case.vector("intercept"),
            0.0,
            dec_tol,
            &format!("{name} intercept"),
        );
        if case.has("dual_objective") {
            let theirs = case.scalar("dual_objective");
            let ours = model.dual_objectives()[0];
            assert!(
                (ours - theirs).abs() <= 1e-6 * theirs.abs(),
                "{name}: dual objective {ours} vs {theirs}"
            );
            // ours is a minimum: never above libsvm's (up to rounding)
            assert!(
                ours <= theirs + 1e-9 * theirs.abs(),
                "{name}: {ours} > {theirs}"
            );
        }
    }
}

#[test]
fn svr_and_nusvr_match_libsvm() {
    let g = golden();
    let cases: Vec<&Case> = g
        .cases()
        .into_iter()
        .filter(|c| c.name().starts_with("svr_") || c.name().starts_with("nusvr_"))
        .collect();
    assert_eq!(cases.len(), 5);
    for case in cases {
        let name = case.name();
        let (x, y) = (input(&g, case), case.vector("y"));
        let c = num(case, "C", 1.0);
        let model = if name.starts_with("nusvr_") {
            NuSvr::default()
                .nu(num(case, "nu", 0.5))
                .c(c)
                .kernel(kernel(case))
                .degree(degree(case))
                .coef0(num(case, "coef0", 0.0))
                .tol(TOL)
                .fit(&x, &y)
                .expect(name)
        } else {
            Svr::default()
                .c(c)
                .epsilon(num(case, "epsilon", 0.1))
                .kernel(kernel(case))
                .degree(degree(case))
                .coef0(num(case, "coef0", 0.0))
                .tol(TOL)
                .fit(&x, &y)
                .expect(name)
        };
        assert!(model.converged(), "{name}");
        let theirs = case.vector("predict");
        let scale = theirs.fold(1.0f64, |m, v| m.max(v.abs()));
        let pred = model.predict(&x).expect("predict");
        assert_close(
            &pred,
            &theirs,
            0.0,
            TOL_DEC * scale,
            &format!("{name} predict"),
        );
        compare_expansion(
            name,
            &kernel(case),
            &x,
            model.support(),
            &model.dual_coef(),
            case,
            1e-4 * c,
            TOL_DEC * scale,
        );
    }
}

#[test]
fn one_class_svm_matches_libsvm() {
    let g = golden();
    let cases = g.cases_with_prefix("ocsvm_");
    assert_eq!(cases.len(), 3);
    for case in cases {
        let name = case.name();
        let x = input(&g, case);
        let model = OneClassSvm::default()
            .nu(num(case, "nu", 0.5))
            .kernel(kernel(case))
            .tol(TOL)
            .fit(&x)
            .expect(name);
        let theirs = case.vector("decision");
        let scale = theirs.fold(1.0f64, |m, v| m.max(v.abs()));
        let tol = TOL_DEC * scale;
        let dec = OutlierDetector::decision_function(&model, &x).expect("decision");
        assert_close(&dec, &theirs, 0.0, tol, &format!("{name} decision"));
        let s = model.score_samples(&x).expect("scores");
        assert_close(
            &s,
            &case.vector("score_samples"),
            0.0,
            tol,
            &format!("{name} scores"),
        );
        assert!(
            (model.offset() - case.scalar("offset")).abs() <= tol,
            "{name} offset"
        );
        let pred = model.predict(&x).expect("predict");
        let expected = case.vector("predict");
        for i in 0..pred.len() {
            if pred[i] as f64 != expected[i] {
                assert!(theirs[i].abs() <= tol, "{name}: row {i}");
            }
        }
        assert_same_expansion(
            name,
            model.expansion().support(),
            &model.expansion().dual_coef(),
            &case.usize_vector("support"),
            &case.matrix("dual_coef"),
            1e-4,
        );
    }
}

#[test]
fn kernel_ridge_matches_sklearn() {
    let g = golden();
    let cases = g.cases_with_prefix("kr_");
    assert_eq!(cases.len(), 4);
    for case in cases {
        let name = case.name();
        let x = input(&g, case);
        let alpha: Vec<f64> = match param(case, "alpha").expect("alpha") {
            Value::Array(a) => a.iter().map(|v| v.as_f64().expect("alpha")).collect(),
            v => vec![v.as_f64().expect("alpha")],
        };
        let est = KernelRidge::default()
            .alpha(alpha)
            .kernel(kernel(case))
            .gamma(param(case, "gamma").and_then(|v| v.as_f64()))
            .degree(degree(case))
            .coef0(num(case, "coef0", 1.0));
        let w = weights(case);
        let expected = case.matrix("dual_coef");
        let pred_expected = case.matrix_or_column("predict");
        let (coef, pred) = if expected.ncols() > 1 {
            let m = est.fit_multi(&x, &case.matrix("y")).expect(name);
            (m.dual_coef().clone(), m.predict_multi(&x).expect("predict"))
        } else {
            let m = est
                .fit_weighted(&x, &case.vector("y"), w.as_deref())
                .expect(name);
            (m.dual_coef().clone(), m.predict_multi(&x).expect("predict"))
        };
        let scale = max_abs(&expected);
        assert_close(
            &coef,
            &expected,
            0.0,
            1e-8 * scale,
            &format!("{name} dual_coef"),
        );
        let pscale = max_abs(&pred_expected);
        assert_close(
            &pred,
            &pred_expected,
            0.0,
            1e-8 * pscale,
            &format!("{name} predict"),
        );
    }
}

/// `matrix` for 2-D fields, a one-column matrix for 1-D ones.
trait MatrixOrColumn {
    fn matrix_or_column(&self, field: &str) -> Array2<f64>;
}

impl MatrixOrColumn for Case {
    fn matrix_or_column(&self, field: &str) -> Array2<f64> {
        match self.raw(field) {
            Value::Array(a) if a.first().is_some_and(Value::is_array) => self.matrix(field),
            _ => self.vector(field).insert_axis(ndarray::Axis(1)),
        }
    }
}
