//! Numerically stable elementary functions of machine learning: the logistic sigmoid and its
//! logarithm, `log(1 + eˣ)` (softplus), row-wise log-sum-exp, softmax and log-softmax, and
//! `argmax` with a fixed tie and NaN rule.
//!
//! Every crate of the workspace computes these through this module (the loss functions of
//! [`crate::loss`], logistic regression, the naive Bayes posteriors, mixtures, neural networks),
//! so they round and break ties alike.
//!
//! | function | value | how |
//! |---|---|---|
//! | [`sigmoid`] | `σ(z) = 1/(1 + e⁻ᶻ)` | `1/(1 + e⁻ᶻ)` for `z ≥ 0`, `eᶻ/(1 + eᶻ)` below: never overflows, relative error of a few ulp everywhere |
//! | [`log_sigmoid`] | `log σ(z) = −log(1 + e⁻ᶻ)` | `−log1pexp(−z)` |
//! | [`log1pexp`] (= [`softplus`]) | `log(1 + eᶻ)` | the four cut-offs of Mächler (2012, eq. 10) as scikit-learn's `_loss` module uses them: `eᶻ` for `z ≤ −37`, `log1p(eᶻ)` for `z ≤ −2`, `log(1 + eᶻ)` for `z ≤ 18`, `z + e⁻ᶻ` for `z ≤ 33.3`, `z` above |
//! | [`logit`] | `log(p/(1 − p))` | `ln p − ln1p(−p)` |
//! | [`log_sum_exp`], [`log_sum_exp_rows`] | `log Σⱼ exp(zⱼ)` | `m + log Σ exp(zⱼ − m)` with `m = max zⱼ` |
//! | [`softmax`], [`softmax_rows`], [`softmax_rows_inplace`] | `exp(zⱼ)/Σₖ exp(zₖ)` | the max is subtracted first |
//! | [`log_softmax`], [`log_softmax_rows`] | `zⱼ − log Σₖ exp(zₖ)` | from the log-sum-exp |
//! | [`argmax`], [`argmax_rows`] | index of the largest value | ties to the **lowest** index; NaN never wins; an empty or all-NaN row gives 0 |
//!
//! Special values: `log_sum_exp` of a row containing NaN is NaN, of a row containing `+∞` is
//! `+∞`, of an empty or all-`−∞` row is `−∞`. `softmax` / `log_softmax` of a row containing NaN
//! or `+∞`, or of an all-`−∞` row, are NaN (there is no distribution to report); callers that can
//! meet such rows check first (the naive Bayes posteriors report a typed error).
//!
//! ```
//! use ndlearn_core::numeric::{argmax, log1pexp, log_sum_exp, sigmoid, softmax};
//!
//! assert_eq!(sigmoid(0.0_f64), 0.5);
//! assert!((log1pexp(1000.0_f64) - 1000.0).abs() == 0.0);   // no overflow
//! let z = [1000.0_f64, 1000.0];
//! assert!((log_sum_exp(&z) - (1000.0 + 2f64.ln())).abs() < 1e-12);
//! assert_eq!(softmax(&z), vec![0.5, 0.5]);
//! assert_eq!(argmax([1.0, 3.0, 3.0, f64::NAN]), 1);          // ties to the lowest index
//! ```
//!
//! # References
//!
//! - M. Mächler, "Accurately computing log(1 − exp(−|a|))", the Rmpfr package vignette, 2012.
//! - scikit-learn's `sklearn/_loss/_loss.pyx.tp` (`log1pexp`, `sum_exp_minus_max`).

use ndarray::{Array1, Array2, ArrayRef2, ArrayViewMut1, Axis};

use crate::{Float, par};

/// Rows per parallel chunk of the row-wise functions (fixed: results do not depend on threads).
const ROW_CHUNK: usize = 2048;

/// Matrices with fewer elements than this are processed on the calling thread.
const PAR_MIN_ELEMENTS: usize = 1 << 16;

/// The logistic sigmoid `σ(z) = 1/(1 + e⁻ᶻ)`, without overflow for any `z`.
///
/// `σ(±∞) = 1, 0`; `σ(NaN) = NaN`.
#[inline]
pub fn sigmoid<F: Float>(z: F) -> F {
    if z >= F::zero() {
        F::one() / (F::one() + (-z).exp())
    } else {
        let e = z.exp();
        e / (F::one() + e)
    }
}

/// `log(1 + eᶻ)` (softplus), accurate to rounding for every `z` (see the module docs for the
/// cut-offs, which are scikit-learn's).
#[inline]
pub fn log1pexp<F: Float>(z: F) -> F {
    if z <= F::cast(-37.0) {
        z.exp()
    } else if z <= F::cast(-2.0) {
        z.exp().ln_1p()
    } else if z <= F::cast(18.0) {
        (F::one() + z.exp()).ln()
    } else if z <= F::cast(33.3) {
        z + (-z).exp()
    } else {
        z
    }
}

/// The softplus function `log(1 + eᶻ)`: the same as [`log1pexp`].
#[inline]
pub fn softplus<F: Float>(z: F) -> F {
    log1pexp(z)
}

/// `log σ(z) = −log(1 + e⁻ᶻ)`.
#[inline]
pub fn log_sigmoid<F: Float>(z: F) -> F {
    -log1pexp(-z)
}

/// The logit `log(p/(1 − p))`, the inverse of [`sigmoid`] (`±∞` at 1 and 0, NaN outside
/// `[0, 1]`).
#[inline]
pub fn logit<F: Float>(p: F) -> F {
    p.ln() - (-p).ln_1p()
}

/// Index of the largest value: exact ties go to the lowest index and NaN never wins (an empty
/// or all-NaN sequence gives 0). Every classifier of the workspace predicts through it.
#[inline]
pub fn argmax<F: Float>(values: impl IntoIterator<Item = F>) -> usize {
    let mut best = 0;
    let mut best_value = F::neg_infinity();
    let mut seen = false;
    for (i, v) in values.into_iter().enumerate() {
        // `v > best_value` is false for NaN; the first non-NaN value (even −∞) is taken.
        if v > best_value || (!seen && !v.is_nan()) {
            best = i;
            best_value = v;
            seen = true;
        }
    }
    best
}

/// [`argmax`] of every row.
pub fn argmax_rows<F: Float>(z: &ArrayRef2<F>) -> Array1<usize> {
    z.rows()
        .into_iter()
        .map(|r| argmax(r.iter().copied()))
        .collect()
}

/// `log Σⱼ exp(zⱼ)` without overflow (special values: see the module docs).
pub fn log_sum_exp<F: Float>(z: &[F]) -> F {
    let m = max_of(z);
    if m.is_nan() || m == F::infinity() || m == F::neg_infinity() {
        return m;
    }
    let s: F = z.iter().map(|&v| (v - m).exp()).sum();
    m + s.ln()
}

/// The maximum, NaN if any entry is NaN, `−∞` for an empty slice.
fn max_of<F: Float>(z: &[F]) -> F {
    let mut m = F::neg_infinity();
    for &v in z {
        if v.is_nan() {
            return v;
        }
        if v > m {
            m = v;
        }
    }
    m
}

/// The softmax `exp(zⱼ)/Σₖ exp(zₖ)` of one vector.
pub fn softmax<F: Float>(z: &[F]) -> Vec<F> {
    let mut out = z.to_vec();
    softmax_slice_inplace(&mut out);
    out
}

/// The log-softmax `zⱼ − log Σₖ exp(zₖ)` of one vector.
pub fn log_softmax<F: Float>(z: &[F]) -> Vec<F> {
    let mut out = z.to_vec();
    log_softmax_slice_inplace(&mut out);
    out
}

/// Softmax in place on a slice.
pub fn softmax_slice_inplace<F: Float>(z: &mut [F]) {
    let m = max_of(z);
    if !m.is_finite() {
        z.iter_mut().for_each(|v| *v = F::nan());
        return;
    }
    let mut s = F::zero();
    for v in z.iter_mut() {
        *v = (*v - m).exp();
        s += *v;
    }
    let inv = F::one() / s;
    z.iter_mut().for_each(|v| *v *= inv);
}

/// Log-softmax in place on a slice.
pub fn log_softmax_slice_inplace<F: Float>(z: &mut [F]) {
    let m = max_of(z);
    if !m.is_finite() {
        z.iter_mut().for_each(|v| *v = F::nan());
        return;
    }
    let s: F = z.iter().map(|&v| (v - m).exp()).sum();
    let lse = m + s.ln();
    z.iter_mut().for_each(|v| *v -= lse);
}

/// Applies `f` to every row of `z` in place (fixed row chunks in parallel for large matrices).
fn rows_inplace<F: Float>(z: &mut Array2<F>, f: fn(&mut [F])) {
    let apply = |mut row: ArrayViewMut1<'_, F>| match row.as_slice_mut() {
        Some(s) => f(s),
        None => {
            let mut v = row.to_vec();
            f(&mut v);
            row.iter_mut().zip(v).for_each(|(a, b)| *a = b);
        }
    };
    if z.len() < PAR_MIN_ELEMENTS {
        z.rows_mut().into_iter().for_each(apply);
    } else {
        par::for_each_row_chunk_mut(z, ROW_CHUNK, |_, mut block| {
            block.rows_mut().into_iter().for_each(apply);
        });
    }
}

/// Row-wise softmax in place (each row of `z` becomes a probability vector).
pub fn softmax_rows_inplace<F: Float>(z: &mut Array2<F>) {
    rows_inplace(z, softmax_slice_inplace);
}

/// Row-wise softmax: row `i` of the result is [`softmax`] of row `i` of `z`.
pub fn softmax_rows<F: Float>(z: &ArrayRef2<F>) -> Array2<F> {
    let mut out = z.as_standard_layout().into_owned();
    softmax_rows_inplace(&mut out);
    out
}

/// Row-wise log-softmax in place.
pub fn log_softmax_rows_inplace<F: Float>(z: &mut Array2<F>) {
    rows_inplace(z, log_softmax_slice_inplace);
}

/// Row-wise log-softmax.
pub fn log_softmax_rows<F: Float>(z: &ArrayRef2<F>) -> Array2<F> {
    let mut out = z.as_standard_layout().into_owned();
    log_softmax_rows_inplace(&mut out);
    out
}

/// Row-wise log-sum-exp: entry `i` is [`log_sum_exp`] of row `i`.
pub fn log_sum_exp_rows<F: Float>(z: &ArrayRef2<F>) -> Array1<F> {
    let one = |r: ndarray::ArrayView1<'_, F>| match r.as_slice() {
        Some(s) => log_sum_exp(s),
        None => log_sum_exp(&r.to_vec()),
    };
    if z.len() < PAR_MIN_ELEMENTS {
        return z.rows().into_iter().map(one).collect();
    }
    let parts = par::map_row_chunks(z, ROW_CHUNK, |_, block| {
        block.rows().into_iter().map(one).collect::<Vec<F>>()
    });
    Array1::from(parts.concat())
}

/// Row sums of `exp(z)` after subtracting the row maxima, with the maxima: the pieces of a
/// log-sum-exp that several callers need together. Row `i` gives `(mᵢ, Σⱼ exp(zᵢⱼ − mᵢ))`.
pub fn max_and_sum_exp_rows<F: Float>(z: &ArrayRef2<F>) -> (Array1<F>, Array1<F>) {
    let m = z.map_axis(Axis(1), |r| max_of(&r.to_vec()));
    let mut s = Array1::zeros(z.nrows());
    for ((row, &mi), si) in z.rows().into_iter().zip(&m).zip(s.iter_mut()) {
        *si = row.iter().map(|&v| (v - mi).exp()).sum();
    }
    (m, s)
}

/// `eˣ` in `f64` by a branch-free algorithm that compiles to SIMD in loops over slices
/// ([`exp_in_place`]) and gives the same bits on every machine (only IEEE additions and
/// multiplications, no fused multiply-add, no libm).
///
/// Method: `x = n ln 2 + r` with `n = round(x / ln 2)` (the `1.5·2⁵²` rounding trick) and
/// `|r| ≤ ln 2 / 2` by Cody and Waite's two-part `ln 2`; `eʳ` by its Taylor polynomial of degree
/// 13 in Horner form (truncation below `4·10⁻¹⁸`); `2ⁿ` applied as two exact power-of-two
/// factors so that results in the subnormal range need no branch. Error at most 2 ulp (tested
/// against the standard library's `exp` on a dense grid). `exp(NaN) = NaN`,
/// `exp(x > 709.78) = +∞`, `exp(x < −745.13) = 0`. The kernels use it for the Gaussian (RBF)
/// kernel rows, where the exponential was a quarter of an SVM fit (decision 0022).
///
/// ```
/// use ndlearn_core::numeric::exp_portable;
///
/// assert_eq!(exp_portable(0.0), 1.0);
/// assert!((exp_portable(1.0) - std::f64::consts::E).abs() <= 2.0 * f64::EPSILON * std::f64::consts::E);
/// assert_eq!(exp_portable(-800.0), 0.0);
/// assert_eq!(exp_portable(800.0), f64::INFINITY);
/// ```
#[inline(always)]
pub fn exp_portable(x: f64) -> f64 {
    const LOG2E: f64 = std::f64::consts::LOG2_E;
    // ln 2 split so that n·LN2_HI is exact for |n| < 2²⁰ (fdlibm's constants)
    const LN2_HI: f64 = f64::from_bits(0x3fe6_2e42_fee0_0000);
    const LN2_LO: f64 = f64::from_bits(0x3dea_39ef_3579_3c76);
    const SHIFTER: f64 = 6_755_399_441_055_744.0; // 1.5·2⁵²: x + SHIFTER rounds x to an integer
    // 1/k! for k = 13 down to 2
    const C: [f64; 12] = [
        1.0 / 6_227_020_800.0,
        1.0 / 479_001_600.0,
        1.0 / 39_916_800.0,
        1.0 / 3_628_800.0,
        1.0 / 362_880.0,
        1.0 / 40_320.0,
        1.0 / 5_040.0,
        1.0 / 720.0,
        1.0 / 120.0,
        1.0 / 24.0,
        1.0 / 6.0,
        0.5,
    ];
    // NaN stays NaN through the comparisons of clamp
    let x = x.clamp(-746.0, 710.0);
    let t = x * LOG2E + SHIFTER;
    let nf = t - SHIFTER;
    let r = (x - nf * LN2_HI) - nf * LN2_LO;
    let mut p = C[0];
    for c in &C[1..] {
        p = p * r + c;
    }
    let p = (p * r + 1.0) * r + 1.0;
    // n and ⌊n/2⌉ as integers from the low mantissa bits (two's complement, |n| ≤ 1077)
    let n = t.to_bits().wrapping_sub(SHIFTER.to_bits());
    let n1 = (nf * 0.5 + SHIFTER)
        .to_bits()
        .wrapping_sub(SHIFTER.to_bits());
    let n2 = n.wrapping_sub(n1);
    let s1 = f64::from_bits(n1.wrapping_add(1023) << 52);
    let s2 = f64::from_bits(n2.wrapping_add(1023) << 52);
    p * s1 * s2
}

/// `v ← eᵛ` for every element by [`exp_portable`] (vectorised; `f32` is computed in `f64` and
/// rounded once).
#[inline]
pub fn exp_in_place<F: Float>(v: &mut [F]) {
    for e in v.iter_mut() {
        *e = F::cast(exp_portable(e.to_f64_lossless()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn sigmoid_and_friends_at_extremes() {
        assert_eq!(sigmoid(0.0_f64), 0.5);
        assert_eq!(sigmoid(f64::INFINITY), 1.0);
        assert_eq!(sigmoid(f64::NEG_INFINITY), 0.0);
        assert!(sigmoid(f64::NAN).is_nan());
        assert_eq!(sigmoid(-800.0_f64), 0.0);
        assert!(sigmoid(-700.0_f64) > 0.0);
        assert_eq!(log1pexp(1e6_f64), 1e6);
        assert_eq!(log1pexp(-1e6_f64), 0.0);
        assert!((log_sigmoid(-1000.0_f64) + 1000.0).abs() < 1e-12);
        assert!((logit(sigmoid(1.25_f64)) - 1.25).abs() < 1e-14);
        assert_eq!(logit(0.0_f64), f64::NEG_INFINITY);
        assert_eq!(logit(1.0_f64), f64::INFINITY);
        // f32: same cut-offs, no overflow.
        assert_eq!(log1pexp(100.0_f32), 100.0);
        assert!((sigmoid(-20.0_f32) - 2.0611537e-9).abs() < 1e-15);
    }

    #[test]
    fn argmax_rule() {
        assert_eq!(argmax([2.0, 5.0, 5.0]), 1);
        assert_eq!(argmax([f64::NAN, 1.0, 3.0]), 2);
        assert_eq!(argmax([f64::NAN, f64::NAN]), 0);
        assert_eq!(argmax(Vec::<f64>::new()), 0);
        assert_eq!(argmax([f64::NEG_INFINITY, f64::NEG_INFINITY, 0.0]), 2);
        assert_eq!(argmax([f64::NAN, f64::NEG_INFINITY]), 1);
        assert_eq!(argmax([1.0, f64::NAN, 1.0]), 0);
        let z = array![[1.0, 2.0], [3.0, 3.0], [f64::NAN, -1.0]];
        assert_eq!(argmax_rows(&z).to_vec(), vec![1, 0, 1]);
    }

    #[test]
    fn log_sum_exp_special_values() {
        assert_eq!(log_sum_exp::<f64>(&[]), f64::NEG_INFINITY);
        assert_eq!(
            log_sum_exp(&[f64::NEG_INFINITY, f64::NEG_INFINITY]),
            f64::NEG_INFINITY
        );
        assert_eq!(log_sum_exp(&[1.0, f64::INFINITY]), f64::INFINITY);
        assert!(log_sum_exp(&[1.0, f64::NAN]).is_nan());
        assert_eq!(log_sum_exp(&[f64::NEG_INFINITY, 2.0]), 2.0);
        assert!(softmax(&[f64::NEG_INFINITY, f64::NEG_INFINITY])[0].is_nan());
        assert_eq!(softmax(&[f64::NEG_INFINITY, 0.0]), vec![0.0, 1.0]);
    }

    #[test]
    fn row_forms_match_the_vector_forms_and_sum_to_one() {
        // Large enough to take the parallel path; the result must not depend on it.
        let n = 40_000;
        let z = Array2::from_shape_fn((n, 3), |(i, j)| ((i * 7 + j * 13) % 17) as f64 - 8.0);
        let p = softmax_rows(&z);
        let lp = log_softmax_rows(&z);
        let lse = log_sum_exp_rows(&z);
        for i in [0, 1, 777, n - 1] {
            let row = z.row(i).to_vec();
            assert_eq!(p.row(i).to_vec(), softmax(&row));
            assert_eq!(lp.row(i).to_vec(), log_softmax(&row));
            assert_eq!(lse[i], log_sum_exp(&row));
            assert!((p.row(i).sum() - 1.0).abs() < 1e-15);
        }
        let single = par::with_threads(1, || softmax_rows(&z)).expect("pool");
        assert_eq!(single, p);
        let (m, s) = max_and_sum_exp_rows(&z.view());
        assert!((m[5] + s[5].ln() - lse[5]).abs() < 1e-15);
        // Non-contiguous rows (a transposed view) take the copying path.
        let zt = z.slice(ndarray::s![..10, ..]).t().to_owned();
        let pt = softmax_rows(&zt.t());
        assert_eq!(pt.row(3).to_vec(), softmax(&z.row(3).to_vec()));
    }

    #[test]
    fn exp_portable_is_within_two_ulp_of_std_and_handles_the_edges() {
        let ulp = |a: f64, b: f64| (a.to_bits() as i64 - b.to_bits() as i64).abs();
        let mut worst = 0;
        let mut x = -745.0;
        while x < 709.7 {
            let (a, b) = (exp_portable(x), x.exp());
            worst = worst.max(ulp(a, b));
            x += 0.000_731;
        }
        for &x in &[
            -1e-300,
            1e-300,
            1e-17,
            -1e-17,
            0.346_573_590_279_972_6,
            -0.346_573_590_279_972_6,
        ] {
            worst = worst.max(ulp(exp_portable(x), x.exp()));
        }
        assert!(worst <= 2, "{worst} ulp");
        assert_eq!(exp_portable(0.0), 1.0);
        assert_eq!(exp_portable(-0.0), 1.0);
        assert!(exp_portable(f64::NAN).is_nan());
        assert_eq!(exp_portable(f64::INFINITY), f64::INFINITY);
        assert_eq!(exp_portable(f64::NEG_INFINITY), 0.0);
        assert_eq!(exp_portable(709.78), 709.78f64.exp());
        assert_eq!(exp_portable(710.0), f64::INFINITY);
        assert_eq!(exp_portable(-746.0), 0.0);
        // subnormal results: within 1 unit of the smallest subnormal
        for &x in &[-708.5, -720.0, -740.0, -744.4] {
            let (a, b) = (exp_portable(x), x.exp());
            assert!((a - b).abs() <= b * 1e-12 + 5e-324, "{x}: {a} vs {b}");
        }
        let mut v = vec![0.5f32, -3.0, f32::NAN];
        exp_in_place(&mut v);
        assert_eq!(v[0], 0.5f64.exp() as f32);
        assert_eq!(v[1], (-3.0f64).exp() as f32);
        assert!(v[2].is_nan());
    }
}
