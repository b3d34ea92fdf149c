//! Point-to-point route length (`get_path_length`, navigation-path occlusion) over the same graph
//! and costs as the distance fields, searching from the destination back toward the start so the
//! sums match a field built for that destination: jump point search (`jump_points`) when every
//! step costs its length (no cost boxes), A* otherwise. The scratch keeps its buffers and uses
//! generation stamps, so a query allocates nothing and clears nothing.

use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::SQRT_2;

use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, NONE};

/// Above this many cells route searches are A*: the jump table would take 16 bytes a cell
/// (32 MiB here) and a few hundred milliseconds to build.
pub const MAX_JUMP_TABLE_CELLS: usize = 2_000_000;

/// Reusable buffers for `path_length`.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct PathScratch {
    pub(super) g: Vec<f32>,
    /// Generation in which `g` was set for the cell.
    pub(super) seen: Vec<u32>,
    /// Generation in which the cell was settled.
    pub(super) closed: Vec<u32>,
    /// Per cell: the direction the search reached it in (jump point search; 8: none).
    pub(super) came: Vec<u8>,
    pub(super) generation: u32,
    pub(super) heap: BinaryHeap<Reverse<(u64, CellId)>>,
    /// Jump distances for the grid and route blocks of the last jump point search (built on
    /// the first query after either changes).
    #[serde(skip)]
    pub(super) table: Option<super::jump_table::JumpTable>,
    /// Cells settled by the last query (a measure of its cost).
    pub last_settled: usize,
}

impl PathScratch {
    pub fn new() -> Self {
        Self::default()
    }

    pub(super) fn begin(&mut self, n: usize) {
        if self.g.len() != n || self.generation == u32::MAX {
            self.g = vec![f32::INFINITY; n];
            self.seen = vec![0; n];
            self.closed = vec![0; n];
            self.came = vec![0; n];
            self.generation = 0;
        }
        self.generation += 1;
        self.heap.clear();
        self.last_settled = 0;
    }

    pub fn heap_bytes(&self) -> usize {
        (self.g.capacity() + self.seen.capacity() + self.closed.capacity()) * 4
            + self.came.capacity()
            + self.heap.capacity() * 16
            + self.table.as_ref().map_or(0, |t| t.heap_bytes())
    }
}

/// Octile lower bound on the route length between two columns.
#[inline]
pub(super) fn heuristic(grid: &SurfaceGrid, a: u32, b: u32) -> f32 {
    let (ax, az) = grid.column_xz(a);
    let (bx, bz) = grid.column_xz(b);
    let dx = ax.abs_diff(bx) as f32;
    let dz = az.abs_diff(bz) as f32;
    grid.cell_size() * (dx.max(dz) + (SQRT_2 - 1.0) * dx.min(dz))
}

/// Heap key: `g + h` first, then the smaller `h` (deeper nodes first among equal estimates,
/// which keeps A* from flooding the many equal-cost cells of open ground). Both are
/// non-negative, so their bit patterns order like the values.
#[inline]
pub(super) fn key(g: f32, h: f32) -> u64 {
    (((g + h).to_bits() as u64) << 32) | h.to_bits() as u64
}

/// Route length from cell `from` to cell `to` (what an agent at `from` walks and pays to reach
/// `to`), or `None` when there is no route or it is longer than `max_length`.
pub fn path_length(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
) -> Option<f32> {
    let n = grid.cell_count();
    scratch.last_settled = 0;
    if from as usize >= n || to as usize >= n {
        return None;
    }
    if from == to {
        return Some(0.0);
    }
    // Different components (or a blocked start) never connect: answer without searching.
    let comp = grid.component(from);
    if comp == NONE || comp != grid.component(to) || mods.route_blocked(from) {
        return None;
    }
    scratch.begin(n);
    if mods.has_costs() || n > MAX_JUMP_TABLE_CELLS {
        astar(grid, mods, from, to, max_length, scratch)
    } else {
        super::jump_points::search(grid, mods, from, to, max_length, scratch)
    }
}

/// A successor a search offers: the cell, the route length to it from the cell expanded, the
/// direction it was reached in (`ANY_DIRECTION` when the search has none) and its column's
/// coordinates when the search knows them (the estimate is then computed from them).
#[derive(Clone, Copy, Debug)]
pub(super) struct Offer {
    pub cell: CellId,
    pub len: f32,
    pub came: u8,
    pub at: Option<(i64, i64)>,
}

/// No direction of arrival (A*, and where jump point search expands every neighbour).
pub(super) const ANY_DIRECTION: u8 = 8;

/// The best-first loop both searches run, from `to` toward `from` (after `path_length`'s checks
/// and `scratch.begin`): the cheapest estimate (route so far plus the octile bound) settles next
/// until `from` does or the estimates pass `max_length`; `offers(c, came, out)` writes the
/// successors of `c` (reached in direction `came`) into `out` and returns how many.
pub(super) fn best_first(
    grid: &SurfaceGrid,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
    mut offers: impl FnMut(CellId, u8, &mut [Offer; 8]) -> usize,
) -> Option<f32> {
    let gen = scratch.generation;
    let goal_col = grid.column_of(from);
    let (gx, gz) = grid.column_xz(goal_col);
    let orth = grid.cell_size();
    scratch.g[to as usize] = 0.0;
    scratch.seen[to as usize] = gen;
    scratch.came[to as usize] = ANY_DIRECTION;
    scratch.heap.push(Reverse((key(0.0, heuristic(grid, grid.column_of(to), goal_col)), to)));
    let mut out = [Offer { cell: NONE, len: 0.0, came: ANY_DIRECTION, at: None }; 8];
    while let Some(Reverse((k, c))) = scratch.heap.pop() {
        if scratch.closed[c as usize] == gen {
            continue;
        }
        if f32::from_bits((k >> 32) as u32) > max_length {
            return None;
        }
        scratch.closed[c as usize] = gen;
        scratch.last_settled += 1;
        let gc = scratch.g[c as usize];
        if c == from {
            return (gc <= max_length).then_some(gc);
        }
        let count = offers(c, scratch.came[c as usize], &mut out);
        for o in &out[..count] {
            let n = o.cell;
            if scratch.closed[n as usize] == gen {
                continue;
            }
            let ng = gc + o.len;
            if scratch.seen[n as usize] != gen || ng < scratch.g[n as usize] {
                scratch.g[n as usize] = ng;
                scratch.seen[n as usize] = gen;
                scratch.came[n as usize] = o.came;
                let h = match o.at {
                    Some((x, z)) => {
                        let (ex, ez) = ((x - gx as i64).unsigned_abs() as f32, (z - gz as i64).unsigned_abs() as f32);
                        orth * (ex.max(ez) + (SQRT_2 - 1.0) * ex.min(ez))
                    }
                    None => heuristic(grid, grid.column_of(n), goal_col),
                };
                scratch.heap.push(Reverse((key(ng, h), n)));
            }
        }
    }
    None
}

/// A* from `to` toward `from` (after `path_length`'s checks and `scratch.begin`): every linked
/// neighbour, paying its entry cost.
pub(super) fn astar(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
) -> Option<f32> {
    let orth = grid.cell_size();
    let diag = orth * SQRT_2;
    best_first(grid, from, to, max_length, scratch, |c, _, out| {
        let l = grid.links(c);
        let mut count = 0;
        for d in 0..8 {
            let nb = l[d];
            if nb == NONE || mods.route_blocked(nb) {
                continue;
            }
            let step = if d % 2 == 0 {
                orth
            } else {
                let (o1, o2) = (l[d - 1], l[(d + 1) & 7]);
                if o1 == NONE || o2 == NONE || mods.route_blocked(o1) || mods.route_blocked(o2) {
                    continue;
                }
                diag
            };
            out[count] = Offer { cell: nb, len: step + mods.entry_cost(nb, c), came: ANY_DIRECTION, at: None };
            count += 1;
        }
        count
    })
}

#[cfg(test)]
mod tests {
    use super::super::integration::{integrate, DistanceField, IntegrationJob};
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;
    use glam::Vec3;

    #[test]
    fn matches_the_distance_field_and_respects_the_limit() {
        let rows = ["..........", ".########.", ".#......#.", ".#.####.#.", "...#..#..."];
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, 10, 5, |x, z, o| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                o.push(SurfaceSample::walkable(0.0));
            }
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let m = ModifierLayer::new(&g);
        let to = g.locate(Vec3::new(2.25, 0.0, 1.25)).unwrap();
        let mut f = DistanceField::new();
        integrate(&g, &m, to, &mut IntegrationJob::new(), &mut f);
        let mut sc = PathScratch::new();
        for from in 0..g.cell_count() as CellId {
            let p = path_length(&g, &m, from, to, f32::INFINITY, &mut sc);
            let want = f.distance(from);
            match p {
                Some(p) => assert!((p - want).abs() < 1e-4, "{from}: {p} vs {want}"),
                None => assert!(!want.is_finite() || !g.is_walkable(from)),
            }
        }
        let from = g.locate(Vec3::new(4.75, 0.0, 2.25)).unwrap();
        let full = path_length(&g, &m, from, to, f32::INFINITY, &mut sc).unwrap();
        assert_eq!(path_length(&g, &m, from, to, full - 0.1, &mut sc), None);
        assert_eq!(path_length(&g, &m, from, to, full, &mut sc), Some(full));
        // Another component: answered without a search.
        let g2 = {
            let rows = ["....#.....", "....#.....", "....#....."];
            let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, 10, 3, |x, z, o| {
                if rows[z as usize].as_bytes()[x as usize] != b'#' {
                    o.push(SurfaceSample::walkable(0.0));
                }
            });
            SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
        };
        let m2 = ModifierLayer::new(&g2);
        let (a, b) = (g2.locate(Vec3::new(0.25, 0.0, 0.25)).unwrap(), g2.locate(Vec3::new(4.75, 0.0, 0.25)).unwrap());
        assert_eq!(path_length(&g2, &m2, a, b, f32::INFINITY, &mut sc), None);
        assert_eq!(sc.last_settled, 0);
    }
}
