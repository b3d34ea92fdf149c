//! The world: the public face of the simulation. A `World` is two parts side by side:
//!
//! - `state: SimState` (`state.rs`): everything that defines the simulation, serde data;
//! - `ws: Workspace` (`workspace.rs`): scratch buffers and derived caches (spatial grid,
//!   archetype maxima, per-step buffers, the last step's stats and events, the thread pool),
//!   rebuilt from the state at any time.
//!
//! The split is a pair of structs rather than one struct with `#[serde(skip)]` fields so that
//! "what is saved" is a type of its own: `World::state` / `into_state` hand it out and
//! `World::from_state` builds a world around one (with a fresh workspace) that steps
//! bit-identically to the original; `World` itself serializes as its state. `step(dt)` runs the
//! pipeline in `step/` (each stage a function over the parts it reads and writes). Methods here
//! are the API: spawning, queries (which rebuild the grid on demand), targets, the surface flow
//! field, perception input and damage.

use glam::{Vec2, Vec3};
use rand::Rng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::agents::{AgentParams, Agents, NewAgent, FLAG_DORMANT, FLAG_PINNED, FLAG_PRESSING, FLAG_WAITING};
use crate::archetype::{ArchetypeMaxima, ArchetypeRuntime};
use crate::bounds::load::usable_position;
use crate::camera::Frustum;
use crate::combat::AttackEvent;
use crate::config::{Archetype, WorldSettings};
use crate::far_blocks;
use crate::flow_field::{SurfaceGrid, NONE};
use crate::ids::AgentId;
use crate::perception::awareness::{Awareness, SightRay, RAY_BLOCKED, RAY_CLEAR};
use crate::snorm::Snorm2;
use crate::spatial_grid::SpatialGrid;
pub use crate::state::SimState;
pub use crate::stats::{PhaseTimes, StepStats};
pub use crate::step::chunk::CHUNK;
use crate::step::going::Going;
pub use crate::step::reorder::REORDER_INTERVAL;
use crate::step::select_targets;
use crate::surface_nav::SurfaceNav;
use crate::targets::{Targets, NO_TARGET};
pub use crate::workspace::Workspace;

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

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpawnError {
    /// `max_agents` reached.
    Full,
    UnknownArchetype,
    /// Position not finite, or beyond `bounds::load::MAX_COORD` (1e9 m) on an axis.
    InvalidPosition,
}

/// A simulation: its state and the workspace beside it (see the module comment).
pub struct World {
    pub(crate) state: SimState,
    pub(crate) ws: Workspace,
}

/// A world serializes as its state (the workspace is rebuilt on load).
impl Serialize for World {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.state.serialize(s)
    }
}

impl<'de> Deserialize<'de> for World {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        SimState::deserialize(d).map(World::from_state)
    }
}

impl Clone for World {
    /// A copy of the state with a workspace of its own.
    fn clone(&self) -> Self {
        World::from_state(self.state.clone())
    }
}

impl World {
    pub fn new(settings: WorldSettings) -> Self {
        Self::from_state(SimState::new(settings.sanitized()))
    }

    /// The generation agent slots created from now on start at (see
    /// [`crate::ids::IdTable::set_generation_base`]): give each world of a host its own, and an id of one is
    /// stale in the others. Not saved: set it again after loading.
    pub fn set_id_generation_base(&mut self, base: u32) {
        self.state.ids.set_generation_base(base);
    }

    // ----- state and workspace -----

    /// A world around `state` (a fresh workspace: thread pool, grid marked dirty). A state taken
    /// from a world (`state`, `into_state`, or serde) steps bit-identically to that world.
    pub fn from_state(state: SimState) -> Self {
        let ws = Workspace::new(&state);
        Self { state, ws }
    }

    /// The simulation state (everything that defines the world; serde data).
    pub fn state(&self) -> &SimState {
        &self.state
    }

    /// The simulation state, dropping the workspace.
    pub fn into_state(self) -> SimState {
        self.state
    }

    /// Drops every derived cache (grid, maxima, scratch contents); results are unchanged.
    pub fn reset_workspace(&mut self) {
        self.ws.reset(&self.state);
    }

    pub fn settings(&self) -> &WorldSettings {
        &self.state.settings
    }

    /// Applies new settings. Capacity and thread count take effect only through a new world;
    /// a smaller capacity than the live count is refused (returns false).
    pub fn update_settings(&mut self, settings: WorldSettings) -> bool {
        let s = settings.sanitized();
        if s.max_agents != self.state.settings.max_agents
            || s.worker_threads != self.state.settings.worker_threads
            || s.seed != self.state.settings.seed
        {
            return false;
        }
        let ground_changed = s.ground_height != self.state.settings.ground_height;
        if s.lod.enabled && !self.state.settings.lod.enabled {
            // No goal was stored while the ladder was off (nobody holds then): an agent holding
            // its steering before its first update faces on as it faces.
            let a = &mut self.state.agents;
            a.goal.iter_mut().zip(&a.facing).for_each(|(g, &f)| *g = Snorm2::new(f));
        }
        self.state.settings = s;
        let fs = self.state.field_settings();
        if let Some(nav) = self.state.nav.as_mut() {
            nav.fields.set_settings(fs);
            nav.spots.set_settings(fs);
            nav.formations.set_settings(fs);
        }
        if ground_changed && self.state.nav.is_none() {
            let g = self.state.settings.ground_height;
            self.state.agents.pos.iter_mut().for_each(|p| p.y = g);
            self.everyone_moved();
        }
        true
    }

    // ----- archetypes -----

    pub fn add_archetype(&mut self, a: Archetype) -> u16 {
        self.state.archetypes.push(ArchetypeRuntime::new(a));
        self.ws.maxima = ArchetypeMaxima::of(&self.state.archetypes);
        (self.state.archetypes.len() - 1) as u16
    }

    /// Replaces an archetype's config; behaviour changes apply at once, sampled movement ranges
    /// apply to agents spawned from now on. Returns false for an unknown index.
    pub fn update_archetype(&mut self, index: u16, a: Archetype) -> bool {
        let Some(slot) = self.state.archetypes.get_mut(index as usize) else {
            return false;
        };
        let r = ArchetypeRuntime::new(a);
        if slot.config == r.config {
            return true;
        }
        let radius_changed = slot.config.agent_radius != r.config.agent_radius
            || slot.config.push_resistance != r.config.push_resistance;
        *slot = r;
        if radius_changed {
            let (radius, pr) = (slot.config.agent_radius, slot.config.push_resistance);
            for (p, &arch) in self.state.agents.params.iter_mut().zip(&self.state.agents.archetype) {
                if arch == index {
                    p.radius = radius;
                    p.push_resistance = pr;
                }
            }
            // The grid's records hold the old radii.
            self.positions_changed();
        }
        self.ws.maxima = ArchetypeMaxima::of(&self.state.archetypes);
        true
    }

    pub fn archetype_count(&self) -> usize {
        self.state.archetypes.len()
    }

    // ----- agents -----

    pub fn spawn(&mut self, archetype: u16, position: Vec3) -> Result<AgentId, SpawnError> {
        let Some(a) = self.state.archetypes.get(archetype as usize) else {
            return Err(SpawnError::UnknownArchetype);
        };
        if !usable_position(position) {
            return Err(SpawnError::InvalidPosition);
        }
        if self.state.agents.len() >= self.state.settings.max_agents {
            return Err(SpawnError::Full);
        }
        let m = &a.config.movement;
        let rng = &mut self.state.rng;
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
            goal_facing_weight: 1.0,
            velocity_facing_weight: 1.0,
        };
        let yaw = self.state.rng.random_range(-std::f32::consts::PI..std::f32::consts::PI);
        let facing = Vec2::new(yaw.sin(), yaw.cos());
        let seed = self.state.rng.random::<u32>();
        // The facing weights are drawn from the agent's own seed, not the world's generator, so
        // adding them left every other draw (and so every existing scene) as it was.
        let m = &self.state.archetypes[archetype as usize].config.movement;
        let params = AgentParams {
            goal_facing_weight: m.goal_facing_weight.at(crate::noise::hash01(seed, 0x6661_6365)),
            velocity_facing_weight: m.velocity_facing_weight.at(crate::noise::hash01(seed, 0x7665_6c6f)),
            ..params
        };
        let index = self.state.agents.len() as u32;
        let id = self.state.ids.allocate(index);
        let (pos, cell) = self.place(position);
        self.state.agents.push(NewAgent {
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
        self.state.layout += 1;
        self.state.unsorted += 1;
        Ok(id)
    }

    /// Changes whenever an agent index may hold a different agent than before (a spawn, a
    /// despawn, or the periodic reorder): per-index caches outside the world (visuals) compare it.
    pub fn layout_revision(&self) -> u64 {
        self.state.layout
    }

    /// The far-block status of each block of `far_blocks::FAR_BLOCK` agents in the last step
    /// (`far_blocks::of`; `NEAR` where not far): an agent of a `WAIT` block did not move or turn
    /// in that step, nor change how it looks but for a hit flash. Empty when no block can be
    /// far, and once anything other than a step has moved, added or removed agents.
    pub fn far_block_statuses(&self) -> &[far_blocks::Status] {
        &self.ws.far
    }

    /// By block, as `far_block_statuses`: the block's lowest and highest agent position as the
    /// last step's far-block decision read them. For a `WAIT` block these are its agents'
    /// positions now (it did not move); for any other block they may be stale.
    pub fn far_block_bounds(&self) -> &[(Vec3, Vec3)] {
        &self.ws.far_bounds
    }

    /// Something other than a step moved, added or removed agents: the grid is rebuilt before
    /// its next use, with fresh bounds.
    fn positions_changed(&mut self) {
        self.ws.positions_changed();
        self.state.grid_built_by_query = false;
    }

    /// The grid for a query between steps (rebuilt if anything moved; the state remembers that a
    /// query built it, see `SimState::grid_built_by_query`).
    pub(crate) fn ensure_grid(&mut self) {
        if self.ws.ensure_grid(&self.state.agents.pos, &self.state.agents.params) {
            self.state.grid_built_by_query = true;
        }
    }

    /// Removes an agent; false for a stale or unknown id.
    pub fn despawn(&mut self, id: AgentId) -> bool {
        let Some(i) = self.state.ids.resolve(id) else {
            return false;
        };
        if let Some(moved_slot) = self.state.agents.swap_remove(i) {
            self.state.ids.relocate(moved_slot, i as u32);
            self.state.unsorted += 1;
        }
        self.state.ids.release(id);
        self.positions_changed();
        self.state.layout += 1;
        true
    }

    pub fn is_alive(&self, id: AgentId) -> bool {
        self.state.ids.resolve(id).is_some()
    }

    /// Dense index of a live agent (valid until the next spawn or despawn).
    pub fn index_of(&self, id: AgentId) -> Option<usize> {
        self.state.ids.resolve(id)
    }

    pub fn id_at(&self, index: usize) -> AgentId {
        self.state.ids.id_of_slot(self.state.agents.slot[index])
    }

    pub fn count(&self) -> usize {
        self.state.agents.len()
    }

    pub fn capacity(&self) -> usize {
        self.state.settings.max_agents
    }

    /// The spatial grid for the agents' current positions (rebuilt first if anything moved).
    pub fn grid(&mut self) -> &SpatialGrid {
        self.ensure_grid();
        &self.ws.grid
    }

    pub fn agents(&self) -> &Agents {
        &self.state.agents
    }

    /// Runs `f` on the calling thread while the world's thread pool builds the spatial grid for
    /// the agents' positions, as the first query between steps would (the next step then uses it
    /// as it is instead of building it first). For an engine's own work between steps that leaves
    /// the pool idle, such as handing draw buffers to the renderer on the main thread: the grid
    /// rebuild, a third of a large horde's step, then runs beside it. Results are the same with or
    /// without this call: the grid is built when it is out of date and the last step's length
    /// gives a query's cells, a query before the next step uses it as the one it would build, and
    /// a step of another length builds its own.
    pub fn build_grid_beside<R>(&mut self, f: impl FnOnce() -> R) -> R {
        self.ws.build_grid_beside(&self.state.agents.pos, &self.state.agents.params, f)
    }

    /// Whether the spatial grid is built for the agents' positions as they are (the next step,
    /// or a query, then uses it as it is).
    pub fn grid_is_current(&self) -> bool {
        !self.ws.grid_dirty
    }

    /// Runs `op` on the world's thread pool (its parallel iterators use the pool's threads, which
    /// the step has just kept busy): for per-agent work of the host between steps, such as
    /// filling draw buffers, without waking a second set of threads.
    pub fn install<R: Send>(&self, op: impl FnOnce() -> R + Send) -> R {
        self.ws.pool.install(op)
    }

    pub fn position(&self, id: AgentId) -> Option<Vec3> {
        self.state.ids.resolve(id).map(|i| self.state.agents.pos[i])
    }

    pub fn velocity(&self, id: AgentId) -> Option<Vec3> {
        self.state.ids.resolve(id).map(|i| self.state.agents.vel[i])
    }

    /// Ids of every live agent, in storage order.
    pub fn ids(&self) -> impl Iterator<Item = AgentId> + '_ {
        self.state.agents.slot.iter().map(|&s| self.state.ids.id_of_slot(s))
    }

    /// Agents whose position lies within `radius` of `center` on the ground plane.
    pub fn agents_in_radius(&mut self, center: Vec3, radius: f32, out: &mut Vec<AgentId>) {
        if !center.is_finite() || !radius.is_finite() || radius < 0.0 {
            return;
        }
        self.ensure_grid();
        let mut idx = Vec::new();
        self.ws.grid.query_radius(Vec2::new(center.x, center.z), radius, &mut idx);
        idx.sort_unstable();
        out.extend(idx.into_iter().map(|i| self.id_at(i as usize)));
    }

    /// Moves an agent (teleport): velocity and steering are reset; y follows the ground. A dormant
    /// agent wakes where it is put (and dozes off again after the delay if no target is near).
    /// False for a stale id or a non-finite position.
    pub fn set_position(&mut self, id: AgentId, position: Vec3) -> bool {
        let Some(i) = self.state.ids.resolve(id) else { return false };
        if !usable_position(position) {
            return false;
        }
        (self.state.agents.pos[i], self.state.agents.cell[i]) = self.place(position);
        self.state.agents.vel[i] = Vec3::ZERO;
        self.state.agents.steer[i] = Vec2::ZERO;
        // (A far block's agent steps at once, its block with it.)
        self.state.agents.flags[i] &= !(FLAG_DORMANT | FLAG_WAITING);
        self.state.agents.dormant_timer[i] = 0.0;
        self.positions_changed();
        true
    }

    /// Wakes a dormant agent (it was hit or alerted). False for a stale id.
    pub fn wake(&mut self, id: AgentId) -> bool {
        let Some(i) = self.state.ids.resolve(id) else { return false };
        // (A far block's agent steps at once, its block with it.)
        self.state.agents.flags[i] &= !(FLAG_DORMANT | FLAG_WAITING);
        self.state.agents.dormant_timer[i] = 0.0;
        true
    }

    pub fn is_dormant(&self, id: AgentId) -> bool {
        self.state.ids.resolve(id).is_some_and(|i| self.state.agents.flags[i] & FLAG_DORMANT != 0)
    }

    /// Importance LOD tier of an agent in the last step (`lod::FULL`, `REDUCED`, `CHEAP`).
    pub fn tier(&self, id: AgentId) -> Option<u8> {
        self.state.ids.resolve(id).map(|i| self.state.agents.tier[i])
    }

    /// Where an agent put at `p` stands: on the surface flow field (nearest open cell) when one is
    /// set, else on the ground plane.
    fn place(&self, p: Vec3) -> (Vec3, u32) {
        match &self.state.nav {
            Some(nav) => {
                let c = nav.cell_under(p);
                if c == NONE {
                    (Vec3::new(p.x, self.state.settings.ground_height, p.z), NONE)
                } else if nav.grid.locate(p) == Some(c) {
                    (Vec3::new(p.x, nav.grid.ground_height(c, p), p.z), c)
                } else {
                    (nav.grid.cell_center(c), c)
                }
            }
            None => (Vec3::new(p.x, self.state.settings.ground_height, p.z), NONE),
        }
    }

    /// Sets (or removes) the surface flow field. Every agent is placed onto it at once.
    pub fn set_surface(&mut self, grid: Option<SurfaceGrid>) {
        self.state.nav = grid.map(|g| SurfaceNav::new(g, self.state.field_settings()));
        self.state.formations.forget_surface(&mut self.state.agents.seat);
        for i in 0..self.state.agents.len() {
            let (p, c) = self.place(self.state.agents.pos[i]);
            self.state.agents.pos[i] = p;
            self.state.agents.cell[i] = c;
        }
        self.everyone_moved();
        self.positions_changed();
    }

    /// Every agent was moved outside the step: far blocks step at once (and the visual sync
    /// rewrites every slot), as after any script's move, and the grid is built anew (its records
    /// hold the old positions, heights included).
    fn everyone_moved(&mut self) {
        self.state.agents.flags.iter_mut().for_each(|f| *f &= !FLAG_WAITING);
        self.ws.positions_changed();
    }

    pub fn surface(&self) -> Option<&SurfaceNav> {
        self.state.nav.as_ref()
    }

    /// The surface flow field for edits (doors and barricades stamp its modifier layer).
    pub fn surface_mut(&mut self) -> Option<&mut SurfaceNav> {
        self.state.nav.as_mut()
    }

    /// Route length between two points over the surface flow field (straight-line distance on
    /// the ground plane when there is no field); `None` when no route exists.
    pub fn path_length(&mut self, from: Vec3, to: Vec3) -> Option<f32> {
        if !from.is_finite() || !to.is_finite() {
            return None;
        }
        match self.state.nav.as_mut() {
            Some(nav) => nav.path_length(from, to),
            None => Some(Vec2::new(from.x - to.x, from.z - to.z).length()),
        }
    }

    /// Completed flow-field builds so far.
    pub fn flow_field_rebuilds(&self) -> u64 {
        self.state.nav.as_ref().map_or(0, |n| n.rebuild_count())
    }

    /// Sets the camera used for visibility decisions (`None`, or an invalid frustum: no camera,
    /// nothing counts as drawn).
    pub fn set_camera(&mut self, camera: Option<Frustum>) {
        self.state.camera = camera.filter(|c| c.is_valid());
    }

    pub fn camera(&self) -> Option<&Frustum> {
        self.state.camera.as_ref()
    }

    /// Agents that are off camera and farther than `min_distance` from every active target (all
    /// agents' distance when no target is active), in storage order, at most `max`.
    /// Spawners use it to recycle far agents back in front of the player.
    pub fn recyclable_agents(&self, min_distance: f32, max: usize, out: &mut Vec<AgentId>) {
        if !min_distance.is_finite() {
            return;
        }
        let active = self.state.active_target_points();
        if active.is_empty() {
            return;
        }
        let d2 = min_distance * min_distance;
        for i in 0..self.state.agents.len() {
            if out.len() >= max {
                break;
            }
            let p = self.state.agents.pos[i];
            let q = Vec2::new(p.x, p.z);
            if active.iter().any(|t| t.distance_squared(q) < d2) {
                continue;
            }
            if self.state.camera.as_ref().is_some_and(|c| c.contains_sphere(p, self.state.agents.params[i].radius)) {
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
        let reach = half.length() + self.ws.maxima.max_radius;
        let mut found = false;
        let (pos, params) = (&self.state.agents.pos, &self.state.agents.params);
        self.ws.grid.for_each_candidate(center, f32::NAN, reach, |j, q| {
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

    // ----- targets -----

    pub fn register_target(&mut self, position: Vec3, priority: f32) -> u32 {
        let p = if usable_position(position) { position } else { Vec3::ZERO };
        self.state.targets.register(p, priority)
    }

    /// Removes a target; every agent chasing it is released (pinned ones included).
    pub fn unregister_target(&mut self, handle: u32) -> bool {
        if !self.state.targets.unregister(handle) {
            return false;
        }
        for (t, f) in self.state.agents.target.iter_mut().zip(self.state.agents.flags.iter_mut()) {
            if *t == handle {
                *t = NO_TARGET;
                *f &= !FLAG_PINNED;
            }
        }
        true
    }

    /// Moves a target; non-finite positions are ignored (returns false).
    pub fn set_target_position(&mut self, handle: u32, position: Vec3) -> bool {
        match self.state.targets.get_mut(handle) {
            Some(t) if usable_position(position) => {
                t.position = position;
                true
            }
            _ => false,
        }
    }

    pub fn set_target_priority(&mut self, handle: u32, priority: f32) {
        self.state.targets.set_priority(handle, priority);
    }

    pub fn set_target_enabled(&mut self, handle: u32, enabled: bool) {
        if let Some(t) = self.state.targets.get_mut(handle) {
            t.enabled = enabled;
        }
    }

    pub fn targets(&self) -> &Targets {
        &self.state.targets
    }

    /// Pins an agent to a target (`Some`) or returns it to automatic choice (`None`).
    /// False for a stale agent id or an unknown target.
    pub fn set_agent_target(&mut self, id: AgentId, target: Option<u32>) -> bool {
        let Some(i) = self.state.ids.resolve(id) else {
            return false;
        };
        match target {
            Some(h) if self.state.targets.get(h).is_some() => {
                self.state.agents.target[i] = h;
                self.state.agents.flags[i] = (self.state.agents.flags[i] | FLAG_PINNED) & !FLAG_WAITING;
            }
            Some(_) => return false,
            None => {
                self.state.agents.target[i] = NO_TARGET;
                self.state.agents.flags[i] &= !(FLAG_PINNED | FLAG_WAITING);
                self.state.agents.retarget_timer[i] = 0.0;
            }
        }
        true
    }

    /// Target slot an agent currently chases.
    pub fn agent_target(&self, id: AgentId) -> Option<u32> {
        self.state
            .ids
            .resolve(id)
            .and_then(|i| (self.state.agents.target[i] != NO_TARGET).then_some(self.state.agents.target[i]))
    }

    // ----- the step -----

    pub fn stats(&self) -> StepStats {
        StepStats { ticks: self.state.ticks, ..self.ws.stats }
    }

    /// Bytes held by the simulation state (agent arrays, ids, grid, scratch), by capacity.
    pub fn state_bytes(&self) -> usize {
        fn b<T>(v: &Vec<T>) -> usize {
            v.capacity() * std::mem::size_of::<T>()
        }
        let a = &self.state.agents;
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
            + b(&a.goal)
            + b(&a.attack)
            + b(&a.flash)
            + b(&a.cell)
            + b(&a.aware)
            + b(&a.seat)
            + b(&self.ws.sees)
            + self.ws.blocking.heap_bytes()
            + b(&self.ws.lod_dist)
            + self.state.ids.heap_bytes()
            + self.ws.grid.heap_bytes()
            + b(&self.ws.next_pos)
            + b(&self.ws.blocking_spare)
            + b(&self.ws.blocking_resistance)
            + self.ws.blocking_contacts.heap_bytes()
            + b(&self.ws.partials)
            + b(&self.ws.pressed)
            + b(&self.ws.far)
            + b(&self.ws.far_bounds)
            + self.ws.cycles.heap_bytes()
            + self.ws.storage_order.capacity() * 4
    }

    pub fn time(&self) -> f64 {
        self.state.time
    }

    /// Mean agent position (deterministic: fixed chunks summed in order in f64).
    pub fn centroid(&mut self) -> Vec3 {
        select_targets::centroid(&self.ws.pool, &self.state.agents.pos, &mut self.ws.partials)
    }

    /// Advances the simulation by `dt` seconds (clamped to 0.1; non-finite or non-positive is ignored).
    pub fn step(&mut self, dt: f32) {
        if !dt.is_finite() || dt <= 0.0 {
            return;
        }
        crate::step::step(&mut self.state, &mut self.ws, dt);
    }

    /// Queues a noise heard at the next step by search-enabled agents within `radius` that see
    /// no target. False (nothing queued) for a non-finite position or a negative / non-finite
    /// radius.
    pub fn emit_noise(&mut self, position: Vec3, radius: f32) -> bool {
        self.state.perception.push_noise(position, radius)
    }

    /// Sight rays the engine layer should cast before the next step (PhysicsRay agents, at most
    /// the ray budget per step, round-robin).
    pub fn sight_ray_requests(&self) -> &[SightRay] {
        &self.state.perception.requests
    }

    /// Answers to `sight_ray_requests`, in order: true where something blocks the ray. Extra
    /// answers are ignored; agents gone or retargeted since are skipped.
    pub fn answer_sight_rays(&mut self, blocked: &[bool]) {
        for (r, &b) in self.state.perception.requests.iter().zip(blocked) {
            if let Some(i) = self.state.ids.resolve(r.agent) {
                if self.state.agents.target[i] == r.target {
                    self.state.agents.aware[i].ray = if b { RAY_BLOCKED } else { RAY_CLEAR };
                }
            }
        }
    }

    /// Sight rays handed out per step at most (0 disables PhysicsRay sight).
    pub fn set_sight_ray_budget(&mut self, rays: usize) {
        self.state.perception.ray_budget = rays.min(1 << 20);
    }

    /// An agent's perception state (meaningful for archetypes with a perception profile).
    pub fn awareness(&self, id: AgentId) -> Option<Awareness> {
        self.state.ids.resolve(id).map(|i| self.state.agents.aware[i])
    }

    /// Whether an agent is going somewhere (presses and strikes closed cells), see `Going`.
    pub fn is_going_somewhere(&self, id: AgentId) -> bool {
        let a = &self.state.agents;
        self.state.ids.resolve(id).is_some_and(|i| {
            Going::new(&self.state.archetypes, &a.archetype, &a.target, &a.flags, &a.aware, &a.pos, &a.seat).at(i)
        })
    }

    /// Whether an agent is pressing its target this step (Close-Range Pressure).
    pub fn is_pressing(&self, id: AgentId) -> bool {
        self.state.ids.resolve(id).is_some_and(|i| self.state.agents.flags[i] & FLAG_PRESSING != 0)
    }

    /// Hits landed by agents in the last step, in agent order.
    pub fn attack_events(&self) -> &[AttackEvent] {
        &self.ws.events
    }

    /// Damages an agent (waking it and starting its hit flash). An agent whose health reaches 0
    /// dies and is despawned. Negative or non-finite amounts are refused (`Refused`).
    pub fn damage(&mut self, id: AgentId, amount: f32) -> DamageResult {
        let Some(i) = self.state.ids.resolve(id) else { return DamageResult::Unknown };
        if !amount.is_finite() || amount < 0.0 {
            return DamageResult::Refused;
        }
        self.state.agents.health[i] -= amount;
        self.state.agents.flash[i] = HIT_FLASH_SECONDS;
        // (A far block's agent steps at once, its block with it.)
        self.state.agents.flags[i] &= !(FLAG_DORMANT | FLAG_WAITING);
        self.state.agents.dormant_timer[i] = 0.0;
        if self.state.agents.health[i] <= 0.0 {
            let position = self.state.agents.pos[i];
            let facing = self.state.agents.facing[i];
            let archetype = self.state.agents.archetype[i];
            self.despawn(id);
            return DamageResult::Died { position, facing, archetype };
        }
        DamageResult::Hurt { health: self.state.agents.health[i] }
    }

    pub fn health(&self, id: AgentId) -> Option<f32> {
        self.state.ids.resolve(id).map(|i| self.state.agents.health[i])
    }
}
