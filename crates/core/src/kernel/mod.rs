//! Kernel functions as data: evaluation, Gram and cross-Gram matrices, the course notes' closure
//! rules, a Mercer (PSD) check and explicit feature maps.
//!
//! A [`Kernel`] is a plain, serde-derivable value (an enum tree), so estimators (SVMs, kernel PCA,
//! kernel MDS, RBF features) can store it as a hyperparameter and "any kernel works with any
//! kernel algorithm" (the course notes; Schölkopf & Smola, *Learning with Kernels*, MIT Press
//! (2002)). It computes
//!
//! * [`Kernel::eval`]: `k(a, b)` for two vectors;
//! * [`Kernel::gram`]: `K[i, j] = k(xᵢ, xⱼ)` for the rows of `X` (`n × n`, **exactly** symmetric);
//! * [`Kernel::cross_gram`]: `K[i, j] = k(xᵢ, yⱼ)` (`n × m`), e.g. test rows against training rows;
//! * [`Kernel::diag`]: `k(xᵢ, xᵢ)` for every row in `O(n d)`;
//! * [`Kernel::is_mercer_on`]: is the Gram matrix on the given rows symmetric positive
//!   semi-definite?
//! * [`PreparedKernel`]: a kernel bound to its training rows (validated once, norms and
//!   diagonal cached) for solvers that ask for kernel rows many times (SMO), and
//!   [`kernel_expansion`] `K(Z, X) c` for their predictions.
//!
//! # Kernels
//!
//! Notation: `⟨a, b⟩ = aᵀb`, `‖·‖` Euclidean, `‖·‖₁` the L1 norm. Hyperparameters follow
//! scikit-learn's `sklearn.metrics.pairwise` names.
//!
//! | variant | `k(x, x′)` | PSD | scikit-learn | course notes |
//! |---|---|---|---|---|
//! | [`Linear`](Kernel::Linear) | `xᵀx′` | yes | `linear_kernel` | `xᵀx′` |
//! | [`Polynomial`](Kernel::Polynomial) | `(γ xᵀx′ + c₀)^d` | if `c₀ ≥ 0` | `polynomial_kernel(degree, gamma, coef0)` | `(x·x′ + θ)^d` is `γ = 1, c₀ = θ`; also written `(x·z + 1)^p` and `(1 + xᵀx′)^t` |
//! | [`HomogeneousPolynomial`](Kernel::HomogeneousPolynomial) | `(xᵀx′)^d` | yes | `polynomial_kernel(gamma=1, coef0=0)` | `(xᵀx′)^d` |
//! | [`Rbf`](Kernel::Rbf) | `exp(−γ ‖x − x′‖²)` | yes | `rbf_kernel(gamma)` | `exp(−γ ‖x − x′‖²)`; the Gaussian `exp(−‖x − z‖²/2σ²)` is `γ = 1/(2σ²)`: [`Kernel::rbf_sigma`] |
//! | [`Laplacian`](Kernel::Laplacian) | `exp(−γ ‖x − x′‖₁)` | yes | `laplacian_kernel(gamma)` | not in the course notes |
//! | [`Sigmoid`](Kernel::Sigmoid) | `tanh(γ xᵀx′ + c₀)` | **no** (in general) | `sigmoid_kernel(gamma, coef0)` | named only |
//! | [`QuadraticForm`](Kernel::QuadraticForm) | `xᵀ A x′`, `A` symmetric PSD | yes | — | rule 8 |
//!
//! The RBF kernel is a *similarity* (`k → 1` as `x′ → x`, `k → 0` far apart); one set of the
//! course notes calls it a "dissimilarity measure" (catalog erratum E27). Large `γ` (small `σ`)
//! means a narrow kernel and overfitting, small `γ` a wide one and underfitting (scikit-learn
//! example: RBF SVM parameters).
//!
//! The sigmoid kernel is **not** positive semi-definite in general: for `x = 0` and `c₀ < 0` the
//! 1 × 1 Gram matrix is `tanh(c₀) < 0` (Lin & Lin, "A study on sigmoid kernels for SVM and the
//! training of non-PSD kernels by SMO-type methods", National Taiwan University, 2003). It is
//! provided because the course notes name it ("sigmoid kernel SVM ≈ 2-layer network") and
//! scikit-learn offers it. Likewise the polynomial
//! kernel with `c₀ < 0` is allowed (as in scikit-learn) but not guaranteed PSD.
//! [`Kernel::is_guaranteed_psd`] tells whether the closure rules below prove a kernel PSD.
//!
//! # The course notes' kernel rules (closure rules), with proof sketches
//!
//! A function `k` is a (Mercer) kernel when every Gram matrix it produces is symmetric PSD
//! (Mercer, Phil. Trans. Royal Society A 209, 1909, in integral form), equivalently
//! `k(x, x′) = ⟨φ(x), φ(x′)⟩` for some feature map `φ` (one set of the course notes says
//! "positive definite" and starts from any symmetric function; semi-definiteness of every Gram
//! matrix is the condition). For the plain dot product,
//! `K = ΨΨᵀ` with the data rows in `Ψ`, so `vᵀKv = ‖Ψᵀv‖² ≥ 0`. Given kernels `k₁, k₂`, the
//! following are kernels (Shawe-Taylor & Cristianini, *Kernel Methods for Pattern Analysis*,
//! Cambridge University Press (2004), ch. 3; Bishop, *Pattern Recognition and Machine
//! Learning* (2006), §6.2); each is a combinator variant here:
//!
//! 1. `c k₁`, `c > 0` ([`Scaled`](Kernel::Scaled)): `vᵀ(cK)v = c·vᵀKv ≥ 0`; `φ = √c φ₁`.
//! 2. `f(x) k₁(x, x′) f(x′)` for a function `f` ([`FeatureWeighted`](Kernel::FeatureWeighted)):
//!    the Gram matrix is `D K D` with `D = diag(f(xᵢ))`, and `vᵀDKDv = (Dv)ᵀK(Dv) ≥ 0`;
//!    `φ = f·φ₁`.
//! 3. `q(k₁)` for a polynomial `q` with non-negative coefficients
//!    ([`PolynomialOf`](Kernel::PolynomialOf)): powers are repeated products (rule 5), the constant
//!    `c₀ ≥ 0` is the kernel of `φ = √c₀`, and sums of PSD matrices are PSD.
//! 4. `exp(k₁)` ([`Exp`](Kernel::Exp)): the limit of the Taylor polynomials `Σ k₁ᵖ/p!`
//!    (rule 3), and the PSD cone is closed.
//! 5. `k₁ k₂` ([`Product`](Kernel::Product)): the Schur product theorem, `K₁ ∘ K₂` is a principal
//!    submatrix of the PSD matrix `K₁ ⊗ K₂`; `φ = φ₁ ⊗ φ₂`.
//! 6. `k_a(x_a, x′_a) k_b(x_b, x′_b)` on sub-vectors ([`SubvectorProduct`](Kernel::SubvectorProduct)):
//!    each factor is a kernel on `x` (compose with the projection `x ↦ x_a`), then rule 5.
//! 7. `k_a(x_a, x′_a) + k_b(x_b, x′_b)` ([`SubvectorSum`](Kernel::SubvectorSum); with full vectors
//!    [`Sum`](Kernel::Sum)): sums of PSD matrices are PSD; `φ = (φ_a(x_a), φ_b(x_b))`.
//! 8. `xᵀAx′` with `A` symmetric PSD ([`QuadraticForm`](Kernel::QuadraticForm)): `A = LLᵀ`,
//!    `φ(x) = Lᵀx`, so `K = (XL)(XL)ᵀ`.
//!
//! Kernels on discrete data are allowed, as the course notes point out: encode the data as
//! numbers (indicators) and combine with these rules.
//!
//! Derived facts used in the tests: the RBF kernel is built from the rules as
//! `exp(−γ‖x‖²) · exp(2γ xᵀx′) · exp(−γ‖x′‖²)` (rules 1, 4, 2 with
//! [`WeightFn::Gaussian`]); the Laplacian kernel is the product over coordinates of the 1-D
//! kernels `exp(−γ|t − t′|)`, each PSD by Bochner's theorem (its Fourier transform is a Cauchy
//! density), so it is PSD by rules 5/6.
//!
//! # The RBF kernel's feature space
//!
//! With `t = 2γ xᵀx′`,
//! `k(x, x′) = e^{−γ‖x‖²} e^{−γ‖x′‖²} Σ_p t^p/p!`, and each `(xᵀx′)^p` is a dot product of the
//! multinomial monomial maps. So `φ(x) = e^{−γ‖x‖²} (√((2γ)^p/p!) ψ_p(x))_{p ≥ 0}` lives in an
//! infinite-dimensional space (Steinwart, Hush & Scovel, "An explicit description of the
//! reproducing kernel Hilbert spaces of Gaussian RBF kernels", IEEE Trans. Information Theory
//! 52(10), 2006; in 1-D, as in the course notes, `e^{−x²/2σ²} [1, x/σ, x²/(√2 σ²), …]`).
//! Every `φ(x)` has unit length (`k(x, x) = 1`), so the data sit on the unit sphere of the
//! feature space and `‖φ(x) − φ(x′)‖² = 2 − 2k(x, x′)`. [`rbf_taylor_feature_map`] truncates
//! the series at order `n`, with the error bound of [`rbf_taylor_error_bound`].
//!
//! # Computation and complexity
//!
//! * Dot-product kernels (linear, polynomial, sigmoid): one gemm `X Yᵀ` (BLAS, multithreaded at the
//!   top level), then an element-wise map: `O(n m d)` + `O(n m)`.
//! * RBF: the Gram trick `‖xᵢ‖² + ‖yⱼ‖² − 2 xᵢᵀyⱼ` (one gemm, as
//!   [`crate::linalg::pairwise_sq_euclidean`], clamped at 0) fused with the `exp`. Its rounding
//!   error is about `ε (‖xᵢ‖² + ‖yⱼ‖²)`, so for close points far from the origin centre the data
//!   first (scikit-learn's `rbf_kernel` has the same behaviour).
//! * Laplacian: direct `O(n m d)` L1 distances (no gemm form exists), vectorised over the
//!   columns of `K` by reading `Yᵀ`, with the features still summed in order.
//! * Quadratic form: two gemms `(X A) Yᵀ`.
//! * Combinators: their children's matrices combined element-wise (a sub-vector kernel runs its
//!   child on a column slice).
//! * `gram(X)` evaluates only the upper triangle (`j ≥ i`) and mirrors it, so the result is
//!   exactly symmetric and half the transcendental calls are saved; an RBF/Laplacian diagonal is
//!   exactly 1. The matrix is cut into 256 × 256 tiles, and one task maps an upper tile and
//!   copies it transposed into its lower partner while it is in cache (a separate transpose pass
//!   over a 10⁴ × 10⁴ matrix would cost about as much as the `exp`s).
//! * Element-wise passes run in parallel on the caller's rayon pool over fixed pieces (those
//!   tile pairs, or chunks of 64 rows for cross-Gram matrices). Following the [`crate::par`] rule,
//!   the split never depends on the thread count and each entry is written by one task (no
//!   reduction), so results are bitwise identical for any number of threads.
//! * Measured (release build, this project's 2-core machine, OpenBLAS, against scikit-learn 1.9
//!   in the same minutes; other jobs were sharing the machine, so numbers moved by ±30 %):
//!   `gram` RBF on 10,000 × 30 data about 0.5 s with both cores free (scikit-learn's
//!   `rbf_kernel` 1.0–1.3 s) and 0.8 s with one core busy elsewhere (scikit-learn 1.0–1.9 s).
//!   `cross_gram` (no symmetry to exploit) about 0.5 s against 0.75 s with both cores free, but
//!   slower than scikit-learn (1.0 s against 0.8 s) when the cores are contended: numpy's `exp` is
//!   AVX-512 SIMD, while this crate targets baseline x86-64 and calls the scalar libm `exp`.
//!   Polynomial `gram` 0.75 s against 1.0 s; Laplacian `gram` on 3,000 rows 0.10 s, as
//!   scikit-learn.
//! * `eval` and `diag` cost `O(d)` per pair (`O(d²)` for the quadratic form) and call no BLAS;
//!   `(xᵀx′)^d` is evaluated as one dot product and `powi` (repeated squaring): the course
//!   notes' `O(D + log d)` against `O(D^d)` through the explicit map.
//!
//! # Implementation choices (not in the course notes)
//!
//! * The polynomial kernel carries scikit-learn's `γ` as well as the course notes' offset `θ = c₀`.
//! * The Laplacian kernel is not in the course notes (scikit-learn has it).
//! * Rule 2 takes any function `f`; a kernel stored as data cannot hold a closure, so `f` is one of
//!   the [`WeightFn`] variants (inverse norm = cosine normalisation, inverse feature-space norm =
//!   kernel normalisation, Gaussian weight). For an arbitrary `f`, scale a Gram matrix yourself:
//!   `K[i, j] · f(xᵢ) f(yⱼ)`.
//! * Sub-vector kernels take arbitrary column ranges (they may overlap or leave columns out; the
//!   rule's proof does not need a partition).
//! * A non-finite kernel value (overflow, e.g. `exp` of a large linear kernel) is reported as
//!   [`Error::NonFinite`] with its position instead of being returned.
//!
//! # Example
//!
//! ```
//! use ndlearn_core::kernel::Kernel;
//! use ndlearn_core::ndarray::array;
//!
//! let x = array![[0.0f64, 1.0], [1.0, 1.0], [2.0, 0.5]];
//! // Gaussian kernel with σ = 1 (γ = 1/2) plus a quadratic polynomial kernel.
//! let k = Kernel::rbf_sigma(1.0)?.plus(Kernel::polynomial(2, 1.0));
//! let g = k.gram(&x)?;
//! assert_eq!(g, g.t());
//! assert!(k.is_mercer_on(&x, None)?);
//! let e = k.eval(&x.row(0), &x.row(1))?;
//! assert!((g[[0, 1]] - e).abs() < 1e-12);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! The course notes (catalog C-14, S-04, S-06) cover kernels, the multinomial map and γ, the
//! Gram matrix, Mercer's condition, the eight closure rules and the RBF Taylor map. Schölkopf &
//! Smola, *Learning with Kernels* (2002), ch. 2 and 13, for the closure proofs and the
//! Laplacian/Bochner argument; Shawe-Taylor & Cristianini, *Kernel Methods for Pattern
//! Analysis* (2004), ch. 3; J. Mercer, "Functions of positive and negative type, and their
//! connection with the theory of integral equations", Phil. Trans. Royal Society A 209, 1909;
//! Steinwart, Hush & Scovel (2006) for the Gaussian RBF feature space.

mod feature_map;
mod gram;
mod prepared;
#[cfg(test)]
mod tests;

use std::ops::Range;

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, ArrayView1, s};

use crate::validate::{check_finite_1d, check_finite_2d};
use crate::{Error, Float, Result, linalg};

pub use feature_map::{
    inhomogeneous_polynomial_feature_map, polynomial_feature_count, polynomial_feature_map,
    rbf_taylor_error_bound, rbf_taylor_feature_map,
};
pub use prepared::{PreparedKernel, kernel_expansion};

/// The weighting function `f` of rule 2, `f(x) k(x, x′) f(x′)`
/// ([`Kernel::FeatureWeighted`]).
///
/// A kernel is data, so `f` is chosen from this list rather than passed as a closure
/// (an implementation choice; see the module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum WeightFn {
    /// `f(x) = 1/‖x‖` (Euclidean norm of the input; `f(0) = 0`). With the linear kernel this gives
    /// the cosine similarity.
    InverseNorm,
    /// `f(x) = 1/√k(x, x)` for the wrapped kernel `k` (`f = 0` where `k(x, x) ≤ 0`): the normalised
    /// kernel `k(x, x′)/√(k(x, x) k(x′, x′))`, with `k̃(x, x) = 1`.
    InverseFeatureNorm,
    /// `f(x) = exp(−γ ‖x‖²)`, `γ > 0`: with `Exp(Scaled { c: 2γ, Linear })` this builds the RBF
    /// kernel from the rules.
    Gaussian {
        /// `γ > 0`.
        gamma: f64,
    },
}

/// A kernel function `k(x, x′)`, stored as data (serde-derivable).
///
/// Leaves are the classic kernels; the combinators are the course notes' closure rules (module docs).
/// Build leaves with the constructors ([`Kernel::rbf_gamma`], [`Kernel::polynomial`], ...) or the
/// variants directly, and combine with [`Kernel::scaled`], [`Kernel::plus`], [`Kernel::times`],
/// [`Kernel::exp`], [`Kernel::polynomial_of`], [`Kernel::weighted`], [`Kernel::normalized`],
/// [`Kernel::subvector_product`], [`Kernel::subvector_sum`]. Parameters are checked by
/// [`Kernel::validate`], which every matrix method calls first.
///
/// | variant | field | valid range |
/// |---|---|---|
/// | `Polynomial` | `gamma`, `coef0`, `degree` | `γ > 0`, `c₀` finite, `d ≥ 1` |
/// | `HomogeneousPolynomial` | `degree` | `d ≥ 1` |
/// | `Rbf`, `Laplacian` | `gamma` | `γ > 0` |
/// | `Sigmoid` | `gamma`, `coef0` | `γ > 0`, `c₀` finite |
/// | `QuadraticForm` | `a` | square, finite, symmetric PSD |
/// | `Scaled` | `c` | `c > 0` |
/// | `PolynomialOf` | `coeffs` | non-empty, all `≥ 0` |
/// | `SubvectorProduct`, `SubvectorSum` | `a`, `b` | non-empty ranges inside the input |
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Kernel {
    /// `k(x, x′) = xᵀx′`.
    Linear,
    /// `k(x, x′) = (γ xᵀx′ + c₀)^d` (scikit-learn's form; the course notes' `(xᵀx′ + θ)^d` is
    /// `γ = 1`, `c₀ = θ`). PSD when `c₀ ≥ 0`.
    #[cfg_attr(feature = "serde", serde(alias = "poly"))]
    Polynomial {
        /// `γ > 0`, the scale of the dot product.
        gamma: f64,
        /// The offset `c₀` (the course notes' `θ`).
        coef0: f64,
        /// The degree `d ≥ 1`.
        degree: u32,
    },
    /// `k(x, x′) = (xᵀx′)^d`.
    HomogeneousPolynomial {
        /// The degree `d ≥ 1`.
        degree: u32,
    },
    /// `k(x, x′) = exp(−γ ‖x − x′‖²)` (Gaussian kernel with `γ = 1/(2σ²)`).
    Rbf {
        /// `γ > 0`.
        gamma: f64,
    },
    /// `k(x, x′) = exp(−γ ‖x − x′‖₁)`.
    Laplacian {
        /// `γ > 0`.
        gamma: f64,
    },
    /// `k(x, x′) = tanh(γ xᵀx′ + c₀)`: **not PSD in general**.
    Sigmoid {
        /// `γ > 0`.
        gamma: f64,
        /// The offset `c₀`.
        coef0: f64,
    },
    /// `k(x, x′) = xᵀ A x′` with `A` symmetric positive semi-definite (`d × d`).
    QuadraticForm {
        /// The matrix `A` (checked symmetric PSD by `validate`).
        a: Array2<f64>,
    },
    /// Rule 1: `c · k(x, x′)`, `c > 0`.
    Scaled {
        /// The factor `c > 0`.
        c: f64,
        /// The kernel being scaled.
        k: Box<Kernel>,
    },
    /// `k₁(x, x′) + k₂(x, x′)` (rule 7 with full vectors).
    Sum(Box<Kernel>, Box<Kernel>),
    /// Rule 5: `k₁(x, x′) · k₂(x, x′)`.
    Product(Box<Kernel>, Box<Kernel>),
    /// Rule 4: `exp(k(x, x′))`.
    Exp(Box<Kernel>),
    /// Rule 3: `q(k(x, x′)) = Σ_p coeffs[p] · k(x, x′)^p` with non-negative coefficients.
    PolynomialOf {
        /// `coeffs[p]` multiplies `k^p` (constant term first); non-empty, all `≥ 0`.
        coeffs: Vec<f64>,
        /// The inner kernel.
        k: Box<Kernel>,
    },
    /// Rule 2: `f(x) · k(x, x′) · f(x′)`.
    FeatureWeighted {
        /// The weighting function `f`.
        f: WeightFn,
        /// The inner kernel.
        k: Box<Kernel>,
    },
    /// Rule 6: `k_a(x[a], x′[a]) · k_b(x[b], x′[b])` on the column ranges `a` and `b`.
    SubvectorProduct {
        /// Columns of the first sub-vector.
        a: Range<usize>,
        /// Kernel on `x[a]`.
        ka: Box<Kernel>,
        /// Columns of the second sub-vector.
        b: Range<usize>,
        /// Kernel on `x[b]`.
        kb: Box<Kernel>,
    },
    /// Rule 7: `k_a(x[a], x′[a]) + k_b(x[b], x′[b])` on the column ranges `a` and `b`.
    SubvectorSum {
        /// Columns of the first sub-vector.
        a: Range<usize>,
        /// Kernel on `x[a]`.
        ka: Box<Kernel>,
        /// Columns of the second sub-vector.
        b: Range<usize>,
        /// Kernel on `x[b]`.
        kb: Box<Kernel>,
    },
}

/// `γ = 1/(2σ²)`: the RBF `γ` of a Gaussian kernel of width `σ`.
pub fn rbf_gamma_from_sigma(sigma: f64) -> f64 {
    1.0 / (2.0 * sigma * sigma)
}

/// `σ = 1/√(2γ)`: the Gaussian width of an RBF kernel with parameter `γ`.
pub fn rbf_sigma_from_gamma(gamma: f64) -> f64 {
    (0.5 / gamma).sqrt()
}

fn check_pos(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() && v > 0.0 {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be finite and > 0, got {v}"),
        ))
    }
}

fn check_finite_param(name: &'static str, v: f64) -> Result<()> {
    if v.is_finite() {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("must be finite, got {v}"),
        ))
    }
}

fn check_degree(name: &'static str, d: u32) -> Result<()> {
    if d == 0 {
        return Err(Error::invalid_param(name, "must be at least 1"));
    }
    if i32::try_from(d).is_err() {
        return Err(Error::invalid_param(
            name,
            format!("must be at most {}, got {d}", i32::MAX),
        ));
    }
    Ok(())
}

fn check_range(name: &'static str, r: &Range<usize>) -> Result<()> {
    if r.start < r.end {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!(
                "column range {}..{} is empty; give start < end",
                r.start, r.end
            ),
        ))
    }
}

fn range_ok(name: &'static str, r: &Range<usize>, d: usize) -> Result<()> {
    if r.end > d {
        return Err(Error::ShapeMismatch {
            context: "kernel: sub-vector column range",
            expected: format!("range `{name}` inside the {d} input columns"),
            found: format!("{}..{}", r.start, r.end),
        });
    }
    Ok(())
}

/// Plain sum of products (no BLAS: `eval` may run inside rayon tasks).
pub(crate) fn dot1<F: Float>(a: ArrayView1<'_, F>, b: ArrayView1<'_, F>) -> F {
    a.iter()
        .zip(b.iter())
        .fold(F::zero(), |s, (&p, &q)| s + p * q)
}

impl Kernel {
    // ------------------------------------------------------------------ constructors

    /// The linear kernel `xᵀx′`.
    pub fn linear() -> Self {
        Self::Linear
    }

    /// The course notes' polynomial kernel `(xᵀx′ + θ)^d` (`γ = 1`, `c₀ = θ`).
    pub fn polynomial(degree: u32, theta: f64) -> Self {
        Self::Polynomial {
            gamma: 1.0,
            coef0: theta,
            degree,
        }
    }

    /// scikit-learn's polynomial kernel `(γ xᵀx′ + c₀)^d`.
    pub fn polynomial_gamma(degree: u32, gamma: f64, coef0: f64) -> Self {
        Self::Polynomial {
            gamma,
            coef0,
            degree,
        }
    }

    /// The homogeneous polynomial kernel `(xᵀx′)^d`.
    pub fn homogeneous_polynomial(degree: u32) -> Self {
        Self::HomogeneousPolynomial { degree }
    }

    /// The RBF kernel `exp(−γ ‖x − x′‖²)` (checked by [`Kernel::validate`]: `γ > 0`).
    pub fn rbf_gamma(gamma: f64) -> Self {
        Self::Rbf { gamma }
    }

    /// The Gaussian kernel `exp(−‖x − x′‖²/(2σ²))`, stored as `Rbf { gamma: 1/(2σ²) }`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] unless `σ` is finite and `> 0`.
    pub fn rbf_sigma(sigma: f64) -> Result<Self> {
        check_pos("sigma", sigma)?;
        let gamma = rbf_gamma_from_sigma(sigma);
        check_pos("sigma", gamma).map_err(|_| {
            Error::invalid_param("sigma", format!("sigma = {sigma} gives gamma = {gamma}"))
        })?;
        Ok(Self::Rbf { gamma })
    }

    /// The Laplacian kernel `exp(−γ ‖x − x′‖₁)`.
    pub fn laplacian(gamma: f64) -> Self {
        Self::Laplacian { gamma }
    }

    /// The sigmoid kernel `tanh(γ xᵀx′ + c₀)` (not PSD in general).
    pub fn sigmoid(gamma: f64, coef0: f64) -> Self {
        Self::Sigmoid { gamma, coef0 }
    }

    /// Rule 8: `xᵀAx′`.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] (`a`) unless `A` is square, non-empty, finite and symmetric PSD.
    pub fn quadratic_form(a: Array2<f64>) -> Result<Self> {
        let k = Self::QuadraticForm { a };
        k.validate()?;
        Ok(k)
    }

    // ------------------------------------------------------------------ combinators

    /// Rule 1: `c · self`.
    pub fn scaled(self, c: f64) -> Self {
        Self::Scaled {
            c,
            k: Box::new(self),
        }
    }

    /// `self + other`.
    pub fn plus(self, other: Kernel) -> Self {
        Self::Sum(Box::new(self), Box::new(other))
    }

    /// Rule 5: `self · other`.
    pub fn times(self, other: Kernel) -> Self {
        Self::Product(Box::new(self), Box::new(other))
    }

    /// Rule 4: `exp(self)`.
    pub fn exp(self) -> Self {
        Self::Exp(Box::new(self))
    }

    /// Rule 3: `Σ_p coeffs[p] · self^p` (constant term first, coefficients `≥ 0`).
    pub fn polynomial_of(self, coeffs: Vec<f64>) -> Self {
        Self::PolynomialOf {
            coeffs,
            k: Box::new(self),
        }
    }

    /// Rule 2: `f(x) · self(x, x′) · f(x′)`.
    pub fn weighted(self, f: WeightFn) -> Self {
        Self::FeatureWeighted {
            f,
            k: Box::new(self),
        }
    }

    /// The normalised kernel `k(x, x′)/√(k(x, x) k(x′, x′))` (rule 2 with
    /// [`WeightFn::InverseFeatureNorm`]).
    pub fn normalized(self) -> Self {
        self.weighted(WeightFn::InverseFeatureNorm)
    }

    /// Rule 6: `ka(x[a], x′[a]) · kb(x[b], x′[b])`.
    pub fn subvector_product(a: Range<usize>, ka: Kernel, b: Range<usize>, kb: Kernel) -> Self {
        Self::SubvectorProduct {
            a,
            ka: Box::new(ka),
            b,
            kb: Box::new(kb),
        }
    }

    /// Rule 7: `ka(x[a], x′[a]) + kb(x[b], x′[b])`.
    pub fn subvector_sum(a: Range<usize>, ka: Kernel, b: Range<usize>, kb: Kernel) -> Self {
        Self::SubvectorSum {
            a,
            ka: Box::new(ka),
            b,
            kb: Box::new(kb),
        }
    }

    // ------------------------------------------------------------------ checks

    /// Checks every parameter of the kernel tree (table in [`Kernel`]).
    ///
    /// `QuadraticForm` costs a symmetric eigen-decomposition of `A`; everything else is `O(1)`
    /// per node.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming the first bad parameter.
    pub fn validate(&self) -> Result<()> {
        self.check_params(true)
    }

    /// Parameter checks; `full` adds the PSD test of a quadratic form's `A`.
    fn check_params(&self, full: bool) -> Result<()> {
        match self {
            Self::Linear => Ok(()),
            Self::Polynomial {
                gamma,
                coef0,
                degree,
            } => {
                check_pos("gamma", *gamma)?;
                check_finite_param("coef0", *coef0)?;
                check_degree("degree", *degree)
            }
            Self::HomogeneousPolynomial { degree } => check_degree("degree", *degree),
            Self::Rbf { gamma } | Self::Laplacian { gamma } => check_pos("gamma", *gamma),
            Self::Sigmoid { gamma, coef0 } => {
                check_pos("gamma", *gamma)?;
                check_finite_param("coef0", *coef0)
            }
            Self::QuadraticForm { a } => {
                if a.nrows() != a.ncols() || a.is_empty() {
                    return Err(Error::invalid_param(
                        "a",
                        format!("must be a non-empty square matrix, got {:?}", a.dim()),
                    ));
                }
                if a.iter().any(|v| !v.is_finite()) {
                    return Err(Error::invalid_param("a", "must be finite"));
                }
                if full && !linalg::is_positive_semidefinite(a, None)? {
                    return Err(Error::invalid_param(
                        "a",
                        "must be symmetric positive semi-definite (rule 8); e.g. use B Bᵀ",
                    ));
                }
                Ok(())
            }
            Self::Scaled { c, k } => {
                check_pos("c", *c)?;
                k.check_params(full)
            }
            Self::Sum(k1, k2) | Self::Product(k1, k2) => {
                k1.check_params(full)?;
                k2.check_params(full)
            }
            Self::Exp(k) => k.check_params(full),
            Self::PolynomialOf { coeffs, k } => {
                if coeffs.is_empty() {
                    return Err(Error::invalid_param("coeffs", "must not be empty"));
                }
                if let Some(c) = coeffs.iter().find(|c| !(c.is_finite() && **c >= 0.0)) {
                    return Err(Error::invalid_param(
                        "coeffs",
                        format!("must be finite and >= 0 (rule 3), got {c}"),
                    ));
                }
                k.check_params(full)
            }
            Self::FeatureWeighted { f, k } => {
                if let WeightFn::Gaussian { gamma } = f {
                    check_pos("gamma", *gamma)?;
                }
                k.check_params(full)
            }
            Self::SubvectorProduct { a, ka, b, kb } | Self::SubvectorSum { a, ka, b, kb } => {
                check_range("a", a)?;
                check_range("b", b)?;
                ka.check_params(full)?;
                kb.check_params(full)
            }
        }
    }

    /// Checks that the kernel accepts inputs with `d` features (quadratic-form size, sub-vector
    /// ranges).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`].
    pub fn check_n_features(&self, d: usize) -> Result<()> {
        match self {
            Self::QuadraticForm { a } if a.nrows() != d => Err(Error::ShapeMismatch {
                context: "kernel: quadratic form xᵀAx′",
                expected: format!("{} features (A is {}×{})", a.nrows(), a.nrows(), a.ncols()),
                found: format!("{d} features"),
            }),
            Self::Scaled { k, .. }
            | Self::Exp(k)
            | Self::PolynomialOf { k, .. }
            | Self::FeatureWeighted { k, .. } => k.check_n_features(d),
            Self::Sum(k1, k2) | Self::Product(k1, k2) => {
                k1.check_n_features(d)?;
                k2.check_n_features(d)
            }
            Self::SubvectorProduct { a, ka, b, kb } | Self::SubvectorSum { a, ka, b, kb } => {
                range_ok("a", a, d)?;
                range_ok("b", b, d)?;
                ka.check_n_features(a.len())?;
                kb.check_n_features(b.len())
            }
            _ => Ok(()),
        }
    }

    /// `true` when the closure rules prove the kernel positive semi-definite: every leaf is PSD
    /// (all but `Sigmoid`, and `Polynomial` with `c₀ < 0`) and every combinator keeps it.
    ///
    /// Assumes valid parameters ([`Kernel::validate`]). A `false` does not mean that a particular
    /// Gram matrix is indefinite: check that with [`Kernel::is_mercer_on`].
    pub fn is_guaranteed_psd(&self) -> bool {
        match self {
            Self::Linear
            | Self::HomogeneousPolynomial { .. }
            | Self::Rbf { .. }
            | Self::Laplacian { .. }
            | Self::QuadraticForm { .. } => true,
            Self::Polynomial { coef0, .. } => *coef0 >= 0.0,
            Self::Sigmoid { .. } => false,
            Self::Scaled { k, .. }
            | Self::Exp(k)
            | Self::PolynomialOf { k, .. }
            | Self::FeatureWeighted { k, .. } => k.is_guaranteed_psd(),
            Self::Sum(k1, k2)
            | Self::Product(k1, k2)
            | Self::SubvectorProduct { ka: k1, kb: k2, .. }
            | Self::SubvectorSum { ka: k1, kb: k2, .. } => {
                k1.is_guaranteed_psd() && k2.is_guaranteed_psd()
            }
        }
    }

    // ------------------------------------------------------------------ evaluation

    /// `k(a, b)` for two vectors of the same length.
    ///
    /// Checks the lengths, the finiteness of the inputs and the cheap parameter checks; the PSD
    /// test of a quadratic form's `A` is left to [`Kernel::validate`] (call it once, not per
    /// pair). The value may differ from the corresponding Gram entry in the last bits (the Gram
    /// matrix uses the gemm and the Gram trick).
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] for different lengths or a size the kernel does not accept,
    /// [`Error::NonFinite`] for NaN/∞ in `a` or `b`, [`Error::InvalidParam`] for bad parameters.
    pub fn eval<F: Float>(&self, a: &ArrayRef1<F>, b: &ArrayRef1<F>) -> Result<F> {
        self.check_params(false)?;
        if a.len() != b.len() {
            return Err(Error::ShapeMismatch {
                context: "kernel eval: vector lengths",
                expected: format!("b of length {} (as a)", a.len()),
                found: format!("length {}", b.len()),
            });
        }
        self.check_n_features(a.len())?;
        check_finite_1d(a, "a")?;
        check_finite_1d(b, "b")?;
        Ok(self.eval_unchecked(a.view(), b.view()))
    }

    /// `k(a, b)` without checks (lengths and parameters already validated).
    pub(crate) fn eval_unchecked<F: Float>(&self, a: ArrayView1<'_, F>, b: ArrayView1<'_, F>) -> F {
        match self {
            Self::Linear => dot1(a, b),
            Self::Polynomial {
                gamma,
                coef0,
                degree,
            } => (F::cast(*gamma) * dot1(a, b) + F::cast(*coef0)).powi(powi_degree(*degree)),
            Self::HomogeneousPolynomial { degree } => dot1(a, b).powi(powi_degree(*degree)),
            Self::Rbf { gamma } => {
                let d2 = a
                    .iter()
                    .zip(b.iter())
                    .fold(F::zero(), |s, (&p, &q)| s + (p - q) * (p - q));
                (-F::cast(*gamma) * d2).exp()
            }
            Self::Laplacian { gamma } => {
                let d1 = a
                    .iter()
                    .zip(b.iter())
                    .fold(F::zero(), |s, (&p, &q)| s + (p - q).abs());
                (-F::cast(*gamma) * d1).exp()
            }
            Self::Sigmoid { gamma, coef0 } => {
                (F::cast(*gamma) * dot1(a, b) + F::cast(*coef0)).tanh()
            }
            Self::QuadraticForm { a: m } => {
                let mut s = F::zero();
                for (i, &ai) in a.iter().enumerate() {
                    let mut t = F::zero();
                    for (j, &bj) in b.iter().enumerate() {
                        t += F::cast(m[[i, j]]) * bj;
                    }
                    s += ai * t;
                }
                s
            }
            Self::Scaled { c, k } => F::cast(*c) * k.eval_unchecked(a, b),
            Self::Sum(k1, k2) => k1.eval_unchecked(a, b) + k2.eval_unchecked(a, b),
            Self::Product(k1, k2) => k1.eval_unchecked(a, b) * k2.eval_unchecked(a, b),
            Self::Exp(k) => k.eval_unchecked(a, b).exp(),
            Self::PolynomialOf { coeffs, k } => horner(coeffs, k.eval_unchecked(a, b)),
            Self::FeatureWeighted { f, k } => {
                let fa = weight(f, k, a);
                let fb = weight(f, k, b);
                k.eval_unchecked(a, b) * (fa * fb)
            }
            Self::SubvectorProduct {
                a: ra,
                ka,
                b: rb,
                kb,
            } => {
                let va = ka.eval_unchecked(a.slice(s![ra.clone()]), b.slice(s![ra.clone()]));
                let vb = kb.eval_unchecked(a.slice(s![rb.clone()]), b.slice(s![rb.clone()]));
                va * vb
            }
            Self::SubvectorSum {
                a: ra,
                ka,
                b: rb,
                kb,
            } => {
                let va = ka.eval_unchecked(a.slice(s![ra.clone()]), b.slice(s![ra.clone()]));
                let vb = kb.eval_unchecked(a.slice(s![rb.clone()]), b.slice(s![rb.clone()]));
                va + vb
            }
        }
    }

    /// Common checks of the matrix methods.
    fn check_matrix_input<F: Float>(&self, x: &ArrayRef2<F>, name: &'static str) -> Result<()> {
        self.check_n_features(x.ncols())?;
        check_finite_2d(x, name)
    }

    /// The Gram matrix `K[i, j] = k(xᵢ, xⱼ)` of the rows of `x` (`n × n`).
    ///
    /// Exactly symmetric: the upper triangle is computed (one gemm plus an element-wise map for
    /// dot-product and distance kernels, children's matrices element-wise for combinators) and
    /// mirrored. Zero rows give a `0 × 0` matrix.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] (bad parameters), [`Error::ShapeMismatch`] (feature count the kernel
    /// does not accept), [`Error::NonFinite`] for NaN/∞ in `x` (context `"x"`) or an overflowing
    /// kernel value (context names the kernel matrix).
    pub fn gram<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.validate()?;
        self.check_matrix_input(x, "x")?;
        gram::matrix(self, x.view(), None)
    }

    /// The cross-Gram matrix `K[i, j] = k(xᵢ, yⱼ)` (`n × m`), e.g. test rows against training
    /// rows.
    ///
    /// # Errors
    /// As [`Kernel::gram`], plus [`Error::ShapeMismatch`] when `x` and `y` have different column
    /// counts.
    pub fn cross_gram<F: Float>(&self, x: &ArrayRef2<F>, y: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.validate()?;
        if x.ncols() != y.ncols() {
            return Err(Error::ShapeMismatch {
                context: "kernel cross_gram: number of features",
                expected: format!("{} columns in y (as in x)", x.ncols()),
                found: format!("{} columns", y.ncols()),
            });
        }
        self.check_matrix_input(x, "x")?;
        self.check_matrix_input(y, "y")?;
        gram::matrix(self, x.view(), Some(y.view()))
    }

    /// The diagonal `k(xᵢ, xᵢ)` for every row (`O(n d)`, no Gram matrix).
    ///
    /// # Errors
    /// As [`Kernel::gram`].
    pub fn diag<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        self.validate()?;
        self.check_matrix_input(x, "x")?;
        let d = gram::diag_unchecked(self, x.view());
        if let Some(i) = d.iter().position(|v| !v.is_finite()) {
            return Err(Error::NonFinite {
                context: gram::OVERFLOW_CONTEXT,
                row: i,
                col: i,
            });
        }
        Ok(d)
    }

    /// Mercer check on data: is the Gram matrix of the rows of `x` symmetric positive
    /// semi-definite, `λ_min ≥ −tol`? `tol = None` uses [`linalg::is_positive_semidefinite`]'s
    /// default `n · ε · max|λ|`.
    ///
    /// A PSD kernel passes on every data set; a `false` on some data proves the kernel is not
    /// Mercer (e.g. the sigmoid kernel).
    ///
    /// # Errors
    /// As [`Kernel::gram`], plus [`Error::TooFewSamples`] for an empty `x` and
    /// [`Error::Linalg`] if the eigen-solver fails.
    pub fn is_mercer_on<F: Float>(&self, x: &ArrayRef2<F>, tol: Option<F>) -> Result<bool> {
        crate::validate::check_min_samples(x.nrows(), 1, "kernel is_mercer_on")?;
        let k = self.gram(x)?;
        linalg::is_positive_semidefinite(&k, tol)
    }
}

/// Degree as the `i32` exponent of `powi` (validated `≤ i32::MAX`).
fn powi_degree(d: u32) -> i32 {
    i32::try_from(d).unwrap_or(i32::MAX)
}

/// `Σ_p coeffs[p] v^p` by Horner's rule.
fn horner<F: Float>(coeffs: &[f64], v: F) -> F {
    coeffs
        .iter()
        .rev()
        .fold(F::zero(), |acc, &c| acc * v + F::cast(c))
}

/// The weight `f(x)` of rule 2 for the inner kernel `k`.
fn weight<F: Float>(f: &WeightFn, k: &Kernel, x: ArrayView1<'_, F>) -> F {
    match f {
        WeightFn::InverseNorm => inv_sqrt_or_zero(dot1(x, x)),
        WeightFn::InverseFeatureNorm => inv_sqrt_or_zero(k.eval_unchecked(x, x)),
        WeightFn::Gaussian { gamma } => (-F::cast(*gamma) * dot1(x, x)).exp(),
    }
}

/// `1/√v` for `v > 0`, else 0 (the convention for zero rows).
fn inv_sqrt_or_zero<F: Float>(v: F) -> F {
    if v > F::zero() {
        F::one() / v.sqrt()
    } else {
        F::zero()
    }
}
