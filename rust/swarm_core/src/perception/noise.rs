//! Hearing: `World::emit_noise` (and a breakable's hit and break noises, fed in by the engine
//! layer) queue noises; at the next step each reaches, in emit order, the agents within its
//! radius whose profile has search on and that neither see a target nor already investigate a
//! noise. They walk to the noise and give up `forget_time` seconds later. Agents already
//! investigating do not switch, and agents standing at the spot they investigate do not press
//! what blocks it, so a crowd drawn only by noise eventually gives up.

use glam::Vec2;

use crate::archetype::ArchetypeRuntime;
use crate::perception::awareness::{Awareness, Noise, CHASING, INVESTIGATING};
use crate::perception::memory::{go_to, wake};
use crate::spatial_grid::SpatialGrid;

/// Applies queued noises (sequential: few noises, a grid query each).
pub(crate) fn apply_noises(
    noises: &[Noise],
    grid: &SpatialGrid,
    archetypes: &[ArchetypeRuntime],
    arch: &[u16],
    aware: &mut [Awareness],
    flags: &mut [u8],
    dormant_timer: &mut [f32],
) {
    for n in noises {
        let c = Vec2::new(n.position.x, n.position.z);
        let r2 = n.radius * n.radius;
        grid.for_each_candidate(c, f32::NAN, n.radius, |j, q| {
            let j = j as usize;
            if q.distance_squared(c) > r2 || j >= aware.len() {
                return true;
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
