//! A kernel bound to its training rows, for solvers that ask for kernel rows many times (SMO,
//! kernel ridge, kernel k-means): the data are validated and the row norms and the diagonal
//! computed once; every row afterwards costs `O(n d)` with no input rescans.

use std::borrow::Cow;

use ndarray::{Array1, Array2, ArrayRef2, ArrayView1};

use super::{Kernel, gram, powi_degree};
use crate::validate::check_finite_2d;
use rayon::prelude::*;

use crate::{Error, Float, Result, numeric, par};

/// Rows per parallel task of [`PreparedKernel::rows`].
const ROWS_CHUNK: usize = 16;

/// The leaves computed directly (composite kernels go through [`Kernel`]'s own evaluation).
#[derive(Debug, Clone, Copy)]
enum Leaf<F> {
    Linear,
    Polynomial { gamma: F, coef0: F, degree: i32 },
    Rbf { neg_gamma: F },
    Laplacian { neg_gamma: F },
    Sigmoid { gamma: F, coef0: F },
}

#[derive(Debug, Clone)]
enum Source<'a, F: Float> {
    /// Training rows (row-major) with their squared norms.
    Data {
        x: Cow<'a, [F]>,
        d: usize,
        sq_norms: Vec<F>,
        leaf: Option<Leaf<F>>,
        kernel: Kernel,
    },
    /// A precomputed Gram matrix (row-major, `n × n`).
    Precomputed { k: Cow<'a, [F]> },
}

/// A kernel and its training rows, ready for repeated row evaluations (see the
/// [`kernel` module docs](crate::kernel)).
///
/// `row_into(i)` writes `k(xᵢ, xⱼ)` for every training row `j`. The values of one pair are the
/// same bits whichever row asks for them (`k(xᵢ, xⱼ)` from row `i` equals `k(xⱼ, xᵢ)` from row
/// `j`), which SMO-style solvers rely on, and rows do not depend on the thread count. Dot
/// products use a fixed eight-lane summation order (vectorised, deterministic); the RBF kernel
/// uses `‖xᵢ‖² + ‖xⱼ‖² − 2 xᵢᵀxⱼ` clamped at 0 (libsvm's form; the diagonal is exactly 1).
/// Entries may differ from [`Kernel::gram`] (which uses BLAS) in the last bits. Data-dependent
/// choices such as scikit-learn's `gamma = "scale"` are the estimator's: the kernel here is
/// numeric.
///
/// ```
/// use ndlearn_core::kernel::{Kernel, PreparedKernel};
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0_f64, 1.0], [1.0, 1.0], [2.0, 0.5]];
/// let k = PreparedKernel::new(&Kernel::rbf_gamma(0.5), &x)?;
/// let mut row = vec![0.0; 3];
/// k.row_into(1, &mut row)?;
/// assert_eq!(row[1], 1.0);
/// assert!((row[0] - (-0.5_f64).exp()).abs() < 1e-15);
/// assert_eq!(k.diag()[2], 1.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct PreparedKernel<'a, F: Float> {
    source: Source<'a, F>,
    n: usize,
    diag: Array1<F>,
}

/// `Σ a_k b_k` in eight interleaved partial sums (vectorisable, fixed order).
#[inline]
fn dot<F: Float>(a: &[F], b: &[F]) -> F {
    let mut acc = [F::zero(); 8];
    let (ca, ra) = (a.chunks_exact(8), a.chunks_exact(8).remainder());
    let cb = b.chunks_exact(8);
    let rb = cb.remainder();
    for (pa, pb) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += pa[l] * pb[l];
        }
    }
    let mut tail = F::zero();
    for (&p, &q) in ra.iter().zip(rb) {
        tail += p * q;
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

/// `Σ |a_k − b_k|` in eight interleaved partial sums.
#[inline]
fn l1<F: Float>(a: &[F], b: &[F]) -> F {
    let mut acc = [F::zero(); 8];
    let (ca, ra) = (a.chunks_exact(8), a.chunks_exact(8).remainder());
    let cb = b.chunks_exact(8);
    let rb = cb.remainder();
    for (pa, pb) in ca.zip(cb) {
        for l in 0..8 {
            acc[l] += (pa[l] - pb[l]).abs();
        }
    }
    let mut tail = F::zero();
    for (&p, &q) in ra.iter().zip(rb) {
        tail += (p - q).abs();
    }
    ((acc[0] + acc[4]) + (acc[1] + acc[5])) + ((acc[2] + acc[6]) + (acc[3] + acc[7])) + tail
}

fn leaf_of<F: Float>(k: &Kernel) -> Option<Leaf<F>> {
    Some(match k {
        Kernel::Linear => Leaf::Linear,
        Kernel::Polynomial {
            gamma,
            coef0,
            degree,
        } => Leaf::Polynomial {
            gamma: F::cast(*gamma),
            coef0: F::cast(*coef0),
            degree: powi_degree(*degree),
        },
        Kernel::HomogeneousPolynomial { degree } => Leaf::Polynomial {
            gamma: F::one(),
            coef0: F::zero(),
            degree: powi_degree(*degree),
        },
        Kernel::Rbf { gamma } => Leaf::Rbf {
            neg_gamma: -F::cast(*gamma),
        },
        Kernel::Laplacian { gamma } => Leaf::Laplacian {
            neg_gamma: -F::cast(*gamma),
        },
        Kernel::Sigmoid { gamma, coef0 } => Leaf::Sigmoid {
            gamma: F::cast(*gamma),
            coef0: F::cast(*coef0),
        },
        _ => return None,
    })
}

impl<F: Float> Leaf<F> {
    #[inline]
    fn value(&self, xi: &[F], xj: &[F], sqi: F, sqj: F) -> F {
        match *self {
            Leaf::Linear => dot(xi, xj),
            Leaf::Polynomial {
                gamma,
                coef0,
                degree,
            } => (gamma * dot(xi, xj) + coef0).powi(degree),
            Leaf::Rbf { neg_gamma } => {
                let mut e = [Self::rbf_arg(neg_gamma, xi, xj, sqi, sqj)];
                numeric::exp_in_place(&mut e);
                e[0]
            }
            Leaf::Laplacian { neg_gamma } => (neg_gamma * l1(xi, xj)).exp(),
            Leaf::Sigmoid { gamma, coef0 } => (gamma * dot(xi, xj) + coef0).tanh(),
        }
    }
}

impl<F: Float> Leaf<F> {
    /// `−γ ‖xᵢ − xⱼ‖²` from the norms and one dot product, clamped at 0 distance.
    #[inline]
    fn rbf_arg(neg_gamma: F, xi: &[F], xj: &[F], sqi: F, sqj: F) -> F {
        let p = dot(xi, xj);
        neg_gamma * (sqi + sqj - (p + p)).max(F::zero())
    }

    /// `out[t] = k(xᵢ, x_{cols(t)})`: the same bits as [`Leaf::value`], with the RBF
    /// exponentials in one vectorised pass after the dot products.
    #[inline]
    fn fill(
        &self,
        xi: &[F],
        sqi: F,
        (x, d, sq_norms): (&[F], usize, &[F]),
        cols: impl Iterator<Item = usize>,
        out: &mut [F],
    ) {
        match *self {
            Leaf::Rbf { neg_gamma } => {
                for (o, j) in out.iter_mut().zip(cols) {
                    *o = Self::rbf_arg(neg_gamma, xi, &x[j * d..(j + 1) * d], sqi, sq_norms[j]);
                }
                numeric::exp_in_place(out);
            }
            _ => {
                for (o, j) in out.iter_mut().zip(cols) {
                    *o = self.value(xi, &x[j * d..(j + 1) * d], sqi, sq_norms[j]);
                }
            }
        }
    }
}

/// Rows at least this long are computed in parallel chunks of [`ROW_CHUNK`] entries (the
/// values do not depend on the chunking).
const PAR_ROW_MIN: usize = 4096;
/// Entries per parallel task of a long row.
const ROW_CHUNK: usize = 2048;

/// `k(a, b)` of a composite kernel by the kernel's own fixed-order evaluation (rows, entries and
/// the diagonal all compute it this way).
fn composite_entry<F: Float>(kernel: &Kernel, a: &[F], b: &[F]) -> F {
    kernel.eval_unchecked(ArrayView1::from(a), ArrayView1::from(b))
}

/// `out[t] = k(xᵢ, x_{cols[t]})` for a composite kernel, entry by entry with the kernel's own
/// fixed-order evaluation (the Gram code's BLAS products may round the entries of one row
/// differently by position, which would break `K[i, j] = K[j, i]` bit for bit).
fn composite_fill<F: Float>(
    kernel: &Kernel,
    xi: &[F],
    (x, d): (&[F], usize),
    cols: impl Iterator<Item = usize>,
    out: &mut [F],
) {
    for (o, j) in out.iter_mut().zip(cols) {
        *o = composite_entry(kernel, xi, &x[j * d..(j + 1) * d]);
    }
}

/// Fills a whole kernel row with `fill(columns, chunk)`: in parallel over fixed chunks of
/// [`ROW_CHUNK`] columns for long rows, in one call otherwise (the entries do not depend on the
/// split).
fn fill_row<F: Float>(out: &mut [F], fill: impl Fn(std::ops::Range<usize>, &mut [F]) + Sync) {
    if out.len() >= PAR_ROW_MIN {
        out.par_chunks_mut(ROW_CHUNK)
            .enumerate()
            .for_each(|(c, chunk)| {
                let start = c * ROW_CHUNK;
                fill(start..start + chunk.len(), chunk);
            });
    } else {
        let n = out.len();
        fill(0..n, out);
    }
}

/// [`Error::NonFinite`] at the first entry of `out` a composite kernel overflowed in.
fn check_row_finite<F: Float>(i: usize, out: &[F]) -> Result<()> {
    match out.iter().position(|v| !v.is_finite()) {
        Some(j) => Err(Error::NonFinite {
            context: gram::OVERFLOW_CONTEXT,
            row: i,
            col: j,
        }),
        None => Ok(()),
    }
}

fn row_major<F: Float>(x: &ArrayRef2<F>) -> Cow<'_, [F]> {
    match x.as_slice() {
        Some(s) => Cow::Borrowed(s),
        None => Cow::Owned(x.iter().copied().collect()),
    }
}

impl<'a, F: Float> PreparedKernel<'a, F> {
    /// Binds `kernel` to the rows of `x`: validates the kernel and the data once, and computes
    /// the squared row norms and the diagonal.
    ///
    /// # Errors
    /// Invalid kernel parameters, a feature count the kernel does not accept, NaN/∞ in `x`,
    /// and kernel values that can overflow for these data (a dot-product kernel whose bound
    /// `(γ max‖x‖² + |c₀|)^d` is not finite: scale the inputs).
    pub fn new(kernel: &Kernel, x: &'a ArrayRef2<F>) -> Result<Self> {
        kernel.validate()?;
        kernel.check_n_features(x.ncols())?;
        check_finite_2d(x, "x")?;
        let (n, d) = x.dim();
        let data = row_major(x);
        let rows = |i: usize| &data[i * d..(i + 1) * d];
        let sq_norms: Vec<F> = (0..n).map(|i| dot(rows(i), rows(i))).collect();
        let leaf = leaf_of::<F>(kernel);
        let max_sq = sq_norms.iter().fold(F::zero(), |m, &v| m.max(v));
        if let Some(l) = leaf {
            let bound = match l {
                Leaf::Linear => max_sq,
                Leaf::Polynomial {
                    gamma,
                    coef0,
                    degree,
                } => (gamma * max_sq + coef0.abs()).powi(degree),
                _ => F::one(),
            };
            if !bound.is_finite() || !max_sq.is_finite() {
                return Err(Error::NonFinite {
                    context: "kernel values overflow for these data (scale the inputs or lower gamma/degree)",
                    row: 0,
                    col: 0,
                });
            }
        }
        let diag: Array1<F> = match leaf {
            Some(l) => (0..n)
                .map(|i| l.value(rows(i), rows(i), sq_norms[i], sq_norms[i]))
                .collect(),
            None => (0..n)
                .map(|i| composite_entry(kernel, rows(i), rows(i)))
                .collect(),
        };
        if let Some(i) = diag.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                context: gram::OVERFLOW_CONTEXT,
                row: i,
                col: i,
            });
        }
        Ok(Self {
            source: Source::Data {
                x: data,
                d,
                sq_norms,
                leaf,
                kernel: kernel.clone(),
            },
            n,
            diag,
        })
    }

    /// Binds a precomputed Gram matrix `K` (`n × n`, finite; scikit-learn's
    /// `kernel="precomputed"`). Symmetry is the caller's responsibility (an SVM checks it).
    ///
    /// # Errors
    /// A non-square or empty matrix, NaN/∞.
    pub fn precomputed(k: &'a ArrayRef2<F>) -> Result<Self> {
        if k.nrows() != k.ncols() {
            return Err(Error::ShapeMismatch {
                context: "precomputed kernel",
                expected: "a square n × n Gram matrix".into(),
                found: format!("{} × {}", k.nrows(), k.ncols()),
            });
        }
        check_finite_2d(k, "precomputed kernel")?;
        let diag = k.diag().to_owned();
        Ok(Self {
            n: k.nrows(),
            diag,
            source: Source::Precomputed { k: row_major(k) },
        })
    }

    /// The number of training rows `n`.
    pub fn n(&self) -> usize {
        self.n
    }

    /// `k(xᵢ, xᵢ)` for every training row.
    pub fn diag(&self) -> &Array1<F> {
        &self.diag
    }

    /// `k(xᵢ, xⱼ)`.
    ///
    /// # Panics
    /// If `i` or `j` is out of range.
    pub fn eval(&self, i: usize, j: usize) -> F {
        match &self.source {
            Source::Precomputed { k } => k[i * self.n + j],
            Source::Data {
                x,
                d,
                sq_norms,
                leaf,
                kernel,
            } => {
                let (xi, xj) = (&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d]);
                match leaf {
                    Some(l) => l.value(xi, xj, sq_norms[i], sq_norms[j]),
                    // The same computation as a row entry.
                    None => composite_entry(kernel, xi, xj),
                }
            }
        }
    }

    /// Writes row `i` of the kernel matrix, `out[j] = k(xᵢ, xⱼ)` for `j = 0..n`.
    ///
    /// # Errors
    /// [`Error::NonFinite`] when a value of a composite kernel overflows.
    ///
    /// # Panics
    /// If `i ≥ n` or `out.len() != n`.
    pub fn row_into(&self, i: usize, out: &mut [F]) -> Result<()> {
        assert!(
            i < self.n && out.len() == self.n,
            "row {i} into {} of {}",
            out.len(),
            self.n
        );
        match &self.source {
            Source::Precomputed { k } => {
                out.copy_from_slice(&k[i * self.n..(i + 1) * self.n]);
                Ok(())
            }
            Source::Data {
                x,
                d,
                sq_norms,
                leaf,
                kernel,
            } => {
                let xi = &x[i * d..(i + 1) * d];
                match leaf {
                    Some(l) => {
                        let data = (&x[..], *d, &sq_norms[..]);
                        fill_row(out, |cols, chunk| {
                            l.fill(xi, sq_norms[i], data, cols, chunk)
                        });
                        Ok(())
                    }
                    None => {
                        let data = (&x[..], *d);
                        fill_row(out, |cols, chunk| {
                            composite_fill(kernel, xi, data, cols, chunk);
                        });
                        check_row_finite(i, out)
                    }
                }
            }
        }
    }

    /// Writes `out[t] = k(xᵢ, x_{cols[t]})` (a row restricted to the active set of a shrinking
    /// solver).
    ///
    /// # Errors
    /// As [`PreparedKernel::row_into`].
    ///
    /// # Panics
    /// If an index is out of range or the lengths differ.
    pub fn row_subset_into(&self, i: usize, cols: &[usize], out: &mut [F]) -> Result<()> {
        assert_eq!(cols.len(), out.len(), "one output per column");
        match &self.source {
            Source::Data {
                x,
                d,
                sq_norms,
                leaf: Some(l),
                ..
            } => {
                let xi = &x[i * d..(i + 1) * d];
                let data = (&x[..], *d, &sq_norms[..]);
                if out.len() >= PAR_ROW_MIN {
                    out.par_chunks_mut(ROW_CHUNK)
                        .zip(cols.par_chunks(ROW_CHUNK))
                        .for_each(|(chunk, js)| {
                            l.fill(xi, sq_norms[i], data, js.iter().copied(), chunk);
                        });
                } else {
                    l.fill(xi, sq_norms[i], data, cols.iter().copied(), out);
                }
                Ok(())
            }
            Source::Precomputed { k } => {
                let row = &k[i * self.n..(i + 1) * self.n];
                for (o, &j) in out.iter_mut().zip(cols) {
                    *o = row[j];
                }
                Ok(())
            }
            Source::Data {
                x,
                d,
                leaf: None,
                kernel,
                ..
            } => {
                let xi = &x[i * d..(i + 1) * d];
                composite_fill(kernel, xi, (&x[..], *d), cols.iter().copied(), out);
                check_row_finite(i, out)
            }
        }
    }

    /// The rows `idx` of the kernel matrix (`idx.len() × n`), computed in parallel (fixed
    /// chunks; each entry as [`PreparedKernel::row_into`] gives it).
    ///
    /// # Errors
    /// As [`PreparedKernel::row_into`].
    ///
    /// # Panics
    /// If an index is out of range.
    pub fn rows(&self, idx: &[usize]) -> Result<Array2<F>> {
        let n = self.n;
        let parts = par::map_chunks(idx.len(), ROWS_CHUNK, |r| -> Result<Vec<F>> {
            let mut block = vec![F::zero(); r.len() * n];
            for (t, i) in r.clone().enumerate() {
                self.row_into(idx[i], &mut block[t * n..(t + 1) * n])?;
            }
            Ok(block)
        });
        let mut out = Vec::with_capacity(idx.len() * n);
        for p in parts {
            out.extend(p?);
        }
        Array2::from_shape_vec((idx.len(), n), out)
            .map_err(|e| Error::invalid_param("idx", e.to_string()))
    }

    /// The full `n × n` kernel matrix through [`PreparedKernel::rows`] (consistent with every
    /// row and entry of this object).
    ///
    /// # Errors
    /// As [`PreparedKernel::row_into`].
    pub fn matrix(&self) -> Result<Array2<F>> {
        let all: Vec<usize> = (0..self.n).collect();
        self.rows(&all)
    }

    /// The squared row norms of the training rows (empty for a precomputed kernel).
    pub fn sq_norms(&self) -> &[F] {
        match &self.source {
            Source::Data { sq_norms, .. } => sq_norms,
            Source::Precomputed { .. } => &[],
        }
    }
}

/// Sum of a kernel row weighted by coefficients: `Σⱼ cⱼ k(z, xⱼ)` for the rows `z` of `zs`,
/// through [`Kernel::cross_gram`] (one gemm for dot-product kernels). The shape of the
/// predictions of kernel expansions (SVMs, kernel ridge): `K(Z, X) c`.
///
/// # Errors
/// As [`Kernel::cross_gram`]; [`Error::ShapeMismatch`] when `coef` has another row count than
/// `x`.
pub fn kernel_expansion<F: Float>(
    kernel: &Kernel,
    zs: &ArrayRef2<F>,
    x: &ArrayRef2<F>,
    coef: &ArrayRef2<F>,
) -> Result<Array2<F>> {
    if coef.nrows() != x.nrows() {
        return Err(Error::ShapeMismatch {
            context: "kernel_expansion: coefficients",
            expected: format!("{} rows (one per expansion point)", x.nrows()),
            found: format!("{}", coef.nrows()),
        });
    }
    let k = kernel.cross_gram(zs, x)?;
    Ok(k.dot(coef))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn data() -> Array2<f64> {
        Array2::from_shape_fn((23, 11), |(i, j)| ((i * 7 + j * 3) % 13) as f64 / 5.0 - 1.0)
    }

    #[test]
    fn rows_match_eval_and_gram_for_every_leaf_and_a_composite() {
        let x = data();
        for k in [
            Kernel::linear(),
            Kernel::polynomial_gamma(3, 0.2, 1.0),
            Kernel::homogeneous_polynomial(2),
            Kernel::rbf_gamma(0.3),
            Kernel::laplacian(0.2),
            Kernel::sigmoid(0.1, -0.5),
            Kernel::rbf_gamma(0.2).plus(Kernel::linear()),
        ] {
            let p = PreparedKernel::new(&k, &x).expect("prepared");
            let g = k.gram(&x).expect("gram");
            let m = p.matrix().expect("rows");
            for i in 0..x.nrows() {
                for j in 0..x.nrows() {
                    let e = k.eval(&x.row(i), &x.row(j)).expect("eval");
                    assert!((m[[i, j]] - e).abs() <= 1e-12 * (1.0 + e.abs()), "{k:?}");
                    assert!((m[[i, j]] - g[[i, j]]).abs() <= 1e-12 * (1.0 + e.abs()));
                    // The same bits from both rows, and from eval(i, j).
                    assert_eq!(m[[i, j]].to_bits(), m[[j, i]].to_bits(), "{k:?} symmetric");
                    assert_eq!(p.eval(i, j).to_bits(), m[[i, j]].to_bits());
                }
                assert_eq!(p.diag()[i].to_bits(), m[[i, i]].to_bits());
            }
            let sub = [3usize, 0, 22];
            let mut out = vec![0.0; 3];
            p.row_subset_into(5, &sub, &mut out).expect("subset");
            assert_eq!(out, vec![m[[5, 3]], m[[5, 0]], m[[5, 22]]]);
            let single = par::with_threads(1, || p.matrix())
                .expect("pool")
                .expect("rows");
            assert_eq!(single, m);
        }
        let p = PreparedKernel::new(&Kernel::rbf_gamma(0.3), &x).expect("prepared");
        assert!(p.diag().iter().all(|&v| v == 1.0));
    }

    #[test]
    fn precomputed_and_errors() {
        let x = data();
        let g = Kernel::rbf_gamma(0.3).gram(&x).expect("gram");
        let p = PreparedKernel::precomputed(&g).expect("ok");
        let mut row = vec![0.0; x.nrows()];
        p.row_into(4, &mut row).expect("row");
        assert_eq!(row, g.row(4).to_vec());
        assert_eq!(p.diag(), &g.diag());
        assert!(PreparedKernel::precomputed(&array![[1.0, 2.0]]).is_err());
        let mut bad = x.clone();
        bad[[2, 3]] = f64::NAN;
        assert!(PreparedKernel::new(&Kernel::linear(), &bad).is_err());
        assert!(PreparedKernel::new(&Kernel::rbf_gamma(-1.0), &x).is_err());
        let huge = x.mapv(|v| v * 1e200);
        assert!(PreparedKernel::new(&Kernel::polynomial_gamma(3, 1.0, 1.0), &huge).is_err());
        // Non-contiguous input is copied.
        let t = x.t().to_owned();
        let tv = t.t();
        let pt = PreparedKernel::new(&Kernel::linear(), &tv).expect("ok");
        assert_eq!(
            pt.eval(1, 2).to_bits(),
            PreparedKernel::new(&Kernel::linear(), &x)
                .expect("ok")
                .eval(1, 2)
                .to_bits()
        );
        let c = array![[1.0], [0.0], [0.0]];
        let z = array![[0.5, 0.5]];
        let xs = array![[0.0, 1.0], [1.0, 1.0], [2.0, 0.5]];
        let e = kernel_expansion(&Kernel::linear(), &z, &xs, &c).expect("ok");
        assert_eq!(e[[0, 0]], 0.5);
        assert!(kernel_expansion(&Kernel::linear(), &z, &xs, &array![[1.0]]).is_err());
    }
}
