//! The conformance battery for every estimator of ndlearn-bayes, plus f32 fits and typed
//! errors.
//!
//! The count models (multinomial, complement, Bernoulli, categorical) reject negative or
//! non-integer features by design; the battery's Gaussian blobs reach them through a wrapper
//! that maps every cell to `|x|` (rounded for the categorical model), at fit and at predict, so
//! that every other check (NaN, shapes, scales, serde, threads) still runs on them.
#![cfg(feature = "serde")]

use ndarray::{Array1, Array2, ArrayRef2, array};
use ndlearn_bayes::{
    BernoulliNB, CategoricalNB, ComplementNB, FeatureModel, GaussianNB, KdeClassifier, LdaSolver,
    LinearDiscriminantAnalysis, MixedNB, MultinomialNB, QuadraticDiscriminantAnalysis, Shrinkage,
};
use ndlearn_core::stats::kde::{Bandwidth, KdeKernel};
use ndlearn_core::{Error, Fit, Labels, PartialFit, Predict, PredictProba, Result};
use ndlearn_testkit::Battery;
use ndlearn_testkit::conformance::Check;
use serde::{Deserialize, Serialize};

/// Feeds `|x|` (or `round(|x|)`) to the wrapped estimator.
struct NonNegative<E> {
    inner: E,
    round: bool,
}

#[derive(Serialize, Deserialize)]
struct NonNegativeModel<M> {
    inner: M,
    round: bool,
}

fn map(x: &ArrayRef2<f64>, round: bool) -> Array2<f64> {
    // finite rounded codes are capped at 40 so that every scale stays inside the fitted
    // categories (NaN and ∞ pass through, for the non-finite checks)
    x.mapv(|v| {
        if round && v.is_finite() {
            v.abs().round().min(40.0)
        } else {
            v.abs()
        }
    })
}

impl<E: Fit<f64, Target = Labels>> Fit<f64> for NonNegative<E> {
    type Target = Labels;
    type Model = NonNegativeModel<E::Model>;
    fn fit(&self, x: &ArrayRef2<f64>, y: &Labels) -> Result<Self::Model> {
        Ok(NonNegativeModel {
            inner: self.inner.fit(&map(x, self.round), y)?,
            round: self.round,
        })
    }
}

impl<M: Predict<f64, Output = Array1<usize>>> Predict<f64> for NonNegativeModel<M> {
    type Output = Array1<usize>;
    fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
        self.inner.predict(&map(x, self.round))
    }
}

fn non_negative<E>(inner: E) -> NonNegative<E> {
    NonNegative {
        inner,
        round: false,
    }
}

#[test]
fn gaussian_nb_conforms() {
    Battery::new("GaussianNB")
        .classifier(&GaussianNB::default())
        .assert_ok();
    // three given priors cannot describe a one-class fit: a typed `priors` error, checked in
    // `typed_errors`
    Battery::new("GaussianNB(priors)")
        .skip(Check::OneClass)
        .classifier(&GaussianNB::default().priors(Some(vec![0.2, 0.3, 0.5])))
        .assert_ok();
}

#[test]
fn count_models_conform() {
    Battery::new("MultinomialNB")
        .classifier(&non_negative(MultinomialNB::default()))
        .assert_ok();
    Battery::new("ComplementNB")
        .classifier(&non_negative(ComplementNB::default()))
        .assert_ok();
    Battery::new("ComplementNB(norm)")
        .classifier(&non_negative(ComplementNB::default().norm(true)))
        .assert_ok();
    Battery::new("BernoulliNB")
        .classifier(&BernoulliNB::default())
        .assert_ok();
    Battery::new("CategoricalNB")
        .classifier(&NonNegative {
            inner: CategoricalNB::default().min_categories(Some(41)),
            round: true,
        })
        .assert_ok();
}

#[test]
fn discriminant_analyses_conform() {
    for (name, est) in [
        ("LDA(svd)", LinearDiscriminantAnalysis::default()),
        (
            "LDA(lsqr)",
            LinearDiscriminantAnalysis::default().solver(LdaSolver::Lsqr),
        ),
        (
            "LDA(eigen, auto shrinkage)",
            LinearDiscriminantAnalysis::default()
                .solver(LdaSolver::Eigen)
                .shrinkage(Shrinkage::Auto),
        ),
    ] {
        Battery::new(name).classifier(&est).assert_ok();
    }
    Battery::new("QDA(reg 0.1)")
        .classifier(&QuadraticDiscriminantAnalysis::default().reg_param(0.1))
        .assert_ok();
    Battery::new("QDA")
        .classifier(&QuadraticDiscriminantAnalysis::default())
        .assert_ok();
}

#[test]
fn mixed_and_kde_models_conform() {
    // NaN is a missing value for MixedNB by design (checked in the notes' examples); ±∞ and
    // everything else still go through the battery
    Battery::new("MixedNB(Gaussian)")
        .skip(Check::NaN)
        .classifier(&MixedNB::default())
        .assert_ok();
    Battery::new("MixedNB(KDE)")
        .skip(Check::NaN)
        .classifier(&MixedNB::new(vec![FeatureModel::Kde {
            kernel: KdeKernel::Gaussian,
            bandwidth: Bandwidth::Fixed(0.5),
        }]))
        .assert_ok();
    Battery::new("KdeClassifier")
        .classifier(&KdeClassifier::default().bandwidth(Bandwidth::Fixed(1.0)))
        .assert_ok();
}

fn blobs32() -> (Array2<f32>, Array1<usize>) {
    let x = array![
        [1.0f32, 2.0, 0.0],
        [1.5, 1.0, 1.0],
        [0.5, 2.5, 0.0],
        [1.2, 1.7, 2.0],
        [0.8, 2.2, 1.0],
        [6.0, 7.0, 3.0],
        [6.5, 6.0, 4.0],
        [5.5, 7.5, 3.0],
        [6.2, 6.8, 5.0],
        [5.8, 7.2, 4.0]
    ];
    (x, array![0usize, 0, 0, 0, 0, 1, 1, 1, 1, 1])
}

fn close32(a: &Array2<f32>, b: &Array2<f64>, tol: f64) {
    for (x, y) in a.iter().zip(b.iter()) {
        assert!((f64::from(*x) - y).abs() < tol, "{x} vs {y}");
    }
}

#[test]
fn f32_fits_agree_with_f64() {
    let (x32, y) = blobs32();
    let x64 = x32.mapv(f64::from);
    let g32 = GaussianNB::default().fit(&x32, &y).expect("f32");
    let g64 = GaussianNB::default().fit(&x64, &y).expect("f64");
    close32(
        &g32.predict_proba(&x32).expect("f32"),
        &g64.predict_proba(&x64).expect("f64"),
        1e-4,
    );
    let m32 = MultinomialNB::default().fit(&x32, &y).expect("f32");
    let m64 = MultinomialNB::default().fit(&x64, &y).expect("f64");
    close32(
        &m32.predict_proba(&x32).expect("f32"),
        &m64.predict_proba(&x64).expect("f64"),
        1e-5,
    );
    let l32 = LinearDiscriminantAnalysis::default()
        .fit(&x32, &y)
        .expect("f32");
    let l64 = LinearDiscriminantAnalysis::default()
        .fit(&x64, &y)
        .expect("f64");
    close32(
        &l32.predict_proba(&x32).expect("f32"),
        &l64.predict_proba(&x64).expect("f64"),
        1e-4,
    );
    assert_eq!(
        l32.predict(&x32).expect("f32").to_vec(),
        y.to_vec(),
        "separable data"
    );
    let q32 = QuadraticDiscriminantAnalysis::default()
        .reg_param(0.05)
        .fit(&x32, &y)
        .expect("f32");
    assert_eq!(q32.predict(&x32).expect("f32").to_vec(), y.to_vec());
    let c32 = CategoricalNB::default()
        .fit(&x32.mapv(f32::round), &y)
        .expect("f32");
    assert_eq!(
        c32.predict(&x32.mapv(f32::round)).expect("f32").len(),
        x32.nrows()
    );
}

#[test]
fn typed_errors() {
    let (x, y) = blobs32();
    let x = x.mapv(f64::from);
    // negative counts
    let neg = &x - 3.0;
    assert!(matches!(
        MultinomialNB::default().fit(&neg, &y),
        Err(Error::InvalidParam { name: "x", .. })
    ));
    assert!(ComplementNB::default().fit(&neg, &y).is_err());
    // non-integer categories, unseen category at predict
    assert!(CategoricalNB::default().fit(&(&x + 0.5), &y).is_err());
    let cat = CategoricalNB::default()
        .fit(&x.mapv(f64::round), &y)
        .expect("fit");
    let err = cat.predict(&array![[9.0, 1.0, 0.0]]).expect_err("unseen");
    assert!(err.to_string().contains("category 9"), "{err}");
    // Bernoulli without binarisation needs 0/1
    assert!(BernoulliNB::default().binarize(None).fit(&x, &y).is_err());
    // priors
    assert!(
        GaussianNB::default()
            .priors(Some(vec![0.5, 0.6]))
            .fit(&x, &y)
            .is_err()
    );
    assert!(
        GaussianNB::default()
            .priors(Some(vec![1.0]))
            .fit(&x, &y)
            .is_err()
    );
    assert!(
        GaussianNB::default()
            .var_smoothing(-1.0)
            .fit(&x, &y)
            .is_err()
    );
    // zero variance without smoothing
    let mut c = x.clone();
    c.column_mut(2).fill(1.0);
    assert!(
        GaussianNB::default()
            .var_smoothing(0.0)
            .fit(&c, &y)
            .is_err()
    );
    // LDA settings
    assert!(
        LinearDiscriminantAnalysis::default()
            .shrinkage(Shrinkage::Auto)
            .fit(&x, &y)
            .is_err(),
        "svd + shrinkage"
    );
    assert!(
        LinearDiscriminantAnalysis::default()
            .solver(LdaSolver::Lsqr)
            .shrinkage(Shrinkage::Fixed(1.5))
            .fit(&x, &y)
            .is_err()
    );
    assert!(
        LinearDiscriminantAnalysis::default()
            .n_components(Some(2))
            .fit(&x, &y)
            .is_err()
    );
    assert!(
        LinearDiscriminantAnalysis::default()
            .fit(&x, &y.mapv(|_| 0))
            .is_err()
    );
    // QDA: singular class covariance without regularisation
    assert!(
        QuadraticDiscriminantAnalysis::default()
            .fit(&c, &y)
            .is_err()
    );
    assert!(
        QuadraticDiscriminantAnalysis::default()
            .reg_param(2.0)
            .fit(&x, &y)
            .is_err()
    );
    // streaming: a label beyond the classes of the first batch
    let first = GaussianNB::default()
        .partial_fit(None, &x, &y)
        .expect("first");
    let err = GaussianNB::default()
        .partial_fit(Some(first), &x, &y.mapv(|v| v + 1))
        .expect_err("new class");
    assert!(matches!(err, Error::InvalidLabel { .. }));
    // announced classes work
    let first = GaussianNB::default()
        .n_classes(Some(3))
        .partial_fit(None, &x, &y)
        .expect("first");
    let again = GaussianNB::default()
        .n_classes(Some(3))
        .partial_fit(Some(first), &x, &y.mapv(|v| v + 1))
        .expect("second");
    assert_eq!(again.class_count().len(), 3);
}
