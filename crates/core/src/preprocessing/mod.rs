//! Preprocessing: scaling, encoding, binning, imputation, feature expansions and text features.
//!
//! Every transformer follows the estimator pattern: a hyperparameter struct implementing
//! [`FitUnsupervised`](crate::FitUnsupervised) whose `fit` returns a fitted struct implementing
//! [`Transform`](crate::Transform) (and [`InverseTransform`](crate::InverseTransform) where the
//! map can be undone). Fitted transformers check the feature count and finiteness of their
//! input (NaN is accepted only by [`SimpleImputer`]), and serialise with serde.
//!
//! | transformer | what | scikit-learn | inverse |
//! |---|---|---|---|
//! | [`StandardScaler`] | `(x − μ)/σ`, `σ` with divisor `n`, optional weights | `StandardScaler` | yes |
//! | [`center`] | `x − μ_train` for train and test | `StandardScaler(with_std=False)` | |
//! | [`MinMaxScaler`] | to `[lo, hi]` | `MinMaxScaler` | yes |
//! | [`MaxAbsScaler`] | `x / max|x|` | `MaxAbsScaler` | yes |
//! | [`RobustScaler`] | `(x − median)/IQR` | `RobustScaler` | yes |
//! | [`MeanAbsDevScaler`] | `(x − mean)/mean|x − mean|` (the course notes) | — | yes |
//! | [`Normalizer`] | rows to unit `l1`/`l2`/`max` norm | `Normalizer` | |
//! | [`OneHotEncoder`] | indicator columns per category | `OneHotEncoder` (dense) | yes |
//! | [`OrdinalEncoder`] | category → rank | `OrdinalEncoder` | yes |
//! | [`LabelEncoder`] | any `Ord` labels ↔ `0..k` | `LabelEncoder` | yes |
//! | [`KBinsDiscretizer`] | uniform / quantile / k-means bins, ordinal or one-hot | `KBinsDiscretizer` | bin centres |
//! | [`SimpleImputer`] | NaN → mean / median / mode / constant | `SimpleImputer` | |
//! | [`ColumnTransformer`] | per-column-group chains (impute, scale, encode), outputs side by side | `compose.ColumnTransformer` | |
//! | [`PolynomialFeatures`] | monomials up to a degree | `PolynomialFeatures` | |
//! | [`VandermondeFeatures`], [`vandermonde`] | `[1, x, …, xᵖ]` per feature | `np.vander(increasing=True)` | |
//! | [`GaussianRbfFeatures`], [`gaussian_rbf`] | `exp(−(x − μ)²/2σ²)` per centre | — | |
//! | [`FourierFeatures`], [`fourier`] | `1, sin kωx, cos kωx` | — | |
//! | [`SquareEmbedding`], [`RadiusEmbedding`] | `(x, x²)`, `(x, Σx²)` (the course notes) | — | |
//! | [`SplineTransformer`] | B-spline basis, any extrapolation, repeated knots | `SplineTransformer` | |
//! | [`TfidfTransformer`] | counts → TF-IDF | `TfidfTransformer` | |
//! | [`CountVectorizer`], [`tokenize`] | documents → token counts | `CountVectorizer` (default tokens) | |
//!
//! # Fit on training data only
//!
//! Every statistic (means, scales, quantiles, categories, knots, idf) is learned by `fit` and
//! applied unchanged by `transform`. The course notes insist on it: "one should neither use
//! statistics of test set to normalize nor compute the statistics using the whole dataset
//! (training + test)" (see also Hastie, Tibshirani & Friedman, *The Elements of Statistical
//! Learning*, 2nd ed. (2009), §7.10.2, and the scikit-learn user guide: Common pitfalls, Data
//! leakage). Fit on the training split, transform train and test.
//!
//! # Conventions (implementation choices)
//!
//! * Results agree with scikit-learn 1.9.1 to `1e-12` (golden tests in
//!   `crates/core/tests/preprocessing_golden.rs`); deliberate differences are listed in each
//!   type's docs (NaN handling, sparse output, a few unimplemented options).
//! * Scale-like statistics below `10 ε` become 1 (scikit-learn's `_handle_zeros_in_scale`), so
//!   constant features map to a constant instead of dividing by zero; [`StandardScaler`] uses
//!   scikit-learn's variance-based constant test.
//! * Quantiles follow numpy: the `linear` method by default, `averaged_inverted_cdf` for
//!   [`KBinsDiscretizer`] (scikit-learn 1.9's default).
//! * Row-parallel work (the scalers' statistics and every transform) uses fixed row blocks and
//!   ordered reductions ([`crate::par`]): bitwise identical results for any thread count.
//! * Expansions whose output would overflow (`x^degree`, `x²`) return an error instead of `∞`.
//!
//! # References
//!
//! Catalog C-17 (scaling, centring, encoding: scikit-learn user guide, Preprocessing data;
//! mean-absolute-deviation standardisation and ordinal/ratio-scaled variables: L. Kaufman and
//! P. J. Rousseeuw, *Finding Groups in Data*, Wiley (1990), ch. 1), C-18 (basis expansions:
//! C. M. Bishop, *Pattern Recognition and Machine Learning* (2006), §3.1; T. Hastie,
//! R. Tibshirani and J. Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009),
//! ch. 5) and X-06 (TF-IDF: G. Salton and C. Buckley, "Term-weighting approaches in automatic
//! text retrieval", Information Processing & Management 24(5), 1988). B-splines: C. de Boor, *A
//! Practical Guide to Splines* (1978). Quantile definitions: R. J. Hyndman and Y. Fan, "Sample
//! quantiles in statistical packages", *The American Statistician* 50 (1996).

mod basis;
pub mod column;
mod discretize;
mod encoders;
mod impute;
mod label;
mod moments;
mod polynomial;
mod quantile;
#[cfg(feature = "serde")]
mod registry;
mod robust;
mod scalers;
mod spline;
mod text;

pub use basis::{
    FittedEmbedding, FittedFourierFeatures, FittedGaussianRbfFeatures, FittedVandermondeFeatures,
    FourierFeatures, Frequency, GaussianRbfFeatures, RadiusEmbedding, RbfCentres, RbfWidth,
    SquareEmbedding, VandermondeFeatures, fourier, gaussian_rbf, vandermonde,
};
pub use column::{
    ColumnGroup, ColumnStep, ColumnTransformer, FittedColumnStep, FittedColumnTransformer,
    Remainder,
};
pub use discretize::{
    BinEncode, BinQuantileMethod, BinStrategy, FittedKBinsDiscretizer, KBinsDiscretizer,
};
pub use encoders::{
    Categories, DropCategory, FittedOneHotEncoder, FittedOrdinalEncoder, HandleUnknown,
    OneHotEncoder, OrdinalEncoder, OrdinalUnknown,
};
pub use impute::{FittedSimpleImputer, ImputeStrategy, SimpleImputer};
pub use label::{FittedLabelEncoder, LabelEncoder};
pub use polynomial::{FittedPolynomialFeatures, PolynomialFeatures};
#[cfg(feature = "serde")]
pub use registry::registry;
pub use robust::{FittedMeanAbsDevScaler, FittedRobustScaler, MeanAbsDevScaler, RobustScaler};
pub use scalers::{
    FittedMaxAbsScaler, FittedMinMaxScaler, FittedNormalizer, FittedStandardScaler, MaxAbsScaler,
    MinMaxScaler, Norm, Normalizer, StandardScaler, center,
};
pub use spline::{Extrapolation, FittedSplineTransformer, SplineKnots, SplineTransformer};
pub use text::{
    CountVectorizer, FittedCountVectorizer, FittedTfidfTransformer, TfidfNorm, TfidfTransformer,
    tokenize,
};

use ndarray::{Array2, ArrayRef2};

use crate::{Float, Result, par, validate};

/// Input check of every fitted transformer: the feature count seen at fit, all finite.
pub(crate) fn check_fitted_input<F: Float>(
    x: &ArrayRef2<F>,
    n_features: usize,
    context: &'static str,
) -> Result<()> {
    validate::check_predict_input(x, n_features, context)
}

/// scikit-learn's `_handle_zeros_in_scale`: a scale below `10 ε` (absolute) becomes 1.
pub(crate) fn handle_zero_scale<F: Float>(s: F) -> F {
    if s < F::cast(10.0) * F::epsilon() {
        F::one()
    } else {
        s
    }
}

/// Rows per parallel block when `n_out` outputs are written per row (about 64k values, at
/// least 16 and at most 4,096 rows). Row maps are independent per row, so the block size never
/// changes results.
fn row_block(n_out: usize) -> usize {
    ((1usize << 16) / n_out.max(1)).clamp(16, 4096)
}

/// Maps each row of `x` to a row of `n_out` values, `f(input_row, output_row)`, in parallel over
/// fixed blocks of rows, writing into the (row-major) result in place. The output row is all
/// zeros when `f` is called.
pub(crate) fn map_rows<F, G>(x: &ArrayRef2<F>, n_out: usize, f: G) -> Array2<F>
where
    F: Float,
    G: Fn(&[F], &mut [F]) + Sync + Send,
{
    let (n, d) = x.dim();
    let mut out = Array2::<F>::zeros((n, n_out));
    if n == 0 || n_out == 0 {
        return out;
    }
    par::for_each_row_chunk_mut(&mut out, row_block(n_out), |rows, mut block| {
        let mut inbuf = vec![F::zero(); d];
        let mut outbuf = Vec::new();
        for (k, mut orow) in block.rows_mut().into_iter().enumerate() {
            let irow = x.row(rows.start + k);
            let input: &[F] = match irow.as_slice() {
                Some(s) => s,
                None => {
                    for (b, v) in inbuf.iter_mut().zip(irow.iter()) {
                        *b = *v;
                    }
                    &inbuf
                }
            };
            match orow.as_slice_mut() {
                Some(o) => f(input, o),
                None => {
                    outbuf.clear();
                    outbuf.resize(n_out, F::zero());
                    f(input, &mut outbuf);
                    for (o, v) in orow.iter_mut().zip(&outbuf) {
                        *o = *v;
                    }
                }
            }
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{FitUnsupervised, Transform};

    #[test]
    fn views_with_any_layout_give_the_same_rows() {
        // A transposed (column-major) view and a strided slice go through the copy path.
        let a = Array2::from_shape_fn((5, 3), |(i, j)| (i * 3 + j) as f64 * 0.5 - 2.0);
        let t = a.t().as_standard_layout().into_owned();
        let view = t.t();
        assert!(view.row(0).as_slice().is_none());
        let p = PolynomialFeatures::new(2).fit(&a).expect("fit");
        assert_eq!(p.transform(&view).expect("t"), p.transform(&a).expect("t"));
        let wide = Array2::from_shape_fn((5, 6), |(i, j)| (i * 3 + j / 2) as f64 * 0.5 - 2.0);
        let strided = wide.slice(ndarray::s![.., ..;2]);
        let s = StandardScaler::default().fit(&strided).expect("fit");
        let direct = StandardScaler::default().fit(&a).expect("fit");
        assert_eq!(
            s.transform(&strided).expect("t"),
            direct.transform(&a).expect("t")
        );
        assert_eq!(handle_zero_scale(1e-20f64), 1.0);
        assert_eq!(handle_zero_scale(0.5f32), 0.5);
    }

    #[test]
    fn f32_matches_f64() {
        let a = Array2::from_shape_fn((40, 3), |(i, j)| ((i * 7 + j * 3) % 11) as f64 * 0.3 - 1.0);
        let a32 = a.mapv(|v| v as f32);
        let z64 = StandardScaler::default()
            .fit(&a)
            .expect("fit")
            .transform(&a)
            .expect("t");
        let z32 = StandardScaler::default()
            .fit(&a32)
            .expect("fit")
            .transform(&a32)
            .expect("t");
        let d = z64
            .iter()
            .zip(&z32)
            .fold(0.0f64, |m, (x, y)| m.max((x - f64::from(*y)).abs()));
        assert!(d < 1e-5, "{d}");
        let s64 = SplineTransformer::default()
            .fit(&a)
            .expect("fit")
            .transform(&a)
            .expect("t");
        let s32 = SplineTransformer::default()
            .fit(&a32)
            .expect("fit")
            .transform(&a32)
            .expect("t");
        let d = s64
            .iter()
            .zip(&s32)
            .fold(0.0f64, |m, (x, y)| m.max((x - f64::from(*y)).abs()));
        assert!(d < 1e-5, "{d}");
    }
}
