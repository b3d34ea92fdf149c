//! The surface flow field bake's Godot side: the core's `Baker` (`swarm_core::flow_field::bake`,
//! which does all the sampling and says how) answered from the scene's collision shapes read
//! once into a `ColliderSet` (`shapes`; pass 1 then runs on all threads), or, where a shape the
//! set does not model overlaps the bounds (or when asked), by casting physics rays through a
//! `PhysicsDirectSpaceState3D`; a slice of columns at a time (`FlowBaker`, for the editor's
//! progress bar) or in one go (`bake_now`).

mod shapes;

use std::collections::HashMap;

use godot::classes::physics_server_3d::ShapeType;
use godot::classes::{PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D, PhysicsServer3D};
use godot::prelude::*;
pub use swarm_core::flow_field::bake::BakeSettings;
use swarm_core::flow_field::bake::{Baker, ColliderSet, RayCaster, RayHit, RayKind};
use swarm_core::flow_field::SurfaceGrid;
use swarm_core::glam::Vec3;

/// What answers the bake's rays.
enum Source {
    Shapes(Box<ColliderSet>),
    Rays(Box<GodotRays>),
}

/// A bake in progress: the core's baker and what answers its rays, kept between steps.
pub struct FlowBaker {
    baker: Baker,
    source: Option<Source>,
    physics_rays: bool,
    method: String,
}

impl FlowBaker {
    /// Validates the settings; the error names the bad field. `physics_rays` casts physics rays
    /// even where every shape could be read directly.
    pub fn new(settings: BakeSettings, physics_rays: bool) -> Result<Self, String> {
        Ok(Self { baker: Baker::new(settings)?, source: None, physics_rays, method: String::new() })
    }

    /// Grid size in columns (x, z).
    pub fn dims(&self) -> (u32, u32) {
        self.baker.dims()
    }

    /// Rays cast so far.
    pub fn ray_count(&self) -> u64 {
        self.baker.ray_count()
    }

    /// How the bake samples ("collision shapes", or "physics rays" and why); empty until the
    /// first step.
    pub fn method(&self) -> &str {
        &self.method
    }

    pub fn is_done(&self) -> bool {
        self.baker.is_done()
    }

    /// Samples up to `max_columns` more columns (at least one) through `space`; returns the
    /// progress, 0..=1. The first step reads the shapes (or falls back to rays).
    pub fn step(&mut self, space: &mut Gd<PhysicsDirectSpaceState3D>, max_columns: usize) -> f32 {
        let s = *self.baker.settings();
        let source = self.source.get_or_insert_with(|| {
            let (source, method) = choose_source(space, &s, self.physics_rays);
            self.method = method;
            source
        });
        match source {
            Source::Shapes(set) => self.baker.step_shared(set, max_columns),
            Source::Rays(rays) => self.baker.step(&mut rays.caster(space), max_columns),
        }
    }

    /// Bakes the grid from the samples (after sampling is done).
    pub fn finish(self) -> Result<SurfaceGrid, String> {
        self.baker.finish()
    }
}

/// The shapes when every one can be read, else physics rays; and the method's description.
fn choose_source(space: &mut Gd<PhysicsDirectSpaceState3D>, s: &BakeSettings, physics_rays: bool) -> (Source, String) {
    let rays = || Source::Rays(Box::new(GodotRays::new(s.walkable_mask | s.unwalkable_mask)));
    if physics_rays {
        return (rays(), "physics rays (asked for)".to_string());
    }
    match shapes::read_colliders(space, s) {
        Ok(set) => (Source::Shapes(Box::new(set)), "collision shapes".to_string()),
        Err(why) => (rays(), format!("physics rays ({why})")),
    }
}

/// Bakes in one go through `space` (run-time `bake_flow_field()`).
pub fn bake_now(settings: BakeSettings, space: &mut Gd<PhysicsDirectSpaceState3D>) -> Result<SurfaceGrid, String> {
    let mut baker = FlowBaker::new(settings, false)?;
    while !baker.is_done() {
        baker.step(space, 1 << 20);
    }
    baker.finish()
}

/// Physics ray queries through a `PhysicsDirectSpaceState3D`: one query object per ray kind,
/// reused, and the collision layer of each collider hit looked up once.
struct GodotRays {
    down: Gd<PhysicsRayQueryParameters3D>,
    headroom: Gd<PhysicsRayQueryParameters3D>,
    side: Gd<PhysicsRayQueryParameters3D>,
    key_position: Variant,
    key_normal: Variant,
    key_rid: Variant,
    key_shape: Variant,
    layers: HashMap<u64, u32>,
    /// Per (body, shape index): the shape is a trimesh or height map.
    concave: HashMap<(u64, i64), bool>,
    server: Gd<PhysicsServer3D>,
}

impl GodotRays {
    fn new(mask: u32) -> Self {
        let query = |from_inside: bool, back_faces: bool| {
            let mut q = PhysicsRayQueryParameters3D::new_gd();
            q.set_collision_mask(mask);
            q.set_collide_with_bodies(true);
            q.set_collide_with_areas(false);
            q.set_hit_from_inside(from_inside);
            q.set_hit_back_faces(back_faces);
            q
        };
        Self {
            down: query(false, false),
            headroom: query(true, true),
            side: query(false, true),
            key_position: "position".to_variant(),
            key_normal: "normal".to_variant(),
            key_rid: "rid".to_variant(),
            key_shape: "shape".to_variant(),
            layers: HashMap::new(),
            concave: HashMap::new(),
            server: PhysicsServer3D::singleton(),
        }
    }

    fn caster<'a>(&'a mut self, space: &'a mut Gd<PhysicsDirectSpaceState3D>) -> GodotCaster<'a> {
        GodotCaster { rays: self, space }
    }
}

struct GodotCaster<'a> {
    rays: &'a mut GodotRays,
    space: &'a mut Gd<PhysicsDirectSpaceState3D>,
}

impl RayCaster for GodotCaster<'_> {
    fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        let r = &mut *self.rays;
        let q = match kind {
            RayKind::Down => &mut r.down,
            RayKind::Headroom => &mut r.headroom,
            RayKind::Side => &mut r.side,
        };
        q.set_from(Vector3::new(from.x, from.y, from.z));
        q.set_to(Vector3::new(to.x, to.y, to.z));
        let d = self.space.intersect_ray(&*q);
        if d.is_empty() {
            return None;
        }
        let v3 = |k: &Variant| d.get(k).and_then(|v| v.try_to::<Vector3>().ok());
        let position = v3(&r.key_position)?;
        let position = Vec3::new(position.x, position.y, position.z);
        if kind != RayKind::Down {
            // Only where a wall or ceiling is matters; skip the lookups.
            return Some(RayHit { position, normal: Vec3::ZERO, layer: 0, concave: false });
        }
        let normal = v3(&r.key_normal).unwrap_or(Vector3::ZERO);
        let rid = d.get(&r.key_rid).and_then(|v| v.try_to::<Rid>().ok());
        let shape = d.get(&r.key_shape).and_then(|v| v.try_to::<i64>().ok()).unwrap_or(0);
        let (layer, concave) = match rid {
            Some(rid) => {
                let server = &r.server;
                let layer = *r.layers.entry(rid.to_u64()).or_insert_with(|| server.body_get_collision_layer(rid));
                let concave = *r.concave.entry((rid.to_u64(), shape)).or_insert_with(|| {
                    let idx = i32::try_from(shape).unwrap_or(0);
                    let n = server.body_get_shape_count(rid);
                    if idx < 0 || idx >= n {
                        return false;
                    }
                    let t = server.shape_get_type(server.body_get_shape(rid, idx));
                    t == ShapeType::CONCAVE_POLYGON || t == ShapeType::HEIGHTMAP
                });
                (layer, concave)
            }
            None => (0, false),
        };
        Some(RayHit { position, normal: Vec3::new(normal.x, normal.y, normal.z), layer, concave })
    }
}
