//! Hold Nearby Swarm: a pull toward the centre of the neighbours within a radius, so a pack
//! moves together instead of stringing out.

use glam::Vec2;

use crate::spatial_grid::{for_each_near, Near, SpatialGrid};

/// The pull toward the centre of at most `max_samples` neighbours within `radius` of agent `i`
/// (at `p`, height `y`), met in the grid's order.
pub fn hold_nearby(i: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid) -> Vec2 {
    if radius <= 0.0 || max_samples == 0 {
        return Vec2::ZERO;
    }
    let mut sum = Vec2::ZERO;
    let mut n = 0u32;
    let skip = grid.rank().get(i as usize).map_or(usize::MAX, |&k| k as usize);
    let near = Near { p, y, reach: radius, add_radius: false, skip };
    let records = grid.sorted();
    grid.for_each_row(p, radius, |a, b| {
        for_each_near(records, a, b, false, &near, |k| {
            sum += Vec2::new(records[k].x, records[k].y);
            n += 1;
            n < max_samples
        })
    });
    if n == 0 {
        return Vec2::ZERO;
    }
    ((sum / n as f32 - p) / radius).clamp_length_max(1.0)
}
