//! Turns a blended steering vector into motion: velocity change limited by acceleration (or
//! braking when slowing down), and facing turned at a limited turn speed and turn acceleration.

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

/// Wraps an angle into `-PI..PI`.
#[inline]
pub fn wrap_angle(a: f32) -> f32 {
    let t = std::f32::consts::TAU;
    a - t * ((a + std::f32::consts::PI) / t).floor()
}

/// Facing direction the orientation mode asks for, or `None` to keep the current facing.
#[inline]
pub fn desired_facing(mode: OrientationMode, vel: Vec2, goal: Vec2, goal_w: f32, vel_w: f32) -> Option<Vec2> {
    let moving = vel.length_squared() > 0.04;
    let vdir = vel.normalize_or_zero();
    let v = match mode {
        OrientationMode::FaceVelocity => {
            if moving {
                vdir
            } else {
                return None;
            }
        }
        OrientationMode::FaceGoal => {
            if goal != Vec2::ZERO {
                goal
            } else {
                vdir
            }
        }
        OrientationMode::FaceGoalWithVelocityBlend => goal * goal_w + if moving { vdir * vel_w } else { Vec2::ZERO },
    };
    (v.length_squared() > 1e-8).then(|| v.normalize())
}

/// Turns `yaw` toward `target_yaw` with the rate limited by turn speed and turn acceleration,
/// decelerating so it does not overshoot. Returns the new `(yaw, yaw_rate)`.
#[inline]
pub fn turn(yaw: f32, yaw_rate: f32, target_yaw: f32, p: &AgentParams, dt: f32) -> (f32, f32) {
    let err = wrap_angle(target_yaw - yaw);
    if p.max_turn_speed <= 0.0 {
        return (yaw, 0.0);
    }
    let acc = p.max_turn_acceleration.max(1e-3);
    // Fastest rate from which we can still stop on the target.
    let stop_rate = (2.0 * acc * err.abs()).sqrt().min(p.max_turn_speed);
    let wanted = stop_rate * err.signum();
    let rate = yaw_rate + (wanted - yaw_rate).clamp(-acc * dt, acc * dt);
    let step = rate * dt;
    if step.abs() >= err.abs() && step * err >= 0.0 {
        return (wrap_angle(target_yaw), 0.0);
    }
    (wrap_angle(yaw + step), rate)
}

/// Yaw of a ground-plane direction (facing = (sin yaw, cos yaw)).
#[inline]
pub fn yaw_of(dir: Vec2) -> f32 {
    dir.x.atan2(dir.y)
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
        let (mut yaw, mut rate) = (0.0f32, 0.0f32);
        let target = 2.0;
        let mut max_rate: f32 = 0.0;
        for _ in 0..300 {
            let prev = yaw;
            (yaw, rate) = turn(yaw, rate, target, &p, 1.0 / 60.0);
            max_rate = max_rate.max((yaw - prev).abs() * 60.0);
            assert!(yaw <= target + 1e-4, "overshoot {yaw}");
        }
        assert!((yaw - target).abs() < 1e-3);
        assert!(max_rate <= p.max_turn_speed + 1e-3);
    }

    #[test]
    fn wrap_angle_stays_in_range() {
        for k in -20..20 {
            let a = wrap_angle(k as f32 * 1.7);
            assert!((-std::f32::consts::PI..=std::f32::consts::PI).contains(&a));
        }
    }
}
