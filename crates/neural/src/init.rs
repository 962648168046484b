//! Weight and bias initialisation of dense layers.
//!
//! | [`WeightInit`] | `W[i, j]` drawn from | use |
//! |---|---|---|
//! | `GlorotUniform` | `U(−r, r)`, `r = √(c/(fan_in + fan_out))`, `c = 2` for logistic layers, `6` otherwise | scikit-learn's `MLPClassifier` / `MLPRegressor` (Glorot & Bengio 2010) |
//! | `LecunNormal` | `N(0, 1/fan_in)` | the course notes' rule (keeps `Var(z)` ≈ `Var(x)` for unit-variance inputs) |
//! | `HeNormal` | `N(0, 2/fan_in)` | ReLU layers (He et al. 2015) |
//!
//! | [`BiasInit`] | `b[j]` |
//! |---|---|
//! | `GlorotUniform` | `U(−r, r)` with the weights' `r` (scikit-learn) |
//! | `Constant(c)` | `c` |
//! | `Auto` | the course notes' policy: `0` for sigmoid-type units (logistic, tanh, identity, softmax, step, sign), a small positive `0.01` for ReLU-type units (ReLU, leaky ReLU, ELU, GELU) so that they start active |
//!
//! Draws come from [`ndlearn_core::random::stream`]`(seed, layer)`: the same seed gives the
//! same weights whatever the thread count, and layers do not share a stream. The generator
//! differs from NumPy's, so a given `random_state` does not reproduce scikit-learn's weights;
//! to start from scikit-learn's (or any) weights use [`crate::Network::from_weights`].

use ndarray::{Array1, Array2};
use ndlearn_core::random::{self, Rng};
use ndlearn_core::{Error, Float, Result};

use crate::activation::Activation;

/// How weight matrices are drawn (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum WeightInit {
    /// scikit-learn's Glorot uniform.
    #[default]
    GlorotUniform,
    /// `N(0, 1/fan_in)`.
    LecunNormal,
    /// `N(0, 2/fan_in)`.
    HeNormal,
}

/// How bias vectors are set (see the [module docs](self)).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
#[non_exhaustive]
pub enum BiasInit {
    /// `U(−r, r)` with the Glorot bound of the layer (scikit-learn).
    #[default]
    GlorotUniform,
    /// A constant.
    Constant(f64),
    /// `0` for sigmoid-type units, `0.01` for ReLU-type units.
    Auto,
}

impl BiasInit {
    /// Checks that a constant is finite.
    ///
    /// # Errors
    /// [`Error::InvalidParam`] naming `bias_init`.
    pub fn validate(&self) -> Result<()> {
        match *self {
            Self::Constant(c) if !c.is_finite() => Err(Error::invalid_param(
                "bias_init",
                format!("the constant must be finite, got {c}"),
            )),
            _ => Ok(()),
        }
    }
}

/// Draws the weights (`fan_in × fan_out`) and biases (`fan_out`) of one layer whose units use
/// `activation`, from the stream `(seed, layer)`; weights first, row by row, then biases.
pub fn init_layer<F: Float>(
    fan_in: usize,
    fan_out: usize,
    activation: Activation,
    weights: WeightInit,
    bias: BiasInit,
    seed: u64,
    layer: u64,
) -> (Array2<F>, Array1<F>) {
    let mut rng = random::stream(seed, layer);
    let factor = if activation == Activation::Logistic {
        2.0
    } else {
        6.0
    };
    let bound = (factor / (fan_in + fan_out) as f64).sqrt();
    let uniform = |rng: &mut Rng| F::cast(random::uniform(rng, -bound, bound));
    let w = match weights {
        WeightInit::GlorotUniform => {
            Array2::from_shape_simple_fn((fan_in, fan_out), || uniform(&mut rng))
        }
        WeightInit::LecunNormal | WeightInit::HeNormal => {
            let var = if weights == WeightInit::HeNormal {
                2.0
            } else {
                1.0
            } / fan_in.max(1) as f64;
            let sd = var.sqrt();
            Array2::from_shape_simple_fn((fan_in, fan_out), || {
                F::cast(sd * random::standard_normal::<f64>(&mut rng))
            })
        }
    };
    let b = match bias {
        BiasInit::GlorotUniform => Array1::from_shape_simple_fn(fan_out, || uniform(&mut rng)),
        BiasInit::Constant(c) => Array1::from_elem(fan_out, F::cast(c)),
        BiasInit::Auto => {
            let c = match activation {
                Activation::Relu
                | Activation::LeakyRelu { .. }
                | Activation::Elu { .. }
                | Activation::Gelu => 0.01,
                _ => 0.0,
            };
            Array1::from_elem(fan_out, F::cast(c))
        }
    };
    (w, b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glorot_bounds_and_determinism() {
        let (w, b) = init_layer::<f64>(
            30,
            10,
            Activation::Relu,
            WeightInit::GlorotUniform,
            BiasInit::GlorotUniform,
            7,
            0,
        );
        let r = (6.0f64 / 40.0).sqrt();
        assert!(w.iter().chain(b.iter()).all(|v| v.abs() <= r));
        assert_eq!(w.dim(), (30, 10));
        let (w2, _) = init_layer::<f64>(
            30,
            10,
            Activation::Relu,
            WeightInit::GlorotUniform,
            BiasInit::GlorotUniform,
            7,
            0,
        );
        assert_eq!(w, w2);
        let (w3, _) = init_layer::<f64>(
            30,
            10,
            Activation::Relu,
            WeightInit::GlorotUniform,
            BiasInit::GlorotUniform,
            7,
            1,
        );
        assert_ne!(w, w3);
        let (wl, _) = init_layer::<f64>(
            30,
            10,
            Activation::Logistic,
            WeightInit::GlorotUniform,
            BiasInit::GlorotUniform,
            7,
            0,
        );
        assert!(wl.iter().all(|v| v.abs() <= (2.0f64 / 40.0).sqrt()));
    }

    /// The sample variance of `N(0, 1/fan_in)` draws is within 5 standard errors of `1/fan_in`
    /// (the standard error of a variance estimate from `m` normal draws is `σ²√(2/m)`).
    #[test]
    fn normal_variances_and_bias_policies() {
        let (fan_in, fan_out) = (50, 200);
        for (init, var) in [
            (WeightInit::LecunNormal, 1.0 / 50.0),
            (WeightInit::HeNormal, 2.0 / 50.0),
        ] {
            let (w, b) = init_layer::<f64>(
                fan_in,
                fan_out,
                Activation::Relu,
                init,
                BiasInit::Auto,
                3,
                0,
            );
            let m = w.len() as f64;
            let s2 = w.iter().map(|v| v * v).sum::<f64>() / m;
            assert!(
                (s2 - var).abs() < 5.0 * var * (2.0 / m).sqrt(),
                "{init:?}: {s2} vs {var}"
            );
            assert!(b.iter().all(|&v| v == 0.01));
        }
        let (_, b) = init_layer::<f64>(
            3,
            4,
            Activation::Logistic,
            WeightInit::LecunNormal,
            BiasInit::Auto,
            3,
            0,
        );
        assert!(b.iter().all(|&v| v == 0.0));
        let (_, b) = init_layer::<f32>(
            3,
            4,
            Activation::Tanh,
            WeightInit::LecunNormal,
            BiasInit::Constant(0.5),
            3,
            0,
        );
        assert!(b.iter().all(|&v| v == 0.5));
        assert!(BiasInit::Constant(f64::INFINITY).validate().is_err());
    }
}
