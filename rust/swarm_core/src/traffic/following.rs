//! Car-following with stop-and-go, one sweep over the line from the front back (each vehicle
//! follows its leader's new position).
//!
//! - Safe speed: `sqrt(2 * braking * max(0, gap - brake_gap))`, the fastest a vehicle can go and
//!   still stop `brake_gap` short of the one ahead. Vehicles are placed at the packing gap, so
//!   with `brake_gap` below it a packed vehicle has headroom and creeps at crawl speed instead of
//!   waiting for the line ahead to open.
//! - Never overlapping: after moving, a vehicle is held at least `brake_gap` behind its leader
//!   (bumper to bumper), and never moves backward.
//! - Stop-and-go: a go phase commits to a distance (`go_distance` body lengths) that drains only
//!   by real forward progress, so a vehicle blocked for a long time still covers it once the road
//!   clears; then it pauses for `pause_time` seconds. Staggered pauses travel backward along the
//!   line as a wave.

use rand::Rng;

use super::lane::Lane;

/// `current` moved toward `target` by at most `max_delta`.
#[inline]
fn move_towards(current: f32, target: f32, max_delta: f32) -> f32 {
    if (target - current).abs() <= max_delta {
        target
    } else {
        current + max_delta.copysign(target - current)
    }
}

/// One step of driving for every vehicle, front first.
pub(crate) fn drive(lane: &mut Lane, dt: f32) {
    let n = lane.len();
    let p = lane.profile.clone();
    let tail = lane.slot(n - 1);
    // On a loop the front follows the tail one lap ahead (its position before this sweep).
    let mut leader: Option<(f32, f32)> =
        if lane.looping { Some((lane.s[tail] + lane.length, lane.half[tail])) } else { None };
    for k in 0..n {
        let i = lane.slot(k);
        let (s, half) = (lane.s[i], lane.half[i]);
        // Furthest this vehicle's centre may reach: `brake_gap` behind the leader's rear.
        let limit = leader.map_or(f32::INFINITY, |(ls, lh)| ls - lh - half - p.brake_gap);
        let gap = leader.map_or(f32::INFINITY, |(ls, lh)| ls - lh - s - half);

        if !lane.rolling[i] {
            lane.timer[i] -= dt;
            if lane.timer[i] <= 0.0 {
                lane.rolling[i] = true;
                lane.budget[i] = p.go_distance.at(lane.rng.random()) * 2.0 * half;
            }
        }
        let safe = (2.0 * p.braking * (gap - p.brake_gap).max(0.0)).sqrt();
        let target = if lane.rolling[i] { p.crawl_speed } else { 0.0 };
        let desired = safe.min(target);
        let rate = if desired > lane.speed[i] { p.acceleration } else { p.braking };
        let mut v = move_towards(lane.speed[i], desired, rate * dt);

        let mut next = s + v * dt;
        if next > limit {
            next = limit.max(s);
            // Held behind the leader: the speed is what it could actually do.
            v = v.min((next - s) / dt);
        }
        let moved = next - s;
        lane.s[i] = next;
        lane.speed[i] = v;
        lane.moved[i] = moved;

        if lane.rolling[i] {
            lane.budget[i] -= moved.max(0.0);
            if lane.budget[i] <= 0.0 {
                lane.rolling[i] = false;
                lane.timer[i] = p.pause_time.at(lane.rng.random());
            }
        }
        leader = Some((next, half));
    }
}
