//! Orbit Style: circle the target at a radius (harassers), with a radial correction toward
//! the orbit. The direction is per profile or, when 0, per agent from its seed.

use glam::Vec2;

use crate::noise::hash01;

pub fn orbit(pos: Vec2, center: Vec2, radius: f32, direction: i32, seed: u32) -> Vec2 {
    let off = pos - center;
    let d = off.length();
    if d < 1e-4 {
        return Vec2::X;
    }
    let radial = off / d;
    let sign = match direction {
        0 if hash01(seed, 0x0b17) < 0.5 => -1.0,
        0 => 1.0,
        s => s as f32,
    };
    let correction = ((radius - d) / radius.max(1.0)).clamp(-1.0, 1.0);
    (radial.perp() * sign + radial * correction).clamp_length_max(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tangent_on_the_orbit_and_pulled_back_onto_it() {
        let on = orbit(Vec2::new(5.0, 0.0), Vec2::ZERO, 5.0, 1, 0);
        assert!(on.x.abs() < 1e-6 && (on.y - 1.0).abs() < 1e-6);
        let outside = orbit(Vec2::new(12.0, 0.0), Vec2::ZERO, 5.0, 1, 0);
        assert!(outside.x < 0.0);
        let inside = orbit(Vec2::new(2.0, 0.0), Vec2::ZERO, 5.0, -1, 0);
        assert!(inside.x > 0.0 && inside.y < 0.0);
    }
}
