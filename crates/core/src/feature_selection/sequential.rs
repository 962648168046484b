//! Wrapper search: forward stepwise selection and backward elimination over a subset-scoring
//! closure (the course notes; Hastie, Tibshirani & Friedman, *The Elements of Statistical
//! Learning*, 2nd ed. (2009), §3.3.2; Kohavi & John, "Wrappers for feature subset selection",
//! Artificial Intelligence 97, 1997; catalog M-08, CL-182).

use crate::{Error, Result, par};

/// Which way a [`SequentialFeatureSelector`] walks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum Direction {
    /// Start empty; add the best feature at each step (forward stepwise selection).
    #[default]
    Forward,
    /// Start with every feature; remove the one whose removal scores best (backward
    /// elimination).
    Backward,
}

/// Greedy sequential feature selection over any subset score (scikit-learn's
/// `SequentialFeatureSelector`, with the model evaluation left to the caller).
///
/// The caller supplies `score(&subset) -> Result<f64>`, **higher is better**, for a sorted list
/// of column indices. It typically fits an estimator on those columns and returns a validation
/// or cross-validation score; see the [module docs](super) for a complete example built by hand
/// from a holdout split.
///
/// # Algorithm
///
/// *Forward* (the course notes' "for each `1 ≤ i ≤ D`: best `i`-feature model given the
/// previously selected features"; forward stepwise selection, Hastie, Tibshirani & Friedman
/// (2009), §3.3.2): `S = ∅`; at each step evaluate `score(S ∪ {j})` for every
/// `j ∉ S`, add the best `j`. *Backward*: `S = {0, …, D−1}`; at each step evaluate
/// `score(S \ {j})` for every `j ∈ S`, remove the `j` whose removal scores best. Equal scores
/// go to the lower feature index (as scikit-learn). A step is **not taken** and the search stops
/// when `tol` is set and the new score improves on the current one by less than `tol`:
/// `new − current < tol`. Forward starts from `current = −∞` (the empty set is never scored);
/// backward starts from the score of the full set (scikit-learn starts backward at `−∞` too, so
/// its first removal is always taken: an implementation difference).
///
/// How many features: `n_features_to_select = Some(k)` stops at `k` selected features (forward:
/// after `k` additions; backward: after `D − k` removals), earlier if `tol` stops it;
/// `None` with `tol` set runs until `tol` stops it (or all / one feature remain); `None` without
/// `tol` selects `⌊D/2⌋` (at least 1), scikit-learn's default.
///
/// Cost: `O(D · k)` score evaluations (`O(D²)` models for a full path, the course notes' count). The
/// candidates of one step are scored in parallel on the rayon pool (`crate::par`), so the
/// closure must be `Sync`; the choice is made in index order afterwards, so the result does
/// not depend on the thread count. Since the closure runs inside rayon tasks, a closure that
/// fits a large model with multithreaded BLAS should be run inside `par::with_threads(1, ..)`
/// (sequential candidates, BLAS threads for each fit) rather than nest the two pools.
///
/// ```
/// use ndlearn_core::feature_selection::{Direction, SequentialFeatureSelector};
///
/// // A made-up additive score: features 2 and 0 help, every feature costs 0.1.
/// let value = [0.5, 0.0, 1.0, 0.05];
/// let score = |s: &[usize]| Ok(s.iter().map(|&j| value[j] - 0.1).sum::<f64>());
/// let sel = SequentialFeatureSelector::default().tol(Some(0.0)).select(4, score)?;
/// assert_eq!(sel.selected, vec![0, 2]);
/// assert_eq!(sel.order, vec![2, 0]);
/// let back = SequentialFeatureSelector::default()
///     .direction(Direction::Backward)
///     .tol(Some(0.0))
///     .select(4, score)?;
/// assert_eq!(back.selected, vec![0, 2]);
/// assert_eq!(back.order, vec![1, 3]); // removed first: the most harmful
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SequentialFeatureSelector {
    /// Forward selection or backward elimination.
    pub direction: Direction,
    /// Number of features to end with (`None`: see the type docs).
    pub n_features_to_select: Option<usize>,
    /// Minimum improvement for a step to be taken (`None`: no such stop). May be negative for
    /// backward elimination (accept a small loss for a smaller set).
    pub tol: Option<f64>,
}

/// The outcome of a sequential search.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct SequentialSelection {
    /// The selected feature indices, ascending.
    pub selected: Vec<usize>,
    /// `support[j]` is true for selected features.
    pub support: Vec<bool>,
    /// Features in the order they were added (forward) or removed (backward).
    pub order: Vec<usize>,
    /// The score after each step, aligned with `order`.
    pub scores: Vec<f64>,
    /// Score of the full set (backward only).
    pub initial_score: Option<f64>,
    /// Number of calls of the score closure.
    pub n_evaluations: usize,
}

impl SequentialSelection {
    /// The score of the selected set (the last step's, or the initial one when no step was
    /// taken; `None` for a forward search that took no step).
    pub fn score(&self) -> Option<f64> {
        self.scores.last().copied().or(self.initial_score)
    }
}

impl SequentialFeatureSelector {
    crate::setters! {
        /// Sets [`SequentialFeatureSelector::direction`].
        direction: Direction,
        /// Sets [`SequentialFeatureSelector::n_features_to_select`].
        n_features_to_select: Option<usize>,
        /// Sets [`SequentialFeatureSelector::tol`].
        tol: Option<f64>,
    }

    /// Checks the hyperparameters against the number of features `d`.
    pub fn validate(&self, d: usize) -> Result<()> {
        if d == 0 {
            return Err(Error::invalid_param(
                "n_features",
                "need at least one feature",
            ));
        }
        if let Some(k) = self.n_features_to_select {
            if k == 0 || k > d {
                return Err(Error::invalid_param(
                    "n_features_to_select",
                    format!("must lie in 1..={d}, got {k}"),
                ));
            }
        }
        if let Some(t) = self.tol {
            if !t.is_finite() {
                return Err(Error::invalid_param(
                    "tol",
                    format!("must be finite, got {t}"),
                ));
            }
            if t < 0.0 && self.direction == Direction::Forward {
                return Err(Error::invalid_param(
                    "tol",
                    format!("must be >= 0 for forward selection, got {t}"),
                ));
            }
        }
        Ok(())
    }

    /// Runs the search over features `0..n_features` (see the type docs).
    ///
    /// # Errors
    /// Invalid hyperparameters; the first error of the score closure (in candidate order); a
    /// non-finite score.
    pub fn select<S>(&self, n_features: usize, score: S) -> Result<SequentialSelection>
    where
        S: Fn(&[usize]) -> Result<f64> + Sync,
    {
        self.validate(n_features)?;
        let d = n_features;
        let target = match (self.n_features_to_select, self.tol) {
            (Some(k), _) => k,
            (None, Some(_)) => match self.direction {
                Direction::Forward => d,
                Direction::Backward => 1,
            },
            (None, None) => (d / 2).max(1),
        };
        let mut in_set = vec![self.direction == Direction::Backward; d];
        let mut order = Vec::new();
        let mut scores = Vec::new();
        let mut n_evaluations = 0;
        let (mut current, initial_score) = match self.direction {
            Direction::Forward => (f64::NEG_INFINITY, None),
            Direction::Backward => {
                let all: Vec<usize> = (0..d).collect();
                let s = checked(&score, &all)?;
                n_evaluations += 1;
                (s, Some(s))
            }
        };
        let n_steps = match self.direction {
            Direction::Forward => target,
            Direction::Backward => d - target,
        };
        for _ in 0..n_steps {
            let candidates: Vec<usize> = (0..d)
                .filter(|&j| in_set[j] == (self.direction == Direction::Backward))
                .collect();
            let evaluated = par::try_map_tasks(candidates.len(), |c| {
                let j = candidates[c];
                let subset: Vec<usize> = (0..d)
                    .filter(|&m| match self.direction {
                        Direction::Forward => in_set[m] || m == j,
                        Direction::Backward => in_set[m] && m != j,
                    })
                    .collect();
                checked(&score, &subset)
            })?;
            n_evaluations += candidates.len();
            // Best score, ties to the lower index (candidates are ascending).
            let mut best = 0;
            for (c, &s) in evaluated.iter().enumerate() {
                if s > evaluated[best] {
                    best = c;
                }
            }
            let new = evaluated[best];
            if self.tol.is_some_and(|t| new - current < t) {
                break;
            }
            let j = candidates[best];
            in_set[j] = self.direction == Direction::Forward;
            order.push(j);
            scores.push(new);
            current = new;
        }
        let selected: Vec<usize> = (0..d).filter(|&j| in_set[j]).collect();
        Ok(SequentialSelection {
            selected,
            support: in_set,
            order,
            scores,
            initial_score,
            n_evaluations,
        })
    }
}

/// Calls the score closure and rejects NaN or infinite scores.
pub(crate) fn checked<S>(score: &S, subset: &[usize]) -> Result<f64>
where
    S: Fn(&[usize]) -> Result<f64>,
{
    let s = score(subset)?;
    if s.is_finite() {
        Ok(s)
    } else {
        Err(Error::invalid_param(
            "score",
            format!(
                "the score closure returned {s} for features {subset:?}; scores must be finite"
            ),
        ))
    }
}

/// Forward stepwise selection (see [`SequentialFeatureSelector`]): add features while the score
/// improves by at least `tol` (when set), up to `max_features` (all when `None`).
///
/// # Errors
/// As [`SequentialFeatureSelector::select`].
pub fn forward_selection<S>(
    n_features: usize,
    max_features: Option<usize>,
    tol: Option<f64>,
    score: S,
) -> Result<SequentialSelection>
where
    S: Fn(&[usize]) -> Result<f64> + Sync,
{
    SequentialFeatureSelector {
        direction: Direction::Forward,
        n_features_to_select: Some(max_features.unwrap_or(n_features)),
        tol,
    }
    .select(n_features, score)
}

/// Backward elimination (see [`SequentialFeatureSelector`]): remove features while the score
/// improves by at least `tol` (when set), down to `min_features` (1 when `None`).
///
/// ```
/// use ndlearn_core::feature_selection::backward_elimination;
///
/// // Features 0 and 1 only work together; feature 2 is useless and costs 0.1.
/// let score = |s: &[usize]| {
///     let pair = s.contains(&0) && s.contains(&1);
///     Ok(if pair { 1.0 } else { 0.0 } - 0.1 * s.len() as f64)
/// };
/// let r = backward_elimination(3, None, Some(0.0), score)?;
/// assert_eq!(r.selected, vec![0, 1]); // forward selection would stop at one feature
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
///
/// # Errors
/// As [`SequentialFeatureSelector::select`].
pub fn backward_elimination<S>(
    n_features: usize,
    min_features: Option<usize>,
    tol: Option<f64>,
    score: S,
) -> Result<SequentialSelection>
where
    S: Fn(&[usize]) -> Result<f64> + Sync,
{
    SequentialFeatureSelector {
        direction: Direction::Backward,
        n_features_to_select: Some(min_features.unwrap_or(1)),
        tol,
    }
    .select(n_features, score)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Score with an interaction: features 1 and 3 are only useful together.
    fn interaction(s: &[usize]) -> Result<f64> {
        let has = |j| s.contains(&j);
        let mut v = 0.0;
        if has(0) {
            v += 1.0;
        }
        if has(1) && has(3) {
            v += 3.0;
        }
        if has(2) {
            v += 0.2;
        }
        Ok(v - 0.05 * s.len() as f64)
    }

    #[test]
    fn forward_path_and_counts() {
        let r = forward_selection(4, None, None, interaction).expect("valid");
        // Step 1: {0} = 0.95 beats {2} = 0.15 and {1}, {3} = -0.05.
        // Step 2: {0,2} = 1.1; {0,1} = {0,3} = 0.9. Step 3: {0,1,2} = 1.05 vs {0,2,3} = 1.05 →
        // tie to the lower index 1. Step 4: 3 → 4.0.
        assert_eq!(r.order, vec![0, 2, 1, 3]);
        assert_eq!(r.n_evaluations, 4 + 3 + 2 + 1);
        let expect = [0.95, 1.1, 1.05, 4.0];
        for (a, b) in r.scores.iter().zip(expect) {
            assert!((a - b).abs() < 1e-12);
        }
        // With tol = 0 forward stops at step 3 (1.05 < 1.1): greedy misses the pair.
        let r = forward_selection(4, None, Some(0.0), interaction).expect("valid");
        assert_eq!(r.selected, vec![0, 2]);
        assert!((r.score().expect("two steps") - 1.1).abs() < 1e-12);
        // max_features.
        let r = forward_selection(4, Some(1), None, interaction).expect("valid");
        assert_eq!(r.selected, vec![0]);
    }

    #[test]
    fn backward_keeps_the_pair() {
        // Full set: 4.0. Removing 0 → 3.05, 1 or 3 → 1.05, 2 → 3.85 (best, but a loss of 0.15):
        // with tol = 0 nothing is removed.
        let r = backward_elimination(4, None, Some(0.0), interaction).expect("valid");
        assert_eq!(r.initial_score, Some(4.0));
        assert!(r.order.is_empty());
        assert_eq!(r.selected, vec![0, 1, 2, 3]);
        assert_eq!(r.score(), Some(4.0));
        // tol = -0.2 accepts that loss; then {0,1,3}: removing 0 → 2.9 (a loss of 0.95) stops.
        let r = backward_elimination(4, None, Some(-0.2), interaction).expect("valid");
        assert_eq!(r.order, vec![2]);
        assert_eq!(r.selected, vec![0, 1, 3]);
        // Without tol, down to 2 features: {1, 3}.
        let r = SequentialFeatureSelector::default()
            .direction(Direction::Backward)
            .n_features_to_select(Some(2))
            .select(4, interaction)
            .expect("valid");
        assert_eq!(r.selected, vec![1, 3]);
        assert_eq!(r.support, vec![false, true, false, true]);
        assert_eq!(r.n_evaluations, 1 + 4 + 3);
        // Default: half of the features.
        let r = SequentialFeatureSelector::default()
            .select(4, interaction)
            .expect("valid");
        assert_eq!(r.selected.len(), 2);
    }

    #[test]
    fn errors() {
        let s = SequentialFeatureSelector::default();
        assert!(s.select(0, interaction).is_err());
        assert!(
            s.n_features_to_select(Some(5))
                .select(4, interaction)
                .is_err()
        );
        assert!(
            s.n_features_to_select(Some(0))
                .select(4, interaction)
                .is_err()
        );
        assert!(s.tol(Some(-1.0)).select(4, interaction).is_err());
        assert!(s.tol(Some(f64::NAN)).select(4, interaction).is_err());
        assert!(
            s.direction(Direction::Backward)
                .tol(Some(-1.0))
                .select(4, interaction)
                .is_ok()
        );
        let nan = |_: &[usize]| Ok(f64::NAN);
        assert!(s.select(3, nan).is_err());
        let failing = |sub: &[usize]| {
            if sub.contains(&2) {
                Err(Error::invalid_param("x", "no"))
            } else {
                Ok(1.0)
            }
        };
        assert!(s.select(3, failing).is_err());
    }
}
