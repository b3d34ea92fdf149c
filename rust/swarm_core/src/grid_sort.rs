//! The spatial grid's counting sort: agents filed by cell, in ascending agent index within a
//! cell. (Sorting in bands of cells, one per thread, each band scanning every agent's cell, was
//! measured slower than this on two threads: see docs/PERFORMANCE.md.)

/// Files the agents by `cell_of` (agent `i` in cell `cell_of[i]`, below `cells`):
/// `cell_start[c]..cell_start[c + 1]` indexes `entries` for cell `c` (agent indices, ascending
/// within a cell), and `rank[i]` is agent `i`'s place in `entries`: counts, running ends, then a
/// backward scatter that leaves each cell's start behind and keeps ascending agent index within a
/// cell.
pub(crate) fn sort_by_cell(
    cell_of: &[u32],
    cells: usize,
    cell_start: &mut Vec<u32>,
    entries: &mut Vec<u32>,
    rank: &mut Vec<u32>,
) {
    let n = cell_of.len();
    cell_start.clear();
    cell_start.resize(cells + 1, 0);
    entries.resize(n, 0);
    rank.resize(n, 0);
    for &c in cell_of {
        cell_start[c as usize] += 1;
    }
    // The running total in a register: reading back the entry just written would put a
    // store-to-load round trip on every cell's path (a few hundred thousand cells at 100,000
    // agents).
    let mut end = 0u32;
    for count in &mut cell_start[..cells] {
        end += *count;
        *count = end;
    }
    cell_start[cells] = n as u32;
    for (i, (&c, rank)) in cell_of.iter().zip(rank.iter_mut()).enumerate().rev() {
        let slot = &mut cell_start[c as usize];
        // The place kept in a register: read back after the entry's store, it would be
        // reloaded (the compiler cannot tell the two buffers apart).
        let k = *slot - 1;
        *slot = k;
        entries[k as usize] = i as u32;
        *rank = k;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_by_cell_in_ascending_index_with_ranks_and_starts() {
        let cell_of = [2u32, 0, 2, 1, 0, 4];
        let (mut s, mut e, mut r) = (Vec::new(), Vec::new(), Vec::new());
        sort_by_cell(&cell_of, 5, &mut s, &mut e, &mut r);
        assert_eq!(s, [0, 2, 3, 5, 5, 6]);
        assert_eq!(e, [1, 4, 3, 0, 2, 5]);
        for (i, &k) in r.iter().enumerate() {
            assert_eq!(e[k as usize], i as u32);
        }
    }
}
