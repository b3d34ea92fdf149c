//! Ambient traffic: lanes of vehicles along a curve, each one controller over flat columns, with
//! car-following that keeps a packed jam creeping, stop-and-go committed to distances, an endless
//! belt recycled around a moving window, engine voices only for nearby moving vehicles, and
//! colliders that sleep until an event wakes the few near an actor.

mod belt;
mod following;
mod lane;
mod polyline;
mod profile;
mod setup;
mod step;
mod voices;
mod wake;
mod window;

#[cfg(test)]
mod tests;

pub use lane::{Lane, LaneStats};
pub use polyline::{Polyline, Sample};
pub use profile::TrafficProfile;
pub use setup::{LaneSetup, VehicleKind};
pub use voices::{Voice, VoicePool, SILENT};
pub use wake::{Wake, WakeChange};
