//! Plain configuration data the simulation reads: world settings, archetypes and their
//! behaviour and movement profiles. Defaults and bounds come from `bounds`; every value is
//! validated once by `checked()` (which returns what it changed as findings, for the engine
//! layer to report) or `sanitized()` (the same, silently), so the step never sees a NaN, a
//! negative radius or an inverted range.

use serde::{Deserialize, Serialize};

use crate::bounds::{archetype as ab, behavior as bb, movement as mb, perception as pb, world as wb};
use crate::lod::LodSettings;
use crate::sanitize::{Finding, RangeBound};

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
    /// The default of the pair setting `b`.
    pub const fn default_of(b: &RangeBound) -> Self {
        Self { min: b.default.0, max: b.default.1 }
    }
    /// Both ends within `b` (NaN replaced by the end's default), in order; what had to change
    /// goes to `out`.
    pub fn checked(self, b: &RangeBound, out: &mut Vec<Finding>) -> Range {
        let (min, max) = b.check((self.min, self.max), out);
        Range { min, max }
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
            max_agents: wb::MAX_AGENTS.default as usize,
            body_blocking: true,
            body_blocking_iterations: wb::BODY_BLOCKING_ITERATIONS.default as u32,
            ground_height: wb::GROUND_HEIGHT.default,
            max_active_target_count: wb::MAX_ACTIVE_TARGET_COUNT.default as usize,
            target_stickiness: wb::TARGET_STICKINESS.default,
            retarget_interval: wb::RETARGET_INTERVAL.default,
            retarget_hysteresis: wb::RETARGET_HYSTERESIS.default,
            agent_height: wb::AGENT_HEIGHT.default,
            worker_threads: wb::WORKER_THREADS.default as usize,
            surface_flow_enforce_cell_boundaries: true,
            surface_flow_rebake_interval: wb::SURFACE_FLOW_REBAKE_INTERVAL.default,
            lod: LodSettings::default(),
            dormancy_enabled: true,
            dormancy_distance: wb::DORMANCY_DISTANCE.default,
            dormancy_delay: wb::DORMANCY_DELAY.default,
            seed: 1,
        }
    }
}

impl WorldSettings {
    /// Every field within its bound; what had to change goes to `out`.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.max_agents = wb::MAX_AGENTS.check(self.max_agents, out);
        self.body_blocking_iterations = wb::BODY_BLOCKING_ITERATIONS.check(self.body_blocking_iterations, out);
        self.ground_height = wb::GROUND_HEIGHT.check(self.ground_height, out);
        self.max_active_target_count = wb::MAX_ACTIVE_TARGET_COUNT.check(self.max_active_target_count, out);
        self.target_stickiness = wb::TARGET_STICKINESS.check(self.target_stickiness, out);
        self.retarget_interval = wb::RETARGET_INTERVAL.check(self.retarget_interval, out);
        self.retarget_hysteresis = wb::RETARGET_HYSTERESIS.check(self.retarget_hysteresis, out);
        self.agent_height = wb::AGENT_HEIGHT.check(self.agent_height, out);
        self.worker_threads = wb::WORKER_THREADS.check(self.worker_threads, out);
        self.surface_flow_rebake_interval =
            wb::SURFACE_FLOW_REBAKE_INTERVAL.check(self.surface_flow_rebake_interval, out);
        self.lod = self.lod.checked(out);
        self.dormancy_distance = wb::DORMANCY_DISTANCE.check(self.dormancy_distance, out);
        self.dormancy_delay = wb::DORMANCY_DELAY.check(self.dormancy_delay, out);
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
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

impl OrientationMode {
    /// The mode at `index` (0, 1, 2 in declaration order); anything else faces velocity.
    pub fn from_index(index: i64) -> Self {
        match index {
            1 => Self::FaceGoal,
            2 => Self::FaceGoalWithVelocityBlend,
            _ => Self::FaceVelocity,
        }
    }
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
    /// Weights of the goal and travel directions in FaceGoalWithVelocityBlend, each agent's own
    /// drawn once at spawn from these ranges.
    pub goal_facing_weight: Range,
    pub velocity_facing_weight: Range,
}

impl Default for MovementProfile {
    fn default() -> Self {
        Self {
            max_speed: Range::default_of(&mb::MAX_SPEED),
            max_acceleration: Range::default_of(&mb::MAX_ACCELERATION),
            braking_acceleration: Range::default_of(&mb::BRAKING_ACCELERATION),
            steering_response: Range::default_of(&mb::STEERING_RESPONSE),
            max_turn_speed: Range::default_of(&mb::MAX_TURN_SPEED),
            max_turn_acceleration: Range::default_of(&mb::MAX_TURN_ACCELERATION),
            orientation_mode: OrientationMode::from_index(mb::ORIENTATION_MODE.default),
            goal_facing_weight: Range::default_of(&mb::GOAL_FACING_WEIGHT),
            velocity_facing_weight: Range::default_of(&mb::VELOCITY_FACING_WEIGHT),
        }
    }
}

impl MovementProfile {
    /// Every field within its bound; what had to change goes to `out`.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.max_speed = self.max_speed.checked(&mb::MAX_SPEED, out);
        self.max_acceleration = self.max_acceleration.checked(&mb::MAX_ACCELERATION, out);
        self.braking_acceleration = self.braking_acceleration.checked(&mb::BRAKING_ACCELERATION, out);
        self.steering_response = self.steering_response.checked(&mb::STEERING_RESPONSE, out);
        self.max_turn_speed = self.max_turn_speed.checked(&mb::MAX_TURN_SPEED, out);
        self.max_turn_acceleration = self.max_turn_acceleration.checked(&mb::MAX_TURN_ACCELERATION, out);
        self.goal_facing_weight = self.goal_facing_weight.checked(&mb::GOAL_FACING_WEIGHT, out);
        self.velocity_facing_weight = self.velocity_facing_weight.checked(&mb::VELOCITY_FACING_WEIGHT, out);
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
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
            approach_weight: bb::APPROACH_WEIGHT.default,
            surround_radius: bb::SURROUND_RADIUS.default,
            surround_near_band: bb::SURROUND_NEAR_BAND.default,
            arrival_distance: bb::ARRIVAL_DISTANCE.default,
            trail_time: bb::TRAIL_TIME.default,
            use_personal_space: true,
            spacing_strength: bb::SPACING_STRENGTH.default,
            spacing_radius: bb::SPACING_RADIUS.default,
            spacing_max_samples: bb::SPACING_MAX_SAMPLES.default as u32,
            use_idle_motion: true,
            idle_weight: bb::IDLE_WEIGHT.default,
            idle_strength: bb::IDLE_STRENGTH.default,
            idle_period: bb::IDLE_PERIOD.default,
            use_surround_shape: false,
            combat_standoff: bb::COMBAT_STANDOFF.default,
            surround_width: bb::SURROUND_WIDTH.default,
            surround_spacing: bb::SURROUND_SPACING.default,
            lane_slide_strength: bb::LANE_SLIDE_STRENGTH.default,
            use_hold_nearby: false,
            hold_strength: bb::HOLD_STRENGTH.default,
            hold_radius: bb::HOLD_RADIUS.default,
            hold_max_samples: bb::HOLD_MAX_SAMPLES.default as u32,
            use_predictive: false,
            predictive_weight: bb::PREDICTIVE_WEIGHT.default,
            look_ahead_time: bb::LOOK_AHEAD_TIME.default,
            max_prediction_distance: bb::MAX_PREDICTION_DISTANCE.default,
            use_retreat: false,
            retreat_weight: bb::RETREAT_WEIGHT.default,
            retreat_start_distance: bb::RETREAT_START_DISTANCE.default,
            retreat_stop_distance: bb::RETREAT_STOP_DISTANCE.default,
            use_pressure: false,
            strike_distance: bb::STRIKE_DISTANCE.default,
            max_active_attackers: bb::MAX_ACTIVE_ATTACKERS.default as u32,
            turn_taking_cycle: bb::TURN_TAKING_CYCLE.default,
            press_window: bb::PRESS_WINDOW.default,
            queue_gap: bb::QUEUE_GAP.default,
            queue_circle_strength: bb::QUEUE_CIRCLE_STRENGTH.default,
            use_orbit: false,
            orbit_weight: bb::ORBIT_WEIGHT.default,
            orbit_radius: bb::ORBIT_RADIUS.default,
            orbit_direction: bb::ORBIT_DIRECTION.default as i32,
            use_out_of_sight: false,
            sight_distance: bb::SIGHT_DISTANCE.default,
            follow_radius: bb::FOLLOW_RADIUS.default,
            follow_max_samples: bb::FOLLOW_MAX_SAMPLES.default as u32,
        }
    }
}

impl BehaviorProfile {
    /// Every field within its bound; what had to change goes to `out`. Then, silently: the
    /// retreat stops no nearer than it starts, and the press window fits in the turn-taking cycle.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.approach_weight = bb::APPROACH_WEIGHT.check(self.approach_weight, out);
        self.surround_radius = bb::SURROUND_RADIUS.check(self.surround_radius, out);
        self.surround_near_band = bb::SURROUND_NEAR_BAND.check(self.surround_near_band, out);
        self.arrival_distance = bb::ARRIVAL_DISTANCE.check(self.arrival_distance, out);
        self.trail_time = bb::TRAIL_TIME.check(self.trail_time, out);
        self.spacing_strength = bb::SPACING_STRENGTH.check(self.spacing_strength, out);
        self.spacing_radius = bb::SPACING_RADIUS.check(self.spacing_radius, out);
        self.spacing_max_samples = bb::SPACING_MAX_SAMPLES.check(self.spacing_max_samples, out);
        self.idle_weight = bb::IDLE_WEIGHT.check(self.idle_weight, out);
        self.idle_strength = bb::IDLE_STRENGTH.check(self.idle_strength, out);
        self.idle_period = bb::IDLE_PERIOD.check(self.idle_period, out);
        self.combat_standoff = bb::COMBAT_STANDOFF.check(self.combat_standoff, out);
        self.surround_width = bb::SURROUND_WIDTH.check(self.surround_width, out);
        self.surround_spacing = bb::SURROUND_SPACING.check(self.surround_spacing, out);
        self.lane_slide_strength = bb::LANE_SLIDE_STRENGTH.check(self.lane_slide_strength, out);
        self.hold_strength = bb::HOLD_STRENGTH.check(self.hold_strength, out);
        self.hold_radius = bb::HOLD_RADIUS.check(self.hold_radius, out);
        self.hold_max_samples = bb::HOLD_MAX_SAMPLES.check(self.hold_max_samples, out);
        self.predictive_weight = bb::PREDICTIVE_WEIGHT.check(self.predictive_weight, out);
        self.look_ahead_time = bb::LOOK_AHEAD_TIME.check(self.look_ahead_time, out);
        self.max_prediction_distance = bb::MAX_PREDICTION_DISTANCE.check(self.max_prediction_distance, out);
        self.retreat_weight = bb::RETREAT_WEIGHT.check(self.retreat_weight, out);
        self.retreat_start_distance = bb::RETREAT_START_DISTANCE.check(self.retreat_start_distance, out);
        self.retreat_stop_distance =
            bb::RETREAT_STOP_DISTANCE.check(self.retreat_stop_distance, out).max(self.retreat_start_distance);
        self.strike_distance = bb::STRIKE_DISTANCE.check(self.strike_distance, out);
        self.max_active_attackers = bb::MAX_ACTIVE_ATTACKERS.check(self.max_active_attackers, out);
        self.turn_taking_cycle = bb::TURN_TAKING_CYCLE.check(self.turn_taking_cycle, out);
        self.press_window = bb::PRESS_WINDOW.check(self.press_window, out).min(self.turn_taking_cycle);
        self.queue_gap = bb::QUEUE_GAP.check(self.queue_gap, out);
        self.queue_circle_strength = bb::QUEUE_CIRCLE_STRENGTH.check(self.queue_circle_strength, out);
        self.orbit_weight = bb::ORBIT_WEIGHT.check(self.orbit_weight, out);
        self.orbit_radius = bb::ORBIT_RADIUS.check(self.orbit_radius, out);
        self.orbit_direction = bb::ORBIT_DIRECTION.check(self.orbit_direction, out);
        self.sight_distance = bb::SIGHT_DISTANCE.check(self.sight_distance, out);
        self.follow_radius = bb::FOLLOW_RADIUS.check(self.follow_radius, out);
        self.follow_max_samples = bb::FOLLOW_MAX_SAMPLES.check(self.follow_max_samples, out);
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
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

impl SightOcclusion {
    /// The mode at `index` (0, 1, 2 in declaration order); anything else is `NavigationPath`.
    pub fn from_index(index: i64) -> Self {
        match index {
            0 => Self::None,
            1 => Self::PhysicsRay,
            _ => Self::NavigationPath,
        }
    }
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
            sight_distance: pb::SIGHT_DISTANCE.default,
            sight_occlusion: SightOcclusion::from_index(pb::SIGHT_OCCLUSION.default),
            occlusion_detour_tolerance: pb::OCCLUSION_DETOUR_TOLERANCE.default,
            forget_time: pb::FORGET_TIME.default,
            search_enabled: true,
            alert_spread_radius: pb::ALERT_SPREAD_RADIUS.default,
        }
    }
}

impl PerceptionProfile {
    /// Every field within its bound; what had to change goes to `out`.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.sight_distance = pb::SIGHT_DISTANCE.check(self.sight_distance, out);
        self.occlusion_detour_tolerance = pb::OCCLUSION_DETOUR_TOLERANCE.check(self.occlusion_detour_tolerance, out);
        self.forget_time = pb::FORGET_TIME.check(self.forget_time, out);
        self.alert_spread_radius = pb::ALERT_SPREAD_RADIUS.check(self.alert_spread_radius, out);
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
    }
}

/// An agent type: body, health and the profiles it uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Archetype {
    pub agent_radius: f32,
    /// Relative mass in body blocking: the heavier of two agents yields less.
    pub push_resistance: f32,
    pub max_health: f32,
    /// How hard this archetype hits doors and barricades: each blow on an obstacle is multiplied
    /// by this, on top of the receiver's own strike damage scale. 0: it only presses obstacles.
    pub obstacle_damage_scale: f32,
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
            agent_radius: ab::AGENT_RADIUS.default,
            push_resistance: ab::PUSH_RESISTANCE.default,
            max_health: ab::MAX_HEALTH.default,
            obstacle_damage_scale: ab::OBSTACLE_DAMAGE_SCALE.default,
            behavior: BehaviorProfile::default(),
            movement: MovementProfile::default(),
            attack: None,
            perception: None,
        }
    }
}

impl Archetype {
    /// Every field, and every profile's, within its bound; what had to change goes to `out`.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.agent_radius = ab::AGENT_RADIUS.check(self.agent_radius, out);
        self.push_resistance = ab::PUSH_RESISTANCE.check(self.push_resistance, out);
        self.max_health = ab::MAX_HEALTH.check(self.max_health, out);
        self.obstacle_damage_scale = ab::OBSTACLE_DAMAGE_SCALE.check(self.obstacle_damage_scale, out);
        self.behavior = self.behavior.checked(out);
        self.movement = self.movement.checked(out);
        self.attack = self.attack.map(|a| a.checked(out));
        self.perception = self.perception.map(|p| p.checked(out));
        self
    }

    /// `checked`, silently.
    pub fn sanitized(self) -> Self {
        self.checked(&mut Vec::new())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn range_checked_orders_and_replaces_nan() {
        let mut out = Vec::new();
        let r = Range::new(5.0, f32::NAN).checked(&mb::STEERING_RESPONSE, &mut out);
        assert_eq!(r, Range::new(0.15, 5.0));
        let r = Range::new(-3.0, 2e6).checked(&mb::MAX_SPEED, &mut out);
        assert_eq!(r, Range::new(0.0, 1000.0));
        assert_eq!(out.len(), 4, "{out:?}");
        assert!(out.iter().all(|f| f.field == "steering_response" || f.field == "max_speed"));
    }

    #[test]
    fn defaults_pass_their_own_check() {
        let a =
            Archetype { attack: Some(Default::default()), perception: Some(Default::default()), ..Default::default() };
        let mut out = Vec::new();
        assert_eq!(a.clone().checked(&mut out), a);
        assert_eq!(WorldSettings::default().checked(&mut out), WorldSettings::default());
        assert!(out.is_empty(), "{out:?}");
    }

    #[test]
    fn enum_defaults_match_their_index_bounds() {
        assert_eq!(OrientationMode::from_index(mb::ORIENTATION_MODE.default), OrientationMode::default());
        assert_eq!(SightOcclusion::from_index(pb::SIGHT_OCCLUSION.default), SightOcclusion::default());
        assert_eq!(OrientationMode::from_index(mb::ORIENTATION_MODE.hi), OrientationMode::FaceGoalWithVelocityBlend);
        assert_eq!(SightOcclusion::from_index(pb::SIGHT_OCCLUSION.lo), SightOcclusion::None);
    }

    #[test]
    fn checked_names_each_bad_field_and_the_value_used() {
        use crate::sanitize::{Reason, Value};
        let mut b = BehaviorProfile::default();
        b.spacing_radius = -2.0;
        b.idle_period = f32::NAN;
        b.hold_max_samples = 0;
        b.orbit_direction = 5;
        let mut out = Vec::new();
        let b = b.checked(&mut out);
        let fields: Vec<_> = out.iter().map(|f| f.field).collect();
        assert_eq!(fields, ["spacing_radius", "idle_period", "hold_max_samples", "orbit_direction"]);
        assert_eq!((b.spacing_radius, out[0].used), (0.0, Value::Float(0.0)));
        assert_eq!(out[1].reason, Reason::NotANumber);
        assert_eq!(b.idle_period, bb::IDLE_PERIOD.default);
        assert_eq!((b.hold_max_samples, b.orbit_direction), (1, 1));
        assert_eq!(out[3].reason, Reason::OutOfRange { lo: Value::Int(-1), hi: Value::Int(1) });
    }

    #[test]
    fn cross_field_rules_apply_without_findings() {
        let mut b = BehaviorProfile::default();
        b.retreat_start_distance = 9.0;
        b.retreat_stop_distance = 3.0;
        b.turn_taking_cycle = 1.0;
        b.press_window = 2.0;
        let mut out = Vec::new();
        let b = b.checked(&mut out);
        assert_eq!((b.retreat_stop_distance, b.press_window), (9.0, 1.0));
        assert!(out.is_empty());
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
