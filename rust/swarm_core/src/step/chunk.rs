//! The fixed work split every parallel pass uses.

/// Agents per parallel work item. Fixed, so chunk boundaries never depend on the thread count.
pub const CHUNK: usize = 1024;
