//! Colliders that sleep until an event: `wake` starts an event of some seconds around an actor;
//! each step every vehicle within the wake radius of the actor's current position wakes (the set
//! only grows while the actor moves), the lane is frozen meanwhile, and when the time is up all
//! sleep again and the lane moves on.

use serde::{Deserialize, Serialize};

use super::lane::Lane;

/// The colliders' state: awake flags per slot and the event's time left.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Wake {
    pub awake: Vec<bool>,
    /// Seconds left of the event; `None` when no event runs.
    pub remaining: Option<f32>,
}

/// What a wake step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WakeChange {
    /// Colliders woken this step.
    pub woken: usize,
    /// The event ended this step: every collider sleeps again.
    pub slept: bool,
}

impl Wake {
    /// Starts (or extends) an event of `seconds` and freezes the lane.
    pub fn start(&mut self, lane: &mut Lane, seconds: f32) {
        let s = if seconds.is_finite() { seconds.max(0.0) } else { 0.0 };
        self.remaining = Some(self.remaining.map_or(s, |r| r.max(s)));
        self.awake.resize(lane.len(), false);
        lane.set_frozen(true);
    }

    /// Wakes the vehicles within `wake_radius` of the actor (`dist2[slot]`, squared distances),
    /// then counts the event's time down by `dt`; at its end all sleep and the lane thaws.
    pub fn update(&mut self, lane: &mut Lane, dist2: &[f32], dt: f32) -> WakeChange {
        let mut change = WakeChange::default();
        let Some(remaining) = self.remaining else { return change };
        self.awake.resize(lane.len(), false);
        if remaining > 0.0 {
            let r2 = lane.profile().wake_radius * lane.profile().wake_radius;
            for (a, d) in self.awake.iter_mut().zip(dist2) {
                if !*a && *d <= r2 {
                    *a = true;
                    change.woken += 1;
                }
            }
        }
        let left = remaining - dt.max(0.0);
        if left <= 0.0 {
            self.awake.fill(false);
            self.remaining = None;
            lane.set_frozen(false);
            change.slept = true;
        } else {
            self.remaining = Some(left);
        }
        change
    }

    pub fn awake_count(&self) -> usize {
        self.awake.iter().filter(|a| **a).count()
    }
}
