//! Keeping agents on cells they may stand in: a move that would enter a blocked cell (no link:
//! a wall, a gap, a ledge, a step too high; or a cell a modifier closes to agents) slides along
//! the cell boundary instead, axis by axis; an agent inside a closed cell is put just outside it;
//! an agent off the field is brought back to the nearest open cell. Positions come back grounded
//! on the surface (blended over ramps and stairs).

use glam::Vec3;

use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, NONE};

/// How far inside a cell a clamped position stays, as a fraction of the cell size.
const INSET: f32 = 1e-3;

/// Where a constrained move ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveResult {
    /// New position, on the surface.
    pub pos: Vec3,
    pub cell: CellId,
    /// A cell the move pressed against that a modifier closes to agents (`NONE` if none): what
    /// a crowd presses, attacks or pushes.
    pub pressed: CellId,
    /// Whether any part of the move was refused.
    pub blocked: bool,
}

/// Whether agents may stand in `cell`.
#[inline]
pub fn is_open(grid: &SurfaceGrid, mods: &ModifierLayer, cell: CellId) -> bool {
    grid.is_walkable(cell) && !mods.blocks_agents(cell)
}

/// Whether the straight line from `pos` (standing in `cell`) to the ground point `to` crosses
/// open cells only, following the cells' links (so it stays on the agent's own floor), in
/// half-cell steps. A line of more than `max_steps` steps counts as blocked.
pub fn line_is_open(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    cell: CellId,
    pos: Vec3,
    to: glam::Vec2,
    max_steps: u32,
) -> bool {
    if cell as usize >= grid.cell_count() || !to.is_finite() {
        return false;
    }
    let d = glam::Vec2::new(to.x - pos.x, to.y - pos.z);
    let steps = (d.length() / (grid.cell_size() * 0.5)).ceil();
    if steps > max_steps as f32 {
        return false;
    }
    let n = steps as u32;
    let mut c = cell;
    for k in 1..=n {
        let t = k as f32 / n as f32;
        match grid.step_cell(c, Vec3::new(pos.x + d.x * t, pos.y, pos.z + d.y * t)) {
            Some(next) if is_open(grid, mods, next) => c = next,
            _ => return false,
        }
    }
    true
}

/// Moves an agent at `pos` in `cell` toward `want` (at most about one cell away; longer moves
/// should be split). Each ground axis is tried in turn, the longer first: a step into a cell the
/// agent may enter is taken, a refused step stops at the current cell's boundary.
pub fn constrain_move(grid: &SurfaceGrid, mods: &ModifierLayer, cell: CellId, pos: Vec3, want: Vec3) -> MoveResult {
    let mut r = MoveResult { pos, cell, pressed: NONE, blocked: false };
    if !want.is_finite() || cell as usize >= grid.cell_count() {
        r.blocked = true;
        return r;
    }
    // The common case: a step that stays in the agent's own column.
    if grid.column_at(want.x, want.z) == Some(grid.column_of(cell)) && is_open(grid, mods, cell) {
        r.pos = Vec3::new(want.x, grid.ground_height(cell, want), want.z);
        return r;
    }
    let d = want - pos;
    let axes = if d.x.abs() >= d.z.abs() { [0, 2] } else { [2, 0] };
    for axis in axes {
        if d[axis] == 0.0 {
            continue;
        }
        let mut q = r.pos;
        q[axis] = want[axis];
        match grid.step_cell(r.cell, q) {
            Some(n) if is_open(grid, mods, n) => {
                r.pos = q;
                r.cell = n;
            }
            other => {
                r.blocked = true;
                if let Some(n) = other {
                    if mods.blocks_agents(n) && r.pressed == NONE {
                        r.pressed = n;
                    }
                }
                let (lo, hi) = cell_bounds(grid, r.cell, axis);
                r.pos[axis] = want[axis].clamp(lo, hi);
            }
        }
    }
    r.pos.y = grid.ground_height(r.cell, r.pos);
    r
}

/// Inner bounds of `cell` along ground axis 0 (x) or 2 (z).
fn cell_bounds(grid: &SurfaceGrid, cell: CellId, axis: usize) -> (f32, f32) {
    let c = grid.column_center(grid.column_of(cell));
    let mid = if axis == 0 { c.x } else { c.y };
    let half = grid.cell_size() * (0.5 - INSET);
    (mid - half, mid + half)
}

/// For an agent standing in a cell it may not be in (a door closed on it): the nearest point
/// just inside an open linked neighbour, and that cell. `None` when no neighbour is open.
pub fn escape_closed_cell(grid: &SurfaceGrid, mods: &ModifierLayer, cell: CellId, pos: Vec3) -> Option<(Vec3, CellId)> {
    let mut best: Option<(f32, Vec3, CellId)> = None;
    for &n in grid.links(cell) {
        if n == NONE || !is_open(grid, mods, n) {
            continue;
        }
        let (x0, x1) = cell_bounds(grid, n, 0);
        let (z0, z1) = cell_bounds(grid, n, 2);
        let mut p = Vec3::new(pos.x.clamp(x0, x1), pos.y, pos.z.clamp(z0, z1));
        let d2 = (p - pos).length_squared();
        if best.is_none_or(|(b, _, _)| d2 < b) {
            p.y = grid.ground_height(n, p);
            best = Some((d2, p, n));
        }
    }
    best.map(|(_, p, n)| (p, n))
}

/// For an agent off the field (outside the grid, over a hole, in a blocked cell): the centre of
/// the nearest open cell within `max_rings` columns, at its surface height, and that cell.
pub fn recover(grid: &SurfaceGrid, mods: &ModifierLayer, pos: Vec3, max_rings: u32) -> Option<(Vec3, CellId)> {
    let c = grid.nearest_where(pos, max_rings, |c| !mods.blocks_agents(c))?;
    Some((grid.cell_center(c), c))
}

#[cfg(test)]
mod tests {
    use super::super::modifiers::BLOCKS_AGENTS;
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;

    fn ascii(rows: &[&str]) -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, rows[0].len() as u32, rows.len() as u32, |x, z, o| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                o.push(SurfaceSample::walkable(0.0));
            }
        });
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    #[test]
    fn slides_along_walls_and_presses_closed_cells() {
        let g = ascii(&["....", ".#..", "...."]);
        let mut m = ModifierLayer::new(&g);
        let c = g.locate(Vec3::new(0.5, 0.0, 0.5)).unwrap();
        // Diagonal into the hole at (1,1): x is taken, z stops at the boundary.
        let r = constrain_move(&g, &m, c, Vec3::new(0.8, 0.0, 0.8), Vec3::new(1.3, 0.0, 1.2));
        assert!(r.blocked);
        assert_eq!(r.pressed, NONE);
        assert!((r.pos.x - 1.3).abs() < 1e-6 && r.pos.z < 1.0 && r.pos.z > 0.99);
        assert_eq!(g.column_xz(g.column_of(r.cell)), (1, 0));
        // A closed cell is pressed, not entered.
        let door = g.locate(Vec3::new(2.5, 0.0, 0.5)).unwrap();
        m.stamp_cell(door, BLOCKS_AGENTS, 0.0);
        let r = constrain_move(&g, &m, r.cell, r.pos, Vec3::new(2.2, 0.0, 0.5));
        assert!(r.blocked);
        assert_eq!(r.pressed, door);
        assert!(r.pos.x < 2.0 && r.pos.x > 1.99);
        // Free moves are untouched.
        let r = constrain_move(&g, &m, c, Vec3::new(0.5, 0.0, 0.5), Vec3::new(0.5, 0.0, 1.5));
        assert!(!r.blocked);
        assert_eq!(r.pos, Vec3::new(0.5, 0.0, 1.5));
    }

    #[test]
    fn escapes_a_closed_cell_and_recovers_from_outside() {
        let g = ascii(&["...", "...", "..."]);
        let mut m = ModifierLayer::new(&g);
        let mid = g.locate(Vec3::new(1.5, 0.0, 1.5)).unwrap();
        m.stamp_cell(mid, BLOCKS_AGENTS, 0.0);
        let (p, n) = escape_closed_cell(&g, &m, mid, Vec3::new(1.9, 0.0, 1.4)).unwrap();
        assert_eq!(g.column_xz(g.column_of(n)), (2, 1));
        assert!(p.x >= 2.0 && p.x < 2.01 && (p.z - 1.4).abs() < 1e-6);
        let (p, n) = recover(&g, &m, Vec3::new(-3.0, 5.0, 1.5), 8).unwrap();
        assert_eq!(g.column_xz(g.column_of(n)), (0, 1));
        assert_eq!(p, Vec3::new(0.5, 0.0, 1.5));
        assert_eq!(recover(&g, &m, Vec3::new(1.5, 0.0, 1.5), 0), None);
    }
}
