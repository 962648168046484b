//! Gaussian mixtures against scikit-learn (`datasets/golden/cluster/mixture.json`, written by
//! `scripts/golden/cluster_mixture.py`): EM from the same given parameters reaches the same
//! weights, means, covariances, lower bound and iteration count for every covariance type;
//! plus the EM invariants (the log-likelihood never decreases), the univariate updates of the
//! notes, sampling, information criteria, the conformance battery and the input errors.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

mod common;

use ndarray::{Array3, Axis, array};
use ndlearn_cluster::{CovarianceType, GaussianMixture, GmmInit};
use ndlearn_core::PredictProba;
use ndlearn_core::{FitUnsupervised, Predict};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Case, Golden, assert_close};

fn ctype(case: &Case) -> CovarianceType {
    match case.string("covariance_type") {
        "full" => CovarianceType::Full,
        "tied" => CovarianceType::Tied,
        "diag" => CovarianceType::Diag,
        _ => CovarianceType::Spherical,
    }
}

fn tensor(case: &Case, field: &str, k: usize, d: usize) -> Array3<f64> {
    let flat = case.matrix(field); // k x (d*d) or (k*d) x d: rebuild from the raw values
    Array3::from_shape_vec((k, d, d), flat.iter().copied().collect()).expect("k x d x d")
}

#[test]
fn em_from_given_parameters_matches_sklearn() {
    let g = Golden::load("cluster", "mixture");
    let cases = g.cases();
    assert!(cases.len() >= 18);
    for case in cases {
        let name = case.name();
        let x = common::data(case);
        let (k, d) = (case.usize("k"), x.ncols());
        let gm = GaussianMixture::new(k)
            .covariance_type(ctype(case))
            .tol(case.scalar("tol"))
            .max_iter(case.usize("max_iter"))
            .init(GmmInit::Params {
                weights: Some(case.vector("weights_init")),
                means: Some(case.matrix("means_init")),
                covariances: Some(tensor(case, "cov_init", k, d)),
            })
            .fit(&x)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(gm.n_iter(), case.usize("n_iter"), "{name}: n_iter");
        let lb = case.scalar("lower_bound");
        assert!(
            (gm.lower_bound() - lb).abs() <= 1e-6,
            "{name}: lower bound {} vs {lb}",
            gm.lower_bound()
        );
        let score = case.scalar("score");
        let ours = gm.score(&x).expect("score");
        assert!(
            (ours - score).abs() <= 1e-6,
            "{name}: score {ours} vs {score}"
        );
        assert_close(
            gm.weights(),
            &case.vector("weights"),
            1e-6,
            1e-8,
            &format!("{name}: weights"),
        );
        assert_close(
            gm.means(),
            &case.matrix("means"),
            1e-6,
            1e-7,
            &format!("{name}: means"),
        );
        assert_close(
            gm.covariances(),
            &tensor(case, "covariances", k, d),
            1e-5,
            1e-7,
            &format!("{name}: covariances"),
        );
        let ss = gm
            .score_samples(&x.slice(ndarray::s![..20, ..]))
            .expect("score_samples");
        assert_close(
            &ss,
            &case.vector("score_samples"),
            1e-6,
            1e-6,
            &format!("{name}: score_samples"),
        );
    }
}

#[test]
fn log_likelihood_never_decreases_and_probabilities_are_normalised() {
    let g = Golden::load("cluster", "mixture");
    let x = common::data(g.case("blobs_full"));
    for ct in [
        CovarianceType::Full,
        CovarianceType::Tied,
        CovarianceType::Diag,
        CovarianceType::Spherical,
    ] {
        for init in [
            GmmInit::KMeans,
            GmmInit::KMeansPlusPlus,
            GmmInit::Random,
            GmmInit::RandomFromData,
        ] {
            let gm = GaussianMixture::new(4)
                .covariance_type(ct)
                .init(init.clone())
                .tol(1e-8)
                .max_iter(300)
                .seed(3)
                .fit(&x)
                .expect("fit");
            let h = gm.lower_bound_history();
            for w in h.windows(2) {
                assert!(
                    w[1] >= w[0] - 1e-10,
                    "{ct:?} {init:?}: {} after {}",
                    w[1],
                    w[0]
                );
            }
            let p = gm.predict_proba(&x).expect("proba");
            for s in p.sum_axis(Axis(1)) {
                assert!((s - 1.0).abs() < 1e-12);
            }
            assert!((gm.weights().sum() - 1.0).abs() < 1e-12);
            // the blobs are well separated: every start finds them (scikit-learn: -4.2546 to -4.2562)
            // (random starts may end in a local optimum, as in scikit-learn)
            let score = gm.score(&x).expect("score");
            if matches!(init, GmmInit::KMeans | GmmInit::KMeansPlusPlus) {
                assert!(score > -4.2575, "{ct:?} {init:?}: {score}");
            }
        }
    }
}

#[test]
fn univariate_updates_are_the_notes_formulas() {
    // one EM round by hand (001 L784-839, without the spurious 1/k): from the given start the
    // responsibilities are posteriors, the means responsibility-weighted averages, the
    // standard deviations responsibility-weighted root mean squares
    let x = array![[-1.0f64], [-0.5], [0.2], [3.0], [3.5], [4.1]];
    let (w0, m0, v0) = ([0.5, 0.5], [0.0, 1.0], [1.0, 1.0]);
    let gm = GaussianMixture::new(2)
        .max_iter(1)
        .reg_covar(0.0)
        .init(GmmInit::Params {
            weights: Some(array![w0[0], w0[1]]),
            means: Some(array![[m0[0]], [m0[1]]]),
            covariances: Some(Array3::from_shape_vec((2, 1, 1), v0.to_vec()).expect("shape")),
        })
        .fit(&x)
        .expect("fit");
    let pdf = |x: f64, m: f64, v: f64| {
        (-(x - m) * (x - m) / (2.0 * v)).exp() / (2.0 * std::f64::consts::PI * v).sqrt()
    };
    let mut r = [[0.0; 2]; 6];
    for i in 0..6 {
        let a = w0[0] * pdf(x[[i, 0]], m0[0], v0[0]);
        let b = w0[1] * pdf(x[[i, 0]], m0[1], v0[1]);
        r[i] = [a / (a + b), b / (a + b)];
    }
    for c in 0..2 {
        let nk: f64 = r.iter().map(|v| v[c]).sum();
        let mu: f64 = (0..6).map(|i| r[i][c] * x[[i, 0]]).sum::<f64>() / nk;
        let var: f64 = (0..6)
            .map(|i| r[i][c] * (x[[i, 0]] - mu).powi(2))
            .sum::<f64>()
            / nk;
        assert!((gm.means()[[c, 0]] - mu).abs() < 1e-12);
        assert!((gm.covariances()[[c, 0, 0]] - var).abs() < 1e-12);
        assert!((gm.weights()[c] - nk / 6.0).abs() < 1e-12);
    }
}

#[test]
fn sampling_and_information_criteria() {
    let g = Golden::load("cluster", "mixture");
    let x = common::data(g.case("blobs_full"));
    let gm = GaussianMixture::new(4).fit(&x).expect("fit");
    let (s, labels) = gm.sample(4000, 1).expect("sample");
    assert_eq!(s.dim(), (4000, 2));
    for c in 0..4 {
        let rows: Vec<usize> = (0..4000).filter(|&i| labels[i] == c).collect();
        let frac = rows.len() as f64 / 4000.0;
        assert!((frac - gm.weights()[c]).abs() < 0.03, "weight of {c}");
        let mean = s.select(Axis(0), &rows).mean_axis(Axis(0)).expect("rows");
        for j in 0..2 {
            assert!((mean[j] - gm.means()[[c, j]]).abs() < 0.15);
        }
    }
    // more components always raise the likelihood but BIC prefers the true 4
    let bics: Vec<f64> = (1..=7)
        .map(|k| {
            GaussianMixture::new(k)
                .fit(&x)
                .expect("fit")
                .bic(&x)
                .expect("bic")
        })
        .collect();
    let best = (0..bics.len())
        .min_by(|&a, &b| bics[a].total_cmp(&bics[b]))
        .expect("some");
    assert_eq!(best + 1, 4, "BIC over k: {bics:?}");
    assert_eq!(gm.n_parameters(), 4 * 3 + 4 * 2 + 3);
    // restarts keep the best lower bound; same seed, same result
    let a = GaussianMixture::new(4)
        .n_init(3)
        .init(GmmInit::Random)
        .seed(5)
        .fit(&x)
        .expect("fit");
    let b = GaussianMixture::new(4)
        .n_init(3)
        .init(GmmInit::Random)
        .seed(5)
        .fit(&x)
        .expect("fit");
    assert_eq!(a, b);
    assert_eq!(a.predict(&x).expect("predict").len(), 600);
}

#[test]
fn bad_input_is_a_typed_error() {
    let x = array![[0.0f64, 1.0], [1.0, 0.0], [2.0, 2.0]];
    assert!(GaussianMixture::new(0).fit(&x).is_err());
    assert!(GaussianMixture::new(4).fit(&x).is_err());
    assert!(GaussianMixture::new(1).max_iter(0).fit(&x).is_err());
    assert!(GaussianMixture::new(1).reg_covar(-1.0).fit(&x).is_err());
    let bad_means = GaussianMixture::new(2).init(GmmInit::Params {
        weights: None,
        means: Some(array![[0.0, 0.0]]),
        covariances: None,
    });
    assert!(bad_means.fit(&x).is_err());
    // a constant column with no regularisation: singular covariance, a clear error
    let flat = array![[0.0f64, 1.0], [1.0, 1.0], [2.0, 1.0], [3.0, 1.0]];
    assert!(GaussianMixture::new(1).reg_covar(0.0).fit(&flat).is_err());
    assert!(
        GaussianMixture::new(1).fit(&flat).is_ok(),
        "reg_covar rescues it"
    );
    let m = GaussianMixture::new(1).fit(&x).expect("fit");
    assert!(m.predict(&array![[1.0f64, 2.0, 3.0]]).is_err());
    assert!(m.sample(0, 0).is_err());
}

#[cfg(feature = "serde")]
#[test]
fn gaussian_mixture_conforms() {
    for ct in [CovarianceType::Full, CovarianceType::Diag] {
        Battery::new("gaussian_mixture")
            .clusterer(&GaussianMixture::new(2).covariance_type(ct))
            .assert_ok();
    }
    let x32 = array![[0.0f32, 0.1], [0.2, -0.1], [5.0, 5.1], [5.2, 4.9]];
    let m = GaussianMixture::new(2)
        .reg_covar(1e-2)
        .fit(&x32)
        .expect("f32");
    let l = m.predict(&x32).expect("predict");
    assert_eq!(l[0], l[1]);
    assert_ne!(l[0], l[2]);
}

#[test]
fn vanishing_shared_variance_gives_the_kmeans_assignment() {
    // K-10: k-means is the hard-assignment limit of EM with shared σ²I, σ → 0. From the
    // converged k-means centres with σ² = 1e-6, the first E-step's responsibilities are the
    // k-means labels, so the M-step returns exactly the k-means centres
    let g = Golden::load("cluster", "mixture");
    let x = common::data(g.case("blobs_full"));
    let km = ndlearn_cluster::KMeans::new(4).fit(&x).expect("kmeans");
    let gm = GaussianMixture::new(4)
        .covariance_type(CovarianceType::Spherical)
        .max_iter(1)
        .reg_covar(0.0)
        .init(GmmInit::Params {
            weights: Some(ndarray::Array1::from_elem(4, 0.25)),
            means: Some(km.centers().clone()),
            covariances: Some(Array3::from_shape_fn((4, 2, 2), |(_, i, j)| {
                if i == j { 1e-6 } else { 0.0 }
            })),
        })
        .fit(&x)
        .expect("fit");
    assert_close(
        gm.means(),
        km.centers(),
        1e-9,
        1e-9,
        "hard EM step = k-means centres",
    );
}
