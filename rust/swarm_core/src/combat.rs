//! Attacks (an archetype's attack profile): a swing with windup, one damage tick, recovery and
//! cooldown, and contact damage per second with pushback. The pass runs after movement, per agent
//! in parallel (each agent only advances its own attack state), and reports hits as events in
//! agent order, so results do not depend on the thread count. Agents with Close-Range Pressure
//! only swing while they are pressing.

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::sanitize::finite_clamp;

/// How an archetype attacks. Optional on the archetype.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttackProfile {
    pub swing_enabled: bool,
    /// A swing starts when the target is within this distance (from the agent's centre).
    pub swing_reach: f32,
    pub swing_damage: f32,
    /// Seconds from the start of the swing to the damage tick.
    pub swing_windup: f32,
    /// Seconds after the tick before the cooldown starts.
    pub swing_recovery: f32,
    /// Seconds after recovery before the next swing may start.
    pub swing_cooldown: f32,
    pub contact_enabled: bool,
    pub contact_damage_per_second: f32,
    /// Distance the target is pushed per second of contact (reported to the game, which moves it).
    pub contact_pushback: f32,
}

impl Default for AttackProfile {
    fn default() -> Self {
        Self {
            swing_enabled: true,
            swing_reach: 1.8,
            swing_damage: 10.0,
            swing_windup: 0.35,
            swing_recovery: 0.3,
            swing_cooldown: 0.8,
            contact_enabled: false,
            contact_damage_per_second: 5.0,
            contact_pushback: 0.5,
        }
    }
}

impl AttackProfile {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.swing_reach = finite_clamp(self.swing_reach, 0.0, 1000.0, d.swing_reach);
        self.swing_damage = finite_clamp(self.swing_damage, 0.0, 1e9, d.swing_damage);
        self.swing_windup = finite_clamp(self.swing_windup, 0.0, 60.0, d.swing_windup);
        self.swing_recovery = finite_clamp(self.swing_recovery, 0.0, 60.0, d.swing_recovery);
        self.swing_cooldown = finite_clamp(self.swing_cooldown, 0.0, 600.0, d.swing_cooldown);
        self.contact_damage_per_second =
            finite_clamp(self.contact_damage_per_second, 0.0, 1e9, d.contact_damage_per_second);
        self.contact_pushback = finite_clamp(self.contact_pushback, 0.0, 1000.0, d.contact_pushback);
        self
    }
}

/// `AttackEvent::target` of a blow on an obstacle.
pub const NO_TARGET_SLOT: u32 = u32::MAX;

/// Phases of a swing.
pub const READY: u8 = 0;
pub const WINDUP: u8 = 1;
pub const RECOVERY: u8 = 2;
pub const COOLDOWN: u8 = 3;

/// Timers count as run out within this margin (float steps do not sum exactly).
const EPS: f32 = 1e-4;

/// Contact damage is reported in ticks of this many seconds (not every step).
pub const CONTACT_TICK: f32 = 0.25;

/// Per-agent attack state (structure of arrays, owned by `Agents`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct AttackState {
    pub phase: u8,
    pub timer: f32,
    /// Contact seconds not yet reported.
    pub contact: f32,
}

/// One hit on a target.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AttackEvent {
    /// Dense index of the attacking agent at the time of the step.
    pub agent: u32,
    /// Id of the attacking agent.
    pub agent_id: crate::ids::AgentId,
    pub target: u32,
    pub damage: f32,
    /// Where the hit lands: the target's position.
    pub point: Vec3,
    /// Unit direction from the agent to the target.
    pub direction: Vec3,
    /// Push on the target, in metres (contact pushback; 0 for swings).
    pub pushback: f32,
    /// The blow landed on an obstacle (this modifier box index) instead of the target.
    pub obstacle: Option<u32>,
}

/// What the pass needs of one agent.
pub struct CombatIn<'a> {
    pub pos: &'a [Vec3],
    pub target_pos: &'a (dyn Fn(usize) -> Option<(u32, Vec3)> + Sync),
    /// The attackable obstacle (modifier box) the agent presses against, and where a blow lands.
    pub obstacle: &'a (dyn Fn(usize) -> Option<(u32, Vec3)> + Sync),
    pub profile: &'a (dyn Fn(usize) -> Option<&'a AttackProfile> + Sync),
    /// Whether the agent may swing now (pressing, when it uses Close-Range Pressure; awake).
    pub may_swing: &'a (dyn Fn(usize) -> bool + Sync),
}

/// Advances every agent's attack state by `dt` and appends hits to `events` in agent order.
/// `scratch` holds per-chunk event lists and is reused between steps.
pub fn combat_pass(
    input: &CombatIn,
    state: &mut [AttackState],
    dt: f32,
    chunk: usize,
    scratch: &mut Vec<Vec<AttackEvent>>,
    events: &mut Vec<AttackEvent>,
) {
    let chunks = state.len().div_ceil(chunk);
    scratch.resize_with(chunks, Vec::new);
    state.par_chunks_mut(chunk).zip(scratch.par_iter_mut()).enumerate().for_each(|(ci, (st, out))| {
        out.clear();
        for (k, s) in st.iter_mut().enumerate() {
            let i = ci * chunk + k;
            advance(input, i, s, dt, out);
        }
    });
    for out in scratch.iter() {
        events.extend_from_slice(out);
    }
}

#[inline]
fn advance(input: &CombatIn, i: usize, s: &mut AttackState, dt: f32, out: &mut Vec<AttackEvent>) {
    let Some(profile) = (input.profile)(i) else { return };
    let p = input.pos[i];
    let target = (input.target_pos)(i);
    let reach = |r: f32| target.filter(|&(_, tp)| Vec2::new(tp.x - p.x, tp.z - p.z).length() <= r);
    let event = |t: u32, tp: Vec3, damage: f32, pushback: f32| {
        let d = Vec3::new(tp.x - p.x, 0.0, tp.z - p.z).normalize_or_zero();
        AttackEvent {
            agent: i as u32,
            agent_id: Default::default(),
            target: t,
            damage,
            point: tp,
            direction: d,
            pushback,
            obstacle: None,
        }
    };
    if profile.swing_enabled {
        s.timer -= dt;
        match s.phase {
            READY
                if ((input.may_swing)(i) && reach(profile.swing_reach).is_some()) || (input.obstacle)(i).is_some() =>
            {
                s.phase = WINDUP;
                s.timer = profile.swing_windup;
            }
            WINDUP if s.timer <= EPS => {
                // The tick lands only if the target is still in reach, else on the obstacle the
                // agent still presses.
                if let Some((t, tp)) = reach(profile.swing_reach) {
                    out.push(event(t, tp, profile.swing_damage, 0.0));
                } else if let Some((k, at)) = (input.obstacle)(i) {
                    let mut e = event(NO_TARGET_SLOT, at, profile.swing_damage, 0.0);
                    e.obstacle = Some(k);
                    out.push(e);
                }
                s.phase = RECOVERY;
                s.timer = profile.swing_recovery;
            }
            RECOVERY if s.timer <= EPS => {
                s.phase = COOLDOWN;
                s.timer = profile.swing_cooldown;
            }
            COOLDOWN if s.timer <= EPS => {
                s.phase = READY;
                s.timer = 0.0;
            }
            _ => {}
        }
    }
    if profile.contact_enabled {
        match reach(profile.swing_reach) {
            Some((t, tp)) => {
                s.contact += dt;
                if s.contact >= CONTACT_TICK - EPS {
                    let secs = s.contact;
                    s.contact = 0.0;
                    out.push(event(t, tp, profile.contact_damage_per_second * secs, profile.contact_pushback * secs));
                }
            }
            None => s.contact = 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(profile: &AttackProfile, dist: f32, may: bool, steps: usize) -> Vec<(usize, AttackEvent)> {
        let pos = [Vec3::ZERO];
        let tp = Vec3::new(dist, 0.0, 0.0);
        let target = |_: usize| Some((7u32, tp));
        let prof = |_: usize| Some(profile);
        let may_swing = |_: usize| may;
        let none = |_: usize| None;
        let input = CombatIn { pos: &pos, target_pos: &target, obstacle: &none, profile: &prof, may_swing: &may_swing };
        let mut st = [AttackState::default()];
        let mut scratch = Vec::new();
        let mut all = Vec::new();
        for s in 0..steps {
            let mut ev = Vec::new();
            combat_pass(&input, &mut st, 0.05, 64, &mut scratch, &mut ev);
            all.extend(ev.into_iter().map(|e| (s, e)));
        }
        all
    }

    #[test]
    fn a_swing_lands_after_the_windup_and_repeats_after_recovery_and_cooldown() {
        let p = AttackProfile { swing_windup: 0.2, swing_recovery: 0.1, swing_cooldown: 0.5, ..Default::default() };
        let hits = run(&p, 1.0, true, 60);
        let steps: Vec<usize> = hits.iter().map(|h| h.0).collect();
        // Start at step 0, tick 0.2 s later (4 steps), then 0.1 + 0.5 s and a new windup.
        assert_eq!(steps[0], 4);
        assert!(steps.len() >= 3);
        let period = steps[1] - steps[0];
        assert!((16..=18).contains(&period), "period {period}");
        assert_eq!(hits[0].1.damage, p.swing_damage);
        assert_eq!(hits[0].1.target, 7);
        assert!((hits[0].1.direction.x - 1.0).abs() < 1e-6);
    }

    #[test]
    fn no_swing_out_of_reach_or_while_waiting_a_turn() {
        let p = AttackProfile::default();
        assert!(run(&p, 5.0, true, 60).is_empty());
        assert!(run(&p, 1.0, false, 60).is_empty());
    }

    #[test]
    fn contact_damage_is_per_second_in_ticks_with_pushback() {
        let p = AttackProfile {
            swing_enabled: false,
            contact_enabled: true,
            contact_damage_per_second: 8.0,
            ..Default::default()
        };
        let hits = run(&p, 1.0, true, 40); // 2 s
        let total: f32 = hits.iter().map(|h| h.1.damage).sum();
        assert!((total - 16.0).abs() < 0.5, "total {total}");
        assert!(hits.len() >= 7 && hits.len() <= 8);
        assert!(hits.iter().all(|h| h.1.pushback > 0.0));
    }
}
