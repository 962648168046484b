//! Truncated SVD ([`TruncatedSvd`], scikit-learn's `TruncatedSVD`) and the Eckart–Young
//! low-rank approximation ([`low_rank_approximation`]) (catalog CL-162).
//!
//! # Method
//!
//! The top `k` singular triplets of `X` itself, **without centring** (so it works on data whose
//! mean must not be subtracted, e.g. term counts: latent semantic analysis). `X ≈ U_k Σ_k V_kᵀ`;
//! the components are the rows of `V_kᵀ` (scikit-learn's `svd_flip` signs), `transform` is
//! `X V_k`, `inverse_transform` is `Z V_kᵀ`. As scikit-learn, the explained variance of a
//! component is the (biased, `1/n`) variance of its scores and the ratio divides by the total
//! biased variance of `X`'s columns.
//!
//! Solvers ([`SvdAlgorithm`]): exact (thin LAPACK SVD, then the top `k`) or randomized (Halko,
//! Martinsson & Tropp; scikit-learn's default, `n_iter = 5`).
//!
//! **Eckart–Young**: the best rank-`k` approximation in the Frobenius (and spectral) norm is the
//! truncated SVD, with error `‖X − X_k‖_F = √(Σ_{i>k} σ_i²)`.
//!
//! ```
//! use ndlearn_decomposition::{low_rank_approximation, TruncatedSvd};
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform};
//!
//! let x = array![[3.0f64, 0.0], [0.0, 1.0], [0.0, 0.0]];
//! let (approx, err) = low_rank_approximation(&x, 1)?;
//! assert!((err - 1.0).abs() < 1e-12); // the dropped singular value
//! assert!((approx[[0, 0]] - 3.0).abs() < 1e-12 && approx[[1, 1]].abs() < 1e-12);
//! let svd = TruncatedSvd::new(1).fit(&x)?;
//! assert!((svd.singular_values()[0] - 3.0).abs() < 1e-12);
//! assert_eq!(svd.transform(&x)?.dim(), (3, 1));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg::{self, RandomizedSvdOptions};
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, InverseTransform, Result, Transform};

/// How [`TruncatedSvd`] computes the triplets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SvdAlgorithm {
    /// Randomized range finder (default, as scikit-learn).
    #[default]
    Randomized,
    /// Thin LAPACK SVD, truncated (exact).
    Exact,
}

/// Truncated SVD without centring. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct TruncatedSvd {
    /// Components `k` (default 2).
    pub n_components: usize,
    /// Solver (default randomized).
    pub algorithm: SvdAlgorithm,
    /// Subspace iterations of the randomized solver (default 5, as scikit-learn).
    pub n_iter: usize,
    /// Random seed (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for TruncatedSvd {
    fn default() -> Self {
        Self::new(2)
    }
}

impl TruncatedSvd {
    /// `k` components, randomized solver.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            algorithm: SvdAlgorithm::Randomized,
            n_iter: 5,
            seed: 0,
        }
    }
    ndlearn_core::setters! {
        /// Sets the solver.
        algorithm: SvdAlgorithm,
        /// Sets the seed.
        seed: u64,
    }
}

impl Estimator for TruncatedSvd {
    /// Checks `n_components ≥ 1` (at most `min(n, d)` is checked at fit).
    fn validate(&self) -> Result<()> {
        ndlearn_core::validate::check_at_least("n_components", self.n_components, 1)
    }
}

impl<F: Float> FitUnsupervised<F> for TruncatedSvd {
    type Model = FittedTruncatedSvd<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "TruncatedSvd::fit")?;
        let (n, d) = x.dim();
        let k = self.n_components;
        let m = n.min(d);
        if k == 0 || k > m {
            return Err(Error::invalid_param(
                "n_components",
                format!("must be in 1..={m} (min of rows and columns), got {k}"),
            ));
        }
        let svd = match self.algorithm {
            SvdAlgorithm::Exact => linalg::svd_thin(x)?,
            SvdAlgorithm::Randomized => linalg::randomized_svd(
                x,
                k,
                RandomizedSvdOptions::default()
                    .n_iter(self.n_iter)
                    .seed(self.seed),
            )?,
        };
        let vt = crate::common::flip_rows(svd.vt.slice(s![..k, ..]).to_owned());
        let sing = svd.s.slice(s![..k]).to_owned();
        // scikit-learn: variances (1/n) of the scores and of the columns
        let scores = x.dot(&vt.t());
        let nf = F::cast(n as f64);
        let var_of = |a: &ArrayRef2<F>| -> Array1<F> {
            a.map_axis(Axis(0), |c| {
                let mean = c.sum() / nf;
                c.iter().map(|&v| (v - mean) * (v - mean)).sum::<F>() / nf
            })
        };
        let explained = var_of(&scores);
        let total = var_of(x).sum();
        let ratio = if total > F::zero() {
            explained.mapv(|v| v / total)
        } else {
            Array1::zeros(k)
        };
        Ok(FittedTruncatedSvd {
            params: self.clone(),
            components: vt,
            singular_values: sing,
            explained_variance: explained,
            explained_variance_ratio: ratio,
        })
    }
}

/// A fitted [`TruncatedSvd`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedTruncatedSvd<F: Float> {
    params: TruncatedSvd,
    components: Array2<F>,
    singular_values: Array1<F>,
    explained_variance: Array1<F>,
    explained_variance_ratio: Array1<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedTruncatedSvd<F> {
    fn n_features_in(&self) -> usize {
        self.components.ncols()
    }
}

impl<F: Float> FittedTruncatedSvd<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &TruncatedSvd {
        &self.params
    }
    /// The components `V_kᵀ` (`k × d`, orthonormal rows).
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// The top `k` singular values of `X`.
    pub fn singular_values(&self) -> &Array1<F> {
        &self.singular_values
    }
    /// Variance (`1/n`) of the training scores of each component.
    pub fn explained_variance(&self) -> &Array1<F> {
        &self.explained_variance
    }
    /// [`Self::explained_variance`] over the total variance of the training columns.
    pub fn explained_variance_ratio(&self) -> &Array1<F> {
        &self.explained_variance_ratio
    }
}

impl<F: Float> Transform<F> for FittedTruncatedSvd<F> {
    /// Scores `X V_k` (`n × k`).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(
            x,
            self.components.ncols(),
            "TruncatedSvd: number of features",
        )?;
        Ok(x.dot(&self.components.t()))
    }
}

impl<F: Float> InverseTransform<F> for FittedTruncatedSvd<F> {
    /// `Z V_kᵀ`: the rank-`k` reconstruction of the rows the scores came from.
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::common::check_scores(
            z,
            self.components.nrows(),
            "TruncatedSvd::inverse_transform",
        )?;
        Ok(z.dot(&self.components))
    }
}

impl<F: Float> CheckModel for FittedTruncatedSvd<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedTruncatedSvd");
        c.params(&self.params)?;
        let (k, d) = self.components.dim();
        crate::common::check_components(&c, &self.components, d)?;
        c.len("components (rows)", k, self.params.n_components)?;
        c.that(k <= d, || format!("{k} components of {d} features"))?;
        for (field, a) in [
            ("singular_values", &self.singular_values),
            ("explained_variance", &self.explained_variance),
            ("explained_variance_ratio", &self.explained_variance_ratio),
        ] {
            c.len(field, a.len(), k)?;
            c.non_negative(field, a)?;
        }
        Ok(())
    }
}

/// The best rank-`k` approximation of `x` (Eckart–Young) and its Frobenius error
/// `√(Σ_{i>k} σ_i²)`, from the exact thin SVD.
///
/// # Errors
/// [`Error::InvalidParam`] unless `1 ≤ k ≤ min(n, d)`; input errors.
pub fn low_rank_approximation<F: Float>(x: &ArrayRef2<F>, k: usize) -> Result<(Array2<F>, F)> {
    check_fit_input(x, 1, "low_rank_approximation")?;
    let m = x.nrows().min(x.ncols());
    if k == 0 || k > m {
        return Err(Error::invalid_param(
            "k",
            format!("must be in 1..={m} (min of rows and columns), got {k}"),
        ));
    }
    let svd = linalg::svd_thin(x)?;
    let us = &svd.u.slice(s![.., ..k]) * &svd.s.slice(s![..k]);
    let approx = us.dot(&svd.vt.slice(s![..k, ..]));
    let err = svd
        .s
        .slice(s![k..])
        .iter()
        .map(|&v| v * v)
        .sum::<F>()
        .sqrt();
    Ok((approx, err))
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_non_finite_components() {
        let x = array![
            [1.0f64, 2.0, 0.5],
            [2.0, 1.0, 1.5],
            [4.0, 3.0, 0.0],
            [0.0, 1.0, 2.0]
        ];
        let mut m = TruncatedSvd::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.components[[1, 2]] = f64::NAN;
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
