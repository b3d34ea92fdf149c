//! Jump point search for `path_length` where every step costs its length (no cost boxes), on grids
//! of up to `path::MAX_JUMP_TABLE_CELLS` cells (for the table's memory): the route lengths A*
//! finds, settling only the cells where a shortest route can turn (Harabor and
//! Grastien's jump points, in the form for grids whose diagonals never cut corners, as this
//! grid's never do), with the scans precomputed (`jump_table`, Rabin's JPS+): a cell's successors
//! are looked up, plus the goal (or the cell in line with it) when it lies within reach of a
//! scan. Plain ground (`jump_table::plain_cells`) is where the grid is a plain grid with obstacles,
//! which the pruning rules assume; a cell that is not (on a ramp, at a ledge, on a floor over a
//! floor) ends every scan and is expanded one step at a time as A* would, and so is every cell
//! reached from it, so the result stays exact on any level.

use std::f32::consts::SQRT_2;

use super::jump_table::{step, JumpTable};
use super::modifiers::ModifierLayer;
use super::path::{best_first, Offer, PathScratch, ANY_DIRECTION};
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

/// Jump point search from `to` toward `from` (after `path_length`'s checks and `scratch.begin`);
/// only for a layer without route costs.
pub(super) fn search(
    grid: &SurfaceGrid,
    mods: &ModifierLayer,
    from: CellId,
    to: CellId,
    max_length: f32,
    scratch: &mut PathScratch,
) -> Option<f32> {
    let route_key = mods.route_blocked_key();
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
                    n => (n, (cx + sx, cz + sz), if d.is_multiple_of(2) { orth } else { diag }),
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

#[cfg(test)]
mod tests {
    use super::super::jump_table::plain_cells;
    use super::super::modifiers::ROUTE_BLOCKED;
    use super::super::path::{astar, path_length};
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;
    use glam::Vec3;

    /// A seeded generator (xorshift).
    struct Rng(u32);
    impl Rng {
        fn next(&mut self) -> u32 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 17;
            self.0 ^= self.0 << 5;
            self.0
        }
        fn chance(&mut self, percent: u32) -> bool {
            self.next() % 100 < percent
        }
    }

    /// A random level: open floor with walls and pillars, and (when `layered`) raised blocks
    /// (ledges too high to step onto), gentle steps, and an upper floor with a ramp.
    fn level(rng: &mut Rng, nx: u32, nz: u32, layered: bool) -> SurfaceGrid {
        let density = 5 + rng.next() % 30;
        let mut holes = vec![false; (nx * nz) as usize];
        for h in holes.iter_mut() {
            *h = rng.chance(density);
        }
        // A few long walls with gaps.
        for _ in 0..rng.next() % 4 {
            let z = rng.next() % nz;
            for x in 0..nx {
                if !rng.chance(15) {
                    holes[(z * nx + x) as usize] = true;
                }
            }
        }
        let raised: Vec<f32> = (0..nx * nz)
            .map(|_| match rng.next() % 20 {
                0 if layered => 1.0,
                1 if layered => 0.3,
                _ => 0.0,
            })
            .collect();
        let upper = layered && rng.chance(50);
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, nx, nz, |x, z, out| {
            let i = (z * nx + x) as usize;
            if !holes[i] {
                out.push(SurfaceSample::walkable(raised[i]));
            }
            if upper && x >= nx / 2 {
                // An upper floor at 3 m, reached by a ramp rising 0.3 m a cell along x.
                out.push(SurfaceSample::walkable(3.0));
            } else if upper && x + 10 >= nx / 2 && z < 3 {
                out.push(SurfaceSample::walkable(3.0 - 0.3 * (nx / 2 - x) as f32));
            }
        });
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    #[test]
    fn finds_the_lengths_a_star_finds() {
        let mut rng = Rng(0x9e37_79b9);
        let (mut queries, mut routes, mut fewer) = (0, 0, 0usize);
        for round in 0..600 {
            let layered = round % 2 == 1;
            let (nx, nz) = (8 + rng.next() % 40, 8 + rng.next() % 40);
            let g = level(&mut rng, nx, nz, layered);
            let mut m = ModifierLayer::new(&g);
            if round % 3 == 0 {
                for c in 0..g.cell_count() as CellId {
                    if rng.chance(4) {
                        m.stamp_cell(c, ROUTE_BLOCKED, 0.0);
                    }
                }
            }
            assert!(!m.has_costs());
            let n = g.cell_count() as u32;
            if n < 2 {
                continue;
            }
            let (mut a, mut b) = (PathScratch::new(), PathScratch::new());
            for _ in 0..40 {
                let (from, to) = (rng.next() % n, rng.next() % n);
                let jps = path_length(&g, &m, from, to, f32::INFINITY, &mut a);
                let settled = a.last_settled;
                let star = {
                    b.begin(g.cell_count());
                    let ok = from != to
                        && g.component(from) != NONE
                        && g.component(from) == g.component(to)
                        && !m.route_blocked(from);
                    if from == to {
                        Some(0.0)
                    } else if ok {
                        astar(&g, &m, from, to, f32::INFINITY, &mut b)
                    } else {
                        None
                    }
                };
                queries += 1;
                match (jps, star) {
                    (Some(x), Some(y)) => {
                        assert!((x - y).abs() <= 1e-4 * y.max(1.0), "round {round}: {from} -> {to}: {x} vs A* {y}");
                        routes += 1;
                        fewer += usize::from(settled <= b.last_settled);
                    }
                    (None, None) => {}
                    _ => panic!("round {round}: {from} -> {to}: {jps:?} vs A* {star:?}"),
                }
                // A limit below the length is refused, at it accepted.
                if let Some(x) = jps {
                    if x > 0.0 {
                        assert_eq!(path_length(&g, &m, from, to, x * 0.999, &mut a), None);
                        assert!(path_length(&g, &m, from, to, x * 1.001, &mut a).is_some());
                    }
                }
            }
        }
        assert!(routes > queries / 4, "{routes} routes of {queries} queries");
        assert!(
            fewer * 10 > routes * 9,
            "jump point search settled more cells than A* in {} of {routes}",
            routes - fewer
        );
    }

    #[test]
    fn plain_ground_is_told_apart() {
        let mut rng = Rng(7);
        let flat = level(&mut rng, 20, 20, false);
        let plain = plain_cells(&flat).iter().filter(|&&p| p).count();
        // A flat floor with holes is plain wherever it is walkable.
        assert_eq!(plain, flat.walkable_count());
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, 6, 3, |x, _, out| {
            // A ledge between x = 2 and x = 3 (1 m, too high to step).
            out.push(SurfaceSample::walkable(if x >= 3 { 1.0 } else { 0.0 }));
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let plain = plain_cells(&g);
        let at = |x: f32| plain[g.locate(Vec3::new(x, 0.5, 0.75)).unwrap() as usize];
        assert!(at(0.25));
        assert!(!at(0.75), "next to a cell at the ledge");
        assert!(!at(1.25), "at the ledge");
        assert!(!at(1.75), "at the ledge, above");
        assert!(at(2.75));
    }
}
