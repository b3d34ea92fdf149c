//! Retreat: closer than the start distance an agent backs off, and keeps backing off with a
//! push that fades toward the stop distance, where it lets the approach take over again
//! (hit-and-run). The retreating state is per agent, so there is hysteresis between the two.

use glam::Vec2;

/// The floor of the fade, so an agent always reaches the stop distance.
const MIN_PUSH: f32 = 0.25;

/// Returns the push and whether the agent is retreating this step.
pub fn retreat(pos: Vec2, target: Vec2, start: f32, stop: f32, retreating: bool) -> (Vec2, bool) {
    let off = pos - target;
    let d = off.length();
    let on = if retreating { d < stop } else { d < start };
    if !on {
        return (Vec2::ZERO, false);
    }
    let fade = if stop > start { 1.0 - ((d - start) / (stop - start)).clamp(0.0, 1.0) } else { 1.0 };
    let away = if d > 1e-5 { off / d } else { Vec2::X };
    (away * fade.max(MIN_PUSH), true)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_inside_start_and_holds_until_stop() {
        assert!(!retreat(Vec2::new(3.0, 0.0), Vec2::ZERO, 2.0, 6.0, false).1);
        let (v, on) = retreat(Vec2::new(1.0, 0.0), Vec2::ZERO, 2.0, 6.0, false);
        assert!(on && (v.x - 1.0).abs() < 1e-6);
        let (v, on) = retreat(Vec2::new(5.0, 0.0), Vec2::ZERO, 2.0, 6.0, true);
        assert!(on && v.x > 0.0 && v.x < 0.5, "fading push {v:?}");
        assert!(!retreat(Vec2::new(6.5, 0.0), Vec2::ZERO, 2.0, 6.0, true).1);
    }
}
