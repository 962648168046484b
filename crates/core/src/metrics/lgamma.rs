//! Private log-gamma for the expected mutual information of
//! [`super::adjusted_mutual_info_score`].
//!
//! Kept private to `metrics` on purpose: when a public `crate::stats::special::ln_gamma` exists,
//! [`ln_gamma_private`] can be swapped for it (the only caller is [`LnFactorials`]).
//!
//! Method: for `x ≥ 17` the Stirling series
//! `ln Γ(x) = (x − ½) ln x − x + ½ ln 2π + Σₖ B₂ₖ / (2k(2k − 1) x^{2k−1})` with five terms
//! (truncation error below `10⁻¹⁶` there); smaller `x > 0` are shifted up with
//! `ln Γ(x) = ln Γ(x + m) − ln(x (x + 1) ⋯ (x + m − 1))`. Accuracy: a few ulp relative for
//! `x ≥ 17`; below, the shift cancels about 30 units, so the error is about `10⁻¹⁴` absolute
//! (which matters only near the zeros of `ln Γ` at 1 and 2). [`LnFactorials`] uses exact
//! products up to `18!` and this function only from `19!` on.

/// `ln Γ(x)` for `x > 0` (NaN otherwise).
pub(crate) fn ln_gamma_private(x: f64) -> f64 {
    if x.is_nan() || x <= 0.0 {
        return f64::NAN;
    }
    if x.is_infinite() {
        return f64::INFINITY;
    }
    const SHIFT_TO: f64 = 17.0;
    let mut z = x;
    let mut prod = 1.0f64;
    while z < SHIFT_TO {
        prod *= z;
        z += 1.0;
    }
    stirling(z) - prod.ln()
}

fn stirling(x: f64) -> f64 {
    const HALF_LN_2PI: f64 = 0.918_938_533_204_672_8;
    let inv = 1.0 / x;
    let inv2 = inv * inv;
    // B2/(1·2), B4/(3·4), B6/(5·6), B8/(7·8), B10/(9·10).
    let series = inv
        * (1.0 / 12.0
            - inv2 * (1.0 / 360.0 - inv2 * (1.0 / 1260.0 - inv2 * (1.0 / 1680.0 - inv2 / 1188.0))));
    (x - 0.5) * x.ln() - x + HALF_LN_2PI + series
}

/// A table of `ln k!` for `k = 0..=n`.
pub(crate) struct LnFactorials {
    table: Vec<f64>,
}

impl LnFactorials {
    /// Builds the table up to `n!`.
    pub fn new(n: u64) -> Self {
        let n = usize::try_from(n).unwrap_or(usize::MAX - 1);
        let mut table = Vec::with_capacity(n + 1);
        // k! is an integer below 2⁵³ up to 18! (6.4·10¹⁵), so the running product is exact.
        let mut exact = 1.0f64;
        for k in 0..=n {
            if k <= 18 {
                if k > 0 {
                    exact *= k as f64;
                }
                table.push(exact.ln());
            } else {
                table.push(ln_gamma_private(k as f64 + 1.0));
            }
        }
        Self { table }
    }

    /// `ln k!` (`k` must be at most the `n` given to [`LnFactorials::new`]).
    #[inline]
    pub fn get(&self, k: u64) -> f64 {
        usize::try_from(k)
            .ok()
            .and_then(|k| self.table.get(k).copied())
            .unwrap_or(f64::NAN)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // Γ(1) = Γ(2) = 1, Γ(1/2) = √π, Γ(5) = 24, Γ(20) = 19!.
        assert!(ln_gamma_private(1.0).abs() < 2e-14);
        assert!(ln_gamma_private(2.0).abs() < 2e-14);
        let half = ln_gamma_private(0.5) - 0.5 * std::f64::consts::PI.ln();
        assert!(half.abs() < 2e-14, "{half}");
        assert!((ln_gamma_private(5.0) - 24f64.ln()).abs() < 2e-14);
        let f19 = 121_645_100_408_832_000f64; // 19!, exact in f64
        assert!((ln_gamma_private(20.0) - f19.ln()).abs() < 4e-15 * f19.ln());
        // ln 100! = 363.73937555556347 (a standard table value).
        let l100 = LnFactorials::new(100).get(100);
        assert!((l100 - 363.739_375_555_563_47).abs() < 1e-12, "{l100}");
        // Continuity across the switch to Stirling: ln 19! − ln 18! = ln 19.
        let t = LnFactorials::new(20);
        assert!((t.get(19) - t.get(18) - 19f64.ln()).abs() < 1e-14);
        assert!(t.get(21).is_nan());
        assert!(ln_gamma_private(-1.0).is_nan());
        assert_eq!(ln_gamma_private(f64::INFINITY), f64::INFINITY);
    }
}
