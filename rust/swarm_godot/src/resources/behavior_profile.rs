//! `SwarmBehaviorProfile`: which steering behaviours run and how strongly.

use godot::prelude::*;
use swarm_core::BehaviorProfile;

use crate::convert::{resource_name, Checker};

/// Which steering behaviours an archetype uses and how strongly each one pulls. Behaviours are
/// additive: each adds its weighted vector, the sum is clamped to unit length and scaled by max
/// speed. Weights are relative: doubling every weight changes nothing, and raising one weight
/// lowers the influence of all others. A behaviour that is switched off costs nothing (no neighbour
/// query). The defaults give the standard horde: Approach & Surround, Personal Space and Idle Motion.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmBehaviorProfile {
    /// Head for a slot on a ring around the target and stop there.
    #[export_group(name = "Approach & Surround")]
    #[export]
    #[init(val = true)]
    use_approach: bool,
    /// Relative strength of the approach pull.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    approach_weight: f32,
    /// Radius of the ring of slots around the target, from its centre.
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.5)]
    surround_radius: f32,
    /// Inside this distance an agent solves its slot from its own side of the target instead
    /// of its fixed slot angle, so arriving agents do not cross over each other.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 8.0)]
    surround_near_band: f32,
    /// Within this distance of its slot an agent slows down so it stops on the slot.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.5)]
    arrival_distance: f32,
    /// The ring lags this many seconds of the target's velocity behind a moving target, so the
    /// horde trails it instead of overshooting.
    #[export(range = (0.0, 2.0, 0.01, suffix = "s"))]
    #[init(val = 0.3)]
    trail_time: f32,

    /// Push away from neighbours that come closer than the spacing radius.
    #[export_group(name = "Personal Space")]
    #[export]
    #[init(val = true)]
    use_personal_space: bool,
    /// Relative strength of the push away from neighbours.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    spacing_strength: f32,
    /// Neighbours closer than this push.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.2)]
    spacing_radius: f32,
    /// Most neighbours considered per step (the cost cap).
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 8)]
    spacing_max_samples: i64,

    /// A cheap wander for agents that nothing else moves (no target, or standing on their slot).
    #[export_group(name = "Idle Motion")]
    #[export]
    #[init(val = true)]
    use_idle_motion: bool,
    /// Relative strength of the wander.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 0.25)]
    idle_weight: f32,
    /// Wander speed as a fraction of max speed.
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.3)]
    idle_strength: f32,
    /// Seconds between changes of wander direction.
    #[export(range = (0.05, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 2.0)]
    idle_period: f32,

    /// Size the ring for the crowd on it: a band starting at [member combat_standoff], pushed
    /// outward when more agents chase the target than it holds, with crowding sliding agents
    /// sideways along the ring into open lanes. Changes the radius Approach & Surround uses.
    #[export_group(name = "Surround Shape")]
    #[export]
    use_surround_shape: bool,
    /// Smallest ring radius: the distance agents keep from the target while fighting.
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.2)]
    combat_standoff: f32,
    /// Radial thickness of the band of slots.
    #[export(range = (0.05, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.0)]
    surround_width: f32,
    /// Room each agent takes on the ring; more agents than fit push the ring out.
    #[export(range = (0.05, 5.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.9)]
    surround_spacing: f32,
    /// How strongly crowding slides an agent along the ring into an open lane.
    #[export(range = (0.0, 3.0, 0.01))]
    #[init(val = 0.6)]
    lane_slide_strength: f32,

    /// Pull toward the centre of nearby allies so a pack moves together.
    #[export_group(name = "Hold Nearby Swarm")]
    #[export]
    use_hold_nearby: bool,
    /// Relative strength of the group pull.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 0.4)]
    hold_strength: f32,
    #[export(range = (0.0, 30.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 4.0)]
    hold_radius: f32,
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 8)]
    hold_max_samples: i64,

    /// Seek where the target will be: lead it by the time it takes to get there.
    #[export_group(name = "Predictive Catch-Up")]
    #[export]
    use_predictive: bool,
    /// Relative strength of the lead.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    predictive_weight: f32,
    /// Most seconds of target motion to lead by.
    #[export(range = (0.0, 5.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.8)]
    look_ahead_time: f32,
    /// Most metres to lead by.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 8.0)]
    max_prediction_distance: f32,

    /// Back off when closer than [member retreat_start_distance], with a push that fades until
    /// [member retreat_stop_distance] (hit and run).
    #[export_group(name = "Retreat")]
    #[export]
    use_retreat: bool,
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.5)]
    retreat_weight: f32,
    #[export(range = (0.0, 30.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 2.0)]
    retreat_start_distance: f32,
    #[export(range = (0.0, 60.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 7.0)]
    retreat_stop_distance: f32,

    /// Turn-taking: at most [member max_active_attackers] agents press one target inside
    /// [member strike_distance] at a time; the rest queue just outside and circle. Each agent may
    /// press only during its own [member press_window] of every [member turn_taking_cycle].
    #[export_group(name = "Close-Range Pressure")]
    #[export]
    use_pressure: bool,
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.6)]
    strike_distance: f32,
    #[export(range = (0.0, 32.0, 1.0, or_greater))]
    #[init(val = 3)]
    max_active_attackers: i64,
    #[export(range = (0.05, 30.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 4.0)]
    turn_taking_cycle: f32,
    #[export(range = (0.0, 30.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 2.0)]
    press_window: f32,
    /// How far outside the strike distance queued agents wait.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.5)]
    queue_gap: f32,
    /// Strength of the circling of queued agents.
    #[export(range = (0.0, 3.0, 0.01))]
    #[init(val = 0.5)]
    queue_circle_strength: f32,

    /// Circle the target at [member orbit_radius] (harassers).
    #[export_group(name = "Orbit Style")]
    #[export]
    use_orbit: bool,
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    orbit_weight: f32,
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 7.0)]
    orbit_radius: f32,
    /// 1 counter-clockwise, -1 clockwise, 0 a random direction per agent.
    #[export(range = (-1.0, 1.0, 1.0))]
    #[init(val = 0)]
    orbit_direction: i64,

    /// Agents farther than [member sight_distance] from their target cannot see it: they follow
    /// nearby allies who can, instead of heading straight for it.
    #[export_group(name = "Out-of-Sight Fallback")]
    #[export]
    use_out_of_sight: bool,
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 25.0)]
    sight_distance: f32,
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 8.0)]
    follow_radius: f32,
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 8)]
    follow_max_samples: i64,

    base: Base<Resource>,
}

impl SwarmBehaviorProfile {
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> BehaviorProfile {
        let d = BehaviorProfile::default();
        let mut c =
            Checker::new(format!("{owner}: {}", resource_name(&self.base().clone().upcast(), "SwarmBehaviorProfile")));
        let b = BehaviorProfile {
            use_approach: self.use_approach,
            approach_weight: c.f("approach_weight", self.approach_weight, 0.0, 1000.0, d.approach_weight),
            surround_radius: c.f("surround_radius", self.surround_radius, 0.0, 1000.0, d.surround_radius),
            surround_near_band: c.f("surround_near_band", self.surround_near_band, 0.0, 10_000.0, d.surround_near_band),
            arrival_distance: c.f("arrival_distance", self.arrival_distance, 0.0, 1000.0, d.arrival_distance),
            trail_time: c.f("trail_time", self.trail_time, 0.0, 10.0, d.trail_time),
            use_personal_space: self.use_personal_space,
            spacing_strength: c.f("spacing_strength", self.spacing_strength, 0.0, 1000.0, d.spacing_strength),
            spacing_radius: c.f("spacing_radius", self.spacing_radius, 0.0, 100.0, d.spacing_radius),
            spacing_max_samples: c.i("spacing_max_samples", self.spacing_max_samples, 1, 64) as u32,
            use_idle_motion: self.use_idle_motion,
            idle_weight: c.f("idle_weight", self.idle_weight, 0.0, 1000.0, d.idle_weight),
            idle_strength: c.f("idle_strength", self.idle_strength, 0.0, 1.0, d.idle_strength),
            idle_period: c.f("idle_period", self.idle_period, 0.05, 60.0, d.idle_period),
            use_surround_shape: self.use_surround_shape,
            combat_standoff: c.f("combat_standoff", self.combat_standoff, 0.0, 1000.0, d.combat_standoff),
            surround_width: c.f("surround_width", self.surround_width, 0.05, 100.0, d.surround_width),
            surround_spacing: c.f("surround_spacing", self.surround_spacing, 0.05, 100.0, d.surround_spacing),
            lane_slide_strength: c.f("lane_slide_strength", self.lane_slide_strength, 0.0, 10.0, d.lane_slide_strength),
            use_hold_nearby: self.use_hold_nearby,
            hold_strength: c.f("hold_strength", self.hold_strength, 0.0, 1000.0, d.hold_strength),
            hold_radius: c.f("hold_radius", self.hold_radius, 0.0, 100.0, d.hold_radius),
            hold_max_samples: c.i("hold_max_samples", self.hold_max_samples, 1, 64) as u32,
            use_predictive: self.use_predictive,
            predictive_weight: c.f("predictive_weight", self.predictive_weight, 0.0, 1000.0, d.predictive_weight),
            look_ahead_time: c.f("look_ahead_time", self.look_ahead_time, 0.0, 10.0, d.look_ahead_time),
            max_prediction_distance: c.f(
                "max_prediction_distance",
                self.max_prediction_distance,
                0.0,
                1000.0,
                d.max_prediction_distance,
            ),
            use_retreat: self.use_retreat,
            retreat_weight: c.f("retreat_weight", self.retreat_weight, 0.0, 1000.0, d.retreat_weight),
            retreat_start_distance: c.f(
                "retreat_start_distance",
                self.retreat_start_distance,
                0.0,
                1000.0,
                d.retreat_start_distance,
            ),
            retreat_stop_distance: c.f(
                "retreat_stop_distance",
                self.retreat_stop_distance,
                0.0,
                1000.0,
                d.retreat_stop_distance,
            ),
            use_pressure: self.use_pressure,
            strike_distance: c.f("strike_distance", self.strike_distance, 0.0, 1000.0, d.strike_distance),
            max_active_attackers: c.i("max_active_attackers", self.max_active_attackers, 0, 1024) as u32,
            turn_taking_cycle: c.f("turn_taking_cycle", self.turn_taking_cycle, 0.05, 600.0, d.turn_taking_cycle),
            press_window: c.f("press_window", self.press_window, 0.0, 600.0, d.press_window),
            queue_gap: c.f("queue_gap", self.queue_gap, 0.0, 100.0, d.queue_gap),
            queue_circle_strength: c.f(
                "queue_circle_strength",
                self.queue_circle_strength,
                0.0,
                10.0,
                d.queue_circle_strength,
            ),
            use_orbit: self.use_orbit,
            orbit_weight: c.f("orbit_weight", self.orbit_weight, 0.0, 1000.0, d.orbit_weight),
            orbit_radius: c.f("orbit_radius", self.orbit_radius, 0.0, 1000.0, d.orbit_radius),
            orbit_direction: c.i("orbit_direction", self.orbit_direction, -1, 1) as i32,
            use_out_of_sight: self.use_out_of_sight,
            sight_distance: c.f("sight_distance", self.sight_distance, 0.0, 1e6, d.sight_distance),
            follow_radius: c.f("follow_radius", self.follow_radius, 0.0, 100.0, d.follow_radius),
            follow_max_samples: c.i("follow_max_samples", self.follow_max_samples, 1, 64) as u32,
        };
        problems.append(&mut c.problems);
        b
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmBehaviorProfile {
    /// Every property edit is announced with `changed`: a manager using this resource converts
    /// it again on its next frame (and only then).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
