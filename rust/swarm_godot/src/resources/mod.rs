//! Inspector-edited resources and their conversion into core configs.

pub mod archetype;
pub mod attack_profile;
pub mod behavior_profile;
pub mod flow_field_data;
pub mod formation;
pub mod movement_profile;
pub mod perception_profile;
pub mod settings;
pub mod spawn_profile;
pub mod traffic_profile;
pub mod vertex_animation;

#[cfg(test)]
mod hints_agree;
