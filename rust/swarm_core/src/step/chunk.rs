//! The default work split of the step's parallel passes. Steering splits by the agent count
//! (`steer::steer_chunk`), the grid and body blocking by their own sizes; none depends on the
//! thread count, so neither do the results.

/// Agents per parallel work item. Fixed, so chunk boundaries never depend on the thread count.
pub const CHUNK: usize = 1024;
