//! Quality of a low-dimensional embedding: trustworthiness (Venna & Kaski 2001), as
//! scikit-learn's `sklearn.manifold.trustworthiness`. An implementation choice, not in the
//! course notes.

use ndarray::{ArrayRef2, s};

use crate::distance::{Metric, pairwise_distances};
use crate::neighbors::NeighborIndex;
use crate::validate::check_fit_input;
use crate::{Error, Float, Result};

/// Query rows per block of the high-dimensional distance matrix.
const BLOCK_ELEMS: usize = 1 << 21;

/// Trustworthiness of an embedding:
/// `T(k) = 1 − 2 / (n k (2n − 3k − 1)) Σᵢ Σ_{j ∈ N_k^low(i)} max(0, r(i, j) − k)`, where
/// `N_k^low(i)` are the `k` nearest neighbours of `i` in the embedding (Euclidean) and `r(i, j)`
/// is the rank of `j` among `i`'s neighbours in the original space (by `metric`, 1 = nearest).
/// It penalises points that are close in the embedding but not in the original data; 1 is
/// best.
///
/// Ties (equal distances) are broken by the lower sample index, both in the ranks and in the
/// embedding's neighbour lists (scikit-learn leaves their order to an unstable sort). The
/// original-space distances are computed in blocks of rows (never `n × n` at once); cost
/// `O(n² (d + k))`.
///
/// # Errors
/// [`Error::ShapeMismatch`] (different row counts, no column), [`Error::TooFewSamples`],
/// [`Error::NonFinite`], [`Error::InvalidParam`] (`n_neighbors` 0 or `≥ n/2`, invalid metric).
///
/// ```
/// use ndlearn_core::distance::Metric;
/// use ndlearn_core::metrics::trustworthiness;
/// use ndlearn_core::ndarray::{array, s};
///
/// let x = array![[0.0, 0.0], [1.0, 0.1], [2.0, 0.0], [3.0, 0.2], [4.0, 0.0], [5.0, 0.1]];
/// // Dropping the small second coordinate keeps every neighbourhood.
/// let t = trustworthiness(&x, &x.slice(s![.., 0..1]), 2, &Metric::Euclidean)?;
/// assert_eq!(t, 1.0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn trustworthiness<F: Float>(
    x: &ArrayRef2<F>,
    x_embedded: &ArrayRef2<F>,
    n_neighbors: usize,
    metric: &Metric,
) -> Result<f64> {
    const CTX: &str = "trustworthiness";
    let n = x.nrows();
    if x_embedded.nrows() != n {
        return Err(Error::ShapeMismatch {
            context: CTX,
            expected: format!("{n} rows in the embedding (as in X)"),
            found: format!("{} rows", x_embedded.nrows()),
        });
    }
    check_fit_input(x, 2, CTX)?;
    check_fit_input(x_embedded, 2, CTX)?;
    metric.validate()?;
    let k = n_neighbors;
    if k == 0 || 2 * k >= n {
        return Err(Error::invalid_param(
            "n_neighbors",
            format!(
                "need 1 <= n_neighbors < n_samples / 2 = {}, got {k}",
                n as f64 / 2.0
            ),
        ));
    }
    let index = NeighborIndex::new(x_embedded.to_owned(), Metric::Euclidean)?;
    let (_, low) = index.kneighbors_self(k, false)?;
    let rows = (BLOCK_ELEMS / n).clamp(16, 4096);
    let mut penalty: u128 = 0;
    for r0 in (0..n).step_by(rows) {
        let r1 = (r0 + rows).min(n);
        let dist = pairwise_distances(&x.slice(s![r0..r1, ..]), x, metric)?;
        let part = crate::par::map_chunks(r1 - r0, 8, |r| {
            let mut total: u128 = 0;
            for rr in r {
                let i = r0 + rr;
                let row = dist.row(rr);
                for &j in low.row(i).iter() {
                    let dj = row[j];
                    // rank = 1 + #{l ≠ i : (d_l, l) < (d_j, j)}
                    let rank = 1 + row
                        .iter()
                        .enumerate()
                        .filter(|&(l, &dl)| l != i && (dl < dj || (dl == dj && l < j)))
                        .count();
                    total += rank.saturating_sub(k) as u128;
                }
            }
            total
        });
        penalty += part.into_iter().sum::<u128>();
    }
    let (nf, kf) = (n as f64, k as f64);
    Ok(1.0 - penalty as f64 * (2.0 / (nf * kf * (2.0 * nf - 3.0 * kf - 1.0))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn identity_is_perfect_and_shuffles_are_penalised() {
        let x = Array2::from_shape_fn((8, 1), |(i, _)| i as f64);
        assert_eq!(
            trustworthiness(&x, &x, 2, &Metric::Euclidean).expect("ok"),
            1.0
        );
        // A shuffled 1-D embedding, checked against the definition evaluated by full sorting.
        let perm = [5.0, 2.0, 7.0, 0.0, 4.0, 1.0, 6.0, 3.0];
        let e = Array2::from_shape_fn((8, 1), |(i, _)| perm[i]);
        for k in [1, 2, 3] {
            let t = trustworthiness(&x, &e, k, &Metric::Euclidean).expect("ok");
            let want = brute(&x, &e, k);
            assert!((t - want).abs() < 1e-15, "k={k}: {t} vs {want}");
            assert!(t < 1.0);
        }
        // Hand check, k = 1: points 0, 1, 2, 3 on a line embedded at 0, 3, 1, 2. Embedded
        // nearest neighbours (ties to the lower index): 0 -> 2, 1 -> 3, 2 -> 0, 3 -> 1.
        // Original-space ranks: r(0, 2) = 2 (after 1); r(1, 3) = 3 (after 0 and 2, both at
        // distance 1); r(2, 0) = 3 (after 1 and 3); r(3, 1) = 2 (after 2). Penalty
        // Σ (r − 1) = 1 + 2 + 2 + 1 = 6, so T = 1 − 6 · 2 / (4 · 1 · (8 − 3 − 1)) = 0.25.
        let x4 = array![[0.0], [1.0], [2.0], [3.0]];
        let e4 = array![[0.0], [3.0], [1.0], [2.0]];
        let t4 = trustworthiness(&x4, &e4, 1, &Metric::Euclidean).expect("ok");
        assert!((t4 - 0.25).abs() < 1e-15, "{t4}");
    }

    /// The definition with full sorting (stable, ties by index).
    fn brute(x: &Array2<f64>, e: &Array2<f64>, k: usize) -> f64 {
        let n = x.nrows();
        let d = |a: &Array2<f64>, i: usize, j: usize| (a[[i, 0]] - a[[j, 0]]).abs();
        let mut pen = 0usize;
        for i in 0..n {
            let mut hi: Vec<usize> = (0..n).filter(|&l| l != i).collect();
            hi.sort_by(|&a, &b| d(x, i, a).total_cmp(&d(x, i, b)).then(a.cmp(&b)));
            let mut lo: Vec<usize> = (0..n).filter(|&l| l != i).collect();
            lo.sort_by(|&a, &b| d(e, i, a).total_cmp(&d(e, i, b)).then(a.cmp(&b)));
            for &j in &lo[..k] {
                let r = 1 + hi.iter().position(|&l| l == j).unwrap_or(0);
                pen += r.saturating_sub(k);
            }
        }
        let (nf, kf) = (n as f64, k as f64);
        1.0 - pen as f64 * (2.0 / (nf * kf * (2.0 * nf - 3.0 * kf - 1.0)))
    }

    #[test]
    fn errors() {
        let x = array![[0.0], [1.0], [2.0], [3.0]];
        assert!(matches!(
            trustworthiness(&x, &x, 2, &Metric::Euclidean),
            Err(Error::InvalidParam {
                name: "n_neighbors",
                ..
            })
        ));
        assert!(trustworthiness(&x, &x, 0, &Metric::Euclidean).is_err());
        assert!(matches!(
            trustworthiness(&x, &array![[0.0], [1.0]], 1, &Metric::Euclidean),
            Err(Error::ShapeMismatch { .. })
        ));
        let bad = array![[0.0], [f64::NAN], [2.0], [3.0]];
        assert!(matches!(
            trustworthiness(&bad, &x, 1, &Metric::Euclidean),
            Err(Error::NonFinite { .. })
        ));
        assert!(trustworthiness(&x, &x, 1, &Metric::Minkowski { p: 0.5 }).is_err());
    }
}
