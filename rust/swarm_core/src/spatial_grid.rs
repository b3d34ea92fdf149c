//! Uniform 2D grid over the ground plane (x, z), rebuilt every step: by counting sort, or, when
//! the cells are the same as the last rebuild's and few agents changed cell, by filing those
//! anew (`grid_patch`), passing over blocks of agents the caller knows have not moved. The cells
//! cover the agents' bounds in whole tiles of a lattice fixed in space, so they stay put while
//! the bounds move within a tile; the cell size grows when the bounds would need too many cells.
//! Entries within a cell are in ascending agent index, so neighbour iteration order, and
//! with it every result, is deterministic. Each entry's position and body radius sit together in
//! one 16-byte record in cell order, so a neighbour loop reads contiguous memory and never
//! touches the per-agent arrays.

use glam::{Vec2, Vec3, Vec4};
use rayon::prelude::*;

use crate::grid_patch::{self, Filing, PatchScratch};
use crate::grid_sort;
use crate::scatter::Scatter;

#[derive(Clone, Debug, Default)]
pub struct SpatialGrid {
    /// The nominal cell size (see `CELL_SHAPE`).
    cell_size: f32,
    /// The least cell size the last rebuild was asked for (`cell_size` is it, or a doubling).
    min_cell_size: f32,
    /// 1 / the cell's width (x) and depth (z).
    inv_cell: Vec2,
    origin: Vec2,
    /// The ground-plane bounds of the positions the grid was last rebuilt for (the cells cover
    /// them, in whole tiles).
    filed: (Vec2, Vec2),
    dims_x: u32,
    dims_z: u32,
    /// The last cell's column and row, as floats (queries clamp before converting).
    last_x: f32,
    last_z: f32,
    /// `cell_start[c]..cell_start[c + 1]` indexes `entries` for cell `c`.
    cell_start: Vec<u32>,
    /// Agent indices sorted by cell.
    entries: Vec<u32>,
    /// By agent index: its position in `entries` (its rank).
    rank: Vec<u32>,
    /// By agent index: its cell in the last rebuild.
    cell: Vec<u32>,
    /// By agent index: its cell in the rebuild under way (swapped with `cell` at the end).
    next_cell: Vec<u32>,
    /// By agent index: its body radius, read from the caller at the first rebuild after a
    /// `forget` and kept since (4 bytes an agent to read each rebuild instead of its parameters).
    radius: Vec<f32>,
    /// The patch's buffers (`grid_patch`).
    patch: PatchScratch,
    /// `(x, z, y, radius)` in `entries` order: ground-plane position, height (agents on
    /// another floor are not neighbours) and body radius.
    sorted: Vec<Vec4>,
}

const PAR_CHUNK: usize = 4096;

/// Agents whose heights differ by more than this stand on different floors: not neighbours.
pub const LAYER_GAP: f32 = 1.2;

/// A cell's width (x) and depth (z) as multiples of the nominal cell size. Cells are half as wide
/// and twice as deep as a square cell of the same area: a query square as wide as the nominal
/// cell then spans two rows instead of three, with longer runs of records in each, over about
/// the same area (fewer row set-ups, fuller blocks in `for_each_near`).
const CELL_SHAPE: Vec2 = Vec2::new(0.5, 2.0);

/// The tiles of the storage order (`tile_order`): `TILE_W` columns by `TILE_H` rows of cells,
/// with `CELL_SHAPE` 8 by 16 nominal cell sizes of ground (about 120 agents of a crowd at
/// 1.5 m² each, so a far block is about one tile; of the shapes measured, 8 by 2, 16 by 4, 16
/// by 8 and 32 by 8 cells, the one with the cheapest step at 100,000 agents).
const TILE_W: u32 = 16;
const TILE_H: u32 = 8;

/// A rebuild files only the agents that changed cell (`grid_patch`) when they are at most one in
/// this many (and the cells are the same); otherwise it sorts everyone again.
const PATCH_SHARE: usize = 16;

/// Which agents stand exactly where they stood at the last rebuild, by blocks of `block`
/// consecutive agents (`blocks[b]` for agents `b * block..`): a rebuild with the same cells passes
/// over them (their cells and records are as they were). Empty: none known.
#[derive(Clone, Copy, Debug, Default)]
pub struct Unmoved<'a> {
    pub blocks: &'a [bool],
    pub block: usize,
}

impl Unmoved<'_> {
    #[inline]
    fn at(&self, b: usize) -> bool {
        self.blocks.get(b) == Some(&true)
    }

    /// None known, as the rebuild reads it: no blocks, or blocks of no agents.
    #[inline]
    fn none(&self) -> bool {
        self.blocks.is_empty() || self.block == 0
    }
}

/// Copies from `from` into `to` the blocks of `unmoved.block` agents that `unmoved` names
/// (`named`) or those it does not (the cells a pass over some blocks wrote, or left).
fn copy_blocks(from: &[u32], to: &mut [u32], unmoved: Unmoved, named: bool) {
    to.par_chunks_mut(unmoved.block).zip(from.par_chunks(unmoved.block)).enumerate().for_each(|(b, (to, from))| {
        if unmoved.at(b) == named {
            to.copy_from_slice(from);
        }
    });
}

/// Records a neighbour loop tests at once in `for_each_near`.
const NEAR_BLOCK: usize = 8;

/// A neighbour test on the grid's records: a record `e` at rank `k` is near when its ground
/// distance from `p` is below `reach` (plus the record's own radius `e.w` when `add_radius`), its
/// height is within `LAYER_GAP` of `y`, and `k` is not `skip` (the asking agent's own rank).
#[derive(Clone, Copy, Debug)]
pub struct Near {
    pub p: Vec2,
    pub y: f32,
    pub reach: f32,
    pub add_radius: bool,
    pub skip: usize,
}

impl Near {
    /// The distance and height test for one record (the `skip` test is the caller's). Written as
    /// the negated rejections, so a NaN distance counts as near (as the loops always had it).
    #[inline(always)]
    #[allow(clippy::neg_cmp_op_on_partial_ord)]
    fn holds(&self, e: Vec4) -> bool {
        let (dx, dz) = (self.p.x - e.x, self.p.y - e.y);
        let m = if self.add_radius { self.reach + e.w } else { self.reach };
        !(dx * dx + dz * dz >= m * m) & !((e.z - self.y).abs() > LAYER_GAP)
    }

    /// Bit `j` set where record `k0 + j` of `records[k0..k0 + len]` is near (`len <= NEAR_BLOCK`).
    #[inline(always)]
    fn bits(&self, records: &[Vec4], k0: usize, len: usize) -> u32 {
        debug_assert!(len <= NEAR_BLOCK && k0 + len <= records.len());
        let mut bits = 0u32;
        #[cfg(target_arch = "x86_64")]
        let scalar = k0 + NEAR_BLOCK > records.len();
        #[cfg(not(target_arch = "x86_64"))]
        let scalar = true;
        if scalar {
            for (j, &e) in records[k0..k0 + len].iter().enumerate() {
                bits |= (self.holds(e) as u32) << j;
            }
        } else {
            // Two groups of four (records past `len` are read but their bits dropped).
            #[cfg(target_arch = "x86_64")]
            {
                let group = &records[k0..k0 + NEAR_BLOCK];
                bits = self.bits4(&group[..4]);
                if len > 4 {
                    bits |= self.bits4(&group[4..]) << 4;
                }
            }
        }
        bits &= (1u32 << len) - 1;
        // The asking agent's own record, if in the block.
        let skip = self.skip.wrapping_sub(k0);
        bits & !(((skip < len) as u32) << (skip & 31))
    }

    /// `holds` for four records at once (SSE, which every x86-64 processor has): the same float
    /// operations lane by lane, so the same answers.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn bits4(&self, four: &[Vec4]) -> u32 {
        use std::arch::x86_64::*;
        debug_assert_eq!(four.len(), 4);
        // SAFETY: SSE is part of x86-64; the four records are read from a slice of four.
        unsafe {
            let ptr = four.as_ptr() as *const f32;
            let (mut r0, mut r1, mut r2, mut r3) =
                (_mm_loadu_ps(ptr), _mm_loadu_ps(ptr.add(4)), _mm_loadu_ps(ptr.add(8)), _mm_loadu_ps(ptr.add(12)));
            _MM_TRANSPOSE4_PS(&mut r0, &mut r1, &mut r2, &mut r3);
            // r0: the four x, r1: the four z, r2: the four heights, r3: the four radii.
            let dx = _mm_sub_ps(_mm_set1_ps(self.p.x), r0);
            let dz = _mm_sub_ps(_mm_set1_ps(self.p.y), r1);
            let d2 = _mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dz, dz));
            let reach = _mm_set1_ps(self.reach);
            let m = if self.add_radius { _mm_add_ps(reach, r3) } else { reach };
            let far = _mm_cmpge_ps(d2, _mm_mul_ps(m, m));
            let dy = _mm_andnot_ps(_mm_set1_ps(-0.0), _mm_sub_ps(r2, _mm_set1_ps(self.y)));
            let other_floor = _mm_cmpgt_ps(dy, _mm_set1_ps(LAYER_GAP));
            (!_mm_movemask_ps(_mm_or_ps(far, other_floor)) & 0xf) as u32
        }
    }
}

/// Calls `f(k)` for every record `k` in `a..b` that `near` accepts, in ascending order
/// (descending when `backward`), until `f` returns false; returns false when stopped. The test
/// runs on a block of records at a time (four at once on x86-64) without branching and only the
/// accepted records are visited, so a dense crowd, where about a third of the candidates pass
/// a radius test at random, costs no branch misprediction per candidate. The same calls, in the
/// same order, as a plain loop.
#[inline(always)]
pub fn for_each_near(
    records: &[Vec4],
    a: usize,
    b: usize,
    backward: bool,
    near: &Near,
    mut f: impl FnMut(usize) -> bool,
) -> bool {
    if backward {
        let mut end = b;
        while end > a {
            let len = (end - a).min(NEAR_BLOCK);
            let k0 = end - len;
            let mut bits = near.bits(records, k0, len);
            while bits != 0 {
                let j = 31 - bits.leading_zeros() as usize;
                bits &= !(1 << j);
                if !f(k0 + j) {
                    return false;
                }
            }
            end = k0;
        }
    } else {
        let mut k0 = a;
        while k0 < b {
            let len = (b - k0).min(NEAR_BLOCK);
            let mut bits = near.bits(records, k0, len);
            while bits != 0 {
                let j = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !f(k0 + j) {
                    return false;
                }
            }
            k0 += len;
        }
    }
    true
}

impl SpatialGrid {
    pub fn with_capacity(agents: usize) -> Self {
        Self {
            // A crowd needs about one or two cells per agent; sparser spreads grow it (rarely).
            cell_start: Vec::with_capacity(agents * 2 + 4097),
            entries: Vec::with_capacity(agents),
            rank: Vec::with_capacity(agents),
            cell: Vec::with_capacity(agents),
            next_cell: Vec::with_capacity(agents),
            radius: Vec::with_capacity(agents),
            sorted: Vec::with_capacity(agents),
            ..Default::default()
        }
    }

    pub fn heap_bytes(&self) -> usize {
        (self.cell_start.capacity()
            + self.entries.capacity()
            + self.rank.capacity()
            + self.cell.capacity()
            + self.next_cell.capacity()
            + self.radius.capacity())
            * 4
            + self.patch.heap_bytes()
            + self.sorted.capacity() * 16
    }

    /// Agent indices in cell order (row by row, ascending index within a cell).
    pub fn order(&self) -> &[u32] {
        &self.entries
    }

    /// The ground-plane rectangle the cells cover: (lowest corner, highest corner).
    pub fn bounds(&self) -> (Vec2, Vec2) {
        let size = Vec2::new(self.dims_x as f32, self.dims_z as f32) / self.inv_cell;
        (self.origin, self.origin + size)
    }

    /// The ground-plane bounds of the agents' positions at the last rebuild: (lowest corner,
    /// highest corner).
    pub fn agent_bounds(&self) -> (Vec2, Vec2) {
        self.filed
    }

    /// The nominal cell size: cells are `CELL_SHAPE` times it, wide and deep.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// The least cell size the last rebuild was asked for: a rebuild of the same positions for
    /// it gives this very grid.
    pub fn min_cell_size(&self) -> f32 {
        self.min_cell_size
    }

    /// Rebuilds the grid for `pos` (body radius of agent `i`: `radius(i)`) with cells of at least
    /// `min_cell_size`.
    pub fn rebuild(&mut self, pos: &[Vec3], radius: &(impl Fn(usize) -> f32 + Sync), min_cell_size: f32) {
        self.rebuild_within(pos, radius, min_cell_size, bounds(pos), Unmoved::default());
    }

    /// `rebuild` for positions whose ground-plane bounds `(min, max)` the caller already has
    /// (a pass that wrote them folds them in: one read of the positions less), and which know the
    /// blocks of agents that have not moved since the last rebuild (`unmoved`, or none). The
    /// result is the same either way.
    pub fn rebuild_within(
        &mut self,
        pos: &[Vec3],
        radius: &(impl Fn(usize) -> f32 + Sync),
        min_cell_size: f32,
        (lo, hi): (Vec2, Vec2),
        unmoved: Unmoved,
    ) {
        let n = pos.len();
        debug_assert!(n == 0 || (lo, hi) == bounds(pos));
        let extent = (hi - lo).max(Vec2::splat(1e-3));
        // At most ~4 cells per agent (and a floor for small counts), so memory stays bounded
        // when a few agents are far apart, counting the whole tiles the frame rounds out to (up
        // to two tiles more along each axis: one where the origin snaps down, one rounding up).
        let max_cells = (n * 4 + 4096) as f32;
        let mut cell = min_cell_size.max(1e-3);
        let whole_tiles = Vec2::new(TILE_W as f32, TILE_H as f32) * 2.0;
        let cells_over = |cell: f32| ((extent / (CELL_SHAPE * cell)).floor() + 1.0 + whole_tiles).element_product();
        while cells_over(cell) > max_cells {
            cell *= 2.0;
        }
        let inv_cell = Vec2::ONE / (CELL_SHAPE * cell);
        // The frame: whole tiles (`TILE_W` by `TILE_H` cells) of a lattice fixed in space, so it
        // stays put while the bounds move within their outer tiles and a rebuild can patch.
        let tile = Vec2::new(TILE_W as f32, TILE_H as f32) / inv_cell;
        let origin = (lo / tile).floor() * tile;
        let dims_x = (((hi.x - origin.x) * inv_cell.x) as u32 + 1).next_multiple_of(TILE_W);
        let dims_z = (((hi.y - origin.y) * inv_cell.y) as u32 + 1).next_multiple_of(TILE_H);
        // The same cells as the last rebuild, for as many agents: only the agents that changed
        // cell need filing anew (`grid_patch`), and those that have not moved none of it.
        let same_cells = self.cell.len() == n
            && self.sorted.len() == n
            && (self.cell_size, self.inv_cell, self.origin, self.dims_x, self.dims_z)
                == (cell, inv_cell, origin, dims_x, dims_z);
        let unmoved = if same_cells && !unmoved.none() { unmoved } else { Unmoved::default() };
        debug_assert!(unmoved.blocks.is_empty() || PAR_CHUNK.is_multiple_of(unmoved.block));
        self.cell_size = cell;
        self.min_cell_size = min_cell_size;
        self.inv_cell = inv_cell;
        self.origin = origin;
        self.filed = (lo, hi);
        self.dims_x = dims_x;
        self.dims_z = dims_z;
        self.last_x = (self.dims_x - 1) as f32;
        self.last_z = (self.dims_z - 1) as f32;

        self.next_cell.resize(n, 0);
        let (inv, dims, last) = (self.inv_cell, (self.dims_x, self.dims_z), (self.last_x, self.last_z));
        let old = &self.cell[..if same_cells { n } else { 0 }];
        // The cells of the agents that may have moved (every agent, unless `unmoved` says), and
        // how many changed cell.
        let movers: usize = self
            .next_cell
            .par_chunks_mut(PAR_CHUNK)
            .zip(pos.par_chunks(PAR_CHUNK))
            .enumerate()
            .map(|(ci, (out, p))| {
                let was = old.get(ci * PAR_CHUNK..ci * PAR_CHUNK + out.len()).unwrap_or(&[]);
                let step = if unmoved.blocks.is_empty() { out.len() } else { unmoved.block };
                let mut movers = 0;
                for b0 in (0..out.len()).step_by(step.max(1)) {
                    let b1 = (b0 + step).min(out.len());
                    if unmoved.at((ci * PAR_CHUNK + b0) / step) {
                        continue;
                    }
                    for (c, p) in out[b0..b1].iter_mut().zip(&p[b0..b1]) {
                        *c = cell_of(origin, inv, dims, last, Vec2::new(p.x, p.z));
                    }
                    let was = was.get(b0..b1).unwrap_or(&[]);
                    movers += was.iter().zip(&out[b0..b1]).filter(|(a, b)| a != b).count();
                }
                movers
            })
            .sum();
        // The radii: kept since the last `forget` (the same agents, with the same radii), else
        // read anew.
        if self.cell.len() != n || self.radius.len() != n {
            self.radius.resize(n, 0.0);
            self.radius.par_chunks_mut(PAR_CHUNK).enumerate().for_each(|(ci, out)| {
                for (k, r) in out.iter_mut().enumerate() {
                    *r = radius(ci * PAR_CHUNK + k);
                }
            });
        }
        if same_cells && movers * PATCH_SHARE <= n {
            self.refile_movers(unmoved);
            if unmoved.blocks.is_empty() {
                std::mem::swap(&mut self.cell, &mut self.next_cell);
                self.refresh_positions(pos);
            } else {
                self.refresh_moved(pos, unmoved);
            }
        } else {
            if !unmoved.blocks.is_empty() {
                // The cells the pass over the moved blocks did not write.
                copy_blocks(&self.cell, &mut self.next_cell, unmoved, true);
            }
            self.sort_by_cell();
            std::mem::swap(&mut self.cell, &mut self.next_cell);
            self.refresh_positions(pos);
        }
        // What a full sort and refresh give (`forget` keeps the kept radii true).
        debug_assert!(self.filing_holds());
        debug_assert!(self.entries.iter().zip(&self.sorted).all(|(&i, e)| {
            let p = pos[i as usize];
            e.to_array().map(f32::to_bits) == [p.x, p.z, p.y, radius(i as usize)].map(f32::to_bits)
        }));
    }

    /// Files anew the agents whose cell changed (`cell` to `next_cell`; the same cells and agent
    /// count, the blocks `unmoved` names passed over), and leaves every agent's cell in `cell`
    /// when `unmoved` names any (else `next_cell` holds them all, to be swapped in).
    fn refile_movers(&mut self, unmoved: Unmoved) {
        let (cell, next, s) = (&self.cell, &self.next_cell, &mut self.patch);
        // Sixteen agents at a time compared at once (most of them stand still), or a block at a
        // time.
        let step = if unmoved.blocks.is_empty() { 16 } else { unmoved.block };
        for (b, (from, to)) in cell.chunks(step).zip(next.chunks(step)).enumerate() {
            if unmoved.at(b) || from.iter().zip(to).fold(0, |d, (a, b)| d | (a ^ b)) == 0 {
                continue;
            }
            for (k, (&from, &to)) in from.iter().zip(to).enumerate() {
                if from != to {
                    s.arrive.push(((to as u64) << 32) | (b * step + k) as u64);
                }
            }
        }
        let filing = Filing {
            cell_start: &mut self.cell_start,
            entries: &mut self.entries,
            rank: &mut self.rank,
            records: &mut self.sorted,
        };
        grid_patch::patch(filing, &self.cell, &mut self.patch);
        if !unmoved.blocks.is_empty() {
            copy_blocks(&self.next_cell, &mut self.cell, unmoved, false);
        }
    }

    /// Writes the records of the agents outside the blocks `unmoved` names, at their ranks (the
    /// others' records already hold their positions).
    fn refresh_moved(&mut self, pos: &[Vec3], unmoved: Unmoved) {
        let records = Scatter::new(&mut self.sorted);
        let (rank, radius) = (&self.rank, &self.radius);
        pos.par_chunks(unmoved.block).zip(rank.par_chunks(unmoved.block)).enumerate().for_each(|(b, (ps, rs))| {
            if unmoved.at(b) {
                return;
            }
            for (k, (p, &r)) in ps.iter().zip(rs).enumerate() {
                // SAFETY: `rank` is a permutation: each rank is written once.
                unsafe { records.write(r as usize, Vec4::new(p.x, p.z, p.y, radius[b * unmoved.block + k])) };
            }
        });
    }

    /// Whether the filing is the one a counting sort of `cell` gives: each cell's entries in
    /// ascending agent index, and each agent's rank its place (a check for debug builds).
    fn filing_holds(&self) -> bool {
        let cells = (self.dims_x * self.dims_z) as usize;
        self.cell_start.len() == cells + 1
            && self.cell_start[cells] as usize == self.entries.len()
            && (0..cells).all(|c| {
                let run = &self.entries[self.cell_start[c] as usize..self.cell_start[c + 1] as usize];
                run.iter().all(|&i| self.cell[i as usize] == c as u32) && run.windows(2).all(|w| w[0] < w[1])
            })
            && self.entries.iter().enumerate().all(|(k, &i)| self.rank[i as usize] == k as u32)
    }

    /// Forgets the last rebuild's filing, so the next rebuild sorts everyone and reads every
    /// radius: to be called whenever an agent index may come to stand for another agent (storage
    /// reordered, agents added or removed) or an agent's radius may change.
    pub fn forget(&mut self) {
        self.cell.clear();
    }

    /// The agents tile by tile into `out`: tiles of `TILE_W` by `TILE_H` cells (compact patches
    /// of ground), a row of tiles at a time, and within a tile in cell order. Storage permuted into
    /// it keeps neighbours in space near in memory, and any run of consecutive agents (a far
    /// block, `far_blocks`) covers a compact patch of ground instead of a strip one cell deep.
    pub fn tile_order(&self, out: &mut Vec<u32>) {
        out.clear();
        let start = |c: u32| self.cell_start[c as usize] as usize;
        for tz in (0..self.dims_z).step_by(TILE_H as usize) {
            for tx in (0..self.dims_x).step_by(TILE_W as usize) {
                let x1 = (tx + TILE_W).min(self.dims_x);
                for z in tz..(tz + TILE_H).min(self.dims_z) {
                    let row = z * self.dims_x;
                    out.extend_from_slice(&self.entries[start(row + tx)..start(row + x1)]);
                }
            }
        }
        debug_assert_eq!(out.len(), self.entries.len());
    }

    /// Storage was just permuted by `order` (the agent now at index `k` is the one that was at
    /// `order[k]`), which lists each cell's agents together in ascending index (as `order` and
    /// `tile_order` do): files the agents under their new indices as a rebuild for the permuted
    /// positions would, without one. Each agent keeps its cell, rank and radius; the entries are
    /// renamed; the starts and records stay as they are.
    pub fn follow_storage_order(&mut self, order: &[u32]) {
        debug_assert_eq!(self.cell.len(), order.len(), "follow_storage_order after forget");
        let gather = |from: &[u32], to: &mut Vec<u32>| {
            to.resize(order.len(), 0);
            to.par_chunks_mut(PAR_CHUNK).zip(order.par_chunks(PAR_CHUNK)).for_each(|(out, idx)| {
                for (v, &j) in out.iter_mut().zip(idx) {
                    *v = from[j as usize];
                }
            });
        };
        gather(&self.cell, &mut self.next_cell);
        std::mem::swap(&mut self.cell, &mut self.next_cell);
        gather(&self.rank, &mut self.next_cell);
        std::mem::swap(&mut self.rank, &mut self.next_cell);
        // The agent at index `k` is the one at rank `rank[k]`.
        let entries = Scatter::new(&mut self.entries);
        self.rank.par_chunks(PAR_CHUNK).enumerate().for_each(|(ci, rs)| {
            for (k, &r) in rs.iter().enumerate() {
                // SAFETY: `rank` is a permutation: each rank is written once.
                unsafe { entries.write(r as usize, (ci * PAR_CHUNK + k) as u32) };
            }
        });
        // Each record holds its agent's radius.
        let sorted = &self.sorted;
        self.radius.resize(order.len(), 0.0);
        self.radius.par_chunks_mut(PAR_CHUNK).zip(self.rank.par_chunks(PAR_CHUNK)).for_each(|(out, rs)| {
            for (r, &k) in out.iter_mut().zip(rs) {
                *r = sorted[k as usize].w;
            }
        });
        debug_assert!(self
            .entries
            .windows(2)
            .all(|w| self.cell[w[0] as usize] != self.cell[w[1] as usize] || w[0] < w[1]));
    }

    /// Files every agent by `next_cell`, by counting sort (`grid_sort`).
    fn sort_by_cell(&mut self) {
        let cells = (self.dims_x * self.dims_z) as usize;
        grid_sort::sort_by_cell(&self.next_cell, cells, &mut self.cell_start, &mut self.entries, &mut self.rank);
    }

    /// Copies the agents' positions and kept radii into the cell-ordered records (the last part
    /// of a rebuild).
    fn refresh_positions(&mut self, pos: &[Vec3]) {
        self.sorted.resize(self.entries.len(), Vec4::ZERO);
        let radius = &self.radius;
        self.sorted.par_chunks_mut(PAR_CHUNK).zip(self.entries.par_chunks(PAR_CHUNK)).for_each(|(out, idx)| {
            for (o, &i) in out.iter_mut().zip(idx) {
                let p = pos[i as usize];
                *o = Vec4::new(p.x, p.z, p.y, radius[i as usize]);
            }
        });
    }

    /// `(x, z, y, radius)` of each entry, in `entries` order.
    pub fn sorted(&self) -> &[Vec4] {
        &self.sorted
    }

    /// The cell-ordered records, to be moved in place (a solver's passes).
    pub fn sorted_mut(&mut self) -> &mut [Vec4] {
        &mut self.sorted
    }

    /// Each agent's index into `entries` / `sorted`.
    pub fn rank(&self) -> &[u32] {
        &self.rank
    }

    /// The cell-ordered records, to write, and the ranks beside them.
    pub fn sorted_mut_and_rank(&mut self) -> (&mut [Vec4], &[u32]) {
        (&mut self.sorted, &self.rank)
    }

    /// Swaps the cell-ordered records with `other` (same length): a solver that writes new
    /// positions in cell order hands them back without a gather.
    pub fn swap_sorted(&mut self, other: &mut Vec<Vec4>) {
        debug_assert_eq!(other.len(), self.sorted.len());
        std::mem::swap(&mut self.sorted, other);
    }

    /// Index ranges into the cell-ordered entries covering the square around `center` of
    /// half-size `radius`, row by row; `f` returns `false` to stop.
    #[inline]
    pub fn for_each_row(&self, center: Vec2, radius: f32, f: impl FnMut(usize, usize) -> bool) {
        self.for_each_row_either_way(center, radius, false, f);
    }

    /// Like `for_each_row`, with the rows walked downward when `backward` (callers then walk each
    /// range backward too): a query that stops early (a sample cap) and picks the way per call
    /// leans no way on average.
    #[inline(always)]
    pub fn for_each_row_either_way(
        &self,
        center: Vec2,
        radius: f32,
        backward: bool,
        f: impl FnMut(usize, usize) -> bool,
    ) {
        if self.dims_x == 0 {
            return;
        }
        let lo = (center - Vec2::splat(radius) - self.origin) * self.inv_cell;
        let hi = (center + Vec2::splat(radius) - self.origin) * self.inv_cell;
        if hi.x < 0.0 || hi.y < 0.0 || lo.x >= self.last_x + 1.0 || lo.y >= self.last_z + 1.0 {
            return;
        }
        let cell = clamped_cell;
        let (x0, z0) = (cell(lo.x, self.last_x, self.dims_x), cell(lo.y, self.last_z, self.dims_z));
        let (x1, z1) = (cell(hi.x, self.last_x, self.dims_x), cell(hi.y, self.last_z, self.dims_z));
        self.rows([x0, z0, x1, z1], backward, f);
    }

    /// The cells `[x0, z0, x1, z1]` of the square around `center` of half-size `radius`, as
    /// `for_each_row_either_way` finds them (the same float operations, on four lanes), but with
    /// no test for a square wholly outside the cells (it clamps onto edge cells instead of
    /// finding none): only for callers that test each record's exact distance, about a centre
    /// the cells cover (the neighbour queries': an agent's own position at the last rebuild).
    #[inline(always)]
    fn clamped_window(&self, center: Vec2, radius: f32) -> [u32; 4] {
        let two = |v: Vec2| Vec4::new(v.x, v.y, v.x, v.y);
        // `c - -r` is `c + r` exactly, so the lanes are `lo` and `hi` as the rows find them.
        let v = (two(center) - Vec4::new(radius, radius, -radius, -radius) - two(self.origin)) * two(self.inv_cell);
        let last = Vec4::new(self.last_x, self.last_z, self.last_x, self.last_z);
        clamp_cells(v, last, [self.dims_x, self.dims_z, self.dims_x, self.dims_z])
    }

    /// The row ranges of the cells `x0..=x1` by `z0..=z1` (clamped into the grid), downward when
    /// `backward`, until `f` returns false.
    #[inline(always)]
    fn rows(&self, [x0, z0, x1, z1]: [u32; 4], backward: bool, mut f: impl FnMut(usize, usize) -> bool) {
        debug_assert!(((z1 * self.dims_x + x1 + 1) as usize) < self.cell_start.len());
        for r in 0..=(z1 - z0) {
            let z = if backward { z1 - r } else { z0 + r };
            let row = z * self.dims_x;
            // SAFETY: x0 <= x1 < dims_x and z < dims_z, so both indices are at most
            // dims_x * dims_z, and `cell_start` holds dims_x * dims_z + 1 entries.
            let (a, b) = unsafe {
                (
                    *self.cell_start.get_unchecked((row + x0) as usize) as usize,
                    *self.cell_start.get_unchecked((row + x1 + 1) as usize) as usize,
                )
            };
            if a < b && !f(a, b) {
                return;
            }
        }
    }

    /// Calls `f(k)` for the rank `k` (into `sorted`) of every record near agent `i` at `p`, height
    /// `y`: ground distance below `reach`, height within `LAYER_GAP`, and not `i`'s own record.
    /// Rows and records in cell order, both reversed when `backward`, until `f` returns false
    /// (the walk of `for_each_near`).
    #[inline(always)]
    pub fn for_each_neighbour(
        &self,
        i: u32,
        p: Vec2,
        y: f32,
        reach: f32,
        backward: bool,
        mut f: impl FnMut(usize) -> bool,
    ) {
        let skip = self.rank.get(i as usize).map_or(usize::MAX, |&k| k as usize);
        let near = Near { p, y, reach, add_radius: false, skip };
        let records = &self.sorted[..];
        if self.dims_x == 0 {
            return;
        }
        // `f` is called through a closure of its own: handing on `&mut f` kept Personal Space's
        // visit out of line (4 % more instructions in the steering step).
        #[allow(clippy::redundant_closure)]
        self.rows(self.clamped_window(p, reach), backward, |a, b| {
            for_each_near(
                records,
                a,
                b,
                backward,
                &near,
                #[inline(always)]
                |k| f(k),
            )
        });
    }

    /// Like `for_each_candidate`, with each candidate's body radius: `f(j, position_j, radius_j)`.
    #[inline]
    pub fn for_each_body(&self, center: Vec2, y: f32, radius: f32, mut f: impl FnMut(u32, Vec2, f32) -> bool) {
        self.for_each_row(center, radius, |a, b| {
            for (&j, e) in self.entries[a..b].iter().zip(&self.sorted[a..b]) {
                if (e.z - y).abs() > LAYER_GAP {
                    continue;
                }
                if !f(j, Vec2::new(e.x, e.y), e.w) {
                    return false;
                }
            }
            true
        });
    }

    /// Calls `f(j, position_j)` for every agent whose cell overlaps the square around `center` of
    /// half-size `radius` and whose height is within `LAYER_GAP` of `y` (NaN: any height), in
    /// deterministic order, until `f` returns `false`. The caller filters by distance. Positions
    /// are those of the last rebuild (or of body blocking, while it runs).
    #[inline]
    pub fn for_each_candidate(&self, center: Vec2, y: f32, radius: f32, mut f: impl FnMut(u32, Vec2) -> bool) {
        self.for_each_body(center, y, radius, |j, q, _| f(j, q));
    }

    /// Agents within `radius` of `center` (ground-plane distance), appended to `out`.
    pub fn query_radius(&self, center: Vec2, radius: f32, out: &mut Vec<u32>) {
        let r2 = radius * radius;
        self.for_each_candidate(center, f32::NAN, radius, |j, q| {
            if q.distance_squared(center) <= r2 {
                out.push(j);
            }
            true
        });
    }
}

#[inline]
fn cell_of(origin: Vec2, inv: Vec2, (dx, dz): (u32, u32), (last_x, last_z): (f32, f32), p: Vec2) -> u32 {
    // Positions are never below the origin (it is their minimum), so truncation is floor.
    let c = (p - origin) * inv;
    clamped_cell(c.y, last_z, dz) * dx + clamped_cell(c.x, last_x, dx)
}

/// Column (or row) of a position `v` in cells from the origin, clamped into the grid's `dims`
/// (`last`: `dims - 1` as a float). A NaN clamps too, so the conversion cannot overflow: the float
/// clamp and a plain conversion cost a few instructions where a saturating `as u32` costs many,
/// and this runs for every agent of a rebuild and every neighbour query.
#[inline]
fn clamped_cell(v: f32, last: f32, dims: u32) -> u32 {
    let v = v.max(0.0).min(last);
    // SAFETY: `v` is finite and within 0..=last, and last < 2^32.
    unsafe { v.to_int_unchecked::<u32>() }.min(dims - 1)
}

/// `clamped_cell` on four lanes: lane `k` of `v` clamped into `0..=last[k]` (a NaN lane to 0),
/// truncated, and kept below `dims[k]` (`last` below 2^31).
#[inline(always)]
fn clamp_cells(v: Vec4, last: Vec4, dims: [u32; 4]) -> [u32; 4] {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: SSE2 is part of x86-64; the store writes four lanes into an array of four.
    // (`_mm_max_ps(v, 0)` gives its second operand for a NaN `v`: 0, as `f32::max` does.)
    let t = unsafe {
        use std::arch::x86_64::*;
        let clamped = _mm_min_ps(_mm_max_ps(v.into(), _mm_setzero_ps()), last.into());
        let mut out = [0u32; 4];
        _mm_storeu_si128(out.as_mut_ptr() as *mut __m128i, _mm_cvttps_epi32(clamped));
        out
    };
    #[cfg(target_arch = "x86_64")]
    return std::array::from_fn(|k| t[k].min(dims[k] - 1));
    // (Other processors' vector `max` may pass a NaN through: each lane is clamped as a float.)
    #[cfg(not(target_arch = "x86_64"))]
    return std::array::from_fn(|k| clamped_cell(v.to_array()[k], last.to_array()[k], dims[k]));
}

/// Ground-plane bounds of all positions (min and max are order-independent, so parallel is exact).
fn bounds(pos: &[Vec3]) -> (Vec2, Vec2) {
    if pos.is_empty() {
        return (Vec2::ZERO, Vec2::ZERO);
    }
    pos.par_chunks(PAR_CHUNK)
        .map(|c| c.iter().fold(Bounds::EMPTY, |b, p| Bounds::with(b, *p)))
        .reduce(|| Bounds::EMPTY, Bounds::union)
}

/// Ground-plane `(min, max)` folded over positions: start from `EMPTY`, add with `with`, merge
/// partial results with `union`.
pub struct Bounds;

impl Bounds {
    pub const EMPTY: (Vec2, Vec2) = (Vec2::splat(f32::MAX), Vec2::splat(f32::MIN));

    #[inline(always)]
    pub fn with((lo, hi): (Vec2, Vec2), p: Vec3) -> (Vec2, Vec2) {
        let q = Vec2::new(p.x, p.z);
        (lo.min(q), hi.max(q))
    }

    #[inline]
    pub fn union(a: (Vec2, Vec2), b: (Vec2, Vec2)) -> (Vec2, Vec2) {
        (a.0.min(b.0), a.1.max(b.1))
    }
}

#[cfg(test)]
#[path = "spatial_grid_tests.rs"]
mod tests;
