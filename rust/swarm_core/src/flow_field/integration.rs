//! Distance (integration) fields: for one target cell, the shortest route length from every
//! cell, over the 8-connected layered graph of a `SurfaceGrid` with the `ModifierLayer` on top.
//! Orthogonal steps cost `cell_size`, diagonal steps `cell_size * sqrt(2)` and are allowed only
//! when both orthogonal cells of the corner are linked and not route-blocked (no corner
//! cutting); route-blocked cells are impassable; entering a cost box adds its cost.
//!
//! The search is Dijkstra on a bucket queue whose buckets are half the cheapest step wide, so
//! every cell in the lowest bucket is final: no heap in the common case, and the result is the
//! exact Dijkstra result (each distance is the minimum over its neighbours of `d + w`, whatever
//! the order inside a bucket). Steps dearer than the bucket ring (cost boxes) wait in a small
//! overflow heap. `IntegrationJob` runs a budget of settled cells per call, so a caller can
//! spread a rebuild over several steps, and keeps its buffers between rebuilds.
//!
//! Alongside the route length, each settled cell gets a smooth (any-angle) distance from an
//! interpolating update over its already settled neighbours: the value at the best point on the
//! segment between an orthogonal and a diagonal neighbour, as in Field D* / Tsitsiklis. Its
//! descent directions are not limited to 8 headings; `direction` turns it into the flow.

use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::{FRAC_1_SQRT_2, SQRT_2};

use glam::Vec2;

use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, DIRS, NONE};

/// Buckets in the ring (a power of two, above the widest plain step in buckets, 2 * sqrt 2).
const RING: u64 = 8;

/// Cells `IntegrationJob::start` resets in about the time the search settles one (about 1 ns a
/// cell against 80 to 140 on the benchmark machine): a build's first slice settles that many
/// fewer cells, so the reset does not make it the dearest slice of a time-sliced rebuild.
const RESETS_PER_SETTLE: usize = 128;

/// One cell's values, stored together: the search reads both for every neighbour.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Node {
    /// Route length to the target (`INFINITY`: no route).
    pub dist: f32,
    /// Interpolated any-angle distance, for directions (`INFINITY`: not settled / no route).
    pub smooth: f32,
}

const UNREACHED: Node = Node { dist: f32::INFINITY, smooth: f32::INFINITY };

/// Route lengths and smooth distances to one target.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DistanceField {
    target: CellId,
    nodes: Vec<Node>,
}

impl DistanceField {
    pub fn new() -> Self {
        Self { target: NONE, nodes: Vec::new() }
    }

    /// The target cell (`NONE` before the first build).
    pub fn target(&self) -> CellId {
        self.target
    }

    /// Cells covered (0 before the first build).
    pub fn cell_count(&self) -> usize {
        self.nodes.len()
    }

    /// Route length from `cell` to the target, `INFINITY` where there is none.
    #[inline]
    pub fn distance(&self, cell: CellId) -> f32 {
        self.nodes.get(cell as usize).map_or(f32::INFINITY, |n| n.dist)
    }

    /// Smooth (any-angle) distance from `cell` to the target, `INFINITY` where there is no route.
    #[inline]
    pub fn smooth_distance(&self, cell: CellId) -> f32 {
        self.nodes.get(cell as usize).map_or(f32::INFINITY, |n| n.smooth)
    }

    #[inline]
    pub fn is_reachable(&self, cell: CellId) -> bool {
        self.distance(cell).is_finite()
    }

    /// Route lengths of every cell in id order.
    pub fn distances(&self) -> impl ExactSizeIterator<Item = f32> + '_ {
        self.nodes.iter().map(|n| n.dist)
    }

    /// Smooth distances of every cell in id order.
    pub fn smooth_distances(&self) -> impl ExactSizeIterator<Item = f32> + '_ {
        self.nodes.iter().map(|n| n.smooth)
    }

    pub(crate) fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * 8
    }
}

impl DistanceField {
    /// Checks a loaded field: empty (reads as no route anywhere, whatever its target: a slot's
    /// spare field starts so), or one node per cell with a target among them; no NaN.
    pub(crate) fn validate(&self, cells: usize) -> Result<(), String> {
        if self.nodes.is_empty() {
            return Ok(());
        }
        if self.nodes.len() != cells || (self.target != NONE && self.target as usize >= cells) {
            return Err(format!(
                "distance field of {} cells toward cell {} on a grid of {cells}",
                self.nodes.len(),
                self.target
            ));
        }
        check_nodes(&self.nodes)
    }
}

fn check_nodes(nodes: &[Node]) -> Result<(), String> {
    // Infinity (no route) or a route length well inside the range bucket numbers can hold.
    let ok = |d: f32| d == f32::INFINITY || (0.0..=1e12).contains(&d);
    if nodes.iter().any(|n| !ok(n.dist) || !ok(n.smooth)) {
        return Err("distance field holds a negative distance or one that is not a number".into());
    }
    Ok(())
}

/// A resumable distance-field build with its own reusable scratch.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct IntegrationJob {
    target: CellId,
    nodes: Vec<Node>,
    ring: Vec<Vec<CellId>>,
    /// Entries in `ring` not yet popped.
    ring_len: usize,
    /// Bucket being drained, and how far.
    cur: u64,
    pos: usize,
    overflow: BinaryHeap<Reverse<(u64, u32, CellId)>>,
    seq: u32,
    inv_bucket: f32,
    orth: f32,
    inv_orth: f32,
    diag: f32,
    settled: usize,
    /// Settles still owed for the reset of `start` (see `RESETS_PER_SETTLE`); taken from the
    /// next budgets. Not saved: a loaded build has paid it.
    #[serde(skip)]
    reset_debt: usize,
    done: bool,
}

impl Default for IntegrationJob {
    fn default() -> Self {
        Self::new()
    }
}

impl IntegrationJob {
    pub fn new() -> Self {
        Self {
            target: NONE,
            nodes: Vec::new(),
            ring: (0..RING).map(|_| Vec::new()).collect(),
            ring_len: 0,
            cur: 0,
            pos: 0,
            overflow: BinaryHeap::new(),
            seq: 0,
            inv_bucket: 1.0,
            orth: 1.0,
            inv_orth: 1.0,
            diag: SQRT_2,
            settled: 0,
            reset_debt: 0,
            done: true,
        }
    }

    /// Begins a build toward `target` (any previous build is dropped). The same grid and layer
    /// must be passed to every `run` until it is done; restart it when either changes.
    pub fn start(&mut self, grid: &SurfaceGrid, target: CellId) {
        let n = grid.cell_count();
        self.nodes.clear();
        self.nodes.resize(n, UNREACHED);
        for b in &mut self.ring {
            b.clear();
        }
        self.ring_len = 0;
        self.cur = 0;
        self.pos = 0;
        self.overflow.clear();
        self.seq = 0;
        self.orth = grid.cell_size();
        self.inv_orth = 1.0 / grid.cell_size();
        self.diag = grid.cell_size() * SQRT_2;
        self.inv_bucket = 2.0 / grid.cell_size();
        self.settled = 0;
        self.reset_debt = n / RESETS_PER_SETTLE;
        self.target = target;
        self.done = (target as usize) >= n;
        if !self.done {
            self.nodes[target as usize].dist = 0.0;
            self.push(target, 0.0);
        }
    }

    pub fn target(&self) -> CellId {
        self.target
    }

    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Cells of the grid the build was started on.
    pub fn cell_count(&self) -> usize {
        self.nodes.len()
    }

    /// Cells settled so far.
    pub fn settled(&self) -> usize {
        self.settled
    }

    /// Settles up to `budget` cells, less what is still owed for the reset of `start`; returns
    /// whether the build is complete.
    pub fn run(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, budget: usize) -> bool {
        let paid = self.reset_debt.min(budget);
        self.reset_debt -= paid;
        let budget = budget - paid;
        if self.nodes.len() != grid.cell_count() {
            // Not the grid it was started on: drop the build rather than index out of bounds.
            self.done = true;
            self.target = NONE;
        }
        if mods.is_empty() {
            self.run_with::<false>(grid, mods, budget)
        } else {
            self.run_with::<true>(grid, mods, budget)
        }
    }

    /// `run`, with the modifier checks compiled out when `M` is false (an empty layer).
    fn run_with<const M: bool>(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, mut budget: usize) -> bool {
        while !self.done && budget > 0 {
            let slot = (self.cur % RING) as usize;
            if self.pos < self.ring[slot].len() {
                let c = self.ring[slot][self.pos];
                // The links and values of a cell settled a few turns later: the wavefront visits
                // cells all over the grid, so without this nearly every settle waits on memory.
                if let Some(&ahead) = self.ring[slot].get(self.pos + PREFETCH_AHEAD) {
                    prefetch(grid.links(ahead));
                    prefetch(&self.nodes[ahead as usize]);
                }
                self.pos += 1;
                self.ring_len -= 1;
                if self.nodes[c as usize].smooth.is_finite() {
                    continue; // Settled through an earlier, cheaper entry.
                }
                self.settle::<M>(grid, mods, c);
                budget -= 1;
                continue;
            }
            self.ring[slot].clear();
            self.pos = 0;
            if self.ring_len == 0 {
                match self.overflow.peek() {
                    Some(&Reverse((k, _, _))) => self.cur = k,
                    None => {
                        self.done = true;
                        break;
                    }
                }
            } else {
                self.cur += 1;
            }
            while let Some(&Reverse((k, _, c))) = self.overflow.peek() {
                if k >= self.cur + RING {
                    break;
                }
                self.overflow.pop();
                self.ring[(k % RING) as usize].push(c);
                self.ring_len += 1;
            }
        }
        self.done
    }

    /// Settles cells in route order until every cell within `max_dist` of the target is settled
    /// (or the build is complete): a search bounded by distance instead of a cell budget.
    pub fn run_within(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, max_dist: f32) {
        while !self.done && self.cur as f32 / self.inv_bucket <= max_dist {
            self.run(grid, mods, 1024);
        }
    }

    /// Route length from a settled cell to the target (`INFINITY` while not settled).
    #[inline]
    pub fn settled_distance(&self, cell: CellId) -> f32 {
        match self.nodes.get(cell as usize) {
            Some(n) if n.smooth.is_finite() => n.dist,
            _ => f32::INFINITY,
        }
    }

    /// Moves a finished build into `field` (swapping buffers, so both keep their allocations).
    /// Returns false, and leaves `field` alone, while the build is not done.
    pub fn finish(&mut self, field: &mut DistanceField) -> bool {
        if !self.done || self.target == NONE {
            return false;
        }
        std::mem::swap(&mut self.nodes, &mut field.nodes);
        field.target = self.target;
        self.target = NONE;
        true
    }

    /// Checks a loaded build: its queue holds cells of the grid and the counts agree, its
    /// bucket numbers leave room to advance, its step lengths are the grid's (when started).
    pub(crate) fn validate(&self, grid: &SurfaceGrid) -> Result<(), String> {
        let cells = grid.cell_count();
        if self.ring.len() != RING as usize {
            return Err(format!("field build has {} buckets, not {RING}", self.ring.len()));
        }
        if self.nodes.is_empty() {
            // `run` drops a build whose nodes are not the grid's.
            return Ok(());
        }
        if self.nodes.len() != cells || (self.target != NONE && self.target as usize >= cells) {
            return Err(format!(
                "field build of {} cells toward cell {} on a grid of {cells}",
                self.nodes.len(),
                self.target
            ));
        }
        check_nodes(&self.nodes)?;
        let in_grid = |c: CellId| (c as usize) < cells;
        if !self.ring.iter().flatten().all(|&c| in_grid(c)) || !self.overflow.iter().all(|r| in_grid(r.0 .2)) {
            return Err("field build queues a cell outside the grid".into());
        }
        let current = &self.ring[(self.cur % RING) as usize];
        let queued: usize = self.ring.iter().map(Vec::len).sum();
        if self.pos > current.len() || self.ring_len != queued - self.pos {
            return Err("field build's queue counts disagree".into());
        }
        // Bucket numbers come from finite distances over a bounded grid; far from overflowing.
        const MAX_BUCKET: u64 = 1 << 48;
        if self.cur >= MAX_BUCKET || self.overflow.iter().any(|r| r.0 .0 >= MAX_BUCKET || r.0 .0 < self.cur) {
            return Err("field build's bucket numbers are out of range".into());
        }
        let cs = grid.cell_size();
        if self.orth != cs || self.diag != cs * SQRT_2 || self.inv_orth != 1.0 / cs || self.inv_bucket != 2.0 / cs {
            return Err("field build's step lengths are not the grid's".into());
        }
        if self.settled > cells {
            return Err("field build settled more cells than the grid has".into());
        }
        Ok(())
    }

    pub fn heap_bytes(&self) -> usize {
        self.nodes.capacity() * 8
            + self.ring.iter().map(|b| b.capacity() * 4).sum::<usize>()
            + self.overflow.capacity() * 16
    }

    #[inline]
    fn push(&mut self, c: CellId, d: f32) {
        let k = ((d * self.inv_bucket) as u64).max(self.cur);
        if k < self.cur + RING {
            self.ring[(k % RING) as usize].push(c);
            self.ring_len += 1;
        } else {
            self.overflow.push(Reverse((k, self.seq, c)));
            self.seq = self.seq.wrapping_add(1);
        }
    }

    /// Settles `c`: its smooth distance from the settled neighbours, and relaxation of the
    /// others, in one pass over the neighbours.
    #[inline]
    fn settle<const M: bool>(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, c: CellId) {
        let l = grid.links(c);
        let dc = self.nodes[c as usize].dist;
        let mut v = [f32::INFINITY; 8];
        for d in 0..8 {
            let n = l[d];
            if n == NONE {
                continue;
            }
            let step = if d % 2 == 0 {
                self.orth
            } else {
                // A diagonal link implies both orthogonal links (bake rule); only closures can
                // still cut the corner.
                if M && (blocked::<M>(mods, l[d - 1]) || blocked::<M>(mods, l[(d + 1) & 7])) {
                    continue;
                }
                self.diag
            };
            let open = !blocked::<M>(mods, n);
            let node = self.nodes[n as usize];
            // Settled: a value for the smooth update, as an agent at `c` would pay it. A select,
            // not a branch: whether a neighbour is settled is unpredictable.
            let usable = node.smooth.is_finite() & (open | (n == self.target));
            let val = node.smooth + entry::<M>(mods, c, n);
            v[d] = if usable { val } else { f32::INFINITY };
            // Reverse edge: an agent at `n` walks into `c`. A settled neighbour never passes the
            // test (its distance is below `dc + step / 2`), so no settled check is needed.
            let nd = dc + (step + entry::<M>(mods, n, c));
            if open && nd < node.dist {
                self.nodes[n as usize].dist = nd;
                self.push(n, nd);
            }
        }
        let s = if c == self.target { 0.0 } else { best_of(&v, self.orth, self.inv_orth).0 };
        // Always finite once settled (the settled predecessor guarantees a candidate).
        self.nodes[c as usize].smooth = if s.is_finite() { s } else { dc };
        self.settled += 1;
    }
}

/// How many queue entries ahead `run` asks for a cell's memory.
const PREFETCH_AHEAD: usize = 4;

/// Asks the processor to bring `r`'s cache line in (a hint: no effect on results).
#[inline(always)]
fn prefetch<T>(r: &T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch is a hint that never faults, and `r` is a valid reference anyway.
    unsafe {
        std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>((r as *const T).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = r;
}

/// Route-blocked, when modifier checks are on.
#[inline(always)]
fn blocked<const M: bool>(mods: &ModifierLayer, c: CellId) -> bool {
    M && mods.route_blocked(c)
}

/// Entry cost, when modifier checks are on.
#[inline(always)]
fn entry<const M: bool>(mods: &ModifierLayer, from: CellId, to: CellId) -> f32 {
    if M {
        mods.entry_cost(from, to)
    } else {
        0.0
    }
}

/// Builds the distance field toward `target` in one go, reusing `job`'s scratch.
pub fn integrate(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    target: CellId,
    job: &mut IntegrationJob,
    field: &mut DistanceField,
) {
    job.start(grid, target);
    job.run(grid, mods, usize::MAX);
    if !job.finish(field) {
        // Invalid target: an empty field of the right size.
        field.target = NONE;
        field.nodes.clear();
        field.nodes.resize(grid.cell_count(), UNREACHED);
    }
}

/// Values of `c`'s neighbours for the smooth update, as an agent at `c` would pay them
/// (entering cost included); `INFINITY` for a neighbour that is missing, unsettled,
/// route-blocked (unless it is `target`) or a diagonal that would cut a corner.
#[inline]
pub(crate) fn neighbour_values<const M: bool>(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    nodes: &[Node],
    c: CellId,
    target: CellId,
) -> [f32; 8] {
    let l = grid.links(c);
    let mut v = [f32::INFINITY; 8];
    for d in 0..8 {
        let n = l[d];
        if n == NONE || (n != target && blocked::<M>(mods, n)) {
            continue;
        }
        if d % 2 == 1 {
            let (o1, o2) = (l[d - 1], l[(d + 1) & 7]);
            if o1 == NONE || o2 == NONE || blocked::<M>(mods, o1) || blocked::<M>(mods, o2) {
                continue;
            }
        }
        let s = nodes[n as usize].smooth;
        if s.is_finite() {
            v[d] = s + entry::<M>(mods, c, n);
        }
    }
    v
}

/// The smooth update from neighbour values `v` (see `neighbour_values`): the least of
/// `orthogonal + cell`, `diagonal + cell * sqrt 2`, and for each orthogonal/diagonal pair the
/// value through the best point on the segment between them. Returns the value and the
/// (unnormalised) ground-plane direction toward that point; `(INFINITY, ZERO)` when every
/// value is infinite.
#[inline(always)]
pub(crate) fn best_of(v: &[f32; 8], cell: f32, inv_cell: f32) -> (f32, Vec2) {
    // Candidates 0..8: straight to neighbour d. 8..12: for diagonal `2k + 1`, the segment to it
    // from the lower of its two orthogonal partners (the segment value only grows with the
    // orthogonal value, so the other partner never does better). Computed without branches (the
    // outcomes are data dependent and mispredict); the fraction `s` is clamped to the segment,
    // where its ends are never better than the straight candidates.
    let mut w = [0.0f32; 12];
    let mut sv = [0.0f32; 4];
    let mut side = [0usize; 4];
    for d in 0..8 {
        w[d] = v[d] + if d % 2 == 0 { cell } else { cell * SQRT_2 };
    }
    for k in 0..4 {
        let g = 2 * k + 1;
        let (a1, a2) = (2 * k, (2 * k + 2) & 7);
        let a = if v[a2] < v[a1] { a2 } else { a1 };
        side[k] = a;
        // Not `clamp`: it keeps NaN (both values unknown), and `max` turns it into 0.
        #[allow(clippy::manual_clamp)]
        let s = ((v[a] - v[g]) * inv_cell).max(0.0).min(FRAC_1_SQRT_2);
        sv[k] = s;
        w[8 + k] = v[a] + cell * (1.0 - s * s).sqrt();
    }
    let mut best = w[0];
    let mut idx = 0;
    for (k, &x) in w.iter().enumerate().skip(1) {
        if x < best {
            best = x;
            idx = k;
        }
    }
    if !best.is_finite() {
        return (f32::INFINITY, Vec2::ZERO);
    }
    let dir = if idx < 8 {
        Vec2::new(DIRS[idx].0 as f32, DIRS[idx].1 as f32)
    } else {
        let k = idx - 8;
        let a = side[k];
        // From `a` toward the diagonal: the orthogonal direction on the diagonal's side.
        let p = if a == 2 * k { (a + 2) & 7 } else { (a + 6) & 7 };
        let s = sv[k];
        let t = s / (1.0 - s * s).sqrt();
        Vec2::new(DIRS[a].0 as f32 + t * DIRS[p].0 as f32, DIRS[a].1 as f32 + t * DIRS[p].1 as f32)
    };
    (best, dir)
}

#[cfg(test)]
mod tests {
    use super::super::modifiers::{BLOCKS_AGENTS, ROUTE_BLOCKED};
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;
    use glam::Vec3;

    fn ascii(rows: &[&str]) -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, rows[0].len() as u32, rows.len() as u32, |x, z, o| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                o.push(SurfaceSample::walkable(0.0));
            }
        });
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    fn at(g: &SurfaceGrid, x: u32, z: u32) -> CellId {
        g.locate(Vec3::new(x as f32 + 0.5, 0.0, z as f32 + 0.5)).unwrap()
    }

    fn field(g: &SurfaceGrid, m: &ModifierLayer, t: CellId) -> DistanceField {
        let mut f = DistanceField::new();
        integrate(g, m, t, &mut IntegrationJob::new(), &mut f);
        f
    }

    #[test]
    fn open_floor_octile_distances() {
        let g = ascii(&["....."; 5]);
        let m = ModifierLayer::new(&g);
        let f = field(&g, &m, at(&g, 0, 0));
        assert_eq!(f.distance(at(&g, 4, 0)), 4.0);
        assert!((f.distance(at(&g, 4, 4)) - 4.0 * SQRT_2).abs() < 1e-5);
        assert!((f.distance(at(&g, 4, 2)) - (2.0 + 2.0 * SQRT_2)).abs() < 1e-5);
        // The smooth distance is close to Euclidean.
        let e = (16.0f32 + 4.0).sqrt();
        assert!((f.smooth_distance(at(&g, 4, 2)) - e).abs() < 0.05 * e, "{}", f.smooth_distance(at(&g, 4, 2)));
    }

    #[test]
    fn diagonal_corner_cutting_refused() {
        // From (0,0) to (1,1) with (1,0) blocked: the diagonal would cut the corner.
        let g = ascii(&[".#", ".."]);
        let m = ModifierLayer::new(&g);
        let f = field(&g, &m, at(&g, 0, 0));
        assert_eq!(f.distance(at(&g, 1, 1)), 2.0);
        // Same with a route-blocked modifier cell instead of a hole.
        let g = ascii(&["..", ".."]);
        let mut m = ModifierLayer::new(&g);
        assert!((field(&g, &m, at(&g, 0, 0)).distance(at(&g, 1, 1)) - SQRT_2).abs() < 1e-6);
        m.stamp_cell(at(&g, 1, 0), ROUTE_BLOCKED, 0.0);
        let f = field(&g, &m, at(&g, 0, 0));
        assert_eq!(f.distance(at(&g, 1, 1)), 2.0);
        assert_eq!(f.distance(at(&g, 1, 0)), f32::INFINITY);
        // Blocking agents alone does not change routes.
        m.clear();
        m.stamp_cell(at(&g, 1, 0), BLOCKS_AGENTS, 0.0);
        assert!((field(&g, &m, at(&g, 0, 0)).distance(at(&g, 1, 1)) - SQRT_2).abs() < 1e-6);
    }

    #[test]
    fn entry_cost_paid_once_per_box() {
        let g = ascii(&["......"]);
        let mut m = ModifierLayer::new(&g);
        // A two-cell box at x = 2..4 with cost 10, stamped as one region.
        use super::super::modifiers::{ModifierBox, RouteMode};
        m.stamp_box(
            &g,
            &ModifierBox::aligned(Vec3::new(3.0, 1.0, 0.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0)),
        );
        let f = field(&g, &m, at(&g, 5, 0));
        assert_eq!(f.distance(at(&g, 0, 0)), 15.0);
        assert_eq!(f.distance(at(&g, 3, 0)), 2.0);
        assert_eq!(f.distance(at(&g, 2, 0)), 3.0);
    }

    #[test]
    fn sliced_build_pays_for_its_reset_first_and_matches_one_shot() {
        // 64 x 64 cells: the reset owes 32 settles.
        let rows = vec![".".repeat(64); 64];
        let g = ascii(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let m = ModifierLayer::new(&g);
        let t = at(&g, 20, 30);
        let mut job = IntegrationJob::new();
        job.start(&g, t);
        let owed = g.cell_count() / RESETS_PER_SETTLE;
        assert_eq!(owed, 32);
        job.run(&g, &m, 20);
        assert_eq!(job.settled(), 0, "the first 20 of the budget go to the reset");
        job.run(&g, &m, 100);
        assert_eq!(job.settled(), 100 - (owed - 20));
        while !job.run(&g, &m, 100) {}
        let mut sliced = DistanceField::new();
        assert!(job.finish(&mut sliced));
        assert_eq!(sliced, field(&g, &m, t));
    }

    #[test]
    fn invalid_target_gives_empty_field() {
        let g = ascii(&["..."]);
        let m = ModifierLayer::new(&g);
        let f = field(&g, &m, NONE);
        assert_eq!(f.cell_count(), 3);
        assert!(!f.is_reachable(0));
    }
}
