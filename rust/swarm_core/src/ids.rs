//! Generational agent handles. An `AgentId` names a slot and the generation the slot had when
//! the agent was spawned; despawning bumps the generation so old ids are detected as stale.
//! The table maps live slots to their current dense index in agent storage (which moves on
//! swap-remove) and back.

use serde::{Deserialize, Serialize};

/// A stable handle to one agent. Packs into a non-negative `i64` for GDScript.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct AgentId {
    pub slot: u32,
    pub generation: u32,
}

impl AgentId {
    /// `generation` occupies the high 31 bits, so the packed value is never negative.
    pub fn to_i64(self) -> i64 {
        (((self.generation & 0x7fff_ffff) as i64) << 32) | self.slot as i64
    }
    /// Decodes a packed id; negative values are never valid.
    pub fn from_i64(v: i64) -> Option<Self> {
        if v < 0 {
            return None;
        }
        Some(Self { slot: (v & 0xffff_ffff) as u32, generation: (v >> 32) as u32 })
    }
}

const NONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct IdTable {
    /// Per slot: current generation (odd = live is not used; liveness is `dense != NONE`).
    generation: Vec<u32>,
    /// Per slot: dense index of the agent, or NONE when free.
    dense: Vec<u32>,
    /// Free slots, reused last-in first-out.
    free: Vec<u32>,
    /// Generation a new slot starts at (see [`Self::set_generation_base`]). Not saved.
    #[serde(skip)]
    base: u32,
}

impl IdTable {
    pub fn with_capacity(cap: usize) -> Self {
        Self {
            generation: Vec::with_capacity(cap),
            dense: Vec::with_capacity(cap),
            free: Vec::with_capacity(cap),
            base: 0,
        }
    }

    /// The generation slots created from now on start at. A host running several tables gives
    /// each its own, so an id of one is stale in another: it names the same slot only with the
    /// same generation, which two bases far apart reach only after about a billion despawns.
    pub fn set_generation_base(&mut self, base: u32) {
        self.base = base & 0x7fff_ffff;
    }

    /// Allocates a slot for an agent that will live at `dense_index`.
    pub fn allocate(&mut self, dense_index: u32) -> AgentId {
        let slot = match self.free.pop() {
            Some(s) => s,
            None => {
                self.generation.push(self.base);
                self.dense.push(NONE);
                (self.generation.len() - 1) as u32
            }
        };
        self.dense[slot as usize] = dense_index;
        AgentId { slot, generation: self.generation[slot as usize] }
    }

    /// Dense index of a live agent, `None` for a stale or unknown id.
    pub fn resolve(&self, id: AgentId) -> Option<usize> {
        let s = id.slot as usize;
        if s >= self.dense.len() || self.generation[s] != id.generation || self.dense[s] == NONE {
            return None;
        }
        Some(self.dense[s] as usize)
    }

    /// The id currently naming `slot` (which must be live).
    pub fn id_of_slot(&self, slot: u32) -> AgentId {
        AgentId { slot, generation: self.generation[slot as usize] }
    }

    /// Frees the slot; the generation bump makes every copy of `id` stale.
    pub fn release(&mut self, id: AgentId) {
        let s = id.slot as usize;
        self.dense[s] = NONE;
        self.generation[s] = (self.generation[s] + 1) & 0x7fff_ffff;
        self.free.push(id.slot);
    }

    pub fn heap_bytes(&self) -> usize {
        (self.generation.capacity() + self.dense.capacity() + self.free.capacity()) * 4
    }

    /// Checks a loaded table against agent storage's slot column (`slots[i]`: the slot of the
    /// agent at index `i`): live slots and agents name each other, every free slot is listed once,
    /// no more slots than `capacity` (slots are only added while none is free), generations fit
    /// 31 bits.
    pub(crate) fn validate(&self, slots: &[u32], capacity: usize) -> Result<(), String> {
        let n = self.generation.len();
        if self.dense.len() != n || n > capacity {
            return Err(format!("id table of {n} slots ({} indices) for a capacity of {capacity}", self.dense.len()));
        }
        if self.generation.iter().any(|&g| g > 0x7fff_ffff) {
            return Err("id table holds a generation above 31 bits".into());
        }
        let mut live = 0usize;
        for (s, &d) in self.dense.iter().enumerate() {
            if d == NONE {
                continue;
            }
            live += 1;
            if slots.get(d as usize) != Some(&(s as u32)) {
                return Err(format!("id slot {s} names agent index {d}, which is not its agent"));
            }
        }
        if live != slots.len() {
            return Err(format!("id table has {live} live ids for {} agents", slots.len()));
        }
        let mut listed = vec![false; n];
        for &f in &self.free {
            let ok = (f as usize) < n && self.dense[f as usize] == NONE && !listed[f as usize];
            if !ok {
                return Err(format!("id table's free list names slot {f}, which is live, repeated or unknown"));
            }
            listed[f as usize] = true;
        }
        if self.free.len() != n - live {
            return Err("id table's free list misses a free slot".into());
        }
        Ok(())
    }

    /// Capacity for `cap` slots without reallocating (a loaded table holds only its length).
    pub(crate) fn reserve_to(&mut self, cap: usize) {
        for v in [&mut self.generation, &mut self.dense, &mut self.free] {
            v.reserve(cap.saturating_sub(v.len()));
        }
    }

    /// Records that the agent in `slot` moved to `dense_index` (after a swap-remove).
    pub fn relocate(&mut self, slot: u32, dense_index: u32) {
        self.dense[slot as usize] = dense_index;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips_and_is_non_negative() {
        let id = AgentId { slot: 123_456, generation: 0x7fff_fffe };
        let v = id.to_i64();
        assert!(v >= 0);
        assert_eq!(AgentId::from_i64(v), Some(id));
        assert_eq!(AgentId::from_i64(-1), None);
    }

    #[test]
    fn released_ids_go_stale_and_slots_are_reused() {
        let mut t = IdTable::with_capacity(4);
        let a = t.allocate(0);
        let b = t.allocate(1);
        t.release(a);
        assert_eq!(t.resolve(a), None);
        assert_eq!(t.resolve(b), Some(1));
        let c = t.allocate(0);
        assert_eq!(c.slot, a.slot);
        assert_ne!(c, a);
        assert_eq!(t.resolve(c), Some(0));
        assert_eq!(t.resolve(a), None);
    }

    #[test]
    fn ids_of_tables_with_other_bases_are_stale() {
        let mut a = IdTable::with_capacity(4);
        let mut b = IdTable::with_capacity(4);
        a.set_generation_base(7);
        b.set_generation_base(0x4000_0000);
        let ia = a.allocate(0);
        let ib = b.allocate(0);
        assert_eq!((ia.slot, ib.slot), (0, 0));
        assert_eq!(a.resolve(ia), Some(0));
        assert_eq!(b.resolve(ia), None);
        assert_eq!(a.resolve(ib), None);
        assert!(ib.to_i64() >= 0 && AgentId::from_i64(ib.to_i64()) == Some(ib));
    }
}
