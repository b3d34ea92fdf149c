//! Saving and loading the whole simulation: `save_state` frames the core state with the names
//! the manager knows its parts by (each registered target's node path relative to the manager,
//! each archetype's resource path) and the state nodes keep beside it (`saved_parts`);
//! `load_state` decodes and validates everything, binds the names to this scene's nodes and
//! resources, and only then replaces the running world and hands the nodes their state. A
//! target whose node is gone is reported and removed (its agents choose targets on their own
//! again); any other failure leaves the running simulation untouched.

use godot::classes::ResourceLoader;
use godot::global::Error;
use godot::prelude::*;
use swarm_core::save::{self, HostNames};

use super::registry::ArchetypeEntry;
use super::SwarmManager;
use crate::resources::archetype::SwarmAgentArchetype;

#[godot_api(secondary)]
impl SwarmManager {
    /// The whole simulation as bytes: every agent with all its state (perception memory,
    /// attack timers, formation orders), ids and their generations, targets (by node path),
    /// the flow field with its modifier layer and fields in progress, and the random generator;
    /// and, by node path, the state kept in nodes: each registered [SwarmFlowModifier]'s
    /// [member SwarmFlowModifier.is_open], [member SwarmFlowModifier.enabled] and
    /// [member SwarmFlowModifier.route_cost], each [SwarmBreakable]'s health and state, the
    /// generators of this manager's spawners, its directors' schedules, and every running
    /// [SwarmTrafficLane]'s vehicles.
    /// [method load_state] restores it; stepping on from there gives bit-identical results.
    /// Store the bytes with [method FileAccess.store_buffer] (see the README).
    #[func]
    pub(crate) fn save_state(&mut self) -> PackedByteArray {
        let this = self.to_gd().upcast::<Node>();
        let names = HostNames {
            targets: self
                .registry
                .targets
                .iter()
                .filter(|e| e.node.is_instance_valid())
                .map(|e| (e.handle, this.get_path_to(&e.node).to_string()))
                .collect(),
            archetypes: self.registry.archetypes.iter().map(|e| e.res.get_path().to_string()).collect(),
            parts: self.collect_parts(),
        };
        let world = self.world_mut();
        PackedByteArray::from(save::encode_named(world.state(), &names).as_slice())
    }

    /// Replaces the running simulation with one saved by [method save_state]. Returns
    /// [constant OK], or an error (with a message saying what was wrong) for damaged,
    /// truncated, empty, foreign or newer-version bytes, or a save whose archetype resources
    /// cannot be found; the running simulation is then left as it was. A saved target whose
    /// node no longer exists is reported and its agents choose their targets on their own; the
    /// state of a saved node that is gone is reported and skipped. Nodes take their saved state
    /// without emitting signals (read [method SwarmBreakable.get_state] and the like after
    /// loading). A traffic lane takes its saved vehicles only if it is built alike (same curve,
    /// vehicles and seed); one not running yet takes them when it starts.
    #[func]
    pub(crate) fn load_state(&mut self, data: PackedByteArray) -> Error {
        let (state, names) = match save::decode_named(data.as_slice()) {
            Ok(v) => v,
            Err(e) => {
                self.error("load_state", format!("{e}; the running simulation is unchanged"));
                return Error::ERR_FILE_CORRUPT;
            }
        };
        let archetypes = match self.bind_archetypes(&names.archetypes, state.archetypes_len()) {
            Ok(a) => a,
            Err(e) => {
                self.error("load_state", format!("{e}; the running simulation is unchanged"));
                return Error::ERR_FILE_NOT_FOUND;
            }
        };
        // Nothing can fail from here on.
        let mut world = self.adopt(swarm_core::World::from_state(state));
        let this = self.to_gd().upcast::<Node>();
        let mut named: Vec<(u32, NodePath)> =
            names.targets.iter().map(|(h, p)| (*h, NodePath::from(p.as_str()))).collect();
        self.registry.targets.retain(|e| e.node.is_instance_valid());
        for e in &mut self.registry.targets {
            let path = this.get_path_to(&e.node);
            match named.iter().position(|(_, p)| *p == path) {
                Some(k) => e.handle = named.swap_remove(k).0,
                None => e.handle = world.register_target(swarm_core::glam::Vec3::ZERO, 1.0),
            }
        }
        for (handle, path) in named {
            godot_warn!(
                "{}: load_state: the saved target '{path}' is not in the scene; its agents now choose their targets on their own",
                self.label()
            );
            world.unregister_target(handle);
        }
        self.registry.archetypes = archetypes;
        let mut parent = self.to_gd().upcast::<Node3D>();
        for (i, e) in self.registry.archetypes.iter().enumerate() {
            self.visuals.sync_archetype(i, &e.res, &e.core, &mut parent);
        }
        self.world = Some(world);
        self.world_settings = Some(self.current_settings().0);
        self.registry.modifiers_dirty = true;
        self.corpses.clear();
        self.visuals.invalidate();
        self.restore_parts(names.parts);
        Error::OK
    }
}

impl SwarmManager {
    /// The registry's archetype entries in the saved order: each saved resource path matched
    /// to a registered archetype, else loaded; an unnamed one (made in code) matches the
    /// registered archetype at its index when that one is unnamed too.
    fn bind_archetypes(&mut self, paths: &[String], count: usize) -> Result<Vec<ArchetypeEntry>, String> {
        let label = self.label();
        let mut out = Vec::with_capacity(count);
        for k in 0..count {
            let path = paths.get(k).map_or("", String::as_str);
            let registered = |e: &&ArchetypeEntry| {
                let p = e.res.get_path().to_string();
                if path.is_empty() {
                    p.is_empty()
                } else {
                    p == path
                }
            };
            let found = if path.is_empty() {
                self.registry.archetypes.get(k).filter(|e| registered(e))
            } else {
                self.registry.archetypes.iter().find(registered)
            };
            let res = match found {
                Some(e) => e.res.clone(),
                None if !path.is_empty() && ResourceLoader::singleton().exists(path) => ResourceLoader::singleton()
                    .load(path)
                    .and_then(|r| r.try_cast::<SwarmAgentArchetype>().ok())
                    .ok_or_else(|| format!("the saved archetype '{path}' is not a SwarmAgentArchetype"))?,
                None if path.is_empty() => {
                    return Err(format!(
                        "saved archetype {k} was made in code and this manager has no such archetype registered"
                    ))
                }
                None => return Err(format!("the saved archetype '{path}' cannot be found")),
            };
            let core = res.bind().to_core(&label).0;
            out.push(ArchetypeEntry { res, core });
        }
        for e in &out {
            self.registry.watch_archetype(&e.res);
        }
        Ok(out)
    }
}
