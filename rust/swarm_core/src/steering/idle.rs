//! Idle Motion: a cheap wander for agents that nothing else moves. The direction is a smooth
//! interpolation between hashed angles that change every `period` seconds, per agent.

use glam::Vec2;

use crate::noise::{hash01, hash_dir};

pub fn idle_wander(seed: u32, time: f64, period: f32, strength: f32) -> Vec2 {
    let phase = hash01(seed, 0x1d1e) as f64;
    let t = time / period as f64 + phase;
    let k = t.floor();
    let f = (t - k) as f32;
    let v = hash_dir(seed, k as u32).lerp(hash_dir(seed, k as u32 + 1), f * f * (3.0 - 2.0 * f));
    v.normalize_or_zero() * strength
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wander_is_bounded_and_changes_smoothly() {
        let mut prev = idle_wander(9, 0.0, 2.0, 0.3);
        for k in 1..600 {
            let v = idle_wander(9, k as f64 / 60.0, 2.0, 0.3);
            assert!(v.length() <= 0.3 + 1e-5);
            assert!(v.distance(prev) < 0.05, "step {k} jumped");
            prev = v;
        }
    }
}
