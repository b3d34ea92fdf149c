//! The registries of one manager: the targets, flow modifiers and archetypes registered with it,
//! keyed by instance id, in registration order (tree order, so the same scene gives the same
//! target handles and modifier boxes). How nodes get in and out is `registration`.

use std::cell::Cell;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::rc::Rc;

use godot::prelude::*;
use godot::signal::ConnectHandle;
use swarm_core::glam::Vec3;
use swarm_core::Archetype;

use crate::nodes::flow_modifier::{ModifierSnapshot, SwarmFlowModifier};
use crate::nodes::link::BoxFeedback;
use crate::nodes::target::SwarmTarget;
use crate::resources::archetype::SwarmAgentArchetype;

pub(super) struct ArchetypeEntry {
    pub res: Gd<SwarmAgentArchetype>,
    /// Last converted config, to apply resource edits only when something changed.
    pub core: Archetype,
}

pub(super) struct ModifierEntry {
    pub node: Gd<SwarmFlowModifier>,
    pub id: InstanceId,
    /// What was stamped last, and the box's index in the layer (`None` while open).
    pub stamped: ModifierSnapshot,
    pub box_index: Option<usize>,
    /// What takes the agents' blows (see `damage_receiver`).
    pub receiver: Option<Receiver>,
    /// The feedback last handed to the node.
    pub feedback: BoxFeedback,
}

/// What takes the agents' blows on a modifier box.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Receiver {
    pub id: InstanceId,
    /// Share of each blow it takes.
    pub scale: f32,
    /// A `SwarmBreakable` (handed the blow typed), or a game script (its `apply_swarm_damage`).
    pub breakable: bool,
}

pub(super) struct TargetEntry {
    pub node: Gd<SwarmTarget>,
    pub id: InstanceId,
    pub handle: u32,
    /// Problems last reported for this target, so each is printed once, not every frame.
    pub reported: Vec<String>,
}

#[derive(Default)]
pub(super) struct Registry {
    pub targets: Vec<TargetEntry>,
    pub modifiers: Vec<ModifierEntry>,
    pub archetypes: Vec<ArchetypeEntry>,
    /// The modifier set changed (a box must be restamped).
    pub modifiers_dirty: bool,
    /// Set by the `changed` signal of a watched archetype or profile resource.
    pub archetypes_changed: Rc<Cell<bool>>,
    /// Resources whose `changed` is connected to `archetypes_changed`, while in the tree.
    watched: HashMap<InstanceId, ConnectHandle>,
    /// The tree's `node_added` / `node_removed` connections, while in the tree.
    pub connections: Vec<ConnectHandle>,
}

impl Registry {
    pub fn target(&self, id: InstanceId) -> Option<&TargetEntry> {
        self.targets.iter().find(|e| e.id == id)
    }

    pub fn target_by_handle(&self, handle: u32) -> Option<&TargetEntry> {
        self.targets.iter().find(|e| e.handle == handle)
    }

    pub fn target_count(&self) -> usize {
        self.targets.len()
    }

    pub fn archetype_index_of(&self, res: &Gd<SwarmAgentArchetype>) -> Option<usize> {
        self.archetypes.iter().position(|e| &e.res == res)
    }

    /// The registered modifier whose closed box has index `k` in the layer.
    pub fn modifier_of_box(&self, k: usize) -> Option<&ModifierEntry> {
        self.modifiers.iter().find(|m| m.box_index == Some(k))
    }

    /// Gives a fresh world every registered archetype and target (new target handles).
    pub fn carry_over(&mut self, w: &mut swarm_core::World) {
        for e in &self.archetypes {
            w.add_archetype(e.core.clone());
        }
        for t in &mut self.targets {
            t.handle = w.register_target(Vec3::ZERO, 1.0);
        }
    }

    /// Connects `changed` of `res` (once per resource) to the archetypes' change flag.
    fn watch(&mut self, res: Gd<Resource>) {
        if let Entry::Vacant(slot) = self.watched.entry(res.instance_id()) {
            let flag = self.archetypes_changed.clone();
            slot.insert(res.signals().changed().connect(move || flag.set(true)));
        }
    }

    /// Watches every registered archetype again (on entering the tree) and converts them all on
    /// the next frame, in case one was edited meanwhile.
    pub fn watch_all(&mut self) {
        let all: Vec<_> = self.archetypes.iter().map(|e| e.res.clone()).collect();
        for res in &all {
            self.watch_archetype(res);
        }
        self.archetypes_changed.set(true);
    }

    /// Disconnects every resource's `changed` (on leaving the tree, so a freed manager leaves no
    /// connection behind on resources that outlive it).
    pub fn unwatch_all(&mut self) {
        for (_, c) in self.watched.drain() {
            if c.is_connected() {
                c.disconnect();
            }
        }
    }

    /// Watches an archetype resource and every profile it holds now.
    pub fn watch_archetype(&mut self, res: &Gd<SwarmAgentArchetype>) {
        self.watch(res.clone().upcast());
        for p in res.bind().profiles() {
            self.watch(p);
        }
    }
}
