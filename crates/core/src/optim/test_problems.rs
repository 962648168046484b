//! Test objectives shared by the unit tests of the first-order solvers (compiled for tests only).
//!
//! - [`Quadratic`]: `½wᵀAw − bᵀw` (optimum `A⁻¹b`);
//! - [`Logistic`]: mean logistic loss with an L2 penalty on a small, seeded, linearly separable
//!   data set with flipped labels (also a [`StochasticObjective`]);
//! - [`Rosenbrock`]: `(1 − x)² + 100(y − x²)²` (optimum `(1, 1)`);
//! - [`LeastSquares`]: `(1/2n)‖y − Xw‖²`, the smooth part of the lasso.

use ndarray::{Array1, Array2, ArrayRef1, array};

use super::{Objective, StochasticObjective};
use crate::{Float, random};

/// `f(w) = ½wᵀAw − bᵀw`, `∇f = Aw − b`, `∇²f = A`.
pub(crate) struct Quadratic<F: Float> {
    pub a: Array2<F>,
    pub b: Array1<F>,
}

impl<F: Float> Quadratic<F> {
    pub fn new(a: Array2<F>, b: Array1<F>) -> Self {
        Self { a, b }
    }

    /// `½ Σ dᵢ wᵢ²` (b = 0).
    pub fn diag(d: &[f64]) -> Self {
        let a = Array2::from_diag(&Array1::from_iter(d.iter().map(|&v| F::cast(v))));
        let b = Array1::zeros(d.len());
        Self { a, b }
    }
}

impl<F: Float> Objective<F> for Quadratic<F> {
    fn dim(&self) -> usize {
        self.b.len()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        F::cast(0.5) * w.dot(&self.a.dot(w)) - self.b.dot(w)
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        self.a.dot(w) - &self.b
    }
    fn hessian(&self, _w: &ArrayRef1<F>) -> Option<Array2<F>> {
        Some(self.a.clone())
    }
}

/// Mean logistic loss `(1/n) Σ [softplus(xᵢᵀw) − yᵢ xᵢᵀw] + (α/2)‖w‖²`, `yᵢ ∈ {0, 1}`; each
/// sample term carries the full penalty so the mean is the objective.
pub(crate) struct Logistic<F: Float> {
    pub x: Array2<F>,
    pub y: Array1<F>,
    pub alpha: F,
}

use crate::numeric::{sigmoid, softplus};

impl<F: Float> Logistic<F> {
    /// `n` points uniform in `[−2, 2]²` plus a constant feature (dimension 3), labelled by
    /// `x₀ − x₁ + 0.3 > 0` with 10 % of the labels flipped, penalty `alpha`.
    pub fn noisy_separable(n: usize, alpha: f64, seed: u64) -> Self {
        let mut rng = random::rng(seed);
        let mut x = Array2::zeros((n, 3));
        let mut y = Array1::zeros(n);
        for i in 0..n {
            let a: f64 = random::uniform(&mut rng, -2.0, 2.0);
            let b: f64 = random::uniform(&mut rng, -2.0, 2.0);
            let flip: f64 = random::uniform(&mut rng, 0.0, 1.0);
            x[[i, 0]] = F::cast(a);
            x[[i, 1]] = F::cast(b);
            x[[i, 2]] = F::one();
            let label = (a - b + 0.3 > 0.0) != (flip < 0.1);
            y[i] = if label { F::one() } else { F::zero() };
        }
        Self {
            x,
            y,
            alpha: F::cast(alpha),
        }
    }

    /// A Lipschitz constant of the gradient: `¼ λ_max(XᵀX/n) + α`.
    pub fn lipschitz(&self) -> F {
        let n = F::cast(self.x.nrows());
        let g = self.x.t().dot(&self.x) / n;
        let lmax = crate::linalg::eigvalsh(&g)
            .map(|v| v.iter().fold(F::zero(), |m, &e| m.max(e)))
            .unwrap_or(F::one());
        F::cast(0.25) * lmax + self.alpha
    }

    fn terms(
        &self,
        w: &ArrayRef1<F>,
        rows: &mut dyn Iterator<Item = usize>,
    ) -> (F, Array1<F>, usize) {
        let mut value = F::zero();
        let mut grad = Array1::zeros(w.len());
        let mut count = 0;
        for i in rows {
            let xi = self.x.row(i);
            let z = xi.dot(w);
            value += softplus(z) - self.y[i] * z;
            grad.scaled_add(sigmoid(z) - self.y[i], &xi);
            count += 1;
        }
        let m = F::cast(count.max(1));
        let pen = F::cast(0.5) * self.alpha * w.dot(w);
        (value / m + pen, grad / m + &(w * self.alpha), count)
    }
}

impl<F: Float> Objective<F> for Logistic<F> {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        self.terms(w, &mut (0..self.x.nrows())).0
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        self.terms(w, &mut (0..self.x.nrows())).1
    }
}

impl<F: Float> StochasticObjective<F> for Logistic<F> {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn n_samples(&self) -> usize {
        self.x.nrows()
    }
    fn batch_value(&self, w: &ArrayRef1<F>, batch: &[usize]) -> F {
        self.terms(w, &mut batch.iter().copied()).0
    }
    fn batch_gradient(&self, w: &ArrayRef1<F>, batch: &[usize]) -> Array1<F> {
        self.terms(w, &mut batch.iter().copied()).1
    }
}

/// Rosenbrock's banana `(1 − x)² + 100(y − x²)²`.
pub(crate) struct Rosenbrock;

impl Objective<f64> for Rosenbrock {
    fn dim(&self) -> usize {
        2
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        (1.0 - w[0]).powi(2) + 100.0 * (w[1] - w[0] * w[0]).powi(2)
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        let r = w[1] - w[0] * w[0];
        array![-2.0 * (1.0 - w[0]) - 400.0 * w[0] * r, 200.0 * r]
    }
}

/// `(1/2n)‖y − Xw‖²`, gradient `−Xᵀ(y − Xw)/n`, Lipschitz constant `σ_max(X)²/n`.
pub(crate) struct LeastSquares {
    pub x: Array2<f64>,
    pub y: Array1<f64>,
}

impl LeastSquares {
    /// A seeded `n × d` Gaussian design with `y = X w_true + 0.1 ε`, `w_true` sparse
    /// (`w_j = 2, −1.5, 0, 0` for `j mod 4 = 0, 1, 2, 3`).
    pub fn sparse(n: usize, d: usize, seed: u64) -> Self {
        Self::correlated(n, d, 0.0, seed)
    }

    /// As [`LeastSquares::sparse`] with a common factor: `x_ij = ε_ij + common·z_i`, which makes
    /// the columns correlated and `XᵀX` ill-conditioned.
    pub fn correlated(n: usize, d: usize, common: f64, seed: u64) -> Self {
        let mut rng = random::rng(seed);
        let mut x = Array2::from_shape_fn((n, d), |_| random::standard_normal::<f64>(&mut rng));
        for mut row in x.rows_mut() {
            let z = common * random::standard_normal::<f64>(&mut rng);
            row.mapv_inplace(|v| v + z);
        }
        let w_true = Array1::from_shape_fn(d, |j| match j % 4 {
            0 => 2.0,
            1 => -1.5,
            _ => 0.0,
        });
        let noise = Array1::from_shape_fn(n, |_| 0.1 * random::standard_normal::<f64>(&mut rng));
        let y = x.dot(&w_true) + noise;
        Self { x, y }
    }

    pub fn lipschitz(&self) -> f64 {
        let s = crate::linalg::singular_values(&self.x).expect("finite design");
        s[0] * s[0] / self.x.nrows() as f64
    }

    /// `Xᵀ(y − Xw)/n`, the negative gradient.
    pub fn correlation(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        -self.gradient(w)
    }
}

impl Objective<f64> for LeastSquares {
    fn dim(&self) -> usize {
        self.x.ncols()
    }
    fn value(&self, w: &ArrayRef1<f64>) -> f64 {
        let r = &self.y - &self.x.dot(w);
        r.dot(&r) / (2.0 * self.x.nrows() as f64)
    }
    fn gradient(&self, w: &ArrayRef1<f64>) -> Array1<f64> {
        let r = &self.y - &self.x.dot(w);
        -self.x.t().dot(&r) / self.x.nrows() as f64
    }
}
