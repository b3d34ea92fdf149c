//! Additive blending (seed 000): each behaviour adds `weight * vector`; the sum is divided by the
//! largest enabled weight (so doubling every weight changes nothing), clamped to unit length, then
//! smoothed through the steering response. The caller multiplies by max speed.

use glam::Vec2;

/// Sums weighted contributions and clamps to the unit disk.
#[inline]
pub fn blend(contributions: &[(f32, Vec2)], weight_scale: f32) -> Vec2 {
    let mut sum = Vec2::ZERO;
    for &(w, v) in contributions {
        sum += v * w;
    }
    (sum / weight_scale).clamp_length_max(1.0)
}

/// First-order smoothing toward `raw` with time constant `response` (0 = immediate). Implicit
/// Euler form `dt / (response + dt)`: stable for any step and free of transcendental calls.
#[inline]
pub fn smooth(prev: Vec2, raw: Vec2, response: f32, dt: f32) -> Vec2 {
    if response <= 0.0 {
        return raw;
    }
    let alpha = dt / (response + dt);
    prev + (raw - prev) * alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_is_clamped_to_unit_length() {
        let v = blend(&[(1.0, Vec2::X), (1.0, Vec2::Y)], 1.0);
        assert!((v.length() - 1.0).abs() < 1e-6);
        assert!((v.x - v.y).abs() < 1e-6);
    }

    #[test]
    fn doubling_every_weight_changes_nothing() {
        let c = [(2.0, Vec2::new(0.3, 0.1)), (1.0, Vec2::new(-0.2, 0.4)), (0.5, Vec2::new(0.1, -0.1))];
        let doubled: Vec<(f32, Vec2)> = c.iter().map(|&(w, v)| (w * 2.0, v)).collect();
        let a = blend(&c, 2.0);
        let b = blend(&doubled, 4.0);
        assert!(a.distance(b) < 1e-6);
    }

    #[test]
    fn raising_one_weight_reduces_the_others_relative_influence() {
        let base = blend(&[(1.0, Vec2::X), (1.0, Vec2::Y)], 1.0);
        let more_x = blend(&[(3.0, Vec2::X), (1.0, Vec2::Y)], 3.0);
        assert!(more_x.y / more_x.x < base.y / base.x);
    }

    #[test]
    fn a_behaviour_only_adds_its_pull() {
        // Turning a behaviour off changes direction even where the other behaviour is unchanged.
        let with = blend(&[(1.0, Vec2::X), (1.0, Vec2::new(0.0, 0.5))], 1.0);
        let without = blend(&[(1.0, Vec2::X)], 1.0);
        assert!(with.y > 0.0 && without.y == 0.0);
    }

    #[test]
    fn smoothing_converges_and_zero_response_is_immediate() {
        assert_eq!(smooth(Vec2::ZERO, Vec2::X, 0.0, 0.016), Vec2::X);
        let mut s = Vec2::ZERO;
        for _ in 0..120 {
            s = smooth(s, Vec2::X, 0.1, 1.0 / 60.0);
        }
        assert!((s.x - 1.0).abs() < 1e-3);
        let one = smooth(Vec2::ZERO, Vec2::X, 0.1, 1.0 / 60.0);
        assert!(one.x > 0.0 && one.x < 0.2);
    }
}
