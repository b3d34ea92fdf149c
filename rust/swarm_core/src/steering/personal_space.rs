//! Personal Space: push away from neighbours inside the spacing radius, strongest when
//! touching, up to a sample cap. Coincident agents separate along a per-pair hash direction.

use glam::Vec2;

use crate::noise::hash_dir;
use crate::spatial_grid::{SpatialGrid, LAYER_GAP};

#[inline]
pub fn personal_space(i: u32, seed: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid) -> Vec2 {
    if radius <= 0.0 {
        return Vec2::ZERO;
    }
    let r2 = radius * radius;
    let inv_r = 1.0 / radius;
    let mut acc = Vec2::ZERO;
    let mut samples = 0u32;
    // Straight over the grid's cell-ordered records; the agent's own record is skipped by rank.
    let me = grid.rank().get(i as usize).map_or(usize::MAX, |&k| k as usize);
    let (sorted, entries) = (grid.sorted(), grid.order());
    grid.for_each_row(p, radius, |a, b| {
        for (k, e) in sorted[a..b].iter().enumerate() {
            let off = Vec2::new(p.x - e.x, p.y - e.y);
            let d2 = off.length_squared();
            if d2 >= r2 || (e.z - y).abs() > LAYER_GAP || a + k == me {
                continue;
            }
            if d2 < 1e-12 {
                acc += hash_dir(seed, entries[a + k]);
            } else {
                let d = d2.sqrt();
                acc += off * ((1.0 - d * inv_r) / d);
            }
            samples += 1;
            if samples >= max_samples {
                return false;
            }
        }
        true
    });
    acc.clamp_length_max(1.0)
}
