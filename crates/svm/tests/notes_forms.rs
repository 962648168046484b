//! The course notes' SVM forms: the hard-margin SVM against the notes' graphical construction
//! in 2-D (the analytic oracle of CL-104) and as the `C → ∞` limit of `Svc`; the primal
//! soft-margin SVM against the dual optimum (SMO for the hinge, the core QP for the squared
//! hinge) under the mapping `C = 1/(Nλ)` (errata E3); the hinge as an upper bound of the 0–1
//! loss (CL-103).

use ndarray::{Array1, Array2, Axis, array};
use ndlearn_core::optim::{QpStatus, QuadraticProgram};
use ndlearn_core::training::LearningRate;
use ndlearn_core::traits::{DecisionFunction, Fit, FitWeighted, Predict};
use ndlearn_core::{Error, metrics};
use ndlearn_svm::{HardMarginSvm, PrimalLoss, PrimalSvm, Svc, SvmKernel, c_from_lambda};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;
use rand::Rng;

/// The notes' graphical support-vector construction (S-05), as an exhaustive oracle for tiny
/// 2-D problems: every candidate plane is either the perpendicular bisector of a pair of
/// opposite points (two support vectors) or the plane midway between the line through two
/// points of one class and the parallel line through a point of the other (three support
/// vectors). Each is scaled so that its support vectors have functional margin 1; the valid
/// candidate (every point at functional margin ≥ 1) with the smallest ‖w‖ is the hard-margin
/// SVM. Returns `(w, b)`.
fn graphical_oracle(x: &Array2<f64>, s: &Array1<f64>) -> ([f64; 2], f64) {
    let p = |i: usize| [x[[i, 0]], x[[i, 1]]];
    let dot = |a: [f64; 2], b: [f64; 2]| a[0] * b[0] + a[1] * b[1];
    let n = x.nrows();
    let mut cands: Vec<([f64; 2], f64)> = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if s[i] > 0.0 && s[j] < 0.0 {
                // Two SVs: w ∥ p − q, through the midpoint, w·p + b = 1.
                let (a, c) = (p(i), p(j));
                let u = [a[0] - c[0], a[1] - c[1]];
                let uu = dot(u, u);
                let w = [2.0 * u[0] / uu, 2.0 * u[1] / uu];
                let mid = [(a[0] + c[0]) / 2.0, (a[1] + c[1]) / 2.0];
                cands.push((w, -dot(w, mid)));
            }
            if j > i && s[i] == s[j] {
                // Three SVs: parallel to the line through i and j, midway to a point k.
                let (a1, a2) = (p(i), p(j));
                let nrm = [-(a2[1] - a1[1]), a2[0] - a1[0]];
                for k in (0..n).filter(|&k| s[k] != s[i]) {
                    let d = dot(nrm, a1) - dot(nrm, p(k));
                    if d.abs() < 1e-12 {
                        continue;
                    }
                    let kappa = 2.0 * s[i] / d;
                    let w = [kappa * nrm[0], kappa * nrm[1]];
                    cands.push((w, -kappa * (dot(nrm, a1) + dot(nrm, p(k))) / 2.0));
                }
            }
        }
    }
    cands
        .into_iter()
        .filter(|(w, b)| (0..n).all(|i| s[i] * (dot(*w, p(i)) + b) >= 1.0 - 1e-9))
        .min_by(|a, b| dot(a.0, a.0).total_cmp(&dot(b.0, b.0)))
        .expect("separable data has a valid candidate")
}

/// `n` points in the plane on both sides of a random line, at least `gap` from it.
fn separable_2d(n: usize, seed: u64, gap: f64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ndlearn_core::random::stream(seed, 7);
    let angle: f64 = rng.random_range(0.0..std::f64::consts::TAU);
    let normal = [angle.cos(), angle.sin()];
    let offset: f64 = rng.random_range(-1.0..1.0);
    let mut x = Array2::zeros((n, 2));
    let y: Array1<usize> = (0..n).map(|i| i % 2).collect();
    for i in 0..n {
        loop {
            let pt = [rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)];
            let side = pt[0] * normal[0] + pt[1] * normal[1] - offset;
            if side.abs() >= gap && (side > 0.0) == (y[i] == 1) {
                x[[i, 0]] = pt[0];
                x[[i, 1]] = pt[1];
                break;
            }
        }
    }
    (x, y)
}

fn signs(y: &Array1<usize>) -> Array1<f64> {
    y.mapv(|c| if c == 1 { 1.0 } else { -1.0 })
}

/// Two overlapping Gaussian classes (labels 0/1), standardised columns.
fn overlapping(n: usize, d: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = ndlearn_core::random::stream(seed, 3);
    let y: Array1<usize> = (0..n).map(|i| i % 2).collect();
    let mut x = Array2::from_shape_fn((n, d), |(i, j)| {
        let u: f64 = rng.random_range(-1.0..1.0) + rng.random_range(-1.0..1.0);
        u + if y[i] == 1 {
            0.8 / (1.0 + j as f64)
        } else {
            0.0
        }
    });
    for mut col in x.columns_mut() {
        let m = col.mean().expect("rows");
        let sd = col.std(0.0);
        col.mapv_inplace(|v| (v - m) / sd);
    }
    (x, y)
}

/// `(1/N) Σ sᵢ ℓ(yᵢ(w·xᵢ + b)) + (λ/2)‖w‖²` for a given plane.
fn primal_f(
    x: &Array2<f64>,
    y: &Array1<usize>,
    s: Option<&Array1<f64>>,
    w: &Array1<f64>,
    b: f64,
    loss: PrimalLoss,
    lambda: f64,
) -> f64 {
    let core = loss.core();
    let ys = signs(y);
    let z = x.dot(w) + b;
    let risk: f64 = (0..x.nrows())
        .map(|i| s.map_or(1.0, |s| s[i]) * core.value(ys[i], z[i]))
        .sum();
    risk / x.nrows() as f64 + 0.5 * lambda * w.dot(w)
}

proptest! {
    #![proptest_config(config(24))]

    /// CL-097 against CL-104: the QP's plane is the graphical construction's.
    #[test]
    fn hard_margin_is_the_graphical_construction(seed in 0u64..10_000, n in 3usize..9) {
        let (x, y) = separable_2d(n, seed, 0.05);
        let m = HardMarginSvm::default().fit(&x, &y).expect("separable");
        let (w, b) = graphical_oracle(&x, &signs(&y));
        let scale = 1.0 + w[0].abs().max(w[1].abs()).max(b.abs());
        let tol = 1e-7 * scale;
        prop_assert!((m.coef()[0] - w[0]).abs() < tol && (m.coef()[1] - w[1]).abs() < tol,
            "w {:?} vs oracle {:?}", m.coef(), w);
        prop_assert!((m.intercept() - b).abs() < tol, "b {} vs oracle {}", m.intercept(), b);
        prop_assert_eq!(m.predict(&x).expect("predicts"), y);
    }
}

#[test]
fn hard_margin_kkt_conditions_and_bias_recipes() {
    let (x, y) = separable_2d(40, 11, 0.2);
    let m = HardMarginSvm::default().fit(&x, &y).expect("separable");
    let s = signs(&y);
    let w = m.coef();
    let wn = w.dot(w);
    // Support vectors sit on the margin; the others outside it.
    let z = x.dot(w) + m.intercept();
    for i in 0..x.nrows() {
        let fm = s[i] * z[i];
        if m.support().contains(&i) {
            assert!((fm - 1.0).abs() < 1e-7, "support {i}: margin {fm}");
        } else {
            assert!(
                fm > 1.0 - 1e-7 && m.alpha()[i] == 0.0,
                "row {i}: margin {fm}"
            );
        }
    }
    // Σ_{C+} α = Σ_{C−} α, w = Σ αᵢ yᵢ xᵢ, dual objective = ½‖w‖², margin = 2/‖w‖.
    let (pos, neg): (f64, f64) = (0..x.nrows()).fold((0.0, 0.0), |(p, q), i| {
        if s[i] > 0.0 {
            (p + m.alpha()[i], q)
        } else {
            (p, q + m.alpha()[i])
        }
    });
    assert!((pos - neg).abs() < 1e-9 * pos);
    let w2 = x.t().dot(&(m.alpha() * &s));
    assert!((&w2 - w).iter().all(|v| v.abs() < 1e-12 * (1.0 + wn)));
    assert!((m.dual_objective() - 0.5 * wn).abs() < 1e-8 * wn);
    assert!((m.margin() - 2.0 / wn.sqrt()).abs() < 1e-15);
    // The single-vector recipe gives the same bias from every support vector.
    for j in 0..m.support().len() {
        assert!(
            (m.bias_from(j) - m.intercept()).abs() < 1e-7,
            "recipe from SV {j}"
        );
    }
}

#[test]
fn hard_margin_is_the_large_c_limit_of_the_soft_margin() {
    let (x, y) = separable_2d(60, 5, 0.1);
    let hard = HardMarginSvm::default().fit(&x, &y).expect("separable");
    let soft = Svc::default()
        .kernel(SvmKernel::Linear)
        .c(1e6)
        .tol(1e-10)
        .fit(&x, &y)
        .expect("fits");
    let w = soft.coef().expect("linear kernel");
    let scale = hard.coef().iter().fold(1.0f64, |m, v| m.max(v.abs()));
    for j in 0..2 {
        assert!(
            (w[[0, j]] - hard.coef()[j]).abs() < 1e-6 * scale,
            "w_{j}: {} vs {}",
            w[[0, j]],
            hard.coef()[j]
        );
    }
    assert!((soft.intercept()[0] - hard.intercept()).abs() < 1e-6 * scale);
    let mut sv = soft.support().to_vec();
    sv.sort_unstable();
    assert_eq!(sv, hard.support());
}

#[test]
fn hard_margin_refuses_what_it_cannot_fit() {
    // Overlapping classes: no separating plane.
    let x = array![[0.0, 0.0], [1.0, 1.0], [0.5, 0.5], [2.0, 2.0]];
    let y = array![0usize, 0, 1, 1];
    assert!(matches!(
        HardMarginSvm::default().fit(&x, &y),
        Err(Error::Infeasible { .. })
    ));
    // The same point in both classes.
    let x = array![[1.0, 2.0], [1.0, 2.0], [3.0, 0.0]];
    let y = array![0usize, 1, 1];
    assert!(matches!(
        HardMarginSvm::default().fit(&x, &y),
        Err(Error::Infeasible { .. })
    ));
    let y3 = array![0usize, 1, 2];
    assert!(matches!(
        HardMarginSvm::default().fit(&x, &y3),
        Err(Error::InvalidLabel { label: 2, .. })
    ));
    let y1 = array![0usize, 0, 0];
    assert!(matches!(
        HardMarginSvm::default().fit(&x, &y1),
        Err(Error::TooFewClasses { .. })
    ));
    let mut bad = x.clone();
    bad[[1, 1]] = f64::NAN;
    assert!(matches!(
        HardMarginSvm::default().fit(&bad, &y),
        Err(Error::NonFinite { .. })
    ));
    let m = HardMarginSvm::default()
        .fit(&array![[0.0], [2.0]], &array![0usize, 1])
        .expect("separable");
    assert!(matches!(
        m.predict(&array![[0.0, 1.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
}

/// The SMO optimum of `½‖w‖² + CΣsᵢξᵢ` as `(w, b)`.
fn smo_plane(
    x: &Array2<f64>,
    y: &Array1<usize>,
    c: f64,
    s: Option<&Array1<f64>>,
) -> (Array1<f64>, f64) {
    let m = Svc::default()
        .kernel(SvmKernel::Linear)
        .c(c)
        .tol(1e-10)
        .fit_weighted(x, y, s.map(|s| &**s))
        .expect("fits");
    (
        m.coef().expect("linear").row(0).to_owned(),
        m.intercept()[0],
    )
}

/// CL-100 with E3: the subgradient method reaches the C-SVM's optimum for `C = 1/(Nλ)`.
#[test]
fn primal_hinge_reaches_the_c_svm_optimum() {
    let (x, y) = overlapping(200, 5, 1);
    let lambda = 0.01;
    let c = c_from_lambda(lambda, x.nrows());
    assert_eq!(c, 0.5);
    let weights: Array1<f64> = (0..x.nrows()).map(|i| (1 + i % 3) as f64).collect();
    for s in [None, Some(&weights)] {
        let (w, b) = smo_plane(&x, &y, c, s);
        let best = primal_f(&x, &y, s, &w, b, PrimalLoss::Hinge, lambda);
        // Full batch (the notes' deterministic form) and mini-batches of 16.
        for (batch, epochs, rel) in [(None, 3000, 1e-4), (Some(16), 300, 5e-3)] {
            let m = PrimalSvm::default()
                .lambda(lambda)
                .batch_size(batch)
                .max_iter(epochs)
                .tol(None)
                .fit_weighted(&x, &y, s.map(|s| &**s))
                .expect("fits");
            let f = primal_f(
                &x,
                &y,
                s,
                m.coef(),
                m.intercept(),
                PrimalLoss::Hinge,
                lambda,
            );
            assert!((f - m.objective()).abs() < 1e-12 * f);
            assert!(
                f >= best * (1.0 - 1e-9) && f <= best * (1.0 + rel),
                "batch {batch:?}: f {f} vs optimum {best}"
            );
            // The same plane, as far as a (1 + rel)-optimal point pins it down.
            let agree = m
                .predict(&x)
                .expect("predicts")
                .iter()
                .zip(x.dot(&w) + b)
                .filter(|(p, z)| (**p == 1) == (*z > 0.0))
                .count();
            assert!(agree >= x.nrows() - 6, "batch {batch:?}: {agree} agree");
        }
    }
}

/// CL-101: the L2-SVM (squared hinge) by full-batch descent with a constant step `1/L` equals
/// the optimum of its dual `max Σα − ½αᵀ(Q + I/(2C))α, yᵀα = 0, α ≥ 0` (strong duality).
#[test]
fn l2_svm_by_descent_equals_its_dual_qp() {
    let (x, y) = overlapping(120, 4, 2);
    let n = x.nrows();
    let lambda = 0.05;
    let c = c_from_lambda(lambda, n);
    let s = signs(&y);
    let gram = x.dot(&x.t());
    let q = Array2::from_shape_fn((n, n), |(i, j)| {
        s[i] * s[j] * gram[[i, j]] + if i == j { 1.0 / (2.0 * c) } else { 0.0 }
    });
    let dual = QuadraticProgram::new(&q, &Array1::from_elem(n, -1.0))
        .equalities(&s.view().insert_axis(Axis(0)), &array![0.0])
        .bounds(&Array1::zeros(n), &Array1::from_elem(n, f64::INFINITY))
        .solve()
        .expect("qp");
    assert_eq!(dual.status, QpStatus::Optimal);
    // Primal ½‖w‖² + CΣξ² = −(dual minimum); f = λ × that.
    let f_star = -lambda * dual.objective;
    let max_row = x.rows().into_iter().map(|r| r.dot(&r)).fold(0.0, f64::max);
    let m = PrimalSvm::default()
        .lambda(lambda)
        .loss(PrimalLoss::SquaredHinge)
        .learning_rate(LearningRate::Constant)
        .eta0(1.0 / (lambda + 2.0 * max_row))
        .max_iter(20_000)
        .tol(Some(0.0))
        .n_iter_no_change(50)
        .fit(&x, &y)
        .expect("fits");
    assert!(
        (m.objective() - f_star).abs() < 1e-6 * f_star,
        "descent {} vs dual {f_star}",
        m.objective()
    );
    // w from the dual: w = Σ αᵢ yᵢ xᵢ.
    let w = x.t().dot(&(&dual.x * &s));
    let wmax = w.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    assert!(
        (&w - m.coef()).iter().all(|d| d.abs() < 1e-3 * wmax),
        "{w} vs {}",
        m.coef()
    );
}

/// CL-103: hinge and 0–1 loss. The hinge is a convex upper bound of the 0–1 loss of
/// `sign(f)`, so the training risk under the hinge bounds the training error.
#[test]
fn hinge_bounds_the_zero_one_loss() {
    let hinge = PrimalLoss::Hinge.core();
    for k in -40..=40 {
        let m = f64::from(k) / 10.0;
        let zero_one = if m <= 0.0 { 1.0 } else { 0.0 };
        assert!(hinge.value(1.0, m) >= zero_one);
        assert_eq!(hinge.value(1.0, m), (1.0 - m).max(0.0));
        assert_eq!(hinge.value(-1.0, -m), hinge.value(1.0, m));
    }
    let (x, y) = overlapping(200, 5, 9);
    let model = PrimalSvm::default().lambda(0.01).fit(&x, &y).expect("fits");
    let err =
        metrics::zero_one_loss(&y, &model.predict(&x).expect("predicts"), None).expect("loss");
    let s = signs(&y);
    let z = model
        .decision_function(&x)
        .expect("scores")
        .column(0)
        .to_owned();
    let risk = (0..x.nrows()).map(|i| hinge.value(s[i], z[i])).sum::<f64>() / x.nrows() as f64;
    assert!(err > 0.0 && risk >= err, "hinge risk {risk} vs error {err}");
}

#[test]
fn primal_svm_is_reproducible_and_refuses_bad_input() {
    let (x, y) = overlapping(100, 3, 4);
    let fit = |seed| {
        PrimalSvm::default()
            .batch_size(Some(10))
            .max_iter(50)
            .random_state(seed)
            .fit(&x, &y)
            .expect("fits")
    };
    assert_eq!(fit(3), fit(3));
    assert_ne!(fit(3).coef(), fit(4).coef());
    assert!(matches!(
        PrimalSvm::default().lambda(0.0).fit(&x, &y),
        Err(Error::InvalidParam { name: "lambda", .. })
    ));
    assert!(matches!(
        PrimalSvm::default().batch_size(Some(0)).fit(&x, &y),
        Err(Error::InvalidParam { .. })
    ));
    // A step with |1 − ηλ| > 1 makes the iterates grow geometrically: a typed error, not
    // infinite weights.
    let huge = PrimalSvm::default()
        .lambda(1.0)
        .learning_rate(LearningRate::Constant)
        .eta0(10.0)
        .fit(&x, &y);
    assert!(matches!(
        huge,
        Err(Error::InvalidParam { name: "eta0", .. })
    ));
    let y3 = y.mapv(|c| if c == 1 { 2 } else { c });
    assert!(PrimalSvm::default().fit(&x, &y3).is_err());
    let empty = Array2::<f64>::zeros((0, 3));
    assert!(PrimalSvm::default().fit(&empty, &Array1::zeros(0)).is_err());
}
