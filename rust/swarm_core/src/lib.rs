//! Swarm simulation core: every decision the horde makes, in plain Rust with no Godot types.
//!
//! State is data (`World` owns structure-of-arrays agent storage, ids, targets and the spatial
//! grid); the step is a fixed pipeline of functions over that data, parallel over fixed-size
//! chunks of agents with results independent of the thread count.

mod agent_step;
pub mod agents;
pub mod body_blocking;
pub mod breakable;
pub mod camera;
pub mod combat;
pub mod config;
pub mod flow_field;
pub mod ids;
pub mod lod;
pub mod movement;
pub mod noise;
pub mod perception;
pub mod scatter;
pub mod snorm;
pub mod spatial_grid;
pub mod spawn;
pub mod steering;
pub mod surface_nav;
pub mod targets;
pub mod world;

pub use camera::Frustum;
pub use combat::{AttackEvent, AttackProfile};
pub use config::{
    Archetype, BehaviorProfile, MovementProfile, OrientationMode, PerceptionProfile, Range, SightOcclusion,
    WorldSettings,
};
pub use glam;
pub use ids::AgentId;
pub use lod::LodSettings;
pub use world::{DamageResult, PhaseTimes, SpawnError, StepStats, World};
