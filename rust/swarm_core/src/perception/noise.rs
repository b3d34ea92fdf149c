//! Hearing: `World::emit_noise` (and a breakable's hit and break noises, fed in by the engine
//! layer) queue noises; at the next step each reaches, in emit order, the agents within its
//! radius whose profile has search on and that neither see a target nor already investigate a
//! noise. On a surface flow field "within its radius" is measured along the route (walls block
//! sound, a costly closed door muffles it by its route cost, except a noise made at that door): a bounded route search from the
//! noise's cell settles every cell within the radius, and an agent hears it when its cell is among
//! them. Off the field (no field, or the noise or the agent off it) the straight line counts. They walk to the noise and give up `forget_time` seconds later. Agents already
//! investigating do not switch, and agents standing at the spot they investigate do not press
//! what blocks it, so a crowd drawn only by noise eventually gives up.

use glam::Vec2;

use crate::archetype::ArchetypeRuntime;
use crate::flow_field::{CellId, IntegrationJob, NONE};
use crate::perception::awareness::{Awareness, Noise, CHASING, INVESTIGATING};
use crate::perception::memory::{go_to, wake};
use crate::perception::occlusion::SLACK_CELLS;
use crate::spatial_grid::SpatialGrid;
use crate::surface_nav::SurfaceNav;

/// Where hearing measures routes: the flow field, the agents' cells and the search's scratch.
pub(crate) struct Routes<'a> {
    pub nav: Option<&'a SurfaceNav>,
    pub cell: &'a [CellId],
    pub job: &'a mut IntegrationJob,
}

/// Applies queued noises (sequential: few noises, a grid query and a bounded route search each).
#[allow(clippy::too_many_arguments)]
pub(crate) fn apply_noises(
    noises: &[Noise],
    grid: &SpatialGrid,
    routes: Routes,
    archetypes: &[ArchetypeRuntime],
    arch: &[u16],
    aware: &mut [Awareness],
    flags: &mut [u8],
    dormant_timer: &mut [f32],
) {
    let Routes { nav, cell, job } = routes;
    for n in noises {
        let c = Vec2::new(n.position.x, n.position.z);
        let r2 = n.radius * n.radius;
        // The route search from the noise, when it stands on the field.
        let (source, reach) = match nav {
            Some(nav) => {
                // The baked cell under the noise, closed or not: a hit on a closed door is heard
                // on both sides of it alike.
                let grid = &nav.grid;
                let source = grid.locate(n.position).or_else(|| grid.nearest_walkable(n.position, 4)).unwrap_or(NONE);
                // A noise made in a cost box (a blow on a closed door) is not muffled by that
                // box itself: the route to it pays its cost on entering, which is given back.
                let own = if source != NONE { nav.mods.entry_cost(NONE, source) } else { 0.0 };
                let reach = n.radius + SLACK_CELLS * nav.grid.cell_size() + own;
                if source != NONE {
                    job.start(&nav.grid, source);
                    job.run_within(&nav.grid, &nav.mods, reach);
                }
                (source, reach)
            }
            None => (NONE, 0.0),
        };
        grid.for_each_candidate(c, f32::NAN, n.radius, |j, q| {
            let j = j as usize;
            if q.distance_squared(c) > r2 || j >= aware.len() {
                return true;
            }
            let at = cell.get(j).copied().unwrap_or(NONE);
            if source != NONE && at != NONE && job.settled_distance(at) > reach {
                return true; // The route to it is longer than the noise carries.
            }
            let hears = archetypes[arch[j] as usize].config.perception.as_ref().is_some_and(|p| p.search_enabled);
            let a = &mut aware[j];
            if hears && a.mode != CHASING && a.mode != INVESTIGATING {
                go_to(a, INVESTIGATING, n.position);
                wake(&mut flags[j], &mut dormant_timer[j]);
            }
            true
        });
    }
}
