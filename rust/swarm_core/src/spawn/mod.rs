//! Spawning decisions: spawn shapes and their seeded points, a director's schedule, and the
//! pressure recycler's choice of where far agents go.

pub mod director;
pub mod recycle;
pub mod shapes;

pub use director::{Director, DirectorConfig, Mode};
pub use shapes::{Shape, SpawnArea, SpawnRng};
