//! IncrementalPCA against scikit-learn (`datasets/golden/decomposition/incremental_pca.json`,
//! written by `scripts/golden/decomposition_kpca_ipca.py`): components, singular values,
//! variances, running mean and variance, noise variance and transforms after `fit` in batches;
//! equality with PCA when the batches cover the data exactly; errors; the conformance battery.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array2, array, s};
use ndlearn_core::{Error, FitUnsupervised, InverseTransform, PartialFit, Transform};
use ndlearn_decomposition::{IncrementalPca, Pca};
use ndlearn_testkit::conformance::Battery;
use ndlearn_testkit::{Golden, assert_close, assert_close_scalar};

#[test]
fn matches_sklearn_fit_in_batches() {
    let g = Golden::load("decomposition", "incremental_pca");
    for case in g.cases() {
        let name = case.name();
        let x = ndlearn_datasets::by_name(case.string("dataset"))
            .expect("data")
            .x()
            .clone();
        let m = IncrementalPca::new(case.usize("k"))
            .batch_size(case.usize("batch"))
            .whiten(case.usize("whiten") == 1)
            .fit(&x)
            .expect("fit");
        assert_eq!(m.n_samples_seen(), case.usize("n_samples_seen"), "{name}");
        let sv = case.vector("singular_values");
        assert_close(m.singular_values(), &sv, 1e-9, 1e-9 * sv[0], name);
        let ev = case.vector("explained_variance");
        assert_close(m.explained_variance(), &ev, 1e-9, 1e-9 * ev[0], name);
        assert_close(
            m.explained_variance_ratio(),
            &case.vector("explained_variance_ratio"),
            1e-9,
            1e-12,
            name,
        );
        assert_close(m.mean(), &case.vector("mean"), 1e-12, 1e-12, name);
        assert_close(m.var(), &case.vector("var"), 1e-10, 1e-12, name);
        assert_close_scalar(
            m.noise_variance(),
            case.scalar("noise_variance"),
            1e-8,
            1e-10,
            name,
        );
        // directions with a tiny singular value are ill-determined: compare the others
        let r = sv.iter().filter(|&&v| v > 1e-6 * sv[0]).count();
        assert_close(
            &m.components().slice(s![..r, ..]),
            &case.matrix("components").slice(s![..r, ..]),
            1e-7,
            1e-9,
            &format!("{name} components"),
        );
        let z = m.transform(&x.slice(s![..20, ..])).expect("transform");
        assert_close(
            &z.slice(s![.., ..r]),
            &case.matrix("transform").slice(s![.., ..r]),
            1e-7,
            1e-8,
            &format!("{name} transform"),
        );
    }
}

fn check_equal_to_pca(x: &Array2<f64>, k: usize, ipca: &IncrementalPca) {
    let m = ipca.fit(x).expect("ipca");
    let p = Pca::new(k).fit(x).expect("pca");
    assert_close(
        m.explained_variance(),
        p.explained_variance(),
        1e-8,
        0.0,
        "explained variance",
    );
    assert_close(m.components(), p.components(), 1e-8, 1e-8, "components");
    let z = m.transform(x).expect("t");
    assert_close(&z, &p.transform(x).expect("t"), 1e-8, 1e-8, "scores");
    let back = m.inverse_transform(&z).expect("inverse");
    assert_close(
        &back,
        &p.inverse_transform(&z).expect("inverse"),
        1e-8,
        1e-8,
        "inverse",
    );
}

#[test]
fn equals_pca_when_the_batches_cover_the_data() {
    let x = ndlearn_datasets::by_name("wine").expect("wine").x().clone();
    // one batch holding all rows: any k
    check_equal_to_pca(&x, 5, &IncrementalPca::new(5).batch_size(x.nrows()));
    // many batches but every component kept (k = d): exact at every step
    check_equal_to_pca(&x, 13, &IncrementalPca::new(13).batch_size(30));
}

#[test]
fn partial_fit_streams_with_bounded_state() {
    let x = ndlearn_datasets::by_name("digits")
        .expect("digits")
        .x()
        .clone();
    let est = IncrementalPca::new(10);
    let mut model = None;
    for chunk in x.axis_chunks_iter(ndarray::Axis(0), 100) {
        model = Some(est.partial_fit(model, &chunk, &()).expect("partial_fit"));
    }
    let m = model.expect("model");
    assert_eq!(m.n_samples_seen(), 1797);
    assert_eq!(m.components().dim(), (10, 64));
    // close to the exact PCA's leading variance (an approximation in general)
    let p = Pca::new(10).fit(&x).expect("pca");
    let rel =
        (m.explained_variance()[0] - p.explained_variance()[0]).abs() / p.explained_variance()[0];
    assert!(rel < 5e-3, "{rel}");
    // the streamed statistics are exact
    assert_close(m.mean(), p.mean(), 1e-12, 1e-12, "mean");
}

#[test]
fn errors_are_typed() {
    let x = array![[0.0f64, 1.0, 2.0], [1.0, 0.5, 0.0], [2.0, 2.0, 1.0]];
    assert!(matches!(
        IncrementalPca::new(4).fit(&x),
        Err(Error::InvalidParam { .. })
    ));
    // a first batch with fewer rows than components
    assert!(matches!(
        IncrementalPca::new(3).partial_fit(None, &x.slice(s![..2, ..]), &()),
        Err(Error::InvalidParam { .. })
    ));
    let m = IncrementalPca::new(2).fit(&x).expect("fit");
    assert!(matches!(
        IncrementalPca::new(2).partial_fit(Some(m.clone()), &array![[1.0, 2.0]], &()),
        Err(Error::ShapeMismatch { .. })
    ));
    assert!(matches!(
        IncrementalPca::new(1).partial_fit(Some(m.clone()), &x, &()),
        Err(Error::InvalidParam { .. })
    ));
    assert!(matches!(
        m.transform(&array![[f64::INFINITY, 0.0, 0.0]]),
        Err(Error::NonFinite { .. })
    ));
    assert!(matches!(
        m.inverse_transform(&array![[0.0, 0.0, 0.0]]),
        Err(Error::ShapeMismatch { .. })
    ));
}

#[cfg(feature = "serde")]
#[test]
fn f32_and_conformance() {
    let x = array![
        [1.0f32, 2.0],
        [2.0, 1.0],
        [3.0, 4.0],
        [4.0, 3.5],
        [0.5, 0.2]
    ];
    let m = IncrementalPca::new(2).batch_size(2).fit(&x).expect("fit");
    assert_eq!(m.transform(&x).expect("t").dim(), (5, 2));
    Battery::new("incremental_pca")
        .transformer(&IncrementalPca::new(2))
        .assert_ok();
}
