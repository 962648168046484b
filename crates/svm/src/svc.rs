//! Support vector classification: [`Svc`] (C-SVM) and [`NuSvc`] (ν-SVM), binary and
//! one-vs-one multi-class, solved by SMO (see the [crate docs](crate#design)).
//!
//! # The problem
//!
//! For classes `a < b` with labels `yᵢ = +1` (class `a`) and `−1` (class `b`), the C-SVM dual is
//!
//! ```text
//! min_α ½ Σᵢⱼ αᵢαⱼ yᵢyⱼ k(xᵢ, xⱼ) − Σᵢ αᵢ   s.t.  Σᵢ yᵢαᵢ = 0,  0 ≤ αᵢ ≤ Cᵢ,
//! ```
//!
//! with `Cᵢ = C · class_weight[yᵢ] · sample_weight[i]` (the course notes' CL-098/CL-099). Errata E3:
//! the primal `½‖w‖² + C Σ ξᵢ` is the course notes' `(λ/2)‖w‖² + (1/N) Σ ξᵢ` with `C = 1/(Nλ)`
//! ([`c_from_lambda`](crate::c_from_lambda), [`lambda_from_c`](crate::lambda_from_c)). The decision is `f(x) = Σᵢ αᵢyᵢ k(xᵢ, x) − ρ` with `ρ` the mean of
//! `yᵢ∇ᵢ` over the free support vectors (`0 < αᵢ < Cᵢ`), or the midpoint of the KKT interval
//! when none is free. The ν-SVM replaces `C` by `ν ∈ (0, 1]`, a lower bound on the fraction of
//! support vectors and an upper bound on the fraction of margin errors (Schölkopf et al. 2000).
//!
//! With `K > 2` classes, one problem per pair (`K(K − 1)/2`, solved in parallel, each from the
//! rows of its two classes), and libsvm's vote: the pair `(a, b)` votes `a` when its decision is
//! positive; the class with most votes wins, ties to the lower class.
//!
//! # Output conventions (scikit-learn's)
//!
//! - [`DecisionFunction`]: `n × 1` for two classes (positive = class 1), else `n × K` in the
//!   one-vs-rest shape (`decision_function_shape = "ovr"`): votes plus the summed pair
//!   decisions squashed into `(−⅓, ⅓)`. [`FittedSvc::decision_function_ovo`] gives libsvm's
//!   `n × K(K−1)/2` columns (pairs `(0,1), (0,2), …, (1,2), …`; positive = the first class).
//! - `support_` (sorted by class, then row), `support_vectors_`, `n_support_`, `dual_coef_`
//!   (`(K − 1) × n_SV`, libsvm's layout: for the pair `(a, b)` the coefficients `αᵢyᵢ` of class
//!   `a`'s vectors are in row `b − 1`, class `b`'s in row `a`), `intercept_` (`−ρ` per pair; for
//!   two classes both signs flipped so that positive means class 1, as scikit-learn does).
//!
//! # Example
//!
//! ```
//! use ndlearn_core::{Fit, Predict};
//! use ndlearn_svm::Svc;
//!
//! let data = ndlearn_datasets::iris();
//! let y = data.y_classes().expect("labels");
//! let model = Svc::default().fit(data.x(), y)?; // RBF, C = 1, gamma = "scale"
//! let pred = model.predict(data.x())?;
//! let acc = pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / 150.0;
//! assert!(acc > 0.95);
//! assert_eq!(model.n_support().iter().sum::<usize>(), model.support().len());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! C.-C. Chang, C.-J. Lin, "LIBSVM: a library for support vector machines", ACM TIST 2, 2011;
//! R.-E. Fan, P.-H. Chen, C.-J. Lin, "Working set selection using second order information for
//! training SVM", JMLR 6, 2005; B. Schölkopf et al., "New support vector algorithms", Neural
//! Computation 12, 2000; T.-F. Wu, C.-J. Lin, R. Weng, "Probability estimates for multi-class
//! classification by pairwise coupling", JMLR 5, 2004.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis};
use ndlearn_core::calibration::PlattScaling;
use ndlearn_core::class_weight::ClassWeight;
use ndlearn_core::kernel::Kernel;
use ndlearn_core::traits::{
    DecisionFunction, Estimator, FeatureImportances, Fit, FitWeighted, NFeaturesIn, Predict,
    PredictProba,
};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, numeric, par, random, validate};

use crate::machine::{TrainData, check_expansion, cross_kernel, sample_bounds};
use crate::params::{Gamma, KernelSpec, SvmKernel};
use crate::solver::{Form, Problem, Settings};

/// The shape of [`DecisionFunction`] for `K > 2` classes (scikit-learn's
/// `decision_function_shape`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum DecisionShape {
    /// One column per class (default).
    #[default]
    Ovr,
    /// libsvm's one column per pair; the trait still returns the one-vs-rest shape (its
    /// contract), [`FittedSvc::decision_function_ovo`] gives these columns.
    Ovo,
}

/// C-support vector classification (scikit-learn's `SVC`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct Svc {
    /// The penalty `C > 0` (default 1).
    #[cfg_attr(feature = "serde", serde(rename = "C", alias = "c"))]
    pub c: f64,
    /// The kernel (default RBF).
    pub kernel: SvmKernel,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `γ` of the RBF, polynomial and sigmoid kernels (default `"scale"`).
    pub gamma: Gamma,
    /// `coef0` of the polynomial and sigmoid kernels (default 0).
    pub coef0: f64,
    /// Shrinking heuristic (default `true`).
    pub shrinking: bool,
    /// Fit Platt probabilities by internal 5-fold CV (default `false`).
    pub probability: bool,
    /// Stopping tolerance on the maximal KKT violation (default `1e-3`).
    pub tol: f64,
    /// Kernel cache in MB per pair problem (default 200).
    pub cache_size: f64,
    /// Class weights multiplying `C` (default uniform).
    pub class_weight: ClassWeight,
    /// Iteration cap per problem (`None`, scikit-learn's `-1`: libsvm's `max(10⁷, 100 n)`).
    pub max_iter: Option<usize>,
    /// Shape of the decision function for `K > 2` (default one-vs-rest).
    pub decision_function_shape: DecisionShape,
    /// Predict by the argmax of the one-vs-rest decision instead of the vote (default `false`).
    pub break_ties: bool,
    /// Seed of the probability folds (default 0).
    pub random_state: u64,
}

impl Default for Svc {
    fn default() -> Self {
        Self {
            c: 1.0,
            kernel: SvmKernel::Rbf,
            degree: 3,
            gamma: Gamma::Scale,
            coef0: 0.0,
            shrinking: true,
            probability: false,
            tol: 1e-3,
            cache_size: 200.0,
            class_weight: ClassWeight::Uniform,
            max_iter: None,
            decision_function_shape: DecisionShape::Ovr,
            break_ties: false,
            random_state: 0,
        }
    }
}

impl Svc {
    ndlearn_core::setters! {
        /// Sets `C`.
        c: f64,
        kernel: SvmKernel,
        degree: u32,
        gamma: Gamma,
        coef0: f64,
        shrinking: bool,
        probability: bool,
        tol: f64,
        cache_size: f64,
        class_weight: ClassWeight,
        max_iter: Option<usize>,
        decision_function_shape: DecisionShape,
        break_ties: bool,
        random_state: u64,
    }

    fn spec(&self) -> KernelSpec<'_> {
        KernelSpec {
            kernel: &self.kernel,
            gamma: self.gamma,
            degree: self.degree,
            coef0: self.coef0,
        }
    }
}

fn validate_common(
    spec: &KernelSpec<'_>,
    tol: f64,
    cache: f64,
    max_iter: Option<usize>,
) -> Result<()> {
    spec.validate()?;
    validate::check_positive("tol", tol)?;
    validate::check_positive("cache_size", cache)?;
    if max_iter == Some(0) {
        return Err(Error::invalid_param("max_iter", "must be >= 1 (or none)"));
    }
    Ok(())
}

impl Estimator for Svc {
    /// Checks `C > 0`, `tol > 0`, `cache_size > 0`, the kernel settings and class weights.
    fn validate(&self) -> Result<()> {
        validate::check_positive("C", self.c)?;
        validate_common(&self.spec(), self.tol, self.cache_size, self.max_iter)?;
        self.class_weight.validate_not_subsample()?;
        if self.break_ties && self.decision_function_shape == DecisionShape::Ovo {
            return Err(Error::invalid_param(
                "break_ties",
                "needs decision_function_shape = ovr",
            ));
        }
        Ok(())
    }
}

/// ν-support vector classification (scikit-learn's `NuSVC`; see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct NuSvc {
    /// `ν ∈ (0, 1]`: upper bound on the fraction of margin errors, lower bound on the fraction
    /// of support vectors (default 0.5).
    pub nu: f64,
    /// The kernel (default RBF).
    pub kernel: SvmKernel,
    /// Degree of the polynomial kernel (default 3).
    pub degree: u32,
    /// `γ` (default `"scale"`).
    pub gamma: Gamma,
    /// `coef0` (default 0).
    pub coef0: f64,
    /// Shrinking heuristic (default `true`).
    pub shrinking: bool,
    /// Fit Platt probabilities by internal 5-fold CV (default `false`).
    pub probability: bool,
    /// Stopping tolerance (default `1e-3`).
    pub tol: f64,
    /// Kernel cache in MB per pair problem (default 200).
    pub cache_size: f64,
    /// Class weights (default uniform): they scale each class's bounds, as scikit-learn's
    /// libsvm does for ν-SVC.
    pub class_weight: ClassWeight,
    /// Iteration cap per problem (default none).
    pub max_iter: Option<usize>,
    /// Shape of the decision function for `K > 2` (default one-vs-rest).
    pub decision_function_shape: DecisionShape,
    /// Predict by the argmax of the one-vs-rest decision (default `false`).
    pub break_ties: bool,
    /// Seed of the probability folds (default 0).
    pub random_state: u64,
}

impl Default for NuSvc {
    fn default() -> Self {
        let s = Svc::default();
        Self {
            nu: 0.5,
            kernel: s.kernel,
            degree: s.degree,
            gamma: s.gamma,
            coef0: s.coef0,
            shrinking: s.shrinking,
            probability: s.probability,
            tol: s.tol,
            cache_size: s.cache_size,
            class_weight: s.class_weight,
            max_iter: s.max_iter,
            decision_function_shape: s.decision_function_shape,
            break_ties: s.break_ties,
            random_state: s.random_state,
        }
    }
}

impl NuSvc {
    ndlearn_core::setters! {
        nu: f64,
        kernel: SvmKernel,
        degree: u32,
        gamma: Gamma,
        coef0: f64,
        shrinking: bool,
        probability: bool,
        tol: f64,
        cache_size: f64,
        class_weight: ClassWeight,
        max_iter: Option<usize>,
        decision_function_shape: DecisionShape,
        break_ties: bool,
        random_state: u64,
    }

    fn spec(&self) -> KernelSpec<'_> {
        KernelSpec {
            kernel: &self.kernel,
            gamma: self.gamma,
            degree: self.degree,
            coef0: self.coef0,
        }
    }
}

impl Estimator for NuSvc {
    /// Checks `0 < ν ≤ 1` and the settings shared with [`Svc`].
    fn validate(&self) -> Result<()> {
        if !(self.nu > 0.0 && self.nu <= 1.0) {
            return Err(Error::invalid_param(
                "nu",
                format!("must be in (0, 1], got {}", self.nu),
            ));
        }
        validate_common(&self.spec(), self.tol, self.cache_size, self.max_iter)?;
        self.class_weight.validate_not_subsample()?;
        if self.break_ties && self.decision_function_shape == DecisionShape::Ovo {
            return Err(Error::invalid_param(
                "break_ties",
                "needs decision_function_shape = ovr",
            ));
        }
        Ok(())
    }
}

/// The settings a classification fit needs, from either estimator.
struct ClassifySpec<'a> {
    form: Form,
    /// `C` (C form) or `ν` (ν form).
    param: f64,
    kernel: KernelSpec<'a>,
    shrinking: bool,
    probability: bool,
    tol: f64,
    cache_size: f64,
    class_weight: &'a ClassWeight,
    max_iter: Option<usize>,
    shape: DecisionShape,
    break_ties: bool,
    seed: u64,
    context: &'static str,
}

/// One pair's binary solution, on the rows of the pair (class `a` first, then `b`).
struct PairFit {
    /// (original row, coefficient `αᵢyᵢ`) for the rows with `αᵢ ≠ 0`.
    coef: Vec<(usize, f64)>,
    rho: f64,
    objective: f64,
    n_iter: usize,
    converged: bool,
}

/// Platt parameters of one pair (`P(first class) = 1/(1 + exp(A f + B))`).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Sigmoid {
    a: f64,
    b: f64,
}

/// A fitted [`Svc`] or [`NuSvc`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedSvc<F: Float> {
    kernel: Option<Kernel>,
    n_features: usize,
    n_train: usize,
    n_classes: usize,
    support: Vec<usize>,
    support_vectors: Array2<F>,
    n_support: Vec<usize>,
    /// libsvm's `sv_coef` layout, `(K − 1) × n_SV`.
    dual_coef: Array2<f64>,
    /// Per pair, libsvm's `ρ`.
    rho: Vec<f64>,
    /// `n_SV × n_pairs` coefficients for one gemm at predict (zero outside the pair).
    pair_coef: Array2<F>,
    objectives: Vec<f64>,
    n_iter: Vec<usize>,
    converged: bool,
    prob: Option<Vec<Sigmoid>>,
    shape: DecisionShape,
    break_ties: bool,
}

/// The pairs `(a, b)`, `a < b`, in libsvm's order.
fn pairs(k: usize) -> Vec<(usize, usize)> {
    (0..k)
        .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
        .collect()
}

/// Solves the binary problem on `rows` (labels `+1` for `first`), with bounds `bounds` (per
/// original row).
fn solve_binary(
    data: &TrainData<'_>,
    spec: &ClassifySpec<'_>,
    rows: Vec<usize>,
    positive: &[bool],
    bounds: &[f64],
    cache_mb: f64,
) -> Result<PairFit> {
    let l = rows.len();
    let y: Vec<f64> = positive
        .iter()
        .map(|&p| if p { 1.0 } else { -1.0 })
        .collect();
    let c: Vec<f64> = rows.iter().map(|&r| bounds[r]).collect();
    let settings = Settings {
        eps: spec.tol,
        shrinking: spec.shrinking,
        max_iter: spec.max_iter,
    };
    let sub = data.subset(rows);
    match spec.form {
        Form::C => {
            let problem = Problem {
                index: (0..l).collect(),
                y: y.clone(),
                p: vec![-1.0; l],
                c,
                alpha: vec![0.0; l],
            };
            let sol = data.solve(&sub, Form::C, problem, settings, cache_mb)?;
            let coef = sub
                .rows
                .iter()
                .zip(&sol.alpha)
                .zip(&y)
                .filter(|((_, a), _)| **a > 0.0)
                .map(|((&r, &a), &yt)| (r, a * yt))
                .collect();
            Ok(PairFit {
                coef,
                rho: sol.rho,
                objective: sol.objective,
                n_iter: sol.n_iter,
                converged: sol.converged,
            })
        }
        Form::Nu => {
            // libsvm's ν-SVC: bounds scaled to 1 (times the weights' ratio to C), a start with
            // Σ_{y=+1} α = Σ_{y=−1} α = ν l / 2, then α, ρ rescaled by 1/r.
            let nu = spec.param;
            let (mut sum_pos, mut sum_neg) = (nu * l as f64 / 2.0, nu * l as f64 / 2.0);
            let mut alpha = vec![0.0; l];
            for t in 0..l {
                let s = if y[t] > 0.0 {
                    &mut sum_pos
                } else {
                    &mut sum_neg
                };
                alpha[t] = c[t].min(*s);
                *s -= alpha[t];
            }
            let problem = Problem {
                index: (0..l).collect(),
                y: y.clone(),
                p: vec![0.0; l],
                c,
                alpha,
            };
            let sol = data.solve(&sub, Form::Nu, problem, settings, cache_mb)?;
            let r = sol.r;
            if !(r.is_finite() && r > 0.0) {
                return Err(Error::invalid_param(
                    "nu",
                    "the ν-SVM dual gave r ≤ 0 (nu infeasible or degenerate data)",
                ));
            }
            let coef = sub
                .rows
                .iter()
                .zip(&sol.alpha)
                .zip(&y)
                .filter(|((_, a), _)| **a > 0.0)
                .map(|((&row, &a), &yt)| (row, a * yt / r))
                .collect();
            Ok(PairFit {
                coef,
                rho: sol.rho / r,
                objective: sol.objective / (r * r),
                n_iter: sol.n_iter,
                converged: sol.converged,
            })
        }
    }
}

fn fit_classifier<F: Float>(
    spec: &ClassifySpec<'_>,
    x: &ArrayRef2<F>,
    y: &ArrayRef1<usize>,
    sample_weight: Option<&ArrayRef1<F>>,
) -> Result<FittedSvc<F>> {
    let n_classes = validate::check_classification_input(x, y, 2, spec.context)?;
    if let Some(w) = sample_weight {
        validate::check_sample_weight(w, x.nrows())?;
    }
    let kernel = spec.kernel.resolve(x);
    let data = TrainData::new(x, kernel.clone(), spec.context)?;
    let yw: Option<Array1<f64>> = sample_weight.map(|w| w.mapv(|v| v.to_f64().unwrap_or(0.0)));
    let cw = spec.class_weight.for_classes(y, n_classes, yw.as_deref())?;
    let base = match spec.form {
        Form::C => spec.param,
        Form::Nu => 1.0,
    };
    let (bounds, keep) = sample_bounds(base, Some((&cw, y)), sample_weight, x.nrows());
    // Rows by class (original order within a class), without the rows of weight 0.
    let mut by_class: Vec<Vec<usize>> = vec![Vec::new(); n_classes];
    for (i, &c) in y.iter().enumerate() {
        if keep[i] {
            by_class[c].push(i);
        }
    }
    if let Some(c) = by_class.iter().position(Vec::is_empty) {
        return Err(Error::InvalidLabel {
            label: c,
            index: 0,
            reason: format!(
                "{}: class {c} has no sample of positive weight (the labels must be 0..n_classes, each present)",
                spec.context
            ),
        });
    }
    if spec.form == Form::Nu {
        for (a, b) in pairs(n_classes) {
            let (na, nb) = (by_class[a].len() as f64, by_class[b].len() as f64);
            if spec.param * (na + nb) / 2.0 > na.min(nb) {
                return Err(Error::invalid_param(
                    "nu",
                    format!(
                        "specified nu = {} is infeasible for classes {a} and {b}",
                        spec.param
                    ),
                ));
            }
        }
    }
    let all_pairs = pairs(n_classes);
    let tasks = all_pairs.len();
    let cache_mb = spec.cache_size;
    let fits = par::try_map_tasks(tasks, |t| {
        let (a, b) = all_pairs[t];
        let mut rows = by_class[a].clone();
        rows.extend_from_slice(&by_class[b]);
        let positive: Vec<bool> = (0..rows.len()).map(|i| i < by_class[a].len()).collect();
        let fit = solve_binary(&data, spec, rows.clone(), &positive, &bounds, cache_mb)?;
        let prob = if spec.probability {
            Some(pair_platt(
                &data, spec, &rows, &positive, &bounds, cache_mb, t,
            )?)
        } else {
            None
        };
        Ok((fit, prob))
    })?;
    // Support vectors: rows with a non-zero coefficient in any pair, by class then row.
    let mut is_sv = vec![false; x.nrows()];
    for (f, _) in &fits {
        for &(r, _) in &f.coef {
            is_sv[r] = true;
        }
    }
    let mut support = Vec::new();
    let mut n_support = vec![0usize; n_classes];
    for (c, rows) in by_class.iter().enumerate() {
        for &r in rows {
            if is_sv[r] {
                support.push(r);
                n_support[c] += 1;
            }
        }
    }
    let mut position = vec![usize::MAX; x.nrows()];
    for (p, &r) in support.iter().enumerate() {
        position[r] = p;
    }
    let n_sv = support.len();
    let mut dual_coef = Array2::<f64>::zeros((n_classes - 1, n_sv));
    let mut pair_coef = Array2::<F>::zeros((n_sv, tasks));
    for (t, ((a, b), (f, _))) in all_pairs.iter().zip(&fits).enumerate() {
        for &(r, c) in &f.coef {
            let row = if y[r] == *a { b - 1 } else { *a };
            dual_coef[[row, position[r]]] = c;
            pair_coef[[position[r], t]] = F::cast(c);
        }
    }
    let prob = if spec.probability {
        Some(fits.iter().map(|(_, p)| p.expect("probability")).collect())
    } else {
        None
    };
    Ok(FittedSvc {
        // For a precomputed kernel these are the support's rows of the Gram matrix.
        support_vectors: data.rows_as(&support),
        kernel,
        n_features: x.ncols(),
        n_train: x.nrows(),
        n_classes,
        support,
        n_support,
        dual_coef,
        rho: fits.iter().map(|(f, _)| f.rho).collect(),
        pair_coef,
        objectives: fits.iter().map(|(f, _)| f.objective).collect(),
        n_iter: fits.iter().map(|(f, _)| f.n_iter).collect(),
        converged: fits.iter().all(|(f, _)| f.converged),
        prob,
        shape: spec.shape,
        break_ties: spec.break_ties,
    })
}

/// libsvm's `svm_binary_svc_probability`: decision values of 5-fold cross-validation on the
/// pair's rows (a seeded permutation, contiguous folds), then Platt scaling on them.
fn pair_platt(
    data: &TrainData<'_>,
    spec: &ClassifySpec<'_>,
    rows: &[usize],
    positive: &[bool],
    bounds: &[f64],
    cache_mb: f64,
    task: usize,
) -> Result<Sigmoid> {
    const FOLDS: usize = 5;
    let l = rows.len();
    let mut perm: Vec<usize> = (0..l).collect();
    random::shuffle(&mut random::stream(spec.seed, task as u64), &mut perm);
    let mut dec = vec![0.0; l];
    for fold in 0..FOLDS {
        let (begin, end) = (fold * l / FOLDS, (fold + 1) * l / FOLDS);
        let train: Vec<usize> = perm[..begin].iter().chain(&perm[end..]).copied().collect();
        let n_pos = train.iter().filter(|&&t| positive[t]).count();
        let n_neg = train.len() - n_pos;
        for &t in &perm[begin..end] {
            dec[t] = match (n_pos, n_neg) {
                (0, 0) => 0.0,
                (_, 0) => 1.0,
                (0, _) => -1.0,
                _ => f64::NAN,
            };
        }
        if n_pos == 0 || n_neg == 0 {
            continue;
        }
        let sub_rows: Vec<usize> = train.iter().map(|&t| rows[t]).collect();
        let sub_pos: Vec<bool> = train.iter().map(|&t| positive[t]).collect();
        let fit = solve_binary(data, spec, sub_rows, &sub_pos, bounds, cache_mb)?;
        let held: Vec<usize> = perm[begin..end].iter().map(|&t| rows[t]).collect();
        let values = data.decision_on_rows(&fit.coef, fit.rho, &held)?;
        for (&t, v) in perm[begin..end].iter().zip(values) {
            dec[t] = v;
        }
    }
    let f = Array1::from(dec);
    let p = PlattScaling::default().fit(&f, positive, None)?;
    Ok(Sigmoid { a: p.a, b: p.b })
}

impl<F: Float> Fit<F> for Svc {
    type Target = ArrayRef1<usize>;
    type Model = FittedSvc<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedSvc<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for Svc {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSvc<F>> {
        self.validate()?;
        let spec = ClassifySpec {
            form: Form::C,
            param: self.c,
            kernel: self.spec(),
            shrinking: self.shrinking,
            probability: self.probability,
            tol: self.tol,
            cache_size: self.cache_size,
            class_weight: &self.class_weight,
            max_iter: self.max_iter,
            shape: self.decision_function_shape,
            break_ties: self.break_ties,
            seed: self.random_state,
            context: "Svc::fit",
        };
        fit_classifier(&spec, x, y, sample_weight)
    }
}

impl<F: Float> Fit<F> for NuSvc {
    type Target = ArrayRef1<usize>;
    type Model = FittedSvc<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedSvc<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for NuSvc {
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedSvc<F>> {
        self.validate()?;
        let spec = ClassifySpec {
            form: Form::Nu,
            param: self.nu,
            kernel: self.spec(),
            shrinking: self.shrinking,
            probability: self.probability,
            tol: self.tol,
            cache_size: self.cache_size,
            class_weight: &self.class_weight,
            max_iter: self.max_iter,
            shape: self.decision_function_shape,
            break_ties: self.break_ties,
            seed: self.random_state,
            context: "NuSvc::fit",
        };
        fit_classifier(&spec, x, y, sample_weight)
    }
}

impl<F: Float> FittedSvc<F> {
    /// Indices of the support vectors in the training data (by class, then row).
    pub fn support(&self) -> &[usize] {
        &self.support
    }
    /// The support vectors (`n_SV × d`; for a precomputed kernel, the kernel rows of the
    /// support).
    pub fn support_vectors(&self) -> &Array2<F> {
        &self.support_vectors
    }
    /// Support vectors per class.
    pub fn n_support(&self) -> &[usize] {
        &self.n_support
    }
    /// scikit-learn's `dual_coef_` (`(K − 1) × n_SV`; for two classes negated so that positive
    /// decisions mean class 1).
    pub fn dual_coef(&self) -> Array2<f64> {
        if self.n_classes == 2 {
            self.dual_coef.mapv(|v| -v)
        } else {
            self.dual_coef.clone()
        }
    }
    /// scikit-learn's `intercept_`: `−ρ` per pair (for two classes `+ρ`).
    pub fn intercept(&self) -> Array1<f64> {
        if self.n_classes == 2 {
            Array1::from(self.rho.clone())
        } else {
            self.rho.iter().map(|r| -r).collect()
        }
    }
    /// scikit-learn's `coef_` for the linear kernel: the primal weights `w = Σᵢ αᵢyᵢxᵢ` of each
    /// pair (`n_pairs × d`, the pairs in `dual_coef` order; for two classes one row, positive =
    /// class 1), so that `decision = x·w + intercept`. `None` for other kernels, whose `w` lives
    /// in the kernel's feature space.
    pub fn coef(&self) -> Option<Array2<f64>> {
        match &self.kernel {
            Some(Kernel::Linear) => {
                let sv = self
                    .support_vectors
                    .mapv(|v| v.to_f64().unwrap_or(f64::NAN));
                let w = self
                    .pair_coef
                    .mapv(|v| v.to_f64().unwrap_or(f64::NAN))
                    .t()
                    .dot(&sv);
                Some(if self.n_classes == 2 { -w } else { w })
            }
            _ => None,
        }
    }
    /// The dual objective of each pair problem (libsvm's `obj`).
    pub fn dual_objectives(&self) -> &[f64] {
        &self.objectives
    }
    /// SMO iterations per pair.
    pub fn n_iter(&self) -> &[usize] {
        &self.n_iter
    }
    /// Whether every pair reached the tolerance before `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// The number of classes.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// The kernel resolved at fit (`gamma` as a number; `None` for a precomputed kernel).
    pub fn kernel(&self) -> Option<&Kernel> {
        self.kernel.as_ref()
    }
    /// Platt parameters `(A, B)` per pair (libsvm's `probA_`, `probB_`), when fitted with
    /// `probability`.
    pub fn prob_ab(&self) -> Option<Vec<(f64, f64)>> {
        self.prob
            .as_ref()
            .map(|p| p.iter().map(|s| (s.a, s.b)).collect())
    }

    /// libsvm's one-vs-one decision values, `n × K(K−1)/2` (positive = the first class of the
    /// pair).
    ///
    /// # Errors
    /// Wrong feature count, non-finite input.
    pub fn decision_function_ovo(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let k = self.kernel_rows(x)?;
        let mut d = k.dot(&self.pair_coef);
        for (mut col, &rho) in d.columns_mut().into_iter().zip(&self.rho) {
            let r = F::cast(rho);
            col.mapv_inplace(|v| v - r);
        }
        Ok(d)
    }

    fn kernel_rows(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let context = "Svc::predict";
        match self.kernel {
            Some(_) => validate::check_predict_input(x, self.n_features, context)?,
            None => validate::check_finite_2d(x, "X")?,
        }
        cross_kernel(
            self.kernel.as_ref(),
            x,
            &self.support_vectors,
            &self.support,
            self.n_train,
            context,
        )
    }

    /// Votes and scikit-learn's one-vs-rest transform of the pair decisions.
    fn ovr(&self, ovo: &Array2<F>) -> Array2<F> {
        let k = self.n_classes;
        let all = pairs(k);
        let mut out = Array2::<F>::zeros((ovo.nrows(), k));
        for (i, row) in ovo.rows().into_iter().enumerate() {
            let mut votes = vec![0.0f64; k];
            let mut conf = vec![0.0f64; k];
            for (&(a, b), &d) in all.iter().zip(row) {
                let d = d.to_f64().unwrap_or(f64::NAN);
                conf[a] += d;
                conf[b] -= d;
                if d < 0.0 {
                    votes[b] += 1.0;
                } else {
                    votes[a] += 1.0;
                }
            }
            for c in 0..k {
                out[[i, c]] = F::cast(votes[c] + conf[c] / (3.0 * (conf[c].abs() + 1.0)));
            }
        }
        out
    }

    /// Pairwise-coupled probabilities (Wu, Lin and Weng's second method, as libsvm).
    fn couple(&self, ovo: &Array2<F>, prob: &[Sigmoid]) -> Array2<F> {
        let k = self.n_classes;
        let all = pairs(k);
        let mut out = Array2::<F>::zeros((ovo.nrows(), k));
        let min_p = 1e-7;
        for (i, row) in ovo.rows().into_iter().enumerate() {
            let mut r = vec![vec![0.0f64; k]; k];
            for ((&(a, b), &d), s) in all.iter().zip(row).zip(prob) {
                let p = numeric::sigmoid(-(s.a * d.to_f64().unwrap_or(0.0) + s.b));
                let p = p.clamp(min_p, 1.0 - min_p);
                r[a][b] = p;
                r[b][a] = 1.0 - p;
            }
            let p = couple_pairwise(&r);
            for c in 0..k {
                out[[i, c]] = F::cast(p[c]);
            }
        }
        out
    }
}

/// Solves `min_p ½ pᵀQp` on the simplex with `Q_tt = Σ_{j≠t} r_jt²`, `Q_tj = −r_jt r_tj` by
/// the fixed-point iteration of Wu, Lin and Weng (2004, method 2), as libsvm's
/// `multiclass_probability`.
fn couple_pairwise(r: &[Vec<f64>]) -> Vec<f64> {
    let k = r.len();
    let mut q = vec![vec![0.0; k]; k];
    for t in 0..k {
        for j in 0..k {
            if j != t {
                q[t][t] += r[j][t] * r[j][t];
                q[t][j] = -r[j][t] * r[t][j];
            }
        }
    }
    let mut p = vec![1.0 / k as f64; k];
    let mut qp = vec![0.0; k];
    let max_iter = 100.max(k);
    let eps = 0.005 / k as f64;
    for _ in 0..max_iter {
        let mut pqp = 0.0;
        for t in 0..k {
            qp[t] = (0..k).map(|j| q[t][j] * p[j]).sum();
            pqp += p[t] * qp[t];
        }
        let max_err = (0..k).map(|t| (qp[t] - pqp).abs()).fold(0.0, f64::max);
        if max_err < eps {
            break;
        }
        for t in 0..k {
            let diff = (-qp[t] + pqp) / q[t][t];
            p[t] += diff;
            pqp = (pqp + diff * (diff * q[t][t] + 2.0 * qp[t])) / (1.0 + diff) / (1.0 + diff);
            for j in 0..k {
                qp[j] = (qp[j] + diff * q[t][j]) / (1.0 + diff);
                p[j] /= 1.0 + diff;
            }
        }
    }
    p
}

impl<F: Float> DecisionFunction<F> for FittedSvc<F> {
    /// `n × 1` for two classes (positive = class 1), else the one-vs-rest `n × K`.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let ovo = self.decision_function_ovo(x)?;
        if self.n_classes == 2 {
            Ok(ovo.mapv(|v| -v))
        } else {
            Ok(self.ovr(&ovo))
        }
    }
}

/// For the linear kernel, `(Σ_pairs w_pj²)^{1/2}` (for two classes `|w_j|`): the ranking of the
/// course notes' SVM-RFE, "repetitively training a linear SVM and removing the variables with
/// lowest weights" (Guyon et al. 2002), through core's
/// [`Rfe`](ndlearn_core::feature_selection::Rfe); the same order as scikit-learn's `RFE`, which
/// ranks by `Σ_pairs w_pj²`. Other kernels have no primal weights; their importances are NaN,
/// which `Rfe` rejects.
impl<F: Float> FeatureImportances<F> for FittedSvc<F> {
    fn feature_importances(&self) -> Array1<F> {
        match self.coef() {
            Some(w) => w.map_axis(Axis(0), |c| F::cast(c.dot(&c).sqrt())),
            None => Array1::from_elem(self.n_features, F::nan()),
        }
    }
}

impl<F: Float> Predict<F> for FittedSvc<F> {
    type Output = Array1<usize>;

    /// libsvm's vote over the pairs (ties to the lower class), or with `break_ties` the argmax
    /// of the one-vs-rest decision.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let ovo = self.decision_function_ovo(x)?;
        let k = self.n_classes;
        if self.break_ties && k > 2 {
            let ovr = self.ovr(&ovo);
            return Ok(numeric::argmax_rows(&ovr));
        }
        let all = pairs(k);
        Ok(ovo
            .rows()
            .into_iter()
            .map(|row| {
                let mut votes = vec![0usize; k];
                for (&(a, b), &d) in all.iter().zip(row) {
                    if d > F::zero() {
                        votes[a] += 1;
                    } else {
                        votes[b] += 1;
                    }
                }
                let best = *votes.iter().max().unwrap_or(&0);
                votes.iter().position(|&v| v == best).unwrap_or(0)
            })
            .collect())
    }
}

impl<F: Float> PredictProba<F> for FittedSvc<F> {
    /// Platt probabilities coupled over the pairs (fitted with `probability = true`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when the model was fitted without `probability`.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let prob = self.prob.as_ref().ok_or_else(|| {
            Error::invalid_param(
                "probability",
                "predict_proba needs a fit with probability = true",
            )
        })?;
        let ovo = self.decision_function_ovo(x)?;
        Ok(self.couple(&ovo, prob))
    }
}

impl<F: Float> NFeaturesIn for FittedSvc<F> {
    fn n_features_in(&self) -> usize {
        self.n_features
    }
}

impl<F: Float> CheckModel for FittedSvc<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedSvc");
        let (k, n_sv) = (self.n_classes, self.support.len());
        check_expansion(
            &c,
            self.kernel.as_ref(),
            self.n_features,
            self.n_train,
            &self.support,
            &self.support_vectors,
        )?;
        c.at_least("n_classes", k, 2)?;
        // one binary problem per pair of classes
        let n_pairs = k.checked_mul(k - 1).map(|p| p / 2);
        c.that(n_pairs == Some(self.rho.len()), || {
            format!("{} intercepts for {k} classes", self.rho.len())
        })?;
        let n_pairs = self.rho.len();
        c.finite_slice("rho", &self.rho)?;
        c.len("n_support", self.n_support.len(), k)?;
        let total = self
            .n_support
            .iter()
            .try_fold(0usize, |a, &b| a.checked_add(b));
        c.that(total == Some(n_sv), || {
            format!("`n_support` does not add up to the {n_sv} support vectors")
        })?;
        c.shape("dual_coef", self.dual_coef.dim(), (k - 1, n_sv))?;
        c.finite("dual_coef", &self.dual_coef)?;
        c.shape("pair_coef", self.pair_coef.dim(), (n_sv, n_pairs))?;
        c.finite("pair_coef", &self.pair_coef)?;
        c.len("dual_objectives", self.objectives.len(), n_pairs)?;
        c.len("n_iter", self.n_iter.len(), n_pairs)?;
        if let Some(p) = &self.prob {
            c.len("prob", p.len(), n_pairs)?;
            c.that(p.iter().all(|s| s.a.is_finite() && s.b.is_finite()), || {
                "`prob` holds a non-finite sigmoid".into()
            })?;
        }
        c.that(
            !(self.break_ties && self.shape == DecisionShape::Ovo),
            || "break_ties needs the ovr decision shape".into(),
        )
    }
}

#[cfg(test)]
mod check_tests {
    use super::*;

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_expansions() {
        let data = ndlearn_datasets::iris();
        let (x, y) = (data.x(), data.y_classes().expect("labels"));
        let m: FittedSvc<f64> = Svc::default().probability(true).fit(x, y).expect("fit");
        assert!(m.check_model().is_ok());
        let invalid =
            |m: &FittedSvc<f64>| matches!(m.check_model(), Err(Error::InvalidModel { .. }));
        let mut bad = m.clone();
        bad.support[0] = 150; // 150 training rows
        assert!(invalid(&bad));
        let mut bad = m.clone();
        bad.pair_coef = bad.pair_coef.slice(ndarray::s![1.., ..]).to_owned(); // a row short
        assert!(invalid(&bad));
        let mut bad = m.clone();
        bad.rho[1] = f64::NAN;
        assert!(invalid(&bad));
        let mut bad = m.clone();
        bad.n_classes = 1_000_000_000; // pairs would be ~5·10¹⁷
        assert!(invalid(&bad));
        let mut bad = m;
        bad.kernel = Some(Kernel::Rbf { gamma: 0.0 });
        assert!(invalid(&bad));
        let pre = x.dot(&x.t());
        let p: FittedSvc<f64> = Svc::default()
            .kernel(SvmKernel::Precomputed)
            .fit(&pre, y)
            .expect("fit");
        assert!(p.check_model().is_ok());
    }
}
