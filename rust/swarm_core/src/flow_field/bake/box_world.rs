//! A test world of box colliders that answers rays as the engine's physics does for convex
//! shapes (and closed trimeshes, which have no inside and one-sided faces).

use glam::{Mat3, Vec3};

use super::rays::{RayCaster, RayHit, RayKind};

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
