//! Baking the surface flow field from the scene's physics colliders.
//!
//! A `Baker` samples the bake bounds one column (a `cell_size` square) at a time with physics
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
//! The ray work is behind `RayCaster` (`rays`). The engine layer answers the rays from the
//! scene's collision shapes read once into a `ColliderSet` (`colliders`, the same semantics without
//! a physics engine, shared by threads so pass 1 runs in parallel: `Baker::step_shared`), or, for
//! shapes the set does not model, by casting through its physics. The sampling logic
//! (`sampler`) is unit-tested against a world of boxes. `settings` says what to
//! bake and refuses bad settings by field name.

mod colliders;
mod column_caster;
mod rays;
mod sampler;
mod settings;

#[cfg(test)]
mod box_world;
#[cfg(test)]
mod tests;

pub use colliders::{ColliderSet, Solid};
pub use column_caster::ColumnCaster;
pub use rays::{RayCaster, RayHit, RayKind};
pub use sampler::{Baker, MAX_SLOPE_DEGREES};
pub use settings::{BakeBounds, BakeSettings, MAX_COLUMNS};
