//! The .632 bootstrap estimate of the prediction error (and Efron–Tibshirani's .632+).
//!
//! ## The course notes' estimate (catalog M-04, T-08)
//!
//! As in Tan, Steinbach & Kumar, *Introduction to Data Mining*, Addison-Wesley (2005), ch. 4,
//! and Han, Kamber & Pei, *Data Mining: Concepts and Techniques*, 3rd ed. (2011), ch. 8: draw
//! `B` bootstrap samples `D_b` of size `n` with replacement; a sample holds about
//! `1 − e⁻¹ ≈ 63.2 %` distinct points and leaves `36.8 %` out of the bag. Fit a model `M_b` on
//! each and combine its error on the left-out points with its error on its own training sample:
//!
//! ```text
//! err_.632 = (1/B) Σ_b [0.632 · err_oob(M_b) + 0.368 · err_train(M_b)]
//! ```
//!
//! (the course notes write the accuracy version `Acc(M) = Σ 0.632·Acc(M_i)_test + 0.368·Acc(M_i)_train`,
//! averaged over the models; the combination is linear, so errors and accuracies give the same
//! estimate). `err_train(M_b)` is the mean loss on the bootstrap sample itself, repetitions
//! counted; `err_oob(M_b)` the mean loss on the out-of-bag points. A replicate without
//! out-of-bag points (possible for tiny `n`) contributes to the training part only:
//! `err_.632 = 0.368 · mean_b err_train + 0.632 · mean_{b : oob ≠ ∅} err_oob`, which equals the
//! formula above whenever every replicate has out-of-bag points.
//!
//! ## Efron's .632 and .632+ (implementation choices, not in the course notes)
//!
//! Efron (1983) combines the *apparent* error `err̄` (fit and evaluate on all data) with the
//! leave-one-out bootstrap error `Err⁽¹⁾ = (1/n) Σ_i mean_{b : i ∉ D_b} L(y_i, M_b(x_i))`:
//! `Err⁽·⁶³²⁾ = 0.368·err̄ + 0.632·Err⁽¹⁾`. Efron & Tibshirani (1997, JASA 92:548-560) correct its
//! downward bias for overfitting models: with the no-information error
//! `γ = (1/n²) Σ_i Σ_j L(y_i, M(x_j))` of the full-data model, `Err⁽¹⁾′ = min(Err⁽¹⁾, γ)`, the
//! relative overfitting rate `R = (Err⁽¹⁾′ − err̄)/(γ − err̄)` (0 when `Err⁽¹⁾ ≤ err̄` or
//! `γ ≤ err̄`, clipped to `[0, 1]`) and `w = 0.632/(1 − 0.368·R)`:
//! `Err⁽·⁶³²⁺⁾ = (1 − w)·err̄ + w·Err⁽¹⁾′`. `γ` pairs every target with every prediction; for
//! `n ≤ gamma_shifts` all `n` cyclic shifts of the targets are evaluated (exact), above that a
//! seeded sample of `gamma_shifts` shifts (an unbiased estimate).
//!
//! ## Interface, threads
//!
//! The loss is a closure returning one loss per row, `Fn(&Model, &ArrayRef2<F>, &Target) ->
//! Result<Array1<f64>>` (0/1 misclassification, squared error, …), which is what the per-sample
//! averages above need. Replicate `b` draws from `random::stream(seed, b)`; replicates run in
//! parallel and are combined in replicate order, so the results are bitwise identical for any
//! number of threads. Cost: `B + 1` fits.

use ndarray::{Array1, ArrayRef2};

use super::rows::{SelectRows, TargetRows, check_target_rows};
use crate::random;
use crate::{Error, Fit, Float, Result, par};

/// Options of [`bootstrap_632`].
///
/// | field | default | meaning |
/// |---|---|---|
/// | `n_bootstraps` | 200 | number of bootstrap replicates `B ≥ 1` |
/// | `seed` | 0 | seed of the replicates |
/// | `plus` | `true` | also compute `γ` and the .632+ estimate |
/// | `gamma_shifts` | 200 | target shifts evaluated for `γ` (exact when `n ≤ gamma_shifts`) |
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bootstrap632 {
    /// Number of bootstrap replicates.
    pub n_bootstraps: usize,
    /// Seed.
    pub seed: u64,
    /// Compute the .632+ estimate too.
    pub plus: bool,
    /// Shifts used for the no-information error `γ`.
    pub gamma_shifts: usize,
}

impl Default for Bootstrap632 {
    fn default() -> Self {
        Self {
            n_bootstraps: 200,
            seed: 0,
            plus: true,
            gamma_shifts: 200,
        }
    }
}

impl Bootstrap632 {
    /// The defaults.
    pub fn new() -> Self {
        Self::default()
    }

    crate::setters! {
        /// Sets `n_bootstraps`.
        n_bootstraps: usize,
        /// Sets `seed`.
        seed: u64,
        /// Sets `plus`.
        plus: bool,
        /// Sets `gamma_shifts`.
        gamma_shifts: usize,
    }
}

/// The estimates of [`bootstrap_632`] and their ingredients (all mean losses).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Bootstrap632Result {
    /// The course notes' estimate `0.368·mean err_train + 0.632·mean err_oob`.
    pub estimate: f64,
    /// Loss of each replicate's model on its own bootstrap sample.
    pub train_errors: Vec<f64>,
    /// Loss of each replicate's model on its out-of-bag points (NaN when there are none).
    pub oob_errors: Vec<f64>,
    /// Fraction of distinct points in each bootstrap sample (→ 1 − e⁻¹ ≈ 0.632).
    pub in_bag_fractions: Vec<f64>,
    /// Apparent error `err̄` of the model fitted on all data.
    pub apparent_error: f64,
    /// Leave-one-out bootstrap error `Err⁽¹⁾` (points never out of bag are skipped).
    pub loo_bootstrap_error: f64,
    /// Efron's `0.368·err̄ + 0.632·Err⁽¹⁾`.
    pub efron_632: f64,
    /// The no-information error `γ` (with `plus`).
    pub no_information_error: Option<f64>,
    /// The relative overfitting rate `R ∈ [0, 1]` (with `plus`).
    pub relative_overfitting: Option<f64>,
    /// The .632+ estimate (with `plus`).
    pub plus_632: Option<f64>,
}

struct Replicate {
    train_error: f64,
    oob_error: f64,
    in_bag_fraction: f64,
    oob: Vec<usize>,
    oob_losses: Vec<f64>,
}

fn mean(v: &[f64]) -> f64 {
    v.iter().sum::<f64>() / v.len() as f64
}

fn losses_checked(l: Array1<f64>, rows: usize) -> Result<Vec<f64>> {
    if l.len() != rows {
        return Err(Error::ShapeMismatch {
            context: "bootstrap_632 loss",
            expected: format!("one loss per row ({rows})"),
            found: format!("{} losses", l.len()),
        });
    }
    if let Some(row) = l.iter().position(|v| !v.is_finite()) {
        return Err(Error::NonFinite {
            context: "bootstrap_632 loss",
            row,
            col: 0,
        });
    }
    Ok(l.to_vec())
}

/// The .632 bootstrap error estimate (and .632+) of an estimator (see the module docs).
///
/// ```
/// use ndlearn_core::model_selection::{Bootstrap632, bootstrap_632};
/// use ndlearn_core::ndarray::{Array1, Array2, ArrayRef1, ArrayRef2};
/// use ndlearn_core::{Fit, Result};
///
/// struct MeanRegressor;
/// impl Fit<f64> for MeanRegressor {
///     type Target = ArrayRef1<f64>;
///     type Model = f64;
///     fn fit(&self, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>) -> Result<f64> {
///         Ok(y.mean().unwrap_or(0.0))
///     }
/// }
/// let squared = |m: &f64, _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<Array1<f64>> {
///     Ok(y.mapv(|v| (v - m) * (v - m)))
/// };
/// let x = Array2::zeros((30, 1));
/// let y = Array1::from_shape_fn(30, |i| (i % 5) as f64);
/// let r = bootstrap_632(&MeanRegressor, &x, &y, squared, &Bootstrap632::new().n_bootstraps(50))?;
/// // The variance of y is 2; the estimates lie near it.
/// assert!((r.estimate - 2.0).abs() < 0.5);
/// assert!(r.plus_632.is_some());
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn bootstrap_632<F, E, L>(
    est: &E,
    x: &ArrayRef2<F>,
    y: &E::Target,
    loss: L,
    options: &Bootstrap632,
) -> Result<Bootstrap632Result>
where
    F: Float,
    E: Fit<F> + Sync + ?Sized,
    E::Target: TargetRows + Sync,
    E::Model: Sync,
    L: Fn(&E::Model, &ArrayRef2<F>, &E::Target) -> Result<Array1<f64>> + Sync,
{
    let n = x.nrows();
    check_target_rows(n, y, "bootstrap_632")?;
    crate::validate::check_min_samples(n, 2, "bootstrap_632")?;
    if options.n_bootstraps == 0 {
        return Err(Error::invalid_param("n_bootstraps", "must be >= 1"));
    }
    if options.plus && options.gamma_shifts == 0 {
        return Err(Error::invalid_param("gamma_shifts", "must be >= 1"));
    }
    let eval = |model: &E::Model, rows: &[usize]| -> Result<Vec<f64>> {
        let xs = x.select_rows(rows)?;
        let ys = y.select_rows(rows)?;
        losses_checked(
            loss(model, &xs, <E::Target as TargetRows>::borrow_owned(&ys))?,
            rows.len(),
        )
    };
    let reps = par::try_map_tasks(options.n_bootstraps, |b| -> Result<Replicate> {
        let mut rng = random::stream(options.seed, b as u64);
        let bs = random::bootstrap(&mut rng, n);
        let xs = x.select_rows(&bs.in_bag)?;
        let ys = y.select_rows(&bs.in_bag)?;
        let model = est.fit(&xs, <E::Target as TargetRows>::borrow_owned(&ys))?;
        let train = losses_checked(
            loss(&model, &xs, <E::Target as TargetRows>::borrow_owned(&ys))?,
            n,
        )?;
        let oob_losses = if bs.out_of_bag.is_empty() {
            Vec::new()
        } else {
            eval(&model, &bs.out_of_bag)?
        };
        Ok(Replicate {
            train_error: mean(&train),
            oob_error: if oob_losses.is_empty() {
                f64::NAN
            } else {
                mean(&oob_losses)
            },
            in_bag_fraction: (n - bs.out_of_bag.len()) as f64 / n as f64,
            oob: bs.out_of_bag,
            oob_losses,
        })
    })?;
    let train_errors: Vec<f64> = reps.iter().map(|r| r.train_error).collect();
    let oob_errors: Vec<f64> = reps.iter().map(|r| r.oob_error).collect();
    let oob_valid: Vec<f64> = oob_errors.iter().copied().filter(|v| !v.is_nan()).collect();
    if oob_valid.is_empty() {
        return Err(Error::TooFewSamples {
            context: "bootstrap_632 (no replicate left a point out of the bag; raise n_bootstraps)",
            needed: 3,
            found: n,
        });
    }
    let estimate = 0.368 * mean(&train_errors) + 0.632 * mean(&oob_valid);

    // Leave-one-out bootstrap error, accumulated in replicate order.
    let mut sum = vec![0.0f64; n];
    let mut count = vec![0usize; n];
    for r in &reps {
        for (&i, &l) in r.oob.iter().zip(&r.oob_losses) {
            sum[i] += l;
            count[i] += 1;
        }
    }
    let per_point: Vec<f64> = (0..n)
        .filter(|&i| count[i] > 0)
        .map(|i| sum[i] / count[i] as f64)
        .collect();
    let loo = mean(&per_point);

    let all: Vec<usize> = (0..n).collect();
    let full = est.fit(x, y)?;
    let apparent = mean(&eval(&full, &all)?);
    let efron = 0.368 * apparent + 0.632 * loo;

    let (gamma, rate, plus) = if options.plus {
        let shifts: Vec<usize> = if n <= options.gamma_shifts {
            (0..n).collect()
        } else {
            let mut rng = random::stream(options.seed, u64::MAX);
            random::sample_without_replacement(&mut rng, n, options.gamma_shifts)?
        };
        let parts = par::try_map_tasks(shifts.len(), |k| -> Result<f64> {
            // Target of row j is y[(j + s) mod n]: every (prediction, target) pair once over
            // all shifts.
            let s = shifts[k];
            let rolled: Vec<usize> = (0..n).map(|j| (j + s) % n).collect();
            let ys = y.select_rows(&rolled)?;
            let l = losses_checked(
                loss(&full, x, <E::Target as TargetRows>::borrow_owned(&ys))?,
                n,
            )?;
            Ok(mean(&l))
        })?;
        let gamma = mean(&parts);
        let loo_clipped = loo.min(gamma);
        let r = if loo > apparent && gamma > apparent {
            ((loo_clipped - apparent) / (gamma - apparent)).clamp(0.0, 1.0)
        } else {
            0.0
        };
        let w = 0.632 / (1.0 - 0.368 * r);
        (
            Some(gamma),
            Some(r),
            Some((1.0 - w) * apparent + w * loo_clipped),
        )
    } else {
        (None, None, None)
    };
    Ok(Bootstrap632Result {
        estimate,
        in_bag_fractions: reps.iter().map(|r| r.in_bag_fraction).collect(),
        train_errors,
        oob_errors,
        apparent_error: apparent,
        loo_bootstrap_error: loo,
        efron_632: efron,
        no_information_error: gamma,
        relative_overfitting: rate,
        plus_632: plus,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Labels;
    use ndarray::{Array2, ArrayRef1, array};

    /// 1-NN on one feature: memorises the training set (apparent error 0).
    struct OneNn;

    impl Fit<f64> for OneNn {
        type Target = Labels;
        type Model = (Vec<f64>, Vec<usize>);
        fn fit(&self, x: &ArrayRef2<f64>, y: &Labels) -> Result<Self::Model> {
            Ok((x.column(0).to_vec(), y.to_vec()))
        }
    }

    fn zero_one(m: &(Vec<f64>, Vec<usize>), x: &ArrayRef2<f64>, y: &Labels) -> Result<Array1<f64>> {
        Ok(x.column(0)
            .iter()
            .zip(y)
            .map(|(v, &c)| {
                let (mut best, mut d) = (0, f64::INFINITY);
                for (k, t) in m.0.iter().enumerate() {
                    if (t - v).abs() < d {
                        d = (t - v).abs();
                        best = k;
                    }
                }
                f64::from(u8::from(m.1[best] != c))
            })
            .collect())
    }

    #[test]
    fn pure_noise_labels_give_the_no_information_rate() {
        // Labels independent of the feature: a 1-NN memoriser has apparent error 0, an
        // out-of-bag error near 1/2; .632+ moves the estimate up to near γ ≈ 1/2.
        let n = 60;
        let x = Array2::from_shape_fn((n, 1), |(i, _)| i as f64);
        let mut rng = random::rng(42);
        let y: Array1<usize> = (0..n)
            .map(|_| usize::from(random::uniform(&mut rng, 0.0f64, 1.0) < 0.5))
            .collect();
        let r = bootstrap_632(
            &OneNn,
            &x,
            &y,
            zero_one,
            &Bootstrap632::new().n_bootstraps(100),
        )
        .expect("valid");
        assert_eq!(r.apparent_error, 0.0);
        assert!(r.train_errors.iter().all(|&e| e == 0.0));
        let gamma = r.no_information_error.expect("plus");
        // γ = Σ_k p_k (1 − q_k) with q = p for a memoriser: 2·p·(1 − p) ≈ 1/2.
        let p = y.iter().filter(|&&c| c == 1).count() as f64 / n as f64;
        assert!((gamma - 2.0 * p * (1.0 - p)).abs() < 1e-12, "{gamma}");
        assert!((r.estimate - 0.632 * mean(&r.oob_errors)).abs() < 1e-12);
        let plus = r.plus_632.expect("plus");
        assert!(plus > r.efron_632, "{plus} vs {}", r.efron_632);
        assert!((plus - gamma).abs() < 0.12, "{plus} vs {gamma}");
        let f = mean(&r.in_bag_fractions);
        assert!((f - (1.0 - (-1.0f64).exp())).abs() < 0.03, "{f}");
    }

    #[test]
    fn constant_regressor_hand_values_and_errors() {
        struct Zero;
        impl Fit<f64> for Zero {
            type Target = ArrayRef1<f64>;
            type Model = ();
            fn fit(&self, _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>) -> Result<()> {
                Ok(())
            }
        }
        let sq = |_: &(), _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<Array1<f64>> {
            Ok(y.mapv(|v| v * v))
        };
        // A model that ignores the data: every error is the mean of y² over the rows used;
        // the apparent error is mean(y²) = (1 + 4 + 9 + 16)/4 = 7.5 and so is γ.
        let x = Array2::zeros((4, 1));
        let y = array![1.0, 2.0, 3.0, 4.0];
        let r =
            bootstrap_632(&Zero, &x, &y, sq, &Bootstrap632::new().n_bootstraps(30)).expect("valid");
        assert_eq!(r.apparent_error, 7.5);
        assert_eq!(r.no_information_error, Some(7.5));
        // Deterministic for a fixed seed.
        let again =
            bootstrap_632(&Zero, &x, &y, sq, &Bootstrap632::new().n_bootstraps(30)).expect("valid");
        assert_eq!(format!("{r:?}"), format!("{again:?}"));
        assert!(bootstrap_632(&Zero, &x, &y, sq, &Bootstrap632::new().n_bootstraps(0)).is_err());
        let short = array![1.0];
        assert!(
            bootstrap_632(
                &Zero,
                &x.slice(ndarray::s![..1, ..]),
                &short,
                sq,
                &Bootstrap632::new()
            )
            .is_err()
        );
        let wrong_len = |_: &(), _x: &ArrayRef2<f64>, _y: &ArrayRef1<f64>| -> Result<Array1<f64>> {
            Ok(array![1.0])
        };
        assert!(bootstrap_632(&Zero, &x, &y, wrong_len, &Bootstrap632::new()).is_err());
        let nan = |_: &(), _x: &ArrayRef2<f64>, y: &ArrayRef1<f64>| -> Result<Array1<f64>> {
            Ok(y.mapv(|_| f64::NAN))
        };
        assert!(bootstrap_632(&Zero, &x, &y, nan, &Bootstrap632::new()).is_err());
        let no_plus =
            bootstrap_632(&Zero, &x, &y, sq, &Bootstrap632::new().plus(false)).expect("valid");
        assert!(no_plus.plus_632.is_none());
    }
}
