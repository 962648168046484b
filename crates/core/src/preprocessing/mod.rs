//! Preprocessing (placeholder docs, rewritten below).

mod encoders;
mod label;
mod quantile;
mod robust;
mod scalers;

pub use encoders::{
    Categories, DropCategory, FittedOneHotEncoder, FittedOrdinalEncoder, HandleUnknown, OneHotEncoder,
    OrdinalEncoder, OrdinalUnknown,
};
pub use label::{FittedLabelEncoder, LabelEncoder};
pub use robust::{FittedMeanAbsDevScaler, FittedRobustScaler, MeanAbsDevScaler, RobustScaler};
pub use scalers::{
    FittedMaxAbsScaler, FittedMinMaxScaler, FittedNormalizer, FittedStandardScaler, MaxAbsScaler,
    MinMaxScaler, Norm, Normalizer, StandardScaler, center,
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
