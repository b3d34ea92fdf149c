//! Body blocking: agents do not interpenetrate. Each pass moves every agent out of the bodies it
//! overlaps, yielding in proportion to the other's push resistance (the heavier one moves less).
//! Passes are Jacobi style (read one position array, write another), so they run in parallel
//! with results independent of thread count.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::agents::AgentParams;
use crate::noise::hash2;
use crate::spatial_grid::SpatialGrid;

/// Fraction of the overlap each pass resolves; below 1 to stay stable in dense packs where
/// several neighbours push at once.
const RELAXATION: f32 = 0.8;

/// One blocking pass: reads `src`, writes `dst`. `grid` must hold `src`'s positions
/// (`refresh_positions`); its cells may be stale by up to `slack` metres, and queries are
/// widened by that amount.
pub fn resolve_pass(
    src: &[Vec3],
    dst: &mut [Vec3],
    params: &[AgentParams],
    grid: &SpatialGrid,
    max_radius: f32,
    slack: f32,
    chunk: usize,
) {
    dst.par_chunks_mut(chunk).enumerate().for_each(|(ci, out)| {
        let base = ci * chunk;
        for (k, o) in out.iter_mut().enumerate() {
            let i = base + k;
            *o = resolve_one(i as u32, src, params, grid, max_radius, slack);
        }
    });
}

#[inline]
fn resolve_one(i: u32, src: &[Vec3], params: &[AgentParams], grid: &SpatialGrid, max_radius: f32, slack: f32) -> Vec3 {
    let p3 = src[i as usize];
    let p = Vec2::new(p3.x, p3.z);
    let me = params[i as usize];
    let mut corr = Vec2::ZERO;
    grid.for_each_candidate(p, p3.y, me.radius + max_radius + slack, |j, q| {
        if j == i {
            return true;
        }
        let other = &params[j as usize];
        let min = me.radius + other.radius;
        let off = p - q;
        let d2 = off.length_squared();
        if d2 >= min * min {
            return true;
        }
        let share = other.push_resistance / (me.push_resistance + other.push_resistance);
        let dir = if d2 > 1e-12 {
            off / d2.sqrt()
        } else {
            // Coincident pair: opposite directions from one hash of the unordered pair.
            let (a, b) = if i < j { (i, j) } else { (j, i) };
            let ang = (hash2(a, b) >> 8) as f32 * (std::f32::consts::TAU / 16_777_216.0);
            let d = Vec2::new(ang.cos(), ang.sin());
            if i < j {
                d
            } else {
                -d
            }
        };
        corr += dir * ((min - d2.sqrt()) * share * RELAXATION);
        true
    });
    // One pass never moves an agent by more than its radius: a body squeezed between many
    // neighbours is eased out over a few steps instead of being launched.
    let corr = corr.clamp_length_max(me.radius);
    Vec3::new(p3.x + corr.x, p3.y, p3.z + corr.y)
}
