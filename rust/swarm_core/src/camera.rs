//! The camera as the simulation sees it: a view frustum (planes) and a position, used to tell
//! which agents are being drawn (Importance LOD, dormancy, off-screen spawning, recycling).

use glam::{Vec3, Vec4};
use serde::{Deserialize, Serialize};

/// A convex view volume given by planes `n·p = d` with outward normals `n` (Godot's
/// `Camera3D.get_frustum()` convention): a point is inside when `n·p <= d` for every plane.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Frustum {
    /// `(n.x, n.y, n.z, d)` per plane.
    pub planes: Vec<Vec4>,
    pub position: Vec3,
}

impl Frustum {
    /// Whether a sphere overlaps the volume (conservative: may say yes near edges and corners).
    #[inline]
    pub fn contains_sphere(&self, center: Vec3, radius: f32) -> bool {
        self.planes.iter().all(|p| p.truncate().dot(center) - p.w <= radius)
    }

    /// False when any plane is not finite (the caller then treats the camera as absent).
    pub fn is_valid(&self) -> bool {
        !self.planes.is_empty() && self.planes.iter().all(|p| p.is_finite()) && self.position.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A box-shaped "frustum" around the origin, half-size 10.
    pub fn box_frustum() -> Frustum {
        let planes = vec![
            Vec4::new(1.0, 0.0, 0.0, 10.0),
            Vec4::new(-1.0, 0.0, 0.0, 10.0),
            Vec4::new(0.0, 1.0, 0.0, 10.0),
            Vec4::new(0.0, -1.0, 0.0, 10.0),
            Vec4::new(0.0, 0.0, 1.0, 10.0),
            Vec4::new(0.0, 0.0, -1.0, 10.0),
        ];
        Frustum { planes, position: Vec3::new(0.0, 5.0, 0.0) }
    }

    #[test]
    fn spheres_inside_touching_and_outside() {
        let f = box_frustum();
        assert!(f.contains_sphere(Vec3::ZERO, 0.1));
        assert!(f.contains_sphere(Vec3::new(10.3, 0.0, 0.0), 0.5));
        assert!(!f.contains_sphere(Vec3::new(12.0, 0.0, 0.0), 0.5));
        assert!(f.is_valid());
        let mut bad = f.clone();
        bad.planes[0].w = f32::NAN;
        assert!(!bad.is_valid());
    }
}
