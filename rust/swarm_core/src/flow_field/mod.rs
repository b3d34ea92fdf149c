//! Surface flow field: a layered grid of walkable cells (`surface`) baked from ray samples of
//! the scene (`bake`, over a ray caster the engine layer provides), a run-time layer of doors and
//! barricades over it (`modifiers`), per-target distance fields built in slices or at once
//! (`integration`), smooth direction fields agents read once per step (`direction`),
//! point-to-point route lengths (`path`), the per-target rebuild schedule (`fields`), and keeping
//! agents on open cells (`enforce`). Plain data and functions; the binding layer casts the rays
//! and owns the nodes.

pub mod bake;
pub mod direction;
pub mod enforce;
pub mod fields;
pub mod integration;
mod jump_points;
mod jump_table;
pub mod modifiers;
pub mod path;
mod search;
pub mod spots;
pub mod surface;
mod surface_bake;
mod surface_io;
#[cfg(test)]
mod surface_tests;

pub use direction::DirectionField;
pub use enforce::{constrain_move, escape_closed_cell, line_is_open, recover, MoveResult};
pub use fields::{FieldSet, FieldSetSettings, FlowField};
pub use integration::{integrate, DistanceField, IntegrationJob};
pub use modifiers::{ModifierBox, ModifierLayer, RouteMode, StampResult};
pub use path::path_length;
pub use search::PathScratch;
pub use spots::{SpotFields, MAX_SPOT_FIELDS};
pub use surface::{BakeError, BakeParams, BakeSamples, CellId, SurfaceGrid, SurfaceSample, DIRS, NONE};
