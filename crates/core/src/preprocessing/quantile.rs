//! numpy-compatible order statistics on sorted slices (private helpers).
//!
//! `np.percentile` / `np.quantile` compute a *virtual index* `v` into the sorted sample, take the
//! neighbours `a[⌊v⌋]`, `a[⌊v⌋ + 1]` and interpolate with weight `γ`:
//!
//! | method | `v` | `γ` |
//! |---|---|---|
//! | `linear` (numpy's default, H&F type 7) | `(n − 1) q` | `v − ⌊v⌋` |
//! | `averaged_inverted_cdf` (H&F type 2) | `n q − 1` | `0.5` if `v` is an integer, else `1` |
//!
//! `v ≥ n − 1` gives the maximum and `v < 0` the minimum. The interpolation is numpy's
//! `_lerp`: `a + (b − a) γ` for `γ < 0.5` and `b − (b − a)(1 − γ)` otherwise, so that results agree
//! with numpy to the last bit in the common cases.

use std::cmp::Ordering;

use crate::Float;

/// Which quantile definition to use (numpy's `method` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QuantileMethod {
    /// numpy's default `linear` (Hyndman & Fan type 7).
    Linear,
    /// numpy's `averaged_inverted_cdf` (Hyndman & Fan type 2).
    AveragedInvertedCdf,
}

/// Sorts finite values ascending (NaN-free input; ties keep no particular order).
pub(crate) fn sort_finite<F: Float>(v: &mut [F]) {
    v.sort_unstable_by(|a, b| a.partial_cmp(b).unwrap_or(Ordering::Equal));
}

/// numpy's `_lerp(a, b, t)`.
pub(crate) fn lerp<F: Float>(a: F, b: F, t: F) -> F {
    let diff = b - a;
    if t >= F::cast(0.5) {
        b - diff * (F::one() - t)
    } else {
        a + diff * t
    }
}

/// The `q`-quantile (`q ∈ [0, 1]`) of an ascending, non-empty slice.
pub(crate) fn quantile_sorted<F: Float>(sorted: &[F], q: f64, method: QuantileMethod) -> F {
    let n = sorted.len();
    debug_assert!(n > 0, "quantile of an empty slice");
    if n == 0 {
        return F::nan();
    }
    let v = match method {
        QuantileMethod::Linear => (n - 1) as f64 * q,
        QuantileMethod::AveragedInvertedCdf => n as f64 * q - 1.0,
    };
    if v >= (n - 1) as f64 {
        return sorted[n - 1];
    }
    if v < 0.0 {
        return sorted[0];
    }
    let lo = v.floor();
    let i = lo as usize;
    let gamma = match method {
        QuantileMethod::Linear => v - lo,
        QuantileMethod::AveragedInvertedCdf => {
            if v - lo == 0.0 {
                0.5
            } else {
                1.0
            }
        }
    };
    lerp(sorted[i], sorted[i + 1], F::cast(gamma))
}

/// `np.percentile(a, p)` for `p ∈ [0, 100]` (numpy divides by 100 first).
pub(crate) fn percentile_sorted<F: Float>(sorted: &[F], p: f64, method: QuantileMethod) -> F {
    quantile_sorted(sorted, p / 100.0, method)
}

/// `np.median` of an ascending, non-empty slice: the middle value, or the mean of the two middle
/// values (`(a + b) / 2`, falling back to `a/2 + b/2` if the sum overflows).
pub(crate) fn median_sorted<F: Float>(sorted: &[F]) -> F {
    let n = sorted.len();
    if n == 0 {
        return F::nan();
    }
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        let (a, b) = (sorted[n / 2 - 1], sorted[n / 2]);
        let two = F::cast(2.0);
        let s = a + b;
        if s.is_finite() {
            s / two
        } else {
            a / two + b / two
        }
    }
}

/// numpy's `linspace(start, stop, num)` (endpoint included): `i·step + start` with
/// `step = (stop − start)/(num − 1)`, the last value set to `stop` exactly; when `step` is 0
/// (denormal range) numpy computes `(i/(num − 1))·(stop − start) + start` instead.
pub(crate) fn linspace(start: f64, stop: f64, num: usize) -> Vec<f64> {
    if num == 0 {
        return Vec::new();
    }
    if num == 1 {
        return vec![start];
    }
    let div = (num - 1) as f64;
    let delta = stop - start;
    let step = delta / div;
    let mut out: Vec<f64> = (0..num)
        .map(|i| {
            if step == 0.0 {
                (i as f64 / div) * delta + start
            } else {
                i as f64 * step + start
            }
        })
        .collect();
    out[num - 1] = stop;
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn linear_and_averaged_quantiles() {
        let a = [1.0, 2.0, 3.0, 4.0];
        // linear: v = 3 q; q = 0.25 -> v = 0.75 -> 1 + 0.75 = 1.75 (numpy gives 1.75).
        assert_eq!(quantile_sorted(&a, 0.25, QuantileMethod::Linear), 1.75);
        assert_eq!(quantile_sorted(&a, 1.0, QuantileMethod::Linear), 4.0);
        assert_eq!(quantile_sorted(&a, 0.0, QuantileMethod::Linear), 1.0);
        // averaged inverted cdf: v = 4 q − 1; q = 0.5 -> v = 1 (integer) -> mean of a[1], a[2].
        assert_eq!(
            quantile_sorted(&a, 0.5, QuantileMethod::AveragedInvertedCdf),
            2.5
        );
        // q = 0.3 -> v = 0.2 -> gamma 1 -> a[1].
        assert_eq!(
            quantile_sorted(&a, 0.3, QuantileMethod::AveragedInvertedCdf),
            2.0
        );
        assert_eq!(
            quantile_sorted(&a, 0.0, QuantileMethod::AveragedInvertedCdf),
            1.0
        );
        assert_eq!(percentile_sorted(&a, 50.0, QuantileMethod::Linear), 2.5);
    }

    #[test]
    fn median_and_linspace() {
        assert_eq!(median_sorted(&[1.0, 5.0, 7.0]), 5.0);
        assert_eq!(median_sorted(&[1.0, 5.0, 7.0, 9.0]), 6.0);
        assert_eq!(median_sorted(&[1e308, 1.5e308]), 1.25e308);
        assert_eq!(linspace(0.0, 1.0, 5), vec![0.0, 0.25, 0.5, 0.75, 1.0]);
        assert_eq!(linspace(2.0, 2.0, 3), vec![2.0, 2.0, 2.0]);
        let mut v = [3.0f32, -1.0, 2.0];
        sort_finite(&mut v);
        assert_eq!(v, [-1.0, 2.0, 3.0]);
    }
}
