//! The bake against a world of boxes: floors, thin and thick walls, a ramp, a pillar, a
//! trimesh wall, steep and unwalkable surfaces, and settings refused by field name.

use glam::{Affine3A, Mat3, Vec3};

use super::box_world::{BoxWorld, TestBox};
use super::{BakeBounds, BakeSettings, Baker, ColliderSet, Solid};
use crate::flow_field::surface::{CellId, SurfaceGrid};

fn settings(min: Vec3, max: Vec3) -> BakeSettings {
    BakeSettings { bounds: BakeBounds { position: min, size: max - min }, ..Default::default() }
}

fn bake(world: &mut BoxWorld, s: BakeSettings) -> SurfaceGrid {
    let mut b = Baker::new(s).unwrap();
    let mut last = 0.0;
    while !b.is_done() {
        let p = b.step(world, 37);
        assert!(p >= last && p <= 1.0);
        last = p;
    }
    assert_eq!(last, 1.0);
    b.finish().unwrap()
}

fn walkable_at(g: &SurfaceGrid, x: f32, y: f32, z: f32) -> bool {
    g.locate(Vec3::new(x, y, z)).is_some_and(|c| g.is_walkable(c) && (g.surface_height(c) - y).abs() < 0.3)
}

fn heights_at(g: &SurfaceGrid, x: f32, z: f32) -> Vec<f32> {
    let col = g.column_at(x, z).unwrap();
    g.column_spans(col).map(|c: CellId| (g.surface_height(c) * 1000.0).round() / 1000.0).collect()
}

/// A 20 x 20 m floor; a thin wall (0.1 m) along x = 5.02 with a 2 m door; a thick wall;
/// an upper floor at 4 m over x 12..20, reached by a ramp; a pillar.
fn level() -> BoxWorld {
    let mut w = BoxWorld::new();
    w.aabb(Vec3::new(0.0, -0.2, 0.0), Vec3::new(20.0, 0.0, 20.0));
    // Thin wall between column centres 4.75 and 5.25, door at z 8..10.
    w.aabb(Vec3::new(4.97, 0.0, 0.0), Vec3::new(5.07, 3.0, 8.0));
    w.aabb(Vec3::new(4.97, 0.0, 10.0), Vec3::new(5.07, 3.0, 12.0));
    // Thick wall.
    w.aabb(Vec3::new(8.0, 0.0, 0.0), Vec3::new(9.0, 3.0, 5.0));
    // Upper floor: slab 3.8..4.0 over x 12..20, z 10..20.
    w.aabb(Vec3::new(12.0, 3.8, 10.0), Vec3::new(20.0, 4.0, 20.0));
    // Ramp: a tilted slab from (4, 0) up to (12, 4) along +x, at z 13.5..16.5.
    let len = (8.0f32 * 8.0 + 4.0 * 4.0).sqrt();
    let angle = (4.0f32 / 8.0).atan();
    let n = Vec3::new(-angle.sin(), angle.cos(), 0.0);
    w.tilted(Vec3::new(8.0, 2.0, 15.0) - n * 0.1, Vec3::new(len * 0.5, 0.1, 1.5), angle);
    // A pillar from the floor to 10 m, above the bounds.
    w.aabb(Vec3::new(2.0, 0.0, 2.0), Vec3::new(3.0, 10.0, 3.0));
    // A trimesh wall 1 m thick (2 columns) at x 14.1..15.1, z 0..6.
    w.trimesh(Vec3::new(14.1, 0.0, 0.0), Vec3::new(15.1, 3.0, 6.0));
    w
}

#[test]
fn bakes_floors_walls_ramp_and_pillar() {
    let mut w = level();
    let s = settings(Vec3::new(0.0, -1.0, 0.0), Vec3::new(20.0, 6.0, 20.0));
    let g = bake(&mut w, s);
    assert_eq!(g.dims(), (40, 40));
    // Open floor.
    assert!(walkable_at(&g, 1.25, 0.0, 10.25));
    // The thin wall, missed by the downward rays, blocks one side; the door is open.
    let wall_blocked = (0..16).all(|k| {
        let z = 0.25 + k as f32 * 0.5;
        !(walkable_at(&g, 4.75, 0.0, z) && walkable_at(&g, 5.25, 0.0, z))
    });
    assert!(wall_blocked, "thin wall leaks");
    assert!(walkable_at(&g, 4.75, 0.0, 9.25) && walkable_at(&g, 5.25, 0.0, 9.25), "door closed");
    let a = g.locate(Vec3::new(3.0, 0.0, 4.0)).unwrap();
    let b = g.locate(Vec3::new(7.0, 0.0, 4.0)).unwrap();
    assert_eq!(g.component(a), g.component(b), "door connects both sides");
    // Thick wall: floor under it blocked, its top a separate surface.
    assert!(!walkable_at(&g, 8.5, 0.0, 2.25));
    assert_eq!(heights_at(&g, 8.5, 2.25).last().copied(), Some(3.0));
    // Trimesh wall: the floor inside it blocked, both columns, all along.
    for k in 0..12 {
        let z = 0.25 + k as f32 * 0.5;
        assert!(!walkable_at(&g, 14.25, 0.0, z) && !walkable_at(&g, 14.75, 0.0, z), "in trimesh wall at z {z}");
    }
    assert_eq!(heights_at(&g, 14.75, 2.25), vec![0.0, 3.0]);
    // Pillar above the bounds: the floor inside it is blocked.
    assert!(!walkable_at(&g, 2.5, 0.0, 2.5));
    // Upper floor and the floor below it both walkable; the ramp links them.
    assert_eq!(heights_at(&g, 16.25, 16.25), vec![0.0, 4.0]);
    assert!(walkable_at(&g, 16.25, 0.0, 16.25));
    assert!(walkable_at(&g, 16.25, 4.0, 16.25));
    let up = g.locate(Vec3::new(16.25, 4.0, 16.25)).unwrap();
    let down = g.locate(Vec3::new(16.25, 0.0, 16.25)).unwrap();
    assert_ne!(up, down);
    assert_eq!(g.component(up), g.component(a), "ramp joins the floors");
    assert!(walkable_at(&g, 8.25, 2.1, 15.25), "ramp walkable");
    // Under the low end of the ramp, too little headroom.
    assert!(!walkable_at(&g, 6.25, 0.0, 15.25));
}

#[test]
fn steep_and_unwalkable_surfaces_block() {
    let mut w = BoxWorld::new();
    w.aabb(Vec3::new(0.0, -0.2, 0.0), Vec3::new(10.0, 0.0, 10.0));
    w.tilted(Vec3::new(5.0, 1.0, 5.0), Vec3::new(2.0, 0.1, 2.0), 60f32.to_radians());
    w.boxes.push(TestBox {
        centre: Vec3::new(2.0, -0.05, 8.0),
        rot: Mat3::IDENTITY,
        half: Vec3::new(1.0, 0.1, 1.0),
        layer: 2,
        concave: false,
    });
    w.mask = 3;
    let mut s = settings(Vec3::new(0.0, -1.0, 0.0), Vec3::new(10.0, 4.0, 10.0));
    s.unwalkable_mask = 2;
    s.clearance_radius = 0.0;
    let g = bake(&mut w, s);
    assert!(walkable_at(&g, 0.25, 0.0, 0.25));
    let c = g.locate(Vec3::new(5.25, 1.0, 5.25)).unwrap();
    assert!(!g.is_walkable(c), "60 degree slope walkable");
    assert!(!walkable_at(&g, 2.25, 0.05, 8.25), "unwalkable layer walkable");
    // Layers outside both masks are not seen at all.
    w.mask = 1;
    s.unwalkable_mask = 0;
    let g = bake(&mut w, s);
    assert!(walkable_at(&g, 2.25, 0.0, 8.25));
}

#[test]
fn bad_settings_name_the_field() {
    let good = settings(Vec3::ZERO, Vec3::new(10.0, 2.0, 10.0));
    assert!(Baker::new(good).is_ok());
    let cases: Vec<(BakeSettings, &str)> = vec![
        (BakeSettings { cell_size: 0.0, ..good }, "cell_size"),
        (BakeSettings { cell_size: f32::NAN, ..good }, "cell_size"),
        (BakeSettings { agent_height: -1.0, ..good }, "agent_height"),
        (BakeSettings { clearance_radius: -0.1, ..good }, "clearance_radius"),
        (BakeSettings { max_step_height: f32::INFINITY, ..good }, "max_step_height"),
        (BakeSettings { walkable_mask: 0, ..good }, "walkable_mask"),
        (BakeSettings { bounds: BakeBounds { position: Vec3::ZERO, size: Vec3::ZERO }, ..good }, "bake_bounds"),
        (
            BakeSettings { bounds: BakeBounds { position: Vec3::ZERO, size: Vec3::new(-1.0, 1.0, 1.0) }, ..good },
            "bake_bounds",
        ),
        (BakeSettings { cell_size: 0.001, ..good }, "bake_bounds"),
    ];
    for (s, field) in cases {
        let e = Baker::new(s).err().unwrap();
        assert!(e.contains(field), "{e} does not name {field}");
    }
    let b = Baker::new(good).unwrap();
    assert!(b.finish().unwrap_err().contains("not finished"));
}

/// The world's boxes as a `ColliderSet`: solid boxes, and the trimesh boxes as 12 triangles
/// facing out (clockwise seen from outside, as the engine's front faces are).
fn as_colliders(w: &BoxWorld) -> ColliderSet {
    let mut set = ColliderSet::new();
    for b in &w.boxes {
        let t = Affine3A::from_mat3_translation(b.rot, b.centre);
        if !b.concave {
            set.add_solid(Solid::Box { half: b.half }, t, b.layer).unwrap();
            continue;
        }
        // Per face: its outward axis and two axes along it with v x u = the outward normal.
        let faces = [
            (Vec3::Y, Vec3::X, Vec3::Z),
            (-Vec3::Y, Vec3::Z, Vec3::X),
            (Vec3::X, Vec3::Z, Vec3::Y),
            (-Vec3::X, Vec3::Y, Vec3::Z),
            (Vec3::Z, Vec3::Y, Vec3::X),
            (-Vec3::Z, Vec3::X, Vec3::Y),
        ];
        let mut tris = Vec::new();
        for (n, u, v) in faces {
            let at = |s: f32, r: f32| (n + u * s + v * r) * b.half;
            tris.extend([at(-1.0, -1.0), at(1.0, -1.0), at(-1.0, 1.0), at(1.0, -1.0), at(1.0, 1.0), at(-1.0, 1.0)]);
        }
        assert_eq!(set.add_trimesh(&tris, t, false, b.layer), 0);
    }
    set
}

/// Bakes `set` column by column on one thread (`step`, `step` columns at a time) and shared
/// (`step_shared`, `shared` at a time): both grids.
fn both_ways(set: &ColliderSet, s: BakeSettings, step: usize, shared: usize) -> (SurfaceGrid, SurfaceGrid) {
    let mut one = Baker::new(s).unwrap();
    while !one.is_done() {
        one.step(&mut &*set, step);
    }
    let mut both = Baker::new(s).unwrap();
    while !both.is_done() {
        both.step_shared(set, shared);
    }
    (one.finish().unwrap(), both.finish().unwrap())
}

#[test]
fn collider_set_bakes_as_the_box_world_does() {
    let mut w = level();
    let s = settings(Vec3::new(0.0, -1.0, 0.0), Vec3::new(20.0, 6.0, 20.0));
    let reference = bake(&mut w, s);
    let mut set = as_colliders(&w);
    set.index(1.5);
    // Step by step on one thread, and shared in uneven slices on the pool.
    let (one, shared) = both_ways(&set, s, 37, 301);
    assert_eq!(one, shared);
    // The tilted ramp is the one place the arithmetic differs (an inverse transform against a
    // transposed rotation): heights agree to a tenth of a millimetre, everything else exactly.
    assert_eq!(one.dims(), reference.dims());
    assert_eq!(one.cell_count(), reference.cell_count());
    for col in 0..one.column_count() as u32 {
        for (a, b) in one.column_spans(col).zip(reference.column_spans(col)) {
            assert!((one.surface_height(a) - reference.surface_height(b)).abs() < 1e-4, "column {col}");
            assert_eq!(one.is_walkable(a), reference.is_walkable(b), "column {col}");
            assert_eq!(one.links(a), reference.links(b), "column {col}");
        }
    }
}

/// Thin fences meeting in L shapes and crosses, low steps (two surfaces within step height in a
/// column) and posts, at seeded places: the shared bake (rays in parallel, then replayed in
/// order) must give exactly the grid of the one-column-at-a-time bake, since a wall found in one
/// direction changes what the column's other direction pairs.
#[test]
fn shared_bake_replays_walls_in_order() {
    let mut seed = 0x2545_f491_u32;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        (seed >> 8) as f32 / 16_777_216.0
    };
    for round in 0..12 {
        let mut w = BoxWorld::new();
        w.aabb(Vec3::new(0.0, -0.2, 0.0), Vec3::new(12.0, 0.0, 12.0));
        for _ in 0..20 {
            // An L of two fences 0.06 m thick from a corner near a column edge.
            let (x, z) = ((next() * 24.0).floor() * 0.5 + 0.22, (next() * 24.0).floor() * 0.5 + 0.22);
            let (lx, lz) = (0.5 + next() * 3.0, 0.5 + next() * 3.0);
            w.aabb(Vec3::new(x, 0.0, z), Vec3::new(x + lx, 1.5, z + 0.06));
            w.aabb(Vec3::new(x, 0.0, z), Vec3::new(x + 0.06, 1.5, z + lz));
            // A low step, and a post.
            let (sx, sz) = (next() * 11.0, next() * 11.0);
            w.aabb(Vec3::new(sx, 0.0, sz), Vec3::new(sx + 1.0, 0.1 + next() * 0.25, sz + 1.0));
            let (px, pz) = (next() * 11.5, next() * 11.5);
            w.aabb(Vec3::new(px, 0.0, pz), Vec3::new(px + 0.2, 2.5, pz + 0.2));
        }
        let mut s = settings(Vec3::new(0.0, -1.0, 0.0), Vec3::new(12.0, 4.0, 12.0));
        s.clearance_radius = 0.0;
        let mut set = as_colliders(&w);
        set.index(1.0);
        let (one, shared) = both_ways(&set, s, 53, 97 + round * 31);
        assert_eq!(one, shared, "round {round}");
    }
}

/// A column whose +x wall ray blocks its own surface first: its +z ray then pairs nothing, so the
/// fence across the far half of that ray blocks nothing (the shared bake had replayed both rays).
#[test]
fn a_wall_found_first_changes_the_columns_other_ray() {
    let mut w = BoxWorld::new();
    w.aabb(Vec3::new(0.0, -0.2, 0.0), Vec3::new(3.0, 0.0, 3.0));
    // Across the +x ray from (0.25, 0.25), near its start (t = 0.1): blocks the start.
    w.aabb(Vec3::new(0.3, 0.0, 0.0), Vec3::new(0.36, 1.5, 0.4));
    // Across the +z ray from (0.25, 0.25), near its end (t = 0.82): would block the end.
    w.aabb(Vec3::new(0.0, 0.0, 0.66), Vec3::new(0.28, 1.5, 0.72));
    let mut s = settings(Vec3::new(0.0, -1.0, 0.0), Vec3::new(3.0, 4.0, 3.0));
    s.clearance_radius = 0.0;
    let mut set = as_colliders(&w);
    set.index(1.0);
    let (one, shared) = both_ways(&set, s, 7, 1000);
    assert!(!walkable_at(&one, 0.25, 0.0, 0.25), "the start of the +x ray");
    assert!(walkable_at(&one, 0.25, 0.0, 0.75), "the end of the +z ray stays walkable");
    assert_eq!(one, shared);
}
