//! The records (grid ranks) that may touch an agent in this step's body blocking, listed by
//! the scan that already walks its neighbourhood: Personal Space's (every record within the
//! agent's contact reach, the reach of its isolation proof) or else body blocking's first pass.
//! Body blocking's passes then test only the listed records instead of walking the grid again.
//!
//! The lists are kept by grid rank and stamped with the step that wrote them: a list of an
//! earlier step (its ranks those of an earlier grid) or one with more than `CAP` records is no
//! list, and whoever reads it walks the grid.

use std::marker::PhantomData;

/// Most records a list holds.
pub const CAP: usize = 7;

/// A list's slots: `CAP` and one more, so that a scan can write each record it meets into the
/// slot its count points at (masked) without a branch, and only the count tells whether it
/// overflowed.
pub type Slots = [u32; CAP + 1];

/// Writes rank `k` into the slot that a list's running `count` points at. Past the slots the
/// writes wrap round; the count alone then says the list overflowed (more than `CAP`), so a
/// scan can write every record it meets and move the count on only for those it keeps.
#[inline(always)]
pub fn put(slots: &mut Slots, count: u32, k: usize) {
    slots[count as usize % slots.len()] = k as u32;
}

/// Every grid rank's contact list: its slots, and the step and count it was written with.
#[derive(Clone, Debug, Default)]
pub struct ContactLists {
    ranks: Vec<Slots>,
    /// `tick << 8 | count` (`u64::MAX`: never written).
    stamp: Vec<u64>,
}

impl ContactLists {
    /// Room for `n` ranks (the lists already there keep their stamps: a list is only ever read
    /// in the step that wrote it).
    pub fn resize(&mut self, n: usize) {
        self.ranks.resize(n, [0; CAP + 1]);
        self.stamp.resize(n, u64::MAX);
    }

    /// Forgets every list (the memory is kept): for a world whose step count started again
    /// (a loaded state), where an old list could carry the stamp of a step to come.
    pub fn forget(&mut self) {
        self.stamp.clear();
    }

    pub fn heap_bytes(&self) -> usize {
        self.ranks.capacity() * std::mem::size_of::<Slots>() + self.stamp.capacity() * 8
    }

    /// Rank `k`'s list, if step `tick` wrote one that holds every record in reach.
    #[inline(always)]
    pub fn get(&self, k: usize, tick: u32) -> Option<&[u32]> {
        read(&self.ranks[k], self.stamp[k], tick)
    }

    /// Writes by rank from parallel workers.
    pub fn writer(&mut self) -> ContactWriter<'_> {
        debug_assert_eq!(self.ranks.len(), self.stamp.len());
        ContactWriter {
            ranks: self.ranks.as_mut_ptr(),
            stamp: self.stamp.as_mut_ptr(),
            len: self.ranks.len().min(self.stamp.len()),
            _lists: PhantomData,
        }
    }
}

#[inline(always)]
fn read(slots: &Slots, stamp: u64, tick: u32) -> Option<&[u32]> {
    let count = (stamp & 0xff) as usize;
    (stamp >> 8 == tick as u64 && count <= CAP).then(|| &slots[..count])
}

/// `ContactLists` lent out for writing each rank's list from the worker that owns the rank (a
/// permutation of the agents: each rank is written by one worker).
pub struct ContactWriter<'a> {
    ranks: *mut Slots,
    stamp: *mut u64,
    len: usize,
    _lists: PhantomData<&'a mut ContactLists>,
}

// SAFETY: the writer only hands out a rank's list through unsafe methods whose callers own the
// rank (distinct ranks per worker), like disjoint `&mut`s.
unsafe impl Sync for ContactWriter<'_> {}
unsafe impl Send for ContactWriter<'_> {}

impl ContactWriter<'_> {
    /// Rank `k`'s slots, to be filled and then stamped with `finish`.
    ///
    /// # Safety
    /// Only the worker that owns rank `k` uses rank `k` while the writer lives.
    #[inline(always)]
    #[allow(clippy::mut_from_ref)]
    pub unsafe fn slots(&self, k: usize) -> &mut Slots {
        assert!(k < self.len, "contact list {k} out of {}", self.len);
        // SAFETY: in bounds; the caller owns rank `k`.
        unsafe { &mut *self.ranks.add(k) }
    }

    /// Stamps rank `k`'s list: step `tick` wrote `count` records (more than `CAP`: no list).
    ///
    /// # Safety
    /// As for `slots`.
    #[inline(always)]
    pub unsafe fn finish(&self, k: usize, tick: u32, count: u32) {
        assert!(k < self.len, "contact list {k} out of {}", self.len);
        // SAFETY: in bounds; the caller owns rank `k`.
        unsafe { self.stamp.add(k).write((tick as u64) << 8 | count.min(0xff) as u64) }
    }

    /// Rank `k`'s list, as `ContactLists::get`.
    ///
    /// # Safety
    /// As for `slots`.
    #[inline(always)]
    pub unsafe fn get(&self, k: usize, tick: u32) -> Option<&[u32]> {
        assert!(k < self.len, "contact list {k} out of {}", self.len);
        // SAFETY: in bounds; the caller owns rank `k`, so nobody writes it meanwhile.
        unsafe { read(&*self.ranks.add(k), self.stamp.add(k).read(), tick) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_read_only_in_its_step_and_only_when_it_fits() {
        let mut lists = ContactLists::default();
        lists.resize(4);
        assert_eq!(lists.get(2, 0), None, "never written");
        {
            let w = lists.writer();
            // SAFETY: one thread, each rank used once.
            unsafe {
                let s = w.slots(2);
                for (count, k) in [9, 4, 7].into_iter().enumerate() {
                    put(s, count as u32, k);
                }
                w.finish(2, 5, 3);
                w.slots(3)[0] = 1;
                w.finish(3, 5, CAP as u32 + 1);
                assert_eq!(w.get(2, 5), Some(&[9, 4, 7][..]));
            }
        }
        assert_eq!(lists.get(2, 5), Some(&[9, 4, 7][..]));
        assert_eq!(lists.get(2, 6), None, "an earlier step's list");
        assert_eq!(lists.get(3, 5), None, "more than CAP");
        lists.resize(6);
        assert_eq!(lists.get(2, 5), Some(&[9, 4, 7][..]));
        assert_eq!(lists.get(5, 5), None);
        lists.forget();
        lists.resize(6);
        assert_eq!(lists.get(2, 5), None, "forgotten");
    }
}
