//! Out-of-Sight Fallback: an agent that cannot see its target (beyond sight distance) heads for
//! the centre of the nearby allies that can, so the horde flows toward the target through the
//! agents at its front.

use glam::Vec2;

use crate::spatial_grid::SpatialGrid;

/// `sees[j]` tells whether agent `j` sees its target. Returns a unit-disk pull, zero when no
/// ally in the radius sees it.
pub fn follow_seers(i: u32, p: Vec2, y: f32, radius: f32, max_samples: u32, grid: &SpatialGrid, sees: &[bool]) -> Vec2 {
    if radius <= 0.0 || max_samples == 0 {
        return Vec2::ZERO;
    }
    let mut sum = Vec2::ZERO;
    let mut n = 0u32;
    let (records, order) = (grid.sorted(), grid.order());
    grid.for_each_neighbour(i, p, y, radius, false, |k| {
        if sees[order[k] as usize] {
            sum += Vec2::new(records[k].x, records[k].y);
            n += 1;
        }
        n < max_samples
    });
    if n == 0 {
        return Vec2::ZERO;
    }
    (sum / n as f32 - p).normalize_or_zero()
}
