//! `SwarmFormation`: the shape of a formation order and how its agents pace themselves.

use godot::prelude::*;
use swarm_core::formation::FormationShape;
use swarm_core::glam::Vec2;

use crate::convert::{report_findings, resource_name};

/// The shape a group takes when ordered with [method SwarmManager.move_in_formation]: one slot per
/// entry of [member points] (local offsets on the ground, -Z forward, in units of
/// [member spacing]), its origin at the destination, turned to face from the group's centroid
/// toward the destination. Agents beyond the number of points fill further ranks behind,
/// repeating the shape. Slots are given so that the summed route is shortest (paths do not
/// cross), and every agent paces itself to arrive when the agent with the longest route does,
/// that one walking at [member base_speed]. Presets: [code]res://addons/swarm/formations/[/code]
/// (line, column, wedge, square, circle).
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmFormation {
    /// Slot offsets in local space (X right, -Z forward; Y is ignored), in spacings. The point
    /// at the origin stands on the destination (the tip of a wedge).
    #[export]
    #[init(val = default_points())]
    points: PackedVector3Array,
    /// Metres per unit of [member points], and the gap between repeated ranks.
    #[export(range = (0.05, 20.0, 0.05, or_greater, suffix = "m"))]
    #[init(val = 2.0)]
    spacing: f32,
    /// The agent with the longest route walks at this speed; the others slower, to arrive with it.
    #[export(range = (0.01, 20.0, 0.01, or_greater, suffix = "m/s"))]
    #[init(val = 3.5)]
    base_speed: f32,
    /// An agent never walks slower than this multiple of its own max speed (it may arrive early).
    #[export(range = (0.01, 1.0, 0.01))]
    #[init(val = 0.5)]
    min_speed_multiplier: f32,
    /// An agent that fell behind catches up at most at this multiple of its own max speed.
    #[export(range = (1.0, 10.0, 0.01))]
    #[init(val = 1.5)]
    max_speed_multiplier: f32,
    /// An agent this near its slot has arrived; [signal SwarmManager.formation_arrived] fires when
    /// every living agent of the order has.
    #[export(range = (0.01, 5.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.5)]
    arrival_radius: f32,

    base: Base<Resource>,
}

#[godot_api]
impl godot::classes::IResource for SwarmFormation {
    /// Every property edit is announced with `changed` (the editor preview redraws).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}

#[godot_api]
impl SwarmFormation {
    /// World positions of the first [param count] slots for a formation standing at
    /// [param destination] and facing [param forward] (ground plane; -Z when zero), as an order
    /// would place them on open ground: for previews and game logic.
    #[func]
    fn get_slot_positions(&self, count: i64, destination: Vector3, forward: Vector3) -> PackedVector3Array {
        let shape = FormationShape { points: self.core_points(), spacing: self.spacing.max(0.0), ..Default::default() };
        if shape.points.is_empty() || !destination.is_finite() || !forward.is_finite() {
            return PackedVector3Array::new();
        }
        let n = count.clamp(0, 100_000) as usize;
        let to = Vec2::new(destination.x, destination.z);
        let placement = swarm_core::formation::Placement::facing(to - Vec2::new(forward.x, forward.z), to);
        let mut offsets = Vec::new();
        shape.offsets(n, &mut offsets);
        offsets
            .iter()
            .map(|&o| {
                let p = placement.place(o);
                Vector3::new(p.x, destination.y, p.y)
            })
            .collect()
    }
}

/// The core's default shape (a line of five), as inspector points.
fn default_points() -> PackedVector3Array {
    FormationShape::default().points.iter().map(|p| Vector3::new(p.x, 0.0, p.y)).collect()
}

impl SwarmFormation {
    pub fn display_name(&self) -> String {
        resource_name(&self.base().clone().upcast(), "SwarmFormation")
    }

    fn core_points(&self) -> Vec<Vec2> {
        self.points.as_slice().iter().map(|p| Vec2::new(p.x, p.z)).collect()
    }

    /// The core shape (settings not yet checked: the core refuses or clamps them, and the
    /// caller reports what it found, prefixed by `owner`).
    pub fn to_core(&self) -> FormationShape {
        FormationShape {
            points: self.core_points(),
            spacing: self.spacing,
            base_speed: self.base_speed,
            min_speed_multiplier: self.min_speed_multiplier,
            max_speed_multiplier: self.max_speed_multiplier,
            arrival_radius: self.arrival_radius,
        }
    }

    /// Reports clamped settings under this resource's name.
    pub fn report(&self, owner: &str, findings: &[swarm_core::sanitize::Finding], problems: &mut Vec<String>) {
        report_findings(&format!("{owner}: {}", self.display_name()), findings, problems);
    }
}
