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
            class_enum::register_all();
        }
    }
}
