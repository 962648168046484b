//! [`KMeansStats`]: per-cluster sums and counts and the inertia of the rows under given centres,
//! and the assignment kernels behind them (shared with `ndlearn-cluster`'s k-means family).

use super::bytes::{Reader, Writer};
use super::{Mergeable, RowBlock, spec_mismatch};
use crate::{Float, Result, par};
use ndarray::Array2;

/// Rows per chunk of the assignment passes (fixed: results do not depend on the thread count).
const CHUNK: usize = 2048;
/// Byte-form tag.
const TAG: u8 = 3;

/// Largest `k · d` for which [`assign`] computes the distances directly (the centres stay in
/// L1 cache; no `n × k` GEMM output is written and read back).
const DIRECT_MAX: usize = 1024;

/// [`assign`] for small `k · d`: exact squared distances to every centre, row chunks in
/// parallel, ties to the lower centre.
fn assign_direct<F: Float>(xs: &[F], d: usize, centers: &Array2<F>) -> (Vec<usize>, Vec<F>) {
    let n = xs.len().checked_div(d).unwrap_or(0);
    let k = centers.nrows();
    let ct = transposed(centers);
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut lab = Vec::with_capacity(r.len());
        let mut dist = Vec::with_capacity(r.len());
        let mut acc = vec![F::zero(); k];
        for i in r {
            all_sq(&xs[i * d..(i + 1) * d], &ct, &mut acc);
            let mut best = (0usize, F::infinity());
            for (q, &v) in acc.iter().enumerate() {
                if v < best.1 {
                    best = (q, v);
                }
            }
            lab.push(best.0);
            dist.push(best.1);
        }
        (lab, dist)
    });
    concat_parts(parts)
}

/// The per-chunk `(labels, distances)` of an assignment pass, joined in chunk order.
fn concat_parts<F: Copy>(parts: Vec<(Vec<usize>, Vec<F>)>) -> (Vec<usize>, Vec<F>) {
    let (labels, dists): (Vec<Vec<usize>>, Vec<Vec<F>>) = parts.into_iter().unzip();
    (labels.concat(), dists.concat())
}

/// Points stored transposed in blocks of 8 (`d × w`, `w` = `k` rounded up to a multiple of 8, or
/// 4 for `k ≤ 4`,
/// row `j` holding coordinate `j` of every point; padding lanes are never reported), so the
/// squared distances from one row to all of them run as fixed 8-lane loops the compiler turns
/// into vector instructions.
#[derive(Debug, Clone)]
pub struct Transposed<F> {
    k: usize,
    w: usize,
    d: usize,
    data: Vec<F>,
}

impl<F: Float> Transposed<F> {
    /// From the rows of a `k × d` row-major slice (blocks of 4 lanes when `k ≤ 4`, else 8).
    pub fn from_rows(rows: &[F], k: usize, d: usize) -> Self {
        let w = if k <= 4 { 4 } else { k.div_ceil(8) * 8 };
        let mut data = vec![F::zero(); d * w];
        for c in 0..k {
            for j in 0..d {
                data[j * w + c] = rows[c * d + j];
            }
        }
        Self { k, w, d, data }
    }

    /// Lanes per coordinate: `k` rounded up to a multiple of the block width (the length a
    /// scratch buffer for [`distances`](Self::distances) needs).
    pub fn width(&self) -> usize {
        self.w
    }

    /// Squared distances from `x` to every point into `out` (length at least `k`).
    #[inline]
    pub fn distances(&self, x: &[F], out: &mut [F]) {
        if self.w == 4 {
            self.blocks::<4>(x, out);
        } else {
            self.blocks::<8>(x, out);
        }
    }

    #[inline]
    fn blocks<const B: usize>(&self, x: &[F], out: &mut [F]) {
        for b in 0..self.w / B {
            let mut acc = [F::zero(); B];
            for (j, &xj) in x.iter().enumerate().take(self.d) {
                let off = j * self.w + b * B;
                let Ok(lane) = <&[F; B]>::try_from(&self.data[off..off + B]) else {
                    return;
                };
                for l in 0..B {
                    let u = xj - lane[l];
                    acc[l] += u * u;
                }
            }
            let lo = b * B;
            for (o, &a) in out[lo..(lo + B).min(self.k)].iter_mut().zip(&acc) {
                *o = a;
            }
        }
    }
}

/// The centres of a `k × d` array, transposed (see [`Transposed`]).
pub fn transposed<F: Float>(centers: &Array2<F>) -> Transposed<F> {
    let (k, d) = centers.dim();
    let c = centers.as_standard_layout();
    Transposed::from_rows(c.as_slice().unwrap_or(&[]), k, d)
}

/// Squared distances from `x` to every centre at once (`ct` from [`transposed`]).
#[inline]
pub fn all_sq<F: Float>(x: &[F], ct: &Transposed<F>, acc: &mut [F]) {
    ct.distances(x, acc);
}

/// Squared Euclidean distance.
///
/// Eight independent partial sums (lanes `j mod 8`), added pairwise at the end: the compiler
/// vectorises the lanes, where one running sum would be a chain of dependent additions.
#[inline]
pub fn sq<F: Float>(a: &[F], b: &[F]) -> F {
    let mut acc = [F::zero(); 8];
    let (ca, cb) = (a.chunks_exact(8), b.chunks_exact(8));
    let (ra, rb) = (ca.remainder(), cb.remainder());
    for (u, v) in ca.zip(cb) {
        for l in 0..8 {
            let t = u[l] - v[l];
            acc[l] += t * t;
        }
    }
    for (l, (&u, &v)) in ra.iter().zip(rb).enumerate() {
        let t = u - v;
        acc[l] += t * t;
    }
    ((acc[0] + acc[4]) + (acc[2] + acc[6])) + ((acc[1] + acc[5]) + (acc[3] + acc[7]))
}

/// Nearest centre of every row and its squared distance.
///
/// Centres are ranked as scikit-learn ranks them, by `‖μ_c‖² − 2 xᵀμ_c` (one GEMM `X Mᵀ` for
/// all rows: the BLAS kernels use the machine's full vector width), ties to the lower centre;
/// the reported distance of the winner is then computed directly, `Σ_j (x_j − μ_cj)²`, so the
/// inertia carries no cancellation error.
pub fn assign<F: Float>(xs: &[F], d: usize, centers: &Array2<F>) -> (Vec<usize>, Vec<F>) {
    let n = xs.len().checked_div(d).unwrap_or(0);
    let k = centers.nrows();
    if k * d <= DIRECT_MAX {
        return assign_direct(xs, d, centers);
    }
    let Ok(x) = ndarray::ArrayView2::from_shape((n, d), xs) else {
        return (Vec::new(), Vec::new());
    };
    let g = x.dot(&centers.t());
    let norms: Vec<F> = centers.rows().into_iter().map(|r| r.dot(&r)).collect();
    let two = F::cast(2.0);
    let parts = par::map_chunks(n, CHUNK, |r| {
        let mut lab = Vec::with_capacity(r.len());
        let mut dist = Vec::with_capacity(r.len());
        for i in r {
            let gi = g.row(i);
            let mut best = (0usize, F::infinity());
            for c in 0..k {
                let v = norms[c] - two * gi[c];
                if v < best.1 {
                    best = (c, v);
                }
            }
            lab.push(best.0);
            dist.push(sq(
                &xs[i * d..(i + 1) * d],
                centers.row(best.0).as_slice().unwrap_or(&[]),
            ));
        }
        (lab, dist)
    });
    concat_parts(parts)
}

/// Per-cluster sums (`k × d`) and counts of the rows of `xs` (row-major, `d` columns) under
/// `labels` (fixed chunks, added in order).
pub fn cluster_sums<F: Float>(
    xs: &[F],
    d: usize,
    labels: &[usize],
    k: usize,
) -> (Array2<F>, Vec<usize>) {
    let n = labels.len();
    let parts = par::map_chunks(n, CHUNK * 4, |r| {
        let mut sums = vec![F::zero(); k * d];
        let mut counts = vec![0usize; k];
        for i in r {
            let c = labels[i];
            counts[c] += 1;
            for (s, &v) in sums[c * d..(c + 1) * d]
                .iter_mut()
                .zip(&xs[i * d..(i + 1) * d])
            {
                *s += v;
            }
        }
        (sums, counts)
    });
    let mut sums = vec![F::zero(); k * d];
    let mut counts = vec![0usize; k];
    for (s, c) in parts {
        for (a, b) in sums.iter_mut().zip(s) {
            *a += b;
        }
        for (a, b) in counts.iter_mut().zip(c) {
            *a += b;
        }
    }
    let sums = Array2::from_shape_vec((k, d), sums).unwrap_or_else(|_| Array2::zeros((k, d)));
    (sums, counts)
}

/// What a [`KMeansStats`] is computed at: the current centres (`k × d`).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KMeansSpec<F: Float> {
    /// The centres the rows are assigned to.
    pub centers: Array2<F>,
}

/// The statistics of one Lloyd round: every row goes to its nearest centre (as [`assign`]:
/// ranked by `‖μ_c‖² − 2xᵀμ_c`, ties to the lower centre, distance recomputed exactly), and
/// each cluster sums its rows. The new centres are `sums / counts`; the inertia is that of the
/// given centres, which the statistics carry (statistics computed at other centres do not
/// merge). Blocks merge by adding (counts are exact integers; the sums are plain sums, so
/// merged statistics equal one pass up to the order of additions).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KMeansStats<F: Float> {
    /// The centres the rows are assigned to (`k × d`).
    pub at: Array2<F>,
    /// Sum of the rows assigned to each centre (`k × d`).
    pub sums: Array2<F>,
    /// Rows assigned to each centre.
    pub counts: Vec<u64>,
    /// Sum of squared distances from the rows to their centres.
    pub inertia: F,
    /// Number of rows.
    pub n: u64,
}

impl<F: Float> KMeansStats<F> {
    /// The updated centres `sums / counts`; a centre without rows stays where it was.
    pub fn centers(&self) -> Array2<F> {
        let mut c = self.sums.clone();
        for (q, mut row) in c.rows_mut().into_iter().enumerate() {
            if self.counts[q] > 0 {
                row /= F::cast(self.counts[q] as f64);
            } else {
                row.assign(&self.at.row(q));
            }
        }
        c
    }
}

impl<F: Float> Mergeable<F> for KMeansStats<F> {
    type Spec = KMeansSpec<F>;

    fn zero(spec: &KMeansSpec<F>) -> Self {
        let (k, d) = spec.centers.dim();
        Self {
            at: spec.centers.clone(),
            sums: Array2::zeros((k, d)),
            counts: vec![0; k],
            inertia: F::zero(),
            n: 0,
        }
    }

    fn update(&mut self, block: &RowBlock<'_, F>) -> Result<()> {
        let (k, d) = self.at.dim();
        block.check(d, "KMeansStats::update")?;
        if block.weights.is_some() {
            return Err(crate::Error::invalid_param(
                "sample_weight",
                "KMeansStats takes unweighted rows",
            ));
        }
        if block.nrows() == 0 {
            return Ok(());
        }
        crate::validate::check_finite_2d(&block.x, "X")?;
        let x = block.x.as_standard_layout();
        let xs = x.as_slice().unwrap_or(&[]);
        let (labels, dists) = assign(xs, d, &self.at);
        let (sums, counts) = cluster_sums(xs, d, &labels, k);
        self.sums += &sums;
        for (a, &b) in self.counts.iter_mut().zip(&counts) {
            *a += b as u64;
        }
        self.inertia += dists.iter().copied().sum::<F>();
        self.n += block.nrows() as u64;
        Ok(())
    }

    fn merge(&mut self, other: &Self) -> Result<()> {
        if self.at != other.at {
            return Err(spec_mismatch(
                "KMeansStats::merge",
                "statistics at the same centres".into(),
                "statistics at other centres".into(),
            ));
        }
        self.sums += &other.sums;
        for (a, b) in self.counts.iter_mut().zip(&other.counts) {
            *a += b;
        }
        self.inertia += other.inertia;
        self.n += other.n;
        Ok(())
    }

    fn n_rows(&self) -> u64 {
        self.n
    }

    fn encode(&self) -> Vec<u8> {
        let mut w = Writer::new(TAG);
        w.u64(self.n)
            .float(self.inertia)
            .array2(&self.at)
            .array2(&self.sums);
        for &c in &self.counts {
            w.u64(c);
        }
        w.finish()
    }

    fn decode(bytes: &[u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, TAG, "KMeansStats")?;
        let n = r.u64()?;
        let inertia = r.float()?;
        let at: Array2<F> = r.array2()?;
        let sums: Array2<F> = r.array2()?;
        if sums.dim() != at.dim() {
            return Err(r.inconsistent("centres and sums disagree"));
        }
        let counts = (0..sums.nrows())
            .map(|_| r.u64())
            .collect::<Result<Vec<_>>>()?;
        r.end()?;
        if counts.iter().sum::<u64>() != n {
            return Err(r.inconsistent("cluster counts do not add up to the row count"));
        }
        Ok(Self {
            at,
            sums,
            counts,
            inertia,
            n,
        })
    }
}
