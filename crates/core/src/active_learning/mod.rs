//! Active learning: the learner chooses which samples get labelled.
//!
//! Labelling can be expensive while unlabelled data are cheap; an active learner asks an
//! *oracle* for the labels of the samples it expects to learn most from, and typically needs far
//! fewer labels than passive supervised learning (the course notes, catalog X-01; Settles,
//! "Active Learning Literature Survey", 2009).
//!
//! | scenario (the course notes) | here |
//! |---|---|
//! | pool-based sampling: labelled `L`, unlabelled pool `U`, greedy informativeness | [`PoolLearner`] |
//! | stream-based selective sampling: query or discard each arriving instance | [`StreamSampler`] |
//! | query strategies: uncertainty (binary, closest to 0.5), least confident, margin, entropy | [`QueryStrategy`], [`binary_uncertainty`], [`least_confident`], [`margin`], [`entropy`], [`top_b`] |
//! | a threshold learned by binary search with `O(log n)` queries | [`learn_threshold`] (vs [`passive_threshold`]) |
//! | an interval: random queries until a positive, then binary search on each side | [`learn_interval`] |
//!
//! The learners work with any classifier of the workspace: `E: Fit<F, Target = ArrayRef1<usize>>`
//! whose fitted model implements [`PredictProba`](crate::PredictProba). The oracle is a closure
//! `FnMut(usize) -> usize` from a sample's index to its label (`FnMut(usize) -> bool` for the
//! membership-query learners), so it can be a lookup table, a human, or a simulation.
//!
//! Membership query synthesis (the learner makes up its own query points; Angluin, "Queries and
//! concept learning", Machine Learning 2(4), 1988) has no algorithm in the course notes beyond
//! the two membership learners and is not provided separately.
//!
//! # Choices not in the course notes
//!
//! * Scores are oriented so that larger means "query first" (margin becomes `1 − margin`).
//! * Entropy uses the natural logarithm (the ranking does not depend on the base).
//! * Ties between equally informative samples go to the lower index, so runs are reproducible.
//! * Batches of `b > 1` queries per round take the top `b` scores of one model (no diversity
//!   term).
//! * Stream sampling compares the score with a fixed threshold and refits after every
//!   `refit_every` queries.
//!
//! References: the course notes (catalog X-01); B. Settles (2009), "Active Learning Literature
//! Survey", University of Wisconsin–Madison TR 1648 (the strategies' names and formulas).

mod membership;
mod pool;
mod strategies;
mod stream;
#[cfg(test)]
pub(crate) mod test_support;

pub use membership::{
    IntervalSearch, ThresholdSearch, learn_interval, learn_threshold, passive_threshold,
};
pub use pool::{PoolLearner, PoolRun};
pub use strategies::{
    QueryStrategy, binary_uncertainty, entropy, least_confident, margin, select_queries, top_b,
};
pub use stream::{StreamRun, StreamSampler};
