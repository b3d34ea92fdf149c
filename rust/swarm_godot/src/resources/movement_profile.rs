//! `SwarmMovementProfile`: speed, acceleration, turning and facing, as per-agent ranges.

use godot::prelude::*;
use swarm_core::bounds::movement as mb;
use swarm_core::{MovementProfile, OrientationMode};

use crate::class_enum::class_enum;
use crate::convert::{report_findings, resource_name, to_range};

/// Speed, acceleration, braking, turning and facing of an archetype. Each range is a
/// `Vector2(min, max)`: every agent draws its own value once at spawn, from the manager's
/// seeded random generator, so a horde does not move in lockstep.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmMovementProfile {
    /// Top speed in metres per second (min, max).
    #[export_group(name = "Speed")]
    #[export(range = (0.0, 20.0, 0.01, or_greater))]
    #[init(val = Vector2::new(3.5, 4.5))]
    max_speed: Vector2,
    /// Acceleration in m/s² when speeding up or turning (min, max).
    #[export(range = (0.0, 100.0, 0.1, or_greater))]
    #[init(val = Vector2::new(10.0, 14.0))]
    max_acceleration: Vector2,
    /// Deceleration in m/s² when slowing down (min, max).
    #[export(range = (0.0, 100.0, 0.1, or_greater))]
    #[init(val = Vector2::new(14.0, 18.0))]
    braking_acceleration: Vector2,
    /// Seconds over which the blended steering is smoothed (min, max); 0 reacts immediately.
    #[export(range = (0.0, 2.0, 0.01, or_greater))]
    #[init(val = Vector2::new(0.08, 0.15))]
    steering_response: Vector2,

    /// Fastest turn of the body, degrees per second (min, max).
    #[export_group(name = "Turning")]
    #[export(range = (0.0, 1440.0, 1.0, or_greater))]
    #[init(val = Vector2::new(360.0, 540.0))]
    max_turn_speed: Vector2,
    /// Turn acceleration, degrees per second² (min, max).
    #[export(range = (0.0, 10000.0, 1.0, or_greater))]
    #[init(val = Vector2::new(2000.0, 3000.0))]
    max_turn_acceleration: Vector2,

    /// Which way the body faces: [constant FACE_VELOCITY], [constant FACE_GOAL] or
    /// [constant FACE_GOAL_WITH_VELOCITY_BLEND].
    #[export_group(name = "Orientation")]
    #[export]
    #[var(get, set)]
    #[init(val = OrientationModeEnum(0))]
    orientation_mode: OrientationModeEnum,
    /// Weight of the goal direction in [constant FACE_GOAL_WITH_VELOCITY_BLEND] (min, max).
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = Vector2::new(1.0, 1.0))]
    goal_facing_weight: Vector2,
    /// Weight of the travel direction in [constant FACE_GOAL_WITH_VELOCITY_BLEND] (min, max).
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = Vector2::new(1.0, 1.0))]
    velocity_facing_weight: Vector2,

    base: Base<Resource>,
}

class_enum! {
    /// Which way the body faces, `SwarmMovementProfile.OrientationMode` in Godot.
    pub struct OrientationModeEnum in SwarmMovementProfile as "OrientationMode" {
        /// Face the direction of travel.
        FACE_VELOCITY = 0, "Face Velocity";
        /// Face the goal (the target being chased).
        FACE_GOAL = 1, "Face Goal";
        /// Blend goal and travel directions by [member goal_facing_weight] and [member velocity_facing_weight].
        FACE_GOAL_WITH_VELOCITY_BLEND = 2, "Face Goal With Velocity Blend";
    }
}

#[godot_api]
impl SwarmMovementProfile {
    #[func]
    fn get_orientation_mode(&self) -> OrientationModeEnum {
        self.orientation_mode
    }

    #[func]
    fn set_orientation_mode(&mut self, orientation_mode: OrientationModeEnum) {
        self.orientation_mode = orientation_mode;
    }
}

impl SwarmMovementProfile {
    /// The core profile, checked by the core; its findings go to `problems` under this
    /// resource's name.
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> MovementProfile {
        let mut findings = Vec::new();
        let mode = OrientationMode::from_index(mb::ORIENTATION_MODE.narrow(self.orientation_mode.0, &mut findings));
        let m = MovementProfile {
            max_speed: to_range(self.max_speed),
            max_acceleration: to_range(self.max_acceleration),
            braking_acceleration: to_range(self.braking_acceleration),
            steering_response: to_range(self.steering_response),
            max_turn_speed: to_range(self.max_turn_speed),
            max_turn_acceleration: to_range(self.max_turn_acceleration),
            orientation_mode: mode,
            goal_facing_weight: to_range(self.goal_facing_weight),
            velocity_facing_weight: to_range(self.velocity_facing_weight),
        }
        .checked(&mut findings);
        let name = resource_name(&self.base().clone().upcast(), "SwarmMovementProfile");
        report_findings(&format!("{owner}: {name}"), &findings, problems);
        m
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmMovementProfile {
    /// Every property edit is announced with `changed`: a manager using this resource converts
    /// it again on its next frame (and only then).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
