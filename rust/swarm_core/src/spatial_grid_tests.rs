//! Unit and property tests of `SpatialGrid`: queries against brute force, the patched rebuild
//! (also passing over unmoved blocks) and the storage-order follow against fresh rebuilds, and
//! the cell growth on sparse spreads.

use super::*;
use proptest::prelude::*;

fn brute(pos: &[Vec3], c: Vec2, r: f32) -> Vec<u32> {
    (0..pos.len() as u32)
        .filter(|&j| Vec2::new(pos[j as usize].x, pos[j as usize].z).distance_squared(c) <= r * r)
        .collect()
}

proptest! {
    #[test]
    fn radius_query_matches_brute_force(
        pts in prop::collection::vec((-50.0f32..50.0, -50.0f32..50.0), 0..400),
        cx in -60.0f32..60.0, cz in -60.0f32..60.0, r in 0.0f32..20.0, cell in 0.2f32..8.0,
    ) {
        let pos: Vec<Vec3> = pts.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)).collect();
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &|_| 0.5, cell);
        let mut got = Vec::new();
        g.query_radius(Vec2::new(cx, cz), r, &mut got);
        got.sort_unstable();
        prop_assert_eq!(got, brute(&pos, Vec2::new(cx, cz), r));
    }
}

proptest! {
    /// The block test (four records at once on x86-64) visits exactly what a plain loop
    /// over `Near::holds` and the `skip` rank visits, in the same order either way, NaN
    /// records included.
    #[test]
    fn near_walk_matches_a_plain_loop(
        recs in prop::collection::vec((-3.0f32..3.0, -3.0f32..3.0, -2.0f32..2.0, 0.0f32..1.0, 0u8..20), 0..40),
        a in 0usize..40, len in 0usize..40, skip in 0usize..45, reach in 0.0f32..2.5,
        add_radius: bool, backward: bool, stop_after in 1usize..50,
    ) {
        let records: Vec<Vec4> = recs
            .iter()
            .map(|&(x, z, y, w, nan)| if nan == 0 { Vec4::new(f32::NAN, z, y, w) } else { Vec4::new(x, z, y, w) })
            .collect();
        let a = a.min(records.len());
        let b = (a + len).min(records.len());
        let near = Near { p: Vec2::new(0.1, -0.2), y: 0.3, reach, add_radius, skip };
        let mut want: Vec<usize> = (a..b).filter(|&k| k != skip && near.holds(records[k])).collect();
        if backward {
            want.reverse();
        }
        let stopped = want.len() >= stop_after;
        want.truncate(stop_after);
        let mut got = Vec::new();
        let done = for_each_near(&records, a, b, backward, &near, |k| {
            got.push(k);
            got.len() < stop_after
        });
        prop_assert_eq!(got, want);
        prop_assert_eq!(done, !stopped);
    }
}

/// Whether `g` is the very grid `fresh` (a rebuild from nothing) is: filing, cells and records.
fn same_grid(g: &SpatialGrid, fresh: &SpatialGrid) -> Result<(), TestCaseError> {
    prop_assert_eq!(&g.entries, &fresh.entries);
    prop_assert_eq!(&g.cell_start, &fresh.cell_start);
    prop_assert_eq!(&g.rank, &fresh.rank);
    prop_assert_eq!(&g.cell, &fresh.cell);
    prop_assert_eq!(&g.sorted, &fresh.sorted);
    Ok(())
}

proptest! {
    /// A rebuild that files only the agents that changed cell (a few of them, inside the
    /// same bounds) leaves exactly the grid a rebuild from nothing gives, step after step.
    #[test]
    fn patched_rebuild_matches_a_fresh_one(
        pts in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0), 16..300),
        steps in prop::collection::vec(prop::collection::vec((0usize..1000, -3.0f32..3.0, -3.0f32..3.0), 0..20), 1..6),
        cell in 0.3f32..3.0,
    ) {
        // Two agents pin the bounds, so the cells stay the same and the patch is taken.
        let mut pos: Vec<Vec3> = vec![Vec3::new(-21.0, 0.0, -21.0), Vec3::new(21.0, 0.0, 21.0)];
        pos.extend(pts.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)));
        let radius = |i: usize| 0.3 + (i % 3) as f32 * 0.1;
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &radius, cell);
        for moves in steps {
            for &(k, dx, dz) in moves.iter().take(pos.len() / PATCH_SHARE) {
                let i = 2 + k % (pos.len() - 2);
                pos[i] = (pos[i] + Vec3::new(dx, 0.0, dz)).clamp(Vec3::splat(-20.5), Vec3::splat(20.5));
            }
            g.rebuild(&pos, &radius, cell);
            let mut fresh = SpatialGrid::with_capacity(pos.len());
            fresh.rebuild(&pos, &radius, cell);
            same_grid(&g, &fresh)?;
        }
    }
}

proptest! {
    /// A rebuild told which blocks of agents have not moved (`Unmoved`) passes over them, and
    /// still leaves exactly the grid a rebuild from nothing gives: with few movers (the patch)
    /// and with many (the full sort, the passed-over cells copied in), step after step.
    #[test]
    fn rebuild_passing_over_unmoved_blocks_matches_a_fresh_one(
        pts in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0), 16..300),
        steps in prop::collection::vec(
            (prop::collection::vec(any::<bool>(), 80), 1usize..40, prop::collection::vec((-3.0f32..3.0, -3.0f32..3.0), 300)),
            1..6,
        ),
        cell in 0.3f32..3.0,
    ) {
        const BLOCK: usize = 4;
        let mut pos: Vec<Vec3> = vec![Vec3::new(-21.0, 0.0, -21.0), Vec3::new(21.0, 0.0, 21.0)];
        pos.extend(pts.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)));
        let radius = |i: usize| 0.3 + (i % 3) as f32 * 0.1;
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &radius, cell);
        for (still, every, moves) in steps {
            // The first block pins the bounds and stays; in the others, every `every`th agent of
            // a moved block moves.
            let still: Vec<bool> = (0..pos.len().div_ceil(BLOCK)).map(|b| b == 0 || still[b % still.len()]).collect();
            for (i, &(dx, dz)) in moves.iter().enumerate().take(pos.len()).skip(BLOCK) {
                if !still[i / BLOCK] && i % every == 0 {
                    // (Heights too: a record holds its agent's height.)
                    pos[i] = (pos[i] + Vec3::new(dx, (dx - dz) * 0.1, dz)).clamp(Vec3::splat(-20.5), Vec3::splat(20.5));
                }
            }
            g.rebuild_within(&pos, &radius, cell, bounds(&pos), Unmoved { blocks: &still, block: BLOCK });
            let mut fresh = SpatialGrid::with_capacity(pos.len());
            fresh.rebuild(&pos, &radius, cell);
            same_grid(&g, &fresh)?;
        }
    }
}

proptest! {
    /// After storage follows the grid's tile order, renumbering gives the grid a rebuild from
    /// nothing gives for the permuted positions.
    #[test]
    fn following_the_storage_order_matches_a_fresh_rebuild(
        pts in prop::collection::vec((-20.0f32..20.0, -20.0f32..20.0), 0..300), cell in 0.3f32..3.0,
    ) {
        let pos: Vec<Vec3> = pts.iter().map(|&(x, z)| Vec3::new(x, 0.0, z)).collect();
        let radius = |i: usize| 0.3 + (i % 3) as f32 * 0.1;
        let mut g = SpatialGrid::with_capacity(pos.len());
        g.rebuild(&pos, &radius, cell);
        let mut order = Vec::new();
        g.tile_order(&mut order);
        let mut seen = order.clone();
        seen.sort_unstable();
        prop_assert!(seen.iter().enumerate().all(|(k, &j)| j as usize == k), "a permutation");
        let moved: Vec<Vec3> = order.iter().map(|&j| pos[j as usize]).collect();
        let radii: Vec<f32> = order.iter().map(|&j| radius(j as usize)).collect();
        g.follow_storage_order(&order);
        let mut fresh = SpatialGrid::with_capacity(pos.len());
        fresh.rebuild(&moved, &|i| radii[i], cell);
        prop_assert_eq!((&g.entries, &g.rank, &g.cell), (&fresh.entries, &fresh.rank, &fresh.cell));
        prop_assert_eq!((&g.cell_start, &g.sorted), (&fresh.cell_start, &fresh.sorted));
        prop_assert_eq!((g.bounds(), g.cell_size), (fresh.bounds(), fresh.cell_size));
        // The next rebuild may patch from it (one agent moves within the same bounds).
        let mut moved = moved;
        if let Some(p) = moved.get_mut(pos.len() / 2).filter(|_| pos.len() > 2) {
            *p = (*p + Vec3::new(0.7, 0.0, -0.4)).clamp(Vec3::splat(-20.0), Vec3::splat(20.0));
        }
        g.rebuild(&moved, &|i| radii[i], cell);
        let mut fresh = SpatialGrid::with_capacity(pos.len());
        fresh.rebuild(&moved, &|i| radii[i], cell);
        prop_assert_eq!((&g.entries, &g.rank, &g.cell), (&fresh.entries, &fresh.rank, &fresh.cell));
        prop_assert_eq!((&g.cell_start, &g.sorted), (&fresh.cell_start, &fresh.sorted));
    }
}

#[test]
fn a_crowd_in_a_line_keeps_the_memory_bounded_in_whole_tiles() {
    // 100,000 agents 10 cm apart along one line: one cell deep, but the frame is whole tiles.
    let n = 100_000;
    let pos: Vec<Vec3> = (0..n).map(|i| Vec3::new(i as f32 * 0.1, 0.0, 3.0)).collect();
    let mut g = SpatialGrid::with_capacity(n);
    g.rebuild(&pos, &|_| 0.3, 0.01);
    assert!(g.cell_start.len() <= n * 4 + 4096 + 1, "{} cells", g.cell_start.len() - 1);
    let mut got = Vec::new();
    g.query_radius(Vec2::new(500.0, 3.0), 0.05, &mut got);
    assert_eq!(got, vec![5000]);
}

#[test]
fn far_apart_agents_grow_the_cell_instead_of_the_memory() {
    let pos = vec![Vec3::new(-1e5, 0.0, -1e5), Vec3::new(1e5, 0.0, 1e5)];
    let mut g = SpatialGrid::with_capacity(2);
    g.rebuild(&pos, &|_| 0.5, 1.0);
    assert!(g.cell_start.len() <= 2 * 4 + 4096 + 1);
    let mut got = Vec::new();
    g.query_radius(Vec2::new(1e5, 1e5), 1.0, &mut got);
    assert_eq!(got, vec![1]);
}
