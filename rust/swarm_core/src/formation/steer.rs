//! How an ordered agent moves. Walking: straight to its slot while that line is open, else along
//! the destination's flow field (the line is checked again every `LINE_CHECK_INTERVAL` steps),
//! at the speed that covers its remaining route in the order's remaining time (recomputed every
//! step, so delays from crowding are made up), within its order's multipliers of its own max
//! speed. Arrived: back to its own max speed, easing onto the slot, facing the formation's
//! forward.

use glam::{Vec2, Vec3};

use super::orders::Order;
use super::routes::{walk_length, RouteField};
use super::seat::Seat;
use crate::flow_field::CellId;

/// Within this distance (metres) of its slot an agent slows down (walking) or eases back
/// (holding) in proportion to the distance left.
pub const EASE_DISTANCE: f32 = 1.0;
/// A holding agent this near its slot (metres) stands still.
pub const HOLD_STILL: f32 = 0.05;
/// Steps between two checks of a walking agent's straight line to its slot (staggered).
pub const LINE_CHECK_INTERVAL: u32 = 8;
/// Below this many seconds left, the remaining time counts as this (the agent hurries at its
/// highest formation speed).
const MIN_TIME_LEFT: f32 = 0.05;

/// What an ordered agent does this step.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SeatMove {
    /// Steering pull (length at most 1).
    pub pull: Vec2,
    /// Speed the pull is scaled by.
    pub speed: f32,
    /// Facing the agent turns to, overriding its orientation mode (after arrival).
    pub facing: Option<Vec2>,
}

/// The move of an agent at `p` (in `cell`) seated by `seat` in `order`, at time `now`;
/// `check_line` asks for the straight line to be checked again this step.
#[inline]
#[allow(clippy::too_many_arguments)]
pub fn seat_move(
    order: &Order,
    seat: &mut Seat,
    p: Vec3,
    cell: CellId,
    max_speed: f32,
    now: f64,
    check_line: bool,
    field: Option<RouteField>,
) -> SeatMove {
    let to = seat.slot - Vec2::new(p.x, p.z);
    let d = to.length();
    let eased = if d > 1e-6 { to / d.max(EASE_DISTANCE) } else { Vec2::ZERO };
    if seat.arrived {
        // Close enough: stand still rather than trim millimetres.
        let pull = if d <= HOLD_STILL { Vec2::ZERO } else { eased };
        let facing = (d <= order.arrival_radius + EASE_DISTANCE).then_some(order.placement.forward);
        return SeatMove { pull, speed: max_speed, facing };
    }
    match field {
        Some(f) if check_line => seat.line_open = f.line_open(cell, p, seat.slot),
        Some(_) => {}
        None => seat.line_open = true,
    }
    let remaining = walk_length(p, cell, seat, field);
    let lo = max_speed * order.min_speed_multiplier;
    let hi = max_speed * order.max_speed_multiplier;
    let speed = (remaining / order.time_left(now).max(MIN_TIME_LEFT)).clamp(lo, hi.max(lo));
    let pull = match field {
        Some(f) if !seat.line_open => f.field.sample(f.grid, cell, p).clamp_length_max(1.0),
        _ => eased,
    };
    SeatMove { pull, speed, facing: None }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flow_field::NONE;
    use crate::formation::orders::test_order;

    fn order(time: f32) -> Order {
        test_order(time, Vec2::new(0.0, 10.0))
    }

    fn seat(arrived: bool) -> Seat {
        Seat { order: 0, slot: Vec2::new(0.0, 10.0), arrived, ..Seat::default() }
    }

    #[test]
    fn speed_covers_the_remaining_route_in_the_remaining_time() {
        let mv =
            |time: f32, now: f64| seat_move(&order(time), &mut seat(false), Vec3::ZERO, NONE, 4.0, now, true, None);
        // 10 m in 4 s: 2.5 m/s, within 0.5..1.5 of 4 m/s.
        let m = mv(4.0, 0.0);
        assert!((m.speed - 2.5).abs() < 1e-5 && (m.pull - Vec2::Y).length() < 1e-6);
        // Late: the highest formation speed; early: the lowest.
        assert_eq!(mv(4.0, 10.0).speed, 6.0);
        assert_eq!(mv(400.0, 0.0).speed, 2.0);
    }

    #[test]
    fn an_arrived_agent_holds_its_slot_facing_forward() {
        let m = seat_move(&order(4.0), &mut seat(true), Vec3::new(0.0, 0.0, 9.6), NONE, 4.0, 9.0, false, None);
        assert_eq!(m.facing, Some(Vec2::Y));
        assert!((m.pull - Vec2::new(0.0, 0.4)).length() < 1e-5);
        assert_eq!(m.speed, 4.0);
    }
}
