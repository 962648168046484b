//! [`ClassScatter`]: per-class weighted counts, means and full centred scatter matrices.

use super::bytes::{Reader, Writer};
use super::{ClassSpec, Mergeable, RowBlock, spec_mismatch};
use crate::linalg::gemm;
use crate::stats::symmetrize;
use crate::{Float, Result};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView2, Axis, s};

/// Byte-form tag.
const TAG: u8 = 7;

/// Per-class first moments and full second moments (linear discriminant analysis' sufficient
/// statistics: its class means, priors, class covariances and the pooled within-class and total
/// covariances all follow from them).
///
/// For class `c` with sample weights `wᵢ` (1 without): `count_c = Σ wᵢ`,
/// `mean_c = Σ wᵢ xᵢ / count_c` and the centred scatter `S_c = Σ wᵢ (xᵢ − mean_c)(xᵢ − mean_c)ᵀ`
/// (`d × d`). A block is read class by class: the class's rows are gathered, centred at their
/// own mean and multiplied by one GEMM (exact centring, no cancellation however far the data
/// sit from the origin); blocks merge by the centred-moment rule of the [module docs](super),
/// `S = S_a + S_b + (n_a n_b / n) δδᵀ`, class by class.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClassScatter<F: Float> {
    /// Number of rows.
    pub n: u64,
    /// Weighted row count per class.
    pub count: Array1<F>,
    /// Weighted class means (`n_classes × d`; zeros for a class without weight).
    pub mean: Array2<F>,
    /// The centred scatter matrices, stacked (`n_classes · d × d`; rows `c·d .. (c+1)·d` hold
    /// class `c`'s): see [`ClassScatter::scatter`].
    pub scatter: Array2<F>,
}

impl<F: Float> ClassScatter<F> {
    /// The spec these statistics were built from.
    pub fn spec(&self) -> ClassSpec {
        ClassSpec {
            n_classes: self.count.len(),
            n_features: self.mean.ncols(),
        }
    }

    /// Class `c`'s centred scatter `S_c` (`d × d`).
    ///
    /// # Panics
    /// If `c ≥ n_classes`.
    pub fn scatter(&self, c: usize) -> ArrayView2<'_, F> {
        let d = self.mean.ncols();
        self.scatter.slice(s![c * d..(c + 1) * d, ..])
    }

    /// Class `c`'s maximum-likelihood covariance `S_c / count_c` (zeros for a class without
    /// weight).
    ///
    /// # Panics
    /// If `c ≥ n_classes`.
    pub fn covariance(&self, c: usize) -> Array2<F> {
        let s = self.scatter(c).to_owned();
        if self.count[c] > F::zero() {
            s / self.count[c]
        } else {
            s
        }
    }

    /// The weighted mean of all rows, `Σ_c count_c mean_c / Σ_c count_c`.
    pub fn overall_mean(&self) -> Array1<F> {
        let total = self.count.sum();
        let mut m = Array1::zeros(self.mean.ncols());
        if total > F::zero() {
            for (c, row) in self.mean.rows().into_iter().enumerate() {
                m.scaled_add(self.count[c] / total, &row);
            }
        }
        m
    }

    /// The maximum-likelihood covariance of all rows: `(Σ_c S_c + Σ_c count_c (mean_c − m)
    /// (mean_c − m)ᵀ) / Σ_c count_c` with `m` the overall mean (zeros without weight).
    pub fn total_covariance(&self) -> Array2<F> {
        let d = self.mean.ncols();
        let total = self.count.sum();
        let m = self.overall_mean();
        let mut t = Array2::zeros((d, d));
        if total <= F::zero() {
            return t;
        }
        for c in 0..self.count.len() {
            t += &self.scatter(c);
            let delta = &self.mean.row(c) - &m;
            for i in 0..d {
                let a = self.count[c] * delta[i];
                for j in 0..d {
                    t[[i, j]] += a * delta[j];
                }
            }
        }
        t.mapv_inplace(|v| v / total);
        symmetrize(&mut t);
        t
    }

    /// The statistics of the rows `x` with classes `y` (in `0..n_classes`) and weights `w`,
    /// without [`Mergeable::update`]'s finiteness checks.
    ///
    /// # Panics
    /// If `y` or `w` has not one entry per row of `x`, or a label is `≥ n_classes`.
    pub fn from_rows(
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        w: Option<&ArrayRef1<F>>,
        n_classes: usize,
    ) -> Self {
        let (n, d) = x.dim();
        assert_eq!(y.len(), n, "ClassScatter::from_rows: one label per row");
        assert!(
            w.is_none_or(|w| w.len() == n),
            "ClassScatter::from_rows: one weight per row"
        );
        assert!(
            y.iter().all(|&c| c < n_classes),
            "ClassScatter::from_rows: labels below n_classes"
        );
        let mut out = Self::zero(&ClassSpec {
            n_classes,
            n_features: d,
        });
        out.n = n as u64;
        let mut rows: Vec<Vec<usize>> = vec![Vec::new(); n_classes];
        for (i, &c) in y.iter().enumerate() {
            rows[c].push(i);
        }
        for (c, idx) in rows.iter().enumerate() {
            if idx.is_empty() {
                continue;
            }
            let mut xc = x.select(Axis(0), idx);
            let wc: Option<Array1<F>> = w.map(|w| idx.iter().map(|&i| w[i]).collect());
            let count = wc.as_ref().map_or(F::cast(idx.len() as f64), |w| w.sum());
            if count <= F::zero() {
                continue;
            }
            let mean = match &wc {
                Some(w) => xc.t().dot(w) / count,
                None => xc.sum_axis(Axis(0)) / count,
            };
            xc -= &mean;
            if let Some(w) = &wc {
                for (mut row, &wi) in xc.rows_mut().into_iter().zip(w) {
                    let r = wi.sqrt();
                    row.mapv_inplace(|v| v * r);
                }
            }
            let mut sc = out.scatter.slice_mut(s![c * d..(c + 1) * d, ..]);
            gemm(F::one(), &xc.t(), &xc, F::zero(), &mut sc);
            let mut owned = sc.to_owned();
            symmetrize(&mut owned);
            sc.assign(&owned);
            out.count[c] = count;
            out.mean.row_mut(c).assign(&mean);
        }
        out
    }
}

impl<F: Float> Mergeable<F> for ClassScatter<F> {
    type Spec = ClassSpec;

    fn zero(spec: &ClassSpec) -> Self {
        let (k, d) = (spec.n_classes, spec.n_features);
        Self {
            n: 0,
            count: Array1::zeros(k),
            mean: Array2::zeros((k, d)),
            scatter: Array2::zeros((k * d, d)),
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let spec = self.spec();
        block.check(spec.n_features, "ClassScatter::update")?;
        let labels = block.require_labels(spec.n_classes, "ClassScatter::update")?;
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        let part = Self::from_rows(&block.x, &labels, block.weights.as_deref(), spec.n_classes);
        self.merge(&part)
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.spec() != other.spec() {
            return Err(spec_mismatch(
                "ClassScatter::merge",
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
        let d = self.mean.ncols();
        for c in 0..self.count.len() {
            let (na, nb) = (self.count[c], other.count[c]);
            if nb <= F::zero() {
                continue;
            }
            if na <= F::zero() {
                self.mean.row_mut(c).assign(&other.mean.row(c));
                self.scatter
                    .slice_mut(s![c * d..(c + 1) * d, ..])
                    .assign(&other.scatter(c));
                self.count[c] = nb;
                continue;
            }
            let n = na + nb;
            let (f, wb) = (na * nb / n, nb / n);
            let delta = &other.mean.row(c) - &self.mean.row(c);
            let mut sc = self.scatter.slice_mut(s![c * d..(c + 1) * d, ..]);
            sc += &other.scatter(c);
            for i in 0..d {
                let a = f * delta[i];
                for j in 0..d {
                    sc[[i, j]] += a * delta[j];
                }
            }
            self.mean.row_mut(c).scaled_add(wb, &delta);
            self.count[c] = n;
        }
        self.n += other.n;
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n
    }

    fn encode(&self) -> Vec<u8> {
        Writer::new(TAG)
            .u64(self.n)
            .array1(&self.count)
            .array2(&self.mean)
            .array2(&self.scatter)
            .finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "ClassScatter")?;
        let m = Self {
            n: r.u64()?,
            count: r.array1()?,
            mean: r.array2()?,
            scatter: r.array2()?,
        };
        r.end()?;
        let (k, d) = (m.count.len(), m.mean.ncols());
        if m.mean.nrows() != k || m.scatter.dim() != (k * d, d) {
            return Err(r.inconsistent("array shapes disagree"));
        }
        Ok(m)
    }
}
