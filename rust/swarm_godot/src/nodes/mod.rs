//! Scene nodes: the manager that owns a world, and targets agents chase.

pub mod breakable;
pub mod director;
pub mod flow_baker_node;
pub mod flow_modifier;
pub mod link;
pub mod manager;
pub mod pushable;
pub mod spawners;
pub mod target;
pub mod traffic_lane;
