//! `SwarmManager`: owns one `swarm_core::World` and runs it once per physics frame.
//!
//! The frame (docs/ARCHITECTURE.md, "The frame contract"): read (settings, the registries of
//! targets, modifiers and archetypes, the flow field, the camera), step the world, write (sight
//! rays, corpses, the MultiMesh buffers, each modifier's feedback), then emit: every call into
//! game code (`apply_swarm_damage`, signals) is queued during the frame and made at its end
//! through `outbox`, after the manager has released its own borrow, so game code may call any
//! manager method from any callback.
//!
//! The class is split by concern: `api` (the methods and signals games use), `registry` and
//! `registration` (the targets, modifiers and archetypes registered with this manager), `world_sync` (settings, the
//! world and its flow field), `outbox` and `emit` (calls into game code), `sight_rays` (physics rays for
//! perception), `persistence` (save and load), `debug` (debug views and performance monitors).

mod api;
mod debug;
mod emit;
mod formations;
mod outbox;
mod persistence;
mod registration;
mod registry;
mod saved_parts;
mod sight_rays;
mod world_sync;

use godot::classes::{Engine, INode3D, MeshInstance3D, Node3D, PhysicsRayQueryParameters3D};
use godot::prelude::*;
use swarm_core::flow_field::StampResult;
use swarm_core::perception::SightRay;
use swarm_core::{Frustum, World, WorldSettings};

use crate::lookup::MANAGER_GROUP;
use crate::nodes::flow_modifier::SwarmFlowModifier;
use crate::nodes::link::ManagerFacts;
use crate::nodes::target::SwarmTarget;
use crate::resources::flow_field_data::SwarmFlowFieldData;
use crate::resources::settings::{SwarmSettings, DEFAULT_DISTANT_VISIBLE};
use crate::visuals::{Corpse, Visuals};
use outbox::Outcall;
use registry::Registry;

/// Owns a swarm: thousands of agents simulated as flat arrays in Rust and drawn through one
/// MultiMesh per archetype. Agents are not nodes: spawn them with [method spawn_agent] and refer
/// to them by the returned id. The simulation steps once per physics frame. Agents stand on this
/// node's ground plane (its global Y) and chase the [SwarmTarget] nodes registered with it.
///
/// Game code may call any method of the manager from any callback the addon makes
/// (`apply_swarm_damage`, every signal): those calls are made at the end of the manager's frame,
/// or at the end of the method that caused them, never while the manager is mid-step.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmManager {
    /// Global parameters (capacity, body blocking, target choice, threads). Empty: defaults.
    /// Capacity, threads and seed take effect while the manager has no agents.
    #[export]
    #[var(set)]
    settings: Option<Gd<SwarmSettings>>,
    /// Most targets chased at once; the manager picks them by distance from the swarm's centre,
    /// bent by [member SwarmTarget.priority].
    #[export(range = (1.0, 1024.0, 1.0))]
    #[init(val = 10)]
    max_active_target_count: i64,
    /// Seed of the random generator that draws per-agent values at spawn. The same seed, scene
    /// and inputs give the same simulation, whatever the thread count.
    #[export]
    #[init(val = 1)]
    random_seed: i64,
    /// Camera used for visibility decisions (Importance LOD, dormancy, recycling). Empty: the
    /// viewport's current camera. With no camera nothing counts as drawn.
    #[export]
    visibility_camera: NodePath,
    /// Agents walk the baked surface flow field ([member flow_field_data]): around walls, up stairs
    /// and ramps, never into a blocked cell. Off: they walk the ground plane (this node's Y).
    #[export_group(name = "Surface Flow Field")]
    #[export]
    #[var(set)]
    surface_flow_field_enabled: bool,
    /// The baked surface flow field (the Bake Flow Field button in the inspector, or
    /// [method bake_flow_field], makes it).
    #[export]
    #[var(set)]
    flow_field_data: Option<Gd<SwarmFlowFieldData>>,
    /// Size of a flow-field cell in metres (bake setting).
    #[export(range = (0.05, 4.0, 0.01, or_greater, suffix = "m"))]
    #[var(set)]
    #[init(val = 0.5)]
    cell_size: f32,
    /// Agents keep this far from walls: gaps narrower than twice it bake as blocked (bake setting).
    #[export(range = (0.0, 4.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.3)]
    clearance_radius: f32,
    /// Headroom an agent needs: surfaces under lower overhangs bake as blocked (bake setting).
    /// Also the body height of agents for [method raycast_agents].
    #[export(range = (0.01, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.8)]
    agent_height: f32,
    /// Highest step between neighbouring cells agents can climb (bake setting).
    #[export(range = (0.0, 4.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.4)]
    max_step_height: f32,
    /// The box baked, in global coordinates (bake setting).
    #[export]
    #[init(val = Aabb::new(Vector3::new(-32.0, -2.0, -32.0), Vector3::new(64.0, 12.0, 64.0)))]
    bake_bounds: Aabb,
    /// Physics layers whose colliders are ground agents walk on (bake setting).
    #[export(flags_3d_physics)]
    #[var(set)]
    #[init(val = 1)]
    walkable_mask: u32,
    /// Physics layers whose colliders are never walkable, whatever their shape (bake setting).
    #[export(flags_3d_physics)]
    #[init(val = 0)]
    unwalkable_mask: u32,
    /// Debug view: draw walkable (green) and blocked (red) cells and the direction field toward
    /// the first active target.
    #[export]
    debug_draw_flow_field: bool,

    /// Debug view: colour agents by Importance LOD tier (green Full, yellow Reduced, red Cheap,
    /// blue dormant) instead of their material.
    #[export]
    debug_draw_lod_tiers: bool,

    /// Physics layers that block sight for archetypes whose [SwarmPerceptionProfile] uses
    /// [constant SwarmPerceptionProfile.PHYSICS_RAY] (walls, closed doors). The colliders of a
    /// [SwarmTarget]'s own body (its collision-object ancestors) never block the view of it.
    #[export_group(name = "Perception")]
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    sight_collision_mask: u32,
    /// Most sight rays cast per physics frame, shared round-robin by every agent that needs one,
    /// so each agent's view refreshes every few frames and the cost stays flat however large the
    /// horde. 0 stops casting (PHYSICS_RAY agents then see nothing).
    #[export(range = (0.0, 4096.0, 1.0, or_greater))]
    #[init(val = 64)]
    sight_rays_per_frame: i64,

    world: Option<World>,
    world_settings: Option<WorldSettings>,
    /// Targets, modifiers and archetypes registered with this manager.
    registry: Registry,
    visuals: Visuals,
    /// Milliseconds the last visual sync took (instance buffers written and handed over).
    last_sync_ms: f32,
    frame: u64,
    last_full_error_frame: u64,
    settings_problem_reported: bool,
    monitors: Vec<StringName>,
    /// Dead agents still sinking away in the visuals.
    corpses: Vec<Corpse>,
    /// Which flow-field data the world holds (resource id, byte length); `None`: none.
    applied_surface: Option<(InstanceId, usize)>,
    surface_problem_reported: bool,
    debug_flow: Option<Gd<MeshInstance3D>>,
    stamp_results: Vec<StampResult>,
    /// Which data the editor's flow-field debug mesh shows.
    editor_debug_key: Option<(InstanceId, usize)>,
    /// Sight rays of this frame (copied out of the world) and their answers; reused.
    ray_requests: Vec<SightRay>,
    ray_answers: Vec<bool>,
    ray_query: Option<Gd<PhysicsRayQueryParameters3D>>,
    /// The facts last handed to the registered nodes.
    facts: Option<ManagerFacts>,
    /// Calls into game code queued during this frame (made by `flush_outbox`).
    outbox: Vec<Outcall>,

    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for SwarmManager {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(MANAGER_GROUP);
        if !Engine::singleton().is_editor_hint() {
            self.add_monitors();
        }
        self.connect_registry();
        self.rescan();
    }

    fn exit_tree(&mut self) {
        self.disconnect_registry();
        self.remove_monitors();
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            self.push_facts(false);
            self.update_editor_flow_debug();
            return;
        }
        self.frame += 1;
        // Read.
        self.sync_settings();
        self.sync_archetypes();
        self.sync_targets();
        self.sync_surface();
        self.sync_modifiers();
        self.push_facts(false);
        let camera = self.camera_frustum();
        let rays = self.sight_rays_per_frame.clamp(0, 1 << 20) as usize;
        // Step.
        let world = self.world_mut();
        world.set_camera(camera);
        world.set_sight_ray_budget(rays);
        world.step(delta as f32);
        // Write.
        self.cast_sight_rays();
        self.queue_attacks();
        self.queue_formation_arrivals();
        let dt = delta as f32;
        self.corpses.iter_mut().for_each(|c| c.age += dt);
        self.corpses.retain(|c| c.age < c.lifetime);
        self.update_flow_debug();
        self.visuals.set_debug_tiers(self.debug_draw_lod_tiers);
        let distant = self.settings.as_ref().map_or(DEFAULT_DISTANT_VISIBLE, |s| s.bind().distant_visible_distance());
        if let Some(w) = self.world.as_mut() {
            let started = std::time::Instant::now();
            self.visuals.update(w, &self.corpses, distant, dt);
            // Godot copies the buffers on this thread while the world's threads build the grid
            // the next step (or a script's query before it) would otherwise build first.
            let visuals = &mut self.visuals;
            w.build_grid_beside(|| visuals.upload());
            self.last_sync_ms = started.elapsed().as_secs_f32() * 1000.0;
        }
        self.push_feedback();
        // Emit.
        self.flush_outbox();
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        if self.surface_flow_field_enabled && self.flow_field_data.is_none() {
            w.push("Surface Flow Field is on but Flow Field Data is empty: press Bake Flow Field in the inspector (or call bake_flow_field() at run time), or turn Surface Flow Field Enabled off.");
        }
        if let Some(d) = &self.flow_field_data {
            if !d.bind().is_valid() {
                w.push("Flow Field Data is damaged or from another version: bake the flow field again.");
            }
        }
        if let Some(tree) = self.base().get_tree_or_null() {
            let n = tree.get_nodes_in_group(MANAGER_GROUP).len();
            if n > 1 {
                w.push(&format!(
                    "{n} SwarmManagers are in the scene: a SwarmTarget that is not a child of one of them cannot tell which to join. Make each target a child of its manager."
                ));
            }
        }
        w
    }
}

#[godot_api]
impl SwarmManager {
    /// Emitted after [method spawn_agent] created an agent.
    #[signal]
    fn agent_spawned(id: i64);
    /// Emitted after an agent was removed: by [method despawn_agent], or after it died.
    #[signal]
    fn agent_despawned(id: i64);
    /// Emitted when damage killed an agent, with where it stood (before [signal agent_despawned]).
    #[signal]
    fn agent_died(id: i64, position: Vector3);
    /// Emitted when an agent's attack landed on a target (after the target's parent got
    /// `apply_swarm_damage(damage, context)`, if it has that method).
    #[signal]
    fn target_attacked(target: Gd<SwarmTarget>, damage: f32, agent_id: i64);
    /// Emitted when an agent's blow landed on a door, barricade or other obstacle: `obstacle` is
    /// the [SwarmFlowModifier] whose box it pressed, `damage` what its damage receiver took (the
    /// blow times the archetype's [member SwarmAgentArchetype.obstacle_damage_scale] and the
    /// receiver's strike damage scale), after the receiver got it.
    #[signal]
    fn obstacle_attacked(obstacle: Gd<SwarmFlowModifier>, damage: f32, agent_id: i64);
    /// Emitted once per formation order, when every living agent of it has reached its slot
    /// (see [method move_in_formation]). A handler may give new orders.
    #[signal]
    fn formation_arrived(order_id: i64);

    /// Sets [member settings] (and tells the registered nodes, whose setup warnings depend on it).
    #[func]
    pub(crate) fn set_settings(&mut self, settings: Option<Gd<SwarmSettings>>) {
        self.settings = settings;
        self.push_facts(false);
    }

    /// Sets [member surface_flow_field_enabled] (and tells the registered nodes).
    #[func]
    pub(crate) fn set_surface_flow_field_enabled(&mut self, on: bool) {
        self.surface_flow_field_enabled = on;
        self.push_facts(false);
        self.base_mut().update_configuration_warnings();
    }

    /// Sets [member flow_field_data] (and tells the registered nodes).
    #[func]
    pub(crate) fn set_flow_field_data(&mut self, data: Option<Gd<SwarmFlowFieldData>>) {
        self.flow_field_data = data;
        self.push_facts(false);
        self.base_mut().update_configuration_warnings();
    }

    /// Sets [member cell_size] (and tells the registered nodes).
    #[func]
    pub(crate) fn set_cell_size(&mut self, size: f32) {
        self.cell_size = size;
        self.push_facts(false);
    }

    /// Sets [member walkable_mask] (and tells the registered nodes).
    #[func]
    pub(crate) fn set_walkable_mask(&mut self, mask: u32) {
        self.walkable_mask = mask;
        self.push_facts(false);
    }
}

impl SwarmManager {
    /// The manager `node` belongs to: its nearest `SwarmManager` ancestor (in the tree or not),
    /// else the only manager in the tree; otherwise why there is none.
    pub fn find_for(node: &Gd<Node>) -> Result<Gd<SwarmManager>, String> {
        let mut p = node.get_parent();
        while let Some(n) = p {
            match n.try_cast::<SwarmManager>() {
                Ok(m) => return Ok(m),
                Err(n) => p = n.get_parent(),
            }
        }
        crate::lookup::find_manager_node(node)?
            .try_cast::<SwarmManager>()
            .map_err(|_| "the node in group 'swarm_managers' is not a SwarmManager".into())
    }

    fn label(&self) -> String {
        format!("SwarmManager '{}'", self.base().get_name())
    }

    fn error(&self, method: &str, msg: impl std::fmt::Display) {
        godot_error!("{}: {method}: {msg}", self.label());
    }

    /// The camera that decides what counts as drawn: [member visibility_camera], else the
    /// viewport's current camera.
    pub(crate) fn camera_frustum(&self) -> Option<Frustum> {
        crate::camera::frustum(&self.base().clone().upcast(), &self.visibility_camera)
    }

    /// What the registered nodes' setup warnings need to know about this manager.
    fn current_facts(&self) -> ManagerFacts {
        let flow_cell_size = self
            .flow_field_data
            .as_ref()
            .and_then(|d| d.bind().grid().ok().map(|g| g.cell_size()))
            .unwrap_or(self.cell_size)
            .max(0.01);
        ManagerFacts {
            surface_flow_field_on: self.surface_flow_field_enabled,
            enforces_cell_boundaries: self.settings.as_ref().is_none_or(|s| s.bind().enforces_cell_boundaries()),
            flow_cell_size,
            walkable_mask: self.walkable_mask,
        }
    }
}
