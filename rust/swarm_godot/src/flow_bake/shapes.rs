//! Reading the collision shapes a bake samples out of the physics server into the core's
//! `ColliderSet`: every body shape overlapping the bake bounds on the bake's layers (shape
//! queries over parts of the bounds, see `gather`), with its body's and its own transform.
//! Shapes the set does not model (convex polygons, custom shapes) are named in the error, and
//! the bake then casts physics rays.

use godot::classes::physics_server_3d::{BodyState, ShapeType};
use godot::classes::{Area3D, BoxShape3D, PhysicsDirectSpaceState3D, PhysicsServer3D, PhysicsShapeQueryParameters3D};
use godot::prelude::*;
use swarm_core::flow_field::bake::{BakeSettings, ColliderSet, Solid};
use swarm_core::glam::{Affine3A, Vec3};

use crate::convert::{to_affine, to_vec3};

/// Most candidates Godot Physics gathers for one shape query (before it filters them by layer
/// or kind: more overlapping objects are dropped without a word).
const QUERY_MAX: i32 = 2048;
/// A part of the bounds where a query of every object finds this many is split in four.
const SPLIT_AT: usize = 1024;
/// Most triangles (of trimeshes and height maps) read; a level with more (a large terrain) is
/// sampled with physics rays, since the set keeps about 120 bytes per triangle.
const MAX_TRIANGLES: usize = 500_000;

/// The shapes over the bake bounds, indexed with squares of four cells. `Err` names the shape
/// types it cannot model (or says why the query failed).
pub fn read_colliders(space: &mut Gd<PhysicsDirectSpaceState3D>, s: &BakeSettings) -> Result<ColliderSet, String> {
    let mask = s.walkable_mask | s.unwalkable_mask;
    // A little beyond the bounds: the rays start and end just outside them.
    let pad = Vec3::splat(0.1);
    let hits = gather(space, (s.bounds.position - pad, s.bounds.position + s.bounds.size + pad), mask)?;
    let server = PhysicsServer3D::singleton();
    let mut set = ColliderSet::new();
    let mut unsupported: Vec<&str> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut triangles = 0usize;
    // The keys as variants once (a `&str` key is converted on every lookup).
    let (key_rid, key_shape) = ("rid".to_variant(), "shape".to_variant());
    for hit in hits {
        let Some(rid) = hit.get(&key_rid).and_then(|v| v.try_to::<Rid>().ok()) else { continue };
        let Some(idx) = hit.get(&key_shape).and_then(|v| v.try_to::<i64>().ok()) else { continue };
        let Ok(idx) = i32::try_from(idx) else { continue };
        if !seen.insert((rid.to_u64(), idx)) || idx < 0 || idx >= server.body_get_shape_count(rid) {
            continue;
        }
        let layer = server.body_get_collision_layer(rid);
        if layer & mask == 0 {
            continue;
        }
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

/// Every body shape overlapping the box `lo..hi` (those on `mask` among them: the caller keeps
/// only those), one query per part of the box. A query of every object (all layers, areas
/// too) tells whether the part comes near the engine's limit per query: then it is split in
/// four, so nothing is left out. Otherwise that query's bodies are the answer: areas are told
/// apart by their node; an object with no node (made through the physics server) cannot be,
/// and then the part is asked again for bodies on `mask` alone. Shapes in several parts come
/// once per part.
fn gather(
    space: &mut Gd<PhysicsDirectSpaceState3D>,
    (lo, hi): (Vec3, Vec3),
    mask: u32,
) -> Result<Vec<VarDictionary>, String> {
    let mut part_box = BoxShape3D::new_gd();
    let mut q = PhysicsShapeQueryParameters3D::new_gd();
    q.set_shape(&part_box);
    q.set_collide_with_bodies(true);
    let mut parts = vec![(lo, hi)];
    let mut out = Vec::new();
    let key_collider = "collider".to_variant();
    while let Some((lo, hi)) = parts.pop() {
        let (size, centre) = (hi - lo, (lo + hi) * 0.5);
        part_box.set_size(Vector3::new(size.x, size.y, size.z));
        q.set_transform(Transform3D::new(Basis::IDENTITY, Vector3::new(centre.x, centre.y, centre.z)));
        q.set_collision_mask(u32::MAX);
        q.set_collide_with_areas(true);
        let every = space.intersect_shape_ex(&q).max_results(QUERY_MAX).done();
        if every.len() >= SPLIT_AT {
            if size.x.max(size.z) < 0.5 {
                return Err(format!("more than {SPLIT_AT} collision objects overlap half a metre of the bounds"));
            }
            let mid = centre;
            for (x0, x1) in [(lo.x, mid.x), (mid.x, hi.x)] {
                for (z0, z1) in [(lo.z, mid.z), (mid.z, hi.z)] {
                    parts.push((Vec3::new(x0, lo.y, z0), Vec3::new(x1, hi.y, z1)));
                }
            }
            continue;
        }
        let start = out.len();
        let mut nodeless = false;
        for hit in every.iter_shared() {
            match hit.get(&key_collider).and_then(|v| v.try_to::<Gd<Object>>().ok()) {
                Some(node) => {
                    if node.try_cast::<Area3D>().is_err() {
                        out.push(hit);
                    }
                }
                None => {
                    nodeless = true;
                    break;
                }
            }
        }
        if nodeless {
            out.truncate(start);
            q.set_collision_mask(mask);
            q.set_collide_with_areas(false);
            out.extend(space.intersect_shape_ex(&q).max_results(QUERY_MAX).done().iter_shared());
        }
    }
    Ok(out)
}

/// How many triangles a trimesh or height map shape holds (0 for any other shape).
fn triangle_count(kind: ShapeType, data: &Variant) -> usize {
    // Only those two hold a dictionary (a failed conversion costs an error value).
    if kind != ShapeType::CONCAVE_POLYGON && kind != ShapeType::HEIGHTMAP {
        return 0;
    }
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
            // Single-precision engines hold the heights as 32-bit floats, double-precision ones
            // as 64-bit.
            let heights = d.get("heights").ok_or(None)?;
            let heights: Vec<f32> = match heights.try_to::<PackedFloat32Array>() {
                Ok(h) => h.as_slice().to_vec(),
                Err(_) => heights
                    .try_to::<PackedFloat64Array>()
                    .map_err(|_| Some("HeightMapShape3D (heights of an unknown type)"))?
                    .as_slice()
                    .iter()
                    .map(|&h| h as f32)
                    .collect(),
            };
            let (w, h) = (int("width").ok_or(None)?, int("depth").ok_or(None)?);
            return set.add_height_map(w, h, &heights, world, layer).map_err(|_| None);
        }
        // A separation ray is never hit by a ray.
        ShapeType::SEPARATION_RAY => return Ok(()),
        ShapeType::CONVEX_POLYGON => return Err(Some("ConvexPolygonShape3D")),
        _ => return Err(Some("custom")),
    };
    set.add_solid(solid.ok_or(None)?, world, layer).map_err(|_| None)
}
