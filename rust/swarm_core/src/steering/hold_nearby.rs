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

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;
    use proptest::prelude::*;

    proptest! {
        /// The same pull as a plain loop over the grid's candidates (ascending order, distance
        /// test, stop at the cap).
        #[test]
        fn matches_a_plain_loop(
            pts in prop::collection::vec((-6.0f32..6.0, -6.0f32..6.0, -2.0f32..2.0), 1..120),
            radius in 0.1f32..4.0, max_samples in 1u32..12, who in 0usize..120,
        ) {
            let pos: Vec<Vec3> = pts.iter().map(|&(x, z, y)| Vec3::new(x, y, z)).collect();
            let mut grid = SpatialGrid::with_capacity(pos.len());
            grid.rebuild(&pos, &|_| 0.4, 1.2);
            let i = (who % pos.len()) as u32;
            let p3 = pos[i as usize];
            let p = Vec2::new(p3.x, p3.z);
            let (mut sum, mut n) = (Vec2::ZERO, 0u32);
            grid.for_each_candidate(p, p3.y, radius, |j, q| {
                if j != i && q.distance_squared(p) < radius * radius {
                    sum += q;
                    n += 1;
                }
                n < max_samples
            });
            let want = if n == 0 { Vec2::ZERO } else { ((sum / n as f32 - p) / radius).clamp_length_max(1.0) };
            let got = hold_nearby(i, p, p3.y, radius, max_samples, &grid);
            prop_assert_eq!(got.to_array().map(f32::to_bits), want.to_array().map(f32::to_bits));
        }
    }
}
