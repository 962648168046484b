//! Kernel principal component analysis ([`KernelPca`], scikit-learn's `KernelPCA`; catalog
//! CL-167, the course notes' optional explicit-feature-map PCA done with kernels; S-09).
//!
//! # Method
//!
//! PCA in the feature space `φ` of a kernel `k(x, x′) = φ(x)ᵀφ(x′)` without forming `φ`. With
//! `K` the `n × n` Gram matrix of the training rows and `J = I − 11ᵀ/n`, the **centred** Gram
//! matrix `K̃ = J K J` is the Gram matrix of the centred features. Its eigenpairs
//! `K̃ v_i = λ_i v_i` (largest first, unit `v_i`) give the principal directions of the features;
//! the score of a training row on component `i` is `√λ_i v_i` and a new row `x` scores
//!
//! ```text
//! z_i(x) = Σ_j k̃(x, x_j) v_ji / √λ_i,
//! k̃(x, x_j) = k(x, x_j) − mean_l k(x_l, x_j) − mean_l k(x, x_l) + mean_{l,m} k(x_l, x_m)
//! ```
//!
//! (the centring uses the *training* means, as scikit-learn's `KernelCenterer`). The
//! eigenvalues are reported unscaled (those of `K̃`, as scikit-learn's `eigenvalues_`); the
//! explained variances are `λ_i / n`. Components with a zero eigenvalue score 0.
//!
//! With the linear kernel this is ordinary PCA: `K̃ = X̃X̃ᵀ`, `λ_i = σ_i²` and the scores equal
//! [`crate::Pca`]'s (tested).
//!
//! **Pre-image** (`fit_inverse_transform`, as scikit-learn): kernel ridge regression from the
//! training scores back to the inputs with the same kernel, `A = (k(Z, Z) + α I)⁻¹ X`, and
//! `x̂(z) = k(z, Z) A` (Bakır, Weston & Schölkopf 2004).
//!
//! **Eigensolvers** ([`KernelPcaSolver`]): the dense symmetric solver (LAPACK's divide and
//! conquer), or restarted block Krylov iteration with Rayleigh–Ritz for the top `k`
//! (`ndlearn_core::linalg::eigsh_top`, converged to residual `1e-12 · λ_1`; one `n² (k + 10)`
//! GEMM per block, no `n³` tridiagonalisation). `Auto` takes the dense solver for `n ≤ 500`,
//! all components, `k > n/5`, or a kernel not guaranteed positive semi-definite (the restarts
//! keep the algebraically largest Ritz pairs, which is only safe when those are the largest in
//! magnitude).
//!
//! Signs: every eigenvector's entry of largest magnitude is positive (scikit-learn's
//! `svd_flip(u)`).
//!
//! ```
//! use ndlearn_decomposition::KernelPca;
//! use ndlearn_core::kernel::Kernel;
//! use ndlearn_core::ndarray::array;
//! use ndlearn_core::{FitUnsupervised, Transform, InverseTransform};
//!
//! // two concentric rings are not linearly separable; the RBF kernel's first component is
//! let x = array![[1.0f64, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0],
//!                [3.0, 0.0], [0.0, 3.0], [-3.0, 0.0], [0.0, -3.0]];
//! let kpca = KernelPca::new(2, Kernel::rbf_gamma(0.5)).fit_inverse_transform(true).fit(&x)?;
//! let z = kpca.transform(&x)?;
//! let (inner, outer) = (z[[0, 0]], z[[4, 0]]);
//! assert!((0..4).all(|i| (z[[i, 0]] - inner).abs() < 1e-9));
//! assert!((4..8).all(|i| (z[[i, 0]] - outer).abs() < 1e-9));
//! assert!((inner - outer).abs() > 0.5);
//! let back = kpca.inverse_transform(&z)?; // approximate pre-images
//! assert_eq!(back.dim(), (8, 2));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis};
use ndlearn_core::Estimator;
use ndlearn_core::kernel::Kernel;
use ndlearn_core::linalg;
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, InverseTransform, Result, Transform};

/// The eigensolver of [`KernelPca`] (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum KernelPcaSolver {
    /// Dense for small problems or many components, block Krylov otherwise (default).
    #[default]
    Auto,
    /// Full symmetric eigendecomposition of the centred Gram matrix.
    Dense,
    /// Restarted block Krylov iteration with Rayleigh–Ritz for the top `k` (a count of
    /// components only; the name predates the Krylov solver).
    Subspace,
}

/// Kernel PCA. See the [module docs](self).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct KernelPca {
    /// Components kept (`None`: every component with a positive eigenvalue; default).
    pub n_components: Option<usize>,
    /// The kernel (default linear, as scikit-learn).
    pub kernel: Kernel,
    /// Eigensolver (default auto).
    #[cfg_attr(feature = "serde", serde(rename = "eigen_solver", alias = "solver"))]
    pub solver: KernelPcaSolver,
    /// Also learn the pre-image map for [`InverseTransform`] (default false).
    pub fit_inverse_transform: bool,
    /// Ridge of the pre-image regression (default 1.0, as scikit-learn).
    pub alpha: f64,
    /// Drop components whose eigenvalue is zero even when a count was asked (default false;
    /// always done when `n_components` is `None`).
    pub remove_zero_eig: bool,
    /// Limit on the block products of the iterative solver (default 1,000; the dense solver
    /// is used if it does not converge).
    pub max_iter: usize,
    /// Seed of the iterative solver's start block (default 0).
    #[cfg_attr(feature = "serde", serde(rename = "random_state", alias = "seed"))]
    pub seed: u64,
}

impl Default for KernelPca {
    fn default() -> Self {
        Self {
            n_components: None,
            kernel: Kernel::Linear,
            solver: KernelPcaSolver::Auto,
            fit_inverse_transform: false,
            alpha: 1.0,
            remove_zero_eig: false,
            max_iter: 1000,
            seed: 0,
        }
    }
}

impl KernelPca {
    /// Kernel PCA keeping `k` components with the given kernel.
    pub fn new(k: usize, kernel: Kernel) -> Self {
        Self {
            n_components: Some(k),
            kernel,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets the solver.
        solver: KernelPcaSolver,
        /// Sets `fit_inverse_transform`.
        fit_inverse_transform: bool,
        /// Sets the pre-image ridge `alpha`.
        alpha: f64,
        /// Sets `remove_zero_eig`.
        remove_zero_eig: bool,
        /// Sets the seed.
        seed: u64,
        /// Sets the block-product limit of the iterative solver.
        max_iter: usize,
    }

    /// The solver `Auto` resolves to for `n` rows and `k` components.
    pub fn resolve_solver(&self, n: usize, k: Option<usize>) -> KernelPcaSolver {
        match (self.solver, k) {
            (KernelPcaSolver::Auto, Some(k))
                if n > 500 && 5 * k <= n && self.kernel.is_guaranteed_psd() =>
            {
                KernelPcaSolver::Subspace
            }
            (KernelPcaSolver::Auto, _) => KernelPcaSolver::Dense,
            (other, _) => other,
        }
    }
}

impl ndlearn_core::Estimator for KernelPca {
    /// Checks the hyperparameters that do not depend on the data (`fit` calls it first).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `n_components = Some(0)`, a negative or non-finite `alpha`
    /// with `fit_inverse_transform`, `max_iter = 0`, or an invalid kernel.
    fn validate(&self) -> Result<()> {
        if self.n_components == Some(0) {
            return Err(Error::invalid_param("n_components", "must be at least 1"));
        }
        if self.fit_inverse_transform && !(self.alpha >= 0.0 && self.alpha.is_finite()) {
            return Err(Error::invalid_param(
                "alpha",
                format!("must be finite and >= 0, got {}", self.alpha),
            ));
        }
        if self.max_iter == 0 {
            return Err(Error::invalid_param("max_iter", "must be at least 1"));
        }
        self.kernel.validate()
    }
}

/// Training statistics of the feature-space centring (scikit-learn's `KernelCenterer`).
fn centre_fit<F: Float>(k: &mut Array2<F>) -> (Array1<F>, F) {
    let n = k.nrows();
    let nf = F::cast(n as f64);
    let col = k.sum_axis(Axis(0)) / nf;
    let all = col.sum() / nf;
    for i in 0..n {
        for j in 0..n {
            // (col[i] + col[j]) is the same sum for (i, j) and (j, i): the centred matrix stays
            // exactly symmetric, as the symmetric eigensolver requires.
            k[[i, j]] = k[[i, j]] - (col[i] + col[j]) + all;
        }
    }
    (col, all)
}

impl<F: Float> FitUnsupervised<F> for KernelPca {
    type Model = FittedKernelPca<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 2, "KernelPca::fit")?;
        let n = x.nrows();
        if let Some(k) = self.n_components
            && (k == 0 || k > n)
        {
            return Err(Error::invalid_param(
                "n_components",
                format!("must be in 1..={n} (the number of rows), got {k}"),
            ));
        }
        let mut gram = self.kernel.gram(x)?;
        let (col_means, all_mean) = centre_fit(&mut gram);
        let want = self.n_components.unwrap_or(n);
        let solver = self.resolve_solver(n, self.n_components);
        let tol = F::cast(1e-12).max(F::epsilon() * F::cast(10.0));
        let sub = if solver == KernelPcaSolver::Subspace {
            let r = linalg::eigsh_top(&gram, want, tol, self.max_iter, self.seed)?;
            r.converged.then_some((r.values, r.vectors))
        } else {
            None
        };
        let solver = if sub.is_none() {
            KernelPcaSolver::Dense
        } else {
            solver
        };
        let (mut vals, vecs) = match sub {
            Some(v) => v,
            // only the top `want` pairs (MRRR), as scikit-learn's dense `eigh(subset_by_index)`
            None => linalg::eigh_largest(&gram, want)?,
        };
        // scikit-learn's `_check_psd_eigenvalues`: significant negative eigenvalues mean the
        // kernel is not PSD on these data; tiny ones (either sign) are rounding
        let top = vals.iter().fold(F::zero(), |m, &v| m.max(v.abs()));
        let neg_ratio = if F::epsilon() < F::cast(1e-10) {
            1e-5
        } else {
            5e-3
        };
        if let Some(&worst) = vals.iter().find(|&&v| v < -F::cast(neg_ratio) * top) {
            return Err(Error::invalid_param(
                "kernel",
                format!(
                    "the centred kernel matrix has a significant negative eigenvalue \
                     ({worst:?} against a largest {top:?}): the kernel is not positive \
                     semi-definite on these data"
                ),
            ));
        }
        vals.mapv_inplace(|v| {
            if v < F::zero() || v.abs() < F::cast(1e-12) * top {
                F::zero()
            } else {
                v
            }
        });
        let vecs = crate::common::flip_rows(vecs.t().to_owned());
        let keep: Vec<usize> = if self.remove_zero_eig || self.n_components.is_none() {
            (0..vals.len()).filter(|&i| vals[i] > F::zero()).collect()
        } else {
            (0..vals.len()).collect()
        };
        let vals = vals.select(Axis(0), &keep);
        let vecs_t = vecs.select(Axis(0), &keep); // k × n, rows = eigenvectors
        let mut scaled = vecs_t.t().to_owned(); // n × k: v_i / √λ_i (0 for λ_i = 0)
        for (mut c, &l) in scaled.columns_mut().into_iter().zip(&vals) {
            if l > F::zero() {
                c /= l.sqrt();
            } else {
                c.fill(F::zero());
            }
        }
        let scaled = scaled.as_standard_layout().into_owned();
        let inverse = if self.fit_inverse_transform {
            let mut z = vecs_t.t().to_owned();
            for (mut c, &l) in z.columns_mut().into_iter().zip(&vals) {
                c *= l.sqrt();
            }
            let z = z.as_standard_layout().into_owned();
            let mut kz = self.kernel.gram(&z)?;
            for i in 0..n {
                kz[[i, i]] += F::cast(self.alpha);
            }
            let dual = linalg::solve_many(&kz, x)?;
            Some((z, dual.as_standard_layout().into_owned()))
        } else {
            None
        };
        Ok(FittedKernelPca {
            params: self.clone(),
            solver,
            x_fit: x.to_owned(),
            col_means,
            all_mean,
            eigenvalues: vals,
            eigenvectors: vecs_t.t().as_standard_layout().into_owned(),
            scaled_alphas: scaled,
            inverse,
        })
    }
}

/// A fitted [`KernelPca`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedKernelPca<F: Float> {
    params: KernelPca,
    solver: KernelPcaSolver,
    x_fit: Array2<F>,
    col_means: Array1<F>,
    all_mean: F,
    eigenvalues: Array1<F>,
    eigenvectors: Array2<F>,
    scaled_alphas: Array2<F>,
    /// (training scores, dual coefficients) of the pre-image regression.
    inverse: Option<(Array2<F>, Array2<F>)>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedKernelPca<F> {
    fn n_features_in(&self) -> usize {
        self.x_fit.ncols()
    }
}

impl<F: Float> FittedKernelPca<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &KernelPca {
        &self.params
    }
    /// The solver that ran (`Auto` resolved; `Dense` also when the iterative solver did not
    /// converge).
    pub fn solver(&self) -> KernelPcaSolver {
        self.solver
    }
    /// Eigenvalues of the centred Gram matrix, descending (scikit-learn's `eigenvalues_`).
    pub fn eigenvalues(&self) -> &Array1<F> {
        &self.eigenvalues
    }
    /// Unit eigenvectors of the centred Gram matrix as columns (`n × k`, scikit-learn's
    /// `eigenvectors_`).
    pub fn eigenvectors(&self) -> &Array2<F> {
        &self.eigenvectors
    }
    /// Variance of the training scores along each component, `λ_i / n`.
    pub fn explained_variance(&self) -> Array1<F> {
        let n = F::cast(self.x_fit.nrows() as f64);
        self.eigenvalues.mapv(|l| l / n)
    }
    /// Components kept.
    pub fn n_components(&self) -> usize {
        self.eigenvalues.len()
    }
    /// Scores of the training rows, `v_i √λ_i` (`n × k`; equal to `transform` of the training
    /// data up to rounding).
    pub fn training_scores(&self) -> Array2<F> {
        let mut z = self.eigenvectors.clone();
        for mut row in z.rows_mut() {
            row.zip_mut_with(&self.eigenvalues, |v, &l| *v *= l.sqrt());
        }
        z
    }
}

impl<F: Float> Transform<F> for FittedKernelPca<F> {
    /// Scores of new rows: the centred cross-Gram matrix times `v_i / √λ_i` (`m × k`).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.x_fit.ncols(), "KernelPca: number of features")?;
        let mut kx = self.params.kernel.cross_gram(x, &self.x_fit)?;
        let n = F::cast(self.x_fit.nrows() as f64);
        let row_means = kx.sum_axis(Axis(1)) / n;
        for (mut row, &rm) in kx.rows_mut().into_iter().zip(&row_means) {
            row.zip_mut_with(&self.col_means, |v, &c| *v = *v - c - rm + self.all_mean);
        }
        Ok(ndlearn_core::linalg::matmul(&kx, &self.scaled_alphas))
    }
}

impl<F: Float> InverseTransform<F> for FittedKernelPca<F> {
    /// Approximate pre-images by the kernel ridge map learnt at fit (`m × d`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when the model was fitted without `fit_inverse_transform`; wrong
    /// score width or non-finite scores.
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        let Some((zfit, dual)) = &self.inverse else {
            return Err(Error::invalid_param(
                "fit_inverse_transform",
                "the model was fitted without fit_inverse_transform(true): no pre-image map",
            ));
        };
        crate::common::check_scores(z, zfit.ncols(), "KernelPca::inverse_transform")?;
        let k = self.params.kernel.cross_gram(z, zfit)?;
        Ok(k.dot(dual))
    }
}

impl<F: Float> CheckModel for FittedKernelPca<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedKernelPca");
        c.params(&self.params)?;
        let (n, d) = self.x_fit.dim();
        c.at_least("x_fit (rows)", n, 2)?;
        c.at_least("x_fit (columns)", d, 1)?;
        c.finite("x_fit", &self.x_fit)?;
        crate::common::check_kernel(&c, &self.params.kernel, d)?;
        c.len("col_means", self.col_means.len(), n)?;
        c.finite("col_means", &self.col_means)?;
        c.finite_value("all_mean", self.all_mean)?;
        // no component at all is a valid fit (every eigenvalue zero, `n_components = None`)
        let k = self.eigenvalues.len();
        c.that(k <= n, || format!("{k} components of {n} training rows"))?;
        if let Some(want) = self.params.n_components
            && !self.params.remove_zero_eig
        {
            c.len("eigenvalues", k, want)?;
        }
        c.non_negative("eigenvalues", &self.eigenvalues)?;
        c.shape("eigenvectors", self.eigenvectors.dim(), (n, k))?;
        c.finite("eigenvectors", &self.eigenvectors)?;
        c.shape("scaled_alphas", self.scaled_alphas.dim(), (n, k))?;
        c.finite("scaled_alphas", &self.scaled_alphas)?;
        c.that(
            self.inverse.is_some() == self.params.fit_inverse_transform,
            || "the pre-image map must be stored exactly with `fit_inverse_transform`".into(),
        )?;
        if let Some((zfit, dual)) = &self.inverse {
            c.shape("inverse (training scores)", zfit.dim(), (n, k))?;
            c.finite("inverse (training scores)", zfit)?;
            c.shape("inverse (dual coefficients)", dual.dim(), (n, d))?;
            c.finite("inverse (dual coefficients)", dual)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::{array, s};

    #[test]
    fn check_model_accepts_a_fit_and_rejects_short_dual_coefficients() {
        let x = array![
            [1.0f64, 2.0],
            [2.0, 1.0],
            [4.0, 3.0],
            [0.0, 1.0],
            [3.0, 3.5]
        ];
        let mut m = KernelPca::new(2, Kernel::rbf_gamma(0.5))
            .fit_inverse_transform(true)
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        m.inverse = m
            .inverse
            .take()
            .map(|(z, dual)| (z, dual.slice(s![1.., ..]).to_owned()));
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
