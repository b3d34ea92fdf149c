//! `SwarmSettings`: global parameters of one manager's world.

use godot::prelude::*;
use swarm_core::WorldSettings;

use crate::convert::{resource_name, Checker};

/// Global parameters of a swarm: capacity, body blocking, target choice and threads. One per
/// [SwarmManager]; every agent of that manager uses it. Leave it empty on the manager to use
/// the defaults.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmSettings {
    /// Most agents alive at once. Storage is allocated for this many when the world starts;
    /// [method SwarmManager.spawn_agent] returns -1 past it.
    #[export(range = (1.0, 1000000.0, 1.0, or_greater))]
    #[init(val = 20000)]
    max_agents: i64,

    /// Agents do not walk through each other; the lighter of two (see
    /// [member SwarmAgentArchetype.push_resistance]) yields more.
    #[export_group(name = "Body Blocking")]
    #[export]
    #[init(val = true)]
    body_blocking: bool,
    /// Overlap-resolving passes per step. More passes hold dense crowds apart better and cost more.
    #[export(range = (1.0, 8.0, 1.0))]
    #[init(val = 2)]
    body_blocking_iterations: i64,

    /// Seconds between an agent's checks for a better target (jittered per agent by +-50%).
    #[export_group(name = "Targets")]
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.5)]
    retarget_interval: f32,
    /// A new target must be this fraction closer than the current one before an agent switches,
    /// so agents between two equal targets do not thrash.
    #[export(range = (0.0, 0.9, 0.01))]
    #[init(val = 0.15)]
    retarget_hysteresis: f32,
    /// An already active target's distance is scaled by this when the manager reselects its
    /// active targets (0.8 = a 20% bonus), so the active set does not churn.
    #[export(range = (0.1, 1.0, 0.01))]
    #[init(val = 0.8)]
    target_stickiness: f32,

    /// Threads used by the simulation step. 0 uses every core. Results are identical whatever
    /// the count.
    #[export_group(name = "Performance")]
    #[export(range = (0.0, 64.0, 1.0))]
    #[init(val = 0)]
    worker_threads: i64,

    base: Base<Resource>,
}

impl SwarmSettings {
    /// The core settings and the problems found (each names this resource and the field).
    pub fn to_core(
        &self,
        seed: u64,
        max_active_targets: i64,
        ground: f32,
        owner: &str,
    ) -> (WorldSettings, Vec<String>) {
        let d = WorldSettings::default();
        let mut c = Checker::new(format!("{owner}: {}", resource_name(&self.base().clone().upcast(), "SwarmSettings")));
        let s = WorldSettings {
            max_agents: c.i("max_agents", self.max_agents, 1, 4_000_000) as usize,
            body_blocking: self.body_blocking,
            body_blocking_iterations: c.i("body_blocking_iterations", self.body_blocking_iterations, 1, 8) as u32,
            ground_height: ground,
            max_active_target_count: max_active_targets.clamp(1, 1024) as usize,
            target_stickiness: c.f("target_stickiness", self.target_stickiness, 0.1, 1.0, d.target_stickiness),
            retarget_interval: c.f("retarget_interval", self.retarget_interval, 0.0, 60.0, d.retarget_interval),
            retarget_hysteresis: c.f("retarget_hysteresis", self.retarget_hysteresis, 0.0, 0.9, d.retarget_hysteresis),
            worker_threads: c.i("worker_threads", self.worker_threads, 0, 256) as usize,
            seed,
        };
        (s, c.problems)
    }
}
