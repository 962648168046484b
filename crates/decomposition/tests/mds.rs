//! Classical and stress MDS against scikit-learn (`datasets/golden/decomposition/mds.json`,
//! written by `scripts/golden/decomposition_manifold.py`): `ClassicalMDS` embeddings and
//! eigenvalues (Euclidean, Manhattan, precomputed Chebyshev), Gower out-of-sample positions
//! (numpy), SMACOF from given and classical starts (embedding, raw stress, stress-1, n_iter);
//! the notes' property (catalog §2 #27: exact recovery up to a rigid motion), classical MDS =
//! PCA, exact reproduction of the training points, kernel / similarity input, monotone SMACOF
//! and gradient descent, thread invariance, the stress-minimising transform; typed errors; the
//! conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, Axis, array, s};
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::linalg;
use ndlearn_core::{Error, FitUnsupervised, Transform, par};
use ndlearn_decomposition::{
    ClassicalMds, FittedMds, Mds, MdsDissimilarity, MdsInit, MdsInput, MdsLoss, MdsSolver, Pca,
    classical_mds_from_distances, classical_mds_from_similarities,
};
use ndlearn_testkit::conformance::{Battery, Check};
use ndlearn_testkit::strategies::config;
use ndlearn_testkit::{Case, Golden, assert_close, max_abs_diff, normalize_column_signs};
use proptest::prelude::*;

mod common;
use common::data;

fn metric(name: &str) -> Metric {
    match name {
        "euclidean" => Metric::Euclidean,
        "manhattan" => Metric::Manhattan,
        "chebyshev" => Metric::Chebyshev,
        other => panic!("unknown metric {other}"),
    }
}

fn scale(a: &Array2<f64>) -> f64 {
    a.iter().fold(0.0f64, |m, v| m.max(v.abs()))
}

fn dist(z: &Array2<f64>) -> Array2<f64> {
    pairwise_distances(z, z, &Metric::Euclidean).expect("distances")
}

#[test]
fn classical_matches_sklearn() {
    let g = Golden::load("decomposition", "mds");
    let mut checked = 0;
    let mut worst = 0.0f64;
    for case in g.cases_with_prefix("classical_") {
        if case.name().starts_with("classical_oos") {
            continue;
        }
        let x = data(case);
        let k = case.usize("k");
        let input = match case.string("input") {
            "data" => MdsInput::Data(metric(case.string("metric"))),
            _ => MdsInput::PrecomputedDistances,
        };
        let m = ClassicalMds::new(k).input(input).fit(&x).expect("fit");
        let want = case.matrix("embedding");
        let top = scale(&want);
        let what = case.name();
        assert_close(m.embedding(), &want, 0.0, 1e-9 * top, what);
        worst = worst.max(max_abs_diff(m.embedding(), &want) / top);
        assert_close(
            m.eigenvalues(),
            &case.vector("eigenvalues"),
            1e-10,
            0.0,
            &format!("{what}: eigenvalues"),
        );
        let neg = case.scalar("negative_ratio");
        assert!(
            (m.negative_eigenvalue_ratio() - neg).abs() < 1e-10,
            "{what}: negative ratio {} vs {neg}",
            m.negative_eigenvalue_ratio()
        );
        assert_eq!(m.n_clipped(), 0);
        // the training points are mapped exactly onto their embedding (Gower's formula)
        let back = m.transform(&x).expect("transform");
        assert_close(&back, &want, 0.0, 1e-9 * top, &format!("{what}: transform"));
        checked += 1;
    }
    assert_eq!(checked, 7);
    eprintln!("classical MDS: max |diff| / max |embedding| = {worst:e}");
}

#[test]
fn classical_out_of_sample_matches_gower() {
    let g = Golden::load("decomposition", "mds");
    let iris = ndlearn_datasets::by_name("iris").expect("iris").x().clone();
    let train: Vec<usize> = (0..iris.nrows()).filter(|i| i % 3 != 0).collect();
    let test: Vec<usize> = (0..iris.nrows()).filter(|i| i % 3 == 0).collect();
    let (xt, xn) = (iris.select(Axis(0), &train), iris.select(Axis(0), &test));
    for name in ["classical_oos_euclidean", "classical_oos_manhattan"] {
        let case = g.case(name);
        let m = ClassicalMds::new(2)
            .input(MdsInput::Data(metric(case.string("metric"))))
            .fit(&xt)
            .expect("fit");
        let emb = case.matrix("embedding");
        assert_close(m.embedding(), &emb, 0.0, 1e-9 * scale(&emb), name);
        let want = case.matrix("transform");
        let z = m.transform(&xn).expect("transform");
        assert_close(&z, &want, 0.0, 1e-9 * scale(&want), name);
        eprintln!(
            "{name}: transform max |diff| = {:e}",
            max_abs_diff(&z, &want)
        );
        // the same from precomputed distances (rows of test-to-train distances)
        let d = pairwise_distances(&xt, &xt, &metric(case.string("metric"))).expect("d");
        let p = ClassicalMds::new(2)
            .input(MdsInput::PrecomputedDistances)
            .fit(&d)
            .expect("fit");
        let dn = pairwise_distances(&xn, &xt, &metric(case.string("metric"))).expect("dn");
        assert_eq!(p.n_input_columns(), train.len());
        let zp = p.transform(&dn).expect("transform");
        assert_close(&zp, &want, 0.0, 1e-9 * scale(&want), name);
    }
}

fn smacof_fit(case: &Case) -> FittedMds<f64> {
    let x = case.matrix("x");
    let mut est = Mds::new(case.usize("k"))
        .max_iter(case.usize("max_iter"))
        .eps(case.scalar("eps"));
    if case.string("input") == "precomputed" {
        est = est.dissimilarity(MdsDissimilarity::Precomputed);
    }
    if case.string("init_kind") == "classical" {
        est.init(MdsInit::Classical).fit(&x).expect("fit")
    } else {
        est.fit_with_init(&x, &case.matrix("init")).expect("fit")
    }
}

#[test]
fn smacof_matches_sklearn() {
    let g = Golden::load("decomposition", "mds");
    let cases = g.cases_with_prefix("smacof_");
    assert_eq!(cases.len(), 6);
    for case in cases {
        let name = case.name();
        let m = smacof_fit(case);
        let want = case.matrix("embedding");
        let diff = max_abs_diff(m.embedding(), &want);
        eprintln!(
            "{name}: n_iter {} (sklearn {}), embedding max |diff| = {diff:e}, stress {:e} vs {:e}",
            m.n_iter(),
            case.usize("n_iter"),
            m.stress(),
            case.scalar("stress")
        );
        assert_eq!(m.n_iter(), case.usize("n_iter"), "{name}: n_iter");
        assert_close(m.embedding(), &want, 0.0, 1e-8 * scale(&want), name);
        let st = case.scalar("stress");
        assert!((m.stress() - st).abs() <= 1e-9 * st, "{name}: stress");
        let s1 = case.scalar("stress1");
        assert!((m.stress1() - s1).abs() <= 1e-9 * s1, "{name}: stress1");
        assert_eq!(m.converged(), m.n_iter() < case.usize("max_iter"));
        // every iteration lowers the stress (SMACOF majorises it)
        let h = m.loss_history();
        assert_eq!(h.len(), m.n_iter());
        assert!(h.windows(2).into_iter().all(|w| w[1] <= w[0]), "{name}");
        assert_eq!(h[h.len() - 1], m.objective());
    }
}

/// Orthogonal Procrustes residual: `min_R ‖A R − B‖_F` over orthogonal `R`, both centred.
fn procrustes_error(a: &Array2<f64>, b: &Array2<f64>) -> f64 {
    let ac = a - &a.mean_axis(Axis(0)).expect("rows");
    let bc = b - &b.mean_axis(Axis(0)).expect("rows");
    let svd = linalg::svd_thin(&ac.t().dot(&bc)).expect("svd");
    let r = svd.u.dot(&svd.vt);
    (ac.dot(&r) - bc).mapv(|v| v * v).sum().sqrt()
}

#[test]
fn notes_property_exact_recovery_up_to_rigid_motion() {
    // catalog §2 #27 (000 L1203-1222): points → squared distances → classical MDS gives the
    // points back up to rotation, reflection and translation
    let x = array![
        [0.0f64, 0.0, 0.0],
        [2.0, 0.0, 1.0],
        [0.0, 3.0, -1.0],
        [1.0, 1.0, 4.0],
        [-2.0, 0.5, 0.5],
        [3.0, -1.0, 2.0]
    ];
    let d = dist(&x);
    let z = classical_mds_from_distances(&d, 3).expect("mds");
    assert!(procrustes_error(&z, &x) < 1e-10);
    // the notes' M = X Xᵀ as a similarity matrix gives the same configuration
    let zs = classical_mds_from_similarities(&x.dot(&x.t()), 3).expect("mds");
    assert!(procrustes_error(&zs, &x) < 1e-10);
    assert!(max_abs_diff(&dist(&zs), &d) < 1e-10);
    // too few dimensions: the best rank-2 fit, distances no longer exact
    let z2 = classical_mds_from_distances(&d, 2).expect("mds");
    assert!(max_abs_diff(&dist(&z2), &d) > 0.1);
}

#[test]
fn kernel_and_similarity_input() {
    let x = ndlearn_datasets::by_name("iris")
        .expect("iris")
        .x()
        .slice(s![..40, ..])
        .to_owned();
    let base = ClassicalMds::new(3).fit(&x).expect("fit");
    // the linear kernel double-centred is X̃ X̃ᵀ: the same embedding
    let lin = ClassicalMds::new(3)
        .input(MdsInput::Kernel(Kernel::Linear))
        .fit(&x)
        .expect("fit");
    assert!(max_abs_diff(lin.embedding(), base.embedding()) < 1e-10);
    let probe = x.mapv(|v| 0.9 * v + 0.1);
    let (a, b) = (
        lin.transform(&probe).expect("t"),
        base.transform(&probe).expect("t"),
    );
    assert!(max_abs_diff(&a, &b) < 1e-10);
    // RBF kernel MDS: its precomputed Gram gives the same embedding and transform
    let k = Kernel::Rbf { gamma: 0.3 };
    let rbf = ClassicalMds::new(2)
        .input(MdsInput::Kernel(k.clone()))
        .fit(&x)
        .expect("fit");
    let pre = ClassicalMds::new(2)
        .input(MdsInput::PrecomputedSimilarities)
        .fit(&k.gram(&x).expect("gram"))
        .expect("fit");
    assert!(max_abs_diff(rbf.embedding(), pre.embedding()) < 1e-12);
    let cross = k.cross_gram(&probe, &x).expect("cross");
    assert!(
        max_abs_diff(
            &rbf.transform(&probe).expect("t"),
            &pre.transform(&cross).expect("t")
        ) < 1e-12
    );
    // the training rows are reproduced exactly
    assert!(max_abs_diff(&rbf.transform(&x).expect("t"), rbf.embedding()) < 1e-10);
    assert!(
        rbf.negative_eigenvalue_ratio() < 1e-12,
        "a Mercer kernel is Euclidean"
    );
    // f32
    let m32 = ClassicalMds::new(2)
        .fit(&x.mapv(|v| v as f32))
        .expect("f32");
    let d32 = m32.embedding().mapv(f64::from);
    let mut a = d32;
    let mut b = base.embedding().slice(s![.., ..2]).to_owned();
    normalize_column_signs(&mut a);
    normalize_column_signs(&mut b);
    assert!(max_abs_diff(&a, &b) < 1e-3);
}

#[test]
fn rank_deficient_and_non_euclidean() {
    // collinear points: one non-zero eigenvalue, the second column is clipped to 0
    let x = array![[0.0f64, 0.0], [1.0, 2.0], [2.0, 4.0], [5.0, 10.0]];
    let m = ClassicalMds::new(2).fit(&x).expect("fit");
    assert_eq!(m.n_clipped(), 1);
    assert!(m.embedding().column(1).iter().all(|&v| v == 0.0));
    let back = m.transform(&x).expect("t");
    assert!(max_abs_diff(&back, m.embedding()) < 1e-12);
    // a non-Euclidean dissimilarity (violates the triangle inequality)
    let d = array![[0.0f64, 1.0, 5.0], [1.0, 0.0, 1.0], [5.0, 1.0, 0.0]];
    let m = ClassicalMds::new(2)
        .input(MdsInput::PrecomputedDistances)
        .fit(&d)
        .expect("fit");
    assert!(m.negative_eigenvalue_ratio() > 0.05);
    assert_eq!(m.n_clipped(), 1);
    assert!(m.eigenvalues()[1] < 0.0);
    assert!(m.embedding().iter().all(|v| v.is_finite()));
}

fn point_sets() -> impl Strategy<Value = Array2<f64>> {
    (4usize..14, 1usize..5).prop_flat_map(|(n, d)| {
        prop::collection::vec(-5.0f64..5.0, n * d)
            .prop_map(move |v| Array2::from_shape_vec((n, d), v).expect("shape"))
    })
}

proptest! {
    #![proptest_config(config(16))]

    #[test]
    fn classical_is_pca_and_exact_at_full_rank(x in point_sets()) {
        let (n, d) = x.dim();
        let k = d.min(n - 1);
        let m = ClassicalMds::new(k).fit(&x).expect("fit");
        // rank of the centred data (generic random points: full)
        let ev = m.eigenvalues();
        prop_assume!(ev[k - 1] > 1e-6 * ev[0]);
        // pairwise distances reproduced exactly when k = rank
        let dz = dist(m.embedding());
        let dx = dist(&x);
        prop_assert!(max_abs_diff(&dz, &dx) < 1e-8 * (1.0 + scale(&dx)));
        // equal to the PCA scores up to column signs
        let pca = Pca::new(k).fit(&x).expect("pca");
        let mut a = pca.transform(&x).expect("scores");
        let mut b = m.embedding().clone();
        normalize_column_signs(&mut a);
        normalize_column_signs(&mut b);
        prop_assert!(max_abs_diff(&a, &b) < 1e-8 * (1.0 + scale(&a)));
        // eigenvalues of B are the squared singular values of the centred data
        for (l, s) in ev.iter().zip(pca.singular_values()) {
            prop_assert!((l - s * s).abs() < 1e-8 * (1.0 + ev[0]));
        }
        // precomputed distances give the same configuration
        let p = ClassicalMds::new(k)
            .input(MdsInput::PrecomputedDistances)
            .fit(&dx)
            .expect("fit");
        let mut c = p.embedding().clone();
        normalize_column_signs(&mut c);
        prop_assert!(max_abs_diff(&c, &b) < 1e-7 * (1.0 + scale(&b)));
        // out-of-sample: the training rows land on their embedding, for data and distances
        prop_assert!(max_abs_diff(&m.transform(&x).expect("t"), m.embedding()) < 1e-9 * (1.0 + scale(&b)));
        prop_assert!(max_abs_diff(&p.transform(&dx).expect("t"), p.embedding()) < 1e-7 * (1.0 + scale(&b)));
    }
}

fn ring(n: usize, d: usize, seed: u64) -> Array2<f64> {
    let mut rng = ndlearn_core::random::rng(seed);
    Array2::from_shape_fn((n, d), |(i, j)| {
        let t = i as f64 * 0.37;
        let base = match j {
            0 => t.cos(),
            1 => t.sin(),
            _ => 0.2 * t,
        };
        base + 0.05 * ndlearn_core::random::standard_normal::<f64>(&mut rng)
    })
}

#[test]
fn smacof_restarts_are_thread_invariant_and_monotone() {
    let x = ring(70, 3, 11);
    let est = Mds::new(2).n_init(4).seed(3).max_iter(200);
    let one = par::with_threads(1, || est.fit(&x))
        .expect("pool")
        .expect("fit");
    let two = par::with_threads(2, || est.fit(&x))
        .expect("pool")
        .expect("fit");
    ndlearn_testkit::assert_bitwise_eq(one.embedding(), two.embedding(), "1 vs 2 threads");
    assert_eq!(one.best_restart(), two.best_restart());
    assert_eq!(one.stress().to_bits(), two.stress().to_bits());
    // the winner has the lowest stress of the individual restarts
    for r in 0..4u64 {
        let single = Mds::new(2).seed(3).max_iter(200);
        let mut rng = ndlearn_core::random::stream(3, r);
        let init = Array2::from_shape_fn((70, 2), |_| {
            ndlearn_core::random::uniform(&mut rng, 0.0f64, 1.0)
        });
        let m = single.fit_with_init(&x, &init).expect("fit");
        assert!(one.stress() <= m.stress());
        if r as usize == one.best_restart() {
            assert_eq!(m.embedding(), one.embedding());
        }
    }
    let h = one.loss_history();
    assert!(h.windows(2).into_iter().all(|w| w[1] <= w[0]));
}

#[test]
fn gradient_descent_and_squared_stress() {
    let x = ring(40, 3, 5);
    let smacof = Mds::new(2)
        .init(MdsInit::Classical)
        .eps(1e-10)
        .max_iter(2000)
        .fit(&x)
        .expect("fit");
    let gd = Mds::new(2)
        .init(MdsInit::Classical)
        .solver(MdsSolver::GradientDescent)
        .eps(1e-10)
        .max_iter(2000)
        .fit(&x)
        .expect("fit");
    let h = gd.loss_history();
    assert!(
        h.windows(2).into_iter().all(|w| w[1] <= w[0]),
        "GD is monotone"
    );
    // the same local minimum from the same start (both stop on the relative-decrease rule while
    // still creeping: within 1e-3 of each other)
    assert!(
        (gd.stress() - smacof.stress()).abs() < 1e-3 * smacof.stress(),
        "{} ({} iterations) vs {} ({} iterations)",
        gd.stress(),
        gd.n_iter(),
        smacof.stress(),
        smacof.n_iter()
    );
    assert_eq!(gd.objective(), gd.stress());
    // the notes' objective on squared distances
    let ss = Mds::new(2)
        .init(MdsInit::Classical)
        .solver(MdsSolver::GradientDescent)
        .loss(MdsLoss::SquaredStress)
        .max_iter(500)
        .fit(&x)
        .expect("fit");
    let hs = ss.loss_history();
    assert!(hs.windows(2).into_iter().all(|w| w[1] <= w[0]));
    let dz = dist(ss.embedding());
    let dx = dist(&x);
    let sstress: f64 = (0..40)
        .flat_map(|i| (i + 1..40).map(move |j| (i, j)))
        .map(|(i, j)| (dz[[i, j]].powi(2) - dx[[i, j]].powi(2)).powi(2))
        .sum();
    assert!((ss.objective() - sstress).abs() < 1e-9 * sstress);
    // on exactly 2-D data both losses reach 0 from the classical start
    let flat = x.slice(s![.., ..2]).to_owned();
    let exact = Mds::new(2)
        .init(MdsInit::Classical)
        .solver(MdsSolver::GradientDescent)
        .loss(MdsLoss::SquaredStress)
        .fit(&flat)
        .expect("fit");
    assert!(exact.objective() < 1e-20);
}

#[test]
fn transform_places_new_points_by_stress() {
    // planar data embedded in 2-D: the fit is exact, so new points are placed exactly
    let x = ring(50, 2, 9);
    let m = Mds::new(2).init(MdsInit::Classical).fit(&x).expect("fit");
    assert!(m.stress1() < 1e-9);
    let new = array![[0.3f64, -0.2], [1.5, 1.0], [-0.7, 0.4]];
    let z = m.transform(&new).expect("transform");
    let want = pairwise_distances(&new, &x, &Metric::Euclidean).expect("d");
    let got = pairwise_distances(&z, m.embedding(), &Metric::Euclidean).expect("d");
    assert!(
        max_abs_diff(&got, &want) < 1e-6,
        "{}",
        max_abs_diff(&got, &want)
    );
    // 3-D data in 2-D: the stress of a placed point is no worse than its classical start
    let x3 = ring(60, 3, 2);
    let m3 = Mds::new(2).seed(1).fit(&x3).expect("fit");
    let probe = x3.mapv(|v| 0.9 * v + 0.1).slice(s![..10, ..]).to_owned();
    let delta = pairwise_distances(&probe, &x3, &Metric::Euclidean).expect("d");
    let stress_of = |z: &Array2<f64>| -> Array1<f64> {
        let dz = pairwise_distances(z, m3.embedding(), &Metric::Euclidean).expect("d");
        (&dz - &delta).mapv(|v| v * v).sum_axis(Axis(1))
    };
    let placed = m3.transform(&probe).expect("t");
    let start = Mds::new(2)
        .seed(1)
        .transform_max_iter(0)
        .fit(&x3)
        .expect("fit")
        .transform(&probe)
        .expect("t");
    let (a, b) = (stress_of(&placed), stress_of(&start));
    assert!(a.iter().zip(&b).all(|(p, q)| *p <= *q + 1e-12));
    assert!(a.sum() < b.sum());
    // precomputed dissimilarities: transform takes rows of dissimilarities
    let d = dist(&x3);
    let mp = Mds::new(2)
        .seed(1)
        .dissimilarity(MdsDissimilarity::Precomputed)
        .fit(&d)
        .expect("fit");
    assert_eq!(mp.embedding(), m3.embedding());
    assert_eq!(mp.n_input_columns(), 60);
    let zp = mp.transform(&delta).expect("t");
    assert!(max_abs_diff(&zp, &placed) < 1e-9);
}

#[test]
fn bad_input_gives_typed_errors() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, 1.0]];
    let mut nan = x.clone();
    nan[[1, 1]] = f64::NAN;
    assert!(matches!(
        ClassicalMds::new(2).fit(&nan),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        Mds::new(2).fit(&nan),
        Err(Error::NonFinite { .. })
    ));
    let pre = ClassicalMds::new(1).input(MdsInput::PrecomputedDistances);
    let mds_pre = Mds::new(1).dissimilarity(MdsDissimilarity::Precomputed);
    // non-square
    assert!(matches!(
        pre.fit(&x.slice(s![..3, ..]).to_owned()),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(mds_pre.fit(&x), Err(Error::ShapeMismatch { .. })));
    // asymmetric, negative, non-zero diagonal
    let asym = array![[0.0f64, 1.0, 2.0], [1.5, 0.0, 1.0], [2.0, 1.0, 0.0]];
    let neg = array![[0.0f64, -1.0, 2.0], [-1.0, 0.0, 1.0], [2.0, 1.0, 0.0]];
    let diag = array![[1.0f64, 1.0, 2.0], [1.0, 0.0, 1.0], [2.0, 1.0, 0.0]];
    for bad in [&asym, &neg, &diag] {
        assert!(matches!(pre.fit(bad), Err(Error::InvalidParam { .. })));
        assert!(matches!(mds_pre.fit(bad), Err(Error::InvalidParam { .. })));
    }
    let mut dnan = dist(&x);
    dnan[[0, 1]] = f64::NAN;
    assert!(matches!(pre.fit(&dnan), Err(Error::NonFinite { .. })));
    // k >= n
    assert!(matches!(
        ClassicalMds::new(4).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        Mds::new(4).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        pre.clone()
            .n_components(3)
            .fit(&dist(&x).slice(s![..3, ..3]).to_owned()),
        Err(Error::InvalidParam { .. })
    ));
    // one point
    assert!(matches!(
        ClassicalMds::new(1).fit(&array![[1.0f64, 2.0]]),
        Err(Error::TooFewSamples { .. })
    ));
    // wrong shapes at transform and for init
    let m = ClassicalMds::new(1).fit(&x).expect("fit");
    assert!(matches!(
        m.transform(&array![[1.0f64, 2.0, 3.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
    let p = pre.fit(&dist(&x)).expect("fit");
    assert!(matches!(
        p.transform(&array![[1.0f64, 2.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        p.transform(&array![[1.0f64, -2.0, 1.0, 1.0]]),
        Err(Error::InvalidParam { .. })
    ));
    let bad_init = Array2::<f64>::zeros((3, 2));
    assert!(matches!(
        Mds::new(2).fit_with_init(&x, &bad_init),
        Err(Error::ShapeMismatch { .. })
    ));
    let mut init_nan = Array2::<f64>::zeros((4, 2));
    init_nan[[0, 0]] = f64::NAN;
    assert!(matches!(
        Mds::new(2).fit_with_init(&x, &init_nan),
        Err(Error::NonFinite { .. })
    ));
    // overflowing distances
    let huge = &x * 1e300;
    assert!(matches!(
        ClassicalMds::new(1).fit(&huge),
        Err(Error::InvalidParam { .. })
    ));
    assert!(Mds::new(1).fit(&huge).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn conformance() {
    Battery::new("classical_mds")
        .transformer(&ClassicalMds::new(2))
        .assert_ok();
    Battery::new("classical_mds_manhattan")
        .transformer(&ClassicalMds::new(2).input(MdsInput::Data(Metric::Manhattan)))
        .assert_ok();
    Battery::new("classical_mds_rbf")
        .transformer(&ClassicalMds::new(2).input(MdsInput::Kernel(Kernel::Rbf { gamma: 0.1 })))
        .assert_ok();
    Battery::new("mds").transformer(&Mds::new(2)).assert_ok();
    // the gradient-descent solver: the thread check (300 rows) is covered by the SMACOF run
    // above and by the shared sweep; skipped here to keep the test short
    Battery::new("mds_gradient_descent")
        .skip(Check::ThreadInvariance)
        .transformer(&Mds::new(2).solver(MdsSolver::GradientDescent).max_iter(100))
        .assert_ok();
}
