//! `SwarmManager`: owns one `swarm_core::World`, ticks it in `_physics_process`, converts
//! resources and targets into core data once per frame, and draws through `Visuals`.

use godot::classes::node::InternalMode;
use godot::classes::{
    Camera3D, CollisionObject3D, Engine, INode3D, MeshInstance3D, Node3D, Performance, PhysicsRayQueryParameters3D,
};
use godot::prelude::*;
use swarm_core::flow_field::StampResult;
use swarm_core::glam::{Vec3, Vec4};
use swarm_core::perception::SightRay;
use swarm_core::{AgentId, Archetype, AttackEvent, DamageResult, Frustum, SpawnError, World, WorldSettings};

use crate::convert::{to_vec3, to_vector3, Checker};
use crate::flow_bake::{self, BakeSettings};
use crate::flow_debug;
use crate::lookup::{find_manager, MANAGER_GROUP, TARGET_GROUP};
use crate::nodes::flow_modifier::{ModifierSnapshot, SwarmFlowModifier, MODIFIER_GROUP};
use crate::nodes::target::SwarmTarget;
use crate::resources::archetype::SwarmAgentArchetype;
use crate::resources::flow_field_data::SwarmFlowFieldData;
use crate::resources::settings::{SwarmSettings, DEFAULT_DISTANT_VISIBLE};
use crate::visuals::{Corpse, Visuals, DEATH_SECONDS};

struct ArchetypeEntry {
    res: Gd<SwarmAgentArchetype>,
    /// Last converted config, to apply resource edits only when something changed.
    core: Archetype,
}

struct ModifierEntry {
    node: Gd<SwarmFlowModifier>,
    id: InstanceId,
    /// What was stamped last, and the box's index in the layer (`None` while open).
    stamped: ModifierSnapshot,
    box_index: Option<usize>,
    seen: bool,
    /// What takes the agents' blows, and its strike damage scale (see `damage_receiver`).
    receiver: Option<(Gd<Node>, f32)>,
}

struct TargetEntry {
    node: Gd<SwarmTarget>,
    id: InstanceId,
    handle: u32,
    seen: bool,
    /// Problems last reported for this target, so each is printed once, not every frame.
    reported: Vec<String>,
}

/// Owns a swarm: thousands of agents simulated as flat arrays in Rust and drawn through one
/// MultiMesh per archetype. Agents are not nodes: spawn them with [method spawn_agent] and refer
/// to them by the returned id. The simulation steps once per physics frame. Agents stand on this
/// node's ground plane (its global Y) and chase the [SwarmTarget] nodes registered with it.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmManager {
    /// Global parameters (capacity, body blocking, target choice, threads). Empty: defaults.
    /// Capacity, threads and seed take effect while the manager has no agents.
    #[export]
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
    surface_flow_field_enabled: bool,
    /// The baked surface flow field (the Bake Flow Field button in the inspector, or
    /// [method bake_flow_field], makes it).
    #[export]
    flow_field_data: Option<Gd<SwarmFlowFieldData>>,
    /// Size of a flow-field cell in metres (bake setting).
    #[export(range = (0.05, 4.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.5)]
    cell_size: f32,
    /// Agents keep this far from walls: gaps narrower than twice it bake as blocked (bake setting).
    #[export(range = (0.0, 4.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.3)]
    clearance_radius: f32,
    /// Headroom an agent needs: surfaces under lower overhangs bake as blocked (bake setting).
    /// Also the body height of agents for [method raycast_agents].
    #[export(range = (0.1, 10.0, 0.01, or_greater, suffix = "m"))]
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
    archetypes: Vec<ArchetypeEntry>,
    targets: Vec<TargetEntry>,
    visuals: Visuals,
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
    modifiers: Vec<ModifierEntry>,
    modifiers_dirty: bool,
    stamp_results: Vec<StampResult>,
    /// Which data the editor's flow-field debug mesh shows.
    editor_debug_key: Option<(InstanceId, usize)>,
    /// Sight rays of this frame (copied out of the world) and their answers; reused.
    ray_requests: Vec<SightRay>,
    ray_answers: Vec<bool>,
    ray_query: Option<Gd<PhysicsRayQueryParameters3D>>,

    base: Base<Node3D>,
}

#[godot_api]
impl INode3D for SwarmManager {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(MANAGER_GROUP);
        if !Engine::singleton().is_editor_hint() {
            self.add_monitors();
        }
    }

    fn exit_tree(&mut self) {
        self.remove_monitors();
    }

    fn physics_process(&mut self, delta: f64) {
        if Engine::singleton().is_editor_hint() {
            self.update_editor_flow_debug();
            return;
        }
        self.frame += 1;
        self.sync_settings();
        self.sync_archetypes();
        self.sync_targets();
        self.sync_surface();
        self.sync_modifiers();
        let camera = self.camera_frustum();
        let rays = self.sight_rays_per_frame.clamp(0, 1 << 20) as usize;
        let world = self.world_mut();
        world.set_camera(camera);
        world.set_sight_ray_budget(rays);
        world.step(delta as f32);
        self.cast_sight_rays();
        let events: Vec<AttackEvent> = self.world.as_ref().map(|w| w.attack_events().to_vec()).unwrap_or_default();
        self.deliver_attacks(&events);
        let dt = delta as f32;
        self.corpses.iter_mut().for_each(|c| c.age += dt);
        self.corpses.retain(|c| c.age < DEATH_SECONDS);
        self.update_flow_debug();
        self.visuals.set_debug_tiers(self.debug_draw_lod_tiers);
        let distant = self.settings.as_ref().map_or(DEFAULT_DISTANT_VISIBLE, |s| s.bind().distant_visible_distance());
        if let Some(w) = &self.world {
            self.visuals.update(w.agents(), w.layout_revision(), &self.corpses, w.camera(), distant);
        }
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

    /// Creates an agent of [param archetype] at [param position] (Y is replaced by the ground
    /// height) and returns its id, or -1 when the archetype is null, the position is not finite
    /// or [member SwarmSettings.max_agents] is reached. The id stays valid until the agent is
    /// despawned.
    #[func]
    fn spawn_agent(&mut self, archetype: Option<Gd<SwarmAgentArchetype>>, position: Vector3) -> i64 {
        let Some(archetype) = archetype else {
            self.error("spawn_agent", "archetype is null; pass a SwarmAgentArchetype resource");
            return -1;
        };
        let index = self.archetype_index(&archetype);
        self.sync_surface();
        let result = self.world_mut().spawn(index, to_vec3(position));
        match result {
            Ok(id) => {
                let id = id.to_i64();
                self.signals().agent_spawned().emit(id);
                id
            }
            Err(SpawnError::Full) => {
                if self.last_full_error_frame != self.frame || self.frame == 0 {
                    self.last_full_error_frame = self.frame;
                    let cap = self.world.as_ref().map_or(0, |w| w.capacity());
                    self.error("spawn_agent", format!("capacity reached (settings.max_agents = {cap}); agent not spawned. Raise SwarmSettings.max_agents"));
                }
                -1
            }
            Err(SpawnError::InvalidPosition) => {
                self.error("spawn_agent", format!("position {position} is not finite; agent not spawned"));
                -1
            }
            Err(SpawnError::UnknownArchetype) => {
                self.error("spawn_agent", "archetype could not be registered");
                -1
            }
        }
    }

    /// Removes an agent. Returns false (with an error) for a stale or unknown id.
    #[func]
    fn despawn_agent(&mut self, id: i64) -> bool {
        let ok = AgentId::from_i64(id).is_some_and(|a| self.world.as_mut().is_some_and(|w| w.despawn(a)));
        if ok {
            self.signals().agent_despawned().emit(id);
        } else {
            self.stale("despawn_agent", id);
        }
        ok
    }

    /// Whether [param id] names a live agent. Never an error: stale ids are simply false.
    #[func]
    fn is_agent_alive(&self, id: i64) -> bool {
        self.resolve(id).is_some()
    }

    /// Number of live agents.
    #[func]
    fn get_agent_count(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.count() as i64)
    }

    /// Most agents alive at once ([member SwarmSettings.max_agents]).
    #[func]
    fn get_capacity(&self) -> i64 {
        match &self.world {
            Some(w) => w.capacity() as i64,
            None => self.current_settings().0.max_agents as i64,
        }
    }

    /// Global position of an agent's feet; [constant Vector3.ZERO] with an error for a stale id.
    #[func]
    fn get_agent_position(&self, id: i64) -> Vector3 {
        match self.resolve(id).and_then(|a| self.world.as_ref()?.position(a)) {
            Some(p) => to_vector3(p),
            None => {
                self.stale("get_agent_position", id);
                Vector3::ZERO
            }
        }
    }

    /// Velocity of an agent in m/s; [constant Vector3.ZERO] with an error for a stale id.
    #[func]
    fn get_agent_velocity(&self, id: i64) -> Vector3 {
        match self.resolve(id).and_then(|a| self.world.as_ref()?.velocity(a)) {
            Some(v) => to_vector3(v),
            None => {
                self.stale("get_agent_velocity", id);
                Vector3::ZERO
            }
        }
    }

    /// Ids of every live agent.
    #[func]
    fn get_agent_ids(&self) -> PackedInt64Array {
        match &self.world {
            Some(w) => w.ids().map(|a| a.to_i64()).collect(),
            None => PackedInt64Array::new(),
        }
    }

    /// Ids of the agents whose feet are within [param radius] of [param center] on the ground
    /// plane. A negative or non-finite radius is an error and returns an empty array.
    #[func]
    fn get_agents_in_radius(&mut self, center: Vector3, radius: f32) -> PackedInt64Array {
        if !radius.is_finite() || radius < 0.0 || !center.is_finite() {
            self.error(
                "get_agents_in_radius",
                format!("center {center} and radius {radius} must be finite, radius >= 0"),
            );
            return PackedInt64Array::new();
        }
        let mut out = Vec::new();
        if let Some(w) = self.world.as_mut() {
            w.agents_in_radius(to_vec3(center), radius, &mut out);
        }
        out.into_iter().map(|a| a.to_i64()).collect()
    }

    /// Whether any agent's body overlaps [param aabb] (its footprint, with the agent's feet within
    /// its height). Door scripts use it to close only when the doorway is clear.
    #[func]
    fn is_any_agent_inside(&mut self, aabb: Aabb) -> bool {
        let a = aabb.abs();
        if !a.position.is_finite() || !a.size.is_finite() {
            self.error("is_any_agent_inside", format!("aabb {aabb} is not finite"));
            return false;
        }
        let (min, max) = (to_vec3(a.position), to_vec3(a.position + a.size));
        self.world.as_mut().is_some_and(|w| w.any_agent_inside(min, max))
    }

    /// Makes an agent chase [param target] until it is despawned or the target leaves the tree.
    /// A null target returns the agent to choosing its own. Returns false with an error for a
    /// stale id or a target that is not registered with this manager.
    #[func]
    fn set_agent_target(&mut self, id: i64, target: Option<Gd<SwarmTarget>>) -> bool {
        let Some(agent) = self.resolve(id) else {
            self.stale("set_agent_target", id);
            return false;
        };
        let handle = match target {
            None => None,
            Some(t) => {
                self.sync_targets();
                match self.targets.iter().find(|e| e.id == t.instance_id()) {
                    Some(e) => Some(e.handle),
                    None => {
                        self.error(
                            "set_agent_target",
                            format!("target '{}' is not registered with this manager: it must be in the scene tree, under this manager or with this the only manager", t.get_name()),
                        );
                        return false;
                    }
                }
            }
        };
        self.world_mut().set_agent_target(agent, handle)
    }

    /// Moves an agent to [param position] at once (its velocity is reset; Y follows the ground).
    /// Returns false with an error for a stale id or a non-finite position.
    #[func]
    fn set_agent_position(&mut self, id: i64, position: Vector3) -> bool {
        let Some(agent) = self.resolve(id) else {
            self.stale("set_agent_position", id);
            return false;
        };
        if !position.is_finite() {
            self.error("set_agent_position", format!("position {position} is not finite; agent not moved"));
            return false;
        }
        self.world_mut().set_position(agent, to_vec3(position))
    }

    /// Up to [param max_count] agents that are off camera and farther than [param min_distance]
    /// from every active target: the ones a spawner may move back in front of the player
    /// without anybody seeing it. Empty when no target is active.
    #[func]
    fn get_recyclable_agents(&self, min_distance: f32, max_count: i64) -> PackedInt64Array {
        if !min_distance.is_finite() || max_count < 0 {
            self.error(
                "get_recyclable_agents",
                format!("min_distance {min_distance} must be finite and max_count {max_count} >= 0"),
            );
            return PackedInt64Array::new();
        }
        let mut out = Vec::new();
        if let Some(w) = &self.world {
            w.recyclable_agents(min_distance, max_count as usize, &mut out);
        }
        out.into_iter().map(|a| a.to_i64()).collect()
    }

    /// Damages an agent: it flashes, wakes if dormant, and dies at 0 health ([signal agent_died],
    /// then [signal agent_despawned]). [param context] is for the game's own bookkeeping and is
    /// not read. Returns false with an error for a stale id or a negative or non-finite amount.
    #[func]
    fn damage_agent(&mut self, id: i64, amount: f32, context: VarDictionary) -> bool {
        let _ = context;
        let Some(agent) = self.resolve(id) else {
            self.stale("damage_agent", id);
            return false;
        };
        if !amount.is_finite() || amount < 0.0 {
            self.error("damage_agent", format!("amount {amount} must be a finite number >= 0"));
            return false;
        }
        self.apply_damage(agent, amount);
        true
    }

    /// Damages every agent whose feet are within [param radius] of [param center]; returns how
    /// many were hit.
    #[func]
    fn damage_agents_in_radius(&mut self, center: Vector3, radius: f32, amount: f32) -> i64 {
        if !radius.is_finite() || radius < 0.0 || !center.is_finite() || !amount.is_finite() || amount < 0.0 {
            self.error(
                "damage_agents_in_radius",
                format!("center {center}, radius {radius} and amount {amount} must be finite, radius and amount >= 0"),
            );
            return 0;
        }
        let mut hit = Vec::new();
        if let Some(w) = self.world.as_mut() {
            w.agents_in_radius(to_vec3(center), radius, &mut hit);
        }
        for &a in &hit {
            self.apply_damage(a, amount);
        }
        hit.len() as i64
    }

    /// The nearest agent the segment [param from]..[param to] passes through (agents are upright
    /// cylinders of their radius, 1.8 m tall): `{ "id": int, "position": Vector3 }`, or an empty
    /// dictionary when none.
    #[func]
    fn raycast_agents(&mut self, from: Vector3, to: Vector3) -> VarDictionary {
        if !from.is_finite() || !to.is_finite() {
            self.error("raycast_agents", format!("from {from} and to {to} must be finite"));
            return VarDictionary::new();
        }
        match self.world.as_mut().and_then(|w| w.raycast(to_vec3(from), to_vec3(to))) {
            Some((id, p)) => vdict! { "id" => id.to_i64(), "position" => to_vector3(p) },
            None => VarDictionary::new(),
        }
    }

    /// Health of an agent; 0 with an error for a stale id.
    #[func]
    fn get_agent_health(&self, id: i64) -> f32 {
        match self.resolve(id).and_then(|a| self.world.as_ref()?.health(a)) {
            Some(h) => h,
            None => {
                self.stale("get_agent_health", id);
                0.0
            }
        }
    }

    /// The targets the swarm chases this step (up to [member max_active_target_count]), nearest
    /// to the swarm's centre first (priority counted).
    #[func]
    fn get_active_targets(&self) -> Array<Gd<SwarmTarget>> {
        let mut out = Array::new();
        if let Some(w) = &self.world {
            for &h in w.targets().active() {
                if let Some(e) = self.targets.iter().find(|e| e.handle == h) {
                    out.push(&e.node);
                }
            }
        }
        out
    }

    /// Bakes the surface flow field from the physics colliders inside [member bake_bounds] (on
    /// [member walkable_mask], with [member unwalkable_mask] never walkable) with the bake
    /// settings, and stores it in [member flow_field_data]. Agents use it while
    /// [member surface_flow_field_enabled] is on. Returns [constant OK], or an error with a
    /// message naming the bad setting.
    #[func]
    fn bake_flow_field(&mut self) -> godot::global::Error {
        let settings = BakeSettings {
            bounds: crate::convert::to_bake_bounds(self.bake_bounds),
            cell_size: self.cell_size,
            clearance_radius: self.clearance_radius,
            agent_height: self.agent_height,
            max_step_height: self.max_step_height,
            walkable_mask: self.walkable_mask,
            unwalkable_mask: self.unwalkable_mask,
        };
        let space = self.base().get_world_3d().and_then(|w| w.get_direct_space_state());
        let Some(mut space) = space else {
            self.error("bake_flow_field", "the manager must be in the scene tree (no physics space to bake from)");
            return godot::global::Error::ERR_UNCONFIGURED;
        };
        match flow_bake::bake_now(settings, &mut space) {
            Ok(grid) => {
                self.flow_field_data = Some(SwarmFlowFieldData::from_grid(&grid));
                godot::global::Error::OK
            }
            Err(e) => {
                self.error("bake_flow_field", e);
                godot::global::Error::ERR_INVALID_PARAMETER
            }
        }
    }

    /// Length of the walkable route from [param from] to [param to] over the surface flow field
    /// (straight-line ground distance without one); -1 when no route exists.
    #[func]
    fn get_path_length(&mut self, from: Vector3, to: Vector3) -> f32 {
        if !from.is_finite() || !to.is_finite() {
            self.error("get_path_length", format!("from {from} and to {to} must be finite"));
            return -1.0;
        }
        self.sync_surface();
        self.world_mut().path_length(to_vec3(from), to_vec3(to)).unwrap_or(-1.0)
    }

    /// The target an agent currently chases, or null.
    #[func]
    fn get_agent_target(&self, id: i64) -> Option<Gd<SwarmTarget>> {
        let Some(agent) = self.resolve(id) else {
            self.stale("get_agent_target", id);
            return None;
        };
        let h = self.world.as_ref()?.agent_target(agent)?;
        self.targets.iter().find(|e| e.handle == h).map(|e| e.node.clone())
    }

    /// Simulation figures: `agent_count`, `capacity`, `step_ms` (last step), `active_targets`,
    /// `registered_targets`, `ticks`, agents per Importance LOD tier (`lod_full`, `lod_reduced`,
    /// `lod_cheap`; dormant agents count as Cheap), `dormant_count`, `flow_field_rebakes`, and
    /// agents with a [SwarmPerceptionProfile] by state: `perception_chasing` (sees its target),
    /// `perception_searching` (walks to a last seen or alerted spot), `perception_investigating`
    /// (walks to a noise), `perception_idle`.
    #[func]
    fn get_stats(&self) -> VarDictionary {
        let (count, stats) = match &self.world {
            Some(w) => (w.count() as i64, w.stats()),
            None => (0, Default::default()),
        };
        vdict! {
            "agent_count" => count,
            "capacity" => self.get_capacity(),
            "step_ms" => stats.step_ms as f64,
            "active_targets" => stats.active_targets as i64,
            "registered_targets" => self.targets.len() as i64,
            "ticks" => stats.ticks as i64,
            "lod_full" => stats.tiers.full as i64,
            "lod_reduced" => stats.tiers.reduced as i64,
            "lod_cheap" => stats.tiers.cheap as i64,
            "dormant_count" => stats.tiers.dormant as i64,
            "flow_field_rebakes" => self.world.as_ref().map_or(0, |w| w.flow_field_rebuilds() as i64),
            "perception_chasing" => stats.perception.chasing as i64,
            "perception_searching" => stats.perception.searching as i64,
            "perception_investigating" => stats.perception.investigating as i64,
            "perception_idle" => stats.perception.idle as i64,
        }
    }

    /// A noise at [param position] heard within [param radius] metres at the next step by agents
    /// whose [SwarmPerceptionProfile] has [member SwarmPerceptionProfile.search_enabled] on and
    /// that see no target: they walk to it and give up after their
    /// [member SwarmPerceptionProfile.forget_time]. Returns false (with an error) for a
    /// non-finite position or a negative or non-finite radius.
    #[func]
    fn emit_noise(&mut self, position: Vector3, radius: f32) -> bool {
        if !position.is_finite() {
            self.error("emit_noise", format!("position {position} must be finite; the noise is ignored"));
            return false;
        }
        if !radius.is_finite() || radius < 0.0 {
            self.error(
                "emit_noise",
                format!("radius {radius} must be a finite number of metres, 0 or more; the noise is ignored"),
            );
            return false;
        }
        if !self.world_mut().emit_noise(to_vec3(position), radius) {
            self.error("emit_noise", "too many noises this frame (256); the noise is ignored");
            return false;
        }
        true
    }

    /// The MultiMesh that draws [param archetype], or null when it has no mesh or no agent was
    /// spawned with it yet.
    #[func]
    fn get_archetype_multimesh(
        &self,
        archetype: Option<Gd<SwarmAgentArchetype>>,
    ) -> Option<Gd<godot::classes::MultiMesh>> {
        let archetype = archetype?;
        let i = self.archetypes.iter().position(|e| e.res == archetype)?;
        self.visuals.per_archetype.get(i)?.as_ref().map(|v| v.multimesh.clone())
    }

    #[func]
    fn _monitor_step_ms(&self) -> f64 {
        self.world.as_ref().map_or(0.0, |w| w.stats().step_ms as f64)
    }

    #[func]
    fn _monitor_active_targets(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.stats().active_targets as i64)
    }

    #[func]
    fn _monitor_lod_full(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.stats().tiers.full as i64)
    }

    #[func]
    fn _monitor_lod_reduced(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.stats().tiers.reduced as i64)
    }

    #[func]
    fn _monitor_lod_cheap(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.stats().tiers.cheap as i64)
    }

    #[func]
    fn _monitor_dormant(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.stats().tiers.dormant as i64)
    }
}

impl SwarmManager {
    fn apply_damage(&mut self, agent: AgentId, amount: f32) {
        let result = self.world_mut().damage(agent, amount);
        if let DamageResult::Died { position, facing, archetype } = result {
            self.corpses.push(Corpse { archetype, pos: position, facing, age: 0.0 });
            let id = agent.to_i64();
            self.signals().agent_died().emit(id, to_vector3(position));
            self.signals().agent_despawned().emit(id);
        }
    }

    /// Hands this step's hits to the game: `apply_swarm_damage(amount, context)` on the target's
    /// parent when it has that method, then [signal target_attacked].
    fn deliver_attacks(&mut self, events: &[AttackEvent]) {
        if events.is_empty() {
            return;
        }
        let me = self.to_gd();
        for e in events {
            if let Some(k) = e.obstacle {
                // A blow on a door or barricade: its damage receiver takes it, scaled.
                let receiver =
                    self.modifiers.iter().find(|m| m.box_index == Some(k as usize)).and_then(|m| m.receiver.clone());
                if let Some((mut node, scale)) = receiver {
                    if node.is_instance_valid() {
                        let context = vdict! {
                            "source" => &me.to_variant(),
                            "agent_id" => e.agent_id.to_i64(),
                            "hit_point" => to_vector3(e.point),
                            "direction" => to_vector3(e.direction),
                            "pushback" => Vector3::ZERO,
                        };
                        node.call("apply_swarm_damage", &[(e.damage * scale).to_variant(), context.to_variant()]);
                    }
                }
                continue;
            }
            let Some(target) = self.targets.iter().find(|t| t.handle == e.target).map(|t| t.node.clone()) else {
                continue;
            };
            if !target.is_instance_valid() {
                continue;
            }
            let id = e.agent_id.to_i64();
            if let Some(mut parent) = target.get_parent() {
                if parent.has_method("apply_swarm_damage") {
                    let dir = to_vector3(e.direction);
                    let context = vdict! {
                        "source" => &me.to_variant(),
                        "agent_id" => id,
                        "hit_point" => to_vector3(e.point),
                        "direction" => dir,
                        "pushback" => dir * e.pushback,
                    };
                    parent.call("apply_swarm_damage", &[e.damage.to_variant(), context.to_variant()]);
                }
            }
            self.signals().target_attacked().emit(&target, e.damage, id);
        }
    }

    /// Hands the world the flow field it should follow (when enabled and changed).
    fn sync_surface(&mut self) {
        let want = if self.surface_flow_field_enabled { self.flow_field_data.clone() } else { None };
        let key = want.as_ref().map(|d| (d.instance_id(), d.bind().revision() as usize));
        if key == self.applied_surface {
            if self.surface_flow_field_enabled && want.is_none() && !self.surface_problem_reported {
                self.surface_problem_reported = true;
                self.error(
                    "surface_flow_field_enabled",
                    "the surface flow field is on but flow_field_data is empty: press Bake Flow Field in the inspector or call bake_flow_field()",
                );
            }
            return;
        }
        self.applied_surface = key;
        self.surface_problem_reported = false;
        self.modifiers_dirty = true;
        let grid = match want {
            None => None,
            Some(d) => match d.bind().to_grid() {
                Ok(g) => Some(g),
                Err(e) => {
                    self.error("flow_field_data", e);
                    None
                }
            },
        };
        self.world_mut().set_surface(grid);
    }

    /// Reads every SwarmFlowModifier of this manager and restamps the whole modifier layer when
    /// one was added, removed, opened or shut, changed, moved or turned past its thresholds, or
    /// asked for it with `force_update()`.
    fn sync_modifiers(&mut self) {
        if self.world.as_ref().is_none_or(|w| w.surface().is_none()) {
            return;
        }
        let Some(tree) = self.base().get_tree_or_null() else { return };
        let me = self.base().instance_id();
        let label = self.label();
        for e in &mut self.modifiers {
            e.seen = false;
        }
        let mut dirty = std::mem::take(&mut self.modifiers_dirty);
        for node in tree.get_nodes_in_group(MODIFIER_GROUP).iter_shared() {
            let Ok(mut m) = node.try_cast::<SwarmFlowModifier>() else { continue };
            let id = m.instance_id();
            let (snap, forced, attack) = {
                let mut b = m.bind_mut();
                (b.snapshot(), b.take_force(), b.agents_attack_it())
            };
            let receiver = if attack { damage_receiver(&m) } else { None };
            match self.modifiers.iter_mut().find(|e| e.id == id) {
                Some(e) => {
                    e.seen = true;
                    e.receiver = receiver;
                    if forced || snap.needs_restamp(&e.stamped) {
                        e.stamped = snap;
                        dirty = true;
                    }
                }
                None => {
                    if !find_manager(&m.clone().upcast()).is_ok_and(|x| x.instance_id() == me) {
                        continue;
                    }
                    self.modifiers.push(ModifierEntry {
                        node: m,
                        id,
                        stamped: snap,
                        box_index: None,
                        seen: true,
                        receiver,
                    });
                    dirty = true;
                }
            }
        }
        let before = self.modifiers.len();
        self.modifiers.retain(|e| e.seen);
        dirty |= self.modifiers.len() != before;
        if !dirty {
            self.mark_attackable();
            return;
        }
        let mut boxes = Vec::with_capacity(self.modifiers.len());
        for e in &mut self.modifiers {
            e.box_index = (!e.stamped.open).then(|| {
                boxes.push(e.stamped.box_);
                boxes.len() - 1
            });
        }
        let nav = self.world.as_mut().unwrap().surface_mut().unwrap();
        nav.set_modifiers(&boxes, &mut self.stamp_results);
        self.mark_attackable();
        for e in &self.modifiers {
            if let Some(k) = e.box_index {
                if self.stamp_results[k].clamped {
                    godot_warn!(
                        "{label}: SwarmFlowModifier '{}': route_cost is past its ceiling ({} m); the higher cost changes nothing",
                        e.node.get_name(),
                        self.stamp_results[k].route_cost
                    );
                }
            }
        }
    }

    /// Tells the core which boxes agents strike: those whose modifier lets agents attack it and
    /// that have something taking damage with a strike damage scale above 0.
    fn mark_attackable(&mut self) {
        let Some(nav) = self.world.as_mut().and_then(|w| w.surface_mut()) else { return };
        let mut flags = vec![false; self.stamp_results.len()];
        for e in &self.modifiers {
            if let (Some(k), Some((_, scale))) = (e.box_index, &e.receiver) {
                if let Some(f) = flags.get_mut(k) {
                    *f = *scale > 0.0;
                }
            }
        }
        nav.set_attackable(&flags);
    }

    /// Mean direction the crowd pressing a modifier shoves it.
    pub fn modifier_push_direction(&self, modifier: InstanceId) -> Vector3 {
        let Some(e) = self.modifiers.iter().find(|e| e.id == modifier) else { return Vector3::ZERO };
        let (Some(k), Some(nav)) = (e.box_index, self.world.as_ref().and_then(|w| w.surface())) else {
            return Vector3::ZERO;
        };
        let d = nav.push_direction(k);
        Vector3::new(d.x, 0.0, d.y)
    }

    pub fn surface_flow_field_on(&self) -> bool {
        self.surface_flow_field_enabled
    }

    pub fn enforces_cell_boundaries(&self) -> bool {
        self.settings.as_ref().is_none_or(|s| s.bind().enforces_cell_boundaries())
    }

    /// Cell size of the baked field, else the bake setting.
    pub fn flow_cell_size(&self) -> f32 {
        self.flow_field_data
            .as_ref()
            .and_then(|d| d.bind().grid().ok().map(|g| g.cell_size()))
            .unwrap_or(self.cell_size)
            .max(0.01)
    }

    /// Agents pressing a modifier's closed cells in the last step.
    pub fn modifier_pressing_count(&self, modifier: InstanceId) -> i64 {
        let Some(e) = self.modifiers.iter().find(|e| e.id == modifier) else { return 0 };
        let (Some(k), Some(nav)) = (e.box_index, self.world.as_ref().and_then(|w| w.surface())) else { return 0 };
        nav.pressing_count(k) as i64
    }

    /// In the editor: the baked grid of [member flow_field_data] (walkable and blocked cells)
    /// while [member debug_draw_flow_field] is on, rebuilt when the data changes.
    fn update_editor_flow_debug(&mut self) {
        let key = self.flow_field_data.as_ref().map(|d| (d.instance_id(), d.bind().revision() as usize));
        let grid = match (&self.flow_field_data, self.debug_draw_flow_field) {
            (Some(d), true) => d.bind().to_grid().ok(),
            _ => None,
        };
        let Some(grid) = grid else {
            if let Some(mut d) = self.debug_flow.take() {
                d.queue_free();
            }
            self.editor_debug_key = None;
            return;
        };
        if self.debug_flow.is_some() && self.editor_debug_key == key {
            return;
        }
        self.editor_debug_key = key;
        let mesh = flow_debug::debug_mesh(&grid, None, None);
        self.show_flow_debug(&mesh);
    }

    fn show_flow_debug(&mut self, mesh: &Gd<godot::classes::ArrayMesh>) {
        let mut inst = match self.debug_flow.clone() {
            Some(i) => i,
            None => {
                let mut i = MeshInstance3D::new_alloc();
                i.set_name("SwarmFlowFieldDebug");
                i.set_as_top_level(true);
                self.base_mut().add_child_ex(&i).internal(InternalMode::FRONT).done();
                i.set_global_transform(Transform3D::IDENTITY);
                self.debug_flow = Some(i.clone());
                i
            }
        };
        inst.set_mesh(mesh);
    }

    /// The flow-field debug view: walkable and blocked cells and the first active target's
    /// direction field, rebuilt twice a second while shown.
    fn update_flow_debug(&mut self) {
        let show = self.debug_draw_flow_field && self.world.as_ref().is_some_and(|w| w.surface().is_some());
        if !show {
            if let Some(mut d) = self.debug_flow.take() {
                d.queue_free();
            }
            return;
        }
        if self.debug_flow.is_some() && !self.frame.is_multiple_of(30) {
            return;
        }
        let w = self.world.as_ref().unwrap();
        let nav = w.surface().unwrap();
        let field = w.targets().active().first().and_then(|&slot| nav.target_field(slot));
        let mesh = flow_debug::debug_mesh(&nav.grid, Some(&nav.mods), field);
        self.show_flow_debug(&mesh);
    }

    /// Casts this step's sight rays (at most [member sight_rays_per_frame], chosen round-robin by
    /// the core) against [member sight_collision_mask] and hands the answers back for the next
    /// step. A hit on the target's own body does not block.
    fn cast_sight_rays(&mut self) {
        self.ray_requests.clear();
        if let Some(w) = &self.world {
            self.ray_requests.extend_from_slice(w.sight_ray_requests());
        }
        if self.ray_requests.is_empty() {
            return;
        }
        let Some(mut space) = self.base().get_world_3d().and_then(|w| w.get_direct_space_state()) else {
            return;
        };
        let mut query = match self.ray_query.take() {
            Some(q) => q,
            None => {
                let mut q = PhysicsRayQueryParameters3D::new_gd();
                q.set_collide_with_bodies(true);
                q.set_collide_with_areas(false);
                q
            }
        };
        query.set_collision_mask(self.sight_collision_mask);
        self.ray_answers.clear();
        let mut excluded_for: Option<(u32, Array<Rid>)> = None;
        for r in &self.ray_requests {
            if excluded_for.as_ref().is_none_or(|(t, _)| *t != r.target) {
                let node = self.targets.iter().find(|e| e.handle == r.target).map(|e| e.node.clone());
                excluded_for = Some((r.target, node.map(|n| body_rids(n.upcast())).unwrap_or_default()));
            }
            if let Some((_, ex)) = &excluded_for {
                query.set_exclude(ex);
            }
            query.set_from(to_vector3(r.from));
            query.set_to(to_vector3(r.to));
            let hit = space.intersect_ray(&query);
            self.ray_answers.push(!hit.is_empty());
        }
        self.ray_query = Some(query);
        if let Some(w) = self.world.as_mut() {
            w.answer_sight_rays(&self.ray_answers);
        }
    }

    fn label(&self) -> String {
        format!("SwarmManager '{}'", self.base().get_name())
    }

    fn error(&self, method: &str, msg: impl std::fmt::Display) {
        godot_error!("{}: {method}: {msg}", self.label());
    }

    fn stale(&self, method: &str, id: i64) {
        self.error(
            method,
            format!("agent id {id} is stale or unknown (the agent was despawned, or the id never existed)"),
        );
    }

    fn resolve(&self, id: i64) -> Option<AgentId> {
        let a = AgentId::from_i64(id)?;
        self.world.as_ref()?.is_alive(a).then_some(a)
    }

    /// The camera that decides what counts as drawn: [member visibility_camera], else the
    /// viewport's current camera.
    fn camera_frustum(&self) -> Option<Frustum> {
        let cam = if self.visibility_camera.is_empty() {
            self.base().get_viewport().and_then(|v| v.get_camera_3d())
        } else {
            self.base().get_node_or_null(&self.visibility_camera).and_then(|n| n.try_cast::<Camera3D>().ok())
        }?;
        if !cam.is_inside_tree() {
            return None;
        }
        let planes =
            cam.get_frustum().iter_shared().map(|p| Vec4::new(p.normal.x, p.normal.y, p.normal.z, p.d)).collect();
        Some(Frustum { planes, position: to_vec3(cam.get_global_position()) })
    }

    fn ground_height(&self) -> f32 {
        let b = self.base();
        if b.is_inside_tree() {
            b.get_global_position().y
        } else {
            b.get_position().y
        }
    }

    /// Core settings from the resource and manager fields, with the problems found.
    fn current_settings(&self) -> (WorldSettings, Vec<String>) {
        let seed = self.random_seed as u64;
        let ground = self.ground_height();
        let mut c = Checker::new(self.label());
        let max_active = c.i("max_active_target_count", self.max_active_target_count, 1, 1024);
        let (s, mut problems) = match &self.settings {
            Some(s) => s.bind().to_core(seed, max_active, ground, &self.label()),
            None => (
                WorldSettings {
                    seed,
                    max_active_target_count: max_active as usize,
                    ground_height: ground,
                    ..Default::default()
                },
                Vec::new(),
            ),
        };
        let mut s = s;
        s.agent_height = c.f("agent_height", self.agent_height, 0.01, 1000.0, 1.8);
        problems.append(&mut c.problems);
        (s, problems)
    }

    fn world_mut(&mut self) -> &mut World {
        if self.world.is_none() {
            let (s, problems) = self.current_settings();
            for p in problems {
                godot_error!("{p}");
            }
            self.world = Some(World::new(s.clone()));
            self.visuals.invalidate();
            self.world_settings = Some(s);
        }
        self.world.as_mut().unwrap()
    }

    /// Applies edited settings. Capacity, threads and seed need a fresh world, which is made only
    /// while there are no agents (archetypes and targets are carried over).
    fn sync_settings(&mut self) {
        let (s, problems) = self.current_settings();
        if self.world_settings.as_ref() == Some(&s) {
            return;
        }
        for p in problems {
            godot_error!("{p}");
        }
        let label = self.label();
        let Some(world) = self.world.as_mut() else {
            return;
        };
        if world.update_settings(s.clone()) {
            self.world_settings = Some(s);
            self.settings_problem_reported = false;
            return;
        }
        if world.count() == 0 {
            let mut w = World::new(s.clone());
            for e in &self.archetypes {
                w.add_archetype(e.core.clone());
            }
            for t in &mut self.targets {
                t.handle = w.register_target(swarm_core::glam::Vec3::ZERO, 1.0);
            }
            self.world = Some(w);
            self.visuals.invalidate();
            // The fresh world has no flow field yet: hand it over (and restamp the modifiers).
            self.applied_surface = None;
            self.world_settings = Some(s);
        } else if !self.settings_problem_reported {
            self.settings_problem_reported = true;
            godot_error!("{label}: settings: max_agents, worker_threads and random_seed changes take effect only while the manager has no agents; despawn them first");
        }
    }

    fn archetype_index(&mut self, res: &Gd<SwarmAgentArchetype>) -> u16 {
        if let Some(i) = self.archetypes.iter().position(|e| &e.res == res) {
            return i as u16;
        }
        let label = self.label();
        let (core, problems) = res.bind().to_core(&label);
        for p in problems {
            godot_error!("{p}");
        }
        if res.bind().mesh().is_none() {
            godot_warn!("{label}: archetype {} has no mesh: its agents are simulated but not drawn. Set SwarmAgentArchetype.mesh", res.bind().display_name());
        }
        let index = self.world_mut().add_archetype(core.clone());
        self.archetypes.push(ArchetypeEntry { res: res.clone(), core });
        let mut parent = self.to_gd().upcast::<Node3D>();
        self.visuals.sync_archetype(index as usize, res, &mut parent);
        index
    }

    /// Applies edits made to archetype resources (and their profiles) since the last frame.
    fn sync_archetypes(&mut self) {
        let label = self.label();
        let mut parent = self.to_gd().upcast::<Node3D>();
        for i in 0..self.archetypes.len() {
            let res = self.archetypes[i].res.clone();
            let (core, problems) = res.bind().to_core(&label);
            if core != self.archetypes[i].core {
                for p in problems {
                    godot_error!("{p}");
                }
                if let Some(w) = self.world.as_mut() {
                    w.update_archetype(i as u16, core.clone());
                }
                self.archetypes[i].core = core;
            }
            self.visuals.sync_archetype(i, &res, &mut parent);
        }
    }

    /// Registers targets that entered the tree, reads positions of registered ones and drops
    /// those that left or were freed (their agents are released at once).
    fn sync_targets(&mut self) {
        let Some(tree) = self.base().get_tree_or_null() else {
            return;
        };
        let me = self.base().instance_id();
        let label = self.label();
        for e in &mut self.targets {
            e.seen = false;
        }
        let nodes = tree.get_nodes_in_group(TARGET_GROUP);
        let mut fresh = Vec::new();
        for node in nodes.iter_shared() {
            let Ok(t) = node.try_cast::<SwarmTarget>() else {
                continue;
            };
            let id = t.instance_id();
            let known = self.targets.iter().position(|e| e.id == id);
            if known.is_none() && !find_manager(&t.clone().upcast()).is_ok_and(|m| m.instance_id() == me) {
                continue;
            }
            let (pos, priority, enabled, problems) = read_target(&t, &label);
            match known {
                Some(k) => {
                    let e = &mut self.targets[k];
                    e.seen = true;
                    report_changed(&mut e.reported, problems);
                    if let Some(w) = self.world.as_mut() {
                        if let Some(pos) = pos {
                            w.set_target_position(e.handle, pos);
                        }
                        w.set_target_priority(e.handle, priority);
                        w.set_target_enabled(e.handle, enabled);
                    }
                }
                None => fresh.push((t, pos, priority, enabled, problems)),
            }
        }
        self.world_mut();
        let w = self.world.as_mut().unwrap();
        self.targets.retain(|e| {
            if !e.seen {
                w.unregister_target(e.handle);
            }
            e.seen
        });
        for (t, pos, priority, enabled, problems) in fresh {
            let handle = w.register_target(pos.unwrap_or_default(), priority);
            w.set_target_enabled(handle, enabled);
            let mut reported = Vec::new();
            report_changed(&mut reported, problems);
            self.targets.push(TargetEntry { id: t.instance_id(), node: t, handle, seen: true, reported });
        }
    }

    fn monitor_ids(&self) -> [(String, &'static str); 7] {
        let n = self.base().get_name();
        [
            (format!("Swarm/{n} agents"), "get_agent_count"),
            (format!("Swarm/{n} step ms"), "_monitor_step_ms"),
            (format!("Swarm/{n} active targets"), "_monitor_active_targets"),
            (format!("Swarm/{n} LOD full"), "_monitor_lod_full"),
            (format!("Swarm/{n} LOD reduced"), "_monitor_lod_reduced"),
            (format!("Swarm/{n} LOD cheap"), "_monitor_lod_cheap"),
            (format!("Swarm/{n} dormant"), "_monitor_dormant"),
        ]
    }

    fn add_monitors(&mut self) {
        let mut perf = Performance::singleton();
        let me = self.to_gd();
        for (id, method) in self.monitor_ids() {
            let id = StringName::from(id.as_str());
            if !perf.has_custom_monitor(&id) {
                perf.add_custom_monitor(&id, &Callable::from_object_method(&me, method));
                self.monitors.push(id);
            }
        }
    }

    fn remove_monitors(&mut self) {
        let mut perf = Performance::singleton();
        for id in self.monitors.drain(..) {
            if perf.has_custom_monitor(&id) {
                perf.remove_custom_monitor(&id);
            }
        }
    }
}

/// A target's position (None when not finite), priority and enabled flag, with the problems
/// found, each naming the manager, the target node and the field.
/// RIDs of the collision objects at and above `node` (a target's own body), so that sight rays
/// toward the target do not stop at it.
fn body_rids(node: Gd<Node>) -> Array<Rid> {
    let mut out = Array::new();
    let mut cur = Some(node);
    while let Some(n) = cur {
        if let Ok(co) = n.clone().try_cast::<CollisionObject3D>() {
            out.push(co.get_rid());
        }
        cur = n.get_parent();
    }
    out
}

fn read_target(t: &Gd<SwarmTarget>, manager: &str) -> (Option<Vec3>, f32, bool, Vec<String>) {
    let gp = t.get_global_position();
    let mut c = Checker::new(format!("{manager}: SwarmTarget '{}'", t.get_name()));
    let (priority, enabled) = {
        let b = t.bind();
        (b.priority(), b.enabled())
    };
    let priority = c.f("priority", priority, 0.01, 1000.0, 1.0);
    let pos = if gp.is_finite() {
        Some(to_vec3(gp))
    } else {
        c.problems.push(format!("{manager}: SwarmTarget '{}': global_position {gp} is not finite; agents keep chasing its last valid position", t.get_name()));
        None
    };
    (pos, priority, enabled, c.problems)
}

/// Prints the problems that were not already reported last time, and remembers the current set.
fn report_changed(reported: &mut Vec<String>, problems: Vec<String>) {
    for p in &problems {
        if !reported.contains(p) {
            godot_error!("{p}");
        }
    }
    *reported = problems;
}

/// What takes agents' blows on a modifier: its first child with an `apply_swarm_damage` method
/// (a SwarmBreakable, or a game script), scaled by that child's `strike_damage_scale` when it has
/// one; else the modifier's parent when it has `apply_swarm_damage` (scale 1).
fn damage_receiver(modifier: &Gd<SwarmFlowModifier>) -> Option<(Gd<Node>, f32)> {
    for child in modifier.get_children().iter_shared() {
        if child.has_method("apply_swarm_damage") {
            let scale = child.get("strike_damage_scale");
            let scale = if scale.is_nil() { 1.0 } else { scale.try_to::<f32>().unwrap_or(1.0) };
            let scale = if scale.is_finite() { scale.max(0.0) } else { 0.0 };
            return Some((child, scale));
        }
    }
    let parent = modifier.get_parent()?;
    parent.has_method("apply_swarm_damage").then_some((parent, 1.0))
}
