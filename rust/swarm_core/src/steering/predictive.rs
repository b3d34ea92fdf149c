//! Predictive Catch-Up: seek where the target will be, leading it by the time it takes to get
//! there (at most `look_ahead_time`), never more than `max_prediction_distance` ahead. It fades
//! out inside `fade_within` of the target, where the slot ring takes over.

use glam::Vec2;

pub fn predictive(
    pos: Vec2,
    target: Vec2,
    target_vel: Vec2,
    max_speed: f32,
    look_ahead: f32,
    max_distance: f32,
    fade_within: f32,
) -> Vec2 {
    let d = pos.distance(target);
    let t = (d / max_speed.max(0.1)).min(look_ahead);
    let lead = (target_vel * t).clamp_length_max(max_distance);
    let fade = if fade_within > 0.0 { (d / fade_within - 1.0).clamp(0.0, 1.0) } else { 1.0 };
    (target + lead - pos).normalize_or_zero() * fade
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leads_a_crossing_target_and_caps_the_lead() {
        // Target 20 m ahead crossing sideways at 5 m/s: the pursuer aims ahead of it.
        let v = predictive(Vec2::ZERO, Vec2::new(0.0, 20.0), Vec2::new(5.0, 0.0), 4.0, 1.0, 100.0, 0.0);
        assert!(v.x > 0.2, "{v:?}");
        let capped = predictive(Vec2::ZERO, Vec2::new(0.0, 20.0), Vec2::new(500.0, 0.0), 4.0, 1.0, 2.0, 0.0);
        assert!((capped.x / capped.y - 0.1).abs() < 1e-3, "lead capped at 2 m over 20 m");
        let near = predictive(Vec2::ZERO, Vec2::new(0.0, 3.0), Vec2::new(5.0, 0.0), 4.0, 1.0, 100.0, 4.0);
        assert_eq!(near, Vec2::ZERO);
    }
}
