//! Named scorers: scikit-learn's `scoring="accuracy"`, `"roc_auc"`, `"neg_log_loss"`, `"r2"`, …
//! as a [`Scorer`] value, so cross-validation, searches and curves need no hand-written closure
//! for the common cases (closures keep working).
//!
//! A scorer is larger-is-better: losses and errors are negated (`neg_mean_squared_error`), as in
//! scikit-learn. What a scorer reads from the model is its [`Response`]:
//!
//! | response | read from the model | scorers |
//! |---|---|---|
//! | [`Response::Predict`] | `predict` (labels or values) | accuracy, balanced accuracy, F1 / precision / recall (binary, macro, micro, weighted), MCC, the clustering agreements, every regression scorer |
//! | [`Response::Proba`] | `predict_proba` | `neg_log_loss`, `neg_brier_score`, `roc_auc_ovr(_weighted)` |
//! | [`Response::Threshold`] | `decision_function` when the model has one, else `predict_proba` (scikit-learn's order) | `roc_auc`, `average_precision` |
//!
//! Rust cannot ask a type at run time which traits it implements, so the capability is chosen
//! when the scorer is turned into a closure:
//!
//! | adapter | model bound | accepts |
//! |---|---|---|
//! | [`Scorer::for_labels`] | `Predict<Output = Array1<usize>>` | predict scorers |
//! | [`Scorer::for_proba`] | `PredictProba` | every classification scorer (thresholds from probabilities) |
//! | [`Scorer::for_decision`] | `DecisionFunction + Predict` | predict and threshold scorers |
//! | [`Scorer::for_proba_and_decision`] | both | every classification scorer, thresholds from the decision function (scikit-learn's choice) |
//! | [`Scorer::for_regressor`] | `Predict<Output = Array1<F>>` | regression scorers |
//!
//! An adapter that cannot serve a scorer is an [`Error::InvalidParam`] when it is built, before
//! any fit. The array-level methods ([`Scorer::score_labels`], [`Scorer::score_proba`],
//! [`Scorer::score_decision`], [`Scorer::score_values`]) are what the adapters and the command
//! line call.
//!
//! Conventions (scikit-learn's defaults): the binary scorers (`f1`, `precision`, `recall`,
//! `roc_auc`, `average_precision`) take class 1 as the positive class and need labels in
//! `{0, 1}`; `roc_auc` on more than two classes is an error (use `roc_auc_ovr`); probability
//! column `k` is class `k` (ndlearn's classifiers number classes `0..k`), so `neg_log_loss` scores
//! every class the model knows; zero divisions give 0.
//!
//! ```
//! use ndlearn_core::model_selection::Scorer;
//! use ndlearn_core::ndarray::array;
//!
//! let s: Scorer = "balanced_accuracy".parse()?;
//! // Recall of class 0 is 1/2, of class 1 is 1: mean 0.75.
//! assert_eq!(s.score_labels(&array![0usize, 0, 1], &array![0usize, 1, 1])?, 0.75);
//! assert_eq!(Scorer::NegMeanSquaredError.score_values(&array![1.0, 2.0], &array![1.0, 4.0])?, -2.0);
//! assert!("accuracy_typo".parse::<Scorer>().is_err());
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use std::fmt;
use std::str::FromStr;

use ndarray::{Array1, ArrayRef1, ArrayRef2};

use crate::metrics::{self, Average, AverageMethod};
use crate::traits::{DecisionFunction, Labels, Predict, PredictProba};
use crate::{Error, Float, Result};

/// The scorer closures the adapters return: `Fn(&model, &x, &y) -> Result<f64>`, copyable and
/// shareable across the folds' threads (what cross-validation, searches and curves take).
pub trait ScoreFn<M, F, Y: ?Sized>:
    Fn(&M, &ArrayRef2<F>, &Y) -> Result<f64> + Copy + Send + Sync
{
}

impl<M, F, Y: ?Sized, S> ScoreFn<M, F, Y> for S where
    S: Fn(&M, &ArrayRef2<F>, &Y) -> Result<f64> + Copy + Send + Sync
{
}

/// What a scorer reads from a fitted model (scikit-learn's `response_method`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Response {
    /// `predict`: labels for classification, values for regression.
    Predict,
    /// `predict_proba`.
    Proba,
    /// A continuous score of class 1 (binary) or of every class: `decision_function` when the
    /// model has one, else `predict_proba`.
    Threshold,
}

/// The kind of target a scorer compares with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Task {
    /// Class labels (`usize`).
    Classification,
    /// Real values.
    Regression,
}

macro_rules! scorers {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $task:ident, $resp:ident; )*) => {
        /// A named scorer (scikit-learn's `get_scorer(name)`); larger is better. See the
        /// [module docs](self).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Scorer {
            $( $(#[$doc])* $variant, )*
        }

        impl Scorer {
            /// Every named scorer, in the order of [`Scorer::names`].
            pub const ALL: &'static [Scorer] = &[$(Scorer::$variant),*];

            /// The scikit-learn name (`"neg_log_loss"`).
            pub fn name(self) -> &'static str {
                match self { $(Scorer::$variant => $name,)* }
            }

            /// What the scorer reads from the model.
            pub fn response(self) -> Response {
                match self { $(Scorer::$variant => Response::$resp,)* }
            }

            /// The kind of target it scores.
            pub fn task(self) -> Task {
                match self { $(Scorer::$variant => Task::$task,)* }
            }
        }
    };
}

scorers! {
    /// Fraction of correct labels.
    Accuracy => "accuracy", Classification, Predict;
    /// Mean per-class recall.
    BalancedAccuracy => "balanced_accuracy", Classification, Predict;
    /// F1 of class 1 (binary).
    F1 => "f1", Classification, Predict;
    /// Unweighted mean of the per-class F1.
    F1Macro => "f1_macro", Classification, Predict;
    /// F1 of the pooled counts.
    F1Micro => "f1_micro", Classification, Predict;
    /// Support-weighted mean of the per-class F1.
    F1Weighted => "f1_weighted", Classification, Predict;
    /// Precision of class 1 (binary).
    Precision => "precision", Classification, Predict;
    /// Unweighted mean of the per-class precision.
    PrecisionMacro => "precision_macro", Classification, Predict;
    /// Precision of the pooled counts.
    PrecisionMicro => "precision_micro", Classification, Predict;
    /// Support-weighted mean of the per-class precision.
    PrecisionWeighted => "precision_weighted", Classification, Predict;
    /// Recall of class 1 (binary).
    Recall => "recall", Classification, Predict;
    /// Unweighted mean of the per-class recall.
    RecallMacro => "recall_macro", Classification, Predict;
    /// Recall of the pooled counts.
    RecallMicro => "recall_micro", Classification, Predict;
    /// Support-weighted mean of the per-class recall.
    RecallWeighted => "recall_weighted", Classification, Predict;
    /// Matthews correlation coefficient.
    MatthewsCorrcoef => "matthews_corrcoef", Classification, Predict;
    /// Adjusted Rand index of the predicted labels against the true ones.
    AdjustedRandScore => "adjusted_rand_score", Classification, Predict;
    /// Rand index.
    RandScore => "rand_score", Classification, Predict;
    /// Adjusted mutual information (arithmetic normalisation).
    AdjustedMutualInfoScore => "adjusted_mutual_info_score", Classification, Predict;
    /// Normalised mutual information (arithmetic normalisation).
    NormalizedMutualInfoScore => "normalized_mutual_info_score", Classification, Predict;
    /// Mutual information (nats).
    MutualInfoScore => "mutual_info_score", Classification, Predict;
    /// Homogeneity.
    HomogeneityScore => "homogeneity_score", Classification, Predict;
    /// Completeness.
    CompletenessScore => "completeness_score", Classification, Predict;
    /// V-measure (β = 1).
    VMeasureScore => "v_measure_score", Classification, Predict;
    /// Fowlkes–Mallows index.
    FowlkesMallowsScore => "fowlkes_mallows_score", Classification, Predict;
    /// Negative log loss of the predicted probabilities.
    NegLogLoss => "neg_log_loss", Classification, Proba;
    /// Negative Brier score (multi-class form, halved for two classes).
    NegBrierScore => "neg_brier_score", Classification, Proba;
    /// ROC AUC of class 1 (binary).
    RocAuc => "roc_auc", Classification, Threshold;
    /// One-vs-rest ROC AUC, unweighted mean over classes.
    RocAucOvr => "roc_auc_ovr", Classification, Proba;
    /// One-vs-rest ROC AUC, support-weighted mean over classes.
    RocAucOvrWeighted => "roc_auc_ovr_weighted", Classification, Proba;
    /// Average precision of class 1 (binary), or the macro one-vs-rest mean (multi-class).
    AveragePrecision => "average_precision", Classification, Threshold;
    /// Coefficient of determination R².
    R2 => "r2", Regression, Predict;
    /// Explained variance.
    ExplainedVariance => "explained_variance", Regression, Predict;
    /// Negative mean squared error.
    NegMeanSquaredError => "neg_mean_squared_error", Regression, Predict;
    /// Negative root mean squared error.
    NegRootMeanSquaredError => "neg_root_mean_squared_error", Regression, Predict;
    /// Negative mean absolute error.
    NegMeanAbsoluteError => "neg_mean_absolute_error", Regression, Predict;
    /// Negative median absolute error.
    NegMedianAbsoluteError => "neg_median_absolute_error", Regression, Predict;
    /// Negative maximum absolute error.
    NegMaxError => "neg_max_error", Regression, Predict;
    /// Negative mean absolute percentage error.
    NegMeanAbsolutePercentageError => "neg_mean_absolute_percentage_error", Regression, Predict;
}

impl Scorer {
    /// Every scorer name, in declaration order.
    pub fn names() -> Vec<&'static str> {
        Self::ALL.iter().map(|s| s.name()).collect()
    }

    /// The scorer called `name` (scikit-learn's spelling; case and `-`/`_` ignored).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] listing the valid names.
    pub fn from_name(name: &str) -> Result<Self> {
        let key = name.trim().to_ascii_lowercase().replace('-', "_");
        Self::ALL
            .iter()
            .copied()
            .find(|s| s.name() == key)
            .ok_or_else(|| {
                Error::invalid_param(
                    "scoring",
                    format!(
                        "unknown scorer `{name}`; valid: {}",
                        Self::names().join(", ")
                    ),
                )
            })
    }

    fn mismatch(self, what: &str) -> Error {
        Error::invalid_param(
            "scoring",
            format!(
                "`{}` ({:?} scorer reading {:?}) cannot be computed from {what}",
                self.name(),
                self.task(),
                self.response()
            ),
        )
    }

    /// Scores predicted class labels (predict scorers of [`Task::Classification`]).
    ///
    /// # Errors
    /// A scorer that needs probabilities, decisions or real values; the metric's own errors
    /// (lengths, a binary scorer on more than two labels, ...).
    pub fn score_labels(self, y_true: &ArrayRef1<usize>, y_pred: &ArrayRef1<usize>) -> Result<f64> {
        let bin = Average::Binary { pos_label: 1 };
        let arith = AverageMethod::Arithmetic;
        match self {
            Self::Accuracy => metrics::accuracy_score(y_true, y_pred, None),
            Self::BalancedAccuracy => metrics::balanced_accuracy_score(y_true, y_pred, false, None),
            Self::F1 => metrics::f1_score(y_true, y_pred, bin, None),
            Self::F1Macro => metrics::f1_score(y_true, y_pred, Average::Macro, None),
            Self::F1Micro => metrics::f1_score(y_true, y_pred, Average::Micro, None),
            Self::F1Weighted => metrics::f1_score(y_true, y_pred, Average::Weighted, None),
            Self::Precision => metrics::precision_score(y_true, y_pred, bin, None),
            Self::PrecisionMacro => metrics::precision_score(y_true, y_pred, Average::Macro, None),
            Self::PrecisionMicro => metrics::precision_score(y_true, y_pred, Average::Micro, None),
            Self::PrecisionWeighted => {
                metrics::precision_score(y_true, y_pred, Average::Weighted, None)
            }
            Self::Recall => metrics::recall_score(y_true, y_pred, bin, None),
            Self::RecallMacro => metrics::recall_score(y_true, y_pred, Average::Macro, None),
            Self::RecallMicro => metrics::recall_score(y_true, y_pred, Average::Micro, None),
            Self::RecallWeighted => metrics::recall_score(y_true, y_pred, Average::Weighted, None),
            Self::MatthewsCorrcoef => metrics::matthews_corrcoef(y_true, y_pred, None),
            Self::AdjustedRandScore => metrics::adjusted_rand_score(y_true, y_pred),
            Self::RandScore => metrics::rand_score(y_true, y_pred),
            Self::AdjustedMutualInfoScore => {
                metrics::adjusted_mutual_info_score(y_true, y_pred, arith)
            }
            Self::NormalizedMutualInfoScore => {
                metrics::normalized_mutual_info_score(y_true, y_pred, arith)
            }
            Self::MutualInfoScore => metrics::mutual_info_score(y_true, y_pred),
            Self::HomogeneityScore => metrics::homogeneity_score(y_true, y_pred),
            Self::CompletenessScore => metrics::completeness_score(y_true, y_pred),
            Self::VMeasureScore => metrics::v_measure_score(y_true, y_pred, 1.0),
            Self::FowlkesMallowsScore => metrics::fowlkes_mallows_score(y_true, y_pred),
            _ => Err(self.mismatch("predicted labels")),
        }
    }

    /// Scores class probabilities (`n × k`, column `k` = class `k`): every proba and threshold
    /// scorer (thresholds of a binary problem are column 1).
    ///
    /// # Errors
    /// A predict or regression scorer; the metric's own errors (labels `≥ k`, rows not summing to
    /// one for the one-vs-rest AUC, `roc_auc` on more than two columns, ...).
    pub fn score_proba<F: Float>(
        self,
        y_true: &ArrayRef1<usize>,
        proba: &ArrayRef2<F>,
    ) -> Result<f64> {
        // Two classes: scikit-learn's scorers pass the class-1 column alone (class 0 is read as
        // `1 − p₁`, which differs from `p₀` by rounding when p₁ is near 1).
        let pos = (proba.ncols() == 2).then(|| proba.column(1));
        match (self, pos) {
            (Self::NegLogLoss, Some(p)) => Ok(-metrics::log_loss_binary(y_true, &p, None)?),
            (Self::NegLogLoss, None) => Ok(-metrics::log_loss(y_true, proba, None)?),
            (Self::NegBrierScore, Some(p)) => Ok(-metrics::brier_score_loss(y_true, &p, None)?),
            (Self::NegBrierScore, None) => {
                Ok(-metrics::brier_score_loss_multiclass(y_true, proba, None)?)
            }
            // A binary problem has no one-vs-rest average: the AUC of class 1 (as scikit-learn).
            (Self::RocAucOvr | Self::RocAucOvrWeighted, Some(p)) => {
                metrics::roc_auc_score(y_true, &p, None)
            }
            (Self::RocAucOvr, None) => {
                metrics::roc_auc_score_ovr(y_true, proba, Average::Macro, None)
            }
            (Self::RocAucOvrWeighted, None) => {
                metrics::roc_auc_score_ovr(y_true, proba, Average::Weighted, None)
            }
            (Self::RocAuc | Self::AveragePrecision, _) => self.score_threshold(y_true, proba, true),
            _ => Err(self.mismatch("probabilities")),
        }
    }

    /// Scores decision values (`n × 1` for two classes, the score of class 1; `n × k` otherwise):
    /// the threshold scorers.
    ///
    /// # Errors
    /// Any other scorer; the metric's own errors.
    pub fn score_decision<F: Float>(
        self,
        y_true: &ArrayRef1<usize>,
        decision: &ArrayRef2<F>,
    ) -> Result<f64> {
        match self {
            Self::RocAuc | Self::AveragePrecision => self.score_threshold(y_true, decision, false),
            _ => Err(self.mismatch("decision values")),
        }
    }

    /// `roc_auc` / `average_precision` from an `n × 1` (decisions) or `n × k` score matrix.
    fn score_threshold<F: Float>(
        self,
        y_true: &ArrayRef1<usize>,
        scores: &ArrayRef2<F>,
        from_proba: bool,
    ) -> Result<f64> {
        let k = scores.ncols();
        let what = if from_proba {
            "probabilities"
        } else {
            "decision values"
        };
        // Two classes: one column (decision) or two (probabilities, class 1 in column 1).
        let binary = match k {
            1 => Some(scores.column(0)),
            2 if from_proba => Some(scores.column(1)),
            _ => None,
        };
        match (self, binary) {
            (Self::RocAuc, Some(s)) => metrics::roc_auc_score(y_true, &s, None),
            (Self::AveragePrecision, Some(s)) => metrics::average_precision_score(y_true, &s, None),
            (Self::AveragePrecision, None) => {
                metrics::average_precision_score_ovr(y_true, scores, Average::Macro, None)
            }
            (Self::RocAuc, None) => Err(Error::invalid_param(
                "scoring",
                format!(
                    "`roc_auc` is binary but the {what} have {k} columns; use `roc_auc_ovr` \
                     or `roc_auc_ovr_weighted`"
                ),
            )),
            _ => Err(self.mismatch(what)),
        }
    }

    /// Scores predicted real values (the regression scorers).
    ///
    /// # Errors
    /// A classification scorer; the metric's own errors.
    pub fn score_values<F: Float>(
        self,
        y_true: &ArrayRef1<F>,
        y_pred: &ArrayRef1<F>,
    ) -> Result<f64> {
        match self {
            Self::R2 => metrics::r2_score(y_true, y_pred, None),
            Self::ExplainedVariance => metrics::explained_variance_score(y_true, y_pred, None),
            Self::NegMeanSquaredError => Ok(-metrics::mean_squared_error(y_true, y_pred, None)?),
            Self::NegRootMeanSquaredError => {
                Ok(-metrics::root_mean_squared_error(y_true, y_pred, None)?)
            }
            Self::NegMeanAbsoluteError => Ok(-metrics::mean_absolute_error(y_true, y_pred, None)?),
            Self::NegMedianAbsoluteError => {
                Ok(-metrics::median_absolute_error(y_true, y_pred, None)?)
            }
            Self::NegMaxError => Ok(-metrics::max_error(y_true, y_pred)?),
            Self::NegMeanAbsolutePercentageError => Ok(-metrics::mean_absolute_percentage_error(
                y_true, y_pred, None,
            )?),
            _ => Err(self.mismatch("predicted values")),
        }
    }

    fn require(self, ok: bool, adapter: &str) -> Result<()> {
        if ok {
            Ok(())
        } else {
            Err(Error::invalid_param(
                "scoring",
                format!(
                    "`{}` reads {:?} of a {:?} model, which `Scorer::{adapter}` does not give; \
                     see the adapters of ndlearn_core::model_selection::scoring",
                    self.name(),
                    self.response(),
                    self.task()
                ),
            ))
        }
    }

    /// A scorer closure for classifiers that only predict labels (`accuracy`, `f1`, ...).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] when the scorer needs probabilities, decisions or real values.
    pub fn for_labels<F, M>(self) -> Result<impl ScoreFn<M, F, Labels>>
    where
        F: Float,
        M: Predict<F, Output = Array1<usize>>,
    {
        self.require(
            self.task() == Task::Classification && self.response() == Response::Predict,
            "for_labels",
        )?;
        Ok(move |m: &M, x: &ArrayRef2<F>, y: &Labels| self.score_labels(y, &m.predict(x)?))
    }

    /// A scorer closure for classifiers with `predict_proba`: every classification scorer
    /// (threshold scorers read the probabilities).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a regression scorer.
    pub fn for_proba<F, M>(self) -> Result<impl ScoreFn<M, F, Labels>>
    where
        F: Float,
        M: PredictProba<F, Output = Array1<usize>>,
    {
        self.require(self.task() == Task::Classification, "for_proba")?;
        Ok(
            move |m: &M, x: &ArrayRef2<F>, y: &Labels| match self.response() {
                Response::Predict => self.score_labels(y, &m.predict(x)?),
                Response::Proba | Response::Threshold => self.score_proba(y, &m.predict_proba(x)?),
            },
        )
    }

    /// A scorer closure for classifiers with a decision function: predict and threshold scorers.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a scorer that needs probabilities or real values.
    pub fn for_decision<F, M>(self) -> Result<impl ScoreFn<M, F, Labels>>
    where
        F: Float,
        M: DecisionFunction<F> + Predict<F, Output = Array1<usize>>,
    {
        self.require(
            self.task() == Task::Classification && self.response() != Response::Proba,
            "for_decision",
        )?;
        Ok(
            move |m: &M, x: &ArrayRef2<F>, y: &Labels| match self.response() {
                Response::Predict => self.score_labels(y, &m.predict(x)?),
                _ => self.score_decision(y, &m.decision_function(x)?),
            },
        )
    }

    /// A scorer closure for classifiers with both `predict_proba` and a decision function: every
    /// classification scorer, thresholds from the decision function (scikit-learn's order).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a regression scorer.
    pub fn for_proba_and_decision<F, M>(self) -> Result<impl ScoreFn<M, F, Labels>>
    where
        F: Float,
        M: DecisionFunction<F> + PredictProba<F, Output = Array1<usize>>,
    {
        self.require(
            self.task() == Task::Classification,
            "for_proba_and_decision",
        )?;
        Ok(
            move |m: &M, x: &ArrayRef2<F>, y: &Labels| match self.response() {
                Response::Predict => self.score_labels(y, &m.predict(x)?),
                Response::Proba => self.score_proba(y, &m.predict_proba(x)?),
                Response::Threshold => self.score_decision(y, &m.decision_function(x)?),
            },
        )
    }

    /// A scorer closure for regressors (`r2`, `neg_mean_squared_error`, ...).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] for a classification scorer.
    pub fn for_regressor<F, M>(self) -> Result<impl ScoreFn<M, F, ArrayRef1<F>>>
    where
        F: Float,
        M: Predict<F, Output = Array1<F>>,
    {
        self.require(self.task() == Task::Regression, "for_regressor")?;
        Ok(move |m: &M, x: &ArrayRef2<F>, y: &ArrayRef1<F>| self.score_values(y, &m.predict(x)?))
    }
}

impl FromStr for Scorer {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self> {
        Self::from_name(s)
    }
}

impl fmt::Display for Scorer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    #[test]
    fn names_round_trip_and_are_unique() {
        let names = Scorer::names();
        for (i, s) in Scorer::ALL.iter().enumerate() {
            assert_eq!(Scorer::from_name(s.name()).ok(), Some(*s));
            assert_eq!(s.to_string(), names[i]);
            assert!(!names[..i].contains(&names[i]), "duplicate {}", names[i]);
        }
        assert_eq!(
            Scorer::from_name(" Neg-Log-Loss ").ok(),
            Some(Scorer::NegLogLoss)
        );
        let e = Scorer::from_name("acuracy")
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            e.contains("acuracy") && e.contains("balanced_accuracy"),
            "{e}"
        );
    }

    #[test]
    fn hand_checked_values_and_signs() -> Result<()> {
        let t = array![0usize, 0, 1, 1];
        let p = array![0usize, 1, 1, 1];
        assert_eq!(Scorer::Accuracy.score_labels(&t, &p)?, 0.75);
        assert_eq!(Scorer::Precision.score_labels(&t, &p)?, 2.0 / 3.0);
        assert_eq!(Scorer::Recall.score_labels(&t, &p)?, 1.0);
        let proba = array![[0.9, 0.1], [0.4, 0.6], [0.2, 0.8], [0.3, 0.7]];
        let ll = -(0.9f64.ln() + 0.4f64.ln() + 0.8f64.ln() + 0.7f64.ln()) / 4.0;
        assert!((Scorer::NegLogLoss.score_proba(&t, &proba)? + ll).abs() < 1e-15);
        // Pairs (neg, pos): 0.1 < 0.8, 0.1 < 0.7, 0.6 < 0.8, 0.6 < 0.7: AUC 1.
        assert_eq!(Scorer::RocAuc.score_proba(&t, &proba)?, 1.0);
        let dec = array![[-2.0], [0.5], [0.1], [3.0]];
        // Pairs: (-2 < 0.1), (-2 < 3), (0.5 > 0.1), (0.5 < 3): 3 of 4.
        assert_eq!(Scorer::RocAuc.score_decision(&t, &dec)?, 0.75);
        let (yt, yp) = (array![1.0, 2.0, 3.0], array![1.0, 2.0, 5.0]);
        assert_eq!(Scorer::NegMaxError.score_values(&yt, &yp)?, -2.0);
        assert_eq!(
            Scorer::NegMeanAbsoluteError.score_values(&yt, &yp)?,
            -2.0 / 3.0
        );
        Ok(())
    }

    #[test]
    fn mismatches_are_typed_errors() {
        let t = array![0usize, 1, 2];
        let p3 = Array2::from_elem((3, 3), 1.0 / 3.0);
        assert!(Scorer::R2.score_labels(&t, &t).is_err());
        assert!(Scorer::Accuracy.score_proba(&t, &p3).is_err());
        assert!(Scorer::NegLogLoss.score_decision(&t, &p3).is_err());
        assert!(
            Scorer::Accuracy
                .score_values(&array![1.0], &array![1.0])
                .is_err()
        );
        let e = Scorer::RocAuc
            .score_proba(&t, &p3)
            .err()
            .map(|e| e.to_string());
        assert!(e.is_some_and(|e| e.contains("roc_auc_ovr")));
        // A binary scorer on three labels.
        assert!(Scorer::F1.score_labels(&t, &t).is_err());
    }

    struct Const(usize);
    impl Predict<f64> for Const {
        type Output = Array1<usize>;
        fn predict(&self, x: &ArrayRef2<f64>) -> Result<Array1<usize>> {
            Ok(Array1::from_elem(x.nrows(), self.0))
        }
    }

    #[test]
    fn adapters_check_capabilities_when_built() -> Result<()> {
        assert!(Scorer::NegLogLoss.for_labels::<f64, Const>().is_err());
        assert!(Scorer::R2.for_labels::<f64, Const>().is_err());
        let acc = Scorer::Accuracy.for_labels::<f64, Const>()?;
        let x = Array2::zeros((4, 1));
        assert_eq!(acc(&Const(1), &x, &array![1usize, 1, 0, 1])?, 0.75);
        Ok(())
    }
}
