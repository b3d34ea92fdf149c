//! Perception (seeds 000 and 001): whether an agent knows where its target is, and what it does
//! when it does not. Only archetypes with a `PerceptionProfile` take part; every other agent
//! always knows its target, exactly as before perception existed.
//!
//! Per agent the state is one compact `Awareness` record (20 bytes) in the agent storage: what the
//! agent is doing about its target (`IDLE`, `CHASING` a target it sees, `SEARCHING` the spot where
//! it last saw one or was alerted to, `INVESTIGATING` a noise), the spot, the seconds since it
//! last saw / heard / was alerted, and the last physics-ray answer.
//!
//! Each step, after the Importance LOD pass and before steering, `World` runs:
//! 1. `sight::sight_pass` (parallel): distance and occlusion decide "seen"; memory transitions
//!    (`memory::remember`) follow: losing sight starts a search (or idles), searches and
//!    investigations expire after `forget_time`.
//! 2. `noise::apply_noises` (sequential, in emit order): queued noises reach search-enabled
//!    agents that see nothing and are not already investigating.
//! 3. `memory::alert_pass` (parallel, throttled): an agent that sees its target alerts nearby
//!    perceiving agents through the same occlusion gate.
//! 4. `sight::collect_ray_requests`: a bounded, round-robin list of physics rays for
//!    `PhysicsRay` agents, answered by the engine layer before the next step.
//!
//! Every write goes to the agent's own index and every choice breaks ties by index, so results
//! do not depend on the thread count.

pub mod memory;
pub mod noise;
pub mod sight;

use glam::Vec3;
use serde::{Deserialize, Serialize};

use crate::ids::AgentId;

/// No seen target, nothing to search: Idle Motion only.
pub const IDLE: u8 = 0;
/// Sees its target this step and chases it.
pub const CHASING: u8 = 1;
/// Walks to the spot where it last saw its target (or was told of it by an alert).
pub const SEARCHING: u8 = 2;
/// Walks to a noise it heard.
pub const INVESTIGATING: u8 = 3;

/// No physics-ray answer yet (reads as unseen).
pub const RAY_UNKNOWN: u8 = 0;
pub const RAY_CLEAR: u8 = 1;
pub const RAY_BLOCKED: u8 = 2;

/// One agent's perception state (20 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Awareness {
    /// Last seen target position, alerted position or heard noise (meaningful unless `IDLE`).
    pub spot: Vec3,
    /// Seconds since the agent last saw its target, heard its noise or was alerted.
    pub since: f32,
    /// `IDLE`, `CHASING`, `SEARCHING` or `INVESTIGATING`.
    pub mode: u8,
    /// Last physics-ray answer for its target (`RAY_*`).
    pub ray: u8,
}

impl Awareness {
    /// Whether the agent is walking somewhere because of what it perceived (not idle).
    #[inline]
    pub fn is_going(&self) -> bool {
        self.mode != IDLE
    }
}

/// A noise waiting for the next step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Noise {
    pub position: Vec3,
    pub radius: f32,
}

/// A sight ray the engine layer should cast: from the agent's eyes to its target. Answer with
/// `World::answer_sight_rays` (true = something blocks it) before the next step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SightRay {
    pub agent: AgentId,
    /// Target slot the ray looks at.
    pub target: u32,
    pub from: Vec3,
    pub to: Vec3,
}

/// Perceiving agents per state in the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PerceptionCounts {
    pub chasing: usize,
    pub searching: usize,
    pub investigating: usize,
    pub idle: usize,
}

/// Noises queued per step at most; more are dropped (and counted).
pub const MAX_NOISES_PER_STEP: usize = 256;
/// Sight rays handed out per step unless set otherwise.
pub const DEFAULT_RAY_BUDGET: usize = 64;

/// The world's perception bookkeeping (not per agent).
#[derive(Clone, Debug)]
pub struct PerceptionRuntime {
    pub noises: Vec<Noise>,
    pub dropped_noises: u64,
    pub requests: Vec<SightRay>,
    /// Next agent index the ray round-robin looks at.
    pub cursor: usize,
    pub ray_budget: usize,
    pub counts: PerceptionCounts,
}

impl Default for PerceptionRuntime {
    fn default() -> Self {
        Self {
            noises: Vec::new(),
            dropped_noises: 0,
            requests: Vec::new(),
            cursor: 0,
            ray_budget: DEFAULT_RAY_BUDGET,
            counts: PerceptionCounts::default(),
        }
    }
}

impl PerceptionRuntime {
    /// Queues a noise for the next step; false (and nothing queued) for a non-finite position,
    /// a negative or non-finite radius, or a full queue.
    pub fn push_noise(&mut self, position: Vec3, radius: f32) -> bool {
        if !position.is_finite() || !radius.is_finite() || radius < 0.0 {
            return false;
        }
        if self.noises.len() >= MAX_NOISES_PER_STEP {
            self.dropped_noises += 1;
            return false;
        }
        self.noises.push(Noise { position, radius });
        true
    }
}

/// Counts perceiving agents per state.
pub fn count(aware: &[Awareness], has_profile: impl Fn(usize) -> bool) -> PerceptionCounts {
    let mut c = PerceptionCounts::default();
    for (i, a) in aware.iter().enumerate() {
        if !has_profile(i) {
            continue;
        }
        match a.mode {
            CHASING => c.chasing += 1,
            SEARCHING => c.searching += 1,
            INVESTIGATING => c.investigating += 1,
            _ => c.idle += 1,
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn awareness_fits_the_byte_budget() {
        assert!(std::mem::size_of::<Awareness>() <= 20);
    }

    #[test]
    fn bad_noises_are_refused() {
        let mut r = PerceptionRuntime::default();
        assert!(!r.push_noise(Vec3::new(f32::NAN, 0.0, 0.0), 5.0));
        assert!(!r.push_noise(Vec3::ZERO, -1.0));
        assert!(!r.push_noise(Vec3::ZERO, f32::INFINITY));
        assert!(r.push_noise(Vec3::ZERO, 5.0));
        assert_eq!(r.noises.len(), 1);
    }
}
