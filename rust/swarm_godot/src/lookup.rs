//! How a node finds its manager (SPEC section 3): the nearest `SwarmManager` ancestor, else the
//! single node in the tree's `swarm_managers` group.

use godot::prelude::*;

use crate::nodes::manager::SwarmManager;

pub const MANAGER_GROUP: &str = "swarm_managers";
pub const TARGET_GROUP: &str = "swarm_targets";

pub fn find_manager(node: &Gd<Node>) -> Result<Gd<SwarmManager>, String> {
    let mut p = node.get_parent();
    while let Some(n) = p {
        match n.try_cast::<SwarmManager>() {
            Ok(m) => return Ok(m),
            Err(n) => p = n.get_parent(),
        }
    }
    let Some(tree) = node.get_tree_or_null() else {
        return Err("the node is not in a scene tree".into());
    };
    let managers = tree.get_nodes_in_group(MANAGER_GROUP);
    match managers.len() {
        0 => Err("no SwarmManager in the scene: add one (or make this node a child of one)".into()),
        1 => managers
            .at(0)
            .try_cast::<SwarmManager>()
            .map_err(|_| "the node in group 'swarm_managers' is not a SwarmManager".into()),
        n => Err(format!(
            "{n} SwarmManagers in the scene and none is an ancestor: make this node a child of the one it belongs to"
        )),
    }
}
