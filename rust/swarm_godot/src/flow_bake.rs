//! Baking the surface flow field from the scene's physics colliders (SPEC section 6).
//!
//! A `FlowBaker` samples the bake bounds one column (a `cell_size` square) at a time with physics
//! rays through the column's centre, a slice of columns per `step` so the editor can show
//! progress, and `finish` hands the samples to `SurfaceGrid::bake`, which applies agent height,
//! step height and clearance. Two passes:
//!
//! 1. Surfaces (per column). A ray from the top of the bounds down to the bottom; after each hit
//!    the next ray starts a little below it, inside the collider it hit, which rays ignore, so it
//!    goes on to the next surface down. Every hit is a surface sample, walkable when its collider
//!    is on a `walkable_mask` layer and on no `unwalkable_mask` layer and the surface is no
//!    steeper than `MAX_SLOPE_DEGREES`. Then, from each walkable surface, a ray up
//!    `agent_height` that also reports a start inside a collider and hits back faces: any hit (a
//!    low ceiling or overhang, or the surface being the floor under a wall, a pillar or a stair
//!    step, convex or trimesh) blocks it.
//!    A wall a cell thick or more is thereby a column whose floor is blocked and whose top is a
//!    surface too high to step onto, so nothing links across it.
//! 2. Thin walls (per column, after pass 1). Between each walkable surface and the surface it
//!    would link to in the +x and the +z column (the nearest within `max_step_height`), a ray from
//!    centre to centre above step height; a hit (a wall or fence thinner than a cell, which the
//!    downward rays can miss) blocks the surface on the side nearer to the hit.
//!
//! Trimesh colliders (`ConcavePolygonShape3D`, as CSG makes, and height maps) have no inside for
//! a ray, and rays do not see their faces from behind, so a surface inside a closed trimesh (the
//! floor under a CSG wall) has clear headroom. Such a surface is *under a trimesh* (a trimesh hit
//! above it in its column); where either end of a wall ray is, a miss is cast again the other
//! way, from outside in, and a hit blocks the end under the trimesh. That seals a trimesh wall
//! from both sides; the middle of a trimesh block three or more cells thick can stay walkable,
//! but unreachable.
//!
//! The ray work is behind `RayCaster`, so the sampling logic is unit-tested against a world of
//! boxes; `GodotRays` casts through a `PhysicsDirectSpaceState3D`.

use std::collections::HashMap;

use godot::classes::physics_server_3d::ShapeType;
use godot::classes::{PhysicsDirectSpaceState3D, PhysicsRayQueryParameters3D, PhysicsServer3D};
use godot::prelude::*;
use swarm_core::flow_field::{BakeParams, BakeSamples, SurfaceGrid, SurfaceSample};
use swarm_core::glam::Vec3;

/// Most columns one bake may have (2048 x 2048).
pub const MAX_COLUMNS: u64 = 4 * 1024 * 1024;
/// Surfaces steeper than this are not walkable.
pub const MAX_SLOPE_DEGREES: f32 = 50.0;
/// Most surfaces recorded in one column.
const MAX_SURFACES_PER_COLUMN: usize = 64;
/// How far below a hit the next downward ray starts (inside the collider hit).
const DESCEND: f32 = 0.05;
/// How far above a surface its headroom ray starts.
const HEADROOM_LIFT: f32 = 0.05;
/// Rays start this far above the bounds and end this far below them.
const BOUNDS_PAD: f32 = 0.01;

/// What to bake: the box, the cell size, the agent's dimensions and which physics layers count.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BakeSettings {
    /// World-space box to sample; its x/z extent is divided into columns of `cell_size`.
    pub bounds: Aabb,
    pub cell_size: f32,
    pub clearance_radius: f32,
    pub agent_height: f32,
    pub max_step_height: f32,
    /// Layers agents can walk on.
    pub walkable_mask: u32,
    /// Layers that are never walkable (they still block and count as ceilings).
    pub unwalkable_mask: u32,
}

impl Default for BakeSettings {
    fn default() -> Self {
        Self {
            bounds: Aabb::new(Vector3::ZERO, Vector3::ZERO),
            cell_size: 0.5,
            clearance_radius: 0.3,
            agent_height: 1.8,
            max_step_height: 0.4,
            walkable_mask: 1,
            unwalkable_mask: 0,
        }
    }
}

impl BakeSettings {
    /// Checks every field; the message names the first bad one.
    pub fn validate(&self) -> Result<(u32, u32), String> {
        let finite = |name: &str, v: f32| -> Result<(), String> {
            if v.is_finite() {
                Ok(())
            } else {
                Err(format!("{name} = {v} is not a finite number"))
            }
        };
        finite("cell_size", self.cell_size)?;
        if self.cell_size <= 0.0 {
            return Err(format!("cell_size = {} must be above 0", self.cell_size));
        }
        finite("agent_height", self.agent_height)?;
        if self.agent_height <= 0.0 {
            return Err(format!("agent_height = {} must be above 0", self.agent_height));
        }
        for (name, v) in [("clearance_radius", self.clearance_radius), ("max_step_height", self.max_step_height)] {
            finite(name, v)?;
            if v < 0.0 {
                return Err(format!("{name} = {v} must not be negative"));
            }
        }
        let (p, s) = (self.bounds.position, self.bounds.size);
        if !(p.is_finite() && s.is_finite()) {
            return Err(format!("bake_bounds {} is not finite", self.bounds));
        }
        if s.x < 0.0 || s.y < 0.0 || s.z < 0.0 {
            return Err(format!("bake_bounds {} has a negative size (use a positive size)", self.bounds));
        }
        if s.x <= 0.0 || s.z <= 0.0 {
            return Err(format!(
                "bake_bounds {} is empty: give it the width (x) and depth (z) of the area to bake",
                self.bounds
            ));
        }
        if self.walkable_mask == 0 {
            return Err("walkable_mask is 0, so no collider could be walked on".to_string());
        }
        let dims = |extent: f32| ((extent / self.cell_size) as f64).ceil().max(1.0);
        let (dx, dz) = (dims(s.x), dims(s.z));
        if dx * dz > MAX_COLUMNS as f64 {
            return Err(format!(
                "bake_bounds size ({}, {}) at cell_size {} makes {} x {} columns, more than {}: raise cell_size or shrink bake_bounds",
                s.x, s.z, self.cell_size, dx, dz, MAX_COLUMNS
            ));
        }
        Ok((dx as u32, dz as u32))
    }

    pub fn params(&self) -> BakeParams {
        BakeParams {
            agent_height: self.agent_height,
            max_step_height: self.max_step_height,
            clearance_radius: self.clearance_radius,
        }
    }
}

/// The three kinds of ray the baker casts, each with its own query flags.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RayKind {
    /// Downward surface search: ignores colliders the ray starts inside and back faces.
    Down,
    /// Headroom: reports a start inside a (convex) collider, at the start with a zero normal, and
    /// hits back faces, so a start inside a closed trimesh (a CSG wall) hits its top from below.
    Headroom,
    /// Between neighbouring columns: ignores a start inside, hits back faces (one-sided walls).
    Side,
}

/// One ray hit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RayHit {
    pub position: Vec3,
    /// Unit surface normal (zero for a start inside a collider).
    pub normal: Vec3,
    /// Collision layer of the collider hit.
    pub layer: u32,
    /// The shape hit is a trimesh or height map (no inside, faces one-sided).
    pub concave: bool,
}

/// Casts rays against colliders on `walkable_mask | unwalkable_mask`. Only `Down` hits need
/// their normal, layer and `concave`; the baker reads just the position of the others.
pub trait RayCaster {
    fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit>;
}

/// Fixed facts of one bake, derived from the settings.
#[derive(Clone, Copy, Debug)]
struct Plan {
    settings: BakeSettings,
    origin: Vec3,
    dims_x: u32,
    dims_z: u32,
    top: f32,
    bottom: f32,
    /// Lowest normal.y of a walkable surface.
    min_normal_y: f32,
    /// Height above the surface of the wall rays between columns.
    side_lift: f32,
}

/// Samples the scene's colliders column by column; see the module docs.
pub struct FlowBaker {
    plan: Plan,
    column_start: Vec<u32>,
    samples: Vec<SurfaceSample>,
    /// Per sample: a trimesh surface is above it in its column.
    under_trimesh: Vec<bool>,
    /// Columns done in pass 1 (surfaces) and pass 2 (thin walls).
    surfaces_done: usize,
    walls_done: usize,
    rays: u64,
    scratch: Vec<(SurfaceSample, bool)>,
    godot: Option<GodotRays>,
}

impl FlowBaker {
    /// Validates the settings; the error names the bad field.
    pub fn new(settings: BakeSettings) -> Result<Self, String> {
        let (dims_x, dims_z) = settings.validate()?;
        let b = settings.bounds;
        let cols = dims_x as usize * dims_z as usize;
        let mut column_start = Vec::with_capacity(cols + 1);
        column_start.push(0);
        let side_lift = (settings.max_step_height + 0.1).min(settings.agent_height * 0.9).max(0.01);
        Ok(Self {
            plan: Plan {
                settings,
                origin: Vec3::new(b.position.x, b.position.y, b.position.z),
                dims_x,
                dims_z,
                top: b.position.y + b.size.y + BOUNDS_PAD,
                bottom: b.position.y - BOUNDS_PAD,
                min_normal_y: MAX_SLOPE_DEGREES.to_radians().cos(),
                side_lift,
            },
            column_start,
            samples: Vec::with_capacity(cols),
            under_trimesh: Vec::with_capacity(cols),
            surfaces_done: 0,
            walls_done: 0,
            rays: 0,
            scratch: Vec::new(),
            godot: None,
        })
    }

    #[allow(dead_code)] // API for SwarmManager
    pub fn settings(&self) -> &BakeSettings {
        &self.plan.settings
    }

    /// Grid size in columns (x, z).
    pub fn dims(&self) -> (u32, u32) {
        (self.plan.dims_x, self.plan.dims_z)
    }

    pub fn column_count(&self) -> usize {
        self.plan.dims_x as usize * self.plan.dims_z as usize
    }

    /// Rays cast so far.
    pub fn ray_count(&self) -> u64 {
        self.rays
    }

    /// Share of the sampling done, 0..=1.
    pub fn progress(&self) -> f32 {
        let cols = self.column_count();
        ((self.surfaces_done + self.walls_done) as f64 / (2 * cols) as f64) as f32
    }

    pub fn is_done(&self) -> bool {
        self.walls_done >= self.column_count()
    }

    /// Samples up to `max_columns` more columns (at least one) through `space`; returns the
    /// progress, 0..=1.
    pub fn step(&mut self, space: &mut Gd<PhysicsDirectSpaceState3D>, max_columns: usize) -> f32 {
        let mask = self.plan.settings.walkable_mask | self.plan.settings.unwalkable_mask;
        let mut godot = self.godot.take().unwrap_or_else(|| GodotRays::new(mask));
        let p = self.step_with(&mut godot.caster(space), max_columns);
        self.godot = Some(godot);
        p
    }

    /// `step` over any ray caster.
    pub fn step_with(&mut self, rays: &mut impl RayCaster, max_columns: usize) -> f32 {
        let cols = self.column_count();
        let mut budget = max_columns.max(1);
        while budget > 0 && self.surfaces_done < cols {
            self.sample_column(rays, self.surfaces_done);
            self.surfaces_done += 1;
            budget -= 1;
        }
        while budget > 0 && self.surfaces_done >= cols && self.walls_done < cols {
            self.wall_column(rays, self.walls_done);
            self.walls_done += 1;
            budget -= 1;
        }
        self.progress()
    }

    /// Samples everything left through `space` and bakes.
    pub fn run(mut self, space: &mut Gd<PhysicsDirectSpaceState3D>) -> Result<SurfaceGrid, String> {
        while !self.is_done() {
            self.step(space, 1 << 20);
        }
        self.finish()
    }

    /// Bakes the grid from the samples (after sampling is done).
    pub fn finish(self) -> Result<SurfaceGrid, String> {
        if !self.is_done() {
            return Err(format!(
                "the bake is not finished ({:.0}% sampled): call step() until is_done()",
                self.progress() * 100.0
            ));
        }
        let samples = BakeSamples {
            origin: self.plan.origin,
            cell_size: self.plan.settings.cell_size,
            dims_x: self.plan.dims_x,
            dims_z: self.plan.dims_z,
            column_start: self.column_start,
            samples: self.samples,
        };
        SurfaceGrid::bake(&samples, self.plan.settings.params()).map_err(|e| format!("baking the grid failed: {e}"))
    }

    fn column_centre(&self, col: usize) -> (f32, f32) {
        let p = &self.plan;
        let (ix, iz) = (col % p.dims_x as usize, col / p.dims_x as usize);
        let c = p.settings.cell_size;
        (p.origin.x + (ix as f32 + 0.5) * c, p.origin.z + (iz as f32 + 0.5) * c)
    }

    fn cast(&mut self, rays: &mut impl RayCaster, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
        self.rays += 1;
        rays.cast(kind, from, to)
    }

    /// Pass 1 for column `col` (columns are sampled in order, so its samples go at the end).
    fn sample_column(&mut self, rays: &mut impl RayCaster, col: usize) {
        let (x, z) = self.column_centre(col);
        let p = self.plan;
        let s = p.settings;
        let mut found = std::mem::take(&mut self.scratch);
        found.clear();
        let mut from = p.top;
        let mut trimesh_above = false;
        while found.len() < MAX_SURFACES_PER_COLUMN && from > p.bottom {
            let Some(hit) = self.cast(rays, RayKind::Down, Vec3::new(x, from, z), Vec3::new(x, p.bottom, z)) else {
                break;
            };
            // Never above where the ray started, so every round goes strictly down.
            let y = if hit.position.y.is_finite() { hit.position.y.min(from) } else { from };
            let walkable = hit.layer & s.walkable_mask != 0
                && hit.layer & s.unwalkable_mask == 0
                && hit.normal.is_finite()
                && hit.normal.y >= p.min_normal_y * hit.normal.length();
            found.push((SurfaceSample { height: y, walkable }, trimesh_above));
            trimesh_above |= hit.concave;
            from = y - DESCEND;
        }
        // Headroom, highest surface first: a walkable surface with less than agent_height to the
        // next surface up is blocked by the bake anyway, so only the others cast.
        for i in 0..found.len() {
            if !found[i].0.walkable {
                continue;
            }
            let h = found[i].0.height;
            if i > 0 && found[i - 1].0.height - h < s.agent_height {
                continue;
            }
            if s.agent_height > HEADROOM_LIFT {
                let a = Vec3::new(x, h + HEADROOM_LIFT, z);
                let b = Vec3::new(x, h + s.agent_height, z);
                if self.cast(rays, RayKind::Headroom, a, b).is_some() {
                    found[i].0.walkable = false;
                }
            }
        }
        // Stored lowest first, as the grid's spans are.
        self.samples.extend(found.iter().rev().map(|f| f.0));
        self.under_trimesh.extend(found.iter().rev().map(|f| f.1));
        self.column_start.push(self.samples.len() as u32);
        self.scratch = found;
    }

    /// Pass 2 for column `col`: wall rays toward the +x and +z columns.
    fn wall_column(&mut self, rays: &mut impl RayCaster, col: usize) {
        let p = self.plan;
        let (ix, iz) = (col % p.dims_x as usize, col / p.dims_x as usize);
        let (ax, az) = self.column_centre(col);
        for (dx, dz) in [(1usize, 0usize), (0, 1)] {
            if ix + dx >= p.dims_x as usize || iz + dz >= p.dims_z as usize {
                continue;
            }
            let other = col + dx + dz * p.dims_x as usize;
            let (bx, bz) = self.column_centre(other);
            let (a0, a1) = (self.column_start[col] as usize, self.column_start[col + 1] as usize);
            for a in a0..a1 {
                if !self.samples[a].walkable {
                    continue;
                }
                let ha = self.samples[a].height;
                let Some(b) = self.link_candidate(other, ha) else { continue };
                let hb = self.samples[b].height;
                let pa = Vec3::new(ax, ha + p.side_lift, az);
                let pb = Vec3::new(bx, hb + p.side_lift, bz);
                let (ta, tb) = (self.under_trimesh[a], self.under_trimesh[b]);
                // Where the wall is along a -> b (0..1), from either side.
                let mut at = self.cast(rays, RayKind::Side, pa, pb).map(|h| fraction(pa, pb, h.position));
                if at.is_none() && (ta || tb) {
                    at = self.cast(rays, RayKind::Side, pb, pa).map(|h| 1.0 - fraction(pb, pa, h.position));
                }
                if let Some(t) = at {
                    let block_a = match (ta, tb) {
                        (true, false) => true,
                        (false, true) => false,
                        _ => t < 0.5,
                    };
                    self.samples[if block_a { a } else { b }].walkable = false;
                }
            }
        }
    }

    /// The walkable sample of column `col` nearest in height to `h`, within the step height.
    fn link_candidate(&self, col: usize, h: f32) -> Option<usize> {
        let (b0, b1) = (self.column_start[col] as usize, self.column_start[col + 1] as usize);
        let step = self.plan.settings.max_step_height;
        (b0..b1).filter(|&b| self.samples[b].walkable && (self.samples[b].height - h).abs() <= step).min_by(|&p, &q| {
            let (dp, dq) = ((self.samples[p].height - h).abs(), (self.samples[q].height - h).abs());
            dp.total_cmp(&dq)
        })
    }
}

/// How far along `from -> to` (0..1) a point on the segment is.
fn fraction(from: Vec3, to: Vec3, at: Vec3) -> f32 {
    let len = (to - from).length();
    if len > 0.0 {
        ((at - from).length() / len).clamp(0.0, 1.0)
    } else {
        0.0
    }
}

/// Bakes in one go through `space` (run-time `bake_flow_field()`).
pub fn bake_now(settings: BakeSettings, space: &mut Gd<PhysicsDirectSpaceState3D>) -> Result<SurfaceGrid, String> {
    FlowBaker::new(settings)?.run(space)
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use swarm_core::flow_field::CellId;
    use swarm_core::glam::Mat3;

    /// A box collider: centre, rotation, half extents, layer; `concave` for a closed trimesh
    /// (no inside, faces seen from outside only).
    pub struct TestBox {
        pub centre: Vec3,
        pub rot: Mat3,
        pub half: Vec3,
        pub layer: u32,
        pub concave: bool,
    }

    /// Colliders as boxes, with Godot's query semantics for convex shapes.
    pub struct BoxWorld {
        pub boxes: Vec<TestBox>,
        pub mask: u32,
    }

    impl BoxWorld {
        pub fn new() -> Self {
            Self { boxes: Vec::new(), mask: 1 }
        }

        /// An axis-aligned box from `min` to `max`.
        pub fn aabb(&mut self, min: Vec3, max: Vec3) -> &mut Self {
            self.boxes.push(TestBox {
                centre: (min + max) * 0.5,
                rot: Mat3::IDENTITY,
                half: (max - min) * 0.5,
                layer: 1,
                concave: false,
            });
            self
        }

        /// An axis-aligned closed trimesh box from `min` to `max`.
        pub fn trimesh(&mut self, min: Vec3, max: Vec3) -> &mut Self {
            self.aabb(min, max);
            self.boxes.last_mut().unwrap().concave = true;
            self
        }

        /// A box rotated about +z by `angle` radians.
        pub fn tilted(&mut self, centre: Vec3, half: Vec3, angle: f32) -> &mut Self {
            self.boxes.push(TestBox { centre, rot: Mat3::from_rotation_z(angle), half, layer: 1, concave: false });
            self
        }
    }

    impl RayCaster for BoxWorld {
        fn cast(&mut self, kind: RayKind, from: Vec3, to: Vec3) -> Option<RayHit> {
            let mut best: Option<(f32, RayHit)> = None;
            for b in &self.boxes {
                if b.layer & self.mask == 0 {
                    continue;
                }
                let inv = b.rot.transpose();
                let o = inv * (from - b.centre);
                let d = inv * (to - from);
                let inside = (0..3).all(|k| o[k].abs() < b.half[k]);
                if inside {
                    if kind == RayKind::Headroom && !b.concave {
                        let hit = RayHit { position: from, normal: Vec3::ZERO, layer: b.layer, concave: false };
                        best = Some((0.0, hit));
                    }
                    continue;
                }
                // Slab test over t in 0..1.
                let (mut t0, mut t1, mut axis) = (0.0f32, 1.0f32, usize::MAX);
                let mut miss = false;
                for k in 0..3 {
                    if d[k].abs() < 1e-12 {
                        if o[k].abs() > b.half[k] {
                            miss = true;
                        }
                        continue;
                    }
                    let (mut a, mut c) = ((-b.half[k] - o[k]) / d[k], (b.half[k] - o[k]) / d[k]);
                    if a > c {
                        std::mem::swap(&mut a, &mut c);
                    }
                    if a > t0 {
                        t0 = a;
                        axis = k;
                    }
                    t1 = t1.min(c);
                }
                if miss || t0 > t1 || axis == usize::MAX {
                    continue;
                }
                let mut n = Vec3::ZERO;
                n[axis] = -d[axis].signum();
                let hit =
                    RayHit { position: from + (to - from) * t0, normal: b.rot * n, layer: b.layer, concave: b.concave };
                if best.is_none_or(|(bt, _)| t0 < bt) {
                    best = Some((t0, hit));
                }
            }
            best.map(|(_, h)| h)
        }
    }

    fn settings(min: Vec3, max: Vec3) -> BakeSettings {
        BakeSettings {
            bounds: Aabb::new(
                Vector3::new(min.x, min.y, min.z),
                Vector3::new(max.x - min.x, max.y - min.y, max.z - min.z),
            ),
            ..Default::default()
        }
    }

    pub fn bake(world: &mut BoxWorld, s: BakeSettings) -> SurfaceGrid {
        let mut b = FlowBaker::new(s).unwrap();
        let mut last = 0.0;
        while !b.is_done() {
            let p = b.step_with(world, 37);
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
        assert!(FlowBaker::new(good).is_ok());
        let cases: Vec<(BakeSettings, &str)> = vec![
            (BakeSettings { cell_size: 0.0, ..good }, "cell_size"),
            (BakeSettings { cell_size: f32::NAN, ..good }, "cell_size"),
            (BakeSettings { agent_height: -1.0, ..good }, "agent_height"),
            (BakeSettings { clearance_radius: -0.1, ..good }, "clearance_radius"),
            (BakeSettings { max_step_height: f32::INFINITY, ..good }, "max_step_height"),
            (BakeSettings { walkable_mask: 0, ..good }, "walkable_mask"),
            (BakeSettings { bounds: Aabb::new(Vector3::ZERO, Vector3::ZERO), ..good }, "bake_bounds"),
            (BakeSettings { bounds: Aabb::new(Vector3::ZERO, Vector3::new(-1.0, 1.0, 1.0)), ..good }, "bake_bounds"),
            (BakeSettings { cell_size: 0.001, ..good }, "bake_bounds"),
        ];
        for (s, field) in cases {
            let e = FlowBaker::new(s).err().unwrap();
            assert!(e.contains(field), "{e} does not name {field}");
        }
        let b = FlowBaker::new(good).unwrap();
        assert!(b.finish().unwrap_err().contains("not finished"));
    }
}
