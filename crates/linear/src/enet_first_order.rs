//! ISTA, FISTA and the subgradient method for the elastic net (the course notes' solvers, for
//! teaching and tests): private helpers of [`crate::lasso`], which documents them.

use ndarray::{Array1, Array2, ArrayRef1};
use ndlearn_core::optim::{self, Objective, ProxStep, StopCriteria};
use ndlearn_core::{Float, Result, linalg};

use crate::design::Moments;
use crate::lasso::{ElasticNet, EnetSolver};
use crate::ols::GramQuadratic;

/// ISTA / FISTA / subgradient on the Gram form for target `t`.
pub(crate) fn first_order<F: Float>(
    p: &ElasticNet,
    solver: EnetSolver,
    g: &Array2<F>,
    m: &Moments<F>,
    t: usize,
    w0: Array1<F>,
) -> Result<(Array1<F>, usize, bool)> {
    let nf = F::cast(m.n);
    let l2 = F::cast(p.alpha * (1.0 - p.l1_ratio));
    let lam = p.alpha * p.l1_ratio;
    let obj = GramQuadratic {
        g,
        c: m.xty.column(t).to_owned(),
        yy: m.yty[t],
        n: nf,
        ridge: l2 * nf,
    };
    let g0 = (optim::norm2(&obj.c) / nf).to_f64_lossless();
    match solver {
        EnetSolver::Ista | EnetSolver::Fista => {
            let lmax = linalg::eigvalsh(g)?
                .iter()
                .fold(F::zero(), |a, &v| a.max(v));
            let lip = (lmax / nf + l2).to_f64_lossless();
            if lip.is_nan() || lip <= 0.0 {
                return Ok((Array1::zeros(w0.len()), 0, true));
            }
            let stop = StopCriteria::default()
                .max_iter(p.max_iter)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(p.tol * g0);
            let method = if solver == EnetSolver::Ista {
                optim::ProxMethod::Ista
            } else {
                optim::ProxMethod::Fista
            };
            let res =
                optim::proximal_gradient(&obj, &w0, lam, method, ProxStep::Lipschitz(lip), stop)?;
            Ok((res.x, res.n_iter, res.converged))
        }
        EnetSolver::Subgradient { step } => {
            let sub = L1Subgradient {
                smooth: &obj,
                lam: F::cast(lam),
            };
            let stop = StopCriteria::default()
                .max_iter(p.max_iter)
                .f_tol(0.0)
                .x_tol(0.0)
                .g_tol(0.0);
            let res = optim::subgradient_method(&sub, &w0, step, stop)?;
            Ok((res.x, res.n_iter, res.converged))
        }
        EnetSolver::CoordinateDescent => Ok((w0, 0, true)),
    }
}

/// `f(w) + λ‖w‖₁` with the subgradient `∇f(w) + λ sign(w)` (`sign(0) = 0`).
struct L1Subgradient<'a, F: Float> {
    smooth: &'a GramQuadratic<'a, F>,
    lam: F,
}

impl<F: Float> Objective<F> for L1Subgradient<'_, F> {
    fn dim(&self) -> usize {
        self.smooth.dim()
    }
    fn value(&self, w: &ArrayRef1<F>) -> F {
        self.smooth.value(w) + self.lam * w.iter().map(|v| v.abs()).sum::<F>()
    }
    fn gradient(&self, w: &ArrayRef1<F>) -> Array1<F> {
        let mut g = self.smooth.gradient(w);
        for (gi, &wi) in g.iter_mut().zip(w.iter()) {
            if wi != F::zero() {
                *gi += self.lam * wi.signum();
            }
        }
        g
    }
}
