//! Steering behaviours. Each returns a ground-plane vector of at most unit length;
//! `blend` combines them. They are pure functions of their inputs, so the step can run them
//! for any agent on any thread.

pub mod approach;
pub mod blend;
pub mod hold_nearby;
pub mod idle;
pub mod orbit;
pub mod out_of_sight;
pub mod personal_space;
pub mod predictive;
pub mod pressure;
pub mod retreat;
pub mod surround_shape;

#[cfg(test)]
mod tests {
    use glam::{Vec2, Vec3};
    use proptest::prelude::*;

    use super::{hold_nearby::hold_nearby, out_of_sight::follow_seers};
    use crate::spatial_grid::SpatialGrid;

    proptest! {
        /// Hold Nearby and Out-of-Sight Fallback give the same pulls, bit for bit, as a plain
        /// loop over the grid's candidates (ascending order, sight and distance tests, stop at
        /// the cap).
        #[test]
        fn group_pulls_match_a_plain_loop(
            pts in prop::collection::vec((-6.0f32..6.0, -6.0f32..6.0, -2.0f32..2.0, any::<bool>()), 1..120),
            radius in 0.1f32..4.0, max_samples in 1u32..12, who in 0usize..120,
        ) {
            let pos: Vec<Vec3> = pts.iter().map(|&(x, z, y, _)| Vec3::new(x, y, z)).collect();
            let sees: Vec<bool> = pts.iter().map(|&(.., s)| s).collect();
            let mut grid = SpatialGrid::with_capacity(pos.len());
            grid.rebuild(&pos, &|_| 0.4, 1.2);
            let i = (who % pos.len()) as u32;
            let p3 = pos[i as usize];
            let p = Vec2::new(p3.x, p3.z);
            // The centre of the neighbours a plain loop takes (only seers when `seers`).
            let plain = |seers: bool| {
                let (mut sum, mut n) = (Vec2::ZERO, 0u32);
                grid.for_each_candidate(p, p3.y, radius, |j, q| {
                    if j != i && (!seers || sees[j as usize]) && q.distance_squared(p) < radius * radius {
                        sum += q;
                        n += 1;
                    }
                    n < max_samples
                });
                (n > 0).then(|| sum / n as f32)
            };
            let bits = |v: Vec2| v.to_array().map(f32::to_bits);
            let hold = plain(false).map_or(Vec2::ZERO, |c| ((c - p) / radius).clamp_length_max(1.0));
            prop_assert_eq!(bits(hold_nearby(i, p, p3.y, radius, max_samples, &grid)), bits(hold));
            let follow = plain(true).map_or(Vec2::ZERO, |c| (c - p).normalize_or_zero());
            prop_assert_eq!(bits(follow_seers(i, p, p3.y, radius, max_samples, &grid, &sees)), bits(follow));
        }
    }
}
