//! Structure-of-arrays agent storage, preallocated to capacity. Index `i` of every array is
//! one agent; despawn swap-removes so the arrays stay dense. Ids live in `ids.rs`.

use glam::{Vec2, Vec3};
use serde::{Deserialize, Serialize};

use crate::bounds::load::{MAX_COORD, MAX_HEALTH, MAX_RATE, MAX_SECONDS};
use crate::combat::AttackState;
use crate::formation::seat::Seat;
use crate::perception::awareness::Awareness;
use crate::snorm::Snorm2;
use crate::targets::NO_TARGET;

/// Runs `$body` with `$v` bound to each per-agent array in turn. The one list of the arrays:
/// every whole-agent operation (swap-remove, permute) goes through it.
macro_rules! each_array {
    ($s:expr, |$v:ident| $body:expr) => {{
        {
            let $v = &mut $s.pos;
            $body;
        }
        {
            let $v = &mut $s.vel;
            $body;
        }
        {
            let $v = &mut $s.facing;
            $body;
        }
        {
            let $v = &mut $s.yaw_rate;
            $body;
        }
        {
            let $v = &mut $s.steer;
            $body;
        }
        {
            let $v = &mut $s.archetype;
            $body;
        }
        {
            let $v = &mut $s.flags;
            $body;
        }
        {
            let $v = &mut $s.target;
            $body;
        }
        {
            let $v = &mut $s.retarget_timer;
            $body;
        }
        {
            let $v = &mut $s.params;
            $body;
        }
        {
            let $v = &mut $s.health;
            $body;
        }
        {
            let $v = &mut $s.slot;
            $body;
        }
        {
            let $v = &mut $s.seed;
            $body;
        }
        {
            let $v = &mut $s.tier;
            $body;
        }
        {
            let $v = &mut $s.dormant_timer;
            $body;
        }
        {
            let $v = &mut $s.goal;
            $body;
        }
        {
            let $v = &mut $s.attack;
            $body;
        }
        {
            let $v = &mut $s.flash;
            $body;
        }
        {
            let $v = &mut $s.cell;
            $body;
        }
        {
            let $v = &mut $s.aware;
            $body;
        }
        {
            let $v = &mut $s.seat;
            $body;
        }
    }};
}

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
    /// Facing blend weights (FaceGoalWithVelocityBlend).
    pub goal_facing_weight: f32,
    pub velocity_facing_weight: f32,
}

/// Agent is pinned to its target by `set_agent_target` and never retargets on its own.
pub const FLAG_PINNED: u8 = 1;
/// Agent is dormant: no steering until a target comes near (or it is woken).
pub const FLAG_DORMANT: u8 = 2;
/// Agent is one of the few pressing its target this step (Close-Range Pressure).
pub const FLAG_PRESSING: u8 = 4;
/// Agent is backing off its target (Retreat).
pub const FLAG_RETREATING: u8 = 8;
/// Agent is a Cheap agent between its Importance LOD updates this step: it keeps its steering
/// and facing, and body blocking leaves it to its neighbours until its next update.
pub const FLAG_COASTING: u8 = 16;
/// Personal Space's scan this step found nobody within reach of any contact the step's movement
/// could make (see `StepCtx::isolation_reach`; its window covers that reach): body blocking's
/// first pass skips the agent (nobody can overlap it, so nobody is moved by it either).
pub const FLAG_ISOLATED: u8 = 32;
/// Both bits: a dormant agent at rest this step (`StepCtx::begin`): it did not move and body
/// blocking left it where it stood.
pub const FLAGS_RESTING: u8 = FLAG_DORMANT | FLAG_COASTING;
/// Agent has reached its formation slot and holds it: body blocking lets the members still
/// walking push it aside (it eases back).
pub const FLAG_HOLDING: u8 = 64;
/// Agent of a far block that took its turn (`far_blocks`): it moved the whole interval's worth
/// and waits, untouched, until its block's next turn (or until the block is no longer far).
pub const FLAG_WAITING: u8 = 128;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Agents {
    pub pos: Vec<Vec3>,
    pub vel: Vec<Vec3>,
    /// Unit facing direction on the ground plane, `(x, z)`.
    pub facing: Vec<Vec2>,
    /// Signed turn rate, radians per second.
    pub yaw_rate: Vec<f32>,
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
    /// The goal direction of the agent's last approach, which it faces while it holds its
    /// steering between Importance LOD updates. (No pull is kept otherwise: each is recomputed
    /// on the step that blends it.)
    pub goal: Vec<Snorm2>,
    /// Swing phase and timers.
    pub attack: Vec<AttackState>,
    /// Seconds of hit flash left (visuals read it).
    pub flash: Vec<f32>,
    /// Surface flow field cell the agent stands in (`flow_field::NONE` without a field).
    pub cell: Vec<u32>,
    /// Perception state (only read for archetypes with a perception profile).
    pub aware: Vec<Awareness>,
    /// Place in a formation order (checked against the orders by `Formations::validate_seats`).
    pub seat: Vec<Seat>,
}

/// What a new agent starts with.
pub struct NewAgent {
    pub pos: Vec3,
    pub facing: Vec2,
    pub archetype: u16,
    pub params: AgentParams,
    pub health: f32,
    pub slot: u32,
    pub seed: u32,
    pub retarget_timer: f32,
    pub cell: u32,
}

impl Agents {
    pub fn with_capacity(cap: usize) -> Self {
        Self {
            pos: Vec::with_capacity(cap),
            vel: Vec::with_capacity(cap),
            facing: Vec::with_capacity(cap),
            yaw_rate: Vec::with_capacity(cap),
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
            goal: Vec::with_capacity(cap),
            attack: Vec::with_capacity(cap),
            flash: Vec::with_capacity(cap),
            cell: Vec::with_capacity(cap),
            aware: Vec::with_capacity(cap),
            seat: Vec::with_capacity(cap),
        }
    }

    /// The agent count (read from `slot`: the world lends `pos` and `params` out for a moment
    /// while it classifies and rebuilds its grid side by side).
    pub fn len(&self) -> usize {
        self.slot.len()
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
        self.goal.push(Snorm2::ZERO);
        self.attack.push(AttackState::default());
        self.flash.push(0.0);
        self.cell.push(a.cell);
        self.aware.push(Awareness::default());
        self.seat.push(Seat::default());
        self.len() - 1
    }

    /// Removes index `i` by moving the last agent into it. Returns the slot of the moved agent,
    /// if one moved.
    pub fn swap_remove(&mut self, i: usize) -> Option<u32> {
        let last = self.len() - 1;
        each_array!(self, |v| v.swap_remove(i));
        (i != last).then(|| self.slot[i])
    }

    /// Reorders storage so that new index `k` holds the agent that was at `order[k]` (`order` is a
    /// permutation). In place: the permutation's cycles are listed once (`cycles`, reusable
    /// scratch), then each array follows the list on its own, the arrays in parallel. The list
    /// makes every move's source and destination known ahead (not one load after another along
    /// `order`), and array by array each pass stays in one array's memory: swapping whole agents
    /// along `order` took about 250 ns an agent (a 25 ms hitch at 100,000 agents).
    pub fn permute(&mut self, order: &[u32], cycles: &mut Cycles) {
        debug_assert_eq!(order.len(), self.len());
        cycles.list(order);
        let (seq, ends) = (&cycles.seq[..], &cycles.ends[..]);
        rayon::scope(|s| each_array!(self, |v| s.spawn(move |_| follow_cycles(v, seq, ends))));
    }
}

/// The cycles of a permutation, listed for `Agents::permute` (reusable scratch).
#[derive(Default)]
pub struct Cycles {
    visited: Vec<bool>,
    /// Every cycle longer than one, one after another: `k, order[k], order[order[k]], ...`.
    seq: Vec<u32>,
    /// Where each cycle ends in `seq`.
    ends: Vec<u32>,
}

impl Cycles {
    /// Room for listing the permutations of up to `n` agents (the cycle ends, a few hundred in
    /// a reorder, grow on first use).
    pub fn with_capacity(n: usize) -> Self {
        Self { visited: Vec::with_capacity(n), seq: Vec::with_capacity(n), ends: Vec::new() }
    }

    pub fn heap_bytes(&self) -> usize {
        self.visited.capacity() + (self.seq.capacity() + self.ends.capacity()) * 4
    }

    fn list(&mut self, order: &[u32]) {
        let n = order.len();
        self.visited.clear();
        self.visited.resize(n, false);
        self.seq.clear();
        self.ends.clear();
        for k in 0..n {
            if self.visited[k] || order[k] as usize == k {
                continue;
            }
            let mut j = k;
            while !self.visited[j] {
                self.visited[j] = true;
                self.seq.push(j as u32);
                j = order[j] as usize;
            }
            self.ends.push(self.seq.len() as u32);
        }
    }
}

/// Applies a permutation to one array from its listed cycles (see `Agents::permute`): along a
/// cycle `c0, c1, ...` each place takes the next one's value and the last takes `c0`'s.
fn follow_cycles<T: Copy>(v: &mut [T], seq: &[u32], ends: &[u32]) {
    let mut start = 0;
    for &end in ends {
        let c = &seq[start..end as usize];
        let first = v[c[0] as usize];
        for w in c.windows(2) {
            v[w[0] as usize] = v[w[1] as usize];
        }
        v[c[c.len() - 1] as usize] = first;
        start = end as usize;
    }
}

/// Finite and at most `limit` in magnitude.
fn in_limit(v: f32, limit: f32) -> bool {
    v.is_finite() && v.abs() <= limit
}

/// Finite and no longer than 1 (with rounding room).
fn unit_disk(v: Vec2) -> bool {
    v.is_finite() && v.length_squared() <= 1.0001
}

/// What a loaded agent column may refer to.
pub(crate) struct Refs {
    pub archetypes: usize,
    pub target_slots: usize,
    /// Cells of the surface flow field (0 without one: every agent's cell is then `NONE`).
    pub cells: usize,
}

impl Agents {
    /// Checks loaded storage: every column the same length, every number finite, every index
    /// it holds (archetype, target slot, cell, tier, modes) in range. Names the first bad field
    /// and agent index.
    pub(crate) fn validate(&self, refs: &Refs) -> Result<(), String> {
        let n = self.slot.len();
        let lens = [
            self.pos.len(),
            self.vel.len(),
            self.facing.len(),
            self.yaw_rate.len(),
            self.steer.len(),
            self.archetype.len(),
            self.flags.len(),
            self.target.len(),
            self.retarget_timer.len(),
            self.params.len(),
            self.health.len(),
            self.seed.len(),
            self.tier.len(),
            self.dormant_timer.len(),
            self.goal.len(),
            self.attack.len(),
            self.flash.len(),
            self.cell.len(),
            self.aware.len(),
            self.seat.len(),
        ];
        if lens.iter().any(|&l| l != n) {
            return Err(format!("agent columns differ in length ({n} slots, lengths {lens:?})"));
        }
        let bad = |i: usize, field: &str| Err(format!("agent index {i}: {field} out of range or not a number"));
        for i in 0..n {
            let p = &self.params[i];
            let params = [
                p.max_speed,
                p.max_acceleration,
                p.braking_acceleration,
                p.steering_response,
                p.max_turn_speed,
                p.max_turn_acceleration,
                p.radius,
                p.push_resistance,
            ];
            let (a, w) = (&self.attack[i], &self.aware[i]);
            let (pos, vel) = (self.pos[i], self.vel[i]);
            let checks: [(bool, &str); 14] = [
                (in_limit(pos.x, MAX_COORD) && in_limit(pos.y, MAX_COORD) && in_limit(pos.z, MAX_COORD), "position"),
                (vel.is_finite() && vel.length_squared() <= MAX_RATE * MAX_RATE, "velocity"),
                (unit_disk(self.facing[i]) && unit_disk(self.steer[i]), "facing or steering"),
                (in_limit(self.yaw_rate[i], MAX_RATE), "turn rate"),
                ((self.archetype[i] as usize) < refs.archetypes, "archetype"),
                (self.target[i] == NO_TARGET || (self.target[i] as usize) < refs.target_slots, "target"),
                (
                    in_limit(self.retarget_timer[i], MAX_SECONDS) && in_limit(self.dormant_timer[i], MAX_SECONDS),
                    "timers",
                ),
                (params.iter().all(|&v| in_limit(v, MAX_RATE) && v >= 0.0), "movement parameters"),
                (in_limit(self.health[i], MAX_HEALTH), "health"),
                (self.tier[i] <= crate::lod::CHEAP, "LOD tier"),
                (in_limit(self.flash[i], MAX_SECONDS), "hit flash"),
                (self.cell[i] == u32::MAX || (self.cell[i] as usize) < refs.cells, "cell"),
                (in_limit(a.timer, MAX_SECONDS) && in_limit(a.contact, MAX_SECONDS) && a.phase <= 3, "attack state"),
                (
                    w.spot.abs().max_element() <= MAX_COORD
                        && in_limit(w.since, MAX_SECONDS)
                        && w.mode <= 3
                        && w.ray <= 2,
                    "perception memory",
                ),
            ];
            if let Some((_, field)) = checks.iter().find(|c| !c.0) {
                return bad(i, field);
            }
        }
        Ok(())
    }

    /// Capacity for `cap` agents without reallocating (a loaded column holds only its length).
    pub(crate) fn reserve_to(&mut self, cap: usize) {
        each_array!(self, |v| v.reserve(cap.saturating_sub(v.len())));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn agent(x: f32, slot: u32) -> NewAgent {
        NewAgent {
            pos: Vec3::new(x, 0.0, 0.0),
            facing: Vec2::Y,
            archetype: 0,
            params: AgentParams::default(),
            health: x,
            slot,
            seed: slot,
            retarget_timer: 0.0,
            cell: u32::MAX,
        }
    }

    /// A permutation of up to 300 agents.
    fn permutation() -> impl Strategy<Value = Vec<u32>> {
        (0usize..300).prop_flat_map(|n| Just((0..n as u32).collect::<Vec<_>>()).prop_shuffle())
    }

    proptest! {
        /// Any permutation, in any pool: every array ends as a gather of the old one by `order`,
        /// and the scratch serves the next permutation as well.
        #[test]
        fn permute_is_a_gather_by_order(
            order in permutation(),
            then in permutation(),
            threads in 1usize..4,
        ) {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            let mut cycles = Cycles::default();
            for order in [&order, &then] {
                let mut a = Agents::with_capacity(order.len());
                for k in 0..order.len() {
                    a.push(agent(k as f32, k as u32));
                    a.steer[k] = Vec2::new(0.0, k as f32);
                    a.seat[k].order = k as u32;
                    a.aware[k].since = k as f32;
                }
                let old = a.clone();
                pool.install(|| a.permute(order, &mut cycles));
                for (k, &o) in order.iter().enumerate() {
                    let o = o as usize;
                    prop_assert_eq!(a.pos[k], old.pos[o]);
                    prop_assert_eq!(a.slot[k], old.slot[o]);
                    prop_assert_eq!(a.health[k], old.health[o]);
                    prop_assert_eq!(a.steer[k], old.steer[o]);
                    prop_assert_eq!(a.seat[k], old.seat[o]);
                    prop_assert_eq!(a.aware[k], old.aware[o]);
                }
            }
        }
    }

    #[test]
    fn permute_moves_every_array_together() {
        let mut a = Agents::with_capacity(5);
        for k in 0..5 {
            a.push(agent(k as f32, k));
        }
        let order = [3u32, 0, 4, 1, 2];
        a.permute(&order, &mut Cycles::default());
        for (k, &o) in order.iter().enumerate() {
            assert_eq!(a.pos[k].x, o as f32);
            assert_eq!(a.health[k], o as f32);
            assert_eq!(a.slot[k], o);
        }
    }
}
