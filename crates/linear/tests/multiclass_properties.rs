//! Properties of the multiclass reductions (`ndlearn_linear::multiclass`): the one-vs-rest code
//! reproduces one-vs-rest, accuracy well above chance, determinism in the seed and across
//! thread counts, probability-only base models through `ProbaScore`, shapes and sums.
// Some tests need the `serde` feature; without it their helpers and imports are unused.
#![cfg_attr(not(feature = "serde"), allow(unused))]

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::{
    DecisionFunction, Fit, Float, Labels, Predict, PredictProba, Result, par, random,
};
use ndlearn_linear::{
    CodeDecoding, FittedLogisticRegression, LogisticRegression, OneVsOneClassifier,
    OneVsRestClassifier, ProbaScore, RandomBipartitionClassifier,
};
use ndlearn_testkit::{assert_bitwise_eq, config, separable_blobs};
use proptest::prelude::*;

fn standardise(x: &Array2<f64>) -> Array2<f64> {
    let mean = x.mean_axis(Axis(0)).expect("rows");
    let std = x.std_axis(Axis(0), 0.0);
    (x - &mean) / &std
}

/// `k` Gaussian classes of `per` rows in `d` dimensions, centres 3 apart on random axes.
fn gaussian_classes(per: usize, d: usize, k: usize, seed: u64) -> (Array2<f64>, Array1<usize>) {
    let mut rng = random::rng(seed);
    let centres = Array2::from_shape_fn((k, d), |_| 3.0 * random::standard_normal::<f64>(&mut rng));
    let mut x = Array2::zeros((per * k, d));
    let mut y = Array1::zeros(per * k);
    for i in 0..per * k {
        let c = i % k;
        y[i] = c;
        for j in 0..d {
            x[[i, j]] = centres[[c, j]] + random::standard_normal::<f64>(&mut rng);
        }
    }
    (x, y)
}

fn accuracy(pred: &Array1<usize>, y: &Array1<usize>) -> f64 {
    pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / y.len() as f64
}

fn datasets() -> Vec<(&'static str, Array2<f64>, Array1<usize>)> {
    let iris = ndlearn_datasets::iris();
    let wine = ndlearn_datasets::wine();
    let (x8, y8) = gaussian_classes(30, 5, 8, 11);
    vec![
        (
            "iris",
            iris.x().clone(),
            iris.y_classes().expect("y").clone(),
        ),
        (
            "wine",
            standardise(wine.x()),
            wine.y_classes().expect("y").clone(),
        ),
        ("gauss8", x8, y8),
    ]
}

#[test]
fn identity_code_reproduces_one_vs_rest() {
    let lr = LogisticRegression::default().max_iter(500);
    for (name, x, y) in datasets() {
        let k = y.iter().max().expect("labels") + 1;
        let ovr = OneVsRestClassifier::new(lr.clone())
            .fit(&x, &y)
            .expect("ovr");
        let code = Array2::from_shape_fn((k, k), |(a, b)| a == b);
        for decoding in [CodeDecoding::Distance, CodeDecoding::Hamming] {
            let ecoc = RandomBipartitionClassifier::new(lr.clone())
                .decoding(decoding)
                .fit_with_code(&x, &y, &code)
                .expect("code");
            // Same sub-problems, same sub-models.
            assert_eq!(ecoc.estimators(), ovr.estimators(), "{name}");
            assert_eq!(
                ecoc.predict(&x).expect("p"),
                ovr.predict(&x).expect("p"),
                "{name} {decoding:?}"
            );
            // Also off the training rows: shifted and scaled copies.
            let shifted = x.mapv(|v| 0.7 * v + 0.3);
            assert_eq!(
                ecoc.predict(&shifted).expect("p"),
                ovr.predict(&shifted).expect("p"),
                "{name} {decoding:?} (shifted)"
            );
        }
    }
}

#[test]
fn every_reduction_is_well_above_chance() {
    let lr = LogisticRegression::default().max_iter(500);
    for (name, x, y) in datasets() {
        let k = (y.iter().max().expect("labels") + 1) as f64;
        let fits: Vec<(&str, Array1<usize>)> = vec![
            (
                "ovr",
                OneVsRestClassifier::new(lr.clone())
                    .fit(&x, &y)
                    .expect("fit")
                    .predict(&x)
                    .expect("p"),
            ),
            (
                "ovo",
                OneVsOneClassifier::new(lr.clone())
                    .fit(&x, &y)
                    .expect("fit")
                    .predict(&x)
                    .expect("p"),
            ),
            (
                "bipartition",
                RandomBipartitionClassifier::new(lr.clone())
                    .seed(3)
                    .fit(&x, &y)
                    .expect("fit")
                    .predict(&x)
                    .expect("p"),
            ),
            (
                "bipartition_hamming",
                RandomBipartitionClassifier::new(lr.clone())
                    .seed(3)
                    .decoding(CodeDecoding::Hamming)
                    .fit(&x, &y)
                    .expect("fit")
                    .predict(&x)
                    .expect("p"),
            ),
        ];
        for (how, pred) in fits {
            let acc = accuracy(&pred, &y);
            eprintln!("{name} {how}: training accuracy {acc:.4}");
            // Chance is 1/K. These classes are nearly linearly separable, so one-vs-rest,
            // one-vs-one and (K = 3: the exhaustive code, i.e. the one-vs-rest problems) the
            // bipartitions are near perfect. With 8 classes most random bipartitions are not
            // linearly separable, so a linear base model errs on some of the L = 30 problems
            // and the code corrects only part of it: ask for 4× chance there (measured: 0.80
            // with distance decoding, 0.74 with Hamming decoding, against 0.92 for one-vs-rest).
            let floor = if how.starts_with("bipartition") && k > 3.0 {
                4.0 / k
            } else {
                0.9
            };
            assert!(
                acc > floor,
                "{name} {how}: accuracy {acc} (chance {})",
                1.0 / k
            );
        }
    }
}

#[test]
fn seeds_fix_the_code_and_the_fit() {
    let (x, y) = gaussian_classes(20, 4, 8, 5);
    let est = RandomBipartitionClassifier::new(LogisticRegression::default()).seed(42);
    let a = est.fit(&x, &y).expect("a");
    let b = est.fit(&x, &y).expect("b");
    assert_eq!(a, b);
    assert_eq!(a.code(), &est.code_matrix(8).expect("code"));
    assert_eq!(a.n_bipartitions(), 30); // ⌈10 log₂ 8⌉
    let c = est.clone().seed(43).fit(&x, &y).expect("c");
    assert_ne!(a.code(), c.code());
    // Fixed length, exhaustive cap.
    let short = est
        .clone()
        .n_bipartitions(Some(5))
        .fit(&x, &y)
        .expect("short");
    assert_eq!(short.n_bipartitions(), 5);
    let (x3, y3) = gaussian_classes(10, 2, 3, 1);
    let capped = est.n_bipartitions(Some(50)).fit(&x3, &y3).expect("capped");
    assert_eq!(capped.n_bipartitions(), 3);
}

#[cfg(feature = "serde")]
#[test]
fn any_thread_count_and_sequential_fits_are_bitwise_identical() {
    let (x, y) = gaussian_classes(25, 4, 6, 9);
    let lr = LogisticRegression::default();
    let run = |threads: usize, parallel: bool| {
        par::with_threads(threads, || -> Result<_> {
            let ovr = OneVsRestClassifier::new(lr.clone())
                .parallel(parallel)
                .fit(&x, &y)?;
            let ovo = OneVsOneClassifier::new(lr.clone())
                .parallel(parallel)
                .fit(&x, &y)?;
            let rb = RandomBipartitionClassifier::new(lr.clone())
                .parallel(parallel)
                .seed(5)
                .fit(&x, &y)?;
            Ok((
                ovr.predict_proba(&x)?,
                ovo.decision_function(&x)?,
                rb.decision_function(&x)?,
                // The sub-models (the hyperparameters differ in `parallel` only).
                serde_json::to_string(ovr.estimators()).expect("json"),
                serde_json::to_string(ovo.estimators()).expect("json"),
                serde_json::to_string(rb.estimators()).expect("json"),
            ))
        })
        .expect("pool")
        .expect("fit")
    };
    let base = run(1, false);
    for (threads, parallel) in [(1, true), (2, true), (3, true), (2, false)] {
        let other = run(threads, parallel);
        let ctx = format!("{threads} threads, parallel = {parallel}");
        assert_bitwise_eq(&other.0, &base.0, &ctx);
        assert_bitwise_eq(&other.1, &base.1, &ctx);
        assert_bitwise_eq(&other.2, &base.2, &ctx);
        assert_eq!(other.3, base.3, "{ctx}");
        assert_eq!(other.4, base.4, "{ctx}");
        assert_eq!(other.5, base.5, "{ctx}");
    }
}

/// A base estimator whose model has probabilities but no decision function.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct ProbaOnly(LogisticRegression);

#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct FittedProbaOnly<F: Float>(FittedLogisticRegression<F>);

impl<F: Float> Fit<F> for ProbaOnly {
    type Target = Labels;
    type Model = FittedProbaOnly<F>;
    fn fit(&self, x: &ArrayRef2<F>, y: &Labels) -> Result<FittedProbaOnly<F>> {
        Ok(FittedProbaOnly(self.0.fit(x, y)?))
    }
}

impl<F: Float> Predict<F> for FittedProbaOnly<F> {
    type Output = Array1<usize>;
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        self.0.predict(x)
    }
}

impl<F: Float> PredictProba<F> for FittedProbaOnly<F> {
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.0.predict_proba(x)
    }
}

#[test]
fn probability_only_models_work_through_proba_score() {
    let data = ndlearn_datasets::wine();
    let (x, y) = (standardise(data.x()), data.y_classes().expect("y").clone());
    let lr = LogisticRegression::default();
    let wrapped = ProbaScore::new(ProbaOnly(lr.clone()));
    // One-vs-rest: p₁ − ½ is increasing in the log-odds: same argmax, same probabilities.
    let a = OneVsRestClassifier::new(wrapped.clone())
        .fit(&x, &y)
        .expect("a");
    let b = OneVsRestClassifier::new(lr.clone()).fit(&x, &y).expect("b");
    assert_eq!(a.predict(&x).expect("p"), b.predict(&x).expect("p"));
    assert_bitwise_eq(
        &a.predict_proba(&x).expect("p"),
        &b.predict_proba(&x).expect("p"),
        "ovr proba",
    );
    let s = a.decision_function(&x).expect("scores");
    let p = b.predict_proba(&x).expect("p");
    assert!(s.iter().all(|v| v.abs() <= 0.5));
    // One-vs-one: same votes; ties broken by the summed p₁ − ½.
    let ovo = OneVsOneClassifier::new(wrapped.clone())
        .fit(&x, &y)
        .expect("ovo");
    let d = ovo.decision_function(&x).expect("d");
    let plain = OneVsOneClassifier::new(lr).fit(&x, &y).expect("plain");
    let dp = plain.decision_function(&x).expect("d");
    for (u, v) in d.iter().zip(dp.iter()) {
        assert_eq!(u.round(), v.round(), "votes differ");
    }
    assert!(accuracy(&ovo.predict(&x).expect("p"), &y) > 0.95);
    assert_eq!(p.nrows(), s.nrows());
    let rb = RandomBipartitionClassifier::new(wrapped)
        .fit(&x, &y)
        .expect("rb");
    assert!(accuracy(&rb.predict(&x).expect("p"), &y) > 0.95);
}

#[test]
fn f32_matches_f64_predictions() {
    let data = ndlearn_datasets::iris();
    let (x, y) = (data.x(), data.y_classes().expect("y"));
    let x32 = x.mapv(|v| v as f32);
    let lr = LogisticRegression::default();
    let p64 = RandomBipartitionClassifier::new(lr.clone())
        .fit(x, y)
        .expect("f64")
        .predict(x)
        .expect("p");
    let m32 = RandomBipartitionClassifier::new(lr)
        .fit(&x32, y)
        .expect("f32");
    let p32 = m32.predict(&x32).expect("p");
    let agree = p32.iter().zip(p64.iter()).filter(|(a, b)| a == b).count();
    assert!(agree >= 148, "f32 and f64 disagree on {} rows", 150 - agree);
    assert!(
        m32.decision_function(&x32)
            .expect("d")
            .iter()
            .all(|v| v.is_finite())
    );
}

proptest! {
    #![proptest_config(config(6))]

    #[test]
    fn shapes_sums_and_vote_counts((x, y) in separable_blobs(4..9, 2..4, 2..6)) {
        let k = y.iter().max().expect("labels") + 1;
        prop_assume!(k >= 2);
        let lr = LogisticRegression::default();
        let ovr = OneVsRestClassifier::new(lr.clone()).fit(&x, &y).expect("ovr");
        let p = ovr.predict_proba(&x).expect("proba");
        prop_assert_eq!(p.dim(), (x.nrows(), k));
        for row in p.rows() {
            prop_assert!((row.sum() - 1.0).abs() < 1e-12);
            prop_assert!(row.iter().all(|&v| (0.0..=1.0).contains(&v)));
        }
        let ovo = OneVsOneClassifier::new(lr.clone()).fit(&x, &y).expect("ovo");
        let d = ovo.decision_function(&x).expect("d");
        let width = if k == 2 { 1 } else { k };
        prop_assert_eq!(d.dim(), (x.nrows(), width));
        if k > 2 {
            // round(D_k) = votes_k: the tie-break term stays inside (−⅓, ⅓).
            for row in d.rows() {
                let votes: f64 = row.iter().map(|v| v.round()).sum();
                prop_assert_eq!(votes as usize, k * (k - 1) / 2);
                prop_assert!(row.iter().all(|v| (v - v.round()).abs() < 1.0 / 3.0));
            }
        }
        // Separable blobs: every reduction classifies the training rows correctly.
        prop_assert_eq!(ovo.predict(&x).expect("p"), y.clone());
        prop_assert_eq!(ovr.predict(&x).expect("p"), y.clone());
        let rb = RandomBipartitionClassifier::new(lr).fit(&x, &y).expect("rb");
        prop_assert_eq!(rb.predict(&x).expect("p"), y);
    }
}
