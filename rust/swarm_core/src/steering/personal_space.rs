//! Personal Space: push away from neighbours inside the spacing radius, strongest when
//! touching, up to a sample cap. Coincident agents separate along a per-pair hash direction.

use glam::Vec2;

use crate::noise::hash_dir;
use crate::spatial_grid::SpatialGrid;

#[inline]
pub fn personal_space(i: u32, seed: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid) -> Vec2 {
    if radius <= 0.0 {
        return Vec2::ZERO;
    }
    let r2 = radius * radius;
    let mut acc = Vec2::ZERO;
    let mut samples = 0u32;
    grid.for_each_candidate(p, y, radius, |j, q| {
        if j == i {
            return true;
        }
        let off = p - q;
        let d2 = off.length_squared();
        if d2 >= r2 {
            return true;
        }
        if d2 < 1e-12 {
            acc += hash_dir(seed, j);
        } else {
            let d = d2.sqrt();
            acc += off / d * (1.0 - d / radius);
        }
        samples += 1;
        samples < max_samples
    });
    acc.clamp_length_max(1.0)
}
