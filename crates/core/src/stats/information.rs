//! Information measures: entropy and mutual information (catalog CL-034; Cover & Thomas,
//! *Elements of Information Theory*, 2nd ed., Wiley (2006), ch. 2; the course notes estimate
//! mutual information by bucketising).
//!
//! * Entropy `H(p) = −Σᵢ pᵢ log pᵢ` (`0 log 0 = 0`). [`entropy`] normalizes its input like
//!   `scipy.stats.entropy` and takes an optional log base; the label-based functions use nats
//!   (natural log), as scikit-learn. The course notes leave the base open (catalog §1.14): decision trees
//!   conventionally use bits (`base = Some(2.0)`).
//! * Mutual information `I(X, Y) = Σₓ Σᵧ p(x, y) log[p(x, y) / (p(x) p(y))]` with the
//!   plug-in (empirical frequency) estimate; [`mutual_information_discrete`] equals
//!   `sklearn.metrics.mutual_info_score`.
//! * The binned estimator (the course notes: "approximate by bucketizing features into discrete
//!   bins and counting fractions"): each continuous variable is cut into `bins` **equal-width**
//!   bins over its own observed range `[min, max]`; a value on an inner edge goes to the bin on
//!   its right, the maximum into the last bin — the bins of `numpy.histogram2d(x, y, bins)`. A
//!   constant variable falls into one bin (its mutual information with anything is 0).
//!   Equal-width bins are an implementation choice; the course notes do not say how to bucketise.
//!
//! Complexity: `O(n log n)` at worst (labels are compacted by sorting when they are sparse).

use ndarray::ArrayRef1;

use crate::validate::{check_finite_1d, check_min_samples};
use crate::{Error, Float, Result};

/// Maps arbitrary `usize` labels to `0..k` in increasing label order; returns the codes and `k`.
fn encode(labels: &[usize]) -> (Vec<usize>, usize) {
    let max = labels.iter().copied().max().unwrap_or(0);
    if max <= 4 * labels.len() + 64 {
        let mut map = vec![usize::MAX; max + 1];
        for &l in labels {
            map[l] = 0;
        }
        let mut k = 0;
        for m in &mut map {
            if *m == 0 {
                *m = k;
                k += 1;
            }
        }
        (labels.iter().map(|&l| map[l]).collect(), k)
    } else {
        let mut uniq = labels.to_vec();
        uniq.sort_unstable();
        uniq.dedup();
        let codes = labels
            .iter()
            .map(|l| uniq.binary_search(l).unwrap_or(0))
            .collect();
        (codes, uniq.len())
    }
}

/// Compacts two label vectors of the same non-zero length (shared by the χ² contingency table).
pub(crate) fn encode_pair(
    a: &[usize],
    b: &[usize],
) -> Result<(Vec<usize>, usize, Vec<usize>, usize)> {
    if a.len() != b.len() {
        return Err(Error::ShapeMismatch {
            context: "label vectors",
            expected: format!("length {} (as the first)", a.len()),
            found: format!("length {}", b.len()),
        });
    }
    check_min_samples(a.len(), 1, "mutual information / contingency table")?;
    let (ia, ka) = encode(a);
    let (ib, kb) = encode(b);
    Ok((ia, ka, ib, kb))
}

/// Counts of the distinct labels, in label order.
fn counts(codes: &[usize], k: usize) -> Vec<usize> {
    let mut c = vec![0usize; k];
    for &i in codes {
        c[i] += 1;
    }
    c
}

/// Shannon entropy of a (possibly unnormalized) distribution, `−Σ pᵢ log pᵢ` after `p ← p/Σp`
/// (`scipy.stats.entropy(p, base=base)`); natural log when `base` is `None`.
///
/// # Errors
/// [`Error::InvalidParam`] for an empty `p`, a negative entry, a zero sum, or a base that is not
/// finite, `> 0` and `≠ 1`; [`Error::NonFinite`] for NaN/∞ entries.
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::information::entropy};
/// // A fair coin carries one bit; counts are normalized.
/// assert!((entropy(&array![3.0, 3.0], Some(2.0))? - 1.0).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn entropy(p: &ArrayRef1<f64>, base: Option<f64>) -> Result<f64> {
    if p.is_empty() {
        return Err(Error::invalid_param("p", "the distribution is empty"));
    }
    check_finite_1d(p, "p")?;
    if let Some(i) = p.iter().position(|&v| v < 0.0) {
        return Err(Error::invalid_param(
            "p",
            format!("probabilities must be >= 0; entry {i} is {}", p[i]),
        ));
    }
    let log_base = match base {
        None => 1.0,
        Some(b) if b.is_finite() && b > 0.0 && b != 1.0 => b.ln(),
        Some(b) => {
            return Err(Error::invalid_param(
                "base",
                format!("the log base must be finite, > 0 and != 1, got {b}"),
            ));
        }
    };
    let s: f64 = p.sum();
    if s <= 0.0 {
        return Err(Error::invalid_param("p", "the entries sum to 0"));
    }
    let h: f64 = p
        .iter()
        .map(|&v| {
            let q = v / s;
            if q > 0.0 { -q * q.ln() } else { 0.0 }
        })
        .sum();
    Ok(h / log_base)
}

/// Entropy in nats of the empirical distribution of `labels`, `−Σ_c (n_c/n) ln(n_c/n)`
/// (`sklearn.metrics.cluster.entropy`); 0 for an empty slice or a single label value.
///
/// ```
/// use ndlearn_core::stats::information::entropy_of_labels;
/// assert!((entropy_of_labels(&[7, 7, 9, 9]) - 2f64.ln()).abs() < 1e-15);
/// ```
pub fn entropy_of_labels(labels: &[usize]) -> f64 {
    if labels.is_empty() {
        return 0.0;
    }
    let (codes, k) = encode(labels);
    let n = labels.len() as f64;
    let ln_n = n.ln();
    let h: f64 = counts(&codes, k)
        .into_iter()
        .map(|c| {
            let c = c as f64;
            -(c / n) * (c.ln() - ln_n)
        })
        .sum();
    h.max(0.0)
}

/// Plug-in mutual information in nats of two discrete label vectors,
/// `Σᵢⱼ (nᵢⱼ/n) ln(n nᵢⱼ / (nᵢ. n.ⱼ))` (`sklearn.metrics.mutual_info_score(a, b)`); clipped at 0
/// against rounding, and exactly 0 when either vector has a single value.
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths, [`Error::TooFewSamples`] when empty.
///
/// ```
/// use ndlearn_core::stats::information::{entropy_of_labels, mutual_information_discrete};
/// let a = [0, 0, 1, 1, 2, 2];
/// // I(X, X) = H(X)
/// assert!((mutual_information_discrete(&a, &a)? - entropy_of_labels(&a)).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn mutual_information_discrete(a: &[usize], b: &[usize]) -> Result<f64> {
    let (ia, ka, ib, kb) = encode_pair(a, b)?;
    Ok(mi_codes(&ia, ka, &ib, kb))
}

/// MI of compacted codes.
fn mi_codes(ia: &[usize], ka: usize, ib: &[usize], kb: usize) -> f64 {
    if ka <= 1 || kb <= 1 {
        return 0.0;
    }
    let n = ia.len();
    let ca = counts(ia, ka);
    let cb = counts(ib, kb);
    // Joint counts as sorted (key, count) pairs, key = i·kb + j.
    let joint: Vec<(usize, usize)> = if ka.saturating_mul(kb) <= 4 * n + 1024 {
        let mut t = vec![0usize; ka * kb];
        for (&i, &j) in ia.iter().zip(ib) {
            t[i * kb + j] += 1;
        }
        t.into_iter().enumerate().filter(|&(_, c)| c > 0).collect()
    } else {
        let mut keys: Vec<usize> = ia.iter().zip(ib).map(|(&i, &j)| i * kb + j).collect();
        keys.sort_unstable();
        let mut out: Vec<(usize, usize)> = Vec::new();
        for k in keys {
            match out.last_mut() {
                Some((last, c)) if *last == k => *c += 1,
                _ => out.push((k, 1)),
            }
        }
        out
    };
    let nf = n as f64;
    let ln_n = nf.ln();
    let mi: f64 = joint
        .into_iter()
        .map(|(key, c)| {
            let (i, j) = (key / kb, key % kb);
            let c = c as f64;
            (c / nf) * (c.ln() + ln_n - (ca[i] as f64).ln() - (cb[j] as f64).ln())
        })
        .sum();
    mi.max(0.0)
}

/// Equal-width bin index of every value: `bins` bins over `[min x, max x]`, inner edges going to
/// the right bin and the maximum into the last one (`numpy.histogram` edges
/// `linspace(min, max, bins + 1)`); all zeros for a constant input.
///
/// # Errors
/// [`Error::InvalidParam`] for `bins = 0`; [`Error::TooFewSamples`] when empty;
/// [`Error::NonFinite`] for NaN/∞.
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::information::equal_width_bins};
/// assert_eq!(equal_width_bins(&array![0.0, 0.5, 1.0, 2.0], 2)?, vec![0, 0, 1, 1]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn equal_width_bins<F: Float>(x: &ArrayRef1<F>, bins: usize) -> Result<Vec<usize>> {
    if bins == 0 {
        return Err(Error::invalid_param("bins", "need at least 1 bin"));
    }
    check_min_samples(x.len(), 1, "equal_width_bins")?;
    check_finite_1d(x, "x")?;
    let v: Vec<f64> = x.iter().map(|a| a.to_f64_lossless()).collect();
    let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if hi <= lo {
        return Ok(vec![0; v.len()]);
    }
    let step = (hi - lo) / bins as f64;
    let edge = |k: usize| {
        if k >= bins { hi } else { k as f64 * step + lo }
    };
    Ok(v.iter()
        .map(|&a| {
            let g = ((a - lo) / step).floor();
            let mut g = if g.is_finite() && g > 0.0 {
                (g as usize).min(bins - 1)
            } else {
                0
            };
            while g > 0 && a < edge(g) {
                g -= 1;
            }
            while g + 1 < bins && a >= edge(g + 1) {
                g += 1;
            }
            g
        })
        .collect())
}

fn check_pair_len(nx: usize, ny: usize) -> Result<()> {
    if nx == ny {
        Ok(())
    } else {
        Err(Error::ShapeMismatch {
            context: "mutual information: y length",
            expected: format!("length {nx} (as x)"),
            found: format!("length {ny}"),
        })
    }
}

/// Binned mutual information in nats of two continuous variables: both are cut into `bins`
/// equal-width bins over their own range ([`equal_width_bins`]) and the plug-in estimate of the
/// joint histogram is returned — `mutual_info_score(None, None, contingency =
/// numpy.histogram2d(x, y, bins)[0])` (the course notes' bucketising estimate).
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths; as [`equal_width_bins`] otherwise.
///
/// ```
/// use ndlearn_core::{ndarray::array, stats::information::mutual_information_binned};
/// let x = array![0.0, 1.0, 2.0, 3.0];
/// // y = 2x + 1: both cut at their midpoints into the same halves, I = ln 2
/// let mi = mutual_information_binned(&x, &x.mapv(|v: f64| 2.0 * v + 1.0), 2)?;
/// assert!((mi - 2f64.ln()).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn mutual_information_binned<F: Float>(
    x: &ArrayRef1<F>,
    y: &ArrayRef1<F>,
    bins: usize,
) -> Result<f64> {
    check_pair_len(x.len(), y.len())?;
    let bx = equal_width_bins(x, bins)?;
    let by = equal_width_bins(y, bins)?;
    mutual_information_discrete(&bx, &by)
}

/// Binned mutual information in nats between a continuous feature and class labels (the
/// filter score of feature selection; Battiti, "Using mutual information for selecting
/// features in supervised neural net learning", IEEE Trans. Neural Networks 5(4), 1994): `x`
/// is cut into `bins` equal-width bins and
/// compared with `y` by [`mutual_information_discrete`].
///
/// # Errors
/// [`Error::ShapeMismatch`] for different lengths; as [`equal_width_bins`] otherwise.
pub fn mutual_information_binned_labels<F: Float>(
    x: &ArrayRef1<F>,
    y: &[usize],
    bins: usize,
) -> Result<f64> {
    check_pair_len(x.len(), y.len())?;
    let bx = equal_width_bins(x, bins)?;
    mutual_information_discrete(&bx, y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn entropy_by_hand_and_errors() {
        let ln2 = 2f64.ln();
        assert!((entropy(&array![0.5, 0.5], None).expect("ok") - ln2).abs() < 1e-16);
        assert!((entropy(&array![1.0, 1.0, 1.0, 1.0], Some(2.0)).expect("ok") - 2.0).abs() < 1e-15);
        assert_eq!(entropy(&array![0.0, 5.0], None).expect("ok"), 0.0);
        // H(¼, ¾) = −¼ ln ¼ − ¾ ln ¾
        let want = -0.25 * 0.25f64.ln() - 0.75 * 0.75f64.ln();
        assert!((entropy(&array![1.0, 3.0], None).expect("ok") - want).abs() < 1e-16);
        assert!(entropy(&ndarray::Array1::<f64>::zeros(0), None).is_err());
        assert!(entropy(&array![0.0, 0.0], None).is_err());
        assert!(entropy(&array![-0.1, 1.0], None).is_err());
        assert!(matches!(
            entropy(&array![f64::NAN, 1.0], None),
            Err(Error::NonFinite { .. })
        ));
        assert!(entropy(&array![0.5, 0.5], Some(1.0)).is_err());
        assert!(entropy(&array![0.5, 0.5], Some(-2.0)).is_err());
    }

    #[test]
    fn gini_and_entropy_bounds_tv27_companion() {
        // Entropy of n equally likely classes is ln n (the maximum), of one class 0.
        for n in 1..6usize {
            let labels: Vec<usize> = (0..n * 3).map(|i| i % n).collect();
            assert!((entropy_of_labels(&labels) - (n as f64).ln()).abs() < 1e-15);
        }
        assert_eq!(entropy_of_labels(&[]), 0.0);
        assert_eq!(entropy_of_labels(&[4, 4, 4]), 0.0);
        // sparse labels use the sorting path
        assert!((entropy_of_labels(&[1 << 40, 3]) - 2f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn mutual_information_by_hand() {
        // Independent: every (a, b) combination equally often ⇒ 0.
        let a = [0, 0, 1, 1];
        let b = [0, 1, 0, 1];
        assert_eq!(mutual_information_discrete(&a, &b).expect("ok"), 0.0);
        // Identical up to relabeling ⇒ H = ln 2.
        let c = [9, 9, 4, 4];
        assert!((mutual_information_discrete(&a, &c).expect("ok") - 2f64.ln()).abs() < 1e-15);
        // One cluster ⇒ 0.
        assert_eq!(
            mutual_information_discrete(&a, &[3, 3, 3, 3]).expect("ok"),
            0.0
        );
        // Sparse labels (sorting path for the joint table) give the same.
        let big = [usize::MAX, usize::MAX, 0, 0];
        assert!((mutual_information_discrete(&a, &big).expect("ok") - 2f64.ln()).abs() < 1e-15);
        assert!(mutual_information_discrete(&a, &b[..2]).is_err());
        assert!(matches!(
            mutual_information_discrete(&[], &[]),
            Err(Error::TooFewSamples { .. })
        ));
    }

    #[test]
    fn binning_follows_numpy_edges() {
        // edges 0, 1, 2, 3 (bins = 3 over [0, 3]): 1.0 goes right, 3.0 into the last bin.
        let x = array![0.0, 0.999, 1.0, 2.5, 3.0];
        assert_eq!(equal_width_bins(&x, 3).expect("ok"), vec![0, 0, 1, 2, 2]);
        assert_eq!(
            equal_width_bins(&array![2.0f32, 2.0], 4).expect("ok"),
            vec![0, 0]
        );
        assert!(equal_width_bins(&x, 0).is_err());
        assert!(equal_width_bins(&array![1.0, f64::INFINITY], 2).is_err());
        assert!(equal_width_bins(&ndarray::Array1::<f64>::zeros(0), 2).is_err());
        let y = array![1.0, 0.0, 1.0, 0.0, 1.0];
        assert!(mutual_information_binned(&x, &y.slice(ndarray::s![..4]), 2).is_err());
        assert!(mutual_information_binned_labels(&x, &[0, 1], 2).is_err());
        // constant feature carries no information
        let c = array![5.0, 5.0, 5.0, 5.0, 5.0];
        assert_eq!(mutual_information_binned(&c, &x, 4).expect("ok"), 0.0);
        assert_eq!(
            mutual_information_binned_labels(&x, &[0, 0, 1, 1, 1], 3).expect("ok"),
            mutual_information_discrete(&[0, 0, 1, 2, 2], &[0, 0, 1, 1, 1]).expect("ok")
        );
    }
}
