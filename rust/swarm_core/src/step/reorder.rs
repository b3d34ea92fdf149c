//! Storage reorder (before classification, when due): permutes agent storage into the grid's
//! tile order (`SpatialGrid::tile_order`) so neighbours in space are neighbours in memory and a
//! far block is a compact patch; ids follow. Reads that order; writes every agent array and the
//! id table.

use crate::agents::{Agents, Cycles};
use crate::ids::IdTable;
use crate::step::chunk::CHUNK;

/// Every this many steps (and after a spawn wave, see `due`), storage is reordered to follow the
/// grid, so neighbours in space are neighbours in memory.
pub const REORDER_INTERVAL: u64 = 128;

/// Whether this step reorders: periodically, and soon after many agents were placed out of order
/// (a spawn wave: the spawn order is arbitrary), so a crowd never runs long with scattered memory.
#[inline]
pub(crate) fn due(n: usize, ticks: u64, reordered_at: u64, unsorted: usize) -> bool {
    n > CHUNK && (ticks - reordered_at >= REORDER_INTERVAL || unsorted * 8 > n)
}

/// Permutes `agents` into `order` (the grid's tile order) and points every id at its new index.
pub(crate) fn reorder_by_cell(agents: &mut Agents, ids: &mut IdTable, order: &[u32], cycles: &mut Cycles) {
    agents.permute(order, cycles);
    for (i, &slot) in agents.slot.iter().enumerate() {
        ids.relocate(slot, i as u32);
    }
}
