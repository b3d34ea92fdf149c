//! Swarm GDExtension: Godot nodes and resources over `swarm_core`. This crate only converts:
//! resources into core configs, core state into one MultiMesh buffer per archetype, signals
//! out and calls in. Every simulation decision lives in `swarm_core`.

use godot::prelude::*;

mod camera;
mod class_enum;
mod convert;
#[cfg(test)]
mod docs_complete;
mod flow_bake;
mod flow_debug;
mod lookup;
mod nodes;
mod resources;
mod vat_anim;
mod visuals;

struct SwarmExtension;

#[gdextension]
unsafe impl ExtensionLibrary for SwarmExtension {
    fn on_stage_init(stage: InitStage) {
        if stage == InitStage::Scene {
            register_class_enums();
        }
    }
}

/// Registers every class enum; called once the scene-level classes exist.
fn register_class_enums() {
    use crate::nodes::{breakable, director, flow_modifier, spawners};
    use crate::resources::{movement_profile, perception_profile};
    flow_modifier::Route::register();
    breakable::StateEnum::register();
    director::ModeEnum::register();
    spawners::RectFallback::register();
    spawners::RingFallback::register();
    movement_profile::OrientationModeEnum::register();
    perception_profile::SightOcclusionEnum::register();
}
