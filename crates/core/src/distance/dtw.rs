//! Dynamic time warping (DTW) between series of possibly different lengths.
//!
//! # The course notes
//!
//! As in Sakoe & Chiba, "Dynamic programming algorithm optimization for spoken word
//! recognition", IEEE Trans. ASSP 26(1), 1978 (the local path types as in Rabiner & Juang,
//! *Fundamentals of Speech Recognition*, Prentice Hall (1993)): an alignment path
//! `P = ((p₁, q₁), …, (p_k, q_k))` runs from `(1, 1)` to `(m, n)` monotonically; DTW is the
//! cost of the cheapest path, by dynamic programming on a cumulative cost `D(i, j)`, with
//! local cost `c(i, j) = |xᵢ − yⱼ|` (the recurrences; the path objective
//! above them uses `(xᵢ − yⱼ)²`, so both are offered through [`LocalCost`]):
//!
//! * **Type 2** (classic; one-to-many and many-to-one, no skips; "0-45-90" local paths):
//!   `D(i, j) = c(i, j) + min(D(i−1, j), D(i−1, j−1), D(i, j−1))`.
//! * **Type 1** (one-to-one with at most one skipped point; "27-45-63" local paths):
//!   `D(i, j) = c(i, j) + min(D(i−1, j−2), D(i−1, j−1), D(i−2, j−1))` (the course notes print
//!   `|xᵢ − yᵢ|`, erratum E10: it is `|xᵢ − yⱼ|`).
//!
//! **Slope penalty η.** The course notes add a penalty `η` to "paths that deviate from 45 degrees" for
//! Type 1 and to "45 degree paths" for Type 2; the text is ambiguous (catalog X-02), so both
//! are configurable: `diagonal_penalty` is added on every `(1, 1)` step and
//! `off_diagonal_penalty` on every other step. [`Dtw::type1`]`(η)` sets the off-diagonal
//! penalty and [`Dtw::type2`]`(η)` the diagonal one, as the course notes say; both default to 0.
//!
//! # Choices the course notes leave open (documented deviations)
//!
//! * Boundary: `D(1, 1) = c(1, 1)` and every cell outside the grid is `+∞`, so every path
//!   starts at `(1, 1)` and ends at `(m, n)`. For Type 1 the end is reachable only when
//!   `max(m, n) ≤ 2 min(m, n) − 1`; otherwise an error is returned.
//! * Sakoe–Chiba window `w`: only cells with `|i − j| ≤ max(w, |m − n|)` are allowed (widened to
//!   `|m − n|` so that the end stays reachable); `None` (or a window ≥ `max(m, n)`) is
//!   unconstrained.
//! * The returned distance is `D(m, n)` itself (no square root for [`LocalCost::Squared`]).
//! * Ties in the path backtrack prefer the diagonal step, then the step that advances `x`
//!   (`(i−1, j)` / `(i−2, j−1)`), then the one that advances `y`.
//!
//! Time `O(m n)` (`O(m w)` with a window is not exploited: cells outside the band are skipped,
//! but the table is `m × n`); memory `O(n)` for the distance alone, `O(m n)` with the path.
//!
//! The course notes' claim "Type 1 is more efficient than Type 2" is about the reachable band, which
//! this implementation does not exploit; it is not tested.

use ndarray::ArrayRef1;

use super::kernels::contiguous;
use crate::{Error, Float, Result};

/// Which DTW recurrence to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum DtwKind {
    /// Skip-constrained steps `(1, 2)`, `(1, 1)`, `(2, 1)` ("27-45-63").
    Type1,
    /// Classic steps `(1, 0)`, `(1, 1)`, `(0, 1)` ("0-45-90").
    #[default]
    Type2,
}

/// Local cost of matching `xᵢ` with `yⱼ`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LocalCost {
    /// `|xᵢ − yⱼ|`, as in the course notes' recurrences.
    #[default]
    Absolute,
    /// `(xᵢ − yⱼ)²`, as in the course notes' path objective.
    Squared,
}

/// Dynamic time warping hyperparameters (see the module docs).
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[non_exhaustive]
pub struct Dtw {
    /// Recurrence (default [`DtwKind::Type2`]).
    pub kind: DtwKind,
    /// Local cost (default [`LocalCost::Absolute`]).
    pub cost: LocalCost,
    /// Sakoe–Chiba band half-width (default `None`: unconstrained).
    pub window: Option<usize>,
    /// Penalty added on every 45° step `(1, 1)` (default 0, `≥ 0`).
    pub diagonal_penalty: f64,
    /// Penalty added on every other step (default 0, `≥ 0`).
    pub off_diagonal_penalty: f64,
}

impl Default for Dtw {
    fn default() -> Self {
        Self {
            kind: DtwKind::Type2,
            cost: LocalCost::Absolute,
            window: None,
            diagonal_penalty: 0.0,
            off_diagonal_penalty: 0.0,
        }
    }
}

/// Result of [`Dtw::distance_with_path`].
#[derive(Debug, Clone, PartialEq)]
pub struct DtwResult<F> {
    /// The DTW distance `D(m, n)`.
    pub distance: F,
    /// The optimal alignment, 0-based `(i, j)` pairs from `(0, 0)` to `(m − 1, n − 1)`.
    pub path: Vec<(usize, usize)>,
}

/// Steps `(di, dj, is_diagonal)` in tie-breaking order.
fn steps(kind: DtwKind) -> [(usize, usize, bool); 3] {
    match kind {
        DtwKind::Type2 => [(1, 1, true), (1, 0, false), (0, 1, false)],
        DtwKind::Type1 => [(1, 1, true), (2, 1, false), (1, 2, false)],
    }
}

impl Dtw {
    /// Type 1 DTW with slope penalty `eta` on the non-45° steps (the course notes' Type 1 rule).
    pub fn type1(eta: f64) -> Self {
        Self {
            kind: DtwKind::Type1,
            off_diagonal_penalty: eta,
            ..Self::default()
        }
    }

    /// Type 2 DTW with slope penalty `eta` on the 45° steps (the course notes' Type 2 rule).
    pub fn type2(eta: f64) -> Self {
        Self {
            kind: DtwKind::Type2,
            diagonal_penalty: eta,
            ..Self::default()
        }
    }

    crate::setters! {
        /// Sets the recurrence.
        kind: DtwKind,
        /// Sets the local cost.
        cost: LocalCost,
        /// Sets the Sakoe–Chiba window.
        window: Option<usize>,
        /// Sets the penalty of 45° steps.
        diagonal_penalty: f64,
        /// Sets the penalty of non-45° steps.
        off_diagonal_penalty: f64,
    }

    /// Checks that the penalties are finite and `≥ 0`.
    pub fn validate(&self) -> Result<()> {
        for (name, v) in [
            ("diagonal_penalty", self.diagonal_penalty),
            ("off_diagonal_penalty", self.off_diagonal_penalty),
        ] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(Error::invalid_param(
                    name,
                    format!("must be finite and >= 0, got {v}"),
                ));
            }
        }
        Ok(())
    }

    /// The DTW distance between `x` and `y`.
    ///
    /// # Errors
    /// [`Error::TooFewSamples`] for an empty series; [`Error::NonFinite`] on NaN/∞;
    /// [`Error::InvalidParam`] for bad penalties or when no admissible path exists (Type 1 with
    /// too different lengths).
    pub fn distance<F: Float>(&self, x: &ArrayRef1<F>, y: &ArrayRef1<F>) -> Result<F> {
        Ok(self.run(x, y, false)?.distance)
    }

    /// The DTW distance and an optimal warping path.
    pub fn distance_with_path<F: Float>(
        &self,
        x: &ArrayRef1<F>,
        y: &ArrayRef1<F>,
    ) -> Result<DtwResult<F>> {
        self.run(x, y, true)
    }

    fn run<F: Float>(
        &self,
        x: &ArrayRef1<F>,
        y: &ArrayRef1<F>,
        want_path: bool,
    ) -> Result<DtwResult<F>> {
        self.validate()?;
        crate::validate::check_min_samples(x.len(), 1, "Dtw: x")?;
        crate::validate::check_min_samples(y.len(), 1, "Dtw: y")?;
        crate::validate::check_finite_1d(x, "x")?;
        crate::validate::check_finite_1d(y, "y")?;
        let (xs, ys) = (contiguous(x), contiguous(y));
        let (m, n) = (xs.len(), ys.len());
        let band = self.window.map(|w| w.max(m.abs_diff(n)));
        let allowed = |i: usize, j: usize| band.is_none_or(|w| i.abs_diff(j) <= w);
        let cost = |i: usize, j: usize| {
            let d = xs[i] - ys[j];
            match self.cost {
                LocalCost::Absolute => d.abs(),
                LocalCost::Squared => d * d,
            }
        };
        let st = steps(self.kind);
        let pen = |diag: bool| {
            F::cast(if diag {
                self.diagonal_penalty
            } else {
                self.off_diagonal_penalty
            })
        };
        let inf = F::infinity();
        // Full table only for the path; otherwise three rolling rows (Type 1 looks back 2).
        let rows_kept = if want_path { m } else { 3.min(m) };
        let mut table = vec![inf; rows_kept * n];
        let row_of = |i: usize| if want_path { i } else { i % 3 };
        for i in 0..m {
            let ri = row_of(i);
            for j in 0..n {
                let mut v = inf;
                if allowed(i, j) {
                    if i == 0 && j == 0 {
                        v = cost(0, 0);
                    } else {
                        let mut best = inf;
                        for &(di, dj, diag) in &st {
                            if i >= di && j >= dj {
                                let prev = table[row_of(i - di) * n + (j - dj)];
                                if prev < inf {
                                    let cand = prev + pen(diag);
                                    if cand < best {
                                        best = cand;
                                    }
                                }
                            }
                        }
                        if best < inf {
                            v = best + cost(i, j);
                        }
                    }
                }
                table[ri * n + j] = v;
            }
        }
        let distance = table[row_of(m - 1) * n + (n - 1)];
        if !distance.is_finite() {
            return Err(Error::invalid_param(
                "kind",
                format!(
                    "no admissible warping path between series of lengths {m} and {n} \
                     (Type 1 needs max(m, n) <= 2 min(m, n) - 1)"
                ),
            ));
        }
        let mut path = Vec::new();
        if want_path {
            let (mut i, mut j) = (m - 1, n - 1);
            path.push((i, j));
            while (i, j) != (0, 0) {
                // The predecessor the forward pass chose: same candidates, same order, same
                // strict comparison.
                let mut best: Option<(usize, usize, F)> = None;
                for &(di, dj, diag) in &st {
                    if i >= di && j >= dj {
                        let prev = table[(i - di) * n + (j - dj)];
                        if prev < inf {
                            let cand = prev + pen(diag);
                            if best.is_none_or(|(_, _, b)| cand < b) {
                                best = Some((i - di, j - dj, cand));
                            }
                        }
                    }
                }
                let Some((pi, pj, _)) = best else { break };
                i = pi;
                j = pj;
                path.push((i, j));
            }
            path.reverse();
        }
        Ok(DtwResult { distance, path })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;

    #[test]
    fn type2_hand_example() {
        // x = (0, 1, 2), y = (0, 2). |Δ| table:
        //   j:  0  1        D:  0  2
        // i=0   0  2            1  1   (D(1,1) = 1 + min(D(0,1)=2, D(0,0)=0, D(1,0)=1) = 1)
        // i=1   1  1            3  1   (D(2,1) = 0 + min(D(1,1)=1, D(1,0)=1, D(2,0)=3) = 1)
        // i=2   2  0
        // D(2,1) ties between the diagonal from D(1,0) = 1 and D(1,1) = 1: the diagonal wins.
        let x = array![0.0, 1.0, 2.0];
        let y = array![0.0, 2.0];
        let r = Dtw::default().distance_with_path(&x, &y).expect("ok");
        assert_eq!(r.distance, 1.0);
        assert_eq!(r.path, vec![(0, 0), (1, 0), (2, 1)]);
        // Diagonal penalty η = 5: diagonal steps cost 5 more, so the best path avoids them:
        // (0,0)→(1,0)→(1,1)→(2,1) costs 0 + 1 + 1 + 0 = 2.
        let p = Dtw::type2(5.0).distance_with_path(&x, &y).expect("ok");
        assert_eq!(p.distance, 2.0);
        assert_eq!(p.path, vec![(0, 0), (1, 0), (1, 1), (2, 1)]);
        // Squared cost: the (1,1) match costs 1, the rest 0 ⇒ 1.
        let s = Dtw::default()
            .cost(LocalCost::Squared)
            .distance(&x, &y)
            .expect("ok");
        assert_eq!(s, 1.0);
    }

    #[test]
    fn type1_hand_example() {
        // x = (0, 5, 1), y = (0, 1): the only admissible path is (0,0)→(2,1) (a (2,1) step
        // skipping x₁ = 5): D = |0 − 0| + |1 − 1| = 0. The course notes' penalty on non-45° steps adds η.
        let x = array![0.0, 5.0, 1.0];
        let y = array![0.0, 1.0];
        let r = Dtw::type1(0.0).distance_with_path(&x, &y).expect("ok");
        assert_eq!(r.distance, 0.0);
        assert_eq!(r.path, vec![(0, 0), (2, 1)]);
        assert_eq!(Dtw::type1(0.5).distance(&x, &y).expect("ok"), 0.5);
        // Equal lengths: only the diagonal or a (1,2)+(2,1) detour; identical series ⇒ 0.
        let z = array![1.0, 2.0, 3.0, 4.0];
        assert_eq!(Dtw::type1(0.0).distance(&z, &z).expect("ok"), 0.0);
        // Lengths 4 and 1: unreachable.
        assert!(Dtw::type1(0.0).distance(&z, &array![1.0]).is_err());
    }

    #[test]
    fn window_and_errors() {
        let x = array![0.0, 5.0, 0.0, 0.0];
        let y = array![0.0, 0.0, 5.0, 0.0];
        let free = Dtw::default().distance(&x, &y).expect("ok");
        let tight = Dtw::default().window(Some(0)).distance(&x, &y).expect("ok");
        // Window 0: lock-step, 0 + |5−0| + |0−5| + 0 = 10; free warping matches the two 5s
        // along (0,0),(0,1),(1,2),(2,3),(3,3) at cost 0, which also fits in a window of 1.
        assert_eq!(tight, 10.0);
        assert_eq!(free, 0.0);
        assert_eq!(
            Dtw::default().window(Some(1)).distance(&x, &y).expect("ok"),
            0.0
        );
        assert_eq!(
            Dtw::default()
                .window(Some(100))
                .distance(&x, &y)
                .expect("ok"),
            free
        );
        let empty = ndarray::Array1::<f64>::zeros(0);
        assert!(matches!(
            Dtw::default().distance(&empty, &y),
            Err(Error::TooFewSamples { .. })
        ));
        assert!(matches!(
            Dtw::default().distance(&array![f64::NAN], &y),
            Err(Error::NonFinite { .. })
        ));
        assert!(Dtw::type2(-1.0).distance(&x, &y).is_err());
        assert!(
            Dtw::default()
                .off_diagonal_penalty(f64::NAN)
                .validate()
                .is_err()
        );
        assert_eq!(Dtw::default().kind(DtwKind::Type1).kind, DtwKind::Type1);
        assert_eq!(Dtw::default().diagonal_penalty(2.0).diagonal_penalty, 2.0);
    }

    #[test]
    fn single_points_and_f32() {
        let r = Dtw::default()
            .distance_with_path(&array![3.0f32], &array![1.0f32, 2.0])
            .expect("ok");
        assert_eq!(r.distance, 3.0);
        assert_eq!(r.path, vec![(0, 0), (0, 1)]);
    }
}
