//! The methods and signals game code uses: spawning, queries, damage, targets, the flow field,
//! noise and statistics. Every method validates its input at the boundary and reports bad input
//! with an error naming the manager, the method and the value.

use godot::prelude::*;
use swarm_core::{AgentId, DamageResult, SpawnError};

use super::SwarmManager;
use crate::convert::{to_vec3, to_vector3, usable_position};
use crate::flow_bake::{self, BakeSettings};
use crate::nodes::target::SwarmTarget;
use crate::resources::archetype::SwarmAgentArchetype;
use crate::resources::flow_field_data::SwarmFlowFieldData;
use crate::visuals::Corpse;

#[godot_api(secondary)]
impl SwarmManager {
    /// Creates an agent of [param archetype] at [param position] (Y is replaced by the ground
    /// height) and returns its id, or -1 when the archetype is null, the position is not finite
    /// or [member SwarmSettings.max_agents] is reached. The id stays valid until the agent is
    /// despawned.
    #[func]
    pub(crate) fn spawn_agent(&mut self, archetype: Option<Gd<SwarmAgentArchetype>>, position: Vector3) -> i64 {
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
                self.error(
                    "spawn_agent",
                    format!("position {position} is not finite or beyond 1e9 m; agent not spawned"),
                );
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
    pub(crate) fn despawn_agent(&mut self, id: i64) -> bool {
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
    pub(crate) fn is_agent_alive(&self, id: i64) -> bool {
        self.resolve(id).is_some()
    }

    /// Number of live agents.
    #[func]
    pub(crate) fn get_agent_count(&self) -> i64 {
        self.world.as_ref().map_or(0, |w| w.count() as i64)
    }

    /// Most agents alive at once ([member SwarmSettings.max_agents]).
    #[func]
    pub(crate) fn get_capacity(&self) -> i64 {
        match &self.world {
            Some(w) => w.capacity() as i64,
            None => self.current_settings().0.max_agents as i64,
        }
    }

    /// Global position of an agent's feet; [constant Vector3.ZERO] with an error for a stale id.
    #[func]
    pub(crate) fn get_agent_position(&self, id: i64) -> Vector3 {
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
    pub(crate) fn get_agent_velocity(&self, id: i64) -> Vector3 {
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
    pub(crate) fn get_agent_ids(&self) -> PackedInt64Array {
        match &self.world {
            Some(w) => w.ids().map(|a| a.to_i64()).collect(),
            None => PackedInt64Array::new(),
        }
    }

    /// Ids of the agents whose feet are within [param radius] of [param center] on the ground
    /// plane. A negative or non-finite radius is an error and returns an empty array.
    #[func]
    pub(crate) fn get_agents_in_radius(&mut self, center: Vector3, radius: f32) -> PackedInt64Array {
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
    pub(crate) fn is_any_agent_inside(&mut self, aabb: Aabb) -> bool {
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
    pub(crate) fn set_agent_target(&mut self, id: i64, target: Option<Gd<SwarmTarget>>) -> bool {
        let Some(agent) = self.resolve(id) else {
            self.stale("set_agent_target", id);
            return false;
        };
        let handle = match target {
            None => None,
            Some(t) => {
                self.sync_targets();
                match self.registry.target(t.instance_id()) {
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

    /// Moves an agent to [param position] at once (its velocity is reset; Y follows the ground; a
    /// dormant agent wakes where it is put).
    /// Returns false with an error for a stale id or a non-finite position.
    #[func]
    pub(crate) fn set_agent_position(&mut self, id: i64, position: Vector3) -> bool {
        let Some(agent) = self.resolve(id) else {
            self.stale("set_agent_position", id);
            return false;
        };
        if !usable_position(position) {
            self.error(
                "set_agent_position",
                format!("position {position} is not finite or beyond 1e9 m; agent not moved"),
            );
            return false;
        }
        self.world_mut().set_position(agent, to_vec3(position))
    }

    /// Up to [param max_count] agents that are off camera and farther than [param min_distance]
    /// from every active target: the ones a spawner may move back in front of the player
    /// without anybody seeing it. Empty when no target is active.
    #[func]
    pub(crate) fn get_recyclable_agents(&self, min_distance: f32, max_count: i64) -> PackedInt64Array {
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
    pub(crate) fn damage_agent(&mut self, id: i64, amount: f32, context: VarDictionary) -> bool {
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
    pub(crate) fn damage_agents_in_radius(&mut self, center: Vector3, radius: f32, amount: f32) -> i64 {
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
    pub(crate) fn raycast_agents(&mut self, from: Vector3, to: Vector3) -> VarDictionary {
        if !usable_position(from) || !usable_position(to) {
            self.error("raycast_agents", format!("from {from} and to {to} must be finite and within 1e9 m"));
            return VarDictionary::new();
        }
        match self.world.as_mut().and_then(|w| w.raycast(to_vec3(from), to_vec3(to))) {
            Some((id, p)) => vdict! { "id" => id.to_i64(), "position" => to_vector3(p) },
            None => VarDictionary::new(),
        }
    }

    /// Health of an agent; 0 with an error for a stale id.
    #[func]
    pub(crate) fn get_agent_health(&self, id: i64) -> f32 {
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
    pub(crate) fn get_active_targets(&self) -> Array<Gd<SwarmTarget>> {
        let mut out = Array::new();
        if let Some(w) = &self.world {
            for &h in w.targets().active() {
                if let Some(e) = self.registry.target_by_handle(h) {
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
    pub(crate) fn bake_flow_field(&mut self) -> godot::global::Error {
        let settings = self.bake_settings();
        let space = self.base().get_world_3d().and_then(|w| w.get_direct_space_state());
        let Some(mut space) = space else {
            self.error("bake_flow_field", "the manager must be in the scene tree (no physics space to bake from)");
            return godot::global::Error::ERR_UNCONFIGURED;
        };
        match flow_bake::bake_now(settings, &mut space) {
            Ok(grid) => {
                self.flow_field_data = Some(SwarmFlowFieldData::from_grid(grid));
                self.push_facts(false);
                godot::global::Error::OK
            }
            Err(e) => {
                self.error("bake_flow_field", e);
                godot::global::Error::ERR_INVALID_PARAMETER
            }
        }
    }

    /// Length of the walkable route from [param from] to [param to] over the surface flow field
    /// (straight-line ground distance without one); -1 when no route exists. Toward a target
    /// whose field is built it is read off that field; otherwise it is a search, tens of
    /// microseconds across a 512 x 512 field, a little more with doors of extra cost in it (the
    /// first call after the field or its doors change builds a table of jump distances first,
    /// about 15 ms on 512 x 512).
    #[func]
    pub(crate) fn get_path_length(&mut self, from: Vector3, to: Vector3) -> f32 {
        if !from.is_finite() || !to.is_finite() {
            self.error("get_path_length", format!("from {from} and to {to} must be finite"));
            return -1.0;
        }
        self.sync_surface();
        self.world_mut().path_length(to_vec3(from), to_vec3(to)).unwrap_or(-1.0)
    }

    /// The target an agent currently chases, or null.
    #[func]
    pub(crate) fn get_agent_target(&self, id: i64) -> Option<Gd<SwarmTarget>> {
        let Some(agent) = self.resolve(id) else {
            self.stale("get_agent_target", id);
            return None;
        };
        let h = self.world.as_ref()?.agent_target(agent)?;
        self.registry.target_by_handle(h).map(|e| e.node.clone())
    }

    /// Figures of the simulation and its visual sync: `agent_count`, `capacity`, `step_ms` (last
    /// step), `sync_ms` (the last visual sync: every archetype's MultiMesh instance buffer written
    /// and handed to the renderer), `active_targets`, `registered_targets`, `ticks`, agents per
    /// Importance LOD tier (`lod_full`, `lod_reduced`, `lod_cheap`; dormant agents count as
    /// Cheap), `dormant_count`, `far_waiting` (Cheap agents of far blocks that waited out the last
    /// step untouched: such a block takes one step in every
    /// [member SwarmSettings.cheap_update_interval] steps), `flow_field_rebakes`, and
    /// agents with a [SwarmPerceptionProfile] by state: `perception_chasing` (sees its target),
    /// `perception_searching` (walks to a last seen or alerted spot), `perception_investigating`
    /// (walks to a noise), `perception_idle`; `formation_orders` (running formation orders) and
    /// `formation_agents` (agents in one).
    #[func]
    pub(crate) fn get_stats(&self) -> VarDictionary {
        let (count, stats) = match &self.world {
            Some(w) => (w.count() as i64, w.stats()),
            None => (0, Default::default()),
        };
        vdict! {
            "agent_count" => count,
            "capacity" => self.get_capacity(),
            "step_ms" => stats.step_ms as f64,
            "sync_ms" => self.last_sync_ms as f64,
            "active_targets" => stats.active_targets as i64,
            "registered_targets" => self.registry.target_count() as i64,
            "ticks" => stats.ticks as i64,
            "lod_full" => stats.tiers.full as i64,
            "lod_reduced" => stats.tiers.reduced as i64,
            "lod_cheap" => stats.tiers.cheap as i64,
            "dormant_count" => stats.tiers.dormant as i64,
            "far_waiting" => stats.far_waiting as i64,
            "flow_field_rebakes" => self.world.as_ref().map_or(0, |w| w.flow_field_rebuilds() as i64),
            "perception_chasing" => stats.perception.chasing as i64,
            "perception_searching" => stats.perception.searching as i64,
            "perception_investigating" => stats.perception.investigating as i64,
            "perception_idle" => stats.perception.idle as i64,
            "formation_orders" => self.world.as_ref().map_or(0, |w| w.formation_count() as i64),
            "formation_agents" => self.world.as_ref().map_or(0, |w| w.formation_agent_count() as i64),
        }
    }

    /// A noise at [param position] heard within [param radius] metres at the next step by agents
    /// whose [SwarmPerceptionProfile] has [member SwarmPerceptionProfile.search_enabled] on and
    /// that see no target: they walk to it and give up after their
    /// [member SwarmPerceptionProfile.forget_time]. Returns false (with an error) for a
    /// non-finite position or a negative or non-finite radius.
    #[func]
    pub(crate) fn emit_noise(&mut self, position: Vector3, radius: f32) -> bool {
        if !usable_position(position) {
            self.error(
                "emit_noise",
                format!("position {position} must be finite and within 1e9 m; the noise is ignored"),
            );
            return false;
        }
        if !(0.0..=swarm_core::bounds::load::MAX_COORD).contains(&radius) {
            self.error(
                "emit_noise",
                format!("radius {radius} must be a finite number of metres, 0 to 1e9; the noise is ignored"),
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
    pub(crate) fn get_archetype_multimesh(
        &self,
        archetype: Option<Gd<SwarmAgentArchetype>>,
    ) -> Option<Gd<godot::classes::MultiMesh>> {
        let archetype = archetype?;
        let i = self.registry.archetype_index_of(&archetype)?;
        self.visuals.per_archetype.get(i)?.as_ref().map(|v| v.multimesh.clone())
    }
}

impl SwarmManager {
    /// The bake settings of this manager's properties (validated by the bake).
    pub(crate) fn bake_settings(&self) -> BakeSettings {
        BakeSettings {
            bounds: crate::convert::to_bake_bounds(self.bake_bounds),
            cell_size: self.cell_size,
            clearance_radius: self.clearance_radius,
            agent_height: self.agent_height,
            max_step_height: self.max_step_height,
            walkable_mask: self.walkable_mask,
            unwalkable_mask: self.unwalkable_mask,
        }
    }

    fn apply_damage(&mut self, agent: AgentId, amount: f32) {
        let result = self.world_mut().damage(agent, amount);
        if let DamageResult::Died { position, facing, archetype } = result {
            let lifetime = self.visuals.corpse_seconds(archetype as usize);
            self.corpses.push(Corpse { archetype, pos: position, facing, age: 0.0, lifetime });
            let id = agent.to_i64();
            // Typed signals are emitted through `base_mut()`: handlers may call back into the manager.
            self.signals().agent_died().emit(id, to_vector3(position));
            self.signals().agent_despawned().emit(id);
        }
    }

    fn stale(&self, method: &str, id: i64) {
        self.error(
            method,
            format!(
                "agent id {id} is stale or unknown (the agent was despawned, the id never existed, or it is another manager's)"
            ),
        );
    }

    fn resolve(&self, id: i64) -> Option<AgentId> {
        let a = AgentId::from_i64(id)?;
        self.world.as_ref()?.is_alive(a).then_some(a)
    }
}
