//! Classical (Torgerson–Gower) MDS: [`ClassicalMds`] and the free functions (see the
//! [`mds`](super) module docs for the method).

use ndarray::{Array1, Array2, ArrayRef2, Axis, s};
use ndlearn_core::Estimator;
use ndlearn_core::distance::{Metric, pairwise_distances};
use ndlearn_core::kernel::Kernel;
use ndlearn_core::validate::{CheckModel, ModelCheck, check_fit_input, check_predict_input};
use ndlearn_core::{Error, FitUnsupervised, Float, Result, Transform, linalg};

use super::{SquareKind, check_k, check_non_negative, check_overflow, check_square, symmetrise};

// ---------------------------------------------------------------------------------------------
// Classical MDS: hyperparameters

/// What [`ClassicalMds`] reads from the matrix passed to `fit` and `transform` (see the
/// [module docs](super)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MdsInput {
    /// Data rows; dissimilarities are the metric's distances (default Euclidean, scikit-learn's
    /// `metric="euclidean"`).
    Data(Metric),
    /// Data rows; similarities from a (Mercer) kernel, double-centred (kernel MDS).
    Kernel(Kernel),
    /// A symmetric `n × n` matrix of non-negative dissimilarities with a zero diagonal
    /// (scikit-learn's `metric="precomputed"`).
    PrecomputedDistances,
    /// A symmetric `n × n` similarity (Gram) matrix.
    PrecomputedSimilarities,
}

impl Default for MdsInput {
    fn default() -> Self {
        Self::Data(Metric::Euclidean)
    }
}

impl MdsInput {
    fn validate(&self) -> Result<()> {
        match self {
            Self::Data(m) => m.validate(),
            Self::Kernel(k) => k.validate(),
            _ => Ok(()),
        }
    }
}

/// Classical (Torgerson–Gower) multidimensional scaling. See the [module docs](super).
///
/// | field | default | scikit-learn | valid |
/// |---|---|---|---|
/// | `n_components` | 2 | `n_components` | `1 ≤ k ≤ n − 1` |
/// | `input` | `Data(Euclidean)` | `metric` (`"precomputed"` = `PrecomputedDistances`) | any [`MdsInput`] |
///
/// # Errors
/// `fit`: [`Error::InvalidParam`] for `k` out of range, a bad metric or kernel, an asymmetric,
/// negative (distances) or non-zero-diagonal (distances) precomputed matrix, or an overflowing
/// `B`; [`Error::ShapeMismatch`] for a non-square precomputed matrix; [`Error::NonFinite`];
/// [`Error::TooFewSamples`] for fewer than 2 points.
///
/// ```
/// use ndlearn_decomposition::{ClassicalMds, MdsInput};
/// use ndlearn_core::ndarray::array;
/// use ndlearn_core::FitUnsupervised;
///
/// // a precomputed distance matrix of three points on a line
/// let d = array![[0.0f64, 1.0, 3.0], [1.0, 0.0, 2.0], [3.0, 2.0, 0.0]];
/// let m = ClassicalMds::new(1).input(MdsInput::PrecomputedDistances).fit(&d)?;
/// let z = m.embedding().column(0).to_owned();
/// assert!(((z[2] - z[0]).abs() - 3.0).abs() < 1e-12);
/// assert_eq!(m.n_clipped(), 0);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct ClassicalMds {
    /// Embedding dimension `k` (default 2).
    pub n_components: usize,
    /// How `fit`/`transform` read their matrix (default Euclidean distances of data rows).
    pub input: MdsInput,
}

impl Default for ClassicalMds {
    fn default() -> Self {
        Self {
            n_components: 2,
            input: MdsInput::default(),
        }
    }
}

impl ClassicalMds {
    /// Classical MDS into `k` dimensions of Euclidean data.
    pub fn new(k: usize) -> Self {
        Self {
            n_components: k,
            ..Self::default()
        }
    }
    ndlearn_core::setters! {
        /// Sets `n_components`.
        n_components: usize,
        /// Sets the input kind.
        input: MdsInput,
    }
}

impl ndlearn_core::Estimator for ClassicalMds {
    /// Checks the hyperparameters (`fit` calls it first).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for `n_components = 0` or a bad metric / kernel.
    fn validate(&self) -> Result<()> {
        if self.n_components == 0 {
            return Err(Error::invalid_param("n_components", "must be >= 1, got 0"));
        }
        self.input.validate()
    }
}

// ---------------------------------------------------------------------------------------------
// Classical MDS: fitted model

/// What a fitted classical MDS needs to place new points.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
enum OutOfSample<F: Float> {
    /// Euclidean data: `z = (x − μ) W`, `W = X̃ᵀ U Λ^{-1/2}` (`d × k`).
    Linear { mean: Array1<F>, w: Array2<F> },
    /// Data rows and a metric: similarities `−½ d²` to the stored training rows.
    Metric {
        metric: Metric,
        x: Array2<F>,
        centring: Centring<F>,
    },
    /// Data rows and a kernel.
    Kernel {
        kernel: Kernel,
        x: Array2<F>,
        centring: Centring<F>,
    },
    /// Rows of dissimilarities to the training points.
    Distances { centring: Centring<F> },
    /// Rows of similarities to the training points.
    Similarities { centring: Centring<F> },
}

/// Training column means of the similarity matrix, its grand mean, and the projection
/// `P = U Λ^{-1/2}` (`n × k`, zero columns for clipped eigenvalues).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Centring<F: Float> {
    col_mean: Array1<F>,
    grand_mean: F,
    proj: Array2<F>,
}

impl<F: Float> Centring<F> {
    /// Double-centres new rows of similarities (`m × n`) and projects them.
    fn project(&self, mut s: Array2<F>) -> Array2<F> {
        let n = F::cast(s.ncols().max(1) as f64);
        for mut row in s.rows_mut() {
            let rm = row.sum() / n;
            for (v, &cm) in row.iter_mut().zip(&self.col_mean) {
                *v = (*v + self.grand_mean) - (cm + rm);
            }
        }
        s.dot(&self.proj)
    }
}

/// A fitted [`ClassicalMds`]. For Euclidean data it stores the `d × k` projection only; for
/// another metric or a kernel it keeps a copy of the training rows (`n × d`) for `transform`.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedClassicalMds<F: Float> {
    params: ClassicalMds,
    n_input: usize,
    embedding: Array2<F>,
    eigenvalues: Array1<F>,
    n_clipped: usize,
    negative_ratio: F,
    oos: OutOfSample<F>,
}

impl<F: Float> ndlearn_core::NFeaturesIn for FittedClassicalMds<F> {
    fn n_features_in(&self) -> usize {
        self.n_input
    }
}

impl<F: Float> FittedClassicalMds<F> {
    /// The hyperparameters.
    pub fn params(&self) -> &ClassicalMds {
        &self.params
    }
    /// The embedding of the training points (`n × k`, rows are points).
    pub fn embedding(&self) -> &Array2<F> {
        &self.embedding
    }
    /// The `k` leading eigenvalues of `B`, descending, as computed (scikit-learn's
    /// `eigenvalues_`; a negative one means a clipped, all-zero column).
    pub fn eigenvalues(&self) -> &Array1<F> {
        &self.eigenvalues
    }
    /// Embedding dimension `k`.
    pub fn n_components(&self) -> usize {
        self.embedding.ncols()
    }
    /// How many of the `k` kept eigenvalues were not positive (`≤ n ε max|λ|`) and gave a zero
    /// column.
    pub fn n_clipped(&self) -> usize {
        self.n_clipped
    }
    /// `Σ|λ₋| / Σ|λ|` over the whole spectrum of `B`: 0 (to rounding) when the dissimilarities
    /// are Euclidean, larger the further they are from any Euclidean configuration.
    pub fn negative_eigenvalue_ratio(&self) -> F {
        self.negative_ratio
    }
    /// Columns `transform` expects: the feature count for data input, the number of training
    /// points for precomputed input.
    pub fn n_input_columns(&self) -> usize {
        self.n_input
    }
}

impl<F: Float> Transform<F> for FittedClassicalMds<F> {
    /// Out-of-sample positions by Gower's formula (see the [module docs](super)); `x` as the
    /// [`MdsInput`] says (data rows, or rows of dissimilarities / similarities to the training
    /// points).
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        check_predict_input(x, self.n_input, "ClassicalMds: number of input columns")?;
        match &self.oos {
            OutOfSample::Linear { mean, w } => {
                let mut z = x.dot(w);
                z -= &mean.dot(w);
                Ok(z)
            }
            OutOfSample::Metric {
                metric,
                x: train,
                centring,
            } => {
                let d = pairwise_distances(x, train, metric)?;
                let s = d.mapv(|v| F::cast(-0.5) * v * v);
                check_overflow(&s, "x")?;
                Ok(centring.project(s))
            }
            OutOfSample::Kernel {
                kernel,
                x: train,
                centring,
            } => Ok(centring.project(kernel.cross_gram(x, train)?)),
            OutOfSample::Distances { centring } => {
                check_non_negative(x, "x")?;
                let s = x.mapv(|v| F::cast(-0.5) * v * v);
                check_overflow(&s, "x")?;
                Ok(centring.project(s))
            }
            OutOfSample::Similarities { centring } => Ok(centring.project(x.to_owned())),
        }
    }
}

impl<F: Float> Centring<F> {
    /// `n` column means and an `n × k` projection, finite.
    fn check(&self, c: &ModelCheck, n: usize, k: usize) -> Result<()> {
        c.len("col_mean", self.col_mean.len(), n)?;
        c.finite("col_mean", &self.col_mean)?;
        c.finite_value("grand_mean", self.grand_mean)?;
        c.shape("proj", self.proj.dim(), (n, k))?;
        c.finite("proj", &self.proj)
    }
}

impl<F: Float> CheckModel for FittedClassicalMds<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedClassicalMds");
        c.params(&self.params)?;
        let (n, k) = self.embedding.dim();
        c.len("embedding (columns)", k, self.params.n_components)?;
        c.that(k < n, || format!("{k} components of {n} training points"))?;
        c.finite("embedding", &self.embedding)?;
        c.len("eigenvalues", self.eigenvalues.len(), k)?;
        c.finite("eigenvalues", &self.eigenvalues)?;
        c.that(self.n_clipped <= k, || {
            "`n_clipped` exceeds the components".into()
        })?;
        let r = self.negative_ratio;
        c.that(r >= F::zero() && r <= F::one(), || {
            "`negative_ratio` must lie in [0, 1]".into()
        })?;
        let d = self.n_input;
        c.at_least("n_input", d, 1)?;
        let train = |x: &Array2<F>| {
            c.shape("x", x.dim(), (n, d))?;
            c.finite("x", x)
        };
        match (&self.params.input, &self.oos) {
            (MdsInput::Data(Metric::Euclidean), OutOfSample::Linear { mean, w }) => {
                c.len("mean", mean.len(), d)?;
                c.finite("mean", mean)?;
                c.shape("w", w.dim(), (d, k))?;
                c.finite("w", w)
            }
            (
                MdsInput::Data(p),
                OutOfSample::Metric {
                    metric,
                    x,
                    centring,
                },
            ) if p == metric => {
                crate::common::check_metric(&c, metric, d)?;
                train(x)?;
                centring.check(&c, n, k)
            }
            (
                MdsInput::Kernel(p),
                OutOfSample::Kernel {
                    kernel,
                    x,
                    centring,
                },
            ) if p == kernel => {
                crate::common::check_kernel(&c, kernel, d)?;
                train(x)?;
                centring.check(&c, n, k)
            }
            (MdsInput::PrecomputedDistances, OutOfSample::Distances { centring })
            | (MdsInput::PrecomputedSimilarities, OutOfSample::Similarities { centring }) => {
                c.len("n_input (training points)", d, n)?;
                centring.check(&c, n, k)
            }
            _ => Err(c.error("the out-of-sample map does not match `input`")),
        }
    }
}

impl<F: Float> FitUnsupervised<F> for ClassicalMds {
    type Model = FittedClassicalMds<F>;

    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.validate()?;
        let k = self.n_components;
        let (b, n_input, oos): (Array2<F>, usize, OutOfSampleBuilder<F>) = match &self.input {
            MdsInput::Data(Metric::Euclidean) => {
                check_fit_input(x, 2, "ClassicalMds::fit")?;
                check_k(k, x.nrows())?;
                let mean = x
                    .mean_axis(Axis(0))
                    .ok_or_else(|| Error::invalid_param("x", "no rows"))?;
                let mut xc = x.to_owned();
                xc -= &mean;
                let g = xc.dot(&xc.t());
                let b = symmetrise(g);
                (b, x.ncols(), OutOfSampleBuilder::Linear { mean, xc })
            }
            MdsInput::Data(metric) => {
                check_fit_input(x, 2, "ClassicalMds::fit")?;
                check_k(k, x.nrows())?;
                let d = pairwise_distances(x, x, metric)?;
                let s = symmetrise(d.mapv(|v| F::cast(-0.5) * v * v));
                let (b, col_mean, grand) = double_centre(&s);
                let oos = OutOfSampleBuilder::Metric {
                    metric: metric.clone(),
                    x: x.to_owned(),
                    col_mean,
                    grand,
                };
                (b, x.ncols(), oos)
            }
            MdsInput::Kernel(kernel) => {
                check_fit_input(x, 2, "ClassicalMds::fit")?;
                check_k(k, x.nrows())?;
                let s = kernel.gram(x)?;
                let (b, col_mean, grand) = double_centre(&s);
                let oos = OutOfSampleBuilder::Kernel {
                    kernel: kernel.clone(),
                    x: x.to_owned(),
                    col_mean,
                    grand,
                };
                (b, x.ncols(), oos)
            }
            MdsInput::PrecomputedDistances => {
                let d = check_square(x, SquareKind::Distances, "ClassicalMds::fit")?;
                check_k(k, d.nrows())?;
                let s = d.mapv(|v| F::cast(-0.5) * v * v);
                let (b, col_mean, grand) = double_centre(&s);
                let n = d.nrows();
                (b, n, OutOfSampleBuilder::Distances { col_mean, grand })
            }
            MdsInput::PrecomputedSimilarities => {
                let s = check_square(x, SquareKind::Similarities, "ClassicalMds::fit")?;
                check_k(k, s.nrows())?;
                let (b, col_mean, grand) = double_centre(&s);
                let n = s.nrows();
                (b, n, OutOfSampleBuilder::Similarities { col_mean, grand })
            }
        };
        let core = classical_core(&b, k)?;
        let oos = oos.build(core.proj.clone());
        Ok(FittedClassicalMds {
            params: self.clone(),
            n_input,
            embedding: core.embedding,
            eigenvalues: core.eigenvalues,
            n_clipped: core.n_clipped,
            negative_ratio: core.negative_ratio,
            oos,
        })
    }
}

/// The pieces of [`OutOfSample`] known before the eigendecomposition.
enum OutOfSampleBuilder<F: Float> {
    Linear {
        mean: Array1<F>,
        xc: Array2<F>,
    },
    Metric {
        metric: Metric,
        x: Array2<F>,
        col_mean: Array1<F>,
        grand: F,
    },
    Kernel {
        kernel: Kernel,
        x: Array2<F>,
        col_mean: Array1<F>,
        grand: F,
    },
    Distances {
        col_mean: Array1<F>,
        grand: F,
    },
    Similarities {
        col_mean: Array1<F>,
        grand: F,
    },
}

impl<F: Float> OutOfSampleBuilder<F> {
    fn build(self, proj: Array2<F>) -> OutOfSample<F> {
        let centring = |col_mean, grand_mean, proj| Centring {
            col_mean,
            grand_mean,
            proj,
        };
        match self {
            Self::Linear { mean, xc } => OutOfSample::Linear {
                mean,
                w: xc.t().dot(&proj).as_standard_layout().into_owned(),
            },
            Self::Metric {
                metric,
                x,
                col_mean,
                grand,
            } => OutOfSample::Metric {
                metric,
                x,
                centring: centring(col_mean, grand, proj),
            },
            Self::Kernel {
                kernel,
                x,
                col_mean,
                grand,
            } => OutOfSample::Kernel {
                kernel,
                x,
                centring: centring(col_mean, grand, proj),
            },
            Self::Distances { col_mean, grand } => OutOfSample::Distances {
                centring: centring(col_mean, grand, proj),
            },
            Self::Similarities { col_mean, grand } => OutOfSample::Similarities {
                centring: centring(col_mean, grand, proj),
            },
        }
    }
}

/// Classical MDS of a precomputed dissimilarity matrix `d` (symmetric, non-negative, zero
/// diagonal): the `n × k` embedding (`ClassicalMds::new(k)` with
/// [`MdsInput::PrecomputedDistances`]).
///
/// # Errors
/// As [`ClassicalMds`]'s `fit`.
pub fn classical_mds_from_distances<F: Float>(d: &ArrayRef2<F>, k: usize) -> Result<Array2<F>> {
    let m: FittedClassicalMds<F> = ClassicalMds::new(k)
        .input(MdsInput::PrecomputedDistances)
        .fit(d)?;
    Ok(m.embedding)
}

/// Classical MDS of a symmetric similarity (Gram / Mercer kernel) matrix `s`: double-centred,
/// then embedded (the course notes' "use a Mercer similarity matrix as `M`"); `n × k`.
///
/// # Errors
/// As [`ClassicalMds`]'s `fit`.
pub fn classical_mds_from_similarities<F: Float>(s: &ArrayRef2<F>, k: usize) -> Result<Array2<F>> {
    let m: FittedClassicalMds<F> = ClassicalMds::new(k)
        .input(MdsInput::PrecomputedSimilarities)
        .fit(s)?;
    Ok(m.embedding)
}

// ---------------------------------------------------------------------------------------------
// Eigen-part

/// The eigen-part of classical MDS.
pub(super) struct ClassicalCore<F> {
    pub(super) embedding: Array2<F>,
    eigenvalues: Array1<F>,
    proj: Array2<F>,
    n_clipped: usize,
    negative_ratio: F,
}

/// Top-`k` eigenpairs of the double-centred `b`: embedding `U Λ^{1/2}` and projection
/// `U Λ^{-1/2}` (zero columns for non-positive eigenvalues), column signs by `svd_flip`.
pub(super) fn classical_core<F: Float>(b: &Array2<F>, k: usize) -> Result<ClassicalCore<F>> {
    check_overflow(b, "x")?;
    let n = b.nrows();
    let (w, v) = linalg::eigh_descending(b)?;
    let max_abs = w.iter().fold(F::zero(), |m, &l| m.max(l.abs()));
    let tol = F::epsilon() * F::cast(n as f64) * max_abs;
    let total: F = w.iter().map(|l| l.abs()).sum();
    let negative: F = w.iter().filter(|&&l| l < F::zero()).map(|l| l.abs()).sum();
    let negative_ratio = if total > F::zero() {
        negative / total
    } else {
        F::zero()
    };
    let mut embedding = Array2::<F>::zeros((n, k));
    let mut proj = Array2::<F>::zeros((n, k));
    let mut n_clipped = 0;
    for j in 0..k {
        let l = w[j];
        if l <= tol {
            n_clipped += 1;
            continue;
        }
        let col = v.column(j);
        // svd_flip: the entry of largest magnitude (the first on ties) positive
        let lead = col
            .iter()
            .fold(F::zero(), |b, &x| if x.abs() > b.abs() { x } else { b });
        let sign = if lead < F::zero() {
            -F::one()
        } else {
            F::one()
        };
        let root = l.sqrt();
        for i in 0..n {
            embedding[[i, j]] = sign * col[i] * root;
            proj[[i, j]] = sign * col[i] / root;
        }
    }
    Ok(ClassicalCore {
        embedding,
        eigenvalues: w.slice(s![..k]).to_owned(),
        proj,
        n_clipped,
        negative_ratio,
    })
}

/// `B = J S J` for a symmetric `S`, exactly symmetric, with the column means of `S` and its
/// grand mean.
pub(super) fn double_centre<F: Float>(s: &Array2<F>) -> (Array2<F>, Array1<F>, F) {
    let n = s.nrows();
    let nf = F::cast(n.max(1) as f64);
    let col_mean: Array1<F> = s.sum_axis(Axis(0)) / nf;
    let grand = col_mean.sum() / nf;
    // (s_ij + g) − (m_i + m_j): both operations commute, so b_ij == b_ji bit for bit
    let b = Array2::from_shape_fn((n, n), |(i, j)| {
        (s[[i, j]] + grand) - (col_mean[i] + col_mean[j])
    });
    (b, col_mean, grand)
}

#[cfg(test)]
mod check_tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn check_model_accepts_fits_and_rejects_a_short_projection() {
        let x = array![
            [0.0f64, 1.0],
            [1.0, 0.0],
            [2.0, 2.0],
            [3.0, 1.0],
            [0.5, 2.5]
        ];
        let m: FittedClassicalMds<f64> = ClassicalMds::new(2).fit(&x).expect("fit");
        assert!(m.check_model().is_ok());
        let mut m: FittedClassicalMds<f64> = ClassicalMds::new(2)
            .input(MdsInput::Data(Metric::Manhattan))
            .fit(&x)
            .expect("fit");
        assert!(m.check_model().is_ok());
        if let OutOfSample::Metric { centring, .. } = &mut m.oos {
            centring.proj = centring.proj.slice(s![1.., ..]).to_owned();
        }
        assert!(matches!(m.check_model(), Err(Error::InvalidModel { .. })));
    }
}
