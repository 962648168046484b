//! The dense simplex tableau of [`super::LinearProgram`]: Gauss–Jordan pivots restricted to
//! the non-zeros of the pivot row, and the pivot loop with Bland's rule / largest coefficient.

use super::PivotRule;
use crate::Float;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Run {
    Optimal,
    Unbounded,
    MaxIter,
}

/// A dense simplex tableau: `m` constraint rows and the reduced-cost row `m`, each `width`
/// wide (last column = right-hand side; the objective row holds `−z` there).
pub(super) struct Tableau<F: Float> {
    data: Vec<F>,
    m: usize,
    pub(super) width: usize,
    pivot_row: Vec<F>,
    nz_idx: Vec<usize>,
}

impl<F: Float> Tableau<F> {
    pub(super) fn new(m: usize, width: usize) -> Self {
        Self {
            data: vec![F::zero(); (m + 1) * width],
            m,
            width,
            pivot_row: vec![F::zero(); width],
            nz_idx: Vec::with_capacity(width),
        }
    }

    #[inline]
    pub(super) fn get(&self, r: usize, c: usize) -> F {
        self.data[r * self.width + c]
    }

    #[inline]
    pub(super) fn set(&mut self, r: usize, c: usize, v: F) {
        self.data[r * self.width + c] = v;
    }

    /// Gauss–Jordan pivot on `(r, q)`, touching only the non-zeros of the pivot row.
    pub(super) fn pivot(&mut self, r: usize, q: usize) {
        let w = self.width;
        let inv = F::one() / self.get(r, q);
        self.nz_idx.clear();
        for k in 0..w {
            let v = self.data[r * w + k] * inv;
            self.data[r * w + k] = v;
            self.pivot_row[k] = v;
            if v != F::zero() {
                self.nz_idx.push(k);
            }
        }
        self.data[r * w + q] = F::one();
        self.pivot_row[q] = F::one();
        for i in 0..=self.m {
            if i == r {
                continue;
            }
            let f = self.data[i * w + q];
            if f == F::zero() {
                continue;
            }
            let row = &mut self.data[i * w..(i + 1) * w];
            for &k in &self.nz_idx {
                row[k] -= f * self.pivot_row[k];
            }
            row[q] = F::zero();
        }
    }

    /// Simplex iterations on columns `0..n_cols` (the others never enter).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn run(
        &mut self,
        bas: &mut [usize],
        n_cols: usize,
        rule: PivotRule,
        max_iter: usize,
        piv_tol: F,
        opt_tol: F,
        n_iter: &mut usize,
    ) -> Run {
        let m = self.m;
        let rhs = self.width - 1;
        let mut degenerate_streak = 0usize;
        let mut local = 0usize;
        loop {
            let bland = rule == PivotRule::Bland || degenerate_streak >= 20;
            // Entering column.
            let mut q = None;
            let mut best = -opt_tol;
            for j in 0..n_cols {
                let d = self.get(m, j);
                if d < best {
                    q = Some(j);
                    if bland {
                        break;
                    }
                    best = d;
                }
            }
            let Some(q) = q else { return Run::Optimal };
            if local >= max_iter {
                return Run::MaxIter;
            }
            // Ratio test.
            let mut theta = F::infinity();
            for i in 0..m {
                let a = self.get(i, q);
                if a > piv_tol {
                    theta = theta.min(self.get(i, rhs).max(F::zero()) / a);
                }
            }
            if theta == F::infinity() {
                return Run::Unbounded;
            }
            let slack = theta * F::cast(1e-12) + F::min_positive_value();
            let mut leave: Option<usize> = None;
            for i in 0..m {
                let a = self.get(i, q);
                if a <= piv_tol || self.get(i, rhs).max(F::zero()) / a > theta + slack {
                    continue;
                }
                leave = match leave {
                    None => Some(i),
                    Some(l) if bland && bas[i] < bas[l] => Some(i),
                    Some(l) if !bland && a > self.get(l, q) => Some(i),
                    keep => keep,
                };
            }
            let Some(r) = leave else {
                return Run::Unbounded;
            };
            self.pivot(r, q);
            bas[r] = q;
            *n_iter += 1;
            local += 1;
            if theta <= piv_tol {
                degenerate_streak += 1;
            } else {
                degenerate_streak = 0;
            }
        }
    }
}
