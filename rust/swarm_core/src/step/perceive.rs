//! Stage 3, perception (see `perception`): sight and memory, queued noises, alerts, and the next
//! batch of sight-ray requests. Reads positions, targets, archetypes, cells, seeds, the grid and
//! the classification's distances; writes the agents' awareness, flags and dormancy timers, the
//! workspace's `sees` (for perceiving agents) and hearing's route search, and the perception runtime (drains the noise
//! queue, refills the ray requests). Nothing runs (and queued noises are dropped) while no
//! archetype has a perception profile.

use crate::agents::Agents;
use crate::archetype::{ArchetypeMaxima, ArchetypeRuntime};
use crate::flow_field::IntegrationJob;
use crate::ids::IdTable;
use crate::perception::awareness::{PerceptionCounts, PerceptionRuntime};
use crate::perception::{self, memory, noise, sight};
use crate::spatial_grid::SpatialGrid;
use crate::step::chunk::CHUNK;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// What perception reads besides the agents.
pub(crate) struct PerceiveIn<'a> {
    pub dt: f32,
    pub tick: u32,
    pub eye_height: f32,
    pub maxima: &'a ArchetypeMaxima,
    pub archetypes: &'a [ArchetypeRuntime],
    pub targets: &'a Targets,
    pub nav: Option<&'a SurfaceNav>,
    pub ids: &'a IdTable,
    pub grid: &'a SpatialGrid,
    /// Each agent's distance to its target (the classification's).
    pub dist: &'a [f32],
}

/// Runs perception; returns the perceiving agents per state.
// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
pub(crate) fn perceive(
    input: &PerceiveIn,
    a: &mut Agents,
    rt: &mut PerceptionRuntime,
    sees: &mut [bool],
    hearing: &mut IntegrationJob,
) -> PerceptionCounts {
    let PerceiveIn { dt, tick, eye_height, maxima, archetypes, targets, nav, ids, grid, dist } = *input;
    if !maxima.any_perception {
        rt.noises.clear();
        rt.requests.clear();
        return PerceptionCounts::default();
    }
    let sight_in = sight::SightIn {
        dt,
        archetypes,
        targets,
        nav,
        pos: &a.pos,
        target: &a.target,
        arch: &a.archetype,
        cell: &a.cell,
        dist,
    };
    sight::sight_pass(&sight_in, &mut a.aware, sees, &mut a.flags, &mut a.dormant_timer, CHUNK);
    let routes = noise::Routes { nav, cell: &a.cell, job: hearing };
    noise::apply_noises(
        &rt.noises,
        grid,
        routes,
        archetypes,
        &a.archetype,
        &mut a.aware,
        &mut a.flags,
        &mut a.dormant_timer,
    );
    rt.noises.clear();
    let has_profile = |i: usize| archetypes[a.archetype[i] as usize].config.perception.is_some();
    let any_seer = maxima.max_alert > 0.0 && (0..a.len()).any(|i| sees[i] && has_profile(i));
    if any_seer {
        let alert = memory::AlertIn {
            tick,
            archetypes,
            targets,
            nav,
            grid,
            pos: &a.pos,
            target: &a.target,
            arch: &a.archetype,
            cell: &a.cell,
            seeds: &a.seed,
            sees,
            max_radius: maxima.max_alert,
        };
        memory::alert_pass(&alert, &mut a.aware, &mut a.flags, &mut a.dormant_timer, CHUNK);
    }
    if maxima.any_ray {
        let slot = &a.slot;
        sight::collect_ray_requests(
            rt,
            archetypes,
            targets,
            &a.pos,
            &a.target,
            &a.archetype,
            &a.flags,
            dist,
            eye_height,
            |i| ids.id_of_slot(slot[i]),
        );
    } else {
        rt.requests.clear();
    }
    perception::count(&a.aware, has_profile)
}
