//! The world as formats 2 and 3 saved it: the same as today's but for three columns each agent
//! kept, cached steering pulls (Personal Space's, Approach's steering and goal direction, Hold
//! Nearby's and Out-of-Sight's). Every pull is now recomputed on the step that blends it; of
//! them only Approach's goal direction is still kept (`Agents::goal`, which an agent holding its
//! steering faces). Read only: `save` decodes formats 2 and 3 into these and converts them.

use glam::{Vec2, Vec3};
use rand_pcg::Pcg32;
use serde::Deserialize;

use crate::agents::{AgentParams, Agents};
use crate::archetype::ArchetypeRuntime;
use crate::camera::Frustum;
use crate::combat::AttackState;
use crate::config::WorldSettings;
use crate::formation::seat::Seat;
use crate::formation::Formations;
use crate::ids::IdTable;
use crate::perception::awareness::{Awareness, PerceptionRuntime};
use crate::snorm::Snorm2;
use crate::state::SimState;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// `SimState` in formats 2 and 3 (field for field, in the same order: postcard's form is the
/// fields in order).
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
pub(crate) struct SimStateV3 {
    settings: WorldSettings,
    archetypes: Vec<ArchetypeRuntime>,
    ids: IdTable,
    agents: AgentsV3,
    targets: Targets,
    nav: Option<SurfaceNav>,
    camera: Option<Frustum>,
    perception: PerceptionRuntime,
    formations: Formations,
    rng: Pcg32,
    time: f64,
    ticks: u64,
    layout: u64,
    unsorted: usize,
    reordered_at: u64,
    grid_built_by_query: bool,
}

/// `Agents` in formats 2 and 3.
#[derive(Deserialize)]
#[cfg_attr(test, derive(serde::Serialize))]
struct AgentsV3 {
    pos: Vec<Vec3>,
    vel: Vec<Vec3>,
    facing: Vec<Vec2>,
    yaw_rate: Vec<f32>,
    steer: Vec<Vec2>,
    archetype: Vec<u16>,
    flags: Vec<u8>,
    target: Vec<u32>,
    retarget_timer: Vec<f32>,
    params: Vec<AgentParams>,
    health: Vec<f32>,
    slot: Vec<u32>,
    seed: Vec<u32>,
    tier: Vec<u8>,
    dormant_timer: Vec<f32>,
    // (Read past and dropped.)
    #[allow(dead_code)]
    ps_cache: Vec<Snorm2>,
    /// Approach's steering and goal direction.
    approach_cache: Vec<[Snorm2; 2]>,
    #[allow(dead_code)]
    group_cache: Vec<[Snorm2; 2]>,
    attack: Vec<AttackState>,
    flash: Vec<f32>,
    cell: Vec<u32>,
    aware: Vec<Awareness>,
    seat: Vec<Seat>,
}

/// Calls `$m!` with its other arguments and then the `Agents` columns formats 2 and 3 share with
/// today's.
macro_rules! shared_columns {
    ($m:ident, $($args:tt)*) => {
        $m!($($args)* [
            pos, vel, facing, yaw_rate, steer, archetype, flags, target, retarget_timer, params,
            health, slot, seed, tier, dormant_timer, attack, flash, cell, aware, seat
        ])
    };
}

/// Calls `$m!` with its other arguments and then the `SimState` fields besides the agents.
macro_rules! shared_fields {
    ($m:ident, $($args:tt)*) => {
        $m!($($args)* [
            settings, archetypes, ids, targets, nav, camera, perception, formations, rng, time,
            ticks, layout, unsorted, reordered_at, grid_built_by_query
        ])
    };
}

/// A `$ty` with the named fields moved from `$src`, and `$extra`.
macro_rules! moved {
    ($ty:ident, $src:ident, { $($extra:tt)* } [$($f:ident),*]) => {
        $ty { $($f: $src.$f,)* $($extra)* }
    };
}

impl From<SimStateV3> for SimState {
    fn from(s: SimStateV3) -> Self {
        let a = s.agents;
        // (Columns of another length than the others stay so: `SimState::validate` refuses them.)
        let goal = a.approach_cache.iter().map(|c| c[1]).collect();
        let agents = shared_columns!(moved, Agents, a, { goal });
        shared_fields!(moved, SimState, s, { agents })
    }
}

#[cfg(test)]
impl SimStateV3 {
    /// Drops the last agent's cached approach (a damaged save).
    pub(crate) fn truncate_goals(&mut self) {
        self.agents.approach_cache.pop();
    }
}

/// A format-3 state for `s`, as a build of that format would have saved it (the cached pulls
/// as zeros, the goal where it was kept): for the tests of reading old saves.
#[cfg(test)]
pub(crate) fn as_v3(s: &SimState) -> SimStateV3 {
    let s = s.clone();
    let a = s.agents;
    let n = a.pos.len();
    let (ps_cache, group_cache) = (vec![Snorm2::ZERO; n], vec![[Snorm2::ZERO; 2]; n]);
    let approach_cache = a.goal.iter().map(|&g| [Snorm2::ZERO, g]).collect();
    let agents = shared_columns!(moved, AgentsV3, a, { ps_cache, approach_cache, group_cache });
    shared_fields!(moved, SimStateV3, s, { agents })
}
