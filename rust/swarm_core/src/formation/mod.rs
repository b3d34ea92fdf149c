//! Formations: groups of agents ordered to a destination arrive together, each in its slot of a
//! shape. `shape` places the slots, `assign` gives each agent the slot that keeps the summed route
//! shortest, `routes` measures routes over one field toward the destination, `orders` keeps the orders (their common arrival time, progress, the flow field
//! toward their destination) and follows them each step, `seat` is the per-agent column, and
//! `steer` is how an ordered agent moves: along its route at the speed that brings it to its
//! slot when the others reach theirs, then holding the slot facing the formation's forward.
//! See docs/FORMATIONS.md.

pub mod assign;
pub mod orders;
pub mod routes;
pub mod seat;
pub mod shape;
pub mod steer;

pub use orders::{FormationError, FormationProgress, Formations, Order};
pub use seat::{Seat, NO_ORDER};
pub use shape::{FormationShape, Placement, ShapeError};
