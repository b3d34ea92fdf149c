//! `SwarmSettings`: global parameters of one manager's world.

use godot::prelude::*;
use swarm_core::bounds::{lod as lb, world as wb};
use swarm_core::{LodSettings, WorldSettings};

use crate::convert::{report_findings, resource_name};

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

    /// Importance LOD: agents far from their target and off camera run Personal Space and
    /// approach steering less often, with fewer samples. Off: every agent runs everything every step.
    #[export_group(name = "Importance LOD")]
    #[export]
    #[init(val = true)]
    lod_enabled: bool,
    /// Within this distance of its target an agent is Full quality (while the cap has room).
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 12.0)]
    lod_near_distance: f32,
    /// Within this distance (or on camera) an agent is at least Reduced; beyond it and off camera, Cheap.
    #[export(range = (0.0, 300.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 35.0)]
    lod_mid_distance: f32,
    /// A Reduced agent stays Reduced until it is this fraction past the mid distance, so agents
    /// walking the boundary do not flicker between tiers.
    #[export(range = (0.0, 1.0, 0.01, or_greater))]
    #[init(val = 0.1)]
    lod_hysteresis: f32,
    /// Most agents at Full quality. The nearest agents in the near band get the slots; left-over
    /// slots go to agents on camera.
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = 512)]
    full_quality_agent_cap: i64,
    /// Reduced agents update Personal Space and approach steering every this many steps.
    #[export_subgroup(name = "Reduced")]
    #[export(range = (1.0, 16.0, 1.0, or_greater))]
    #[init(val = 2)]
    reduced_update_interval: i64,
    /// Neighbours a Reduced agent samples for Personal Space.
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 4)]
    reduced_sample_cap: i64,
    /// Cheap agents update Personal Space and approach steering every this many steps. Where a
    /// whole block of them (128 agents side by side) is far from every target, off camera and away
    /// from closed doors, the block takes one step of this many steps' worth every this many
    /// steps and waits untouched in between (`far_waiting` in [method SwarmManager.get_stats]):
    /// most of a big horde's cost. Farther out such a block steps every twice this many steps,
    /// four times, and so on, as long as that is at most 32 steps (about half a second at 60 Hz)
    /// and the block stands at least 25 such steps' walk (of the fastest archetype) beyond the
    /// mid band (at the defaults 15, 30 and 60 m beyond it). 1 steps every agent every step.
    #[export_subgroup(name = "Cheap")]
    #[export(range = (1.0, 32.0, 1.0, or_greater))]
    #[init(val = 4)]
    cheap_update_interval: i64,
    /// Neighbours a Cheap agent samples for Personal Space.
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 2)]
    cheap_sample_cap: i64,

    /// Agents farther than [member dormancy_distance] from every active target (not only their
    /// own; an agent with no target counts as far) and off camera for [member dormancy_delay]
    /// seconds go dormant (no steering) until a target comes within 90% of that distance, or they
    /// are hit or alerted. Agents walking to a searched spot or a heard noise stay awake.
    #[export_group(name = "Dormancy")]
    #[export]
    #[init(val = true)]
    dormancy_enabled: bool,
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 80.0)]
    dormancy_distance: f32,
    #[export(range = (0.0, 60.0, 0.1, or_greater, suffix = "s"))]
    #[init(val = 3.0)]
    dormancy_delay: f32,

    /// With the manager's surface flow field on: agents are moved back out of any cell they may
    /// not enter (walls, closed doors). Off, closed boxes stop nobody and only route costs apply.
    #[export_group(name = "Surface Flow Field")]
    #[export]
    #[init(val = true)]
    surface_flow_enforce_cell_boundaries: bool,
    /// Least seconds between two rebuilds of a target's field when route costs change (doors
    /// opening, barricades breaking). Target moves rebuild at most every 0.1 s.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.5)]
    surface_flow_rebake_interval: f32,

    /// Visual refresh: drawn agents are redrawn every frame up close, every second frame past
    /// this distance from the camera, every fourth frame off screen. Simulation cost is not
    /// affected (that is Importance LOD).
    #[export_group(name = "Visuals")]
    #[export(range = (0.0, 500.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = DEFAULT_DISTANT_VISIBLE)]
    distant_visible_distance: f32,

    /// Threads used by the simulation step. 0 uses every core. Results are identical whatever
    /// the count.
    #[export_group(name = "Performance")]
    #[export(range = (0.0, 64.0, 1.0, or_greater))]
    #[init(val = 0)]
    worker_threads: i64,

    base: Base<Resource>,
}

pub const DEFAULT_DISTANT_VISIBLE: f32 = 40.0;

impl SwarmSettings {
    pub fn enforces_cell_boundaries(&self) -> bool {
        self.surface_flow_enforce_cell_boundaries
    }

    pub fn distant_visible_distance(&self) -> f32 {
        let d = self.distant_visible_distance;
        if d.is_finite() {
            d.max(0.0)
        } else {
            DEFAULT_DISTANT_VISIBLE
        }
    }

    /// The core settings, checked by the core, and the problems found (each names this resource
    /// and the field). `max_active_targets` and `ground` are the manager's, checked there.
    pub fn to_core(
        &self,
        seed: u64,
        max_active_targets: i64,
        ground: f32,
        owner: &str,
    ) -> (WorldSettings, Vec<String>) {
        let d = WorldSettings::default();
        let mut findings = Vec::new();
        let f = &mut findings;
        let mut s = WorldSettings {
            max_agents: wb::MAX_AGENTS.narrow(self.max_agents, f),
            body_blocking: self.body_blocking,
            body_blocking_iterations: wb::BODY_BLOCKING_ITERATIONS.narrow(self.body_blocking_iterations, f),
            ground_height: d.ground_height,
            max_active_target_count: d.max_active_target_count,
            target_stickiness: self.target_stickiness,
            retarget_interval: self.retarget_interval,
            retarget_hysteresis: self.retarget_hysteresis,
            worker_threads: wb::WORKER_THREADS.narrow(self.worker_threads, f),
            agent_height: d.agent_height,
            surface_flow_enforce_cell_boundaries: self.surface_flow_enforce_cell_boundaries,
            surface_flow_rebake_interval: self.surface_flow_rebake_interval,
            lod: LodSettings {
                enabled: self.lod_enabled,
                near_distance: self.lod_near_distance,
                mid_distance: self.lod_mid_distance,
                hysteresis: self.lod_hysteresis,
                full_quality_agent_cap: lb::FULL_QUALITY_AGENT_CAP.narrow(self.full_quality_agent_cap, f),
                reduced_interval: lb::REDUCED_INTERVAL.narrow(self.reduced_update_interval, f),
                reduced_sample_cap: lb::REDUCED_SAMPLE_CAP.narrow(self.reduced_sample_cap, f),
                cheap_interval: lb::CHEAP_INTERVAL.narrow(self.cheap_update_interval, f),
                cheap_sample_cap: lb::CHEAP_SAMPLE_CAP.narrow(self.cheap_sample_cap, f),
            },
            dormancy_enabled: self.dormancy_enabled,
            dormancy_distance: self.dormancy_distance,
            dormancy_delay: self.dormancy_delay,
            seed,
        }
        .checked(f);
        // The manager's own fields go in after the check: their messages name the manager.
        s.ground_height = ground;
        s.max_active_target_count = wb::MAX_ACTIVE_TARGET_COUNT.narrow(max_active_targets, &mut Vec::new());
        let mut problems = Vec::new();
        let name = resource_name(&self.base().clone().upcast(), "SwarmSettings");
        report_findings(&format!("{owner}: {name}"), &findings, &mut problems);
        (s, problems)
    }
}
