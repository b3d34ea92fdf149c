//! The endless belt: a window of the lane anchored to a moving point (the camera, or any node).
//! A vehicle that falls off the window's leading edge is moved behind the current back of the
//! line, and one that falls off the trailing edge (the window ran past it) is moved ahead of the
//! current front, each placed at the packing gap. Vehicles never overtake, so the line's order is
//! a ring and recycling only turns it: no sorting, no bookkeeping.
//!
//! "Ahead" and "behind" are along the direction of travel. An open curve without an anchor uses
//! the whole curve as its window: vehicles driving off its end re-enter at its start. A closed
//! curve without an anchor (or one shorter than the window) loops with no recycling.

use super::lane::Lane;
use super::window::travel_of;

impl Lane {
    /// Moves the window to the anchor's closest point, given as a curve offset. On a closed curve
    /// the lap nearest the window's last place is taken, so the window moves continuously.
    pub fn set_anchor(&mut self, offset: f32) {
        let (length, closed, reverse) = (self.length, self.closed, self.reverse);
        let Some(w) = self.window.as_mut().filter(|w| w.anchored) else { return };
        if !offset.is_finite() {
            return;
        }
        let mut a = travel_of(offset, length, closed, reverse);
        if closed && length > 0.0 {
            a = w.anchor + (a - w.anchor + 0.5 * length).rem_euclid(length) - 0.5 * length;
        }
        w.place(a, length, closed);
    }
}

/// Recycles vehicles that left the window: fronts past the leading edge first (each moved
/// behind the back), else backs past the trailing edge (each moved ahead of the front, only while
/// its new place is not itself past the leading edge). Never in both directions in one step, so
/// no vehicle bounces between the ends.
pub(crate) fn recycle(lane: &mut Lane) {
    let n = lane.len();
    let Some(w) = lane.window.filter(|_| !lane.looping && n > 1) else { return };
    let gap = lane.profile.packing_gap;
    let mut moved_back = 0;
    while moved_back < n {
        let front = lane.head;
        if lane.s[front] - lane.half[front] <= w.lead {
            break;
        }
        let tail = lane.slot(n - 1);
        lane.s[front] = lane.s[tail] - lane.half[tail] - gap - lane.half[front];
        lane.head = (lane.head + 1) % n;
        lane.recycled += 1;
        moved_back += 1;
    }
    if moved_back > 0 {
        return;
    }
    for _ in 0..n {
        let tail = lane.slot(n - 1);
        if lane.s[tail] + lane.half[tail] >= w.trail {
            break;
        }
        let front = lane.head;
        let place = lane.s[front] + lane.half[front] + gap + lane.half[tail];
        if place - lane.half[tail] > w.lead {
            break;
        }
        lane.s[tail] = place;
        lane.head = tail;
        lane.recycled += 1;
    }
}

/// Keeps a closed lane's unbounded coordinates near zero (whole laps subtracted from every
/// position and the window), so precision does not decay over a long run.
pub(crate) fn rebase(lane: &mut Lane) {
    if !lane.closed || lane.length <= 0.0 || lane.is_empty() {
        return;
    }
    let front = lane.s[lane.head];
    if (0.0..2.0 * lane.length).contains(&front) {
        return;
    }
    let shift = (front / lane.length).floor() * lane.length;
    for s in &mut lane.s {
        *s -= shift;
    }
    if let Some(w) = lane.window.as_mut() {
        w.anchor -= shift;
        w.trail -= shift;
        w.lead -= shift;
    }
}
