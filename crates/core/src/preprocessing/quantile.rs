//! Order statistics for the preprocessing transformers: the numpy-compatible definitions of
//! [`crate::stats::order`] under the names the transformers use, plus numpy's `linspace`.

pub(crate) use crate::stats::order::{
    QuantileMethod, median_sorted, quantile_sorted, sort_ascending as sort_finite,
};

/// `np.percentile(a, p)` for `p ∈ [0, 100]` on an ascending slice (numpy divides by 100 first).
pub(crate) fn percentile_sorted<F: crate::Float>(
    sorted: &[F],
    p: f64,
    method: QuantileMethod,
) -> F {
    quantile_sorted(sorted, p / 100.0, method)
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
