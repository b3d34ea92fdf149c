//! The state nodes keep beside the world, saved with it by `save_state` and handed back by
//! `load_state` (the core's `host_parts`): each registered modifier's switches and route cost,
//! each breakable under one, the spawners and directors that belong to this manager, and every
//! traffic lane in the tree (lanes belong to no manager). Each is named by its node path
//! relative to the manager. Restoring sends no signals; a saved part whose node is gone is
//! reported and skipped.

use std::panic::{catch_unwind, AssertUnwindSafe};

use godot::prelude::*;
use swarm_core::host_parts::{HostPart, PartState};

use super::SwarmManager;
use crate::lookup::{find_manager_node, DIRECTOR_GROUP, LANE_GROUP, SPAWNER_GROUP};
use crate::nodes::breakable::SwarmBreakable;
use crate::nodes::director::SwarmSpawnerDirector;
use crate::nodes::flow_modifier::SwarmFlowModifier;
use crate::nodes::spawners::AnySpawner;
use crate::nodes::traffic_lane::SwarmTrafficLane;

impl SwarmManager {
    /// Every part this manager saves, in a fixed order (modifiers, breakables, spawners,
    /// directors, lanes; each in registration or tree order).
    pub(super) fn collect_parts(&self) -> Vec<HostPart> {
        let this = self.to_gd().upcast::<Node>();
        let name = |n: &Gd<Node>| this.get_path_to(n).to_string();
        let mut out = Vec::new();
        let modifiers: Vec<Gd<SwarmFlowModifier>> =
            self.registry.modifiers.iter().map(|e| e.node.clone()).filter(|n| n.is_instance_valid()).collect();
        for m in &modifiers {
            out.push(HostPart { name: name(&m.clone().upcast()), state: m.bind().saved_part() });
        }
        for m in &modifiers {
            for child in m.get_children().iter_shared() {
                if let Ok(b) = child.try_cast::<SwarmBreakable>() {
                    out.push(HostPart { name: name(&b.clone().upcast()), state: b.bind().saved_part() });
                }
            }
        }
        for node in self.own_group_members(SPAWNER_GROUP) {
            if let Some(mut s) = AnySpawner::from_node(node.clone()) {
                out.push(HostPart { name: name(&node), state: s.saved_part() });
            }
        }
        for node in self.own_group_members(DIRECTOR_GROUP) {
            if let Ok(d) = node.clone().try_cast::<SwarmSpawnerDirector>() {
                out.push(HostPart { name: name(&node), state: d.bind().saved_part() });
            }
        }
        for node in self.group_members(LANE_GROUP) {
            if let Some(state) = node.clone().try_cast::<SwarmTrafficLane>().ok().and_then(|l| l.bind().saved_part()) {
                out.push(HostPart { name: name(&node), state });
            }
        }
        out
    }

    /// Hands each saved part to the node of its name (already checked when the save was read).
    pub(super) fn restore_parts(&self, parts: Vec<HostPart>) {
        let this = self.to_gd().upcast::<Node>();
        let label = self.label();
        for part in parts {
            let kind = part.state.kind();
            let Some(node) = this.get_node_or_null(part.name.as_str()) else {
                godot_warn!("{label}: load_state: the saved {kind} '{}' is not in the scene; skipped", part.name);
                continue;
            };
            // A node whose own signal handler called load_state is busy: say so instead of
            // failing half-way.
            let restored = catch_unwind(AssertUnwindSafe(|| restore(node, part.state)));
            match restored {
                Ok(true) => {}
                Ok(false) => godot_warn!(
                    "{label}: load_state: '{}' is no longer a {kind}; its saved state is skipped",
                    part.name
                ),
                Err(_) => godot_error!(
                    "{label}: load_state: the {kind} '{}' was busy (load_state was called from its own signal); its saved state is skipped: call load_state deferred from such handlers",
                    part.name
                ),
            }
        }
    }

    /// The members of `group` in this manager's tree.
    fn group_members(&self, group: &str) -> Vec<Gd<Node>> {
        match self.base().get_tree_or_null() {
            Some(tree) => tree.get_nodes_in_group(group).iter_shared().collect(),
            None => Vec::new(),
        }
    }

    /// The members of `group` that belong to this manager.
    fn own_group_members(&self, group: &str) -> Vec<Gd<Node>> {
        let me = self.base().instance_id();
        self.group_members(group)
            .into_iter()
            .filter(|n| find_manager_node(n).is_ok_and(|m| m.instance_id() == me))
            .collect()
    }
}

/// Gives `state` to `node`; false when the node is not of the part's kind.
fn restore(node: Gd<Node>, state: PartState) -> bool {
    match state {
        PartState::Modifier { open, enabled, route_cost } => node
            .try_cast::<SwarmFlowModifier>()
            .map(|mut m| m.bind_mut().restore_part(open, enabled, route_cost))
            .is_ok(),
        PartState::Breakable { core, switched_off, saved_route_cost } => node
            .try_cast::<SwarmBreakable>()
            .map(|mut b| b.bind_mut().restore_part(core, switched_off, saved_route_cost))
            .is_ok(),
        PartState::Spawner { seed, rng } => {
            AnySpawner::from_node(node).map(|mut s| s.restore_part(seed, rng)).is_some()
        }
        PartState::Director { schedule, cursor } => {
            node.try_cast::<SwarmSpawnerDirector>().map(|mut d| d.bind_mut().restore_part(schedule, cursor)).is_ok()
        }
        PartState::Lane(lane) => {
            node.try_cast::<SwarmTrafficLane>().map(|mut l| l.bind_mut().restore_part(lane)).is_ok()
        }
    }
}
