//! Stage 7, attacks (see `combat`): hit flashes fade; swings and contact damage after movement,
//! on the target an agent acts on or on an attackable closed cell it pressed (a blow on an
//! obstacle scaled by the archetype's obstacle damage scale). Reads positions,
//! targets, flags, awareness, archetypes, `pressed` and the flow field; writes the agents' attack
//! state and flash timers and this step's events.

use glam::Vec3;

use crate::agents::{Agents, FLAG_DORMANT, FLAG_PRESSING};
use crate::archetype::ArchetypeRuntime;
use crate::combat::{self, AttackEvent, CombatIn};
use crate::ids::IdTable;
use crate::step::chunk::CHUNK;
use crate::step::going::Going;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

/// Where an agent's blow on a closed cell lands: the cell's centre at the agent's height.
#[inline]
fn swarm_core_point(cell_center: Vec3, agent: Vec3) -> Vec3 {
    Vec3::new(cell_center.x, agent.y + 1.0, cell_center.z)
}

/// Swings and contact damage after movement; hits become this step's `events`.
// Out of line (called once a step), so profiles and `tools/instructions.sh` see the stage.
#[inline(never)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn attack(
    dt: f32,
    archetypes: &[ArchetypeRuntime],
    targets: &Targets,
    nav: Option<&SurfaceNav>,
    ids: &IdTable,
    pressed: &[u32],
    a: &mut Agents,
    event_scratch: &mut Vec<Vec<AttackEvent>>,
    events: &mut Vec<AttackEvent>,
) {
    events.clear();
    a.flash.iter_mut().for_each(|f| *f = (*f - dt).max(0.0));
    if !archetypes.iter().any(|a| a.config.attack.is_some()) {
        return;
    }
    let (target, arch, flags, aware) = (&a.target, &a.archetype, &a.flags, &a.aware);
    // A perceiving agent only strikes a target it sees; an agent in a formation order none.
    let seats = &a.seat;
    let knows = |i: usize| !seats[i].is_ordered() && archetypes[arch[i] as usize].acts_on_target(&aware[i]);
    let target_pos = |i: usize| targets.get(target[i]).filter(|_| knows(i)).map(|t| (target[i], t.position));
    // An agent pressing a closed cell that something there defends strikes that instead.
    let pos = &a.pos;
    let going = Going::new(archetypes, arch, target, flags, aware, pos, &a.seat);
    // An archetype with an obstacle damage scale of 0 only presses obstacles.
    let obstacle = |i: usize| {
        if !going.at(i) || archetypes[arch[i] as usize].config.obstacle_damage_scale <= 0.0 {
            return None;
        }
        let nav = nav?;
        let c = *pressed.get(i)?;
        let k = nav.attackable_box(c)?;
        let p = nav.grid.cell_center(c);
        Some((k, swarm_core_point(p, pos[i])))
    };
    let profile = |i: usize| archetypes[arch[i] as usize].config.attack.as_ref();
    let may_swing = |i: usize| {
        let f = flags[i];
        f & FLAG_DORMANT == 0 && (!archetypes[arch[i] as usize].config.behavior.use_pressure || f & FLAG_PRESSING != 0)
    };
    let input = CombatIn {
        pos: &a.pos,
        target_pos: &target_pos,
        obstacle: &obstacle,
        profile: &profile,
        may_swing: &may_swing,
    };
    combat::combat_pass(&input, &mut a.attack, dt, CHUNK, event_scratch, events);
    for e in events.iter_mut() {
        let i = e.agent as usize;
        e.agent_id = ids.id_of_slot(a.slot[i]);
        if e.obstacle.is_some() {
            e.damage *= archetypes[arch[i] as usize].config.obstacle_damage_scale;
        }
    }
}
