//! Filter scores: correlation, binned mutual information, χ² (two flavours) and ANOVA F-tests
//! (the course notes' filters; Guyon & Elisseeff, "An introduction to variable and feature
//! selection", JMLR 3, 2003; catalog M-08, CL-184).
//!
//! Each is a free function over a whole matrix (`x`: `n × d`) and a unit-like struct
//! implementing [`ScoreFunction`] for [`SelectKBest`](super::SelectKBest) /
//! [`SelectPercentile`](super::SelectPercentile). Statistics are accumulated in `f64` and
//! returned as `F`; features are processed in parallel (`crate::par`, per column, so results do
//! not depend on the thread count).

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use super::univariate::{FeatureScores, ScoreFunction};
use crate::stats::information::{
    equal_width_bins, mutual_information_binned, mutual_information_binned_labels,
};
use crate::stats::special::beta_inc;
use crate::stats::tests::{chi2_independence_labels, chi2_sf};
use crate::validate::{check_classification_input, check_regression_input};
use crate::{Error, Float, Result, par};

/// Columns of `x` as `f64` vectors (one allocation per column).
fn column_f64<F: Float>(x: &ArrayRef2<F>, j: usize) -> Vec<f64> {
    x.column(j).iter().map(|v| v.to_f64_lossless()).collect()
}

/// `v / max|v|` (unchanged when all zero) and the scale `max|v|`: the statistics below are
/// scale-invariant (or scale linearly), and working on `[-1, 1]` keeps sums of squares of data
/// near `1e±300` from overflowing or underflowing.
fn unit_scaled(mut v: Vec<f64>) -> (Vec<f64>, f64) {
    let s = v.iter().fold(0.0f64, |m, a| m.max(a.abs()));
    if s > 0.0 {
        for a in &mut v {
            *a /= s;
        }
    }
    (v, s)
}

/// Class codes `0..K` of the classes that occur (in label order), and `K`.
fn present_classes(y: &ArrayRef1<usize>, n_classes: usize) -> (Vec<usize>, usize) {
    let mut seen = vec![false; n_classes];
    for &v in y {
        seen[v] = true;
    }
    let mut code = vec![0usize; n_classes];
    let mut k = 0;
    for c in 0..n_classes {
        if seen[c] {
            code[c] = k;
            k += 1;
        }
    }
    (y.iter().map(|&v| code[v]).collect(), k)
}

/// `P(F_{d1,d2} > f)` through the regularized incomplete Beta function.
fn f_sf(f: f64, d1: f64, d2: f64) -> f64 {
    if f <= 0.0 {
        return 1.0;
    }
    if f.is_infinite() {
        return 0.0;
    }
    beta_inc(0.5 * d2, 0.5 * d1, d2 / (d2 + d1 * f))
}

/// A finite F statistic: `+∞` (zero within-group / residual variance) becomes the largest
/// finite value of `F` (scikit-learn's `force_finite`).
fn finite_or_max<F: Float>(v: f64) -> F {
    if v.is_infinite() {
        F::max_value()
    } else {
        F::cast(v)
    }
}

/// scikit-learn's `chi2`: the χ² statistic of each **non-negative** feature (counts,
/// frequencies, booleans) against the classes, and its p-value.
///
/// With `K` the classes that occur, `Y` the `n × K` one-hot class matrix and `x_j` feature `j`:
/// observed `O_kj = Σ_{i: yᵢ = k} x_ij`, expected `E_kj = (n_k / n) Σᵢ x_ij`,
/// `χ²_j = Σ_k (O_kj − E_kj)² / E_kj` and `p_j = P(χ²_{K−1} > χ²_j)`. The feature is treated as
/// a frequency spread over the classes, so this is not the contingency-table test on a binned
/// feature ([`chi2_independence_scores`]).
///
/// An all-zero feature (`E = 0`) gets statistic 0 and p-value 1 (scikit-learn: NaN).
///
/// ```
/// use ndlearn_core::feature_selection::chi2;
/// use ndlearn_core::ndarray::array;
///
/// // Feature 0 counts: class 0 has 3 + 1, class 1 has 0 + 0: total 4, expected 2 and 2.
/// let x = array![[3.0, 1.0], [1.0, 1.0], [0.0, 1.0], [0.0, 1.0]];
/// let y = array![0usize, 0, 1, 1];
/// let (stat, p) = chi2::<f64>(&x, &y)?;
/// assert!((stat[0] - 4.0).abs() < 1e-12); // (4 − 2)²/2 + (0 − 2)²/2
/// assert_eq!(stat[1], 0.0);
/// assert!((p[0] - 0.0455).abs() < 1e-4);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite or negative `x`, fewer than two classes.
pub fn chi2<F: Float>(x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<(Array1<F>, Array1<F>)> {
    let n_classes = check_classification_input(x, y, 2, "chi2")?;
    if let Some(((i, j), v)) = x.indexed_iter().find(|(_, v)| **v < F::zero()) {
        return Err(Error::invalid_param(
            "x",
            format!("chi2 needs non-negative features; entry ({i}, {j}) is {v}"),
        ));
    }
    let (codes, k) = present_classes(y, n_classes);
    let n = y.len() as f64;
    let mut class_n = vec![0.0f64; k];
    for &c in &codes {
        class_n[c] += 1.0;
    }
    let res = par::map_tasks(x.ncols(), |j| {
        let (col, scale) = unit_scaled(column_f64(x, j));
        let mut observed = vec![0.0f64; k];
        for (&v, &c) in col.iter().zip(&codes) {
            observed[c] += v;
        }
        let total: f64 = observed.iter().sum();
        if total <= 0.0 {
            return (0.0, 1.0);
        }
        // Σ (O − E)²/E with E = p_k · total, written as total · Σ (O/total − p_k)² / p_k.
        let spread: f64 = observed
            .iter()
            .zip(&class_n)
            .map(|(&o, &nk)| {
                let p = nk / n;
                let d = o / total - p;
                d * d / p
            })
            .sum();
        let stat = spread * total * scale;
        (stat, chi2_sf(stat, (k - 1) as f64))
    });
    Ok(split(&res))
}

/// ANOVA F-test of each feature against the classes (scikit-learn's `f_classif`).
///
/// With `K` classes that occur, class means `x̄_k`, overall mean `x̄`:
/// `F = [Σ_k n_k (x̄_k − x̄)² / (K − 1)] / [Σ_k Σ_{i∈k} (xᵢ − x̄_k)² / (n − K)]`,
/// p-value `P(F_{K−1, n−K} > F)`. Sums of squares are computed around the means (two passes;
/// scikit-learn uses raw sums, so the last digits can differ).
///
/// A constant feature gets `F = 0`, `p = 1`; a feature constant within every class but not
/// overall gets the largest finite `F` and `p = 0` (scikit-learn: NaN and ∞).
///
/// ```
/// use ndlearn_core::feature_selection::f_classif;
/// use ndlearn_core::ndarray::array;
///
/// // Groups {1, 2, 3} and {5, 6, 7}: SSB = 24 on 1 dof, SSW = 4 on 4 dof, F = 24.
/// let x = array![[1.0], [2.0], [3.0], [5.0], [6.0], [7.0]];
/// let (f, p) = f_classif::<f64>(&x, &array![0usize, 0, 0, 1, 1, 1])?;
/// assert!((f[0] - 24.0).abs() < 1e-12 && p[0] < 0.01);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite `x`, fewer than two classes, `n ≤ K`.
pub fn f_classif<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
) -> Result<(Array1<F>, Array1<F>)> {
    let n_classes = check_classification_input(x, y, 2, "f_classif")?;
    let (codes, k) = present_classes(y, n_classes);
    let n = y.len();
    if n <= k {
        return Err(Error::TooFewSamples {
            context: "f_classif (n − K within-class degrees of freedom)",
            needed: k + 1,
            found: n,
        });
    }
    let mut class_n = vec![0.0f64; k];
    for &c in &codes {
        class_n[c] += 1.0;
    }
    let (dfb, dfw) = ((k - 1) as f64, (n - k) as f64);
    let res = par::map_tasks(x.ncols(), |j| {
        let (col, _) = unit_scaled(column_f64(x, j));
        let mut sums = vec![0.0f64; k];
        for (&v, &c) in col.iter().zip(&codes) {
            sums[c] += v;
        }
        let mean = sums.iter().sum::<f64>() / n as f64;
        let means: Vec<f64> = sums.iter().zip(&class_n).map(|(s, m)| s / m).collect();
        let ssb: f64 = means
            .iter()
            .zip(&class_n)
            .map(|(&m, &nk)| nk * (m - mean) * (m - mean))
            .sum();
        let ssw: f64 = col
            .iter()
            .zip(&codes)
            .map(|(&v, &c)| (v - means[c]) * (v - means[c]))
            .sum();
        if ssb <= 0.0 {
            return (0.0, 1.0);
        }
        let f = (ssb / dfb) / (ssw / dfw);
        (f, f_sf(f, dfb, dfw))
    });
    let (f, p) = split(&res);
    Ok((f, p))
}

/// Pearson correlation `r_j` of each feature with a real target (scikit-learn's
/// `r_regression`): `r_j = Σᵢ (x_ij − x̄_j)(yᵢ − ȳ) / √(Σᵢ (x_ij − x̄_j)² Σᵢ (yᵢ − ȳ)²)`, with the
/// centring done by [`crate::stats::center`].
///
/// A constant feature, or a constant target, has no defined correlation: its score is **0**
/// (scikit-learn's `force_finite`), not an error and not NaN, so such features rank last.
///
/// ```
/// use ndlearn_core::feature_selection::r_regression;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[1.0, 4.0, 7.0], [2.0, 3.0, 7.0], [3.0, 2.0, 7.0]];
/// let r = r_regression::<f64>(&x, &array![10.0, 20.0, 30.0])?;
/// assert!((r[0] - 1.0).abs() < 1e-15 && (r[1] + 1.0).abs() < 1e-15);
/// assert_eq!(r[2], 0.0); // constant column
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite input, fewer than 2 samples.
pub fn r_regression<F: Float>(x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<Array1<F>> {
    check_regression_input(x, y, 2, "r_regression")?;
    // r is scale-invariant: bring every column and y to max |.| = 1 first (no overflow of the
    // sums of squares for data near 1e±300), then centre.
    let mut scaled = x.to_owned();
    for mut col in scaled.columns_mut() {
        let s = col.iter().fold(F::zero(), |m, a| m.max(a.abs()));
        if s > F::zero() {
            col /= s;
        }
    }
    let (xc, _) = crate::stats::center(&scaled)?;
    let (ys, _) = unit_scaled(y.iter().map(|v| v.to_f64_lossless()).collect());
    let ys: Array1<f64> = ys.into();
    let ym = crate::stats::mean_1d(&ys)?;
    let yc: Vec<f64> = ys.iter().map(|&v| v - ym).collect();
    let yy: f64 = yc.iter().map(|v| v * v).sum();
    let res = par::map_tasks(x.ncols(), |j| {
        let col = xc.column(j);
        let (mut xy, mut xx) = (0.0f64, 0.0f64);
        for (&a, &b) in col.iter().zip(&yc) {
            let a = a.to_f64_lossless();
            xy += a * b;
            xx += a * a;
        }
        if xx <= 0.0 || yy <= 0.0 {
            0.0
        } else {
            (xy / (xx.sqrt() * yy.sqrt())).clamp(-1.0, 1.0)
        }
    });
    Ok(res.into_iter().map(F::cast).collect())
}

/// Univariate linear-regression F-test of each feature (scikit-learn's `f_regression` with
/// `center = True`, `force_finite = True`): `F_j = r_j² / (1 − r_j²) · (n − 2)` with `r_j` from
/// [`r_regression`], p-value `P(F_{1, n−2} > F_j)`.
///
/// Constant feature or target: `F = 0`, `p = 1`; `|r| = 1`: the largest finite `F`, `p = 0`.
///
/// ```
/// use ndlearn_core::feature_selection::f_regression;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[1.0, 0.2], [2.0, 0.9], [3.0, 0.1], [4.0, 0.5], [5.0, 0.3]];
/// let (f, p) = f_regression::<f64>(&x, &array![1.1, 1.9, 3.2, 3.9, 5.1])?;
/// assert!(f[0] > f[1] && p[0] < 1e-3 && p[1] > 0.5);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite input, fewer than 3 samples.
pub fn f_regression<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
) -> Result<(Array1<F>, Array1<F>)> {
    check_regression_input(x, y, 3, "f_regression")?;
    let r = r_regression(x, y)?;
    let dof = (y.len() - 2) as f64;
    let res: Vec<(f64, f64)> = r
        .iter()
        .map(|&r| {
            let r2 = r.to_f64_lossless().powi(2);
            if r2 == 0.0 {
                (0.0, 1.0)
            } else if r2 >= 1.0 {
                (f64::INFINITY, 0.0)
            } else {
                let f = r2 / (1.0 - r2) * dof;
                (f, f_sf(f, 1.0, dof))
            }
        })
        .collect();
    Ok(split(&res))
}

/// Binned mutual information (nats) of each feature with the class labels: the feature is cut
/// into `bins` equal-width bins and `I(X; Y) = Σ p(x, y) ln[p(x, y) / (p(x) p(y))]` is estimated
/// from the counts (the course notes' bucketising;
/// [`mutual_information_binned_labels`](crate::stats::information::mutual_information_binned_labels)).
/// A constant feature scores 0.
///
/// ```
/// use ndlearn_core::feature_selection::mutual_info_classif_binned;
/// use ndlearn_core::ndarray::array;
///
/// // Column 0 splits the classes exactly (I = ln 2 nats); column 1 says nothing.
/// let x = array![[0.0, 1.0], [0.1, 2.0], [0.9, 1.0], [1.0, 2.0]];
/// let mi = mutual_info_classif_binned::<f64>(&x, &array![0usize, 0, 1, 1], 2)?;
/// assert!((mi[0] - 2f64.ln()).abs() < 1e-15 && mi[1].abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite `x`, `bins = 0`, no labels.
pub fn mutual_info_classif_binned<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    bins: usize,
) -> Result<Array1<F>> {
    check_classification_input(x, y, 1, "mutual_info_classif_binned")?;
    let labels = y.to_vec();
    let mi = par::try_map_tasks(x.ncols(), |j| {
        mutual_information_binned_labels(&x.column(j), &labels, bins)
    })?;
    Ok(mi.into_iter().map(F::cast).collect())
}

/// Binned mutual information (nats) of each feature with a real target: both are cut into
/// `bins` equal-width bins
/// ([`mutual_information_binned`](crate::stats::information::mutual_information_binned)).
///
/// ```
/// use ndlearn_core::feature_selection::mutual_info_regression_binned;
/// use ndlearn_core::ndarray::array;
///
/// let x = array![[0.0], [1.0], [2.0], [3.0]];
/// let mi = mutual_info_regression_binned::<f64>(&x, &array![1.0, 3.0, 5.0, 7.0], 2)?;
/// assert!((mi[0] - 2f64.ln()).abs() < 1e-15);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite input, `bins = 0`.
pub fn mutual_info_regression_binned<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<F>,
    bins: usize,
) -> Result<Array1<F>> {
    check_regression_input(x, y, 1, "mutual_info_regression_binned")?;
    let mi = par::try_map_tasks(x.ncols(), |j| {
        mutual_information_binned(&x.column(j), y, bins)
    })?;
    Ok(mi.into_iter().map(F::cast).collect())
}

/// The course notes' χ² significance test for each feature: the feature is cut into `bins`
/// equal-width bins, the `bins × classes` contingency table of observed counts is built
/// (empty bins dropped) and Pearson's test of independence is run
/// ([`chi2_independence_labels`](crate::stats::tests::chi2_independence_labels), no Yates
/// correction): statistic `Σ (O − E)²/E`, `dof = (r − 1)(c − 1)`. A constant feature (one bin)
/// gets statistic 0, p-value 1.
///
/// Unlike [`chi2`] this works for any real feature (negative values too), and its p-values
/// compare features with different numbers of occupied bins.
///
/// ```
/// use ndlearn_core::feature_selection::chi2_independence_scores;
/// use ndlearn_core::ndarray::array;
///
/// // Column 0 in 2 bins is the class: the 2×2 table [[2, 0], [0, 2]] gives χ² = n = 4.
/// let x = array![[-1.0, 5.0], [-0.8, 6.0], [2.0, 5.0], [2.5, 6.0]];
/// let (stat, p) = chi2_independence_scores::<f64>(&x, &array![0usize, 0, 1, 1], 2)?;
/// assert!((stat[0] - 4.0).abs() < 1e-12 && stat[1].abs() < 1e-12);
/// assert!(p[0] < p[1]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// Shape mismatch, non-finite `x`, `bins = 0`, fewer than two classes.
pub fn chi2_independence_scores<F: Float>(
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    bins: usize,
) -> Result<(Array1<F>, Array1<F>)> {
    check_classification_input(x, y, 2, "chi2_independence_scores")?;
    let labels = y.to_vec();
    let res = par::try_map_tasks(x.ncols(), |j| {
        let b = equal_width_bins(&x.column(j), bins)?;
        let t = chi2_independence_labels(&b, &labels, false)?;
        Ok((t.statistic, t.p_value))
    })?;
    Ok(split(&res))
}

fn split<F: Float>(res: &[(f64, f64)]) -> (Array1<F>, Array1<F>) {
    (
        res.iter().map(|r| finite_or_max(r.0)).collect(),
        res.iter().map(|r| F::cast(r.1)).collect(),
    )
}

/// [`chi2`] as a [`ScoreFunction`] (scores and p-values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Chi2;

/// [`f_classif`] as a [`ScoreFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FClassif;

/// [`f_regression`] as a [`ScoreFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FRegression;

/// `|r_j|` of [`r_regression`] as a [`ScoreFunction`] (no p-values).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PearsonCorrelation;

/// [`mutual_info_classif_binned`] with `bins` bins as a [`ScoreFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MutualInfoClassif {
    /// Number of equal-width bins per feature (`≥ 1`).
    pub bins: usize,
}

/// [`mutual_info_regression_binned`] with `bins` bins as a [`ScoreFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct MutualInfoRegression {
    /// Number of equal-width bins for the feature and the target (`≥ 1`).
    pub bins: usize,
}

/// [`chi2_independence_scores`] with `bins` bins as a [`ScoreFunction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Chi2Independence {
    /// Number of equal-width bins per feature (`≥ 1`).
    pub bins: usize,
}

impl<F: Float> ScoreFunction<F> for Chi2 {
    type Target = ArrayRef1<usize>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FeatureScores<F>> {
        let (s, p) = chi2(x, y)?;
        Ok(FeatureScores::with_pvalues(s, p))
    }
}

impl<F: Float> ScoreFunction<F> for FClassif {
    type Target = ArrayRef1<usize>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FeatureScores<F>> {
        let (s, p) = f_classif(x, y)?;
        Ok(FeatureScores::with_pvalues(s, p))
    }
}

impl<F: Float> ScoreFunction<F> for FRegression {
    type Target = ArrayRef1<F>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FeatureScores<F>> {
        let (s, p) = f_regression(x, y)?;
        Ok(FeatureScores::with_pvalues(s, p))
    }
}

impl<F: Float> ScoreFunction<F> for PearsonCorrelation {
    type Target = ArrayRef1<F>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FeatureScores<F>> {
        Ok(FeatureScores::new(r_regression(x, y)?.mapv(|v| v.abs())))
    }
}

impl<F: Float> ScoreFunction<F> for MutualInfoClassif {
    type Target = ArrayRef1<usize>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FeatureScores<F>> {
        Ok(FeatureScores::new(mutual_info_classif_binned(
            x, y, self.bins,
        )?))
    }
}

impl<F: Float> ScoreFunction<F> for MutualInfoRegression {
    type Target = ArrayRef1<F>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<F>) -> Result<FeatureScores<F>> {
        Ok(FeatureScores::new(mutual_info_regression_binned(
            x, y, self.bins,
        )?))
    }
}

impl<F: Float> ScoreFunction<F> for Chi2Independence {
    type Target = ArrayRef1<usize>;
    fn score(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FeatureScores<F>> {
        let (s, p) = chi2_independence_scores(x, y, self.bins)?;
        Ok(FeatureScores::with_pvalues(s, p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn f_classif_by_hand() {
        // Groups {1, 2, 3} and {5, 6, 7}: means 2 and 6, grand mean 4.
        // SSB = 3·4 + 3·4 = 24 (df 1), SSW = 2 + 2 = 4 (df 4): F = (24/1) / (4/4) = 24.
        let x: Array2<f64> = array![[1.0], [2.0], [3.0], [5.0], [6.0], [7.0]];
        let y = array![0usize, 0, 0, 1, 1, 1];
        let (f, p) = f_classif(&x, &y).expect("ok");
        assert!((f[0] - 24.0).abs() < 1e-12);
        // P(F_{1,4} > 24) = P(|t_4| > √24) = 1 − I_{24/28}(1/2, 2) → check through the t tail:
        // for 4 dof, P(|t| > t0) = 1 − t0 (t0² + 6) / (t0² + 4)^{3/2}.
        let t0 = 24f64.sqrt();
        let want = 1.0 - t0 * (t0 * t0 + 6.0) / (t0 * t0 + 4.0).powf(1.5);
        assert!((p[0] - want).abs() < 1e-14, "{} vs {want}", p[0]);
    }

    #[test]
    fn degenerate_features_are_scored_not_rejected() {
        let x = array![
            [1.0, 0.0, 2.0],
            [1.0, 0.0, 2.0],
            [1.0, 0.0, 5.0],
            [1.0, 0.0, 5.0]
        ];
        let y = array![0usize, 0, 1, 1];
        let (f, p) = f_classif(&x, &y).expect("ok");
        assert_eq!((f[0], p[0]), (0.0, 1.0));
        assert_eq!((f[2], p[2]), (f64::MAX, 0.0)); // constant within each class
        let (c, cp) = chi2(&x, &y).expect("ok");
        assert_eq!((c[1], cp[1]), (0.0, 1.0));
        let yr = array![1.0, 2.0, 3.0, 4.0];
        let r = r_regression(&x, &yr).expect("ok");
        assert_eq!(r[0], 0.0);
        let (fr, pr) = f_regression(&x, &yr).expect("ok");
        assert_eq!((fr[0], pr[0]), (0.0, 1.0));
        // Constant target: every correlation is 0.
        assert!(
            r_regression(&x, &array![2.0, 2.0, 2.0, 2.0])
                .expect("ok")
                .iter()
                .all(|&v| v == 0.0)
        );
        // Perfect correlation (r² rounds to 1 − 2⁻⁵²: a huge finite F, p ≈ 0).
        let xl = array![[1.0], [2.0], [3.0], [4.0]];
        let (fl, pl) = f_regression(&xl, &yr).expect("ok");
        assert!(fl[0] > 1e15 && fl[0].is_finite() && pl[0] < 1e-15);
        let (s, p) = chi2_independence_scores(&x, &y, 3).expect("ok");
        assert_eq!((s[0], p[0]), (0.0, 1.0));
        // Column 2 in 3 bins: bins {0, 2} vs classes: a perfect 2×2 table, χ² = n = 4.
        assert!((s[2] - 4.0).abs() < 1e-12);
        let mi = mutual_info_classif_binned(&x, &y, 4).expect("ok");
        assert_eq!(mi[0], 0.0);
        assert!((mi[2] - 2f64.ln()).abs() < 1e-15);
    }

    #[test]
    fn pearson_matches_the_correlation_matrix() {
        let x = Array2::from_shape_fn((20, 3), |(i, j)| ((i * (j + 3) * 7) % 11) as f64 + j as f64);
        let y: Array1<f64> = (0..20).map(|i| (i as f64 * 0.7).sin()).collect();
        let r = r_regression(&x, &y).expect("ok");
        let mut full = Array2::zeros((20, 4));
        full.slice_mut(ndarray::s![.., ..3]).assign(&x);
        full.column_mut(3).assign(&y);
        let c = crate::stats::correlation(&full).expect("non-constant");
        for j in 0..3 {
            assert!((r[j] - c[[j, 3]]).abs() < 1e-14);
        }
        let r32 = r_regression(&x.mapv(|v| v as f32), &y.mapv(|v| v as f32)).expect("ok");
        for j in 0..3 {
            assert!((f64::from(r32[j]) - r[j]).abs() < 1e-5);
        }
    }

    #[test]
    fn extreme_scales_do_not_overflow() {
        let x: Array2<f64> = array![
            [1.0, 0.5],
            [2.0, 0.1],
            [3.0, 0.7],
            [5.0, 0.2],
            [6.0, 0.9],
            [7.0, 0.4]
        ];
        let y = array![0usize, 0, 0, 1, 1, 1];
        let yr: Array1<f64> = array![0.1, 0.3, 0.2, 0.9, 1.2, 1.0];
        let (f, _) = f_classif(&x, &y).expect("ok");
        let (c, _) = chi2(&x, &y).expect("ok");
        let r = r_regression(&x, &yr).expect("ok");
        for scale in [1e300, 1e-300] {
            let xs = x.mapv(|v| v * scale);
            let (fs, ps) = f_classif(&xs, &y).expect("ok");
            let rs = r_regression(&xs, &yr.mapv(|v| v * scale)).expect("ok");
            let (cs, _) = chi2(&xs, &y).expect("ok");
            for j in 0..2 {
                assert!(
                    (fs[j] - f[j]).abs() < 1e-12 * f[j] && ps[j].is_finite(),
                    "{scale}"
                );
                assert!((rs[j] - r[j]).abs() < 1e-14, "{scale}");
                assert!((cs[j] / scale - c[j]).abs() < 1e-12 * c[j], "{scale}");
            }
        }
    }

    #[test]
    fn errors() {
        let x = array![[1.0, -1.0], [2.0, 0.0], [3.0, 1.0]];
        let y = array![0usize, 1, 1];
        assert!(chi2(&x, &y).is_err()); // negative entry
        assert!(chi2(&x.mapv(f64::abs), &array![0usize, 0, 0]).is_err());
        assert!(f_classif(&x, &array![0usize, 1, 2]).is_err()); // n = K
        assert!(f_regression(&x.slice(ndarray::s![..2, ..]), &array![1.0, 2.0]).is_err());
        assert!(r_regression(&x, &array![1.0, f64::NAN, 2.0]).is_err());
        assert!(mutual_info_classif_binned(&x, &y, 0).is_err());
        assert!(chi2_independence_scores(&x, &y.slice(ndarray::s![..2]), 2).is_err());
    }
}
