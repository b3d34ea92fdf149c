//! What a lane is built from besides its profile: the curve, the window, the vehicle kinds.

use serde::{Deserialize, Serialize};

/// A kind of vehicle: its mesh's half length along the lane and how often it is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct VehicleKind {
    pub half_length: f32,
    pub weight: f32,
}

/// What a lane is built from, besides its profile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LaneSetup {
    /// Length of the curve, metres.
    pub length: f32,
    /// The curve is closed: offsets wrap.
    pub closed: bool,
    /// Drive against the curve's direction.
    pub reverse: bool,
    /// Vehicles; 0 fills the window (or the whole curve) at the packing gap.
    pub vehicle_count: usize,
    /// Metres of the window behind and ahead of the anchor, in the direction of travel; `None`
    /// for a lane with no anchor (the whole curve, looping when closed).
    pub window: Option<(f32, f32)>,
    /// Curve offset of the anchor's closest point when the lane is built (with `window`).
    pub anchor_offset: Option<f32>,
    pub seed: u64,
    /// Vehicle kinds; empty means one kind of the default half length.
    pub kinds: Vec<VehicleKind>,
}
