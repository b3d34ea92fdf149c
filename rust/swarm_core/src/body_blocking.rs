//! Body blocking: agents do not interpenetrate. Each pass moves every agent out of the bodies it
//! overlaps, yielding in proportion to the other's push resistance (the heavier one moves less).
//! Passes are Jacobi style (every correction found from the records as they stand, then all
//! written), so they run in parallel with results independent of thread count.

use glam::{Vec2, Vec3, Vec4};
use rayon::prelude::*;

use crate::agents::{FLAG_COASTING, FLAG_HOLDING, FLAG_ISOLATED};
use crate::contact_list::{self, ContactLists};
use crate::far_blocks;
use crate::lod::FULL;
use crate::noise::hash2;
use crate::scatter::Scatter;
use crate::spatial_grid::{for_each_near, Near, SpatialGrid};

/// Fraction of the overlap each pass resolves; below 1 to stay stable in dense packs where
/// several neighbours push at once.
const RELAXATION: f32 = 0.8;

/// How an agent overlapped others in a pass: not at all, by at most `DEEP_OVERLAP` of the sum
/// of the two radii (bodies touching, as a crowd walking on leaves them: on a long far turn its
/// faster agents catch up with slower ones by up to about a third of that), or deeper (a pack
/// spawned into itself).
const NONE: u8 = 0;
const TOUCHING: u8 = 1;
const DEEP: u8 = 2;
const DEEP_OVERLAP: f32 = 0.4;

/// Whether an agent with `flags` (as its step leaves them) sits out body blocking: it is not
/// moved when coasting (`FLAG_COASTING`, a Cheap agent between its updates or an agent at rest)
/// or isolated (`FLAG_ISOLATED`: Personal Space proved nobody can overlap it this step). Of the
/// others, the Full-tier ones run again while they still overlap something.
#[inline]
fn sits_out(flags: u8) -> bool {
    flags & (FLAG_COASTING | FLAG_ISOLATED) != 0
}

/// Resolves overlaps among `pos` (agent order) in up to `iterations` passes (more for a long far
/// turn's deep overlaps, below); the result goes back to `pos` when `write_back`, and otherwise
/// stays in the grid's records (the caller reads it there by `rank`). `spare` must hold `pos` in
/// the grid's cell order (`(x, z, y, radius)` at each
/// agent's rank; the steering pass writes it so) for every agent but those of a far block that
/// waits (`far`), whose records the grid already holds (they have not moved since its rebuild):
/// the others' are copied into the grid's records (with no far block waiting, the two buffers
/// are swapped instead), the passes work on those, and `spare` is then the passes' scratch.
/// `resist` holds each agent's `resistance` at its rank, likewise; `flags` (as the agents' steps
/// leave them) say who sits out (`sits_out`, and the agents of a far block that waits, by `far`),
/// `tiers` and `far` who runs again.
///
/// An agent tests the records of its contact list (`contacts`, by rank, `contact_list`) where
/// step `tick` wrote one: a Full-tier agent's Personal Space scan this step, which lists every
/// record within the reach of the isolation proof (so every body it can overlap after this
/// step's moves, whichever cells the grid filed them in). Otherwise its first pass walks the
/// grid, with the query widened by `slack[status]`, its block's far status (`far_blocks::of`):
/// how stale the grid's cells may be for the records it must find; and, if it may run again, it
/// lists what it found within `LIST_MARGIN_PER_PASS` a pass of touching for its later passes.
/// The deep passes of a far turn beyond `iterations` always walk the grid.
///
/// The passes work on the grid's packed `(x, z, y, radius)` records, so neighbour loops read
/// memory in cell order; the result is scattered back to `pos` at the end.
///
/// Each pass runs for a list of ranks: every correction is found from the records as they stand
/// (Jacobi style: the result does not depend on the order or the thread count), then applied in
/// place. The first pass runs for every agent that does not sit out (a coasting agent is not
/// moved, but its neighbours still move out of it by their own share; nobody overlaps an
/// isolated one). Later passes, up to `iterations` in all, run for the Full-tier agents and the
/// agents of far blocks on a turn above level 0 that overlapped something in the pass before,
/// and beyond that, up to `iterations << (level - 1)`, for the latter while they overlap deeply
/// (blocked once in 8, 16 or 32 steps, a pack spawned into itself would otherwise come apart at
/// a fraction of a level-0 turn's pace). So a sparse horde pays for extra passes only where
/// bodies touch and a dense one only near the camera and the target (Importance LOD), and
/// agents that stand aside (at rest, coasting, alone) cost the passes nothing. A new overlap that a neighbour's
/// correction creates is resolved by that neighbour in this pass and by both on the next step.
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    pos: &mut [Vec3],
    resist: &[f32],
    contacts: &mut ContactLists,
    tick: u32,
    flags: &[u8],
    far: &[far_blocks::Status],
    tiers: &[u8],
    grid: &mut SpatialGrid,
    spare: &mut Vec<Vec4>,
    scratch: &mut BlockingScratch,
    iterations: u32,
    max_radius: f32,
    slack: &[f32],
    write_back: bool,
    chunk: usize,
) {
    let n = pos.len();
    debug_assert_eq!(spare.len(), n);
    debug_assert_eq!(resist.len(), n);
    take_moved_records(grid, spare, far, chunk);
    let BlockingScratch { runs, again, hit, counts } = scratch;
    // The reach of agent `i`'s query.
    let reach = |i: u32| max_radius + slack[far_blocks::of(far, i as usize) as usize];
    if iterations > 0 {
        // In agent order (the flags read in sequence), each agent listed by its rank.
        let rank = grid.rank();
        // (A far block's waiting agents sit out as coasting ones do: their blocks are passed over.)
        let waits = |b: usize| far.get(b) == Some(&far_blocks::WAIT);
        let runs_first = |i: usize| !sits_out(flags[i]);
        compact(n, chunk, far_blocks::FAR_BLOCK, waits, counts, runs, runs_first, |i| rank[i]);
        // (Only an agent that may run a listed pass again lists what its walk met: see
        // `again_after`.)
        let margin = LIST_MARGIN_PER_PASS * iterations as f32;
        let may_again = |i: u32| match far_blocks::level(far_blocks::of(far, i as usize)) {
            Some(l) if l > 0 => true,
            _ => tiers[i as usize] == FULL,
        };
        let list = |i: u32| (iterations > 1 && may_again(i)).then_some(margin);
        pass(grid, runs, spare, hit, contacts, resist, &reach, Finding { tick, lists: true, list });
        // Whether agent `i` runs another pass after `done`, having overlapped as `touch` says in
        // the last: up to `iterations` passes while it overlaps anything for a Full-tier agent and
        // one of a far block on a turn above level 0; then, for the latter only while an overlap
        // is `DEEP`, up to `iterations << (level - 1)` (a turn of level `l` is blocked once in
        // `2^l` level-0 turns' worth of steps: so a far pack spawned into itself comes apart in a
        // few of its turns, while bodies merely touching, as in any crowd walking on, cost no
        // more passes).
        let again_after = |i: usize, done: u32, touch: u8| match far_blocks::level(far_blocks::of(far, i)) {
            Some(l) if l > 0 => touch != NONE && (done < iterations || touch == DEEP && done < iterations << (l - 1)),
            _ => touch != NONE && done < iterations && tiers[i] == FULL,
        };
        {
            let entries = grid.order();
            let (ran, touched) = (&*runs, &*hit);
            let again_at = |j: usize| again_after(entries[ran[j] as usize] as usize, 1, touched[j]);
            compact(ran.len(), chunk, chunk, |_| false, counts, again, again_at, |j| ran[j]);
        }
        let mut done = 1;
        while !again.is_empty() {
            // Up to `iterations` passes the contact lists hold every body within reach; the deep
            // passes of a far turn beyond (bodies moving far in a pass) walk the grid.
            let later = Finding { tick, lists: done < iterations, list: |_| None };
            pass(grid, again, spare, hit, contacts, resist, &reach, later);
            done += 1;
            let (mut touched, entries) = (hit.iter(), grid.order());
            again.retain(|&k| again_after(entries[k as usize] as usize, done, touched.next().copied().unwrap_or(NONE)));
        }
    }
    if !write_back {
        return;
    }
    let (sorted, rank) = (grid.sorted(), grid.rank());
    pos.par_chunks_mut(chunk).zip(rank.par_chunks(chunk)).for_each(|(ps, rs)| {
        for (p, &k) in ps.iter_mut().zip(rs) {
            let e = sorted[k as usize];
            *p = Vec3::new(e.x, p.y, e.y);
        }
    });
}

/// The grid's records become the steered ones in `spare`: swapped in whole, or, where some far
/// blocks wait, copied in for the other agents (at their ranks, a block of agents at a time).
fn take_moved_records(grid: &mut SpatialGrid, spare: &mut Vec<Vec4>, far: &[far_blocks::Status], chunk: usize) {
    if !far.contains(&far_blocks::WAIT) {
        grid.swap_sorted(spare);
        return;
    }
    let (records, rank) = grid.sorted_mut_and_rank();
    let records = Scatter::new(records);
    let n = rank.len();
    debug_assert!(chunk.is_multiple_of(far_blocks::FAR_BLOCK));
    rank.par_chunks(chunk).enumerate().for_each(|(ci, rs)| {
        for (b, rs) in rs.chunks(far_blocks::FAR_BLOCK).enumerate() {
            if far_blocks::of(far, ci * chunk + b * far_blocks::FAR_BLOCK) == far_blocks::WAIT {
                continue;
            }
            for &k in rs {
                // SAFETY: `rank` is a permutation: each rank is written once.
                unsafe { records.write(k as usize, spare[k as usize]) };
            }
        }
    });
    debug_assert_eq!(spare.len(), n);
}

/// Push resistance of an agent that stands firm this step (an agent of a far block that waits:
/// it sits out body blocking and does not move): whoever overlaps it moves all the way out
/// (`other / (mine + other)` rounds to 1 for any resistance of the mover's).
pub const STANDS_FIRM: f32 = 1e30;

/// Body blocking's buffers, kept between steps: the ranks the first pass runs for, those later
/// passes run for, how each run overlapped others, and the per-chunk counts `compact`
/// works with. (Each run's moved record goes to the caller's spare record buffer.)
#[derive(Clone, Debug, Default)]
pub struct BlockingScratch {
    runs: Vec<u32>,
    again: Vec<u32>,
    hit: Vec<u8>,
    counts: Vec<usize>,
}

impl BlockingScratch {
    pub fn heap_bytes(&self) -> usize {
        (self.runs.capacity() + self.again.capacity()) * 4
            + self.hit.capacity()
            + self.counts.capacity() * std::mem::size_of::<usize>()
    }
}

/// How far beyond touching a first-pass run that walks the grid lists a record for the passes
/// after it (`contact_list`), per pass the agent may run: bodies move by about that much in a
/// pass at most in a crowd (a correction is a fraction of an overlap), and body blocking's
/// reach allows as much for the passes' corrections. A pair that a pass brings closer from
/// farther out is resolved on the next step, as a pair the grid's stale cells hide is.
const LIST_MARGIN_PER_PASS: f32 = 0.05;

/// Ranks whose corrections a pass finds (and applies) per parallel work item.
const PASS_CHUNK: usize = 256;

/// How a pass finds an agent's neighbours: from its contact list (`contact_list`) where step
/// `tick` wrote one (and `lists`), else by walking the grid; where `list(i)` gives agent `i` a
/// margin (a first pass, for an agent that may run again), its walk lists what it met within
/// that margin of touching, for the passes after.
#[derive(Clone, Copy)]
struct Finding<L> {
    tick: u32,
    lists: bool,
    list: L,
}

/// One pass for the agents at `ranks` (distinct; `reach(i)`: how far beyond its body agent `i`
/// looks when it walks the grid): every agent's moved record is found from the grid's records as
/// they stand (into `moved_to`, a scratch at least as long as `ranks`, with how it overlapped
/// others in `hit`), its neighbours found as `how` says, then they are all written back at their
/// ranks.
#[allow(clippy::too_many_arguments)]
fn pass(
    grid: &mut SpatialGrid,
    ranks: &[u32],
    moved_to: &mut Vec<Vec4>,
    hit: &mut Vec<u8>,
    contacts: &mut ContactLists,
    resist: &[f32],
    reach: &(impl Fn(u32) -> f32 + Sync),
    how: Finding<impl Fn(u32) -> Option<f32> + Sync>,
) {
    if moved_to.len() < ranks.len() {
        moved_to.resize(ranks.len(), Vec4::ZERO);
    }
    let moved_to = &mut moved_to[..ranks.len()];
    hit.resize(ranks.len(), NONE);
    let g = &*grid;
    let (src, entries) = (g.sorted(), g.order());
    let lists = contacts.writer();
    (moved_to.par_chunks_mut(PASS_CHUNK), hit.par_chunks_mut(PASS_CHUNK), ranks.par_chunks(PASS_CHUNK))
        .into_par_iter()
        .for_each(|(out, hits, ks)| {
            for ((o, h), &k) in out.iter_mut().zip(hits).zip(ks) {
                let k = k as usize;
                let me = src[k];
                let mut push = Push::new(k, me, src, entries, resist);
                // SAFETY (here and below): the ranks of one pass are distinct: each run reads and
                // writes only its own list.
                if let Some(near) = unsafe { lists.get(k, how.tick) }.filter(|_| how.lists) {
                    for &kk in near {
                        push.offer(kk as usize);
                    }
                } else {
                    let walk_reach = me.w + reach(entries[k]);
                    match (how.list)(entries[k]) {
                        Some(margin) => {
                            // SAFETY: as above.
                            let slots = unsafe { lists.slots(k) };
                            let mut count = 0u32;
                            walk(g, k, me, walk_reach, margin, |kk| {
                                contact_list::put(slots, count, kk);
                                count += 1;
                                push.offer(kk);
                            });
                            // SAFETY: as above.
                            unsafe { lists.finish(k, how.tick, count) };
                        }
                        None => walk(g, k, me, walk_reach, 0.0, |kk| push.offer(kk)),
                    }
                }
                (*o, *h) = push.done();
            }
        });
    let records = Scatter::new(grid.sorted_mut());
    moved_to.par_chunks(PASS_CHUNK).zip(ranks.par_chunks(PASS_CHUNK)).for_each(|(out, ks)| {
        for (&o, &k) in out.iter().zip(ks) {
            // SAFETY: the ranks of one pass are distinct (a filtered list of ranks).
            unsafe { records.write(k as usize, o) };
        }
    });
}

/// The grid walk of the agent at rank `k` (record `me`) over the cells within `reach` of it,
/// offering every record within `extra` of touching it (on its floor) to `met`.
#[inline(always)]
fn walk(g: &SpatialGrid, k: usize, me: Vec4, reach: f32, extra: f32, mut met: impl FnMut(usize)) {
    let (src, p) = (g.sorted(), Vec2::new(me.x, me.y));
    let near = Near { p, y: me.z, reach: me.w + extra, add_radius: true, skip: k };
    g.for_each_row(p, reach, |a, b| {
        for_each_near(src, a, b, false, &near, |kk| {
            met(kk);
            true
        })
    });
}

/// `out` becomes `value(i)` for every `i` in `0..len` that `keep(i)`, in ascending `i`, passing
/// over whole blocks of `block` indices that `skip(block index)` (none of them kept): counted,
/// then written, in parallel chunks of `chunk` (a multiple of `block`; fixed boundaries: the same
/// list on any number of threads), with no allocation once the buffers have grown.
#[allow(clippy::too_many_arguments)]
fn compact(
    len: usize,
    chunk: usize,
    block: usize,
    skip: impl Fn(usize) -> bool + Sync,
    counts: &mut Vec<usize>,
    out: &mut Vec<u32>,
    keep: impl Fn(usize) -> bool + Sync,
    value: impl Fn(usize) -> u32 + Sync,
) {
    debug_assert!(chunk.is_multiple_of(block));
    // The indices of chunk `c` that `keep` is asked about.
    let span = |c: usize| {
        (c * chunk..((c + 1) * chunk).min(len))
            .step_by(block)
            .filter(|&b0| !skip(b0 / block))
            .flat_map(|b0| b0..(b0 + block).min(len))
    };
    counts.clear();
    counts.resize(len.div_ceil(chunk), 0);
    counts.par_iter_mut().enumerate().for_each(|(c, k)| *k = span(c).filter(|&i| keep(i)).count());
    // Each chunk's first slot in `out`.
    let mut total = 0;
    for k in counts.iter_mut() {
        (*k, total) = (total, total + *k);
    }
    out.clear();
    out.resize(total, 0);
    let slots = Scatter::new(out);
    counts.par_iter().enumerate().for_each(|(c, &first)| {
        let end = counts.get(c + 1).copied().unwrap_or(total);
        let mut kept = span(c).filter(|&i| keep(i));
        for (at, i) in (first..end).zip(kept.by_ref()) {
            // SAFETY: chunk `c` writes only its own slots, `first` up to the next chunk's first
            // (so a `keep` that answered differently the second time would give a wrong list,
            // never a shared slot).
            unsafe { slots.write(at, value(i)) };
        }
        debug_assert!(kept.next().is_none(), "compact: `keep` answered differently");
    });
}

/// How hard an agent with `push_resistance` and `flags` resists being pushed: its push
/// resistance, a fraction of it while it holds a formation slot (`FLAG_HOLDING`: it makes way
/// for the members still walking to theirs).
#[inline]
pub(crate) fn resistance(push_resistance: f32, flags: u8) -> f32 {
    if flags & FLAG_HOLDING != 0 {
        push_resistance * HOLDING_RESISTANCE
    } else {
        push_resistance
    }
}

/// Push resistance of an agent holding its formation slot, as a fraction of its own.
pub const HOLDING_RESISTANCE: f32 = 0.2;

/// One run's correction, gathered neighbour by neighbour: the agent at rank `k` (record `me`)
/// moving out of every record offered that it overlaps, by its share of the overlap.
struct Push<'a> {
    k: usize,
    p: Vec2,
    radius: f32,
    mine: f32,
    src: &'a [Vec4],
    entries: &'a [u32],
    resist: &'a [f32],
    corr: Vec2,
    touch: u8,
}

impl<'a> Push<'a> {
    #[inline(always)]
    fn new(k: usize, me: Vec4, src: &'a [Vec4], entries: &'a [u32], resist: &'a [f32]) -> Self {
        let p = Vec2::new(me.x, me.y);
        Push { k, p, radius: me.w, mine: resist[k], src, entries, resist, corr: Vec2::ZERO, touch: NONE }
    }

    /// Record `kk` (not the agent's own, on its floor): pushed out of if it overlaps (the
    /// grid's near test, `Near::holds`, as the same float operations).
    #[inline(always)]
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn offer(&mut self, kk: usize) {
        let e = self.src[kk];
        let off = Vec2::new(self.p.x - e.x, self.p.y - e.y);
        let d2 = off.length_squared();
        let min = self.radius + e.w;
        if d2 >= min * min {
            return;
        }
        let other = self.resist[kk];
        let d = d2.sqrt();
        let depth = min - d;
        self.touch = self.touch.max(if depth > DEEP_OVERLAP * min { DEEP } else { TOUCHING });
        // Out along the unit offset by its share of the overlap, `other / (mine + other)`:
        // one division for the share and the unit offset together (each takes several times
        // an addition's time, and a crowd offers several overlaps a run).
        self.corr += if d2 > 1e-12 {
            off * (depth * other * RELAXATION / ((self.mine + other) * d))
        } else {
            // Coincident pair: opposite directions from one hash of the unordered pair.
            let (i, j) = (self.entries[self.k], self.entries[kk]);
            let (lo, hi) = if i < j { (i, j) } else { (j, i) };
            let ang = (hash2(lo, hi) >> 8) as f32 * (std::f32::consts::TAU / 16_777_216.0);
            let dir = Vec2::new(ang.cos(), ang.sin()) * if i < j { 1.0 } else { -1.0 };
            dir * (depth * (other / (self.mine + other)) * RELAXATION)
        };
    }

    /// The moved record and how the agent overlapped others (`NONE`, `TOUCHING` or `DEEP`).
    /// One pass never moves an agent by more than its radius: a body squeezed between many
    /// neighbours is eased out over a few steps instead of being launched.
    #[inline(always)]
    fn done(&self) -> (Vec4, u8) {
        let me = self.src[self.k];
        let corr = self.corr.clamp_length_max(self.radius);
        (Vec4::new(me.x + corr.x, me.y + corr.y, me.z, me.w), self.touch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_keeps_the_chosen_values_in_order_whatever_the_chunks() {
        let len = 10_007;
        let keep = |i: usize| (i * 7919) % 13 < 4;
        let want: Vec<u32> = (0..len).filter(|&i| keep(i)).map(|i| (i * 3) as u32).collect();
        let (mut counts, mut out) = (Vec::new(), vec![99; 5]);
        for chunk in [1, 7, 256, 1024, len, 2 * len] {
            compact(len, chunk, chunk, |_| false, &mut counts, &mut out, keep, |i| (i * 3) as u32);
            assert_eq!(out, want, "chunk {chunk}");
            // Blocks of 1 passed over where `keep` would not take them anyway: the same list.
            compact(len, chunk, 1, |i| !keep(i), &mut counts, &mut out, |_| true, |i| (i * 3) as u32);
            assert_eq!(out, want, "chunk {chunk}, passing over blocks of 1");
        }
        // Blocks of 7 (the last one short): every third one passed over.
        let want: Vec<u32> = (0..len).filter(|&i| (i / 7) % 3 != 0 && keep(i)).map(|i| i as u32).collect();
        for chunk in [7, 14, 700, 7 * len] {
            compact(len, chunk, 7, |b| b % 3 == 0, &mut counts, &mut out, keep, |i| i as u32);
            assert_eq!(out, want, "chunk {chunk}, blocks of 7");
        }
        compact(0, 64, 64, |_| false, &mut counts, &mut out, keep, |i| i as u32);
        assert!(out.is_empty());
    }

    #[test]
    fn only_coasting_or_isolated_agents_sit_out() {
        assert!(sits_out(FLAG_COASTING));
        assert!(sits_out(FLAG_ISOLATED | FLAG_HOLDING));
        assert!(!sits_out(FLAG_HOLDING));
        assert!(!sits_out(0));
    }
}
