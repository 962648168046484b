//! The conformance battery for the multiclass reductions (f64; f32 is covered by the golden and
//! property tests), with logistic regression as the base estimator.
#![cfg(feature = "serde")]

use ndlearn_linear::{
    CodeDecoding, LogisticRegression, OneVsOneClassifier, OneVsRestClassifier, ProbaScore,
    RandomBipartitionClassifier,
};
use ndlearn_testkit::Battery;

#[test]
fn one_vs_rest_conforms() {
    Battery::new("OneVsRestClassifier<LogisticRegression>")
        .classifier(&OneVsRestClassifier::new(LogisticRegression::default()))
        .assert_ok();
    Battery::new("OneVsRestClassifier<LogisticRegression>(sequential)")
        .classifier(&OneVsRestClassifier::new(LogisticRegression::default()).parallel(false))
        .assert_ok();
    Battery::new("OneVsRestClassifier<ProbaScore<LogisticRegression>>")
        .classifier(&OneVsRestClassifier::new(ProbaScore::new(
            LogisticRegression::default(),
        )))
        .assert_ok();
}

#[test]
fn one_vs_one_conforms() {
    Battery::new("OneVsOneClassifier<LogisticRegression>")
        .classifier(&OneVsOneClassifier::new(LogisticRegression::default()))
        .assert_ok();
}

#[test]
fn random_bipartition_conforms() {
    Battery::new("RandomBipartitionClassifier<LogisticRegression>")
        .classifier(&RandomBipartitionClassifier::new(LogisticRegression::default()).seed(3))
        .assert_ok();
    Battery::new("RandomBipartitionClassifier<LogisticRegression>(Hamming)")
        .classifier(
            &RandomBipartitionClassifier::new(LogisticRegression::default())
                .decoding(CodeDecoding::Hamming),
        )
        .assert_ok();
    Battery::new("RandomBipartitionClassifier<LogisticRegression>(L = 2)")
        .classifier(
            &RandomBipartitionClassifier::new(LogisticRegression::default())
                .n_bipartitions(Some(2)),
        )
        .assert_ok();
}
