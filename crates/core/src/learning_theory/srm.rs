//! Structural risk minimisation (CL-192; Vapnik, *The Nature of Statistical Learning Theory*,
//! Springer (1995)): among nested hypothesis classes
//! of growing capacity `h`, pick the one minimising the bound
//! `R ≤ R_emp + ψ(h/N, log η/N)` — training error plus a capacity penalty that grows with `h`.
//! The course notes leave `ψ` open ("some monotonically increasing function"); [`SrmPenalty`]
//! offers the two VC penalties of [`super::bounds`] (implementation choice). Ties go to the
//! smaller capacity (Occam's razor, as the course notes say).

use crate::{Error, Result};

use super::bounds::{vapnik_penalty, vc_penalty};

/// The capacity penalty `ψ`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SrmPenalty {
    /// Vapnik's form `√((h (ln(2N/h) + 1) − ln(δ/4)) / N)` (Vapnik (1995); Burges, Data Mining
    /// and Knowledge Discovery 2(2), 1998).
    #[default]
    Vapnik,
    /// The growth-function form `√((8/N) ln(4 m_H(2N)/δ))` with Sauer's bound (Abu-Mostafa et
    /// al., *Learning from Data* (2012), §2.1).
    Growth,
}

/// One candidate class: its training error and its capacity (VC dimension).
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SrmCandidate {
    /// Empirical risk `R_emp ∈ [0, 1]` of the class's best hypothesis on the training set.
    pub train_error: f64,
    /// VC dimension `h ≥ 1`.
    pub vc_dim: u64,
}

/// The SRM choice.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SrmSelection {
    /// Index of the chosen candidate.
    pub best: usize,
    /// `R_emp + ψ` for every candidate, in input order.
    pub bounds: Vec<f64>,
    /// `ψ` for every candidate.
    pub penalties: Vec<f64>,
}

/// Picks the candidate minimising `train_error + penalty(vc_dim)` for `n` training samples at
/// confidence `1 − δ`.
///
/// # Errors
/// [`Error::InvalidParam`] for no candidates, a training error outside `[0, 1]`, a zero VC
/// dimension, `n = 0` or `δ ∉ (0, 1)`.
///
/// ```
/// use ndlearn_core::learning_theory::{SrmCandidate, SrmPenalty, srm_select};
/// // richer classes fit better but pay more capacity
/// let c = [
///     SrmCandidate { train_error: 0.30, vc_dim: 2 },
///     SrmCandidate { train_error: 0.10, vc_dim: 5 },
///     SrmCandidate { train_error: 0.08, vc_dim: 60 },
/// ];
/// let s = srm_select(&c, 2000, 0.05, SrmPenalty::Vapnik)?;
/// assert_eq!(s.best, 1);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn srm_select(
    candidates: &[SrmCandidate],
    n: u64,
    delta: f64,
    penalty: SrmPenalty,
) -> Result<SrmSelection> {
    if candidates.is_empty() {
        return Err(Error::invalid_param(
            "candidates",
            "need at least one candidate class",
        ));
    }
    let mut penalties = Vec::with_capacity(candidates.len());
    for (i, c) in candidates.iter().enumerate() {
        if !(0.0..=1.0).contains(&c.train_error) {
            return Err(Error::invalid_param(
                "train_error",
                format!("candidate {i}: must lie in [0, 1], got {}", c.train_error),
            ));
        }
        penalties.push(match penalty {
            SrmPenalty::Vapnik => vapnik_penalty(n, c.vc_dim, delta)?,
            SrmPenalty::Growth => {
                if c.vc_dim == 0 {
                    return Err(Error::invalid_param(
                        "vc_dim",
                        "the VC dimension must be >= 1",
                    ));
                }
                vc_penalty(n, c.vc_dim, delta)?
            }
        });
    }
    let bounds: Vec<f64> = candidates
        .iter()
        .zip(&penalties)
        .map(|(c, p)| c.train_error + p)
        .collect();
    let mut best = 0;
    for i in 1..bounds.len() {
        let better = bounds[i] < bounds[best]
            || (bounds[i] == bounds[best] && candidates[i].vc_dim < candidates[best].vc_dim);
        if better {
            best = i;
        }
    }
    Ok(SrmSelection {
        best,
        bounds,
        penalties,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_minimum_bound_and_prefers_small_capacity() {
        let c = [
            SrmCandidate {
                train_error: 0.30,
                vc_dim: 2,
            },
            SrmCandidate {
                train_error: 0.10,
                vc_dim: 5,
            },
            SrmCandidate {
                train_error: 0.08,
                vc_dim: 60,
            },
        ];
        let s = srm_select(&c, 2000, 0.05, SrmPenalty::Vapnik).expect("valid");
        assert_eq!(s.best, 1);
        for (i, b) in s.bounds.iter().enumerate() {
            assert!((b - c[i].train_error - s.penalties[i]).abs() < 1e-15);
            assert!(*b >= s.bounds[s.best]);
        }
        // penalties grow with capacity
        assert!(s.penalties[0] < s.penalties[1] && s.penalties[1] < s.penalties[2]);
        // the growth form is looser but orders the classes the same way here
        let g = srm_select(&c, 2000, 0.05, SrmPenalty::Growth).expect("valid");
        assert!(g.penalties.iter().zip(&s.penalties).all(|(a, b)| a > b));
        // equal bounds: the smaller capacity wins
        let tie = [
            SrmCandidate {
                train_error: 0.2,
                vc_dim: 4,
            },
            SrmCandidate {
                train_error: 0.2,
                vc_dim: 4,
            },
        ];
        assert_eq!(
            srm_select(&tie, 100, 0.1, SrmPenalty::Vapnik)
                .expect("ok")
                .best,
            0
        );
        // with lots of data the better fit wins
        let s = srm_select(&c, 10_000_000, 0.05, SrmPenalty::Vapnik).expect("valid");
        assert_eq!(s.best, 2);
    }

    #[test]
    fn errors() {
        assert!(srm_select(&[], 10, 0.05, SrmPenalty::Vapnik).is_err());
        let bad = [SrmCandidate {
            train_error: 1.5,
            vc_dim: 1,
        }];
        assert!(srm_select(&bad, 10, 0.05, SrmPenalty::Vapnik).is_err());
        let zero = [SrmCandidate {
            train_error: 0.1,
            vc_dim: 0,
        }];
        assert!(srm_select(&zero, 10, 0.05, SrmPenalty::Vapnik).is_err());
        assert!(srm_select(&zero, 10, 0.05, SrmPenalty::Growth).is_err());
        let ok = [SrmCandidate {
            train_error: 0.1,
            vc_dim: 1,
        }];
        assert!(srm_select(&ok, 0, 0.05, SrmPenalty::Vapnik).is_err());
        assert!(srm_select(&ok, 10, 0.0, SrmPenalty::Growth).is_err());
    }
}
