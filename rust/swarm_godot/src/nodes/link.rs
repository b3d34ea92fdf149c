//! What the manager hands the nodes registered with it, as plain values, so that neither side
//! names the other's type: the facts a node's setup warnings need about its manager, and each
//! modifier box's feedback from the last step. The manager writes both (facts when they change,
//! feedback at the end of every frame); the nodes only read them. See docs/ARCHITECTURE.md, "One
//! channel between nodes".

use godot::prelude::*;

/// What a registered node needs to know about its manager for its setup warnings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ManagerFacts {
    /// `SwarmManager.surface_flow_field_enabled`.
    pub surface_flow_field_on: bool,
    /// `SwarmSettings.surface_flow_enforce_cell_boundaries` (on without a settings resource).
    pub enforces_cell_boundaries: bool,
    /// Cell size of the baked field, else the manager's bake setting (at least 0.01).
    pub flow_cell_size: f32,
    /// `SwarmManager.walkable_mask`: bodies on these layers bake as fixed ground or wall.
    pub walkable_mask: u32,
}

/// One modifier box in the last step, as the manager saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct BoxFeedback {
    /// Agents that pressed against the box's closed cells.
    pub pressing: i64,
    /// Mean ground direction the pressing crowd shoves the box (zero when nobody presses).
    pub push_direction: Vector3,
}
