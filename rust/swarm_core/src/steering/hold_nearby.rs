//! Hold Nearby Swarm: a pull toward the centre of the neighbours within a radius, so a pack
//! moves together instead of stringing out.

use glam::Vec2;

use crate::spatial_grid::SpatialGrid;

pub fn hold_nearby(i: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid) -> Vec2 {
    if radius <= 0.0 {
        return Vec2::ZERO;
    }
    let r2 = radius * radius;
    let mut sum = Vec2::ZERO;
    let mut n = 0u32;
    grid.for_each_candidate(p, y, radius, |j, q| {
        if j != i && q.distance_squared(p) < r2 {
            sum += q;
            n += 1;
        }
        n < max_samples
    });
    if n == 0 {
        return Vec2::ZERO;
    }
    ((sum / n as f32 - p) / radius).clamp_length_max(1.0)
}
