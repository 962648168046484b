//! The linked BLAS's own threads while rayon tasks run (decision 0030).
//!
//! OpenBLAS keeps a pool of its own threads (one per core by default) and splits a large enough
//! `?gemv` / `?gemm` / LAPACK call over them. Called from inside rayon tasks, which already
//! occupy every core, those threads fight the rayon workers: on 2 cores, ten logistic fits of
//! one-vs-rest over digits took 70 ms or 200 ms from one run to the next (bimodal), against a
//! steady 35 ms with OpenBLAS single-threaded. The house rule (ARCHITECTURE §2: never
//! multithreaded BLAS inside rayon tasks) is therefore enforced where the tasks start: the
//! helpers of [`crate::par`] hold a [`SingleThreadedBlas`] guard while their closures run, so
//! every BLAS call inside them runs on the calling worker only. The guards nest and overlap
//! (a process-wide count); the last one to drop restores the thread count found by the first.
//!
//! Only the OpenBLAS backends have a run-time thread count; with the others the guard does
//! nothing. The portable GEMM ([`crate::linalg::gemm`]) is unaffected: it splits over rayon,
//! which nests without oversubscription.

use std::sync::Mutex;

/// Active guards and the thread count to restore when the last one drops.
static STATE: Mutex<GuardState> = Mutex::new(GuardState {
    active: 0,
    saved: 0,
});

struct GuardState {
    active: usize,
    saved: i32,
}

/// While alive, the linked BLAS runs single-threaded (OpenBLAS backends; no effect otherwise).
///
/// Made by [`SingleThreadedBlas::for_tasks`]; dropping it restores the previous thread count
/// once no other guard is alive.
#[must_use = "the BLAS thread count is restored when the guard drops"]
#[derive(Debug)]
pub struct SingleThreadedBlas {
    engaged: bool,
}

impl SingleThreadedBlas {
    /// A guard for `n_tasks` rayon tasks about to run on the current pool: engaged only when
    /// the tasks can run side by side (more than one task and more than one rayon thread) and
    /// the BLAS has more than one thread of its own.
    pub fn for_tasks(n_tasks: usize) -> Self {
        if n_tasks < 2 || rayon::current_num_threads() < 2 {
            return Self { engaged: false };
        }
        let mut st = STATE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if st.active == 0 {
            let current = backend::num_threads();
            if current <= 1 {
                return Self { engaged: false };
            }
            st.saved = current;
            backend::set_num_threads(1);
        }
        st.active += 1;
        Self { engaged: true }
    }

    /// Whether this guard changed (or holds) the BLAS thread count.
    pub fn is_engaged(&self) -> bool {
        self.engaged
    }
}

impl Drop for SingleThreadedBlas {
    fn drop(&mut self) {
        if !self.engaged {
            return;
        }
        let mut st = STATE
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        st.active -= 1;
        if st.active == 0 {
            backend::set_num_threads(st.saved);
        }
    }
}

/// The linked BLAS's current thread count (1 for backends without one).
pub fn blas_num_threads() -> usize {
    usize::try_from(backend::num_threads()).map_or(1, |n| n.max(1))
}

#[cfg(any(feature = "openblas-system", feature = "openblas-static"))]
#[allow(unsafe_code)]
mod backend {
    use std::os::raw::c_int;

    // Exported by every OpenBLAS build (pthreads, OpenMP or serial; the serial one reports 1).
    unsafe extern "C" {
        fn openblas_get_num_threads() -> c_int;
        fn openblas_set_num_threads(n: c_int);
    }

    pub(super) fn num_threads() -> i32 {
        // SAFETY: no arguments; reads OpenBLAS's thread-count variable.
        unsafe { openblas_get_num_threads() }
    }

    pub(super) fn set_num_threads(n: i32) {
        // SAFETY: `n` is 1 or a count OpenBLAS itself reported, never above the threads its
        // pool already started, so the call only stores the count (no thread is created).
        // Calls in flight on other threads read the count once, when they start.
        unsafe { openblas_set_num_threads(n) }
    }
}

#[cfg(not(any(feature = "openblas-system", feature = "openblas-static")))]
mod backend {
    pub(super) fn num_threads() -> i32 {
        1
    }

    pub(super) fn set_num_threads(_n: i32) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_sets_one_thread_and_restores_once_the_last_drops() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        pool.install(|| {
            let before = blas_num_threads();
            {
                let outer = SingleThreadedBlas::for_tasks(4);
                assert_eq!(outer.is_engaged(), before > 1);
                assert_eq!(blas_num_threads(), 1);
                {
                    let inner = SingleThreadedBlas::for_tasks(3);
                    assert_eq!(inner.is_engaged(), before > 1);
                    assert_eq!(blas_num_threads(), 1);
                }
                assert_eq!(blas_num_threads(), 1, "the outer guard still holds");
            }
            assert_eq!(blas_num_threads(), before);
            let single = SingleThreadedBlas::for_tasks(1);
            assert!(!single.is_engaged());
            assert_eq!(blas_num_threads(), before);
        });
    }
}
