//! Monte-Carlo checks of Hoeffding's inequality (CL-193; the bin/marble experiment of
//! Abu-Mostafa, Magdon-Ismail & Lin, *Learning from Data*, AMLBook (2012), §1.3, used in the
//! course notes) and of the union bound over `M` hypotheses.
//!
//! Every bin (or trial) draws from its own stream `random::stream(seed, index)`, and bins are
//! processed in fixed chunks in parallel, so the result for a seed does not depend on the
//! thread count.

use rand::Rng as _;

use super::bounds::{finite_class_bound, hoeffding_bound};
use crate::random;
use crate::validate::check_in_range;
use crate::{Error, Result};

/// Outcome of a marble experiment.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct HoeffdingSimulation {
    /// Marbles drawn per bin (the sample size `N`).
    pub n: u64,
    /// Tolerance `ε`.
    pub eps: f64,
    /// Fraction of bins (or trials) whose deviation exceeded `ε`.
    pub deviation_fraction: f64,
    /// The bound it must stay below: `2 e^{−2ε²N}`, or `2M e^{−2ε²N}` for the union experiment.
    pub bound: f64,
    /// Mean of the sample fractions `ν` over the bins (≈ μ).
    pub mean_nu: f64,
}

fn check_common(mu: f64, n: u64, eps: f64, count: usize, what: &'static str) -> Result<()> {
    check_in_range("mu", mu, 0.0, 1.0)?;
    if n == 0 {
        return Err(Error::invalid_param(
            "n",
            "draw at least one marble per bin",
        ));
    }
    crate::validate::check_positive("eps", eps)?;
    if count == 0 {
        return Err(Error::invalid_param(what, "need at least one repetition"));
    }
    Ok(())
}

/// Fraction of red marbles in `n` draws from a bin with red fraction `mu`.
fn draw_nu(rng: &mut random::Rng, mu: f64, n: u64) -> f64 {
    let red = (0..n).filter(|_| rng.random::<f64>() < mu).count();
    red as f64 / n as f64
}

/// The marble experiment: `n_bins` independent bins with red fraction `μ`; from each, `N`
/// marbles are drawn and the sample fraction `ν` compared with `μ`. Hoeffding guarantees
/// `P[|ν − μ| > ε] ≤ 2 e^{−2ε²N}`, so `deviation_fraction` should stay below `bound` (up to
/// Monte-Carlo noise of order `√(bound / n_bins)`).
///
/// # Errors
/// [`Error::InvalidParam`] for `μ ∉ [0, 1]`, `n = 0`, `ε ≤ 0` or `n_bins = 0`.
///
/// ```
/// use ndlearn_core::learning_theory::simulate_hoeffding;
/// let s = simulate_hoeffding(0.4, 100, 0.1, 2000, 7)?;
/// assert!(s.deviation_fraction <= s.bound); // bound 2e^{-2} ≈ 0.27
/// # Ok::<(), ndlearn_core::Error>(())
/// ```
pub fn simulate_hoeffding(
    mu: f64,
    n: u64,
    eps: f64,
    n_bins: usize,
    seed: u64,
) -> Result<HoeffdingSimulation> {
    check_common(mu, n, eps, n_bins, "n_bins")?;
    let parts = crate::par::map_chunks(n_bins, 64, |range| {
        let (mut bad, mut sum) = (0usize, 0.0f64);
        for i in range {
            let mut rng = random::stream(seed, i as u64);
            let nu = draw_nu(&mut rng, mu, n);
            sum += nu;
            bad += usize::from((nu - mu).abs() > eps);
        }
        (bad, sum)
    });
    let (bad, sum) = parts
        .into_iter()
        .fold((0usize, 0.0), |(b, s), (pb, ps)| (b + pb, s + ps));
    Ok(HoeffdingSimulation {
        n,
        eps,
        deviation_fraction: bad as f64 / n_bins as f64,
        bound: hoeffding_bound(n, eps)?,
        mean_nu: sum / n_bins as f64,
    })
}

/// The union-bound experiment: in each of `n_trials` trials, `m` bins (hypotheses) with the
/// same `μ` are sampled `N` times each; a trial is bad when *some* bin deviates by more than ε
/// (what happens when the learner picks the hypothesis after seeing the data). The fraction of
/// bad trials stays below `2M e^{−2ε²N}` but far above the single-bin bound `2 e^{−2ε²N}`.
///
/// # Errors
/// As [`simulate_hoeffding`], plus `m = 0`.
pub fn simulate_union_bound(
    mu: f64,
    n: u64,
    eps: f64,
    m: u64,
    n_trials: usize,
    seed: u64,
) -> Result<HoeffdingSimulation> {
    check_common(mu, n, eps, n_trials, "n_trials")?;
    let bound = finite_class_bound(n, eps, m)?;
    let parts = crate::par::map_chunks(n_trials, 16, |range| {
        let (mut bad, mut sum) = (0usize, 0.0f64);
        for t in range {
            let mut rng = random::stream(seed, t as u64);
            let mut worst = 0.0f64;
            for _ in 0..m {
                let nu = draw_nu(&mut rng, mu, n);
                sum += nu;
                worst = worst.max((nu - mu).abs());
            }
            bad += usize::from(worst > eps);
        }
        (bad, sum)
    });
    let (bad, sum) = parts
        .into_iter()
        .fold((0usize, 0.0), |(b, s), (pb, ps)| (b + pb, s + ps));
    Ok(HoeffdingSimulation {
        n,
        eps,
        deviation_fraction: bad as f64 / n_trials as f64,
        bound,
        mean_nu: sum / (n_trials as f64 * m as f64),
    })
}

/// Samples needed in `d` dimensions to keep the density of `n_1d` samples per axis:
/// `n_1d^d` (the course notes: "if 9 samples is enough in 1 dimension, we need 9³ in 3";
/// catalog TV26; the curse of dimensionality of Bellman, *Adaptive Control Processes*,
/// Princeton University Press (1961)).
/// `None` when it exceeds `u128`.
pub fn equal_density_samples(n_1d: u64, d: u32) -> Option<u128> {
    u128::from(n_1d).checked_pow(d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hoeffding_holds_empirically() {
        // catalog §2 claim 32: the deviation fraction stays below 2e^{−2ε²N} for every N
        for n in [10u64, 50, 100, 300] {
            let s = simulate_hoeffding(0.3, n, 0.1, 4000, 11).expect("valid");
            assert!(s.deviation_fraction <= s.bound, "N={n}: {s:?}");
            assert!((s.mean_nu - 0.3).abs() < 0.01, "{s:?}");
        }
        // deterministic for a seed, independent of the thread count
        let a = simulate_hoeffding(0.5, 40, 0.05, 500, 3).expect("ok");
        let b = crate::par::with_threads(1, || simulate_hoeffding(0.5, 40, 0.05, 500, 3))
            .expect("pool")
            .expect("ok");
        assert_eq!(a, b);
    }

    #[test]
    fn union_bound_needed_for_many_hypotheses() {
        // M = 50 bins, N = 100, ε = 0.1: single-bin bound 0.27, union bound 13.5 (vacuous);
        // the chance that some bin deviates is far above the single-bin bound
        let s = simulate_union_bound(0.5, 100, 0.1, 50, 400, 5).expect("valid");
        let single = hoeffding_bound(100, 0.1).expect("ok");
        assert!(s.deviation_fraction > single, "{s:?}");
        assert!(s.deviation_fraction <= s.bound.min(1.0));
        // with N large both are small
        let s = simulate_union_bound(0.5, 2000, 0.1, 20, 200, 5).expect("valid");
        assert!(s.deviation_fraction <= s.bound, "{s:?}");
    }

    #[test]
    fn catalog_tv26_sampling_density() {
        assert_eq!(equal_density_samples(9, 1), Some(9));
        assert_eq!(equal_density_samples(9, 3), Some(729));
        assert_eq!(equal_density_samples(10, 40), None);
    }

    #[test]
    fn errors() {
        assert!(simulate_hoeffding(1.5, 10, 0.1, 10, 0).is_err());
        assert!(simulate_hoeffding(0.5, 0, 0.1, 10, 0).is_err());
        assert!(simulate_hoeffding(0.5, 10, 0.0, 10, 0).is_err());
        assert!(simulate_hoeffding(0.5, 10, 0.1, 0, 0).is_err());
        assert!(simulate_union_bound(0.5, 10, 0.1, 0, 10, 0).is_err());
        assert!(simulate_union_bound(0.5, 10, 0.1, 3, 0, 0).is_err());
    }
}
