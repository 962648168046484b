//! Linear support vector classification with liblinear's solvers: [`LinearSvc`]
//! (scikit-learn's `LinearSVC`).
//!
//! # The problem
//!
//! With the synthetic feature of value `s = intercept_scaling` appended to every row when
//! `fit_intercept` (`x̃ᵢ = [xᵢ, s]`, `w̃ = [w, b/s]`; **the bias weight is penalised** like any
//! other, as in liblinear), labels `yᵢ ∈ {±1}` and per-sample penalties `Cᵢ`, each binary
//! problem is
//!
//! ```text
//! penalty = l2, loss = hinge           min_w̃ ½‖w̃‖² + Σᵢ Cᵢ max(0, 1 − yᵢ w̃ᵀx̃ᵢ)
//! penalty = l2, loss = squared_hinge   min_w̃ ½‖w̃‖² + Σᵢ Cᵢ max(0, 1 − yᵢ w̃ᵀx̃ᵢ)²
//! penalty = l1, loss = squared_hinge   min_w̃ ‖w̃‖₁  + Σᵢ Cᵢ max(0, 1 − yᵢ w̃ᵀx̃ᵢ)²
//! ```
//!
//! with `Cᵢ = C · class_weight[yᵢ] · sample_weight[i]` (liblinear scales `C` per sample; rows
//! of weight 0 are dropped). Two classes give one problem, positive = class 1
//! (`C₊ = C·w₁`, `C₋ = C·w₀`). `K > 2` classes give `K` one-vs-rest problems, solved in
//! parallel (class `k` positive, `C₊ = C·w_k`, and, as liblinear, `C₋ = C` unweighted); the
//! prediction is the class of largest score. With `multi_class = crammer_singer` one joint
//! problem replaces them (Crammer and Singer 2001; `penalty`, `loss` and `dual` are then
//! ignored, as in scikit-learn):
//!
//! ```text
//! min_W̃ ½ Σₘ ‖w̃ₘ‖² + Σᵢ Cᵢ maxₘ ([m ≠ yᵢ] + w̃ₘᵀx̃ᵢ − w̃_yᵢᵀx̃ᵢ),   Cᵢ = C · class_weight[yᵢ] · sample_weight[i],
//! ```
//!
//! solved by liblinear's dual coordinate descent over one block of `K` variables per sample
//! (each block exactly, with shrinking); for two classes `coef` is `w₁ − w₀`, as scikit-learn.
//! The losses are core's
//! ([`Loss::Hinge`] and
//! [`Loss::SquaredHinge`] with threshold 1);
//! [`LinearSvc::objective`] evaluates the objective above at any coefficients.
//!
//! # Solvers (liblinear's numbers)
//!
//! | penalty, loss | `dual = true` | `dual = false` |
//! |---|---|---|
//! | l2, hinge | dual coordinate descent, box `0 ≤ αᵢ ≤ Cᵢ` (3) | — (error) |
//! | l2, squared_hinge (default) | dual coordinate descent, diagonal `1/(2Cᵢ)` (1) | trust-region Newton, TRON (2) |
//! | l1, squared_hinge | — (error) | primal coordinate descent with line search (5) |
//! | l1, hinge | — (error) | — (error) |
//!
//! `dual = "auto"` (the default) follows scikit-learn's `_validate_dual_parameter`: with fewer
//! samples than features the dual when the combination has one, else the primal; otherwise
//! the primal when it exists, else the dual. Stopping rules are liblinear's: the dual solvers
//! stop when the spread of the projected gradient is `≤ tol`; TRON when
//! `‖∇f(w̃)‖ ≤ tol′‖∇f(0)‖` and the L1 solver when the 1-norm of the minimum-norm subgradient
//! is `≤ tol′` times its first value, with `tol′ = tol · max(min(n₊, n₋), 1)/n`. The coordinate
//! solvers visit their variables in a random order each pass, drawn from the seeded stream of
//! the problem (`random_state`, problem index): results do not depend on the thread count, and
//! agree with liblinear's to the solver tolerance (not bit for bit: the permutations differ).
//!
//! # Hyperparameters
//!
//! | field | default | scikit-learn | valid |
//! |---|---|---|---|
//! | `penalty` | `l2` | `penalty` | `l1` needs `squared_hinge` |
//! | `loss` | `squared_hinge` | `loss` | |
//! | `dual` | `auto` | `dual` | see the table above |
//! | `tol` | `1e-4` | `tol` | `> 0` |
//! | `c` | 1 | `C` | `> 0` |
//! | `multi_class` | `ovr` | `multi_class` | `ovr`, `crammer_singer` |
//! | `fit_intercept` | `true` | `fit_intercept` | |
//! | `intercept_scaling` | 1 | `intercept_scaling` | `> 0` |
//! | `class_weight` | uniform | `class_weight` | finite, `≥ 0` |
//! | `max_iter` | 1000 | `max_iter` | outer iterations per problem (liblinear's Crammer–Singer solver ignores it and stops at 100000; here it applies) |
//! | `random_state` | 0 | `random_state` | any seed |
//!
//! # Errors
//!
//! Invalid hyperparameters and combinations ([`Error::InvalidParam`] naming `loss`, `penalty`
//! or `dual`, as scikit-learn's "Unsupported set of arguments"), non-finite or empty input,
//! mismatched shapes, fewer than two classes or a class without a sample of positive weight,
//! the wrong number of features at predict. Reaching `max_iter` is not an error
//! ([`FittedLinearSvc::converged`] is `false`).
//!
//! # Example
//!
//! ```
//! use ndlearn_core::{DecisionFunction, Fit, Predict};
//! use ndlearn_svm::LinearSvc;
//!
//! let data = ndlearn_datasets::iris();
//! let y = data.y_classes().expect("labels");
//! let model = LinearSvc::default().c(0.5).fit(data.x(), y)?; // 3 one-vs-rest problems
//! assert_eq!(model.coef().dim(), (3, 4));
//! let pred = model.predict(data.x())?;
//! let acc = pred.iter().zip(y).filter(|(a, b)| a == b).count() as f64 / 150.0;
//! assert!(acc > 0.9);
//! assert_eq!(model.decision_function(data.x())?.ncols(), 3);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! # References
//!
//! R.-E. Fan, K.-W. Chang, C.-J. Hsieh, X.-R. Wang, C.-J. Lin, "LIBLINEAR: a library for large
//! linear classification", JMLR 9, 2008; C.-J. Hsieh, K.-W. Chang, C.-J. Lin, S. S. Keerthi,
//! S. Sundararajan, "A dual coordinate descent method for large-scale linear SVM", ICML 2008;
//! C.-J. Lin, R. C. Weng, S. S. Keerthi, "Trust region Newton method for large-scale logistic
//! regression", JMLR 9, 2008; G.-X. Yuan, K.-W. Chang, C.-J. Hsieh, C.-J. Lin, "A comparison of
//! optimization methods and software for large-scale L1-regularized linear classification",
//! JMLR 11, 2010; K. Crammer, Y. Singer, "On the algorithmic implementation of multiclass
//! kernel-based vector machines", JMLR 2, 2001.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::class_weight::ClassWeight;
use ndlearn_core::loss::Loss;
use ndlearn_core::traits::{DecisionFunction, Estimator, Fit, FitWeighted, NFeaturesIn, Predict};
use ndlearn_core::validate::{CheckModel, ModelCheck};
use ndlearn_core::{Error, Float, Result, numeric, par, random, validate};

use crate::liblinear::{self, DualLoss, Reg, SmoothLoss, SolverOutput};

/// The regularisation of [`LinearSvc`] (scikit-learn's `penalty`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Penalty {
    /// `‖w̃‖₁` (sparse coefficients; needs the squared hinge and the primal solver).
    L1,
    /// `½‖w̃‖²` (default).
    #[default]
    L2,
}

/// The loss of [`LinearSvc`] (scikit-learn's `loss`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum SvcLoss {
    /// `max(0, 1 − yf)` (the L1-loss SVM; dual solver only).
    Hinge,
    /// `max(0, 1 − yf)²` (the L2-loss SVM; default).
    #[default]
    SquaredHinge,
}

/// Which formulation to solve (scikit-learn's `dual`: `true`, `false` or `"auto"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[non_exhaustive]
pub enum Dual {
    /// scikit-learn's rule: with fewer samples than features the dual if it exists for the
    /// penalty and loss, else the primal; otherwise the primal if it exists, else the dual
    /// (default).
    #[default]
    Auto,
    /// The dual (`dual = true`).
    Dual,
    /// The primal (`dual = false`).
    Primal,
}

#[cfg(feature = "serde")]
impl serde::Serialize for Dual {
    fn serialize<S: serde::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            Dual::Auto => s.serialize_str("auto"),
            Dual::Dual => s.serialize_bool(true),
            Dual::Primal => s.serialize_bool(false),
        }
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Dual {
    /// Accepts `true`, `false`, `"auto"`, and the strings `"true"`, `"false"`, `"dual"`,
    /// `"primal"` (any case).
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Dual;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("true, false or \"auto\"")
            }
            fn visit_bool<E: serde::de::Error>(self, v: bool) -> std::result::Result<Dual, E> {
                Ok(if v { Dual::Dual } else { Dual::Primal })
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> std::result::Result<Dual, E> {
                match v.to_ascii_lowercase().as_str() {
                    "auto" => Ok(Dual::Auto),
                    "true" | "dual" => Ok(Dual::Dual),
                    "false" | "primal" => Ok(Dual::Primal),
                    _ => Err(E::invalid_value(serde::de::Unexpected::Str(v), &self)),
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// How [`LinearSvc`] treats more than two classes (scikit-learn's `multi_class`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum MultiClass {
    /// One binary problem per class against the rest (default).
    #[default]
    Ovr,
    /// Crammer and Singer's joint multi-class SVM (`penalty`, `loss` and `dual` are ignored,
    /// as in scikit-learn).
    CrammerSinger,
}

/// The solver a fit runs (liblinear's solver numbers in the module docs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Solver {
    /// Dual coordinate descent (L1 or L2 loss).
    DualCd(DualLoss),
    /// Trust-region Newton on the primal (L2 loss, L2 penalty).
    Tron,
    /// Primal coordinate descent for the L1 penalty (squared hinge).
    L1Cd,
}

/// Which formulations exist for a penalty and a loss: `(dual, primal)` solvers.
fn solvers(penalty: Penalty, loss: SvcLoss) -> (Option<Solver>, Option<Solver>) {
    match (penalty, loss) {
        (Penalty::L2, SvcLoss::Hinge) => (Some(Solver::DualCd(DualLoss::L1)), None),
        (Penalty::L2, SvcLoss::SquaredHinge) => {
            (Some(Solver::DualCd(DualLoss::L2)), Some(Solver::Tron))
        }
        (Penalty::L1, SvcLoss::SquaredHinge) => (None, Some(Solver::L1Cd)),
        (Penalty::L1, SvcLoss::Hinge) => (None, None),
    }
}

/// scikit-learn's `_validate_dual_parameter` followed by `_get_liblinear_solver_type`.
pub(crate) fn choose(
    dual: Dual,
    (d, p): (Option<Solver>, Option<Solver>),
    n_samples: usize,
    n_features: usize,
    describe: &str,
) -> Result<Solver> {
    let pick = match dual {
        Dual::Dual => d,
        Dual::Primal => p,
        Dual::Auto if n_samples < n_features => d.or(p),
        Dual::Auto => p.or(d),
    };
    pick.ok_or_else(|| {
        let which = match dual {
            Dual::Auto => "".to_string(),
            Dual::Dual => " when dual = true".to_string(),
            Dual::Primal => " when dual = false".to_string(),
        };
        Error::invalid_param(
            if d.is_none() && p.is_none() {
                "penalty"
            } else {
                "dual"
            },
            format!("unsupported set of arguments: {describe} is not supported{which}"),
        )
    })
}

/// Linear support vector classification with liblinear's solvers (scikit-learn's `LinearSVC`;
/// see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(default))]
#[non_exhaustive]
pub struct LinearSvc {
    /// The penalty (default `l2`).
    pub penalty: Penalty,
    /// The loss (default `squared_hinge`).
    pub loss: SvcLoss,
    /// Dual or primal formulation (default `auto`).
    pub dual: Dual,
    /// Stopping tolerance (default `1e-4`; see the module docs for each solver's test).
    pub tol: f64,
    /// The penalty `C > 0` (default 1).
    #[cfg_attr(feature = "serde", serde(rename = "C", alias = "c"))]
    pub c: f64,
    /// Multi-class strategy (default one-vs-rest).
    pub multi_class: MultiClass,
    /// Append the synthetic (penalised) bias feature (default `true`).
    pub fit_intercept: bool,
    /// The value `s > 0` of the synthetic feature; `intercept = s · w̃_bias` (default 1).
    pub intercept_scaling: f64,
    /// Class weights multiplying `C` (default uniform).
    pub class_weight: ClassWeight,
    /// Outer iterations per problem (default 1000).
    pub max_iter: usize,
    /// Seed of the coordinate orders (default 0).
    pub random_state: u64,
}

impl Default for LinearSvc {
    fn default() -> Self {
        Self {
            penalty: Penalty::L2,
            loss: SvcLoss::SquaredHinge,
            dual: Dual::Auto,
            tol: 1e-4,
            c: 1.0,
            multi_class: MultiClass::Ovr,
            fit_intercept: true,
            intercept_scaling: 1.0,
            class_weight: ClassWeight::Uniform,
            max_iter: 1000,
            random_state: 0,
        }
    }
}

impl LinearSvc {
    ndlearn_core::setters! {
        penalty: Penalty,
        loss: SvcLoss,
        dual: Dual,
        tol: f64,
        /// Sets `C`.
        c: f64,
        multi_class: MultiClass,
        fit_intercept: bool,
        intercept_scaling: f64,
        class_weight: ClassWeight,
        max_iter: usize,
        random_state: u64,
    }

    fn describe(&self) -> String {
        format!(
            "penalty = {}, loss = {}",
            match self.penalty {
                Penalty::L1 => "l1",
                Penalty::L2 => "l2",
            },
            match self.loss {
                SvcLoss::Hinge => "hinge",
                SvcLoss::SquaredHinge => "squared_hinge",
            }
        )
    }

    fn core_loss(&self) -> Loss {
        match self.loss {
            SvcLoss::Hinge => Loss::Hinge { threshold: 1.0 },
            SvcLoss::SquaredHinge => Loss::SquaredHinge { threshold: 1.0 },
        }
    }

    fn reg(&self) -> Reg {
        match self.penalty {
            Penalty::L1 => Reg::L1,
            Penalty::L2 => Reg::L2,
        }
    }

    /// The solver `fit` runs on `n_samples × n_features` data (after resolving
    /// `dual = "auto"`).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a combination liblinear does not solve.
    pub(crate) fn solver(&self, n_samples: usize, n_features: usize) -> Result<Solver> {
        choose(
            self.dual,
            solvers(self.penalty, self.loss),
            n_samples,
            n_features,
            &self.describe(),
        )
    }

    /// Whether `fit` on `n_samples × n_features` data solves the dual (scikit-learn's resolved
    /// `dual`).
    ///
    /// # Errors
    /// As [`Estimator::validate`].
    pub fn resolves_to_dual(&self, n_samples: usize, n_features: usize) -> Result<bool> {
        if self.multi_class == MultiClass::CrammerSinger {
            return Ok(true);
        }
        Ok(matches!(
            self.solver(n_samples, n_features)?,
            Solver::DualCd(_)
        ))
    }

    /// The primal objective of each binary problem (one for two classes, else one per class;
    /// with Crammer–Singer, the one joint objective `½ Σₘ ‖w̃ₘ‖² + Σᵢ Cᵢ maxₘ (eᵢᵐ + w̃ₘᵀx̃ᵢ −
    /// w̃_yᵢᵀx̃ᵢ)`, `eᵢᵐ = [m ≠ yᵢ]`; for two classes `coef` is scikit-learn's `w₁ − w₀` and
    /// `w₁ = −w₀` is used, which holds at the optimum)
    /// at the coefficients `coef` (`n_problems × d`) and intercepts, on the data `x`, `y`
    /// with optional sample weights: `R(w̃) + Σᵢ Cᵢ ℓ(yᵢ, w̃ᵀx̃ᵢ)` with `w̃ = [w, b/s]` (see the
    /// [module docs](self)). Evaluating it at a fitted model's `coef()` and `intercept()`
    /// gives the value its solver minimised; at another library's coefficients, the same
    /// formula for comparison.
    ///
    /// # Errors
    /// Invalid hyperparameters, invalid data, or coefficients of the wrong shape.
    pub fn objective<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        coef: &ArrayRef2<f64>,
        intercept: &ArrayRef1<f64>,
    ) -> Result<Vec<f64>> {
        let setup = self.setup(x, y, sample_weight)?;
        let n_problems = if self.multi_class == MultiClass::CrammerSinger {
            if setup.n_classes == 2 {
                1
            } else {
                setup.n_classes
            }
        } else {
            setup.problems.len()
        };
        if coef.dim() != (n_problems, x.ncols()) || intercept.len() != n_problems {
            return Err(Error::ShapeMismatch {
                context: "LinearSvc::objective",
                expected: format!("coef {n_problems} × {}, {n_problems} intercepts", x.ncols()),
                found: format!(
                    "coef {} × {}, {} intercepts",
                    coef.nrows(),
                    coef.ncols(),
                    intercept.len()
                ),
            });
        }
        if self.multi_class == MultiClass::CrammerSinger {
            // binary: scikit-learn keeps w₁ − w₀; the optimum has w₀ = −w₁
            let (coef, intercept) = if setup.n_classes == 2 {
                let mut both = Array2::zeros((2, coef.ncols()));
                both.row_mut(0).assign(&coef.row(0).mapv(|v| -v / 2.0));
                both.row_mut(1).assign(&coef.row(0).mapv(|v| v / 2.0));
                (
                    both,
                    ndarray::array![-intercept[0] / 2.0, intercept[0] / 2.0],
                )
            } else {
                (coef.to_owned(), intercept.to_owned())
            };
            let w = setup.feature_major(&coef, &intercept);
            return Ok(vec![liblinear::crammer_singer_objective(
                &setup.design.x,
                &setup.labels,
                &setup.cs_c,
                &w,
                setup.n_classes,
            )]);
        }
        Ok((0..n_problems)
            .map(|k| {
                let w = setup
                    .design
                    .augment(coef.row(k).iter().copied(), intercept[k]);
                let (y, c) = &setup.problems[k];
                liblinear::primal_objective(&setup.design.x, y, c, &w, self.reg(), self.core_loss())
            })
            .collect())
    }

    fn setup<F: Float>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Setup> {
        self.validate()?;
        let context = "LinearSvc::fit";
        let n_classes = validate::check_classification_input(x, y, 2, context)?;
        if let Some(w) = sample_weight {
            validate::check_sample_weight(w, x.nrows())?;
        }
        let sw: Option<Array1<f64>> = sample_weight.map(|w| w.mapv(|v| v.to_f64().unwrap_or(0.0)));
        let cw = self.class_weight.for_classes(y, n_classes, sw.as_deref())?;
        let design = Design::new(
            x,
            sw.as_deref(),
            self.fit_intercept.then_some(self.intercept_scaling),
        );
        let labels: Vec<usize> = design.rows.iter().map(|&r| y[r]).collect();
        let mut count = vec![0usize; n_classes];
        for &c in &labels {
            count[c] += 1;
        }
        if let Some(c) = count.iter().position(|&k| k == 0) {
            return Err(Error::InvalidLabel {
                label: c,
                index: 0,
                reason: format!(
                    "{context}: class {c} has no sample of positive weight (the labels must be 0..n_classes, each present)"
                ),
            });
        }
        // (positive class, C₊, C₋) per problem, as liblinear's `train`
        let specs: Vec<(usize, f64, f64)> = if n_classes == 2 {
            vec![(1, self.c * cw[1], self.c * cw[0])]
        } else {
            (0..n_classes)
                .map(|k| (k, self.c * cw[k], self.c))
                .collect()
        };
        let problems = specs
            .iter()
            .map(|&(pos, cp, cn)| {
                let yv: Vec<f64> = labels
                    .iter()
                    .map(|&c| if c == pos { 1.0 } else { -1.0 })
                    .collect();
                let c: Vec<f64> = yv
                    .iter()
                    .zip(&design.weight)
                    .map(|(&s, &w)| w * if s > 0.0 { cp } else { cn })
                    .collect();
                (yv, c)
            })
            .collect();
        let cs_c = labels
            .iter()
            .zip(&design.weight)
            .map(|(&c, &w)| w * self.c * cw[c])
            .collect();
        Ok(Setup {
            design,
            problems,
            n_classes,
            labels,
            cs_c,
        })
    }
}

/// The data and the binary problems of a fit.
struct Setup {
    design: Design,
    /// `(y ∈ {±1}, Cᵢ)` per problem, over the rows of the design.
    problems: Vec<(Vec<f64>, Vec<f64>)>,
    n_classes: usize,
    /// The class of every row of the design.
    labels: Vec<usize>,
    /// Crammer–Singer's `Cᵢ = C · class_weight[yᵢ] · sample_weight[i]`.
    cs_c: Vec<f64>,
}

impl Setup {
    /// Feature-major `w̃[j·K + m]` from `K × d` coefficients and `K` intercepts.
    fn feature_major(&self, coef: &ArrayRef2<f64>, intercept: &ArrayRef1<f64>) -> Vec<f64> {
        let k = coef.nrows();
        let rows: Vec<Vec<f64>> = (0..k)
            .map(|m| {
                self.design
                    .augment(coef.row(m).iter().copied(), intercept[m])
            })
            .collect();
        let p = rows.first().map_or(0, Vec::len);
        (0..p * k).map(|t| rows[t % k][t / k]).collect()
    }
}

/// The design `X̃` of the rows of positive weight (bias column appended), with their weights.
pub(crate) struct Design {
    /// `n′ × (d + 1)` with an intercept, else `n′ × d`.
    pub x: Array2<f64>,
    /// The original rows kept (weight `> 0`).
    pub rows: Vec<usize>,
    /// Their sample weights (1 without weights).
    pub weight: Vec<f64>,
    /// The synthetic feature's value, when an intercept is fitted.
    pub bias: Option<f64>,
}

impl Design {
    pub(crate) fn new<F: Float>(
        x: &ArrayRef2<F>,
        sample_weight: Option<&ArrayRef1<f64>>,
        bias: Option<f64>,
    ) -> Self {
        let rows: Vec<usize> = (0..x.nrows())
            .filter(|&i| sample_weight.is_none_or(|w| w[i] > 0.0))
            .collect();
        let d = x.ncols();
        let p = d + usize::from(bias.is_some());
        let mut xt = Array2::<f64>::zeros((rows.len(), p));
        for (k, &r) in rows.iter().enumerate() {
            for j in 0..d {
                xt[[k, j]] = x[[r, j]].to_f64().unwrap_or(f64::NAN);
            }
            if let Some(s) = bias {
                xt[[k, d]] = s;
            }
        }
        let weight = rows
            .iter()
            .map(|&r| sample_weight.map_or(1.0, |w| w[r]))
            .collect();
        Self {
            x: xt,
            rows,
            weight,
            bias,
        }
    }

    /// `w̃ = [w, b/s]` from coefficients and an intercept.
    pub(crate) fn augment(&self, coef: impl Iterator<Item = f64>, intercept: f64) -> Vec<f64> {
        let mut w: Vec<f64> = coef.collect();
        if let Some(s) = self.bias {
            w.push(intercept / s);
        }
        w
    }

    /// `(w, b)` from `w̃`.
    pub(crate) fn split(&self, w: &[f64]) -> (Vec<f64>, f64) {
        match self.bias {
            Some(s) => (w[..w.len() - 1].to_vec(), s * w[w.len() - 1]),
            None => (w.to_vec(), 0.0),
        }
    }

    /// The primal tolerance liblinear derives for TRON and the L1 solver:
    /// `tol · max(min(n₊, n₋), 1) / n`.
    pub(crate) fn primal_tol(tol: f64, y: &[f64]) -> f64 {
        let pos = y.iter().filter(|&&v| v > 0.0).count();
        let neg = y.len() - pos;
        tol * pos.min(neg).max(1) as f64 / y.len().max(1) as f64
    }
}

/// Runs binary problem `task` with the settings of `est` (coordinate orders from the
/// stream `(random_state, task)`).
fn solve_svc(
    est: &LinearSvc,
    design: &Design,
    (y, c): (&[f64], &[f64]),
    solver: Solver,
    task: usize,
) -> SolverOutput {
    let (tol, max_iter) = (est.tol, est.max_iter);
    let mut rng = random::stream(est.random_state, task as u64);
    match solver {
        Solver::DualCd(loss) => {
            liblinear::dual_cd_svc(&design.x, y, c, loss, tol, max_iter, &mut rng)
        }
        Solver::Tron => liblinear::tron(
            &design.x,
            y,
            c,
            SmoothLoss::SquaredHinge,
            Design::primal_tol(tol, y),
            max_iter,
        ),
        Solver::L1Cd => {
            let xt = design.x.t().as_standard_layout().into_owned();
            liblinear::l1r_l2_svc(&xt, y, c, Design::primal_tol(tol, y), max_iter, &mut rng)
        }
    }
}

impl Estimator for LinearSvc {
    /// Checks `C > 0`, `tol > 0`, `intercept_scaling > 0`, the class weights and that the
    /// penalty and loss have a solver for `dual` (as scikit-learn's
    /// `_get_liblinear_solver_type`).
    fn validate(&self) -> Result<()> {
        validate::check_positive("C", self.c)?;
        validate::check_positive("tol", self.tol)?;
        validate::check_positive("intercept_scaling", self.intercept_scaling)?;
        self.class_weight.validate_not_subsample()?;
        if self.multi_class == MultiClass::CrammerSinger {
            return Ok(()); // one solver whatever the penalty, loss and dual
        }
        // n ≥ d and n < d resolve "auto" differently; both must be solvable when one is
        self.solver(1, 0)?;
        self.solver(0, 1)?;
        Ok(())
    }
}

/// A fitted [`LinearSvc`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedLinearSvc<F: Float> {
    /// `n_problems × d`.
    coef: Array2<F>,
    intercept: Array1<F>,
    n_classes: usize,
    n_iter: Vec<usize>,
    objectives: Vec<f64>,
    converged: bool,
    dual: bool,
}

impl<F: Float> Fit<F> for LinearSvc {
    type Target = ArrayRef1<usize>;
    type Model = FittedLinearSvc<F>;

    fn fit(&self, x: &ArrayRef2<F>, y: &ArrayRef1<usize>) -> Result<FittedLinearSvc<F>> {
        self.fit_weighted(x, y, None)
    }
}

impl<F: Float> FitWeighted<F> for LinearSvc {
    /// `Cᵢ = C · class_weight[yᵢ] · sample_weight[i]`; rows of weight 0 are dropped.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<FittedLinearSvc<F>> {
        let setup = self.setup(x, y, sample_weight)?;
        if self.multi_class == MultiClass::CrammerSinger {
            return Ok(self.fit_crammer_singer(&setup, x.ncols()));
        }
        let solver = self.solver(x.nrows(), x.ncols())?;
        let outs = par::map_tasks(setup.problems.len(), |k| {
            let (yk, ck) = &setup.problems[k];
            let out = solve_svc(self, &setup.design, (yk, ck), solver, k);
            let obj = liblinear::primal_objective(
                &setup.design.x,
                yk,
                ck,
                &out.w,
                self.reg(),
                self.core_loss(),
            );
            (out, obj)
        });
        let d = x.ncols();
        let mut coef = Array2::<F>::zeros((outs.len(), d));
        let mut intercept = Array1::<F>::zeros(outs.len());
        for (k, (out, _)) in outs.iter().enumerate() {
            let (w, b) = setup.design.split(&out.w);
            for j in 0..d {
                coef[[k, j]] = F::cast(w[j]);
            }
            intercept[k] = F::cast(b);
        }
        Ok(FittedLinearSvc {
            coef,
            intercept,
            n_classes: setup.n_classes,
            n_iter: outs.iter().map(|(o, _)| o.n_iter).collect(),
            objectives: outs.iter().map(|(_, f)| *f).collect(),
            converged: outs.iter().all(|(o, _)| o.converged),
            dual: matches!(solver, Solver::DualCd(_)),
        })
    }
}

impl LinearSvc {
    /// One joint problem over all classes; for two classes the difference of the two weight
    /// vectors, as scikit-learn.
    fn fit_crammer_singer<F: Float>(&self, setup: &Setup, d: usize) -> FittedLinearSvc<F> {
        let k = setup.n_classes;
        let out = liblinear::crammer_singer(
            &setup.design.x,
            &setup.labels,
            &setup.cs_c,
            k,
            self.tol,
            self.max_iter,
            &mut random::stream(self.random_state, 0),
        );
        let objective = liblinear::crammer_singer_objective(
            &setup.design.x,
            &setup.labels,
            &setup.cs_c,
            &out.w,
            k,
        );
        let p = out.w.len() / k;
        let (mut coef, mut intercept) = (Array2::<f64>::zeros((k, d)), Array1::<f64>::zeros(k));
        for m in 0..k {
            let wm: Vec<f64> = (0..p).map(|j| out.w[j * k + m]).collect();
            let (w, b) = setup.design.split(&wm);
            coef.row_mut(m).assign(&Array1::from(w));
            intercept[m] = b;
        }
        if k == 2 {
            coef = (&coef.row(1) - &coef.row(0)).insert_axis(ndarray::Axis(0));
            intercept = ndarray::array![intercept[1] - intercept[0]];
        }
        FittedLinearSvc {
            coef: coef.mapv(F::cast),
            intercept: intercept.mapv(F::cast),
            n_classes: k,
            n_iter: vec![out.n_iter],
            objectives: vec![objective],
            converged: out.converged,
            dual: true,
        }
    }
}

impl<F: Float> FittedLinearSvc<F> {
    /// scikit-learn's `coef_`: `1 × d` for two classes (positive = class 1), else `K × d`.
    pub fn coef(&self) -> &Array2<F> {
        &self.coef
    }
    /// scikit-learn's `intercept_` (`s · w̃_bias` per problem; zeros without an intercept).
    pub fn intercept(&self) -> &Array1<F> {
        &self.intercept
    }
    /// scikit-learn's `classes_`: the labels `0..K`.
    pub fn classes(&self) -> Vec<usize> {
        (0..self.n_classes).collect()
    }
    /// The number of classes `K`.
    pub fn n_classes(&self) -> usize {
        self.n_classes
    }
    /// scikit-learn's `n_iter_`: the largest number of outer iterations over the problems.
    pub fn n_iter(&self) -> usize {
        self.n_iter.iter().copied().max().unwrap_or(0)
    }
    /// Outer iterations of each problem.
    pub fn n_iter_per_problem(&self) -> &[usize] {
        &self.n_iter
    }
    /// The primal objective each problem reached (see [`LinearSvc::objective`]).
    pub fn objectives(&self) -> &[f64] {
        &self.objectives
    }
    /// Whether every problem met its tolerance within `max_iter`.
    pub fn converged(&self) -> bool {
        self.converged
    }
    /// Whether the dual was solved (the resolved `dual`).
    pub fn dual(&self) -> bool {
        self.dual
    }
}

impl<F: Float> DecisionFunction<F> for FittedLinearSvc<F> {
    /// `X wₖᵀ + bₖ`: `n × 1` for two classes (positive = class 1), else `n × K`.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        validate::check_predict_input(x, self.coef.ncols(), "LinearSvc::predict")?;
        if self.coef.nrows() == 1 {
            // one score column: a matrix-vector product (gemv), not a one-column gemm
            let z = x.dot(&self.coef.row(0)) + self.intercept[0];
            return Ok(z.insert_axis(ndarray::Axis(1)));
        }
        Ok(x.dot(&self.coef.t()) + &self.intercept)
    }
}

impl<F: Float> Predict<F> for FittedLinearSvc<F> {
    type Output = Array1<usize>;

    /// Class 1 where the score is positive (two classes), else the class of largest score
    /// (the first on ties).
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let z = self.decision_function(x)?;
        if self.n_classes == 2 {
            Ok(z.column(0).mapv(|v| usize::from(v > F::zero())))
        } else {
            Ok(numeric::argmax_rows(&z))
        }
    }
}

impl<F: Float> NFeaturesIn for FittedLinearSvc<F> {
    fn n_features_in(&self) -> usize {
        self.coef.ncols()
    }
}

impl<F: Float> CheckModel for FittedLinearSvc<F> {
    fn check_model(&self) -> Result<()> {
        let c = ModelCheck::new("FittedLinearSvc");
        let k = self.n_classes;
        c.at_least("n_classes", k, 2)?;
        // one score row for two classes, one per class otherwise
        let rows = if k == 2 { 1 } else { k };
        let d = self.coef.ncols();
        c.at_least("coef (features)", d, 1)?;
        c.shape("coef", self.coef.dim(), (rows, d))?;
        c.len("intercept", self.intercept.len(), rows)?;
        c.finite("coef", &self.coef)?;
        c.finite("intercept", &self.intercept)?;
        // one record per problem: one per row (one-vs-rest) or a single one (Crammer–Singer)
        let m = self.n_iter.len();
        c.that(m == 1 || m == rows, || {
            format!("{m} solver records for {rows} score rows")
        })?;
        c.len("objectives", self.objectives.len(), m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn invalid_combinations_are_refused_like_scikit_learn() {
        let l1_hinge = LinearSvc::default()
            .penalty(Penalty::L1)
            .loss(SvcLoss::Hinge);
        assert!(matches!(
            l1_hinge.validate(),
            Err(Error::InvalidParam { .. })
        ));
        let hinge_primal = LinearSvc::default().loss(SvcLoss::Hinge).dual(Dual::Primal);
        assert!(hinge_primal.validate().is_err());
        let l1_dual = LinearSvc::default().penalty(Penalty::L1).dual(Dual::Dual);
        assert!(l1_dual.validate().is_err());
        assert!(LinearSvc::default().c(0.0).validate().is_err());
        assert!(LinearSvc::default().tol(-1.0).validate().is_err());
        assert!(
            LinearSvc::default()
                .intercept_scaling(0.0)
                .validate()
                .is_err()
        );
        assert!(LinearSvc::default().loss(SvcLoss::Hinge).validate().is_ok());
        assert!(LinearSvc::default().penalty(Penalty::L1).validate().is_ok());
        // Crammer–Singer ignores penalty, loss and dual, as scikit-learn
        let cs = l1_hinge.multi_class(MultiClass::CrammerSinger);
        assert!(cs.validate().is_ok());
        assert!(cs.resolves_to_dual(100, 10).expect("ok"));
    }

    #[test]
    fn auto_dual_follows_validate_dual_parameter() {
        let m = LinearSvc::default();
        assert!(!m.resolves_to_dual(100, 10).expect("ok"));
        assert!(m.resolves_to_dual(10, 100).expect("ok"));
        assert!(m.resolves_to_dual(10, 10).map(|d| !d).expect("ok"));
        let hinge = LinearSvc::default().loss(SvcLoss::Hinge);
        assert!(hinge.resolves_to_dual(100, 10).expect("ok"));
        let l1 = LinearSvc::default().penalty(Penalty::L1);
        assert!(!l1.resolves_to_dual(10, 100).expect("ok"));
    }

    #[test]
    fn separable_points_are_classified_and_bad_input_refused() {
        let x = array![[0.0, 0.0], [0.0, 1.0], [3.0, 3.0], [3.0, 4.0]];
        let y = array![0usize, 0, 1, 1];
        for est in [
            LinearSvc::default(),
            LinearSvc::default().dual(Dual::Dual),
            LinearSvc::default().loss(SvcLoss::Hinge),
            LinearSvc::default().penalty(Penalty::L1),
        ] {
            let m = est.fit(&x, &y).expect("fit");
            assert_eq!(m.predict(&x).expect("predict"), y);
        }
        let m = LinearSvc::default().fit(&x, &y).expect("fit");
        assert!(m.predict(&array![[1.0, 2.0, 3.0]]).is_err());
        assert!(
            LinearSvc::default()
                .fit(&x, &array![0usize, 0, 0, 0])
                .is_err()
        );
        let mut bad = x.clone();
        bad[[0, 0]] = f64::NAN;
        assert!(LinearSvc::default().fit(&bad, &y).is_err());
        assert!(LinearSvc::default().fit(&x, &array![0usize, 1]).is_err());
        let empty = Array2::<f64>::zeros((0, 2));
        assert!(LinearSvc::default().fit(&empty, &array![]).is_err());
    }

    #[test]
    fn check_model_accepts_the_fits_and_refuses_broken_coefficients() {
        let x = array![
            [0.0, 0.0],
            [0.0, 1.0],
            [3.0, 3.0],
            [3.0, 4.0],
            [6.0, 0.0],
            [6.0, 1.0]
        ];
        let y = array![0usize, 0, 1, 1, 2, 2];
        let m: FittedLinearSvc<f64> = LinearSvc::default().fit(&x, &y).expect("fit");
        assert!(m.check_model().is_ok());
        let cs: FittedLinearSvc<f64> = LinearSvc::default()
            .multi_class(MultiClass::CrammerSinger)
            .fit(&x, &y)
            .expect("fit");
        assert!(cs.check_model().is_ok());
        let invalid = |r: Result<()>| matches!(r, Err(Error::InvalidModel { .. }));
        let mut bad = m.clone();
        bad.intercept = array![0.0, 1.0]; // three score rows
        assert!(invalid(bad.check_model()));
        let mut bad = m.clone();
        bad.coef[[2, 1]] = f64::NAN;
        assert!(invalid(bad.check_model()));
        let mut bad = m;
        bad.n_classes = 2; // two classes have one score row
        assert!(invalid(bad.check_model()));
    }
}
