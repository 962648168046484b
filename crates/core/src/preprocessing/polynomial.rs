//! [`PolynomialFeatures`]: all monomials of the features up to a degree.

use crate::Estimator;
use crate::validate::{CheckModel, ModelCheck};
use ndarray::{Array2, ArrayRef2};
use std::sync::OnceLock;

use super::{check_fitted_input, map_rows};
use crate::traits::{FitUnsupervised, Transform};
use crate::validate::check_fit_input;
use crate::{Error, Float, Result};

/// Generates the monomials of the input features of total degree `min_degree..=degree` (plus a
/// leading column of ones with `include_bias`) — scikit-learn's `PolynomialFeatures`.
///
/// For two features and degree 2 the output is `[1, x₀, x₁, x₀², x₀x₁, x₁²]`: the course notes'
/// quadratic model `ψ(x) = [1, x₁, x₂, x₁², x₂², x₁x₂]ᵀ` (catalog TV31, six features; a basis
/// expansion as in Hastie, Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd
/// ed. (2009), §5.1) in scikit-learn's column order. Degree `p` in `D` dimensions gives
/// `C(D + p, p) = O(Dᵖ)` columns.
///
/// # Column order (exactly scikit-learn's)
///
/// The bias, then for each degree `k = max(1, min_degree) … degree` the combinations with
/// replacement (without, for `interaction_only`) of the feature indices in lexicographic order:
/// degree 1 is `x₀ … x_{D−1}`; degree `k` is `x_f · (every degree-(k−1) monomial whose smallest
/// index is ≥ f)` for `f = 0, 1, …` (`> f` for `interaction_only`). [`FittedPolynomialFeatures::powers`]
/// gives the exponents of each column and [`FittedPolynomialFeatures::feature_names`] the
/// scikit-learn names (`"1"`, `"x0"`, `"x0^2"`, `"x0 x1"`).
///
/// # Algorithm
///
/// Each degree-`k` block is a set of contiguous *segments*: a run of degree-`(k−1)` columns
/// times one input value. The transform walks the segments once per row, multiplying a
/// contiguous slice of the row's own earlier outputs by a scalar (no `powi`, vectorised), and
/// writes rows directly into the output, in parallel over fixed blocks of rows. The products are
/// formed in the same order as scikit-learn's, so the values agree bit for bit.
/// `O(n · n_out)` time, `O(n · n_out)` memory for the result.
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `degree` | 2 | `degree` (or the upper end of `(min_degree, max_degree)`) | ≥ 0 |
/// | `min_degree` | 0 | lower end of `(min_degree, max_degree)` | `≤ degree` |
/// | `interaction_only` | `false` | `interaction_only` | |
/// | `include_bias` | `true` | `include_bias` | |
///
/// # Errors
///
/// [`Error::InvalidParam`]: `min_degree > degree`, an empty output (`degree = 0` without bias),
/// or data whose largest `|x|` raised to `degree` overflows `F` (the output would hold `∞`;
/// rescale the features first) — at fit and at transform. Otherwise the usual shape/finiteness
/// errors.
///
/// ```
/// use ndlearn_core::preprocessing::PolynomialFeatures;
/// use ndlearn_core::{FitUnsupervised, Transform, ndarray::array};
///
/// let x = array![[2.0, 3.0]];
/// let poly = PolynomialFeatures::new(2).fit(&x)?;
/// assert_eq!(poly.transform(&x)?, array![[1.0, 2.0, 3.0, 4.0, 6.0, 9.0]]);
/// assert_eq!(poly.feature_names(None)?, ["1", "x0", "x1", "x0^2", "x0 x1", "x1^2"]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct PolynomialFeatures {
    /// Largest total degree.
    pub degree: usize,
    /// Smallest total degree of the non-bias columns (terms of degree `< max(1, min_degree)`
    /// are left out; the bias is controlled by `include_bias` alone, as in scikit-learn).
    pub min_degree: usize,
    /// Only products of distinct features (no powers `xᵢ²`, …).
    pub interaction_only: bool,
    /// Prepend a column of ones.
    pub include_bias: bool,
}

impl Default for PolynomialFeatures {
    fn default() -> Self {
        Self {
            degree: 2,
            min_degree: 0,
            interaction_only: false,
            include_bias: true,
        }
    }
}

impl PolynomialFeatures {
    /// Degree `degree` with the other settings at their defaults.
    pub fn new(degree: usize) -> Self {
        Self {
            degree,
            ..Self::default()
        }
    }
    crate::setters! {
        /// Sets `degree`.
        degree: usize,
        /// Sets `min_degree` (scikit-learn's `degree=(min_degree, degree)`).
        min_degree: usize,
        /// Sets `interaction_only`.
        interaction_only: bool,
        /// Sets `include_bias`.
        include_bias: bool,
    }
}

impl crate::Estimator for PolynomialFeatures {
    /// Requires `min_degree ≤ degree` and a non-empty output.
    fn validate(&self) -> Result<()> {
        if self.min_degree > self.degree {
            return Err(Error::invalid_param(
                "min_degree",
                format!(
                    "must be <= degree ({}), got {}",
                    self.degree, self.min_degree
                ),
            ));
        }
        if self.degree == 0 && !self.include_bias {
            return Err(Error::invalid_param(
                "degree",
                "degree 0 without include_bias gives an empty output",
            ));
        }
        Ok(())
    }
}

/// One run of a degree-k block: `out[dst..dst + (end − src)] = out[src..end] · x[feature]`, in
/// the bias-free layout where degree 1 occupies `0..n_features`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Segment {
    dst: usize,
    src: usize,
    end: usize,
    feature: usize,
}

/// The segment plan of degrees `2..=degree` and the start of each degree's block.
fn plan(n: usize, degree: usize, interaction_only: bool) -> (Vec<Segment>, Vec<usize>, usize) {
    // index[f]: first column of the current degree's block whose smallest feature is f;
    // index[n]: end of the block.
    let mut index: Vec<usize> = (0..=n).collect();
    let mut cur = n;
    let mut segments = Vec::new();
    // block_start[k] = first column of degree k (k >= 1); block_start[degree + 1] = total.
    let mut block_start = vec![0, 0];
    for _ in 2..=degree {
        block_start.push(cur);
        let end = index[n];
        let mut next_index = Vec::with_capacity(n + 1);
        for f in 0..n {
            next_index.push(cur);
            let mut start = index[f];
            if interaction_only {
                start += index[f + 1] - index[f];
            }
            if end <= start {
                continue;
            }
            segments.push(Segment {
                dst: cur,
                src: start,
                end,
                feature: f,
            });
            cur += end - start;
        }
        next_index.push(cur);
        index = next_index;
    }
    block_start.push(cur);
    (segments, block_start, cur)
}

impl<F: Float> FitUnsupervised<F> for PolynomialFeatures {
    type Model = FittedPolynomialFeatures;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "PolynomialFeatures::fit")?;
        check_overflow(x, self.degree)?;
        let n = x.ncols();
        let (segments, block_start, total) = plan(n, self.degree, self.interaction_only);
        let first = if self.degree == 0 {
            total
        } else {
            block_start[self.min_degree.max(1)]
        };
        Ok(FittedPolynomialFeatures {
            params: *self,
            n_features: n,
            segments,
            total,
            first,
            powers: OnceLock::new(),
        })
    }
}

/// `max|x|^degree` must be finite in `F`.
fn check_overflow<F: Float>(x: &ArrayRef2<F>, degree: usize) -> Result<()> {
    if degree < 2 {
        return Ok(());
    }
    let m = match x.as_slice_memory_order() {
        Some(s) => crate::validate::max_abs(s),
        None => x.iter().fold(F::zero(), |a, v| a.max(v.abs())),
    };
    let bound = m.powi(i32::try_from(degree).unwrap_or(i32::MAX));
    if bound.is_finite() {
        Ok(())
    } else {
        Err(Error::invalid_param(
            "x",
            format!(
                "the largest |x| is {m:e}, so x^{degree} overflows {}; rescale the features first",
                F::NAME
            ),
        ))
    }
}

/// A fitted [`PolynomialFeatures`]: the segment plan and the feature count. The column
/// exponents ([`FittedPolynomialFeatures::powers`], `n_out × n_features`) follow from the plan;
/// they are built on first use (fit allocates nothing of that size, as scikit-learn's lazy
/// `powers_`) and are not part of the model file.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPolynomialFeatures {
    params: PolynomialFeatures,
    n_features: usize,
    segments: Vec<Segment>,
    /// Columns of the full bias-free layout (degrees 1..=degree).
    total: usize,
    /// First column of the layout that is output (start of degree max(1, min_degree)).
    first: usize,
    #[cfg_attr(feature = "serde", serde(skip))]
    powers: OnceLock<Vec<Vec<usize>>>,
}

impl PartialEq for FittedPolynomialFeatures {
    /// Equal plans: the cached exponents follow from them.
    fn eq(&self, other: &Self) -> bool {
        self.params == other.params
            && self.n_features == other.n_features
            && self.segments == other.segments
            && self.total == other.total
            && self.first == other.first
    }
}

impl Eq for FittedPolynomialFeatures {}

impl crate::NFeaturesIn for FittedPolynomialFeatures {
    fn n_features_in(&self) -> usize {
        self.n_features()
    }
}

impl FittedPolynomialFeatures {
    /// The hyperparameters used.
    pub fn params(&self) -> &PolynomialFeatures {
        &self.params
    }
    /// Number of input features.
    pub fn n_features(&self) -> usize {
        self.n_features
    }
    /// Number of output columns.
    pub fn n_features_out(&self) -> usize {
        self.total - self.first + usize::from(self.params.include_bias)
    }
    /// Exponent of each input feature in each output column (`n_out` rows of `n_features`;
    /// scikit-learn's `powers_`), derived from the segment plan on the first call.
    pub fn powers(&self) -> &[Vec<usize>] {
        self.powers.get_or_init(|| self.derive_powers())
    }

    /// The exponents of the output columns: those of the bias-free layout follow the plan
    /// (column `dst + i` is column `src + i` times feature `f`), the bias column is all zeros.
    fn derive_powers(&self) -> Vec<Vec<usize>> {
        let n = self.n_features;
        // (degree 0 lays out the input features too, but outputs none of them: `first = total`)
        let mut all: Vec<Vec<usize>> = Vec::with_capacity(self.total);
        all.extend((0..n).map(|j| {
            let mut p = vec![0; n];
            p[j] = 1;
            p
        }));
        for s in &self.segments {
            for c in s.src..s.end {
                let mut p = all[c].clone();
                p[s.feature] += 1;
                all.push(p);
            }
        }
        let mut powers = Vec::with_capacity(self.n_features_out());
        if self.params.include_bias {
            powers.push(vec![0; n]);
        }
        powers.extend(all.into_iter().skip(self.first));
        powers
    }

    /// scikit-learn's `get_feature_names_out`: `"1"` for the bias, otherwise the factors joined
    /// by spaces, each `name` or `name^p`. `input` defaults to `x0, x1, …`.
    pub fn feature_names(&self, input: Option<&[&str]>) -> Result<Vec<String>> {
        let default: Vec<String> = (0..self.n_features).map(|j| format!("x{j}")).collect();
        let names: Vec<&str> = match input {
            Some(v) if v.len() == self.n_features => v.to_vec(),
            Some(v) => {
                return Err(Error::ShapeMismatch {
                    context: "PolynomialFeatures::feature_names",
                    expected: format!("{} input names", self.n_features),
                    found: format!("{} names", v.len()),
                });
            }
            None => default.iter().map(String::as_str).collect(),
        };
        Ok(self
            .powers()
            .iter()
            .map(|p| {
                let terms: Vec<String> = p
                    .iter()
                    .enumerate()
                    .filter(|(_, e)| **e > 0)
                    .map(|(j, &e)| {
                        if e == 1 {
                            names[j].to_string()
                        } else {
                            format!("{}^{e}", names[j])
                        }
                    })
                    .collect();
                if terms.is_empty() {
                    "1".to_string()
                } else {
                    terms.join(" ")
                }
            })
            .collect())
    }

    /// Fills `layout` (the bias-free columns of degrees 1..=degree) for one row.
    #[inline]
    fn expand_row<F: Float>(&self, row: &[F], layout: &mut [F]) {
        if self.params.degree == 0 {
            return;
        }
        layout[..self.n_features].copy_from_slice(row);
        for s in &self.segments {
            let (src, dst) = layout.split_at_mut(s.dst);
            let xf = row[s.feature];
            for (d, v) in dst[..s.end - s.src].iter_mut().zip(&src[s.src..s.end]) {
                *d = *v * xf;
            }
        }
    }
}

impl<F: Float> Transform<F> for FittedPolynomialFeatures {
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_fitted_input(x, self.n_features, "PolynomialFeatures::transform")?;
        check_overflow(x, self.params.degree)?;
        let bias = usize::from(self.params.include_bias);
        let direct = self.first == 0;
        Ok(map_rows(x, self.n_features_out(), |row, out| {
            if bias == 1 {
                out[0] = F::one();
            }
            if direct {
                self.expand_row(row, &mut out[bias..]);
            } else {
                let mut layout = vec![F::zero(); self.total];
                self.expand_row(row, &mut layout);
                out[bias..].copy_from_slice(&layout[self.first..]);
            }
        }))
    }
}

impl CheckModel for FittedPolynomialFeatures {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedPolynomialFeatures");
        c.params(&self.params)?;
        let n = self.n_features;
        c.at_least("n_features", n, 1)?;
        c.that(self.first <= self.total && n <= self.total.max(n), || {
            "`first` is past the end of the layout".into()
        })?;
        // the segments write the columns back to back after the input features, so the
        // exponents (and the transform) follow from them in order
        let mut next = n;
        for s in &self.segments {
            c.that(s.dst == next && s.src < s.end, || {
                "the segments do not lay the columns out back to back".into()
            })?;
            let after = next.checked_add(s.end - s.src);
            c.that(after.is_some(), || "the layout overflows usize".into())?;
            next = after.unwrap_or(next);
        }
        c.that(self.total == next, || {
            format!(
                "the segments lay out {next} columns, `total` says {}",
                self.total
            )
        })?;
        // Every segment reads and writes inside the bias-free layout of `total` columns.
        for s in &self.segments {
            let inside = s.feature < n
                && s.src < s.end
                && s.end <= s.dst
                && s.dst
                    .checked_add(s.end - s.src)
                    .is_some_and(|e| e <= self.total);
            c.that(inside, || "a segment reaches outside the layout".into())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    fn binom(n: usize, k: usize) -> usize {
        (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
    }

    #[test]
    fn check_model_accepts_fits_and_rejects_a_broken_plan() {
        let x: Array2<f64> = array![[1.0, 2.0, 3.0], [0.5, -1.0, 2.0]];
        for (deg, min_deg, inter, bias) in [
            (3, 1, false, true),
            (2, 2, true, false),
            (0, 0, false, true),
            (1, 1, false, false),
        ] {
            let mut est = PolynomialFeatures::new(deg);
            est.min_degree = min_deg;
            est.interaction_only = inter;
            est.include_bias = bias;
            let p = est.fit(&x).expect("fit");
            p.check_model().expect("a fit is a valid model");
            // the lazily derived exponents describe the transform's columns
            assert_eq!(p.powers().len(), p.n_features_out());
            let z = p.transform(&x).expect("t");
            assert_eq!(z.ncols(), p.n_features_out());
            for (c, pw) in p.powers().iter().enumerate() {
                for (r, row) in x.rows().into_iter().enumerate() {
                    let want: f64 = pw
                        .iter()
                        .zip(row)
                        .map(|(&e, &v)| v.powi(e as i32))
                        .product();
                    assert_eq!(z[[r, c]], want, "degree {deg}, column {c}");
                }
            }
        }
        let p = PolynomialFeatures::new(3).fit(&x).expect("fit");
        let mut gap = p.clone();
        gap.segments[1].dst += 1;
        assert!(gap.check_model().is_err(), "a gap in the layout");
        let mut short = p.clone();
        short.total -= 1;
        assert!(
            short.check_model().is_err(),
            "a total that disagrees with the segments"
        );
        // the cached exponents do not take part in equality
        let fresh = PolynomialFeatures::new(3).fit(&x).expect("fit");
        let _ = p.powers();
        assert_eq!(p, fresh);
    }

    #[test]
    fn notes_quadratic_example() {
        // TV31: D = 2, degree 2 -> 6 features [1, x1, x2, x1², x1x2, x2²] (scikit-learn order).
        let x: Array2<f64> = array![[2.0, 5.0], [-1.0, 0.5]];
        let p = PolynomialFeatures::new(2).fit(&x).expect("fit");
        assert_eq!(p.n_features_out(), 6);
        let z = p.transform(&x).expect("t");
        assert_eq!(z.row(0).to_vec(), vec![1.0, 2.0, 5.0, 4.0, 10.0, 25.0]);
        assert_eq!(z.row(1).to_vec(), vec![1.0, -1.0, 0.5, 1.0, -0.5, 0.25]);
    }

    #[test]
    fn order_counts_and_names() {
        let x: Array2<f64> = array![[1.0, 2.0, 3.0]];
        let p = PolynomialFeatures::new(3).fit(&x).expect("fit");
        assert_eq!(p.n_features_out(), binom(3 + 3, 3));
        let names = p.feature_names(None).expect("names");
        assert_eq!(
            &names[..10],
            [
                "1", "x0", "x1", "x2", "x0^2", "x0 x1", "x0 x2", "x1^2", "x1 x2", "x2^2"
            ]
        );
        assert_eq!(names[10], "x0^3");
        assert_eq!(names[19], "x2^3");
        let z = p.transform(&x).expect("t");
        for (c, pw) in p.powers().iter().enumerate() {
            let want: f64 = pw
                .iter()
                .enumerate()
                .map(|(j, &e)| x[[0, j]].powi(e as i32))
                .product();
            assert_eq!(z[[0, c]], want, "column {c}");
        }
        // Interactions only: 1, x0, x1, x2, x0x1, x0x2, x1x2, x0x1x2.
        let q = PolynomialFeatures::new(3)
            .interaction_only(true)
            .fit(&x)
            .expect("fit");
        assert_eq!(
            q.transform(&x).expect("t").row(0).to_vec(),
            vec![1.0, 1.0, 2.0, 3.0, 2.0, 3.0, 6.0, 6.0]
        );
        // Degree range 2..=3 without bias.
        let r = PolynomialFeatures::new(3)
            .min_degree(2)
            .include_bias(false)
            .fit(&x)
            .expect("fit");
        assert_eq!(r.n_features_out(), 6 + 10);
        assert_eq!(
            r.feature_names(Some(&["a", "b", "c"])).expect("names")[0],
            "a^2"
        );
        assert!(r.feature_names(Some(&["a"])).is_err());
        // Degree 0 with bias: a column of ones.
        let b = PolynomialFeatures::new(0).fit(&x).expect("fit");
        assert_eq!(b.transform(&x).expect("t"), array![[1.0]]);
    }

    #[test]
    fn errors() {
        let x: Array2<f64> = array![[1.0, 2.0]];
        assert!(
            PolynomialFeatures::new(0)
                .include_bias(false)
                .fit(&x)
                .is_err()
        );
        assert!(PolynomialFeatures::new(1).min_degree(2).fit(&x).is_err());
        let big: Array2<f64> = array![[1e200, 1.0]];
        assert!(matches!(
            PolynomialFeatures::new(2).fit(&big),
            Err(Error::InvalidParam { .. })
        ));
        let p = PolynomialFeatures::new(2).fit(&x).expect("fit");
        assert!(p.transform(&big).is_err());
        assert!(matches!(
            p.transform(&array![[1.0]]),
            Err(Error::ShapeMismatch { .. })
        ));
    }
}
