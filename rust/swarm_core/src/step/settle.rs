//! Stage 6, settling: on a surface flow field agents stay on open cells and stand on the surface
//! (recording the closed cell each one pressed); velocity becomes the motion that actually
//! happened; the ground height applies off a field; the new positions replace the old; closed
//! cells count the agents going somewhere that pressed them. Reads the old positions, radii and
//! speeds, the grid's records, and what "going somewhere" needs; writes positions, velocities,
//! cells, `pressed` and the flow field's pressing counts. Returns the new positions' bounds.

use glam::{Vec2, Vec3};
use rayon::prelude::*;

use crate::agents::{Agents, FLAGS_RESTING};
use crate::archetype::ArchetypeRuntime;
use crate::far_blocks;
use crate::flow_field::NONE;
use crate::spatial_grid::{Bounds, SpatialGrid};
use crate::step::chunk::CHUNK;
use crate::step::going::Going;
use crate::surface_nav::SurfaceNav;

/// Settles the moved agents; `from_grid`: the ground-plane positions are taken from the grid's
/// records (body blocking left them there) instead of `next_pos`.
// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn settle(
    dt: f32,
    ground_height: f32,
    enforce: bool,
    from_grid: bool,
    archetypes: &[ArchetypeRuntime],
    grid: &SpatialGrid,
    nav: Option<&mut SurfaceNav>,
    a: &mut Agents,
    next_pos: &mut Vec<Vec3>,
    pressed: &mut Vec<u32>,
    kept: &FarKept,
    turn_interval: u32,
) -> (Vec2, Vec2) {
    let (n, far) = (a.len(), kept.far);
    // On a surface flow field: stay on open cells, stand on the surface.
    if let Some(nav) = &nav {
        pressed.resize(n, NONE);
        nav.settle(enforce, &a.pos, next_pos, &mut a.cell, pressed, CHUNK, far);
    }
    let ground = if nav.is_some() { f32::NAN } else { ground_height };
    let bounds = finish_motion(dt, ground, from_grid, grid, a, next_pos, kept, turn_interval);
    std::mem::swap(&mut a.pos, next_pos);
    if let Some(nav) = nav {
        // Only agents that are going somewhere press (and so attack or push) a closed cell.
        let going = Going::new(archetypes, &a.archetype, &a.target, &a.flags, &a.aware, &a.pos, &a.seat);
        nav.count_pressing(pressed, |i| going.at(i).then(|| a.steer[i].normalize_or_zero()));
    }
    bounds
}

/// The far-block decision as settling reads it: each block's status, whether it waited the last
/// step too, untouched (`still`: its next positions already are its positions), and its kept
/// bounds (those of its positions, for a still block).
pub(crate) struct FarKept<'a> {
    pub far: &'a [far_blocks::Status],
    pub still: &'a [bool],
    pub bounds: &'a [(Vec3, Vec3)],
}

/// Velocity from the motion that actually happened, the ground height (unless NaN); returns the
/// new positions' ground-plane bounds (for the grid rebuild). A far block that waits keeps its
/// positions and velocities (a still one is passed over whole, with its kept bounds); one on its
/// turn moved over its turn's steps (`far_blocks::turn_steps`, for turns every `turn_interval`
/// steps at level 0).
#[inline(never)]
#[allow(clippy::too_many_arguments)]
fn finish_motion(
    dt: f32,
    ground: f32,
    from_grid: bool,
    grid: &SpatialGrid,
    a: &mut Agents,
    next_pos: &mut [Vec3],
    kept: &FarKept,
    turn_interval: u32,
) -> (Vec2, Vec2) {
    let far = kept.far;
    // Velocity is the motion that actually happened (blocking included).
    let inv_dt = 1.0 / dt;
    let (params, flags) = (&a.params, &a.flags);
    let (sorted, rank) = (grid.sorted(), grid.rank());
    // The grid was rebuilt for this agent count at the start of the step.
    assert_eq!(rank.len(), next_pos.len(), "grid out of date in finish_motion");
    // The new positions' bounds come along.
    (
        a.vel.par_chunks_mut(CHUNK),
        next_pos.par_chunks_mut(CHUNK),
        a.pos.par_chunks(CHUNK),
        params.par_chunks(CHUNK),
        rank.par_chunks(CHUNK),
        flags.par_chunks(CHUNK),
    )
        .into_par_iter()
        .enumerate()
        .map(|(ci, (v, np, p, prm, rk, fl))| {
            let mut b = Bounds::EMPTY;
            for b0 in (0..v.len()).step_by(far_blocks::FAR_BLOCK) {
                let b1 = (b0 + far_blocks::FAR_BLOCK).min(v.len());
                let block = (ci * CHUNK + b0) / far_blocks::FAR_BLOCK;
                let status = far_blocks::of(far, ci * CHUNK + b0);
                let inv_dt = match status {
                    far_blocks::WAIT if kept.still.get(block) == Some(&true) => {
                        // Waiting again, untouched: its next positions already are its positions
                        // (this settling's copy at the step before), and its bounds are kept.
                        debug_assert!(np[b0..b1] == p[b0..b1]);
                        let (lo, hi) = kept.bounds[block];
                        b = Bounds::union(b, (Vec2::new(lo.x, lo.z), Vec2::new(hi.x, hi.z)));
                        continue;
                    }
                    far_blocks::WAIT => {
                        // Waiting: where it stood, as it moved on its turn.
                        for (np, p) in np[b0..b1].iter_mut().zip(&p[b0..b1]) {
                            *np = *p;
                            b = Bounds::with(b, *p);
                        }
                        continue;
                    }
                    far_blocks::NEAR => inv_dt,
                    _ => 1.0 / (dt * far_blocks::turn_steps(status, turn_interval) as f32),
                };
                let agents = v[b0..b1].iter_mut().zip(np[b0..b1].iter_mut()).zip(&p[b0..b1]).zip(&prm[b0..b1]);
                for ((((v, np), p), prm), (&k, &f)) in agents.zip(rk[b0..b1].iter().zip(&fl[b0..b1])) {
                    if f & FLAGS_RESTING == FLAGS_RESTING && p.y == ground {
                        // At rest on the open ground: it stands where it stood (its next position
                        // and its record are its position), so it has no velocity.
                        debug_assert!(
                            *np == *p
                                && (!from_grid || sorted[k as usize].truncate() == Vec2::new(p.x, p.z).extend(p.y))
                        );
                        *v = Vec3::ZERO;
                        b = Bounds::with(b, *p);
                        continue;
                    }
                    if from_grid {
                        let e = sorted[k as usize];
                        (np.x, np.z) = (e.x, e.y);
                    }
                    if !ground.is_nan() {
                        np.y = ground;
                    }
                    // Being shoved moves an agent but gives it no momentum beyond its own speed.
                    *v = ((*np - *p) * inv_dt).clamp_length_max(prm.max_speed);
                    b = Bounds::with(b, *np);
                }
            }
            b
        })
        .reduce(|| Bounds::EMPTY, Bounds::union)
}
