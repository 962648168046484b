//! [`ClassMoments`]: per-class weighted counts, means and squared deviations, and the overall
//! (unweighted) feature variances.

use super::bytes::{Reader, Writer};
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::{Float, Result, par};
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};

/// Rows per chunk of the two passes (fixed: results do not depend on the thread count).
const CHUNK: usize = 4096;
/// Byte-form tag.
const TAG: u8 = 2;

/// What a [`ClassMoments`] holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClassSpec {
    /// Number of classes (labels `0..n_classes`).
    pub n_classes: usize,
    /// Number of features.
    pub n_features: usize,
}

/// Per-class first and second moments (Gaussian naive Bayes' sufficient statistics).
///
/// For class `c` with sample weights `w_i`: `count_c = Σ w_i`, `mean_c = Σ w_i x_i / count_c`,
/// `m2_c = Σ w_i (x_i − mean_c)²` per feature; and over all rows, unweighted, the count, the
/// means and the squared deviations that give the overall feature variances (naive Bayes'
/// variance smoothing). One block is read in two parallel passes over fixed row chunks (sums,
/// then deviations from the block's means); blocks merge by the centred-moment rule of the
/// [module docs](super), class by class.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ClassMoments<F: Float> {
    /// Weighted row count per class.
    pub count: Array1<F>,
    /// Weighted class means (`n_classes × d`; zeros for a class without weight).
    pub mean: Array2<F>,
    /// Weighted sums of squared deviations from the class means (`n_classes × d`).
    pub m2: Array2<F>,
    /// Number of rows.
    pub n: usize,
    /// Unweighted column means of all rows.
    pub overall_mean: Array1<F>,
    /// Unweighted sums of squared deviations from `overall_mean`.
    pub overall_m2: Array1<F>,
}

impl<F: Float> ClassMoments<F> {
    /// The moments of all rows of `x` with classes `y` (in `0..n_classes`) and weights `w`.
    /// Labels are not checked here ([`Mergeable::update`] does).
    pub fn from_rows(
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        w: Option<&ArrayRef1<F>>,
        n_classes: usize,
    ) -> Self {
        class_moments(x, y, w, n_classes)
    }

    /// The spec these moments were built from.
    pub fn spec(&self) -> ClassSpec {
        ClassSpec {
            n_classes: self.count.len(),
            n_features: self.overall_mean.len(),
        }
    }

    /// The biased class variances `m2_c / count_c` (zeros for a class without weight).
    pub fn var(&self) -> Array2<F> {
        let mut var = self.m2.clone();
        for (c, mut row) in var.rows_mut().into_iter().enumerate() {
            if self.count[c] > F::zero() {
                row.mapv_inplace(|v| v / self.count[c]);
            }
        }
        var
    }

    /// The largest biased overall feature variance (`0` without rows).
    pub fn max_overall_var(&self) -> F {
        let nf = F::cast(self.n as f64);
        self.overall_m2
            .iter()
            .map(|&v| v / nf)
            .fold(F::zero(), F::max)
    }
}

impl<F: Float> Mergeable<F> for ClassMoments<F> {
    type Spec = ClassSpec;

    fn zero(spec: &ClassSpec) -> Self {
        let (k, d) = (spec.n_classes, spec.n_features);
        Self {
            count: Array1::zeros(k),
            mean: Array2::zeros((k, d)),
            m2: Array2::zeros((k, d)),
            n: 0,
            overall_mean: Array1::zeros(d),
            overall_m2: Array1::zeros(d),
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let spec = self.spec();
        block.check(spec.n_features, "ClassMoments::update")?;
        let labels = block.require_labels(spec.n_classes, "ClassMoments::update")?;
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        let w = block.weights.as_deref();
        let part = class_moments(&block.x, &labels, w, spec.n_classes);
        self.merge(&part)
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.spec() != other.spec() {
            return Err(spec_mismatch(
                "ClassMoments::merge",
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
        for c in 0..self.count.len() {
            let (na, nb) = (self.count[c], other.count[c]);
            if nb <= F::zero() {
                continue;
            }
            if na <= F::zero() {
                self.mean.row_mut(c).assign(&other.mean.row(c));
                self.m2.row_mut(c).assign(&other.m2.row(c));
                self.count[c] = nb;
                continue;
            }
            let n = na + nb;
            let (f, wb) = (na * nb / n, nb / n);
            for j in 0..self.mean.ncols() {
                let delta = other.mean[[c, j]] - self.mean[[c, j]];
                self.mean[[c, j]] += wb * delta;
                self.m2[[c, j]] += other.m2[[c, j]] + f * delta * delta;
            }
            self.count[c] = n;
        }
        let (na, nb) = (F::cast(self.n as f64), F::cast(other.n as f64));
        let n = na + nb;
        let (f, wb) = (na * nb / n, nb / n);
        for j in 0..self.overall_mean.len() {
            let delta = other.overall_mean[j] - self.overall_mean[j];
            self.overall_mean[j] += wb * delta;
            self.overall_m2[j] += other.overall_m2[j] + f * delta * delta;
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
            .array1(&self.count)
            .array2(&self.mean)
            .array2(&self.m2)
            .array1(&self.overall_mean)
            .array1(&self.overall_m2)
            .finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "ClassMoments")?;
        let n = usize::try_from(r.u64()?).map_err(|_| r.inconsistent("row count"))?;
        let m = Self {
            n,
            count: r.array1()?,
            mean: r.array2()?,
            m2: r.array2()?,
            overall_mean: r.array1()?,
            overall_m2: r.array1()?,
        };
        r.end()?;
        let (k, d) = (m.count.len(), m.overall_mean.len());
        if m.mean.dim() != (k, d) || m.m2.dim() != (k, d) || m.overall_m2.len() != d {
            return Err(r.inconsistent("array shapes disagree"));
        }
        Ok(m)
    }
}

/// Per-class (weighted) means and squared deviations in two passes over fixed row chunks,
/// summed in chunk order (deterministic for any thread count).
fn class_moments<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    w: Option<&ArrayRef1<F>>,
    k: usize,
) -> ClassMoments<F> {
    let (n, d) = x.dim();
    let weight = |i: usize| w.map_or(F::one(), |w| w[i]);
    // pass 1: weighted sums, plus unweighted sums for the overall variance
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut cnt = vec![F::zero(); k];
        let mut sum = Array2::<F>::zeros((k, d));
        let mut usum = Array2::<F>::zeros((k, d));
        for i in r {
            let c = y[i];
            let wi = weight(i);
            cnt[c] += wi;
            let row = x.row(i);
            for ((s, u), &v) in sum.row_mut(c).iter_mut().zip(usum.row_mut(c)).zip(row) {
                *s += wi * v;
                *u += v;
            }
        }
        (cnt, sum, usum)
    });
    let mut count = Array1::<F>::zeros(k);
    let mut sum = Array2::<F>::zeros((k, d));
    let mut usum = Array2::<F>::zeros((k, d));
    for (c, s, us) in parts {
        for (a, b) in count.iter_mut().zip(c) {
            *a += b;
        }
        sum += &s;
        usum += &us;
    }
    let mut mean = sum;
    for (c, mut row) in mean.rows_mut().into_iter().enumerate() {
        if count[c] > F::zero() {
            row.mapv_inplace(|v| v / count[c]);
        }
    }
    let overall_mean: Array1<F> = usum.sum_axis(Axis(0)).mapv(|v| v / F::cast(n as f64));
    // pass 2: weighted squared deviations from the class means, and unweighted ones from the
    // overall means
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut ssd = Array2::<F>::zeros((k, d));
        let mut overall = Array1::<F>::zeros(d);
        for i in r {
            let c = y[i];
            let wi = weight(i);
            let row = x.row(i);
            for (((s, o), &v), (&m, &om)) in ssd
                .row_mut(c)
                .iter_mut()
                .zip(overall.iter_mut())
                .zip(row)
                .zip(mean.row(c).iter().zip(&overall_mean))
            {
                *s += wi * (v - m) * (v - m);
                *o += (v - om) * (v - om);
            }
        }
        (ssd, overall)
    });
    let mut m2 = Array2::<F>::zeros((k, d));
    let mut overall_m2 = Array1::<F>::zeros(d);
    for (s, o) in parts {
        m2 += &s;
        overall_m2 += &o;
    }
    ClassMoments {
        count,
        mean,
        m2,
        n,
        overall_mean,
        overall_m2,
    }
}
