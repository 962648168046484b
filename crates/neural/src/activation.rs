//! Activation functions `a = f(z)` with their derivatives, applied to whole batches.
//!
//! A layer's pre-activation is `z = a_prev W + b` (see [`crate::network`]); its output is
//! `a = f(z)`, element by element except for the softmax, which acts on each row. Backprop
//! needs the vector–Jacobian product `∂ℓ/∂z = (∂ℓ/∂a) · ∂a/∂z`, which
//! [`Activation::backward`] computes in place from the cached `z` and `a`.
//!
//! | variant | `f(z)` | `f′(z)` | scikit-learn |
//! |---|---|---|---|
//! | `Identity` | `z` | `1` | `"identity"` |
//! | `Logistic` | `σ(z) = 1/(1 + e⁻ᶻ)` | `a(1 − a)` | `"logistic"` |
//! | `Tanh` | `tanh z` | `1 − a²` | `"tanh"` |
//! | `Relu` | `max(0, z)` | `1` for `z > 0`, else `0` | `"relu"` |
//! | `LeakyRelu { alpha }` | `z` for `z > 0`, else `αz` (a parametric ReLU with slope `α`) | `1` or `α` | — |
//! | `Elu { alpha }` | `z` for `z > 0`, else `α(eᶻ − 1)` | `1` or `a + α` | — |
//! | `Gelu` | `z Φ(z)` (exact, with the normal CDF `Φ`) | `Φ(z) + z φ(z)` | — |
//! | `Softmax` | `e^{zⱼ} / Σₖ e^{zₖ}` per row | `∂ℓ/∂zⱼ = aⱼ(gⱼ − Σₖ gₖ aₖ)` | output of multiclass `MLPClassifier` |
//! | `Step` | Heaviside `1[z ≥ 0]` | `0` (almost everywhere) | — |
//! | `Sign` | `+1` for `z ≥ 0`, else `−1` (`sign(0) = +1`) | `0` (almost everywhere) | — |
//!
//! ReLU and its variants are *piecewise linear*, not linear: a network of ReLU layers is a
//! nonlinear function of its input. At the kinks (`z = 0`) the derivative used is the one of
//! the left piece (`0` for ReLU, `α` for the leaky ReLU and ELU), as scikit-learn and PyTorch do.
//! Step and sign have zero derivative almost everywhere: they are for perceptron-style
//! networks trained without gradients, and a gradient through them is zero.
//!
//! The logistic function and the softmax come from [`ndlearn_core::numeric`] (stable for any
//! `z`).

use ndarray::{ArrayRef2, Axis, Zip};
use ndlearn_core::numeric::{sigmoid, softmax_slice_inplace};
use ndlearn_core::stats::special::norm_cdf;
use ndlearn_core::{Error, Float, Result};

/// An activation function (see the [module docs](self) for the formulas).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum Activation {
    /// `f(z) = z`.
    Identity,
    /// The logistic sigmoid `1/(1 + e⁻ᶻ)`.
    #[cfg_attr(feature = "serde", serde(alias = "sigmoid"))]
    Logistic,
    /// `tanh z`.
    Tanh,
    /// `max(0, z)` (scikit-learn's default).
    #[default]
    Relu,
    /// `z` for `z > 0`, `αz` below; `α ≥ 0` (a parametric ReLU with fixed slope).
    LeakyRelu {
        /// Slope for negative inputs.
        alpha: f64,
    },
    /// `z` for `z > 0`, `α(eᶻ − 1)` below; `α > 0`.
    Elu {
        /// Saturation value `−α` for `z → −∞`.
        alpha: f64,
    },
    /// `z Φ(z)` with the standard normal CDF `Φ` (exact form, not the tanh approximation).
    Gelu,
    /// Row-wise softmax (output layers of multiclass classifiers).
    Softmax,
    /// Heaviside step `1[z ≥ 0]`.
    Step,
    /// `sign(z)` with `sign(0) = +1`.
    Sign,
}

impl Activation {
    /// Checks the parameters (`LeakyRelu`: `α ≥ 0` finite; `Elu`: `α > 0` finite).
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming `activation`.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::LeakyRelu { alpha } if !(alpha.is_finite() && alpha >= 0.0) => {
                Err(Error::invalid_param(
                    "activation",
                    format!("leaky_relu alpha must be finite and >= 0, got {alpha}"),
                ))
            }
            Self::Elu { alpha } if !(alpha.is_finite() && alpha > 0.0) => {
                Err(Error::invalid_param(
                    "activation",
                    format!("elu alpha must be finite and > 0, got {alpha}"),
                ))
            }
            _ => Ok(()),
        }
    }

    /// The name as scikit-learn and the registry write it.
    pub fn name(&self) -> &'static str {
        match self {
            Self::Identity => "identity",
            Self::Logistic => "logistic",
            Self::Tanh => "tanh",
            Self::Relu => "relu",
            Self::LeakyRelu { .. } => "leaky_relu",
            Self::Elu { .. } => "elu",
            Self::Gelu => "gelu",
            Self::Softmax => "softmax",
            Self::Step => "step",
            Self::Sign => "sign",
        }
    }

    /// `f(z)` for one scalar (every variant but `Softmax`, which needs a whole row: it returns
    /// `1` here, the softmax of a single score).
    pub fn scalar<F: Float>(&self, z: F) -> F {
        match *self {
            Self::Identity => z,
            Self::Logistic => sigmoid(z),
            Self::Tanh => z.tanh(),
            Self::Relu => {
                if z > F::zero() {
                    z
                } else {
                    F::zero()
                }
            }
            Self::LeakyRelu { alpha } => {
                if z > F::zero() {
                    z
                } else {
                    F::cast(alpha) * z
                }
            }
            Self::Elu { alpha } => {
                if z > F::zero() {
                    z
                } else {
                    F::cast(alpha) * z.exp_m1()
                }
            }
            Self::Gelu => z * F::cast(norm_cdf(z.to_f64().unwrap_or(f64::NAN))),
            Self::Softmax => F::one(),
            Self::Step => {
                if z >= F::zero() {
                    F::one()
                } else {
                    F::zero()
                }
            }
            Self::Sign => {
                if z >= F::zero() {
                    F::one()
                } else {
                    -F::one()
                }
            }
        }
    }

    /// Applies `f` in place to a batch `z` (`n × units`), turning it into `a`.
    pub fn forward_inplace<F: Float>(&self, z: &mut ArrayRef2<F>) {
        match self {
            Self::Identity => {}
            Self::Softmax => {
                for mut row in z.rows_mut() {
                    if let Some(s) = row.as_slice_mut() {
                        softmax_slice_inplace(s);
                    } else {
                        let mut v = row.to_vec();
                        softmax_slice_inplace(&mut v);
                        row.iter_mut().zip(v).for_each(|(r, x)| *r = x);
                    }
                }
            }
            // The common piecewise-linear activations as branch-free, vectorisable loops (the
            // same values as `scalar`; a branch on the sign of each unit mispredicts half the
            // time).
            Self::Relu => z.mapv_inplace(|v| if v > F::zero() { v } else { F::zero() }),
            Self::LeakyRelu { alpha } => {
                let s = F::cast(*alpha);
                z.mapv_inplace(|v| if v > F::zero() { v } else { s * v });
            }
            act => z.mapv_inplace(|v| act.scalar(v)),
        }
    }

    /// The vector–Jacobian product of backprop: on entry `g = ∂ℓ/∂a`, on exit `g = ∂ℓ/∂z`,
    /// from the cached pre-activation `z` and output `a = f(z)` of the same batch.
    pub fn backward<F: Float>(&self, z: &ArrayRef2<F>, a: &ArrayRef2<F>, g: &mut ArrayRef2<F>) {
        match *self {
            Self::Identity => {}
            // scikit-learn's order of operations: δ ← δ·a, then δ ← δ·(1 − a).
            Self::Logistic => Zip::from(g).and(a).for_each(|g, &a| {
                *g *= a;
                *g *= F::one() - a;
            }),
            Self::Tanh => Zip::from(g).and(a).for_each(|g, &a| *g *= F::one() - a * a),
            Self::Relu => Zip::from(g)
                .and(z)
                .for_each(|g, &z| *g = if z <= F::zero() { F::zero() } else { *g }),
            Self::LeakyRelu { alpha } => {
                let s = F::cast(alpha);
                Zip::from(g)
                    .and(z)
                    .for_each(|g, &z| *g = if z <= F::zero() { *g * s } else { *g });
            }
            Self::Elu { alpha } => {
                let al = F::cast(alpha);
                Zip::from(g).and(z).and(a).for_each(|g, &z, &a| {
                    if z <= F::zero() {
                        *g *= a + al;
                    }
                });
            }
            Self::Gelu => Zip::from(g).and(z).for_each(|g, &z| {
                let zf = z.to_f64().unwrap_or(f64::NAN);
                let pdf = (-0.5 * zf * zf).exp() / (2.0 * std::f64::consts::PI).sqrt();
                *g *= F::cast(norm_cdf(zf) + zf * pdf);
            }),
            Self::Softmax => {
                for (mut gr, ar) in g.axis_iter_mut(Axis(0)).zip(a.axis_iter(Axis(0))) {
                    let dot = gr
                        .iter()
                        .zip(ar.iter())
                        .fold(F::zero(), |s, (&g, &a)| s + g * a);
                    gr.iter_mut()
                        .zip(ar.iter())
                        .for_each(|(g, &a)| *g = a * (*g - dot));
                }
            }
            Self::Step | Self::Sign => g.fill(F::zero()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{Array2, array};

    const ALL: [Activation; 10] = [
        Activation::Identity,
        Activation::Logistic,
        Activation::Tanh,
        Activation::Relu,
        Activation::LeakyRelu { alpha: 0.1 },
        Activation::Elu { alpha: 1.5 },
        Activation::Gelu,
        Activation::Softmax,
        Activation::Step,
        Activation::Sign,
    ];

    fn forward(act: Activation, z: &Array2<f64>) -> Array2<f64> {
        let mut a = z.clone();
        act.forward_inplace(&mut a);
        a
    }

    #[test]
    fn values_at_hand_checked_points() {
        let z = array![[-2.0, 0.0, 3.0]];
        assert_eq!(forward(Activation::Relu, &z), array![[0.0, 0.0, 3.0]]);
        assert_eq!(forward(Activation::Step, &z), array![[0.0, 1.0, 1.0]]);
        assert_eq!(forward(Activation::Sign, &z), array![[-1.0, 1.0, 1.0]]);
        assert_eq!(
            forward(Activation::LeakyRelu { alpha: 0.1 }, &z),
            array![[-0.2, 0.0, 3.0]]
        );
        let elu = forward(Activation::Elu { alpha: 1.0 }, &z);
        assert!((elu[[0, 0]] - ((-2.0f64).exp() - 1.0)).abs() < 1e-15);
        let gelu = forward(Activation::Gelu, &z);
        assert!((gelu[[0, 2]] - 3.0 * 0.998_650_101_968_369_9).abs() < 1e-12);
        assert_eq!(gelu[[0, 1]], 0.0);
        let sm = forward(Activation::Softmax, &z);
        assert!((sm.sum() - 1.0).abs() < 1e-15);
        assert_eq!(forward(Activation::Logistic, &array![[0.0]]), array![[0.5]]);
    }

    /// Every derivative against central differences of the forward map, through the
    /// vector–Jacobian product with a fixed upstream gradient (points away from the kinks).
    #[test]
    fn backward_matches_finite_differences() {
        let z = array![[-1.3, -0.4, 0.7, 2.1], [0.3, -2.2, 1.1, -0.05]];
        let up = array![[0.5, -1.0, 2.0, 0.25], [-0.3, 0.8, 1.2, -0.7]];
        for act in ALL {
            let a = forward(act, &z);
            let mut g = up.clone();
            act.backward(&z, &a, &mut g);
            let h = 1e-6;
            for i in 0..z.nrows() {
                for j in 0..z.ncols() {
                    let (mut zp, mut zm) = (z.clone(), z.clone());
                    zp[[i, j]] += h;
                    zm[[i, j]] -= h;
                    let fd = ((forward(act, &zp) - forward(act, &zm)) * &up).sum() / (2.0 * h);
                    assert!(
                        (fd - g[[i, j]]).abs() < 1e-8 * (1.0 + fd.abs()),
                        "{act:?} at ({i}, {j}): {fd} vs {}",
                        g[[i, j]]
                    );
                }
            }
        }
    }

    #[test]
    fn invalid_parameters_are_typed_errors() {
        assert!(Activation::LeakyRelu { alpha: -1.0 }.validate().is_err());
        assert!(Activation::Elu { alpha: 0.0 }.validate().is_err());
        assert!(Activation::Elu { alpha: f64::NAN }.validate().is_err());
        assert!(ALL.iter().all(|a| a.validate().is_ok()));
    }
}
