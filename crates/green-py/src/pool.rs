//! One rayon thread pool per process, made when first needed and made again in a child after
//! `fork`.
//!
//! rayon's global pool lives in a static. A process forked after it scored anything (Python's
//! `multiprocessing` with the fork start method, `datasets.map(num_proc=...)`,
//! `ProcessPoolExecutor`, PyTorch `DataLoader` workers) inherits that static but not the
//! pool's threads, so its first parallel call waits forever for workers that do not exist.
//! Here the global pool is never used: every parallel call runs inside `install` of a pool
//! remembered with the id of the process that built it, and a forked child sees another id
//! and builds its own. The parent's pool is left alone in the child (dropping it would signal
//! threads that are not there), and `RAYON_NUM_THREADS` still sizes each pool.
//!
//! The pool is looked up with the GIL held (the `Python` token), and Python forks with the
//! GIL held, so no fork lands while the lookup holds its lock.

use std::sync::{Mutex, PoisonError};

use pyo3::prelude::*;
use rayon::ThreadPool;

use crate::green_err;

/// This process's pool, with the id of the process that built it.
static POOL: Mutex<Option<(u32, &'static ThreadPool)>> = Mutex::new(None);

/// The calling process's pool, built on first use in each process.
pub(crate) fn get(_py: Python<'_>) -> PyResult<&'static ThreadPool> {
    let pid = std::process::id();
    let mut slot = POOL.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some((owner, pool)) = *slot {
        if owner == pid {
            return Ok(pool);
        }
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .thread_name(|i| format!("green-{i}"))
        .build()
        .map_err(|e| green_err(format!("cannot start GREEN's threads: {e}")))?;
    // Leaked on purpose: a pool lives as long as its process, and a child must never drop
    // the pool it inherited.
    let pool: &'static ThreadPool = Box::leak(Box::new(pool));
    *slot = Some((pid, pool));
    Ok(pool)
}

/// `f` without the GIL on this process's pool: every parallel call inside uses it.
pub(crate) fn detach<T, F>(py: Python<'_>, f: F) -> PyResult<T>
where
    F: FnOnce() -> T + Send,
    T: Send,
{
    let pool = get(py)?;
    Ok(py.detach(|| pool.install(f)))
}
