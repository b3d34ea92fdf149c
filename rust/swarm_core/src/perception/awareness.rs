//! The perception types every perception module shares: the per-agent `Awareness` record and its
//! modes, ray answers, queued noises, sight-ray requests, the world's `PerceptionRuntime`
//! bookkeeping and the per-state counts. A leaf of `perception` (it uses none of its siblings).

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
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Noise {
    pub position: Vec3,
    pub radius: f32,
}

/// A sight ray the engine layer should cast: from the agent's eyes to its target. Answer with
/// `World::answer_sight_rays` (true = something blocks it) before the next step.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SightRay {
    pub agent: AgentId,
    /// Target slot the ray looks at.
    pub target: u32,
    pub from: Vec3,
    pub to: Vec3,
}

/// Perceiving agents per state in the last step.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
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
        let far = crate::bounds::load::MAX_COORD;
        if !crate::bounds::load::usable_position(position) || !(0.0..=far).contains(&radius) {
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
