//! Reading the collision shapes a bake samples out of the physics server into the core's
//! `ColliderSet`: every body shape overlapping the bake bounds on the bake's layers (one shape
//! query), with its body's and its own transform. Shapes the set does not model (convex
//! polygons, custom shapes) are named in the error, and the bake then casts physics rays.

use godot::classes::physics_server_3d::{BodyState, ShapeType};
use godot::classes::{BoxShape3D, PhysicsDirectSpaceState3D, PhysicsServer3D, PhysicsShapeQueryParameters3D};
use godot::prelude::*;
use swarm_core::flow_field::bake::{BakeSettings, ColliderSet, Solid};
use swarm_core::glam::{Affine3A, Vec3};

use crate::convert::{to_affine, to_vec3};

/// Most shapes one query may report (the query grows to this, four times at a step).
const MAX_SHAPES: i32 = 1 << 22;
/// Most triangles (of trimeshes and height maps) read; a level with more (a large terrain) is
/// sampled with physics rays, since the set keeps about 120 bytes per triangle.
const MAX_TRIANGLES: usize = 500_000;

/// The shapes over the bake bounds, indexed with squares of four cells. `Err` names the shape
/// types it cannot model (or says why the query failed).
pub fn read_colliders(space: &mut Gd<PhysicsDirectSpaceState3D>, s: &BakeSettings) -> Result<ColliderSet, String> {
    let mask = s.walkable_mask | s.unwalkable_mask;
    let b = s.bounds;
    let mut query_box = BoxShape3D::new_gd();
    // A little beyond the bounds: the rays start and end just outside them.
    let pad = Vec3::splat(0.1);
    let half = b.size * 0.5 + pad;
    query_box.set_size(Vector3::new(half.x, half.y, half.z) * 2.0);
    let centre = b.position + b.size * 0.5;
    let mut q = PhysicsShapeQueryParameters3D::new_gd();
    q.set_shape(&query_box);
    q.set_transform(Transform3D::new(Basis::IDENTITY, Vector3::new(centre.x, centre.y, centre.z)));
    q.set_collision_mask(mask);
    q.set_collide_with_bodies(true);
    q.set_collide_with_areas(false);
    let mut max = 4096;
    let hits = loop {
        let hits = space.intersect_shape_ex(&q).max_results(max).done();
        if (hits.len() as i64) < i64::from(max) {
            break hits;
        }
        if max >= MAX_SHAPES {
            return Err(format!("more than {MAX_SHAPES} collision shapes overlap the bake bounds"));
        }
        max = max.saturating_mul(4).min(MAX_SHAPES);
    };
    let server = PhysicsServer3D::singleton();
    let mut set = ColliderSet::new();
    let mut unsupported: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut triangles = 0usize;
    for hit in hits.iter_shared() {
        let Some(rid) = hit.get("rid").and_then(|v| v.try_to::<Rid>().ok()) else { continue };
        let Some(idx) = hit.get("shape").and_then(|v| v.try_to::<i64>().ok()) else { continue };
        let Ok(idx) = i32::try_from(idx) else { continue };
        if !seen.insert((rid.to_u64(), idx)) || idx < 0 || idx >= server.body_get_shape_count(rid) {
            continue;
        }
        let layer = server.body_get_collision_layer(rid);
        let Ok(body) = server.body_get_state(rid, BodyState::TRANSFORM).try_to::<Transform3D>() else { continue };
        let shape = server.body_get_shape(rid, idx);
        let world = to_affine(body * server.body_get_shape_transform(rid, idx));
        let data = server.shape_get_data(shape);
        let kind = server.shape_get_type(shape);
        triangles += triangle_count(kind, &data);
        if triangles > MAX_TRIANGLES {
            return Err(format!("the trimeshes and height maps have more than {MAX_TRIANGLES} triangles"));
        }
        let added = add_shape(&mut set, kind, &data, world, layer);
        if let Err(Some(name)) = added {
            if !unsupported.contains(&name) {
                unsupported.push(name);
            }
        }
    }
    if !unsupported.is_empty() {
        return Err(format!("{} shapes are not read directly", unsupported.join(" and ")));
    }
    set.index(s.cell_size * 4.0);
    Ok(set)
}

/// How many triangles a trimesh or height map shape holds (0 for any other shape).
fn triangle_count(kind: ShapeType, data: &Variant) -> usize {
    let Ok(d) = data.try_to::<VarDictionary>() else { return 0 };
    let int = |k: &str| d.get(k).and_then(|v| v.try_to::<i64>().ok()).unwrap_or(0).max(0) as usize;
    match kind {
        ShapeType::CONCAVE_POLYGON => {
            d.get("faces").and_then(|v| v.try_to::<PackedVector3Array>().ok()).map_or(0, |f| f.len() / 3)
        }
        ShapeType::HEIGHTMAP => 2 * int("width").saturating_sub(1) * int("depth").saturating_sub(1),
        _ => 0,
    }
}

/// Adds one shape. `Err(Some(type))` for a shape type the set does not model; `Err(None)` for a
/// shape skipped as unusable (bad data, a degenerate transform), which rays would not hit either.
fn add_shape(
    set: &mut ColliderSet,
    kind: ShapeType,
    data: &Variant,
    world: Affine3A,
    layer: u32,
) -> Result<(), Option<&'static str>> {
    let dict = || data.try_to::<VarDictionary>().ok();
    let float = |d: &VarDictionary, k: &str| d.get(k).and_then(|v| v.try_to::<f64>().ok()).map(|v| v as f32);
    let solid = match kind {
        ShapeType::BOX => data.try_to::<Vector3>().ok().map(|h| Solid::Box { half: to_vec3(h) }),
        ShapeType::SPHERE => data.try_to::<f64>().ok().map(|r| Solid::Sphere { radius: r as f32 }),
        ShapeType::CAPSULE | ShapeType::CYLINDER => dict().and_then(|d| {
            let (radius, height) = (float(&d, "radius")?, float(&d, "height")?);
            Some(if kind == ShapeType::CAPSULE {
                Solid::Capsule { radius, height }
            } else {
                Solid::Cylinder { radius, height }
            })
        }),
        ShapeType::WORLD_BOUNDARY => {
            let p = data.try_to::<Plane>().map_err(|_| None)?;
            return set.add_half_space(to_vec3(p.normal), p.d, world, layer).map_err(|_| None);
        }
        ShapeType::CONCAVE_POLYGON => {
            let d = dict().ok_or(None)?;
            let faces = d.get("faces").and_then(|v| v.try_to::<PackedVector3Array>().ok()).ok_or(None)?;
            let two_sided = d.get("backface_collision").and_then(|v| v.try_to::<bool>().ok()).unwrap_or(false);
            let faces: Vec<Vec3> = faces.as_slice().iter().map(|&v| to_vec3(v)).collect();
            set.add_trimesh(&faces, world, two_sided, layer);
            return Ok(());
        }
        ShapeType::HEIGHTMAP => {
            let d = dict().ok_or(None)?;
            let int = |k: &str| d.get(k).and_then(|v| v.try_to::<i64>().ok()).and_then(|v| usize::try_from(v).ok());
            let heights = d.get("heights").and_then(|v| v.try_to::<PackedFloat32Array>().ok()).ok_or(None)?;
            let (w, h) = (int("width").ok_or(None)?, int("depth").ok_or(None)?);
            return set.add_height_map(w, h, heights.as_slice(), world, layer).map_err(|_| None);
        }
        // A separation ray is never hit by a ray.
        ShapeType::SEPARATION_RAY => return Ok(()),
        ShapeType::CONVEX_POLYGON => return Err(Some("ConvexPolygonShape3D")),
        _ => return Err(Some("custom")),
    };
    set.add_solid(solid.ok_or(None)?, world, layer).map_err(|_| None)
}
