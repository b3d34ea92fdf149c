//! Flow fields toward the spots perceiving agents walk to (a last-seen spot, an alert, a heard
//! noise), so a search follows the route around walls instead of the straight line. A budget of
//! `MAX_SPOT_FIELDS` spots hold a field at once: a spot keeps its field while any agent still
//! walks to it, free slots go to the spots most agents want (ties to the lower cell), and a slot
//! is dropped as soon as nobody wants its spot. Fields are built in slices like target fields,
//! each with an eighth of a target field's cell budget, so all spot fields together cost at most
//! what one target field's rebuild costs per step; until a spot's field is complete its agents
//! walk the straight line.

use serde::{Deserialize, Serialize};

use super::fields::{FieldSet, FieldSetSettings, FlowField};
use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, NONE};

/// Spots that hold a flow field at once.
pub const MAX_SPOT_FIELDS: usize = 8;

/// A spot field's settings: the target fields' with an equal share of one slice per slot (a
/// one-shot build, `usize::MAX`, stays one-shot).
fn share(s: FieldSetSettings) -> FieldSetSettings {
    let cells_per_tick =
        if s.cells_per_tick == usize::MAX { usize::MAX } else { (s.cells_per_tick / MAX_SPOT_FIELDS).max(256) };
    FieldSetSettings { cells_per_tick, ..s }
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SpotFields {
    fields: FieldSet,
    /// Spot cell of each slot (`NONE`: free).
    cells: Vec<CellId>,
    /// Scratch: the wanted cells, then the candidates (count, cell) for free slots.
    #[serde(skip)]
    wants: Vec<CellId>,
    #[serde(skip)]
    candidates: Vec<(u32, CellId)>,
}

impl SpotFields {
    pub fn new(settings: FieldSetSettings) -> Self {
        let mut fields = FieldSet::new(share(settings));
        fields.set_slot_count(MAX_SPOT_FIELDS);
        Self { fields, cells: vec![NONE; MAX_SPOT_FIELDS], wants: Vec::new(), candidates: Vec::new() }
    }

    /// Checks loaded spot fields against the grid: at most one field per slot, every slot's
    /// spot a cell of the grid (or free), the fields themselves as target fields are checked.
    pub(crate) fn validate(&self, grid: &SurfaceGrid) -> Result<(), String> {
        if self.cells.len() != MAX_SPOT_FIELDS
            || self.cells.iter().any(|&c| c != NONE && c as usize >= grid.cell_count())
        {
            return Err("spot fields' cells are out of range".into());
        }
        self.fields.validate(grid, MAX_SPOT_FIELDS).map_err(|e| format!("spot fields: {e}"))
    }

    pub fn set_settings(&mut self, settings: FieldSetSettings) {
        self.fields.set_settings(share(settings));
    }

    /// Route costs changed: every spot field rebuilds (throttled like target fields).
    pub fn mark_costs_changed(&mut self) {
        self.fields.mark_costs_changed();
    }

    /// Assigns slots to the spots agents walk to (`wanted`: one cell per such agent, any order;
    /// `NONE` entries are skipped) and advances the builds.
    pub fn update(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, wanted: impl Iterator<Item = CellId>, now: f64) {
        self.wants.clear();
        self.wants.extend(wanted.filter(|&c| c != NONE && (c as usize) < grid.cell_count()));
        self.wants.sort_unstable();
        for c in &mut self.cells {
            if *c != NONE && self.wants.binary_search(c).is_err() {
                *c = NONE;
            }
        }
        self.candidates.clear();
        for run in self.wants.chunk_by(|a, b| a == b) {
            if !self.cells.contains(&run[0]) {
                self.candidates.push((run.len() as u32, run[0]));
            }
        }
        self.candidates.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut next = self.candidates.iter();
        for c in self.cells.iter_mut().filter(|c| **c == NONE) {
            match next.next() {
                Some(&(_, cell)) => *c = cell,
                None => break,
            }
        }
        for (k, &c) in self.cells.iter().enumerate() {
            self.fields.set_target(k, c);
        }
        if self.cells.iter().any(|&c| c != NONE) {
            self.fields.tick(grid, mods, now);
        }
    }

    /// The complete field toward `cell`, if that spot holds one.
    pub fn field_toward(&self, cell: CellId) -> Option<&FlowField> {
        let k = self.slot_of(cell)?;
        self.fields.field(k).filter(|f| f.is_built() && f.target() == cell)
    }

    /// `field_toward`, only when that field is on the current route costs.
    pub fn current_field_toward(&self, cell: CellId) -> Option<&FlowField> {
        self.fields.current_field(self.slot_of(cell)?)
    }

    /// The slot holding the spot `cell`.
    fn slot_of(&self, cell: CellId) -> Option<usize> {
        if cell == NONE {
            return None;
        }
        self.cells.iter().position(|&c| c == cell)
    }

    /// Spots holding a slot now.
    pub fn active_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != NONE).count()
    }

    pub fn heap_bytes(&self) -> usize {
        self.fields.heap_bytes()
    }
}

#[cfg(test)]
mod tests {
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;
    use glam::Vec3;

    #[test]
    fn the_most_wanted_spots_get_the_slots_and_unwanted_ones_are_dropped() {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 20, 20, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let m = ModifierLayer::new(&g);
        let mut f = SpotFields::new(FieldSetSettings { cells_per_tick: usize::MAX, ..Default::default() });
        // Ten spots wanted by one agent each, and spot 50 by three: 50 first, then the lowest cells.
        let mut wanted: Vec<CellId> = (100..110).collect();
        wanted.extend([50, 50, 50]);
        f.update(&g, &m, wanted.iter().copied(), 0.0);
        assert_eq!(f.active_count(), MAX_SPOT_FIELDS);
        assert!(f.field_toward(50).is_some_and(|x| x.distance(50) == 0.0));
        assert!(f.field_toward(106).is_some() && f.field_toward(107).is_none());
        // Nobody wants 100 any more: its slot goes to 107; 101.. keep theirs.
        f.update(&g, &m, wanted.iter().copied().filter(|&c| c != 100), 1.0);
        assert!(f.field_toward(100).is_none() && f.field_toward(107).is_some());
        assert!(f.field_toward(101).is_some());
        f.update(&g, &m, std::iter::empty(), 2.0);
        assert_eq!(f.active_count(), 0);
    }

    /// A loaded state's spot fields are checked against the grid (a save is validated before a
    /// world is built on it).
    #[test]
    fn spot_fields_out_of_range_are_refused() {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, 10, 10, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        let g = SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap();
        let m = ModifierLayer::new(&g);
        let mut f = SpotFields::new(FieldSetSettings { cells_per_tick: usize::MAX, ..Default::default() });
        f.update(&g, &m, [5, 7].into_iter(), 0.0);
        assert!(f.validate(&g).is_ok());
        let mut bad = f.clone();
        bad.cells[0] = g.cell_count() as CellId;
        assert!(bad.validate(&g).unwrap_err().contains("spot fields"));
        let mut bad = f.clone();
        bad.cells.push(NONE);
        assert!(bad.validate(&g).is_err());
    }
}
