//! Volume and surface area of the `d`-dimensional ball (catalog CL-048; the course notes'
//! hypersphere geometry behind the curse of dimensionality, as in Blum, Hopcroft & Kannan,
//! *Foundations of Data Science*, Cambridge University Press (2020), ch. 2).
//!
//! `V_d(r) = π^{d/2} r^d / Γ(d/2 + 1)` and `A_d(r) = d V_d(r) / r` (the "surface area" of the
//! boundary sphere `S^{d−1}`). Computed with the exact recurrence `V_d = (2π r² / d) V_{d−2}`,
//! `V_0 = 1`, `V_1 = 2r`, which needs no Gamma function. For the unit ball the volume peaks at
//! `d = 5` (`V_5 = 8π²/15 ≈ 5.26379`) and then tends to 0: almost all of a high-dimensional
//! ball's volume lies in a thin shell near its surface ([`shell_fraction`]).

use crate::{Error, Result};

fn check_radius(r: f64) -> Result<()> {
    crate::validate::check_non_negative("radius", r)
}

/// Volume of the `d`-dimensional ball of radius `r` (`d = 0` gives 1).
///
/// # Errors
/// [`Error::InvalidParam`] for a negative or non-finite radius.
pub fn hypersphere_volume(d: usize, r: f64) -> Result<f64> {
    check_radius(r)?;
    let mut v = if d % 2 == 0 { 1.0 } else { 2.0 * r };
    let mut k = if d % 2 == 0 { 0 } else { 1 };
    while k < d {
        k += 2;
        v *= 2.0 * std::f64::consts::PI * r * r / k as f64;
    }
    Ok(v)
}

/// Surface area of the sphere bounding the `d`-dimensional ball of radius `r`: `d V_d(r) / r`
/// (`A_1 = 2` points, `A_2 = 2πr`, `A_3 = 4πr²`).
///
/// # Errors
/// [`Error::InvalidParam`] for `d = 0`, or a radius that is not finite and > 0.
pub fn hypersphere_area(d: usize, r: f64) -> Result<f64> {
    if d == 0 {
        return Err(Error::invalid_param(
            "d",
            "the 0-ball has no boundary; use d >= 1",
        ));
    }
    crate::validate::check_positive("radius", r)?;
    Ok(d as f64 * hypersphere_volume(d, r)? / r)
}

/// Fraction of the unit ball's volume within distance `eps` of its surface: `1 − (1 − ε)^d`.
///
/// # Errors
/// [`Error::InvalidParam`] unless `0 ≤ ε ≤ 1`.
pub fn shell_fraction(d: usize, eps: f64) -> Result<f64> {
    crate::validate::check_in_range("eps", eps, 0.0, 1.0)?;
    Ok(1.0 - (1.0 - eps).powi(i32::try_from(d).unwrap_or(i32::MAX)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::PI;

    #[test]
    fn known_volumes_and_areas() {
        let v = |d| hypersphere_volume(d, 1.0).expect("valid");
        assert_eq!(v(0), 1.0);
        assert_eq!(v(1), 2.0);
        assert!((v(2) - PI).abs() < 1e-15);
        assert!((v(3) - 4.0 * PI / 3.0).abs() < 1e-14);
        // Catalog worked example: V(5) = 8π²/15 ≈ 5.26379, the largest unit-ball volume.
        assert!((v(5) - 5.26379).abs() < 1e-5);
        assert!((5..30).all(|d| v(d + 1) < v(d)) && (0..5).all(|d| v(d + 1) > v(d)));
        assert!(v(100) < 1e-39);
        // Closed form with Γ(d/2 + 1) for d = 4: π²/2.
        assert!((v(4) - PI * PI / 2.0).abs() < 1e-14);
        assert!((hypersphere_volume(3, 2.0).expect("ok") - 8.0 * v(3)).abs() < 1e-12);
        assert!((hypersphere_area(2, 1.0).expect("ok") - 2.0 * PI).abs() < 1e-15);
        assert!((hypersphere_area(3, 2.0).expect("ok") - 16.0 * PI).abs() < 1e-12);
        assert!(hypersphere_area(0, 1.0).is_err());
        assert!(hypersphere_volume(2, -1.0).is_err());
        assert!(hypersphere_area(2, 0.0).is_err());
    }

    #[test]
    fn volume_concentrates_in_the_shell() {
        assert!((shell_fraction(1, 0.1).expect("ok") - 0.1).abs() < 1e-15);
        assert!(shell_fraction(500, 0.01).expect("ok") > 0.99);
        assert!(shell_fraction(3, 1.5).is_err());
    }
}
