//! Invariants of the SVM solvers: SMO reaches the optimum of the core QP solver (the test
//! oracle), the KKT conditions hold at the returned point, the fit does not depend on the row
//! order, hostile but valid inputs do not panic, and probabilities are proper and reproducible.

use ndarray::{Array1, Array2, Axis, array};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::optim::QuadraticProgram;
use ndlearn_core::traits::{
    DecisionFunction, Fit, FitUnsupervised, OutlierDetector, Predict, PredictProba,
};
use ndlearn_svm::{Gamma, KernelRidge, NuSvc, OneClassSvm, Svc, SvmKernel, Svr};
use ndlearn_testkit::strategies::config;
use proptest::prelude::*;

/// Two noisy Gaussian classes in `d` dimensions (`n` rows, labels 0/1).
fn two_blobs(n: usize, d: usize, seed: u64, shift: f64) -> (Array2<f64>, Array1<usize>) {
    use rand::Rng;
    let mut rng = ndlearn_core::random::stream(seed, 0);
    let y: Array1<usize> = (0..n).map(|i| i % 2).collect();
    let x = Array2::from_shape_fn((n, d), |(i, _)| {
        let u: f64 = rng.random_range(-1.0..1.0);
        let v: f64 = rng.random_range(-1.0..1.0);
        (u + v) + if y[i] == 1 { shift } else { 0.0 }
    });
    (x, y)
}

fn dual_by_qp(x: &Array2<f64>, y: &Array1<usize>, gamma: f64, c: f64) -> f64 {
    let n = x.nrows();
    let k = Kernel::Rbf { gamma }.gram(x).expect("gram");
    // libsvm's pair labels: +1 for class 0, −1 for class 1
    let s: Array1<f64> = y.mapv(|c| if c == 0 { 1.0 } else { -1.0 });
    let q = Array2::from_shape_fn((n, n), |(i, j)| s[i] * s[j] * k[[i, j]]);
    let res = QuadraticProgram::new(&q, &Array1::from_elem(n, -1.0))
        .equalities(&s.clone().insert_axis(Axis(0)), &array![0.0])
        .bounds(&Array1::zeros(n), &Array1::from_elem(n, c))
        .solve()
        .expect("qp");
    res.objective
}

proptest! {
    #![proptest_config(config(12))]

    #[test]
    fn smo_reaches_the_qp_optimum(seed in 0u64..1000, c in 0.05f64..20.0, shift in 0.0f64..2.5) {
        let (x, y) = two_blobs(40, 3, seed, shift);
        let gamma = 0.4;
        let m = Svc::default().c(c).gamma(Gamma::Value(gamma)).tol(1e-10).fit(&x, &y).expect("fit");
        let ours = m.dual_objectives()[0];
        let oracle = dual_by_qp(&x, &y, gamma, c);
        prop_assert!((ours - oracle).abs() <= 1e-7 * oracle.abs().max(1.0),
            "SMO {ours} vs QP {oracle}");
    }

    #[test]
    fn kkt_conditions_hold(seed in 0u64..1000, c in 0.1f64..10.0) {
        let (x, y) = two_blobs(60, 2, seed, 1.0);
        let tol = 1e-6;
        let m = Svc::default().c(c).tol(tol).fit(&x, &y).expect("fit");
        // margins y f(x) with y = +1 for class 1 (the sign of the public decision function)
        let f = m.decision_function(&x).expect("decision");
        let mut alpha = vec![0.0; x.nrows()];
        for (p, &r) in m.support().iter().enumerate() {
            alpha[r] = m.dual_coef()[[0, p]].abs();
        }
        for i in 0..x.nrows() {
            let yi = if y[i] == 1 { 1.0 } else { -1.0 };
            let margin = yi * f[[i, 0]];
            // the maximal violation is below tol, so every margin is within tol of its rule
            if alpha[i] == 0.0 {
                prop_assert!(margin >= 1.0 - 2.0 * tol, "row {i}: α = 0, margin {margin}");
            } else if alpha[i] >= c * (1.0 - 1e-12) {
                prop_assert!(margin <= 1.0 + 2.0 * tol, "row {i}: α = C, margin {margin}");
            } else {
                prop_assert!((margin - 1.0).abs() <= 2.0 * tol, "row {i}: free, margin {margin}");
            }
        }
        // Σ yᵢ αᵢ = 0
        let s: f64 = m.dual_coef().row(0).sum();
        prop_assert!(s.abs() <= 1e-9 * c * x.nrows() as f64);
    }

    #[test]
    fn row_order_does_not_change_the_decision(seed in 0u64..1000) {
        let (x, y) = two_blobs(50, 4, seed, 1.5);
        let est = Svc::default().tol(1e-9);
        let a = est.fit(&x, &y).expect("fit");
        let perm: Vec<usize> = (0..x.nrows()).rev().collect();
        let b = est.fit(&x.select(Axis(0), &perm), &y.select(Axis(0), &perm)).expect("fit");
        let (da, db) = (a.decision_function(&x).expect("a"), b.decision_function(&x).expect("b"));
        let diff = (&da - &db).mapv(f64::abs).fold(0.0f64, |m, v| m.max(*v));
        prop_assert!(diff <= 1e-6, "max difference {diff}");
    }
}

#[test]
fn extreme_c_duplicates_and_constant_features_do_not_panic() {
    let (x, y) = two_blobs(30, 3, 3, 1.0);
    for c in [1e-6, 1e-3, 1.0, 1e3, 1e6] {
        let m = Svc::default()
            .c(c)
            .max_iter(Some(200_000))
            .fit(&x, &y)
            .expect("fit");
        assert!(m.predict(&x).expect("predict").len() == 30);
    }
    // duplicated rows with conflicting labels
    let xd = ndarray::concatenate![Axis(0), x, x];
    let yd: Array1<usize> = y
        .iter()
        .chain(y.iter().map(|v| 1 - v).collect::<Vec<_>>().iter())
        .copied()
        .collect();
    Svc::default().fit(&xd, &yd).expect("duplicates");
    // a constant feature and a constant matrix (gamma = "scale" falls back to 1)
    let mut xc = x.clone();
    xc.column_mut(1).fill(3.0);
    Svc::default().fit(&xc, &y).expect("constant column");
    let flat = Array2::from_elem((30, 3), 2.0);
    let m = Svc::default().fit(&flat, &y).expect("constant matrix");
    assert_eq!(m.kernel(), Some(&Kernel::Rbf { gamma: 1.0 }));
    Svr::default()
        .fit(&flat, &y.mapv(|v| v as f64))
        .expect("svr on constants");
    OneClassSvm::default()
        .fit(&flat)
        .expect("one-class on constants");
}

#[test]
fn invalid_input_gives_typed_errors() {
    let (x, y) = two_blobs(20, 2, 1, 1.0);
    assert!(Svc::default().c(0.0).fit(&x, &y).is_err());
    assert!(
        Svc::default()
            .gamma(Gamma::Value(-1.0))
            .fit(&x, &y)
            .is_err()
    );
    assert!(NuSvc::default().nu(1.5).fit(&x, &y).is_err());
    // nu infeasible for a 3:17 split
    let skew: Array1<usize> = (0..20).map(|i| usize::from(i >= 3)).collect();
    assert!(NuSvc::default().nu(0.9).fit(&x, &skew).is_err());
    // one class
    assert!(Svc::default().fit(&x, &Array1::zeros(20)).is_err());
    // a class index without samples
    let gap: Array1<usize> = y.mapv(|v| v * 2);
    assert!(Svc::default().fit(&x, &gap).is_err());
    let mut bad = x.clone();
    bad[[3, 1]] = f64::NAN;
    assert!(Svc::default().fit(&bad, &y).is_err());
    let m = Svc::default().fit(&x, &y).expect("fit");
    assert!(m.predict(&Array2::zeros((2, 3))).is_err());
    assert!(
        m.predict_proba(&x).is_err(),
        "no probabilities without probability = true"
    );
    // precomputed kernels must be square at fit and n_train wide at predict
    let svc = Svc::default().kernel(SvmKernel::Precomputed);
    assert!(svc.fit(&x, &y).is_err());
    let k = Kernel::Rbf { gamma: 0.5 }.gram(&x).expect("gram");
    let pm = svc.fit(&k, &y).expect("precomputed");
    assert!(pm.predict(&x).is_err());
    assert!(
        KernelRidge::default()
            .alpha(vec![])
            .fit(&x, &y.mapv(|v| v as f64))
            .is_err()
    );
    assert!(
        KernelRidge::default()
            .alpha(vec![1.0, 2.0])
            .fit(&x, &y.mapv(|v| v as f64))
            .is_err()
    );
}

#[test]
fn precomputed_kernel_equals_the_kernel_it_was_built_from() {
    let (x, y) = two_blobs(40, 3, 7, 1.0);
    let gamma = 0.3;
    let a = Svc::default()
        .gamma(Gamma::Value(gamma))
        .tol(1e-10)
        .fit(&x, &y)
        .expect("rbf");
    let k = Kernel::Rbf { gamma }.gram(&x).expect("gram");
    let b = Svc::default()
        .kernel(SvmKernel::Precomputed)
        .tol(1e-10)
        .fit(&k, &y)
        .expect("pre");
    let da = a.decision_function(&x).expect("a");
    let db = b.decision_function(&k).expect("b");
    let diff = (&da - &db).mapv(f64::abs).fold(0.0f64, |m, v| m.max(*v));
    assert!(diff < 1e-8, "{diff}");
    assert_eq!(a.support(), b.support());
}

#[test]
fn multiclass_pairs_equal_binary_fits_on_the_pair() {
    let data = ndlearn_datasets::iris();
    let (x, y) = (data.x(), data.y_classes().expect("labels"));
    let m = Svc::default().tol(1e-10).fit(x, y).expect("fit");
    let ovo = m.decision_function_ovo(x).expect("ovo");
    // pair (1, 2): the binary fit on those rows (labels 1 → 0, 2 → 1) with the same gamma
    let gamma = match m.kernel() {
        Some(Kernel::Rbf { gamma }) => *gamma,
        other => panic!("{other:?}"),
    };
    let rows: Vec<usize> = (0..150).filter(|&i| y[i] > 0).collect();
    let xb = x.select(Axis(0), &rows);
    let yb: Array1<usize> = rows.iter().map(|&i| y[i] - 1).collect();
    let b = Svc::default()
        .gamma(Gamma::Value(gamma))
        .tol(1e-10)
        .fit(&xb, &yb)
        .expect("pair");
    let db = b.decision_function(x).expect("binary");
    for i in 0..150 {
        // libsvm's pair column is positive for the first class; the binary public decision
        // is positive for the second
        assert!((ovo[[i, 2]] + db[[i, 0]]).abs() < 1e-7, "row {i}");
    }
}

#[test]
fn probabilities_are_proper_and_reproducible() {
    let data = ndlearn_datasets::iris();
    let (x, y) = (data.x(), data.y_classes().expect("labels"));
    let est = Svc::default().probability(true).random_state(3);
    let a = est.fit(x, y).expect("fit");
    let p = a.predict_proba(x).expect("proba");
    for row in p.rows() {
        assert!((row.sum() - 1.0).abs() < 1e-9);
        assert!(row.iter().all(|&v| (0.0..=1.0).contains(&v)));
    }
    let b = est.fit(x, y).expect("again");
    assert_eq!(a, b);
    // Platt probabilities agree with the labels on well-separated iris for nearly every row
    let pred = a.predict(x).expect("predict");
    let agree = p
        .rows()
        .into_iter()
        .zip(&pred)
        .filter(|(r, l)| ndlearn_core::numeric::argmax(r.iter().copied()) == **l)
        .count();
    assert!(agree >= 145, "{agree}");
    // log-loss on the training rows is that of a calibrated model
    let ll: f64 = p
        .rows()
        .into_iter()
        .zip(y)
        .map(|(r, &c)| -r[c].max(1e-15).ln())
        .sum::<f64>()
        / 150.0;
    assert!(ll < 0.15, "log-loss {ll}");
}

#[test]
fn one_class_svm_flags_about_nu_of_the_training_rows() {
    let (x, _) = two_blobs(200, 2, 11, 0.0);
    for nu in [0.05, 0.2, 0.5] {
        let m = OneClassSvm::default()
            .nu(nu)
            .tol(1e-8)
            .fit(&x)
            .expect("fit");
        let out = m
            .predict(&x)
            .expect("predict")
            .iter()
            .filter(|&&v| v < 0)
            .count() as f64
            / 200.0;
        // ν is an upper bound on the outlier fraction and a lower bound on the SV fraction
        assert!(out <= nu + 0.02, "nu {nu}: outliers {out}");
        let sv = m.expansion().support().len() as f64 / 200.0;
        assert!(sv >= nu - 0.01, "nu {nu}: support fraction {sv}");
        let s = m.score_samples(&x).expect("scores");
        let d = OutlierDetector::decision_function(&m, &x).expect("decision");
        assert!((&s - &d).iter().all(|v| (v - m.offset()).abs() < 1e-9));
    }
}
