//! Deterministic parallel helpers on rayon.
//!
//! The rule that makes results bitwise identical for 1 or N threads: the *work split* never
//! depends on the thread count. Work is cut into fixed chunks (a chunk size chosen by the caller,
//! not by rayon), each chunk is computed independently, and partial results are combined
//! sequentially in chunk order. Floating-point sums therefore associate the same way however the
//! chunks were scheduled.
//!
//! All helpers run on the caller's rayon pool; wrap a call in [`with_threads`] (or your own
//! `ThreadPool::install`) to limit it. Do not call multithreaded BLAS from inside these closures
//! for large products: do the big products at the top level, keep small kernels inside tasks.
//! The helpers enforce it for the linked BLAS: while their tasks run, OpenBLAS is held
//! single-threaded ([`crate::linalg::SingleThreadedBlas`], decision 0030), so a BLAS call inside
//! a task runs on its worker only instead of waking threads that compete with the other tasks.

use std::ops::Range;

use ndarray::{ArrayRef2, ArrayView2, ArrayViewMut2, Axis};
use rayon::prelude::*;

use crate::linalg::SingleThreadedBlas;
use crate::{Error, Result};

/// Default number of rows per chunk for row-parallel loops.
pub const DEFAULT_CHUNK: usize = 256;

/// Cuts `0..n` into consecutive ranges of `chunk` elements (the last may be shorter).
///
/// `chunk == 0` is treated as 1.
pub fn chunk_ranges(n: usize, chunk: usize) -> Vec<Range<usize>> {
    let chunk = chunk.max(1);
    (0..n.div_ceil(chunk))
        .map(|c| c * chunk..((c + 1) * chunk).min(n))
        .collect()
}

/// Runs `f` on each chunk of `0..n` in parallel; results come back in chunk order.
pub fn map_chunks<T, G>(n: usize, chunk: usize, f: G) -> Vec<T>
where
    T: Send,
    G: Fn(Range<usize>) -> T + Sync + Send,
{
    let ranges = chunk_ranges(n, chunk);
    let _blas = SingleThreadedBlas::for_tasks(ranges.len());
    ranges.into_par_iter().map(f).collect()
}

/// Runs `f(i)` for every task index `0..n_tasks` in parallel; results in index order.
///
/// For independent tasks (folds, restarts, trees): give each task its random stream from its
/// index (`random::stream(seed, i)`), never from the thread.
pub fn map_tasks<T, G>(n_tasks: usize, f: G) -> Vec<T>
where
    T: Send,
    G: Fn(usize) -> T + Sync + Send,
{
    let _blas = SingleThreadedBlas::for_tasks(n_tasks);
    (0..n_tasks).into_par_iter().map(f).collect()
}

/// Like [`map_tasks`] for fallible tasks: the first error in *index order* is returned.
pub fn try_map_tasks<T, G>(n_tasks: usize, f: G) -> Result<Vec<T>>
where
    T: Send,
    G: Fn(usize) -> Result<T> + Sync + Send,
{
    map_tasks(n_tasks, f).into_iter().collect()
}

/// Map-reduce over chunks of `0..n`: each chunk is mapped in parallel, then the partial results
/// are folded **sequentially in chunk order** with `reduce`, starting from `init`.
pub fn reduce_chunks<T, G, R>(n: usize, chunk: usize, init: T, map: G, reduce: R) -> T
where
    T: Send,
    G: Fn(Range<usize>) -> T + Sync + Send,
    R: FnMut(T, T) -> T,
{
    map_chunks(n, chunk, map).into_iter().fold(init, reduce)
}

/// Maps every chunk of rows of `x` (as a view) in parallel; results in chunk order.
pub fn map_row_chunks<A, T, G>(x: &ArrayRef2<A>, chunk: usize, f: G) -> Vec<T>
where
    A: Sync,
    T: Send,
    G: Fn(Range<usize>, ArrayView2<'_, A>) -> T + Sync + Send,
{
    map_chunks(x.nrows(), chunk, |r| {
        let view = x.slice_axis(Axis(0), (r.start..r.end).into());
        f(r, view)
    })
}

/// Runs `f` on consecutive blocks of `chunk` rows of `out` in parallel, each with its row
/// range, writing in place (for outputs computed row by row, e.g. feature expansions).
///
/// The blocks are fixed by `chunk` (`0` is treated as 1), not by the thread count, and each
/// block is written by exactly one task, so the result does not depend on the scheduling.
pub fn for_each_row_chunk_mut<A, G>(out: &mut ArrayRef2<A>, chunk: usize, f: G)
where
    A: Send + Sync,
    G: Fn(Range<usize>, ArrayViewMut2<'_, A>) + Sync + Send,
{
    let chunk = chunk.max(1);
    let _blas = SingleThreadedBlas::for_tasks(out.nrows().div_ceil(chunk));
    out.axis_chunks_iter_mut(Axis(0), chunk)
        .into_par_iter()
        .enumerate()
        .for_each(|(c, block)| {
            let start = c * chunk;
            let end = start + block.nrows();
            f(start..end, block)
        });
}

/// Runs `f` inside a dedicated rayon pool of `n_threads` threads (`0` = rayon's default).
pub fn with_threads<T: Send, G: FnOnce() -> T + Send>(n_threads: usize, f: G) -> Result<T> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(n_threads)
        .build()
        .map_err(|e| Error::invalid_param("n_threads", format!("cannot build thread pool: {e}")))?;
    Ok(pool.install(f))
}

/// Number of threads of the current rayon pool.
pub fn current_num_threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_range() {
        assert_eq!(chunk_ranges(10, 4), vec![0..4, 4..8, 8..10]);
        assert_eq!(chunk_ranges(0, 4), Vec::<Range<usize>>::new());
        assert_eq!(chunk_ranges(3, 0).len(), 3);
    }

    #[test]
    fn ordered_sum_is_thread_count_independent() {
        let xs: Vec<f64> = (0..100_000)
            .map(|i| ((i as f64) * 0.37).sin() * 1e-3 + 1e3)
            .collect();
        let sum = |t| {
            with_threads(t, || {
                reduce_chunks(
                    xs.len(),
                    1000,
                    0.0f64,
                    |r| xs[r].iter().sum::<f64>(),
                    |a, b| a + b,
                )
            })
            .expect("pool")
        };
        let s1 = sum(1);
        let s3 = sum(3);
        assert_eq!(s1.to_bits(), s3.to_bits());
        assert!((s1 - xs.iter().sum::<f64>()).abs() < 1e-6);
    }

    #[test]
    fn tasks_and_rows_keep_order() {
        assert_eq!(map_tasks(5, |i| i * i), vec![0, 1, 4, 9, 16]);
        let r: Result<Vec<usize>> = try_map_tasks(4, |i| {
            if i >= 2 {
                Err(Error::invalid_param("i", format!("{i}")))
            } else {
                Ok(i)
            }
        });
        match r {
            Err(Error::InvalidParam { reason, .. }) => assert_eq!(reason, "2"),
            other => panic!("unexpected {other:?}"),
        }
        let x = ndarray::Array2::from_shape_fn((7, 2), |(i, j)| (i * 10 + j) as f64);
        let firsts = map_row_chunks(&x, 3, |r, v| (r.start, v[[0, 0]]));
        assert_eq!(firsts, vec![(0, 0.0), (3, 30.0), (6, 60.0)]);
        let mut out = ndarray::Array2::<f64>::zeros((7, 2));
        for_each_row_chunk_mut(&mut out, 3, |r, mut v| {
            for (k, mut row) in v.rows_mut().into_iter().enumerate() {
                row.fill((r.start + k) as f64);
            }
        });
        assert_eq!(
            out.column(1).to_vec(),
            vec![0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
        );
        assert!(current_num_threads() >= 1);
    }
}
