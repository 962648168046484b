//! Descriptive statistics over the rows of a data matrix (catalog CL-033).
//!
//! Columns are variables, rows are observations (as everywhere in ndlearn). `ddof` is the "delta
//! degrees of freedom": the divisor is `n - ddof`, so `ddof = 0` gives the maximum-likelihood
//! (biased, 1/N) estimate that the course notes' MLE formulas use, and `ddof = 1` the unbiased
//! 1/(N−1) estimate (numpy's `np.cov` default). Weighted versions use *reliability* weights with
//! the biased divisor `Σw` (numpy: `np.cov(x, aweights=w, bias=True)`).
//!
//! Means are computed first and subtracted before any second moment (two-pass), and covariance
//! products go through BLAS gemm.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

use crate::validate::{check_finite_1d, check_min_samples, check_sample_weight};
use crate::{Error, Float, Result};

/// Column means, `1/N Σᵢ xᵢ`. Errors on zero rows.
pub fn mean<F: Float>(x: &ArrayRef2<F>) -> Result<Array1<F>> {
    check_min_samples(x.nrows(), 1, "mean")?;
    let n = F::cast(x.nrows());
    Ok(x.sum_axis(Axis(0)) / n)
}

/// Column variances with divisor `n - ddof`. Errors unless `n > ddof`.
pub fn variance<F: Float>(x: &ArrayRef2<F>, ddof: usize) -> Result<Array1<F>> {
    check_min_samples(x.nrows(), ddof + 1, "variance")?;
    let m = mean(x)?;
    let d = F::cast(x.nrows() - ddof);
    let mut v = Array1::zeros(x.ncols());
    if let (Some(xs), Some(ms), Some(vs)) = (x.as_slice(), m.as_slice(), v.as_slice_mut()) {
        // contiguous rows: the same additions in the same order, without per-row iterators
        for row in xs.chunks_exact(ms.len().max(1)) {
            for ((vj, &xj), &mj) in vs.iter_mut().zip(row).zip(ms) {
                let c = xj - mj;
                *vj += c * c;
            }
        }
        return Ok(v / d);
    }
    for row in x.rows() {
        ndarray::Zip::from(&mut v)
            .and(&row)
            .and(&m)
            .for_each(|v, &xi, &mi| {
                let c = xi - mi;
                *v += c * c;
            });
    }
    Ok(v / d)
}

/// Mean of a vector. Errors when empty.
pub fn mean_1d<F: Float>(x: &ArrayRef1<F>) -> Result<F> {
    check_min_samples(x.len(), 1, "mean")?;
    Ok(x.sum() / F::cast(x.len()))
}

/// Variance of a vector with divisor `n - ddof`. Errors unless `n > ddof`.
pub fn variance_1d<F: Float>(x: &ArrayRef1<F>, ddof: usize) -> Result<F> {
    check_min_samples(x.len(), ddof + 1, "variance")?;
    let m = mean_1d(x)?;
    let ss: F = x.iter().map(|&v| (v - m) * (v - m)).sum();
    Ok(ss / F::cast(x.len() - ddof))
}

/// `x` with its column means subtracted, and the means.
pub fn center<F: Float>(x: &ArrayRef2<F>) -> Result<(Array2<F>, Array1<F>)> {
    let m = mean(x)?;
    let mut xc = x.to_owned();
    xc -= &m;
    Ok((xc, m))
}

/// Covariance matrix (`d × d`) of the columns of `x`: `(X − x̄)ᵀ(X − x̄) / (n − ddof)`.
pub fn covariance<F: Float>(x: &ArrayRef2<F>, ddof: usize) -> Result<Array2<F>> {
    check_min_samples(x.nrows(), ddof + 1, "covariance")?;
    let (xc, _) = center(x)?;
    let mut c = xc.t().dot(&xc);
    c /= F::cast(x.nrows() - ddof);
    symmetrize(&mut c);
    Ok(c)
}

/// Cross-covariance (`dx × dy`) between the columns of `x` and `y` (same rows):
/// `(X − x̄)ᵀ(Y − ȳ) / (n − ddof)`.
pub fn cross_covariance<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef2<F>,
    ddof: usize,
) -> Result<Array2<F>> {
    if x.nrows() != y.nrows() {
        return Err(Error::ShapeMismatch {
            context: "cross_covariance",
            expected: format!("{} rows in y (as in x)", x.nrows()),
            found: format!("{} rows", y.nrows()),
        });
    }
    check_min_samples(x.nrows(), ddof + 1, "cross_covariance")?;
    let (xc, _) = center(x)?;
    let (yc, _) = center(y)?;
    Ok(xc.t().dot(&yc) / F::cast(x.nrows() - ddof))
}

/// Pearson correlation matrix of the columns of `x`.
///
/// A constant column has no defined correlation: that is an [`Error::InvalidParam`] naming the
/// column, not a NaN in the output.
pub fn correlation<F: Float>(x: &ArrayRef2<F>) -> Result<Array2<F>> {
    let c = covariance(x, 0)?;
    let sd: Array1<F> = c.diag().mapv(|v| v.sqrt());
    if let Some(j) = sd.iter().position(|&s| s.is_nan() || s <= F::zero()) {
        return Err(Error::invalid_param(
            "x",
            format!("column {j} is constant; its correlation is undefined (drop the column)"),
        ));
    }
    let mut r = Array2::from_shape_fn(c.dim(), |(i, j)| c[[i, j]] / (sd[i] * sd[j]));
    for i in 0..r.nrows() {
        r[[i, i]] = F::one();
    }
    Ok(r.mapv(|v| v.max(-F::one()).min(F::one())))
}

/// Weighted column means `Σ wᵢ xᵢ / Σ wᵢ`. Weights non-negative with positive sum.
pub fn weighted_mean<F: Float>(x: &ArrayRef2<F>, w: &ArrayRef1<F>) -> Result<Array1<F>> {
    check_min_samples(x.nrows(), 1, "weighted_mean")?;
    check_sample_weight(w, x.nrows())?;
    let sw = w.sum();
    Ok(w.dot(x) / sw)
}

/// Weighted column variances `Σ wᵢ (xᵢ − x̄_w)² / Σ wᵢ` (biased, reliability weights).
pub fn weighted_variance<F: Float>(x: &ArrayRef2<F>, w: &ArrayRef1<F>) -> Result<Array1<F>> {
    let m = weighted_mean(x, w)?;
    let mut xc = x.to_owned();
    xc -= &m;
    let sq = xc.mapv(|v| v * v);
    Ok(w.dot(&sq) / w.sum())
}

/// Weighted covariance `Σ wᵢ (xᵢ − x̄_w)(xᵢ − x̄_w)ᵀ / Σ wᵢ` (biased, reliability weights).
pub fn weighted_covariance<F: Float>(x: &ArrayRef2<F>, w: &ArrayRef1<F>) -> Result<Array2<F>> {
    let m = weighted_mean(x, w)?;
    let mut xc = x.to_owned();
    xc -= &m;
    let mut xw = xc.clone();
    for (mut row, &wi) in xw.rows_mut().into_iter().zip(w.iter()) {
        row *= wi;
    }
    let mut c = xw.t().dot(&xc);
    c /= w.sum();
    symmetrize(&mut c);
    Ok(c)
}

/// Weighted mean of a vector.
pub fn weighted_mean_1d<F: Float>(x: &ArrayRef1<F>, w: &ArrayRef1<F>) -> Result<F> {
    check_min_samples(x.len(), 1, "weighted_mean")?;
    check_finite_1d(x, "x")?;
    check_sample_weight(w, x.len())?;
    Ok(x.dot(w) / w.sum())
}

/// Makes a matrix exactly symmetric by averaging it with its transpose (removes the last-bit
/// asymmetry a gemm can leave), so that eigen-solvers see a symmetric input.
pub fn symmetrize<F: Float>(a: &mut Array2<F>) {
    let n = a.nrows().min(a.ncols());
    let half = F::cast(0.5);
    for i in 0..n {
        for j in (i + 1)..n {
            let v = (a[[i, j]] + a[[j, i]]) * half;
            a[[i, j]] = v;
            a[[j, i]] = v;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn moments_by_hand() {
        let x: Array2<f64> = array![[1.0, 2.0], [3.0, 6.0], [5.0, 10.0]];
        assert_eq!(mean(&x).ok(), Some(array![3.0, 6.0]));
        assert_eq!(variance(&x, 0).ok(), Some(array![8.0 / 3.0, 32.0 / 3.0]));
        assert_eq!(variance(&x, 1).ok(), Some(array![4.0, 16.0]));
        let c = covariance(&x, 1).expect("3 rows");
        assert_eq!(c, array![[4.0, 8.0], [8.0, 16.0]]);
        let r = correlation(&x).expect("non-constant");
        assert!((r[[0, 1]] - 1.0).abs() < 1e-15);
        let cc = cross_covariance(&x, &x.slice(ndarray::s![.., 1..]).to_owned(), 1).expect("ok");
        assert_eq!(cc, array![[8.0], [16.0]]);
        assert_eq!(mean_1d(&array![1.0f32, 2.0, 6.0]).ok(), Some(3.0));
        assert_eq!(variance_1d(&array![1.0, 3.0], 1).ok(), Some(2.0));
    }

    #[test]
    fn errors() {
        let empty = Array2::<f64>::zeros((0, 2));
        assert!(matches!(mean(&empty), Err(Error::TooFewSamples { .. })));
        let one: Array2<f64> = array![[1.0, 2.0]];
        assert!(variance(&one, 1).is_err());
        assert!(variance(&one, 0).is_ok());
        let constant: Array2<f64> = array![[1.0, 2.0], [1.0, 3.0]];
        assert!(matches!(
            correlation(&constant),
            Err(Error::InvalidParam { .. })
        ));
        assert!(cross_covariance(&one, &constant, 0).is_err());
        assert!(weighted_mean(&one, &array![-1.0]).is_err());
    }

    #[test]
    fn weights_reduce_to_repetition() {
        // Integer weights equal repeating rows (biased estimates).
        let x: Array2<f64> = array![[1.0, 0.0], [2.0, 1.0], [4.0, -1.0]];
        let w = array![1.0, 2.0, 1.0];
        let rep: Array2<f64> = array![[1.0, 0.0], [2.0, 1.0], [2.0, 1.0], [4.0, -1.0]];
        let wm = weighted_mean(&x, &w).expect("ok");
        let wv = weighted_variance(&x, &w).expect("ok");
        let wc = weighted_covariance(&x, &w).expect("ok");
        assert!(
            (wm - mean(&rep).expect("ok"))
                .iter()
                .all(|d| d.abs() < 1e-15)
        );
        assert!(
            (wv - variance(&rep, 0).expect("ok"))
                .iter()
                .all(|d| d.abs() < 1e-14)
        );
        assert!(
            (wc - covariance(&rep, 0).expect("ok"))
                .iter()
                .all(|d| d.abs() < 1e-14)
        );
        assert_eq!(
            weighted_mean_1d(&array![1.0, 3.0], &array![3.0, 1.0]).ok(),
            Some(1.5)
        );
    }
}
