//! Stage 1, target selection (sequential: few targets): ranks the registered targets against
//! the crowd's centroid and picks the active ones, then points the surface flow field's slots at
//! them and advances its field builds, and the spot fields at the spots agents search. Reads the positions; writes the targets' active set and
//! the flow field's slots and builds.

use glam::{DVec3, Vec3};
use rayon::prelude::*;

use crate::archetype::ArchetypeRuntime;
use crate::config::WorldSettings;
use crate::perception::awareness::{Awareness, INVESTIGATING, SEARCHING};
use crate::perception::memory;
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

/// What the spot fields read: every perceiving agent walking to a spot it searches or a noise
/// it investigates.
pub(crate) struct SpotsIn<'a> {
    pub archetypes: &'a [ArchetypeRuntime],
    pub arch: &'a [u16],
    pub aware: &'a [Awareness],
    pub pos: &'a [Vec3],
}

impl SpotsIn<'_> {
    /// The spots agents still walk to (not yet reached).
    fn wanted(&self) -> impl Iterator<Item = Vec3> + '_ {
        let any = self.archetypes.iter().any(|a| a.config.perception.is_some());
        let n = if any { self.aware.len() } else { 0 };
        (0..n).filter_map(move |i| {
            let a = &self.aware[i];
            let walking = (a.mode == SEARCHING || a.mode == INVESTIGATING)
                && self.archetypes[self.arch[i] as usize].config.perception.is_some()
                && memory::is_going(a, self.pos[i]);
            walking.then_some(a.spot)
        })
    }
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
    spots: &SpotsIn,
) -> usize {
    // The centroid only ranks targets against each other: with one (or none) it is skipped.
    let c = if targets.registered_count() > 1 { centroid(pool, pos, partials) } else { Vec3::ZERO };
    targets.select_active(c, dt, settings.max_active_target_count, settings.target_stickiness);
    let active = targets.active().len();
    if let Some(nav) = nav {
        let slots = targets.slot_count();
        let targets = &*targets;
        pool.install(|| {
            nav.update_targets(targets, slots, now);
            nav.update_spots(spots.wanted(), now);
        });
    }
    active
}
