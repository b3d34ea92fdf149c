//! The spatial grid's patch: files anew only the agents that changed cell since the last
//! rebuild (the same cells, the same agents), leaving the very starts, entries, ranks and records
//! the full counting sort (`grid_sort`) would give, at a cost that follows how far the filing
//! shifts rather than how many agents there are.
//!
//! Each agent that changed cell leaves its old rank and arrives in its new cell, before the first
//! entry of a higher agent index there. Every other entry keeps its order and moves by the
//! arrivals less the departures before it: runs of entries between two such events move as a
//! block (`copy_within`, with their records), and entries where the two balance do not move at
//! all. A far horde that mostly stands still (far blocks waiting for their turn) so costs the
//! rebuild the few runs its movers open, instead of a pass over a million entries.

use glam::Vec4;

/// The grid's filing, as the patch rewrites it.
pub(crate) struct Filing<'a> {
    pub cell_start: &'a mut [u32],
    pub entries: &'a mut [u32],
    pub rank: &'a mut [u32],
    pub records: &'a mut [Vec4],
}

/// The patch's buffers, kept between rebuilds.
#[derive(Clone, Debug, Default)]
pub(crate) struct PatchScratch {
    /// `(new cell << 32) | agent` of each agent that changed cell (the caller's input).
    pub arrive: Vec<u64>,
    /// The ranks they leave, then the cells they leave (in rank order).
    leave: Vec<u32>,
    from: Vec<u32>,
    /// The sorts' buffers.
    keys: Vec<u64>,
    spare: Vec<u64>,
    /// For each arrival (in `arrive`'s sorted order), the old rank it is filed before.
    before: Vec<u32>,
    /// `(first rank, end rank, shift)` of each run of staying entries that moves.
    runs: Vec<(u32, u32, i32)>,
}

impl PatchScratch {
    pub fn heap_bytes(&self) -> usize {
        self.arrive.capacity() * 8
            + (self.from.capacity() + self.leave.capacity() + self.before.capacity()) * 4
            + (self.keys.capacity() + self.spare.capacity()) * 8
            + self.runs.capacity() * 12
    }
}

/// Refiles the agents listed in `s.arrive` (in ascending agent index; cleared after), whose old
/// cells are `cell`. The records of the agents that changed cell are left for the caller to
/// write (their positions changed); every other record moves with its entry.
pub(crate) fn patch(f: Filing, cell: &[u32], s: &mut PatchScratch) {
    let PatchScratch { arrive, leave, from, keys, spare, before, runs } = s;
    if arrive.is_empty() {
        return;
    }
    let cells = f.cell_start.len() - 1;
    // By new cell, ascending agent index within a cell (a stable sort of a list in agent order).
    radix_sort(arrive, spare, cells, |m| (m >> 32) as usize);
    // The ranks they leave in ascending order, and so the cells they leave, in order.
    keys.clear();
    keys.extend(arrive.iter().map(|&m| f.rank[m as u32 as usize] as u64));
    radix_sort(keys, spare, f.entries.len(), |r| r as usize);
    leave.clear();
    leave.extend(keys.iter().map(|&r| r as u32));
    from.clear();
    from.extend(leave.iter().map(|&r| cell[f.entries[r as usize] as usize]));
    // Where each arrival goes: before the first entry of its new cell with a higher index.
    before.clear();
    before.extend(arrive.iter().map(|&m| {
        let (c, i) = ((m >> 32) as usize, m as u32);
        let (a, b) = (f.cell_start[c] as usize, f.cell_start[c + 1] as usize);
        (a + f.entries[a..b].iter().position(|&j| j > i).unwrap_or(b - a)) as u32
    }));
    debug_assert!(before.windows(2).all(|w| w[0] <= w[1]));

    // The runs of staying entries between events (in rank order) and their shift.
    runs.clear();
    let (mut ai, mut li, mut shift) = (0, 0, 0i64);
    let mut k = before[0].min(leave[0]);
    loop {
        while before.get(ai) == Some(&k) {
            shift += 1;
            ai += 1;
        }
        let mut start = k;
        if leave.get(li) == Some(&k) {
            shift -= 1;
            li += 1;
            start = k + 1;
        }
        let next = match (before.get(ai), leave.get(li)) {
            (None, None) => break,
            (a, l) => *a.unwrap_or(&u32::MAX).min(l.unwrap_or(&u32::MAX)),
        };
        if shift != 0 && start < next {
            runs.push((start, next, shift as i32));
        }
        k = next;
    }
    debug_assert_eq!(shift, 0);

    // Entries keep their order, so an entry shifted up never lands where one shifted down stands
    // and the reverse: those shifted up move first, the highest run first, then those shifted
    // down, the lowest first.
    let mut shift_run = |&(a, b, d): &(u32, u32, i32)| {
        let (a, b) = (a as usize, b as usize);
        let to = (a as i64 + d as i64) as usize;
        f.entries.copy_within(a..b, to);
        f.records.copy_within(a..b, to);
        for (k, &j) in f.entries[to..to + (b - a)].iter().enumerate() {
            f.rank[j as usize] = (to + k) as u32;
        }
    };
    runs.iter().rev().filter(|r| r.2 > 0).for_each(&mut shift_run);
    runs.iter().filter(|r| r.2 < 0).for_each(&mut shift_run);

    // The arrivals, into the places left for them.
    let mut left_below = 0;
    for (m, (&key, &q)) in arrive.iter().zip(before.iter()).enumerate() {
        while left_below < leave.len() && leave[left_below] < q {
            left_below += 1;
        }
        let at = q as usize + m - left_below;
        f.entries[at] = key as u32;
        f.rank[key as u32 as usize] = at as u32;
    }

    // Each cell's start moves by the arrivals less the departures in the cells below it (only
    // where they do not balance).
    let (mut ai, mut li, mut shift) = (0, 0, 0i64);
    loop {
        let a = arrive.get(ai).map_or(u64::MAX, |&m| m >> 32);
        let l = from.get(li).map_or(u64::MAX, |&c| c as u64);
        let at = a.min(l);
        if at == u64::MAX {
            break;
        }
        while arrive.get(ai).is_some_and(|&m| m >> 32 == at) {
            shift += 1;
            ai += 1;
        }
        while from.get(li).is_some_and(|&c| c as u64 == at) {
            shift -= 1;
            li += 1;
        }
        let next = arrive.get(ai).map_or(u64::MAX, |&m| m >> 32).min(from.get(li).map_or(u64::MAX, |&c| c as u64));
        if shift != 0 {
            debug_assert!(next != u64::MAX);
            // (Two's complement: adding the shift as a u32 wraps to the difference.)
            let by = shift as u32;
            for s in &mut f.cell_start[at as usize + 1..next as usize + 1] {
                *s = s.wrapping_add(by);
            }
        }
    }
    debug_assert_eq!(shift, 0);
    arrive.clear();
}

/// Sorts `items` by `key` (below `bound`), stably: least significant digit first, 11 bits a pass
/// (two passes for up to two million cells or ranks), `spare` the second buffer.
fn radix_sort(items: &mut Vec<u64>, spare: &mut Vec<u64>, bound: usize, key: impl Fn(u64) -> usize) {
    const BITS: u32 = 11;
    let mut shift = 0;
    while shift == 0 || (bound.max(1) as u64 - 1) >> shift != 0 {
        let mut count = [0u32; 1 << BITS];
        for &m in items.iter() {
            count[(key(m) >> shift) & ((1 << BITS) - 1)] += 1;
        }
        let mut at = 0;
        for c in count.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        spare.clear();
        spare.resize(items.len(), 0);
        for &m in items.iter() {
            let d = &mut count[(key(m) >> shift) & ((1 << BITS) - 1)];
            spare[*d as usize] = m;
            *d += 1;
        }
        std::mem::swap(items, spare);
        shift += BITS;
    }
}
