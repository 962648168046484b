//! Hypothesis tests: the χ² distribution, Pearson's χ² test of independence (catalog CL-047)
//! and the z-test with right/left/two-tailed p-values and critical values (catalog CL-046).
//!
//! See [`chi2_independence`] and [`ZTest`] for the formulas and the course notes' references. Every
//! function that takes a user-supplied probability or table returns a [`crate::Result`].

mod chi2;
mod z;

pub use chi2::{
    Chi2Test, chi2_cdf, chi2_independence, chi2_independence_labels, chi2_independence_with,
    chi2_isf, chi2_pdf, chi2_ppf, chi2_sf, contingency_table,
};
pub use z::{Tail, ZTest, z_critical};
