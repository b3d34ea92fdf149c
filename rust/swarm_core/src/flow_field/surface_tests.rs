//! Tests of the baked surface: bake rules, queries, storage.

use glam::Vec3;

use crate::flow_field::surface::*;

mod tests {
    use super::*;

    /// A grid from ASCII rows (row 0 is z = 0): '.' floor at 0, '#' no surface.
    pub(crate) fn ascii(rows: &[&str], cell: f32, clearance: f32) -> SurfaceGrid {
        let dz = rows.len() as u32;
        let dx = rows[0].len() as u32;
        let s = BakeSamples::from_fn(Vec3::ZERO, cell, dx, dz, |x, z, out| {
            if rows[z as usize].as_bytes()[x as usize] != b'#' {
                out.push(SurfaceSample::walkable(0.0));
            }
        });
        let p = BakeParams { clearance_radius: clearance, ..Default::default() };
        SurfaceGrid::bake(&s, p).unwrap()
    }

    fn cell_at(g: &SurfaceGrid, x: u32, z: u32) -> CellId {
        let r = g.column_spans(z * g.dims().0 + x);
        if r.is_empty() {
            NONE
        } else {
            r.start
        }
    }

    #[test]
    fn open_floor_links_all_eight() {
        let g = ascii(&["...", "...", "..."], 1.0, 0.0);
        let c = cell_at(&g, 1, 1);
        for d in 0..8 {
            let t = g.link(c, d);
            assert_ne!(t, NONE);
            assert_eq!(g.link(t, (d + 4) & 7), c);
        }
        assert_eq!(g.link(cell_at(&g, 0, 0), 4), NONE);
    }

    #[test]
    fn diagonal_next_to_a_hole_is_not_linked() {
        let g = ascii(&["..", "#."], 1.0, 0.0);
        // (0,0) and (1,1) are diagonal; (0,1) is a hole, so no diagonal link.
        let a = cell_at(&g, 0, 0);
        let b = cell_at(&g, 1, 1);
        assert_eq!(g.link(a, 1), NONE);
        assert_eq!(g.link(b, 5), NONE);
        assert_ne!(a, NONE);
        assert_ne!(b, NONE);
    }

    #[test]
    fn gaps_narrower_than_twice_clearance_close() {
        // A wall across z = 2 with a 1-cell gap at x = 2 and a 2-cell gap at x = 6..8.
        let rows = ["..........", "..........", "##.###..##", "..........", ".........."];
        let g = ascii(&rows, 0.5, 0.3);
        // 1 cell = 0.5 m < 0.6 m: closed. 2 cells = 1.0 m >= 0.6 m: open.
        assert!(!g.is_walkable(cell_at(&g, 2, 2)));
        assert!(g.is_walkable(cell_at(&g, 6, 2)));
        assert!(g.is_walkable(cell_at(&g, 7, 2)));
        // Cells next to walls stay (clearance below one cell).
        assert!(g.is_walkable(cell_at(&g, 0, 1)));
        // A wider clearance closes the 2-cell gap too and erodes cells next to walls.
        let g = ascii(&rows, 0.5, 0.55);
        assert!(!g.is_walkable(cell_at(&g, 6, 2)));
        assert!(!g.is_walkable(cell_at(&g, 0, 1)));
    }

    #[test]
    fn low_overhang_and_steps() {
        // Column 0: floor 0 under a slab at 1.0 (too low for 1.8). Column 1: floor at 0.3 (a step).
        // Column 2: floor at 1.0 (too high a step from 0.3).
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 3, 1, |x, _, out| match x {
            0 => {
                out.push(SurfaceSample::walkable(0.0));
                out.push(SurfaceSample::blocked(1.0));
            }
            1 => out.push(SurfaceSample::walkable(0.3)),
            _ => out.push(SurfaceSample::walkable(1.0)),
        });
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        assert_eq!(g.cell_count(), 4);
        assert!(!g.is_walkable(0));
        assert!(!g.is_walkable(1));
        assert!(g.is_walkable(2));
        assert_eq!(g.link(2, 4), NONE);
        assert_eq!(g.link(2, 0), NONE);
        assert_eq!(g.locate(Vec3::new(0.5, 0.1, 0.5)), Some(0));
        assert_eq!(g.locate(Vec3::new(0.5, 1.2, 0.5)), Some(1));
        assert_eq!(g.cell_center(3), Vec3::new(2.5, 1.0, 0.5));
    }

    #[test]
    fn components_split_by_walls() {
        let g = ascii(&["..#..", "..#..", "..#.."], 1.0, 0.0);
        let (a, b) = (cell_at(&g, 0, 0), cell_at(&g, 4, 2));
        assert_ne!(g.component(a), g.component(b));
        assert_eq!(g.component(a), g.component(cell_at(&g, 1, 2)));
        let g = ascii(&["..#..", ".....", "..#.."], 1.0, 0.0);
        assert_eq!(g.component(cell_at(&g, 0, 0)), g.component(cell_at(&g, 4, 2)));
    }

    #[test]
    fn components_are_numbered_by_their_lowest_span() {
        // Pockets that a row-by-row union meets late (a U shape joins at its bottom).
        let rows = ["#.#.#..#.", "#.#.##.#.", "#...#..#.", "####..##.", "..#....#.", "..#.##.#."];
        let g = ascii(&rows, 1.0, 0.0);
        // Reference: flood fill from each unlabelled walkable span in id order.
        let n = g.cell_count();
        let mut want = vec![NONE; n];
        let mut next = 0;
        for s in 0..n as CellId {
            if !g.is_walkable(s) || want[s as usize] != NONE {
                continue;
            }
            let mut stack = vec![s];
            want[s as usize] = next;
            while let Some(c) = stack.pop() {
                for &t in g.links(c) {
                    if t != NONE && want[t as usize] == NONE {
                        want[t as usize] = next;
                        stack.push(t);
                    }
                }
            }
            next += 1;
        }
        assert!(next >= 4);
        let got: Vec<u32> = (0..n as CellId).map(|s| g.component(s)).collect();
        assert_eq!(got, want);
    }

    #[test]
    fn locate_nearest_and_step() {
        let g = ascii(&["....", ".##.", "...."], 1.0, 0.0);
        assert_eq!(g.locate(Vec3::new(-1.0, 0.0, 0.5)), None);
        assert_eq!(g.locate(Vec3::new(1.5, 0.0, 1.5)), None);
        let n = g.nearest_walkable(Vec3::new(1.4, 0.0, 1.5), 4).unwrap();
        assert_eq!(g.cell_center(n).truncate().x, 0.5);
        // From outside the grid.
        let n = g.nearest_walkable(Vec3::new(-5.0, 0.0, 0.2), 10).unwrap();
        assert_eq!(g.column_of(n), 0);
        assert_eq!(g.nearest_walkable(Vec3::new(-50.0, 0.0, 0.2), 3), None);
        let a = g.locate(Vec3::new(0.5, 0.0, 0.5)).unwrap();
        assert_eq!(g.step_cell(a, Vec3::new(1.2, 0.0, 0.5)), Some(g.link(a, 0)));
        assert_eq!(g.step_cell(a, Vec3::new(1.2, 0.0, 1.2)), None);
    }

    #[test]
    fn ground_height_blends_a_ramp() {
        let s =
            BakeSamples::from_fn(Vec3::ZERO, 1.0, 4, 1, |x, _, out| out.push(SurfaceSample::walkable(x as f32 * 0.2)));
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let c = g.locate(Vec3::new(1.5, 0.0, 0.5)).unwrap();
        assert!((g.ground_height(c, Vec3::new(1.5, 0.0, 0.5)) - 0.2).abs() < 1e-6);
        assert!((g.ground_height(c, Vec3::new(1.9, 0.0, 0.5)) - 0.28).abs() < 1e-5);
        assert!((g.ground_height(c, Vec3::new(1.1, 0.0, 0.5)) - 0.12).abs() < 1e-5);
    }

    #[test]
    fn bytes_round_trip_and_reject_garbage() {
        let g = ascii(&["....", ".#..", "...."], 0.5, 0.3);
        let b = g.to_bytes();
        assert_eq!(SurfaceGrid::from_bytes(&b).unwrap(), g);
        assert_eq!(SurfaceGrid::from_bytes(&b[..b.len() - 1]), Err(BakeError::BadBytes));
        let mut bad = b.clone();
        bad[0] = b'X';
        assert!(SurfaceGrid::from_bytes(&bad).is_err());
        assert!(SurfaceGrid::from_bytes(&[]).is_err());
    }

    #[test]
    fn bad_input_is_an_error() {
        let mut s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 2, 2, |_, _, out| out.push(SurfaceSample::walkable(0.0)));
        assert!(SurfaceGrid::bake(&s, BakeParams { agent_height: f32::NAN, ..Default::default() }).is_err());
        s.column_start[2] = 9;
        assert_eq!(SurfaceGrid::bake(&s, BakeParams::default()), Err(BakeError::BadColumns));
        s.cell_size = 0.0;
        assert_eq!(SurfaceGrid::bake(&s, BakeParams::default()), Err(BakeError::BadCellSize));
    }
}
