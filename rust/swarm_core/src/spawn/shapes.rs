//! Spawn areas: the shapes spawners draw points from (a rectangle or a ring on the ground), the
//! seeded generator they draw with, and the test of whether a point can be seen by the camera.

use std::f32::consts::TAU;

use glam::{Affine3A, Vec2, Vec3};

use crate::camera::Frustum;

/// Height of the body above the feet that must stay out of view too (a second test sphere).
pub const BODY_HEIGHT: f32 = 2.0;

/// A small seeded generator (SplitMix64): the same seed gives the same sequence on every
/// platform, independent of any engine's global random state.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SpawnRng(u64);

impl SpawnRng {
    pub fn new(seed: i64) -> Self {
        Self((seed as u64) ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..1` (24 bits).
    pub fn next_f32(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 * (1.0 / 16_777_216.0)
    }
}

/// The spawn area in the spawner's local XZ plane, centred on its origin. Sizes are expected
/// finite and at or above 0 (the binding checks them); a zero size collapses to a line or point.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Shape {
    /// Width (X) and depth (Z).
    Rect { size: Vec2 },
    /// Inner and outer radius (`inner <= outer`).
    Ring { inner: f32, outer: f32 },
}

impl Shape {
    /// A uniformly distributed point of the area (local, y = 0). Two draws.
    pub fn sample_local(&self, rng: &mut SpawnRng) -> Vec3 {
        let (u, v) = (rng.next_f32(), rng.next_f32());
        match *self {
            Shape::Rect { size } => Vec3::new((u - 0.5) * size.x, 0.0, (v - 0.5) * size.y),
            Shape::Ring { inner, outer } => {
                // Uniform by area: r² is uniform between inner² and outer².
                let r = (inner * inner + v * (outer * outer - inner * inner)).max(0.0).sqrt();
                let a = u * TAU;
                Vec3::new(r * a.cos(), 0.0, r * a.sin())
            }
        }
    }

    /// Whether a local point lies in the area (with a small tolerance for rounding).
    pub fn contains_local(&self, p: Vec3) -> bool {
        const EPS: f32 = 1e-3;
        match *self {
            Shape::Rect { size } => p.x.abs() <= size.x * 0.5 + EPS && p.z.abs() <= size.y * 0.5 + EPS,
            Shape::Ring { inner, outer } => {
                let r = Vec2::new(p.x, p.z).length();
                r >= inner - EPS && r <= outer + EPS
            }
        }
    }

    /// Line segments (pairs of local points) outlining the area, for an editor gizmo.
    pub fn outline(&self) -> Vec<Vec3> {
        let mut out = Vec::new();
        match *self {
            Shape::Rect { size } => {
                let (x, z) = (size.x * 0.5, size.y * 0.5);
                let c = [Vec3::new(-x, 0.0, -z), Vec3::new(x, 0.0, -z), Vec3::new(x, 0.0, z), Vec3::new(-x, 0.0, z)];
                for i in 0..4 {
                    out.push(c[i]);
                    out.push(c[(i + 1) % 4]);
                }
                // A cross marks the centre.
                out.push(Vec3::new(-x.min(0.5), 0.0, 0.0));
                out.push(Vec3::new(x.min(0.5), 0.0, 0.0));
                out.push(Vec3::new(0.0, 0.0, -z.min(0.5)));
                out.push(Vec3::new(0.0, 0.0, z.min(0.5)));
            }
            Shape::Ring { inner, outer } => {
                const SEGMENTS: usize = 64;
                for r in [inner, outer] {
                    if r <= 0.0 {
                        continue;
                    }
                    for i in 0..SEGMENTS {
                        let (a, b) = (i as f32 / SEGMENTS as f32 * TAU, (i + 1) as f32 / SEGMENTS as f32 * TAU);
                        out.push(Vec3::new(r * a.cos(), 0.0, r * a.sin()));
                        out.push(Vec3::new(r * b.cos(), 0.0, r * b.sin()));
                    }
                }
                // Four spokes join the circles.
                for k in 0..4 {
                    let a = k as f32 * TAU / 4.0;
                    out.push(Vec3::new(inner * a.cos(), 0.0, inner * a.sin()));
                    out.push(Vec3::new(outer * a.cos(), 0.0, outer * a.sin()));
                }
            }
        }
        out
    }
}

/// Whether an agent standing at `feet` could be seen: a sphere of radius `margin` around the feet
/// or around a point [`BODY_HEIGHT`] above them overlaps the view.
pub fn sees_body(view: &Frustum, feet: Vec3, margin: f32) -> bool {
    view.contains_sphere(feet, margin) || view.contains_sphere(feet + Vec3::Y * BODY_HEIGHT, margin)
}

/// A shape placed in the world: where a spawner draws its points and how it keeps out of view.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SpawnArea {
    pub shape: Shape,
    /// The spawner's global transform.
    pub xform: Affine3A,
    /// Agents stand at this height whatever the spawner's.
    pub ground_y: f32,
    /// Only points the camera cannot see count (when there is a camera).
    pub off_screen: bool,
    /// How far outside the view a point must be (see [`sees_body`]).
    pub margin: f32,
    /// Points drawn per agent before giving up on one out of view (at least one is drawn).
    pub attempts: u32,
}

impl SpawnArea {
    /// A random point of the area in world space, on the ground plane.
    pub fn world_point(&self, rng: &mut SpawnRng) -> Vec3 {
        let g = self.xform.transform_point3(self.shape.sample_local(rng));
        Vec3::new(g.x, self.ground_y, g.z)
    }

    /// Whether a point could be seen by `view` (never without a view).
    pub fn seen(&self, view: Option<&Frustum>, p: Vec3) -> bool {
        view.is_some_and(|v| sees_body(v, p, self.margin))
    }

    /// A point for one agent: off screen and with a view, up to `attempts` tries for one the view
    /// cannot see. Returns the point and whether it is still in view (every try was).
    pub fn spawn_point(&self, rng: &mut SpawnRng, view: Option<&Frustum>) -> (Vec3, bool) {
        let Some(view) = view.filter(|_| self.off_screen) else {
            return (self.world_point(rng), false);
        };
        let mut last = Vec3::ZERO;
        for _ in 0..self.attempts.max(1) {
            last = self.world_point(rng);
            if !sees_body(view, last, self.margin) {
                return (last, false);
            }
        }
        (last, true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::{Mat3, Vec4};

    fn area(shape: Shape) -> SpawnArea {
        SpawnArea { shape, xform: Affine3A::IDENTITY, ground_y: 0.0, off_screen: true, margin: 1.0, attempts: 16 }
    }

    /// A view covering `x > 0` only (one plane, outward normal -X).
    fn half_space_view() -> Frustum {
        Frustum { planes: vec![Vec4::new(-1.0, 0.0, 0.0, 0.0)], position: Vec3::ZERO }
    }

    #[test]
    fn rng_is_deterministic_and_in_range() {
        let (mut a, mut b) = (SpawnRng::new(42), SpawnRng::new(42));
        for _ in 0..1000 {
            let x = a.next_f32();
            assert_eq!(x, b.next_f32());
            assert!((0.0..1.0).contains(&x));
        }
        assert_ne!(SpawnRng::new(1).next_u64(), SpawnRng::new(2).next_u64());
        assert_ne!(SpawnRng::new(-1).next_u64(), SpawnRng::new(i64::MAX).next_u64());
    }

    #[test]
    fn rect_points_fall_inside_and_cover_it() {
        let s = Shape::Rect { size: Vec2::new(20.0, 4.0) };
        let mut rng = SpawnRng::new(3);
        let (mut min, mut max) = (Vec3::splat(f32::MAX), Vec3::splat(f32::MIN));
        for _ in 0..5000 {
            let p = s.sample_local(&mut rng);
            assert!(s.contains_local(p), "{p}");
            assert_eq!(p.y, 0.0);
            min = min.min(p);
            max = max.max(p);
        }
        assert!(min.x < -9.5 && max.x > 9.5 && min.z < -1.9 && max.z > 1.9, "{min} {max}");
    }

    #[test]
    fn ring_points_fall_between_the_radii_evenly_by_area() {
        let s = Shape::Ring { inner: 20.0, outer: 30.0 };
        let mut rng = SpawnRng::new(11);
        let mid = ((20.0f32 * 20.0 + 30.0 * 30.0) / 2.0).sqrt(); // splits the area in half
        let mut inside_mid = 0;
        for _ in 0..20_000 {
            let p = s.sample_local(&mut rng);
            assert!(s.contains_local(p), "{p}");
            if Vec2::new(p.x, p.z).length() < mid {
                inside_mid += 1;
            }
        }
        let share = inside_mid as f32 / 20_000.0;
        assert!((share - 0.5).abs() < 0.02, "share inside the mid radius {share}");
    }

    #[test]
    fn degenerate_sizes_give_lines_and_points() {
        let mut rng = SpawnRng::new(5);
        for _ in 0..100 {
            let p = Shape::Rect { size: Vec2::ZERO }.sample_local(&mut rng);
            assert_eq!(p, Vec3::ZERO);
            let p = Shape::Rect { size: Vec2::new(0.0, 8.0) }.sample_local(&mut rng);
            assert!(p.x == 0.0 && p.z.abs() <= 4.0);
            let p = Shape::Ring { inner: 0.0, outer: 0.0 }.sample_local(&mut rng);
            assert!(p.length() < 1e-6);
            let p = Shape::Ring { inner: 5.0, outer: 5.0 }.sample_local(&mut rng);
            assert!((Vec2::new(p.x, p.z).length() - 5.0).abs() < 1e-3);
            assert!(p.is_finite());
        }
        // A point ring outlines only its spokes (zero length); a zero rect still has its cross.
        let o = Shape::Ring { inner: 0.0, outer: 0.0 }.outline();
        assert_eq!(o.len(), 8);
        assert!(o.iter().all(|p| *p == Vec3::ZERO));
        assert_eq!(Shape::Rect { size: Vec2::ZERO }.outline().len(), 12);
    }

    #[test]
    fn same_seed_same_points() {
        let s = Shape::Ring { inner: 2.0, outer: 9.0 };
        let (mut a, mut b) = (SpawnRng::new(77), SpawnRng::new(77));
        for _ in 0..100 {
            assert_eq!(s.sample_local(&mut a), s.sample_local(&mut b));
        }
        let mut c = SpawnRng::new(78);
        assert_ne!(s.sample_local(&mut SpawnRng::new(77)), s.sample_local(&mut c));
    }

    #[test]
    fn outline_sizes() {
        assert_eq!(Shape::Rect { size: Vec2::new(2.0, 2.0) }.outline().len(), 12);
        // Two circles of 64 segments and four spokes.
        assert_eq!(Shape::Ring { inner: 1.0, outer: 2.0 }.outline().len(), 2 * 64 * 2 + 8);
        assert_eq!(Shape::Ring { inner: 0.0, outer: 2.0 }.outline().len(), 64 * 2 + 8);
    }

    #[test]
    fn world_points_follow_the_transform_and_stand_on_the_ground() {
        let mut a = area(Shape::Rect { size: Vec2::new(2.0, 2.0) });
        a.xform = Affine3A::from_mat3_translation(Mat3::from_rotation_y(0.7), Vec3::new(100.0, 40.0, -50.0));
        a.ground_y = 3.0;
        let mut rng = SpawnRng::new(9);
        for _ in 0..200 {
            let p = a.world_point(&mut rng);
            assert_eq!(p.y, 3.0);
            assert!(Vec2::new(p.x - 100.0, p.z + 50.0).length() <= 2f32.sqrt() + 1e-3, "{p}");
        }
    }

    #[test]
    fn off_screen_points_avoid_the_view_or_report_it() {
        let view = half_space_view();
        // Straddles the view's edge: tries find a point at x < -margin.
        let mut a = area(Shape::Rect { size: Vec2::new(20.0, 20.0) });
        let mut rng = SpawnRng::new(1);
        for _ in 0..200 {
            let (p, in_view) = a.spawn_point(&mut rng, Some(&view));
            assert!(!in_view && p.x < -1.0, "{p}");
        }
        // Entirely in view: every try fails and the last one is reported as in view.
        a.xform = Affine3A::from_translation(Vec3::new(50.0, 0.0, 0.0));
        let (p, in_view) = a.spawn_point(&mut rng, Some(&view));
        assert!(in_view && p.x > 39.0);
        // No view, or off_screen off: any point counts as unseen.
        assert!(!a.spawn_point(&mut rng, None).1);
        a.off_screen = false;
        assert!(!a.spawn_point(&mut rng, Some(&view)).1);
        // Zero attempts still draw one point.
        a.off_screen = true;
        a.attempts = 0;
        let mut r1 = SpawnRng::new(4);
        let (_, in_view) = a.spawn_point(&mut r1, Some(&view));
        assert!(in_view);
        assert_eq!(r1, {
            let mut r2 = SpawnRng::new(4);
            r2.next_u64();
            r2.next_u64();
            r2
        });
    }

    #[test]
    fn the_body_above_the_feet_counts() {
        // A view that only covers y in 1.5..2.5 (a slab): the feet are out, the head is in.
        let slab = Frustum {
            planes: vec![Vec4::new(0.0, 1.0, 0.0, 2.5), Vec4::new(0.0, -1.0, 0.0, -1.5)],
            position: Vec3::ZERO,
        };
        assert!(sees_body(&slab, Vec3::ZERO, 0.1));
        assert!(!slab.contains_sphere(Vec3::ZERO, 0.1));
        assert!(!sees_body(&slab, Vec3::new(0.0, -5.0, 0.0), 0.1));
    }
}
