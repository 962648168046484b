//! [`CrossMoments`]: count, means, centred `X_cᵀY_c`, `‖y_c‖²` and optionally `X_cᵀX_c`.

use super::bytes::{Reader, Writer};
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::linalg::{gemm, matmul};
use crate::stats::symmetrize;
use crate::validate::check_finite_2d;
use crate::{Float, Result, par};
use ndarray::{Array1, Array2, ArrayRef2, ArrayView2, Axis, s};

/// Rows per chunk of the fused pass (fixed: results do not depend on the thread count).
const PASS_CHUNK: usize = 2048;
/// Rows per block of the exact centred Gram product.
const GRAM_CHUNK: usize = 2048;
/// Up to this many targets the fused pass accumulates `Xᵀy` itself; beyond, a gemm does it.
const FUSED_TARGETS: usize = 8;
/// Byte-form tag.
const TAG: u8 = 1;

/// What a [`CrossMoments`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CrossSpec {
    /// Columns of `X`.
    pub n_features: usize,
    /// Columns of `Y` (0: the moments of `X` alone, e.g. a covariance).
    pub n_targets: usize,
    /// Centre on the means (a model with intercept); `false`: raw `XᵀY`, means kept at zero.
    pub centred: bool,
    /// Also accumulate `X_cᵀX_c` (`d × d`).
    pub gram: bool,
}

/// The moments of a regression problem or of a data matrix (see the
/// [module docs](super)): with `centred`, `X_c = X − 1x̄ᵀ`, `y_c = y − ȳ`.
///
/// In one block the products are computed as the linear models always have: one fused
/// parallel pass for the column sums and `Xᵀ(y − ȳ)` (which equals `X_cᵀy_c` and cancels
/// nothing), and one GEMM `XᵀX − n x̄x̄ᵀ` recomputed from centred row blocks when the rank-one
/// correction would lose more than a quarter of the digits of a diagonal entry
/// ([`centred_gram`]). Blocks merge by the centred-moment rule of the module docs.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CrossMoments<F: Float> {
    /// Number of rows.
    pub n: usize,
    /// Column means of `X` (zeros when not centred).
    pub x_mean: Array1<F>,
    /// Column means of `Y` (zeros when not centred).
    pub y_mean: Array1<F>,
    /// `X_cᵀY_c` (`d × t`).
    pub xty: Array2<F>,
    /// `‖y_c‖²` per target column.
    pub yty: Array1<F>,
    /// `X_cᵀX_c` (`d × d`, symmetric) when the spec asks for it.
    pub xtx: Option<Array2<F>>,
    /// Whether the moments are centred (the intercept is fitted).
    pub centred: bool,
}

impl<F: Float> CrossMoments<F> {
    /// The moments of all rows of `x` and `y` at once (`gram`: with `X_cᵀX_c`).
    ///
    /// # Errors
    /// [`Error::NonFinite`](crate::Error::NonFinite) with the position of the first NaN or
    /// infinity in `x` (the targets are the caller's to check).
    pub fn from_rows(
        x: &ArrayRef2<F>,
        y: &ArrayView2<'_, F>,
        centred: bool,
        gram: bool,
    ) -> Result<Self> {
        let mut m = column_sums_and_xty(x, y, centred)?;
        if gram {
            m.xtx = Some(centred_gram(x, &m.x_mean, centred));
        }
        Ok(m)
    }

    /// The spec these moments were built from.
    pub fn spec(&self) -> CrossSpec {
        CrossSpec {
            n_features: self.x_mean.len(),
            n_targets: self.y_mean.len(),
            centred: self.centred,
            gram: self.xtx.is_some(),
        }
    }

    /// The sample covariance `X_cᵀX_c / (n − ddof)` (`None` without the Gram matrix or with
    /// `n ≤ ddof`).
    pub fn covariance(&self, ddof: usize) -> Option<Array2<F>> {
        let g = self.xtx.as_ref()?;
        (self.n > ddof).then(|| g.mapv(|v| v / F::cast((self.n - ddof) as f64)))
    }
}

impl<F: Float> Mergeable<F> for CrossMoments<F> {
    type Spec = CrossSpec;

    fn zero(spec: &CrossSpec) -> Self {
        let (d, t) = (spec.n_features, spec.n_targets);
        Self {
            n: 0,
            x_mean: Array1::zeros(d),
            y_mean: Array1::zeros(t),
            xty: Array2::zeros((d, t)),
            yty: Array1::zeros(t),
            xtx: spec.gram.then(|| Array2::zeros((d, d))),
            centred: spec.centred,
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let spec = self.spec();
        block.check(spec.n_features, "CrossMoments::update")?;
        if block.weights.is_some() {
            return Err(crate::Error::invalid_param(
                "sample_weight",
                "CrossMoments takes unweighted rows (scale the rows by √w instead)",
            ));
        }
        if block.nrows() == 0 {
            return Ok(());
        }
        let empty;
        let y = if spec.n_targets == 0 && block.y.is_none() {
            empty = Array2::<F>::zeros((block.nrows(), 0));
            empty.view()
        } else {
            block.require_targets(spec.n_targets, "CrossMoments::update")?
        };
        let part = Self::from_rows(&block.x, &y, spec.centred, spec.gram)?;
        self.merge(&part)
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.spec() != other.spec() {
            return Err(spec_mismatch(
                "CrossMoments::merge",
                format!("{:?}", self.spec()),
                format!("{:?}", other.spec()),
            ));
        }
        if other.n == 0 {
            return Ok(());
        }
        if self.n == 0 {
            *self = other.clone();
            return Ok(());
        }
        if !self.centred {
            self.n += other.n;
            self.xty += &other.xty;
            self.yty += &other.yty;
            if let (Some(a), Some(b)) = (self.xtx.as_mut(), other.xtx.as_ref()) {
                *a += b;
            }
            return Ok(());
        }
        let (na, nb) = (F::cast(self.n as f64), F::cast(other.n as f64));
        let n = na + nb;
        let f = na * nb / n;
        let dx = &other.x_mean - &self.x_mean;
        let dy = &other.y_mean - &self.y_mean;
        let wb = nb / n;
        self.x_mean.zip_mut_with(&dx, |m, &v| *m += wb * v);
        self.y_mean.zip_mut_with(&dy, |m, &v| *m += wb * v);
        self.xty += &other.xty;
        for ((j, t), v) in self.xty.indexed_iter_mut() {
            *v += f * dx[j] * dy[t];
        }
        self.yty += &other.yty;
        self.yty.zip_mut_with(&dy, |s, &v| *s += f * v * v);
        if let (Some(a), Some(b)) = (self.xtx.as_mut(), other.xtx.as_ref()) {
            *a += b;
            for ((i, j), v) in a.indexed_iter_mut() {
                *v += f * dx[i] * dx[j];
            }
            symmetrize(a);
        }
        self.n += other.n;
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n as u64
    }

    fn encode(&self) -> Vec<u8> {
        Writer::new(TAG)
            .u64(self.n as u64)
            .u64(u64::from(self.centred))
            .array1(&self.x_mean)
            .array1(&self.y_mean)
            .array2(&self.xty)
            .array1(&self.yty)
            .opt_array2(self.xtx.as_ref())
            .finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "CrossMoments")?;
        let n = usize::try_from(r.u64()?).map_err(|_| r.inconsistent("row count"))?;
        let centred = r.u64()? == 1;
        let m = Self {
            n,
            centred,
            x_mean: r.array1()?,
            y_mean: r.array1()?,
            xty: r.array2()?,
            yty: r.array1()?,
            xtx: r.opt_array2()?,
        };
        r.end()?;
        let (d, t) = (m.x_mean.len(), m.y_mean.len());
        let gram_ok = m.xtx.as_ref().is_none_or(|g| g.dim() == (d, d));
        if m.xty.dim() != (d, t) || m.yty.len() != t || !gram_ok {
            return Err(r.inconsistent("array shapes disagree"));
        }
        Ok(m)
    }
}

/// Pass 1 of [`CrossMoments::from_rows`]: target means, column sums of `X` and `Xᵀ(y − ȳ)`;
/// errors with the position of the first non-finite entry of `X`.
fn column_sums_and_xty<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayView2<'_, F>,
    centred: bool,
) -> Result<CrossMoments<F>> {
    let (n, d) = x.dim();
    let k = y.ncols();
    let nf = F::cast(n);
    let y_mean = if centred {
        y.sum_axis(Axis(0)).mapv(|s| s / nf)
    } else {
        Array1::zeros(k)
    };
    let mut yc = y.to_owned();
    if centred {
        yc -= &y_mean;
    }
    let yty = Array1::from_iter(yc.columns().into_iter().map(|c| c.dot(&c)));
    let fused = k <= FUSED_TARGETS && x.is_standard_layout();
    let (sums, xty) = if fused {
        fused_pass(x, &yc)
    } else {
        let sums = x.sum_axis(Axis(0));
        let xty = if sums.iter().all(|v| v.is_finite()) {
            matmul(&x.t(), &yc)
        } else {
            Array2::zeros((d, k))
        };
        (sums, xty)
    };
    if !sums.iter().all(|v| v.is_finite()) {
        // A NaN/inf entry, or finite values whose sum overflows (then the solvers report it).
        check_finite_2d(x, "X")?;
    }
    let x_mean = if centred {
        sums.mapv(|s| s / nf)
    } else {
        Array1::zeros(d)
    };
    Ok(CrossMoments {
        n,
        x_mean,
        y_mean,
        xty,
        yty,
        xtx: None,
        centred,
    })
}

/// Column sums and `Xᵀ yc` in one parallel pass over the rows of a standard-layout `X`.
fn fused_pass<F: Float>(x: &ArrayRef2<F>, yc: &Array2<F>) -> (Array1<F>, Array2<F>) {
    let (_, d) = x.dim();
    let k = yc.ncols();
    let parts = par::map_row_chunks(x, PASS_CHUNK, |rows, view| {
        let mut sums = vec![F::zero(); d];
        let mut sxy = vec![F::zero(); d * k];
        for (row, i) in view.rows().into_iter().zip(rows) {
            let Some(r) = row.to_slice() else {
                continue; // unreachable: rows of a standard-layout matrix are contiguous
            };
            for (s, &v) in sums.iter_mut().zip(r) {
                *s += v;
            }
            for t in 0..k {
                let yv = yc[[i, t]];
                for (s, &v) in sxy[t * d..(t + 1) * d].iter_mut().zip(r) {
                    *s += v * yv;
                }
            }
        }
        (sums, sxy)
    });
    let mut sums = Array1::zeros(d);
    let mut xty = Array2::zeros((d, k));
    for (ps, pxy) in parts {
        for (s, v) in sums.iter_mut().zip(ps) {
            *s += v;
        }
        for t in 0..k {
            for j in 0..d {
                xty[[j, t]] += pxy[t * d + j];
            }
        }
    }
    (sums, xty)
}

/// `X_cᵀX_c` (`centred`, `mean` the column means of `x`) or `XᵀX`, symmetric.
///
/// One GEMM and the rank-one correction `− n x̄x̄ᵀ`; the correction cancels digits when a
/// column's mean is large against its spread (column `j` loses about `log₁₀(G_raw,jj / G_c,jj)`
/// digits), so when any column would lose more than a quarter of them (`G_c,jj < ε^{1/4}
/// G_raw,jj`, about 4 digits in `f64`) the matrix is recomputed exactly from centred blocks of
/// 2,048 rows (memory `O(2048·d)`).
pub fn centred_gram<F: Float>(x: &ArrayRef2<F>, mean: &Array1<F>, centred: bool) -> Array2<F> {
    let mut g = crate::linalg::gram(x);
    if centred {
        let raw_diag = g.diag().to_owned();
        let nf = F::cast(x.nrows());
        for i in 0..g.nrows() {
            let a = nf * mean[i];
            for j in 0..g.ncols() {
                g[[i, j]] -= a * mean[j];
            }
        }
        let limit = F::epsilon().sqrt().sqrt();
        let cancels = g
            .diag()
            .iter()
            .zip(raw_diag.iter())
            .any(|(&c, &r)| r > F::zero() && (c.is_nan() || c < limit * r));
        if cancels {
            g = centred_gram_exact(x, mean);
        }
    }
    symmetrize(&mut g);
    g
}

/// `X_cᵀX_c` from centred blocks of [`GRAM_CHUNK`] rows (one gemm per block).
fn centred_gram_exact<F: Float>(x: &ArrayRef2<F>, mean: &Array1<F>) -> Array2<F> {
    let (n, d) = x.dim();
    let mut g = Array2::zeros((d, d));
    let mut buf = Array2::zeros((GRAM_CHUNK.min(n), d));
    let mut start = 0;
    while start < n {
        let end = (start + GRAM_CHUNK).min(n);
        let mut b = buf.slice_mut(s![..end - start, ..]);
        b.assign(&x.slice(s![start..end, ..]));
        b -= mean;
        gemm(F::one(), &b.t(), &b, F::one(), &mut g);
        start = end;
    }
    g
}
