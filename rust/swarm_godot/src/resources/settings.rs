//! `SwarmSettings`: global parameters of one manager's world.

use godot::prelude::*;
use swarm_core::{LodSettings, WorldSettings};

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
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.1)]
    lod_hysteresis: f32,
    /// Most agents at Full quality. The nearest agents in the near band get the slots; left-over
    /// slots go to agents on camera.
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = 512)]
    full_quality_agent_cap: i64,
    /// Reduced agents update Personal Space and approach steering every this many steps.
    #[export_subgroup(name = "Reduced")]
    #[export(range = (1.0, 16.0, 1.0))]
    #[init(val = 2)]
    reduced_update_interval: i64,
    /// Neighbours a Reduced agent samples for Personal Space.
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 4)]
    reduced_sample_cap: i64,
    /// Cheap agents update Personal Space and approach steering every this many steps.
    #[export_subgroup(name = "Cheap")]
    #[export(range = (1.0, 32.0, 1.0))]
    #[init(val = 4)]
    cheap_update_interval: i64,
    /// Neighbours a Cheap agent samples for Personal Space.
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 2)]
    cheap_sample_cap: i64,

    /// Agents farther than [member dormancy_distance] from their target and off camera for
    /// [member dormancy_delay] seconds go dormant (no steering) until a target comes within 90%
    /// of that distance.
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
    #[export(range = (0.0, 64.0, 1.0))]
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

    /// The core settings and the problems found (each names this resource and the field).
    pub fn to_core(
        &self,
        seed: u64,
        max_active_targets: i64,
        ground: f32,
        owner: &str,
    ) -> (WorldSettings, Vec<String>) {
        let d = WorldSettings::default();
        let dl = LodSettings::default();
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
            agent_height: d.agent_height,
            surface_flow_enforce_cell_boundaries: self.surface_flow_enforce_cell_boundaries,
            surface_flow_rebake_interval: c.f(
                "surface_flow_rebake_interval",
                self.surface_flow_rebake_interval,
                0.0,
                3600.0,
                d.surface_flow_rebake_interval,
            ),
            lod: LodSettings {
                enabled: self.lod_enabled,
                near_distance: c.f("lod_near_distance", self.lod_near_distance, 0.0, 1e6, dl.near_distance),
                mid_distance: c.f("lod_mid_distance", self.lod_mid_distance, 0.0, 1e6, dl.mid_distance),
                hysteresis: c.f("lod_hysteresis", self.lod_hysteresis, 0.0, 10.0, dl.hysteresis),
                full_quality_agent_cap: c.i("full_quality_agent_cap", self.full_quality_agent_cap, 0, 10_000_000)
                    as usize,
                reduced_interval: c.i("reduced_update_interval", self.reduced_update_interval, 1, 64) as u32,
                reduced_sample_cap: c.i("reduced_sample_cap", self.reduced_sample_cap, 1, 64) as u32,
                cheap_interval: c.i("cheap_update_interval", self.cheap_update_interval, 1, 64) as u32,
                cheap_sample_cap: c.i("cheap_sample_cap", self.cheap_sample_cap, 1, 64) as u32,
            },
            dormancy_enabled: self.dormancy_enabled,
            dormancy_distance: c.f("dormancy_distance", self.dormancy_distance, 0.0, 1e6, d.dormancy_distance),
            dormancy_delay: c.f("dormancy_delay", self.dormancy_delay, 0.0, 3600.0, d.dormancy_delay),
            seed,
        };
        (s, c.problems)
    }
}
