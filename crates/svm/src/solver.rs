//! Sequential minimal optimisation for the SVM duals (Fan, Chen and Lin 2005; Chang and Lin,
//! *LIBSVM: a library for support vector machines*, 2011, §4–§5).
//!
//! Every dual solved here has the form
//!
//! ```text
//! min_α  ½ αᵀQα + pᵀα   subject to  yᵀα = Δ,  0 ≤ αₜ ≤ Cₜ,
//! ```
//!
//! over `l` variables with `yₜ ∈ {+1, −1}` and `Qₛₜ = yₛ yₜ k(x_{i(s)}, x_{i(t)})`, where `i(t)`
//! maps a variable to its training row (the identity for classification, `t mod n` for the two
//! halves of regression). The C form picks the working pair by second-order working-set
//! selection (WSS3); the ν form, whose duals have a second equality constraint, picks the pair
//! within one sign of `y`. Both stop when the maximal violation `m(α) − M(α)` is below `eps`,
//! shrink variables that are stuck at a bound (every `min(l, 1000)` iterations), reconstruct the
//! gradient of the shrunk variables before the final check, and give the bias `ρ` from the free
//! variables (the average of `yₜ∇ₜ`; the midpoint of the KKT interval when none is free).

use std::sync::Arc;

use ndlearn_core::Result;

use crate::cache::KernelRows;

/// `τ` of WSS3: the curvature used when `a_ts ≤ 0` (non-PSD kernels).
const TAU: f64 = 1e-12;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Bound {
    Lower,
    Upper,
    Free,
}

/// The dual problem: which training row and sign each variable has, linear term, bounds and
/// the starting point.
pub(crate) struct Problem {
    /// Training row of each variable.
    pub index: Vec<usize>,
    /// `yₜ = ±1`.
    pub y: Vec<f64>,
    /// The linear term `p`.
    pub p: Vec<f64>,
    /// Upper bounds `Cₜ`.
    pub c: Vec<f64>,
    /// The feasible starting point.
    pub alpha: Vec<f64>,
}

/// Solver settings.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Settings {
    /// Stopping tolerance on the maximal violation.
    pub eps: f64,
    /// Shrink variables stuck at a bound.
    pub shrinking: bool,
    /// Iteration cap (`None`: libsvm's `max(10⁷, 100 l)`).
    pub max_iter: Option<usize>,
}

/// The solution of one dual.
#[derive(Debug, Clone)]
pub(crate) struct Solution {
    pub alpha: Vec<f64>,
    /// The bias `ρ` (decision `Σ yₜαₜ k − ρ`).
    pub rho: f64,
    /// The ν form's `r` (0 for the C form).
    pub r: f64,
    /// The dual objective `½ αᵀQα + pᵀα`.
    pub objective: f64,
    pub n_iter: usize,
    pub converged: bool,
}

/// Which dual: the C form (one equality constraint) or the ν form (one per sign of `y`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Form {
    C,
    Nu,
}

struct Solver<'a, 'k> {
    form: Form,
    rows: &'a mut KernelRows<'k>,
    index: Vec<usize>,
    y: Vec<f64>,
    p: Vec<f64>,
    c: Vec<f64>,
    qd: Vec<f64>,
    alpha: Vec<f64>,
    status: Vec<Bound>,
    g: Vec<f64>,
    g_bar: Vec<f64>,
    active: Vec<usize>,
    is_active: Vec<bool>,
    unshrink: bool,
    eps: f64,
}

/// Solves `problem` with kernel rows from `rows`.
pub(crate) fn solve(
    form: Form,
    rows: &mut KernelRows<'_>,
    problem: Problem,
    settings: Settings,
) -> Result<Solution> {
    let l = problem.y.len();
    let kd = rows.diag();
    let qd: Vec<f64> = problem.index.iter().map(|&i| kd[i]).collect();
    let mut s = Solver {
        form,
        rows,
        status: vec![Bound::Free; l],
        g: problem.p.clone(),
        g_bar: vec![0.0; l],
        active: (0..l).collect(),
        is_active: vec![true; l],
        unshrink: false,
        eps: settings.eps,
        index: problem.index,
        y: problem.y,
        p: problem.p,
        c: problem.c,
        qd,
        alpha: problem.alpha,
    };
    for t in 0..l {
        s.status[t] = s.bound_of(t);
    }
    // Gradient at the starting point: ∇ = p + Qα; Ḡ = Σ_{αₛ = Cₛ} Cₛ Qₛ.
    for t in 0..l {
        if s.status[t] != Bound::Lower {
            let row = s.rows.row(s.index[t])?;
            let (a, yt) = (s.alpha[t], s.y[t]);
            let at_upper = s.status[t] == Bound::Upper;
            let ct = s.c[t];
            for u in 0..l {
                let q = yt * s.y[u] * row[s.index[u]];
                s.g[u] += a * q;
                if at_upper {
                    s.g_bar[u] += ct * q;
                }
            }
        }
    }
    let max_iter = settings
        .max_iter
        .unwrap_or_else(|| (100usize.saturating_mul(l)).max(10_000_000));
    let mut counter = l.clamp(1, 1000) + 1;
    let mut iter = 0usize;
    let mut converged = false;
    while iter < max_iter {
        counter -= 1;
        if counter == 0 {
            counter = l.clamp(1, 1000);
            if settings.shrinking {
                s.shrink()?;
            }
        }
        let pair = s.select()?;
        let (i, j) = match pair {
            Some(p) => p,
            None => {
                if s.active.len() == l {
                    converged = true;
                    break;
                }
                // Check again over every variable with the exact gradient.
                s.reconstruct_gradient()?;
                s.activate_all();
                match s.select()? {
                    Some(p) => {
                        counter = 1;
                        p
                    }
                    None => {
                        converged = true;
                        break;
                    }
                }
            }
        };
        iter += 1;
        s.update(i, j)?;
    }
    if s.active.len() < l {
        s.reconstruct_gradient()?;
        s.activate_all();
    }
    let (rho, r) = match form {
        Form::C => (s.rho_c(), 0.0),
        Form::Nu => s.rho_nu(),
    };
    let objective = (0..l).map(|t| s.alpha[t] * (s.g[t] + s.p[t])).sum::<f64>() / 2.0;
    Ok(Solution {
        alpha: s.alpha,
        rho,
        r,
        objective,
        n_iter: iter,
        converged,
    })
}

impl Solver<'_, '_> {
    fn bound_of(&self, t: usize) -> Bound {
        if self.alpha[t] >= self.c[t] {
            Bound::Upper
        } else if self.alpha[t] <= 0.0 {
            Bound::Lower
        } else {
            Bound::Free
        }
    }

    fn is_upper(&self, t: usize) -> bool {
        self.status[t] == Bound::Upper
    }

    fn is_lower(&self, t: usize) -> bool {
        self.status[t] == Bound::Lower
    }

    /// The kernel row of variable `t` (entries indexed by training row).
    fn krow(&mut self, t: usize) -> Result<Arc<[f64]>> {
        self.rows.row(self.index[t])
    }

    /// `Q_ts` from the kernel row of `t`.
    #[inline]
    fn q(&self, krow_t: &[f64], t: usize, s: usize) -> f64 {
        self.y[t] * self.y[s] * krow_t[self.index[s]]
    }

    fn select(&mut self) -> Result<Option<(usize, usize)>> {
        match self.form {
            Form::C => self.select_c(),
            Form::Nu => self.select_nu(),
        }
    }

    /// WSS3: `i` maximises `−yₜ∇ₜ` over `I_up`; `j` minimises the second-order decrease
    /// `−b²/a` over the `t ∈ I_low` with `b = −yᵢ∇ᵢ + yₜ∇ₜ > 0`.
    fn select_c(&mut self) -> Result<Option<(usize, usize)>> {
        let mut gmax = f64::NEG_INFINITY;
        let mut imax = None;
        for &t in &self.active {
            let v = -self.y[t] * self.g[t];
            let in_up = if self.y[t] > 0.0 {
                !self.is_upper(t)
            } else {
                !self.is_lower(t)
            };
            if in_up && v >= gmax {
                gmax = v;
                imax = Some(t);
            }
        }
        let mut gmax2 = f64::NEG_INFINITY;
        let mut jmin = None;
        let mut best = f64::INFINITY;
        let row_i = match imax {
            Some(i) => Some(self.krow(i)?),
            None => None,
        };
        for &t in &self.active {
            let in_low = if self.y[t] > 0.0 {
                !self.is_lower(t)
            } else {
                !self.is_upper(t)
            };
            if !in_low {
                continue;
            }
            let v = self.y[t] * self.g[t];
            if v >= gmax2 {
                gmax2 = v;
            }
            let b = gmax + v;
            if b > 0.0
                && let (Some(i), Some(ri)) = (imax, row_i.as_deref())
            {
                // a = K_ii + K_tt − 2 K_it
                let a = self.qd[i] + self.qd[t] - 2.0 * ri[self.index[t]];
                let a = if a > 0.0 { a } else { TAU };
                let dec = -(b * b) / a;
                if dec <= best {
                    best = dec;
                    jmin = Some(t);
                }
            }
        }
        if gmax + gmax2 < self.eps {
            return Ok(None);
        }
        Ok(match (imax, jmin) {
            (Some(i), Some(j)) => Some((i, j)),
            _ => None,
        })
    }

    /// The ν form: the pair comes from one sign of `y` (both equality constraints kept).
    fn select_nu(&mut self) -> Result<Option<(usize, usize)>> {
        let (mut gmaxp, mut gmaxn) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let (mut ip, mut in_) = (None, None);
        for &t in &self.active {
            if self.y[t] > 0.0 {
                if !self.is_upper(t) && -self.g[t] >= gmaxp {
                    gmaxp = -self.g[t];
                    ip = Some(t);
                }
            } else if !self.is_lower(t) && self.g[t] >= gmaxn {
                gmaxn = self.g[t];
                in_ = Some(t);
            }
        }
        let row_p = match ip {
            Some(i) => Some(self.krow(i)?),
            None => None,
        };
        let row_n = match in_ {
            Some(i) => Some(self.krow(i)?),
            None => None,
        };
        let (mut gmaxp2, mut gmaxn2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        let mut jmin = None;
        let mut best = f64::INFINITY;
        for &t in &self.active {
            if self.y[t] > 0.0 {
                if self.is_lower(t) {
                    continue;
                }
                let b = gmaxp + self.g[t];
                if self.g[t] >= gmaxp2 {
                    gmaxp2 = self.g[t];
                }
                if b > 0.0
                    && let (Some(i), Some(ri)) = (ip, row_p.as_deref())
                {
                    let a = self.qd[i] + self.qd[t] - 2.0 * ri[self.index[t]];
                    let a = if a > 0.0 { a } else { TAU };
                    let dec = -(b * b) / a;
                    if dec <= best {
                        best = dec;
                        jmin = Some(t);
                    }
                }
            } else {
                if self.is_upper(t) {
                    continue;
                }
                let b = gmaxn - self.g[t];
                if -self.g[t] >= gmaxn2 {
                    gmaxn2 = -self.g[t];
                }
                if b > 0.0
                    && let (Some(i), Some(ri)) = (in_, row_n.as_deref())
                {
                    let a = self.qd[i] + self.qd[t] - 2.0 * ri[self.index[t]];
                    let a = if a > 0.0 { a } else { TAU };
                    let dec = -(b * b) / a;
                    if dec <= best {
                        best = dec;
                        jmin = Some(t);
                    }
                }
            }
        }
        if (gmaxp + gmaxp2).max(gmaxn + gmaxn2) < self.eps {
            return Ok(None);
        }
        Ok(jmin.and_then(|j| {
            let i = if self.y[j] > 0.0 { ip } else { in_ };
            i.map(|i| (i, j))
        }))
    }

    /// The analytic two-variable step, clipped to the box, and the gradient update.
    fn update(&mut self, i: usize, j: usize) -> Result<()> {
        let row_i = self.krow(i)?;
        let row_j = self.krow(j)?;
        let (ci, cj) = (self.c[i], self.c[j]);
        let (old_i, old_j) = (self.alpha[i], self.alpha[j]);
        let (mut ai, mut aj) = (old_i, old_j);
        let kij = row_i[self.index[j]];
        if self.y[i] != self.y[j] {
            let a = self.qd[i] + self.qd[j] + 2.0 * self.y[i] * self.y[j] * kij;
            let a = if a > 0.0 { a } else { TAU };
            let delta = (-self.g[i] - self.g[j]) / a;
            let diff = ai - aj;
            ai += delta;
            aj += delta;
            if diff > 0.0 {
                if aj < 0.0 {
                    aj = 0.0;
                    ai = diff;
                }
            } else if ai < 0.0 {
                ai = 0.0;
                aj = -diff;
            }
            if diff > ci - cj {
                if ai > ci {
                    ai = ci;
                    aj = ci - diff;
                }
            } else if aj > cj {
                aj = cj;
                ai = cj + diff;
            }
        } else {
            let a = self.qd[i] + self.qd[j] - 2.0 * self.y[i] * self.y[j] * kij;
            let a = if a > 0.0 { a } else { TAU };
            let delta = (self.g[i] - self.g[j]) / a;
            let sum = ai + aj;
            ai -= delta;
            aj += delta;
            if sum > ci {
                if ai > ci {
                    ai = ci;
                    aj = sum - ci;
                }
            } else if aj < 0.0 {
                aj = 0.0;
                ai = sum;
            }
            if sum > cj {
                if aj > cj {
                    aj = cj;
                    ai = sum - cj;
                }
            } else if ai < 0.0 {
                ai = 0.0;
                aj = sum;
            }
        }
        self.alpha[i] = ai;
        self.alpha[j] = aj;
        let (di, dj) = (ai - old_i, aj - old_j);
        let (yi, yj) = (self.y[i], self.y[j]);
        for &t in &self.active {
            let yt = self.y[t];
            let k = self.index[t];
            self.g[t] += yi * yt * row_i[k] * di + yj * yt * row_j[k] * dj;
        }
        let (was_upper_i, was_upper_j) = (self.is_upper(i), self.is_upper(j));
        self.status[i] = self.bound_of(i);
        self.status[j] = self.bound_of(j);
        for (v, was, row) in [(i, was_upper_i, &row_i), (j, was_upper_j, &row_j)] {
            let now = self.is_upper(v);
            if was != now {
                let cv = if now { self.c[v] } else { -self.c[v] };
                for t in 0..self.y.len() {
                    self.g_bar[t] += cv * self.q(row, v, t);
                }
            }
        }
        Ok(())
    }

    fn activate_all(&mut self) {
        self.active = (0..self.y.len()).collect();
        self.is_active.iter_mut().for_each(|a| *a = true);
    }

    /// The exact gradient of the inactive variables: `Ḡ + p + Σ_{free s} αₛ Qₛ`.
    fn reconstruct_gradient(&mut self) -> Result<()> {
        let l = self.y.len();
        if self.active.len() == l {
            return Ok(());
        }
        let inactive: Vec<usize> = (0..l).filter(|&t| !self.is_active[t]).collect();
        for &t in &inactive {
            self.g[t] = self.g_bar[t] + self.p[t];
        }
        for s in 0..l {
            if self.status[s] == Bound::Free {
                let row = self.krow(s)?;
                let a = self.alpha[s];
                for &t in &inactive {
                    self.g[t] += a * self.q(&row, s, t);
                }
            }
        }
        Ok(())
    }

    fn shrink(&mut self) -> Result<()> {
        match self.form {
            Form::C => self.shrink_c(),
            Form::Nu => self.shrink_nu(),
        }
    }

    fn shrink_c(&mut self) -> Result<()> {
        // gmax1 = m(α) = max over I_up of −y∇; gmax2 = −M(α) = max over I_low of y∇.
        let (mut gmax1, mut gmax2) = (f64::NEG_INFINITY, f64::NEG_INFINITY);
        for &t in &self.active {
            let yg = self.y[t] * self.g[t];
            let (up, low) = if self.y[t] > 0.0 {
                (!self.is_upper(t), !self.is_lower(t))
            } else {
                (!self.is_lower(t), !self.is_upper(t))
            };
            if up {
                gmax1 = gmax1.max(-yg);
            }
            if low {
                gmax2 = gmax2.max(yg);
            }
        }
        if !self.unshrink && gmax1 + gmax2 <= self.eps * 10.0 {
            self.unshrink = true;
            self.reconstruct_gradient()?;
            self.activate_all();
        }
        let keep: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&t| {
                let g = self.g[t];
                let shrunk = if self.is_upper(t) {
                    if self.y[t] > 0.0 {
                        -g > gmax1
                    } else {
                        -g > gmax2
                    }
                } else if self.is_lower(t) {
                    if self.y[t] > 0.0 {
                        g > gmax2
                    } else {
                        g > gmax1
                    }
                } else {
                    false
                };
                !shrunk
            })
            .collect();
        self.set_active(keep);
        Ok(())
    }

    fn shrink_nu(&mut self) -> Result<()> {
        let mut gm = [f64::NEG_INFINITY; 4];
        for &t in &self.active {
            let g = self.g[t];
            if self.y[t] > 0.0 {
                if !self.is_upper(t) {
                    gm[0] = gm[0].max(-g);
                }
                if !self.is_lower(t) {
                    gm[1] = gm[1].max(g);
                }
            } else {
                if !self.is_upper(t) {
                    gm[2] = gm[2].max(-g);
                }
                if !self.is_lower(t) {
                    gm[3] = gm[3].max(g);
                }
            }
        }
        if !self.unshrink && (gm[0] + gm[1]).max(gm[2] + gm[3]) <= self.eps * 10.0 {
            self.unshrink = true;
            self.reconstruct_gradient()?;
            self.activate_all();
        }
        let keep: Vec<usize> = self
            .active
            .iter()
            .copied()
            .filter(|&t| {
                let g = self.g[t];
                let shrunk = if self.is_upper(t) {
                    if self.y[t] > 0.0 {
                        -g > gm[0]
                    } else {
                        -g > gm[3]
                    }
                } else if self.is_lower(t) {
                    if self.y[t] > 0.0 {
                        g > gm[1]
                    } else {
                        g > gm[2]
                    }
                } else {
                    false
                };
                !shrunk
            })
            .collect();
        self.set_active(keep);
        Ok(())
    }

    fn set_active(&mut self, keep: Vec<usize>) {
        self.is_active.iter_mut().for_each(|a| *a = false);
        for &t in &keep {
            self.is_active[t] = true;
        }
        self.active = keep;
    }

    /// `ρ` of the C form: the mean of `yₜ∇ₜ` over free variables, else the KKT interval's
    /// midpoint.
    fn rho_c(&self) -> f64 {
        let (mut ub, mut lb) = (f64::INFINITY, f64::NEG_INFINITY);
        let (mut sum, mut nfree) = (0.0, 0usize);
        for t in 0..self.y.len() {
            let yg = self.y[t] * self.g[t];
            match self.status[t] {
                Bound::Upper => {
                    if self.y[t] < 0.0 {
                        ub = ub.min(yg);
                    } else {
                        lb = lb.max(yg);
                    }
                }
                Bound::Lower => {
                    if self.y[t] > 0.0 {
                        ub = ub.min(yg);
                    } else {
                        lb = lb.max(yg);
                    }
                }
                Bound::Free => {
                    nfree += 1;
                    sum += yg;
                }
            }
        }
        if nfree > 0 {
            sum / nfree as f64
        } else {
            (ub + lb) / 2.0
        }
    }

    /// `(ρ, r)` of the ν form from the two signs' free variables.
    fn rho_nu(&self) -> (f64, f64) {
        let mut side = [(f64::INFINITY, f64::NEG_INFINITY, 0.0, 0usize); 2];
        for t in 0..self.y.len() {
            let k = usize::from(self.y[t] < 0.0);
            let g = self.g[t];
            let s = &mut side[k];
            match self.status[t] {
                Bound::Upper => s.1 = s.1.max(g),
                Bound::Lower => s.0 = s.0.min(g),
                Bound::Free => {
                    s.2 += g;
                    s.3 += 1;
                }
            }
        }
        let r = |s: (f64, f64, f64, usize)| {
            if s.3 > 0 {
                s.2 / s.3 as f64
            } else {
                (s.0 + s.1) / 2.0
            }
        };
        let (r1, r2) = (r(side[0]), r(side[1]));
        ((r1 - r2) / 2.0, (r1 + r2) / 2.0)
    }
}
