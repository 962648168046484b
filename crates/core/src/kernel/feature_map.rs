//! Explicit feature maps `φ` with `⟨φ(x), φ(x′)⟩ = k(x, x′)`, to test the kernel trick (the
//! course notes' multinomial and RBF Taylor maps; Shawe-Taylor & Cristianini, *Kernel Methods
//! for Pattern Analysis* (2004); Steinwart, Hush & Scovel, IEEE Trans. Information
//! Theory 52(10), 2006).
//!
//! * [`polynomial_feature_map`]: the multinomial map of `(xᵀx′)^d`, one coordinate per monomial
//!   `x₁^{n₁}⋯x_D^{n_D}` with `Σ nᵢ = d`, weighted by `√C(d; n₁, …, n_D)` (the multinomial
//!   coefficient): by the multinomial theorem the dot product of two maps is exactly `(xᵀx′)^d`
//!   (up to rounding). `C(D + d − 1, d)` coordinates, so `O(D^d)` work versus `O(D + log d)` for
//!   the kernel.
//! * [`inhomogeneous_polynomial_feature_map`]: `(γ xᵀx′ + c₀)^d = ((√γ x, √c₀)ᵀ(√γ x′, √c₀))^d`,
//!   the multinomial map of the vector extended by the coordinate `√c₀` (`c₀ ≥ 0`).
//! * [`rbf_taylor_feature_map`]: the RBF Taylor map truncated at order `n`,
//!   `φₙ(x) = e^{−γ‖x‖²} (√((2γ)^p/p!) ψ_p(x))_{p = 0..n}` with `ψ_p` the multinomial map of degree
//!   `p`; `⟨φₙ(x), φₙ(x′)⟩ = e^{−γ‖x‖²−γ‖x′‖²} Σ_{p ≤ n} (2γ xᵀx′)^p/p!`, which tends to
//!   `exp(−γ‖x − x′‖²)` as `n → ∞`, with the error bound of [`rbf_taylor_error_bound`].
//!
//! Coordinates are ordered by degree, then lexicographically by the sorted index tuple
//! `i₁ ≤ … ≤ i_d` of the monomial `x_{i₁}⋯x_{i_d}` (so `x₁², x₁x₂, x₂²` for `D = 2, d = 2`).
//! Implementation choice: the course notes give the map but no ordering.

use ndarray::{Array2, ArrayRef2, ArrayView1, Axis, concatenate};

use crate::validate::check_finite_2d;
use crate::{Error, Float, Result};

/// Largest number of coordinates a map may have.
const MAX_FEATURES: usize = 10_000_000;

/// Largest number of entries (rows × coordinates) of a map.
const MAX_ENTRIES: usize = 200_000_000;

/// `C(D + d − 1, d)`: the number of monomials of degree exactly `d` in `D` variables (the length
/// of [`polynomial_feature_map`]); `None` on overflow.
pub fn polynomial_feature_count(n_features: usize, degree: u32) -> Option<usize> {
    if n_features == 0 {
        return Some(usize::from(degree == 0));
    }
    // C(D − 1 + d, d) = Π_{k=1..d} (D − 1 + k)/k, exact at every step.
    let mut c: usize = 1;
    for k in 1..=usize::try_from(degree).ok()? {
        c = c.checked_mul(n_features - 1 + k)? / k;
    }
    Some(c)
}

/// The sorted index tuples of all monomials of degree `d` in `n` variables, with
/// `√(multinomial coefficient)`.
fn monomials(n: usize, d: usize) -> Vec<(Vec<usize>, f64)> {
    let mut out = Vec::new();
    if n == 0 {
        if d == 0 {
            out.push((Vec::new(), 1.0));
        }
        return out;
    }
    let mut idx = vec![0usize; d];
    loop {
        out.push((idx.clone(), multinomial(&idx, d).sqrt()));
        // Next non-decreasing tuple: bump the last position that can grow, reset the tail.
        let Some(p) = (0..d).rev().find(|&p| idx[p] + 1 < n) else {
            break;
        };
        let v = idx[p] + 1;
        idx[p..].iter_mut().for_each(|e| *e = v);
    }
    out
}

/// `d!/(n₁!⋯n_D!)` for the multiplicities `nⱼ` of the sorted tuple `idx`, as a product of
/// binomials `C(m, nⱼ)` (exact while below 2⁵³).
fn multinomial(idx: &[usize], d: usize) -> f64 {
    let mut coef = 1.0;
    let mut remaining = d;
    let mut start = 0;
    while start < idx.len() {
        let run = idx[start..]
            .iter()
            .take_while(|&&v| v == idx[start])
            .count();
        coef *= binomial(remaining, run);
        remaining -= run;
        start += run;
    }
    coef
}

fn binomial(n: usize, k: usize) -> f64 {
    let k = k.min(n - k);
    (1..=k)
        .fold(1.0, |acc, i| acc * (n - k + i) as f64 / i as f64)
        .round()
}

fn check_size(n_rows: usize, count: Option<usize>) -> Result<usize> {
    match count {
        Some(c) if c <= MAX_FEATURES && c.saturating_mul(n_rows) <= MAX_ENTRIES => Ok(c),
        _ => Err(Error::invalid_param(
            "degree",
            format!(
                "the explicit feature map would have {} coordinates for {n_rows} rows (limit {MAX_FEATURES} \
                 coordinates, {MAX_ENTRIES} entries); use the kernel instead",
                count.map_or_else(|| "more than usize::MAX".to_string(), |c| c.to_string())
            ),
        )),
    }
}

/// Fills the multinomial map of degree `d` of every row of `x`, each coordinate times `scale`.
fn fill_monomials<F: Float>(x: &ArrayRef2<F>, d: usize, scale: f64) -> Array2<F> {
    let terms = monomials(x.ncols(), d);
    let mut out = Array2::zeros((x.nrows(), terms.len()));
    for (mut o, r) in out.rows_mut().into_iter().zip(x.rows()) {
        for (v, (idx, coef)) in o.iter_mut().zip(&terms) {
            *v = idx.iter().fold(F::cast(coef * scale), |p, &i| p * r[i]);
        }
    }
    out
}

/// The multinomial feature map of the homogeneous polynomial kernel `(xᵀx′)^d`:
/// `φ(x) = (√C(d; n₁..n_D) x₁^{n₁}⋯x_D^{n_D})` over all `n₁ + … + n_D = d`, so that
/// `φ(x)ᵀφ(x′) = (xᵀx′)^d` (the multinomial theorem). `d = 0` gives the single coordinate 1.
///
/// Output: `n × C(D + d − 1, d)` ([`polynomial_feature_count`]).
///
/// # Errors
/// [`Error::NonFinite`] for NaN/∞ in `x`; [`Error::InvalidParam`] (`degree`) when the map would
/// exceed 10⁷ coordinates or 2·10⁸ entries.
pub fn polynomial_feature_map<F: Float>(x: &ArrayRef2<F>, degree: u32) -> Result<Array2<F>> {
    check_finite_2d(x, "x")?;
    check_size(x.nrows(), polynomial_feature_count(x.ncols(), degree))?;
    Ok(fill_monomials(x, degree as usize, 1.0))
}

/// The feature map of `(γ xᵀx′ + c₀)^d`: the multinomial map of `(√γ x, √c₀)`, so
/// `φ(x)ᵀφ(x′) = (γ xᵀx′ + c₀)^d` (the course notes' `(xᵀx′ + θ)^d` is `γ = 1, c₀ = θ`).
///
/// # Errors
/// As [`polynomial_feature_map`], plus [`Error::InvalidParam`] unless `γ > 0` and `c₀ ≥ 0` are
/// finite (a negative offset has no real feature map).
pub fn inhomogeneous_polynomial_feature_map<F: Float>(
    x: &ArrayRef2<F>,
    degree: u32,
    gamma: f64,
    coef0: f64,
) -> Result<Array2<F>> {
    if !(gamma.is_finite() && gamma > 0.0) {
        return Err(Error::invalid_param(
            "gamma",
            format!("must be finite and > 0, got {gamma}"),
        ));
    }
    if !(coef0.is_finite() && coef0 >= 0.0) {
        return Err(Error::invalid_param(
            "coef0",
            format!("must be finite and >= 0 for a real feature map, got {coef0}"),
        ));
    }
    check_finite_2d(x, "x")?;
    let sg = F::cast(gamma.sqrt());
    let extra = Array2::from_elem((x.nrows(), 1), F::cast(coef0.sqrt()));
    let ext = concatenate(Axis(1), &[x.mapv(|v| v * sg).view(), extra.view()])
        .map_err(|e| Error::invalid_param("x", e.to_string()))?;
    polynomial_feature_map(&ext, degree)
}

/// The RBF Taylor feature map truncated at order `n` (the course notes' 1-D map, for any
/// dimension; Steinwart, Hush & Scovel, IEEE Trans. Information Theory 52(10), 2006):
/// `φₙ(x) = e^{−γ‖x‖²} (√((2γ)^p/p!) ψ_p(x))_{p = 0..n}`, `ψ_p` the multinomial map of degree
/// `p`. Then `φₙ(x)ᵀφₙ(x′) = e^{−γ(‖x‖² + ‖x′‖²)} Σ_{p ≤ n} (2γ xᵀx′)^p/p!` converges to
/// `exp(−γ ‖x − x′‖²)`, within [`rbf_taylor_error_bound`]. In 1-D with `γ = 1/(2σ²)` the
/// coordinates are the course notes' `e^{−x²/2σ²} [1, x/σ, x²/(√2 σ²), …]`.
///
/// Output: `n_rows × C(D + n, n)`.
///
/// # Errors
/// [`Error::InvalidParam`] unless `γ > 0` is finite or when the map is too large (as
/// [`polynomial_feature_map`]); [`Error::NonFinite`] for NaN/∞ in `x`.
pub fn rbf_taylor_feature_map<F: Float>(
    x: &ArrayRef2<F>,
    gamma: f64,
    order: u32,
) -> Result<Array2<F>> {
    if !(gamma.is_finite() && gamma > 0.0) {
        return Err(Error::invalid_param(
            "gamma",
            format!("must be finite and > 0, got {gamma}"),
        ));
    }
    check_finite_2d(x, "x")?;
    // C(D + n, n) = number of monomials of degree n in D + 1 variables.
    check_size(x.nrows(), polynomial_feature_count(x.ncols() + 1, order))?;
    let mut blocks = Vec::with_capacity(order as usize + 1);
    let mut factor = 1.0f64; // (2γ)^p / p!
    for p in 0..=order as usize {
        if p > 0 {
            factor *= 2.0 * gamma / p as f64;
        }
        blocks.push(fill_monomials(x, p, factor.sqrt()));
    }
    let views: Vec<_> = blocks.iter().map(|b| b.view()).collect();
    let mut phi =
        concatenate(Axis(1), &views).map_err(|e| Error::invalid_param("x", e.to_string()))?;
    let ng = -F::cast(gamma);
    for (mut row, r) in phi.rows_mut().into_iter().zip(x.rows()) {
        let w = (ng * sq_norm(r)).exp();
        row.iter_mut().for_each(|v| *v *= w);
    }
    Ok(phi)
}

fn sq_norm<F: Float>(r: ArrayView1<'_, F>) -> F {
    r.iter().fold(F::zero(), |s, &v| s + v * v)
}

/// Bound on the truncation error of [`rbf_taylor_feature_map`] at order `n` for two points with
/// norms `‖x‖`, `‖x′‖`:
/// `|k(x, x′) − φₙ(x)ᵀφₙ(x′)| ≤ (2γ‖x‖‖x′‖)^{n+1}/(n+1)!`.
///
/// Proof: with `t = 2γ xᵀx′`, the Lagrange remainder of `eᵗ` is at most
/// `|t|^{n+1}/(n+1)! · e^{max(t, 0)}`, and
/// `e^{−γ(‖x‖² + ‖x′‖²)} e^{max(t, 0)} ≤ e^{−γ(‖x‖ − ‖x′‖)²} ≤ 1` by Cauchy–Schwarz, with
/// `|t| ≤ 2γ‖x‖‖x′‖`. So the map converges fast when `2γ‖x‖‖x′‖` is small (scale the data)
/// and needs order `≫ 2γ‖x‖‖x′‖` otherwise.
pub fn rbf_taylor_error_bound(gamma: f64, norm_x: f64, norm_y: f64, order: u32) -> f64 {
    let t = 2.0 * gamma * norm_x * norm_y;
    // t^{n+1}/(n+1)! as a running product (no overflow of the factorial).
    (1..=u64::from(order) + 1).fold(1.0, |acc, k| acc * t / k as f64)
}
