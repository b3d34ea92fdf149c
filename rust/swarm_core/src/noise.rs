//! Stateless integer hashing for per-agent variety that must not depend on thread count or
//! step order: slot angles, wander directions, tie-breaking directions.

use std::sync::LazyLock;

use glam::Vec2;

/// A well-mixed 32-bit hash of two words (a murmur3-style finaliser).
#[inline]
pub fn hash2(a: u32, b: u32) -> u32 {
    let mut h = a.wrapping_mul(0x9E37_79B1) ^ b.wrapping_add(0x7F4A_7C15).rotate_left(13);
    h ^= h >> 16;
    h = h.wrapping_mul(0x85EB_CA6B);
    h ^= h >> 13;
    h = h.wrapping_mul(0xC2B2_AE35);
    h ^ (h >> 16)
}

/// `hash2` mapped to `0.0..1.0`.
#[inline]
pub fn hash01(a: u32, b: u32) -> f32 {
    (hash2(a, b) >> 8) as f32 * (1.0 / 16_777_216.0)
}

/// A unit direction on the ground plane chosen by `hash2(a, b)` from a table of 256 evenly spaced
/// directions (no trigonometry per call).
#[inline]
pub fn hash_dir(a: u32, b: u32) -> Vec2 {
    static DIRS: LazyLock<[Vec2; 256]> = LazyLock::new(|| {
        std::array::from_fn(|k| {
            let t = k as f32 / 256.0 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin())
        })
    });
    DIRS[(hash2(a, b) >> 24) as usize]
}

/// Like `hash_dir`, from a finer table of 1024 directions (a third of a degree apart): for
/// directions that must spread evenly over many agents, such as slots around a target.
#[inline]
pub fn hash_dir_fine(a: u32, b: u32) -> Vec2 {
    static DIRS: LazyLock<[Vec2; 1024]> = LazyLock::new(|| {
        std::array::from_fn(|k| {
            let t = k as f32 / 1024.0 * std::f32::consts::TAU;
            Vec2::new(t.cos(), t.sin())
        })
    });
    DIRS[(hash2(a, b) >> 22) as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash01_is_spread_over_unit_interval() {
        let mut buckets = [0u32; 10];
        for i in 0..10_000 {
            let v = hash01(i, 7);
            assert!((0.0..1.0).contains(&v));
            buckets[(v * 10.0) as usize] += 1;
        }
        for b in buckets {
            assert!((800..1200).contains(&b), "uneven bucket {b}");
        }
    }
}
