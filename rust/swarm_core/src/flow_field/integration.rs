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

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::{FRAC_1_SQRT_2, SQRT_2};

use glam::Vec2;

use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, DIRS, NONE};

/// Buckets in the ring (a power of two, above the widest plain step in buckets, 2 * sqrt 2).
const RING: u64 = 8;

/// Route lengths and smooth distances to one target.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DistanceField {
    target: CellId,
    /// Per cell: route length to the target (`INFINITY`: no route).
    dist: Vec<f32>,
    /// Per cell: interpolated any-angle distance, for directions (`INFINITY`: no route).
    smooth: Vec<f32>,
}

impl DistanceField {
    pub fn new() -> Self {
        Self { target: NONE, dist: Vec::new(), smooth: Vec::new() }
    }

    /// The target cell (`NONE` before the first build).
    pub fn target(&self) -> CellId {
        self.target
    }

    /// Cells covered (0 before the first build).
    pub fn cell_count(&self) -> usize {
        self.dist.len()
    }

    /// Route length from `cell` to the target, `INFINITY` where there is none.
    #[inline]
    pub fn distance(&self, cell: CellId) -> f32 {
        self.dist.get(cell as usize).copied().unwrap_or(f32::INFINITY)
    }

    /// Smooth distance from `cell` to the target, `INFINITY` where there is no route.
    #[inline]
    pub fn smooth_distance(&self, cell: CellId) -> f32 {
        self.smooth.get(cell as usize).copied().unwrap_or(f32::INFINITY)
    }

    #[inline]
    pub fn is_reachable(&self, cell: CellId) -> bool {
        self.distance(cell).is_finite()
    }

    pub fn distances(&self) -> &[f32] {
        &self.dist
    }

    pub fn smooth_distances(&self) -> &[f32] {
        &self.smooth
    }

    pub fn heap_bytes(&self) -> usize {
        (self.dist.capacity() + self.smooth.capacity()) * 4
    }
}

/// A resumable distance-field build with its own reusable scratch.
#[derive(Clone, Debug)]
pub struct IntegrationJob {
    target: CellId,
    dist: Vec<f32>,
    smooth: Vec<f32>,
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
    diag: f32,
    settled: usize,
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
            dist: Vec::new(),
            smooth: Vec::new(),
            ring: (0..RING).map(|_| Vec::new()).collect(),
            ring_len: 0,
            cur: 0,
            pos: 0,
            overflow: BinaryHeap::new(),
            seq: 0,
            inv_bucket: 1.0,
            orth: 1.0,
            diag: SQRT_2,
            settled: 0,
            done: true,
        }
    }

    /// Begins a build toward `target` (any previous build is dropped). The same grid and layer
    /// must be passed to every `run` until it is done; restart it when either changes.
    pub fn start(&mut self, grid: &SurfaceGrid, target: CellId) {
        let n = grid.cell_count();
        self.dist.clear();
        self.dist.resize(n, f32::INFINITY);
        self.smooth.clear();
        self.smooth.resize(n, f32::INFINITY);
        for b in &mut self.ring {
            b.clear();
        }
        self.ring_len = 0;
        self.cur = 0;
        self.pos = 0;
        self.overflow.clear();
        self.seq = 0;
        self.orth = grid.cell_size();
        self.diag = grid.cell_size() * SQRT_2;
        self.inv_bucket = 2.0 / grid.cell_size();
        self.settled = 0;
        self.target = target;
        self.done = (target as usize) >= n;
        if !self.done {
            self.dist[target as usize] = 0.0;
            self.push(target, 0.0);
        }
    }

    pub fn target(&self) -> CellId {
        self.target
    }

    pub fn is_done(&self) -> bool {
        self.done
    }

    /// Cells settled so far.
    pub fn settled(&self) -> usize {
        self.settled
    }

    /// Settles up to `budget` cells; returns whether the build is complete.
    pub fn run(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, mut budget: usize) -> bool {
        while !self.done && budget > 0 {
            let slot = (self.cur % RING) as usize;
            if self.pos < self.ring[slot].len() {
                let c = self.ring[slot][self.pos];
                self.pos += 1;
                self.ring_len -= 1;
                if self.smooth[c as usize].is_finite() {
                    continue; // Settled through an earlier, cheaper entry.
                }
                self.settle(grid, mods, c);
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

    /// Moves a finished build into `field` (swapping buffers, so both keep their allocations).
    /// Returns false, and leaves `field` alone, while the build is not done.
    pub fn finish(&mut self, field: &mut DistanceField) -> bool {
        if !self.done || self.target == NONE {
            return false;
        }
        std::mem::swap(&mut self.dist, &mut field.dist);
        std::mem::swap(&mut self.smooth, &mut field.smooth);
        field.target = self.target;
        self.target = NONE;
        true
    }

    pub fn heap_bytes(&self) -> usize {
        (self.dist.capacity() + self.smooth.capacity()) * 4
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

    fn settle(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, c: CellId) {
        self.smooth[c as usize] =
            if c == self.target { 0.0 } else { smooth_update(grid, mods, &self.smooth, c, self.orth).0 };
        self.settled += 1;
        let dc = self.dist[c as usize];
        let l = grid.links(c);
        for d in 0..8 {
            let n = l[d];
            if n == NONE || self.smooth[n as usize].is_finite() || mods.route_blocked(n) {
                continue;
            }
            let step = if d % 2 == 0 {
                self.orth
            } else {
                let (o1, o2) = (l[d - 1], l[(d + 1) & 7]);
                if o1 == NONE || o2 == NONE || mods.route_blocked(o1) || mods.route_blocked(o2) {
                    continue;
                }
                self.diag
            };
            // Reverse edge: an agent at `n` walks into `c`.
            let nd = dc + (step + mods.entry_cost(n, c));
            if nd < self.dist[n as usize] {
                self.dist[n as usize] = nd;
                self.push(n, nd);
            }
        }
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
        field.dist.clear();
        field.dist.resize(grid.cell_count(), f32::INFINITY);
        field.smooth.clear();
        field.smooth.resize(grid.cell_count(), f32::INFINITY);
    }
}

/// The smooth-distance update of cell `c` from the neighbours whose value in `smooth` is finite
/// (route-blocked neighbours and corner-cutting diagonals excluded): the least of
/// `orthogonal + cell`, `diagonal + cell * sqrt 2`, and for each orthogonal/diagonal pair the
/// value through the best point on the segment between them. Returns the value and the
/// (unnormalised) ground-plane direction toward that point; `(INFINITY, ZERO)` with no usable
/// neighbour.
#[inline]
pub(crate) fn smooth_update(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    smooth: &[f32],
    c: CellId,
    cell: f32,
) -> (f32, Vec2) {
    let l = grid.links(c);
    // Neighbour values as an agent at `c` would pay them (entering cost included).
    let mut v = [f32::INFINITY; 8];
    for d in (0..8).step_by(2) {
        let n = l[d];
        if n != NONE && !mods.route_blocked(n) {
            let s = smooth[n as usize];
            if s.is_finite() {
                v[d] = s + mods.entry_cost(c, n);
            }
        }
    }
    for d in (1..8).step_by(2) {
        let n = l[d];
        // Corner rule: both orthogonal cells linked and open (their own values may be unknown).
        let (o1, o2) = (l[d - 1], l[(d + 1) & 7]);
        if n != NONE
            && o1 != NONE
            && o2 != NONE
            && !mods.route_blocked(n)
            && !mods.route_blocked(o1)
            && !mods.route_blocked(o2)
        {
            let s = smooth[n as usize];
            if s.is_finite() {
                v[d] = s + mods.entry_cost(c, n);
            }
        }
    }
    let mut best = f32::INFINITY;
    let mut dir = Vec2::ZERO;
    for d in 0..8 {
        let w = v[d] + if d % 2 == 0 { cell } else { cell * SQRT_2 };
        if w < best {
            best = w;
            dir = Vec2::new(DIRS[d].0 as f32, DIRS[d].1 as f32);
        }
    }
    for a in (0..8).step_by(2) {
        let va = v[a];
        if !va.is_finite() {
            continue;
        }
        for (g, p) in [((a + 1) & 7, (a + 2) & 7), ((a + 7) & 7, (a + 6) & 7)] {
            let s = (va - v[g]) / cell;
            // s is NaN or negative when the diagonal is unknown or no better.
            if s > 0.0 && s < FRAC_1_SQRT_2 {
                let r = (1.0 - s * s).sqrt();
                let w = va + cell * r;
                if w < best {
                    best = w;
                    let t = s / r;
                    dir = Vec2::new(DIRS[a].0 as f32 + t * DIRS[p].0 as f32, DIRS[a].1 as f32 + t * DIRS[p].1 as f32);
                }
            }
        }
    }
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
        m.stamp_box(&g, &ModifierBox::aligned(Vec3::new(3.0, 1.0, 0.5), Vec3::new(2.0, 2.0, 1.0), true, RouteMode::ExtraCost(10.0)));
        let f = field(&g, &m, at(&g, 5, 0));
        assert_eq!(f.distance(at(&g, 0, 0)), 15.0);
        assert_eq!(f.distance(at(&g, 3, 0)), 2.0);
        assert_eq!(f.distance(at(&g, 2, 0)), 3.0);
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
