//! The stress minimisers of [`Mds`](super::Mds): SMACOF and gradient descent, over one
//! parallel sweep of all point pairs (see the [`mds`](super) module docs).

use ndarray::Array2;
use ndlearn_core::{Float, par};

use super::MdsLoss;

/// Rows per parallel block of the pair loops (fixed: results do not depend on the thread
/// count).
pub(super) const ROW_BLOCK: usize = 32;

/// One solver run.
pub(super) struct Run<F> {
    pub(super) x: Array2<F>,
    pub(super) objective: F,
    pub(super) n_iter: usize,
    pub(super) converged: bool,
    pub(super) history: Vec<F>,
}

/// What one sweep over all pairs computes besides the loss.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Pass {
    /// Stress, `Σ d²`, and the Guttman transform `n⁻¹ B(X) X`.
    Guttman,
    /// Stress and `Σ d²`.
    Stress,
    /// Stress, `Σ d²` and the gradient `2 Σ_j (1 − δ/d)(x_i − x_j)`.
    StressGradient,
    /// Squared stress and `Σ d⁴`.
    SStress,
    /// Squared stress, `Σ d⁴` and the gradient `4 Σ_j (d² − δ²)(x_i − x_j)`.
    SStressGradient,
}

/// One sweep over all ordered pairs `(i, j)`, `i ≠ j`, in fixed row blocks (in parallel, sums
/// combined in block order): `(loss, scale, rows)` with the loss and scale over `i < j`.
pub(super) fn pair_pass<F: Float>(
    delta: &Array2<F>,
    x: &Array2<F>,
    pass: Pass,
) -> (F, F, Option<Array2<F>>) {
    let (n, k) = x.dim();
    let xs_owned;
    let xs: &[F] = match x.as_slice() {
        Some(s) => s,
        None => {
            xs_owned = x
                .as_standard_layout()
                .into_owned()
                .into_raw_vec_and_offset()
                .0;
            &xs_owned
        }
    };
    let want_rows = matches!(
        pass,
        Pass::Guttman | Pass::StressGradient | Pass::SStressGradient
    );
    let squared = matches!(pass, Pass::SStress | Pass::SStressGradient);
    let inv_n = F::one() / F::cast(n as f64);
    let two = F::cast(2.0);
    let four = F::cast(4.0);
    let blocks = par::map_chunks(n, ROW_BLOCK, |rows| {
        let mut out = vec![F::zero(); if want_rows { rows.len() * k } else { 0 }];
        let mut loss = F::zero();
        let mut scale = F::zero();
        let mut diff = vec![F::zero(); k];
        for (r, i) in rows.enumerate() {
            let xi = &xs[i * k..(i + 1) * k];
            let di = delta.row(i);
            for j in 0..n {
                if j == i {
                    continue;
                }
                let xj = &xs[j * k..(j + 1) * k];
                let mut d2 = F::zero();
                for c in 0..k {
                    let t = xi[c] - xj[c];
                    diff[c] = t;
                    d2 += t * t;
                }
                let dl = di[j];
                let weight = if squared {
                    let e = d2 - dl * dl;
                    loss += e * e;
                    scale += d2 * d2;
                    four * e
                } else {
                    let d = d2.sqrt();
                    let e = d - dl;
                    loss += e * e;
                    scale += d2;
                    let ratio = if d > F::zero() { dl / d } else { F::zero() };
                    match pass {
                        Pass::Guttman => ratio,
                        _ => two * (F::one() - ratio),
                    }
                };
                if want_rows {
                    let acc = &mut out[r * k..(r + 1) * k];
                    for c in 0..k {
                        acc[c] += weight * diff[c];
                    }
                }
            }
        }
        if pass == Pass::Guttman {
            out.iter_mut().for_each(|v| *v *= inv_n);
        }
        (out, loss, scale)
    });
    let half = F::cast(0.5);
    let mut loss = F::zero();
    let mut scale = F::zero();
    let mut rows = Vec::with_capacity(if want_rows { n * k } else { 0 });
    for (out, l, s) in blocks {
        loss += l;
        scale += s;
        rows.extend(out);
    }
    let rows = if want_rows {
        Array2::from_shape_vec((n, k), rows).ok()
    } else {
        None
    };
    (loss * half, scale * half, rows)
}

/// SMACOF from `x0` with scikit-learn's stopping rule (see the module docs).
pub(super) fn smacof<F: Float>(
    delta: &Array2<F>,
    x0: Array2<F>,
    max_iter: usize,
    eps: F,
) -> Run<F> {
    let mut x = x0;
    let mut history = Vec::new();
    let mut prev: Option<F> = None;
    let mut p = 0usize;
    loop {
        let pass = if p < max_iter {
            Pass::Guttman
        } else {
            Pass::Stress
        };
        // the stress of X_p and, unless this is the last pass, X_{p+1}
        let (stress, half_ssd, next) = pair_pass(delta, &x, pass);
        if p >= 1 {
            history.push(stress);
            if let Some(old) = prev {
                let done = if half_ssd > F::zero() {
                    (old - stress) / half_ssd < eps
                } else {
                    true
                };
                if done {
                    return Run {
                        x,
                        objective: stress,
                        n_iter: p,
                        converged: true,
                        history,
                    };
                }
            }
            prev = Some(stress);
        }
        match next {
            Some(nx) if p < max_iter => x = nx,
            _ => {
                return Run {
                    x,
                    objective: stress,
                    n_iter: p,
                    converged: false,
                    history,
                };
            }
        }
        p += 1;
    }
}

/// Gradient descent with Armijo backtracking (see the module docs).
pub(super) fn gradient_descent<F: Float>(
    delta: &Array2<F>,
    x0: Array2<F>,
    loss: MdsLoss,
    max_iter: usize,
    eps: F,
) -> Run<F> {
    let n = delta.nrows();
    let nf = F::cast(n as f64);
    let (pass, loss_pass) = match loss {
        MdsLoss::Stress => (Pass::StressGradient, Pass::Stress),
        MdsLoss::SquaredStress => (Pass::SStressGradient, Pass::SStress),
    };
    let mut step = match loss {
        MdsLoss::Stress => F::one() / (F::cast(2.0) * nf),
        MdsLoss::SquaredStress => {
            let pairs = F::cast((n * n.saturating_sub(1)).max(1) as f64);
            let mean_sq = delta.iter().map(|&d| d * d).sum::<F>() / pairs;
            if mean_sq > F::zero() {
                F::one() / (F::cast(12.0) * nf * mean_sq)
            } else {
                F::one() / (F::cast(2.0) * nf)
            }
        }
    };
    let mut x = x0;
    let (mut f, _, mut g) = pair_pass(delta, &x, pass);
    let mut history = Vec::new();
    let armijo = F::cast(1e-4);
    for it in 1..=max_iter {
        let grad = match &g {
            Some(g) => g,
            None => break,
        };
        let gn2 = grad.iter().map(|&v| v * v).sum::<F>();
        if gn2 <= F::zero() || !gn2.is_finite() {
            return Run {
                x,
                objective: f,
                n_iter: it - 1,
                converged: true,
                history,
            };
        }
        step *= F::cast(2.0);
        let mut accepted = None;
        for _ in 0..80 {
            let trial = &x - &(grad * step);
            let (ft, scale_t, _) = pair_pass(delta, &trial, loss_pass);
            if ft <= f - armijo * step * gn2 {
                accepted = Some((trial, ft, scale_t));
                break;
            }
            step *= F::cast(0.5);
        }
        let Some((trial, ft, scale_t)) = accepted else {
            // no decrease at this precision: a stationary point
            return Run {
                x,
                objective: f,
                n_iter: it - 1,
                converged: true,
                history,
            };
        };
        history.push(ft);
        let done = if scale_t > F::zero() {
            (f - ft) / scale_t < eps
        } else {
            true
        };
        x = trial;
        f = ft;
        if done {
            return Run {
                x,
                objective: f,
                n_iter: it,
                converged: true,
                history,
            };
        }
        g = pair_pass(delta, &x, pass).2;
    }
    Run {
        x,
        objective: f,
        n_iter: max_iter,
        converged: false,
        history,
    }
}
