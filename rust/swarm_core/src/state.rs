//! The simulation state: everything that defines a world and nothing that can be rebuilt from
//! it. Settings, archetypes, agent storage, ids, targets, the surface flow field (grid, modifier
//! layer, per-target fields and their in-progress builds), the camera, perception bookkeeping
//! (queued noises, pending sight-ray requests, the ray round-robin), the RNG, time, the tick
//! counter and the storage-layout bookkeeping. All of it is serde data: a `SimState` saved and
//! loaded steps bit-identically to the original (see `World::from_state`).

use glam::Vec2;
use rand::SeedableRng;
use rand_pcg::Pcg32;
use serde::{Deserialize, Serialize};

use crate::agents::{Agents, Refs};
use crate::archetype::ArchetypeRuntime;
use crate::camera::Frustum;
use crate::config::WorldSettings;
use crate::flow_field::FieldSetSettings;
use crate::formation::Formations;
use crate::ids::IdTable;
use crate::perception::awareness::{PerceptionRuntime, MAX_NOISES_PER_STEP};
use crate::sanitize::Finding;
use crate::surface_nav::SurfaceNav;
use crate::targets::Targets;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SimState {
    pub(crate) settings: WorldSettings,
    pub(crate) archetypes: Vec<ArchetypeRuntime>,
    pub(crate) ids: IdTable,
    pub(crate) agents: Agents,
    pub(crate) targets: Targets,
    /// The surface flow field, when one is set.
    pub(crate) nav: Option<SurfaceNav>,
    pub(crate) camera: Option<Frustum>,
    /// Noise queue, sight-ray requests and their round-robin (see `perception`).
    pub(crate) perception: PerceptionRuntime,
    /// Formation orders (each agent's place in one is its `seat`).
    pub(crate) formations: Formations,
    pub(crate) rng: Pcg32,
    pub(crate) time: f64,
    /// Steps taken.
    pub(crate) ticks: u64,
    /// Bumped whenever an agent index may now hold another agent (spawn, despawn, reorder).
    pub(crate) layout: u64,
    /// Agents placed out of the grid's tile order since the last reorder (spawned, or moved by a despawn),
    /// and the tick of that reorder.
    pub(crate) unsorted: usize,
    pub(crate) reordered_at: u64,
    /// Whether a query between steps built the spatial grid since the last step or move (for a
    /// step of `workspace::QUERY_DT`): the next step then uses that grid as it is instead of
    /// building one for its own `dt`, so a rebuilt workspace must build it the same way.
    pub(crate) grid_built_by_query: bool,
}

impl SimState {
    /// An empty world's state for sanitized `settings`.
    pub(crate) fn new(settings: WorldSettings) -> Self {
        let cap = settings.max_agents;
        Self {
            rng: Pcg32::seed_from_u64(settings.seed),
            ids: IdTable::with_capacity(cap),
            agents: Agents::with_capacity(cap),
            targets: Targets::default(),
            nav: None,
            camera: None,
            perception: PerceptionRuntime::default(),
            formations: Formations::default(),
            archetypes: Vec::new(),
            time: 0.0,
            ticks: 0,
            layout: 0,
            unsorted: 0,
            reordered_at: 0,
            grid_built_by_query: false,
            settings,
        }
    }

    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    pub fn formations(&self) -> &Formations {
        &self.formations
    }

    pub fn archetypes_len(&self) -> usize {
        self.archetypes.len()
    }

    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    pub fn time(&self) -> f64 {
        self.time
    }

    /// The flow-field schedule the settings ask for.
    pub(crate) fn field_settings(&self) -> FieldSetSettings {
        FieldSetSettings {
            cost_rebuild_interval: self.settings.surface_flow_rebake_interval as f64,
            ..FieldSetSettings::default()
        }
    }

    /// Ground-plane positions of the active targets.
    pub(crate) fn active_target_points(&self) -> Vec<Vec2> {
        self.targets
            .active()
            .iter()
            .filter_map(|&h| self.targets.get(h))
            .map(|t| Vec2::new(t.position.x, t.position.z))
            .collect()
    }
}

/// Planes a loaded camera may have (Godot's frustum has six).
const MAX_CAMERA_PLANES: usize = 64;

/// `what: field = value` for the first finding, if any.
fn first_finding(what: &str, findings: &[Finding]) -> Result<(), String> {
    match findings.first() {
        Some(f) => Err(format!("{what}: {} = {} is out of bounds", f.field, f.value)),
        None => Ok(()),
    }
}

impl SimState {
    /// Checks a state read from outside (a save) before a world is built on it: settings and
    /// archetypes within their bounds, every part's lengths and indices consistent with the
    /// others, no NaN anywhere the step reads. The first problem found is the message.
    pub(crate) fn validate(&self) -> Result<(), String> {
        let mut findings = Vec::new();
        let settings = self.settings.clone().checked(&mut findings);
        first_finding("settings", &findings)?;
        if settings != self.settings {
            return Err("settings are out of bounds".into());
        }
        if self.archetypes.len() > u16::MAX as usize {
            return Err(format!("{} archetypes, more than {}", self.archetypes.len(), u16::MAX));
        }
        for (k, a) in self.archetypes.iter().enumerate() {
            a.config.clone().checked(&mut findings);
            first_finding(&format!("archetype {k}"), &findings)?;
        }
        let n = self.agents.len();
        if n > self.settings.max_agents {
            return Err(format!("{n} agents, more than max_agents {}", self.settings.max_agents));
        }
        self.targets.validate()?;
        let target_slots = self.targets.slot_count();
        if let Some(nav) = &self.nav {
            nav.validate(target_slots)?;
        }
        let cells = self.nav.as_ref().map_or(0, |nav| nav.grid.cell_count());
        self.agents.validate(&Refs { archetypes: self.archetypes.len(), target_slots, cells })?;
        self.ids.validate(&self.agents.slot, self.settings.max_agents)?;
        self.formations.validate(crate::surface_nav::MAX_FORMATION_FIELDS, cells)?;
        self.formations.validate_seats(&self.agents.seat)?;
        if let Some(cam) = &self.camera {
            let huge = cam.planes.iter().any(|p| p.abs().max_element() > crate::bounds::load::MAX_COORD);
            if cam.planes.len() > MAX_CAMERA_PLANES || !cam.is_valid() || huge {
                return Err("camera frustum is not usable".into());
            }
        }
        let p = &self.perception;
        let coord = crate::bounds::load::usable_position;
        let noises_ok = p.noises.iter().all(|z| {
            coord(z.position) && z.radius.is_finite() && (0.0..=crate::bounds::load::MAX_COORD).contains(&z.radius)
        });
        if p.noises.len() > MAX_NOISES_PER_STEP || !noises_ok {
            return Err("queued noises are out of range".into());
        }
        let rays_ok = p.requests.iter().all(|r| coord(r.from) && coord(r.to) && (r.target as usize) < target_slots);
        if p.ray_budget > 1 << 20 || p.requests.len() > p.ray_budget || !rays_ok {
            return Err("pending sight rays are out of range".into());
        }
        if !self.time.is_finite() || self.time < 0.0 {
            return Err(format!("time {} is not a usable number", self.time));
        }
        if self.reordered_at > self.ticks || self.unsorted > usize::MAX / 16 {
            return Err("storage layout counters are out of range".into());
        }
        Ok(())
    }

    /// Gives a loaded state's growing arrays their full capacity again, so stepping it never
    /// reallocates where the original did not.
    pub(crate) fn reserve(&mut self) {
        let cap = self.settings.max_agents;
        self.agents.reserve_to(cap);
        self.ids.reserve_to(cap);
    }
}
