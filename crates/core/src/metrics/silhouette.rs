//! Internal cluster validity (from the data and one labeling): inertia (clustering SSE),
//! silhouette coefficients, Davies–Bouldin and Calinski–Harabasz indices.
//!
//! Silhouette, Davies–Bouldin and Calinski–Harabasz are implementation choices, not in the course notes
//! (catalog §1.13); the clustering SSE is (M-07).
//!
//! # Silhouette algorithm
//!
//! `s(i) = (b(i) − a(i)) / max(a(i), b(i))` with `a(i)` the mean distance from `i` to the other
//! members of its cluster and `b(i)` the smallest mean distance to another cluster; `s(i) = 0`
//! for a singleton cluster (and when `a = b = 0`), as scikit-learn.
//!
//! The points are reordered by cluster once, so that every cluster is a contiguous range of
//! columns. Rows are processed in blocks (never `n × n` in memory): for Euclidean distances
//! blocks of about 2.6·10⁵ distances (at least 16 rows; 2 MB in `f64`, so that a block is still
//! in cache when it is summed) and one top-level GEMM per block on the data centred at
//! its mean (Gram trick `‖x‖² + ‖y‖² − 2xᵀy`, entries too small for the trick recomputed
//! directly, as [`crate::distance::pairwise_distances`] does), then, in parallel over fixed
//! chunks of rows, the square roots are summed per cluster range in `f64`. Other metrics use
//! [`crate::distance::pairwise_distances`] per block; a precomputed matrix is read row by row.
//! Each row's sums are formed by one task in a fixed order, so the result is bitwise identical
//! for any thread count. Cost `O(n² d)` time, `O(n d + block · n)` memory.

use ndarray::linalg::general_mat_mul;
use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use rayon::prelude::*;

use super::common::{Neumaier, check_len, encode, sum, weights_f64};
use crate::distance::{Metric, kernels, pairwise_distances};
use crate::validate::{check_finite_2d, check_fit_input};
use crate::{Error, Float, Result};

/// Distances per block of rows on the GEMM path (kept in cache between GEMM and sums).
const BLOCK_ELEMS: usize = 1 << 18;
/// Distances per block of rows for the other metrics (each block copies the data once).
const METRIC_BLOCK_ELEMS: usize = 1 << 21;
/// Rows per parallel task inside a block.
const TASK_ROWS: usize = 4;

/// Clusters as contiguous ranges after a stable reorder of the samples.
struct Groups {
    /// Cluster code of each sample.
    codes: Vec<usize>,
    /// Samples per cluster.
    counts: Vec<usize>,
    /// Sample indices sorted by cluster (stable).
    order: Vec<usize>,
    /// Cluster `c` occupies `order[starts[c]..starts[c + 1]]`.
    starts: Vec<usize>,
}

fn groups(labels: &ArrayRef1<usize>, context: &'static str) -> Result<Groups> {
    let e = encode(labels);
    let n = labels.len();
    let k = e.n_classes();
    if k < 2 || k >= n {
        return Err(if k < 2 {
            Error::TooFewClasses {
                context,
                needed: 2,
                found: k,
            }
        } else {
            Error::invalid_param(
                "labels",
                format!(
                    "{context}: {k} clusters for {n} samples; need 2 <= clusters <= n_samples - 1"
                ),
            )
        });
    }
    let counts = e.counts();
    let mut starts = vec![0usize; k + 1];
    for c in 0..k {
        starts[c + 1] = starts[c] + counts[c];
    }
    let mut next = starts.clone();
    let mut order = vec![0usize; n];
    for (i, &c) in e.codes.iter().enumerate() {
        order[next[c]] = i;
        next[c] += 1;
    }
    Ok(Groups {
        codes: e.codes,
        counts,
        order,
        starts,
    })
}

/// `s(i)` from the per-cluster distance sums of sample `i`.
fn coefficient(sums: &[f64], own: usize, counts: &[usize]) -> f64 {
    if counts[own] <= 1 {
        return 0.0;
    }
    let a = sums[own] / (counts[own] - 1) as f64;
    let b = sums
        .iter()
        .zip(counts)
        .enumerate()
        .filter(|(c, _)| *c != own)
        .map(|(_, (s, &n))| s / n as f64)
        .fold(f64::INFINITY, f64::min);
    let m = a.max(b);
    if m == 0.0 || !m.is_finite() {
        0.0
    } else {
        (b - a) / m
    }
}

/// Sum of `v` in `f64`, four lanes (a fixed order).
#[inline]
fn lane_sum_f64<F: Float>(v: &[F]) -> f64 {
    let mut acc = [0.0f64; 4];
    let chunks = v.chunks_exact(4);
    let rest = chunks.remainder();
    for c in chunks {
        for l in 0..4 {
            acc[l] += c[l].to_f64_lossless();
        }
    }
    let mut s = (acc[0] + acc[2]) + (acc[1] + acc[3]);
    for x in rest {
        s += x.to_f64_lossless();
    }
    s
}

fn check_x_labels<F: Float>(
    x: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
    context: &'static str,
) -> Result<()> {
    check_len(x.nrows(), labels.len(), context, "labels")?;
    check_fit_input(x, 2, context)
}

/// Silhouette coefficient of every sample, for distances `metric` between the rows of `x`.
///
/// Labels are arbitrary `usize` values (see [`crate::metrics::clustering`] for noise). Values
/// lie in `[−1, 1]`: near 1 the sample sits well inside its cluster, near 0 on a border, below
/// 0 closer to another cluster.
///
/// # Errors
/// [`Error::ShapeMismatch`] (label count ≠ rows, no column), [`Error::TooFewSamples`] (fewer
/// than 2 rows), [`Error::NonFinite`], [`Error::TooFewClasses`] (one cluster),
/// [`Error::InvalidParam`] (as many clusters as samples, or an invalid metric).
///
/// ```
/// use ndlearn_core::distance::Metric;
/// use ndlearn_core::metrics::silhouette_samples;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0], [1.0], [10.0], [12.0]];
/// let s = silhouette_samples(&x, &array![0usize, 0, 1, 1], &Metric::Euclidean)?;
/// // Sample 0: a = 1, b = (10 + 12)/2 = 11 → s = 10/11.
/// assert!((s[0] - 10.0 / 11.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn silhouette_samples<F: Float>(
    x: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
    metric: &Metric,
) -> Result<Array1<f64>> {
    const CTX: &str = "silhouette_samples";
    metric.validate()?;
    check_x_labels(x, labels, CTX)?;
    metric.check_dim(x.ncols(), CTX)?;
    let g = groups(labels, CTX)?;
    let sums = match metric {
        Metric::Euclidean => euclidean_sums(x, &g),
        Metric::Minkowski { p } if *p == 2.0 => euclidean_sums(x, &g),
        _ => metric_sums(x, &g, metric)?,
    };
    Ok(finish(&sums, &g))
}

/// Mean silhouette coefficient over all samples (scikit-learn's `silhouette_score` without
/// sub-sampling).
///
/// # Errors
/// As [`silhouette_samples`].
pub fn silhouette_score<F: Float>(
    x: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
    metric: &Metric,
) -> Result<f64> {
    let s = silhouette_samples(x, labels, metric)?;
    Ok(sum(s.iter().copied()) / s.len() as f64)
}

/// Silhouette coefficients from a precomputed `n × n` distance matrix (scikit-learn's
/// `metric="precomputed"`).
///
/// # Errors
/// As [`silhouette_samples`], plus [`Error::ShapeMismatch`] (not square) and
/// [`Error::InvalidParam`] (a negative entry, or a diagonal entry above `100 ε` in magnitude).
pub fn silhouette_samples_precomputed<F: Float>(
    distances: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
) -> Result<Array1<f64>> {
    const CTX: &str = "silhouette_samples_precomputed";
    let n = distances.nrows();
    if distances.ncols() != n {
        return Err(Error::ShapeMismatch {
            context: CTX,
            expected: "a square n x n distance matrix".into(),
            found: format!("{} x {}", n, distances.ncols()),
        });
    }
    check_x_labels(distances, labels, CTX)?;
    if distances.iter().any(|&v| v < F::zero()) {
        return Err(Error::invalid_param(
            "distances",
            "a precomputed distance matrix must not have negative entries",
        ));
    }
    let tol = F::epsilon() * F::cast(100.0);
    if let Some(i) = (0..n).find(|&i| distances[[i, i]].abs() > tol) {
        return Err(Error::invalid_param(
            "distances",
            format!("the diagonal of a distance matrix must be 0; entry ({i}, {i}) is not"),
        ));
    }
    let g = groups(labels, CTX)?;
    let k = g.counts.len();
    let sums: Vec<Vec<f64>> = crate::par::map_chunks(n, 64, |r| {
        r.map(|i| {
            let mut s = vec![0.0f64; k];
            for (j, &d) in distances.row(i).iter().enumerate() {
                s[g.codes[j]] += d.to_f64_lossless();
            }
            s
        })
        .collect::<Vec<_>>()
    })
    .into_iter()
    .flatten()
    .collect();
    Ok(finish(&sums, &g))
}

/// Mean of [`silhouette_samples_precomputed`].
///
/// # Errors
/// As [`silhouette_samples_precomputed`].
pub fn silhouette_score_precomputed<F: Float>(
    distances: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
) -> Result<f64> {
    let s = silhouette_samples_precomputed(distances, labels)?;
    Ok(sum(s.iter().copied()) / s.len() as f64)
}

fn finish(sums: &[Vec<f64>], g: &Groups) -> Array1<f64> {
    sums.iter()
        .enumerate()
        .map(|(i, s)| coefficient(s, g.codes[i], &g.counts))
        .collect()
}

fn block_rows(n: usize, elems: usize) -> usize {
    (elems / n.max(1)).clamp(16, 4096)
}

/// Per-cluster distance sums for every row by blocked GEMM (Euclidean).
fn euclidean_sums<F: Float>(x: &ArrayRef2<F>, g: &Groups) -> Vec<Vec<f64>> {
    let (n, d) = x.dim();
    let k = g.counts.len();
    let mu = x.mean_axis(Axis(0)).unwrap_or_else(|| Array1::zeros(d));
    let raw = x.as_standard_layout().into_owned();
    let mut xc = raw.clone();
    xc -= &mu;
    // Columns in cluster order (raw and centred).
    let ys_raw = raw.select(Axis(0), &g.order);
    let yc = xc.select(Axis(0), &g.order);
    let norms = |a: &Array2<F>| -> Vec<F> {
        a.rows()
            .into_iter()
            .map(|r| r.iter().fold(F::zero(), |s, &v| s + v * v))
            .collect()
    };
    let xn = norms(&xc);
    let yn = norms(&yc);
    let rho = if F::epsilon().to_f64_lossless() < 1e-10 {
        1e-12
    } else {
        1e-4
    };
    let tau = F::cast((2.0 * (d as f64).sqrt() + 4.0) * F::epsilon().to_f64_lossless() / rho);
    let two = F::cast(2.0);
    let (Some(raw_s), Some(ys_s)) = (raw.as_slice(), ys_raw.as_slice()) else {
        return Vec::new();
    };
    let rows = block_rows(n, BLOCK_ELEMS);
    let mut out: Vec<Vec<f64>> = Vec::with_capacity(n);
    let mut block = Array2::<F>::zeros((rows.min(n), n));
    for r0 in (0..n).step_by(rows) {
        let r1 = (r0 + rows).min(n);
        let mut gb = block.slice_mut(s![..r1 - r0, ..]);
        general_mat_mul(
            F::one(),
            &xc.slice(s![r0..r1, ..]),
            &yc.t(),
            F::zero(),
            &mut gb,
        );
        let Some(gs) = block.as_slice_mut() else {
            return Vec::new();
        };
        let gs = &mut gs[..(r1 - r0) * n];
        let part: Vec<Vec<f64>> = gs
            .par_chunks_mut(TASK_ROWS * n)
            .enumerate()
            .flat_map_iter(|(t, chunk)| {
                let (xn, yn, starts) = (&xn, &yn, &g.starts);
                chunk.chunks_mut(n).enumerate().map(move |(rr, row)| {
                    let i = r0 + t * TASK_ROWS + rr;
                    let a = xn[i];
                    let mut flagged = false;
                    for (v, &b) in row.iter_mut().zip(yn.iter()) {
                        let scale = a + b;
                        let s2 = scale - two * *v;
                        flagged |= s2 < tau * scale;
                        let s2 = if s2 > F::zero() { s2 } else { F::zero() };
                        *v = s2.sqrt();
                    }
                    if flagged {
                        let xi = &raw_s[i * d..(i + 1) * d];
                        for (j, v) in row.iter_mut().enumerate() {
                            let s2 = *v * *v;
                            if s2 < two * tau * (a + yn[j]) {
                                *v = kernels::sq_euclidean(xi, &ys_s[j * d..(j + 1) * d]).sqrt();
                            }
                        }
                    }
                    (0..k)
                        .map(|c| lane_sum_f64(&row[starts[c]..starts[c + 1]]))
                        .collect::<Vec<f64>>()
                })
            })
            .collect();
        out.extend(part);
    }
    out
}

/// Per-cluster distance sums for any metric through `pairwise_distances` per block.
fn metric_sums<F: Float>(x: &ArrayRef2<F>, g: &Groups, metric: &Metric) -> Result<Vec<Vec<f64>>> {
    let n = x.nrows();
    let k = g.counts.len();
    let ys = x.select(Axis(0), &g.order);
    let rows = block_rows(n, METRIC_BLOCK_ELEMS);
    let mut out = Vec::with_capacity(n);
    for r0 in (0..n).step_by(rows) {
        let r1 = (r0 + rows).min(n);
        let dist = pairwise_distances(&x.slice(s![r0..r1, ..]), &ys, metric)?;
        let part = crate::par::map_chunks(r1 - r0, TASK_ROWS, |r| {
            r.map(|rr| {
                let row = dist.row(rr);
                let row = row.as_slice().map_or_else(|| row.to_vec(), <[F]>::to_vec);
                (0..k)
                    .map(|c| lane_sum_f64(&row[g.starts[c]..g.starts[c + 1]]))
                    .collect::<Vec<f64>>()
            })
            .collect::<Vec<_>>()
        });
        out.extend(part.into_iter().flatten());
    }
    Ok(out)
}

/// Per-cluster means (`k × d`, `f64`) and encoded labels.
fn centroids<F: Float>(x: &ArrayRef2<F>, g: &Groups) -> Array2<f64> {
    let (k, d) = (g.counts.len(), x.ncols());
    let mut c = Array2::<f64>::zeros((k, d));
    for cl in 0..k {
        let members = &g.order[g.starts[cl]..g.starts[cl + 1]];
        for j in 0..d {
            c[[cl, j]] =
                sum(members.iter().map(|&i| x[[i, j]].to_f64_lossless())) / members.len() as f64;
        }
    }
    c
}

fn dist_f64<F: Float>(a: ndarray::ArrayView1<'_, F>, b: ndarray::ArrayView1<'_, f64>) -> f64 {
    sum(a.iter().zip(b).map(|(x, y)| {
        let t = x.to_f64_lossless() - y;
        t * t
    }))
    .sqrt()
}

/// Davies–Bouldin index: the mean over clusters of `max_{l≠k} (s_k + s_l) / d(c_k, c_l)` with
/// `s_k` the mean Euclidean distance of cluster `k`'s points to its centroid `c_k`. Lower is
/// better, 0 is the minimum. 0 when every `s_k` or every centroid distance is below `10⁻⁸`
/// (scikit-learn's check); coincident centroids contribute 0.
///
/// # Errors
/// As [`calinski_harabasz_score`].
pub fn davies_bouldin_score<F: Float>(x: &ArrayRef2<F>, labels: &ArrayRef1<usize>) -> Result<f64> {
    const CTX: &str = "davies_bouldin_score";
    check_x_labels(x, labels, CTX)?;
    let g = groups(labels, CTX)?;
    let c = centroids(x, &g);
    let k = g.counts.len();
    let s: Vec<f64> = (0..k)
        .map(|cl| {
            let members = &g.order[g.starts[cl]..g.starts[cl + 1]];
            sum(members.iter().map(|&i| dist_f64(x.row(i), c.row(cl)))) / members.len() as f64
        })
        .collect();
    let dc = Array2::from_shape_fn((k, k), |(a, b)| dist_f64(c.row(a), c.row(b)));
    let near0 = |v: f64| v.abs() <= 1e-8;
    if s.iter().all(|&v| near0(v)) || dc.iter().all(|&v| near0(v)) {
        return Ok(0.0);
    }
    let scores = (0..k).map(|a| {
        (0..k)
            .filter(|&b| b != a && dc[[a, b]] != 0.0)
            .map(|b| (s[a] + s[b]) / dc[[a, b]])
            .fold(0.0f64, f64::max)
    });
    Ok(sum(scores) / k as f64)
}

/// Calinski–Harabasz index (variance ratio criterion):
/// `[B / (k − 1)] / [W / (n − k)]` with `B = Σ_k n_k ‖c_k − c‖²` the between-cluster and
/// `W = Σᵢ ‖xᵢ − c_{yᵢ}‖²` the within-cluster dispersion. Higher is better; 1 when `W = 0`
/// (scikit-learn's convention).
///
/// # Errors
/// [`Error::ShapeMismatch`] (label count, no column), [`Error::TooFewSamples`],
/// [`Error::NonFinite`], [`Error::TooFewClasses`] (one cluster), [`Error::InvalidParam`] (as
/// many clusters as samples).
///
/// ```
/// use ndlearn_core::metrics::calinski_harabasz_score;
/// use ndlearn_core::ndarray::array;
///
/// // Centroids 0.5 and 10.5, grand mean 5.5: B = 2·25 + 2·25 = 100, W = 4·0.25 = 1.
/// let x = array![[0.0], [1.0], [10.0], [11.0]];
/// let ch = calinski_harabasz_score(&x, &array![0usize, 0, 1, 1])?;
/// assert!((ch - 100.0 * 2.0 / 1.0).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn calinski_harabasz_score<F: Float>(
    x: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
) -> Result<f64> {
    const CTX: &str = "calinski_harabasz_score";
    check_x_labels(x, labels, CTX)?;
    let g = groups(labels, CTX)?;
    let c = centroids(x, &g);
    let (n, d) = x.dim();
    let k = g.counts.len();
    let mean: Vec<f64> = (0..d)
        .map(|j| sum(x.column(j).iter().map(|v| v.to_f64_lossless())) / n as f64)
        .collect();
    let mut extra = Neumaier::default();
    let mut intra = Neumaier::default();
    for cl in 0..k {
        let members = &g.order[g.starts[cl]..g.starts[cl + 1]];
        let between = sum((0..d).map(|j| (c[[cl, j]] - mean[j]).powi(2)));
        extra.add(members.len() as f64 * between);
        for &i in members {
            for j in 0..d {
                intra.add((x[[i, j]].to_f64_lossless() - c[[cl, j]]).powi(2));
            }
        }
    }
    let (extra, intra) = (extra.total(), intra.total());
    Ok(if intra == 0.0 {
        1.0
    } else {
        extra * (n - k) as f64 / (intra * (k - 1) as f64)
    })
}

/// Inertia (clustering SSE, the k-means objective): `Σᵢ wᵢ ‖xᵢ − c_{yᵢ}‖²`, where `labels[i]`
/// is the **row index** of sample `i`'s centre in `centers` (as k-means returns them).
///
/// # Errors
/// [`Error::ShapeMismatch`] (label count, feature counts), [`Error::TooFewSamples`] (no row),
/// [`Error::NonFinite`], [`Error::InvalidLabel`] (a label `≥` the number of centres), invalid
/// weights.
///
/// ```
/// use ndlearn_core::metrics::inertia;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0, 0.0], [2.0, 0.0], [10.0, 1.0]];
/// let centers = array![[1.0, 0.0], [10.0, 0.0]];
/// assert_eq!(inertia(&x, &array![0usize, 0, 1], &centers, None)?, 3.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn inertia<F: Float>(
    x: &ArrayRef2<F>,
    labels: &ArrayRef1<usize>,
    centers: &ArrayRef2<F>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<f64> {
    const CTX: &str = "inertia";
    check_len(x.nrows(), labels.len(), CTX, "labels")?;
    check_fit_input(x, 1, CTX)?;
    if centers.ncols() != x.ncols() {
        return Err(Error::ShapeMismatch {
            context: CTX,
            expected: format!("centres with {} columns (as X)", x.ncols()),
            found: format!("{} columns", centers.ncols()),
        });
    }
    check_finite_2d(centers, "centers")?;
    let k = centers.nrows();
    if let Some((index, &label)) = labels.iter().enumerate().find(|(_, l)| **l >= k) {
        return Err(Error::InvalidLabel {
            label,
            index,
            reason: format!("labels index the {k} rows of centers"),
        });
    }
    let w = weights_f64(sample_weight, x.nrows())?;
    Ok(sum(labels.iter().enumerate().map(|(i, &l)| {
        let d2 = sum(x
            .row(i)
            .iter()
            .zip(centers.row(l))
            .map(|(a, b)| (a.to_f64_lossless() - b.to_f64_lossless()).powi(2)));
        super::common::weight_at(&w, i) * d2
    })))
}

#[cfg(test)]
#[path = "silhouette_tests.rs"]
mod tests;
