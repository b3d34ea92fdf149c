//! Steering behaviours. Each returns a ground-plane vector of at most unit length;
//! `blend` combines them. They are pure functions of their inputs, so the step can run them
//! for any agent on any thread.

pub mod approach;
pub mod blend;
pub mod hold_nearby;
pub mod idle;
pub mod orbit;
pub mod out_of_sight;
pub mod personal_space;
pub mod predictive;
pub mod pressure;
pub mod retreat;
pub mod surround_shape;
