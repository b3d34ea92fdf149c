//! Writes into one slice from parallel chunks at indices that are a permutation (each index
//! written at most once per pass), e.g. a per-agent value into the grid's cell-ordered records
//! by rank, without a separate gather pass.

use std::marker::PhantomData;

/// A slice lent out for writes at distinct indices from several threads.
pub struct Scatter<'a, T> {
    ptr: *mut T,
    len: usize,
    _slice: PhantomData<&'a mut [T]>,
}

// SAFETY: `Scatter` only hands out writes (`write` is unsafe and requires distinct indices), so
// sharing it between threads is like sharing disjoint `&mut T`s.
unsafe impl<T: Send> Sync for Scatter<'_, T> {}
unsafe impl<T: Send> Send for Scatter<'_, T> {}

impl<'a, T> Scatter<'a, T> {
    pub fn new(slice: &'a mut [T]) -> Self {
        Self { ptr: slice.as_mut_ptr(), len: slice.len(), _slice: PhantomData }
    }

    /// Writes `value` at `index` (checked against the length).
    ///
    /// # Safety
    /// While this `Scatter` lives, no two writes (from any thread) may use the same index.
    #[inline]
    pub unsafe fn write(&self, index: usize, value: T) {
        assert!(index < self.len, "scatter index {index} out of {}", self.len);
        // SAFETY: in bounds (checked above); distinct indices per the caller's contract, so no
        // other thread touches this element.
        unsafe { self.ptr.add(index).write(value) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rayon::prelude::*;

    #[test]
    fn a_permutation_scattered_from_parallel_chunks_lands_in_place() {
        let n = 10_000usize;
        let perm: Vec<usize> = (0..n).map(|i| (i * 7919) % n).collect();
        let mut out = vec![0usize; n];
        let s = Scatter::new(&mut out);
        perm.par_chunks(97).enumerate().for_each(|(c, chunk)| {
            for (k, &p) in chunk.iter().enumerate() {
                // SAFETY: `perm` is a permutation (7919 is prime to 10000).
                unsafe { s.write(p, c * 97 + k) };
            }
        });
        assert!((0..n).all(|i| out[perm[i]] == i));
    }
}
