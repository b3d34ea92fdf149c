//! An agent's place in a formation order: one column of the agent storage (`Agents::seat`).

use glam::Vec2;
use serde::{Deserialize, Serialize};

/// `Seat::order` of an agent that follows no order.
pub const NO_ORDER: u32 = u32::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Seat {
    /// Index of the order in `Formations` (`NO_ORDER`: none).
    pub order: u32,
    /// The slot (ground plane).
    pub slot: Vec2,
    /// Where the agent's walk leaves the order's flow field for the straight line to its slot
    /// (see `RouteField::exit`): that point's route distance to the destination and the
    /// straight leg from it to the slot (`exit_leg < 0`: not known).
    pub exit_route: f32,
    pub exit_leg: f32,
    /// The agent has reached its slot (once set, it holds the slot).
    pub arrived: bool,
    /// On a surface flow field: whether the straight line to the slot was open at the last
    /// check (checked every few steps while walking; see `formation::steer`).
    pub line_open: bool,
}

impl Default for Seat {
    fn default() -> Self {
        Self { order: NO_ORDER, slot: Vec2::ZERO, exit_route: 0.0, exit_leg: -1.0, arrived: false, line_open: false }
    }
}

impl Seat {
    #[inline]
    pub fn is_ordered(&self) -> bool {
        self.order != NO_ORDER
    }
}
