//! A user `init` estimator for exact gradient boosting (scikit-learn's `init=estimator`).
//!
//! The boosting starts from a fitted model's predictions instead of a constant:
//! `F₀(x) = g(m(x))`, where `m` is the init estimator fitted on the training part (after the
//! early-stopping split, as scikit-learn's `init_.fit(X_train, y_train)`) and `g` the loss's
//! link, as scikit-learn's `_init_raw_predictions`:
//!
//! | loss | `F₀(x)` from the init model |
//! |---|---|
//! | regression (every loss) | `m.predict(x)` |
//! | binomial log-loss | `logit(p₁)` with `p = m.predict_proba(x)` clipped to `[ε, 1 − ε]` |
//! | exponential | `½ logit(p₁)` |
//! | multinomial log-loss | `log p_k − mean_j log p_j` (the symmetric multinomial logit) |
//!
//! with `ε` the float64 machine epsilon (scikit-learn 1.9's clip). The trees then fit the
//! pseudo-residuals of `F₀` exactly as with a constant start; the fitted
//! [`GradientBoostingWithInit`] keeps both models and predicts `F₀(x) + λ Σ_m tree_m(x)`.

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
use ndlearn_core::{
    DecisionFunction, Error, FeatureImportances, Fit, FitWeighted, Float, NFeaturesIn, Predict,
    PredictProba, Result,
};

use super::{
    FittedGradientBoostingClassifier, FittedGradientBoostingRegressor,
    GradientBoostingClassificationLoss, GradientBoostingClassifier, GradientBoostingRegressor,
};

/// The boosting's hook for per-row starting scores: called once with the training part's
/// `x`, targets (class indices as `f64` for classifiers) and weights, and the validation
/// part's `x`; returns the starting raw scores of both parts (`n × K`, row-major).
pub(super) type StartFn<'a, F> = dyn FnMut(&ArrayRef2<F>, &[f64], Option<&[f64]>, &ArrayRef2<F>) -> Result<(Vec<f64>, Vec<f64>)>
    + 'a;

/// Errors unless `raw` holds `n × k` finite starting scores.
pub(super) fn check_start(raw: &[f64], n: usize, k: usize) -> Result<()> {
    if raw.len() != n * k {
        return Err(Error::invalid_param(
            "init",
            format!(
                "the init estimator gave {} starting scores for {n} rows × {k} trees per stage",
                raw.len()
            ),
        ));
    }
    if let Some(i) = raw.iter().position(|v| !v.is_finite()) {
        return Err(Error::invalid_param(
            "init",
            format!(
                "the init estimator's starting score of row {} is not finite",
                i / k.max(1)
            ),
        ));
    }
    Ok(())
}

/// A gradient-boosting model started from a fitted `init` estimator (scikit-learn's
/// `GradientBoosting*(init=estimator)`): the init model `M` and the boosted stages `G`
/// ([`FittedGradientBoostingRegressor`] or [`FittedGradientBoostingClassifier`], whose own
/// starting constant is 0). Built by [`GradientBoostingRegressor::fit_with_init`] and
/// friends. The starting raw score `F₀(x)` from the init model `m`, as scikit-learn's
/// `_init_raw_predictions`, with probabilities clipped to `[ε, 1 − ε]` (`ε` the float64
/// machine epsilon):
///
/// | loss | `F₀(x)` |
/// |---|---|
/// | regression (every loss) | `m.predict(x)` |
/// | binomial log-loss | `logit(p₁)`, `p = m.predict_proba(x)` |
/// | exponential | `½ logit(p₁)` |
/// | multinomial log-loss | `log p_k − mean_j log p_j` |
///
/// ```
/// use ndarray::{Array1, Array2};
/// use ndlearn_core::{Estimator, Fit, Predict, Result};
/// use ndlearn_tree::{DecisionTreeRegressor, GradientBoostingRegressor};
///
/// // a depth-1 tree as the init model, then 20 boosted stages on its residuals
/// let x = Array2::from_shape_fn((60, 2), |(i, j)| ((i * (j + 3)) % 17) as f64);
/// let y: Array1<f64> = x.rows().into_iter().map(|r| 2.0 * r[0] - r[1]).collect();
/// let init = DecisionTreeRegressor::default().max_depth(Some(1));
/// let fit = GradientBoostingRegressor::default()
///     .n_estimators(20)
///     .fit_with_init(&init, &x, &y)?;
/// let mse = |p: Array1<f64>| (&p - &y).mapv(|e| e * e).mean().unwrap_or(f64::NAN);
/// let (start, boosted) = (mse(fit.init_model().predict(&x)?), mse(fit.predict(&x)?));
/// assert!(boosted < 0.25 * start, "{boosted} vs {start}");
/// assert_eq!(fit.boosted().n_estimators(), 20);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GradientBoostingWithInit<M, G> {
    init: M,
    boosted: G,
}

impl<M, G> GradientBoostingWithInit<M, G> {
    /// The fitted init model (scikit-learn's `init_`).
    pub fn init_model(&self) -> &M {
        &self.init
    }

    /// The boosted stages (trees, training scores, importances); their own starting constant is
    /// 0, so their predictions alone lack `F₀(x)`.
    pub fn boosted(&self) -> &G {
        &self.boosted
    }

    /// The two parts.
    pub fn into_parts(self) -> (M, G) {
        (self.init, self.boosted)
    }
}

/// The init model's regression predictions as starting scores (`n × 1`).
fn regression_start<F: Float, M: Predict<F, Output = Array1<F>>>(
    m: &M,
    x: &ArrayRef2<F>,
) -> Result<Vec<f64>> {
    if x.nrows() == 0 {
        return Ok(Vec::new());
    }
    Ok(m.predict(x)?.iter().map(|v| v.to_f64_lossless()).collect())
}

/// The init model's class probabilities through the loss's link (`n × 1` for two classes,
/// `n × K` otherwise; the table of [`GradientBoostingWithInit`]).
fn classification_start<F: Float, M: PredictProba<F>>(
    m: &M,
    x: &ArrayRef2<F>,
    exponential: bool,
) -> Result<Vec<f64>> {
    if x.nrows() == 0 {
        return Ok(Vec::new());
    }
    let p = m.predict_proba(x)?;
    let eps = f64::EPSILON;
    let clip = |v: F| v.to_f64_lossless().clamp(eps, 1.0 - eps);
    let k = p.ncols();
    if k == 2 {
        let scale = if exponential { 0.5 } else { 1.0 };
        Ok(p.column(1)
            .iter()
            .map(|&v| {
                let p1 = clip(v);
                scale * (p1 / (1.0 - p1)).ln()
            })
            .collect())
    } else {
        let mut out = Vec::with_capacity(p.len());
        for row in p.rows() {
            let logs: Vec<f64> = row.iter().map(|&v| clip(v).ln()).collect();
            let mean = logs.iter().sum::<f64>() / k as f64;
            out.extend(logs.iter().map(|l| l - mean));
        }
        Ok(out)
    }
}

/// Checked starting scores as an `n × k` matrix.
fn start_matrix(start: Vec<f64>, n: usize, k: usize) -> Result<Array2<f64>> {
    check_start(&start, n, k)?;
    Array2::from_shape_vec((n, k), start).map_err(|e| Error::invalid_param("init", e.to_string()))
}

fn to_array<F: Float>(v: &[f64]) -> Array1<F> {
    v.iter().map(|&x| F::cast(x)).collect()
}

fn missing_init() -> Error {
    Error::invalid_param("init", "the boosting did not call the init estimator")
}

impl GradientBoostingRegressor {
    /// Fits `init` on the training rows and boosts from its predictions (scikit-learn's
    /// `GradientBoostingRegressor(init=estimator).fit(X, y)`); with early stopping, `init`
    /// sees only the training part of the split. The `init` hyperparameter (constant / zero)
    /// is not used.
    ///
    /// # Errors
    /// The errors of [`Fit::fit`], the init estimator's, and non-finite init predictions.
    pub fn fit_with_init<F, E>(
        &self,
        init: &E,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
    ) -> Result<GradientBoostingWithInit<E::Model, FittedGradientBoostingRegressor<F>>>
    where
        F: Float,
        E: Fit<F, Target = ArrayRef1<F>>,
        E::Model: Predict<F, Output = Array1<F>>,
    {
        self.boost_from(x, y, None, |xt, yt, _| init.fit(xt, yt))
    }

    /// [`GradientBoostingRegressor::fit_with_init`] with per-sample weights, passed to the
    /// init estimator's weighted fit as well (scikit-learn's `sample_weight`).
    ///
    /// # Errors
    /// As [`GradientBoostingRegressor::fit_with_init`], and bad weights.
    pub fn fit_weighted_with_init<F, E>(
        &self,
        init: &E,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<GradientBoostingWithInit<E::Model, FittedGradientBoostingRegressor<F>>>
    where
        F: Float,
        E: FitWeighted<F, Target = ArrayRef1<F>>,
        E::Model: Predict<F, Output = Array1<F>>,
    {
        self.boost_from(x, y, sample_weight, |xt, yt, wt| {
            init.fit_weighted(xt, yt, wt)
        })
    }

    fn boost_from<F, M>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<F>,
        sample_weight: Option<&ArrayRef1<F>>,
        fit: impl Fn(&ArrayRef2<F>, &ArrayRef1<F>, Option<&ArrayRef1<F>>) -> Result<M>,
    ) -> Result<GradientBoostingWithInit<M, FittedGradientBoostingRegressor<F>>>
    where
        F: Float,
        M: Predict<F, Output = Array1<F>>,
    {
        let mut model: Option<M> = None;
        let mut start = |xt: &ArrayRef2<F>, yt: &[f64], wt: Option<&[f64]>, xv: &ArrayRef2<F>| {
            let w = wt.map(to_array::<F>);
            let m = fit(xt, &to_array::<F>(yt), w.as_deref())?;
            let out = (regression_start(&m, xt)?, regression_start(&m, xv)?);
            model = Some(m);
            Ok(out)
        };
        let boosted = self.fit_boost(x, y, sample_weight, None, Some(&mut start))?;
        let init = model.ok_or_else(missing_init)?;
        Ok(GradientBoostingWithInit { init, boosted })
    }
}

impl GradientBoostingClassifier {
    /// Fits `init` on the training rows and boosts from its class probabilities through the
    /// loss's link (scikit-learn's `GradientBoostingClassifier(init=estimator).fit(X, y)`; see
    /// [`GradientBoostingWithInit`]). The init model must give one probability column per class.
    ///
    /// # Errors
    /// The errors of [`Fit::fit`], the init estimator's, a probability matrix with another
    /// number of columns than classes.
    pub fn fit_with_init<F, E>(
        &self,
        init: &E,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
    ) -> Result<GradientBoostingWithInit<E::Model, FittedGradientBoostingClassifier<F>>>
    where
        F: Float,
        E: Fit<F, Target = ArrayRef1<usize>>,
        E::Model: PredictProba<F>,
    {
        self.boost_from(x, y, None, |xt, yt, _| init.fit(xt, yt))
    }

    /// [`GradientBoostingClassifier::fit_with_init`] with per-sample weights, passed to the
    /// init estimator's weighted fit as well.
    ///
    /// # Errors
    /// As [`GradientBoostingClassifier::fit_with_init`], and bad weights.
    pub fn fit_weighted_with_init<F, E>(
        &self,
        init: &E,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
    ) -> Result<GradientBoostingWithInit<E::Model, FittedGradientBoostingClassifier<F>>>
    where
        F: Float,
        E: FitWeighted<F, Target = ArrayRef1<usize>>,
        E::Model: PredictProba<F>,
    {
        self.boost_from(x, y, sample_weight, |xt, yt, wt| {
            init.fit_weighted(xt, yt, wt)
        })
    }

    fn boost_from<F, M>(
        &self,
        x: &ArrayRef2<F>,
        y: &ArrayRef1<usize>,
        sample_weight: Option<&ArrayRef1<F>>,
        fit: impl Fn(&ArrayRef2<F>, &ArrayRef1<usize>, Option<&ArrayRef1<F>>) -> Result<M>,
    ) -> Result<GradientBoostingWithInit<M, FittedGradientBoostingClassifier<F>>>
    where
        F: Float,
        M: PredictProba<F>,
    {
        let exponential = self.loss == GradientBoostingClassificationLoss::Exponential;
        let mut model: Option<M> = None;
        let mut start = |xt: &ArrayRef2<F>, yt: &[f64], wt: Option<&[f64]>, xv: &ArrayRef2<F>| {
            let w = wt.map(to_array::<F>);
            // class indices travel as exact small integers in f64
            let labels: Array1<usize> = yt.iter().map(|&c| c as usize).collect();
            let m = fit(xt, &labels, w.as_deref())?;
            let out = (
                classification_start(&m, xt, exponential)?,
                classification_start(&m, xv, exponential)?,
            );
            model = Some(m);
            Ok(out)
        };
        let boosted = self.fit_boost(x, y, sample_weight, None, Some(&mut start))?;
        let init = model.ok_or_else(missing_init)?;
        Ok(GradientBoostingWithInit { init, boosted })
    }
}

impl<F, M> GradientBoostingWithInit<M, FittedGradientBoostingRegressor<F>>
where
    F: Float,
    M: Predict<F, Output = Array1<F>>,
{
    /// The starting scores `F₀(x)` (`n × 1`), after checking `x`.
    fn raw_start(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        ndlearn_core::validate::check_predict_input(x, self.boosted.ensemble.n_features, context)?;
        start_matrix(regression_start(&self.init, x)?, x.nrows(), 1)
    }

    /// The prediction after every stage (`staged_predict`), each `F₀(x) + λ Σ_{m ≤ s}`.
    ///
    /// # Errors
    /// A different feature count, non-finite input, the init model's errors.
    pub fn staged_predict(&self, x: &ArrayRef2<F>) -> Result<Vec<Array1<F>>> {
        let start = self.raw_start(x, "GradientBoostingWithInit::staged_predict")?;
        let mut out = Vec::with_capacity(self.boosted.ensemble.n_stages());
        self.boosted
            .ensemble
            .add_stages(x, start, |_, r| out.push(r.column(0).mapv(F::cast)))?;
        Ok(out)
    }
}

impl<F, M> Predict<F> for GradientBoostingWithInit<M, FittedGradientBoostingRegressor<F>>
where
    F: Float,
    M: Predict<F, Output = Array1<F>>,
{
    type Output = Array1<F>;

    /// `m(x) + λ Σ_m tree_m(x)`.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<F>> {
        let start = self.raw_start(x, "GradientBoostingWithInit::predict")?;
        let raw = self.boosted.ensemble.add_all(x, start);
        Ok(raw.column(0).mapv(F::cast))
    }
}

impl<F, M> GradientBoostingWithInit<M, FittedGradientBoostingClassifier<F>>
where
    F: Float,
    M: PredictProba<F>,
{
    /// The starting scores `F₀(x)` (`n × K`), after checking `x`.
    fn raw_start(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        ndlearn_core::validate::check_predict_input(x, self.boosted.ensemble.n_features, context)?;
        let k = self.boosted.ensemble.n_trees_per_stage;
        let start = classification_start(&self.init, x, self.boosted.exponential())?;
        start_matrix(start, x.nrows(), k)
    }

    fn raw(&self, x: &ArrayRef2<F>, context: &'static str) -> Result<Array2<f64>> {
        let start = self.raw_start(x, context)?;
        Ok(self.boosted.ensemble.add_all(x, start))
    }

    /// The class probabilities after every stage (`staged_predict_proba`).
    ///
    /// # Errors
    /// A different feature count, non-finite input, the init model's errors.
    pub fn staged_predict_proba(&self, x: &ArrayRef2<F>) -> Result<Vec<Array2<F>>> {
        let start = self.raw_start(x, "GradientBoostingWithInit::staged_predict_proba")?;
        let mut out = Vec::with_capacity(self.boosted.ensemble.n_stages());
        self.boosted
            .ensemble
            .add_stages(x, start, |_, r| out.push(self.boosted.proba_of(r)))?;
        Ok(out)
    }
}

impl<F, M> DecisionFunction<F> for GradientBoostingWithInit<M, FittedGradientBoostingClassifier<F>>
where
    F: Float,
    M: PredictProba<F>,
{
    /// `F₀(x) + λ Σ_m tree_m(x)`: `n × 1` (two classes) or `n × K`.
    fn decision_function(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        Ok(self
            .raw(x, "GradientBoostingWithInit::decision_function")?
            .mapv(F::cast))
    }
}

impl<F, M> PredictProba<F> for GradientBoostingWithInit<M, FittedGradientBoostingClassifier<F>>
where
    F: Float,
    M: PredictProba<F>,
{
    /// The boosted raw scores through the loss's inverse link.
    fn predict_proba(&self, x: &ArrayRef2<F>) -> Result<Array2<F>> {
        let raw = self.raw(x, "GradientBoostingWithInit::predict_proba")?;
        Ok(self.boosted.proba_of(&raw))
    }
}

impl<F, M> Predict<F> for GradientBoostingWithInit<M, FittedGradientBoostingClassifier<F>>
where
    F: Float,
    M: PredictProba<F>,
{
    type Output = Array1<usize>;

    /// The class of largest boosted score.
    fn predict(&self, x: &ArrayRef2<F>) -> Result<Array1<usize>> {
        let raw = self.raw(x, "GradientBoostingWithInit::predict")?;
        Ok(self.boosted.labels_of(&raw))
    }
}

impl<M, G: NFeaturesIn> NFeaturesIn for GradientBoostingWithInit<M, G> {
    fn n_features_in(&self) -> usize {
        self.boosted.n_features_in()
    }
}

impl<F: Float, M, G: FeatureImportances<F>> FeatureImportances<F>
    for GradientBoostingWithInit<M, G>
{
    /// The boosted trees' importances (the init model's are not included, as scikit-learn's).
    fn feature_importances(&self) -> Array1<F> {
        self.boosted.feature_importances()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    /// An init estimator whose fitted model predicts a fixed bad output, to reach the checks.
    #[derive(Debug, Clone, Copy)]
    enum Bad {
        /// One prediction too few.
        Short,
        /// NaN predictions.
        NotFinite,
        /// Probabilities of two classes whatever the labels.
        TwoColumns,
    }

    impl Fit<f64> for Bad {
        type Target = ArrayRef1<f64>;
        type Model = Bad;
        fn fit(&self, _: &ArrayRef2<f64>, _: &ArrayRef1<f64>) -> Result<Bad> {
            Ok(*self)
        }
    }

    impl Predict<f64> for Bad {
        type Output = Array1<f64>;
        fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<f64>> {
            Ok(match self {
                Bad::Short => Array1::zeros(x.nrows() - 1),
                _ => Array1::from_elem(x.nrows(), f64::NAN),
            })
        }
    }

    impl PredictProba<f64> for Bad {
        fn predict_proba(&self, x: &ArrayRef2<f64>) -> Result<Array2<f64>> {
            Ok(Array2::from_elem((x.nrows(), 2), 0.5))
        }
    }

    /// The classifier's init: labels as the target.
    #[derive(Debug, Clone, Copy)]
    struct BadClassifier(Bad);

    impl Fit<f64> for BadClassifier {
        type Target = ArrayRef1<usize>;
        type Model = Bad;
        fn fit(&self, _: &ArrayRef2<f64>, _: &ArrayRef1<usize>) -> Result<Bad> {
            Ok(self.0)
        }
    }

    #[test]
    fn bad_init_outputs_are_typed_errors() {
        let x = array![
            [0.0, 1.0],
            [1.0, 0.0],
            [2.0, 1.0],
            [3.0, 0.0],
            [4.0, 1.0],
            [5.0, 0.0]
        ];
        let y = array![0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        let gb = GradientBoostingRegressor::default().n_estimators(3);
        for bad in [Bad::Short, Bad::NotFinite] {
            let err = gb.fit_with_init(&bad, &x, &y).expect_err("bad init");
            assert!(matches!(err, Error::InvalidParam { .. }), "{bad:?}: {err}");
        }
        let labels = array![0usize, 1, 2, 0, 1, 2];
        let err = GradientBoostingClassifier::default()
            .n_estimators(3)
            .fit_with_init(&BadClassifier(Bad::TwoColumns), &x, &labels)
            .expect_err("two columns for three classes");
        assert!(err.to_string().contains("starting scores"), "{err}");
        // the same init on two classes is fine: p = ½ starts every score at 0
        let two = array![0usize, 1, 0, 1, 0, 1];
        let m = GradientBoostingClassifier::default()
            .n_estimators(3)
            .fit_with_init(&BadClassifier(Bad::TwoColumns), &x, &two)
            .expect("fit");
        assert_eq!(m.init_model().predict_proba(&x).expect("p")[[0, 1]], 0.5);
        assert_eq!(m.n_features_in(), 2);
        // predict checks the feature count before the init model sees the data
        assert!(m.predict(&array![[1.0, 2.0, 3.0]]).is_err());
    }
}
