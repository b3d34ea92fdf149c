//! Stage 1, target selection (sequential: few targets): ranks the registered targets against
//! the crowd's centroid and picks the active ones, then points the surface flow field's slots at
//! them and advances its field builds. Reads the positions; writes the targets' active set and
//! the flow field's slots and builds.

use glam::{DVec3, Vec3};
use rayon::prelude::*;

use crate::config::WorldSettings;
use crate::step::chunk::CHUNK;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// Mean of `pos` (deterministic: fixed chunks summed in order in f64; `partials` is scratch).
pub(crate) fn centroid(pool: &rayon::ThreadPool, pos: &[Vec3], partials: &mut Vec<DVec3>) -> Vec3 {
    let n = pos.len();
    if n == 0 {
        return Vec3::ZERO;
    }
    let chunks = n.div_ceil(CHUNK);
    partials.resize(chunks, DVec3::ZERO);
    pool.install(|| {
        partials.par_iter_mut().zip(pos.par_chunks(CHUNK)).for_each(|(out, c)| {
            *out = c.iter().fold(DVec3::ZERO, |s, p| s + p.as_dvec3());
        })
    });
    (partials.iter().fold(DVec3::ZERO, |s, p| s + *p) / n as f64).as_vec3()
}

/// Selects the active targets and updates the flow field's slots; returns the active count.
#[allow(clippy::too_many_arguments)]
pub(crate) fn select_targets(
    pool: &rayon::ThreadPool,
    settings: &WorldSettings,
    dt: f32,
    now: f64,
    pos: &[Vec3],
    partials: &mut Vec<DVec3>,
    targets: &mut Targets,
    nav: Option<&mut SurfaceNav>,
) -> usize {
    // The centroid only ranks targets against each other: with one (or none) it is skipped.
    let c = if targets.registered_count() > 1 { centroid(pool, pos, partials) } else { Vec3::ZERO };
    targets.select_active(c, dt, settings.max_active_target_count, settings.target_stickiness);
    let active = targets.active().len();
    if let Some(nav) = nav {
        let slots = targets.slot_count();
        let targets = &*targets;
        pool.install(|| nav.update_targets(targets, slots, now));
    }
    active
}
