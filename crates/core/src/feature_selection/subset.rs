//! Exhaustive best-subset search for a small number of features (the course notes; Hastie,
//! Tibshirani & Friedman, *The Elements of Statistical Learning*, 2nd ed. (2009), §3.3.1;
//! catalog M-08, CL-183).

use super::sequential::checked;
use crate::{Error, Result, par};

/// Largest number of features [`best_subset`] accepts (`2^20 − 1 ≈ 10⁶` subsets).
pub const MAX_EXHAUSTIVE_FEATURES: usize = 20;

/// Per chunk of masks: the best `(score, mask)` of each size, and the number of evaluations.
type ChunkBest = (Vec<Option<(f64, u32)>>, usize);

/// Subsets scored per parallel task.
const CHUNK: usize = 512;

/// The outcome of [`best_subset`].
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct BestSubset {
    /// The best subset (feature indices ascending).
    pub selected: Vec<usize>,
    /// Its score.
    pub score: f64,
    /// `best_per_size[k − 1]` = the best subset of exactly `k` features and its score, for
    /// `k = 1..=max_size` (the "best subset selection" path `M_1, …, M_k`).
    pub best_per_size: Vec<(Vec<usize>, f64)>,
    /// Number of subsets scored.
    pub n_evaluations: usize,
}

/// Exhaustive search over every non-empty subset of `0..n_features` with at most `max_size`
/// features (all sizes when `None`): scores each with `score(&subset)` (higher is better; the
/// subset is sorted ascending) and returns the best.
///
/// "Exhaustive search is unfeasible as there are `2^n` subsets of `n` features" (the course
/// notes): hence the hard limit `n_features ≤ 20` ([`MAX_EXHAUSTIVE_FEATURES`]); use
/// [`SequentialFeatureSelector`](super::SequentialFeatureSelector) beyond that.
///
/// **Ties** (equal scores) go to the smaller subset, then to the lexicographically first
/// sorted index list (`[0, 3]` before `[1, 2]`): a total order, so the answer is the same
/// whatever the parallel schedule. Subsets are scored in parallel in fixed chunks of bit masks
/// (`crate::par`); the closure must be `Sync`. An error of the closure aborts the search (the
/// first in mask order is returned).
///
/// Cost: `Σ_{k ≤ max_size} C(D, k)` evaluations (`2^D − 1` for all sizes).
///
/// ```
/// use ndlearn_core::feature_selection::best_subset;
///
/// // Features 1 and 3 only help together; each feature costs 0.05.
/// let score = |s: &[usize]| {
///     let pair = s.contains(&1) && s.contains(&3);
///     Ok(if pair { 3.0 } else { 0.0 } + if s.contains(&0) { 1.0 } else { 0.0 }
///         - 0.05 * s.len() as f64)
/// };
/// let r = best_subset(5, None, score)?;
/// assert_eq!(r.selected, vec![0, 1, 3]);
/// assert_eq!(r.n_evaluations, 31);
/// assert_eq!(r.best_per_size[1].0, vec![1, 3]);
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// `n_features = 0` or `> 20`; `max_size = 0`; an error or a non-finite value from the closure.
pub fn best_subset<S>(n_features: usize, max_size: Option<usize>, score: S) -> Result<BestSubset>
where
    S: Fn(&[usize]) -> Result<f64> + Sync,
{
    let d = n_features;
    if d == 0 || d > MAX_EXHAUSTIVE_FEATURES {
        return Err(Error::invalid_param(
            "n_features",
            format!(
                "exhaustive search needs 1..={MAX_EXHAUSTIVE_FEATURES} features (2^D subsets), got {d}; use SequentialFeatureSelector"
            ),
        ));
    }
    let max_size = max_size.unwrap_or(d).min(d);
    if max_size == 0 {
        return Err(Error::invalid_param("max_size", "must be >= 1"));
    }
    let n_masks = 1usize << d;
    // Per chunk: the best (score, mask) of each size, and the number of evaluations.
    let partials = par::map_chunks(n_masks, CHUNK, |range| -> Result<ChunkBest> {
        let mut best: Vec<Option<(f64, u32)>> = vec![None; max_size];
        let mut evals = 0;
        let mut subset = Vec::with_capacity(d);
        for mask in range {
            let m = mask as u32;
            let size = m.count_ones() as usize;
            if size == 0 || size > max_size {
                continue;
            }
            subset.clear();
            subset.extend((0..d).filter(|&j| m >> j & 1 == 1));
            let s = checked(&score, &subset)?;
            evals += 1;
            let slot = &mut best[size - 1];
            if slot.is_none_or(|b| better(s, m, b.0, b.1)) {
                *slot = Some((s, m));
            }
        }
        Ok((best, evals))
    });
    let mut best: Vec<Option<(f64, u32)>> = vec![None; max_size];
    let mut n_evaluations = 0;
    for part in partials {
        let (chunk_best, evals) = part?;
        n_evaluations += evals;
        for (slot, cand) in best.iter_mut().zip(chunk_best) {
            if let Some((s, m)) = cand {
                if slot.is_none_or(|b| better(s, m, b.0, b.1)) {
                    *slot = Some((s, m));
                }
            }
        }
    }
    let to_vec = |m: u32| (0..d).filter(|&j| m >> j & 1 == 1).collect::<Vec<usize>>();
    let best_per_size: Vec<(Vec<usize>, f64)> = best
        .iter()
        .flatten()
        .map(|&(s, m)| (to_vec(m), s))
        .collect();
    let (mut top_s, mut top_m) = (f64::NEG_INFINITY, 0u32);
    for &(s, m) in best.iter().flatten() {
        if top_m == 0 || better(s, m, top_s, top_m) {
            (top_s, top_m) = (s, m);
        }
    }
    Ok(BestSubset {
        selected: to_vec(top_m),
        score: top_s,
        best_per_size,
        n_evaluations,
    })
}

/// Is subset `a` (score `sa`, mask `ma`) better than `b`? Higher score; then fewer features;
/// then the lexicographically smaller sorted index list.
fn better(sa: f64, ma: u32, sb: f64, mb: u32) -> bool {
    if sa != sb {
        return sa > sb;
    }
    let (ca, cb) = (ma.count_ones(), mb.count_ones());
    if ca != cb {
        return ca < cb;
    }
    lex_less(ma, mb)
}

/// Lexicographic order of the sorted index lists of two masks with the same popcount: at the
/// first position where the lists differ, the smaller index wins; that is the lowest bit set
/// in exactly one of them belonging to `a`.
fn lex_less(a: u32, b: u32) -> bool {
    let diff = a ^ b;
    diff != 0 && a & (diff & diff.wrapping_neg()) != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lexicographic_order_of_masks() {
        // [0, 3] < [1, 2]; [0, 1] < [0, 2]; [1, 4] < [2, 3].
        assert!(lex_less(0b1001, 0b0110));
        assert!(!lex_less(0b0110, 0b1001));
        assert!(lex_less(0b011, 0b101));
        assert!(lex_less(0b10010, 0b01100));
        assert!(!lex_less(0b11, 0b11));
    }

    #[test]
    fn ties_prefer_small_then_lexicographic() {
        // Every subset scores the same: the winner is the single feature {0}.
        let r = best_subset(6, None, |_| Ok(1.0)).expect("valid");
        assert_eq!(r.selected, vec![0]);
        assert_eq!(r.n_evaluations, 63);
        assert_eq!(r.best_per_size[2].0, vec![0, 1, 2]);
        // Score = number of features in {2, 3, 4}, capped: ties among the size-2 subsets.
        let r = best_subset(5, None, |s: &[usize]| {
            Ok(s.iter().filter(|&&j| (2..5).contains(&j)).count().min(2) as f64)
        })
        .expect("valid");
        assert_eq!(r.selected, vec![2, 3]);
        assert_eq!(r.score, 2.0);
    }

    #[test]
    fn max_size_and_counts() {
        let r = best_subset(
            10,
            Some(2),
            |s: &[usize]| Ok(s.iter().sum::<usize>() as f64),
        )
        .expect("valid");
        assert_eq!(r.n_evaluations, 10 + 45);
        assert_eq!(r.selected, vec![8, 9]);
        assert_eq!(r.best_per_size.len(), 2);
        assert_eq!(r.best_per_size[0], (vec![9], 9.0));
    }

    #[test]
    fn matches_brute_force_over_chunks() {
        // 12 features → 4095 subsets over several chunks; a pseudo-random score.
        let score = |s: &[usize]| {
            let h = s.iter().fold(17u64, |h, &j| {
                h.wrapping_mul(31).wrapping_add(j as u64 * 7 + 3)
            });
            Ok(((h % 1000) as f64) / 10.0)
        };
        let r = best_subset(12, None, score).expect("valid");
        let mut best: Option<(f64, u32)> = None;
        for m in 1u32..4096 {
            let sub: Vec<usize> = (0..12).filter(|&j| m >> j & 1 == 1).collect();
            let s = score(&sub).expect("ok");
            if best.is_none_or(|b| better(s, m, b.0, b.1)) {
                best = Some((s, m));
            }
        }
        let (s, m) = best.expect("some");
        assert_eq!(r.score, s);
        assert_eq!(
            r.selected,
            (0..12).filter(|&j| m >> j & 1 == 1).collect::<Vec<_>>()
        );
    }

    #[test]
    fn errors() {
        assert!(best_subset(0, None, |_| Ok(0.0)).is_err());
        assert!(best_subset(21, None, |_| Ok(0.0)).is_err());
        assert!(best_subset(3, Some(0), |_| Ok(0.0)).is_err());
        assert!(best_subset(3, None, |_| Ok(f64::INFINITY)).is_err());
        assert!(best_subset(3, None, |_| Err(Error::invalid_param("x", "no"))).is_err());
    }
}
