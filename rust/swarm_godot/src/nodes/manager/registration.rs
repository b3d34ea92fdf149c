//! How targets and flow modifiers get into this manager's registry and out again, and what the
//! manager reads from and writes to the registered nodes each frame.
//!
//! Targets and modifiers register when they enter the scene tree and leave when they exit it:
//! the manager listens to the tree's `node_added` / `node_removed` while it is in the tree (and
//! scans the groups once when it enters, for nodes that were there before it). A node belongs
//! to its nearest `SwarmManager` ancestor, else to the only manager in the tree. Archetypes
//! register at their first `spawn_agent` and are converted again only after their resource (or
//! one of its profiles) emitted `changed`.

use godot::classes::Engine;
use godot::prelude::*;
use swarm_core::glam::Vec3;

use super::registry::{ArchetypeEntry, ModifierEntry, Receiver, Registry, TargetEntry};
use super::SwarmManager;
use crate::convert::{to_vec3, usable_position, Checker};
use crate::lookup::TARGET_GROUP;
use crate::nodes::breakable::SwarmBreakable;
use crate::nodes::flow_modifier::{SwarmFlowModifier, MODIFIER_GROUP};
use crate::nodes::link::BoxFeedback;
use crate::nodes::target::SwarmTarget;
use crate::resources::archetype::SwarmAgentArchetype;

impl SwarmManager {
    /// Starts following the tree: nodes entering or leaving it register or unregister at once.
    pub(super) fn connect_registry(&mut self) {
        self.disconnect_registry();
        let Some(tree) = self.base().get_tree_or_null() else { return };
        let me = self.base().instance_id();
        let added = tree.signals().node_added().connect(move |node: Gd<Node>| {
            if is_registrable(&node) {
                if let Ok(mut m) = Gd::<SwarmManager>::try_from_instance_id(me) {
                    m.bind_mut().register(node);
                }
            }
        });
        let removed = tree.signals().node_removed().connect(move |node: Gd<Node>| {
            if is_registrable(&node) {
                if let Ok(mut m) = Gd::<SwarmManager>::try_from_instance_id(me) {
                    m.bind_mut().unregister(node.instance_id());
                }
            }
        });
        self.registry.connections = vec![added, removed];
        self.registry.watch_all();
    }

    pub(super) fn disconnect_registry(&mut self) {
        for c in self.registry.connections.drain(..) {
            if c.is_connected() {
                c.disconnect();
            }
        }
        self.registry.unwatch_all();
    }

    /// Registers every target and modifier in the tree that belongs to this manager and is not
    /// registered yet, and drops entries whose node left the tree (in case they left while the
    /// manager was outside it).
    pub(super) fn rescan(&mut self) {
        let Some(tree) = self.base().get_tree_or_null() else { return };
        let inside = |n: &Gd<Node>| n.is_instance_valid() && n.is_inside_tree();
        let gone: Vec<InstanceId> = (self.registry.targets.iter().map(|e| (e.id, e.node.clone().upcast::<Node>())))
            .chain(self.registry.modifiers.iter().map(|e| (e.id, e.node.clone().upcast::<Node>())))
            .filter(|(_, n)| !inside(n))
            .map(|(id, _)| id)
            .collect();
        for id in gone {
            self.unregister(id);
        }
        for group in [TARGET_GROUP, MODIFIER_GROUP] {
            for node in tree.get_nodes_in_group(group).iter_shared() {
                self.register(node);
            }
        }
    }

    /// Registers a target or modifier that belongs to this manager (no-op otherwise).
    fn register(&mut self, node: Gd<Node>) {
        let id = node.instance_id();
        if self.registry.target(id).is_some() || self.registry.modifiers.iter().any(|e| e.id == id) {
            return;
        }
        let me = self.base().instance_id();
        if !SwarmManager::find_for(&node).is_ok_and(|m| m.instance_id() == me) {
            return;
        }
        let node = match node.try_cast::<SwarmTarget>() {
            // In the editor nothing is simulated: targets register only in a running game (so
            // the editor never makes a world); modifiers register for their setup warnings.
            Ok(_) if Engine::singleton().is_editor_hint() => return,
            Ok(t) => {
                let label = self.label();
                let (pos, priority, enabled, problems) = read_target(&t, &label);
                let w = self.world_mut();
                let handle = w.register_target(pos.unwrap_or_default(), priority);
                w.set_target_enabled(handle, enabled);
                let mut reported = Vec::new();
                report_changed(&mut reported, problems);
                self.registry.targets.push(TargetEntry { id, node: t, handle, reported });
                return;
            }
            Err(n) => n,
        };
        if let Ok(mut m) = node.try_cast::<SwarmFlowModifier>() {
            let snap = m.bind().snapshot();
            let facts = self.current_facts();
            m.bind_mut().set_manager_facts(Some(facts));
            self.registry.modifiers.push(ModifierEntry {
                node: m,
                id,
                stamped: snap,
                box_index: None,
                receiver: None,
                feedback: BoxFeedback::default(),
            });
            self.registry.modifiers_dirty = true;
        }
    }

    /// Drops a registered target (its agents are released at once) or modifier.
    fn unregister(&mut self, id: InstanceId) {
        if let Some(k) = self.registry.targets.iter().position(|e| e.id == id) {
            let e = self.registry.targets.remove(k);
            if let Some(w) = self.world.as_mut() {
                w.unregister_target(e.handle);
            }
        }
        if let Some(k) = self.registry.modifiers.iter().position(|e| e.id == id) {
            let mut e = self.registry.modifiers.remove(k);
            if e.node.is_instance_valid() {
                let mut b = e.node.bind_mut();
                b.set_manager_facts(None);
                b.set_feedback(BoxFeedback::default());
            }
            self.registry.modifiers_dirty = true;
        }
    }

    /// Reads the position, priority and enabled flag of every registered target.
    pub(super) fn sync_targets(&mut self) {
        let label = self.label();
        let Registry { targets, .. } = &mut self.registry;
        targets.retain(|e| e.node.is_instance_valid());
        let Some(w) = self.world.as_mut() else { return };
        for e in targets.iter_mut() {
            let (pos, priority, enabled, problems) = read_target(&e.node, &label);
            report_changed(&mut e.reported, problems);
            if let Some(pos) = pos {
                w.set_target_position(e.handle, pos);
            }
            w.set_target_priority(e.handle, priority);
            w.set_target_enabled(e.handle, enabled);
        }
    }

    /// The world index of an archetype resource, registering it (and watching it for edits) on
    /// first use.
    pub(super) fn archetype_index(&mut self, res: &Gd<SwarmAgentArchetype>) -> u16 {
        if let Some(i) = self.registry.archetype_index_of(res) {
            return i as u16;
        }
        let label = self.label();
        let (core, problems) = res.bind().to_core(&label);
        for p in problems {
            godot_error!("{p}");
        }
        if let Some(v) = res.bind().vertex_animation() {
            for p in v.bind().get_problems().as_slice() {
                godot_warn!("{label}: archetype {}: vertex_animation: {p}", res.bind().display_name());
            }
        }
        if res.bind().drawn_mesh().is_none() {
            godot_warn!("{label}: archetype {} has no mesh: its agents are simulated but not drawn. Set SwarmAgentArchetype.mesh", res.bind().display_name());
        }
        let index = self.world_mut().add_archetype(core.clone());
        self.registry.archetypes.push(ArchetypeEntry { res: res.clone(), core });
        self.registry.watch_archetype(res);
        let mut parent = self.to_gd().upcast::<Node3D>();
        let core = &self.registry.archetypes[index as usize].core;
        self.visuals.sync_archetype(index as usize, res, core, &mut parent);
        index
    }

    /// Applies edits made to archetype resources (and their profiles) since the last frame: only
    /// after one of them emitted `changed`.
    pub(super) fn sync_archetypes(&mut self) {
        if !self.registry.archetypes_changed.replace(false) {
            return;
        }
        let label = self.label();
        let mut parent = self.to_gd().upcast::<Node3D>();
        for i in 0..self.registry.archetypes.len() {
            let res = self.registry.archetypes[i].res.clone();
            self.registry.watch_archetype(&res);
            let (core, problems) = res.bind().to_core(&label);
            if core != self.registry.archetypes[i].core {
                for p in problems {
                    godot_error!("{p}");
                }
                if let Some(w) = self.world.as_mut() {
                    w.update_archetype(i as u16, core.clone());
                }
                self.registry.archetypes[i].core = core;
            }
            self.visuals.sync_archetype(i, &res, &self.registry.archetypes[i].core, &mut parent);
        }
    }

    /// Reads every registered modifier and restamps the whole modifier layer when one was added,
    /// removed, opened or shut, changed, moved or turned past its thresholds, or asked for it
    /// with `force_update()`.
    pub(super) fn sync_modifiers(&mut self) {
        // Noises made at the boxes (a breakable's hits and break) since the last frame.
        let mut noises = Vec::new();
        for e in &mut self.registry.modifiers {
            if e.node.is_instance_valid() {
                noises.extend(e.node.bind_mut().take_noises());
            }
        }
        for (at, radius) in noises {
            if at.is_finite() && radius.is_finite() && radius >= 0.0 {
                self.world_mut().emit_noise(to_vec3(at), radius);
            }
        }
        if self.world.as_ref().is_none_or(|w| w.surface().is_none()) {
            return;
        }
        let label = self.label();
        self.registry.modifiers.retain(|e| e.node.is_instance_valid());
        let mut dirty = std::mem::take(&mut self.registry.modifiers_dirty);
        for e in &mut self.registry.modifiers {
            let (snap, forced, attack) = {
                let mut b = e.node.bind_mut();
                (b.snapshot(), b.take_force(), b.agents_attack_it())
            };
            e.receiver = if attack { damage_receiver(&e.node) } else { None };
            if forced || snap.needs_restamp(&e.stamped) {
                e.stamped = snap;
                dirty = true;
                if let Some(p) = e.node.bind().placement_problem() {
                    godot_error!("{label}: SwarmFlowModifier '{}': {p}", e.node.get_name());
                }
            }
        }
        if !dirty {
            self.mark_attackable();
            return;
        }
        let mut boxes = Vec::with_capacity(self.registry.modifiers.len());
        for e in &mut self.registry.modifiers {
            e.box_index = (!e.stamped.open).then(|| {
                boxes.push(e.stamped.box_);
                boxes.len() - 1
            });
        }
        let nav = self.world.as_mut().unwrap().surface_mut().unwrap();
        nav.set_modifiers(&boxes, &mut self.stamp_results);
        self.mark_attackable();
        for e in &self.registry.modifiers {
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
        for e in &self.registry.modifiers {
            if let (Some(k), Some(r)) = (e.box_index, &e.receiver) {
                if let Some(f) = flags.get_mut(k) {
                    *f = r.scale > 0.0;
                }
            }
        }
        nav.set_attackable(&flags);
    }

    /// Hands each registered modifier its box's feedback from this step (pressing agents, push
    /// direction). Breakables and pushables read it from their modifier.
    pub(super) fn push_feedback(&mut self) {
        let nav = self.world.as_ref().and_then(|w| w.surface());
        for e in &mut self.registry.modifiers {
            let fb = match (e.box_index, nav) {
                (Some(k), Some(nav)) => {
                    let d = nav.push_direction(k);
                    BoxFeedback { pressing: nav.pressing_count(k) as i64, push_direction: Vector3::new(d.x, 0.0, d.y) }
                }
                _ => BoxFeedback::default(),
            };
            if fb != e.feedback && e.node.is_instance_valid() {
                e.feedback = fb;
                e.node.bind_mut().set_feedback(fb);
            }
        }
    }

    /// Hands the registered modifiers the facts their setup warnings need, when they changed
    /// (or to all of them with `force`).
    pub(super) fn push_facts(&mut self, force: bool) {
        let facts = self.current_facts();
        if !force && self.facts == Some(facts) {
            return;
        }
        self.facts = Some(facts);
        for e in &mut self.registry.modifiers {
            if e.node.is_instance_valid() {
                e.node.bind_mut().set_manager_facts(Some(facts));
                e.node.update_configuration_warnings();
            }
        }
    }

    /// Registered targets, for sight-ray exclusions and queries by handle.
    pub(super) fn target_node(&self, handle: u32) -> Option<Gd<SwarmTarget>> {
        self.registry.target_by_handle(handle).map(|e| e.node.clone())
    }
}

fn is_registrable(node: &Gd<Node>) -> bool {
    node.clone().try_cast::<SwarmTarget>().is_ok() || node.clone().try_cast::<SwarmFlowModifier>().is_ok()
}

/// A target's position (None when not finite), priority and enabled flag, with the problems
/// found, each naming the manager, the target node and the field.
fn read_target(t: &Gd<SwarmTarget>, manager: &str) -> (Option<Vec3>, f32, bool, Vec<String>) {
    let gp = t.get_global_position();
    let mut c = Checker::new(format!("{manager}: SwarmTarget '{}'", t.get_name()));
    let (priority, enabled) = {
        let b = t.bind();
        (b.priority(), b.enabled())
    };
    let priority = c.f(&swarm_core::bounds::target::PRIORITY, priority);
    let pos = if usable_position(gp) {
        Some(to_vec3(gp))
    } else {
        c.problems.push(format!("{manager}: SwarmTarget '{}': global_position {gp} is not finite or beyond 1e9 m; agents keep chasing its last valid position", t.get_name()));
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

/// What takes agents' blows on a modifier: its first child that is a SwarmBreakable (scaled by
/// its `strike_damage_scale`) or a game script with `apply_swarm_damage` (scaled by its own
/// `strike_damage_scale` property when it has one, the game's contract); else the modifier's
/// parent when it has `apply_swarm_damage` (scale 1).
fn damage_receiver(modifier: &Gd<SwarmFlowModifier>) -> Option<Receiver> {
    for child in modifier.get_children().iter_shared() {
        let id = child.instance_id();
        let child = match child.try_cast::<SwarmBreakable>() {
            Ok(b) => return Some(Receiver { id, scale: b.bind().strike_scale(), breakable: true }),
            Err(child) => child,
        };
        if child.has_method("apply_swarm_damage") {
            let scale = child.get("strike_damage_scale");
            let scale = if scale.is_nil() { 1.0 } else { scale.try_to::<f32>().unwrap_or(1.0) };
            let scale = if scale.is_finite() { scale.max(0.0) } else { 0.0 };
            return Some(Receiver { id, scale, breakable: false });
        }
    }
    let parent = modifier.get_parent()?;
    parent.has_method("apply_swarm_damage").then(|| Receiver { id: parent.instance_id(), scale: 1.0, breakable: false })
}
