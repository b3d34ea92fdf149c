//! What the route searches share (`path` for A*, `jump_points` for jump point search): the
//! scratch (buffers kept between queries, generation stamps so a query allocates and clears
//! nothing), the octile estimate and heap key, and the best-first loop, to which a search only
//! says what a cell's successors are.

use serde::{Deserialize, Serialize};
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::f32::consts::SQRT_2;

use super::surface::{CellId, SurfaceGrid, NONE};

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
    /// Jump distances for the grid, route blocks and cost cells of the last jump point search
    /// (built on the first query after any of them changes).
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

/// Octile lower bound on the route length between columns `(ax, az)` and `(bx, bz)`.
#[inline]
fn octile(cell: f32, (ax, az): (i64, i64), (bx, bz): (i64, i64)) -> f32 {
    let dx = ax.abs_diff(bx) as f32;
    let dz = az.abs_diff(bz) as f32;
    cell * (dx.max(dz) + (SQRT_2 - 1.0) * dx.min(dz))
}

/// A column's coordinates, as `octile` takes them.
#[inline]
fn column_at(grid: &SurfaceGrid, col: u32) -> (i64, i64) {
    let (x, z) = grid.column_xz(col);
    (x as i64, z as i64)
}

/// Heap key: `g + h` first, then the smaller `h` (deeper nodes first among equal estimates,
/// which keeps A* from flooding the many equal-cost cells of open ground). Both are
/// non-negative, so their bit patterns order like the values.
#[inline]
fn key(g: f32, h: f32) -> u64 {
    (((g + h).to_bits() as u64) << 32) | h.to_bits() as u64
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
    let goal = column_at(grid, grid.column_of(from));
    let cell = grid.cell_size();
    scratch.g[to as usize] = 0.0;
    scratch.seen[to as usize] = gen;
    scratch.came[to as usize] = ANY_DIRECTION;
    scratch.heap.push(Reverse((key(0.0, octile(cell, column_at(grid, grid.column_of(to)), goal)), to)));
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
                let at = o.at.unwrap_or_else(|| column_at(grid, grid.column_of(n)));
                let h = octile(cell, at, goal);
                scratch.heap.push(Reverse((key(ng, h), n)));
            }
        }
    }
    None
}
