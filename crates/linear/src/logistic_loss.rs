//! The weighted logistic / softmax loss behind [`crate::LogisticRegression`]: value, gradient
//! and Hessian over the packed parameters, and the IRLS iteration (private; the formulas are in
//! the [`crate::logistic`] module docs).

use ndarray::{Array1, Array2, ArrayRef1, ArrayRef2, Axis, s};
use ndlearn_core::linalg::CholeskyFactor;
use ndlearn_core::optim::{self, Objective};
use ndlearn_core::{Float, Labels, Result};

/// The weighted log-loss of the module docs over `θ` = `K` blocks of `[w_k (d), b_k]`.
pub(crate) struct LogLoss<'a, F: Float> {
    pub x: &'a ArrayRef2<F>,
    pub y: &'a Labels,
    /// Sample weights divided by their sum.
    pub sw: &'a Array1<F>,
    /// 1 (binary) or the number of classes.
    pub k: usize,
    pub d: usize,
    pub fit_intercept: bool,
    /// `1/(C S)` (0 without penalty).
    pub l2: F,
}

/// `log(1 + e^z)`, stably.
fn log1pexp<F: Float>(z: F) -> F {
    z.max(F::zero()) + (-z.abs()).exp().ln_1p()
}

/// `σ(z)`, stably.
pub(crate) fn sigmoid<F: Float>(z: F) -> F {
    if z >= F::zero() {
        F::one() / (F::one() + (-z).exp())
    } else {
        let e = z.exp();
        e / (F::one() + e)
    }
}

impl<F: Float> LogLoss<'_, F> {
    pub fn block(&self) -> usize {
        self.d + usize::from(self.fit_intercept)
    }

    /// `W` (`K × d`) and `b` (`K`) from `θ`.
    fn unpack(&self, theta: &ArrayRef1<F>) -> (Array2<F>, Array1<F>) {
        let p = self.block();
        let mut w = Array2::zeros((self.k, self.d));
        let mut b = Array1::zeros(self.k);
        for c in 0..self.k {
            w.row_mut(c).assign(&theta.slice(s![c * p..c * p + self.d]));
            if self.fit_intercept {
                b[c] = theta[c * p + self.d];
            }
        }
        (w, b)
    }

    /// Scores `Z = X Wᵀ + b` (`n × K`).
    fn scores(&self, w: &Array2<F>, b: &Array1<F>) -> Array2<F> {
        let mut z = self.x.dot(&w.t());
        z += b;
        z
    }

    /// Probabilities `P` (`n × K`; binary: `σ(z)`) and the weighted loss `Σ sᵢ ℓᵢ`.
    fn probabilities(&self, z: &Array2<F>) -> (Array2<F>, F) {
        let mut p = Array2::zeros(z.raw_dim());
        let mut loss = F::zero();
        if self.k == 1 {
            for (i, (&zi, &yi)) in z.column(0).iter().zip(self.y.iter()).enumerate() {
                let yf = if yi == 1 { F::one() } else { F::zero() };
                loss += self.sw[i] * (log1pexp(zi) - yf * zi);
                p[[i, 0]] = sigmoid(zi);
            }
        } else {
            for (i, (row, &yi)) in z.rows().into_iter().zip(self.y.iter()).enumerate() {
                let m = row.iter().fold(F::neg_infinity(), |a, &v| a.max(v));
                let mut sum = F::zero();
                for (c, &v) in row.iter().enumerate() {
                    let e = (v - m).exp();
                    p[[i, c]] = e;
                    sum += e;
                }
                for c in 0..self.k {
                    p[[i, c]] /= sum;
                }
                loss += self.sw[i] * (m + sum.ln() - row[yi]);
            }
        }
        (p, loss)
    }

    /// Weighted residuals `R = diag(s)(P − Y)`.
    fn residuals(&self, p: &Array2<F>) -> Array2<F> {
        let mut r = p.clone();
        for (i, (mut row, &yi)) in r.rows_mut().into_iter().zip(self.y.iter()).enumerate() {
            if self.k == 1 {
                if yi == 1 {
                    row[0] -= F::one();
                }
            } else {
                row[yi] -= F::one();
            }
            row.mapv_inplace(|v| v * self.sw[i]);
        }
        r
    }

    pub fn parts(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>, Array2<F>) {
        let (w, b) = self.unpack(theta);
        let z = self.scores(&w, &b);
        let (p, loss) = self.probabilities(&z);
        let value = loss + F::cast(0.5) * self.l2 * w.iter().map(|v| *v * *v).sum::<F>();
        let r = self.residuals(&p);
        let gw = r.t().dot(self.x);
        let gb = r.sum_axis(Axis(0));
        let pblk = self.block();
        let mut g = Array1::zeros(self.dim());
        for c in 0..self.k {
            for j in 0..self.d {
                g[c * pblk + j] = gw[[c, j]] + self.l2 * w[[c, j]];
            }
            if self.fit_intercept {
                g[c * pblk + self.d] = gb[c];
            }
        }
        (value, g, p)
    }

    /// Coordinates (within a block) on which the objective is invariant under a common shift
    /// over classes (multinomial only).
    fn unpenalised(&self) -> Vec<usize> {
        if self.k == 1 {
            return Vec::new();
        }
        let mut v: Vec<usize> = if self.l2 == F::zero() {
            (0..self.d).collect()
        } else {
            Vec::new()
        };
        if self.fit_intercept {
            v.push(self.d);
        }
        v
    }

    /// Makes the unpenalised coordinates sum to zero over classes.
    pub fn center_null_space(&self, theta: &mut Array1<F>) {
        let p = self.block();
        let kf = F::cast(self.k);
        for j in self.unpenalised() {
            let mean = (0..self.k).map(|c| theta[c * p + j]).sum::<F>() / kf;
            for c in 0..self.k {
                theta[c * p + j] -= mean;
            }
        }
    }

    /// The Hessian at `θ` (with the null-space fill of the module docs).
    fn hessian_at(&self, theta: &ArrayRef1<F>) -> Array2<F> {
        let (w, b) = self.unpack(theta);
        let z = self.scores(&w, &b);
        let (p, _) = self.probabilities(&z);
        let pb = self.block();
        let dim = self.dim();
        let mut h = Array2::zeros((dim, dim));
        let n = self.x.nrows();
        for c in 0..self.k {
            for l in c..self.k {
                // D_cl = sᵢ p_ic (δ_cl − p_il) (binary: sᵢ pᵢ(1 − pᵢ)).
                let dvec: Array1<F> = (0..n)
                    .map(|i| {
                        let pc = p[[i, c]];
                        // Binary (k = 1) has only the diagonal block c = l = 0.
                        let t = if c == l {
                            pc * (F::one() - pc)
                        } else {
                            -pc * p[[i, l]]
                        };
                        self.sw[i] * t
                    })
                    .collect();
                let mut dx = self.x.to_owned();
                for (mut row, &dv) in dx.rows_mut().into_iter().zip(dvec.iter()) {
                    row.mapv_inplace(|v| v * dv);
                }
                let block_ww = self.x.t().dot(&dx);
                let mut blk = Array2::zeros((pb, pb));
                blk.slice_mut(s![..self.d, ..self.d]).assign(&block_ww);
                if self.fit_intercept {
                    let xd = dx.sum_axis(Axis(0));
                    blk.slice_mut(s![..self.d, self.d]).assign(&xd);
                    blk.slice_mut(s![self.d, ..self.d]).assign(&xd);
                    blk[[self.d, self.d]] = dvec.sum();
                }
                if c == l {
                    for j in 0..self.d {
                        blk[[j, j]] += self.l2;
                    }
                }
                h.slice_mut(s![c * pb..(c + 1) * pb, l * pb..(l + 1) * pb])
                    .assign(&blk);
                if c != l {
                    h.slice_mut(s![l * pb..(l + 1) * pb, c * pb..(c + 1) * pb])
                        .assign(&blk.t());
                }
            }
        }
        let free = self.unpenalised();
        if !free.is_empty() {
            let scale = h
                .diag()
                .iter()
                .fold(F::zero(), |m, &v| m.max(v))
                .max(F::epsilon())
                / F::cast(self.k);
            for &j in &free {
                for c in 0..self.k {
                    for l in 0..self.k {
                        h[[c * pb + j, l * pb + j]] += scale;
                    }
                }
            }
        }
        h
    }
}

impl<F: Float> Objective<F> for LogLoss<'_, F> {
    fn dim(&self) -> usize {
        self.k * self.block()
    }
    fn value(&self, theta: &ArrayRef1<F>) -> F {
        self.parts(theta).0
    }
    fn gradient(&self, theta: &ArrayRef1<F>) -> Array1<F> {
        self.parts(theta).1
    }
    fn value_and_gradient(&self, theta: &ArrayRef1<F>) -> (F, Array1<F>) {
        let (v, g, _) = self.parts(theta);
        (v, g)
    }
    fn hessian(&self, theta: &ArrayRef1<F>) -> Option<Array2<F>> {
        Some(self.hessian_at(theta))
    }
}

/// IRLS: full Newton steps `θ ← θ − H⁻¹∇L` (see the module docs).
pub(crate) fn irls<F: Float>(
    loss: &LogLoss<'_, F>,
    mut theta: Array1<F>,
    max_iter: usize,
    tol: f64,
) -> Result<(Array1<F>, usize, bool)> {
    let tol = F::cast(tol);
    for it in 1..=max_iter {
        let (obj, g, _) = loss.parts(&theta);
        let gnorm = optim::norm2(&g);
        if gnorm <= tol {
            return Ok((theta, it - 1, true));
        }
        if ndlearn_core::observe::is_observed()
            && ndlearn_core::observe::report(
                &ndlearn_core::observe::Progress::new("IRLS", it)
                    .max_iter(max_iter)
                    .objective(obj.to_f64().unwrap_or(f64::NAN))
                    .criterion(gnorm.to_f64().unwrap_or(f64::NAN)),
            )
            .is_stop()
        {
            return Ok((theta, it - 1, false));
        }
        let h = loss.hessian_at(&theta);
        let step = match CholeskyFactor::new(&h) {
            Ok(c) => c.solve(&g)?,
            Err(_) => {
                // Singular XᵀSX (perfectly separated or degenerate data without penalty).
                return Ok((theta, it - 1, false));
            }
        };
        theta -= &step;
        let norm = optim::norm2(&theta);
        if optim::norm2(&step) <= tol * F::one().max(norm) {
            return Ok((theta, it, true));
        }
    }
    Ok((theta, max_iter, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn gradient_matches_finite_differences() {
        let binary = (
            array![
                [0.5, 1.0],
                [1.5, -0.5],
                [2.0, 0.3],
                [-1.0, 0.8],
                [-0.5, -1.2],
                [-2.0, 0.1]
            ],
            array![1usize, 1, 1, 0, 0, 0],
        );
        let three = (
            array![
                [0.0, 0.1],
                [0.3, -0.2],
                [2.0, 2.1],
                [2.3, 1.8],
                [-2.0, 2.0],
                [-2.2, 1.7]
            ],
            array![0usize, 0, 1, 1, 2, 2],
        );
        for (x, y) in [binary, three] {
            let n = x.nrows();
            let sw = Array1::from_elem(n, 1.0 / n as f64);
            let k = if y.iter().max() == Some(&1) { 1 } else { 3 };
            let loss = LogLoss {
                x: &x,
                y: &y,
                sw: &sw,
                k,
                d: 2,
                fit_intercept: true,
                l2: 0.3,
            };
            let theta = Array1::from_shape_fn(loss.dim(), |i| 0.1 * i as f64 - 0.2);
            let g = loss.gradient(&theta);
            let h = loss.hessian(&theta).expect("hessian");
            for j in 0..loss.dim() {
                let mut tp = theta.clone();
                let mut tm = theta.clone();
                tp[j] += 1e-6;
                tm[j] -= 1e-6;
                let fd = (loss.value(&tp) - loss.value(&tm)) / 2e-6;
                assert!((fd - g[j]).abs() < 1e-7, "grad {j}: {fd} vs {}", g[j]);
                if k == 1 {
                    let fdh = (&loss.gradient(&tp) - &loss.gradient(&tm)) / 2e-6;
                    for i in 0..loss.dim() {
                        assert!((fdh[i] - h[[i, j]]).abs() < 1e-6);
                    }
                }
            }
        }
    }
}
