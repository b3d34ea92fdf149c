//! Plain configuration data the simulation reads: world settings, archetypes and their
//! behaviour and movement profiles. Every value is validated once by `sanitized()` so the
//! step never sees a NaN, a negative radius or an inverted range.

use serde::{Deserialize, Serialize};

use crate::lod::LodSettings;
pub use crate::sanitize::finite_clamp;

/// A closed range `min..=max` sampled once per agent at spawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Range {
    pub min: f32,
    pub max: f32,
}

impl Range {
    pub const fn new(min: f32, max: f32) -> Self {
        Self { min, max }
    }
    pub const fn fixed(v: f32) -> Self {
        Self { min: v, max: v }
    }
    /// Clamps both ends into `lo..=hi`, replaces NaN by `fallback` and orders the ends.
    pub fn sanitized(self, lo: f32, hi: f32, fallback: Range) -> Range {
        let fix = |v: f32, f: f32| if v.is_finite() { v.clamp(lo, hi) } else { f };
        let a = fix(self.min, fallback.min);
        let b = fix(self.max, fallback.max);
        Range { min: a.min(b), max: a.max(b) }
    }
    /// Linear interpolation at `t` in 0..1.
    pub fn at(self, t: f32) -> f32 {
        self.min + (self.max - self.min) * t
    }
}

/// Global parameters of one world (Godot: `SwarmSettings` + manager fields).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WorldSettings {
    /// Preallocated capacity; spawning past it is refused.
    pub max_agents: usize,
    /// Agents do not interpenetrate when on.
    pub body_blocking: bool,
    /// Position corrections per step for body blocking (Jacobi passes).
    pub body_blocking_iterations: u32,
    /// Height of the ground plane agents stand on (until a surface flow field exists).
    pub ground_height: f32,
    /// Up to this many registered targets are chased at once.
    pub max_active_target_count: usize,
    /// Scale applied to an active target's distance when reselecting (0.8 = 20 % bonus).
    pub target_stickiness: f32,
    /// Seconds between an agent's retarget checks (jittered per agent by up to 50 %).
    pub retarget_interval: f32,
    /// A new target must be this fraction closer than the current one to take over.
    pub retarget_hysteresis: f32,
    /// Height of an agent's body for ray queries (metres above its feet).
    pub agent_height: f32,
    /// Worker threads for the step; 0 = all cores.
    pub worker_threads: usize,
    /// With a surface flow field: agents are kept out of cells they may not enter.
    pub surface_flow_enforce_cell_boundaries: bool,
    /// Least seconds between two rebuilds of a target's field when route costs change.
    pub surface_flow_rebake_interval: f32,
    /// Importance LOD: distances, Full cap, throttling per tier.
    pub lod: LodSettings,
    /// Agents farther than `dormancy_distance` from their target and off camera for
    /// `dormancy_delay` seconds stop steering until a target comes within 90% of that distance.
    pub dormancy_enabled: bool,
    pub dormancy_distance: f32,
    pub dormancy_delay: f32,
    /// Seed of the world's random number generator.
    pub seed: u64,
}

impl Default for WorldSettings {
    fn default() -> Self {
        Self {
            max_agents: 20_000,
            body_blocking: true,
            body_blocking_iterations: 2,
            ground_height: 0.0,
            max_active_target_count: 10,
            target_stickiness: 0.8,
            retarget_interval: 0.5,
            retarget_hysteresis: 0.15,
            agent_height: 1.8,
            worker_threads: 0,
            surface_flow_enforce_cell_boundaries: true,
            surface_flow_rebake_interval: 0.5,
            lod: LodSettings::default(),
            dormancy_enabled: true,
            dormancy_distance: 80.0,
            dormancy_delay: 3.0,
            seed: 1,
        }
    }
}

impl WorldSettings {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.max_agents = self.max_agents.clamp(1, 4_000_000);
        self.body_blocking_iterations = self.body_blocking_iterations.clamp(1, 8);
        self.ground_height = finite_clamp(self.ground_height, -1e6, 1e6, 0.0);
        self.max_active_target_count = self.max_active_target_count.clamp(1, 1024);
        self.target_stickiness = finite_clamp(self.target_stickiness, 0.1, 1.0, d.target_stickiness);
        self.retarget_interval = finite_clamp(self.retarget_interval, 0.0, 60.0, d.retarget_interval);
        self.retarget_hysteresis = finite_clamp(self.retarget_hysteresis, 0.0, 0.9, d.retarget_hysteresis);
        self.worker_threads = self.worker_threads.min(256);
        self.agent_height = finite_clamp(self.agent_height, 0.01, 1000.0, d.agent_height);
        self.lod = self.lod.sanitized();
        self.surface_flow_rebake_interval =
            finite_clamp(self.surface_flow_rebake_interval, 0.0, 3600.0, d.surface_flow_rebake_interval);
        self.dormancy_distance = finite_clamp(self.dormancy_distance, 0.0, 1e6, d.dormancy_distance);
        self.dormancy_delay = finite_clamp(self.dormancy_delay, 0.0, 3600.0, d.dormancy_delay);
        self
    }
}

/// Which way an agent's body faces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum OrientationMode {
    /// Face the direction of travel.
    #[default]
    FaceVelocity,
    /// Face the goal (the target or the slot being walked to).
    FaceGoal,
    /// Blend goal and velocity directions by their weights.
    FaceGoalWithVelocityBlend,
}

/// Speed, acceleration and turning, as ranges sampled per agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MovementProfile {
    pub max_speed: Range,
    pub max_acceleration: Range,
    pub braking_acceleration: Range,
    /// Time constant (s) of steering smoothing; 0 = immediate.
    pub steering_response: Range,
    /// Degrees per second.
    pub max_turn_speed: Range,
    /// Degrees per second squared.
    pub max_turn_acceleration: Range,
    pub orientation_mode: OrientationMode,
    pub goal_facing_weight: f32,
    pub velocity_facing_weight: f32,
}

impl Default for MovementProfile {
    fn default() -> Self {
        Self {
            max_speed: Range::new(3.5, 4.5),
            max_acceleration: Range::new(10.0, 14.0),
            braking_acceleration: Range::new(14.0, 18.0),
            steering_response: Range::new(0.08, 0.15),
            max_turn_speed: Range::new(360.0, 540.0),
            max_turn_acceleration: Range::new(2000.0, 3000.0),
            orientation_mode: OrientationMode::FaceVelocity,
            goal_facing_weight: 1.0,
            velocity_facing_weight: 1.0,
        }
    }
}

impl MovementProfile {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.max_speed = self.max_speed.sanitized(0.0, 1000.0, d.max_speed);
        self.max_acceleration = self.max_acceleration.sanitized(0.0, 10_000.0, d.max_acceleration);
        self.braking_acceleration = self.braking_acceleration.sanitized(0.0, 10_000.0, d.braking_acceleration);
        self.steering_response = self.steering_response.sanitized(0.0, 10.0, d.steering_response);
        self.max_turn_speed = self.max_turn_speed.sanitized(0.0, 100_000.0, d.max_turn_speed);
        self.max_turn_acceleration = self.max_turn_acceleration.sanitized(0.0, 1_000_000.0, d.max_turn_acceleration);
        self.goal_facing_weight = finite_clamp(self.goal_facing_weight, 0.0, 100.0, 1.0);
        self.velocity_facing_weight = finite_clamp(self.velocity_facing_weight, 0.0, 100.0, 1.0);
        self
    }
}

/// Which steering behaviours run and how strongly each contributes.
/// Weights are relative (see `steering::blend`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct BehaviorProfile {
    // Approach & Surround
    pub use_approach: bool,
    pub approach_weight: f32,
    /// Radius of the ring of slots around the target, measured from its centre.
    pub surround_radius: f32,
    /// Inside this distance from the target an agent solves its slot adaptively
    /// (keeps its own side of the target) instead of heading for its fixed slot.
    pub surround_near_band: f32,
    /// Within this distance of its slot an agent slows down to stop on it.
    pub arrival_distance: f32,
    /// Seconds of target velocity by which the ring trails behind a moving target.
    pub trail_time: f32,
    // Personal Space
    pub use_personal_space: bool,
    pub spacing_strength: f32,
    pub spacing_radius: f32,
    pub spacing_max_samples: u32,
    // Idle Motion
    pub use_idle_motion: bool,
    pub idle_weight: f32,
    /// Wander speed as a fraction of max speed.
    pub idle_strength: f32,
    /// Seconds between wander direction changes.
    pub idle_period: f32,
    // Surround Shape
    pub use_surround_shape: bool,
    /// Smallest ring radius around the target (the distance agents keep while fighting).
    pub combat_standoff: f32,
    /// Radial thickness of the band of slots; crowding beyond what the band holds pushes it out.
    pub surround_width: f32,
    /// Room each agent takes on the ring (metres between neighbours).
    pub surround_spacing: f32,
    /// How strongly crowding pushes an agent sideways along the ring into open lanes.
    pub lane_slide_strength: f32,
    // Hold Nearby Swarm
    pub use_hold_nearby: bool,
    pub hold_strength: f32,
    pub hold_radius: f32,
    pub hold_max_samples: u32,
    // Predictive Catch-Up
    pub use_predictive: bool,
    pub predictive_weight: f32,
    /// Seconds of target motion to lead by (capped by the time to reach the target).
    pub look_ahead_time: f32,
    pub max_prediction_distance: f32,
    // Retreat
    pub use_retreat: bool,
    pub retreat_weight: f32,
    /// Closer than this to the target an agent starts to back off...
    pub retreat_start_distance: f32,
    /// ...and keeps backing off, with a fading push, until it is this far.
    pub retreat_stop_distance: f32,
    // Close-Range Pressure
    pub use_pressure: bool,
    /// Agents press inside this distance of the target (their attack reach).
    pub strike_distance: f32,
    /// At most this many agents press one target at a time; the rest queue and circle.
    pub max_active_attackers: u32,
    /// Seconds of one turn-taking cycle; each agent may press during its own window of it.
    pub turn_taking_cycle: f32,
    /// Seconds of each cycle an agent is allowed to press.
    pub press_window: f32,
    /// How far outside the strike distance queued agents wait.
    pub queue_gap: f32,
    /// Strength of the circling of queued agents.
    pub queue_circle_strength: f32,
    // Orbit Style
    pub use_orbit: bool,
    pub orbit_weight: f32,
    pub orbit_radius: f32,
    /// +1 counter-clockwise, -1 clockwise, 0 a random direction per agent.
    pub orbit_direction: i32,
    // Out-of-Sight Fallback
    pub use_out_of_sight: bool,
    /// Agents farther than this from their target cannot see it: they follow allies who can.
    pub sight_distance: f32,
    pub follow_radius: f32,
    pub follow_max_samples: u32,
}

impl Default for BehaviorProfile {
    fn default() -> Self {
        Self {
            use_approach: true,
            approach_weight: 1.0,
            surround_radius: 1.5,
            surround_near_band: 8.0,
            arrival_distance: 1.5,
            trail_time: 0.3,
            use_personal_space: true,
            spacing_strength: 1.0,
            spacing_radius: 1.2,
            spacing_max_samples: 8,
            use_idle_motion: true,
            idle_weight: 0.25,
            idle_strength: 0.3,
            idle_period: 2.0,
            use_surround_shape: false,
            combat_standoff: 1.2,
            surround_width: 1.0,
            surround_spacing: 0.9,
            lane_slide_strength: 0.6,
            use_hold_nearby: false,
            hold_strength: 0.4,
            hold_radius: 4.0,
            hold_max_samples: 8,
            use_predictive: false,
            predictive_weight: 1.0,
            look_ahead_time: 0.8,
            max_prediction_distance: 8.0,
            use_retreat: false,
            retreat_weight: 1.5,
            retreat_start_distance: 2.0,
            retreat_stop_distance: 7.0,
            use_pressure: false,
            strike_distance: 1.6,
            max_active_attackers: 3,
            turn_taking_cycle: 4.0,
            press_window: 2.0,
            queue_gap: 1.5,
            queue_circle_strength: 0.5,
            use_orbit: false,
            orbit_weight: 1.0,
            orbit_radius: 7.0,
            orbit_direction: 0,
            use_out_of_sight: false,
            sight_distance: 25.0,
            follow_radius: 8.0,
            follow_max_samples: 8,
        }
    }
}

impl BehaviorProfile {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.approach_weight = finite_clamp(self.approach_weight, 0.0, 1000.0, d.approach_weight);
        self.surround_radius = finite_clamp(self.surround_radius, 0.0, 1000.0, d.surround_radius);
        self.surround_near_band = finite_clamp(self.surround_near_band, 0.0, 10_000.0, d.surround_near_band);
        self.arrival_distance = finite_clamp(self.arrival_distance, 0.0, 1000.0, d.arrival_distance);
        self.trail_time = finite_clamp(self.trail_time, 0.0, 10.0, d.trail_time);
        self.spacing_strength = finite_clamp(self.spacing_strength, 0.0, 1000.0, d.spacing_strength);
        self.spacing_radius = finite_clamp(self.spacing_radius, 0.0, 100.0, d.spacing_radius);
        self.spacing_max_samples = self.spacing_max_samples.clamp(1, 64);
        self.idle_weight = finite_clamp(self.idle_weight, 0.0, 1000.0, d.idle_weight);
        self.idle_strength = finite_clamp(self.idle_strength, 0.0, 1.0, d.idle_strength);
        self.idle_period = finite_clamp(self.idle_period, 0.05, 60.0, d.idle_period);
        self.combat_standoff = finite_clamp(self.combat_standoff, 0.0, 1000.0, d.combat_standoff);
        self.surround_width = finite_clamp(self.surround_width, 0.05, 100.0, d.surround_width);
        self.surround_spacing = finite_clamp(self.surround_spacing, 0.05, 100.0, d.surround_spacing);
        self.lane_slide_strength = finite_clamp(self.lane_slide_strength, 0.0, 10.0, d.lane_slide_strength);
        self.hold_strength = finite_clamp(self.hold_strength, 0.0, 1000.0, d.hold_strength);
        self.hold_radius = finite_clamp(self.hold_radius, 0.0, 100.0, d.hold_radius);
        self.hold_max_samples = self.hold_max_samples.clamp(1, 64);
        self.predictive_weight = finite_clamp(self.predictive_weight, 0.0, 1000.0, d.predictive_weight);
        self.look_ahead_time = finite_clamp(self.look_ahead_time, 0.0, 10.0, d.look_ahead_time);
        self.max_prediction_distance =
            finite_clamp(self.max_prediction_distance, 0.0, 1000.0, d.max_prediction_distance);
        self.retreat_weight = finite_clamp(self.retreat_weight, 0.0, 1000.0, d.retreat_weight);
        self.retreat_start_distance = finite_clamp(self.retreat_start_distance, 0.0, 1000.0, d.retreat_start_distance);
        self.retreat_stop_distance = finite_clamp(self.retreat_stop_distance, 0.0, 1000.0, d.retreat_stop_distance)
            .max(self.retreat_start_distance);
        self.strike_distance = finite_clamp(self.strike_distance, 0.0, 1000.0, d.strike_distance);
        self.max_active_attackers = self.max_active_attackers.min(1024);
        self.turn_taking_cycle = finite_clamp(self.turn_taking_cycle, 0.05, 600.0, d.turn_taking_cycle);
        self.press_window = finite_clamp(self.press_window, 0.0, 600.0, d.press_window).min(self.turn_taking_cycle);
        self.queue_gap = finite_clamp(self.queue_gap, 0.0, 100.0, d.queue_gap);
        self.queue_circle_strength = finite_clamp(self.queue_circle_strength, 0.0, 10.0, d.queue_circle_strength);
        self.orbit_weight = finite_clamp(self.orbit_weight, 0.0, 1000.0, d.orbit_weight);
        self.orbit_radius = finite_clamp(self.orbit_radius, 0.0, 1000.0, d.orbit_radius);
        self.orbit_direction = self.orbit_direction.signum();
        self.sight_distance = finite_clamp(self.sight_distance, 0.0, 1e6, d.sight_distance);
        self.follow_radius = finite_clamp(self.follow_radius, 0.0, 100.0, d.follow_radius);
        self.follow_max_samples = self.follow_max_samples.clamp(1, 64);
        self
    }
}

/// How sight decides whether something between an agent and its target hides the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, Default)]
pub enum SightOcclusion {
    /// Distance only: within `sight_distance` the target is seen.
    None,
    /// A physics ray from the agent's eyes to the target, cast by the engine layer (see
    /// `World::sight_ray_requests`); until the first answer arrives the target reads as unseen.
    PhysicsRay,
    /// The route to the target on the surface flow field against the straight-line distance:
    /// a detour longer than `occlusion_detour_tolerance` hides the target (a closed door with a
    /// high route cost does). A route that cannot be measured reads as not blocked (seen).
    #[default]
    NavigationPath,
}

/// What an agent notices: sight, occlusion, memory, noise, alerts.
/// Optional on the archetype: without it an agent always knows where its target is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PerceptionProfile {
    /// Metres (ground plane): a target farther than this is never seen.
    pub sight_distance: f32,
    pub sight_occlusion: SightOcclusion,
    /// NavigationPath only: metres of extra route, beyond the straight-line distance, that still
    /// count as "in sight" (plus one and a half cells of grid slack). Metres, not a ratio, so a
    /// door's route cost hides a target at any distance. A closed door whose route cost is
    /// above this hides what is behind it; a fence with a lower cost hides nothing.
    pub occlusion_detour_tolerance: f32,
    /// Seconds after the last sight, noise or alert before a searching agent gives up and
    /// goes idle.
    pub forget_time: f32,
    /// On: the agent walks to where it last saw its target, and hears noises while it sees no
    /// target. Off: losing sight of the target makes it idle at once, and noises are ignored.
    pub search_enabled: bool,
    /// Metres: an agent that sees its target alerts other perceiving agents within this
    /// distance (through the same occlusion gate), giving them the target's position as a spot
    /// to search. 0 turns alerts off.
    pub alert_spread_radius: f32,
}

impl Default for PerceptionProfile {
    fn default() -> Self {
        Self {
            sight_distance: 30.0,
            sight_occlusion: SightOcclusion::NavigationPath,
            occlusion_detour_tolerance: 4.0,
            forget_time: 10.0,
            search_enabled: true,
            alert_spread_radius: 6.0,
        }
    }
}

impl PerceptionProfile {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.sight_distance = finite_clamp(self.sight_distance, 0.0, 1e6, d.sight_distance);
        self.occlusion_detour_tolerance =
            finite_clamp(self.occlusion_detour_tolerance, 0.0, 1e6, d.occlusion_detour_tolerance);
        self.forget_time = finite_clamp(self.forget_time, 0.0, 1e6, d.forget_time);
        self.alert_spread_radius = finite_clamp(self.alert_spread_radius, 0.0, 1000.0, d.alert_spread_radius);
        self
    }
}

/// An agent type: body, health and the profiles it uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Archetype {
    pub agent_radius: f32,
    /// Relative mass in body blocking: the heavier of two agents yields less.
    pub push_resistance: f32,
    pub max_health: f32,
    pub behavior: BehaviorProfile,
    pub movement: MovementProfile,
    /// How it attacks; `None` for agents that never attack.
    pub attack: Option<crate::combat::AttackProfile>,
    /// What it notices (sight, noise, alerts); `None`: it always knows where its target is.
    pub perception: Option<PerceptionProfile>,
}

impl Default for Archetype {
    fn default() -> Self {
        Self {
            agent_radius: 0.4,
            push_resistance: 1.0,
            max_health: 100.0,
            behavior: BehaviorProfile::default(),
            movement: MovementProfile::default(),
            attack: None,
            perception: None,
        }
    }
}

impl Archetype {
    pub fn sanitized(mut self) -> Self {
        let d = Self::default();
        self.agent_radius = finite_clamp(self.agent_radius, 0.01, 50.0, d.agent_radius);
        self.push_resistance = finite_clamp(self.push_resistance, 0.01, 1000.0, d.push_resistance);
        self.max_health = finite_clamp(self.max_health, 0.001, 1e9, d.max_health);
        self.behavior = self.behavior.sanitized();
        self.movement = self.movement.sanitized();
        self.attack = self.attack.map(|a| a.sanitized());
        self.perception = self.perception.map(|p| p.sanitized());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_sanitize_orders_and_replaces_nan() {
        let r = Range::new(5.0, f32::NAN).sanitized(0.0, 10.0, Range::new(1.0, 2.0));
        assert_eq!(r, Range::new(2.0, 5.0));
        let r = Range::new(-3.0, 20.0).sanitized(0.0, 10.0, Range::fixed(1.0));
        assert_eq!(r, Range::new(0.0, 10.0));
    }

    #[test]
    fn archetype_sanitize_keeps_values_finite() {
        let mut a = Archetype::default();
        a.agent_radius = -1.0;
        a.push_resistance = f32::INFINITY;
        a.behavior.spacing_radius = f32::NAN;
        let a = a.sanitized();
        assert!(a.agent_radius > 0.0);
        assert_eq!(a.push_resistance, 1.0);
        assert_eq!(a.behavior.spacing_radius, BehaviorProfile::default().spacing_radius);
    }
}
