//! Scene nodes: the manager that owns a world, and targets agents chase.

pub mod manager;
pub mod target;
pub mod spawners;
pub mod director;
