//! Additive blending: each behaviour adds `weight * vector`; the sum is clamped to unit
//! length, smoothed through the steering response, and scaled by max speed by the caller.
//!
//! Weights are relative (doubling every weight changes nothing; raising one lowers the influence of
//! the others): the sum is divided by the largest weight among the behaviours that pull this step
//! (a behaviour counts fully once its vector reaches 0.1, proportionally below), so a strong
//! behaviour that is idle this step does not slow the others down.

use glam::Vec2;

/// Below this vector length a behaviour counts only proportionally toward the normaliser.
const ACTIVE_LENGTH: f32 = 0.1;

/// A blend accumulated one contribution at a time (no list is kept).
#[derive(Clone, Copy, Debug, Default)]
pub struct Blend {
    sum: Vec2,
    scale: f32,
}

impl Blend {
    #[inline]
    pub fn add(&mut self, w: f32, v: Vec2) {
        self.sum += v * w;
        // `w * min(|v| / ACTIVE_LENGTH, 1)` without a square root unless |v| is below it.
        let l2 = v.length_squared();
        let active = if l2 >= ACTIVE_LENGTH * ACTIVE_LENGTH { w } else { w * l2.sqrt() / ACTIVE_LENGTH };
        self.scale = self.scale.max(active);
    }

    /// The blended steering so far, clamped to the unit disk.
    #[inline]
    pub fn result(&self) -> Vec2 {
        if self.scale <= 1e-9 {
            return Vec2::ZERO;
        }
        (self.sum / self.scale).clamp_length_max(1.0)
    }
}

/// Sums weighted contributions, normalised by the strongest active weight, clamped to the unit disk.
#[inline]
pub fn blend(contributions: &[(f32, Vec2)]) -> Vec2 {
    let mut b = Blend::default();
    for &(w, v) in contributions {
        b.add(w, v);
    }
    b.result()
}

/// First-order smoothing toward `raw` with time constant `response` (0 = immediate). Implicit
/// Euler form `dt / (response + dt)`: stable for any step and free of transcendental calls.
/// (`movement_lanes` repeats it for four agents at once: a change here goes there too.)
#[inline]
pub fn smooth(prev: Vec2, raw: Vec2, response: f32, dt: f32) -> Vec2 {
    if response <= 0.0 {
        return raw;
    }
    let alpha = dt / (response + dt);
    let s = prev + (raw - prev) * alpha;
    // Decaying toward zero ends at zero, not in ever smaller (and slow, denormal) floats.
    if raw == Vec2::ZERO && s.length_squared() < 1e-10 {
        Vec2::ZERO
    } else {
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sum_is_clamped_to_unit_length() {
        let v = blend(&[(1.0, Vec2::X), (1.0, Vec2::Y)]);
        assert!((v.length() - 1.0).abs() < 1e-6);
        assert!((v.x - v.y).abs() < 1e-6);
    }

    #[test]
    fn doubling_every_weight_changes_nothing() {
        let c = [(2.0, Vec2::new(0.3, 0.1)), (1.0, Vec2::new(-0.2, 0.4)), (0.5, Vec2::new(0.1, -0.1))];
        let doubled: Vec<(f32, Vec2)> = c.iter().map(|&(w, v)| (w * 2.0, v)).collect();
        assert_eq!(blend(&c), blend(&doubled));
    }

    #[test]
    fn raising_one_weight_reduces_the_others_relative_influence() {
        let base = blend(&[(1.0, Vec2::X), (1.0, Vec2::Y)]);
        let more_x = blend(&[(3.0, Vec2::X), (1.0, Vec2::Y)]);
        assert!(more_x.y / more_x.x < base.y / base.x);
    }

    #[test]
    fn a_behaviour_only_adds_its_pull() {
        // Turning a behaviour off changes direction even where the other behaviour is unchanged.
        let with = blend(&[(1.0, Vec2::X), (1.0, Vec2::new(0.0, 0.5))]);
        let without = blend(&[(1.0, Vec2::X)]);
        assert!(with.y > 0.0 && without.y == 0.0);
    }

    #[test]
    fn an_idle_strong_behaviour_does_not_slow_the_others() {
        // A weight-2 behaviour with nothing to say leaves a weight-1 pull at full strength.
        let v = blend(&[(1.0, Vec2::X), (2.0, Vec2::ZERO)]);
        assert_eq!(v, Vec2::X);
        assert_eq!(blend(&[(1.0, Vec2::ZERO)]), Vec2::ZERO);
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
