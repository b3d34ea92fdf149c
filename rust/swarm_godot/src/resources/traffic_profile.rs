//! `SwarmTrafficProfile`: how a traffic lane drives, sounds and collides.

use godot::classes::AudioStream;
use godot::prelude::*;
use swarm_core::traffic::TrafficProfile;

use crate::convert::{report_findings, resource_name, to_range};

/// How the vehicles of a [SwarmTrafficLane] drive, sound and collide. Several lanes may share
/// one profile.
///
/// A jam that reads as a jam needs [member brake_gap] well below [member packing_gap]: vehicles
/// are placed [member packing_gap] apart, so each still has room to creep at
/// [member crawl_speed] before it brakes. With the two equal, a packed lane freezes unless its
/// front has open road (a lane whose front is consumed by the moving window never moves).
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmTrafficProfile {
    /// Speed of a vehicle in a go phase with open road, m/s.
    #[export_group(name = "Driving")]
    #[export(range = (0.0, 30.0, 0.01, or_greater, suffix = "m/s"))]
    #[init(val = 2.5)]
    crawl_speed: f32,
    /// Speeding up, m/s².
    #[export(range = (0.01, 20.0, 0.01, or_greater, suffix = "m/s²"))]
    #[init(val = 2.0)]
    acceleration: f32,
    /// Slowing down, m/s²; also what the safe following speed assumes.
    #[export(range = (0.01, 30.0, 0.01, or_greater, suffix = "m/s²"))]
    #[init(val = 6.0)]
    braking: f32,
    /// Bumper-to-bumper spacing of vehicles placed in the lane (at the start and when recycled):
    /// how dense the jam looks.
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 2.5)]
    packing_gap: f32,
    /// Bumper-to-bumper distance at which a follower brakes; it never closes below it. Keep it
    /// well below [member packing_gap] (about a quarter).
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 0.6)]
    brake_gap: f32,
    /// Distance each go phase commits to, in body lengths (min, max): it is spent only on real
    /// progress, so a blocked vehicle still covers it once the road clears.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = Vector2::new(0.8, 2.0))]
    go_distance: Vector2,
    /// Seconds each pause lasts (min, max).
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = Vector2::new(0.4, 1.2))]
    pause_time: Vector2,
    /// Below this speed a vehicle counts as stopped: it is silent and not counted as moving.
    #[export(range = (0.0, 5.0, 0.01, or_greater, suffix = "m/s"))]
    #[init(val = 0.1)]
    moving_speed: f32,

    /// The engine loop each voice plays. It must be a constant-volume loop: a clip with a baked
    /// fade in or out pulses when looped (flatten it and trim its quiet tails first).
    #[export_group(name = "Audio")]
    #[export]
    engine_stream: Option<Gd<AudioStream>>,
    /// Volume of a fully faded-in voice.
    #[export(range = (-80.0, 24.0, 0.1, suffix = "dB"))]
    #[init(val = 0.0)]
    volume_db: f32,
    /// Only vehicles closer than this to the listener (the current camera) get a voice.
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 30.0)]
    earshot: f32,
    /// Seconds a voice takes to fade fully in or out; 0 switches at once.
    #[export(range = (0.0, 5.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 0.5)]
    fade_time: f32,
    /// Most voices of one lane playing at once.
    #[export(range = (0.0, 256.0, 1.0))]
    #[init(val = 8)]
    max_voices: i64,

    /// Physics layers of the vehicles' colliders (give them a layer of their own, and let only the
    /// actor that matters collide with it).
    #[export_group(name = "Colliders")]
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_layer: u32,
    /// Physics layers the vehicles' colliders scan.
    #[export(flags_3d_physics)]
    #[init(val = 1)]
    collision_mask: u32,
    /// [method SwarmTrafficLane.wake_colliders] wakes the colliders within this distance of the actor.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 6.0)]
    wake_radius: f32,

    base: Base<Resource>,
}

impl SwarmTrafficProfile {
    /// The core profile, checked by the core; its findings (and settings wrong together) go to
    /// `problems` under this resource's name.
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> TrafficProfile {
        let mut findings = Vec::new();
        let p = TrafficProfile {
            crawl_speed: self.crawl_speed,
            acceleration: self.acceleration,
            braking: self.braking,
            packing_gap: self.packing_gap,
            brake_gap: self.brake_gap,
            go_distance: to_range(self.go_distance),
            pause_time: to_range(self.pause_time),
            moving_speed: self.moving_speed,
            volume_db: self.volume_db,
            earshot: self.earshot,
            fade_time: self.fade_time,
            max_voices: swarm_core::bounds::traffic::MAX_VOICES.narrow(self.max_voices, &mut findings),
            wake_radius: self.wake_radius,
        }
        .checked(&mut findings);
        let together = p.problems();
        if !findings.is_empty() || !together.is_empty() {
            let name = format!("{owner}: {}", self.display_name());
            report_findings(&name, &findings, problems);
            problems.extend(together.into_iter().map(|m| format!("{name}: {m}")));
        }
        p
    }

    pub fn display_name(&self) -> String {
        resource_name(&self.base().clone().upcast(), "SwarmTrafficProfile")
    }

    pub fn engine_stream(&self) -> Option<Gd<AudioStream>> {
        self.engine_stream.clone()
    }

    pub fn collision_layer(&self) -> u32 {
        self.collision_layer
    }

    pub fn collision_mask(&self) -> u32 {
        self.collision_mask
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmTrafficProfile {
    /// Every property edit is announced with `changed`: lanes using this profile read it again.
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
