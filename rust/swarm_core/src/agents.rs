//! Structure-of-arrays agent storage, preallocated to capacity. Index `i` of every array is
//! one agent; despawn swap-removes so the arrays stay dense. Ids live in `ids.rs`.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::combat::AttackState;
use crate::targets::NO_TARGET;

/// Per-agent movement parameters sampled from the archetype's ranges at spawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AgentParams {
    pub max_speed: f32,
    pub max_acceleration: f32,
    pub braking_acceleration: f32,
    pub steering_response: f32,
    /// Radians per second.
    pub max_turn_speed: f32,
    /// Radians per second squared.
    pub max_turn_acceleration: f32,
    pub radius: f32,
    pub push_resistance: f32,
}

/// Agent is pinned to its target by `set_agent_target` and never retargets on its own.
pub const FLAG_PINNED: u8 = 1;
/// Agent is dormant: no steering until a target comes near (or it is woken).
pub const FLAG_DORMANT: u8 = 2;
/// Agent is one of the few pressing its target this step (Close-Range Pressure).
pub const FLAG_PRESSING: u8 = 4;
/// Agent is backing off its target (Retreat).
pub const FLAG_RETREATING: u8 = 8;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Agents {
    pub pos: Vec<Vec3>,
    pub vel: Vec<Vec3>,
    /// Unit facing direction on the ground plane, `(x, z)`.
    pub facing: Vec<Vec2>,
    /// Signed turn rate, radians per second.
    pub yaw_rate: Vec<f32>,
    /// Unit direction of the agent's fixed slot around its target (from its seed).
    pub slot_dir: Vec<Vec2>,
    /// Smoothed steering on the ground plane (unit disk).
    pub steer: Vec<Vec2>,
    pub archetype: Vec<u16>,
    pub flags: Vec<u8>,
    /// Target slot or `NO_TARGET`.
    pub target: Vec<u32>,
    pub retarget_timer: Vec<f32>,
    pub params: Vec<AgentParams>,
    pub health: Vec<f32>,
    /// Id slot of the agent at this index.
    pub slot: Vec<u32>,
    /// Per-agent hash seed (slot angle, wander).
    pub seed: Vec<u32>,
    /// Importance LOD tier of the last step (`lod::FULL`, `REDUCED`, `CHEAP`).
    pub tier: Vec<u8>,
    /// Seconds spent far from the target and off camera (dormancy countdown).
    pub dormant_timer: Vec<f32>,
    /// Cached Personal Space result, reused between throttled updates.
    pub ps_cache: Vec<Vec2>,
    /// Cached approach steering and goal direction, reused between throttled updates.
    pub approach_cache: Vec<[Vec2; 2]>,
    /// Cached Hold Nearby and Out-of-Sight pulls.
    pub group_cache: Vec<[Vec2; 2]>,
    /// Swing phase and timers.
    pub attack: Vec<AttackState>,
    /// Seconds of hit flash left (visuals read it).
    pub flash: Vec<f32>,
}

/// What a new agent starts with.
pub struct NewAgent {
    pub pos: Vec3,
    pub facing: Vec2,
    pub slot_dir: Vec2,
    pub archetype: u16,
    pub params: AgentParams,
    pub health: f32,
    pub slot: u32,
    pub seed: u32,
    pub retarget_timer: f32,
}

impl Agents {
    pub fn with_capacity(cap: usize) -> Self {
        Self {
            pos: Vec::with_capacity(cap),
            vel: Vec::with_capacity(cap),
            facing: Vec::with_capacity(cap),
            yaw_rate: Vec::with_capacity(cap),
            slot_dir: Vec::with_capacity(cap),
            steer: Vec::with_capacity(cap),
            archetype: Vec::with_capacity(cap),
            flags: Vec::with_capacity(cap),
            target: Vec::with_capacity(cap),
            retarget_timer: Vec::with_capacity(cap),
            params: Vec::with_capacity(cap),
            health: Vec::with_capacity(cap),
            slot: Vec::with_capacity(cap),
            seed: Vec::with_capacity(cap),
            tier: Vec::with_capacity(cap),
            dormant_timer: Vec::with_capacity(cap),
            ps_cache: Vec::with_capacity(cap),
            approach_cache: Vec::with_capacity(cap),
            group_cache: Vec::with_capacity(cap),
            attack: Vec::with_capacity(cap),
            flash: Vec::with_capacity(cap),
        }
    }

    pub fn len(&self) -> usize {
        self.pos.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pos.is_empty()
    }

    /// Appends an agent; returns its dense index.
    pub fn push(&mut self, a: NewAgent) -> usize {
        self.pos.push(a.pos);
        self.vel.push(Vec3::ZERO);
        self.facing.push(a.facing);
        self.yaw_rate.push(0.0);
        self.slot_dir.push(a.slot_dir);
        self.steer.push(Vec2::ZERO);
        self.archetype.push(a.archetype);
        self.flags.push(0);
        self.target.push(NO_TARGET);
        self.retarget_timer.push(a.retarget_timer);
        self.params.push(a.params);
        self.health.push(a.health);
        self.slot.push(a.slot);
        self.seed.push(a.seed);
        self.tier.push(crate::lod::FULL);
        self.dormant_timer.push(0.0);
        self.ps_cache.push(Vec2::ZERO);
        self.approach_cache.push([Vec2::ZERO; 2]);
        self.group_cache.push([Vec2::ZERO; 2]);
        self.attack.push(AttackState::default());
        self.flash.push(0.0);
        self.len() - 1
    }

    /// Removes index `i` by moving the last agent into it. Returns the slot of the moved agent,
    /// if one moved.
    pub fn swap_remove(&mut self, i: usize) -> Option<u32> {
        let last = self.len() - 1;
        self.pos.swap_remove(i);
        self.vel.swap_remove(i);
        self.facing.swap_remove(i);
        self.yaw_rate.swap_remove(i);
        self.slot_dir.swap_remove(i);
        self.steer.swap_remove(i);
        self.archetype.swap_remove(i);
        self.flags.swap_remove(i);
        self.target.swap_remove(i);
        self.retarget_timer.swap_remove(i);
        self.params.swap_remove(i);
        self.health.swap_remove(i);
        self.slot.swap_remove(i);
        self.seed.swap_remove(i);
        self.tier.swap_remove(i);
        self.dormant_timer.swap_remove(i);
        self.ps_cache.swap_remove(i);
        self.approach_cache.swap_remove(i);
        self.group_cache.swap_remove(i);
        self.attack.swap_remove(i);
        self.flash.swap_remove(i);
        (i != last).then(|| self.slot[i])
    }
}
