//! Column statistics shared by the scalers and expansions (private): weighted means and
//! variances by blocks with an ordered merge, column extrema.

use ndarray::{ArrayRef2, ArrayView1, ArrayView2, s};

use crate::{Float, par};

/// Rows per block of the parallel statistics pass (fixed, so results do not depend on threads).
pub(crate) const STAT_CHUNK: usize = 2048;

/// Column means and (biased) variances in `f64`, with a per-column power-of-two factor:
/// the true values are `mean·factor` and `var·factor²`.
pub(crate) struct ColumnMoments {
    pub(crate) weight: f64,
    pub(crate) mean: Vec<f64>,
    pub(crate) var: Vec<f64>,
    pub(crate) factor: Vec<f64>,
}

/// Per-block moments: total weight, mean, centred sum of squares, largest `|x|` (unscaled).
struct Block {
    w: f64,
    mean: Vec<f64>,
    m2: Vec<f64>,
    max_abs: Vec<f64>,
}

impl Block {
    fn empty(d: usize) -> Self {
        Block {
            w: 0.0,
            mean: vec![0.0; d],
            m2: vec![0.0; d],
            max_abs: vec![0.0; d],
        }
    }
}

fn block_moments<F: Float>(
    x: ArrayView2<'_, F>,
    w: Option<ArrayView1<'_, F>>,
    inv: &[f64],
) -> Block {
    let d = x.ncols();
    let mut sum = vec![0.0f64; d];
    let mut max_abs = vec![0.0f64; d];
    let mut wsum = 0.0f64;
    let mut buf = vec![0.0f64; d];
    let load = |row: ArrayView1<'_, F>, buf: &mut [f64]| {
        for ((b, v), s) in buf.iter_mut().zip(row.iter()).zip(inv) {
            *b = v.to_f64_lossless() * s;
        }
    };
    for (i, row) in x.rows().into_iter().enumerate() {
        let wi = w.map_or(1.0, |w| w[i].to_f64_lossless());
        for (m, v) in max_abs.iter_mut().zip(row.iter()) {
            *m = m.max(v.to_f64_lossless().abs());
        }
        load(row, &mut buf);
        for j in 0..d {
            sum[j] += wi * buf[j];
        }
        wsum += wi;
    }
    if wsum <= 0.0 {
        let mut b = Block::empty(d);
        b.max_abs = max_abs;
        return b;
    }
    let mean: Vec<f64> = sum.iter().map(|s| s / wsum).collect();
    let mut m2 = vec![0.0f64; d];
    let mut corr = vec![0.0f64; d];
    for (i, row) in x.rows().into_iter().enumerate() {
        let wi = w.map_or(1.0, |w| w[i].to_f64_lossless());
        load(row, &mut buf);
        for j in 0..d {
            let c = buf[j] - mean[j];
            corr[j] += wi * c;
            m2[j] += wi * c * c;
        }
    }
    for j in 0..d {
        m2[j] -= corr[j] * corr[j] / wsum;
    }
    Block {
        w: wsum,
        mean,
        m2,
        max_abs,
    }
}

fn merge(a: Block, b: Block) -> Block {
    let max_abs: Vec<f64> = a
        .max_abs
        .iter()
        .zip(&b.max_abs)
        .map(|(p, q)| p.max(*q))
        .collect();
    if b.w <= 0.0 {
        return Block { max_abs, ..a };
    }
    if a.w <= 0.0 {
        return Block { max_abs, ..b };
    }
    let w = a.w + b.w;
    let fb = b.w / w;
    let cross = a.w * b.w / w;
    let mut mean = a.mean;
    let mut m2 = a.m2;
    for j in 0..mean.len() {
        let delta = b.mean[j] - mean[j];
        mean[j] += delta * fb;
        m2[j] += b.m2[j] + delta * delta * cross;
    }
    Block {
        w,
        mean,
        m2,
        max_abs,
    }
}

fn moments_pass<F: Float>(x: &ArrayRef2<F>, w: Option<ArrayView1<'_, F>>, inv: &[f64]) -> Block {
    par::reduce_chunks(
        x.nrows(),
        STAT_CHUNK,
        Block::empty(x.ncols()),
        |r| {
            let xb = x.slice(s![r.clone(), ..]);
            let wb = w.map(|w| w.slice_move(s![r]));
            block_moments(xb, wb, inv)
        },
        merge,
    )
}

/// Largest `|x|` of each column (parallel, exact).
pub(crate) fn column_max_abs<F: Float>(x: &ArrayRef2<F>) -> Vec<F> {
    let d = x.ncols();
    par::reduce_chunks(
        x.nrows(),
        STAT_CHUNK,
        vec![F::zero(); d],
        |r| {
            let mut m = vec![F::zero(); d];
            for row in x.slice(s![r, ..]).rows() {
                for (mj, v) in m.iter_mut().zip(row.iter()) {
                    *mj = mj.max(v.abs());
                }
            }
            m
        },
        |a, b| a.iter().zip(&b).map(|(p, q)| p.max(*q)).collect(),
    )
}

/// Weighted column moments (see [`super::StandardScaler`] for the algorithm): one pass over the data,
/// and a second, rescaled one only when a column's magnitude is extreme.
pub(crate) fn column_moments<F: Float>(
    x: &ArrayRef2<F>,
    w: Option<ArrayView1<'_, F>>,
) -> ColumnMoments {
    let d = x.ncols();
    let ones = vec![1.0; d];
    let mut b = moments_pass(x, w, &ones);
    let factor: Vec<f64> = b
        .max_abs
        .iter()
        .map(|&m| {
            if m > 1e150 || (m > 0.0 && m < 1e-150) {
                // Exact power of two near the magnitude: scaling by it loses nothing.
                2f64.powi(m.log2().floor() as i32)
            } else {
                1.0
            }
        })
        .collect();
    if factor.iter().any(|&f| f != 1.0) {
        let inv: Vec<f64> = factor.iter().map(|f| 1.0 / f).collect();
        b = moments_pass(x, w, &inv);
    }
    let var = if b.w > 0.0 {
        b.m2.iter().map(|m| (m / b.w).max(0.0)).collect()
    } else {
        vec![0.0; d]
    };
    ColumnMoments {
        weight: b.w,
        mean: b.mean,
        var,
        factor,
    }
}

/// Column minima and maxima (parallel, exact).
pub(crate) fn column_min_max<F: Float>(x: &ArrayRef2<F>) -> (Vec<F>, Vec<F>) {
    let d = x.ncols();
    let init = (vec![F::infinity(); d], vec![F::neg_infinity(); d]);
    par::reduce_chunks(
        x.nrows(),
        STAT_CHUNK,
        init.clone(),
        |r| {
            let (mut lo, mut hi) = init.clone();
            for row in x.slice(s![r, ..]).rows() {
                for (j, &v) in row.iter().enumerate() {
                    lo[j] = lo[j].min(v);
                    hi[j] = hi[j].max(v);
                }
            }
            (lo, hi)
        },
        |(a0, a1), (b0, b1)| {
            (
                a0.iter().zip(&b0).map(|(p, q)| p.min(*q)).collect(),
                a1.iter().zip(&b1).map(|(p, q)| p.max(*q)).collect(),
            )
        },
    )
}
