//! Movement for four agents at once, one agent a lane of glam's `Vec4`: steering smoothing
//! (`blend::smooth`), acceleration (`movement::accelerate`), the facing wanted
//! (`movement::desired_facing`) and the turn toward it (`movement::turn`). Every lane takes the
//! same float operations in the same order as those one-agent functions (branches become
//! selects of values both sides computed), so the results are the same to the bit; the tests
//! below check them against the one-agent functions.

use glam::{BVec4A, Vec4};

use crate::config::OrientationMode;

/// Four agents' inputs, lane by lane (`[x, y]` pairs are ground-plane vectors).
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveIn4 {
    /// Steering as the last step left it, and this step's blend.
    pub steer: [Vec4; 2],
    pub raw: [Vec4; 2],
    /// `AgentParams::steering_response`, and the seconds the smoothing covers.
    pub response: Vec4,
    pub smooth_dt: Vec4,
    /// The speed the steering is scaled by.
    pub speed: Vec4,
    pub vel: [Vec4; 2],
    pub braking: Vec4,
    pub max_accel: Vec4,
    pub goal: [Vec4; 2],
    pub goal_w: Vec4,
    pub vel_w: Vec4,
    pub facing: [Vec4; 2],
    pub rate: Vec4,
    pub max_turn_speed: Vec4,
    pub max_turn_accel: Vec4,
}

/// Four agents' smoothed steering, new velocity, facing and turn rate.
#[derive(Clone, Copy, Debug, Default)]
pub struct MoveOut4 {
    pub steer: [Vec4; 2],
    pub vel: [Vec4; 2],
    pub facing: [Vec4; 2],
    pub rate: Vec4,
}

/// One step's movement of four agents of one orientation `mode` (see the module comment), over
/// `dt` seconds.
#[inline]
pub fn move4(m: &MoveIn4, mode: OrientationMode, dt: f32) -> MoveOut4 {
    let steer = smooth(m.steer, m.raw, m.response, m.smooth_dt);
    let desired = [steer[0] * m.speed, steer[1] * m.speed];
    let vel = accelerate(m.vel, desired, m.braking, m.max_accel, Vec4::splat(dt));
    let (wanted, valid) = desired_facing(mode, vel, m.goal, m.goal_w, m.vel_w);
    let (facing, rate) = turn(m.facing, m.rate, wanted, m.max_turn_speed, m.max_turn_accel, dt);
    // No facing wanted: the agent keeps its facing and stops turning.
    let facing = [Vec4::select(valid, facing[0], m.facing[0]), Vec4::select(valid, facing[1], m.facing[1])];
    MoveOut4 { steer, vel, facing, rate: Vec4::select(valid, rate, Vec4::ZERO) }
}

/// `a.x * b.x + a.y * b.y`, lane by lane (glam's `dot` for `Vec2`).
#[inline(always)]
fn dot(a: [Vec4; 2], b: [Vec4; 2]) -> Vec4 {
    (a[0] * b[0]) + (a[1] * b[1])
}

#[inline(always)]
fn sqrt(v: Vec4) -> Vec4 {
    #[cfg(target_arch = "x86_64")]
    {
        // SAFETY: SSE is part of x86-64. The square root is correctly rounded, as the scalar one.
        unsafe { Vec4::from(std::arch::x86_64::_mm_sqrt_ps(v.into())) }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        v.sqrt()
    }
}

#[inline(always)]
fn select2(mask: BVec4A, a: [Vec4; 2], b: [Vec4; 2]) -> [Vec4; 2] {
    [Vec4::select(mask, a[0], b[0]), Vec4::select(mask, a[1], b[1])]
}

/// Lanes where both components are zero (`Vec2 == Vec2::ZERO`).
#[inline(always)]
fn is_zero(v: [Vec4; 2]) -> BVec4A {
    v[0].cmpeq(Vec4::ZERO) & v[1].cmpeq(Vec4::ZERO)
}

/// Lanes holding neither an infinity nor a NaN.
#[inline(always)]
fn finite(v: Vec4) -> BVec4A {
    v.abs().cmplt(Vec4::INFINITY)
}

/// `blend::smooth`.
#[inline(always)]
fn smooth(prev: [Vec4; 2], raw: [Vec4; 2], response: Vec4, dt: Vec4) -> [Vec4; 2] {
    let alpha = dt / (response + dt);
    let s = [prev[0] + (raw[0] - prev[0]) * alpha, prev[1] + (raw[1] - prev[1]) * alpha];
    let settled = is_zero(raw) & dot(s, s).cmplt(Vec4::splat(1e-10));
    let s = select2(settled, [Vec4::ZERO; 2], s);
    select2(response.cmple(Vec4::ZERO), raw, s)
}

/// `movement::accelerate`.
#[inline(always)]
fn accelerate(vel: [Vec4; 2], desired: [Vec4; 2], braking: Vec4, max_accel: Vec4, dt: Vec4) -> [Vec4; 2] {
    let slowing = dot(desired, desired).cmplt(dot(vel, vel));
    let limit = Vec4::select(slowing, braking, max_accel) * dt;
    let d = [desired[0] - vel[0], desired[1] - vel[1]];
    // `clamp_length_max(limit)`.
    let l2 = dot(d, d);
    let len = sqrt(l2);
    let clamped = [limit * (d[0] / len), limit * (d[1] / len)];
    let d = select2(l2.cmpgt(limit * limit), clamped, d);
    [vel[0] + d[0], vel[1] + d[1]]
}

/// `normalize_or(fallback)`.
#[inline(always)]
fn normalize_or(v: [Vec4; 2], fallback: [Vec4; 2]) -> [Vec4; 2] {
    let rcp = Vec4::ONE / sqrt(dot(v, v));
    select2(finite(rcp) & rcp.cmpgt(Vec4::ZERO), [v[0] * rcp, v[1] * rcp], fallback)
}

/// `movement::desired_facing`: the facing wanted, and the lanes that want one.
#[inline(always)]
fn desired_facing(
    mode: OrientationMode,
    vel: [Vec4; 2],
    goal: [Vec4; 2],
    goal_w: Vec4,
    vel_w: Vec4,
) -> ([Vec4; 2], BVec4A) {
    let moving = dot(vel, vel).cmpgt(Vec4::splat(0.04));
    let (v, valid) = match mode {
        OrientationMode::FaceVelocity => (vel, moving),
        OrientationMode::FaceGoal => (select2(is_zero(goal), vel, goal), BVec4A::splat(true)),
        OrientationMode::FaceGoalWithVelocityBlend => {
            let n = normalize_or(vel, [Vec4::ZERO; 2]);
            let n = select2(moving, [n[0] * vel_w, n[1] * vel_w], [Vec4::ZERO; 2]);
            ([goal[0] * goal_w + n[0], goal[1] * goal_w + n[1]], BVec4A::splat(true))
        }
    };
    (v, valid & dot(v, v).cmpgt(Vec4::splat(1e-8)))
}

/// `movement::fast_atan2`.
#[inline(always)]
fn atan2(y: Vec4, x: Vec4) -> Vec4 {
    let (ax, ay) = (x.abs(), y.abs());
    let below = ax.cmplt(ay);
    let (mn, mx) = (Vec4::select(below, ax, ay), Vec4::select(below, ay, ax));
    let a = mn / mx;
    let s = a * a;
    let c = |v: f32| Vec4::splat(v);
    let r = a
        * (c(0.999_977_26)
            + s * (c(-0.332_623_47)
                + s * (c(0.193_543_46) + s * (c(-0.116_432_87) + s * (c(0.052_653_32) + s * c(-0.011_721_2))))));
    let r = Vec4::select(ay.cmpgt(ax), c(std::f32::consts::FRAC_PI_2) - r, r);
    let r = Vec4::select(x.cmplt(Vec4::ZERO), c(std::f32::consts::PI) - r, r);
    let r = Vec4::select(y.cmplt(Vec4::ZERO), -r, r);
    Vec4::select(mx.cmpeq(Vec4::ZERO), Vec4::ZERO, r)
}

/// `movement::turn`.
#[inline(always)]
fn turn(
    facing: [Vec4; 2],
    rate: Vec4,
    target: [Vec4; 2],
    max_turn_speed: Vec4,
    max_turn_accel: Vec4,
    dt: f32,
) -> ([Vec4; 2], Vec4) {
    let dt = Vec4::splat(dt);
    let err = atan2(target[0] * facing[1] - target[1] * facing[0], dot(facing, target));
    let acc = max_turn_accel.max(Vec4::splat(1e-3));
    let stop_rate = sqrt(Vec4::splat(2.0) * acc * err.abs()).min(max_turn_speed);
    let wanted = stop_rate * err.signum();
    // `clamp(-acc * dt, acc * dt)`.
    let (lo, hi) = (-acc * dt, acc * dt);
    let d = wanted - rate;
    let d = Vec4::select(d.cmplt(lo), lo, d);
    let d = Vec4::select(d.cmpgt(hi), hi, d);
    let rate = rate + d;
    let step = rate * dt;
    let snaps = step.abs().cmpge(err.abs()) & (step * err).cmpge(Vec4::ZERO);
    let s2 = step * step;
    let c = |v: f32| Vec4::splat(v);
    let sn = step * (c(1.0) - s2 / c(6.0) + s2 * s2 / c(120.0));
    let cs = c(1.0) - s2 / c(2.0) + s2 * s2 / c(24.0);
    let f = [facing[0] * cs + facing[1] * sn, facing[1] * cs - facing[0] * sn];
    let k = c(1.5) - c(0.5) * dot(f, f);
    let f = [f[0] * k, f[1] * k];
    let f = select2(finite(f[0]) & finite(f[1]), f, facing);
    let (f, rate) = (select2(snaps, normalize_or(target, facing), f), Vec4::select(snaps, Vec4::ZERO, rate));
    // No turning at all: the facing stays.
    let still = max_turn_speed.cmple(Vec4::ZERO);
    (select2(still, facing, f), Vec4::select(still, Vec4::ZERO, rate))
}

#[cfg(test)]
mod tests {
    use glam::Vec2;

    use super::*;
    use crate::agents::AgentParams;
    use crate::movement::{accelerate, desired_facing, turn};
    use crate::noise::hash01;
    use crate::steering::blend::smooth;

    /// The one-agent path, as `StepCtx::advance` takes it for a Smoothing agent.
    fn one(m: &MoveIn4, lane: usize, mode: OrientationMode, dt: f32) -> (Vec2, Vec2, Vec2, f32) {
        let g = |v: [Vec4; 2]| Vec2::new(v[0][lane], v[1][lane]);
        let p = AgentParams {
            max_speed: m.speed[lane],
            max_acceleration: m.max_accel[lane],
            braking_acceleration: m.braking[lane],
            steering_response: m.response[lane],
            max_turn_speed: m.max_turn_speed[lane],
            max_turn_acceleration: m.max_turn_accel[lane],
            radius: 0.4,
            push_resistance: 1.0,
            goal_facing_weight: m.goal_w[lane],
            velocity_facing_weight: m.vel_w[lane],
        };
        let steer = smooth(g(m.steer), g(m.raw), p.steering_response, m.smooth_dt[lane]);
        let vel = accelerate(g(m.vel), steer * m.speed[lane], &p, dt);
        let (facing, rate) = match desired_facing(mode, vel, g(m.goal), p.goal_facing_weight, p.velocity_facing_weight)
        {
            Some(f) => turn(g(m.facing), m.rate[lane], f, &p, dt),
            None => (g(m.facing), 0.0),
        };
        (steer, vel, facing, rate)
    }

    /// Inputs from a hash, with the edge cases a step meets: zero blends and goals, agents at
    /// rest, no smoothing, no turning, facing on target.
    fn inputs(case: u32) -> MoveIn4 {
        let mut k = 0u32;
        let mut r = |lo: f32, hi: f32| {
            k += 1;
            lo + (hi - lo) * hash01(case, k)
        };
        let lanes = |f: &mut dyn FnMut() -> f32| Vec4::new(f(), f(), f(), f());
        let mut m = MoveIn4 {
            steer: [lanes(&mut || r(-1.0, 1.0)), lanes(&mut || r(-1.0, 1.0))],
            raw: [lanes(&mut || r(-1.0, 1.0)), lanes(&mut || r(-1.0, 1.0))],
            response: lanes(&mut || r(-0.1, 0.5)),
            smooth_dt: lanes(&mut || r(0.01, 0.07)),
            speed: lanes(&mut || r(0.0, 6.0)),
            vel: [lanes(&mut || r(-5.0, 5.0)), lanes(&mut || r(-5.0, 5.0))],
            braking: lanes(&mut || r(1.0, 30.0)),
            max_accel: lanes(&mut || r(1.0, 20.0)),
            goal: [lanes(&mut || r(-1.0, 1.0)), lanes(&mut || r(-1.0, 1.0))],
            goal_w: lanes(&mut || r(0.0, 2.0)),
            vel_w: lanes(&mut || r(0.0, 2.0)),
            facing: [Vec4::ZERO; 2],
            rate: lanes(&mut || r(-4.0, 4.0)),
            max_turn_speed: lanes(&mut || r(-0.5, 8.0)),
            max_turn_accel: lanes(&mut || r(0.0, 40.0)),
        };
        for lane in 0..4 {
            let yaw = r(-3.2, 3.2);
            m.facing[0][lane] = yaw.sin();
            m.facing[1][lane] = yaw.cos();
            match (case + lane as u32) % 7 {
                0 => (m.raw[0][lane], m.raw[1][lane]) = (0.0, 0.0),
                1 => (m.goal[0][lane], m.goal[1][lane]) = (0.0, 0.0),
                2 => (m.vel[0][lane], m.vel[1][lane], m.speed[lane]) = (0.0, 0.0, 0.0),
                3 => (m.goal[0][lane], m.goal[1][lane], m.rate[lane]) = (m.facing[0][lane], m.facing[1][lane], 0.0),
                4 => (m.steer[0][lane], m.steer[1][lane], m.raw[0][lane], m.raw[1][lane]) = (1e-6, 0.0, 0.0, 0.0),
                _ => {}
            }
        }
        m
    }

    #[test]
    fn four_lanes_move_as_four_agents_do_to_the_bit() {
        let bits = |v: Vec2| [v.x.to_bits(), v.y.to_bits()];
        for mode in
            [OrientationMode::FaceVelocity, OrientationMode::FaceGoal, OrientationMode::FaceGoalWithVelocityBlend]
        {
            for case in 0..20_000 {
                let m = inputs(case);
                let dt = if case % 3 == 0 { 1.0 / 15.0 } else { 1.0 / 60.0 };
                let out = move4(&m, mode, dt);
                for lane in 0..4 {
                    let (steer, vel, facing, rate) = one(&m, lane, mode, dt);
                    let g = |v: [Vec4; 2]| Vec2::new(v[0][lane], v[1][lane]);
                    assert_eq!(bits(g(out.steer)), bits(steer), "steering, case {case} lane {lane} {mode:?}");
                    assert_eq!(bits(g(out.vel)), bits(vel), "velocity, case {case} lane {lane} {mode:?}");
                    assert_eq!(bits(g(out.facing)), bits(facing), "facing, case {case} lane {lane} {mode:?}");
                    assert_eq!(out.rate[lane].to_bits(), rate.to_bits(), "rate, case {case} lane {lane} {mode:?}");
                }
            }
        }
    }
}
