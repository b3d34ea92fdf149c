//! Every setting's bounds and default, one line per field: the one place they are written.
//! The configs' `Default` impls and `checked()` read them, and the engine layer reports what a
//! check finds under these names, which are the names the user sets (the resources' property
//! names), grouped by the config that holds them. Each group's `ALL` lists its settings, so a
//! table can be checked as a whole (defaults in bounds, names unique, inspector hints agreeing).

use crate::sanitize::{Bound, FloatBound, IntBound, RangeBound, Setting};

const fn float(name: &'static str, lo: f32, hi: f32, default: f32) -> FloatBound {
    Bound { name, lo, hi, default }
}

const fn int(name: &'static str, lo: i64, hi: i64, default: i64) -> IntBound {
    Bound { name, lo, hi, default }
}

const fn range(name: &'static str, lo: f32, hi: f32, default: (f32, f32)) -> RangeBound {
    Bound { name, lo, hi, default }
}

/// `WorldSettings`: the `SwarmSettings` resource, plus the manager's own `ground_height` (the
/// manager's height), `max_active_target_count` and `agent_height`.
pub mod world {
    use super::*;

    pub const MAX_AGENTS: IntBound = int("max_agents", 1, 4_000_000, 20_000);
    pub const BODY_BLOCKING_ITERATIONS: IntBound = int("body_blocking_iterations", 1, 8, 2);
    pub const GROUND_HEIGHT: FloatBound = float("ground_height", -1e6, 1e6, 0.0);
    pub const MAX_ACTIVE_TARGET_COUNT: IntBound = int("max_active_target_count", 1, 1024, 10);
    pub const TARGET_STICKINESS: FloatBound = float("target_stickiness", 0.1, 1.0, 0.8);
    pub const RETARGET_INTERVAL: FloatBound = float("retarget_interval", 0.0, 60.0, 0.5);
    pub const RETARGET_HYSTERESIS: FloatBound = float("retarget_hysteresis", 0.0, 0.9, 0.15);
    pub const AGENT_HEIGHT: FloatBound = float("agent_height", 0.01, 1000.0, 1.8);
    pub const WORKER_THREADS: IntBound = int("worker_threads", 0, 256, 0);
    pub const SURFACE_FLOW_REBAKE_INTERVAL: FloatBound = float("surface_flow_rebake_interval", 0.0, 3600.0, 0.5);
    pub const DORMANCY_DISTANCE: FloatBound = float("dormancy_distance", 0.0, 1e6, 80.0);
    pub const DORMANCY_DELAY: FloatBound = float("dormancy_delay", 0.0, 3600.0, 3.0);

    pub const ALL: &[Setting] = &[
        Setting::Int(&MAX_AGENTS),
        Setting::Int(&BODY_BLOCKING_ITERATIONS),
        Setting::Float(&GROUND_HEIGHT),
        Setting::Int(&MAX_ACTIVE_TARGET_COUNT),
        Setting::Float(&TARGET_STICKINESS),
        Setting::Float(&RETARGET_INTERVAL),
        Setting::Float(&RETARGET_HYSTERESIS),
        Setting::Float(&AGENT_HEIGHT),
        Setting::Int(&WORKER_THREADS),
        Setting::Float(&SURFACE_FLOW_REBAKE_INTERVAL),
        Setting::Float(&DORMANCY_DISTANCE),
        Setting::Float(&DORMANCY_DELAY),
    ];
}

/// `LodSettings` (Importance LOD, on the `SwarmSettings` resource).
pub mod lod {
    use super::*;

    pub const NEAR_DISTANCE: FloatBound = float("lod_near_distance", 0.0, 1e6, 12.0);
    /// Also never below the near distance (raised to it without a finding).
    pub const MID_DISTANCE: FloatBound = float("lod_mid_distance", 0.0, 1e6, 35.0);
    pub const HYSTERESIS: FloatBound = float("lod_hysteresis", 0.0, 10.0, 0.1);
    pub const FULL_QUALITY_AGENT_CAP: IntBound = int("full_quality_agent_cap", 0, 10_000_000, 512);
    pub const REDUCED_INTERVAL: IntBound = int("reduced_update_interval", 1, 64, 2);
    pub const REDUCED_SAMPLE_CAP: IntBound = int("reduced_sample_cap", 1, 64, 4);
    pub const CHEAP_INTERVAL: IntBound = int("cheap_update_interval", 1, 64, 4);
    pub const CHEAP_SAMPLE_CAP: IntBound = int("cheap_sample_cap", 1, 64, 2);

    pub const ALL: &[Setting] = &[
        Setting::Float(&NEAR_DISTANCE),
        Setting::Float(&MID_DISTANCE),
        Setting::Float(&HYSTERESIS),
        Setting::Int(&FULL_QUALITY_AGENT_CAP),
        Setting::Int(&REDUCED_INTERVAL),
        Setting::Int(&REDUCED_SAMPLE_CAP),
        Setting::Int(&CHEAP_INTERVAL),
        Setting::Int(&CHEAP_SAMPLE_CAP),
    ];
}

/// `MovementProfile`.
pub mod movement {
    use super::*;

    pub const MAX_SPEED: RangeBound = range("max_speed", 0.0, 1000.0, (3.5, 4.5));
    pub const MAX_ACCELERATION: RangeBound = range("max_acceleration", 0.0, 10_000.0, (10.0, 14.0));
    pub const BRAKING_ACCELERATION: RangeBound = range("braking_acceleration", 0.0, 10_000.0, (14.0, 18.0));
    pub const STEERING_RESPONSE: RangeBound = range("steering_response", 0.0, 10.0, (0.08, 0.15));
    pub const MAX_TURN_SPEED: RangeBound = range("max_turn_speed", 0.0, 100_000.0, (360.0, 540.0));
    pub const MAX_TURN_ACCELERATION: RangeBound = range("max_turn_acceleration", 0.0, 1_000_000.0, (2000.0, 3000.0));
    /// Index of an `OrientationMode`.
    pub const ORIENTATION_MODE: IntBound = int("orientation_mode", 0, 2, 0);
    pub const GOAL_FACING_WEIGHT: RangeBound = range("goal_facing_weight", 0.0, 100.0, (1.0, 1.0));
    pub const VELOCITY_FACING_WEIGHT: RangeBound = range("velocity_facing_weight", 0.0, 100.0, (1.0, 1.0));

    pub const ALL: &[Setting] = &[
        Setting::Range(&MAX_SPEED),
        Setting::Range(&MAX_ACCELERATION),
        Setting::Range(&BRAKING_ACCELERATION),
        Setting::Range(&STEERING_RESPONSE),
        Setting::Range(&MAX_TURN_SPEED),
        Setting::Range(&MAX_TURN_ACCELERATION),
        Setting::Int(&ORIENTATION_MODE),
        Setting::Range(&GOAL_FACING_WEIGHT),
        Setting::Range(&VELOCITY_FACING_WEIGHT),
    ];
}

/// `BehaviorProfile`.
pub mod behavior {
    use super::*;

    pub const APPROACH_WEIGHT: FloatBound = float("approach_weight", 0.0, 1000.0, 1.0);
    pub const SURROUND_RADIUS: FloatBound = float("surround_radius", 0.0, 1000.0, 1.5);
    pub const SURROUND_NEAR_BAND: FloatBound = float("surround_near_band", 0.0, 10_000.0, 8.0);
    pub const ARRIVAL_DISTANCE: FloatBound = float("arrival_distance", 0.0, 1000.0, 1.5);
    pub const TRAIL_TIME: FloatBound = float("trail_time", 0.0, 10.0, 0.3);
    pub const SPACING_STRENGTH: FloatBound = float("spacing_strength", 0.0, 1000.0, 1.0);
    pub const SPACING_RADIUS: FloatBound = float("spacing_radius", 0.0, 100.0, 1.2);
    pub const SPACING_MAX_SAMPLES: IntBound = int("spacing_max_samples", 1, 64, 8);
    pub const IDLE_WEIGHT: FloatBound = float("idle_weight", 0.0, 1000.0, 0.25);
    pub const IDLE_STRENGTH: FloatBound = float("idle_strength", 0.0, 1.0, 0.3);
    pub const IDLE_PERIOD: FloatBound = float("idle_period", 0.05, 60.0, 2.0);
    pub const COMBAT_STANDOFF: FloatBound = float("combat_standoff", 0.0, 1000.0, 1.2);
    pub const SURROUND_WIDTH: FloatBound = float("surround_width", 0.05, 100.0, 1.0);
    pub const SURROUND_SPACING: FloatBound = float("surround_spacing", 0.05, 100.0, 0.9);
    pub const LANE_SLIDE_STRENGTH: FloatBound = float("lane_slide_strength", 0.0, 10.0, 0.6);
    pub const HOLD_STRENGTH: FloatBound = float("hold_strength", 0.0, 1000.0, 0.4);
    pub const HOLD_RADIUS: FloatBound = float("hold_radius", 0.0, 100.0, 4.0);
    pub const HOLD_MAX_SAMPLES: IntBound = int("hold_max_samples", 1, 64, 8);
    pub const PREDICTIVE_WEIGHT: FloatBound = float("predictive_weight", 0.0, 1000.0, 1.0);
    pub const LOOK_AHEAD_TIME: FloatBound = float("look_ahead_time", 0.0, 10.0, 0.8);
    pub const MAX_PREDICTION_DISTANCE: FloatBound = float("max_prediction_distance", 0.0, 1000.0, 8.0);
    pub const RETREAT_WEIGHT: FloatBound = float("retreat_weight", 0.0, 1000.0, 1.5);
    pub const RETREAT_START_DISTANCE: FloatBound = float("retreat_start_distance", 0.0, 1000.0, 2.0);
    /// Also never below the start distance (raised to it without a finding).
    pub const RETREAT_STOP_DISTANCE: FloatBound = float("retreat_stop_distance", 0.0, 1000.0, 7.0);
    pub const STRIKE_DISTANCE: FloatBound = float("strike_distance", 0.0, 1000.0, 1.6);
    pub const MAX_ACTIVE_ATTACKERS: IntBound = int("max_active_attackers", 0, 1024, 3);
    pub const TURN_TAKING_CYCLE: FloatBound = float("turn_taking_cycle", 0.05, 600.0, 4.0);
    /// Also never above the turn-taking cycle (lowered to it without a finding).
    pub const PRESS_WINDOW: FloatBound = float("press_window", 0.0, 600.0, 2.0);
    pub const QUEUE_GAP: FloatBound = float("queue_gap", 0.0, 100.0, 1.5);
    pub const QUEUE_CIRCLE_STRENGTH: FloatBound = float("queue_circle_strength", 0.0, 10.0, 0.5);
    pub const ORBIT_WEIGHT: FloatBound = float("orbit_weight", 0.0, 1000.0, 1.0);
    pub const ORBIT_RADIUS: FloatBound = float("orbit_radius", 0.0, 1000.0, 7.0);
    /// +1 counter-clockwise, -1 clockwise, 0 a random direction per agent.
    pub const ORBIT_DIRECTION: IntBound = int("orbit_direction", -1, 1, 0);
    pub const SIGHT_DISTANCE: FloatBound = float("sight_distance", 0.0, 1e6, 25.0);
    pub const FOLLOW_RADIUS: FloatBound = float("follow_radius", 0.0, 100.0, 8.0);
    pub const FOLLOW_MAX_SAMPLES: IntBound = int("follow_max_samples", 1, 64, 8);

    pub const ALL: &[Setting] = &[
        Setting::Float(&APPROACH_WEIGHT),
        Setting::Float(&SURROUND_RADIUS),
        Setting::Float(&SURROUND_NEAR_BAND),
        Setting::Float(&ARRIVAL_DISTANCE),
        Setting::Float(&TRAIL_TIME),
        Setting::Float(&SPACING_STRENGTH),
        Setting::Float(&SPACING_RADIUS),
        Setting::Int(&SPACING_MAX_SAMPLES),
        Setting::Float(&IDLE_WEIGHT),
        Setting::Float(&IDLE_STRENGTH),
        Setting::Float(&IDLE_PERIOD),
        Setting::Float(&COMBAT_STANDOFF),
        Setting::Float(&SURROUND_WIDTH),
        Setting::Float(&SURROUND_SPACING),
        Setting::Float(&LANE_SLIDE_STRENGTH),
        Setting::Float(&HOLD_STRENGTH),
        Setting::Float(&HOLD_RADIUS),
        Setting::Int(&HOLD_MAX_SAMPLES),
        Setting::Float(&PREDICTIVE_WEIGHT),
        Setting::Float(&LOOK_AHEAD_TIME),
        Setting::Float(&MAX_PREDICTION_DISTANCE),
        Setting::Float(&RETREAT_WEIGHT),
        Setting::Float(&RETREAT_START_DISTANCE),
        Setting::Float(&RETREAT_STOP_DISTANCE),
        Setting::Float(&STRIKE_DISTANCE),
        Setting::Int(&MAX_ACTIVE_ATTACKERS),
        Setting::Float(&TURN_TAKING_CYCLE),
        Setting::Float(&PRESS_WINDOW),
        Setting::Float(&QUEUE_GAP),
        Setting::Float(&QUEUE_CIRCLE_STRENGTH),
        Setting::Float(&ORBIT_WEIGHT),
        Setting::Float(&ORBIT_RADIUS),
        Setting::Int(&ORBIT_DIRECTION),
        Setting::Float(&SIGHT_DISTANCE),
        Setting::Float(&FOLLOW_RADIUS),
        Setting::Int(&FOLLOW_MAX_SAMPLES),
    ];
}

/// `PerceptionProfile`.
pub mod perception {
    use super::*;

    pub const SIGHT_DISTANCE: FloatBound = float("sight_distance", 0.0, 1e6, 30.0);
    /// Index of a `SightOcclusion`.
    pub const SIGHT_OCCLUSION: IntBound = int("sight_occlusion", 0, 2, 2);
    pub const OCCLUSION_DETOUR_TOLERANCE: FloatBound = float("occlusion_detour_tolerance", 0.0, 1e6, 4.0);
    pub const FORGET_TIME: FloatBound = float("forget_time", 0.0, 1e6, 10.0);
    pub const ALERT_SPREAD_RADIUS: FloatBound = float("alert_spread_radius", 0.0, 1000.0, 6.0);

    pub const ALL: &[Setting] = &[
        Setting::Float(&SIGHT_DISTANCE),
        Setting::Int(&SIGHT_OCCLUSION),
        Setting::Float(&OCCLUSION_DETOUR_TOLERANCE),
        Setting::Float(&FORGET_TIME),
        Setting::Float(&ALERT_SPREAD_RADIUS),
    ];
}

/// `Archetype` (its own fields; the profiles have their own groups).
pub mod archetype {
    use super::*;

    pub const AGENT_RADIUS: FloatBound = float("agent_radius", 0.01, 50.0, 0.4);
    pub const PUSH_RESISTANCE: FloatBound = float("push_resistance", 0.01, 1000.0, 1.0);
    pub const MAX_HEALTH: FloatBound = float("max_health", 0.001, 1e9, 100.0);
    pub const OBSTACLE_DAMAGE_SCALE: FloatBound = float("obstacle_damage_scale", 0.0, 1000.0, 1.0);

    pub const ALL: &[Setting] = &[
        Setting::Float(&AGENT_RADIUS),
        Setting::Float(&PUSH_RESISTANCE),
        Setting::Float(&MAX_HEALTH),
        Setting::Float(&OBSTACLE_DAMAGE_SCALE),
    ];
}

/// `AttackProfile`.
pub mod attack {
    use super::*;

    pub const SWING_REACH: FloatBound = float("swing_reach", 0.0, 1000.0, 1.8);
    pub const SWING_DAMAGE: FloatBound = float("swing_damage", 0.0, 1e9, 10.0);
    pub const SWING_WINDUP: FloatBound = float("swing_windup", 0.0, 60.0, 0.35);
    pub const SWING_RECOVERY: FloatBound = float("swing_recovery", 0.0, 60.0, 0.3);
    pub const SWING_COOLDOWN: FloatBound = float("swing_cooldown", 0.0, 600.0, 0.8);
    pub const CONTACT_DAMAGE_PER_SECOND: FloatBound = float("contact_damage_per_second", 0.0, 1e9, 5.0);
    pub const CONTACT_PUSHBACK: FloatBound = float("contact_pushback", 0.0, 1000.0, 0.5);

    pub const ALL: &[Setting] = &[
        Setting::Float(&SWING_REACH),
        Setting::Float(&SWING_DAMAGE),
        Setting::Float(&SWING_WINDUP),
        Setting::Float(&SWING_RECOVERY),
        Setting::Float(&SWING_COOLDOWN),
        Setting::Float(&CONTACT_DAMAGE_PER_SECOND),
        Setting::Float(&CONTACT_PUSHBACK),
    ];
}

/// Spawners (`SwarmRectSpawner`, `SwarmRingSpawner`): how many, where, off screen.
pub mod spawner {
    use super::*;

    /// Most agents one spawn call, wave or director setting asks for.
    pub const MAX_COUNT: i64 = 1_000_000;

    pub const COUNT: IntBound = int("count", 0, MAX_COUNT, 10);
    pub const OFF_SCREEN_MARGIN: FloatBound = float("off_screen_margin", 0.0, 1000.0, 1.0);
    pub const OFF_SCREEN_ATTEMPTS: IntBound = int("off_screen_attempts", 1, 1024, 16);
    pub const OFF_SCREEN_FALLBACK: IntBound = int("off_screen_fallback", 0, 1, 0);
    /// The rectangle's `size` (x and z of its local plane), each end checked on its own.
    pub const SIZE_X: FloatBound = float("size.x", 0.0, 1e6, 20.0);
    pub const SIZE_Y: FloatBound = float("size.y", 0.0, 1e6, 20.0);
    pub const INNER_RADIUS: FloatBound = float("inner_radius", 0.0, 1e6, 20.0);
    pub const OUTER_RADIUS: FloatBound = float("outer_radius", 0.0, 1e6, 30.0);
    /// One entry of a spawn profile's `weights` (reported as `weights[i]`).
    pub const WEIGHT: FloatBound = float("weights", 0.0, 1e9, 0.0);

    pub const ALL: &[Setting] = &[
        Setting::Int(&COUNT),
        Setting::Float(&OFF_SCREEN_MARGIN),
        Setting::Int(&OFF_SCREEN_ATTEMPTS),
        Setting::Int(&OFF_SCREEN_FALLBACK),
        Setting::Float(&SIZE_X),
        Setting::Float(&SIZE_Y),
        Setting::Float(&INNER_RADIUS),
        Setting::Float(&OUTER_RADIUS),
    ];
}

/// `SwarmSpawnerDirector`: its schedule and the pressure recycler.
pub mod director {
    use super::spawner::MAX_COUNT;
    use super::*;

    pub const MODE: IntBound = int("mode", 0, 3, 0);
    pub const INITIAL_BATCH: IntBound = int("initial_batch", 0, MAX_COUNT, 50);
    pub const SPAWN_RATE: FloatBound = float("spawn_rate", 0.0, 1e6, 10.0);
    pub const MAX_PER_FRAME: IntBound = int("max_per_frame", 1, MAX_COUNT, 50);
    pub const MAX_ALIVE: IntBound = int("max_alive", 0, MAX_COUNT, 500);
    pub const TOTAL_LIMIT: IntBound = int("total_limit", 0, i64::MAX / 2, 0);
    pub const RECYCLE_DISTANCE: FloatBound = float("recycle_distance", 0.0, 1e6, 60.0);
    pub const RECYCLE_INTERVAL: FloatBound = float("recycle_interval", 0.01, 1e6, 1.0);
    pub const RECYCLE_MAX_PER_PASS: IntBound = int("recycle_max_per_pass", 0, MAX_COUNT, 32);

    pub const ALL: &[Setting] = &[
        Setting::Int(&MODE),
        Setting::Int(&INITIAL_BATCH),
        Setting::Float(&SPAWN_RATE),
        Setting::Int(&MAX_PER_FRAME),
        Setting::Int(&MAX_ALIVE),
        Setting::Int(&TOTAL_LIMIT),
        Setting::Float(&RECYCLE_DISTANCE),
        Setting::Float(&RECYCLE_INTERVAL),
        Setting::Int(&RECYCLE_MAX_PER_PASS),
    ];
}

/// `SwarmTarget`.
pub mod target {
    use super::*;

    pub const PRIORITY: FloatBound = float("priority", 0.01, 1000.0, 1.0);

    pub const ALL: &[Setting] = &[Setting::Float(&PRIORITY)];
}

/// `TrafficProfile` (the `SwarmTrafficProfile` resource) and the `SwarmTrafficLane` node's own
/// numbers. Collision layer and mask are bit masks (every value is valid) and have no bound.
pub mod traffic {
    use super::*;

    /// Most vehicles one lane holds (one lane is one sequential sweep).
    pub const MAX_VEHICLES: i64 = 10_000;

    pub const CRAWL_SPEED: FloatBound = float("crawl_speed", 0.0, 100.0, 2.5);
    pub const ACCELERATION: FloatBound = float("acceleration", 0.01, 100.0, 2.0);
    pub const BRAKING: FloatBound = float("braking", 0.01, 100.0, 6.0);
    pub const PACKING_GAP: FloatBound = float("packing_gap", 0.0, 100.0, 2.5);
    /// Also meant to lie below the packing gap (a warning, not a clamp: see `TrafficProfile::problems`).
    pub const BRAKE_GAP: FloatBound = float("brake_gap", 0.0, 100.0, 0.6);
    pub const GO_DISTANCE: RangeBound = range("go_distance", 0.0, 100.0, (0.8, 2.0));
    pub const PAUSE_TIME: RangeBound = range("pause_time", 0.0, 60.0, (0.4, 1.2));
    pub const MOVING_SPEED: FloatBound = float("moving_speed", 0.0, 100.0, 0.1);
    pub const VOLUME_DB: FloatBound = float("volume_db", -80.0, 24.0, 0.0);
    pub const EARSHOT: FloatBound = float("earshot", 0.0, 10_000.0, 30.0);
    pub const FADE_TIME: FloatBound = float("fade_time", 0.0, 60.0, 0.5);
    pub const MAX_VOICES: IntBound = int("max_voices", 0, 256, 8);
    pub const WAKE_RADIUS: FloatBound = float("wake_radius", 0.0, 10_000.0, 6.0);

    pub const WINDOW_BEHIND: FloatBound = float("window_behind", 0.0, 100_000.0, 60.0);
    pub const WINDOW_AHEAD: FloatBound = float("window_ahead", 0.0, 100_000.0, 60.0);
    pub const VEHICLE_COUNT: IntBound = int("vehicle_count", 0, MAX_VEHICLES, 0);
    pub const VEHICLE_WEIGHT: FloatBound = float("vehicle_weights", 0.0, 1e9, 1.0);
    /// Half a vehicle's length, measured from its mesh; the default stands in for a missing mesh.
    pub const HALF_LENGTH: FloatBound = float("half_length", 0.05, 500.0, 2.0);
    /// `wake_colliders`' duration.
    pub const WAKE_SECONDS: FloatBound = float("seconds", 0.0, 3600.0, 3.0);

    /// The profile's settings.
    pub const ALL: &[Setting] = &[
        Setting::Float(&CRAWL_SPEED),
        Setting::Float(&ACCELERATION),
        Setting::Float(&BRAKING),
        Setting::Float(&PACKING_GAP),
        Setting::Float(&BRAKE_GAP),
        Setting::Range(&GO_DISTANCE),
        Setting::Range(&PAUSE_TIME),
        Setting::Float(&MOVING_SPEED),
        Setting::Float(&VOLUME_DB),
        Setting::Float(&EARSHOT),
        Setting::Float(&FADE_TIME),
        Setting::Int(&MAX_VOICES),
        Setting::Float(&WAKE_RADIUS),
    ];

    /// The lane node's own fields.
    pub const LANE: &[Setting] =
        &[Setting::Float(&WINDOW_BEHIND), Setting::Float(&WINDOW_AHEAD), Setting::Int(&VEHICLE_COUNT)];

    /// Per-entry and per-call values (weights, measured half lengths, `wake_colliders`' seconds).
    pub const OTHER: &[Setting] =
        &[Setting::Float(&VEHICLE_WEIGHT), Setting::Float(&HALF_LENGTH), Setting::Float(&WAKE_SECONDS)];
}

/// `FormationShape`: the `SwarmFormation` resource.
pub mod formation {
    use super::*;

    /// Most points one formation shape holds (further agents repeat the shape in ranks).
    pub const MAX_POINTS: usize = 4096;
    /// Largest coordinate of a point (in spacings).
    pub const MAX_POINT_COORD: f32 = 10_000.0;

    pub const SPACING: FloatBound = float("spacing", 0.05, 1000.0, 2.0);
    pub const BASE_SPEED: FloatBound = float("base_speed", 0.01, 1000.0, 3.5);
    pub const MIN_SPEED_MULTIPLIER: FloatBound = float("min_speed_multiplier", 0.01, 1.0, 0.5);
    pub const MAX_SPEED_MULTIPLIER: FloatBound = float("max_speed_multiplier", 1.0, 10.0, 1.5);
    pub const ARRIVAL_RADIUS: FloatBound = float("arrival_radius", 0.01, 100.0, 0.5);

    pub const ALL: &[Setting] = &[
        Setting::Float(&SPACING),
        Setting::Float(&BASE_SPEED),
        Setting::Float(&MIN_SPEED_MULTIPLIER),
        Setting::Float(&MAX_SPEED_MULTIPLIER),
        Setting::Float(&ARRIVAL_RADIUS),
    ];
}

#[cfg(test)]
mod tests {
    use super::*;

    const GROUPS: &[&[Setting]] = &[
        world::ALL,
        lod::ALL,
        movement::ALL,
        behavior::ALL,
        perception::ALL,
        archetype::ALL,
        attack::ALL,
        spawner::ALL,
        director::ALL,
        target::ALL,
        traffic::ALL,
        traffic::LANE,
        traffic::OTHER,
        formation::ALL,
    ];

    #[test]
    fn every_default_lies_within_its_bounds() {
        for s in GROUPS.iter().flat_map(|g| g.iter()) {
            let (lo, hi) = s.bounds();
            assert!(lo <= hi, "{}: {lo} above {hi}", s.name());
            for d in s.defaults() {
                assert!((lo..=hi).contains(&d), "{}: default {d} outside {lo}..{hi}", s.name());
            }
        }
    }

    #[test]
    fn names_are_unique_within_a_group() {
        for g in GROUPS {
            for (i, s) in g.iter().enumerate() {
                assert!(g[..i].iter().all(|t| t.name() != s.name()), "{} listed twice", s.name());
            }
        }
    }
}

/// Limits on what a loaded save may hold beyond the settings' own bounds: magnitudes far past
/// any real level, yet small enough that the step's arithmetic on them stays finite.
pub mod load {
    /// Largest coordinate (metres): squared distances between such points stay finite in `f32`.
    pub const MAX_COORD: f32 = 1e9;
    /// Largest speed, acceleration or turn rate of an agent.
    pub const MAX_RATE: f32 = 1e6;
    /// Largest timer (seconds).
    pub const MAX_SECONDS: f32 = 1e9;
    /// Largest health.
    pub const MAX_HEALTH: f32 = 1e12;

    /// Finite and within `MAX_COORD` on every axis: a position the world accepts (and a save of
    /// it loads again).
    #[inline]
    pub fn usable_position(p: glam::Vec3) -> bool {
        p.is_finite() && p.abs().max_element() <= MAX_COORD
    }
}
