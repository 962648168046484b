//! A least-recently-used cache of kernel rows, sized in megabytes (libsvm's `cache_size`).
//!
//! Rows are full rows of the kernel matrix of the training data (`n` entries, `f64`), computed
//! by [`PreparedKernel::row_into`] and shared through `Arc` so that a solver can hold the two
//! rows of its working pair while the cache evicts others. Which rows are cached never changes
//! a value (every row is computed the same way), only the time. A problem whose rows are all
//! the training rows in another order (a binary problem, rows grouped by class as libsvm
//! does) reads the kernel through that permutation instead of a reordered copy of `X`: a pair's
//! value does not depend on where its rows sit (see [`PreparedKernel`]), so the rows are the
//! same bits.

use std::sync::Arc;

use ndlearn_core::Result;
use ndlearn_core::kernel::PreparedKernel;

/// The kernel rows of one training problem with an LRU cache of at most `capacity` rows.
pub(crate) struct KernelRows<'a> {
    kernel: PreparedKernel<'a, f64>,
    /// `order[t]`: the kernel's row that is the problem's row `t` (`None`: the same).
    order: Option<Vec<usize>>,
    /// A row in the kernel's order, before the permutation.
    scratch: Vec<f64>,
    /// `slot_of[i]`: where row `i` lives in `slots`, if cached.
    slot_of: Vec<Option<usize>>,
    /// (row index, values, last use).
    slots: Vec<(usize, Arc<[f64]>, u64)>,
    capacity: usize,
    clock: u64,
    /// Rows computed (hits are not counted), for tests and diagnostics.
    pub(crate) computed: usize,
}

impl<'a> KernelRows<'a> {
    /// A cache of `cache_mb` megabytes (at least two rows) over `kernel`.
    pub(crate) fn new(kernel: PreparedKernel<'a, f64>, cache_mb: f64) -> Self {
        let n = kernel.n();
        let row_bytes = (n.max(1) * std::mem::size_of::<f64>()) as f64;
        let capacity =
            ((cache_mb * 1024.0 * 1024.0 / row_bytes).floor() as usize).clamp(2, n.max(2));
        Self {
            kernel,
            order: None,
            scratch: Vec::new(),
            slot_of: vec![None; n],
            slots: Vec::with_capacity(capacity.min(4096)),
            capacity,
            clock: 0,
            computed: 0,
        }
    }

    /// The same cache over the kernel's rows taken in the order `order` (a permutation of
    /// `0..n`): the problem's row `t` is the kernel's row `order[t]`.
    pub(crate) fn permuted(
        kernel: PreparedKernel<'a, f64>,
        cache_mb: f64,
        order: Vec<usize>,
    ) -> Self {
        debug_assert_eq!(order.len(), kernel.n());
        let mut rows = Self::new(kernel, cache_mb);
        rows.scratch = vec![0.0; order.len()];
        rows.order = Some(order);
        rows
    }

    /// `k(xᵢ, xᵢ)` for every row of the problem.
    pub(crate) fn diag(&self) -> Vec<f64> {
        let d = self.kernel.diag();
        match &self.order {
            Some(o) => o.iter().map(|&r| d[r]).collect(),
            None => d.to_vec(),
        }
    }

    /// Row `i` of the kernel matrix (from the cache, or computed and cached).
    pub(crate) fn row(&mut self, i: usize) -> Result<Arc<[f64]>> {
        self.clock += 1;
        if let Some(s) = self.slot_of[i] {
            self.slots[s].2 = self.clock;
            return Ok(Arc::clone(&self.slots[s].1));
        }
        let mut values = vec![0.0; self.kernel.n()];
        match &self.order {
            Some(o) => {
                self.kernel.row_into(o[i], &mut self.scratch)?;
                for (v, &r) in values.iter_mut().zip(o) {
                    *v = self.scratch[r];
                }
            }
            None => self.kernel.row_into(i, &mut values)?,
        }
        self.computed += 1;
        let row: Arc<[f64]> = values.into();
        if self.slots.len() < self.capacity {
            self.slot_of[i] = Some(self.slots.len());
            self.slots.push((i, Arc::clone(&row), self.clock));
        } else {
            // Evict the least recently used row (ties cannot happen: the clock is unique).
            let (victim, _) = self
                .slots
                .iter()
                .enumerate()
                .min_by_key(|(_, s)| s.2)
                .expect("capacity >= 2");
            self.slot_of[self.slots[victim].0] = None;
            self.slot_of[i] = Some(victim);
            self.slots[victim] = (i, Arc::clone(&row), self.clock);
        }
        Ok(row)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::array;
    use ndlearn_core::kernel::Kernel;

    #[test]
    fn evicts_least_recently_used_and_values_do_not_depend_on_caching() {
        let x = array![[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, -1.0]];
        let k = PreparedKernel::new(&Kernel::rbf_gamma(0.3), &x).expect("kernel");
        let mut tiny = KernelRows::new(k.clone(), 0.0); // two rows
        let mut big = KernelRows::new(k, 10.0);
        assert_eq!(tiny.capacity, 2);
        for &i in &[0, 1, 0, 2, 1, 3, 0, 2] {
            assert_eq!(&*tiny.row(i).expect("row"), &*big.row(i).expect("row"));
        }
        // tiny: 0,1 computed; 0 hit; 2 evicts 1; 1 evicts 0; 3 evicts 2; 0 evicts 1; 2 evicts 3
        assert_eq!(tiny.computed, 7);
        assert_eq!(big.computed, 4);
    }

    #[test]
    fn permuted_rows_are_the_rows_of_the_reordered_data() {
        let x = array![[0.0, 1.0], [1.0, 0.0], [2.0, 2.0], [3.0, -1.0], [0.5, 0.25]];
        let order = vec![3, 0, 4, 2, 1];
        let xo = x.select(ndarray::Axis(0), &order);
        for kernel in [Kernel::rbf_gamma(0.3), Kernel::Linear] {
            let k = PreparedKernel::new(&kernel, &x).expect("kernel");
            let ko = PreparedKernel::new(&kernel, &xo).expect("kernel");
            let mut view = KernelRows::permuted(k, 0.0, order.clone());
            let mut copy = KernelRows::new(ko, 0.0);
            assert_eq!(view.diag(), copy.diag());
            for &i in &[0, 4, 1, 3, 2, 0] {
                // Bit for bit: a pair's value does not depend on the rows' positions.
                assert_eq!(&*view.row(i).expect("row"), &*copy.row(i).expect("row"));
            }
        }
    }
}
