//! Surround Shape: the ring around a target sized for the crowd on it. The ring is a band of
//! `surround_width` starting at `combat_standoff`; when more agents chase the target than the band
//! holds at `surround_spacing` apart, the band is pushed outward. Each agent takes a fixed depth
//! inside the band, and crowding pushes it sideways along the ring into open lanes.

use glam::Vec2;

use crate::config::BehaviorProfile;
use crate::noise::hash01;

/// Inner radius of the band so that `count` agents fit (density pushes the ring out).
#[inline]
pub fn ring_radius(b: &BehaviorProfile, count: u32) -> f32 {
    // Band area needed: count * spacing^2 = 2*pi*(r + w/2)*w.
    let need = count as f32 * b.surround_spacing * b.surround_spacing / (std::f32::consts::TAU * b.surround_width)
        - b.surround_width * 0.5;
    b.combat_standoff.max(need)
}

/// The agent's slot radius: the ring radius plus its own depth inside the band.
#[inline]
pub fn slot_radius(b: &BehaviorProfile, count: u32, seed: u32) -> f32 {
    ring_radius(b, count) + hash01(seed, 0x5a4d) * b.surround_width
}

/// Sideways slide along the ring: the tangential part of the crowding push.
#[inline]
pub fn lane_slide(pos: Vec2, center: Vec2, crowd_push: Vec2, strength: f32) -> Vec2 {
    let radial = (pos - center).normalize_or_zero();
    let tangent = radial.perp();
    tangent * crowd_push.dot(tangent) * strength
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn density_pushes_the_ring_out() {
        let b = BehaviorProfile::default();
        assert_eq!(ring_radius(&b, 3), b.combat_standoff);
        let r50 = ring_radius(&b, 50);
        let r200 = ring_radius(&b, 200);
        assert!(r50 > b.combat_standoff && r200 > r50);
        // The band then holds them: its area at r200 fits 200 agents at the spacing.
        let area = std::f32::consts::TAU * (r200 + b.surround_width / 2.0) * b.surround_width;
        assert!((area / (b.surround_spacing * b.surround_spacing) - 200.0).abs() < 1.0);
    }

    #[test]
    fn crowding_slides_along_the_ring_not_into_it() {
        let s = lane_slide(Vec2::new(5.0, 0.0), Vec2::ZERO, Vec2::new(-1.0, 1.0), 1.0);
        assert!(s.x.abs() < 1e-6 && (s.y - 1.0).abs() < 1e-6);
    }
}
