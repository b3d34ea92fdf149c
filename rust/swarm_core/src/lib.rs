//! Swarm simulation core: every decision the horde makes, in plain Rust with no Godot types.
//!
//! State is data (`SimState`: structure-of-arrays agent storage, ids, targets, the flow field;
//! serde-serializable), scratch and derived caches live beside it (`Workspace`), and the step is
//! a fixed pipeline of stage functions over both (`step/`), parallel over fixed-size chunks of
//! agents with results independent of the thread count. `World` holds one of each.

mod agent_step;
pub mod agents;
pub mod archetype;
pub mod body_blocking;
pub mod bounds;
pub mod breakable;
pub mod camera;
pub mod combat;
pub mod config;
pub mod contact_list;
pub mod far_blocks;
pub mod flow_field;
pub mod formation;
mod grid_patch;
mod grid_sort;
pub mod host_parts;
pub mod ids;
pub mod lod;
pub mod movement;
mod movement_lanes;
pub mod noise;
pub mod perception;
pub mod sanitize;
pub mod save;
mod save_v3;
pub mod scatter;
pub mod snorm;
pub mod spatial_grid;
pub mod spawn;
pub mod state;
pub mod stats;
pub mod steering;
pub mod step;
pub mod surface_nav;
pub mod targets;
pub mod traffic;
pub mod workspace;
pub mod world;
mod world_formations;
mod world_raycast;

pub use camera::Frustum;
pub use combat::{AttackEvent, AttackProfile};
pub use config::{
    Archetype, BehaviorProfile, MovementProfile, OrientationMode, PerceptionProfile, Range, SightOcclusion,
    WorldSettings,
};
pub use glam;
pub use ids::AgentId;
pub use lod::LodSettings;
pub use save::LoadError;
pub use world::{DamageResult, PhaseTimes, SimState, SpawnError, StepStats, Workspace, World};
