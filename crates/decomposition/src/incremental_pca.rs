//! Incremental PCA ([`IncrementalPca`], scikit-learn's `IncrementalPCA`): principal components
//! from a stream of batches in memory bounded by the batch, not the data (catalog CL-157's
//! streaming form; Ross et al., *Incremental learning for robust visual tracking*, 2008).
//!
//! # Method
//!
//! The model keeps `k` components `V` (`k × d`), their singular values `σ`, the running mean
//! `μ` and per-column variance of the `N` rows seen. A batch `B` of `b` rows with mean `μ_B`
//! updates them by one thin SVD of the `(k + b + 1) × d` matrix
//!
//! ```text
//! [ diag(σ) V ;  B − 1μ_Bᵀ ;  √(N b / (N + b)) (μ − μ_B)ᵀ ]
//! ```
//!
//! whose top right singular vectors are the new components: the first block stands in for the
//! data seen so far, the last row corrects for the shift of the mean. The running mean and
//! variance follow Chan, Golub & LeVeque's pairwise update. When the batches are the whole data
//! in one piece this is exactly PCA; with several batches and `k` below the rank it is the
//! standard approximation (scikit-learn's), exact again when `k = min(b, d)` at every step.
//! Signs follow `svd_flip` on `Vᵀ`. `transform`, `inverse_transform` and whitening are as in
//! [`crate::Pca`].
//!
//! [`FitUnsupervised::fit`] streams `x` in batches of `batch_size` rows (default `5 d`; the last
//! batch absorbs a remainder smaller than `k`, as scikit-learn's `gen_batches`);
//! [`PartialFit::partial_fit`] takes one batch at a time.
//!
//! ```
//! use ndlearn_decomposition::{IncrementalPca, Pca};
//! use ndlearn_core::ndarray::{Array2, s};
//! use ndlearn_core::{FitUnsupervised, PartialFit, Transform};
//!
//! let x = Array2::from_shape_fn((60, 4), |(i, j)| ((i * 7 + j * 3) % 11) as f64 + (i * j) as f64 * 0.1);
//! // three batches of 20 rows, all four components kept: the same as PCA on all 60 rows
//! let ipca = IncrementalPca::new(4);
//! let mut model = None;
//! for b in 0..3 {
//!     model = Some(ipca.partial_fit(model, &x.slice(s![b * 20..(b + 1) * 20, ..]), &())?);
//! }
//! let model = model.unwrap();
//! let pca = Pca::new(4).fit(&x)?;
//! let diff = (&model.transform(&x)? - &pca.transform(&x)?).mapv(f64::abs);
//! assert!(diff.iter().all(|&v| v < 1e-9));
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef2, Axis, concatenate, s};
use ndlearn_core::Estimator;
use ndlearn_core::linalg;
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{
    Error, FitUnsupervised, Float, InverseTransform, PartialFit, Result, Transform,
};

/// Incremental PCA. See the [module docs](self).
#[derive(Debug, Clone, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct IncrementalPca {
    /// Components kept (`None`: `min(d, rows of the first batch)`; default).
    pub n_components: Option<usize>,
    /// Divide the scores by `√λ_i` (default false).
    pub whiten: bool,
    /// Rows per batch in [`FitUnsupervised::fit`] (`None`: `5 d`; default).
    pub batch_size: Option<usize>,
}

impl IncrementalPca {
    /// Incremental PCA keeping `k` components.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: Some(k),
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `whiten`.
        whiten: bool,
    }
    /// Sets the batch size of `fit`.
    pub fn batch_size(mut self, b: usize) -> Self {
        self.batch_size = Some(b);
        self
    }
}

impl ndlearn_core::Estimator for IncrementalPca {
    /// Checks the hyperparameters that do not depend on the data (`fit` and `partial_fit` call
    /// it first).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `n_components = Some(0)` or `batch_size = Some(0)`.
    fn validate(&self) -> Result<()> {
        if self.n_components == Some(0) {
            return Err(Error::invalid_param("n_components", "must be at least 1"));
        }
        if self.batch_size == Some(0) {
            return Err(Error::invalid_param("batch_size", "must be at least 1"));
        }
        Ok(())
    }
}

/// A fitted [`IncrementalPca`]: the streaming state and the current components.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedIncrementalPca<F: Float> {
    params: IncrementalPca,
    n_samples_seen: usize,
    mean: Array1<F>,
    var: Array1<F>,
    components: Array2<F>,
    singular_values: Array1<F>,
    explained_variance: Array1<F>,
    explained_variance_ratio: Array1<F>,
    noise_variance: F,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedIncrementalPca<F> {
    fn n_features_in(&self) -> usize {
        self.mean.len()
    }
}

impl<F: Float> FittedIncrementalPca<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &IncrementalPca {
        &self.params
    }
    /// Rows seen so far.
    pub fn n_samples_seen(&self) -> usize {
        self.n_samples_seen
    }
    /// Running column means.
    pub fn mean(&self) -> &Array1<F> {
        &self.mean
    }
    /// Running column variances (divisor `N`).
    pub fn var(&self) -> &Array1<F> {
        &self.var
    }
    /// The components, one per row (`k × d`).
    pub fn components(&self) -> &Array2<F> {
        &self.components
    }
    /// Singular values of the (implicitly) centred data seen.
    pub fn singular_values(&self) -> &Array1<F> {
        &self.singular_values
    }
    /// Variance along each component (`σ² / (N − 1)`).
    pub fn explained_variance(&self) -> &Array1<F> {
        &self.explained_variance
    }
    /// Fraction of the total variance along each component.
    pub fn explained_variance_ratio(&self) -> &Array1<F> {
        &self.explained_variance_ratio
    }
    /// Mean variance of the directions the last update discarded (scikit-learn's definition).
    pub fn noise_variance(&self) -> F {
        self.noise_variance
    }
    /// Components kept.
    pub fn n_components(&self) -> usize {
        self.components.nrows()
    }
}

impl<F: Float> PartialFit<F> for IncrementalPca {
    type Target = ();
    type Model = FittedIncrementalPca<F>;

    /// One incremental update with the batch `x` (the first call starts the model).
    ///
    /// # Errors
    /// Non-finite or empty input; a first batch with fewer rows than components; a component
    /// count above the feature count; a feature count that changed between batches.
    fn partial_fit(
        &self,
        model: Option<Self::Model>,
        x: &ArrayRef2<F>,
        _y: &(),
    ) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 1, "IncrementalPca::partial_fit")?;
        let (b, d) = x.dim();
        if let Some(m) = &model
            && m.mean.len() != d
        {
            check_predict_input(x, m.mean.len(), "IncrementalPca: number of features")?;
        }
        let k = match (self.n_components, &model) {
            (Some(k), _) => {
                if k == 0 || k > d {
                    return Err(Error::invalid_param(
                        "n_components",
                        format!("must be in 1..={d} (the number of features), got {k}"),
                    ));
                }
                if model.is_none() && k > b {
                    return Err(Error::invalid_param(
                        "n_components",
                        format!("{k} components need a first batch of at least {k} rows, got {b}"),
                    ));
                }
                k
            }
            (None, Some(m)) => m.components.nrows(),
            (None, None) => b.min(d),
        };
        if let Some(m) = &model
            && m.components.nrows() != k
        {
            return Err(Error::invalid_param(
                "n_components",
                format!(
                    "the model has {} components, the estimator asks for {k}",
                    m.components.nrows()
                ),
            ));
        }
        let bf = F::cast(b as f64);
        let batch_mean = x.sum_axis(Axis(0)) / bf;
        let mut xc = x.to_owned();
        xc -= &batch_mean;
        let batch_ss = xc.map_axis(Axis(0), |c| c.iter().map(|&v| v * v).sum::<F>());
        let (n_total, mean, var, stacked) = match &model {
            None => (b, batch_mean, batch_ss / bf, xc),
            Some(m) => {
                let n0 = m.n_samples_seen;
                let n_total = n0 + b;
                let (n0f, ntf) = (F::cast(n0 as f64), F::cast(n_total as f64));
                let delta = &m.mean - &batch_mean;
                // Chan–Golub–LeVeque: combined sum of squares and mean
                let ss = &m.var * n0f + &batch_ss + &delta.mapv(|v| v * v) * (n0f * bf / ntf);
                let mean = (&m.mean * n0f + &batch_mean * bf) / ntf;
                let corr = delta * (n0f / ntf * bf).sqrt();
                let mut prev = m.components.clone();
                for (mut row, &s) in prev.rows_mut().into_iter().zip(&m.singular_values) {
                    row *= s;
                }
                let stacked = concatenate(
                    Axis(0),
                    &[prev.view(), xc.view(), corr.view().insert_axis(Axis(0))],
                )
                .map_err(|e| Error::invalid_param("x", e.to_string()))?;
                (n_total, mean, ss / ntf, stacked)
            }
        };
        let svd = linalg::svd_thin(&stacked)?;
        let vt = crate::common::flip_rows(svd.vt);
        let s = svd.s;
        let ntf = F::cast(n_total as f64);
        let nm1 = F::cast(n_total.saturating_sub(1).max(1) as f64);
        let ev = s.mapv(|v| v * v / nm1);
        let total = var.sum() * ntf;
        let k = k.min(s.len());
        let noise = if k != b && k != d && s.len() > k {
            ev.slice(s![k..]).mean().unwrap_or(F::zero())
        } else {
            F::zero()
        };
        Ok(FittedIncrementalPca {
            params: self.clone(),
            n_samples_seen: n_total,
            mean,
            var,
            components: vt.slice(s![..k, ..]).to_owned(),
            singular_values: s.slice(s![..k]).to_owned(),
            explained_variance_ratio: s.slice(s![..k]).mapv(|v| v * v / total),
            explained_variance: ev.slice(s![..k]).to_owned(),
            noise_variance: noise,
        })
    }
}

impl<F: Float> FitUnsupervised<F> for IncrementalPca {
    type Model = FittedIncrementalPca<F>;

    /// Streams `x` through [`PartialFit::partial_fit`] in batches (see the [module docs](self)).
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        check_fit_input(x, 2, "IncrementalPca::fit")?;
        let (n, d) = x.dim();
        let bs = self.batch_size.unwrap_or(5 * d);
        if bs == 0 {
            return Err(Error::invalid_param("batch_size", "must be at least 1"));
        }
        let min_batch = self.n_components.unwrap_or(0);
        // scikit-learn's gen_batches(n, bs, min_batch_size = k)
        let mut bounds = Vec::new();
        let mut start = 0;
        for _ in 0..n / bs {
            let end = start + bs;
            if end + min_batch > n {
                continue;
            }
            bounds.push((start, end));
            start = end;
        }
        if start < n {
            bounds.push((start, n));
        }
        let mut model = None;
        for (a, b) in bounds {
            model = Some(self.partial_fit(model, &x.slice(s![a..b, ..]), &())?);
        }
        model.ok_or_else(|| Error::invalid_param("x", "no rows"))
    }
}

impl<F: Float> Transform<F> for FittedIncrementalPca<F> {
    /// Scores `(x − μ) Vᵀ` (divided by `√λ` with `whiten`), `n × k`.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.mean.len(), "IncrementalPca: number of features")?;
        let mut z = x.dot(&self.components.t());
        z -= &self.mean.dot(&self.components.t());
        if self.params.whiten {
            let sd = self.explained_variance.mapv(|v| v.sqrt());
            z /= &sd;
        }
        Ok(z)
    }
}

impl<F: Float> InverseTransform<F> for FittedIncrementalPca<F> {
    /// Back to the input space: `z V (· √λ with whiten) + μ`.
    fn inverse_transform(&self, z: &ArrayRef2<F>) -> Result<Array2<F>> {
        crate::common::check_scores(
            z,
            self.components.nrows(),
            "IncrementalPca::inverse_transform",
        )?;
        let mut zz = z.to_owned();
        if self.params.whiten {
            zz *= &self.explained_variance.mapv(|v| v.sqrt());
        }
        let mut x = zz.dot(&self.components);
        x += &self.mean;
        Ok(x)
    }
}

impl<F: Float> CheckModel for FittedIncrementalPca<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedIncrementalPca");
        c.params(&self.params)?;
        let d = self.mean.len();
        crate::common::check_components(&c, &self.components, d)?;
        let k = self.components.nrows();
        c.that(k <= d, || format!("{k} components of {d} features"))?;
        if let Some(want) = self.params.n_components {
            c.len("components (rows)", k, want)?;
        }
        // at most isize::MAX, so adding a batch (an array's row count) cannot overflow
        let n = self.n_samples_seen;
        c.that(n >= k && n <= isize::MAX as usize, || {
            format!("`n_samples_seen` is {n}, must lie in {k}..=isize::MAX")
        })?;
        c.finite("mean", &self.mean)?;
        c.len("var", self.var.len(), d)?;
        c.non_negative("var", &self.var)?;
        c.len("singular_values", self.singular_values.len(), k)?;
        c.non_negative("singular_values", &self.singular_values)?;
        c.len("explained_variance", self.explained_variance.len(), k)?;
        c.non_negative("explained_variance", &self.explained_variance)?;
        c.len(
            "explained_variance_ratio",
            self.explained_variance_ratio.len(),
            k,
        )?;
        crate::common::non_negative_value(&c, "noise_variance", self.noise_variance)
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_a_fit_and_rejects_a_short_var() {
        let x = array![
            [1.0f64, 2.0, 0.5],
            [2.0, 1.0, 1.5],
            [4.0, 3.0, 0.0],
            [0.0, 1.0, 2.0]
        ];
        let mut m = IncrementalPca::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        m.var = array![1.0];
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
