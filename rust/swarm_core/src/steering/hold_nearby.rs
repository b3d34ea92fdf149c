//! Hold Nearby Swarm: a pull toward the centre of the neighbours within a radius, so a pack
//! moves together instead of stringing out.

use glam::Vec2;

use crate::spatial_grid::SpatialGrid;

/// The pull toward the centre of at most `max_samples` neighbours within `radius` of agent `i`
/// (at `p`, height `y`), met in the grid's order.
pub fn hold_nearby(i: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid) -> Vec2 {
    if radius <= 0.0 || max_samples == 0 {
        return Vec2::ZERO;
    }
    let mut sum = Vec2::ZERO;
    let mut n = 0u32;
    let records = grid.sorted();
    grid.for_each_neighbour(i, p, y, radius, false, |k| {
        sum += Vec2::new(records[k].x, records[k].y);
        n += 1;
        n < max_samples
    });
    if n == 0 {
        return Vec2::ZERO;
    }
    ((sum / n as f32 - p) / radius).clamp_length_max(1.0)
}
