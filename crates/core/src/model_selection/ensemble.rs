//! Majority-vote ensemble error of independent base classifiers (catalog T-13, CL-186).
//!
//! The course notes (as Tan, Steinbach & Kumar, *Introduction to Data Mining*, Addison-Wesley
//! (2005), ch. 5; Hansen & Salamon, "Neural network ensembles", IEEE TPAMI 12(10), 1990): with
//! `n` independent base classifiers of
//! error rate `e`, a majority vote is wrong when more than half of them are wrong, a binomial
//! tail:
//!
//! ```text
//! P(ensemble wrong) = Σ_{i > n/2} C(n, i) eⁱ (1 − e)ⁿ⁻ⁱ
//! ```
//!
//! e.g. 25 classifiers with `e = 0.35`: `Σ_{i=13}^{25} … = 0.06` (0.060445 to six digits).
//!
//! For even `n` a vote can tie at `i = n/2` wrong votes; the course notes do not say what happens, so
//! the rule is a parameter ([`TieRule`], an implementation choice): a tie counts as an error,
//! as correct, or is broken by a fair coin (half the tie probability counts as error; this is
//! what random tie-breaking between two classes gives). For odd `n` there is no tie and all rules
//! agree. [`majority_vote_error`] uses the coin.
//!
//! The binomial terms are computed in log space (`ln C(n, i)` from a running sum of `ln k`), so
//! large `n` neither overflows nor underflows; cost `O(n)`. The heterogeneous version
//! (independent classifiers with different error rates, a Poisson-binomial tail) uses the
//! `O(n²)` recursion over the number of wrong votes.

use crate::{Error, Result};

/// How a tied vote (even `n`, exactly `n/2` wrong votes) is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum TieRule {
    /// A tie is broken by a fair coin: half of its probability counts as error.
    #[default]
    Coin,
    /// A tie counts as an error (`i ≥ n/2` is wrong).
    Error,
    /// A tie counts as correct (`i > n/2` is wrong, the course notes' sum taken literally).
    Correct,
}

impl TieRule {
    fn weight(self) -> f64 {
        match self {
            Self::Coin => 0.5,
            Self::Error => 1.0,
            Self::Correct => 0.0,
        }
    }
}

fn check_rate(e: f64, name: &'static str) -> Result<()> {
    if (0.0..=1.0).contains(&e) {
        Ok(())
    } else {
        Err(Error::invalid_param(
            name,
            format!("an error rate must lie in [0, 1], got {e}"),
        ))
    }
}

/// Error of a majority vote over `n` independent classifiers of error rate `e`, ties broken
/// by a fair coin (see the module docs).
///
/// ```
/// use ndlearn_core::model_selection::majority_vote_error;
///
/// // The course notes' example: 25 classifiers with e = 0.35.
/// let p = majority_vote_error(25, 0.35)?;
/// assert!((p - 0.060445).abs() < 5e-7);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn majority_vote_error(n: usize, e: f64) -> Result<f64> {
    majority_vote_error_with(n, e, TieRule::Coin)
}

/// Error of a majority vote over `n` independent classifiers of error rate `e`, with an
/// explicit [`TieRule`] for even `n`.
///
/// Errors when `n == 0` or `e ∉ [0, 1]`.
pub fn majority_vote_error_with(n: usize, e: f64, tie: TieRule) -> Result<f64> {
    if n == 0 {
        return Err(Error::invalid_param("n", "needs at least one classifier"));
    }
    check_rate(e, "e")?;
    let weight = |i: usize| -> f64 {
        if 2 * i > n {
            1.0
        } else if 2 * i == n {
            tie.weight()
        } else {
            0.0
        }
    };
    if e == 0.0 {
        return Ok(weight(0));
    }
    if e == 1.0 {
        return Ok(weight(n));
    }
    let (le, lq) = (e.ln(), (-e).ln_1p());
    // ln n! by a running sum, then ln C(n, i) = ln n! − ln i! − ln (n − i)!.
    let mut ln_fact = Vec::with_capacity(n + 1);
    ln_fact.push(0.0f64);
    for k in 1..=n {
        let prev = ln_fact[k - 1];
        ln_fact.push(prev + (k as f64).ln());
    }
    let first = n / 2; // the smallest i with a non-zero weight
    let total: f64 = (first..=n)
        .map(|i| {
            let w = weight(i);
            if w == 0.0 {
                return 0.0;
            }
            let ln_term =
                ln_fact[n] - ln_fact[i] - ln_fact[n - i] + i as f64 * le + (n - i) as f64 * lq;
            w * ln_term.exp()
        })
        .sum();
    Ok(total.clamp(0.0, 1.0))
}

/// Error of a majority vote over independent classifiers with individual error rates `errors`
/// (a Poisson-binomial tail), with a [`TieRule`] for ties.
///
/// ```
/// use ndlearn_core::model_selection::{TieRule, majority_vote_error_heterogeneous, majority_vote_error_with};
///
/// // Equal rates give the binomial tail.
/// let a = majority_vote_error_heterogeneous(&[0.3; 5], TieRule::Coin)?;
/// let b = majority_vote_error_with(5, 0.3, TieRule::Coin)?;
/// assert!((a - b).abs() < 1e-12);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn majority_vote_error_heterogeneous(errors: &[f64], tie: TieRule) -> Result<f64> {
    let n = errors.len();
    if n == 0 {
        return Err(Error::invalid_param(
            "errors",
            "needs at least one classifier",
        ));
    }
    for &e in errors {
        check_rate(e, "errors")?;
    }
    // dist[k] = P(k wrong votes among the classifiers seen so far).
    let mut dist = vec![0.0f64; n + 1];
    dist[0] = 1.0;
    for (j, &e) in errors.iter().enumerate() {
        for k in (0..=j + 1).rev() {
            let stay = dist[k] * (1.0 - e);
            let from = if k > 0 { dist[k - 1] * e } else { 0.0 };
            dist[k] = stay + from;
        }
    }
    let total: f64 = dist
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if 2 * i > n {
                *p
            } else if 2 * i == n {
                tie.weight() * p
            } else {
                0.0
            }
        })
        .sum();
    Ok(total.clamp(0.0, 1.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_example_tv7() {
        // Catalog §1.15 TV7: 25 classifiers, e = 0.35 -> 0.06 (notes, rounded) and
        // 0.060445 (derived, six digits).
        let p = majority_vote_error(25, 0.35).expect("valid");
        assert!((p - 0.06).abs() < 5e-4, "{p}");
        assert!((p - 0.060445).abs() < 5e-7, "{p}");
        // Odd n: all tie rules agree.
        for rule in [TieRule::Error, TieRule::Correct] {
            let q = majority_vote_error_with(25, 0.35, rule).expect("valid");
            assert!((q - p).abs() < 1e-15);
        }
    }

    #[test]
    fn hand_checked_small_cases() {
        // n = 3, e = 0.2: P(2 or 3 wrong) = 3·0.04·0.8 + 0.008 = 0.104.
        let p = majority_vote_error(3, 0.2).expect("valid");
        assert!((p - 0.104).abs() < 1e-15, "{p}");
        // n = 2, e = 0.5: P(tie) = 0.5, P(2 wrong) = 0.25.
        let coin = majority_vote_error_with(2, 0.5, TieRule::Coin).expect("valid");
        let err = majority_vote_error_with(2, 0.5, TieRule::Error).expect("valid");
        let ok = majority_vote_error_with(2, 0.5, TieRule::Correct).expect("valid");
        assert!(
            (coin - 0.5).abs() < 1e-15 && (err - 0.75).abs() < 1e-15 && (ok - 0.25).abs() < 1e-15
        );
        // n = 1: the classifier itself.
        assert!((majority_vote_error(1, 0.3).expect("valid") - 0.3).abs() < 1e-15);
        // Extremes.
        assert_eq!(majority_vote_error(4, 0.0).ok(), Some(0.0));
        assert_eq!(majority_vote_error(4, 1.0).ok(), Some(1.0));
        // An even ensemble with a coin is exactly as good as one classifier fewer:
        // n = 2m with coin == n = 2m − 1.
        let even = majority_vote_error(24, 0.35).expect("valid");
        let odd = majority_vote_error(23, 0.35).expect("valid");
        assert!((even - odd).abs() < 1e-14, "{even} vs {odd}");
    }

    #[test]
    fn large_n_and_errors() {
        // e < 1/2: the error vanishes as n grows; e > 1/2: it tends to 1.
        assert!(majority_vote_error(10_001, 0.45).expect("valid") < 1e-20);
        assert!(majority_vote_error(10_001, 0.55).expect("valid") > 1.0 - 1e-9);
        assert!(majority_vote_error(0, 0.1).is_err());
        assert!(majority_vote_error(3, -0.1).is_err());
        assert!(majority_vote_error(3, f64::NAN).is_err());
        assert!(majority_vote_error_heterogeneous(&[], TieRule::Coin).is_err());
        assert!(majority_vote_error_heterogeneous(&[0.2, 1.5], TieRule::Coin).is_err());
        // Heterogeneous, hand-checked: rates 0.1, 0.2, 0.3, majority (≥ 2 wrong):
        // P(2) = .1·.2·.7 + .1·.8·.3 + .9·.2·.3 = .014 + .024 + .054 = .092, P(3) = .006.
        let h = majority_vote_error_heterogeneous(&[0.1, 0.2, 0.3], TieRule::Coin).expect("valid");
        assert!((h - 0.098).abs() < 1e-15, "{h}");
        for n in [4usize, 7, 10] {
            for rule in [TieRule::Coin, TieRule::Error, TieRule::Correct] {
                let a = majority_vote_error_heterogeneous(&vec![0.3; n], rule).expect("valid");
                let b = majority_vote_error_with(n, 0.3, rule).expect("valid");
                assert!((a - b).abs() < 1e-13, "n {n}: {a} vs {b}");
            }
        }
    }
}
