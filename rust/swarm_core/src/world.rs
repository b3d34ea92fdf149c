//! The world: agent storage, ids, targets, the spatial grid and the step pipeline.
//!
//! One `step(dt)` runs, in order: target selection (sequential, few targets); the grid rebuild
//! the last step left pending (positions moved since), side by side with the classification
//! (dormancy, the Importance LOD ladder); perception; one parallel pass over agents (retarget,
//! steering blend, movement, facing; each writes its moved record at its grid rank for body
//! blocking); body-blocking passes; settling on a flow field; velocities. Queries between steps
//! rebuild the grid on demand. Every per-agent write goes to that agent's own index (or its own
//! rank) and every reduction uses fixed chunks, so results do not depend on the thread count.

use std::sync::Arc;
use std::time::Instant;

use glam::{DVec3, Vec2, Vec3, Vec4};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use rayon::prelude::*;

use crate::agent_step::{AgentIn, AgentState, StepCtx};
use crate::agents::{AgentParams, Agents, NewAgent, FLAG_DORMANT, FLAG_PINNED, FLAG_PRESSING};
use crate::body_blocking;
use crate::camera::Frustum;
use crate::combat::{self, AttackEvent, CombatIn};
use crate::config::{Archetype, WorldSettings};
use crate::flow_field::{FieldSetSettings, SurfaceGrid, NONE};
use crate::ids::{AgentId, IdTable};
use crate::lod::{self, TierCounts};
use crate::perception::{self, memory, Awareness, PerceptionCounts, PerceptionRuntime, SightRay, CHASING};
use crate::scatter::Scatter;
use crate::snorm::Snorm2;
use crate::spatial_grid::{Bounds, SpatialGrid};
use crate::steering::pressure;
use crate::surface_nav::SurfaceNav;
use crate::targets::{Targets, NO_TARGET};

/// Every this many steps (and after a spawn wave, see `step_parallel`), storage is reordered to
/// follow the grid, so neighbours in space are neighbours in memory.
pub const REORDER_INTERVAL: u64 = 128;

/// Agents per parallel work item. Fixed, so chunk boundaries never depend on the thread count.
pub const CHUNK: usize = 1024;

/// An archetype as the step uses it (sanitized).
#[derive(Clone, Debug)]
pub(crate) struct ArchetypeRuntime {
    pub config: Archetype,
}

impl ArchetypeRuntime {
    /// Whether an agent of this archetype acts on its target (steers for it, strikes it): always
    /// without a perception profile; with one, only while it sees the target (chasing).
    #[inline]
    pub fn acts_on_target(&self, aware: &Awareness) -> bool {
        self.config.perception.is_none() || aware.mode == CHASING
    }
}

/// Where an agent's blow on a closed cell lands: the cell's centre at the agent's height.
#[inline]
fn swarm_core_point(cell_center: Vec3, agent: Vec3) -> Vec3 {
    Vec3::new(cell_center.x, agent.y + 1.0, cell_center.z)
}

/// Seconds an agent flashes after a hit.
pub const HIT_FLASH_SECONDS: f32 = 0.15;

/// Outcome of `World::damage`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DamageResult {
    Hurt {
        health: f32,
    },
    /// The agent died and was despawned; where it stood, for effects.
    Died {
        position: Vec3,
        facing: Vec2,
        archetype: u16,
    },
    Unknown,
    Refused,
}

/// Smallest `t` in 0..=1 where the segment `a + t * seg` enters the circle, if it does.
fn segment_circle(a: Vec2, seg: Vec2, center: Vec2, r: f32) -> Option<f32> {
    let f = a - center;
    let c = f.length_squared() - r * r;
    if c <= 0.0 {
        return Some(0.0);
    }
    let aa = seg.length_squared();
    if aa < 1e-12 {
        return None;
    }
    let b = f.dot(seg);
    let disc = b * b - aa * c;
    if disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / aa;
    (0.0..=1.0).contains(&t).then_some(t)
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnError {
    /// `max_agents` reached.
    Full,
    UnknownArchetype,
    /// Position not finite.
    InvalidPosition,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct StepStats {
    pub step_ms: f32,
    pub ticks: u64,
    pub active_targets: usize,
    /// Agents per Importance LOD tier in the last step, and dormant agents (counted in Cheap).
    pub tiers: TierCounts,
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

pub struct World {
    settings: WorldSettings,
    archetypes: Vec<ArchetypeRuntime>,
    ids: IdTable,
    agents: Agents,
    targets: Targets,
    grid: SpatialGrid,
    grid_dirty: bool,
    /// Ground-plane bounds of the positions as the last step left them, while nothing has moved
    /// an agent since (the deferred grid rebuild then skips a pass over the positions).
    pending_bounds: Option<(Vec2, Vec2)>,
    /// Bumped whenever an agent index may now hold another agent (spawn, despawn, reorder).
    layout: u64,
    /// Agents placed out of grid order since the last reorder (spawned, or moved by a despawn),
    /// and the tick of that reorder.
    unsorted: usize,
    reordered_at: u64,
    camera: Option<Frustum>,
    next_pos: Vec<Vec3>,
    /// Body blocking's second buffer of cell-ordered records.
    blocking_spare: Vec<Vec4>,
    lod_dist: Vec<f32>,
    lod_scratch: lod::TierScratch,
    sees: Vec<bool>,
    /// Body blocking: whether each agent overlapped anything in the last pass.
    moved: Vec<bool>,
    target_counts: Vec<u32>,
    press_candidates: Vec<pressure::Candidate>,
    pressing: Vec<u32>,
    events: Vec<AttackEvent>,
    visited: Vec<bool>,
    /// The surface flow field, when one is set.
    nav: Option<SurfaceNav>,
    /// Per agent: the closed cell its last move pressed against.
    pressed: Vec<u32>,
    event_scratch: Vec<Vec<AttackEvent>>,
    partials: Vec<DVec3>,
    /// Noise queue, sight-ray requests and answers (see `perception`).
    perception: PerceptionRuntime,
    rng: Pcg32,
    time: f64,
    stats: StepStats,
    // Derived from archetypes: neighbourhood sizes for the grid.
    max_radius: f32,
    max_spacing: f32,
    max_speed: f32,
    /// Largest alert radius, and which perception features any archetype uses.
    max_alert: f32,
    any_perception: bool,
    any_ray: bool,
    pool: Arc<rayon::ThreadPool>,
}

/// Rebuilds `grid` for `pos` (radii from `params`), with the positions' bounds when known.
fn rebuild_grid(grid: &mut SpatialGrid, pos: &[Vec3], params: &[AgentParams], cell: f32, bounds: Option<(Vec2, Vec2)>) {
    match bounds {
        Some(b) => grid.rebuild_within(pos, &|i| params[i].radius, cell, b),
        None => grid.rebuild(pos, &|i| params[i].radius, cell),
    }
}

impl World {
    pub fn new(settings: WorldSettings) -> Self {
        let settings = settings.sanitized();
        let cap = settings.max_agents;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(settings.worker_threads)
            .thread_name(|i| format!("swarm-{i}"))
            .build()
            .expect("rayon thread pool");
        Self {
            rng: Pcg32::seed_from_u64(settings.seed),
            ids: IdTable::with_capacity(cap),
            agents: Agents::with_capacity(cap),
            targets: Targets::default(),
            grid: SpatialGrid::with_capacity(cap),
            grid_dirty: true,
            pending_bounds: None,
            layout: 0,
            unsorted: 0,
            reordered_at: 0,
            camera: None,
            next_pos: Vec::with_capacity(cap),
            blocking_spare: Vec::with_capacity(cap),
            lod_dist: Vec::with_capacity(cap),
            lod_scratch: lod::TierScratch::default(),
            sees: Vec::with_capacity(cap),
            moved: Vec::with_capacity(cap),
            target_counts: Vec::new(),
            press_candidates: Vec::new(),
            pressing: Vec::new(),
            events: Vec::new(),
            visited: Vec::with_capacity(cap),
            nav: None,
            pressed: Vec::new(),
            event_scratch: Vec::new(),
            partials: Vec::with_capacity(cap / CHUNK + 1),
            archetypes: Vec::new(),
            time: 0.0,
            stats: StepStats::default(),
            max_radius: 0.0,
            max_spacing: 0.0,
            max_speed: 0.0,
            max_alert: 0.0,
            any_perception: false,
            any_ray: false,
            perception: PerceptionRuntime::default(),
            pool: Arc::new(pool),
            settings,
        }
    }

    pub fn settings(&self) -> &WorldSettings {
        &self.settings
    }

    /// Applies new settings. Capacity and thread count take effect only through a new world;
    /// a smaller capacity than the live count is refused (returns false).
    pub fn update_settings(&mut self, settings: WorldSettings) -> bool {
        let s = settings.sanitized();
        if s.max_agents != self.settings.max_agents
            || s.worker_threads != self.settings.worker_threads
            || s.seed != self.settings.seed
        {
            return false;
        }
        let ground_changed = s.ground_height != self.settings.ground_height;
        self.settings = s;
        let fs = self.field_settings();
        if let Some(nav) = self.nav.as_mut() {
            nav.fields.set_settings(fs);
        }
        if ground_changed && self.nav.is_none() {
            let g = self.settings.ground_height;
            self.agents.pos.iter_mut().for_each(|p| p.y = g);
        }
        true
    }

    // ----- archetypes -----

    pub fn add_archetype(&mut self, a: Archetype) -> u16 {
        self.archetypes.push(runtime(a));
        self.refresh_derived();
        (self.archetypes.len() - 1) as u16
    }

    /// Replaces an archetype's config; behaviour changes apply at once, sampled movement ranges
    /// apply to agents spawned from now on. Returns false for an unknown index.
    pub fn update_archetype(&mut self, index: u16, a: Archetype) -> bool {
        let Some(slot) = self.archetypes.get_mut(index as usize) else {
            return false;
        };
        let r = runtime(a);
        if slot.config == r.config {
            return true;
        }
        let radius_changed = slot.config.agent_radius != r.config.agent_radius
            || slot.config.push_resistance != r.config.push_resistance;
        *slot = r;
        if radius_changed {
            let (radius, pr) = (slot.config.agent_radius, slot.config.push_resistance);
            for (p, &arch) in self.agents.params.iter_mut().zip(&self.agents.archetype) {
                if arch == index {
                    p.radius = radius;
                    p.push_resistance = pr;
                }
            }
        }
        self.refresh_derived();
        true
    }

    pub fn archetype_count(&self) -> usize {
        self.archetypes.len()
    }

    fn refresh_derived(&mut self) {
        self.max_radius = self.archetypes.iter().map(|a| a.config.agent_radius).fold(0.0, f32::max);
        self.max_spacing = self.archetypes.iter().map(|a| a.config.behavior.spacing_radius).fold(0.0, f32::max);
        self.max_speed = self.archetypes.iter().map(|a| a.config.movement.max_speed.max).fold(0.0, f32::max);
        let profiles = || self.archetypes.iter().filter_map(|a| a.config.perception.as_ref());
        self.max_alert = profiles().map(|p| p.alert_spread_radius).fold(0.0, f32::max);
        self.any_perception = profiles().next().is_some();
        self.any_ray = profiles().any(|p| p.sight_occlusion == crate::config::SightOcclusion::PhysicsRay);
    }

    // ----- agents -----

    pub fn spawn(&mut self, archetype: u16, position: Vec3) -> Result<AgentId, SpawnError> {
        let Some(a) = self.archetypes.get(archetype as usize) else {
            return Err(SpawnError::UnknownArchetype);
        };
        if !position.is_finite() {
            return Err(SpawnError::InvalidPosition);
        }
        if self.agents.len() >= self.settings.max_agents {
            return Err(SpawnError::Full);
        }
        let m = &a.config.movement;
        let rng = &mut self.rng;
        let mut sample = |r: crate::config::Range| r.at(rng.random::<f32>());
        let params = AgentParams {
            max_speed: sample(m.max_speed),
            max_acceleration: sample(m.max_acceleration),
            braking_acceleration: sample(m.braking_acceleration),
            steering_response: sample(m.steering_response),
            max_turn_speed: sample(m.max_turn_speed).to_radians(),
            max_turn_acceleration: sample(m.max_turn_acceleration).to_radians(),
            radius: a.config.agent_radius,
            push_resistance: a.config.push_resistance,
        };
        let yaw = self.rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        let facing = Vec2::new(yaw.sin(), yaw.cos());
        let seed = self.rng.random::<u32>();
        let index = self.agents.len() as u32;
        let id = self.ids.allocate(index);
        let (pos, cell) = self.place(position);
        self.agents.push(NewAgent {
            pos,
            cell,
            facing,
            archetype,
            params,
            health: a.config.max_health,
            slot: id.slot,
            seed,
            retarget_timer: 0.0,
        });
        self.positions_changed();
        self.layout += 1;
        self.unsorted += 1;
        Ok(id)
    }

    /// Changes whenever an agent index may hold a different agent than before (a spawn, a
    /// despawn, or the periodic reorder): per-index caches outside the world (visuals) compare it.
    pub fn layout_revision(&self) -> u64 {
        self.layout
    }

    /// Removes an agent; false for a stale or unknown id.
    pub fn despawn(&mut self, id: AgentId) -> bool {
        let Some(i) = self.ids.resolve(id) else {
            return false;
        };
        if let Some(moved_slot) = self.agents.swap_remove(i) {
            self.ids.relocate(moved_slot, i as u32);
            self.unsorted += 1;
        }
        self.ids.release(id);
        self.positions_changed();
        self.layout += 1;
        true
    }

    pub fn is_alive(&self, id: AgentId) -> bool {
        self.ids.resolve(id).is_some()
    }

    /// Dense index of a live agent (valid until the next spawn or despawn).
    pub fn index_of(&self, id: AgentId) -> Option<usize> {
        self.ids.resolve(id)
    }

    pub fn id_at(&self, index: usize) -> AgentId {
        self.ids.id_of_slot(self.agents.slot[index])
    }

    pub fn count(&self) -> usize {
        self.agents.len()
    }

    pub fn capacity(&self) -> usize {
        self.settings.max_agents
    }

    /// The spatial grid for the agents' current positions (rebuilt first if anything moved).
    pub fn grid(&mut self) -> &SpatialGrid {
        self.ensure_grid();
        &self.grid
    }

    pub fn agents(&self) -> &Agents {
        &self.agents
    }

    pub fn position(&self, id: AgentId) -> Option<Vec3> {
        self.ids.resolve(id).map(|i| self.agents.pos[i])
    }

    pub fn velocity(&self, id: AgentId) -> Option<Vec3> {
        self.ids.resolve(id).map(|i| self.agents.vel[i])
    }

    /// Ids of every live agent, in storage order.
    pub fn ids(&self) -> impl Iterator<Item = AgentId> + '_ {
        self.agents.slot.iter().map(|&s| self.ids.id_of_slot(s))
    }

    /// Agents whose position lies within `radius` of `center` on the ground plane.
    pub fn agents_in_radius(&mut self, center: Vec3, radius: f32, out: &mut Vec<AgentId>) {
        if !center.is_finite() || !radius.is_finite() || radius < 0.0 {
            return;
        }
        self.ensure_grid();
        let mut idx = Vec::new();
        self.grid.query_radius(Vec2::new(center.x, center.z), radius, &mut idx);
        idx.sort_unstable();
        out.extend(idx.into_iter().map(|i| self.id_at(i as usize)));
    }

    /// Moves an agent (teleport): velocity and steering are reset; y follows the ground.
    /// False for a stale id or a non-finite position.
    pub fn set_position(&mut self, id: AgentId, position: Vec3) -> bool {
        let Some(i) = self.ids.resolve(id) else { return false };
        if !position.is_finite() {
            return false;
        }
        (self.agents.pos[i], self.agents.cell[i]) = self.place(position);
        self.agents.vel[i] = Vec3::ZERO;
        self.agents.steer[i] = Vec2::ZERO;
        self.positions_changed();
        true
    }

    /// Wakes a dormant agent (it was hit or alerted). False for a stale id.
    pub fn wake(&mut self, id: AgentId) -> bool {
        let Some(i) = self.ids.resolve(id) else { return false };
        self.agents.flags[i] &= !FLAG_DORMANT;
        self.agents.dormant_timer[i] = 0.0;
        true
    }

    pub fn is_dormant(&self, id: AgentId) -> bool {
        self.ids.resolve(id).is_some_and(|i| self.agents.flags[i] & FLAG_DORMANT != 0)
    }

    /// Importance LOD tier of an agent in the last step (`lod::FULL`, `REDUCED`, `CHEAP`).
    pub fn tier(&self, id: AgentId) -> Option<u8> {
        self.ids.resolve(id).map(|i| self.agents.tier[i])
    }

    /// Where an agent put at `p` stands: on the surface flow field (nearest open cell) when one is
    /// set, else on the ground plane.
    fn place(&self, p: Vec3) -> (Vec3, u32) {
        match &self.nav {
            Some(nav) => {
                let c = nav.cell_under(p);
                if c == NONE {
                    (Vec3::new(p.x, self.settings.ground_height, p.z), NONE)
                } else if nav.grid.locate(p) == Some(c) {
                    (Vec3::new(p.x, nav.grid.ground_height(c, p), p.z), c)
                } else {
                    (nav.grid.cell_center(c), c)
                }
            }
            None => (Vec3::new(p.x, self.settings.ground_height, p.z), NONE),
        }
    }

    /// Sets (or removes) the surface flow field. Every agent is placed onto it at once.
    pub fn set_surface(&mut self, grid: Option<SurfaceGrid>) {
        self.nav = grid.map(|g| SurfaceNav::new(g, self.field_settings()));
        for i in 0..self.agents.len() {
            let (p, c) = self.place(self.agents.pos[i]);
            self.agents.pos[i] = p;
            self.agents.cell[i] = c;
        }
        self.positions_changed();
    }

    pub fn surface(&self) -> Option<&SurfaceNav> {
        self.nav.as_ref()
    }

    /// The surface flow field for edits (doors and barricades stamp its modifier layer).
    pub fn surface_mut(&mut self) -> Option<&mut SurfaceNav> {
        self.nav.as_mut()
    }

    fn field_settings(&self) -> FieldSetSettings {
        FieldSetSettings {
            cost_rebuild_interval: self.settings.surface_flow_rebake_interval as f64,
            ..FieldSetSettings::default()
        }
    }

    /// Route length between two points over the surface flow field (straight-line distance on
    /// the ground plane when there is no field); `None` when no route exists.
    pub fn path_length(&mut self, from: Vec3, to: Vec3) -> Option<f32> {
        if !from.is_finite() || !to.is_finite() {
            return None;
        }
        match self.nav.as_mut() {
            Some(nav) => nav.path_length(from, to),
            None => Some(Vec2::new(from.x - to.x, from.z - to.z).length()),
        }
    }

    /// Completed flow-field builds so far.
    pub fn flow_field_rebuilds(&self) -> u64 {
        self.nav.as_ref().map_or(0, |n| n.rebuild_count())
    }

    /// Sets the camera used for visibility decisions (`None`, or an invalid frustum: no camera,
    /// nothing counts as drawn).
    pub fn set_camera(&mut self, camera: Option<Frustum>) {
        self.camera = camera.filter(|c| c.is_valid());
    }

    pub fn camera(&self) -> Option<&Frustum> {
        self.camera.as_ref()
    }

    /// Agents that are off camera and farther than `min_distance` from every active target (all
    /// agents' distance when no target is active), in storage order, at most `max`.
    /// Spawners use it to recycle far agents back in front of the player.
    pub fn recyclable_agents(&self, min_distance: f32, max: usize, out: &mut Vec<AgentId>) {
        if !min_distance.is_finite() {
            return;
        }
        let active: Vec<Vec2> = self
            .targets
            .active()
            .iter()
            .filter_map(|&h| self.targets.get(h))
            .map(|t| Vec2::new(t.position.x, t.position.z))
            .collect();
        if active.is_empty() {
            return;
        }
        let d2 = min_distance * min_distance;
        for i in 0..self.agents.len() {
            if out.len() >= max {
                break;
            }
            let p = self.agents.pos[i];
            let q = Vec2::new(p.x, p.z);
            if active.iter().any(|t| t.distance_squared(q) < d2) {
                continue;
            }
            if self.camera.as_ref().is_some_and(|c| c.contains_sphere(p, self.agents.params[i].radius)) {
                continue;
            }
            out.push(self.id_at(i));
        }
    }

    /// Whether any agent's body overlaps the box (ground-plane circle against the box's footprint,
    /// feet within its vertical extent).
    pub fn any_agent_inside(&mut self, min: Vec3, max: Vec3) -> bool {
        if !min.is_finite() || !max.is_finite() || max.cmplt(min).any() {
            return false;
        }
        self.ensure_grid();
        let (lo, hi) = (Vec2::new(min.x, min.z), Vec2::new(max.x, max.z));
        let center = (lo + hi) * 0.5;
        let half = (hi - lo) * 0.5;
        let reach = half.length() + self.max_radius;
        let mut found = false;
        let (pos, params) = (&self.agents.pos, &self.agents.params);
        self.grid.for_each_candidate(center, f32::NAN, reach, |j, q| {
            let p = pos[j as usize];
            let r = params[j as usize].radius;
            let nearest = q.clamp(lo, hi);
            if q.distance_squared(nearest) <= r * r && p.y >= min.y - r && p.y <= max.y + r {
                found = true;
                return false;
            }
            true
        });
        found
    }

    /// Something other than a step moved, added or removed agents: the grid is rebuilt before
    /// its next use, with fresh bounds.
    fn positions_changed(&mut self) {
        self.grid_dirty = true;
        self.pending_bounds = None;
    }

    /// Rebuilds the spatial grid for the agents' current positions and radii.
    fn rebuild_grid(&mut self, dt: f32) {
        let (cell, bounds) = (self.cell_size(dt), self.pending_bounds.take());
        rebuild_grid(&mut self.grid, &self.agents.pos, &self.agents.params, cell, bounds);
        self.grid_dirty = false;
    }

    /// Classifies the agents, and runs the grid rebuild a step leaves pending (if any) alongside
    /// (the classification does not read the grid): the rebuild's counting sort is sequential,
    /// and this way the other threads spend that time classifying. Both read the positions and
    /// radii, so those are lent out of `agents` for the moment.
    fn classify_and_rebuild_grid(&mut self, dt: f32) {
        let pos = std::mem::take(&mut self.agents.pos);
        let params = std::mem::take(&mut self.agents.params);
        if self.grid_dirty {
            let (cell, bounds) = (self.cell_size(dt), self.pending_bounds.take());
            let mut grid = std::mem::take(&mut self.grid);
            rayon::join(|| rebuild_grid(&mut grid, &pos, &params, cell, bounds), || self.classify(dt, &pos, &params));
            self.grid = grid;
            self.grid_dirty = false;
        } else {
            self.classify(dt, &pos, &params);
        }
        (self.agents.pos, self.agents.params) = (pos, params);
    }

    fn ensure_grid(&mut self) {
        if self.grid_dirty {
            let pool = self.pool.clone();
            pool.install(|| self.rebuild_grid(1.0 / 60.0));
        }
    }

    // ----- targets -----

    pub fn register_target(&mut self, position: Vec3, priority: f32) -> u32 {
        let p = if position.is_finite() { position } else { Vec3::ZERO };
        self.targets.register(p, priority)
    }

    /// Removes a target; every agent chasing it is released (pinned ones included).
    pub fn unregister_target(&mut self, handle: u32) -> bool {
        if !self.targets.unregister(handle) {
            return false;
        }
        for (t, f) in self.agents.target.iter_mut().zip(self.agents.flags.iter_mut()) {
            if *t == handle {
                *t = NO_TARGET;
                *f &= !FLAG_PINNED;
            }
        }
        true
    }

    /// Moves a target; non-finite positions are ignored (returns false).
    pub fn set_target_position(&mut self, handle: u32, position: Vec3) -> bool {
        match self.targets.get_mut(handle) {
            Some(t) if position.is_finite() => {
                t.position = position;
                true
            }
            _ => false,
        }
    }

    pub fn set_target_priority(&mut self, handle: u32, priority: f32) {
        self.targets.set_priority(handle, priority);
    }

    pub fn set_target_enabled(&mut self, handle: u32, enabled: bool) {
        if let Some(t) = self.targets.get_mut(handle) {
            t.enabled = enabled;
        }
    }

    pub fn targets(&self) -> &Targets {
        &self.targets
    }

    /// Pins an agent to a target (`Some`) or returns it to automatic choice (`None`).
    /// False for a stale agent id or an unknown target.
    pub fn set_agent_target(&mut self, id: AgentId, target: Option<u32>) -> bool {
        let Some(i) = self.ids.resolve(id) else {
            return false;
        };
        match target {
            Some(h) if self.targets.get(h).is_some() => {
                self.agents.target[i] = h;
                self.agents.flags[i] |= FLAG_PINNED;
            }
            Some(_) => return false,
            None => {
                self.agents.target[i] = NO_TARGET;
                self.agents.flags[i] &= !FLAG_PINNED;
                self.agents.retarget_timer[i] = 0.0;
            }
        }
        true
    }

    /// Target slot an agent currently chases.
    pub fn agent_target(&self, id: AgentId) -> Option<u32> {
        self.ids.resolve(id).and_then(|i| (self.agents.target[i] != NO_TARGET).then_some(self.agents.target[i]))
    }

    // ----- the step -----

    pub fn stats(&self) -> StepStats {
        self.stats
    }

    /// Bytes held by the simulation state (agent arrays, ids, grid, scratch), by capacity.
    pub fn state_bytes(&self) -> usize {
        fn b<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let a = &self.agents;
        b(&a.pos)
            + b(&a.vel)
            + b(&a.facing)
            + b(&a.yaw_rate)
            + b(&a.steer)
            + b(&a.archetype)
            + b(&a.flags)
            + b(&a.target)
            + b(&a.retarget_timer)
            + b(&a.params)
            + b(&a.health)
            + b(&a.slot)
            + b(&a.seed)
            + b(&a.tier)
            + b(&a.dormant_timer)
            + b(&a.ps_cache)
            + b(&a.approach_cache)
            + b(&a.group_cache)
            + b(&a.attack)
            + b(&a.flash)
            + b(&a.cell)
            + b(&a.aware)
            + b(&self.sees)
            + b(&self.moved)
            + b(&self.lod_dist)
            + self.ids.heap_bytes()
            + self.grid.heap_bytes()
            + b(&self.next_pos)
            + b(&self.blocking_spare)
            + b(&self.partials)
    }

    pub fn time(&self) -> f64 {
        self.time
    }

    /// Mean agent position (deterministic: fixed chunks summed in order in f64).
    pub fn centroid(&mut self) -> Vec3 {
        let n = self.agents.len();
        if n == 0 {
            return Vec3::ZERO;
        }
        let chunks = n.div_ceil(CHUNK);
        self.partials.resize(chunks, DVec3::ZERO);
        let pos = &self.agents.pos;
        let partials = &mut self.partials;
        self.pool.install(|| {
            partials.par_iter_mut().zip(pos.par_chunks(CHUNK)).for_each(|(out, c)| {
                *out = c.iter().fold(DVec3::ZERO, |s, p| s + p.as_dvec3());
            })
        });
        (self.partials.iter().fold(DVec3::ZERO, |s, p| s + *p) / n as f64).as_vec3()
    }

    fn cell_size(&self, dt: f32) -> f32 {
        (2.0 * self.max_radius + self.max_speed * dt).max(self.max_spacing).max(0.25)
    }

    /// Advances the simulation by `dt` seconds (clamped to 0.1; non-finite or non-positive is ignored).
    pub fn step(&mut self, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        let started = Instant::now();
        let dt = dt.min(0.1);
        self.stats.ticks += 1;
        self.time += dt as f64;

        // The centroid only ranks targets against each other: with one (or none) it is skipped.
        let centroid = if self.targets.registered_count() > 1 { self.centroid() } else { Vec3::ZERO };
        let s = &self.settings;
        self.targets.select_active(centroid, dt, s.max_active_target_count, s.target_stickiness);
        self.stats.active_targets = self.targets.active().len();
        if let Some(nav) = self.nav.as_mut() {
            let slots = self.targets.slot_count();
            let now = self.time;
            let targets = &self.targets;
            self.pool.install(|| nav.update_targets(targets, slots, now));
        }

        let pool = self.pool.clone();
        pool.install(|| self.step_parallel(dt));
        self.stats.step_ms = started.elapsed().as_secs_f32() * 1000.0;
    }

    /// Permutes agent storage into grid order (cache locality for neighbour loops); ids follow.
    fn reorder_by_cell(&mut self, dt: f32) {
        self.agents.permute(self.grid.order(), &mut self.visited);
        self.layout += 1;
        self.unsorted = 0;
        self.reordered_at = self.stats.ticks;
        for (i, &slot) in self.agents.slot.iter().enumerate() {
            self.ids.relocate(slot, i as u32);
        }
        self.rebuild_grid(dt);
    }

    /// Dormancy and the Importance LOD ladder: a parallel pass computes each agent's inputs
    /// (distance to its target, on camera, dormant) and the ladder's rungs (`lod::rung`), then
    /// `lod::share_cap` shares out the cap.
    /// `pos` and `params` are the agents' (lent by the caller, see `classify_and_rebuild_grid`).
    #[inline(never)]
    fn classify(&mut self, dt: f32, pos: &[Vec3], params: &[AgentParams]) {
        let n = pos.len();
        self.lod_dist.resize(n, 0.0);
        let s = &self.settings;
        let (targets, camera) = (&self.targets, self.camera.as_ref());
        let a = &mut self.agents;
        self.sees.resize(n, true);
        let archetypes = &self.archetypes;
        let (target, arch) = (&a.target[..], &a.archetype[..]);
        let aware = &a.aware[..];
        let ladder = s.lod.enabled;
        // The Importance LOD ladder's per-agent rungs run in this pass too (`lod::rung`); the
        // cap is shared out after it (`lod::share_cap`).
        let counts = (
            self.lod_dist.par_chunks_mut(CHUNK),
            a.flags.par_chunks_mut(CHUNK),
            a.dormant_timer.par_chunks_mut(CHUNK),
            self.sees.par_chunks_mut(CHUNK),
            a.tier.par_chunks_mut(CHUNK),
            self.lod_scratch.chunks(n, CHUNK).par_iter_mut(),
        )
            .into_par_iter()
            .enumerate()
            .map(|(ci, (ld, flags, timer, sees, tiers, candidates))| {
                let mut counts = lod::TierCounts::default();
                for k in 0..ld.len() {
                    let i = ci * CHUNK + k;
                    let p = pos[i];
                    let dist = targets
                        .get(target[i])
                        .map_or(f32::INFINITY, |t| Vec2::new(t.position.x - p.x, t.position.z - p.z).length());
                    let on_camera = camera.is_some_and(|c| c.contains_sphere(p, params[i].radius));
                    let mut dormant = flags[k] & FLAG_DORMANT != 0;
                    if !s.dormancy_enabled || (dormant && dist < s.dormancy_distance * 0.9) {
                        dormant = false;
                        timer[k] = 0.0;
                    } else if !dormant {
                        // Only agents with a target can be far from it; an agent walking to a
                        // searched spot or a heard noise stays awake.
                        let busy = || aware[i].is_going() && archetypes[arch[i] as usize].config.perception.is_some();
                        if dist.is_finite() && dist > s.dormancy_distance && !on_camera && !busy() {
                            timer[k] += dt;
                            dormant = timer[k] >= s.dormancy_delay;
                        } else {
                            timer[k] = 0.0;
                        }
                    }
                    flags[k] = if dormant { flags[k] | FLAG_DORMANT } else { flags[k] & !FLAG_DORMANT };
                    if ladder {
                        let f = s.lod.flags(dist, on_camera, dormant);
                        lod::rung(f, &mut tiers[k], dist, i as u32, &mut counts, candidates);
                    }
                    ld[k] = dist;
                    // Plain distance sight (occlusion comes with perception).
                    let b = &archetypes[arch[i] as usize].config.behavior;
                    sees[k] = !b.use_out_of_sight || dist <= b.sight_distance;
                }
                counts
            })
            .reduce(lod::TierCounts::default, |a, b| a + b);
        self.stats.tiers = if ladder {
            lod::share_cap(&s.lod, counts, &mut self.agents.tier, &mut self.lod_scratch)
        } else {
            lod::all_full(&self.agents.flags, &mut self.agents.tier, FLAG_DORMANT)
        };
        self.count_per_target();
        self.select_pressing();
    }

    /// Agents chasing each target slot, for Surround Shape's ring size (skipped when unused).
    fn count_per_target(&mut self) {
        self.target_counts.clear();
        if !self.archetypes.iter().any(|a| a.config.behavior.use_surround_shape) {
            return;
        }
        for &t in &self.agents.target {
            if t != NO_TARGET {
                let t = t as usize;
                if self.target_counts.len() <= t {
                    self.target_counts.resize(t + 1, 0);
                }
                self.target_counts[t] += 1;
            }
        }
    }

    /// Close-Range Pressure turn-taking: per target, the nearest agents whose press window is
    /// open, up to their `max_active_attackers`, press (wherever they stand); everyone else's
    /// pressing flag is cleared.
    fn select_pressing(&mut self) {
        let uses = self.archetypes.iter().any(|a| a.config.behavior.use_pressure);
        let a = &mut self.agents;
        if !uses {
            return;
        }
        self.press_candidates.clear();
        for i in 0..a.len() {
            a.flags[i] &= !FLAG_PRESSING;
            let b = &self.archetypes[a.archetype[i] as usize].config.behavior;
            let t = a.target[i];
            if !b.use_pressure || t == NO_TARGET || a.flags[i] & FLAG_DORMANT != 0 {
                continue;
            }
            // Whoever is nearest among those whose turn it is presses, however far out a big
            // crowd has pushed the ring.
            let d = self.lod_dist[i];
            if d.is_finite() && pressure::window_open(self.time, a.seed[i], b.turn_taking_cycle, b.press_window) {
                self.press_candidates.push((t, d, i as u32, b.max_active_attackers));
            }
        }
        pressure::select_pressing(&mut self.press_candidates, &mut self.pressing);
        for &i in &self.pressing {
            a.flags[i as usize] |= FLAG_PRESSING;
        }
    }

    /// Perception (see `perception`): sight and memory, queued noises, alerts, and the next
    /// batch of sight-ray requests. Overwrites `sees` for perceiving agents. Nothing runs (and
    /// queued noises are dropped) while no archetype has a perception profile.
    fn perceive(&mut self, dt: f32) {
        if !self.any_perception {
            self.perception.noises.clear();
            self.perception.requests.clear();
            self.stats.perception = PerceptionCounts::default();
            return;
        }
        let a = &mut self.agents;
        let sight = perception::sight::SightIn {
            dt,
            archetypes: &self.archetypes,
            targets: &self.targets,
            nav: self.nav.as_ref(),
            pos: &a.pos,
            target: &a.target,
            arch: &a.archetype,
            cell: &a.cell,
            dist: &self.lod_dist,
        };
        perception::sight::sight_pass(&sight, &mut a.aware, &mut self.sees, &mut a.flags, &mut a.dormant_timer, CHUNK);
        perception::noise::apply_noises(
            &self.perception.noises,
            &self.grid,
            &self.archetypes,
            &a.archetype,
            &mut a.aware,
            &mut a.flags,
            &mut a.dormant_timer,
        );
        self.perception.noises.clear();
        let archetypes = &self.archetypes;
        let has_profile = |i: usize| archetypes[a.archetype[i] as usize].config.perception.is_some();
        let any_seer = self.max_alert > 0.0 && (0..a.len()).any(|i| self.sees[i] && has_profile(i));
        if any_seer {
            let alert = perception::memory::AlertIn {
                tick: self.stats.ticks as u32,
                archetypes,
                targets: &self.targets,
                nav: self.nav.as_ref(),
                grid: &self.grid,
                pos: &a.pos,
                target: &a.target,
                arch: &a.archetype,
                cell: &a.cell,
                seeds: &a.seed,
                sees: &self.sees,
                max_radius: self.max_alert,
            };
            perception::memory::alert_pass(&alert, &mut a.aware, &mut a.flags, &mut a.dormant_timer, CHUNK);
        }
        if self.any_ray {
            let ids = &self.ids;
            let slot = &a.slot;
            perception::sight::collect_ray_requests(
                &mut self.perception,
                archetypes,
                &self.targets,
                &a.pos,
                &a.target,
                &a.archetype,
                &a.flags,
                &self.lod_dist,
                self.settings.agent_height,
                |i| ids.id_of_slot(slot[i]),
            );
        } else {
            self.perception.requests.clear();
        }
        self.stats.perception = perception::count(&a.aware, has_profile);
    }

    /// Queues a noise heard at the next step by search-enabled agents within `radius` that see
    /// no target. False (nothing queued) for a non-finite position or a negative / non-finite
    /// radius.
    pub fn emit_noise(&mut self, position: Vec3, radius: f32) -> bool {
        self.perception.push_noise(position, radius)
    }

    /// Sight rays the engine layer should cast before the next step (PhysicsRay agents, at most
    /// the ray budget per step, round-robin).
    pub fn sight_ray_requests(&self) -> &[SightRay] {
        &self.perception.requests
    }

    /// Answers to `sight_ray_requests`, in order: true where something blocks the ray. Extra
    /// answers are ignored; agents gone or retargeted since are skipped.
    pub fn answer_sight_rays(&mut self, blocked: &[bool]) {
        for (r, &b) in self.perception.requests.iter().zip(blocked) {
            if let Some(i) = self.ids.resolve(r.agent) {
                if self.agents.target[i] == r.target {
                    self.agents.aware[i].ray = if b { perception::RAY_BLOCKED } else { perception::RAY_CLEAR };
                }
            }
        }
    }

    /// Sight rays handed out per step at most (0 disables PhysicsRay sight).
    pub fn set_sight_ray_budget(&mut self, rays: usize) {
        self.perception.ray_budget = rays.min(1 << 20);
    }

    /// An agent's perception state (meaningful for archetypes with a perception profile).
    pub fn awareness(&self, id: AgentId) -> Option<Awareness> {
        self.ids.resolve(id).map(|i| self.agents.aware[i])
    }

    /// Whether an agent is going somewhere (presses and strikes closed cells), see `Going`.
    pub fn is_going_somewhere(&self, id: AgentId) -> bool {
        let a = &self.agents;
        self.ids
            .resolve(id)
            .is_some_and(|i| Going::new(&self.archetypes, &a.archetype, &a.target, &a.flags, &a.aware, &a.pos).at(i))
    }

    /// Whether an agent is pressing its target this step (Close-Range Pressure).
    pub fn is_pressing(&self, id: AgentId) -> bool {
        self.ids.resolve(id).is_some_and(|i| self.agents.flags[i] & FLAG_PRESSING != 0)
    }

    fn step_parallel(&mut self, dt: f32) {
        let mut clock = Instant::now();
        let mut lap = || {
            let now = Instant::now();
            let ms = (now - clock).as_secs_f32() * 1000.0;
            clock = now;
            ms
        };
        let n = self.agents.len();
        self.next_pos.resize(n, Vec3::ZERO);
        // Periodically, and soon after many agents were placed out of order (a spawn wave: the
        // spawn order is arbitrary), so a crowd never runs long with scattered memory.
        let reorder = n > CHUNK && (self.stats.ticks - self.reordered_at >= REORDER_INTERVAL || self.unsorted * 8 > n);
        if reorder {
            // The reorder follows the grid's order (and rebuilds the grid for the new storage).
            if self.grid_dirty {
                self.rebuild_grid(dt);
            }
            self.reorder_by_cell(dt);
        }
        self.classify_and_rebuild_grid(dt);
        self.perceive(dt);
        self.stats.phases.classify = lap();

        self.steer_pass(dt);
        self.stats.phases.steer = lap();

        let blocked = self.settings.body_blocking && n > 1;
        // Off a flow field the blocked positions are read straight from the grid's records by
        // `finish_motion` (one pass over the agents less); settling needs them in `next_pos`.
        let from_grid = blocked && self.nav.is_none();
        if blocked {
            // The grid's records hold the current positions but its cells are those of the last
            // rebuild: a neighbour may sit up to max_speed * dt from the cell it is filed in (the
            // query itself is centred on the agent's current position), plus small corrections
            // per pass. A pair missed by a pass is only corrected a step later; it is never lost.
            let slack = self.max_speed * dt + 0.05 * self.settings.body_blocking_iterations as f32;
            body_blocking::resolve(
                &mut self.next_pos,
                &self.agents.params,
                &self.agents.flags,
                &self.agents.tier,
                &mut self.grid,
                &mut self.blocking_spare,
                &mut self.moved,
                self.settings.body_blocking_iterations,
                self.max_radius,
                slack,
                !from_grid,
                CHUNK,
            );
        }
        self.stats.phases.body_blocking = lap();

        // On a surface flow field: stay on open cells, stand on the surface.
        if let Some(nav) = &self.nav {
            let enforce = self.settings.surface_flow_enforce_cell_boundaries;
            self.pressed.resize(n, NONE);
            nav.settle(enforce, &self.agents.pos, &mut self.next_pos, &mut self.agents.cell, &mut self.pressed, CHUNK);
        }
        let bounds = self.finish_motion(dt, from_grid);
        std::mem::swap(&mut self.agents.pos, &mut self.next_pos);
        if let Some(nav) = self.nav.as_mut() {
            // Only agents that are going somewhere press (and so attack or push) a closed cell.
            let a = &self.agents;
            let going = Going::new(&self.archetypes, &a.archetype, &a.target, &a.flags, &a.aware, &a.pos);
            nav.count_pressing(&self.pressed, |i| going.at(i).then(|| a.steer[i].normalize_or_zero()));
        }
        // The grid for the new positions is built at the start of the next step (alongside the
        // classification), or by the first query before it.
        self.grid_dirty = true;
        self.pending_bounds = (n > 0).then_some(bounds);
        self.stats.phases.settle = lap();
        self.attack_pass(dt);
        self.stats.phases.attack = lap();
    }

    /// Target choice, the Importance LOD gate and every steering behaviour, per agent in
    /// parallel: writes `next_pos` (before body blocking) and the agents' steering state.
    #[inline(never)]
    fn steer_pass(&mut self, dt: f32) {
        let ctx = StepCtx {
            dt,
            time: self.time,
            ground: if self.nav.is_some() { f32::NAN } else { self.settings.ground_height },
            // (A thousandth of a metre more for rounding.)
            isolation_reach: self.max_radius + 2.0 * self.max_speed * dt + 1e-3,
            tick: self.stats.ticks as u32,
            retarget_interval: self.settings.retarget_interval,
            hysteresis: self.settings.retarget_hysteresis,
            archetypes: &self.archetypes,
            targets: &self.targets,
            grid: &self.grid,
            lod: &self.settings.lod,
            every: StepCtx::intervals(&self.settings.lod),
            target_counts: &self.target_counts,
            sees: &self.sees,
            nav: self.nav.as_ref(),
        };
        let a = &mut self.agents;
        let aware = &a.aware[..];
        let (pos, vel, params, arch, seeds, tiers, cells) =
            (&a.pos[..], &a.vel[..], &a.params[..], &a.archetype[..], &a.seed[..], &a.tier[..], &a.cell[..]);
        // Body blocking starts from the moved agents' records in the grid's cell order: each
        // agent writes its own at its rank (a permutation), sparing blocking a gather pass.
        let n = pos.len();
        let blocking = self.settings.body_blocking && n > 1;
        self.blocking_spare.resize(if blocking { n } else { 0 }, Vec4::ZERO);
        let rank = self.grid.rank();
        let records = Scatter::new(&mut self.blocking_spare);
        (
            self.next_pos.par_chunks_mut(CHUNK),
            a.facing.par_chunks_mut(CHUNK),
            a.yaw_rate.par_chunks_mut(CHUNK),
            a.steer.par_chunks_mut(CHUNK),
            a.target.par_chunks_mut(CHUNK),
            a.retarget_timer.par_chunks_mut(CHUNK),
            a.ps_cache.par_chunks_mut(CHUNK),
            a.approach_cache.par_chunks_mut(CHUNK),
            a.flags.par_chunks_mut(CHUNK),
            a.group_cache.par_chunks_mut(CHUNK),
        )
            .into_par_iter()
            .enumerate()
            .for_each(
                |(ci, (np, facing, yaw_rate, steer, target, timer, ps_cache, ap_cache, flags, group))| {
                    let base = ci * CHUNK;
                    let mut input = AgentIn { i: base, pos, vel, params, arch, seeds, tiers, cells, aware };
                    for k in 0..np.len() {
                        let i = base + k;
                        input.i = i;
                        let record = |p: Vec3| {
                            if blocking {
                                // SAFETY: `rank` is a permutation of the agent indices, and each
                                // agent writes only at its own rank.
                                unsafe { records.write(rank[i] as usize, Vec4::new(p.x, p.z, p.y, params[i].radius)) };
                            }
                        };
                        let gate = match ctx.begin(&input, &mut target[k], &mut timer[k], &mut flags[k], steer[k]) {
                            Ok(gate) => gate,
                            Err(coasted) => {
                                np[k] = coasted;
                                record(coasted);
                                continue;
                            }
                        };
                        let mut st = AgentState {
                            facing: facing[k],
                            yaw_rate: yaw_rate[k],
                            steer: steer[k],
                            target: target[k],
                            flags: flags[k],
                            ps_cache: ps_cache[k].get(),
                            approach_cache: ap_cache[k].map(Snorm2::get),
                            group_cache: group[k],
                        };
                        np[k] = ctx.agent_step(&input, &mut st, gate);
                        record(np[k]);
                        (facing[k], yaw_rate[k], steer[k], target[k], flags[k], group[k]) =
                            (st.facing, st.yaw_rate, st.steer, st.target, st.flags, st.group_cache);
                        if gate.due() {
                            // The cached pulls only change when recomputed.
                            ps_cache[k] = Snorm2::new(st.ps_cache);
                            ap_cache[k] = st.approach_cache.map(Snorm2::new);
                        }
                    }
                },
            );
    }

    /// Velocity from the motion that actually happened, the ground height off a flow field;
    /// returns the new positions' ground-plane bounds (for the grid rebuild). `from_grid`: the
    /// ground-plane positions are taken from the grid's records (body blocking left them there).
    #[inline(never)]
    fn finish_motion(&mut self, dt: f32, from_grid: bool) -> (Vec2, Vec2) {
        // Velocity is the motion that actually happened (blocking included).
        let inv_dt = 1.0 / dt;
        let ground = if self.nav.is_some() { f32::NAN } else { self.settings.ground_height };
        let params = &self.agents.params;
        let (sorted, rank) = (self.grid.sorted(), self.grid.rank());
        // The grid was rebuilt for this agent count at the start of the step.
        assert_eq!(rank.len(), self.next_pos.len(), "grid out of date in finish_motion");
        // The new positions' bounds come along.
        (
            self.agents.vel.par_chunks_mut(CHUNK),
            self.next_pos.par_chunks_mut(CHUNK),
            self.agents.pos.par_chunks(CHUNK),
            params.par_chunks(CHUNK),
            rank.par_chunks(CHUNK),
        )
            .into_par_iter()
            .map(|(v, np, p, prm, rk)| {
                let mut b = Bounds::EMPTY;
                for ((((v, np), p), prm), &k) in v.iter_mut().zip(np.iter_mut()).zip(p).zip(prm).zip(rk) {
                    if from_grid {
                        let e = sorted[k as usize];
                        (np.x, np.z) = (e.x, e.y);
                    }
                    if !ground.is_nan() {
                        np.y = ground;
                    }
                    // Being shoved moves an agent but gives it no momentum beyond its own speed.
                    *v = ((*np - *p) * inv_dt).clamp_length_max(prm.max_speed);
                    b = Bounds::with(b, *np);
                }
                b
            })
            .reduce(|| Bounds::EMPTY, Bounds::union)
    }

    /// Swings and contact damage after movement; hits become this step's events.
    fn attack_pass(&mut self, dt: f32) {
        self.events.clear();
        self.agents.flash.iter_mut().for_each(|f| *f = (*f - dt).max(0.0));
        if !self.archetypes.iter().any(|a| a.config.attack.is_some()) {
            return;
        }
        let a = &mut self.agents;
        let (targets, archetypes) = (&self.targets, &self.archetypes);
        let (target, arch, flags, aware) = (&a.target, &a.archetype, &a.flags, &a.aware);
        // A perceiving agent only strikes a target it sees.
        let knows = |i: usize| archetypes[arch[i] as usize].acts_on_target(&aware[i]);
        let target_pos = |i: usize| targets.get(target[i]).filter(|_| knows(i)).map(|t| (target[i], t.position));
        // An agent pressing a closed cell that something there defends strikes that instead.
        let (nav, pressed, pos) = (self.nav.as_ref(), &self.pressed, &a.pos);
        let going = Going::new(archetypes, arch, target, flags, aware, pos);
        let obstacle = |i: usize| {
            if !going.at(i) {
                return None;
            }
            let nav = nav?;
            let c = *pressed.get(i)?;
            let k = nav.attackable_box(c)?;
            let p = nav.grid.cell_center(c);
            Some((k, swarm_core_point(p, pos[i])))
        };
        let profile = |i: usize| archetypes[arch[i] as usize].config.attack.as_ref();
        let may_swing = |i: usize| {
            let f = flags[i];
            f & FLAG_DORMANT == 0
                && (!archetypes[arch[i] as usize].config.behavior.use_pressure || f & FLAG_PRESSING != 0)
        };
        let input = CombatIn {
            pos: &a.pos,
            target_pos: &target_pos,
            obstacle: &obstacle,
            profile: &profile,
            may_swing: &may_swing,
        };
        combat::combat_pass(&input, &mut a.attack, dt, CHUNK, &mut self.event_scratch, &mut self.events);
        for e in &mut self.events {
            e.agent_id = self.ids.id_of_slot(a.slot[e.agent as usize]);
        }
    }

    /// Hits landed by agents in the last step, in agent order.
    pub fn attack_events(&self) -> &[AttackEvent] {
        &self.events
    }

    /// Damages an agent (waking it and starting its hit flash). An agent whose health reaches 0
    /// dies and is despawned. Negative or non-finite amounts are refused (`Refused`).
    pub fn damage(&mut self, id: AgentId, amount: f32) -> DamageResult {
        let Some(i) = self.ids.resolve(id) else { return DamageResult::Unknown };
        if !amount.is_finite() || amount < 0.0 {
            return DamageResult::Refused;
        }
        self.agents.health[i] -= amount;
        self.agents.flash[i] = HIT_FLASH_SECONDS;
        self.agents.flags[i] &= !FLAG_DORMANT;
        self.agents.dormant_timer[i] = 0.0;
        if self.agents.health[i] <= 0.0 {
            let position = self.agents.pos[i];
            let facing = self.agents.facing[i];
            let archetype = self.agents.archetype[i];
            self.despawn(id);
            return DamageResult::Died { position, facing, archetype };
        }
        DamageResult::Hurt { health: self.agents.health[i] }
    }

    pub fn health(&self, id: AgentId) -> Option<f32> {
        self.ids.resolve(id).map(|i| self.agents.health[i])
    }

    /// The nearest agent hit by the segment `from..to` (agents are vertical cylinders of their
    /// radius and `agent_height`), with the hit point.
    pub fn raycast(&mut self, from: Vec3, to: Vec3) -> Option<(AgentId, Vec3)> {
        if !from.is_finite() || !to.is_finite() {
            return None;
        }
        self.ensure_grid();
        let (a, b) = (Vec2::new(from.x, from.z), Vec2::new(to.x, to.z));
        let seg = b - a;
        let len = seg.length();
        let step = self.grid.cell_size().max(0.25);
        let reach = step + self.max_radius;
        let samples = (len / step).ceil() as usize + 1;
        let height = self.settings.agent_height;
        let mut best: Option<(f32, u32)> = None;
        let (pos, params) = (&self.agents.pos, &self.agents.params);
        for k in 0..samples.min(1_000_000) {
            let c = a + seg * (k as f32 / (samples.max(2) - 1) as f32);
            self.grid.for_each_candidate(c, f32::NAN, reach, |j, q| {
                let r = params[j as usize].radius;
                if let Some(t) = segment_circle(a, seg, q, r) {
                    if best.is_none_or(|(bt, bj)| t < bt || (t == bt && j < bj)) {
                        let y = from.y + (to.y - from.y) * t;
                        let feet = pos[j as usize].y;
                        if y >= feet && y <= feet + height {
                            best = Some((t, j));
                        }
                    }
                }
                true
            });
        }
        best.map(|(t, j)| (self.id_at(j as usize), from + (to - from) * t))
    }
}

/// "Going somewhere", which decides who presses and strikes a closed cell: an awake agent with
/// a target when its archetype has no perception profile; with one, an agent chasing a target
/// it sees, or walking to a searched spot or a heard noise it has not reached yet.
struct Going<'a> {
    archetypes: &'a [ArchetypeRuntime],
    arch: &'a [u16],
    target: &'a [u32],
    flags: &'a [u8],
    aware: &'a [Awareness],
    pos: &'a [Vec3],
}

impl<'a> Going<'a> {
    fn new(
        archetypes: &'a [ArchetypeRuntime],
        arch: &'a [u16],
        target: &'a [u32],
        flags: &'a [u8],
        aware: &'a [Awareness],
        pos: &'a [Vec3],
    ) -> Self {
        Self { archetypes, arch, target, flags, aware, pos }
    }

    #[inline]
    fn at(&self, i: usize) -> bool {
        if self.flags[i] & FLAG_DORMANT != 0 {
            return false;
        }
        match self.archetypes[self.arch[i] as usize].config.perception {
            None => self.target[i] != NO_TARGET,
            Some(_) => memory::is_going(&self.aware[i], self.pos[i]),
        }
    }
}

fn runtime(a: Archetype) -> ArchetypeRuntime {
    ArchetypeRuntime { config: a.sanitized() }
}
