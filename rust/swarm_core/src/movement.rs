//! Turns a blended steering vector into motion: velocity change limited by acceleration (or
//! braking when slowing down), and facing turned at a limited turn speed and turn acceleration.
//! `movement_lanes` repeats these operations for four agents at once: a change here goes there
//! too (its test compares the two bit for bit).

use glam::Vec2;

use crate::agents::AgentParams;
use crate::config::OrientationMode;

/// New ground-plane velocity after one step toward `desired`.
#[inline]
pub fn accelerate(vel: Vec2, desired: Vec2, p: &AgentParams, dt: f32) -> Vec2 {
    let slowing = desired.length_squared() < vel.length_squared();
    let limit = if slowing { p.braking_acceleration } else { p.max_acceleration } * dt;
    vel + (desired - vel).clamp_length_max(limit)
}

/// `atan2(y, x)` by a minimax polynomial (error below 1e-5 rad): the turn controller needs an
/// angle error every step and libm's atan2 costs several times more.
#[inline]
pub fn fast_atan2(y: f32, x: f32) -> f32 {
    let (ax, ay) = (x.abs(), y.abs());
    let (mn, mx) = if ax < ay { (ax, ay) } else { (ay, ax) };
    if mx == 0.0 {
        return 0.0;
    }
    let a = mn / mx;
    let s = a * a;
    let mut r = a
        * (0.999_977_26
            + s * (-0.332_623_47 + s * (0.193_543_46 + s * (-0.116_432_87 + s * (0.052_653_32 + s * -0.011_721_2)))));
    if ay > ax {
        r = std::f32::consts::FRAC_PI_2 - r;
    }
    if x < 0.0 {
        r = std::f32::consts::PI - r;
    }
    if y < 0.0 {
        -r
    } else {
        r
    }
}

/// Facing direction the orientation mode asks for (any length: `turn` only needs its
/// direction), or `None` to keep the current facing.
#[inline]
pub fn desired_facing(mode: OrientationMode, vel: Vec2, goal: Vec2, goal_w: f32, vel_w: f32) -> Option<Vec2> {
    let moving = vel.length_squared() > 0.04;
    let v = match mode {
        OrientationMode::FaceVelocity => {
            if moving {
                vel
            } else {
                return None;
            }
        }
        OrientationMode::FaceGoal => {
            if goal != Vec2::ZERO {
                goal
            } else {
                vel
            }
        }
        OrientationMode::FaceGoalWithVelocityBlend => {
            goal * goal_w + if moving { vel.normalize_or_zero() * vel_w } else { Vec2::ZERO }
        }
    };
    (v.length_squared() > 1e-8).then_some(v)
}

/// Turns the unit `facing` toward the direction of `target` (any non-zero length) with the turn
/// rate limited by turn speed and turn acceleration, decelerating so it does not overshoot.
/// Positive rates turn from +Z toward +X (growing yaw). Returns the new `(facing, rate)`.
#[inline]
pub fn turn(facing: Vec2, rate: f32, target: Vec2, p: &AgentParams, dt: f32) -> (Vec2, f32) {
    if p.max_turn_speed <= 0.0 {
        return (facing, 0.0);
    }
    // Signed angle from facing to target, in the yaw sense (x = sin yaw, y = cos yaw).
    let err = fast_atan2(target.x * facing.y - target.y * facing.x, facing.dot(target));
    let acc = p.max_turn_acceleration.max(1e-3);
    // Fastest rate from which the turn can still stop on the target.
    let stop_rate = (2.0 * acc * err.abs()).sqrt().min(p.max_turn_speed);
    let wanted = stop_rate * err.signum();
    let rate = rate + (wanted - rate).clamp(-acc * dt, acc * dt);
    let step = rate * dt;
    if step.abs() >= err.abs() && step * err >= 0.0 {
        return (target.normalize_or(facing), 0.0);
    }
    // Rotate by `step` (yaw sense); the small-angle series is exact to 1e-7 for steps under 0.1 rad.
    // The result is renormalised by one Newton step (its length is 1 to within 1e-6, so that is
    // exact to float precision) instead of a square root and a division.
    let s2 = step * step;
    let (sn, cs) = (step * (1.0 - s2 / 6.0 + s2 * s2 / 120.0), 1.0 - s2 / 2.0 + s2 * s2 / 24.0);
    let f = Vec2::new(facing.x * cs + facing.y * sn, facing.y * cs - facing.x * sn);
    let f = f * (1.5 - 0.5 * f.length_squared());
    (if f.is_finite() { f } else { facing }, rate)
}

/// Yaw angle of a ground-plane direction (facing = (sin yaw, cos yaw)).
#[inline]
pub fn yaw_of(dir: Vec2) -> f32 {
    fast_atan2(dir.x, dir.y)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn params() -> AgentParams {
        AgentParams {
            max_speed: 4.0,
            max_acceleration: 10.0,
            braking_acceleration: 20.0,
            steering_response: 0.0,
            max_turn_speed: std::f32::consts::PI,
            max_turn_acceleration: 20.0,
            radius: 0.4,
            push_resistance: 1.0,
            goal_facing_weight: 1.0,
            velocity_facing_weight: 1.0,
        }
    }

    #[test]
    fn acceleration_and_braking_are_limited() {
        let p = params();
        let v = accelerate(Vec2::ZERO, Vec2::new(4.0, 0.0), &p, 0.1);
        assert!((v.x - 1.0).abs() < 1e-5);
        let v = accelerate(Vec2::new(4.0, 0.0), Vec2::ZERO, &p, 0.1);
        assert!((v.x - 2.0).abs() < 1e-5);
    }

    #[test]
    fn turning_respects_speed_and_settles_without_overshoot() {
        let p = params();
        let (mut f, mut rate) = (Vec2::new(0.0, 1.0), 0.0f32);
        let target_yaw = 2.0f32;
        let target = Vec2::new(target_yaw.sin(), target_yaw.cos());
        let mut max_rate: f32 = 0.0;
        for _ in 0..300 {
            let prev = yaw_of(f);
            (f, rate) = turn(f, rate, target, &p, 1.0 / 60.0);
            let y = yaw_of(f);
            max_rate = max_rate.max((y - prev).abs() * 60.0);
            assert!(y <= target_yaw + 1e-4, "overshoot {y}");
            assert!((f.length() - 1.0).abs() < 1e-5);
        }
        assert!((yaw_of(f) - target_yaw).abs() < 1e-3);
        assert!(max_rate <= p.max_turn_speed * 1.001);
    }

    #[test]
    fn the_target_direction_may_have_any_length() {
        let p = params();
        let target = Vec2::new(2.0f32.sin(), 2.0f32.cos());
        let (mut a, mut ra) = (Vec2::new(0.0, 1.0), 0.0f32);
        let (mut b, mut rb) = (a, 0.0f32);
        for _ in 0..300 {
            (a, ra) = turn(a, ra, target, &p, 1.0 / 60.0);
            (b, rb) = turn(b, rb, target * 7.5, &p, 1.0 / 60.0);
            assert!(a.distance(b) < 1e-5 && (ra - rb).abs() < 1e-4);
            assert!((b.length() - 1.0).abs() < 1e-6);
        }
        assert!(b.distance(target) < 1e-6, "settles exactly on the unit direction: {b}");
    }

    #[test]
    fn fast_atan2_matches_libm() {
        for k in 0..2000 {
            let a = k as f32 * 0.0031 - 3.1;
            let (y, x) = (a.sin() * 3.0, a.cos() * 3.0);
            assert!((fast_atan2(y, x) - y.atan2(x)).abs() < 2e-5, "angle {a}");
        }
        assert_eq!(fast_atan2(0.0, 0.0), 0.0);
    }
}
