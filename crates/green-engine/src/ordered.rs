//! The first error in input order from a parallel map.
//!
//! rayon's `collect::<Result<_, _>>()` stops at whichever failing item a thread reaches first,
//! so with two bad lines one run could name line 23 and the next line 1. Every command must
//! name the same (the first) bad input on every run and at any thread count:
//! [`CollectInOrder::collect_in_order`] runs all items and returns the first error by index.

use rayon::prelude::*;

/// `collect_in_order` for indexed parallel iterators of `Result`s.
pub trait CollectInOrder<T: Send, E: Send>: IndexedParallelIterator<Item = Result<T, E>> {
    /// Every item's value in order, or the error of the first item (by index) that failed.
    fn collect_in_order<C: FromIterator<T>>(self) -> Result<C, E> {
        self.collect::<Vec<_>>().into_iter().collect()
    }
}

impl<I, T, E> CollectInOrder<T, E> for I
where
    I: IndexedParallelIterator<Item = Result<T, E>>,
    T: Send,
    E: Send,
{
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_error_by_index_at_any_thread_count() {
        for threads in [1, 2, 8] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            for _ in 0..50 {
                let got: Result<Vec<u32>, usize> = pool.install(|| {
                    (0..10_000usize)
                        .into_par_iter()
                        .map(|i| if i % 997 == 3 { Err(i) } else { Ok(i as u32) })
                        .collect_in_order()
                });
                assert_eq!(got, Err(3));
            }
            let ok: Result<Vec<usize>, ()> =
                pool.install(|| (0..100usize).into_par_iter().map(Ok).collect_in_order());
            assert_eq!(ok.unwrap(), (0..100).collect::<Vec<_>>());
        }
    }
}
