//! Unit tests of `ColliderSet`: each shape kind against the engine's ray semantics.

use super::*;

fn set() -> ColliderSet {
    let mut s = ColliderSet::new();
    s.add_solid(Solid::Box { half: Vec3::new(5.0, 0.5, 5.0) }, Affine3A::IDENTITY, 1).unwrap();
    s
}

#[test]
fn box_top_and_inside() {
    let mut s = set();
    s.index(2.0);
    let hit = s.cast(RayKind::Down, Vec3::new(1.0, 5.0, 1.0), Vec3::new(1.0, -5.0, 1.0)).unwrap();
    assert!((hit.position.y - 0.5).abs() < 1e-5 && hit.normal == Vec3::Y && !hit.concave);
    // From inside: Down ignores the box, Headroom reports its start.
    assert!(s.cast(RayKind::Down, Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, -5.0, 1.0)).is_none());
    let h = s.cast(RayKind::Headroom, Vec3::new(1.0, 0.0, 1.0), Vec3::new(1.0, 2.0, 1.0)).unwrap();
    assert_eq!((h.position, h.normal), (Vec3::new(1.0, 0.0, 1.0), Vec3::ZERO));
}

#[test]
fn rounded_shapes_under_scale_and_rotation() {
    let mut s = ColliderSet::new();
    let t = Affine3A::from_translation(Vec3::new(10.0, 0.0, 0.0)) * Affine3A::from_scale(Vec3::splat(2.0));
    s.add_solid(Solid::Sphere { radius: 1.0 }, t, 1).unwrap();
    // A capsule lying along x (rotated from y), 4 m long, radius 0.5, at z = 10.
    let lying =
        Affine3A::from_translation(Vec3::new(0.0, 0.0, 10.0)) * Affine3A::from_rotation_z(std::f32::consts::FRAC_PI_2);
    s.add_solid(Solid::Capsule { radius: 0.5, height: 4.0 }, lying, 2).unwrap();
    s.add_solid(
        Solid::Cylinder { radius: 1.0, height: 2.0 },
        Affine3A::from_translation(Vec3::new(0.0, 0.0, -10.0)),
        4,
    )
    .unwrap();
    s.index(2.0);
    let down = |x: f32, z: f32| s.cast(RayKind::Down, Vec3::new(x, 9.0, z), Vec3::new(x, -9.0, z));
    let top = down(10.0, 0.0).unwrap();
    assert!((top.position.y - 2.0).abs() < 1e-4 && top.normal.abs_diff_eq(Vec3::Y, 1e-5));
    let off = down(11.0, 0.0).unwrap();
    assert!((off.position.y - 3.0f32.sqrt()).abs() < 1e-4);
    assert!(down(12.1, 0.0).is_none());
    // The capsule's cap end at x = 1.9 (centre 1.5): height sqrt(0.25 - 0.16).
    let cap = down(1.9, 10.0).unwrap();
    assert!((cap.position.y - 0.09f32.sqrt()).abs() < 1e-4 && cap.layer == 2);
    assert!((down(0.3, 10.0).unwrap().position.y - 0.5).abs() < 1e-5);
    assert!(down(2.1, 10.0).is_none());
    let cyl = down(0.5, -10.5).unwrap();
    assert!((cyl.position.y - 1.0).abs() < 1e-5 && cyl.normal == Vec3::Y && cyl.layer == 4);
    // Sideways into the cylinder's side.
    let side = s.cast(RayKind::Side, Vec3::new(-3.0, 0.0, -10.0), Vec3::new(0.0, 0.0, -10.0)).unwrap();
    assert!((side.position.x + 1.0).abs() < 1e-5 && side.normal.abs_diff_eq(-Vec3::X, 1e-5));
}

#[test]
fn triangles_are_one_sided_unless_asked() {
    let mut s = ColliderSet::new();
    // A 2 x 2 square at y = 1 facing up (clockwise seen from above).
    let q = [
        Vec3::new(0.0, 1.0, 0.0),
        Vec3::new(2.0, 1.0, 0.0),
        Vec3::new(0.0, 1.0, 2.0),
        Vec3::new(2.0, 1.0, 0.0),
        Vec3::new(2.0, 1.0, 2.0),
        Vec3::new(0.0, 1.0, 2.0),
    ];
    assert_eq!(s.add_trimesh(&q, Affine3A::IDENTITY, false, 1), 0);
    s.index(2.0);
    let down = s.cast(RayKind::Down, Vec3::new(0.5, 3.0, 0.5), Vec3::new(0.5, -3.0, 0.5)).unwrap();
    assert!(down.concave && down.normal == Vec3::Y && (down.position.y - 1.0).abs() < 1e-6);
    // From below: a Down-kind ray up would not see the back; Headroom does.
    assert!(s.cast(RayKind::Down, Vec3::new(0.5, 0.0, 0.5), Vec3::new(0.5, 3.0, 0.5)).is_none());
    let up = s.cast(RayKind::Headroom, Vec3::new(0.5, 0.0, 0.5), Vec3::new(0.5, 3.0, 0.5)).unwrap();
    assert_eq!(up.normal, -Vec3::Y);
}

#[test]
fn height_map_and_world_boundary() {
    let mut s = ColliderSet::new();
    // 3 x 3 heights rising along x: 0, 1, 2; centred, placed at x = 100.
    let h = [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 1.0, 2.0];
    s.add_height_map(3, 3, &h, Affine3A::from_translation(Vec3::new(100.0, 0.0, 0.0)), 1).unwrap();
    assert!(s.add_height_map(3, 2, &h, Affine3A::IDENTITY, 1).is_err());
    s.add_half_space(Vec3::Y, -5.0, Affine3A::IDENTITY, 8).unwrap();
    s.index(2.0);
    let hit = s.cast(RayKind::Down, Vec3::new(100.5, 9.0, 0.2), Vec3::new(100.5, -9.0, 0.2)).unwrap();
    assert!((hit.position.y - 1.5).abs() < 1e-5 && hit.normal.y > 0.5);
    let floor = s.cast(RayKind::Down, Vec3::new(0.0, 9.0, 0.0), Vec3::new(0.0, -9.0, 0.0)).unwrap();
    assert!((floor.position.y + 5.0).abs() < 1e-5 && floor.layer == 8);
    assert!(s.cast(RayKind::Down, Vec3::new(0.0, -6.0, 0.0), Vec3::new(0.0, -9.0, 0.0)).is_none());
}

#[test]
fn large_items_and_an_unindexed_set_are_still_hit() {
    let mut s = ColliderSet::new();
    // A 1 km floor over half a million 1 m squares, and a post.
    s.add_solid(Solid::Box { half: Vec3::new(500.0, 0.5, 500.0) }, Affine3A::IDENTITY, 1).unwrap();
    s.add_solid(Solid::Box { half: Vec3::new(0.5, 2.0, 0.5) }, Affine3A::from_translation(Vec3::new(3.0, 2.0, 3.0)), 2)
        .unwrap();
    let down = |s: &ColliderSet, x: f32| s.cast(RayKind::Down, Vec3::new(x, 9.0, 3.0), Vec3::new(x, -9.0, 3.0));
    // Not indexed yet: every shape is tested.
    assert_eq!(down(&s, 3.0).unwrap().layer, 2);
    s.index(1.0);
    assert_eq!(s.large_items.len(), 1);
    assert!(s.bucket_items.len() < 100, "the floor is kept out of the buckets");
    assert_eq!(down(&s, 3.0).unwrap().layer, 2);
    let floor = down(&s, 400.0).unwrap();
    assert!((floor.position.y - 0.5).abs() < 1e-5 && floor.layer == 1);
}

#[test]
fn bad_shapes_are_refused() {
    let mut s = ColliderSet::new();
    assert!(s.add_solid(Solid::Sphere { radius: f32::NAN }, Affine3A::IDENTITY, 1).is_err());
    assert!(s.add_solid(Solid::Box { half: Vec3::ONE }, Affine3A::from_scale(Vec3::new(1.0, 0.0, 1.0)), 1).is_err());
    let nan = [Vec3::NAN, Vec3::ONE, Vec3::X];
    assert_eq!(s.add_trimesh(&nan, Affine3A::IDENTITY, false, 1), 1);
    assert_eq!(s.counts(), (0, 0, 0));
}

#[test]
fn a_column_caster_hits_as_the_set_does() {
    // Boxes (some turned), a sphere, a capsule, a floor over every bucket, triangles both ways.
    let mut s = ColliderSet::new();
    s.add_solid(
        Solid::Box { half: Vec3::new(50.0, 0.5, 50.0) },
        Affine3A::from_translation(Vec3::new(0.0, -0.5, 0.0)),
        1,
    )
    .unwrap();
    for k in 0..40 {
        let (x, z) = ((k % 8) as f32 * 4.0 - 16.0, (k / 8) as f32 * 4.0 - 10.0);
        let turn = Affine3A::from_rotation_y(k as f32 * 0.37);
        let place = Affine3A::from_translation(Vec3::new(x, (k % 3) as f32, z)) * turn;
        let solid = match k % 4 {
            0 => Solid::Box { half: Vec3::new(1.5, 0.4, 0.3) },
            1 => Solid::Sphere { radius: 0.8 },
            2 => Solid::Capsule { radius: 0.4, height: 2.0 },
            _ => Solid::Cylinder { radius: 0.6, height: 1.0 },
        };
        s.add_solid(solid, place, 1 << (k % 3)).unwrap();
    }
    let quad = [
        Vec3::new(-5.0, 2.0, -5.0),
        Vec3::new(5.0, 2.5, -5.0),
        Vec3::new(5.0, 2.0, 5.0),
        Vec3::new(-5.0, 2.0, -5.0),
        Vec3::new(5.0, 2.0, 5.0),
        Vec3::new(-5.0, 1.5, 5.0),
    ];
    s.add_trimesh(&quad, Affine3A::IDENTITY, false, 2);
    s.index(2.0);
    let mut column = s.column_caster();
    let mut hits = [0; 3];
    for i in 0..2000 {
        // Several rays down the same column in turn, as the bake casts them, and some sideways.
        let (x, z) = ((i / 5) as f32 * 0.173 % 40.0 - 20.0, (i / 5) as f32 * 0.311 % 30.0 - 15.0);
        let y = 6.0 - (i % 5) as f32 * 1.3;
        for kind in [RayKind::Down, RayKind::Headroom, RayKind::Side] {
            let (from, to) = if kind == RayKind::Down {
                (Vec3::new(x, y, z), Vec3::new(x, -3.0, z))
            } else {
                (Vec3::new(x, y - 4.0, z), Vec3::new(x + (kind == RayKind::Side) as u8 as f32 * 0.5, y - 2.0, z))
            };
            let hit = column.cast(kind, from, to);
            assert_eq!(hit, s.cast(kind, from, to), "{kind:?} from {from} to {to}");
            hits[kind as usize] += hit.is_some() as usize;
        }
    }
    assert!(hits.iter().all(|&h| h > 100), "every kind hits often enough to count: {hits:?}");
}

#[test]
fn a_column_caster_answers_boxes_along_the_axes_from_their_heights() {
    // Only boxes along the axes (the caster's slab path), stacked, overlapping and touching,
    // with faces on the very lines the rays run down, so rays start inside, on faces and on edges.
    let mut s = ColliderSet::new();
    let b = |s: &mut ColliderSet, lo: Vec3, hi: Vec3, layer: u32| {
        s.add_solid(Solid::Box { half: (hi - lo) * 0.5 }, Affine3A::from_translation((lo + hi) * 0.5), layer).unwrap();
    };
    b(&mut s, Vec3::new(-8.0, -1.0, -8.0), Vec3::new(8.0, 0.0, 8.0), 1);
    for k in 0..24 {
        let (x, z) = ((k % 6) as f32 * 2.5 - 7.0, (k / 6) as f32 * 3.0 - 6.0);
        let y = (k % 4) as f32 * 0.75;
        b(
            &mut s,
            Vec3::new(x, y, z),
            Vec3::new(x + 1.0 + (k % 3) as f32, y + 0.5 + (k % 2) as f32 * 2.0, z + 1.5),
            1 << (k % 3),
        );
    }
    s.index(2.0);
    let mut column = s.column_caster();
    let mut hits = [0; 2];
    for i in 0..3000 {
        // Columns on half-metre lines (box faces and edges among them), several rays each.
        let (x, z) = (((i / 6) % 33) as f32 * 0.5 - 8.0, ((i / 6) / 33 % 33) as f32 * 0.5 - 8.0);
        let y = 4.0 - (i % 6) as f32 * 0.75;
        for kind in [RayKind::Down, RayKind::Headroom] {
            let (from, to) = match kind {
                RayKind::Down => (Vec3::new(x, y, z), Vec3::new(x, -2.0, z)),
                _ => (Vec3::new(x, y - 2.0, z), Vec3::new(x, y - 0.2, z)),
            };
            let hit = column.cast(kind, from, to);
            assert_eq!(hit, s.cast(kind, from, to), "{kind:?} from {from} to {to}");
            hits[kind as usize] += hit.is_some() as usize;
        }
    }
    assert!(hits.iter().all(|&h| h > 300), "both kinds hit often enough to count: {hits:?}");
}
