//! Approach & Surround: head for a slot on a ring around the target. Far away the slot is a
//! fixed angle per agent (deterministic from its seed); inside the near band the slot is solved
//! adaptively from the agent's own bearing so agents keep their side instead of crossing over.
//! The ring (of the given radius) trails behind a moving target, and agents slow down within the
//! arrival distance.

use glam::Vec2;

use crate::config::BehaviorProfile;
use crate::noise::hash_dir_fine;

/// Result of the approach behaviour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Approach {
    /// Steering toward the slot, at most unit length (shrinks inside the arrival distance).
    pub steer: Vec2,
    /// Unit direction from the agent to the target (for goal facing), zero on top of it.
    pub goal_dir: Vec2,
}

/// Unit direction of an agent's fixed slot, from its seed (a table lookup, no trigonometry).
#[inline]
pub fn slot_dir(seed: u32) -> Vec2 {
    hash_dir_fine(seed, 0x51_07)
}

/// `dist`: the agent's distance to the target, `pos.distance(target_pos)` (the caller has it).
pub fn approach(
    pos: Vec2,
    target_pos: Vec2,
    target_vel: Vec2,
    dist: f32,
    fixed_dir: Vec2,
    radius: f32,
    b: &BehaviorProfile,
) -> Approach {
    let center = target_pos - target_vel * b.trail_time;
    let to_target = target_pos - pos;
    // `to_target.normalize_or_zero()`, with the length the caller already took.
    let rcp = 1.0 / dist;
    let goal_dir = if rcp.is_finite() && rcp > 0.0 { to_target * rcp } else { Vec2::ZERO };
    let from_center = pos - center;
    let d2 = from_center.length_squared();
    let band = b.surround_near_band;
    let slot_dir = if d2 > band * band || d2 < 1e-8 {
        fixed_dir
    } else {
        // Adaptive slot: keep the agent's own side, nudged toward its fixed angle so a group
        // arriving from one side still spreads around the ring.
        (from_center / d2.sqrt() * 0.8 + fixed_dir * 0.2).normalize_or(fixed_dir)
    };
    let slot = center + slot_dir * radius;
    let to_slot = slot - pos;
    let ds = to_slot.length();
    if ds < 1e-5 {
        return Approach { steer: Vec2::ZERO, goal_dir };
    }
    let arrive = if b.arrival_distance > 0.0 { (ds / b.arrival_distance).min(1.0) } else { 1.0 };
    Approach { steer: to_slot / ds * arrive, goal_dir }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn far_agents_head_to_the_target_at_full_strength() {
        let b = BehaviorProfile::default();
        let a = approach(Vec2::new(-100.0, 0.0), Vec2::ZERO, Vec2::ZERO, 100.0, slot_dir(3), b.surround_radius, &b);
        assert!((a.steer.length() - 1.0).abs() < 1e-5);
        assert!(a.steer.x > 0.99);
    }

    #[test]
    fn agents_stop_on_their_slot_and_keep_their_side() {
        let b = BehaviorProfile::default();
        // An agent on the ring east of the target stays east (adaptive slot), nearly still.
        let p = Vec2::new(b.surround_radius, 0.0);
        let a = approach(p, Vec2::ZERO, Vec2::ZERO, p.length(), slot_dir(12345), b.surround_radius, &b);
        assert!(a.steer.length() < 1.0, "slows within arrival distance");
        let next = p + a.steer * 0.1;
        assert!(next.x > 0.0);
    }

    #[test]
    fn the_ring_trails_behind_a_moving_target() {
        let b = BehaviorProfile::default();
        // Target moving +x: an agent straight ahead of it is steered back toward the trailing ring.
        let moving =
            approach(Vec2::new(0.5, 0.0), Vec2::ZERO, Vec2::new(10.0, 0.0), 0.5, slot_dir(1), b.surround_radius, &b);
        let still = approach(Vec2::new(0.5, 0.0), Vec2::ZERO, Vec2::ZERO, 0.5, slot_dir(1), b.surround_radius, &b);
        assert!(moving.steer.x < still.steer.x);
    }
}
