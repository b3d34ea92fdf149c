//! Compact storage for vectors in the unit disk (an agent's stored goal direction): two
//! signed 16-bit fixed-point components, 4 bytes instead of 8, exact to about 3e-5.

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A vector with components in `-1.0..=1.0`, stored as 16-bit signed fractions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Snorm2([i16; 2]);

const SCALE: f32 = i16::MAX as f32;
const ROUNDER: f32 = 12_582_912.0;

impl Snorm2 {
    pub const ZERO: Self = Self([0, 0]);

    /// Stores `v`, clamping each component to `-1.0..=1.0` (NaN stores as 0).
    #[inline]
    pub fn new(v: Vec2) -> Self {
        // Round to nearest by the float adder: adding 1.5 * 2^23 leaves the rounded value in the
        // low mantissa bits (|v| <= 32767 fits). A plain add and an integer subtract, where a
        // rounding call or a saturating cast costs many instructions; a NaN comes out as 0.
        let q = |x: f32| {
            let v = x.clamp(-1.0, 1.0) * SCALE;
            ((v + ROUNDER).to_bits() as i32 - ROUNDER.to_bits() as i32) as i16
        };
        Self([q(v.x), q(v.y)])
    }

    #[inline]
    pub fn get(self) -> Vec2 {
        Vec2::new(self.0[0] as f32, self.0[1] as f32) * (1.0 / SCALE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_within_the_unit_disk_and_keeps_nan_out() {
        for k in 0..1000 {
            let a = k as f32 * 0.037;
            let v = Vec2::new(a.cos(), a.sin()) * (k as f32 / 1000.0);
            assert!(Snorm2::new(v).get().distance(v) < 5e-5);
        }
        assert_eq!(Snorm2::new(Vec2::new(f32::NAN, 2.0)).get(), Vec2::new(0.0, 1.0));
        assert_eq!(Snorm2::ZERO.get(), Vec2::ZERO);
        assert_eq!(Snorm2::new(Vec2::new(-f32::NAN, -3.0)).get(), Vec2::new(0.0, -1.0));
        assert_eq!(Snorm2::new(Vec2::new(0.5 / SCALE, -1.5 / SCALE)).0, [0, -2]);
    }
}
