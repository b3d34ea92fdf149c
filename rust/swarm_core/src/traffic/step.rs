//! One step of a lane: car-following and stop-and-go, then the belt's recycling.

use super::lane::Lane;
use super::{belt, following};

impl Lane {
    /// Advances the lane by `dt` seconds (at most 0.25 s at a time, so a hitch does not throw
    /// vehicles far): car-following and stop-and-go over the line front to back, then the belt's
    /// recycling. A frozen lane, or a step of no time, changes nothing.
    pub fn step(&mut self, dt: f32) {
        if self.frozen || dt.is_nan() || dt <= 0.0 || self.is_empty() {
            self.moved.fill(0.0);
            return;
        }
        let dt = dt.min(0.25);
        following::drive(self, dt);
        belt::recycle(self);
        belt::rebase(self);
    }
}
