//! `SwarmTarget`: something agents chase.

use godot::classes::{INode3D, Node3D};
use godot::prelude::*;

use crate::lookup::{find_manager_node, TARGET_GROUP};

/// Something the swarm chases: a player, an objective, a bait. While it is in the scene tree it
/// is registered with its [SwarmManager] (the nearest ancestor manager, else the only manager
/// in the scene); the manager reads its global position every physics frame. Each step the
/// manager picks up to [member SwarmManager.max_active_target_count] active targets by distance
/// from the swarm's centre, and each agent chases the nearest active one.
#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmTarget {
    /// Scores this target as though it were this many times closer, both when the manager picks
    /// its active targets and when an agent picks its own. 2 beats a target half as far away.
    #[export(range = (0.01, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    priority: f32,
    /// A disabled target stays registered but is never chased.
    #[export]
    #[init(val = true)]
    enabled: bool,

    base: Base<Node3D>,
}

impl SwarmTarget {
    pub fn priority(&self) -> f32 {
        self.priority
    }
    pub fn enabled(&self) -> bool {
        self.enabled
    }
}

#[godot_api]
impl INode3D for SwarmTarget {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(TARGET_GROUP);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        if let Err(e) = find_manager_node(&self.base().clone().upcast()) {
            w.push(&format!("This SwarmTarget has no manager to register with: {e}."));
        }
        w
    }
}
