//! The preprocessing transformers by name, for the `ndlearn` command line and the bench runner
//! (see [`crate::registry`]).

use crate::registry::Entry;

use super::{
    KBinsDiscretizer, MaxAbsScaler, MeanAbsDevScaler, MinMaxScaler, Normalizer, OneHotEncoder,
    OrdinalEncoder, PolynomialFeatures, RobustScaler, SimpleImputer, SplineTransformer,
    StandardScaler, TfidfTransformer,
};

/// Every preprocessing transformer that fits on a numeric matrix, once.
pub fn registry() -> Vec<Entry> {
    vec![
        Entry::invertible_transformer::<StandardScaler>(
            "standard_scaler",
            "z-scores: subtract the training mean, divide by the training standard deviation",
        )
        .sklearn("StandardScaler")
        .weighted_unsupervised()
        .into(),
        Entry::invertible_transformer::<MinMaxScaler>(
            "min_max_scaler",
            "map each column's training range onto feature_range",
        )
        .sklearn("MinMaxScaler")
        .into(),
        Entry::invertible_transformer::<MaxAbsScaler>(
            "max_abs_scaler",
            "divide each column by its largest absolute training value",
        )
        .sklearn("MaxAbsScaler")
        .into(),
        Entry::invertible_transformer::<RobustScaler>(
            "robust_scaler",
            "subtract the median, divide by the interquartile range",
        )
        .sklearn("RobustScaler")
        .into(),
        Entry::invertible_transformer::<MeanAbsDevScaler>(
            "mean_abs_dev_scaler",
            "the course notes' scaler: subtract the mean, divide by the mean absolute deviation",
        )
        .into(),
        Entry::transformer::<Normalizer>("normalizer", "scale each row to unit norm")
            .sklearn("Normalizer")
            .into(),
        Entry::invertible_transformer::<OneHotEncoder>(
            "one_hot_encoder",
            "one indicator column per category of integer-coded columns",
        )
        .sklearn("OneHotEncoder")
        .refuses_unseen()
        .into(),
        Entry::invertible_transformer::<OrdinalEncoder>(
            "ordinal_encoder",
            "categories to 0..k-1 per column",
        )
        .sklearn("OrdinalEncoder")
        .refuses_unseen()
        .into(),
        Entry::invertible_transformer::<KBinsDiscretizer>(
            "k_bins_discretizer",
            "bin each column (uniform, quantile or k-means edges)",
        )
        .sklearn("KBinsDiscretizer")
        .into(),
        Entry::transformer::<SimpleImputer>(
            "simple_imputer",
            "replace NaN by the column mean, median, most frequent value or a constant",
        )
        .sklearn("SimpleImputer")
        .missing_values()
        .into(),
        Entry::transformer::<PolynomialFeatures>(
            "polynomial_features",
            "all monomials of the columns up to a degree",
        )
        .sklearn("PolynomialFeatures")
        .into(),
        Entry::transformer::<SplineTransformer>(
            "spline_transformer",
            "B-spline basis of each column",
        )
        .sklearn("SplineTransformer")
        .into(),
        Entry::transformer::<TfidfTransformer>(
            "tfidf_transformer",
            "term counts to TF-IDF weights",
        )
        .sklearn("TfidfTransformer")
        .non_negative_input()
        .into(),
    ]
}
