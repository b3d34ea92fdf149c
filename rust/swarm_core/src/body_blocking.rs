//! Body blocking: agents do not interpenetrate. Each pass moves every agent out of the bodies it
//! overlaps, yielding in proportion to the other's push resistance (the heavier one moves less).
//! Passes are Jacobi style (read one position array, write another), so they run in parallel
//! with results independent of thread count.

use glam::{Vec2, Vec3, Vec4};
use rayon::prelude::*;

use crate::agents::{FLAG_COASTING, FLAG_HOLDING, FLAG_ISOLATED};
use crate::lod::FULL;
use crate::noise::hash2;
use crate::spatial_grid::{for_each_near, Near, SpatialGrid};

/// Fraction of the overlap each pass resolves; below 1 to stay stable in dense packs where
/// several neighbours push at once.
const RELAXATION: f32 = 0.8;

/// Resolves overlaps among `pos` (agent order) in `iterations` passes; the result goes back to
/// `pos` when `write_back`, and otherwise stays in the grid's records (the caller reads it there
/// by `rank`). `spare` must hold `pos` in the grid's cell order (`(x, z, y, radius)` at each
/// agent's rank; the steering pass writes it so): it becomes the grid's records, and the passes
/// start from it. `resist` holds each agent's `resistance` at its rank, likewise. The grid's cells
/// must be at most `slack` metres stale for these positions; queries are widened by that much.
///
/// The passes work in the grid's cell order on its packed `(x, z, y, radius)` records (the
/// grid's own and `spare`, swapped after each pass), so neighbour loops and the pass itself
/// read memory in sequence; the result is scattered back to `pos` at the end.
///
/// Agents whose `flags` have `FLAG_COASTING` (Cheap agents between their LOD updates) are not
/// moved; their neighbours still move out of them by their own share. Agents with
/// `FLAG_ISOLATED` are skipped too: Personal Space proved nobody can overlap them this step.
///
/// The first pass records whether each agent overlapped anything. From the second pass on, only
/// Full-tier agents (`tiers`) that overlapped something in the previous pass run again, listed by
/// rank: their corrections are all found from the records as they stand, then applied in place
/// (what a pass over everyone copying the rest would give), so a sparse horde pays for extra
/// passes only where bodies touch and a dense one only near the camera and the target
/// (Importance LOD). A new overlap that a neighbour's
/// correction creates is resolved by that neighbour in this pass and by both on the next step.
#[allow(clippy::too_many_arguments)]
pub fn resolve(
    pos: &mut [Vec3],
    resist: &[f32],
    flags: &[u8],
    tiers: &[u8],
    grid: &mut SpatialGrid,
    spare: &mut Vec<Vec4>,
    scratch: &mut BlockingScratch,
    iterations: u32,
    max_radius: f32,
    slack: f32,
    write_back: bool,
    chunk: usize,
) {
    let n = pos.len();
    debug_assert_eq!(spare.len(), n);
    debug_assert_eq!(resist.len(), n);
    grid.swap_sorted(spare);
    let BlockingScratch { moved, again, corr } = scratch;
    moved.resize(n, false);
    let reach = max_radius + slack;
    if iterations > 0 {
        let hits = first_pass(grid, spare, moved, resist, flags, tiers, reach, chunk);
        grid.swap_sorted(spare);
        again.clear();
        if hits > 0 {
            let entries = grid.order();
            again.extend((0..n as u32).filter(|&k| moved[k as usize] && tiers[entries[k as usize] as usize] == FULL));
        }
        for _ in 1..iterations {
            if again.is_empty() {
                // Nobody a further pass would run for.
                break;
            }
            later_pass(grid, again, corr, resist, reach);
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

/// Body blocking's buffers, kept between steps: whether the agent at each rank overlapped
/// anything in the first pass, and the ranks later passes run for with their corrections.
#[derive(Clone, Debug, Default)]
pub struct BlockingScratch {
    moved: Vec<bool>,
    again: Vec<u32>,
    corr: Vec<(Vec2, bool)>,
}

impl BlockingScratch {
    pub fn heap_bytes(&self) -> usize {
        self.moved.capacity() + self.again.capacity() * 4 + self.corr.capacity() * 12
    }
}

/// Agents whose corrections a later pass finds per parallel work item.
const LATER_CHUNK: usize = 256;

/// A pass after the first, for the agents at ranks `again` (Full-tier agents that overlapped
/// something in the pass before): every correction is found from the grid's records as they
/// stand, then applied in place; `again` keeps the agents that overlapped something.
fn later_pass(grid: &mut SpatialGrid, again: &mut Vec<u32>, corr: &mut Vec<(Vec2, bool)>, resist: &[f32], reach: f32) {
    corr.resize(again.len(), (Vec2::ZERO, false));
    let g = &*grid;
    let (src, entries) = (g.sorted(), g.order());
    corr.par_chunks_mut(LATER_CHUNK).zip(again.par_chunks(LATER_CHUNK)).for_each(|(out, ks)| {
        for (o, &k) in out.iter_mut().zip(ks) {
            *o = resolve_one(k as usize, src[k as usize], src, entries, resist, g, reach);
        }
    });
    let records = grid.sorted_mut();
    for (&k, &(c, _)) in again.iter().zip(corr.iter()) {
        let e = &mut records[k as usize];
        (e.x, e.y) = (e.x + c.x, e.y + c.y);
    }
    let mut hits = corr.iter().map(|&(_, hit)| hit);
    again.retain(|_| hits.next().unwrap_or(false));
}

/// The first pass: reads the grid's records, writes `dst` (same order) and whether each agent
/// overlapped anything. Returns how many agents a further pass would run for (Full-tier agents
/// that overlapped something).
#[allow(clippy::too_many_arguments)]
fn first_pass(
    grid: &SpatialGrid,
    dst: &mut [Vec4],
    moved: &mut [bool],
    resist: &[f32],
    flags: &[u8],
    tiers: &[u8],
    reach: f32,
    chunk: usize,
) -> usize {
    let (src, entries) = (grid.sorted(), grid.order());
    dst.par_chunks_mut(chunk)
        .zip(moved.par_chunks_mut(chunk))
        .enumerate()
        .map(|(ci, (out, mv))| {
            let base = ci * chunk;
            let mut again = 0;
            for (k, (o, m)) in out.iter_mut().zip(mv.iter_mut()).enumerate() {
                let k = base + k;
                let me = src[k];
                if flags[entries[k] as usize] & (FLAG_COASTING | FLAG_ISOLATED) != 0 {
                    *o = me;
                    *m = false;
                    continue;
                }
                let (corr, hit) = resolve_one(k, me, src, entries, resist, grid, reach);
                *o = Vec4::new(me.x + corr.x, me.y + corr.y, me.z, me.w);
                *m = hit;
                again += (hit && tiers[entries[k] as usize] == FULL) as usize;
            }
            again
        })
        .sum()
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

/// Correction of the agent at rank `k` (record `me`) and whether it overlapped anything.
#[inline]
#[allow(clippy::too_many_arguments)]
fn resolve_one(
    k: usize,
    me: Vec4,
    src: &[Vec4],
    entries: &[u32],
    resist: &[f32],
    grid: &SpatialGrid,
    reach: f32,
) -> (Vec2, bool) {
    let p = Vec2::new(me.x, me.y);
    let (y, my_radius) = (me.z, me.w);
    let mut corr = Vec2::ZERO;
    let mut hit = false;
    let near = Near { p, y, reach: my_radius, add_radius: true, skip: k };
    let mine = resist[k];
    grid.for_each_row(p, my_radius + reach, |a, b| {
        for_each_near(src, a, b, false, &near, |kk| {
            let e = src[kk];
            let off = Vec2::new(me.x - e.x, me.y - e.y);
            let d2 = off.length_squared();
            let min = my_radius + e.w;
            hit = true;
            let other = resist[kk];
            let share = other / (mine + other);
            let dir = if d2 > 1e-12 {
                off / d2.sqrt()
            } else {
                // Coincident pair: opposite directions from one hash of the unordered pair.
                let (i, j) = (entries[k], entries[kk]);
                let (lo, hi) = if i < j { (i, j) } else { (j, i) };
                let ang = (hash2(lo, hi) >> 8) as f32 * (std::f32::consts::TAU / 16_777_216.0);
                let d = Vec2::new(ang.cos(), ang.sin());
                if i < j {
                    d
                } else {
                    -d
                }
            };
            corr += dir * ((min - d2.sqrt()) * share * RELAXATION);
            true
        })
    });
    // One pass never moves an agent by more than its radius: a body squeezed between many
    // neighbours is eased out over a few steps instead of being launched.
    (corr.clamp_length_max(my_radius), hit)
}
