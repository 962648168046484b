//! Learning theory (catalog §1.11, CL-187 … CL-193): the bounds of the course notes as
//! calculators, the dichotomy/shattering check, structural risk minimisation and Monte-Carlo
//! experiments.
//!
//! | item | functions | published source |
//! |---|---|---|
//! | CL-187 Hoeffding | [`hoeffding_bound`], [`hoeffding_sample_size`], [`hoeffding_epsilon`] | Hoeffding (1963); LFD ch. 1 |
//! | CL-188 finite class | [`finite_class_bound`], [`finite_class_sample_size`], [`finite_class_gap`] | LFD ch. 1 (union bound) |
//! | CL-189 growth function | [`growth_bound_exponential`] (`2^N`), [`sauer_bound`] (`Σ_{i≤d} C(N, i)`), [`growth_bound_polynomial`] (`N^d + 1`) | LFD ch. 2; Sauer (1972) |
//! | CL-190 VC bound | [`vc_penalty_growth`] / [`vc_penalty`] (LFD's form, δ erratum applied), [`vapnik_penalty`] (Vapnik's form), [`rule_of_thumb_samples`] (`10 d_VC`) | LFD ch. 2; Vapnik (1995); Burges (1998) |
//! | CL-191 shattering | [`count_dichotomies`], [`shatters`], [`realizable`] (LP feasibility), [`cover_count`] | LFD ch. 2; Cover (1965) |
//! | CL-192 SRM | [`srm_select`] | Vapnik (1995) |
//! | CL-193 Monte Carlo | [`simulate_hoeffding`], [`simulate_union_bound`] | LFD ch. 1 |
//! | curse of dimensionality | [`relative_contrast`], [`simulate_relative_contrast`], [`hypersphere_volume`], [`hypersphere_area`], [`shell_fraction`] (re-exported from [`crate::distance`]), [`equal_density_samples`] | Blum, Hopcroft & Kannan (2020), ch. 2; Beyer et al. (1999) |
//!
//! Sources: LFD = Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data*, AMLBook (2012);
//! W. Hoeffding, "Probability inequalities for sums of bounded random variables", JASA 58(301),
//! 1963; N. Sauer, "On the density of families of sets", J. Combinatorial Theory A 13, 1972;
//! V. Vapnik, *The Nature of Statistical Learning Theory*, Springer (1995); C. J. C. Burges, "A
//! tutorial on support vector machines for pattern recognition", Data Mining and Knowledge
//! Discovery 2(2), 1998; T. M. Cover, "Geometrical and statistical properties of systems of
//! linear inequalities with applications in pattern recognition", IEEE Trans. Electronic
//! Computers EC-14(3), 1965; A. Blum, J. Hopcroft, R. Kannan, *Foundations of Data Science*,
//! Cambridge University Press (2020); K. Beyer et al., "When is 'nearest neighbor'
//! meaningful?", ICDT 1999.
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
