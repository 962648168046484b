//! Learning theory (catalog §1.11, CL-187 … CL-193): the bounds of the notes as calculators,
//! the dichotomy/shattering check, structural risk minimisation and Monte-Carlo experiments.
//!
//! | item | functions | notes |
//! |---|---|---|
//! | CL-187 Hoeffding | [`hoeffding_bound`], [`hoeffding_sample_size`], [`hoeffding_epsilon`] | 004 L76-114 |
//! | CL-188 finite class | [`finite_class_bound`], [`finite_class_sample_size`], [`finite_class_gap`] | 004 L116-144 |
//! | CL-189 growth function | [`growth_bound_exponential`] (`2^N`), [`sauer_bound`] (`Σ_{i≤d} C(N, i)`), [`growth_bound_polynomial`] (`N^d + 1`) | 004 L176-190, L254-258 |
//! | CL-190 VC bound | [`vc_penalty_growth`] / [`vc_penalty`] (004's form, δ erratum applied), [`vapnik_penalty`] (001's form), [`rule_of_thumb_samples`] (`10 d_VC`) | 004 L246-272, 001 L616-618 |
//! | CL-191 shattering | [`count_dichotomies`], [`shatters`], [`realizable`] (LP feasibility), [`cover_count`] | 004 L158-188, 001 L602-622 |
//! | CL-192 SRM | [`srm_select`] | 001 L429-451 |
//! | CL-193 Monte Carlo | [`simulate_hoeffding`], [`simulate_union_bound`] | 004 L76-130 |
//! | curse of dimensionality | [`relative_contrast`], [`simulate_relative_contrast`], [`hypersphere_volume`], [`hypersphere_area`], [`shell_fraction`] (re-exported from [`crate::distance`]), [`equal_density_samples`] | 001 L9-29 |
//!
//! Errata applied (catalog §1.14): E29 (the VC bound's `ln(4 m_H(2N)/8)` is `/δ`), E30 (Sauer's
//! sum starts at `i = 0`), E31 (ε is the tolerance, δ the failure probability), E7 (the VC
//! dimension of affine classifiers is `d + 1`; "exactly 3" holds in `R²`), E6 (the relative
//! contrast tends to 0, not 1).
//!
//! ```
//! use ndlearn_core::learning_theory::{hoeffding_sample_size, sauer_bound, vapnik_penalty};
//! assert_eq!(hoeffding_sample_size(0.1, 0.05)?, 185);           // TV29
//! assert_eq!(sauer_bound(10, 3).exact, Some(176));             // LT-06
//! assert!((vapnik_penalty(1000, 3, 0.05)? - 0.16398).abs() < 1e-5); // LT-07
//! # Ok::<(), ndlearn_core::Error>(())
//! ```

mod bounds;
mod shattering;
mod simulation;
mod srm;

pub use bounds::{
    GrowthBound, finite_class_bound, finite_class_gap, finite_class_sample_size,
    growth_bound_exponential, growth_bound_polynomial, hoeffding_bound, hoeffding_epsilon,
    hoeffding_sample_size, rule_of_thumb_samples, sauer_bound, vapnik_penalty,
    vc_dimension_hyperplanes, vc_penalty, vc_penalty_growth,
};
pub use shattering::{MAX_SHATTER_POINTS, count_dichotomies, cover_count, realizable, shatters};
pub use simulation::{
    HoeffdingSimulation, equal_density_samples, simulate_hoeffding, simulate_union_bound,
};
pub use srm::{SrmCandidate, SrmPenalty, SrmSelection, srm_select};

pub use crate::distance::{
    hypersphere_area, hypersphere_volume, relative_contrast, shell_fraction,
    simulate_relative_contrast,
};
