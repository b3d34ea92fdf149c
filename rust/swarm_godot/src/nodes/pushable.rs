//! `SwarmPushable`: the crowd pressing a `SwarmFlowModifier` shoves the `RigidBody3D` above it.
//! Each physics frame it reads the modifier's pressing-agent count and mean push direction from
//! the manager and applies a capped central force to the body.

use godot::classes::notify::NodeNotification;
use godot::classes::{INode, Node, RigidBody3D};
use godot::prelude::*;

use crate::nodes::flow_modifier::SwarmFlowModifier;

/// Lets the swarm shove a physics prop (a bin, a crate) instead of routing around it. Put it
/// under a [SwarmFlowModifier] (with [member SwarmFlowModifier.blocks_agents] on, and usually
/// [constant SwarmFlowModifier.FREE] route) that is itself under the [RigidBody3D] to push. Every
/// physics frame each agent pressed against the modifier's closed cells adds
/// [member force_per_agent] newtons, up to [member max_crowd_force] in all, along the crowd's mean
/// push direction ([method SwarmFlowModifier.get_crowd_push_direction]); the force goes to the body
/// through [method RigidBody3D.apply_central_force]. A frozen (kinematic) body gets no force.
/// Give the body a physics layer outside [member SwarmManager.walkable_mask] so the bake ignores
/// it, and one that still collides with the floor and walls. Drive it with forces, not by setting
/// its velocity.
#[derive(GodotClass)]
#[class(tool, init, base = Node)]
pub struct SwarmPushable {
    /// Force, in newtons, each agent pressed against the box adds every physics step.
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "N"))]
    #[var(set)]
    #[init(val = 40.0)]
    force_per_agent: f32,
    /// Ceiling, in newtons, on the summed force of every pressing agent in one step, so a packed
    /// crowd cannot launch the prop across the map.
    #[export(range = (0.0, 10000.0, 1.0, or_greater, suffix = "N"))]
    #[var(set)]
    #[init(val = 400.0)]
    max_crowd_force: f32,

    /// Push (force × seconds) applied since the last `consume_crowd_push()`.
    pending_push: Vector3,
    /// Force applied in the last physics frame.
    last_force: Vector3,
    /// Agents that pressed in the last physics frame.
    last_count: i64,
    /// The runtime setup warning already printed (printed again only when it changes).
    reported: Option<String>,

    base: Base<Node>,
}

#[godot_api]
impl SwarmPushable {
    /// Returns the push (force × seconds, in newton-seconds) applied to the body since the last
    /// call, and resets it. Divided by the time in between it is the mean crowd force.
    #[func]
    fn consume_crowd_push(&mut self) -> Vector3 {
        std::mem::take(&mut self.pending_push)
    }

    /// Force, in newtons, applied to the body in the last physics frame (zero when nobody pressed).
    #[func]
    fn get_crowd_force(&self) -> Vector3 {
        self.last_force
    }

    /// Agents that pressed the box in the last physics frame (the count the force came from).
    #[func]
    fn get_pressing_agent_count(&self) -> i64 {
        self.last_count
    }

    /// The fixes the inspector offers beside the matching warnings: see
    /// [method SwarmFlowModifier.get_setup_fixes] (the same, for the parent modifier and its
    /// manager).
    #[func]
    fn get_setup_fixes(&self) -> VarArray {
        let parent = self.base().get_parent().and_then(|p| p.try_cast::<SwarmFlowModifier>().ok());
        parent.map_or_else(VarArray::new, |m| m.bind().setup_fixes(true))
    }

    /// What is wrong with this pushable's setup (the editor shows the same as configuration
    /// warnings); empty when it works.
    #[func]
    fn get_setup_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        for s in self.setup_problems() {
            w.push(&s);
        }
        w
    }

    #[func]
    fn set_force_per_agent(&mut self, v: f32) {
        self.force_per_agent = self.checked("force_per_agent", v);
        self.base_mut().update_configuration_warnings();
    }

    #[func]
    fn set_max_crowd_force(&mut self, v: f32) {
        self.max_crowd_force = self.checked("max_crowd_force", v);
        self.base_mut().update_configuration_warnings();
    }
}

#[godot_api]
impl INode for SwarmPushable {
    fn ready(&mut self) {
        if !godot::classes::Engine::singleton().is_editor_hint() {
            self.report_setup();
        }
    }

    fn physics_process(&mut self, delta: f64) {
        if godot::classes::Engine::singleton().is_editor_hint() {
            return;
        }
        self.last_force = Vector3::ZERO;
        self.last_count = 0;
        let Some((modifier, mut body)) = self.parts() else {
            self.report_setup();
            return;
        };
        if body.is_freeze_enabled() {
            return;
        }
        let (count, dir) = {
            let m = modifier.bind();
            (m.get_pressing_agent_count(), m.get_crowd_push_direction())
        };
        self.last_count = count;
        if count <= 0 || !dir.is_finite() || dir.length_squared() < 1e-8 {
            return;
        }
        let dir = if dir.length_squared() > 1.0 { dir.normalized() } else { dir };
        let magnitude = (count as f32 * self.force_per_agent).min(self.max_crowd_force);
        if magnitude.is_nan() || magnitude <= 0.0 {
            return;
        }
        let force = dir * magnitude;
        body.apply_central_force(force);
        self.last_force = force;
        self.pending_push += force * delta as f32;
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.get_setup_warnings()
    }

    fn on_notification(&mut self, what: NodeNotification) {
        // Moved under (or out of) a modifier: refresh the editor's warning icon.
        if what == NodeNotification::PARENTED || what == NodeNotification::UNPARENTED {
            self.base_mut().update_configuration_warnings();
        }
    }
}

impl SwarmPushable {
    fn label(&self) -> String {
        let name = self.base().get_name();
        if name.is_empty() {
            "SwarmPushable".into()
        } else {
            format!("SwarmPushable '{name}'")
        }
    }

    /// `v` when it is a finite number at or above 0; otherwise an error naming the node and the
    /// field, and 0.
    fn checked(&self, field: &str, v: f32) -> f32 {
        if v.is_finite() && v >= 0.0 {
            return v;
        }
        godot_error!("{}: {field} = {v} must be a finite number of newtons at or above 0; clamped to 0", self.label());
        0.0
    }

    /// The parent modifier and the RigidBody3D above it, when both are there.
    fn parts(&self) -> Option<(Gd<SwarmFlowModifier>, Gd<RigidBody3D>)> {
        let modifier = self.base().get_parent()?.try_cast::<SwarmFlowModifier>().ok()?;
        let body = rigid_body_above(&modifier)?;
        Some((modifier, body))
    }

    /// Each problem names what is wrong and the fix.
    fn setup_problems(&self) -> Vec<String> {
        let mut w = Vec::new();
        let parent = self.base().get_parent();
        let Some(modifier) = parent.and_then(|p| p.try_cast::<SwarmFlowModifier>().ok()) else {
            w.push("SwarmPushable must be a direct child of a SwarmFlowModifier (the box the crowd presses): move it under one, and put that modifier under the RigidBody3D to push.".into());
            return w;
        };
        match rigid_body_above(&modifier) {
            None => w.push("The parent SwarmFlowModifier has no RigidBody3D ancestor, so there is nothing to push: make the modifier a child of the RigidBody3D the crowd should shove.".into()),
            Some(body) => {
                let walkable = modifier.bind().manager_facts().map_or(0, |f| f.walkable_mask);
                let shared = body.get_collision_layer() & walkable;
                if shared != 0 {
                    w.push(format!(
                        "The RigidBody3D '{}' is on physics layer(s) {} of the manager's Walkable Mask, so the flow field bake takes it for fixed ground or wall where it stood: move the body to a layer outside Walkable Mask (one that still collides with the floor and walls) and bake again.",
                        body.get_name(),
                        (0..32).filter(|b| shared & (1 << b) != 0).map(|b| (b + 1).to_string()).collect::<Vec<_>>().join(", ")
                    ));
                }
                if body.is_freeze_enabled() {
                    w.push(format!(
                        "The RigidBody3D '{}' is frozen, so forces do not move it: turn Freeze off (a kinematic body gets no crowd push).",
                        body.get_name()
                    ));
                }
            }
        }
        if !modifier.bind().blocks_agents() {
            w.push("The parent SwarmFlowModifier's Blocks Agents is off: agents walk through its box, nobody presses it and nothing pushes the body. Turn Blocks Agents on.".into());
        }
        if self.force_per_agent <= 0.0 || self.max_crowd_force <= 0.0 {
            w.push(
                "Force Per Agent or Max Crowd Force is 0, so the crowd never moves the body: set both above 0.".into(),
            );
        }
        w
    }

    /// Prints the first setup problem at run time (once, until it changes).
    fn report_setup(&mut self) {
        let first = self.setup_problems().into_iter().next();
        if first != self.reported {
            if let Some(msg) = &first {
                godot_warn!("{}: {msg}", self.label());
            }
            self.reported = first;
        }
    }
}

/// The nearest RigidBody3D ancestor of `node`.
fn rigid_body_above(node: &Gd<SwarmFlowModifier>) -> Option<Gd<RigidBody3D>> {
    let mut p = node.get_parent();
    while let Some(n) = p {
        match n.try_cast::<RigidBody3D>() {
            Ok(b) => return Some(b),
            Err(n) => p = n.get_parent(),
        }
    }
    None
}
