//! The Bayes-classifier framework shared by every model of this crate (catalog G-02).
//!
//! A generative classifier models class priors `π_c` and class-conditional densities
//! `p(x | c)`; Bayes' rule gives the posterior
//!
//! ```text
//! p(c | x) = π_c p(x | c) / Σ_{c'} π_{c'} p(x | c'),
//! ```
//!
//! and the Bayes classifier predicts `argmax_c π_c p(x | c)`: the denominator does not matter
//! (Duda, Hart & Stork, *Pattern Classification*, 2nd ed., Wiley (2001), ch. 2; Hastie,
//! Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009), §2.4).
//! Plugging estimates `π̂_c`, `p̂(x | c)` into the rule gives the "approximate Bayes
//! classifier" of the course notes (a plug-in classifier).
//!
//! Everything is computed **in log space**: a fitted model gives the *joint log-likelihood*
//! `jll[i, c] = log π_c + log p(x_i | c)` ([`JointLogLikelihood`]); predictions are its row
//! argmax (ties to the lower class), and probabilities its row-wise log-sum-exp normalisation
//! ([`log_posterior`]), so no density underflows to 0 / 0 even for hundreds of features.
//!
//! Class priors are the class frequencies `N_c / N` (the MLE, via a Lagrange multiplier;
//! Bishop, *Pattern Recognition and Machine Learning*, Springer (2006), §4.2.2) unless given
//! ([`check_priors`]).
//!
//! ```
//! use ndlearn_bayes::framework::{log_posterior, posterior};
//! use ndlearn_core::ndarray::array;
//!
//! // the course notes' fruit example: x = (1003 g, red); P(x | banana) = 0,
//! // P(x | apple) = 0.5, P(x | cherry) = 0.95; apples and cherries equally common
//! let jll = array![[f64::NEG_INFINITY, (0.5f64 * 0.5).ln(), (0.5f64 * 0.95).ln()]];
//! let p = posterior(&jll)?;
//! assert_eq!(p[[0, 0]], 0.0);
//! assert!((p[[0, 2]] - 0.95 / 1.45).abs() < 1e-15); // cherry
//! assert!((log_posterior(&jll)?[[0, 1]] - (0.5f64 / 1.45).ln()).abs() < 1e-15);
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

use ndarray::{Array1, Array2, ArrayRef, ArrayRef2, Dimension};
use ndlearn_core::validate::ModelCheck;
use ndlearn_core::{Error, Float, Result};

/// A fitted generative classifier: `jll[i, c] = log π_c + log p(x_i | c)` (up to a constant
/// per row, which the posterior does not see).
pub trait JointLogLikelihood<F: Float> {
    /// The joint log-likelihood, `n × n_classes`.
    ///
    /// # Errors
    /// Wrong feature count, non-finite input (where the model does not accept it), or input
    /// outside the model's support.
    fn joint_log_likelihood(&self, x: &ArrayRef2<F>) -> Result<Array2<F>>;
}

/// Row-wise log-sum-exp normalisation of a joint log-likelihood: `log p(c | x_i)`.
///
/// # Errors
/// [`Error::InvalidParam`] naming the row when every class has likelihood 0 (`−∞` in the whole
/// row), which happens with unsmoothed frequency estimates or a box kernel: no class can be
/// assigned (as the course notes remark for kernel density classification).
pub fn log_posterior<F: Float>(jll: &ArrayRef2<F>) -> Result<Array2<F>> {
    let mut out = jll.to_owned();
    for (i, mut row) in out.rows_mut().into_iter().enumerate() {
        let lse = ndlearn_core::numeric::log_sum_exp(&row.to_vec());
        if lse == F::neg_infinity() || lse.is_nan() {
            return Err(zero_likelihood(i));
        }
        row.mapv_inplace(|v| v - lse);
    }
    Ok(out)
}

/// `p(c | x_i)`: the exponential of [`log_posterior`]; rows sum to one.
///
/// # Errors
/// As [`log_posterior`].
pub fn posterior<F: Float>(jll: &ArrayRef2<F>) -> Result<Array2<F>> {
    Ok(log_posterior(jll)?.mapv(F::exp))
}

/// The Bayes decision `argmax_c jll[i, c]`, ties to the lower class.
///
/// # Errors
/// As [`log_posterior`] (a row with no possible class).
pub fn decide<F: Float>(jll: &ArrayRef2<F>) -> Result<Array1<usize>> {
    jll.rows()
        .into_iter()
        .enumerate()
        .map(|(i, row)| {
            // A row with no value above −∞ (all −∞ or NaN) has no possible class.
            if !row.iter().any(|&v| v > F::neg_infinity()) {
                return Err(zero_likelihood(i));
            }
            Ok(ndlearn_core::numeric::argmax(row.iter().copied()))
        })
        .collect()
}

fn zero_likelihood(row: usize) -> Error {
    Error::invalid_param(
        "x",
        format!(
            "row {row} has likelihood 0 under every class (unseen value without smoothing, or \
             outside every kernel's support): no class can be assigned"
        ),
    )
}

/// Checks given class priors before the data are seen: finite, non-negative, summing to 1
/// (within 1e-8). The count is checked against the classes at fit ([`check_priors`]).
///
/// # Errors
/// [`Error::InvalidParam`] naming `name`.
pub fn check_priors_values(name: &'static str, priors: Option<&[f64]>) -> Result<()> {
    let Some(priors) = priors else {
        return Ok(());
    };
    if priors.is_empty() || priors.iter().any(|p| !p.is_finite() || *p < 0.0) {
        return Err(Error::invalid_param(
            name,
            "must be non-empty, finite and non-negative",
        ));
    }
    let s: f64 = priors.iter().sum();
    if (s - 1.0).abs() > 1e-8 {
        return Err(Error::invalid_param(
            name,
            format!("must sum to 1, sum to {s}"),
        ));
    }
    Ok(())
}

/// Checks an optional class count for streaming fits (`≥ 1`).
///
/// # Errors
/// [`Error::InvalidParam`].
pub fn check_n_classes(n_classes: Option<usize>) -> Result<()> {
    match n_classes {
        Some(0) => Err(Error::invalid_param("n_classes", "must be >= 1")),
        _ => Ok(()),
    }
}

/// Checks a smoothing parameter: finite and `≥ 0`.
///
/// # Errors
/// [`Error::InvalidParam`].
pub fn check_smoothing(name: &'static str, v: f64) -> Result<()> {
    ndlearn_core::validate::check_non_negative(name, v)
}

/// Checks given class priors: one per class, finite, non-negative, summing to 1 (within
/// 1e-8). Returns their logarithms.
///
/// # Errors
/// [`Error::InvalidParam`] naming `priors`.
pub fn check_priors(priors: &[f64], n_classes: usize) -> Result<Vec<f64>> {
    if priors.len() != n_classes {
        return Err(Error::invalid_param(
            "priors",
            format!(
                "need one prior per class ({n_classes}), got {}",
                priors.len()
            ),
        ));
    }
    if priors.iter().any(|p| !p.is_finite() || *p < 0.0) {
        return Err(Error::invalid_param(
            "priors",
            "must be finite and non-negative",
        ));
    }
    let s: f64 = priors.iter().sum();
    if (s - 1.0).abs() > 1e-8 {
        return Err(Error::invalid_param(
            "priors",
            format!("must sum to 1, sum to {s}"),
        ));
    }
    Ok(priors.iter().map(|p| p.ln()).collect())
}

/// Class counts (or summed weights) `N_c` → log priors `log(N_c / N)`.
pub fn log_priors_from_counts<F: Float>(counts: &[F]) -> Vec<F> {
    let total: F = counts.iter().copied().sum();
    counts.iter().map(|&c| (c / total).ln()).collect()
}

/// Implements `Predict` and `PredictProba` (and an inherent `predict_log_proba`) for a fitted
/// model that implements [`JointLogLikelihood`].
macro_rules! bayes_predict {
    ($ty:ident) => {
        impl<F: ndlearn_core::Float> ndlearn_core::Predict<F> for $ty<F> {
            type Output = ndarray::Array1<usize>;
            /// The Bayes decision `argmax_c log π_c + log p(x | c)` (ties to the lower class).
            fn predict(&self, x: &ndarray::ArrayRef2<F>) -> ndlearn_core::Result<Self::Output> {
                let jll = $crate::framework::JointLogLikelihood::joint_log_likelihood(self, x)?;
                $crate::framework::decide(&jll)
            }
        }

        impl<F: ndlearn_core::Float> ndlearn_core::PredictProba<F> for $ty<F> {
            /// The posterior `p(c | x)` by log-sum-exp.
            fn predict_proba(
                &self,
                x: &ndarray::ArrayRef2<F>,
            ) -> ndlearn_core::Result<ndarray::Array2<F>> {
                let jll = $crate::framework::JointLogLikelihood::joint_log_likelihood(self, x)?;
                $crate::framework::posterior(&jll)
            }
        }

        impl<F: ndlearn_core::Float> $ty<F> {
            /// `log p(c | x)` (log-sum-exp normalised, exact in the tails where
            /// `predict_proba` underflows to 0).
            ///
            /// # Errors
            /// As `predict`.
            pub fn predict_log_proba(
                &self,
                x: &ndarray::ArrayRef2<F>,
            ) -> ndlearn_core::Result<ndarray::Array2<F>> {
                let jll = $crate::framework::JointLogLikelihood::joint_log_likelihood(self, x)?;
                $crate::framework::log_posterior(&jll)
            }
        }
    };
}
pub(crate) use bayes_predict;

/// The class count of a first `partial_fit` batch: `n_classes` if given, else the largest
/// label + 1; errors when a label does not fit.
pub(crate) fn stream_classes(
    y: &ndarray::ArrayRef1<usize>,
    given: Option<usize>,
    existing: Option<usize>,
) -> Result<usize> {
    let max = y.iter().copied().max().unwrap_or(0);
    let n = match (existing, given) {
        (Some(n), _) | (None, Some(n)) => n,
        (None, None) => max + 1,
    };
    if max >= n {
        let index = y.iter().position(|&v| v == max).unwrap_or(0);
        return Err(Error::InvalidLabel {
            label: max,
            index,
            reason: format!(
                "partial_fit: the model has {n} classes; set n_classes on the estimator to \
                 announce every class in the first batch"
            ),
        });
    }
    Ok(n)
}

/// Log-probabilities of a fitted model: no NaN and nothing above `+∞`; `−∞` is allowed (a
/// probability 0: a class without samples, an unseen value without smoothing).
pub(crate) fn check_log_probs<F: Float, D: Dimension>(
    c: &ModelCheck,
    field: &str,
    a: &ArrayRef<F, D>,
) -> Result<()> {
    c.that(a.iter().all(|&v| v < F::infinity()), || {
        format!("`{field}` holds NaN or +∞")
    })
}

/// `k` class log priors ([`check_log_probs`]) with at least one class possible, and given
/// priors (if any) one per class.
pub(crate) fn check_class_log_prior<F: Float>(
    c: &ModelCheck,
    class_log_prior: &Array1<F>,
    given: Option<&[f64]>,
    k: usize,
) -> Result<()> {
    c.len("class_log_prior", class_log_prior.len(), k)?;
    check_log_probs(c, "class_log_prior", class_log_prior)?;
    c.that(
        class_log_prior.iter().any(|&v| v > F::neg_infinity()),
        || "every class has prior 0".into(),
    )?;
    if let Some(p) = given {
        c.len("class_prior", p.len(), k)?;
    }
    Ok(())
}

/// One value finite and `>= 0`.
pub(crate) fn non_negative_value<F: Float>(c: &ModelCheck, field: &str, v: F) -> Result<()> {
    c.that(v.is_finite() && v >= F::zero(), || {
        format!("`{field}` must be finite and non-negative")
    })
}
