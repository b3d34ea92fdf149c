//! The belt's window in travel coordinates, and how curve offsets map to travel coordinates.

use serde::{Deserialize, Serialize};

use super::setup::LaneSetup;
use crate::sanitize::finite_clamp;

/// The window in travel coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub(crate) struct Window {
    pub trail: f32,
    pub lead: f32,
    /// Follows an anchor (else it is the whole open curve, fixed).
    pub anchored: bool,
    pub behind: f32,
    pub ahead: f32,
    /// The anchor's travel coordinate (unwrapped on a closed curve).
    pub anchor: f32,
}

impl Window {
    /// The window a new lane starts with, and whether the lane loops instead.
    pub(crate) fn initial(setup: &LaneSetup, length: f32) -> (Option<Window>, bool) {
        let Some((behind, ahead)) = setup.window else {
            if setup.closed {
                return (None, true);
            }
            let w = Window { trail: 0.0, lead: length, anchored: false, behind: 0.0, ahead: 0.0, anchor: 0.0 };
            return (Some(w), false);
        };
        let behind = finite_clamp(behind, 0.0, 1e6, 0.0);
        let ahead = finite_clamp(ahead, 0.0, 1e6, 0.0);
        if setup.closed && behind + ahead >= length {
            return (None, true);
        }
        let mut w = Window { trail: 0.0, lead: 0.0, anchored: true, behind, ahead, anchor: 0.0 };
        let a = travel_of(setup.anchor_offset.unwrap_or(0.0), length, setup.closed, setup.reverse);
        w.place(a, length, setup.closed);
        (Some(w), false)
    }

    pub(crate) fn place(&mut self, anchor: f32, length: f32, closed: bool) {
        self.anchor = anchor;
        self.trail = anchor - self.behind;
        self.lead = anchor + self.ahead;
        if !closed {
            self.trail = self.trail.clamp(0.0, length);
            self.lead = self.lead.clamp(0.0, length);
        }
    }
}

/// A curve offset as a travel coordinate (the nearest lap is chosen by the caller on a loop).
pub(crate) fn travel_of(offset: f32, length: f32, closed: bool, reverse: bool) -> f32 {
    let o = finite_clamp(offset, 0.0, length, 0.0);
    match (reverse, closed) {
        (false, _) => o,
        (true, false) => length - o,
        (true, true) => -o,
    }
}
