//! `SwarmFlowModifier`: a box of surface-flow-field cells that is closed to agents, costly for
//! routes to cross, or both (doors, barricades, props). The manager reads every modifier once per
//! physics frame and restamps the whole modifier layer when one changed.

use godot::classes::node::ProcessMode;
use godot::classes::{INode3D, Node3D};
use godot::prelude::*;
use godot::register::info::{PropertyInfo, PropertyUsageFlags};
use swarm_core::flow_field::{ModifierBox, ModifierLayer, RouteMode};
use swarm_core::glam::{Mat3, Vec3};
use swarm_core::host_parts::PartState;

use crate::class_enum::class_enum;
use crate::convert::{to_vec3, usable_position};
use crate::lookup::find_manager_node;
use crate::nodes::link::{BoxFeedback, ManagerFacts};

pub const MODIFIER_GROUP: &str = "swarm_flow_modifiers";

const BLOCKS_AGENTS_OFF: &str = "Blocks Agents is off, so agents walk through this box: nobody presses it, and the SwarmBreakable or SwarmPushable under it is never struck or pushed. Turn Blocks Agents on.";

/// A box of surface flow field cells that agents may not enter ([member blocks_agents]), that
/// routes pay [member route_cost] to cross or never cross ([member route]), or both: a door, a
/// barricade, a fence, a pushed prop. Only the footprint seen from above counts, within a height
/// band around the box, so a door upstairs does not seal the floor below; a box thinner than a
/// cell still closes the cell its centre is in. Needs [member SwarmManager.surface_flow_field_enabled]
/// (and, to stop agents, [member SwarmSettings.surface_flow_enforce_cell_boundaries]). Moving,
/// resizing or changing it restamps the layer on the next step.
///
/// Two switches, two owners: a door script opens and shuts the box with [member is_open]; a
/// [SwarmBreakable] under it turns [member enabled] off when it breaks and back on at
/// [method SwarmBreakable.repair]. Either one removes the closure and the route cost while the box
/// stays registered, so a door script that only flips [member is_open] never re-seals a breach.
/// To shut a door with agents standing in the doorway, wait until
/// [method SwarmManager.is_any_agent_inside] of the opening is false, then set [member is_open]
/// to false (shutting on top of them pushes each out to the nearer side).
///
/// A modifier stamps only while it is visible in the tree ([method Node3D.is_visible_in_tree])
/// and its process mode, its own or inherited, is not [constant Node.PROCESS_MODE_DISABLED]
/// (pausing the tree changes nothing). One under a hidden or disabled node, such as rubble listed
/// in a breakable's [member SwarmBreakable.show_on_break], neither blocks nor costs until it is
/// shown and enabled; it stays registered meanwhile, and showing it restamps on the next step.

#[derive(GodotClass)]
#[class(tool, init, base = Node3D)]
pub struct SwarmFlowModifier {
    /// Off: the box neither blocks agents nor costs routes anything, and stays registered. A
    /// [SwarmBreakable] under this modifier turns it off when it breaks and back on at repair;
    /// door scripts use [member is_open] instead, so the two never undo each other.
    #[export]
    #[init(val = true)]
    enabled: bool,
    /// Centre of the box in this node's local space. For a door, the centre of the doorway.
    #[export]
    #[init(val = Vector3::new(0.0, 1.0, 0.0))]
    center: Vector3,
    /// Size of the box in local space. For a door, size it to the opening, not the door leaf.
    #[export]
    #[init(val = Vector3::new(1.0, 2.0, 1.0))]
    size: Vector3,
    /// Agents cannot step into the covered cells. An agent pressed against them attacks the
    /// object (with [member agents_attack_it] and something that can take damage) or pushes it.
    #[export]
    #[init(val = true)]
    blocks_agents: bool,
    /// How routes treat the cells: [constant FREE] ignores the box, [constant EXTRA_COST] adds
    /// [member route_cost] to any route crossing it, [constant BLOCKED] is a wall routes go around.
    #[export]
    #[var(get, set)]
    #[init(val = Route(1))]
    route: Route,
    /// Extra route length, in metres, of one crossing however deep the box is. Ceiling: 1024
    /// cells of detour per cell entered (512 m for a one-cell box at cell size 0.5); more changes
    /// nothing. For a box routes should never cross, use [constant BLOCKED].
    #[export(range = (0.0, 1000.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 10.0)]
    route_cost: f32,
    /// Agents blocked by this object hit it with their attack when something here can take
    /// damage. Off: no strikes and no crowd pressure.
    #[export]
    #[init(val = true)]
    agents_attack_it: bool,
    /// How far the object must move before its cells restamp.
    #[export_group(name = "Restamp (advanced)")]
    #[export(range = (0.0, 5.0, 0.001, or_greater, suffix = "m"))]
    #[init(val = 0.05)]
    move_threshold: f32,
    /// How far the object must turn, in degrees, before its cells restamp.
    #[export(range = (0.0, 90.0, 0.1, suffix = "°"))]
    #[init(val = 2.0)]
    rotation_threshold: f32,

    /// Runtime switch for door scripts: true removes the box's closure and route cost while it
    /// stays registered. Never saved: every object starts shut.
    #[var]
    is_open: bool,
    force_pending: bool,
    /// Handed over by the manager this box is registered with (`None`: not registered).
    facts: Option<ManagerFacts>,
    /// The box in the manager's last step.
    feedback: BoxFeedback,
    /// Noises made here (a breakable's hits and break) since the manager last took them.
    noises: Vec<(Vector3, f32)>,

    base: Base<Node3D>,
}

/// What the manager stamps for one modifier, and when it must restamp.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModifierSnapshot {
    pub box_: ModifierBox,
    /// Is open, switched off ([member enabled]), or hidden or disabled in the tree: stamps nothing.
    pub open: bool,
    pub move_threshold: f32,
    pub rotation_threshold_deg: f32,
}

impl ModifierSnapshot {
    /// Whether `self` (the current state) differs from `stamped` enough to restamp.
    pub fn needs_restamp(&self, stamped: &ModifierSnapshot) -> bool {
        let (a, b) = (&self.box_, &stamped.box_);
        if self.open != stamped.open
            || a.blocks_agents != b.blocks_agents
            || a.route != b.route
            || (a.half_extents - b.half_extents).abs().max_element() > 1e-4
        {
            return true;
        }
        if a.center.distance(b.center) > self.move_threshold {
            return true;
        }
        // Largest angle between matching axes.
        let turn = (0..3)
            .map(|k| a.basis.col(k).normalize_or_zero().dot(b.basis.col(k).normalize_or_zero()).clamp(-1.0, 1.0).acos())
            .fold(0.0f32, f32::max);
        turn.to_degrees() > self.rotation_threshold_deg
    }
}

class_enum! {
    /// How routes treat a modifier's box, `SwarmFlowModifier.Route` in Godot.
    pub struct Route in SwarmFlowModifier as "Route" {
        /// Routes ignore the box.
        FREE = 0, "Free";
        /// Routes pay [member route_cost] to cross the box.
        EXTRA_COST = 1, "Extra Cost";
        /// Routes never cross the box.
        BLOCKED = 2, "Blocked";
    }
}

#[godot_api]
impl SwarmFlowModifier {
    #[func]
    fn get_route(&self) -> Route {
        self.route
    }

    #[func]
    fn set_route(&mut self, route: Route) {
        self.route = route;
    }

    /// The fixes the inspector offers as buttons beside the matching setup warnings: each a
    /// Dictionary with `label` (the button's text: "Enable Surface Flow Field", "Enforce Cell
    /// Boundaries", "Turn Blocks Agents On"), `warning` (the warning it fixes), and `object`,
    /// `property`, `value` (what pressing it sets). Empty when nothing needs fixing.
    #[func]
    fn get_setup_fixes(&self) -> VarArray {
        self.setup_fixes(self.blocking_needed_below())
    }

    /// Restamps on the next step even if nothing about the box changed (something around it did).
    #[func]
    fn force_update(&mut self) {
        self.force_pending = true;
    }

    /// Mean ground direction the pressing crowd shoves this box (zero when nobody presses it).
    #[func]
    pub(crate) fn get_crowd_push_direction(&self) -> Vector3 {
        self.feedback.push_direction
    }

    /// What is wrong with this modifier's setup (the editor shows the same as configuration
    /// warnings); empty when it works.
    #[func]
    fn get_setup_warnings(&self) -> PackedStringArray {
        self.setup_warnings()
    }

    /// Agents that pressed against this box's closed cells in the last step (only agents that
    /// are going somewhere press).
    #[func]
    pub(crate) fn get_pressing_agent_count(&self) -> i64 {
        self.feedback.pressing
    }
}

#[godot_api]
impl INode3D for SwarmFlowModifier {
    fn enter_tree(&mut self) {
        self.base_mut().add_to_group(MODIFIER_GROUP);
    }

    fn get_configuration_warnings(&self) -> PackedStringArray {
        self.setup_warnings()
    }

    /// [member route_cost] is only shown while [member route] is [constant EXTRA_COST].
    fn on_validate_property(&self, property: &mut PropertyInfo) {
        if property.property_name == "route_cost" && self.route.0 != Route::EXTRA_COST {
            property.usage = PropertyUsageFlags::NO_EDITOR;
        }
    }

    fn on_set(&mut self, property: StringName, _value: Variant) -> bool {
        // Show or hide route_cost once the new route is in place.
        if property == "route" {
            self.base_mut().call_deferred("notify_property_list_changed", &[]);
        }
        false
    }
}

impl SwarmFlowModifier {
    /// The editor's configuration warnings: each names what is wrong and the fix.
    fn setup_warnings(&self) -> PackedStringArray {
        let mut w = PackedStringArray::new();
        if !(self.size.x > 0.0 && self.size.y > 0.0 && self.size.z > 0.0) {
            w.push("Size must be above 0 on every axis: the box covers nothing.");
        }
        let Some(m) = self.facts else {
            let e = find_manager_node(&self.base().clone().upcast()).err().unwrap_or_else(|| {
                "it has not registered with its manager yet (it registers on entering the scene tree)".into()
            });
            w.push(&format!("This SwarmFlowModifier has no manager: {e}."));
            return w;
        };
        if !m.surface_flow_field_on {
            w.push("The manager's Surface Flow Field is off, so this box neither stops agents nor changes routes: turn on Surface Flow Field Enabled on the SwarmManager.");
        } else if self.blocks_agents && !m.enforces_cell_boundaries {
            w.push("Surface Flow Enforce Cell Boundaries is off in the manager's SwarmSettings, so this closed box stops nobody (only its route cost applies): turn it on.");
        }
        if !self.blocks_agents && self.blocking_needed_below() {
            w.push(BLOCKS_AGENTS_OFF);
        }
        if self.route.0 == Route::EXTRA_COST {
            let cell = m.flow_cell_size;
            let depth = (self.size.x.min(self.size.z).abs() / cell).round().max(1.0) as u32;
            let ceiling = ModifierLayer::route_cost_ceiling(cell, depth);
            if self.route_cost > ceiling {
                w.push(&format!(
                    "Route Cost {} is past its ceiling of {ceiling} (1024 cells of detour per cell entered at cell size {cell}): a higher cost changes nothing. For a box routes must never cross, set Route to Blocked.",
                    self.route_cost
                ));
            }
        }
        w
    }

    /// Whether a SwarmBreakable or SwarmPushable under this box needs it to block agents.
    fn blocking_needed_below(&self) -> bool {
        self.base().get_children().iter_shared().any(|c| c.is_class("SwarmBreakable") || c.is_class("SwarmPushable"))
    }

    /// The setup fixes (see [method get_setup_fixes]); `needs_blocking`: a breakable or pushable
    /// under this box needs [member blocks_agents] on.
    pub fn setup_fixes(&self, needs_blocking: bool) -> VarArray {
        let mut out = VarArray::new();
        let fix = |label: &str, warning: &str, object: Gd<Object>, property: &str| {
            vdict! { "label" => label, "warning" => warning, "object" => &object, "property" => property, "value" => true }
        };
        let manager = find_manager_node(&self.base().clone().upcast()).ok();
        if let (Some(m), Some(manager)) = (self.facts, manager) {
            if !m.surface_flow_field_on {
                let w = "The manager's Surface Flow Field is off: this box neither stops agents nor changes routes.";
                out.push(
                    &fix("Enable Surface Flow Field", w, manager.upcast(), "surface_flow_field_enabled").to_variant(),
                );
            } else if (self.blocks_agents || needs_blocking) && !m.enforces_cell_boundaries {
                if let Ok(settings) = manager.get("settings").try_to::<Gd<Object>>() {
                    let w = "Surface Flow Enforce Cell Boundaries is off in the manager's SwarmSettings: a closed box stops nobody.";
                    out.push(
                        &fix("Enforce Cell Boundaries", w, settings, "surface_flow_enforce_cell_boundaries")
                            .to_variant(),
                    );
                }
            }
        }
        if needs_blocking && !self.blocks_agents {
            out.push(
                &fix("Turn Blocks Agents On", BLOCKS_AGENTS_OFF, self.to_gd().upcast(), "blocks_agents").to_variant(),
            );
        }
        out
    }

    /// The box in world space and the restamp thresholds; bad values are clamped (size to at
    /// least a millimetre, cost to 0.. finite).
    pub fn snapshot(&self) -> ModifierSnapshot {
        let t = self.base().get_global_transform();
        let center = to_vec3(t * self.center);
        let b = t.basis;
        let cols = [b.col_a(), b.col_b(), b.col_c()].map(to_vec3);
        let scale = Vec3::new(cols[0].length(), cols[1].length(), cols[2].length());
        let basis = Mat3::from_cols(
            cols[0].normalize_or(Vec3::X),
            cols[1].normalize_or(Vec3::Y),
            cols[2].normalize_or(Vec3::Z),
        );
        let far = Vec3::splat(swarm_core::bounds::load::MAX_COORD);
        let size = (to_vec3(self.size).abs().max(Vec3::splat(0.001)) * scale).min(far);
        let cost = if self.route_cost.is_finite() { self.route_cost.max(0.0) } else { 0.0 };
        let route = match self.route.0 {
            Route::FREE => RouteMode::Free,
            Route::BLOCKED => RouteMode::Blocked,
            _ => RouteMode::ExtraCost(cost),
        };
        let finite = |v: Vec3| if v.is_finite() { v } else { Vec3::ZERO };
        ModifierSnapshot {
            box_: ModifierBox {
                center: finite(center),
                basis,
                half_extents: finite(size * 0.5),
                blocks_agents: self.blocks_agents,
                route,
            },
            open: self.is_open || !self.enabled || !self.active_in_tree(),
            move_threshold: self.move_threshold.max(0.0),
            rotation_threshold_deg: self.rotation_threshold.max(0.0),
        }
    }

    /// Visible in the tree and not disabled by its (own or inherited) process mode. Pausing does
    /// not count: a paused game keeps its doors.
    fn active_in_tree(&self) -> bool {
        let b = self.base();
        if !b.is_inside_tree() {
            return true;
        }
        if !b.is_visible_in_tree() {
            return false;
        }
        let mut node = Some(b.clone().upcast::<Node>());
        while let Some(n) = node {
            match n.get_process_mode() {
                ProcessMode::INHERIT => node = n.get_parent(),
                mode => return mode != ProcessMode::DISABLED,
            }
        }
        true
    }

    pub fn is_enabled(&self) -> bool {
        self.enabled
    }

    /// What is wrong with the box's placement for the flow field, if anything: a centre or size
    /// beyond 1e9 m (clamped by [`Self::snapshot`]).
    pub(crate) fn placement_problem(&self) -> Option<String> {
        let at = self.base().get_global_transform() * self.center;
        (!usable_position(self.size) || !usable_position(at)).then(|| {
            format!(
                "size {} or centre {at} is not finite or beyond 1e9 m; the box is clamped (it covers at most the whole flow field)",
                self.size
            )
        })
    }

    /// The state to save (see `host_parts`): the runtime switches and the route cost.
    pub(crate) fn saved_part(&self) -> PartState {
        PartState::Modifier { open: self.is_open, enabled: self.enabled, route_cost: self.route_cost }
    }

    /// Takes saved switches and route cost over (checked when the save was read).
    pub(crate) fn restore_part(&mut self, open: bool, enabled: bool, route_cost: f32) {
        self.is_open = open;
        self.enabled = enabled;
        self.route_cost = route_cost;
        self.force_pending = true;
    }

    /// Switches the box on or off, as [member enabled] does (a breakable at its break and repair).
    pub fn put_enabled(&mut self, on: bool) {
        self.enabled = on;
    }

    pub fn agents_attack_it(&self) -> bool {
        self.agents_attack_it
    }

    pub fn blocks_agents(&self) -> bool {
        self.blocks_agents
    }

    /// The box's centre in global space.
    pub fn global_center(&self) -> Vector3 {
        self.base().get_global_transform() * self.center
    }

    pub fn route_cost(&self) -> f32 {
        self.route_cost
    }

    /// Sets the route cost (a breakable lowers it when damaged and restores it at repair).
    pub fn put_route_cost(&mut self, cost: f32) {
        self.route_cost = cost;
    }

    /// The facts of the manager this box is registered with (`None`: not registered).
    pub fn manager_facts(&self) -> Option<ManagerFacts> {
        self.facts
    }

    /// Written by the manager when the box registers, leaves, or its facts change.
    pub fn set_manager_facts(&mut self, facts: Option<ManagerFacts>) {
        self.facts = facts;
    }

    /// Written by the manager at the end of each frame.
    pub fn set_feedback(&mut self, feedback: BoxFeedback) {
        self.feedback = feedback;
    }

    /// A noise made at this box (by the breakable under it), heard by the manager's agents from
    /// its next step. At most 64 wait; more are dropped.
    pub fn queue_noise(&mut self, at: Vector3, radius: f32) {
        if self.noises.len() < 64 {
            self.noises.push((at, radius));
        }
    }

    /// The noises queued since the last call (the manager takes them once per frame).
    pub fn take_noises(&mut self) -> Vec<(Vector3, f32)> {
        std::mem::take(&mut self.noises)
    }

    /// Whether a restamp was asked for with `force_update()` (and clears the request).
    pub fn take_force(&mut self) -> bool {
        std::mem::take(&mut self.force_pending)
    }
}
