//! [`Pipeline`]: a chain of transformers ending in any estimator, itself an estimator
//! (scikit-learn's `sklearn.pipeline.Pipeline`).
//!
//! `fit` fits each transformer on the output of the previous one and the final estimator on the
//! last output; the fitted [`FittedPipeline`] applies the fitted transformers in order and then
//! predicts (`predict`, `predict_proba`, `decision_function`) or transforms. Because the whole
//! chain is one estimator, cross-validation and searches refit the transformers on every
//! training fold (a scaler never sees its test fold: no leakage).
//!
//! The steps are a tuple, checked at compile time: `(StandardScaler::new(),)`,
//! `(StandardScaler::new(), Pca::new(10))`, up to eight steps, or `()` for none. A step is any
//! unsupervised estimator whose fitted model implements [`Transform`] (scalers, encoders,
//! imputers, decompositions). The final estimator is any [`Fit`] (classifier, regressor) or
//! [`FitUnsupervised`] (clusterer, transformer). Transformers that need the target at fit
//! (supervised feature selectors) are not steps: the blanket implementation over
//! [`FitUnsupervised`] cannot coexist with a second one over [`Fit`] under Rust's coherence
//! rules; select features inside the final estimator's closure or before the pipeline.
//!
//! ## Step-prefixed parameters
//!
//! Every step has a name (by default the snake_case of its type, `standard_scaler`, `ridge`; set
//! them with [`Pipeline::names`]). With the `serde` feature, [`Pipeline::with_params`] sets
//! `"<step>__<param>"` values of a
//! [`ParamPoint`](crate::model_selection::ParamPoint) (scikit-learn's `ridge__alpha`), which is how
//! a grid search varies a step:
//!
//! ```
//! use ndlearn_core::Fit;
//! use ndlearn_core::model_selection::{GridSearchCV, KFold, ParamGrid, ParamPoint, Scorer};
//! use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
//! use ndlearn_core::pipeline::Pipeline;
//! use ndlearn_core::preprocessing::StandardScaler;
//! # use ndlearn_core::{Estimator, Predict, Result};
//! # /// y ≈ a + b · (row sum), with b shrunk by `alpha`: a stand-in for an algorithm crate's
//! # /// regressor.
//! # #[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
//! # struct Shrunk { alpha: f64 }
//! # struct FittedShrunk { a: f64, b: f64 }
//! # impl Fit<f64> for Shrunk {
//! #     type Target = ArrayRef1<f64>;
//! #     type Model = FittedShrunk;
//! #     fn fit(&self, x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<FittedShrunk> {
//! #         let m = x.rows().into_iter().map(|r| r.sum()).collect::<Array1<f64>>();
//! #         let (mm, ym) = (m.mean().unwrap_or(0.0), y.mean().unwrap_or(0.0));
//! #         let (dm, dy) = (&m - mm, y - ym);
//! #         let b = dm.dot(&dy) / (dm.dot(&dm) + self.alpha);
//! #         Ok(FittedShrunk { a: ym - b * mm, b })
//! #     }
//! # }
//! # impl Predict<f64> for FittedShrunk {
//! #     type Output = Array1<f64>;
//! #     fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
//! #         Ok(x.rows().into_iter().map(|r| self.a + self.b * r.sum()).collect())
//! #     }
//! # }
//! let x = Array2::from_shape_fn((40, 2), |(i, j)| (i * (j + 1)) as f64);
//! let y = Array1::from_shape_fn(40, |i| 3.0 * i as f64);
//! let pipe = Pipeline::new((StandardScaler::new(),), Shrunk { alpha: 1.0 });
//! assert_eq!(pipe.step_names(), ["standard_scaler", "shrunk"]);
//!
//! let grid = ParamGrid::new().param("shrunk__alpha", vec![0.1, 100.0]);
//! let r2 = Scorer::R2.for_regressor()?;
//! let build = |p: &ParamPoint| pipe.with_params(p);
//! let search = GridSearchCV::new(KFold::new(4)).fit_grid(&grid, build, &x, &y, r2)?;
//! assert_eq!(search.best_candidate().estimator.alpha, 0.1);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```
//!
//! ## Weights
//!
//! [`FitWeighted`] passes the sample weights to the final estimator only; the transformers are
//! fitted unweighted (scikit-learn routes `sample_weight` to the steps that ask for it; here
//! the steps never do).

use std::any::type_name;

use ndarray::{Array2, ArrayRef1, ArrayRef2};

use crate::traits::{
    DecisionFunction, Estimator, Fit, FitUnsupervised, FitWeighted, NFeaturesIn, Predict,
    PredictProba, Transform,
};
use crate::{Float, Result};

/// A transformer step of a [`Pipeline`]: fitted on the rows (the trait passes the target `Y`
/// too, so that a supervised transformer can implement it), its model transforms rows.
///
/// Implemented for every [`FitUnsupervised`] estimator whose model implements [`Transform`].
/// The target parameter `Y` is the final estimator's; steps ignore it.
pub trait Step<F: Float, Y: ?Sized> {
    /// The fitted step.
    type Fitted: Transform<F>;
    /// Fits the step on `x` (and `y` for supervised steps).
    ///
    /// # Errors
    /// The step's own fit errors.
    fn fit_step(&self, x: &ArrayRef2<F>, y: &Y) -> Result<Self::Fitted>;
}

impl<F, Y, T> Step<F, Y> for T
where
    F: Float,
    Y: ?Sized,
    T: FitUnsupervised<F>,
    T::Model: Transform<F>,
{
    type Fitted = T::Model;

    fn fit_step(&self, x: &ArrayRef2<F>, _y: &Y) -> Result<T::Model> {
        FitUnsupervised::fit(self, x)
    }
}

/// The tuple of transformer steps of a [`Pipeline`]: `()`, `(A,)`, `(A, B)`, … up to eight.
pub trait Steps<F: Float, Y: ?Sized> {
    /// The tuple of fitted steps.
    type Fitted: TransformSteps<F>;
    /// Fits every step in order, each on the previous one's output; returns the fitted steps and
    /// the last output (`None` when there is no step: the input itself).
    ///
    /// # Errors
    /// The first step error.
    fn fit_steps(&self, x: &ArrayRef2<F>, y: &Y) -> Result<(Self::Fitted, Option<Array2<F>>)>;
}

/// The fitted steps of a [`FittedPipeline`]: applies them in order.
pub trait TransformSteps<F: Float> {
    /// The output of the last step (`None` when there is no step: the input itself).
    ///
    /// # Errors
    /// The first transform error (feature count, non-finite input, ...).
    fn transform_steps(&self, x: &ArrayRef2<F>) -> Result<Option<Array2<F>>>;
}

/// What every step of a tuple offers without the element type: checks and names.
pub trait StepList {
    /// The number of steps.
    const LEN: usize;
    /// [`Estimator::validate`] of every step, in order.
    ///
    /// # Errors
    /// The first invalid step's error.
    fn validate_steps(&self) -> Result<()>;
    /// The default step names: the snake_case of each step's type name.
    fn default_names() -> Vec<String>;
}

impl<F: Float, Y: ?Sized> Steps<F, Y> for () {
    type Fitted = ();
    fn fit_steps(&self, _x: &ArrayRef2<F>, _y: &Y) -> Result<((), Option<Array2<F>>)> {
        Ok(((), None))
    }
}

impl<F: Float> TransformSteps<F> for () {
    fn transform_steps(&self, _x: &ArrayRef2<F>) -> Result<Option<Array2<F>>> {
        Ok(None)
    }
}

impl StepList for () {
    const LEN: usize = 0;
    fn validate_steps(&self) -> Result<()> {
        Ok(())
    }
    fn default_names() -> Vec<String> {
        Vec::new()
    }
}

macro_rules! tuple_steps {
    ($n:expr; $first:ident $f0:tt $(, $name:ident $idx:tt)*) => {
        impl<F: Float, Y: ?Sized, $first: Step<F, Y> $(, $name: Step<F, Y>)*> Steps<F, Y>
            for ($first, $($name,)*)
        {
            type Fitted = ($first::Fitted, $($name::Fitted,)*);

            // The fitted steps are bound to their type parameter's name.
            #[allow(non_snake_case)]
            fn fit_steps(
                &self,
                x: &ArrayRef2<F>,
                y: &Y,
            ) -> Result<(Self::Fitted, Option<Array2<F>>)> {
                let fitted = self.$f0.fit_step(x, y)?;
                let out = fitted.transform(x)?;
                $(
                    let $name = self.$idx.fit_step(&out, y)?;
                    let out = $name.transform(&out)?;
                )*
                Ok(((fitted, $($name,)*), Some(out)))
            }
        }

        impl<F: Float, $first: Transform<F> $(, $name: Transform<F>)*> TransformSteps<F>
            for ($first, $($name,)*)
        {
            fn transform_steps(&self, x: &ArrayRef2<F>) -> Result<Option<Array2<F>>> {
                let out = self.$f0.transform(x)?;
                $( let out = self.$idx.transform(&out)?; )*
                Ok(Some(out))
            }
        }

        impl<$first: Estimator $(, $name: Estimator)*> StepList for ($first, $($name,)*) {
            const LEN: usize = $n;
            fn validate_steps(&self) -> Result<()> {
                self.$f0.validate()?;
                $( self.$idx.validate()?; )*
                Ok(())
            }
            fn default_names() -> Vec<String> {
                vec![type_snake_name::<$first>() $(, type_snake_name::<$name>())*]
            }
        }
    };
}

tuple_steps!(1; A 0);
tuple_steps!(2; A 0, B 1);
tuple_steps!(3; A 0, B 1, C 2);
tuple_steps!(4; A 0, B 1, C 2, D 3);
tuple_steps!(5; A 0, B 1, C 2, D 3, E 4);
tuple_steps!(6; A 0, B 1, C 2, D 3, E 4, G 5);
tuple_steps!(7; A 0, B 1, C 2, D 3, E 4, G 5, H 6);
tuple_steps!(8; A 0, B 1, C 2, D 3, E 4, G 5, H 6, I 7);

/// `ndlearn_core::preprocessing::StandardScaler` → `standard_scaler` (generic arguments and the
/// module path dropped).
fn type_snake_name<T: ?Sized>() -> String {
    let full = type_name::<T>();
    let base = full.split('<').next().unwrap_or(full);
    let last = base.rsplit("::").next().unwrap_or(base);
    let mut out = String::with_capacity(last.len() + 4);
    let chars: Vec<char> = last.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() {
            let prev_lower =
                i > 0 && (chars[i - 1].is_ascii_lowercase() || chars[i - 1].is_ascii_digit());
            let next_lower = chars.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
            if i > 0 && (prev_lower || (next_lower && chars[i - 1].is_ascii_uppercase())) {
                out.push('_');
            }
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// A chain of transformer steps ending in an estimator (see the [module docs](self)).
///
/// | field | meaning | scikit-learn |
/// |---|---|---|
/// | `steps` | the transformers, a tuple, applied in order | `steps[:-1]` |
/// | `estimator` | the final estimator | `steps[-1]` |
/// | `names` | one name per step, then the estimator's, for `"<step>__<param>"` | the step names |
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pipeline<S, E> {
    /// The transformer steps (a tuple).
    pub steps: S,
    /// The final estimator.
    pub estimator: E,
    /// Step names (`steps` in order, then the final estimator).
    pub names: Vec<String>,
}

impl<S: StepList, E> Pipeline<S, E> {
    /// A pipeline with the default step names (the snake_case of each type's name).
    pub fn new(steps: S, estimator: E) -> Self {
        let mut names = S::default_names();
        names.push(type_snake_name::<E>());
        Self {
            steps,
            estimator,
            names,
        }
    }

    /// Sets the step names (`steps` in order, then the final estimator), for step-prefixed
    /// parameters. Checked by [`Estimator::validate`] (count and uniqueness).
    pub fn names<I: IntoIterator<Item = N>, N: Into<String>>(mut self, names: I) -> Self {
        self.names = names.into_iter().map(Into::into).collect();
        self
    }

    /// The step names, the final estimator's last.
    pub fn step_names(&self) -> &[String] {
        &self.names
    }

    fn check_names(&self) -> Result<()> {
        let want = S::LEN + 1;
        if self.names.len() != want {
            return Err(crate::Error::invalid_param(
                "names",
                format!(
                    "{} names for {want} steps (the transformers, then the estimator)",
                    self.names.len()
                ),
            ));
        }
        for (i, n) in self.names.iter().enumerate() {
            if n.is_empty() || n.contains("__") {
                return Err(crate::Error::invalid_param(
                    "names",
                    format!("step name `{n}` must be non-empty and free of `__`"),
                ));
            }
            if self.names[..i].contains(n) {
                return Err(crate::Error::invalid_param(
                    "names",
                    format!("step name `{n}` is used twice"),
                ));
            }
        }
        Ok(())
    }
}

impl<S: StepList, E: Estimator> Estimator for Pipeline<S, E> {
    /// Checks the names, every step and the final estimator.
    fn validate(&self) -> Result<()> {
        self.check_names()?;
        self.steps.validate_steps()?;
        self.estimator.validate()
    }
}

impl<F, S, E> Fit<F> for Pipeline<S, E>
where
    F: Float,
    E: Fit<F>,
    S: Steps<F, E::Target> + StepList,
{
    type Target = E::Target;
    type Model = FittedPipeline<S::Fitted, E::Model>;

    /// Fits the steps in order, then the estimator on the last step's output.
    fn fit(&self, x: &ArrayRef2<F>, y: &E::Target) -> Result<Self::Model> {
        self.check_names()?;
        let (steps, out) = self.steps.fit_steps(x, y)?;
        let model = self.estimator.fit(out.as_ref().map_or(x, |a| a), y)?;
        Ok(FittedPipeline {
            steps,
            model,
            n_features_in: x.ncols(),
        })
    }
}

impl<F, S, E> FitWeighted<F> for Pipeline<S, E>
where
    F: Float,
    E: FitWeighted<F>,
    S: Steps<F, E::Target> + StepList,
{
    /// Fits the steps unweighted and the final estimator with the weights.
    fn fit_weighted(
        &self,
        x: &ArrayRef2<F>,
        y: &E::Target,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<Self::Model> {
        self.check_names()?;
        let (steps, out) = self.steps.fit_steps(x, y)?;
        let model = self
            .estimator
            .fit_weighted(out.as_ref().map_or(x, |a| a), y, sample_weight)?;
        Ok(FittedPipeline {
            steps,
            model,
            n_features_in: x.ncols(),
        })
    }
}

impl<F, S, E> FitUnsupervised<F> for Pipeline<S, E>
where
    F: Float,
    E: FitUnsupervised<F>,
    S: Steps<F, ()> + StepList,
{
    type Model = FittedPipeline<S::Fitted, E::Model>;

    /// Fits the steps in order, then the (unsupervised) estimator on the last output.
    fn fit(&self, x: &ArrayRef2<F>) -> Result<Self::Model> {
        self.check_names()?;
        let (steps, out) = self.steps.fit_steps(x, &())?;
        let model = self.estimator.fit(out.as_ref().map_or(x, |a| a))?;
        Ok(FittedPipeline {
            steps,
            model,
            n_features_in: x.ncols(),
        })
    }
}

#[cfg(feature = "serde")]
impl<S, E> Pipeline<S, E>
where
    Self: serde::Serialize + serde::de::DeserializeOwned,
    S: StepList,
{
    /// A copy with the `"<step>__<param>"` values of `point` set (scikit-learn's
    /// `set_params(ridge__alpha=0.1)`), through each step's serde form: a boolean parameter
    /// takes `0`/`1`, an integer one an integral value; enum-valued parameters are set in a
    /// builder closure instead. Names without `__` are an error (there is no pipeline-level
    /// parameter).
    ///
    /// # Errors
    /// [`Error::InvalidParam`](crate::Error::InvalidParam) for an unknown step or parameter, a
    /// value of the wrong kind, or a result the step rejects.
    pub fn with_params(&self, point: &crate::model_selection::ParamPoint) -> Result<Self> {
        let ser = |e: serde_json::Error| crate::Error::invalid_param("params", e.to_string());
        let mut v = serde_json::to_value(self).map_err(ser)?;
        for (key, value) in point.iter() {
            let Some((step, param)) = key.split_once("__") else {
                return Err(crate::Error::invalid_param(
                    "params",
                    format!(
                        "`{key}` has no `<step>__` prefix; steps: {}",
                        self.names.join(", ")
                    ),
                ));
            };
            let Some(i) = self.names.iter().position(|n| n == step) else {
                return Err(crate::Error::invalid_param(
                    "params",
                    format!(
                        "no step `{step}` (in `{key}`); steps: {}",
                        self.names.join(", ")
                    ),
                ));
            };
            let target = if i < S::LEN {
                // One step: a tuple of one serialises as a one-element array.
                v.get_mut("steps").and_then(|s| s.get_mut(i))
            } else {
                v.get_mut("estimator")
            };
            let Some(obj) = target.and_then(serde_json::Value::as_object_mut) else {
                return Err(crate::Error::invalid_param(
                    "params",
                    format!("step `{step}` has no named parameters"),
                ));
            };
            crate::model_selection::set_json_param(obj, param, value, step)?;
        }
        serde_json::from_value(v).map_err(ser)
    }
}

/// A fitted [`Pipeline`]: the fitted steps and the fitted final model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FittedPipeline<T, M> {
    steps: T,
    model: M,
    n_features_in: usize,
}

impl<T, M> FittedPipeline<T, M> {
    /// The fitted transformer steps (a tuple).
    pub fn steps(&self) -> &T {
        &self.steps
    }

    /// The fitted final model.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// Applies the fitted steps to `x` (scikit-learn's `pipeline[:-1].transform(x)`).
    ///
    /// # Errors
    /// A step's transform error (wrong feature count, non-finite input, ...).
    pub fn transform_input<F: Float>(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>
    where
        T: TransformSteps<F>,
    {
        Ok(self
            .steps
            .transform_steps(x)?
            .unwrap_or_else(|| x.to_owned()))
    }

    fn through<F: Float, R>(
        &self,
        x: &ArrayRef2<F>,
        f: impl FnOnce(&ArrayRef2<F>) -> Result<R>,
    ) -> Result<R>
    where
        T: TransformSteps<F>,
    {
        crate::validate::check_n_features(x.ncols(), self.n_features_in, "Pipeline")?;
        match self.steps.transform_steps(x)? {
            Some(out) => f(&out),
            None => f(x),
        }
    }
}

impl<T, M> NFeaturesIn for FittedPipeline<T, M> {
    fn n_features_in(&self) -> usize {
        self.n_features_in
    }
}

impl<F: Float, T: TransformSteps<F>, M: Predict<F>> Predict<F> for FittedPipeline<T, M> {
    type Output = M::Output;

    /// Transforms through the steps, then predicts.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<M::Output> {
        self.through(x, |z| self.model.predict(z))
    }
}

impl<F: Float, T: TransformSteps<F>, M: PredictProba<F>> PredictProba<F> for FittedPipeline<T, M> {
    /// Transforms through the steps, then gives the final model's probabilities.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.through(x, |z| self.model.predict_proba(z))
    }
}

impl<F: Float, T: TransformSteps<F>, M: DecisionFunction<F>> DecisionFunction<F>
    for FittedPipeline<T, M>
{
    /// Transforms through the steps, then gives the final model's decision values.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.through(x, |z| self.model.decision_function(z))
    }
}

impl<F: Float, T: TransformSteps<F>, M: Transform<F>> Transform<F> for FittedPipeline<T, M> {
    /// Transforms through the steps and the final transformer.
    fn transform(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        self.through(x, |z| self.model.transform(z))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::preprocessing::{MinMaxScaler, StandardScaler};
    use ndarray::array;

    struct MLPClassifier;
    struct KMeans;
    struct Pca;

    #[test]
    fn default_names_are_snake_case_type_names() {
        assert_eq!(type_snake_name::<StandardScaler>(), "standard_scaler");
        assert_eq!(type_snake_name::<MLPClassifier>(), "mlp_classifier");
        assert_eq!(type_snake_name::<KMeans>(), "k_means");
        assert_eq!(type_snake_name::<Pca>(), "pca");
        assert_eq!(type_snake_name::<Vec<f64>>(), "vec");
        let p = Pipeline::new(
            (StandardScaler::new(), MinMaxScaler::default()),
            StandardScaler::new(),
        );
        assert_eq!(
            p.step_names(),
            ["standard_scaler", "min_max_scaler", "standard_scaler"]
        );
        // Duplicate default names must be renamed before use.
        assert!(p.validate().is_err());
        assert!(p.clone().names(["a", "b", "c"]).validate().is_ok());
        assert!(p.clone().names(["a", "b__x", "c"]).validate().is_err());
    }

    #[test]
    fn transformer_chain_applies_each_step_to_the_previous_output() -> Result<()> {
        let x = array![[1.0, 10.0], [2.0, 30.0], [3.0, 50.0], [6.0, 10.0]];
        let p = Pipeline::new((StandardScaler::new(),), MinMaxScaler::default());
        let fitted = FitUnsupervised::fit(&p, &x)?;
        let by_hand = {
            let s = FitUnsupervised::fit(&StandardScaler::new(), &x)?.transform(&x)?;
            FitUnsupervised::fit(&MinMaxScaler::default(), &s)?.transform(&s)?
        };
        assert_eq!(fitted.transform(&x)?, by_hand);
        assert_eq!(fitted.n_features_in(), 2);
        assert!(fitted.transform(&array![[1.0]]).is_err());
        assert!(fitted.transform(&array![[f64::NAN, 1.0]]).is_err());
        Ok(())
    }

    #[cfg(feature = "serde")]
    #[test]
    fn step_prefixed_parameters_set_booleans_and_report_bad_names() -> Result<()> {
        use crate::model_selection::ParamPoint;
        let p = Pipeline::new((StandardScaler::new(),), MinMaxScaler::default()).names(["s", "m"]);
        let q = p.with_params(&ParamPoint::new([("s__with_mean".to_string(), 0.0)]))?;
        assert!(!q.steps.0.with_mean && p.steps.0.with_mean);
        for bad in [
            "s__with_mean=2",
            "x__with_mean=0",
            "with_mean=0",
            "s__nope=1",
        ] {
            let (k, v) = bad.split_once('=').unwrap_or_default();
            let point = ParamPoint::new([(k.to_string(), v.parse().unwrap_or(0.0))]);
            assert!(p.with_params(&point).is_err(), "{bad}");
        }
        Ok(())
    }
}
