//! [`SplineTransformer`]: B-spline basis expansion of each feature (scikit-learn's), with a
//! Cox–de Boor evaluation of the basis written here.

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array2, ArrayRef2};

use super::moments::column_min_max;
use super::quantile::{QuantileMethod, linspace, percentile_sorted, sort_finite};
use super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::{check_at_least, check_fit_input};
use crate::{Error, Float, Result, par};

/// Base knot positions of a [`SplineTransformer`].
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SplineKnots {
    /// `n_knots` equally spaced knots from each feature's minimum to its maximum (the default).
    #[default]
    Uniform,
    /// `n_knots` knots at the quantiles `0, 1/(n_knots − 1), …, 1` of each feature (numpy's
    /// linear percentile). Ties in the data can repeat a knot.
    Quantile,
    /// One knot list per feature: finite, non-decreasing, first < last, at least 2 knots.
    /// Repeated knots are allowed (scikit-learn requires strictly increasing ones); lists may
    /// differ in length, giving blocks of different widths.
    Given(Vec<Vec<f64>>),
}

/// Behaviour of a [`SplineTransformer`] outside the base knot interval `[k₁, k_n]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Extrapolation {
    /// Values outside the interval are an error at transform.
    Error,
    /// Each spline keeps its value at the nearest boundary (the default).
    #[default]
    Constant,
    /// Each spline continues linearly with its boundary slope.
    Linear,
    /// The end polynomial pieces are continued.
    Continue,
    /// Periodic splines with period `k_n − k₁` (needs `degree < n_knots`).
    Periodic,
}

/// Expands each feature in a B-spline basis of degree `d` on knots `k₁ ≤ … ≤ k_n` — exactly
/// scikit-learn's `SplineTransformer` (dense output).
///
/// # The course notes
///
/// A spline of degree `d` with knots `k₁ < … < k_n` is a piecewise polynomial with `d − 1`
/// continuous derivatives; the space has dimension `n + d + 1` on the real line
/// (catalog C-18; Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd
/// ed. (2009), §5.2; de Boor, *A Practical Guide to Splines* (1978)). A knot of multiplicity
/// `m` only needs `d − m` matching derivatives: with [`SplineKnots::Given`] a knot may be
/// repeated (up to `d + 1` times is meaningful; the basis then loses continuity there), which
/// scikit-learn does not allow. B-splines are the basis used here, rather than the truncated powers
/// `(x − kᵢ)₊ᵈ`: they are local and numerically stable.
///
/// # Construction (as scikit-learn)
///
/// For a feature with base knots `b₁ … b_n`, `d` knots are added on each side: spaced by
/// `b₂ − b₁` to the left and `b_n − b_{n−1}` to the right (periodic: the base knots shifted by
/// `± (b_n − b₁)`). The `n + d − 1` B-splines `B_{i,d}` (periodic: `n − 1`, the first `d`
/// wrapped onto the last) are the output columns of the feature; `include_bias = false` drops
/// the last one (the splines sum to 1 inside the interval, so with an intercept one is
/// redundant). Blocks are in feature order.
///
/// `B_{i,d}` is evaluated by the Cox–de Boor recursion
/// `B_{i,0} = 1[tᵢ ≤ x < tᵢ₊₁]`,
/// `B_{i,j} = (x − tᵢ)/(tᵢ₊ⱼ − tᵢ) · B_{i,j−1} + (tᵢ₊ⱼ₊₁ − x)/(tᵢ₊ⱼ₊₁ − tᵢ₊₁) · B_{i+1,j−1}`
/// (terms with a zero denominator are 0), computed for the `d + 1` splines that are non-zero
/// on the knot interval of `x` (de Boor's triangular scheme, the same arithmetic as scipy's
/// `BSpline`). The derivative used by linear extrapolation is
/// `B′_{i,d} = d (B_{i,d−1}/(tᵢ₊_d − tᵢ) − B_{i+1,d−1}/(tᵢ₊_d₊₁ − tᵢ₊₁))`. At the right end
/// `x = k_n` the last interval is used (left limit), as scipy does.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_knots` | 5 | `n_knots` | ≥ 2 (ignored for `Given`) |
/// | `degree` | 3 | `degree` | ≥ 0; `< n_knots` for `Periodic` |
/// | `knots` | `Uniform` | `knots` | |
/// | `extrapolation` | `Constant` | `extrapolation` | |
/// | `include_bias` | `true` | `include_bias` | |
///
/// Differences: a constant feature (no knot range) is an error here, where scikit-learn
/// returns degenerate output; with `Constant` extrapolation and `degree = 0` the boundary box
/// keeps its value 1 outside the range (scikit-learn 1.9.1 gives zeros below the range and
/// fails above it); with `Linear` extrapolation and `degree ≤ 1`, scikit-learn
/// 1.9.1 increments its loop variable `degree` once per feature, so features after the first
/// use shifted boundary knots — here every feature gets the rule scikit-learn applies to the
/// first one. Not implemented: `sample_weight`, `handle_missing = 'zeros'`, sparse output.
///
/// `O(n d (d_spline + 1)²)` per feature; fit `O(n d)` (`Quantile`: a sort per feature).
///
/// # Errors
///
/// [`Error::InvalidParam`]: bad `n_knots`/`degree`/knot lists, a feature with no range, a value
/// outside the knots with `Extrapolation::Error`; [`Error::TooFewSamples`] for fewer than 2 rows
/// (with computed knots); the usual shape/finiteness errors.
///
/// ```
/// use ndlearn_core::preprocessing::SplineTransformer;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[0.0f64], [1.0], [2.0], [3.0], [4.0]];
/// let spl = SplineTransformer::new(5, 3).fit(&x)?;   // 5 knots, cubic: 7 splines
/// let b = spl.transform(&array![[1.5]])?;
/// assert_eq!(b.ncols(), 7);
/// assert!((b.sum() - 1.0).abs() < 1e-15);             // partition of unity
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SplineTransformer {
    /// Number of base knots for `Uniform` / `Quantile`.
    pub n_knots: usize,
    /// Polynomial degree of the splines.
    pub degree: usize,
    /// Base knot positions.
    pub knots: SplineKnots,
    /// Behaviour outside the base interval.
    pub extrapolation: Extrapolation,
    /// Keep the last spline of each feature.
    pub include_bias: bool,
}

impl Default for SplineTransformer {
    fn default() -> Self {
        Self {
            n_knots: 5,
            degree: 3,
            knots: SplineKnots::Uniform,
            extrapolation: Extrapolation::Constant,
            include_bias: true,
        }
    }
}

impl SplineTransformer {
    /// `n_knots` uniform knots, degree `degree`, other settings at their defaults.
    pub fn new(n_knots: usize, degree: usize) -> Self {
        Self {
            n_knots,
            degree,
            ..Self::default()
        }
    }
    crate::setters! {
        /// Sets `n_knots`.
        n_knots: usize,
        /// Sets `degree`.
        degree: usize,
        /// Sets `knots`.
        knots: SplineKnots,
        /// Sets `extrapolation`.
        extrapolation: Extrapolation,
        /// Sets `include_bias`.
        include_bias: bool,
    }
}

impl crate::Estimator for SplineTransformer {
    /// Checks `n_knots ≥ 2`, the given knot lists, and `degree < n_knots` for periodic splines.
    fn validate(&self) -> Result<()> {
        let counts: Vec<usize> = match &self.knots {
            SplineKnots::Given(lists) => {
                if lists.is_empty() {
                    return Err(Error::invalid_param(
                        "knots",
                        "needs one knot list per feature",
                    ));
                }
                for (j, k) in lists.iter().enumerate() {
                    let ok = k.len() >= 2
                        && k.iter().all(|v| v.is_finite())
                        && k.windows(2).all(|w| w[0] <= w[1])
                        && k[0] < k[k.len() - 1];
                    if !ok {
                        return Err(Error::invalid_param(
                            "knots",
                            format!(
                                "the list of feature {j} needs at least 2 finite, non-decreasing knots with first < last"
                            ),
                        ));
                    }
                }
                lists.iter().map(Vec::len).collect()
            }
            _ => {
                check_at_least("n_knots", self.n_knots, 2)?;
                vec![self.n_knots]
            }
        };
        if self.extrapolation == Extrapolation::Periodic {
            if let Some(&n) = counts.iter().find(|&&n| n <= self.degree) {
                return Err(Error::invalid_param(
                    "degree",
                    format!(
                        "periodic splines need degree < n_knots; got {n} knots and degree {}",
                        self.degree
                    ),
                ));
            }
        }
        Ok(())
    }
}

/// The B-spline basis of one feature.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct FeatureSpline<F> {
    /// Extended knot vector `t`.
    t: Vec<F>,
    /// Degree `k`.
    k: usize,
    /// Number of B-splines on `t` (`len(t) − k − 1`).
    n_basis: usize,
    /// Number of output splines before dropping the bias column (`n_basis`, or `n_basis − k`
    /// for periodic splines).
    n_splines: usize,
    /// Spline values and derivatives at the interval ends (for constant/linear extrapolation).
    f_min: Vec<F>,
    f_max: Vec<F>,
    fp_min: Vec<F>,
    fp_max: Vec<F>,
}

/// scipy's `find_interval`: the `l ∈ [k, n − 1]` with `t[l] ≤ x < t[l + 1]` (the last interval
/// for `x ≥ t[n]`, the first for `x < t[k]`), `n = len(t) − k − 1`.
fn find_interval<F: Float>(t: &[F], k: usize, x: F) -> usize {
    let n = t.len() - k - 1;
    let mut l = k;
    while l < n && x >= t[l + 1] {
        l += 1;
    }
    // x ≥ t[n] or beyond stays in the last interval.
    l.min(n - 1)
}

/// Values (`deriv = false`) or first derivatives of the `k + 1` B-splines `B_{l−k..=l}` at `x`,
/// written to `h[..=k]` (de Boor's triangular Cox–de Boor scheme).
fn basis_at<F: Float>(t: &[F], k: usize, x: F, l: usize, deriv: bool, h: &mut [F], hh: &mut [F]) {
    h[0] = F::one();
    let m = usize::from(deriv);
    if m > k {
        h[..=k].iter_mut().for_each(|v| *v = F::zero());
        return;
    }
    for j in 1..=k - m {
        hh[..j].copy_from_slice(&h[..j]);
        h[0] = F::zero();
        for n in 1..=j {
            let xb = t[l + n];
            let xa = t[l + n - j];
            if xb == xa {
                h[n] = F::zero();
                continue;
            }
            let w = hh[n - 1] / (xb - xa);
            h[n - 1] += w * (xb - x);
            h[n] = w * (x - xa);
        }
    }
    for j in k - m + 1..=k {
        hh[..j].copy_from_slice(&h[..j]);
        h[0] = F::zero();
        for n in 1..=j {
            let xb = t[l + n];
            let xa = t[l + n - j];
            if xb == xa {
                h[n] = F::zero();
                continue;
            }
            let w = F::cast(j) * hh[n - 1] / (xb - xa);
            h[n - 1] -= w;
            h[n] = w;
        }
    }
}

impl<F: Float> FeatureSpline<F> {
    fn build(base: &[f64], degree: usize, periodic: bool) -> Self {
        let k = degree;
        let nb = base.len();
        let t64: Vec<f64> = if periodic {
            let period = base[nb - 1] - base[0];
            let mut t: Vec<f64> = base[nb - 1 - k..nb - 1]
                .iter()
                .map(|v| v - period)
                .collect();
            t.extend_from_slice(base);
            t.extend(base[1..=k].iter().map(|v| v + period));
            t
        } else {
            let dmin = base[1] - base[0];
            let dmax = base[nb - 1] - base[nb - 2];
            let mut t = linspace(base[0] - k as f64 * dmin, base[0] - dmin, k);
            t.extend_from_slice(base);
            t.extend(linspace(
                base[nb - 1] + dmax,
                base[nb - 1] + k as f64 * dmax,
                k,
            ));
            t
        };
        let t: Vec<F> = t64.into_iter().map(F::cast).collect();
        let n_splines = if periodic { nb - 1 } else { nb + k - 1 };
        let n_basis = t.len() - k - 1;
        let mut s = FeatureSpline {
            t,
            k,
            n_basis,
            n_splines,
            f_min: Vec::new(),
            f_max: Vec::new(),
            fp_min: Vec::new(),
            fp_max: Vec::new(),
        };
        let n = s.t.len() - k - 1;
        let (xmin, xmax) = (s.t[k], s.t[n]);
        s.f_min = s.full_basis(xmin, false);
        s.f_max = s.full_basis(xmax, false);
        s.fp_min = s.full_basis(xmin, true);
        s.fp_max = s.full_basis(xmax, true);
        s
    }

    /// All `n_basis` B-spline values (or derivatives) at `x`, with `x` in its interval
    /// (continued polynomials outside `[t_k, t_n]`).
    fn full_basis(&self, x: F, deriv: bool) -> Vec<F> {
        let k = self.k;
        let mut out = vec![F::zero(); self.n_basis];
        let mut h = vec![F::zero(); k + 1];
        let mut hh = vec![F::zero(); k + 1];
        let l = find_interval(&self.t, k, x);
        basis_at(&self.t, k, x, l, deriv, &mut h, &mut hh);
        for (i, v) in h.iter().enumerate() {
            out[l - k + i] = *v;
        }
        out
    }
}

impl<F: Float> FitUnsupervised<F> for SplineTransformer {
    type Model = FittedSplineTransformer<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let given = matches!(self.knots, SplineKnots::Given(_));
        check_fit_input(x, if given { 1 } else { 2 }, "SplineTransformer::fit")?;
        let d = x.ncols();
        let bases: Vec<Vec<f64>> = match &self.knots {
            SplineKnots::Given(lists) => {
                if lists.len() != d {
                    return Err(Error::ShapeMismatch {
                        context: "SplineTransformer::fit knots",
                        expected: format!("{d} knot lists (one per feature)"),
                        found: format!("{} lists", lists.len()),
                    });
                }
                lists.clone()
            }
            SplineKnots::Uniform => {
                let (lo, hi) = column_min_max(x);
                (0..d)
                    .map(|j| {
                        linspace(
                            lo[j].to_f64_lossless(),
                            hi[j].to_f64_lossless(),
                            self.n_knots,
                        )
                    })
                    .collect()
            }
            SplineKnots::Quantile => par::map_tasks(d, |j| {
                let mut v: Vec<f64> = x.column(j).iter().map(|v| v.to_f64_lossless()).collect();
                sort_finite(&mut v);
                linspace(0.0, 1.0, self.n_knots)
                    .into_iter()
                    .map(|r| percentile_sorted(&v, 100.0 * r, QuantileMethod::Linear))
                    .collect()
            }),
        };
        if let Some(j) = bases.iter().position(|b| b[0] >= b[b.len() - 1]) {
            return Err(Error::invalid_param(
                "x",
                format!("feature {j} is constant: its knots have no range; drop the feature"),
            ));
        }
        let periodic = self.extrapolation == Extrapolation::Periodic;
        let splines: Vec<FeatureSpline<F>> = bases
            .iter()
            .map(|b| FeatureSpline::build(b, self.degree, periodic))
            .collect();
        let mut offsets = vec![0];
        for s in &splines {
            let w = s.n_splines - usize::from(!self.include_bias);
            offsets.push(offsets[offsets.len() - 1] + w);
        }
        Ok(FittedSplineTransformer {
            params: self.clone(),
            splines,
            offsets,
        })
    }
}

/// A fitted [`SplineTransformer`]: the extended knot vector of every feature.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSplineTransformer<F> {
    params: SplineTransformer,
    splines: Vec<FeatureSpline<F>>,
    offsets: Vec<usize>,
}

impl<F: crate::Float> crate::NFeaturesIn for FittedSplineTransformer<F> {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl<F: Float> FittedSplineTransformer<F> {
    /// The hyperparameters used.
    pub fn params(&self) -> &SplineTransformer {
        &self.params
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.splines.len()
    }
    /// Number of output columns.
    pub fn n_features_out(&self) -> usize {
        self.offsets[self.splines.len()]
    }
    /// The full (extended) knot vector of feature `j` (scikit-learn's `bsplines_[j].t`).
    pub fn knots(&self, j: usize) -> Option<&[F]> {
        self.splines.get(j).map(|s| s.t.as_slice())
    }
    /// Number of splines of feature `j` before dropping the bias column.
    pub fn n_splines(&self, j: usize) -> Option<usize> {
        self.splines.get(j).map(|s| s.n_splines)
    }

    /// The `n_splines` output values of feature `s` at `x` (before dropping the bias column).
    fn feature_row(&self, s: &FeatureSpline<F>, x: F, out: &mut [F], h: &mut [F], hh: &mut [F]) {
        let k = self.params.degree;
        let t = &s.t;
        let n = t.len() - k - 1;
        let (xmin, xmax) = (t[k], t[n]);
        let ns = s.n_splines;
        out[..ns].iter_mut().for_each(|v| *v = F::zero());
        let eval = |x: F, out: &mut [F], h: &mut [F], hh: &mut [F]| {
            let l = find_interval(t, k, x);
            basis_at(t, k, x, l, false, h, hh);
            for (i, v) in h[..=k].iter().enumerate() {
                let b = l - k + i;
                // Periodic: the basis functions past n_splines wrap onto the first ones.
                let c = if b >= ns { b - ns } else { b };
                out[c] += *v;
            }
        };
        match self.params.extrapolation {
            Extrapolation::Error | Extrapolation::Continue => eval(x, out, h, hh),
            Extrapolation::Periodic => {
                let period = xmax - xmin;
                let xw = if period > F::zero() {
                    let mut r = (x - xmin) % period;
                    if r != F::zero() && r < F::zero() {
                        r += period;
                    }
                    xmin + r
                } else {
                    F::zero()
                };
                eval(xw, out, h, hh);
            }
            Extrapolation::Constant | Extrapolation::Linear => {
                if x >= xmin && x <= xmax {
                    eval(x, out, h, hh);
                } else if self.params.extrapolation == Extrapolation::Constant {
                    // The splines that are non-zero at the boundary keep their value there: the
                    // first / last max(k, 1) (k = 0: the boundary box itself).
                    let kk = k.max(1);
                    if x < xmin {
                        out[..kk].copy_from_slice(&s.f_min[..kk]);
                    } else {
                        out[ns - kk..ns].copy_from_slice(&s.f_max[ns - kk..ns]);
                    }
                } else {
                    let kk = if k <= 1 { k + 1 } else { k };
                    for j in 0..kk {
                        if x < xmin {
                            out[j] = s.f_min[j] + (x - xmin) * s.fp_min[j];
                        } else {
                            let c = ns - 1 - j;
                            out[c] = s.f_max[c] + (x - xmax) * s.fp_max[c];
                        }
                    }
                }
            }
        }
    }
}

impl<F: Float> Transform<F> for FittedSplineTransformer<F> {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features(), "SplineTransformer::transform")?;
        if self.params.extrapolation == Extrapolation::Error {
            for (i, row) in x.rows().into_iter().enumerate() {
                for (j, &v) in row.iter().enumerate() {
                    let s = &self.splines[j];
                    let k = self.params.degree;
                    let (lo, hi) = (s.t[k], s.t[s.t.len() - k - 1]);
                    if v < lo || v > hi {
                        return Err(Error::invalid_param(
                            "x",
                            format!(
                                "value {v} at row {i}, column {j} lies outside the knots [{lo}, {hi}]; \
                                 choose another extrapolation"
                            ),
                        ));
                    }
                }
            }
        }
        let k = self.params.degree;
        let max_basis = self.splines.iter().map(|s| s.n_basis).max().unwrap_or(0);
        let bias = self.params.include_bias;
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            let mut buf = vec![F::zero(); max_basis];
            let mut h = vec![F::zero(); k + 1];
            let mut hh = vec![F::zero(); k + 1];
            for (j, &v) in row.iter().enumerate() {
                let s = &self.splines[j];
                self.feature_row(s, v, &mut buf, &mut h, &mut hh);
                let w = s.n_splines - usize::from(!bias);
                out[self.offsets[j]..self.offsets[j] + w].copy_from_slice(&buf[..w]);
            }
        }))
    }
}

impl<F: Float> CheckModel for FittedSplineTransformer<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSplineTransformer");
        c.params(&self.params)?;
        let k = self.params.degree;
        c.at_least("splines", self.splines.len(), 1)?;
        for (j, s) in self.splines.iter().enumerate() {
            let ns = s.n_splines;
            let ok = s.k == k
                && s.n_basis > k
                && s.t.len() == s.n_basis + k + 1
                && ns >= 1
                && ns <= s.n_basis
                && s.n_basis <= 2 * ns
                && (self.params.include_bias || ns >= 2)
                && [&s.f_min, &s.f_max, &s.fp_min, &s.fp_max]
                    .iter()
                    .all(|v| v.len() == s.n_basis && v.iter().all(|x| x.is_finite()));
            c.that(ok, || {
                format!("feature {j}: knots and spline counts disagree")
            })?;
            c.that(
                s.t.iter().all(|v| v.is_finite()) && s.t.windows(2).all(|w| w[0] <= w[1]),
                || format!("feature {j}: knots must be finite and sorted"),
            )?;
        }
        let widths = self
            .splines
            .iter()
            .map(|s| s.n_splines - usize::from(!self.params.include_bias));
        c.cumulative("offsets", &self.offsets, widths)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn linear_splines_are_hat_functions() {
        // Degree 1 on knots 0, 1, 2 (uniform from the data): extended t = -1, 0, 1, 2, 3;
        // 3 hats peaking at 0, 1, 2.
        let x: Array2<f64> = array![[0.0], [2.0]];
        let s = SplineTransformer::new(3, 1).fit(&x).expect("fit");
        assert_eq!(s.knots(0).expect("knots"), &[-1.0, 0.0, 1.0, 2.0, 3.0]);
        let b = s.transform(&array![[0.25], [1.0], [2.0]]).expect("t");
        assert_eq!(b.row(0).to_vec(), vec![0.75, 0.25, 0.0]);
        assert_eq!(b.row(1).to_vec(), vec![0.0, 1.0, 0.0]);
        assert_eq!(b.row(2).to_vec(), vec![0.0, 0.0, 1.0]);
    }

    #[test]
    fn cubic_partition_of_unity_and_dimension() {
        // n knots, degree d: n + d − 1 splines (the course notes' n + d + 1 counts interior knots).
        let x: Array2<f64> = Array2::from_shape_fn((20, 2), |(i, j)| (i * (j + 1)) as f64 * 0.37);
        let s = SplineTransformer::new(6, 3).fit(&x).expect("fit");
        assert_eq!(s.n_features_out(), 2 * 8);
        let b = s.transform(&x).expect("t");
        for row in b.rows() {
            let (a, c) = (
                row.slice(ndarray::s![..8]).sum(),
                row.slice(ndarray::s![8..]).sum(),
            );
            assert!((a - 1.0).abs() < 1e-14 && (c - 1.0).abs() < 1e-14);
        }
        let nb = SplineTransformer::new(6, 3)
            .include_bias(false)
            .fit(&x)
            .expect("fit");
        assert_eq!(nb.n_features_out(), 14);
    }

    #[test]
    fn repeated_knot_breaks_continuity() {
        // Degree 1 with knot 1 doubled: the hat at 1 splits; B-splines jump at x = 1.
        let knots = SplineKnots::Given(vec![vec![0.0, 1.0, 1.0, 2.0]]);
        let s = SplineTransformer::new(4, 1)
            .knots(knots)
            .fit(&array![[0.5f64]])
            .expect("fit");
        let left = s.transform(&array![[1.0 - 1e-12]]).expect("t");
        let right = s.transform(&array![[1.0]]).expect("t");
        let jump = (&left - &right).iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(jump > 0.5, "{left} vs {right}");
        assert!((right.sum() - 1.0).abs() < 1e-15);
    }

    #[test]
    fn extrapolation_modes() {
        let x: Array2<f64> = array![[0.0], [4.0]];
        let fit = |e| {
            SplineTransformer::new(5, 2)
                .extrapolation(e)
                .fit(&x)
                .expect("fit")
        };
        let out = array![[-1.0], [5.0]];
        assert!(fit(Extrapolation::Error).transform(&out).is_err());
        assert!(fit(Extrapolation::Error).transform(&array![[4.0]]).is_ok());
        let c = fit(Extrapolation::Constant).transform(&out).expect("t");
        let at = fit(Extrapolation::Constant)
            .transform(&array![[0.0], [4.0]])
            .expect("t");
        assert_eq!(c, at);
        // Periodic: x and x + period agree.
        let p = fit(Extrapolation::Periodic);
        assert_eq!(p.n_features_out(), 4);
        let a = p.transform(&array![[0.7]]).expect("t");
        let b = p.transform(&array![[4.7]]).expect("t");
        assert!((&a - &b).iter().all(|v| v.abs() < 1e-12));
        // Linear: values continue along the boundary slope, so they keep summing to 1.
        let l = fit(Extrapolation::Linear).transform(&out).expect("t");
        assert!(l.rows().into_iter().all(|r| (r.sum() - 1.0).abs() < 1e-12));
        let cont = fit(Extrapolation::Continue).transform(&out).expect("t");
        assert!(
            cont.rows()
                .into_iter()
                .all(|r| (r.sum() - 1.0).abs() < 1e-12)
        );
    }

    #[test]
    fn errors() {
        let x: Array2<f64> = array![[0.0], [1.0]];
        assert!(SplineTransformer::new(1, 3).fit(&x).is_err());
        assert!(
            SplineTransformer::new(3, 3)
                .extrapolation(Extrapolation::Periodic)
                .fit(&x)
                .is_err()
        );
        assert!(
            SplineTransformer::default()
                .fit(&array![[1.0f64], [1.0]])
                .is_err()
        );
        assert!(SplineTransformer::default().fit(&array![[1.0f64]]).is_err());
        for bad in [
            vec![vec![1.0]],
            vec![vec![2.0, 1.0]],
            vec![vec![1.0, 1.0]],
            vec![vec![0.0, 1.0], vec![0.0, 1.0]],
        ] {
            assert!(
                SplineTransformer::default()
                    .knots(SplineKnots::Given(bad))
                    .fit(&x)
                    .is_err()
            );
        }
    }
}
