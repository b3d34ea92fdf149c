//! `SwarmBehaviorProfile`: which steering behaviours run and how strongly.

use godot::prelude::*;
use swarm_core::BehaviorProfile;

use crate::convert::{resource_name, Checker};

/// Which steering behaviours an archetype uses and how strongly each one pulls. Behaviours are
/// additive: each adds its weighted vector, the sum is clamped to unit length and scaled by max
/// speed. Weights are relative: doubling every weight changes nothing, and raising one weight
/// lowers the influence of all others. A behaviour that is switched off costs nothing.
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmBehaviorProfile {
    /// Head for a slot on a ring around the target and stop there.
    #[export_group(name = "Approach & Surround")]
    #[export]
    #[init(val = true)]
    use_approach: bool,
    /// Relative strength of the approach pull.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    approach_weight: f32,
    /// Radius of the ring of slots around the target, from its centre.
    #[export(range = (0.0, 20.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.5)]
    surround_radius: f32,
    /// Inside this distance an agent solves its slot from its own side of the target instead
    /// of its fixed slot angle, so arriving agents do not cross over each other.
    #[export(range = (0.0, 50.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 8.0)]
    surround_near_band: f32,
    /// Within this distance of its slot an agent slows down so it stops on the slot.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.5)]
    arrival_distance: f32,
    /// The ring lags this many seconds of the target's velocity behind a moving target, so the
    /// horde trails it instead of overshooting.
    #[export(range = (0.0, 2.0, 0.01, suffix = "s"))]
    #[init(val = 0.3)]
    trail_time: f32,

    /// Push away from neighbours that come closer than the spacing radius.
    #[export_group(name = "Personal Space")]
    #[export]
    #[init(val = true)]
    use_personal_space: bool,
    /// Relative strength of the push away from neighbours.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 1.0)]
    spacing_strength: f32,
    /// Neighbours closer than this push.
    #[export(range = (0.0, 10.0, 0.01, or_greater, suffix = "m"))]
    #[init(val = 1.2)]
    spacing_radius: f32,
    /// Most neighbours considered per step (the cost cap).
    #[export(range = (1.0, 64.0, 1.0))]
    #[init(val = 8)]
    spacing_max_samples: i64,

    /// A cheap wander for agents that nothing else moves (no target, or standing on their slot).
    #[export_group(name = "Idle Motion")]
    #[export]
    #[init(val = true)]
    use_idle_motion: bool,
    /// Relative strength of the wander.
    #[export(range = (0.0, 10.0, 0.01, or_greater))]
    #[init(val = 0.25)]
    idle_weight: f32,
    /// Wander speed as a fraction of max speed.
    #[export(range = (0.0, 1.0, 0.01))]
    #[init(val = 0.3)]
    idle_strength: f32,
    /// Seconds between changes of wander direction.
    #[export(range = (0.05, 10.0, 0.01, or_greater, suffix = "s"))]
    #[init(val = 2.0)]
    idle_period: f32,

    base: Base<Resource>,
}

impl SwarmBehaviorProfile {
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> BehaviorProfile {
        let d = BehaviorProfile::default();
        let mut c =
            Checker::new(format!("{owner}: {}", resource_name(&self.base().clone().upcast(), "SwarmBehaviorProfile")));
        let b = BehaviorProfile {
            use_approach: self.use_approach,
            approach_weight: c.f("approach_weight", self.approach_weight, 0.0, 1000.0, d.approach_weight),
            surround_radius: c.f("surround_radius", self.surround_radius, 0.0, 1000.0, d.surround_radius),
            surround_near_band: c.f("surround_near_band", self.surround_near_band, 0.0, 10_000.0, d.surround_near_band),
            arrival_distance: c.f("arrival_distance", self.arrival_distance, 0.0, 1000.0, d.arrival_distance),
            trail_time: c.f("trail_time", self.trail_time, 0.0, 10.0, d.trail_time),
            use_personal_space: self.use_personal_space,
            spacing_strength: c.f("spacing_strength", self.spacing_strength, 0.0, 1000.0, d.spacing_strength),
            spacing_radius: c.f("spacing_radius", self.spacing_radius, 0.0, 100.0, d.spacing_radius),
            spacing_max_samples: c.i("spacing_max_samples", self.spacing_max_samples, 1, 64) as u32,
            use_idle_motion: self.use_idle_motion,
            idle_weight: c.f("idle_weight", self.idle_weight, 0.0, 1000.0, d.idle_weight),
            idle_strength: c.f("idle_strength", self.idle_strength, 0.0, 1.0, d.idle_strength),
            idle_period: c.f("idle_period", self.idle_period, 0.05, 60.0, d.idle_period),
        };
        problems.append(&mut c.problems);
        b
    }
}
