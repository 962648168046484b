//! `ndlearn_core::loss`, `numeric` and the order statistics of `stats` against scikit-learn,
//! scipy and numpy (`datasets/golden/core/loss.json`, written by `scripts/golden/core_loss.py`),
//! plus finite-difference checks of every gradient and hessian (proptest).
//!
//! Tolerances: the losses follow scikit-learn's formulas operation by operation, so values agree
//! to a few ulp (`4ε` relative); where a formula cancels (`log(1 + eᶠ) − yf` for large `|f|`,
//! the deviances) the error is `ε` times the size of the cancelling terms, which is the absolute
//! part of the tolerance. Means differ only in the order of summation (`1e-14`). Percentiles
//! select data values and must be equal.

use ndarray::{Array1, Array2};
use ndlearn_core::loss::{Loss, MultinomialLoss};
use ndlearn_core::{numeric, stats};
use ndlearn_testkit::strategies::config;
use ndlearn_testkit::{Case, Golden, assert_close};
use proptest::prelude::*;

const EPS: f64 = f64::EPSILON;

fn loss_of(case: &Case) -> Loss {
    let name = case.name();
    match name {
        "loss_squared_error" => Loss::SquaredError,
        "loss_absolute_error" => Loss::AbsoluteError,
        "loss_poisson" => Loss::Poisson,
        "loss_gamma" => Loss::Gamma,
        "loss_log_loss" => Loss::LogLoss,
        "loss_exponential" => Loss::Exponential,
        "sgd_modified_huber" => Loss::ModifiedHuber,
        _ if name.starts_with("loss_pinball") => Loss::Pinball {
            quantile: case.scalar("quantile"),
        },
        _ if name.starts_with("loss_huber") => Loss::Huber {
            delta: case.scalar("delta"),
        },
        _ if name.starts_with("sgd_hinge") => Loss::Hinge {
            threshold: case.scalar("threshold"),
        },
        _ if name.starts_with("sgd_squared_hinge") => Loss::SquaredHinge {
            threshold: case.scalar("threshold"),
        },
        "sgd_epsilon_insensitive" => Loss::EpsilonInsensitive {
            epsilon: case.scalar("epsilon"),
        },
        "sgd_squared_epsilon_insensitive" => Loss::SquaredEpsilonInsensitive {
            epsilon: case.scalar("epsilon"),
        },
        other => panic!("unknown loss case {other}"),
    }
}

/// Per-element absolute tolerance: `4ε` times the largest term of the formula.
fn scale_of(y: &Array1<f64>, raw: &Array1<f64>, v: &Array1<f64>) -> Array1<f64> {
    Array1::from_shape_fn(v.len(), |i| {
        let t = y[i].abs().max(1.0)
            * raw[i].abs().max(1.0)
            * raw[i].exp().max((-raw[i]).exp()).min(1e300);
        4.0 * EPS * t.max(v[i].abs())
    })
}

fn assert_elementwise(
    actual: &Array1<f64>,
    expected: &Array1<f64>,
    atol: &Array1<f64>,
    what: &str,
) {
    for i in 0..actual.len() {
        let (a, e) = (actual[i], expected[i]);
        assert!(
            (a - e).abs() <= atol[i].max(4.0 * EPS * e.abs()),
            "{what}[{i}]: {a:e} vs {e:e} (allowed {:e})",
            atol[i]
        );
    }
}

#[test]
fn pointwise_losses_match_sklearn() {
    let g = Golden::load("core", "loss");
    let mut checked = 0;
    for case in g.cases() {
        let name = case.name();
        if !(name.starts_with("loss_") || name.starts_with("sgd_")) {
            continue;
        }
        let loss = loss_of(case);
        let (y, raw) = (case.vector("y"), case.vector("raw"));
        let value = loss.values(&y, &raw, None);
        let grad = loss.gradients(&y, &raw, None);
        let v_ref = case.vector("value");
        assert_elementwise(
            &value,
            &v_ref,
            &scale_of(&y, &raw, &v_ref),
            &format!("{name} value"),
        );
        let g_ref = case.vector("gradient");
        assert_elementwise(
            &grad,
            &g_ref,
            &scale_of(&y, &raw, &g_ref),
            &format!("{name} gradient"),
        );
        if case.has("hessian") {
            let (g2, h) = loss.gradients_hessians(&y, &raw, None);
            let h_ref = case.vector("hessian");
            assert_elementwise(
                &g2,
                &g_ref,
                &scale_of(&y, &raw, &g_ref),
                &format!("{name} grad (pair)"),
            );
            assert_elementwise(
                &h,
                &h_ref,
                &scale_of(&y, &raw, &h_ref),
                &format!("{name} hessian"),
            );
            let w = case.vector("w");
            let vw = loss.values(&y, &raw, Some(&w));
            let vw_ref = case.vector("value_w");
            assert_elementwise(
                &vw,
                &vw_ref,
                &(scale_of(&y, &raw, &vw_ref) * &w.mapv(|v| v.max(1.0))),
                &format!("{name} weighted value"),
            );
            let (gw, hw) = loss.gradients_hessians(&y, &raw, Some(&w));
            let gw_ref = case.vector("gradient_w");
            let hw_ref = case.vector("hessian_w");
            assert_elementwise(
                &gw,
                &gw_ref,
                &(scale_of(&y, &raw, &gw_ref) * &w.mapv(|v| v.max(1.0))),
                &format!("{name} weighted gradient"),
            );
            assert_elementwise(
                &hw,
                &hw_ref,
                &(scale_of(&y, &raw, &hw_ref) * &w.mapv(|v| v.max(1.0))),
                &format!("{name} weighted hessian"),
            );
            let m = loss.mean(&y, &raw, Some(&w));
            let m_ref = case.scalar("mean_w");
            assert!(
                (m - m_ref).abs() <= 1e-14 * m_ref.abs().max(1.0),
                "{name}: mean {m} vs {m_ref}"
            );
            let m = loss.mean(&y, &raw, None);
            let m_ref = case.scalar("mean");
            assert!(
                (m - m_ref).abs() <= 1e-14 * m_ref.abs().max(1.0),
                "{name}: mean {m} vs {m_ref}"
            );
            let c = loss.intercept_only(&y, None).expect("intercept");
            let c_ref = case.scalar("intercept");
            assert!(
                (c - c_ref).abs() <= 1e-14 * c_ref.abs().max(1.0),
                "{name}: intercept {c} vs {c_ref}"
            );
            let c = loss.intercept_only(&y, Some(&w)).expect("intercept");
            let c_ref = case.scalar("intercept_w");
            assert!(
                (c - c_ref).abs() <= 1e-14 * c_ref.abs().max(1.0),
                "{name}: weighted intercept {c} vs {c_ref}"
            );
        }
        // The f32 path computes the same formulas in single precision.
        let v32 = loss.values(&y.mapv(|v| v as f32), &raw.mapv(|v| v as f32), None);
        for i in 0..v32.len() {
            let e = v_ref[i];
            if e.abs() < 1e30 && raw[i].abs() < 30.0 {
                let tol = 1e-5 * e.abs().max(raw[i].abs()).max(y[i].abs()).max(1.0);
                assert!(
                    (f64::from(v32[i]) - e).abs() <= tol,
                    "{name} f32 value[{i}]"
                );
            }
        }
        checked += 1;
    }
    assert_eq!(checked, 15, "every loss case is checked");
}

#[test]
fn multinomial_matches_sklearn() {
    let g = Golden::load("core", "loss");
    let case = g.case("multinomial_k4");
    let y = case.labels("y");
    let raw = case.matrix("raw");
    let w = case.vector("w");
    let v = MultinomialLoss::values(&y, &raw, None);
    let v_ref = case.vector("value");
    let atol = Array1::from_shape_fn(v.len(), |i| {
        4.0 * EPS * raw.row(i).iter().fold(1.0f64, |a, &b| a.max(b.abs()))
    });
    assert_elementwise(&v, &v_ref, &atol, "multinomial value");
    let (gr, h) = MultinomialLoss::gradients_hessians(&y, &raw, None);
    assert_close(
        &gr,
        &case.matrix("gradient"),
        4.0 * EPS,
        4.0 * EPS,
        "multinomial gradient",
    );
    assert_close(
        &h,
        &case.matrix("hessian"),
        4.0 * EPS,
        4.0 * EPS,
        "multinomial hessian",
    );
    assert_eq!(MultinomialLoss::gradients(&y, &raw, None), gr);
    let m = MultinomialLoss::mean(&y, &raw, Some(&w));
    let m_ref = case.scalar("mean_w");
    assert!(
        (m - m_ref).abs() <= 1e-14 * m_ref.abs(),
        "mean {m} vs {m_ref}"
    );
    let c = MultinomialLoss::intercept_only::<f64>(&y, None, 4).expect("ok");
    assert_close(&c, &case.vector("intercept"), 1e-14, 1e-15, "intercept");
    let c = MultinomialLoss::intercept_only(&y, Some(&w), 4).expect("ok");
    assert_close(
        &c,
        &case.vector("intercept_w"),
        1e-14,
        1e-15,
        "weighted intercept",
    );
    assert_close(
        &MultinomialLoss::predict_proba(&raw),
        &case.matrix("proba"),
        4.0 * EPS,
        1e-300,
        "proba",
    );
}

#[test]
fn stable_numerics_match_scipy() {
    let g = Golden::load("core", "loss");
    let case = g.case("numeric_sigmoid");
    let z = case.vector("z");
    let s: Array1<f64> = z.mapv(numeric::sigmoid);
    assert_close(&s, &case.vector("sigmoid"), 4.0 * EPS, 1e-320, "sigmoid");
    let ls: Array1<f64> = z.mapv(numeric::log_sigmoid);
    assert_close(
        &ls,
        &case.vector("log_sigmoid"),
        4.0 * EPS,
        4.0 * EPS,
        "log_sigmoid",
    );
    let case = g.case("numeric_rows");
    let rows: Array2<f64> = case.matrix("rows");
    let atol: f64 = 4.0 * EPS * 1100.0;
    assert_close(
        &numeric::log_sum_exp_rows(&rows),
        &case.vector("log_sum_exp"),
        4.0 * EPS,
        atol,
        "logsumexp",
    );
    assert_close(
        &numeric::softmax_rows(&rows),
        &case.matrix("softmax"),
        8.0 * EPS,
        1e-300,
        "softmax",
    );
    assert_close(
        &numeric::log_softmax_rows(&rows),
        &case.matrix("log_softmax"),
        4.0 * EPS,
        atol,
        "log_softmax",
    );
}

#[test]
fn order_statistics_match_sklearn_and_numpy() {
    let g = Golden::load("core", "loss");
    for case in g.cases_with_prefix("wpct_") {
        let (a, w) = (case.vector("a"), case.vector("w"));
        let ranks = case.vector("ranks").to_vec();
        let plain = stats::weighted_percentiles(&a, &w, &ranks, false).expect("ok");
        let avg = stats::weighted_percentiles(&a, &w, &ranks, true).expect("ok");
        assert_eq!(
            plain,
            case.vector("plain").to_vec(),
            "{}: inverted CDF",
            case.name()
        );
        assert_eq!(
            avg,
            case.vector("average").to_vec(),
            "{}: averaged",
            case.name()
        );
        assert_eq!(
            stats::weighted_median(&a, &w).expect("ok"),
            stats::weighted_percentile(&a, &w, 50.0, false).expect("ok")
        );
    }
    for case in g.cases_with_prefix("quantile_") {
        let a = case.vector("a");
        let q = case.vector("q").to_vec();
        assert_eq!(
            stats::quantiles(&a, &q).expect("ok"),
            case.vector("linear").to_vec(),
            "{}",
            case.name()
        );
        assert_eq!(
            stats::median(&a).expect("ok"),
            case.scalar("median"),
            "{}",
            case.name()
        );
    }
}

/// Central differences of `f` at `x` with step `h` (error `O(h²)`).
fn central(f: impl Fn(f64) -> f64, x: f64, h: f64) -> f64 {
    (f(x + h) - f(x - h)) / (2.0 * h)
}

fn any_loss() -> impl Strategy<Value = Loss> {
    prop_oneof![
        Just(Loss::SquaredError),
        Just(Loss::AbsoluteError),
        (0.1f64..3.0).prop_map(|delta| Loss::Huber { delta }),
        (0.05f64..0.95).prop_map(|quantile| Loss::Pinball { quantile }),
        (0.0f64..1.0).prop_map(|epsilon| Loss::EpsilonInsensitive { epsilon }),
        (0.0f64..1.0).prop_map(|epsilon| Loss::SquaredEpsilonInsensitive { epsilon }),
        (0.0f64..2.0).prop_map(|threshold| Loss::Hinge { threshold }),
        (0.0f64..2.0).prop_map(|threshold| Loss::SquaredHinge { threshold }),
        Just(Loss::ModifiedHuber),
        Just(Loss::LogLoss),
        Just(Loss::Exponential),
        Just(Loss::Poisson),
        Just(Loss::Gamma),
    ]
}

proptest! {
    #![proptest_config(config(64))]

    /// The gradient is the derivative of the value, and (where the loss is twice
    /// differentiable) the hessian the derivative of the gradient, away from kinks.
    #[test]
    fn derivatives_match_finite_differences(loss in any_loss(), raw in -6.0f64..6.0, u in 0.0f64..1.0, sign in any::<bool>()) {
        let y = match loss {
            Loss::Hinge { .. } | Loss::SquaredHinge { .. } | Loss::ModifiedHuber => if sign { 1.0 } else { -1.0 },
            Loss::LogLoss | Loss::Exponential => u,
            Loss::Poisson => 4.0 * u,
            Loss::Gamma => 0.1 + 4.0 * u,
            _ => 8.0 * u - 4.0,
        };
        let h = 1e-5;
        // Stay away from the kinks of the piecewise losses (within 10 h of a breakpoint).
        let kinks: Vec<f64> = match loss {
            Loss::AbsoluteError | Loss::Pinball { .. } => vec![y],
            Loss::Huber { delta } => vec![y - delta, y + delta],
            Loss::EpsilonInsensitive { epsilon } | Loss::SquaredEpsilonInsensitive { epsilon } => vec![y - epsilon, y + epsilon],
            Loss::Hinge { threshold } | Loss::SquaredHinge { threshold } => vec![threshold * y],
            Loss::ModifiedHuber => vec![y, -y],
            _ => vec![],
        };
        prop_assume!(kinks.iter().all(|k| (raw - k).abs() > 10.0 * h));
        let g = loss.gradient(y, raw);
        let fd = central(|r| loss.value(y, r), raw, h);
        prop_assert!((g - fd).abs() <= 1e-6 * (1.0 + g.abs()), "{:?}: gradient {} vs {}", loss, g, fd);
        let smooth_hessian = !matches!(loss, Loss::AbsoluteError | Loss::Pinball { .. });
        if smooth_hessian {
            let hess = loss.hessian(y, raw);
            let fd2 = central(|r| loss.gradient(y, r), raw, h);
            prop_assert!((hess - fd2).abs() <= 1e-5 * (1.0 + hess.abs()), "{:?}: hessian {} vs {}", loss, hess, fd2);
        }
    }

    /// The multinomial gradient and hessian diagonal are the derivatives of the row loss.
    #[test]
    fn multinomial_derivatives(raw in proptest::collection::vec(-5.0f64..5.0, 2..6), pick in 0usize..100) {
        let k = raw.len();
        let y = pick % k;
        let mut g = vec![0.0; k];
        let mut hd = vec![0.0; k];
        MultinomialLoss::gradient_hessian_row(y, &raw, &mut g, &mut hd);
        for j in 0..k {
            let at = |t: f64| { let mut r = raw.clone(); r[j] = t; MultinomialLoss::value_row(y, &r) };
            let fd = central(at, raw[j], 1e-5);
            prop_assert!((g[j] - fd).abs() <= 1e-7, "gradient {}: {} vs {}", j, g[j], fd);
            let grad_j = |t: f64| { let mut r = raw.clone(); r[j] = t; let mut gg = vec![0.0; k]; MultinomialLoss::gradient_row(y, &r, &mut gg); gg[j] };
            let fd2 = central(grad_j, raw[j], 1e-5);
            prop_assert!((hd[j] - fd2).abs() <= 1e-6, "hessian {}: {} vs {}", j, hd[j], fd2);
        }
    }
}
