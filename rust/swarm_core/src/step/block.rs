//! Stage 5, body blocking (see `body_blocking`): overlapping bodies are pushed apart over a few
//! passes on the grid. Reads the push resistances and contact lists by rank, flags, far-block
//! statuses, tiers and the archetype maxima; writes `next_pos` (unless the positions stay in the
//! grid's records, `write_back` false), the grid's records, the contact lists its first pass
//! made and the blocking buffers.

use glam::{Vec3, Vec4};

use crate::archetype::ArchetypeMaxima;
use crate::body_blocking::{self, BlockingScratch};
use crate::config::WorldSettings;
use crate::contact_list::ContactLists;
use crate::far_blocks;
use crate::spatial_grid::SpatialGrid;
use crate::step::chunk::CHUNK;

// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn block(
    dt: f32,
    settings: &WorldSettings,
    maxima: &ArchetypeMaxima,
    resistance: &[f32],
    contacts: &mut ContactLists,
    tick: u32,
    flags: &[u8],
    far: &[far_blocks::Status],
    turn_interval: u32,
    any_turn: bool,
    tier: &[u8],
    write_back: bool,
    next_pos: &mut [Vec3],
    grid: &mut SpatialGrid,
    spare: &mut Vec<Vec4>,
    scratch: &mut BlockingScratch,
) {
    // The grid's records hold the current positions but its cells are those of the last
    // rebuild: a neighbour may sit up to max_speed * dt from the cell it is filed in (the
    // query itself is centred on the agent's current position), plus small corrections
    // per pass. A pair missed by a pass is only corrected a step later; it is never lost.
    // A far block's turn moves its agents its turn's worth: an agent on a turn looks that much
    // farther, and the others as far as a turn of level 0 moves (when a block turns this step).
    // Farther out, where turns cover more steps, an agent stepping a shorter turn may so miss a
    // neighbour that stepped a longer one, until either turns again.
    let passes = 0.05 * settings.body_blocking_iterations as f32;
    let first_level = if any_turn { turn_interval as f32 * dt } else { dt };
    let mut slack = [maxima.max_speed * first_level + passes; far_blocks::TURN as usize + far_blocks::LEVELS];
    for (level, s) in slack[far_blocks::TURN as usize..].iter_mut().enumerate() {
        let steps = far_blocks::level_steps(level, turn_interval);
        *s = maxima.max_speed * dt * steps as f32 + passes;
    }
    body_blocking::resolve(
        next_pos,
        resistance,
        contacts,
        tick,
        flags,
        far,
        tier,
        grid,
        spare,
        scratch,
        settings.body_blocking_iterations,
        maxima.max_radius,
        &slack,
        write_back,
        CHUNK,
    );
}
