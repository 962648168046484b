//! Fixed-capacity max-heap of the `k` best `(reduced distance, index)` pairs.
//!
//! Pairs are ordered lexicographically, so among equal distances the lower index is "better":
//! this is the documented tie-breaking of every query. Distances are finite (inputs are
//! validated), so the order is total.

use crate::Float;

#[inline(always)]
fn less<F: Float>(a: (F, usize), b: (F, usize)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}

/// The `k` lexicographically smallest pairs pushed so far.
#[derive(Debug, Clone)]
pub(crate) struct KBest<F> {
    k: usize,
    items: Vec<(F, usize)>,
}

impl<F: Float> KBest<F> {
    /// An empty heap keeping `k ≥ 1` pairs.
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            items: Vec::with_capacity(k),
        }
    }

    /// Empties the heap, keeping its capacity.
    pub(crate) fn clear(&mut self) {
        self.items.clear();
    }

    /// The largest kept distance, or `+∞` while fewer than `k` pairs are kept.
    #[inline(always)]
    pub(crate) fn worst(&self) -> F {
        if self.items.len() < self.k {
            F::infinity()
        } else {
            self.items[0].0
        }
    }

    /// Offers a pair; kept if the heap is not full or it beats the current worst.
    #[inline(always)]
    pub(crate) fn push(&mut self, d: F, i: usize) {
        if self.items.len() < self.k {
            self.items.push((d, i));
            self.sift_up(self.items.len() - 1);
        } else if less((d, i), self.items[0]) {
            self.items[0] = (d, i);
            self.sift_down(0);
        }
    }

    fn sift_up(&mut self, mut c: usize) {
        while c > 0 {
            let p = (c - 1) / 2;
            if less(self.items[p], self.items[c]) {
                self.items.swap(p, c);
                c = p;
            } else {
                break;
            }
        }
    }

    fn sift_down(&mut self, mut p: usize) {
        let n = self.items.len();
        loop {
            let l = 2 * p + 1;
            if l >= n {
                break;
            }
            let r = l + 1;
            let c = if r < n && less(self.items[l], self.items[r]) {
                r
            } else {
                l
            };
            if less(self.items[p], self.items[c]) {
                self.items.swap(p, c);
                p = c;
            } else {
                break;
            }
        }
    }

    /// The kept pairs in increasing `(distance, index)` order.
    pub(crate) fn sorted(&self) -> Vec<(F, usize)> {
        let mut v = self.items.clone();
        sort_pairs(&mut v);
        v
    }
}

/// Sorts pairs by `(distance, index)`.
pub(crate) fn sort_pairs<F: Float>(v: &mut [(F, usize)]) {
    v.sort_unstable_by(|a, b| {
        a.0.partial_cmp(&b.0)
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.1.cmp(&b.1))
    });
}

/// Max-heap of plain values keeping the `k` smallest (used by the brute-force pre-selection).
#[derive(Debug, Clone)]
pub(crate) struct KSmallest<F> {
    k: usize,
    items: Vec<F>,
}

impl<F: Float> KSmallest<F> {
    pub(crate) fn new(k: usize) -> Self {
        Self {
            k,
            items: Vec::with_capacity(k),
        }
    }

    /// `true` once `k` values are kept.
    #[inline(always)]
    pub(crate) fn is_full(&self) -> bool {
        self.items.len() >= self.k
    }

    /// The largest kept value (`+∞` while not full).
    #[inline(always)]
    pub(crate) fn worst(&self) -> F {
        if self.is_full() {
            self.items[0]
        } else {
            F::infinity()
        }
    }

    /// Offers a value.
    #[inline(always)]
    pub(crate) fn push(&mut self, v: F) {
        let n = self.items.len();
        if n < self.k {
            self.items.push(v);
            let mut c = n;
            while c > 0 {
                let p = (c - 1) / 2;
                if self.items[p] < self.items[c] {
                    self.items.swap(p, c);
                    c = p;
                } else {
                    break;
                }
            }
        } else if v < self.items[0] {
            self.items[0] = v;
            let mut p = 0;
            loop {
                let l = 2 * p + 1;
                if l >= n {
                    break;
                }
                let r = l + 1;
                let c = if r < n && self.items[l] < self.items[r] {
                    r
                } else {
                    l
                };
                if self.items[p] < self.items[c] {
                    self.items.swap(p, c);
                    p = c;
                } else {
                    break;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_k_best_with_index_tie_break() {
        let mut h = KBest::new(3);
        assert_eq!(h.worst(), f64::INFINITY);
        for (d, i) in [
            (5.0, 0),
            (1.0, 1),
            (3.0, 2),
            (1.0, 7),
            (3.0, 3),
            (0.5, 9),
            (3.0, 1),
        ] {
            h.push(d, i);
        }
        // Best three by (d, i): (0.5, 9), (1.0, 1), (1.0, 7).
        assert_eq!(h.sorted(), vec![(0.5, 9), (1.0, 1), (1.0, 7)]);
        assert_eq!(h.worst(), 1.0);
        h.clear();
        assert_eq!(h.worst(), f64::INFINITY);
    }

    #[test]
    fn k_smallest_values() {
        let mut h = KSmallest::new(2);
        for v in [4.0, 2.0, 9.0, 1.0, 3.0] {
            h.push(v);
        }
        assert!(h.is_full());
        assert_eq!(h.worst(), 2.0);
    }
}
