//! How a lane drives, sounds and collides: the traffic profile, checked against its bounds.

use serde::{Deserialize, Serialize};

use crate::bounds::traffic as tb;
use crate::config::Range;
use crate::sanitize::Finding;

/// One lane's driving, audio and collider numbers (Godot: `SwarmTrafficProfile`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrafficProfile {
    /// Speed of a vehicle in a go phase with open road, m/s.
    pub crawl_speed: f32,
    /// Speeding up, m/s².
    pub acceleration: f32,
    /// Slowing down, m/s²; also the deceleration the safe speed assumes.
    pub braking: f32,
    /// Bumper-to-bumper spacing of vehicles placed in the lane (spawn, recycling): how dense the
    /// jam looks.
    pub packing_gap: f32,
    /// Bumper-to-bumper distance a follower brakes for and never closes below.
    pub brake_gap: f32,
    /// Distance each go phase commits to, in body lengths.
    pub go_distance: Range,
    /// Seconds each pause lasts.
    pub pause_time: Range,
    /// Below this speed a vehicle counts as stopped (silent, not `moving`).
    pub moving_speed: f32,
    /// Volume of a fully faded-in voice, dB.
    pub volume_db: f32,
    /// Vehicles farther from the listener than this are silent, metres.
    pub earshot: f32,
    /// Seconds a voice takes to fade fully in or out (0: at once).
    pub fade_time: f32,
    /// Most voices playing at once for this lane.
    pub max_voices: u32,
    /// Colliders within this distance of the actor wake, metres.
    pub wake_radius: f32,
}

impl Default for TrafficProfile {
    fn default() -> Self {
        Self {
            crawl_speed: tb::CRAWL_SPEED.default,
            acceleration: tb::ACCELERATION.default,
            braking: tb::BRAKING.default,
            packing_gap: tb::PACKING_GAP.default,
            brake_gap: tb::BRAKE_GAP.default,
            go_distance: Range::new(tb::GO_DISTANCE.default.0, tb::GO_DISTANCE.default.1),
            pause_time: Range::new(tb::PAUSE_TIME.default.0, tb::PAUSE_TIME.default.1),
            moving_speed: tb::MOVING_SPEED.default,
            volume_db: tb::VOLUME_DB.default,
            earshot: tb::EARSHOT.default,
            fade_time: tb::FADE_TIME.default,
            max_voices: tb::MAX_VOICES.default as u32,
            wake_radius: tb::WAKE_RADIUS.default,
        }
    }
}

impl TrafficProfile {
    /// Every field within its bounds (clamped, or its default when not a number), with a finding
    /// for each that had to change.
    pub fn checked(mut self, out: &mut Vec<Finding>) -> Self {
        self.crawl_speed = tb::CRAWL_SPEED.check(self.crawl_speed, out);
        self.acceleration = tb::ACCELERATION.check(self.acceleration, out);
        self.braking = tb::BRAKING.check(self.braking, out);
        self.packing_gap = tb::PACKING_GAP.check(self.packing_gap, out);
        self.brake_gap = tb::BRAKE_GAP.check(self.brake_gap, out);
        self.go_distance = self.go_distance.checked(&tb::GO_DISTANCE, out);
        self.pause_time = self.pause_time.checked(&tb::PAUSE_TIME, out);
        self.moving_speed = tb::MOVING_SPEED.check(self.moving_speed, out);
        self.volume_db = tb::VOLUME_DB.check(self.volume_db, out);
        self.earshot = tb::EARSHOT.check(self.earshot, out);
        self.fade_time = tb::FADE_TIME.check(self.fade_time, out);
        self.max_voices = tb::MAX_VOICES.check(self.max_voices, out);
        self.wake_radius = tb::WAKE_RADIUS.check(self.wake_radius, out);
        self
    }

    /// Settings that are each valid but wrong together, as sentences naming the fix. A brake gap
    /// at or above the packing gap is kept (it is what the user asked for) but reported: a packed
    /// lane then has no headroom and freezes unless its front has open road.
    pub fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.brake_gap >= self.packing_gap {
            out.push(format!(
                "brake_gap ({}) is not below packing_gap ({}): a packed lane freezes whenever its front is \
                 consumed; set brake_gap below packing_gap (about a quarter of it)",
                self.brake_gap, self.packing_gap
            ));
        }
        out
    }
}
