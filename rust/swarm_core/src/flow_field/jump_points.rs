//! Jump point search for `path_length` on grids of up to `path::MAX_JUMP_TABLE_CELLS` cells (for
//! the table's memory): the route lengths A* finds, settling only the cells where a shortest route
//! can turn (Harabor and Grastien's jump points, in the form for grids whose diagonals never cut
//! corners, as this grid's never do), with the scans precomputed (`jump_table`, Rabin's JPS+): a
//! cell's successors are looked up, plus the goal (or the cell in line with it) when it lies within
//! reach of a scan. Plain ground (`jump_table::plain_cells`) is where the grid is a plain grid with
//! obstacles, where every step costs its length, which the pruning rules assume; a cell that is not
//! (on a ramp, at a ledge, on a floor over a floor, in or beside a cost box) ends every scan and is
//! expanded one step at a time as A* would, paying each step's entry cost, and so is every cell
//! reached from it, so the result stays exact on any level. A scan over plain ground enters no cost
//! box, so a jump costs its length.

use std::f32::consts::SQRT_2;

use super::jump_table::{step, JumpTable};
use super::modifiers::ModifierLayer;
use super::search::{best_first, Offer, PathScratch, ANY_DIRECTION};
use super::surface::{CellId, SurfaceGrid, DIRS, NONE};

/// The directions to scan from a cell reached going `came` (`ANY_DIRECTION`: all of them). After a straight
/// move: on, both sides, and the diagonals between; after a diagonal: on and its two parts.
fn directions(came: u8) -> ([u8; 8], usize) {
    let d = came as usize;
    match came {
        ANY_DIRECTION => ([0, 1, 2, 3, 4, 5, 6, 7], 8),
        _ if d.is_multiple_of(2) => {
            let (a, b) = ((d + 2) & 7, (d + 6) & 7);
            ([d as u8, a as u8, b as u8, ((d + 1) & 7) as u8, ((d + 7) & 7) as u8, 0, 0, 0], 5)
        }
        _ => ([d as u8, (d - 1) as u8, ((d + 1) & 7) as u8, 0, 0, 0, 0, 0], 3),
    }
}

/// The walkable span of column `(x, z)` (a cell a scan over plain ground reaches: its column
/// has exactly one).
fn walkable_span(grid: &SurfaceGrid, (x, z): (i64, i64)) -> CellId {
    let nx = grid.dims().0 as i64;
    grid.column_spans((z * nx + x) as u32).find(|&c| grid.is_walkable(c)).unwrap_or(NONE)
}

/// Jump point search from `to` toward `from` (after `path_length`'s checks and `scratch.begin`).
pub(super) fn search(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
) -> Option<f32> {
    let route_key = mods.route_key();
    let table = match scratch.table.take() {
        Some(t) if t.fits(grid, route_key) => t,
        _ => JumpTable::build(grid, mods, route_key),
    };
    let found = run(grid, mods, &table, from, to, max_length, scratch);
    scratch.table = Some(table);
    found
}

fn run(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    table: &JumpTable,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
) -> Option<f32> {
    let (orth, diag) = (grid.cell_size(), grid.cell_size() * SQRT_2);
    let goal_col = grid.column_of(from);
    let (gx, gz) = grid.column_xz(goal_col);
    let (gx, gz) = (gx as i64, gz as i64);
    // A straight scan that reaches the goal's column reaches the goal when it is the column's
    // only walkable span.
    let goal_alone = grid.column_spans(goal_col).filter(|&c| grid.is_walkable(c)).count() == 1;
    best_first(grid, from, to, max_length, scratch, |c, came, out| {
        let plain = table.is_plain(c);
        let (cx, cz) = grid.column_xz(grid.column_of(c));
        let (cx, cz) = (cx as i64, cz as i64);
        let (dirs, count) = directions(if plain { came } else { ANY_DIRECTION });
        let mut offered = 0;
        for &d in &dirs[..count] {
            let d = d as usize;
            let (sx, sz) = (DIRS[d].0 as i64, DIRS[d].1 as i64);
            // The successor, its column's coordinates and the length to it.
            let (n, at, len) = if !plain {
                match step(grid, mods, c, d) {
                    NONE => continue,
                    n => {
                        let len = if d.is_multiple_of(2) { orth } else { diag };
                        (n, (cx + sx, cz + sz), len + mods.entry_cost(n, c))
                    }
                }
            } else {
                let j = table.get(c, d) as i64;
                let reach = j.abs();
                let (dx, dz) = (gx - cx, gz - cz);
                if d.is_multiple_of(2) {
                    // The goal straight ahead within reach.
                    let ahead = if sx != 0 { dz == 0 && dx * sx > 0 } else { dx == 0 && dz * sz > 0 };
                    let k = dx.abs().max(dz.abs());
                    if ahead && goal_alone && k <= reach {
                        (from, (gx, gz), k as f32 * orth)
                    } else if j > 0 {
                        let at = (cx + j * sx, cz + j * sz);
                        (walkable_span(grid, at), at, j as f32 * orth)
                    } else {
                        continue;
                    }
                } else {
                    // The cell in line with the goal, when the goal lies this way within reach.
                    let k = dx.abs().min(dz.abs());
                    let k = if dx * sx > 0 && dz * sz > 0 && k <= reach { k } else { j };
                    if k > 0 {
                        let at = (cx + k * sx, cz + k * sz);
                        (walkable_span(grid, at), at, k as f32 * diag)
                    } else {
                        continue;
                    }
                }
            };
            debug_assert!(n != NONE, "a scan ended off the walkable ground");
            if n == NONE {
                continue;
            }
            // A cell reached from one that is not plain has no usable direction to prune by.
            out[offered] = Offer { cell: n, len, came: if plain { d as u8 } else { ANY_DIRECTION }, at: Some(at) };
            offered += 1;
        }
        offered
    })
}
