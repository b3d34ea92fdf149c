//! What the bake asks of the engine: a ray of one of three kinds, and the hit it reports.

use glam::Vec3;

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
