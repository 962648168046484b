//! Private helpers shared by the metric files: input checks, label encoding, weights and sums.

use ndarray::{ArrayRef1, ArrayRef2};

use crate::validate::{check_finite_1d, check_finite_2d, check_sample_weight};
use crate::{Error, Float, Result};

/// Errors unless `found == expected` (lengths of two inputs that pair up sample by sample).
pub(crate) fn check_len(
    expected: usize,
    found: usize,
    context: &'static str,
    what: &str,
) -> Result<()> {
    if expected != found {
        return Err(Error::ShapeMismatch {
            context,
            expected: format!("{what} of length {expected} (one entry per sample)"),
            found: format!("length {found}"),
        });
    }
    Ok(())
}

/// Errors on zero samples.
pub(crate) fn check_nonempty(n: usize, context: &'static str) -> Result<()> {
    crate::validate::check_min_samples(n, 1, context)
}

/// Checks two paired label vectors: same length, at least one sample.
pub(crate) fn check_label_pair(
    a: &ArrayRef1<usize>,
    b: &ArrayRef1<usize>,
    context: &'static str,
) -> Result<()> {
    check_len(a.len(), b.len(), context, "the second label vector")?;
    check_nonempty(a.len(), context)
}

/// Validated optional sample weights as `f64`.
pub(crate) type Weights = Option<Vec<f64>>;

/// Validated sample weights as `f64` (`None` stays `None`): length `n`, finite, non-negative,
/// positive sum.
pub(crate) fn weights_f64<F: Float>(
    w: Option<&ArrayRef1<F>>,
    n: usize,
) -> Result<Option<Vec<f64>>> {
    match w {
        None => Ok(None),
        Some(w) => {
            check_sample_weight(w, n)?;
            Ok(Some(w.iter().map(|v| v.to_f64_lossless()).collect()))
        }
    }
}

/// Weight of sample `i` (1 without weights).
#[inline]
pub(crate) fn weight_at(w: &Option<Vec<f64>>, i: usize) -> f64 {
    w.as_ref().map_or(1.0, |w| w[i])
}

/// A finite float vector converted to `f64`.
pub(crate) fn finite_f64_1d<F: Float>(x: &ArrayRef1<F>, context: &'static str) -> Result<Vec<f64>> {
    check_finite_1d(x, context)?;
    Ok(x.iter().map(|v| v.to_f64_lossless()).collect())
}

/// Checks a finite float matrix.
pub(crate) fn finite_2d<F: Float>(x: &ArrayRef2<F>, context: &'static str) -> Result<()> {
    check_finite_2d(x, context)
}

/// Labels mapped to dense codes `0..classes.len()`, `classes` sorted ascending.
#[derive(Debug, Clone)]
pub(crate) struct Encoded {
    /// The distinct label values, ascending.
    pub classes: Vec<usize>,
    /// `codes[i]` = position of sample `i`'s label in `classes`.
    pub codes: Vec<usize>,
}

impl Encoded {
    /// Number of distinct labels.
    pub fn n_classes(&self) -> usize {
        self.classes.len()
    }

    /// Number of samples per class.
    pub fn counts(&self) -> Vec<usize> {
        let mut c = vec![0usize; self.classes.len()];
        for &k in &self.codes {
            c[k] += 1;
        }
        c
    }
}

/// Sorted distinct values of the given label vectors.
pub(crate) fn sorted_unique<'a>(
    parts: impl IntoIterator<Item = &'a ArrayRef1<usize>>,
) -> Vec<usize> {
    let parts: Vec<&ArrayRef1<usize>> = parts.into_iter().collect();
    let n: usize = parts.iter().map(|p| p.len()).sum();
    let max = parts
        .iter()
        .flat_map(|p| p.iter().copied())
        .max()
        .unwrap_or(0);
    // Dense marking when the values are small (the usual `0..k` class indices), else sort.
    if max < 4 * n + 1024 {
        let mut seen = vec![false; max + 1];
        for p in &parts {
            for &v in p.iter() {
                seen[v] = true;
            }
        }
        seen.iter()
            .enumerate()
            .filter_map(|(v, &s)| s.then_some(v))
            .collect()
    } else {
        let mut all: Vec<usize> = parts.iter().flat_map(|p| p.iter().copied()).collect();
        all.sort_unstable();
        all.dedup();
        all
    }
}

/// A lookup from label value to its position in a sorted class list.
pub(crate) struct Lookup {
    dense: Option<Vec<usize>>,
    classes: Vec<usize>,
}

impl Lookup {
    /// Builds the lookup for `classes` (ascending, distinct).
    pub fn new(classes: &[usize]) -> Self {
        let max = classes.last().copied().unwrap_or(0);
        let dense = (max < 4 * classes.len() + 4096).then(|| {
            let mut t = vec![usize::MAX; max + 1];
            for (k, &c) in classes.iter().enumerate() {
                t[c] = k;
            }
            t
        });
        Self {
            dense,
            classes: classes.to_vec(),
        }
    }

    /// Position of `v`, or `None` if it is not one of the classes.
    #[inline]
    pub fn get(&self, v: usize) -> Option<usize> {
        match &self.dense {
            Some(t) => t.get(v).copied().filter(|&k| k != usize::MAX),
            None => self.classes.binary_search(&v).ok(),
        }
    }
}

/// Encodes one label vector.
pub(crate) fn encode(labels: &ArrayRef1<usize>) -> Encoded {
    let classes = sorted_unique([labels]);
    let lookup = Lookup::new(&classes);
    let codes = labels.iter().map(|&v| lookup.get(v).unwrap_or(0)).collect();
    Encoded { classes, codes }
}

/// Neumaier-compensated running sum.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Neumaier {
    s: f64,
    c: f64,
}

impl Neumaier {
    /// Adds one term.
    #[inline]
    pub fn add(&mut self, v: f64) {
        let t = self.s + v;
        if self.s.abs() >= v.abs() {
            self.c += (self.s - t) + v;
        } else {
            self.c += (v - t) + self.s;
        }
        self.s = t;
    }

    /// The compensated total.
    #[inline]
    pub fn total(self) -> f64 {
        self.s + self.c
    }
}

/// Neumaier-compensated sum (deterministic, accurate to about one rounding).
pub(crate) fn sum(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut acc = Neumaier::default();
    for v in values {
        acc.add(v);
    }
    acc.total()
}

/// `Σ wᵢ vᵢ / Σ wᵢ` (plain mean without weights). The weights must have a positive sum.
pub(crate) fn weighted_mean(values: &[f64], w: &Option<Vec<f64>>) -> f64 {
    match w {
        None => sum(values.iter().copied()) / values.len() as f64,
        Some(w) => sum(values.iter().zip(w).map(|(v, w)| v * w)) / sum(w.iter().copied()),
    }
}

/// `0/0`-safe division following scikit-learn's `zero_division="warn"` default: `0` when the
/// denominator is `0`.
#[inline]
pub(crate) fn div0(num: f64, den: f64) -> f64 {
    if den == 0.0 { 0.0 } else { num / den }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn encoding_dense_and_sparse() {
        let e = encode(&array![5usize, 2, 5, 9]);
        assert_eq!(e.classes, vec![2, 5, 9]);
        assert_eq!(e.codes, vec![1, 0, 1, 2]);
        assert_eq!(e.counts(), vec![1, 2, 1]);
        let big = encode(&array![usize::MAX, 3, usize::MAX]);
        assert_eq!(big.classes, vec![3, usize::MAX]);
        assert_eq!(big.codes, vec![1, 0, 1]);
        let l = Lookup::new(&[1, 1 << 40]);
        assert_eq!(l.get(1 << 40), Some(1));
        assert_eq!(l.get(2), None);
        let (a, b) = (array![3usize, 1], array![2usize]);
        assert_eq!(sorted_unique([&*a, &*b]), vec![1, 2, 3]);
    }

    #[test]
    fn sums_and_means() {
        // 1e16 + 1 - 1e16: plain summation loses the 1, compensated summation keeps it.
        assert_eq!(sum([1e16, 1.0, -1e16]), 1.0);
        assert_eq!(weighted_mean(&[1.0, 3.0], &None), 2.0);
        assert_eq!(weighted_mean(&[1.0, 3.0], &Some(vec![3.0, 1.0])), 1.5);
        assert_eq!(div0(1.0, 0.0), 0.0);
        assert!(weights_f64(Some(&array![1.0, -1.0]), 2).is_err());
        assert!(check_label_pair(&array![0usize], &array![0usize, 1], "t").is_err());
    }
}
