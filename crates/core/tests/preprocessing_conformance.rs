//! The estimator conformance battery for every transformer of `preprocessing`.
//!
//! Skips, each with its reason:
//! * `SimpleImputer`: `Check::NaN` (NaN is the missing-value marker it exists to accept; ±∞ is
//!   still rejected and `Check::Inf` runs).
//! * Encoders with `handle_unknown = Error`: `ConstantColumns` and `SerdeRoundTrip` transform data
//!   whose values were not seen at fit, which must be an error in that mode; the same encoders
//!   run the full battery with the unknown-tolerant setting.
//!
//! `LabelEncoder` and `CountVectorizer` take labels / documents, not matrices, so the battery
//! does not apply; their error paths are unit-tested.

use ndlearn_core::preprocessing::*;
use ndlearn_testkit::{Battery, Check};

#[test]
fn scalers_conform() {
    Battery::new("StandardScaler")
        .transformer(&StandardScaler::default())
        .assert_ok();
    Battery::new("StandardScaler(with_mean=false)")
        .transformer(&StandardScaler::new().with_mean(false))
        .assert_ok();
    Battery::new("StandardScaler(with_std=false)")
        .transformer(&StandardScaler::new().with_std(false))
        .assert_ok();
    Battery::new("MinMaxScaler")
        .transformer(&MinMaxScaler::default())
        .assert_ok();
    Battery::new("MinMaxScaler(clip)")
        .transformer(&MinMaxScaler::default().feature_range(-2.0, 3.0).clip(true))
        .assert_ok();
    Battery::new("MaxAbsScaler")
        .transformer(&MaxAbsScaler::new())
        .assert_ok();
    Battery::new("RobustScaler")
        .transformer(&RobustScaler::default())
        .assert_ok();
    Battery::new("RobustScaler(10, 90)")
        .transformer(&RobustScaler::default().quantile_range(10.0, 90.0))
        .assert_ok();
    Battery::new("MeanAbsDevScaler")
        .transformer(&MeanAbsDevScaler::new())
        .assert_ok();
    for norm in [Norm::L1, Norm::L2, Norm::Max] {
        Battery::new(&format!("Normalizer({norm:?})"))
            .transformer(&Normalizer::new(norm))
            .assert_ok();
    }
}

#[test]
fn encoders_conform() {
    for drop in [
        DropCategory::None,
        DropCategory::First,
        DropCategory::IfBinary,
    ] {
        Battery::new(&format!("OneHotEncoder(ignore, {drop:?})"))
            .transformer(
                &OneHotEncoder::default()
                    .drop(drop)
                    .handle_unknown(HandleUnknown::Ignore),
            )
            .assert_ok();
    }
    // Unknown categories must be errors in this mode (see the module docs).
    Battery::new("OneHotEncoder(error)")
        .skip(Check::ConstantColumns)
        .skip(Check::SerdeRoundTrip)
        .transformer(&OneHotEncoder::default())
        .assert_ok();
    Battery::new("OrdinalEncoder(encoded value)")
        .transformer(
            &OrdinalEncoder::default().handle_unknown(OrdinalUnknown::UseEncodedValue(-1.0)),
        )
        .assert_ok();
    Battery::new("OrdinalEncoder(error)")
        .skip(Check::ConstantColumns)
        .skip(Check::SerdeRoundTrip)
        .transformer(&OrdinalEncoder::default())
        .assert_ok();
}

#[test]
fn discretizer_and_imputer_conform() {
    for strategy in [
        BinStrategy::Uniform,
        BinStrategy::Quantile,
        BinStrategy::KMeans,
    ] {
        for encode in [BinEncode::Ordinal, BinEncode::OneHot] {
            Battery::new(&format!("KBinsDiscretizer({strategy:?}, {encode:?})"))
                .transformer(&KBinsDiscretizer::new(4).strategy(strategy).encode(encode))
                .assert_ok();
        }
    }
    for strategy in [
        ImputeStrategy::Mean,
        ImputeStrategy::Median,
        ImputeStrategy::MostFrequent,
        ImputeStrategy::Constant(0.5),
    ] {
        // NaN is the missing-value marker: it must be accepted, not rejected.
        Battery::new(&format!("SimpleImputer({strategy:?})"))
            .skip(Check::NaN)
            .transformer(&SimpleImputer::new(strategy))
            .assert_ok();
    }
}

#[test]
fn expansions_conform() {
    Battery::new("PolynomialFeatures(2)")
        .transformer(&PolynomialFeatures::new(2))
        .assert_ok();
    Battery::new("PolynomialFeatures(3, interactions, no bias)")
        .transformer(
            &PolynomialFeatures::new(3)
                .interaction_only(true)
                .include_bias(false),
        )
        .assert_ok();
    Battery::new("PolynomialFeatures(2..=3)")
        .transformer(&PolynomialFeatures::new(3).min_degree(2))
        .assert_ok();
    Battery::new("VandermondeFeatures")
        .transformer(&VandermondeFeatures::new(3))
        .assert_ok();
    Battery::new("GaussianRbfFeatures")
        .transformer(&GaussianRbfFeatures::default())
        .assert_ok();
    Battery::new("GaussianRbfFeatures(quantiles, gamma)")
        .transformer(
            &GaussianRbfFeatures::default()
                .centres(RbfCentres::Quantiles(4))
                .width(RbfWidth::Gamma(0.5))
                .include_bias(true),
        )
        .assert_ok();
    Battery::new("FourierFeatures")
        .transformer(&FourierFeatures::new(3))
        .assert_ok();
    Battery::new("SquareEmbedding")
        .transformer(&SquareEmbedding::new())
        .assert_ok();
    Battery::new("RadiusEmbedding")
        .transformer(&RadiusEmbedding::new())
        .assert_ok();
}

#[test]
fn splines_conform() {
    for extrapolation in [
        Extrapolation::Constant,
        Extrapolation::Linear,
        Extrapolation::Continue,
        Extrapolation::Periodic,
    ] {
        for knots in [SplineKnots::Uniform, SplineKnots::Quantile] {
            Battery::new(&format!("SplineTransformer({extrapolation:?}, {knots:?})"))
                .transformer(
                    &SplineTransformer::new(5, 3)
                        .knots(knots)
                        .extrapolation(extrapolation),
                )
                .assert_ok();
        }
    }
    Battery::new("SplineTransformer(Error)")
        .transformer(&SplineTransformer::new(4, 2).extrapolation(Extrapolation::Error))
        .assert_ok();
}

#[test]
fn tfidf_conforms() {
    Battery::new("TfidfTransformer")
        .transformer(&TfidfTransformer::default())
        .assert_ok();
    Battery::new("TfidfTransformer(l1, raw idf)")
        .transformer(
            &TfidfTransformer::default()
                .norm(TfidfNorm::L1)
                .smooth_idf(false),
        )
        .assert_ok();
}
