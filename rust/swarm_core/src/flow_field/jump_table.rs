//! The jump distances of jump point search, precomputed per cell and direction (Rabin's JPS+),
//! so a query jumps in one lookup instead of scanning, and which cells are plain ground (see
//! `plain_cells`). For each walkable cell and each of the 8
//! directions: `+k` when a scan from the cell finds a jump point `k` steps away, `-k` when it runs
//! into a wall after `k` free steps (0: no step at all). A straight scan's jump point is a cell
//! with a forced turn (a side neighbour free there but not beside the cell before) or a cell
//! that is not plain ground; a diagonal scan's is a cell from which either straight scan along
//! its parts finds one, or a cell that is not plain. Route-blocked cells count as walls, and a
//! cell carrying a route cost is not plain ground (nor is any cell linked to one), so the table
//! belongs to one state of the modifier layer (`ModifierLayer::route_key`). Distances too long
//! for the table's integers become jump points partway, which is always allowed (an extra stop
//! never loses a route).

use rayon::prelude::*;

use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, DIRS, NONE};

/// Longest distance stored; a longer scan stops at a jump point this far out.
const LONGEST: i32 = 16_000;

/// Jump distances of one grid under one state of its route blocks.
#[derive(Clone, Debug, Default)]
pub(super) struct JumpTable {
    /// What it was built for: the grid's content key and the layer's route key.
    key: (u64, u64),
    dist: Vec<[i16; 8]>,
    plain: Vec<bool>,
}

/// Whether a route may use the cell (it exists and is not route-blocked).
#[inline]
pub(super) fn free(mods: &ModifierLayer, c: CellId) -> bool {
    c != NONE && !mods.route_blocked(c)
}

/// One step a route may take from `c` in direction `d` (a diagonal needs both orthogonal
/// neighbours free), or `NONE`: the move rule of both route searches and of this table.
#[inline]
pub(super) fn step(grid: &SurfaceGrid, mods: &ModifierLayer, c: CellId, d: usize) -> CellId {
    let l = grid.links(c);
    let n = l[d];
    if !free(mods, n) || (d % 2 == 1 && !(free(mods, l[d - 1]) && free(mods, l[(d + 1) & 7]))) {
        return NONE;
    }
    n
}

impl JumpTable {
    /// Whether the table was built for this grid and route state.
    pub fn fits(&self, grid: &SurfaceGrid, route_key: u64) -> bool {
        self.key == (grid.content_key(), route_key) && self.dist.len() == grid.cell_count()
    }

    /// Builds the table for `grid` with `mods`' route blocks and costs (whose key is `route_key`).
    pub fn build(grid: &SurfaceGrid, mods: &ModifierLayer, route_key: u64) -> Self {
        let n = grid.cell_count();
        let plain = plain_cells(grid, mods);
        // Straight directions first (the diagonals read them), each on its own thread.
        let straight: Vec<Vec<i16>> =
            [0usize, 2, 4, 6].into_par_iter().map(|d| scan_all(grid, mods, &plain, d, &[])).collect();
        let diagonal: Vec<Vec<i16>> = [1usize, 3, 5, 7]
            .into_par_iter()
            .map(|d| {
                let parts = [&straight[(d - 1) / 2][..], &straight[((d + 1) & 7) / 2][..]];
                scan_all(grid, mods, &plain, d, &parts)
            })
            .collect();
        let dist = (0..n)
            .into_par_iter()
            .with_min_len(4096)
            .map(|c| std::array::from_fn(|d| if d % 2 == 0 { straight[d / 2][c] } else { diagonal[d / 2][c] }))
            .collect();
        Self { key: (grid.content_key(), route_key), dist, plain }
    }

    /// Whether the cell is plain ground (see `plain_cells`).
    #[inline]
    pub fn is_plain(&self, c: CellId) -> bool {
        self.plain[c as usize]
    }

    #[inline]
    pub fn get(&self, c: CellId, d: usize) -> i32 {
        self.dist[c as usize][d] as i32
    }

    pub fn heap_bytes(&self) -> usize {
        self.dist.capacity() * 16 + self.plain.capacity()
    }
}

/// Jump distances of every cell in direction `d`. Cells are visited column by column from the
/// far side of `d`, so a cell's next cell along `d` is done first. A diagonal reads the straight
/// distances of its two parts (`parts`).
fn scan_all(grid: &SurfaceGrid, mods: &ModifierLayer, plain: &[bool], d: usize, parts: &[&[i16]]) -> Vec<i16> {
    let mut out = vec![0i16; grid.cell_count()];
    let (nx, nz) = grid.dims();
    let (sx, sz) = DIRS[d];
    let xs: Vec<u32> = if sx > 0 { (0..nx).rev().collect() } else { (0..nx).collect() };
    let zs: Vec<u32> = if sz > 0 { (0..nz).rev().collect() } else { (0..nz).collect() };
    for &z in &zs {
        for &x in &xs {
            for c in grid.column_spans(z * nx + x) {
                if grid.is_walkable(c) {
                    out[c as usize] = distance(grid, mods, plain, d, c, &out, parts);
                }
            }
        }
    }
    out
}

/// The jump distance of `c` along `d`, from its next cell's (already in `done`).
fn distance(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    plain: &[bool],
    d: usize,
    c: CellId,
    done: &[i16],
    parts: &[&[i16]],
) -> i16 {
    let n = step(grid, mods, c, d);
    if n == NONE {
        return 0;
    }
    let jump_point = !plain[n as usize]
        || if d.is_multiple_of(2) {
            // A side neighbour free at `n` but not beside `c`: a forced turn.
            let (ln, lc) = (grid.links(n), grid.links(c));
            let forced = |s: usize| free(mods, ln[s]) && !free(mods, lc[s]);
            forced((d + 2) & 7) || forced((d + 6) & 7)
        } else {
            parts.iter().any(|p| p[n as usize] > 0)
        };
    if jump_point {
        return 1;
    }
    let next = done[n as usize] as i32;
    let k = if next > 0 { next + 1 } else { next - 1 };
    // Too far for the table: a jump point here instead (see the module docs).
    if k.abs() > LONGEST {
        1
    } else {
        k as i16
    }
}

/// Per cell, whether it is plain ground: it and every cell it links to are regular, where a
/// regular cell is a walkable one carrying no route cost whose links look like a plain grid's: a
/// missing orthogonal link means a neighbour column with no walkable surface, a linked one has
/// exactly one, and links commute around each corner (the diagonal link is the cell both ways
/// round reach). Around such cells the grid is a plain grid with obstacles where every step
/// costs its length, and the pruning of jump point search holds.
pub(super) fn plain_cells(grid: &SurfaceGrid, mods: &ModifierLayer) -> Vec<bool> {
    let n = grid.cell_count();
    let regular: Vec<bool> = (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|s| !mods.has_cost(s as CellId) && regular(grid, s as CellId))
        .collect();
    (0..n)
        .into_par_iter()
        .with_min_len(4096)
        .map(|s| regular[s] && grid.links(s as CellId).iter().all(|&t| t == NONE || regular[t as usize]))
        .collect()
}

/// A walkable cell whose links look like a plain grid's from it (see `plain_cells`).
fn regular(grid: &SurfaceGrid, s: CellId) -> bool {
    if !grid.is_walkable(s) {
        return false;
    }
    let l = grid.links(s);
    let (nx, nz) = grid.dims();
    let (x, z) = grid.column_xz(grid.column_of(s));
    for d in (0..8).step_by(2) {
        let (cx, cz) = (x as i64 + DIRS[d].0 as i64, z as i64 + DIRS[d].1 as i64);
        let inside = cx >= 0 && cz >= 0 && cx < nx as i64 && cz < nz as i64;
        let walkable_spans = if inside {
            grid.column_spans((cz * nx as i64 + cx) as u32).filter(|&t| grid.is_walkable(t)).count()
        } else {
            0
        };
        let linked = l[d] != NONE;
        if (linked && walkable_spans != 1) || (!linked && walkable_spans != 0) {
            return false;
        }
    }
    for d in (1..8).step_by(2) {
        let (a, b) = (l[d - 1], l[(d + 1) & 7]);
        if a == NONE || b == NONE {
            continue;
        }
        let (via_a, via_b) = (grid.links(a)[(d + 1) & 7], grid.links(b)[d - 1]);
        if via_a != via_b || l[d] != via_a {
            return false;
        }
    }
    true
}
