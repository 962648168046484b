//! Split criteria as the builder sees them: node statistics, the proxy maximised during the
//! sweep, children impurities and the weighted impurity decrease. The formulas (and the order
//! of their floating-point operations) are scikit-learn's `_criterion.pyx`, so that equal
//! splits are chosen on the same data.

use crate::params::{ClassCriterion, RegCriterion};

/// `10·ε`: scikit-learn's guard on Poisson sums.
const POISSON_EPS: f64 = 10.0 * f64::EPSILON;

/// The statistics of one node and of a left/right partition of it.
pub(crate) trait Criterion: Clone + Send + Sync {
    /// Totals over `samples` (the node); the left child becomes empty.
    fn init(&mut self, samples: &[usize]);
    /// Total weight of the node.
    fn weighted_n(&self) -> f64;
    /// Impurity of the node.
    fn node_impurity(&self, samples: &[usize]) -> f64;
    /// The value row of the node.
    fn node_value(&self, out: &mut [f64]);
    /// Empties the left child.
    fn reset(&mut self);
    /// Makes `samples[..new_pos]` the left child (`samples` is the node; `new_pos` at least the
    /// current position). Like scikit-learn, the rows in between are added to the left sums,
    /// or, when fewer rows lie after `new_pos`, the left sums restart from the node totals and
    /// the rows after `new_pos` are subtracted.
    fn update(&mut self, samples: &[usize], new_pos: usize);
    /// Weight of the left child.
    fn weighted_left(&self) -> f64;
    /// A quantity whose maximum is the split of largest impurity decrease.
    fn proxy(&self, samples: &[usize], pos: usize) -> f64;
    /// Impurities of `samples[..pos]` and `samples[pos..]` (the current partition).
    fn children_impurity(&self, samples: &[usize], pos: usize) -> (f64, f64);
    /// Whether the sums of any subset of rows are exact in any order (class counts of integer
    /// weights), so that left sums computed in another order than scikit-learn's are its
    /// bits.
    fn exact_sums(&self) -> bool {
        false
    }
    /// Sets the node's totals from its statistics in the bin layout (weight first, as
    /// [`hist_add`](Self::hist_add) sums them) instead of a pass over its rows: the same values
    /// as [`init`](Self::init) when the sums are exact ([`exact_sums`](Self::exact_sums); only
    /// called then). The left child becomes empty.
    fn init_from_stats(&mut self, _stats: &[f64]) {}
    /// The node's totals in the bin layout (the counterpart of
    /// [`init_from_stats`](Self::init_from_stats)).
    fn node_stats(&self, _out: &mut [f64]) {}
    /// Values per bin of this criterion's histogram statistics (the histogram split mode);
    /// `None` when it can only sweep rows (absolute error's medians).
    fn hist_width(&self) -> Option<usize> {
        None
    }
    /// Adds row `i`'s statistics to one bin's `hist_width` values (weight first).
    fn hist_add(&self, _i: usize, _bin: &mut [f64]) {}
    /// Sets the left child to the rows whose statistics sum to `left` (as [`update`](Self::update)
    /// would after them), for [`proxy`](Self::proxy).
    fn hist_set_left(&mut self, _left: &[f64]) {}
    /// The weighted impurity decrease `(w/W)·(imp − (w_R/w)·imp_R − (w_L/w)·imp_L)`.
    fn improvement(&self, parent: f64, left: f64, right: f64, total_weight: f64) -> f64 {
        let wn = self.weighted_n();
        let wl = self.weighted_left();
        let wr = wn - wl;
        (wn / total_weight) * (parent - wr / wn * right - wl / wn * left)
    }
}

#[inline]
fn weight(w: Option<&[f64]>, i: usize) -> f64 {
    w.map_or(1.0, |w| w[i])
}

// ---------------------------------------------------------------------------------------------
// Classification

/// Class counts (weighted) for one output.
#[derive(Clone)]
pub(crate) struct ClassCrit<'a> {
    /// `(weight, class)` of every row, packed: one cache line read per row in the sweeps.
    yw: std::sync::Arc<[(f64, usize)]>,
    _rows: std::marker::PhantomData<&'a [usize]>,
    kind: ClassCriterion,
    total: Vec<f64>,
    left: Vec<f64>,
    wn: f64,
    wl: f64,
    pos: usize,
    node_entropy: f64,
    /// Every weight an integer and their total below 2⁵³ ([`Criterion::exact_sums`]).
    integer_weights: bool,
}

/// The impurity `kind` of weighted class counts summing to `wsum`.
pub(crate) fn class_impurity(kind: ClassCriterion, counts: &[f64], wsum: f64) -> f64 {
    ClassCrit::impurity_of(kind, counts.iter().copied(), wsum)
}

impl<'a> ClassCrit<'a> {
    pub(crate) fn new(
        y: &'a [usize],
        w: Option<&'a [f64]>,
        n_classes: usize,
        kind: ClassCriterion,
    ) -> Self {
        let integer_weights = w.is_none_or(|w| {
            w.iter().all(|&v| v.fract() == 0.0 && v >= 0.0)
                && w.iter().sum::<f64>() < 9_007_199_254_740_992.0
        });
        ClassCrit {
            integer_weights,
            yw: y
                .iter()
                .enumerate()
                .map(|(i, &c)| (weight(w, i), c))
                .collect(),
            _rows: std::marker::PhantomData,
            kind,
            total: vec![0.0; n_classes],
            left: vec![0.0; n_classes],
            wn: 0.0,
            wl: 0.0,
            pos: 0,
            node_entropy: 0.0,
        }
    }

    #[inline]
    fn impurity_of(kind: ClassCriterion, counts: impl Iterator<Item = f64>, wsum: f64) -> f64 {
        match kind {
            ClassCriterion::Gini => {
                let sq: f64 = counts.map(|c| c * c).sum();
                1.0 - sq / (wsum * wsum)
            }
            ClassCriterion::Entropy | ClassCriterion::GainRatio => {
                let mut e = 0.0;
                for c in counts {
                    if c > 0.0 {
                        let p = c / wsum;
                        e -= p * p.log2();
                    }
                }
                e
            }
            ClassCriterion::Misclassification => {
                let m = counts.fold(0.0f64, f64::max);
                1.0 - m / wsum
            }
        }
    }

    #[inline]
    fn left_right(&self) -> (f64, f64) {
        let il = Self::impurity_of(self.kind, self.left.iter().copied(), self.wl);
        let wr = self.wn - self.wl;
        let ir = Self::impurity_of(
            self.kind,
            self.total.iter().zip(&self.left).map(|(t, l)| t - l),
            wr,
        );
        (il, ir)
    }
}

impl Criterion for ClassCrit<'_> {
    fn init(&mut self, samples: &[usize]) {
        self.total.iter_mut().for_each(|v| *v = 0.0);
        let mut wn = 0.0;
        for &i in samples {
            let (w, c) = self.yw[i];
            self.total[c] += w;
            wn += w;
        }
        self.wn = wn;
        self.node_entropy =
            Self::impurity_of(ClassCriterion::Entropy, self.total.iter().copied(), wn);
        self.reset();
    }

    fn weighted_n(&self) -> f64 {
        self.wn
    }

    fn node_impurity(&self, _samples: &[usize]) -> f64 {
        Self::impurity_of(self.kind, self.total.iter().copied(), self.wn)
    }

    fn node_value(&self, out: &mut [f64]) {
        for (o, &c) in out.iter_mut().zip(&self.total) {
            *o = c / self.wn;
        }
    }

    fn reset(&mut self) {
        self.left.iter_mut().for_each(|v| *v = 0.0);
        self.wl = 0.0;
        self.pos = 0;
    }

    #[inline]
    fn update(&mut self, samples: &[usize], new_pos: usize) {
        let end = samples.len();
        if new_pos - self.pos <= end - new_pos {
            for &i in &samples[self.pos..new_pos] {
                let (w, c) = self.yw[i];
                self.left[c] += w;
                self.wl += w;
            }
        } else {
            self.left.copy_from_slice(&self.total);
            self.wl = self.wn;
            for &i in samples[new_pos..].iter().rev() {
                let (w, c) = self.yw[i];
                self.left[c] -= w;
                self.wl -= w;
            }
        }
        self.pos = new_pos;
    }

    fn weighted_left(&self) -> f64 {
        self.wl
    }

    #[inline]
    fn proxy(&self, _samples: &[usize], _pos: usize) -> f64 {
        let (il, ir) = self.left_right();
        let wr = self.wn - self.wl;
        if self.kind == ClassCriterion::GainRatio {
            let gain = self.node_entropy - self.wl / self.wn * il - wr / self.wn * ir;
            let (pl, pr) = (self.wl / self.wn, wr / self.wn);
            let split_info = -(pl * pl.log2() + pr * pr.log2());
            return if split_info > 0.0 {
                gain / split_info
            } else {
                f64::NEG_INFINITY
            };
        }
        -wr * ir - self.wl * il
    }

    fn children_impurity(&self, _samples: &[usize], _pos: usize) -> (f64, f64) {
        self.left_right()
    }

    fn exact_sums(&self) -> bool {
        self.integer_weights
    }

    fn init_from_stats(&mut self, stats: &[f64]) {
        self.wn = stats[0];
        self.total.copy_from_slice(&stats[1..]);
        self.node_entropy =
            Self::impurity_of(ClassCriterion::Entropy, self.total.iter().copied(), self.wn);
        self.reset();
    }

    fn node_stats(&self, out: &mut [f64]) {
        out[0] = self.wn;
        out[1..].copy_from_slice(&self.total);
    }

    fn hist_width(&self) -> Option<usize> {
        Some(1 + self.total.len())
    }

    #[inline]
    fn hist_add(&self, i: usize, bin: &mut [f64]) {
        let (w, c) = self.yw[i];
        bin[0] += w;
        bin[1 + c] += w;
    }

    fn hist_set_left(&mut self, left: &[f64]) {
        self.wl = left[0];
        self.left.copy_from_slice(&left[1..]);
    }
}

// ---------------------------------------------------------------------------------------------
// Regression: squared error, Friedman MSE, Poisson

/// Weighted sums of each output (row-major `n × k` targets).
#[derive(Clone)]
pub(crate) struct RegCrit<'a> {
    y: &'a [f64],
    k: usize,
    w: Option<&'a [f64]>,
    kind: RegCriterion,
    sum_total: Vec<f64>,
    sum_left: Vec<f64>,
    sq_total: f64,
    wn: f64,
    wl: f64,
    pos: usize,
}

impl<'a> RegCrit<'a> {
    pub(crate) fn new(y: &'a [f64], k: usize, w: Option<&'a [f64]>, kind: RegCriterion) -> Self {
        RegCrit {
            y,
            k,
            w,
            kind,
            sum_total: vec![0.0; k],
            sum_left: vec![0.0; k],
            sq_total: 0.0,
            wn: 0.0,
            wl: 0.0,
            pos: 0,
        }
    }

    fn poisson_loss(&self, samples: &[usize], sums: &[f64], wsum: f64) -> f64 {
        let mut loss = 0.0;
        for (k, &s) in sums.iter().enumerate() {
            if s <= POISSON_EPS {
                return f64::INFINITY;
            }
            let mean = s / wsum;
            for &i in samples {
                let yi = self.y[i * self.k + k];
                if yi != 0.0 {
                    loss += weight(self.w, i) * yi * (yi / mean).ln();
                }
            }
        }
        loss / (wsum * self.k as f64)
    }
}

impl Criterion for RegCrit<'_> {
    fn init(&mut self, samples: &[usize]) {
        self.sum_total.iter_mut().for_each(|v| *v = 0.0);
        let mut sq = 0.0;
        let mut wn = 0.0;
        for &i in samples {
            let w = weight(self.w, i);
            let row = &self.y[i * self.k..(i + 1) * self.k];
            for (s, &yi) in self.sum_total.iter_mut().zip(row) {
                let wy = w * yi;
                *s += wy;
                sq += wy * yi;
            }
            wn += w;
        }
        self.sq_total = sq;
        self.wn = wn;
        self.reset();
    }

    fn weighted_n(&self) -> f64 {
        self.wn
    }

    fn node_impurity(&self, samples: &[usize]) -> f64 {
        match self.kind {
            RegCriterion::Poisson => self.poisson_loss(samples, &self.sum_total, self.wn),
            _ => {
                let mut imp = self.sq_total / self.wn;
                for &s in &self.sum_total {
                    let m = s / self.wn;
                    imp -= m * m;
                }
                imp / self.k as f64
            }
        }
    }

    fn node_value(&self, out: &mut [f64]) {
        for (o, &s) in out.iter_mut().zip(&self.sum_total) {
            *o = s / self.wn;
        }
    }

    fn reset(&mut self) {
        self.sum_left.iter_mut().for_each(|v| *v = 0.0);
        self.wl = 0.0;
        self.pos = 0;
    }

    #[inline]
    fn update(&mut self, samples: &[usize], new_pos: usize) {
        let end = samples.len();
        let k = self.k;
        if new_pos - self.pos <= end - new_pos {
            if k == 1 {
                let (mut s, mut wl) = (self.sum_left[0], self.wl);
                for &i in &samples[self.pos..new_pos] {
                    let w = weight(self.w, i);
                    s += w * self.y[i];
                    wl += w;
                }
                self.sum_left[0] = s;
                self.wl = wl;
            } else {
                for &i in &samples[self.pos..new_pos] {
                    let w = weight(self.w, i);
                    let row = &self.y[i * k..(i + 1) * k];
                    for (s, &yi) in self.sum_left.iter_mut().zip(row) {
                        *s += w * yi;
                    }
                    self.wl += w;
                }
            }
        } else {
            self.sum_left.copy_from_slice(&self.sum_total);
            self.wl = self.wn;
            for &i in samples[new_pos..].iter().rev() {
                let w = weight(self.w, i);
                let row = &self.y[i * k..(i + 1) * k];
                for (s, &yi) in self.sum_left.iter_mut().zip(row) {
                    *s -= w * yi;
                }
                self.wl -= w;
            }
        }
        self.pos = new_pos;
    }

    fn weighted_left(&self) -> f64 {
        self.wl
    }

    #[inline]
    fn proxy(&self, _samples: &[usize], _pos: usize) -> f64 {
        let wl = self.wl;
        let wr = self.wn - wl;
        match self.kind {
            RegCriterion::Poisson => {
                let (mut pl, mut pr) = (0.0, 0.0);
                for (&t, &l) in self.sum_total.iter().zip(&self.sum_left) {
                    let r = t - l;
                    if l <= POISSON_EPS || r <= POISSON_EPS {
                        return f64::NEG_INFINITY;
                    }
                    pl -= l * (l / wl).log2();
                    pr -= r * (r / wr).log2();
                }
                -pl - pr
            }
            _ => {
                // Friedman's score w_L w_R (ȳ_L − ȳ_R)² / w ranks splits exactly as this proxy
                // (scikit-learn ≥ 1.9 treats friedman_mse as squared_error for the search).
                let (mut pl, mut pr) = (0.0, 0.0);
                for (&t, &l) in self.sum_total.iter().zip(&self.sum_left) {
                    let r = t - l;
                    pl += l * l;
                    pr += r * r;
                }
                pl / wl + pr / wr
            }
        }
    }

    fn children_impurity(&self, samples: &[usize], pos: usize) -> (f64, f64) {
        let wl = self.wl;
        let wr = self.wn - wl;
        if self.kind == RegCriterion::Poisson {
            let sum_right: Vec<f64> = self
                .sum_total
                .iter()
                .zip(&self.sum_left)
                .map(|(t, l)| t - l)
                .collect();
            return (
                self.poisson_loss(&samples[..pos], &self.sum_left, wl),
                self.poisson_loss(&samples[pos..], &sum_right, wr),
            );
        }
        let mut sq_left = 0.0;
        for &i in &samples[..pos] {
            let w = weight(self.w, i);
            for &yi in &self.y[i * self.k..(i + 1) * self.k] {
                let wy = w * yi;
                sq_left += wy * yi;
            }
        }
        let sq_right = self.sq_total - sq_left;
        let mut il = sq_left / wl;
        let mut ir = sq_right / wr;
        for (&t, &l) in self.sum_total.iter().zip(&self.sum_left) {
            let ml = l / wl;
            let mr = (t - l) / wr;
            il -= ml * ml;
            ir -= mr * mr;
        }
        (il / self.k as f64, ir / self.k as f64)
    }

    fn hist_width(&self) -> Option<usize> {
        Some(1 + self.k)
    }

    #[inline]
    fn hist_add(&self, i: usize, bin: &mut [f64]) {
        let w = weight(self.w, i);
        bin[0] += w;
        for (s, &yi) in bin[1..]
            .iter_mut()
            .zip(&self.y[i * self.k..(i + 1) * self.k])
        {
            *s += w * yi;
        }
    }

    fn hist_set_left(&mut self, left: &[f64]) {
        self.wl = left[0];
        self.sum_left.copy_from_slice(&left[1..]);
    }

    fn improvement(&self, parent: f64, left: f64, right: f64, total_weight: f64) -> f64 {
        let wn = self.wn;
        let wl = self.wl;
        let wr = wn - wl;
        if self.kind == RegCriterion::FriedmanMse {
            let (mut tl, mut tr) = (0.0, 0.0);
            for (&t, &l) in self.sum_total.iter().zip(&self.sum_left) {
                tl += l;
                tr += t - l;
            }
            let diff = (wr * tl - wl * tr) / self.k as f64;
            return diff * diff / (wl * wr * wn);
        }
        let _ = total_weight;
        (wn / total_weight) * (parent - wr / wn * right - wl / wn * left)
    }
}

// ---------------------------------------------------------------------------------------------
// Regression: absolute error (weighted medians)

/// The weighted median as scikit-learn's trees define it: the smallest value whose cumulative
/// weight reaches half the total, averaged with the next value when it reaches exactly half.
pub(crate) fn tree_weighted_median(sorted: &[(f64, f64)], total: f64) -> f64 {
    let half = total / 2.0;
    let mut cum = 0.0;
    for (k, &(v, w)) in sorted.iter().enumerate() {
        cum += w;
        if cum >= half {
            if cum == half && k + 1 < sorted.len() {
                return (v + sorted[k + 1].0) / 2.0;
            }
            return v;
        }
    }
    sorted.last().map_or(0.0, |&(v, _)| v)
}

/// Medians of the left and right children kept in sorted `(value, weight)` lists per output.
#[derive(Clone)]
pub(crate) struct MaeCrit<'a> {
    y: &'a [f64],
    k: usize,
    w: Option<&'a [f64]>,
    left: Vec<Vec<(f64, f64)>>,
    right: Vec<Vec<(f64, f64)>>,
    all: Vec<Vec<(f64, f64)>>,
    medians: Vec<f64>,
    wn: f64,
    wl: f64,
    pos: usize,
}

fn insert_sorted(v: &mut Vec<(f64, f64)>, item: (f64, f64)) {
    let at = v.partition_point(|&(x, _)| x <= item.0);
    v.insert(at, item);
}

fn remove_sorted(v: &mut Vec<(f64, f64)>, item: (f64, f64)) {
    let lo = v.partition_point(|&(x, _)| x < item.0);
    let hi = v.partition_point(|&(x, _)| x <= item.0);
    if let Some(j) = (lo..hi).find(|&j| v[j].1 == item.1) {
        v.remove(j);
    } else if lo < hi {
        v.remove(lo);
    }
}

impl<'a> MaeCrit<'a> {
    pub(crate) fn new(y: &'a [f64], k: usize, w: Option<&'a [f64]>) -> Self {
        MaeCrit {
            y,
            k,
            w,
            left: vec![Vec::new(); k],
            right: vec![Vec::new(); k],
            all: vec![Vec::new(); k],
            medians: vec![0.0; k],
            wn: 0.0,
            wl: 0.0,
            pos: 0,
        }
    }

    fn abs_dev(&self, samples: &[usize], k: usize, median: f64) -> f64 {
        samples
            .iter()
            .map(|&i| (self.y[i * self.k + k] - median).abs() * weight(self.w, i))
            .sum()
    }
}

impl Criterion for MaeCrit<'_> {
    fn init(&mut self, samples: &[usize]) {
        let mut wn = 0.0;
        for k in 0..self.k {
            let mut v: Vec<(f64, f64)> = samples
                .iter()
                .map(|&i| (self.y[i * self.k + k], weight(self.w, i)))
                .collect();
            v.sort_by(|a, b| a.0.total_cmp(&b.0));
            self.all[k] = v;
        }
        for &i in samples {
            wn += weight(self.w, i);
        }
        self.wn = wn;
        for k in 0..self.k {
            self.medians[k] = tree_weighted_median(&self.all[k], wn);
        }
        self.reset();
    }

    fn weighted_n(&self) -> f64 {
        self.wn
    }

    fn node_impurity(&self, samples: &[usize]) -> f64 {
        let mut imp = 0.0;
        for k in 0..self.k {
            imp += self.abs_dev(samples, k, self.medians[k]);
        }
        imp / (self.wn * self.k as f64)
    }

    fn node_value(&self, out: &mut [f64]) {
        out.copy_from_slice(&self.medians);
    }

    fn reset(&mut self) {
        for k in 0..self.k {
            self.left[k].clear();
            self.right[k].clone_from(&self.all[k]);
        }
        self.wl = 0.0;
        self.pos = 0;
    }

    fn update(&mut self, samples: &[usize], new_pos: usize) {
        for &i in &samples[self.pos..new_pos] {
            let w = weight(self.w, i);
            for k in 0..self.k {
                let item = (self.y[i * self.k + k], w);
                remove_sorted(&mut self.right[k], item);
                insert_sorted(&mut self.left[k], item);
            }
            self.wl += w;
        }
        self.pos = new_pos;
    }

    fn weighted_left(&self) -> f64 {
        self.wl
    }

    fn proxy(&self, samples: &[usize], pos: usize) -> f64 {
        let (il, ir) = self.children_impurity(samples, pos);
        -(self.wn - self.wl) * ir - self.wl * il
    }

    fn children_impurity(&self, samples: &[usize], pos: usize) -> (f64, f64) {
        let wl = self.wl;
        let wr = self.wn - wl;
        let (mut il, mut ir) = (0.0, 0.0);
        for k in 0..self.k {
            let ml = tree_weighted_median(&self.left[k], wl);
            il += self.abs_dev(&samples[..pos], k, ml);
        }
        for k in 0..self.k {
            let mr = tree_weighted_median(&self.right[k], wr);
            ir += self.abs_dev(&samples[pos..], k, mr);
        }
        (il / (wl * self.k as f64), ir / (wr * self.k as f64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weighted_median_as_scikit_learn_trees() {
        // Unweighted even count: the two middle values are averaged.
        let v = [(1.0, 1.0), (2.0, 1.0), (3.0, 1.0), (10.0, 1.0)];
        assert_eq!(tree_weighted_median(&v, 4.0), 2.5);
        // Weights 1, 1, 2, 0.5: half of 4.5 is first reached at 3.
        let v = [(1.0, 1.0), (2.0, 1.0), (3.0, 2.0), (10.0, 0.5)];
        assert_eq!(tree_weighted_median(&v, 4.5), 3.0);
        assert_eq!(tree_weighted_median(&[(7.0, 2.0)], 2.0), 7.0);
    }

    #[test]
    fn gini_and_entropy_of_a_split() {
        let y = [0usize, 0, 1, 1, 1];
        let mut c = ClassCrit::new(&y, None, 2, ClassCriterion::Gini);
        let s = [0, 1, 2, 3, 4];
        c.init(&s);
        assert!((c.node_impurity(&s) - (1.0 - (4.0 + 9.0) / 25.0)).abs() < 1e-15);
        c.update(&s, 2);
        let (l, r) = c.children_impurity(&s, 2);
        assert_eq!((l, r), (0.0, 0.0));
        let imp = c.improvement(0.48, l, r, 5.0);
        assert!((imp - 0.48).abs() < 1e-15);
        let mut e = ClassCrit::new(&y, None, 2, ClassCriterion::Entropy);
        e.init(&s);
        let h = -(0.4f64 * 0.4f64.log2() + 0.6 * 0.6f64.log2());
        assert!((e.node_impurity(&s) - h).abs() < 1e-15);
    }

    #[test]
    fn squared_error_children() {
        let y = [1.0, 2.0, 4.0, 8.0];
        let s = [0, 1, 2, 3];
        let mut c = RegCrit::new(&y, 1, None, RegCriterion::SquaredError);
        c.init(&s);
        c.update(&s, 2);
        let (l, r) = c.children_impurity(&s, 2);
        assert!((l - 0.25).abs() < 1e-15 && (r - 4.0).abs() < 1e-15);
        let mut m = MaeCrit::new(&y, 1, None);
        m.init(&s);
        assert_eq!(m.medians[0], 3.0);
        m.update(&s, 2);
        let (l, r) = m.children_impurity(&s, 2);
        assert!((l - 0.5).abs() < 1e-15 && (r - 2.0).abs() < 1e-15);
    }
}
