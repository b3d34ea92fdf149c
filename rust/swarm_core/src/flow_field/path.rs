//! Point-to-point route length (`get_path_length`, navigation-path occlusion) over the same graph
//! and costs as the distance fields, searching from the destination back toward the start so the
//! sums match a field built for that destination: jump point search (`jump_points`), or A* on
//! grids too large for its table, both on the best-first loop of `search`.

use std::f32::consts::SQRT_2;

use super::jump_table::step;
use super::modifiers::ModifierLayer;
use super::search::{best_first, Offer, PathScratch, ANY_DIRECTION};
use super::surface::{CellId, SurfaceGrid, NONE};

/// Above this many cells route searches are A*: the jump table takes 17 bytes a cell (17 MiB
/// here) and its build (on the first query after the grid, its route blocks or which cells carry
/// route costs change) about 60 ms.
pub const MAX_JUMP_TABLE_CELLS: usize = 1_000_000;

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
    if n > MAX_JUMP_TABLE_CELLS {
        astar(grid, mods, from, to, max_length, scratch)
    } else {
        super::jump_points::search(grid, mods, from, to, max_length, scratch)
    }
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
        let mut count = 0;
        for d in 0..8 {
            let nb = step(grid, mods, c, d);
            if nb == NONE {
                continue;
            }
            let len = if d % 2 == 0 { orth } else { diag };
            out[count] = Offer { cell: nb, len: len + mods.entry_cost(nb, c), came: ANY_DIRECTION, at: None };
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

#[cfg(test)]
mod jump_point_tests {
    //! Jump point search against A* (the same lengths, fewer cells settled), and which cells
    //! are plain ground.
    use super::super::jump_table::plain_cells;
    use super::super::modifiers::{ModifierBox, RouteMode, ROUTE_BLOCKED};
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
            if round % 4 < 2 {
                // Cost boxes (doors, mud): routes pay to enter one from outside it, nothing
                // inside; some small, some long, some overlapping, with cheap and dear costs.
                for _ in 0..1 + rng.next() % 6 {
                    let (x, z) = ((rng.next() % nx) as f32 * 0.5, (rng.next() % nz) as f32 * 0.5);
                    let size = Vec3::new(0.5 * (1 + rng.next() % 8) as f32, 8.0, 0.5 * (1 + rng.next() % 3) as f32);
                    let cost = [0.3, 1.0, 4.0, 25.0][rng.next() as usize % 4];
                    m.stamp_box(
                        &g,
                        &ModifierBox::aligned(Vec3::new(x, 1.0, z), size, false, RouteMode::ExtraCost(cost)),
                    );
                }
                assert!(m.touched().iter().any(|&c| m.has_cost(c)));
            }
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
        let plain = plain_cells(&flat, &ModifierLayer::new(&flat)).iter().filter(|&&p| p).count();
        // A flat floor with holes is plain wherever it is walkable.
        assert_eq!(plain, flat.walkable_count());
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, 6, 3, |x, _, out| {
            // A ledge between x = 2 and x = 3 (1 m, too high to step).
            out.push(SurfaceSample::walkable(if x >= 3 { 1.0 } else { 0.0 }));
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let plain = plain_cells(&g, &ModifierLayer::new(&g));
        let at = |x: f32| plain[g.locate(Vec3::new(x, 0.5, 0.75)).unwrap() as usize];
        assert!(at(0.25));
        assert!(!at(0.75), "next to a cell at the ledge");
        assert!(!at(1.25), "at the ledge");
        assert!(!at(1.75), "at the ledge, above");
        assert!(at(2.75));
        // A cost box (a door) and the cells beside it are not plain; a free box changes nothing.
        let s = BakeSamples::from_fn(Vec3::ZERO, 0.5, 20, 20, |_, _, out| out.push(SurfaceSample::walkable(0.0)));
        let flat = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let mut m = ModifierLayer::new(&flat);
        let door = |route| ModifierBox::aligned(Vec3::new(5.25, 1.0, 5.25), Vec3::new(0.5, 8.0, 0.5), false, route);
        m.stamp_box(&flat, &door(RouteMode::Free));
        assert_eq!(plain_cells(&flat, &m).iter().filter(|&&p| p).count(), flat.walkable_count());
        m.stamp_box(&flat, &door(RouteMode::ExtraCost(3.0)));
        let plain = plain_cells(&flat, &m);
        let at = |x: f32, z: f32| plain[flat.locate(Vec3::new(x, 0.0, z)).unwrap() as usize];
        assert!(!at(5.25, 5.25), "in the box");
        for (x, z) in [(4.75, 5.25), (5.75, 5.75), (5.25, 4.75)] {
            assert!(!at(x, z), "beside the box at ({x}, {z})");
        }
        assert!(at(4.25, 5.25), "two cells away");
        assert_eq!(plain.iter().filter(|&&p| !p).count(), 9);
    }
}
