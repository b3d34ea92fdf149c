//! What the last step reports: per-step counts and phase timings (benchmarks read them).

use crate::lod::TierCounts;
use crate::perception::awareness::PerceptionCounts;

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    pub step_ms: f32,
    pub ticks: u64,
    pub active_targets: usize,
    /// Agents per Importance LOD tier in the last step, and dormant agents (counted in Cheap).
    pub tiers: TierCounts,
    /// Agents of far blocks (`far_blocks`) that took their turn in the last step, and that waited.
    pub far_turn: usize,
    pub far_waiting: usize,
    /// Agents with a perception profile per state in the last step.
    pub perception: PerceptionCounts,
    /// Wall-clock milliseconds of each phase of the last step (for benchmarks and profiling).
    pub phases: PhaseTimes,
}

/// Milliseconds spent in each phase of one step.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct PhaseTimes {
    /// Grid maintenance, dormancy, the LOD ladder and perception (target selection and flow-field updates
    /// run before and count only in `step_ms`).
    pub classify: f32,
    /// The per-agent step (target choice, behaviours, movement).
    pub steer: f32,
    pub body_blocking: f32,
    /// Surface settle, velocity, pressing counts and the grid rebuild.
    pub settle: f32,
    pub attack: f32,
}
