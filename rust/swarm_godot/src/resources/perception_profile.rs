//! `SwarmPerceptionProfile`: what an archetype notices (sight, occlusion, memory, noise, alerts).

use godot::prelude::*;
use swarm_core::bounds::perception as pb;
use swarm_core::{PerceptionProfile, SightOcclusion};

use crate::class_enum::class_enum;
use crate::convert::{report_findings, resource_name};

/// What agents of an archetype notice. Without this profile on a [SwarmAgentArchetype] its
/// agents always know where their target is. With it, an agent chases its target only while it
/// sees it: within [member sight_distance] and not hidden, as [member sight_occlusion] decides.
/// An agent that loses sight walks to where it last saw the target when [member search_enabled]
/// is on, and gives up after [member forget_time]. Search-enabled agents that see nothing hear
/// [method SwarmManager.emit_noise] and a [SwarmBreakable]'s hit and break noises, and walk to
/// them. An agent that sees its target alerts others within [member alert_spread_radius].
/// Only agents that are going somewhere (chasing a target they see, or walking to a searched
/// spot or a heard noise) press and strike a closed [SwarmFlowModifier].
#[derive(GodotClass)]
#[class(tool, init, base = Resource)]
pub struct SwarmPerceptionProfile {
    /// A target farther than this (ground plane) is never seen.
    #[export_group(name = "Sight")]
    #[export(range = (0.0, 200.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 30.0)]
    sight_distance: f32,
    /// What hides a target within sight distance: [constant NONE] (nothing),
    /// [constant PHYSICS_RAY] (a physics ray from the agent's eyes to the target, against
    /// [member SwarmManager.sight_collision_mask]; the manager casts at most
    /// [member SwarmManager.sight_rays_per_frame] per frame, round-robin, so each agent's answer
    /// refreshes every few frames), or [constant NAVIGATION_PATH] (the walkable route on the
    /// surface flow field against the straight line: a closed door with a high route cost hides
    /// what is behind it; a route that cannot be measured, as when a BLOCKED box is the only way
    /// in, reads as not blocked).
    #[export]
    #[var(get, set)]
    #[init(val = SightOcclusionEnum(2))]
    sight_occlusion: SightOcclusionEnum,
    /// [constant NAVIGATION_PATH] only: metres of extra route beyond the straight-line distance
    /// that still count as in sight (plus one and a half flow-field cells of slack). A door whose
    /// route cost is above this hides the target at any distance; a fence with a lower cost
    /// hides nothing. A damaged [SwarmBreakable] halves its cost, so it hides less.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 4.0)]
    occlusion_detour_tolerance: f32,

    /// Seconds after the last sight, noise or alert before a searching agent gives up and idles.
    #[export_group(name = "Memory")]
    #[export(range = (0.0, 120.0, 0.1, or_greater, suffix = "s"))]
    #[init(val = 10.0)]
    forget_time: f32,
    /// On: agents walk to where they last saw their target and hear noises while they see none.
    /// Off: losing sight makes them idle at once, and noises are ignored.
    #[export]
    #[init(val = true)]
    search_enabled: bool,
    /// An agent that sees its target alerts perceiving agents within this distance (through the
    /// same occlusion gate): they search the target's position, and dormant ones wake. 0: off.
    #[export(range = (0.0, 100.0, 0.1, or_greater, suffix = "m"))]
    #[init(val = 6.0)]
    alert_spread_radius: f32,

    base: Base<Resource>,
}

class_enum! {
    /// How sight is blocked, `SwarmPerceptionProfile.SightOcclusion` in Godot.
    pub struct SightOcclusionEnum in SwarmPerceptionProfile as "SightOcclusion" {
        /// Distance only.
        NONE = 0, "None";
        /// A physics ray to the target, cast by the manager (bounded per frame).
        PHYSICS_RAY = 1, "Physics Ray";
        /// The route on the surface flow field against the straight line.
        NAVIGATION_PATH = 2, "Navigation Path";
    }
}

#[godot_api]
impl SwarmPerceptionProfile {
    #[func]
    fn get_sight_occlusion(&self) -> SightOcclusionEnum {
        self.sight_occlusion
    }

    #[func]
    fn set_sight_occlusion(&mut self, sight_occlusion: SightOcclusionEnum) {
        self.sight_occlusion = sight_occlusion;
    }
}

impl SwarmPerceptionProfile {
    /// The core profile, checked by the core; its findings go to `problems` under this
    /// resource's name.
    pub fn to_core(&self, owner: &str, problems: &mut Vec<String>) -> PerceptionProfile {
        let mut findings = Vec::new();
        let occlusion = SightOcclusion::from_index(pb::SIGHT_OCCLUSION.narrow(self.sight_occlusion.0, &mut findings));
        let p = PerceptionProfile {
            sight_distance: self.sight_distance,
            sight_occlusion: occlusion,
            occlusion_detour_tolerance: self.occlusion_detour_tolerance,
            forget_time: self.forget_time,
            search_enabled: self.search_enabled,
            alert_spread_radius: self.alert_spread_radius,
        }
        .checked(&mut findings);
        let name = resource_name(&self.base().clone().upcast(), "SwarmPerceptionProfile");
        report_findings(&format!("{owner}: {name}"), &findings, problems);
        p
    }
}

#[godot_api]
impl godot::classes::IResource for SwarmPerceptionProfile {
    /// Every property edit is announced with `changed`: a manager using this resource converts
    /// it again on its next frame (and only then).
    fn on_set(&mut self, _property: StringName, _value: Variant) -> bool {
        self.base_mut().emit_changed();
        false
    }
}
