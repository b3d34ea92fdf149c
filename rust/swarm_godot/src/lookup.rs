//! How a node finds its manager: the nearest `SwarmManager` ancestor, else the single manager in
//! the tree's `swarm_managers` group. This module names no node type (managers are recognised by
//! their group), so the nodes a manager registers can use it without depending on the manager;
//! the typed lookup is `SwarmManager::find_for`.

use godot::prelude::*;

pub const MANAGER_GROUP: &str = "swarm_managers";
pub const TARGET_GROUP: &str = "swarm_targets";
/// Spawners, directors and traffic lanes, found by the manager when it saves their state.
pub const SPAWNER_GROUP: &str = "swarm_spawners";
pub const DIRECTOR_GROUP: &str = "swarm_directors";
pub const LANE_GROUP: &str = "swarm_traffic_lanes";

/// The manager node that `node` belongs to, or why there is none.
pub fn find_manager_node(node: &Gd<Node>) -> Result<Gd<Node>, String> {
    let mut p = node.get_parent();
    while let Some(n) = p {
        if n.is_in_group(MANAGER_GROUP) {
            return Ok(n);
        }
        p = n.get_parent();
    }
    let Some(tree) = node.get_tree_or_null() else {
        return Err("the node is not in a scene tree".into());
    };
    let managers = tree.get_nodes_in_group(MANAGER_GROUP);
    match managers.len() {
        0 => Err("no SwarmManager in the scene: add one (or make this node a child of one)".into()),
        1 => Ok(managers.at(0)),
        n => Err(format!(
            "{n} SwarmManagers in the scene and none is an ancestor: make this node a child of the one it belongs to"
        )),
    }
}
