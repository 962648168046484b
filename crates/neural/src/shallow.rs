//! The one-hidden-layer network `f̂(x) = aᵀσ(Wᵀx + b)` with its gradients written out by hand.
//!
//! `x ∈ ℝᵈ`, `W ∈ ℝ^{d × n}` (column `j` holds the input weights of hidden unit `j`, the crate's
//! `fan_in × fan_out` convention), `b ∈ ℝⁿ`, `a ∈ ℝⁿ`, `σ` an activation. No output bias, so the
//! model has `d·n + n + n = (d + 2)·n` parameters (`d = 3`, `n = 10` gives 50).
//!
//! With `z = Wᵀx + b`, `h = σ(z)` and the squared loss `ℓ = ½(f̂(x) − y)²`, `r = f̂(x) − y`:
//!
//! ```text
//! ∂ℓ/∂a = r · σ(z)                    (σ, not σ′)
//! ∂ℓ/∂b = r · a ⊙ σ′(z)
//! ∂ℓ/∂W = r · x (a ⊙ σ′(z))ᵀ           (d × n)
//! ```
//!
//! These closed forms are independent of the general backpropagation of
//! [`crate::Network`]; the tests use each as an oracle for the other.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::{Error, Float, Result};

use crate::activation::Activation;

/// `f̂(x) = aᵀσ(Wᵀx + b)`.
#[derive(Debug, Clone, PartialEq)]
pub struct ShallowNetwork<F: Float> {
    /// Input weights, `d × n`.
    pub w: Array2<F>,
    /// Hidden biases, `n`.
    pub b: Array1<F>,
    /// Output weights, `n`.
    pub a: Array1<F>,
    /// The hidden activation `σ` (element-wise; not the softmax).
    pub activation: Activation,
}

/// The gradients of `½(f̂(x) − y)²` (see the [module docs](self)).
#[derive(Debug, Clone, PartialEq)]
pub struct ShallowGradient<F: Float> {
    /// `∂ℓ/∂W`, `d × n`.
    pub w: Array2<F>,
    /// `∂ℓ/∂b`.
    pub b: Array1<F>,
    /// `∂ℓ/∂a`.
    pub a: Array1<F>,
}

impl<F: Float> ShallowNetwork<F> {
    /// A network from its parts.
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] unless `b` and `a` have `W`'s column count;
    /// [`Error::InvalidParam`] for the softmax (not element-wise) or invalid parameters.
    pub fn new(w: Array2<F>, b: Array1<F>, a: Array1<F>, activation: Activation) -> Result<Self> {
        activation.validate()?;
        if activation == Activation::Softmax {
            return Err(Error::invalid_param(
                "activation",
                "the shallow network needs an element-wise activation",
            ));
        }
        if b.len() != w.ncols() || a.len() != w.ncols() {
            return Err(Error::ShapeMismatch {
                context: "shallow network",
                expected: format!("b and a of length {}", w.ncols()),
                found: format!("b {}, a {}", b.len(), a.len()),
            });
        }
        Ok(Self {
            w,
            b,
            a,
            activation,
        })
    }

    /// Number of parameters `(d + 2)·n`.
    pub fn n_params(&self) -> usize {
        self.w.len() + self.b.len() + self.a.len()
    }

    fn hidden(&self, x: &ArrayRef1<F>) -> (Array1<F>, Array1<F>) {
        let z = self.w.t().dot(x) + &self.b;
        let h = z.mapv(|v| self.activation.scalar(v));
        (z, h)
    }

    /// `f̂(x)`.
    pub fn predict_one(&self, x: &ArrayRef1<F>) -> F {
        self.a.dot(&self.hidden(x).1)
    }

    /// The explicit gradients of `½(f̂(x) − y)²` at one sample.
    pub fn gradient(&self, x: &ArrayRef1<F>, y: F) -> ShallowGradient<F> {
        let (z, h) = self.hidden(x);
        let r = self.a.dot(&h) - y;
        // σ′(z) from the activation's backward pass with an upstream gradient of ones.
        let z2 = z.clone().insert_axis(ndarray::Axis(0));
        let h2 = h.clone().insert_axis(ndarray::Axis(0));
        let mut d = Array2::from_elem(z2.raw_dim(), F::one());
        self.activation.backward(&z2, &h2, &mut d);
        let s = &self.a * &d.row(0) * r;
        let gw = Array2::from_shape_fn(self.w.raw_dim(), |(i, j)| x[i] * s[j]);
        ShallowGradient {
            w: gw,
            b: s,
            a: h * r,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn parameter_count_of_the_notes() {
        // d = 3 inputs, n = 10 hidden units: (2 + 3)·10 = 50.
        let net = ShallowNetwork::<f64>::new(
            Array2::zeros((3, 10)),
            Array1::zeros(10),
            Array1::zeros(10),
            Activation::Logistic,
        )
        .expect("shapes agree");
        assert_eq!(net.n_params(), 50);
    }

    #[test]
    fn hand_computed_gradient_with_identity() {
        // σ = identity, d = 1, n = 1: f̂ = a(wx + b); at w = 2, b = 1, a = 3, x = 1, y = 0:
        // f̂ = 9, r = 9; ∂a = r(wx + b) = 27, ∂b = r·a = 27, ∂w = r·a·x = 27.
        let net = ShallowNetwork::new(
            array![[2.0]],
            array![1.0],
            array![3.0],
            Activation::Identity,
        )
        .expect("valid");
        assert_eq!(net.predict_one(&array![1.0]), 9.0);
        let g = net.gradient(&array![1.0], 0.0);
        assert_eq!((g.a[0], g.b[0], g.w[[0, 0]]), (27.0, 27.0, 27.0));
        assert!(
            ShallowNetwork::new(
                array![[2.0]],
                array![1.0, 2.0],
                array![3.0],
                Activation::Identity
            )
            .is_err()
        );
    }
}
