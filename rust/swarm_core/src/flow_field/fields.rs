//! Per-target flow fields and when they are rebuilt. A `FlowField` is a distance field plus its
//! direction field. A `FieldSet` keeps one per target slot and rebuilds it when its target moves
//! to another cell or route costs change, throttled by minimum intervals, in slices of a cell
//! budget per tick (slots in parallel): agents keep reading the previous field until the new one
//! is complete, so a step never waits on a full rebuild of every field. A slot's first field,
//! with no previous one to read, is built at once.

use glam::{Vec2, Vec3};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::direction::DirectionField;
use super::integration::{integrate, DistanceField, IntegrationJob};
use super::modifiers::ModifierLayer;
use super::surface::{CellId, SurfaceGrid, NONE};

/// A distance field and the headings derived from it, for one target cell.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FlowField {
    pub distance: DistanceField,
    pub direction: DirectionField,
}

impl FlowField {
    pub fn new() -> Self {
        Self { distance: DistanceField::new(), direction: DirectionField::new() }
    }

    /// Rebuilds both fields toward `target` at once.
    pub fn rebuild(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, target: CellId, job: &mut IntegrationJob) {
        integrate(grid, mods, target, job, &mut self.distance);
        self.direction.build(grid, mods, &self.distance);
    }

    /// The target cell (`NONE` while never built).
    pub fn target(&self) -> CellId {
        self.distance.target()
    }

    pub fn is_built(&self) -> bool {
        self.distance.target() != NONE
    }

    #[inline]
    pub fn distance(&self, cell: CellId) -> f32 {
        self.distance.distance(cell)
    }

    #[inline]
    pub fn direction(&self, cell: CellId) -> Vec2 {
        self.direction.direction(cell)
    }

    #[inline]
    pub fn sample(&self, grid: &SurfaceGrid, cell: CellId, pos: Vec3) -> Vec2 {
        self.direction.sample(grid, cell, pos)
    }

    pub fn heap_bytes(&self) -> usize {
        self.distance.heap_bytes() + self.direction.heap_bytes()
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FieldSetSettings {
    /// Cells each building field settles per `tick` (and as many headings once its distances
    /// are done): 6,144 keeps a slice under about 0.6 ms on 2 cores (a 512 x 512 field then
    /// rebuilds over about 84 steps, 1.4 s at 60 Hz; a 128 x 128 one over 6); `usize::MAX` builds
    /// in one tick.
    pub cells_per_tick: usize,
    /// Least time between two rebuild starts of one field when its target changed cell.
    pub target_rebuild_interval: f64,
    /// Least time between two rebuild starts of one field when only route costs changed
    /// (`surface_flow_rebake_interval`).
    pub cost_rebuild_interval: f64,
}

impl Default for FieldSetSettings {
    fn default() -> Self {
        Self { cells_per_tick: 6_144, target_rebuild_interval: 0.1, cost_rebuild_interval: 0.5 }
    }
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
struct Slot {
    /// What agents read.
    field: FlowField,
    /// The build in progress and where its result goes before it is swapped in.
    job: IntegrationJob,
    next: FlowField,
    building: bool,
    /// Next cell whose heading to build once the distances are done.
    next_dir: usize,
    /// Target cell wanted (`NONE`: slot unused).
    wanted: CellId,
    costs_dirty: bool,
    /// Time the last build started (`-inf` before any).
    last_start: f64,
    builds: u64,
}

/// Flow fields for a fixed number of target slots.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct FieldSet {
    settings: FieldSetSettings,
    slots: Vec<Slot>,
}

impl FieldSet {
    pub fn new(settings: FieldSetSettings) -> Self {
        Self { settings, slots: Vec::new() }
    }

    pub fn settings(&self) -> &FieldSetSettings {
        &self.settings
    }

    pub fn set_settings(&mut self, settings: FieldSetSettings) {
        self.settings = settings;
    }

    /// Grows or shrinks the slots (new slots are unused).
    pub fn set_slot_count(&mut self, n: usize) {
        self.slots.resize_with(n, || Slot { wanted: NONE, last_start: f64::NEG_INFINITY, ..Default::default() });
    }

    pub fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Sets the target cell of a slot (`NONE` leaves the slot unused; its field stays readable).
    pub fn set_target(&mut self, slot: usize, cell: CellId) {
        if let Some(s) = self.slots.get_mut(slot) {
            s.wanted = cell;
        }
    }

    /// Route costs or closures changed: every field rebuilds, at most every
    /// `cost_rebuild_interval`.
    pub fn mark_costs_changed(&mut self) {
        for s in &mut self.slots {
            s.costs_dirty = true;
        }
    }

    /// The grid changed: drops every field and build, keeping targets.
    pub fn invalidate(&mut self) {
        for s in &mut self.slots {
            s.field = FlowField::new();
            s.building = false;
            s.last_start = f64::NEG_INFINITY;
            s.costs_dirty = false;
        }
    }

    /// Starts due rebuilds and advances every build by the cell budget, in parallel over slots;
    /// a finished build replaces its slot's field. `now` is the simulation time in seconds.
    pub fn tick(&mut self, grid: &SurfaceGrid, mods: &ModifierLayer, now: f64) {
        let set = self.settings;
        self.slots.par_iter_mut().for_each(|s| {
            if s.field.is_built() && s.field.direction.cell_count() != grid.cell_count() {
                s.field = FlowField::new();
            }
            if s.building && s.next_dir == usize::MAX && s.job.cell_count() != grid.cell_count() {
                s.building = false;
            }
            if !s.building && s.wanted != NONE && (s.wanted as usize) < grid.cell_count() {
                let moved = s.field.target() != s.wanted;
                let due = if !s.field.is_built() {
                    true
                } else if moved {
                    now - s.last_start >= set.target_rebuild_interval
                } else {
                    s.costs_dirty && now - s.last_start >= set.cost_rebuild_interval
                };
                if due {
                    s.job.start(grid, s.wanted);
                    s.building = true;
                    s.next_dir = usize::MAX;
                    s.costs_dirty = false;
                    s.last_start = now;
                }
            }
            if !s.building {
                return;
            }
            // A slot's first field is built at once: until it exists its agents have no route
            // at all (later rebuilds are sliced while the previous field serves).
            let budget = if s.field.is_built() { set.cells_per_tick } else { usize::MAX };
            if s.next_dir == usize::MAX {
                if !s.job.run(grid, mods, budget) {
                    return;
                }
                s.job.finish(&mut s.next.distance);
                s.next.direction.begin(grid, &s.next.distance);
                s.next_dir = 0;
                if budget != usize::MAX {
                    return;
                }
            }
            let count = budget;
            s.next_dir = s.next.direction.build_cells(grid, mods, &s.next.distance, s.next_dir, count);
            if s.next_dir >= grid.cell_count() {
                std::mem::swap(&mut s.field, &mut s.next);
                s.building = false;
                s.builds += 1;
            }
        });
    }

    /// Builds a slot's field toward `cell` now, in full (a finished field is needed at once, as
    /// when a formation order measures its routes); later `tick`s keep it current as usual.
    pub fn build_now(&mut self, slot: usize, grid: &SurfaceGrid, mods: &ModifierLayer, cell: CellId, now: f64) {
        let Some(s) = self.slots.get_mut(slot) else { return };
        if cell == NONE || cell as usize >= grid.cell_count() {
            return;
        }
        s.wanted = cell;
        s.field.rebuild(grid, mods, cell, &mut s.job);
        s.building = false;
        s.costs_dirty = false;
        s.last_start = now;
        s.builds += 1;
    }

    /// Checks loaded fields against the grid: one slot per target slot, every field, build
    /// and schedule value consistent with it, the settings usable.
    pub(crate) fn validate(&self, grid: &SurfaceGrid, target_slots: usize) -> Result<(), String> {
        let cells = grid.cell_count();
        let set = &self.settings;
        let interval_ok = |v: f64| v.is_finite() && v >= 0.0;
        if set.cells_per_tick == 0
            || !interval_ok(set.target_rebuild_interval)
            || !interval_ok(set.cost_rebuild_interval)
        {
            return Err("flow field schedule settings out of range".into());
        }
        if self.slots.len() > target_slots {
            return Err(format!("{} flow fields for {target_slots} target slots", self.slots.len()));
        }
        for (k, s) in self.slots.iter().enumerate() {
            let field = |f: &FlowField| f.distance.validate(cells).and_then(|_| f.direction.validate(cells));
            field(&s.field)
                .and_then(|_| field(&s.next))
                .and_then(|_| s.job.validate(grid))
                .map_err(|e| format!("target slot {k}: {e}"))?;
            // While headings are being built, the finished distances they read are the grid's.
            let dir_ok = !s.building
                || s.next_dir == usize::MAX
                || (s.next_dir <= cells && s.next.distance.cell_count() == cells);
            if !dir_ok || (s.wanted != NONE && s.wanted as usize >= cells) || s.last_start.is_nan() {
                return Err(format!("target slot {k}: flow field schedule out of range"));
            }
        }
        Ok(())
    }

    /// The readable field of a slot (possibly not built yet, or toward an older target cell).
    pub fn field(&self, slot: usize) -> Option<&FlowField> {
        self.slots.get(slot).map(|s| &s.field)
    }

    /// The field of a slot when it is built, toward the slot's wanted cell, and on the current
    /// route costs (no rebuild pending or running).
    pub fn current_field(&self, slot: usize) -> Option<&FlowField> {
        let s = self.slots.get(slot)?;
        let current = s.field.is_built() && s.field.target() == s.wanted && !s.costs_dirty && !s.building;
        current.then_some(&s.field)
    }

    pub fn is_building(&self, slot: usize) -> bool {
        self.slots.get(slot).is_some_and(|s| s.building)
    }

    /// Completed builds of a slot so far.
    pub fn build_count(&self, slot: usize) -> u64 {
        self.slots.get(slot).map_or(0, |s| s.builds)
    }

    pub fn heap_bytes(&self) -> usize {
        self.slots.iter().map(|s| s.field.heap_bytes() + s.next.heap_bytes() + s.job.heap_bytes()).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::super::surface::{BakeParams, BakeSamples, SurfaceSample};
    use super::*;

    fn floor(n: u32) -> SurfaceGrid {
        let s = BakeSamples::from_fn(Vec3::ZERO, 1.0, n, n, |_, _, o| o.push(SurfaceSample::walkable(0.0)));
        SurfaceGrid::bake(&s, BakeParams { clearance_radius: 0.0, ..Default::default() }).unwrap()
    }

    #[test]
    fn builds_in_slices_and_throttles() {
        let g = floor(40);
        let m = ModifierLayer::new(&g);
        let mut fs = FieldSet::new(FieldSetSettings {
            cells_per_tick: 500,
            target_rebuild_interval: 1.0,
            cost_rebuild_interval: 2.0,
        });
        fs.set_slot_count(2);
        fs.set_target(0, 0);
        let mut ticks = 0;
        while fs.build_count(0) == 0 {
            fs.tick(&g, &m, 0.0);
            ticks += 1;
        }
        // The first field is built at once (there is no older one to read meanwhile).
        assert_eq!(ticks, 1);
        assert!(fs.field(0).unwrap().is_built());
        assert!(!fs.field(1).unwrap().is_built());
        // A moved target waits for the interval; the old field stays readable meanwhile, and
        // the rebuild goes in slices: 1600 cells at 500 a tick, then headings at 500 a tick.
        fs.set_target(0, 5);
        fs.tick(&g, &m, 0.5);
        assert!(!fs.is_building(0));
        assert_eq!(fs.field(0).unwrap().target(), 0);
        let mut slices = 0;
        while fs.field(0).unwrap().target() != 5 {
            fs.tick(&g, &m, 1.0);
            slices += 1;
            assert!(
                slices == 8 || fs.field(0).unwrap().target() == 0,
                "the old field serves until the new one is done"
            );
        }
        assert_eq!(slices, 8);
        // Sliced, it is exactly the one-shot field.
        let mut one = FlowField::new();
        one.rebuild(&g, &m, 5, &mut IntegrationJob::new());
        assert_eq!(fs.field(0).unwrap().distance, one.distance);
        assert_eq!(fs.field(0).unwrap().direction, one.direction);
        // Cost changes wait for the cost interval.
        fs.mark_costs_changed();
        fs.tick(&g, &m, 2.5);
        assert!(!fs.is_building(0));
        fs.tick(&g, &m, 3.0);
        assert!(fs.is_building(0));
    }
}
